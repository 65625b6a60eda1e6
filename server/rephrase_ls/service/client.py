"""The async client of the rephrase service: every endpoint of the interface.

Requests, retries and errors are :class:`~rephrase_ls.service.transport.ServiceTransport`'s;
this module builds the requests of each endpoint and reads their answers. ``rephrase`` packs any
number of texts into requests (:mod:`rephrase_ls.service.batching`), sends them concurrently and
joins the answers back into one improvement per text. Cancelling the awaiting task cancels the
requests in flight. Whether the target language supports a style or tone is judged before the
client is called (:func:`rephrase_ls.service.capabilities.check_rephrase_options`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any, Literal, Protocol

import httpx

from rephrase_ls.service.batching import (
    DEFAULT_LIMIT,
    ImprovementAssembly,
    encode_json,
    json_text_size,
    merge_improvements,
    plan_batches,
)
from rephrase_ls.service.config import ServiceConfig
from rephrase_ls.service.errors import (
    BadRequest,
    CorrectionsUnavailable,
    FreeTierNotAllowed,
    InvalidRequest,
    MalformedResponse,
    NotConfigured,
    NotFound,
    RequestTooLarge,
    ServiceError,
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
from rephrase_ls.service.transport import ServiceTransport, Sleep, user_agent

__all__ = [
    "AddressMemory",
    "ListShape",
    "ProgressCallback",
    "ResultCallback",
    "ServiceClient",
    "ShapeMemory",
    "encode_json",
    "json_text_size",
    "user_agent",
]

log = logging.getLogger("rephrase_ls.service")

PRODUCTS_PATH = "/v3/languages/products"
RESOURCES_PATH = "/v3/languages/resources"
REPHRASE_PATH = "/v2/write/rephrase"
CORRECT_PATH = "/v2/write/correct"
#: After a 413 a request is resent in halves, but never in bodies smaller than this.
MIN_SPLIT_LIMIT = 512

ProgressCallback = Callable[[int, int], None]
#: ``on_result(text_indexes, improvements)``: texts (indexes into ``texts``) whose every piece
#: has arrived, and their improvements, as each request completes.
ResultCallback = Callable[[list[int], list[Improvement]], None]


@dataclass(frozen=True)
class ListShape:
    """How a service serves its v3 language lists (service-facts.md, "The later shape"): the
    query parameter naming the product, the path of the products list, and whether the
    exceptions list exists. The defaults are the interface document's."""

    parameter: Literal["product", "resource"] = "product"
    products_path: str = PRODUCTS_PATH
    exceptions: bool = True

    def to_json(self) -> dict[str, Any]:
        return {
            "parameter": self.parameter,
            "products_path": self.products_path,
            "exceptions": self.exceptions,
        }

    @classmethod
    def from_json(cls, data: object) -> ListShape | None:
        """The shape ``data`` describes; ``None`` when it is not one (a damaged memory)."""
        if not isinstance(data, Mapping):
            return None
        parameter = data.get("parameter")
        path = data.get("products_path")
        exceptions = data.get("exceptions")
        if (
            parameter not in ("product", "resource")
            or path not in (PRODUCTS_PATH, RESOURCES_PATH)
            or not isinstance(exceptions, bool)
        ):
            return None
        return cls(parameter, path, exceptions)


class AddressMemory(Protocol):
    """Where the addresses without a corrections endpoint are remembered beyond the process
    (the user's state folder; see :mod:`rephrase_ls.config.user_state`)."""

    def knows_no_corrections(self, base_url: str) -> bool: ...

    def remember_no_corrections(self, base_url: str) -> None: ...


#: Base addresses that answered 404 to the corrections endpoint in this process.
_NO_CORRECTIONS: set[str] = set()


