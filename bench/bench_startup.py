"""Benchmark: language server start-up, spawn → ``initialize`` result, against a minimal pygls 2
server measured in the same run (goal: ratio ≤ 1.5).

The minimal server is a three-line pygls script this bench writes to a temporary file. Both are
started alternately (``--runs`` times each), each as ``python …`` on stdio, timed from just before
the spawn to the ``initialize`` result; each run then shuts the server down. The figure is the
ratio of the medians, with the range of the ratios of consecutive pairs; the same for the CPU
time each server used until its ``initialize`` result (/proc, Linux), which a busy machine
disturbs less than wall time.

Run by hand: ``python bench/bench_startup.py [--runs 15]``. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lsp_client import SERVER, LspClient, load_average, server_env, summary

GOAL = 1.5

MINIMAL = """\
from pygls.lsp.server import LanguageServer

LanguageServer("minimal", "v1").start_io()
"""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (/proc/PID/stat, clock ticks)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def time_start(command: list[str], root: Path) -> tuple[float, float]:
    """Seconds from spawning ``command`` to its ``initialize`` result, and the CPU seconds the
    server used until then (steadier than wall time on a busy machine)."""
    started = time.perf_counter()
    client = await LspClient.start(command, env=server_env(), cwd=root)
    try:
        result = await client.initialize(root)
        elapsed = time.perf_counter() - started
        cpu = cpu_seconds(client.pid)
        if "capabilities" not in result:
            raise RuntimeError(f"{command}: no capabilities in the initialize result")
    finally:
        await client.close()
    return elapsed, cpu


async def run(runs: int) -> int:
    with tempfile.TemporaryDirectory(prefix="rephrase-bench-") as tmp:
        root = Path(tmp)
        script = root / "minimal_server.py"
        script.write_text(MINIMAL, encoding="utf-8")
        minimal = [sys.executable, str(script)]
        # One of each first, unmeasured: the OS caches the files both import.
        await time_start(SERVER, root)
        await time_start(minimal, root)
        ours: list[tuple[float, float]] = []
        theirs: list[tuple[float, float]] = []
        for index in range(runs):
            # Alternate which goes first, so neither always follows the other.
            if index % 2:
                theirs.append(await time_start(minimal, root))
                ours.append(await time_start(SERVER, root))
            else:
                ours.append(await time_start(SERVER, root))
                theirs.append(await time_start(minimal, root))
    for label, column in (("wall", 0), ("CPU", 1)):
        mine = [o[column] for o in ours]
        base = [t[column] for t in theirs]
        pairs = sorted(o / t for o, t in zip(mine, base, strict=True) if t > 0)
        ratio = statistics.median(mine) / statistics.median(base)
        print(f"{label}: rephrase-ls {summary(mine)}; minimal pygls server {summary(base)}")
        print(
            f"{label}: start-up ratio {ratio:.3f} (goal ≤ {GOAL}); pairwise ratios median "
            f"{statistics.median(pairs):.3f}, range {pairs[0]:.3f}–{pairs[-1]:.3f}"
        )
    print(load_average())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="starts of each server")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    return asyncio.run(run(args.runs))


if __name__ == "__main__":
    raise SystemExit(main())
