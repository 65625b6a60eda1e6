"""The offline service: a Starlette app that speaks the rephrase service's HTTP interface.

It answers every endpoint of ``service-interface.md`` from the data files in ``offline/data/``
and improves text with ``offline.engine``. Testing knobs (latency, failures, hangs, malformed
bodies, a cost-control limit) act on ``POST /v2/write/rephrase``; see ``docs/offline-service.md``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Final
from urllib.parse import parse_qsl

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rephrase_ls.offline.workers import WorkerDied, WorkerPool

__all__ = [
    "MAX_BODY_BYTES",
    "NO_LIMIT",
    "TONES",
    "WRITING_STYLES",
    "OfflineOptions",
    "create_app",
]

_log = logging.getLogger(__name__)

MAX_BODY_BYTES: Final = 10 * 1024
"""Largest rephrase request body accepted, in bytes (interface section 8)."""

NO_LIMIT: Final = 1_000_000_000_000
"""The usage endpoint's way of saying "no limit"."""

WRITING_STYLES: Final = ("simple", "business", "academic", "casual")
TONES: Final = ("enthusiastic", "friendly", "confident", "diplomatic")
PREFER_PREFIX: Final = "prefer_"
FREE_TIER_SUFFIX: Final = ":fx"
FREE_TIER_CHARACTER_LIMIT: Final = 500_000
PRODUCTS: Final = ("translate_text", "write")
RETRY_AFTER_STATUSES: Final = frozenset({429, 503, 529})


@dataclass
class OfflineOptions:
    """How an offline service instance behaves. Everything is off by default.

    ``keys``: only these keys are accepted (``None``: any non-empty key). ``fail``: pairs
    ``(status, count)``, consumed in order: the next ``count`` rephrase requests answer
    ``status``. ``hang``: the next N rephrase requests never answer. ``malformed``: the next N
    answer 200 with a body that breaks the interface. ``character_limit``: the account's
    cost-control limit (456 once reached). ``retry_after``: seconds sent in ``Retry-After`` with
    429/503/529. ``later_shape``: serve the v3 lists in the service's later shape.
    ``workers``: 0 runs detection and the engine in threads of this process (the embedded mode);
    N > 0 runs them in N worker processes, so concurrent requests use several cores.
    ``preload``: worker processes load every language's engine data when they start (needs
    ``workers``); see :meth:`start_workers`.
    """

    keys: tuple[str, ...] | None = field(default=None, repr=False)
    auth_scheme: str = "Service-Auth-Key"
    latency_ms: float = 0.0
    fail: list[tuple[int, int]] = field(default_factory=list)
    hang: int = 0
    malformed: int = 0
    character_limit: int | None = None
    known_words: frozenset[str] = frozenset()
    retry_after: float = 1.0
    later_shape: bool = False
    workers: int = 0
    preload: bool = False
    overlap_latency: bool = False

    def __post_init__(self) -> None:
        if not self.auth_scheme or any(c.isspace() for c in self.auth_scheme):
            raise ValueError("auth_scheme must be a non-empty word without spaces")
        if self.keys is not None:
            if not self.keys:
                raise ValueError("keys must name at least one key (or be None to accept any)")
            for key in self.keys:
                if not isinstance(key, str) or not key.strip() or any(c.isspace() for c in key):
                    raise ValueError("every key must be a non-empty string without spaces")
        if self.latency_ms < 0:
            raise ValueError("latency_ms must not be negative")
        for entry in self.fail:
            if len(entry) != 2:
                raise ValueError("fail entries are (status, count) pairs")
            status, count = entry
            if not 400 <= status <= 599:
                raise ValueError(f"fail status {status} is not an HTTP error status (400-599)")
            if count < 1:
                raise ValueError("fail count must be at least 1")
        if self.hang < 0 or self.malformed < 0:
            raise ValueError("hang and malformed counts must not be negative")
        if self.character_limit is not None and self.character_limit < 0:
            raise ValueError("character_limit must not be negative")
        if self.retry_after < 0:
            raise ValueError("retry_after must not be negative")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) \
                or self.workers < 0:
            raise ValueError("workers must be a whole number >= 0 (0: threads in this process)")
        if self.preload and not self.workers:
            raise ValueError("preload needs worker processes (workers >= 1)")


