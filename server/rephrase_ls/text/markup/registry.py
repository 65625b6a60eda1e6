"""The registry of formats: languageId → the function that finds a document's prose blocks, and
the file extensions and names that select it. A format module registers itself at import time."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rephrase_ls.text.markup.block import ProseBlock

__all__ = ["EXTENSIONS", "FILENAMES", "FORMATS", "BlocksFn", "register_format"]

BlocksFn = Callable[[str], list[ProseBlock]]

#: languageId → function producing the prose blocks of a document in that format.
FORMATS: dict[str, BlocksFn] = {}
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
) -> None:
    """Register ``blocks_fn`` for ``language_id`` and map file extensions / names to it."""
    if not language_id or not isinstance(language_id, str):
        raise ValueError("language_id must be a non-empty string")
    if not callable(blocks_fn):
        raise TypeError("blocks_fn must be callable")
    FORMATS[language_id] = blocks_fn
    for extension in extensions:
        if not extension.startswith(".") or len(extension) < 2:
            raise ValueError(f"extension must start with a dot: {extension!r}")
        EXTENSIONS[extension.lower()] = language_id
    for filename in filenames:
        if not filename or "/" in filename:
            raise ValueError(f"invalid file name: {filename!r}")
        FILENAMES[filename] = language_id
