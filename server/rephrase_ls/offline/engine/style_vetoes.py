"""Where a style or tone rule of :mod:`.styles` must leave a match alone.

A phrase rule only sees its phrase; these tests look at the words around it so that a
rewrite never makes the sentence ungrammatical or changes what it claims. Each one is named
after the rule it guards and says, with a sentence from published text, what it prevents.
Every test has the signature of :data:`.styles.Veto`: ``(text, start, end, lang) -> bool``
(``True``: leave the match as written).
"""

from __future__ import annotations

import re
from typing import Final

from .rules import is_sentence_start

# A clause ends at a sentence or clause mark, or at a dash between spaces.
_CLAUSE_MARK: Final = re.compile(r"[.!?;:,()\u2014\u2013]|\s-\s")
_EN_NEGATION: Final = re.compile(
    r"(?i)(?<![\w'’])(?:not|never|no|nor|neither|hardly|barely|scarcely|rarely|seldom|nothing"
    r"|none|nobody|without|cannot)(?![\w'’])|n['’]t(?![\w'’])"
)
_DE_NEGATION: Final = re.compile(
    r"(?i)(?<!\w)(?:nicht|nie|niemals|kaum|nichts|niemand|weder|ohne|kein\w*)(?!\w)"
)
_WORD_BEFORE: Final = re.compile(r"([^\W\d_]+(?:['’][^\W\d_]+)?)[ \t]+$")


# How far the context tests look back or ahead: a clause is rarely longer, and the bound keeps
# a hostile text (100 KB of "very very …") linear.
_REACH: Final = 400


def clause_before(s: str, start: int) -> str:
    """The text of the clause before ``start`` (from its last clause mark)."""
    head = s[max(0, start - _REACH) : start]
    marks = [m.end() for m in _CLAUSE_MARK.finditer(head)]
    return head[marks[-1] :] if marks else head


def word_before(s: str, start: int) -> str:
    """The word right before ``start`` (lower case; "" after punctuation)."""
    m = _WORD_BEFORE.search(s[max(0, start - 40) : start])
    return m.group(1).lower().replace("’", "'") if m else ""


def words_after(s: str, end: int, n: int = 1) -> list[str]:
    """Up to ``n`` lower-case words right after ``end`` (stopping at punctuation)."""
    m = re.match(r"(?:[ \t]+[^\W\d_]+(?:['’][^\W\d_]+)?)+", s[end : end + 120])
    return m.group(0).lower().split()[:n] if m else []


def negated(s: str, start: int, lang: str) -> bool:
    """Whether a negation comes earlier in the clause ("not very fast", "nicht wirklich")."""
    pattern = _DE_NEGATION if lang == "de" else _EN_NEGATION
    return pattern.search(clause_before(s, start)) is not None


def in_question(s: str, end: int) -> bool:
    """Whether the sentence around ``end`` ends with a question mark."""
    m = re.search(r"[.!?](?=\s|$|[\"”’)\ue002])", s[end : end + _REACH])
    return m is not None and m.group(0) == "?"


def at_clause_start(s: str, start: int, lang: str, also: tuple[str, ...] = ()) -> bool:
    """Whether ``start`` begins a sentence, follows a comma or semicolon, or one of ``also``."""
    if is_sentence_start(s, start, lang):
        return True
    head = s[max(0, start - 40) : start].rstrip(" \t")
    return head.endswith((",", ";", "\u2014", "\ue002", "“", '"')) or word_before(s, start) in also


# --- English ------------------------------------------------------------------------------------

# "very" after a determiner is the adjective ("the very idea", "this very website").
_EN_DETERMINER: Final = frozenset(
    {"the", "this", "that", "these", "those", "his", "her", "its", "their", "our", "your", "my"}
)


