"""Plain word lists: the user's ``words.txt`` in the user config folder, and the files a
project file names in ``wordFiles = ["docs/wordlist.txt"]``.

A word list holds one word a line; blank lines and lines starting with ``#`` are skipped.
A project's word file is read only when its real path (links resolved) lies inside the
project's folder, as the project file itself: a cloned repository's list linking to a file
elsewhere is not read. Only regular files up to :data:`MAX_BYTES` are read.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rephrase_ls import safe_write

#: The user's own word list, in the user config folder.
USER_FILE = "words.txt"
#: The project file key naming word files.
KEY = "wordFiles"
#: The largest word file read (1 MiB, some 100,000 words).
MAX_BYTES = 1024 * 1024


def parse(text: str) -> tuple[str, ...]:
    """The words of a word list's text."""
    words = (line.strip() for line in text.splitlines())
    return tuple(dict.fromkeys(w for w in words if w and not w.startswith("#")))


def read(path: Path) -> tuple[str, ...]:
    """The words of the word list ``path``. Raises :class:`OSError` (:class:`FileNotFoundError`
    when there is none) or :class:`UnicodeDecodeError`."""
    return parse(safe_write.read(path, MAX_BYTES).data.decode("utf-8-sig"))


def stamp(path: Path) -> tuple[int, int] | None:
    """The file's (mtime, size), None when it cannot be seen: what decides re-reading it."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


def listed(value: Any) -> tuple[list[str], str | None]:
    """The file names of a ``wordFiles`` value, and what is wrong with it (None: nothing)."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return [], f"{KEY} must be a list of file paths inside the project; it is ignored"
    return [v for v in value if v.strip()], None


def project_paths(folder: Path, value: Any) -> list[Path]:
    """The paths a ``wordFiles`` value names, relative to the project's ``folder``."""
    names, _ = listed(value)
    return [folder / name for name in names]


def read_project(folder: Path, value: Any, source: str) -> tuple[tuple[str, ...], list[str]]:
    """The words of the word files a project file (``source``) names in ``wordFiles``, and
    warnings for the files not read (outside the project, missing, unreadable)."""
    names, wrong = listed(value)
    warnings = [f"{source}: {wrong}"] if wrong else []
    words: list[str] = []
    for name in names:
        path = folder / name
        if Path(name).is_absolute() or not safe_write.inside(path, [folder]):
            warnings.append(
                f"{source}: {KEY}: {name} leads outside the project "
                f"({os.path.realpath(path)} is not in {folder}); it was not read. List only "
                "files inside the project."
            )
            continue
        try:
            words += read(path)
        except FileNotFoundError:
            warnings.append(f"{source}: {KEY}: {path} does not exist; it is ignored")
        except (OSError, UnicodeDecodeError) as exc:
            warnings.append(f"{source}: {KEY}: {path} cannot be read ({exc})")
    return tuple(words), warnings


def with_word(text: str | None, word: str) -> str:
    """A word list's text with ``word`` added on a line of its own at the end (unchanged when
    the list holds it, in this case)."""
    text = text or ""
    if word in parse(text):
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    if text and not text.endswith(("\n", "\r")):
        text += newline
    return text + word + newline


__all__: Sequence[str] = [
    "KEY",
    "MAX_BYTES",
    "USER_FILE",
    "listed",
    "parse",
    "project_paths",
    "read",
    "read_project",
    "stamp",
    "with_word",
]
