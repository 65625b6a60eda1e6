"""ServiceClient over httpx.MockTransport: endpoints, errors, retries, rephrase rules."""

from __future__ import annotations

import asyncio
import json
import platform
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest
from service_helpers import BASE, KEY, FakeTime, echo_improvements

from rephrase_ls import __version__
from rephrase_ls.service import (
    AuthorizationFailed,
    BadRequest,
    ConnectionFailed,
    FreeTierNotAllowed,
    InsecureURL,
    InvalidRequest,
    MalformedResponse,
    NotConfigured,
    NotFound,
    QuotaExceeded,
    RequestTimeout,
    RequestTooLarge,
    ServerError,
    ServiceClient,
    ServiceConfig,
    ServiceError,
    TooManyRequests,
    UnexpectedStatus,
    UnsupportedMediaType,
)
from rephrase_ls.service.transport import backoff_delay, parse_retry_after

MakeClient = Callable[..., ServiceClient]


def respond(
    status: int, body: Any = None, **headers: str
) -> Callable[[httpx.Request], httpx.Response]:
    def handler(request: httpx.Request) -> httpx.Response:
        if isinstance(body, bytes):
            return httpx.Response(status, content=body, headers=headers)
        return httpx.Response(status, json=body, headers=headers)

    return handler


class Recorder:
    """Records requests and answers from a list of handlers (the last one repeats)."""

    def __init__(self, *handlers: Callable[[httpx.Request], Any]) -> None:
        self.handlers = list(handlers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> Any:
        self.requests.append(request)
        index = min(len(self.requests), len(self.handlers)) - 1
        return self.handlers[index](request)


# ------------------------------------------------------------------ headers and endpoints


async def test_headers(make_client: MakeClient) -> None:
    rec = Recorder(respond(200, []))
    client = make_client(rec, auth_scheme="Bearer", user_agent_suffix="vscode/1.95")
    await client.languages("write")
    request = rec.requests[0]
    assert request.headers["Authorization"] == f"Bearer {KEY}"
    assert request.headers["User-Agent"] == (
        f"rephrase-ls/{__version__} python/{platform.python_version()} "
        f"httpx/{httpx.__version__} vscode/1.95"
    )
    client = make_client(rec)
    await client.languages("write")
    assert rec.requests[1].headers["Authorization"] == f"Service-Auth-Key {KEY}"
    assert "vscode" not in rec.requests[1].headers["User-Agent"]


async def test_every_endpoint(make_client: MakeClient) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        path, params = request.url.path, dict(request.url.params)
        assert request.method == "GET"
        if path == "/v3/languages":
            assert params == {"product": "translate_text"}
            return httpx.Response(
                200, json=[{"lang": "de", "usable_as_source": True, "features": ["glossary"]}]
            )
        if path == "/v3/languages/products":
            return httpx.Response(200, json=[{"name": "write", "features": []}])
        if path == "/v3/languages/exceptions":
            assert params == {"product": "write"}
            return httpx.Response(
                200, json=[{"source_lang": "de", "target_lang": "en", "features": ["glossary"]}]
            )
        if path == "/v2/languages":
            return httpx.Response(200, json=[{"language": params["type"].upper(), "name": "n"}])
        if path == "/v2/usage":
            return httpx.Response(200, json={"character_count": 3, "character_limit": 10})
        return httpx.Response(404)

    client = make_client(handler)
    assert (await client.languages("translate_text"))[0].lang == "de"
    assert (await client.products())[0].name == "write"
    assert (await client.exceptions("write"))[0].features == {"glossary"}
    assert (await client.v2_languages())[0].language == "SOURCE"
    assert (await client.v2_languages("target"))[0].language == "TARGET"
    assert (await client.usage()).character_limit == 10
    with pytest.raises(InvalidRequest):
        await client.v2_languages("both")
    with pytest.raises(InvalidRequest):
        await client.languages("")


async def test_later_shape_resource_parameter_is_remembered(make_client: MakeClient) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if "product" in request.url.params:
            return httpx.Response(
                400, json={"message": "Parameter 'product' was renamed to 'resource'."}
            )
        assert request.url.params["resource"] == "write"
        if request.url.path == "/v3/languages/exceptions":
            return httpx.Response(404, json={"message": "Not found"})
        return httpx.Response(
            200,
            json=[
                {"lang": "de", "usable_as_target": True, "features": {"tone": {"status": "stable"}}}
            ],
        )

    rec = Recorder(handler)
    client = make_client(rec)
    langs = await client.languages("write")
    assert langs[0].features == {"tone"} and langs[0].usable_as_source is False
    assert client.uses_resource_parameter
    assert len(rec.requests) == 2
    await client.languages("write")
    assert len(rec.requests) == 3  # straight to 'resource' now
    assert await client.exceptions("write") == ()  # 404: no exceptions
    assert await client.exceptions("write") == ()
    assert len(rec.requests) == 4  # and not asked again


async def test_unrelated_400_is_not_taken_for_a_rename(make_client: MakeClient) -> None:
    client = make_client(respond(400, {"message": "Value for 'product' not supported."}))
    with pytest.raises(BadRequest) as info:
        await client.languages("nonsense")
    assert info.value.service_message == "Value for 'product' not supported."
    assert not client.uses_resource_parameter


async def test_products_falls_back_to_resources(make_client: MakeClient) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v3/languages/products":
            return httpx.Response(404)
        assert request.url.path == "/v3/languages/resources"
        return httpx.Response(
            200,
            json=[{"resource": "write", "features": {"tone": {"needs_target_support": True}}}],
        )

    rec = Recorder(handler)
    client = make_client(rec)
    products = await client.products()
    assert products[0].name == "write" and products[0].features[0].required_on_target
    await client.products()
    assert [r.url.path for r in rec.requests] == [
        "/v3/languages/products",
        "/v3/languages/resources",
        "/v3/languages/resources",
    ]


# ---------------------------------------------------------------------------- errors

ERRORS = [
    (400, BadRequest, False),
    (401, AuthorizationFailed, False),
    (403, AuthorizationFailed, False),
    (404, NotFound, False),
    (413, RequestTooLarge, False),
    (415, UnsupportedMediaType, False),
    (418, UnexpectedStatus, False),
    (429, TooManyRequests, True),
    (456, QuotaExceeded, False),
    (500, ServerError, True),
    (502, ServerError, True),
    (503, ServerError, True),
    (504, ServerError, True),
    (529, TooManyRequests, True),
]


@pytest.mark.parametrize(("status", "cls", "retryable"), ERRORS)
@pytest.mark.parametrize("endpoint", ["languages", "rephrase"])
async def test_each_status_gives_its_error(
    make_client: MakeClient,
    fake_time: FakeTime,
    status: int,
    cls: type[ServiceError],
    retryable: bool,
    endpoint: str,
) -> None:
    rec = Recorder(
        respond(status, {"message": "Service words.", "code": "E1"}, **{"X-Trace-ID": "t-1"})
    )
    client = make_client(rec, max_retries=3)
    with pytest.raises(cls) as info:
        if endpoint == "languages":
            await client.languages("write")
        else:
            await client.rephrase(["Hello."], target_lang="en-US")
    error = info.value
    assert error.status == status
    assert error.trace_id == "t-1"
    assert error.retryable is retryable
    assert "Service words. (code E1)" in error.message
    assert len(rec.requests) == (4 if retryable else 1)
    assert len(fake_time.sleeps) == (3 if retryable else 0)


@pytest.mark.parametrize("body", [b"", b"<html>Bad gateway</html>", b"[1, 2]", b'{"message": 5}'])
async def test_error_bodies_that_are_not_the_json_shape(
    make_client: MakeClient, body: bytes
) -> None:
    client = make_client(respond(403, body))
    with pytest.raises(AuthorizationFailed) as info:
        await client.usage()
    assert "key" in info.value.message and info.value.trace_id is None


async def test_400_keeps_service_message(make_client: MakeClient) -> None:
    client = make_client(respond(400, {"message": "Style 'casual' not supported for ja."}))
    with pytest.raises(BadRequest) as info:
        await client.rephrase(["x"], target_lang="ja", writing_style="casual")
    assert info.value.service_message == "Style 'casual' not supported for ja."
    assert "Style 'casual' not supported for ja." in str(info.value)


# --------------------------------------------------------------------------- retries


def test_backoff_schedule() -> None:
    rng = random.Random(1)
    for retry in range(20):
        base = min(120.0, 1.6**retry)
        delay = backoff_delay(retry, rng)
        assert base * 0.77 <= delay <= base * 1.23
    # The jitter really varies.
    assert len({round(backoff_delay(0, rng), 6) for _ in range(20)}) > 10


async def test_retries_back_off_then_succeed(make_client: MakeClient, fake_time: FakeTime) -> None:
    rec = Recorder(respond(503), respond(500), respond(429), respond(200, []))
    client = make_client(rec)
    assert await client.languages("write") == ()
    assert len(rec.requests) == 4
    for slept, base in zip(fake_time.sleeps, (1.0, 1.6, 2.56), strict=True):
        assert base * 0.77 <= slept <= base * 1.23


async def test_backoff_is_capped(make_client: MakeClient, fake_time: FakeTime) -> None:
    client = make_client(respond(500), max_retries=14, deadline=100_000.0)
    with pytest.raises(ServerError):
        await client.usage()
    assert len(fake_time.sleeps) == 14
    assert max(fake_time.sleeps) <= 120 * 1.23
    assert fake_time.sleeps[-1] >= 120 * 0.77


async def test_retry_after_is_honoured(make_client: MakeClient, fake_time: FakeTime) -> None:
    rec = Recorder(respond(429, {"message": "slow down"}, **{"Retry-After": "7"}), respond(200, []))
    client = make_client(rec)
    await client.languages("write")
    assert fake_time.sleeps == [7.0]


async def test_retry_after_zero_retries_at_once(
    make_client: MakeClient, fake_time: FakeTime
) -> None:
    # A 503 that says Retry-After: 0 (as the offline service can be told to) is retried without
    # the backoff a 5xx otherwise gets: a test driving faults through a real server waits 0 s.
    busy = respond(503, {"message": "busy"}, **{"Retry-After": "0"})
    rec = Recorder(busy, busy, busy, respond(200, []))
    client = make_client(rec)
    await client.languages("write")
    assert fake_time.sleeps == [0.0, 0.0, 0.0] and len(rec.requests) == 4


def test_parse_retry_after() -> None:
    assert parse_retry_after("0") == 0.0
    assert parse_retry_after("3") == 3.0
    assert parse_retry_after("0.5") == 0.5
    assert parse_retry_after(None) is None
    assert parse_retry_after("soon") is None
    assert parse_retry_after("-1") is None
    assert parse_retry_after("nan") is None
    now = datetime(2030, 1, 1, tzinfo=UTC)
    when = format_datetime(now + timedelta(seconds=30), usegmt=True)
    assert parse_retry_after(when, now=now.timestamp()) == pytest.approx(30)
    past = format_datetime(now - timedelta(seconds=30), usegmt=True)
    assert parse_retry_after(past, now=now.timestamp()) == 0.0


async def test_retry_never_waits_past_the_deadline(
    make_client: MakeClient, fake_time: FakeTime
) -> None:
    rec = Recorder(respond(429, {}, **{"Retry-After": "50"}), respond(200, []))
    client = make_client(rec, deadline=30.0)
    with pytest.raises(TooManyRequests):
        await client.languages("write")
    assert fake_time.sleeps == [] and len(rec.requests) == 1
    # With backoff: 1 + 1.6 + 2.56 + 4.1 ≈ 9.3 s of waits fit in 10 s, the next (6.6 s) does not.
    fake_time.sleeps.clear()
    client = make_client(respond(500), deadline=10.0, max_retries=10, seed=3)
    with pytest.raises(ServerError):
        await client.usage()
    assert 0 < sum(fake_time.sleeps) <= 10.0
    assert len(fake_time.sleeps) < 10


async def test_connection_errors_and_timeouts_are_retried(
    make_client: MakeClient, fake_time: FakeTime
) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("Connection refused", request=request)

    def slow(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("timed out", request=request)

    rec = Recorder(refuse, slow, respond(200, []))
    assert await make_client(rec).languages("write") == ()
    assert len(fake_time.sleeps) == 2
    with pytest.raises(ConnectionFailed, match="Connection refused") as info:
        await make_client(refuse, max_retries=2).usage()
    assert info.value.retryable and info.value.status is None
    with pytest.raises(RequestTimeout):
        await make_client(slow, max_retries=0).usage()


async def test_an_attempt_that_hangs_times_out(make_client: MakeClient) -> None:
    async def hang(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(3600)
        raise AssertionError("unreachable")

    client = make_client(hang, timeout=0.05, max_retries=0)
    with pytest.raises(RequestTimeout, match="did not answer"):
        await client.rephrase(["Hello."])


async def test_deadline_already_passed(make_client: MakeClient, fake_time: FakeTime) -> None:
    rec = Recorder(respond(200, []))

    class Clock:
        calls = 0

        def __call__(self) -> float:
            self.calls += 1
            return 0.0 if self.calls == 1 else 500.0

    client = ServiceClient(
        ServiceConfig(server_url=BASE, api_key=make_client(rec).config.api_key, deadline=5.0),
        transport=httpx.MockTransport(rec),
        clock=Clock(),
        sleep=fake_time.sleep,
    )
    with pytest.raises(RequestTimeout, match="deadline"):
        await client.usage()
    assert rec.requests == []


# ------------------------------------------------------------------- malformed responses


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"\xff\xfe",
        b"{}",
        b'{"improvements": {}}',
        b'{"improvements": [{"text": "A"}]}',
        b'{"improvements": [{"text": 1, "target_language": "de", '
        b'"detected_source_language": "de"}]}',
        json.dumps(
            {
                "improvements": [
                    {"text": "A", "target_language": "de", "detected_source_language": "de"}
                ]
                * 2
            }
        ).encode(),
    ],
)
async def test_malformed_rephrase_response(make_client: MakeClient, body: bytes) -> None:
    rec = Recorder(respond(200, body, **{"X-Trace-ID": "t-9"}))
    client = make_client(rec)
    with pytest.raises(MalformedResponse) as info:
        await client.rephrase(["Hello."])
    assert info.value.trace_id == "t-9"
    assert len(rec.requests) == 1  # not retried


async def test_malformed_list_response(make_client: MakeClient) -> None:
    with pytest.raises(MalformedResponse):
        await make_client(respond(200, {"lang": "de"})).languages("write")
    with pytest.raises(MalformedResponse):
        await make_client(respond(200, [{"lang": 3}])).languages("write")
    with pytest.raises(MalformedResponse):
        await make_client(respond(200, b"<html>")).usage()


async def test_one_malformed_request_among_many_gives_no_partial_data(
    make_client: MakeClient,
) -> None:
    count = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal count
        count += 1
        if count == 3:
            return httpx.Response(200, json={"improvements": []})
        return echo_improvements(request)

    client = make_client(handler, max_concurrency=1)
    with pytest.raises(MalformedResponse):
        await client.rephrase(["Sentence number one. " * 200] * 10, target_lang="en-US")


# ------------------------------------------------------------------------ rephrase rules


async def test_rephrase_body_and_result(make_client: MakeClient) -> None:
    rec = Recorder(echo_improvements)
    client = make_client(rec)
    result = await client.rephrase(
        ["héllo", "wörld 😀"], target_lang="de", writing_style="prefer_casual"
    )
    assert [r.text for r in result] == ["HÉLLO", "WÖRLD 😀"]
    assert result[0].target_language == "de" and result[0].detected_source_language == "en"
    request = rec.requests[0]
    assert request.method == "POST" and request.url.path == "/v2/write/rephrase"
    assert request.headers["Content-Type"] == "application/json"
    assert request.content == (
        '{"text":["héllo","wörld 😀"],"target_lang":"de","writing_style":"prefer_casual"}'.encode()
    )


async def test_tone_and_no_options(make_client: MakeClient) -> None:
    rec = Recorder(echo_improvements)
    client = make_client(rec)
    await client.rephrase(["a"], tone="prefer_friendly")
    await client.rephrase(["a"])
    assert json.loads(rec.requests[0].content) == {"text": ["a"], "tone": "prefer_friendly"}
    assert json.loads(rec.requests[1].content) == {"text": ["a"]}


async def test_style_and_tone_together_refused_before_sending(make_client: MakeClient) -> None:
    rec = Recorder(echo_improvements)
    client = make_client(rec)
    with pytest.raises(InvalidRequest, match="together"):
        await client.rephrase(["a"], writing_style="casual", tone="friendly")
    with pytest.raises(InvalidRequest):
        await client.rephrase(["a"], writing_style="prefer_default")
    with pytest.raises(InvalidRequest):
        await client.rephrase(["a"], writing_style="two words")
    assert rec.requests == []


async def test_free_tier_refused_before_any_request(make_client: MakeClient) -> None:
    from rephrase_ls.service import SecretKey

    rec = Recorder(echo_improvements)
    for client in (
        make_client(rec, api_key=SecretKey("abc:fx")),
        make_client(rec, tier="free"),
    ):
        with pytest.raises(FreeTierNotAllowed, match="paid-tier key"):
            await client.rephrase(["Hello."])
    assert rec.requests == []


async def test_bad_texts_refused(make_client: MakeClient) -> None:
    rec = Recorder(echo_improvements)
    client = make_client(rec)
    with pytest.raises(InvalidRequest):
        await client.rephrase("a single string")
    with pytest.raises(InvalidRequest):
        await client.rephrase(["ok", 3])  # type: ignore[list-item]
    with pytest.raises(InvalidRequest, match="surrogate"):
        await client.rephrase(["bad \ud800 text"])
    with pytest.raises(InvalidRequest):
        await client.rephrase(["a"], target_lang="")
    assert await client.rephrase([]) == []
    assert rec.requests == []


async def test_many_texts_order_limit_concurrency_and_progress(make_client: MakeClient) -> None:
    in_flight = 0
    peak = 0
    rng = random.Random(5)

    async def handler(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, peak
        assert len(request.content) <= 10 * 1024
        in_flight += 1
        peak = max(peak, in_flight)
        await asyncio.sleep(rng.random() * 0.01)
        in_flight -= 1
        return echo_improvements(request, str.swapcase)

    progress: list[tuple[int, int]] = []
    client = make_client(handler, max_concurrency=3)
    texts = [f"Text {i}: " + "Ünïcödé sentence. " * rng.randint(1, 900) for i in range(60)]
    result = await client.rephrase(
        texts, target_lang="en-US", on_progress=lambda d, t: progress.append((d, t))
    )
    total = progress[-1][1]
    assert total > 10
    assert progress == [(i, total) for i in range(1, total + 1)]
    assert peak == 3
    # Each text comes back in order; split texts are re-joined piece by piece.
    assert len(result) == len(texts)
    assert [r.text for r in result] == [t.swapcase() for t in texts]
    assert any(len(t.encode()) > 10 * 1024 for t in texts)  # some texts were split


async def test_split_text_joined_exactly(make_client: MakeClient) -> None:
    rec = Recorder(lambda r: echo_improvements(r, str.strip))  # a service that strips pieces
    client = make_client(rec)
    text = "Ein Satz mit Wörtern.\n\n" * 1000 + "Ende."
    [result] = await client.rephrase([text], target_lang="de")
    assert len(rec.requests) > 1
    assert result.text == text


async def test_failure_cancels_the_other_requests(make_client: MakeClient) -> None:
    cancelled = 0
    calls = 0

    async def handler(request: httpx.Request) -> httpx.Response:
        nonlocal cancelled, calls
        calls += 1
        if calls == 2:
            return httpx.Response(456, json={"message": "Quota exceeded"})
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled += 1
            raise
        raise AssertionError("unreachable")

    client = make_client(handler, max_concurrency=4)
    with pytest.raises(QuotaExceeded):
        await client.rephrase(["Text. " * 1500] * 8, target_lang="en-US")
    assert cancelled == 3


async def test_cancelling_the_caller_cancels_requests_in_flight(make_client: MakeClient) -> None:
    started = asyncio.Event()
    in_flight = 0
    cancelled = 0

    async def handler(request: httpx.Request) -> httpx.Response:
        nonlocal in_flight, cancelled
        in_flight += 1
        if in_flight == 2:
            started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled += 1
            raise
        raise AssertionError("unreachable")

    client = make_client(handler, max_concurrency=2)
    task = asyncio.create_task(client.rephrase(["Text. " * 1500] * 6, target_lang="en-US"))
    await asyncio.wait_for(started.wait(), 5)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cancelled == 2
    assert in_flight == 2  # nothing new was started after the cancel


# ------------------------------------------------------------------- configuration errors


async def test_not_configured(make_client: MakeClient) -> None:
    client = make_client(respond(200, []), server_url=None)
    assert client.backend == "service"
    with pytest.raises(NotConfigured, match="serverUrl"):
        await client.languages("write")
    client = make_client(respond(200, []), api_key=None)
    with pytest.raises(NotConfigured, match="REPHRASE_API_KEY"):
        await client.languages("write")


async def test_insecure_url_refused_without_transport() -> None:
    with pytest.raises(InsecureURL):
        ServiceClient(ServiceConfig(server_url="http://api.example.com"))
    client = ServiceClient(ServiceConfig(server_url="http://127.0.0.1:1"))
    await client.aclose()
    # With an explicit transport no socket is opened: any address is accepted.
    async with ServiceClient(
        ServiceConfig(server_url="http://offline.embedded"),
        transport=httpx.MockTransport(respond(200, [])),
        backend="offline",
    ) as embedded:
        assert embedded.backend == "offline"
        assert embedded.base_url == "http://offline.embedded"


# ------------------------------------------------------------------------------ 413


async def test_413_resends_in_smaller_bodies(make_client: MakeClient) -> None:
    accepted: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        if len(request.content) > 3000:  # a deployment with a smaller limit than 10 KiB
            return httpx.Response(413, json={"message": "Request Entity Too Large"})
        accepted.append(len(request.content))
        return echo_improvements(request, str.swapcase)

    progress: list[tuple[int, int]] = []
    client = make_client(handler)
    texts = ["Erster Satz hier. Zweiter Satz dort! " * 200, "Kurz.", "Noch ein Text. " * 300]
    result = await client.rephrase(
        texts, target_lang="de", on_progress=lambda d, t: progress.append((d, t))
    )
    assert [r.text for r in result] == [t.swapcase() for t in texts]
    assert accepted and max(accepted) <= 3000
    total = progress[-1][1]
    assert progress == [(i, total) for i in range(1, total + 1)]  # planned requests only


async def test_413_for_every_size_gives_up(make_client: MakeClient) -> None:
    rec = Recorder(respond(413, {"message": "too large"}))
    client = make_client(rec)
    with pytest.raises(RequestTooLarge):
        await client.rephrase(["x" * 5000], target_lang="de")
    # The body, then halves while they stay above 512 bytes (only the first part is tried).
    assert [len(r.content) for r in rec.requests] == [5032, 2516, 1258, 629]


async def test_bad_url_shape_with_a_transport() -> None:
    with pytest.raises(InsecureURL):
        ServiceClient(
            ServiceConfig(server_url="offline.embedded"),
            transport=httpx.MockTransport(respond(200, [])),
        )
    with pytest.raises(InsecureURL):
        ServiceClient(
            ServiceConfig(server_url="ftp://x"), transport=httpx.MockTransport(respond(200, []))
        )
