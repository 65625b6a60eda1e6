"""The offline service's catalogue: the languages, products and exceptions it serves.

Read once per shape from the data files in ``offline/data/`` (the shape of
``service-interface.md``, or with ``later_shape`` the later one of ``service-facts.md``).

The write list says what the engine does: ``writing_style`` and ``tone`` only for the languages
whose styles and tones the engine has rules for (``STYLED_LANGUAGES`` of ``engine.styles``).
With ``documented`` (later shape only), the write list is the one the service's public
documentation describes today instead (``v3-documented.json``): a stand-in for the real service,
whose engine still has no rules for the other languages' styles.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

__all__ = [
    "PRODUCTS",
    "Catalogue",
    "LanguageRow",
    "catalogue",
    "codes_with",
    "language_json",
    "language_name",
]

PRODUCTS: Final = ("translate_text", "write")


def _load(name: str) -> Any:
    data = resources.files("rephrase_ls.offline").joinpath("data", name)
    return json.loads(data.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class LanguageRow:
    """One language of a product's list."""

    lang: str
    name: str
    usable_as_source: bool
    usable_as_target: bool
    features: tuple[str, ...]
    status: str


@dataclass(frozen=True)
class Catalogue:
    """Everything the list endpoints serve, for one shape."""

    languages: Mapping[str, tuple[LanguageRow, ...]]
    products: list[dict[str, Any]]
    exceptions: Mapping[str, list[dict[str, Any]]]
    v2: Mapping[str, list[dict[str, Any]]]


def _rows(raw: list[dict[str, Any]], statuses: Mapping[str, str]) -> tuple[LanguageRow, ...]:
    return tuple(
        LanguageRow(
            lang=item["lang"],
            name=item["name"],
            usable_as_source=bool(item["usable_as_source"]),
            usable_as_target=bool(item["usable_as_target"]),
            features=tuple(item["features"]),
            status=statuses.get(item["lang"], "stable"),
        )
        for item in raw
    )


_STYLE_FEATURES: Final = frozenset({"writing_style", "tone"})


def _truthful(raw: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Write rows without a style or tone feature the engine has no rules for."""
    from rephrase_ls.offline.engine.styles import STYLED_LANGUAGES

    rows = []
    for item in raw:
        if item["lang"].split("-")[0].lower() not in STYLED_LANGUAGES:
            item = {**item, "features": [f for f in item["features"]
                                         if f not in _STYLE_FEATURES]}
        rows.append(item)
    return rows


@cache
def catalogue(later_shape: bool, documented: bool = False) -> Catalogue:
    """The catalogue of one shape, loaded from the data files on first use; ``documented``
    (with ``later_shape``) serves the write list of the service's documentation."""
    if documented and not later_shape:
        raise ValueError("the documented write list exists only in the later shape")
    languages_raw: dict[str, list[dict[str, Any]]] = _load("v3-languages.json")
    v2 = _load("v2-languages.json")
    if not later_shape:
        languages_raw = {**languages_raw, "write": _truthful(languages_raw["write"])}
        return Catalogue(
            languages={p: _rows(languages_raw[p], {}) for p in PRODUCTS},
            products=_load("v3-products.json"),
            exceptions=_load("v3-exceptions.json"),
            v2=v2,
        )
    later = _load("v3-later-shape.json")
    merged = {**languages_raw, **later["languages"]}
    merged["write"] = (_load("v3-documented.json")["write"] if documented
                       else _truthful(merged["write"]))
    return Catalogue(
        languages={p: _rows(merged[p], later["language_status"].get(p, {})) for p in PRODUCTS},
        products=later["resources"],
        exceptions={},
        v2=v2,
    )


def language_json(row: LanguageRow, later_shape: bool) -> dict[str, Any]:
    """A row as ``GET /v3/languages`` lists it in the given shape."""
    obj: dict[str, Any] = {
        "lang": row.lang,
        "name": row.name,
        "usable_as_source": row.usable_as_source,
        "usable_as_target": row.usable_as_target,
    }
    if later_shape:
        obj["features"] = {name: {"status": "stable"} for name in row.features}
        obj["status"] = row.status
    else:
        obj["features"] = list(row.features)
    return obj


def language_name(code: str) -> str:
    """The English name of a language code (the code itself when the catalogue lacks it)."""
    for row in catalogue(False).languages["translate_text"]:
        if row.lang == code:
            return row.name
    return code


def codes_with(rows: tuple[LanguageRow, ...], feature: str) -> frozenset[str]:
    """Lower-case codes of the target languages with ``feature``, plus their base codes.

    The base codes serve requests without ``target_lang``: a detected ``en`` supports a feature
    when some English target variant does.
    """
    codes: set[str] = set()
    for row in rows:
        if row.usable_as_target and feature in row.features:
            codes.add(row.lang.lower())
            codes.add(row.lang.split("-")[0].lower())
    return frozenset(codes)
