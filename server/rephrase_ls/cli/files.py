"""Which files ``rephrase-ls improve`` may read and write: the project area of each file as named,
so that a link planted in a cloned repository can neither send private files to the service nor
aim a write outside the project.
"""

from __future__ import annotations

import os
from pathlib import Path

from rephrase_ls import safe_write
from rephrase_ls.config import project_file


def write_area(path: Path) -> list[Path]:
    """Where ``--write`` may write for ``path``: the project root of the file as named, so a
    link in a cloned repository cannot aim a write outside it.

    The folders above the file are walked as named. A root marker seen through a link that
    lies inside another project (``vendor -> ../other`` in a clone, ``other`` holding its own
    ``.git``) does not make a root: the project holding the link does, and the link's target,
    outside it, is refused. Links above every project root (``/home -> /usr/home``) change
    nothing. With no marker at all (an unpacked archive), the file's own folder, or when that
    is reached through a link (``docs -> ../..``), the folder holding the nearest such link.
    """
    folder = Path(os.path.abspath(path)).parent
    root: Path | None = None
    nearest_link: Path | None = None
    through_link = False
    for candidate in (folder, *folder.parents):
        if any(os.path.exists(candidate / marker) for marker in project_file.ROOT_MARKERS) and (
            root is None or through_link
        ):
            root, through_link = candidate, False
        if os.path.islink(candidate):
            through_link = True
            if nearest_link is None:
                nearest_link = candidate
    if root is not None:
        return [root]
    return [nearest_link.parent if nearest_link is not None else folder]


def link_out(path: Path) -> str | None:
    """Why ``path`` must not be read, when a link takes it out of its project area
    (:func:`write_area`); else None.

    What is read goes to the service: a link planted in a cloned repository (``docs/x.md ->
    ~/.aws/credentials``, or ``docs -> ~``) would otherwise send the user's private files with
    a plain ``rephrase-ls improve docs/*.md``. The target given by its own path is read.
    """
    area = write_area(path)
    if safe_write.inside(path, area):
        return None
    real = os.path.realpath(path)
    return (
        f"{path} is a symbolic link to {real}, which is outside the project "
        f"({', '.join(map(str, area))}); it was not read, so nothing of it was sent to the "
        "service. Give the target's own path to improve it."
    )
