"""Reading the project file ``.rephrase.toml`` from disk."""

from __future__ import annotations

import os
from pathlib import Path

from rephrase_ls.config import project_file


def test_a_regular_project_file_is_read(tmp_path: Path) -> None:
    (tmp_path / ".rephrase.toml").write_text('writingStyle = "business"\n', encoding="utf-8")
    parsed = project_file.read(tmp_path)
    assert parsed.error is None and parsed.values == {"writingStyle": "business"}


def test_no_project_file_is_no_error(tmp_path: Path) -> None:
    parsed = project_file.read(tmp_path)
    assert parsed.error is None and parsed.text is None


def test_a_device_or_fifo_as_project_file_is_reported_not_read(tmp_path: Path) -> None:
    """A link to a device (``/dev/zero`` would be read until memory runs out; ``/dev/null``
    reads as nothing) or a FIFO (would never answer): an error naming it, no settings."""
    for make in (
        lambda p: p.symlink_to(os.devnull),
        lambda p: p.symlink_to("/dev/zero"),
        os.mkfifo,  # last: without the check, it would block
    ):
        folder = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
        folder.mkdir()
        make(folder / ".rephrase.toml")
        parsed = project_file.read(folder)
        # a device is reached through a link leading out of the project: refused unread for that
        expected = "not a regular file" if make is os.mkfifo else "outside the project"
        assert parsed.error is not None and expected in parsed.error
        assert parsed.values == {} and parsed.text is None


def test_an_oversized_project_file_is_reported_not_parsed(tmp_path: Path) -> None:
    """A planted ``.rephrase.toml`` of megabytes (``words`` by the hundred thousand) would stall
    the server on every change and every request: refused, with the size named."""
    words = ", ".join(f'"w{i:07d}"' for i in range(200_000))
    (tmp_path / ".rephrase.toml").write_text(f"words = [{words}]\n", encoding="utf-8")
    assert (tmp_path / ".rephrase.toml").stat().st_size > project_file.MAX_BYTES
    parsed = project_file.read(tmp_path)
    assert parsed.error is not None and "larger than" in parsed.error
    assert parsed.values == {} and parsed.text is None
    # One just under the limit is read.
    fits = ", ".join(f'"w{i:07d}"' for i in range(project_file.MAX_BYTES // 13))
    (tmp_path / ".rephrase.toml").write_text(f"words = [{fits}]\n", encoding="utf-8")
    assert (tmp_path / ".rephrase.toml").stat().st_size <= project_file.MAX_BYTES
    parsed = project_file.read(tmp_path)
    assert parsed.error is None and len(parsed.values["words"]) == project_file.MAX_BYTES // 13