def en_filler(s: str, start: int, end: int, lang: str) -> bool:
    """business/academic filler removal.

    Kept: after a negation ("not very fast" claims more than "not fast"; "don't really like"),
    in a question ("Do you really want to delete it?" asks something else without it),
    "literally" before punctuation (the manner: "print literally, so"),
    "very" as an adjective after a determiner ("The very idea is wrong."), and "basically"
    not followed by a comma ("is basically done" hedges; "Basically, we won." is a filler).
    """
    word = s[start:end].lower()
    if negated(s, start, lang) or in_question(s, end):
        return True
    if word == "very" and word_before(s, start) in _EN_DETERMINER:
        return True
    if word == "literally" and s[end : end + 1] in (",", ".", ";"):
        return True  # the manner: "an expression to print literally, so we use …"
    return word == "basically" and not s.startswith(",", end)


_EN_PARTICIPLE = (
    r"(?:(?!(?:when|then|often|even|seven|eleven|ten)\b)[^\W\d_]{2,}(?:ed|en)|done|made|got|had|put|set|let|told|sold|left|lost|found|kept|brought"
    r"|bought|thought|taught|caught|held|meant|paid|said|sent|spent|built|won|run|come|become"
    r"|begun)"
)
_EN_OBJECT = (
    r"(?:you|me|him|her|us|them|it|a|an|the|my|your|his|its|our|their|this|that|these|those"
    r"|wrong|right|up|out|off)"
)
_EN_HAS_PERFECT: Final = re.compile(rf"(?i) {_EN_PARTICIPLE} {_EN_OBJECT}(?![\w'’])")


def en_s_is_has(s: str, start: int, end: int, lang: str) -> bool:
    """Expanding "'s" to "is": kept when "'s" is "has" before a participle and its object
    ("it's made you feel", "he's done wrong": not "it is made you", "he is done wrong")."""
    return s[end - 2 : end] in ("'s", "’s") and _EN_HAS_PERFECT.match(s, end) is not None


_EN_LOOK_NOUN: Final = frozenset(
    {
        "a", "an", "the", "another", "closer", "close", "quick", "brief", "good", "first",
        "deeper", "deep", "detailed", "final", "last", "longer", "careful", "further", "second",
        "one", "this", "that", "each", "every", "new", "fresh", "hard", "long", "little",
    }
)  # fmt: skip
_EN_VERB_LINK: Final = frozenset({"and", "or", "but", "then", "to", "can", "will", "ll", "s"})
_EN_BIG_IDIOM_NEXT: Final = frozenset(
    {
        "deal", "picture", "data", "o", "shot", "shots", "name", "names", "brother", "bang",
        "time", "tech", "fan", "fans", "day", "league", "leagues", "screen", "toe", "cheese",
        "wig", "wigs", "top", "mouth", "heart", "hit", "hits", "four", "five", "endian",
        "with", "on",
    }
)  # fmt: skip
_EN_BIG_IDIOM_BEFORE: Final = frozenset(
    {"think", "thinks", "thinking", "dream", "dreaming", "go", "going", "went", "talk", "win"}
)


def en_academic(s: str, start: int, end: int, lang: str) -> bool:
    """academic word swaps.

    The noun "look" stays: after a determiner or adjective, or with an article among the four
    words before it in its clause ("take a look at" is not "take an examine", nor "a more
    in-depth look at");
    "big" stays in idioms ("no big deal", "the big picture", "big data", "Big O", "think
    big", "big with possibilities").
    """
    word = s[start:end].lower()
    if word.startswith("look"):
        if word_before(s, start) in _EN_LOOK_NOUN:
            return True
        if not word.startswith("look "):
            return False  # "looks", "looked", "looking" are verbs
        near = re.findall(r"[^\W\d_]+", clause_before(s, start).lower())[-4:]
        articles = [i for i, w in enumerate(near) if w in ("a", "an", "the", "another")]
        # "a more in-depth look at", not "go into the yard and look at"
        return bool(articles) and not _EN_VERB_LINK & set(near[articles[-1] :])
    if word.startswith("big"):
        after = words_after(s, end)
        return word_before(s, start) in _EN_BIG_IDIOM_BEFORE or (
            bool(after) and after[0] in _EN_BIG_IDIOM_NEXT
        )
    return False


