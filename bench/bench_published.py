"""What ``rephrase-ls improve`` changes in documents published by well-known public projects.

The goal (docs/offline-engine.md, "Published documents"): at most one changed word per 20 KB of
published text, and none of the changes makes the text worse. Published documentation has been
read and edited by many people, so nearly every change the tool makes there is a change to
correct text; each one is listed with its context, to be judged by hand.

**Which documents.** ``bench/data/published-docs.tsv`` lists them (repository, commit, licence,
path); nobody picked them by looking at the tool's output. The rule is :data:`SOURCES`: for each
project, the files of the named folder with the named endings, of 1 to 64 KB, ordered by the
SHA-1 of their path (a fixed order unrelated to content), the first ``count`` of them.
``--select`` applies the rule to the snapshots and writes the list; the documents themselves are
not committed. ``--fresh`` takes the fresh set instead, ``bench/data/published-docs-fresh.tsv``
(rule: :data:`FRESH_SOURCES`), which nothing was tuned on.

**The product path.** Each document is copied, under its own path (its name decides its markup),
into a temporary project (a ``.git`` marker, no ``.rephrase.toml``, an empty user config, no
API key, so the embedded offline service answers) and improved there by the CLI itself,
``rephrase-ls improve --write`` (:func:`rephrase_ls.cli.improve.main`), as a user would run it.

**What is counted.** Input and output are split into words and punctuation (runs of white
space are tokens too); each differing run of tokens (``difflib``) is one change, counting as
many changed words as the longer side has non-space tokens (at least one, so a change of
spacing counts). Per document and in total: size (KB of UTF-8), changes, changed words, changed
words per 20 KB; then every change with its line and context.

Reproduce: fetch each repository of the list at its commit (``git clone
https://github.com/OWNER/NAME DIR/OWNER+NAME`` then ``git -C DIR/OWNER+NAME checkout COMMIT``,
or the mirror layout ``DIR/OWNER+NAME/repo`` of a bare snapshot), then from the repository
root with the project's venv::

    .venv/bin/python bench/bench_published.py --snapshots DIR [--changes] [--tsv FILE]
    .venv/bin/python bench/bench_published.py --snapshots DIR --select   # rewrite the list
    .venv/bin/python bench/bench_published.py --snapshots DIR --fresh [--select]

``--tsv FILE`` writes every change as ``repo, path, line, old, new`` rows (a space shown as
``␣``, a tab as ``⇥``, a line break as ``⏎``), the form of ``bench/data/judged-published.tsv``,
whose last columns are the hand judgement (``correct``, ``neutral`` or ``worse``) and why.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import hashlib
import io
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "server"))

LIST = ROOT / "bench" / "data" / "published-docs.tsv"
#: The fresh set (:data:`FRESH_SOURCES`): held out, read once as a test split.
FRESH_LIST = ROOT / "bench" / "data" / "published-docs-fresh.tsv"
MIN_BYTES, MAX_BYTES = 1024, 64 * 1024
PER = 20 * 1024


@dataclass(frozen=True)
class Source:
    """One rule: the first ``count`` files under ``folder`` ending in one of ``endings``."""

    repo: str
    licence: str
    folder: str
    endings: tuple[str, ...]
    count: int
    what: str


#: The rule that picks the documents (see the module's docstring).
SOURCES: tuple[Source, ...] = (
    Source("fastapi/fastapi", "MIT", "docs/en/docs/", (".md",), 6, "MkDocs, en"),
    Source("fastapi/fastapi", "MIT", "docs/de/docs/", (".md",), 4, "MkDocs, de"),
    Source("fastapi/fastapi", "MIT", "docs/es/docs/", (".md",), 4, "MkDocs, es"),
    Source("fastapi/fastapi", "MIT", "docs/fr/docs/", (".md",), 4, "MkDocs, fr"),
    Source("squidfunk/mkdocs-material", "MIT", "docs/", (".md",), 4, "MkDocs Material"),
    Source("mkdocs/mkdocs", "BSD-2-Clause", "docs/", (".md",), 3, "MkDocs"),
    Source("encode/httpx", "BSD-3-Clause", "docs/", (".md",), 3, "MkDocs"),
    Source("gohugoio/hugoDocs", "Apache-2.0", "content/en/", (".md",), 3, "Hugo"),
    Source("rust-lang/book", "MIT OR Apache-2.0", "src/", (".md",), 4, "mdBook"),
    Source("sphinx-doc/sphinx", "BSD-2-Clause", "doc/", (".rst",), 3, "Sphinx rST"),
    Source("pallets/flask", "BSD-3-Clause", "docs/", (".rst",), 3, "Sphinx rST"),
    Source("psf/requests", "Apache-2.0", "docs/", (".rst",), 2, "Sphinx rST"),
    Source("psf/requests", "Apache-2.0", "src/requests/", (".py",), 3, "Python docstrings"),
    Source("pallets/flask", "BSD-3-Clause", "src/flask/", (".py",), 2, "Python docstrings"),
    Source("Tufte-LaTeX/tufte-latex", "Apache-2.0", "sample-", (".tex",), 2, "LaTeX"),
    Source("kks32/phd-thesis-template", "MIT", "Chapter", (".tex",), 3, "LaTeX thesis"),
    Source("coreutils/coreutils", "GPL-3.0-or-later", "", ("README", "HACKING"), 3, "plain text"),
)

#: The fresh set's rule (``--fresh``): ten projects with permissive licences that no other
#: set of the bench draws on, whose documentation is Markdown or reStructuredText, chosen for
#: licence and format before any of their text was read, two documents each by the rule of
#: :data:`SOURCES`. Nothing was tuned on it: it is the published documents' test split.
FRESH_SOURCES: tuple[Source, ...] = (
    Source("pytest-dev/pytest", "MIT", "doc/en/how-to/", (".rst",), 2, "Sphinx rST"),
    Source("pypa/pip", "MIT", "docs/html/", (".md", ".rst"), 2, "Sphinx MyST / rST"),
    Source("python-poetry/poetry", "MIT", "docs/", (".md",), 2, "Hugo"),
    Source("pallets/click", "BSD-3-Clause", "docs/", (".md",), 2, "Sphinx MyST"),
    Source("scrapy/scrapy", "BSD-3-Clause", "docs/topics/", (".rst",), 2, "Sphinx rST"),
    Source("rust-lang/cargo", "MIT OR Apache-2.0", "doc/book/src/", (".md",), 2, "mdBook"),
    Source("eslint/eslint", "MIT", "docs/src/use/", (".md",), 2, "Eleventy"),
    Source("prettier/prettier", "MIT", "docs/", (".md",), 2, "Docusaurus"),
    Source("jekyll/jekyll", "MIT", "docs/_docs/", (".md",), 2, "Jekyll"),
    Source("pydantic/pydantic", "MIT", "docs/concepts/", (".md",), 2, "MkDocs"),
)


@dataclass(frozen=True)
class Document:
    repo: str
    commit: str
    licence: str
    path: str


def git_dir(snapshots: Path, repo: str) -> Path:
    """The git directory of ``repo``'s snapshot: ``OWNER+NAME/repo`` (bare) or a clone."""
    base = snapshots / repo.replace("/", "+")
    for candidate in (base / "repo", base / ".git", base):
        if (candidate / "HEAD").exists():
            return candidate
    raise SystemExit(f"no snapshot of {repo} under {snapshots} (see the docstring)")


