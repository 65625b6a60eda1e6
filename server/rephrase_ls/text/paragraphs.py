"""Paragraphs to send to the service, and the selection of the paragraphs to improve.

A :class:`Paragraph` is one prose block (or the part of it a selection covers). Its ``prose`` is
what the service sees: the lines' prose joined by single spaces (by nothing between two
characters of Chinese or Japanese, which put no space between words:
:func:`rephrase_ls.text.layout.joiner`), protected spans replaced by placeholders.
:meth:`Paragraph.rebuild` turns the service's answer into the replacement for
``document[start:end]``: placeholders restored, then the answer laid back over the lines by
:mod:`rephrase_ls.text.layout` (each line break, with the verbatim text between two lines'
prose, put back where it was, or on the nearest whitespace between words, or between two
Chinese or Japanese characters).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from rephrase_ls.text.diff import (
    TextEdit,
)
from rephrase_ls.text.layout import interleave, joined, joiner, lay_out_lines, tight
from rephrase_ls.text.markup import ProseBlock
from rephrase_ls.text.placeholders import Masked, mask

__all__ = ["Paragraph", "select_paragraphs"]

# A whitespace run with a line break in it (any of the characters str.splitlines breaks at).
_ANSWER_BREAK = re.compile(
    "[^\\S\r\n\v\f\x1c-\x1e\x85\u2028\u2029]*[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]\\s*"
)
# Any line break character: most answers have none, and this one-class search is much faster
# than letting the pattern above try every position.
_ANY_BREAK = re.compile("[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")

Span = tuple[int, int]


@dataclass(frozen=True)
class Paragraph:
    """A span of a document to improve, and the prose sent for it.

    ``start``/``end``: the document span the paragraph replaces (first segment's start to last
    segment's end). ``prose``: the text sent to the service. ``lines``: each line's prose
    (protected text included, no placeholders); ``gaps``: the verbatim document text between
    consecutive lines' prose; ``masked``: the placeholder mapping of ``prose``; ``joiners``:
    what joins each pair of consecutive lines in the prose (a space, or nothing between two
    Chinese or Japanese characters; worked out from the lines when not given).
    """

    start: int
    end: int
    prose: str
    lines: tuple[str, ...] = field(default=(), repr=False)
    gaps: tuple[str, ...] = field(default=(), repr=False)
    masked: Masked | None = field(default=None, repr=False, compare=False)
    joiners: tuple[str, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"invalid paragraph span [{self.start}, {self.end})")
        if not self.lines:
            object.__setattr__(self, "lines", (self.prose,))
        if len(self.gaps) != len(self.lines) - 1:
            raise ValueError("a paragraph needs exactly one gap between consecutive lines")
        if len(self.lines) > 1:
            for line in self.lines:
                if not line or line[0].isspace() or line[-1].isspace():
                    raise ValueError("paragraph lines must be non-empty and trimmed")
        if len(self.joiners) != len(self.gaps):
            lines = self.lines
            found = tuple(joiner(lines[k][-1], lines[k + 1][0]) for k in range(len(lines) - 1))
            object.__setattr__(self, "joiners", found)

    @classmethod
    def from_segments(
        cls, text: str, segments: Sequence[Span], protected: Sequence[Span] = ()
    ) -> Paragraph | None:
        """The paragraph made of ``segments`` of ``text`` (absolute spans, in order).

        Whitespace at either end of a segment moves into the gaps; empty segments are dropped.
        ``protected`` spans are clipped to the segments. ``None`` when no unprotected prose
        (a non-space character outside the protected spans) is left.
        """
        trimmed: list[Span] = []
        previous = -1
        for start, end in segments:
            if start < previous or not 0 <= start <= end <= len(text):
                raise ValueError(f"segment [{start}, {end}) is out of order or outside the text")
            previous = end
            while start < end and text[start].isspace():
                start += 1
            while end > start and text[end - 1].isspace():
                end -= 1
            if end > start:
                trimmed.append((start, end))
        if not trimmed:
            return None
        clipped = _clip_protected(trimmed, protected)
        if not _has_free_prose(text, trimmed, clipped):
            return None
        lines = tuple(text[s:e] for s, e in trimmed)
        gaps = tuple(text[trimmed[k][1] : trimmed[k + 1][0]] for k in range(len(trimmed) - 1))
        joiners = tuple(joiner(lines[k][-1], lines[k + 1][0]) for k in range(len(lines) - 1))
        joined_spans = []
        line_index = 0
        joined_start = 0  # offset of the current line in the joined prose
        for ps, pe in clipped:
            while trimmed[line_index][1] < pe:
                joined_start += len(lines[line_index]) + len(joiners[line_index])
                line_index += 1
            line_start = trimmed[line_index][0]
            joined_spans.append((joined_start + ps - line_start, joined_start + pe - line_start))
        masked = mask(joined(lines, joiners), joined_spans)
        return cls(trimmed[0][0], trimmed[-1][1], masked.text, lines, gaps, masked, joiners)

    @property
    def original(self) -> str:
        """The text the paragraph replaces (``document[start:end]`` for a paragraph made by
        :meth:`from_segments`): its lines with the gaps between them."""
        return interleave(self.lines, self.gaps)

    def rebuild(self, improved: str) -> str:
        """The replacement for ``document[start:end]`` given the service's ``improved`` prose.

        Line breaks in the answer become spaces (nothing between two Chinese or Japanese
        characters, as the lines were joined): the paragraph's own line breaks (with their
        indentation, quote or comment leaders) are the ones laid back, and a bare line break
        would lose them (a comment line without its ``//`` breaks the code). Raises
        :class:`~rephrase_ls.text.placeholders.PlaceholderError` when a placeholder did not
        come back intact, ``ValueError`` when the answer is empty.
        """
        return self._rebuild(improved, want_edits=False)[0]

    def rebuild_with_edits(self, improved: str) -> tuple[str, list[TextEdit]]:
        """:meth:`rebuild`, and the minimal word edits turning :attr:`original` into the
        replacement (offsets relative to ``start``), from the same word alignment the line
        breaks were laid out with (no second alignment). Raises as :meth:`rebuild` does."""
        replacement, edits = self._rebuild(improved, want_edits=True)
        assert edits is not None
        return replacement, edits

    def _rebuild(self, improved: str, *, want_edits: bool) -> tuple[str, list[TextEdit] | None]:
        if not isinstance(improved, str):
            raise TypeError("the improved text must be a str")
        # Placeholders are still in: protected text is never touched here.
        if _ANY_BREAK.search(improved):
            improved = _ANSWER_BREAK.sub(_answer_break_joiner, improved)
        if self.masked is not None:
            restored, protected = self.masked.restore(improved)
        else:
            restored, protected = improved, ()
        # Whitespace at either end is dropped (never from inside protected text).
        lead = len(restored) - len(restored.lstrip())
        trail = len(restored) - len(restored.rstrip())
        if protected:
            lead = min(lead, protected[0][0])
            trail = min(trail, len(restored) - protected[-1][1])
        result = restored[lead : len(restored) - trail]
        if not result:
            raise ValueError("the service returned no text for a paragraph that has some")
        protected = tuple((s - lead, e - lead) for s, e in protected)
        return lay_out_lines(self.lines, self.gaps, result, protected, want_edits, self.joiners)


def _answer_break_joiner(match: re.Match[str]) -> str:
    """What a line break in the service's answer becomes: a space, or nothing between two
    characters of a script written without spaces."""
    text, start, end = match.string, match.start(), match.end()
    if start > 0 and end < len(text) and tight(text[start - 1]) and tight(text[end]):
        return ""
    return " "


def _clip_protected(segments: Sequence[Span], protected: Sequence[Span]) -> list[Span]:
    """``protected`` spans cut to the parts inside ``segments`` (sorted, non-empty)."""
    result: list[Span] = []
    if not protected:
        return result
    seg_starts = [s for s, _ in segments]
    for ps, pe in sorted(protected):
        k = max(bisect_right(seg_starts, ps) - 1, 0)
        while k < len(segments) and segments[k][0] < pe:
            s, e = segments[k]
            start, end = max(s, ps), min(e, pe)
            if start < end and (not result or start >= result[-1][1]):
                result.append((start, end))
            elif start < end:
                result[-1] = (result[-1][0], max(result[-1][1], end))
            k += 1
    return result


def _has_free_prose(text: str, segments: Sequence[Span], protected: Sequence[Span]) -> bool:
    """Whether some non-space character of ``segments`` lies outside ``protected``."""
    k = 0
    for start, end in segments:
        position = start
        while k < len(protected) and protected[k][1] <= position:
            k += 1
        while position < end:
            if k < len(protected) and protected[k][0] <= position:
                position = max(position, protected[k][1])
                k += 1
                continue
            stop = min(end, protected[k][0]) if k < len(protected) else end
            if text[position:stop].strip():
                return True
            position = stop
    return False


def select_paragraphs(
    text: str, start: int, end: int, blocks: Sequence[ProseBlock]
) -> list[Paragraph]:
    """The paragraphs to improve for the selection ``[start, end)`` of ``text``.

    ``blocks`` must be in document order (by start), as :func:`prose_blocks` returns them.
    An empty selection gives the block whose span contains or touches the offset (or, failing
    that, a block on the offset's line), whole. Otherwise every block the selection overlaps,
    each clipped to the selection. Blocks with no prose to improve are skipped.
    """
    if not 0 <= start <= end <= len(text):
        raise ValueError(f"selection [{start}, {end}) is outside the text (0..{len(text)})")
    # Blocks come in document order (as prose_blocks gives them): bisect, never copy, so a
    # call stays O(log n + blocks selected) on large documents.
    if start == end:
        block = _block_at(text, start, blocks)
        if block is None:
            return []
        paragraph = Paragraph.from_segments(text, block.segments, block.protected)
        return [paragraph] if paragraph is not None else []
    result = []
    first = max(bisect_right(blocks, start, key=_block_start) - 1, 0)
    for n in range(first, len(blocks)):
        block = blocks[n]
        if block.start >= end:
            break
        if block.end <= start:
            continue
        segments = [
            (max(s, start), min(e, end)) for s, e in block.segments if s < end and e > start
        ]
        paragraph = Paragraph.from_segments(text, segments, block.protected)
        if paragraph is not None:
            result.append(paragraph)
    return result


def _block_start(block: ProseBlock) -> int:
    return block.segments[0][0]


def _block_at(text: str, offset: int, blocks: Sequence[ProseBlock]) -> ProseBlock | None:
    k = bisect_right(blocks, offset, key=_block_start) - 1
    # Blocks starting at or before the offset whose span reaches it (nested formats may
    # produce blocks inside blocks, so look back a little).
    for n in range(k, max(k - 8, -1), -1):
        if blocks[n].start <= offset <= blocks[n].end:
            return blocks[n]
    # Otherwise a block with prose on the offset's line (the cursor in a prefix or at the end).
    line_start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
    line_end = len(text)
    for stop in ("\n", "\r"):
        found = text.find(stop, offset)
        if found >= 0:
            line_end = min(line_end, found)
    for n in range(max(k - 8, 0), min(k + 2, len(blocks))):
        block = blocks[n]
        if any(s <= line_end and e >= line_start for s, e in block.segments):
            return block
    return None
