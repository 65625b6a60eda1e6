"""Hostile text stays cheap: every generator of bench/_hostile_inputs.py (runs of one mark,
alternations, long words, many spaces, URL pieces, unclosed quotes, mixed scripts, repetitive
prose, markup all over...) goes through the offline service's passes (language detection and the
engine, per target), the word edits from the text to the engine's answer, review mode's findings on
the text read as Markdown, and the language server's prose extractors (Markdown, reST, plain text,
commit messages, AsciiDoc, Org, Typst, HTML) at 100,000 characters (LaTeX and Python, whose parsers
are slow at any size, at 25,000), in child processes that share the generators out: one test per
share, which pytest-xdist runs side by side. The engine runs for each of the five targets under the
``ci`` Hypothesis profile (``.ci/run``), which runs every generator. Under ``dev``, the default, a
fifth of the generators run (every fifth one, from an offset drawn per run and named in a failure,
as Hypothesis tests run a fifth of their examples, drawn anew each run), each input going to one of
the targets in turn.

No timing is asserted (machines are shared and noisy): each input gets a generous wall-clock hang
guard instead. Every pass is linear, so 100,000 characters take well under a second; a super-linear
pass turns that into minutes (the patterns fixed here took 15 s to 400 s at this size), which the
guard reports with the input's name. bench/bench_hostile.py measures the costs.
"""

from __future__ import annotations

import os
import queue
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from tests.hypothesis_profiles import every_case

ROOT = Path(__file__).resolve().parents[3]
SIZE = 100_000
GUARD_SECONDS = 30.0  # per input, all passes; linear passes take a fraction of a second
#: The generators are shared out over this many tests (and so pytest-xdist's workers); each
#: child first loads every target's lists (~3 s), so a fifth of them needs fewer children.
SHARDS = 4 if every_case() else 2
#: Which fifth of the generators this run takes under ``dev`` (-1: all of them, under ``ci``).
FIFTH = -1 if every_case() else random.randrange(5)

_CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
from _hostile_inputs import GENERATORS
from rephrase_ls.offline.engine import detect_language, improve
from rephrase_ls.review import findings
from rephrase_ls.text.diff import word_edits
from rephrase_ls.text.markup import load_builtin_formats, prose_blocks

load_builtin_formats()
size = int(sys.argv[2])
shard, shards = int(sys.argv[3]), int(sys.argv[4])
targets = (("en-us", {}), ("de", {"writing_style": "business"}), ("fr", {}),
           ("pt-pt", {}), ("en-gb", {"tone": "diplomatic"}))
formats = ("markdown", "restructuredtext", "plaintext", "git-commit", "asciidoc", "org", "typst",
           "html")
slow_formats = ("latex", "python")  # their parsers are slow at any size: a quarter of the text
for target, kwargs in targets:
    improve("Load the lists first.", target, **kwargs)
print("ready", flush=True)
every_target = sys.argv[5] == "every-target"
fifth = int(sys.argv[6])  # -1: every generator; else those whose index is fifth modulo 5
chosen = [(i, g) for i, g in enumerate(GENERATORS.items()) if fifth < 0 or i % 5 == fifth]
for index, (name, make) in chosen[shard::shards]:
    text = make(size)
    assert len(text) == size, name
    print("start", name, flush=True)
    detect_language(text)
    for target, kwargs in targets if every_target else [targets[index % len(targets)]]:
        out = improve(text, target, **kwargs)
        assert isinstance(out, str)
    # The word edits from the text to the engine's answer (the alignment every answer goes
    # through), at this size and at 6,000 characters, where a piece is small enough to be
    # aligned exactly rather than in windows.
    for piece in (text, text[:6000]):
        word_edits(piece, improve(piece, "en-us"))
    # Review mode's findings on the text read as Markdown (inline code and links protected,
    # quotes' ">" between lines): engine, rebuild, change groups, guards.
    findings(text, prose_blocks(text, "markdown"), target_lang="en-US")
    for fmt in (*formats, *slow_formats):
        try:
            prose_blocks(text if fmt in formats else text[: size // 4], fmt)
        except ValueError as exc:  # LaTeX nested too deeply to read: refused, with a message
            assert fmt == "latex" and "too deeply" in str(exc), (fmt, exc)
    print("done", name, flush=True)
print("all done", flush=True)
"""


def _run_shard(shard: int, shards: int) -> str | None:
    """Run every ``shards``-th generator from ``shard`` in a child; the failure, or None."""
    proc = subprocess.Popen(
        [
            sys.executable, "-c", _CHILD, str(ROOT / "bench"), str(SIZE), str(shard), str(shards),
            "every-target" if every_case() else "one-target", str(FIFTH),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=read, daemon=True).start()
    current = "loading the engine"
    wait = 120.0  # loading every language's lists
    try:
        while True:
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                return (
                    f"hang guard: {current!r} took over {wait:g} s at {SIZE} "
                    "characters (a super-linear pass?)"
                )
            if line is None:
                err = proc.stderr.read() if proc.stderr else ""
                return f"the child failed at {current!r}: {err[-3000:]}"
            if line.startswith("start "):
                current, wait = line[len("start ") :], GUARD_SECONDS
            elif line == "all done":
                proc.wait(timeout=60)
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    return None if proc.returncode == 0 else f"the child exited with {proc.returncode}"


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_hostile_input_passes_in_linear_time(shard: int) -> None:
    """Every ``SHARDS``-th generator from ``shard``, in one child (each guard is per input)."""
    failure = _run_shard(shard, SHARDS)
    chosen = "every generator" if FIFTH < 0 else f"the generators whose index is {FIFTH} mod 5"
    assert failure is None, f"{failure} ({chosen})"
