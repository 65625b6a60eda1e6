"""A plain Improve keeps the document's spelling variant when nobody knows which it is.

A document detected as English (or Portuguese) whose prose shows no spelling of either variant
(``detect_variant`` gives ``None``: no evidence, or as many of each) is sent with the variant of
the ``englishVariant``/``portugueseVariant`` setting as its target, since the service needs
one; the service then converts the other variant's spellings. :func:`keep_variant_spellings`
takes those conversions out of an answer and keeps every other change. An explicit conversion
(the convert command, ``--convert``) and a document whose variant is known are not filtered.
"""

from __future__ import annotations

import difflib
import re

from rephrase_ls.text.diff import word_edits
from rephrase_ls.text.variants import (
    english_map,
    gerund_to_infinitive,
    infinitive_to_gerund,
    portuguese_map,
)

_WORD_OR_NOT = re.compile(r"[^\W\d_]+|[\W\d_]+")
_WORD = re.compile(r"[^\W\d_]+")


def is_variant_change(old: str, new: str, language: str) -> bool:
    """Whether replacing ``old`` by ``new`` (a word or a few words) only converts between the
    variants of ``language`` (``en``, ``en-GB``, ``pt-BR``…; only its base counts), in either
    direction: ``colour``/``color``, ``ônibus``/``autocarro``, ``estou a fazer``/``estou
    fazendo``. Capitals are ignored."""
    base = language.strip().lower().replace("_", "-").split("-")[0]
    before = " ".join(_WORD.findall(old.lower()))
    after = " ".join(_WORD.findall(new.lower()))
    if not before or before == after:
        return False
    maps = {"en": (english_map("en-us"), english_map("en-gb")), "pt": (portuguese_map("pt-pt"),)}
    if any(m.get(before) == after or m.get(after) == before for m in maps.get(base, ())):
        return True  # either way, also pairs one direction leaves out ("casa de banho")
    if base != "pt":
        return False
    # The progressive: "a fazer" (pt-PT) <-> "fazendo" (pt-BR).
    if before.startswith("a ") and " " not in before[2:]:
        return infinitive_to_gerund(before[2:]) == after
    if after.startswith("a ") and " " not in before:
        return gerund_to_infinitive(before) == after[2:]
    return False


def keep_variant_spellings(original: str, replacement: str, language: str) -> str:
    """``replacement`` without the changes of ``original`` that only convert between the
    variants of ``language`` (:func:`is_variant_change`); every other change is applied."""
    parts: list[str] = []
    pos = 0
    for edit in word_edits(original, replacement):
        parts.append(original[pos : edit.start])
        pos = edit.end
        changed = original[edit.start : edit.end]
        if is_variant_change(changed, edit.new_text, language):
            parts.append(changed)
            continue
        # Within the edit, word by word (equal, inserted and deleted parts as answered).
        old, new = _WORD_OR_NOT.findall(changed), _WORD_OR_NOT.findall(edit.new_text)
        matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "replace":
                parts.extend(new[j1:j2])
            elif i2 - i1 == j2 - j1:
                parts.extend(
                    a if is_variant_change(a, b, language) else b
                    for a, b in zip(old[i1:i2], new[j1:j2], strict=True)
                )
            else:
                a, b = "".join(old[i1:i2]), "".join(new[j1:j2])
                parts.append(a if is_variant_change(a, b, language) else b)
    parts.append(original[pos:])
    return "".join(parts)
