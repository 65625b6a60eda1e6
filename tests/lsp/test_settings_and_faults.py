"""Settings from the editor, faults of a real service on loopback, positions in every encoding."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from rephrase_ls.offline.engine import improve as engine_improve

from .conftest import (
    PROFILES,
    SERVER,
    Editor,
    OfflineService,
    editor_config,
    every_profile,
    initialize_params,
    install_apply_edit,
    server_env,
)
from .test_actions import actions_when_ready, by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

KEY = "k3y-that-must-never-be-shown"


@pytest_lsp.fixture(
    config=editor_config(server_command=SERVER, server_env=server_env(REPHRASE_API_KEY=KEY)),
    loop_scope="session",
)
async def keyed_session(
    lsp_client: LanguageClient, tmp_path: Path, service: OfflineService
) -> AsyncIterator[None]:
    """A VS Code-like editor whose server has a key and talks to the loopback service."""
    root = tmp_path / "ws"
    root.mkdir()
    # The address is a user-level setting: the launch configuration (initializationOptions, as
    # the VS Code extension sends it), not a folder's workspace/configuration answer.
    lsp_client.set_configuration({"rephrase": {"timeout": 2}})
    ed = Editor(lsp_client, root)
    install_apply_edit(lsp_client, [ed])
    await lsp_client.initialize_session(
        initialize_params(
            "visual-studio-code",
            root,
            # confirmCharacters 0: these tests send documents larger than the default limit
            # and are about faults, not about asking first (test_service_today.py is).
            initialization_options={"rephrase": {"serverUrl": service.url, "confirmCharacters": 0}},
        )
    )
    ed.profile = "visual-studio-code"  # type: ignore[attr-defined]
    lsp_client.editor = ed  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def keyed(keyed_session: LanguageClient) -> Editor:
    return keyed_session.editor  # type: ignore[attr-defined]


def assert_key_never_shown(editor: Editor) -> None:
    for message in [*editor.client.messages, *editor.client.log_messages]:
        assert KEY not in message.message


async def test_real_http_service_improves(keyed: Editor) -> None:
    text = "this is the the test.\n"
    uri = keyed.open("a.md", text)
    actions = await actions_when_ready(keyed, uri, (0, 0), (0, len(text) - 1))
    await keyed.run_action(actions["Improve"])
    await wait_for(lambda: keyed.text(uri) != text)
    assert keyed.text(uri) == engine_improve("this is the the test.", "en-us") + "\n"
    usage = await keyed.command("rephrase.usage", uri)
    assert usage["backend"].startswith("http://127.0.0.1")
    assert usage["characterCount"] > 0
    assert_key_never_shown(keyed)


@pytest.mark.parametrize(
    ("knobs", "words"),
    [
        (["--fail", "456:10"], "quota"),
        (["--fail", "403:10"], "the environment variable rephrase_api_key"),
        (["--malformed", "10"], "does not understand"),
        # Retry-After: 0, so the retries wait no real backoff.
        (["--fail", "503:20", "--retry-after", "0"], "retried"),
    ],
    indirect=["knobs"],
)
async def test_service_faults_show_a_message_and_change_nothing(
    knobs: list[str], keyed: Editor, words: str
) -> None:
    text = "this is the the test.\n"
    uri = keyed.open("a.md", text)
    actions = by_title(await keyed.code_actions(uri, (0, 0), (0, 5)))
    await keyed.run_action(actions["Improve"])
    await wait_for(
        lambda: any(m.type == types.MessageType.Error for m in keyed.client.messages), 60
    )
    errors = [m.message for m in keyed.client.messages if m.type == types.MessageType.Error]
    assert any(words in e.lower() for e in errors), errors
    assert all("Nothing was changed" in e for e in errors)
    assert keyed.text(uri) == text
    assert keyed.applied == []
    assert_key_never_shown(keyed)


@pytest.mark.parametrize("knobs", [["--latency", "400"]], indirect=True)
async def test_progress_cancel_stops_and_applies_nothing(knobs: list[str], keyed: Editor) -> None:
    paragraph = "this is the the paragraph with a doubled word that we send to the service. " * 12
    text = "\n\n".join([paragraph.strip()] * 30) + "\n"
    uri = keyed.open("big.md", text)
    actions = by_title(await keyed.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    resolve = asyncio.ensure_future(
        keyed.client.code_action_resolve_async(actions["Improve document"])
    )
    await wait_for(lambda: any(keyed.client.progress_reports.values()), 20)
    token = next(t for t, reports in keyed.client.progress_reports.items() if reports)
    keyed.client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))
    resolved = await asyncio.wait_for(resolve, 30)
    assert resolved.edit is None
    assert keyed.text(uri) == text
    kinds = [type(r).__name__ for r in keyed.client.progress_reports[token]]
    assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd"


@pytest.mark.parametrize("knobs", [["--latency", "50"]], indirect=True)
async def test_progress_reports_percentages_for_many_requests(
    knobs: list[str], keyed: Editor
) -> None:
    paragraph = "this is the the paragraph with a doubled word that we send to the service. " * 12
    text = "\n\n".join([paragraph.strip()] * 20) + "\n"
    uri = keyed.open("big.md", text)
    actions = by_title(await keyed.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await keyed.run_action(actions["Improve document"])
    await wait_for(lambda: keyed.text(uri) != text, 30)
    assert "the the" not in keyed.text(uri)
    reports = next(r for r in keyed.client.progress_reports.values() if r)
    percentages = [r.percentage for r in reports if isinstance(r, types.WorkDoneProgressReport)]
    assert percentages and percentages[-1] == 100


# -- settings through workspace/configuration, and position encodings ---------------------------


@pytest.fixture
def configured(editor: Editor) -> Editor:
    """A VS Code-like editor whose answer to ``workspace/configuration`` for its folder is the
    test's ``editor_settings`` mark."""
    return editor


