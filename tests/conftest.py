"""Settings for the whole test suite."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from tests import hypothesis_profiles

HYPOTHESIS_PROFILE = hypothesis_profiles.load()

_SAVED_STATE_HOME = "_rephrase_saved_xdg_state_home"
_TEMP_STATE_HOME = "_rephrase_temp_xdg_state_home"


def pytest_report_header() -> str:
    return f"hypothesis profile: {HYPOTHESIS_PROFILE} (set by HYPOTHESIS_PROFILE; ci in .ci/run)"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per core and one more. Much of the suite waits on what it
    started (servers, editors, child processes, sockets), so a core would stand idle in those
    waits with one worker each."""
    return (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    ) + 1


def pytest_configure(config: pytest.Config) -> None:
    """Servers started by the tests keep their once-per-user notices (``user_state``) in a
    temporary folder, not in the user's own ``~/.local/state``. Set before the test modules are
    imported, since some build the servers' environment at import. Tests that need their own
    folder set ``XDG_STATE_HOME`` themselves."""
    setattr(config, _SAVED_STATE_HOME, os.environ.get("XDG_STATE_HOME"))
    folder = tempfile.mkdtemp(prefix="rephrase-ls-test-state-")
    setattr(config, _TEMP_STATE_HOME, folder)
    os.environ["XDG_STATE_HOME"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = getattr(config, _TEMP_STATE_HOME, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    saved = getattr(config, _SAVED_STATE_HOME, None)
    if saved is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = saved
