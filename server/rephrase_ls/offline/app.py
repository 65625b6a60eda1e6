"""The offline service: a Starlette app that speaks the rephrase service's HTTP interface.

It answers every endpoint of ``service-interface.md`` from its catalogue
(:mod:`rephrase_ls.offline.catalogue`) and improves text with ``offline.engine``
(:mod:`rephrase_ls.offline.request` reads and checks requests, :mod:`rephrase_ls.offline.work`
runs the engine). Testing knobs (latency, failures, hangs, malformed bodies, a cost-control
limit; :mod:`rephrase_ls.offline.knobs`) act on ``POST /v2/write/rephrase`` and on the
corrections-only ``POST /v2/write/correct`` (absent, 404, with ``OfflineOptions.corrections``
off); see ``docs/offline-service.md``.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Final

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rephrase_ls.offline.catalogue import PRODUCTS, catalogue, language_json
from rephrase_ls.offline.knobs import Knobs, OfflineOptions, hang_until_disconnect
from rephrase_ls.offline.request import (
    MAX_BODY_BYTES,
    STATUS_MESSAGES,
    ApiError,
    Caller,
    authenticate,
    parse_fields,
    too_large,
)
from rephrase_ls.offline.work import EngineWork, Result

__all__ = ["MAX_BODY_BYTES", "NO_LIMIT", "OfflineOptions", "OfflineService", "create_app"]

_log = logging.getLogger(__name__)

NO_LIMIT: Final = 1_000_000_000_000
"""The usage endpoint's way of saying "no limit"."""

FREE_TIER_CHARACTER_LIMIT: Final = 500_000


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


def _billing_period() -> dict[str, str]:
    """The current calendar month (UTC) as the service's usage report gives its billing period."""
    now = datetime.now(UTC)
    start = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    end = start.replace(year=start.year + 1, month=1) if start.month == 12 else start.replace(
        month=start.month + 1)
    return {"start_time": start.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "end_time": end.strftime("%Y-%m-%dT%H:%M:%SZ")}


