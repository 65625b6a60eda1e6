"""A plain Improve keeps the spelling variant of a document whose variant nothing shows; the
conversion action converts. Over the real protocol, with the offline service."""

from __future__ import annotations

import asyncio

import pytest

from rephrase_ls.offline.engine import detect_variant

from .conftest import Editor
from .test_actions import actions_when_ready, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

# One British and one American spelling: a tie, the variant is unknown.
MIXED = (
    "The colour of the page is set in the theme file, with teh rest of the styles.\n\n"
    "The color of the links is set in the same file and can be changed there.\n"
)


async def test_improve_keeps_both_spellings_of_a_mixed_document(editor: Editor) -> None:
    assert detect_variant(MIXED, "en") is None
    uri = editor.open("mixed.md", MIXED)
    actions = await actions_when_ready(editor, uri, (0, 0), (0, 0))
    await editor.run_action(actions["Improve"])
    await wait_for(lambda: editor.text(uri) != MIXED)
    await asyncio.sleep(0.2)
    assert editor.text(uri) == MIXED.replace("teh rest", "the rest")


async def test_the_conversion_action_still_converts(editor: Editor) -> None:
    uri = editor.open("mixed.md", MIXED)
    actions = await actions_when_ready(editor, uri, (2, 0), (2, 0))
    await editor.run_action(actions["Convert to en-GB"])
    await wait_for(lambda: editor.text(uri) != MIXED)
    assert editor.text(uri).split("\n\n")[1] == "The colour of the links is set in the same " \
        "file and can be changed there.\n"
