"""``diagnosticsOn`` over the real protocol: ``save`` reviews a document when it is opened and
saved, not while it is typed in; ``open`` only when it is opened; ``type`` (the default) after
every pause. Pushing and pulling clients alike."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from .conftest import Editor
from .review_support import PULL, PUSH, covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = "I recieved the letter yesterday, and I read it twice before dinner.\n"
TYPED = TEXT + "\nWe went there untill the evening and talked about the plans for spring.\n"


def _save(editor: Editor, uri: str) -> None:
    editor.client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


async def _report(editor: Editor, uri: str, previous: str | None) -> tuple[str, list[str]]:
    """A pull as VS Code and Neovim pull: with the result id of the last report; its result id
    and the words it shows diagnostics over (the last ones again on an unchanged report)."""
    report = await editor.client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous
        )
    )
    if isinstance(report, types.RelatedUnchangedDocumentDiagnosticReport):
        return report.result_id, ["(unchanged)"]
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert report.result_id is not None
    return report.result_id, [covered(editor.text(uri), d.range) for d in report.items]


async def _shown(editor: Editor, uri: str, previous: str | None = None) -> list[str]:
    """What the editor shows once the quiet after a change is past: for a pulling editor, the
    report of a pull with ``previous``; for the others, the last diagnostics pushed."""
    await asyncio.sleep(0.8)
    if editor.pulls:
        return (await _report(editor, uri, previous))[1]
    items = next((list(p.diagnostics) for p in reversed(editor.published) if p.uri == uri), [])
    return [covered(editor.text(uri), d.range) for d in items]


@pytest.mark.profiles(PUSH, PULL)
@pytest.mark.editor_settings({"diagnosticsOn": "save"})
async def test_save_reviews_on_open_and_save_not_while_typing(editor: Editor) -> None:
    uri = editor.open("on-save.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert [covered(TEXT, d.range) for d in found] == ["recieved"]
    previous = (await _report(editor, uri, None))[0] if editor.pulls else None
    editor.set_text(uri, TYPED)
    shown = await _shown(editor, uri, previous)  # not reviewed while typing
    assert shown == (["(unchanged)"] if editor.pulls else ["recieved"])
    _save(editor, uri)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [covered(TYPED, d.range) for d in found] == ["recieved", "untill"]


@pytest.mark.profiles(PUSH, PULL)
@pytest.mark.editor_settings({"diagnosticsOn": "open"})
async def test_open_reviews_only_when_opened(editor: Editor) -> None:
    uri = editor.open("on-open.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert [covered(TEXT, d.range) for d in found] == ["recieved"]
    previous = (await _report(editor, uri, None))[0] if editor.pulls else None
    editor.set_text(uri, TYPED)
    _save(editor, uri)
    shown = await _shown(editor, uri, previous)
    assert shown == (["(unchanged)"] if editor.pulls else ["recieved"])


@pytest.mark.profiles(PUSH, PULL)
async def test_type_reviews_while_typing(editor: Editor) -> None:
    uri = editor.open("on-type.md", TEXT)
    await editor.diagnostics(uri, lambda d: len(d) >= 1)
    editor.set_text(uri, TYPED)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [covered(TYPED, d.range) for d in found] == ["recieved", "untill"]


@pytest.mark.profiles(PULL)
@pytest.mark.editor_settings({"diagnosticsOn": "save"})
async def test_save_with_a_client_that_sends_no_result_ids(editor: Editor) -> None:
    """Neovim 0.11 pulls at every edit without ``previousResultId`` (and VS Code after a pull it
    cancelled) and cannot be asked to pull again: typing gets the findings last shown, moved
    with the text; a save shows at the next pull."""
    uri = editor.open("on-save-nvim.md", TEXT)
    assert (await _report(editor, uri, None))[1] == ["recieved"]
    typed = "Notes.\n\n" + TYPED
    editor.set_text(uri, "Notes.\n\n" + TEXT)  # typed before the finding: it moves
    editor.set_text(uri, typed)
    assert (await _shown(editor, uri)) == ["recieved"]
    editor.set_text(uri, typed.replace("recieved", "got"))  # its words changed: it goes
    assert (await _shown(editor, uri)) == []
    _save(editor, uri)
    editor.set_text(uri, typed + "\n")  # the next edit after the save
    assert (await _shown(editor, uri)) == ["recieved", "untill"]
    editor.set_text(uri, typed + "\nIt was teh end.\n")
    assert (await _shown(editor, uri)) == ["recieved", "untill"]


@pytest.mark.profiles(PULL)
@pytest.mark.editor_settings({"diagnosticsOn": "save"})
async def test_new_settings_review_again_what_was_typed_since_the_save(editor: Editor) -> None:
    """A change of settings reviews again in every mode, the text typed since the save too."""
    uri = editor.open("on-save-settings.md", TEXT)
    previous = (await _report(editor, uri, None))[0]
    editor.set_text(uri, TYPED)
    assert (await _shown(editor, uri, previous)) == ["(unchanged)"]
    editor.client.set_configuration(
        {"rephrase": {"diagnosticsOn": "save", "words": ["recieved"]}},
        scope_uri=editor.root.as_uri(),
    )
    editor.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings=None)
    )
    for _ in range(50):
        shown = await _shown(editor, uri, previous)
        if shown != ["(unchanged)"]:
            break
    assert shown == ["untill"]
