"""Review mode over the real protocol: the offline engine's findings as diagnostics, pulled by
a client that pulls and pushed to one that does not, with the settings that shape them."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from .conftest import Editor
from .review_support import PULL, PUSH, covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

# The code block's slip is not one of the prose's: a word written in code is never a finding
# in prose (tests/lsp/test_review_guards.py).
TEXT = "# Notes\n\nI recieved teh letter yesterday.\n\n```\nwrok code\n```\n"


@pytest.mark.profiles(PUSH)
async def test_push_client_is_pushed_one_diagnostic_per_finding(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [covered(TEXT, d.range) for d in found] == ["recieved", "teh"]  # not the code block
    first, second = found
    assert first.message == "recieved → received"
    assert second.message == "teh → the"
    assert {d.code for d in found} == {"spelling"}
    assert {d.source for d in found} == {"rephrase"}
    assert {d.severity for d in found} == {types.DiagnosticSeverity.Information}
    assert second.data == {
        "origin": "offline",
        "original": "teh",
        "replacement": "the",
        "version": 1,
        "word": "teh",
    }
    # No pull provider declared to this client: it was pushed them, with the version.
    assert editor.server_capabilities is not None
    assert editor.server_capabilities.diagnostic_provider is None
    assert editor.published[-1].version == 1


@pytest.mark.profiles(PULL)
async def test_pull_client_pulls_and_is_not_pushed(editor: Editor) -> None:
    caps = editor.server_capabilities
    assert caps is not None and caps.diagnostic_provider is not None
    uri = editor.open("a.md", TEXT)
    found = await editor.pull(uri)
    assert [covered(TEXT, d.range) for d in found] == ["recieved", "teh"]
    await asyncio.sleep(0.6)  # past the debounce: nothing is pushed to a pulling client
    assert editor.published == []


@pytest.mark.profiles(PUSH, PULL)
@pytest.mark.editor_settings({"diagnostics": "off"})
async def test_diagnostics_off_shows_none(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    assert await editor.diagnostics(uri) == []


@pytest.mark.profiles(PULL)
@pytest.mark.editor_settings({"diagnosticSeverity": "warning"})
async def test_severity_setting(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await editor.pull(uri)
    assert found and {d.severity for d in found} == {types.DiagnosticSeverity.Warning}


@pytest.mark.profiles(PULL)
@pytest.mark.editor_settings({"language": "ja"})
async def test_a_document_in_a_language_the_engine_lacks_gets_none(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    assert await editor.pull(uri) == []


@pytest.mark.profiles(PUSH)
async def test_edits_in_quick_succession_publish_only_the_last_version(editor: Editor) -> None:
    uri = editor.open("a.md", "Hello there.\n")
    await editor.diagnostics(uri)
    count = len(editor.published)
    text = "Hello there.\n"
    for word in ("I", " recieved", " teh", " letter."):
        text += word
        editor.set_text(uri, text)
        await asyncio.sleep(0.05)  # typing, faster than the debounce
    found = await editor.diagnostics(uri, lambda d: len(d) == 2)
    assert [covered(text, d.range) for d in found] == ["recieved", "teh"]
    later = editor.published[count:]
    assert [p.version for p in later] == [editor.version(uri)]


@pytest.mark.profiles(PUSH)
async def test_the_fix_disappears_with_the_mistake(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    await editor.diagnostics(uri, lambda d: len(d) == 2)
    fixed = TEXT.replace("recieved", "received")
    editor.set_text(uri, fixed)
    found = await editor.diagnostics(uri)
    assert [covered(fixed, d.range) for d in found] == ["teh"]
    assert found[0].data["version"] == 2
