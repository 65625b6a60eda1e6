"""The adapter over pygls's private API holds while pygls does, and nothing else uses it.

These tests fail when pygls changes underneath the adapter (another version, a private name
gone or with another signature, cancellation no longer reaching the hook): re-check
``rephrase_ls/lsp/pygls_adapter.py`` against the new pygls, then add its version to
``CHECKED_PYGLS``.
"""

from __future__ import annotations

import ast
import inspect
from importlib.metadata import version
from pathlib import Path
from typing import Any

import lsprotocol
import pygls
from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCProtocol

from rephrase_ls.lsp import pygls_adapter
from rephrase_ls.lsp.pygls_adapter import CHECKED_PYGLS, PRIVATE_NAMES, CancelHookProtocol

PACKAGE = Path(pygls_adapter.__file__).resolve().parents[1]
ADAPTER = Path(pygls_adapter.__file__).resolve()


def test_the_installed_pygls_is_one_the_adapter_was_checked_against() -> None:
    assert version("pygls") in CHECKED_PYGLS, (
        f"pygls {version('pygls')}: check rephrase_ls/lsp/pygls_adapter.py against it"
    )


def test_the_private_names_the_adapter_uses_are_there_with_their_signatures() -> None:
    def params(name: str) -> list[str]:
        return list(inspect.signature(getattr(JsonRPCProtocol, name)).parameters)

    assert params("_send_data") == ["self", "data"]
    assert params("_send_response")[:4] == ["self", "msg_id", "result", "error"]
    assert params("_handle_cancel_notification") == ["self", "msg_id"]
    server = LanguageServer("probe", "0", protocol_cls=CancelHookProtocol)
    protocol = server.protocol
    for name in PRIVATE_NAMES:
        assert hasattr(JsonRPCProtocol, name) or hasattr(protocol, name), name
    assert isinstance(protocol._request_futures, dict)
    assert pygls_adapter.server_of(protocol) is server


def test_a_cancel_notification_reaches_the_hook() -> None:
    """pygls still routes ``$/cancelRequest`` through the method the adapter overrides."""
    seen: list[Any] = []

    class Probe(CancelHookProtocol):
        def on_cancel_request(self, msg_id: Any) -> None:
            seen.append((msg_id, self.is_request_pending(msg_id)))

    server = LanguageServer("probe", "0", protocol_cls=Probe)
    message = server.protocol.structure_message(
        {"jsonrpc": "2.0", "method": types.CANCEL_REQUEST, "params": {"id": 7}}
    )
    server.protocol.handle_message(message)
    assert seen == [(7, False)]


def test_the_send_helpers_write_one_json_rpc_message() -> None:
    written: list[bytes] = []

    class Writer:
        def write(self, data: bytes) -> None:
            written.append(data)

        def close(self) -> None:
            pass

    server = LanguageServer("probe", "0", protocol_cls=CancelHookProtocol)
    server.protocol.set_writer(Writer(), include_headers=False)
    pygls_adapter.send_json(server.protocol, {"jsonrpc": "2.0", "method": "x", "params": {}})
    error = types.ResponseError(code=-32602, message="invalid params")
    pygls_adapter.send_error(server.protocol, 3, error)
    assert written[0] == b'{"jsonrpc": "2.0", "method": "x", "params": {}}'
    assert b'"id": 3' in written[1] and b'"invalid params"' in written[1]


def _private_names(package: Any) -> set[str]:
    """Every ``_`` name (not dunder) that ``package`` defines: functions, classes, attributes
    it assigns, module names."""
    out: set[str] = set()
    for path in Path(package.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = None
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = node.name
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                name = node.attr
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                name = node.id
            if name and name.startswith("_") and not name.startswith("__"):
                out.add(name)
    return out


def _framework_names(tree: ast.Module) -> set[str]:
    """The names a module imports from pygls, lsprotocol or the adapter."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            ("pygls", "lsprotocol", "rephrase_ls.lsp.pygls_adapter")
        ):
            found.update(alias.asname or alias.name for alias in node.names)
    return found


def uses_of_private_framework_names(root: Path, skip: Path) -> list[str]:
    """Where a module under ``root`` (but ``skip``) uses a ``_`` name of pygls or lsprotocol:
    imports it, reads it off an object, or, in a class built on a framework class, overrides
    it or reads it off ``self``/``super()``."""
    private = _private_names(pygls) | _private_names(lsprotocol)
    found: list[str] = []
    for path in sorted(root.rglob("*.py")):
        if path.resolve() == skip:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        framework = _framework_names(tree)
        derived: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and (b.id in framework or b.id in derived)
                for b in node.bases
            ):
                derived.add(node.name)
        where = f"{path.relative_to(root.parent)}"
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                ("pygls", "lsprotocol")
            ):
                found += [f"{where}:{node.lineno} imports {a.name}" for a in node.names
                          if a.name.startswith("_")]  # fmt: skip
            if isinstance(node, ast.ClassDef) and node.name in derived:
                for inner in ast.walk(node):
                    if isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef):
                        if inner.name in private:
                            found.append(f"{where}:{inner.lineno} overrides {inner.name}")
                    elif isinstance(inner, ast.Attribute) and inner.attr in private:
                        found.append(f"{where}:{inner.lineno} uses {inner.attr}")
            elif isinstance(node, ast.Attribute) and node.attr in private:
                owner = node.value
                if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                    continue
                if isinstance(owner, ast.Call) and ast.unparse(owner.func) == "super":
                    continue
                found.append(f"{where}:{node.lineno} uses {ast.unparse(node)}")
    return sorted(set(found))


def test_no_private_pygls_or_lsprotocol_name_outside_the_adapter() -> None:
    assert uses_of_private_framework_names(PACKAGE, ADAPTER) == []


def test_the_check_finds_private_uses(tmp_path: Path) -> None:
    """The check above can fail: each way of reaching a private name is found."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        "from pygls.protocol import LanguageServerProtocol\n"
        "class P(LanguageServerProtocol):\n"
        "    def _handle_cancel_notification(self, msg_id):\n"
        "        return self._request_futures\n"
        "def send(ls):\n"
        "    ls.protocol._send_data({})\n"
    )
    found = uses_of_private_framework_names(tmp_path / "pkg", ADAPTER)
    assert sorted(f.split(" ", 1)[1] for f in found) == [
        "overrides _handle_cancel_notification",
        "uses _request_futures",
        "uses ls.protocol._send_data",
    ], found


def test_no_private_pygls_or_lsprotocol_name_in_the_protocol_tests() -> None:
    """The tests drive pygls's clients through public names too (a converter of their own,
    messages through ``structure_message`` and ``handle_message``)."""
    tests = Path(__file__).resolve().parents[2]
    for wing in ("lsp", "e2e", "integration"):
        assert uses_of_private_framework_names(tests / wing, ADAPTER) == []
