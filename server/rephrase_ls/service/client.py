"""The async client of the rephrase service (every endpoint of the interface).

Retries follow service-facts: 429, 529, any 5xx, connection errors and time-outs are retried up
to ``max_retries`` times, waiting 1 s × 1.6^n (capped at 120 s, ±23 % jitter) or the
``Retry-After`` the service sent, never past the call's ``deadline``. Sleep, randomness and the
clock are injectable so tests run instantly. Cancelling the awaiting task cancels the requests in
flight. The key is only ever put into the Authorization header; error messages and log lines are
built from scrubbed text.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
import platform
import random
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import UTC, datetime
from json.encoder import encode_basestring as _encode_basestring
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

import httpx

from rephrase_ls import __version__
from rephrase_ls.service.batching import DEFAULT_LIMIT, BatchPlan, plan_batches
from rephrase_ls.service.config import ServiceConfig, validate_base_url
from rephrase_ls.service.errors import (
    BadRequest,
    ConnectionFailed,
    FreeTierNotAllowed,
    InsecureURL,
    InvalidRequest,
    MalformedResponse,
    NotConfigured,
    NotFound,
    RequestTimeout,
    RequestTooLarge,
    ServiceError,
    error_for_status,
    scrub,
    shorten,
)
from rephrase_ls.service.models import (
    DEFAULT_STYLE,
    PREFER_PREFIX,
    Improvement,
    Language,
    PairException,
    Product,
    Usage,
    V2Language,
    parse_improvements,
    parse_list,
)

if TYPE_CHECKING:
    from rephrase_ls.service.capabilities import Capabilities

log = logging.getLogger("rephrase_ls.service")

BACKOFF_START = 1.0
BACKOFF_FACTOR = 1.6
BACKOFF_CAP = 120.0
JITTER = 0.23

# Characters json.dumps(ensure_ascii=False) escapes inside a string.
_JSON_ESCAPED = re.compile(r'[\x00-\x1f"\\]')

PRODUCTS_PATH = "/v3/languages/products"
RESOURCES_PATH = "/v3/languages/resources"
REPHRASE_PATH = "/v2/write/rephrase"
#: After a 413 a request is resent in halves, but never in bodies smaller than this.
MIN_SPLIT_LIMIT = 512
#: Largest response body read, in bytes after decompression (a 10 KiB request's answer is a few
#: tens of KiB; the language lists, a few KiB). Reading stops there: a body that never ends or
#: a compressed bomb costs at most this much memory.
MAX_RESPONSE_BYTES = 16 * 1024 * 1024

Sleep = Callable[[float], Awaitable[object]]
ProgressCallback = Callable[[int, int], None]
#: ``on_result(text_indexes, improvements)``: texts (indexes into ``texts``) whose every piece
#: has arrived, and their improvements, as each request completes.
ResultCallback = Callable[[list[int], list[Improvement]], None]


def user_agent(suffix: str | None = None) -> str:
    """``rephrase-ls/<version> python/<x.y.z> httpx/<v>`` plus the editor suffix, if any."""
    agent = (
        f"rephrase-ls/{__version__} python/{platform.python_version()} httpx/{httpx.__version__}"
    )
    if suffix and suffix.strip():
        agent += f" {suffix.strip()}"
    return agent


def encode_json(obj: object) -> bytes:
    """The compact JSON encoding used for request bodies (the bytes the size limit counts)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def json_text_size(text: str) -> int:
    """Bytes ``text`` takes inside a compact JSON body, without its quotes (C-speed).

    ``json.dumps(..., ensure_ascii=False)`` escapes strings with ``encode_basestring``; this is
    the same function, so the size is exact. Raises ``UnicodeEncodeError`` on lone surrogates.
    """
    if _JSON_ESCAPED.search(text) is None:
        return len(text.encode())  # nothing to escape: the UTF-8 bytes themselves
    return len(_encode_basestring(text).encode()) - 2


