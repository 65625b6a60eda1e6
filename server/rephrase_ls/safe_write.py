"""Writing files that cannot be hijacked and lose no one's work: the one way rephrase-ls writes.

Both ``rephrase-ls improve --write`` and the language server (a ``.rephrase.toml`` it creates
itself) write through this module. The rules:

- **Only inside the allowed area.** The caller names the folders it may write in (the CLI: the
  project root of the file as named; the server: the workspace folders). The file's real path,
  every symbolic link resolved, must lie inside one of them, else nothing is written. A symbolic
  link whose target is inside is followed: the target is written and the link stays a link.
- **A fresh temporary file, never a planted one.** The new text goes to a temporary file in the
  target's own folder, created with ``O_CREAT | O_EXCL | O_NOFOLLOW``: a file or symbolic link
  already at that name (planted or left over) is never opened, let alone followed; the next name
  of :func:`temp_names` is tried. The names are fixed so that they are recognisable; their safety
  comes from exclusive creation, not from being hard to guess. When every name is taken the write
  is refused with a message saying which names to remove.
- **Nobody's work is lost.** :func:`replace` is given what was read (:func:`read`). Just before
  the rename it opens the file again without following links and compares its identity (device
  and inode) and its whole content with what was read; a file edited, replaced, deleted or turned
  into a link meanwhile is left as it is and the write is refused.
- **The file stays what it was.** Permission bits are copied; the owner and group are kept (set
  on the temporary file before the rename); when they cannot be kept (another user's file, a
  group you are not in) the write is refused rather than silently giving the file to you.
- **Refused, not forced.** A file with no write permission for you, or with no write bit at all
  (even when the superuser could write it), is refused; so is a file with more than one hard
  link: replacing it would split it from its other names, and writing in place could leave it
  half-written, so it is left alone and the caller says how to apply the change by hand. Anything
  that is not a regular file is refused too.

A write refused for any of these reasons raises :class:`WriteRefused`, whose text says what
happened and that nothing was written; the temporary file, if made, is removed. What remains
possible is a change in the instant between the last check and the rename (POSIX offers no
compare-and-swap for files); the window is a few system calls long.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

#: How many temporary names :func:`temp_names` offers for one file.
TEMP_ATTEMPTS = 16

_O_BINARY = getattr(os, "O_BINARY", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
#: Relative operations in an open directory where the platform has them (not Windows).
_USE_DIR_FD = all(
    f in os.supports_dir_fd for f in (os.open, os.stat, os.link, os.unlink, os.rename)
)


class WriteRefused(Exception):
    """The file was not written; the text says why, and that nothing was changed."""


@dataclass(frozen=True)
class ReadFile:
    """What was read from a file: its bytes and the identity of the file they came from."""

    path: Path
    data: bytes
    device: int
    inode: int


def read(path: Path, max_bytes: int | None = None) -> ReadFile:
    """Read ``path`` (following links, as named) and note which file was read.

    Only a regular file is read: a device, a pipe or a socket (``README.md`` planted as a link
    to ``/dev/zero``, a FIFO in an unpacked archive) would never end or never answer. It is
    opened without blocking, so that a FIFO is refused rather than waited on. With
    ``max_bytes``, a larger file is refused unread.

    Raises :class:`OSError` when it cannot be read.
    """
    fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | _O_CLOEXEC | _O_BINARY)
    with open(fd, "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if max_bytes is None:
            data = fh.read()
        else:
            data = fh.read(max_bytes + 1)  # the size may have changed since fstat
            if st.st_size > max_bytes or len(data) > max_bytes:
                raise OSError(
                    errno.EFBIG,
                    f"larger than {max_bytes // 1024} KiB ({max(st.st_size, len(data))} bytes)",
                    str(path),
                )
    return ReadFile(path, data, st.st_dev, st.st_ino)


def temp_names(name: str) -> list[str]:
    """Every temporary name used beside the file ``name``, in the order they are tried."""
    base = name if name.startswith(".") else "." + name
    return [f"{base}.rephrase-tmp"] + [f"{base}.rephrase-tmp{n}" for n in range(1, TEMP_ATTEMPTS)]


def inside(path: Path, allowed: Sequence[Path]) -> bool:
    """Whether the real path of ``path`` (links resolved) lies in one of the ``allowed`` folders."""
    real = Path(os.path.realpath(path))
    for folder in allowed:
        root = Path(os.path.realpath(folder))
        if real == root or root in real.parents:
            return True
    return False


def _area(allowed: Sequence[Path]) -> str:
    return ", ".join(str(folder) for folder in allowed) or "(none)"


def require_inside(path: Path, allowed: Sequence[Path]) -> Path:
    """The real file behind ``path``; :class:`WriteRefused` when it lies outside ``allowed``."""
    real = Path(os.path.realpath(path))
    if not inside(real, allowed):
        if real != Path(os.path.abspath(path)):
            raise WriteRefused(
                f"{path} is a symbolic link to {real}, which is outside {_area(allowed)}, where "
                "rephrase-ls may write; nothing was written. Give the target's own path to "
                "change it there."
            )
        raise WriteRefused(
            f"{path} is outside {_area(allowed)}, where rephrase-ls may write; nothing was written"
        )
    return real


def _refuse_unwritable(path: Path, real: Path, st: os.stat_result) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise WriteRefused(f"{path} is not a regular file; nothing was written")
    if not (st.st_mode & 0o222) or not os.access(real, os.W_OK):
        raise WriteRefused(
            f"{path} is read-only; nothing was written. Make it writable (chmod u+w) to let "
            "rephrase-ls change it."
        )
    if st.st_nlink > 1:
        raise WriteRefused(
            f"{path} has {st.st_nlink} hard links; writing it would split it from its other "
            "names, so nothing was written. Apply the changes from --diff by hand."
        )


def check(path: Path, allowed: Sequence[Path]) -> Path:
    """Refuse early what :func:`replace` would refuse regardless of content; the real path."""
    real = require_inside(path, allowed)
    try:
        st = os.lstat(real)
    except OSError as exc:
        raise WriteRefused(
            f"{path}: cannot be written ({exc.strerror}); nothing was written"
        ) from None
    _refuse_unwritable(path, real, st)
    return real


class _Folder:
    """The target's folder, opened once so that every step happens in the same folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder
        self.fd: int | None = None
        if _USE_DIR_FD:
            self.fd = os.open(folder, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC)

    def at(self, name: str) -> str:
        return name if self.fd is not None else str(self.path / name)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def sync(self) -> None:
        """Make the rename durable where the platform allows (best effort)."""
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.fsync(self.fd)

    def open(self, name: str, flags: int, mode: int = 0o600) -> int:
        return os.open(self.at(name), flags, mode, dir_fd=self.fd)

    def lstat(self, name: str) -> os.stat_result:
        return os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False)

    def unlink(self, name: str) -> None:
        os.unlink(self.at(name), dir_fd=self.fd)

    def rename(self, src: str, dst: str) -> None:
        if self.fd is not None:
            os.rename(src, dst, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        else:
            os.replace(self.at(src), self.at(dst))

    def link(self, src: str, dst: str) -> None:
        os.link(self.at(src), self.at(dst), src_dir_fd=self.fd, dst_dir_fd=self.fd)


def _write_temp(
    folder: _Folder,
    path: Path,
    name: str,
    data: bytes,
    mode: int | None,
    owner: tuple[int, int] | None,
) -> str:
    """Write ``data`` to a new temporary file beside ``name``; its name.

    With ``mode`` (a file being replaced) the file is made private, then given ``owner`` and
    ``mode``; without (a new file), it gets the permissions the umask gives a new file.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
    names = temp_names(name)
    for candidate in names:
        try:
            fd = folder.open(candidate, flags, 0o666 if mode is None else 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise WriteRefused(
                f"{path}: cannot create a temporary file in {folder.path} ({exc.strerror}); "
                "nothing was written"
            ) from None
        break
    else:
        raise WriteRefused(
            f"{path}: cannot create a temporary file beside it: {names[0]} … {names[-1]} all "
            f"exist in {folder.path}. They are not rephrase-ls's while it is not running: "
            "remove them and try again. Nothing was written."
        )
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if owner is not None and hasattr(os, "fchown"):
                uid, gid = owner
                with contextlib.suppress(PermissionError):
                    os.fchown(fd, uid, gid)
                st = os.fstat(fd)
                if (st.st_uid, st.st_gid) != (uid, gid):
                    with contextlib.suppress(PermissionError):
                        os.fchown(fd, -1, gid)  # the group alone may be allowed
                    st = os.fstat(fd)
                    if (st.st_uid, st.st_gid) != (uid, gid):
                        raise WriteRefused(
                            f"{path} belongs to user {uid}, group {gid}; the new file could not "
                            "keep that owner, so nothing was written"
                        )
            if mode is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, mode)  # after fchown, which may clear set-id bits
            os.fsync(fd)
        finally:
            os.close(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            folder.unlink(candidate)
        raise
    return candidate


def _verify(folder: _Folder, path: Path, real: Path, expected: ReadFile) -> None:
    """Refuse unless ``real`` is still the very file that was read, with the same content."""
    changed = (
        f"{path} changed while rephrase-ls was working on it, so it was left as it is now "
        "(nothing was written). Run the command again to improve the current text."
    )
    try:
        fd = folder.open(
            real.name, os.O_RDONLY | _O_NOFOLLOW | _O_CLOEXEC | _O_NONBLOCK | _O_BINARY
        )
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ELOOP, errno.EMLINK):
            raise WriteRefused(changed) from None
        raise WriteRefused(
            f"{path}: cannot be checked ({exc.strerror}); nothing was written"
        ) from None
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != (expected.device, expected.inode):
            raise WriteRefused(changed)
        _refuse_unwritable(path, real, st)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    if b"".join(chunks) != expected.data:
        raise WriteRefused(changed)


def replace(original: ReadFile, data: bytes, allowed: Sequence[Path]) -> None:
    """Replace the file ``original`` was read from with ``data``, under the module's rules.

    Raises :class:`WriteRefused` (nothing written) or :class:`OSError` from the final rename.
    """
    path = original.path
    real = check(path, allowed)
    try:
        folder = _Folder(real.parent)
    except OSError as exc:
        raise WriteRefused(
            f"{path}: cannot open its folder ({exc.strerror}); nothing was written"
        ) from None
    try:
        try:
            st = folder.lstat(real.name)
        except OSError:
            raise WriteRefused(
                f"{path} changed while rephrase-ls was working on it, so it was left as it is "
                "now (nothing was written). Run the command again to improve the current text."
            ) from None
        tmp = _write_temp(
            folder, path, real.name, data, stat.S_IMODE(st.st_mode), (st.st_uid, st.st_gid)
        )
        try:
            _verify(folder, path, real, original)
            folder.rename(tmp, real.name)
            folder.sync()
        except BaseException:
            with contextlib.suppress(OSError):
                folder.unlink(tmp)
            raise
    finally:
        folder.close()


def create(path: Path, data: bytes, allowed: Sequence[Path]) -> None:
    """Create ``path`` holding ``data``; refused when anything (even a dangling link) is there.

    Raises :class:`WriteRefused` (nothing written).
    """
    real_folder = Path(os.path.realpath(path.parent))
    if not inside(real_folder, allowed):
        raise WriteRefused(
            f"{path} is outside {_area(allowed)}, where rephrase-ls may write; nothing was written"
        )
    exists = WriteRefused(f"{path} already exists (perhaps as a link); nothing was written")
    if os.path.lexists(path):
        raise exists
    try:
        folder = _Folder(real_folder)
    except OSError as exc:
        raise WriteRefused(
            f"{path}: cannot open its folder ({exc.strerror}); nothing was written"
        ) from None
    try:
        tmp = _write_temp(folder, path, path.name, data, None, None)
        try:
            folder.link(tmp, path.name)  # fails on anything already there, links included
        except FileExistsError:
            raise exists from None
        except OSError:
            # No hard links on this file system: create the name exclusively and write it.
            _create_in_place(folder, path, data)
        finally:
            with contextlib.suppress(OSError):
                folder.unlink(tmp)
        folder.sync()
    finally:
        folder.close()


def _create_in_place(folder: _Folder, path: Path, data: bytes) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW | _O_CLOEXEC | _O_BINARY
    try:
        fd = folder.open(path.name, flags, 0o666)
    except FileExistsError:
        raise WriteRefused(
            f"{path} already exists (perhaps as a link); nothing was written"
        ) from None
    except OSError as exc:
        raise WriteRefused(
            f"{path}: cannot be created ({exc.strerror}); nothing was written"
        ) from None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            folder.unlink(path.name)
        raise
    os.close(fd)
