"""Review mode's offline diagnostics propose only what Improve would do: the document's guards
(a word it writes in code, a name it writes only in lower case) apply to them too, over the
real protocol, and follow edits elsewhere in the document."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import Editor
from .review_support import covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROSE = "# Setup\n\nThen recieve waits for teh answer.\n"
#: The same prose, in a document that writes ``recieve`` in code: it names the function.
WITH_CODE = "# Setup\n\nCall `recieve()` first.\n\nThen recieve waits for teh answer.\n"

#: git's own style: the name in lower case, at a sentence's start too.
LOWER_NAME = (
    "# Notes\n\nThe git tool is small and git is portable.\n\n"
    "Does it sign tags? It does. git signs them, and teh format is open.\n"
)


def _words(text: str, found: list[types.Diagnostic]) -> list[str]:
    return [covered(text, d.range) for d in found]


async def test_a_word_the_document_writes_in_code_gets_no_diagnostic_in_prose(
    editor: Editor,
) -> None:
    plain = editor.open("plain.md", PROSE)
    found = await editor.diagnostics(plain, lambda d: len(d) >= 2)
    assert _words(PROSE, found) == ["recieve", "teh"]  # the engine corrects both
    uri = editor.open("code.md", WITH_CODE)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert _words(WITH_CODE, found) == ["teh"]
    # The code goes: the same paragraph (its engine result cached) gets the finding again.
    without = WITH_CODE.replace("`recieve()`", "it")
    editor.set_text(uri, without)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert _words(without, found) == ["recieve", "teh"]


async def test_a_name_written_only_in_lower_case_keeps_it_at_a_sentence_start(
    editor: Editor,
) -> None:
    uri = editor.open("zlib.md", LOWER_NAME)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert _words(LOWER_NAME, found) == ["teh"]
    # Written once with a capital elsewhere, it is an ordinary word: the capital is a finding.
    capital = LOWER_NAME.replace("The git tool", "The Git tool")
    editor.set_text(uri, capital)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [(covered(capital, d.range), d.message) for d in found] == [
        ("git", "git → Git"),
        ("teh", "teh → the"),
    ]
