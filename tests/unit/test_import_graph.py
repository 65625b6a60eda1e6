"""The package's modules import each other without cycles.

The graph is read from the source (ast), not by importing: every ``import`` and ``from … import``
counts, also those inside functions (an import made on first use is still a dependency), except
those under ``if TYPE_CHECKING:`` (never run). An edge goes to the module the statement takes
names from: ``import a.b`` and ``from a.b import x`` to ``a.b``; ``from package import name`` to
``package`` (its ``__init__`` runs and ``name`` is read from it), and to ``package.name`` as well
when that is a module. The ``__init__`` of the packages above the module named runs too, but is
not counted: a package re-exporting its modules is not in a cycle with each of them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = "rephrase_ls"
ROOT = Path(__file__).resolve().parents[2] / "server" / PACKAGE


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name."""
    names: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join([package, *parts])] = path
    return names


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, type_only: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run: anywhere, but not under ``if TYPE_CHECKING:`` unless
    ``type_only`` (then those too: what a type checker follows)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        if not type_only and isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def import_graph(
    modules: dict[str, Path], package: str, type_only: bool = False
) -> dict[str, set[str]]:
    """Module → the package's modules it imports (also for type checking when ``type_only``)."""
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _imports(tree, type_only):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = name.split(".")
                    base = base[: len(base) - node.level + (1 if is_package else 0)]
                    origin = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    origin = node.module or ""
                targets.append(origin)
                for alias in node.names:
                    submodule = f"{origin}.{alias.name}"
                    if submodule in modules:
                        targets.append(submodule)
            for target in targets:
                while target and target not in modules:  # import a.b.c of a non-module c
                    target = target.rpartition(".")[0]
                if target.startswith(package) and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def one_cycle(graph: dict[str, set[str]], component: list[str]) -> list[str]:
    """A shortest cycle through the component's first module, for the message."""
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & members):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    return component


def _report(graph: dict[str, set[str]], found: list[list[str]]) -> str:
    return "\n".join(
        f"{len(component)} modules: {' -> '.join(one_cycle(graph, component))}"
        for component in found
    )


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(module_names(ROOT, PACKAGE), PACKAGE)


@pytest.fixture(scope="module")
def type_graph() -> dict[str, set[str]]:
    return import_graph(module_names(ROOT, PACKAGE), PACKAGE, type_only=True)


def test_the_package_has_no_import_cycles(graph: dict[str, set[str]]) -> None:
    """Every cycle is reported at once, each with one path through it."""
    found = cycles(graph)
    assert not found, f"{len(found)} import cycles:\n{_report(graph, found)}"


def test_no_cycle_even_through_type_only_imports(type_graph: dict[str, set[str]]) -> None:
    """An import under ``if TYPE_CHECKING:`` does not run, but a type checker and a reader
    follow it: the modules stay in layers for them too."""
    found = cycles(type_graph)
    assert not found, f"{len(found)} import cycles:\n{_report(type_graph, found)}"


def _outside(
    graph: dict[str, set[str]], wing: str, allowed: set[str], root: set[str] = frozenset()
) -> set[tuple[str, str]]:
    """Edges from the modules of ``wing`` to modules of the package that are neither in the
    wing, nor in (or under) one of ``allowed``, nor one of the ``root`` modules."""
    inside = f"{PACKAGE}.{wing}"
    return {
        (name, to)
        for name, targets in graph.items()
        if name == inside or name.startswith(inside + ".")
        for to in targets
        if not (to == inside or to.startswith(inside + "."))
        and not any(to == a or to.startswith(a + ".") for a in allowed)
        and to not in root
    }


def test_the_wings_depend_one_way(type_graph: dict[str, set[str]]) -> None:
    """``guards/`` (the chain every answer goes through) needs only ``text/``; ``config/`` (the
    user's settings) only ``service/`` and the root's helpers: neither knows the improve wing,
    the LSP or the CLI, not even for type checking."""
    assert not _outside(type_graph, "guards", {f"{PACKAGE}.text"})
    root_helpers = {PACKAGE, *(f"{PACKAGE}.{name}" for name in ("safe_write", "memory"))}
    assert not _outside(type_graph, "config", {f"{PACKAGE}.service"}, root_helpers)


def test_the_package_root_holds_few_modules() -> None:
    """The root keeps the entry points and the operating-system helpers several wings use;
    everything else lives in a wing."""
    loose = sorted(p.name for p in ROOT.glob("*.py"))
    assert len(loose) <= 6, loose


