"""Benchmark: listing code actions on a 1 MB Markdown document (goal: median round trip ≤ 5 ms).

Starts ``rephrase-ls`` on stdio (embedded offline service: listing never touches the network
anyway), opens a generated ~1 MB Markdown document (headings, hard-wrapped paragraphs, lists,
quotes, code fences, links), waits until the service's language list is loaded (the style and
tone actions appear), then sends ``--requests`` ``textDocument/codeAction`` requests, one at a
time, for empty selections at random positions (prose, code, headings, blank lines) of the same
document version. Prints the first request (which pays for extracting the document's prose
blocks and its line index) and the median, 90th percentile and range of the others.

Run by hand: ``python bench/bench_code_actions.py [--requests 500] [--size 1000000]``. Not a
test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lsp_client import (
    LspClient,
    load_average,
    markdown_document,
    server_env,
    summary,
    workspace,
)

GOAL_MS = 5.0


async def run(requests: int, size: int, seed: int) -> int:
    document = markdown_document(size, seed)
    lines = document.text.split("\n")
    rng = random.Random(seed)
    with workspace() as root:
        client = await LspClient.start(env=server_env(), cwd=root)
        try:
            await client.initialize(root)
            uri = (root / "big.md").as_uri()
            client.open(uri, document.text)
            first_line = document.paragraph_lines[0]

            started = time.perf_counter()
            first = await client.code_actions(uri, first_line, 0)
            cold = time.perf_counter() - started
            if not first:
                raise RuntimeError("no code actions on a prose paragraph")

            # The language list loads in the background; until then only "Improve" is offered.
            deadline = time.monotonic() + 60
            while not any(a["title"].startswith("Improve: ") for a in first):
                if time.monotonic() > deadline:
                    raise TimeoutError("the style actions never appeared")
                await asyncio.sleep(0.05)
                first = await client.code_actions(uri, first_line, 0)

            times: list[float] = []
            counts: list[int] = []
            for _ in range(requests):
                line = rng.randrange(len(lines))
                character = rng.randint(0, len(lines[line]))
                started = time.perf_counter()
                actions = await client.code_actions(uri, line, character)
                times.append(time.perf_counter() - started)
                counts.append(len(actions))
        finally:
            await client.close()

    titles = ", ".join(a["title"] for a in first)
    median_ms = statistics.median(times) * 1000
    p90 = statistics.quantiles(times, n=10)[-1] * 1000
    print(
        f"document: {document.size / 1e6:.2f} MB, {len(lines)} lines, "
        f"{len(document.paragraph_lines)} prose paragraphs"
    )
    print(f"on a paragraph: {len(first)} actions ({titles})")
    print(f"first codeAction (extracts the prose blocks and line index): {cold * 1000:.1f} ms")
    print(
        f"codeAction round trip over {requests} positions: {summary(times)}; p90 {p90:.2f} ms; "
        f"{statistics.mean(counts):.1f} actions on average"
    )
    verdict = "met" if median_ms <= GOAL_MS else "NOT met"
    print(f"median {median_ms:.2f} ms (goal ≤ {GOAL_MS:g} ms): {verdict}; {load_average()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--size", type=int, default=1_000_000, help="bytes of Markdown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.requests < 2 or args.size < 1000:
        parser.error("--requests must be at least 2 and --size at least 1000")
    return asyncio.run(run(args.requests, args.size, args.seed))


if __name__ == "__main__":
    raise SystemExit(main())
