"""The once-per-user notice markers in the user's state folder."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from rephrase_ls.config.user_state import first_time, state_dir

pytestmark = pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG layout")


def test_first_time_is_true_once_per_state_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "a"))
    assert state_dir() == tmp_path / "a" / "rephrase-ls"
    assert first_time("offline-service") is True
    assert first_time("offline-service") is False
    assert first_time("other-notice") is True
    assert (tmp_path / "a" / "rephrase-ls" / "notice-offline-service").read_text() == ""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "b"))
    assert first_time("offline-service") is True


def test_without_xdg_state_home_the_folder_is_under_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)
    assert state_dir() == tmp_path / ".local" / "state" / "rephrase-ls"
    # A relative XDG_STATE_HOME is invalid by the spec and ignored.
    monkeypatch.setenv("XDG_STATE_HOME", "relative/state")
    assert state_dir() == tmp_path / ".local" / "state" / "rephrase-ls"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_an_unwritable_state_folder_shows_the_notice_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp_path.chmod(0o500)
    try:
        monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
        assert first_time("offline-service") is True
        assert first_time("offline-service") is True
    finally:
        tmp_path.chmod(0o700)


def test_a_state_path_that_is_a_file_shows_the_notice_every_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "state").write_text("not a folder")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert first_time("offline-service") is True
    assert first_time("offline-service") is True


def test_keys_cannot_leave_the_folder() -> None:
    with pytest.raises(ValueError):
        first_time("../escape")
