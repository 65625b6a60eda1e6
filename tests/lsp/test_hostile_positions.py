"""Out-of-range positions in requests get an InvalidParams error, over the real protocol:
negative, past 2^31 - 1, or past the document's end, in code actions, their resolve data and
commands. And ``null`` items in a ``workspace/configuration`` answer mean "no settings"."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams

from .conftest import Editor, every_profile

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = "this is the the test.\n\nAnother paragraph here.\n"  # lines 0..3


def _range(start: tuple[int, int], end: tuple[int, int]) -> dict[str, Any]:
    return {"start": {"line": start[0], "character": start[1]},
            "end": {"line": end[0], "character": end[1]}}


@every_profile
async def test_code_actions_past_the_end_are_invalid_params(editor: Editor) -> None:
    uri = editor.open("far.md", TEXT)
    with pytest.raises(JsonRpcInvalidParams, match="past the document's end"):
        await editor.code_actions(uri, (40, 0), (41, 0))
    # A character past a line's end is that line's end (as LSP says), not an error; the line
    # just after the final line break exists.
    assert await editor.code_actions(uri, (0, 0), (0, 500)) is not None
    assert await editor.code_actions(uri, (0, 0), (3, 0)) is not None


@pytest.mark.parametrize("line", [-1, 2**31, 2**40])
async def test_code_actions_with_impossible_numbers_are_refused(
    editor: Editor, line: int,
) -> None:
    uri = editor.open("odd.md", TEXT)
    end = types.Position(0, 0)
    object.__setattr__(end, "line", line)  # past the client's own check: as a raw client sends
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri),
        range=types.Range(types.Position(0, 0), end),
        context=types.CodeActionContext(diagnostics=[]),
    )
    with pytest.raises(JsonRpcException) as caught:
        await editor.client.text_document_code_action_async(params)
    assert caught.value.code == JsonRpcInvalidParams.CODE


@pytest.mark.parametrize("rng, words", [
    ([0, 0, 2**31, 0], "2^31"),
    ([0, -1, 0, 4], "2^31"),
    ([40, 0, 41, 0], "past the document's end"),
])
async def test_resolve_with_out_of_range_data_is_invalid_params(
    editor: Editor, rng: list[int], words: str,
) -> None:
    uri = editor.open("resolve.md", TEXT)
    actions = [a for a in await editor.code_actions(uri, (0, 0), (0, 5)) if a.data]
    assert actions
    action = actions[0]
    assert isinstance(action.data, dict)
    action.data = {**action.data, "range": rng, "whole": False}
    action.command = None
    with pytest.raises(JsonRpcInvalidParams, match=words.replace("^", r"\^")):
        await editor.client.code_action_resolve_async(action)
    assert editor.text(uri) == TEXT


@pytest.mark.parametrize("rng, words", [
    (_range((0, 0), (2**31, 0)), "2\\^31"),
    (_range((0, -3), (0, 4)), "negative"),
    (_range((9, 0), (9, 1)), "past the document's end"),
])
async def test_commands_with_out_of_range_ranges_are_invalid_params(
    editor: Editor, rng: dict[str, Any], words: str,
) -> None:
    uri = editor.open("command.md", TEXT)
    with pytest.raises(JsonRpcInvalidParams, match=words):
        await editor.command("rephrase.improve", uri, rng)
    assert editor.text(uri) == TEXT
    assert not any(isinstance(p, types.ApplyWorkspaceEditParams) for p in editor.applied)


async def test_null_configuration_items_mean_no_settings(editor: Editor) -> None:
    """A client that answers ``workspace/configuration`` with ``[null]`` (no settings for the
    section) gets the defaults: every action, no failure reported."""
    editor.client.set_configuration(None, scope_uri=editor.root.as_uri())
    assert editor.client.get_configuration(section="rephrase", scope_uri=editor.uri("a.md")) is None
    uri = editor.open("a.md", "We need to organize the colors of this page soon.\n")
    for _ in range(100):
        titles = [a.title for a in await editor.code_actions(uri, (0, 0), (0, 5))]
        if any(t.startswith("Improve: ") for t in titles):
            break
        await asyncio.sleep(0.05)
    assert "Improve" in titles and "Improve document" in titles
    said = [m.message for m in [*editor.client.messages, *editor.client.log_messages]]
    assert not any("configuration failed" in m for m in said), said


@every_profile
async def test_markup_too_deep_to_read_offers_nothing_and_says_why(editor: Editor) -> None:
    deep = "\\begin{document}" + "{" * 5000 + "teh x" + "}" * 5000 + "\\end{document}\n"
    uri = editor.open("deep.tex", deep, language_id="latex")
    actions = await editor.code_actions(uri, (0, 0), (0, 10)) or []
    assert all(a.disabled is not None for a in actions), actions  # VS Code is told why
    said = [m.message for m in editor.client.messages if m.type == types.MessageType.Warning]
    assert any("nests groups or environments too deeply" in m for m in said), said
