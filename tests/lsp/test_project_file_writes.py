"""Where the server writes ``.rephrase.toml``: only inside the workspace folders, never through a
link planted at a temporary name or at the project file itself (the real server over stdio).

The Neovim and Emacs profiles cannot create files through ``workspace/applyEdit``, so the server
creates the project file itself; the VS Code profile's editor creates it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

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


# -- editing the file as TOML ---------------------------------------------------------------------


async def _edit_project(editor: Editor, before: str, command: str, value: str) -> tuple[Any, str]:
    """Open ``.rephrase.toml`` holding ``before`` in the editor, run ``command`` on a document
    of the folder, and give its result and the file's text after."""
    toml_uri = editor.open(".rephrase.toml", before, language_id="toml")
    uri = editor.open("a.md", TEXT)
    result = await editor.command(command, uri, value)
    return result, editor.text(toml_uri)


@pytest.mark.parametrize(
    ("before", "command", "value", "after"),
    [
        pytest.param(
            '# ours\n\'words\' = ["a"]  # names\n\n[other]\nwords = ["x"]\n',
            "rephrase.addWord",
            "teh",
            {"words": ["a", "teh"], "other": {"words": ["x"]}},
            id="quoted-words-key",
        ),
        pytest.param(
            "'language' = \"en-US\"\n",
            "rephrase.setLanguage",
            "en-GB",
            {"language": "en-GB"},
            id="quoted-language-key",
        ),
        pytest.param(
            'note = """\nlanguage = "fr"\nwords = ["z"]\n"""\nlanguage = "de"\nwords = ["a"]\n',
            "rephrase.setLanguage",
            "en-GB",
            {"note": 'language = "fr"\nwords = ["z"]\n', "language": "en-GB", "words": ["a"]},
            id="look-alike-in-a-multi-line-string",
        ),
        pytest.param(
            'note = """\nwords = ["z"]\n"""\nwords = ["a"]\n',
            "rephrase.addWord",
            "teh",
            {"note": 'words = ["z"]\n', "words": ["a", "teh"]},
            id="look-alike-list-in-a-multi-line-string",
        ),
        pytest.param(
            "words = [\n  \"a\" # why\n]\nlanguage = 'de'\n",
            "rephrase.addWord",
            "teh",
            {"words": ["a", "teh"], "language": "de"},
            id="comment-after-the-last-word",
        ),
    ],
)
async def test_only_the_key_meant_changes(
    editor: Editor, before: str, command: str, value: str, after: dict[str, Any]
) -> None:
    result, text = await _edit_project(editor, before, command, value)
    assert result["applied"] is True, result
    assert tomllib.loads(text) == after, text
    for line in before.splitlines():
        if line.startswith(("#", "'")) and "language" not in line:  # comments, quoted keys
            assert line.split("=")[0] in text, text


@pytest.mark.parametrize(
    ("command", "value"), [("rephrase.addWord", "teh"), ("rephrase.setStyle", "business")]
)
async def test_a_crlf_project_file_keeps_crlf(editor: Editor, command: str, value: str) -> None:
    before = '# ours\r\nlanguage = "en-US"\r\nwords = ["a"]\r\n\r\n[t]\r\nx = 1\r\n'
    result, text = await _edit_project(editor, before, command, value)
    assert result["applied"] is True, result
    assert text != before and "\n" not in text.replace("\r\n", ""), repr(text)
    assert text.startswith('# ours\r\nlanguage = "en-US"\r\n')


async def test_words_that_are_not_a_list_are_refused_unchanged(editor: Editor) -> None:
    before = "# ours\nwords = 'teh'\n"
    with pytest.raises(JsonRpcInvalidParams, match="not a list of words"):
        await _edit_project(editor, before, "rephrase.addWord", "teh")
    assert editor.text(editor.uri(".rephrase.toml")) == before
    assert not editor.applied


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
async def test_a_new_key_is_inserted_at_the_end_of_the_last_line(
    editor: Editor, newline: str
) -> None:
    """Not on the line after the last line break: Neovim 0.11 applies that with an extra empty
    line at the end of the file."""
    old = f'language = "en-GB"{newline}'
    (editor.root / ".rephrase.toml").write_text(old, encoding="utf-8", newline="")
    uri = editor.open("a.md", TEXT)
    result = await editor.command("rephrase.setStyle", uri, "business")
    assert result["applied"] is True, result
    change = editor.applied[-1].edit
    edits = [
        e
        for d in change.document_changes or []
        if isinstance(d, types.TextDocumentEdit)
        for e in d.edits
    ] or [e for es in (change.changes or {}).values() for e in es]
    assert [(e.range.start, e.range.end, e.new_text) for e in edits] == [
        (
            types.Position(0, 18),
            types.Position(0, 18),
            f'{newline}writingStyle = "business"',
        )
    ]
    if newline == "\n":  # (this test editor reads and writes files with universal newlines)
        written = (editor.root / ".rephrase.toml").read_text(encoding="utf-8")
        assert written == f'{old}writingStyle = "business"{newline}'
