# Over 400 lines: the engine's passes, in the order they run over a text, with their guards.
"""The offline improvement engine: language detection and rule-based text improvement.

``improve`` tokenizes the text, hides every protected span (placeholders ``{{N}}``, quotes,
backticks, links, e-mails, paths, words with digits or underscores, camelCase, all-caps words)
behind a one-character sentinel, runs the rules on the rest and puts the protected spans back
unchanged and in order. What each rule does is documented in docs/offline-engine.md.

Importing this package is cheap: dictionaries, profiles and variant lists load on first use.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

import rephrase_ls.text.variants as variants
from rephrase_ls.service.models import PREFER_PREFIX, TONES, WRITING_STYLES
from rephrase_ls.text.detect import detect_language
from rephrase_ls.text.tokens import PLACEHOLDER, PROTECTED, QUOTED, Token, iter_tokens
from rephrase_ls.text.variant_detect import EN_BOTH, detect_variant

from . import lexicon, rules, spelling, styles
from .edit_shapes import edit_distance, plain_slip, strip_accents
from .spelling import LANGUAGES, match_case, speller

__all__ = [
    "STYLE_LANGUAGES",
    "SUPPORTED_LANGUAGES",
    "SUPPORTED_TARGETS",
    "UNCHANGED_TARGETS",
    "detect_language",
    "detect_variant",
    "improve",
    "repeated_words",
]

SUPPORTED_LANGUAGES = LANGUAGES
SUPPORTED_TARGETS = ("de", "en", "en-gb", "en-us", "es", "fr", "it", "pt", "pt-br", "pt-pt")
#: Targets the service names that the engine has no rules for: their text comes back as it is.
UNCHANGED_TARGETS = ("ja", "ko", "zh", "zh-hans")
# Base languages that have style and tone rule sets; others ignore a style or tone.
STYLE_LANGUAGES = ("de", "en")

_MARK_OF = {
    PLACEHOLDER: rules.PLACEHOLDER_MARK,
    PROTECTED: rules.PROTECTED_MARK,
    QUOTED: rules.QUOTE_MARK,
}
_MARKS_RE = re.compile(f"([{rules.MARKS}])")  # split() gives the text between and the marks

# Typographic double quotes per language (opening, closing); the first is the default.
_TYPOGRAPHIC: dict[str, tuple[tuple[str, str], ...]] = {
    "en": (("“", "”"),),
    "de": (("„", "“"), ("»", "«")),
    "fr": (("«", "»"), ("“", "”")),
    "es": (("«", "»"), ("“", "”")),
    "it": (("«", "»"), ("“", "”")),
    "pt": (("«", "»"), ("“", "”")),
}
_PT_GERUND = re.compile(
    r"(?<![\w'’\-\ue000-\ue002])("
    + "|".join(sorted(variants.PT_ESTAR, key=len, reverse=True))
    + r") ([^\W\d_]+(?:ando|endo|indo|ondo))(?![\w'’\-\ue000-\ue002])",
    re.IGNORECASE,
)
_PT_A_INFINITIVE = re.compile(
    r"(?<![\w'’\-\ue000-\ue002])("
    + "|".join(sorted(variants.PT_ESTAR, key=len, reverse=True))
    + r") a ([^\W\d_]+(?:ar|er|ir)|pôr)(?![\w'’\-\ue000-\ue002])",
    re.IGNORECASE,
)
_PT_MIN_COUNT = 100
# Characters written as apostrophes; a word glued to one is part of a longer word.
_APOSTROPHES = frozenset("'’´`ʼ‘")
_HANDLE_MARKS = frozenset("@#")


def _parse_target(target_lang: str) -> tuple[str, str]:
    if not isinstance(target_lang, str):
        raise TypeError("target_lang must be a str such as 'en-us' or 'de'")
    target = target_lang.strip().lower().replace("_", "-")
    if target not in SUPPORTED_TARGETS:
        raise ValueError(
            f"unsupported target language {target_lang!r}; "
            f"supported: {', '.join(SUPPORTED_TARGETS)}"
        )
    return target, target.split("-")[0]


def _parse_mode(writing_style: str | None, tone: str | None) -> str | None:
    if writing_style is not None and tone is not None:
        raise ValueError("writing_style and tone cannot be used together")
    value = writing_style if writing_style is not None else tone
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError("writing_style and tone must be str or None")
    name = value.strip().lower().removeprefix(PREFER_PREFIX)
    if name == "default":
        return None
    allowed = WRITING_STYLES if writing_style is not None else TONES
    if name not in allowed:
        kind = "writing_style" if writing_style is not None else "tone"
        raise ValueError(f"unknown {kind} {value!r}; expected one of: {', '.join(allowed)}")
    return name


def _fix_quotes(tokens: list[Token], lang: str) -> None:
    """Make double quotes consistent with the kind the text already uses most (in place)."""
    quoted = [t for t in tokens if t.kind == QUOTED]
    if not quoted:
        return
    kinds = _TYPOGRAPHIC[lang]
    straight = [t for t in quoted if t.text[0] == '"']
    typographic = [t for t in quoted if any(t.text[0] == o for o, _ in kinds)]
    if not straight or not typographic:
        return
    if len(typographic) >= len(straight):
        counts = {pair: sum(t.text[0] == pair[0] for t in typographic) for pair in kinds}
        opening, closing = max(kinds, key=lambda p: (counts[p], -kinds.index(p)))
        inner = ""
        for t in typographic:
            if t.text[0] == opening and len(t.text) > 2 and t.text[1] in "\u00a0\u202f ":
                inner = t.text[1]
                break
        for t in straight:
            t.text = opening + inner + t.text[1:-1] + inner + closing
    else:
        for t in typographic:
            for o, c in kinds:
                if t.text[0] == o and t.text[-1] == c:
                    t.text = '"' + t.text[1:-1].strip("\u00a0\u202f") + '"'


def _shadow(text: str, lang: str) -> tuple[str, list[str]]:
    """``text`` with each protected span replaced by its sentinel, and the spans in order
    (quoted spans with their quotes made consistent, see :func:`_fix_quotes`)."""
    parts: list[str] = []
    saved: list[str] = []
    quoted: list[int] = []
    mark_of = _MARK_OF
    for kind, value in iter_tokens(text):
        mark = mark_of.get(kind)
        if mark is None:
            parts.append(value)
        else:
            if kind == QUOTED:
                quoted.append(len(saved))
            parts.append(mark)
            saved.append(value)
    if quoted:
        tokens = [Token(QUOTED, saved[i]) for i in quoted]
        _fix_quotes(tokens, lang)
        for i, token in zip(quoted, tokens, strict=True):
            saved[i] = token.text
    return "".join(parts), saved


def _restore(shadow: str, saved: list[str], original_marks: str) -> str:
    """``shadow`` with its sentinels replaced by the ``saved`` spans, in order; they must be
    ``original_marks`` (no rule adds, drops or moves a sentinel)."""
    if not saved:
        if original_marks or _MARKS_RE.search(shadow) is not None:
            raise RuntimeError("offline engine lost a protected span (internal error)")
        return shadow
    pieces = _MARKS_RE.split(shadow)
    if "".join(pieces[1::2]) != original_marks:
        raise RuntimeError("offline engine lost a protected span (internal error)")
    pieces[1::2] = saved
    return "".join(pieces)


def repeated_words(texts: Sequence[str]) -> frozenset[str]:
    """The lower-case words written at least twice in ``texts`` together (the texts of one
    request: parts of one document). Pass them to :func:`improve` as ``context_words``: a word a
    document writes twice is meant (a term, a name), so it is never spell-corrected."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(run.lower() for run in rules.glue_runs(text) if run.isalpha())
    return frozenset(word for word, count in counts.items() if count >= 2)


