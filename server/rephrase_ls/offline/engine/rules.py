"""Typography and grammar rules on a *shadow* string.

The engine replaces each protected token by one sentinel character (``PLACEHOLDER_MARK`` for
``{{N}}``, ``PROTECTED_MARK`` for code, links, paths and odd words, ``QUOTE_MARK`` for quoted
spans). No rule matches, creates or removes a sentinel, so the protected texts are put back
unchanged and in order. Words next to a sentinel (no space between) are never touched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Final

PLACEHOLDER_MARK: Final = "\ue000"
PROTECTED_MARK: Final = "\ue001"
QUOTE_MARK: Final = "\ue002"
MARKS: Final = PLACEHOLDER_MARK + PROTECTED_MARK + QUOTE_MARK

_L = r"[^\W\d_]"
# A whole word: not glued to a letter, digit, apostrophe, hyphen or sentinel on either side.
_EDGE_BEFORE = r"(?<![\w'’\-\ue000-\ue002])"
_EDGE_AFTER = r"(?![\w'’\-\ue000-\ue002])"
# Possessive quantifiers (``++``, ``(?>...)``) wherever a shorter word could only be followed by
# a letter, which the edge after it refuses anyway: the same matches without backtracking
# through every shorter prefix of every word.
WORD_RE: Final = re.compile(_EDGE_BEFORE + _L + "++" + _EDGE_AFTER)
_GLUE = r"[\w'’\-\ue000-\ue002]"
# Every run of characters that glue to a word, in order: each whole word is one of them (the
# others hold a digit, "_", a joiner or a sentinel).
_GLUE_RUN = re.compile(f"{_GLUE}+")
_HSPACE = "[ \t\u00a0\u202f]"


def _split(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Abbreviations after which a period does not end a sentence (lower case, without the period).
_OWN_ABBREVIATIONS: Final[dict[str, frozenset[str]]] = {
    "en": _split("etc vs approx ca cf mr mrs ms dr prof st no nos fig vol pp al inc ltd jr sr"
                 " ex eg ie viz resp incl"),
    "de": _split("bzw usw vgl ca evtl ggf inkl nr bzw sog str dr prof etc zb dh uvm"),
    "es": _split("etc sr sra srta dr dra ud uds pág núm aprox ej"),
    "fr": _split("etc m mme mlle dr p env cf av apr ex"),
    "it": _split("ecc sig sigra dott prof pag ca es"),
    "pt": _split("etc sr sra dr dra pág nº aprox ex"),
}
# Abbreviations every language's texts use (Latin and English ones in technical prose).
_COMMON_ABBREVIATIONS: Final = _split("vs etc ca cf inc ltd co corp")
_ABBREVIATIONS: Final = {
    lang: words | _COMMON_ABBREVIATIONS for lang, words in _OWN_ABBREVIATIONS.items()
}
# Words that may correctly appear twice in a row. English pronouns that are both object and
# subject (or possessive) end one clause and start the next ("when we sold it it made",
# "I told you you were", "gave her her book").
_DOUBLE_OK: Final[dict[str, frozenset[str]]] = {
    "en": frozenset(
        {
            # clause ends and starts: "had had", "that that", "what I do do", "gave her her
            # book" (and, in their context only, "is", "it", "you", "in": _en_double_in_context)
            "had", "that", "do", "her",
            # intensifiers: "very very", "really really", "far far away", "my dear dear Handel"
            "very", "really", "so", "much", "many", "far", "long", "way", "too",
            "little", "big", "deep", "down", "up", "dear",
            # interjections and calls: "Ha ha", "bye bye", "tut tut" (and, at a clause's
            # start only, "Well well", "No no", "Now now", "Help help": _EN_CALLS)
            "ha", "ho", "he", "hee", "hey", "hi", "oh", "ooh", "ah", "aha",
            "yeah", "bye", "tut", "tsk", "knock", "bang",
            "boom", "chop", "blah", "la", "na", "yada", "wow", "hip", "hush", "shh", "bla",
            "tick", "tock", "ding", "dong", "choo", "puff", "ma", "pa",
        }
    ),
    "de": frozenset({"die", "der", "das", "den", "dem", "des", "sie", "ha", "so"}),
    "es": frozenset({"que", "ja", "no", "sí", "muy", "así"}),  # "así así": so-so
    "fr": frozenset({"nous", "vous", "que", "ha", "non", "très"}),
    "it": frozenset({"che", "ha", "no", "molto", "così"}),  # "così così": so-so
    "pt": frozenset({"que", "ha", "não", "muito", "se"}),  # "Se se tornar": if it becomes
}

#: A run of this many spaces between words aligns them in columns (kept by tidy_spaces).
ALIGNING_SPACES: Final = 3
_ALIGNING_RUN = re.compile(r"(?<=\S)(?: *\t[ \t]*| {3,})(?=\S)")
_MULTI_SPACE = re.compile(r"(?<=\S)[ \t\u00a0\u202f]{2,}(?=\S)")
_REPEATED_PUNCT = re.compile(r"\.{4,}|(?<!\.)\.\.(?!\.)|!{2,}|\?{2,}|,{2,}|;{2,}|:{2,}")
_DOUBLE_MARKS: Final = ("..", "!!", "??", ",,", ";;", "::")
_SPACE_BEFORE = re.compile(
    rf"(?<=[\w\ue002]){_HSPACE}+(?:([,.;:!?])(?=[\s\ue000]|$)|([,;])(?={_L})"
    rf"|([.!?])(?=[A-ZÀ-ÖØ-Þ]))"
)
_SPACE_BEFORE_FR = re.compile(rf"(?<=[\w\ue002]){_HSPACE}+(?:([,.])(?=[\s\ue000]|$)|(,)(?={_L}))")
_NO_SPACE_BEFORE_FR = re.compile(r"([;:!?])(?<=[\w\ue002][;:!?])(?=\s|$)")
# What the patterns above need somewhere in the text (a cheap search before the full pass).
# What spacing() looks for first: two spaces or a space before a mark; a mark glued to a letter.
# (a sentence may start with a protected token: an all-caps word, code, a quote)
_SENTENCE_GAP = re.compile(r"[.!?]( +)(?=[A-ZÀ-ÖØ-Þ\ue000-\ue002])")
_TWO_SPACES = re.compile(_HSPACE + "{2}")
_SPACE_THEN_MARK = re.compile(rf"{_HSPACE}[,.;:!?]")
# The next word needs 2+ letters: "Ph.D." and "U.S.A." are abbreviations, not two sentences.
# The mark comes first in the pattern (and the letters before it are checked behind it), so
# the scan jumps from mark to mark.
_MISSING_SPACE_SENTENCE = re.compile(
    rf"([.!?])(?<={_L}{_L}[.!?])(?=[A-ZÀ-ÖØ-Þ]{_L}+{_EDGE_AFTER})"
)
_MISSING_SPACE_COMMA = re.compile(rf"([,;])(?<={_L}{_L}[,;])(?={_L}{_L})")
_DOUBLED = re.compile(
    _EDGE_BEFORE + rf"((?>{_L}+(?:['’-]{_L}+)*))((?: \1{_EDGE_AFTER})+)", re.IGNORECASE
)
# A lower-case word that may start a sentence: at the text's start, or after . ! ? and
# whitespace.
# An area label at a text's start (commit messages, changelogs): "docs: fix", "build(deps): bump".
_AREA_LABEL = re.compile(r"[a-z][a-z0-9_/.-]{0,30}(?:\([^()\s]{1,40}\))?!?: [a-z]")
_TEXT_START = re.compile(rf"{_HSPACE}*(?=[a-zà-öø-ÿ])({_L}++){_EDGE_AFTER}")
_AFTER_MARK = re.compile(rf"[.!?][\s]+(?=[a-zà-öø-ÿ])({_L}++){_EDGE_AFTER}")
# (not a roman numeral: "i, ii, iii", "(i)"; not a variable before = < >: "where i = -coyf")
_LOWER_I = re.compile(
    _EDGE_BEFORE + r"i(?=(?:['’](?:m|ve|d|ll))?" + _EDGE_AFTER + r")(?!\)|,\s*ii\b|[ \t]*[=<>])"
)
_A_AN = re.compile(rf"{_EDGE_BEFORE}(a|an|A|An)( )({_L}++){_EDGE_AFTER}")

# English: vowel letters that sound like consonants, and silent h.
_CONSONANT_SOUND = re.compile(
    r"^(?:uni(?!n|mp|nt|nf|ndo)|unan|use|usa|usu|uti|uten|utop|uri|ura|ure|ubiq|uku|eu|ewe"
    r"|one\b|once\b|ouija)"
)
# Words that cannot follow the article: "a" before them is a letter or a label ("plan a or b").
_NOT_AFTER_ARTICLE: Final = frozenset(
    {
        "and", "or", "nor", "but", "is", "are", "was", "were", "of", "to", "in", "on", "at",
        "as", "if", "it", "its", "the", "an", "a", "for", "by", "with", "so", "be", "into",
        "onto", "upon", "also", "only", "else", "etc", "until", "under", "over", "another",
    }
)  # fmt: skip
_VOWEL_SOUND_H = re.compile(r"^(?:hour|honest|honor|honour|heir)")
# Words after which "an" is an article, never "and" left short: prepositions, forms of be,
# have and do, conjunctions and words that take an article ("is an big", "of an house").
# After any other word "an" before a consonant may stand for "and" ("big an strong",
# "healthy an faint"): it is left alone there.
_BEFORE_ARTICLE: Final = frozenset(
    {
        "of", "in", "on", "at", "to", "for", "with", "from", "by", "into", "onto", "upon",
        "about", "like", "as", "than", "without", "within", "through", "under", "over",
        "after", "before", "behind", "between", "near", "around", "against", "across",
        "is", "was", "are", "were", "be", "been", "being", "am", "isn't", "wasn't",
        "has", "have", "had", "having", "do", "does", "did",
        "and", "or", "but", "nor", "that", "if", "because", "while", "when", "where",
        "what", "such", "quite", "rather", "half", "many",
    }
)  # fmt: skip
_ARTICLE_OPENERS: Final = ".!?:;([\"“‘"
_WORD_BEFORE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?$")


def spacing(s: str, lang: str) -> str:
    """:func:`tidy_spaces`, :func:`repeated_punctuation`, :func:`punctuation_spacing` and
    :func:`missing_space` in turn."""
    s = tidy_spaces(s)
    s = repeated_punctuation(s)
    s = punctuation_spacing(s, lang)
    return missing_space(s, lang)


def two_spaced_sentences(s: str) -> bool:
    """Whether ``s`` puts two spaces after every sentence end followed by a capital or a
    protected token (and has one): a house style, kept by :func:`tidy_spaces`."""
    gaps = _SENTENCE_GAP.findall(s)
    return bool(gaps) and all(gap == "  " for gap in gaps)


def tidy_spaces(s: str) -> str:
    """Collapse runs of spaces between words to one (keeping a no-break space if present),
    except two spaces after a sentence end in a text that always puts two there, and, in a
    text that holds two or more, the runs of ``ALIGNING_SPACES``+ spaces or with a tab: words
    aligned in columns (the rows of a table in a plain-text note, whose lines reach the engine
    joined by spaces: ``where i = -coyf     PFX where j = xoc (…)       SFX``). One such run
    in a sentence is a slip."""
    two_spaced = two_spaced_sentences(s)
    columns = _aligned(s)

    def repl(m: re.Match[str]) -> str:
        run = m.group(0)
        if columns and ("\t" in run or run.count(" ") >= ALIGNING_SPACES):
            return run
        for keep in ("\u202f", "\u00a0"):
            if keep in run:
                return keep
        if two_spaced and run == "  " and s[m.start() - 1] in ".!?":
            return run
        return " "

    if _TWO_SPACES.search(s) is None:
        return s
    return _MULTI_SPACE.sub(repl, s)


def _aligned(s: str) -> bool:
    """Whether ``s`` holds two runs or more of ``ALIGNING_SPACES``+ spaces or with a tab
    between words (cheap tests first)."""
    if "   " not in s and "\t" not in s:
        return False
    runs = _ALIGNING_RUN.finditer(s)
    return next(runs, None) is not None and next(runs, None) is not None


def repeated_punctuation(s: str) -> str:
    """``,,`` -> ``,``, ``!!!`` -> ``!``, ``..`` -> ``.``, ``.....`` -> ``...``."""
    if not any(double in s for double in _DOUBLE_MARKS):
        return s  # every alternative of the pattern needs one of these

    def repl(m: re.Match[str]) -> str:
        run = m.group(0)
        if run[0] == ".":
            return "..." if len(run) >= 4 else "."
        return run[0]

    return _REPEATED_PUNCT.sub(repl, s)


def punctuation_spacing(s: str, lang: str) -> str:
    """Remove spaces before ``, . ; : ! ?`` (French: ensure one before ``; : ! ?``)."""
    spaced = _SPACE_THEN_MARK.search(s) is not None
    if lang == "fr":
        if spaced:
            s = _SPACE_BEFORE_FR.sub(lambda m: m.group(m.lastindex or 0), s)
        return _french_space_before(s)
    if not spaced:
        return s
    return _SPACE_BEFORE.sub(lambda m: m.group(m.lastindex or 0), s)


# A mark spaced after a word (not after another mark: "rendu! !" is no house style).
_FRENCH_SPACED = re.compile(r"(?<=[\w\ue002])[ \u00a0\u202f][;:!?](?=\s|$)")


def _french_space_before(s: str) -> str:
    """A space before ``; : ! ?`` that has one after it (or ends the text), as the text's
    other French spaces are (narrow no-break, no-break, or plain); only in a text that
    already spaces such a mark somewhere (its house style: many published French texts,
    technical ones above all, never do)."""
    if _FRENCH_SPACED.search(s) is None:
        return s
    space = "\u202f" if "\u202f" in s else ("\u00a0" if "\u00a0" in s else " ")
    return _NO_SPACE_BEFORE_FR.sub(space + r"\1", s)


def missing_space(s: str, lang: str) -> str:
    """Insert the space missing after sentence punctuation, commas and semicolons (French:
    and the space before ``; ! ?`` then missing too)."""
    before = s
    abbreviations = _ABBREVIATIONS.get(lang, frozenset())

    def sentence(m: re.Match[str]) -> str:
        word = _word_before(s, m.start())
        if word.lower() in abbreviations:
            return m.group(0)
        return m.group(1) + " "

    s = _MISSING_SPACE_SENTENCE.sub(sentence, s)
    s = _MISSING_SPACE_COMMA.sub(r"\1 ", s)
    return _french_space_before(s) if lang == "fr" and s != before else s


def glue_runs(s: str) -> list[str]:
    """The runs of characters that glue to a word, in order (see :func:`doubled_words` and
    :func:`distinct_words`)."""
    return _GLUE_RUN.findall(s)


# Outside English only the most common words (dans, ich, que: Zipf 6+) are dropped when
# doubled: a repeated content word is mostly deliberate there.
DOUBLED_MIN_ZIPF: Final = 6.0
# In English any doubled word is dropped but those of _DOUBLE_OK (clause boundaries,
# intensifiers, interjections), those _en_double_in_context keeps, three or more copies and
# names: 93 % of words doubled at random in clean prose are removed, and 2 of the 117 doubles
# of 7.4 MB of real prose (manuals and novels) that were meant are lost (issue 24's measure;
# bench/bench_doubles.py). Italian and Spanish reduplicate words as intensifiers ("piano
# piano", "café café"): only the commonest words there.
DOUBLED_ANY_WORD: Final = frozenset({"en"})
# A capitalised word repeated as is is a name ("Tin Tin", "Bora Bora", "Baden Baden") unless
# it is a common word ("After After", "The The"), an English inflection of one ("Fires
# Fires") or a word the text also writes alone (_written_alone).
DOUBLED_NAME_MAX_ZIPF: Final = 5.0
# A doubled word the language hardly writes is a name or a foreign word (lorem ipsum's
# "tincidunt tincidunt", "gravida gravida"), left as written when it is capitalised or
# shorter than DOUBLED_RARE_MIN_LETTERS ("tsk tsk", "mahi mahi"): a longer one in lower case
# is a technical word written twice ("stateful stateful", "linter linter"), and lorem ipsum
# is known by its neighbours: such a word goes only among words of which this share are
# common (Zipf 3+; "Quisque a dolor sit amet dui malesuada malesuada id ac metus": 5 of 12).
DOUBLED_MIN_KNOWN_ZIPF: Final = 2.0
DOUBLED_RARE_MIN_LETTERS: Final = 5
DOUBLED_RARE_COMMON_SHARE: Final = 0.75
# A rare word in -y or -ie doubled is a nursery or game word ("housey housey", "chitty
# chitty"), left as written.
_PET_ENDINGS: Final = ("y", "ie")
# A word glued to one of these is the end of a name or code ("rst:directive directive").
_IDENTIFIER_GLUE: Final = frozenset(":./#@=")

# English words whose double is deliberate in one context only (_en_double_in_context).
# Subordinators: the clause one opens may end on an object that the next clause's subject
# repeats ("when we sold it it made").
_EN_SUBORDINATORS: Final = frozenset(
    {
        "when", "whenever", "if", "once", "after", "before", "until", "till", "since",
        "because", "as", "while", "though", "although", "unless", "whereas", "wherever",
        "where",
    }
)  # fmt: skip
# Clause words: a subject pronoun right after one of these starts a clause ("if you you",
# "and it it", "lets you you"), so its double is a slip.
_EN_CLAUSE_WORDS: Final = _EN_SUBORDINATORS | frozenset(
    {
        "and", "or", "but", "nor", "so", "then", "that", "which", "who", "whom", "what",
        "how", "why", "now", "also", "yet", "thus", "hence", "otherwise", "than", "let",
        "lets", "means", "mean", "meant",
    }
)  # fmt: skip
# Verbs of telling: "I told you you were right" (the object, then the next clause's subject).
_EN_TELLING: Final = frozenset(
    {
        "tell", "tells", "told", "telling", "show", "shows", "showed", "shown", "promise",
        "promised", "promises", "warn", "warned", "warns", "remind", "reminded", "reminds",
        "assure", "assured", "assures", "bet", "ask", "asked", "asks", "teach", "taught",
        "convince", "convinced", "inform", "informed", "guarantee", "guaranteed", "swear",
        "swore",
    }
)  # fmt: skip
# Verbs that take "in" as a particle: "rushed in in such a multitude", "put in in the
# missionarying line", "log in in the browser".
_EN_IN_VERBS: Final = frozenset(
    {
        "come", "came", "comes", "coming", "rush", "rushed", "put", "puts", "putting", "take",
        "took", "taken", "slip", "slipped", "step", "stepped", "walk", "walked", "ran", "go",
        "went", "gone", "get", "got", "move", "moved", "break", "broke", "bring", "brought",
        "drop", "dropped", "fill", "filled", "give", "gave", "given", "hand", "handed", "jump",
        "jumped", "log", "logged", "pour", "poured", "plug", "plugged", "pull", "pulled",
        "push", "pushed", "send", "sent", "settle", "settled", "sign", "signed", "sink", "sank",
        "stay", "stayed", "tune", "tuned", "turn", "turned", "join", "joined", "kick", "kicked",
        "burst", "check", "checked", "fall", "fell", "fly", "flew", "hold", "held", "keep",
        "kept", "lock", "locked", "sneak", "sneaked", "snuck", "squeeze", "squeezed", "tuck",
        "tucked", "creep", "crept", "crowd", "crowded", "flood", "flooded", "let",
    }
)  # fmt: skip
# Calls and interjections doubled at a clause's start ("Well well, look", "No no, not that",
# "Now now", "There there") or after a verb of speaking ("shouted help help") only: "will
# now now skip", "no no guarantee" are slips.
_EN_CALLS: Final = frozenset({"no", "yes", "well", "now", "come", "help", "there"})
_EN_SPEAKING: Final = frozenset(
    {
        "say", "says", "said", "saying", "shout", "shouts", "shouted", "shouting", "cry",
        "cries", "cried", "crying", "yell", "yells", "yelled", "yelling", "scream", "screams",
        "screamed", "screaming", "call", "calls", "called", "calling", "answer", "answered",
        "reply", "replied", "whisper", "whispered", "go", "goes", "went",
    }
)  # fmt: skip
# The words _en_double_in_context decides on.
_EN_CONTEXT_DOUBLES: Final = _EN_CALLS | frozenset({"is", "it", "you", "in"})
# How many words before "in in" its verb may stand ("took the letters in in the morning").
_EN_PARTICLE_REACH: Final = 3
# What ends the clause before a double (its words are looked at back to one of these).
# (the greedy run finds the last such mark before the double in one pass)
_CLAUSE_END = re.compile(r"(?s).*[,;:.!?()\[\]{}—–\"“”«»\n\ue000-\ue002]")
_CLAUSE_WORD = re.compile(rf"{_L}+(?:['’]{_L}+)*")
_NEXT_IS_WORD = re.compile(rf" +{_L}")


def _en_double_in_context(s: str, start: int, end: int, word: str) -> bool:
    """Whether the English double ``word word`` at ``s[start:end]`` is deliberate by its
    context: a call (:data:`_EN_CALLS`) at its clause's start, after nothing but other
    calls ("Well well", "Oh no no"), or after a verb of speaking ("shouted help help"); "is
    is" after *what*, *whatever* or *all* in its clause ("what it is is", "all it really is
    is"); "it it", "you you" and "there there" where a clause ends on the object or adverb
    and the next starts with the subject: a subordinator earlier in the clause and a word
    that is not a clause word right before ("when we sold it it made", "when we got there
    there warn't"), or ("you") a verb of telling right before ("I told you you were"), with a
    word after; "in in" after a verb that takes the particle, up to two words between ("rushed
    in in such a multitude", "took the letters in in the morning")."""
    if word not in _EN_CONTEXT_DOUBLES:
        return False
    reach = max(0, start - 400)
    cut = _CLAUSE_END.match(s, reach, start)
    begin = reach if cut is None else cut.end()
    words = [w.lower() for w in _CLAUSE_WORD.findall(s, begin, start)]
    if word in _EN_CALLS and all(w in _DOUBLE_OK["en"] for w in words):
        return True  # "Well well", "Oh no no", "Help help!": a call opens its clause
    if word in _EN_CALLS and words[-1] in _EN_SPEAKING:
        return True  # "the boy was shout help help", "she said no no"
    if not words:
        return False
    if word == "is":
        return any(w in ("what", "whatever", "all") for w in words)
    if word == "in":
        return any(w in _EN_IN_VERBS for w in words[-_EN_PARTICLE_REACH:])
    if _NEXT_IS_WORD.match(s, end) is None:
        return False
    if word in _EN_CALLS and word != "there":
        return False
    if word == "you" and words[-1] in _EN_TELLING:
        return True
    return words[-1] not in _EN_CLAUSE_WORDS and any(w in _EN_SUBORDINATORS for w in words[:-1])


# English inflections (suffix, what replaces it in the stem): an inflected form of a common
# word is no name, even capitalised ("Fires Fires when", "Alternatively Alternatively").
_EN_INFLECTIONS: Final = (
    ("ies", "y"), ("es", ""), ("s", ""), ("ically", "ic"), ("ily", "y"), ("ly", ""),
    ("ing", ""), ("ing", "e"), ("ied", "y"), ("ed", ""), ("ed", "e"),
)  # fmt: skip
# How common the stem must be (Zipf), and how long (so that "sing" is no "s" + "ing").
_EN_STEM_MIN_ZIPF: Final = 3.0
_EN_STEM_MIN_LETTERS: Final = 3


def _en_inflected(word: str) -> bool:
    """Whether the lower-case ``word`` is a regular inflection of a common English word
    (``fires``, ``specifies``, ``dynamically``, ``keeping``; not ``sing``, ``paris``,
    ``wales``, ``ss``/``us``/``is`` endings)."""
    from .lexicon import zipf

    if word.endswith(("ss", "us", "is")):
        return False
    for suffix, replacement in _EN_INFLECTIONS:
        if word.endswith(suffix):
            stem = word[: -len(suffix)] + replacement
            if len(stem) >= _EN_STEM_MIN_LETTERS and zipf("en", stem) >= _EN_STEM_MIN_ZIPF:
                return True
    return False


def doubled_words(s: str, lang: str) -> str:
    """Drop a word repeated right after itself ("the the" -> "the"), with exceptions."""
    allowed = _DOUBLE_OK.get(lang, frozenset())
    alone: dict[str, bool] = {}  # _written_alone per word: one scan of the text each
    known: dict[str, bool] = {}  # _among_foreign_words' answer per word

    from .lexicon import zipf

    def repl(m: re.Match[str]) -> str:
        first = m.group(1)
        if first.lower() in allowed:
            return m.group(0)
        repeats = m.group(2).split(" ")[1:]
        if len(repeats) > 1:
            return m.group(0)  # "toys toys toys", "no no no": three times is on purpose
        if lang == "en" and _en_double_in_context(s, m.start(), m.end(), first.lower()):
            return m.group(0)  # "what it is is", "when we sold it it made", "told you you"
        if m.start() and s[m.start() - 1] in _IDENTIFIER_GLUE:
            return m.group(0)  # "rst:directive directive": the first copy ends a name
        z = zipf(lang, first.lower())
        if lang not in DOUBLED_ANY_WORD and z < DOUBLED_MIN_ZIPF:
            return m.group(0)  # "deep deep sea": reduplication is common outside English
        if z < DOUBLED_MIN_KNOWN_ZIPF and (
            len(first) < DOUBLED_RARE_MIN_LETTERS
            or first != first.lower()
            or first.endswith(_PET_ENDINGS)
            or _common_share(s, m.start(), m.end(), lang) < DOUBLED_RARE_COMMON_SHARE
        ):
            return m.group(0)  # a word English hardly writes: a name, "tsk tsk", "mahi mahi"
        if any(r != first and r != r.lower() for r in repeats):
            return m.group(0)  # "word Word": a name or a deliberate capital, leave it
        if (
            len(first) > 1
            and first[1:] == first[1:].lower()
            and first != first.lower()
            and all(r == first for r in repeats)
            and zipf(lang, first.lower()) < DOUBLED_NAME_MAX_ZIPF
            and not (lang == "en" and _en_inflected(first.lower()))
            and not _cached(alone, first, lambda: _written_alone(s, first))
        ):
            return m.group(0)  # "Tin Tin", "Bora Bora": a name ("After After" is a slip)
        if _among_foreign_words(s, m.start(), m.end(), lang, known):
            return m.group(0)  # lorem ipsum's "porta in in massa": another language's text
        return first

    return _DOUBLED.sub(repl, s)


# A doubled word among FOREIGN_MIN_WORDS+ words (FOREIGN_WINDOW each side) of which fewer than
# FOREIGN_KNOWN_SHARE are known to the language's list stands in another language's text.
FOREIGN_WINDOW: Final = 6
FOREIGN_MIN_WORDS: Final = 4
FOREIGN_KNOWN_SHARE: Final = 0.5
# A word wordfreq has this often is known too (technical prose: "npm", "eslint", "webpack").
FOREIGN_COMMON_ZIPF: Final = 3.0
_PLAIN_LETTERS = re.compile(r"[^\W\d_]+")


def _among_foreign_words(
    s: str, start: int, end: int, lang: str, memo: dict[str, bool] | None = None
) -> bool:
    """Whether ``s[start:end]`` stands among words mostly unknown to ``lang``'s list (the
    spelling rules' guard for lorem ipsum and quoted foreign text, applied to doubles);
    ``memo`` keeps each word's answer for the next call on the same text."""
    from .spelling import speller

    reach = 40 * FOREIGN_WINDOW
    before = _PLAIN_LETTERS.findall(s[max(0, start - reach) : start])[-FOREIGN_WINDOW:]
    after = _PLAIN_LETTERS.findall(s[end : end + reach])[:FOREIGN_WINDOW]
    around = [w.lower() for w in before + after]
    if len(around) < FOREIGN_MIN_WORDS:
        return False
    from .lexicon import zipf

    checker = speller(lang)
    memo = {} if memo is None else memo
    known = 0
    for w in around:
        if w not in memo:
            memo[w] = checker.known(w) or zipf(lang, w) >= FOREIGN_COMMON_ZIPF
        known += memo[w]
    return known < FOREIGN_KNOWN_SHARE * len(around)


def _cached(cache: dict[str, bool], key: str, compute: Callable[[], bool]) -> bool:
    """``cache[key]``, computed once."""
    if key not in cache:
        cache[key] = compute()
    return cache[key]


def _written_alone(s: str, word: str) -> bool:
    """Whether ``s`` also writes ``word`` once not beside a copy of itself: then ``word
    word`` is no name of two like words ("React React will render" in a text that says
    "React" elsewhere; "Bora Bora" is never written alone)."""
    if s.count(word) <= 2:
        return False
    alone = re.compile(
        rf"{_EDGE_BEFORE}(?<!{re.escape(word)} ){re.escape(word)}{_EDGE_AFTER}(?! {re.escape(word)}"
        rf"{_EDGE_AFTER})"
    )
    return alone.search(s) is not None


def _common_share(s: str, start: int, end: int, lang: str) -> float:
    """The share of the words around ``s[start:end]`` (FOREIGN_WINDOW each side) that
    ``lang`` writes often (Zipf FOREIGN_COMMON_ZIPF+); 1.0 with no words around."""
    from .lexicon import zipf

    reach = 40 * FOREIGN_WINDOW
    before = _PLAIN_LETTERS.findall(s[max(0, start - reach) : start])[-FOREIGN_WINDOW:]
    after = _PLAIN_LETTERS.findall(s[end : end + reach])[:FOREIGN_WINDOW]
    around = [w.lower() for w in before + after]
    if not around:
        return 1.0
    return sum(1 for w in around if zipf(lang, w) >= FOREIGN_COMMON_ZIPF) / len(around)


def _word_before(s: str, end: int) -> str:
    """The run of letters ending at ``end``."""
    start = end
    while start > 0 and (s[start - 1].isalpha()):
        start -= 1
    return s[start:end]


def is_sentence_start(s: str, start: int, lang: str) -> bool:
    """Whether the word at ``start`` begins a sentence (text start, or after . ! ? and space)."""
    i = start
    while i > 0 and s[i - 1] in " \t\n\r\u00a0\u202f":
        i -= 1
    if i == 0:
        return True
    if i == start or s[i - 1] not in ".!?":
        return False
    j = i - 1
    while j > 0 and s[j - 1] in ".!?":
        j -= 1
    if j == 0 or s[j:i] in ("..", "..."):
        return False  # an ellipsis does not end the sentence for sure
    before = s[j - 1]
    if before in (PLACEHOLDER_MARK, QUOTE_MARK, ")"):
        return True
    if not before.isalpha():
        return False
    word = _word_before(s, j)
    if len(word) < 2 or word.lower() in _ABBREVIATIONS.get(lang, frozenset()):
        return False
    # "z.B." style: a letter run directly after another period is an abbreviation part.
    k = j - len(word)
    return not (k > 0 and s[k - 1] == ".")


def sentence_capitals(
    s: str,
    lang: str,
    first_word: Callable[[str, int], bool] | None = None,
    common: Callable[[str], bool] | None = None,
) -> str:
    """Capitalise the first word of each sentence (only all-lower-case words). ``first_word``:
    whether to capitalise the text's first word, given it and the index after it (default:
    always); ``common``: whether a word may be capitalised at all (default: every word; a
    command such as "esbuild" or a name keeps its lower case at a sentence start)."""

    def repl(m: re.Match[str]) -> str:
        start = m.start(1)
        word = m.group(1)
        if not is_sentence_start(s, start, lang) or (common is not None and not common(word)):
            return m.group(0)
        return m.group(0)[: start - m.start()] + word[0].upper() + word[1:]

    out = _AFTER_MARK.sub(repl, s)  # the same length: the first letters upper-case to one
    first = _TEXT_START.match(s)
    if first is None or (first_word is not None and not first_word(first.group(1), first.end())):
        return out
    if _AREA_LABEL.match(s, first.start(1)) is not None:
        return out  # "docs: fix a link": a commit message's area label keeps its case
    return repl(first) + out[first.end() :]


def english_i(s: str) -> str:
    """Capitalise the English pronoun "i" (also in i'm, i've, i'd, i'll)."""
    return _LOWER_I.sub("I", s)


def _wants_an(word: str, spoken: Callable[[str], bool] | None = None) -> bool | None:
    """Whether ``word`` takes "an" (by sound); ``None`` when unsure. ``spoken``: whether a
    lower-case word is one people say (then it is read as a word: "old", "end", "arm")."""
    lower = word.lower()
    if len(lower) < 2 and lower not in ("a", "e", "i", "o", "u"):
        return None
    if (
        len(lower) <= 5
        and not any(c in "aeiouy" for c in lower[1:])
        and (spoken is None or not spoken(lower))
    ):
        return None  # read letter by letter ("url", "html", "sql"): the sound is unsure
    if _VOWEL_SOUND_H.match(lower):
        return True
    if _CONSONANT_SOUND.match(lower):
        return False
    return lower[0] in "aeiou"


def _article_position(s: str, start: int) -> bool:
    """Whether a word at ``start`` of ``s`` stands where an article does and "and" does not:
    at the start of a text or sentence, after an opening bracket or quote, or after a word of
    ``_BEFORE_ARTICLE``."""
    window = s[max(0, start - 40) : start]
    before = window.rstrip()
    if not before:
        return start == len(window)  # the text's start
    if before[-1] in _ARTICLE_OPENERS:
        return True
    m = _WORD_BEFORE.search(before)
    return m is not None and m.group(0).lower().replace("’", "'") in _BEFORE_ARTICLE


def english_articles(
    s: str,
    common: Callable[[str], bool] | None = None,
    spoken: Callable[[str], bool] | None = None,
) -> str:
    """ "a" before a vowel sound -> "an", and "an" before a consonant sound -> "a" where an
    article stands (:func:`_article_position`; elsewhere "an" may be "and" left short).
    ``common``: whether a lower-case word is a common word; when given, the article before
    any other word (an acronym read letter by letter, "an swc plugin") is left alone.
    ``spoken``: whether a word is one people say; a short word with no vowel after its first
    letter is read letter by letter ("url", "html") unless it is ("old", "end")."""

    def repl(m: re.Match[str]) -> str:
        article, space, word = m.group(1), m.group(2), m.group(3)
        if len(word) == 1 or word.lower() in _NOT_AFTER_ARTICLE:
            return m.group(0)  # "a b c", "plan a or b": a letter, not the article
        if common is not None and not common(word.lower()):
            return m.group(0)
        wants = _wants_an(word, spoken)
        if wants is None:
            return m.group(0)
        if not wants and not _article_position(s, m.start(1)):
            return m.group(0)  # "big an strong": "an" may stand for "and"
        capital = article[0] == "A"
        new = ("An" if capital else "an") if wants else ("A" if capital else "a")
        return new + space + word

    return _A_AN.sub(repl, s)


def words(
    s: str, fn: Callable[[str, int], str | None], only: Iterable[str] | None = None
) -> str:
    """Replace each plain word by ``fn(word, start)`` unless it returns ``None``. With
    ``only``, ``fn`` is called for those words alone (it must return ``None`` for others)."""

    def repl(m: re.Match[str]) -> str:
        new = fn(m.group(0), m.start())
        return m.group(0) if new is None else new

    if only is None:
        return WORD_RE.sub(repl, s)
    chosen = sorted(only)
    if not chosen:
        return s
    pattern = _EDGE_BEFORE + "(?:" + "|".join(map(re.escape, chosen)) + ")" + _EDGE_AFTER
    return re.compile(pattern).sub(repl, s)


def distinct_words(s: str, runs: list[str] | None = None) -> set[str]:
    """The distinct plain words of ``s`` (those :func:`words` visits), and the other runs of
    characters that glue to a word (such as ``l'homme``, ``x2``, a sentinel): each whole
    word is such a run. ``runs``: ``glue_runs(s)`` when the caller has it."""
    return set(glue_runs(s) if runs is None else runs)
