"""The modules of ``rephrase_ls.service`` import each other in one direction only."""

from __future__ import annotations

import ast
from pathlib import Path

import rephrase_ls.service

PACKAGE = "rephrase_ls.service"
FOLDER = Path(rephrase_ls.service.__file__).parent


def imports_of(path: Path) -> set[str]:
    """Modules of the package ``path`` imports anywhere (also in functions and TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        for name in names:
            if name.startswith(PACKAGE + "."):
                found.add(name[len(PACKAGE) + 1 :].split(".")[0])
    return found


def graph() -> dict[str, set[str]]:
    modules = {p.stem for p in FOLDER.glob("*.py") if p.stem != "__init__"}
    return {m: imports_of(FOLDER / f"{m}.py") & modules for m in modules}


def cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``edges`` (as a path back to its start), if any."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if module not in state and (found := visit(module)) is not None:
            return found
    return None


def test_the_cycle_finder_finds_one() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycle_inside_the_package() -> None:
    edges = graph()
    assert {"client", "transport", "capabilities", "batching"} <= edges.keys()
    assert cycle(edges) is None


def test_the_capability_rules_do_not_know_the_client() -> None:
    edges = graph()
    assert edges["capabilities"] <= {"config", "errors", "models"}
    assert "capabilities" not in edges["client"] and "capabilities" not in edges["transport"]
