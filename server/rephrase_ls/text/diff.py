"""Minimal word-level edits between two texts.

Both texts are cut into tokens: words (letters, digits, with their combining marks), runs of
whitespace, and single punctuation or symbol characters (with any combining marks, variation
selectors and zero-width-joined characters that follow, so an emoji sequence stays one token).
The tokens are aligned and only the differing tokens become edits, so unchanged words, and
the cursor and marks on them, stay put.

Alignment, made fast for large texts that differ a little:

1. the common prefix and suffix are cut off where whitespace meets non-whitespace (a token
   boundary in both texts), found by string comparison in C;
2. the rest is aligned line by line (lines are far more often unique than words), and only the
   lines that differ are aligned token by token — words and punctuation first, whitespace then
   following its neighbours (see :func:`matching_blocks`);
3. each alignment first matches elements that occur exactly once on each side, in the same order
   on both (patience diff), then works recursively between those anchors; pieces small enough,
   or without anchors, go to ``difflib.SequenceMatcher`` with ``autojunk=False``, whose cost
   grows with the product of the two lengths. A huge piece with no anchor at all is replaced as
   a whole rather than aligned in quadratic time.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from itertools import accumulate, compress
from operator import itemgetter, not_

__all__ = [
    "TextEdit",
    "apply_edits",
    "edits_from_blocks",
    "matching_blocks",
    "tokenize",
    "word_edits",
]

# Pieces whose token-count product is at most this go straight to SequenceMatcher.
_SMALL = 10_000
# Pieces without anchors are still given to SequenceMatcher up to this product.
_LARGE = 4_000_000


@dataclass(frozen=True)
class TextEdit:
    """Replace ``text[start:end]`` with ``new_text`` (offsets into the original text)."""

    start: int
    end: int
    new_text: str

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"invalid edit range [{self.start}, {self.end})")


@cache
def _token_pattern() -> re.Pattern[str]:
    """The tokenizer; built on first use (scanning the Unicode tables takes a few ms)."""
    marks = []
    run_start = -1
    for code in range(0x300, 0x20000):
        is_mark = unicodedata.category(chr(code))[0] == "M"
        if is_mark and run_start < 0:
            run_start = code
        elif not is_mark and run_start >= 0:
            marks.append((run_start, code - 1))
            run_start = -1
    marks.append((0xE0100, 0xE01EF))  # variation selectors supplement
    marks.append((0xFE00, 0xFE0F))  # variation selectors
    marks.append((0x1F3FB, 0x1F3FF))  # emoji skin-tone modifiers
    marks.append((0x200C, 0x200C))  # zero-width non-joiner
    mark_class = "".join(
        re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
        for a, b in marks
    )
    extend = f"(?:[{mark_class}]|\u200d[^\\s])*"
    # Scripts written without spaces: each ideograph / kana is a word of its own.
    ideograph = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
    letter = f"[^\\W{ideograph}]"  # a word character that is not an ideograph
    joiner = f"[{mark_class}\u200d]"  # a mark or a zero-width joiner, inside a word
    # A word is any run of letters and joiners. Written as letters-then-joiners loops (not as
    # one alternation repeated per character) so that plain words match in one class scan:
    # the same tokens, ~20 % faster on prose.
    return re.compile(
        rf"\s+|[{ideograph}]{extend}|{letter}+(?:{joiner}+{letter}*)*"
        rf"|{joiner}+(?:{letter}+{joiner}*)*|[^\w\s]{extend}"
    )


def tokenize(text: str) -> list[str]:
    """Words, whitespace runs and punctuation of ``text``; ``"".join`` gives ``text`` back."""
    return _token_pattern().findall(text)


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix of ``a`` and ``b`` (compared in halves, in C)."""
    low, high = 0, min(len(a), len(b))
    while low < high:  # largest n with a[:n] == b[:n]
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def common_suffix(a: str, b: str, limit: int) -> int:
    """Length of the longest common suffix of ``a`` and ``b``, at most ``limit``."""
    low, high = 0, limit
    len_a, len_b = len(a), len(b)
    while low < high:
        middle = (low + high + 1) // 2
        if a[len_a - middle : len_a - low] == b[len_b - middle : len_b - low]:
            low = middle
        else:
            high = middle - 1
    return low


def _boundary(text: str, position: int) -> bool:
    """Whether every tokenization cuts ``text`` at ``position`` (whitespace meets non-space)."""
    return (
        position <= 0
        or position >= len(text)
        or text[position - 1].isspace() != text[position].isspace()
    )


def _trimmed(a: str, b: str) -> tuple[int, int]:
    """Lengths of a common prefix and suffix that end / start on a token boundary in both."""
    prefix = common_prefix(a, b)
    while prefix > 0 and not (_boundary(a, prefix) and _boundary(b, prefix)):
        prefix -= 1
    suffix = common_suffix(a, b, min(len(a), len(b)) - prefix)
    len_a, len_b = len(a), len(b)
    while suffix > 0 and not (_boundary(a, len_a - suffix) and _boundary(b, len_b - suffix)):
        suffix -= 1
    return prefix, suffix


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


