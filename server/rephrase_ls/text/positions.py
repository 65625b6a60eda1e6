"""Offsets (``str`` indices) ↔ LSP positions (line, character) in utf-8, utf-16 or utf-32.

Lines end at ``\\n``, ``\\r\\n`` or ``\\r``. Set-up is O(n); each conversion is O(log n): the
index keeps, per encoding, the offsets of the characters that take more than one code unit and
a running total of their extra units, and bisects them.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import Literal

__all__ = ["ENCODINGS", "Encoding", "LineIndex", "normalize_encoding"]

Encoding = Literal["utf-8", "utf-16", "utf-32"]
ENCODINGS: tuple[Encoding, ...] = ("utf-8", "utf-16", "utf-32")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
_ASTRAL = re.compile(r"[\U00010000-\U0010ffff]")


def normalize_encoding(encoding: str) -> Encoding:
    """``"UTF-16"``, ``"utf16"``, a ``PositionEncodingKind``... → ``"utf-16"``; else ValueError."""
    value = getattr(encoding, "value", encoding)
    if not isinstance(value, str):
        raise ValueError(f"unknown position encoding: {encoding!r}")
    key = value.strip().lower().replace("_", "-")
    if key in ("utf8", "utf16", "utf32"):
        key = key[:3] + "-" + key[3:]
    for known in ENCODINGS:
        if key == known:
            return known
    raise ValueError(f"unknown position encoding: {encoding!r} (use utf-8, utf-16 or utf-32)")


class _Wide:
    """Sorted offsets of multi-unit characters and ``key[k] = offset[k] + extra units before k``."""

    __slots__ = ("cumulative", "keys", "offsets")

    def __init__(self, text: str, encoding: Encoding) -> None:
        offsets: list[int] = []
        cumulative = [0]
        total = 0
        if encoding == "utf-16":
            for match in _ASTRAL.finditer(text):
                offsets.append(match.start())
                total += 1
                cumulative.append(total)
        else:  # utf-8
            for match in _NON_ASCII.finditer(text):
                code = ord(match.group())
                offsets.append(match.start())
                total += 1 if code < 0x800 else 2 if code < 0x10000 else 3
                cumulative.append(total)
        self.offsets = offsets
        self.cumulative = cumulative
        self.keys = [offset + cumulative[k] for k, offset in enumerate(offsets)]

    def extra_before(self, offset: int) -> int:
        """Extra code units of the characters before ``offset``."""
        return self.cumulative[bisect_left(self.offsets, offset)]


class LineIndex:
    """Converts between ``str`` offsets and ``(line, character)`` positions of one text."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError("LineIndex needs a str")
        self.text = text
        starts = [0]
        ends = []
        for match in _LINE_BREAK.finditer(text):
            ends.append(match.start())
            starts.append(match.end())
        ends.append(len(text))
        self._starts = starts
        self._ends = ends
        self._wide: dict[Encoding, _Wide] = {}

    @property
    def line_count(self) -> int:
        """Number of lines (a text ending in a line break has an empty last line)."""
        return len(self._starts)

    def line_start(self, line: int) -> int:
        """Offset of the first character of ``line``."""
        return self._starts[self._check_line(line)]

    def line_end(self, line: int) -> int:
        """Offset of the end of ``line``'s content (before its line break)."""
        return self._ends[self._check_line(line)]

    def line_of(self, offset: int) -> int:
        """The line that contains ``offset`` (a line break belongs to the line it ends)."""
        self._check_offset(offset)
        return bisect_right(self._starts, offset) - 1

    def _check_line(self, line: int) -> int:
        if not isinstance(line, int) or not 0 <= line < len(self._starts):
            raise ValueError(f"line {line!r} is outside the text (0..{len(self._starts) - 1})")
        return line

    def _check_offset(self, offset: int) -> None:
        if not isinstance(offset, int) or not 0 <= offset <= len(self.text):
            raise ValueError(f"offset {offset!r} is outside the text (0..{len(self.text)})")

    def _table(self, encoding: Encoding) -> _Wide:
        table = self._wide.get(encoding)
        if table is None:
            table = self._wide[encoding] = _Wide(self.text, encoding)
        return table

    def position(self, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
        """``(line, character)`` of ``offset``, ``character`` counted in ``encoding`` units."""
        enc = normalize_encoding(encoding)
        line = self.line_of(offset)
        start = self._starts[line]
        if enc == "utf-32":
            return line, offset - start
        table = self._table(enc)
        return line, offset - start + table.extra_before(offset) - table.extra_before(start)

    def offset(self, line: int, character: int, encoding: str = "utf-16") -> int:
        """The offset of an LSP position.

        As LSP says, a line past the end means the end of the text and a character past the end
        of the line means the end of the line. A character inside a multi-unit character gives
        the start of that character. Negative values are an error.
        """
        enc = normalize_encoding(encoding)
        if not isinstance(line, int) or not isinstance(character, int):
            raise ValueError("line and character must be integers")
        if line < 0 or character < 0:
            raise ValueError(f"negative position ({line}, {character})")
        if line >= len(self._starts):
            return len(self.text)
        start = self._starts[line]
        end = self._ends[line]
        if enc == "utf-32":
            return min(start + character, end)
        table = self._table(enc)
        first = bisect_left(table.offsets, start)
        last = bisect_left(table.offsets, end)
        base = table.cumulative[first]
        # Wide characters of this line that start before the target: units before the k-th
        # is keys[k] - start - base, which grows with k.
        k = bisect_left(table.keys, start + base + character, first, last)
        if k > first:
            previous = k - 1
            units_before = table.keys[previous] - start - base
            width = table.cumulative[previous + 1] - table.cumulative[previous] + 1
            if units_before + width > character:
                return table.offsets[previous]  # inside a multi-unit character
        offset = start + character - (table.cumulative[k] - base)
        return min(offset, end)
