"""Language detection by word log-probabilities under per-language frequency profiles.

The profiles (``data/profiles.json.gz``, built by ``build_profiles``) hold the most frequent
words of each language. A text's score for a language is the sum over its words of the log
probability of the word (a floor for words the profile lacks); words no profile knows are
ignored. The best language wins when it leads the runner-up by ``MARGIN`` per scored word.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from functools import lru_cache
from importlib import resources
from typing import Final

from .tokens import WORD, tokenize

MIN_WORDS: Final = 2
MARGIN: Final = 0.5
MAX_WORDS: Final = 300
MAX_CHARS: Final = 20_000
_SPLIT = re.compile(r"['’-]")


@lru_cache(maxsize=1)
def _profiles() -> tuple[dict[str, dict[str, float]], dict[str, float]]:
    """Per-language log-probabilities and floors, loaded on first use."""
    resource = resources.files(__package__).joinpath("data", "profiles.json.gz")
    with resource.open("rb") as raw, gzip.GzipFile(fileobj=raw) as fh:
        counts: dict[str, dict[str, int]] = json.loads(fh.read().decode("utf-8"))
    logp: dict[str, dict[str, float]] = {}
    floors: dict[str, float] = {}
    for lang, words in counts.items():
        total = float(sum(words.values()))
        logp[lang] = {w: math.log(c / total) for w, c in words.items()}
        floors[lang] = math.log(min(words.values()) / total) - 2.0
    return logp, floors


def _words(text: str) -> list[str]:
    """The plain words of ``text``: what the tokenizer protects (code, links, quotes, words
    with digits, placeholders) does not vote; "l'homme" gives "l" and "homme"."""
    out: list[str] = []
    for token in tokenize(text):
        if token.kind == WORD:
            out.extend(_SPLIT.split(token.text))
    return out


def scores(text: str) -> tuple[dict[str, float], int]:
    """Log-probability per language and the number of words that were scored."""
    logp, floors = _profiles()
    totals = dict.fromkeys(logp, 0.0)
    scored = 0
    for raw in _words(text[:MAX_CHARS]):
        word = raw.lower()
        hits = [lang for lang, table in logp.items() if word in table]
        if not hits:
            continue
        scored += 1
        for lang, table in logp.items():
            totals[lang] += table.get(word, floors[lang])
        if scored >= MAX_WORDS:
            break
    return totals, scored


def detect_language(text: str) -> str | None:
    """Base code (``de en es fr it pt``) of the language of ``text``; ``None`` when unsure."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    totals, scored = scores(text)
    if scored < MIN_WORDS:
        return None
    ranked = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, best_score), (_, second_score) = ranked[0], ranked[1]
    if best_score - second_score < MARGIN * scored:
        return None
    return best
