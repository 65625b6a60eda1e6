"""The packed word lists (:mod:`rephrase_ls.offline.engine.wordcounts`) answer exactly as the
dicts they replace: membership, counts, order; words whose hashes collide are told apart."""

from __future__ import annotations

import gzip
import json
from importlib import resources

import pytest

from rephrase_ls.offline.engine import wordcounts
from rephrase_ls.offline.engine.spelling import LANGUAGES, load_frequencies
from rephrase_ls.offline.engine.wordcounts import WordCounts

WORDS = {
    "a": 48779620,
    "a's": 50,
    "café": 900,
    "déjà": 700,
    "straße": 300,
    "œuvre": 12,
    "naïve": 2**31 - 1,
    "": 5,
    "(eswatini)": 50,
    "word with space": 1,
}


def test_it_answers_as_the_dict() -> None:
    packed = WordCounts(WORDS)
    assert len(packed) == len(WORDS)
    assert list(packed) == list(WORDS)
    assert list(packed.items()) == list(WORDS.items())
    assert list(packed.values()) == list(WORDS.values())
    assert dict(packed) == WORDS
    for word, count in WORDS.items():
        assert word in packed and packed[word] == count and packed.get(word) == count
    for absent in ("b", "cafe", "Café", "café ", "a'", "straß", "word", "\n", "a\n"):
        assert absent not in packed
        assert packed.get(absent) is None and packed.get(absent, 0) == 0
        with pytest.raises(KeyError):
            packed[absent]
    assert 3 not in packed  # type: ignore[comparison-overlap]


class _Colliding(str):
    """A string whose hash is that of every other :class:`_Colliding`."""

    def __hash__(self) -> int:
        return 12345


def test_words_whose_hashes_collide_are_told_apart() -> None:
    words = {_Colliding(w): n for n, w in enumerate(["alpha", "beta", "gamma", "alphas"], 1)}
    packed = WordCounts(words)
    for word, count in words.items():
        assert packed[_Colliding(str(word))] == count
    assert _Colliding("delta") not in packed
    assert _Colliding("alph") not in packed


def test_an_empty_list_and_bad_words() -> None:
    assert len(WordCounts({})) == 0 and "a" not in WordCounts({})
    with pytest.raises(ValueError, match="newline"):
        WordCounts({"two\nlines": 1})
    with pytest.raises(OverflowError):
        WordCounts({"many": 2**31})


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_real_list_is_packed_whole(lang: str) -> None:
    resource = resources.files("spellchecker").joinpath("resources", f"{lang}.json.gz")
    with resource.open("rb") as raw, gzip.GzipFile(fileobj=raw) as fh:
        expected: dict[str, int] = json.loads(fh.read().decode("utf-8"))
    packed = wordcounts.load(lang)
    assert list(packed.items()) == list(expected.items())
    assert all(packed[word] == count for word, count in expected.items())
    assert not any(word + "x" in packed for word in expected if word + "x" not in expected)
    # a quarter of what the dict of Python strings takes, or less
    assert packed.nbytes() < 32 * len(expected)


def test_the_speller_reads_the_packed_lists() -> None:
    assert set(LANGUAGES) >= {"en", "es"}
    assert isinstance(load_frequencies("en"), WordCounts)