def backoff_delay(retry: int, rng: random.Random) -> float:
    """Wait before retry number ``retry`` (0 for the first): 1 s × 1.6^n, ≤ 120 s, ±23 %."""
    base = min(BACKOFF_CAP, BACKOFF_START * BACKOFF_FACTOR**retry)
    return base * (1.0 + rng.uniform(-JITTER, JITTER))


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (seconds or an HTTP date), or ``None``."""
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        current = datetime.now(UTC).timestamp() if now is None else now
        return max(0.0, when.timestamp() - current)
    if seconds != seconds or seconds < 0 or seconds == float("inf"):
        return None
    return seconds


def _says_product_renamed(message: str | None) -> bool:
    if not message:
        return False
    lower = message.lower()
    return "product" in lower and ("renam" in lower or "resource" in lower)


def _first_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The first ``ServiceError`` inside ``group`` (else its first exception)."""
    flat: list[BaseException] = []

    def walk(g: BaseExceptionGroup[BaseException]) -> None:
        for exc in g.exceptions:
            if isinstance(exc, BaseExceptionGroup):
                walk(exc)
            else:
                flat.append(exc)

    walk(group)
    for exc in flat:
        if isinstance(exc, ServiceError):
            return exc
    return flat[0] if flat else group


class _TooLarge(Exception):
    """A response body longer than the cap (see :func:`_read_capped`)."""


async def _read_capped(response: httpx.Response, limit: int) -> bytes:
    """The decoded (decompressed) body of a streamed ``response``; raises :class:`_TooLarge`
    as soon as more than ``limit`` bytes have come, without reading further."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


def _with_body(streamed: httpx.Response, body: bytes) -> httpx.Response:
    """A read response with the decoded ``body`` of ``streamed`` (same status, headers but
    those that described the encoded body, request)."""
    headers = [
        (name, value)
        for name, value in streamed.headers.multi_items()
        if name.lower() not in ("content-encoding", "content-length", "transfer-encoding")
    ]
    return httpx.Response(
        streamed.status_code, headers=headers, content=body, request=streamed.request
    )


def _check_shape(url: str) -> str:
    """With an explicit transport only the shape matters: ``http(s)://host``."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise InsecureURL(f"The server URL {url!r} must look like http(s)://HOST.")
    return url


def _merge(plan: BatchPlan, results: Sequence[Sequence[Improvement]]) -> list[Improvement]:
    """One improvement per text of ``plan``: split pieces joined, languages from the first."""
    joined = plan.join([[imp.text for imp in got] for got in results])
    firsts: list[Improvement | None] = [None] * plan.text_count
    for got, owners in zip(results, plan.owners, strict=True):
        for imp, owner in zip(got, owners, strict=True):
            if firsts[owner] is None:
                firsts[owner] = imp
    merged: list[Improvement] = []
    for text, first in zip(joined, firsts, strict=True):
        assert first is not None
        merged.append(Improvement(text, first.target_language, first.detected_source_language))
    return merged


