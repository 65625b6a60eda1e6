"""Where the server writes ``.rephrase.toml``: only inside the workspace folders, never through a
link planted at a temporary name or at the project file itself (the real server over stdio).

The Neovim and Emacs profiles cannot create files through ``workspace/applyEdit``, so the server
creates the project file itself; the VS Code profile's editor creates it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

from rephrase_ls.safe_write import temp_names

from .conftest import Buffer, Editor, every_profile

pytestmark = [pytest.mark.asyncio(loop_scope="session"), every_profile]

TEXT = "We need to organize the colors of this page before the meeting.\n"
VICTIM = "# the user's own file, outside the workspace\nexport PATH=$HOME/bin:$PATH\n"


def _server_writes_itself(editor: Editor) -> bool:
    return editor.profile in ("neovim", "emacs")


def _open_outside(editor: Editor, path: Path) -> str:
    """Open a document that is not in the workspace folder (as editors allow)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TEXT, encoding="utf-8")
    uri = path.as_uri()
    editor.buffers[uri] = Buffer(TEXT, 1, "markdown")
    editor.client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="markdown", version=1, text=TEXT
            )
        )
    )
    return uri


def _warnings(editor: Editor) -> list[str]:
    return [m.message for m in editor.client.messages if m.type == types.MessageType.Warning]


@pytest.mark.parametrize(
    ("command", "value"), [("rephrase.setLanguage", "en-GB"), ("rephrase.setStyle", "business")]
)
async def test_a_document_outside_the_workspace_folders_gets_no_project_file(
    editor: Editor, command: str, value: str
) -> None:
    elsewhere = editor.root.parent / "elsewhere"
    (elsewhere / ".git").mkdir(parents=True)  # its own project root, outside the workspace
    uri = _open_outside(editor, elsewhere / "notes.md")
    result = await editor.command(command, uri, value)
    assert result["applied"] is False
    assert "outside the workspace folders" in result["reason"]
    assert "was not saved" in result["reason"]
    assert sorted(os.listdir(elsewhere)) == [".git", "notes.md"]
    assert not (editor.root / ".rephrase.toml").exists()
    assert any("outside the workspace folders" in m for m in _warnings(editor))
    assert not editor.applied  # not even proposed to the editor


async def test_links_at_the_temp_names_are_never_followed(editor: Editor) -> None:
    home = editor.root.parent / "home"
    home.mkdir()
    uri = editor.open("a.md", TEXT)
    names = temp_names(".rephrase.toml")
    planted = {".rephrase.toml.tmp": home / ".bashrc"}  # the name an older server used
    for i, name in enumerate(names[:-1]):
        planted[name] = home / (f".profile{i}" if i % 2 else f"new{i}")
    for name, target in planted.items():
        if not target.name.startswith("new"):
            target.write_text(VICTIM, encoding="utf-8")
        (editor.root / name).symlink_to(target)
    result = await editor.command("rephrase.setStyle", uri, "casual")
    assert result["applied"] is True, result
    toml = editor.root / ".rephrase.toml"
    assert not toml.is_symlink()
    assert tomllib.loads(toml.read_text(encoding="utf-8")) == {"writingStyle": "casual"}
    for name, target in planted.items():
        assert os.readlink(editor.root / name) == str(target)
        if target.name.startswith("new"):
            assert not target.exists(), f"{name} was followed"
        else:
            assert target.read_text(encoding="utf-8") == VICTIM, f"{name} was followed"
    left = {p.name for p in editor.root.iterdir()} - set(planted)
    assert left == {"a.md", ".rephrase.toml"}  # no temporary file of ours left behind


@pytest.mark.profiles("neovim", "emacs")
async def test_every_temp_name_taken_is_a_clear_refusal(editor: Editor) -> None:
    assert _server_writes_itself(editor)  # an editor that creates the file itself is not asked
    home = editor.root.parent / "home"
    home.mkdir()
    bashrc = home / ".bashrc"
    bashrc.write_text(VICTIM, encoding="utf-8")
    uri = editor.open("a.md", TEXT)
    for name in temp_names(".rephrase.toml"):
        (editor.root / name).symlink_to(bashrc)
    result = await editor.command("rephrase.setStyle", uri, "casual")
    assert result["applied"] is False
    assert "cannot create a temporary file" in result["reason"]
    assert not os.path.lexists(editor.root / ".rephrase.toml")
    assert bashrc.read_text(encoding="utf-8") == VICTIM
    assert any("Nothing was written" in m for m in _warnings(editor))


@pytest.mark.parametrize("existing", [True, False], ids=["to-a-file", "dangling"])
async def test_a_project_file_linked_out_of_the_workspace_is_not_written(
    editor: Editor, existing: bool
) -> None:
    home = editor.root.parent / "home"
    home.mkdir()
    target = home / "settings.toml"
    if existing:
        target.write_text("# the user's own settings\n", encoding="utf-8")
    (editor.root / ".rephrase.toml").symlink_to(target)
    uri = editor.open("a.md", TEXT)
    result = await editor.command("rephrase.setLanguage", uri, "en-GB")
    assert result["applied"] is False
    assert f"is a symbolic link to {target}" in result["reason"]
    assert "outside" in result["reason"]
    if existing:
        assert target.read_text(encoding="utf-8") == "# the user's own settings\n"
    else:
        assert not target.exists()
    assert not editor.applied


async def test_an_unreadable_project_file_is_not_replaced(editor: Editor) -> None:
    toml = editor.root / ".rephrase.toml"
    toml.write_bytes(b'tone = "friendly"\n# caf\xe9 in Latin-1\n')
    uri = editor.open("a.md", TEXT)
    with pytest.raises(JsonRpcInvalidParams, match="cannot be read as text"):
        await editor.command("rephrase.setStyle", uri, "business")
    assert toml.read_bytes() == b'tone = "friendly"\n# caf\xe9 in Latin-1\n'
    assert not editor.applied


async def test_a_project_file_linked_to_a_device_is_not_read(editor: Editor) -> None:
    """``.rephrase.toml -> /dev/zero`` in a cloned repository: the server does not read it
    until memory runs out; it says the file cannot be read, and goes on answering."""
    (editor.root / ".rephrase.toml").symlink_to("/dev/zero")
    uri = editor.open("a.md", TEXT)
    result = await editor.command("rephrase.setStyle", uri, "business")
    assert result["applied"] is False
    assert os.readlink(editor.root / ".rephrase.toml") == "/dev/zero"
    # refused unread: the link leads out of the project (and a device is no regular file)
    assert any("outside the project" in m for m in _warnings(editor)), _warnings(editor)
    assert not editor.applied
