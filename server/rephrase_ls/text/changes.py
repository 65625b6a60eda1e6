"""Following a text through the changes an editor makes to it.

A :class:`ChangeLog` starts from one version of a text and records each content change the
editor sends (a range in LSP positions and the text that replaces it) as offsets, replaying it
on its own copy of the text. A span of the starting version can then be followed into the
current text (:meth:`ChangeLog.follow`): it moves with the changes before it and is lost when
a change overlaps or touches it. A change without a range (the whole text replaced), a position
the log cannot read, or a replay that does not give the editor's text makes the log ``broken``:
nothing can be followed through it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from rephrase_ls.text.positions import LineIndex

__all__ = ["Change", "ChangeLog", "offset_of"]

#: An LSP range as ``(start line, start character, end line, end character)``.
RangeTuple = tuple[int, int, int, int]


def offset_of(text: str, line: int, character: int, encoding: str) -> int:
    """The offset of an LSP position in ``text``, as :meth:`LineIndex.offset` gives it, counting
    only the lines up to ``line`` and converting only that line: a keystroke's position in a
    large document costs a scan to it, not an index of the whole text."""
    if not isinstance(line, int) or not isinstance(character, int) or line < 0 or character < 0:
        raise ValueError(f"not a position ({line!r}, {character!r})")
    # The next "\r" and the next "\n" at or after ``start`` (-1: none), each found with
    # str.find: a line break is "\r\n", "\r" or "\n".
    start = 0
    cr, lf = text.find("\r"), text.find("\n")
    for _ in range(line):
        if cr < 0 and lf < 0:
            return len(text)  # a line past the end: the end of the text
        at = cr if cr >= 0 and (lf < 0 or cr < lf) else lf  # the first break
        start = at + 2 if at == cr and lf == cr + 1 else at + 1
        if 0 <= cr < start:
            cr = text.find("\r", start)
        if 0 <= lf < start:
            lf = text.find("\n", start)
    end = min((at for at in (cr, lf) if at >= 0), default=len(text))
    return start + LineIndex(text[start:end]).offset(0, character, encoding)


@dataclass(frozen=True)
class Change:
    """``text[start:end]`` replaced with ``length`` characters (offsets into the text as it
    was just before this change)."""

    start: int
    end: int
    length: int


class ChangeLog:
    """The changes made to a text since ``version``, in order."""

    def __init__(self, text: str, version: int | None) -> None:
        self.base_text = text
        """The text the log starts from."""
        self.version = version
        """The version of the last change recorded."""
        self.text = text
        """The text after the changes recorded (the replay)."""
        self.changes: list[Change] = []
        self.broken: str | None = None
        """Why spans can no longer be followed (None while they can)."""

    def record(
        self,
        version: int | None,
        changes: Iterable[tuple[RangeTuple | None, str]],
        encoding: str,
        result: str,
    ) -> None:
        """One notification's changes (each range in the text as the previous one left it;
        ``None``: the whole text replaced), and the text the editor says they give."""
        self.version = version
        if self.broken is not None:
            return
        text = self.text
        for rng, new_text in changes:
            if rng is None:
                self.broken = "the whole text was replaced"
                return
            try:
                start = offset_of(text, rng[0], rng[1], encoding)
                end = offset_of(text, rng[2], rng[3], encoding)
            except ValueError as exc:
                self.broken = f"a change could not be read ({exc})"
                return
            if end < start:
                start, end = end, start
            self.changes.append(Change(start, end, len(new_text)))
            text = text[:start] + new_text + text[end:]
        if text != result:
            self.broken = "the changes replayed do not give the editor's text"
            return
        self.text = result  # the editor's string (equal): one copy of the text, not two

    def follow(self, start: int, end: int) -> tuple[int, int] | None:
        """Where ``[start, end]`` of the starting text is in the current one; None when a
        change overlapped or touched it (or the log is broken)."""
        if self.broken is not None:
            return None
        for change in self.changes:
            if change.start <= end and change.end >= start:
                return None
            if change.end < start:
                delta = change.length - (change.end - change.start)
                start += delta
                end += delta
        return start, end

    def point(self, offset: int) -> int:
        """Where ``offset`` of the starting text is in the current one: moved by the changes
        before it; inside a change, the end of what replaced it (an insertion right at it
        goes before it)."""
        for change in self.changes:
            if change.end <= offset:
                offset += change.length - (change.end - change.start)
            elif change.start < offset:
                offset = change.start + change.length
        return offset