# A neighbour is an English word, not one of the text's language, when English writes it this
# often (Zipf) and this much more often than the text's language does ("text" in Spanish).
_ENGLISH_NEIGHBOUR_MIN_ZIPF = 4.0
_ENGLISH_NEIGHBOUR_LEAD = 1.0


def _english_phrase(s: str, start: int, end: int, lang: str) -> bool:
    """Whether the word at ``start:end`` of a text in ``lang`` (not English) stands in an
    English phrase: English uses it, and a word beside it (one space away) is English rather
    than ``lang`` (Spanish "un text area": "area" is not "área" there)."""
    if lang == "en" or lexicon.zipf("en", s[start:end].lower()) < spelling.LOAN_MIN_ENGLISH_ZIPF:
        return False
    return _beside_english(s, start, end, lang)


def _beside_english(s: str, start: int, end: int, lang: str) -> bool:
    """Whether a word beside the one at ``start:end`` (one space away) is English rather than
    ``lang`` (an English title: "On the Puise of Morning")."""
    first = start - 1
    while first > 0 and s[first - 1].isalpha():
        first -= 1
    stop = end + 1
    while stop < len(s) and s[stop].isalpha():
        stop += 1
    before = s[first : start - 1] if s[start - 1 : start] == " " else ""
    after = s[end + 1 : stop] if s[end : end + 1] == " " else ""
    for word in (before.lower(), after.lower()):
        english = lexicon.zipf("en", word) if word else 0.0
        if english >= _ENGLISH_NEIGHBOUR_MIN_ZIPF and (
            english - lexicon.zipf(lang, word) >= _ENGLISH_NEIGHBOUR_LEAD
        ):
            return True
    return False


