"""Styles and tones on real sentences: how many each one changes, and every change it makes.

For each English and German writing style and tone, every sentence is improved twice, with
and without the style or tone, and the words that differ are listed (so a spelling
correction is not counted as the style's). The changes are for a person to judge: is the
sentence still grammatical, does it still claim the same (hedges, modals, negation,
numbers)? ``docs/offline-engine.md`` ("Styles and tones") gives the figures of the last
audit.

The sentences:

* English: ``bench/data/clean-en.txt`` (react.dev and Vue's documentation) and, with
  ``--snapshots DIR`` (a folder of bare snapshots laid out ``OWNER+NAME/repo``, or of
  clones), the prose of *The Rust Programming Language* (rust-lang/book, ``src/*.md``) and
  of P. G. Wodehouse's *Love Among the Chickens* (Standard Ebooks), whose dialogue has the
  everyday words (*good*, *must*, *wrong*, *I think*) that documentation rarely writes;
* German: ``bench/data/clean-de.txt`` (Vite's, React's and Vue's documentation) and, with
  ``--snapshots``, the target hypotheses (the corrected sentences) of the Falko-MERLIN dev
  split (spraakbanken/multiged-2023, ``german/fm-dev.m2``): essays and letters, with their
  greetings, *gut*, *müssen* and *falsch*.

Run (from the repository root, with the project's venv)::

    .venv/bin/python bench/bench_styles.py [--snapshots /work/.mirror] [--langs en,de]
        [--only business,diplomatic] [--list] [--group]

``--list`` prints each change with its sentence; ``--group`` counts the changes by what was
replaced with what, most frequent first; ``--tsv`` writes every change to stderr as a row
(language, style or tone, sentence set, sentence number, written, changed to, sentence).
``bench/data/judged-styles.tsv`` lists the changes a person judged wrong (ungrammatical, or
another claim) in the same columns; the ``wrong`` column counts those the engine still makes.
"""

from __future__ import annotations

import argparse
import difflib
import html
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "bench"))

from extract_clean import clean, paragraphs  # noqa: E402
from rephrase_ls.offline import engine  # noqa: E402

STYLES = ("simple", "business", "academic", "casual")
TONES = ("enthusiastic", "friendly", "confident", "diplomatic")
TARGETS = {"en": "en-us", "de": "de"}

_SENTENCE_END = re.compile(r"(?<=[.!?”])\s+(?=[\"“«(]?[A-ZÀ-Ý])")
_TAG = re.compile(r"<[^>]+>")
_PARAGRAPH = re.compile(r"<p\b[^>]*>(.*?)</p>", re.DOTALL)
_TOKEN = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")
_WORDS = re.compile(r"[^\W\d_]+")
JUDGED = ROOT / "bench" / "data" / "judged-styles.tsv"


def git_dir(snapshots: Path, repo: str) -> Path:
    """The git directory of ``repo`` (``owner/name``) under ``snapshots``."""
    for candidate in (
        snapshots / repo.replace("/", "+") / "repo",
        snapshots / repo.replace("/", "+"),
        snapshots / repo.split("/")[1],
    ):
        if candidate.exists():
            return candidate
    raise SystemExit(f"no snapshot of {repo} under {snapshots}")


