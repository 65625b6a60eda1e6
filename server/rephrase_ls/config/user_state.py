"""What the server remembers per user between runs: the notices already shown once.

The folder is ``$XDG_STATE_HOME/rephrase-ls`` (``~/.local/state/rephrase-ls`` when unset) on
Linux and other Unix systems, ``~/Library/Application Support/rephrase-ls`` on macOS and
``%LOCALAPPDATA%\\rephrase-ls`` on Windows. Each notice is an empty marker file ``notice-<key>``
there; deleting the file (or the folder) brings the notice back on the next start. No text,
setting or key is ever written there.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from pathlib import Path

log = logging.getLogger(__name__)


def state_dir() -> Path:
    """The folder for this user's rephrase-ls state (not created here)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "rephrase-ls"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "rephrase-ls"
    xdg = os.environ.get("XDG_STATE_HOME")
    # The XDG spec: a relative path is invalid and must be ignored.
    base_dir = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".local" / "state"
    return base_dir / "rephrase-ls"


def first_time(key: str) -> bool:
    """Whether the notice ``key`` is due: true once per user (per state folder), false after.

    Creates the marker atomically, so of two servers starting together only one shows the
    notice. When the marker cannot be written (read-only home, no permission) the notice is
    due every time: better repeated than never shown.
    """
    if not re.fullmatch(r"[a-z0-9-]+", key):
        raise ValueError(f"notice key must be lowercase letters, digits and '-': {key!r}")
    folder = state_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / f"notice-{key}", "x", encoding="utf-8"):
            pass
    except FileExistsError:
        return False
    except OSError as exc:
        log.debug("cannot remember notice %s in %s: %s", key, folder, exc)
    return True