# A word among many with no function word near it (no word of Zipf 6+ in its language: "the",
# "of", "der", "de") is in a list of terms, not a sentence: coreutils' README lists its
# commands ("du echo env expand expr factor false fmt fold groups head hostid hostname"),
# where an unknown word is a name ("hostid" is not "hosted"). Learner sentences always have one.
_LIST_WINDOW = 6  # words each side
_LIST_MIN_WORDS = 8  # a list only when this many words are around the word
_FUNCTION_WORD_ZIPF = 6.0
_PLAIN_WORD = re.compile(r"[^\W\d_]+")


def _in_word_list(s: str, start: int, end: int, lang: str) -> bool:
    """Whether the word at ``start:end`` of ``s`` stands among ``_LIST_MIN_WORDS``+ words
    (``_LIST_WINDOW`` each side) none of which is a function word: a list of names or
    commands, not prose."""
    reach = 40 * _LIST_WINDOW
    before = _PLAIN_WORD.findall(s[max(0, start - reach) : start])[-_LIST_WINDOW:]
    after = _PLAIN_WORD.findall(s[end : end + reach])[:_LIST_WINDOW]
    around = before + after
    return len(around) >= _LIST_MIN_WORDS and all(
        lexicon.zipf(lang, word.lower()) < _FUNCTION_WORD_ZIPF for word in around
    )


# A word nobody writes, among words the language's list mostly lacks, is in another language
# (lorem ipsum's "non proident, sunt in culpa": not "president"), not a slip: learners'
# sentences around a slip are mostly listed words.
_FOREIGN_WINDOW = 6  # words each side
_FOREIGN_MIN_WORDS = 4
_FOREIGN_KNOWN_SHARE = 0.5
# How often wordfreq may have seen such a word: lorem ipsum's words are Latin names and terms
# the web writes now and then ("varius" 1.7, "lorem" 1.8, "odio" 2.0), and codespell lists
# "varius" as a misspelling of *various*.
_FOREIGN_MAX_ZIPF = 2.0


def _foreign_context(
    checker: spelling.Speller, s: str, start: int, end: int, word: str
) -> bool:
    """Whether ``word`` (at ``start:end`` of ``s``), which wordfreq has seen at most
    ``_FOREIGN_MAX_ZIPF``, stands among ``_FOREIGN_MIN_WORDS``+ words (``_FOREIGN_WINDOW`` each
    side) of which fewer than ``_FOREIGN_KNOWN_SHARE`` are known to the speller's list."""
    if lexicon.zipf(checker.lang, word) > _FOREIGN_MAX_ZIPF:
        return False
    reach = 40 * _FOREIGN_WINDOW
    before = _PLAIN_WORD.findall(s[max(0, start - reach) : start])[-_FOREIGN_WINDOW:]
    after = _PLAIN_WORD.findall(s[end : end + reach])[:_FOREIGN_WINDOW]
    around = [w.lower() for w in before + after]
    if len(around) < _FOREIGN_MIN_WORDS:
        return False
    known = sum(1 for w in around if checker.known(w))
    return known < _FOREIGN_KNOWN_SHARE * len(around)


