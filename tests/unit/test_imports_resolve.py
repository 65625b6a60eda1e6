"""Every import of a ``rephrase_ls`` module names a module that exists, the imports inside
functions included (which only run on some paths, and which mypy, told to ignore missing
imports, does not check): a module moved without every importer following breaks a request at
run time, not at start-up."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("server/rephrase_ls", "tests", "bench")


def _imported(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
    return [(line, name) for line, name in found if name.split(".")[0] == "rephrase_ls"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_rephrase_ls_import_resolves(folder: str) -> None:
    missing = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        if "node_modules" not in path.parts and ".venv" not in path.parts
        for line, name in _imported(path)
        if importlib.util.find_spec(name) is None
    ]
    assert missing == []
