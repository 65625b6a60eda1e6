"""The editor paths and the CLI against a loopback service that behaves as the service's public
documentation describes it today (``offline-service --as-documented``), and against the
interface-shaped one: the language-list shape remembered between starts."""

from __future__ import annotations

import asyncio
import re
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


PARAGRAPH = (
    "We need to organize teh colors of this page before the meeting, and we really need to "
    "do it in order to be ready."
)
ALTERNATIVES = 8  # four writing styles and four tones for en-US


class Asked:
    """The editor's side of ``window/showMessageRequest``: records each question and answers
    with ``answer`` (``None``: the message was dismissed)."""

    def __init__(self, client: LanguageClient) -> None:
        self.questions: list[types.ShowMessageRequestParams] = []
        self.answer: str | None = None

        @client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
        def on_request(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
            self.questions.append(params)
            return None if self.answer is None else types.MessageActionItem(title=self.answer)


def _count(question: types.ShowMessageRequestParams) -> int:
    match = re.search(r"will send ([\d,]+) characters", question.message)
    assert match, question.message
    return int(match[1].replace(",", ""))


def _rephrased(proxy: CountingProxy) -> list[tuple[str, str, int]]:
    return [entry for entry in proxy.seen if entry[1].startswith("/v2/write/")]


@ASYNC
@pytest.mark.parametrize("shape", ["documented", "interface"])
async def test_a_large_action_asks_before_it_spends(
    tmp_path: Path, shape: str, documented: OfflineService, interface: OfflineService
) -> None:
    service, scheme = (
        (documented, DOCUMENTED) if shape == "documented" else (interface, "Service-Auth-Key")
    )
    proxy = CountingProxy(service.url)
    text = f"# Plans\n\n{PARAGRAPH}\n"
    limit = len(PARAGRAPH) + 20  # one request fits; eight do not
    client, editor = await _keyed(tmp_path, proxy.url, scheme, confirmCharacters=limit)
    asked = Asked(client)
    try:
        uri = editor.open("a.md", text)
        # Show alternatives: one request per style and tone, each counted.
        asked.answer = "No"
        async with asyncio.timeout(BOUND):
            result = await editor.command(
                "rephrase.alternatives",
                uri,
                {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}},
            )
        (question,) = asked.questions
        assert _count(question) == ALTERNATIVES * len(PARAGRAPH)
        assert f"{limit:,}" in question.message and "confirmCharacters" in question.message
        assert [a.title for a in question.actions or []] == ["Yes", "No"]
        assert result["alternatives"] == [] and "nothing was sent" in result["reason"]
        assert _rephrased(proxy) == []

        # Improve document fits under the limit: not asked, sent.
        actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
        await editor.run_action(actions["Improve document"])
        await wait_for(lambda: editor.text(uri) != text, 60)
        assert len(asked.questions) == 1 and len(_rephrased(proxy)) == 1
    finally:
        await client.shutdown_session()
        proxy.close()


@ASYNC
async def test_improve_document_over_the_limit_sends_only_when_confirmed(
    tmp_path: Path, documented: OfflineService
) -> None:
    proxy = CountingProxy(documented.url)
    # One slip in the document (a word written twice in a request is taken as meant).
    plain = PARAGRAPH.replace("teh", "the")
    paragraphs = [f"{plain} This is paragraph {n}." for n in range(5)] + [PARAGRAPH]
    text = "\n\n".join(paragraphs) + "\n"
    prose = sum(len(p) for p in paragraphs)
    client, editor = await _keyed(tmp_path, proxy.url, DOCUMENTED, confirmCharacters=500)
    asked = Asked(client)
    # A project file may lower the limit, never raise it (0 would never ask).
    (editor.root / ".rephrase.toml").write_text("confirmCharacters = 0\n", "utf-8")
    try:
        uri = editor.open("a.md", text)
        for answer in (None, "No"):  # dismissed, then declined: nothing is sent
            asked.answer = answer
            actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
            await editor.run_action(actions["Improve document"])
        await wait_for(lambda: len(asked.questions) == 2, 30)
        assert [_count(q) for q in asked.questions] == [prose, prose]
        assert _rephrased(proxy) == [] and editor.text(uri) == text
        warnings = [m.message for m in client.messages if m.type == types.MessageType.Warning]
        assert any("confirmCharacters = 0 (no limit) is ignored" in w for w in warnings), warnings

        asked.answer = "Yes"
        actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
        await editor.run_action(actions["Improve document"])
        await wait_for(lambda: editor.text(uri) != text, 60)
        assert len(asked.questions) == 3 and _rephrased(proxy)
    finally:
        await client.shutdown_session()
        proxy.close()


