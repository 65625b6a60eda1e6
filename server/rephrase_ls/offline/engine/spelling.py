# Over 400 lines: the Speller's tiers are one decision, read top to bottom with their thresholds.
"""Conservative spelling correction: a word is changed only when the engine is confident.

A word is a candidate for correction only when pyspellchecker's list lacks it (and it is not
a regular inflection of a listed word, :meth:`Speller.known`). Its correction is, in order:

0. (English) its one correction in the list of common misspellings (codespell's dictionary,
   from Wikipedia's list), if that dominates the words one edit away
   (:meth:`Speller._listed_wins`), or, when the list gives no other, is one edit away and
   not outscored by any of them (:meth:`Speller._listed_sole`), or, in a long word, when no
   word one edit away rivals it although it is rarer (:meth:`Speller._listed_long`);
1. an accented spelling of the word ("deja" -> "déjà"; German also "wuerde" -> "würde");
2. a typical slip: two neighbours swapped, a doubled letter added or dropped (5+ letters), an
   accent added or changed (never dropped; Portuguese: only added); a three-letter word only
   to a very common word (``MIN_SHORT_CANDIDATE_ZIPF``);
3. (``MIN_EDIT_LENGTH``+ letters, not ``SLIPS_ONLY`` languages) a letter added or one vowel
   changed for another, not in the first letter or the last two, to a word of Zipf
   ``EDIT_MIN_CANDIDATE_ZIPF``+;
4. (English, ``WEIGHTED_EDITS``) the word one edit away that is likeliest, its Zipf less the
   cost of its edit as a misspelling (:func:`edit_cost`), ``WEIGHTED_DOMINANCE`` ahead of the
   next; in words of ``WEIGHTED_SHORT_LENGTH`` letters up to ``WEIGHTED_MIN_LENGTH`` only a
   letter left out ("marrid" -> "married"), or, from ``WEIGHTED_TOO_MANY_LENGTH``, one too
   many before the last two ("poertry" -> "poetry"), and from ``WEIGHTED_SWAP_LENGTH`` two
   neighbours swapped in a word wordfreq has never seen ("jucie" -> "juice").

5. (English, ``ONLY_WORD_MIN_LENGTH``+ letters) a word wordfreq has never seen written, nor
   its stem (:func:`_seen_stem`), and not a coinage of a common word (:func:`_coined`:
   "memoized", "prerender"): its dominant neighbour one edit away, if that is a plain slip
   (:func:`plain_slip`: "refresment" -> "refreshment", "voteing" -> "voting").
6. (English, ``SKELETON_MIN_LENGTH``+ letters) a word wordfreq has never seen (nor its stem,
   nor a coinage or a contraction without its apostrophe): the one common word with its
   consonants (:func:`skeleton`) up to two edits away, when no word that sounds alike rivals
   it (:meth:`Speller._by_skeleton`: "neccasary" -> "necessary", "litriture" -> "literature").
7. (English, ``LIKELIEST_MIN_LENGTH``+ letters) a word wordfreq has never seen: the listed word
   with its first letter whose Zipf less the misspelling's cost (:func:`learner_cost`) leads
   every other by ``LIKELIEST_LEAD`` (:meth:`Speller._likeliest`: "trobel" -> "trouble").
8. (English, ``NEAREST_MIN_LENGTH``+ letters) a word wordfreq has never seen: the likeliest
   listed word up to two edits of any kind away (:meth:`Speller._nearest_long`:
   "magnifiscant" -> "magnificent").
9. (German, Spanish, ``NEIGHBOUR_LANGUAGES``) a word wordfreq has hardly seen: its neighbour
   one edit away that wordfreq writes far more often than any other, when the edit is a
   learner's slip (:meth:`Speller._neighbour`, :func:`_german_slip`, :func:`_spanish_slip`:
   "vorstelung" -> "vorstellung", "hosptal" -> "hospital").
10. (Spanish) the spelling of the word's letters with the accents wordfreq writes most
   (:meth:`Speller._spanish_accents`: "habia" -> "había"; pyspellchecker's Spanish list lacks
   such forms), also for a form the lists take for a regular one
   (:meth:`Speller._spanish_form_accent`: "jovenes" -> "jóvenes", "estan" -> "están"); the
   accent a regular ending always carries (:func:`_spanish_ending_accent`: "cumpliria" ->
   "cumpliría") and an accent on the wrong vowel (:func:`_spanish_moved_accent`: "tambíen"
   -> "también").

Before the tiers (English): a contraction without its apostrophe (``APOSTROPHE_LEFT_OUT``:
"dont" -> "don't") and an impossible inflection ("companys" -> "companies",
:meth:`Speller._regular_form`). :meth:`Speller.sure_slip` says which corrections hold however
often a text writes the word and at a capitalised sentence start.

A correction to one of several corrections codespell's list gives the word must be
``DOMINANCE_ZIPF`` commoner than the others ("alloud": "aloud" or "allowed", left alone). A
word taken for a regular inflection is left alone unless that list has it ("begining").

A candidate must be listed by pyspellchecker (``MIN_CANDIDATE_COUNT``) and common in
wordfreq's large list (:mod:`.lexicon`; ``MIN_CANDIDATE_ZIPF``), and ``DOMINANCE_ZIPF`` above
every rival: in tiers 0, 2 and 3 every word one edit away is a rival, so "tast" (test? taste?
last?) is left alone. Then how often the word as written is used decides: a word that
wordfreq lists (a term such as "stdin", a loan, an inflection, a name) is changed only when the
candidate is ``ACCENT_ZIPF_MARGIN`` (tier 1), ``SLIP_ZIPF_MARGIN`` (tier 2) or
``MIN_ZIPF_MARGIN`` (tiers 3 and 4) commoner. In a language other than English, a word English uses
(``LOAN_MIN_ENGLISH_ZIPF``) is a loan and only tier 1 applies to it.

The thresholds were tuned on the dev split of ``bench/bench_quality.py``; the figures on the
held-out split are in docs/offline-engine.md. Lists load lazily, once per language.
"""

from __future__ import annotations

import re
import threading
from array import array
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from itertools import pairwise
from typing import Final

from rephrase_ls.offline.engine.edit_shapes import (
    COST_LEFT_OUT,
    COST_TAIL,
    SOUND_ALIKE,
    VOWELS,
    base_letter,
    edit_cost,
    edit_distance,
    first_difference,
    learner_cost,
    learner_edit,
    left_out,
    plain_slip,
    skeleton,
    sound_skeleton,
    strip_accents,
    umlaut_spellings,
)
from rephrase_ls.offline.engine.misspellings import ListedMisspellings, known_misspellings
from rephrase_ls.offline.engine.software_terms import software_term

LANGUAGES: Final = ("de", "en", "es", "fr", "it", "pt")
MAX_LENGTH: Final = 40  # longer "words" are not prose (and edits grow with the square)
MIN_CANDIDATE_COUNT: Final = 500  # in pyspellchecker's list
_CACHE_LIMIT: Final = 200_000
MIN_CANDIDATE_ZIPF: Final = 3.0
DOMINANCE_ZIPF: Final = 1.0  # ten times as common as any rival
MIN_SHORT_CANDIDATE_ZIPF: Final = 5.5  # "teh" -> "the", not "app" -> "pap"
# A listed word: how much commoner the candidate must be, by tier ("stdin" is not "stain").
ACCENT_ZIPF_MARGIN: Final = 1.0
SLIP_ZIPF_MARGIN: Final = 2.0
MIN_ZIPF_MARGIN: Final = 3.0
# Tier 3 only in words of six letters or more (in a shorter word the one letter it may change
# or add is as often another word meant: "weth" for "went", not "with"; "haing" for
# "hanging", not "having"; "niely" for "nearly": right 6 times in 8 on Holbrook's dev split),
# and only to a commoner word ("memoize" is not "memorize", Zipf 3.2).
MIN_EDIT_LENGTH: Final = 6
EDIT_MIN_CANDIDATE_ZIPF: Final = 3.5
# Tier 4 in words of 8+ letters (shorter learner misspellings are as often another word
# meant: "whont" for "want"), and 1.5 Zipf above the next word; in words of 6 and 7 letters
# only a letter left out (five-letter words: as tier 3).
WEIGHTED_DOMINANCE: Final = 1.5
WEIGHTED_MIN_LENGTH: Final = 8
WEIGHTED_SHORT_LENGTH: Final = 6
# ... and in words of 7 letters also a letter too many before the last two ("poertry",
# "comeing", "whanted": 4 right, 1 wrong on the dev splits; in 6-letter words half were wrong:
# "thaing" for thing, "strate" for state, "monsth" for month).
WEIGHTED_TOO_MANY_LENGTH: Final = 7
# Two neighbours swapped in a word wordfreq has never seen, a typing slip rather than another
# word meant, from five letters ("jucie" -> "juice", "ponud" -> "pound"; web text writes
# "thorugh" for through, Zipf 1.6, and a child for "thought").
WEIGHTED_SWAP_LENGTH: Final = 5
# The list's correction scored against its rivals (see Speller._listed_wins) only in words of
# five letters or more: "wich" is "which" or "witch" (Holbrook's dev split).
LISTED_WEIGHTED_MIN_LENGTH: Final = 5
# The list's other corrections of a word, scored by the cost of the misspelling, count up to
# this cost (two letters left out and a consonant for another); farther ones are no rivals.
ALTERNATIVE_MAX_COST: Final = 2.5
# ... and an alternative one edit away with another first letter costs this much more.
# The list's one correction of a long word that the web writes at most Zipf 2.0 ("supercede",
# 1.7) may be a rarer word than other tiers' candidates (Zipf 2.0+, any count in
# pyspellchecker's list: "addressable", "supersede", "highlighting"), with no rival one edit away.
LISTED_LONG_MIN_LENGTH: Final = 8
LISTED_LONG_MAX_WORD_ZIPF: Final = 2.0
LISTED_LONG_MIN_ZIPF: Final = 2.0
INITIAL_CHANGED_COST: Final = 1.0
# Tier 5 (English): a word wordfreq has never seen, of 6+ letters, whose likeliest neighbour
# (one edit away, Zipf 1.0+ in wordfreq, ten times commoner than the next) is a listed word of
# Zipf 2.5+ ("refresment").
ONLY_WORD_MIN_LENGTH: Final = 6
ONLY_WORD_MIN_ZIPF: Final = 2.5
ONLY_WORD_RIVAL_ZIPF: Final = 1.0
# Tier 6 (English): a word wordfreq has never seen, of 5+ letters, and the one common word
# with the same consonants (edit_shapes.skeleton) up to two edits away ("neccasary",
# "difinately", "litriture"), ten times commoner than every word that sounds alike
# (edit_shapes.sound_skeleton, up to three edits away: "counsall" is "counsel" or "council")
# and every word one edit away. Not more than one letter shorter than the word ("sleepey" is
# not "sleep"), nor a word and a contraction's ending without its apostrophe ("therell"),
# nor a word with an accent (English has none: "wörter" is not "writer").
SKELETON_MIN_LENGTH: Final = 5
SKELETON_MAX_EDITS: Final = 2
CONTRACTION_STEM_ZIPF: Final = 5.0
# Nor a word that starts with a word of six letters or more that wordfreq knows (Zipf 2.0+;
# "triager": triage, "computative": compute): a derivation or a compound, not a slip.
DERIVED_MIN_STEM: Final = 6
DERIVED_STEM_ZIPF: Final = 2.0
#: How common the word in -e must be for its adjective in -y, e dropped, to be taken as one.
DERIVED_Y_STEM_ZIPF: Final = 3.5
_CONTRACTION_ENDINGS: Final = ("ll", "ve", "re", "nt")
# Tier 7 (English): a word wordfreq has never seen, of 4+ letters, and the likeliest listed word
# with its first letter, scored by Zipf less the cost of the misspelling (at most 1.25: two
# letters left out, or a vowel and a sound-alike consonant), 1.0 ahead of the next. Tuned on
# the dev splits of Holbrook and Birkbeck: a cost of 1.5 lets a consonant for another or a
# letter too many in ("whont" -> "wont", "cartsel" -> "cartel"), half of them wrong; a lead
# of 1.5 loses as many right changes as wrong ones. A stem written a few times on the web
# ("snek" + ing, Zipf 1.5) does not make the word an inflection ("sneking" is "sneaking").
LIKELIEST_MIN_LENGTH: Final = 4
LIKELIEST_MAX_COST: Final = 1.25
LIKELIEST_LEAD: Final = 1.0
LIKELIEST_STEM_ZIPF: Final = 2.5
LIKELIEST_MIN_ZIPF: Final = 3.0
# Only words wordfreq has never seen: letting in words it has seen up to Zipf 1.5 (web text
# holds common slips: "magnificant" 1.3) fixed 0.8 points more of Birkbeck's dev split and 1.1
# of Holbrook's, but half of Holbrook's new changes were wrong ("whate" -> white, "thoy" ->
# they, "laide" -> ladies).
LIKELIEST_MAX_WORD_ZIPF: Final = 0.0
LIKELIEST_TWO_EDITS_LENGTH: Final = 6
LIKELIEST_ZIPF_MARGIN: Final = MIN_ZIPF_MARGIN
# Tier 8 (English): a word wordfreq has never seen, of 8+ letters, and the likeliest listed
# word up to two edits away, each edit costing 1.5 Zipf. On the dev splits (Birkbeck and
# Holbrook) 9 of its 12 changes were right; in words of 7 letters 5 of 10 ("lonlest" ->
# longest, "wiscell" -> wisely), so they are left to tier 7.
NEAREST_MIN_LENGTH: Final = 8
NEAREST_MAX_EDITS: Final = 2
NEAREST_EDIT_COST: Final = 1.5
# The misspelling's cost (edit_shapes.learner_cost) at most two letters too many, or one and
# a vowel for a vowel: two other consonants make another word ("hackiness", in requests'
# comments, is not "happiness"; the LaTeX package "paralist" is not "paradise").
NEAREST_MAX_COST: Final = 2.0
NEAREST_INITIAL_COST: Final = 1.0
# A word that sounds alike rivals the candidate only if the word could misspell it at up to
# two other consonants' cost: "buiscits" could not be "busts" (three letters too many) and is
# "biscuits"; "callsite" could be "celeste" (2.5) as well as "campsite", and is left.
NEAREST_RIVAL_MAX_COST: Final = 3.0
# The best score must be positive: a word rarer than its edits cost is no likelier than a
# term or a word the list holds less often ("goegraphicaly": geographical scores -0.15, and
# "geographically", 400 times in the list, is no candidate).
NEAREST_MIN_SCORE: Final = 0.0  # a vowel for another as the first letter ("astablishing")
_VOWELS: Final = "aeiou"
_VOWEL: Final = re.compile("[aeiouy]")
_ASCII_WORD: Final = re.compile("[a-z]+")
# Tier 7's candidates of one first letter and length: the words, their Zipf, their letters.
_Bucket = tuple[tuple[str, ...], "array[float]", "array[int]"]


