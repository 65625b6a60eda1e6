"""The files ``rephrase-ls improve FOLDER`` improves: those of the formats rephrase-ls reads (the
extension and file name mapping of :mod:`rephrase_ls.text.markup`), in a stable order (names
sorted, each folder's files before its subfolders'), skipping what ``.gitignore`` files name
(git's own rules, by :mod:`pathspec`), hidden files and folders, folders reached through a
symbolic link, and what the caller's ``excluded`` says (the ``exclude`` setting).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import pathspec

from rephrase_ls.cli.reading import os_error
from rephrase_ls.text.markup import EXTENSIONS, FILENAMES, load_builtin_formats

#: Called with a path found in a walk and whether it is a folder: True skips it.
Excluded = Callable[[Path, bool], bool]


def known_format(name: str) -> str | None:
    """The languageId the file name ``name`` maps to (its name, else its longest registered
    extension), or None for a file of no format rephrase-ls reads."""
    load_builtin_formats()
    if name in FILENAMES:
        return FILENAMES[name]
    suffixes = PurePosixPath(name.lower()).suffixes
    for i in range(len(suffixes)):
        found = EXTENSIONS.get("".join(suffixes[i:]))
        if found is not None:
            return found
    return None


def _spec(path: Path) -> pathspec.GitIgnoreSpec | None:
    """The patterns of the gitignore-style file ``path``; None when there is none to read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return pathspec.GitIgnoreSpec.from_lines(fh.read().splitlines())
    except OSError:
        return None


def repository_root(folder: Path) -> Path | None:
    """The git work tree ``folder`` lies in (the nearest folder above holding ``.git``)."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


@dataclass
class Ignores:
    """The ``.gitignore`` patterns in force in a folder: each file's patterns, relative to the
    folder holding it, the deeper ones deciding last (as git reads them)."""

    layers: list[tuple[Path, pathspec.GitIgnoreSpec]] = field(default_factory=list)

    @classmethod
    def above(cls, folder: Path) -> Ignores:
        """The patterns in force in ``folder`` from the folders above it, up to its
        repository's root (with the repository's ``.git/info/exclude``)."""
        ignores = cls()
        root = repository_root(folder)
        if root is None:
            return ignores
        exclude = _spec(root / ".git" / "info" / "exclude")
        if exclude is not None:
            ignores.layers.append((root, exclude))
        chain = [folder, *folder.parents]
        for candidate in reversed(chain[1 : chain.index(root) + 1]):
            ignores = ignores.within(candidate)
        return ignores

    def within(self, folder: Path) -> Ignores:
        """These patterns and those of ``folder``'s own ``.gitignore``."""
        spec = _spec(folder / ".gitignore")
        if spec is None:
            return self
        return Ignores([*self.layers, (folder, spec)])

    def ignored(self, path: Path, is_dir: bool) -> bool:
        """Whether git would ignore ``path``."""
        verdict: bool | None = None
        for base, spec in self.layers:
            try:
                relative = path.relative_to(base).as_posix()
            except ValueError:
                continue
            result = spec.check_file(relative + "/" if is_dir else relative)
            if result.include is not None:
                verdict = result.include
        return bool(verdict)


@dataclass
class Walk:
    """The files found under the folders walked, and the folders that could not be read."""

    excluded: Excluded = field(default=lambda path, is_dir: False)
    problems: list[str] = field(default_factory=list)

    def files(self, top: Path) -> Iterator[Path]:
        """The files to improve under ``top``, in a stable order."""
        top_abs = Path(os.path.abspath(top))
        above = Ignores.above(top_abs)
        if above.ignored(top_abs, True):
            above = Ignores()  # a folder named on purpose (docs/_build) is walked all the same
        yield from self._walk(top, top_abs, above.within(top_abs))

    def _walk(self, folder: Path, folder_abs: Path, ignores: Ignores) -> Iterator[Path]:
        try:
            with os.scandir(folder) as entries:
                listed = sorted(entries, key=lambda entry: entry.name)
        except OSError as exc:
            self.problems.append(os_error(folder, exc))
            return
        folders: list[os.DirEntry[str]] = []
        for entry in listed:
            if entry.name.startswith("."):
                continue  # .git, .venv, .cache: named explicitly to be improved
            path_abs = folder_abs / entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
                is_file = entry.is_file(follow_symlinks=True)
            except OSError:
                continue
            if ignores.ignored(path_abs, is_dir) or self.excluded(path_abs, is_dir):
                continue
            if is_dir:
                folders.append(entry)
            elif is_file and known_format(entry.name) is not None:
                yield folder / entry.name
        for entry in folders:
            path_abs = folder_abs / entry.name
            yield from self._walk(folder / entry.name, path_abs, ignores.within(path_abs))
