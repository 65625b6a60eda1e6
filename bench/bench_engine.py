"""Benchmark of the offline engine: first-request load time and throughput per language.

Usage: ``python bench/bench_engine.py [--size-kb 1024] [--languages de,en-us,...]``

- load: in a fresh interpreter, the time of the first ``improve`` call for a language (loading
  its word list, and for English the variant lists), as wall-clock and CPU time (the machine
  may be shared), and of the first ``detect_language`` call (loading the detection profiles).
  Import time is reported separately.
- throughput: ``improve`` over ``--size-kb`` of prose per language, sent paragraph by paragraph
  (about 1 KB each, as the language server sends them). The prose is the language's labelled
  sentences (tests/data/engine), shuffled deterministically into paragraphs, so about one
  sentence in three carries an error. Also ``detect_language`` over the same paragraphs.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "engine"
TARGETS = ("de", "en-gb", "en-us", "es", "fr", "it", "pt-br", "pt-pt")

_LOAD_CODE = """
import json, sys, time
clocks = (time.perf_counter, time.process_time)
marks = [tuple(c() for c in clocks)]
from rephrase_ls.offline.engine import detect_language, improve
marks.append(tuple(c() for c in clocks))
improve("Hello there.", sys.argv[1])
marks.append(tuple(c() for c in clocks))
improve("Hello there again.", sys.argv[1])
marks.append(tuple(c() for c in clocks))
detect_language("Hello there, this is a sentence.")
marks.append(tuple(c() for c in clocks))
out = {}
for i, name in enumerate(("import", "first", "second", "detect")):
    out[name] = marks[i + 1][0] - marks[i][0]
    out[name + "_cpu"] = marks[i + 1][1] - marks[i][1]
print(json.dumps(out))
"""


def measure_load(target: str, repeats: int = 3) -> dict[str, float]:
    """Median timings (seconds) of a fresh interpreter's first calls for ``target``."""
    runs = []
    for _ in range(repeats):
        out = subprocess.run(
            [sys.executable, "-c", _LOAD_CODE, target],
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(out.stdout))
    return {key: statistics.median(r[key] for r in runs) for key in runs[0]}


def prose(target: str, size: int) -> list[str]:
    """About ``size`` bytes of paragraphs built from the labelled sentences of ``target``."""
    sentences = []
    for line in (DATA / f"{target}.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            sentences.append(json.loads(line)["input"])
    rng = random.Random(target)
    paragraphs: list[str] = []
    total = 0
    while total < size:
        rng.shuffle(sentences)
        para: list[str] = []
        length = 0
        for sentence in sentences:
            para.append(sentence)
            length += len(sentence.encode("utf-8")) + 1
            if length >= 1024:
                break
        text = " ".join(para)
        paragraphs.append(text)
        total += len(text.encode("utf-8"))
    return paragraphs


def measure_throughput(target: str, size: int) -> dict[str, float]:
    """KB/s of ``improve`` and ``detect_language`` over ``size`` bytes of ``target`` prose."""
    from rephrase_ls.offline.engine import detect_language, improve

    paragraphs = prose(target, size)
    nbytes = sum(len(p.encode("utf-8")) for p in paragraphs)
    improve(paragraphs[0], target)  # load the word list outside the timing
    detect_language(paragraphs[0])
    start = time.process_time()
    for p in paragraphs:
        improve(p, target)
    improve_s = time.process_time() - start
    start = time.process_time()
    for p in paragraphs:
        detect_language(p)
    detect_s = time.process_time() - start
    return {
        "bytes": nbytes,
        "improve_kb_s": nbytes / 1024 / improve_s,
        "detect_kb_s": nbytes / 1024 / detect_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-kb", type=int, default=1024)
    parser.add_argument("--languages", default=",".join(TARGETS))
    args = parser.parse_args()
    targets = [t.strip() for t in args.languages.split(",") if t.strip()]
    unknown = [t for t in targets if t not in TARGETS]
    if unknown:
        parser.error(f"unknown targets {unknown}; choose from {', '.join(TARGETS)}")
    print(
        f"{'target':7} {'import s':>9} {'first s':>8} {'first cpu':>9} {'next ms':>8}"
        f" {'detect s':>9} {'improve KB/s':>13} {'detect KB/s':>12}"
    )
    for target in targets:
        load = measure_load(target)
        thr = measure_throughput(target, args.size_kb * 1024)
        print(
            f"{target:7} {load['import']:9.3f} {load['first']:8.3f} {load['first_cpu']:9.3f}"
            f" {load['second'] * 1000:8.2f} {load['detect']:9.3f}"
            f" {thr['improve_kb_s']:13.0f} {thr['detect_kb_s']:12.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
