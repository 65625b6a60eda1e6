"""Where the server's log lines go: to the editor as ``window/logMessage`` at their level, never
to stderr (editors show a server's stderr as errors); stderr only for a fatal start-up error."""

from __future__ import annotations

import json
import queue
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from lsprotocol import types

from rephrase_ls import __version__

from .conftest import SERVER, server_env

TIMEOUT = 30.0


class StdioPeer:
    """A bare LSP client over the server's stdin/stdout; stderr is kept apart."""

    def __init__(self, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            SERVER,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=server_env(),
            cwd=cwd,
        )
        self.inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            self.inbox.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def wait_for(self, predicate: Any) -> dict[str, Any]:
        while True:
            message = self.inbox.get(timeout=TIMEOUT)
            self.seen.append(message)
            if message.get("method") == "workspace/configuration":
                self.send({"id": message["id"], "result": [{}]})
            if predicate(message):
                return message

    def logs(self) -> list[tuple[int, str]]:
        return [
            (m["params"]["type"], m["params"]["message"])
            for m in self.seen
            if m.get("method") == "window/logMessage"
        ]


def test_log_lines_reach_the_editor_at_their_level_and_stderr_stays_empty(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    doc = root / "a.md"
    doc.write_text("We need to organize the colors of this page.\n", encoding="utf-8")
    peer = StdioPeer(root)
    peer.send(
        {
            "id": 1,
            "method": "initialize",
            "params": {
                "processId": None,
                "rootUri": root.as_uri(),
                "capabilities": {"workspace": {"configuration": True}},
                "clientInfo": {"name": "Neovim", "version": "0.7.2"},
            },
        }
    )
    peer.wait_for(lambda m: m.get("id") == 1)
    peer.send({"method": "initialized", "params": {}})
    text = doc.read_text(encoding="utf-8")
    peer.send(
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {
                    "uri": doc.as_uri(),
                    "languageId": "markdown",
                    "version": 1,
                    "text": text,
                }
            },
        }
    )
    peer.send(
        {
            "id": 2,
            "method": "workspace/executeCommand",
            "params": {"command": "rephrase.listStyles", "arguments": [doc.as_uri()]},
        }
    )
    peer.wait_for(lambda m: m.get("id") == 2)
    peer.send({"id": 3, "method": "shutdown"})
    peer.wait_for(lambda m: m.get("id") == 3)
    peer.send({"method": "exit"})
    assert peer.proc.wait(timeout=TIMEOUT) == 0
    assert peer.proc.stderr is not None
    stderr = peer.proc.stderr.read().decode()
    assert stderr == "", stderr
    logs = peer.logs()
    # A line of Python's logging (not a message the server also shows) at Info, not Error.
    started = [(kind, msg) for kind, msg in logs if msg.startswith("rephrase-ls ")]
    assert (types.MessageType.Info.value, f"rephrase-ls {__version__} serving Neovim 0.7.2") in (
        started
    ), logs
    assert all(kind != types.MessageType.Error.value for kind, _ in logs), logs


def test_a_fatal_start_up_error_is_a_short_line_on_stderr() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = subprocess.run(
            [*SERVER, "serve", "--tcp", f"127.0.0.1:{port}"],
            env=server_env(),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"rephrase-ls: cannot listen on 127.0.0.1:{port}: "), proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr


def test_the_handler_falls_back_to_stderr_before_the_connection(capsys: Any) -> None:
    import logging

    from rephrase_ls.lsp.server import ClientLogHandler, create_server

    handler = ClientLogHandler(create_server())
    logger = logging.getLogger("rephrase_ls.test_logging")
    logger.addHandler(handler)
    try:
        logger.warning("before any client")
    finally:
        logger.removeHandler(handler)
    assert "before any client" in capsys.readouterr().err
    assert sys.stderr is not None
