"""The ``rephrase.*`` commands. All run on the server, so every editor gets them.

Bad arguments give a JSON-RPC ``InvalidParams`` error whose message names the argument.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.uris import from_fs_path, to_fs_path

from rephrase_ls.lsp.actions import APPLY_COMMAND, ActionRequest, apply_request

# A runtime import (not TYPE_CHECKING): pygls reads the handlers' annotations. This module is
# imported by create_server(), after the server module is complete, so there is no cycle.
from rephrase_ls.lsp.server import RephraseServer

if TYPE_CHECKING:
    from rephrase_ls.service.capabilities import Capabilities


def _invalid(message: str) -> JsonRpcInvalidParams:
    return JsonRpcInvalidParams(message)


#: LSP's RequestFailed: the request was valid but the service could not answer it.
REQUEST_FAILED = -32803


def _guard(
    func: Callable[..., Awaitable[dict[str, Any]]],
) -> Callable[..., Awaitable[dict[str, Any]]]:
    """Turn a service failure into a message for the writer and a RequestFailed error."""

    @functools.wraps(func)
    async def wrapper(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        from rephrase_ls.service.errors import ServiceError

        try:
            return await func(ls, *args)
        except ServiceError as exc:
            detail = f"{type(exc).__name__}: status={exc.status} trace_id={exc.trace_id}"
            ls.note(f"{func.__name__} failed ({detail}): {exc.message}", types.MessageType.Error)
            ls.say(f"rephrase: {exc.message}", types.MessageType.Error)
            raise JsonRpcException(exc.message, REQUEST_FAILED) from None

    return wrapper


def _arg(
    args: tuple[Any, ...],
    index: int,
    name: str,
    kind: type | tuple[type, ...],
    *,
    optional: bool = False,
) -> Any:
    if index >= len(args) or args[index] is None:
        if optional:
            return None
        raise _invalid(f"argument {index + 1} ({name}) is missing")
    value = args[index]
    if not isinstance(value, kind):
        expected = (
            kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        )
        raise _invalid(
            f"argument {index + 1} ({name}) must be a {expected}, got {type(value).__name__}"
        )
    return value


def _max_args(args: tuple[Any, ...], count: int, command: str) -> None:
    if len(args) > count:
        raise _invalid(f"{command} takes at most {count} arguments, got {len(args)}")


def _open_uri(ls: RephraseServer, uri: str, name: str = "uri") -> str:
    if not uri.startswith(("file:", "untitled:")) and ":" not in uri:
        raise _invalid(f"argument 1 ({name}) must be a document URI, got {uri!r}")
    return uri


async def _write_caps(ls: RephraseServer, uri: str) -> tuple[Any, Any, Capabilities | None]:
    from rephrase_ls.service.errors import ServiceError

    settings = await ls.settings.for_uri(uri)
    backend = ls.backends.get(settings)
    caps: Capabilities | None
    try:
        caps = await backend.capabilities.get("write")
    except ServiceError as exc:
        ls.note(f"language list unavailable: {exc.message}", types.MessageType.Warning)
        caps = backend.capabilities.peek("write")
    return settings, backend, caps


def _choice_for(ls: RephraseServer, uri: str, settings: Any, backend: Any) -> Any:
    from rephrase_ls.improve import resolve_language

    doc = ls.workspace.text_documents.get(uri)
    if doc is not None:
        return ls.language_of(doc, settings, backend)
    # A document the editor has not opened: judge from the settings alone.
    return resolve_language("", settings, backend.capabilities.peek("write"))


async def list_styles(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.listStyles [uri]``."""
    _max_args(args, 1, "rephrase.listStyles")
    uri = _open_uri(ls, _arg(args, 0, "uri", str))
    if uri not in ls.workspace.text_documents:
        raise _invalid(f"argument 1 (uri): {uri} is not open in the editor")
    settings, backend, caps = await _write_caps(ls, uri)
    choice = _choice_for(ls, uri, settings, backend)
    targets = sorted(lang.lang for lang in caps.targets()) if caps is not None else []
    return {
        "language": choice.language,
        "languageSource": choice.source,
        "targetLang": choice.target_lang,
        "supported": bool(choice.writing_styles or choice.tones),
        "reason": choice.reason,
        "writingStyles": list(choice.writing_styles),
        "tones": list(choice.tones),
        "variants": list(choice.variants),
        "current": {"writingStyle": settings.writing_style, "tone": settings.tone},
        "targets": targets,
        "backend": backend.description,
    }


