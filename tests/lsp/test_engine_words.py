"""Over the real protocol, as a new user's trial found them: a slip written in two paragraphs
gets a diagnostic in each, a software term gets none, and in a commit message the words of
git's comment lines and of the diff below the scissors line keep no slip in its body."""

from __future__ import annotations

import pytest

from .conftest import Editor
from .review_support import PULL, PUSH, covered
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

TWICE = (
    "We recieved the parcel untill noon, and the backticks around the name stayed.\n\n"
    "They recieved it too, and a transpiled heredoc went with it.\n"
)

MESSAGE = (
    "Fix teh parser\n\nIt hangs when teh input is empty.\n\n"
    "# Please enter teh commit message for your changes.\n"
    "# ------------------------ >8 ------------------------\n"
    "diff --git a/p.py b/p.py\n+# teh parser\n"
)


@pytest.mark.profiles(PUSH, PULL)
async def test_a_slip_written_twice_gets_a_diagnostic_each_time(editor: Editor) -> None:
    uri = editor.open("twice.md", TWICE)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 3)
    assert [covered(TWICE, d.range) for d in found] == ["recieved", "untill", "recieved"]


@pytest.mark.profiles(PUSH)
async def test_a_commit_messages_stripped_lines_keep_no_slip(editor: Editor) -> None:
    uri = editor.open("COMMIT_EDITMSG", MESSAGE, language_id="git-commit")
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [covered(MESSAGE, d.range) for d in found] == ["teh", "teh"]
    assert all(d.range.start.line < 3 for d in found)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != MESSAGE, 30)
    body = MESSAGE.split("\n\n#")[0]
    assert editor.text(uri) == MESSAGE.replace(body, body.replace("teh", "the"))
