"""The Neovim plugin in a real headless Neovim (0.7.2 and later) against the real server.

Each case of ``tests/e2e/nvim/e2e.lua`` runs in its own ``nvim --headless --clean -u NONE``
with the plugin on the runtimepath, the venv's ``rephrase-ls`` as the server, HOME and the XDG
folders in a temporary folder and no API key: the server uses its embedded offline service.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rephrase_ls import __version__
from rephrase_ls.offline.engine import improve

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "editor-clients" / "nvim"
SCRIPT = Path(__file__).resolve().parent / "nvim" / "e2e.lua"

HEADING = "# Notes"
FIRST = "This is a very good sentance, and it are really importent for teh team."
UNICODE = "The café was nice 🎉 but the sentance was importent."
LINES = [HEADING, "", FIRST, "", UNICODE]


def require_tool(name: str) -> str:
    """The path of ``name``; skips when absent, unless REPHRASE_REQUIRE_EDITORS=1 (CI) fails."""
    path = shutil.which(name)
    if path is not None:
        return path
    if os.environ.get("REPHRASE_REQUIRE_EDITORS") == "1":
        pytest.fail(f"{name} is not installed, and REPHRASE_REQUIRE_EDITORS=1 needs this test")
    pytest.skip(f"{name} is not installed")


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _expectations() -> dict[str, object]:
    """The buffer texts each case must reach, from the same offline engine the server uses."""
    first = improve(FIRST, "en-us")
    unicode = improve(UNICODE, "en-us")
    # The test only means something if the engine changes both paragraphs.
    assert first != FIRST and "sentence" in first
    assert unicode != UNICODE and "café" in unicode and "🎉" in unicode
    return {
        "original": _text(LINES),
        "improved_first": _text([HEADING, "", first, "", UNICODE]),
        "improved_unicode": _text([HEADING, "", FIRST, "", unicode]),
        "improved_both": _text([HEADING, "", first, "", unicode]),
        "paragraph_line": 2,
        "unicode_line": 4,
        "version": __version__,
    }


@pytest.fixture
def server() -> Path:
    path = Path(sys.executable).parent / "rephrase-ls"
    if not path.exists():
        pytest.fail(f"{path} is missing: install the package (pip install -e '.[test]')")
    return path


def _clean_env(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    env = {
        key: value
        for key, value in os.environ.items()
        if "API_KEY" not in key and not key.startswith(("XDG_", "NVIM", "VIM"))
    }
    env["HOME"] = str(home)
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = home / f"xdg-{name.lower()}"
        folder.mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    return env


CASES = [
    "resolve_and_apply",
    "command_non_ascii",
    "stale_edit",
    "style_picker",
    "language_and_usage",
    "restart",
    "ranges",
    "help",
    "lsp_config",
    "health",
    "health_without_buffer",
]


@pytest.mark.parametrize("case", CASES)
def test_nvim(case: str, tmp_path: Path, server: Path) -> None:
    nvim = require_tool("nvim")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "doc.md").write_text(_text(LINES), encoding="utf-8")
    expect_file = tmp_path / "expect.json"
    expect_file.write_text(json.dumps(_expectations(), ensure_ascii=False), encoding="utf-8")
    result_file = tmp_path / "result.txt"
    env = _clean_env(tmp_path)
    env.update(
        REPHRASE_TEST_CASE=case,
        REPHRASE_TEST_PLUGIN=str(PLUGIN),
        REPHRASE_TEST_SERVER=str(server),
        REPHRASE_TEST_PROJECT=str(project),
        REPHRASE_TEST_EXPECT=str(expect_file),
        REPHRASE_TEST_RESULT=str(result_file),
    )
    proc = subprocess.run(
        [nvim, "--headless", "--clean", "-u", "NONE", "-c", f"luafile {SCRIPT}"],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    report = result_file.read_text(encoding="utf-8") if result_file.exists() else "(no result)"
    details = f"exit {proc.returncode}\n{report}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}"
    assert proc.returncode == 0, details
    assert report.startswith("PASS"), details
    if case == "style_picker":
        toml = (project / ".rephrase.toml").read_text(encoding="utf-8")
        assert 'tone = "friendly"' in toml, toml
        assert "writingStyle" not in toml, toml
    if case in ("resolve_and_apply", "command_non_ascii", "stale_edit", "restart"):
        # The plugin edits the buffer only; the file on disk is the writer's to save.
        assert (project / "doc.md").read_text(encoding="utf-8") == _text(LINES)


def test_luacheck() -> None:
    """Static check of the plugin and the test script (when luacheck is installed)."""
    luacheck = shutil.which("luacheck")
    if luacheck is None:
        pytest.skip("luacheck is not installed (Debian: lua-check)")
    proc = subprocess.run(
        [luacheck, "--no-color", str(PLUGIN), str(SCRIPT.parent)],
        cwd=PLUGIN,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
