"""Word-level edits: exact, minimal, fast on large documents."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples
from text_strategies import PIECES, any_text, pieces_text

from rephrase_ls.text.align import _lcs_pairs, matching_blocks, opcodes
from rephrase_ls.text.diff import TextEdit, apply_edits, tokenize, word_edits


def check_edits(a: str, b: str) -> list[TextEdit]:
    edits = word_edits(a, b)
    assert apply_edits(a, edits) == b
    for first, second in itertools.pairwise(edits):
        assert first.end < second.start, "edits must be sorted, disjoint and not touching"
    for edit in edits:
        assert a[edit.start : edit.end] != edit.new_text
    return edits


@settings(max_examples=examples(200))
@given(any_text, any_text)
def test_applying_the_edits_gives_the_improved_text(a: str, b: str) -> None:
    check_edits(a, b)


@settings(max_examples=examples(150))
@given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=40), st.data())
def test_small_changes_to_a_text_give_small_edits(pieces: list[str], data: st.DataObject) -> None:
    a = "".join(pieces)
    changed = list(pieces)
    for _ in range(data.draw(st.integers(1, 3))):
        k = data.draw(st.integers(0, len(changed) - 1))
        changed[k] = data.draw(st.sampled_from(PIECES))
    b = "".join(changed)
    edits = check_edits(a, b)
    assert sum(edit.end - edit.start for edit in edits) <= len(a)


@given(pieces_text)
def test_tokens_join_back_to_the_text(text: str) -> None:
    assert "".join(tokenize(text)) == text


def test_tokens_keep_marks_and_emoji_sequences_whole() -> None:
    assert tokenize("cafe\u0301 👨\u200d👩\u200d👧! 👍🏽") == [
        "cafe\u0301",
        " ",
        "👨\u200d👩\u200d👧",
        "!",
        " ",
        "👍🏽",
    ]
    assert tokenize("नमस्ते दुनिया") == ["नमस्ते", " ", "दुनिया"]
    assert tokenize("日本語abc") == ["日", "本", "語", "abc"]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # One changed word: one edit on that word only.
        ("The quick brown fox.", "The fast brown fox.", [(4, 9, "fast")]),
        # Two neighbouring changed words: one edit, the unchanged words around stay out of it.
        ("The quick brown fox.", "The fast red fox.", [(4, 15, "fast red")]),
        # Changed words apart: separate edits.
        (
            "The quick brown fox jumps.",
            "The fast brown fox leaps.",
            [(4, 9, "fast"), (20, 25, "leaps")],
        ),
        # Punctuation change only.
        ("Hello world.", "Hello world!", [(11, 12, "!")]),
        # Insertion between words.
        ("a big dog", "a very big dog", [(2, 2, "very ")]),
        # Deletion.
        ("a very big dog", "a big dog", [(2, 7, "")]),
        # Change at the very start and the very end, unchanged middle untouched.
        ("one two three four", "zero two three five", [(0, 3, "zero"), (14, 18, "five")]),
        # Line breaks and a CRLF document: only the word changes.
        ("first line\r\nsecond line\r\n", "first line\r\nsecond row\r\n", [(19, 23, "row")]),
        # A word with a combining mark is replaced whole, never split.
        ("cafe\u0301 noir", "cafe noir", [(0, 5, "cafe")]),
        # Emoji beside changed words stay put.
        ("I 😀 like it", "I 😀 love it", [(4, 8, "love")]),
        # Repeated words: the change lands on the right occurrence.
        ("the cat and the dog and the cow", "the cat and the pig and the cow", [(16, 19, "pig")]),
    ],
)
def test_edits_are_minimal(a: str, b: str, expected: list[tuple[int, int, str]]) -> None:
    edits = check_edits(a, b)
    assert [(e.start, e.end, e.new_text) for e in edits] == expected


def test_identical_texts_give_no_edits() -> None:
    assert word_edits("same text\n", "same text\n") == []


def test_apply_edits_rejects_overlapping_or_out_of_range_edits() -> None:
    with pytest.raises(ValueError, match="sorted"):
        apply_edits("abcdef", [TextEdit(2, 4, "x"), TextEdit(3, 5, "y")])
    with pytest.raises(ValueError, match="outside"):
        apply_edits("abc", [TextEdit(2, 9, "x")])
    with pytest.raises(ValueError, match="invalid edit range"):
        TextEdit(3, 2, "x")
    with pytest.raises(TypeError):
        word_edits("a", None)  # type: ignore[arg-type]


def _document(rng: random.Random, size: int) -> str:
    vocabulary = [
        "the",
        "a",
        "of",
        "and",
        "to",
        "in",
        "is",
        "was",
        "it",
        "that",
        "with",
        "for",
        "on",
        "as",
        "at",
        "by",
        "be",
    ]
    vocabulary += [f"word{n}" for n in range(2000)]
    lines: list[str] = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(4, 14)))
        lines.append(line)
        total += len(line) + 1
        if rng.random() < 0.2:
            lines.append("")
    return "\n".join(lines)


@pytest.mark.parametrize("changes", [1, 40, 400])
def test_one_megabyte_documents_that_differ_a_little(changes: int) -> None:
    rng = random.Random(changes)
    a = _document(rng, 1_000_000)
    words = a.split(" ")
    for _ in range(changes):
        words[rng.randrange(len(words))] = rng.choice(["swift", "brown", "fox", "the", ""])
    b = " ".join(words)
    edits = word_edits(a, b)
    assert apply_edits(a, edits) == b
    assert len(edits) <= changes  # each change is one edit (or none, when it changed nothing)
    assert sum(edit.end - edit.start for edit in edits) < 20 * changes


def _valid_blocks(a: list[str], b: list[str], blocks: list[tuple[int, int, int]]) -> None:
    previous_i = previous_j = 0
    for i, j, n in blocks:
        assert n > 0
        assert i >= previous_i and j >= previous_j
        assert a[i : i + n] == b[j : j + n]
        previous_i, previous_j = i + n, j + n


@settings(max_examples=examples(60))
@given(st.lists(st.sampled_from(PIECES), min_size=200, max_size=500), st.data())
def test_large_inputs_take_the_anchored_path_and_stay_exact(
    pieces: list[str], data: st.DataObject
) -> None:
    a = "".join(pieces)
    changed = list(pieces)
    for _ in range(data.draw(st.integers(1, 8))):
        k = data.draw(st.integers(0, len(changed) - 1))
        operation = data.draw(st.sampled_from(["replace", "insert", "delete"]))
        if operation == "replace":
            changed[k] = data.draw(st.sampled_from(PIECES))
        elif operation == "insert":
            changed.insert(k, data.draw(st.sampled_from(PIECES)))
        else:
            del changed[k]
    b = "".join(changed)
    check_edits(a, b)
    ta, tb = tokenize(a), tokenize(b)
    _valid_blocks(ta, tb, matching_blocks(ta, tb))


def test_huge_pieces_without_any_anchor_still_give_the_new_text() -> None:
    a = "a " * 6000
    b = "b " * 6000
    edits = check_edits(a, b)
    assert apply_edits(a, edits) == b


def test_unique_words_anchor_a_long_paragraph() -> None:
    words = [f"w{n}" for n in range(3000)]
    a = " ".join(words)
    words[1500] = "changed"
    b = " ".join(words)
    assert [(e.start, e.new_text) for e in word_edits(a, b)] == [(a.index("w1500 "), "changed")]


@pytest.mark.parametrize("repeats", [200, 600, 2400])
def test_repetitive_text_changed_all_over_gives_one_small_edit_per_change(repeats: int) -> None:
    """A long paragraph of a few tokens repeated, with no unique token to anchor on, changed at
    every mark: each change stays its own small edit, at any length (a piece too large for
    exact alignment was replaced whole, and a smaller one took cubic time)."""
    a = "word , word . word ; " * repeats
    b = a.replace(" ,", ",").replace(" . word", ". Word").replace(" ; word", "; Word")
    edits = check_edits(a, b)
    assert len(edits) == 3 * repeats  # ' ,' → ','; ' .' → '.'; 'word ;' → 'Word;'
    assert max(edit.end - edit.start for edit in edits) <= len("word ")


@settings(max_examples=examples(40))
@given(
    st.lists(st.sampled_from(["word", "word", ",", ".", "it"]), min_size=300, max_size=3000),
    st.data(),
)
def test_repetitive_text_with_a_few_changes_stays_exact_and_local(
    tokens: list[str], data: st.DataObject
) -> None:
    """Few distinct tokens (aligned window by window): the edits still give the new text, and a
    handful of one-token changes cost a handful of short edits (two at most per change: in text
    this repetitive, a replaced word may align as a deletion here and an insertion a few words
    on, as minimal as one replacement)."""
    changed = list(tokens)
    changes = data.draw(st.integers(1, 8))
    for _ in range(changes):
        k = data.draw(st.integers(0, len(changed) - 1))
        operation = data.draw(st.sampled_from(["replace", "insert", "delete"]))
        if operation == "replace":
            changed[k] = data.draw(st.sampled_from(["Word", ";", "it"]))
        elif operation == "insert":
            changed.insert(k, data.draw(st.sampled_from(["Word", ";"])))
        else:
            del changed[k]
    a, b = " ".join(tokens), " ".join(changed)
    edits = check_edits(a, b)
    assert len(edits) <= 2 * changes
    assert sum(edit.end - edit.start for edit in edits) <= 12 * changes
    ta, tb = tokenize(a), tokenize(b)
    _valid_blocks(ta, tb, matching_blocks(ta, tb))


@settings(max_examples=examples(200))
@given(
    st.lists(st.sampled_from(["a", "b", "c", " "]), max_size=60),
    st.lists(st.sampled_from(["a", "b", "d", " "]), max_size=60),
)
def test_opcodes_cover_both_sides_in_order(a: list[str], b: list[str]) -> None:
    """``opcodes`` walks both sequences end to end, as SequenceMatcher's do: its ``equal``
    parts are equal, and taking ``b``'s side of every part gives ``b``."""
    i = j = 0
    rebuilt: list[str] = []
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        assert (i1, j1) == (i, j)
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2] and i2 > i1
        rebuilt.extend(b[j1:j2])
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    assert rebuilt == b


def _lcs_length(a: list[str], b: list[str]) -> int:
    """The textbook dynamic programming: the reference for the windows' alignment."""
    previous = [0] * (len(b) + 1)
    for token in a:
        row = [0]
        for j, other in enumerate(b):
            row.append(previous[j] + 1 if token == other else max(previous[j + 1], row[j]))
        previous = row
    return previous[-1]


@settings(max_examples=examples(300))
@given(
    st.lists(st.sampled_from([":", "a", "::", "b"]), max_size=48),
    st.lists(st.sampled_from([":", "a", "::", "c"]), max_size=48),
)
def test_a_window_is_aligned_by_a_longest_common_subsequence(a: list[str], b: list[str]) -> None:
    pairs = _lcs_pairs(a, b, 0, len(a), 0, len(b))
    assert len(pairs) == _lcs_length(a, b)
    assert all(a[i] == b[j] for i, j in pairs)
    assert all(p < q for p, q in itertools.pairwise(pairs))
    assert all(p[1] < q[1] for p, q in itertools.pairwise(pairs))
