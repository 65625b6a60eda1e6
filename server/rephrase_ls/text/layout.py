"""Laying an improved paragraph back over its lines (see
:meth:`rephrase_ls.text.paragraphs.Paragraph.rebuild`).

Each line break, with the verbatim text between two lines' prose (indentation, ``> `` or comment
leaders), goes back where it was when the words around it are unchanged, otherwise on the
nearest whitespace between words, never inside a word or inside protected text. Only the lines
from the first change to the last are laid out, split at an unchanged line between changes
where there is one. When the words of whole lines are gone, the gaps around them share one
place: repeated and whitespace-only gaps collapse, differing gaps with text are all kept.

Lines are joined by single spaces, except where the script writes none: between two characters
of Chinese or Japanese (Han, kana, their punctuation; :func:`joiner`) the joiner is empty, and
the line break goes back between two such characters of the answer instead of on a space.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from itertools import accumulate

from rephrase_ls.text.align import matching_blocks
from rephrase_ls.text.diff import (
    TextEdit,
    common_prefix,
    common_suffix,
    edits_from_blocks,
    tokenize,
    word_edits,
)

__all__ = ["interleave", "joined", "joiner", "lay_out_lines", "tight"]

Span = tuple[int, int]
_Laid = tuple[str, list[TextEdit] | None]
# A line shorter than this is too common to split a paragraph at (see _split).
_MIN_SPLIT_LINE = 12


def tight(char: str) -> bool:
    """Whether ``char`` belongs to a script written without spaces between words, and is a
    token of its own in :func:`rephrase_ls.text.diff.tokenize`: a Han character, kana, or CJK
    or full-width punctuation. (Hangul is not: Korean puts spaces between its phrases.)"""
    code = ord(char)
    if 0x3000 <= code <= 0x303F:  # CJK symbols and punctuation, not the ideographic space
        return code != 0x3000 and not char.isalnum()  # (nor 々 〇, letters to the tokenizer)
    return (
        0x3040 <= code <= 0x30FF  # hiragana, katakana
        or 0x3400 <= code <= 0x4DBF
        or 0x4E00 <= code <= 0x9FFF
        or 0xF900 <= code <= 0xFAFF
        or 0x20000 <= code <= 0x3134F
        or 0xFF01 <= code <= 0xFF0F  # full-width punctuation
        or 0xFF1A <= code <= 0xFF20
        or 0xFF3B <= code <= 0xFF40
        or 0xFF5B <= code <= 0xFF65
    )


def joiner(left: str, right: str) -> str:
    """What joins a line ending in ``left`` to one starting with ``right`` in the prose sent:
    nothing between two :func:`tight` characters, a space otherwise."""
    return "" if tight(left) and tight(right) else " "


def joined(lines: Sequence[str], joiners: Sequence[str] | None = None) -> str:
    """The lines joined by their joiners (single spaces when ``joiners`` is None)."""
    if joiners is None:
        return " ".join(lines)
    pieces = [lines[0]]
    for glue, line in zip(joiners, lines[1:], strict=True):
        pieces.append(glue)
        pieces.append(line)
    return "".join(pieces)


def lay_out_lines(
    lines: Sequence[str],
    gaps: Sequence[str],
    improved: str,
    protected: Sequence[Span],
    want_edits: bool,
    joiners: Sequence[str] | None = None,
) -> _Laid:
    """``improved`` laid over ``lines`` (see :meth:`Paragraph.rebuild`), with the edits
    (relative to the lines and gaps) when ``want_edits``: only the lines from the first change
    to the last are laid out, split at an unchanged line between changes where there is one.
    ``joiners``: what joined each pair of lines in the prose (see :func:`joiner`; None: spaces)."""
    if not gaps:
        return improved, (word_edits(lines[0], improved) if want_edits else None)
    if joiners is not None and all(glue == " " for glue in joiners):
        joiners = None
    original = joined(lines, joiners)
    if improved == original:
        return interleave(lines, gaps), ([] if want_edits else None)
    narrowed = _narrowed(original, lines, gaps, improved, protected, want_edits, joiners)
    if narrowed is not None:
        return narrowed
    if joiners is None:
        split = _split(original, lines, gaps, improved, protected, want_edits)
        if split is not None:
            return split
    return _lay_out(original, lines, gaps, improved, protected, want_edits, joiners)


def _split(
    original: str,
    lines: Sequence[str],
    gaps: Sequence[str],
    improved: str,
    protected: Sequence[Span],
    want_edits: bool,
) -> _Laid | None:
    """Lay out the lines before and after an unchanged line on their own, when one is found.

    The line must appear once in the original prose and once in the answer, between words
    on both sides (so the answer's text splits into the words before it and after it) and
    with no protected text; the line breaks around it stay around it. Lines nearest the
    middle are tried first, so that the two halves are about even. ``None`` when no line
    qualifies.
    """
    if len(lines) < 3:
        return None
    starts = [0, *accumulate(len(line) + 1 for line in lines[:-1])]
    middle = len(lines) // 2
    for k in sorted(range(1, len(lines) - 1), key=lambda n: (abs(n - middle), n)):
        line = lines[k]
        if len(line) < _MIN_SPLIT_LINE:
            continue
        needle = " " + line + " "
        if original.find(needle) != starts[k] - 1 or original.find(needle, starts[k]) >= 0:
            continue  # the line's text is also elsewhere: the place would be ambiguous
        at = improved.find(needle)
        if at <= 0 or improved.find(needle, at + 1) >= 0:
            continue
        after = at + len(needle)
        left, right = improved[:at], improved[after:]
        if left != left.strip() or right != right.strip() or not right:
            continue
        if any(s < after and e > at for s, e in protected):
            continue
        left_laid = lay_out_lines(
            lines[:k],
            gaps[: k - 1],
            left,
            [span for span in protected if span[1] <= at],
            want_edits,
        )
        right_laid = lay_out_lines(
            lines[k + 1 :],
            gaps[k + 1 :],
            right,
            [(s - after, e - after) for s, e in protected if s >= after],
            want_edits,
        )
        middle_text = gaps[k - 1] + line + gaps[k]
        replacement = left_laid[0] + middle_text + right_laid[0]
        if left_laid[1] is None or right_laid[1] is None:
            return replacement, None
        shift = len(interleave(lines[:k], gaps[: k - 1])) + len(middle_text)
        return replacement, [
            *left_laid[1],
            *(TextEdit(e.start + shift, e.end + shift, e.new_text) for e in right_laid[1]),
        ]
    return None


def _narrowed(
    original: str,
    lines: Sequence[str],
    gaps: Sequence[str],
    improved: str,
    protected: Sequence[Span],
    want_edits: bool,
    joiners: Sequence[str] | None = None,
) -> _Laid | None:
    """Lay out just the lines the answer changed, when that is fewer than all.

    Most answers change a few words: the text before the first change and after the last is
    the same on both sides, and so are the line breaks in it, which keep their places. Only
    the lines from the first change to the last (with a line on either side when a change
    touches a line's edge, so the break there is laid out with the words around it) are laid
    out again. ``None`` when that is every line, or a protected span crosses the edge.
    """
    shortest = min(len(original), len(improved))
    prefix = common_prefix(original, improved)
    suffix = common_suffix(original, improved, shortest - prefix)
    glue = joiners if joiners is not None else [" "] * (len(lines) - 1)
    starts = [0, *accumulate(len(line) + len(g) for line, g in zip(lines[:-1], glue, strict=True))]
    change_end = len(original) - suffix  # the changed part of the original: [prefix, change_end)
    first = bisect_right(starts, prefix) - 1
    if starts[first] == prefix and first > 0:
        first -= 1  # the change begins a line: the break before it is in play
    last = bisect_right(starts, max(change_end - 1, prefix)) - 1
    if change_end >= starts[last] + len(lines[last]) and last < len(lines) - 1:
        last += 1  # the change reaches the end of a line: the break after it is in play
    if first == 0 and last == len(lines) - 1:
        return None
    begin = starts[first]
    end_o = starts[last] + len(lines[last])
    end_u = end_o + len(improved) - len(original)
    for s, e in protected:
        if s < begin < e or s < end_u < e:
            return None
    sub_protected = [(s - begin, e - begin) for s, e in protected if begin <= s and e <= end_u]
    sub_lines = lines[first : last + 1]
    sub_improved = improved[begin:end_u]
    middle, sub_edits = lay_out_lines(
        sub_lines,
        gaps[first:last],
        sub_improved,
        sub_protected,
        want_edits,
        joiners[first:last] if joiners is not None else None,
    )
    before = interleave(lines[: first + 1], gaps[:first])[: -len(lines[first])]
    after = interleave(lines[last:], gaps[last:])[len(lines[last]) :]
    replacement = before + middle + after
    if sub_edits is None:
        return replacement, None
    shift = len(before)
    return replacement, [
        TextEdit(edit.start + shift, edit.end + shift, edit.new_text) for edit in sub_edits
    ]


def interleave(lines: Sequence[str], gaps: Sequence[str]) -> str:
    pieces = [lines[0]]
    for gap, line in zip(gaps, lines[1:], strict=True):
        pieces.append(gap)
        pieces.append(line)
    return "".join(pieces)


def _starts(tokens: Sequence[str]) -> list[int]:
    """Offset of each token in the joined text."""
    return [0, *accumulate(map(len, tokens))][: len(tokens)]


def _lay_out(
    original: str,
    lines: Sequence[str],
    gaps: Sequence[str],
    improved: str,
    protected: Sequence[Span],
    want_edits: bool = False,
    joiners: Sequence[str] | None = None,
) -> tuple[str, list[TextEdit] | None]:
    """Put each gap on a whitespace token of ``improved`` (see :meth:`Paragraph.rebuild`), or,
    for lines joined without a space, between two :func:`tight` characters; with
    ``want_edits``, also the edits turning the lines and gaps into the result.

    A place is a key: ``2u + 1`` is the whitespace token ``u`` (the gap replaces it), ``2u``
    the point before token ``u`` (the gap goes in), ``2 * len(tokens)`` the end."""
    glue = list(joiners) if joiners is not None else [" "] * len(gaps)
    o_tokens = tokenize(original)
    u_tokens = tokenize(improved)
    o_starts = _starts(o_tokens)
    u_starts = _starts(u_tokens)
    matched = matching_blocks(o_tokens, u_tokens)
    # Runs of matched whitespace alone say nothing about where words went: ignore them. (Two
    # whitespace tokens are never neighbours, so such a run is one token long.)
    blocks = [(i, j, n) for i, j, n in matched if n > 1 or not o_tokens[i].isspace()]
    block_starts = [i for i, _, _ in blocks]

    def free_point(start: int) -> bool:
        """Whether offset ``start`` of ``improved`` is outside protected text (or at its edge)."""
        k = bisect_right(protected, (start, len(improved) + 1))  # the first span after `start`
        return not (k > 0 and protected[k - 1][1] > start)

    def free_space(u: int) -> bool:
        """Whether U token ``u`` is whitespace wholly outside protected text (a protected span
        may start or end with whitespace the token runs into)."""
        if not u_tokens[u][0].isspace():
            return False
        start = u_starts[u]
        k = bisect_right(protected, (start, len(improved) + 1))  # the first span after `start`
        if k > 0 and protected[k - 1][1] > start:
            return False
        return k == len(protected) or protected[k][0] >= start + len(u_tokens[u])

    def free_join(u: int) -> bool:
        """Whether the point before U token ``u`` lies between two tight characters, outside
        protected text."""
        return (
            0 < u < len(u_tokens)
            and tight(u_tokens[u - 1][-1])
            and tight(u_tokens[u][0])
            and free_point(u_starts[u])
        )

    # Character anchors (original offset, improved offset) at the edges of matching runs.
    anchors = [(0, 0)]
    for i, j, n in blocks:
        anchors.append((o_starts[i], u_starts[j]))
        o_end = o_starts[i + n - 1] + len(o_tokens[i + n - 1])
        anchors.append((o_end, u_starts[j + n - 1] + len(u_tokens[j + n - 1])))
    anchors.append((len(original), len(improved)))
    anchor_o = [a for a, _ in anchors]

    def target(position: int) -> float:
        """Where an original offset falls in the improved text, interpolating between anchors."""
        k = bisect_right(anchor_o, position) - 1
        o1, u1 = anchors[k]
        if k + 1 >= len(anchors):
            return float(u1)
        o2, u2 = anchors[k + 1]
        if o2 <= o1:
            return float(u1)
        return u1 + (position - o1) * (u2 - u1) / (o2 - o1)

    # Separator k joins lines k and k + 1 in the original prose: the space token there, or
    # (joined without a space) the point before the token there.
    separators = []
    position = 0
    for line, sep in zip(lines[:-1], glue, strict=True):
        position += len(line)
        separators.append(position)
        position += len(sep)
    exact: list[int | None] = []
    separator_tokens: list[int] = []
    for position, sep in zip(separators, glue, strict=True):
        t = bisect_left(o_starts, position)
        separator_tokens.append(t)
        b = bisect_right(block_starts, t if sep else t - 1) - 1
        key = None
        if b >= 0:
            i, j, n = blocks[b]
            # Exact only when the words on both sides are unchanged too.
            if sep and i < t < i + n - 1 and free_space(j + t - i):
                key = 2 * (j + t - i) + 1
            elif not sep and i < t < i + n and free_point(u_starts[j + t - i]):
                key = 2 * (j + t - i)
        exact.append(key)

    end_key = 2 * len(u_tokens)  # an insertion point after the last token

    def offset(key: int) -> int:
        return u_starts[key // 2] if key < end_key else len(improved)

    slots: list[int] = [0] * len(separators)
    k = 0
    while k < len(separators):
        exact_key = exact[k]
        if exact_key is not None:
            slots[k] = exact_key
            k += 1
            continue
        run_end = k
        while run_end < len(separators) and exact[run_end] is None:
            run_end += 1
        low = slots[k - 1] if k > 0 else -1
        high_key = exact[run_end] if run_end < len(separators) else None
        high = high_key if high_key is not None else end_key
        tight_run = any(not glue[n] for n in range(k, run_end))
        candidates = []
        for u in range(max(low + 1, 0) // 2, (high + 1) // 2 + 1):
            for key in (2 * u, 2 * u + 1):
                if not low < key < high:
                    continue
                space = key % 2 and u < len(u_tokens) and free_space(u)
                if space or (not key % 2 and tight_run and free_join(u)):
                    candidates.append(key)
        wanted = [target(separators[n]) for n in range(k, run_end)]
        chosen = _choose(candidates, [offset(c) for c in candidates], wanted, improved)
        for n, key in enumerate(chosen):
            slots[k + n] = key
        if not candidates:
            # No place between the neighbouring slots: share the nearest one.
            for n in range(k, run_end):
                slots[n] = _nearest_slot(low, high_key, target(separators[n]), offset, end_key)
        k = run_end

    placed: dict[int, list[str]] = {}
    for gap_index, slot in enumerate(slots):
        placed.setdefault(slot, []).append(gaps[gap_index])
    pieces = list(u_tokens)
    inserted: list[tuple[int, str]] = []
    for key, placed_gaps in placed.items():
        if key >= end_key:
            continue
        if key % 2:
            pieces[key // 2] = _joined_gaps(placed_gaps)
        else:
            inserted.append((key // 2, _joined_gaps(placed_gaps)))
    for u, text in inserted:  # after the replacements: token u - 1 may be a replaced space
        pieces[u - 1] += text
    if end_key in placed:
        # No place at all in the answer: a line break after the last word is only kept
        # when it carries text.
        tail = [gap for gap in placed[end_key] if not gap.isspace()]
        if tail:
            pieces.append(_joined_gaps(tail))
    if not want_edits:
        return "".join(pieces), None
    # The original as pieces that line up with the tokens: each separating space is its gap,
    # a gap between lines joined without one ends the token before it. The alignment of the
    # tokens holds for the pieces wherever the pieces are still equal.
    o_pieces = list(o_tokens)
    for t, gap, sep in zip(separator_tokens, gaps, glue, strict=True):
        if sep:
            o_pieces[t] = gap
        else:
            o_pieces[t - 1] += gap
    return "".join(pieces), edits_from_blocks(o_pieces, pieces, matched)


def _choose(
    candidates: Sequence[int],
    positions: Sequence[int],
    wanted: Sequence[float],
    improved: str,
) -> list[int]:
    """Give each wanted position (in order) the nearest candidate, keeping the order.

    Separators with no word of the answer between their wanted positions (the words of the
    line between them are gone) share a candidate. The others get distinct candidates while
    there are enough, and share the nearest otherwise.
    """
    if not candidates:
        return []
    groups = [0]  # index of the group of each wanted position
    for n in range(1, len(wanted)):
        between = improved[int(wanted[n - 1]) : math.ceil(wanted[n])]
        groups.append(groups[-1] + bool(between.strip()))
    count, needed = len(candidates), groups[-1] + 1
    distinct = count >= needed
    chosen: list[int] = []
    first = 0
    for n, want in enumerate(wanted):
        if n and groups[n] == groups[n - 1]:
            chosen.append(chosen[-1])
            continue
        last = count - (needed - groups[n]) if distinct else count - 1
        best = min(range(first, last + 1), key=lambda c: abs(positions[c] - want))
        chosen.append(candidates[best])
        first = best + 1 if distinct else best
    return chosen


def _nearest_slot(
    low: int, high: int | None, want: float, offset: Callable[[int], int], end_slot: int
) -> int:
    if low >= 0 and high is not None:
        return low if abs(offset(low) - want) <= abs(offset(high) - want) else high
    if low >= 0:
        return low
    if high is not None:
        return high
    return end_slot


def _joined_gaps(gaps: Sequence[str]) -> str:
    """The text for several gaps that landed on one place (the lines between them lost their
    words): whitespace-only gaps give way to gaps with text (a ``> `` or comment leader), and
    repeated gaps collapse, so no emptied line is left behind; differing gaps with text are
    all kept, in order, so no verbatim text is lost."""
    kept = [gap for gap in gaps if not gap.isspace()] or [gaps[-1]]
    unique: list[str] = []
    for gap in kept:
        if not unique or unique[-1] != gap:
            unique.append(gap)
    return "".join(unique)
