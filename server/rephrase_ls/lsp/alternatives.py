"""Alternatives: the paragraph(s) at a range rewritten in every writing style and every tone
the document's language offers, for the writer to pick one.

``rephrase.alternatives [uri, range?, options?]`` asks the service once per style and tone,
through the one pipeline (:func:`rephrase_ls.improve.pipeline.improve_text`), all at once within the
``maxConcurrency`` limit, and returns each rewrite that differs from the text with its minimal,
versioned edits and the command that applies it. ``rephrase.applyAlternative [uri, range,
choice]`` applies one: the same request again, answered from the improvement cache (nothing is
billed twice), refused when the document changed. The code action "Show alternatives…" runs
``rephrase.alternatives`` with ``pick``: the server offers the labels with
``window/showMessageRequest`` and applies the one chosen; editors with their own picker call the
command and show its result.
"""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from rephrase_ls.lsp.actions import (
    ActionRequest,
    Refusal,
    apply_request,
    follows_to,
    paragraph_regions,
)
from rephrase_ls.lsp.actions import on_code_action as on_improve_actions
from rephrase_ls.lsp.arguments import arg, invalid, max_args, open_uri, range_arg
from rephrase_ls.lsp.edits import workspace_edit

if TYPE_CHECKING:
    from rephrase_ls.improve.language_choice import LanguageChoice
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.lsp.language_server import RephraseServer

ALTERNATIVES_COMMAND = "rephrase.alternatives"
APPLY_ALTERNATIVE_COMMAND = "rephrase.applyAlternative"
ACTION_TITLE = "Show alternatives…"
#: How many characters of a rewrite its preview shows.
PREVIEW_CHARS = 72


@functools.cache
def _converter() -> Any:
    from lsprotocol.converters import get_converter

    return get_converter()


def _unstructure(value: Any) -> Any:
    """An lsprotocol value as JSON data (the shape it has on the wire)."""
    return _converter().unstructure(value)


def label_of(options: ImproveOptions) -> str:
    """What the writer sees for one alternative: ``business (writing style)``."""
    if options.writing_style is not None:
        return f"{options.writing_style} (writing style)"
    return f"{options.tone} (tone)"


def preview(text: str, limit: int = PREVIEW_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters at a word where it is longer."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


def rewritten(text: str, start: int, end: int, edits: list[Any]) -> str:
    """``text[start:end]`` with the sorted, non-overlapping ``edits`` (document offsets) applied."""
    out: list[str] = []
    pos = start
    for e in edits:
        out.append(text[pos : e.start])
        out.append(e.new_text)
        pos = e.end
    out.append(text[pos:end])
    return "".join(out)


@dataclass
class Alternatives:
    """What ``rephrase.alternatives`` found for one part of a document."""

    uri: str
    version: int
    range: types.Range
    language: str | None
    found: list[dict[str, Any]] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)

    def to_json(self, ls: RephraseServer) -> dict[str, Any]:
        rng = _unstructure(self.range)
        return {
            "uri": self.uri,
            "version": self.version,
            "range": rng,
            "language": self.language,
            "alternatives": self.found,
            "failed": self.failed,
            "unchanged": self.unchanged,
        }


def choices_for(choice: LanguageChoice) -> list[ImproveOptions]:
    """Every writing style, then every tone, the document's language offers."""
    from rephrase_ls.improve.options import ImproveOptions

    return [ImproveOptions(writing_style=s) for s in choice.writing_styles] + [
        ImproveOptions(tone=t) for t in choice.tones
    ]


