"""Typed settings with defaults, parsed leniently: a bad value is reported and the default used.

The same keys come from the user config file, editor settings (section ``rephrase``, camelCase),
initialization options, the project file ``.rephrase.toml`` and the environment; which source may
set which key, and in what order they are laid over each other, is decided by
:func:`rephrase_ls.config.user_config.compose`. Here: the keys, their parsing, and :func:`merge`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from rephrase_ls.config.per_language import EVERY, Pairs, normal_key, select, union
from rephrase_ls.service.config import validate_base_url
from rephrase_ls.service.models import (
    PREFER_PREFIX,
    TONES,
    WRITING_STYLES,
    Kind,
    UnknownName,
    names_of,
    parse_name,
)

#: The writing styles and tones (one source: :mod:`rephrase_ls.service.models`).
STYLE_NAMES = WRITING_STYLES
TONE_NAMES = TONES
ACTION_GROUPS = ("correct", "improve", "styles", "tones", "convert", "document", "review")
TIERS = ("auto", "paid", "free")
DIAGNOSTIC_MODES = ("offline", "off")
SEVERITIES = ("error", "warning", "information", "hint")
#: Keys whose value may be a table (per language); the files keep them, other tables are not
#: settings.
TABLE_KEYS = frozenset({"words", "disabledRules", "enabledRules"})
#: The codes of the findings (:mod:`rephrase_ls.review.codes`), as ``disabledRules`` and
#: ``enabledRules`` name them.
RULE_CODES = (
    "spelling",
    "doubled-word",
    "punctuation",
    "spacing",
    "capitalisation",
    "variant",
    "unknown-word",
)

#: Keys that may only come from user-level editor settings, never from a project file.
SECRET_KEYS = frozenset({"apiKey"})
#: Keys whose bad value is not shown in a warning: the key itself, and ``apiKeyEnv``, where a
#: writer may well have put the key rather than the name of the variable holding it.
HIDDEN_VALUE_KEYS = SECRET_KEYS | {"apiKeyEnv"}
#: Keys that decide where text and the API key are sent, and which key: only the user's own
#: configuration may set them (see :mod:`rephrase_ls.config.user_config`), never a project file or a
#: workspace folder's settings unless the user trusts that folder.
CONNECTION_KEYS = frozenset({"serverUrl", "freeServerUrl", "tier", "authScheme", "apiKeyEnv"})
CONNECTION_KEYS |= SECRET_KEYS
#: Limits that protect the user: their memory (``diagnosticsMaxSize``), their quota
#: (``maxConcurrency``), their money (``confirmCharacters``). A project file or a folder's
#: settings may lower them, never raise them; raising is for the user's own configuration
#: (:func:`merge` with ``limits_of``).
LIMIT_KEYS = frozenset({"confirmCharacters", "diagnosticsMaxSize", "maxConcurrency"})
#: Among :data:`LIMIT_KEYS`, those an editor that scopes its settings keeps user-level
#: altogether (VS Code's ``application`` scope): the limit on spending.
USER_LIMIT_KEYS = frozenset({"confirmCharacters"})


@dataclass(frozen=True)
class Settings:
    """Everything a user can set. Field docstrings are the user documentation."""

    server_url: str | None = None
    """Base address of the paid-tier service (https, or http to a loopback address)."""
    free_server_url: str | None = None
    """Base address of the free-tier service."""
    tier: Literal["auto", "paid", "free"] = "auto"
    """Which tier the key belongs to; ``auto`` treats a key ending in ``:fx`` as free-tier."""
    auth_scheme: str = "Service-Auth-Key"
    """The scheme word of the ``Authorization`` header."""
    api_key_env: str = "REPHRASE_API_KEY"
    """Name of the environment variable that holds the API key."""
    api_key: str | None = dataclasses.field(default=None, repr=False)
    """The API key itself; accepted from user-level editor settings only, never a project file."""
    language: str | None = None
    """Language of the documents (e.g. ``de``, ``en-GB``); detected when unset."""
    english_variant: Literal["en-US", "en-GB"] = "en-US"
    """What bare ``en`` means."""
    portuguese_variant: Literal["pt-BR", "pt-PT"] = "pt-BR"
    """What bare ``pt`` means."""
    writing_style: str | None = None
    """Writing style of the plain "Improve" action (simple, business, academic, casual)."""
    tone: str | None = None
    """Tone of the plain "Improve" action (enthusiastic, friendly, confident, diplomatic)."""
    prefer_fallback: bool = False
    """Send ``prefer_`` forms: an unsupported style falls back to the default instead of failing."""
    actions: tuple[str, ...] = ACTION_GROUPS
    """Which code actions appear: correct, improve, styles, tones, convert, document, review."""
    max_concurrency: int = 4
    """How many requests run at once (1-16)."""
    timeout: float = 10.0
    """Seconds each request attempt may take (1-300)."""
    words: tuple[str, ...] = ()
    """Words the offline engine must never correct, in every language (``words = [...]``, or
    the ``"*"`` entry of ``words = { de = [...], "*" = [...] }``). Every source adds to it."""
    language_words: Pairs = ()
    """The per-language entries of ``words = { de = [...] }``: ``(language, word)`` pairs."""
    disabled_rules: Pairs = ()
    """The kinds of findings (codes) not shown and not applied by the offline engine's
    Improve: ``disabledRules = ["spacing"]`` or ``{ de = ["capitalisation"] }``, as
    ``(language, code)`` pairs (``""``: every language). Every source adds to it."""
    enabled_rules: Pairs = ()
    """Kinds of findings that are off by default, turned on: ``enabledRules = ["spacing"]``
    shows spacing a rendered document does not show (two spaces inside a Markdown,
    reStructuredText or LaTeX paragraph). ``disabledRules`` wins over it."""
    unknown_word_severity: Literal["error", "warning", "information", "hint"] = "hint"
    """Severity of ``unknown-word`` diagnostics: error, warning, information or hint."""
    exclude: tuple[str, ...] = ()
    """Files to leave alone, as gitignore-style patterns relative to the project's root
    (``["CHANGELOG.md", "vendor/**"]``): no diagnostics, skipped by ``rephrase-ls improve``.
    The patterns of the user config file and of the project file add up."""
    diagnostics: Literal["offline", "off"] = "offline"
    """Show the offline engine's findings as diagnostics while typing (``offline``), or not."""
    diagnostics_on: Literal["type", "save", "open"] = "type"
    """When the offline review runs: as you type (after a pause), when the document is saved,
    or only when it is opened."""
    diagnostic_severity: Literal["error", "warning", "information", "hint"] = "information"
    """Severity of rephrase diagnostics: error, warning, information or hint."""
    diagnostics_max_size: int = 2_000_000
    """The largest document, in characters, the offline engine reviews while you type."""
    confirm_rewrites: bool = False
    """Ask the editor to confirm each rewrite of a whole paragraph before it is applied
    (``needsConfirmation`` on its change annotation; VS Code shows its refactor preview)."""
    confirm_characters: int = 20_000
    """Ask before an action sends more than this many characters to a paid service (0: never
    ask). A project file or folder may only lower it."""
    sources: tuple[str, ...] = field(default=(), compare=False)
    """Where the values came from (for logs), not a setting."""


