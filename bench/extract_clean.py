"""Extract well-edited sentences from the react.dev documentation and its translations.

The sentences in ``bench/data/clean-LANG.txt`` were made with this script (sources and
licences: ``bench/data/README.md``). Get the repositories with ``git clone`` (any commit;
the committed files name theirs), then::

    python bench/extract_clean.py --lang de --repo ../de.react.dev > bench/data/clean-de.txt

``--repo`` may be a bare repository (``git clone --bare``); ``--under`` names the pages' folder
(``src`` for Vue's and Vite's docs), ``--name`` the repository in the header line. A language's
file holds one block per source, each after its header line, appended in turn (so adding a
source leaves every earlier sentence in its split).

Prose only: front matter, fenced code, JSX/HTML lines, ``:::`` container lines, tables,
headings and list markers are dropped (each list item is a paragraph); links keep their
text; inline code keeps its backticks (the engine protects it); HTML entities are decoded.
A sentence is kept when it has 6 to 60 words, ends with . ! or ?, and the engine's own
language detection agrees with ``--lang`` (the translations still hold English pages).
"""

from __future__ import annotations

import argparse
import html
import random
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from rephrase_ls.offline.engine import detect_language

_FENCE = re.compile(r"^(```|~~~)")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_ANCHOR = re.compile(r"\{/\*.*?\*/\}")
_EMPH = re.compile(r"(\*\*|__|(?<![\w`])\*(?=\S)|(?<=\S)\*(?![\w`]))")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"“«¿¡(]?[A-ZÀ-Ý])")
_WORD = re.compile(r"[^\W\d_]+")


def paragraphs(text: str) -> list[str]:
    """The prose paragraphs of one Markdown/MDX page."""
    lines = text.splitlines()
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        lines = lines[end + 1 :]
    out: list[str] = []
    current: list[str] = []
    fenced = False
    for raw in lines:
        line = raw.strip()
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        if not line or line.startswith(("#", "<", "|", ">", "{", ":::", "import ", "export ")):
            if current:
                out.append(" ".join(current))
                current = []
            continue
        item = re.sub(r"^(?:[*+-]|\d+\.)\s+", "", line)
        if item != line and current:  # a list item is a paragraph of its own
            out.append(" ".join(current))
            current = []
        current.append(item)
    if current:
        out.append(" ".join(current))
    return out


def clean(paragraph: str) -> str:
    p = html.unescape(_ANCHOR.sub("", paragraph))
    p = _LINK.sub(r"\1", p)
    p = _TAG.sub("", p)
    p = _EMPH.sub("", p)
    return re.sub(r"\s+", " ", p).strip()


def sentences(repo: Path, lang: str, under: str) -> list[tuple[str, str]]:
    files = subprocess.run(
        ["git", "-C", str(repo), "ls-tree", "-r", "--name-only", "HEAD", under],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    found: list[tuple[str, str]] = []
    for name in sorted(files):
        if not name.endswith(".md"):
            continue
        text = subprocess.run(
            ["git", "-C", str(repo), "show", f"HEAD:{name}"],
            capture_output=True, text=True, check=True,
        ).stdout
        for paragraph in paragraphs(text):
            for sentence in _SENTENCE_END.split(clean(paragraph)):
                words = _WORD.findall(sentence)
                if not 6 <= len(words) <= 60 or sentence[-1] not in ".!?":
                    continue
                if "`" in sentence and sentence.count("`") % 2:
                    continue
                if detect_language(sentence) != lang:
                    continue
                found.append((name, sentence))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lang", required=True)
    parser.add_argument("--repo", required=True, type=Path)
    parser.add_argument("--max", type=int, default=2000)
    parser.add_argument("--under", default="src/content", help="the folder of the pages")
    parser.add_argument("--name", help="owner/name for the header (default: the folder's name)")
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "-C", str(args.repo), "rev-parse", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    found = sentences(args.repo, args.lang, args.under)
    seen: set[str] = set()
    unique = [(n, s) for n, s in found if not (s in seen or seen.add(s))]
    random.Random(12).shuffle(unique)
    print(f"# {args.name or args.repo.name} {commit} ({len(unique)} sentences, {args.max} kept)")
    for name, sentence in sorted(unique[: args.max]):
        print(f"{name}\t{sentence}")


if __name__ == "__main__":
    main()
