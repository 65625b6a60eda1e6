# Over 400 lines: debounce, worker thread, pull and push paths share one per-document state.
"""Review mode's diagnostics: the offline engine's findings while typing, and the service's
findings after **Review with the service**, one diagnostic per finding.

Clients that pull diagnostics (``textDocument/diagnostic``) get them as answers; the others get
``textDocument/publishDiagnostics``. After an edit the offline review waits :data:`DEBOUNCE`
seconds of quiet, then runs :func:`rephrase_ls.review.findings` in a worker thread (listing code
actions never waits for it), with the target and variant facts a plain Improve of the document
has (:func:`rephrase_ls.review.review_mode`), so that its findings are what Improve would do.
Before each paragraph the engine improves, the review stops when a newer version arrived, the
document closed or its request was cancelled (``$/cancelRequest``), and gives its turn to
another document's review waiting for one (:class:`Turns`): a long document's review never
holds back the others' more than a paragraph at a time. Only the changed
paragraphs are improved again (the :class:`ReviewCache`). A document longer than the
``diagnosticsMaxSize`` setting is not reviewed offline (the writer is told once).

The service's findings are kept with the text they were made on and carried through each edit:
one whose words the edit touched is dropped, the others move with the text.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from lsprotocol import types

from rephrase_ls.lsp.pygls_adapter import send_json

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.lsp.language_server import DocumentState, RephraseServer
    from rephrase_ls.review import Finding, ReviewCache

T = TypeVar("T")

#: Seconds of quiet after an edit before the offline review runs.
DEBOUNCE = 0.3
#: The GIL switch interval while the engine works in its thread (seconds).
SWITCH_INTERVAL = 0.0001
#: After a review that improved at least this many paragraphs, the C allocator's free memory is
#: given back to the system (:func:`rephrase_ls.memory.release_free_memory`).
TRIM_AFTER_PARAGRAPHS = 64
#: The ``source`` of every rephrase diagnostic.
SOURCE = "rephrase"
#: ``data.origin`` of a diagnostic: the offline engine, or a review by the service.
OFFLINE = "offline"
SERVICE = "service"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


@dataclass
class Reviewed:
    """One document's findings for one version: offline and from the service."""

    version: int | None
    text: str
    offline: list[Finding]
    service: list[Finding]


@dataclass
class _Carried:
    """The service's findings for a document and the text they apply to."""

    text: str
    findings: list[Finding]


class Turns:
    """A lock taken in turn (first come, first served) by the reviews' worker threads, which
    a holder can hand on between paragraphs (:meth:`pass_turn`) when another review waits."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._waiting: deque[object] = deque()
        self._held = False

    def acquire(self) -> None:
        with self._changed:
            me = object()
            self._waiting.append(me)
            while self._held or self._waiting[0] is not me:
                self._changed.wait()
            self._waiting.popleft()
            self._held = True

    def release(self) -> None:
        with self._changed:
            self._held = False
            self._changed.notify_all()

    def pass_turn(self) -> None:
        """Let the reviews that wait go first, then take the lock again (held on return)."""
        with self._changed:
            if not self._waiting:
                return
        self.release()
        self.acquire()

    def __enter__(self) -> Turns:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@dataclass
class ReviewState:
    """The server's review state (one per server)."""

    cache: ReviewCache
    lock: Turns = field(default_factory=Turns)
    """Held while the engine works (the cache is not thread-safe), a paragraph at a time."""
    reviewed: dict[str, Reviewed] = field(default_factory=dict)
    service: dict[str, _Carried] = field(default_factory=dict)
    pending: dict[str, asyncio.Task[Any]] = field(default_factory=dict)
    changed_at: dict[str, float] = field(default_factory=dict)
    checked: dict[str, int | None] = field(default_factory=dict)
    """The version of each document to review when ``diagnosticsOn`` is ``save`` or ``open``
    (the version opened or last saved): a pull for a later version keeps what was shown."""
    shown: dict[str, Reviewed] = field(default_factory=dict)
    """The findings of the last full report pulled for each document: with ``diagnosticsOn``
    ``save`` or ``open``, a pull without ``previousResultId`` for a version typed since (Neovim
    0.11 never sends one; VS Code after a cancelled pull) gets them again, moved with the text."""
    due: set[str] = field(default_factory=set)
    """Documents reviewed again (saved, or their words or settings changed) whose next pull
    gets the review of its own version, whatever was typed since: a client that cannot be asked
    to pull again (Neovim 0.10, 0.11 without the rephrase plugin) pulls only at the next edit."""