def _spelling(
    s: str,
    lang: str,
    known_lower: frozenset[str],
    context: frozenset[str] = frozenset(),
) -> str:
    """Spelling corrections (see :mod:`.spelling`)."""
    checker = speller(lang)

    def fix(word: str, start: int) -> str | None:
        lower = word.lower()
        if lower in known_lower:
            return None
        # A context word (written twice in the request) comes here only when it is a slip
        # however often it is written: the choice of ``maybe`` below keeps the others out.
        end = start + len(word)
        if (start > 0 and s[start - 1] in _APOSTROPHES) or s[end : end + 1] in _APOSTROPHES:
            return None  # part of a word written with another apostrophe ("isn´t")
        if start > 0 and s[start - 1] in _HANDLE_MARKS:
            return None  # a user name or a tag ("@yyogo", "#wontfix"), not a word
        if _in_word_list(s, start, end, lang):
            return None
        if word == lower:
            if lang != "en" and _english_phrase(s, start, end, lang):
                return None
            corrected = checker.correction(word)
            if corrected is not None and _foreign_context(checker, s, start, end, word):
                return None
            if corrected is not None and lang == "fr" and _rectified(word, corrected):
                return None
            return corrected
        if lang == "de" and word[1:] == lower[1:]:
            corrected = _german_capitalised(checker, lower)
            if corrected is not None and not _foreign_context(checker, s, start, end, lower):
                return match_case(word, corrected)
            return None
        # A capital: a name, or a sentence's first word (names start sentences too): only a
        # listed misspelling there ("Teh").
        if word[1:] == lower[1:] and rules.is_sentence_start(s, start, lang):
            corrected = checker.correction(lower)
            if corrected is not None and (
                checker.listed_misspelling(lower) == corrected
                or checker.sure_slip(lower, corrected)
                or _spanish_accents_added(lang, lower, corrected)
            ):
                return match_case(word, corrected)
        if lang == "es" and word[1:] == lower[1:]:
            # Mid-sentence: a name or a word without its accents ("Japon", "Espanol").
            corrected = checker.correction(lower)
            if corrected is not None and _spanish_accents_added(lang, lower, corrected):
                return match_case(word, corrected)
            if _unwritten_capital_slip(
                checker, lower, rules.is_sentence_start(s, start, lang)
            ) and not _beside_english(s, start, end, lang):
                return match_case(word, checker.correction(lower) or lower)
        return None

    # Most words are right: find the few that may change first (each distinct word once; a
    # word seen before in this language costs one set lookup), and visit only those.
    runs = rules.glue_runs(s)
    maybe = checker.changeable(rules.distinct_words(s, runs))
    if maybe:
        # A word written the same way twice in the text is meant (a term, a name), and so is
        # a known word; only lower-case words are corrected (see fix()).
        counts = Counter(run.lower() for run in runs)
        maybe = {
            word for word in maybe
            if (counts[word.lower()] < 2 or _slip_however_often(checker, lang, word))
            and word.lower() not in known_lower
            and (word.lower() not in context or _slip_across_texts(checker, lang, word))
        }
    return rules.words(s, fix, only=maybe)


# German capitalises every noun, so a capitalised word is mostly a noun, not a name; one that
# wordfreq has seen at most this often (names are written: "Köhler" 2.6) is checked.
_GERMAN_CAPITAL_MAX_ZIPF = 2.0


def _german_capitalised(checker: spelling.Speller, lower: str) -> str | None:
    """The correction of a capitalised German word (given in lower case), mid-sentence or at
    a sentence start: a noun ("Vorstelung" -> "Vorstellung") when the word is unknown in any
    case and wordfreq has hardly seen it (a name is written: ``_GERMAN_CAPITAL_MAX_ZIPF``)."""
    if lexicon.zipf("de", lower) > _GERMAN_CAPITAL_MAX_ZIPF or checker.known(lower):
        return None
    return checker.correction(lower)


# A Spanish name without its accents is how English writes it ("Jose" 4.2, "Gomez" 3.6,
# "Beyonce" 3.5 in English); a common word is not ("despues" 1.3, "asi" 2.9).
_SPANISH_NAME_ENGLISH_ZIPF = 3.0


