"""The language server object: a pygls subclass that owns per-document state and the helpers
every feature uses (messages, client capabilities, positions, background work).

It registers no feature: :func:`rephrase_ls.lsp.server.create_server` wires them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from rephrase_ls import __version__
from rephrase_ls.lsp.client_log import SENT_TO_CLIENT
from rephrase_ls.lsp.pygls_adapter import CancelHookProtocol, send_error, server_of
from rephrase_ls.lsp.workspace_settings import SettingsManager

if TYPE_CHECKING:
    # Imported where used: backends, settings and the text pipeline are not needed before the
    # first document, and start-up (spawn → initialize result) is measured against a bare
    # pygls server (bench/bench_startup.py).
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.improve.backend import Backend, Backends
    from rephrase_ls.improve.language_choice import LanguageChoice
    from rephrase_ls.improve.round_trip import ImprovementCache
    from rephrase_ls.text.changes import ChangeLog
    from rephrase_ls.text.markup import ProseBlock
    from rephrase_ls.text.positions import LineIndex

log = logging.getLogger("rephrase_ls")

#: The largest line or character LSP allows (its ``uinteger``).
MAX_POSITION = 2**31 - 1


class _Answered:
    """A request already answered with an error while it was being read (see below)."""


_ANSWERED = _Answered()


class RephraseProtocol(CancelHookProtocol):
    """Adds cancellation of command handlers, which pygls runs one step removed from the request,
    and an error answer to a request whose parameters do not fit the protocol's types (pygls
    would log it and never answer: the client would wait forever)."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not ("id" in data and "method" in data):
                raise
            if isinstance(exc, JsonRpcInvalidParams) and exc.__cause__ is not None:
                from cattrs import transform_error

                cause = exc.__cause__
                details = (
                    transform_error(cause, path="params")
                    if isinstance(cause, ExceptionGroup)
                    else [str(cause)]
                )
                method = data.get("method")
                shown = "; ".join(d.replace("$.", "") for d in details[:3])
                exc = JsonRpcInvalidParams(f"invalid params for {method}: {shown}")
            send_error(self, data["id"], exc.to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is _ANSWERED:
            return
        super().handle_message(message)

    def on_cancel_request(self, msg_id: Any) -> None:
        if self.is_request_pending(msg_id):
            self.cancel_request_future(msg_id)
        else:
            # Editors cancel requests they no longer need, often after the answer is sent (VS
            # Code does for every code-action request when the cursor moves); pygls would log
            # a warning for each.
            log.debug("$/cancelRequest %s: the request is no longer running", msg_id)
        server = server_of(self)
        if isinstance(server, RephraseServer):
            server.cancel_running(("request", msg_id))


@dataclass
class DocumentState:
    """What the server derives from one version of a document (recomputed when it changes)."""

    version: int | None
    text: str
    index: LineIndex
    blocks: list[ProseBlock]
    language: tuple[Hashable, LanguageChoice] | None = None
    stripped: tuple[tuple[int, int], ...] = ()
    """The spans its format's tool strips
    (:func:`~rephrase_ls.improve.request.document_stripped`)."""


class RephraseServer(LanguageServer):
    """The rephrase language server."""

    def __init__(self) -> None:
        super().__init__("rephrase-ls", __version__, protocol_cls=RephraseProtocol)
        self.user_agent_suffix: str | None = None
        """Added to the service client's User-Agent (from the client's ``clientInfo``)."""
        self.offline = False
        """Started with ``--offline``: no key is read; the embedded offline service answers."""
        self.settings = SettingsManager(self)
        self.documents: dict[str, DocumentState] = {}
        self.service_detected: dict[str, str] = {}
        #: The variant a document was detected as before part of it was converted to another
        #: (kept while it is open; see resolve_language's ``detected_variant``).
        self.variant_before_conversion: dict[str, str] = {}
        self.running: dict[Hashable, asyncio.Task[Any]] = {}
        self._document_watchers: dict[str, list[Callable[[str], None]]] = {}
        self._change_logs: dict[str, list[ChangeLog]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._said_once: set[str] = set()

    @functools.cached_property
    def backends(self) -> Backends:
        """One service backend per configuration (created on first use, after ``initialize``)."""
        from rephrase_ls.improve.backend import Backends

        return Backends(self.user_agent_suffix, offline=self.offline)

    @functools.cached_property
    def cache(self) -> ImprovementCache:
        """Improvements already paid for (created on first use)."""
        from rephrase_ls.improve.round_trip import ImprovementCache

        return ImprovementCache()

    # -- client capabilities ------------------------------------------------------------------

    @property
    def encoding(self) -> str:
        """The negotiated position encoding (``utf-16`` unless the client offered another)."""
        enc = self.workspace.position_encoding
        if enc is None:
            return "utf-16"
        return str(enc.value if isinstance(enc, types.PositionEncodingKind) else enc)

    def _caps(self) -> types.ClientCapabilities:
        return self.client_capabilities

    def _code_action_caps(self) -> types.CodeActionClientCapabilities | None:
        text_document = self._caps().text_document
        return text_document.code_action if text_document else None

    @property
    def supports_resolve_edit(self) -> bool:
        """Whether the client resolves a code action's ``edit`` lazily."""
        ca = self._code_action_caps()
        support = ca.resolve_support if ca else None
        return bool(support and "edit" in (support.properties or []))

    @property
    def supports_document_changes(self) -> bool:
        ws = self._caps().workspace
        return bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)

    @property
    def supports_create_file(self) -> bool:
        ws = self._caps().workspace
        ops = ws.workspace_edit.resource_operations if ws and ws.workspace_edit else None
        return bool(ops and types.ResourceOperationKind.Create in ops)

    @property
    def supports_progress(self) -> bool:
        window = self._caps().window
        return bool(window and window.work_done_progress)

    @property
    def supports_disabled_actions(self) -> bool:
        ca = self._code_action_caps()
        return bool(ca and ca.disabled_support)

    # -- messages --------------------------------------------------------------------------------

    def say(self, message: str, kind: types.MessageType = types.MessageType.Info) -> None:
        """Show a message to the writer and keep it in the log (API keys masked)."""
        from rephrase_ls.service.config import mask_keys

        message = mask_keys(message)
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))
        self.note(message, kind)

    def say_once(
        self, key: str, message: str, kind: types.MessageType = types.MessageType.Info
    ) -> None:
        """Like :meth:`say`, but only the first time for ``key``."""
        if key not in self._said_once:
            self._said_once.add(key)
            self.say(message, kind)

    def note(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        """Write to the editor's log for this server (``window/logMessage``) at ``kind``; the
        record also goes to Python's logging, marked as already sent (see ClientLogHandler).
        API keys are masked: a message may quote what a service answered."""
        from rephrase_ls.service.config import mask_keys

        message = mask_keys(message)
        log.log(
            {
                types.MessageType.Error: logging.ERROR,
                types.MessageType.Warning: logging.WARNING,
            }.get(kind, logging.INFO),
            message,
            extra={SENT_TO_CLIENT: True},
        )
        with contextlib.suppress(Exception):  # no client attached (unit tests)
            self.window_log_message(types.LogMessageParams(type=kind, message=message))

    # -- background work and cancellation ---------------------------------------------------------

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """Run a coroutine in the background, logging its failure instead of losing it."""
        task = asyncio.ensure_future(coro)
        self._background.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self._background.discard(t)
            if not t.cancelled() and (exc := t.exception()) is not None:
                log.warning("background task failed: %s", exc)

        task.add_done_callback(done)
        return task

    def track(self, key: Hashable, task: asyncio.Task[Any]) -> None:
        """Remember a running task so that a cancel request can stop it."""
        self.running[key] = task
        task.add_done_callback(lambda _t: self.running.pop(key, None))

    def cancel_running(self, key: Hashable) -> None:
        """Cancel the task registered under ``key``, if any."""
        task = self.running.get(key)
        if task is not None and not task.done():
            task.cancel()

    def watch_document(self, uri: str, callback: Callable[[str], None]) -> Callable[[], None]:
        """Call ``callback("changed")`` when a newer version of the document arrives and
        ``callback("closed")`` when it closes (long work on it stops), until the returned
        function is called."""
        watchers = self._document_watchers.setdefault(uri, [])
        watchers.append(callback)

        def unwatch() -> None:
            with contextlib.suppress(ValueError):
                watchers.remove(callback)
            if not watchers and self._document_watchers.get(uri) is watchers:
                del self._document_watchers[uri]

        return unwatch

    def follow_changes(
        self, uri: str, state: DocumentState
    ) -> tuple[ChangeLog, Callable[[], None]]:
        """A log of the document's content changes from ``state``'s version on, kept until
        the returned function is called (work on an older version follows its spans through
        it: :class:`~rephrase_ls.text.changes.ChangeLog`)."""
        from rephrase_ls.text.changes import ChangeLog

        change_log = ChangeLog(state.text, state.version)
        logs = self._change_logs.setdefault(uri, [])
        logs.append(change_log)

        def unfollow() -> None:
            with contextlib.suppress(ValueError):
                logs.remove(change_log)
            if not logs and self._change_logs.get(uri) is logs:
                del self._change_logs[uri]

        return change_log, unfollow

    def document_changed(self, params: types.DidChangeTextDocumentParams) -> None:
        """Record a ``didChange`` (already applied to the workspace's document) in the change
        logs that follow the document."""
        uri = params.text_document.uri
        logs = self._change_logs.get(uri)
        if not logs:
            return
        doc = self.workspace.text_documents.get(uri)
        changes: list[tuple[tuple[int, int, int, int] | None, str]] = []
        for change in params.content_changes:
            rng = getattr(change, "range", None)
            changes.append(
                (
                    None
                    if rng is None
                    else (rng.start.line, rng.start.character, rng.end.line, rng.end.character),
                    change.text,
                )
            )
        for change_log in logs:
            if doc is None:
                change_log.broken = "the document closed"
            else:
                change_log.record(doc.version, changes, self.encoding, doc.source)

    def document_moved_on(self, uri: str, how: str) -> None:
        """The document ``changed`` or ``closed``: tell the work that watches it."""
        for callback in list(self._document_watchers.get(uri, ())):
            callback(how)

    # -- documents ---------------------------------------------------------------------------------

    def state(self, doc: TextDocument) -> DocumentState:
        """Derived state for the document's current version, cached."""
        current = self.documents.get(doc.uri)
        text = doc.source
        if current is not None and current.version == doc.version and current.text is text:
            return current
        from rephrase_ls.improve.request import document_prose, document_stripped
        from rephrase_ls.text.positions import LineIndex

        stripped: tuple[tuple[int, int], ...] = ()
        try:
            blocks = document_prose(text, doc.language_id, doc.uri)
            stripped = document_stripped(text, doc.language_id, doc.uri)
        except ValueError as exc:  # markup it cannot read (LaTeX nested thousands deep)
            self.say_once(f"unreadable:{doc.uri}", f"rephrase: {exc}", types.MessageType.Warning)
            blocks = []
        state = DocumentState(doc.version, text, LineIndex(text), blocks, stripped=stripped)
        self.documents[doc.uri] = state
        return state

    def prose_sample(self, state: DocumentState, limit: int = 4000) -> str:
        """Prose from the start of the document, for language detection."""
        from rephrase_ls.improve.language_choice import prose_sample

        return prose_sample(state.text, state.blocks, limit)

    def language_of(
        self, doc: TextDocument, settings: Settings, backend: Backend | None
    ) -> LanguageChoice:
        """The document's language choice, without I/O (capabilities from the cache only)."""
        state = self.state(doc)
        caps = backend.capabilities.peek("write") if backend is not None else None
        detected = self.service_detected.get(doc.uri)
        before = self.variant_before_conversion.get(doc.uri)
        key = (settings, id(caps), detected, before)
        if state.language is not None and state.language[0] == key:
            return state.language[1]
        from rephrase_ls.improve.language_choice import resolve_language
        from rephrase_ls.text.markup import format_for

        choice = resolve_language(
            state.text,
            settings,
            caps,
            service_detected=detected,
            sample=self.prose_sample(state),
            detected_variant=before,
            fmt=format_for(doc.language_id, doc.uri, state.text),
        )
        state.language = (key, choice)
        return choice

    def to_range(self, state: DocumentState, start: int, end: int) -> types.Range:
        """Offsets → an LSP range in the negotiated encoding."""
        sl, sc = state.index.position(start, self.encoding)
        el, ec = state.index.position(end, self.encoding)
        return types.Range(types.Position(sl, sc), types.Position(el, ec))

    def to_offsets(self, state: DocumentState, rng: types.Range) -> tuple[int, int]:
        """An LSP range → offsets (a character past a line's end is its end, as LSP says).

        Raises ``JsonRpcInvalidParams`` (the client sees an InvalidParams error) for a line past
        the document's last one, and for a negative or larger than 2^31 - 1 position (which the
        protocol's own types refuse, but action data and command arguments come as plain JSON).
        """
        lines = state.index.line_count
        for name, pos in (("start", rng.start), ("end", rng.end)):
            for field, value in (("line", pos.line), ("character", pos.character)):
                if not isinstance(value, int) or not 0 <= value <= MAX_POSITION:
                    raise JsonRpcInvalidParams(
                        f"range {name}.{field} {value!r} is not a position (0..{MAX_POSITION})"
                    )
            if pos.line >= lines:
                raise JsonRpcInvalidParams(
                    f"range {name} line {pos.line} is past the document's end (it has {lines} "
                    "lines)"
                )
        start = state.index.offset(rng.start.line, rng.start.character, self.encoding)
        end = state.index.offset(rng.end.line, rng.end.character, self.encoding)
        return (start, end) if start <= end else (end, start)

    # -- warm-up -----------------------------------------------------------------------------------

    async def warm(self, uri: str) -> None:
        """Load settings and the write product's capability list for a document's folder."""
        from rephrase_ls.service.errors import ServiceError

        settings = await self.settings.for_uri(uri)
        try:
            backend = self.backends.get(settings)
        except ServiceError as exc:
            self.say_once(
                f"backend:{exc.message}", f"rephrase: {exc.message}", types.MessageType.Error
            )
            return
        if backend.embedded and "embedded" not in self._said_once:
            self._said_once.add("embedded")
            if self.offline:
                marker = "offline-workspace"
                message = (
                    "rephrase-ls: started with --offline (in VS Code: a workspace you have not "
                    "trusted): no API key is read and the embedded offline service answers."
                )
            else:
                marker = "offline-service"
                message = (
                    "rephrase-ls: no API key found (environment variable "
                    f"{settings.api_key_env}); using the embedded offline service. Set the key "
                    "to use the rephrase service."
                )
            # Shown once per installation (a marker in the user's state folder), logged on
            # every start.
            from rephrase_ls.config.user_state import first_time

            if first_time(marker):
                self.say(message)
            else:
                self.note(message, types.MessageType.Info)
        from rephrase_ls.service.errors import ServiceError

        try:
            await backend.capabilities.get("write")
        except ServiceError as exc:
            self.say_once(
                f"caps:{backend.description}",
                f"rephrase-ls: could not load the service's language list: {exc.message}",
                types.MessageType.Warning,
            )
