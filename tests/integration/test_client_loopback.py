"""The service client against the offline service over REAL loopback HTTP (uvicorn, 127.0.0.1).

Each test starts its own offline service (its own knobs and counters) in a background thread on
an ephemeral port, and talks to it with a ServiceClient exactly as to the real service.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn

from rephrase_ls.offline.app import OfflineOptions, create_app
from rephrase_ls.service import (
    AuthorizationFailed,
    CapabilityStore,
    FreeTierNotAllowed,
    MalformedResponse,
    QuotaExceeded,
    RequestTimeout,
    SecretKey,
    ServiceClient,
    ServiceConfig,
    TooManyRequests,
)

KEY = "loopback-key-42"

_TARGETS = (
    "AR BG CS DA DE EL EN-GB EN-US ES ES-419 ET FI FR HU ID IT JA KO LT LV NB NL PL "
    "PT-BR PT-PT RO RU SK SL SV TR UK ZH ZH-HANS ZH-HANT"
)
_FORMALITY = "DE ES ES-419 FR IT JA NL PL PT-BR PT-PT RU"
V2_TARGETS = set(_TARGETS.split())
V2_FORMALITY = set(_FORMALITY.split())


@contextmanager
def offline_service(servers: list[uvicorn.Server] | None = None, **knobs: Any) -> Iterator[str]:
    """Serve a fresh offline app on 127.0.0.1:<ephemeral> in a thread; yields its base URL.

    ``servers``, when given, receives the uvicorn server (to look at its connections).
    """
    # IPPROTO_TCP: asyncio sets TCP_NODELAY on accepted connections only for sockets that say
    # they are TCP (else Nagle + delayed ACK add ~40 ms to every response).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(OfflineOptions(**knobs)),
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    if servers is not None:
        servers.append(server)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the offline service did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        # The client is closed by now; a request still held (latency, hang) is not waited for.
        server.should_exit = server.force_exit = True
        thread.join(timeout=10)
        sock.close()


def client_for(url: str, key: str = KEY, **overrides: Any) -> ServiceClient:
    values: dict[str, Any] = {
        "server_url": url,
        "free_server_url": url,
        "api_key": SecretKey(key),
        "max_retries": 2,
    }
    values.update(overrides)
    return ServiceClient(ServiceConfig(**values), backend="offline")


class RecordingSleep:
    """Records the waits the client asks for without waiting: the service's faults are counted
    per request, not timed, so a retry can go at once."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        await asyncio.sleep(0)


ENGLISH = "This is is a short text. it has a doubled word and a sentence without capital."


async def test_every_endpoint() -> None:
    with offline_service() as url:
        async with client_for(url) as client:
            write = await client.languages("write")
            assert any(lang.lang.lower() == "de" and lang.usable_as_target for lang in write)
            translate = await client.languages("translate_text")
            assert any("glossary" in lang.features for lang in translate)
            products = await client.products()
            assert {p.name for p in products} >= {"translate_text", "write"}
            exceptions = await client.exceptions("translate_text")
            assert exceptions, "the offline data has at least one pair exception"
            source = await client.v2_languages()
            target = await client.v2_languages("target")
            assert source and {lang.language for lang in target} == V2_TARGETS
            assert {lang.language for lang in target if lang.supports_formality} == V2_FORMALITY
            names = {lang.language: lang.name for lang in target}
            assert names["ZH"] == names["ZH-HANS"]
            before = await client.usage()
            [improved] = await client.rephrase([ENGLISH], target_lang="en-US")
            assert improved.text != ENGLISH
            assert improved.target_language.lower() == "en-us"
            assert improved.detected_source_language.lower().startswith("en")
            after = await client.usage()
            assert after.character_count > before.character_count


async def test_capabilities_on_real_data() -> None:
    with offline_service() as url:
        async with client_for(url) as client:
            store = CapabilityStore(client)
            caps = await store.get("translate_text")
            assert store.peek("translate_text") is caps
            # The exceptions are authoritative: at least one pair differs from the intersection.
            differs = [
                e
                for e in caps.exceptions
                if e.features
                != caps.find(e.source_lang).features  # type: ignore[union-attr]
                & caps.find(e.target_lang).features  # type: ignore[union-attr]
            ]
            assert differs
            e = differs[0]
            assert caps.pair_features(e.source_lang, e.target_lang) == e.features
            write = await store.get("write")
            assert write.writing_styles("de") and write.tones("en-US")
            v2 = await store.get_v2()
            assert v2.supports_formality("de") and not v2.supports_formality("EN-GB")


