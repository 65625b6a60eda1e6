"""The import graph of the offline service, its engine and language detection: no circles,
and ``rephrase_ls.text`` needs nothing of ``rephrase_ls.offline``.

Every ``import`` statement counts, also inside functions and ``TYPE_CHECKING`` blocks. ``from
X import Y`` is an edge to ``X`` (the package runs first) and, when ``X.Y`` is a module, to it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import rephrase_ls

ROOT = Path(rephrase_ls.__file__).parent


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        parts = ["rephrase_ls", *path.relative_to(ROOT).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


OURS = ("rephrase_ls.offline", "rephrase_ls.text.language", "rephrase_ls.text.detect",
        "rephrase_ls.text.tokens", "rephrase_ls.text.variants", "rephrase_ls.text.variant_detect")


def test_the_graph_sees_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_the_graph_reads_relative_imports_as_edges_to_the_package() -> None:
    graph = _graph()
    # engine/__init__ imports spelling; ``from . import x`` in spelling would be an edge back.
    assert "rephrase_ls.offline.engine.spelling" in graph["rephrase_ls.offline.engine"]
    assert "rephrase_ls.offline.engine.lexicon" in graph["rephrase_ls.offline.engine.spelling"]


def test_no_import_circle_through_the_offline_service_or_detection() -> None:
    ours = [c for c in _cycles(_graph()) if any(m.startswith(OURS) for m in c)]
    assert ours == []


def test_text_imports_nothing_of_offline() -> None:
    graph = _graph()
    reaching = {
        (name, target)
        for name, targets in graph.items() if name.startswith("rephrase_ls.text")
        for target in targets if target.startswith("rephrase_ls.offline")
    }
    assert reaching == set()


def test_detection_runs_without_the_offline_package() -> None:
    code = textwrap.dedent(
        """
        import sys
        from rephrase_ls.text import language
        assert language.detect("Das ist ein schöner Tag, und wir gehen heute nach Hause.") == "de"
        assert language.detect_variant("The colour of the centre is grey.", "en") == "en-GB"
        assert language.too_short_to_tell("A title")
        loaded = sorted(m for m in sys.modules if m.startswith("rephrase_ls.offline"))
        assert not loaded, loaded
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
