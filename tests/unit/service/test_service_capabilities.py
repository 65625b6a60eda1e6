"""Every numbered rule of interface sections 4.1, 4.2 and 4.3, the styles/tones, and the store."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from service_helpers import FakeTime, mock_client

from rephrase_ls.service import (
    TONES,
    WRITING_STYLES,
    Capabilities,
    CapabilityStore,
    Feature,
    InvalidRequest,
    Language,
    NotConfigured,
    PairException,
    Product,
    ServerError,
    V2Language,
    V2Languages,
)
from rephrase_ls.service.capabilities import check_rephrase_options


def L(lang: str, src: bool, tgt: bool, *features: str) -> Language:
    return Language(lang, src, tgt, frozenset(features))


LANGS = (
    L("de", True, True, "formality", "glossary"),
    L("en", True, False, "glossary"),
    L("en-US", False, True, "glossary"),
    L("ja", True, True, "formality"),
    L("fr", True, True, "formality", "glossary"),
    L("xx", False, False, "glossary"),
    L("ga", False, True),
)
PRODUCTS = (
    Product(
        "translate_text",
        (
            Feature("formality", False, True),
            Feature("glossary", True, True),
        ),
    ),
    Product("write", (Feature("writing_style", False, True),)),
)
EXCEPTIONS = (PairException("de", "fr", frozenset({"formality"})),)
CAPS = Capabilities("translate_text", LANGS, PRODUCTS, EXCEPTIONS)


def codes(langs: tuple[Language, ...]) -> list[str]:
    return [lang.lang for lang in langs]


# ---- 4.1 rule 1: sources and targets by the usable_as_* flags
def test_4_1_1_sources_and_targets() -> None:
    assert codes(CAPS.sources()) == ["de", "en", "ja", "fr"]
    assert codes(CAPS.targets()) == ["de", "en-US", "ja", "fr", "ga"]


# ---- 4.1 rule 2: target-only features judged on the target alone
def test_4_1_2_target_only_feature_ignores_source() -> None:
    assert CAPS.target_supports("ja", "formality")
    assert not CAPS.target_supports("en-US", "formality")
    # The source lacking formality does not matter.
    assert CAPS.supports("en", "ja", "formality")
    assert CAPS.supports(None, "ja", "formality")
    assert not CAPS.supports("de", "en-US", "formality")
    assert not CAPS.target_supports("unknown", "formality")


# ---- 4.1 rule 3: a both-sides feature needs both
def test_4_1_3_glossary_needs_both() -> None:
    assert CAPS.both_support("de", "en-US", "glossary")
    assert CAPS.supports("de", "en-US", "glossary")
    assert not CAPS.supports("ja", "de", "glossary")  # source lacks it
    assert not CAPS.supports("de", "ja", "glossary")  # target lacks it
    assert not CAPS.supports(None, "de", "glossary")


def test_4_1_3_sides_default_without_products_list() -> None:
    bare = Capabilities("translate_text", LANGS)
    assert bare.feature_sides("glossary") == (True, True)
    assert bare.feature_sides("formality") == (False, True)
    assert not bare.supports("ja", "de", "glossary")
    assert bare.supports("en", "ja", "formality")


# ---- 4.1 rule 4: glossary targets from a source
def test_4_1_4_glossary_targets() -> None:
    assert codes(CAPS.glossary_targets("de")) == ["de", "en-US", "fr"]
    assert codes(CAPS.glossary_targets("EN")) == ["de", "en-US", "fr"]
    assert CAPS.glossary_targets("ja") == ()  # the source lacks glossary
    assert CAPS.glossary_targets("zz") == ()  # unknown source
    # xx lists glossary but is not usable as a target; ga is a target without glossary.
    assert "xx" not in codes(CAPS.glossary_targets("de"))
    assert "ga" not in codes(CAPS.glossary_targets("de"))


# ---- 4.2: runtime check from the products list
def test_4_2_runtime_pair_features() -> None:
    assert CAPS.runtime_pair_features("de", "fr") == {"formality", "glossary"}
    assert CAPS.runtime_pair_features("en", "ja") == {"formality"}
    assert CAPS.runtime_pair_features("ja", "de") == {"formality"}  # glossary needs the source
    assert CAPS.runtime_pair_features("de", "en-US") == {"glossary"}
    assert CAPS.runtime_pair_features("de", "ga") == frozenset()


def test_4_2_feature_required_on_neither_side_is_always_supported() -> None:
    caps = Capabilities(
        "p",
        (L("a", True, True), L("b", True, True)),
        (Product("p", (Feature("free", False, False),)),),
    )
    assert caps.runtime_pair_features("a", "b") == {"free"}
    assert Capabilities("q", LANGS, PRODUCTS).runtime_pair_features("de", "fr") == frozenset()


def test_4_2_later_shape_end_to_end() -> None:
    product = Product.from_json(
        {
            "resource": "write",
            "features": {
                "auto_detection": {"needs_source_support": True},
                "writing_style": {"needs_target_support": True},
                "tone": {"needs_target_support": True},
            },
        }
    )
    langs = tuple(
        Language.from_json(o)
        for o in (
            {"lang": "de", "usable_as_source": True, "usable_as_target": True,
             "features": {"auto_detection": {}, "writing_style": {}, "tone": {}}},
            {"lang": "fr", "usable_as_source": True, "usable_as_target": True,
             "features": {"writing_style": {}}},
        )
    )  # fmt: skip
    caps = Capabilities("write", langs, (product,))
    assert caps.runtime_pair_features("de", "fr") == {"auto_detection", "writing_style"}
    assert caps.runtime_pair_features("fr", "de") == {"writing_style", "tone"}


# ---- 4.3 rules 1-3: exceptions authoritative, intersection otherwise
def test_4_3_exception_replaces_intersection() -> None:
    # Intersection of de and fr would be {formality, glossary}; the exception says formality only.
    assert CAPS.pair_features("de", "fr") == {"formality"}
    assert CAPS.pair_features("DE", "Fr") == {"formality"}
    assert CAPS.has_exception("de", "fr")


def test_4_3_exception_may_add_features() -> None:
    caps = Capabilities("p", LANGS, (), (PairException("ja", "en-US", frozenset({"glossary"})),))
    assert caps.pair_features("ja", "en-US") == {"glossary"}


def test_4_3_intersection_without_exception() -> None:
    assert CAPS.pair_features("fr", "de") == {"formality", "glossary"}  # not the reverse pair
    assert CAPS.pair_features("de", "ja") == {"formality"}
    assert CAPS.pair_features("de", "unknown") == frozenset()


# ---- 4.3 rule 4: ignoring exceptions is not a failure (the service disables the feature):
# a snapshot without the exceptions list still answers with the plain intersection.
def test_4_3_4_without_exceptions_list() -> None:
    caps = Capabilities("translate_text", LANGS, PRODUCTS, ())
    assert caps.pair_features("de", "fr") == {"formality", "glossary"}


def test_find_is_case_insensitive() -> None:
    assert CAPS.find("EN-us") is LANGS[2]
    assert CAPS.find(" de ") is LANGS[0]
    assert CAPS.find("pt") is None


# ---- styles and tones
def test_styles_and_tones_from_writing_style() -> None:
    caps = Capabilities(
        "write", (L("de", True, True, "writing_style"), L("ja", True, True)), PRODUCTS
    )
    assert caps.writing_styles("DE") == WRITING_STYLES
    assert caps.tones("de") == TONES  # no tone feature named anywhere: fall back
    assert caps.writing_styles("ja") == () and caps.tones("ja") == ()


def test_tones_from_tone_feature_when_named() -> None:
    caps = Capabilities(
        "write",
        (
            L("de", True, True, "writing_style", "tone"),
            L("fr", True, True, "writing_style"),
            L("it", True, True, "tone"),
        ),
    )
    assert caps.tones("de") == TONES
    assert caps.tones("fr") == ()  # tone is named in the list, fr lacks it
    assert caps.tones("it") == TONES and caps.writing_styles("it") == ()


def test_v2_languages() -> None:
    v2 = V2Languages(
        source=(V2Language("DE", "German", False),),
        target=(V2Language("DE", "German", True), V2Language("EN-GB", "English", False)),
    )
    assert v2.supports_formality("de")
    assert not v2.supports_formality("EN-GB")
    assert not v2.supports_formality("XX")
    assert v2.find("en-gb") is not None and v2.find("en-gb", "source") is None


# ---- the store
class Service:
    """A MockTransport handler for the three v3 lists, with a switch to fail."""

    def __init__(self) -> None:
        self.fail = False
        self.calls: list[str] = []
        self.lang_features = ["writing_style"]

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls.append(f"{request.url.path}?{request.url.query.decode()}")
        if self.fail:
            return httpx.Response(500, json={"message": "down"})
        path = request.url.path
        body: Any
        if path == "/v3/languages":
            body = [{"lang": "de", "usable_as_source": True, "usable_as_target": True,
                     "features": self.lang_features}]  # fmt: skip
        elif path == "/v3/languages/products":
            body = [{"name": "write", "features": [{"name": "writing_style",
                                                    "required_on_target": True}]}]  # fmt: skip
        elif path == "/v3/languages/exceptions":
            body = []
        elif path == "/v2/languages":
            kind = request.url.params.get("type")
            body = [{"language": "DE", "name": "German", "supports_formality": kind == "target"}]
        else:
            return httpx.Response(404, json={"message": "no"})
        return httpx.Response(200, content=json.dumps(body))


async def test_store_caches_with_ttl(fake_time: FakeTime) -> None:
    service = Service()
    client = mock_client(service, fake_time, capability_ttl=100.0, max_retries=0)
    store = CapabilityStore(client, clock=fake_time.clock)
    assert store.peek("write") is None
    caps = await store.get("write")
    assert caps.writing_styles("de") == WRITING_STYLES
    assert len(service.calls) == 3
    assert store.peek("write") is caps
    fake_time.now += 99
    assert await store.get("write") is caps
    assert len(service.calls) == 3
    fake_time.now += 2
    service.lang_features = []
    fresh = await store.get("write")
    assert fresh is not caps and fresh.writing_styles("de") == ()
    assert len(service.calls) == 6


async def test_store_keeps_last_good_copy_on_failed_refresh(fake_time: FakeTime) -> None:
    service = Service()
    client = mock_client(service, fake_time, capability_ttl=10.0, max_retries=0)
    store = CapabilityStore(client, clock=fake_time.clock)
    with pytest.raises(NotConfigured):
        await CapabilityStore(mock_client(service, fake_time, server_url=None)).get("write")
    caps = await store.get("write")
    service.fail = True
    fake_time.now += 11
    assert await store.get("write") is caps  # failed refresh: last good copy
    calls = len(service.calls)
    assert await store.get("write") is caps  # and no hammering right after a failure
    assert len(service.calls) == calls
    fake_time.now += 11
    service.fail = False
    service.lang_features = []
    assert (await store.get("write")).writing_styles("de") == ()


async def test_store_without_copy_raises(fake_time: FakeTime) -> None:
    service = Service()
    service.fail = True
    store = CapabilityStore(mock_client(service, fake_time, max_retries=0), clock=fake_time.clock)
    with pytest.raises(ServerError):
        await store.get("write")
    assert store.peek("write") is None


async def test_get_or_last_known_says_why_and_never_raises(fake_time: FakeTime) -> None:
    service = Service()
    service.fail = True
    store = CapabilityStore(
        mock_client(service, fake_time, capability_ttl=10.0, max_retries=0),
        clock=fake_time.clock,
    )
    caps, error = await store.get_or_last_known("write")
    assert caps is None and isinstance(error, ServerError)  # nothing known yet
    service.fail = False
    caps, error = await store.get_or_last_known("write")
    assert caps is not None and error is None
    assert caps.writing_styles("de") == WRITING_STYLES
    # A failed refresh: the last known copy, and the error to say.
    service.fail = True
    fake_time.now += 11
    again, error = await store.get_or_last_known("write")
    assert again is caps and isinstance(error, ServerError)
    calls = len(service.calls)
    again, error = await store.get_or_last_known("write")  # not retried at once, still said
    assert again is caps and isinstance(error, ServerError) and len(service.calls) == calls
    assert await store.get("write") is caps  # get keeps its contract: the copy, no error
    fake_time.now += 11
    service.fail = False
    fresh, error = await store.get_or_last_known("write")
    assert fresh is not caps and error is None
    unconfigured = CapabilityStore(mock_client(service, fake_time, server_url=None))
    caps, error = await unconfigured.get_or_last_known("write")
    assert caps is None and isinstance(error, NotConfigured)


def test_check_rephrase_options() -> None:
    caps = Capabilities(
        "write",
        (
            Language("de", True, True, frozenset({"writing_style"})),
            Language("fr", True, True, frozenset()),
        ),
    )
    with pytest.raises(InvalidRequest, match="prefer_casual"):
        check_rephrase_options(caps, "fr", "casual", None)
    with pytest.raises(InvalidRequest, match="no tones"):
        check_rephrase_options(caps, "FR", None, "friendly")
    with pytest.raises(InvalidRequest, match="supported there: simple, business"):
        check_rephrase_options(caps, "de", "nonexistent", None)
    with pytest.raises(InvalidRequest, match="'write'"):
        check_rephrase_options(Capabilities("translate_text", ()), None, None, None)
    # Allowed: supported style (any case of the code), prefer_ anywhere, default, no target,
    # no capabilities known yet.
    check_rephrase_options(caps, "DE", "casual", None)
    check_rephrase_options(caps, "fr", "prefer_casual", None)
    check_rephrase_options(caps, "fr", None, "default")
    check_rephrase_options(caps, None, "casual", None)
    check_rephrase_options(None, "fr", "casual", "friendly")


async def test_store_is_per_base_address(fake_time: FakeTime) -> None:
    service = Service()
    store = CapabilityStore(mock_client(service, fake_time), clock=fake_time.clock)
    await store.get("write")
    store.client = mock_client(service, fake_time, server_url="https://other.example")
    assert store.peek("write") is None  # another address never sees this one's lists
    await store.get("write")
    assert len(service.calls) == 6


async def test_store_v2(fake_time: FakeTime) -> None:
    service = Service()
    store = CapabilityStore(mock_client(service, fake_time), clock=fake_time.clock)
    assert store.peek_v2() is None
    v2 = await store.get_v2()
    assert v2.supports_formality("de")
    assert store.peek_v2() is v2
    assert sorted(service.calls) == ["/v2/languages?type=source", "/v2/languages?type=target"]


async def test_store_failure_cancels_the_other_fetches(fake_time: FakeTime) -> None:
    import asyncio

    cancelled: list[str] = []

    async def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v3/languages/products":
            return httpx.Response(500, json={"message": "down"})
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.append(request.url.path)
            raise
        raise AssertionError("unreachable")

    store = CapabilityStore(mock_client(handler, fake_time, max_retries=0), clock=fake_time.clock)
    with pytest.raises(ServerError):
        await store.get("write")
    assert sorted(cancelled) == ["/v3/languages", "/v3/languages/exceptions"]


async def test_get_within_answers_in_time_and_the_load_goes_on(fake_time: FakeTime) -> None:
    import asyncio

    from rephrase_ls.service.errors import RequestTimeout

    service = Service()
    gate = asyncio.Event()

    async def slow(request: httpx.Request) -> httpx.Response:
        await gate.wait()
        return service(request)

    client = mock_client(slow, fake_time, max_retries=0)
    store = CapabilityStore(client, clock=fake_time.clock)
    caps, error = await store.get_within("write", 0.05)
    assert caps is None and isinstance(error, RequestTimeout)
    assert client.base_url in error.message and "check the server URL" in error.message
    # Asked again while loading: joins the same load rather than starting another.
    caps, error = await store.get_within("write", 0.05)
    assert caps is None and isinstance(error, RequestTimeout)
    gate.set()
    caps, error = await store.get_within("write", 5.0)
    assert caps is not None and error is None and caps.writing_styles("de") == WRITING_STYLES
    assert len(service.calls) == 3


async def test_get_within_gives_the_last_copy_and_the_error_being_retried(
    fake_time: FakeTime,
) -> None:
    import asyncio

    service = Service()
    never = asyncio.Event()

    async def backoff(seconds: float) -> None:
        await never.wait()  # the retries wait longer than the caller

    client = mock_client(service, fake_time, capability_ttl=10.0, max_retries=5)
    client._http._sleep = backoff
    store = CapabilityStore(client, clock=fake_time.clock)
    known = await store.get("write")
    service.fail = True
    fake_time.now += 11
    caps, error = await store.get_within("write", 0.05)
    assert caps is known
    assert isinstance(error, ServerError) and "down" in error.message
    assert client.last_failure is error
    for task in list(store._loading.values()):
        task.cancel()
