"""Shared helpers of the language-server benchmarks: a lean LSP client over stdio, documents,
the loopback offline service, and statistics.

The client speaks JSON-RPC with ``Content-Length`` framing on the server's pipes itself (no
pygls client), so that a timed round trip is the server's time plus a pipe, not a client
library's. It answers the requests a server sends to an editor (``workspace/configuration``,
``window/workDoneProgress/create``, ``workspace/applyEdit``, ``client/registerCapability``) and
keeps the notifications it receives.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SERVER = [sys.executable, "-P", "-m", "rephrase_ls"]
LISTENING = "rephrase-ls offline service listening on "

#: What a VS Code-like editor offers: resolving a code action's edit lazily, versioned
#: document changes, work-done progress, ``workspace/configuration``.
CAPABILITIES: dict[str, Any] = {
    "general": {"positionEncodings": ["utf-16"]},
    "window": {"workDoneProgress": True},
    "workspace": {
        "configuration": True,
        "workspaceFolders": True,
        "applyEdit": True,
        "workspaceEdit": {"documentChanges": True, "resourceOperations": ["create"]},
        "didChangeConfiguration": {"dynamicRegistration": True},
    },
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": True},
        "codeAction": {
            "dynamicRegistration": False,
            "isPreferredSupport": True,
            "disabledSupport": True,
            "dataSupport": True,
            "resolveSupport": {"properties": ["edit"]},
            "codeActionLiteralSupport": {
                "codeActionKind": {
                    "valueSet": ["", "quickfix", "refactor", "refactor.rewrite", "source"]
                }
            },
        },
    },
}


class LspError(Exception):
    """The server answered a request with a JSON-RPC error."""

    def __init__(self, method: str, error: dict[str, Any]) -> None:
        super().__init__(f"{method}: {error.get('code')} {error.get('message')}")
        self.error = error


@dataclass
class LspClient:
    """One language server process and the editor's side of the conversation."""

    process: asyncio.subprocess.Process
    settings: dict[str, Any] = field(default_factory=dict)
    notifications: list[tuple[str, Any]] = field(default_factory=list)
    applied_edits: list[Any] = field(default_factory=list)
    on_notification: Callable[[str, Any], None] | None = None
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _pending: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    _reader: asyncio.Task[None] | None = None

    @classmethod
    async def start(
        cls,
        command: Sequence[str] = tuple(SERVER),
        *,
        env: dict[str, str] | None = None,
        cwd: str | Path | None = None,
        stderr: Any = subprocess.DEVNULL,
    ) -> LspClient:
        """Spawn the server (its log goes to ``stderr``, by default nowhere)."""
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env=env,
            cwd=cwd,
            limit=64 * 1024 * 1024,
        )
        client = cls(process)
        client._reader = asyncio.create_task(client._read_loop())
        return client

    @property
    def pid(self) -> int:
        return self.process.pid

    # -- wire -----------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        stdin = self.process.stdin
        if stdin is None:
            raise RuntimeError("the server's stdin is closed")
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read_loop(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                length = None
                while True:
                    line = await stdout.readline()
                    if not line:
                        raise EOFError("the server closed its output")
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                if length is None:
                    raise ValueError("a message without Content-Length")
                message = json.loads(await stdout.readexactly(length))
                self._dispatch(message)
        except Exception as exc:  # every waiting request must learn of it
            failure = exc if isinstance(exc, LspError) else EOFError(f"client stopped: {exc!r}")
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(failure)
            self._pending.clear()

    def _dispatch(self, message: dict[str, Any]) -> None:
        if "method" not in message:  # a response to one of ours
            future = self._pending.pop(message["id"], None)
            if future is not None and not future.done():
                if "error" in message:
                    future.set_exception(LspError(str(message["id"]), message["error"]))
                else:
                    future.set_result(message.get("result"))
            return
        method, params = message["method"], message.get("params")
        if "id" in message:
            self._answer(message["id"], method, params)
            return
        self.notifications.append((method, params))
        if self.on_notification is not None:
            self.on_notification(method, params)

    def _answer(self, msg_id: Any, method: str, params: Any) -> None:
        result: Any = None
        if method == "workspace/configuration":
            result = [
                self.settings if item.get("section") in (None, "rephrase") else None
                for item in params["items"]
            ]
        elif method == "workspace/applyEdit":
            self.applied_edits.append(params["edit"])
            result = {"applied": True}
        self._send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    # -- requests ---------------------------------------------------------------------------------

    async def request(self, method: str, params: Any) -> Any:
        """Send a request and wait for its result (raises :class:`LspError` on an error)."""
        if self._reader is not None and self._reader.done():
            raise EOFError("the client no longer reads the server's output")
        msg_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        self._send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return await future

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def initialize(
        self, root: Path, capabilities: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """``initialize`` then ``initialized``; the server's result."""
        result = await self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": CAPABILITIES if capabilities is None else capabilities,
                "clientInfo": {"name": "bench", "version": "1"},
            },
        )
        self.notify("initialized", {})
        return dict(result)

    def open(self, uri: str, text: str, language_id: str = "markdown", version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": language_id,
                    "version": version,
                    "text": text,
                }
            },
        )

    async def code_actions(
        self, uri: str, line: int, character: int, only: list[str] | None = None
    ) -> list[dict[str, Any]]:
        """The actions for an empty selection at ``line:character``."""
        position = {"line": line, "character": character}
        context: dict[str, Any] = {"diagnostics": []}
        if only is not None:
            context["only"] = only
        result = await self.request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": {"start": position, "end": position},
                "context": context,
            },
        )
        return list(result or [])

    async def wait_for(
        self, predicate: Callable[[], bool], timeout: float = 60.0, what: str = "a condition"
    ) -> None:
        """Poll ``predicate`` until it holds (the server works in the background)."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError(f"timed out waiting for {what}")
            await asyncio.sleep(0.01)

    async def close(self) -> None:
        """``shutdown`` and ``exit``; kills the server if it does not end."""
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.request("shutdown", None), 10)
            self.notify("exit", None)
        try:
            await asyncio.wait_for(self.process.wait(), 10)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader


def server_env(**extra: str) -> dict[str, str]:
    """The server's environment: no ``REPHRASE_*`` variables unless given, no user config file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env["XDG_CONFIG_HOME"] = str(Path(__file__).resolve().parent / "no-user-config")
    env.update(extra)
    return env