def test_the_lsp_features_import_no_server_module(graph: dict[str, set[str]]) -> None:
    """Only the wiring module knows the server and the features; a feature takes the server as
    its handlers' first argument and names its class only for type checking."""
    server_modules = {"rephrase_ls.lsp.server", "rephrase_ls.lsp.language_server"}
    features = [m for m in graph if m.startswith("rephrase_ls.lsp.") and m not in server_modules]
    assert "rephrase_ls.lsp.actions" in features
    offending = {m: sorted(graph[m] & server_modules) for m in features}
    assert not {m: found for m, found in offending.items() if found}
    wired = {f"rephrase_ls.lsp.{name}" for name in ("actions", "commands", "lifecycle")}
    assert wired <= graph["rephrase_ls.lsp.server"]


def test_the_graph_sees_imports_in_functions_but_not_type_checking_ones(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from . import c\n")
    (package / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkg import b\n"
        "def f():\n    from pkg.sub import c\n"
    )
    (package / "b.py").write_text("import pkg.a\n")
    (package / "sub" / "c.py").write_text("from .. import a\nfrom ..b import name\n")
    found = import_graph(module_names(package, "pkg"), "pkg")
    assert found == {
        "pkg": set(),
        "pkg.a": {"pkg.sub", "pkg.sub.c"},  # in a function; not pkg.b (TYPE_CHECKING)
        "pkg.b": {"pkg.a"},
        "pkg.sub": {"pkg.sub.c"},
        "pkg.sub.c": {"pkg", "pkg.a", "pkg.b"},
    }
    component = ["pkg.a", "pkg.b", "pkg.sub", "pkg.sub.c"]
    assert cycles(found) == [component]
    assert one_cycle(found, component) == ["pkg.a", "pkg.sub.c", "pkg.a"]
    assert cycles({"x": {"y"}, "y": set()}) == []
    assert cycles({"x": {"y"}, "y": {"z"}, "z": {"x"}, "w": {"x"}}) == [["x", "y", "z"]]


def _reaching(graph: dict[str, set[str]], source: str, target: str) -> set[tuple[str, str]]:
    """Edges from modules under ``source`` to modules under ``target``."""
    return {
        (name, to)
        for name, targets in graph.items()
        if name == source or name.startswith(source + ".")
        for to in targets
        if to == target or to.startswith(target + ".")
    }


def test_the_layers_point_one_way(graph: dict[str, set[str]]) -> None:
    """``text/`` knows no LSP, HTTP or offline service; ``service/`` knows no editor and no
    offline service; ``offline/`` knows only the interface's models and errors."""
    wrong = set()
    for source, target in [
        ("rephrase_ls.text", "rephrase_ls.lsp"),
        ("rephrase_ls.text", "rephrase_ls.offline"),
        ("rephrase_ls.text", "rephrase_ls.service.client"),
        ("rephrase_ls.service", "rephrase_ls.lsp"),
        ("rephrase_ls.service", "rephrase_ls.offline"),
        ("rephrase_ls.offline", "rephrase_ls.lsp"),
        ("rephrase_ls.offline", "rephrase_ls.service.client"),
        ("rephrase_ls.offline", "rephrase_ls.service.transport"),
    ]:
        wrong |= _reaching(graph, source, target)
    assert not wrong, sorted(wrong)


def test_the_capability_rules_are_checked_before_the_client(graph: dict[str, set[str]]) -> None:
    """The transport and the endpoints do not consult the capability rules; the rules need
    nothing but the interface's models."""
    service = "rephrase_ls.service."
    rules = {
        m[len(service) :]
        for m in graph["rephrase_ls.service.capabilities"]
        if m.startswith(service)
    }
    assert rules <= {"config", "errors", "models"}
    for module in ("client", "transport"):
        assert "rephrase_ls.service.capabilities" not in graph[service + module]


def test_detection_runs_without_the_offline_package() -> None:
    """Detecting a language loads nothing of the offline service (checked in a fresh process)."""
    code = textwrap.dedent(
        """
        import sys
        from rephrase_ls.text import language
        assert language.detect("Das ist ein schöner Tag, und wir gehen heute nach Hause.") == "de"
        assert language.detect_variant("The colour of the centre is grey.", "en") == "en-GB"
        loaded = sorted(m for m in sys.modules if m.startswith("rephrase_ls.offline"))
        assert not loaded, loaded
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_server_starts_without_the_engine_or_review() -> None:
    """Start-up (``bench_startup.py``, ≤ 1.5× a bare pygls server) imports neither the offline
    engine nor review mode: they load with the first review, hover or Improve."""
    code = textwrap.dedent(
        """
        import sys
        from rephrase_ls.lsp.server import create_server
        create_server()
        loaded = sorted(
            m for m in sys.modules
            if m.startswith(("rephrase_ls.offline.engine", "rephrase_ls.review"))
        )
        assert not loaded, loaded
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
