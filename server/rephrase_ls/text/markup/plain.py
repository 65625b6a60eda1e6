"""Plain text: blank-line separated paragraphs, list items and quotes.

On each line the leading indentation and any quote / list prefix (``> ``, ``> > ``, ``- ``,
``* ``, ``+ ``, ``1. ``, ``1) ``) stay outside the prose segment, as does trailing whitespace.
A block ends at a blank line (also a quote line with nothing after ``>``); a list item and a
change of quote depth start a new block. URLs and e-mail addresses are protected.
"""

from __future__ import annotations

import re

from rephrase_ls.text.markup import ProseBlock, register_format

__all__ = ["plain_blocks"]

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Matched at a line start with endpos at the line end, so "$" is the end of the line.
_PREFIX = re.compile(
    r"[ \t]*(?P<quote>(?:>[ \t]*)*)(?P<list>(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)[ \t]*)?"
)
_PROTECTED = re.compile(
    r"(?:https?|ftp)://[^\s<>\"'`]+[^\s<>\"'`.,;:!?)\]}]"
    r"|www\.[^\s<>\"'`]+[^\s<>\"'`.,;:!?)\]}]"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+",
)


def _line_spans(text: str) -> list[tuple[int, int]]:
    """``[start, end)`` of every line's content (without its line break)."""
    spans = []
    start = 0
    for match in _LINE_BREAK.finditer(text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    return spans


def plain_blocks(text: str) -> list[ProseBlock]:
    """The paragraphs of plain text, as prose blocks."""
    blocks: list[ProseBlock] = []
    segments: list[tuple[int, int]] = []
    depth = -1

    def flush() -> None:
        if segments:
            protected = tuple(
                (m.start(), m.end())
                for start, end in segments
                for m in _PROTECTED.finditer(text, start, end)
            )
            blocks.append(ProseBlock(tuple(segments), protected))
            segments.clear()

    for line_start, line_end in _line_spans(text):
        match = _PREFIX.match(text, line_start, line_end)
        assert match is not None  # every part of the pattern is optional
        content_start = match.end()
        content_end = line_end
        while content_end > content_start and text[content_end - 1].isspace():
            content_end -= 1
        if content_end == content_start:
            flush()
            depth = -1
            continue
        line_depth = match.group("quote").count(">")
        if match.group("list") is not None or line_depth != depth:
            flush()
        depth = line_depth
        segments.append((content_start, content_end))
    flush()
    return blocks


register_format("plaintext", plain_blocks, extensions=(".txt", ".text"))
