"""Words a document writes in code (code blocks, inline code, identifiers, URLs, paths): an
answer never replaces such a word in the prose by another word, since it names the code."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from rephrase_ls.text.align import opcodes
from rephrase_ls.text.diff import word_edits
from rephrase_ls.text.paragraphs import Paragraph
from rephrase_ls.text.switches import switched_off

if TYPE_CHECKING:
    from rephrase_ls.text.markup import ProseBlock

_LETTER_RUN = re.compile(r"[^\W\d_]+")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _words_of(code: str) -> list[str]:
    """The lower-case words of ``code``: its letter runs, camelCase split at each capital
    (``fetchStrcts_v2`` gives ``fetch`` and ``strcts``)."""
    return [
        part.lower()
        for run in _LETTER_RUN.findall(code)
        for part in _CAMEL_HUMP.split(run)
        if len(part) > 1
    ]


def code_word_parts(run: str) -> list[str]:
    """The words of a letter run as :func:`code_words` and :func:`keep_code_words` compare them
    (lower case, camelCase split, one letter aside)."""
    return _words_of(run)


def code_words(
    text: str,
    blocks: Sequence[ProseBlock | Paragraph],
    stripped: Sequence[tuple[int, int]] = (),
) -> frozenset[str]:
    """The words the document ``text`` writes outside its prose: in code blocks, inline code,
    identifiers, URLs and paths (everything outside the ``blocks``' prose, and their
    protected spans). A service never changes such a word in the prose either
    (:func:`keep_code_words`): it names the code (``recieve()`` defined, "then recieve
    waits"). Text the in-document switches take out (``rephrase: off`` … ``on``,
    ``rephrase: ignore-next-line``) is not looked at: the ``blocks`` leave its prose out, and
    a slip written there is no code; nor are the ``stripped`` spans (sorted), which the
    format's tool strips (:func:`rephrase_ls.text.markup.stripped_spans`: a commit message's
    ``#`` comment lines and the diff below its scissors line)."""
    off = switched_off(text)
    if stripped:
        off = sorted([*off, *stripped])
    outside: list[str] = []
    pos = 0
    for block in blocks:
        if isinstance(block, Paragraph):
            segments: Sequence[tuple[int, int]] = ((block.start, block.end),)
            inside = list(block.masked.originals) if block.masked is not None else []
        else:
            segments = block.segments
            inside = [text[start:end] for start, end in block.protected]
        for start, end in segments:
            if start >= pos:
                outside += _switched_on(text, pos, start, off)
                pos = end
        outside.extend(inside)
    outside += _switched_on(text, pos, len(text), off)
    runs = {run for piece in outside for run in _LETTER_RUN.findall(piece)}
    return frozenset(word for run in runs for word in _words_of(run))


def _switched_on(text: str, start: int, end: int, off: Sequence[tuple[int, int]]) -> list[str]:
    """The pieces of ``text[start:end]`` outside the switched-off spans ``off`` (sorted)."""
    pieces: list[str] = []
    for s, e in off:
        if e <= start or s >= end:
            continue
        if s > start:
            pieces.append(text[start:s])
        start = max(start, e)
    if start < end:
        pieces.append(text[start:end])
    return pieces


_WORD_OR_NOT = re.compile(r"[^\W\d_]+|[\W\d_]+")


def keep_code_words(original: str, replacement: str, code: frozenset[str]) -> str:
    """``replacement`` without the replacements of words of ``code`` (:func:`code_words`) by
    other words: such a word is kept as it was, every other change applied (a doubled word
    removed, a capital added, another word corrected)."""
    if _LETTER_RUN.findall(original.lower()) == _LETTER_RUN.findall(replacement.lower()):
        return replacement  # the same words: none replaced (spacing, punctuation, capitals)
    parts: list[str] = []
    pos = 0
    for edit in word_edits(original, replacement):
        parts.append(original[pos : edit.start])
        pos = edit.end
        changed = original[edit.start : edit.end]
        if not any(word in code for word in _words_of(changed)):
            parts.append(edit.new_text)
            continue
        old, new = _WORD_OR_NOT.findall(changed), _WORD_OR_NOT.findall(edit.new_text)
        for op, i1, i2, j1, j2 in opcodes(old, new):
            if op != "replace":
                parts.extend(new[j1:j2])  # equal, inserted, or deleted (a doubled word)
            elif i2 - i1 == j2 - j1:
                parts.extend(
                    a if a.lower() != b.lower() and set(_words_of(a)) & code else b
                    for a, b in zip(old[i1:i2], new[j1:j2], strict=True)
                )
            else:
                gone = {w for a in old[i1:i2] for w in _words_of(a)} - {
                    w for b in new[j1:j2] for w in _words_of(b)
                }
                parts.extend(old[i1:i2] if gone & code else new[j1:j2])
    parts.append(original[pos:])
    return "".join(parts)


def keep_lower_case_words(original: str, replacement: str, lower: frozenset[str]) -> str:
    """``replacement`` without the capitals it adds to the first letter of words of ``lower``
    (names a document writes only in lower case,
    :meth:`rephrase_ls.guards.chain.DocumentFacts.lower_case`: ``Yes. zlib doesn't…`` stays so),
    also where the same change tidies the spaces or punctuation around the word (``done.  zlib`` →
    ``done. Zlib``) or rewrites the words after it (a style's ``zlib doesn't`` → ``Zlib does
    not`` gives ``zlib does not``); every other change applied."""
    parts: list[str] = []
    pos = 0
    for edit in word_edits(original, replacement):
        parts.append(original[pos : edit.start])
        pos = edit.end
        old = _LETTER_RUN.findall(original, edit.start, edit.end)
        new = edit.new_text
        if len(old) != len(_LETTER_RUN.findall(new)) or any(
            a.lower() != b.lower() for a, b in zip(old, _LETTER_RUN.findall(new), strict=True)
        ):
            # The words change ("zlib doesn't" -> "Zlib does not" in a style): the change
            # applies, but not a capital it gives the first word when that is such a name.
            first = _LETTER_RUN.search(new)
            if (
                old
                and first is not None
                and old[0] in lower
                and first.group() == old[0][0].upper() + old[0][1:]
            ):
                new = new[: first.start()] + old[0] + new[first.end() :]
            parts.append(new)
            continue
        said = iter(old)

        def back(match: re.Match[str], said: Iterator[str] = said) -> str:
            word, was = match.group(), next(said)
            # only the first letter capitalised (not ok → OK)
            return was if was in lower and word == was[0].upper() + was[1:] else word

        parts.append(_LETTER_RUN.sub(back, new))
    parts.append(original[pos:])
    return "".join(parts)
