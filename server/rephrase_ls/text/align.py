"""Aligning two sequences (token lists from :func:`rephrase_ls.text.diff.tokenize`, or lines):
the matching runs minimal word edits are made from.

Each alignment first matches elements that occur exactly once on each side, in the same order on
both (patience diff), then works recursively between those anchors; pieces small enough, or
without anchors, go to ``difflib.SequenceMatcher`` with ``autojunk=False``, whose cost grows
with the product of the two lengths. A huge piece with no anchor at all is replaced as a whole
rather than aligned in quadratic time. In token lists, words and punctuation are aligned first,
whitespace then follows its neighbours (see :func:`matching_blocks`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from difflib import SequenceMatcher
from itertools import compress
from operator import itemgetter, not_

__all__ = ["align", "matching_blocks"]

# Pieces whose token-count product is at most this go straight to SequenceMatcher.
_SMALL = 10_000
# Pieces without anchors are still given to SequenceMatcher up to this product.
_LARGE = 4_000_000


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
            if size > _LARGE:
                continue  # no anchor in a huge piece: replaced as a whole
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
