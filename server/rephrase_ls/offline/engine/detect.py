"""Language detection by word log-probabilities under per-language frequency profiles.

The profiles (``data/profiles.json.gz``, built by ``build_profiles``) hold the most frequent
words of each language. A text's score for a language is the sum over its words of the log
probability of the word (a floor for words the profile lacks); words no profile knows do not
score but still count as evidence against every language. The best language wins only when

- the text has enough words (``MIN_WORDS``, or ``MIN_SHORT_WORDS`` with ``MIN_LETTERS``);
- it leads the runner-up by ``MARGIN`` per scored word;
- its profile knows at least ``MIN_COVERAGE`` of the text's words (Dutch or Polish text is
  mostly unknown words with a few shared ones, which must not decide);
- and it clearly beats the runner-up: its profile knows ``COVERAGE_LEAD`` more of the words
  than the runner-up's does, or it leads by ``STRONG_MARGIN`` per scored word (Catalan shares
  most of its short words with Spanish, French and Italian: neither holds for it).

A capitalised word inside a sentence that no profile knows (a name) does not count. The
thresholds were calibrated on tests/data/engine (docs/offline-engine.md).
"""

from __future__ import annotations

import gzip
import json
import math
import re
from array import array
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Final

from .tokens import BREAK, PUNCT, RUN, RUN_LETTERS, WORD, scan

MIN_WORDS: Final = 5
MIN_SHORT_WORDS: Final = 3
MIN_LETTERS: Final = 30
MARGIN: Final = 0.5
MIN_COVERAGE: Final = 0.5
COVERAGE_LEAD: Final = 0.1
STRONG_MARGIN: Final = 2.0
MAX_WORDS: Final = 300
MAX_CHARS: Final = 20_000
_SPLIT = re.compile(r"['’-]")
# In a run (see tokens.scan): the parts of its words (group 1: the apostrophe or hyphen
# before a part inside a word), and what starts a sentence (no groups).
_RUN_PIECES = re.compile(rf"(['’-]?)({RUN_LETTERS}+)|[.!?\n\r]")  # a run's letters only


@dataclass(frozen=True, slots=True)
class _Profiles:
    """The profiles merged into one table, compact: for the word with index ``k``,
    ``probs[k * len(langs) + i]`` is its log-probability in ``langs[i]`` (a floor where that
    profile lacks it), and bit ``i`` of ``known[k]`` says whether that profile knows it."""

    langs: tuple[str, ...]
    index: dict[str, int]
    probs: array[float]
    known: bytes


@lru_cache(maxsize=1)
def _profiles() -> _Profiles:
    """The profiles, loaded on first use."""
    resource = resources.files(__package__).joinpath("data", "profiles.json.gz")
    with resource.open("rb") as raw, gzip.GzipFile(fileobj=raw) as fh:
        counts: dict[str, dict[str, int]] = json.loads(fh.read().decode("utf-8"))
    langs = tuple(sorted(counts))
    logp: list[dict[str, float]] = []
    floors: list[float] = []
    for lang in langs:
        words = counts[lang]
        total = float(sum(words.values()))
        logp.append({w: math.log(c / total) for w, c in words.items()})
        floors.append(math.log(min(words.values()) / total) - 2.0)
    vocabulary = sorted(set().union(*logp))
    index = {word: k for k, word in enumerate(vocabulary)}
    n = len(langs)
    probs = array("d", floors * len(vocabulary))
    known = bytearray(len(vocabulary))
    for i, table in enumerate(logp):
        bit = 1 << i
        for word, value in table.items():
            k = index[word]
            probs[k * n + i] = value
            known[k] |= bit
    return _Profiles(langs, index, probs, bytes(known))


