"""The Eglot snippet published in docs/editors.md, run in headless Emacs against the server.

Skipped when ``emacs`` is missing (it is not required in CI: it needs bookworm-backports),
unless REPHRASE_REQUIRE_EMACS=1.
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

from rephrase_ls.offline.engine import improve

ROOT = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).resolve().parent / "emacs" / "eglot-test.el"
FIRST = "This is a very good sentance, and it are really importent for teh team."
OTHER = "The café was nice 🎉 and the coffee was hot."
LINES = ["Notes", "", FIRST, "", OTHER]


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _emacs_with_eglot() -> str:
    emacs = shutil.which("emacs")
    required = os.environ.get("REPHRASE_REQUIRE_EMACS") == "1"
    if emacs is None:
        if required:
            pytest.fail("emacs is not installed, and REPHRASE_REQUIRE_EMACS=1 needs this test")
        pytest.skip("emacs is not installed")
    probe = subprocess.run(
        [emacs, "--batch", "-Q", "--eval", "(require 'eglot)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if probe.returncode != 0:
        if required:
            pytest.fail(f"this Emacs has no Eglot (29+ needed): {probe.stderr[-500:]}")
        pytest.skip("this Emacs has no Eglot (Emacs 29 or later needed)")
    return emacs


def published_snippet() -> str:
    """The first emacs-lisp block of docs/editors.md: exactly what readers copy."""
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    match = re.search(r"```emacs-lisp\n(.*?)```", text, re.DOTALL)
    assert match, "docs/editors.md has no emacs-lisp block"
    return match.group(1)


def test_eglot_snippet(tmp_path: Path) -> None:
    emacs = _emacs_with_eglot()
    server_dir = Path(sys.executable).parent
    assert (server_dir / "rephrase-ls").exists(), "install the package: pip install -e '.[test]'"
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    doc = project / "doc.txt"
    doc.write_text(_text(LINES), encoding="utf-8")
    first = improve(FIRST, "en-us")
    assert first != FIRST
    expect = {
        "original": _text(LINES),
        "improved_first": _text(["Notes", "", first, "", OTHER]),
        "paragraph_line": 2,
    }
    (tmp_path / "expect.json").write_text(json.dumps(expect, ensure_ascii=False), "utf-8")
    snippet = tmp_path / "snippet.el"
    snippet.write_text(published_snippet(), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if "API_KEY" not in k and not k.startswith("XDG_")}
    env.update(
        HOME=str(home),
        REPHRASE_TEST_DOC=str(doc),
        REPHRASE_TEST_EXPECT=str(tmp_path / "expect.json"),
        REPHRASE_TEST_SERVER_DIR=str(server_dir),
    )
    proc = subprocess.run(
        [emacs, "--batch", "-Q", "-l", str(snippet), "-l", str(DRIVER)],
        cwd=project,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    details = f"exit {proc.returncode}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr[-6000:]}"
    assert proc.returncode == 0, details
    assert "PASS" in proc.stdout, details
    toml = (project / ".rephrase.toml").read_text(encoding="utf-8")
    assert 'tone = "friendly"' in toml and "writingStyle" not in toml, toml