async def compute_alternatives(
    ls: RephraseServer, uri: str, rng: types.Range | None, version: int | None
) -> Alternatives:
    """Ask for every style and tone at once; raises :class:`Refusal` when none can be offered
    (stale or closed document, no prose, a language without styles, every request failed,
    nothing different from the text)."""
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.improve.pipeline import (
        NotImproved,
        characters_to_send,
        improve_text,
        prose_bytes,
    )
    from rephrase_ls.improve.request import ImproveRequest
    from rephrase_ls.improve.round_trip import with_context
    from rephrase_ls.lsp.cost import confirm_cost, declined
    from rephrase_ls.lsp.progress import WorkDoneProgress
    from rephrase_ls.service.errors import ServiceError
    from rephrase_ls.text.diff import TextEdit
    from rephrase_ls.text.paragraphs import select_paragraphs

    doc = ls.workspace.text_documents.get(uri)
    if doc is None:
        raise Refusal(f"rephrase: {uri} is not open in the editor; open it and try again.")
    if version is not None and doc.version != version:
        raise Refusal(
            "rephrase: the document changed since the alternatives were asked for; nothing was "
            "changed. Ask again."
        )
    state = ls.state(doc)
    version = doc.version
    settings = await ls.settings.for_uri(uri)
    try:
        backend = ls.backends.get(settings)
    except ServiceError as exc:
        raise Refusal(f"rephrase: {exc.message}", types.MessageType.Error) from None
    caps, unavailable = await backend.write_capabilities()
    if unavailable is not None:
        known = "the last known one" if caps is not None else "none"
        ls.note(f"language list unavailable (using {known}): {unavailable.message}")
    choice = ls.language_of(doc, settings, backend)
    options = choices_for(choice)
    if not options:
        why = choice.reason or "the document's language has no writing styles or tones"
        raise Refusal(f"rephrase: no alternatives: {why}.", types.MessageType.Info)
    start, end = (0, len(state.text)) if rng is None else ls.to_offsets(state, rng)
    paragraphs = select_paragraphs(state.text, start, end, state.blocks)
    if not paragraphs:
        raise Refusal(
            "rephrase: there is no prose here (only code, math or markup).",
            types.MessageType.Info,
        )
    span = (paragraphs[0].start, paragraphs[-1].end)
    request = ImproveRequest(
        state.text,
        doc.version,
        state.blocks,
        span,
        ImproveOptions(),
        settings,
        backend,
        choice,
        stripped=state.stripped,
    )
    # Every style and tone is a request of its own, and each is billed: all are counted.
    sent, _ = with_context(state.text, paragraphs, state.blocks)
    characters = sum(
        characters_to_send(sent, replace(request, options=o).service_mode(), backend, ls.cache)
        for o in options
    )
    if not await confirm_cost(ls, backend, settings, characters, "Show alternatives"):
        raise Refusal(declined(characters), types.MessageType.Info)
    # One request per style and tone; the client bounds each call by maxConcurrency, and this
    # bounds them all together, so at most maxConcurrency requests are in flight.
    limit = asyncio.Semaphore(settings.max_concurrency)
    progress = WorkDoneProgress(ls, "Asking for alternatives")
    await progress.begin(prose_bytes(paragraphs) * len(options))
    done = 0

    async def one(opts: ImproveOptions) -> Any:
        nonlocal done
        async with limit:
            result = await improve_text(replace(request, options=opts), cache=ls.cache)
        done += 1
        progress.report(done, len(options))
        return result

    # Typing elsewhere goes on meanwhile: the rewrites are moved to where the paragraphs are
    # then; a change inside the span (or touching its paragraphs) refuses them all.
    changes, unfollow = ls.follow_changes(uri, state)
    try:
        results = await asyncio.gather(*(one(o) for o in options))
    except asyncio.CancelledError:
        progress.end("cancelled")
        raise
    finally:
        unfollow()
    progress.end("done")
    current = ls.workspace.text_documents.get(uri)
    delta = 0
    if current is not None and current.version != version:
        regions = paragraph_regions(state, span)
        region = (min(r.start for r in regions), max(r.end for r in regions))
        moved = changes.follow(*region) if follows_to(changes, current) else None
        if moved is None:
            current = None
        else:
            delta = moved[0] - region[0]
            state = ls.state(current)
            version = current.version
            span = (span[0] + delta, span[1] + delta)
    if current is None:
        raise Refusal(
            "rephrase: the document changed while the alternatives were computed; nothing was "
            "changed. Ask again."
        )
    wide = ls.to_range(state, *span)
    out = Alternatives(uri, version, wide, choice.target_lang)
    for opts, result in zip(options, results, strict=True):
        label = label_of(opts)
        if isinstance(result, NotImproved):
            reason = result.message
            if result.error is not None:
                err = result.error
                ls.note(
                    f"alternative {label} failed ({type(err).__name__}: status={err.status} "
                    f"trace_id={err.trace_id}): {err.message}",
                    types.MessageType.Warning,
                )
            out.failed.append({"label": label, "reason": reason})
            continue
        if not result.edits:
            out.unchanged.append(label)
            continue
        edits = [TextEdit(e.start + delta, e.end + delta, e.new_text) for e in result.edits]
        req = ActionRequest(uri, version, wide, False, opts)
        kind, value = opts.as_pair()
        text = rewritten(state.text, span[0], span[1], edits)
        same = next((a for a in out.found if a["text"] == text), None)
        if same is not None:
            # one entry per rewrite, named by each style and tone that gives it (each label
            # whole, so that a client matching "academic (writing style)" finds it)
            same["labels"].append(label)
            same["label"] = ", ".join(same["labels"])
            continue
        edit = workspace_edit(ls, state, uri, version, edits, req.title, settings)
        out.found.append(
            {
                "label": label,
                "labels": [label],
                ("writingStyle" if kind == "style" else "tone"): value,
                "text": text,
                "preview": preview(text),
                "edits": _unstructure(edit),
                "command": {
                    "title": label,
                    "command": APPLY_ALTERNATIVE_COMMAND,
                    "arguments": [
                        uri,
                        _unstructure(wide),
                        {"version": version, "writingStyle" if kind == "style" else "tone": value},
                    ],
                },
            }
        )
    if not out.found:
        if out.failed and not out.unchanged:
            reasons = "; ".join(f"{f['label']}: {f['reason']}" for f in out.failed)
            raise Refusal(
                f"rephrase: no alternatives: every request failed ({reasons}).",
                types.MessageType.Error,
            )
        failed = f" ({len(out.failed)} failed)" if out.failed else ""
        raise Refusal(
            f"rephrase: no alternative differs from the text{failed}.", types.MessageType.Info
        )
    if out.failed:
        names = ", ".join(f["label"] for f in out.failed)
        ls.say(
            f"rephrase: some alternatives are missing, the service failed for: {names}.",
            types.MessageType.Warning,
        )
    return out