async def _set_project_keys(
    ls: RephraseServer, uri: str, changes: dict[str, str | None], label: str
) -> dict[str, Any]:
    """Change keys of the folder's project file through ``workspace/applyEdit``."""
    from rephrase_ls import project_file  # here, not at start-up (tomllib)

    path = ls.settings.project_file_path(uri)
    file_uri = from_fs_path(str(path)) or path.as_uri()
    allowed = ls.settings.workspace_folders()
    refusal = _outside_workspace(uri, path, allowed, label)
    if refusal is not None:
        ls.say(f"rephrase: {refusal}", types.MessageType.Warning)
        return {"applied": False, "file": file_uri, "reason": refusal}
    old, version = ls.settings.project_text(path)
    if old is None and os.path.lexists(path):
        # There but unreadable (permissions, not UTF-8, a dangling link): creating it would
        # replace what is there.
        raise _invalid(
            f"{path} exists but cannot be read as text. Fix or remove it first; "
            "nothing was changed."
        )
    parsed = project_file.parse(path, old)
    if parsed.error:
        # Editing a file that does not parse would leave it broken and the setting unused.
        raise _invalid(f"{parsed.error}. Fix the file first; nothing was changed.")
    new = old
    for key, value in changes.items():
        new = project_file.set_key(new, key, value)
    new = new or ""
    if old == new or (old is None and not new):
        return {"applied": True, "file": file_uri, "changed": False}
    document_changes: list[Any] = []
    if old is None:
        if not (ls.supports_document_changes and ls.supports_create_file):
            # The editor cannot create files through an edit: write it ourselves, and say so.
            from rephrase_ls import safe_write

            try:
                safe_write.create(path, new.encode("utf-8"), allowed)
            except (safe_write.WriteRefused, OSError) as exc:
                reason = str(exc)
                ls.say(f"rephrase: {label}: {reason}", types.MessageType.Warning)
                return {"applied": False, "file": file_uri, "reason": reason}
            ls.say(f"rephrase: created {path} ({label}).")
            return {"applied": True, "file": file_uri, "changed": True}
        document_changes.append(
            types.CreateFile(uri=file_uri, options=types.CreateFileOptions(ignore_if_exists=True))
        )
        edits = [
            types.TextEdit(
                range=types.Range(types.Position(0, 0), types.Position(0, 0)), new_text=new
            )
        ]
    else:
        from rephrase_ls.text.diff import word_edits
        from rephrase_ls.text.positions import LineIndex

        index = LineIndex(old)
        edits = []
        for e in word_edits(old, new):
            sl, sc = index.position(e.start, ls.encoding)
            el, ec = index.position(e.end, ls.encoding)
            edits.append(
                types.TextEdit(
                    range=types.Range(types.Position(sl, sc), types.Position(el, ec)),
                    new_text=e.new_text,
                )
            )
    if ls.supports_document_changes:
        document_changes.append(
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=file_uri, version=version
                ),
                edits=list(edits),
            )
        )
        edit = types.WorkspaceEdit(document_changes=document_changes)
    else:
        edit = types.WorkspaceEdit(changes={file_uri: edits})
    result = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=label)
    )
    if not result.applied:
        reason = result.failure_reason or "the editor refused the change"
        ls.say(f"rephrase: {path} was not changed: {reason}", types.MessageType.Warning)
        return {"applied": False, "file": file_uri, "reason": reason}
    ls.settings.remember_written(path, new)
    return {"applied": True, "file": file_uri, "changed": True}


def _outside_workspace(uri: str, path: Path, allowed: list[Path], label: str) -> str | None:
    """Why the project file ``path`` for ``uri`` may not be written, or None when it may.

    The server writes (or asks the editor to write) only inside the workspace folders: a
    document outside them, or a project file that is a link leading out of them, is refused."""
    from rephrase_ls import safe_write

    if not allowed:
        return (
            f"no workspace folder is open, so '{label}' was not saved: rephrase-ls writes "
            f"{path.name} only inside workspace folders. Open the document's folder as one."
        )
    if not safe_write.inside(path.parent, allowed):
        document = to_fs_path(uri) or uri
        folders = ", ".join(str(folder) for folder in allowed)
        return (
            f"{document} is outside the workspace folders ({folders}), so '{label}' was not "
            f"saved: rephrase-ls writes {path.name} only inside them. Open the document's "
            "folder as a workspace folder to set it there."
        )
    try:
        safe_write.require_inside(path, allowed)
    except safe_write.WriteRefused as exc:
        return f"'{label}' was not saved: {exc}"
    return None


