"""The per-paragraph cache: after an edit only the paragraphs whose text changed are improved
again (engine calls counted), with the same findings as a fresh review; bounded; cancellable."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rephrase_ls.offline import engine
from rephrase_ls.review import ReviewCache, ReviewCancelled, findings
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.paragraphs import Paragraph

REAL = Path(__file__).resolve().parents[2] / "data" / "markup" / "real"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The prose of every paragraph the engine improves."""
    seen: list[str] = []
    improve: Callable[..., str] = engine.improve

    def counting(text: str, *args: Any, **kwargs: Any) -> str:
        seen.append(text)
        return improve(text, *args, **kwargs)

    monkeypatch.setattr(engine, "improve", counting)
    return seen


def _document() -> str:
    text = (REAL / "fastapi-alternatives.md").read_text(encoding="utf-8")
    return text.replace("for the previous work", "for teh previous work")


def _review(text: str, cache: ReviewCache | None) -> list[Any]:
    return findings(text, prose_blocks(text, "markdown"), target_lang="en-US", cache=cache)


def _paragraph_count(text: str) -> int:
    blocks = prose_blocks(text, "markdown")
    return sum(Paragraph.from_segments(text, b.segments, b.protected) is not None for b in blocks)


def test_a_one_word_edit_improves_one_paragraph_again(calls: list[str]) -> None:
    text = _document()
    cache = ReviewCache()
    first = _review(text, cache)
    assert len(calls) == _paragraph_count(text) == cache.engine_runs > 10
    assert [f.original for f in first] == ["teh"]

    calls.clear()
    assert _review(text, cache) == first
    assert calls == []

    # one word changed in one paragraph, which moves every later paragraph
    edited = text.replace("widely trusted.", "widely trusted and recieved.")
    calls.clear()
    again = _review(edited, cache)
    assert len(calls) == 1 and "recieved" in calls[0]
    assert again == _review(edited, None)
    assert [f.original for f in again] == ["teh", "recieved"]
    assert again[0] == first[0]  # before the edit: same offsets
    assert again[1].start == edited.index("recieved")


def test_a_word_becoming_repeated_recomputes_only_paragraphs_holding_it(
    calls: list[str],
) -> None:
    """A word the document writes twice is never spell-corrected (the offline service's
    context words), unless it is a slip however often it is written (a listed misspelling):
    writing "hostid" (alone taken for "hosted") a second time elsewhere changes the first
    paragraph's findings, and only the two paragraphs holding the word are improved again."""
    text = _document().replace("It is used by many companies", "It is hostid by many companies")
    cache = ReviewCache()
    assert "hostid" in [f.original for f in _review(text, cache)]
    edited = text.replace("using Django underneath", "using hostid Django underneath")
    calls.clear()
    again = _review(edited, cache)
    assert len(calls) == 2 and all("hostid" in prose for prose in calls)
    assert "hostid" not in [f.original for f in again]
    assert again == _review(edited, None)


def test_known_words_and_target_are_part_of_the_key(calls: list[str]) -> None:
    text = _document()
    blocks = prose_blocks(text, "markdown")
    cache = ReviewCache()
    findings(text, blocks, target_lang="en-US", cache=cache)
    calls.clear()
    assert findings(text, blocks, target_lang="en-US", words=["teh"], cache=cache) == []
    assert len(calls) == _paragraph_count(text)
    calls.clear()
    findings(text, blocks, target_lang="en-GB", cache=cache)
    assert len(calls) == _paragraph_count(text)


def test_the_cache_is_bounded() -> None:
    text = _document()
    cache = ReviewCache(max_chars=2_000)
    _review(text, cache)
    assert 0 < cache.chars <= 3 * 2_000  # three tables, each bounded
    assert len(cache) < _paragraph_count(text)
    # still right when most results were dropped
    assert _review(text, cache) == _review(text, None)
    cache.clear()
    assert len(cache) == 0 and cache.chars == 0


def _strings_held(root: object) -> list[str]:
    """Every string reachable from ``root`` (once each)."""
    seen: set[int] = set()
    strings: list[str] = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            strings.append(obj)
        else:
            todo.extend(gc.get_referents(obj))
    return strings


def test_the_cache_keeps_no_text_of_the_document() -> None:
    """Digests, words and findings only: no paragraph, line or improved text, so that a
    reviewed document costs the cache a fraction of the document's own size."""
    text = _document()
    cache = ReviewCache()
    found = _review(text, cache)
    assert found and len(cache) == _paragraph_count(text)
    strings = _strings_held(cache)
    assert "teh" in strings and "the" in strings
    assert max(map(len, strings)) <= 40
    assert sum(map(len, strings)) < len(text) // 2


def test_cancelled_before_improving_keeps_what_was_done(calls: list[str]) -> None:
    text = _document()
    cache = ReviewCache()
    asked = 0

    def cancelled() -> bool:
        nonlocal asked
        asked += 1
        return asked > 3

    blocks = prose_blocks(text, "markdown")
    with pytest.raises(ReviewCancelled):
        findings(text, blocks, target_lang="en-US", cache=cache, cancelled=cancelled)
    assert len(calls) == 3 == len(cache)
    calls.clear()
    # nothing left to improve in the cache: not asked at all
    findings(text, blocks, target_lang="en-US", cache=cache, cancelled=lambda: False)
    assert len(calls) == _paragraph_count(text) - 3
    calls.clear()
    findings(text, blocks, target_lang="en-US", cache=cache, cancelled=lambda: True)
    assert calls == []


def test_an_engine_failure_costs_one_paragraph_and_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    improve: Callable[..., str] = engine.improve

    def failing(text: str, *args: Any, **kwargs: Any) -> str:
        if "Mozilla" in text:
            raise RuntimeError("offline engine lost a protected span (internal error)")
        return improve(text, *args, **kwargs)

    text = _document().replace("including Mozilla", "including recieved Mozilla")
    monkeypatch.setattr(engine, "improve", failing)
    found = _review(text, ReviewCache())
    assert [f.original for f in found] == ["teh"]  # the other paragraph's slip
    assert found[0].start == text.index("teh")
    assert "the engine failed on a paragraph" in caplog.text