# --------------------------------------------------------------------------------------------
# Data


def _load(name: str) -> Any:
    data = resources.files("rephrase_ls.offline").joinpath("data", name)
    return json.loads(data.read_text(encoding="utf-8"))


@dataclass(frozen=True)
class _LangRow:
    lang: str
    name: str
    usable_as_source: bool
    usable_as_target: bool
    features: tuple[str, ...]
    status: str


@dataclass(frozen=True)
class _Catalogue:
    """Everything the list endpoints serve, for one shape."""

    languages: Mapping[str, tuple[_LangRow, ...]]
    products: list[dict[str, Any]]
    exceptions: Mapping[str, list[dict[str, Any]]]
    v2: Mapping[str, list[dict[str, Any]]]


def _rows(raw: list[dict[str, Any]], statuses: Mapping[str, str]) -> tuple[_LangRow, ...]:
    return tuple(
        _LangRow(
            lang=item["lang"],
            name=item["name"],
            usable_as_source=bool(item["usable_as_source"]),
            usable_as_target=bool(item["usable_as_target"]),
            features=tuple(item["features"]),
            status=statuses.get(item["lang"], "stable"),
        )
        for item in raw
    )


@cache
def _catalogue(later_shape: bool) -> _Catalogue:
    """Load the data files once per shape (lazily, on first use)."""
    languages_raw: dict[str, list[dict[str, Any]]] = _load("v3-languages.json")
    v2 = _load("v2-languages.json")
    if not later_shape:
        return _Catalogue(
            languages={p: _rows(languages_raw[p], {}) for p in PRODUCTS},
            products=_load("v3-products.json"),
            exceptions=_load("v3-exceptions.json"),
            v2=v2,
        )
    later = _load("v3-later-shape.json")
    merged = {**languages_raw, **later["languages"]}
    return _Catalogue(
        languages={p: _rows(merged[p], later["language_status"].get(p, {})) for p in PRODUCTS},
        products=later["resources"],
        exceptions={},
        v2=v2,
    )


def _language_json(row: _LangRow, later_shape: bool) -> dict[str, Any]:
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


# --------------------------------------------------------------------------------------------
# State and helpers


class _ApiError(Exception):
    """An error answer: ``{"message": ...}`` with a status and optional headers."""

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = dict(headers or {})

    def __reduce__(self) -> tuple[Any, ...]:
        # Raised in worker processes: it must survive pickling with all three fields.
        return (_ApiError, (self.status, self.message, self.headers))


@dataclass
class _Caller:
    key: str
    free_tier: bool


@dataclass
class _State:
    """Mutable per-app state: knob counters and usage counters."""

    fail: list[list[int]]
    hang: int
    malformed: int
    malformed_served: int = 0
    account_characters: int = 0
    key_characters: dict[str, int] = field(default_factory=dict)
    never: asyncio.Event | None = None


def _error_response(error: _ApiError) -> JSONResponse:
    return JSONResponse({"message": error.message}, status_code=error.status, headers=error.headers)


