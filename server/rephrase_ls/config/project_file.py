"""The project file ``.rephrase.toml``: reading it, and changing one key without touching the rest.

The file holds the same keys as the editor settings (camelCase) at its top level, plus
``words = [...]``. The server changes it through ``workspace/applyEdit`` so the writer sees and
can undo the change; :func:`set_key` computes the new text, keeping comments and other keys.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FILE_NAME = ".rephrase.toml"
#: The largest project file read (1 MiB, tens of thousands of ``words``): a planted file of
#: megabytes would stall the server on every change and request.
MAX_BYTES = 1024 * 1024
ROOT_MARKERS = (FILE_NAME, ".git")


@dataclass(frozen=True)
class ProjectFile:
    """A parsed project file (or its absence)."""

    path: Path
    values: dict[str, Any]
    text: str | None
    error: str | None = None


def find_root(start: Path) -> Path:
    """The nearest folder at or above ``start`` holding a root marker, else ``start``'s folder."""
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        if any((candidate / marker).exists() for marker in ROOT_MARKERS):
            return candidate
    return folder


def parse(path: Path, text: str | None) -> ProjectFile:
    """Parse the text of a project file; a syntax error is reported, not raised."""
    if text is None:
        return ProjectFile(path, {}, None)
    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return ProjectFile(
            path, {}, text, f"{path}: not valid TOML ({exc}); its settings are ignored"
        )
    top = {k: v for k, v in values.items() if not isinstance(v, dict)}
    return ProjectFile(path, top, text)


class OutsideProject(OSError):
    """The project file is a link whose target lies outside its project: it is not read."""


def read_text(path: Path) -> str:
    """The text of the project file ``path``, read only when it resolves inside its project
    (``path``'s folder: a cloned repository's ``.rephrase.toml`` linking to a file elsewhere
    is not read, as it is not written), when it is a regular file (a link to ``/dev/zero``
    would be read until memory runs out, a FIFO would never answer), and only up to
    :data:`MAX_BYTES`.

    Raises :class:`OSError` (:class:`FileNotFoundError` when there is none,
    :class:`OutsideProject`) or :class:`UnicodeDecodeError`.
    """
    import os

    from rephrase_ls import safe_write

    if os.path.lexists(path) and not safe_write.inside(path, [path.parent]):
        raise OutsideProject(
            f"it is a symbolic link to {os.path.realpath(path)}, which is outside the project "
            f"({path.parent}); it was not read and its settings are not used"
        )
    return safe_write.read(path, MAX_BYTES).data.decode("utf-8")


def read(folder: Path) -> ProjectFile:
    """Read ``folder/.rephrase.toml`` from disk."""
    path = folder / FILE_NAME
    try:
        text = read_text(path)
    except FileNotFoundError:
        text = None
    except (OSError, UnicodeDecodeError) as exc:
        return ProjectFile(path, {}, None, f"{path}: cannot be read ({exc})")
    return parse(path, text)


