"""Long work on a hostile document (many long paragraphs of a few tokens repeated, which the
engine changes all over) leaves the server answering: other documents' requests are answered
while it runs, and ``$/cancelRequest`` stops it without an edit.

No timing is asserted: each wait has a generous hang guard, which the alignment's cubic time on
such paragraphs (~40 s each) used to exceed."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .conftest import Editor
from .test_actions import by_title

pytestmark = pytest.mark.asyncio(loop_scope="session")

HANG_GUARD = 20.0


def _hostile_document(paragraphs: int, label: str = "Part") -> str:
    """``paragraphs`` distinct paragraphs of ~7 KB of 'it it is .' repeated, each starting with
    ``label`` (another label: text the server has no cached answer for)."""
    return (
        "\n\n".join(f"{label} {n}: " + ("it it is . " * 650).strip() for n in range(paragraphs))
        + "\n"
    )


async def test_other_documents_are_answered_while_improve_document_runs(editor: Editor) -> None:
    text = _hostile_document(12)
    long = editor.open("long-work.md", text)
    other = editor.open("other-work.md", "This is teh other document.\n")
    actions = by_title(await editor.code_actions(long, (0, 0), (0, 0), only=["source"]))
    running = asyncio.create_task(editor.run_action(actions["Improve document"]))
    await asyncio.sleep(0.2)  # the improvement is under way
    answered = await asyncio.wait_for(
        editor.code_actions(other, (0, 0), (0, 4)), timeout=HANG_GUARD
    )
    assert "Improve" in by_title(answered)
    assert not running.done(), "the long improvement should still be running"
    await asyncio.wait_for(running, timeout=120)
    improved = editor.text(long)
    assert improved != text
    # every paragraph's doubles are gone and its sentences got their capital
    assert improved.count(": it is. It is. It is.") == 12 and "it it" not in improved.lower()


async def test_cancel_request_stops_improve_document(editor: Editor) -> None:
    text = _hostile_document(12, "Cancelled")  # not answered from the other tests' cache
    uri = editor.open("cancelled-work.md", text)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    action = actions["Improve document"]
    assert action.edit is None and action.command is None  # resolved when chosen
    protocol = editor.client.protocol
    request = asyncio.ensure_future(
        protocol.send_request_async(types.CODE_ACTION_RESOLVE, action, msg_id="long-improve")
    )
    await asyncio.sleep(0.3)
    protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="long-improve"))
    with pytest.raises(JsonRpcException) as raised:
        await asyncio.wait_for(request, HANG_GUARD)
    assert raised.value.code == -32800  # RequestCancelled
    # The server goes on answering, and the cancelled improvement applies nothing.
    await asyncio.wait_for(editor.code_actions(uri, (0, 0), (0, 4)), timeout=HANG_GUARD)
    await asyncio.sleep(1.0)
    assert editor.text(uri) == text
