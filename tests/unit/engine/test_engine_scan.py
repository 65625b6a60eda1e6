"""tokens.scan (runs of plain tokens) against the token-by-token tokenizer it speeds up: the
engine's shadow string and the detector's words must be exactly what the tokens give."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rephrase_ls.offline import engine
from rephrase_ls.text import detect
from rephrase_ls.text.tokens import (
    BREAK,
    PUNCT,
    RUN,
    WORD,
    Token,
    iter_tokens,
    scan,
    tokenize,
)

# Pieces that meet every alternative of the tokenizer and every edge of a run.
PIECES = [
    "word", "Word", "WORD", "camelCase", "l'homme", "well-known", "don’t", "Nª", "ºC", "Ärger",
    "straße", "ÉTÉ", "œuvre", "Œuvre", "Ωmega", "ΑΒΓ", "日本語", "x1", "a_b", "é", "I", "A-B",
    " ", "  ", "\t", "\n", "\r\n", "\u00a0", "\u202f", "\u2028", ".", "..", "...", ",", ";", ":",
    "!", "?", ")", "(", "]", "[", "-", "'", "’", "‘", '"', "“", "”", "„", "«", "»", "`", "``",
    "{{1}}", "\ue001", "@", "a@b.io", "http://x.org/a", "www.x.org", "./a", "~/b", "C:\\d",
    "a/b", "file.txt", "e.g.", "Ph.D.", "#", "😀", "\u0301", "1", "_", "¼", "²", "ª", "µ", "ÿ",
    "×", "÷",
]  # fmt: skip


def old_shadow(text: str, lang: str) -> tuple[str, list[str]]:
    """The engine's shadow as it was built from the token list."""
    tokens = tokenize(text)
    engine._fix_quotes(tokens, lang)
    parts: list[str] = []
    saved: list[str] = []
    for t in tokens:
        mark = engine._MARK_OF.get(t.kind)
        if mark is None:
            parts.append(t.text)
        else:
            parts.append(mark)
            saved.append(t.text)
    return "".join(parts), saved


def old_words(text: str) -> list[tuple[str, bool]]:
    """The detector's words as they were read from the tokens."""
    out: list[tuple[str, bool]] = []
    sentence_start = True
    for kind, value in iter_tokens(text):
        if kind == WORD:
            inner = not sentence_start
            for part in detect._SPLIT.split(value):
                if part:
                    out.append((part, inner and part[0].isupper()))
                    inner = True
            sentence_start = False
        elif kind == BREAK or (kind == PUNCT and value[0] in ".!?"):
            sentence_start = True
    return out


texts = st.lists(st.sampled_from(PIECES), max_size=40).map("".join) | st.text(max_size=80)


@settings(max_examples=600)
@given(texts, st.sampled_from(["en", "de", "fr"]))
def test_scan_gives_the_shadow_and_words_the_tokens_give(text: str, lang: str) -> None:
    pieces = list(scan(text))
    assert "".join(value for _, value in pieces) == text
    assert engine._shadow(text, lang) == old_shadow(text, lang)
    assert list(detect.words(text)) == old_words(text)


@given(texts)
def test_a_run_is_whole_plain_tokens(text: str) -> None:
    # Each run, tokenized in place, holds only words, spaces, breaks and punctuation.
    for kind, value in scan(text):
        if kind == RUN:
            inside = [Token(k, v) for k, v in iter_tokens(value)]
            assert {t.kind for t in inside} <= {WORD, "s", BREAK, PUNCT}, inside


def old_evidence(text: str, limit: int = detect.MAX_WORDS) -> detect.Evidence:
    """The detector's evidence of the words the token-by-token tokenizer gives (up to ``limit``
    words)."""
    profiles = detect._profiles()
    counted: dict[str, int] = {}
    words = letters = 0
    for raw, capitalised in old_words(text[: detect.MAX_CHARS]):
        word = raw.lower()
        if capitalised and word not in profiles.index:
            continue
        counted[word] = counted.get(word, 0) + 1
        words += 1
        letters += len(word)
        if words >= limit:
            break
    return detect._score(profiles, Counter(counted), words, letters)