def _letter_mask(word: str) -> int:
    """The letters a-z of ``word`` as bits (others are ignored)."""
    mask = 0
    for c in word:
        k = ord(c) - 97
        if 0 <= k < 26:
            mask |= 1 << k
    return mask


def _near_in_letters(
    index: Mapping[tuple[str, int], _Bucket], initials: str, lengths: range, word: str
) -> Iterator[tuple[str, float]]:
    """The words of tier 7's ``index`` (and their Zipf) with one of ``initials`` as first letter
    and a length in ``lengths`` that lack at most two of ``word``'s letters and add at most
    two: more cannot fit under tiers 7 and 8's costs (a test of bits before an edit distance)."""
    letters = _letter_mask(word)
    for initial in initials:
        for length in lengths:
            bucket = index.get((initial, length))
            if bucket is None:
                continue
            words, zipfs, masks = bucket
            for k, cand in enumerate(words):
                mask = masks[k]
                if (letters & ~mask).bit_count() <= 2 and (mask & ~letters).bit_count() <= 2:
                    yield cand, zipfs[k]


def _never_seen(lang: str, word: str) -> bool:
    """Whether the English ``word`` (no accents: "wörter" is not "writer") is one wordfreq has
    never seen written, nor its stem (:func:`_seen_stem`), nor a coinage, a derivation, a
    contraction without its apostrophe or two common words run together (:func:`_compound`):
    a word tiers 6 and 8 may correct."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    return (
        word.isascii()
        and lexicon.zipf(lang, word) <= 0.0
        and not _seen_stem(lang, word)
        and not _coined(lang, word)
        and not _compound(lang, word)
        and not _derived(lang, word)
        and not _contraction(lang, word)
    )


# German and Spanish (Speller._neighbour): a word nobody writes (wordfreq Zipf up to 2.5) one
# slip (_german_slip, _spanish_slip) from a common word that wordfreq writes ten times more
# often than any other word one edit away. pyspellchecker's lists are too thin there: the
# German one holds most nouns 50 times ("vorstellung"), the Spanish one lacks "había", "niños".
NEIGHBOUR_LANGUAGES: Final = frozenset({"de", "es"})
NEIGHBOUR_MIN_LENGTH: Final = 5
NEIGHBOUR_MAX_WORD_ZIPF: Final = 2.5
NEIGHBOUR_MIN_ZIPF: Final = 3.0
NEIGHBOUR_RIVAL_ZIPF: Final = 1.0
NEIGHBOUR_ZIPF_MARGIN: Final = 2.0
# A word one edit away by another edit than a slip is a rival as if it were this much rarer.
NEIGHBOUR_UNLIKE_COST: Final = 1.0
# Spanish technical prose borrows rare words ("triaje", 2.2): a word wordfreq has seen needs a
# candidate this much commoner still.
SPANISH_EXTRA_MARGIN: Final = 0.5
# A candidate English writes this much more often (Zipf) is English ("commons").
NEIGHBOUR_ENGLISH_LEAD: Final = 0.5
# Spanish words that wordfreq has seen at all are words (a term such as "triaje", triage).
SPANISH_NEIGHBOUR_MAX_WORD_ZIPF: Final = 2.5
# Speller.sure_slip: one edit of at most this cost (a letter left out) in a word of at most
# this Zipf (web text holds common slips a little: "rigth" 1.7, "siad" 2.1, "frends" 1.5).
SURE_SLIP_COST: Final = 0.5
SURE_SLIP_MAX_ZIPF: Final = 2.5
# A word of another language's text that English uses this much is a loan, not a slip.
LOAN_MIN_ENGLISH_ZIPF: Final = 2.5
# pyspellchecker 0.9.1's Spanish list lacks many inflected forms (está, vamos, todos, quiero,
# lee), so for Spanish only accents and swapped neighbours are corrected.
SLIPS_ONLY: Final = frozenset({"es"})
# Tier 4 (weighted edits) is tuned on English learner text only.
WEIGHTED_EDITS: Final = frozenset({"en"})
# Portuguese accents differ by variant (comitê / comité): only missing accents are added.
NO_ACCENT_CHANGE: Final = frozenset({"pt"})

# Regular inflections: (ending, stem endings): "turisti" is known when "turista" is listed.
_INFLECTIONS: Final[dict[str, tuple[tuple[str, tuple[str, ...]], ...]]] = {
    "de": (("e", ("",)), ("en", ("",)), ("er", ("",)), ("es", ("",)), ("em", ("",)),
           ("n", ("",)), ("s", ("",)), ("ern", ("",))),
    "en": (("s", ("",)), ("es", ("",)), ("ies", ("y",)), ("ed", ("", "e")), ("ing", ("", "e")),
           ("ly", ("",))),
    "es": (("s", ("",)), ("es", ("",)), ("ces", ("z",))),
    "fr": (("s", ("",)), ("x", ("",)), ("aux", ("al",)), ("e", ("",)), ("es", ("",))),
    "it": (("i", ("o", "a", "e")), ("e", ("a", "o")), ("he", ("a",)), ("chi", ("co",))),
    "pt": (("s", ("",)), ("es", ("",)), ("ns", ("m",)), ("ões", ("ão",)), ("ães", ("ão",)),
           ("is", ("l",))),
}  # fmt: skip

# Present-tense endings of regular verbs (indicative and subjunctive), by infinitive: a word
# that is a listed verb's stem with one of them is that verb's form, which pyspellchecker's
# lists mostly lack ("ultimo", "publico": also forms of ultimar, publicar). French verb forms
# are listed. An infinitive rarer than MIN_VERB_COUNT is as often another word ("pelicular").
_VERB_FORMS: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "es": (("ar", "er", "ir"), ("o", "a", "as", "an", "e", "es", "en")),
    "it": (("are", "ere", "ire"), ("o", "a", "i", "ano", "e", "ono")),
    "pt": (("ar", "er", "ir"), ("o", "a", "as", "am", "e", "es", "em")),
}
MIN_VERB_COUNT: Final = 100  # the infinitive's occurrences in pyspellchecker's list

# English endings that a stem takes only in some shapes: "-es" after a hiss or an o ("boxes",
# "heroes", not "failes"), "-s" never after an s ("acess" is not "aces" + s), an "e" before
# "-ed"/"-ing" dropped ("voteing", "moveing"; but "seeing", "hoeing", "dyeing").
_EN_ES_STEMS: Final = ("s", "x", "z", "ch", "sh", "o")
_EN_E_KEPT: Final = ("ee", "oe", "ye")
_CONSONANT_Y: Final = re.compile(r"[^aeiou]y$")
# Adjectives in -ic whose adverb is -icly, not -ically.
_EN_IC_LY: Final = frozenset({"public"})
# Contractions written without their apostrophe that are no other word (not "its", "cant",
# "wont", "well", "were", "hell", "shell", "ill", "id", "lets", "wed", "shed").
APOSTROPHE_LEFT_OUT: Final = {
    "en": {
        w.replace("'", ""): w
        for w in (
            "don't", "didn't", "doesn't", "isn't", "wasn't", "aren't", "weren't", "hasn't",
            "haven't", "hadn't", "couldn't", "shouldn't", "wouldn't", "mustn't", "needn't",
            "mightn't", "ain't", "that's", "there's", "what's", "who's", "where's", "here's",
            "you're", "they're", "we've", "you've", "they've", "i've", "you'll", "they'll",
            "that'll", "should've", "could've", "would've", "might've", "must've",
            "you'd", "they'd",
        )
    }
}


# A negation's n't written as it sounds, after a verb that ends in a consonant: "dident",
# "couldent", "wasent" (English learners; codespell lists some of them).
NOT_SPELT_ENT: Final = {
    c[:-3] + "ent": c
    for c in APOSTROPHE_LEFT_OUT["en"].values()
    if c.endswith("n't") and c[-4] not in "aeiouy" and c != "ain't"
}


def _regular(lang: str, stem: str, suffix: str, ending: str) -> bool:
    """Whether ``stem`` + ``suffix`` is a regular form of the listed ``stem`` + ``ending``."""
    if lang != "en" or ending:
        return True
    if suffix == "es":
        return stem.endswith(_EN_ES_STEMS)
    if suffix == "s":
        # Not after s ("acess"), nor after a consonant and y ("companys": companies).
        return not stem.endswith("s") and not _CONSONANT_Y.search(stem)
    if suffix == "ly" and stem.endswith("ic"):
        return stem in _EN_IC_LY  # "basicly" is basically; "publicly" is a word
    if suffix in ("ed", "ing") and stem.endswith("e"):
        return stem.endswith(_EN_E_KEPT)
    return True


_lock = threading.Lock()


@cache
def load_frequencies(lang: str) -> Mapping[str, int]:
    """Return pyspellchecker's word -> count list for ``lang`` (lower-case words), packed
    (:mod:`.wordcounts`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no dictionary for language {lang!r}")
    import rephrase_ls.offline.engine.wordcounts as wordcounts

    return wordcounts.load(lang)


def _extra_words(lang: str) -> frozenset[str]:
    """Words the list lacks but the language accepts (British and American spellings)."""
    if lang != "en":
        return frozenset()
    from rephrase_ls.text import variants

    return variants.english_variant_words()


class Speller:
    """Spelling correction for one language; build with :func:`speller`."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.freq = load_frequencies(lang)
        self.extra = _extra_words(lang)
        letters: set[str] = set()
        for word, count in self.freq.items():
            if count >= MIN_CANDIDATE_COUNT:
                letters.update(word)
        self.alphabet = "".join(sorted(c for c in letters if c.isalpha()))
        accents: dict[str, str] = {}
        for c in self.alphabet:
            accents[base_letter(c)] = accents.get(base_letter(c), "") + c
        self._accents = accents
        # Accented words by their unaccented spelling ("deja" -> "déjà"), frequent words only.
        unaccented: dict[str, dict[str, int]] = {}
        for word, count in self.freq.items():
            if count >= MIN_CANDIDATE_COUNT and not word.isascii():
                plain = strip_accents(word)
                if plain != word:
                    unaccented.setdefault(plain, {})[word] = count
        self._unaccented = unaccented
        self._cache: dict[str, str | None] = {}
        self._unchanged: set[str] = set()  # see changeable()
        self._sounds: dict[str, tuple[str, ...]] | None = None  # see _sound_index()
        self._initials: dict[tuple[str, int], _Bucket] | None = None  # see _by_initial()
        self._starts: dict[str, bool] = {}  # see _unspoken_start()

    def known(self, word: str) -> bool:
        """Whether the lower-case ``word`` is in the list or the extra words, or is a regular
        inflection of a listed word (``_INFLECTIONS``: the lists lack many plurals and verb
        forms). The lists spell ligatures out (``soeur`` for ``sœur``)."""
        freq = self.freq
        if word in freq or word in self.extra:
            return True
        if "œ" in word or "æ" in word:
            word = word.replace("œ", "oe").replace("æ", "ae")
            if word in freq:
                return True
        for suffix, stems in _INFLECTIONS.get(self.lang, ()):
            if word.endswith(suffix) and len(word) > len(suffix) + 2:
                stem = word[: -len(suffix)]
                if any(
                    stem + ending in freq and _regular(self.lang, stem, suffix, ending)
                    for ending in stems
                ):
                    return True
        return False

    def _regular_form(self, word: str) -> str | None:
        """(English) the regular form of an impossible one: a consonant and y then -s
        ("companys" -> "companies"), -icly ("basicly" -> "basically"), a listed word in -al
        and y ("realy" -> "really", "usualy" -> "usually"), when the list has it
        ``MIN_CANDIDATE_COUNT``+ times, or at all and wordfreq writes it Zipf
        ``MIN_CANDIDATE_ZIPF``+ ("centraly" -> "centrally")."""
        if self.lang != "en":
            return None
        if len(word) > 4 and word.endswith("ys") and _CONSONANT_Y.search(word[:-1]):
            regular = word[:-2] + "ies"
        elif word.endswith("icly") and word[:-2] not in _EN_IC_LY:
            regular = word[:-2] + "ally"
        elif len(word) > 4 and word.endswith("aly") and word[:-1] in self.freq:
            regular = word[:-1] + "ly"  # an adjective in -al + y: "realy", "usualy"
        else:
            return None
        count = self.freq.get(regular, 0)
        if count >= MIN_CANDIDATE_COUNT:
            return regular
        # Subtitles rarely say an adverb the web writes often ("centrally": 303 times, Zipf 3.3).
        import rephrase_ls.offline.engine.lexicon as lexicon

        return regular if count and lexicon.zipf(self.lang, regular) >= MIN_CANDIDATE_ZIPF else None

    def _contraction_misspelt(self, word: str) -> str | None:
        """(English) the contraction an unknown ``word`` misspells: the list of misspellings'
        one correction when it has an apostrophe ("oclock" -> "o'clock", "dosent" ->
        "doesn't"), or a negation's n't written as it sounds (``NOT_SPELT_ENT``: "dident" ->
        "didn't"); the contraction must be listed ``MIN_CANDIDATE_COUNT``+ times."""
        if self.lang != "en" or self.known(word):
            return None
        found = NOT_SPELT_ENT.get(word) or known_misspellings(self.lang).contraction(word)
        if found is None or self.freq.get(found, 0) < MIN_CANDIDATE_COUNT:
            return None
        return found

    def _verb_form(self, word: str) -> bool:
        """Whether ``word`` is a present-tense form of a listed verb (``_VERB_FORMS``), which
        the lists lack: Spanish "ultimo" (I finish off) is a word, not "último" unaccented."""
        infinitives, endings = _VERB_FORMS.get(self.lang, ((), ()))
        freq = self.freq
        for ending in endings:
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                stem = word[: -len(ending)]
                if any(freq.get(stem + inf, 0) >= MIN_VERB_COUNT for inf in infinitives) and not (
                    self.lang == "es" and _spanish_stem_change(stem, ending)
                ):
                    return True
        return False

    def correction(self, word: str) -> str | None:
        """The correction of the lower-case ``word``, or ``None`` to leave it alone."""
        cached = self._cache.get(word, False)
        if cached is not False:
            return cached  # type: ignore[return-value]
        result = self._correct(word)
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[word] = result
        return result

    def changeable(self, words: set[str]) -> set[str]:
        """The words of ``words`` (as written) that a correction may change: a lower-case word
        with a :meth:`correction`, or a capitalised one (a capital, then lower case) whose
        lower-case form has one. The others are remembered (up to ``_CACHE_LIMIT`` words),
        so that a word seen before costs one set lookup."""
        unchanged = self._unchanged
        found: set[str] = set()
        for word in words.difference(unchanged):
            lower = word.lower()
            if word == lower:
                if self.correction(word) is not None:
                    found.add(word)
                    continue
            elif word[0].isupper() and word[1:] == lower[1:] and self.correction(lower):
                found.add(word)
                continue
            if len(unchanged) >= _CACHE_LIMIT:
                unchanged.clear()
            unchanged.add(word)
        return found

    def _correct(self, word: str) -> str | None:
        if not 3 <= len(word) <= MAX_LENGTH or not word.isalpha():
            return None
        if self.lang == "es" and word not in self.freq:
            if self._verb_form(word):
                return self._spanish_form_accent(word, final_only=True)
            if self.known(word):
                return self._spanish_form_accent(word, final_only=False)
        if self._verb_form(word):
            return None
        apostrophe = APOSTROPHE_LEFT_OUT.get(self.lang, {}).get(word)
        if apostrophe is not None:
            return apostrophe
        apostrophe = self._contraction_misspelt(word)
        if apostrophe is not None:
            return apostrophe
        regular = self._regular_form(word)
        if regular is not None:
            return regular
        listing = known_misspellings(self.lang)
        listed = listing.get(word)
        if listed is None and self.lang == "en" and software_term(word):
            return None  # a software term ("backtick", "heredocs"): not another word's slip
        if listed is None and self.lang == "en" and self._unspoken_start(word):
            return None  # an abbreviation ("stdio", "stdint"): not "studio", "student"
        if self.known(word):
            # A form the lists lack but take for a regular inflection ("begin" + "ing") is a
            # misspelling when the list of misspellings has it ("begining", "extented").
            if listed is None or word in self.freq or word in self.extra:
                return None
            if (
                self._listed_wins(word, listed) or self._listed_sole(word, listed)
            ) and self.trusted(word, listed, SLIP_ZIPF_MARGIN):
                return listed
            return None
        if listed is not None and (
            self._listed_wins(word, listed)
            or self._listed_sole(word, listed)
            or self._listed_long(word, listed)
        ):
            return listed
        found = None
        margin = MIN_ZIPF_MARGIN
        # Every word one edit away is a rival of every tier's candidates: a correction must
        # be far more common than any other word the slip could have come from ("tast" is
        # "test", "taste" or "last": none wins).
        edits = self._edits1(word)
        if word.isascii() and word in self._unaccented:
            accented = set(self._unaccented[word])
            found = self._pick(accented)
            margin = accent_margin(self.lang)
        if found is None and self.lang == "es":
            found = self._spanish_accents(word)
            margin = accent_margin(self.lang)
            if found is None:
                regular = _spanish_ending_accent(word)
                if regular is not None:
                    return regular
                moved = _spanish_moved_accent(word, self.known)
                if moved is not None:
                    return moved
                cion = _spanish_cion_accent(word)
                if cion is not None:
                    return cion
                rare = self._spanish_rare_accents(word)
                if rare is not None:
                    return rare
        if found is None and self.lang == "de":
            umlauts = umlaut_spellings(word)
            found = self._pick(umlauts)
            margin = ACCENT_ZIPF_MARGIN
        if found is None and self.lang == "es":
            undoubled = _spanish_undoubled(word)
            if undoubled is not None:
                return undoubled
        if found is None and self.lang != "en" and _english_word(word):
            return None  # an English word, as technical prose borrows ("presets")
        if found is None:
            # Three-letter slips only become very common words ("teh" -> "the", not "app" ->
            # "pap"): short unknown words are more often abbreviations or new words.
            floor = MIN_SHORT_CANDIDATE_ZIPF if len(word) == 3 else 0.0
            slips = self._slips(word)
            found = self._pick(slips | edits, slips, floor=floor)
            margin = SLIP_ZIPF_MARGIN
        if found is None and len(word) >= MIN_EDIT_LENGTH and self.lang not in SLIPS_ONLY:
            # An unknown word that differs from a listed one only in its last two letters is
            # more likely an inflection the list lacks than a typing error; one that differs in
            # its first letter is more likely a foreign word ("cache" is not "ache").
            # Only the edits that learners' misspellings mostly are (Holbrook corpus, dev split):
            # a letter left out ("kichen"), one vowel for another ("maneger"). A letter too many
            # or a consonant for another is as often another word meant ("whont" for "want",
            # "cobard" for "cupboard") or a term ("refactor", "stdin", "semver").
            tail = len(word) - 2
            allowed = {
                c for c in edits
                if 0 < first_difference(word, c) < tail and learner_edit(word, c)
            }
            found = self._pick(edits, allowed, floor=EDIT_MIN_CANDIDATE_ZIPF)
            margin = MIN_ZIPF_MARGIN
        if found is None and len(word) >= WEIGHTED_SWAP_LENGTH and self.lang in WEIGHTED_EDITS:
            found = self._weighted(word, edits)
            if (
                found is not None
                and len(word) < WEIGHTED_MIN_LENGTH
                and not (
                    (_swapped(word, found) and _never_seen(self.lang, word))
                    or (len(word) >= WEIGHTED_SHORT_LENGTH and left_out(word, found))
                    or _too_many_inside(word, found)
                )
            ):
                found = None  # a short word: only a letter left out, or two swapped in a
                # word nobody writes ("whont" is "want")
            margin = MIN_ZIPF_MARGIN
        if found is None and len(word) >= ONLY_WORD_MIN_LENGTH and self.lang in WEIGHTED_EDITS:
            only = self._only_word(word, edits)
            if only is not None:
                return only
        if found is None and len(word) >= SKELETON_MIN_LENGTH and self.lang in WEIGHTED_EDITS:
            found = self._by_skeleton(word, edits)
            margin = MIN_ZIPF_MARGIN
        if found is None and self.lang in NEIGHBOUR_LANGUAGES:
            found = self._neighbour(word, edits)
            margin = NEIGHBOUR_ZIPF_MARGIN + (SPANISH_EXTRA_MARGIN if self.lang == "es" else 0.0)
        if found is not None and self._accepted(word, found, margin, listing):
            return found
        # Tier 7 also when an earlier tier's candidate was refused ("sorces": tier 6's
        # candidate is not trusted; the likeliest word is "sources").
        if len(word) >= LIKELIEST_MIN_LENGTH and self.lang in WEIGHTED_EDITS:
            likeliest = self._likeliest(word)
            if likeliest is not None and self._accepted(
                word, likeliest, LIKELIEST_ZIPF_MARGIN, listing
            ):
                return likeliest
        if len(word) >= NEAREST_MIN_LENGTH and self.lang in WEIGHTED_EDITS:
            nearest = self._nearest_long(word)
            if nearest is not None and self._accepted(word, nearest, MIN_ZIPF_MARGIN, listing):
                return nearest
        return None

    def _accepted(
        self, word: str, found: str, margin: float, listing: ListedMisspellings
    ) -> bool:
        """The checks every tier's candidate passes: trusted by ``margin``, not the clipped
        inflection of a term, and ahead of the other corrections the list gives."""
        return (
            self.trusted(word, found, margin)
            and not _clipped_inflection(self.lang, word, found)
            and self._beats_alternatives(word, found, listing)
        )

    def _listed_wins(self, word: str, listed: str) -> bool:
        """Whether the list's correction of ``word`` beats its rivals: the words one edit
        away that keep its first letter (a slip rarely changes it: "adress" is "address", not
        "dress"). It must be ``DOMINANCE_ZIPF`` commoner than each, or lead each by as much
        once each is scored by its Zipf less the cost of its edit (:func:`edit_cost`, as in
        tier 4): "totaly" is "totally" (a doubled letter left out), not "total" (a letter too
        many at the end). Scoring applies only in words of ``LISTED_WEIGHTED_MIN_LENGTH``+
        letters, and to a correction two edits away only when the word is ``MIN_ZIPF_MARGIN``
        rarer (the two edits cost two letters left out: "adres" is "address")."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        rivals = {c for c in self._edits1(word) if c[:1] == word[:1] and c != listed}
        if self._pick(rivals | {listed}, {listed}):
            return True
        freq, lang = self.freq, self.lang
        if len(word) < LISTED_WEIGHTED_MIN_LENGTH or freq.get(listed, 0) < MIN_CANDIDATE_COUNT:
            return False
        wanted = lexicon.zipf(lang, listed)
        if wanted < MIN_CANDIDATE_ZIPF:
            return False
        if listed in self._edits1(word):
            wanted -= edit_cost(word, listed)
        elif self.trusted(word, listed, MIN_ZIPF_MARGIN):
            wanted -= 2 * COST_LEFT_OUT  # two edits ("adres": "address")
        else:
            return False  # "brane" is "brain", two edits away, or a word of physics
        return all(
            lexicon.zipf(lang, c) - edit_cost(word, c) <= wanted - DOMINANCE_ZIPF
            for c in rivals
            if c in freq
        )

    def _listed_sole(self, word: str, listed: str) -> bool:
        """Whether the list's one correction of ``word`` (it gives no other) holds although
        a rival is near in frequency: it is one edit away, listed and common, and no word one
        edit away that keeps the first letter scores higher by its Zipf less the cost of its
        edit (:func:`edit_cost`): "futher" is "further" (not "father"), "localy" "locally"
        (not "local", a letter too many at the end); "ded" is left ("did" scores higher). Only
        in words of ``LISTED_WEIGHTED_MIN_LENGTH``+ letters ("wich": "which" or "witch")."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        freq, lang = self.freq, self.lang
        edits = self._edits1(word)
        if (
            len(word) < LISTED_WEIGHTED_MIN_LENGTH
            or known_misspellings(lang).alternatives(word)
            or listed not in edits
            or freq.get(listed, 0) < MIN_CANDIDATE_COUNT
            or lexicon.zipf(lang, listed) < MIN_CANDIDATE_ZIPF
        ):
            return False
        wanted = lexicon.zipf(lang, listed) - edit_cost(word, listed)
        return all(
            lexicon.zipf(lang, c) - edit_cost(word, c) <= wanted
            for c in edits
            if c[:1] == word[:1] and c != listed and freq.get(c, 0) >= MIN_CANDIDATE_COUNT
        )

    def _listed_long(self, word: str, listed: str) -> bool:
        """Whether the list's one correction of a long ``word`` (``LISTED_LONG_MIN_LENGTH``+
        letters, seen by wordfreq at most ``LISTED_LONG_MAX_WORD_ZIPF``) holds although it is
        rarer than other tiers' candidates must be: pyspellchecker lists it (at any count),
        wordfreq writes it Zipf ``LISTED_LONG_MIN_ZIPF``+, and no word one edit away with the
        same first letter is listed ``MIN_CANDIDATE_COUNT``+ times. Long misspellings have
        one correction and few neighbours: "addresable" -> "addressable", "superceed" ->
        "supersede", "hilighting" -> "highlighting"."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        freq, lang = self.freq, self.lang
        return (
            len(word) >= LISTED_LONG_MIN_LENGTH
            and listed in freq
            and lexicon.zipf(lang, word) <= LISTED_LONG_MAX_WORD_ZIPF
            and lexicon.zipf(lang, listed) >= LISTED_LONG_MIN_ZIPF
            and not any(
                c != listed and c[:1] == word[:1] and freq.get(c, 0) >= MIN_CANDIDATE_COUNT
                for c in self._edits1(word)
            )
        )

    def _beats_alternatives(self, word: str, found: str, listing: ListedMisspellings) -> bool:
        """Whether ``found`` is ``DOMINANCE_ZIPF`` commoner than every other correction the
        list of misspellings gives ``word`` ("alloud" is "aloud" or "allowed", which is the
        commoner: left alone; "realy" is "really" far more often than "relay"), or leads each
        by as much once both are scored by their Zipf less the misspelling's cost
        (:meth:`_misspelling_score`: "recipt" is "receipt", a letter left out, rather than
        "recipe", a consonant for another at the end)."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        wanted = lexicon.zipf(self.lang, found)
        others = [other for other in listing.alternatives(word) if other != found]
        if all(lexicon.zipf(self.lang, other) <= wanted - DOMINANCE_ZIPF for other in others):
            return True
        score = self._misspelling_score(word, found)
        return all(
            self._misspelling_score(word, other) <= score - DOMINANCE_ZIPF for other in others
        )

    def _misspelling_score(self, word: str, candidate: str) -> float:
        """``candidate``'s Zipf less the cost of ``word`` as its misspelling: :func:`edit_cost`
        one edit away, ``INITIAL_CHANGED_COST`` more if that edit is the first letter (a slip
        rarely changes it: "sorces" is "sources" rather than "forces"), else
        :func:`learner_cost` (``-inf`` past ``ALTERNATIVE_MAX_COST``; "spected" may be
        "expected", the dialect's, and is left)."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        candidate = candidate.lower()
        z = lexicon.zipf(self.lang, candidate)
        if edit_distance(word, candidate) <= 1:
            if candidate[:1] != word[:1]:
                z -= INITIAL_CHANGED_COST
            return z - edit_cost(word, candidate)
        return z - learner_cost(word, candidate, ALTERNATIVE_MAX_COST)

    def _only_word(self, word: str, edits: set[str]) -> str | None:
        """Tier 5: the word one edit away that wordfreq knows (``ONLY_WORD_RIVAL_ZIPF``+),
        ``DOMINANCE_ZIPF`` commoner than any other, when wordfreq has never seen ``word``
        written ("refresment" -> "refreshment", "scarcly" -> "scarcely", not "scarily"); it
        must keep the first letter, be ``ONLY_WORD_MIN_ZIPF``+ and be a plain slip away."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        if (
            lexicon.zipf(self.lang, word) > 0.0
            or _seen_stem(self.lang, word)
            or _coined(self.lang, word)
            or _compound(self.lang, word)
        ):
            return None
        freq = self.freq
        lang = self.lang
        found, best, second = None, 0.0, 0.0
        for cand in edits:
            if cand not in freq:
                continue
            z = lexicon.zipf(lang, cand)
            if z < ONLY_WORD_RIVAL_ZIPF:
                continue
            if z > best and cand in freq:
                found, best, second = cand, z, best
            elif z > second:
                second = z
        if (
            found is None
            or best - second < DOMINANCE_ZIPF  # two words: which one was meant?
            or found[0] != word[0]
            or freq[found] < MIN_CANDIDATE_COUNT
            or lexicon.zipf(lang, found) < ONLY_WORD_MIN_ZIPF
            or not plain_slip(word, found)
            or known_misspellings(lang).alternatives(word)
            or _drops_inner_y(word, found)
        ):
            return None
        return found

    def _neighbour(self, word: str, edits: set[str]) -> str | None:
        """(German, Spanish) the word one edit away that wordfreq writes
        ``NEIGHBOUR_MIN_ZIPF``+ and ``DOMINANCE_ZIPF`` more often than every other word one
        edit away it has seen (``NEIGHBOUR_RIVAL_ZIPF``+), for a word of
        ``NEIGHBOUR_MIN_LENGTH``+ letters that wordfreq has seen at most
        ``NEIGHBOUR_MAX_WORD_ZIPF``, when the edit is a learner's slip (:func:`_german_slip`,
        :func:`_spanish_slip`): "vorstelung" -> "vorstellung", "unternehnen" ->
        "unternehmen", "hosptal" -> "hospital". A German candidate must also be in
        pyspellchecker's list (at any count); the Spanish list lacks too many forms."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        lang = self.lang
        if len(word) < NEIGHBOUR_MIN_LENGTH or lexicon.zipf(lang, word) > NEIGHBOUR_MAX_WORD_ZIPF:
            return None
        if "ß" in word and lexicon.zipf(lang, word.replace("ß", "ss")) > 0.0:
            return None  # the spelling before 1996 ("Schluß", "daß"), not a slip of "Schlug"
        if lang == "es" and (lexicon.zipf(lang, word) > SPANISH_NEIGHBOUR_MAX_WORD_ZIPF
                             or _spanish_derived(word)):
            return None
        if lang == "es" and _english_derivation(lang, word):
            return None  # an English word's regular form: "terser" (terse + r)
        listed = self.freq if lang == "de" else None
        slip = _german_slip if lang == "de" else _spanish_slip
        found, best, second = None, 0.0, 0.0
        for cand in edits:
            z = lexicon.zipf(lang, cand)
            if z < NEIGHBOUR_RIVAL_ZIPF:
                continue
            if not slip(word, cand):
                # a rival all the same, if a less likely one ("jontos": "juntos", "tontos")
                second = max(second, z - NEIGHBOUR_UNLIKE_COST)
            elif z > best and (listed is None or cand in listed):
                if found is not None:
                    second = max(second, best)
                found, best = cand, z
            else:
                second = max(second, z)
        if found is None or best < NEIGHBOUR_MIN_ZIPF or best - second < DOMINANCE_ZIPF:
            return None
        if lang == "es" and found.isascii():
            # wordfreq's web text drops accents: "todovia" is "todavía", not "todavia"
            accented = self._spanish_accents(found)
            if accented is not None and self.trusted(found, accented, accent_margin(lang)):
                found = accented
        if lexicon.zipf("en", found) - lexicon.zipf(lang, found) >= NEIGHBOUR_ENGLISH_LEAD:
            return None  # an English word: "commonjs" is a term, not a slip of "commons"
        return found

    def _spanish_form_accent(self, word: str, *, final_only: bool) -> str | None:
        """(Spanish) the accented spelling of a word the lists take for a regular form
        (a plural: "jovenes" -> "jóvenes", "dolares" -> "dólares"; a present-tense form:
        then only an accent on its last vowel, "estan" -> "están", "empezo" -> "empezó",
        since "publico" and "ultimo" are verbs too), when wordfreq writes it
        ``SPANISH_FORM_ACCENT_LEAD`` more often."""
        found = self._spanish_accents(word)
        if found is None or not self.trusted(word, found, SPANISH_FORM_ACCENT_LEAD):
            return None
        if final_only:
            last = max(i for i, c in enumerate(found) if base_letter(c) in VOWELS)
            if found[last] == base_letter(found[last]):
                return None
        return found

    def _spanish_accents(self, word: str) -> str | None:
        """(Spanish) ``word`` with its accents as wordfreq writes it most (one acute accent on
        a vowel, ñ for n), ``DOMINANCE_ZIPF`` ahead of every other such spelling and Zipf
        ``MIN_CANDIDATE_ZIPF``+: "habia" -> "había", "ninos" -> "niños", "comunicacíon" ->
        "comunicación" (pyspellchecker's Spanish list lacks these forms)."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        lang = self.lang
        accents = sum(1 for c in word if c in _SPANISH_ACUTE)
        if accents and lexicon.zipf(lang, word) > 0.0:
            return None  # written with accents that are words too ("cómo", "esté", "qué")
        tildes = [i for i, c in enumerate(word) if c == "ñ"]
        if any(c in _SPANISH_GRAVE for c in word):
            # Spanish has no grave accent: the writer meant the acute ("trabajò": "trabajó")
            acute = "".join(_SPANISH_GRAVE.get(c, c) for c in word)
            return acute if lexicon.zipf(lang, acute) >= MIN_CANDIDATE_ZIPF else None
        found, best, second = None, 0.0, 0.0
        for cand in _spanish_accent_spellings(word):
            if sum(1 for c in cand if c in _SPANISH_ACUTE) < accents:
                continue  # an accent is never dropped
            if any(cand[i] != "ñ" for i in tildes):
                continue  # nor a tilde
            z = lexicon.zipf(lang, cand)
            if z > best:
                found, best, second = cand, z, best
            elif z > second:
                second = z
        if found is None or best < MIN_CANDIDATE_ZIPF or best - second < DOMINANCE_ZIPF:
            return None
        future = _SPANISH_FUTURE.search(found)
        if future and strip_accents(found) == word and word.endswith(("a", "an", "as")):
            return None  # "ayudara", "jugaran" (imperfect subjunctive) beside the future
        return found

    def _spanish_rare_accents(self, word: str) -> str | None:
        """(Spanish) ``word``, which wordfreq has hardly seen (``_SPANISH_RARE_MAX_WORD_ZIPF``),
        with the accents of a rarer word than the accent tier's floor
        (``_SPANISH_RARE_ACCENT_MIN_ZIPF``+; "carismatica" -> "carismática", 2.9;
        "taqueria" -> "taquería", 2.3): the spelling of its letters wordfreq writes most,
        ``DOMINANCE_ZIPF`` ahead of every other and of the word as written."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        written = lexicon.zipf("es", word)
        if not word.isascii() or written > _SPANISH_RARE_MAX_WORD_ZIPF:
            return None
        found, best, second = None, 0.0, written
        for cand in _spanish_accent_spellings(word):
            z = lexicon.zipf("es", cand)
            if z > best:
                found, best, second = cand, z, max(best, second)
            elif z > second:
                second = z
        if found is None or best < _SPANISH_RARE_ACCENT_MIN_ZIPF or best - second < DOMINANCE_ZIPF:
            return None
        return found if self._spanish_word_or_form(found) else None

    def _spanish_word_or_form(self, word: str) -> bool:
        """(Spanish) whether ``word`` is listed, as it is, in the masculine ("acrílica":
        *acrílico*) or before -mente, or is a form of a verb wordfreq writes
        (:func:`_spanish_derived`: "expandía"); not a word of another language that
        wordfreq holds ("vendée", Catalan "televisió") nor a web misspelling ("estraño")."""
        stem = word[:-5] if word.endswith("mente") else word
        forms = {stem}
        for ending in ("a", "as", "os"):
            if stem.endswith(ending):
                forms.add(stem[: -len(ending)] + "o")
        return any(self.known(form) for form in forms) or _spanish_derived(word)

    def _by_skeleton(self, word: str, edits: set[str]) -> str | None:
        """Tier 6: the word with ``word``'s consonants (:func:`skeleton`) up to
        ``SKELETON_MAX_EDITS`` edits away, when wordfreq has never seen ``word`` written (nor
        its stem, nor is it a coinage or a contraction without its apostrophe); it must be
        ``EDIT_MIN_CANDIDATE_ZIPF``+, at most one letter shorter than ``word``, and
        ``DOMINANCE_ZIPF`` commoner than every other word that sounds alike
        (:func:`sound_skeleton`, one edit further away) and every word one edit away."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        lang = self.lang
        if not _never_seen(lang, word):
            return None
        bucket = self._sound_index().get(sound_skeleton(word), ())
        shape = skeleton(word)
        found, best, rivals = None, 0.0, 0.0
        for cand in bucket:
            distance = edit_distance(word, cand)
            if distance > SKELETON_MAX_EDITS + 1:
                continue
            z = lexicon.zipf(lang, cand)
            if (
                distance <= SKELETON_MAX_EDITS
                and len(cand) >= len(word) - 1
                and skeleton(cand) == shape
                and z > best
            ):
                if found is not None:
                    rivals = max(rivals, best)
                found, best = cand, z
            else:
                rivals = max(rivals, z)
        for cand in edits:
            if cand in self.freq and cand != found:
                rivals = max(rivals, lexicon.zipf(lang, cand))
        if found is None or best < EDIT_MIN_CANDIDATE_ZIPF or best - rivals < DOMINANCE_ZIPF:
            return None
        if _drops_inner_y(word, found):
            return None
        return found

    def _likeliest(self, word: str) -> str | None:
        """Tier 7: for a word wordfreq has never seen written (nor its stem at
        ``LIKELIEST_STEM_ZIPF``+, nor a coinage, derivation or contraction), the listed word
        (``MIN_CANDIDATE_COUNT``+, Zipf ``MIN_CANDIDATE_ZIPF``+) with its first letter whose
        Zipf less the cost of the misspelling (:func:`learner_cost`, at most
        ``LIKELIEST_MAX_COST``: letters left out, vowels for vowels, a sound-alike
        consonant; no other consonant and no letter too many) leads every other by
        ``LIKELIEST_LEAD`` ("trobel" -> "trouble", "cleand" -> "cleaned", "peple" ->
        "people"; "vnode" is no slip of "vote")."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        lang = self.lang
        if (
            not word.isascii()
            or not _VOWEL.search(word[1:])  # "trmp": tramp or trump? no vowel to go by
            or lexicon.zipf(lang, word) > LIKELIEST_MAX_WORD_ZIPF
            or _seen_stem(lang, word, LIKELIEST_STEM_ZIPF)
            or _coined(lang, word)
            or _compound(lang, word)
            or _derived(lang, word)
            or _contraction(lang, word)
        ):
            return None
        found, best, second = None, -9.0, -9.0
        n = len(word)
        # A short word two edits from a listed one is as often another word meant ("fowd"
        # for "forward", not "flowed"; "apone" for "upon", not "alpine").
        max_edits = SKELETON_MAX_EDITS if n >= LIKELIEST_TWO_EDITS_LENGTH else 1
        # Only a doubled letter too many is cheap enough: a shorter candidate needs one.
        shortest = n - sum(1 for a, b in pairwise(word) if a == b)
        lengths = range(max(shortest, n - 2), n + 3)
        for cand, z in _near_in_letters(self._by_initial(), word[0], lengths, word):
            cost = learner_cost(word, cand, LIKELIEST_MAX_COST)
            if cost > LIKELIEST_MAX_COST:
                continue
            score = z - cost
            if score > best and edit_distance(word, cand) <= max_edits:
                found, best, second = cand, score, max(best, second)
            elif score > second:
                second = score  # a rival however many edits away ("council")
        if (
            found is None
            or best - second < LIKELIEST_LEAD
            or lexicon.zipf(lang, found) < LIKELIEST_MIN_ZIPF
            or _drops_inner_y(word, found)
        ):
            return None
        return found

    def _nearest_long(self, word: str) -> str | None:
        """Tier 8: for a word of ``NEAREST_MIN_LENGTH``+ letters that wordfreq has never seen
        written (nor its stem, nor a coinage, derivation or contraction), the listed word of
        tier 7's index (``MIN_CANDIDATE_COUNT``+, Zipf ``MIN_CANDIDATE_ZIPF``+) up to
        ``NEAREST_MAX_EDITS`` edits of any kind away, with its first letter (or, for a word
        that starts with a vowel, another vowel, ``NEAREST_INITIAL_COST`` dearer), whose Zipf
        less ``NEAREST_EDIT_COST`` an edit (and ``COST_TAIL`` for another last two letters)
        leads every other by ``LIKELIEST_LEAD`` and is ``NEAREST_MIN_SCORE``+; and no
        word that sounds alike (:func:`sound_skeleton`, one edit further) and is not an
        extension of it, and that the word could misspell (:func:`learner_cost` at most
        ``NEAREST_RIVAL_MAX_COST``), is within ``DOMINANCE_ZIPF`` of its Zipf. The
        misspelling's cost (:func:`learner_cost`) is at most ``NEAREST_MAX_COST``. Long words
        have few neighbours: "magnifiscant" -> "magnificent", "astablishing" ->
        "establishing", "charickter" -> "character"; "semetary" is left (*cemetery* sounds
        alike)."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        lang = self.lang
        if not _never_seen(lang, word):
            return None
        n = len(word)
        initials = _VOWELS if word[0] in _VOWELS else word[0]
        lengths = range(n - NEAREST_MAX_EDITS, n + NEAREST_MAX_EDITS + 1)
        found, best, second = None, -9.0, -9.0
        for cand, z in _near_in_letters(self._by_initial(), initials, lengths, word):
            distance = edit_distance(word, cand)
            if distance > NEAREST_MAX_EDITS:
                continue
            score = z - NEAREST_EDIT_COST * distance
            if cand[-2:] != word[-2:]:
                score -= COST_TAIL  # another ending: "goegraphicaly" is not geographical
            if cand[0] != word[0]:
                score -= NEAREST_INITIAL_COST
            if score > best:
                found, best, second = cand, score, best
            elif score > second:
                second = score
        if (
            found is None
            or best < NEAREST_MIN_SCORE
            or best - second < LIKELIEST_LEAD
            or _drops_inner_y(word, found)
            or learner_cost(word, found, NEAREST_MAX_COST) > NEAREST_MAX_COST
        ):
            return None
        wanted = lexicon.zipf(lang, found)
        for cand in self._sound_index().get(sound_skeleton(word), ()):
            if (
                not (cand.startswith(found) or found.startswith(cand))
                and lexicon.zipf(lang, cand) > wanted - DOMINANCE_ZIPF
                and edit_distance(word, cand) <= NEAREST_MAX_EDITS + 1
                # a word the misspelling could come from: "busts" is no rival of "biscuits"
                # for "buiscits" (three letters too many)
                and learner_cost(word, cand, NEAREST_RIVAL_MAX_COST) <= NEAREST_RIVAL_MAX_COST
            ):
                return None  # "semetary": secretary or cemetery
        return found

    def _by_initial(self) -> dict[tuple[str, int], _Bucket]:
        """The candidates of tier 7 by first letter and length (some 20,000 English words),
        with their Zipf and their letters as a bit mask, packed (about 1.5 MB); built on
        first use."""
        index = self._initials
        if index is None:
            import rephrase_ls.offline.engine.lexicon as lexicon

            grouped: dict[tuple[str, int], list[tuple[str, float]]] = {}
            for word, count in self.freq.items():
                if count >= MIN_CANDIDATE_COUNT and _ASCII_WORD.fullmatch(word):
                    z = lexicon.zipf(self.lang, word)
                    if z >= MIN_CANDIDATE_ZIPF:
                        grouped.setdefault((word[0], len(word)), []).append((word, z))
            index = self._initials = {
                key: (
                    tuple(w for w, _ in pairs),
                    array("d", (z for _, z in pairs)),
                    array("q", (_letter_mask(w) for w, _ in pairs)),
                )
                for key, pairs in grouped.items()
            }
        return index

    def _sound_index(self) -> dict[str, tuple[str, ...]]:
        """The listed words (``MIN_CANDIDATE_COUNT``+) by :func:`sound_skeleton`, built on
        first use."""
        index = self._sounds
        if index is None:
            grouped: dict[str, list[str]] = {}
            for word, count in self.freq.items():
                if count >= MIN_CANDIDATE_COUNT and word.isalpha():
                    grouped.setdefault(sound_skeleton(word), []).append(word)
            index = self._sounds = {key: tuple(words) for key, words in grouped.items()}
        return index

    def _weighted(self, word: str, edits: set[str]) -> str | None:
        """Tier 4: every listed word one edit away scored by how common it is less how
        unlikely its edit is as a misspelling (:func:`edit_cost`); the best must keep the
        first letter, be ``EDIT_MIN_CANDIDATE_ZIPF``+ and beat the next by
        ``WEIGHTED_DOMINANCE``."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        freq = self.freq
        best, best_score, second = "", -9.0, -9.0
        for cand in edits:
            if freq.get(cand, 0) < MIN_CANDIDATE_COUNT:
                continue
            score = lexicon.zipf(self.lang, cand) - edit_cost(word, cand)
            if score > best_score:
                best, best_score, second = cand, score, best_score
            elif score > second:
                second = score
        if (
            not best
            or best[0] != word[0]
            or best_score - second < WEIGHTED_DOMINANCE
            or lexicon.zipf(self.lang, best) < EDIT_MIN_CANDIDATE_ZIPF
        ):
            return None
        return best

    def sure_slip(self, word: str, corrected: str) -> bool:
        """(English) whether ``corrected`` of the lower-case ``word`` is so sure that neither a
        capital at a sentence start nor a second copy in the text makes ``word`` a name or a
        term: an apostrophe left out (``dont``), an impossible inflection (``companys``), or
        one plain slip (:data:`SURE_SLIP_COST`: two neighbours swapped, a doubled letter, a
        letter left out) in a word wordfreq has seen at most ``SURE_SLIP_MAX_ZIPF``
        (``rigth`` 1.7, ``siad``, ``Bicyle``, ``Thinkng``)."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        if self.lang != "en":
            return False
        if self.certain_slip(word, corrected):
            return True
        return (
            lexicon.zipf(self.lang, word) <= SURE_SLIP_MAX_ZIPF
            and edit_distance(word, corrected) == 1
            and learner_cost(word, corrected, SURE_SLIP_COST) <= SURE_SLIP_COST
            # a letter left out or two swapped, not a vowel for another: names spell their
            # vowels their own way ("Sylver" is Sylvia, not silver)
            and (len(word) != len(corrected) or sorted(word) == sorted(corrected))
        )

    def _unspoken_start(self, word: str) -> bool:
        """Whether ``word`` starts with three consonants (not y) that start no word of the
        list: no English word begins ``std``, so ``stdio`` is an abbreviation, not a slip."""
        start = word[:3]
        if len(start) < 3 or any(c in _VOWELS or c == "y" for c in start) or not start.isalpha():
            return False
        if start not in self._starts:
            from rephrase_ls.offline.engine.wordcounts import WordCounts

            freq = self.freq
            self._starts[start] = (
                freq.starts_any(start)
                if isinstance(freq, WordCounts)
                else any(w.startswith(start) for w in freq)
            )
        return not self._starts[start]

    def certain_slip(self, word: str, corrected: str) -> bool:
        """(English) whether ``corrected`` of the lower-case ``word`` puts back an apostrophe
        left out (``dont``), spells a contraction right (``oclock``, ``dident``) or makes an
        impossible inflection regular (``companys``): no term is written so."""
        return self.lang == "en" and corrected in (
            APOSTROPHE_LEFT_OUT["en"].get(word),
            self._regular_form(word),
            self._contraction_misspelt(word),
        )

    def listed_misspelling(self, word: str) -> str | None:
        """The correction of the lower-case ``word`` in the list of common misspellings."""
        return known_misspellings(self.lang).get(word)

    def trusted(self, word: str, candidate: str, margin: float = MIN_ZIPF_MARGIN) -> bool:
        """Whether replacing ``word`` by ``candidate`` is safe by how often each is written:
        the candidate common, the word unlisted or ``margin`` rarer."""
        import rephrase_ls.offline.engine.lexicon as lexicon

        wanted = lexicon.zipf(self.lang, candidate)
        if wanted < MIN_CANDIDATE_ZIPF:
            return False
        written = lexicon.zipf(self.lang, word)
        return written == 0.0 or wanted - written >= margin

    def _pick(
        self, candidates: set[str], allowed: set[str] | None = None, floor: float = 0.0
    ) -> str | None:
        """The dominant common candidate, or ``None`` (ties are never broken): listed by
        pyspellchecker, at least ``MIN_CANDIDATE_ZIPF`` (and ``floor``) in wordfreq, and
        ``DOMINANCE_ZIPF`` above every rival.

        With ``allowed``, only those may win, but every candidate counts as a rival.
        """
        import rephrase_ls.offline.engine.lexicon as lexicon

        freq = self.freq
        lang = self.lang
        best = ""
        best_zipf = 0.0
        second_zipf = 0.0
        for cand in candidates:
            if cand not in freq:
                continue
            z = lexicon.zipf(lang, cand)
            if z > best_zipf:
                second_zipf = best_zipf
                best, best_zipf = cand, z
            elif z > second_zipf:
                second_zipf = z
        if (
            best_zipf < max(floor, MIN_CANDIDATE_ZIPF)
            or best_zipf - second_zipf < DOMINANCE_ZIPF
            or freq[best] < MIN_CANDIDATE_COUNT
        ):
            return None
        if allowed is not None and best not in allowed:
            return None
        return best

    def _slips(self, word: str) -> set[str]:
        """Typical slips: swapped neighbours, doubled letters (5+ letters), accents."""
        out: set[str] = set()
        n = len(word)
        doubling = n >= 5 and self.lang not in SLIPS_ONLY
        for i in range(n):
            c = word[i]
            if i + 1 < n and word[i + 1] != c:
                out.add(word[:i] + word[i + 1] + c + word[i + 2 :])
            if not doubling:
                pass
            elif i + 1 < n and word[i + 1] == c:
                out.add(word[:i] + word[i + 1 :])
            else:
                out.add(word[:i] + c + word[i:])
            base = base_letter(c)
            if c != base and self.lang in NO_ACCENT_CHANGE:
                continue
            for variant in self._accents.get(base, ""):
                if variant != c and variant != base:  # add or change an accent, never drop one
                    out.add(word[:i] + variant + word[i + 1 :])
        out.discard(word)
        return out

    def _edits1(self, word: str) -> set[str]:
        splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
        alphabet = self.alphabet
        out: set[str] = set()
        for left, right in splits:
            if right:
                out.add(left + right[1:])
                if len(right) > 1:
                    out.add(left + right[1] + right[0] + right[2:])
                for c in alphabet:
                    out.add(left + c + right[1:])
            for c in alphabet:
                out.add(left + c + right)
        out.discard(word)
        return out


# Outside English, a word written without its accents is often itself common in wordfreq's
# lists (web and subtitle text drops accents: "dia" Zipf 5.1, "día" 6.0); the accented word
# need lead by half as much (tuned on COWS-L2H's dev split: non-words fixed 17.7 % -> 22.0 %,
# every new change right; clean prose: one more change, "asi" -> "así", a real slip).
ACCENT_ZIPF_MARGIN_OTHER: Final = 0.5


def accent_margin(lang: str) -> float:
    """How much commoner (Zipf) an accented spelling must be than the word as written."""
    return ACCENT_ZIPF_MARGIN if lang == "en" else ACCENT_ZIPF_MARGIN_OTHER


# Spanish verbs that change their stem's last vowel where it is stressed (pensar: pienso,
# piensa; poder: puede; pedir: pide): in the present's singular and third plural their forms
# are written with the change far more often than without.
_SPANISH_STEM_CHANGES: Final = {"e": ("ie", "i"), "o": ("ue",)}
_SPANISH_STEM_CHANGE_LEAD: Final = 1.0
# The present's endings after a stressed stem (its singular and third plural).
_SPANISH_STRESSED_STEM: Final = frozenset(("o", "a", "as", "an", "e", "es", "en"))


def _spanish_stem_change(stem: str, ending: str) -> bool:
    """Whether ``stem`` + ``ending`` (a present-tense ending) is no form of its verb, since the
    verb changes its stem's last vowel there: wordfreq writes the changed form
    ``_SPANISH_STEM_CHANGE_LEAD`` more often ("quero": *quiero*, "calente": *caliente*).
    The word is then a slip, for the tiers to correct."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    last = max((i for i, c in enumerate(stem) if c in "aeiou"), default=-1)
    if last <= 0 or stem[last] not in _SPANISH_STEM_CHANGES:
        return False
    if stem[last - 1] in "aeiou" and stem[last - 2 : last] not in ("qu", "gu"):
        return False  # a diphthong already ("cuent", "pien"); the u of "qu" is silent
    written = lexicon.zipf("es", stem + ending)
    return any(
        lexicon.zipf("es", stem[:last] + changed + stem[last + 1 :] + ending) - written
        >= _SPANISH_STEM_CHANGE_LEAD
        for changed in _SPANISH_STEM_CHANGES[stem[last]]
    )