# -- documents -------------------------------------------------------------------------------------

_SUBJECTS = [
    "The committee",
    "Our team",
    "The new library",
    "Most of the readers",
    "The author",
    "This chapter",
    "The second version",
    "A small group of users",
    "The maintainer",
    "The release manager",
    "Every contributor",
    "The documentation",
]
_VERBS = [
    "reviewed",
    "described",
    "explained",
    "rewrote",
    "tested",
    "questioned",
    "improved",
    "published",
    "translated",
    "measured",
    "summarised",
    "replaced",
]
_OBJECTS = [
    "the proposal",
    "the budget",
    "the schedule",
    "the final report",
    "the old interface",
    "the installation guide",
    "the remaining questions",
    "the examples",
    "the test suite",
    "the configuration file",
    "the release notes",
    "the error messages",
]
_TAILS = [
    "before the meeting",
    "last spring",
    "in the evening",
    "after a long discussion",
    "with great care",
    "for the second time",
    "without any help",
    "during the review",
    "in several steps",
    "as promised",
    "before Friday",
    "at the end of the year",
]
#: Slips the offline engine corrects, so improvements produce edits.
_SLIPS = [
    lambda s: s.replace(" the ", " the the ", 1),
    lambda s: s[0].lower() + s[1:],
    lambda s: s.replace(",", " ,", 1) if "," in s else s + " ,and so on",
    lambda s: s.replace(" ", "  ", 1),
]


