"""The round trip guarantee of issue 5, on real-world-shaped documents of every format.

The real pipeline: ``prose_blocks`` → ``select_paragraphs`` over the whole document →
``Paragraph.prose`` → an improvement (the offline engine, or random word-level mutations that
keep the placeholders) → ``Paragraph.rebuild`` → ``word_edits`` / ``apply_edits``. Whatever the
improvement does to the words, every byte outside the prose segments (line breaks, indentation,
leaders, code, markup between paragraphs) and every protected byte is identical afterwards.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markup_helpers import data
from tests.hypothesis_profiles import examples

from rephrase_ls.offline.engine import improve
from rephrase_ls.text.diff import TextEdit, apply_edits, word_edits
from rephrase_ls.text.markup import ProseBlock, prose_blocks
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs
from rephrase_ls.text.placeholders import PlaceholderError

DOCUMENTS = [
    ("README.md", "file:///repo/README.md"),
    ("guide.md", "file:///repo/docs/guide.md"),
    ("paper.tex", "file:///repo/paper/paper.tex"),
    ("geometry.py", "file:///repo/fastgrid/geometry.py"),
    ("usage.rst", "file:///repo/docs/usage.rst"),
    ("COMMIT_EDITMSG", "file:///repo/.git/COMMIT_EDITMSG"),
]

Improver = Callable[[str], str]


def improve_document(
    text: str, uri: str, improver: Improver, *, lines_may_empty: bool = False
) -> str:
    """Improve every paragraph of ``text`` and check what the edits may and may not touch."""
    blocks = prose_blocks(text, None, uri)
    assert blocks, "the document has prose"
    paragraphs = select_paragraphs(text, 0, len(text), blocks)
    assert len(paragraphs) == len(blocks)
    edits: list[TextEdit] = []
    expected: list[str] = []
    position = 0
    for paragraph, block in zip(paragraphs, blocks, strict=True):
        assert (paragraph.start, paragraph.end) == (block.start, block.end)
        replacement = paragraph.rebuild(improver(paragraph.prose))
        assert_markup_kept(text, block, replacement, lines_may_empty=lines_may_empty)
        original = text[paragraph.start : paragraph.end]
        for edit in word_edits(original, replacement):
            assert paragraph.start + edit.end <= paragraph.end
            edits.append(
                TextEdit(paragraph.start + edit.start, paragraph.start + edit.end, edit.new_text)
            )
        expected.append(text[position : paragraph.start])
        expected.append(replacement)
        position = paragraph.end
    expected.append(text[position:])
    result = apply_edits(text, edits)
    # outside the paragraphs' spans, every byte is the original one
    assert result == "".join(expected)
    return result


def assert_markup_kept(
    text: str, block: ProseBlock, replacement: str, *, lines_may_empty: bool
) -> None:
    """The gaps between segments come back verbatim and in order, and so do protected spans.

    A gap (a line break with the next line's leader) may move to another word boundary when the
    words around it changed, so gaps and protected spans are checked each on their own. When an
    improvement removes every word of a line (``lines_may_empty``), ``Paragraph.rebuild``
    removes the emptied line rather than leave a blank line (which would split a Markdown
    paragraph) or a bare leader: gaps that meet then merge — whitespace-only gaps give way to
    gaps with text and repeated gaps collapse (docs/architecture.md, ``rebuild``). Then every
    distinct gap with text still comes back, in order, and no line break is added.
    """
    gaps = [
        text[end:start]
        for (_, end), (start, _) in zip(block.segments, block.segments[1:], strict=False)
    ]
    line_breaks = re.compile(r"\r\n|\r|\n")
    original = text[block.start : block.end]
    if lines_may_empty:
        with_text = [gap for gap in gaps if not gap.isspace()]
        gaps = [gap for n, gap in enumerate(with_text) if n == 0 or gap != with_text[n - 1]]
        assert len(line_breaks.findall(replacement)) <= len(line_breaks.findall(original))
    else:
        assert len(line_breaks.findall(replacement)) == len(line_breaks.findall(original))
    for pieces in (gaps, [text[s:e] for s, e in block.protected]):
        position = 0
        for piece in pieces:
            found = replacement.find(piece, position)
            assert found >= 0, f"{piece!r} lost from {replacement!r}"
            position = found + len(piece)


@pytest.mark.parametrize(("name", "uri"), DOCUMENTS)
def test_identity_improvement_changes_nothing(name: str, uri: str) -> None:
    text = data(name)
    assert improve_document(text, uri, lambda prose: prose) == text


@pytest.mark.parametrize(("name", "uri"), DOCUMENTS)
def test_offline_engine_changes_only_prose(name: str, uri: str) -> None:
    text = data(name)
    result = improve_document(text, uri, lambda prose: improve(prose, "en-us"))
    assert result != text, "the engine found nothing to improve: the test would prove nothing"


_PLACEHOLDER = re.compile(r"(\{\{\d+\}\})")
_VOCABULARY = ["the", "grid", "quickly", "However,", "a", "points", "über", "naïve", "it's", "(x)"]


def mutate(prose: str, rng: random.Random, rate: float) -> str:
    """Random word-level changes that keep every placeholder, in order, exactly once."""
    out: list[str] = []
    for piece in re.split(r"(\s+)", prose):
        if not piece or piece.isspace():
            out.append(piece)
            continue
        parts = _PLACEHOLDER.split(piece)
        for i, part in enumerate(parts):
            if i % 2 == 1 or not part or rng.random() >= rate:
                out.append(part)
                continue
            op = rng.randrange(6)
            if op == 0:
                out.append(rng.choice(_VOCABULARY))  # replace
            elif op == 1:
                out.append("")  # delete
            elif op == 2:
                out.append(part.upper() if rng.random() < 0.5 else part.capitalize())
            elif op == 3:
                out.append(f"{part} {part}")  # duplicate
            elif op == 4:
                out.append(part + rng.choice([",", ".", ";", "!"]))
            else:
                out.append(f"{rng.choice(_VOCABULARY)} {part}")  # insert before
    result = "".join(out)
    if not result.strip():
        result = "word"
    return result


@pytest.mark.parametrize(("name", "uri"), DOCUMENTS)
@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), rate=st.floats(0.05, 0.9))
def test_random_word_mutations_change_only_prose(
    name: str, uri: str, seed: int, rate: float
) -> None:
    text = data(name)
    rng = random.Random(seed)
    improve_document(text, uri, lambda prose: mutate(prose, rng, rate), lines_may_empty=True)


def test_mutation_strategy_keeps_placeholders_and_changes_words() -> None:
    prose = "Use {{0}} to set {{1}}the cell{{2}} size, then query it."
    changed = 0
    for seed in range(50):
        result = mutate(prose, random.Random(seed), 0.5)
        assert _PLACEHOLDER.findall(result) == ["{{0}}", "{{1}}", "{{2}}"]
        changed += result != prose
    assert changed >= 45


def test_a_lost_placeholder_is_refused_not_applied() -> None:
    text = data("README.md")
    blocks = prose_blocks(text, "markdown")
    paragraph = next(p for p in select_paragraphs(text, 0, len(text), blocks) if "{{" in p.prose)
    assert isinstance(paragraph, Paragraph)
    with pytest.raises(PlaceholderError, match="lost"):
        paragraph.rebuild(_PLACEHOLDER.sub("", paragraph.prose, count=1))
