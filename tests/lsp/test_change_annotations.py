"""Confirmable rewrites: whole-paragraph edits carry a change annotation labelled with the
action's title (``needsConfirmation`` with the ``confirmRewrites`` setting), where the client
supports change annotations; plain edits otherwise. Over the real protocol, embedded service."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from rephrase_ls.offline.engine import improve as engine_improve

from .conftest import (
    SERVER,
    Editor,
    editor_config,
    initialize_params,
    install_apply_edit,
    server_env,
)

pytestmark = pytest.mark.asyncio

PARAGRAPH = "this is the the test, and we recieved teh letter."
TEXT = f"{PARAGRAPH}\n"


@pytest.fixture
def profile(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "visual-studio-code"))


@pytest.fixture
def confirm(request: pytest.FixtureRequest) -> bool | None:
    """The ``confirmRewrites`` setting (None: not set)."""
    return getattr(request, "param", None)


@pytest_lsp.fixture(config=editor_config(server_command=SERVER, server_env=server_env()))
async def ann_session(
    lsp_client: LanguageClient, tmp_path: Path, profile: str, confirm: bool | None
) -> AsyncIterator[None]:
    root = tmp_path / "ws"
    root.mkdir()
    settings: dict[str, Any] = {} if confirm is None else {"confirmRewrites": confirm}
    lsp_client.set_configuration({"rephrase": settings})
    ed = Editor(lsp_client, root)
    install_apply_edit(lsp_client, [ed])
    await lsp_client.initialize_session(
        initialize_params(profile, root, initialization_options={"rephrase": settings})
    )
    lsp_client.editor = ed  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def ed(ann_session: LanguageClient) -> Editor:
    return ann_session.editor  # type: ignore[attr-defined]


async def improve_edit(ed: Editor, uri: str, title: str) -> types.WorkspaceEdit:
    """The edit of the action ``title`` on the first line, as the editor receives it (applied
    already when the server sent it with ``workspace/applyEdit``)."""
    for _ in range(100):
        actions = {a.title: a for a in await ed.code_actions(uri, (0, 0), (0, len(PARAGRAPH)))}
        if title in actions:
            break
        await asyncio.sleep(0.05)
    action = actions[title]
    if action.edit is None and action.command is None:
        action = await ed.client.code_action_resolve_async(action)
    if action.edit is not None:
        return action.edit
    assert action.command is not None
    await ed.command(action.command.command, *(action.command.arguments or []))
    return ed.applied[-1].edit


def the_edits(edit: types.WorkspaceEdit) -> list[Any]:
    if edit.document_changes:
        (change,) = edit.document_changes
        assert isinstance(change, types.TextDocumentEdit)
        return list(change.edits)
    (edits,) = (edit.changes or {}).values()
    return list(edits)


@pytest.mark.parametrize(
    ("confirm", "needs"), [(True, True), (False, None), (None, None)], indirect=["confirm"]
)
async def test_improve_edits_carry_the_action_title(
    confirm: bool | None, needs: bool | None, ed: Editor
) -> None:
    uri = ed.open("a.md", TEXT)
    for title in ("Improve", "Improve: business"):
        edit = await improve_edit(ed, uri, title)
        edits = the_edits(edit)
        assert edits and all(isinstance(e, types.AnnotatedTextEdit) for e in edits)
        assert edit.change_annotations is not None
        ids = {e.annotation_id for e in edits}
        (annotation_id,) = ids
        annotation = edit.change_annotations[annotation_id]
        assert annotation.label == title
        assert annotation.needs_confirmation is needs
    # The annotated edits are still the improvement, minimal and versioned.
    (change,) = edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 1
    ed.apply(edit)
    want = engine_improve(PARAGRAPH, "en-us", writing_style="business") + "\n"
    assert ed.text(uri) == want


@pytest.mark.parametrize("confirm", [True], indirect=True)
async def test_the_improve_command_sends_annotated_edits(confirm: bool, ed: Editor) -> None:
    uri = ed.open("a.md", TEXT)
    result = await ed.command("rephrase.improve", uri)
    assert result["applied"] is True
    (params,) = ed.applied
    assert params.label == "Improve document"
    annotations = params.edit.change_annotations or {}
    assert [a.label for a in annotations.values()] == ["Improve document"]
    assert all(a.needs_confirmation for a in annotations.values())
    assert ed.text(uri) == engine_improve(PARAGRAPH, "en-us") + "\n"


@pytest.mark.parametrize("profile", ["emacs", "neovim"], indirect=True)
@pytest.mark.parametrize("confirm", [True], indirect=True)
async def test_a_client_without_annotation_support_gets_plain_edits(
    profile: str, confirm: bool, ed: Editor
) -> None:
    uri = ed.open("a.md", TEXT)
    edit = await improve_edit(ed, uri, "Improve")
    assert edit.change_annotations is None
    edits = the_edits(edit)
    assert edits and all(type(e) is types.TextEdit for e in edits)
    if not ed.applied:  # resolved, not sent by the server: the editor applies it
        ed.apply(edit)
    assert ed.text(uri) == engine_improve(PARAGRAPH, "en-us") + "\n"