@pytest.mark.editor_settings({"actions": ["improve"], "maxConcurrency": 99, "language": "en-GB"})
async def test_editor_settings_apply_and_bad_values_warn_once(configured: Editor) -> None:
    uri = configured.open("a.md", "We need to organize the colors of this page soon.\n")
    await wait_for(lambda: any("maxConcurrency" in m.message for m in configured.client.messages))
    await asyncio.sleep(0.3)
    actions = by_title(await configured.code_actions(uri, (0, 0), (0, 5)))
    assert list(actions) == ["Improve"]
    listed = await configured.command("rephrase.listStyles", uri)
    assert listed["language"] == "en-GB"
    warnings = [m.message for m in configured.client.messages if "maxConcurrency" in m.message]
    assert len(warnings) == 1 and "99" in warnings[0]


@pytest.mark.editor_settings({"writingStyle": "casual"})
async def test_plain_improve_uses_the_workspace_style(configured: Editor) -> None:
    text = "We do not need it. It is not ready.\n"
    uri = configured.open("a.md", text)
    actions = await actions_when_ready(configured, uri, (0, 0), (0, len(text) - 1))
    await configured.run_action(actions["Improve"])
    expected = engine_improve(text.strip(), "en-us", writing_style="casual")
    assert expected != text.strip(), "the engine's casual style should contract"
    await wait_for(lambda: configured.text(uri) != text)
    assert configured.text(uri) == expected + "\n"


def preferred_encoding(profile: str) -> str:
    """The position encoding a profile's client offers first (UTF-16 when it offers none)."""
    general = client_capabilities(profile).general
    offered = general.position_encodings if general else None
    return offered[0] if offered else "utf-16"