def git_files(gd: Path, under: str) -> list[str]:
    out = subprocess.run(
        ["git", "-C", str(gd), "ls-tree", "-r", "--name-only", "HEAD", under],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return sorted(out.split())


def git_show(gd: Path, name: str) -> str:
    return subprocess.run(
        ["git", "-C", str(gd), "show", f"HEAD:{name}"], capture_output=True, text=True, check=True
    ).stdout


def split_sentences(paragraph: str) -> list[str]:
    """Sentences of 4 to 60 words ending in . ! ? (or a closing quote after one)."""
    out = []
    for s in _SENTENCE_END.split(paragraph):
        s = s.strip()
        if 4 <= len(_WORDS.findall(s)) <= 60 and s[-1:] in '.!?”"' and s.count("`") % 2 == 0:
            out.append(s)
    return out


def clean_file(lang: str) -> list[str]:
    lines = (ROOT / "bench" / "data" / f"clean-{lang}.txt").read_text(encoding="utf-8")
    return [line.split("\t", 1)[1] for line in lines.splitlines() if "\t" in line]


def rust_book(snapshots: Path) -> list[str]:
    gd = git_dir(snapshots, "rust-lang/book")
    out: list[str] = []
    for name in git_files(gd, "src"):
        if name.endswith(".md") and name.startswith("src/ch"):
            for paragraph in paragraphs(git_show(gd, name)):
                out += split_sentences(clean(paragraph))
    return out


def standard_ebook(snapshots: Path, repo: str) -> list[str]:
    gd = git_dir(snapshots, repo)
    out: list[str] = []
    for name in git_files(gd, "src/epub/text"):
        if not re.search(r"/chapter-\d+\.xhtml$", name):
            continue
        for m in _PARAGRAPH.finditer(git_show(gd, name)):
            text = html.unescape(_TAG.sub("", m.group(1))).replace("\u2060", "")
            out += split_sentences(re.sub(r"\s+", " ", text).strip())
    return out


def falko_merlin_targets(snapshots: Path) -> list[str]:
    """The corrected sentences of ``german/fm-dev.m2`` (annotator 0's edits applied)."""
    gd = git_dir(snapshots, "spraakbanken/multiged-2023")
    out: list[str] = []
    for block in git_show(gd, "german/fm-dev.m2").split("\n\n"):
        lines = block.strip().splitlines()
        if not lines or not lines[0].startswith("S "):
            continue
        tokens = lines[0][2:].split(" ")
        edits = []
        for line in lines[1:]:
            fields = line[2:].split("|||")
            if len(fields) < 6 or fields[5] != "0" or fields[1] == "noop":
                continue
            start, end = (int(x) for x in fields[0].split())
            edits.append((start, end, fields[2].split() if fields[2] != "-NONE-" else []))
        for start, end, new in sorted(edits, reverse=True):
            tokens[start:end] = new
        text = " ".join(tokens)
        text = re.sub(r" ([.,;:!?)])", r"\1", text)
        text = re.sub(r"([(„]) ", r"\1", text).replace(" “", "“")
        out += split_sentences(text)
    return out


def corpus(lang: str, snapshots: Path | None) -> list[tuple[str, list[str]]]:
    """The sentence sets of ``lang``: (short name, sentences)."""
    sets = [(f"clean-{lang}", clean_file(lang))]
    if snapshots is not None and lang == "en":
        sets.append(("rust-book", rust_book(snapshots)))
        repo = "standardebooks/p-g-wodehouse_love-among-the-chickens"
        sets.append(("chickens", standard_ebook(snapshots, repo)))
    if snapshots is not None and lang == "de":
        sets.append(("falko-merlin-dev", falko_merlin_targets(snapshots)))
    return sets


def word_changes(before: str, after: str) -> list[tuple[str, str]]:
    """The differing token runs of two versions of a sentence (words and punctuation)."""
    a, b = _TOKEN.findall(before), _TOKEN.findall(after)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            out.append((" ".join(a[i1:i2]), " ".join(b[j1:j2])))
    return out


Change = tuple[str, str, str, int, str, str]  # lang, style, set, index, written, changed to


def read_judged(path: Path) -> set[Change]:
    """The changes judged wrong (``bench/data/judged-styles.tsv``)."""
    out: set[Change] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            lang, name, set_, index, old, new = line.split("\t")[:6]
            out.add((lang, name, set_, int(index), old, new))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--snapshots", type=Path, help="folder of the documents' snapshots")
    parser.add_argument("--langs", default="en,de")
    parser.add_argument("--only", help="comma-separated styles and tones (default: all)")
    parser.add_argument("--list", action="store_true", help="print every change")
    parser.add_argument("--group", action="store_true", help="count changes by kind")
    parser.add_argument("--tsv", action="store_true", help="print every change as a TSV row")
    parser.add_argument("--judged", type=Path, default=JUDGED, help="changes judged wrong")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else [*STYLES, *TONES]
    judged = read_judged(args.judged) if args.judged.is_file() else set()
    for lang in args.langs.split(","):
        target = TARGETS[lang]
        sets = corpus(lang, args.snapshots)
        numbered = [(title, i, s) for title, set_ in sets for i, s in enumerate(set_)]
        plain = [engine.improve(s, target) for _, _, s in numbered]
        sizes = ", ".join(f"{title} {len(set_)}" for title, set_ in sets)
        print(f"\n== {lang}: {len(numbered)} sentences ({sizes})")
        print(f"{'style/tone':14}{'changed':>9}{'share':>8}{'changes':>9}{'wrong':>7}")
        for name in names:
            listed: list[tuple[Change, str]] = []
            changed = 0
            for (title, i, sentence), base in zip(numbered, plain, strict=True):
                out = (
                    engine.improve(sentence, target, writing_style=name)
                    if name in STYLES
                    else engine.improve(sentence, target, tone=name)
                )
                if out == base:
                    continue
                changed += 1
                for old, new in word_changes(base, out):
                    listed.append(((lang, name, title, i, old, new), base))
            wrong = sum(change in judged for change, _ in listed)
            share = changed / len(numbered)
            print(f"{name:14}{changed:9d}{share:8.1%}{len(listed):9d}{wrong:7d}")
            if args.group:
                for (old, new), n in Counter((c[4], c[5]) for c, _ in listed).most_common():
                    print(f"    {n:5d}  {old!r} -> {new!r}")
            if args.list:
                for change, base in listed:
                    mark = "WRONG " if change in judged else ""
                    print(f"    {mark}{change[4]!r} -> {change[5]!r}\t{base}")
            if args.tsv:
                for change, base in listed:
                    print("\t".join(str(x) for x in change) + "\t" + base, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
