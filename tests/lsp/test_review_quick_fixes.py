"""Review mode's quick fixes over the real protocol: replace one finding, fix all of a kind,
``source.fixAll.rephrase``, and adding a word to the project's words."""

from __future__ import annotations

import asyncio
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
WHOLE = types.Range(types.Position(0, 0), types.Position(3, 0))


def by_title(actions: list[types.CodeAction]) -> dict[str, types.CodeAction]:
    return {a.title: a for a in actions}


@pytest.mark.profiles(PUSH, PULL)
async def test_replace_with_applies_that_finding_only(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 4)
    teh = next(d for d in found if covered(TEXT, d.range) == "teh")
    actions = by_title(await editor.actions(uri, teh.range, [teh]))
    replace = actions["Replace with ‘the’"]
    assert replace.kind == types.CodeActionKind.QuickFix
    assert replace.is_preferred
    assert list(replace.diagnostics or []) == [teh]
    await editor.run_action(replace)
    assert editor.text(uri) == TEXT.replace("recieved teh", "recieved the")
    # The diagnostic is gone from the new version's; the others stay.
    after = await editor.diagnostics(uri, lambda d: all(x.data["version"] == 2 for x in d))
    assert "teh" not in [covered(editor.text(uri), d.range) for d in after]
    assert "recieved" in [covered(editor.text(uri), d.range) for d in after]


