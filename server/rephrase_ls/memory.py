"""Giving freed memory back to the system after big, short-lived work.

CPython returns its own small-object arenas when they empty, but larger blocks come from the C
allocator, and glibc keeps what is freed in the heap of the thread that allocated it (each
worker thread gets an arena of its own) until asked to trim. After a whole-document review in a
worker thread, or after a word list is packed from a dict of all its words, several MB stay
resident that no object uses (~8 MB after reviewing a 1 MB document; ~9 MB after packing the
English list).
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable

_lock = threading.Lock()
_trim: Callable[[int], int] | None = None
_looked_up = False


def release_free_memory() -> bool:
    """Ask the C allocator to give its free memory back to the system (glibc's
    ``malloc_trim``); False where there is none (musl, macOS, Windows). Takes a few
    milliseconds: call it after big work, not after each small step."""
    global _trim, _looked_up
    with _lock:
        if not _looked_up:
            _looked_up = True
            try:
                function = ctypes.CDLL("libc.so.6").malloc_trim
            except (OSError, AttributeError):
                pass
            else:
                function.argtypes = [ctypes.c_size_t]
                function.restype = ctypes.c_int
                _trim = function
        trim = _trim
    if trim is None:
        return False
    trim(0)
    return True
