"""Kinds of findings on and off (``disabledRules``, ``enabledRules``, the spacing a rendered
document hides) and the writer's words (the user's ``words`` and ``words.txt``, per-language
lists, a project's ``wordFiles``), over the real protocol."""

from __future__ import annotations

import asyncio
import os
import tempfile
import tomllib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import SERVER, Editor, editor_config, server_env
from .review_support import PULL, PUSH, covered, start

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = "I recieved teh letter.\n\nThier reply came late, and it was was short.\n"
SPACED = "The reply came  late, and it was short , too.\n"
#: Plain text takes two spaces inside a line for a column (a table): only the comma's.
PLAIN_SPACED = "The reply came late, and it was short , too.\n"


def by_title(actions: list[types.CodeAction]) -> dict[str, types.CodeAction]:
    return {a.title: a for a in actions}


def codes(text: str, found: list[types.Diagnostic]) -> dict[str, str]:
    return {covered(text, d.range): str(d.code) for d in found}


async def settled(editor: Editor, uri: str) -> list[types.Diagnostic]:
    """The diagnostics once the review of the document's current version has run."""
    version = editor.version(uri)
    return await editor.diagnostics(
        uri, lambda d: bool(d) and all(x.data["version"] == version for x in d)
    )


# -- disabledRules ---------------------------------------------------------------------------


