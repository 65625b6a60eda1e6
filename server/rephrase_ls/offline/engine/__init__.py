"""The offline improvement engine: language detection and rule-based text improvement.

First version: whitespace tidying, doubled words and sentence capitals, with protected spans
(placeholders ``{{N}}``, quotes, backticks, URLs, e-mails, paths) left untouched. The full engine
replaces the internals behind this same API.
"""

from __future__ import annotations

import re

__all__ = ["SUPPORTED_LANGUAGES", "detect_language", "improve"]

SUPPORTED_LANGUAGES = ("de", "en", "es", "fr", "it", "pt")



def _words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


_STOPWORDS: dict[str, frozenset[str]] = {
    "de": _words("der die das und ist nicht ein eine zu mit von den sich auf für ich es"),
    "en": _words("the and is of to in that it for was with as on are this be not have"),
    "es": _words("el la los las y es de que en un una por con para no se del al"),
    "fr": _words("le la les et est de des un une que qui dans pour pas sur du au avec"),
    "it": _words("il la lo gli le e di che un una per non con sono del della è nel"),
    "pt": _words("o a os as e de que um uma para não com do da em no na são"),
}

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)
_PROTECTED = re.compile(
    r"\{\{\d+\}\}"
    r"|`[^`]*`"
    r'|"[^"\n]*"|“[^”\n]*”|«[^»\n]*»|„[^“”\n]*[“”]'
    r"|[a-zA-Z][a-zA-Z0-9+.-]*://\S+"
    r"|[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
    r"|(?:~|\.{1,2})?/[\w.~/-]+"
)
_DOUBLED = re.compile(r"\b([^\W\d_]+)(\s+)\1\b", re.UNICODE)
_SENTENCE_START = re.compile(r"(^|[.!?]\s+)([a-zà-öø-ÿ])", re.UNICODE)


def detect_language(text: str) -> str | None:
    """Return the base code of the language of ``text`` or ``None`` when unsure."""
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        return None
    scores = {lang: sum(w in sw for w in words) for lang, sw in _STOPWORDS.items()}
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    best, best_score = ranked[0]
    if best_score == 0 or best_score == ranked[1][1]:
        return None
    return best


def _tidy(segment: str) -> str:
    segment = re.sub(r"[ \t]{2,}", " ", segment)
    segment = re.sub(r" +([,.;:!?])", r"\1", segment)
    segment = _DOUBLED.sub(lambda m: m.group(1) if m.group(1) else m.group(0), segment)
    return segment


def improve(
    text: str,
    target_lang: str,
    *,
    writing_style: str | None = None,
    tone: str | None = None,
    known_words: frozenset[str] = frozenset(),
) -> str:
    """Return an improved version of ``text`` for ``target_lang`` (e.g. ``en-us``, ``de``)."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    base = target_lang.lower().split("-")[0]
    if base not in SUPPORTED_LANGUAGES:
        raise ValueError(f"unsupported target language: {target_lang!r}")
    pieces: list[str] = []
    last = 0
    for m in _PROTECTED.finditer(text):
        pieces.append(_tidy(text[last : m.start()]))
        pieces.append(m.group(0))
        last = m.end()
    pieces.append(_tidy(text[last:]))
    out = []
    for i, piece in enumerate(pieces):
        if i % 2 == 0:
            piece = _SENTENCE_START.sub(
                lambda m: m.group(1) + m.group(2).upper(), piece
            ) if (i == 0 or piece[:1].isspace()) else piece
        out.append(piece)
    return "".join(out).strip(" \t") if text.strip() else text
