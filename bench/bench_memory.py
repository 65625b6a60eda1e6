"""Benchmark: resident memory of the language server with a 1 MB Markdown document open, after
its offline review, listing code actions and one improvement (goal ≤ 100 MB, VmRSS of
/proc/PID/status, MB of 10^6 bytes).

Two set-ups, each a fresh ``rephrase-ls`` on stdio as a VS Code-like client (pushed
diagnostics):

* ``embedded`` (the default without a key): the offline service runs inside the server, so its
  engine's English word list and the language-detection profiles are in this process too;
* ``service``: ``REPHRASE_API_KEY`` set and ``REPHRASE_SERVER_URL`` pointing at the loopback offline
  service (``rephrase-ls offline-service``), so the server holds the engine only for its offline
  diagnostics.

For each: RSS after ``initialize``; after opening the document and receiving its diagnostics
(the whole document reviewed by the offline engine; skipped with ``--diagnostics off``); after
listing actions at ``--positions`` places; after resolving "Improve" on one paragraph (the
figure judged against the goal); with ``--document``, after "Improve document" as well (which
keeps the whole improved text in the cache). ``peak`` is the process's high-water mark
(VmHWM) at the judged point. The server runs alone: no child process holds any of its work.

``--breakdown`` measures instead, in this process, what each part costs once loaded: the 1 MB
document's prose blocks and line index, the language-detection profiles, each English word list
of the engine, and the offline review of the whole document (its cache and findings): the growth
of VmRSS at each stage after a garbage collection and ``malloc_trim`` and, with ``--trace``, of
the Python heap (``tracemalloc``, which itself inflates VmRSS). It also names the languages whose
lists are loaded.

Run by hand: ``python bench/bench_memory.py [--document] [--diagnostics off]``,
``python bench/bench_memory.py --breakdown [--trace]``. Linux only (/proc). Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lsp_client import (
    LspClient,
    load_average,
    markdown_document,
    offline_service,
    rss_mb,
    server_env,
    workspace,
)

GOAL_MB = 100.0
KEY = "bench-key"


def peak_mb(pid: int) -> float:
    """The process's peak resident memory (``VmHWM``), in MB (10^6 bytes)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024 / 1e6
    raise RuntimeError(f"no VmHWM for process {pid}")


