"""Tokenizer: splits text into words, spaces, punctuation and protected spans.

Joining the texts of the tokens gives back the input exactly. Protected tokens (placeholders
``{{N}}``, code in backticks, URLs, e-mail addresses, paths and file names, words with digits or
underscores, camelCase, all-caps words) are never changed by any rule. Quoted spans are kept as
one token whose content is never changed; only the quote marks may be converted.
"""

from __future__ import annotations

import re
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
_TOKEN = re.compile(
    "|".join(
        (
            r"(?P<h>\{\{\d+\}\})",
            r"(?P<mark>[\ue000-\ue002]+)",  # the engine's sentinels, if present in input
            r"(?P<code>(?P<ticks>(?>`+))[^\n]*?(?P=ticks)|`+)",
            r"(?P<url>(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}])",
            r"(?P<mail>[\w.+-]+@[\w-]+(?:\.[\w-]+)+)",
            r"(?P<path>(?:[A-Za-z]:\\|~/|\.{1,2}/|/)[^\s\"'`]*[^\s\"'`.,;:!?)\]}]"
            r"|\w+(?:[/\\]\w+)+/?"
            r"|[\w-]+(?:\.[a-z0-9][\w-]*)+(?![\w]))",
            r"(?P<q>\"[^\"\n]*\"|“[^”\n]*”|„[^“”\n]*[“”]|«[^»\n]*»|»[^«\n]*«"
            r"|(?<!\w)'[^'\n]*'(?!\w)|(?<!\w)‘[^’\n]*’(?!\w)|‚[^‘’\n]*[‘’])",
            r"(?P<num>\w*[\d_]\w*)",
            rf"(?P<w>{_LETTERS}+(?:['’-]{_LETTERS}+)*)(?![\w])",
            r"(?P<other>\w+)",
            r"(?P<s>[^\S\n\r]+)",
            r"(?P<n>\s+)",
            r"(?P<p>\.+|!+|\?+|,+|;+|:+|[\s\S])",
        )
    )
)
_CAMEL = re.compile(r"[a-zà-ÿ][A-ZÀ-Þ]|[A-ZÀ-Þ]{2}[a-zà-ÿ]")


@dataclass(slots=True)
class Token:
    """One token; ``kind`` is one of the module constants."""

    kind: str
    text: str


def tokenize(text: str) -> list[Token]:
    """Split ``text`` into tokens; ``"".join(t.text for t in tokens) == text``."""
    tokens: list[Token] = []
    append = tokens.append
    for m in _TOKEN.finditer(text):
        group = m.lastgroup
        value = m.group(0)
        if group == "w":
            if _CAMEL.search(value) or (len(value) > 1 and value.isupper()):
                append(Token(PROTECTED, value))
            else:
                append(Token(WORD, value))
        elif group in ("s", "n", "p", "h", "q"):
            append(Token(group, value))
        else:
            append(Token(PROTECTED, value))
    return tokens


def join(tokens: list[Token]) -> str:
    """Join tokens back into text."""
    return "".join(t.text for t in tokens)
