"""Japanese documents in the editor against a loopback service as its documentation describes it
today (``offline-service --as-documented``: ``ja``, ``ko``, ``zh`` are targets), and on the
embedded offline service, which has no rules for them."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Editor, OfflineService
from .test_actions import by_title, wait_for
from .test_settings_and_faults import _start

pytestmark = pytest.mark.asyncio(loop_scope="session")

KEY = "k3y-for-the-cjk-tests"
#: A Japanese document whose heading is kanji alone (Chinese, read on its own).
JAPANESE = "# 説明\n\nこれはテストの文章です。今日はいい天気ですね。私は学校に行きました。\n"


@pytest.fixture
def refusing() -> Iterator[OfflineService]:
    """The documented service refusing its first two write requests (400)."""
    service = OfflineService("--as-documented", "--fail", "400:2")
    yield service
    service.stop()


@pytest.fixture
def documented() -> Iterator[OfflineService]:
    service = OfflineService("--as-documented")
    yield service
    service.stop()


async def _keyed(tmp_path: Path, url: str) -> tuple[LanguageClient, Editor]:
    def launch(params: types.InitializeParams) -> None:
        params.initialization_options = {
            "rephrase": {"serverUrl": url, "authScheme": "DeepL-Auth-Key"}
        }

    env = {"REPHRASE_API_KEY": KEY, "XDG_STATE_HOME": str(tmp_path / "state")}
    return await _start(tmp_path, params_hook=launch, env=env)


def _shown(client: LanguageClient, kind: types.MessageType) -> list[str]:
    return [m.message for m in client.messages if m.type == kind]


async def _improve_document(client: LanguageClient, editor: Editor, uri: str) -> None:
    """Wait for the service's language list (the document's target is ``ja``), run **Improve
    document** and wait for what it says."""
    async with asyncio.timeout(30):
        while True:
            styles = await editor.command("rephrase.listStyles", uri)
            if styles["confirmed"] is True:
                break
            await asyncio.sleep(0.2)
    assert styles["targetLang"] == "ja", styles
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: client.messages, 30)


async def test_a_kanji_heading_of_a_japanese_document_goes_as_japanese(
    tmp_path: Path, documented: OfflineService
) -> None:
    client, editor = await _keyed(tmp_path, documented.url)
    try:
        uri = editor.open("ja.md", JAPANESE)
        await _improve_document(client, editor, uri)
        assert _shown(client, types.MessageType.Error) == []
        assert _shown(client, types.MessageType.Warning) == []
        assert any("no improvements found" in m for m in _shown(client, types.MessageType.Info))
        assert editor.text(uri) == JAPANESE
    finally:
        await client.shutdown_session()


async def test_a_kanji_heading_the_service_refuses_is_named_and_the_rest_goes(
    tmp_path: Path, refusing: OfflineService
) -> None:
    client, editor = await _keyed(tmp_path, refusing.url)
    try:
        uri = editor.open("ja.md", JAPANESE)
        await _improve_document(client, editor, uri)
        assert _shown(client, types.MessageType.Error) == []
        (warning,) = _shown(client, types.MessageType.Warning)
        assert "paragraph 1 (line 1, “説明”) was left as it is" in warning, warning
        assert "refused it as ja (on its own it reads as zh" in warning
        assert editor.text(uri) == JAPANESE
    finally:
        await client.shutdown_session()


async def test_the_embedded_service_says_it_cannot_check_japanese(tmp_path: Path) -> None:
    client, editor = await _start(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "state")})
    try:
        uri = editor.open("ja.md", JAPANESE)
        actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
        await editor.run_action(actions["Improve document"])
        await wait_for(lambda: len(client.messages) > 1, 30)
        shown = [m.message for m in client.messages]
        assert not any("no improvements found" in m for m in shown), shown
        assert shown[-1] == (
            "rephrase: the embedded offline service has no rules for Japanese (ja): nothing was "
            "checked. The service improves it: give your API key in the environment variable "
            "REPHRASE_API_KEY."
        ), shown
        styles = await editor.command("rephrase.listStyles", uri)
        assert styles["language"] == "ja" and styles["supported"] is False
        assert styles["reason"].startswith("the embedded offline service has no rules for Japanese")
        # Setting the document's language to Japanese is taken (the service improves it).
        await editor.command("rephrase.setLanguage", uri, "ja")
        assert 'language = "ja"' in (tmp_path / "ws" / ".rephrase.toml").read_text("utf-8")
        assert editor.text(uri) == JAPANESE
    finally:
        await client.shutdown_session()