async def test_later_shape() -> None:
    with offline_service(later_shape=True) as url:
        async with client_for(url) as client:
            write = await client.languages("write")
            assert client.uses_resource_parameter
            de = next(lang for lang in write if lang.lang.lower() == "de")
            assert "writing_style" in de.features and de.status is not None
            products = await client.products()
            names = {p.name for p in products}
            assert "write" in names
            assert await client.exceptions("write") == ()
            caps = await CapabilityStore(client).get("write")
            assert caps.product_object() is not None
            assert "tone" in caps.runtime_pair_features("de", "de") | caps.pair_features("de", "de")


async def test_big_mixed_texts_split_and_joined_in_order() -> None:
    paragraphs = [
        "Das ist ein deutscher Absatz mit einigen Sätzen. Er ist recht lang. " * 200,
        "A short English one.",
        "Ceci est un paragraphe français. Il contient plusieurs phrases. " * 150,
    ]
    with offline_service() as url:
        async with client_for(url, max_concurrency=3) as client:
            progress: list[tuple[int, int]] = []
            results = await client.rephrase(
                paragraphs[:1], target_lang="de", on_progress=lambda d, t: progress.append((d, t))
            )
            assert progress[-1][0] == progress[-1][1] > 1  # it took several requests
            assert len(results) == 1 and len(results[0].text) > 10_000
            english = await client.rephrase([paragraphs[1]] * 5, target_lang="en-US")
            assert [r.text for r in english] == [english[0].text] * 5
            french = await client.rephrase([paragraphs[2]], target_lang="fr")
            assert french[0].detected_source_language.lower().startswith("fr")
            assert french[0].text.count(".") == paragraphs[2].count(".")


async def test_429_then_success_honours_retry_after() -> None:
    with offline_service(fail=[(429, 2)], retry_after=0.2) as url:
        sleep = RecordingSleep()
        client = ServiceClient(
            ServiceConfig(server_url=url, api_key=SecretKey(KEY), max_retries=3), sleep=sleep
        )
        async with client:
            [result] = await client.rephrase([ENGLISH], target_lang="en-US")
            assert result.text
            assert sleep.delays == [0.2, 0.2]


async def test_500_then_success_backs_off() -> None:
    with offline_service(fail=[(500, 1)]) as url:
        sleep = RecordingSleep()
        client = ServiceClient(ServiceConfig(server_url=url, api_key=SecretKey(KEY)), sleep=sleep)
        async with client:
            await client.rephrase([ENGLISH], target_lang="en-US")
        # No Retry-After with a 500: the first backoff step, 1 s ± 23 %.
        assert len(sleep.delays) == 1 and 0.77 <= sleep.delays[0] <= 1.23


async def test_too_many_requests_exhausts_retries() -> None:
    with offline_service(fail=[(429, 10)], retry_after=0.01) as url:
        async with client_for(url, max_retries=2) as client:
            with pytest.raises(TooManyRequests) as info:
                await client.rephrase([ENGLISH], target_lang="en-US")
            assert info.value.trace_id  # the offline service sends X-Trace-ID


async def test_456_is_not_retried() -> None:
    with offline_service(fail=[(456, 1)]) as url:
        async with client_for(url) as client:
            with pytest.raises(QuotaExceeded) as info:
                await client.rephrase([ENGLISH], target_lang="en-US")
            assert info.value.status == 456 and not info.value.retryable
            # The knob is used up: the next call succeeds, so there was exactly one attempt.
            await client.rephrase([ENGLISH], target_lang="en-US")


async def test_character_limit_gives_456() -> None:
    # The limit is enforced once reached: the first call uses it up, the second is refused.
    with offline_service(character_limit=len(ENGLISH) - 1) as url:
        async with client_for(url) as client:
            await client.rephrase([ENGLISH], target_lang="en-US")
            with pytest.raises(QuotaExceeded, match="quota"):
                await client.rephrase([ENGLISH], target_lang="en-US")
            usage = await client.usage()
            assert usage.character_limit == len(ENGLISH) - 1
            assert usage.character_count >= len(ENGLISH)


