"""Backends are kept for the few configurations in use, not one per ``words`` list ever seen."""

from __future__ import annotations

import gc
import weakref

from rephrase_ls.config.settings import Settings
from rephrase_ls.improve.backend import MAX_BACKENDS, Backends


def test_a_words_list_edited_many_times_keeps_a_few_backends() -> None:
    backends = Backends(offline=True)
    first = backends.get(Settings(words=("a",)))
    gone = weakref.ref(first)
    del first
    for n in range(40):  # the writer adds a word, forty times
        backends.get(Settings(words=tuple(f"w{i}" for i in range(n + 2))))
    assert len(backends) == MAX_BACKENDS
    gc.collect()
    assert gone() is None, "the backend of a list no longer used is still held"


def test_the_most_recently_used_stay() -> None:
    backends = Backends(offline=True)
    kept = backends.get(Settings(words=("kept",)))
    for n in range(3 * MAX_BACKENDS):
        backends.get(Settings(words=(f"other{n}",)))
        assert backends.get(Settings(words=("kept",))) is kept  # in use all along
