"""Benchmark: "Improve document" on a 1 MB Markdown document through the language server
(goal: wall ≤ 1.2 × the ideal ``ceil(requests / concurrency) × latency``).

Starts ``rephrase-ls offline-service --port 0 --latency 100 --preload --overlap-latency``
(its processing inside its latency, as a real service's; engine workers, one per CPU, with
every language loaded before it listens, as a warm service would be) and
``rephrase-ls`` with ``REPHRASE_API_KEY`` and ``REPHRASE_SERVER_URL`` set and ``maxConcurrency``
in the workspace's ``.rephrase.toml``, as a VS Code-like client. Opens a generated ~1 MB Markdown
document, lists the actions (so the prose is extracted before the clock starts) and times
``codeAction/resolve`` of "Improve document": the requests, rebuilding every paragraph, the word
edits and the JSON answer. The request count comes from the server's work-done progress
(``done/total requests``), checked against the service's usage counter (characters billed =
the prose sent). A warm-up resolve of another document opens the connections first.

Run by hand: ``python bench/bench_document.py [--latency 100] [--concurrency 4]``. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lsp_client import (
    LspClient,
    load_average,
    markdown_document,
    offline_service,
    rss_mb,
    server_env,
    service_process,
    workspace,
)

GOAL = 1.2
KEY = "bench-key"
PROGRESS = re.compile(r"^(\d+)/(\d+) requests$")


def progress_total(notifications: list[tuple[str, Any]], start: int) -> int | None:
    """The request count of the last progress reported from ``notifications[start:]``."""
    total = None
    for method, params in notifications[start:]:
        if method != "$/progress":
            continue
        match = PROGRESS.match(str(params.get("value", {}).get("message", "")))
        if match:
            total = int(match.group(2))
    return total


async def improve_document(client: LspClient, uri: str) -> tuple[float, dict[str, Any]]:
    actions = await client.code_actions(uri, 0, 0, only=["source"])
    action = next((a for a in actions if a["title"] == "Improve document"), None)
    if action is None:
        raise RuntimeError(f"no 'Improve document' action: {[a['title'] for a in actions]}")
    started = time.perf_counter()
    resolved = await client.request("codeAction/resolve", action)
    return time.perf_counter() - started, resolved


def count_edits(resolved: dict[str, Any]) -> int:
    edit = resolved.get("edit") or {}
    return sum(len(change["edits"]) for change in edit.get("documentChanges", [])) + sum(
        len(edits) for edits in (edit.get("changes") or {}).values()
    )


def fake_service(latency: float) -> contextlib.AbstractContextManager[tuple[str, Any]]:
    """``bench/_fake_service.py``: the offline service's lists, a rephrase costing ~no CPU."""
    script = Path(__file__).with_name("_fake_service.py")
    return service_process([sys.executable, str(script), "--latency", f"{latency:g}"])


async def run(size: int, latency: float, concurrency: int, seed: int, backend: str) -> int:
    import httpx

    document = markdown_document(size, seed)
    warm = markdown_document(20_000, seed + 1)
    # --overlap-latency: the service's own processing happens within its latency, as with a
    # real service, so the figure measures the language server, not the offline engine's CPU.
    service = (
        offline_service("--latency", f"{latency:g}", "--preload", "--overlap-latency")
        if backend == "offline"
        else fake_service(latency)
    )
    with service as (url, _process), workspace() as root:
        (root / ".rephrase.toml").write_text(f"maxConcurrency = {concurrency}\n", encoding="utf-8")
        env = server_env(REPHRASE_API_KEY=KEY, REPHRASE_SERVER_URL=url)
        client = await LspClient.start(env=env, cwd=root)
        try:
            await client.initialize(root)
            warm_uri = (root / "warm.md").as_uri()
            client.open(warm_uri, warm.text)
            await improve_document(client, warm_uri)

            async with httpx.AsyncClient(
                base_url=url, headers={"Authorization": f"Service-Auth-Key {KEY}"}
            ) as http:
                billed_before = (await http.get("/v2/usage")).json()["character_count"]
                uri = (root / "big.md").as_uri()
                client.open(uri, document.text)
                await client.code_actions(uri, document.paragraph_lines[0], 0)  # extract prose
                mark = len(client.notifications)
                wall, resolved = await improve_document(client, uri)
                billed = (await http.get("/v2/usage")).json()["character_count"] - billed_before
            requests = progress_total(client.notifications, mark)
            rss = rss_mb(client.pid)
            errors = [
                p["message"]
                for m, p in client.notifications[mark:]
                if m == "window/showMessage" and p["type"] <= 2
            ]
        finally:
            await client.close()
    if errors:
        raise RuntimeError(f"the server reported errors: {errors[:3]}")
    if requests is None:
        raise RuntimeError("no work-done progress with the request count")
    edits = count_edits(resolved)
    if not edits:
        raise RuntimeError("the improvement produced no edit")
    ideal = math.ceil(requests / concurrency) * latency / 1000
    ratio = wall / ideal
    print(
        f"document: {document.size / 1e6:.2f} MB, {len(document.paragraph_lines)} prose "
        f"paragraphs; {billed / 1e6:.2f} M characters of prose billed by the service"
    )
    print(
        f"Improve document: {requests} requests, concurrency {concurrency}, latency "
        f"{latency:g} ms: wall {wall:.2f} s, ideal {ideal:.2f} s; {edits} edits; server RSS "
        f"after: {rss:.0f} MB"
    )
    verdict = "met" if ratio <= GOAL else "NOT met"
    print(f"ratio {ratio:.3f} (goal ≤ {GOAL}): {verdict}; {load_average()}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="bytes of Markdown")
    parser.add_argument("--latency", type=float, default=100.0, help="ms")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--backend",
        choices=["offline", "fake"],
        default="offline",
        help="the offline service (its engine shares the 2 cores with the server), or "
        "bench/_fake_service.py (a rephrase costing ~no CPU: the server's own figure)",
    )
    args = parser.parse_args(argv)
    if args.latency <= 0 or args.concurrency < 1 or args.size < 10_000:
        parser.error("--latency must be > 0, --concurrency ≥ 1, --size ≥ 10000")
    return asyncio.run(run(args.size, args.latency, args.concurrency, args.seed, args.backend))


if __name__ == "__main__":
    raise SystemExit(main())