async def test_403_for_an_unknown_key_and_a_wrong_scheme() -> None:
    with offline_service(keys=("the-right-key",)) as url:
        async with client_for(url, key="the-wrong-key") as client:
            with pytest.raises(AuthorizationFailed) as info:
                await client.languages("write")
            assert info.value.status == 403 and "the-wrong-key" not in str(info.value)
        async with client_for(url, key="the-right-key", auth_scheme="Bearer") as client:
            with pytest.raises(AuthorizationFailed):
                await client.usage()
        async with client_for(url, key="the-right-key") as client:
            assert (await client.usage()).character_count == 0
    with offline_service(auth_scheme="Bearer") as url:
        async with client_for(url, auth_scheme="Bearer") as client:
            assert await client.languages("write")


async def test_free_tier_path() -> None:
    with offline_service() as url:
        # Detected from the key: refused before any request (the usage count does not move).
        async with client_for(url, key="free-key:fx") as client:
            assert client.config.effective_tier == "free"
            with pytest.raises(FreeTierNotAllowed):
                await client.rephrase([ENGLISH], target_lang="en-US")
            assert await client.languages("write")  # the lists work on the free tier
        # Forced to 'paid' with a free key: the service itself refuses with 403.
        async with client_for(url, key="free-key:fx", tier="paid") as client:
            with pytest.raises(AuthorizationFailed, match="paid-tier"):
                await client.rephrase([ENGLISH], target_lang="en-US")


async def test_hang_times_out_then_retry_succeeds() -> None:
    with offline_service(hang=1) as url:
        async with client_for(url, timeout=0.3, max_retries=0) as client:
            started = time.monotonic()
            with pytest.raises(RequestTimeout):
                await client.rephrase([ENGLISH], target_lang="en-US")
            assert time.monotonic() - started < 5
    with offline_service(hang=1) as url:
        sleep = RecordingSleep()
        client = ServiceClient(
            ServiceConfig(server_url=url, api_key=SecretKey(KEY), timeout=0.3, max_retries=1),
            sleep=sleep,
        )
        async with client:
            [result] = await client.rephrase([ENGLISH], target_lang="en-US")
            assert result.text and len(sleep.delays) == 1


async def test_malformed_body_is_an_error() -> None:
    with offline_service(malformed=2) as url:
        async with client_for(url) as client:
            for _ in range(2):
                with pytest.raises(MalformedResponse):
                    await client.rephrase([ENGLISH, "Another text here."], target_lang="en-US")
            assert len(await client.rephrase([ENGLISH], target_lang="en-US")) == 1


async def test_cancelling_the_caller_stops_waiting_at_once() -> None:
    servers: list[uvicorn.Server] = []
    with offline_service(servers, latency_ms=5000) as url:
        async with client_for(url, max_concurrency=2) as client:
            task = asyncio.create_task(client.rephrase(["Text. " * 1500] * 4, target_lang="en-US"))
            # Both requests in flight: the service holds them for 5 s.
            await _settled(lambda: len(servers[0].server_state.tasks) >= 2)
            assert len(servers[0].server_state.tasks) >= 2
            started = time.monotonic()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            # Well under the 5 s the answer would take: the caller did not wait for it.
            assert time.monotonic() - started < 4.0
            # The client is still usable afterwards.
            assert await client.languages("write")


async def _settled(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait until `condition` holds or `seconds` pass (the assertion after it then says why)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)


async def test_connections_are_kept_alive() -> None:
    servers: list[uvicorn.Server] = []
    with offline_service(servers) as url:
        state = servers[0].server_state
        async with client_for(url, max_concurrency=3) as client:
            for _ in range(5):
                await client.usage()
            # uvicorn counts a request once its response is complete, in its own thread, which
            # can be just after the client has read the answer: wait (bounded) for the count.
            await _settled(lambda: state.total_requests >= 5)
            assert state.total_requests == 5 and len(state.connections) == 1
            texts = ["A sentence of English text for the service. " * 60] * 12
            progress: list[int] = []
            await client.rephrase(
                texts, target_lang="en-US", on_progress=lambda d, t: progress.append(t)
            )
            assert progress[-1] > 3
            await _settled(lambda: state.total_requests >= 5 + progress[-1])
            assert state.total_requests == 5 + progress[-1]
            assert len(state.connections) <= 3  # one per concurrent request, reused
