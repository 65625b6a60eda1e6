"""Who may say where the API key goes: real processes, a recording service on loopback.

A repository cloned from someone else carries a ``.rephrase.toml`` (and perhaps folder settings)
naming its own service, header scheme, tier and key variable. These tests run the real language
server over stdio and the real ``rephrase-ls improve`` with the user's key in the environment, and
prove with a recorder on 127.0.0.1 that nothing the project names receives a request, that the key
variable the project names is never read out, that one warning names what was ignored, and that
the user's own configuration (the user config file, the launch configuration, the environment,
``--server-url``, ``trustedFolders``) still reaches the service.
"""

from __future__ import annotations

import contextlib
import http.client
import http.server
import re
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from .conftest import (
    SERVER,
    Editor,
    OfflineService,
    editor_config,
    initialize_params,
    install_apply_edit,
    server_env,
)

KEY = "user-key-0123456789"
CANARY = "canary-value-of-another-variable"
CONNECTION = ("serverUrl", "freeServerUrl", "tier", "authScheme", "apiKeyEnv")


@dataclass
class Seen:
    """One request the recorder received."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes

    def carries(self, secret: str) -> bool:
        blob = " ".join([self.path, *self.headers.values()]).encode() + self.body
        return secret.encode() in blob


class Recorder:
    """An HTTP service on 127.0.0.1 that records every request, then forwards it to ``upstream``
    (a real offline service) or, without one, answers 403."""

    def __init__(self, upstream: str | None = None) -> None:
        self.seen: list[Seen] = []
        self._lock = threading.Lock()
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with recorder._lock:
                    recorder.seen.append(Seen(self.command, self.path, dict(self.headers), body))
                status, headers, payload = recorder._answer(self.command, self.path, self, body)
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _handle

            def log_message(self, *args: Any) -> None:
                pass

        self.upstream = upstream
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        # Polled for shutdown every 50 ms (not 0.5 s): each test stops two recorders.
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def _answer(
        self, method: str, path: str, handler: http.server.BaseHTTPRequestHandler, body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        if self.upstream is None:
            return 403, [("Content-Type", "application/json")], b'{"message": "recorder"}'
        match = re.match(r"http://([^:/]+):(\d+)", self.upstream)
        assert match
        conn = http.client.HTTPConnection(match.group(1), int(match.group(2)), timeout=30)
        skip = {"host", "content-length", "connection"}
        headers = {k: v for k, v in handler.headers.items() if k.lower() not in skip}
        conn.request(method, path, body=body or None, headers=headers)
        reply = conn.getresponse()
        payload = reply.read()
        kept = [
            (k, v)
            for k, v in reply.getheaders()
            if k.lower() not in ("content-length", "transfer-encoding", "connection")
        ]
        conn.close()
        return reply.status, kept, payload

    def requests(self) -> list[Seen]:
        with self._lock:
            return list(self.seen)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module")
def upstream() -> Iterator[OfflineService]:
    """The real offline service behind the user's recorder, shared by the module's tests (what
    they check is what each test's own recorder saw)."""
    svc = OfflineService()
    yield svc
    svc.stop()


@pytest.fixture
def users(upstream: OfflineService) -> Iterator[Recorder]:
    """The service the user configured (a recorder in front of a real offline service)."""
    rec = Recorder(upstream.url)
    yield rec
    rec.stop()


@pytest.fixture
def hostile() -> Iterator[Recorder]:
    """The service a cloned project names."""
    rec = Recorder()
    yield rec
    rec.stop()


def user_config(config_home: Path, text: str) -> None:
    folder = config_home / "rephrase-ls"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text(text, encoding="utf-8")


def hostile_project(root: Path, hostile: Recorder) -> None:
    """What a cloned repository may carry: its own connection settings, and a prose setting."""
    root.mkdir(parents=True, exist_ok=True)
    (root / ".rephrase.toml").write_text(
        f'serverUrl = "{hostile.url}"\n'
        f'freeServerUrl = "{hostile.url}"\n'
        'apiKeyEnv = "CANARY_VARIABLE"\n'
        'authScheme = "Bearer"\n'
        'tier = "free"\n'
        'writingStyle = "business"\n',
        encoding="utf-8",
    )


def environment(config_home: Path, **extra: str) -> dict[str, str]:
    env = server_env(
        REPHRASE_API_KEY=KEY, CANARY_VARIABLE=CANARY, XDG_CONFIG_HOME=str(config_home), **extra
    )
    return env


async def wait_until(check: Any, timeout: float = 30.0) -> None:
    import asyncio

    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def lsp(
    root: Path,
    env: dict[str, str],
    *,
    profile: str = "visual-studio-code",
    init_options: Any = None,
    folder_settings: dict[str, Any] | None = None,
    args: tuple[str, ...] = (),
    client_info: types.ClientInfo | None = None,
) -> AsyncIterator[Editor]:
    """The real server over stdio with ``env``; ``folder_settings``: what the editor answers to
    ``workspace/configuration`` for the workspace folder."""
    root.mkdir(parents=True, exist_ok=True)
    client = await editor_config(server_command=[*SERVER, *args], server_env=env).start()
    ed = Editor(client, root)
    install_apply_edit(client, [ed])
    if folder_settings is not None:
        client.set_configuration({"rephrase": folder_settings}, scope_uri=root.as_uri())
    await client.initialize_session(
        initialize_params(
            profile, root, initialization_options=init_options, client_info=client_info
        )
    )
    try:
        yield ed
    finally:
        await client.shutdown_session()
        await client.stop()


def ignored_warnings(editor: Editor, source: str) -> list[str]:
    return [
        m.message
        for m in editor.client.messages
        if source in m.message and re.search(r"\b(is|are) ignored\b", m.message)
    ]


def assert_nothing_leaked(editor: Editor | None, *texts: str) -> None:
    shown = [*texts]
    if editor is not None:
        shown += [m.message for m in [*editor.client.messages, *editor.client.log_messages]]
    for text in shown:
        assert KEY not in text and CANARY not in text


# -- the language server -------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim", "emacs"])
async def test_server_sends_nothing_where_a_project_file_says(
    tmp_path: Path, users: Recorder, hostile: Recorder, profile: str
) -> None:
    root = tmp_path / "cloned"
    hostile_project(root, hostile)
    user_config(tmp_path / "config", f'serverUrl = "{users.url}"\n')
    async with lsp(root, environment(tmp_path / "config"), profile=profile) as ed:
        # Right after `initialized`, before any document: the warm-up asks the user's service.
        await wait_until(lambda: users.requests())
        assert hostile.requests() == []
        first = users.requests()[0]
        assert first.headers["Authorization"] == f"Service-Auth-Key {KEY}"
        text = "this is the the plan for the week.\n"
        uri = ed.open("a.md", text)
        ed.open("b.md", "another page with the the doubled word in it.\n")
        listed = await ed.command("rephrase.listStyles", uri)
        assert listed["current"]["writingStyle"] == "business"  # prose settings are kept
        assert listed["backend"] == users.url
        usage = await ed.command("rephrase.usage", uri)
        assert usage["embedded"] is False
        result = await ed.command(
            "rephrase.improve",
            uri,
            {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": len(text) - 1}},
        )
        assert result["applied"] is True
        await wait_until(lambda: ed.text(uri) != text)
        assert any(seen.method == "POST" for seen in users.requests())
        warnings = ignored_warnings(ed, str(root / ".rephrase.toml"))
        assert len(warnings) == 1, warnings
        for key in CONNECTION:
            assert key in warnings[0]
        assert "trustedFolders" in warnings[0]
    assert hostile.requests() == []
    for seen in users.requests():
        assert not seen.carries(CANARY)
        assert seen.headers["Authorization"] == f"Service-Auth-Key {KEY}"
    assert_nothing_leaked(ed)


async def test_folder_settings_cannot_redirect_but_launch_options_can(
    tmp_path: Path, users: Recorder, hostile: Recorder
) -> None:
    """workspace/configuration answers for a folder may come from the folder itself (VS Code
    folder settings, .dir-locals.el, project-local Neovim config): their connection settings are
    ignored; the launch configuration (initializationOptions) is the user's own."""
    root = tmp_path / "ws"
    async with lsp(
        root,
        environment(tmp_path / "config"),
        init_options={"rephrase": {"serverUrl": users.url}},
        folder_settings={
            "serverUrl": hostile.url,
            "apiKeyEnv": "CANARY_VARIABLE",
            "tone": "friendly",
        },
    ) as ed:
        uri = ed.open("a.md", "this is the the plan for the week.\n")
        listed = await ed.command("rephrase.listStyles", uri)
        assert listed["backend"] == users.url
        assert listed["current"]["tone"] == "friendly"
        await ed.command("rephrase.usage", uri)
        warnings = ignored_warnings(ed, f"editor settings for {root}")
        assert len(warnings) == 1, warnings
        assert "serverUrl" in warnings[0] and "apiKeyEnv" in warnings[0]
        assert "tone" not in warnings[0]
    assert hostile.requests() == []
    assert users.requests() and not any(seen.carries(CANARY) for seen in users.requests())
    assert_nothing_leaked(ed)


async def test_a_trusted_folder_may_set_the_connection(
    tmp_path: Path, users: Recorder, hostile: Recorder
) -> None:
    root = tmp_path / "mine"
    root.mkdir()
    (root / ".rephrase.toml").write_text(f'serverUrl = "{users.url}"\n', encoding="utf-8")
    user_config(tmp_path / "config", f'trustedFolders = ["{root}"]\n')
    async with lsp(root, environment(tmp_path / "config")) as ed:
        await wait_until(lambda: users.requests())
        uri = ed.open("a.md", "this is the the plan.\n")
        usage = await ed.command("rephrase.usage", uri)
        assert usage["backend"] == users.url and usage["embedded"] is False
        assert ignored_warnings(ed, ".rephrase.toml") == []
    assert users.requests()[0].headers["Authorization"] == f"Service-Auth-Key {KEY}"
    assert hostile.requests() == []


async def test_trust_is_per_folder_in_a_multi_root_workspace(
    tmp_path: Path, users: Recorder, hostile: Recorder
) -> None:
    mine, cloned = tmp_path / "mine", tmp_path / "cloned"
    mine.mkdir()
    (mine / ".rephrase.toml").write_text(f'serverUrl = "{users.url}"\n', encoding="utf-8")
    hostile_project(cloned, hostile)
    user_config(tmp_path / "config", f'trustedFolders = ["{mine}"]\n')
    client = await editor_config(
        server_command=SERVER, server_env=environment(tmp_path / "config")
    ).start()
    ed = Editor(client, tmp_path)
    install_apply_edit(client, [ed])
    params = initialize_params("visual-studio-code", mine)
    params.workspace_folders = [
        types.WorkspaceFolder(uri=folder.as_uri(), name=folder.name) for folder in (mine, cloned)
    ]
    await client.initialize_session(params)
    try:
        theirs = ed.open("cloned/a.md", "this is the the plan.\n")
        ours = ed.open("mine/a.md", "this is the the plan.\n")
        usage = await ed.command("rephrase.usage", ours)
        assert usage["backend"] == users.url
        with pytest.raises(Exception, match="serverUrl"):
            await ed.command("rephrase.usage", theirs)  # the project's address is not used
        assert len(ignored_warnings(ed, str(cloned / ".rephrase.toml"))) == 1
        assert ignored_warnings(ed, str(mine / ".rephrase.toml")) == []
    finally:
        await client.shutdown_session()
        await client.stop()
    assert hostile.requests() == []
    assert all(seen.headers["Authorization"] == f"Service-Auth-Key {KEY}" for seen in users.seen)


@pytest.mark.parametrize(
    ("host", "allowed"), [("localhost", True), ("127.0.0.1", True), ("foo.localhost", False)]
)
async def test_server_plain_http_only_to_loopback(
    tmp_path: Path, users: Recorder, host: str, allowed: bool
) -> None:
    url = f"http://{host}:{users.port}"
    user_config(tmp_path / "config", f'serverUrl = "{url}"\n')
    async with lsp(tmp_path / "ws", environment(tmp_path / "config")) as ed:
        uri = ed.open("a.md", "this is the the plan.\n")
        if allowed:
            usage = await ed.command("rephrase.usage", uri)
            assert usage["backend"] == url
        else:
            with pytest.raises(Exception, match="serverUrl"):
                await ed.command("rephrase.usage", uri)
            warnings = [m.message for m in ed.client.messages if "plain http://" in m.message]
            assert len(warnings) == 1 and "serverUrl" in warnings[0], warnings
    assert bool(users.requests()) is allowed


async def test_offline_flag_reads_no_key(tmp_path: Path, users: Recorder) -> None:
    """``--offline`` (the VS Code extension in an untrusted workspace): the embedded service
    answers even though a key and an address are configured."""
    user_config(tmp_path / "config", f'serverUrl = "{users.url}"\n')
    async with lsp(tmp_path / "ws", environment(tmp_path / "config"), args=("--offline",)) as ed:
        uri = ed.open("a.md", "this is the the plan.\n")
        usage = await ed.command("rephrase.usage", uri)
        assert usage["embedded"] is True
        # shown once per installation, logged on every start
        said = [*ed.client.messages, *ed.client.log_messages]
        assert any("--offline" in m.message for m in said), said
    assert users.requests() == []


BAD_SCHEMES = ["Clé-Auth", "Two Words", "Scheme:x"]


@pytest.mark.parametrize("scheme", BAD_SCHEMES)
async def test_a_scheme_that_cannot_go_into_a_header_is_named_not_a_crash(
    tmp_path: Path, users: Recorder, scheme: str
) -> None:
    """``authScheme`` goes into the Authorization header: one that cannot (not ASCII, spaces,
    separators) is a warning naming the setting, and requests go out with the default scheme."""
    user_config(tmp_path / "config", f'serverUrl = "{users.url}"\nauthScheme = "{scheme}"\n')
    async with lsp(tmp_path / "ws", environment(tmp_path / "config")) as ed:
        text = "this is the the plan for the week.\n"
        uri = ed.open("a.md", text)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 10}}
        result = await ed.command("rephrase.improve", uri, whole)
        assert result["applied"] is True
        said = [m.message for m in ed.client.messages]
        assert any("authScheme" in m and "Authorization header" in m for m in said), said
    assert users.requests()
    for seen in users.requests():
        assert seen.headers["Authorization"] == f"Service-Auth-Key {KEY}"
    assert_nothing_leaked(ed)


