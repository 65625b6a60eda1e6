"""End-to-end tests: the CLI, the language server in real editors."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def offline_service(*flags: str) -> Iterator[str]:
    """``rephrase-ls offline-service`` on a free loopback port with ``flags``; yields its URL."""
    service = subprocess.Popen(
        [sys.executable, "-m", "rephrase_ls", "offline-service", "--port", "0", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert service.stdout is not None
        url = re.search(r"(http://\S+)", service.stdout.readline())
        assert url, "the service did not start"
        yield url.group(1)
    finally:
        service.terminate()
        service.wait(timeout=10)
