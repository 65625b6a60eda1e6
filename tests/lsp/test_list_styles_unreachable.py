"""``rephrase.listStyles`` with a configured service that cannot be had: it answers promptly
with what is known, marked as not confirmed, and tells the writer what happened and what to
check; the list's loading goes on in the background."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import Editor
from .test_actions import wait_for
from .test_settings_and_faults import _start

pytestmark = pytest.mark.asyncio(loop_scope="session")

KEY = "k3y-for-the-list-styles-tests"
ENGLISH = "We need to organize the colors of this page before the meeting.\n"
FRENCH = "Nous devons organiser les couleurs de cette page avant la réunion.\n"
#: Far more than listStyles may take, far less than the retries of an unreachable service.
BOUND = 15.0


@pytest.fixture
def refusing_url() -> str:
    """A loopback address where nothing listens: connections are refused at once."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture
def silent_url() -> Iterator[str]:
    """A loopback service that accepts connections and reads the requests but never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.1)  # closing does not wake a blocked accept(): it looks at stop
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    stop.set()
    listener.close()
    for conn in held:
        conn.close()
    thread.join(timeout=5)


async def _keyed(tmp_path: Path, url: str, timeout: float) -> tuple[LanguageClient, Editor]:
    def launch(params: types.InitializeParams) -> None:
        params.initialization_options = {"rephrase": {"serverUrl": url, "timeout": timeout}}

    return await _start(tmp_path, params_hook=launch, env={"REPHRASE_API_KEY": KEY})


def _warnings(client: LanguageClient) -> list[str]:
    return [m.message for m in client.messages if m.type == types.MessageType.Warning]


async def _list(editor: Editor, uri: str) -> Any:
    async with asyncio.timeout(BOUND):
        return await editor.command("rephrase.listStyles", uri)


async def test_list_styles_answers_at_once_when_the_service_refuses_connections(
    tmp_path: Path, refusing_url: str
) -> None:
    client, editor = await _keyed(tmp_path, refusing_url, timeout=10)
    try:
        uri = editor.open("a.md", ENGLISH)
        result = await _list(editor, uri)
        assert result["language"] == "en-US"
        # What the service's documentation gives en-US, marked as not confirmed by the service.
        assert set(result["writingStyles"]) == {"simple", "business", "academic", "casual"}
        assert set(result["tones"]) == {"enthusiastic", "friendly", "confident", "diplomatic"}
        assert result["supported"] is True
        assert result["confirmed"] is False
        assert result["backend"].startswith(refusing_url)
        assert refusing_url in result["unavailable"]
        assert "check the server URL and the network" in result["unavailable"]
        await wait_for(lambda: _warnings(client))
        shown = _warnings(client)[-1]
        assert refusing_url in shown and "not confirmed by the service" in shown
        assert "documentation" in shown
        assert all(KEY not in m.message for m in [*client.messages, *client.log_messages])

        # French has styles and tones in the service's documentation too.
        fr = editor.open("fr.md", FRENCH)
        result = await _list(editor, fr)
        assert result["language"] == "fr"
        assert set(result["writingStyles"]) == {"simple", "business", "academic", "casual"}
        assert set(result["tones"]) == {"enthusiastic", "friendly", "confident", "diplomatic"}
        assert result["supported"] is True and result["confirmed"] is False

        # Picking a style from that list is written at once too (no check against a list the
        # service did not send), as is a language.
        async with asyncio.timeout(BOUND):
            await editor.command("rephrase.setStyle", uri, "academic")
            await editor.command("rephrase.setLanguage", uri, "ja")
        written = (editor.root / ".rephrase.toml").read_text("utf-8")
        assert 'writingStyle = "academic"' in written and 'language = "ja"' in written

        # A language the documentation gives no styles: none offered, and the reason says why.
        result = await _list(editor, uri)
        assert result["language"] == "ja"
        assert result["writingStyles"] == [] and result["tones"] == []
        assert result["supported"] is False and result["confirmed"] is False
        assert refusing_url in result["reason"]
    finally:
        await client.shutdown_session()


async def test_list_styles_answers_when_the_service_does_not_answer_in_time(
    tmp_path: Path, silent_url: str
) -> None:
    # Each attempt may wait 30 s: far longer than listStyles waits for the list.
    client, editor = await _keyed(tmp_path, silent_url, timeout=30)
    try:
        uri = editor.open("a.md", ENGLISH)
        result = await _list(editor, uri)
        assert result["confirmed"] is False
        assert set(result["writingStyles"]) == {"simple", "business", "academic", "casual"}
        assert silent_url in result["unavailable"]
        assert "check the server URL and the network" in result["unavailable"]
        # Asked again while the first load still waits: the same prompt answer.
        again = await _list(editor, uri)
        assert again["confirmed"] is False and again["writingStyles"] == result["writingStyles"]
        # Said once: a completion may ask on every keystroke.
        await wait_for(lambda: _warnings(client))
        assert len([w for w in _warnings(client) if silent_url in w]) == 1
    finally:
        await client.shutdown_session()
