"""``rephrase-ls improve`` leaves prose that in-document switches take out as it is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_write_leaves_switched_off_prose(tmp_path: Path) -> None:
    text = (
        "I recieved the letter yesterday, and I read it twice before dinner.\n\n"
        "% rephrase: off\nTheir reply was short, I beleive.\n% rephrase: on\n\n"
        "% rephrase: ignore-next-line\nSo the end came untill now.\n"
        "Thier reply came late.\n"
    )
    path = tmp_path / "notes.tex"
    path.write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    done = subprocess.run(
        [sys.executable, "-P", "-m", "rephrase_ls", "improve", "--write", str(path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert path.read_text(encoding="utf-8") == (
        text.replace("recieved", "received").replace("Thier", "Their")
    )