class _Assembly:
    """Joins each text's improvement as soon as all its pieces have arrived."""

    def __init__(self, plan: BatchPlan) -> None:
        self.plan = plan
        self.left = [0] * plan.text_count
        for owners in plan.owners:
            for owner in owners:
                self.left[owner] += 1
        # Pieces of split texts so far: ((request, position), sent, improvement), any order.
        self.pieces: dict[int, list[tuple[tuple[int, int], str, Improvement]]] = {}
        self.done: list[Improvement | None] = [None] * plan.text_count

    def add(self, r: int, got: Sequence[Improvement]) -> tuple[list[int], list[Improvement]]:
        """Take request ``r``'s improvements; the texts they complete, and their improvements."""
        texts: list[int] = []
        improvements: list[Improvement] = []
        for j, (sent, owner, improvement) in enumerate(
            zip(self.plan.requests[r], self.plan.owners[r], got, strict=True)
        ):
            self.left[owner] -= 1
            if self.left[owner] == 0 and owner not in self.pieces:
                whole = improvement  # sent whole: nothing to join
            else:
                parts = self.pieces.setdefault(owner, [])
                parts.append(((r, j), sent, improvement))
                if self.left[owner]:
                    continue
                del self.pieces[owner]
                whole = self._join(parts)
            self.done[owner] = whole
            texts.append(owner)
            improvements.append(whole)
        return texts, improvements

    @staticmethod
    def _join(parts: list[tuple[tuple[int, int], str, Improvement]]) -> Improvement:
        """One text's pieces joined as :meth:`BatchPlan.join` does; languages from the first."""
        parts.sort(key=lambda part: part[0])  # requests complete in any order
        single = BatchPlan(
            requests=(tuple(sent for _, sent, _ in parts),),
            owners=((0,) * len(parts),),
            text_count=1,
        )
        (text,) = single.join([[improvement.text for _, _, improvement in parts]])
        first = parts[0][2]
        return Improvement(text, first.target_language, first.detected_source_language)

    def result(self) -> list[Improvement]:
        finished: list[Improvement] = []
        for improvement in self.done:
            assert improvement is not None, "a text is missing pieces"
            finished.append(improvement)
        return finished


def _check_style(value: str | None, field: str) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not value or not value.replace("_", "").isalnum():
        raise InvalidRequest(f"The {field.replace('_', ' ')} {value!r} is not a valid value.")
    if value == PREFER_PREFIX + DEFAULT_STYLE or value == PREFER_PREFIX:
        raise InvalidRequest(
            f"The {field.replace('_', ' ')} {value!r} does not exist; use 'default' instead."
        )


