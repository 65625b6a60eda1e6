"""A document's house style, which an answer does not change: two spaces after a full stop.

The service sees one paragraph at a time and writes one space between sentences; a document
that puts two there (flask's and zlib's documentation, GNU READMEs, many LaTeX sources) does so
on purpose, all through. Where the document mostly does, the pipeline keeps the two spaces of
the answer's paragraphs and applies every other change.
"""

from __future__ import annotations

import re

from rephrase_ls.text.diff import word_edits

_CLOSERS = ")]}\"'’”»"
# A sentence's end, then spaces (not a line break), then a capital.
_GAP = re.compile(r"[.!?…][)\]\"'’”»]*( +)(?=[^\W\d_])")


def two_spaces_between_sentences(text: str) -> bool:
    """Whether ``text`` puts two spaces between sentences on a line: twice at least, and at
    least half as often as one (which abbreviations such as "e.g. Foo" also count)."""
    one = two = 0
    for match in _GAP.finditer(text):
        following = text[match.end()]
        if not following.isupper():
            continue
        if len(match.group(1)) == 1:
            one += 1
        elif len(match.group(1)) == 2:
            two += 1
    return two >= 2 and 2 * two >= one


def keep_sentence_spacing(original: str, replacement: str) -> str:
    """``replacement`` with the runs of spaces after a sentence's end that it shortens to one
    kept as in ``original`` (``cache.  A decorator``); every other change applied (``tarball.
    copy it`` → ``tarball.  Copy it``)."""
    parts: list[str] = []
    pos = 0
    for edit in word_edits(original, replacement):
        parts.append(original[pos : edit.start])
        pos = edit.end
        old, new = original[edit.start : edit.end], edit.new_text
        spaces = len(old) - len(old.lstrip(" "))
        # after a sentence's end (``command.}  If``), or before a capital after a citation or
        # other markup that ends one (``slightly.\\cite{Bringhurst2005}  The``)
        ends_sentence = original[: edit.start].rstrip(_CLOSERS)[-1:] in (".", "!", "?", "…")
        starts_one = original[edit.start + spaces : edit.start + spaces + 1].isupper()
        if (
            spaces >= 2
            and new.startswith(" ")
            and not new[1:2].isspace()
            and (ends_sentence or starts_one)
        ):
            new = old[:spaces] + new[1:]
        parts.append(new)
    parts.append(original[pos:])
    return "".join(parts)