def _english_word(word: str) -> bool:
    """Whether English uses the lower-case ``word`` (Zipf ``LOAN_MIN_ENGLISH_ZIPF``+)."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    return lexicon.zipf("en", word) >= LOAN_MIN_ENGLISH_ZIPF


# English regular endings that Spanish words do not have (the comparative and agent nouns of
# a word in -e, -ed, -ing, -est, -ly), each with the stem's final e it may drop: "terser" is
# *terse* + r. Not -er after a consonant, a Spanish infinitive ("porner" is a slip of
# *poner*), nor -s, -es, a Spanish plural ("differentes"). German has -er after e ("Fater" is
# a slip of *Vater*, not *fate* + r).
_ENGLISH_ENDINGS: Final = (("r", ""), ("rs", ""), ("st", ""), ("d", ""), ("ed", ""),
                           ("ing", ""), ("ing", "e"), ("est", ""), ("ly", ""))  # fmt: skip


def _english_derivation(lang: str, word: str) -> bool:
    """(Spanish) whether ``word`` is a regular English form (``_ENGLISH_ENDINGS``) of
    a word of 4+ letters that English uses (Zipf ``LOAN_MIN_ENGLISH_ZIPF``+) and writes
    1.0 Zipf more often than ``lang``: an English word in the text (the tool "terser" in
    Spanish documentation), which wordfreq's lists may lack, not a slip of a word of
    ``lang`` ("tercer")."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    for ending, lost in _ENGLISH_ENDINGS:
        stem = word[: -len(ending)] + lost
        if not word.endswith(ending) or len(stem) < 4:
            continue
        if ending[0] in "rsd" and not stem.endswith("e"):
            continue  # "terse" + r, "close" + d; not "porn" + r
        english = lexicon.zipf("en", stem)
        if english >= LOAN_MIN_ENGLISH_ZIPF and (
            english - lexicon.zipf(lang, stem) >= 2 * NEIGHBOUR_ENGLISH_LEAD
        ):
            return True
    return False