_STATUS_MESSAGES: Final[Mapping[int, str]] = {
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


class _TraceIdMiddleware:
    """Adds an ``X-Trace-ID`` header to every HTTP response (pure ASGI, streaming-safe)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        trace_id = uuid.uuid4().hex

        async def send_with_trace(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-trace-id", trace_id.encode("ascii")))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_trace)


class _OfflineService:
    """The endpoints, bound to one set of options and one state."""

    def __init__(self, options: OfflineOptions) -> None:
        self.options = options
        self.state = _State(
            fail=[[status, count] for status, count in options.fail],
            hang=options.hang,
            malformed=options.malformed,
        )
        self.keys = None if options.keys is None else frozenset(options.keys)
        self._pool: WorkerPool | None = None

    # -- engine workers -----------------------------------------------------------------------

    def _workers(self) -> WorkerPool:
        if self._pool is None:
            self._pool = WorkerPool(
                self.options.workers,
                _init_worker,
                (self.options.known_words, self.options.preload),
                name="rephrase-ls-engine",
            )
        return self._pool

    def start_workers(self, timeout: float = 600.0) -> None:
        """Start every worker process now, blocking until all are ready (with ``preload``, until
        each has loaded the engine's data); a no-op without worker processes.

        Without this, workers start on the first request, and each loads a language's data on
        its first request in that language.
        """
        if self.options.workers:
            self._workers().start(timeout)

    def close(self, *, wait: bool = False) -> None:
        """Stop the worker processes (requests waiting for them fail); with ``wait``, until
        they have exited."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close(wait=wait)

    async def _process(self, fields: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
        """Validate and improve, off the event loop: in a worker process or a thread."""
        later = self.options.later_shape
        if not self.options.workers:
            # A worker thread keeps the event loop (in the embedded mode, the language server's)
            # responsive meanwhile.
            return await asyncio.to_thread(_process_fields, fields, later,
                                           self.options.known_words)
        try:
            result: tuple[list[dict[str, Any]], int] = await self._workers().run(
                _worker_process_fields, fields, later)
        except WorkerDied as exc:
            # Killed, out of memory: this request fails; the pool has started a replacement.
            _log.error("offline service: %s", exc)
            raise _ApiError(500, "Internal server error: the engine process working on this "
                            "request stopped; please retry.") from None
        return result

    # -- auth -------------------------------------------------------------------------------

    def authenticate(self, request: Request) -> _Caller:
        header = request.headers.get("authorization")
        scheme = self.options.auth_scheme
        if header is None:
            raise _ApiError(403, f"Authorization failed: send the header 'Authorization: {scheme} "
                            "<key>'.")
        parts = header.strip().split(None, 1)
        if len(parts) != 2 or parts[0].lower() != scheme.lower():
            raise _ApiError(403, f"Authorization failed: the Authorization header must read "
                            f"'{scheme} <key>'.")
        key = parts[1].strip()
        if not key or (self.keys is not None and key not in self.keys):
            raise _ApiError(403, "Authorization failed: the key is not valid. Check your API key.")
        return _Caller(key=key, free_tier=key.endswith(FREE_TIER_SUFFIX))

    # -- list endpoints ---------------------------------------------------------------------

    def _product_param(self, request: Request) -> str:
        params = request.query_params
        later = self.options.later_shape
        name = "resource" if later else "product"
        if later and "product" in params:
            raise _ApiError(400, "The query parameter 'product' was renamed to 'resource'; "
                            "use GET /v3/languages?resource=...")
        values = params.getlist(name)
        if not values:
            raise _ApiError(400, f"The query parameter '{name}' is required: one of "
                            f"{', '.join(PRODUCTS)}.")
        if len(values) > 1:
            raise _ApiError(400, f"The query parameter '{name}' may be given only once.")
        value = values[0]
        if value not in PRODUCTS:
            raise _ApiError(400, f"Unknown {name} {value!r}: expected one of "
                            f"{', '.join(PRODUCTS)}.")
        return value

    async def v3_languages(self, request: Request) -> Response:
        self.authenticate(request)
        product = self._product_param(request)
        later = self.options.later_shape
        rows = _catalogue(later).languages[product]
        return JSONResponse([_language_json(row, later) for row in rows])

    async def v3_products(self, request: Request) -> Response:
        self.authenticate(request)
        if self.options.later_shape:
            raise _ApiError(404, "Not found: /v3/languages/products was renamed to "
                            "/v3/languages/resources.")
        return JSONResponse(_catalogue(False).products)

    async def v3_resources(self, request: Request) -> Response:
        self.authenticate(request)
        if not self.options.later_shape:
            raise _ApiError(404, "Not found.")
        return JSONResponse(_catalogue(True).products)

    async def v3_exceptions(self, request: Request) -> Response:
        self.authenticate(request)
        if self.options.later_shape:
            raise _ApiError(404, "Not found.")
        product = self._product_param(request)
        return JSONResponse(_catalogue(False).exceptions.get(product, []))

    async def _params(self, request: Request, names: tuple[str, ...]) -> dict[str, Any]:
        """The parameters ``names`` of a request, from its query string and its body."""
        body = await self._read_body(request)
        return _parse_fields(request.headers.get("content-type"), body, request.url.query,
                             names)

    async def v2_languages(self, request: Request) -> Response:
        self.authenticate(request)
        kind = (await self._params(request, ("type",))).get("type", "source")
        if not isinstance(kind, str) or kind.lower() not in ("source", "target"):
            raise _ApiError(400, "The parameter 'type' must be 'source' or 'target'.")
        kind = kind.lower()
        headers = {"Deprecation": "true"} if self.options.later_shape else None
        return JSONResponse(_catalogue(self.options.later_shape).v2[kind], headers=headers)

    async def usage(self, request: Request) -> Response:
        caller = self.authenticate(request)
        await self._params(request, ())  # none, but a broken body is refused as elsewhere
        state = self.state
        if caller.free_tier:
            # Free-tier keys cannot improve text, and no translation happens here.
            limit = self.options.character_limit
            return JSONResponse({
                "character_count": 0,
                "character_limit": FREE_TIER_CHARACTER_LIMIT if limit is None else limit,
            })
        limit = NO_LIMIT if self.options.character_limit is None else self.options.character_limit
        key_count = state.key_characters.get(caller.key, 0)
        return JSONResponse({
            "character_count": state.account_characters,
            "character_limit": limit,
            "api_key_character_count": key_count,
            "api_key_character_limit": NO_LIMIT,
            "products": [
                {"product_type": "translate", "api_key_unit_count": 0, "account_unit_count": 0},
                {
                    "product_type": "write",
                    "api_key_unit_count": key_count,
                    "account_unit_count": state.account_characters,
                },
            ],
        })

    # -- rephrase ---------------------------------------------------------------------------

    async def rephrase(self, request: Request) -> Response:
        options, state = self.options, self.state
        # By default the latency is added to every answer: latency, then the work. With
        # ``overlap_latency`` the work (body, validation, detection, engine) starts at once and
        # runs during the latency, as a real service's processing is part of its response time:
        # the answer comes after max(latency, work). Errors answer in their turn either way.
        # The caller is checked before any work (the body is not even read for a refused one).
        caller: _Caller | None = None
        refusal: _ApiError | None = None
        try:
            caller = self.authenticate(request)
            if caller.free_tier:
                raise _ApiError(403, "Text improvement is available only with a paid-tier key; "
                                "this is a free-tier key.")
        except _ApiError as error:
            refusal = error
        work: asyncio.Future[tuple[list[dict[str, Any]], int]] | None = None
        if options.overlap_latency and refusal is None:
            work = asyncio.ensure_future(self._work(request))
        try:
            if options.latency_ms:
                await asyncio.sleep(options.latency_ms / 1000)
            if refusal is not None or caller is None:
                raise refusal or _ApiError(403, "Authorization failed.")
            if work is None:
                work = asyncio.ensure_future(self._work(request))
            if state.hang > 0:
                state.hang -= 1
                await _discard(work)  # so that only _hang reads from the connection
                await self._hang(request)
            if state.fail:
                entry = state.fail[0]
                status = entry[0]
                entry[1] -= 1
                if entry[1] <= 0:
                    state.fail.pop(0)
                headers = {}
                if status in RETRY_AFTER_STATUSES:
                    headers["Retry-After"] = _format_seconds(options.retry_after)
                message = _STATUS_MESSAGES.get(status, f"Error {status} (simulated).")
                raise _ApiError(status, message, headers)

            # 413, 415 and 400 answers come from here, in that order.
            improvements, characters = await work

            limit = options.character_limit
            if limit is not None and state.account_characters >= limit:
                raise _ApiError(456, f"Quota exceeded: the account's character limit of {limit} "
                                "characters has been reached.")
        finally:
            if work is not None:
                await _discard(work)

        if state.malformed > 0:
            state.malformed -= 1
            state.malformed_served += 1
            return _malformed(improvements, state.malformed_served)

        state.account_characters += characters
        state.key_characters[caller.key] = state.key_characters.get(caller.key, 0) + characters
        return JSONResponse({"improvements": improvements})

    async def _work(self, request: Request) -> tuple[list[dict[str, Any]], int]:
        body = await self._read_body(request)
        fields = _parse_fields(request.headers.get("content-type"), body, request.url.query)
        return await self._process(fields)

    async def _hang(self, request: Request) -> None:
        """Never answer: wait for an event nobody sets, until the client goes away."""
        if self.state.never is None:
            self.state.never = asyncio.Event()
        never = asyncio.ensure_future(self.state.never.wait())
        gone = asyncio.ensure_future(_wait_disconnect(request))
        try:
            await asyncio.wait({never, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            never.cancel()
            gone.cancel()
        # The client has gone; this answer is never delivered.
        raise _ApiError(499, "Client closed the request.")

    async def _read_body(self, request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            raise _too_large(int(declared))
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise _too_large(size, at_least=True)
            chunks.append(chunk)
        return b"".join(chunks)


async def _wait_disconnect(request: Request) -> None:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return


async def _discard(task: asyncio.Future[Any]) -> None:
    """Cancel a task that is no longer wanted and wait for it, dropping its outcome."""
    if not task.done():
        task.cancel()
        await asyncio.wait({task})
    if not task.cancelled():
        task.exception()  # mark it retrieved, so asyncio does not log it


def _format_seconds(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


def _too_large(size: int, *, at_least: bool = False) -> _ApiError:
    amount = f"more than {MAX_BODY_BYTES}" if at_least else str(size)
    return _ApiError(413, f"Request entity too large: the body is {amount} bytes; at most "
                     f"{MAX_BODY_BYTES} bytes are allowed. Split the texts over several requests.")


def _malformed(improvements: list[dict[str, Any]], serial: int) -> Response:
    """A 200 answer that breaks the interface, in one of four ways chosen by ``serial``."""
    variant = (serial - 1) % 4
    if variant == 0:
        return JSONResponse({"result": improvements})
    if variant == 1:
        return JSONResponse({"improvements": [*improvements, improvements[-1]]})
    if variant == 2:
        return JSONResponse({"improvements": [{"target_language": i["target_language"]}
                                              for i in improvements]})
    return Response("<html><body>upstream hiccup</body></html>", status_code=200,
                    media_type="text/html")


# --------------------------------------------------------------------------------------------
# Request parsing and validation


_FIELDS: Final = ("text", "target_lang", "writing_style", "tone")
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
        raise _ApiError(400, "The query string is not valid UTF-8 (after percent-decoding).") \
            from None


def _parse_fields(
    content_type: str | None, body: bytes, query: str = "", names: tuple[str, ...] = _FIELDS
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
            raise _ApiError(400, "The request body is not valid UTF-8.") from None
        if _json_depth_over(decoded, _MAX_JSON_DEPTH):
            raise _ApiError(400, f"The request body nests JSON arrays and objects deeper than "
                            f"{_MAX_JSON_DEPTH} levels.")
        try:
            data = json.loads(decoded)
        except json.JSONDecodeError as exc:
            raise _ApiError(400, f"The request body is not valid JSON: {exc.msg} at position "
                            f"{exc.pos}.") from None
        except (ValueError, RecursionError) as exc:
            # Such as an integer of more digits than Python converts (sys.get_int_max_str_digits).
            raise _ApiError(400, f"The request body is not acceptable JSON: {exc}.") from None
        if not isinstance(data, dict):
            raise _ApiError(400, "The request body must be a JSON object.")
        sources.append(("JSON body", [(name, data[name]) for name in names if name in data]))
    elif media == "application/x-www-form-urlencoded":
        try:
            form = parse_qsl(body.decode("utf-8"), keep_blank_values=True, errors="strict")
        except UnicodeDecodeError:
            raise _ApiError(400, "The form body is not valid UTF-8 (after percent-decoding).") \
                from None
        sources.append(("form body", form))
    elif body:
        shown = media or "none"
        raise _ApiError(415, f"Unsupported Content-Type ({shown}): send application/json or "
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
                        raise _ApiError(400, "The field 'text' is given both in the query "
                                        "string and the JSON body; send it in one place.")
                    fields["text"] = value  # checked by _validate: a list of strings
                    text_places.append(place)
                    continue
                texts.append(value)
                text_places.append(place)
                continue
            if name in fields:
                raise _ApiError(400, f"The field '{name}' may be given only once.")
            fields[name] = value
    if texts:
        if "text" in fields:
            raise _ApiError(400, "The field 'text' is given both in the query string and the "
                            "JSON body; send it in one place.")
        fields["text"] = texts
    return fields


@dataclass(frozen=True)
class _Job:
    texts: list[str]
    languages: list[str]  # the detected base code of each text
    target: str | None  # canonical target code (e.g. "en-US"), or None
    target_echo: str | None  # what the client sent
    writing_style: str | None
    tone: str | None
    style_langs: frozenset[str]  # codes (lower case) that support writing styles
    tone_langs: frozenset[str]  # codes (lower case) that support tones
    scanned: list[list[tuple[str, str]] | None]  # per text, its tokens.scan() when it was read


def _optional_string(fields: Mapping[str, Any], name: str) -> str | None:
    value = fields.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _ApiError(400, f"The field '{name}' must be a string.")
    return value


def _check_value(name: str, value: str | None, allowed: tuple[str, ...]) -> None:
    if value is None:
        return
    plain = value[len(PREFER_PREFIX):] if value.startswith(PREFER_PREFIX) else value
    if value == "default" or plain in allowed:
        return
    choices = ", ".join(("default", *allowed, *(PREFER_PREFIX + v for v in allowed)))
    raise _ApiError(400, f"Unknown {name} {value!r}: expected one of {choices}.")


def _language_name(code: str) -> str:
    for row in _catalogue(False).languages["translate_text"]:
        if row.lang == code:
            return row.name
    return code


_TEXT_SAMPLE: Final = 3000
_JOINED_SAMPLE: Final = 6000


def _sample(text: str, limit: int) -> str:
    """The head of ``text`` (at most ``limit`` characters, cut at a space): enough to detect a
    language, and it keeps detection cheap on 10 KiB requests."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = head.rfind(" ", limit // 2)
    return head[:cut] if cut > 0 else head


def _codes_with(rows: tuple[_LangRow, ...], feature: str) -> frozenset[str]:
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


def _validate(fields: Mapping[str, Any], later_shape: bool) -> _Job:
    from rephrase_ls.offline import engine
    from rephrase_ls.offline.engine.tokens import scan

    texts = fields.get("text")
    if texts is None:
        raise _ApiError(400, "The field 'text' is required: a list of strings.")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise _ApiError(400, "The field 'text' must be a list of strings.")
    if not texts:
        raise _ApiError(400, "The field 'text' must hold at least one string.")
    for index, text in enumerate(texts):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise _ApiError(400, f"text[{index}] is not valid UTF-8 text (it holds a lone "
                            "surrogate).") from None

    rows = _catalogue(later_shape).languages["write"]
    targets = {row.lang.lower(): row.lang for row in rows if row.usable_as_target}
    # Tones follow the ``tone`` feature when the list names one, else ``writing_style``.
    tone_feature = "tone" if any("tone" in row.features for row in rows) else "writing_style"
    style_langs = _codes_with(rows, "writing_style")
    tone_langs = _codes_with(rows, tone_feature)

    target_echo = _optional_string(fields, "target_lang")
    target: str | None = None
    if target_echo is not None:
        target = targets.get(target_echo.lower())
        if target is None:
            raise _ApiError(400, f"Value for 'target_lang' not supported: {target_echo!r}; "
                            f"expected one of {', '.join(targets.values())}.")

    writing_style = _optional_string(fields, "writing_style")
    tone = _optional_string(fields, "tone")
    if writing_style is not None and tone is not None:
        raise _ApiError(400, "'writing_style' and 'tone' cannot be combined; send only one.")
    _check_value("writing_style", writing_style, WRITING_STYLES)
    _check_value("tone", tone, TONES)

    # A text short enough to be read whole for detection is tokenized once, for detection
    # and the engine.
    scanned = [list(scan(text)) if len(text) <= _TEXT_SAMPLE else None for text in texts]
    detected = [
        engine.detect_language(_sample(text, _TEXT_SAMPLE), pieces)
        for text, pieces in zip(texts, scanned, strict=True)
    ]
    # The texts read together decide for those too short to tell on their own; when every
    # text told, reading them again together adds nothing.
    joined: str | None = None
    if len(texts) == 1:
        joined = detected[0]
    elif None in detected:
        joined = engine.detect_language(
            _sample("\n\n".join(_sample(t, _TEXT_SAMPLE) for t in texts), _JOINED_SAMPLE))
    languages: list[str] = []
    if target is not None:
        base = target.split("-")[0].lower()
        for code in [joined, *detected]:
            if code is not None and code != base:
                raise _ApiError(400, f"The texts are in {_language_name(code)} ({code}) but "
                                f"target_lang is {target}; translating and improving at once "
                                "is not supported.")
        languages = [base] * len(texts)
    else:
        for index, code in enumerate(detected):
            lang = code or joined
            if lang is None:
                raise _ApiError(400, f"Could not detect the language of text[{index}]; send "
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
                raise _ApiError(400, f"The language {shown} does not support {plural}; "
                                f"{name} {value!r} cannot be used (use '{PREFER_PREFIX}{value}' "
                                "to fall back to the default).")

    return _Job(
        texts=list(texts),
        languages=languages,
        target=target,
        target_echo=target_echo,
        writing_style=writing_style,
        tone=tone,
        style_langs=style_langs,
        tone_langs=tone_langs,
        scanned=scanned,
    )


def _process_fields(
    fields: Mapping[str, Any], later_shape: bool, known_words: frozenset[str]
) -> tuple[list[dict[str, Any]], int]:
    """Validate a request's fields and improve its texts: the improvements and the characters
    billed. Raises :class:`_ApiError` for a request the service refuses."""
    job = _validate(fields, later_shape)
    return _improve_all(job, known_words), sum(len(text) for text in job.texts)


# Worker processes (``OfflineOptions.workers``): the app's known words, set once per process.
_worker_known_words: frozenset[str] = frozenset()

#: One text per language, to load the engine's data in a worker (``preload``).
_PRELOAD_TEXTS: Final = (
    ("en", "This is is a short text to load the lists."),
    ("de", "Dies ist ein kurzer Text, um die Listen zu laden."),
    ("es", "Este es un texto corto para cargar las listas."),
    ("fr", "Ceci est un texte court pour charger les listes."),
    ("it", "Questo è un testo breve per caricare gli elenchi."),
    ("pt", "Este é um texto curto para carregar as listas."),
)


def _init_worker(known_words: frozenset[str], preload: bool) -> None:
    """Runs once in each worker process when it starts (it exits when the service's end of its
    socket closes, see :mod:`rephrase_ls.offline.workers`)."""
    global _worker_known_words
    _worker_known_words = known_words
    if preload:
        from rephrase_ls.offline import engine

        for lang, text in _PRELOAD_TEXTS:
            engine.detect_language(text)
            for target in engine.SUPPORTED_TARGETS:
                if target.split("-")[0] == lang:
                    engine.improve(text, target, known_words=known_words)


def _worker_process_fields(
    fields: Mapping[str, Any], later_shape: bool
) -> tuple[list[dict[str, Any]], int]:
    return _process_fields(fields, later_shape, _worker_known_words)


def _improve_all(job: _Job, known_words: frozenset[str]) -> list[dict[str, Any]]:
    """Run the engine on every text of a validated request; the response's improvements."""
    from rephrase_ls.offline import engine

    improvements = []
    # A word the request's texts (parts of one document) write twice is meant: never corrected.
    context = engine.repeated_words(job.texts) if len(job.texts) > 1 else frozenset()
    for text, lang, scanned in zip(job.texts, job.languages, job.scanned, strict=True):
        improved = engine.improve(
            text,
            (job.target or lang).lower(),
            writing_style=_resolve(job.writing_style, lang, job.style_langs),
            tone=_resolve(job.tone, lang, job.tone_langs),
            known_words=known_words,
            scanned=scanned,
            context_words=context,
        )
        improvements.append({
            "text": improved,
            "target_language": job.target_echo if job.target_echo is not None else lang,
            "detected_source_language": lang,
        })
    return improvements


def _resolve(value: str | None, lang: str, supported: frozenset[str]) -> str | None:
    """The engine's style or tone for one text: ``None`` for default or an unsupported prefer_."""
    if value is None or value == "default":
        return None
    if value.startswith(PREFER_PREFIX):
        return value[len(PREFER_PREFIX):] if lang.lower() in supported else None
    return value


# --------------------------------------------------------------------------------------------
# The app


def _handler(
    service: _OfflineService, method: Callable[[Request], Awaitable[Response]]
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            return await method(request)
        except _ApiError as error:
            return _error_response(error)
        except Exception:
            # A bug here (or in the engine) is a 500 like the real service's, with a trace ID.
            _log.exception("offline service: %s %s failed", request.method, request.url.path)
            return JSONResponse({"message": "Internal server error."}, status_code=500)

    endpoint.__name__ = method.__name__
    return endpoint


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = _STATUS_MESSAGES.get(exc.status_code, exc.detail)
    return JSONResponse({"message": message}, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"message": "Internal server error."}, status_code=500)


def create_app(options: OfflineOptions | None = None) -> Starlette:
    """Build a fresh offline service (its own knob and usage counters)."""
    service = _OfflineService(options or OfflineOptions())
    routes = [
        Route("/v3/languages", _handler(service, service.v3_languages), methods=["GET"]),
        Route("/v3/languages/products", _handler(service, service.v3_products), methods=["GET"]),
        Route("/v3/languages/resources", _handler(service, service.v3_resources),
              methods=["GET"]),
        Route("/v3/languages/exceptions", _handler(service, service.v3_exceptions),
              methods=["GET"]),
        # The version 2 endpoints take their parameters from the query string and from a form
        # or JSON body, with GET or POST, as the real service does.
        Route("/v2/languages", _handler(service, service.v2_languages),
              methods=["GET", "POST"]),
        Route("/v2/usage", _handler(service, service.usage), methods=["GET", "POST"]),
        Route("/v2/write/rephrase", _handler(service, service.rephrase),
              methods=["GET", "POST"]),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_exception, Exception: _server_error},
    )
    app.state.offline = service
    app.add_middleware(_TraceIdMiddleware)
    return app
