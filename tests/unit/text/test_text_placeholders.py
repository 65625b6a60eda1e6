"""Placeholders: round trip, literal look-alikes, and every way a placeholder can go wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples
from text_strategies import any_text

from rephrase_ls.text.placeholders import PLACEHOLDER, PlaceholderError, mask


@st.composite
def text_and_spans(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]]]:
    text = draw(any_text)
    cuts = sorted(draw(st.lists(st.integers(0, len(text)), max_size=6)))
    spans = [(cuts[n], cuts[n + 1]) for n in range(0, len(cuts) - 1, 2)]
    return text, spans


@settings(max_examples=examples(200))
@given(text_and_spans())
def test_round_trip(case: tuple[str, list[tuple[int, int]]]) -> None:
    text, spans = case
    masked = mask(text, spans)
    assert masked.unmask(masked.text) == text
    restored, restored_spans = masked.restore(masked.text)
    assert restored == text
    assert [restored[s:e] for s, e in restored_spans] == list(masked.originals)
    for start, end in spans:
        if start < end:
            # The protected text is no longer visible to the service.
            assert any(text[start:end] in original for original in masked.originals)
    # Placeholders are numbered 0..n-1 in order, and nothing else looks like one.
    numbers = [int(m.group(1)) for m in PLACEHOLDER.finditer(masked.text)]
    assert numbers == list(range(len(masked.originals)))


def test_protected_spans_become_numbered_placeholders() -> None:
    masked = mask("Run `make all` then see https://x.org now.", [(4, 14), (24, 37)])
    assert masked.text == "Run {{0}} then see {{1}} now."
    assert masked.originals == ("`make all`", "https://x.org")
    assert masked.unmask("Then run {{0}} and look at {{1}}.") == (
        "Then run `make all` and look at https://x.org."
    )


def test_moving_a_placeholder_within_the_sentence_is_fine() -> None:
    masked = mask("See A here.", [(4, 5)])
    assert masked.unmask("Here, see {{0}}.") == "Here, see A."


def test_a_literal_placeholder_in_the_prose_is_protected_too() -> None:
    masked = mask("Use {{0}} in templates and {{12}} too, near X.", [(44, 45)])
    assert masked.text == "Use {{0}} in templates and {{1}} too, near {{2}}."
    assert masked.originals == ("{{0}}", "{{12}}", "X")
    assert masked.unmask(masked.text) == "Use {{0}} in templates and {{12}} too, near X."


def test_overlapping_spans_merge_and_bad_spans_are_rejected() -> None:
    assert mask("abcdef", [(1, 3), (2, 5)]).text == "a{{0}}f"
    assert mask("abcdef", [(1, 3), (3, 5)]).text == "a{{0}}{{1}}f"
    with pytest.raises(ValueError, match="outside the text"):
        mask("abc", [(2, 9)])


@pytest.mark.parametrize(
    ("improved", "kind", "number"),
    [
        ("Keep and {{1}}.", "lost", 0),
        ("Keep {{0}} and {{0}} {{1}}.", "duplicated", 0),
        ("Keep {{1}} and {{0}}.", "reordered", 1),
        ("Keep {{ 0 }} and {{1}}.", "altered", 0),
        ("Keep {0} and {{1}}.", "altered", 0),
        ("Keep {{0}} and {{1}} and {{7}}.", "altered", 7),
    ],
)
def test_each_placeholder_failure_is_reported(improved: str, kind: str, number: int) -> None:
    masked = mask("Keep A and B.", [(5, 6), (11, 12)])
    assert masked.text == "Keep {{0}} and {{1}}."
    with pytest.raises(PlaceholderError) as caught:
        masked.unmask(improved)
    assert caught.value.kind == kind
    assert caught.value.number == number
    assert str(caught.value)
