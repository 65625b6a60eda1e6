"""Corrections only over the real protocol and real HTTP: ``rephrase-ls offline-service`` on
loopback with ``/v2/write/correct`` (as the service's documentation describes it today) and
without it (``--no-correct``: 404, as ``service-interface.md`` describes the service)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from .conftest import SERVER, Editor, OfflineService, editor_config, server_env
from .review_support import PUSH, covered, start
from .test_correct import DOC, OTHER, SIMPLE, listed, until

pytestmark = pytest.mark.asyncio

KEY = "k3y-for-the-correct-tests"


@pytest_lsp.fixture(
    config=editor_config(server_command=SERVER, server_env=server_env(REPHRASE_API_KEY=KEY))
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[LanguageClient]:
    yield lsp_client
    await lsp_client.shutdown_session()


async def keyed(client: LanguageClient, root: Path, url: str) -> Editor:
    return await start(
        client,
        root,
        PUSH,
        {"diagnostics": "off", "writingStyle": "simple"},
        initialization_options={"rephrase": {"serverUrl": url, "timeout": 5}},
    )


def said(editor: Editor, part: str) -> list[types.ShowMessageParams]:
    return [m for m in editor.client.messages if part in m.message]


async def test_a_service_with_corrections_corrects_and_reviews_with_them(
    client: LanguageClient, tmp_path: Path
) -> None:
    service = OfflineService()
    try:
        editor = await keyed(client, tmp_path, service.url)
        uri = editor.open("a.md", DOC)
        # Review asks for corrections: the slip, not the style's rewrite.
        result = await editor.command("rephrase.review", uri)
        assert result == {"reviewed": True, "findings": 1}
        found = await editor.diagnostics(uri, lambda d: len(d) == 1)
        assert [covered(DOC, d.range) for d in found] == ["teh"]
        # The correction is cached apart from an improvement: Improve still rewrites.
        result = await editor.command("rephrase.improve", uri)
        assert result["applied"] is True
        assert editor.text(uri) == f"# Notes\n\n{SIMPLE}\n\n{OTHER}\n"
    finally:
        service.stop()


async def test_a_service_without_corrections_says_so_and_remembers(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    config = editor_config(
        server_command=SERVER,
        server_env=server_env(REPHRASE_API_KEY=KEY, XDG_STATE_HOME=str(state)),
    )
    service = OfflineService("--no-correct")
    try:
        async with _client(config) as lsp:
            editor = await keyed(lsp, tmp_path, service.url)
            uri = editor.open("a.md", DOC)
            actions = await listed(editor, uri, 2)
            await editor.run_action(actions["Correct"])
            await until(lambda: bool(said(editor, "no corrections-only mode")))
            [message] = said(editor, "no corrections-only mode")
            assert "Improve" in message.message and "Nothing was changed" in message.message
            assert message.type == types.MessageType.Warning
            assert editor.text(uri) == DOC  # never a silent fallback to rephrasing
            usage = await editor.command("rephrase.usage", uri)
            assert usage["characterCount"] == 0
            # Remembered: the action is now shown disabled, with the reason.
            again = await listed(editor, uri, 2)
            assert again["Correct"].disabled is not None
            assert "no corrections-only mode" in again["Correct"].disabled.reason
            assert again["Correct document"].disabled is not None
            # The command says the same, without a request.
            result = await editor.command("rephrase.correct", uri)
            assert result["applied"] is False and "no corrections-only mode" in result["reason"]
            # Review falls back to what Improve would change, and says so once.
            review = await editor.command("rephrase.review", uri)
            assert review["reviewed"] is True and review["findings"] >= 2
            await until(lambda: bool(said(editor, "the review shows what Improve")))
            await editor.command("rephrase.review", uri)
            assert len(said(editor, "the review shows what Improve")) == 1
            assert list((state / "rephrase-ls").glob("no-correct-*"))
        # A new server for the same address knows it from the state folder.
        async with _client(config) as lsp:
            editor = await keyed(lsp, tmp_path, service.url)
            uri = editor.open("b.md", DOC)
            actions = await listed(editor, uri, 2)
            assert actions["Correct"].disabled is not None
            before = (await editor.command("rephrase.usage", uri))["characterCount"]
            result = await editor.command("rephrase.correct", uri)
            assert result["applied"] is False and "no corrections-only mode" in result["reason"]
            assert (await editor.command("rephrase.usage", uri))["characterCount"] == before
    finally:
        service.stop()


class _client:
    """A language client of its own (a server started with ``config``), for a test that needs
    two servers one after the other."""

    def __init__(self, config: ClientServerConfig) -> None:
        self.config = config
        self.lsp: LanguageClient | None = None

    async def __aenter__(self) -> LanguageClient:
        self.lsp = await self.config.start()
        return self.lsp

    async def __aexit__(self, *exc: object) -> None:
        assert self.lsp is not None
        await self.lsp.shutdown_session()
        await self.lsp.stop()
