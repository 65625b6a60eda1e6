"""tokens.scan (runs of plain tokens) against the token-by-token tokenizer it speeds up: the
engine's shadow string and the detector's words must be exactly what the tokens give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rephrase_ls.offline import engine
from rephrase_ls.offline.engine import detect
from rephrase_ls.offline.engine.tokens import (
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
    assert list(detect._words(text)) == old_words(text)


@given(texts)
def test_a_run_is_whole_plain_tokens(text: str) -> None:
    # Each run, tokenized in place, holds only words, spaces, breaks and punctuation.
    for kind, value in scan(text):
        if kind == RUN:
            inside = [Token(k, v) for k, v in iter_tokens(value)]
            assert {t.kind for t in inside} <= {WORD, "s", BREAK, PUNCT}, inside


def test_letters_without_case_are_seen() -> None:
    # "A¼" is all caps to str.isupper (¼ is a letter to the pattern but has no case).
    assert engine._shadow("so A¼ here", "en") == old_shadow("so A¼ here", "en")
    assert [k for k, _ in scan("so A¼ here")] == ["r", "x", "r"]  # not inside a run


def test_a_plain_paragraph_is_one_run() -> None:
    text = "The committee met again, and we agreed.\nIt was late; nobody minded (really)."
    assert list(scan(text)) == [(RUN, text)]
    # A run that holds a protected word comes as its tokens.
    assert [k for k, _ in scan("We use NASA data.")] == ["w", "s", "w", "s", "x", "s", "w", "p"]
