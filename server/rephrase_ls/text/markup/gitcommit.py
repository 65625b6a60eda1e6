"""Prose in git commit, merge and tag messages (languageId ``gitcommit``, ``COMMIT_EDITMSG``).

The subject line is a block of its own; the body is split into blank-line separated paragraphs,
and each list item (``- ``, ``* ``, ``1. ``) starts a new one with its marker outside the segment.
Not prose: ``#`` comment lines (git strips them), everything after the scissors line
(``# ---…--- >8 ---…---``, the diff of ``commit --verbose``), trailers (``Signed-off-by: …``,
``Fixes: …``) and indented lines (quoted output, code). Inside prose: a conventional-commit
prefix (``fix(parser)!:``), inline code, URLs, issue references (``#123``, ``GH-12``), commit
hashes and code-like identifiers are protected.
"""

from __future__ import annotations

import re

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.code_inline import comment_protected
from rephrase_ls.text.markup.lines import Lines, make_block
from rephrase_ls.text.markup.registry import register_format

__all__ = ["gitcommit_blocks", "gitcommit_stripped"]

_SCISSORS = re.compile(r"[#;] -+ >8 -+[ \t]*$")
_TRAILER = re.compile(
    r"(?:[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+|Fixes|Closes|Resolves|Refs|See-also|Bug|Issue"
    r"|Change-Id|Cc|Link|Reported-by|Tested-by|Acked-by)\s*:\s+\S"
)
_LIST_ITEM = re.compile(r"(?:[-*+]|[0-9]{1,3}[.)])[ \t]+")
_PREFIX = re.compile(r"[a-z]+(?:\([^()\n]*\))?!?:(?= )")
_EXTRA = re.compile(
    # #123, owner/repo#123 (names bounded: tried at each word of a run like "a-a-a-…", an
    # unbounded owner would read the rest of the run each time)
    r"(?<![\w/])(?:[A-Za-z][\w.-]{0,99}/[\w.-]{1,100})?#[0-9]+\b"
    r"|\b(?:GH|JIRA|[A-Z]{2,10})-[0-9]+\b"  # GH-12, PROJ-345
    r"|\b[0-9a-f]{7,40}\b"  # commit hash
)


def _protected(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans = comment_protected(text, start, end)
    spans.extend(m.span() for m in _EXTRA.finditer(text, start, end))
    return sorted(spans)


def gitcommit_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of a commit message, subject first."""
    lines = Lines(text)
    blocks: list[ProseBlock] = []
    segments: list[tuple[int, int]] = []
    protected: list[tuple[int, int]] = []

    def flush() -> None:
        if segments:
            block = make_block(text, segments, protected)
            if block is not None:
                blocks.append(block)
        segments.clear()
        protected.clear()

    subject_done = False
    for i in range(len(lines)):
        s, e = lines.starts[i], lines.ends[i]
        line = text[s:e]
        if _SCISSORS.match(line):
            break
        if line.startswith("#"):
            flush()
            continue
        stripped = line.strip()
        if not stripped:
            flush()
            continue
        if not subject_done:
            # the subject is one block even if it wraps (git joins the first paragraph)
            subject_done = True
            segments.append((s, e))
            protected.extend(_protected(text, s, e))
            m = _PREFIX.match(text, s, e)
            if m is not None:
                protected.append(m.span())
                protected.sort()
            continue
        if line[:1] == "\t" or line.startswith("    ") or _TRAILER.match(line):
            flush()
            continue
        start = s + len(line) - len(line.lstrip())
        item = _LIST_ITEM.match(text, start, e)
        if item is not None:
            flush()
            start = item.end()
        segments.append((start, e))
        protected.extend(_protected(text, start, e))
    flush()
    return blocks


def gitcommit_stripped(text: str) -> list[tuple[int, int]]:
    """The spans git strips from a commit message: its ``#`` comment lines and everything from
    the scissors line on (the diff of ``commit --verbose``). They are neither prose nor code: a
    word written there is no word of the message (:func:`rephrase_ls.guards.code_words`)."""
    lines = Lines(text)
    spans: list[tuple[int, int]] = []
    for i in range(len(lines)):
        s, e = lines.starts[i], lines.ends[i]
        line = text[s:e]
        if _SCISSORS.match(line):
            spans.append((s, len(text)))
            break
        if line.startswith("#"):
            spans.append((s, e))
    return spans


register_format(
    "gitcommit",
    gitcommit_blocks,
    filenames=("COMMIT_EDITMSG", "MERGE_MSG", "TAG_EDITMSG", "SQUASH_MSG", "EDIT_DESCRIPTION"),
    stripped_fn=gitcommit_stripped,
)
# VS Code's languageId
register_format("git-commit", gitcommit_blocks, stripped_fn=gitcommit_stripped)
