"""Reading the files ``rephrase-ls improve`` is given, with failures a writer can act on: each
names the file and says what to do, in words (no errno numbers, no codec internals)."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from rephrase_ls import safe_write

#: How much of a file is looked at to tell a binary file from a text file (as git does).
BINARY_SAMPLE = 8000

_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe", "UTF-16"),
    (b"\xfe\xff", "UTF-16"),
)


class InputError(Exception):
    """A file that cannot be improved; the message names it and says what to do."""


def os_error(path: Path | str, exc: OSError, doing: str = "read") -> str:
    """``exc`` in words for ``path``, with what to do about it."""
    code = exc.errno
    if isinstance(exc, FileNotFoundError) or code == errno.ENOENT:
        return f"{path}: no such file or folder; check the name"
    if isinstance(exc, IsADirectoryError) or code == errno.EISDIR:
        return f"{path}: is a folder, where a file is needed; give a file"
    if isinstance(exc, NotADirectoryError) or code == errno.ENOTDIR:
        return f"{path}: a part of the path is a file, not a folder; check the path"
    if isinstance(exc, PermissionError) or code in (errno.EACCES, errno.EPERM):
        return f"{path}: permission denied, cannot {doing} it; check its permissions"
    if code == errno.ELOOP:
        return f"{path}: a symbolic link that leads round in a loop; give the file's own path"
    if code == errno.ENOSPC:
        return f"{path}: no space left on the device, cannot {doing} it; free some space"
    if code == errno.EROFS:
        return f"{path}: on a read-only file system, cannot {doing} it"
    reason = exc.strerror or str(exc) or type(exc).__name__
    return f"{path}: cannot {doing} it: {reason[:1].lower()}{reason[1:]}"


def _utf16_without_mark(sample: bytes) -> bool:
    """Whether ``sample`` reads as mostly ASCII text in UTF-16 without a byte-order mark: a NUL
    in (nearly) every other byte, always on the same side."""
    if len(sample) < 4:
        return False
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    return (even >= 0.8 * half and odd == 0) or (odd >= 0.8 * half and even == 0)


def looks_like(raw: bytes) -> str:
    """The encoding bytes that are not UTF-8 look like: a byte-order mark's, else Windows-1252
    where its letters are used (bytes 0x80-0x9F), else Latin-1."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            return name
    if _utf16_without_mark(raw[:BINARY_SAMPLE]):
        return "UTF-16"
    if any(0x80 <= b <= 0x9F for b in raw):
        try:
            raw.decode("cp1252")
            return "Windows-1252"
        except UnicodeDecodeError:
            pass
    return "Latin-1 (ISO-8859-1)"


def is_binary(raw: bytes) -> bool:
    """Whether ``raw`` is not text: a NUL byte near the start (as git and grep tell), unless
    a byte-order mark says UTF-16 or UTF-32."""
    if any(raw.startswith(bom) for bom, _ in _BOMS):
        return False
    sample = raw[:BINARY_SAMPLE]
    if b"\x00" not in sample:
        return False
    return not _utf16_without_mark(sample)


def decode(raw: bytes, name: Path | str) -> str:
    """``raw`` as UTF-8 text (a UTF-8 byte-order mark kept); :class:`InputError` for a binary
    file or another encoding, naming the one it looks like and where the first odd byte is."""
    if is_binary(raw):
        raise InputError(
            f"{name}: not a text file (it holds binary data); rephrase-ls improves text files "
            "in UTF-8. It was not changed."
        )
    try:
        if _utf16_without_mark(raw[:BINARY_SAMPLE]):  # valid UTF-8, but NULs between letters
            raise UnicodeDecodeError("utf-8", raw, 0, 1, "UTF-16")
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        encoding = looks_like(raw)
        iconv = {
            "Windows-1252": "WINDOWS-1252",
            "Latin-1 (ISO-8859-1)": "LATIN1",
        }.get(encoding, encoding)
        raise InputError(
            f"{name}: not UTF-8 (line {line}, byte {column}); it looks like {encoding}. "
            f"Convert it to UTF-8 (for example: iconv -f {iconv} -t UTF-8) and run again. It was "
            "not changed."
        ) from None


def read_file(path: Path) -> safe_write.ReadFile:
    """Read ``path`` for improving; :class:`InputError` saying why not (a folder, a device, a
    missing file, no permission)."""
    try:
        st = os.stat(path)
    except OSError as exc:
        raise InputError(os_error(path, exc)) from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a folder, where a file is needed; give a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(
            f"{path}: not a regular file (a device, a pipe or a socket); give a text file, or "
            "- to read standard input"
        )
    try:
        return safe_write.read(path)
    except OSError as exc:
        raise InputError(os_error(path, exc)) from None
