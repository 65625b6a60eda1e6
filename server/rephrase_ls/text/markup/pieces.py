"""Prose blocks from a stream of pieces: what the Typst and HTML scanners produce.

A scanner walks a document once and yields, in document order, pieces ``(start, end, kind)``:
``PROSE`` (text to send), ``PROTECT`` (markup inside a sentence, sent as a placeholder) and
``BREAK`` (markup between paragraphs: everything since the last break is one paragraph). Text no
piece covers (comments, line breaks, list markers) is kept as it is: outside the segments when it
is at a line's edge, protected when it lies between two pieces of one line.
"""

from __future__ import annotations

from collections.abc import Iterable

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import Lines, make_block

__all__ = ["BREAK", "PROSE", "PROTECT", "Piece", "blocks_from_pieces"]

PROSE, PROTECT, BREAK = range(3)
Piece = tuple[int, int, int]


def _paragraph(text: str, lines: Lines, pieces: list[Piece]) -> ProseBlock | None:
    """A block from the prose and protected pieces of one paragraph (in document order)."""
    per_line: dict[int, list[int]] = {}
    protected: list[tuple[int, int]] = []
    for start, end, kind in pieces:
        if kind == PROTECT:
            protected.append((start, end))
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
                bounds[0] = min(bounds[0], s)
                bounds[1] = max(bounds[1], e)
    if not per_line:
        return None
    segments = [(b[0], b[1]) for _, b in sorted(per_line.items())]
    # what lies inside a segment and no piece covers (a comment between two words) and is not
    # white space is protected rather than sent
    pos = segments[0][0]
    for s, e, _ in pieces:
        if s > pos and text[pos:s].strip():
            protected.append((pos, s))
        pos = max(pos, e)
    return make_block(text, segments, protected)


def blocks_from_pieces(text: str, pieces: Iterable[Piece]) -> list[ProseBlock]:
    """The prose blocks of ``text`` from its pieces (see the module docstring), in order."""
    lines = Lines(text)
    blocks: list[ProseBlock] = []
    paragraph: list[Piece] = []
    for piece in pieces:
        if piece[2] == BREAK:
            if paragraph:
                block = _paragraph(text, lines, paragraph)
                if block is not None:
                    blocks.append(block)
                paragraph = []
        elif piece[1] > piece[0]:
            paragraph.append(piece)
    if paragraph:
        block = _paragraph(text, lines, paragraph)
        if block is not None:
            blocks.append(block)
    return blocks
