"""Which variant of English or Portuguese a text is written in, from its spellings.

English: each word on one side only of the breame lists that ``variants`` converts with
(``colour``/``color``, ``centre``/``center``, ``travelled``/``traveled``...) is a vote for
en-GB or en-US. An American ``-ize``/``-yze`` spelling counts half, since British writers
following Oxford spelling use it too; the British ``-ise`` counts whole.

Portuguese: the documented word pairs of ``variants`` (``ônibus``/``autocarro``,
``econômico``/``económico``, ``contato``/``contacto``...), minus spellings that also belong
to the other variant (``aspecto``, ``recepção``: Portugal's spelling before 1990, still common;
``câmara``, ``gelado``: other senses in Brazil); a few words and phrases of their own (``time``,
``de fato`` / ``facto``, ``ecrã``, ``pequeno-almoço``, ``casa de banho``); and the progressive:
*estar* + gerund (``estou fazendo``, pt-BR) or *estar a* + infinitive (``estou a fazer``,
pt-PT), leaving out adjectives and idioms that look like them (``está lindo``, ``está a par``).

Only plain words vote: protected spans (code, quotes, links...) and capitalised words inside a
sentence (names such as ``Lincoln Center``) do not. The lists load on the first call.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Final

import rephrase_ls.text.variants as variants
from rephrase_ls.text.tokens import BREAK, PUNCT, SPACE, WORD, tokenize

MAX_CHARS: Final = 20_000
"""Only the first ``MAX_CHARS`` characters are read, as by ``detect_language``."""

# American spellings whose British form differs only by -ise / -yse: Oxford spelling (used in
# Britain by OUP, Nature, the UN...) keeps the -ize, so they are weak evidence of en-US.
_OXFORD_WEIGHT: Final = 0.5

# Spellings on one side of the breame lists that are standard on both sides of the Atlantic
# (breame pairs them with rare or archaic forms: connexion, waggon, gage, philtre, or they are
# other words: "analyses" is also the plural of "analysis").
EN_BOTH: Final = frozenset(
    {
        "connection", "connections", "wagon", "wagons", "judgment", "judgments", "judgement",
        "judgements", "gauge", "gauges", "fillet", "fillets", "sheikh", "sheikhs", "likeable",
        "exorcise", "exorcised", "monologue", "monologues", "woolly", "worshipped",
        "worshipping", "omelette", "omelettes", "catalogue", "catalogues", "analyses",
        "paralyses", "epilogue", "epilogues", "medieval", "mediaeval", "filter", "filters",
        "filtered", "filtering", "gram", "grams", "milligram", "milligrams", "kilogram",
        "kilograms",
    }
)  # fmt: skip
# Brazilian spellings that Portugal also wrote before the 1990 agreement (and many still do).
_PT_SHARED_BR: Final = frozenset(
    {
        "recepção", "aspecto", "aspectos", "perspectiva", "perspectivas", "espectador",
        "espectadores", "infecção", "detectar", "detectado", "detecção", "mouse",
    }
)  # fmt: skip
# European forms with an everyday sense in Brazil too ("célula hospedeira", "câmara municipal").
_PT_SHARED_PT: Final = frozenset({"hospedeira"})
_PT_EXTRA_BR: Final = frozenset({"time", "times"})
_PT_EXTRA_PT: Final = frozenset({"facto", "factos", "ecrã", "ecrãs", "pequeno-almoço"})
_PT_PHRASES: Final = (
    (re.compile(r"(?<!\w)de fato(?!\w)", re.IGNORECASE), "pt-BR"),
    (re.compile(r"(?<!\w)café da manhã(?!\w)", re.IGNORECASE), "pt-BR"),
    (re.compile(r"(?<!\w)casa de banho(?!\w)", re.IGNORECASE), "pt-PT"),
)
# Words after a form of "estar" that end like a gerund or an infinitive but are not one.
_NOT_GERUNDS: Final = frozenset(
    {
        "lindo", "tremendo", "horrendo", "estupendo", "brando", "nefando", "hediondo",
        "redondo", "mundo", "segundo", "fundo", "profundo", "comando", "bando", "quando",
    }
)  # fmt: skip
_NOT_INFINITIVES: Final = frozenset({"par", "mar", "lar", "bar", "altar", "lugar", "favor"})
_WORD: Final = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


@lru_cache(maxsize=1)
def _english_votes() -> dict[str, tuple[str, float]]:
    """Lower-case spelling -> (variant, weight) for words on one side only of the lists."""
    to_us, to_gb = variants._english_maps()
    ambiguous = variants._EN_SKIP_TO_US | variants._EN_SKIP_TO_GB | EN_BOTH
    british = (set(to_us) | set(to_gb.values())) - ambiguous
    american = (set(to_gb) | set(to_us.values())) - ambiguous
    votes: dict[str, tuple[str, float]] = {}
    for word in british - american:
        votes[word] = ("en-GB", 1.0)
    for word in american - british:
        gb = to_gb.get(word)
        oxford = gb is not None and gb == word.replace("iz", "is").replace("yz", "ys")
        votes[word] = ("en-US", _OXFORD_WEIGHT if oxford else 1.0)
    return votes


@lru_cache(maxsize=1)
def _portuguese_votes() -> dict[str, tuple[str, float]]:
    """Lower-case word -> (variant, weight) from the documented pt-BR / pt-PT pairs."""
    br_to_pt = variants.portuguese_map("pt-pt")
    brazilian = (set(br_to_pt) | _PT_EXTRA_BR) - _PT_SHARED_BR
    european = {w for w in br_to_pt.values() if " " not in w} | _PT_EXTRA_PT
    european -= variants._PT_NOT_TO_BR | _PT_SHARED_PT
    votes: dict[str, tuple[str, float]] = {}
    for word in brazilian - european:
        votes[word] = ("pt-BR", 1.0)
    for word in european - brazilian:
        votes[word] = ("pt-PT", 1.0)
    return votes


@lru_cache(maxsize=1)
def _progressive() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(estar + gerund, estar a + infinitive) patterns."""
    estar = "|".join(sorted(variants.PT_ESTAR, key=len, reverse=True))
    gerund = re.compile(
        rf"(?<![\w'’-])(?:{estar}) ([^\W\d_]+(?:ando|endo|indo|ondo))(?![\w'’-])",
        re.IGNORECASE,
    )
    infinitive = re.compile(
        rf"(?<![\w'’-])(?:{estar}) a ([^\W\d_]+(?:ar|er|ir)|pôr)(?![\w'’-])", re.IGNORECASE
    )
    return gerund, infinitive


