"""Change groups: a paragraph's word edits cut into the changes a writer takes or leaves one by one.

The input is what the improvement pipeline already computes for a paragraph: its original text
and the minimal word edits (offsets relative to the paragraph, from
:meth:`~rephrase_ls.text.paragraphs.Paragraph.rebuild_with_edits`) that turn it into the
improved text. An edit the diff gives for neighbouring changed words (``recieved teh`` →
``received the``: the space between them is not matched) is cut into one edit per word when
both sides have the same spaces. Each edit is then widened to whole words, and edits whose
widened ranges overlap or touch form one group. The widening:

* an edit that starts or ends inside a word (``e-mial`` → ``e-mail`` edits ``mial`` only) takes
  in the rest of the word;
* a deleted whole word takes in the word it repeats, on either side, also across a line break
  (``the the`` → ``the``), failing that the word before it (after it, at a line's start);
* any other edit whose original or new text starts (ends) with a space or a punctuation mark,
  or is empty (an inserted space, ``!!`` removed from ``!!!``), takes in the run of non-space
  characters before (after) it, so that the range covers words: ``a,b`` → ``a, b``,
  ``wow!!!`` → ``wow!``.

Widening never crosses the edge of a line's prose (the text between two lines' prose, such as
a quote's ``>``, is not the writer's words; only a doubled word's twin is looked for on the
line next to it) nor enters protected text (inline code, a link's
address...): a group never covers protected text. An edit that would replace protected text
is split around it when the text comes back exactly once in its new text, and dropped
otherwise (the engine never changes protected text, so this does not happen in practice).

Each group is classified from the change itself by :mod:`.codes`.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from rephrase_ls.text.diff import TextEdit

__all__ = ["Change", "change_groups"]

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Change:
    """One change group: replace ``original`` at ``[start, end)`` (offsets relative to the
    paragraph's text) with ``replacement``.

    ``said`` and ``says``: ``original`` and ``replacement`` as prose, each line break with the
    verbatim text around it (a quote's ``>``, a comment's ``//``) read as one space; for
    classifying and describing the change.
    """

    start: int
    end: int
    original: str
    replacement: str
    said: str
    says: str


def _is_word_char(char: str) -> bool:
    """Whether ``char`` belongs to a word: a letter, digit, mark, apostrophe, hyphen or ``_``."""
    return char.isalnum() or char in "'’-_" or unicodedata.category(char)[0] == "M"


def _segment_at(segments: Sequence[Span], position: int) -> int:
    """Index of the segment holding the character at ``position``, or -1 (a gap)."""
    k = bisect_right(segments, (position, sys.maxsize)) - 1
    if k >= 0 and segments[k][0] <= position < segments[k][1]:
        return k
    return -1


class _Protected:
    """The sorted spans of protected text of a paragraph, indexed so that finding those near an
    offset costs a binary search, not a pass over all of them (a paragraph with thousands of
    inline code spans and as many edits)."""

    def __init__(self, spans: Sequence[Span]) -> None:
        self.spans = list(spans)
        self.starts = [p_start for p_start, _ in self.spans]
        # reach[k]: the furthest end among spans[:k + 1] (the spans may nest or overlap)
        self.reach: list[int] = []
        furthest = -1
        for _, p_end in self.spans:
            furthest = max(furthest, p_end)
            self.reach.append(furthest)

    def near(self, low: int, high: int) -> list[Span]:
        """The spans that start before ``high`` and end after ``low`` (in order)."""
        first = bisect_right(self.reach, low)
        last = bisect_left(self.starts, high)
        return [span for span in self.spans[first:last] if span[1] > low]

    def left_limit(self, start: int) -> int | None:
        """The end of the last span that ends at or before ``start``, or None when there is
        none; ``start`` itself when a span holds ``start`` (starts before it, ends after)."""
        k = bisect_left(self.starts, start)  # spans[:k] start before ``start``
        if k == 0:
            return None
        if self.reach[k - 1] > start:
            return start
        return self.reach[k - 1]

    def right_limit(self, end: int) -> int | None:
        """The start of the first span that starts at or after ``end``, or None when there is
        none; ``end`` itself when a span holds ``end`` (starts before it, ends after)."""
        k = bisect_left(self.starts, end)
        if k > 0 and self.reach[k - 1] > end:
            return end
        return self.starts[k] if k < len(self.starts) else None


def _left_limit(segments: Sequence[Span], protected: _Protected, start: int) -> int:
    """How far left of ``start`` a group may widen: the start of the prose on its line, or the
    end of the protected text before it, whichever is nearer."""
    k = _segment_at(segments, start - 1)
    if k < 0:
        return start
    limit = segments[k][0]
    before = protected.left_limit(start)
    return limit if before is None else max(limit, before)


def _right_limit(segments: Sequence[Span], protected: _Protected, end: int) -> int:
    """How far right of ``end`` a group may widen (see :func:`_left_limit`)."""
    k = _segment_at(segments, end)
    if k < 0:
        return end
    limit = segments[k][1]
    after = protected.right_limit(end)
    return limit if after is None else min(limit, after)


#: The furthest a finding widens on either side to reach a word's edge: a run this long
#: without a space is no word (a hostile ``:a::a::a:…`` would otherwise cost a scan of the
#: whole run for each of its thousands of changes).
MAX_WIDEN = 100
# A run of non-space characters (possibly empty: it always matches).
_NON_SPACE = re.compile(r"\S*")


def _widen(text: str, edit: TextEdit, segments: Sequence[Span], protected: _Protected) -> Span:
    """The range of ``edit`` widened to whole words (see the module's description), at most
    :data:`MAX_WIDEN` characters on each side."""
    start, end, new = edit.start, edit.end, edit.new_text
    old = text[start:end]
    low = max(_left_limit(segments, protected, start), start - MAX_WIDEN)
    if not old or not new or not _is_word_char(old[0]) or not _is_word_char(new[0]):
        start -= _NON_SPACE.match(text[low:start][::-1]).end()  # type: ignore[union-attr]
    else:
        while start > low and _is_word_char(text[start - 1]):
            start -= 1
    high = min(_right_limit(segments, protected, end), end + MAX_WIDEN)
    if not old or not new or not _is_word_char(old[-1]) or not _is_word_char(new[-1]):
        end = _NON_SPACE.match(text, end, max(end, high)).end()  # type: ignore[union-attr]
    else:
        while end < high and _is_word_char(text[end]):
            end += 1
    return start, end


def _moved(text: str, start: int, end: int, low: int, high: int, left: bool) -> Span | None:
    """The same deletion with its whitespace on the other side (``the `` ↔ `` the``), moved
    left (or right) by that whitespace, or None when it cannot be (no whitespace at that end,
    or not the same whitespace on the other side, or beyond ``low``/``high``)."""
    old = text[start:end]
    if left:
        trailing = len(old) - len(old.rstrip())
        if (
            trailing
            and start - trailing >= low
            and text[start - trailing : start] == old[-trailing:]
        ):
            return start - trailing, end - trailing
        return None
    leading = len(old) - len(old.lstrip())
    if leading and end + leading <= high and text[end : end + leading] == old[:leading]:
        return start + leading, end + leading
    return None


def _word_before(text: str, position: int, low: int) -> Span:
    """The run of non-space characters ending at ``position`` (empty when there is none), at
    most :data:`MAX_WIDEN` long."""
    start = position
    low = max(low, position - MAX_WIDEN)
    while start > low and not text[start - 1].isspace():
        start -= 1
    return start, position


def _word_after(text: str, position: int, high: int) -> Span:
    """The run of non-space characters starting at ``position`` (empty when there is none), at
    most :data:`MAX_WIDEN` long."""
    end = position
    high = min(high, position + MAX_WIDEN)
    while end < high and not text[end].isspace():
        end += 1
    return position, end


def _no_protected(protected: _Protected, span: Span) -> bool:
    """Whether no protected text overlaps ``span``."""
    return not protected.near(span[0], span[1])


def _widen_deletion(
    text: str, edit: TextEdit, segments: Sequence[Span], protected: _Protected
) -> tuple[Span, TextEdit]:
    """The range of a deletion of whole words, widened to take in the word it repeats (``the
    the`` → ``the``), on whichever side that word is; failing that, the word before it (or
    after it, at the start of a line). The deletion may move by its whitespace (``the `` and
    `` the`` give the same text): the edit to use is returned with the range."""
    start, end = edit.start, edit.end
    low = _left_limit(segments, protected, start)
    high = _right_limit(segments, protected, end)
    deleted = text[start:end].strip().casefold()
    moved = (start, end) if text[start].isspace() else _moved(text, start, end, low, high, True)
    if moved is not None:
        before = _word_before(text, moved[0], low)
        if before[0] < before[1] and text[before[0] : before[1]].casefold() == deleted:
            return (before[0], moved[1]), TextEdit(moved[0], moved[1], "")
    moved = (start, end) if text[end - 1].isspace() else _moved(text, start, end, low, high, False)
    if moved is not None:
        after = _word_after(text, moved[1], high)
        if after[0] < after[1] and text[after[0] : after[1]].casefold() == deleted:
            return (moved[0], after[1]), TextEdit(moved[0], moved[1], "")
    k = _segment_at(segments, start)
    if k > 0 and segments[k][0] == start:
        # at the start of a line: the word it repeats may end the line before
        before = _word_before(text, segments[k - 1][1], segments[k - 1][0])
        if _no_protected(protected, before) and text[before[0] : before[1]].casefold() == deleted:
            if text[end - 1].isspace():  # "the\n> the " ends on a word: "the\n> the release"
                end = _word_after(text, end, high)[1]
            return (before[0], end), edit
    k = _segment_at(segments, end - 1)
    if 0 <= k < len(segments) - 1 and segments[k][1] == end:
        # at the end of a line: the word it repeats may start the next one
        after = _word_after(text, segments[k + 1][0], segments[k + 1][1])
        if _no_protected(protected, after) and text[after[0] : after[1]].casefold() == deleted:
            if text[start].isspace():  # " the\n> the" starts on a word: "reviewed the\n> the"
                start = _word_before(text, start, low)[0]
            return (start, after[1]), edit
    if text[start].isspace():
        before = _word_before(text, start, low)
        if before[0] < before[1]:
            return (before[0], end), edit
    if text[end - 1].isspace():
        after = _word_after(text, end, high)
        if after[0] < after[1]:
            return (start, after[1]), edit
    return (start, end), edit


_SPACES = re.compile(r"(\s+)")


def _word_by_word(text: str, edit: TextEdit) -> list[TextEdit]:
    """``edit`` cut into one edit per changed word when its original and new text have the
    same words count and the same whitespace between them (the word diff gives neighbouring
    changed words as one edit: ``recieved teh`` → ``received the``)."""
    old_parts = _SPACES.split(text[edit.start : edit.end])
    new_parts = _SPACES.split(edit.new_text)
    if len(old_parts) < 3 or len(old_parts) != len(new_parts) or old_parts[1::2] != new_parts[1::2]:
        return [edit]
    pieces = []
    position = edit.start
    for old, new in zip(old_parts, new_parts, strict=True):
        if old != new:
            pieces.append(TextEdit(position, position + len(old), new))
        position += len(old)
    return pieces


def _around_protected(text: str, edit: TextEdit, protected: _Protected) -> list[TextEdit]:
    """``edit`` without the protected text it covers: split around each protected span that
    comes back exactly once (in order) in its new text; ``[]`` when that is not so."""
    # the spans it overlaps, and one holding an insertion (an empty edit inside protected text)
    inside = protected.near(edit.start, max(edit.end, edit.start + 1))
    inside = [
        (p_start, p_end)
        for p_start, p_end in inside
        if (p_start < edit.end and p_end > edit.start) or p_start < edit.start < p_end
    ]
    if not inside:
        return [edit]
    pieces: list[TextEdit] = []
    position, new_position = edit.start, 0
    new = edit.new_text
    for p_start, p_end in inside:
        kept = text[p_start:p_end]
        found = new.find(kept, new_position)
        if p_start < edit.start or p_end > edit.end or found < 0 or new.count(kept) != 1:
            return []
        pieces.append(TextEdit(position, p_start, new[new_position:found]))
        position, new_position = p_end, found + len(kept)
    pieces.append(TextEdit(position, edit.end, new[new_position:]))
    return [p for p in pieces if text[p.start : p.end] != p.new_text]


def change_groups(
    text: str,
    edits: Sequence[TextEdit],
    segments: Sequence[Span],
    protected: Sequence[Span] = (),
) -> list[Change]:
    """The change groups of ``edits`` over ``text`` (a paragraph's original text).

    ``edits``: sorted, disjoint word edits relative to ``text``. ``segments``: the spans of
    ``text`` holding each line's prose, in order; ``protected``: the sorted spans of protected
    text inside them. The groups are sorted and disjoint; applying every group's replacement
    gives what applying ``edits`` gives, less any edit dropped because it would have replaced
    protected text.
    """
    index = _Protected(protected)
    widened: list[tuple[int, int, TextEdit]] = []
    for edit in edits:
        kept = _around_protected(text, edit, index)
        for piece in [part for p in kept for part in _word_by_word(text, p)]:
            words = text[piece.start : piece.end].strip()
            if (
                not piece.new_text
                and words
                and _is_word_char(words[0])
                and _is_word_char(words[-1])
            ):
                (start, end), piece = _widen_deletion(text, piece, segments, index)
            else:
                start, end = _widen(text, piece, segments, index)
            widened.append((start, end, piece))
    widened.sort(key=lambda item: (item[0], item[1]))
    groups: list[tuple[int, int, list[TextEdit]]] = []
    for start, end, edit in widened:
        if groups and start <= groups[-1][1]:
            last_start, last_end, members = groups[-1]
            members.append(edit)
            groups[-1] = (last_start, max(last_end, end), members)
        else:
            groups.append((start, end, [edit]))
    seams = _Seams(text, segments)
    changes = []
    for start, end, members in groups:
        pieces: list[str] = []
        position = start
        for edit in sorted(members, key=lambda e: e.start):
            pieces.append(text[position : edit.start])
            pieces.append(edit.new_text)
            position = edit.end
        pieces.append(text[position:end])
        original, replacement = text[start:end], "".join(pieces)
        said, says = original, replacement
        for gap in seams.inside(start, end):
            said, says = said.replace(gap, " "), says.replace(gap, " ")
        changes.append(Change(start, end, original, replacement, said, says))
    return changes


class _Seams:
    """The verbatim texts between two lines' prose (a quote's ``>``), found by binary search."""

    def __init__(self, text: str, segments: Sequence[Span]) -> None:
        self.text = text
        self.segments = segments
        self.starts = [s_start for s_start, _ in segments]
        self.ends = [s_end for _, s_end in segments]

    def inside(self, start: int, end: int) -> set[str]:
        """The gaps between lines' prose inside ``[start, end)``: those after segment ``k``
        where the next segment starts after ``start`` and segment ``k`` ends before ``end``."""
        first = max(bisect_right(self.starts, start) - 1, 0)
        last = min(bisect_left(self.ends, end), len(self.segments) - 1)
        segments = self.segments
        return {self.text[segments[k][1] : segments[k + 1][0]] for k in range(first, last)}
