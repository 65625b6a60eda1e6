"""Which project file a document gets, and what of it is used (the real server over stdio).

Only a document that is a file in a folder has a project file: an ``untitled:`` buffer or a
``file:`` URI whose path goes up (``/ws/../elsewhere/x.md``, which as written looks inside the
workspace folder) has none, for reading and for writing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from lsprotocol import types

from .conftest import Buffer, Editor

over_stdio = pytest.mark.asyncio(loop_scope="session")

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


@over_stdio
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


@over_stdio
async def test_a_plain_document_in_the_folder_still_gets_it(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('language = "de"\n', encoding="utf-8")
    uri = editor.open("notes.md", TEXT)
    styles = await editor.command("rephrase.listStyles", uri)
    assert styles["language"].lower().startswith("de"), styles


SECRET_VALUE = "value-from-outside-4711"
OUTSIDE = f'language = "de"\ntone = "{SECRET_VALUE}"\n'


def _link_out(root: Path) -> Path:
    """A project whose ``.rephrase.toml`` is a link to a file outside it (with an invalid value,
    which would be quoted in a warning if the file were read)."""
    outside = root.parent / "outside.toml"
    outside.write_text(OUTSIDE, encoding="utf-8")
    root.mkdir(exist_ok=True)
    (root / ".git").mkdir(exist_ok=True)
    (root / ".rephrase.toml").symlink_to(outside)
    return outside


@over_stdio
async def test_a_project_file_linking_out_of_the_project_is_not_read(editor: Editor) -> None:
    _link_out(editor.root)
    uri = editor.open("notes.md", TEXT)
    styles = await editor.command("rephrase.listStyles", uri)
    assert not styles["language"].lower().startswith("de"), styles
    said = [m.message for m in (*editor.client.messages, *editor.client.log_messages)]
    assert any("outside the project" in m and "not read" in m for m in said), said
    assert not any(SECRET_VALUE in m for m in said), said


def test_cli_does_not_read_a_project_file_linking_out(tmp_path: Path) -> None:
    from tests.e2e.test_cli import run

    root = tmp_path / "clone"
    _link_out(root)
    (root / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    result = run("improve", "a.md", cwd=root)
    assert result.returncode == 0, result.stderr
    assert "outside the project" in result.stderr, result.stderr
    assert SECRET_VALUE not in result.stderr + result.stdout