async def _set_style_or_tone(
    ls: RephraseServer, args: tuple[Any, ...], which: str
) -> dict[str, Any]:
    command = "rephrase.setStyle" if which == "writingStyle" else "rephrase.setTone"
    _max_args(args, 2, command)
    uri = _open_uri(ls, _arg(args, 0, "uri", str))
    value = _arg(args, 1, "value", str, optional=True)
    from rephrase_ls.settings import STYLE_NAMES, TONE_NAMES

    names = STYLE_NAMES if which == "writingStyle" else TONE_NAMES
    noun = "writing style" if which == "writingStyle" else "tone"
    if value is not None:
        value = value.strip().lower()
        if value in ("", "default"):
            value = None
    if value is not None:
        base = value.removeprefix("prefer_")
        if base not in names:
            raise _invalid(
                f"argument 2 (value): {value!r} is not a {noun}; "
                f"expected one of {', '.join(names)} or default"
            )
        settings, backend, caps = await _write_caps(ls, uri)
        choice = _choice_for(ls, uri, settings, backend)
        offered = choice.writing_styles if which == "writingStyle" else choice.tones
        if caps is not None and not value.startswith("prefer_") and base not in offered:
            why = choice.reason or f"{choice.language} offers {', '.join(offered) or 'none'}"
            raise _invalid(
                f"argument 2 (value): the {noun} {value!r} is not supported "
                f"for this document: {why}"
            )
    other = "tone" if which == "writingStyle" else "writingStyle"
    changes = {which: value}
    if value is not None:
        changes[other] = None
    return await _set_project_keys(ls, uri, changes, f"Set {noun} to {value or 'default'}")


