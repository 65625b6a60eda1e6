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

:func:`detect_language` reads at most ``MAX_WORDS`` words, in stages: once it has read
``STAGE_WORDS`` words (and again every ``STAGE_WORDS`` words after that), it stops if what it
has read settles the language, that is if every rule above holds by a wide margin: a lead of
``SETTLED_MARGIN`` per scored word, ``SETTLED_COVERAGE`` of the words known, and a coverage lead
of ``SETTLED_COVERAGE_LEAD`` (:func:`settled`). So a text is judged by its first words when
they are clearly in one language: a long text whose first 60 words are clearly English is
English even if it goes on in Dutch, as one whose first 300 words are English is. A text that
mixes languages within what has been read does not settle, and is read on.
On the engine's labelled sets and the bench's paragraphs every stopped reading gives the
language the full reading gives.

Japanese, Korean and Chinese are told by their script first (:func:`script_language`): kana
means Japanese, Hangul Korean, Han characters without kana Chinese. Words in those scripts do
not vote in the word profiles.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from array import array
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Final

from rephrase_ls.text.tokens import BREAK, PUNCT, WORD, iter_tokens

MIN_WORDS: Final = 5
MIN_SHORT_WORDS: Final = 3
MIN_LETTERS: Final = 30
MARGIN: Final = 0.5
MIN_COVERAGE: Final = 0.5
COVERAGE_LEAD: Final = 0.1
STRONG_MARGIN: Final = 2.0
MAX_WORDS: Final = 300
STAGE_WORDS: Final = 60
SETTLED_MARGIN: Final = 2 * MARGIN
SETTLED_COVERAGE: Final = MIN_COVERAGE + 0.2
SETTLED_COVERAGE_LEAD: Final = 2 * COVERAGE_LEAD
MAX_CHARS: Final = 20_000
_SPLIT = re.compile(r"['’-]")
#: Characters of the scripts :func:`script_language` reads (kana, Hangul, Han).
_KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9d]")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")
_CJK = re.compile(
    r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    r"\uac00-\ud7af\uf900-\ufaff\uff66-\uff9d\U00020000-\U0003134f]"
)
_LETTER = re.compile(r"[^\W\d_]")
#: A script decides when its characters, each weighing this many Latin letters (a CJK
#: character carries about as much as a short word), outweigh the other letters.
CJK_WEIGHT: Final = 3
#: Fewest characters of those scripts that decide (a one-character text says little).
MIN_CJK: Final = 2
#: Of the Han and kana characters, at least this share must be kana for Japanese (a Chinese
#: text quoting one Japanese name stays Chinese).
MIN_KANA_SHARE: Final = 0.05


@dataclass(frozen=True, slots=True)
class _Profiles:
    """The profiles merged into one table, a column per language: for the word with index
    ``k``, ``probs[i][k]`` is its log-probability in ``langs[i]``, or ``floors[i]`` where that
    profile lacks it."""

    langs: tuple[str, ...]
    index: dict[str, int]
    probs: tuple[array[float], ...]
    floors: tuple[float, ...]


@lru_cache(maxsize=1)
def _profiles() -> _Profiles:
    """The profiles, loaded on first use."""
    resource = resources.files(__package__).joinpath("data", "profiles.json.gz")
    with resource.open("rb") as raw, gzip.GzipFile(fileobj=raw) as fh:
        counts: dict[str, dict[str, int]] = json.loads(fh.read().decode("utf-8"))
    langs = tuple(sorted(counts))
    vocabulary = sorted(set().union(*counts.values()))
    index = {word: k for k, word in enumerate(vocabulary)}
    probs: list[array[float]] = []
    floors: list[float] = []
    for lang in langs:
        words = counts[lang]
        total = float(sum(words.values()))
        floor = math.log(min(words.values()) / total) - 2.0
        column = array("d", [floor]) * len(vocabulary)
        for word, count in words.items():
            column[index[word]] = math.log(count / total)
        probs.append(column)
        floors.append(floor)
    return _Profiles(langs, index, tuple(probs), tuple(floors))


def is_common_word(word: str) -> bool:
    """Whether ``word`` (lower case) is among the most frequent words of a language the
    profiles know (``this``, ``die``, ``cargo``; not ``zlib``, ``git``, ``npm``)."""
    return word in _profiles().index


def words(text: str) -> Iterator[tuple[str, bool]]:
    """The plain words of ``text`` with whether each is capitalised inside a sentence. What the
    tokenizer protects (code, links, quotes, words with digits, placeholders) does not vote;
    "l'homme" gives "l" and "homme"; words of Japanese, Korean or Chinese script do not vote
    (:func:`script_language` tells those). A line break or ``. ! ? 。 ！ ？`` starts a sentence.
    (What :func:`evidence` counts, here one word at a time.)"""
    sentence_start = [True]
    for kind, value in iter_tokens(text):
        yield from _piece_words(kind, value, sentence_start)


def _piece_words(kind: str, value: str, sentence_start: list[bool]) -> Iterator[tuple[str, bool]]:
    """The words of one token as :func:`words` gives them. ``sentence_start[0]`` says whether a
    sentence starts at the token; reading it sets it to whether one starts after it."""
    if kind == WORD:
        if _CJK.search(value):
            sentence_start[0] = False
            return  # told by its script (script_language), not by the word profiles
        inner = not sentence_start[0]
        sentence_start[0] = False
        for part in _SPLIT.split(value):
            if part:
                yield part, inner and part[0].isupper()
                inner = True
    elif kind == BREAK or (kind == PUNCT and value[0] in ".!?。！？"):
        sentence_start[0] = True


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