_switch_lock = threading.Lock()
_switch_users = 0
_switch_saved = 0.005


@contextlib.contextmanager
def _short_switches() -> Iterator[None]:
    """While review work runs in a thread, the event loop (a code action) waits for the GIL at
    most :data:`SWITCH_INTERVAL`, not Python's default 5 ms, at each step of a request."""
    global _switch_users, _switch_saved
    with _switch_lock:
        if _switch_users == 0:
            _switch_saved = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_INTERVAL)
        _switch_users += 1
    try:
        yield
    finally:
        with _switch_lock:
            _switch_users -= 1
            if _switch_users == 0:
                sys.setswitchinterval(_switch_saved)


def _in_thread(func: Callable[..., T], *args: Any) -> Awaitable[T]:
    """``func(*args)`` in a worker thread, with short GIL switches."""

    def run() -> T:
        with _short_switches():
            return func(*args)

    return asyncio.to_thread(run)


_STATES: weakref.WeakKeyDictionary[RephraseServer, ReviewState] = weakref.WeakKeyDictionary()


def review_state(ls: RephraseServer) -> ReviewState:
    """The server's review state, created on first use."""
    state = _STATES.get(ls)
    if state is None:
        from rephrase_ls.review import ReviewCache

        state = _STATES[ls] = ReviewState(ReviewCache())
    return state


def pulls(ls: RephraseServer) -> bool:
    """Whether the client pulls diagnostics (``textDocument/diagnostic``)."""
    text_document = ls.client_capabilities.text_document
    return bool(text_document and text_document.diagnostic is not None)


# -- the document's findings --


def _version_of(ls: RephraseServer, uri: str) -> int | bool | None:
    """The open document's version, or False when it is not open."""
    doc = ls.workspace.text_documents.get(uri)
    return False if doc is None else doc.version


async def current(ls: RephraseServer, uri: str) -> Reviewed | None:
    """The findings for the document's current version (computed unless kept), or None when the
    document is not open. A newer version arriving meanwhile restarts the work on it."""
    from rephrase_ls.review import ReviewCancelled

    rs = review_state(ls)
    while True:
        doc = ls.workspace.text_documents.get(uri)
        if doc is None:
            return None
        kept = rs.reviewed.get(uri)
        if kept is not None and kept.version == doc.version and kept.text == doc.source:
            return kept
        try:
            return await _compute(ls, uri)
        except ReviewCancelled:
            continue