async def measure(
    label: str, env: dict[str, str], root: Path, positions: int, document: bool, diagnostics: str
) -> float:
    doc = markdown_document(1_000_000, 1)
    lines = doc.text.split("\n")
    rng = random.Random(1)
    client = await LspClient.start(env=env, cwd=root)
    client.settings = {"diagnostics": diagnostics}
    try:
        await client.initialize(root)
        figures = [f"initialized {rss_mb(client.pid):.0f}"]
        uri = (root / "big.md").as_uri()
        client.open(uri, doc.text)
        if diagnostics != "off":

            def reviewed() -> bool:
                return any(
                    m == "textDocument/publishDiagnostics" and p["uri"] == uri and p["diagnostics"]
                    for m, p in client.notifications
                )

            await client.wait_for(reviewed, timeout=300, what="the document's diagnostics")
            count = next(
                len(p["diagnostics"])
                for m, p in reversed(client.notifications)
                if m == "textDocument/publishDiagnostics" and p["uri"] == uri
            )
            figures.append(f"reviewed ({count} diagnostics) {rss_mb(client.pid):.0f}")
        # A paragraph in the middle with a doubled word, which the engine always fixes.
        line = next(
            start
            for start in doc.paragraph_lines[len(doc.paragraph_lines) // 2 :]
            if " the the " in " ".join(lines[start : lines.index("", start)])
        )
        actions: list[dict[str, object]] = []
        for _ in range(60):  # until the language list is in (the style actions appear)
            actions = await client.code_actions(uri, line, 0)
            if any(str(a["title"]).startswith("Improve: ") for a in actions):
                break
            await asyncio.sleep(0.1)
        for _ in range(positions):
            index = rng.randrange(len(lines))
            await client.code_actions(uri, index, rng.randint(0, len(lines[index])))
        figures.append(f"actions listed {rss_mb(client.pid):.0f}")
        improve = next(a for a in actions if a["title"] == "Improve")
        resolved = await client.request("codeAction/resolve", improve)
        if resolved.get("edit") is None:
            shown = [p["message"] for m, p in client.notifications if m == "window/showMessage"]
            raise RuntimeError(f"{label}: the improvement gave no edit: {shown[-3:]}")
        after = rss_mb(client.pid)
        figures.append(f"one paragraph improved {after:.0f} (peak {peak_mb(client.pid):.0f})")
        if document:
            whole = await client.code_actions(uri, 0, 0, only=["source"])
            action = next(a for a in whole if a["title"] == "Improve document")
            await client.request("codeAction/resolve", action)
            figures.append(f"whole document improved {rss_mb(client.pid):.0f}")
    finally:
        await client.close()
    verdict = "met" if after <= GOAL_MB else "NOT met"
    print(f"{label}, diagnostics {diagnostics}: RSS MB: {'; '.join(figures)}")
    print(f"{label}, diagnostics {diagnostics}: {after:.0f} MB (goal ≤ {GOAL_MB:g}): {verdict}")
    return after


def breakdown(trace: bool) -> int:
    """Print what each part costs in this process (see the module's docstring)."""
    import gc
    import tracemalloc

    from rephrase_ls.improve.request import document_prose
    from rephrase_ls.memory import release_free_memory
    from rephrase_ls.offline import engine
    from rephrase_ls.offline.engine import lexicon, misspellings, spelling
    from rephrase_ls.review import ReviewCache, findings
    from rephrase_ls.text.positions import LineIndex

    def resident() -> float:
        gc.collect()
        release_free_memory()
        return rss_mb(os.getpid())

    def heap() -> float:
        return tracemalloc.get_traced_memory()[0] / 1e6 if trace else 0.0

    doc = markdown_document(1_000_000, 1)
    if trace:
        tracemalloc.start()
    last = [resident(), heap()]

    def stage(name: str) -> None:
        now = [resident(), heap()]
        shown = f"heap +{now[1] - last[1]:5.1f} MB" if trace else ""
        print(f"{name:48s} RSS +{now[0] - last[0]:5.1f} MB  {shown}")
        last[:] = [now[0], heap()]

    text = doc.text
    blocks = document_prose(text, "markdown", "file:///big.md")
    index = LineIndex(text)
    stage("1 MB document: prose blocks, line index")
    engine.detect_language("This is a plain English sentence about nothing in particular.")
    stage("language-detection profiles (6 languages)")
    spelling.speller("en")
    stage("pyspellchecker's English list (spelling)")
    lexicon.table("en")
    stage("wordfreq's English list (lexicon)")
    misspellings.known_misspellings("en")
    stage("codespell's misspellings")
    engine.improve("Teh colour of the the sky is grey.", "en-us")
    stage("variant lists, the rest of the engine")
    cache = ReviewCache()
    found = findings(text, blocks, target_lang="en-us", cache=cache)
    stage(f"offline review: {len(cache)} paragraphs, {len(found)} findings")
    del found
    stage("the findings dropped")
    loaded = f"spelling {sorted(spelling._spellers)}, wordfreq {sorted(lexicon._tables)}"
    print(f"lists loaded: {loaded}")
    print(f"RSS {resident():.0f} MB in all (this process imports more than the server does)")
    del index
    return 0


async def run(positions: int, document: bool, modes: list[str], diagnostics: str) -> int:
    if "embedded" in modes:
        with workspace() as root:
            await measure("embedded", server_env(), root, positions, document, diagnostics)
    if "service" in modes:
        with offline_service() as (url, _process), workspace() as root:
            env = server_env(REPHRASE_API_KEY=KEY, REPHRASE_SERVER_URL=url)
            await measure("service", env, root, positions, document, diagnostics)
    print(load_average())
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="code action requests")
    parser.add_argument("--document", action="store_true", help="also improve the document")
    parser.add_argument(
        "--mode", choices=["embedded", "service"], action="append", help="default: both"
    )
    parser.add_argument(
        "--diagnostics",
        choices=["offline", "off"],
        default="offline",
        help="the server's diagnostics setting (default: offline, the server's default)",
    )
    parser.add_argument(
        "--breakdown", action="store_true", help="what each part costs, in this process"
    )
    parser.add_argument("--trace", action="store_true", help="with --breakdown: the Python heap")
    args = parser.parse_args(argv)
    if not Path("/proc/self/status").exists():
        parser.error("needs Linux /proc")
    if args.breakdown:
        return breakdown(args.trace)
    modes = args.mode or ["embedded", "service"]
    return asyncio.run(run(args.positions, args.document, modes, args.diagnostics))


if __name__ == "__main__":
    raise SystemExit(main())