@pytest.mark.profiles(PUSH, PULL)
async def test_disabled_rules_in_the_project_file(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('disabledRules = ["spelling"]\n', "utf-8")
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    assert codes(TEXT, found) == {"was was": "doubled-word"}


@pytest.mark.profiles(PUSH)
async def test_disabled_rules_per_language(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text(
        'disabledRules = { de = ["spelling"], "*" = ["doubled-word"] }\n', "utf-8"
    )
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    # German spelling is off, not English; doubled words are off in every language
    assert set(codes(TEXT, found).values()) == {"spelling"}
    german = (
        "Wir haben gestern die Nachricht bekommen, aber die Antwort war war nicht sehr "
        "freundlich und viel zu spaet.\n"
    )
    de = editor.open("b.md", german)
    found = await editor.diagnostics(de)
    assert [str(d.code) for d in found] == []  # spelling (spaet) and doubles: both off


@pytest.mark.profiles(PUSH)
@pytest.mark.editor_settings({"disabledRules": ["doubled-word"]})
async def test_disabled_rules_in_folder_settings(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    assert "doubled-word" not in codes(TEXT, found).values()
    assert codes(TEXT, found)["teh"] == "spelling"


@pytest.mark.profiles(PUSH)
async def test_a_bad_rule_name_is_reported_and_nothing_is_turned_off(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('disabledRules = ["speling"]\n', "utf-8")
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    assert codes(TEXT, found)["teh"] == "spelling"
    for _ in range(50):
        if any("speling" in m.message for m in editor.client.messages):
            break
        await asyncio.sleep(0.05)
    said = [m.message for m in editor.client.messages if "speling" in m.message]
    assert said and "unknown rule" in said[0] and "spacing" in said[0]


@pytest.mark.profiles(PUSH, PULL)
async def test_turn_off_a_rule_in_this_project(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('# mine\nwords = ["zlib"]\n', "utf-8")
    uri = editor.open("a.txt", PLAIN_SPACED, language_id="plaintext")
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    spacing = next(d for d in found if d.code == "spacing")
    action = by_title(await editor.actions(uri, spacing.range, [spacing]))[
        "Turn off ‘spacing’ in this project"
    ]
    assert action.kind == types.CodeActionKind.QuickFix and action.command is not None
    await editor.run_action(action)
    written = (editor.root / ".rephrase.toml").read_text("utf-8")
    assert written.startswith("# mine\n")
    assert tomllib.loads(written) == {"words": ["zlib"], "disabledRules": ["spacing"]}
    assert await editor.diagnostics(uri, lambda d: not d) == []
    # again: the file already says it
    result = await editor.command("rephrase.disableRule", uri, "spacing")
    assert result == {
        "applied": True,
        "file": (editor.root / ".rephrase.toml").as_uri(),
        "changed": False,
    }


@pytest.mark.profiles(PUSH)
async def test_turn_off_refuses_an_unknown_rule(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    with pytest.raises(Exception, match="not a rule"):
        await editor.command("rephrase.disableRule", uri, "grammar")
    assert not (editor.root / ".rephrase.toml").exists()


# -- spacing a rendered document does not show ---------------------------------------------


@pytest.mark.profiles(PUSH, PULL)
async def test_two_spaces_in_markdown_are_not_flagged_a_space_before_a_comma_is(
    editor: Editor,
) -> None:
    uri = editor.open("a.md", SPACED)
    found = await settled(editor, uri)
    assert codes(SPACED, found) == {"short ,": "spacing"}


@pytest.mark.profiles(PUSH)
async def test_plain_text_and_commit_messages_keep_spacing(editor: Editor) -> None:
    uri = editor.open("a.txt", PLAIN_SPACED, language_id="plaintext")
    found = await settled(editor, uri)
    assert codes(PLAIN_SPACED, found) == {"short ,": "spacing"}
    message = "Fix the parser\n\nThe reply came late, and it was short , too.\n"
    commit = editor.open("COMMIT_EDITMSG", message, language_id="git-commit")
    found = await settled(editor, commit)
    assert codes(message, found) == {"short ,": "spacing"}


@pytest.mark.profiles(PUSH)
async def test_rst_and_latex_hide_two_spaces_too(editor: Editor) -> None:
    text = "The reply came  late, and it was short.\n"
    for name, language in (("a.rst", "restructuredtext"), ("a.tex", "latex")):
        uri = editor.open(name, text, language_id=language)
        await asyncio.sleep(0.6)
        found = await editor.diagnostics(uri)
        assert found == [], name


@pytest.mark.profiles(PUSH)
async def test_enabled_rules_spacing_shows_what_the_rendering_hides(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('enabledRules = ["spacing"]\n', "utf-8")
    uri = editor.open("a.md", SPACED)
    found = await settled(editor, uri)
    assert codes(SPACED, found) == {"came  late,": "spacing", "short ,": "spacing"}


# -- Improve with the offline engine honours disabledRules -------------------------------------


@pytest.mark.profiles(PUSH)
async def test_improve_with_the_offline_engine_keeps_a_kind_turned_off(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('disabledRules = ["spelling"]\n', "utf-8")
    uri = editor.open("a.md", TEXT)
    result = await editor.command("rephrase.improve", uri)
    assert result["applied"] is True
    assert editor.text(uri) == TEXT.replace("was was", "was")


# -- words -----------------------------------------------------------------------------------


@pytest.mark.profiles(PUSH)
async def test_per_language_words(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text(
        'words = { en = ["teh"], de = ["recieved"] }\n', "utf-8"
    )
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    shown = codes(TEXT, found)
    assert "teh" not in shown and shown["recieved"] == "spelling"


@pytest.mark.profiles(PUSH)
async def test_word_files_of_the_project(editor: Editor) -> None:
    (editor.root / "docs").mkdir()
    (editor.root / "docs" / "wordlist.txt").write_text("# ours\nteh\n\nThier\n", "utf-8")
    (editor.root / ".rephrase.toml").write_text('wordFiles = ["docs/wordlist.txt"]\n', "utf-8")
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    shown = codes(TEXT, found)
    assert "teh" not in shown and "Thier" not in shown and shown["recieved"] == "spelling"
    # a change to the word file counts at the next review
    (editor.root / "docs" / "wordlist.txt").write_text("teh\nThier\nrecieved\n", "utf-8")
    editor.set_text(uri, TEXT + "\n")
    found = await editor.diagnostics(
        uri, lambda d: all(x.data["version"] == 2 for x in d) and len(d) == 1
    )
    assert codes(TEXT, found) == {"was was": "doubled-word"}


@pytest.mark.profiles(PUSH)
async def test_a_word_file_leading_out_of_the_project_is_refused(
    editor: Editor, tmp_path: Path
) -> None:
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("teh\n", "utf-8")
    os.symlink(outside, editor.root / "words.txt")
    (editor.root / ".rephrase.toml").write_text(
        'wordFiles = ["words.txt", "../elsewhere.txt"]\n', "utf-8"
    )
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    assert codes(TEXT, found)["teh"] == "spelling"
    for _ in range(50):
        if sum("leads outside the project" in m.message for m in editor.client.messages) >= 2:
            break
        await asyncio.sleep(0.05)
    assert sum("leads outside the project" in m.message for m in editor.client.messages) == 2


# -- the user's own words and rules (a server with a user config folder of its own) ----------


#: The user config home of the servers of this process's tests (one per pytest worker).
USER_HOME = Path(tempfile.gettempdir()) / f"rephrase-words-test-{os.getpid()}"


@pytest_lsp.fixture(
    config=editor_config(
        server_command=SERVER, server_env=server_env(XDG_CONFIG_HOME=str(USER_HOME))
    ),
    loop_scope="session",
)
async def own(lsp_client: LanguageClient) -> AsyncIterator[LanguageClient]:
    """A server whose user config folder is :data:`USER_HOME`'s ``rephrase-ls``."""
    yield lsp_client
    await lsp_client.shutdown_session()


def _user_folder() -> Path:
    folder = USER_HOME / "rephrase-ls"
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    return folder


async def test_the_users_words_rules_and_add_to_my_words(
    own: LanguageClient, tmp_path: Path
) -> None:
    folder = _user_folder()
    (folder / "config.toml").write_text(
        'words = ["Thier"]\ndisabledRules = { en = ["doubled-word"] }\n', "utf-8"
    )
    (folder / "words.txt").write_text("recieved", "utf-8")  # no line break at the end
    editor = await start(own, tmp_path, PUSH)
    uri = editor.open("a.md", TEXT)
    found = await settled(editor, uri)
    assert codes(TEXT, found) == {"teh": "spelling"}
    teh = found[0]
    titles = by_title(await editor.actions(uri, teh.range, [teh]))
    add = titles["Add ‘teh’ to my words"]
    assert add.kind == types.CodeActionKind.QuickFix and add.edit is None
    await editor.run_action(add)
    assert (folder / "words.txt").read_text("utf-8") == "recieved\nteh\n"
    assert await editor.diagnostics(uri, lambda d: not d) == []
    assert any("words.txt" in m.message for m in own.messages)
    # the project file was not touched, nor the user's config file
    assert not (tmp_path / ".rephrase.toml").exists()
    assert "teh" not in (folder / "config.toml").read_text("utf-8")
    # a word there already: nothing changes
    result = await editor.command("rephrase.addUserWord", "teh")
    assert result["changed"] is False
    with pytest.raises(Exception, match="one word"):
        await editor.command("rephrase.addUserWord", "two words")


async def test_add_to_my_words_follows_the_users_own_link(
    own: LanguageClient, tmp_path: Path
) -> None:
    folder = _user_folder()
    target = tmp_path / "target"
    target.mkdir()
    (target / "words.txt").write_text("keep\n", "utf-8")
    # a link made by the user to their dotfiles is followed
    os.symlink(target / "words.txt", folder / "words.txt")
    editor = await start(own, tmp_path, PUSH)
    result = await editor.command("rephrase.addUserWord", "teh")
    assert result["applied"] is True
    assert (target / "words.txt").read_text("utf-8") == "keep\nteh\n"
    assert (folder / "words.txt").is_symlink()
