"""Software terms from cspell's ``@cspell/dict-software-terms`` (MIT): words of technical text
that the general word lists lack (``backtick``, ``heredoc``, ``transpiled``, ``hashmap``).

The English spelling engine never corrects one (:meth:`.spelling.Speller.correction`), and
review mode's ``unknown-word`` hint takes one as known (:func:`rephrase_ls.review.unknown.known`).
The list is ``data/software-terms.txt`` beside this module, made by
``bench/make_software_terms.py`` (its origin in its header, its licence beside it), read once,
on first use.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

__all__ = ["SOFTWARE_TERMS", "software_term", "software_terms"]

#: The file of the list, in ``data/`` beside this module.
SOFTWARE_TERMS: Final = "software-terms.txt"
# The plural endings a term takes (``backticks``, ``hashes``).
_PLURALS: Final = ("s", "es")


@lru_cache(maxsize=1)
def software_terms() -> frozenset[str]:
    """The lower-case, letters-only software terms of the list (2,900 words, about 0.3 MB)."""
    from importlib import resources

    text = resources.files(__package__).joinpath("data", SOFTWARE_TERMS).read_text("utf-8")
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def software_term(word: str) -> bool:
    """Whether the lower-case ``word`` is a software term or one with a plural ending
    (``backticks``, ``heredocs``, ``hashes``)."""
    terms = software_terms()
    return word in terms or any(
        word.endswith(ending) and word[: -len(ending)] in terms for ending in _PLURALS
    )