# Words the profiles know, capitalised or not, and names they do not know, so that runs are
# counted in bulk and one word at a time.
WORDS = [
    "the", "The", "und", "Und", "que", "Que", "est", "il", "Il", "Paris", "Zorblax", "zorblax",
    "zorb", "Zorb",
    "Müller", "l'Homme", "d'Artagnan", "well-Known", ". ", "? ", "\n", ", ", " (", ") ",
]  # fmt: skip
prose = st.lists(st.sampled_from(WORDS + PIECES), max_size=60).map(" ".join)


@settings(max_examples=400)
@given(prose | texts, st.integers(min_value=0, max_value=330))
def test_evidence_counts_runs_as_word_by_word(text: str, padding: int) -> None:
    # Padding with words puts the MAX_WORDS limit at every place in the text.
    # Long words make a long run, which is read one word at a time.
    for sample in (text, "the " * padding + text, "thermodynamics " * padding + text):
        assert_same_evidence(detect.evidence(sample), old_evidence(sample))


def assert_same_evidence(new: detect.Evidence, old: detect.Evidence) -> None:
    assert (new.known, new.scored, new.words, new.letters) == (
        old.known,
        old.scored,
        old.words,
        old.letters,
    )
    assert new.scores.keys() == old.scores.keys()
    for lang, score in new.scores.items():
        assert math.isclose(score, old.scores[lang], rel_tol=1e-12)


@settings(max_examples=300)
@given(
    prose | texts,
    st.integers(min_value=0, max_value=330),
    st.sampled_from(["the ", "Und ", "l'homme ", "zorblax ", "Zorblax. ", "\n", "{{1}} "]),
    st.booleans(),
)
def test_a_settled_reading_is_the_evidence_of_the_words_read(
    text: str, padding: int, word: str, before: bool
) -> None:
    # detect_language stops reading at a stage whose evidence is settled: what it read is
    # the evidence of the text's first words, counted one by one; a reading that does not
    # stop is the full one.
    sample = word * padding + text if before else text + word * padding
    staged, full = detect.evidence(sample, settle=True), detect.evidence(sample)
    if staged.words < full.words:
        assert staged.words >= detect.STAGE_WORDS
        assert detect.settled(staged)
        assert_same_evidence(staged, old_evidence(sample, staged.words))
    else:
        assert_same_evidence(staged, full)


@pytest.mark.parametrize(
    "text",
    [
        "We met zorb and Zorblax today. Zorblax came too.",  # a name that starts another
        "Zorblax met us. Then Zorblax left, (Zorblax) again; zorblax!",  # sentence starts
        "Der Ausschuss hat den Vorschlag geprüft. Die Woche war lang.",  # German nouns
    ],
)
def test_evidence_leaves_out_names_inside_sentences(text: str) -> None:
    assert_same_evidence(detect.evidence(text), old_evidence(text))


def test_letters_without_case_are_seen() -> None:
    # "A¼" is all caps to str.isupper (¼ is a letter to the pattern but has no case).
    assert engine._shadow("so A¼ here", "en") == old_shadow("so A¼ here", "en")
    assert [k for k, _ in scan("so A¼ here")] == ["r", "x", "r"]  # not inside a run


def test_a_plain_paragraph_is_one_run() -> None:
    text = "The committee met again, and we agreed.\nIt was late; nobody minded (really)."
    assert list(scan(text)) == [(RUN, text)]
    # A run that holds a protected word comes as its tokens.
    assert [k for k, _ in scan("We use NASA data.")] == ["w", "s", "w", "s", "x", "s", "w", "p"]


@settings(max_examples=200, deadline=None)  # the first call per target loads its word list
@given(prose | texts, st.sampled_from(["en", "de", "fr", "en-gb", "pt-br"]))
def test_a_scan_handed_over_gives_the_same_answers(text: str, target: str) -> None:
    # The offline service tokenizes a short text once, for detection and the engine.
    scanned = list(scan(text))
    assert detect.detect_language(text, scanned) == detect.detect_language(text)
    assert engine.improve(text, target, scanned=scanned) == engine.improve(text, target)
