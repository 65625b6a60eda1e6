"""Settings that hold entries for every language and per language: ``words`` and
``disabledRules``/``enabledRules`` as a list (every language) or a table of lists keyed by
language (``{ de = [...], "*" = [...] }``; ``"*"``: every language).

Entries are kept as ``(language, value)`` pairs, ``language`` lower case, ``""`` for every
language. A key names a base language (``de``: ``de``, ``de-ch``; ``en``: ``en-us`` and
``en-gb``) or one variant (``en-gb``: that one only).
"""

from __future__ import annotations

from collections.abc import Iterable

#: The key of a table's entries for every language.
EVERY = "*"

Pairs = tuple[tuple[str, str], ...]


def normal_key(key: str) -> str:
    """A language key as pairs keep it: lower case, ``_`` as ``-``, ``""`` for every language."""
    key = key.strip().lower().replace("_", "-")
    return "" if key == EVERY else key


def applies(key: str, target: str | None) -> bool:
    """Whether entries under ``key`` (as :func:`normal_key` gives it) apply to a document in
    ``target`` (``en-us``, ``de``; None: the language is unknown, only every-language entries)."""
    if not key:
        return True
    if not target:
        return False
    target = normal_key(target)
    return target == key or target.startswith(key + "-") or key.startswith(target + "-")


def select(pairs: Iterable[tuple[str, str]], target: str | None) -> frozenset[str]:
    """The values of ``pairs`` that apply to ``target``."""
    return frozenset(value for key, value in pairs if applies(key, target))


def union(first: Pairs, second: Pairs) -> Pairs:
    """Both lists of pairs, each pair once, in order."""
    return tuple(dict.fromkeys((*first, *second)))
