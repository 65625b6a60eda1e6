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
* **real prose** (``--snapshots DIR``): the same count on some 3 MB of published English
  prose: the English documents of ``bench_published.py``'s two lists (at their commits) and
  the documents of :data:`PROSE_SOURCES` (at the snapshot's ``HEAD``), read from the
  snapshots as ``bench_published.py`` reads them. Each document is cut into paragraphs by the
  project's own markup readers (:func:`rephrase_ls.text.markup.prose_blocks`), code and
  markup sent as placeholders, exactly the text the engine gets from the editor; every double
  of a paragraph's prose is counted, and each one ``engine.improve`` drops is listed with its
  document and context, to be judged slip or deliberate by hand
  (``bench/data/judged-doubles.tsv``). The engine never changes a quotation or an all-caps
  word; the last column counts what rule 5 alone would drop (:func:`rules.doubled_words` on
  the same text), the doubles of dialogue included.

Run (from the repository root, with the project's venv)::

    .venv/bin/python bench/bench_doubles.py [--split test] [--langs en,de,...] [--list]
        [--holbrook PATH/holbrook-tagged.dat] [--snapshots DIR [--prose-only] [--tsv FILE]]
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_published import FRESH_LIST, LIST, git, git_dir, read_list  # noqa: E402
from bench_quality import LANGS, clean_sentences, parse_holbrook  # noqa: E402
from rephrase_ls.offline import engine  # noqa: E402
from rephrase_ls.offline.engine import rules  # noqa: E402
from rephrase_ls.text.markup import prose_blocks  # noqa: E402
from rephrase_ls.text.paragraphs import Paragraph  # noqa: E402

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


@dataclass(frozen=True)
class ProseSource:
    """Every document under ``folder`` of ``repo`` whose name ends in one of ``endings``."""

    repo: str
    licence: str
    folder: str
    endings: tuple[str, ...]
    what: str


#: Real prose besides the published lists: whole books and manuals, chosen for size and
#: licence before their doubles were looked at (origin and licence: bench/data/README.md).
PROSE_SOURCES: tuple[ProseSource, ...] = (
    ProseSource("rust-lang/book", "MIT OR Apache-2.0", "src/", (".md",), "The Rust book"),
    ProseSource("rust-lang/cargo", "MIT OR Apache-2.0", "doc/book/", (".md",), "The Cargo book"),
    ProseSource("sphinx-doc/sphinx", "BSD-2-Clause", "doc/", (".rst",), "Sphinx's manual"),
    ProseSource("scrapy/scrapy", "BSD-3-Clause", "docs/", (".rst",), "Scrapy's manual"),
    # Novels (Standard Ebooks' editions: public-domain texts, the edition CC0), where
    # deliberate doubles live: dialogue ("Well, well", "had had", "that that").
    *(
        ProseSource(f"standardebooks/{book}", "CC0-1.0", "src/epub/text/", (".xhtml",), what)
        for book, what in (
            ("jane-austen_pride-and-prejudice", "Pride and Prejudice"),
            ("charles-dickens_great-expectations", "Great Expectations"),
            ("louisa-may-alcott_little-women", "Little Women"),
            ("mark-twain_the-adventures-of-huckleberry-finn", "Huckleberry Finn"),
            ("arthur-conan-doyle_the-adventures-of-sherlock-holmes", "Sherlock Holmes"),
            ("p-g-wodehouse_love-among-the-chickens", "Love Among the Chickens"),
        )
    ),
)


@dataclass(frozen=True)
class ProseDocument:
    repo: str
    commit: str
    path: str
    text: str


def prose_documents(snapshots: Path) -> Iterator[ProseDocument]:
    """The English documents of the published lists, then those of :data:`PROSE_SOURCES`
    (each path once)."""
    seen: set[tuple[str, str]] = set()
    for doc in read_list(LIST) + read_list(FRESH_LIST):
        if (doc.repo, doc.path) in seen:
            continue
        seen.add((doc.repo, doc.path))
        text = git(git_dir(snapshots, doc.repo), "show", f"{doc.commit}:{doc.path}").decode()
        if engine.detect_language(text) == "en":
            yield ProseDocument(doc.repo, doc.commit, doc.path, text)
    for source in PROSE_SOURCES:
        gd = git_dir(snapshots, source.repo)
        commit = git(gd, "rev-parse", "HEAD").decode().strip()
        listing = git(gd, "ls-tree", "-r", "--name-only", commit).decode("utf-8", "replace")
        for path in sorted(listing.splitlines()):
            if not path.startswith(source.folder) or not path.endswith(source.endings):
                continue
            if (source.repo, path) in seen:
                continue
            seen.add((source.repo, path))
            try:
                text = git(gd, "show", f"{commit}:{path}").decode()
            except (UnicodeDecodeError, subprocess.CalledProcessError):
                continue  # a symbolic link or a file in another encoding: not prose
            yield ProseDocument(source.repo, commit, path, text)


@dataclass(frozen=True)
class Dropped:
    doc: ProseDocument
    double: str
    context: str
    rule_only: bool


@dataclass
class Tally:
    """Per repository: documents, bytes of prose, doubles found, doubles dropped."""

    documents: int = 0
    size: int = 0
    found: int = 0
    dropped: int = 0
    rule_dropped: int = 0


def _lost(prose: str, out: str, doubles: list[re.Match[str]]) -> list[re.Match[str]]:
    """The ``doubles`` of ``prose`` that ``out`` no longer holds."""
    left = Counter(m.group(0) for m in _DOUBLE.finditer(out))
    lost = []
    for m in doubles:
        if left[m.group(0)] > 0:
            left[m.group(0)] -= 1
        else:
            lost.append(m)
    return lost


def real_prose(docs: Iterator[ProseDocument]) -> tuple[dict[str, Tally], list[Dropped]]:
    """The tally per repository, and the doubles the engine drops (``Dropped.rule_only``:
    those only rule 5 alone drops, on the text with its quotations and all-caps words,
    which the engine protects)."""
    tallies: dict[str, Tally] = {}
    dropped: list[Dropped] = []
    for doc in docs:
        tally = tallies.setdefault(doc.repo, Tally())
        tally.documents += 1
        for block in prose_blocks(doc.text, uri=doc.path):
            paragraph = Paragraph.from_segments(doc.text, block.segments, block.protected)
            if paragraph is None:
                continue
            prose = paragraph.prose
            tally.size += len(prose.encode())
            doubles = list(_DOUBLE.finditer(prose))
            if not doubles:
                continue
            tally.found += len(doubles)
            lost = _lost(prose, engine.improve(prose, "en"), doubles)
            by_rule = _lost(prose, rules.doubled_words(prose, "en"), doubles)
            tally.dropped += len(lost)
            tally.rule_dropped += len(by_rule)
            for m in sorted({*lost, *by_rule}, key=lambda m: m.start()):
                context = prose[max(0, m.start() - 50) : m.end() + 50].replace("\n", " ")
                dropped.append(Dropped(doc, m.group(0), context, m not in lost))
    return tallies, dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), default="test")
    parser.add_argument("--langs", default=",".join(LANGS))
    parser.add_argument("--list", action="store_true", help="list the kept and lost doubles")
    parser.add_argument("--holbrook", type=Path, help="holbrook-tagged.dat: its doubles too")
    parser.add_argument("--snapshots", type=Path, help="folder of the snapshots: real prose")
    parser.add_argument("--prose-only", action="store_true", help="only the real prose")
    parser.add_argument("--tsv", type=Path, help="write the real prose's dropped doubles")
    args = parser.parse_args()
    if args.holbrook:
        lines = [text for text, _ in parse_holbrook(args.holbrook)]
        found, lost = deliberate(lines, "en")
        print(f"Holbrook (all lines): {found} doubles, {len(lost)} dropped")
        for context in lost:
            print("  dropped:", context)
    if args.snapshots:
        tallies, dropped = real_prose(prose_documents(args.snapshots))
        print(
            f"{'real English prose':<55} {'docs':>5} {'MB':>6} {'doubles':>8} {'dropped':>8}"
            f" {'rule 5 alone':>12}"
        )
        total = Tally()
        for t in tallies.values():
            total.documents += t.documents
            total.size += t.size
            total.found += t.found
            total.dropped += t.dropped
            total.rule_dropped += t.rule_dropped
        for repo, t in [*tallies.items(), ("total", total)]:
            print(
                f"{repo:<55} {t.documents:5} {t.size / 1e6:6.2f} {t.found:8} {t.dropped:8}"
                f" {t.rule_dropped:12}"
            )
        for d in dropped:
            how = "rule 5 alone" if d.rule_only else "dropped"
            print(f"  {how} {d.double!r} in {d.doc.repo}:{d.doc.path}: …{d.context}…")
        if args.tsv:
            rows = ["repo\tcommit\tpath\tdouble\tdropped by\tjudgement"]
            rows += [
                f"{d.doc.repo}\t{d.doc.commit}\t{d.doc.path}\t{d.double}\t"
                f"{'rule 5 alone' if d.rule_only else 'engine'}\t"
                for d in dropped
            ]
            args.tsv.write_text("\n".join(rows) + "\n", encoding="utf-8")
        if args.prose_only:
            return
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