def en_opener(s: str, start: int, end: int, lang: str) -> bool:
    """academic sentence openers: "So, why …?" is no conclusion ("Therefore, why …?"), and
    "But for X" means "except for X" ("But for them, we might have …")."""
    opener = s[start:end]
    if opener == "So,":
        return in_question(s, end)
    return opener == "But" and words_after(s, end)[:1] == ["for"]


_EN_BE: Final = frozenset(
    {"is", "are", "was", "were", "be", "been", "being", "it's", "that's", "what's", "there's",
     "he's", "she's", "they're", "we're", "you're", "i'm"}
)  # fmt: skip


def en_thanks(s: str, start: int, end: int, lang: str) -> bool:
    """business "thanks" -> "thank you": only the greeting at a sentence or clause start, not
    "Thanks to the cache" (because of) nor "many thanks" or "with thanks" (a noun)."""
    after = words_after(s, end)
    return not at_clause_start(s, start, lang) or after[:1] == ["to"]


def en_sentence_start_only(s: str, start: int, end: int, lang: str) -> bool:
    """Greetings ("hey", "hello"): only where they open a sentence or follow a comma; not
    "a hello world app"."""
    return not at_clause_start(s, start, lang) or words_after(s, end)[:1] == ["world"]


def en_casual(s: str, start: int, end: int, lang: str) -> bool:
    """casual swaps.

    "thank you for" -> "thanks for" only as the greeting ("We want to thank you for joining"
    is a verb); "therefore" -> "so" only at a sentence start or after "and", "but", "or", ";" ("is
    therefore `0`" is not "is so `0`"); "hello" only as a greeting.
    """
    word = s[start:end].lower()
    if word == "hello":
        return en_sentence_start_only(s, start, end, lang)
    if word.startswith("thank"):
        return not at_clause_start(s, start, lang, also=("and",))
    if word == "therefore":  # not between commas: "I would, therefore, cease" ("would, so,")
        head = s[max(0, start - 3) : start].rstrip()
        return not (
            is_sentence_start(s, start, lang)
            or head.endswith(";")
            or word_before(s, start) in ("and", "but", "or")
        )
    return False


def en_contract(s: str, start: int, end: int, lang: str) -> bool:
    """casual contractions: "can not only" is not "can't only"."""
    return s[start:end].lower() == "can not" and words_after(s, end)[:1] == ["only"]


def en_let_us(s: str, start: int, end: int, lang: str) -> bool:
    """Casual "let us" -> "let's" only for a suggestion at a clause start: "Rust won't let us do
    this", "Let us know" and "Let us help you" ask for permission."""
    if not at_clause_start(s, start, lang, also=("now", "so", "then", "first")):
        return True
    after = words_after(s, end, 3)
    return after[:1] == ["know"] or "you" in after


_EN_GOOD_NOUN_NEXT: Final = frozenset(
    {
        "morning", "afternoon", "evening", "night", "luck", "bye", "faith", "grace", "graces",
        "gracious", "heavens", "heaven", "lord", "god", "grief", "riddance", "mind", "will",
        "samaritan", "as", "enough", "of", "taste", "old",
    }
)  # fmt: skip
_EN_GOOD_NOUN_BEFORE: Final = frozenset(
    {"no", "any", "much", "for", "in", "be", "your", "his", "her", "my", "our", "their", "its",
     "too", "perfectly"}
)  # fmt: skip
_EN_PREDICATE_NEXT: Final = frozenset(
    {
        "to", "with", "about", "that", "for", "if", "when", "because", "as", "and", "now",
        "enough", "i", "you", "we", "they", "he", "she", "it",
    }
)  # fmt: skip
_EN_PERSON: Final = frozenset({"him", "her", "them", "you", "us", "me"})


