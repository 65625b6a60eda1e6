"""Benchmark: ``rephrase.alternatives`` for one paragraph against the offline service on
loopback with 200 ms of latency (goal: wall time ≈ one service round trip, ratio ≤ 1.5, when
``maxConcurrency`` covers every style and tone: the requests go out in parallel).

Starts ``rephrase-ls offline-service --port 0 --latency 200 --overlap-latency --workers 1`` and
``rephrase-ls`` with ``REPHRASE_API_KEY`` and ``REPHRASE_SERVER_URL`` (the service) set, as a
VS Code-like client. A generated Markdown document is opened. One round trip is the
``codeAction/resolve`` of "Improve" on a paragraph (one request, as in bench_resolve.py); the
alternatives are the command on other paragraphs (so the improvement cache never answers),
English, so four writing styles and four tones: eight requests. Each ``maxConcurrency`` given is
measured in its own server; with fewer slots than requests the goal is that many waves
(⌈8 / maxConcurrency⌉ round trips). The first ``--warm-up`` paragraphs are not counted.

Run by hand: ``python bench/bench_alternatives.py [--runs 10] [--latency 200]
[--concurrency 8 4]``. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lsp_client import (
    LspClient,
    load_average,
    markdown_document,
    offline_service,
    server_env,
    summary,
    workspace,
)

KEY = "bench-key"
REQUESTS = 8  # four writing styles and four tones for English
SLACK = 1.5


async def one_round_trip(client: LspClient, uri: str, line: int) -> float:
    """Seconds of resolving "Improve" at ``line`` (one request to the service)."""
    actions = await client.code_actions(uri, line, 0)
    improve = next((a for a in actions if a["title"] == "Improve"), None)
    if improve is None:
        raise RuntimeError(f"no 'Improve' action on line {line}: {[a['title'] for a in actions]}")
    started = time.perf_counter()
    await client.request("codeAction/resolve", improve)  # with or without edits: one request
    return time.perf_counter() - started


async def alternatives(client: LspClient, uri: str, line: int) -> tuple[float, int]:
    """Seconds of ``rephrase.alternatives`` at ``line``; how many requests it answered."""
    cursor = {"line": line, "character": 0}
    started = time.perf_counter()
    result = await client.request(
        "workspace/executeCommand",
        {
            "command": "rephrase.alternatives",
            "arguments": [uri, {"start": cursor, "end": cursor}],
        },
    )
    elapsed = time.perf_counter() - started
    reason = result.get("reason")
    if reason and "no alternative differs" in reason:
        return elapsed, REQUESTS  # every request answered, none changed the paragraph
    if reason or result.get("failed"):
        raise RuntimeError(f"alternatives on line {line}: {reason or result['failed']}")
    answered = len(result["alternatives"]) + len(result["unchanged"])
    if answered != REQUESTS:
        raise RuntimeError(f"alternatives on line {line}: {answered} of {REQUESTS} answered")
    return elapsed, answered


async def measure(
    url: str, lines: list[int], text: str, concurrency: int, runs: int, warm_up: int
) -> tuple[list[float], list[float]]:
    """Round trips and alternatives' wall times in one server with ``maxConcurrency``."""
    with workspace() as root:
        env = server_env(REPHRASE_API_KEY=KEY, REPHRASE_SERVER_URL=url)
        client = await LspClient.start(env=env, cwd=root)
        client.settings = {"maxConcurrency": concurrency}
        try:
            await client.initialize(root)
            uri = (root / "doc.md").as_uri()
            client.open(uri, text)
            singles: list[float] = []
            walls: list[float] = []
            for index in range(warm_up + runs):
                single = await one_round_trip(client, uri, lines[2 * index])
                wall, _ = await alternatives(client, uri, lines[2 * index + 1])
                if index >= warm_up:
                    singles.append(single)
                    walls.append(wall)
        finally:
            await client.close()
    return singles, walls


async def run(runs: int, warm_up: int, latency: float, concurrencies: list[int], seed: int) -> int:
    needed = 2 * (runs + warm_up) * len(concurrencies) + 1
    document = markdown_document(8_000 * needed, seed)
    lines = document.paragraph_lines
    if len(lines) < needed:
        raise RuntimeError("the document has too few paragraphs")
    service = offline_service("--latency", f"{latency:g}", "--workers", "1", "--overlap-latency")
    with service as (url, _process):
        for number, concurrency in enumerate(concurrencies):
            share = len(lines) // len(concurrencies)
            mine = lines[number * share : (number + 1) * share]
            singles, walls = await measure(url, mine, document.text, concurrency, runs, warm_up)
            one = statistics.median(singles)
            ratio = statistics.median(walls) / one
            waves = math.ceil(REQUESTS / concurrency)
            goal = waves * SLACK
            verdict = "met" if ratio <= goal else "NOT met"
            print(f"maxConcurrency {concurrency} ({REQUESTS} requests, {waves} wave(s)):")
            print(
                f"  one round trip (resolve 'Improve', {len(singles)} paragraphs): "
                f"{summary(singles)}"
            )
            print(f"  alternatives ({len(walls)} paragraphs): {summary(walls)}")
            print(f"  wall time / one round trip: {ratio:.2f} (goal ≤ {goal:g}): {verdict}")
    print(load_average())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--warm-up", type=int, default=2)
    parser.add_argument("--latency", type=float, default=200.0, help="ms")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8, 4])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.runs < 1 or args.warm_up < 0 or args.latency <= 0:
        parser.error("--runs must be ≥ 1, --warm-up ≥ 0, --latency > 0")
    if any(not 1 <= c <= 16 for c in args.concurrency):
        parser.error("--concurrency values must be from 1 to 16")
    return asyncio.run(run(args.runs, args.warm_up, args.latency, args.concurrency, args.seed))


if __name__ == "__main__":
    raise SystemExit(main())
