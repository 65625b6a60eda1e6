"""``rephrase-ls ARGS`` run inside the test's process, for CLI tests about what the command does
to files and says, not about the process (its streams, signals, start-up): those start the real
process, and each path of the CLI keeps at least one test that does.

Starting a process costs about a second of CPU (imports, the engine's lists); here the lists are
loaded once per pytest worker. What a child process would see is set up for the call and put back
after it: the environment, the working folder, standard output and error (bytes, read back as
``subprocess.run(text=True)`` reads them, universal newlines), the ``rephrase_ls`` logger's level
(the CLI lowers it), and log records at WARNING and above printed to standard error as Python
does in a process that configured no logging, so that a test that a secret never reaches
standard error still sees the library's log lines.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from collections.abc import Mapping
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from rephrase_ls.cli import main


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    raw = stream.buffer
    assert isinstance(raw, io.BytesIO)
    return raw.getvalue().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


def run_in_process(
    *args: str, cwd: Path, env: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    """``rephrase-ls ARGS`` with the environment ``env`` in ``cwd``, as ``subprocess.run`` with
    ``capture_output=True, text=True`` reports it (no standard input)."""
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="", errors="backslashreplace")
    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    # what the CLI's commands may set (the server's run() replaces the root's handlers and
    # quietens pygls and httpx): put back after, for the next test of this process
    loggers = [logging.getLogger(name) for name in ("rephrase_ls", "pygls", "httpx", "")]
    saved_levels = [logger.level for logger in loggers]
    saved_handlers = list(logging.getLogger().handlers)
    last_resort = logging.StreamHandler(stderr)
    last_resort.setLevel(logging.WARNING)
    root = logging.getLogger()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    root.addHandler(last_resort)
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's errors, as the process would exit
                if exc.code is None or isinstance(exc.code, int):
                    code = exc.code or 0
                else:
                    print(exc.code, file=sys.stderr)
                    code = 1
    finally:
        root.removeHandler(last_resort)
        root.handlers[:] = saved_handlers
        for logger, level in zip(loggers, saved_levels, strict=True):
            logger.setLevel(level)
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    return subprocess.CompletedProcess(
        ["rephrase-ls", *args], code, _text(stdout), _text(stderr)
    )
