"""Benchmark: one job's round trip to an engine worker process, the offline service's pool
(``rephrase_ls.offline.workers.WorkerPool``) against ``concurrent.futures.ProcessPoolExecutor``.

The job carries what a 10 KiB rephrase request carries (ten ~1 KB texts) and does almost no
work, so the time is the hand-over: pickling, the pipe or socket, waking the worker, waking the
event loop. Measured back to back, and after an idle gap (``--gap``, default 20 ms), as in the
loopback bench where every request first sleeps its latency and the processes go cold.

Run by hand: ``python bench/bench_workers.py``. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import statistics
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rephrase_ls.offline.workers import WorkerPool

SENTENCE = "The committee reviewed the proposal and asked for a clearer budget. "
FIELDS = {"text": [SENTENCE * 15] * 10}


def job(fields: dict[str, Any]) -> list[dict[str, str]]:
    """An answer shaped like the service's improvements, with no engine work."""
    return [{"text": text} for text in fields["text"]]


async def round_trips(
    call: Callable[[], Awaitable[Any]], count: int, gap: float
) -> tuple[float, float]:
    """Median and mean milliseconds of ``count`` calls, ``gap`` seconds apart."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        await call()
        times.append((time.perf_counter() - started) * 1e3)
        if gap:
            await asyncio.sleep(gap)
    return statistics.median(times), statistics.mean(times)


async def run(count: int, gap: float, rounds: int) -> None:
    loop = asyncio.get_running_loop()
    executor = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
    pool = WorkerPool(2)
    try:
        await asyncio.gather(*(loop.run_in_executor(executor, job, FIELDS) for _ in range(4)))
        await asyncio.to_thread(pool.start)

        def via_executor() -> Awaitable[Any]:
            return loop.run_in_executor(executor, job, FIELDS)

        def via_pool() -> Awaitable[Any]:
            return pool.run(job, FIELDS)

        for pause in (0.0, gap):
            for _ in range(rounds):
                old = await round_trips(via_executor, count, pause)
                new = await round_trips(via_pool, count, pause)
                print(
                    f"gap {pause * 1e3:4.0f} ms: ProcessPoolExecutor median {old[0]:.3f} mean "
                    f"{old[1]:.3f} ms | WorkerPool median {new[0]:.3f} mean {new[1]:.3f} ms"
                )
    finally:
        executor.shutdown()
        pool.close(wait=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="round trips per measurement")
    parser.add_argument("--gap", type=float, default=20.0, help="idle gap between jobs, ms")
    parser.add_argument("--rounds", type=int, default=2, help="measurements per gap")
    args = parser.parse_args(argv)
    asyncio.run(run(args.count, args.gap / 1000, args.rounds))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
