"""Benchmark of hostile input: what a pathological 10 KB text costs, relative to 10 KB of prose.

Usage: ``python bench/bench_hostile.py [--size 10240] [--growth 8] [--repeat 3] [--only WORD]``

Budget: every pass costs at most a few times (5x) what the same pass costs on prose of the same
size, and grows linearly with the input.

For each generator of bench/_hostile_inputs.py (runs of one mark, alternations, very long words,
many spaces, digits, URL and address pieces, quotes without their closing marks, mixed scripts,
shuffled mixes), a text of ``--size`` characters is put through:

- ``en``: what the offline service does with a request for en-US: ``detect_language`` on the
  first 3,000 characters (its sample), then ``improve``; relative to the same on 10 KB of en-US
  prose (the labelled sentences of tests/data/engine);
- ``other``: the same for de (business style), fr, pt-PT and en-GB (diplomatic tone), each
  relative to that target's pass over its own prose; the largest ratio;
- ``edits``: one answer as the language server and the CLI meet it: the engine's improvement
  (en-US) and the word edits from the text to it (``text.diff.word_edits``, the alignment every
  answer goes through in the guards, the layout and review findings), relative to the same on
  prose (the edits alone cost a few milliseconds on 10 KB of prose, which the engine changes
  little, where a ratio would be noise);
- ``review``: review mode's offline findings for the text read as Markdown (the engine per
  paragraph, rebuilding, change groups, their classification, the guards), relative to the same
  on prose;
- ``answer``: Improve of the text read as Markdown, the service's answers being the engine's
  (en-US): each paragraph improved, rebuilt from its answer (placeholders, layout) and put
  through the document's guards, then the edits (``improve_paragraphs``, ``Outcome.edits``),
  relative to the same on prose;
- ``markup``: the language server's prose extractors (Markdown, LaTeX, reST, plain text, commit
  messages, Python comments, AsciiDoc, Org, Typst, HTML), each relative to the same extractor on
  the en-US prose, but never to less than 1 ms (the Markdown budget's share for 10 KB: plain text
  and Markdown read 10 KB of prose in a fraction of a millisecond, where ratios are noise); the
  largest ratio.

Each figure is the best of ``--repeat`` runs in CPU time of one core (``time.process_time``).
``growth`` is the cost of a ``--growth`` times longer text over the cost of this one, for the
slowest pass: about ``--growth`` (8) for a linear pass, its square (64) for a quadratic one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _hostile_inputs import GENERATORS, prose
from rephrase_ls.improve.options import Mode
from rephrase_ls.improve.round_trip import ImprovementCache, improve_paragraphs, without_directives
from rephrase_ls.offline.engine import detect_language, improve
from rephrase_ls.review import findings
from rephrase_ls.text.diff import word_edits
from rephrase_ls.text.markup import load_builtin_formats, prose_blocks
from rephrase_ls.text.paragraphs import select_paragraphs

BUDGET = 5.0
TARGETS: tuple[tuple[str, dict[str, str]], ...] = (
    ("en-us", {}), ("de", {"writing_style": "business"}), ("fr", {}), ("pt-pt", {}),
    ("en-gb", {"tone": "diplomatic"}),
)
MARKUP_FLOOR = 0.001
"""Seconds: the Markdown budget's share for 10 KB (1 MB in 100 ms, docs/performance.md), the
least a format's prose figure counts as (the plain-text and Markdown extractors read 10 KB of
prose in well under a millisecond, where ratios are noise)."""
FORMATS = (
    "markdown", "latex", "restructuredtext", "plaintext", "git-commit", "python", "asciidoc", "org",
    "typst", "html",
)  # fmt: skip
#: The language server's passes over an answer (see the module's doc).
LS_PASSES = ("edits", "review", "answer")


def _extract(text: str, fmt: str) -> None:
    with contextlib.suppress(ValueError):  # LaTeX nested too deeply: refused, at that cost
        prose_blocks(text, fmt)


def _best(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return max(best, 1e-6)


def _engine(text: str, target: str, kwargs: dict[str, str]) -> None:
    """What the offline service does with one text: detect its language on the first 3,000
    characters (the service's sample), then improve it."""
    detect_language(text[:3000])
    improve(text, target, **kwargs)


class _Answered:
    """A backend whose every answer is already in the cache (only its key is read)."""

    cache_key = "bench"


def _answer(text: str, repeat: int) -> float:
    """CPU seconds of Improve's work on the answers for ``text`` (see the module's doc)."""
    blocks = without_directives(text, prose_blocks(text, "markdown"))
    paragraphs = select_paragraphs(text, 0, len(text), blocks)
    mode = Mode("en-US")

    def run() -> None:
        cache = ImprovementCache()
        for paragraph in paragraphs:
            cache.put("bench", paragraph.prose, mode, improve(paragraph.prose, "en-us"), "EN")
        answered: Any = _Answered()
        outcome = asyncio.run(
            improve_paragraphs(answered, text, paragraphs, mode, cache, blocks=blocks)
        )
        outcome.edits(text)

    return _best(run, repeat)


def _one_pass(text: str, name: str, repeat: int) -> float:
    """CPU seconds of the pass ``name`` (a target, a format, or one of :data:`LS_PASSES`)
    over ``text``."""
    if name == "edits":
        return _best(lambda: word_edits(text, improve(text, "en-us")), repeat)
    if name == "review":
        blocks = prose_blocks(text, "markdown")
        return _best(lambda: findings(text, blocks, target_lang="en-US"), repeat)
    if name == "answer":
        return _answer(text, repeat)
    if name in FORMATS:
        return _best(lambda: _extract(text, name), repeat)
    kwargs = dict(TARGETS)[name]
    return _best(lambda: _engine(text, name, kwargs), repeat)


def passes(text: str, repeat: int) -> dict[str, float]:
    """CPU seconds of each pass over ``text``: one per target, one per format."""
    return {name: _one_pass(text, name, repeat)
            for name in (*dict(TARGETS), *LS_PASSES, *FORMATS)}


def _ratios(costs: dict[str, float], base: dict[str, float]) -> list[float]:
    """``en``, ``other``, then each of :data:`LS_PASSES`, then ``markup``."""
    en = costs["en-us"] / base["en-us"]
    other = max(costs[t] / base[t] for t, _ in TARGETS[1:])
    ls = [costs[name] / base[name] for name in LS_PASSES]
    markup = max(costs[f] / max(base[f], MARKUP_FLOOR) for f in FORMATS)
    return [en, other, *ls, markup]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10 * 1024)
    parser.add_argument("--growth", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="", help="only the generators whose name holds this")
    args = parser.parse_args()

    load_builtin_formats()
    for target, kwargs in TARGETS:  # load every list before timing
        _engine(prose(300, target), target, kwargs)

    base = {target: _one_pass(prose(args.size, target), target, args.repeat)
            for target, _ in TARGETS}
    english = prose(args.size, "en-us")
    for name in LS_PASSES:
        base[name] = _one_pass(english, name, args.repeat)
    for fmt in FORMATS:
        base[fmt] = _one_pass(english, fmt, args.repeat)
    print(f"prose, {args.size} characters (CPU ms): "
          + ", ".join(f"{name} {seconds * 1000:.1f}" for name, seconds in base.items()))
    print(f"budget: each ratio <= {BUDGET:g}; growth about {args.growth} (linear)\n")
    columns = ("en", "other", *LS_PASSES, "markup", "growth")
    print(f"{'input':38} " + " ".join(f"{c:>7}" for c in columns))

    worst = 0.0
    for name, make in GENERATORS.items():
        if args.only not in name:
            continue
        text = make(args.size)
        costs = passes(text, args.repeat)
        ratios = _ratios(costs, base)
        slowest = max(costs, key=lambda key: costs[key])
        bigger = _one_pass(make(args.size * args.growth), slowest, args.repeat)
        growth = bigger / costs[slowest]
        worst = max(worst, *ratios)
        flag = "  OVER" if max(ratios) > BUDGET else ""
        print(f"{name:38} " + " ".join(f"{r:7.2f}" for r in ratios) + f" {growth:7.1f}{flag}",
              flush=True)
    print(f"\nworst ratio: {worst:.2f} (budget {BUDGET:g})")
    return 0 if worst <= BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
