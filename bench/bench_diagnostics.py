"""Benchmark: offline findings for a 200 KB Markdown document (budget: ≤ 100 ms of CPU after an
edit, the work a diagnostics run does once the debounce has passed).

The document is the generated English Markdown of bench/bench_code_actions.py (headings,
hard-wrapped paragraphs with slips the offline engine fixes, lists, quotes, code fences, links,
inline code). Figures, in CPU time of this process (``time.process_time``):

- cold: the first :func:`rephrase_ls.review.findings` call of the process (the engine loads its
  word lists), then a call with an empty cache and the lists loaded;
- the engine's correction data, which it loads on the first misspelling it corrects (once per
  process; taken before the edits so that they show the steady state);
- after a one-word edit: ``--edits`` times, one word of a random prose paragraph is replaced
  (a misspelling written, or a word changed), the prose blocks of the new text extracted
  (``prose_blocks``, the markup's cache of recent documents missing it) and the findings
  computed with the cache of the calls before; median and worst of the sum, and of each part.
  The budget is checked on the median: on a machine shared with other work a single edit can
  take longer (a garbage collection of the whole process lands in it now and then).

With ``--keep-variant`` the findings are asked as the server asks them for a document whose
variant was detected (``keep_variant``, ``variant_detected``: a plain Improve's, see
:func:`rephrase_ls.review.review_mode`), so the guard of the document's variant spellings runs
on every paragraph with a variant finding.

Run by hand: ``python bench/bench_diagnostics.py [--size 200000] [--edits 30] [--seed 1]
[--keep-variant]``. Not a test.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _lsp_client import load_average, markdown_document
from rephrase_ls.offline import engine
from rephrase_ls.review import ReviewCache, findings
from rephrase_ls.text.markup import prose_blocks

BUDGET_MS = 100.0
# what an edit writes in place of a word: slips the engine fixes, and plain words
_WORD = re.compile(r"[A-Za-z]{3,}")
_REPLACEMENTS = ("teh", "recieved", "colour", "the the", "project", "quickly", "Its")


def _cpu_ms(started: float) -> float:
    return (time.process_time() - started) * 1000


def _edit(text: str, rng: random.Random, paragraphs: list[tuple[int, int]]) -> str:
    """``text`` with one word of a random prose paragraph replaced."""
    while True:
        start, end = rng.choice(paragraphs)
        words = list(_WORD.finditer(text, start, end))
        if words:
            word = rng.choice(words)
            return text[: word.start()] + rng.choice(_REPLACEMENTS) + text[word.end() :]


def run(size: int, edits: int, seed: int, keep_variant: bool = False) -> int:
    text = markdown_document(size, seed).text
    variant = {"keep_variant": keep_variant, "variant_detected": keep_variant}
    rng = random.Random(seed)
    blocks = prose_blocks(text, "markdown")
    started = time.process_time()
    first = findings(text, blocks, target_lang="en-US", cache=ReviewCache(), **variant)
    first_ms = _cpu_ms(started)
    cache = ReviewCache()
    started = time.process_time()
    found = findings(text, blocks, target_lang="en-US", cache=cache, **variant)
    cold_ms = _cpu_ms(started)
    assert found == first
    paragraphs = cache.engine_runs
    codes: dict[str, int] = {}
    for finding in found:
        codes[finding.code] = codes.get(finding.code, 0) + 1

    # The engine loads what it corrects misspellings with on the first misspelling of the
    # process (a server pays it once, on its first review with a slip): paid here, and shown.
    started = time.process_time()
    engine.improve("We " + " and ".join(_REPLACEMENTS) + " went.", "en-us")
    warm_ms = _cpu_ms(started)

    blocks_ms: list[float] = []
    findings_ms: list[float] = []
    totals: list[float] = []
    recomputed: list[int] = []
    for _ in range(edits):
        spans = [(b.start, b.end) for b in blocks if b.end - b.start > 80]
        text = _edit(text, rng, spans)
        runs_before = cache.engine_runs
        started = time.process_time()
        blocks = prose_blocks(text, "markdown")
        parsed = time.process_time()
        findings(text, blocks, target_lang="en-US", cache=cache, **variant)
        done = time.process_time()
        blocks_ms.append((parsed - started) * 1000)
        findings_ms.append((done - parsed) * 1000)
        totals.append((done - started) * 1000)
        recomputed.append(cache.engine_runs - runs_before)

    def stat(values: list[float]) -> str:
        return f"median {statistics.median(values):.1f} ms, worst {max(values):.1f} ms"

    print(
        f"document: {len(text) / 1000:.0f} KB of Markdown, {len(blocks)} prose blocks, "
        f"{paragraphs} paragraphs improved cold"
    )
    print(f"findings: {len(found)} ({', '.join(f'{k} {v}' for k, v in sorted(codes.items()))})")
    print(f"cold, first call of the process (engine lists load): {first_ms:.0f} ms CPU")
    print(f"cold, empty cache, lists loaded: {cold_ms:.0f} ms CPU")
    print(f"the engine's correction data, loaded on the first misspelling: {warm_ms:.0f} ms CPU")
    print(
        f"after a one-word edit ({edits} edits): blocks {stat(blocks_ms)}; "
        f"findings {stat(findings_ms)}; paragraphs improved again: "
        f"{statistics.mean(recomputed):.1f} on average, at most {max(recomputed)}"
    )
    median = statistics.median(totals)
    verdict = "met" if median <= BUDGET_MS else "NOT met"
    print(
        f"after an edit, blocks + findings: {stat(totals)} "
        f"(budget ≤ {BUDGET_MS:g} ms for the median: {verdict}); {load_average()}"
    )
    return 0 if median <= BUDGET_MS else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=200_000, help="bytes of Markdown")
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--keep-variant", action="store_true", help="as for a document whose variant was detected"
    )
    args = parser.parse_args(argv)
    if args.edits < 1 or args.size < 1000:
        parser.error("--edits must be at least 1 and --size at least 1000")
    return run(args.size, args.edits, args.seed, args.keep_variant)


if __name__ == "__main__":
    raise SystemExit(main())
