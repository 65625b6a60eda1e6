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
