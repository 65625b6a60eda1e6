"""``release_free_memory`` gives back what a worker thread freed (glibc keeps it in that
thread's arena otherwise)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from rephrase_ls.memory import release_free_memory


def _rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def test_memory_freed_in_a_thread_goes_back_to_the_system() -> None:
    if not Path("/proc/self/status").exists() or not release_free_memory():
        pytest.skip("needs Linux with glibc")
    kept: list[bytearray] = []

    def work() -> None:
        blocks = [bytearray(2000) for _ in range(20_000)]  # 40 MB from the thread's arena
        kept.extend(blocks[::16])  # one block in 16 stays: the heap cannot just shrink
        blocks.clear()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    before = _rss()
    assert release_free_memory()
    after = _rss()
    assert before - after > 20_000_000, (before, after)
    assert len(kept) == 1250
