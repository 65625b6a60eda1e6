"""The document's guards on an answer: what a paragraph's answer may not change, whatever the
service (or the offline engine) says, because of what the rest of the document shows.

One chain, :func:`guard`, used by Improve (:mod:`rephrase_ls.improve.round_trip`) for each
answer and by review mode's offline findings (:mod:`rephrase_ls.review.findings`) for each
paragraph the engine changes, so that a finding never proposes what Improve would not do. In
order:

1. a paragraph that goes on an open sentence, or is set apart from the running prose, keeps its
   lower-case start (:mod:`rephrase_ls.guards.open_sentence`);
2. a word the document writes in code is not changed in the prose
   (:func:`~rephrase_ls.guards.code_words.keep_code_words`);
3. when the request keeps the document's variant (``keep_variant``: a plain Improve of a document
   whose variant the writer did not set), variant conversions are taken out unless the document
   allows them (:mod:`rephrase_ls.guards.variants_keep`);
4. a word the document writes only in lower case is not capitalised
   (:func:`~rephrase_ls.guards.code_words.keep_lower_case_words`);
5. a document that puts two spaces between sentences keeps them
   (:mod:`rephrase_ls.guards.house_style`).

The document-level facts these read are kept in a :class:`DocumentFacts`, each computed on first
use, once per version of the document.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rephrase_ls.guards.code_words import (
    code_word_parts,
    code_words,
    keep_code_words,
    keep_lower_case_words,
)
from rephrase_ls.guards.house_style import keep_sentence_spacing, two_spaces_between_sentences
from rephrase_ls.guards.open_sentence import keep_open_sentence, keeps_lower_start, prose_ends
from rephrase_ls.guards.variants_keep import (
    DocumentVariant,
    document_variant,
    keep_variant_spellings,
)
from rephrase_ls.text.detect import is_common_word

if TYPE_CHECKING:
    from rephrase_ls.text.markup import ProseBlock
    from rephrase_ls.text.paragraphs import Paragraph

__all__ = ["DocumentFacts", "Signals", "VariantFacts", "facts_key", "guard", "may_act", "signals"]

_LETTER_RUN = re.compile(r"[^\W\d_]+")
_LETTER = re.compile(r"[^\W\d_]")


def _runs(text: str, word: str) -> Iterator[int]:
    """Where ``word`` stands in ``text`` as a whole letter run (no letter either side)."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not _LETTER.match(text, at - 1)) and not _LETTER.match(text, end):
            yield at
        at = text.find(word, at + 1)


def _only_lower(text: str, word: str) -> bool:
    """Whether ``text`` writes ``word`` only in lower case, as names their owners write so
    (``zlib``, ``npm``, ``git``): two letters or more in lower case, written so three times or
    more, never with a capital first letter and the rest in lower case (words in capitals
    aside: a title in capitals says nothing), and no common word of a language (``this`` at a
    sentence start is a slip)."""
    if len(word) < 2 or not word.islower() or is_common_word(word):
        return False
    for first in {word[0].upper(), word[0].title()}:
        capital = first + word[1:]
        if len(first) == 1 and first != word[0] and next(_runs(text, capital), None) is not None:
            return False
    return sum(1 for _ in itertools.islice(_runs(text, word), 3)) == 3


class VariantFacts(Protocol):
    """What a request says of the spelling variant: the target it asks for (``en-US``, or None
    when it sends none), whether an answer's variant conversions are taken out
    (``keep_variant``), and whether the target's variant was read from the document
    (``variant_detected``). :class:`rephrase_ls.improve.options.Mode` is one."""

    @property
    def target_lang(self) -> str | None: ...

    @property
    def keep_variant(self) -> bool: ...

    @property
    def variant_detected(self) -> bool: ...


class DocumentFacts:
    """What the guards read of one version of a document, each fact computed on first use.

    ``blocks``: the document's prose blocks (or the paragraphs themselves), as the pipeline has
    them (without the ``rephrase: language=xx`` directives). ``stripped``: the spans the
    format's tool strips (:func:`rephrase_ls.text.markup.stripped_spans`), neither prose nor code.
    """

    def __init__(
        self,
        text: str,
        blocks: Sequence[ProseBlock | Paragraph],
        stripped: Sequence[tuple[int, int]] = (),
    ) -> None:
        self.text = text
        self.blocks = blocks
        self.stripped = stripped
        self._ends: tuple[list[int], list[int]] | None = None
        self._code: frozenset[str] | None = None
        self._lower: dict[str, bool] = {}
        self._two_spaces: bool | None = None
        self._variants: dict[tuple[str, bool], DocumentVariant] = {}

    @property
    def ends(self) -> tuple[list[int], list[int]]:
        """The blocks' starts and ends (:func:`~rephrase_ls.guards.open_sentence.prose_ends`)."""
        if self._ends is None:
            self._ends = prose_ends(self.blocks)
        return self._ends

    @property
    def code(self) -> frozenset[str]:
        """The words the document writes in code
        (:func:`~rephrase_ls.guards.code_words.code_words`)."""
        if self._code is None:
            self._code = code_words(self.text, self.blocks, self.stripped)
        return self._code

    def lower_case(self, words: Iterable[str]) -> frozenset[str]:
        """Those of ``words`` that it writes only in lower case (:func:`_only_lower`), each
        word looked up alone (a few finds in the text: the words a paragraph's answer
        capitalises, not all of the document's)."""
        found = []
        for word in words:
            known = self._lower.get(word)
            if known is None:
                known = self._lower[word] = _only_lower(self.text, word)
            if known:
                found.append(word)
        return frozenset(found)

    @property
    def two_spaces(self) -> bool:
        """Whether it puts two spaces between sentences
        (:func:`~rephrase_ls.guards.house_style.two_spaces_between_sentences`)."""
        if self._two_spaces is None:
            self._two_spaces = two_spaces_between_sentences(self.text)
        return self._two_spaces

    def variant(self, target: str, detected: bool) -> DocumentVariant:
        """What it says of the variant ``target``
        (:func:`~rephrase_ls.guards.variants_keep.document_variant`)."""
        key = (target, detected)
        found = self._variants.get(key)
        if found is None:
            found = self._variants[key] = document_variant(self.text, target, detected)
        return found