async def test_a_client_name_that_cannot_go_into_a_header_is_kept_out(
    tmp_path: Path, users: Recorder
) -> None:
    """The client's name goes into the User-Agent: one outside ASCII does not stop requests."""
    user_config(tmp_path / "config", f'serverUrl = "{users.url}"\n')
    info = types.ClientInfo(name="Éditeur Spécial", version="1.0 β")
    async with lsp(tmp_path / "ws", environment(tmp_path / "config"), client_info=info) as ed:
        text = "this is the the plan for the week.\n"
        uri = ed.open("a.md", text)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 10}}
        result = await ed.command("rephrase.improve", uri, whole)
        assert result["applied"] is True
    agents = {seen.headers["User-Agent"] for seen in users.requests()}
    assert agents and all(a.endswith(" -diteur-sp-cial/1.0--") for a in agents), agents


@pytest.mark.parametrize("scheme", BAD_SCHEMES)
def test_cli_a_scheme_that_cannot_go_into_a_header_is_named(
    tmp_path: Path, users: Recorder, scheme: str
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    (root / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    user_config(tmp_path / "config", f'serverUrl = "{users.url}"\nauthScheme = "{scheme}"\n')
    result = improve("a.md", cwd=root, env=environment(tmp_path / "config"))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "authScheme" in result.stderr and "Authorization header" in result.stderr
    assert "+This is the plan." in result.stdout
    assert_nothing_leaked(None, result.stdout, result.stderr)


# -- the command line -----------------------------------------------------------------------------


def improve(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_sends_nothing_where_a_project_file_says(
    tmp_path: Path, users: Recorder, hostile: Recorder
) -> None:
    root = tmp_path / "cloned"
    hostile_project(root, hostile)
    (root / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    (root / "b.md").write_text("another page with the the doubled word in it.\n", encoding="utf-8")
    user_config(tmp_path / "config", f'serverUrl = "{users.url}"\n')
    result = improve("a.md", "b.md", cwd=root, env=environment(tmp_path / "config"))
    assert result.returncode == 0, result.stderr
    assert "+This is the plan." in result.stdout
    warnings = [line for line in result.stderr.splitlines() if "ignored" in line]
    assert len(warnings) == 1, result.stderr  # once, though two files share the project
    for key in CONNECTION:
        assert key in warnings[0]
    assert hostile.requests() == []
    assert users.requests()
    for seen in users.requests():
        assert seen.headers["Authorization"] == f"Service-Auth-Key {KEY}"
        assert not seen.carries(CANARY)
    assert_nothing_leaked(None, result.stdout, result.stderr)


def test_cli_trusted_folder_and_precedence(
    tmp_path: Path, users: Recorder, hostile: Recorder
) -> None:
    root = tmp_path / "mine"
    root.mkdir()
    (root / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    (root / ".rephrase.toml").write_text(f'serverUrl = "{users.url}"\n', encoding="utf-8")
    config = tmp_path / "config"
    # Untrusted: the project's address is ignored; the user file names none: a clear error.
    result = improve("a.md", cwd=root, env=environment(config))
    assert result.returncode == 2 and "serverUrl" in result.stderr
    assert users.requests() == []
    # Trusted: the project may set it.
    user_config(config, f'serverUrl = "{hostile.url}"\ntrustedFolders = ["{root}"]\n')
    result = improve("a.md", cwd=root, env=environment(config))
    assert result.returncode == 0, result.stderr
    assert users.requests() and hostile.requests() == []
    # The environment beats the (trusted) project and the user file; --server-url beats all.
    before = len(users.requests())
    env = environment(config, REPHRASE_SERVER_URL=hostile.url)
    improve("a.md", cwd=root, env=env)
    assert hostile.requests() and len(users.requests()) == before
    hostile.seen.clear()
    result = improve("a.md", "--server-url", users.url, cwd=root, env=env)
    assert result.returncode == 0, result.stderr
    assert hostile.requests() == [] and len(users.requests()) > before


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1"])
def test_cli_plain_http_to_loopback_is_allowed(tmp_path: Path, users: Recorder, host: str) -> None:
    (tmp_path / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    url = f"http://{host}:{users.port}"
    result = improve("a.md", "--server-url", url, cwd=tmp_path, env=environment(tmp_path / "c"))
    assert result.returncode == 0, result.stderr
    assert "+This is the plan." in result.stdout
    assert users.requests()


def test_cli_plain_http_to_a_localhost_subdomain_is_refused(
    tmp_path: Path, users: Recorder
) -> None:
    (tmp_path / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    url = f"http://foo.localhost:{users.port}"
    result = improve("a.md", "--server-url", url, cwd=tmp_path, env=environment(tmp_path / "c"))
    assert result.returncode == 2
    assert "--server-url" in result.stderr and "plain http://" in result.stderr
    # In the user config file: one warning naming it, and no request.
    user_config(tmp_path / "c", f'serverUrl = "{url}"\n')
    result = improve("a.md", cwd=tmp_path, env=environment(tmp_path / "c"))
    assert "serverUrl" in result.stderr and "plain http://" in result.stderr
    assert users.requests() == []


def test_cli_server_url_without_a_key_says_so(tmp_path: Path, users: Recorder) -> None:
    (tmp_path / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    env = {k: v for k, v in environment(tmp_path / "c").items() if k != "REPHRASE_API_KEY"}
    result = improve("a.md", "--server-url", users.url, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert "--server-url is not used: no API key" in result.stderr
    assert users.requests() == []


def test_the_user_config_file_is_found_without_xdg(tmp_path: Path, users: Recorder) -> None:
    """Without XDG_CONFIG_HOME, the file is ~/.config/rephrase-ls/config.toml."""
    home = tmp_path / "home"
    user_config(home / ".config", f'serverUrl = "{users.url}"\n')
    (tmp_path / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    env = {k: v for k, v in environment(tmp_path / "unused").items() if k != "XDG_CONFIG_HOME"}
    env["HOME"] = str(home)
    result = improve("a.md", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert users.requests()
