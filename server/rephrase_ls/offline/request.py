"""Reading and checking a request to the offline service: the caller, the parameters, the job.

Everything here raises :class:`ApiError` for a request the service refuses, with the status and
message the client sees. :func:`process_fields` (validate, detect, improve) is a plain function
of picklable values, so that it can run in a worker process.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl

from rephrase_ls.offline.catalogue import catalogue, codes_with, language_name
from rephrase_ls.service.models import PREFER_PREFIX, TONES, WRITING_STYLES

__all__ = [
    "FREE_TIER_SUFFIX",
    "MAX_BODY_BYTES",
    "STATUS_MESSAGES",
    "ApiError",
    "Caller",
    "Job",
    "authenticate",
    "parse_fields",
    "process_fields",
    "too_large",
    "validate",
]

MAX_BODY_BYTES: Final = 10 * 1024
"""Largest rephrase request body accepted, in bytes (interface section 8)."""

FREE_TIER_SUFFIX: Final = ":fx"

STATUS_MESSAGES: Final[Mapping[int, str]] = {
    400: "Bad request.",
    403: "Authorization failed.",
    404: "Not found.",
    413: "Request entity too large.",
    415: "Unsupported media type.",
    429: "Too many requests; please wait and retry.",
    456: "Quota exceeded: the character limit has been reached.",
    500: "Internal server error; please retry.",
    502: "Bad gateway; please retry.",
    503: "Service temporarily unavailable; please retry.",
    504: "Gateway timeout; please retry.",
    529: "Too many requests; please wait and retry.",
}
"""The message of each error status when nothing more precise is known."""


class ApiError(Exception):
    """An error answer: ``{"message": ...}`` with a status and optional headers."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in worker processes: it must survive pickling with all three fields.
        return (ApiError, (self.status, self.message, self.headers))


def too_large(size: int, *, at_least: bool = False) -> ApiError:
    """The 413 refusal of a body of ``size`` bytes (``at_least``: more were not read)."""
    amount = f"more than {MAX_BODY_BYTES}" if at_least else str(size)
    return ApiError(413, f"Request entity too large: the body is {amount} bytes; at most "
                    f"{MAX_BODY_BYTES} bytes are allowed. Split the texts over several requests.")


# --------------------------------------------------------------------------------------------
# The caller


@dataclass
class Caller:
    """Who sent a request: the key, and whether it is a free-tier key."""

    key: str
    free_tier: bool


def authenticate(header: str | None, scheme: str, keys: frozenset[str] | None) -> Caller:
    """The caller an ``Authorization`` header names; ``keys``: the accepted keys (``None``:
    any non-empty key)."""
    if header is None:
        raise ApiError(403, f"Authorization failed: send the header 'Authorization: {scheme} "
                       "<key>'.")
    parts = header.strip().split(None, 1)
    if len(parts) != 2 or parts[0].lower() != scheme.lower():
        raise ApiError(403, f"Authorization failed: the Authorization header must read "
                       f"'{scheme} <key>'.")
    key = parts[1].strip()
    if not key or (keys is not None and key not in keys):
        raise ApiError(403, "Authorization failed: the key is not valid. Check your API key.")
    return Caller(key=key, free_tier=key.endswith(FREE_TIER_SUFFIX))


# --------------------------------------------------------------------------------------------
# Parameters


FIELDS: Final = ("text", "target_lang", "writing_style", "tone")
"""The parameters of ``/v2/write/rephrase``."""
_MAX_JSON_DEPTH: Final = 32
"""Deepest nesting of arrays and objects accepted in a JSON body (a request needs 2)."""