def _align(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int, int]]:
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

    aligned = _align(list(compress(a, a_word)), list(compress(b, b_word)))
    for wi, wj, n in aligned:
        first_i, first_j = a_words[wi], b_words[wj]
        if first_i and first_j and a[first_i - 1] == b[first_j - 1] and not a_word[first_i - 1]:
            add_space(first_i - 1, first_j - 1)
        end_i, end_j = a_words[wi + n - 1] + 1, b_words[wj + n - 1] + 1
        add_words(wi, wj, 0, n)
        if end_i < len(a) and end_j < len(b) and a[end_i] == b[end_j] and not a_word[end_i]:
            add_space(end_i, end_j)
    return blocks


def edits_from_blocks(
    a: Sequence[str], b: Sequence[str], blocks: Iterable[tuple[int, int, int]]
) -> list[TextEdit]:
    """The edits turning ``"".join(a)`` into ``"".join(b)``, given matching runs of the pieces.

    ``blocks`` are runs ``(i, j, size)`` in increasing order on both sides; inside a run,
    pieces that turn out to differ are edited like unmatched ones (the runs may come from an
    alignment of other, similar pieces). Offsets are into ``"".join(a)``; the edits are
    sorted, disjoint, not touching, and none replaces a text with itself.
    """
    a_text = "".join(a)
    a_starts = [0, *accumulate(map(len, a))]
    edits: list[TextEdit] = []

    def edit(i0: int, i1: int, j0: int, j1: int) -> None:
        start, end, new_text = a_starts[i0], a_starts[i1], "".join(b[j0:j1])
        if edits and edits[-1].end == start:  # separated by empty pieces only: one edit
            last = edits.pop()
            start, new_text = last.start, last.new_text + new_text
        if a_text[start:end] != new_text:
            edits.append(TextEdit(start, end, new_text))

    i = j = 0
    for bi, bj, size in blocks:
        if size <= 0:
            continue
        if bi < i or bj < j or bi + size > len(a) or bj + size > len(b):
            raise ValueError(f"matching run ({bi}, {bj}, {size}) is out of order or outside")
        if a[bi : bi + size] == b[bj : bj + size]:
            runs = [(bi, bj, size)]
        else:  # split the run where its pieces differ
            runs = []
            for k in range(size):
                if a[bi + k] == b[bj + k]:
                    if runs and runs[-1][0] + runs[-1][2] == bi + k:
                        runs[-1] = (runs[-1][0], runs[-1][1], runs[-1][2] + 1)
                    else:
                        runs.append((bi + k, bj + k, 1))
        for ri, rj, rn in runs:
            if ri > i or rj > j:
                edit(i, ri, j, rj)
            i, j = ri + rn, rj + rn
    if i < len(a) or j < len(b):
        edit(i, len(a), j, len(b))
    return edits


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _token_edits(a_text: str, b_text: str, a_base: int, edits: list[TextEdit]) -> None:
    """Append the token edits turning ``a_text`` (found at ``a_base``) into ``b_text``."""
    a = tokenize(a_text)
    b = tokenize(b_text)
    a_pos = a_base
    b_pos = 0
    i = j = 0
    for bi, bj, size in [*matching_blocks(a, b), (len(a), len(b), 0)]:
        if bi > i or bj > j:
            a_end = a_pos + sum(map(len, a[i:bi]))
            b_end = b_pos + sum(map(len, b[j:bj]))
            edits.append(TextEdit(a_pos, a_end, b_text[b_pos:b_end]))
            a_pos, b_pos = a_end, b_end
        matched = sum(map(len, a[bi : bi + size]))
        a_pos += matched
        b_pos += matched
        i, j = bi + size, bj + size


def word_edits(original: str, improved: str) -> list[TextEdit]:
    """Minimal word-level edits turning ``original`` into ``improved``: sorted, non-overlapping,
    adjacent changes merged.

    The differing middle is aligned line by line first (lines are far more often unique than
    words, which makes anchoring work on large documents); the lines that differ are then
    aligned token by token.
    """
    if not isinstance(original, str) or not isinstance(improved, str):
        raise TypeError("word_edits needs two str")
    if original == improved:
        return []
    prefix, suffix = _trimmed(original, improved)
    a_mid = original[prefix : len(original) - suffix]
    b_mid = improved[prefix : len(improved) - suffix]
    a_lines = _LINE.findall(a_mid)
    b_lines = _LINE.findall(b_mid)
    edits: list[TextEdit] = []
    if len(a_lines) <= 1 or len(b_lines) <= 1:
        _token_edits(a_mid, b_mid, prefix, edits)
        return edits
    a_pos = prefix
    b_pos = 0
    i = j = 0
    for li, lj, size in [*_align(a_lines, b_lines), (len(a_lines), len(b_lines), 0)]:
        if li > i or lj > j:
            a_end = a_pos + sum(map(len, a_lines[i:li]))
            b_end = b_pos + sum(map(len, b_lines[j:lj]))
            _token_edits(original[a_pos:a_end], b_mid[b_pos:b_end], a_pos, edits)
            a_pos, b_pos = a_end, b_end
        matched = sum(map(len, a_lines[li : li + size]))
        a_pos += matched
        b_pos += matched
        i, j = li + size, lj + size
    return edits


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """Apply sorted, non-overlapping edits (offsets into ``text``) at once."""
    pieces = []
    position = 0
    for edit in edits:
        if edit.start < position:
            raise ValueError("edits must be sorted and must not overlap")
        if edit.end > len(text):
            raise ValueError(f"edit [{edit.start}, {edit.end}) is outside the text ({len(text)})")
        pieces.append(text[position : edit.start])
        pieces.append(edit.new_text)
        position = edit.end
    pieces.append(text[position:])
    return "".join(pieces)
