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

__all__ = ["TextEdit", "apply_edits", "matching_blocks", "tokenize", "word_edits"]

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
    return re.compile(
        rf"\s+|[{ideograph}]{extend}|(?:[^\W{ideograph}]|[{mark_class}\u200d])+"
        rf"|[^\w\s]{extend}"
    )


def tokenize(text: str) -> list[str]:
    """Words, whitespace runs and punctuation of ``text``; ``"".join`` gives ``text`` back."""
    return _token_pattern().findall(text)


def _common_prefix(a: str, b: str) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:  # largest n with a[:n] == b[:n]
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
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
    prefix = _common_prefix(a, b)
    while prefix > 0 and not (_boundary(a, prefix) and _boundary(b, prefix)):
        prefix -= 1
    suffix = _common_suffix(a, b, min(len(a), len(b)) - prefix)
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
    a_words = [i for i, token in enumerate(a) if not token[0].isspace()]
    b_words = [j for j, token in enumerate(b) if not token[0].isspace()]
    pairs: list[tuple[int, int]] = []
    for wi, wj, n in _align([a[i] for i in a_words], [b[j] for j in b_words]):
        first_i, first_j = a_words[wi], b_words[wj]
        if first_i and first_j and a[first_i - 1] == b[first_j - 1] and a[first_i - 1].isspace():
            pairs.append((first_i - 1, first_j - 1))
        previous_i = previous_j = -1
        for k in range(n):
            i, j = a_words[wi + k], b_words[wj + k]
            if k and i - previous_i == j - previous_j == 2 and a[i - 1] == b[j - 1]:
                pairs.append((i - 1, j - 1))
            pairs.append((i, j))
            previous_i, previous_j = i, j
        if (
            previous_i + 1 < len(a)
            and previous_j + 1 < len(b)
            and a[previous_i + 1] == b[previous_j + 1]
            and a[previous_i + 1].isspace()
        ):
            pairs.append((previous_i + 1, previous_j + 1))
    blocks: list[tuple[int, int, int]] = []
    last_i = last_j = -1
    for i, j in pairs:
        if i <= last_i or j <= last_j:
            continue  # a space claimed by the run before (runs meet at one whitespace token)
        if blocks and blocks[-1][0] + blocks[-1][2] == i and blocks[-1][1] + blocks[-1][2] == j:
            start_i, start_j, size = blocks[-1]
            blocks[-1] = (start_i, start_j, size + 1)
        else:
            blocks.append((i, j, 1))
        last_i, last_j = i, j
    return blocks


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
