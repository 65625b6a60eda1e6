"""Properties of the offline service's rephrase endpoint over arbitrary input."""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlencode

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.offline import EMBEDDED_BASE_URL, embedded_transport
from rephrase_ls.offline.request import MAX_BODY_BYTES
from rephrase_ls.service.models import TONES, WRITING_STYLES

AUTH = {"Authorization": "Service-Auth-Key property-key"}
TARGETS = ["de", "en-GB", "en-US", "es", "fr", "it", "pt-BR", "pt-PT", "EN-us", "xx", "en"]
STYLE_VALUES = [None, "default", *WRITING_STYLES, *("prefer_" + s for s in WRITING_STYLES), "odd"]
TONE_VALUES = [None, "default", *TONES, *("prefer_" + t for t in TONES)]

words = st.sampled_from(
    ["the", "is", "and", "der", "ist", "und", "le", "est", "el", "que", "il", "di", "não",
     "house", "Haus", "maison", "casa", "the the", "  ", ".", ",", "!", "\n", "`code`", "é"])
prose = st.lists(words, max_size=30).map(" ".join)
texts = st.lists(st.one_of(prose, st.text(max_size=60)), min_size=0, max_size=6)


async def _post(body: bytes, content_type: str) -> httpx.Response:
    async with httpx.AsyncClient(transport=embedded_transport(), base_url=EMBEDDED_BASE_URL,
                                 headers=AUTH) as client:
        return await client.post("/v2/write/rephrase", content=body,
                                 headers={"Content-Type": content_type})


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    texts=texts,
    target=st.sampled_from([None, *TARGETS]),
    style=st.sampled_from(STYLE_VALUES),
    tone=st.sampled_from(TONE_VALUES),
    form=st.booleans(),
)
def test_rephrase_answers_per_the_interface(
    texts: list[str], target: str | None, style: str | None, tone: str | None, form: bool,
) -> None:
    """Any request gets 200 with one improvement per text, or a 4xx with a message; never 5xx."""
    fields: dict[str, Any] = {"text": texts}
    for name, value in (("target_lang", target), ("writing_style", style), ("tone", tone)):
        if value is not None:
            fields[name] = value
    if form:
        pairs = [("text", t) for t in texts] + [(k, v) for k, v in fields.items() if k != "text"]
        body = urlencode(pairs).encode("ascii")
        content_type = "application/x-www-form-urlencoded"
    else:
        body = json.dumps(fields, ensure_ascii=False).encode("utf-8")
        content_type = "application/json"
    response = asyncio.run(_post(body, content_type))
    assert response.status_code in (200, 400, 413), response.text
    if response.status_code == 413:
        assert len(body) > MAX_BODY_BYTES
        return
    assert len(body) <= MAX_BODY_BYTES
    if response.status_code == 400:
        assert set(response.json()) == {"message"}
        return
    improvements = response.json()["improvements"]
    assert len(improvements) == len(texts) >= 1
    for item in improvements:
        assert set(item) == {"text", "target_language", "detected_source_language"}
        assert isinstance(item["text"], str)
        if target is not None:
            assert item["target_language"] == target
            assert item["detected_source_language"] == target.split("-")[0].lower()
    assert style is None or tone is None