def en_enthusiastic(s: str, start: int, end: int, lang: str) -> bool:
    """enthusiastic swaps.

    Kept after a negation ("not good" is not "not great"); "good" as a noun or in idioms
    ("do you good", "for good", "no good", "as good as done", "in good faith", "good
    enough to", "Good Lord", "too good for me", "a perfectly good solution", "good
    taste", "So far, so good"); "happy" and "glad" before a noun ("the happy path", "Happy
    holidays", "that glad day": "delighted" and "thrilled" describe people); "I like him"
    (not "I love him") and "I like to think".
    """
    if negated(s, start, lang):
        return True
    word = s[start:end].lower()
    after = words_after(s, end, 2)
    rest = s[end : end + 2]
    if word == "nice":
        return word_before(s, start) == "very"  # "very wonderful" is no English
    if word == "good":
        if s[max(0, start - 9) : start].lower().endswith(("far, so ", "well and ")):
            return True  # "So far, so good", "all well and good"
        if (after and after[0] in _EN_GOOD_NOUN_NEXT) or word_before(
            s, start
        ) in _EN_GOOD_NOUN_BEFORE:
            return True
        ends_clause = not rest or rest[:1] in ".,;:!?" or after[:1] == ["for"]
        return ends_clause and re.search(r"(?i)\b(?:do|does|did|doing|done)\b",
                                         clause_before(s, start)) is not None  # fmt: skip
    if word in ("happy", "glad"):
        if not after:
            return False  # before punctuation: a predicate
        return after[0] not in _EN_PREDICATE_NEXT
    if word in ("i like", "we like"):
        return (bool(after) and after[0] in _EN_PERSON) or after == ["to", "think"]
    return False


def en_wrong(s: str, start: int, end: int, lang: str) -> bool:
    """diplomatic "wrong" -> "not quite right": only a predicate after a form of "be" ("It is
    wrong."), not "what went wrong", "the wrong file" nor "nothing is wrong"."""
    if negated(s, start, lang) or word_before(s, start) not in _EN_BE:
        return True
    after = words_after(s, end)
    rest = s[end : end + 1]
    return not (
        not rest
        or rest in ".,;:!?"
        or (after and after[0] in {"with", "about", "because", "and", "but", "if", "to", "for"})
    )


_EN_MODAL_BE: Final = frozenset(
    {"is", "are", "was", "were", "will", "would", "can", "could", "should", "must", "may"}
)


def en_softener(s: str, start: int, end: int, lang: str) -> bool:
    """diplomatic "obviously", "clearly": kept after a negation or in a question ("not
    obviously wrong"); "clearly" only as a sentence adverb ("Clearly, …", "is clearly"), not
    the manner ("explain clearly and concisely")."""
    if negated(s, start, lang) or in_question(s, end):
        return True
    if s[start:end].lower() == "clearly":
        return not (
            (is_sentence_start(s, start, lang) and s.startswith(",", end))
            or word_before(s, start) in _EN_MODAL_BE
        )
    return False


def en_obligation(s: str, start: int, end: int, lang: str) -> bool:
    """diplomatic "you must" -> "please make sure you", "you need to" -> "you will need to":
    only opening a sentence or after a comma ("If you need to …" stays), not after a dash
    ("similar to `useState`—you must pass it an initial state and it returns …" states a
    fact), and not "you must make sure"."""
    if not at_clause_start(s, start, lang) or s[max(0, start - 40) : start].rstrip().endswith(
        "\u2014"
    ):
        return True
    return words_after(s, end, 2) == ["make", "sure"]


def en_imperative_rest(rest: str) -> bool:
    """Whether a sentence that starts with a listed verb is no request: a label ("Update
    Performance: how fast …", "Update - this is …"), the verb as a noun ("Provide and
    inject are usually performed …") or in a name ("Read the Docs supports …"), or a
    changelog entry, which says what a release did ("Add support for Python 3.8.", "Update
    to lunr.js 2.3.8 (#1989).")."""
    if re.search(r":|\s[-\u2013\u2014]\s|\u2014|\(#\d+\)|\d\.\d", rest):
        return True
    if re.search(r"\(#?(?:\d+|[\ue000-\ue002])\)$", rest):  # "(#1930)", its number protected
        return True
    if re.match(r" (?:the |a |an )?[A-Z][^\W\d_]*[A-Z]?", rest):
        return True
    return re.match(r" (?:and [^\W\d_]+ )?(?:is|are|was|were)\b", rest) is not None