def _seen_stem(lang: str, word: str, floor: float = 0.0) -> bool:
    """Whether ``word`` is a regular inflection of a word wordfreq lists (above Zipf
    ``floor``: "memoized": "memoize"; not "voteing")."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    for suffix, stems in _INFLECTIONS.get(lang, ()):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            if any(
                lexicon.zipf(lang, stem + ending) > floor and _regular(lang, stem, suffix, ending)
                for ending in stems
            ):
                return True
    return False


def _clipped_inflection(lang: str, word: str, found: str) -> bool:
    """Whether ``found`` only adds a letter at the end of ``word``'s stem before a regular
    ending (``_INFLECTIONS``), and wordfreq lists both ``word`` and that stem: ``word`` is
    then the inflection of a clipped word, a term ("parens": *paren*, short for parenthesis,
    plural; not "parents"), not a slip (learners' "lauging" and "agences" are not written)."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    if len(found) != len(word) + 1 or lexicon.zipf(lang, word) == 0.0:
        return False
    for suffix, stems in _INFLECTIONS.get(lang, ()):
        if "" not in stems or not word.endswith(suffix) or not found.endswith(suffix):
            continue
        stem = word[: -len(suffix)]
        if (
            len(stem) >= 3
            and found[: len(stem)] == stem
            and lexicon.zipf(lang, stem) > 0.0
        ):
            return True
    return False


# A y between two consonants ("system", "hyphen", "zypper") marks a Greek or foreign word, a
# name or a product: learners do not write it for another vowel (none of the tier 5 and 6
# corrections of Holbrook and Birkbeck drops one), so an unseen word with one is no slip of a
# word without it ("zypper" is not "zipper", "hypens" is not "happens").
_INNER_Y: Final = re.compile(r"[^aeiouy]y[^aeiouy]")


def _drops_inner_y(word: str, found: str) -> bool:
    """Whether ``word`` has a y between consonants (``_INNER_Y``) and ``found`` has fewer."""
    kept = len(_INNER_Y.findall(word))
    return kept > 0 and len(_INNER_Y.findall(found)) < kept


def _swapped(word: str, found: str) -> bool:
    """Whether ``found`` is ``word`` with two neighbours swapped back ("jucie": "juice")."""
    i = first_difference(word, found)
    return (
        len(word) == len(found)
        and i + 1 < len(word)
        and word[i] == found[i + 1]
        and word[i + 1] == found[i]
        and word[i + 2 :] == found[i + 2 :]
    )


def _too_many_inside(word: str, found: str) -> bool:
    """Whether ``found`` is ``word`` of ``WEIGHTED_TOO_MANY_LENGTH``+ letters less one letter
    too many before its last two ("poertry", "comeing")."""
    return (
        len(word) >= WEIGHTED_TOO_MANY_LENGTH
        and len(found) == len(word) - 1
        and first_difference(word, found) < len(word) - 2
    )


# German consonants written for one another by sound (SOUND_ALIKE, w for v: "Wisum", z for the
# t of -tion: "Situazion").
_GERMAN_SOUND_ALIKE: Final = SOUND_ALIKE | {frozenset("vw"), frozenset("sß"), frozenset("tz")}


def _german_slip(word: str, found: str) -> bool:
    """Whether ``word`` is ``found`` (one edit away) with a learner's slip: a letter left
    out, too many or two swapped after the first letter, a vowel for a vowel, or a consonant
    for one that sounds alike (``_GERMAN_SOUND_ALIKE``; also as the first letter: "Fater",
    "Wisum"), an umlaut left out or added ("ubersehen"). Another consonant ("Swimmen" is not
    "Stimmen", "Grüze" not "Grüne") or a first letter left out or added ("Equalität" is not
    "Qualität") is as often another word meant (Falko-MERLIN's dev split)."""
    i = first_difference(word, found)
    if len(word) != len(found) or word[i + 1 :] != found[i + 1 :]:
        return i > 0  # a letter left out, too many, or two swapped
    a, b = base_letter(word[i]), base_letter(found[i])
    if a in VOWELS and b in VOWELS:
        return i > 0 or a == b  # "ubersehen": an umlaut left out
    return frozenset((a, b)) in _GERMAN_SOUND_ALIKE



# Spanish consonants written for one another by sound (b/v, c/s/z, g/j, y/ll's y...).
_SPANISH_SOUND_ALIKE: Final = SOUND_ALIKE | {frozenset("bv"), frozenset("cz")}


def _spanish_slip(word: str, found: str) -> bool:
    """Whether ``word`` is ``found`` (one edit away) with a learner's slip, as
    :func:`_german_slip` says with Spanish sound-alike consonants (``_SPANISH_SOUND_ALIKE``:
    "bolver" -> "volver")."""
    i = first_difference(word, found)
    if len(word) == len(found) + 1 and word[:-1] == found:
        return False  # a last letter too many is an ending ("desmontará", "detectará")
    if any(c in _SPANISH_ACUTE for c in word[i : i + 2]):
        return False  # an accented letter: the writer chose it
    if len(word) != len(found) or word[i + 1 :] != found[i + 1 :]:
        return i > 0  # a letter left out, too many, or two swapped
    a, b = base_letter(word[i]), base_letter(found[i])
    if a == b:
        return True  # an accent or a tilde added
    if a in VOWELS and b in VOWELS:
        return i > 0
    return frozenset((a, b)) in _SPANISH_SOUND_ALIKE


# A Spanish word nobody writes may be a form of a verb wordfreq knows (learners' and
# documentation's verbs alike: "migren", "mutarlos", "memoizar"), or a prefix on a known word
# ("recompilar"): not a slip of another word.
_SPANISH_CLITICS: Final = ("los", "las", "les", "nos", "lo", "la", "le", "me", "te", "se")
_SPANISH_VERB_ENDINGS: Final = (
    "ar", "er", "ir", "o", "a", "as", "amos", "áis", "an", "e", "es", "emos", "éis", "en",
    "imos", "ís", "é", "aste", "ó", "asteis", "aron", "í", "iste", "ió", "isteis", "ieron",
    "aba", "abas", "ábamos", "aban", "ía", "ías", "íamos", "ían", "ando", "iendo", "ado",
    "ada", "ados", "adas", "ido", "ida", "idos", "idas", "ará", "erá", "irá", "arán", "erán",
    "irán", "aría", "ería", "iría", "ara", "iera", "aran", "ieran",
)  # fmt: skip
_SPANISH_VERB_ZIPF: Final = 2.0
# The forms a clitic pronoun is written onto: the infinitive, the gerund, the imperative
# ("mutarlos", "entregándose", "dámelo"); "clas" + "se" is no verb ("classe" is "clase").
_SPANISH_CLITIC_HOSTS: Final = ("ar", "er", "ir", "ando", "iendo", "a", "e")
# Endings of one conjugation only (-ar: "cantó", -er: "comemos", -ir: "vivimos"); the present
# and the subjunctive's endings (o, a, e, amos, emos...) and -ía, -ió, -ido... of -er and -ir
# verbs are shared. "ofrecir" is no form of *ofrecer*, "escribó" none of *escribir*.
_SPANISH_AR_ENDINGS: Final = frozenset((
    "ar", "aste", "ó", "é", "asteis", "aron", "aba", "abas", "ábamos", "aban", "ando", "ado",
    "ada", "ados", "adas", "ará", "arán", "aría", "ara", "aran",
))  # fmt: skip
_SPANISH_ER_IR_ENDINGS: Final = frozenset((
    "í", "iste", "ió", "isteis", "ieron", "ía", "ías", "íamos", "ían", "iendo", "ido", "ida",
    "idos", "idas", "iera", "ieran",
))  # fmt: skip


def _spanish_conjugations(ending: str) -> tuple[str, ...]:
    """The infinitive endings of the verbs whose forms end in ``ending``."""
    if ending in _SPANISH_AR_ENDINGS:
        return ("ar",)
    if ending in _SPANISH_ER_IR_ENDINGS:
        return ("er", "ir")
    if ending in ("er", "ir"):
        return ("er", "ir")  # "reducer" (documentation's English term) is no slip
    if ending.startswith("er"):  # -erá, -ería
        return ("er",)
    if ending.startswith("ir") or ending in ("imos", "ís"):
        return ("ir",)
    return ("ar", "er", "ir")
_SPANISH_PREFIXES: Final = ("re", "des", "pre", "sub", "auto", "multi", "micro", "super",
                            "anti", "inter", "co", "sobre", "contra", "in", "im")
_SPANISH_PREFIX_STEM_ZIPF: Final = 2.5
# Verbs coined with -izar/-ificar ("memoizar", "renderizar") and their forms.
_SPANISH_COINED: Final = re.compile("(?:iz|ific)(?:ar|a|an|ado|ada|ados|adas|ando|o|e|en)$")


def _spanish_derived(word: str) -> bool:
    """Whether ``word`` is a form of a verb whose infinitive wordfreq writes
    (``_SPANISH_VERB_ZIPF``+), a clitic pronoun or two after one ("mutarlos"), or a prefix on
    a word of Zipf ``_SPANISH_PREFIX_STEM_ZIPF``+ ("recompilar"), or a verb coined with
    -izar or -ificar ("memoizar")."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    if _SPANISH_COINED.search(word):
        return True
    forms: list[tuple[str, tuple[str, ...]]] = [(word, _SPANISH_VERB_ENDINGS)]
    for clitic in _SPANISH_CLITICS:
        if word.endswith(clitic) and len(word) - len(clitic) >= 4:
            forms.append((strip_accents(word[: -len(clitic)]), _SPANISH_CLITIC_HOSTS))
    for form, endings in forms:
        for ending in endings:
            if form.endswith(ending) and len(form) - len(ending) >= 2:
                stem = form[: -len(ending)]
                if any(
                    lexicon.zipf("es", stem + inf) >= _SPANISH_VERB_ZIPF
                    for inf in _spanish_conjugations(ending)
                ) and not (ending in _SPANISH_STRESSED_STEM and _spanish_stem_change(stem, ending)):
                    return True
    return any(
        word.startswith(prefix)
        and lexicon.zipf("es", word[len(prefix) :]) >= _SPANISH_PREFIX_STEM_ZIPF
        for prefix in _SPANISH_PREFIXES
    )


# The future's accented endings; without the accent they are the imperfect subjunctive.
_SPANISH_FUTURE: Final = re.compile("[aei]rá[ns]?$")

_SPANISH_ACUTE: Final = frozenset("áéíóú")
_SPANISH_GRAVE: Final = {"à": "á", "è": "é", "ì": "í", "ò": "ó", "ù": "ú"}
# How much more often wordfreq must write the accented spelling of a regular form.
SPANISH_FORM_ACCENT_LEAD: Final = 1.0

_SPANISH_VOWEL_ACCENTS: Final = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú"}
_MAX_SPANISH_N: Final = 3  # n that may be ñ: 2**3 spellings at most


def _spanish_accent_spellings(word: str) -> set[str]:
    """The spellings of ``word``'s letters with at most one acute accent and any n as ñ
    (the first ``_MAX_SPANISH_N``), other than ``word``."""
    base = strip_accents(word)
    ns = [i for i, c in enumerate(base) if c == "n"][:_MAX_SPANISH_N]
    stems = [base]
    for i in ns:
        stems += [stem[:i] + "ñ" + stem[i + 1 :] for stem in stems]
    out: set[str] = set()
    for stem in stems:
        out.add(stem)
        for i, c in enumerate(stem):
            accented = _SPANISH_VOWEL_ACCENTS.get(c)
            if accented is not None:
                out.add(stem[:i] + accented + stem[i + 1 :])
    out.discard(word)
    return out


# Regular endings that always carry their accent (the conditional, the imperfect, a gerund
# before a pronoun), each with the infinitive endings its stem takes: "cumpliria" (cumplir +
# "ía"), "cenabamos" (cen + "ábamos"), "entregandose" (entreg + "ándo" + "se").
_SPANISH_ACCENTED_ENDINGS: Final = re.compile(
    "(?P<cond>[aei]r)(?P<ia>ia|ias|iamos|ian)$"
    "|(?P<abamos>abamos|aramos)$"
    "|(?P<iamos>iamos|ieramos)$"
    "|(?P<gerund>ando|iendo|yendo)(?P<clitics>(?:se|me|te|nos|os|lo|la|los|las|le|les)+)$"
)
_SPANISH_ENDING_ACCENTS: Final = {
    "ia": "ía", "ias": "ías", "iamos": "íamos", "ian": "ían", "abamos": "ábamos",
    "aramos": "áramos", "ieramos": "iéramos", "ando": "ándo", "iendo": "iéndo", "yendo": "yéndo",
}  # fmt: skip
# A learner's form is hardly written (the conditional "cumpliria" 1.8); the verb is common.
_SPANISH_ENDING_MAX_WORD_ZIPF: Final = 2.5
# Verbs whose future and conditional shorten their stem ("haría", "tendría", "podría"), with
# their compounds ("mantener", "deshacer").
_SPANISH_IRREGULAR_FUTURE: Final = (
    "hacer", "decir", "poner", "tener", "salir", "venir", "poder", "saber", "caber", "haber",
    "querer", "valer",
)  # fmt: skip
_SPANISH_ENDING_VERB_ZIPF: Final = 2.5


def _spanish_ending_accent(word: str) -> str | None:
    """(Spanish) ``word`` with the accent a regular ending always carries, when wordfreq has
    hardly seen ``word`` (``_SPANISH_ENDING_MAX_WORD_ZIPF``) and its verb is common
    (``_SPANISH_ENDING_VERB_ZIPF``): the conditional ("cumpliria" -> "cumpliría"), the
    imperfect's first person plural ("cenabamos" -> "cenábamos", "divertiamos" ->
    "divertíamos"), a gerund before a pronoun ("entregandose" -> "entregándose").
    Such forms are too rare in wordfreq's list for :meth:`Speller._spanish_accents`."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    if not word.isascii() or lexicon.zipf("es", word) > _SPANISH_ENDING_MAX_WORD_ZIPF:
        return None
    m = _SPANISH_ACCENTED_ENDINGS.search(word)
    if m is None:
        return None
    stem = word[: m.start()]
    if m.group("cond"):
        verbs = [stem + m.group("cond")]  # the infinitive: "cumplir" + "ía"
        ending = m.group("ia")
        accented = stem + m.group("cond") + _SPANISH_ENDING_ACCENTS[ending]
    else:
        ending = next(g for g in ("abamos", "iamos", "gerund") if m.group(g))
        ending = m.group(ending)
        infinitives = ("ar",) if ending.startswith("a") else ("er", "ir")
        verbs = [stem + inf for inf in infinitives]
        accented = stem + _SPANISH_ENDING_ACCENTS[ending] + (m.group("clitics") or "")
    if len(stem) < 2 and not m.group("cond"):
        return None
    verbs = [v for v in verbs if lexicon.zipf("es", v) >= _SPANISH_ENDING_VERB_ZIPF]
    if not verbs or any(v.endswith(_SPANISH_IRREGULAR_FUTURE) for v in verbs):
        return None  # no verb ("primer" is no infinitive), or "haría", not "hacería"
    if len(stem) >= 2 and not any(
        lexicon.zipf("es", v[:-2] + ("ando" if v.endswith("ar") else "iendo")) > 0.0
        for v in verbs
    ):
        return None  # a verb has a gerund: "cumpliendo"; "primer", "quier" have none
    return accented


