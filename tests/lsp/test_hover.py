"""Hover over a rephrase finding, over the real protocol: the rule, why it fired, and how to
turn it off; nothing where there is no finding."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import Editor
from .review_support import PULL, PUSH, covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = "I recieved the letter yesterday, and I read it twice before dinner.\n"


async def _hover(editor: Editor, uri: str, line: int, character: int) -> types.Hover | None:
    return await editor.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line, character),
        )
    )


@pytest.mark.profiles(PUSH, PULL)
async def test_hover_explains_the_finding_and_how_to_turn_it_off(editor: Editor) -> None:
    assert editor.server_capabilities is not None
    assert editor.server_capabilities.hover_provider
    uri = editor.open("hover.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert [covered(TEXT, d.range) for d in found] == ["recieved"]
    hover = await _hover(editor, uri, 0, 5)
    assert hover is not None and hover.range == found[0].range
    assert isinstance(hover.contents, types.MarkupContent)
    text = hover.contents.value
    assert "spelling" in text and "recieved → received" in text
    assert "offline engine" in text
    assert "<!-- rephrase: ignore-next-line -->" in text
    assert "<!-- rephrase: off -->" in text
    assert "Add ‘recieved’ to the project's words" in text
    assert 'diagnostics = "off"' in text


@pytest.mark.profiles(PUSH)
async def test_hover_away_from_a_finding_shows_nothing(editor: Editor) -> None:
    uri = editor.open("hover-none.md", TEXT)
    await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert await _hover(editor, uri, 0, 30) is None


@pytest.mark.profiles(PUSH)
async def test_hover_names_latex_comments_in_a_latex_document(editor: Editor) -> None:
    uri = editor.open("hover.tex", TEXT, language_id="latex")
    await editor.diagnostics(uri, lambda d: len(d) >= 1)
    hover = await _hover(editor, uri, 0, 4)
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert "% rephrase: ignore-next-line" in hover.contents.value