def git(gd: Path, *args: str) -> bytes:
    return subprocess.run(["git", f"--git-dir={gd}", *args], check=True, capture_output=True).stdout


def select(snapshots: Path, sources: tuple[Source, ...] = SOURCES) -> list[Document]:
    """Apply ``sources`` (:data:`SOURCES`) to the snapshots' HEAD."""
    docs: list[Document] = []
    for source in sources:
        gd = git_dir(snapshots, source.repo)
        commit = git(gd, "rev-parse", "HEAD").decode().strip()
        listing = git(gd, "ls-tree", "-r", "-l", commit).decode("utf-8", "replace")
        found = []
        for line in listing.splitlines():
            meta, path = line.split("\t", 1)
            size = meta.split()[3]
            name = path.rsplit("/", 1)[-1]
            if not path.startswith(source.folder) or not size.isdigit():
                continue
            ends = any(
                name.endswith(e) if e.startswith(".") else name.startswith(e)
                for e in source.endings
            )
            if ends and MIN_BYTES <= int(size) <= MAX_BYTES:
                found.append(path)
        found.sort(key=lambda p: hashlib.sha1(p.encode()).hexdigest())
        taken = {d.path for d in docs if d.repo == source.repo}
        picked = [p for p in found if p not in taken][: source.count]
        docs.extend(Document(source.repo, commit, source.licence, p) for p in picked)
    return docs


def read_list(path: Path) -> list[Document]:
    docs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            repo, commit, licence, doc = line.split("\t")
            docs.append(Document(repo, commit, licence, doc))
    return docs


def write_list(path: Path, docs: list[Document], rule: str = "SOURCES") -> None:
    flag = " --fresh" if rule == "FRESH_SOURCES" else ""
    how = f"bench/bench_published.py --select{flag}; rule: {rule}"
    lines = [f"# repo\tcommit\tlicence\tpath ({how})"]
    lines += [f"{d.repo}\t{d.commit}\t{d.licence}\t{d.path}" for d in docs]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


_TOKEN = re.compile(r"\s+|\w+(?:['’]\w+)*|[^\w\s]")


@dataclass(frozen=True)
class Change:
    line: int
    old: str
    new: str
    words: int
    context: str