# A word with an accent no one writes there ("tambíen" 2.7, "felíz" 3.1), and its letters
# written as wordfreq writes them far more often ("también" 6.2).
_SPANISH_MOVED_MAX_WORD_ZIPF: Final = 3.2
_SPANISH_MOVED_LEAD: Final = 1.5
# A word ending in an accented ó or é is a preterite when wordfreq has seen its -ar verb so.
_SPANISH_PRETERITE_VERB_ZIPF: Final = 1.5
_SPANISH_ACUTE_BASE: Final = {"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u"}


# A word wordfreq has hardly seen gets the accents of a word rarer than the accent tier's
# floor (learners' "carismatica", "taqueria").
_SPANISH_RARE_MAX_WORD_ZIPF: Final = 1.5
_SPANISH_RARE_ACCENT_MIN_ZIPF: Final = 2.0

# Spanish doubles no consonant but c (acción), n (innato), l and r (ll, rr are letters): a
# word written with ss, mm, pp... between vowels is the English spelling of a Spanish word
# ("classes", "possible", "commercial") when the single letter makes a common Spanish word
# (not an abbreviation: "ssr").
_SPANISH_UNDOUBLED: Final = re.compile(r"(?<=[aeiou])([bdfgmpstvz])\1(?=[aeiou])")
_SPANISH_UNDOUBLED_MIN_ZIPF: Final = 4.0
_SPANISH_UNDOUBLED_LEAD: Final = 1.5