def _json_depth_over(body: str, limit: int) -> bool:
    """Whether the JSON text ``body`` nests arrays and objects deeper than ``limit`` (read in
    one pass, outside strings; the parser would recurse once per level)."""
    depth = 0
    in_string = escaped = False
    for char in body:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _query_pairs(query: str) -> list[tuple[str, str]]:
    try:
        return parse_qsl(query, keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise ApiError(400, "The query string is not valid UTF-8 (after percent-decoding).") \
            from None


def parse_fields(
    content_type: str | None, body: bytes, query: str = "", names: tuple[str, ...] = FIELDS
) -> dict[str, Any]:
    """The request's parameters ``names`` as ``{name: value}``, read from the query string and
    from a JSON or form body (as the real service does, whatever the method). ``text`` is always
    a list when present; any other parameter may be given once. An empty body needs no
    Content-Type."""
    sources: list[tuple[str, list[tuple[str, Any]]]] = [("query string", _query_pairs(query))]
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media == "application/json":
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            raise ApiError(400, "The request body is not valid UTF-8.") from None
        if _json_depth_over(decoded, _MAX_JSON_DEPTH):
            raise ApiError(400, f"The request body nests JSON arrays and objects deeper than "
                           f"{_MAX_JSON_DEPTH} levels.")
        try:
            data = json.loads(decoded)
        except json.JSONDecodeError as exc:
            raise ApiError(400, f"The request body is not valid JSON: {exc.msg} at position "
                           f"{exc.pos}.") from None
        except (ValueError, RecursionError) as exc:
            # Such as an integer of more digits than Python converts (sys.get_int_max_str_digits).
            raise ApiError(400, f"The request body is not acceptable JSON: {exc}.") from None
        if not isinstance(data, dict):
            raise ApiError(400, "The request body must be a JSON object.")
        sources.append(("JSON body", [(name, data[name]) for name in names if name in data]))
    elif media == "application/x-www-form-urlencoded":
        try:
            form = parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            raise ApiError(400, "The form body is not valid UTF-8 (after percent-decoding).") \
                from None
        sources.append(("form body", form))
    elif body:
        shown = media or "none"
        raise ApiError(415, f"Unsupported Content-Type ({shown}): send application/json or "
                       "application/x-www-form-urlencoded.")
    fields: dict[str, Any] = {}
    texts: list[Any] = []
    text_places: list[str] = []
    for place, pairs in sources:
        for name, value in pairs:
            if name not in names:
                continue
            if name == "text":
                if place == "JSON body":
                    if "text" in fields or text_places:
                        raise ApiError(400, "The field 'text' is given both in the query "
                                       "string and the JSON body; send it in one place.")
                    fields["text"] = value  # checked by validate(): a list of strings
                    text_places.append(place)
                    continue
                texts.append(value)
                text_places.append(place)
                continue
            if name in fields:
                raise ApiError(400, f"The field '{name}' may be given only once.")
            fields[name] = value
    if texts:
        if "text" in fields:
            raise ApiError(400, "The field 'text' is given both in the query string and the "
                           "JSON body; send it in one place.")
        fields["text"] = texts
    return fields


# --------------------------------------------------------------------------------------------
# The job


@dataclass(frozen=True)
class Job:
    """A validated rephrase request."""

    texts: list[str]
    languages: list[str]  # the detected base code of each text
    target: str | None  # canonical target code (e.g. "en-US"), or None
    target_echo: str | None  # what the client sent
    writing_style: str | None
    tone: str | None
    style_langs: frozenset[str]  # codes (lower case) that support writing styles
    tone_langs: frozenset[str]  # codes (lower case) that support tones


def _optional_string(fields: Mapping[str, Any], name: str) -> str | None:
    value = fields.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, f"The field '{name}' must be a string.")
    return value


def _check_value(name: str, value: str | None, allowed: tuple[str, ...]) -> None:
    if value is None:
        return
    plain = value.removeprefix(PREFER_PREFIX)
    if value == "default" or plain in allowed:
        return
    choices = ", ".join(("default", *allowed, *(PREFER_PREFIX + v for v in allowed)))
    raise ApiError(400, f"Unknown {name} {value!r}: expected one of {choices}.")


_TEXT_SAMPLE: Final = 3000
_JOINED_SAMPLE: Final = 6000


