"""The offline service over real loopback HTTP: ``rephrase-ls offline-service`` and ``run``."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from rephrase_ls.offline.engine import improve
from rephrase_ls.offline.knobs import OfflineOptions
from rephrase_ls.offline.server import (
    build_parser,
    cpu_count,
    is_loopback,
    main,
    options_from_args,
)

EN = "This is the test and it is fine."
LISTENING = re.compile(r"^rephrase-ls offline service listening on (http://127\.0\.0\.1:(\d+))$")


def _command() -> list[str]:
    script = Path(sys.executable).with_name("rephrase-ls")
    if script.exists():
        return [str(script)]
    found = shutil.which("rephrase-ls")
    if found:
        return [found]
    return [sys.executable, "-m", "rephrase_ls"]


@contextmanager
def offline_service(*args: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Start ``rephrase-ls offline-service ARGS`` and yield its printed base address."""
    proc = subprocess.Popen(
        [*_command(), "offline-service", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()  # blocks until the server prints or exits
        match = LISTENING.match(line)
        if match is None:
            proc.kill()
            _, err = proc.communicate(timeout=10)
            pytest.fail(f"offline service did not start: {line!r} {err!r}")
        yield match.group(1), proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc.stdout:
            proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()


async def test_subprocess_serves_the_interface_over_loopback() -> None:
    with offline_service("--key", "k-1", "--fail", "429:1", "--retry-after", "0",
                         "--malformed", "1", "--character-limit", "100") as (url, proc):
        headers = {"Authorization": "Service-Auth-Key k-1"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=10) as client:
            languages = await client.get("/v3/languages", params={"product": "write"})
            assert languages.status_code == 200
            assert languages.headers["x-trace-id"]
            assert {r["lang"] for r in languages.json() if r["usable_as_target"]} >= {"en-US"}
            assert (await client.get("/v2/languages", params={"type": "target"})
                    ).status_code == 200

            first = await client.post("/v2/write/rephrase",
                                      json={"text": [EN], "target_lang": "en-US"})
            assert first.status_code == 429 and first.headers["retry-after"] == "0"
            broken = await client.post("/v2/write/rephrase",
                                       json={"text": [EN], "target_lang": "en-US"})
            assert broken.status_code == 200 and "improvements" not in broken.json()
            good = await client.post("/v2/write/rephrase",
                                     data={"text": ["the cat is is here."],
                                           "target_lang": "en-GB"})
            assert good.status_code == 200
            assert good.json()["improvements"][0]["text"] == improve("the cat is is here.",
                                                                     "en-gb")

            too_large = await client.post(
                "/v2/write/rephrase",
                json={"text": ["word " * 2100], "target_lang": "en-US"})
            assert too_large.status_code == 413

            usage = (await client.get("/v2/usage")).json()
            assert usage["character_count"] == len("the cat is is here.")
            assert usage["character_limit"] == 100

            wrong = await client.get("/v2/usage",
                                     headers={"Authorization": "Service-Auth-Key other"})
            assert wrong.status_code == 403
        assert proc.poll() is None


async def test_subprocess_hang_times_out_and_shutdown_still_ends() -> None:
    with offline_service("--hang", "1", "--later-shape") as (url, proc):
        headers = {"Authorization": "Service-Auth-Key any"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=10) as client:
            with pytest.raises(httpx.ReadTimeout):
                await client.post("/v2/write/rephrase", timeout=0.5,
                                  json={"text": [EN], "target_lang": "en-US"})
            after = await client.post("/v2/write/rephrase",
                                      json={"text": [EN], "target_lang": "en-US"})
            assert after.status_code == 200
            renamed = await client.get("/v3/languages", params={"product": "write"})
            assert renamed.status_code == 400
        # A client that hangs up does not keep the server from shutting down.
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        # uvicorn re-raises the signal once it has shut down cleanly.
        assert proc.wait(timeout=10) in (0, -signal.SIGTERM)
        assert proc.stderr is not None and "Traceback" not in proc.stderr.read()
        assert time.monotonic() - started < 8


async def test_subprocess_shutdown_with_a_request_still_hanging() -> None:
    with offline_service("--hang", "1") as (url, proc):
        host, port = url.removeprefix("http://").split(":")
        body = b'{"text": ["x"], "target_lang": "en-US"}'
        request = (b"POST /v2/write/rephrase HTTP/1.1\r\nHost: x\r\n"
                   b"Authorization: Service-Auth-Key k\r\nContent-Type: application/json\r\n"
                   b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            conn.sendall(request)
            time.sleep(0.3)
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=15)
            # Bounded by the graceful-shutdown timeout, not by the hanging request.
            assert time.monotonic() - started < 10


def test_cli_refuses_non_loopback_host(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--host", "0.0.0.0"])
    assert exited.value.code == 2
    assert "--allow-remote" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["--fail", "429"], ["--fail", "200:1"], ["--fail", "429:0"],
                                  ["--fail", "x:y"], ["--hang", "-1"], ["--latency", "soon"],
                                  ["--port", "70000"], ["--retry-after", "-1"],
                                  ["--character-limit", "1.5"], ["--auth-scheme", "two words"]])
def test_cli_rejects_bad_arguments(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert "error" in capsys.readouterr().err


def test_cli_reports_a_busy_port(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert main(["--port", str(port)]) == 1
    assert "cannot listen" in capsys.readouterr().err


def test_options_from_arguments() -> None:
    args = build_parser().parse_args([
        "--key", "a", "--key", "b", "--auth-scheme", "Bearer", "--latency", "12.5",
        "--fail", "429:2", "--fail", "503:1", "--hang", "3", "--malformed", "4",
        "--character-limit", "99", "--retry-after", "0.1", "--later-shape",
        "--workers", "3", "--preload"])
    options = options_from_args(args)
    assert options == OfflineOptions(
        keys=("a", "b"), auth_scheme="Bearer", latency_ms=12.5, fail=[(429, 2), (503, 1)],
        hang=3, malformed=4, character_limit=99, retry_after=0.1, later_shape=True,
        workers=3, preload=True)
    defaults = options_from_args(build_parser().parse_args([]))
    # On loopback the engine runs in one worker process per CPU by default.
    assert defaults == OfflineOptions(workers=cpu_count())
    assert cpu_count() >= 1
    assert options_from_args(build_parser().parse_args(["--workers", "0"])).workers == 0


def test_cli_refuses_preload_without_workers(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--workers", "0", "--preload"])
    assert exited.value.code == 2
    assert "preload needs worker processes" in capsys.readouterr().err


def _children(pid: int) -> set[int]:
    """Process ids whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("how", ["sigterm", "sigkill"])
async def test_worker_processes_serve_and_end_with_the_service(how: str) -> None:
    with offline_service("--workers", "2", "--latency", "50") as (url, proc):
        workers = _children(proc.pid)
        assert len(workers) >= 2  # started before the address is printed
        headers = {"Authorization": "Service-Auth-Key any"}
        async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as client:
            answers = await asyncio.gather(*(
                client.post("/v2/write/rephrase", json={"text": [EN], "target_lang": "en-US"})
                for _ in range(4)))
            assert [a.json()["improvements"][0]["text"] for a in answers] == \
                [improve(EN, "en-us")] * 4
            refused = await client.post("/v2/write/rephrase", json={"text": [EN],
                                                                    "target_lang": "xx"})
            assert refused.status_code == 400 and "target_lang" in refused.json()["message"]
        proc.send_signal(signal.SIGTERM if how == "sigterm" else signal.SIGKILL)
        proc.wait(timeout=20)
    # Closed on SIGTERM; after SIGKILL the workers notice their parent is gone and exit.
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(pid) for pid in workers)


@pytest.mark.parametrize(("host", "expected"), [
    ("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("[::1]", True),
    ("localhost", True), ("LOCALHOST", True), ("0.0.0.0", False), ("192.168.1.4", False),
    ("example.com", False), ("::", False),
])
def test_is_loopback(host: str, expected: bool) -> None:
    assert is_loopback(host) is expected