async def _compute(ls: RephraseServer, uri: str) -> Reviewed:
    from rephrase_ls.config.settings import rules_off, rules_on, words_for
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.improve.request import ImproveRequest
    from rephrase_ls.memory import release_free_memory
    from rephrase_ls.review import ReviewCancelled, findings, review_mode
    from rephrase_ls.review.choice import shown
    from rephrase_ls.service.errors import ServiceError
    from rephrase_ls.text.markup import format_for

    rs = review_state(ls)
    doc = ls.workspace.text_documents[uri]
    version = doc.version
    settings = await ls.settings.for_uri(uri)
    if _version_of(ls, uri) != version:
        raise ReviewCancelled
    state = ls.state(doc)
    offline: list[Finding] = []
    target: str | None = None
    too_large = len(state.text) > settings.diagnostics_max_size
    if too_large and settings.diagnostics == "offline":
        _say_too_large(ls, uri, len(state.text), settings.diagnostics_max_size)
    if (
        settings.diagnostics == "offline"
        and state.blocks
        and not too_large
        and not ls.settings.excluded(uri, settings)
    ):
        try:
            backend = ls.backends.get(settings)
        except ServiceError:
            backend = None
        # the request a plain Improve of the whole document would make
        request = ImproveRequest(
            state.text,
            version,
            state.blocks,
            None,
            ImproveOptions(),
            settings,
            backend,
            ls.language_of(doc, settings, backend),
            stripped=state.stripped,
        )
        # as a plain Improve asks: its target, and what it keeps of the document's variant
        mode = review_mode(request.settings, request.language)
        if mode is not None and mode.target_lang is not None:
            target = mode.target_lang

            stop = threading.Event()

            def stale() -> bool:
                return stop.is_set() or _version_of(ls, uri) != version

            def between_paragraphs() -> bool:
                """Whether to stop; else another review waiting goes first."""
                if stale():
                    return True
                rs.lock.pass_turn()
                return stale()

            def work() -> list[Finding]:
                with rs.lock:
                    if stale():
                        raise ReviewCancelled
                    runs = rs.cache.engine_runs
                    try:
                        with _short_switches():
                            return findings(
                                request.text,
                                request.blocks,
                                target_lang=target,
                                words=words_for(request.settings, target),
                                cache=rs.cache,
                                cancelled=between_paragraphs,
                                keep_variant=mode.keep_variant,
                                variant_detected=mode.variant_detected,
                                unknown_words=True,
                                stripped=request.stripped,
                            )
                    finally:
                        if rs.cache.engine_runs - runs >= TRIM_AFTER_PARAGRAPHS:
                            release_free_memory()

            running = asyncio.ensure_future(asyncio.to_thread(work))
            try:
                offline = await asyncio.shield(running)
            except asyncio.CancelledError:
                # the request was cancelled or the document closed: the thread stops before its
                # next paragraph
                stop.set()
                running.add_done_callback(lambda done: _stopped(ls, uri, version, done))
                raise
            except ReviewCancelled:
                _stopped(ls, uri, version, running)
                raise
    if _version_of(ls, uri) != version:
        raise ReviewCancelled
    # The kinds turned off, and spacing the rendered document does not show (review.choice).
    fmt = format_for(doc.language_id, uri, state.text)
    off, on = rules_off(settings, target), rules_on(settings, target)
    offline = shown(offline, off, on, fmt)
    service = shown(service_findings(ls, uri, state.text), off, on, fmt)
    reviewed = Reviewed(version, state.text, offline, service)
    rs.reviewed[uri] = reviewed
    return reviewed


def _stopped(ls: RephraseServer, uri: str, version: int | None, done: asyncio.Future[Any]) -> None:
    """Note in the log that the review of ``version`` stopped before its end (its work is
    over), and why."""
    from rephrase_ls.review import ReviewCancelled

    if done.cancelled() or not isinstance(done.exception(), ReviewCancelled):
        return
    now = _version_of(ls, uri)
    reason = (
        "the document closed"
        if now is False
        else "a newer version arrived"
        if now != version
        else "its request was cancelled"
    )
    ls.note(f"review of {uri.rsplit('/', 1)[-1]} (version {version}) stopped: {reason}")


def _say_too_large(ls: RephraseServer, uri: str, size: int, limit: int) -> None:
    """Tell the writer, once per document, that it is not reviewed while they type."""
    name = uri.rsplit("/", 1)[-1]
    ls.say_once(
        f"diagnostics-too-large:{uri}",
        f"rephrase: {name} has {size:,} characters, more than diagnosticsMaxSize ({limit:,}): "
        "the offline engine does not review it while you type. Improve and Review with the "
        "service still work on it; raise diagnosticsMaxSize to have it reviewed.",
    )


