"""The registry of formats: languageId → the function that finds a document's prose blocks, and
the file extensions and names that select it. A format module registers itself at import time."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rephrase_ls.text.markup.block import ProseBlock

__all__ = [
    "EXTENSIONS",
    "FILENAMES",
    "FORMATS",
    "STRIPPED",
    "BlocksFn",
    "SpansFn",
    "register_format",
]

BlocksFn = Callable[[str], list[ProseBlock]]
SpansFn = Callable[[str], list[tuple[int, int]]]

#: languageId → function producing the prose blocks of a document in that format.
FORMATS: dict[str, BlocksFn] = {}
#: languageId → function giving the spans of a document that the format's own tool strips
#: before use (a commit message's ``#`` comment lines and the diff below its scissors line):
#: neither prose nor code.
STRIPPED: dict[str, SpansFn] = {}
#: lower-case file extension (with the dot, e.g. ``".md"``) → languageId.
EXTENSIONS: dict[str, str] = {}
#: exact file name (e.g. ``"COMMIT_EDITMSG"``) → languageId.
FILENAMES: dict[str, str] = {}


def register_format(
    language_id: str,
    blocks_fn: BlocksFn,
    *,
    extensions: Iterable[str] = (),
    filenames: Iterable[str] = (),
    stripped_fn: SpansFn | None = None,
) -> None:
    """Register ``blocks_fn`` for ``language_id`` and map file extensions / names to it;
    ``stripped_fn``: the spans the format's tool strips (see :data:`STRIPPED`)."""
    if not language_id or not isinstance(language_id, str):
        raise ValueError("language_id must be a non-empty string")
    if not callable(blocks_fn):
        raise TypeError("blocks_fn must be callable")
    FORMATS[language_id] = blocks_fn
    if stripped_fn is not None:
        STRIPPED[language_id] = stripped_fn
    for extension in extensions:
        if not extension.startswith(".") or len(extension) < 2:
            raise ValueError(f"extension must start with a dot: {extension!r}")
        EXTENSIONS[extension.lower()] = language_id
    for filename in filenames:
        if not filename or "/" in filename:
            raise ValueError(f"invalid file name: {filename!r}")
        FILENAMES[filename] = language_id