class ServiceClient:
    """Async client of the rephrase service; use ``async with`` or call ``aclose()``.

    ``transport`` replaces the network (e.g. the embedded offline service); with it the
    https/loopback check of the base address is skipped since no socket is opened.
    ``backend`` says who answers (``"service"`` or ``"offline"``).
    """

    def __init__(
        self,
        config: ServiceConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        backend: str = "service",
        sleep: Sleep | None = None,
        rng: random.Random | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if not isinstance(config, ServiceConfig):
            raise TypeError("config must be a ServiceConfig")
        self.config = config
        self.backend = backend
        self._sleep: Sleep = sleep if sleep is not None else asyncio.sleep
        self._rng = rng if rng is not None else random.Random()
        self._clock = clock if clock is not None else time.monotonic
        self._base_url: str | None = None
        self._base_error: NotConfigured | None = None
        try:
            url = config.base_url
        except NotConfigured as exc:
            # Deferred: the client can exist (and say its backend) before it is configured.
            self._base_error = exc
        else:
            self._base_url = _check_shape(url) if transport is not None else validate_base_url(url)
        self._product_param: Literal["product", "resource"] = "product"
        self._products_path = PRODUCTS_PATH
        self._exceptions_removed = False
        pool = config.max_concurrency + 4
        self._http = httpx.AsyncClient(
            transport=transport,
            headers={"User-Agent": user_agent(config.user_agent_suffix)},
            timeout=config.timeout,
            limits=httpx.Limits(max_connections=pool, max_keepalive_connections=pool),
            follow_redirects=False,
        )

    def __repr__(self) -> str:
        return (
            f"ServiceClient(backend={self.backend!r}, base_url={self._base_url!r}, "
            f"tier={self.config.effective_tier!r})"
        )

    @property
    def base_url(self) -> str:
        """The base address requests go to; raises :class:`NotConfigured` when there is none."""
        if self._base_url is None:
            assert self._base_error is not None
            raise self._base_error
        return self._base_url

    @property
    def uses_resource_parameter(self) -> bool:
        """True once the service said the ``product`` parameter was renamed ``resource``."""
        return self._product_param == "resource"

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> ServiceClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # ----------------------------------------------------------------- transport and retries

    def _secrets(self) -> Iterable[str]:
        key = self.config.api_key
        return (key.reveal(),) if key is not None else ()

    def _headers(self, content_type: str | None) -> dict[str, str]:
        key = self.config.api_key
        if key is None:
            raise NotConfigured(
                "No API key is configured; set REPHRASE_API_KEY (or the API key setting), or "
                "use the offline service."
            )
        headers = {"Authorization": f"{self.config.auth_scheme} {key.reveal()}"}
        if content_type is not None:
            headers["Content-Type"] = content_type
        return headers

    def _deadline_at(self) -> float:
        return self._clock() + self.config.deadline

    def _error_from_response(self, response: httpx.Response, what: str) -> ServiceError:
        trace_id = response.headers.get("X-Trace-ID")
        message: str | None = None
        try:
            body = json.loads(response.content) if response.content else None
        except (ValueError, UnicodeDecodeError, RecursionError):
            body = None
        if isinstance(body, dict) and isinstance(body.get("message"), str):
            message = body["message"]
            code = body.get("code")
            if isinstance(code, str | int) and not isinstance(code, bool) and str(code):
                message = f"{message} (code {code})"
        if message is not None:
            message = shorten(scrub(message, self._secrets())) or None
        if trace_id is not None:
            trace_id = shorten(scrub(trace_id, self._secrets()), 120)
        error = error_for_status(response.status_code, message, trace_id=trace_id, what=what)
        error.retry_after = parse_retry_after(response.headers.get("Retry-After"))
        return error

    async def _attempt(
        self,
        method: str,
        url: str,
        *,
        params: dict[str, str] | None,
        content: bytes | None,
        headers: dict[str, str],
        timeout: float,
        what: str,
    ) -> httpx.Response | ServiceError:
        """One attempt: the 2xx response, or the error it ended in (not raised)."""
        try:
            async with asyncio.timeout(timeout):
                request = self._http.build_request(
                    method, url, params=params, content=content, headers=headers, timeout=timeout
                )
                streamed = await self._http.send(request, stream=True)
                try:
                    body = await _read_capped(streamed, MAX_RESPONSE_BYTES)
                finally:
                    await streamed.aclose()
        except _TooLarge:
            return MalformedResponse(
                f"The service sent an answer to {what} larger than "
                f"{MAX_RESPONSE_BYTES // (1024 * 1024)} MiB; it was not read. Check that the "
                "server URL points at the rephrase service."
            )
        except (TimeoutError, httpx.TimeoutException):
            return RequestTimeout(
                f"The service did not answer {what} within {timeout:.3g} s; check the "
                "connection or try again later."
            )
        except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
            detail = shorten(scrub(str(exc), self._secrets()), 200)
            return InsecureURL(f"The server URL {self.base_url!r} cannot be used ({detail}).")
        except httpx.TransportError as exc:
            detail = shorten(scrub(str(exc) or type(exc).__name__, self._secrets()), 200)
            return ConnectionFailed(
                f"Could not reach the service at {self.base_url} ({detail}); check the server "
                "URL and the network."
            )
        except httpx.DecodingError as exc:
            detail = shorten(scrub(str(exc), self._secrets()), 200)
            return MalformedResponse(f"The service sent a body that cannot be decoded ({detail}).")
        response = _with_body(streamed, body)
        if 200 <= response.status_code < 300:
            return response
        return self._error_from_response(response, what)

    async def _send(
        self,
        method: str,
        path: str,
        *,
        deadline_at: float,
        what: str,
        params: dict[str, str] | None = None,
        content: bytes | None = None,
        content_type: str | None = None,
        expected: frozenset[int] = frozenset(),
    ) -> httpx.Response:
        """Send with retries within ``deadline_at`` and return the 2xx response.

        A failure with a status in ``expected`` (a probe whose refusal is handled) is logged at
        INFO, not WARNING.
        """
        url = self.base_url + path
        headers = self._headers(content_type)
        retry = 0
        while True:
            remaining = deadline_at - self._clock()
            if remaining <= 0:
                raise RequestTimeout(
                    f"The service did not finish {what} within the deadline of "
                    f"{self.config.deadline:.3g} s; try again later."
                )
            outcome = await self._attempt(
                method,
                url,
                params=params,
                content=content,
                headers=headers,
                timeout=min(self.config.timeout, remaining),
                what=what,
            )
            if isinstance(outcome, httpx.Response):
                return outcome
            error = outcome
            status = error.status if error.status is not None else type(error).__name__
            error.retries = retry
            if not error.retryable or retry >= self.config.max_retries:
                log.log(
                    logging.INFO if error.status in expected else logging.WARNING,
                    "%s %s failed: %s (X-Trace-ID %s): %s",
                    method,
                    path,
                    status,
                    error.trace_id,
                    error.message,
                )
                raise error
            delay = (
                error.retry_after
                if error.retry_after is not None
                else backoff_delay(retry, self._rng)
            )
            if self._clock() + delay >= deadline_at:
                log.warning(
                    "%s %s failed: %s (X-Trace-ID %s); not retrying: waiting %.1f s would pass "
                    "the deadline",
                    method,
                    path,
                    status,
                    error.trace_id,
                    delay,
                )
                raise error
            log.info(
                "%s %s failed: %s (X-Trace-ID %s); retry %d of %d in %.2f s",
                method,
                path,
                status,
                error.trace_id,
                retry + 1,
                self.config.max_retries,
                delay,
            )
            await self._sleep(delay)
            retry += 1

    def _json(self, response: httpx.Response, what: str) -> Any:
        try:
            return json.loads(response.content)
        except (ValueError, UnicodeDecodeError, RecursionError):
            # Not JSON, or JSON that Python will not read: nested thousands deep, or an integer
            # of thousands of digits.
            trace = response.headers.get("X-Trace-ID")
            log.warning(
                "%s %s: response is not JSON (X-Trace-ID %s)",
                response.request.method,
                response.request.url.path,
                trace,
            )
            raise MalformedResponse(
                f"The service answered {what} with something that is not JSON; check that the "
                "server URL points at the rephrase service.",
                status=response.status_code,
                trace_id=trace,
            ) from None

    async def _get_json(
        self,
        path: str,
        what: str,
        deadline_at: float,
        params: dict[str, str] | None = None,
        expected: frozenset[int] = frozenset(),
    ) -> Any:
        response = await self._send(
            "GET", path, params=params, deadline_at=deadline_at, what=what, expected=expected
        )
        return self._json(response, what)

    async def _get_for_product(self, path: str, product: str, what: str) -> Any:
        """GET ``path`` for a product, switching to ``resource=`` when the service renamed it."""
        if not isinstance(product, str) or not product.strip():
            raise InvalidRequest(f"A product name is needed, not {product!r}.")
        deadline_at = self._deadline_at()
        param = self._product_param
        try:
            # A 400 here may be the later shape's "renamed to resource", and a 404 a removed
            # endpoint: both are handled, so they are not warnings.
            return await self._get_json(
                path, what, deadline_at, {param: product}, expected=frozenset({400, 404})
            )
        except BadRequest as exc:
            if param != "product" or not _says_product_renamed(exc.service_message):
                raise
            log.info("the service renamed the 'product' parameter to 'resource'; using it")
            self._product_param = "resource"
            return await self._get_json(path, what, deadline_at, {"resource": product})

    # ----------------------------------------------------------------------- endpoints

    async def languages(self, product: str) -> tuple[Language, ...]:
        """``GET /v3/languages?product=``: the languages of a product."""
        data = await self._get_for_product("/v3/languages", product, "the language list")
        return parse_list(data, Language.from_json, "language list")

    async def products(self) -> tuple[Product, ...]:
        """``GET /v3/languages/products`` (or the later ``/v3/languages/resources``)."""
        what = "the product list"
        deadline_at = self._deadline_at()
        try:
            data = await self._get_json(
                self._products_path, what, deadline_at, expected=frozenset({404})
            )
        except NotFound:
            if self._products_path != PRODUCTS_PATH:
                raise
            log.info("%s is gone; using %s", PRODUCTS_PATH, RESOURCES_PATH)
            data = await self._get_json(RESOURCES_PATH, what, deadline_at)
            self._products_path = RESOURCES_PATH
        return parse_list(data, Product.from_json, "product list")

    async def exceptions(self, product: str) -> tuple[PairException, ...]:
        """``GET /v3/languages/exceptions?product=``; none when the endpoint is gone (404)."""
        if self._exceptions_removed:
            return ()
        try:
            data = await self._get_for_product(
                "/v3/languages/exceptions", product, "the language pair exceptions"
            )
        except NotFound:
            log.info("the exceptions endpoint is gone (404): no pair exceptions")
            self._exceptions_removed = True
            return ()
        return parse_list(data, PairException.from_json, "exception list")

    async def v2_languages(self, type: str = "source") -> tuple[V2Language, ...]:
        """``GET /v2/languages?type=source|target``."""
        if type not in ("source", "target"):
            raise InvalidRequest(
                f"The v2 language list type must be 'source' or 'target', not {type!r}."
            )
        data = await self._get_json(
            "/v2/languages", "the v2 language list", self._deadline_at(), {"type": type}
        )
        return parse_list(data, V2Language.from_json, "v2 language list")

    async def usage(self) -> Usage:
        """``GET /v2/usage``."""
        data = await self._get_json("/v2/usage", "the usage report", self._deadline_at())
        return Usage.from_json(data)

    async def rephrase(
        self,
        texts: Sequence[str],
        *,
        target_lang: str | None = None,
        writing_style: str | None = None,
        tone: str | None = None,
        on_progress: ProgressCallback | None = None,
        capabilities: Capabilities | None = None,
        limit: int = DEFAULT_LIMIT,
        on_result: ResultCallback | None = None,
    ) -> list[Improvement]:
        """Improve any number of texts of any length; one improvement per text, in order.

        Texts are packed into requests of at most ``limit`` body bytes (a text too large is
        split and re-joined), sent ``max_concurrency`` at a time; ``on_progress(done, total)``
        is called after each request, and before it ``on_result(text_indexes, improvements)``
        with the texts that request completed (a split text once all its pieces arrived), so
        a caller can use answers while later requests are in flight (the list returned holds
        the same improvements). An exception from a callback fails the call. With
        ``capabilities`` (of the write product), a style or tone without the ``prefer_``
        prefix that the target does not support is refused early.
        A request the service answers 413 is resent in halves (down to 512-byte bodies).
        Any failure fails the whole call (the other requests are cancelled): never partial data.
        """
        if self.config.effective_tier == "free":
            raise FreeTierNotAllowed(
                "Text improvement needs a paid-tier key; the configured key is a free-tier key "
                "(ending in ':fx'). Use a paid-tier key, or the offline service."
            )
        if isinstance(texts, str) or not isinstance(texts, Sequence):
            raise InvalidRequest("texts must be a list of strings, not a single string.")
        texts = list(texts)
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise InvalidRequest(f"Text {i} is a {type(text).__name__}, not a string.")
        if target_lang is not None and (
            not isinstance(target_lang, str) or not target_lang.strip()
        ):
            raise InvalidRequest(f"The target language {target_lang!r} is not a language code.")
        _check_style(writing_style, "writing_style")
        _check_style(tone, "tone")
        if writing_style is not None and tone is not None:
            raise InvalidRequest(
                "A writing style and a tone cannot be used together; choose one of them."
            )
        if capabilities is not None:
            self._check_capabilities(capabilities, target_lang, writing_style, tone)
        if not texts:
            return []

        fields: dict[str, str] = {}
        if target_lang is not None:
            fields["target_lang"] = target_lang
        if writing_style is not None:
            fields["writing_style"] = writing_style
        if tone is not None:
            fields["tone"] = tone

        def encode(pieces: list[str]) -> bytes:
            return encode_json({"text": pieces, **fields})

        try:
            plan = plan_batches(texts, encode, limit, measure=json_text_size)
        except UnicodeEncodeError:
            raise InvalidRequest(
                "A text contains characters that are not valid Unicode (lone surrogates)."
            ) from None
        except ValueError as exc:
            raise InvalidRequest(f"The texts cannot be packed into requests: {exc}.") from None

        total = plan.total_requests
        assembly = _Assembly(plan)
        pending = iter(range(total))
        done = 0
        deadline_at = self._deadline_at()

        async def send(
            pieces: Sequence[str], body_limit: int, body: bytes
        ) -> tuple[Improvement, ...]:
            """One request for ``pieces``, whose encoding the plan made (``body``); on 413, the
            same pieces in smaller requests."""
            try:
                response = await self._send(
                    "POST",
                    REPHRASE_PATH,
                    content=body,
                    content_type="application/json",
                    deadline_at=deadline_at,
                    what="the text improvement request",
                )
            except RequestTooLarge:
                smaller = min(body_limit, len(body)) // 2
                if smaller < MIN_SPLIT_LIMIT:
                    raise
                log.info(
                    "the service found a %d-byte body too large; resending in bodies of at "
                    "most %d bytes",
                    len(body),
                    smaller,
                )
                sub = plan_batches(list(pieces), encode, smaller, measure=json_text_size)
                parts = [
                    await send(request, smaller, body)
                    for request, body in zip(sub.requests, sub.bodies, strict=True)
                ]
                return tuple(_merge(sub, parts))
            data = self._json(response, "the text improvement request")
            try:
                return parse_improvements(data, len(pieces))
            except MalformedResponse as exc:
                exc.trace_id = response.headers.get("X-Trace-ID")
                exc.status = response.status_code
                log.warning(
                    "POST %s: malformed response (X-Trace-ID %s): %s",
                    REPHRASE_PATH,
                    exc.trace_id,
                    exc.message,
                )
                raise

        async def worker() -> None:
            nonlocal done
            for r in pending:
                sent = await send(plan.requests[r], limit, plan.bodies[r])
                completed, improvements = assembly.add(r, sent)
                done += 1
                if on_result is not None and completed:
                    on_result(completed, improvements)
                if on_progress is not None:
                    on_progress(done, total)

        try:
            async with asyncio.TaskGroup() as group:
                for _ in range(min(self.config.max_concurrency, total)):
                    group.create_task(worker())
        except BaseExceptionGroup as eg:
            raise _first_error(eg) from None

        return assembly.result()

    @staticmethod
    def _check_capabilities(
        capabilities: Capabilities,
        target_lang: str | None,
        writing_style: str | None,
        tone: str | None,
    ) -> None:
        if capabilities.product != "write":
            raise InvalidRequest(
                f"Capabilities of the product {capabilities.product!r} cannot judge text "
                "improvement; pass those of 'write'."
            )
        if target_lang is None:
            return
        for value, kind, allowed in (
            (writing_style, "writing style", capabilities.writing_styles(target_lang)),
            (tone, "tone", capabilities.tones(target_lang)),
        ):
            if value is None or value == DEFAULT_STYLE or value.startswith(PREFER_PREFIX):
                continue
            if value not in allowed:
                hint = (
                    f"supported there: {', '.join(allowed)}"
                    if allowed
                    else f"the language has no {kind}s"
                )
                raise InvalidRequest(
                    f"The {kind} '{value}' is not available for {target_lang} ({hint}); use "
                    f"'{PREFER_PREFIX}{value}' to fall back to the default where it is missing."
                )
