"""Review mode's code actions and commands: the quick fixes of rephrase diagnostics, the
``source.fixAll.rephrase`` action, adding a word to the project's ``words``, and the review by
the service (``rephrase.review``).

Listing never waits: the quick fixes come from the diagnostics in the request and the findings
already computed for the document's current version.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from rephrase_ls.lsp import diagnostics as diag
from rephrase_ls.lsp.arguments import arg, invalid, max_args, open_uri, range_arg

if TYPE_CHECKING:
    from pygls.workspace import TextDocument

    from rephrase_ls.lsp.language_server import DocumentState, RephraseServer
    from rephrase_ls.review import Finding

FIX_ALL_KIND = "source.fixAll.rephrase"
REVIEW_COMMAND = "rephrase.review"
ADD_WORD_COMMAND = "rephrase.addWord"
ADD_USER_WORD_COMMAND = "rephrase.addUserWord"
DISABLE_RULE_COMMAND = "rephrase.disableRule"
FIX_ALL_COMMAND = "rephrase.fixAll"
#: The longest word ``rephrase.addWord`` accepts.
MAX_WORD = 100


def _allowed(kind: str, only: list[str] | None) -> bool:
    return not only or any(kind == o or kind.startswith(o + ".") for o in only)


def _edit(
    ls: RephraseServer, doc: TextDocument, state: DocumentState, found: list[Finding]
) -> types.WorkspaceEdit:
    """The edit applying ``found``, pinned to the document's version."""
    edits = [
        types.TextEdit(range=ls.to_range(state, f.start, f.end), new_text=f.replacement)
        for f in found
    ]
    if ls.supports_document_changes:
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=identifier, edits=list(edits))]
        )
    return types.WorkspaceEdit(changes={doc.uri: edits})


