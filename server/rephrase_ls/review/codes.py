"""The rule a change follows, read from the change itself, and its message.

A change is the original words and their replacement (as prose: see
:class:`~rephrase_ls.review.changes.Change`). Its code is one of :data:`CODES`; the tests
that decide it, in order, are those of :func:`classify`. The variant lists are the offline
engine's own (:mod:`rephrase_ls.offline.engine.variants`).
"""

from __future__ import annotations

from collections.abc import Sequence

from rephrase_ls.text import variants
from rephrase_ls.text.diff import tokenize

__all__ = [
    "CAPITALISATION",
    "CODES",
    "DOUBLED_WORD",
    "PUNCTUATION",
    "RULES",
    "SPACING",
    "SPELLING",
    "UNKNOWN_WORD",
    "VARIANT",
    "classify",
    "describe",
]

SPELLING = "spelling"
DOUBLED_WORD = "doubled-word"
PUNCTUATION = "punctuation"
SPACING = "spacing"
CAPITALISATION = "capitalisation"
VARIANT = "variant"
#: A word no dictionary of the document's language knows (:mod:`.unknown`); not a change.
UNKNOWN_WORD = "unknown-word"
#: Every rule code a finding can carry.
CODES = (SPELLING, DOUBLED_WORD, PUNCTUATION, SPACING, CAPITALISATION, VARIANT, UNKNOWN_WORD)

#: What each rule looks for, as a sentence that follows "The rule ‘code’ finds".
RULES: dict[str, str] = {
    SPELLING: "a word the dictionaries of the document's language do not know, written where "
    "a common word it is a slip of fits",
    DOUBLED_WORD: "a word written twice in a row",
    PUNCTUATION: "punctuation the language writes otherwise: a space before a comma or a full "
    "stop, a doubled mark, a missing space after one",
    SPACING: "spaces the language writes otherwise: two spaces between words, a space before "
    "a mark",
    CAPITALISATION: "a sentence, or the pronoun ‘I’, starting with a lower-case letter",
    VARIANT: "a spelling of the other variant of the language than the document's "
    "(colour in an en-US document, color in an en-GB one)",
    UNKNOWN_WORD: "a word no dictionary of the document's language knows, which the engine "
    "is not sure enough to correct (it is never changed but by the quick fix you pick)",
}

#: Longest original or new text a message quotes in full (longer ones are cut with "…").
MESSAGE_QUOTE = 48


def _non_space_tokens(text: str) -> list[str]:
    return [token for token in tokenize(text) if not token.isspace()]


def _words(text: str) -> list[str]:
    return [token.lower() for token in tokenize(text) if token[0].isalnum()]


def _undouble(tokens: Sequence[str]) -> list[str]:
    """``tokens`` (case-folded) without each word that repeats the word right before it."""
    return [
        token
        for n, token in enumerate(tokens)
        if not (n and token[0].isalnum() and token == tokens[n - 1])
    ]


def _undoubled(original: str, replacement: str) -> bool:
    """Whether ``replacement`` is ``original`` with a word repeated right after itself removed."""
    before = [t.casefold() for t in _non_space_tokens(original)]
    after = [t.casefold() for t in _non_space_tokens(replacement)]
    kept = _undouble(before)
    return len(kept) < len(before) and kept == after


def _variant_pair(original: str, replacement: str, target: str) -> bool:
    """Whether the change is one of the engine's variant conversions into ``target`` (a doubled
    word it also removed aside): word
    pairs from its English (breame) or Portuguese lists, or the Portuguese progressive
    (``fazendo`` ↔ ``a fazer``)."""
    before, after = _undouble(_words(original)), _words(replacement)
    if target in ("en-us", "en-gb"):
        mapping = variants.english_map(target)
    elif target in ("pt-pt", "pt-br"):
        mapping = variants.portuguese_map(target)
        if target == "pt-pt" and len(before) == 1 and after[:1] == ["a"] and len(after) == 2:
            return variants.gerund_to_infinitive(before[0]) == after[1]
        if target == "pt-br" and len(after) == 1 and before[:1] == ["a"] and len(before) == 2:
            return variants.infinitive_to_gerund(before[1]) == after[0]
    else:
        return False
    if len(before) != len(after):
        return False
    pairs = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    return bool(pairs) and all(mapping.get(a) == b for a, b in pairs)


def classify(original: str, replacement: str, target_lang: str) -> str:
    """The rule code of a change, read from the change itself.

    Only whitespace differs: ``spacing``. Only the case of letters (and maybe whitespace):
    ``capitalisation``. A word repeated right after itself is gone: ``doubled-word``. The
    letters and digits are the same, punctuation differs: ``punctuation``. Every changed word
    is a pair from the engine's variant lists for ``target_lang``: ``variant``. Anything else
    (a misspelling, a wrong article): ``spelling``.
    """
    before = "".join(original.split())
    after = "".join(replacement.split())
    if before == after:
        return SPACING
    if before.lower() == after.lower():
        return CAPITALISATION
    if _undoubled(original, replacement):
        return DOUBLED_WORD
    if [c for c in before if c.isalnum()] == [c for c in after if c.isalnum()]:
        return PUNCTUATION
    if _variant_pair(original, replacement, target_lang.strip().lower().replace("_", "-")):
        return VARIANT
    return SPELLING


def _quoted(text: str) -> str:
    """``text`` for a one-line message: a line break (and the leader after it) is one space."""
    if "\n" in text or "\r" in text:
        text = " ".join(part.strip() for part in text.splitlines())
    shown = text
    if len(shown) > MESSAGE_QUOTE:
        shown = shown[: MESSAGE_QUOTE - 1] + "…"
    return shown


def describe(original: str, replacement: str) -> str:
    """The message of a change: ``teh → the`` (``the the → the``, ``wow!!! → wow!``)."""
    if not replacement:
        return f"{_quoted(original)} → (delete)"
    return f"{_quoted(original)} → {_quoted(replacement)}"
