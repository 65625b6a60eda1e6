"""A paragraph that goes on a sentence the prose before it left open keeps its lower-case start.

The service improves each paragraph alone, so it capitalises the first word of one that goes on
an open sentence (``dass:`` before a list, a sentence broken by a code block).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rephrase_ls.text.markup import ProseBlock
    from rephrase_ls.text.paragraphs import Paragraph

#: What ends a sentence (before closing quotes, brackets and emphasis markers).
_SENTENCE_END = frozenset(".!?…。！？‼⁇⁈⁉")
_CLOSERS = "\"'’”»›)]}*_`~ \t\r\n"


def prose_ends(blocks: Sequence[ProseBlock | Paragraph]) -> tuple[list[int], list[int]]:
    """The starts and ends of the blocks, sorted by start (for :func:`continues_sentence`)."""
    spans = sorted((block.start, block.end) for block in blocks)
    return [s for s, _ in spans], [e for _, e in spans]


def continues_sentence(text: str, start: int, ends: tuple[list[int], list[int]]) -> bool:
    """Whether the prose at ``start`` goes on a sentence the prose before it left open.

    The prose before is that of the last block starting before ``start`` (up to ``start`` when
    the block holds it): whatever lies between — a list marker, a code block, a quote marker —
    is not prose and neither ends nor opens a sentence. It is open when it does not end with a
    full stop, a question or exclamation mark or an ellipsis (closing quotes, brackets and
    emphasis markers after them aside): it ends with a colon (``dass:`` before a list), a comma,
    a word… At the start of the document (no prose before) and after a title (a Markdown,
    setext, reStructuredText or LaTeX heading) a sentence starts.
    """
    starts, block_ends = ends
    k = bisect_left(starts, start) - 1
    if k < 0:
        return False
    end = min(block_ends[k], start)
    before = text[max(starts[k], end - 200) : end].rstrip(_CLOSERS)
    if not before or before[-1] in _SENTENCE_END:
        return False
    return end < block_ends[k] or not _is_heading(text, starts[k], block_ends[k])


def keeps_lower_start(text: str, start: int, ends: tuple[list[int], list[int]]) -> bool:
    """Whether the prose at ``start`` keeps a lower-case first letter: it goes on an open
    sentence (:func:`continues_sentence`), or it is set apart from the running prose, where a
    lower-case start is the writer's style, not a slip (when in doubt, leave it):

    * something other than white space, a list marker and a quote marker comes before it on
      its line: a heading's marks (``#### pages``: often a name), a comment leader (``# seek to
      end``, ``#: a reference``), a field's name (``:param value: a string``), a table cell's
      bar, a command (``\\item[Topic] is dull``). List items and quotes hold running prose:
      after a full stop, their first letter is capitalised as the answer says, unless the item
      next to it in its list (same marker column) starts in lower case too: the list's style
      (``- the command line now …`` ⏎ ``- a new flag …``);
    * it starts with an area label (:data:`AREA_LABEL`: ``docs: fix …``, ``build(deps): bump …``,
      a commit message's or a changelog's convention);
    * it is a title (a setext or reStructuredText underline follows it), or the term of a
      definition list (one line, the next line indented deeper: reStructuredText's
      ``open source`` ⏎ ``    Software whose…``, where the term's lower case is its point);
    * it is indented deeper than the prose before it (a block quote: in a docstring or a plain
      text file, usually an example: ``    git checkout master``, ``    from flask import g``).
    """
    if continues_sentence(text, start, ends) or AREA_LABEL.match(text, start) is not None:
        return True
    line_start = text.rfind("\n", 0, start) + 1
    lead = text[line_start:start]
    if lead.strip():
        # a list item's or a quote's prose is running prose; any other mark sets it apart
        marks = _LIST_OR_QUOTE.fullmatch(lead)
        return marks is None or (marks["item"] is not None and _lower_list(text, start, ends))
    starts, block_ends = ends
    k = bisect_left(starts, start)
    if k < len(starts) and starts[k] == start and (
        _is_heading(text, start, block_ends[k]) or _is_term(text, start, block_ends[k])
    ):
        return True
    if k == 0:
        return False
    before = starts[k - 1]
    before_line = text.rfind("\n", 0, before) + 1
    return _column(lead) > _column(text[before_line:before])


#: A lower-case word (an area, a type) and an optional ``(scope)`` or ``!`` before a colon
#: and a lower-case word: ``docs: fix a link``, ``build(deps): bump``, ``net: avoid …``.
AREA_LABEL = re.compile(r"[a-z][a-z0-9_/.-]{0,30}(?:\([^()\s]{1,40}\))?!?: [a-z]")


# What may come before running prose on its line: indentation, quote markers, a list marker.
_LIST_OR_QUOTE = re.compile(r"[ \t]*(?:>[ \t]*)*(?P<item>(?:[-*+]|\d{1,9}[.)])[ \t]+)?")


def _lower_list(text: str, start: int, ends: tuple[list[int], list[int]]) -> bool:
    """Whether the list item whose prose starts at ``start`` has a neighbour in its list (the
    block just before or after it, a list item whose prose starts at the same column) that
    starts in lower case too."""
    starts, _block_ends = ends
    k = bisect_left(starts, start)
    column = start - (text.rfind("\n", 0, start) + 1)
    for j in (k - 1, k + 1) if k < len(starts) and starts[k] == start else (k - 1, k):
        if not 0 <= j < len(starts) or starts[j] == start:
            continue
        other = starts[j]
        line_start = text.rfind("\n", 0, other) + 1
        marks = _LIST_OR_QUOTE.fullmatch(text, line_start, other)
        if (
            marks is not None
            and marks["item"] is not None
            and other - line_start == column
            and text[other : other + 1].islower()
        ):
            return True
    return False


def _column(lead: str) -> int:
    """The column after ``lead`` (a tab goes to the next multiple of 4, as Markdown counts)."""
    column = 0
    for char in lead:
        column = column + 4 - column % 4 if char == "\t" else column + 1
    return column


# A heading's line: `## Title` (also in a quote), a LaTeX sectioning command; the line under a
# setext or reStructuredText title.
_HEADING_LINE = re.compile(r"[ \t]*(?:>[ \t]*)*#{1,6}[ \t]")
_LATEX_HEADING = re.compile(
    r"\\(?:part|chapter|(?:sub)*section|(?:sub)?paragraph|caption|title|frametitle)\*?"
    r"(?:\[[^\]\n]*\])?\{$"
)
_UNDERLINE = re.compile(r"([=\-~^\"'`*+#:.])\1{2,}[ \t]*$")


def _is_term(text: str, start: int, end: int) -> bool:
    """Whether the block ``[start, end)`` is one line followed right away by a line indented
    deeper (the term of a definition list)."""
    if "\n" in text[start:end]:
        return False
    line_start = text.rfind("\n", 0, start) + 1
    next_line = text.find("\n", end)
    if next_line < 0:
        return False
    following_end = text.find("\n", next_line + 1)
    following = text[next_line + 1 : len(text) if following_end < 0 else following_end]
    if not following.strip():
        return False
    lead = len(following) - len(following.lstrip(" \t"))
    return _column(following[:lead]) > _column(text[line_start:start])


def _is_heading(text: str, start: int, end: int) -> bool:
    """Whether the block ``[start, end)`` is a title (it ends no sentence, and opens none)."""
    line_start = text.rfind("\n", 0, start) + 1
    if _HEADING_LINE.match(text, line_start, start) is not None:
        return True
    if _LATEX_HEADING.search(text[max(line_start, start - 40) : start]) is not None:
        return True
    next_line = text.find("\n", end)
    if next_line < 0:
        return False
    following_end = text.find("\n", next_line + 1)
    following = text[next_line + 1 : len(text) if following_end < 0 else following_end]
    return _UNDERLINE.match(following.rstrip("\r")) is not None


def keep_open_sentence(original: str, replacement: str) -> str:
    """``replacement`` with the first letter of ``original`` as it was when the only change to
    it is a capital (``or build …`` → ``Or build …``): a paragraph that goes on an open sentence
    starts in lower case. Any other change (a rewritten or corrected first word) is kept."""
    i = next((k for k, c in enumerate(original) if c.isalpha()), -1)
    if i < 0:
        return replacement
    char = original[i]
    j = i + 1  # the end of the first word
    while j < len(original) and original[j].isalnum():
        j += 1
    if (
        char.islower()
        and len(replacement) > i
        and replacement[:i] == original[:i]
        and replacement[i] != char
        and replacement[i].lower() == char
        # the rest of the word as it was: a word whose casing was corrected inside too
        # (github → GitHub) is a correction, not a capital
        and replacement[i + 1 : j] == original[i + 1 : j]
        and not replacement[j : j + 1].isalnum()
    ):
        return replacement[:i] + char + replacement[i + 1 :]
    return replacement
