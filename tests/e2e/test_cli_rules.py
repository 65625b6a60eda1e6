"""``rephrase-ls improve --write`` (the real CLI, a subprocess, the embedded offline service)
honours ``disabledRules`` and the project's words, and never writes an unknown word's
suggestion."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TEXT = "I recieved the wurd from the team, and it was was clear to everyone.\n"


def run(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REPHRASE_", "XDG_"))}
    env["XDG_CONFIG_HOME"] = str(home)  # no user config file of the machine's
    return subprocess.run(
        [sys.executable, "-m", "rephrase_ls", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_improve_write_keeps_a_kind_turned_off_and_the_unknown_word(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    doc = repo / "notes.md"
    doc.write_text(TEXT, encoding="utf-8")
    (repo / ".rephrase.toml").write_text('disabledRules = ["doubled-word"]\n', encoding="utf-8")
    result = run("improve", "--write", str(doc), cwd=repo, home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert doc.read_text(encoding="utf-8") == TEXT.replace("recieved", "received")
    # without the rule turned off, the doubled word goes; the unknown word stays all the same
    (repo / ".rephrase.toml").write_text('words = ["recieved"]\n', encoding="utf-8")
    doc.write_text(TEXT, encoding="utf-8")
    result = run("improve", "--write", str(doc), cwd=repo, home=tmp_path / "home")
    assert result.returncode == 0, result.stderr
    assert doc.read_text(encoding="utf-8") == TEXT.replace("was was", "was")