def _spanish_accents_added(lang: str, lower: str, corrected: str) -> bool:
    """Whether ``corrected`` is the Spanish word ``lower`` with accents it left out, and
    ``lower`` is not how English writes a name (``_SPANISH_NAME_ENGLISH_ZIPF``): a slip at a
    sentence start too ("Despues", "Tambien"; "Jose" and "Gomez" are left)."""
    return (
        lang == "es"
        and lower.isascii()
        and strip_accents(corrected) == lower
        and lexicon.zipf("en", lower) < _SPANISH_NAME_ENGLISH_ZIPF
    )


def _rectified(word: str, corrected: str) -> bool:
    """Whether ``word`` is the French 1990 rectified spelling of ``corrected``: the same but
    for the circumflex of i and u (``apparait``, ``connaitre``, ``cout``), which the
    rectifications drop. Both are correct."""
    return len(word) == len(corrected) and all(
        a == b or (a, b) in (("i", "î"), ("u", "û")) for a, b in zip(word, corrected, strict=True)
    )


def _slip_however_often(checker: spelling.Speller, lang: str, word: str) -> bool:
    """Whether ``word`` is a slip even when a text writes it twice (learners repeat theirs): a
    common word without its accents (not English), or a word in lower case whose correction
    is a listed misspelling's, an apostrophe left out, an impossible inflection, or two
    neighbours swapped or a doubled letter in a word wordfreq has hardly seen
    (:meth:`.Speller.sure_slip`): ``untill``, ``dont``, ``rigth``, ``companys``. A term or a
    name a document repeats is no such slip of a common word."""
    if _accents_left_out(checker, lang, word) or _learner_slip(checker, lang, word):
        return True
    if word != word.lower():
        return False
    corrected = checker.correction(word)
    return corrected is not None and (
        checker.listed_misspelling(word) == corrected or checker.sure_slip(word, corrected)
    )


def _slip_across_texts(checker: spelling.Speller, lang: str, word: str) -> bool:
    """Whether ``word``, which another text of the request (another paragraph of the document)
    also writes, is a slip all the same: as :func:`_slip_however_often`, but in English only a
    listed misspelling, an apostrophe left out or an impossible inflection
    (:meth:`.Speller.certain_slip`): ``recieved``, ``untill``, ``dont``. A word wordfreq has
    hardly seen, one letter from a common word, that a document writes in two paragraphs is a
    term (``stdio``, not *studio*)."""
    if lang != "en":
        return _slip_however_often(checker, lang, word)
    if word != word.lower():
        return False
    corrected = checker.correction(word)
    return corrected is not None and (
        checker.listed_misspelling(word) == corrected or checker.certain_slip(word, corrected)
    )


# Spanish learners' plain slips of common words are written on the web too ("famila" 2.4,
# "timepo" 1.6, "dicir" 1.8): a word wordfreq has seen up to this often (tier 9's ceiling) is
# still a slip when an essay repeats it.
_SPANISH_REPEATED_SLIP_MAX_ZIPF = spelling.SPANISH_NEIGHBOUR_MAX_WORD_ZIPF


def _learner_slip(checker: spelling.Speller, lang: str, word: str) -> bool:
    """(German, Spanish) whether the lower-case ``word`` is a word wordfreq has never seen
    one plain slip from its correction (:func:`.edit_shapes.plain_slip`: a letter left out,
    two swapped, a vowel for a vowel: ``famila``, ``Gesellschat``): a slip even when written
    twice, as learners repeat theirs. A term a document repeats is rarely one plain slip from
    a common word."""
    lower = word.lower()
    ceiling = _SPANISH_REPEATED_SLIP_MAX_ZIPF if lang == "es" else 0.0
    if lang not in spelling.NEIGHBOUR_LANGUAGES or lexicon.zipf(lang, lower) > ceiling:
        return False
    corrected = checker.correction(lower)
    return (
        corrected is not None
        and edit_distance(lower, corrected) == 1
        and plain_slip(lower, corrected)
    )


# At a sentence start a capital is as often a word as a name: a Spanish word web text holds
# this rarely ("Caundo" 1.8, "Nunco" 1.2) is a slip there too, when English never writes it.
_SPANISH_START_SLIP_MAX_ZIPF = 2.0


