"""The ``exclude`` setting: gitignore-style patterns (``CHANGELOG.md``, ``vendor/**``) naming
files rephrase-ls leaves alone: no diagnostics in the editor, skipped by ``rephrase-ls
improve``. The patterns are read as git reads a ``.gitignore`` at the project's root (the folder
holding ``.rephrase.toml``, or the workspace folder): a name without a slash matches at any
depth, a leading slash anchors it to the root, ``**`` spans folders, ``!`` takes a file back.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import pathspec

#: The most patterns one setting may hold (a planted project file cannot make every check slow).
MAX_PATTERNS = 1000


class BadPattern(ValueError):
    """A pattern git could not read; the message names it."""


@lru_cache(maxsize=64)
def compile_patterns(patterns: tuple[str, ...]) -> pathspec.GitIgnoreSpec:
    """The patterns as one gitignore spec; :class:`BadPattern` for one that is not valid."""
    if len(patterns) > MAX_PATTERNS:
        raise BadPattern(f"at most {MAX_PATTERNS} patterns, got {len(patterns)}")
    for pattern in patterns:
        try:
            pathspec.GitIgnoreSpec.from_lines([pattern])
        except (ValueError, TypeError) as exc:
            raise BadPattern(f"{pattern!r} is not a gitignore pattern ({exc})") from None
    return pathspec.GitIgnoreSpec.from_lines(list(patterns))


def excluded(path: Path, root: Path, patterns: Sequence[str], *, is_dir: bool = False) -> bool:
    """Whether ``patterns`` (relative to ``root``) exclude ``path``; a path outside ``root`` is
    never excluded."""
    if not patterns:
        return False
    relative = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
    if relative == "." or relative.startswith(".." + os.sep) or relative == "..":
        return False
    try:
        spec = compile_patterns(tuple(patterns))
    except BadPattern:
        return False  # reported when the setting was read
    name = Path(relative).as_posix()
    return spec.match_file(name + "/" if is_dir else name)