def _spanish_undoubled(word: str) -> str | None:
    """(Spanish) ``word`` with its doubled consonants that Spanish never doubles written once,
    and the accents wordfreq writes ("classes" -> "clases", "professional" -> "profesional",
    "difficil" -> "difícil"), when wordfreq writes that
    ``_SPANISH_UNDOUBLED_MIN_ZIPF``+ and ``_SPANISH_UNDOUBLED_LEAD`` more often than
    ``word``."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    single = _SPANISH_UNDOUBLED.sub(r"\1", word)
    if single == word:
        return None
    checker = speller("es")
    word_itself = checker.known(single) or checker._verb_form(single)
    accented = None if word_itself else checker._spanish_accents(single)
    if accented is not None:
        single = accented  # "difficil": "difícil"; "llammo" is "llamo", a word
    z = lexicon.zipf("es", single)
    if z < _SPANISH_UNDOUBLED_MIN_ZIPF or z - lexicon.zipf("es", word) < _SPANISH_UNDOUBLED_LEAD:
        return None
    return single


# A singular in -ción/-sión always carries its accent; wordfreq has seen rarer such nouns
# ("vacación" 2.5) too seldom for the accent tier's floor.
_SPANISH_CION_MIN_ZIPF: Final = 2.0
_SPANISH_CION_MAX_WORD_ZIPF: Final = 2.5


def _spanish_cion_accent(word: str) -> str | None:
    """(Spanish) a noun in -cion or -sion with the accent its ending always carries
    ("vacacion" -> "vacación"), when wordfreq has seen it so (``_SPANISH_CION_MIN_ZIPF``+)
    and the word as written hardly (``_SPANISH_CION_MAX_WORD_ZIPF``)."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    if len(word) < 6 or not word.endswith(("cion", "sion")):
        return None
    if lexicon.zipf("es", word) > _SPANISH_CION_MAX_WORD_ZIPF:
        return None
    accented = word[:-2] + "ón"
    return accented if lexicon.zipf("es", accented) >= _SPANISH_CION_MIN_ZIPF else None


