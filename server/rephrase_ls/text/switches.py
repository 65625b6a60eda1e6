"""In-document switches: ``rephrase: off`` … ``rephrase: on`` around a region, and
``rephrase: ignore-next-line`` before a line, written in a comment of the document's own syntax
(``<!-- rephrase: off -->``, ``% rephrase: off``, ``# rephrase: off``, ``.. rephrase: off``,
``// rephrase: off`` …), each on a line of its own, as ``rephrase: language=de`` is.

:func:`switched_off` gives the spans of a document that the switches take out; the improve
wing drops the prose inside them (:func:`rephrase_ls.improve.round_trip.without_directives`),
so diagnostics, **Improve**, **Correct**, alternatives, fix-all and the command line all leave
them alone. A region switched off and never switched on again runs to the end of the document.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

__all__ = ["SWITCH_WORDS", "comment_line", "overlaps", "switched_off"]

#: The switches, as written after ``rephrase:``.
SWITCH_WORDS = ("off", "on", "ignore-next-line")

# A comment leader of any common syntax at a line start (as the language directive's):
# <!-- -->, %, #, //, /* */, *, --, ;, "..", (* *), {- -}, REM; then the switch, then the
# comment's closer or the line's end.
_SWITCH = re.compile(
    r"^[ \t]*(?:<!--|%+|#+|//+|\{/\*+|/\*+|\*+|--|;+|\.\.|\(\*|\{-|[Rr][Ee][Mm]\b)"
    r"[ \t]*rephrase[ \t]*:[ \t]*(?P<switch>off|on|ignore-next-line)"
    r"[ \t]*(?:-->|\*/\}|\*/|\*\)|-\})?[ \t]*(?:\r\n|\r|\n|\Z)",
    re.MULTILINE,
)
_LINE_END = re.compile(r"\r\n|\r|\n")
# A code fence's opening or closing line (Markdown's, which plain text borrows): what a fence
# shows is an example, not a switch (documentation of rephrase-ls writes them there).
_FENCE = re.compile(r"^[ ]{0,3}(?P<mark>`{3,}|~{3,})[^\r\n]*$", re.MULTILINE)


def _fences(text: str) -> list[tuple[int, int]]:
    """The spans of the fenced code blocks of ``text`` (a fence left open runs to the end)."""
    spans: list[tuple[int, int]] = []
    opened: tuple[int, str] | None = None
    for match in _FENCE.finditer(text):
        mark = match.group("mark")
        if opened is None:
            opened = (match.start(), mark)
        elif mark[0] == opened[1][0] and len(mark) >= len(opened[1]) and (
            match.group(0).strip() == mark
        ):
            spans.append((opened[0], match.end()))
            opened = None
    if opened is not None:
        spans.append((opened[0], len(text)))
    return spans


def _line_end(text: str, start: int) -> int:
    """The offset just after the line that starts at ``start`` (its terminator included)."""
    found = _LINE_END.search(text, start)
    return len(text) if found is None else found.end()


def switched_off(text: str) -> list[tuple[int, int]]:
    """The sorted, disjoint spans of ``text`` the switches take out: each switch line itself, a
    region from ``rephrase: off`` to the end of the next ``rephrase: on`` line (or the end of
    the document), and the line after ``rephrase: ignore-next-line``. A switch inside a fenced
    code block is an example, not a switch."""
    if "rephrase" not in text:
        return []
    fences = _fences(text) if "```" in text or "~~~" in text else []
    spans: list[tuple[int, int]] = []
    off_at: int | None = None
    for match in _SWITCH.finditer(text):
        if fences and overlaps(fences, match.start(), match.end()):
            continue
        switch = match.group("switch")
        line_start, line_end = match.start(), match.end()
        if off_at is not None:
            if switch == "on":
                spans.append((off_at, line_end))
                off_at = None
            continue  # inside a region switched off, only "on" counts
        if switch == "off":
            off_at = line_start
        elif switch == "on":
            spans.append((line_start, line_end))
        else:
            spans.append((line_start, _line_end(text, line_end) if line_end < len(text)
                          else line_end))
    if off_at is not None:
        spans.append((off_at, len(text)))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def overlaps(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``[start, end)`` meets one of the sorted, disjoint ``spans``."""
    before = bisect_left(spans, (end,))  # the spans that start before ``end``
    return before > 0 and spans[before - 1][1] > start


#: The comment syntax a quick fix writes a switch in, per languageId (the format of the
#: document); a format not listed gets ``#``.
_COMMENTS: dict[str, tuple[str, str]] = {
    "markdown": ("<!-- ", " -->"),
    "mdx": ("{/* ", " */}"),
    "html": ("<!-- ", " -->"),
    "latex": ("% ", ""),
    "tex": ("% ", ""),
    "restructuredtext": (".. ", ""),
    "asciidoc": ("// ", ""),
    "org": ("# ", ""),
    "typst": ("// ", ""),
    "javascript": ("// ", ""),
    "typescript": ("// ", ""),
    "c": ("// ", ""),
    "cpp": ("// ", ""),
    "java": ("// ", ""),
    "go": ("// ", ""),
    "rust": ("// ", ""),
    "lua": ("-- ", ""),
    "sql": ("-- ", ""),
    "haskell": ("-- ", ""),
}


def comment_line(language_id: str, switch: str, indent: str = "", newline: str = "\n") -> str:
    """A line holding the switch ``switch`` in the comment syntax of ``language_id``."""
    if switch not in SWITCH_WORDS:
        raise ValueError(f"unknown switch {switch!r}")
    opener, closer = _COMMENTS.get(language_id, ("# ", ""))
    return f"{indent}{opener}rephrase: {switch}{closer}{newline}"