def _quoted(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _fix_of(
    ls: RephraseServer, state: DocumentState, diagnostic: types.Diagnostic
) -> tuple[int, int, dict[str, Any]] | None:
    """A rephrase diagnostic's span and data, or None when it is not one, or when the text
    it covers no longer reads as it did (a stale diagnostic offers no fix)."""
    data = diagnostic.data
    if diagnostic.source != diag.SOURCE or not isinstance(data, dict):
        return None
    original, replacement = data.get("original"), data.get("replacement")
    if not isinstance(original, str) or not isinstance(replacement, str):
        return None
    try:
        start, end = ls.to_offsets(state, diagnostic.range)
    except Exception:  # a range from another version of the document
        return None
    if state.text[start:end] != original:
        return None
    return start, end, data


def list_review_actions(
    ls: RephraseServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    """Quick fixes for the rephrase diagnostics in the request, fix-all, and the review."""
    uri = params.text_document.uri
    doc = ls.workspace.text_documents.get(uri)
    if doc is None:
        return []
    only = [str(getattr(k, "value", k)) for k in (params.context.only or [])]
    state = ls.state(doc)
    actions: list[types.CodeAction] = []
    reviewed = diag.review_state(ls).reviewed.get(uri)
    if reviewed is not None and (reviewed.version != doc.version or reviewed.text != state.text):
        reviewed = None
    if _allowed(types.CodeActionKind.QuickFix.value, only):
        fixes: list[types.CodeAction] = []
        for diagnostic in params.context.diagnostics:
            fixes.extend(_quick_fixes(ls, doc, state, diagnostic, reviewed))
        actions.extend(_merged(fixes))
    if "review" not in ls.settings.cached_for_uri(uri).actions:
        return actions  # the quick fixes of the diagnostics only
    if (
        _allowed(FIX_ALL_KIND, only)
        and state.blocks
        and (reviewed is None or any(f.code != "unknown-word" for f in reviewed.offline))
    ):
        # A command, not an edit: building hundreds of edits for every listing would slow
        # each one down; the command applies the findings of this version (computed at once
        # when the review has not run yet).
        title = "Fix all rephrase findings"
        command = types.Command(title=title, command=FIX_ALL_COMMAND, arguments=[uri, doc.version])
        actions.append(types.CodeAction(title=title, kind=FIX_ALL_KIND, command=command))
    actions.extend(_review_actions(ls, doc, state, params, only))
    return actions


def _merged(fixes: list[types.CodeAction]) -> list[types.CodeAction]:
    """Each distinct quick fix once, in the order first offered, naming every diagnostic it
    resolves. Clients may send many diagnostics (Neovim sends every one on the cursor's line):
    each gives **Ignore this paragraph** for its paragraph, **Turn off ‘code’** for its code, the
    add-word fixes for its word. Identical means the same title, edit and command: two
    findings' own **Replace with ‘the’** edits stay two actions, as do two paragraphs'
    **Ignore this paragraph**."""
    kept: dict[tuple[str, str, str], types.CodeAction] = {}
    for fix in fixes:
        key = (fix.title, repr(fix.edit), repr(fix.command))
        first = kept.get(key)
        if first is None:
            kept[key] = fix
            continue
        known = list(first.diagnostics or [])
        known += [d for d in fix.diagnostics or [] if d not in known]
        first.diagnostics = known
    return list(kept.values())


def _quick_fixes(
    ls: RephraseServer,
    doc: TextDocument,
    state: DocumentState,
    diagnostic: types.Diagnostic,
    reviewed: diag.Reviewed | None,
) -> list[types.CodeAction]:
    fix = _fix_of(ls, state, diagnostic)
    if fix is None:
        return []
    start, end, data = fix
    original, replacement = data["original"], data["replacement"]
    from rephrase_ls.review import Finding
    from rephrase_ls.review.codes import UNKNOWN_WORD

    if diagnostic.code == UNKNOWN_WORD:
        return _unknown_word_fixes(ls, doc, state, diagnostic, start, end, data)

    this = Finding(start, end, original, replacement, str(diagnostic.code), diagnostic.message)
    title = (
        f"Replace with ‘{_quoted(replacement)}’" if replacement else f"Delete ‘{_quoted(original)}’"
    )
    quick = types.CodeActionKind.QuickFix
    actions = [
        types.CodeAction(
            title=title,
            kind=quick,
            diagnostics=[diagnostic],
            is_preferred=True,
            edit=_edit(ls, doc, state, [this]),
        )
    ]
    if reviewed is not None:
        origin = diag.SERVICE if data.get("origin") == diag.SERVICE else diag.OFFLINE
        found = reviewed.service if origin == diag.SERVICE else reviewed.offline
        same = sum(1 for f in found if f.code == diagnostic.code)
        if same > 1:
            title = f"Fix all ‘{diagnostic.code}’ in the document ({same})"
            arguments = [doc.uri, doc.version, str(diagnostic.code), origin]
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=quick,
                    diagnostics=[diagnostic],
                    command=types.Command(
                        title=title, command=FIX_ALL_COMMAND, arguments=arguments
                    ),
                )
            )
    ignore = _ignore_paragraph(ls, doc, state, start, diagnostic)
    if ignore is not None:
        actions.append(ignore)
    word = data.get("word")
    if isinstance(word, str) and word:
        actions += _word_actions(doc.uri, word, diagnostic)
    actions += _rule_actions(doc.uri, diagnostic)
    return actions


def _unknown_word_fixes(
    ls: RephraseServer,
    doc: TextDocument,
    state: DocumentState,
    diagnostic: types.Diagnostic,
    start: int,
    end: int,
    data: dict[str, Any],
) -> list[types.CodeAction]:
    """An unknown word's fixes: **Replace with ‘suggestion’** for each of its (up to three)
    suggestions, none preferred (the engine was not sure enough to correct it), the add-word
    fixes, **Ignore this paragraph** and **Turn off ‘unknown-word’ in this project**."""
    from rephrase_ls.review import Finding
    from rephrase_ls.review.unknown import MAX_SUGGESTIONS

    original = data["original"]
    offered = data.get("suggestions")
    actions = []
    if isinstance(offered, list):
        for suggestion in [s for s in offered if isinstance(s, str) and s][:MAX_SUGGESTIONS]:
            this = Finding(start, end, original, suggestion, "spelling", diagnostic.message)
            actions.append(
                types.CodeAction(
                    title=f"Replace with ‘{_quoted(suggestion)}’",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    edit=_edit(ls, doc, state, [this]),
                )
            )
    actions += _word_actions(doc.uri, original, diagnostic)
    ignore = _ignore_paragraph(ls, doc, state, start, diagnostic)
    if ignore is not None:
        actions.append(ignore)
    return actions + _rule_actions(doc.uri, diagnostic)