async def set_language(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.setLanguage [uri, value]``; ``null`` or ``auto`` clears (detect)."""
    _max_args(args, 2, "rephrase.setLanguage")
    uri = _open_uri(ls, _arg(args, 0, "uri", str))
    value = _arg(args, 1, "value", str, optional=True)
    if value is not None and value.strip().lower() in ("", "auto", "detect"):
        value = None
    if value is not None:
        value = value.strip().replace("_", "-")
        _settings, _backend, caps = await _write_caps(ls, uri)
        if caps is not None:
            entry = caps.find(value)
            if entry is None:
                known = ", ".join(sorted({lang.lang for lang in caps.languages}))
                raise _invalid(
                    f"argument 2 (value): {value!r} is not a language the service "
                    f"can improve; known: {known}"
                )
            value = entry.lang
    return await _set_project_keys(
        ls, uri, {"language": value}, f"Set language to {value or 'auto'}"
    )


async def languages(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.languages [product]``: source and target choices with their features."""
    from rephrase_ls.service.errors import ServiceError

    _max_args(args, 2, "rephrase.languages")
    product = _arg(args, 0, "product", str, optional=True) or "write"
    uri = _arg(args, 1, "uri", str, optional=True) or ls.workspace.root_uri or "file:///"
    backend = ls.backends.get(await ls.settings.for_uri(uri))
    try:
        caps = await backend.capabilities.get(product)
    except ServiceError as exc:
        if exc.status == 400:
            raise _invalid(f"argument 1 (product): {exc.message}") from None
        raise

    def row(lang: Any) -> dict[str, Any]:
        return {"lang": lang.lang, "features": sorted(lang.features)}

    return {
        "product": product,
        "sources": [row(lang) for lang in caps.sources()],
        "targets": [row(lang) for lang in caps.targets()],
    }


async def pair_features(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.pairFeatures [product, source, target]``."""
    _max_args(args, 4, "rephrase.pairFeatures")
    product = _arg(args, 0, "product", str)
    source = _arg(args, 1, "source", str)
    target = _arg(args, 2, "target", str)
    uri = _arg(args, 3, "uri", str, optional=True) or ls.workspace.root_uri or "file:///"
    backend = ls.backends.get(await ls.settings.for_uri(uri))
    caps = await backend.capabilities.get(product)
    if caps.find(source) is None:
        raise _invalid(f"argument 2 (source): {source!r} is not a language of {product}")
    if caps.find(target) is None:
        raise _invalid(f"argument 3 (target): {target!r} is not a language of {product}")
    return {
        "product": product,
        "source": source,
        "target": target,
        "features": sorted(caps.pair_features(source, target)),
        "runtimeFeatures": sorted(caps.runtime_pair_features(source, target)),
    }


async def usage(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.usage [uri?]``: the character count and limit, and who answered."""
    _max_args(args, 1, "rephrase.usage")
    uri = _arg(args, 0, "uri", str, optional=True) or ls.workspace.root_uri or "file:///"
    backend = ls.backends.get(await ls.settings.for_uri(uri))
    result = await backend.client.usage()
    return {
        "backend": backend.description,
        "embedded": backend.embedded,
        "characterCount": result.character_count,
        "characterLimit": result.character_limit,
        "apiKeyCharacterCount": result.api_key_character_count,
        "apiKeyCharacterLimit": result.api_key_character_limit,
    }


def _range_arg(value: Any) -> types.Range:
    try:
        start, end = value["start"], value["end"]
        values = [int(start["line"]), int(start["character"]), int(end["line"]),
                  int(end["character"])]
    except (KeyError, TypeError, ValueError):
        raise _invalid(
            "argument 2 (range) must be an LSP range {start: {line, character}, end: {...}}"
        ) from None
    if min(values) < 0:
        raise _invalid("argument 2 (range) must not have negative positions")
    if max(values) > 2**31 - 1:
        raise _invalid("argument 2 (range): a position is larger than LSP allows (2^31 - 1)")
    return types.Range(types.Position(values[0], values[1]), types.Position(values[2], values[3]))


async def improve(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.improve [uri, range?, options?]``: improve, apply via ``workspace/applyEdit``."""
    from rephrase_ls.settings import STYLE_NAMES, TONE_NAMES

    _max_args(args, 3, "rephrase.improve")
    uri = _open_uri(ls, _arg(args, 0, "uri", str))
    raw_range = _arg(args, 1, "range", dict, optional=True)
    options = _arg(args, 2, "options", dict, optional=True) or {}
    if uri not in ls.workspace.text_documents:
        raise _invalid(f"argument 1 (uri): {uri} is not open in the editor")
    style, tone, target = (
        options.get("writingStyle"),
        options.get("tone"),
        options.get("targetLang"),
    )
    for name, value in (("writingStyle", style), ("tone", tone), ("targetLang", target)):
        if value is not None and not isinstance(value, str):
            raise _invalid(f"argument 3 (options.{name}) must be a string")
    if style and tone:
        raise _invalid("argument 3 (options): writingStyle and tone exclude each other; give one")
    if style and style.removeprefix("prefer_") not in STYLE_NAMES:
        raise _invalid(
            f"argument 3 (options.writingStyle): {style!r} is not one of {', '.join(STYLE_NAMES)}"
        )
    if tone and tone.removeprefix("prefer_") not in TONE_NAMES:
        raise _invalid(f"argument 3 (options.tone): {tone!r} is not one of {', '.join(TONE_NAMES)}")
    if target and (style or tone):
        raise _invalid(
            "argument 3 (options): targetLang (a variant conversion) excludes writingStyle and "
            "tone; give one"
        )
    kind, value = "default", None
    if style:
        kind, value = "style", style
    elif tone:
        kind, value = "tone", tone
    elif target:
        kind, value = "variant", target
    rng = _range_arg(raw_range) if raw_range is not None else None
    if rng is not None:
        lines = ls.workspace.text_documents[uri].lines
        for name, pos in (("start", rng.start), ("end", rng.end)):
            # The line just after a final line break exists (at character 0) in LSP.
            if pos.line > len(lines) or (pos.line == len(lines) and pos.character > 0):
                raise _invalid(
                    f"argument 2 (range): the {name} line {pos.line} is past the document's end"
                )
    req = ActionRequest(uri, None, rng, rng is None, kind, value)
    return await apply_request(ls, req)


async def apply_action(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """The command behind code actions for clients that do not resolve edits."""
    _max_args(args, 1, APPLY_COMMAND)
    data = _arg(args, 0, "data", dict)
    try:
        req = ActionRequest.from_data(data)
    except ValueError as exc:
        raise _invalid(f"argument 1 (data): {exc}") from None
    return await apply_request(ls, req)


def register(server: RephraseServer) -> None:
    """Wire every command into the server."""

    @server.command("rephrase.listStyles")
    @_guard
    async def _list_styles(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await list_styles(ls, *args)

    @server.command("rephrase.setStyle")
    @_guard
    async def _set_style(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await _set_style_or_tone(ls, args, "writingStyle")

    @server.command("rephrase.setTone")
    @_guard
    async def _set_tone(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await _set_style_or_tone(ls, args, "tone")

    @server.command("rephrase.setLanguage")
    @_guard
    async def _set_language(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await set_language(ls, *args)

    @server.command("rephrase.languages")
    @_guard
    async def _languages(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await languages(ls, *args)

    @server.command("rephrase.pairFeatures")
    @_guard
    async def _pair_features(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await pair_features(ls, *args)

    @server.command("rephrase.usage")
    @_guard
    async def _usage(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await usage(ls, *args)

    @server.command("rephrase.improve")
    @_guard
    async def _improve(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await improve(ls, *args)

    @server.command(APPLY_COMMAND)
    @_guard
    async def _apply(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        return await apply_action(ls, *args)