#: camelCase key → field name.
KEYS: dict[str, str] = {
    "serverUrl": "server_url",
    "freeServerUrl": "free_server_url",
    "tier": "tier",
    "authScheme": "auth_scheme",
    "apiKeyEnv": "api_key_env",
    "apiKey": "api_key",
    "language": "language",
    "englishVariant": "english_variant",
    "portugueseVariant": "portuguese_variant",
    "writingStyle": "writing_style",
    "tone": "tone",
    "preferFallback": "prefer_fallback",
    "actions": "actions",
    "maxConcurrency": "max_concurrency",
    "timeout": "timeout",
    "words": "words",
    "exclude": "exclude",
    "disabledRules": "disabled_rules",
    "enabledRules": "enabled_rules",
    "unknownWordSeverity": "unknown_word_severity",
    "diagnostics": "diagnostics",
    "diagnosticsOn": "diagnostics_on",
    "diagnosticSeverity": "diagnostic_severity",
    "diagnosticsMaxSize": "diagnostics_max_size",
    "confirmRewrites": "confirm_rewrites",
    "confirmCharacters": "confirm_characters",
}


class _Bad(ValueError):
    """A value that cannot be used; the message says what is expected."""


def _opt_str(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise _Bad("expected a string")
    return value.strip() or None


def _url(value: Any) -> str | None:
    text = _opt_str(value)
    if text is None:
        return None

    try:
        validate_base_url(text)
    except Exception as exc:  # InsecureURL or a malformed address
        raise _Bad(str(exc)) from None
    return text.rstrip("/")


def _choice(options: Iterable[str], *, allow_none: bool = False, fold: bool = True):
    opts = tuple(options)

    def check(value: Any) -> str | None:
        text = _opt_str(value)
        if text is None:
            if allow_none:
                return None
            raise _Bad(f"expected one of {', '.join(opts)}")
        for opt in opts:
            if (text.lower() == opt.lower()) if fold else text == opt:
                return opt
        raise _Bad(f"expected one of {', '.join(opts)}")

    return check


def _style(kind: Kind):
    def check(value: Any) -> str | None:
        text = _opt_str(value)
        if text is None or text.lower() == "default":
            return None
        try:
            base, prefer = parse_name(kind, text)
        except UnknownName:
            raise _Bad(f"expected one of {', '.join(names_of(kind))} (or default)") from None
        return PREFER_PREFIX + base if prefer else base

    return check


def _language(value: Any) -> str | None:
    text = _opt_str(value)
    if text is None or text.lower() in ("auto", "detect"):
        return None
    parts = text.replace("_", "-").split("-")
    if not (parts[0].isalpha() and 2 <= len(parts[0]) <= 3) or len(parts) > 2:
        raise _Bad("expected a language code such as de, en-GB or pt-BR")
    return text.replace("_", "-")


def _bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise _Bad("expected true or false")


def _int_range(lo: int, hi: int):
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _Bad(f"expected a whole number from {lo} to {hi}")
        if int(value) != value or not lo <= value <= hi:
            raise _Bad(f"expected a whole number from {lo} to {hi}")
        return int(value)

    return check


def _float_range(lo: float, hi: float):
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise _Bad(f"expected a number of seconds from {lo:g} to {hi:g}")
        if math.isnan(value) or not lo <= value <= hi:
            raise _Bad(f"expected a number of seconds from {lo:g} to {hi:g}")
        return float(value)

    return check


def _actions(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _Bad(f"expected a list drawn from {', '.join(ACTION_GROUPS)}")
    bad = [v for v in value if v not in ACTION_GROUPS]
    if bad:
        raise _Bad(f"unknown action group {bad[0]!r}; expected {', '.join(ACTION_GROUPS)}")
    return tuple(dict.fromkeys(value))


def _word_list(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _Bad("expected a list of words")
    return tuple(w.strip() for w in value if w.strip())


def _patterns(value: Any) -> tuple[str, ...]:
    from rephrase_ls.config.exclude import BadPattern, compile_patterns

    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _Bad('expected a list of gitignore-style patterns, such as ["CHANGELOG.md"]')
    patterns = tuple(dict.fromkeys(p.strip() for p in value if p.strip()))
    try:
        compile_patterns(patterns)
    except BadPattern as exc:
        raise _Bad(str(exc)) from None
    return patterns


def _per_language(value: Any, items: Any, what: str) -> Pairs:
    """A list (every language) or a table of lists keyed by language, as pairs; ``items``
    checks one list and gives its entries."""
    if isinstance(value, dict):
        pairs: list[tuple[str, str]] = []
        for key, entries in value.items():
            if not isinstance(key, str) or not (
                key.strip() == EVERY or _language_key(key.strip())
            ):
                raise _Bad(
                    f"{key!r} is not a language code; expected a list of {what}, or a table "
                    f'of them keyed by language such as {{ de = [...], "*" = [...] }}'
                )
            try:
                listed = items(entries)
            except _Bad as exc:
                raise _Bad(f"{key}: {exc}") from None
            pairs += ((normal_key(key), entry) for entry in listed)
        return tuple(pairs)
    return tuple(("", entry) for entry in items(value))


def _language_key(key: str) -> bool:
    parts = key.replace("_", "-").split("-")
    return parts[0].isalpha() and 2 <= len(parts[0]) <= 3 and len(parts) <= 2


def _words(value: Any) -> tuple[tuple[str, ...], Pairs]:
    """``words``: its every-language words and its per-language pairs."""
    pairs = _per_language(value, _word_list, "words")
    return tuple(w for key, w in pairs if not key), tuple(p for p in pairs if p[0])


def _codes(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise _Bad(f"expected a list drawn from {', '.join(RULE_CODES)}")
    bad = [v for v in value if v.strip().lower() not in RULE_CODES]
    if bad:
        raise _Bad(f"unknown rule {bad[0]!r}; expected codes from {', '.join(RULE_CODES)}")
    return tuple(dict.fromkeys(v.strip().lower() for v in value))


def _rules(value: Any) -> Pairs:
    return _per_language(value, _codes, "rule codes")


def _env_name(value: Any) -> str:
    text = _opt_str(value)
    if text is None or not text.replace("_", "a").isalnum() or text[0].isdigit():
        raise _Bad(
            "expected the name of the environment variable holding the API key, such as "
            "REPHRASE_API_KEY, not the key itself"
        )
    return text


#: An HTTP token (RFC 9110): what an authentication scheme may be in an ``Authorization`` header.
HTTP_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


def _scheme(value: Any) -> str:
    text = _opt_str(value)
    if text is None or not HTTP_TOKEN.fullmatch(text):
        raise _Bad(
            "expected a single word of ASCII letters, digits and '-' such as Service-Auth-Key: "
            "it goes into the Authorization header, which carries nothing else"
        )
    return text


_PARSERS = {
    "server_url": _url,
    "free_server_url": _url,
    "tier": _choice(TIERS),
    "auth_scheme": _scheme,
    "api_key_env": _env_name,
    "api_key": _opt_str,
    "language": _language,
    "english_variant": _choice(("en-US", "en-GB")),
    "portuguese_variant": _choice(("pt-BR", "pt-PT")),
    "writing_style": _style("writing style"),
    "tone": _style("tone"),
    "prefer_fallback": _bool,
    "actions": _actions,
    "max_concurrency": _int_range(1, 16),
    "timeout": _float_range(1, 300),
    "words": _words,
    "exclude": _patterns,
    "disabled_rules": _rules,
    "enabled_rules": _rules,
    "unknown_word_severity": _choice(SEVERITIES),
    "diagnostics": _choice(DIAGNOSTIC_MODES),
    "diagnostics_on": _choice(("type", "save", "open")),
    "diagnostic_severity": _choice(SEVERITIES),
    "diagnostics_max_size": _int_range(0, 1_000_000_000),
    "confirm_rewrites": _bool,
    "confirm_characters": _int_range(0, 1_000_000_000),
}


#: Settings each source adds to (a project's ``disabledRules`` and ``exclude`` add to the
#: user's), not replaces; ``words`` too (:func:`merge`).
_ADDED_UP = frozenset({"disabled_rules", "enabled_rules", "exclude"})
#: Among them, the lists of ``(language, value)`` pairs.
_PER_LANGUAGE = frozenset({"disabled_rules", "enabled_rules"})


def _limit_order(key: str, value: Any) -> float:
    """A :data:`LIMIT_KEYS` value as a bound: higher protects less (``confirmCharacters`` 0:
    no limit)."""
    return math.inf if key == "confirmCharacters" and value == 0 else float(value)


def _shown_limit(key: str, value: Any) -> str:
    return "0 (no limit)" if _limit_order(key, value) == math.inf else repr(value)


@dataclass(frozen=True)
class SettingWarning:
    """One setting that could not be used."""

    source: str
    key: str
    value: Any
    reason: str

    def __str__(self) -> str:
        shown = "<hidden>" if self.key in HIDDEN_VALUE_KEYS else repr(self.value)
        return (
            f"{self.source}: {self.key} = {shown} is not valid ({self.reason}); "
            "using the default"
        )


def unknown_keys(values: Mapping[str, Any], source: str, also: Iterable[str] = ()) -> list[str]:
    """A warning for each key of a settings file (``values``, from ``source``) that is no
    setting (nor one of ``also``, the file's own keys), naming the key meant when one is close
    (``langauge`` → ``language``). Editor settings are not checked: editors send their own keys
    in the same section."""
    import difflib

    known = [*KEYS, *also]
    allowed = {*known, *_PARSERS}
    by_case = {k.lower(): k for k in known}
    unknown = [key for key in values if key not in allowed]
    warnings = []
    for key in unknown[:MAX_UNKNOWN_KEYS]:
        meant = by_case.get(key.lower().replace("_", "")) or next(
            iter(difflib.get_close_matches(key[:100], known, n=1, cutoff=0.75)), None
        )
        hint = f"; did you mean {meant!r}?" if meant else f"; the keys are listed in {_KEYS_DOC}"
        shown = key if len(key) <= 60 else key[:60] + "…"
        warnings.append(f"{source}: unknown key {shown!r} is ignored{hint}")
    if len(unknown) > MAX_UNKNOWN_KEYS:
        warnings.append(
            f"{source}: {len(unknown) - MAX_UNKNOWN_KEYS} more unknown keys are ignored"
        )
    return warnings


#: How many unknown keys of one file are named (a file of thousands names a few, then counts).
MAX_UNKNOWN_KEYS = 5


#: Where the keys are described (named in the warning for an unknown key).
_KEYS_DOC = "docs/configuration.md (rephrase-ls's documentation)"


def merge(
    base: Settings,
    raw: Mapping[str, Any] | None,
    source: str,
    *,
    allow_secrets: bool = True,
    refuse_connection: str | None = None,
    limits_of: Settings | None = None,
) -> tuple[Settings, list[SettingWarning | str]]:
    """Lay the values of ``raw`` over ``base``; return the result and warnings for bad values.

    Unknown keys are ignored (editors send their own keys in the same section); ``None`` means
    "not set" so the lower layer's value stays. With ``refuse_connection`` (the advice to give),
    the :data:`CONNECTION_KEYS` in ``raw`` are ignored, all named in one warning; a value equal to
    the one ``base`` already has is the user's own setting seen again (an editor answers for a
    folder with the user's values too) and is passed over silently. With ``limits_of`` (the
    user's own settings, for a project file or a folder's settings), a :data:`LIMIT_KEYS` value
    higher than the limit there is ignored with a warning, and the lower layer's value stays.
    """
    warnings: list[SettingWarning | str] = []
    if not raw:
        return base, warnings
    if not isinstance(raw, Mapping):
        return base, [f"{source}: settings must be an object, got {type(raw).__name__}"]
    changes: dict[str, Any] = {}
    refused: list[str] = []
    for key, value in raw.items():
        name = KEYS.get(key) or (key if key in _PARSERS else None)
        if name is None or value is None:
            continue
        camel = key if key in KEYS else next(k for k, v in KEYS.items() if v == name)
        if camel in SECRET_KEYS and not allow_secrets:
            warnings.append(
                f"{source}: {camel} is ignored here: a key in a project file would be "
                "committed; put it in the environment variable or your user settings instead"
            )
            continue
        if refuse_connection is not None and camel in CONNECTION_KEYS:
            try:
                same = _PARSERS[name](value) == getattr(base, name)
            except _Bad:
                same = False
            if not same:
                refused.append(camel)
            continue
        try:
            parsed = _PARSERS[name](value)
        except _Bad as exc:
            warnings.append(SettingWarning(source, camel, value, str(exc)))
            continue
        if limits_of is not None and camel in LIMIT_KEYS:
            mine = getattr(limits_of, name)
            if _limit_order(camel, parsed) > _limit_order(camel, mine):
                warnings.append(
                    f"{source}: {camel} = {_shown_limit(camel, parsed)} is ignored: it "
                    f"is higher than your own limit ({_shown_limit(camel, mine)}), and a project "
                    f"or folder may only lower it. To allow more, set {camel} in your user "
                    "config file or the editor's user settings."
                )
                continue
        if name == "words":
            flat, pairs = parsed
            changes["words"] = tuple(dict.fromkeys((*changes.get("words", base.words), *flat)))
            changes["language_words"] = union(
                changes.get("language_words", base.language_words), pairs
            )
            continue
        if name in _ADDED_UP:
            parsed = union(changes.get(name, getattr(base, name)), parsed)
        changes[name] = parsed
    if refused:
        verb = "is" if len(refused) == 1 else "are"
        warnings.append(
            f"{source}: {', '.join(refused)} {verb} ignored: {refuse_connection}"
        )
    if (
        "writing_style" in changes
        and "tone" in changes
        and changes["writing_style"]
        and changes["tone"]
    ):
        warnings.append(
            f"{source}: writingStyle and tone are both set; they exclude each other, "
            f"so tone = {changes['tone']!r} is ignored"
        )
        changes["tone"] = None
    elif changes.get("writing_style"):
        changes.setdefault("tone", None)
    elif changes.get("tone"):
        changes.setdefault("writing_style", None)
    changes["sources"] = (*base.sources, source)
    return dataclasses.replace(base, **changes), warnings


def to_camel_dict(settings: Settings) -> dict[str, Any]:
    """The settings as camelCase keys, the API key left out."""
    out: dict[str, Any] = {}
    for camel, name in KEYS.items():
        if camel in SECRET_KEYS:
            continue
        value = getattr(settings, name)
        if name == "words" and settings.language_words:
            value = _table(tuple(("", w) for w in value) + settings.language_words)
        elif name in _PER_LANGUAGE:
            value = _table(value) if any(key for key, _ in value) else [v for _, v in value]
        out[camel] = list(value) if isinstance(value, tuple) else value
    return out


def _table(pairs: Pairs) -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for key, value in pairs:
        table.setdefault(key or EVERY, []).append(value)
    return table


def words_for(settings: Settings, target: str | None) -> frozenset[str]:
    """The words listed for a document in ``target`` (``en-us``, ``de``): every language's and
    those listed for its language."""
    return frozenset(settings.words) | select(settings.language_words, target)


def rules_off(settings: Settings, target: str | None) -> frozenset[str]:
    """The codes turned off for a document in ``target`` (``disabledRules``)."""
    return select(settings.disabled_rules, target)


def rules_on(settings: Settings, target: str | None) -> frozenset[str]:
    """The codes turned on for a document in ``target`` (``enabledRules``), less those
    turned off."""
    return select(settings.enabled_rules, target) - rules_off(settings, target)
