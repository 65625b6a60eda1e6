"""Batching: no body over the limit on arbitrary unicode, order kept, pieces re-join exactly."""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.service.batching import BatchPlan, encode_json, json_text_size, plan_batches


def json_encoder(**fields: str):  # type: ignore[no-untyped-def]
    def encode(texts: list[str]) -> bytes:
        return encode_json({"text": texts, **fields})

    return encode


def form_encoder(texts: list[str]) -> bytes:
    pairs = [("text", t) for t in texts] + [("target_lang", "de")]
    return urlencode(pairs).encode()


def check_plan(plan: BatchPlan, texts: list[str], encode, limit: int) -> None:  # type: ignore[no-untyped-def]
    assert len(plan.bodies) == len(plan.requests)
    for request, body in zip(plan.requests, plan.bodies, strict=True):
        assert request, "no empty request"
        assert body == encode(list(request))  # the bytes a sender sends as they are
        assert len(body) <= limit
    # Order kept: owners are non-decreasing across the whole plan.
    flat_owners = [o for owners in plan.owners for o in owners]
    assert flat_owners == sorted(flat_owners)
    assert sorted(set(flat_owners)) == list(range(len(texts)))
    # The pieces re-join exactly.
    assert plan.join(plan.requests) == texts
    pieces: dict[int, list[str]] = {}
    for request, owners in zip(plan.requests, plan.owners, strict=True):
        for piece, owner in zip(request, owners, strict=True):
            pieces.setdefault(owner, []).append(piece)
    assert ["".join(pieces[i]) for i in range(len(texts))] == texts


# Arbitrary unicode (no surrogates, which cannot be encoded), weighted towards
# sentence punctuation, spaces, emoji and non-Latin scripts.
tokens = st.one_of(
    st.characters(exclude_categories=("Cs",)),
    st.sampled_from(list(" .!?\n\t。！？…\"'”»")),
    st.sampled_from(list("日本語のテキスト한국어Ελληνικάрусскийالعربيةעברית")),
    st.sampled_from(["😀", "👩‍👩‍👧", "🇩🇪", "\u0301", "\\", '"', "\x00", "\u2028", "word "]),
)
texts_strategy = st.lists(st.lists(tokens, max_size=400).map("".join), max_size=12)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=texts_strategy, limit=st.integers(min_value=60, max_value=700))
def test_property_json(texts: list[str], limit: int) -> None:
    encode = json_encoder(target_lang="en-US")
    plan = plan_batches(texts, encode, limit)
    check_plan(plan, texts, encode, limit)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts=texts_strategy, limit=st.integers(min_value=120, max_value=700))
def test_property_json_with_fast_measure(texts: list[str], limit: int) -> None:
    """The client's path: sizes from json_text_size, checked against the real bodies."""
    encode = json_encoder(target_lang="de", writing_style="prefer_casual")
    plan = plan_batches(texts, encode, limit, measure=json_text_size)
    check_plan(plan, texts, encode, limit)
    assert plan == plan_batches(texts, encode, limit)  # the same plan as the generic path


@settings(max_examples=examples(200), deadline=None)
@given(text=st.lists(tokens, max_size=50).map("".join))
def test_json_text_size_is_exact(text: str) -> None:
    assert json_text_size(text) == len(json.dumps(text, ensure_ascii=False).encode()) - 2