def guard(
    start: int, span: str, replacement: str, variant: VariantFacts, facts: DocumentFacts
) -> str:
    """``replacement`` for the paragraph whose text ``span`` starts at ``start`` in
    ``facts.text``, with what the document's guards keep (see the module's docstring) kept as
    in ``span``; every other change is applied. ``variant``: the request's variant facts
    (a :class:`~rephrase_ls.improve.options.Mode`)."""
    if replacement == span:
        return replacement
    if keeps_lower_start(facts.text, start, facts.ends):
        replacement = keep_open_sentence(span, replacement)
    if replacement != span:
        replacement = keep_code_words(span, replacement, facts.code)
    target = variant.target_lang
    if replacement != span and variant.keep_variant and target is not None:
        document = facts.variant(target, variant.variant_detected)
        replacement = keep_variant_spellings(span, replacement, target, document)
    if replacement != span and (capitalised := _capitalised(span, replacement)):
        lower = facts.lower_case(capitalised)
        if lower:
            replacement = keep_lower_case_words(span, replacement, lower)
    if replacement != span and facts.two_spaces:
        replacement = keep_sentence_spacing(span, replacement)
    return replacement


def _capitalised(original: str, replacement: str) -> set[str]:
    """The words of ``original`` (two letters or more) whose form with a capital first letter
    ``replacement`` writes: those :func:`~rephrase_ls.guards.code_words.keep_lower_case_words` may
    keep."""
    said = set(_LETTER_RUN.findall(original))
    return {
        lower
        for run in _LETTER_RUN.findall(replacement)
        if len(run) > 1 and (lower := run[0].lower() + run[1:]) != run and lower in said
    }


@dataclass(frozen=True, slots=True)
class Signals:
    """What a paragraph's changes offer the guards, whatever the rest of the document says
    (:func:`signals`; kept with review mode's cached findings)."""

    code: frozenset[str]
    """The words of the changed text, as code words are compared."""
    capitalised: frozenset[str]
    """The words the changes give a capital first letter."""
    spaces: bool
    """A change covers two spaces or more."""
    conversions: bool
    """A change converts between the variants of the target."""


_NO_SIGNALS = Signals(frozenset(), frozenset(), False, False)


def signals(changes: Iterable[tuple[str, str]], target: str | None) -> Signals:
    """The :class:`Signals` of ``changes`` (each the original words and what replaces them, as
    review mode's findings have them) for a request to ``target``."""
    code: set[str] = set()
    capitalised: set[str] = set()
    spaces = conversions = False
    for original, replacement in changes:
        code.update(w for run in _LETTER_RUN.findall(original) for w in code_word_parts(run))
        capitalised |= _capitalised(original, replacement)
        spaces = spaces or "  " in original
        conversions = conversions or (
            target is not None
            and keep_variant_spellings(original, replacement, target) != replacement
        )
    if not (code or capitalised or spaces or conversions):
        return _NO_SIGNALS  # one object for every paragraph without findings
    return Signals(frozenset(code), frozenset(capitalised), spaces, conversions)


def facts_key(
    start: int, found: Signals, variant: VariantFacts, facts: DocumentFacts
) -> tuple[object, ...]:
    """The facts of the document :func:`guard` reads for the paragraph at ``start`` whose
    changes give ``found``: equal keys, the same guarded answer (review mode caches it so)."""
    target = variant.target_lang
    document = (
        facts.variant(target, variant.variant_detected)
        if found.conversions and variant.keep_variant and target is not None
        else None
    )
    return (
        keeps_lower_start(facts.text, start, facts.ends),
        found.code & facts.code,
        facts.lower_case(found.capitalised) if found.capitalised else None,
        found.spaces and facts.two_spaces,
        None if document is None else (document.confident, document.others),
    )


def may_act(start: int, found: Signals, variant: VariantFacts, facts: DocumentFacts) -> bool:
    """Whether :func:`guard` may keep something of the answer for the paragraph at ``start``
    whose changes give ``found`` (:func:`signals`): False when no guard can act on them, so
    that the paragraph's answer need not be rebuilt. Reads only the facts a change needs."""
    if keeps_lower_start(facts.text, start, facts.ends):
        return True
    if not found.code.isdisjoint(facts.code):
        return True
    if found.conversions and variant.keep_variant and variant.target_lang is not None:
        return True  # taken out unless the document allows it
    if found.capitalised and facts.lower_case(found.capitalised):
        return True
    return found.spaces and facts.two_spaces
