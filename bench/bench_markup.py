"""Benchmark of markup-aware prose extraction: its share of the code-action budget.

The budget is the user's: code actions listed after an edit within 30 ms on a 200 KB Markdown
document and 150 ms on 1 MB, timed end to end by ``bench/bench_code_actions.py``. Extracting the
prose blocks of the new version is the largest part of it; this script times that part alone,
in CPU time, on documents of other shapes than that benchmark's.

Usage: ``python bench/bench_markup.py [--size-kb 1024] [--repeat 7] [--reference]``

Documents of three shapes, each the tests/data/markup documents repeated to ``--size-kb``:

- ``prose``: guide.md — long paragraphs, headings, a quote (documentation pages, articles);
- ``readme``: README.md without its front matter — tables, lists, fences, badges, short lines;
- ``mixed``: one README for two guides.

For each, ``markdown_blocks`` (what ``prose_blocks(text, "markdown")`` calls) is timed: the best of
``--repeat`` runs, CPU time of one core (``time.process_time``) and wall time. A calibration figure
(a bare Python loop of one million iterations, best of 3, taken again before each shape because the
load of a shared machine changes) is printed, and each time divided by it, so runs on different
machines and under different loads can be compared. ``--reference`` also times markdown-it-py
parsing the same documents (block and inline rules, as the extractor's reference in the tests) to
show why it is not used at run time. The other formats are timed on their data document repeated
to 100 KB (Typst: the ``unequivocal-ams`` template; HTML: Google's Java style guide, both from
tests/data/markup/real).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "markup"


def _read(name: str) -> str:
    with open(DATA / name, encoding="utf-8", newline="") as handle:
        return handle.read()


def _scaled(unit: str, size: int) -> str:
    """``unit`` repeated (blank line between copies) and cut at a line end near ``size``."""
    text = (unit.rstrip("\n") + "\n\n") * (size // len(unit) + 1)
    cut = text.rfind("\n", 0, size)
    return text[: cut + 1]


def _best(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Best CPU and wall time in milliseconds over ``repeat`` runs."""
    cpu = wall = float("inf")
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - w0)
    return cpu * 1000, wall * 1000


def _calibration(repeat: int = 3) -> float:
    """CPU milliseconds of a bare one-million-iteration Python loop (best of ``repeat``)."""
    best = float("inf")
    for _ in range(repeat):
        c0 = time.process_time()
        total = 0
        for i in range(1_000_000):
            total += i
        best = min(best, time.process_time() - c0)
    return best * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-kb", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--reference", action="store_true", help="also time markdown-it-py")
    args = parser.parse_args(argv)
    if args.size_kb <= 0 or args.repeat <= 0:
        parser.error("--size-kb and --repeat must be positive")

    from rephrase_ls.text.markup import prose_blocks
    from rephrase_ls.text.markup.markdown import markdown_blocks

    size = args.size_kb * 1024
    readme = _read("README.md").split("---\n", 2)[2]  # without the front matter
    guide = _read("guide.md")
    shapes = {
        "prose": _scaled(guide, size),
        "readme": _scaled(readme, size),
        "mixed": _scaled(readme + "\n" + guide + "\n" + guide, size),
    }
    print(f"calibration: 1M-iteration Python loop = {_calibration():.0f} ms CPU")
    print(f"Markdown, {args.size_kb} KB, best of {args.repeat}")
    header = f"{'shape':8} {'lines':>7} {'blocks':>7} {'CPU ms':>8} {'wall ms':>8} {'calib':>6}"
    print(f"{header} {'ratio':>6}")
    for name, text in shapes.items():
        blocks = markdown_blocks(text)
        assert prose_blocks(text, "markdown") == blocks
        calibration = _calibration()
        cpu, wall = _best(partial(markdown_blocks, text), args.repeat)
        lines = text.count("\n")
        print(
            f"{name:8} {lines:7} {len(blocks):7} {cpu:8.1f} {wall:8.1f} {calibration:6.0f}"
            f" {cpu / calibration:6.2f}"
        )

    if args.reference:
        from markdown_it import MarkdownIt
        from mdit_py_plugins.dollarmath import dollarmath_plugin
        from mdit_py_plugins.footnote import footnote_plugin
        from mdit_py_plugins.front_matter import front_matter_plugin

        md = (
            MarkdownIt("commonmark")
            .enable(["table", "strikethrough"])
            .use(front_matter_plugin)
            .use(footnote_plugin)
            .use(dollarmath_plugin)
        )
        print("markdown-it-py parse (reference, not used at run time)")
        for name, text in shapes.items():
            cpu, wall = _best(partial(md.parse, text), 1)
            print(f"{name:8} {cpu:8.1f} ms CPU")

    others = {
        "latex": ("paper.tex", "latex"),
        "rst": ("usage.rst", "restructuredtext"),
        "python": ("geometry.py", "python"),
        "gitcommit": ("COMMIT_EDITMSG", "gitcommit"),
        "asciidoc": ("real/asciidoctor-README.adoc", "asciidoc"),
        "org": ("real/doom-faq.org", "org"),
        "typst": ("real/typst-unequivocal-ams.typ", "typst"),
        "html": ("real/google-javaguide.html", "html"),
    }
    print("other formats, data document repeated to 100 KB")
    for label, (file_name, language_id) in others.items():
        text = _scaled(_read(file_name), 100 * 1024)
        if label == "gitcommit":
            text = _read(file_name).split("# ----")[0] * (100 * 1024 // 600)
        cpu, _ = _best(partial(prose_blocks, text, language_id), 3)
        rate = len(text) / 1024 / (cpu / 1000) if cpu else float("inf")
        print(f"{label:10} {cpu:8.1f} ms CPU  {rate:8.0f} KB/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
