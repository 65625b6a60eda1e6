"""Aligning two sequences (token lists from :func:`rephrase_ls.text.diff.tokenize`, or lines):
the matching runs minimal word edits are made from.

Each alignment first matches elements that occur exactly once on each side, in the same order on
both (patience diff), then works recursively between those anchors; pieces small enough, or
without anchors, go to ``difflib.SequenceMatcher`` with ``autojunk=False``, whose cost grows
with the product of the two lengths, and more on repetitive text: each of its searches costs the
number of equal token pairs, and it searches once per matching run. A piece without anchors that
is huge, or repetitive (few distinct tokens, as in ``word , word . word ;`` repeated), is aligned
window by window instead (exact within a window, linear overall), so it still gives one small
edit per change, never one replacement of the whole piece. In token lists, words and
punctuation are aligned first, whitespace then follows its neighbours (see
:func:`matching_blocks`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from difflib import SequenceMatcher
from itertools import compress
from operator import itemgetter, not_

__all__ = ["align", "matching_blocks", "opcodes"]

# Pieces whose token-count product is at most this go straight to SequenceMatcher.
_SMALL = 10_000
# Pieces without anchors are still given to SequenceMatcher up to this product.
_LARGE = 4_000_000
# Above this many equal token pairs, a piece without anchors is aligned window by window.
_PAIRS = 20_000
# Tokens a side in one window of that alignment.
_WINDOW = 48


def _unique_anchors(
    a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """Pairs (i, j) of tokens unique on both sides, longest increasing run in both (patience)."""
    count_a: dict[str, int] = {}
    where_a: dict[str, int] = {}
    for i in range(alo, ahi):
        token = a[i]
        count_a[token] = count_a.get(token, 0) + 1
        where_a[token] = i
    count_b: dict[str, int] = {}
    where_b: dict[str, int] = {}
    for j in range(blo, bhi):
        token = b[j]
        if token in count_a:
            count_b[token] = count_b.get(token, 0) + 1
            where_b[token] = j
    pairs = sorted(
        (where_a[token], j)
        for token, j in where_b.items()
        if count_b[token] == 1 and count_a[token] == 1
    )
    if not pairs:
        return []
    # Longest increasing subsequence of the b indices (patience sorting).
    tails: list[int] = []  # b index at the end of the best run of each length
    tail_at: list[int] = []  # index into pairs of that end
    back: list[int] = [-1] * len(pairs)
    for n, (_, j) in enumerate(pairs):
        length = bisect_left(tails, j)
        if length == len(tails):
            tails.append(j)
            tail_at.append(n)
        else:
            tails[length] = j
            tail_at[length] = n
        back[n] = tail_at[length - 1] if length else -1
    chain = []
    n = tail_at[-1]
    while n >= 0:
        chain.append(pairs[n])
        n = back[n]
    chain.reverse()
    return chain


def _repetitive(a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int,
                bhi: int) -> bool:
    """Whether this piece has so many equal token pairs between its two sides that
    SequenceMatcher, whose every search costs about that many steps, would be too slow."""
    count: dict[str, int] = {}
    for j in range(blo, bhi):
        count[b[j]] = count.get(b[j], 0) + 1
    pairs = 0
    for i in range(alo, ahi):
        pairs += count.get(a[i], 0)
    return pairs > _PAIRS


def _lcs_pairs(
    a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """The matched pairs of a longest common subsequence of two short pieces, earliest first;
    where several are longest, the one that takes a match as soon as it can, else moves on in
    ``a``.

    Bit-parallel (Allison and Dix): the pieces are read back to front, one row of ``b``'s
    length as an integer per token of ``a``, whose zero bits mark where the subsequence grows;
    the pairs are then read off the rows from the front. About ``len(a)`` integer operations
    instead of ``len(a) * len(b)`` Python steps."""
    ra = [a[k] for k in range(ahi - 1, alo - 1, -1)]
    rb = [b[k] for k in range(bhi - 1, blo - 1, -1)]
    full = (1 << len(rb)) - 1
    where: dict[str, int] = {}
    for j, token in enumerate(rb):
        where[token] = where.get(token, 0) | (1 << j)
    rows = [full]
    row = full
    for token in ra:
        matched = row & where.get(token, 0)
        row = ((row + matched) | (row & ~matched & full)) & full
        rows.append(row)

    def length(i: int, j: int) -> int:
        """The longest common subsequence of ``ra[:i]`` and ``rb[:j]``."""
        return (~rows[i] & ((1 << j) - 1)).bit_count()

    pairs: list[tuple[int, int]] = []
    i, j = len(ra), len(rb)
    while i and j:
        if ra[i - 1] == rb[j - 1]:
            pairs.append((ahi - i, bhi - j))
            i -= 1
            j -= 1
        elif length(i - 1, j) >= length(i, j - 1):
            i -= 1
        else:
            j -= 1
    return pairs


def _windowed(
    a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int, int]]:
    """Matching runs of a piece that has no unique anchor and would cost SequenceMatcher
    super-linear time (repetitive text): aligned a window of ``_WINDOW`` tokens a side at a
    time, keeping the matches of the window's first half and starting the next window after
    them. Linear in the piece's length; minimal within each window, coarser (a replacement of
    half a window) only where one side inserts more than a window's worth of tokens."""
    half = _WINDOW // 2
    runs: list[tuple[int, int, int]] = []
    i, j = alo, blo
    while i < ahi and j < bhi:
        end_i = min(ahi, i + _WINDOW)
        end_j = min(bhi, j + _WINDOW)
        pairs = _lcs_pairs(a, b, i, end_i, j, end_j)
        last = end_i == ahi and end_j == bhi
        if not last:
            pairs = [(x, y) for x, y in pairs if x < i + half or y < j + half]
        if not pairs:
            if last:
                break
            i = min(ahi, i + half)
            j = min(bhi, j + half)
            continue
        for x, y in pairs:
            if runs and runs[-1][0] + runs[-1][2] == x and runs[-1][1] + runs[-1][2] == y:
                runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + 1)
            else:
                runs.append((x, y, 1))
        if last:
            break
        i, j = pairs[-1][0] + 1, pairs[-1][1] + 1
    return runs


