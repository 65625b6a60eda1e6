"""``rephrase_ls.safe_write`` in-process: the cases a real process cannot time (a file changed
between the read and the rename), and the path-based variant used where ``dir_fd`` is missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rephrase_ls import safe_write
from rephrase_ls.safe_write import WriteRefused


@pytest.fixture(params=[True, False], ids=["dir-fd", "paths"])
def variant(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> bool:
    monkeypatch.setattr(safe_write, "_USE_DIR_FD", request.param)
    return bool(request.param)


def _file(tmp_path: Path, text: bytes = b"old\n") -> Path:
    path = tmp_path / "doc.md"
    path.write_bytes(text)
    return path


def test_replace_writes_and_leaves_no_temporary_file(tmp_path: Path, variant: bool) -> None:
    path = _file(tmp_path)
    safe_write.replace(safe_write.read(path), b"new\n", [tmp_path])
    assert path.read_bytes() == b"new\n"
    assert sorted(os.listdir(tmp_path)) == ["doc.md"]


@pytest.mark.parametrize(
    "change",
    ["edited same size", "appended", "deleted", "replaced by another file", "replaced by a link"],
)
def test_a_change_after_the_read_is_kept_and_the_write_refused(
    tmp_path: Path, variant: bool, change: str
) -> None:
    path = _file(tmp_path)
    read = safe_write.read(path)
    outside = tmp_path.parent / f"{tmp_path.name}-outside.md"
    outside.write_bytes(b"old\n")
    if change == "edited same size":
        with open(path, "r+b") as fh:
            fh.write(b"OLD")  # same size, possibly the same mtime tick: the content decides
    elif change == "appended":
        with open(path, "ab") as fh:
            fh.write(b"typed\n")
    elif change == "deleted":
        path.unlink()
    elif change == "replaced by another file":
        other = tmp_path / "other"
        other.write_bytes(b"old\n")  # same content, another file: what was read is gone
        other.replace(path)
    else:
        path.unlink()
        path.symlink_to(tmp_path / "sibling.md")
        (tmp_path / "sibling.md").write_bytes(b"old\n")
    before = {p.name: (p.read_bytes() if p.exists() else None) for p in tmp_path.iterdir()}
    with pytest.raises(WriteRefused, match=r"changed while|nothing was written"):
        safe_write.replace(read, b"new\n", [tmp_path])
    after = {p.name: (p.read_bytes() if p.exists() else None) for p in tmp_path.iterdir()}
    assert after == before  # nothing written, no temporary file left
    assert outside.read_bytes() == b"old\n"


def test_not_a_regular_file_is_refused(tmp_path: Path, variant: bool) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteRefused, match="not a regular file"):
        safe_write.check(fifo, [tmp_path])


def test_read_refuses_what_is_not_a_regular_file_without_waiting(tmp_path: Path) -> None:
    """A link to a device (``/dev/zero`` never ends) or a FIFO (never answers): refused at
    once, nothing read."""
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    device = tmp_path / "device.md"
    device.symlink_to(os.devnull)
    for path in (device, fifo):  # the device first: without the check, the FIFO would block
        with pytest.raises(OSError, match="not a regular file"):
            safe_write.read(path)


def test_create_makes_a_new_file_and_never_replaces_anything(tmp_path: Path, variant: bool) -> None:
    new = tmp_path / ".rephrase.toml"
    safe_write.create(new, b'language = "de"\n', [tmp_path])
    assert new.read_bytes() == b'language = "de"\n'
    assert sorted(os.listdir(tmp_path)) == [".rephrase.toml"]
    umask = os.umask(0o022)
    os.umask(umask)
    assert new.stat().st_mode & 0o777 == 0o666 & ~umask
    with pytest.raises(WriteRefused, match="already exists"):
        safe_write.create(new, b"other\n", [tmp_path])
    assert new.read_bytes() == b'language = "de"\n'
    dangling = tmp_path / "link.toml"
    dangling.symlink_to(tmp_path.parent / f"{tmp_path.name}-never.toml")
    with pytest.raises(WriteRefused, match="already exists"):
        safe_write.create(dangling, b"x\n", [tmp_path])
    assert not (tmp_path.parent / f"{tmp_path.name}-never.toml").exists()


def test_create_outside_the_allowed_area_is_refused(tmp_path: Path) -> None:
    inner = tmp_path / "ws"
    inner.mkdir()
    with pytest.raises(WriteRefused, match="outside"):
        safe_write.create(tmp_path / "x.toml", b"x\n", [inner])
    assert not (tmp_path / "x.toml").exists()


def test_inside_resolves_links_and_does_not_confuse_prefixes(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    (tmp_path / "ws-other").mkdir()
    assert safe_write.inside(ws / "a.md", [ws])
    assert not safe_write.inside(tmp_path / "ws-other" / "a.md", [ws])
    assert not safe_write.inside(ws / ".." / "ws-other" / "a.md", [ws])
    (ws / "out").symlink_to(tmp_path / "ws-other")
    assert not safe_write.inside(ws / "out" / "a.md", [ws])
    assert not safe_write.inside(ws / "a.md", [])


def test_create_never_replaces_a_file_that_appears_meanwhile(
    tmp_path: Path, variant: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = tmp_path / ".rephrase.toml"
    write_temp = safe_write._write_temp

    def and_meanwhile(*args: object, **kw: object) -> str:
        name = write_temp(*args, **kw)  # type: ignore[arg-type]
        new.write_bytes(b"# the writer's own\n")  # created by someone else after the check
        return name

    monkeypatch.setattr(safe_write, "_write_temp", and_meanwhile)
    with pytest.raises(WriteRefused, match="already exists"):
        safe_write.create(new, b'language = "de"\n', [tmp_path])
    assert new.read_bytes() == b"# the writer's own\n"
    assert sorted(os.listdir(tmp_path)) == [".rephrase.toml"]