_TABLE = re.compile(r"^\s*\[")
_TOML_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def toml_string(value: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters (DEL too) escaped."""
    out = []
    for ch in value:
        if ch in _TOML_ESCAPES:
            out.append(_TOML_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _key_pattern(key: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*(?:{re.escape(key)}|\"{re.escape(key)}\")\s*=")


def set_key(text: str | None, key: str, value: str | None) -> str:
    """Return ``text`` with top-level ``key`` set to the string ``value`` (removed when None).

    Only the key's own line changes (a multi-line value is not expected for these string keys);
    every other line, comment and table stays as it was. A new key goes after the last top-level
    line, before the first table. Blank lines at the end of the file are dropped, so the file
    ends with one line break (an editor that creates the file from an empty buffer, as Neovim
    does, leaves an empty last line that would otherwise stay for good).
    """
    return _trim_end(_set_key_lines((text or "").splitlines(keepends=True), key, value))


def _trim_end(lines: list[str]) -> str:
    while lines and not lines[-1].strip():
        lines.pop()
    return "".join(lines)


def _set_key_lines(lines: list[str], key: str, value: str | None) -> list[str]:
    pattern = _key_pattern(key)
    new_line = None if value is None else f"{key} = {toml_string(value)}\n"
    first_table = next((i for i, line in enumerate(lines) if _TABLE.match(line)), len(lines))
    for i in range(first_table):
        if pattern.match(lines[i]):
            newline = "\r\n" if lines[i].endswith("\r\n") else "\n"
            if new_line is None:
                del lines[i]
            else:
                lines[i] = new_line.replace("\n", newline)
            return lines
    if new_line is None:
        return lines
    insert_at = first_table
    while insert_at > 0 and not lines[insert_at - 1].strip():
        insert_at -= 1
    if insert_at > 0 and not lines[insert_at - 1].endswith(("\n", "\r")):
        lines[insert_at - 1] += "\n"
    lines.insert(insert_at, new_line)
    return lines


class WordsNotAList(ValueError):
    """``words`` is there but is not a list of strings: adding to it would break it."""


def add_word(text: str | None, word: str) -> str:
    """Return ``text`` (a project file that parses) with ``word`` added to its ``words`` list.

    Unchanged when the list already holds the word (any case). The word goes right before the
    list's closing bracket, so every other line, comment and key stays as it was; without a
    ``words`` key, a ``words = ["word"]`` line goes where :func:`set_key` puts a new key.
    Raises :class:`WordsNotAList` when ``words`` is something else than a list of strings.
    """
    values = tomllib.loads(text or "")
    existing = values.get("words")
    if existing is None:
        lines = _set_key_lines((text or "").splitlines(keepends=True), "words", "")
        return _trim_end(
            [line.replace('words = ""', f"words = [{toml_string(word)}]", 1) for line in lines]
        )
    if not isinstance(existing, list) or not all(isinstance(w, str) for w in existing):
        raise WordsNotAList("'words' in the project file is not a list of words")
    if word.lower() in (w.strip().lower() for w in existing):
        return text or ""
    assert text is not None
    pattern = _key_pattern("words")
    offset = 0
    for line in text.splitlines(keepends=True):
        if _TABLE.match(line):
            break
        if pattern.match(line):
            break
        offset += len(line)
    opening = text.index("[", text.index("=", offset))
    closing = _closing_bracket(text, opening)
    inside = text[opening + 1 : closing]
    words = [*existing, word]
    if "\n" in inside:  # a list over several lines: one more line, indented like the others
        last = inside[: len(inside.rstrip())]
        lines = last.rsplit("\n", 1)
        indent = re.match(r"[ \t]*", lines[-1])
        pad = indent.group(0) if indent and indent.group(0) else "    "
        comma = "" if not last.strip() or last.endswith(",") else ","
        new = f"{last}{comma}\n{pad}{toml_string(word)},{inside[len(last) :]}"
    else:
        body = inside.rstrip()
        comma = "" if not body.strip() else " " if body.endswith(",") else ", "
        new = f"{body}{comma}{toml_string(word)}"
    out = text[: opening + 1] + new + text[closing:]
    try:
        if tomllib.loads(out).get("words") == words:
            return out
    except tomllib.TOMLDecodeError:
        pass
    # A layout the insertion cannot follow (a comment after the last word): the list on one line.
    one_line = "[" + ", ".join(toml_string(w) for w in words) + "]"
    return text[:opening] + one_line + text[closing + 1 :]


def _closing_bracket(text: str, opening: int) -> int:
    """The index of the ``]`` closing the array opened at ``opening`` (TOML strings and comments
    skipped)."""
    depth = 0
    i = opening
    while i < len(text):
        ch = text[i]
        if ch == "#":
            i = text.find("\n", i)
            if i < 0:
                break
        elif text.startswith(('"""', "'''"), i):
            i = text.index(text[i : i + 3], i + 3) + 2
        elif ch == '"':
            i += 1
            while text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif ch == "'":
            i = text.index("'", i + 1)
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("unclosed 'words' list")