def align(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int]]:
    """Matching runs ``(i, j, size)`` of two sequences, sorted, like SequenceMatcher's."""
    blocks: list[tuple[int, int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        start = alo
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            alo += 1
            blo += 1
        if alo > start:
            blocks.append((start, blo - (alo - start), alo - start))
        end = ahi
        while ahi > alo and bhi > blo and a[ahi - 1] == b[bhi - 1]:
            ahi -= 1
            bhi -= 1
        if ahi < end:
            blocks.append((ahi, bhi, end - ahi))
        if alo == ahi or blo == bhi:
            continue
        size = (ahi - alo) * (bhi - blo)
        if size > _SMALL:
            anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
            if anchors:
                previous_i, previous_j = alo, blo
                for i, j in anchors:
                    blocks.append((i, j, 1))
                    stack.append((previous_i, i, previous_j, j))
                    previous_i, previous_j = i + 1, j + 1
                stack.append((previous_i, ahi, previous_j, bhi))
                continue
            if size > _LARGE or _repetitive(a, b, alo, ahi, blo, bhi):
                blocks.extend(_windowed(a, b, alo, ahi, blo, bhi))
                continue
        matcher = SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
        for i, j, n in matcher.get_matching_blocks():
            if n:
                blocks.append((alo + i, blo + j, n))
    blocks.sort()
    # Join touching runs.
    joined: list[tuple[int, int, int]] = []
    for i, j, n in blocks:
        if joined and joined[-1][0] + joined[-1][2] == i and joined[-1][1] + joined[-1][2] == j:
            last = joined[-1]
            joined[-1] = (last[0], last[1], last[2] + n)
        else:
            joined.append((i, j, n))
    return joined


def matching_blocks(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int]]:
    """Matching runs ``(i, j, size)`` of two token lists (from :func:`tokenize`), sorted.

    Words and punctuation are aligned on their own; whitespace then matches between two
    matched neighbours and at the edges of matched runs. Leaving the ubiquitous single-space
    token out of the alignment is both much faster (difflib's cost grows with how often an
    element repeats) and better: a space says nothing about where a word went.
    """
    first_char = itemgetter(0)
    a_word = list(map(not_, map(str.isspace, map(first_char, a))))
    b_word = list(map(not_, map(str.isspace, map(first_char, b))))
    a_words = list(compress(range(len(a)), a_word))
    b_words = list(compress(range(len(b)), b_word))
    blocks: list[tuple[int, int, int]] = []
    last_i = last_j = -1

    def add_space(i: int, j: int) -> None:
        """Add a matched whitespace pair unless the run before claimed it already."""
        nonlocal last_i, last_j
        if i <= last_i or j <= last_j:
            return  # runs meet at one whitespace token: it belongs to the run before
        add_run(i, j, 1)

    def add_run(i: int, j: int, size: int) -> None:
        nonlocal last_i, last_j
        if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
            start_i, start_j, previous = blocks[-1]
            blocks[-1] = (start_i, start_j, previous + size)
        else:
            blocks.append((i, j, size))
        last_i, last_j = i + size - 1, j + size - 1

    def add_words(wi: int, wj: int, k0: int, k1: int) -> None:
        """Add words ``k0..k1-1`` of the aligned run at (wi, wj) and the equal whitespace
        between them. Usually the whole stretch is the same on both sides (one comparison in
        C); where it is not (a space changed), halve it until it is."""
        first_i, first_j = a_words[wi + k0], b_words[wj + k0]
        end_i, end_j = a_words[wi + k1 - 1] + 1, b_words[wj + k1 - 1] + 1
        if k1 - k0 == 1 or (
            end_i - first_i == end_j - first_j and a[first_i:end_i] == b[first_j:end_j]
        ):
            add_run(first_i, first_j, end_i - first_i)
            return
        middle = (k0 + k1) // 2
        add_words(wi, wj, k0, middle)
        i, j = a_words[wi + middle], b_words[wj + middle]
        before_i, before_j = a_words[wi + middle - 1], b_words[wj + middle - 1]
        if i - before_i == j - before_j == 2 and a[i - 1] == b[j - 1]:
            add_run(i - 1, j - 1, 1)
        add_words(wi, wj, middle, k1)

    aligned = align(list(compress(a, a_word)), list(compress(b, b_word)))
    for wi, wj, n in aligned:
        first_i, first_j = a_words[wi], b_words[wj]
        if first_i and first_j and a[first_i - 1] == b[first_j - 1] and not a_word[first_i - 1]:
            add_space(first_i - 1, first_j - 1)
        end_i, end_j = a_words[wi + n - 1] + 1, b_words[wj + n - 1] + 1
        add_words(wi, wj, 0, n)
        if end_i < len(a) and end_j < len(b) and a[end_i] == b[end_j] and not a_word[end_i]:
            add_space(end_i, end_j)
    return blocks


def opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """``(tag, i1, i2, j1, j2)`` turning ``a`` into ``b``, as ``SequenceMatcher.get_opcodes``
    gives them (``equal``, ``replace``, ``delete``, ``insert``), from :func:`align`: linear on
    repetitive input, where SequenceMatcher is cubic."""
    codes: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for bi, bj, size in [*align(a, b), (len(a), len(b), 0)]:
        if i < bi and j < bj:
            codes.append(("replace", i, bi, j, bj))
        elif i < bi:
            codes.append(("delete", i, bi, j, j))
        elif j < bj:
            codes.append(("insert", i, i, j, bj))
        if size:
            codes.append(("equal", bi, bi + size, bj, bj + size))
        i, j = bi + size, bj + size
    return codes