@pytest.mark.profiles(PULL)
async def test_a_stale_diagnostic_offers_no_replacement(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.pull(uri)
    teh = next(d for d in found if covered(TEXT, d.range) == "teh")
    editor.set_text(uri, TEXT.replace("recieved teh", "recieved tea"))  # the writer typed
    titles = [a.title for a in await editor.actions(uri, teh.range, [teh])]
    assert not [t for t in titles if t.startswith(("Replace", "Fix all ‘", "Add"))]


@pytest.mark.profiles(PUSH)  # an editor that takes versioned edits
async def test_replacement_is_pinned_to_the_version(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 4)
    teh = next(d for d in found if covered(TEXT, d.range) == "teh")
    replace = by_title(await editor.actions(uri, teh.range, [teh]))["Replace with ‘the’"]
    assert replace.edit is not None and replace.edit.document_changes
    change = replace.edit.document_changes[0]
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.version == 1
    editor.set_text(uri, TEXT + "More.\n")
    assert not editor.apply(replace.edit).applied  # the editor refuses an edit for version 1


@pytest.mark.profiles(PUSH)
async def test_fix_all_of_a_kind(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 4)
    codes = {covered(TEXT, d.range): d.code for d in found}
    assert codes["recieved"] == codes["teh"] == "spelling"
    assert codes["was was"] == "doubled-word"
    teh = next(d for d in found if covered(TEXT, d.range) == "teh")
    actions = by_title(await editor.actions(uri, teh.range, [teh]))
    spelling = [a for t, a in actions.items() if t.startswith("Fix all ‘spelling’")]
    assert len(spelling) == 1 and spelling[0].kind == types.CodeActionKind.QuickFix
    await editor.run_action(spelling[0])
    text = editor.text(uri)
    assert text == "I received the letter.\n\nTheir reply came late, and it was was short.\n"
    doubled = next(d for d in found if d.code == "doubled-word")
    titles = list(by_title(await editor.actions(uri, doubled.range, [doubled])))
    assert not [t for t in titles if t.startswith("Fix all ‘")]  # one of its kind: no fix-all


@pytest.mark.profiles(PUSH)
async def test_source_fix_all_applies_every_finding(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    await editor.diagnostics(uri, lambda d: len(d) >= 4)
    actions = await editor.actions(uri, WHOLE, only=["source.fixAll"])
    assert [a.kind for a in actions] == ["source.fixAll.rephrase"]
    await editor.run_action(actions[0])
    fixed = "I received the letter.\n\nTheir reply came late, and it was short.\n"
    assert editor.text(uri) == fixed
    assert await editor.diagnostics(uri, lambda d: not d) == []


@pytest.mark.profiles(PULL)
async def test_source_fix_all_before_the_review_ran(editor: Editor) -> None:
    """Asked at once after an edit (say, on save), fix-all reviews the version first."""
    uri = editor.open("a.md", TEXT)
    actions = await editor.actions(uri, WHOLE, only=["source.fixAll.rephrase"])
    assert len(actions) == 1
    await editor.run_action(actions[0])
    assert editor.text(uri).startswith("I received the letter.")


@pytest.mark.profiles(PULL)
async def test_only_is_respected(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.pull(uri)
    quick = await editor.actions(uri, found[0].range, found[:1], only=["quickfix"])
    assert quick and {a.kind for a in quick} == {types.CodeActionKind.QuickFix}
    rewrite = await editor.actions(uri, found[0].range, found[:1], only=["refactor"])
    assert rewrite and not [a for a in rewrite if a.kind == types.CodeActionKind.QuickFix]


@pytest.mark.profiles(PUSH)
async def test_add_word_writes_the_project_file_and_the_diagnostic_goes(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('# the project\ntone = "friendly"\n', "utf-8")
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 4)
    word = next(d for d in found if covered(TEXT, d.range) == "recieved")
    actions = by_title(await editor.actions(uri, word.range, [word]))
    add = actions["Add ‘recieved’ to the project's words"]
    assert add.command is not None and add.edit is None
    await editor.run_action(add)
    written = (editor.root / ".rephrase.toml").read_text("utf-8")
    assert written.startswith('# the project\ntone = "friendly"\n')
    assert tomllib.loads(written)["words"] == ["recieved"]
    after = await editor.diagnostics(
        uri, lambda d: "recieved" not in [covered(TEXT, x.range) for x in d]
    )
    assert "teh" in [covered(TEXT, d.range) for d in after]


@pytest_lsp.fixture(
    config=editor_config(server_command=SERVER, server_env=server_env()),
    loop_scope="session",
)
async def refreshing(lsp_client: LanguageClient) -> AsyncIterator[LanguageClient]:
    """A server of the test's own: its client announces ``workspace/diagnostic/refresh`` at
    ``initialize``, which the shared servers' clients do not."""
    yield lsp_client
    await lsp_client.shutdown_session()


async def test_a_pulling_client_is_asked_to_pull_again_after_add_word(
    refreshing: LanguageClient, tmp_path: Path
) -> None:
    client = refreshing
    editor = await start(client, tmp_path, PULL, refresh=True)
    uri = editor.open("a.md", TEXT)
    word = next(d for d in await editor.pull(uri) if covered(TEXT, d.range) == "teh")
    actions = by_title(await editor.actions(uri, word.range, [word]))
    add = actions["Add ‘teh’ to the project's words"]
    before = client.diagnostic_refresh_count
    await editor.run_action(add)
    for _ in range(100):
        if client.diagnostic_refresh_count > before:
            break
        await asyncio.sleep(0.05)
    assert client.diagnostic_refresh_count > before
    assert "teh" not in [covered(TEXT, d.range) for d in await editor.pull(uri)]
    assert tomllib.loads((tmp_path / ".rephrase.toml").read_text("utf-8"))["words"] == ["teh"]


@pytest.mark.profiles(PUSH)
async def test_add_word_outside_the_workspace_is_refused(editor: Editor, tmp_path: Path) -> None:
    inside = editor.root
    assert inside.parent == tmp_path
    editor.root = tmp_path  # the document lies outside every workspace folder
    uri = editor.open("a.md", TEXT)
    result = await editor.command("rephrase.addWord", uri, "recieved")
    assert result["applied"] is False
    assert "outside the workspace" in result["reason"]
    assert not (tmp_path / ".rephrase.toml").exists()
    assert not (inside / ".rephrase.toml").exists()
