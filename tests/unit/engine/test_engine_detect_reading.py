"""How the detector reads a text: which words count, and where a staged reading stops."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.text import detect
from rephrase_ls.text.tokens import tokenize

# Words the profiles know, capitalised or not, names they do not know, and pieces of every
# kind of token.
WORDS = [
    "the", "The", "und", "Und", "que", "Que", "est", "il", "Il", "Paris", "Zorblax", "zorblax",
    "zorb", "Zorb", "Müller", "l'Homme", "d'Artagnan", "well-Known", ". ", "? ", "\n", ", ",
    " (", ") ", "`code`", "x1", "{{1}}", "http://x.org/a", "NASA", "camelCase",
]  # fmt: skip
prose = st.lists(st.sampled_from(WORDS), max_size=60).map(" ".join)


def first_words_evidence(text: str, limit: int) -> detect.Evidence:
    """The evidence of the first ``limit`` counted words of ``text``, read one by one."""
    profiles = detect._profiles()
    counted: Counter[str] = Counter()
    words = letters = 0
    for raw, capitalised in detect.words(text[: detect.MAX_CHARS]):
        word = raw.lower()
        if capitalised and word not in profiles.index:
            continue
        counted[word] += 1
        words += 1
        letters += len(word)
        if words >= limit:
            break
    return detect._score(profiles, counted, words, letters)


def assert_same_evidence(new: detect.Evidence, old: detect.Evidence) -> None:
    assert (new.known, new.scored, new.words, new.letters) == (
        old.known, old.scored, old.words, old.letters,
    )  # fmt: skip
    assert new.scores.keys() == old.scores.keys()
    for lang, score in new.scores.items():
        assert math.isclose(score, old.scores[lang], rel_tol=1e-12)


@settings(max_examples=examples(300))
@given(
    prose | st.text(max_size=80),
    st.integers(min_value=0, max_value=330),
    st.sampled_from(["the ", "Und ", "l'homme ", "zorblax ", "Zorblax. ", "\n", "{{1}} "]),
    st.booleans(),
)
def test_a_settled_reading_is_the_evidence_of_the_words_read(
    text: str, padding: int, word: str, before: bool
) -> None:
    # detect_language stops reading at a stage whose evidence is settled: what it read is
    # the evidence of the text's first words; a reading that does not stop is the full one.
    sample = word * padding + text if before else text + word * padding
    staged, full = detect.evidence(sample, settle=True), detect.evidence(sample)
    if staged.words < full.words:
        assert staged.words >= detect.STAGE_WORDS
        assert detect.settled(staged)
        assert_same_evidence(staged, first_words_evidence(sample, staged.words))
    else:
        assert_same_evidence(staged, full)


def test_at_most_max_words_are_read() -> None:
    found = detect.evidence("the house " * detect.MAX_WORDS)
    assert found.words == detect.MAX_WORDS


@pytest.mark.parametrize(
    ("text", "counted"),
    [
        # "Zorblax" inside a sentence is a name; at a sentence's start it counts.
        ("We met zorb and Zorblax today. Zorblax came too.", 8),
        ("Zorblax met us. Then Zorblax left, (Zorblax) again; zorblax!", 7),
        # A capitalised German noun inside a sentence counts only when some profile knows it
        # ("Mann"); the profiles lack "Ausschuss", "Vorschlag", "Woche", "Hund": read as names.
        ("Der Ausschuss hat den Vorschlag geprüft. Die Woche war lang.", 7),
        ("Der Hund hat den Mann gesehen.", 5),
        # Protected spans do not count; "l'homme" is two words.
        ("See `code` and http://x.org and NASA and l'homme here.", 7),
    ],
)
def test_which_words_count(text: str, counted: int) -> None:
    assert detect.evidence(text).words == counted


def test_words_are_those_of_the_tokens() -> None:
    text = "It's the well-known Müller case, l'homme. Zorblax"
    assert [t.kind for t in tokenize(text)][:3] == ["w", "s", "w"]
    assert list(detect.words(text)) == [
        ("It", False), ("s", False), ("the", False), ("well", False), ("known", False),
        ("Müller", True), ("case", False), ("l", False), ("homme", False), ("Zorblax", False),
    ]  # fmt: skip
