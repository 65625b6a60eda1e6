"""Starting the server from inside a cloned repository never runs the repository's Python code.

When ``rephrase-ls`` is not on PATH, the editor clients fall back to ``python -m rephrase_ls``
after probing ``python -c "import rephrase_ls"``. Python puts the current folder (the clone, in
an editor started there) first on ``sys.path`` for both, so a ``rephrase_ls/`` folder planted in
the repository would run instead of the installed package: ``-P`` keeps it off. Real Neovim and
real interpreters here; the VS Code extension's launch is tested in its own suite
(editor-clients/vscode/test/launch.test.ts).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.test_nvim import PLUGIN, require_nvim

SERVER_SRC = Path(__file__).resolve().parents[2] / "server"


def _plant(project: Path) -> Path:
    """A clone holding its own ``rephrase_ls`` package that leaves a mark when imported."""
    mark = project.parent / "PLANTED-CODE-RAN"
    package = project / "rephrase_ls"
    package.mkdir(parents=True)
    code = f"open({str(mark)!r}, 'w').close()\n"
    (package / "__init__.py").write_text(code, encoding="utf-8")
    (package / "__main__.py").write_text(code, encoding="utf-8")
    return mark


def _python_only_path(tmp_path: Path) -> str:
    """A PATH with ``python3`` (this interpreter, able to import rephrase_ls) and no
    ``rephrase-ls``, so the client takes the ``python -m`` fallback."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "python3"
    wrapper.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return f"{bin_dir}{os.pathsep}/usr/bin{os.pathsep}/bin"


def test_nvim_fallback_runs_the_installed_server_not_the_clones(tmp_path: Path) -> None:
    nvim, _version = require_nvim("oldest")
    project = tmp_path / "clone"
    (project / ".git").mkdir(parents=True)
    mark = _plant(project)
    env = {
        "PATH": _python_only_path(tmp_path),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "PYTHONPATH": str(SERVER_SRC),
    }
    out = tmp_path / "cmd.json"
    script = (
        f"vim.opt.runtimepath:prepend({str(PLUGIN)!r})\n"
        "local cmd, err = require('rephrase.config').server_cmd({})\n"
        f"vim.fn.writefile({{vim.json.encode({{cmd = cmd, err = err}})}}, {str(out)!r})\n"
    )
    init = tmp_path / "probe.lua"
    init.write_text(script, encoding="utf-8")
    subprocess.run(
        [nvim, "--headless", "--clean", "-u", str(init), "+qa!"],
        cwd=project,
        env=env,
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert not mark.exists(), "the probe imported the clone's rephrase_ls"
    found = json.loads(out.read_text(encoding="utf-8"))
    cmd = found.get("cmd")
    assert cmd and Path(cmd[0]).name == "python3", found
    # The command as Neovim runs it, from the clone: the installed server answers.
    result = subprocess.run(
        [*cmd, "--version"], cwd=project, env=env, capture_output=True, text=True, timeout=60
    )
    assert not mark.exists(), f"{cmd} ran the clone's rephrase_ls"
    assert result.returncode == 0 and "rephrase-ls" in result.stdout, result


@pytest.mark.parametrize("args", [["-c", "import rephrase_ls"], ["-m", "rephrase_ls"]])
def test_plain_python_in_a_clone_would_run_its_code(tmp_path: Path, args: list[str]) -> None:
    """What the test above guards against: without ``-P`` the clone's package runs."""
    project = tmp_path / "clone"
    mark = _plant(project)
    env = {**os.environ, "PYTHONPATH": str(SERVER_SRC)}
    subprocess.run([sys.executable, *args], cwd=project, env=env, capture_output=True, timeout=60)
    assert mark.exists()
    mark.unlink()
    subprocess.run(
        [sys.executable, "-P", *args, *(["--version"] if "-m" in args else [])],
        cwd=project,
        env=env,
        capture_output=True,
        timeout=60,
    )
    assert not mark.exists()


ROOT = Path(__file__).resolve().parents[2]
# What users read or run to start the server: the docs, the examples, the editor clients and the
# benchmarks (which start it from the checkout).
LAUNCH_SOURCES = ("README.md", "docs", "examples", "editor-clients", "bench")
# Built output (``dist``: the extension's bundle, minified from the sources checked here) and
# installed packages are not launch sources.
SKIP_DIRS = {"node_modules", "out", "dist", ".vscode-test", "__pycache__"}
# ``-m rephrase_ls`` however it is written: in prose, a shell line, or a list of arguments
# (``"-m", "rephrase_ls"``); a submodule (``rephrase_ls.offline...``) is a tool, not the server.
MODULE_LAUNCH = re.compile(r"""-m['"]?[,\s]+['"]?rephrase_ls(?![.\w])""")
# ``-P`` (or the VS Code client's constant for it) among the interpreter's flags.
SAFE_FLAG = re.compile(r"""(?<![\w-])['"]?-P['"]?(?![\w])|\bSAFE_PATH\b""")


def _launch_files() -> list[Path]:
    found: list[Path] = []
    for name in LAUNCH_SOURCES:
        base = ROOT / name
        if base.is_file():
            found.append(base)
            continue
        for path in sorted(base.rglob("*")):
            if path.is_file() and not SKIP_DIRS.intersection(path.relative_to(ROOT).parts):
                found.append(path)
    return found


def shadowable_launches(text: str) -> list[str]:
    """Lines that start the server with ``python -m rephrase_ls`` without ``-P``."""
    found = []
    for line in text.splitlines():
        for match in MODULE_LAUNCH.finditer(line):
            # the interpreter and its flags: what precedes ``-m`` since the python word
            before = line[: match.start()]
            start = max(before.rfind("python"), before.rfind("executable"), before.rfind("["))
            if not SAFE_FLAG.search(before[max(start, 0) :]):
                found.append(line.strip())
    return found


def test_the_scan_tells_a_safe_launch_from_a_shadowable_one() -> None:
    assert shadowable_launches("run `python -m rephrase_ls` in a terminal")
    assert shadowable_launches('cmd = ["python3", "-m", "rephrase_ls", "--stdio"]')
    assert shadowable_launches("[sys.executable, '-m', 'rephrase_ls']")
    assert not shadowable_launches("run `python -P -m rephrase_ls` in a terminal")
    assert not shadowable_launches("{ python, '-P', '-m', 'rephrase_ls' }")
    assert not shadowable_launches("args: [SAFE_PATH, '-m', 'rephrase_ls', ...args]")
    assert not shadowable_launches("python -m rephrase_ls.offline.engine.build_profiles")


def test_no_doc_example_or_client_starts_a_server_a_clone_can_shadow() -> None:
    """Editors start the server in the project folder: ``python -m rephrase_ls`` there imports
    a ``rephrase_ls/`` planted in a cloned repository, with the user's key in its environment."""
    files = _launch_files()
    assert any(p.name == "editors.md" for p in files) and any(p.suffix == ".ts" for p in files)
    bad = {}
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if lines := shadowable_launches(text):
            bad[str(path.relative_to(ROOT))] = lines
    assert not bad, bad
