"""The code-action menu around review mode's quick fixes, over the real protocol: each
paragraph-level and each identical quick fix listed once whatever diagnostics the client sends
(Neovim sends every diagnostic of the cursor's line), and the improvement actions still listed
right after a word was added to the project's words."""

from __future__ import annotations

import asyncio
import tomllib
from collections import Counter

import pytest
from lsprotocol import types

from .conftest import Editor
from .review_support import PULL, PUSH, covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: One line with three findings (two of them spelling), a second paragraph with its own.
TEXT = "I recieved teh letter and it was was short.\n\nThier reply came late.\n"


async def menu(editor: Editor, uri: str, rng: types.Range, diagnostics: list[types.Diagnostic]):
    return await editor.actions(uri, rng, diagnostics)


async def full_menu(editor: Editor, uri: str, rng: types.Range) -> list[types.CodeAction]:
    """The menu once the server has its capability list (loaded in the background)."""
    for _ in range(200):
        actions = await editor.actions(uri, rng)
        if any(a.title.startswith("Improve: ") for a in actions):
            return actions
        await asyncio.sleep(0.05)
    raise AssertionError(f"no style actions: {[a.title for a in actions]}")


@pytest.mark.profiles(PUSH, PULL)
async def test_line_diagnostics_give_each_paragraph_action_once(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 4)
    line = [d for d in found if d.range.start.line == 0]
    assert sorted(covered(TEXT, d.range) for d in line) == ["recieved", "teh", "was was"], line
    cursor = types.Range(types.Position(0, 3), types.Position(0, 3))
    # As Neovim asks: every diagnostic of the cursor's line, in the context.
    actions = await menu(editor, uri, cursor, line)
    counts = Counter(a.title for a in actions)
    assert counts["Ignore this paragraph"] == 1, counts
    assert counts["Turn off ‘spelling’ in this project"] == 1, counts
    assert counts["Fix all ‘spelling’ in the document (3)"] == 1, counts
    assert [t for t, n in counts.items() if n > 1] == [], counts
    # Each finding keeps its own replacement.
    assert {"Replace with ‘received’", "Replace with ‘the’", "Replace with ‘was’"} <= set(counts)
    # The merged actions name every diagnostic they resolve.
    ignore = next(a for a in actions if a.title == "Ignore this paragraph")
    assert ignore.diagnostics is not None and len(ignore.diagnostics) == 3
    turn_off = next(a for a in actions if a.title == "Turn off ‘spelling’ in this project")
    assert turn_off.diagnostics is not None
    assert sorted(covered(TEXT, d.range) for d in turn_off.diagnostics) == ["recieved", "teh"]


@pytest.mark.profiles(PUSH)
async def test_diagnostics_of_two_paragraphs_give_one_ignore_each(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 4)
    whole = types.Range(types.Position(0, 0), types.Position(2, 22))
    actions = await menu(editor, uri, whole, found + found)  # a client sending them twice
    ignores = [a for a in actions if a.title == "Ignore this paragraph"]
    assert len(ignores) == 2, [a.title for a in actions]
    assert ignores[0].edit != ignores[1].edit
    titles = Counter(a.title for a in actions)
    assert titles["Add ‘Thier’ to the project's words"] == 1, titles


@pytest.mark.profiles(PUSH, PULL)
async def test_the_menu_stays_complete_right_after_a_word_is_added(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 4)
    other = types.Range(types.Position(2, 3), types.Position(2, 3))
    before = [a.title for a in await full_menu(editor, uri, other)]
    word = next(d for d in found if covered(TEXT, d.range) == "recieved")
    actions = {a.title: a for a in await menu(editor, uri, word.range, [word])}
    await editor.run_action(actions["Add ‘recieved’ to the project's words"])
    words = tomllib.loads((editor.root / ".rephrase.toml").read_text("utf-8"))["words"]
    assert words == ["recieved"]
    after = [a.title for a in await editor.actions(uri, other)]
    assert after == before
