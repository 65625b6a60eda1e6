"""Benchmark: resolving one paragraph's "Improve" against the offline service on loopback with
200 ms of latency (goal: overhead ≤ 10 ms above the latency, median).

Starts ``rephrase-ls offline-service --port 0 --latency 200 --overlap-latency`` (one engine
worker: a paragraph's engine work, a few ms, runs inside the latency, see
docs/offline-service.md) and ``rephrase-ls``
with ``REPHRASE_API_KEY`` and ``REPHRASE_SERVER_URL`` (the service) set, as a
VS Code-like client (resolves ``edit`` lazily, versioned document changes). A generated Markdown
document is opened; for ``--resolves`` different paragraphs (so the improvement cache never
answers) the bench lists the actions at the paragraph and times ``codeAction/resolve`` of
"Improve". The first ``--warm-up`` resolves (connection, language list, engine data) are not
counted. Overhead = round trip − latency.

Run by hand: ``python bench/bench_resolve.py [--resolves 30] [--latency 200]``. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
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

GOAL_MS = 10.0
KEY = "bench-key"


async def resolve_improve(client: LspClient, uri: str, line: int) -> tuple[float, bool]:
    """Seconds of ``codeAction/resolve`` of the "Improve" action at ``line``; whether it
    carries an edit."""
    actions = await client.code_actions(uri, line, 0)
    improve = next((a for a in actions if a["title"] == "Improve"), None)
    if improve is None:
        raise RuntimeError(f"no 'Improve' action on line {line}: {[a['title'] for a in actions]}")
    started = time.perf_counter()
    resolved = await client.request("codeAction/resolve", improve)
    elapsed = time.perf_counter() - started
    return elapsed, resolved.get("edit") is not None


async def direct_round_trips(url: str, texts: list[str]) -> list[float]:
    """Seconds per rephrase request sent straight to the service (httpx, keep-alive), for the
    share of the overhead that is the service's and HTTP's rather than the language server's."""
    import httpx

    headers = {"Authorization": f"Service-Auth-Key {KEY}"}
    times = []
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as http:
        for index, text in enumerate(texts):
            started = time.perf_counter()
            answer = await http.post(
                "/v2/write/rephrase", json={"text": [text], "target_lang": "en-US"}
            )
            if answer.status_code != 200:
                raise RuntimeError(f"the service answered {answer.status_code}: {answer.text}")
            if index:  # the first opens the connection
                times.append(time.perf_counter() - started)
    return times


def paragraph_text(document_text: str, line: int) -> str:
    """The hard-wrapped paragraph starting at ``line``, unwrapped (what the server sends)."""
    lines = document_text.split("\n")
    end = line
    while end < len(lines) and lines[end]:
        end += 1
    return " ".join(lines[line:end])


async def run(resolves: int, warm_up: int, latency: float, seed: int) -> int:
    document = markdown_document(40_000 + 4_000 * (resolves + warm_up), seed)
    lines = document.paragraph_lines
    if len(lines) < 2 * (resolves + warm_up) + 1:
        raise RuntimeError("the document has too few paragraphs")
    service = offline_service("--latency", f"{latency:g}", "--workers", "1", "--overlap-latency")
    with service as (url, _process), workspace() as root:
        # Different paragraphs of the same shape (the server's own are kept for it).
        tail = lines[warm_up + resolves :] + lines[:warm_up]
        direct = await direct_round_trips(
            url, [paragraph_text(document.text, line) + " Again." for line in tail][: resolves + 1]
        )
        env = server_env(REPHRASE_API_KEY=KEY, REPHRASE_SERVER_URL=url)
        client = await LspClient.start(env=env, cwd=root)
        try:
            await client.initialize(root)
            uri = (root / "doc.md").as_uri()
            client.open(uri, document.text)
            for line in lines[:warm_up]:
                await resolve_improve(client, uri, line)
            times: list[float] = []
            edits = 0
            for line in lines[warm_up : warm_up + resolves]:
                elapsed, has_edit = await resolve_improve(client, uri, line)
                times.append(elapsed)
                edits += has_edit
            errors = [
                p["message"]
                for m, p in client.notifications
                if m == "window/showMessage" and p["type"] <= 2
            ]
        finally:
            await client.close()
    if errors:
        raise RuntimeError(f"the server reported errors: {errors[:3]}")
    overheads = [t - latency / 1000 for t in times]
    median_ms = statistics.median(overheads) * 1000
    print(f"resolve round trip ({resolves} paragraphs, {edits} with edits): {summary(times)}")
    print(f"overhead above the {latency:g} ms latency: {summary(overheads)}")
    service_share = [t - latency / 1000 for t in direct]
    print(
        f"of which the service and HTTP (the same service asked directly with httpx, "
        f"{len(direct)} paragraphs): {summary(service_share)}"
    )
    verdict = "met" if median_ms <= GOAL_MS else "NOT met"
    print(f"median overhead {median_ms:.2f} ms (goal ≤ {GOAL_MS:g} ms): {verdict}")
    print(load_average())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resolves", type=int, default=30)
    parser.add_argument("--warm-up", type=int, default=3)
    parser.add_argument("--latency", type=float, default=200.0, help="ms")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.resolves < 1 or args.warm_up < 0 or args.latency < 0:
        parser.error("--resolves must be ≥ 1, --warm-up and --latency ≥ 0")
    return asyncio.run(run(args.resolves, args.warm_up, args.latency, args.seed))


if __name__ == "__main__":
    raise SystemExit(main())
