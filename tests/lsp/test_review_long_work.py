"""Long work on a long document of repetitive prose that the engine changes all over holds
nothing else back and stops when it is no longer wanted: another document's diagnostics come
while its review runs; closing the document, a newer version of it or ``$/cancelRequest`` for
its pull stops the review (the server notes in its log that the review stopped, once its thread
is done); closing it or a newer version stops an **Improve document** on it (its progress ends
as cancelled). tests/lsp/test_long_work.py has the same for Improve and ``$/cancelRequest``."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .conftest import Editor
from .review_support import PULL, covered
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: LSP's RequestCancelled.
REQUEST_CANCELLED = -32800
SMALL = "# Notes\n\nI recieved teh letter yesterday.\n"
#: Seconds after opening by which the long review is under way (the debounce is 0.3 s); the
#: review itself takes several seconds (600 paragraphs of ~150 findings each: ~6 s of CPU).
UNDER_WAY = 1.2


def _long_document() -> str:
    """600 paragraphs of ``word , word . word ;`` repeated, each distinct from any other test's
    (the server's review cache is shared by the tests of a run)."""
    tag = uuid.uuid4().hex[:8]
    return "".join(
        f"Part {tag} {k} says word , word . word ; " + "word , word . word ; " * 50 + "\n\n"
        for k in range(600)
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


def _improve_document_text() -> str:
    """Twelve distinct ~7 KB paragraphs of 'it it is .' repeated: Improve document on it takes
    seconds (the engine, then each paragraph's alignment and guards)."""
    tag = uuid.uuid4().hex[:8]
    return "\n\n".join(f"Part {tag} {n}: " + ("it it is . " * 650).strip() for n in range(12))


def _progress_ends(editor: Editor) -> list[str | None]:
    return [
        report.message
        for reports in editor.client.progress_reports.values()
        for report in reports
        if isinstance(report, types.WorkDoneProgressEnd)
    ]


@pytest.mark.parametrize("how", ["changed", "closed"])
async def test_a_newer_version_or_closing_stops_improve_document(editor: Editor, how: str) -> None:
    text = _improve_document_text()
    uri = editor.open("improved.md", text)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    resolving = asyncio.ensure_future(
        editor.client.code_action_resolve_async(actions["Improve document"])
    )
    await wait_for(lambda: any(editor.client.progress_reports.values()), 20)  # under way
    if how == "changed":
        editor.set_text(uri, text + "\nOne more line.\n")
    else:
        editor.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        del editor.buffers[uri]
    resolved = await asyncio.wait_for(resolving, 30)
    assert resolved.edit is None
    assert editor.applied == []
    # the work stopped where it was (its progress says so), and the writer is told why
    await wait_for(lambda: _progress_ends(editor) != [], 10)
    assert _progress_ends(editor) == ["cancelled; nothing was changed"]
    told = [m.message for m in editor.client.messages if "while the improvement" in m.message]
    assert told == [
        f"rephrase: the document {how} while the improvement was computed; the improvement "
        "stopped and nothing was changed." + (" Try again." if how == "changed" else "")
    ]