def changes(before: str, after: str) -> list[Change]:
    """The word-level differences of ``before`` and ``after`` (see the module's docstring)."""
    a, b = _TOKEN.findall(before), _TOKEN.findall(after)
    found = []
    offsets = [0]
    for token in a:
        offsets.append(offsets[-1] + len(token))
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        old, new = "".join(a[i1:i2]), "".join(b[j1:j2])
        words = max(
            sum(1 for t in a[i1:i2] if not t.isspace()),
            sum(1 for t in b[j1:j2] if not t.isspace()),
            1,
        )
        start = offsets[i1]
        line = before.count("\n", 0, start) + 1
        ls = before.rfind("\n", 0, start) + 1
        le = before.find("\n", offsets[i2])
        context = before[max(ls, start - 60) : min(le if le >= 0 else len(before), start + 80)]
        found.append(Change(line, old, new, words, context.strip()))
    return found


def improve_all(texts: dict[str, str]) -> dict[str, str]:
    """Run ``rephrase-ls improve --write`` on the documents (relative path → text) in a fresh
    project; give back each one's text afterwards."""
    from rephrase_ls.cli.improve import main

    with tempfile.TemporaryDirectory(prefix="bench-published-") as tmp:
        project = Path(tmp) / "project"
        (project / ".git").mkdir(parents=True)
        config = Path(tmp) / "config"
        config.mkdir()
        files = []
        for rel, text in texts.items():
            path = project / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="")
            files.append(str(path))
        saved = dict(os.environ)
        for name in list(os.environ):
            if name.startswith("REPHRASE_"):
                del os.environ[name]
        os.environ["XDG_CONFIG_HOME"] = str(config)
        cwd = os.getcwd()
        err = io.StringIO()
        try:
            os.chdir(project)
            with contextlib.redirect_stderr(err):
                status = main(["--write", *files])
        finally:
            os.chdir(cwd)
            os.environ.clear()
            os.environ.update(saved)
        notes = [n for n in err.getvalue().splitlines() if not n.startswith("improved ")]
        for note in notes:
            print(f"  cli: {note.replace(str(project) + '/', '')}", file=sys.stderr)
        if status not in (0, 1):
            raise SystemExit(f"rephrase-ls improve failed (exit {status})")
        return {rel: (project / rel).read_bytes().decode("utf-8") for rel in texts}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--snapshots", type=Path, required=True, help="folder of the snapshots")
    parser.add_argument("--list", type=Path, help="the document list")
    parser.add_argument("--fresh", action="store_true", help="the fresh set (FRESH_SOURCES)")
    parser.add_argument("--select", action="store_true", help="apply the rule, write the list")
    parser.add_argument("--changes", action="store_true", help="print every change")
    parser.add_argument("--tsv", type=Path, help="write every change as TSV rows")
    args = parser.parse_args(argv)
    listing = args.list or (FRESH_LIST if args.fresh else LIST)
    if args.select:
        sources = FRESH_SOURCES if args.fresh else SOURCES
        docs = select(args.snapshots, sources)
        write_list(listing, docs, "FRESH_SOURCES" if args.fresh else "SOURCES")
        print(f"{len(docs)} documents written to {listing}")
        return 0
    docs = read_list(listing)
    texts = {}
    for doc in docs:
        gd = git_dir(args.snapshots, doc.repo)
        rel = f"{doc.repo.replace('/', '+')}/{doc.path}"
        texts[rel] = git(gd, "show", f"{doc.commit}:{doc.path}").decode("utf-8")
    started = time.perf_counter()
    results = improve_all(texts)
    elapsed = time.perf_counter() - started
    total_kb = total_changes = total_words = 0.0
    rows = []
    print(f"{'document':<70} {'KB':>6} {'chg':>4} {'words':>5} {'/20KB':>6}")
    for doc, (rel, before) in zip(docs, texts.items(), strict=True):
        found = changes(before, results[rel])
        size = len(before.encode("utf-8"))
        words = sum(c.words for c in found)
        total_kb += size / 1024
        total_changes += len(found)
        total_words += words
        name = f"{doc.repo}:{doc.path}"
        print(
            f"{name[-70:]:<70} {size / 1024:6.1f} {len(found):4} {words:5} "
            f"{words * PER / size:6.2f}"
        )
        for c in found:
            rows.append((doc, c))
    print(
        f"{'total: ' + str(len(docs)) + ' documents':<70} {total_kb:6.1f} {int(total_changes):4} "
        f"{int(total_words):5} {total_words * 20 / total_kb:6.2f}"
    )
    print(f"(improved in {elapsed:.1f} s)")
    if args.changes:
        for doc, c in rows:
            print(f"\n{doc.repo}:{doc.path}:{c.line}: {c.old!r} → {c.new!r}\n    {c.context}")
    if args.tsv:
        with args.tsv.open("w", encoding="utf-8") as out:
            out.write("repo\tpath\tline\tword\treplacement\tjudgement\twhy\n")
            for doc, c in rows:
                old, new = (
                    s.replace("\t", "⇥").replace("\n", "⏎").replace(" ", "␣")
                    for s in (c.old, c.new)
                )
                out.write(f"{doc.repo}\t{doc.path}\t{c.line}\t{old}\t{new}\t\t\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
