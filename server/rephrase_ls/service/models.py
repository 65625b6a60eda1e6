"""Typed objects of section 2 of the interface, parsed strictly from JSON.

Each ``from_json`` accepts the interface's shape and the later shape described in
service-facts (``features`` as an object, ``needs_*_support``, ``resource``), treats an absent
boolean as false, and raises :class:`MalformedResponse` on anything else. Unknown extra fields
are ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from rephrase_ls.service.errors import MalformedResponse

WRITING_STYLES = ("simple", "business", "academic", "casual")
TONES = ("enthusiastic", "friendly", "confident", "diplomatic")
PREFER_PREFIX = "prefer_"

Endpoint = Literal["rephrase", "correct"]
"""What a request asks of the service: ``rephrase`` (improve the text in a style or tone)."""

Kind = Literal["writing style", "tone"]


class UnknownName(ValueError):
    """A style or tone name that is neither a known name nor ``prefer_`` and one."""

    def __init__(self, kind: Kind, value: str) -> None:
        super().__init__(f"{value!r} is not a {kind}")
        self.kind = kind
        self.value = value

    @property
    def names(self) -> tuple[str, ...]:
        """The names expected."""
        return names_of(self.kind)


def names_of(kind: Kind) -> tuple[str, ...]:
    """The writing styles or the tones."""
    return WRITING_STYLES if kind == "writing style" else TONES


def parse_name(kind: Kind, value: str) -> tuple[str, bool]:
    """``value`` as (base name, asked for its ``prefer_`` form), case and spaces ignored.

    Raises :class:`UnknownName` for anything else.
    """
    low = value.strip().lower()
    base = low.removeprefix(PREFER_PREFIX)
    if base not in names_of(kind):
        raise UnknownName(kind, value)
    return base, low.startswith(PREFER_PREFIX)


DEFAULT_STYLE = "default"
NO_LIMIT = 1_000_000_000_000

T = TypeVar("T")


def _malformed(what: str, detail: str) -> MalformedResponse:
    return MalformedResponse(
        f"The service sent a {what} that rephrase-ls does not understand ({detail}). "
        "Check that the server URL points at the rephrase service."
    )


def _obj(obj: object, what: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _malformed(what, f"expected an object, got {type(obj).__name__}")
    return obj


def _str(obj: dict[str, Any], key: str, what: str, *, optional: bool = False) -> str:
    value = obj.get(key)
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise _malformed(what, f"field '{key}' missing or not a string")
    return value


def _opt_str(obj: dict[str, Any], key: str, what: str) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _malformed(what, f"field '{key}' is not a string")
    return value


def _opt_text(obj: dict[str, Any], key: str, what: str) -> str | None:
    """An optional short text shown to the writer (a date): ``None`` when absent or not a
    string of at most 64 printable characters, rather than failing the whole answer."""
    value = obj.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > 64:
        return None
    return value.strip() if value.isprintable() else None


def _bool(obj: dict[str, Any], *keys: str, what: str) -> bool:
    """The first present key among ``keys``; absent (or null) means false."""
    for key in keys:
        value = obj.get(key)
        if value is None:
            continue
        if not isinstance(value, bool):
            raise _malformed(what, f"field '{key}' is not a boolean")
        return value
    return False


def _int(obj: dict[str, Any], key: str, what: str, *, optional: bool = False) -> int | None:
    value = obj.get(key)
    if value is None:
        if optional:
            return None
        raise _malformed(what, f"field '{key}' missing")
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _malformed(what, f"field '{key}' is not a non-negative integer")
    return value


def _feature_names(value: object, what: str) -> frozenset[str]:
    """``features`` as an array of names (interface) or an object name → details (later)."""
    if value is None:
        return frozenset()
    if isinstance(value, list):
        if not all(isinstance(v, str) for v in value):
            raise _malformed(what, "'features' holds something other than names")
        return frozenset(value)
    if isinstance(value, dict):
        if not all(isinstance(v, dict) or v is None or v is True for v in value.values()):
            raise _malformed(what, "'features' object values are not objects")
        return frozenset(value)
    raise _malformed(what, "'features' is neither an array nor an object")


def parse_list(obj: object, parse: Callable[[object], T], what: str) -> tuple[T, ...]:
    """Parse a JSON array with ``parse`` for each element."""
    if not isinstance(obj, list):
        raise _malformed(what, f"expected an array, got {type(obj).__name__}")
    return tuple(parse(item) for item in obj)


@dataclass(frozen=True)
class Language:
    """A v3 language object (section 2.1)."""

    lang: str
    usable_as_source: bool
    usable_as_target: bool
    features: frozenset[str]
    status: str | None = None

    @classmethod
    def from_json(cls, obj: object) -> Language:
        what = "language"
        o = _obj(obj, what)
        lang = _str(o, "lang", what)
        if not lang:
            raise _malformed(what, "empty 'lang'")
        return cls(
            lang=lang,
            usable_as_source=_bool(o, "usable_as_source", what=what),
            usable_as_target=_bool(o, "usable_as_target", what=what),
            features=_feature_names(o.get("features"), what),
            status=_opt_str(o, "status", what),
        )


@dataclass(frozen=True)
class Feature:
    """A feature of a product (section 2.2); ``needs_*_support`` are the later names."""

    name: str
    required_on_source: bool
    required_on_target: bool

    @classmethod
    def from_json(cls, obj: object, name: str | None = None) -> Feature:
        """Parse a feature object; ``name`` is given when the features came as an object."""
        what = "product feature"
        o = _obj(obj, what) if obj is not None else {}
        if name is None:
            name = _str(o, "name", what)
        if not name:
            raise _malformed(what, "empty 'name'")
        return cls(
            name=name,
            required_on_source=_bool(o, "required_on_source", "needs_source_support", what=what),
            required_on_target=_bool(o, "required_on_target", "needs_target_support", what=what),
        )


@dataclass(frozen=True)
class Product:
    """A product object (section 2.2), or a ``resource`` of the later shape."""

    name: str
    features: tuple[Feature, ...]

    @classmethod
    def from_json(cls, obj: object) -> Product:
        what = "product"
        o = _obj(obj, what)
        key = "name" if "name" in o else "resource"
        name = _str(o, key, what)
        if not name:
            raise _malformed(what, "empty name")
        raw = o.get("features")
        features: tuple[Feature, ...]
        if raw is None:
            features = ()
        elif isinstance(raw, list):
            features = tuple(Feature.from_json(f) for f in raw)
        elif isinstance(raw, dict):
            features = tuple(Feature.from_json(v, name=k) for k, v in raw.items())
        else:
            raise _malformed(what, "'features' is neither an array nor an object")
        return cls(name=name, features=features)

    def feature(self, name: str) -> Feature | None:
        """The feature called ``name``, if the product has it."""
        return next((f for f in self.features if f.name == name), None)


@dataclass(frozen=True)
class PairException:
    """A language pair exception (section 2.3): its features are authoritative."""

    source_lang: str
    target_lang: str
    features: frozenset[str]

    @classmethod
    def from_json(cls, obj: object) -> PairException:
        what = "language pair exception"
        o = _obj(obj, what)
        return cls(
            source_lang=_str(o, "source_lang", what),
            target_lang=_str(o, "target_lang", what),
            features=_feature_names(o.get("features"), what),
        )


@dataclass(frozen=True)
class V2Language:
    """A v2 language object (section 2.4)."""

    language: str
    name: str
    supports_formality: bool

    @classmethod
    def from_json(cls, obj: object) -> V2Language:
        what = "v2 language"
        o = _obj(obj, what)
        language = _str(o, "language", what)
        if not language:
            raise _malformed(what, "empty 'language'")
        return cls(
            language=language,
            name=_str(o, "name", what, optional=True),
            supports_formality=_bool(o, "supports_formality", what=what),
        )


@dataclass(frozen=True)
class Improvement:
    """One element of a rephrase response (section 2.6)."""

    text: str
    target_language: str
    detected_source_language: str

    @classmethod
    def from_json(cls, obj: object) -> Improvement:
        what = "improvement"
        o = _obj(obj, what)
        return cls(
            text=_str(o, "text", what),
            target_language=_str(o, "target_language", what),
            detected_source_language=_str(o, "detected_source_language", what),
        )


def _limit(value: int | None) -> int | None:
    return None if value is None or value >= NO_LIMIT else value


@dataclass(frozen=True)
class ProductUsage:
    """One element of the ``products`` array of the usage endpoint."""

    product_type: str
    api_key_unit_count: int | None
    account_unit_count: int | None

    @classmethod
    def from_json(cls, obj: object) -> ProductUsage:
        what = "product usage"
        o = _obj(obj, what)
        return cls(
            product_type=_str(o, "product_type", what),
            api_key_unit_count=_int(o, "api_key_unit_count", what, optional=True),
            account_unit_count=_int(o, "account_unit_count", what, optional=True),
        )


@dataclass(frozen=True)
class Usage:
    """The usage report; a limit of 1000000000000 or an absent limit is ``None`` (no limit)."""

    character_count: int
    character_limit: int | None
    api_key_character_count: int | None = None
    api_key_character_limit: int | None = None
    products: tuple[ProductUsage, ...] = ()
    start_time: str | None = None
    """The billing period's start (ISO 8601, as the service wrote it), when given."""
    end_time: str | None = None
    """The billing period's end, when given."""

    def product(self, product_type: str) -> ProductUsage | None:
        """The per-product counts of ``product_type`` (``write``, ``translate``), if given."""
        return next((p for p in self.products if p.product_type == product_type), None)

    @classmethod
    def from_json(cls, obj: object) -> Usage:
        what = "usage report"
        o = _obj(obj, what)
        count = _int(o, "character_count", what)
        assert count is not None
        raw_products = o.get("products")
        products = (
            () if raw_products is None else parse_list(raw_products, ProductUsage.from_json, what)
        )
        return cls(
            character_count=count,
            character_limit=_limit(_int(o, "character_limit", what, optional=True)),
            api_key_character_count=_int(o, "api_key_character_count", what, optional=True),
            api_key_character_limit=_limit(_int(o, "api_key_character_limit", what, optional=True)),
            products=products,
            start_time=_opt_text(o, "start_time", what),
            end_time=_opt_text(o, "end_time", what),
        )


def parse_improvements(obj: object, expected: int) -> tuple[Improvement, ...]:
    """Parse a rephrase response that must hold exactly ``expected`` improvements."""
    what = "rephrase response"
    o = _obj(obj, what)
    items = o.get("improvements")
    if not isinstance(items, list):
        raise _malformed(what, "no 'improvements' array")
    if len(items) != expected:
        raise _malformed(what, f"{len(items)} improvements for {expected} texts")
    return tuple(Improvement.from_json(item) for item in items)
