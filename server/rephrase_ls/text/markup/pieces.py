"""Prose blocks from a stream of pieces: what the Typst and HTML scanners produce.

A scanner walks a document once and gives, in document order, pieces ``(start, end, kind)``:
``PROSE`` (text to send), ``PROTECT`` (markup inside a sentence, sent as a placeholder) and
``BREAK`` (markup between paragraphs: everything since the last break is one paragraph). Text no
piece covers (comments, line breaks, list markers) is kept as it is: outside the segments when it
is at a line's edge, protected when it lies between two pieces of one line.

:class:`Paragraphs` takes the pieces as the scanner finds them and builds each paragraph's block
at its break, so no list of pieces is kept; :func:`blocks_from_pieces` does the same for pieces
given as a sequence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from itertools import pairwise

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import build_block, trim

__all__ = ["BREAK", "PROSE", "PROTECT", "Inline", "Paragraphs", "Piece", "blocks_from_pieces"]

PROSE, PROTECT, BREAK = range(3)
_LINE_BREAK = re.compile(r"[\r\n]")
_WORD_CHAR = re.compile(r"[^\W_]")  # a letter or a digit: what makes a block prose
Piece = tuple[int, int, int]


Inline = Callable[[str, int, int], list[tuple[int, int]]]
"""What a format protects inside prose: ``inline(text, start, end)`` gives the sorted spans of
``text[start:end]`` to keep (emphasis markers, entities, URLs…). It is called once over a whole
paragraph, markup pieces included: a span it finds there is protected already."""


class Paragraphs:
    """The blocks of a document, built paragraph by paragraph from its pieces in order: each
    piece widens the paragraph's covered spans (those that touch merged) and a protected one is
    kept; a break makes the block."""

    __slots__ = ("_covered", "_inline", "_protected", "_text", "blocks")

    def __init__(self, text: str, inline: Inline | None = None) -> None:
        self._text = text
        self._inline = inline
        self._covered: list[list[int]] = []  # the pieces' spans, those that touch merged
        self._protected: list[tuple[int, int]] = []
        self.blocks: list[ProseBlock] = []

    def prose(self, start: int, end: int) -> None:
        """Text to send, ``[start, end)`` (nothing if empty)."""
        if end > start:
            covered = self._covered
            if covered and covered[-1][1] >= start:
                if end > covered[-1][1]:
                    covered[-1][1] = end
            else:
                covered.append([start, end])

    def protect(self, start: int, end: int) -> None:
        """Markup inside a sentence, ``[start, end)``, kept as it is (nothing if empty)."""
        if end > start:
            protected = self._protected
            if protected and protected[-1][1] == start:  # one span for a run of markup
                protected[-1] = (protected[-1][0], end)
            else:
                protected.append((start, end))
            covered = self._covered
            if covered and covered[-1][1] >= start:
                if end > covered[-1][1]:
                    covered[-1][1] = end
            else:
                covered.append([start, end])

    def piece(self, start: int, end: int, kind: int) -> None:
        """One piece of any kind."""
        if kind == BREAK:
            self.brk()
        elif kind == PROTECT:
            self.protect(start, end)
        else:
            self.prose(start, end)

    def brk(self) -> None:
        """The paragraph ends here: its block (if it has prose) joins :attr:`blocks`."""
        if self._covered:
            block = self._block()
            if block is not None:
                self.blocks.append(block)
            self._covered = []
            self._protected = []

    def finish(self) -> list[ProseBlock]:
        """The blocks, the last paragraph ended by the end of the text."""
        self.brk()
        return self.blocks

    def _block(self) -> ProseBlock | None:
        text, covered, protected = self._text, self._covered, self._protected
        if self._inline is not None:
            # one search over the whole paragraph: what it finds in protected markup or between
            # the lines is protected already or outside the segments
            found = self._inline(text, covered[0][0], covered[-1][1])
            if found:
                protected.extend(found)
                protected.sort()
        if len(covered) == 1:  # the common short paragraph: one run of pieces on one line
            start, end = covered[0]
            if _LINE_BREAK.search(text, start, end - 1) is None:
                while end > start and text[end - 1] in " \t\r\n":  # the line break it may end with
                    end -= 1
                start, end = trim(text, start, end)
                if start >= end:
                    return None
                if not protected:  # plain text: prose if it holds a letter or a digit
                    found_word = _WORD_CHAR.search(text, start, end)
                    return None if found_word is None else ProseBlock(((start, end),))
                return build_block(text, [(start, end)], protected)
        segments = _segments(text, covered)
        if not segments:
            return None
        # what lies inside a segment and no piece covers (a comment between two words) and is not
        # white space is protected rather than sent
        for (_, end), (start, _) in pairwise(covered):
            if text[end:start].strip():
                protected.append((end, start))
        if not protected:  # plain text: prose if a segment holds a letter or a digit
            for start, end in segments:
                if _WORD_CHAR.search(text, start, end) is not None:
                    return ProseBlock(tuple(segments))
            return None
        protected.sort()
        return build_block(text, segments, [p for p in protected if p[0] < p[1]])


def _segments(text: str, covered: list[list[int]]) -> list[tuple[int, int]]:
    """The covered spans in order, cut at the line breaks: one segment per line, from the first
    covered character of the line to the last, its white space trimmed. Lines are told apart by
    the line breaks met on the way (within a span, or between two), so no line table is made."""
    line_break = _LINE_BREAK.search
    segments: list[tuple[int, int]] = []
    line = 0  # grows with each line break met: equal numbers, the same line
    last_line = -1  # the line of the last segment
    previous_end = -1
    for start, end in covered:
        if previous_end >= 0 and line_break(text, previous_end, start) is not None:
            line += 1
        previous_end = end
        while True:
            found = line_break(text, start, end)
            s, e = start, end if found is None else found.start()
            while s < e and text[s] in " \t":
                s += 1
            while e > s and text[e - 1] in " \t":
                e -= 1
            if s < e:
                if line == last_line:
                    segments[-1] = (segments[-1][0], e)
                else:
                    segments.append((s, e))
                    last_line = line
            if found is None:
                break
            start = found.end()
            line += 1
    return segments


def blocks_from_pieces(
    text: str, pieces: Iterable[Piece], inline: Inline | None = None
) -> list[ProseBlock]:
    """The prose blocks of ``text`` from its pieces (see the module docstring), in order;
    ``inline`` protects what it finds inside each paragraph."""
    paragraphs = Paragraphs(text, inline)
    for start, end, kind in pieces:
        paragraphs.piece(start, end, kind)
    return paragraphs.finish()