def diagnostics(
    ls: RephraseServer, state: DocumentState, reviewed: Reviewed, settings: Settings
) -> list[dict[str, Any]]:
    """One diagnostic per finding (the service's after the offline ones), as JSON values:
    built in a worker thread and sent as they are, so that hundreds of them cost the event
    loop (and the code actions waiting on it) one ``json.dumps``, not a conversion per field."""
    from rephrase_ls.review.codes import UNKNOWN_WORD

    severity = _SEVERITY[settings.diagnostic_severity].value
    unknown_severity = _SEVERITY[settings.unknown_word_severity].value
    encoding = ls.encoding
    index = state.index
    out = []
    for origin, found in ((OFFLINE, reviewed.offline), (SERVICE, reviewed.service)):
        for f in found:
            data: dict[str, Any] = {
                "origin": origin,
                "original": f.original,
                "replacement": f.replacement,
                "version": reviewed.version,
            }
            if f.word is not None:
                data["word"] = f.word
            if f.code == UNKNOWN_WORD:
                data["suggestions"] = list(f.suggestions)
            (sl, sc), (el, ec) = index.position(f.start, encoding), index.position(f.end, encoding)
            out.append(
                {
                    "range": {
                        "start": {"line": sl, "character": sc},
                        "end": {"line": el, "character": ec},
                    },
                    "message": f.message if origin == OFFLINE else f"{f.message} (service review)",
                    "severity": unknown_severity if f.code == UNKNOWN_WORD else severity,
                    "code": f.code,
                    "source": SOURCE,
                    "data": data,
                }
            )
    return out


# -- the service's findings, carried through edits -----------------------------------------------


def service_findings(ls: RephraseServer, uri: str, text: str) -> list[Finding]:
    """The service's findings that still apply to ``text`` (the document's current text)."""
    carried = review_state(ls).service.get(uri)
    if carried is None:
        return []
    if carried.text != text:
        from rephrase_ls.review.carry import carry

        carried.findings = carry(carried.findings, carried.text, text)
        carried.text = text
    return list(carried.findings)


def set_service_findings(
    ls: RephraseServer, uri: str, text: str, span: tuple[int, int] | None, found: list[Finding]
) -> None:
    """Keep a review's findings: they replace those inside ``span`` (None: the whole text)."""
    rs = review_state(ls)
    kept = service_findings(ls, uri, text)
    outside = [] if span is None else [f for f in kept if f.end <= span[0] or f.start >= span[1]]
    rs.service[uri] = _Carried(text, sorted(outside + found, key=lambda f: (f.start, f.end)))
    rs.reviewed.pop(uri, None)


# -- scheduling and publishing --


#: What starts a review: the document opened, typed in, saved, or its findings' inputs
#: changed (words, settings, a service review).
Trigger = Literal["open", "type", "save", "refresh"]
#: The triggers each ``diagnosticsOn`` value reviews on.
_TRIGGERS: dict[str, frozenset[str]] = {
    "type": frozenset(("open", "type", "save", "refresh")),
    "save": frozenset(("open", "save", "refresh")),
    "open": frozenset(("open", "refresh")),
}


def schedule(
    ls: RephraseServer, uri: str, delay: float = DEBOUNCE, trigger: Trigger = "type"
) -> None:
    """Review the document after ``delay`` seconds of quiet (a newer call restarts the wait),
    if the document's ``diagnosticsOn`` reviews on ``trigger``; pushed to clients that do not
    pull, a refresh asked of those that do."""
    rs = review_state(ls)
    rs.changed_at[uri] = time.monotonic()
    if pulls(ls):
        return
    pending = rs.pending.pop(uri, None)
    if pending is not None and not pending.done():
        pending.cancel()
    task = ls.spawn(_publish_later(ls, uri, delay, trigger))
    rs.pending[uri] = task


async def _publish_later(ls: RephraseServer, uri: str, delay: float, trigger: Trigger) -> None:
    await asyncio.sleep(delay)
    settings = await ls.settings.for_uri(uri)
    if trigger in _TRIGGERS[settings.diagnostics_on]:
        await publish(ls, uri)