@ASYNC
@pytest.mark.parametrize("shape", ["documented", "interface"])
async def test_review_with_the_service_asks_once_before_it_spends(
    tmp_path: Path, shape: str, documented: OfflineService, interface: OfflineService
) -> None:
    """**Review with the service** counts like every paid action; where the service has no
    corrections (``interface``: 404, then Improve) the writer is still asked once."""
    service, scheme = (
        (documented, DOCUMENTED) if shape == "documented" else (interface, "Service-Auth-Key")
    )
    proxy = CountingProxy(service.url)
    text = f"{PARAGRAPH}\n"
    client, editor = await _keyed(tmp_path, proxy.url, scheme, confirmCharacters=20)
    asked = Asked(client)
    try:
        uri = editor.open("a.md", text)
        asked.answer = "No"
        async with asyncio.timeout(BOUND):
            result = await editor.command("rephrase.review", uri)
        (question,) = asked.questions
        assert _count(question) == len(PARAGRAPH) and "Review" in question.message
        assert result["reviewed"] is False and "nothing was sent" in result["reason"]
        assert _rephrased(proxy) == []

        asked.answer = "Yes"
        async with asyncio.timeout(BOUND):
            result = await editor.command("rephrase.review", uri)
        assert result["reviewed"] is True, result
        assert len(asked.questions) == 2  # once for this review, the 404's fallback included
        assert _rephrased(proxy)
        assert editor.text(uri) == text  # a review edits nothing
    finally:
        await client.shutdown_session()
        proxy.close()


@ASYNC
async def test_the_embedded_service_never_asks(tmp_path: Path) -> None:
    def launch(params: types.InitializeParams) -> None:
        params.initialization_options = {"rephrase": {"confirmCharacters": 10}}

    client, editor = await _start(tmp_path, params_hook=launch)
    asked = Asked(client)
    try:
        text = f"{PARAGRAPH}\n"
        uri = editor.open("a.md", text)
        actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
        await editor.run_action(actions["Improve document"])
        await wait_for(lambda: editor.text(uri) != text, 60)
        assert asked.questions == []
    finally:
        await client.shutdown_session()


@pytest.mark.parametrize("shape", ["documented", "interface"])
def test_the_cli_goes_over_confirm_characters_only_with_yes(
    tmp_path: Path, shape: str, documented: OfflineService, interface: OfflineService
) -> None:
    service = documented if shape == "documented" else interface
    page = tmp_path / "page.md"
    page.write_text(f"{PARAGRAPH}\n", "utf-8")
    proxy = CountingProxy(service.url)
    scheme = DOCUMENTED if shape == "documented" else "Service-Auth-Key"
    config = tmp_path / "config" / "rephrase-ls"
    config.mkdir(parents=True)
    (config / "config.toml").write_text(
        f'authScheme = "{scheme}"\nconfirmCharacters = 50\n', "utf-8"
    )
    env = server_env(
        REPHRASE_API_KEY=KEY,
        XDG_STATE_HOME=str(tmp_path / "state"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "rephrase_ls", "improve", "--server-url", proxy.url, *args],
            capture_output=True, text=True, env=env, timeout=120, check=False,
        )  # fmt: skip

    try:
        refused = run("--write", str(page))
        assert refused.returncode == 2, refused.stderr
        assert f"{len(PARAGRAPH):,} characters" in refused.stderr
        assert "confirmCharacters = 50" in refused.stderr and "--yes" in refused.stderr
        assert _rephrased(proxy) == [] and page.read_text("utf-8") == f"{PARAGRAPH}\n"
        sent = run("--write", "--yes", str(page))
        assert sent.returncode == 0, sent.stderr
        assert f"sending {len(PARAGRAPH):,} characters" in sent.stderr
        assert "teh" not in page.read_text("utf-8") and len(_rephrased(proxy)) == 1
    finally:
        proxy.close()


