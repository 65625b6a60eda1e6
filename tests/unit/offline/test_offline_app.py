"""The offline service app, in-process through ``httpx.ASGITransport`` (no socket)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from rephrase_ls.offline import EMBEDDED_BASE_URL, embedded_transport
from rephrase_ls.offline import engine as offline_engine
from rephrase_ls.offline.app import NO_LIMIT
from rephrase_ls.offline.knobs import OfflineOptions
from rephrase_ls.offline.request import MAX_BODY_BYTES
from rephrase_ls.text import detect as text_detect

KEY = "paid-key-123"
AUTH = {"Authorization": f"Service-Auth-Key {KEY}"}

EN = "This is the test and it is fine."
DE = "Das ist der Test und er ist gut."
FR = "Ceci est le test et il est bon pour la maison."
ES = "Este es el texto de la casa y el perro."
PT = "Este é o texto da casa e não do cão."
IT = "Questo è il test e la casa di una persona."

V2_TARGETS = {
    "AR", "BG", "CS", "DA", "DE", "EL", "EN-GB", "EN-US", "ES", "ES-419", "ET", "FI", "FR", "HU",
    "ID", "IT", "JA", "KO", "LT", "LV", "NB", "NL", "PL", "PT-BR", "PT-PT", "RO", "RU", "SK", "SL",
    "SV", "TR", "UK", "ZH", "ZH-HANS", "ZH-HANT",
}
V2_FORMALITY = {"DE", "ES", "ES-419", "FR", "IT", "JA", "NL", "PL", "PT-BR", "PT-PT", "RU"}
WRITE_TARGETS = {"de", "en-GB", "en-US", "es", "fr", "it", "pt-BR", "pt-PT"}
WRITE_SOURCES = {"de", "en", "es", "fr", "it", "pt"}

ClientFactory = Callable[..., httpx.AsyncClient]


@pytest.fixture
async def make_client() -> AsyncIterator[ClientFactory]:
    """Builds clients on fresh embedded services; closes them at the end."""
    clients: list[httpx.AsyncClient] = []

    def factory(options: OfflineOptions | None = None, *, auth: bool = True,
                key: str = KEY, scheme: str = "Service-Auth-Key") -> httpx.AsyncClient:
        headers = {"Authorization": f"{scheme} {key}"} if auth else {}
        client = httpx.AsyncClient(transport=embedded_transport(options),
                                   base_url=EMBEDDED_BASE_URL, headers=headers)
        clients.append(client)
        return client

    yield factory
    for client in clients:
        await client.aclose()


@pytest.fixture
def client(make_client: ClientFactory) -> httpx.AsyncClient:
    return make_client()


async def rephrase(client: httpx.AsyncClient, **fields: Any) -> httpx.Response:
    return await client.post("/v2/write/rephrase", json=fields)


def message_of(response: httpx.Response) -> str:
    body = response.json()
    assert set(body) == {"message"}, body
    assert isinstance(body["message"], str) and body["message"]
    return str(body["message"])


# ----------------------------------------------------------------------------------------------
# Language lists (interface shape)


async def test_v3_write_languages(client: httpx.AsyncClient) -> None:
    response = await client.get("/v3/languages", params={"product": "write"})
    assert response.status_code == 200
    rows = response.json()
    for row in rows:
        assert set(row) >= {"lang", "usable_as_source", "usable_as_target", "features"}
        assert isinstance(row["features"], list)
    assert {r["lang"] for r in rows if r["usable_as_target"]} == WRITE_TARGETS
    assert {r["lang"] for r in rows if r["usable_as_source"]} == WRITE_SOURCES
    styled = {r["lang"] for r in rows if r["usable_as_target"] and "writing_style" in r["features"]}
    assert styled == {"de", "en-GB", "en-US"}


async def test_v3_translate_languages_agree_with_v2(client: httpx.AsyncClient) -> None:
    rows = (await client.get("/v3/languages", params={"product": "translate_text"})).json()
    target_rows = [r for r in rows if r["usable_as_target"]]
    assert {r["lang"].upper() for r in target_rows} == V2_TARGETS
    formal = {r["lang"].upper() for r in target_rows if "formality" in r["features"]}
    assert formal == V2_FORMALITY
    glossary_targets = {r["lang"] for r in target_rows if "glossary" in r["features"]}
    assert glossary_targets and glossary_targets != {r["lang"] for r in target_rows}
    assert all(set(r["features"]) <= {"formality", "glossary", "writing_style"} for r in rows)


@pytest.mark.parametrize("query", [{}, {"product": "voice"}, {"product": "WRITE"},
                                   [("product", "write"), ("product", "translate_text")]])
async def test_v3_languages_bad_product(client: httpx.AsyncClient, query: Any) -> None:
    response = await client.get("/v3/languages", params=query)
    assert response.status_code == 400
    assert "product" in message_of(response)


async def test_v3_products(client: httpx.AsyncClient) -> None:
    products = {p["name"]: p for p in (await client.get("/v3/languages/products")).json()}
    assert set(products) == {"translate_text", "write"}
    flags = {
        (product, f["name"]): (f["required_on_source"], f["required_on_target"])
        for product, p in products.items()
        for f in p["features"]
    }
    assert flags == {
        ("translate_text", "glossary"): (True, True),
        ("translate_text", "formality"): (False, True),
        ("write", "writing_style"): (False, True),
    }


async def test_v3_exceptions_differ_from_intersection(client: httpx.AsyncClient) -> None:
    rows = (await client.get("/v3/languages", params={"product": "translate_text"})).json()
    features = {r["lang"]: set(r["features"]) for r in rows}
    exceptions = (await client.get("/v3/languages/exceptions",
                                   params={"product": "translate_text"})).json()
    assert exceptions
    differing = 0
    for item in exceptions:
        assert set(item) == {"source_lang", "target_lang", "features"}
        source, target = item["source_lang"], item["target_lang"]
        assert source in features and target in features
        if set(item["features"]) != features[source] & features[target]:
            differing += 1
    assert differing >= 1
    write = await client.get("/v3/languages/exceptions", params={"product": "write"})
    assert write.status_code == 200 and write.json() == []
    bad = await client.get("/v3/languages/exceptions", params={"product": "nope"})
    assert bad.status_code == 400


async def test_v2_languages(client: httpx.AsyncClient) -> None:
    default = (await client.get("/v2/languages")).json()
    source = (await client.get("/v2/languages", params={"type": "source"})).json()
    assert default == source
    assert {"EN", "PT", "DE"} <= {r["language"] for r in source}
    assert not {"EN-US", "PT-BR"} & {r["language"] for r in source}
    target = (await client.get("/v2/languages", params={"type": "target"})).json()
    codes = [r["language"] for r in target]
    assert len(codes) == len(set(codes))
    assert set(codes) == V2_TARGETS
    assert {r["language"] for r in target if r["supports_formality"] is True} == V2_FORMALITY
    assert all(isinstance(r["supports_formality"], bool) and r["name"] for r in target)
    names = {r["language"]: r["name"] for r in target}
    assert names["ZH"] == names["ZH-HANS"] != names["ZH-HANT"]
    bad = await client.get("/v2/languages", params={"type": "both"})
    assert bad.status_code == 400 and "type" in message_of(bad)


async def test_unknown_path_and_method(client: httpx.AsyncClient) -> None:
    missing = await client.get("/v2/translate-everything")
    assert missing.status_code == 404
    message_of(missing)
    assert missing.headers["x-trace-id"]
    wrong_method = await client.delete("/v2/write/rephrase")
    assert wrong_method.status_code == 405
    assert "message" in wrong_method.json()


# ----------------------------------------------------------------------------------------------
# Later shape


async def test_later_shape_lists(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(later_shape=True))
    renamed = await client.get("/v3/languages", params={"product": "write"})
    assert renamed.status_code == 400 and "renamed" in message_of(renamed)
    assert (await client.get("/v3/languages")).status_code == 400
    rows = (await client.get("/v3/languages", params={"resource": "write"})).json()
    for row in rows:
        assert isinstance(row["features"], dict)
        assert all(v == {"status": "stable"} for v in row["features"].values())
        assert row["status"] in {"stable", "beta", "early_access"}
    by_lang = {r["lang"]: r for r in rows}
    assert {r["lang"] for r in rows if r["usable_as_target"]} == WRITE_TARGETS
    assert "auto_detection" in by_lang["en"]["features"]
    # Styles and tones where the engine has rules for them (German and English), nowhere else.
    assert {"writing_style", "tone"} <= set(by_lang["de"]["features"])
    assert {"writing_style", "tone"} <= set(by_lang["en-GB"]["features"])
    assert not {"writing_style", "tone"} & set(by_lang["fr"]["features"])
    assert not {"writing_style", "tone"} & set(by_lang["pt-PT"]["features"])
    translate = (await client.get("/v3/languages", params={"resource": "translate_text"})).json()
    assert any(r["status"] != "stable" for r in translate)

    assert (await client.get("/v3/languages/products")).status_code == 404
    resources = {r["name"]: r for r in (await client.get("/v3/languages/resources")).json()}
    glossary = next(f for f in resources["translate_text"]["features"] if f["name"] == "glossary")
    assert glossary == {"name": "glossary", "needs_source_support": True,
                        "needs_target_support": True}
    formality = next(f for f in resources["translate_text"]["features"]
                     if f["name"] == "formality")
    assert "needs_source_support" not in formality and formality["needs_target_support"] is True
    assert {f["name"] for f in resources["write"]["features"]} == {
        "auto_detection", "writing_style", "tone"}
    gone = await client.get("/v3/languages/exceptions", params={"resource": "translate_text"})
    assert gone.status_code == 404
    v2 = await client.get("/v2/languages", params={"type": "target"})
    assert v2.status_code == 200 and {r["language"] for r in v2.json()} == V2_TARGETS


async def test_interface_shape_has_no_later_endpoints(client: httpx.AsyncClient) -> None:
    assert (await client.get("/v3/languages/resources")).status_code == 404
    ignored = await client.get("/v3/languages", params={"resource": "write"})
    assert ignored.status_code == 400  # 'product' is the required parameter here


async def test_later_shape_rephrase_follows_its_write_list(make_client: ClientFactory) -> None:
    later = make_client(OfflineOptions(later_shape=True))
    early = make_client()
    documented = make_client(OfflineOptions.as_documented(), scheme="DeepL-Auth-Key")
    # The offline service's own lists offer French styles in neither shape (the engine has no
    # rules for them); the documented list does, as the service's documentation says.
    for client, status in ((later, 400), (early, 400), (documented, 200)):
        answer = await rephrase(client, text=[FR], target_lang="fr", writing_style="casual")
        assert answer.status_code == status, answer.text
    assert (await rephrase(later, text=[DE], target_lang="de", tone="friendly")).status_code == 200


def test_the_offline_lists_offer_styles_exactly_where_the_engine_has_rules() -> None:
    from rephrase_ls.offline.catalogue import catalogue
    from rephrase_ls.offline.engine.styles import STYLED_LANGUAGES, rule_set
    from rephrase_ls.service.models import TONES, WRITING_STYLES

    for later in (False, True):
        for row in catalogue(later).languages["write"]:
            base = row.lang.split("-")[0].lower()
            has_rules = all(rule_set(base, name) for name in WRITING_STYLES + TONES)
            assert has_rules == (base in STYLED_LANGUAGES), row.lang
            if row.usable_as_target:
                assert ("writing_style" in row.features) == has_rules, (later, row.lang)


async def test_the_documented_profile(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions.as_documented(), scheme="DeepL-Auth-Key")
    old_scheme = make_client(OfflineOptions.as_documented())
    assert (await old_scheme.get("/v3/languages", params={"resource": "write"})).status_code == 403
    assert (await client.get("/v3/languages", params={"product": "write"})).status_code == 400
    rows = (await client.get("/v3/languages", params={"resource": "write"})).json()
    styled = {r["lang"] for r in rows if r["usable_as_target"]
              and {"writing_style", "tone"} <= set(r["features"])}
    assert styled == {"de", "en-GB", "en-US", "es", "fr", "it", "pt-BR", "pt-PT"}
    plain = {r["lang"] for r in rows if r["usable_as_target"] and r["lang"] not in styled}
    assert plain == {"ja", "ko", "zh"}
    assert (await client.get("/v3/languages/exceptions",
                             params={"resource": "write"})).status_code == 404
    answer = await rephrase(client, text=[ES], target_lang="es", tone="friendly")
    assert answer.status_code == 200
    with pytest.raises(ValueError, match="later_shape"):
        OfflineOptions(documented=True)


async def test_a_kanji_heading_is_japanese_among_japanese_texts(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions.as_documented(), scheme="DeepL-Auth-Key")
    body = "これはテストの文章です。今日はいい天気ですね。"
    for texts in (["説明"], ["説明", body]):
        answer = await rephrase(client, text=texts, target_lang="ja")
        assert answer.status_code == 200, answer.text
        assert [i["detected_source_language"] for i in answer.json()["improvements"]] == [
            "ja"
        ] * len(texts)
    # Read together with Japanese, without a target, it is Japanese too; alone, Chinese.
    answer = await rephrase(client, text=["説明", body])
    assert [i["detected_source_language"] for i in answer.json()["improvements"]] == ["ja", "ja"]
    alone = await rephrase(client, text=["説明"])
    assert alone.json()["improvements"][0]["detected_source_language"] == "zh"
    # A Chinese sentence is not a heading: still refused with a Japanese target.
    refused = await rephrase(client, text=["这是一个测试文本。今天天气很好。"], target_lang="ja")
    assert refused.status_code == 400 and "Chinese" in message_of(refused)


# ----------------------------------------------------------------------------------------------
# Authentication and tiers


async def test_missing_or_malformed_authorization(make_client: ClientFactory) -> None:
    for client in (make_client(auth=False), make_client(scheme="Bearer"),
                   make_client(key="")):
        for response in (await client.get("/v3/languages", params={"product": "write"}),
                         await client.get("/v2/usage"),
                         await rephrase(client, text=[EN])):
            assert response.status_code == 403
            assert "Authorization" in message_of(response)


async def test_restricted_keys_and_custom_scheme(make_client: ClientFactory) -> None:
    options = OfflineOptions(keys=("alpha", "beta:fx"), auth_scheme="Custom-Key")
    good = make_client(options, key="alpha", scheme="Custom-Key")
    assert (await good.get("/v2/usage")).status_code == 200
    other = make_client(options, key="gamma-secret", scheme="Custom-Key")
    denied = await other.get("/v2/usage")
    assert denied.status_code == 403
    assert "gamma-secret" not in denied.text
    wrong_scheme = make_client(options, key="alpha")
    assert (await wrong_scheme.get("/v2/usage")).status_code == 403
    # The scheme word is matched case-insensitively, as HTTP auth schemes are.
    lower = make_client(options, key="alpha", scheme="custom-key")
    assert (await lower.get("/v2/usage")).status_code == 200


async def test_free_tier_key(make_client: ClientFactory) -> None:
    client = make_client(key="free-key-0001:fx")
    refused = await rephrase(client, text=[EN], target_lang="en-US")
    assert refused.status_code == 403
    message = message_of(refused)
    assert "paid-tier" in message and "free-key-0001" not in message
    assert (await client.get("/v3/languages", params={"product": "write"})).status_code == 200
    usage = (await client.get("/v2/usage")).json()
    assert usage == {"character_count": 0, "character_limit": 500_000}


def test_options_repr_hides_keys_and_validates() -> None:
    options = OfflineOptions(keys=("very-secret-key",))
    assert "very-secret-key" not in repr(options)
    with pytest.raises(ValueError):
        OfflineOptions(keys=())
    with pytest.raises(ValueError):
        OfflineOptions(keys=("has space",))
    with pytest.raises(ValueError):
        OfflineOptions(auth_scheme="two words")
    with pytest.raises(ValueError):
        OfflineOptions(fail=[(200, 1)])
    with pytest.raises(ValueError):
        OfflineOptions(fail=[(429, 0)])
    with pytest.raises(ValueError):
        OfflineOptions(latency_ms=-1)
    with pytest.raises(ValueError):
        OfflineOptions(hang=-1)
    with pytest.raises(ValueError):
        OfflineOptions(character_limit=-5)
    with pytest.raises(ValueError):
        OfflineOptions(retry_after=-0.5)
    with pytest.raises(ValueError, match="workers"):
        OfflineOptions(workers=-1)
    with pytest.raises(ValueError, match="workers"):
        OfflineOptions(workers=True)
    with pytest.raises(ValueError, match="preload needs worker processes"):
        OfflineOptions(preload=True)


# ----------------------------------------------------------------------------------------------
# Rephrase: success paths


async def test_rephrase_json_keeps_order_and_echoes_target(client: httpx.AsyncClient) -> None:
    texts = ["this is the the test and it is fine.", "the dog is is in the house.", ""]
    response = await rephrase(client, text=texts, target_lang="EN-us")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    improvements = response.json()["improvements"]
    assert [i["text"] for i in improvements] == [
        offline_engine.improve(t, "en-us") for t in texts]
    assert improvements[0]["text"] != texts[0]
    assert all(i["target_language"] == "EN-us" for i in improvements)
    assert all(i["detected_source_language"] == "en" for i in improvements)


async def test_rephrase_form_body(client: httpx.AsyncClient) -> None:
    body = urlencode([("text", DE), ("text", "der Hund ist ist gut."), ("target_lang", "de")])
    response = await client.post("/v2/write/rephrase", content=body,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 200
    improvements = response.json()["improvements"]
    assert len(improvements) == 2
    assert improvements[1]["text"] == offline_engine.improve("der Hund ist ist gut.", "de")
    assert improvements[1]["detected_source_language"] == "de"


async def test_rephrase_without_target_uses_detected_language(client: httpx.AsyncClient) -> None:
    response = await rephrase(client, text=[DE, EN, "Hello"])
    assert response.status_code == 200
    improvements = response.json()["improvements"]
    # "Hello" alone is unsure; it takes the language of the texts as a whole.
    joined = text_detect.detect_language("\n\n".join([DE, EN, "Hello"]))
    assert [i["target_language"] for i in improvements] == ["de", "en", joined]
    assert [i["detected_source_language"] for i in improvements] == ["de", "en", joined]


async def test_rephrase_without_target_and_unsure_is_refused(client: httpx.AsyncClient) -> None:
    texts = ["42", "!!"]  # no words at all: no detector can be sure
    assert text_detect.detect_language("\n\n".join(texts)) is None
    response = await rephrase(client, text=texts)
    assert response.status_code == 400
    assert "target_lang" in message_of(response)


async def test_rephrase_variant_conversion_is_allowed(client: httpx.AsyncClient) -> None:
    for target in ("en-GB", "en-US"):
        response = await rephrase(client, text=[EN], target_lang=target)
        assert response.status_code == 200
    response = await rephrase(client, text=[PT], target_lang="pt-pt")
    assert response.status_code == 200
    assert response.json()["improvements"][0]["detected_source_language"] == "pt"


async def test_rephrase_unsure_text_is_accepted_for_any_target(client: httpx.AsyncClient) -> None:
    assert text_detect.detect_language("42 !") is None
    response = await rephrase(client, text=["42 !"], target_lang="fr")
    assert response.status_code == 200
    assert response.json()["improvements"][0]["detected_source_language"] == "fr"


@pytest.fixture
def engine_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Records the arguments the app gives the engine (the real engine still answers)."""
    calls: list[dict[str, Any]] = []
    real = offline_engine.improve

    def recording(text: str, target_lang: str, **kwargs: Any) -> str:
        calls.append({"target_lang": target_lang, **kwargs})
        return real(text, target_lang, **kwargs)

    monkeypatch.setattr(offline_engine, "improve", recording)
    return calls


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"text": [EN], "target_lang": "en-GB", "writing_style": "business"},
         {"target_lang": "en-gb", "writing_style": "business", "tone": None}),
        ({"text": [EN], "target_lang": "en-US", "writing_style": "prefer_academic"},
         {"target_lang": "en-us", "writing_style": "academic", "tone": None}),
        ({"text": [FR], "target_lang": "fr", "writing_style": "prefer_academic"},
         {"target_lang": "fr", "writing_style": None, "tone": None}),
        ({"text": [FR], "target_lang": "fr", "tone": "prefer_friendly"},
         {"target_lang": "fr", "writing_style": None, "tone": None}),
        ({"text": [DE], "target_lang": "de", "tone": "diplomatic"},
         {"target_lang": "de", "writing_style": None, "tone": "diplomatic"}),
        ({"text": [FR], "target_lang": "fr", "writing_style": "default"},
         {"target_lang": "fr", "writing_style": None, "tone": None}),
        ({"text": [EN], "writing_style": "casual"},
         {"target_lang": "en", "writing_style": "casual", "tone": None}),
        ({"text": [ES], "tone": "prefer_confident"},
         {"target_lang": "es", "writing_style": None, "tone": None}),
    ],
)
async def test_styles_and_tones_reach_the_engine(
    client: httpx.AsyncClient, engine_calls: list[dict[str, Any]],
    fields: dict[str, Any], expected: dict[str, Any],
) -> None:
    response = await rephrase(client, **fields)
    assert response.status_code == 200, response.text
    assert len(engine_calls) == 1
    call = engine_calls[0]
    assert {k: call[k] for k in expected} == expected
    assert call["known_words"] == frozenset()


