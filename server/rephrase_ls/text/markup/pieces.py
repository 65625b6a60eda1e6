"""Prose blocks from a stream of pieces: what the Typst and HTML scanners produce.

A scanner walks a document once and yields, in document order, pieces ``(start, end, kind)``:
``PROSE`` (text to send), ``PROTECT`` (markup inside a sentence, sent as a placeholder) and
``BREAK`` (markup between paragraphs: everything since the last break is one paragraph). Text no
piece covers (comments, line breaks, list markers) is kept as it is: outside the segments when it
is at a line's edge, protected when it lies between two pieces of one line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import pairwise

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import Lines, build_block, make_block, trim

__all__ = ["BREAK", "PROSE", "PROTECT", "Inline", "Piece", "blocks_from_pieces"]

PROSE, PROTECT, BREAK = range(3)
Piece = tuple[int, int, int]


Inline = Callable[[str, int, int], list[tuple[int, int]]]
"""What a format protects inside prose: ``inline(text, start, end)`` gives the sorted spans of
``text[start:end]`` to keep (emphasis markers, entities, URLs…). It is called once over a whole
paragraph, markup pieces included: a span it finds there is protected already."""


def _paragraph(
    text: str, lines: Lines, pieces: list[Piece], inline: Inline | None
) -> ProseBlock | None:
    """A block from the prose and protected pieces of one paragraph (in document order)."""
    protected: list[tuple[int, int]] = []
    covered: list[list[int]] = []  # the pieces' spans, those that touch merged
    for start, end, kind in pieces:
        if kind == PROTECT:
            protected.append((start, end))
        if covered and covered[-1][1] >= start:
            if end > covered[-1][1]:
                covered[-1][1] = end
        else:
            covered.append([start, end])
    if inline is not None:
        # one search over the whole paragraph: what it finds in protected markup or between
        # the lines is protected already or outside the segments
        found = inline(text, pieces[0][0], pieces[-1][1])
        if found:
            protected.extend(found)
            protected.sort()
    if len(covered) == 1:  # the common short paragraph: one run of pieces on one line
        start, end = covered[0]
        if lines.line_of(start) == lines.line_of(max(start, end - 1)):
            while end > start and text[end - 1] in " \t\r\n":  # the line break it may end with
                end -= 1
            start, end = trim(text, start, end)
            if start >= end:
                return None
            return build_block(text, [(start, end)], protected)
    per_line: dict[int, list[int]] = {}
    for start, end in covered:
        first, last = lines.line_of(start), lines.line_of(max(start, end - 1))
        for i in range(first, last + 1):
            s = max(start, lines.starts[i])
            e = min(end, lines.ends[i])
            while s < e and text[s] in " \t":
                s += 1
            while e > s and text[e - 1] in " \t\r\n":
                e -= 1
            if s >= e:
                continue
            bounds = per_line.get(i)
            if bounds is None:
                per_line[i] = [s, e]
            else:
                bounds[1] = e
    if not per_line:
        return None
    segments = [(b[0], b[1]) for _, b in sorted(per_line.items())]
    # what lies inside a segment and no piece covers (a comment between two words) and is not
    # white space is protected rather than sent
    for (_, end), (start, _) in pairwise(covered):
        if text[end:start].strip():
            protected.append((end, start))
    protected.sort()
    return make_block(text, segments, protected)


def blocks_from_pieces(
    text: str, pieces: Iterable[Piece], inline: Inline | None = None
) -> list[ProseBlock]:
    """The prose blocks of ``text`` from its pieces (see the module docstring), in order;
    ``inline`` protects what it finds inside each paragraph."""
    lines = Lines(text)
    blocks: list[ProseBlock] = []
    paragraph: list[Piece] = []
    for piece in pieces:
        if piece[2] == BREAK:
            if paragraph:
                block = _paragraph(text, lines, paragraph, inline)
                if block is not None:
                    blocks.append(block)
                paragraph = []
        elif piece[1] > piece[0]:
            paragraph.append(piece)
    if paragraph:
        block = _paragraph(text, lines, paragraph, inline)
        if block is not None:
            blocks.append(block)
    return blocks
