"""Where the engine visits only part of a text (the words spelling may change, the sentence
starts), against the plain pass over all of it: each must give exactly what the plain pass
gives."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.offline import engine
from rephrase_ls.offline.engine import rules
from rephrase_ls.offline.engine.spelling import speller

# Words that double (in every case, with joiners and accents), characters whose lower case is
# special ("İ" lowers to two characters, "Σ" to "ς" at a word's end), names of no language,
# the sentinels, digits, and what separates words.
PIECES = [
    "the", "The", "THE", "a", "A", "an", "l'a", "L'A", "well-known", "Well-Known", "é", "É",
    "ß", "ẞ", "İ", "i̇", "i", "I", "ı", "Σ", "σ", "ς", "ΣΑΣ", "σας", "σασ", "K", "k", "Ǆ", "ǅ",
    "ǆ", "x2", "a_b", "²", "\ue000", "\ue001", "\ue002", " ", " ", "  ", "\t", "\n", ",", ".",
    "-", "'", "’", "(", ")", "/", "\u00a0",
]  # fmt: skip
pieces = st.sampled_from(PIECES)
texts = (
    st.lists(pieces, max_size=16).map("".join)
    | st.tuples(pieces, pieces, pieces, pieces).map(lambda p: f"{p[0]}{p[1]} {p[2]}{p[3]}")
    | st.text(max_size=40)
)


@settings(max_examples=examples(2000))
@given(texts)
def test_distinct_words_hold_every_word(text: str) -> None:
    words = {m.group() for m in rules.WORD_RE.finditer(text)}
    assert words <= rules.distinct_words(text)


SPELLING_WORDS = [
    "teh", "Teh", "TEH", "the", "The", "recieve", "Recieve", "receive", "wuerde", "Wuerde",
    "deja", "Deja", "déjà", "haus", "Haus", "xqzv", "Xqzv", "l'homme", "x2", "\ue001", "İ", "é",
    "É", "cafe", "Cafe", "CaFe", "mIxed", "a", "I",
]  # fmt: skip


@settings(max_examples=examples(300), deadline=None)  # the first call per language loads its list
@given(st.sets(st.sampled_from(SPELLING_WORDS)), st.sampled_from(["en", "de", "fr", "es"]))
def test_changeable_words_are_those_a_correction_may_change(words: set[str], lang: str) -> None:
    checker = speller(lang)
    expected = set()
    for word in words:
        lower = word.lower()
        if word == lower:
            if checker.correction(word) is not None:
                expected.add(word)
        elif word[0].isupper() and word[1:] == lower[1:] and checker.correction(lower):
            expected.add(word)
    # twice: the second time, the words that cannot change are remembered
    assert checker.changeable(words) == expected
    assert checker.changeable(words) == expected


# The patterns as they were, each trying every position of the text.
_EDGE_BEFORE = r"(?<![\w'’\-\ue000-\ue002])"
_EDGE_AFTER = r"(?![\w'’\-\ue000-\ue002])"
_L = r"[^\W\d_]"
OLD_SENTENCE_START = re.compile(
    rf"(?:^[ \t\u00a0\u202f]*|(?<=[.!?])[\s]+)(?=[a-zà-öø-ÿ])({_L}++){_EDGE_AFTER}"
)

PROSE_WORDS = [
    "i", "I", "i'm", "i’ve", "i'd", "i'll", "i-", "a", "A", "an", "An", "AN", "aN", "n", "apple",
    "Apple", "hour", "one", "b", "ÿes", "à", "ß", "Élan", "ñ", "x2", "z", "Xy", "aB", "l'A", "ª",
    "²", "¼", "Ω", "日", "\ue000", "\ue001", "\ue002", "etc", "z.B", "",
]  # fmt: skip
PROSE_GAPS = [
    " ", " ", ". ", "! ", "? ", "... ", ".\n", "?\t", "!\u00a0", ".\u202f", ", ", "; ", "'", "’",
    "-", " (", "  ", "\t", "\n", "\r\n", "\u00a0", "\u202f", ".", "?", "!", "",
]  # fmt: skip
prose = (
    st.tuples(
        st.sampled_from(PROSE_GAPS),
        st.lists(st.tuples(st.sampled_from(PROSE_WORDS), st.sampled_from(PROSE_GAPS)), max_size=12),
    ).map(lambda t: t[0] + "".join(word + gap for word, gap in t[1]))
    | st.text(max_size=40)
)


@settings(max_examples=examples(2000))
@given(prose, st.sampled_from(["en", "de", "fr"]))
def test_sentence_capitals_as_with_one_pattern(text: str, lang: str) -> None:
    def repl(m: re.Match[str]) -> str:
        start = m.start(1)
        if not rules.is_sentence_start(text, start, lang):
            return m.group(0)
        word = m.group(1)
        return m.group(0)[: start - m.start()] + word[0].upper() + word[1:]

    assert rules.sentence_capitals(text, lang) == OLD_SENTENCE_START.sub(repl, text)


def test_restore_puts_the_spans_back_and_checks_the_sentinels() -> None:
    shadow, saved = engine._shadow("See `a` and {{1}}.", "en")
    marks = rules.PROTECTED_MARK + rules.PLACEHOLDER_MARK
    assert shadow == f"See {rules.PROTECTED_MARK} and {rules.PLACEHOLDER_MARK}."
    assert engine._restore(shadow, saved, marks) == "See `a` and {{1}}."
    for broken in (shadow.replace(rules.PLACEHOLDER_MARK, ""), shadow + rules.QUOTE_MARK):
        with pytest.raises(RuntimeError):
            engine._restore(broken, saved, marks)
    assert engine._restore("plain", [], "") == "plain"
    with pytest.raises(RuntimeError):
        engine._restore("plain" + rules.QUOTE_MARK, [], "")
