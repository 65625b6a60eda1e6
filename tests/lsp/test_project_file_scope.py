"""Which project file a document gets, and what of it is used (the real server over stdio).

Only a document that is a file in a folder has a project file: an ``untitled:`` buffer or a
``file:`` URI whose path goes up (``/ws/../elsewhere/x.md``, which as written looks inside the
workspace folder) has none, for reading and for writing.
"""

from __future__ import annotations

import os

import pytest
from lsprotocol import types

from .conftest import Buffer, Editor

pytestmark = [pytest.mark.asyncio(loop_scope="session")]

TEXT = "We need to organize the colors of this page before the meeting.\n"


def _open_uri(editor: Editor, uri: str, text: str = TEXT) -> str:
    editor.buffers[uri] = Buffer(text, 1, "markdown")
    editor.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="markdown", version=1, text=text
            )
        )
    )
    return uri


def _warnings(editor: Editor) -> list[str]:
    return [m.message for m in editor.client.messages if m.type == types.MessageType.Warning]


def _going_up(editor: Editor) -> str:
    """``file:///…/ws/../elsewhere/notes.md``: the file is outside the workspace folder."""
    elsewhere = editor.root.parent / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    (elsewhere / "notes.md").write_text(TEXT, encoding="utf-8")
    return "file://" + str(editor.root) + "/../elsewhere/notes.md"


@pytest.mark.parametrize("kind", ["untitled", "going-up"])
async def test_a_document_without_a_folder_is_not_given_the_workspace_project_file(
    editor: Editor, kind: str
) -> None:
    (editor.root / ".rephrase.toml").write_text('language = "de"\n', encoding="utf-8")
    uri = _open_uri(editor, "untitled:Untitled-1" if kind == "untitled" else _going_up(editor))
    styles = await editor.command("rephrase.listStyles", uri)
    assert not styles["language"].lower().startswith("de"), styles  # English, detected
    result = await editor.command("rephrase.setLanguage", uri, "en-GB")
    assert result["applied"] is False, result
    assert "was not saved" in result["reason"] and "no .rephrase.toml" in result["reason"]
    assert (editor.root / ".rephrase.toml").read_text(encoding="utf-8") == 'language = "de"\n'
    if kind == "going-up":
        assert sorted(os.listdir(editor.root.parent / "elsewhere")) == ["notes.md"]
    assert any("no .rephrase.toml" in m for m in _warnings(editor))
    assert not editor.applied


async def test_a_plain_document_in_the_folder_still_gets_it(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('language = "de"\n', encoding="utf-8")
    uri = editor.open("notes.md", TEXT)
    styles = await editor.command("rephrase.listStyles", uri)
    assert styles["language"].lower().startswith("de"), styles