def _words(text: str) -> Iterator[tuple[str, bool]]:
    """The plain words of ``text`` with whether each is capitalised inside a sentence. What the
    tokenizer protects (code, links, quotes, words with digits, placeholders) does not vote;
    "l'homme" gives "l" and "homme". A line break or ``. ! ?`` starts a sentence."""
    sentence_start = True
    for kind, value in scan(text):
        if kind == RUN:
            # In a run an apostrophe or hyphen is always inside a word (see tokens.scan).
            for joiner, part in _RUN_PIECES.findall(value):
                if not part:
                    sentence_start = True  # . ! ? or a line break
                elif joiner:
                    yield part, part[0].isupper()  # "homme" in "l'homme"
                else:
                    yield part, not sentence_start and part[0].isupper()
                    sentence_start = False
        elif kind == WORD:
            inner = not sentence_start
            for part in _SPLIT.split(value):
                if part:
                    yield part, inner and part[0].isupper()
                    inner = True
            sentence_start = False
        elif kind == BREAK or (kind == PUNCT and value[0] in ".!?"):
            sentence_start = True


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a text says about its language (see :func:`evidence`)."""

    scores: dict[str, float]
    """Log-probability of the scored words per language."""
    known: dict[str, int]
    """Per language, how many of the counted words its profile knows."""
    scored: int
    """Counted words known to at least one profile."""
    words: int
    """Counted words: plain words, less capitalised words inside a sentence no profile knows."""
    letters: int
    """Letters of the counted words."""


def evidence(text: str) -> Evidence:
    """Scores and word counts of the first ``MAX_CHARS`` characters (``MAX_WORDS`` words)."""
    profiles = _profiles()
    index = profiles.index
    # Count the words first (the tokenizer stops at the last one needed), then score each
    # distinct word once.
    counted: dict[str, int] = {}
    words = letters = 0
    for raw, capitalised in _words(text[:MAX_CHARS]):
        word = raw.lower()
        if capitalised and word not in index:
            continue  # a name
        counted[word] = counted.get(word, 0) + 1
        words += 1
        letters += len(word)
        if words >= MAX_WORDS:
            break
    n = len(profiles.langs)
    probs, known_bits = profiles.probs, profiles.known
    totals = [0.0] * n
    known = [0] * n
    scored = 0
    for word, count in counted.items():
        k = index.get(word)
        if k is None:
            continue
        scored += count
        base = k * n
        bits = known_bits[k]
        for i in range(n):
            totals[i] += count * probs[base + i]
            if bits >> i & 1:
                known[i] += count
    return Evidence(
        dict(zip(profiles.langs, totals, strict=True)),
        dict(zip(profiles.langs, known, strict=True)),
        scored,
        words,
        letters,
    )


def scores(text: str) -> tuple[dict[str, float], int]:
    """Log-probability per language and the number of words that were scored."""
    found = evidence(text)
    return found.scores, found.scored


def enough_words(words: int, letters: int) -> bool:
    """Whether ``words`` counted words of ``letters`` letters in all are enough to decide."""
    return words >= MIN_WORDS or (words >= MIN_SHORT_WORDS and letters >= MIN_LETTERS)


def decide(found: Evidence) -> str | None:
    """The language ``found`` points to by the rules of this module, or ``None``."""
    if not enough_words(found.words, found.letters) or found.scored == 0:
        return None
    ranked = sorted(found.scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, best_score), (_, second_score) = ranked[0], ranked[1]
    lead = (best_score - second_score) / found.scored
    if lead < MARGIN:
        return None
    coverage = found.known[best] / found.words
    rival = max(n for lang, n in found.known.items() if lang != best) / found.words
    if coverage < MIN_COVERAGE:
        return None
    if coverage - rival < COVERAGE_LEAD and lead < STRONG_MARGIN:
        return None
    return best


def detect_language(text: str) -> str | None:
    """Base code (``de en es fr it pt``) of the language of ``text``; ``None`` when unsure:
    too few words, no clear winner, or too many words the winner does not know (another
    language)."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    return decide(evidence(text))