def sentence(rng: random.Random, serial: int) -> str:
    text = (
        f"{rng.choice(_SUBJECTS)} {rng.choice(_VERBS)} {rng.choice(_OBJECTS)} "
        f"{rng.choice(_TAILS)}, and {rng.choice(_OBJECTS)} {rng.choice(_TAILS)} "
        f"(item {serial})."
    )
    if rng.random() < 0.3:
        text = rng.choice(_SLIPS)(text)
    return text


def wrap(words: str, width: int = 78) -> list[str]:
    lines: list[str] = []
    current = ""
    for word in words.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        lines.append(current)
    return lines


@dataclass
class Document:
    """A generated Markdown document and where its prose paragraphs start (line numbers)."""

    text: str
    paragraph_lines: list[int]

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8"))


def markdown_document(size: int = 1_000_000, seed: int = 1) -> Document:
    """English Markdown of about ``size`` bytes: headings, hard-wrapped paragraphs (each one
    different, some with slips the offline engine fixes), lists, quotes, code fences, links,
    inline code. Deterministic for a seed."""
    rng = random.Random(seed)
    lines: list[str] = []
    starts: list[int] = []
    serial = 0
    total = 0

    def add(block: list[str]) -> None:
        nonlocal total
        lines.extend(block)
        lines.append("")
        total += sum(len(line) + 1 for line in block) + 1

    add(["# Benchmark document", ""])
    section = 0
    while total < size:
        roll = rng.random()
        if roll < 0.06:
            section += 1
            add([f"## Section {section}: {rng.choice(_OBJECTS)}"])
        elif roll < 0.14:
            add(["```python", f"def step_{serial}(value):", "    return value * 2", "```"])
        elif roll < 0.22:
            add([f"- {sentence(rng, serial + i)}" for i in range(rng.randint(2, 5))])
            serial += 5
        elif roll < 0.26:
            add([f"> {line}" for line in wrap(sentence(rng, serial))])
            serial += 1
        else:
            parts = []
            for _ in range(rng.randint(2, 8)):
                serial += 1
                parts.append(sentence(rng, serial))
            if rng.random() < 0.3:
                link = f"https://example.com/guide/{serial}"
                parts.append(f"See [the guide]({link}) and `cfg_{serial}`.")
            starts.append(len(lines))
            add(wrap(" ".join(parts)))
    return Document("\n".join(lines), starts)


# -- the loopback offline service ------------------------------------------------------------------


@contextlib.contextmanager
def offline_service(*args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``rephrase-ls offline-service --port 0 ARGS`` in its own process; its address."""
    with service_process([*SERVER, "offline-service", "--port", "0", *args]) as started:
        yield started


@contextlib.contextmanager
def service_process(command: list[str]) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """A service ``command`` that prints the offline service's "listening on" line; its address."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        if not line.startswith(LISTENING):
            raise RuntimeError(f"the offline service did not start: {line!r}")
        yield line[len(LISTENING) :].strip(), process
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@contextlib.contextmanager
def workspace() -> Iterator[Path]:
    """A temporary workspace folder (the service's address goes in the server's environment,
    ``REPHRASE_SERVER_URL``: a project file cannot set it)."""
    with tempfile.TemporaryDirectory(prefix="rephrase-bench-") as tmp:
        root = Path(tmp) / "ws"
        root.mkdir()
        yield root


# -- figures ------------------------------------------------------------------------------------


def summary(values: Sequence[float], unit: str = "ms", scale: float = 1000.0) -> str:
    """``median X (range A–B, n)`` of ``values`` given in seconds."""
    ordered = sorted(values)
    return (
        f"median {statistics.median(ordered) * scale:.2f} {unit} "
        f"(range {ordered[0] * scale:.2f}–{ordered[-1] * scale:.2f}, n={len(ordered)})"
    )


def rss_mb(pid: int) -> float:
    """Resident memory of a process (``VmRSS`` of /proc/PID/status), in MB (10^6 bytes)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"no VmRSS for process {pid}")


def load_average() -> str:
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load n/a"
    return f"load average {one:.1f}/{five:.1f} on {os.cpu_count()} CPUs"
