"""``rephrase-ls`` started by a person in a terminal (standard input a terminal, not an editor's
pipe) says in one line what it waits for; started by an editor (pipes) it says nothing."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rephrase_ls.cli import TERMINAL_HINT


def _stderr_line(args: list[str], tmp_path: Path, *, terminal: bool) -> str:
    """The first line the server writes to standard error within a few seconds ('' if none)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    primary = secondary = None
    if terminal:
        primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-P", "-m", "rephrase_ls", *args],
        stdin=secondary if terminal else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=env,
    )
    try:
        assert proc.stderr is not None
        end = time.monotonic() + 15.0
        data = b""
        while b"\n" not in data and time.monotonic() < end:
            ready, _, _ = select.select([proc.stderr], [], [], 0.2)
            if ready:
                chunk = os.read(proc.stderr.fileno(), 4096)
                if not chunk:
                    break
                data += chunk
            elif not terminal and time.monotonic() > end - 12.0:
                break  # a pipe: three quiet seconds are enough to say nothing came
        return data.decode("utf-8", "replace").split("\n", 1)[0]
    finally:
        proc.kill()
        proc.wait()
        for fd in (primary, secondary):
            if fd is not None:
                os.close(fd)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


@pytest.mark.parametrize("args", [[], ["--stdio"], ["serve"]])
def test_on_a_terminal_it_says_what_it_waits_for(args: list[str], tmp_path: Path) -> None:
    line = _stderr_line(args, tmp_path, terminal=True)
    assert line == TERMINAL_HINT
    assert "rephrase-ls improve FILE" in line


def test_from_an_editor_it_says_nothing(tmp_path: Path) -> None:
    assert _stderr_line([], tmp_path, terminal=False) == ""
