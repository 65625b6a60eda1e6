"""Helpers every markup extractor shares: the lines of a document, trimming, and building a
:class:`ProseBlock` from per-line segments and protected spans."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from rephrase_ls.text.markup.block import ProseBlock

__all__ = ["SPACE", "Lines", "build_block", "make_block", "require_text", "trim"]

_NEWLINE = re.compile(r"\r\n|\r|\n")
SPACE = " \t"


class Lines:
    """Start offset and content end (before the line break) of every line, computed once."""

    __slots__ = ("ends", "starts", "text")

    def __init__(self, text: str) -> None:
        require_text(text)
        self.text = text
        starts = [0]
        ends = []
        for m in _NEWLINE.finditer(text):
            ends.append(m.start())
            starts.append(m.end())
        ends.append(len(text))
        self.starts: list[int] = starts
        self.ends: list[int] = ends

    @classmethod
    def spans(cls, text: str, starts: list[int], ends: list[int]) -> Lines:
        """Some lines of ``text`` given by their ``[start, end)`` (a region of a document, such
        as a docstring's body, read line by line with document offsets)."""
        lines = object.__new__(cls)
        lines.text, lines.starts, lines.ends = text, starts, ends
        return lines

    def __len__(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """Index of the line holding ``offset`` (a line break belongs to the line it ends)."""
        return bisect_right(self.starts, offset) - 1


def require_text(text: object) -> None:
    """Raise a clear ``TypeError`` unless ``text`` is a ``str`` (a document, not bytes)."""
    if not isinstance(text, str):
        raise TypeError(f"a document must be a str, not {type(text).__name__}")


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` past spaces and tabs at both ends."""
    while start < end and text[start] in SPACE:
        start += 1
    while end > start and text[end - 1] in SPACE:
        end -= 1
    return start, end


def make_block(
    text: str,
    segments: Iterable[tuple[int, int]],
    protected: Iterable[tuple[int, int]] = (),
) -> ProseBlock | None:
    """Build a block from per-line segments and protected spans, or ``None`` if it has no prose.

    Segments are trimmed and empty ones dropped; protected spans are clipped to the segments
    (a span crossing a line break becomes one span per line), sorted and merged when they touch.
    A block whose segments hold no word character outside protected spans is not prose.
    """
    segs: list[tuple[int, int]] = []
    for s, e in segments:
        s, e = trim(text, s, e)
        if s < e:
            segs.append((s, e))
    if not segs:
        return None
    return build_block(text, segs, sorted(p for p in protected if p[0] < p[1]))


def build_block(
    text: str,
    segs: Sequence[tuple[int, int]],
    protected: Iterable[tuple[int, int]],
    shift: int = 0,
) -> ProseBlock | None:
    """:func:`make_block` for segments already trimmed, in order and not empty, and protected
    spans sorted by start, each moved by ``shift`` first (spans found in a joined string)."""
    clipped = _clip(segs, protected, shift)
    if not _has_prose(text, segs, clipped):
        return None
    return ProseBlock(segments=tuple(segs), protected=tuple(clipped))


def _clip(
    segs: Sequence[tuple[int, int]], spans: Iterable[tuple[int, int]], shift: int
) -> list[tuple[int, int]]:
    """Sorted spans moved by ``shift`` and clipped to the segments (one piece per segment
    crossed), merged where they overlap or touch."""
    clipped: list[tuple[int, int]] = []
    last_end = -1  # the end of the last clipped span (spans and segments start at 0 or later)
    n = len(segs)
    i = 0
    seg_start, seg_end = segs[0]
    for s, e in spans:
        s += shift
        e += shift
        while seg_end <= s:
            i += 1
            if i == n:
                return clipped
            seg_start, seg_end = segs[i]
        if seg_start <= s and e <= seg_end:  # inside one segment
            if s > last_end:
                clipped.append((s, e))
                last_end = e
            elif e > last_end:
                clipped[-1] = (clipped[-1][0], e)
                last_end = e
            continue
        j = i
        while j < n and segs[j][0] < e:
            cs, ce = max(s, segs[j][0]), min(e, segs[j][1])
            if cs < ce:
                if cs > last_end:
                    clipped.append((cs, ce))
                    last_end = ce
                elif ce > last_end:
                    clipped[-1] = (clipped[-1][0], ce)
                    last_end = ce
            j += 1
    return clipped


_WORDISH = re.compile(r"[^\W_]")


def _has_prose(
    text: str, segs: Sequence[tuple[int, int]], protected: Sequence[tuple[int, int]]
) -> bool:
    """Whether a letter or digit of the segments lies outside ``protected`` (sorted, disjoint)."""
    k = 0
    n = len(protected)
    for s, e in segs:
        pos = s
        while pos < e:
            m = _WORDISH.search(text, pos, e)
            if m is None:
                break
            found = m.start()
            while k < n and protected[k][1] <= found:
                k += 1
            if k == n or protected[k][0] > found:
                return True
            pos = protected[k][1]  # the letter is protected: go on after its span
    return False