def _sample(text: str, limit: int) -> str:
    """The head of ``text`` (at most ``limit`` characters, cut at a space): enough to detect a
    language."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = head.rfind(" ", limit // 2)
    return head[:cut] if cut > 0 else head


def _texts(fields: Mapping[str, Any]) -> list[str]:
    texts = fields.get("text")
    if texts is None:
        raise ApiError(400, "The field 'text' is required: a list of strings.")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise ApiError(400, "The field 'text' must be a list of strings.")
    if not texts:
        raise ApiError(400, "The field 'text' must hold at least one string.")
    for index, text in enumerate(texts):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise ApiError(400, f"text[{index}] is not valid UTF-8 text (it holds a lone "
                           "surrogate).") from None
    return list(texts)


def validate(
    fields: Mapping[str, Any], later_shape: bool, documented: bool = False, correct: bool = False
) -> Job:
    """Check a rephrase request's fields (``correct``: a corrections-only request's, which
    takes no writing style or tone) and detect its texts' languages."""
    # Imported on the first request: the tokenizer's patterns and the detection profiles.
    import rephrase_ls.text.detect as detect

    texts = _texts(fields)
    rows = catalogue(later_shape, documented).languages["write"]
    targets = {row.lang.lower(): row.lang for row in rows if row.usable_as_target}
    # Tones follow the ``tone`` feature when the list names one, else ``writing_style``.
    tone_feature = "tone" if any("tone" in row.features for row in rows) else "writing_style"
    style_langs = codes_with(rows, "writing_style")
    tone_langs = codes_with(rows, tone_feature)

    target_echo = _optional_string(fields, "target_lang")
    target: str | None = None
    if target_echo is not None:
        target = targets.get(target_echo.lower())
        if target is None:
            raise ApiError(400, f"Value for 'target_lang' not supported: {target_echo!r}; "
                           f"expected one of {', '.join(targets.values())}.")

    if correct:
        for name in ("writing_style", "tone"):
            if fields.get(name) is not None:
                raise ApiError(400, f"The parameter '{name}' is not supported by "
                               "/v2/write/correct (corrections only); use /v2/write/rephrase "
                               "for a writing style or tone.")
    writing_style = _optional_string(fields, "writing_style")
    tone = _optional_string(fields, "tone")
    if writing_style is not None and tone is not None:
        raise ApiError(400, "'writing_style' and 'tone' cannot be combined; send only one.")
    _check_value("writing_style", writing_style, WRITING_STYLES)
    _check_value("tone", tone, TONES)

    detected = [detect.detect_language(_sample(text, _TEXT_SAMPLE)) for text in texts]
    # The texts read together decide for those too short to tell on their own.
    joined: str | None = None
    if len(texts) == 1:
        joined = detected[0]
    elif None in detected:
        joined = detect.detect_language(
            _sample("\n\n".join(_sample(t, _TEXT_SAMPLE) for t in texts), _JOINED_SAMPLE))
    # A few Han characters alone (a kanji heading) are Japanese as well as Chinese: the texts
    # around them (the target, or the texts read together) decide.
    context = target.split("-")[0].lower() if target is not None else joined
    if context is None and "ja" in detected:
        context = "ja"
    if context == "ja":
        detected = [
            "ja" if code == "zh" and detect.is_han_heading(text) else code
            for code, text in zip(detected, texts, strict=True)
        ]
        if joined == "zh" and "ja" in detected and "zh" not in detected:
            joined = "ja"
    languages: list[str] = []
    if target is not None:
        base = target.split("-")[0].lower()
        for code in [joined, *detected]:
            if code is not None and code != base:
                raise ApiError(400, f"The texts are in {language_name(code)} ({code}) but "
                               f"target_lang is {target}; translating and improving at once "
                               "is not supported.")
        languages = [base] * len(texts)
    else:
        for index, code in enumerate(detected):
            lang = code or joined
            if lang is None:
                raise ApiError(400, f"Could not detect the language of text[{index}]; send "
                               "target_lang.")
            languages.append(lang)

    checks = ((writing_style, "writing_style", "writing styles", style_langs),
              (tone, "tone", "tones", tone_langs))
    for value, name, plural, supported in checks:
        if value is None or value == "default" or value.startswith(PREFER_PREFIX):
            continue
        codes = [target.lower()] if target is not None else languages
        for code in codes:
            if code not in supported:
                shown = target if target is not None else code
                raise ApiError(400, f"The language {shown} does not support {plural}; "
                               f"{name} {value!r} cannot be used (use '{PREFER_PREFIX}{value}' "
                               "to fall back to the default).")

    return Job(
        texts=texts,
        languages=languages,
        target=target,
        target_echo=target_echo,
        writing_style=writing_style,
        tone=tone,
        style_langs=style_langs,
        tone_langs=tone_langs,
    )


def _resolve(value: str | None, lang: str, supported: frozenset[str]) -> str | None:
    """The engine's style or tone for one text: ``None`` for default or an unsupported prefer_."""
    if value is None or value == "default":
        return None
    if value.startswith(PREFER_PREFIX):
        return value[len(PREFER_PREFIX):] if lang.lower() in supported else None
    return value


@dataclass(frozen=True)
class Choices:
    """What the writer chose for the engine beyond the request: per-language ``words`` and
    the kinds of changes turned off (``disabledRules``), as ``(language, value)`` pairs
    (:mod:`rephrase_ls.config.per_language`)."""

    language_words: tuple[tuple[str, str], ...] = ()
    disabled_rules: tuple[tuple[str, str], ...] = ()


def improve_all(
    job: Job, known_words: frozenset[str], choices: Choices | None = None
) -> list[dict[str, Any]]:
    """Run the engine on every text of a validated request; the response's improvements.
    ``choices``: the per-language words of each text's target are known words too, and the
    changes of a kind turned off for it are undone
    (:func:`rephrase_ls.review.choice.revert_off`)."""
    import rephrase_ls.offline.engine as engine
    from rephrase_ls.config.per_language import select

    improvements = []
    # A word the request's texts (parts of one document) write twice is meant: never corrected.
    context = engine.repeated_words(job.texts) if len(job.texts) > 1 else frozenset()
    for text, lang in zip(job.texts, job.languages, strict=True):
        target = (job.target or lang).lower()
        words, off = known_words, frozenset[str]()
        if choices is not None:
            words = words | select(choices.language_words, target)
            off = select(choices.disabled_rules, target)
        improved = engine.improve(
            text,
            target,
            writing_style=_resolve(job.writing_style, lang, job.style_langs),
            tone=_resolve(job.tone, lang, job.tone_langs),
            known_words=words,
            context_words=context,
        )
        if off and target in engine.SUPPORTED_TARGETS:
            from rephrase_ls.review.choice import revert_off

            improved = revert_off(text, improved, target, off)
        improvements.append({
            "text": improved,
            "target_language": job.target_echo if job.target_echo is not None else lang,
            "detected_source_language": lang,
        })
    return improvements


def process_fields(
    fields: Mapping[str, Any],
    later_shape: bool,
    known_words: frozenset[str],
    documented: bool = False,
    correct: bool = False,
    choices: Choices | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """Validate a request's fields and improve its texts (``correct``: corrections only, the
    engine without style rules): the improvements and the characters billed. Raises
    :class:`ApiError` for a request the service refuses."""
    job = validate(fields, later_shape, documented, correct)
    return improve_all(job, known_words, choices), sum(len(text) for text in job.texts)
