"""The offline service's engine worker processes (``OfflineOptions.workers``), real processes
killed for real. Linux only (/proc)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from rephrase_ls.offline import EMBEDDED_BASE_URL
from rephrase_ls.offline import engine as offline_engine
from rephrase_ls.offline.app import create_app
from rephrase_ls.offline.knobs import OfflineOptions

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

KEY = "paid-key-123"
AUTH = {"Authorization": f"Service-Auth-Key {KEY}"}
EN = "This is the test and it is fine."
DE = "Das ist der Test und er ist gut."


def _workers() -> set[int]:
    """The engine worker processes of this process (spawned children; not the resource
    tracker)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z" \
                and b"--multiprocessing-fork" in command:
            found.add(int(entry.name))
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def _until_gone(pids: set[int]) -> None:
    deadline = time.monotonic() + 15
    while any(_running(pid) for pid in pids):
        assert time.monotonic() < deadline, f"still running: {pids}"
        await asyncio.sleep(0.05)


def _client(app: object) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app),  # type: ignore[arg-type]
                             base_url=EMBEDDED_BASE_URL, headers=AUTH, timeout=60)


async def _rephrase(client: httpx.AsyncClient, **body: object) -> httpx.Response:
    return await client.post("/v2/write/rephrase", json=body)


async def test_worker_processes_answer_like_threads() -> None:
    before = _workers()
    app = create_app(OfflineOptions(workers=2, preload=True,
                                    known_words=frozenset({"Rephrasely"})))
    service = app.state.offline
    try:
        await asyncio.to_thread(service.start_workers)
        pids = _workers() - before
        assert len(pids) == 2  # both started (and preloaded) before start_workers returned
        async with _client(app) as client:
            texts = [EN, "Rephrasely is is the name.", DE]
            answers = await asyncio.gather(*(_rephrase(client, text=[t]) for t in texts))
            got = [a.json()["improvements"][0] for a in answers]
            assert [g["text"] for g in got] == [
                offline_engine.improve(EN, "en"),
                offline_engine.improve("Rephrasely is is the name.", "en",
                                       known_words=frozenset({"Rephrasely"})),
                offline_engine.improve(DE, "de"),
            ]
            assert [g["detected_source_language"] for g in got] == ["en", "en", "de"]
            # A refusal raised in a worker keeps its status and message.
            refused = await _rephrase(client, text=[EN], target_lang="xx")
            assert refused.status_code == 400
            assert "Value for 'target_lang' not supported" in refused.json()["message"]
            usage = (await client.get("/v2/usage")).json()
            assert usage["character_count"] == sum(len(t) for t in texts)
            assert _workers() - before == pids  # the same two served all
    finally:
        service.close(wait=True)
    await _until_gone(pids)


async def test_a_killed_worker_fails_its_request_and_the_pool_is_replaced() -> None:
    before = _workers()
    app = create_app(OfflineOptions(workers=1))
    service = app.state.offline
    try:
        await asyncio.to_thread(service.start_workers)
        (first,) = _workers() - before
        async with _client(app) as client:
            assert (await _rephrase(client, text=[EN])).status_code == 200
            os.kill(first, signal.SIGKILL)
            await _until_gone({first})
            # The pool is broken: the request it gets answers 500 and says to retry.
            failed = await _rephrase(client, text=[EN])
            assert failed.status_code == 500
            assert "stopped; please retry" in failed.json()["message"]
            assert failed.headers["x-trace-id"]
            # The next request runs in a new pool's process, unharmed.
            answer = await _rephrase(client, text=[EN])
            assert answer.status_code == 200
            assert answer.json()["improvements"][0]["text"] == offline_engine.improve(EN, "en")
            (second,) = _workers() - before
            assert second != first
            usage = (await client.get("/v2/usage")).json()
            assert usage["character_count"] == 2 * len(EN)  # the failed request is not billed
    finally:
        service.close(wait=True)
    await _until_gone({second})
