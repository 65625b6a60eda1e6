"""The rules' shortcuts against the straightforward passes they skip: each must give exactly
what the plain pattern gives."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rephrase_ls.offline import engine
from rephrase_ls.offline.engine import detect, lexicon, rules, tokens
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


@pytest.fixture(scope="module", autouse=True)
def _word_lists_loaded() -> None:
    """Load the frequency lists the doubled-words rule consults before the timed examples."""
    for lang in ("en", "de", "fr"):
        lexicon.table(lang)


@settings(max_examples=3000)
@given(texts, st.sampled_from(["en", "de", "fr"]))
def test_doubled_words_skips_only_texts_without_doubles(text: str, lang: str) -> None:
    if rules._DOUBLED.search(text) is not None:
        assert rules.may_double(text, rules.glue_runs(text))
    assert rules.doubled_words(text, lang) == rules.undouble(text, lang)


@pytest.mark.parametrize("text", ["İ i", "İx ix", "ΣΑΣ σασ", "σασ ΣΑΣ", "ǅ ǆ", "K k", "ẞ ß"])
def test_words_the_same_but_for_case_may_double(text: str) -> None:
    # Doubled to the pattern, which compares one lower-cased character at a time.
    assert rules._DOUBLED.search(text) is not None
    assert rules.may_double(text, rules.glue_runs(text))


@settings(max_examples=2000)
@given(texts)
def test_distinct_words_hold_every_word(text: str) -> None:
    words = {m.group() for m in rules.WORD_RE.finditer(text)}
    assert words <= rules.distinct_words(text)


SPELLING_WORDS = [
    "teh", "Teh", "TEH", "the", "The", "recieve", "Recieve", "receive", "wuerde", "Wuerde",
    "deja", "Deja", "déjà", "haus", "Haus", "xqzv", "Xqzv", "l'homme", "x2", "\ue001", "İ", "é",
    "É", "cafe", "Cafe", "CaFe", "mIxed", "a", "I",
]  # fmt: skip


@settings(max_examples=300, deadline=None)  # the first call per language loads its list
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
OLD_LOWER_I = re.compile(_EDGE_BEFORE + r"i(?=(?:['’](?:m|ve|d|ll))?" + _EDGE_AFTER + ")")
OLD_A_AN = re.compile(rf"{_EDGE_BEFORE}(a|an|A|An)( )({_L}++){_EDGE_AFTER}")
OLD_MAYBE_PROTECTED = re.compile(
    r"[A-ZÀ-ÖØ-Þ](?:(?<=[^\W\d_][A-ZÀ-ÖØ-Þ])|(?<=[^\W\d_]['’-][A-ZÀ-ÖØ-Þ]))"
    r"|[ªº²³¹¼½¾\u0100-\u2018\u201a-\U0010ffff]"
)
OLD_TWO_SPACES = re.compile(r"[ \t\u00a0\u202f]{2}")

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


@settings(max_examples=2000)
@given(prose, st.sampled_from(["en", "de", "fr"]))
def test_sentence_capitals_as_with_one_pattern(text: str, lang: str) -> None:
    def repl(m: re.Match[str]) -> str:
        start = m.start(1)
        if not rules.is_sentence_start(text, start, lang):
            return m.group(0)
        word = m.group(1)
        return m.group(0)[: start - m.start()] + word[0].upper() + word[1:]

    assert rules.sentence_capitals(text, lang) == OLD_SENTENCE_START.sub(repl, text)


@settings(max_examples=2000)
@given(prose)
def test_patterns_that_start_with_a_class_match_as_before(text: str) -> None:
    assert rules._LOWER_I.sub("I", text) == OLD_LOWER_I.sub("I", text)
    assert [m.span() for m in rules._A_AN.finditer(text)] == [
        m.span() for m in OLD_A_AN.finditer(text)
    ]
    assert [m.groups() for m in rules._A_AN.finditer(text)] == [
        m.groups() for m in OLD_A_AN.finditer(text)
    ]
    assert (tokens._MAYBE_PROTECTED.search(text) is None) == (
        OLD_MAYBE_PROTECTED.search(text) is None
    )
    assert (rules._TWO_SPACES.search(text) is None) == (OLD_TWO_SPACES.search(text) is None)


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


SPACING_PIECES = [
    "word", "Word", "mot", "e", "U", "S", "z", "B", "1", "\ue001", "\ue002", " ", "  ", "\t",
    "\u00a0", "\u202f", "\n", ".", "..", "...", "....", "!", "!!", "?", "??", ",", ",,", ";", ";;",
    ":", "::", "'", "(", ")",
]  # fmt: skip


@settings(max_examples=3000)
@given(
    st.lists(st.sampled_from(SPACING_PIECES), max_size=16).map("".join) | st.text(max_size=30),
    st.sampled_from(["en", "de", "fr"]),
)
def test_spacing_is_its_four_rules_in_turn(text: str, lang: str) -> None:
    expected = rules.tidy_spaces(text)
    expected = rules.repeated_punctuation(expected)
    expected = rules.punctuation_spacing(expected, lang)
    expected = rules.missing_space(expected, lang)
    assert rules.spacing(text, lang) == expected


LANGS = ("de", "en", "es", "fr", "it", "pt")


@settings(max_examples=2000)
@given(
    st.lists(st.sampled_from([-9.5, -9.0, -7.25, -3.0, -1.0, 0.0]), min_size=6, max_size=6),
    st.lists(st.integers(min_value=0, max_value=6), min_size=6, max_size=6),
    st.integers(min_value=1, max_value=8),
)
def test_standing_ranks_as_a_sort_by_score_then_name(
    scores: list[float], known: list[int], extra: int
) -> None:
    found = detect.Evidence(
        dict(zip(LANGS, scores, strict=True)),
        dict(zip(LANGS, known, strict=True)),
        max(known) + 1,
        max(known) + extra + detect.MIN_WORDS,  # enough words to rank
        100,
    )
    ranked = sorted(found.scores.items(), key=lambda kv: (-kv[1], kv[0]))
    (best, best_score), (_, second_score) = ranked[0], ranked[1]
    rival = max(n for lang, n in found.known.items() if lang != best)
    assert detect._standing(found) == (
        best,
        (best_score - second_score) / found.scored,
        found.known[best] / found.words,
        rival / found.words,
    )
