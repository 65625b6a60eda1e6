"""Paragraph selection and laying improved prose back over the document's lines."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.text.diff import apply_edits, word_edits
from rephrase_ls.text.layout import _narrowed, interleave, joined, lay_out_lines, tight
from rephrase_ls.text.markup import ProseBlock
from rephrase_ls.text.markup.plain import plain_blocks
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs
from rephrase_ls.text.placeholders import PlaceholderError

WORDS = ["alpha", "beta", "Gamma", "naïve", "cafe\u0301", "Привет", "中文", "😀", "👍🏽", "x.", "y"]
PREFIXES = ["", "  ", "\t", "> ", "> > ", "- ", "* ", "1. ", "12) ", "+ "]
BREAKS = ["\n", "\r\n", "\r"]


@st.composite
def documents(draw: st.DrawFn) -> str:
    """Plain-text documents: paragraphs of wrapped lines with prefixes, any line break style."""
    paragraphs = []
    for _ in range(draw(st.integers(1, 4))):
        prefix = draw(st.sampled_from(PREFIXES))
        continuation = " " * len(prefix) if prefix[:1] in "-*+1" else prefix
        lines = []
        for n in range(draw(st.integers(1, 4))):
            words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
            trailing = draw(st.sampled_from(["", " ", "\t"]))
            lines.append((prefix if n == 0 else continuation) + " ".join(words) + trailing)
        paragraphs.append(lines)
    newline = draw(st.sampled_from(BREAKS))
    return (newline + newline).join(newline.join(lines) for lines in paragraphs) + newline


def without_gaps(
    result: str, gaps: Sequence[str], joiners: Sequence[str] | None = None
) -> str:
    """``result`` with each gap, in order, taken out again (its joiner, a space by default, in
    its place); fails when a gap is missing. For a good layout this gives the answer's prose
    back."""
    rest, pieces = result, []
    for gap in gaps:
        head, found, rest = rest.partition(gap)
        assert found, f"gap {gap!r} missing"
        pieces.append(head)
    pieces.append(rest)
    return joined(pieces, joiners)


def tight_words(paragraph: Paragraph) -> set[int]:
    """Indexes of the space-separated words of the paragraph's prose that hold a line break
    joined without a space (two Chinese characters either side): replaced whole, such a word
    leaves its line break no place in the answer."""
    inside: set[int] = set()
    position = 0
    breaks = []
    for line, glue in zip(paragraph.lines, paragraph.joiners, strict=False):
        position += len(line)
        if not glue:
            breaks.append(position)
        position += len(glue)
    start = 0
    for k, word in enumerate(paragraph.prose.split(" ")):
        if any(start < b < start + len(word) for b in breaks):
            inside.add(k)
        start += len(word) + 1
    return inside


@settings(max_examples=examples(100))
@given(documents())
def test_identity_improvement_returns_exactly_the_original_span(text: str) -> None:
    blocks = plain_blocks(text)
    assert blocks
    for paragraph in select_paragraphs(text, 0, len(text), blocks):
        assert paragraph.rebuild(paragraph.prose) == text[paragraph.start : paragraph.end]
    # The whole document rebuilt paragraph by paragraph is the document.
    paragraphs = select_paragraphs(text, 0, len(text), blocks)
    assert len(paragraphs) == len(blocks)


@settings(max_examples=examples(100))
@given(documents(), st.data())
def test_changed_words_keep_every_line_prefix_and_line_break(
    text: str, data: st.DataObject
) -> None:
    for paragraph in select_paragraphs(text, 0, len(text), plain_blocks(text)):
        words = paragraph.prose.split(" ")
        tight = tight_words(paragraph)
        for _ in range(data.draw(st.integers(0, 3))):
            k = data.draw(st.integers(0, len(words) - 1))
            if k not in tight:
                words[k] = data.draw(st.sampled_from(["omega", "très", "ok!", "🙂"]))
        improved = " ".join(words)
        result = paragraph.rebuild(improved)
        original = text[paragraph.start : paragraph.end]
        # Same number of lines, each with the original's line break and prefix.
        assert len(result.splitlines()) == len(original.splitlines())
        for gap in paragraph.gaps:
            assert gap in result
        # Taking the gaps out again gives the improved prose.
        assert without_gaps(result, paragraph.gaps, paragraph.joiners) == improved
        # And the edits that would be sent to the editor reproduce the result exactly.
        assert apply_edits(original, word_edits(original, result)) == result


@settings(max_examples=examples(300))
@given(documents(), st.data())
def test_laying_out_only_the_changed_lines(text: str, data: st.DataObject) -> None:
    # _narrowed lays out just the lines from the first change to the last. Its result keeps
    # every gap in order around exactly the answer's words, its edits reproduce it, and the
    # lines before and after the change are untouched. (Where the word alignment is ambiguous,
    # e.g. a repeated ideograph, it may place a break differently from laying out every line:
    # it keeps the breaks outside the changed lines where they were.)
    for paragraph in select_paragraphs(text, 0, len(text), plain_blocks(text)):
        words = paragraph.prose.split(" ")
        for _ in range(data.draw(st.integers(1, 3))):
            k = data.draw(st.integers(0, len(words) - 1))
            choice = data.draw(st.sampled_from(["omega", "très", "ok!", "🙂", "", "a b"]))
            words[k] = choice or words[k] + words[k]
        improved = " ".join(words)
        original = " ".join(paragraph.lines)
        if improved == original or len(paragraph.lines) < 2:
            continue
        if paragraph.prose != original:
            continue  # lines joined without a space (Chinese either side): the CJK tests' case
        narrowed = _narrowed(original, paragraph.lines, paragraph.gaps, improved, (), True)
        if narrowed is None:
            continue
        result, edits = narrowed
        assert edits is not None and apply_edits(paragraph.original, edits) == result
        assert without_gaps(result, paragraph.gaps) == improved


@settings(max_examples=examples(300))
@given(
    st.lists(
        st.lists(st.sampled_from([*WORDS, "delta", "epsilon", "zeta"]), min_size=1, max_size=6),
        min_size=1,
        max_size=9,
    ),
    st.sampled_from(["\n", "\n> ", "\r\n  ", "\n// "]),
    st.data(),
)
def test_any_change_to_long_paragraphs_keeps_words_gaps_and_edits(
    words_per_line: list[list[str]], gap: str, data: st.DataObject
) -> None:
    # The layout narrowed to the changed lines and split at unchanged lines between changes:
    # the answer's words exactly, each gap at most once (a line whose words the alignment
    # deletes goes with its gap: ``alpha alpha|alpha|beta`` → ``omega alpha alpha alpha``
    # keeps the first three alphas, inserts omega and deletes beta's line), edits that
    # reproduce it.
    lines = [" ".join(words) for words in words_per_line]
    gaps = [gap] * (len(lines) - 1)
    words = " ".join(lines).split(" ")
    for _ in range(data.draw(st.integers(1, 4))):
        k = data.draw(st.integers(0, len(words) - 1))
        words[k] = data.draw(st.sampled_from(["omega", "très", "ok!", "🙂", "a b", "alpha"]))
    improved = " ".join(words)
    result, edits = lay_out_lines(lines, gaps, improved, (), True)
    assert edits is not None and apply_edits(interleave(lines, gaps), edits) == result
    assert result.count(gap) <= len(gaps)
    assert result.replace(gap, " ") == improved


def test_line_breaks_stay_where_the_neighbouring_words_are_unchanged() -> None:
    text = "> The quick brown fox\n> jumps over the lazy\n> dog today.\n"
    (paragraph,) = select_paragraphs(text, 0, len(text), plain_blocks(text))
    assert paragraph.prose == "The quick brown fox jumps over the lazy dog today."
    result = paragraph.rebuild("The swift brown fox leaps over the very lazy dog today.")
    assert result == "The swift brown fox\n> leaps over the very lazy\n> dog today."
    # Only the changed words are edited in the document.
    edits = word_edits(text[paragraph.start : paragraph.end], result)
    assert [e.new_text.strip() for e in edits] == ["swift", "leaps", "very"]
    assert all(not text[e.start : e.end].strip() for e in edits[2:])


def test_a_line_break_between_changed_words_moves_to_the_nearest_space() -> None:
    text = "one two three\nfour five six"
    (paragraph,) = select_paragraphs(text, 0, 0, plain_blocks(text))
    result = paragraph.rebuild("one two alpha beta gamma delta five six")
    assert result == "one two alpha beta\ngamma delta five six"
    assert result.replace("\n", " ") == "one two alpha beta gamma delta five six"


def test_an_emptied_line_disappears_without_leaving_a_blank_line() -> None:
    text = "- first words\n  middle\n  last words"
    (paragraph,) = select_paragraphs(text, 0, 0, plain_blocks(text))
    assert paragraph.rebuild("first words last words") in (
        "first words\n  last words",
        "first\n  words last words",
        "first words last\n  words",
    )
    assert "\n  \n" not in paragraph.rebuild("first words last words")
    assert paragraph.rebuild("Done.") == "Done."


def test_no_text_is_lost_when_different_gaps_share_a_place() -> None:
    text = "# aaa bbb\n# ccc\n#   ddd eee"
    block = ProseBlock(((2, 9), (12, 15), (20, 27)))
    paragraph = Paragraph.from_segments(text, block.segments)
    assert paragraph is not None
    assert paragraph.gaps == ("\n# ", "\n#   ")
    # Both comment leaders survive even though only one word is left.
    assert paragraph.rebuild("aaa-eee") == "aaa-eee\n# \n#   "
    # Whitespace-only gaps that collide keep one line break and no blank line.
    plain = Paragraph.from_segments("aaa bbb\nccc\n    ddd eee", ((0, 7), (8, 11), (16, 23)))
    assert plain is not None
    assert plain.rebuild("aaa ddd") == "aaa\n    ddd"
    assert plain.rebuild("aaa-eee") == "aaa-eee"


def test_line_breaks_are_never_put_inside_a_word_or_protected_text() -> None:
    text = "see `a b c` here\nand there"
    block = ProseBlock(((0, 16), (17, 26)), protected=((4, 11),))
    paragraph = Paragraph.from_segments(text, block.segments, block.protected)
    assert paragraph is not None
    assert paragraph.prose == "see {{0}} here and there"
    assert paragraph.rebuild("{{0}} everywhere") == "`a b c`\neverywhere"
    assert paragraph.rebuild("Look: {{0}}") == "Look:\n`a b c`"


def test_a_line_break_never_takes_the_space_a_protected_span_starts_with() -> None:
    # reStructuredText protects an embedded URI with the space before it: a space the answer
    # puts next to it is one whitespace token with that space, not a place for a line break
    text = "Build it from\nsource, see `the repository <https://x.org>`_ for details."
    uri = (text.index(" <https"), text.index("`_") + 2)
    paragraph = Paragraph.from_segments(text, [(0, 13), (14, len(text))], [uri])
    assert paragraph is not None
    assert paragraph.rebuild("Quickly  {{0}} now") == "Quickly   <https://x.org>`_\nnow"


def test_placeholder_errors_and_empty_answers_propagate() -> None:
    text = "see `code` here\nand there"
    block = ProseBlock(((0, 15), (16, 25)), protected=((4, 10),))
    paragraph = Paragraph.from_segments(text, block.segments, block.protected)
    assert paragraph is not None
    with pytest.raises(PlaceholderError):
        paragraph.rebuild("see here and there")
    assert paragraph.rebuild(" see {{0}} here and there\n") == text
    plain = Paragraph.from_segments("one\ntwo", ((0, 3), (4, 7)))
    assert plain is not None
    with pytest.raises(ValueError, match="no text"):
        plain.rebuild("  ")


DOC = (
    "Title line here.\r\n"
    "\r\n"
    "First paragraph wraps\r\n"
    "onto a second line.\r\n"
    "\r\n"
    "- item one\r\n"
    "  continues\r\n"
    "- item two\r\n"
    "\r\n"
    "> quoted text\r\n"
    "> more quote\r\n"
)


def _texts(paragraphs: list[Paragraph]) -> list[str]:
    return [DOC[p.start : p.end] for p in paragraphs]


def test_empty_selection_gives_the_paragraph_under_the_cursor() -> None:
    blocks = plain_blocks(DOC)
    inside = DOC.index("wraps")
    assert _texts(select_paragraphs(DOC, inside, inside, blocks)) == [
        "First paragraph wraps\r\nonto a second line."
    ]
    end = DOC.index("line.\r\n\r\n-") + len("line.")
    assert _texts(select_paragraphs(DOC, end, end, blocks)) == [
        "First paragraph wraps\r\nonto a second line."
    ]
    in_prefix = DOC.index("- item two")
    assert _texts(select_paragraphs(DOC, in_prefix, in_prefix, blocks)) == ["item two"]
    in_quote_prefix = DOC.index("> more")
    assert _texts(select_paragraphs(DOC, in_quote_prefix, in_quote_prefix, blocks)) == [
        "quoted text\r\n> more quote"
    ]
    blank = DOC.index("\r\n\r\n") + 2
    assert select_paragraphs(DOC, blank, blank, blocks) == []


def test_selection_inside_one_paragraph_improves_just_that_span() -> None:
    blocks = plain_blocks(DOC)
    start = DOC.index("paragraph")
    end = DOC.index("second") + len("second")
    (paragraph,) = select_paragraphs(DOC, start, end, blocks)
    assert DOC[paragraph.start : paragraph.end] == "paragraph wraps\r\nonto a second"
    assert paragraph.prose == "paragraph wraps onto a second"
    # A selection cutting words keeps exactly the span, whitespace stripped at the edges.
    (cut,) = select_paragraphs(DOC, DOC.index("aph wr") + 3, DOC.index("wraps") + 3, blocks)
    assert cut.prose == "wra"


def test_selection_across_paragraphs_clips_the_first_and_last() -> None:
    blocks = plain_blocks(DOC)
    start = DOC.index("onto")
    end = DOC.index("quoted") + len("quoted")
    assert _texts(select_paragraphs(DOC, start, end, blocks)) == [
        "onto a second line.",
        "item one\r\n  continues",
        "item two",
        "quoted",
    ]
    everything = select_paragraphs(DOC, 0, len(DOC), blocks)
    assert [p.prose for p in everything] == [
        "Title line here.",
        "First paragraph wraps onto a second line.",
        "item one continues",
        "item two",
        "quoted text more quote",
    ]
    for paragraph in everything:
        assert paragraph.rebuild(paragraph.prose) == DOC[paragraph.start : paragraph.end]


def test_selection_of_only_blank_lines_or_prefixes_gives_nothing() -> None:
    blocks = plain_blocks(DOC)
    start = DOC.index("- item two")
    assert select_paragraphs(DOC, start, start + 2, blocks) == []
    assert select_paragraphs("  \n\n ", 0, 5, plain_blocks("  \n\n ")) == []


def test_protected_span_cut_by_the_selection_stays_protected() -> None:
    text = "Open https://example.org/page now"
    blocks = plain_blocks(text)
    assert blocks[0].protected == ((5, 29),)
    (paragraph,) = select_paragraphs(text, 0, 15, blocks)
    assert paragraph.prose == "Open {{0}}"
    assert paragraph.rebuild("Please open {{0}}") == "Please open https://ex"


def test_blocks_with_only_protected_text_are_skipped() -> None:
    text = "https://example.org"
    assert select_paragraphs(text, 0, len(text), plain_blocks(text)) == []


def test_bad_selection_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="outside the text"):
        select_paragraphs("abc", 2, 9, plain_blocks("abc"))
    with pytest.raises(ValueError, match="outside the text"):
        select_paragraphs("abc", 2, 1, plain_blocks("abc"))


def _words(text: str) -> list[str]:
    """The whitespace-separated words of ``text``, each :func:`tight` character a word."""
    return [
        piece
        for word in text.split()
        for piece in ([word] if not any(map(tight, word)) else _tight_apart(word))
    ]


def _tight_apart(word: str) -> list[str]:
    pieces: list[str] = []
    for char in word:
        if tight(char) or not pieces or tight(pieces[-1][-1]):
            pieces.append(char)
        else:
            pieces[-1] += char
    return pieces


@settings(max_examples=examples(100))
@given(
    st.lists(st.sampled_from(WORDS), min_size=2, max_size=12),
    st.lists(st.integers(1, 11), max_size=4),
    st.sampled_from(["\n", "\r\n", "\r", "\n    ", "\r\n\t"]),
    st.lists(st.sampled_from([*WORDS, " ", "  ", "\t", "\n", "{", "--", "…"]), max_size=16),
)
def test_any_answer_is_laid_out_without_splitting_or_losing_words(
    words: list[str], breaks: list[int], newline: str, answer: list[str]
) -> None:
    wrapped = list(words)
    for n in sorted(set(breaks), reverse=True):
        if n < len(wrapped):
            wrapped[n:n] = [newline]
    text = " ".join(wrapped).replace(" " + newline + " ", newline)
    paragraphs = select_paragraphs(text, 0, len(text), plain_blocks(text))
    improved = "".join(answer)
    for paragraph in paragraphs:
        if not improved.strip():
            with pytest.raises(ValueError):
                paragraph.rebuild(improved)
            continue
        result = paragraph.rebuild(improved)
        # Gaps here are whitespace only: the words are exactly the answer's words, so no gap
        # went inside a word and nothing was lost (a line break between two characters written
        # without spaces, 中文 and 中文, is laid out as nothing: each is a word of its own).
        assert _words(result) == _words(improved)
        lines_in_result = len(result.splitlines())
        assert lines_in_result <= len(paragraph.lines) + improved.count("\n")


def test_selecting_anywhere_in_a_one_megabyte_document() -> None:
    # How fast is measured by bench/bench_code_actions.py, not asserted here.
    text = ("A wrapped line of prose that goes on\nand on for a while.\n\n- item\n\n") * 15_000
    blocks = plain_blocks(text)
    for offset in range(0, len(text), len(text) // 1000):
        (paragraph,) = select_paragraphs(text, offset, offset, blocks) or (None,)
        assert paragraph is None or paragraph.start - 2 <= offset <= paragraph.end


def test_line_breaks_in_the_answer_never_drop_a_line_prefix() -> None:
    text = "> A quoted line."
    (paragraph,) = select_paragraphs(text, 0, 0, plain_blocks(text))
    assert paragraph.rebuild("A quoted\nline, improved.") == "A quoted line, improved."
    code = "    // first comment line\n    // second one"
    block = ProseBlock(((7, 25), (33, 43)))
    comment = Paragraph.from_segments(code, block.segments)
    assert comment is not None
    result = comment.rebuild("first comment line\r\n\r\nsecond one")
    assert result == "first comment line\n    // second one"
    # Protected text keeps its own line breaks.
    quoted = Paragraph.from_segments("x `a\nb` y", ((0, 9),), ((2, 7),))
    assert quoted is not None
    assert quoted.rebuild("x\n{{0}}\ny") == "x `a\nb` y"
