"""The shape of one edit between a word as written and a candidate: which letter differs,
whether it is a typical slip, and how unlikely it is as a misspelling (used by
:mod:`.spelling`'s tiers)."""

from __future__ import annotations

import unicodedata
from typing import Final

#: Tier 4 edit costs (Zipf units), see edit_cost.
COST_DOUBLED: Final = 0.0
COST_LEFT_OUT: Final = 0.5
COST_VOWEL: Final = 0.5
COST_SOUND_ALIKE: Final = 0.75
COST_TOO_MANY: Final = 1.5
COST_CONSONANT: Final = 1.5
COST_TAIL: Final = 1.0


def base_letter(c: str) -> str:
    """The letter without its accent (``é`` -> ``e``)."""
    return unicodedata.normalize("NFD", c)[0]


UMLAUTS: Final = (("ae", "ä"), ("oe", "ö"), ("ue", "ü"))


def umlaut_spellings(word: str) -> set[str]:
    """German words written with ae/oe/ue for ä/ö/ü: each single replacement, and all."""
    out: set[str] = set()
    every = word
    for pair, umlaut in UMLAUTS:
        start = word.find(pair)
        while start != -1:
            out.add(word[:start] + umlaut + word[start + 2 :])
            start = word.find(pair, start + 1)
        every = every.replace(pair, umlaut)
    out.add(every)
    out.discard(word)
    return out


VOWELS: Final = frozenset("aeiouy")


def learner_edit(word: str, candidate: str) -> bool:
    """Whether ``candidate`` (one edit from ``word``) adds a letter or changes a vowel to
    another vowel (accents aside)."""
    if len(candidate) == len(word) + 1:
        return True
    if len(candidate) != len(word):
        return False
    i = first_difference(word, candidate)
    if word[i + 1 :] != candidate[i + 1 :]:
        return False  # two neighbours swapped: a slip, tried before
    return base_letter(word[i]) in VOWELS and base_letter(candidate[i]) in VOWELS


# Consonants written for one another by sound (c/k/s, f/v/ph, g/j...).
SOUND_ALIKE: Final = frozenset(
    {frozenset(p) for p in ("ck", "cs", "ks", "sz", "fv", "gj", "dt", "bp", "mn", "cq", "kq")}
)


def edit_cost(word: str, candidate: str) -> float:
    """How unlikely the one edit from ``candidate`` (meant) to ``word`` (written) is as a
    misspelling, in Zipf units: a doubled letter or swapped neighbours cost nothing, a letter
    left out or a vowel for a vowel little, a letter too many or a consonant for another more
    (less for sound-alike ones), and any edit in the last two letters more (an inflection)."""
    i = first_difference(word, candidate)
    if len(candidate) == len(word) + 1:  # a letter left out
        doubled = candidate[i] == candidate[i - 1] if i else False
        doubled = doubled or (i + 1 < len(candidate) and candidate[i] == candidate[i + 1])
        cost = COST_DOUBLED if doubled else COST_LEFT_OUT
    elif len(candidate) == len(word) - 1:  # a letter too many
        doubled = (i and word[i] == word[i - 1]) or (i + 1 < len(word) and word[i] == word[i + 1])
        cost = COST_DOUBLED if doubled else COST_TOO_MANY
    elif word[i + 1 :] != candidate[i + 1 :]:
        cost = COST_DOUBLED  # swapped neighbours
    else:
        a, b = base_letter(word[i]), base_letter(candidate[i])
        if a in VOWELS and b in VOWELS:
            cost = COST_VOWEL
        elif frozenset((a, b)) in SOUND_ALIKE:
            cost = COST_SOUND_ALIKE
        else:
            cost = COST_CONSONANT
    if i >= min(len(word), len(candidate)) - 2:
        cost += COST_TAIL
    return cost


def plain_slip(word: str, candidate: str) -> bool:
    """Whether ``word`` is ``candidate`` with a slip of the kinds that rarely make another
    word: a letter left out, two neighbours swapped, a vowel for a vowel, or a vowel or a
    doubled letter too many (not the last letter: "marrede" is not "marred"). A consonant for
    another or a consonant too many is as often another word meant ("cobard" for "cupboard",
    "disided" for "decided", "cartsel" for "castle")."""
    i = first_difference(word, candidate)
    if len(candidate) == len(word) + 1:
        return True
    if len(candidate) == len(word) - 1:
        extra = word[i]
        doubled = (i and word[i - 1] == extra) or word[i + 1 : i + 2] == extra
        return i < len(word) - 1 and (base_letter(extra) in VOWELS or bool(doubled))
    if word[i + 1 :] != candidate[i + 1 :]:
        return True  # swapped neighbours
    return base_letter(word[i]) in VOWELS and base_letter(candidate[i]) in VOWELS


