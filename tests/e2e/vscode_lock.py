"""One npm command at a time in the extension's folder, across pytest-xdist's workers.

``npm ci`` replaces ``node_modules``, and the unit tests and the packaging build into the same
``dist/`` and ``out/``: two such commands side by side would break each other. Each test that
runs npm in ``editor-clients/vscode`` holds this lock (an ``flock`` on a file in the temporary
folder, named after the extension's path, so sibling clones do not wait for each other) while
the command runs.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

VSCODE = Path(__file__).resolve().parents[2] / "editor-clients" / "vscode"


@contextmanager
def vscode_folder_lock() -> Iterator[None]:
    """Hold the extension folder's lock (waits for another worker's npm command to end)."""
    digest = hashlib.sha256(str(VSCODE).encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"rephrase-ls-vscode-{digest}.lock"
    with open(path, "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole run, shared by pytest-xdist's workers (each worker's
    own base folder is inside it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
