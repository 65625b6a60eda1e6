"""Unknown words: a word no dictionary of the document's language knows, which the engine does
not confidently correct, with up to three suggestions.

A word is *known* when pyspellchecker's list for the language knows it or a regular
inflection of it (:meth:`~rephrase_ls.offline.engine.spelling.Speller.known`); or wordfreq's
large list has it at least :data:`MIN_KNOWN_ZIPF` (:data:`MIN_KNOWN_ZIPF_OTHER` outside
English; :func:`~rephrase_ls.offline.engine.lexicon.zipf`: ``config``, ``namespace``) and
codespell's list of common misspellings does not; or it is a technical stem wordfreq lists
with a regular ending (``structs``), two common words written together (``typehint``), a common
word after ``sub``, ``auto``, ``multi`` and the like (``subdomains``), a verb form the lists
lack (Spanish ``declararías``, ``reiniciándola``), or, outside English, a word English knows
(a loan: ``codebase``). Rarer technical words (``stdin``, ``refactor``) are not known: the
writer lists them in ``words``.

What is never an unknown word, as no finding ever touches it (the same guards): the protected
text of the tokenizer (code, URLs, paths, e-mail addresses, words with digits or underscores,
camelCase, all-caps words, quoted spans) and of the markup (inline code, links' addresses);
a word the document writes in code (:attr:`rephrase_ls.guards.chain.DocumentFacts.code`);
a capitalised word (a name, or a sentence's first word: names start sentences too); a word the
writer listed (:class:`WordList`, with its case rules); a word two paragraphs of the document
write (a term: the engine's context words; a slip repeated within one paragraph is still
marked, as learners repeat theirs); a word glued to code punctuation (``@name``,
``--verify``, ``argv[0]``, ``ifpdf*``); a hyphenated word; a word without a vowel (an
abbreviation or a command: ``gpg``); a word in a paragraph of fewer than :data:`MIN_WORDS`
words (a list item naming something) or in one that reads as another language
or a list of names (:data:`FOREIGN_SHARE`); and a word the engine corrects (its ``spelling``
finding is the diagnostic).

Suggestions (:func:`suggestions`): the listed words within two edits, the dictionary's words
one edit away (a letter left out, added, changed, or two neighbours swapped), likeliest first
(wordfreq's frequency), then codespell's corrections; at most :data:`MAX_SUGGESTIONS`. Words
two edits away are not looked for: in a document full of unknown words (a hostile one, or one
in a language the detector takes for another) that search would cost a tenth of a second a
word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from rephrase_ls.offline.engine import lexicon, spelling
from rephrase_ls.offline.engine.edit_shapes import strip_accents
from rephrase_ls.offline.engine.misspellings import known_misspellings
from rephrase_ls.text.tokens import WORD, iter_tokens

__all__ = [
    "MAX_SUGGESTIONS",
    "MIN_KNOWN_ZIPF",
    "WordList",
    "known",
    "message",
    "suggestions",
    "unknown_words",
]

#: A word wordfreq lists at least this often (Zipf: log10 of its count per 10^9 words) is a
#: word. Its lists also hold common misspellings (``recieve`` 2.5, ``teh`` 3.0), so the bar is
#: where published technical prose's rare words are above and learners' slips mostly below
#: (bench/bench_unknown_words.py).
MIN_KNOWN_ZIPF: Final = 2.5
#: An English word of at most :data:`SHORT_WORD` letters needs more: web text is full of short
#: strings that are a slip elsewhere (``lod``, ``hom``, ``sed`` are names and abbreviations, Zipf
#: 2.7 to 2.9, and children's slips in Holbrook's corpus).
SHORT_WORD: Final = 4
MIN_KNOWN_ZIPF_SHORT: Final = 2.5
#: Outside English the lists are thinner (pyspellchecker's lack many verb forms: Spanish
#: ``implementarás``), so any word wordfreq lists at all is taken as known.
MIN_KNOWN_ZIPF_OTHER: Final = 1.0
#: A paragraph where at least this many words, and this share of its words, are unknown is
#: in another language (Latin filler text) or a list of names (commands, packages): none is
#: reported.
FOREIGN_MIN_UNKNOWN: Final = 4
FOREIGN_SHARE: Final = 0.35
#: A compound of two words the dictionary knows, each of at least this many letters, is a
#: word (``subfolder``, ``typehint``).
COMPOUND_PART: Final = 4
#: A paragraph of fewer words is a title or a list item naming something (``natbib and
#: bibentry``): not checked.
MIN_WORDS: Final = 4
_VOWEL = re.compile(r"[aeiouyàáâãäåæèéêëìíîïòóôõöøœùúûü]", re.IGNORECASE)
_BEFORE_CODE = frozenset("@#-/.=$\\<:~")
_AFTER_CODE = frozenset("[(*/=<>{:_@")
#: Words shorter than this are not checked (abbreviations, units: ``ms``, ``px``).
MIN_LENGTH: Final = 3
#: The most suggestions one unknown word gets.
MAX_SUGGESTIONS: Final = 3
#: A suggestion from the dictionary is a word at least this common (Zipf).
MIN_SUGGESTION_ZIPF: Final = 2.0

_APOSTROPHES = "'’"
# Endings after an apostrophe that make another word of a known one (possessive, contraction).
_ENDINGS = frozenset({"s", "t", "ll", "ve", "re", "d", "m"})
_PARTS = re.compile(r"[-'’]")


@dataclass(frozen=True)
class WordList:
    """The writer's words, with the case rules of spell checkers: a listed word is accepted
    as written and with a possessive or plural apostrophe ending (``Kubernetes'``,
    ``Kubernetes’s``); a listed lower-case word also in its capitalised form, and in capitals."""

    exact: frozenset[str]
    lower: frozenset[str]

    @classmethod
    def of(cls, words: Iterable[str]) -> WordList:
        listed = frozenset(w for w in words if w)
        return cls(listed, frozenset(w for w in listed if w.islower()))

    def accepts(self, word: str) -> bool:
        """Whether ``word`` (as written in the document) is a listed word."""
        for form in _forms(word):
            if form in self.exact:
                return True
            folded = form.lower()
            if folded in self.lower and form in (folded.capitalize(), folded.upper()):
                return True
        return False


def _forms(word: str) -> Iterator[str]:
    """``word`` and, when it ends in one, without its apostrophe ending (``'s``, ``’``)."""
    yield word
    for mark in _APOSTROPHES:
        if word.endswith(mark):
            yield word[:-1]
        for ending in ("s", "S"):
            if word.endswith(mark + ending):
                yield word[:-2]


def known(word: str, lang: str) -> bool:
    """Whether the lower-case ``word`` is a word of ``lang`` (see the module's docstring);
    a hyphenated or elided word when each of its parts is."""
    if _known_one(word, lang):
        return True
    parts = [p for p in _PARTS.split(word) if p]
    if len(parts) < 2:
        return False
    if any(c in _APOSTROPHES for c in word):
        # "don't", "l'homme", "dell'anno": a short part is an ending or an elided article
        parts = [p for p in parts if not (p in _ENDINGS or len(p) <= 3)]
    return all(_known_one(p, lang) or len(p) < MIN_LENGTH for p in parts)


def _known_one(word: str, lang: str) -> bool:
    checker = spelling.speller(lang)
    if checker.known(word):
        return True
    if _listed_misspelling(word, lang):
        return False
    if _listed(word, lang):
        return True
    if lang != "en" and (
        lexicon.zipf("en", word) >= spelling.LOAN_MIN_ENGLISH_ZIPF or _known_one(word, "en")
    ):
        return True  # an English term in another language's text (a loan: ``codebase``)
    return (
        _compound(word, checker)
        or _derived(word, lang)
        or _prefixed(word, checker)
        or _with_clitic(word, lang)
        or _verb_form(word, lang)
    )


def _listed(word: str, lang: str) -> bool:
    """Whether wordfreq lists ``word`` often enough to be a word of ``lang``."""
    if lang != "en":
        floor = MIN_KNOWN_ZIPF_OTHER
    elif len(word) <= SHORT_WORD:
        floor = MIN_KNOWN_ZIPF_SHORT
    else:
        floor = MIN_KNOWN_ZIPF
    return lexicon.zipf(lang, word) >= floor


#: English endings a technical word takes (``structs``, ``lookups``, ``diffed``): a word is
#: known when wordfreq lists its stem (which pyspellchecker's list lacks: the speller decides
#: the endings of the words it knows).
_EN_SUFFIXES = ("s", "es", "ed", "ing")
#: The shortest stem an ending is taken off to leave.
MIN_STEM: Final = 4
#: The least Zipf of a technical stem wordfreq lists (``tuple`` 2.4, ``struct`` 2.5).
STEM_ZIPF: Final = 2.0
#: The least Zipf each part of a compound has (``subfolder`` is not, ``typehint`` is).
COMPOUND_ZIPF: Final = 3.0


def _derived(word: str, lang: str) -> bool:
    """Whether the English ``word`` is a technical word wordfreq lists with a regular ending."""
    if lang != "en":
        return False
    checker = spelling.speller("en")
    for suffix in _EN_SUFFIXES:
        stem = word[: -len(suffix)]
        if not word.endswith(suffix) or len(stem) < MIN_STEM:
            continue
        for candidate in (stem, stem + "e", stem[:-1] if stem[-1:] == stem[-2:-1] else ""):
            if (
                len(candidate) >= MIN_STEM
                and not checker.known(candidate)
                and lexicon.zipf("en", candidate) >= STEM_ZIPF
                and not _listed_misspelling(candidate, "en")
            ):
                return True
    return False


#: Beginnings that make a word of a common word (``subdomains``, ``preconstruidas``).
_PREFIXES = ("sub", "auto", "multi", "micro", "meta", "pre", "post", "non")


def _prefixed(word: str, checker: spelling.Speller) -> bool:
    """Whether ``word`` is a common word the dictionary knows with a beginning of
    :data:`_PREFIXES` (its rest of at least :data:`MIN_STEM` letters)."""
    for prefix in _PREFIXES:
        rest = word[len(prefix) :]
        if (
            word.startswith(prefix)
            and len(rest) >= MIN_STEM
            and checker.known(rest)
            and lexicon.zipf(checker.lang, rest) >= COMPOUND_ZIPF
        ):
            return True
    return False


#: Endings of Spanish, Italian and Portuguese verb forms the lists lack (future, conditional,
#: imperfect subjunctive, gerund, participle), after the infinitive's stem.
_VERB_ENDINGS: Final[dict[str, tuple[str, ...]]] = {
    "es": ("áramos", "iéramos", "aríamos", "eríamos", "iríamos", "arías", "erías", "irías",
           "aría", "ería", "iría", "arían", "erían", "irían", "arás", "erás", "irás", "ará",
           "erá", "irá", "arán", "erán", "irán", "aremos", "eremos", "iremos", "ando",
           "iendo", "ado", "ada", "ados", "adas", "ido", "ida", "idos", "idas", "aras",
           "ieras", "ara", "iera", "aran", "ieran", "aste", "iste", "asteis", "isteis"),
    "pt": ("aríamos", "eríamos", "iríamos", "aria", "eria", "iria", "ariam", "eriam",
           "iriam", "arás", "erás", "irás", "ará", "erá", "irá", "arão", "erão", "irão",
           "aremos", "eremos", "iremos", "ando", "endo", "indo", "ado", "ada", "ados",
           "adas", "ido", "ida", "idos", "idas"),
    "it": ("erei", "eresti", "erebbe", "eremmo", "ereste", "erebbero", "erà", "eranno",
           "ando", "endo", "ato", "ata", "ati", "ate", "uto", "uta", "uti", "ute", "ito",
           "ita", "iti", "ite"),
}  # fmt: skip
_INFINITIVES: Final[dict[str, tuple[str, ...]]] = {
    "es": ("ar", "er", "ir"),
    "pt": ("ar", "er", "ir"),
    "it": ("are", "ere", "ire"),
}


def _verb_form(word: str, lang: str) -> bool:
    """Whether ``word`` is a form of a verb the dictionary knows (:data:`_VERB_ENDINGS`)."""
    endings = _VERB_ENDINGS.get(lang)
    if not endings:
        return False
    checker = spelling.speller(lang)
    for ending in endings:
        stem = word[: -len(ending)]
        if (
            word.endswith(ending)
            and len(stem) >= 2
            and any(checker.known(stem + inf) for inf in _INFINITIVES[lang])
        ):
            return True
    return False


#: Object pronouns Spanish, Italian and Portuguese write onto a verb (``reiniciándola``).
_CLITICS = ("la", "las", "lo", "los", "le", "les", "se", "me", "te", "nos", "os", "lo", "gli",
            "ne", "ci", "vi", "mi", "ti", "si")  # fmt: skip


def _with_clitic(word: str, lang: str) -> bool:
    """Whether ``word`` is a verb form of ``lang`` (es, it, pt) with pronouns written onto it,
    or a form wordfreq lacks whose unaccented spelling it lists (``implementarás``)."""
    if lang not in ("es", "it", "pt"):
        return False
    plain = strip_accents(word)
    if plain != word and _listed(plain, lang):
        return True
    for clitic in _CLITICS:
        for second in ("", *_CLITICS):
            ending = clitic + second
            stem = plain[: -len(ending)]
            if (
                plain.endswith(ending)
                and len(stem) >= MIN_STEM
                and (spelling.speller(lang).known(stem) or _listed(stem, lang))
            ):
                return True
    return False


def _listed_misspelling(word: str, lang: str) -> bool:
    """Whether codespell's list of common misspellings has ``word`` (English)."""
    if lang != "en":
        return False
    listing = known_misspellings(lang)
    return listing.get(word) is not None or bool(listing.alternatives(word))


def _compound(word: str, checker: spelling.Speller) -> bool:
    """Whether ``word`` is two common words the dictionary knows written together
    (``typehint``, ``backlink``)."""
    for i in range(COMPOUND_PART, len(word) - COMPOUND_PART + 1):
        head, tail = word[:i], word[i:]
        if all(
            checker.known(part) and lexicon.zipf(checker.lang, part) >= COMPOUND_ZIPF
            for part in (head, tail)
        ):
            return True
    return False


def unknown_words(
    text: str,
    spans: Iterable[tuple[int, int]],
    lang: str,
    listed: WordList,
    skip: frozenset[str],
) -> list[tuple[int, int, str]]:
    """The unknown words of ``text`` (a paragraph) inside ``spans`` (its prose, protected text
    left out), as ``(start, end, word)``; none when the paragraph reads as another language or
    a list of names (:data:`FOREIGN_MIN_UNKNOWN`, :data:`FOREIGN_SHARE`). ``skip``: lower-case
    words never reported (the document's terms)."""
    found: list[tuple[int, int, str]] = []
    words = 0
    for start, end in spans:
        position = start
        for kind, value in iter_tokens(text[start:end]):
            at = position
            position += len(value)
            if kind != WORD or not value[0].isalpha():
                continue
            words += 1
            if len(value) < MIN_LENGTH or not value.islower():
                continue  # a capital: a name, or a sentence's first word
            word = value.strip("-'’")
            if "-" in word:
                continue  # a compound of the writer's making, or a name (``tufte-book``)
            if len(word) < MIN_LENGTH or word in skip or listed.accepts(word):
                continue
            if at > 0 and text[at - 1] in _BEFORE_CODE:
                continue  # a handle, a tag, an option, a path: ``@name``, ``--verify``
            if text[position : position + 1] in _AFTER_CODE:
                continue  # a call, an index, a glob: ``argv[0]``, ``ifpdf*``
            if not _VOWEL.search(word):
                continue  # no vowel: an abbreviation or a command (``gpg``, ``ls``), not a slip
            if not known(word.replace("’", "'"), lang):
                offset = at + value.index(word)
                found.append((offset, offset + len(word), word))
    if words < MIN_WORDS:
        return []  # a list item or a title of a word or two: a name (``\\item xifthen``)
    if len(found) >= FOREIGN_MIN_UNKNOWN and len(found) >= FOREIGN_SHARE * words:
        return []
    return found


@lru_cache(maxsize=4096)
def suggestions(word: str, lang: str, listed: WordList) -> tuple[str, ...]:
    """Up to :data:`MAX_SUGGESTIONS` words ``word`` (lower case) may have been meant as,
    likeliest first: listed words first, then the dictionary's."""
    found: dict[str, float] = {}
    lower = word.lower()
    for candidate in listed.exact:
        if _within(lower, candidate.lower(), 2):
            found[candidate] = 100.0
    checker = spelling.speller(lang)
    for candidate in _edits(lower, checker.alphabet):
        zipf = _suggestion_zipf(candidate, lang, checker)
        if zipf:
            found[candidate] = max(found.get(candidate, 0.0), zipf)
    if len(found) < MAX_SUGGESTIONS and lang == "en":
        listing = known_misspellings(lang)
        for listed_word in (listing.get(lower), *sorted(listing.alternatives(lower))):
            if listed_word and listed_word not in found:
                found[listed_word] = 50.0
    ranked = sorted(found, key=lambda c: (-found[c], c))
    return tuple(ranked[:MAX_SUGGESTIONS])


def message(word: str, offered: tuple[str, ...]) -> str:
    """The diagnostic's message: ``wurd: unknown word (word, ward?)``."""
    if not offered:
        return f"{word}: unknown word"
    return f"{word}: unknown word ({', '.join(offered)}?)"


def _suggestion_zipf(candidate: str, lang: str, checker: spelling.Speller) -> float:
    """The Zipf of a dictionary word fit to suggest, 0.0 for any other."""
    if candidate not in checker.freq:
        return 0.0
    zipf = lexicon.zipf(lang, candidate)
    return zipf if zipf >= MIN_SUGGESTION_ZIPF else 0.0


def _edits(word: str, alphabet: str) -> set[str]:
    """The strings one edit away from ``word``: a letter left out, added or changed, or two
    neighbours swapped."""
    out: set[str] = set()
    for i in range(len(word) + 1):
        left, right = word[:i], word[i:]
        if right:
            out.add(left + right[1:])
            if len(right) > 1:
                out.add(left + right[1] + right[0] + right[2:])
            out.update(left + c + right[1:] for c in alphabet)
        out.update(left + c + right for c in alphabet)
    out.discard(word)
    return out


def _within(a: str, b: str, limit: int) -> bool:
    """Whether ``a`` and ``b`` are at most ``limit`` edits apart."""
    from rephrase_ls.offline.engine.edit_shapes import edit_distance

    return abs(len(a) - len(b)) <= limit and edit_distance(a, b) <= limit
