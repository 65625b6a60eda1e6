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
that a diagnostic on the word covers (``spelling`` or ``unknown-word``; see **Peers** for
"on the word"); the share the engine corrects
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

``--fresh`` reads ``bench/data/published-docs-fresh.tsv`` instead (``--documents FILE``: any
list): documents of ten other projects nothing was tuned on, the published documents' test
split (its rule: ``FRESH_SOURCES`` of ``bench/bench_published.py``).

**Peers** (``--peers``): codespell (``pip install codespell``; every finding of its default
dictionary, ambiguous ones too) and harper.js (``npm install --prefix .peers harper.js``;
every lint of its default rules, ``bench/peers/harper_lints.mjs``), on the same texts. On the
learner data: the share of the same non-words a finding *on the word* marks (a finding over
at most :data:`ON_WORD` words: harper.js's lint on a long sentence covers the whole sentence
and hides every other lint inside it; harper.js is also run with that rule off). On the
English published documents: findings per 20 KB, all and spelling ones, beside rephrase-ls's.

Reproduce (the data's sources: bench/data/README.md)::

    .venv/bin/python bench/bench_unknown_words.py --holbrook holbrook-tagged.dat \\
        --birkbeck BIRKBECK_DIR --snapshots SNAPSHOTS_DIR [--split test] [--list] \\
        [--fresh] [--peers]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_published import git, git_dir  # noqa: E402
from bench_quality import (  # noqa: E402
    clean_sentences,
    codespell_flags,
    hunspell_en,
    parse_holbrook,
    parse_norvig,
)
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


Span = tuple[int, int, str]
#: A peer: the spans it flags in each text (``(start, end, kind)``), given the texts and the
#: language mode each is read in (``plaintext`` or ``markdown``).
Peer = Callable[[list[str], list[str]], list[list[Span]]]
_CODESPELL_WORD = re.compile(r"[\w'’-]+")


def codespell_spans(texts: list[str], modes: list[str]) -> list[list[Span]]:
    """codespell's findings as spans: each occurrence of a word it reports on the text's line
    (one text a line; a document's lines are numbered as its text's)."""
    out: list[list[Span]] = []
    for text in texts:
        lines = text.split("\n")
        flagged = codespell_flags(lines)
        spans: list[Span] = []
        offset = 0
        for line, words in zip(lines, flagged, strict=True):
            wanted = {w.lower() for w in words}
            spans += [
                (offset + m.start(), offset + m.end(), "codespell")
                for m in _CODESPELL_WORD.finditer(line)
                if m.group().lower() in wanted
            ]
            offset += len(line) + 1
        out.append(spans)
    return out


def harper_spans(texts: list[str], modes: list[str], off: str = "") -> list[list[Span]]:
    """Every lint of harper.js, its default rules but ``off`` (``bench/peers/harper_lints.mjs``)."""
    proc = subprocess.run(
        ["node", str(ROOT / "bench" / "peers" / "harper_lints.mjs")],
        input="".join(
            json.dumps({"text": t, "language": m}) + "\n" for t, m in zip(texts, modes, strict=True)
        ),
        capture_output=True, text=True, check=True, cwd=ROOT, env={**os.environ, "HARPER_OFF": off},
    )  # fmt: skip
    return [[(s, e, k) for s, e, k in json.loads(line)] for line in proc.stdout.splitlines()]


def harper_without_long_sentences(texts: list[str], modes: list[str]) -> list[list[Span]]:
    """harper.js with its rule on long sentences off: with it on, harper.js shows a sentence of
    40 words or more as one long-sentence lint and hides every other lint inside it (children
    write such sentences: most of Holbrook's lines are one)."""
    return harper_spans(texts, modes, "LongSentences")


PEERS: dict[str, Peer] = {
    "codespell": codespell_spans,
    "harper.js": harper_spans,
    "harper.js, no long-sentence rule": harper_without_long_sentences,
}
#: A finding marks a word when it overlaps it and spans at most this many words (harper.js's
#: lint on a long sentence spans the whole sentence and marks none of its words).
ON_WORD: Final = 3
#: harper.js's lint kinds that are about spelling (its others: grammar, style, spacing…).
HARPER_SPELLING = frozenset({"Spelling", "Typo"})


def _on_word(text: str, start: int, end: int) -> bool:
    return len(_WORD.findall(text[start:end])) <= ON_WORD


def learners(
    name: str,
    lines: list[tuple[str, list[tuple[int, str, str]]]],
    is_word: object,
    peers: dict[str, list[float]] | None = None,
) -> None:
    check = is_word if callable(is_word) else (lambda w: False)
    cache = ReviewCache()
    nonwords = covered = fixed = hinted = meant = false_hints = 0
    texts = [text for text, _ in lines]
    modes = ["plaintext"] * len(texts)
    flags = {peer: run(texts, modes) for peer, run in PEERS.items()} if peers is not None else {}
    peer_covered = Counter[str]()
    for number, (text, errors) in enumerate(lines):
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
            covered += any(_on_word(text, f.start, f.end) for f in over)
            for peer, per_text in flags.items():
                peer_covered[peer] += any(
                    s < end and start < e and _on_word(text, s, e) for s, e, _ in per_text[number]
                )
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
    if peers is not None:
        peers.setdefault("non-words", []).append(nonwords)
        peers.setdefault("rephrase-ls", []).append(covered)
        for peer in flags:
            peers.setdefault(peer, []).append(peer_covered[peer])


def report_shares(shares: dict[str, list[float]]) -> None:
    """Each tool's share of the same non-words flagged by any of its findings."""
    sets = ["Holbrook", "Birkbeck"][: len(shares["non-words"])]
    print(f"\nNon-words flagged by any finding: {', '.join(sets)}, all")
    totals = shares["non-words"]
    for tool, counts in shares.items():
        if tool == "non-words":
            continue
        cells = [_pct(int(c), int(n)) for c, n in zip(counts, totals, strict=True)]
        cells.append(_pct(int(sum(counts)), int(sum(totals))))
        print(f"  {tool:34}" + "".join(f"{c:>10}" for c in cells))


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


def _documents(snapshots: Path, listing: Path) -> Iterable[tuple[str, str, str]]:
    """(repo, path, text) of each published document of ``listing``."""
    for raw in listing.read_text("utf-8").splitlines():
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


def published(snapshots: Path, listing: bool, documents: Path, peers: bool) -> None:
    correct = _judged_lines()
    cache = ReviewCache()
    size = 0
    kinds: Counter[str] = Counter()
    alarms: Counter[str] = Counter()
    english: list[tuple[str, str, list[Span]]] = []
    for repo, path, text in _documents(snapshots, documents):
        target = _target(path, text)
        if target is None:
            continue
        size += len(text.encode("utf-8"))
        found = review(text, path, target, cache)
        if target == "en":
            english.append((path, text, [(f.start, f.end, f.code) for f in found]))
        for f in found:
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
    if peers:
        peer_flags(english, listing)


def peer_flags(documents: list[tuple[str, str, list[Span]]], listing: bool) -> None:
    """Flags per 20 KB on the English documents (the peers know only English), beside
    rephrase-ls's diagnostics there: codespell on each file's whole text, as it is run on a
    repository; harper.js reading Markdown as Markdown and every other format as plain text (it
    reads no other markup). Spelling: rephrase-ls's ``spelling`` and ``unknown-word``, harper.js's
    Spelling and Typo lints, every codespell finding."""
    texts = [text for _, text, _ in documents]
    modes = ["markdown" if p.endswith(".md") else "plaintext" for p, _, _ in documents]
    flags = {"rephrase-ls": [found for *_, found in documents]}
    flags.update({peer: run(texts, modes) for peer, run in PEERS.items()})
    md = [i for i, mode in enumerate(modes) if mode == "markdown"]
    sizes = [len(text.encode("utf-8")) for text in texts]
    size, md_size = sum(sizes), sum(sizes[i] for i in md)
    print(
        f"\nFlags per 20 KB on the English documents ({size / 1024:.0f} KB; "
        f"Markdown ones {md_size / 1024:.0f} KB)"
    )
    print(f"  {'tool':34}{'all':>8}{'spelling':>10}{'all (md)':>10}{'spelling (md)':>15}")
    spelling = HARPER_SPELLING | {"codespell", "spelling", "unknown-word"}
    for tool, spans in flags.items():
        every = sum(len(s) for s in spans)
        spelt = sum(1 for s in spans for *_, k in s if k in spelling)
        md_every = sum(len(spans[i]) for i in md)
        md_spelt = sum(1 for i in md for *_, k in spans[i] if k in spelling)
        print(
            f"  {tool:34}{every * PER / size:8.2f}{spelt * PER / size:10.2f}"
            f"{md_every * PER / md_size:10.2f}{md_spelt * PER / md_size:15.2f}"
        )
        if listing and tool != "rephrase-ls":
            for (path, text, _), found in zip(documents, spans, strict=True):
                for start, end, kind in found:
                    lineno = text.count("\n", 0, start) + 1
                    print(f"    {path}:{lineno} [{kind}] {text[start:end]!r}")


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
    parser.add_argument(
        "--documents", type=Path, default=DATA / "published-docs.tsv", help="the document list"
    )
    parser.add_argument(
        "--fresh", action="store_true", help="the fresh documents (published-docs-fresh.tsv)"
    )
    parser.add_argument("--peers", action="store_true", help="also run codespell and harper.js")
    args = parser.parse_args()
    if args.fresh:
        args.documents = DATA / "published-docs-fresh.tsv"
    shares: dict[str, list[float]] | None = {} if args.peers else None
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
            learners("Holbrook", lines, is_word, shares)
        if args.birkbeck:
            name = "spell-testset2.txt" if args.split == "test" else "spell-testset1.txt"
            learners("Birkbeck", in_sentences(parse_norvig(args.birkbeck / name)), is_word, shares)
        if shares is not None:
            report_shares(shares)
    if args.snapshots:
        published(args.snapshots, args.list, args.documents, args.peers)
    clean(args.split, args.list)


if __name__ == "__main__":
    main()
