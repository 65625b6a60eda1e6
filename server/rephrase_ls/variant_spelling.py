"""A plain Improve keeps the document's spelling variant.

The service is asked for one variant (``en-US`` when the document's own cannot be told and the
settings say nothing else), and spells every word its way: ``behaviour`` → ``behavior`` in a
document that writes both, ``demoralized`` → ``demoralised`` in a British one (Oxford spelling
writes ``-ize`` too). Converting is what ``--convert`` and the conversion actions are for; a
plain Improve respells a word into the requested variant only when the document is that
variant with confidence (:func:`~rephrase_ls.text.variant_detect.detect_variant`) and writes no
other word of the word's variant (a mixed document is left alone), and never ``-ize`` into
``-ise``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rephrase_ls.text.diff import TextEdit

_WORD = re.compile(r"[^\W\d_]+")
#: How much of the document decides its variant (as for its language).
_SAMPLE = 32_000


def _respelling(old: str, new: str, to_target: dict[str, str]) -> bool:
    """Whether ``new`` is ``old`` spelt in the other variant (lower case both)."""
    if to_target.get(old) == new:
        return True
    # -ize/-ise, -yze/-yse and their forms, which the lists do not all hold (not a short word
    # whose s or z is a slip: "sise" → "size")
    if len(old) < 6 or len(old) != len(new) or old.replace("z", "s") != new.replace("z", "s"):
        return False
    return any(
        a != b and i > 0 and old[i - 1] in "iy"
        for i, (a, b) in enumerate(zip(old, new, strict=True))
    )


def keep_variant_spellings(text: str, edits: Sequence[TextEdit], target: str) -> list[TextEdit]:
    """``edits`` (of ``text``, for the variant ``target``) without the respellings of a word
    into ``target``'s variant that a plain Improve must not make (see the module)."""
    from rephrase_ls.text.variant_detect import detect_variant
    from rephrase_ls.text.variants import english_map, portuguese_map

    target = target.lower()
    base = target.split("-")[0]
    if target in ("en-us", "en-gb"):
        to_target = english_map(target)
    elif target in ("pt-br", "pt-pt"):
        to_target = portuguese_map(target)
    else:
        return list(edits)
    kept: list[TextEdit] = []
    confident: bool | None = None
    written: set[str] | None = None
    for edit in edits:
        old, new = text[edit.start : edit.end].lower(), edit.new_text.lower()
        if (
            old == new
            or _WORD.fullmatch(old) is None
            or _WORD.fullmatch(new) is None
            or not _respelling(old, new, to_target)
        ):
            kept.append(edit)
            continue
        if target == "en-gb" and "z" in old and "z" not in new:
            continue  # -ize is British too (Oxford spelling)
        if confident is None:
            confident = (detect_variant(text[:_SAMPLE], base) or "").lower() == target
            written = {word.lower() for word in _WORD.findall(text)}
        assert written is not None
        mixed = any(word != old and word in to_target for word in written)
        if confident and not mixed:
            kept.append(edit)
    return kept