async def test_engine_runs_off_the_event_loop(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[str] = []
    real_improve, real_detect = offline_engine.improve, text_detect.detect_language

    def improve(text: str, target_lang: str, **kwargs: Any) -> str:
        threads.append(threading.current_thread().name)
        return real_improve(text, target_lang, **kwargs)

    def detect(text: str) -> str | None:
        threads.append(threading.current_thread().name)
        return real_detect(text)

    monkeypatch.setattr(offline_engine, "improve", improve)
    monkeypatch.setattr(text_detect, "detect_language", detect)
    assert (await rephrase(client, text=[EN, EN], target_lang="en-US")).status_code == 200
    assert len(threads) == 4  # two texts (each told its language alone), two improvements
    assert threading.main_thread().name not in threads


async def test_engine_failure_is_a_500_with_a_message(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(text: str, target_lang: str, **kwargs: Any) -> str:
        raise RuntimeError("engine bug")

    monkeypatch.setattr(offline_engine, "improve", broken)
    response = await rephrase(client, text=[EN], target_lang="en-US")
    assert response.status_code == 500
    assert message_of(response) and response.headers["x-trace-id"]
    assert KEY not in caplog.text and "engine bug" in caplog.text


async def test_known_words_reach_the_engine(
    make_client: ClientFactory, engine_calls: list[dict[str, Any]],
) -> None:
    client = make_client(OfflineOptions(known_words=frozenset({"rephrase-ls"})))
    assert (await rephrase(client, text=[EN], target_lang="en-US")).status_code == 200
    assert engine_calls[0]["known_words"] == frozenset({"rephrase-ls"})


# "hostid" (a command's name), which the engine alone takes for "hosted", once in each text;
# and "adress", a listed misspelling, corrected however often the request writes it.
HOSTID_1 = "It reads the hostid of the machine first."
HOSTID_2 = "We print the hostid in the next section."


async def test_a_word_the_request_writes_twice_is_never_corrected(
    client: httpx.AsyncClient, engine_calls: list[dict[str, Any]],
) -> None:
    response = await rephrase(client, text=[HOSTID_1, HOSTID_2], target_lang="en-US")
    assert response.status_code == 200, response.text
    assert [i["text"] for i in response.json()["improvements"]] == [HOSTID_1, HOSTID_2]
    assert all("hostid" in call["context_words"] for call in engine_calls)
    # Alone, the word is taken for the slip it usually is: the context is what keeps it.
    alone = await rephrase(client, text=[HOSTID_1], target_lang="en-US")
    assert alone.json()["improvements"][0]["text"] == HOSTID_1.replace("hostid", "hosted")
    # A listed misspelling is a slip however often it is written (learners repeat theirs).
    slips = ["We adress it here.", "They adress it there."]
    both = await rephrase(client, text=slips, target_lang="en-US")
    assert [i["text"] for i in both.json()["improvements"]] == [
        s.replace("adress", "address") for s in slips
    ]


# ----------------------------------------------------------------------------------------------
# Rephrase: validation


def json_body_of_size(size: int) -> bytes:
    """A valid JSON rephrase body of exactly ``size`` bytes."""
    prefix, suffix = '{"text":["', '"],"target_lang":"en-US"}'
    filler = (EN + " ") * (size // len(EN) + 1)
    body = (prefix + filler[: size - len(prefix) - len(suffix)] + suffix).encode()
    assert len(body) == size
    return body


async def test_body_size_limit_is_on_raw_bytes(client: httpx.AsyncClient) -> None:
    headers = {"Content-Type": "application/json"}
    at_limit = await client.post("/v2/write/rephrase", content=json_body_of_size(MAX_BODY_BYTES),
                                 headers=headers)
    assert at_limit.status_code == 200
    over = await client.post("/v2/write/rephrase", content=json_body_of_size(MAX_BODY_BYTES + 1),
                             headers=headers)
    assert over.status_code == 413
    assert str(MAX_BODY_BYTES) in message_of(over)
    # Non-ASCII text: 3000 characters of "é…" are fewer than 10 KiB characters but more bytes.
    accented = {"text": ["é" * 5200], "target_lang": "fr"}
    raw = json.dumps(accented, ensure_ascii=False).encode()
    assert len(json.dumps(accented, ensure_ascii=False)) < MAX_BODY_BYTES < len(raw)
    too_big = await client.post("/v2/write/rephrase", content=raw, headers=headers)
    assert too_big.status_code == 413


async def test_body_size_limit_without_content_length(client: httpx.AsyncClient) -> None:
    body = json_body_of_size(MAX_BODY_BYTES + 100)

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(body), 1000):
            yield body[start:start + 1000]

    response = await client.post("/v2/write/rephrase", content=chunks(),
                                 headers={"Content-Type": "application/json"})
    assert "content-length" not in response.request.headers
    assert response.status_code == 413


async def test_form_body_size_limit(client: httpx.AsyncClient) -> None:
    body = urlencode([("text", "é" * 2000), ("target_lang", "fr")])  # percent-encoded: 6 bytes each
    response = await client.post("/v2/write/rephrase", content=body,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert len(body) > MAX_BODY_BYTES
    assert response.status_code == 413


@pytest.mark.parametrize("content_type", [None, "text/plain", "multipart/form-data; boundary=x",
                                          "application/xml"])
async def test_unsupported_content_type(client: httpx.AsyncClient,
                                        content_type: str | None) -> None:
    headers = {"Content-Type": content_type} if content_type else {}
    response = await client.post("/v2/write/rephrase",
                                 content=json.dumps({"text": [EN]}).encode(), headers=headers)
    assert response.status_code == 415
    assert "Content-Type" in message_of(response)


async def test_json_content_type_with_charset(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/v2/write/rephrase", content=json.dumps({"text": [EN]}).encode(),
        headers={"Content-Type": "Application/JSON; charset=utf-8"})
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (b"{not json", "JSON"),
        (b"\xff\xfe{}", "UTF-8"),
        (b'["a list"]', "object"),
        (b"{}", "text"),
        (b'{"text": null}', "text"),
        (b'{"text": "a string"}', "list of strings"),
        (b'{"text": ["ok", 3]}', "list of strings"),
        (b'{"text": []}', "at least one"),
        (b'{"text": ["\\ud800 lone"], "target_lang": "en-US"}', "surrogate"),
        (b'{"text": ["x"], "target_lang": 5}', "target_lang"),
        (b'{"text": ["x"], "target_lang": "en"}', "target_lang"),
        (b'{"text": ["x"], "target_lang": "ja"}', "target_lang"),
        (b'{"text": ["x"], "target_lang": ""}', "target_lang"),
        (b'{"text": ["x"], "target_lang": "en-US", "writing_style": ["simple"]}', "writing_style"),
        (b'{"text": ["x"], "target_lang": "en-US", "writing_style": "poetic"}', "writing_style"),
        (b'{"text": ["x"], "target_lang": "en-US", "writing_style": "prefer_default"}',
         "writing_style"),
        (b'{"text": ["x"], "target_lang": "en-US", "tone": "friendly "}', "tone"),
        (b'{"text": ["x"], "target_lang": "en-US", "tone": "simple"}', "tone"),
        (b'{"text": ["x"], "target_lang": "en-US", "writing_style": "simple", "tone": "friendly"}',
         "cannot be combined"),
        (b'{"text": ["x"], "target_lang": "en-US", "writing_style": "default", "tone": "default"}',
         "cannot be combined"),
    ],
)
async def test_bad_json_requests(client: httpx.AsyncClient, body: bytes, needle: str) -> None:
    response = await client.post("/v2/write/rephrase", content=body,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 400, response.text
    assert needle in message_of(response)


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ("target_lang=en-US", "text"),
        ("text=hello&target_lang=en-US&target_lang=de", "only once"),
        ("text=hello&text=x&target_lang=fr&tone=friendly&tone=confident", "only once"),
        ("text=%FF%FE&target_lang=en-US", "UTF-8"),
        ("text=hello&target_lang=xx-YY", "target_lang"),
    ],
)
async def test_bad_form_requests(client: httpx.AsyncClient, body: str, needle: str) -> None:
    response = await client.post("/v2/write/rephrase", content=body,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 400, response.text
    assert needle in message_of(response)


@pytest.mark.parametrize(
    ("fields", "language"),
    [
        ({"text": [FR], "target_lang": "fr", "writing_style": "business"}, "fr"),
        ({"text": [ES], "target_lang": "es", "tone": "friendly"}, "es"),
        ({"text": [PT], "target_lang": "pt-BR", "writing_style": "simple"}, "pt-BR"),
        ({"text": [IT], "tone": "confident"}, "it"),
    ],
)
async def test_unprefixed_style_for_language_without_support(
    client: httpx.AsyncClient, fields: dict[str, Any], language: str,
) -> None:
    response = await rephrase(client, **fields)
    assert response.status_code == 400
    message = message_of(response)
    assert language in message and "prefer_" in message


@pytest.mark.parametrize(
    ("texts", "target", "detected"),
    [
        ([DE], "en-US", "de"),
        ([EN], "de", "en"),
        ([EN, FR], "en-GB", "fr"),
        ([PT], "es", "pt"),
    ],
)
async def test_texts_in_another_language_are_refused(
    client: httpx.AsyncClient, texts: list[str], target: str, detected: str,
) -> None:
    response = await rephrase(client, text=texts, target_lang=target)
    assert response.status_code == 400
    message = message_of(response)
    assert f"({detected})" in message and target in message
    assert "translating and improving at once is not supported" in message


async def test_language_rule_on_long_texts(client: httpx.AsyncClient) -> None:
    german = " ".join([DE] * 250)  # about 8000 characters: detection looks at a sample
    assert len(german) > 6000
    refused = await rephrase(client, text=[german], target_lang="en-US")
    assert refused.status_code == 400 and "(de)" in message_of(refused)
    refused_among_many = await rephrase(client, text=[EN, german[:4000]], target_lang="en-US")
    assert refused_among_many.status_code == 400
    accepted = await rephrase(client, text=[german], target_lang="de")
    assert accepted.status_code == 200


# ----------------------------------------------------------------------------------------------
# Knobs


async def test_latency_knob(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(latency_ms=1500))
    start = time.perf_counter()
    improving = asyncio.ensure_future(rephrase(client, text=[EN], target_lang="en-US"))
    # Lists are not delayed: the usage answer comes while the rephrase still waits.
    assert (await client.get("/v2/usage")).status_code == 200
    assert not improving.done()
    assert (await improving).status_code == 200
    assert time.perf_counter() - start >= 1.5


async def test_latency_does_not_block_other_requests(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(latency_ms=1500))
    start = time.perf_counter()
    responses = await asyncio.gather(
        *(rephrase(client, text=[EN], target_lang="en-US") for _ in range(5)))
    assert all(r.status_code == 200 for r in responses)
    # 5 × 1.5 s in sequence would be 7.5 s; together they take 1.5 s and a little. The bound
    # is wide on purpose: the machine may be loaded.
    assert time.perf_counter() - start < 5.0


async def test_fail_knob_in_order_then_success(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(fail=[(429, 2), (503, 1), (456, 1), (500, 1)],
                                        retry_after=0.25))
    statuses = []
    for _ in range(6):
        response = await rephrase(client, text=[EN], target_lang="en-US")
        statuses.append(response.status_code)
        if response.status_code in (429, 503):
            assert response.headers["retry-after"] == "0.25"
        elif response.status_code != 200:
            assert "retry-after" not in response.headers
        if response.status_code != 200:
            message_of(response)
    assert statuses == [429, 429, 503, 456, 500, 200]
    # Failed requests are not counted as usage; the successful one is.
    assert (await client.get("/v2/usage")).json()["character_count"] == len(EN)


async def test_fail_knob_does_not_touch_lists(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(fail=[(500, 1)]))
    assert (await client.get("/v3/languages", params={"product": "write"})).status_code == 200
    assert (await rephrase(client, text=[EN], target_lang="en-US")).status_code == 500


async def test_retry_after_default_is_one_second(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(fail=[(529, 1)]))
    response = await rephrase(client, text=[EN], target_lang="en-US")
    assert response.status_code == 529 and response.headers["retry-after"] == "1"


async def test_hang_knob(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(hang=1))
    with pytest.raises(TimeoutError):
        async with asyncio.timeout(0.3):
            await rephrase(client, text=[EN], target_lang="en-US")
    response = await rephrase(client, text=[EN], target_lang="en-US")
    assert response.status_code == 200


async def test_hang_knob_lets_other_requests_through(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(hang=1))
    hanging = asyncio.create_task(rephrase(client, text=[EN], target_lang="en-US"))
    await asyncio.sleep(0.05)
    assert not hanging.done()
    assert (await rephrase(client, text=[EN], target_lang="en-US")).status_code == 200
    assert (await client.get("/v2/usage")).status_code == 200
    assert not hanging.done()
    hanging.cancel()
    with pytest.raises(asyncio.CancelledError):
        await hanging


async def test_malformed_knob(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(malformed=4))
    texts = [EN, "the house is is big."]
    bodies = []
    for _ in range(4):
        response = await rephrase(client, text=texts, target_lang="en-US")
        assert response.status_code == 200
        bodies.append(response)
    assert "improvements" not in bodies[0].json()
    assert len(bodies[1].json()["improvements"]) != len(texts)
    assert all("text" not in item for item in bodies[2].json()["improvements"])
    with pytest.raises(json.JSONDecodeError):
        bodies[3].json()
    good = await rephrase(client, text=texts, target_lang="en-US")
    assert len(good.json()["improvements"]) == len(texts)


async def test_malformed_knob_only_acts_on_valid_requests(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(malformed=1))
    assert (await rephrase(client, text="not a list")).status_code == 400
    response = await rephrase(client, text=[EN], target_lang="en-US")
    assert "improvements" not in response.json()


async def test_character_limit(make_client: ClientFactory) -> None:
    client = make_client(OfflineOptions(character_limit=40))
    first = await rephrase(client, text=[EN], target_lang="en-US")  # 32 characters
    assert first.status_code == 200
    second = await rephrase(client, text=[EN], target_lang="en-US")  # 32 < 40: still allowed
    assert second.status_code == 200
    refused = await rephrase(client, text=[EN], target_lang="en-US")
    assert refused.status_code == 456
    assert "limit" in message_of(refused)
    usage = (await client.get("/v2/usage")).json()
    assert usage["character_count"] == 2 * len(EN)
    assert usage["character_limit"] == 40


# ----------------------------------------------------------------------------------------------
# Usage


async def test_usage_per_key_and_account(make_client: ClientFactory) -> None:
    transport = embedded_transport()
    alice = httpx.AsyncClient(transport=transport, base_url=EMBEDDED_BASE_URL,
                              headers={"Authorization": "Service-Auth-Key alice"})
    bob = httpx.AsyncClient(transport=transport, base_url=EMBEDDED_BASE_URL,
                            headers={"Authorization": "Service-Auth-Key bob"})
    async with alice, bob:
        fresh = (await alice.get("/v2/usage")).json()
        assert fresh["character_count"] == 0
        assert fresh["character_limit"] == NO_LIMIT
        accented = "Ça, c'est la maison de la rue et le chat."  # counted in characters
        assert (await rephrase(alice, text=[accented, EN], target_lang="fr")).status_code == 400
        assert (await rephrase(alice, text=[accented], target_lang="fr")).status_code == 200
        assert (await rephrase(bob, text=[EN, EN], target_lang="en-GB")).status_code == 200
        a, b = (await alice.get("/v2/usage")).json(), (await bob.get("/v2/usage")).json()
    total = len(accented) + 2 * len(EN)
    assert a["character_count"] == b["character_count"] == total
    assert a["api_key_character_count"] == len(accented)
    assert b["api_key_character_count"] == 2 * len(EN)
    write = next(p for p in a["products"] if p["product_type"] == "write")
    assert write == {"product_type": "write", "api_key_unit_count": len(accented),
                     "account_unit_count": total}


async def test_each_transport_is_a_fresh_service() -> None:
    first, second = embedded_transport(), embedded_transport()
    async with httpx.AsyncClient(transport=first, base_url=EMBEDDED_BASE_URL, headers=AUTH) as c:
        assert (await rephrase(c, text=[EN], target_lang="en-US")).status_code == 200
    async with httpx.AsyncClient(transport=second, base_url=EMBEDDED_BASE_URL, headers=AUTH) as c:
        assert (await c.get("/v2/usage")).json()["character_count"] == 0


async def test_trace_id_on_every_answer(client: httpx.AsyncClient) -> None:
    seen = set()
    for response in (await client.get("/v2/usage"), await rephrase(client, text=[]),
                     await rephrase(client, text=[EN], target_lang="en-US")):
        trace = response.headers["x-trace-id"]
        assert len(trace) == 32
        seen.add(trace)
    assert len(seen) == 3


# ----------------------------------------------------------------------------------------------
# Latency overlaps the work; worker processes


async def test_latency_is_added_or_overlaps_the_engine_work(
    make_client: ClientFactory, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """When the engine starts, relative to the request: after the latency by default, at once
    with overlap_latency. (Lower bounds and wide margins only: the machine may be slow.)"""
    real_improve = offline_engine.improve
    started: list[float] = []

    def recording_improve(text: str, target_lang: str, **kwargs: Any) -> str:
        started.append(time.perf_counter())
        return real_improve(text, target_lang, **kwargs)

    monkeypatch.setattr(offline_engine, "improve", recording_improve)
    start = time.perf_counter()
    added_client = make_client(OfflineOptions(latency_ms=300))
    added = await rephrase(added_client, text=[EN], target_lang="en-US")
    assert added.status_code == 200
    assert started[-1] - start >= 0.3  # the work waited for the latency
    assert time.perf_counter() - start >= 0.3

    overlapping = OfflineOptions(latency_ms=1500, overlap_latency=True)
    start = time.perf_counter()
    response = await rephrase(make_client(overlapping), text=[EN], target_lang="en-US")
    assert response.status_code == 200
    assert response.json()["improvements"][0]["text"] == real_improve(EN, "en-us")
    assert started[-1] - start < 1.5  # the work began during the latency
    assert time.perf_counter() - start >= 1.5  # and the answer still waited for it
    # Errors found by that work still wait for the latency and come in their turn: 403 first.
    start = time.perf_counter()
    refused = await rephrase(make_client(overlapping, key="a:fx"), text=[EN], target_lang="xx")
    assert refused.status_code == 403 and time.perf_counter() - start >= 1.5


def test_api_errors_survive_pickling() -> None:
    import pickle

    from rephrase_ls.offline.request import ApiError

    error = ApiError(429, "Too many.", {"Retry-After": "2"})
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.status, copy.message, copy.headers) == (429, "Too many.", {"Retry-After": "2"})
    assert str(copy) == "Too many."
