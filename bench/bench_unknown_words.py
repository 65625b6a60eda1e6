"""What review mode shows: misspellings that get a diagnostic, and the diagnostics published
documents get (false alarms, ``unknown-word`` hints).

Every figure comes from the review as the language server runs it with the default settings
(:func:`rephrase_ls.review.findings` with ``unknown_words=True``, then
:func:`rephrase_ls.review.choice.shown`, which hides the spacing a rendered document does not
show), in a document of the format its name gives.

**Misspellings that get a diagnostic.** Learner writing with its misspellings marked:
Holbrook's tagged corpus (``--holbrook``, each line a document) and the Birkbeck lists
(``--birkbeck``, each misspelling in a sentence of its own, :data:`CARRIER`), the splits of
``bench/bench_quality.py``. A misspelling is a *non-word* when Hunspell's en_US and en_GB
dictionaries (``--hunspell``, through spylls) both reject it. Counted: non-words; the share
that any diagnostic covers (``spelling`` or ``unknown-word``); the share the engine corrects
rightly; the share of the ``unknown-word`` ones whose suggestions hold the word meant; and
``unknown-word`` hints on words that are not marked errors.

**Published documents.** The documents of ``bench/data/published-docs.tsv`` (read from the
snapshots as ``bench/bench_published.py`` reads them, ``--snapshots``) and the clean sentences
of ``bench/data/clean-*.txt`` (technical documentation in six languages, each file's test
split one document of one sentence a paragraph). Per 20 KB: diagnostics of every kind, and
``unknown-word`` hints; with ``--list``, every diagnostic, to judge. A diagnostic on a published
document is counted as a *false alarm* unless ``bench/data/judged-published.tsv`` judges a
change on its line ``correct`` (the engine's changes there were judged by hand), or, for an
``unknown-word`` hint, unless it is listed in :data:`REAL_SLIPS` (judged by hand from
``--list``).

Reproduce (the data's sources: bench/data/README.md)::

    .venv/bin/python bench/bench_unknown_words.py --holbrook holbrook-tagged.dat \\
        --birkbeck BIRKBECK_DIR --snapshots SNAPSHOTS_DIR [--split test] [--list]
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_published import git, git_dir  # noqa: E402
from bench_quality import clean_sentences, hunspell_en, parse_holbrook, parse_norvig  # noqa: E402
from rephrase_ls.review import Finding, ReviewCache, findings  # noqa: E402
from rephrase_ls.review.choice import shown  # noqa: E402
from rephrase_ls.text.markup import format_for, prose_blocks  # noqa: E402

DATA = ROOT / "bench" / "data"
PER = 20 * 1024
_WORD = re.compile(r"[^\W\d_]+(?:['’´`ʼ][^\W\d_]+)*")

#: ``unknown-word`` hints on published documents judged real slips by hand: (path, word).
REAL_SLIPS: frozenset[tuple[str, str]] = frozenset(
    {("doc/changes/4.3.rst", "interphinx")}  # "intersphinx resolution": a slip
)


def review(text: str, name: str, target: str, cache: ReviewCache) -> list[Finding]:
    """The diagnostics the server shows for ``text`` (a document called ``name``) with the
    default settings."""
    fmt = format_for(None, f"file:///{name}", text)
    blocks = prose_blocks(text, fmt, f"file:///{name}")
    found = findings(text, blocks, target_lang=target, cache=cache, unknown_words=True)
    return shown(found, (), (), fmt)


#: The sentence each Birkbeck misspelling is written in (a word alone is a title, which review
#: mode leaves alone), and the index of its word there.
CARRIER = "Then I wrote {} on the card."
CARRIER_INDEX = 3


def in_sentences(
    words: list[tuple[str, list[tuple[int, str, str]]]],
) -> list[tuple[str, list[tuple[int, str, str]]]]:
    """Each misspelling of a word list in :data:`CARRIER`."""
    return [
        (CARRIER.format(word), [(CARRIER_INDEX, w, t) for _, w, t in errors])
        for word, errors in words
    ]


def learners(
    name: str, lines: list[tuple[str, list[tuple[int, str, str]]]], is_word: object
) -> None:
    check = is_word if callable(is_word) else (lambda w: False)
    cache = ReviewCache()
    nonwords = covered = fixed = hinted = meant = false_hints = 0
    for text, errors in lines:
        found = review(text, "learner.txt", "en", cache)
        spans = [m.span() for m in _WORD.finditer(text)]
        marked = {i for i, _, _ in errors}
        for f in found:
            if f.code != "unknown-word":
                continue
            index = next((i for i, (s, e) in enumerate(spans) if s <= f.start < e), None)
            if index not in marked:
                false_hints += 1
        for i, written, target in errors:
            if check(written):
                continue
            nonwords += 1
            start, end = spans[i]
            over = [f for f in found if f.start < end and start < f.end]
            covered += bool(over)
            fixed += any(
                f.code != "unknown-word" and target.lower() in f.replacement.lower().split()
                for f in over
            )
            unknown = [f for f in over if f.code == "unknown-word"]
            hinted += bool(unknown)
            meant += any(target.lower() in (s.lower() for s in f.suggestions) for f in unknown)
    print(
        f"{name:10}{nonwords:>10}{_pct(covered, nonwords):>11}{_pct(fixed, nonwords):>10}"
        f"{_pct(hinted, nonwords):>10}{_pct(meant, hinted):>12}{false_hints:>13}"
    )


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def _judged_lines() -> set[tuple[str, int]]:
    """(path, line) of the published documents' changes judged ``correct``."""
    out: set[tuple[str, int]] = set()
    for raw in (DATA / "judged-published.tsv").read_text("utf-8").splitlines()[1:]:
        cells = raw.split("\t")
        if len(cells) >= 6 and cells[5] == "correct":
            out.add((cells[1], int(cells[2])))
    return out


