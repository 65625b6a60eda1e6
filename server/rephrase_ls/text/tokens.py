"""Tokenizer: splits text into words, spaces, punctuation and protected spans.

Joining the texts of the tokens gives back the input exactly. Protected tokens (placeholders
``{{N}}``, code in backticks, URLs, e-mail addresses, paths and file names, words with digits or
underscores, camelCase, all-caps words) are never changed by any rule. Quoted spans are kept as
one token whose content is never changed; only the quote marks may be converted.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

WORD: Final = "w"  # letters, with inner apostrophes or hyphens
SPACE: Final = "s"  # horizontal whitespace
BREAK: Final = "n"  # whitespace containing a line break
PUNCT: Final = "p"  # punctuation (a run of the same sentence mark, or one other character)
PROTECTED: Final = "x"  # never changed
PLACEHOLDER: Final = "h"  # {{N}}: never changed, not a word
QUOTED: Final = "q"  # a quoted span: content never changed

_LETTERS = r"[^\W\d_]"
_ALTERNATIVES: Final = (
            # The common case first: a plain word followed by a space, a line break, the end,
            # or punctuation and then one of those. None of the alternatives below can match
            # at such a word (they need a digit, "_", "@", "/", "://" or a mark next to it),
            # so it is the same "w" token they would give, found without trying them.
            rf"(?P<f>(?>{_LETTERS}+(?:['’-]{_LETTERS}+)*))"  # possessive: a shorter word fails
            r"(?=[ \t\n\r]|[,;:!?.)\]]+(?:[ \t\n\r]|$)|$)",
            r"(?P<h>\{\{\d+\}\})",
            r"(?P<mark>[\ue000-\ue002]+)",  # the engine's sentinels, if present in input
            r"(?P<code>(?P<ticks>(?>`+))[^\n]*?(?P=ticks)|`+)",
            # The scheme, the part of an address before "@" and the name before a file
            # name's extension are bounded (32, 64 and 255 characters: longer than any real
            # one): tried at each character of a long run of their characters, an unbounded
            # one would read the rest of the run every time.
            r"(?P<url>(?:[A-Za-z][A-Za-z0-9+.-]{0,31}://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}])",
            r"(?P<mail>[\w.+-]{1,64}+@[\w-]+(?:\.[\w-]+)+)",
            r"(?P<path>(?:[A-Za-z]:\\|~/|\.{1,2}/|/)[^\s\"'`]*[^\s\"'`.,;:!?)\]}]"
            # (a relative path takes its last name's extension: "docs/my-file.txt")
            r"|\w+(?:[/\\]\w+)+(?:[\w-]{0,255}+(?:\.[a-z0-9][\w-]*)+(?![\w]))?/?"
            # (a file name starts a run of its characters)
            r"|(?<![\w-])[\w-]{1,255}+(?:\.[a-z0-9][\w-]*)+(?![\w]))",
            # A quoted span holds no second opening mark of its kind (nor a line break): an
            # opening mark without its closing one is then looked for once, not from each of
            # a run of such marks to the end of the line.
            r"(?P<q>\"[^\"\n]*\"|“[^“”\n]*”|„[^„“”\n]*[“”]|«[^«»\n]*»|»[^»«\n]*«"
            r"|(?<!\w)'[^'\n]*'(?!\w)|(?<!\w)‘[^‘’\n]*’(?!\w)|‚[^‚‘’\n]*[‘’])",
            r"(?P<num>\w*[\d_]\w*)",
            rf"(?P<w>{_LETTERS}+(?:['’-]{_LETTERS}+)*)(?![\w])",
            r"(?P<other>\w+)",
            r"(?P<s>[^\S\n\r]+)",
            r"(?P<n>\s+)",
            r"(?P<p>\.+|!+|\?+|,+|;+|:+|[\s\S])",
)
_TOKEN = re.compile("|".join(_ALTERNATIVES))
_KEPT_KINDS: Final = frozenset((SPACE, BREAK, PUNCT, PLACEHOLDER, QUOTED))
_CAMEL = re.compile(r"[a-zà-ÿ][A-ZÀ-Þ]|[A-ZÀ-Þ]{2}[a-zà-ÿ]")


@dataclass(slots=True)
class Token:
    """One token; ``kind`` is one of the module constants."""

    kind: str
    text: str


def iter_tokens(text: str) -> Iterator[tuple[str, str]]:
    """The ``(kind, text)`` of each token of ``text`` in order, one by one."""
    for m in _TOKEN.finditer(text):
        yield _kind(m), m.group()


def _kind(m: re.Match[str]) -> str:
    """The token kind of a match of the tokenizer's pattern."""
    group = m.lastgroup
    if group == "f" or group == "w":
        return _word_kind(m.group())
    if group in _KEPT_KINDS:
        return group
    return PROTECTED


def _word_kind(value: str) -> str:
    """WORD, or PROTECTED for camelCase and all-caps words (names of things, acronyms)."""
    if value.islower():
        return WORD
    if _CAMEL.search(value) or (len(value) > 1 and value.isupper()):
        return PROTECTED
    return WORD


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; ``"".join(t.text for t in tokens) == text``."""
    return [Token(_kind(m), m.group()) for m in _TOKEN.finditer(text)]


def join(tokens: list[Token]) -> str:
    """Join tokens back into text."""
    return "".join(t.text for t in tokens)