@every_profile
async def test_positions_with_emoji_in_each_encoding(editor: Editor) -> None:
    # The profiles prefer one encoding each, so the test runs in every encoding.
    assert sorted(preferred_encoding(p) for p in PROFILES) == ["utf-16", "utf-32", "utf-8"]
    assert editor.encoding == preferred_encoding(editor.profile)  # the server chose it
    line = "Émoji 🎉👍🏽 first: this is the the test with café and naïve words."
    text = f"🎉 Title 👍🏽\n\n{line}\n"
    uri = editor.open("e.md", text)
    actions = by_title(await editor.code_actions(uri, (2, 0), (2, 0)))
    await editor.run_action(actions["Improve"])
    await wait_for(lambda: editor.text(uri) != text)
    expected = engine_improve(line, "en-us")
    assert expected != line
    assert editor.text(uri) == f"🎉 Title 👍🏽\n\n{expected}\n"


async def _start(tmp_path: Path, params_hook=None, configuration=None, env=None):
    config = editor_config(server_command=SERVER, server_env=server_env(**(env or {})))
    client = await config.start()
    root = tmp_path / "ws"
    root.mkdir(exist_ok=True)
    ed = Editor(client, root)
    install_apply_edit(client, [ed])
    if configuration:
        for scope, values in configuration.items():
            client.set_configuration(values, section="rephrase", scope_uri=scope or None)
    params = initialize_params("visual-studio-code", root)
    if params_hook:
        params_hook(params)
    await client.initialize_session(params)
    return client, ed


def _answer_configuration(client: LanguageClient, gate: asyncio.Event) -> None:
    """Make the client answer ``workspace/configuration`` only once ``gate`` is set."""
    del client.protocol.fm.features[types.WORKSPACE_CONFIGURATION]

    @client.feature(types.WORKSPACE_CONFIGURATION)
    async def late(ls: LanguageClient, params: types.ConfigurationParams) -> list[Any]:
        await gate.wait()
        return [
            ls.get_configuration(section=i.section, scope_uri=i.scope_uri) for i in params.items
        ]


async def test_code_actions_wait_for_settings_on_their_way(tmp_path: Path) -> None:
    client, ed = await _start(tmp_path, configuration={"": {"actions": ["improve"]}})
    gate = asyncio.Event()
    _answer_configuration(client, gate)
    try:
        uri = ed.open("a.md", "We need to organize the colors of this page soon.\n")
        listing = asyncio.ensure_future(ed.code_actions(uri, (0, 0), (0, 5)))
        await asyncio.sleep(0.3)
        assert not listing.done()  # waiting for the editor's settings, not using defaults
        gate.set()
        assert list(by_title(await listing)) == ["Improve"]
    finally:
        gate.set()
        await client.shutdown_session()
        await client.stop()


async def test_a_client_that_never_answers_configuration_is_waited_for_once(
    tmp_path: Path,
) -> None:
    client, ed = await _start(tmp_path, configuration={"": {"actions": ["improve"]}})
    gate = asyncio.Event()
    _answer_configuration(client, gate)
    try:
        uri = ed.open("a.md", "We need to organize the colors of this page soon.\n")
        # After the wait, the defaults (all actions); then no more waiting.
        assert "Improve document" in by_title(await ed.code_actions(uri, (0, 0), (0, 5)))
        assert "Improve document" in by_title(await ed.code_actions(uri, (0, 0), (0, 5)))
        said = [m.message for m in client.log_messages if "did not answer" in m.message]
        assert len(said) == 1, said
        # When the answer comes, it is used.
        gate.set()
        for _ in range(200):
            if list(by_title(await ed.code_actions(uri, (0, 0), (0, 5)))) == ["Improve"]:
                break
            await asyncio.sleep(0.05)
        assert list(by_title(await ed.code_actions(uri, (0, 0), (0, 5)))) == ["Improve"]
    finally:
        gate.set()
        await client.shutdown_session()
        await client.stop()


