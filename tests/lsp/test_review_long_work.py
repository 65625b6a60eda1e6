"""A long review (a long document of repetitive prose that the engine changes all over) holds
nothing else back: another document's diagnostics come while it runs, and closing the document,
a newer version of it or ``$/cancelRequest`` for its pull stops the work (the server notes in
its log that the review stopped, once its thread is done)."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .conftest import Editor
from .review_support import PULL, covered
from .test_actions import wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: LSP's RequestCancelled.
REQUEST_CANCELLED = -32800
SMALL = "# Notes\n\nI recieved teh letter yesterday.\n"
#: Seconds after opening by which the long review is under way (the debounce is 0.3 s); the
#: review itself takes several seconds (150 paragraphs of ~150 findings each).
UNDER_WAY = 1.2


def _long_document() -> str:
    """150 paragraphs of ``word , word . word ;`` repeated, each distinct from any other test's
    (the server's review cache is shared by the tests of a run)."""
    tag = uuid.uuid4().hex[:8]
    return "".join(
        f"Part {tag} {k} says word , word . word ; " + "word , word . word ; " * 50 + "\n\n"
        for k in range(150)
    )


def _stopped(editor: Editor, name: str) -> list[str]:
    return [
        m.message
        for m in editor.client.log_messages
        if m.message.startswith(f"review of {name} ") and "stopped" in m.message
    ]


@pytest.mark.profiles("visual-studio-code", "neovim")
async def test_another_documents_diagnostics_come_while_a_long_review_runs(
    editor: Editor,
) -> None:
    long_uri = editor.open("long.md", _long_document())
    long_pull = asyncio.ensure_future(editor.pull(long_uri)) if editor.pulls else None
    await asyncio.sleep(UNDER_WAY)
    small = editor.open("small.md", SMALL)
    found = await editor.diagnostics(small)
    assert [covered(SMALL, d.range) for d in found] == ["recieved", "teh"]
    # ... while the long document's review has not finished
    if long_pull is not None:
        assert not long_pull.done()
    else:
        assert editor.pushed(long_uri) is None
    editor.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=long_uri))
    )
    del editor.buffers[long_uri]
    await wait_for(lambda: _stopped(editor, "long.md") != [], 30)
    if long_pull is not None:
        assert await asyncio.wait_for(long_pull, 10) == []  # closed: nothing to show


@pytest.mark.profiles(PULL)
async def test_cancel_request_stops_a_long_review(editor: Editor) -> None:
    uri = editor.open("long.md", _long_document())
    protocol = editor.client.protocol
    pulled = asyncio.ensure_future(
        protocol.send_request_async(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri)),
            msg_id="long-review",
        )
    )
    await asyncio.sleep(UNDER_WAY)
    protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="long-review"))
    with pytest.raises(JsonRpcException) as raised:
        await asyncio.wait_for(pulled, 10)
    assert raised.value.code == REQUEST_CANCELLED
    # the work itself ends (its thread stops before its next paragraph), well before the
    # review would have
    await wait_for(lambda: _stopped(editor, "long.md") != [], 30)
    assert _stopped(editor, "long.md") == [
        "review of long.md (version 1) stopped: its request was cancelled"
    ]


async def test_closing_a_document_stops_its_review_and_publishes_nothing_late(
    editor: Editor,
) -> None:
    uri = editor.open("long.md", _long_document())
    await asyncio.sleep(UNDER_WAY)
    editor.client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await wait_for(lambda: _stopped(editor, "long.md") != [], 30)
    assert _stopped(editor, "long.md") == [
        "review of long.md (version 1) stopped: the document closed"
    ]
    await asyncio.sleep(0.5)
    published = [p for p in editor.published if p.uri == uri]
    assert published and all(not p.diagnostics for p in published)
    del editor.buffers[uri]


async def test_a_newer_version_stops_the_review_of_the_old_one(editor: Editor) -> None:
    uri = editor.open("long.md", _long_document())
    await asyncio.sleep(UNDER_WAY)
    editor.set_text(uri, SMALL)
    found = await editor.diagnostics(uri)
    assert [covered(SMALL, d.range) for d in found] == ["recieved", "teh"]
    assert _stopped(editor, "long.md") == [
        "review of long.md (version 1) stopped: a newer version arrived"
    ]
    assert all(p.version == 2 for p in editor.published if p.uri == uri and p.diagnostics)
