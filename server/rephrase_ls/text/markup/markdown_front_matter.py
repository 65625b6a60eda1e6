"""Front matter at the start of a Markdown document: YAML, TOML, JSON, a Pandoc title block, or
MultiMarkdown / Python-Markdown metadata."""

from __future__ import annotations

import re

from rephrase_ls.text.markup.lines import SPACE, Lines

__all__ = ["front_matter_lines"]

# a MultiMarkdown / Python-Markdown metadata line: "Key: value" (the key may hold spaces in
# MultiMarkdown, "Base Header Level: 2")
_META_LINE = re.compile(r"[A-Za-z0-9][\w -]{0,40}:(?:[ \t]|$)")
# keys that make a single "Key: value" line at the top metadata rather than a sentence
_META_KEYS = frozenset(
    (
        "title", "subtitle", "author", "authors", "date", "summary", "description", "keywords",
        "tags", "category", "categories", "slug", "template", "css", "base header level",
        "language", "lang", "copyright", "status", "version", "affiliation", "email", "web",
        "format", "quotes language", "latex input", "html header", "xhtml header", "revision",
    )
)  # fmt: skip


def front_matter_lines(text: str, lines: Lines) -> int:
    """How many lines at the start of a Markdown document are front matter, 0 for none.

    YAML between ``---`` lines (closed by ``---`` or ``...``), TOML between ``+++`` lines (Hugo,
    Zola), JSON from a ``{`` line to a ``}`` line (Hugo), a Pandoc title block (``% title``,
    ``% author``, ``% date``, with continuation lines that start with a space), and
    MultiMarkdown / Python-Markdown (mkdocs) metadata: ``Key: value`` lines up to the first blank
    line, continued by indented lines — recognised when there are two keys or more, or one that
    metadata uses (``Title:``, ``Author:``…), so that a first sentence such as "Note: …" stays
    prose. A ``---`` or ``+++`` block without its closing line is not front matter.
    """
    starts, ends = lines.starts, lines.ends
    n = len(starts)
    first = text[: ends[0]].rstrip(SPACE)
    if first in ("---", "+++"):
        closing = ("---", "...") if first == "---" else ("+++",)
        for i in range(1, n):
            if text[starts[i] : ends[i]].rstrip(SPACE) in closing:
                return i + 1
        return 0
    if first.startswith("{") and (first == "{" or first.startswith('{"')):
        for i in range(1, n):
            if text[starts[i] : ends[i]].rstrip(SPACE) == "}":
                return i + 1
        return 0
    if first.startswith("%"):
        i = 1
        while i < n:
            line = text[starts[i] : ends[i]]
            if line.startswith("%") or (line[:1] in SPACE and line.strip()):
                i += 1
            else:
                break
        return i
    keys: list[str] = []
    i = 0
    while i < n:
        line = text[starts[i] : ends[i]]
        if not line.strip():
            break
        if line[:1] in SPACE and keys:
            i += 1  # a continuation of the value above
            continue
        m = _META_LINE.match(line)
        if m is None:
            return 0
        keys.append(line[: m.end()].rstrip(": \t").lower())
        i += 1
    if len(keys) >= 2 or (keys and keys[0] in _META_KEYS):
        return i
    return 0