def _spanish_moved_accent(word: str, known: Callable[[str], bool]) -> str | None:
    """(Spanish) a word with one acute accent on the wrong vowel, or none needed, respelt
    with its letters' accents as wordfreq writes them: "tambíen" -> "también", "felíz" ->
    "feliz", "salío" -> "salió". The word is hardly written
    (``_SPANISH_MOVED_MAX_WORD_ZIPF``), the respelling ``_SPANISH_MOVED_LEAD`` more often,
    and ``DOMINANCE_ZIPF`` ahead of every other spelling of its letters; the letters without
    any accent are a rival only if ``known`` says they are a word (web text drops accents:
    "salio" is no word, "salió" is)."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    if sum(1 for c in word if c in _SPANISH_ACUTE) != 1:
        return None
    written = lexicon.zipf("es", word)
    bare = "".join(_SPANISH_ACUTE_BASE.get(c, c) for c in word)  # keeps ñ: "extrañó"
    if written > _SPANISH_MOVED_MAX_WORD_ZIPF or _spanish_derived(bare):
        return None  # a verb's accented form is a word: "pulsó", "gradúo", "varías"
    if word.endswith(("ó", "é")):
        second_conjugation = word.endswith("ió")  # "-ió": -er and -ir verbs
        stem = bare[:-2] if second_conjugation else bare[:-1]
        infinitives = ("er", "ir") if second_conjugation else ("ar",)
        if any(
            lexicon.zipf("es", stem + inf) >= _SPANISH_PRETERITE_VERB_ZIPF for inf in infinitives
        ):
            return None  # a preterite of a rarer verb: "se apegó" (apegar)
    for ending, infinitive in (("qué", "car"), ("gué", "gar"), ("cé", "zar")):
        if word.endswith(ending) and (
            lexicon.zipf("es", word[: -len(ending)] + infinitive) >= _SPANISH_VERB_ZIPF
        ):
            return None  # a preterite that respells its stem: "enfoqué" (enfocar)
    base = strip_accents(word)
    keep_tildes = {i for i, c in enumerate(word) if c == "ñ"}
    found, best, second = None, 0.0, 0.0
    for cand in _spanish_accent_spellings(base) | {base}:
        if cand == word or any(cand[i] != "ñ" for i in keep_tildes):
            continue
        if any(c == "ñ" for i, c in enumerate(cand) if i not in keep_tildes):
            continue  # the accent moves; no tilde is added
        if cand == base and not known(base):
            continue
        z = lexicon.zipf("es", cand)
        if z > best:
            found, best, second = cand, z, best
        elif z > second:
            second = z
    if (
        found is None
        or best < MIN_CANDIDATE_ZIPF
        or best - second < DOMINANCE_ZIPF
        or best - written < _SPANISH_MOVED_LEAD
    ):
        return None
    return found


def _derived(lang: str, word: str) -> bool:
    """Whether ``word`` starts with a word of ``DERIVED_MIN_STEM``+ letters (or those letters
    and an e) that wordfreq knows (``DERIVED_STEM_ZIPF``+): a derivation or a compound
    ("triager", "computative"), not a slip of another word."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    if (
        lang == "en"
        and len(word) >= 5
        and word.endswith("y")
        and lexicon.zipf(lang, word[:-1] + "e") >= DERIVED_Y_STEM_ZIPF
    ):
        return True  # an adjective in -y from a word in -e: "falsy" (JavaScript), "shiny"
    return any(
        lexicon.zipf(lang, word[:k]) >= DERIVED_STEM_ZIPF
        or lexicon.zipf(lang, word[:k] + "e") >= DERIVED_STEM_ZIPF
        for k in range(DERIVED_MIN_STEM, len(word))
    )