async def test_initialization_options_when_the_client_has_no_configuration(tmp_path: Path) -> None:
    def hook(params: types.InitializeParams) -> None:
        assert params.capabilities.workspace is not None
        params.capabilities.workspace.configuration = False
        params.initialization_options = {"rephrase": {"actions": ["improve"]}}

    client, ed = await _start(tmp_path, hook)
    try:
        uri = ed.open("a.md", "We need to organize the colors of this page soon.\n")
        await asyncio.sleep(0.5)
        actions = by_title(await ed.code_actions(uri, (0, 0), (0, 5)))
        assert list(actions) == ["Improve"]
    finally:
        await client.shutdown_session()
        await client.stop()


@pytest.mark.editor_settings({"actions": ["improve"]})
async def test_did_change_configuration_refreshes_settings(configured: Editor) -> None:
    uri = configured.open("a.md", "We need to organize the colors of this page soon.\n")
    await asyncio.sleep(0.5)
    assert list(by_title(await configured.code_actions(uri, (0, 0), (0, 5)))) == ["Improve"]
    configured.client.set_configuration(
        {"rephrase": {"actions": ["improve", "convert"]}}, scope_uri=configured.root.as_uri()
    )
    configured.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings=None)
    )

    async def titles() -> list[str]:
        return list(by_title(await configured.code_actions(uri, (0, 0), (0, 5))))

    for _ in range(50):
        if await titles() == ["Improve", "Convert to en-GB"]:
            break
        await asyncio.sleep(0.1)
    assert await titles() == ["Improve", "Convert to en-GB"]


