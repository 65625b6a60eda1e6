"""Word edits taken from the rebuild's own alignment, and the pieces they are built from."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_text_paragraphs import WORDS, documents
from tests.hypothesis_profiles import examples
from text_strategies import PIECES

from rephrase_ls.text.align import matching_blocks
from rephrase_ls.text.diff import TextEdit, apply_edits, edits_from_blocks, tokenize
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.markup.plain import plain_blocks
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs
from rephrase_ls.text.placeholders import PlaceholderError


def check(original: str, edits: list[TextEdit], expected: str) -> None:
    assert apply_edits(original, edits) == expected
    for first, second in itertools.pairwise(edits):
        assert first.end < second.start, "sorted, disjoint and not touching"
    for edit in edits:
        assert original[edit.start : edit.end] != edit.new_text, "no edit replaces text by itself"


def rebuilt(paragraph: Paragraph, improved: str) -> tuple[str, list[TextEdit]]:
    replacement, edits = paragraph.rebuild_with_edits(improved)
    assert replacement == paragraph.rebuild(improved)
    check(paragraph.original, edits, replacement)
    return replacement, edits


@settings(max_examples=examples(150))
@given(documents(), st.data())
def test_edits_turn_the_span_into_the_rebuilt_paragraph(text: str, data: st.DataObject) -> None:
    for paragraph in select_paragraphs(text, 0, len(text), plain_blocks(text)):
        assert paragraph.original == text[paragraph.start : paragraph.end]
        words = paragraph.prose.split(" ")
        for _ in range(data.draw(st.integers(0, 4))):
            k = data.draw(st.integers(0, len(words) - 1))
            operation = data.draw(st.sampled_from(["replace", "insert", "delete", "space"]))
            if operation == "replace":
                words[k] = data.draw(st.sampled_from([*WORDS, "omega", "très", "ok!", "🙂"]))
            elif operation == "insert":
                words.insert(k, data.draw(st.sampled_from(WORDS)))
            elif operation == "delete" and len(words) > 1:
                del words[k]
            else:
                words[k] += data.draw(st.sampled_from(["  ", "\n", ",", " \t"]))
        improved = " ".join(words)
        replacement, edits = rebuilt(paragraph, improved)
        if improved == paragraph.prose:
            assert edits == [] and replacement == paragraph.original


@settings(max_examples=examples(150))
@given(
    st.lists(st.sampled_from(WORDS), min_size=2, max_size=12),
    st.lists(st.integers(1, 11), max_size=4),
    st.sampled_from(["\n", "\r\n", "\n> ", "\n    ", "\r\n\t"]),
    st.lists(st.sampled_from([*WORDS, " ", "  ", "\t", "\n", "{", "--", "…"]), max_size=16),
)
def test_any_answer_gives_exact_edits(
    words: list[str], breaks: list[int], newline: str, answer: list[str]
) -> None:
    wrapped = list(words)
    for n in sorted(set(breaks), reverse=True):
        if n < len(wrapped):
            wrapped[n:n] = [newline]
    text = " ".join(wrapped).replace(" " + newline + " ", newline)
    improved = "".join(answer)
    for paragraph in select_paragraphs(text, 0, len(text), plain_blocks(text)):
        if not improved.strip():
            with pytest.raises(ValueError):
                paragraph.rebuild_with_edits(improved)
            continue
        rebuilt(paragraph, improved)


def test_protected_text_and_placeholders_in_markdown() -> None:
    text = (
        "> Read [the guide](https://example.com/a b) and run `pip install x` before\n"
        "> the the meeting, then see <https://example.org> for more.\n"
    )
    (paragraph,) = select_paragraphs(text, 0, len(text), prose_blocks(text, "markdown"))
    improved = paragraph.prose.replace("the the", "the").replace("before", "ahead of")
    replacement, edits = rebuilt(paragraph, improved)
    assert "`pip install x`" in replacement and "\n> " in replacement
    assert all("`" not in text[e.start + paragraph.start : e.end + paragraph.start] for e in edits)
    lost = paragraph.prose.replace("{{0}}", "", 1)
    with pytest.raises(PlaceholderError):
        paragraph.rebuild_with_edits(lost)


def test_a_deleted_word_is_one_edit_and_line_breaks_stay() -> None:
    text = "one two three four\nfive six seven eight\n"
    (paragraph,) = select_paragraphs(text, 0, len(text), plain_blocks(text))
    replacement, edits = rebuilt(paragraph, "one two three four five six eight")
    assert replacement == "one two three four\nfive six eight"
    assert [(e.start, e.end, e.new_text) for e in edits] == [(28, 34, "")]


def test_a_line_break_that_moves_is_edited_where_it_left_and_where_it_landed() -> None:
    text = "- alpha beta gamma\n  delta epsilon\n"
    (paragraph,) = select_paragraphs(text, 0, len(text), plain_blocks(text))
    replacement, edits = rebuilt(paragraph, "alpha beta gamma-delta epsilon zeta")
    assert replacement.count("\n  ") == 1 and "gamma-delta" in replacement
    assert len(edits) >= 2


def test_a_paragraph_made_directly_edits_its_prose() -> None:
    paragraph = Paragraph(0, 9, "the the x")
    assert paragraph.original == "the the x"
    replacement, edits = rebuilt(paragraph, "the x")
    assert replacement == "the x" and edits


# edits_from_blocks: exact for any pieces and any increasing runs, right or wrong.


@settings(max_examples=examples(200))
@given(st.data())
def test_edits_from_any_increasing_runs_are_exact(data: st.DataObject) -> None:
    pieces = st.lists(st.sampled_from(["", "a", "b", " ", "\n", "xy", "é"]), max_size=12)
    a, b = data.draw(pieces), data.draw(pieces)
    runs = []
    i = j = 0
    while i < len(a) and j < len(b) and data.draw(st.booleans()):
        i += data.draw(st.integers(0, len(a) - i - 1))
        j += data.draw(st.integers(0, len(b) - j - 1))
        size = data.draw(st.integers(1, min(len(a) - i, len(b) - j)))
        runs.append((i, j, size))  # whether the pieces are equal or not
        i, j = i + size, j + size
    check("".join(a), edits_from_blocks(a, b, runs), "".join(b))


def test_runs_out_of_order_or_outside_are_refused() -> None:
    with pytest.raises(ValueError, match="out of order"):
        edits_from_blocks(["a", "b"], ["a", "b"], [(1, 1, 1), (0, 0, 1)])
    with pytest.raises(ValueError, match="outside"):
        edits_from_blocks(["a"], ["a"], [(0, 0, 2)])


# matching_blocks: the stretch-at-once shortcut gives the runs of pairing word by word.


def _reference_blocks(a: list[str], b: list[str]) -> list[tuple[int, int, int]]:
    """Words aligned alone (by matching_blocks on the words only), then whitespace paired
    one token at a time between and around matched words: the definition, slowly."""
    a_words = [i for i, t in enumerate(a) if not t[0].isspace()]
    b_words = [j for j, t in enumerate(b) if not t[0].isspace()]
    word_runs = matching_blocks([a[i] for i in a_words], [b[j] for j in b_words])
    pairs: list[tuple[int, int]] = []
    for wi, wj, n in word_runs:
        fi, fj = a_words[wi], b_words[wj]
        if fi and fj and a[fi - 1] == b[fj - 1] and a[fi - 1].isspace():
            pairs.append((fi - 1, fj - 1))
        pi = pj = -1
        for k in range(n):
            i, j = a_words[wi + k], b_words[wj + k]
            if k and i - pi == j - pj == 2 and a[i - 1] == b[j - 1]:
                pairs.append((i - 1, j - 1))
            pairs.append((i, j))
            pi, pj = i, j
        if pi + 1 < len(a) and pj + 1 < len(b) and a[pi + 1] == b[pj + 1] and a[pi + 1].isspace():
            pairs.append((pi + 1, pj + 1))
    blocks: list[tuple[int, int, int]] = []
    li = lj = -1
    for i, j in pairs:
        if i <= li or j <= lj:
            continue
        if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
            blocks[-1] = (blocks[-1][0], blocks[-1][1], blocks[-1][2] + 1)
        else:
            blocks.append((i, j, 1))
        li, lj = i, j
    return blocks


@settings(max_examples=examples(200))
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.data())
def test_matching_blocks_pairs_whitespace_as_defined(
    pieces: list[str], data: st.DataObject
) -> None:
    changed = list(pieces)
    for _ in range(data.draw(st.integers(0, 6))):
        k = data.draw(st.integers(0, len(changed)))
        operation = data.draw(st.sampled_from(["replace", "insert", "delete", "space"]))
        if operation == "insert" or not changed:
            changed.insert(k, data.draw(st.sampled_from(PIECES)))
        elif operation == "replace":
            changed[min(k, len(changed) - 1)] = data.draw(st.sampled_from(PIECES))
        elif operation == "delete":
            del changed[min(k, len(changed) - 1)]
        else:
            changed[min(k, len(changed) - 1)] += "  "
    a, b = tokenize("".join(pieces)), tokenize("".join(changed))
    assert matching_blocks(a, b) == _reference_blocks(a, b)
