"""Variant conversion: en-US <-> en-GB and pt-BR <-> pt-PT.

English uses the spelling lists of the ``breame`` package (Apache-2.0): -ize/-ise, -or/-our,
-er/-re, -og/-ogue, ll/l and many single words, minus the pairs listed in ``_EN_SKIP_TO_US`` and
``_EN_SKIP_TO_GB`` whose right spelling depends on the sense (a computer "program" stays a
"program" in British English; "practice" is also the British noun).

Portuguese uses the documented word pairs in ``_PT_BR_TO_PT`` (stressed e/o before m/n, the
consonants the 1990 agreement dropped only in Portugal, some everyday words) and one grammar
rule: "estar + gerund" (BR) <-> "estar a + infinitive" (PT).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

# British spellings American English also uses, or whose US form depends on the sense.
_EN_SKIP_TO_US: Final = frozenset(
    {
        "aesthete", "aesthetes", "aesthetic", "aesthetics", "aesthetically", "buses", "busing",
        "gases", "dialogue", "dialogues", "disc", "discs", "axe", "tonne", "tonnes", "prologue",
        "prologues", "analogue", "analogues",
    }
)  # fmt: skip
# American spellings British English also uses in some sense (computing, verbs, nouns).
_EN_SKIP_TO_GB: Final = frozenset(
    {
        "program", "programs", "tire", "tires", "meter", "meters", "license", "licenses",
        "licensed", "licensing", "practice", "practices", "draft", "drafts", "disk", "disks",
        "dialog", "dialogs", "ton", "tons", "analog", "prolog", "install", "installs",
    }
)  # fmt: skip


@lru_cache(maxsize=1)
def _english_maps() -> tuple[dict[str, str], dict[str, str]]:
    """(British -> American, American -> British), loaded on first use."""
    from breame.data.spelling_constants import (
        AMERICAN_ENGLISH_SPELLINGS,
        BRITISH_ENGLISH_SPELLINGS,
    )

    to_us = {k: v for k, v in BRITISH_ENGLISH_SPELLINGS.items() if k not in _EN_SKIP_TO_US}
    to_gb = {k: v for k, v in AMERICAN_ENGLISH_SPELLINGS.items() if k not in _EN_SKIP_TO_GB}
    return to_us, to_gb


@lru_cache(maxsize=1)
def english_variant_words() -> frozenset[str]:
    """Every spelling on either side of the English lists (all are correct English)."""
    to_us, to_gb = _english_maps()
    return (
        frozenset(to_us) | frozenset(to_gb) | frozenset(to_us.values()) | frozenset(to_gb.values())
    )


def english_map(target: str) -> dict[str, str]:
    """Lower-case word map into ``target`` (``en-us`` or ``en-gb``)."""
    to_us, to_gb = _english_maps()
    return to_gb if target == "en-gb" else to_us


# Brazilian -> European Portuguese word pairs (lower case). One word each side.
_PT_BR_TO_PT: Final[dict[str, str]] = {
    # stressed e/o before m/n: Brazil writes ê/ô, Portugal é/ó
    "econômico": "económico", "econômica": "económica", "econômicos": "económicos",
    "econômicas": "económicas", "fenômeno": "fenómeno", "fenômenos": "fenómenos",
    "gênero": "género", "gêneros": "géneros", "tênis": "ténis", "bebê": "bebé", "bebês": "bebés",
    "acadêmico": "académico", "acadêmica": "académica", "acadêmicos": "académicos",
    "anônimo": "anónimo", "anônima": "anónima", "atômico": "atómico", "atômica": "atómica",
    "crônico": "crónico", "crônica": "crónica", "eletrônico": "eletrónico",
    "eletrônica": "eletrónica", "eletrônicos": "eletrónicos", "eletrônicas": "eletrónicas",
    "prêmio": "prémio", "prêmios": "prémios", "quilômetro": "quilómetro",
    "quilômetros": "quilómetros", "autônomo": "autónomo", "autônoma": "autónoma",
    "sinônimo": "sinónimo", "sinônimos": "sinónimos", "gênio": "génio", "gênios": "génios",
    "patrimônio": "património", "cerimônia": "cerimónia", "colônia": "colónia",
    "telefônico": "telefónico", "telefônica": "telefónica", "cômico": "cómico",
    "cômodo": "cómodo", "polêmica": "polémica", "polêmico": "polémico", "higiênico": "higiénico",
    "neurônio": "neurónio", "neurônios": "neurónios", "demônio": "demónio",
    "agrônomo": "agrónomo", "astrônomo": "astrónomo", "efêmero": "efémero",
    "ingênuo": "ingénuo", "ingênua": "ingénua", "convênio": "convénio", "milênio": "milénio",
    "anatômico": "anatómico", "gastronômico": "gastronómico", "bônus": "bónus",
    # consonants kept in Portugal or in Brazil
    "recepção": "receção", "aspecto": "aspeto", "aspectos": "aspetos",
    "perspectiva": "perspetiva", "perspectivas": "perspetivas", "espectador": "espetador",
    "espectadores": "espetadores", "contato": "contacto", "contatos": "contactos",
    "infecção": "infeção", "seção": "secção",
    "seções": "secções", "detectar": "detetar", "detectado": "detetado",
    "detecção": "deteção", "registro": "registo", "registros": "registos",
    "registrar": "registar", "registrado": "registado", "registrada": "registada",
    # everyday words
    "ônibus": "autocarro", "trem": "comboio", "trens": "comboios", "celular": "telemóvel",
    "celulares": "telemóveis", "banheiro": "casa de banho",
    "usuário": "utilizador", "usuários": "utilizadores", "usuária": "utilizadora",
    "geladeira": "frigorífico", "xícara": "chávena", "esporte": "desporto",
    "esportes": "desportos", "equipe": "equipa", "equipes": "equipas", "goleiro": "guarda-redes",
    "pedestre": "peão", "câmera": "câmara", "planejamento": "planeamento", "planejar": "planear",
    "planejado": "planeado", "planejada": "planeada", "aeromoça": "hospedeira",
    "sorvete": "gelado", "suco": "sumo", "mouse": "rato",
}  # fmt: skip
# Pairs whose European form has another everyday sense in Brazil: not converted back.
_PT_NOT_TO_BR: Final = frozenset({"câmara", "gelado", "sumo", "rato", "peão", "casa de banho"})
_PT_PT_TO_BR: Final[dict[str, str]] = {
    v: k for k, v in _PT_BR_TO_PT.items() if v not in _PT_NOT_TO_BR and " " not in v
}

# Forms of "estar" that take a progressive complement.
PT_ESTAR: Final = frozenset(
    {
        "estou", "estás", "está", "estamos", "estais", "estão", "estava", "estavas",
        "estávamos", "estavam", "estive", "esteve", "estivemos", "estiveram", "estarei",
        "estará", "estaremos", "estarão", "estaria", "estariam", "esteja", "estejam",
        "estar", "estando", "estivesse", "estivessem",
    }
)  # fmt: skip
_GERUND_ENDINGS: Final = (("ando", "ar"), ("endo", "er"), ("indo", "ir"))


def portuguese_map(target: str) -> dict[str, str]:
    """Lower-case word map into ``target`` (``pt-pt`` or ``pt-br``)."""
    return _PT_BR_TO_PT if target == "pt-pt" else _PT_PT_TO_BR


def gerund_to_infinitive(gerund: str) -> str | None:
    """``fazendo`` -> ``fazer``; ``None`` when ``gerund`` is not a regular gerund."""
    if gerund == "pondo":
        return "pôr"
    for ending, infinitive in _GERUND_ENDINGS:
        if gerund.endswith(ending) and len(gerund) > len(ending):
            return gerund[: -len(ending)] + infinitive
    return None


def infinitive_to_gerund(infinitive: str) -> str | None:
    """``fazer`` -> ``fazendo``; ``None`` when ``infinitive`` is not a regular infinitive."""
    if infinitive == "pôr":
        return "pondo"
    for ending, inf in _GERUND_ENDINGS:
        if infinitive.endswith(inf) and len(infinitive) > len(inf):
            return infinitive[: -len(inf)] + ending
    return None
