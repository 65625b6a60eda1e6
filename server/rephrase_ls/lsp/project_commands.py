"""The commands that change the folder's project file: ``rephrase.setStyle``, ``setTone``,
``setLanguage``. The change goes through ``workspace/applyEdit`` (the editor's undo keeps it),
only inside the workspace folders, never into a file that does not parse.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from rephrase_ls.lsp.arguments import arg, choice_for, invalid, max_args, open_uri, write_caps

if TYPE_CHECKING:
    from rephrase_ls.lsp.language_server import RephraseServer


async def _set_project_keys(
    ls: RephraseServer, uri: str, changes: dict[str, str | None], label: str
) -> dict[str, Any]:
    """Change keys of the folder's project file through ``workspace/applyEdit``."""
    from rephrase_ls.config import project_file  # here, not at start-up (tomllib)

    def change(old: str | None) -> str | None:
        new = old
        try:
            for key, value in changes.items():
                new = project_file.set_key(new, key, value)
        except project_file.CannotEdit as exc:
            raise invalid(f"{exc}; nothing was changed.") from None
        return new

    return await edit_project_file(ls, uri, change, label)


def _at_last_line(old: str, start: int, end: int, text: str) -> tuple[int, int, str]:
    """An edit of ``old`` that appends lines after its final line break, as the same
    insertion at the end of its last line: Neovim 0.11 applies an insertion on the line after
    the last with an extra empty line at the end of the file."""
    newline = "\r\n" if old.endswith("\r\n") else "\n"
    if start == end == len(old) and old.endswith(newline) and text.endswith(newline):
        at = len(old) - len(newline)
        return at, at, newline + text[: -len(newline)]
    return start, end, text


async def edit_project_file(
    ls: RephraseServer, uri: str, change: Callable[[str | None], str | None], label: str
) -> dict[str, Any]:
    """Change the project file of ``uri``'s folder through ``workspace/applyEdit``: ``change``
    gives its new text from the current one (None: none), and may raise to refuse."""
    from rephrase_ls.config import project_file  # here, not at start-up (tomllib)

    path = ls.settings.project_file_path(uri)
    if path is None:
        no_file = (
            f"{uri} is not a file in a folder (an unsaved buffer, or a path that goes up with "
            f"'..'), so it has no {project_file.FILE_NAME} and '{label}' was not saved. Save the "
            "document in a workspace folder (or open it by its plain path) to set it there."
        )
        ls.say(f"rephrase: {no_file}", types.MessageType.Warning)
        return {"applied": False, "file": None, "reason": no_file}
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
        raise invalid(
            f"{path} exists but cannot be read as text. Fix or remove it first; "
            "nothing was changed."
        )
    parsed = project_file.parse(path, old)
    if parsed.error:
        # Editing a file that does not parse would leave it broken and the setting unused.
        raise invalid(f"{parsed.error}. Fix the file first; nothing was changed.")
    new = change(old) or ""
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
            start, end, text = _at_last_line(old, e.start, e.end, e.new_text)
            sl, sc = index.position(start, ls.encoding)
            el, ec = index.position(end, ls.encoding)
            edits.append(
                types.TextEdit(
                    range=types.Range(types.Position(sl, sc), types.Position(el, ec)),
                    new_text=text,
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


async def set_style(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.setStyle [uri, value]``; ``null`` or ``default`` clears."""
    return await _set_style_or_tone(ls, args, "writingStyle")


async def set_tone(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.setTone [uri, value]``; ``null`` or ``default`` clears."""
    return await _set_style_or_tone(ls, args, "tone")


async def _set_style_or_tone(
    ls: RephraseServer, args: tuple[Any, ...], which: str
) -> dict[str, Any]:
    from rephrase_ls.service.models import Kind, UnknownName, parse_name

    command = "rephrase.setStyle" if which == "writingStyle" else "rephrase.setTone"
    max_args(args, 2, command)
    uri = open_uri(arg(args, 0, "uri", str))
    value = arg(args, 1, "value", str, optional=True)
    kind: Kind = "writing style" if which == "writingStyle" else "tone"
    if value is not None:
        value = value.strip().lower()
        if value in ("", "default"):
            value = None
    if value is not None:
        try:
            base, prefer = parse_name(kind, value)
        except UnknownName as exc:
            raise invalid(
                f"argument 2 (value): {value!r} is not a {kind}; "
                f"expected one of {', '.join(exc.names)} or default"
            ) from None
        settings, backend, caps, _unavailable = await write_caps(ls, uri)
        choice = choice_for(ls, uri, settings, backend)
        offered = choice.writing_styles if which == "writingStyle" else choice.tones
        if caps is not None and not prefer and base not in offered:
            why = choice.reason or f"{choice.language} offers {', '.join(offered) or 'none'}"
            raise invalid(
                f"argument 2 (value): the {kind} {value!r} is not supported "
                f"for this document: {why}"
            )
    other = "tone" if which == "writingStyle" else "writingStyle"
    changes = {which: value}
    if value is not None:
        changes[other] = None
    return await _set_project_keys(ls, uri, changes, f"Set {kind} to {value or 'default'}")


async def set_language(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.setLanguage [uri, value]``; ``null`` or ``auto`` clears (detect)."""
    max_args(args, 2, "rephrase.setLanguage")
    uri = open_uri(arg(args, 0, "uri", str))
    value = arg(args, 1, "value", str, optional=True)
    if value is not None and value.strip().lower() in ("", "auto", "detect"):
        value = None
    if value is not None:
        value = value.strip().replace("_", "-")
        from rephrase_ls.improve.pipeline import embedded_has_no_rules

        settings, backend, caps, _unavailable = await write_caps(ls, uri)
        if embedded_has_no_rules(backend, value, settings.api_key_env):
            pass  # the service improves it; Improve says the embedded one cannot
        elif caps is not None:
            entry = caps.find(value) or caps.find_target(value)
            if entry is None:
                known = ", ".join(sorted({lang.lang for lang in caps.languages}))
                raise invalid(
                    f"argument 2 (value): {value!r} is not a language the service "
                    f"can improve; known: {known}"
                )
            value = entry.lang
    return await _set_project_keys(
        ls, uri, {"language": value}, f"Set language to {value or 'auto'}"
    )
