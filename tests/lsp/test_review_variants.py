"""Review mode's offline findings keep the spelling variant of a document whose variant
nothing shows (no "colour → color" finding), over the real protocol."""

from __future__ import annotations

import pytest

from .conftest import Editor
from .review_support import PULL, covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

MIXED = (
    "The colour of the page is set in the theme file, with teh rest of the styles.\n\n"
    "The color of the links is set in the same file and can be changed there.\n"
)


@pytest.mark.profiles(PULL)
async def test_no_variant_finding_in_a_document_of_unknown_variant(editor: Editor) -> None:
    uri = editor.open("a.md", MIXED)
    found = await editor.pull(uri)
    assert [covered(MIXED, d.range) for d in found] == ["teh"]
    # A document that is British gets its American spelling as a finding.
    british = MIXED.replace("the theme", "the centre of the grey theme")
    editor.set_text(uri, british)
    found = await editor.pull(uri)
    assert [covered(british, d.range) for d in found] == ["teh", "color"]