def supports_picker(ls: RephraseServer) -> bool:
    """Whether the client shows ``window/showMessageRequest`` with actions to choose from."""
    window = ls.client_capabilities.window
    return bool(window and window.show_message is not None)


async def alternatives(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.alternatives [uri, range?, options?]``, options ``{version?, pick?}``."""
    max_args(args, 3, ALTERNATIVES_COMMAND)
    uri = open_uri(arg(args, 0, "uri", str))
    raw_range = arg(args, 1, "range", dict, optional=True)
    raw_options = arg(args, 2, "options", dict, optional=True) or {}
    version = raw_options.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise invalid("argument 3 (options.version) must be an integer")
    pick = raw_options.get("pick", False)
    if not isinstance(pick, bool):
        raise invalid("argument 3 (options.pick) must be true or false")
    if uri not in ls.workspace.text_documents:
        raise invalid(f"argument 1 (uri): {uri} is not open in the editor")
    rng = range_arg(raw_range) if raw_range is not None else None
    try:
        found = await compute_alternatives(ls, uri, rng, version)
    except Refusal as exc:
        ls.say(str(exc), exc.kind)
        return {"alternatives": [], "failed": [], "reason": str(exc)}
    result = found.to_json(ls)
    if pick and supports_picker(ls):
        result["picked"] = await _pick_and_apply(ls, found)
    return result


async def _pick_and_apply(ls: RephraseServer, found: Alternatives) -> dict[str, Any]:
    """Offer the labels with ``window/showMessageRequest``; apply the one chosen."""
    lines = [f"{a['label']}: {a['preview']}" for a in found.found]
    answer = await ls.window_show_message_request_async(
        types.ShowMessageRequestParams(
            type=types.MessageType.Info,
            message="rephrase: choose an alternative:\n" + "\n".join(lines),
            actions=[types.MessageActionItem(title=a["label"]) for a in found.found],
        )
    )
    if answer is None:
        return {"applied": False, "reason": "nothing was chosen"}
    chosen = next((a for a in found.found if a["label"] == answer.title), None)
    if chosen is None:
        return {"applied": False, "reason": f"unknown choice {answer.title!r}"}
    return {
        "label": chosen["label"],
        **await apply_alternative(ls, *chosen["command"]["arguments"]),
    }


async def apply_alternative(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.applyAlternative [uri, range, {version, writingStyle | tone}]``: apply one
    alternative (as ``rephrase.alternatives`` gave it in each alternative's ``command``)."""
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.service.models import UnknownName

    max_args(args, 3, APPLY_ALTERNATIVE_COMMAND)
    uri = open_uri(arg(args, 0, "uri", str))
    rng = range_arg(arg(args, 1, "range", dict))
    choice = arg(args, 2, "choice", dict)
    version = choice.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise invalid("argument 3 (choice.version) must be an integer")
    style, tone = choice.get("writingStyle"), choice.get("tone")
    if (style is None) == (tone is None):
        raise invalid("argument 3 (choice): give one of writingStyle and tone")
    for name, value in (("writingStyle", style), ("tone", tone)):
        if value is not None and not isinstance(value, str):
            raise invalid(f"argument 3 (choice.{name}) must be a string")
    try:
        options = ImproveOptions.parse(writing_style=style, tone=tone)
    except UnknownName as exc:
        name = "writingStyle" if exc.kind == "writing style" else "tone"
        raise invalid(
            f"argument 3 (choice.{name}): {exc.value!r} is not one of {', '.join(exc.names)}"
        ) from None
    if uri not in ls.workspace.text_documents:
        raise invalid(f"argument 1 (uri): {uri} is not open in the editor")
    return await apply_request(ls, ActionRequest(uri, version, rng, False, options))


async def on_code_action(
    ls: RephraseServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    """``textDocument/codeAction``: the improvement actions, and "Show alternatives…" after the
    paragraph's own actions (before the document's)."""
    listed = await on_improve_actions(ls, params)
    extra = alternatives_action(ls, params)
    if extra is not None:
        at = next(
            (i for i, a in enumerate(listed) if a.kind == types.CodeActionKind.Source),
            len(listed),
        )
        listed.insert(at, extra)
    return listed


def alternatives_action(
    ls: RephraseServer, params: types.CodeActionParams
) -> types.CodeAction | None:
    """The "Show alternatives…" action for the paragraph(s) at ``params.range``: offered
    where refactor actions are wanted, the ``styles`` or ``tones`` action group is on, the
    language has styles or tones and the client can show the choice. From cached state only,
    like the listing."""
    from rephrase_ls.service.errors import ServiceError
    from rephrase_ls.text.paragraphs import select_paragraphs

    uri = params.text_document.uri
    doc = ls.workspace.text_documents.get(uri)
    if doc is None or not supports_picker(ls):
        return None
    only = [str(k.value if hasattr(k, "value") else k) for k in (params.context.only or [])]
    rewrite = types.CodeActionKind.RefactorRewrite.value
    if only and not any(rewrite == o or rewrite.startswith(o + ".") for o in only):
        return None
    settings = ls.settings.cached_for_uri(uri)
    if "styles" not in settings.actions and "tones" not in settings.actions:
        return None
    try:
        backend = ls.backends.get(settings)
    except ServiceError:  # said by the listing
        return None
    choice = ls.language_of(doc, settings, backend)
    if not (choice.writing_styles or choice.tones):
        return None
    state = ls.state(doc)
    start, end = ls.to_offsets(state, params.range)
    if not select_paragraphs(state.text, start, end, state.blocks):
        return None
    arguments = [
        uri,
        _unstructure(params.range),
        {"version": doc.version, "pick": True},
    ]
    return types.CodeAction(
        title=ACTION_TITLE,
        kind=types.CodeActionKind.RefactorRewrite,
        command=types.Command(
            title=ACTION_TITLE, command=ALTERNATIVES_COMMAND, arguments=arguments
        ),
    )