class OfflineService:
    """The endpoints, bound to one set of options, its knobs and its usage counters."""

    def __init__(self, options: OfflineOptions) -> None:
        self.options = options
        self.knobs = Knobs(options)
        self.account_characters = 0
        self.key_characters: dict[str, int] = {}
        self.keys = None if options.keys is None else frozenset(options.keys)
        self.work = EngineWork(options)
        self._never: asyncio.Event | None = None

    def start_workers(self, timeout: float = 600.0) -> None:
        """Start the worker processes now (see :meth:`EngineWork.start`)."""
        self.work.start(timeout)

    def close(self, *, wait: bool = False) -> None:
        """Stop the worker processes (see :meth:`EngineWork.close`)."""
        self.work.close(wait=wait)

    def authenticate(self, request: Request) -> Caller:
        return authenticate(request.headers.get("authorization"), self.options.auth_scheme,
                            self.keys)

    # -- list endpoints ---------------------------------------------------------------------

    def _product_param(self, request: Request) -> str:
        params = request.query_params
        later = self.options.later_shape
        name = "resource" if later else "product"
        if later and "product" in params:
            raise ApiError(400, "The query parameter 'product' was renamed to 'resource'; "
                           "use GET /v3/languages?resource=...")
        values = params.getlist(name)
        if not values:
            raise ApiError(400, f"The query parameter '{name}' is required: one of "
                           f"{', '.join(PRODUCTS)}.")
        if len(values) > 1:
            raise ApiError(400, f"The query parameter '{name}' may be given only once.")
        value = values[0]
        if value not in PRODUCTS:
            raise ApiError(400, f"Unknown {name} {value!r}: expected one of "
                           f"{', '.join(PRODUCTS)}.")
        return value

    async def v3_languages(self, request: Request) -> Response:
        self.authenticate(request)
        product = self._product_param(request)
        later = self.options.later_shape
        rows = catalogue(later, self.options.documented).languages[product]
        return JSONResponse([language_json(row, later) for row in rows])

    async def v3_products(self, request: Request) -> Response:
        self.authenticate(request)
        if self.options.later_shape:
            raise ApiError(404, "Not found: /v3/languages/products was renamed to "
                           "/v3/languages/resources.")
        return JSONResponse(catalogue(False).products)

    async def v3_resources(self, request: Request) -> Response:
        self.authenticate(request)
        if not self.options.later_shape:
            raise ApiError(404, "Not found.")
        return JSONResponse(catalogue(True).products)

    async def v3_exceptions(self, request: Request) -> Response:
        self.authenticate(request)
        if self.options.later_shape:
            raise ApiError(404, "Not found.")
        product = self._product_param(request)
        return JSONResponse(catalogue(False).exceptions.get(product, []))

    async def _params(self, request: Request, names: tuple[str, ...]) -> dict[str, Any]:
        """The parameters ``names`` of a request, from its query string and its body."""
        body = await self._read_body(request)
        return parse_fields(request.headers.get("content-type"), body, request.url.query, names)

    async def v2_languages(self, request: Request) -> Response:
        self.authenticate(request)
        kind = (await self._params(request, ("type",))).get("type", "source")
        if not isinstance(kind, str) or kind.lower() not in ("source", "target"):
            raise ApiError(400, "The parameter 'type' must be 'source' or 'target'.")
        kind = kind.lower()
        headers = {"Deprecation": "true"} if self.options.later_shape else None
        return JSONResponse(catalogue(self.options.later_shape).v2[kind], headers=headers)

    async def usage(self, request: Request) -> Response:
        caller = self.authenticate(request)
        await self._params(request, ())  # none, but a broken body is refused as elsewhere
        if caller.free_tier:
            # Free-tier keys cannot improve text, and no translation happens here.
            limit = self.options.character_limit
            return JSONResponse({
                "character_count": 0,
                "character_limit": FREE_TIER_CHARACTER_LIMIT if limit is None else limit,
            })
        limit = NO_LIMIT if self.options.character_limit is None else self.options.character_limit
        key_count = self.key_characters.get(caller.key, 0)
        period = _billing_period() if self.options.documented else {}
        return JSONResponse({
            **period,
            "character_count": self.account_characters,
            "character_limit": limit,
            "api_key_character_count": key_count,
            "api_key_character_limit": NO_LIMIT,
            "products": [
                {"product_type": "translate", "api_key_unit_count": 0, "account_unit_count": 0},
                {
                    "product_type": "write",
                    "api_key_unit_count": key_count,
                    "account_unit_count": self.account_characters,
                },
            ],
        })

    # -- rephrase ---------------------------------------------------------------------------

    async def rephrase(self, request: Request) -> Response:
        return await self._write(request, correct=False)

    async def correct(self, request: Request) -> Response:
        """``/v2/write/correct``: the engine's corrections, no style rule; 404 when off."""
        if not self.options.corrections:
            raise ApiError(404, "Not found.")
        return await self._write(request, correct=True)

    async def _write(self, request: Request, *, correct: bool) -> Response:
        options, knobs = self.options, self.knobs
        # By default the latency is added to every answer: latency, then the work. With
        # ``overlap_latency`` the work (body, validation, detection, engine) starts at once and
        # runs during the latency, as a real service's processing is part of its response time:
        # the answer comes after max(latency, work). Errors answer in their turn either way.
        # The caller is checked before any work (the body is not even read for a refused one).
        caller: Caller | None = None
        refusal: ApiError | None = None
        try:
            caller = self.authenticate(request)
            if caller.free_tier:
                raise ApiError(403, "Text improvement is available only with a paid-tier key; "
                               "this is a free-tier key.")
        except ApiError as error:
            refusal = error
        work: asyncio.Future[Result] | None = None
        if options.overlap_latency and refusal is None:
            work = asyncio.ensure_future(self._work(request, correct))
        try:
            if options.latency_ms:
                await asyncio.sleep(options.latency_ms / 1000)
            if refusal is not None or caller is None:
                raise refusal or ApiError(403, "Authorization failed.")
            if work is None:
                work = asyncio.ensure_future(self._work(request, correct))
            if knobs.take_hang():
                await _discard(work)  # so that only the hang reads from the connection
                if self._never is None:
                    self._never = asyncio.Event()
                await hang_until_disconnect(request, self._never)
            failure = knobs.take_failure()
            if failure is not None:
                raise failure

            # 413, 415 and 400 answers come from here, in that order.
            improvements, characters = await work

            limit = options.character_limit
            if limit is not None and self.account_characters >= limit:
                raise ApiError(456, f"Quota exceeded: the account's character limit of {limit} "
                               "characters has been reached.")
        finally:
            if work is not None:
                await _discard(work)

        broken = knobs.take_malformed(improvements)
        if broken is not None:
            return broken

        self.account_characters += characters
        self.key_characters[caller.key] = self.key_characters.get(caller.key, 0) + characters
        return JSONResponse({"improvements": improvements})

    async def _work(self, request: Request, correct: bool) -> Result:
        body = await self._read_body(request)
        fields = parse_fields(request.headers.get("content-type"), body, request.url.query)
        return await self.work.run(fields, correct)

    async def _read_body(self, request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            raise too_large(int(declared))
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise too_large(size, at_least=True)
            chunks.append(chunk)
        return b"".join(chunks)


async def _discard(task: asyncio.Future[Any]) -> None:
    """Cancel a task that is no longer wanted and wait for it, dropping its outcome."""
    if not task.done():
        task.cancel()
        await asyncio.wait({task})
    if not task.cancelled():
        task.exception()  # mark it retrieved, so asyncio does not log it


# --------------------------------------------------------------------------------------------
# The app


def _handler(
    service: OfflineService, method: Callable[[Request], Awaitable[Response]]
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            return await method(request)
        except ApiError as error:
            return JSONResponse({"message": error.message}, status_code=error.status,
                                headers=error.headers)
        except ClientDisconnect:
            # The client went (or its body timed out, answered with 408): no one to answer.
            return Response(status_code=499)
        except Exception:
            # A bug here (or in the engine) is a 500 like the real service's, with a trace ID.
            _log.exception("offline service: %s %s failed", request.method, request.url.path)
            return JSONResponse({"message": "Internal server error."}, status_code=500)

    endpoint.__name__ = method.__name__
    return endpoint


async def _http_exception(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = STATUS_MESSAGES.get(exc.status_code, exc.detail)
    return JSONResponse({"message": message}, status_code=exc.status_code, headers=exc.headers)


async def _server_error(request: Request, exc: Exception) -> Response:
    return JSONResponse({"message": "Internal server error."}, status_code=500)


def create_app(options: OfflineOptions | None = None) -> Starlette:
    """Build a fresh offline service (its own knob and usage counters); ``app.state.offline``
    is its :class:`OfflineService`."""
    service = OfflineService(options or OfflineOptions())
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
        Route("/v2/write/correct", _handler(service, service.correct),
              methods=["GET", "POST"]),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: _http_exception, Exception: _server_error},
    )
    app.state.offline = service
    app.add_middleware(_TraceIdMiddleware)
    return app
