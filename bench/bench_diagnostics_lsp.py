"""Benchmark: review-mode diagnostics through the language server, and code actions while they
are computed (goal: code-action latency unchanged while diagnostics compute).

Starts ``rephrase-ls`` on stdio as a client that is pushed diagnostics, opens a generated
~200 KB Markdown document (bench/_lsp_client.markdown_document), and waits for its first
``publishDiagnostics`` (the whole document reviewed: the engine's word lists load, every
paragraph is improved). Then ``--edits`` times: one word of a random prose paragraph is
replaced (the whole text sent, as a new version), and ``textDocument/codeAction`` requests are
sent one after another, at random positions, for ``--window`` seconds. Printed:

- the time from each edit to the diagnostics of its version (it includes the debounce,
  ``lsp.diagnostics.DEBOUNCE``), and that time less the debounce;
- the code-action round trips sent after the debounce and before the diagnostics arrived (the
  ones that run while the review computes), and all of them;
- the same code-action round trips with ``diagnostics: off`` (same edits, same positions): the
  baseline.

Run by hand: ``python bench/bench_diagnostics_lsp.py [--size 200000] [--edits 20]
[--window 1.0] [--seed 1]``. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lsp_client import LspClient, load_average, markdown_document, server_env, summary, workspace
from rephrase_ls.lsp.diagnostics import DEBOUNCE

_WORD = re.compile(r"\b[a-z]{4,}\b")


def edits(text: str, count: int, seed: int) -> list[str]:
    """``count`` successive texts, each with one more prose word replaced (a misspelling: its
    two middle letters swapped)."""
    rng = random.Random(seed)
    out = []
    prose = [m for m in _WORD.finditer(text) if not text[: m.start()].endswith(("`", "/"))]
    for _ in range(count):
        match = rng.choice(prose)
        word = match.group(0)
        middle = len(word) // 2
        wrong = word[: middle - 1] + word[middle] + word[middle - 1] + word[middle + 1 :]
        text = text[: match.start()] + wrong + text[match.end() :]
        prose = [m for m in _WORD.finditer(text) if not text[: m.start()].endswith(("`", "/"))]
        out.append(text)
    return out


async def session(
    mode: str, text: str, texts: list[str], window: float, seed: int
) -> dict[str, Any]:
    """One server: the first review, then each edit with code actions for ``window`` seconds."""
    rng = random.Random(seed)
    lines = text.split("\n")
    published: dict[int, float] = {}
    result: dict[str, Any] = {"first": None, "to_diagnostics": [], "during": [], "all": []}
    with workspace() as root:
        client = await LspClient.start(env=server_env(), cwd=root)

        def seen(method: str, params: Any) -> None:
            if method == "textDocument/publishDiagnostics" and params.get("version"):
                published.setdefault(params["version"], time.perf_counter())

        client.on_notification = seen
        client.settings = {"diagnostics": mode}
        try:
            await client.initialize(root)
            uri = (root / "big.md").as_uri()
            started = time.perf_counter()
            client.open(uri, text)
            await client.code_actions(uri, 0, 0)
            if mode == "offline":
                await client.wait_for(lambda: 1 in published, 120, "the first diagnostics")
                result["first"] = published[1] - started
            for version, new in enumerate(texts, start=2):
                client.notify(
                    "textDocument/didChange",
                    {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [{"text": new}],
                    },
                )
                edited = time.perf_counter()
                while time.perf_counter() - edited < window:
                    line = rng.randrange(len(lines))
                    sent = time.perf_counter()
                    await client.code_actions(uri, line, 0)
                    took = time.perf_counter() - sent
                    result["all"].append(took)
                    done = published.get(version, float("inf"))
                    if sent - edited >= DEBOUNCE and sent < done:
                        result["during"].append(took)
                if mode == "offline":
                    await client.wait_for(lambda v=version: v in published, 60, "diagnostics")  # type: ignore[misc]
                    result["to_diagnostics"].append(published[version] - edited)
        finally:
            await client.close()
    return result


def figures(values: list[float]) -> str:
    p90 = statistics.quantiles(values, n=10)[-1] * 1000 if len(values) > 1 else values[0] * 1000
    return f"{summary(values)}, p90 {p90:.2f} ms"


async def run(size: int, count: int, window: float, seed: int) -> int:
    document = markdown_document(size, seed)
    texts = edits(document.text, count, seed)
    on = await session("offline", document.text, texts, window, seed)
    off = await session("off", document.text, texts, window, seed)
    print(f"document: {document.size / 1e3:.0f} KB Markdown, {count} one-word edits")
    print(f"first diagnostics after opening: {on['first'] * 1000:.0f} ms")
    to_diag = on["to_diagnostics"]
    print(f"edit → diagnostics of its version: {summary(to_diag)}")
    less = [t - DEBOUNCE for t in to_diag]
    print(f"  less the {DEBOUNCE * 1000:.0f} ms debounce: {summary(less)}")
    if on["during"]:
        print(f"codeAction while diagnostics compute: {figures(on['during'])}")
    print(f"codeAction after each edit, diagnostics offline: {figures(on['all'])}")
    print(f"codeAction after each edit, diagnostics off (baseline): {figures(off['all'])}")
    during = statistics.median(on["during"]) if on["during"] else statistics.median(on["all"])
    print(
        f"median codeAction: {during * 1000:.2f} ms while computing vs "
        f"{statistics.median(off['all']) * 1000:.2f} ms with diagnostics off; {load_average()}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000, help="bytes of Markdown")
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--window", type=float, default=1.0, help="seconds of code actions")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.edits < 1 or args.size < 1000 or args.window <= DEBOUNCE:
        parser.error("--edits ≥ 1, --size ≥ 1000 and --window > the debounce")
    return asyncio.run(run(args.size, args.edits, args.window, args.seed))


if __name__ == "__main__":
    raise SystemExit(main())
