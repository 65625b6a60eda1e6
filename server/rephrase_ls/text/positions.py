"""Offsets (``str`` indices) ↔ LSP positions (line, character) in utf-8, utf-16 or utf-32.

Lines end at ``\\n``, ``\\r\\n`` or ``\\r``. Set-up is O(n); each conversion is O(log n): the
index keeps the line starts and, per encoding (built on first use), the number of code units
before every 64th character, and bisects them; at most one 64-character chunk is counted per
conversion.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from typing import Literal

__all__ = ["ENCODINGS", "Encoding", "LineIndex", "normalize_encoding"]

Encoding = Literal["utf-8", "utf-16", "utf-32"]
ENCODINGS: tuple[Encoding, ...] = ("utf-8", "utf-16", "utf-32")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


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


_CHUNK = 64  # characters between checkpoints


def _width(char: str, encoding: Encoding) -> int:
    code = ord(char)
    if encoding == "utf-16":
        return 2 if code > 0xFFFF else 1
    return 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4


def _units(text: str, encoding: Encoding) -> int:
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


class _Checkpoints:
    """Code units before every ``_CHUNK``-th character, for one encoding.

    Counting is done a chunk at a time by the codec (in C), so set-up is fast even for texts
    full of multi-unit characters, and each lookup counts at most one chunk.
    """

    __slots__ = ("encoding", "text", "units")

    def __init__(self, text: str, encoding: Encoding) -> None:
        self.text = text
        self.encoding = encoding
        units = array("q", [0])
        total = 0
        for start in range(0, len(text), _CHUNK):
            total += _units(text[start : start + _CHUNK], encoding)
            units.append(total)
        self.units = units

    def units_before(self, offset: int) -> int:
        """Code units of ``text[:offset]``."""
        chunk = offset // _CHUNK
        base = chunk * _CHUNK
        return self.units[chunk] + (
            _units(self.text[base:offset], self.encoding) if offset > base else 0
        )

    def offset_at(self, target: int) -> int:
        """The offset where ``target`` units are reached (the start of a character that
        straddles it); ``len(text)`` when the text is shorter."""
        units = self.units
        chunk = bisect_right(units, target) - 1
        offset = chunk * _CHUNK
        used = units[chunk]
        text = self.text
        if chunk + 1 < len(units) and units[chunk + 1] - used == min(_CHUNK, len(text) - offset):
            return offset + (target - used)  # one unit per character in this chunk
        while offset < len(text):
            width = _width(text[offset], self.encoding)
            if used + width > target:
                break
            used += width
            offset += 1
        return offset


class LineIndex:
    """Converts between ``str`` offsets and ``(line, character)`` positions of one text."""

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError("LineIndex needs a str")
        self.text = text
        breaks = [match.span() for match in _LINE_BREAK.finditer(text)]
        starts = [0, *(end for _, end in breaks)]
        ends = [*(start for start, _ in breaks), len(text)]
        self._starts = starts
        self._ends = ends
        self._checkpoints: dict[Encoding, _Checkpoints] = {}

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

    def _table(self, encoding: Encoding) -> _Checkpoints:
        table = self._checkpoints.get(encoding)
        if table is None:
            table = self._checkpoints[encoding] = _Checkpoints(self.text, encoding)
        return table

    def position(self, offset: int, encoding: str = "utf-16") -> tuple[int, int]:
        """``(line, character)`` of ``offset``, ``character`` counted in ``encoding`` units."""
        enc = normalize_encoding(encoding)
        line = self.line_of(offset)
        start = self._starts[line]
        if enc == "utf-32":
            return line, offset - start
        table = self._table(enc)
        return line, table.units_before(offset) - table.units_before(start)

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
        return min(table.offset_at(table.units_before(start) + character), end)