def test_wrong_measure_is_caught() -> None:
    with pytest.raises(ValueError, match="measure"):
        plan_batches(["a" * 50] * 10, json_encoder(), 200, measure=lambda t: len(t) // 2)


@settings(max_examples=examples(100), deadline=None)
@given(texts=texts_strategy, limit=st.integers(min_value=80, max_value=700))
def test_property_form(texts: list[str], limit: int) -> None:
    plan = plan_batches(texts, form_encoder, limit)
    check_plan(plan, texts, form_encoder, limit)


def test_small_texts_share_a_request() -> None:
    plan = plan_batches(["a", "b", "c"], json_encoder())
    assert plan.requests == (("a", "b", "c"),)
    assert plan.owners == ((0, 1, 2),)


def test_exact_fill_uses_the_whole_limit() -> None:
    encode = json_encoder()
    base = len(encode([]))  # {"text":[]}
    # Two texts of n chars: base + (n+2) + 1 + (n+2)
    n = 20
    limit = base + 2 * (n + 2) + 1
    plan = plan_batches(["x" * n, "y" * n], encode, limit)
    assert len(plan.requests) == 1
    plan = plan_batches(["x" * n, "y" * n], encode, limit - 1)
    assert len(plan.requests) == 2


def test_splits_at_sentences_first() -> None:
    text = "One sentence here. Two sentence here! Three sentence here? Four."
    encode = json_encoder()
    limit = len(encode(["One sentence here. Two sentence here! "]))
    plan = plan_batches([text], encode, limit)
    pieces = [p for r in plan.requests for p in r]
    assert pieces[0] == "One sentence here. Two sentence here! "
    assert all(p.endswith((". ", "! ", "? ", ".")) for p in pieces)
    assert "".join(pieces) == text


def test_splits_at_words_then_code_points() -> None:
    encode = json_encoder()
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa "
    plan = plan_batches([words], encode, len(encode(["x" * 20])))
    pieces = [p for r in plan.requests for p in r]
    assert all(p.endswith(" ") for p in pieces), pieces  # cut between words only
    assert "".join(pieces) == words
    text = "alpha beta gamma delta " + "z" * 80
    limit = len(encode(["x" * 30]))
    plan = plan_batches([text], encode, limit)
    pieces = [p for r in plan.requests for p in r]
    # The short words stay whole (the over-long word is cut between code points).
    assert pieces[0].startswith("alpha beta gamma delta ")
    assert all(len(encode([p])) == len(encode(["x" * 30])) for p in pieces[:-1])  # filled up
    assert len(pieces) > 1
    assert all(len(encode([p])) <= limit for p in pieces)
    assert "".join(pieces) == text


def test_cjk_sentences_without_spaces() -> None:
    encode = json_encoder()
    text = "これは文です。" * 40
    plan = plan_batches([text], encode, 200)
    pieces = [p for r in plan.requests for p in r]
    assert all(p.endswith("。") for p in pieces)
    assert "".join(pieces) == text


def test_escapes_count_in_bytes() -> None:
    encode = json_encoder()
    # Each quote costs 2 bytes, each emoji 4: the plan must count bytes, not characters.
    texts = ['"' * 3000, "😀" * 3000]
    plan = plan_batches(texts, encode, 10 * 1024)
    check_plan(plan, texts, encode, 10 * 1024)
    # 6000 bytes of escaped quotes fit one request; 12000 bytes of emoji need two.
    assert plan.owners == ((0,), (1,), (1,))


def test_join_restores_whitespace_a_service_strips() -> None:
    plan = plan_batches(["One. Two. Three."], json_encoder(), len(b'{"text":["One. Two. "]}'))
    improved = [[p.strip().upper() for p in r] for r in plan.requests]
    assert plan.join(improved) == ["ONE. TWO. THREE."]


def test_join_checks_shape() -> None:
    plan = plan_batches(["a", "b"], json_encoder())
    with pytest.raises(ValueError):
        plan.join([])
    with pytest.raises(ValueError):
        plan.join([["A"]])


def test_empty_and_bad_input() -> None:
    assert plan_batches([], json_encoder()).requests == ()
    assert plan_batches([""], json_encoder()).requests == (("",),)
    with pytest.raises(TypeError):
        plan_batches("abc", json_encoder())
    with pytest.raises(TypeError):
        plan_batches([1], json_encoder())  # type: ignore[list-item]
    with pytest.raises(ValueError):
        plan_batches(["a"], json_encoder(), limit=12)  # {"text":[""]} is 13 bytes


def test_non_additive_encoder_is_caught() -> None:
    def sneaky(texts: list[str]) -> bytes:
        body = json.dumps({"text": texts}).encode()
        return body + b" " * (len(texts) ** 2)  # grows faster than additively

    with pytest.raises(ValueError, match="not additive"):
        plan_batches(["a"] * 50, sneaky, 200)


def _json_body(texts: list[str]) -> bytes:
    return encode_json({"text": texts, "target_lang": "zh"})


@pytest.mark.parametrize("mark", ["，", "、"])
def test_a_long_cjk_sentence_splits_at_clause_marks_not_inside_a_word(mark: str) -> None:
    # 12 KiB of clauses of two-character words, without a full stop until the end.
    words = ["我们", "今天", "讨论", "这个", "问题", "非常", "重要", "系统", "设计", "发布"]
    clauses = ["".join(words[(n + k) % len(words)] for k in range(7)) for n in range(300)]
    text = mark.join(clauses) + "。"
    assert len(text.encode()) > 10 * 1024
    plan = plan_batches([text], _json_body)
    assert plan.total_requests >= 2
    pieces = [piece for request in plan.requests for piece in request]
    assert "".join(pieces) == text
    for piece in pieces[:-1]:
        assert piece.endswith(mark), piece[-10:]


def test_a_long_run_without_marks_splits_between_characters_never_inside_one() -> None:
    # Each character carries a combining mark, and emoji are joined sequences: a cut between
    # code points would split them.
    unit = "が\u3099👩\u200d💻漢"
    text = unit * 1500
    plan = plan_batches([text], _json_body, limit=4000)
    pieces = [piece for request in plan.requests for piece in request]
    assert "".join(pieces) == text
    for piece in pieces:
        assert not piece.startswith(("\u3099", "\u200d", "💻"))
        assert not piece.endswith("\u200d")


def test_an_ascii_comma_inside_a_number_is_no_clause_end() -> None:
    text = ("1,000 and 2,000 " * 800).strip()
    plan = plan_batches([text], encode_json, limit=2000)
    pieces = [piece for request in plan.requests for piece in request]
    assert "".join(pieces) == text
    assert all(not piece.startswith(("000", ",")) for piece in pieces)