def _read(line: str) -> tuple[list[str], str]:
    """Lower-case plain words of ``line`` (less capitalised words inside a sentence), and
    ``line`` with its protected spans (code, quotes, links...) blanked out."""
    words: list[str] = []
    parts: list[str] = []
    sentence_start = True
    for token in tokenize(line):
        kind = token.kind
        if kind == WORD:
            word = token.text
            if sentence_start or not word[0].isupper():
                words.append(word.lower())
            sentence_start = False
            parts.append(word)
        elif kind in (SPACE, BREAK, PUNCT):
            if kind == BREAK or token.text[0] in ".!?":
                sentence_start = True
            parts.append(token.text)
        else:
            parts.append(" ")
    return words, "".join(parts)


def _winner(tally: dict[str, float]) -> str | None:
    """The variant with the most votes; ``None`` for no votes or a tie."""
    (first, most), (_, second) = sorted(tally.items(), key=lambda kv: -kv[1])
    return first if most > second else None


def detect_variant(text: str, language: str) -> str | None:
    """``en-GB``/``en-US`` for ``language`` ``en``, ``pt-PT``/``pt-BR`` for ``pt``, from the
    spellings of ``text``; ``None`` when the text shows none, the two sides tie, or
    ``language`` is another language (only its base counts: ``en-us`` is ``en``). ``text``
    should be prose: inline code, quotes and links are skipped, but code blocks of a markup
    language are not recognised."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    if not isinstance(language, str):
        raise TypeError("language must be a str such as 'en' or 'pt'")
    base = language.strip().lower().replace("_", "-").split("-")[0]
    if base not in ("en", "pt"):
        return None
    sample = text[:MAX_CHARS]
    votes = _english_votes() if base == "en" else _portuguese_votes()
    patterns: list[re.Pattern[str]] = []
    if base == "pt":
        patterns = [pattern for pattern, _ in _PT_PHRASES]
        patterns.extend(_progressive())
    # Most lines hold no evidence at all: the tokenizer (which knows what is protected) runs
    # only on the lines that might. Its tokens never cross a line break.
    tally = dict.fromkeys(("en-GB", "en-US") if base == "en" else ("pt-BR", "pt-PT"), 0.0)
    keys = votes.keys()
    for line in sample.split("\n"):
        if keys.isdisjoint(_WORD.findall(line.lower())) and not any(
            pattern.search(line) for pattern in patterns
        ):
            continue
        words, plain = _read(line)
        for word in words:
            vote = votes.get(word)
            if vote is not None:
                tally[vote[0]] += vote[1]
        if base == "pt":
            _portuguese_grammar(plain, tally)
    return _winner(tally)


def _portuguese_grammar(plain: str, tally: dict[str, float]) -> None:
    """Add the votes of the phrases and of the progressive forms in ``plain`` to ``tally``."""
    for pattern, variant in _PT_PHRASES:
        tally[variant] += len(pattern.findall(plain))
    gerund, infinitive = _progressive()
    tally["pt-BR"] += sum(
        1 for m in gerund.finditer(plain) if m.group(1).lower() not in _NOT_GERUNDS
    )
    tally["pt-PT"] += sum(
        1 for m in infinitive.finditer(plain) if m.group(1).lower() not in _NOT_INFINITIVES
    )