def skeleton(word: str) -> str:
    """The first letter and the consonants after it, a doubled consonant once, the vowels
    (``VOWELS``) left out but a final y: ``necessary``, ``neccasary`` -> ``ncsry``. Learners
    mostly get the consonants of a word right and its vowels and doubled letters wrong."""
    out = word[:1]
    for c in word[1:]:
        if base_letter(c) not in VOWELS and c != out[-1:]:
            out += c
    # A final y is an ending (-y, -ly): "geographicaly" is not "geographical".
    return out + "y" if word.endswith("y") and len(word) > 1 else out


# Consonants a learner writes for one another by sound, each mapped to one of its class.
_SOUND_CLASS: Final = str.maketrans("kqszvtpjn", "ccccfdbgm")


def sound_skeleton(word: str) -> str:
    """:func:`skeleton` with consonants that sound alike merged (``c k q s z``, ``f v``, ``d t``,
    ``b p``, ``g j``, ``m n``): ``council``, ``counsel`` -> ``cmcl``; the words a
    misspelling may have come from by sound."""
    return skeleton(word.translate(_SOUND_CLASS))


def edit_distance(a: str, b: str) -> int:
    """The number of letters added, left out, changed or swapped with a neighbour that make
    ``b`` from ``a`` (optimal string alignment)."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], prev2[j - 2] + 1)
        prev2, prev = prev, row
    return prev[-1]


def left_out(word: str, candidate: str) -> bool:
    """Whether ``candidate`` is ``word`` with one letter added."""
    return len(candidate) == len(word) + 1


def first_difference(a: str, b: str) -> int:
    """Index of the first character where ``a`` and ``b`` differ."""
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


def strip_accents(word: str) -> str:
    """``déjà`` -> ``deja`` (``ß`` and other letters without a base letter stay)."""
    return "".join(base_letter(c) for c in word)


def learner_cost(word: str, candidate: str, cap: float) -> float:
    """How unlikely ``word`` is as a misspelling of ``candidate`` over any number of edits, in
    the Zipf units of :func:`edit_cost` (a letter left out ``COST_LEFT_OUT``, a vowel for a
    vowel ``COST_VOWEL``, a sound-alike consonant ``COST_SOUND_ALIKE``, another consonant or a
    letter too many ``COST_CONSONANT``, a doubled letter added or dropped nothing, two
    neighbours swapped a quarter; only the second letter of a pair is free), or ``inf`` once
    it exceeds ``cap`` (the search stops there)."""
    n, m = len(word), len(candidate)
    prev2: list[float] = []
    prev = [0.0] * (m + 1)
    for j in range(1, m + 1):
        prev[j] = prev[j - 1] + _left_out_cost(candidate, j - 1)
    for i in range(1, n + 1):
        a = word[i - 1]
        extra = COST_DOUBLED if _doubled_at(word, i - 1) else COST_TOO_MANY
        row = [prev[0] + extra] + [0.0] * m
        for j in range(1, m + 1):
            b = candidate[j - 1]
            best = min(
                prev[j] + extra,
                row[j - 1] + _left_out_cost(candidate, j - 1),
                prev[j - 1] + _letter_cost(a, b),
            )
            if i > 1 and j > 1 and a != b and a == candidate[j - 2] and word[i - 2] == b:
                best = min(best, prev2[j - 2] + COST_SWAPPED)
            row[j] = best
        if min(row) > cap:
            return float("inf")
        prev2, prev = prev, row
    return prev[m] if prev[m] <= cap else float("inf")


COST_SWAPPED: Final = 0.25


def _doubled_at(word: str, i: int) -> bool:
    """Whether the letter at ``i`` repeats the one before it (the second of a pair: only one
    letter of a pair is free to add or drop)."""
    return i > 0 and word[i - 1] == word[i]


def _left_out_cost(candidate: str, j: int) -> float:
    """The cost of leaving out ``candidate``'s letter ``j`` (nothing for one of a pair)."""
    return COST_DOUBLED if _doubled_at(candidate, j) else COST_LEFT_OUT


def _letter_cost(a: str, b: str) -> float:
    """The cost of writing ``a`` for ``b``."""
    if a == b:
        return 0.0
    x, y = base_letter(a), base_letter(b)
    if x in VOWELS and y in VOWELS:
        return COST_VOWEL
    if frozenset((x, y)) in SOUND_ALIKE:
        return COST_SOUND_ALIKE
    return COST_CONSONANT
