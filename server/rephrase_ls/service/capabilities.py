# Over 400 lines: the capability rules (4.1-4.3) and the store that loads and caches them.
"""Capability rules (interface sections 4.1, 4.2, 4.3) over a snapshot, and their cache.

:class:`Capabilities` is pure: it judges a snapshot of one product's lists. Language codes are
compared case-insensitively. :func:`check_rephrase_options` is the rule a caller applies before
asking the client to improve texts. :class:`CapabilityStore` fetches snapshots through a
:class:`ListSource` (the service client), caches them per base address with a time to live, keeps
the last good copy when a refresh fails, and answers ``peek()`` without any I/O.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, Protocol

from rephrase_ls.service.config import ServiceConfig
from rephrase_ls.service.errors import (
    InvalidRequest,
    NotConfigured,
    RequestTimeout,
    ServiceError,
)
from rephrase_ls.service.models import (
    DEFAULT_STYLE,
    PREFER_PREFIX,
    TONES,
    WRITING_STYLES,
    Language,
    PairException,
    Product,
    V2Language,
)

log = logging.getLogger("rephrase_ls.service")

FORMALITY = "formality"
GLOSSARY = "glossary"
WRITING_STYLE = "writing_style"
TONE = "tone"

# Sides a feature needs when the products list does not say (interface 4.1 rules 2 and 3).
_DEFAULT_SIDES: dict[str, tuple[bool, bool]] = {
    GLOSSARY: (True, True),
    FORMALITY: (False, True),
    WRITING_STYLE: (False, True),
    TONE: (False, True),
}

#: After a failed refresh, wait this long (or the TTL, if shorter) before trying again.
RETRY_FAILED_REFRESH = 60.0


def _key(code: str) -> str:
    return code.strip().lower()


#: Target codes the service takes for one language (service-facts: ``zh`` / ``zh-Hans``).
_SAME_TARGET = {"zh": "zh-hans", "zh-hans": "zh"}


@dataclass(frozen=True)
class Capabilities:
    """A snapshot of one product's language lists and the rules built on them."""

    product: str
    languages: tuple[Language, ...]
    products: tuple[Product, ...] = ()
    exceptions: tuple[PairException, ...] = ()
    _by_code: dict[str, Language] = field(init=False, repr=False, compare=False)
    _by_pair: dict[tuple[str, str], frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_code: dict[str, Language] = {}
        for language in self.languages:
            by_code.setdefault(_key(language.lang), language)
        by_pair = {(_key(e.source_lang), _key(e.target_lang)): e.features for e in self.exceptions}
        object.__setattr__(self, "_by_code", by_code)
        object.__setattr__(self, "_by_pair", by_pair)

    def find(self, lang: str) -> Language | None:
        """The language with code ``lang`` (any case), if listed."""
        return self._by_code.get(_key(lang))

    def find_target(self, lang: str) -> Language | None:
        """The target language ``lang`` (any case), if listed as a target: simplified Chinese
        under either of its codes, ``zh`` or ``zh-Hans``, whichever the list names."""
        entry = self.find(lang)
        if entry is not None and entry.usable_as_target:
            return entry
        other = _SAME_TARGET.get(_key(lang))
        found = self.find(other) if other is not None else None
        return found if found is not None and found.usable_as_target else None

    def _features(self, lang: str) -> frozenset[str]:
        language = self.find(lang)
        return language.features if language is not None else frozenset()

    # 4.1 rule 1
    def sources(self) -> tuple[Language, ...]:
        """Languages usable as source."""
        return tuple(lang for lang in self.languages if lang.usable_as_source)

    def targets(self) -> tuple[Language, ...]:
        """Languages usable as target."""
        return tuple(lang for lang in self.languages if lang.usable_as_target)

    # 4.1 rule 2
    def target_supports(self, target: str, feature: str) -> bool:
        """A target-only feature: judged on the target language alone."""
        return feature in self._features(target)

    # 4.1 rule 3
    def both_support(self, source: str, target: str, feature: str) -> bool:
        """A feature needed on both sides: both languages must list it."""
        return feature in self._features(source) and feature in self._features(target)

    def feature_sides(self, feature: str) -> tuple[bool, bool]:
        """(needed on source, needed on target) from the products list, else the interface."""
        product = self.product_object()
        if product is not None:
            described = product.feature(feature)
            if described is not None:
                return described.required_on_source, described.required_on_target
        return _DEFAULT_SIDES.get(feature, (False, True))

    def product_object(self) -> Product | None:
        """This snapshot's product object from the products list, if listed."""
        return next((p for p in self.products if p.name == self.product), None)

    def supports(self, source: str | None, target: str, feature: str) -> bool:
        """4.1 rules 2 and 3 together: a feature for a (source, target) choice.

        A feature needed only on the target is judged on the target; one needed on the source
        too needs ``source`` to list it (and is unsupported without a source).
        """
        on_source, on_target = self.feature_sides(feature)
        if on_target and not self.target_supports(target, feature):
            return False
        if on_source:
            return source is not None and feature in self._features(source)
        return True

    # 4.1 rule 4
    def glossary_targets(self, source: str) -> tuple[Language, ...]:
        """Targets that accept glossaries from ``source``: none when the source lacks glossary."""
        if GLOSSARY not in self._features(source):
            return ()
        return tuple(
            lang for lang in self.languages if lang.usable_as_target and GLOSSARY in lang.features
        )

    # 4.2
    def runtime_pair_features(self, source: str, target: str) -> frozenset[str]:
        """Features of the product a pair supports, from the products list (section 4.2)."""
        product = self.product_object()
        if product is None:
            return frozenset()
        src, tgt = self._features(source), self._features(target)
        return frozenset(
            f.name
            for f in product.features
            if not (f.required_on_source and f.name not in src)
            and not (f.required_on_target and f.name not in tgt)
        )

    # 4.3 rules 2 and 3
    def pair_features(self, source: str, target: str) -> frozenset[str]:
        """A pair's features: the exception's when one exists, else the intersection."""
        exception = self._by_pair.get((_key(source), _key(target)))
        if exception is not None:
            return exception
        return self._features(source) & self._features(target)

    def has_exception(self, source: str, target: str) -> bool:
        return (_key(source), _key(target)) in self._by_pair

    def _names_tone(self) -> bool:
        if any(TONE in lang.features for lang in self.languages):
            return True
        product = self.product_object()
        return product is not None and product.feature(TONE) is not None

    def writing_styles(self, target: str) -> tuple[str, ...]:
        """Writing styles (without ``prefer_``) the target supports."""
        return WRITING_STYLES if self.target_supports(target, WRITING_STYLE) else ()

    def tones(self, target: str) -> tuple[str, ...]:
        """Tones the target supports: the ``tone`` feature, else ``writing_style`` when the
        lists name no ``tone`` feature at all (the interface's early shape)."""
        feature = TONE if self._names_tone() else WRITING_STYLE
        return TONES if self.target_supports(target, feature) else ()


@dataclass(frozen=True)
class V2Languages:
    """The v2 source and target lists (section 2.4)."""

    source: tuple[V2Language, ...]
    target: tuple[V2Language, ...]

    def find(self, code: str, type: str = "target") -> V2Language | None:
        """The language with ``code`` (any case) in the ``type`` list."""
        wanted = _key(code)
        items = self.target if type == "target" else self.source
        return next((lang for lang in items if _key(lang.language) == wanted), None)

    def supports_formality(self, code: str) -> bool:
        """Whether ``code`` supports formality (as a target, else as a source)."""
        lang = self.find(code, "target") or self.find(code, "source")
        return lang is not None and lang.supports_formality


#: Languages the service's public documentation gives writing styles and tones (service-facts.md,
#: "What the service added later"), with the bare codes its request schema accepts.
DOCUMENTED_STYLE_TARGETS = (
    "de", "en", "en-GB", "en-US", "es", "fr", "it", "pt", "pt-BR", "pt-PT",
)  # fmt: skip


def documented_choices(language: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The writing styles and tones the service's documentation gives ``language`` as a target:
    what can be offered, unconfirmed, when the service's own list cannot be had."""
    if _key(language) in {_key(lang) for lang in DOCUMENTED_STYLE_TARGETS}:
        return WRITING_STYLES, TONES
    return (), ()


def check_rephrase_options(
    capabilities: Capabilities | None,
    target_lang: str | None,
    writing_style: str | None,
    tone: str | None,
) -> None:
    """Refuse a style or tone the target language does not support (:class:`InvalidRequest`).

    Judged on ``capabilities`` of the write product; without them (not fetched yet) or without a
    target there is nothing to judge, and the service itself answers. ``default`` and the
    ``prefer_`` values are always allowed: the service falls back where they are missing.
    """
    if capabilities is None:
        return
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


class ListSource(Protocol):
    """What :class:`CapabilityStore` needs of a client (a ``ServiceClient`` is one)."""

    config: ServiceConfig
    backend: str

    @property
    def base_url(self) -> str: ...

    async def languages(self, product: str) -> tuple[Language, ...]: ...

    async def products(self) -> tuple[Product, ...]: ...

    async def exceptions(self, product: str) -> tuple[PairException, ...]: ...

    async def v2_languages(self, type: str = "source") -> tuple[V2Language, ...]: ...


async def _all(*calls: Coroutine[Any, Any, Any]) -> list[Any]:
    """Run ``calls`` concurrently; the first failure cancels the others and is raised as is."""
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(call) for call in calls]
    except BaseExceptionGroup as eg:
        errors = [e for e in eg.exceptions if isinstance(e, ServiceError)]
        raise (errors[0] if errors else eg.exceptions[0]) from None
    return [task.result() for task in tasks]


@dataclass
class _Entry:
    value: object
    fetched_at: float
    #: When the last refresh failed, and why (the value is then the last good copy).
    failed_at: float | None = None
    error: ServiceError | None = None


class CapabilityStore:
    """Capability snapshots per base address and product, with a TTL.

    ``client`` may be replaced (settings changed); entries are keyed by the client's base
    address, so another address never sees this one's lists.
    """

    def __init__(
        self,
        client: ListSource,
        *,
        ttl: float | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.client = client
        self._ttl = ttl
        self._clock = clock if clock is not None else time.monotonic
        self._entries: dict[tuple[str, str, str], _Entry] = {}
        self._locks: dict[tuple[str, str, str], asyncio.Lock] = {}
        #: Loads started by :meth:`get_within` that its caller stopped waiting for.
        self._loading: dict[tuple[str, str, str], asyncio.Task[Any]] = {}

    @property
    def ttl(self) -> float:
        return self._ttl if self._ttl is not None else self.client.config.capability_ttl

    def _cache_key(self, kind: str, name: str) -> tuple[str, str, str] | None:
        try:
            base = self.client.base_url
        except NotConfigured:
            return None
        return (f"{self.client.backend}|{base}", kind, name)

    def _fresh(self, entry: _Entry) -> bool:
        now = self._clock()
        if now - entry.fetched_at < self.ttl:
            return True
        # A failed refresh keeps the last copy and waits a while before trying again.
        retry_after = min(self.ttl, RETRY_FAILED_REFRESH)
        return entry.failed_at is not None and now - entry.failed_at < retry_after

    def peek(self, product: str) -> Capabilities | None:
        """The cached snapshot of ``product`` (even if stale), without any I/O."""
        key = self._cache_key("v3", product)
        entry = self._entries.get(key) if key is not None else None
        return entry.value if entry is not None and isinstance(entry.value, Capabilities) else None

    def peek_v2(self) -> V2Languages | None:
        """The cached v2 lists (even if stale), without any I/O."""
        key = self._cache_key("v2", "")
        entry = self._entries.get(key) if key is not None else None
        return entry.value if entry is not None and isinstance(entry.value, V2Languages) else None

    def invalidate(self) -> None:
        """Forget every snapshot (e.g. after the key changed)."""
        self._entries.clear()

    async def get(self, product: str) -> Capabilities:
        """The snapshot of ``product``: cached while fresh, refreshed after the TTL."""

        value, _ = await self._get(("v3", product), lambda: self._fetch(product))
        assert isinstance(value, Capabilities)
        return value

    async def get_or_last_known(
        self, product: str
    ) -> tuple[Capabilities | None, ServiceError | None]:
        """Capabilities or the last known ones, and why they may be out of date; never raises
        a :class:`ServiceError`.

        ``(snapshot, None)`` when the snapshot is fresh; ``(last good copy, error)`` when
        refreshing it failed (or failed a moment ago and is not retried yet); ``(None, error)``
        when none could be fetched (or no service is configured). The caller says the error
        (the language list is unavailable) and goes on with what is known.
        """
        try:
            value, error = await self._get(("v3", product), lambda: self._fetch(product))
        except ServiceError as exc:
            return self.peek(product), exc
        assert isinstance(value, Capabilities)
        return value, error

    async def get_within(
        self, product: str, wait: float
    ) -> tuple[Capabilities | None, ServiceError | None]:
        """:meth:`get_or_last_known`, waiting at most ``wait`` seconds: for a command the
        writer is waiting on. When the load takes longer (the service does not answer, or its
        connection errors are being retried with backoff), the answer is the last known
        snapshot (None when there is none) and the latest attempt's error, or a time-out naming
        the address; the load goes on in the background and fills the cache when it succeeds.
        """
        key = self._cache_key("v3", product)
        if key is None:
            return await self.get_or_last_known(product)
        entry = self._entries.get(key)
        if entry is not None and self._fresh(entry):
            assert isinstance(entry.value, Capabilities)
            return entry.value, entry.error
        task = self._loading.get(key)
        if task is None:
            task = asyncio.create_task(self.get_or_last_known(product))
            self._loading[key] = task
            task.add_done_callback(lambda _: self._loading.pop(key, None))
        done, _ = await asyncio.wait({task}, timeout=wait)
        if task in done:
            result: tuple[Capabilities | None, ServiceError | None] = task.result()
            return result
        failure = getattr(self.client, "last_failure", None)
        if isinstance(failure, ServiceError):
            return self.peek(product), failure
        return self.peek(product), RequestTimeout(
            f"The service at {self.client.base_url} has not sent its {product} language list "
            f"within {wait:.3g} s; check the server URL and the network."
        )

    async def _fetch(self, product: str) -> Capabilities:
        client = self.client
        languages, products, exceptions = await _all(
            client.languages(product), client.products(), client.exceptions(product)
        )
        return Capabilities(product, languages, products, exceptions)

    async def get_v2(self) -> V2Languages:
        """The v2 source and target lists, cached like ``get``."""

        async def fetch() -> V2Languages:
            source, target = await _all(
                self.client.v2_languages("source"), self.client.v2_languages("target")
            )
            return V2Languages(source, target)

        value, _ = await self._get(("v2", ""), fetch)
        assert isinstance(value, V2Languages)
        return value

    async def _get(
        self, what: tuple[str, str], fetch: Callable[[], Awaitable[object]]
    ) -> tuple[object, ServiceError | None]:
        """The cached value of ``what`` (fetched when stale), and the error of its last refresh
        when that failed and the value is the last good copy; raises when there is no copy."""
        key = self._cache_key(*what)
        if key is None:
            # Raises NotConfigured with its message.
            _ = self.client.base_url
            raise AssertionError("unreachable")
        entry = self._entries.get(key)
        if entry is not None and self._fresh(entry):
            return entry.value, entry.error
        lock = self._locks.setdefault(key, asyncio.Lock())
        async with lock:
            entry = self._entries.get(key)
            if entry is not None and self._fresh(entry):
                return entry.value, entry.error
            try:
                value = await fetch()
            except ServiceError as exc:
                if entry is None:
                    raise
                log.warning(
                    "refreshing the %s capability lists failed (%s); keeping the last good copy",
                    what[1] or "v2",
                    exc.message,
                )
                entry.failed_at = self._clock()
                entry.error = exc
                return entry.value, exc
            self._entries[key] = _Entry(value, self._clock())
            return value, None
