"""Minimal word-level edits between two texts.

Both texts are cut into tokens: words (letters, digits, with their combining marks; each Han
character, kana and Hangul syllable on its own), runs of
whitespace, and single punctuation or symbol characters (with any combining marks, variation
selectors and zero-width-joined characters that follow, so an emoji sequence stays one token).
The tokens are aligned and only the differing tokens become edits, so unchanged words, and
the cursor and marks on them, stay put.

Alignment (:mod:`rephrase_ls.text.align`), for large texts that differ a little: the common
prefix and suffix are cut off where whitespace meets non-whitespace (a token boundary in both
texts); the rest is aligned line by line (lines are far more often unique than words), and only
the lines that differ are aligned token by token.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate

from rephrase_ls.text.align import align, matching_blocks

__all__ = [
    "TextEdit",
    "apply_edits",
    "edits_from_blocks",
    "tokenize",
    "word_edits",
]


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
    # Scripts written without spaces: each ideograph / kana is a word of its own; so is each
    # Hangul syllable, so that a Korean phrase (a word with its particles) is edited by the
    # syllable, not replaced whole.
    ideograph = (
        "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uf900-\ufaff\U00020000-\U0003134f"
    )
    letter = f"[^\\W{ideograph}]"  # a word character that is not an ideograph
    joiner = f"[{mark_class}\u200d]"  # a mark or a zero-width joiner, inside a word
    # A word is any run of letters and joiners. Written as letters-then-joiners loops (not as
    # one alternation repeated per character) so that plain words match in one class scan.
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
    for li, lj, size in [*align(a_lines, b_lines), (len(a_lines), len(b_lines), 0)]:
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
