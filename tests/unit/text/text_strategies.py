"""Hypothesis strategies for text tests: the awkward characters prose really contains."""

from __future__ import annotations

from hypothesis import strategies as st

PIECES = [
    "word",
    "Wort",
    "the",
    "a",
    "fox",
    "quick",
    "naïve",
    "café",
    "e\u0301",
    "Straße",
    "Привет",
    "мир",
    "مرحبا",
    "שלום",
    "中文",
    "日本語",
    "한국어",
    "नमस्ते",
    "ελληνικά",
    "😀",
    "👍🏽",
    "👨\u200d👩\u200d👧",
    "🇩🇪",
    "𝔘𝔫𝔦",
    "\U0002a6b2",
    " ",
    " ",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "\u00a0",
    ".",
    ",",
    "!",
    "?",
    "-",
    "—",
    "'",
    '"',
    "(",
    ")",
    "{",
    "}",
    "{{0}}",
    ":",
    "/",
    "_",
    "\u200d",
    "\ufe0f",
    "\u0301",
    "\udc00",  # a lone surrogate: JSON can deliver one ("\\udc00") in a broken document
]

#: Text made of realistic pieces (words in many scripts, emoji, marks, all line breaks).
pieces_text = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)

#: Either realistic pieces or arbitrary Unicode.
any_text = st.one_of(
    pieces_text,
    st.text(st.characters(codec="utf-8"), max_size=40),
)