def _contraction(lang: str, word: str) -> bool:
    """Whether ``word`` is a very common English word (``CONTRACTION_STEM_ZIPF``+) with a
    contraction's ending, its apostrophe left out ("therell", "wouldnt")."""
    if lang != "en":
        return False
    import rephrase_ls.offline.engine.lexicon as lexicon

    return any(
        word.endswith(end) and lexicon.zipf(lang, word[: -len(end)]) >= CONTRACTION_STEM_ZIPF
        for end in _CONTRACTION_ENDINGS
    )


# English prefixes and suffixes that coin words from others ("memoized": memo + -ized,
# "prerender": pre- + render), on a stem of at least _COINED_MIN_STEM letters.
_EN_PREFIXES: Final = ("anti", "auto", "co", "de", "inter", "micro", "mis", "multi", "non",
                       "over", "pre", "re", "sub", "super", "un", "under")
_EN_SUFFIXES: Final = ("ize", "ise", "ized", "ised", "izes", "ises", "izing", "ising",
                       "ization", "isation", "ify", "ified", "ifies", "able", "ability",
                       "ness", "less", "ful", "ish", "ism", "ist", "ists")
_COINED_MIN_STEM: Final = 3


# Two common words written as one are a term or two words run together, not a slip of a third
# word: "popstate" (a DOM event) is not "prostate", "teamcity" not "tenacity", "startop" not
# "startup", "callsite" not "campsite"; nor "warking" (for "walking") "working".
COMPOUND_PART_MIN_LENGTH: Final = 3
COMPOUND_PART_ZIPF: Final = 4.5


def _compound(lang: str, word: str) -> bool:
    """Whether ``word`` is two words of ``COMPOUND_PART_MIN_LENGTH``+ letters that wordfreq
    writes Zipf ``COMPOUND_PART_ZIPF``+ each ("pop" + "state", "team" + "city")."""
    import rephrase_ls.offline.engine.lexicon as lexicon

    shortest = COMPOUND_PART_MIN_LENGTH
    return any(
        lexicon.zipf(lang, word[:i]) >= COMPOUND_PART_ZIPF
        and lexicon.zipf(lang, word[i:]) >= COMPOUND_PART_ZIPF
        for i in range(shortest, len(word) - shortest + 1)
    )


def _coined(lang: str, word: str) -> bool:
    """Whether ``word`` is a common word (Zipf ``MIN_CANDIDATE_ZIPF``+) with a prefix or
    suffix that coins words (English only): a term, not a slip."""
    if lang != "en":
        return False
    import rephrase_ls.offline.engine.lexicon as lexicon

    def common(stem: str) -> bool:
        return len(stem) >= _COINED_MIN_STEM and (
            lexicon.zipf(lang, stem) >= MIN_CANDIDATE_ZIPF
            or lexicon.zipf(lang, stem + "e") >= MIN_CANDIDATE_ZIPF
        )

    return any(word.startswith(p) and common(word[len(p) :]) for p in _EN_PREFIXES) or any(
        word.endswith(x) and common(word[: -len(x)]) for x in _EN_SUFFIXES
    )


_spellers: dict[str, Speller] = {}


def speller(lang: str) -> Speller:
    """The cached :class:`Speller` for the base language ``lang`` (loaded on first use)."""
    found = _spellers.get(lang)
    if found is None:
        with _lock:
            found = _spellers.get(lang)
            if found is None:
                found = Speller(lang)
                _spellers[lang] = found
    return found


def match_case(original: str, corrected: str) -> str:
    """Give ``corrected`` the capitalisation pattern of ``original``."""
    if original[:1].isupper():
        return corrected[:1].upper() + corrected[1:]
    return corrected