def _command_action(
    title: str, command: str, arguments: list[Any], diagnostic: types.Diagnostic
) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        command=types.Command(title=title, command=command, arguments=arguments),
    )


def _word_actions(uri: str, word: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    """**Add ‘word’ to the project's words** and **Add ‘word’ to my words**."""
    return [
        _command_action(
            f"Add ‘{word}’ to the project's words", ADD_WORD_COMMAND, [uri, word], diagnostic
        ),
        _command_action(f"Add ‘{word}’ to my words", ADD_USER_WORD_COMMAND, [word], diagnostic),
    ]


def _rule_actions(uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    """**Turn off ‘code’ in this project** (its ``disabledRules``)."""
    from rephrase_ls.config.settings import RULE_CODES

    code = str(diagnostic.code)
    if code not in RULE_CODES:
        return []
    title = f"Turn off ‘{code}’ in this project"
    return [_command_action(title, DISABLE_RULE_COMMAND, [uri, code], diagnostic)]


def _ignore_paragraph(
    ls: RephraseServer,
    doc: TextDocument,
    state: DocumentState,
    offset: int,
    diagnostic: types.Diagnostic,
) -> types.CodeAction | None:
    """**Ignore this paragraph**: the paragraph at ``offset`` between a ``rephrase: off`` and a
    ``rephrase: on`` line, in the document's comment syntax, indented as the paragraph's first
    line (:mod:`rephrase_ls.text.switches`). A whole paragraph rather than a line: in Markdown
    and reStructuredText a comment line inside a paragraph would split it in two."""
    from rephrase_ls.text.markup import format_for
    from rephrase_ls.text.switches import comment_line

    block = next((b for b in state.blocks if b.start <= offset < max(b.end, b.start + 1)), None)
    if block is None:
        return None
    text = state.text
    first = max(text.rfind("\n", 0, block.start), text.rfind("\r", 0, block.start)) + 1
    line = text[first : block.start]
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    # after the paragraph's last line, whose terminator the new lines take
    found_end = [i for i in (text.find("\n", block.end), text.find("\r", block.end)) if i >= 0]
    newline = "\n"
    after_at = len(text)
    if found_end:
        after_at = min(found_end)
        newline = "\r\n" if text.startswith("\r\n", after_at) else text[after_at]
        after_at += len(newline)
    fmt = format_for(doc.language_id, doc.uri, text)
    blank = newline if fmt == "restructuredtext" else ""  # a comment is a block of its own there
    before = comment_line(fmt, "off", indent, newline) + blank
    after = blank + comment_line(fmt, "on", indent, newline)
    if after_at == len(text) and not text.endswith(("\n", "\r")):
        after = newline + after
    edits = [
        types.TextEdit(range=ls.to_range(state, first, first), new_text=before),
        types.TextEdit(range=ls.to_range(state, after_at, after_at), new_text=after),
    ]
    if ls.supports_document_changes:
        identifier = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
        edit = types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=identifier, edits=edits)]
        )
    else:
        edit = types.WorkspaceEdit(changes={doc.uri: edits})
    return types.CodeAction(
        title="Ignore this paragraph",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=edit,
    )


def _review_actions(
    ls: RephraseServer,
    doc: TextDocument,
    state: DocumentState,
    params: types.CodeActionParams,
    only: list[str],
) -> list[types.CodeAction]:
    """**Review with the service** for the selection (or paragraph), and for the document."""
    from rephrase_ls.text.paragraphs import select_paragraphs

    actions = []
    rewrite = types.CodeActionKind.RefactorRewrite.value
    start, end = ls.to_offsets(state, params.range)
    if _allowed(rewrite, only) and select_paragraphs(state.text, start, end, state.blocks):
        rng = params.range
        argument = {
            "start": {"line": rng.start.line, "character": rng.start.character},
            "end": {"line": rng.end.line, "character": rng.end.character},
        }
        title = "Review with the service"
        command = types.Command(title=title, command=REVIEW_COMMAND, arguments=[doc.uri, argument])
        actions.append(types.CodeAction(title=title, kind=rewrite, command=command))
    source = types.CodeActionKind.Source.value
    if _allowed(source, only) and state.blocks:
        title = "Review document with the service"
        command = types.Command(title=title, command=REVIEW_COMMAND, arguments=[doc.uri])
        actions.append(types.CodeAction(title=title, kind=source, command=command))
    return actions


