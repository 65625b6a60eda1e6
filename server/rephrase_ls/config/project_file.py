"""The project file ``.rephrase.toml``: reading it, and changing one key without touching the rest.

The file holds the same keys as the editor settings (camelCase) at its top level, plus
``words = [...]``. The server changes it through ``workspace/applyEdit`` so the writer sees and
can undo the change; :func:`set_key` and :func:`add_word` compute the new text with a
round-trip TOML editor (tomlkit), keeping comments, order, quoting and line endings, and refuse
(:class:`CannotEdit`) a change whose result would be anything but the file with that one key
changed.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rephrase_ls import safe_write

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
    #: keys that are no setting (a misspelling), one warning each
    warnings: tuple[str, ...] = ()


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
        return ProjectFile(path, {}, text, toml_error(path, text, exc))
    from rephrase_ls.config.settings import TABLE_KEYS, unknown_keys
    from rephrase_ls.config.word_files import KEY

    top = {k: v for k, v in values.items() if not isinstance(v, dict) or k in TABLE_KEYS}
    return ProjectFile(path, top, text, warnings=tuple(unknown_keys(values, str(path), [KEY])))


_TOML_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$|\s*\(at end of document\)$")


def toml_error(path: Path, text: str, exc: tomllib.TOMLDecodeError) -> str:
    """What is wrong with a settings file that is not TOML, where, and what to do: ``FILE:LINE:
    not valid TOML: the parser's reason in 'the line'. Its settings are ignored until …``."""
    reason = str(exc)
    m = _TOML_PLACE.search(reason)
    where, shown = str(path), ""
    if m is not None:
        reason = reason[: m.start()]
        lines = text.splitlines()
        number = int(m.group(1)) if m.group(1) else len(lines)
        where = f"{path}:{number}"
        if 0 < number <= len(lines) and lines[number - 1].strip():
            line = lines[number - 1].strip()
            shown = f" in '{line[:60]}{'…' if len(line) > 60 else ''}'"
    reason = reason[:1].lower() + reason[1:]
    return (
        f"{where}: not valid TOML: {reason}{shown}. Its settings are ignored until it is "
        "fixed: write each setting on a line of its own as key = value, text in double "
        'quotes (language = "en-GB"), lists in brackets (words = ["Kubernetes"])'
    )


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


class CannotEdit(ValueError):
    """The project file cannot be changed safely: it stays as it is (the message says why)."""


class WordsNotAList(CannotEdit):
    """``words`` is there but is not a list of strings: adding to it would break it."""


def set_key(text: str | None, key: str, value: str | None) -> str:
    """Return ``text`` with top-level ``key`` set to the string ``value`` (removed when None).

    The file is edited as TOML (tomlkit), so a quoted key (``'language' = "en-US"``), text in
    a multi-line string that looks like a key, comments, order, quoting and line endings are
    what they were; a new key goes after the last top-level key, before the first table.
    Raises :class:`CannotEdit` when the result would not be the file with only that key changed.
    """

    def change(doc: Any, values: dict[str, Any]) -> None:
        if value is None:
            if key in doc:
                del doc[key]
            values.pop(key, None)
        else:
            doc[key] = value
            values[key] = value

    return _edit(text, change, f"set '{key}'")


def add_word(text: str | None, word: str) -> str:
    """Return ``text`` (a project file that parses) with ``word`` added to its ``words``.

    Unchanged when the list already holds the word (in this case: a listed ``Kubernetes``
    does not accept ``kubernetes``). The word goes at the end of the
    list, laid out as the list is (one line, or one word a line); when ``words`` is a table of
    lists per language, at the end of its ``"*"`` list (every language); without a ``words``
    key, a ``words = ["word"]`` line goes where :func:`set_key` puts a new key. Raises
    :class:`WordsNotAList` when ``words`` is something else than a list of strings (or a table
    of them), and :class:`CannotEdit` when the file cannot be changed safely.
    """
    return add_to_list(text, "words", word)


def add_to_list(text: str | None, key: str, item: str) -> str:
    """Return ``text`` with ``item`` added to the list ``key`` (``words``, ``disabledRules``),
    as :func:`add_word` adds a word: unchanged when the list (or, for a table of lists per
    language, its ``"*"`` list) holds it in any case."""
    from rephrase_ls.config.per_language import EVERY

    existing = tomllib.loads(text or "").get(key)

    def strings(value: Any) -> bool:
        return isinstance(value, list) and all(isinstance(w, str) for w in value)

    table = isinstance(existing, dict)
    if existing is not None and not (
        strings(existing) or (table and all(strings(v) for v in existing.values()))
    ):
        what = "words" if key == "words" else "strings"
        raise WordsNotAList(
            f"'{key}' in the project file is not a list of {what} (nor a table of such lists "
            "per language)"
        )
    current = existing.get(EVERY) if isinstance(existing, dict) else existing
    # Words keep their case (a listed "Kubernetes" does not accept "kubernetes"); codes do not.
    fold = (lambda w: w) if key == "words" else str.lower
    if current is not None and fold(item) in (fold(w.strip()) for w in current):
        return text or ""

    def change(doc: Any, values: dict[str, Any]) -> None:
        if existing is None:
            doc[key] = [item]
            values[key] = [item]
        elif table:
            if current is None:
                doc[key][EVERY] = [item]
            else:
                doc[key][EVERY].append(item)
            values[key] = {**existing, EVERY: [*(current or []), item]}
        else:
            doc[key].append(item)
            values[key] = [*existing, item]

    return _edit(text, change, f"add '{item}' to '{key}'")


def _edit(text: str | None, change: Callable[[Any, dict[str, Any]], None], what: str) -> str:
    """``text`` changed by ``change(document, expected_values)``, which edits the tomlkit
    document and the parsed values the same way; the result must parse to exactly those."""
    import tomlkit  # here, not at start-up
    from tomlkit.exceptions import TOMLKitError

    source = text or ""
    expected = tomllib.loads(source)
    refusal = (
        f"{FILE_NAME} could not be changed safely ({what}); it was left as it is. "
        "Make the change by hand"
    )
    try:
        doc = tomlkit.parse(source)
        change(doc, expected)
        out = doc.as_string()
    except (TOMLKitError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise CannotEdit(f"{refusal} ({type(exc).__name__}: {exc})") from None
    crlf = "\r\n" in source and "\n" not in source.replace("\r\n", "")
    if crlf:  # every line of the file ends in CRLF: so do the lines tomlkit added
        out = re.sub(r"(?<!\r)\n", "\r\n", out)
    out = _trim_end(out, "\r\n" if crlf else "\n")
    try:
        if tomllib.loads(out) == expected:
            return out
    except tomllib.TOMLDecodeError:
        pass
    raise CannotEdit(refusal)


def _trim_end(text: str, newline: str) -> str:
    """Blank lines at the end dropped, so the file ends with one line break (an editor that
    creates the file from an empty buffer, as Neovim does, leaves an empty last line that would
    otherwise stay for good)."""
    pieces = text.split("\n")
    while pieces and not pieces[-1].strip(" \t\r"):
        pieces.pop()
    return "\n".join(pieces).removesuffix("\r") + newline if pieces else ""
