"""English misspellings with their corrections, from codespell's main dictionary."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from functools import cache
from typing import Final


class ListedMisspellings:
    """English misspellings with their corrections, from codespell's main dictionary (PyPI
    ``codespell``; the dictionary derives from Wikipedia's list of common misspellings, CC
    BY-SA). An entry with one correction gives it (:meth:`get`); the corrections of an entry
    with several are :meth:`alternatives` ("alloud": "aloud" or "allowed").

    The file's text is kept as it is (1.5 MB) with a sorted ``array`` of 64-bit keys, each a
    misspelling's ``hash()`` with the offset of its entry's right side in the low 24 bits: a
    dict of its 60,000+ entries would cost some 8 MB."""

    _OFFSET_BITS: Final = 24
    _ENTRY = re.compile(r"^([a-z]+)->([^\n]+)$", re.MULTILINE)
    _ONE = re.compile(r"[a-z]+")
    _APOSTROPHE = re.compile(r"[a-z]+'[a-z]+")

    def __init__(self, text: str) -> None:
        if len(text) >= 1 << self._OFFSET_BITS:
            raise ValueError("codespell's dictionary is larger than expected")
        mask = ~((1 << self._OFFSET_BITS) - 1)
        self._text = text
        self._keys = array(
            "q",
            sorted((hash(m.group(1)) & mask) | m.start(2) for m in self._ENTRY.finditer(text)),
        )

    def _entry(self, word: str) -> str | None:
        """The right side of the lower-case ``word``'s entry, or ``None``."""
        mask = ~((1 << self._OFFSET_BITS) - 1)
        key = hash(word) & mask
        keys, text = self._keys, self._text
        i = bisect_left(keys, key)
        while i < len(keys) and keys[i] & mask == key:
            start = keys[i] & ~mask
            if text.startswith(word + "->", start - len(word) - 2):
                return text[start : text.index("\n", start)]
            i += 1
        return None

    def get(self, word: str) -> str | None:
        """The one correction of the lower-case ``word``, or ``None``."""
        entry = self._entry(word)
        return entry if entry is not None and self._ONE.fullmatch(entry) else None

    def contraction(self, word: str) -> str | None:
        """The lower-case ``word``'s one correction when it is a contraction or another word
        written with an apostrophe ("oclock" -> "o'clock", "couldent" -> "couldn't")."""
        entry = self._entry(word)
        return entry if entry is not None and self._APOSTROPHE.fullmatch(entry) else None

    def alternatives(self, word: str) -> frozenset[str]:
        """The one-word corrections the list gives the lower-case ``word`` when it gives it
        several (empty when it gives one or none)."""
        entry = self._entry(word)
        if entry is None or self._ONE.fullmatch(entry):
            return frozenset()
        return frozenset(w for w in (p.strip() for p in entry.split(",")) if w and " " not in w)


_NO_LIST: Final = ListedMisspellings("")


@cache
def known_misspellings(lang: str) -> ListedMisspellings:
    """The list of common misspellings for ``lang`` (English only; empty for the others, and
    when codespell is not installed)."""
    if lang != "en":
        return _NO_LIST
    from rephrase_ls.offline.engine.lexicon import package_file

    try:
        text = package_file("codespell_lib", "data", "dictionary.txt").read_text(encoding="utf-8")
    except FileNotFoundError:
        return _NO_LIST
    if not text.endswith("\n"):
        text += "\n"
    return ListedMisspellings(text)