def _unwritten_capital_slip(checker: spelling.Speller, lower: str, at_start: bool) -> bool:
    """(Spanish) whether a capitalised word (given in ``lower`` case) that neither Spanish nor
    English text has ever written is one plain slip from its correction (:func:`_learner_slip`):
    "Neuva York", "Alugunas" at a sentence start, "Cistiano Ronaldo". A name is written
    somewhere ("Gomez", "Vitest"), and one with a y after a consonant is foreign ("Mychel" is
    not "Michel", "Gyasto" not "Gasto"). The caller leaves one beside an English word (a
    title: "On the Puise of Morning")."""
    ceiling = _SPANISH_START_SLIP_MAX_ZIPF if at_start else 0.0
    if lexicon.zipf("en", lower) > 0.0 or lexicon.zipf("es", lower) > ceiling:
        return False
    corrected = checker.correction(lower)
    return (
        corrected is not None
        and _learner_slip(checker, "es", lower)
        and not _CONSONANT_Y.search(lower)
    )


# A y after a consonant is no Spanish spelling but a foreign name's ("Mychel", "Gyatso").
_CONSONANT_Y = re.compile("[^aeiouáéíóúü]y")


def _accents_left_out(checker: spelling.Speller, lang: str, word: str) -> bool:
    """Whether ``word`` (not English) is a common word written without its accents
    (``tambien``, ``musica``), or in Spanish with its accent on the wrong letter
    (``tambíen``, ``felíz``): a slip even when written twice, as learners repeat it. A term
    or a name a document repeats has letters of its own, not another word's. In Spanish a
    capitalised one too (``Despues`` at two sentence starts; :func:`_spelling` changes it
    only at a sentence start)."""
    lower = word.lower()
    if lang == "es" and word[1:] == lower[1:]:
        word = lower
    if lang == "en" or word != lower:
        return False
    if not word.isascii():
        if lang != "es":
            return False
        corrected = checker.correction(word)
        return corrected is not None and strip_accents(corrected) == strip_accents(word)
    corrected = checker.correction(word)
    return corrected is not None and strip_accents(corrected) == word


def _common_english(word: str) -> bool:
    """Whether the lower-case ``word`` is a common English word (its sound is then known)."""
    return lexicon.zipf("en", word) >= spelling.MIN_CANDIDATE_ZIPF


def _spoken_english(word: str) -> bool:
    """Whether the lower-case ``word`` is said as a word: pyspellchecker's English list, drawn
    from film subtitles, has it ``MIN_CANDIDATE_COUNT``+ times ("old", "end"; not "url",
    "html", "sql", which are read letter by letter)."""
    return spelling.speller("en").freq.get(word, 0) >= spelling.MIN_CANDIDATE_COUNT


def _map_words(s: str, lang: str, mapping: dict[str, str], keep: frozenset[str]) -> str:
    def swap(word: str, start: int) -> str | None:
        lower = word.lower()
        new = mapping.get(lower)
        if new is None or lower in keep:
            return None
        if word == lower:
            return new
        if word[1:] == lower[1:] and rules.is_sentence_start(s, start, lang):
            return match_case(word, new)
        return None

    return rules.words(s, swap)


_english_maps: dict[str, dict[str, str]] = {}
# A spelling is converted only to a form at most this much rarer (Zipf) in wordfreq's English
# list, which mixes both variants: "colour"/"color" convert, "connection" never becomes the
# archaic "connexion" (Zipf 4.8 against 2.5).
_VARIANT_MAX_ZIPF_DROP = 1.0


def _english_conversions(target: str) -> dict[str, str]:
    """breame's map into ``target``, less the pairs whose target form is much rarer than the
    word (an archaic or rare spelling) and the spellings standard on both sides."""
    found = _english_maps.get(target)
    if found is None:
        found = {
            word: new
            for word, new in variants.english_map(target).items()
            if word not in EN_BOTH
            and lexicon.zipf("en", new) >= lexicon.zipf("en", word) - _VARIANT_MAX_ZIPF_DROP
        }
        _english_maps[target] = found
    return found