# -- commands --


async def _apply(ls: RephraseServer, edit: types.WorkspaceEdit, label: str) -> dict[str, Any]:
    result = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=label)
    )
    if not result.applied:
        reason = result.failure_reason or "the editor refused the edit (the text probably changed)"
        ls.say(f"rephrase: {label}: not applied: {reason}", types.MessageType.Warning)
        return {"applied": False, "reason": reason}
    return {"applied": True}


async def fix_all(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.fixAll [uri, version?, code?, origin?]``: apply the document's findings —
    every offline one, or those of one ``code`` (from ``origin``: ``offline``, the default, or
    ``service``) — as one edit pinned to the version."""
    max_args(args, 4, FIX_ALL_COMMAND)
    uri = open_uri(arg(args, 0, "uri", str))
    version = arg(args, 1, "version", int, optional=True)
    code = arg(args, 2, "code", str, optional=True)
    origin = arg(args, 3, "origin", str, optional=True) or diag.OFFLINE
    if origin not in (diag.OFFLINE, diag.SERVICE):
        raise invalid(f"argument 4 (origin): expected {diag.OFFLINE} or {diag.SERVICE}")
    doc = ls.workspace.text_documents.get(uri)
    if doc is None:
        raise invalid(f"argument 1 (uri): {uri} is not open in the editor")
    if version is not None and doc.version != version:
        reason = "the document changed since the action was offered; nothing was changed"
        ls.say(f"rephrase: {reason}.", types.MessageType.Warning)
        return {"applied": False, "reason": reason}
    reviewed = await diag.current(ls, uri)
    doc = ls.workspace.text_documents.get(uri)
    if reviewed is None or doc is None or doc.version != reviewed.version:
        reason = "the document changed while it was reviewed; nothing was changed"
        ls.say(f"rephrase: {reason}.", types.MessageType.Warning)
        return {"applied": False, "reason": reason}
    from rephrase_ls.review.codes import UNKNOWN_WORD

    found = reviewed.service if origin == diag.SERVICE else reviewed.offline
    # An unknown word is never corrected but by the writer's choice of a suggestion.
    found = [f for f in found if f.code != UNKNOWN_WORD]
    if code is not None:
        found = [f for f in found if f.code == code]
    if not found:
        return {"applied": False, "reason": "no findings", "edits": 0}
    label = f"Fix all ‘{code}’" if code else "Fix all rephrase findings"
    result = await _apply(ls, _edit(ls, doc, ls.state(doc), found), label)
    return {**result, "edits": len(found)}


async def add_word(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.addWord [uri, word]``: add ``word`` to the ``words`` of the project file of
    ``uri``'s folder (through ``workspace/applyEdit``, only inside the workspace folders)."""
    from rephrase_ls.config import project_file
    from rephrase_ls.lsp.project_commands import edit_project_file

    max_args(args, 2, ADD_WORD_COMMAND)
    uri = open_uri(arg(args, 0, "uri", str))
    word = arg(args, 1, "word", str).strip()
    if not word or len(word) > MAX_WORD or any(c.isspace() or ord(c) < 0x20 for c in word):
        raise invalid(
            f"argument 2 (word): expected one word of at most {MAX_WORD} characters, "
            f"not {word[:MAX_WORD]!r}"
        )

    def change(old: str | None) -> str:
        try:
            return project_file.add_word(old, word)
        except ValueError as exc:
            raise invalid(f"{exc}. Fix the file first; nothing was changed.") from None

    result = await edit_project_file(ls, uri, change, f"Add ‘{word}’ to the project's words")
    if result.get("applied") and result.get("changed"):
        diag.refresh(ls)  # the words are part of each paragraph's cache key
    return result


async def disable_rule(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.disableRule [uri, code]``: add ``code`` to the ``disabledRules`` of the
    project file of ``uri``'s folder (through ``workspace/applyEdit``, only inside the
    workspace folders, as ``rephrase.addWord``)."""
    from rephrase_ls.config import project_file
    from rephrase_ls.config.settings import RULE_CODES
    from rephrase_ls.lsp.project_commands import edit_project_file

    max_args(args, 2, DISABLE_RULE_COMMAND)
    uri = open_uri(arg(args, 0, "uri", str))
    code = arg(args, 1, "code", str).strip().lower()
    if code not in RULE_CODES:
        expected = ", ".join(RULE_CODES)
        raise invalid(f"argument 2 (code): {code!r} is not a rule; expected {expected}")

    def change(old: str | None) -> str:
        try:
            return project_file.add_to_list(old, "disabledRules", code)
        except ValueError as exc:
            raise invalid(f"{exc}. Fix the file first; nothing was changed.") from None

    result = await edit_project_file(ls, uri, change, f"Turn off ‘{code}’ in this project")
    if result.get("applied") and result.get("changed"):
        diag.refresh(ls)
    return result


def _checked_word(word: str) -> str:
    word = word.strip()
    if not word or len(word) > MAX_WORD or any(c.isspace() or ord(c) < 0x20 for c in word):
        raise invalid(
            f"argument (word): expected one word of at most {MAX_WORD} characters, "
            f"not {word[:MAX_WORD]!r}"
        )
    return word


async def add_user_word(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.addUserWord [word]``: add ``word`` to the user's own word list, ``words.txt``
    in the user config folder (:mod:`rephrase_ls.config.word_files`).

    The file lies outside every workspace, where edits through the editor are not made
    (:mod:`rephrase_ls.lsp.project_commands`), so the server writes it itself, as
    :mod:`rephrase_ls.safe_write` writes: only inside the user config folder (a link leading
    out is refused), through a fresh temporary file, and never over a change made meanwhile.
    The writer is told which file changed (to take the word out again, edit that file)."""
    from rephrase_ls import safe_write
    from rephrase_ls.config import user_config, word_files

    max_args(args, 1, ADD_USER_WORD_COMMAND)
    word = _checked_word(arg(args, 0, "word", str))
    folder = user_config.config_dir()
    path = folder / word_files.USER_FILE
    # The user's own file: a link they made to their dotfiles is theirs to follow.
    allowed = [folder, Path(os.path.realpath(path)).parent]
    try:
        folder.mkdir(parents=True, exist_ok=True)
        try:
            before = safe_write.read(path, word_files.MAX_BYTES)
        except FileNotFoundError:
            safe_write.create(path, word_files.with_word(None, word).encode("utf-8"), allowed)
        else:
            old = before.data.decode("utf-8-sig")
            new = word_files.with_word(old, word)
            if new == old:
                return {"applied": True, "file": str(path), "changed": False}
            prefix = b"\xef\xbb\xbf" if before.data.startswith(b"\xef\xbb\xbf") else b""
            safe_write.replace(before, prefix + new.encode("utf-8"), allowed)
    except (safe_write.WriteRefused, OSError, UnicodeDecodeError) as exc:
        reason = f"‘{word}’ was not added to {path}: {exc}"
        ls.say(f"rephrase: {reason}", types.MessageType.Warning)
        return {"applied": False, "file": str(path), "reason": reason}
    ls.say(f"rephrase: added ‘{word}’ to your words ({path}).")
    diag.refresh(ls)
    return {"applied": True, "file": str(path), "changed": True}


async def review(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.review [uri, range?]``: the service corrects the range (no range: the whole
    document; corrections only, a review being about errors); its changes become diagnostics,
    nothing is edited. A service without corrections (404, now or remembered) improves it
    instead, with the workspace's style or tone, and the writer is told so once. The answer is
    cached: reviewing the same text again costs nothing."""
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.improve.pipeline import Improved, NotImproved, improve_text
    from rephrase_ls.improve.request import ImproveRequest
    from rephrase_ls.lsp.actions import Refusal, _refusal, follows_to, paragraph_regions, rebase
    from rephrase_ls.lsp.cost import confirm_cost
    from rephrase_ls.lsp.progress import WorkDoneProgress
    from rephrase_ls.review.grouping import edit_findings
    from rephrase_ls.service.errors import CorrectionsUnavailable

    max_args(args, 2, REVIEW_COMMAND)
    uri = open_uri(arg(args, 0, "uri", str))
    raw_range = arg(args, 1, "range", dict, optional=True)
    doc = ls.workspace.text_documents.get(uri)
    if doc is None:
        raise invalid(f"argument 1 (uri): {uri} is not open in the editor")
    state = ls.state(doc)
    span = ls.to_offsets(state, range_arg(raw_range)) if raw_range is not None else None
    version = doc.version
    settings = await ls.settings.for_uri(uri)
    backend = ls.backends.get(settings)  # a ServiceError is shown by the command wrapper
    caps, unavailable = await backend.write_capabilities()
    if unavailable is not None:
        known = "the last known one" if caps is not None else "none"
        ls.note(f"language list unavailable (using {known}): {unavailable.message}")
    choice = ls.language_of(doc, settings, backend)
    task = asyncio.current_task()
    if task is not None and ls.protocol.msg_id is not None:
        ls.track(("request", ls.protocol.msg_id), task)

    confirmed = False

    async def confirm(characters: int) -> bool:
        # Asked once: the fallback to Improve after a 404 sends the same text again.
        nonlocal confirmed
        if not confirmed:
            confirmed = await confirm_cost(ls, backend, settings, characters, "Review")
        return confirmed

    async def ask(options: ImproveOptions) -> Improved | NotImproved:
        request = ImproveRequest(
            state.text,
            version,
            state.blocks,
            span,
            options,
            settings,
            backend,
            choice,
            mode="correct" if options.correct else "rephrase",
            stripped=state.stripped,
        )
        return await improve_text(
            request,
            cache=ls.cache,
            progress=WorkDoneProgress(ls, "Reviewing text"),
            confirm=confirm,
        )

    without = (
        "rephrase: this service has no corrections-only mode; the review shows what Improve "
        "would change, rewrites included."
    )
    # Typing elsewhere goes on meanwhile: the findings are moved to where their paragraphs
    # are then, those of a paragraph the writer edited are left out (and it is named).
    changes, unfollow = ls.follow_changes(uri, state)
    try:
        if backend.client.corrections_known_absent:
            ls.say_once(f"review-no-correct:{backend.description}", without)
            result = await ask(ImproveOptions())
        else:
            result = await ask(ImproveOptions(correct=True))
            if isinstance(result, NotImproved) and isinstance(
                result.error, CorrectionsUnavailable
            ):
                ls.say_once(f"review-no-correct:{backend.description}", without)
                result = await ask(ImproveOptions())
    except asyncio.CancelledError:
        return {"reviewed": False, "reason": "cancelled"}
    finally:
        unfollow()
    try:
        if isinstance(result, NotImproved):
            raise _refusal(ls, result, settings, backend)
        current = ls.workspace.text_documents.get(uri)
        if current is None or (current.version != version and not follows_to(changes, current)):
            raise Refusal(
                "rephrase: the document changed while it was reviewed; nothing is shown. "
                "Review again."
            )
    except Refusal as exc:
        ls.say(str(exc), exc.kind)
        return {"reviewed": False, "reason": str(exc)}
    if result.detected_language:
        ls.service_detected[uri] = result.detected_language
    for message in result.refused:
        ls.say(f"rephrase: {message}", types.MessageType.Warning)
    language = (result.mode.target_lang or choice.language or "").lower()
    found = edit_findings(state.text, state.blocks, result.edits, language)
    text = state.text
    left_out = False
    if current.version != version:
        found, edited = rebase(found, paragraph_regions(state, span), changes)
        left_out = bool(edited)
        for region in edited:
            ls.say(
                f"rephrase: {region.label} was edited while it was reviewed; its findings are "
                "not shown. Review it again.",
                types.MessageType.Warning,
            )
        if span is not None:
            span = (changes.point(span[0]), changes.point(span[1]))
        text = current.source
    diag.set_service_findings(ls, uri, text, span, found)
    diag.refresh(ls, uri)
    if not found and not left_out:
        ls.say(f"rephrase: the service suggests no changes ({result.mode.label()}).")
    return {"reviewed": True, "findings": len(found)}
