"""Doubled words: how many slips the engine removes, how many deliberate doubles it keeps.

* **injected**: in each sentence of ``bench/data/clean-LANG.txt`` (split as in
  ``bench_quality.py``: even lines dev, odd lines test), one plain word (lower case or a
  capital then lower case: the tokenizer protects all-caps words and camelCase, which no
  rule changes) picked at random (seed 24) is written twice; the double counts as removed
  when the engine's answer on the sentence with the double equals its answer on the
  sentence as published.
* **deliberate doubles**: every word the published sentences (all of both splits) already
  write twice in a row (``that that``, ``had had``, names…), and how many of them the engine
  drops; each is listed so that a person can tell a deliberate double from a slip.
  ``--holbrook FILE`` does the same on the Holbrook corpus (children's free writing, full of
  both: ``help help``, ``toys toys toys``, ``to to it``; see ``bench/data/README.md``).

Run (from the repository root, with the project's venv)::

    .venv/bin/python bench/bench_doubles.py [--split test] [--langs en,de,...] [--list]
        [--holbrook PATH/holbrook-tagged.dat]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_quality import LANGS, clean_sentences, parse_holbrook  # noqa: E402
from rephrase_ls.offline import engine  # noqa: E402

_PLAIN = re.compile(r"(?<![\w`'’/.@#{-])[^\W\d_]+(?![\w`'’/{-])")
_DOUBLE = re.compile(r"(?<![\w'’-])([^\W\d_]+) \1(?![\w'’-])", re.IGNORECASE)


def injected(sentences: list[str], lang: str, rng: random.Random) -> tuple[int, int, list[str]]:
    """(doubles injected, removed, the kept ones)."""
    total = removed = 0
    kept: list[str] = []
    for sentence in sentences:
        words = [m for m in _PLAIN.finditer(sentence) if m.group(0)[1:].islower()]
        if not words:
            continue
        m = rng.choice(words)
        doubled = sentence[: m.end()] + " " + m.group(0) + sentence[m.end() :]
        total += 1
        if engine.improve(doubled, lang) == engine.improve(sentence, lang):
            removed += 1
        else:
            kept.append(m.group(0))
    return total, removed, kept


def deliberate(sentences: list[str], lang: str) -> tuple[int, list[str]]:
    """(doubles already in the published text, the ones the engine drops with context)."""
    found = 0
    lost: list[str] = []
    for sentence in sentences:
        doubles = list(_DOUBLE.finditer(sentence))
        if not doubles:
            continue
        found += len(doubles)
        out = engine.improve(sentence, lang)
        for m in doubles:
            if m.group(0) not in out:
                lost.append(sentence[max(0, m.start() - 30) : m.end() + 30])
    return found, lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), default="test")
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--list", action="store_true", help="list the kept and lost doubles")
    parser.add_argument("--holbrook", type=Path, help="holbrook-tagged.dat: its doubles too")
    args = parser.parse_args()
    if args.holbrook:
        lines = [text for text, _ in parse_holbrook(args.holbrook)]
        found, lost = deliberate(lines, "en")
        print(f"Holbrook (all lines): {found} doubles, {len(lost)} dropped")
        for context in lost:
            print("  dropped:", context)
    print(f"lang  injected  removed  | doubles in published text  dropped  ({args.split} split)")
    for lang in args.langs.split(","):
        every = clean_sentences(lang)
        split = every[0::2] if args.split == "dev" else every[1::2]
        total, removed, kept = injected(split, lang, random.Random(24))
        found, lost = deliberate(every, lang)
        print(f"{lang:5} {total:8} {removed / total:8.1%}  | {found:25} {len(lost):8}")
        if args.list:
            print("  kept:", " ".join(sorted(set(kept))))
            for context in lost:
                print("  dropped:", context)


if __name__ == "__main__":
    main()
