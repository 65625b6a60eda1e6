"""Corrections only over the real protocol with the embedded offline service: the **Correct**
and **Correct document** actions and the ``rephrase.correct`` command (a service on loopback:
test_correct_service.py)."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .conftest import Editor, every_profile

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: A slip to correct, and a phrase only the writing style rewrites ("in order to" → "to").
SENTENCE = "We use teh tool in order to check the text."
CORRECTED = "We use the tool in order to check the text."
SIMPLE = "We use the tool to check the text."
OTHER = "This paragraph stays as it was."
DOC = f"# Notes\n\n{SENTENCE}\n\n{OTHER}\n"
SIMPLE_SETTINGS = pytest.mark.editor_settings({"writingStyle": "simple"})


def titles(actions: list[types.CodeAction]) -> list[str]:
    return [a.title for a in actions]


async def listed(editor: Editor, uri: str, line: int, only: list[str] | None = None) -> dict:
    """The actions at ``line`` once the capability list is loaded (Improve: simple shown)."""
    for _ in range(100):
        actions = await editor.code_actions(uri, (line, 3), (line, 3), only)
        if only or any(t.startswith("Improve: ") for t in titles(actions)):
            break
        await asyncio.sleep(0.05)
    return {a.title: a for a in actions}


async def until(predicate, seconds: float = 10.0) -> None:
    for _ in range(int(seconds * 20)):
        if predicate():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("condition not met in time")


@every_profile
@SIMPLE_SETTINGS
async def test_correct_is_listed_first_and_keeps_the_wording(editor: Editor) -> None:
    uri = editor.open("notes.md", DOC)
    actions = await listed(editor, uri, 2)
    order = list(actions)
    assert order.index("Correct") < order.index("Improve")
    assert order.index("Correct document") < order.index("Improve document")
    assert actions["Correct"].kind == types.CodeActionKind.RefactorRewrite
    assert actions["Correct document"].kind == types.CodeActionKind.Source
    await editor.run_action(actions["Correct"])
    await until(lambda: editor.text(uri) != DOC)
    # The workspace's style is not applied: only the slip is fixed, in that paragraph only.
    assert editor.text(uri) == f"# Notes\n\n{CORRECTED}\n\n{OTHER}\n"
    improve = (await listed(editor, uri, 2))["Improve"]
    await editor.run_action(improve)
    await until(lambda: SIMPLE in editor.text(uri))
    assert editor.text(uri) == f"# Notes\n\n{SIMPLE}\n\n{OTHER}\n"


@SIMPLE_SETTINGS
async def test_correct_document_and_the_command(editor: Editor) -> None:
    text = f"{SENTENCE}\n\nThier reply came late.\n"
    uri = editor.open("a.md", text)
    whole = (await listed(editor, uri, 0, only=["source"]))["Correct document"]
    await editor.run_action(whole)
    await until(lambda: editor.text(uri) != text)
    assert editor.text(uri) == f"{CORRECTED}\n\nTheir reply came late.\n"

    other = editor.open("b.md", text)
    second = {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 5}}
    result = await editor.command("rephrase.correct", other, second)
    assert result["applied"] is True
    assert editor.text(other) == f"{SENTENCE}\n\nTheir reply came late.\n"
    result = await editor.command("rephrase.correct", other)
    assert result["applied"] is True
    assert editor.text(other) == f"{CORRECTED}\n\nTheir reply came late.\n"
    # Nothing left to correct: said so, nothing applied.
    again = await editor.command("rephrase.correct", other)
    assert again["applied"] is False and "corrections only" in again["reason"]


async def test_the_command_refuses_a_style_or_tone(editor: Editor) -> None:
    uri = editor.open("a.md", f"{SENTENCE}\n")
    for options in ({"writingStyle": "simple"}, {"tone": "friendly"}, {"targetLang": "en-GB"}):
        with pytest.raises(JsonRpcException) as info:
            await editor.command("rephrase.correct", uri, None, options)
        assert "rephrase.correct corrects only" in str(info.value)
    assert editor.text(uri) == f"{SENTENCE}\n"


async def test_the_actions_setting_can_leave_correct_out(editor: Editor) -> None:
    editor.client.set_configuration(
        {"rephrase": {"actions": ["improve", "document"]}}, scope_uri=editor.root.as_uri()
    )
    editor.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings=None)
    )
    uri = editor.open("a.md", f"{SENTENCE}\n")
    for _ in range(100):
        names = titles(await editor.code_actions(uri, (0, 0), (0, 3)))
        if "Improve" in names and "Improve document" in names:
            break
        await asyncio.sleep(0.05)
    assert "Correct" not in names and "Correct document" not in names