@ASYNC
@pytest.mark.parametrize("shape", ["documented", "interface"])
async def test_usage_shows_the_text_improvement_characters_and_the_period(
    tmp_path: Path, shape: str, documented: OfflineService, interface: OfflineService
) -> None:
    service, scheme = (
        (documented, DOCUMENTED) if shape == "documented" else (interface, "Service-Auth-Key")
    )
    client, editor = await _keyed(tmp_path, service.url, scheme)
    try:
        text = f"{PARAGRAPH}\n"
        uri = editor.open("a.md", text)
        actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
        await editor.run_action(actions["Improve document"])
        await wait_for(lambda: editor.text(uri) != text, 60)
        usage = await editor.command("rephrase.usage", uri)
        assert usage["characterCount"] == usage["writeCharacterCount"] == len(PARAGRAPH)
        assert usage["writeApiKeyCharacterCount"] == len(PARAGRAPH)
        summary = usage["summary"]
        assert f"{len(PARAGRAPH):,} characters used" in summary
        assert f"{len(PARAGRAPH):,} of them text improvement" in summary
        if shape == "documented":
            assert re.fullmatch(r"\d{4}-\d\d-01T00:00:00Z", usage["periodStart"])
            assert usage["periodEnd"] > usage["periodStart"]
            assert f"billing period {usage['periodStart']} to {usage['periodEnd']}" in summary
        else:
            assert usage["periodStart"] is None and "billing period" not in summary
    finally:
        await client.shutdown_session()


SPANISH = "Tenemos que organizar los colores de esta página antes de la reunión de mañana.\n"
JAPANESE = "明日は友達と公園に行きます。天気が良ければ、お弁当を持って行きます。\n"


@ASYNC
@pytest.mark.parametrize("shape", ["documented", "interface"])
async def test_styles_are_offered_where_the_services_list_says(
    tmp_path: Path, shape: str, documented: OfflineService, interface: OfflineService
) -> None:
    service, scheme = (
        (documented, DOCUMENTED) if shape == "documented" else (interface, "Service-Auth-Key")
    )
    client, editor = await _keyed(tmp_path, service.url, scheme)
    try:
        found: dict[str, dict[str, object]] = {}
        for name, text in (("es.md", SPANISH), ("ja.md", JAPANESE)):
            uri = editor.open(name, text)
            async with asyncio.timeout(BOUND):
                while True:
                    result = await editor.command("rephrase.listStyles", uri)
                    if result["confirmed"]:
                        break
                    await asyncio.sleep(0.2)
            found[name] = result
        assert found["ja.md"]["language"] == "ja"
        assert found["ja.md"]["writingStyles"] == [] and found["ja.md"]["tones"] == []
        spanish = found["es.md"]
        assert spanish["language"] == "es"
        if shape == "documented":  # the documentation's list: Spanish has styles and tones
            assert "ja" in spanish["targets"] and "zh" in spanish["targets"]  # type: ignore[operator]
            assert "friendly" in spanish["tones"] and "casual" in spanish["writingStyles"]  # type: ignore[operator]
        else:  # the offline engine's own list: no Spanish style rules, none offered
            assert spanish["writingStyles"] == [] and spanish["tones"] == []
    finally:
        await client.shutdown_session()