class ShapeMemory(Protocol):
    """Where a client keeps the :class:`ListShape` of each service address between runs."""

    def recall(self, address: str) -> Mapping[str, Any] | None: ...

    def remember(self, address: str, shape: Mapping[str, Any]) -> None: ...


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
    ``backend`` says who answers (``"service"`` or ``"offline"``); ``sleep``, ``rng`` and
    ``clock`` replace the waits between retries, their jitter and the deadline's clock.
    ``shape_memory`` keeps the shape of the address's language lists between runs: a client
    starts with the shape remembered, so it sends no request the service is known to refuse,
    and a remembered shape the service refuses is probed again and remembered anew.
    ``corrections_memory`` remembers, beyond the process, the addresses without a corrections
    endpoint.
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
        shape_memory: ShapeMemory | None = None,
        corrections_memory: AddressMemory | None = None,
    ) -> None:
        if not isinstance(config, ServiceConfig):
            raise TypeError("config must be a ServiceConfig")
        self.config = config
        self.backend = backend
        self._http = ServiceTransport(
            config, transport=transport, sleep=sleep, rng=rng, clock=clock
        )
        self._memory = shape_memory
        self._corrections_memory = corrections_memory
        # A replaced transport (the embedded service, a test's app) is not the address's
        # service: what it lacks is this client's alone, not shared or remembered.
        self._shares_address = transport is None
        self._no_corrections = False
        self._shape = ListShape()
        #: Fields of ``_shape`` this process has seen the service confirm (the others are the
        #: defaults or remembered from an earlier run, and are probed again when refused).
        self._confirmed: set[str] = set()
        self._saved: ListShape | None = None
        address = self._memory_address()
        if shape_memory is not None and address is not None:
            try:
                recalled = ListShape.from_json(shape_memory.recall(address))
            except OSError as exc:
                log.debug("cannot read the remembered list shape: %s", exc)
                recalled = None
            if recalled is not None:
                log.info("using the language-list shape remembered for %s", address)
                self._shape = self._saved = recalled

    def __repr__(self) -> str:
        try:
            base_url: str | None = self._http.base_url
        except NotConfigured:
            base_url = None
        return (
            f"ServiceClient(backend={self.backend!r}, base_url={base_url!r}, "
            f"tier={self.config.effective_tier!r})"
        )

    @property
    def base_url(self) -> str:
        """The base address requests go to; raises :class:`NotConfigured` when there is none."""
        return self._http.base_url

    @property
    def last_failure(self) -> ServiceError | None:
        """The latest failed attempt still being retried (see ``ServiceTransport.last_failure``)."""
        return self._http.last_failure

    @property
    def uses_resource_parameter(self) -> bool:
        """True once the service said the ``product`` parameter was renamed ``resource`` (or a
        remembered shape says so)."""
        return self._shape.parameter == "resource"

    @property
    def list_shape(self) -> ListShape:
        """The shape of the language lists as this client knows it."""
        return self._shape

    def _memory_address(self) -> str | None:
        try:
            return self._http.base_url
        except NotConfigured:
            return None

    def _learn(self, field: str, **change: Any) -> None:
        """The service confirmed ``field`` (with its value in ``change``, if it changed);
        remember the shape when it differs from the one remembered."""
        self._confirmed.add(field)
        if change:
            self._shape = replace(self._shape, **change)
        address = self._memory_address()
        if self._memory is None or address is None or self._shape == self._saved:
            return
        try:
            self._memory.remember(address, self._shape.to_json())
        except OSError as exc:
            log.debug("cannot remember the list shape of %s: %s", address, exc)
            return
        self._saved = self._shape

    @property
    def corrections_known_absent(self) -> bool:
        """True once this address answered 404 to ``/v2/write/correct`` (in this process, or
        earlier as the memory says): :meth:`correct` then fails without sending."""
        if self._no_corrections:
            return True
        if not self._shares_address:
            return False
        try:
            base_url = self._http.base_url
        except NotConfigured:
            return False
        if base_url in _NO_CORRECTIONS:
            return True
        memory = self._corrections_memory
        if memory is not None and memory.knows_no_corrections(base_url):
            _NO_CORRECTIONS.add(base_url)
            return True
        return False

    def _remember_no_corrections(self) -> None:
        self._no_corrections = True
        if not self._shares_address:
            return
        try:
            base_url = self._http.base_url
        except NotConfigured:
            return
        _NO_CORRECTIONS.add(base_url)
        if self._corrections_memory is not None:
            self._corrections_memory.remember_no_corrections(base_url)

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

    async def _get_for_product(self, path: str, product: str, what: str) -> Any:
        """GET ``path`` for a product, switching to ``resource=`` when the service renamed it."""
        if not isinstance(product, str) or not product.strip():
            raise InvalidRequest(f"A product name is needed, not {product!r}.")
        deadline_at = self._http.deadline_at()
        param = self._shape.parameter
        try:
            # A 400 here may be the later shape's "renamed to resource" (or a remembered
            # "resource" the service no longer takes), and a 404 a removed endpoint: both are
            # handled, so they are not warnings.
            data = await self._http.get_json(
                path, what, deadline_at, {param: product}, expected=frozenset({400, 404})
            )
        except BadRequest as exc:
            if param == "product" and _says_product_renamed(exc.service_message):
                log.info("the service renamed the 'product' parameter to 'resource'; using it")
                other: Literal["product", "resource"] = "resource"
            elif param == "resource" and "parameter" not in self._confirmed:
                log.info(
                    "the service refused the remembered 'resource' parameter; trying 'product'"
                )
                other = "product"
            else:
                raise
            data = await self._http.get_json(path, what, deadline_at, {other: product})
            if other == "product":
                # Back to the interface's shape: the exceptions list may be back too.
                self._learn("parameter", parameter=other, exceptions=True)
                self._confirmed.discard("exceptions")
            else:
                self._learn("parameter", parameter=other)
            return data
        self._learn("parameter")
        return data

    # ----------------------------------------------------------------------- endpoints

    async def languages(self, product: str) -> tuple[Language, ...]:
        """``GET /v3/languages?product=``: the languages of a product."""
        data = await self._get_for_product("/v3/languages", product, "the language list")
        return parse_list(data, Language.from_json, "language list")

    async def products(self) -> tuple[Product, ...]:
        """``GET /v3/languages/products`` (or the later ``/v3/languages/resources``)."""
        what = "the product list"
        deadline_at = self._http.deadline_at()
        path = self._shape.products_path
        try:
            data = await self._http.get_json(path, what, deadline_at, expected=frozenset({404}))
        except NotFound:
            if path == RESOURCES_PATH and "products_path" in self._confirmed:
                raise
            other = RESOURCES_PATH if path == PRODUCTS_PATH else PRODUCTS_PATH
            log.info("%s is gone; using %s", path, other)
            data = await self._http.get_json(other, what, deadline_at)
            self._learn("products_path", products_path=other)
        else:
            self._learn("products_path")
        return parse_list(data, Product.from_json, "product list")

    async def exceptions(self, product: str) -> tuple[PairException, ...]:
        """``GET /v3/languages/exceptions?product=``; none when the endpoint is gone (404)."""
        if not self._shape.exceptions:
            return ()
        try:
            data = await self._get_for_product(
                "/v3/languages/exceptions", product, "the language pair exceptions"
            )
        except NotFound:
            log.info("the exceptions endpoint is gone (404): no pair exceptions")
            self._learn("exceptions", exceptions=False)
            return ()
        self._learn("exceptions")
        return parse_list(data, PairException.from_json, "exception list")

    async def v2_languages(self, type: str = "source") -> tuple[V2Language, ...]:
        """``GET /v2/languages?type=source|target``."""
        if type not in ("source", "target"):
            raise InvalidRequest(
                f"The v2 language list type must be 'source' or 'target', not {type!r}."
            )
        data = await self._http.get_json(
            "/v2/languages", "the v2 language list", self._http.deadline_at(), {"type": type}
        )
        return parse_list(data, V2Language.from_json, "v2 language list")

    async def usage(self) -> Usage:
        """``GET /v2/usage``."""
        data = await self._http.get_json("/v2/usage", "the usage report", self._http.deadline_at())
        return Usage.from_json(data)

    async def rephrase(
        self,
        texts: Sequence[str],
        *,
        target_lang: str | None = None,
        writing_style: str | None = None,
        tone: str | None = None,
        on_progress: ProgressCallback | None = None,
        limit: int = DEFAULT_LIMIT,
        on_result: ResultCallback | None = None,
    ) -> list[Improvement]:
        """Improve any number of texts of any length; one improvement per text, in order.

        Texts are packed into requests of at most ``limit`` body bytes (a text too large is
        split and re-joined), sent ``max_concurrency`` at a time; ``on_progress(done, total)``
        is called after each request, and before it ``on_result(text_indexes, improvements)``
        with the texts that request completed (a split text once all its pieces arrived), so
        a caller can use answers while later requests are in flight (the list returned holds
        the same improvements). An exception from a callback fails the call.
        A request the service answers 413 is resent in halves (down to 512-byte bodies).
        Any failure fails the whole call (the other requests are cancelled): never partial data.
        """
        _check_style(writing_style, "writing_style")
        _check_style(tone, "tone")
        if writing_style is not None and tone is not None:
            raise InvalidRequest(
                "A writing style and a tone cannot be used together; choose one of them."
            )
        fields: dict[str, str] = {}
        if writing_style is not None:
            fields["writing_style"] = writing_style
        if tone is not None:
            fields["tone"] = tone
        return await self._write(
            REPHRASE_PATH, texts, target_lang, fields, on_progress, limit, on_result
        )

    async def correct(
        self,
        texts: Sequence[str],
        *,
        target_lang: str | None = None,
        on_progress: ProgressCallback | None = None,
        limit: int = DEFAULT_LIMIT,
        on_result: ResultCallback | None = None,
    ) -> list[Improvement]:
        """Corrections only (``POST /v2/write/correct``): spelling and grammar fixed, the
        wording kept; no writing style or tone. Packing, retries, callbacks and errors as
        :meth:`rephrase`.

        A service without the endpoint (404) raises :class:`CorrectionsUnavailable`, and the
        address is remembered (for the process and in ``corrections_memory``): later calls
        raise it without sending. Never falls back to rephrasing.
        """
        if self.corrections_known_absent:
            raise CorrectionsUnavailable(status=None, known=True)
        try:
            return await self._write(
                CORRECT_PATH, texts, target_lang, {}, on_progress, limit, on_result
            )
        except CorrectionsUnavailable:
            self._remember_no_corrections()
            raise

    async def _write(
        self,
        path: str,
        texts: Sequence[str],
        target_lang: str | None,
        fields: dict[str, str],
        on_progress: ProgressCallback | None,
        limit: int,
        on_result: ResultCallback | None,
    ) -> list[Improvement]:
        """Send ``texts`` to the write endpoint ``path`` with the extra ``fields``."""
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
        if not texts:
            return []
        if target_lang is not None:
            fields = {"target_lang": target_lang, **fields}
        correcting = path == CORRECT_PATH
        what = "the correction request" if correcting else "the text improvement request"

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
        assembly = ImprovementAssembly(plan)
        pending = iter(range(total))
        done = 0
        deadline_at = self._http.deadline_at()

        async def send(
            pieces: Sequence[str], body_limit: int, body: bytes
        ) -> tuple[Improvement, ...]:
            """One request for ``pieces``, whose encoding the plan made (``body``); on 413, the
            same pieces in smaller requests."""
            try:
                response = await self._http.send(
                    "POST",
                    path,
                    content=body,
                    content_type="application/json",
                    deadline_at=deadline_at,
                    what=what,
                    expected=frozenset({404}) if correcting else frozenset(),
                )
            except NotFound as exc:
                if not correcting:
                    raise
                log.info("POST %s: 404, the service has no corrections-only mode", path)
                raise CorrectionsUnavailable(status=exc.status, trace_id=exc.trace_id) from None
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
                return tuple(merge_improvements(sub, parts))
            data = self._http.parse_json(response, what)
            try:
                return parse_improvements(data, len(pieces))
            except MalformedResponse as exc:
                exc.trace_id = self._http.trace_id(response)
                exc.status = response.status_code
                log.warning(
                    "POST %s: malformed response (X-Trace-ID %s): %s",
                    path,
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
