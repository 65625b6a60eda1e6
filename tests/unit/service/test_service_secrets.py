"""The API key never appears in a log line, an exception message, a traceback or a repr."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable

import httpx
import pytest
from service_helpers import KEY, FakeTime, mock_client

from rephrase_ls.service import CapabilityStore, ServiceError


def leaky_handlers() -> list[Callable[[httpx.Request], httpx.Response]]:
    """A hostile service that echoes the key everywhere it can."""

    def echo_in_body(status: int) -> Callable[[httpx.Request], httpx.Response]:
        def handler(request: httpx.Request) -> httpx.Response:
            auth = request.headers["Authorization"]
            return httpx.Response(
                status,
                json={"message": f"Key {auth} rejected ({KEY})", "code": KEY},
                headers={"X-Trace-ID": f"trace-{KEY}"},
            )

        return handler

    def connect_error(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError(f"could not connect with {request.headers['Authorization']}")

    def timeout(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout(f"timed out {KEY}", request=request)

    def malformed(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=f"<html>{KEY}</html>".encode())

    return [
        *(echo_in_body(s) for s in (400, 403, 404, 413, 415, 429, 456, 500, 529)),
        connect_error,
        timeout,
        malformed,
    ]


@pytest.mark.parametrize("handler", leaky_handlers())
async def test_key_never_leaks(
    handler: Callable[[httpx.Request], httpx.Response],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, httpx and httpcore included
    fake_time = FakeTime()
    client = mock_client(handler, fake_time, max_retries=2)
    errors: list[BaseException] = []
    for call in (
        lambda: client.rephrase(["Hello there."], target_lang="en-US"),
        lambda: client.languages("write"),
        lambda: client.usage(),
        lambda: CapabilityStore(client).get("write"),
    ):
        with pytest.raises(ServiceError) as info:
            await call()
        errors.append(info.value)

    texts = [caplog.text, repr(client), repr(client.config), str(client.config)]
    for error in errors:
        texts += [str(error), repr(error), error.message, str(error.trace_id)]
        texts.append("".join(traceback.format_exception(error)))
        texts.append(repr(getattr(error, "service_message", None)))
    for text in texts:
        assert KEY not in text
    # The scrubbed text is still useful: the service's words (minus the key) and the trace id.
    first = errors[0]
    if first.status is not None and first.status != 200:
        assert first.trace_id == "trace-***"
        assert "rejected" in first.message
    assert caplog.records, "failures are logged"
    await client.aclose()
