"""HTTP to the rephrase service: one request with its retries, errors and limits.

:class:`ServiceTransport` sends a request and returns the 2xx response, or raises the
:class:`~rephrase_ls.service.errors.ServiceError` it ended in. Retries follow service-facts: 429,
529, any 5xx, connection errors and time-outs are retried up to ``max_retries`` times, waiting
1 s × 1.6^n (capped at 120 s, ±23 % jitter) or the ``Retry-After`` the service sent (0 included),
never past the call's deadline. Sleep, randomness and the clock are injectable so tests never
wait for real. A response body is read up to :data:`MAX_RESPONSE_BYTES`. The key is only ever
put into the Authorization header; error messages and log lines are built from scrubbed text.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import platform
import random
import time
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx

from rephrase_ls import __version__
from rephrase_ls.service.config import ServiceConfig, validate_base_url
from rephrase_ls.service.errors import (
    AuthorizationFailed,
    ConnectionFailed,
    InsecureURL,
    MalformedResponse,
    NotConfigured,
    RequestTimeout,
    ServiceError,
    error_for_status,
    scheme_hint,
    scrub,
    shorten,
)

log = logging.getLogger("rephrase_ls.service")

BACKOFF_START = 1.0
BACKOFF_FACTOR = 1.6
BACKOFF_CAP = 120.0
JITTER = 0.23

#: Largest response body read, in bytes after decompression (a 10 KiB request's answer is a few
#: tens of KiB; the language lists, a few KiB). Reading stops there: a body that never ends or
#: a compressed bomb costs at most this much memory.
MAX_RESPONSE_BYTES = 16 * 1024 * 1024

Sleep = Callable[[float], Awaitable[object]]


def user_agent(suffix: str | None = None) -> str:
    """``rephrase-ls/<version> python/<x.y.z> httpx/<v>`` plus the editor suffix, if any."""
    agent = (
        f"rephrase-ls/{__version__} python/{platform.python_version()} httpx/{httpx.__version__}"
    )
    if suffix and suffix.strip():
        agent += f" {suffix.strip()}"
    return agent


def backoff_delay(retry: int, rng: random.Random) -> float:
    """Wait before retry number ``retry`` (0 for the first): 1 s × 1.6^n, ≤ 120 s, ±23 %."""
    base = min(BACKOFF_CAP, BACKOFF_START * BACKOFF_FACTOR**retry)
    return base * (1.0 + rng.uniform(-JITTER, JITTER))


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), or ``None``."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        current = datetime.now(UTC).timestamp() if now is None else now
        return max(0.0, when.timestamp() - current)
    if seconds != seconds or seconds < 0 or seconds == float("inf"):
        return None
    return seconds


class _TooLarge(Exception):
    """A response body longer than the cap (see :func:`_read_capped`)."""


async def _read_capped(response: httpx.Response, limit: int) -> bytes:
    """The decoded (decompressed) body of a streamed ``response``; raises :class:`_TooLarge`
    as soon as more than ``limit`` bytes have come, without reading further."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _with_body(streamed: httpx.Response, body: bytes) -> httpx.Response:
    """A read response with the decoded ``body`` of ``streamed`` (same status, headers but
    those that described the encoded body, request)."""
    headers = [
        (name, value)
        for name, value in streamed.headers.multi_items()
        if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    return httpx.Response(
        streamed.status_code, headers=headers, content=body, request=streamed.request
    )


def _check_shape(url: str) -> str:
    """With an explicit transport only the shape matters: ``http(s)://host``."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise InsecureURL(f"The server URL {url!r} must look like http(s)://HOST.")
    return url


class ServiceTransport:
    """Requests to one service address with the retry rules; ``aclose()`` when done.

    ``transport`` replaces the network (e.g. the embedded offline service); with it the
    https/loopback check of the base address is skipped since no socket is opened.
    """

    def __init__(
        self,
        config: ServiceConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.config = config
        self._sleep: Sleep = sleep if sleep is not None else asyncio.sleep
        self._rng = rng if rng is not None else random.Random()
        self._clock = clock if clock is not None else time.monotonic
        self._base_url: str | None = None
        self._base_error: NotConfigured | None = None
        #: Whether the service has accepted a request's Authorization header yet.
        self._accepted = False
        #: The error of the latest attempt that failed and is being retried (a connection
        #: refused, a time-out, a 5xx), None once an attempt succeeds: what a caller that stops
        #: waiting early can tell the writer while the retries go on.
        self.last_failure: ServiceError | None = None
        try:
            url = config.base_url
        except NotConfigured as exc:
            # Deferred: the client can exist (and say its backend) before it is configured.
            self._base_error = exc
        else:
            self._base_url = _check_shape(url) if transport is not None else validate_base_url(url)
        pool = config.max_concurrency + 4
        self._http = httpx.AsyncClient(
            transport=transport,
            headers={"User-Agent": user_agent(config.user_agent_suffix)},
            timeout=config.timeout,
            limits=httpx.Limits(max_connections=pool, max_keepalive_connections=pool),
            follow_redirects=False,
        )

    @property
    def base_url(self) -> str:
        """The base address requests go to; raises :class:`NotConfigured` when there is none."""
        if self._base_url is None:
            assert self._base_error is not None
            raise self._base_error
        return self._base_url

    async def aclose(self) -> None:
        await self._http.aclose()

    def _secrets(self) -> Iterable[str]:
        key = self.config.api_key
        return (key.reveal(),) if key is not None else ()

    def _headers(self, content_type: str | None) -> dict[str, str]:
        key = self.config.api_key
        if key is None:
            raise NotConfigured(
                "No API key is configured; set REPHRASE_API_KEY (or the API key setting), or "
                "use the offline service."
            )
        headers = {"Authorization": f"{self.config.auth_scheme} {key.reveal()}"}
        if content_type is not None:
            headers["Content-Type"] = content_type
        return headers

    def deadline_at(self) -> float:
        """When a call starting now must be finished by (on the injected clock)."""
        return self._clock() + self.config.deadline

    def trace_id(self, response: httpx.Response) -> str | None:
        """The answer's ``X-Trace-ID``, as the service sent it but with the key masked and
        shortened: it goes into the log and messages."""
        trace_id = response.headers.get("X-Trace-ID")
        return None if trace_id is None else shorten(scrub(trace_id, self._secrets()), 120)

    def _error_from_response(self, response: httpx.Response, what: str) -> ServiceError:
        trace_id = self.trace_id(response)
        message: str | None = None
        try:
            body = json.loads(response.content) if response.content else None
        except (ValueError, UnicodeDecodeError, RecursionError):
            body = None
        if isinstance(body, dict) and isinstance(body.get("message"), str):
            message = body["message"]
            code = body.get("code")
            if isinstance(code, str | int) and not isinstance(code, bool) and str(code):
                message = f"{message} (code {code})"
        if message is not None:
            message = shorten(scrub(message, self._secrets())) or None
        error = error_for_status(response.status_code, message, trace_id=trace_id, what=what)
        if isinstance(error, AuthorizationFailed) and not self._accepted:
            error.message += scheme_hint(self.config.auth_scheme)
        error.retry_after = parse_retry_after(response.headers.get("Retry-After"))
        return error

    async def _attempt(
        self,
        method: str,
        url: str,
        *,
        params: dict[str, str] | None,
        content: bytes | None,
        headers: dict[str, str],
        timeout: float,
        what: str,
    ) -> httpx.Response | ServiceError:
        """One attempt: the 2xx response, or the error it ended in (not raised)."""
        try:
            async with asyncio.timeout(timeout):
                request = self._http.build_request(
                    method, url, params=params, content=content, headers=headers, timeout=timeout
                )
                streamed = await self._http.send(request, stream=True)
                try:
                    body = await _read_capped(streamed, MAX_RESPONSE_BYTES)
                finally:
                    await streamed.aclose()
        except _TooLarge:
            return MalformedResponse(
                f"The service sent an answer to {what} larger than "
                f"{MAX_RESPONSE_BYTES // (1024 * 1024)} MiB; it was not read. Check that the "
                "server URL points at the rephrase service."
            )
        except (TimeoutError, httpx.TimeoutException):
            return RequestTimeout(
                f"The service did not answer {what} within {timeout:.3g} s; check the "
                "connection or try again later."
            )
        except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
            detail = shorten(scrub(str(exc), self._secrets()), 200)
            return InsecureURL(f"The server URL {self.base_url!r} cannot be used ({detail}).")
        except httpx.TransportError as exc:
            detail = shorten(scrub(str(exc) or type(exc).__name__, self._secrets()), 200)
            return ConnectionFailed(
                f"Could not reach the service at {self.base_url} ({detail}); check the server "
                "URL and the network."
            )
        except httpx.DecodingError as exc:
            detail = shorten(scrub(str(exc), self._secrets()), 200)
            return MalformedResponse(f"The service sent a body that cannot be decoded ({detail}).")
        response = _with_body(streamed, body)
        if 200 <= response.status_code < 300:
            self._accepted = True
            return response
        return self._error_from_response(response, what)

    async def send(
        self,
        method: str,
        path: str,
        *,
        deadline_at: float,
        what: str,
        params: dict[str, str] | None = None,
        content: bytes | None = None,
        content_type: str | None = None,
        expected: frozenset[int] = frozenset(),
    ) -> httpx.Response:
        """Send with retries within ``deadline_at`` and return the 2xx response.

        A failure with a status in ``expected`` (a probe whose refusal is handled) is logged at
        INFO, not WARNING.
        """
        url = self.base_url + path
        headers = self._headers(content_type)
        retry = 0
        while True:
            remaining = deadline_at - self._clock()
            if remaining <= 0:
                raise RequestTimeout(
                    f"The service did not finish {what} within the deadline of "
                    f"{self.config.deadline:.3g} s; try again later."
                )
            outcome = await self._attempt(
                method,
                url,
                params=params,
                content=content,
                headers=headers,
                timeout=min(self.config.timeout, remaining),
                what=what,
            )
            if isinstance(outcome, httpx.Response):
                self.last_failure = None
                return outcome
            error = outcome
            if error.retryable:
                self.last_failure = error
            status = error.status if error.status is not None else type(error).__name__
            error.retries = retry
            if not error.retryable or retry >= self.config.max_retries:
                log.log(
                    logging.INFO if error.status in expected else logging.WARNING,
                    "%s %s failed: %s (X-Trace-ID %s): %s",
                    method,
                    path,
                    status,
                    error.trace_id,
                    error.message,
                )
                raise error
            delay = (
                error.retry_after
                if error.retry_after is not None
                else backoff_delay(retry, self._rng)
            )
            if self._clock() + delay >= deadline_at:
                log.warning(
                    "%s %s failed: %s (X-Trace-ID %s); not retrying: waiting %.1f s would pass "
                    "the deadline",
                    method,
                    path,
                    status,
                    error.trace_id,
                    delay,
                )
                raise error
            log.info(
                "%s %s failed: %s (X-Trace-ID %s); retry %d of %d in %.2f s",
                method,
                path,
                status,
                error.trace_id,
                retry + 1,
                self.config.max_retries,
                delay,
            )
            await self._sleep(delay)
            retry += 1

    def parse_json(self, response: httpx.Response, what: str) -> Any:
        """The JSON of a response body; :class:`MalformedResponse` when it is not JSON."""
        try:
            return json.loads(response.content)
        except (ValueError, UnicodeDecodeError, RecursionError):
            # Not JSON, or JSON that Python will not read: nested thousands deep, or an integer
            # of thousands of digits.
            trace = self.trace_id(response)
            log.warning(
                "%s %s: response is not JSON (X-Trace-ID %s)",
                response.request.method,
                response.request.url.path,
                trace,
            )
            raise MalformedResponse(
                f"The service answered {what} with something that is not JSON; check that the "
                "server URL points at the rephrase service.",
                status=response.status_code,
                trace_id=trace,
            ) from None

    async def get_json(
        self,
        path: str,
        what: str,
        deadline_at: float,
        params: dict[str, str] | None = None,
        expected: frozenset[int] = frozenset(),
    ) -> Any:
        """``GET path`` with retries (see :meth:`send`) and its JSON body."""
        response = await self.send(
            "GET", path, params=params, deadline_at=deadline_at, what=what, expected=expected
        )
        return self.parse_json(response, what)