async def publish(ls: RephraseServer, uri: str) -> None:
    """Push the document's diagnostics for its current version."""
    reviewed = await current(ls, uri)
    doc = ls.workspace.text_documents.get(uri)
    if reviewed is None or doc is None or doc.version != reviewed.version:
        return
    settings = await ls.settings.for_uri(uri)
    items = (
        []
        if ls.settings.excluded(uri, settings)
        else await _in_thread(diagnostics, ls, ls.state(doc), reviewed, settings)
    )
    current_doc = ls.workspace.text_documents.get(uri)
    if current_doc is None or current_doc.version != reviewed.version:
        return  # a newer version's own review will publish
    params = {"uri": uri, "version": reviewed.version, "diagnostics": items}
    # Sent as plain JSON values (see diagnostics()); pygls would convert each field again.
    send_json(
        ls.protocol,
        {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, "params": params},
    )


def _ask_to_pull(ls: RephraseServer) -> None:
    """Ask a pulling client to pull every document's diagnostics again, where it can be asked
    (``workspace/diagnostic/refresh``)."""
    workspace = ls.client_capabilities.workspace
    support = workspace.diagnostics if workspace else None
    if support is not None and support.refresh_support:
        ls.spawn(ls.workspace_diagnostic_refresh_async(None))


def refresh(ls: RephraseServer, uri: str | None = None) -> None:
    """Findings changed without an edit (a review, new words, settings): publish them again, or
    ask a pulling client to pull again."""
    rs = review_state(ls)
    if uri is None:
        rs.reviewed.clear()
    else:
        rs.reviewed.pop(uri, None)
    if pulls(ls):
        rs.due.update([uri] if uri is not None else ls.workspace.text_documents)
        _ask_to_pull(ls)
        return
    for open_uri in [uri] if uri is not None else list(ls.workspace.text_documents):
        schedule(ls, open_uri, 0, "refresh")


def forget(ls: RephraseServer, uri: str) -> None:
    """The document closed: drop its findings (and clear them in a client that was pushed them)."""
    rs = review_state(ls)
    rs.reviewed.pop(uri, None)
    rs.service.pop(uri, None)
    rs.changed_at.pop(uri, None)
    rs.checked.pop(uri, None)
    rs.shown.pop(uri, None)
    rs.due.discard(uri)
    pending = rs.pending.pop(uri, None)
    if pending is not None:
        pending.cancel()
    if not pulls(ls):
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )


# -- handlers --


def on_initialize(ls: RephraseServer, params: types.InitializeParams) -> None:
    """Declare the pull provider to a client that pulls diagnostics (pygls computes the
    server's capabilities after the initialize handler); the others are pushed them."""
    if pulls(ls):
        options = types.DiagnosticOptions(
            identifier=SOURCE, inter_file_dependencies=False, workspace_diagnostics=False
        )
        ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, options)(on_diagnostic)


def _project_file(uri: str) -> bool:
    """Whether ``uri`` is a project file (its ``words`` and settings shape every review)."""
    from rephrase_ls.config.project_file import FILE_NAME

    return uri.rsplit("/", 1)[-1] == FILE_NAME


def on_open(ls: RephraseServer, params: types.DidOpenTextDocumentParams) -> None:
    review_state(ls).checked[params.text_document.uri] = params.text_document.version
    schedule(ls, params.text_document.uri, trigger="open")


