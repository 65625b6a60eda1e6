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
English even if it goes on in Dutch, as one whose first 300 words are English always was. A
text that mixes languages within what has been read does not settle, and is read on as before.
On the engine's labelled sets and the bench's paragraphs every stopped reading gives the
language the full reading gives.
"""

from __future__ import annotations

import gzip
import json
import math
import re
from array import array
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import repeat
from operator import mul, neg
from typing import Final

from rephrase_ls.text.tokens import BREAK, PUNCT, RUN, RUN_LETTERS, WORD, scan

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
# In a run (see tokens.scan): the parts of its words (group 1: the apostrophe or hyphen
# before a part inside a word), and what starts a sentence (no groups).
_RUN_PIECES = re.compile(rf"(['’-]?)({RUN_LETTERS}+)|[.!?\n\r]")  # a run's letters only
# For counting a run in bulk (see _count_run): the parts of its words, its letters, and what
# starts a sentence.
_RUN_WORD = re.compile(f"{RUN_LETTERS}+")
_RUN_LETTER_SET: Final = frozenset(c for c in map(chr, range(256)) if re.match(RUN_LETTERS, c))
_SENTENCE_MARK = re.compile(r"[.!?\n\r]")
_SENTENCE_MARKS: Final = ".!?\n\r"
_BETWEEN_WORDS: Final = " \t([,;:)]"
_MIN_CUT: Final = 8  # see evidence()  # in a run, what is neither a letter nor a mark nor a joiner


@dataclass(frozen=True, slots=True)
class _Profiles:
    """The profiles merged into one table, a column per language: for the word with index
    ``k``, ``probs[i][k]`` is its log-probability in ``langs[i]`` (a floor where that profile
    lacks it). ``packed[k]`` packs all that is summed for the word into one integer, so that
    one integer sum over a text's words gives every count and score at once: in
    ``KNOWN_BITS`` bits per language and one more field, a 1 for each profile that knows the
    word and a 1 for "some profile knows it"; above them, from bit ``SCORES_AT``, in
    ``SCORE_BITS`` bits per language, minus its log-probability in fixed point (``SCALE``
    units: a sum of them is exact). The last index, ``len(index)``, stands for any other word:
    log-probability 0.0 and nothing known."""

    langs: tuple[str, ...]
    index: dict[str, int]
    probs: tuple[array[float], ...]
    packed: tuple[int, ...]

    @property
    def other(self) -> int:
        """The index of a word no profile knows."""
        return len(self.index)


#: Bits per language in a packed count of known words (counts stay below MAX_WORDS).
KNOWN_BITS: Final = 16
#: Fixed-point unit of a packed score (a log-probability is off by at most half of it).
SCALE: Final = 1 << 48
#: Bits per language of a packed score: |log-probability| < 32, times at most MAX_WORDS.
SCORE_BITS: Final = 64
#: Where the packed scores start (above the known counts of up to 7 fields).
SCORES_AT: Final = KNOWN_BITS * 8


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
    floors = 0  # every language's floor, packed
    for i in range(len(langs)):
        words = counts[langs[i]]
        floor = math.log(min(words.values()) / sum(words.values())) - 2.0
        floors += round(-floor * SCALE) << (SCORES_AT + SCORE_BITS * i)
    packed = [floors | 1 << (KNOWN_BITS * len(langs))] * len(vocabulary) + [0]
    for i, lang in enumerate(langs):
        words = counts[lang]
        total = float(sum(words.values()))
        floor = math.log(min(words.values()) / total) - 2.0
        column = array("d", [floor]) * len(vocabulary)
        column.append(0.0)
        bit = 1 << (KNOWN_BITS * i)
        shift = SCORES_AT + SCORE_BITS * i
        fixed_floor = round(-floor * SCALE)
        for word, count in words.items():
            k = index[word]
            column[k] = log = math.log(count / total)
            packed[k] += bit + (round(-log * SCALE) - fixed_floor << shift)
        probs.append(column)
    return _Profiles(langs, index, tuple(probs), tuple(packed))


def words(text: str) -> Iterator[tuple[str, bool]]:
    """The plain words of ``text`` with whether each is capitalised inside a sentence. What the
    tokenizer protects (code, links, quotes, words with digits, placeholders) does not vote;
    "l'homme" gives "l" and "homme". A line break or ``. ! ?`` starts a sentence. (What
    :func:`evidence` counts, here one word at a time.)"""
    sentence_start = [True]
    for kind, value in scan(text):
        yield from _piece_words(kind, value, sentence_start)


def _piece_words(kind: str, value: str, sentence_start: list[bool]) -> Iterator[tuple[str, bool]]:
    """The words of one piece of ``tokens.scan`` as :func:`words` gives them, one by one.
    ``sentence_start[0]`` says whether a sentence starts at the piece; reading the piece sets
    it to whether one starts after what has been read."""
    if kind == RUN:
        # In a run an apostrophe or hyphen is always inside a word (see tokens.scan).
        starts = sentence_start[0]
        for m in _RUN_PIECES.finditer(value):  # lazily: the reader may stop at MAX_WORDS
            joiner, part = m.groups()
            if not part:
                starts = sentence_start[0] = True  # . ! ? or a line break
            elif joiner:
                yield part, part[0].isupper()  # "homme" in "l'homme"
            else:
                sentence_start[0] = False
                yield part, not starts and part[0].isupper()
                starts = False
    elif kind == WORD:
        inner = not sentence_start[0]
        sentence_start[0] = False
        for part in _SPLIT.split(value):
            if part:
                yield part, inner and part[0].isupper()
                inner = True
    elif kind == BREAK or (kind == PUNCT and value[0] in ".!?"):
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


def _count_run(
    run: str, sentence_start: bool, index: dict[str, int], counted: Counter[str], room: int
) -> tuple[int, int, bool] | None:
    """Count the words of a run (see ``tokens.scan``) into ``counted`` as :func:`words` and
    :func:`evidence` would one by one: the words and letters counted and whether a sentence
    starts after the run. ``None`` (and nothing counted) when it has more than ``room`` words.

    Every part of the run's words goes into ``counted``, names too: a name is a word no
    profile knows, which scores nothing, so only the word and letter counts leave it out.
    """
    parts = _RUN_WORD.findall(run.lower())  # a run's letters lower-case to letters, 1 to 1
    if not parts:
        return 0, 0, sentence_start or _SENTENCE_MARK.search(run) is not None
    words = len(parts)
    letters = sum(map(len, parts))
    # In a run a capital starts a word and the rest of the word is lower case (a capital
    # after a letter makes the run a "maybe protected" one, see tokens.scan); so a name, a
    # capitalised word no profile knows, is a capitalised form of an unknown part.
    for part in set(parts).difference(index):
        name = part[0].upper() + part[1:]
        if name == part:
            continue
        size = len(name)
        start = run.find(name)
        while start >= 0:
            end = start + size
            # A whole word (a capital in a run never follows a letter; check the end).
            if end == len(run) or run[end] not in _RUN_LETTER_SET:
                # A name unless it starts a sentence: after a sentence mark, or at the run's
                # start when a sentence starts there.
                at = start - 1
                while at >= 0 and run[at] in _BETWEEN_WORDS:
                    at -= 1
                if not (run[at] in _SENTENCE_MARKS if at >= 0 else sentence_start):
                    words -= 1
                    letters -= len(part)
            start = run.find(name, end)
    if words > room:
        return None
    counted.update(parts)
    # After the run's last word or sentence mark, only spaces and punctuation.
    return words, letters, run.rstrip(_BETWEEN_WORDS)[-1] in _SENTENCE_MARKS


def evidence(
    text: str, scanned: Sequence[tuple[str, str]] | None = None, *, settle: bool = False
) -> Evidence:
    """Scores and word counts of the first ``MAX_CHARS`` characters (``MAX_WORDS`` words).
    ``scanned``: ``list(tokens.scan(text))`` when the caller has it (used when ``text`` is
    at most ``MAX_CHARS`` long), so that the text is not tokenized twice. With ``settle``,
    reading stops at the first stage of ``STAGE_WORDS`` words whose evidence is settled
    (see :func:`settled`): the evidence of the words read so far."""
    profiles = _profiles()
    index = profiles.index
    # Count the words first (the tokenizer stops at the last one needed), then score each
    # distinct word once.
    counted: Counter[str] = Counter()
    words = letters = 0
    sentence_start = True
    limit = STAGE_WORDS if settle else MAX_WORDS
    pieces = scanned if scanned is not None and len(text) <= MAX_CHARS else scan(text[:MAX_CHARS])
    for kind, value in pieces:
        while True:
            rest = ""
            if kind == RUN:
                # Most of a text is runs: counted in bulk. A run that may hold more words than
                # the room left is cut after ``room`` of its words (a run's words are separated
                # by spaces and line breaks, and each holds a word, perhaps of several parts:
                # see tokens.scan), and the rest is read as a run of its own. (At least
                # _MIN_CUT words: names do not count, and a run of them must not be cut one
                # word at a time; past MAX_WORDS, _count_run refuses and the words are read
                # one by one.)
                room = max(limit - words, _MIN_CUT)
                if len(value) >= 2 * room:  # shorter: fewer than ``room`` words of any kind
                    split = value.split(None, room)
                    if len(split) > room:
                        cut = len(value) - len(split[-1])
                        value, rest = value[:cut], value[cut:]
                bulk = _count_run(value, sentence_start, index, counted, MAX_WORDS - words)
                if bulk is not None:
                    run_words, run_letters, sentence_start = bulk
                    words += run_words
                    letters += run_letters
                    kind = ""  # counted
            if kind:
                state = [sentence_start]
                for raw, capitalised in _piece_words(kind, value, state):
                    word = raw.lower()
                    if capitalised and word not in index:
                        continue  # a name
                    counted[word] = counted.get(word, 0) + 1
                    words += 1
                    letters += len(word)
                    if words >= MAX_WORDS:
                        break
                sentence_start = state[0]
            if words >= limit:
                if limit >= MAX_WORDS:
                    return _score(profiles, counted, words, letters)
                found = _score(profiles, counted, words, letters)
                if settled(found):
                    return found
                limit = min(words + STAGE_WORDS, MAX_WORDS)
            if not rest:
                break
            kind, value = RUN, rest
    return _score(profiles, counted, words, letters)


def _score(profiles: _Profiles, counted: Counter[str], words: int, letters: int) -> Evidence:
    """The evidence of the words ``counted`` (``words`` and ``letters``: their counts, less
    the names among them)."""
    # Each distinct word once, no loop in Python: its index (``other`` for a word no profile
    # knows, which adds nothing), and one sum of count times packed entry (see _Profiles).
    found = map(profiles.index.get, counted, repeat(profiles.other))
    entries = map(profiles.packed.__getitem__, found)
    total = sum(map(mul, counted.values(), entries))
    n = len(profiles.langs)
    mask = (1 << KNOWN_BITS) - 1
    known = [total >> (KNOWN_BITS * i) & mask for i in range(n + 1)]
    mask = (1 << SCORE_BITS) - 1
    scores = [-(total >> (SCORES_AT + SCORE_BITS * i) & mask) / SCALE for i in range(n)]
    return Evidence(
        dict(zip(profiles.langs, scores, strict=True)),
        dict(zip(profiles.langs, known[:n], strict=True)),
        known[n],
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
    scores = found.scores
    # Highest score first, ties by name: (minus score, name) pairs in ascending order.
    ranked = sorted(zip(map(neg, scores.values()), scores, strict=True))
    (minus_best, best), (minus_second, _) = ranked[0], ranked[1]
    lead = (minus_second - minus_best) / found.scored
    known = found.known[best]
    counts = sorted(found.known.values())  # the largest other than the best's own:
    rival = counts[-2] if counts[-1] == known else counts[-1]
    return best, lead, known / found.words, rival / found.words


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


def detect_language(text: str, scanned: Sequence[tuple[str, str]] | None = None) -> str | None:
    """Base code (``de en es fr it pt``) of the language of ``text``; ``None`` when unsure:
    too few words, no clear winner, or too many words the winner does not know (another
    language). ``scanned``: see :func:`evidence`."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    return decide(evidence(text, scanned, settle=True))
