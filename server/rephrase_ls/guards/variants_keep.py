"""A plain Improve keeps the document's spelling variant.

The service is asked for one variant (the document's when it can be told, else the
``englishVariant``/``portugueseVariant`` setting, since the service needs one) and spells every
word its way: ``behaviour`` → ``behavior`` in a document that writes both, ``organize`` →
``organise`` in a British one (Oxford spelling writes ``-ize`` too), ``colour`` → ``color`` in a
document whose variant nobody knows. Converting is what ``--convert`` and the conversion actions
are for. :func:`keep_variant_spellings` takes an answer's variant conversions out and keeps
every other change, except where the document is the requested variant with confidence and
writes no other word of the other one (:class:`DocumentVariant`): there a stray spelling of the
other variant is brought in line. ``-ize`` is never turned into ``-ise``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rephrase_ls.text.align import opcodes
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
    if base == "en":
        return _ize_ise(before, after) or _ize_ise(after, before)
    if base != "pt":
        return False
    # The progressive: "a fazer" (pt-PT) <-> "fazendo" (pt-BR).
    if before.startswith("a ") and " " not in before[2:]:
        return infinitive_to_gerund(before[2:]) == after
    if after.startswith("a ") and " " not in before:
        return gerund_to_infinitive(before) == after[2:]
    return False


def _ize_ise(old: str, new: str) -> bool:
    """Whether ``new`` is ``old`` with ``-ize``/``-yze`` (and their forms) spelt with an s,
    which the lists do not all hold; not a short word whose z is a slip (``sise`` → ``size``)."""
    if len(old) < 6 or len(old) != len(new) or " " in old:
        return False
    if old.replace("z", "s") != new.replace("z", "s"):
        return False
    return any(
        a == "z" and b == "s" and i > 0 and old[i - 1] in "iy"
        for i, (a, b) in enumerate(zip(old, new, strict=True))
    )


@dataclass(frozen=True)
class DocumentVariant:
    """What a document says of its variant, for :func:`keep_variant_spellings`."""

    confident: bool
    """The document is the requested variant, with confidence."""
    others: frozenset[str]
    """Its words (lower case) that belong to the other variant of the requested one."""

    def converts(self, old: str, new: str) -> bool:
        """Whether a plain Improve may respell ``old`` as ``new``: only a stray word of the
        other variant in a document confidently of the requested one, which writes no other
        word of the other variant, and never ``-ize`` as ``-ise``."""
        old, new = old.lower(), new.lower()
        return self.confident and self.others <= {old} and not _ize_ise(old, new)


UNKNOWN = DocumentVariant(False, frozenset())


def document_variant(text: str, target: str, confident: bool) -> DocumentVariant:
    """What ``text`` says of the variant ``target`` (``en-US``…): ``confident`` when its
    spelling showed that variant (the language choice read it), and its words of the other."""
    target = target.strip().lower().replace("_", "-")
    if target in ("en-us", "en-gb"):
        to_target = english_map(target)
    elif target in ("pt-br", "pt-pt"):
        to_target = portuguese_map(target)
    else:
        return UNKNOWN
    words = {word.lower() for word in set(_WORD.findall(text))}  # each distinct word once
    return DocumentVariant(confident, frozenset(w for w in words if w in to_target))


def keep_variant_spellings(
    original: str, replacement: str, language: str, document: DocumentVariant = UNKNOWN
) -> str:
    """``replacement`` without the changes of ``original`` that only convert between the
    variants of ``language`` (:func:`is_variant_change`), unless ``document`` allows the
    conversion (:meth:`DocumentVariant.converts`); every other change is applied."""
    if _WORD.findall(original.lower()) == _WORD.findall(replacement.lower()):
        return replacement  # the same words: nothing converted (spacing, punctuation, capitals)
    parts: list[str] = []
    pos = 0

    def kept(a: str, b: str) -> bool:
        return is_variant_change(a, b, language) and not document.converts(a, b)

    for edit in word_edits(original, replacement):
        parts.append(original[pos : edit.start])
        pos = edit.end
        changed = original[edit.start : edit.end]
        if kept(changed, edit.new_text):
            parts.append(changed)
            continue
        # Within the edit, word by word (equal, inserted and deleted parts as answered).
        old, new = _WORD_OR_NOT.findall(changed), _WORD_OR_NOT.findall(edit.new_text)
        for op, i1, i2, j1, j2 in opcodes(old, new):
            if op != "replace":
                parts.extend(new[j1:j2])
            elif i2 - i1 == j2 - j1:
                parts.extend(
                    a if kept(a, b) else b for a, b in zip(old[i1:i2], new[j1:j2], strict=True)
                )
            else:
                a, b = "".join(old[i1:i2]), "".join(new[j1:j2])
                parts.append(a if kept(a, b) else b)
    parts.append(original[pos:])
    return "".join(parts)
