"""Code actions that improve text: listing them, and turning one into an edit.

Listing never waits on the network: it uses cached settings and capability lists. The edit is
computed in ``codeAction/resolve`` when the client resolves ``edit`` lazily; otherwise each action
carries the ``rephrase.applyAction`` command, which computes the edit and sends
``workspace/applyEdit``. The improvement itself is
:func:`rephrase_ls.improve.pipeline.improve_text`; here it becomes a protocol edit, pinned to the
document version, never applied when the document changed meanwhile or the service failed.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from rephrase_ls.lsp.edits import workspace_edit

if TYPE_CHECKING:
    # The pipeline and its options are imported on first use, not at start-up: start-up is
    # measured against a bare pygls server (bench/bench_startup.py).
    from pygls.workspace import TextDocument

    from rephrase_ls.config.settings import Settings
    from rephrase_ls.improve.backend import Backend
    from rephrase_ls.improve.language_choice import LanguageChoice
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.improve.pipeline import NotImproved
    from rephrase_ls.lsp.language_server import DocumentState, RephraseServer
    from rephrase_ls.review.findings import Finding
    from rephrase_ls.text.changes import ChangeLog
    from rephrase_ls.text.diff import TextEdit as Edit
    from rephrase_ls.text.markup import ProseBlock

APPLY_COMMAND = "rephrase.applyAction"

#: An edit, or a review's finding: a dataclass with ``start`` and ``end`` offsets.
Spanned = TypeVar("Spanned", "Edit", "Finding")


class Refusal(Exception):
    """Nothing is applied; the message tells the writer why and what to do (shown as ``kind``)."""

    def __init__(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class ActionRequest:
    """What an action (or the ``rephrase.improve`` command) asks for."""

    uri: str
    version: int | None
    range: types.Range | None
    whole: bool
    options: ImproveOptions

    @property
    def title(self) -> str:
        """The title of the action that asks for this (the label of its edits)."""
        options = self.options
        if options.correct:
            return "Correct document" if self.whole else "Correct"
        if options.variant is not None:
            return f"Convert to {options.variant}"
        if options.writing_style is not None:
            return f"Improve: {options.writing_style}"
        if options.tone is not None:
            return f"Improve: {options.tone}"
        return "Improve document" if self.whole else "Improve"

    def to_data(self) -> dict[str, Any]:
        rng = self.range
        kind, value = self.options.as_pair()
        return {
            "uri": self.uri,
            "version": self.version,
            "range": None
            if rng is None
            else [rng.start.line, rng.start.character, rng.end.line, rng.end.character],
            "whole": self.whole,
            "kind": kind,
            "value": value,
        }

    @classmethod
    def from_data(cls, data: Any) -> ActionRequest:
        """Parse action data; raises ValueError naming what is wrong."""
        if not isinstance(data, dict):
            raise ValueError("action data must be an object")
        uri = data.get("uri")
        if not isinstance(uri, str):
            raise ValueError("action data: 'uri' must be a string")
        version = data.get("version")
        if version is not None and not isinstance(version, int):
            raise ValueError("action data: 'version' must be an integer")
        raw = data.get("range")
        rng = None
        if raw is not None:
            if not (
                isinstance(raw, list)
                and len(raw) == 4
                and all(isinstance(v, int) and 0 <= v < 2**31 for v in raw)
            ):
                raise ValueError(
                    "action data: 'range' must be four integers from 0 to 2^31 - 1"
                )
            rng = types.Range(types.Position(raw[0], raw[1]), types.Position(raw[2], raw[3]))
        kind = data.get("kind", "default")
        if kind not in ("default", "style", "tone", "variant", "correct"):
            raise ValueError(f"action data: unknown kind {kind!r}")
        value = data.get("value")
        if value is not None and not isinstance(value, str):
            raise ValueError("action data: 'value' must be a string")
        from rephrase_ls.improve.options import ImproveOptions
        from rephrase_ls.service.models import UnknownName

        try:
            options = ImproveOptions.parse(
                writing_style=value or None if kind == "style" else None,
                tone=value or None if kind == "tone" else None,
                variant=value or None if kind == "variant" else None,
                correct=kind == "correct",
            )
        except UnknownName as exc:
            raise ValueError(f"action data: 'value': {exc}") from None
        return cls(uri, version, rng, bool(data.get("whole")), options)


def _kind_allowed(kind: str, only: list[str] | None) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


def list_actions(ls: RephraseServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    """The improvement actions for a range, from cached state only."""
    uri = params.text_document.uri
    doc = ls.workspace.text_documents.get(uri)
    if doc is None:
        return []
    only = [str(k.value if hasattr(k, "value") else k) for k in (params.context.only or [])]
    want_rewrite = _kind_allowed(types.CodeActionKind.RefactorRewrite.value, only)
    want_source = _kind_allowed(types.CodeActionKind.Source.value, only)
    if not (want_rewrite or want_source):
        return []
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.service.errors import ServiceError

    state = ls.state(doc)
    settings = ls.settings.cached_for_uri(uri)
    backend: Backend | None
    try:
        backend = ls.backends.get(settings)
    except ServiceError as exc:  # an unusable key: say so once, still offer "Improve"
        ls.say_once(f"backend:{exc.message}", f"rephrase: {exc.message}", types.MessageType.Error)
        backend = None
    if backend is not None and backend.capabilities.peek("write") is None:
        ls.spawn(ls.warm(uri))
    choice = ls.language_of(doc, settings, backend)
    groups = settings.actions
    actions: list[types.CodeAction] = []

    # A service known to lack the corrections endpoint: Correct is shown disabled with the
    # reason where the editor can show one, else left out.
    no_corrections = backend is not None and backend.client.corrections_known_absent
    offer_correct = "correct" in groups and (not no_corrections or ls.supports_disabled_actions)

    def make(title: str, kind: str, req: ActionRequest) -> types.CodeAction:
        if req.options.correct and no_corrections:
            from rephrase_ls.service.errors import CorrectionsUnavailable

            return types.CodeAction(
                title=title,
                kind=kind,
                disabled=types.CodeActionDisabled(reason=CorrectionsUnavailable.MESSAGE),
            )
        action = types.CodeAction(title=title, kind=kind, data=req.to_data())
        if not ls.supports_resolve_edit:
            action.command = types.Command(
                title=title, command=APPLY_COMMAND, arguments=[req.to_data()]
            )
        return action

    if want_rewrite:
        from rephrase_ls.text.paragraphs import select_paragraphs

        start, end = ls.to_offsets(state, params.range)
        paragraphs = select_paragraphs(state.text, start, end, state.blocks)
        if not paragraphs:
            if ls.supports_disabled_actions and "improve" in groups:
                actions.append(
                    types.CodeAction(
                        title="Improve",
                        kind=types.CodeActionKind.RefactorRewrite,
                        disabled=types.CodeActionDisabled(
                            reason="No prose here: the selection is code, math or markup only."
                        ),
                    )
                )
        else:
            kind = types.CodeActionKind.RefactorRewrite.value

            def req(options: ImproveOptions) -> ActionRequest:
                return ActionRequest(uri, doc.version, params.range, False, options)

            if offer_correct:
                actions.append(make("Correct", kind, req(ImproveOptions(correct=True))))
            if "improve" in groups:
                actions.append(make("Improve", kind, req(ImproveOptions())))
            if "styles" in groups:
                for style in choice.writing_styles:
                    options = ImproveOptions(writing_style=style)
                    actions.append(make(f"Improve: {style}", kind, req(options)))
            if "tones" in groups:
                for tone in choice.tones:
                    actions.append(make(f"Improve: {tone}", kind, req(ImproveOptions(tone=tone))))
            if "convert" in groups:
                for variant in choice.variants:
                    options = ImproveOptions(variant=variant)
                    actions.append(make(f"Convert to {variant}", kind, req(options)))
    if want_source and "document" in groups and state.blocks:
        if offer_correct:
            actions.append(
                make(
                    "Correct document",
                    types.CodeActionKind.Source.value,
                    ActionRequest(uri, doc.version, None, True, ImproveOptions(correct=True)),
                )
            )
        actions.append(
            make(
                "Improve document",
                types.CodeActionKind.Source.value,
                ActionRequest(uri, doc.version, None, True, ImproveOptions()),
            )
        )
    return actions


async def compute_edit(ls: RephraseServer, req: ActionRequest) -> types.WorkspaceEdit | None:
    """Improve what ``req`` asks for; the edit, or None after telling the writer why not.

    Raises :class:`Refusal` (to be shown) when nothing can be applied: a stale document, a
    service error, no prose, nothing to improve. Gives None when every paragraph was refused
    (each already named in a message). Cancellation propagates.
    """
    from rephrase_ls.improve.pipeline import NotImproved, improve_text
    from rephrase_ls.improve.request import ImproveRequest
    from rephrase_ls.lsp.cost import confirm_cost
    from rephrase_ls.lsp.progress import WorkDoneProgress
    from rephrase_ls.service.errors import ServiceError

    doc = ls.workspace.text_documents.get(req.uri)
    if doc is None:
        raise Refusal(f"rephrase: {req.uri} is not open in the editor; open it and try again.")
    if req.version is not None and doc.version != req.version:
        raise Refusal(
            "rephrase: the document changed since this action was offered; nothing was changed. "
            "Choose the action again."
        )
    state = ls.state(doc)
    version = doc.version
    settings = await ls.settings.for_uri(req.uri)
    try:
        backend = ls.backends.get(settings)
    except ServiceError as exc:
        raise Refusal(
            f"rephrase: {exc.message} Nothing was changed.", types.MessageType.Error
        ) from None
    caps, unavailable = await backend.write_capabilities()
    if unavailable is not None:
        known = "the last known one" if caps is not None else "none"
        ls.note(f"language list unavailable (using {known}): {unavailable.message}")
    choice = ls.language_of(doc, settings, backend)
    span = None if req.whole or req.range is None else ls.to_offsets(state, req.range)

    async def confirm(characters: int) -> bool:
        return await confirm_cost(ls, backend, settings, characters, req.title)

    request = ImproveRequest(
        state.text,
        version,
        state.blocks,
        span,
        req.options,
        settings,
        backend,
        choice,
        mode="correct" if req.options.correct else "rephrase",
        stripped=state.stripped,
    )
    regions = paragraph_regions(state, span)
    changes, unfollow = ls.follow_changes(req.uri, state)
    work = asyncio.ensure_future(
        improve_text(
            request,
            cache=ls.cache,
            progress=WorkDoneProgress(ls, "Improving text"),
            confirm=confirm,
        )
    )
    # The document's closing stops the work, and so does a change that leaves nothing to
    # apply (the whole text replaced, or every paragraph being improved edited); a change
    # elsewhere lets it go on, its edits moved through the change (see rebase).
    stopped_by: list[str] = []

    def stop(reason: str) -> None:
        if work.done():
            return
        if reason == "changed" and changes.broken is None:
            if not regions or any(changes.follow(r.start, r.end) is not None for r in regions):
                return
            reason = "edited"
        stopped_by.append(reason)
        work.cancel()

    unwatch = ls.watch_document(req.uri, stop)
    try:
        result = await work
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if stopped_by and (task is None or not task.cancelling()):
            if stopped_by[0] == "edited":
                raise Refusal(
                    f"rephrase: {_named(regions)} edited while the improvement was computed; "
                    "the improvement stopped and nothing was changed. Try again."
                ) from None
            raise Refusal(
                f"rephrase: the document {stopped_by[0]} while the improvement was computed; "
                "the improvement stopped and nothing was changed."
                + (" Try again." if stopped_by[0] == "changed" else "")
            ) from None
        raise
    finally:
        unwatch()
        unfollow()
    if isinstance(result, NotImproved):
        raise _refusal(ls, result, settings, backend)
    if result.detected_language:
        ls.service_detected[req.uri] = result.detected_language
    for message in result.refused:
        ls.say(f"rephrase: {message}", types.MessageType.Warning)
    current = ls.workspace.text_documents.get(req.uri)
    if current is None or (current.version != version and not follows_to(changes, current)):
        raise Refusal(
            "rephrase: the document changed while the improvement was computed; nothing was "
            "changed. Try again."
        )
    edits = result.edits
    edited: list[Region] = []
    if current.version != version:
        edits, edited = rebase(edits, regions, changes)
        for region in edited:
            ls.say(
                f"rephrase: {region.label} was not changed: it was edited while the improvement "
                "was computed. Choose the action again to improve it.",
                types.MessageType.Warning,
            )
        if result.edits and not edits:
            return None  # each edited paragraph was named above
        state = ls.state(current)
        version = current.version
    if req.options.is_conversion and edits:
        # a paragraph left out because the writer edited it is not converted
        _remember_variant(ls, req.uri, result.covers_all and not edited, choice)
    if not edits:
        if result.refused:
            return None  # each refused paragraph was named above
        raise Refusal(
            f"rephrase: no improvements found ({result.mode.label()}).", types.MessageType.Info
        )
    return workspace_edit(ls, state, req.uri, version, edits, req.title, settings)


@dataclass(frozen=True)
class Region:
    """A paragraph being improved: its whole span in ``text``, the document the work started on
    (a selection's paragraph is sent whole, as context), and what names it for the writer."""

    start: int
    end: int
    text: str = field(repr=False)
    number: int | None = None
    """Its place among the paragraphs being improved (None: not a paragraph)."""

    @property
    def label(self) -> str:
        """``paragraph 2 (line 5, “…”)``, the whole paragraph's first words (worked out only
        when a message needs it)."""
        if self.number is None:
            line = self.text.count("\n", 0, self.start) + 1
            return f"the text at line {line}"
        from rephrase_ls.improve.round_trip import paragraph_label
        from rephrase_ls.text.paragraphs import Paragraph

        return paragraph_label(self.text, Paragraph(self.start, self.end, ""), self.number)


def paragraph_regions(state: DocumentState, span: tuple[int, int] | None) -> list[Region]:
    """The paragraphs an improvement of ``span`` (None: the whole document) works on, each
    widened to its whole block, in document order."""
    from rephrase_ls.text.paragraphs import select_paragraphs

    text, blocks = state.text, state.blocks
    start, end = (0, len(text)) if span is None else span
    regions = []
    for n, paragraph in enumerate(select_paragraphs(text, start, end, blocks)):
        lo, hi = paragraph.start, paragraph.end
        at = bisect_right(blocks, lo, key=_block_start) - 1
        if at >= 0 and blocks[at].end >= hi:
            lo, hi = min(lo, blocks[at].start), max(hi, blocks[at].end)
        regions.append(Region(lo, hi, text, n))
    return regions


def _block_start(block: ProseBlock) -> int:
    return block.start


def _named(regions: list[Region]) -> str:
    """``paragraph 1 (line 3, “…”) was`` or ``every paragraph being improved was``."""
    if len(regions) == 1:
        return f"{regions[0].label} was"
    return "every paragraph being improved was"


def follows_to(changes: ChangeLog, current: TextDocument) -> bool:
    """Whether the change log brings the work's version to the document's current one."""
    return (
        changes.broken is None
        and changes.version == current.version
        and changes.text == current.source
    )


def rebase(
    edits: list[Spanned], regions: list[Region], changes: ChangeLog
) -> tuple[list[Spanned], list[Region]]:
    """The edits (or anything else with ``start`` and ``end`` in the starting text, sorted)
    moved through ``changes`` into the current text, without those of a paragraph a change
    overlapped or touched; and those paragraphs. An edit outside every paragraph (none is
    expected) is kept only when no change touched it itself."""
    from dataclasses import replace

    moved: list[Spanned] = []
    edited: list[Region] = []
    shift: dict[int, int | None] = {}
    for edit in edits:
        n = bisect_right(regions, edit.start, key=_region_start) - 1
        if n < 0 or edit.end > regions[n].end:
            spot = changes.follow(edit.start, edit.end)
            if spot is None:
                edited.append(Region(edit.start, edit.end, changes.base_text))
            else:
                moved.append(replace(edit, start=spot[0], end=spot[1]))
            continue
        if n not in shift:
            region = regions[n]
            spot = changes.follow(region.start, region.end)
            shift[n] = None if spot is None else spot[0] - region.start
            if spot is None:
                edited.append(region)
        delta = shift[n]
        if delta is not None:
            moved.append(replace(edit, start=edit.start + delta, end=edit.end + delta))
    return moved, edited


def _region_start(region: Region) -> int:
    return region.start


def _refusal(
    ls: RephraseServer, result: NotImproved, settings: Settings, backend: Backend
) -> Refusal:
    """The message for an improvement that did not go through."""
    from rephrase_ls.service.errors import (
        AuthorizationFailed,
        BadRequest,
        CorrectionsUnavailable,
    )

    exc = result.error
    if exc is None:
        return Refusal(f"rephrase: {result.message}.", types.MessageType.Info)
    if isinstance(exc, CorrectionsUnavailable):
        if not exc.known:
            ls.note(f"POST /v2/write/correct: 404 (trace_id={exc.trace_id})")
        return Refusal(f"rephrase: {exc.message} Nothing was changed.")
    detail = f"{type(exc).__name__}: status={exc.status} trace_id={exc.trace_id}"
    ls.note(f"rephrase request failed ({detail}): {exc.message}", types.MessageType.Error)
    retried = f" (retried {exc.retries} times)" if exc.retries else ""
    if isinstance(exc, BadRequest) and result.language_unknown:
        retried += (
            ". The document's language could not be determined: set rephrase.language "
            "or add a 'rephrase: language=xx' comment."
        )
    source = ""
    if isinstance(exc, AuthorizationFailed) and not backend.embedded:
        from rephrase_ls.improve.backend import key_source

        source = f" (the key comes from {key_source(settings)})"
    return Refusal(
        f"rephrase: {exc.message}{retried}{source} Nothing was changed.",
        types.MessageType.Error,
    )


def _remember_variant(ls: RephraseServer, uri: str, whole: bool, choice: LanguageChoice) -> None:
    """A conversion of part of a document leaves the document's detected variant as it was;
    converting all of its prose makes detection decide again."""
    if whole:
        ls.variant_before_conversion.pop(uri, None)
    elif choice.source == "detected" and choice.language and "-" in choice.language:
        ls.variant_before_conversion.setdefault(uri, choice.language)


async def on_code_action(
    ls: RephraseServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    """``textDocument/codeAction``."""
    # Just after a document opened (or the settings changed) the editor's settings may still
    # be on their way: wait for them (the client, not the network) so the list follows them.
    await ls.settings.settle(params.text_document.uri)
    return list_actions(ls, params)


async def resolve_action(ls: RephraseServer, action: types.CodeAction) -> types.CodeAction:
    """``codeAction/resolve``: fill in the edit (or leave it out after saying why)."""
    if action.data is None or action.edit is not None:
        return action
    try:
        req = ActionRequest.from_data(action.data)
    except ValueError as exc:
        raise JsonRpcInvalidParams(str(exc)) from None
    task = asyncio.current_task()
    msg_id = ls.protocol.msg_id
    if task is not None and msg_id is not None:
        ls.track(("request", msg_id), task)
    try:
        edit = await compute_edit(ls, req)
    except Refusal as exc:
        ls.say(str(exc), exc.kind)
        return action
    except asyncio.CancelledError:
        if task is not None and task.cancelling():
            raise  # $/cancelRequest: answered RequestCancelled
        return action  # the writer cancelled the progress: the action, without an edit
    if edit is not None:
        action.edit = edit
    return action


async def apply_request(ls: RephraseServer, req: ActionRequest) -> dict[str, Any]:
    """Compute the edit and send it with ``workspace/applyEdit`` (the command path)."""
    task = asyncio.current_task()
    msg_id = ls.protocol.msg_id
    if task is not None and msg_id is not None:
        ls.track(("request", msg_id), task)
    try:
        edit = await compute_edit(ls, req)
    except Refusal as exc:
        ls.say(str(exc), exc.kind)
        return {"applied": False, "reason": str(exc)}
    except asyncio.CancelledError:
        return {"applied": False, "reason": "cancelled"}
    if edit is None:
        return {"applied": False, "reason": "every paragraph was refused (see the messages)"}
    count = sum(
        len(d.edits) for d in edit.document_changes or [] if isinstance(d, types.TextDocumentEdit)
    )
    count += sum(len(v) for v in (edit.changes or {}).values())
    result = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=req.title)
    )
    if not result.applied:
        reason = result.failure_reason or "the editor refused the edit (the text probably changed)"
        ls.say(f"rephrase: the improvement was not applied: {reason}", types.MessageType.Warning)
        return {"applied": False, "reason": reason}
    return {"applied": True, "edits": count}