def _variant(s: str, target: str, keep: frozenset[str]) -> str:
    """Convert to the target variant; ``keep``: lower-case known words, never converted."""
    if target in ("en-us", "en-gb"):
        return _map_words(s, "en", _english_conversions(target), keep)
    if target not in ("pt-br", "pt-pt"):
        return s
    s = _map_words(s, "pt", variants.portuguese_map(target), keep)
    freq = speller("pt").freq
    if target == "pt-pt":

        def to_pt(m: re.Match[str]) -> str:
            infinitive = variants.gerund_to_infinitive(m.group(2).lower())
            if infinitive is None or freq.get(infinitive, 0) < _PT_MIN_COUNT:
                return m.group(0)
            return f"{m.group(1)} a {infinitive}"

        return _PT_GERUND.sub(to_pt, s)

    def to_br(m: re.Match[str]) -> str:
        infinitive = m.group(2).lower()
        gerund = variants.infinitive_to_gerund(infinitive)
        if (
            gerund is None
            or freq.get(infinitive, 0) < _PT_MIN_COUNT
            or freq.get(gerund, 0) < _PT_MIN_COUNT
        ):
            return m.group(0)
        return f"{m.group(1)} {gerund}"

    return _PT_A_INFINITIVE.sub(to_br, s)


def improve(
    text: str,
    target_lang: str,
    *,
    writing_style: str | None = None,
    tone: str | None = None,
    known_words: frozenset[str] = frozenset(),
    context_words: frozenset[str] = frozenset(),
) -> str:
    """Return an improved version of ``text`` for ``target_lang`` (e.g. ``en-us``, ``de``).

    ``writing_style`` (simple, business, academic, casual) or ``tone`` (enthusiastic,
    friendly, confident, diplomatic) apply their rule sets for de and en; other languages
    ignore them. Japanese, Korean and Chinese (:data:`UNCHANGED_TARGETS`) come back unchanged:
    the engine has no rules for them. ``known_words`` (case-insensitive) are never
    spell-corrected or converted to another variant. ``context_words`` (lower case; see
    :func:`repeated_words`) are never spell-corrected. Raises ``ValueError`` on an unsupported
    target, an unknown style or tone, or both given.
    """
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if isinstance(target_lang, str) and target_lang.strip().lower() in UNCHANGED_TARGETS:
        _parse_mode(writing_style, tone)
        return text  # no rules for Japanese, Korean or Chinese: nothing is claimed
    target, lang = _parse_target(target_lang)
    mode = _parse_mode(writing_style, tone)
    if not text.strip():
        return text
    s, saved = _shadow(text, lang)
    original_marks = "".join(_MARKS_RE.findall(s)) if saved else ""  # none without spans

    capital_start = s[:1].isupper()
    s = rules.spacing(s, lang)
    s = after_doubles = rules.doubled_words(s, lang)
    keep = frozenset(w.lower() for w in known_words)
    s = _spelling(s, lang, keep, context_words)
    s = _variant(s, target, keep)
    if mode is not None and lang in STYLE_LANGUAGES:
        s = styles.apply_style(s, lang, mode)
    for rule in styles.confusables(lang):
        s = rule(s, lang)
    if lang == "en":
        s = rules.english_i(s)
        s = rules.english_articles(s, _common_english, _spoken_english)
    shadow = s

    def capitalise_first(word: str, end: int) -> bool:
        # Not a label before code ("optional `options`: An object"); nor, as at every
        # sentence start, a word the lists lack (a command such as "esbuild", a name:
        # common() below). A paragraph that goes on an open sentence of its document is the
        # pipeline's to keep in lower case (open_sentence.py): the engine sees the text alone.
        rest = shadow[end : end + 2].lstrip(" ")
        return not rest.startswith((rules.PROTECTED_MARK, rules.PLACEHOLDER_MARK))

    def common(word: str) -> bool:
        return lexicon.zipf(lang, word) >= spelling.MIN_CANDIDATE_ZIPF

    s = rules.sentence_capitals(s, lang, capitalise_first, common)
    if capital_start and s[:1].islower():
        s = s[0].upper() + s[1:]  # a style rule dropped the first word ("Basically, we")
    # Corrections and capitals can create new doubles ("teh the", "the The"): once more, so
    # that improving an improved text changes nothing (not needed when nothing changed since:
    # the rule is idempotent, see tests/unit/engine/test_engine_rules.py).
    if s != after_doubles:
        s = rules.doubled_words(s, lang)
    return _restore(s, saved, original_marks)