def _documents(snapshots: Path) -> Iterable[tuple[str, str, str]]:
    """(repo, path, text) of each published document."""
    for raw in (DATA / "published-docs.tsv").read_text("utf-8").splitlines():
        if not raw or raw.startswith("#"):
            continue
        repo, commit, _licence, path = raw.split("\t")
        text = git(git_dir(snapshots, repo), "show", f"{commit}:{path}").decode("utf-8")
        yield repo, path, text


def _target(path: str, text: str) -> str | None:
    from rephrase_ls.review import offline_target
    from rephrase_ls.text.language import detect

    for lang in ("de", "es", "fr"):
        if f"/docs/{lang}/" in path:
            return lang
    return offline_target(detect(text) or "en")


def published(snapshots: Path, listing: bool) -> None:
    correct = _judged_lines()
    cache = ReviewCache()
    size = 0
    kinds: Counter[str] = Counter()
    alarms: Counter[str] = Counter()
    for repo, path, text in _documents(snapshots):
        target = _target(path, text)
        if target is None:
            continue
        size += len(text.encode("utf-8"))
        for f in review(text, path, target, cache):
            kinds[f.code] += 1
            line = text.count("\n", 0, f.start) + 1
            if f.code == "unknown-word":
                true = (path, f.original) in REAL_SLIPS
            else:
                true = (path, line) in correct
            if not true:
                alarms[f.code] += 1
            if listing:
                verdict = "ok" if true else "FALSE?"
                print(f"  {verdict:7}{repo} {path}:{line} [{f.code}] {f.message}")
    per = PER / size
    print(f"\nPublished documents ({size / 1024:.0f} KB, defaults), per 20 KB:")
    print(
        f"  diagnostics {sum(kinds.values()) * per:.2f}, false alarms "
        f"{sum(alarms.values()) * per:.2f}, unknown-word hints {kinds['unknown-word'] * per:.2f}"
        f" ({alarms['unknown-word'] * per:.2f} false)"
    )
    for code in sorted(kinds):
        print(f"  {code:16}{kinds[code]:>5}  ({alarms[code]} false alarms)")


def clean(split: str, listing: bool) -> None:
    print(f"\nClean documentation sentences ({split} split): unknown-word hints per 20 KB")
    cache = ReviewCache()
    for lang in ("de", "en", "es", "fr", "it", "pt"):
        sentences = clean_sentences(lang)
        if split != "all":
            sentences = sentences[split == "test" :: 2]
        text = "\n\n".join(sentences) + "\n"
        found = [f for f in review(text, "clean.txt", lang, cache) if f.code == "unknown-word"]
        size = len(text.encode("utf-8"))
        print(
            f"  {lang}: {len(found):>4} hints in {size / 1024:.0f} KB: "
            f"{len(found) * PER / size:.2f} per 20 KB"
        )
        if listing:
            print("    " + ", ".join(f.original for f in found))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--holbrook", type=Path)
    parser.add_argument("--birkbeck", type=Path)
    parser.add_argument("--hunspell", type=Path, default=Path("/usr/share/hunspell"))
    parser.add_argument("--snapshots", type=Path)
    parser.add_argument("--split", choices=("dev", "test", "all"), default="test")
    parser.add_argument("--list", action="store_true", help="list every diagnostic to judge")
    args = parser.parse_args()
    if args.holbrook or args.birkbeck:
        is_word = hunspell_en(args.hunspell)
        print(f"Learner misspellings ({args.split} split)")
        print(
            f"{'data':10}{'non-words':>10}{'diagnosed':>11}{'fixed':>10}{'hinted':>10}"
            f"{'meant in 3':>12}{'false hints':>13}"
        )
        if args.holbrook:
            lines = parse_holbrook(args.holbrook)
            if args.split != "all":
                lines = lines[args.split == "test" :: 2]
            learners("Holbrook", lines, is_word)
        if args.birkbeck:
            name = "spell-testset2.txt" if args.split == "test" else "spell-testset1.txt"
            learners("Birkbeck", in_sentences(parse_norvig(args.birkbeck / name)), is_word)
    if args.snapshots:
        published(args.snapshots, args.list)
    clean(args.split, args.list)


if __name__ == "__main__":
    main()
