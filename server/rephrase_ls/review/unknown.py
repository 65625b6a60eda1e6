"""Unknown words: a word no dictionary of the document's language knows, which the engine does
not confidently correct, with up to three suggestions.

A word is *known* when pyspellchecker's list for the language knows it or a regular inflection
of it (:meth:`~rephrase_ls.offline.engine.spelling.Speller.known`; in English, a short
inflection only when wordfreq has seen it: :data:`MIN_INFLECTED_ZIPF`, ``semed`` is not
``seme`` + ``d``); or wordfreq's large list has it at least :data:`MIN_KNOWN_ZIPF`
(:data:`MIN_KNOWN_ZIPF_SHORT` for a short English word, :data:`MIN_KNOWN_ZIPF_OTHER` outside
English; :func:`~rephrase_ls.offline.engine.lexicon.zipf`: ``config``, ``namespace``) and
codespell's list of common misspellings does not; or it is a technical stem wordfreq lists with
a regular ending (``structs``), a software term of cspell's list
(:func:`~rephrase_ls.offline.engine.software_terms.software_term`:
``deserialization``, ``hashmaps``), two common words written together (``typehint``), a common
word after ``sub``, ``auto``, ``multi`` and the like, or in English ``re``, ``un``, ``de``
(``subdomains``, ``reimplement``), a verb form the lists lack (Spanish ``declararías``,
``reiniciándola``), or, outside English, a word English knows (a loan: ``codebase``). In
English, a word with an apostrophe is known when it is a known word with an ending (``'s``,
``n't``, ``'ll``…: ``people's``, ``isn't``; not ``wha't``), and a contraction written without
its apostrophe (:data:`CONTRACTIONS`: ``dont``, ``thats``) never is. A technical word none of
these lists has (a project's own terms) is not known: the writer lists it in ``words``.

What is never an unknown word, as no finding ever touches it (the same guards): the protected
text of the tokenizer (code, URLs, paths, e-mail addresses, words with digits or underscores,
camelCase, all-caps words, quoted terms: a quoted span of fewer than
:data:`MIN_QUOTED_WORDS` words) and of the markup (inline code, links' addresses); a word the
document writes in code (:attr:`rephrase_ls.guards.chain.DocumentFacts.code`; ``dict's`` when
it writes ``dict``); a capitalised word (a name) except an English sentence's first word that
no web page has (:func:`_unseen`: ``Wiich``; a name the web knows, ``Django``, starts a
sentence unmarked); a word the writer listed (:class:`WordList`, with its case rules); a word
two paragraphs of the document write, with its apostrophe ending or not (a term: the engine's
context words; a slip repeated within one paragraph is still marked, as learners repeat
theirs); a word glued to code punctuation (``@name``, ``--verify``, ``argv[0]``, ``ifpdf*``);
a hyphenated word; a word without a vowel (an abbreviation or a command: ``gpg``) unless, in
English, no web page has it (``frmh``); a word in a paragraph of fewer than :data:`MIN_WORDS`
words (a list item naming something) or in one that reads as another language or a list of
names (:data:`FOREIGN_SHARE`); and a word the engine corrects (its ``spelling`` finding is the
diagnostic).

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
from rephrase_ls.offline.engine.software_terms import software_term, software_terms
from rephrase_ls.text.tokens import QUOTED, WORD, iter_tokens

__all__ = [
    "MAX_SUGGESTIONS",
    "MIN_KNOWN_ZIPF",
    "WordList",
    "known",
    "message",
    "software_terms",
    "stem",
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
#: 2.7 to 2.9, and children's slips in Holbrook's corpus). Technical short words are mostly
#: more common (``repo`` 3.1, ``diff`` 3.2) or written in code (``json`` 2.8, ``init`` 2.7).
SHORT_WORD: Final = 4
MIN_KNOWN_ZIPF_SHORT: Final = 3.0
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
#: An English word of at most :data:`SHORT_INFLECTION` letters the dictionary knows only as an
#: inflection of a listed word (``semed``: ``seme`` + ``d``; ``joged``, ``dowing``) is a word
#: only when wordfreq has seen it at least this often: the inflection rules are the spelling
#: engine's, which lets a slip pass as a form of a rare word; a short form of a real word is on
#: the web (a long one may be rare there: ``dependables``, ``lowercased``).
MIN_INFLECTED_ZIPF: Final = 1.0
SHORT_INFLECTION: Final = 8
#: A word wordfreq has seen less often than this is on no web page: the guards that spare
#: words without a vowel (``gpg``) and capitalised words (names) do not spare it
#: (``frmh``, ``Pollce``).
UNSEEN_ZIPF: Final = 1.0
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


#: English contractions written without their apostrophe, which no dictionary word spells
#: (``cant``, ``wont``, ``its``, ``lets``, ``were``, ``well``, ``hell``, ``shell``, ``ill``
#: are words, and not here), with the word meant: wordfreq's web text has them often
#: (``dont`` Zipf 4.7) and pyspellchecker's list takes ``thats`` for a plural.
CONTRACTIONS: Final[dict[str, str]] = {
    bare: full
    for full in (
        "don't", "doesn't", "didn't", "isn't", "wasn't", "weren't", "aren't", "hasn't",
        "haven't", "hadn't", "couldn't", "wouldn't", "shouldn't", "mustn't", "needn't",
        "mightn't", "ain't", "that's", "there's", "what's", "where's", "who's", "she's",
        "you're", "they're", "i've", "you've", "we've", "they've", "could've", "would've",
        "should've", "you'll", "they'll", "it'll", "that'll", "you'd", "they'd",
    )
    for bare in (full.replace("'", ""),)
}  # fmt: skip


def known(word: str, lang: str) -> bool:
    """Whether the lower-case ``word`` is a word of ``lang`` (see the module's docstring);
    a hyphenated or elided word when each of its parts is; in English, a word with an
    apostrophe when it is a known word with an ending (``pytest's``, ``isn't``: not
    ``wha't``), and never a contraction written without its apostrophe (:data:`CONTRACTIONS`)."""
    if lang == "en" and word in CONTRACTIONS:
        return False
    if _known_one(word, lang):
        return True
    if lang == "en" and "'" in word:
        head, _, tail = word.rpartition("'")
        if tail in _ENDINGS:
            if tail == "t":  # only "n't": "isn't", "doesn't"
                return head.endswith("n") and _known_one(head[:-1], lang)
            return bool(head) and known(head, lang)
    parts = [p for p in _PARTS.split(word) if p]
    if len(parts) < 2:
        return False
    if any(c in _APOSTROPHES for c in word):
        # "don't", "l'homme", "dell'anno": a short part is an ending or an elided article
        parts = [p for p in parts if not (p in _ENDINGS or len(p) <= 3)]
    return all(_known_one(p, lang) or len(p) < MIN_LENGTH for p in parts)


def _known_one(word: str, lang: str) -> bool:
    checker = spelling.speller(lang)
    if checker.known(word) and not _unseen_inflection(word, lang, checker):
        return True
    if _listed_misspelling(word, lang):
        return False
    if _listed(word, lang) or software_term(word):
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


def _unseen_inflection(word: str, lang: str, checker: spelling.Speller) -> bool:
    """Whether the English ``word``, which the dictionary knows, is known only as an
    inflection of a listed word and wordfreq has hardly seen it (:data:`MIN_INFLECTED_ZIPF`)."""
    return (
        lang == "en"
        and len(word) <= SHORT_INFLECTION
        and word not in checker.freq
        and word not in checker.extra
        and lexicon.zipf(lang, word) < MIN_INFLECTED_ZIPF
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
#: The least Zipf of the stem of a word longer than :data:`SHORT_INFLECTION` letters
#: (``refactoring``: ``refactor`` 1.9): a long slip rarely leaves a stem the web knows.
LONG_STEM_ZIPF: Final = 1.5
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
                and lexicon.zipf("en", candidate)
                >= (STEM_ZIPF if len(word) <= SHORT_INFLECTION else LONG_STEM_ZIPF)
                and not _listed_misspelling(candidate, "en")
            ):
                return True
    return False


#: Beginnings that make a word of a common word (``subdomains``, ``preconstruidas``).
_PREFIXES = ("sub", "auto", "multi", "micro", "meta", "pre", "post", "non")
#: English's commonest beginnings, which make words of common words of at least
#: :data:`MIN_STEM` + 1 letters (``reimplement``, ``unmounts``, ``declutter``; not ``remine``).
_EN_PREFIXES = ("re", "un", "de")


def _prefixed(word: str, checker: spelling.Speller) -> bool:
    """Whether ``word`` is a common word the dictionary knows with a beginning of
    :data:`_PREFIXES` (its rest of at least :data:`MIN_STEM` letters) or, in English,
    :data:`_EN_PREFIXES`."""
    english = _EN_PREFIXES if checker.lang == "en" else ()
    for prefix in (*_PREFIXES, *english):
        rest = word[len(prefix) :]
        if (
            word.startswith(prefix)
            and len(rest) >= (MIN_STEM + 1 if prefix in english else MIN_STEM)
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
        for at, value in _words(text, start, end):
            position = at + len(value)
            if not value[0].isalpha():
                continue
            words += 1
            if len(value) < MIN_LENGTH:
                continue
            capital = not value.islower()
            if capital and not (_capitalised(value) and _sentence_start(text, at)):
                continue  # a name, an abbreviation, camelCase: never reported
            word = value.strip("-'’")
            if "-" in word:
                continue  # a compound of the writer's making, or a name (``tufte-book``)
            lower = word.lower()
            bare = stem(lower)  # without its apostrophe ending: ``tufte's``
            if len(word) < MIN_LENGTH or bare in skip or lower in skip or listed.accepts(word):
                continue
            if at > 0 and text[at - 1] in _BEFORE_CODE:
                continue  # a handle, a tag, an option, a path: ``@name``, ``--verify``
            if text[position : position + 1] in _AFTER_CODE:
                continue  # a call, an index, a glob: ``argv[0]``, ``ifpdf*``
            if not _VOWEL.search(word) and not _unseen(bare, lang):
                continue  # no vowel: an abbreviation or a command (``gpg``, ``ls``), not a slip
            if capital and not _unseen(bare, lang):
                continue  # a sentence's first word, which may be a name: one the web knows
            if not known(lower.replace("’", "'"), lang):
                offset = at + value.index(word)
                found.append((offset, offset + len(word), word))
    if words < MIN_WORDS:
        return []  # a list item or a title of a word or two: a name (``\\item xifthen``)
    if len(found) >= FOREIGN_MIN_UNKNOWN and len(found) >= FOREIGN_SHARE * words:
        return []
    return found


#: A quoted span of at least this many words is speech or a sentence cited, whose words are
#: checked (``"Stop thif," he said``); a shorter one is a term, a value or a title.
MIN_QUOTED_WORDS: Final = 3


def _words(text: str, start: int, end: int) -> Iterator[tuple[int, str]]:
    """The words of ``text[start:end]`` with their offsets in ``text``, those of a quoted span
    of :data:`MIN_QUOTED_WORDS` words or more included."""
    position = start
    for kind, value in iter_tokens(text[start:end]):
        at = position
        position += len(value)
        if kind == WORD:
            yield at, value
        elif kind == QUOTED and len(value) > 2:
            inner = [(k, v) for k, v in iter_tokens(value[1:-1])]
            if sum(k == WORD for k, _ in inner) >= MIN_QUOTED_WORDS:
                yield from _words(text, at + 1, position - 1)


#: What ends a sentence: the next word's capital is the sentence's, not a name's.
_SENTENCE_END = frozenset(".!?")
#: What may stand between a sentence's end and its first word (quotes, brackets, emphasis).
_OPENERS = "\"'“‘„«([*_ \t\n"


def _sentence_start(text: str, at: int) -> bool:
    """Whether the word at ``at`` begins the paragraph ``text`` or a sentence in it."""
    before = text[:at].rstrip(_OPENERS)
    return not before or before[-1] in _SENTENCE_END


def _capitalised(word: str) -> bool:
    """Whether ``word`` is written with a capital first letter and the rest in lower case."""
    rest = word[1:]
    return word[0].isupper() and (not rest or rest == rest.lower())


def _unseen(word: str, lang: str) -> bool:
    """Whether the lower-case English ``word`` is on no web page: wordfreq has (nearly) never
    seen it (:data:`UNSEEN_ZIPF`), nor its stem without a regular ending (``navbars``:
    ``navbar`` is seen). Only English: the rules that use it were measured on English alone."""
    if lang != "en":
        return False
    stems = [word]
    for suffix in _EN_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            stems.append(word[: -len(suffix)])
    return all(lexicon.zipf(lang, stem) < UNSEEN_ZIPF for stem in stems)


def stem(word: str) -> str:
    """``word`` without its apostrophe ending (``Tufte's``: ``Tufte``), as written."""
    return min(_forms(word), key=len)


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
    if lang == "en" and lower in CONTRACTIONS:
        found[CONTRACTIONS[lower]] = 200.0
    ranked = sorted(found, key=lambda c: (-found[c], c))[:MAX_SUGGESTIONS]
    if _capitalised(word):  # ``Pollce``: ``Police``, not ``police``
        ranked = [c if c in listed.exact else c[:1].upper() + c[1:] for c in ranked]
    return tuple(ranked)


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
