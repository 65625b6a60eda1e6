"""What the server remembers per user between runs: the notices already shown once, and the
shape of each service address's language lists.

The folder is ``$XDG_STATE_HOME/rephrase-ls`` (``~/.local/state/rephrase-ls`` when unset) on
Linux and other Unix systems, ``~/Library/Application Support/rephrase-ls`` on macOS and
``%LOCALAPPDATA%\\rephrase-ls`` on Windows. Each notice is an empty marker file ``notice-<key>``
there; deleting the file (or the folder) brings the notice back on the next start. The list
shapes are in ``list-shapes.json``: service address → how its language lists are asked for
(:class:`~rephrase_ls.service.client.ListShape`); deleting it makes the next start probe again.
No text, key or other setting is ever written there.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

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


LIST_SHAPES_FILE = "list-shapes.json"
#: Addresses remembered at most; the oldest is forgotten first.
MAX_LIST_SHAPES = 64


def _read_shapes(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.debug("ignoring the unreadable %s: %s", path, exc)
        return {}
    return data if isinstance(data, dict) else {}


class ListShapes:
    """The language-list shape of each service address, in the state folder (a
    :class:`~rephrase_ls.service.client.ShapeMemory`). Reading a missing or damaged file
    recalls nothing; writing replaces the file atomically."""

    def recall(self, address: str) -> Mapping[str, Any] | None:
        shape = _read_shapes(state_dir() / LIST_SHAPES_FILE).get(address)
        return shape if isinstance(shape, dict) else None

    def remember(self, address: str, shape: Mapping[str, Any]) -> None:
        """Store ``shape`` for ``address``; raises ``OSError`` when the folder is not
        writable."""
        folder = state_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LIST_SHAPES_FILE
        shapes = _read_shapes(path)
        shapes.pop(address, None)
        shapes[address] = dict(shape)
        while len(shapes) > MAX_LIST_SHAPES:
            shapes.pop(next(iter(shapes)))
        fd, temp = tempfile.mkstemp(prefix=".list-shapes-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(shapes, out, indent=1, sort_keys=False)
                out.write("\n")
            os.replace(temp, path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
