"""Review with the service, over the real protocol and real HTTP: ``rephrase-ls offline-service``
on loopback answers; its changes become diagnostics with the same quick fixes, paid once, and
dropped where the writer changes the words they cover."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import SERVER, Editor, OfflineService, editor_config, server_env
from .review_support import PULL, PUSH, covered, start

pytestmark = pytest.mark.asyncio

KEY = "k3y-for-the-review-tests"
TEXT = "I recieved teh letter.\n\nThier reply came late, and it was was short.\n"


@pytest.fixture
def service_url(service: OfflineService) -> str:
    """The loopback offline service's address."""
    return service.url


@pytest_lsp.fixture(
    config=editor_config(server_command=SERVER, server_env=server_env(REPHRASE_API_KEY=KEY))
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[LanguageClient]:
    yield lsp_client
    await lsp_client.shutdown_session()


async def keyed(client: LanguageClient, root: Path, url: str, profile: str = PUSH) -> Editor:
    """An editor whose server reviews with the loopback service; offline diagnostics off, so
    that every diagnostic seen is the service's."""
    return await start(
        client,
        root,
        profile,
        {"diagnostics": "off"},
        initialization_options={"rephrase": {"serverUrl": url, "timeout": 5}},
    )


def shown(text: str, found: list[types.Diagnostic]) -> list[str]:
    return [covered(text, d.range) for d in found]


async def test_review_publishes_the_services_changes(
    client: LanguageClient, tmp_path: Path, service_url: str
) -> None:
    editor = await keyed(client, tmp_path, service_url)
    uri = editor.open("a.md", TEXT)
    assert await editor.diagnostics(uri) == []  # nothing is sent to the service unasked
    usage = await editor.command("rephrase.usage", uri)
    assert usage["backend"].startswith("http://127.0.0.1") and usage["characterCount"] == 0
    result = await editor.command("rephrase.review", uri)
    assert result == {"reviewed": True, "findings": 4}
    found = await editor.diagnostics(uri, lambda d: len(d) == 4)
    assert shown(TEXT, found) == ["recieved", "teh", "Thier", "was was"]
    assert [d.code for d in found] == ["spelling", "spelling", "spelling", "doubled-word"]
    assert {d.source for d in found} == {"rephrase"}
    assert {d.data["origin"] for d in found} == {"service"}
    assert found[1].message == "teh → the (service review)"
    paid = (await editor.command("rephrase.usage", uri))["characterCount"]
    assert paid > 0
    # The same text again: answered from the cache, not paid for again.
    assert (await editor.command("rephrase.review", uri))["findings"] == 4
    assert (await editor.command("rephrase.usage", uri))["characterCount"] == paid


async def test_service_findings_follow_edits_and_go_where_the_words_changed(
    client: LanguageClient, tmp_path: Path, service_url: str
) -> None:
    editor = await keyed(client, tmp_path, service_url)
    uri = editor.open("a.md", TEXT)
    await editor.command("rephrase.review", uri)
    await editor.diagnostics(uri, lambda d: len(d) == 4)
    moved = "Note. " + TEXT  # typed before them: they move with the text
    editor.set_text(uri, moved)
    found = await editor.diagnostics(uri, lambda d: bool(d))
    assert shown(moved, found) == ["recieved", "teh", "Thier", "was was"]
    changed = moved.replace("teh", "a")  # the words one covers changed: that one goes
    editor.set_text(uri, changed)
    found = await editor.diagnostics(uri, lambda d: len(d) != 4)
    assert shown(changed, found) == ["recieved", "Thier", "was was"]
    # Its quick fix works as an offline finding's does.
    thier = found[1]
    actions = await editor.actions(uri, thier.range, [thier], only=["quickfix"])
    replace = next(a for a in actions if a.title == "Replace with ‘Their’")
    await editor.run_action(replace)
    assert editor.text(uri) == changed.replace("Thier", "Their")
    found = await editor.diagnostics(uri, lambda d: len(d) == 2)
    assert shown(editor.text(uri), found) == ["recieved", "was was"]


async def test_review_of_a_range_and_from_its_code_action(
    client: LanguageClient, tmp_path: Path, service_url: str
) -> None:
    editor = await keyed(client, tmp_path, service_url, PULL)
    uri = editor.open("a.md", TEXT)
    second = types.Range(types.Position(2, 3), types.Position(2, 3))  # a cursor: its paragraph
    actions = await editor.actions(uri, second)
    review = next(a for a in actions if a.title == "Review with the service")
    assert review.kind == types.CodeActionKind.RefactorRewrite and review.edit is None
    await editor.run_action(review)
    assert shown(TEXT, await editor.pull(uri)) == ["Thier", "was was"]
    whole = next(a for a in actions if a.title == "Review document with the service")
    assert whole.kind == types.CodeActionKind.Source
    await editor.run_action(whole)
    assert shown(TEXT, await editor.pull(uri)) == ["recieved", "teh", "Thier", "was was"]


async def test_a_refused_review_says_why_and_shows_nothing(
    client: LanguageClient, tmp_path: Path
) -> None:
    service = OfflineService("--fail", "403:10")
    try:
        editor = await keyed(client, tmp_path, service.url)
        uri = editor.open("a.md", TEXT)
        result = await editor.command("rephrase.review", uri)
        assert result["reviewed"] is False
        assert "REPHRASE_API_KEY" in result["reason"]
        assert await editor.diagnostics(uri) == []
        assert KEY not in str(result)
    finally:
        service.stop()
