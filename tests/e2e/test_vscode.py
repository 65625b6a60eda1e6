"""The VS Code extension: install from the lockfile, type-check, unit tests, engines, .vsix."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.e2e.vscode_lock import run_folder, vscode_folder_lock


def require_tool(name: str) -> str:
    """The path of ``name``; skips when absent, unless REPHRASE_REQUIRE_EDITORS=1 (CI) fails."""
    path = shutil.which(name)
    if path is not None:
        return path
    if os.environ.get("REPHRASE_REQUIRE_EDITORS") == "1":
        pytest.fail(f"{name} is not installed, and REPHRASE_REQUIRE_EDITORS=1 needs this test")
    pytest.skip(f"{name} is not installed")


VSCODE = Path(__file__).resolve().parents[2] / "editor-clients" / "vscode"


def _env() -> dict[str, str]:
    """The environment for npm: no API keys; the unit tests' real-server part uses the venv's
    rephrase-ls."""
    env = {k: v for k, v in os.environ.items() if "API_KEY" not in k}
    env["REPHRASE_TEST_SERVER"] = str(Path(sys.executable).parent / "rephrase-ls")
    return env


def _run(
    npm: str, *args: str, cwd: Path = VSCODE, timeout: float = 300, lock: bool = True
) -> str:
    """Run npm in ``cwd`` holding the extension folder's lock (unless the caller holds it)."""
    with vscode_folder_lock() if lock else contextlib.nullcontext():
        proc = subprocess.run(
            [npm, *args],
            cwd=cwd,
            env=_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    output = proc.stdout + proc.stderr
    command = " ".join(args)
    assert proc.returncode == 0, f"npm {command} failed ({proc.returncode}):\n{output[-6000:]}"
    return output


@pytest.fixture(scope="module")
def npm(tmp_path_factory: pytest.TempPathFactory) -> str:
    """npm, with node_modules installed exactly from package-lock.json (once per run, also
    when pytest-xdist's workers share this module's tests out)."""
    path = require_tool("npm")
    require_tool("node")
    done = run_folder(tmp_path_factory) / "vscode-npm-ci-done"
    with vscode_folder_lock():
        if not done.exists() and not _installed_from_the_lockfile():
            _run(path, "ci", "--no-audit", "--no-fund", timeout=900, lock=False)
        done.touch()
    return path


def _installed_from_the_lockfile() -> bool:
    """Whether ``node_modules`` is what ``npm ci`` would make: npm's record of what it
    installed (``node_modules/.package-lock.json``) lists every package of package-lock.json
    as the lockfile does (those left out are optional ones for other platforms), and the
    lockfile's dependencies are package.json's (``npm ci`` refuses a lockfile out of step)."""
    try:
        lock = json.loads((VSCODE / "package-lock.json").read_text(encoding="utf-8"))
        installed = json.loads(
            (VSCODE / "node_modules" / ".package-lock.json").read_text(encoding="utf-8")
        )
        manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    wanted = {k: v for k, v in lock.get("packages", {}).items() if k}
    have = installed.get("packages", {})
    kinds = ("dependencies", "devDependencies", "optionalDependencies", "peerDependencies")
    root = lock.get("packages", {}).get("", {})
    return (
        bool(wanted)
        and all(wanted.get(name) == entry for name, entry in have.items())
        and all(entry.get("optional") for name, entry in wanted.items() if name not in have)
        and all(root.get(kind, {}) == manifest.get(kind, {}) for kind in kinds)
        and all((VSCODE / name / "package.json").is_file() for name in have)
    )


def test_strict_type_check(npm: str) -> None:
    config = json.loads((VSCODE / "tsconfig.json").read_text())
    assert config["compilerOptions"]["strict"] is True
    _run(npm, "run", "typecheck")


def test_unit_tests(npm: str) -> None:
    out = _run(npm, "test")
    assert " passing" in out
    assert " failing" not in out
    assert " pending" not in out, "the tests against the real server were skipped"
    assert "against the real server" in out


def test_engines_check_passes(npm: str) -> None:
    out = _run(npm, "run", "check-engines")
    assert "fits the extension's engines.vscode" in out


def test_engines_check_fails_for_an_older_editor(npm: str, tmp_path: Path) -> None:
    """The check refuses an engines.vscode older than vscode-languageclient needs."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(VSCODE / "scripts" / "check-engines.mjs", tmp_path / "scripts")
    (tmp_path / "node_modules").symlink_to(VSCODE / "node_modules")
    package = json.loads((VSCODE / "package.json").read_text())
    package["engines"]["vscode"] = "^1.60.0"
    (tmp_path / "package.json").write_text(json.dumps(package))
    with vscode_folder_lock():  # node_modules is the extension's own
        proc = subprocess.run(
            ["node", "scripts/check-engines.mjs"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert proc.returncode == 1
    assert "needs VS Code ^1.82.0" in proc.stderr


def test_vsce_package_produces_a_vsix(npm: str) -> None:
    vsix = VSCODE / "rephrase-ls.vsix"
    vsix.unlink(missing_ok=True)
    _run(npm, "run", "package", timeout=600)
    assert vsix.is_file()
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("extension/package.json"))
    expected = {"extension/package.json", "extension/dist/extension.js", "extension/LICENSE.txt"}
    assert expected <= names
    assert not any(name.startswith("extension/src/") for name in names), "sources are not shipped"
    assert manifest["main"] == "./dist/extension.js"