def evidence(text: str, *, settle: bool = False) -> Evidence:
    """Scores and word counts of the first ``MAX_CHARS`` characters (``MAX_WORDS`` words). With
    ``settle``,
    reading stops at the first stage of ``STAGE_WORDS`` words whose evidence is settled
    (see :func:`settled`): the evidence of the words read so far."""
    profiles = _profiles()
    index = profiles.index
    counted: Counter[str] = Counter()
    words = letters = 0
    limit = STAGE_WORDS if settle else MAX_WORDS
    sentence_start = [True]
    for kind, value in iter_tokens(text[:MAX_CHARS]):
        for raw, capitalised in _piece_words(kind, value, sentence_start):
            word = raw.lower()
            if capitalised and word not in index:
                continue  # a name
            counted[word] += 1
            words += 1
            letters += len(word)
            if words < limit:
                continue
            found = _score(profiles, counted, words, letters)
            if limit >= MAX_WORDS or settled(found):
                return found
            limit = min(words + STAGE_WORDS, MAX_WORDS)
    return _score(profiles, counted, words, letters)


def _score(profiles: _Profiles, counted: Counter[str], words: int, letters: int) -> Evidence:
    """The evidence of the words ``counted`` (``words`` and ``letters``: their counts, less
    the names among them). A word no profile knows scores nothing."""
    langs = profiles.langs
    sums = [0.0] * len(langs)
    known = [0] * len(langs)
    scored = 0
    for word, count in counted.items():
        k = profiles.index.get(word)
        if k is None:
            continue
        scored += count
        for i, column in enumerate(profiles.probs):
            log = column[k]
            sums[i] += count * log
            if log != profiles.floors[i]:
                known[i] += count
    return Evidence(
        dict(zip(langs, sums, strict=True)),
        dict(zip(langs, known, strict=True)),
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


def _standing(found: Evidence) -> tuple[str, float, float, float] | None:
    """The leading language of ``found``, its lead over the runner-up per scored word, the
    share of the words its profile knows and the largest share another profile knows; ``None``
    for too few words."""
    if not enough_words(found.words, found.letters) or found.scored == 0:
        return None
    # Highest score first, ties by name.
    ranked = sorted(found.scores.items(), key=lambda item: (-item[1], item[0]))
    (best, best_score), (_, second_score) = ranked[0], ranked[1]
    lead = (best_score - second_score) / found.scored
    known = found.known[best]
    counts = sorted(found.known.values())  # the largest other than the best's own:
    rival = counts[-2] if counts[-1] == known else counts[-1]
    return best, lead, known / found.words, rival / found.words


def leading_language(text: str) -> str | None:
    """The language whose profile scores ``text`` highest, however narrow its lead (``None``
    for too few words): a hint where :func:`detect_language` is unsure."""
    standing = _standing(evidence(text))
    return standing[0] if standing is not None else None


def decide(found: Evidence) -> str | None:
    """The language ``found`` points to by the rules of this module, or ``None``."""
    standing = _standing(found)
    if standing is None:
        return None
    best, lead, coverage, rival = standing
    if lead < MARGIN or coverage < MIN_COVERAGE:
        return None
    if coverage - rival < COVERAGE_LEAD and lead < STRONG_MARGIN:
        return None
    return best


def settled(found: Evidence) -> bool:
    """Whether ``found`` settles the language so clearly that reading on would not change it
    (see the module's docstring): enough words, and every rule of :func:`decide` holds by a
    wide margin."""
    if found.words < STAGE_WORDS:
        return False
    standing = _standing(found)
    if standing is None:
        return False
    _, lead, coverage, rival = standing
    return (
        lead >= SETTLED_MARGIN
        and coverage >= SETTLED_COVERAGE
        and coverage - rival >= SETTLED_COVERAGE_LEAD
    )


def script_counts(text: str) -> tuple[int, int, int, int]:
    """Kana, Hangul and Han characters of ``text`` (its first ``MAX_CHARS``), and its other
    letters."""
    sample = text[:MAX_CHARS]
    kana = len(_KANA.findall(sample))
    hangul = len(_HANGUL.findall(sample))
    han = len(_HAN.findall(sample))
    letters = len(_LETTER.findall(sample))
    return kana, hangul, han, letters - kana - hangul - han


def script_language(text: str) -> str | None:
    """``ja``, ``ko`` or ``zh`` when the text is written mostly in their scripts (see
    :data:`CJK_WEIGHT`): Hangul → ``ko``, kana → ``ja``, Han without kana → ``zh``; ``None``
    otherwise."""
    kana, hangul, han, other = script_counts(text)
    cjk = kana + hangul + han
    if cjk < MIN_CJK or cjk * CJK_WEIGHT <= other:
        return None
    if hangul > kana + han:
        return "ko"
    if kana and kana >= MIN_KANA_SHARE * (kana + han):
        return "ja"
    return "zh" if han >= hangul else "ko"


#: Most Han characters of a text read as a heading or a name (see :func:`is_han_heading`).
MAX_HEADING_HAN: Final = 30
_CLAUSE_MARKS = re.compile(r"[。、，！？；：]")


def is_han_heading(text: str) -> bool:
    """Whether the text is a few Han characters (no kana, no Hangul, no sentence or clause
    mark): a heading or a name in kanji, which may be Japanese as well as Chinese."""
    kana, hangul, han, _other = script_counts(text)
    return (
        0 < han <= MAX_HEADING_HAN
        and kana == 0
        and hangul == 0
        and _CLAUSE_MARKS.search(text) is None
    )


def detect_language(text: str) -> str | None:
    """Base code (``de en es fr it pt``, or ``ja ko zh`` from the script) of the language of
    ``text``; ``None`` when unsure: too few words, no clear winner, or too many words the
    winner does not know (another language)."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    by_script = script_language(text)
    if by_script is not None:
        return by_script
    return decide(evidence(text, settle=True))