def on_change(ls: RephraseServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    if _project_file(uri):
        refresh(ls)
    rs = review_state(ls)
    doc = ls.workspace.text_documents.get(uri)
    if doc is not None and uri in rs.service:
        service_findings(ls, uri, doc.source)  # carried through each edit, one at a time
    shown = rs.shown.get(uri)
    if doc is not None and shown is not None:
        rs.shown[uri] = _moved(shown, doc.version, doc.source)  # the same, for diagnosticsOn
    schedule(ls, uri)


async def on_save(ls: RephraseServer, params: types.DidSaveTextDocumentParams) -> None:
    """With ``diagnosticsOn = "save"``, the saved version is reviewed (pushed, or a pulling
    client asked to pull again)."""
    uri = params.text_document.uri
    doc = ls.workspace.text_documents.get(uri)
    if doc is None:
        return
    settings = await ls.settings.for_uri(uri)
    if settings.diagnostics_on != "save":
        return
    rs = review_state(ls)
    rs.checked[uri] = doc.version
    if pulls(ls):
        rs.due.add(uri)
        _ask_to_pull(ls)
        return
    schedule(ls, uri, 0, "save")


def on_close(ls: RephraseServer, params: types.DidCloseTextDocumentParams) -> None:
    forget(ls, params.text_document.uri)


def on_configuration(ls: RephraseServer, params: types.DidChangeConfigurationParams) -> None:
    refresh(ls)


async def on_diagnostic(
    ls: RephraseServer, params: types.DocumentDiagnosticParams
) -> types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport | dict[str, Any]:
    """``textDocument/diagnostic``: the findings of the current version, after the quiet (a
    full report as plain JSON values, see :func:`diagnostics`)."""
    uri = params.text_document.uri
    rs = review_state(ls)
    doc = ls.workspace.text_documents.get(uri)
    if doc is not None and uri in rs.due:
        rs.due.discard(uri)
        rs.checked[uri] = doc.version
    if doc is not None and doc.version != rs.checked.get(uri):
        settings = await ls.settings.for_uri(uri)
        if settings.diagnostics_on != "type":
            # Reviewed on open or save only: the client keeps what it shows.
            if params.previous_result_id:
                return types.UnchangedDocumentDiagnosticReport(result_id=params.previous_result_id)
            last = rs.shown.get(uri)
            if last is not None:
                return await _shown_again(ls, uri, last, settings)
    while (wait := rs.changed_at.get(uri, 0.0) + DEBOUNCE - time.monotonic()) > 0:
        await asyncio.sleep(wait)
    reviewed = await current(ls, uri)
    doc = ls.workspace.text_documents.get(uri)
    if reviewed is None or doc is None:
        return types.FullDocumentDiagnosticReport(items=[])
    settings = await ls.settings.for_uri(uri)
    digest = hash(
        (
            tuple(reviewed.offline),
            tuple(reviewed.service),
            settings.diagnostic_severity,
            ls.settings.excluded(uri, settings),
            settings.unknown_word_severity,
        )
    )
    result_id = f"{reviewed.version}:{digest & 0xFFFFFFFF:x}"
    if params.previous_result_id == result_id:
        return types.UnchangedDocumentDiagnosticReport(result_id=result_id)
    items = (
        []
        if ls.settings.excluded(uri, settings)
        else await _in_thread(diagnostics, ls, ls.state(doc), reviewed, settings)
    )
    if settings.diagnostics_on == "type":
        rs.shown.pop(uri, None)
    else:
        rs.shown[uri] = reviewed
    return {"kind": "full", "resultId": result_id, "items": items}


def _moved(last: Reviewed, version: int | None, text: str) -> Reviewed:
    """``last``'s findings on ``text`` (one edit later): moved with the text, a finding whose
    words changed dropped."""
    from rephrase_ls.review.carry import carry

    if last.text == text:
        return Reviewed(version, text, last.offline, last.service)
    return Reviewed(
        version, text, carry(last.offline, last.text, text), carry(last.service, last.text, text)
    )


async def _shown_again(
    ls: RephraseServer, uri: str, last: Reviewed, settings: Settings
) -> dict[str, Any]:
    """A full report of the findings last shown, moved with the text typed since (a finding
    whose words changed is dropped), for a pull that keeps what was shown but names no
    previous result."""
    doc = ls.workspace.text_documents[uri]
    moved = review_state(ls).shown[uri] = _moved(last, doc.version, doc.source)
    items = (
        []
        if ls.settings.excluded(uri, settings)
        else await _in_thread(diagnostics, ls, ls.state(doc), moved, settings)
    )
    return {"kind": "full", "resultId": f"{doc.version}:kept", "items": items}
