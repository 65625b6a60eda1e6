"""In-document switches over the real protocol: a region switched off, a line ignored and the
**Ignore this paragraph** quick fix; diagnostics and Improve document both leave that prose
alone."""

from __future__ import annotations

import pytest

from .conftest import Editor
from .review_support import PULL, PUSH, covered
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = (
    "I recieved the letter.\n\n"
    "<!-- rephrase: off -->\nTheir reply was short, I beleive.\n<!-- rephrase: on -->\n\n"
    "```\n<!-- rephrase: off -->\n```\n\n"  # an example in a code block: not a switch
    "<!-- rephrase: ignore-next-line -->\nSo the end came untill now.\n"
    "Thier reply came late.\n"
)


# Long enough to tell its language by itself once the paragraph before is switched off.
LATE = "Thier reply came late, and it said nothing of the plans we made last spring.\n"


@pytest.mark.profiles(PUSH, PULL)
async def test_switched_off_prose_gets_no_diagnostics(editor: Editor) -> None:
    uri = editor.open("switches.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [covered(TEXT, d.range) for d in found] == ["recieved", "Thier"]


@pytest.mark.profiles(PUSH)
async def test_improve_document_leaves_switched_off_prose(editor: Editor) -> None:
    uri = editor.open("switches-improve.md", TEXT)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != TEXT)
    improved = editor.text(uri)
    assert improved == TEXT.replace("recieved", "received").replace("Thier", "Their")


@pytest.mark.profiles(PUSH, PULL)
async def test_ignore_this_paragraph_writes_the_switches_and_the_findings_go(
    editor: Editor,
) -> None:
    text = f"I recieved teh letter.\n\n{LATE}"
    uri = editor.open("ignore.md", text)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 3)
    teh = next(d for d in found if covered(text, d.range) == "teh")
    actions = by_title(await editor.actions(uri, teh.range, [teh]))
    await editor.run_action(actions["Ignore this paragraph"])
    assert editor.text(uri) == (
        "<!-- rephrase: off -->\nI recieved teh letter.\n<!-- rephrase: on -->\n\n"
        f"{LATE}"
    )
    after = await editor.diagnostics(
        uri, lambda d: bool(d) and all(x.data["version"] == 2 for x in d)
    )
    assert [covered(editor.text(uri), d.range) for d in after] == ["Thier"]


@pytest.mark.profiles(PUSH)
async def test_ignore_this_paragraph_in_restructuredtext_keeps_comments_blocks(
    editor: Editor,
) -> None:
    text = f"Title\n=====\n\nI recieved teh letter\nyesterday.\n\n{LATE}"
    uri = editor.open("ignore.rst", text, language_id="restructuredtext")
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    teh = next(d for d in found if covered(text, d.range) == "teh")
    actions = by_title(await editor.actions(uri, teh.range, [teh]))
    await editor.run_action(actions["Ignore this paragraph"])
    assert editor.text(uri) == (
        "Title\n=====\n\n.. rephrase: off\n\nI recieved teh letter\nyesterday.\n\n"
        ".. rephrase: on\n\n"
        f"{LATE}"
    )
    after = await editor.diagnostics(
        uri, lambda d: bool(d) and all(x.data["version"] == 2 for x in d)
    )
    assert [covered(editor.text(uri), d.range) for d in after] == ["Thier"]


# "beleive" twice, once where the writer switched checking off: the copy outside is still a slip.
TWICE = (
    "I beleive the report is ready, and the team has read it twice this week.\n\n"
    "<!-- rephrase: off -->\nSo the end came, I beleive, before the meeting on Friday.\n"
    "<!-- rephrase: on -->\n\n"
    "<!-- rephrase: ignore-next-line -->\nThey recieved it, as we all beleive they did.\n\n"
    "We recieved the notes from the team on Monday morning.\n"
)


@pytest.mark.profiles(PUSH, PULL)
async def test_switched_off_text_does_not_make_a_word_a_term(editor: Editor) -> None:
    """A word counts as written twice (so meant: a term, a name) only by the text checked."""
    uri = editor.open("twice.md", TWICE)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert sorted(covered(TWICE, d.range) for d in found) == ["beleive", "recieved"]


@pytest.mark.profiles(PUSH)
async def test_improve_document_corrects_a_word_also_written_in_switched_off_text(
    editor: Editor,
) -> None:
    uri = editor.open("twice-improve.md", TWICE)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != TWICE)
    assert editor.text(uri) == TWICE.replace(
        "I beleive the report", "I believe the report"
    ).replace("We recieved", "We received")
