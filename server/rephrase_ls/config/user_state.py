"""What the server remembers per user between runs: the notices already shown once, the
shape of each service address's language lists, and the addresses without a corrections-only
endpoint.

The folder is :func:`~rephrase_ls.config.folders.state_dir`. Each notice is an empty marker file
``notice-<key>`` there; deleting the file (or the folder) brings the notice back on the next
start. The list shapes are in ``list-shapes.json``: service address → how its language lists are
asked for (:class:`~rephrase_ls.service.client.ListShape`); deleting it makes the next start
probe again. An address without ``/v2/write/correct`` is an empty marker ``no-correct-<hash of
the address>`` (the address itself is not written), believed for :data:`NO_CORRECTIONS_DAYS`
days so that a service that gains the endpoint is found again. No text, key or other setting is
ever written there.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rephrase_ls.config.folders import state_dir

log = logging.getLogger(__name__)


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


#: How long a remembered "no corrections endpoint" is believed.
NO_CORRECTIONS_DAYS = 1


def _no_corrections_marker(base_url: str) -> Path:
    digest = hashlib.sha256(base_url.rstrip("/").encode()).hexdigest()[:24]
    return state_dir() / f"no-correct-{digest}"


class AddressState:
    """The user's state folder as the service client's memory of addresses without a
    corrections endpoint (:class:`rephrase_ls.service.client.AddressMemory`)."""

    def knows_no_corrections(self, base_url: str) -> bool:
        """Whether ``base_url`` answered 404 to the corrections endpoint within the last
        :data:`NO_CORRECTIONS_DAYS` days."""
        try:
            age = time.time() - _no_corrections_marker(base_url).stat().st_mtime
        except OSError:
            return False
        return age < NO_CORRECTIONS_DAYS * 86400

    def remember_no_corrections(self, base_url: str) -> None:
        """Remember that ``base_url`` has no corrections endpoint (silently not, when the
        folder cannot be written: the process still remembers)."""
        marker = _no_corrections_marker(base_url)
        try:
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.touch()
        except OSError as exc:
            log.debug("cannot remember %s in %s: %s", marker.name, marker.parent, exc)
