"""The offline service's worker pool (``rephrase_ls.offline.workers``) with real processes.

Jobs are stdlib functions, so that the spawned workers can unpickle them by reference.
"""

from __future__ import annotations

import asyncio
import operator
import os
import signal
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from rephrase_ls.offline.workers import PoolClosed, WorkerDied, WorkerPool


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie counts: its sockets are closed)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def _wait_gone(pid: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not _gone(pid):
        assert time.monotonic() < deadline, f"process {pid} is still running"
        await asyncio.sleep(0.02)


@pytest.fixture
async def one() -> AsyncIterator[WorkerPool]:
    pool = WorkerPool(1)
    await asyncio.to_thread(pool.start, 60)
    try:
        yield pool
    finally:
        pool.close(wait=True)


async def test_jobs_answer_in_the_worker_with_results_and_errors(one: WorkerPool) -> None:
    assert await one.run(operator.add, 1, 2) == 3
    assert await one.run(os.getpid) == one.pids[0] != os.getpid()
    with pytest.raises(ValueError, match="invalid literal"):
        await one.run(int, "x")
    # Messages far larger than a socket buffer go both ways whole.
    big = "é" * 400_000
    assert await one.run(len, big) == 400_000
    assert await one.run(operator.mul, "ab", 300_000) == "ab" * 300_000


async def test_an_answer_that_cannot_be_pickled_is_an_error(one: WorkerPool) -> None:
    with pytest.raises(RuntimeError, match="cannot be sent back"):
        await one.run(threading.Lock)
    assert await one.run(operator.add, 2, 2) == 4  # the worker is still usable


async def test_a_worker_that_dies_during_a_job_fails_it_and_is_replaced(one: WorkerPool) -> None:
    first = one.pids[0]
    with pytest.raises(WorkerDied, match="replaced"):
        await one.run(os._exit, 3)
    second = await one.run(os.getpid)
    assert second != first
    assert one.pids == [second]


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
async def test_a_job_for_a_worker_found_dead_goes_to_its_replacement(one: WorkerPool) -> None:
    dead = one.pids[0]
    os.kill(dead, signal.SIGKILL)
    await _wait_gone(dead)
    # The job never reached the dead worker, so it runs on the replacement: no error.
    assert await one.run(operator.add, 20, 22) == 42
    assert dead not in one.pids and len(one.pids) == 1


async def test_a_cancelled_caller_leaves_the_worker_in_step(one: WorkerPool) -> None:
    pid = one.pids[0]
    slow = asyncio.ensure_future(one.run(time.sleep, 0.5))
    await asyncio.sleep(0.1)
    slow.cancel()
    with pytest.raises(asyncio.CancelledError):
        await slow
    # The abandoned answer (None) is read and dropped; the next caller gets its own answer
    # from the same worker.
    assert await one.run(operator.add, 1, 2) == 3
    assert await one.run(os.getpid) == pid


async def test_jobs_wait_for_a_free_worker_in_turn() -> None:
    pool = WorkerPool(2)  # started on first use
    try:
        pids = await asyncio.gather(*(pool.run(os.getpid) for _ in range(6)))
        assert len(set(pids)) <= 2 and os.getpid() not in pids
        assert sorted(set(pool.pids)) == sorted(pool.pids) and len(pool.pids) == 2
        answers = await asyncio.gather(*(pool.run(operator.mul, i, i) for i in range(20)))
        assert answers == [i * i for i in range(20)]
    finally:
        pool.close(wait=True)


async def test_closing_fails_running_and_waiting_jobs_and_ends_the_workers() -> None:
    pool = WorkerPool(1)
    await asyncio.to_thread(pool.start, 60)
    pid = pool.pids[0]
    running = asyncio.ensure_future(pool.run(time.sleep, 30))
    waiting = asyncio.ensure_future(pool.run(operator.add, 1, 1))
    await asyncio.sleep(0.2)
    pool.close(wait=True)
    with pytest.raises(PoolClosed):
        await running
    with pytest.raises(PoolClosed):
        await waiting
    assert _gone(pid)
    with pytest.raises(PoolClosed):
        await pool.run(operator.add, 1, 1)


def test_a_worker_that_cannot_start_is_reported() -> None:
    pool = WorkerPool(1, os._exit, (1,))
    with pytest.raises(WorkerDied, match="while it started"):
        pool.start(60)
    with pytest.raises(PoolClosed):
        pool.start(60)


def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="at least one"):
        WorkerPool(0)