_EN_SIMPLE_BE: Final = _EN_BE | {"am", "be"}


def en_simple(s: str, start: int, end: int, lang: str) -> bool:
    """simple swaps.

    "indicate that" stays ("the data indicate that" claims less than "show that"); the verb
    "regarding" stays ("We are regarding it as a bug", "…, regarding a hen"); "how we
    stand with regard to one another" is not "stand about"; "assisted at" (attended) and
    "modifying words" (grammar) keep their sense.
    """
    word = s[start:end].lower()
    after = words_after(s, end, 5)
    if word.startswith("indicat"):
        return after[:1] == ["that"]
    if word == "regarding":
        head = s[max(0, start - 3) : start].rstrip()
        return word_before(s, start) in _EN_SIMPLE_BE or head.endswith(",") or "as" in after
    if word == "with regard to":
        return word_before(s, start) in {"stand", "stands", "stood", "standing"}
    if word.startswith("assist"):
        return after[:1] == ["at"]
    if word == "modifying":
        return bool(after) and after[0] in {"word", "words"}
    return False


def en_require(s: str, start: int, end: int, lang: str) -> bool:
    """simple "require" -> "need": "are required to annotate" is not "are needed to
    annotate" (an obligation on a person), "Package to require with a version constraint"
    (declare as a requirement) not "to need", and "Poetry will require you to specify" (a
    demand) not "need you to"."""
    after = words_after(s, end, 2)
    if s[start:end].lower() == "required":
        return after[:1] == ["to"]
    return word_before(s, start) == "to" or (
        len(after) == 2 and after[0] in _EN_PERSON and after[1] == "to"
    )


# --- German ------------------------------------------------------------------------------------


def de_filler(s: str, start: int, end: int, lang: str) -> bool:
    """German filler removal: kept after a negation ("nicht wirklich verstehen" claims less
    than "nicht verstehen") and in a question ("Haben seine Aktionen wirklich Folgen?")."""
    return negated(s, start, lang) or in_question(s, end)


def de_simple(s: str, start: int, end: int, lang: str) -> bool:
    """German simple swaps: "Jedoch" opening a sentence inverts it ("Jedoch ist es …"), which
    "Aber" (a conjunction) cannot."""
    return s[start:end] == "Jedoch"


_DE_AUXILIARY: Final = re.compile(
    r"(?i)(?<!\w)(?:wird|werden|wurde|wurden|worden|wirst|werdet|ist|sind|war|waren|hat|haben"
    r"|hatte|hatten|habe|hast|habt)(?!\w)"
)


_DE_OBJECT_START: Final = frozenset(
    {"ein", "eine", "einen", "einem", "einer", "eines", "der", "die", "das", "den", "dem",
     "des", "es", "sie", "ihn", "ihm", "diese", "dieses", "diesen", "dieser", "keine",
     "keinen", "mehr", "jetzt", "nun", "immer", "auch", "standardmäßig", "dafür", "dazu"}
)  # fmt: skip


def de_participle(s: str, start: int, end: int) -> bool:
    """Whether "verwendet"/"benötigt" at ``start`` is the participle (with an auxiliary in
    its clause: "wird verwendet", "verwendet werden", "hat … verwendet"), not the present
    ("Vite verwendet jetzt …", "…, das Vite verwendet.")."""
    after = words_after(s, end)
    if after and _DE_AUXILIARY.fullmatch(after[0]):
        return True
    if after and after[0] in _DE_OBJECT_START:
        return False  # an object follows: "… und verwendet eine Implementierung"
    return _DE_AUXILIARY.search(clause_before(s, start)) is not None


