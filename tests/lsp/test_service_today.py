"""The editor paths and the CLI against a loopback service that behaves as the service's public
documentation describes it today (``offline-service --as-documented``), and against the
interface-shaped one: the language-list shape remembered between starts."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.counting_proxy import CountingProxy

from .conftest import Editor, OfflineService, server_env
from .test_actions import by_title, wait_for
from .test_settings_and_faults import _start

ASYNC = pytest.mark.asyncio(loop_scope="session")

KEY = "k3y-for-the-service-today-tests"
ENGLISH = "We need to organize the colors of this page before the meeting.\n"
DOCUMENTED = "DeepL-Auth-Key"
BOUND = 30.0


@pytest.fixture
def documented() -> Iterator[OfflineService]:
    service = OfflineService("--as-documented")
    yield service
    service.stop()


@pytest.fixture
def interface() -> Iterator[OfflineService]:
    service = OfflineService()
    yield service
    service.stop()


async def _keyed(
    tmp_path: Path, url: str, scheme: str, **rephrase: object
) -> tuple[LanguageClient, Editor]:
    def launch(params: types.InitializeParams) -> None:
        params.initialization_options = {
            "rephrase": {"serverUrl": url, "authScheme": scheme, **rephrase}
        }

    env = {"REPHRASE_API_KEY": KEY, "XDG_STATE_HOME": str(tmp_path / "state")}
    return await _start(tmp_path, params_hook=launch, env=env)


async def _list_styles(tmp_path: Path, url: str, scheme: str) -> dict[str, object]:
    """One editor session: open a document, ask for its styles (which loads the language
    lists), shut the server down."""
    client, editor = await _keyed(tmp_path, url, scheme)
    try:
        uri = editor.open("a.md", ENGLISH)
        async with asyncio.timeout(BOUND):
            # listStyles answers after ~2 s with what is known while the list still loads (a
            # busy machine): ask until the service's list is there.
            while True:
                result: dict[str, object] = await editor.command("rephrase.listStyles", uri)
                if result["confirmed"] is True:
                    return result
                await asyncio.sleep(0.2)
    finally:
        await client.shutdown_session()


@ASYNC
async def test_a_second_start_makes_no_failing_list_request(
    tmp_path: Path, documented: OfflineService, interface: OfflineService
) -> None:
    proxy = CountingProxy(documented.url)
    try:
        first = await _list_styles(tmp_path, proxy.url, DOCUMENTED)
        assert first["confirmed"] is True and "friendly" in first["tones"]  # type: ignore[operator]
        # The first start meets the later shape: the old parameter, the old products path and
        # the removed exceptions path fail once.
        failed = sorted((path.split("?")[0], status) for _, path, status in proxy.failed())
        assert failed == [
            ("/v3/languages", 400),
            ("/v3/languages/exceptions", 404),
            ("/v3/languages/products", 404),
        ]
        proxy.clear()
        second = await _list_styles(tmp_path, proxy.url, DOCUMENTED)
        assert second["confirmed"] is True and second["tones"] == first["tones"]
        assert proxy.seen and proxy.failed() == []

        # The address now answers in the interface's shape: probed again, and remembered.
        proxy.upstream = interface.url
        proxy.clear()
        third = await _list_styles(tmp_path, proxy.url, "Service-Auth-Key")
        assert third["confirmed"] is True
        assert {status for _, _, status in proxy.failed()} <= {400, 404}
        proxy.clear()
        await _list_styles(tmp_path, proxy.url, "Service-Auth-Key")
        assert proxy.seen and proxy.failed() == []
    finally:
        proxy.close()


def _cli(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``rephrase-ls improve`` with the user config file setting the documented scheme."""
    config = tmp_path / "config" / "rephrase-ls"
    config.mkdir(parents=True, exist_ok=True)
    (config / "config.toml").write_text(f'authScheme = "{DOCUMENTED}"\n', "utf-8")
    env = server_env(
        REPHRASE_API_KEY=KEY,
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )
    return subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "--server-url", url, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        cwd=tmp_path,
        check=False,
    )


def test_the_cli_remembers_the_shape_too(tmp_path: Path, documented: OfflineService) -> None:
    page = tmp_path / "page.md"
    page.write_text("We need to organize teh colors of this page.\n", "utf-8")
    proxy = CountingProxy(documented.url)
    try:
        first = _cli(tmp_path, proxy.url, "--tone", "friendly", str(page))
        assert first.returncode == 0, first.stderr
        assert "the" in first.stdout
        assert len(proxy.failed()) == 3
        proxy.clear()
        second = _cli(tmp_path, proxy.url, "--tone", "friendly", str(page))
        assert second.returncode == 0, second.stderr
        assert second.stdout == first.stdout
        assert proxy.failed() == []
    finally:
        proxy.close()


@ASYNC
async def test_a_refused_first_request_names_the_auth_scheme_setting(
    tmp_path: Path, documented: OfflineService
) -> None:
    text = "this is the the test.\n"
    client, editor = await _keyed(tmp_path, documented.url, "Service-Auth-Key")
    try:
        uri = editor.open("a.md", text)
        actions = by_title(await editor.code_actions(uri, (0, 0), (0, 5)))
        await editor.run_action(actions["Improve"])
        await wait_for(lambda: _errors(client), 60)
        shown = _errors(client)[-1]
        assert "authScheme" in shown and 'authScheme = "DeepL-Auth-Key"' in shown, shown
        assert "Nothing was changed" in shown and editor.text(uri) == text
        assert all(KEY not in m.message for m in [*client.messages, *client.log_messages])
    finally:
        await client.shutdown_session()
    # With the documented scheme the same service improves the text.
    (tmp_path / "again").mkdir()
    client, editor = await _keyed(tmp_path / "again", documented.url, DOCUMENTED)
    try:
        uri = editor.open("a.md", text)
        actions = by_title(await editor.code_actions(uri, (0, 0), (0, 5)))
        await editor.run_action(actions["Improve"])
        await wait_for(lambda: editor.text(uri) != text, 60)
        assert _errors(client) == []
    finally:
        await client.shutdown_session()


def _errors(client: LanguageClient) -> list[str]:
    return [m.message for m in client.messages if m.type == types.MessageType.Error]


def test_the_cli_names_the_auth_scheme_setting_on_a_refused_first_request(
    tmp_path: Path, documented: OfflineService
) -> None:
    page = tmp_path / "page.md"
    page.write_text("this is the the test.\n", "utf-8")
    env = server_env(REPHRASE_API_KEY=KEY, XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "--server-url", documented.url,
         str(page)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode != 0 and done.stdout == ""
    assert 'authScheme = "DeepL-Auth-Key"' in done.stderr, done.stderr
    assert KEY not in done.stderr
