"""Who answers: the configured service with the user's key, or the embedded offline service.

A :class:`Backend` pairs a service client with its capability store. :class:`Backends` keeps one
per distinct configuration (folders of a multi-root workspace may differ), so connections and
cached capability lists are shared by every document that uses the same settings; only the
:data:`MAX_BACKENDS` most recently used are kept.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rephrase_ls.config.settings import Settings
from rephrase_ls.config.user_state import AddressState, ListShapes
from rephrase_ls.service.capabilities import CapabilityStore
from rephrase_ls.service.client import ServiceClient
from rephrase_ls.service.config import SecretKey, ServiceConfig
from rephrase_ls.service.errors import NotConfigured, ServiceError

if TYPE_CHECKING:
    from rephrase_ls.service.capabilities import Capabilities

log = logging.getLogger(__name__)

EMBEDDED = "offline (embedded)"


@dataclass
class Backend:
    """A client and its capability cache, and a description of who answers."""

    client: ServiceClient
    capabilities: CapabilityStore
    description: str
    embedded: bool
    cache_key: str = ""
    """Distinct for every distinct configuration (key, address, known words): results cached
    for one backend are never served for another."""

    async def write_capabilities(
        self, wait: float | None = None
    ) -> tuple[Capabilities | None, ServiceError | None]:
        """The write product's capability list; when it cannot be loaded, the last one known
        (None when none is) and why it could not. ``wait``: answer within that many seconds
        (the load goes on in the background; see ``CapabilityStore.get_within``)."""
        if wait is not None:
            return await self.capabilities.get_within("write", wait)
        try:
            return await self.capabilities.get("write"), None
        except ServiceError as exc:
            return self.capabilities.peek("write"), exc


def key_source(settings: Settings) -> str:
    """Where the key was read from, in words for a message (never the key)."""
    if settings.api_key:
        return "apiKey in your user settings or user config file"
    return f"the environment variable {settings.api_key_env}"


def find_key(settings: Settings, environ: Mapping[str, str] | None = None) -> str | None:
    """The API key: user-level settings first, then the configured environment variable."""
    if settings.api_key:
        return settings.api_key
    env = os.environ if environ is None else environ
    value = env.get(settings.api_key_env, "").strip()
    return value or None


def _identity(settings: Settings, key: str | None) -> tuple[object, ...]:
    digest = hashlib.sha256(key.encode()).hexdigest() if key else None
    base = (
        settings.max_concurrency,
        settings.timeout,
    )
    if key is None:
        return (
            "embedded",
            tuple(sorted(settings.words)),
            settings.language_words,
            settings.disabled_rules,
            *base,
        )
    return (
        "service",
        settings.server_url,
        settings.free_server_url,
        settings.tier,
        settings.auth_scheme,
        digest,
        *base,
    )


#: The backends kept at most: the most recently used. A workspace uses one or two at a time
#: (one per folder configuration); each distinct ``words`` list makes an embedded one, so a
#: writer editing the list would otherwise keep one per edit.
MAX_BACKENDS = 4
#: How long an evicted service backend's connections stay open: a request that was using it
#: finishes first (the client's own deadline is 120 s).
CLOSE_EVICTED_AFTER = 150.0


class Backends:
    """One backend per distinct effective configuration, the :data:`MAX_BACKENDS` most recently
    used kept."""

    def __init__(self, user_agent_suffix: str | None = None, *, offline: bool = False) -> None:
        self._backends: OrderedDict[tuple[object, ...], Backend] = OrderedDict()
        self._closing: set[asyncio.Task[None]] = set()
        #: The capability lists of the embedded offline service, shared by its backends: they
        #: differ only in the words and rules they are given (a word added makes a new one),
        #: never in the languages, styles and tones, so a new one lists them at once.
        self._embedded_capabilities: CapabilityStore | None = None
        self.user_agent_suffix = user_agent_suffix
        self.offline = offline
        """No key is read and the embedded offline service answers (``rephrase-ls --offline``,
        which the VS Code extension uses in a workspace the writer has not trusted)."""

    def get(self, settings: Settings, environ: Mapping[str, str] | None = None) -> Backend:
        """The backend for these settings, created on first use (no I/O here).

        Raises :class:`~rephrase_ls.service.errors.NotConfigured` for a key that cannot be used.
        """
        key = None if self.offline else find_key(settings, environ)
        ident = _identity(settings, key)
        backend = self._backends.get(ident)
        if backend is None:
            backend = self._create(settings, key)
            backend.cache_key = hashlib.sha256(repr(ident).encode()).hexdigest()
            self._backends[ident] = backend
            while len(self._backends) > MAX_BACKENDS:
                _ident, evicted = self._backends.popitem(last=False)
                self._retire(evicted)
        else:
            self._backends.move_to_end(ident)
        return backend

    def __len__(self) -> int:
        return len(self._backends)

    def _retire(self, backend: Backend) -> None:
        """Let go of a backend no longer kept: an embedded one is freed with its last user; a
        service one's connections are closed once a request still using it has finished."""
        if backend.embedded:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (a script): its connections close with the process

        async def close_later() -> None:
            await asyncio.sleep(CLOSE_EVICTED_AFTER)
            await backend.client.aclose()

        task = loop.create_task(close_later())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _create(self, settings: Settings, key: str | None) -> Backend:
        if key is None:
            from rephrase_ls.offline import EMBEDDED_BASE_URL, embedded_transport
            from rephrase_ls.offline.app import OfflineOptions

            config = ServiceConfig(
                server_url=EMBEDDED_BASE_URL,
                free_server_url=EMBEDDED_BASE_URL,
                tier="paid",
                auth_scheme="Service-Auth-Key",
                api_key=SecretKey("embedded-offline"),
                user_agent_suffix=self.user_agent_suffix,
                max_concurrency=settings.max_concurrency,
                timeout=settings.timeout,
            )
            transport = embedded_transport(
                OfflineOptions(
                    known_words=frozenset(settings.words),
                    language_words=settings.language_words,
                    disabled_rules=settings.disabled_rules,
                )
            )
            client = ServiceClient(config, transport=transport, backend=EMBEDDED)
            log.info(
                "no API key found (%s): using the embedded offline service", settings.api_key_env
            )
            store = self._embedded_capabilities
            if store is None:
                store = self._embedded_capabilities = CapabilityStore(client)
            else:
                store.client = client  # loads go through the newest; the answers are the same
            return Backend(client, store, EMBEDDED, embedded=True)

        try:
            secret = SecretKey(key)
        except ValueError as exc:  # the message never contains the key
            raise NotConfigured(
                f"The API key in {key_source(settings)} is not valid ({exc}). Fix the key, or "
                "remove it to use the embedded offline service."
            ) from None
        config = ServiceConfig(
            server_url=settings.server_url,
            free_server_url=settings.free_server_url,
            tier=settings.tier,
            auth_scheme=settings.auth_scheme,
            api_key=secret,
            user_agent_suffix=self.user_agent_suffix,
            max_concurrency=settings.max_concurrency,
            timeout=settings.timeout,
        )
        try:
            description = config.base_url
        except NotConfigured:
            description = "service (no server address configured)"

        client = ServiceClient(
            config,
            backend=description,
            shape_memory=ListShapes(),
            corrections_memory=AddressState(),
        )
        return Backend(client, CapabilityStore(client), description, embedded=False)

    async def aclose(self) -> None:
        """Close every client."""
        for task in list(self._closing):
            task.cancel()
        for backend in self._backends.values():
            await backend.client.aclose()
        self._backends.clear()