_DE_KRIEGEN_IDIOM: Final = frozenset(
    {"kinder", "kind", "baby", "angst", "hunger", "durst", "griff", "lust", "panik", "ärger",
     "schreck", "wut", "zustände"}
)  # fmt: skip


def de_formal(s: str, start: int, end: int, lang: str) -> bool:
    """German formal swaps: "kriegen" in idioms stays ("Kinder kriegen" is not "Kinder
    erhalten", nor "in den Griff kriegen")."""
    return s[start:end].lower().startswith("krieg") and word_before(s, start) in _DE_KRIEGEN_IDIOM


_DE_DEGREE: Final = frozenset(
    {"sehr", "ganz", "ziemlich", "recht", "so", "zu", "besonders", "nicht", "echt", "richtig"}
)
_DE_FIXED_NEXT: Final = frozenset(
    {"tag", "morgen", "abend", "nacht", "appetit", "besserung", "reise", "fahrt", "rutsch",
     "flug", "grüße", "grüßen", "gruß", "absicht", "glauben"}
)  # fmt: skip


def de_enthusiastic(s: str, start: int, end: int, lang: str) -> bool:
    """German enthusiastic swaps of the inflected adjectives ("eine gute Idee"): kept after a
    negation ("keine gute Arbeit"), after a degree word ("sehr guten", "ziemlich gute":
    "großartig" takes none) and in fixed phrases ("Guten Morgen", "schöne Grüße", "mit
    guter Absicht")."""
    after = words_after(s, end)
    return (
        negated(s, start, lang)
        or word_before(s, start) in _DE_DEGREE
        or (bool(after) and after[0] in _DE_FIXED_NEXT)
    )


_DE_BE: Final = frozenset({"ist", "sind", "war", "waren", "wäre", "wären", "sei", "seien", "bin",
                           "bist", "seid"})  # fmt: skip


# The word right after a match, white space between (a form of "sein" is looked for there).
_DE_BE_AFTER: Final = re.compile(r"[ \t]+([^\W\d_]+)")
_DE_BE_FORM: Final = re.compile(r"(?i)(?<!\w)(?:" + "|".join(_DE_BE) + r")(?!\w)")


def de_predicate(s: str, start: int, end: int, lang: str) -> bool:
    """German "gut", "schön", "interessant", "falsch" uninflected: only a predicate.

    That is: a form of "sein" earlier in the clause and punctuation after ("Das ist gut.",
    "Es wäre schön, wenn", "Leider ist diese Meinung falsch."), or the form of "sein" right
    after it at a clause end ("dass die Ideen jetzt falsch sind"). The adverb stays: "gut
    Englisch sprechen" is not "großartig Englisch sprechen", "ganz gut" hedges, "Na gut"
    agrees; and a negation keeps it ("nicht falsch")."""
    if negated(s, start, lang) or word_before(s, start) in _DE_DEGREE:
        return True
    rest = s[end : end + 1]
    if (not rest or rest in ".,;:!?") and _DE_BE_FORM.search(clause_before(s, start)):
        return False
    be = _DE_BE_AFTER.match(s, end)
    if be is None or be.group(1).lower() not in _DE_BE:
        return True
    return s[be.end() : be.end() + 1] not in ("", ".", ",", "!", "?", ";")


def de_clause_start_only(s: str, start: int, end: int, lang: str) -> bool:
    """German confident: "Ich glaube, …" only opening a sentence ("weil ich glaube, die
    Voraussetzungen mitzubringen" loses its subject and verb without it)."""
    return not is_sentence_start(s, start, lang)


def de_imperative_rest(rest: str) -> bool:
    """Whether "Verb Sie …" cannot take "Könnten Sie … bitte verb?": a comma, colon,
    parenthesis or dash (a clause the verb would have to come before: "Beachten Sie, dass
    …"), or "um … zu" (an infinitive clause after the verb)."""
    return re.search(r"[,;:()\u2013\u2014]|\s-\s|\bum\b", rest) is not None
