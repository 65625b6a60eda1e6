# Over 400 lines: half of it is the phrase tables of the styles and tones, beside their rules.
"""Writing styles and tones as documented rule sets for English and German.

Every rule is a plain word or phrase substitution, a filler-word removal or (``diplomatic``) the
softening of a listed imperative; docs/offline-engine.md lists them. Rules only match whole
words made of letters, so protected sentinels and the words glued to them are never touched.
Only lower-case matches and sentence-initial capitals are rewritten (the capital is kept).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Final

from .rules import is_sentence_start
from .style_vetoes import (
    de_clause_start_only,
    de_enthusiastic,
    de_filler,
    de_formal,
    de_imperative_rest,
    de_participle,
    de_predicate,
    de_simple,
    en_academic,
    en_casual,
    en_contract,
    en_enthusiastic,
    en_filler,
    en_imperative_rest,
    en_let_us,
    en_obligation,
    en_opener,
    en_require,
    en_s_is_has,
    en_sentence_start_only,
    en_simple,
    en_softener,
    en_thanks,
    en_wrong,
)

_L = r"[^\W\d_]"
_B = r"(?<![\w'’\-\ue000-\ue002])"
_A = r"(?![\w'’\-\ue000-\ue002])"
_FOLLOWED_BY_WORD = r"(?= [^\W\d_])"

Rule = Callable[[str, str], str]
# A veto on one match: (text, match start, match end, base language) -> leave it alone.
Veto = Callable[[str, int, int, str], bool]

# --- English ----------------------------------------------------------------------------------

EN_CONTRACT: Final[dict[str, str]] = {
    "do not": "don't", "does not": "doesn't", "did not": "didn't", "is not": "isn't",
    "are not": "aren't", "was not": "wasn't", "were not": "weren't", "have not": "haven't",
    "has not": "hasn't", "had not": "hadn't", "will not": "won't", "would not": "wouldn't",
    "cannot": "can't", "can not": "can't", "could not": "couldn't", "should not": "shouldn't",
    "must not": "mustn't",
}  # fmt: skip
# Contracted only before another word ("it's" cannot end a clause).
EN_CONTRACT_BEFORE_WORD: Final[dict[str, str]] = {
    "I am": "I'm", "you are": "you're", "we are": "we're", "they are": "they're",
    "it is": "it's", "that is": "that's", "there is": "there's", "what is": "what's",
    "he is": "he's", "she is": "she's", "I will": "I'll", "you will": "you'll",
    "we will": "we'll", "they will": "they'll", "I have been": "I've been",
    "we have been": "we've been", "you have been": "you've been",
}  # fmt: skip
# "let us" -> "let's" only for a suggestion (:func:`.style_vetoes.en_let_us`).
EN_LET_US: Final[dict[str, str]] = {"let us": "let's"}
EN_EXPAND: Final[dict[str, str]] = {
    "don't": "do not", "doesn't": "does not", "didn't": "did not", "isn't": "is not",
    "aren't": "are not", "wasn't": "was not", "weren't": "were not", "haven't": "have not",
    "hasn't": "has not", "hadn't": "had not", "won't": "will not", "wouldn't": "would not",
    "can't": "cannot", "couldn't": "could not", "shouldn't": "should not",
    "mustn't": "must not", "shan't": "shall not", "I'm": "I am", "you're": "you are",
    "we're": "we are", "they're": "they are", "it's": "it is",
    "that's": "that is", "there's": "there is", "what's": "what is",
    "he's": "he is", "she's": "she is", "I'll": "I will",
    "you'll": "you will", "we'll": "we will", "they'll": "they will", "it'll": "it will",
    "I've": "I have", "you've": "you have", "we've": "we have", "they've": "they have",
    "I'd like": "I would like", "I'd love": "I would love", "we'd like": "we would like",
    "let's": "let us", "gonna": "going to", "wanna": "want to", "gotta": "have to",
}  # fmt: skip
_NO_SUBJECT = (
    r"(?! (?:I|you|we|they|he|she|it|there|this|that|these|those|anyone|someone|everyone)\b)"
)
EN_FILLERS: Final = ("really", "basically", "actually", "literally", "totally", "very")
# Removed before closing punctuation too ("It works, actually."); not "print literally,".
EN_FILLERS_TAIL: Final = ("really", "actually")
# "'s" before "been", "got", "gotten", "had" is "has" ("there's been", "it's got").
_EN_S_HAS = re.compile(
    r"(?<![\w'’\-\ue000-\ue002])((?:it|he|she|that|there|what|who|where|here)['’])s"
    r"( (?:been|got|gotten|had))(?![\w'’\-\ue000-\ue002])",
    re.IGNORECASE,
)
# "very" stays where dropping it changes the phrase ("very much", "the very first").
_EN_FILLER_KEEP_AFTER = r"(?!,? (?:much|many|few|little|well|same|first|last|end|best|own)\b)"

EN_SIMPLE: Final[dict[str, str]] = {
    "utilize": "use", "utilizes": "uses", "utilized": "used", "utilizing": "using",
    "utilise": "use", "utilises": "uses", "utilised": "used", "utilising": "using",
    "approximately": "about", "commence": "start", "commences": "starts",
    "commenced": "started", "commencing": "starting", "terminate": "end",
    "terminates": "ends", "terminated": "ended", "terminating": "ending",
    "demonstrate": "show", "demonstrates": "shows", "demonstrating": "showing",
    "facilitate": "help", "facilitates": "helps", "facilitated": "helped",
    "facilitating": "helping", "sufficient": "enough", "numerous": "many",
    "subsequently": "later", "in order to": "to", "prior to": "before", "obtain": "get",
    "obtains": "gets", "obtaining": "getting", "assist": "help", "assists": "helps",
    "assisted": "helped", "assisting": "helping", "assistance": "help",
    "nevertheless": "still", "regarding": "about", "in the event that": "if",
    "due to the fact that": "because", "at this point in time": "now",
    "a large number of": "many", "the majority of": "most", "with regard to": "about",
    "individuals": "people", "modify": "change", "modifies": "changes", "modified": "changed",
    "modifying": "changing", "frequently": "often", "anticipate": "expect",
    "anticipates": "expects", "anticipated": "expected", "ascertain": "find out",
    "indicate": "show", "indicates": "shows", "indicating": "showing",
}  # fmt: skip
# "need" takes no that-clause: "requires that someone put" is not "needs that someone put".
# Lower case only ("Require two calls" is an instruction, "Need two calls" is not), and not
# "requiring" ("by requiring these operations to be inside blocks" imposes; "needing" lacks).
EN_SIMPLE_REQUIRE: Final[dict[str, str]] = {
    "require": "need", "requires": "needs", "required": "needed",
}  # fmt: skip
_NO_THAT_CLAUSE = r"(?! that\b)"
EN_ACADEMIC: Final[dict[str, str]] = {
    "maybe": "perhaps", "big": "large", "bigger": "larger", "biggest": "largest",
    "look at": "examine", "looks at": "examines", "looked at": "examined",
    "looking at": "examining", "talk about": "discuss", "talks about": "discusses",
    "talked about": "discussed", "get rid of": "eliminate",
}  # fmt: skip
# Informal sentence openers replaced by academic connectives (sentence start only).
EN_ACADEMIC_OPENERS: Final[dict[str, str]] = {
    "So,": "Therefore,",
    "But": "However,",
    "Also,": "Furthermore,",
    "Plus,": "Moreover,",
}
EN_BUSINESS: Final[dict[str, str]] = {
    "asap": "as soon as possible", "fyi": "for your information",
    "get back to you": "respond to you",
}  # fmt: skip
EN_CASUAL: Final[dict[str, str]] = {
    "hello": "hi", "thank you for": "thanks for", "therefore": "so",
    "approximately": "about", "Dear Sir or Madam": "hi there",
}  # fmt: skip
EN_ENTHUSIASTIC: Final[dict[str, str]] = {
    "good": "great", "nice": "wonderful", "interesting": "fascinating", "happy": "delighted",
    "glad": "thrilled", "I like": "I love", "we like": "we love",
}  # fmt: skip
EN_FRIENDLY: Final[dict[str, str]] = {
    "Dear Sir or Madam": "hello", "Kind regards": "warm regards", "Regards": "best wishes",
    "please find attached": "here is", "I am writing to": "I'd like to",
}  # fmt: skip
# Confident drops the writer's framing of a claim, never a word of the claim itself: hedges
# ("maybe", "perhaps", "hopefully", "try to"), modals ("might" is not "will": "might
# require" claims less than "will require"), negation and numbers stay.
EN_CONFIDENT_DROP: Final = (
    "I think that", "I think", "I believe that", "I believe", "I guess", "I feel that",
)  # fmt: skip
EN_CONFIDENT: Final[dict[str, str]] = {
    "could possibly": "could", "might possibly": "might", "may possibly": "may",
}  # fmt: skip
EN_DIPLOMATIC: Final[dict[str, str]] = {"wrong": "not quite right"}
# An obligation stays one ("you should" would be advice): softer wording that keeps it, at a
# clause start and (for "you must") before a plain verb: not "must not", nor "must be",
# "must have", "must know", "must remember"… (a conclusion: "You must know the way out").
EN_DIPLOMATIC_MUST: Final[dict[str, str]] = {"you must": "please make sure you"}
_EN_MUST_VERB = (
    r"(?= (?!(?:be|have|not|never|know|remember|think|feel|see|realize|realise|understand"
    r"|agree|admit|mean|assume|expect|suppose|consider|believe|accept|note)(?![\w'’]))[a-z])"
)
EN_DIPLOMATIC_NEED: Final[dict[str, str]] = {"you need to": "you will need to"}
EN_DIPLOMATIC_DROP: Final = ("obviously", "clearly")
EN_IMPERATIVES: Final = frozenset(
    {
        "send", "fix", "change", "give", "tell", "call", "check", "update", "remove", "add",
        "stop", "reply", "review", "read", "make", "provide", "explain", "move", "delete",
        "finish", "submit", "confirm", "share", "show", "write", "complete", "let", "sign",
        "return", "forward", "prepare", "correct", "answer", "clean", "install",
    }
)  # fmt: skip

# Real-word confusions with one right reading (default mode, not a style).
EN_CONFUSABLES: Final[dict[str, str]] = {
    "should of": "should have", "would of": "would have", "could of": "could have",
    "must of": "must have", "might of": "might have", "its a": "it's a", "its an": "it's an",
    "its not": "it's not", "its been": "it's been", "its going": "it's going",
    "your welcome": "you're welcome", "alot": "a lot", "their is": "there is",
    "their are": "there are", "there own": "their own",
}  # fmt: skip
# "then" after a comparative is "than" only when a lower-case word other than a subject
# pronoun follows: "better then the rest" is a slip, but "I felt better then I went home" and
# "it was better then." use "then" as meant (Holbrook corpus: a new clause without a comma).
EN_COMPARATIVE_THEN: Final[dict[str, str]] = {
    "more then": "more than", "less then": "less than", "better then": "better than",
    "rather then": "rather than", "other then": "other than", "fewer then": "fewer than",
    "greater then": "greater than", "worse then": "worse than", "larger then": "larger than",
    "smaller then": "smaller than", "higher then": "higher than", "lower then": "lower than",
}  # fmt: skip
_THAN_FOLLOWS = r"(?= (?-i:(?!(?:I|we|you|he|she|they)(?![^\W\d_]))[a-z]))"

# --- German -----------------------------------------------------------------------------------

DE_EXPAND: Final[dict[str, str]] = {
    "gibt's": "gibt es", "geht's": "geht es", "war's": "war es", "hat's": "hat es",
    "ist's": "ist es",
}  # fmt: skip
# "quasi", "sozusagen" and "irgendwie" are hedges ("quasi die render-Funktion"), not fillers.
DE_FILLERS: Final = ("eigentlich", "halt", "wirklich")
DE_CASUAL: Final[dict[str, str]] = {
    "gibt es": "gibt's", "geht es": "geht's", "noch einmal": "noch mal", "herein": "rein",
    "heraus": "raus", "herunter": "runter", "hinein": "rein",
    "Sehr geehrte Damen und Herren": "hallo zusammen", "Guten Tag": "hallo",
    "Mit freundlichen Grüßen": "viele Grüße",
}  # fmt: skip
DE_SIMPLE: Final[dict[str, str]] = {
    "beziehungsweise": "oder", "zahlreiche": "viele", "zahlreichen": "vielen",
    "zahlreicher": "vieler", "benötigen": "brauchen",
    "benötige": "brauche", "verwenden": "nutzen",
    "ungefähr": "etwa", "circa": "etwa", "ebenfalls": "auch", "jedoch": "aber",
    "infolgedessen": "deshalb", "demzufolge": "deshalb", "diesbezüglich": "dazu",
    "gegebenenfalls": "wenn nötig", "möglicherweise": "vielleicht", "unverzüglich": "sofort",
    "selbstverständlich": "natürlich", "insbesondere": "vor allem", "darüber hinaus": "außerdem",
}  # fmt: skip
# "verwendet" and "benötigt" are the present or the participle
# (:func:`.style_vetoes.de_participle`).
DE_SIMPLE_VERB_FORMS: Final[dict[str, tuple[str, str]]] = {
    "verwendet": ("nutzt", "genutzt"), "benötigt": ("braucht", "gebraucht"),
}  # fmt: skip
DE_FORMAL: Final[dict[str, str]] = {
    "kriege": "erhalte", "kriegst": "erhältst", "kriegt": "erhält", "kriegen": "erhalten",
    "gekriegt": "erhalten", "checken": "prüfen", "checkt": "prüft", "gecheckt": "geprüft",
    "Hi": "guten Tag", "okay": "in Ordnung",
}  # fmt: skip
# The uninflected forms only as a predicate (:func:`.style_vetoes.de_predicate`).
DE_ENTHUSIASTIC_PREDICATE: Final[dict[str, str]] = {
    "gut": "großartig", "schön": "wunderbar", "interessant": "faszinierend",
}  # fmt: skip
DE_ENTHUSIASTIC: Final[dict[str, str]] = {
    "gute": "großartige", "guten": "großartigen", "guter": "großartiger",
    "gutes": "großartiges", "gutem": "großartigem",
    "schöne": "wunderbare", "schönen": "wunderbaren", "schöner": "wunderbarer",
    "schönes": "wunderbares", "interessante": "faszinierende",
    "interessanten": "faszinierenden", "interessanter": "faszinierender",
    "interessantes": "faszinierendes",
}  # fmt: skip
DE_FRIENDLY: Final[dict[str, str]] = {
    "Sehr geehrte Damen und Herren": "hallo zusammen", "Sehr geehrter Herr": "lieber Herr",
    "Sehr geehrte Frau": "liebe Frau", "Mit freundlichen Grüßen": "viele Grüße",
    "Hochachtungsvoll": "viele Grüße",
}  # fmt: skip
# As in English: the framing goes, hedges and modals stay ("könnte" is not "wird").
DE_CONFIDENT_CLAUSE: Final = ("ich glaube,", "ich denke,", "ich vermute,")
# "Sie müssen" stays: "Sie sollten" would turn an obligation into advice.
DE_DIPLOMATIC: Final[dict[str, str]] = {"falsch": "nicht ganz richtig"}
DE_IMPERATIVES: Final = frozenset(
    {
        "schicken", "senden", "prüfen", "ändern", "geben", "machen", "beachten", "lesen",
        "korrigieren", "aktualisieren", "entfernen", "bestätigen", "erklären", "beantworten",
        "überprüfen", "löschen", "ergänzen", "liefern", "unterschreiben",
    }
)  # fmt: skip
_DE_PARTICLES: Final = frozenset(
    {
        "an", "auf", "aus", "ein", "mit", "vor", "zu", "zurück", "ab", "bei", "nach", "weg",
        "her", "hin", "los", "fest", "durch", "um",
    }
)  # fmt: skip


# --- machinery --------------------------------------------------------------------------------


def _phrase_pattern(phrases: list[str]) -> str:
    alts = sorted(phrases, key=lambda p: (-len(p), p))
    return "|".join(re.escape(p).replace("'", "['’]").replace(r"\ ", " ") for p in alts)


def _case_like(matched: str, replacement: str) -> str:
    if replacement and matched[:1].isupper() and not replacement[:1].isupper():
        return replacement[0].upper() + replacement[1:]
    return replacement


def _apostrophe_like(matched: str, replacement: str) -> str:
    return replacement.replace("'", "’") if "’" in matched else replacement


def _accepts(matched: str, natural: str, s: str, start: int, lang: str) -> bool:
    """Whether ``matched`` is ``natural`` as written, or with a sentence-initial capital."""
    matched = matched.replace("’", "'")
    if matched == natural:
        return True
    capitalised = natural[:1].upper() + natural[1:]
    return matched == capitalised and is_sentence_start(s, start, lang)


def phrase_rule(
    mapping: dict[str, str], *, after: str = "", veto: Veto | None = None, lower_only: bool = False
) -> Rule:
    """A rule replacing each phrase of ``mapping`` (keys in their natural case) by its value.

    A phrase matches as written, or (unless ``lower_only``) with a capital first letter at the
    start of a sentence. ``veto(s, start, end, lang)`` leaves a match alone when it says so.
    """
    natural = {k.lower(): k for k in mapping}
    pattern = re.compile(
        _B + "(" + _phrase_pattern(list(mapping)) + ")" + _A + after, re.IGNORECASE
    )

    def apply(s: str, lang: str) -> str:
        def repl(m: re.Match[str]) -> str:
            matched = m.group(1)
            key = natural[matched.lower().replace("’", "'")]
            if lower_only and matched.replace("’", "'") != key:
                return matched
            if not _accepts(matched, key, s, m.start(1), lang):
                return matched
            if veto is not None and veto(s, m.start(1), m.end(1), lang):
                return matched
            return _apostrophe_like(matched, _case_like(matched, mapping[key]))

        out = pattern.sub(repl, s)
        return _fix_empty(out) if "" in mapping.values() else out

    return apply


_DOUBLE_SPACE = re.compile(r"(?<=\S)  +(?=\S)|(?<=\S) +(?=[.,;:!?](?:\s|$))")


def _fix_empty(s: str) -> str:
    """Tidy spaces left by a removed word."""
    return _DOUBLE_SPACE.sub(lambda m: " " if m.group(0).startswith("  ") else "", s)


def drop_rule(
    words: tuple[str, ...],
    *,
    keep_after: str = "",
    lower_only: bool = False,
    tail: tuple[str, ...] = (),
    veto: Veto | None = None,
) -> Rule:
    """A rule removing each word or phrase of ``words`` (and a comma right after it).

    ``lower_only``: match only as written (German adverbs at a sentence start cause
    inversion, so removing them there would break the word order). ``tail``: the words also
    removed before closing punctuation ("It was good really." -> "It was good."). ``veto(s,
    start, end, lang)`` leaves a match alone when it says so.
    """
    alts = _phrase_pattern(list(words))
    natural = {w.lower(): w for w in words}
    flags = 0 if lower_only else re.IGNORECASE
    before = re.compile(rf"(?:(?<=[ \t])|^){_B}({alts}){_A}{keep_after},? (?=\S)", flags)
    tail_re = re.compile(rf" ({_phrase_pattern(list(tail))}){_A}(?=[.,;:!?])", flags)

    def apply(s: str, lang: str) -> str:
        def repl(m: re.Match[str]) -> str:
            matched = m.group(1)
            key = natural[matched.lower().replace("’", "'")]
            if not _accepts(matched, key, s, m.start(1), lang):
                return m.group(0)
            if veto is not None and veto(s, m.start(1), m.end(1), lang):
                return m.group(0)
            return ""

        def tail_repl(m: re.Match[str]) -> str:
            if veto is not None and veto(s, m.start(1), m.end(1), lang):
                return m.group(0)
            return ""

        s = before.sub(repl, s)
        return tail_re.sub(tail_repl, s) if tail else s

    return apply


def _imperative_rule(verbs: frozenset[str], build: Callable[[str, str], str | None]) -> Rule:
    """Soften sentences that start with a listed imperative; ``build(verb, rest)``."""
    pattern = re.compile(rf"(?:(?<=[.!?] )|^)({_L}+)( [^.!?\n]*)?([.!])(?=\s|$)")

    def apply(s: str, lang: str) -> str:
        def repl(m: re.Match[str]) -> str:
            verb = m.group(1)
            if verb[:1].islower() or verb.lower() not in verbs:
                return m.group(0)
            if not is_sentence_start(s, m.start(1), lang):
                return m.group(0)
            new = build(verb.lower(), m.group(2) or "")
            return m.group(0) if new is None else new

        return pattern.sub(repl, s)

    return apply


def _en_soften(verb: str, rest: str) -> str | None:
    if verb == "let" or en_imperative_rest(rest):
        return None  # "Let me know." is already polite
    return f"Could you please {verb}{rest}?"


def _de_soften(verb: str, rest: str) -> str | None:
    if re.match(r" Sie\b", rest) is None or de_imperative_rest(rest):
        return None
    words = rest.split()
    if (words and words[-1] in _DE_PARTICLES) or "bitte" in words:
        return None
    body = rest[len(" Sie") :]
    return f"Könnten Sie{body} bitte {verb}?"


def _openers_rule(mapping: dict[str, str], keep: Veto) -> Rule:
    keys = sorted(mapping, key=lambda k: (-len(k), k))
    pattern = re.compile(r"(?:(?<=[.!?] )|^)(" + "|".join(re.escape(k) for k in keys) + r")(?= )")

    def apply(s: str, lang: str) -> str:
        def repl(m: re.Match[str]) -> str:
            if not is_sentence_start(s, m.start(1), lang) or keep(s, m.start(1), m.end(1), lang):
                return m.group(0)
            return mapping[m.group(1)]

        return pattern.sub(repl, s)

    return apply


@cache
def confusables(lang: str) -> tuple[Rule, ...]:
    """Default-mode rules for real-word confusions (English only)."""
    if lang != "en":
        return ()
    return (phrase_rule(EN_CONFUSABLES), phrase_rule(EN_COMPARATIVE_THEN, after=_THAN_FOLLOWS))


#: Base languages that have rules for every writing style and tone (:func:`rule_set`); the
#: offline service's language list offers styles and tones for these alone.
STYLED_LANGUAGES: Final = frozenset({"de", "en"})


def _en_s_has(s: str, lang: str) -> str:
    """Expand "'s" that is "has" ("there's been" -> "there has been")."""
    return _EN_S_HAS.sub(lambda m: m.group(1)[:-1] + " has" + m.group(2), s)


_DE_VERB_FORMS = re.compile(_B + "(" + "|".join(DE_SIMPLE_VERB_FORMS) + ")" + _A)


def _de_verb_forms(s: str, lang: str) -> str:
    """Replace "verwendet" by "nutzt" or "genutzt", "benötigt" by "braucht" or "gebraucht"."""

    def repl(m: re.Match[str]) -> str:
        present, participle = DE_SIMPLE_VERB_FORMS[m.group(1)]
        return participle if de_participle(s, m.start(1), m.end(1)) else present

    return _DE_VERB_FORMS.sub(repl, s)


@cache
def rule_set(lang: str, name: str) -> tuple[Rule, ...]:
    """The rules of style or tone ``name`` for base language ``lang`` (empty if none)."""
    if lang == "en":
        # "Why don't you" is not "Why do not you": a negation before its subject stays.
        expand = (
            phrase_rule(
                {k: v for k, v in EN_EXPAND.items() if k.endswith("n't")}, after=_NO_SUBJECT
            ),
            _en_s_has,
            phrase_rule(
                {k: v for k, v in EN_EXPAND.items() if not k.endswith("n't")},
                veto=en_s_is_has,
            ),
        )
        fillers = drop_rule(
            EN_FILLERS,
            keep_after=_EN_FILLER_KEEP_AFTER,
            tail=EN_FILLERS_TAIL,
            veto=en_filler,
        )
        contract = (
            phrase_rule(EN_CONTRACT, veto=en_contract),
            phrase_rule(EN_CONTRACT_BEFORE_WORD, after=_FOLLOWED_BY_WORD),
            phrase_rule(EN_LET_US, after=_FOLLOWED_BY_WORD, veto=en_let_us),
        )
        business = (
            phrase_rule(EN_BUSINESS),
            phrase_rule({"thanks": "thank you"}, veto=en_thanks),
            phrase_rule({"hey": "hello"}, veto=en_sentence_start_only),
        )
        sets: dict[str, tuple[Rule, ...]] = {
            "simple": (
                phrase_rule(EN_SIMPLE, veto=en_simple),
                phrase_rule(
                    EN_SIMPLE_REQUIRE, after=_NO_THAT_CLAUSE, veto=en_require, lower_only=True
                ),
            ),
            "business": (*expand, fillers, *business),
            "academic": (
                *expand,
                fillers,
                phrase_rule(EN_ACADEMIC, veto=en_academic),
                _openers_rule(EN_ACADEMIC_OPENERS, en_opener),
            ),
            "casual": (*contract, phrase_rule(EN_CASUAL, veto=en_casual)),
            "enthusiastic": (phrase_rule(EN_ENTHUSIASTIC, veto=en_enthusiastic),),
            "friendly": (phrase_rule(EN_FRIENDLY), *contract),
            "confident": (drop_rule(EN_CONFIDENT_DROP), phrase_rule(EN_CONFIDENT)),
            "diplomatic": (
                drop_rule(EN_DIPLOMATIC_DROP, veto=en_softener),
                phrase_rule(EN_DIPLOMATIC, veto=en_wrong),
                phrase_rule(EN_DIPLOMATIC_MUST, after=_EN_MUST_VERB, veto=en_obligation),
                phrase_rule(EN_DIPLOMATIC_NEED, veto=en_obligation),
                _imperative_rule(EN_IMPERATIVES, _en_soften),
            ),
        }
        return sets.get(name, ())
    if lang == "de":
        de_expand = phrase_rule({k: v for k, v in DE_EXPAND.items() if v})
        de_fillers = drop_rule(DE_FILLERS, lower_only=True, tail=DE_FILLERS, veto=de_filler)
        formal = phrase_rule(DE_FORMAL, veto=de_formal)
        sets = {
            "simple": (phrase_rule(DE_SIMPLE, veto=de_simple), _de_verb_forms),
            "business": (de_expand, de_fillers, formal),
            "academic": (de_expand, de_fillers, formal),
            "casual": (phrase_rule(DE_CASUAL, after=r"(?=[\s.,!?])"),),
            "enthusiastic": (
                phrase_rule(DE_ENTHUSIASTIC, veto=de_enthusiastic),
                phrase_rule(DE_ENTHUSIASTIC_PREDICATE, veto=de_predicate),
            ),
            "friendly": (phrase_rule(DE_FRIENDLY),),
            "confident": (
                drop_rule(
                    DE_CONFIDENT_CLAUSE,
                    keep_after=r"(?! dass\b)",
                    veto=de_clause_start_only,
                ),
            ),
            "diplomatic": (
                phrase_rule(DE_DIPLOMATIC, veto=de_predicate),
                _imperative_rule(DE_IMPERATIVES, _de_soften),
            ),
        }
        return sets.get(name, ())
    return ()


def apply_style(s: str, lang: str, name: str) -> str:
    """Apply the rule set ``name`` (a style or tone without ``prefer_``) for ``lang``."""
    for rule in rule_set(lang, name):
        s = rule(s, lang)
    return s