async def test_multi_root_folders_get_their_own_settings(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "de-docs").mkdir(parents=True)
    (root / "en-docs").mkdir(parents=True)
    folder_de = (root / "de-docs").as_uri()

    def hook(params: types.InitializeParams) -> None:
        params.workspace_folders = [
            types.WorkspaceFolder(uri=folder_de, name="de-docs"),
            types.WorkspaceFolder(uri=(root / "en-docs").as_uri(), name="en-docs"),
        ]

    client, ed = await _start(tmp_path, hook, {folder_de: {"language": "de"}})
    try:
        text = "We need to organize the colors of this page soon.\n"
        de = await ed.command("rephrase.listStyles", ed.open("de-docs/a.md", text))
        en = await ed.command("rephrase.listStyles", ed.open("en-docs/a.md", text))
        assert (de["language"], de["languageSource"]) == ("de", "settings")
        assert (en["language"], en["languageSource"]) == ("en-US", "detected")
        (root / "en-docs" / ".rephrase.toml").write_text('language = "en-GB"\n', encoding="utf-8")
        en = await ed.command("rephrase.listStyles", ed.uri("en-docs/a.md"))
        assert en["language"] == "en-GB"
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_embedded_default_is_announced_once(tmp_path: Path) -> None:
    state = tmp_path / "state"
    client, ed = await _start(tmp_path, env={"XDG_STATE_HOME": str(state)})
    try:
        for name in ("a.md", "b.md", "c.md"):
            ed.open(name, "Some English text that is long enough to be detected.\n")
        await wait_for(lambda: any("embedded offline" in m.message for m in client.messages))
        await asyncio.sleep(0.5)
        said = [m for m in client.messages if "embedded offline" in m.message]
        assert len(said) == 1
        assert said[0].type == types.MessageType.Info
        assert any("embedded offline" in m.message for m in client.log_messages)
    finally:
        await client.shutdown_session()
        await client.stop()
    assert (state / "rephrase-ls" / "notice-offline-service").is_file()

    # The next start of the same installation only logs it.
    client, ed = await _start(tmp_path, env={"XDG_STATE_HOME": str(state)})
    try:
        ed.open("a.md", "Some English text that is long enough to be detected.\n")
        await wait_for(lambda: any("embedded offline" in m.message for m in client.log_messages))
        await asyncio.sleep(0.5)
        assert not [m for m in client.messages if "embedded offline" in m.message]
    finally:
        await client.shutdown_session()
        await client.stop()

    # Another user (another state folder) sees it again.
    client, ed = await _start(tmp_path, env={"XDG_STATE_HOME": str(tmp_path / "other")})
    try:
        ed.open("a.md", "Some English text that is long enough to be detected.\n")
        await wait_for(lambda: any("embedded offline" in m.message for m in client.messages))
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_cancel_for_an_answered_request_is_not_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Editors cancel code-action requests after they were answered: nothing to warn about."""
    from rephrase_ls.lsp.server import create_server

    server = create_server()
    with caplog.at_level(logging.DEBUG):
        cancel = {"jsonrpc": "2.0", "method": types.CANCEL_REQUEST, "params": {"id": 42}}
        server.protocol.handle_message(server.protocol.structure_message(cancel))
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert "no longer running" in caplog.text


@pytest.mark.parametrize("knobs", [["--latency", "1800"]], indirect=True)
@pytest.mark.parametrize("path", ["command", "resolve"])
async def test_cancel_request_stops_the_work_and_applies_nothing(
    knobs: list[str], keyed: Editor, path: str
) -> None:
    text = "this is the the test.\n"
    uri = keyed.open("a.md", text)
    protocol = keyed.client.protocol
    if path == "command":
        future = asyncio.ensure_future(
            protocol.send_request_async(
                types.WORKSPACE_EXECUTE_COMMAND,
                types.ExecuteCommandParams(command="rephrase.improve", arguments=[uri]),
                msg_id="cancel-me",
            )
        )
    else:
        actions = by_title(await keyed.code_actions(uri, (0, 0), (0, len(text) - 1)))
        future = asyncio.ensure_future(
            protocol.send_request_async(
                types.CODE_ACTION_RESOLVE, actions["Improve"], msg_id="cancel-me"
            )
        )
    await asyncio.sleep(0.9)  # the request is now waiting on the service
    protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="cancel-me"))
    try:
        result = await asyncio.wait_for(future, 10)
    except Exception as exc:  # the cancelled-request error
        result = exc
    await asyncio.sleep(2.5)  # past the service's latency: nothing may arrive late
    if isinstance(result, types.CodeAction):
        assert result.edit is None
    assert keyed.applied == []
    assert keyed.text(uri) == text


async def test_an_unusable_key_is_reported_and_never_shown(tmp_path: Path) -> None:
    client, ed = await _start(tmp_path, env={"REPHRASE_API_KEY": "nön-ascii-secret"})
    try:
        text = "this is the the plan.\n"
        uri = ed.open("a.md", text)
        actions = by_title(await ed.code_actions(uri, (0, 0), (0, len(text) - 1)))
        assert "Improve" in actions  # listing still works
        await ed.run_action(actions["Improve"])
        await wait_for(lambda: any("is not valid" in m.message for m in client.messages))
        assert ed.text(uri) == text
        for message in [*client.messages, *client.log_messages]:
            assert "secret" not in message.message
        assert any("REPHRASE_API_KEY" in m.message for m in client.messages)
    finally:
        await client.shutdown_session()
        await client.stop()


async def test_cached_results_are_not_reused_after_the_known_words_change(editor: Editor) -> None:
    text = "We wrote teh report for the team.\n"
    uri = editor.open("a.md", text)
    actions = await actions_when_ready(editor, uri, (0, 0), (0, len(text) - 1))
    await editor.run_action(actions["Improve"])
    await wait_for(lambda: editor.text(uri) != text)
    assert "the report" in editor.text(uri)
    (editor.root / ".rephrase.toml").write_text('words = ["teh"]\n', encoding="utf-8")
    editor.set_text(uri, text)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, len(text) - 1)))
    await editor.run_action(actions["Improve"])
    await asyncio.sleep(1.0)
    assert editor.text(uri) == text  # "teh" is a known word now: nothing to change
