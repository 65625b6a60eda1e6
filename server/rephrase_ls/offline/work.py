"""Where the offline service's CPU work runs: validation, detection and the engine.

With ``OfflineOptions.workers == 0`` (the embedded mode) a request's work runs in a thread of
this process, so the event loop (in the embedded mode, the language server's) stays
responsive. With N workers it runs in a ``concurrent.futures.ProcessPoolExecutor`` of N spawned
processes, so that concurrent requests use several cores.

A worker process that dies (killed, out of memory) breaks the executor: every request it held
answers 500 ("please retry") and the next request gets a fresh pool. Workers ignore SIGINT (the
service decides when they stop) and exit when the service's process dies.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from rephrase_ls.offline.knobs import OfflineOptions
from rephrase_ls.offline.request import ApiError, Choices, process_fields

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

__all__ = ["EngineWork"]

_log = logging.getLogger(__name__)

#: One text per language, to load the engine's data in a worker (``preload``).
_PRELOAD_TEXTS: Final = (
    ("en", "This is is a short text to load the lists."),
    ("de", "Dies ist ein kurzer Text, um die Listen zu laden."),
    ("es", "Este es un texto corto para cargar las listas."),
    ("fr", "Ceci est un texte court pour charger les listes."),
    ("it", "Questo è un testo breve per caricare gli elenchi."),
    ("pt", "Este é um texto curto para carregar as listas."),
)

Result = tuple[list[dict[str, Any]], int]


class EngineWork:
    """Runs :func:`~rephrase_ls.offline.request.process_fields` for one app."""

    def __init__(self, options: OfflineOptions) -> None:
        self._options = options
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self, barrier: Any = None) -> ProcessPoolExecutor:
        # Imported here: the embedded mode (threads) needs none of it.
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self._options.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(
                    self._options.known_words,
                    self._options.preload,
                    barrier,
                    self._choices(),
                ),
            )
        return self._executor

    def _choices(self) -> Choices:
        return Choices(self._options.language_words, self._options.disabled_rules)

    def start(self, timeout: float = 600.0) -> None:
        """Start every worker process now, blocking until all are ready (with ``preload``, until
        each has loaded the engine's data); a no-op without worker processes. Raises
        ``TimeoutError`` when they are not ready within ``timeout`` seconds.

        Without this, workers start on the first requests, and each loads a language's data on
        its first request in that language.
        """
        import multiprocessing
        from concurrent.futures import wait

        count = self._options.workers
        if not count or self._executor is not None:
            return
        # Each of ``count`` jobs waits for the others at the barrier: they can only all get
        # there when each runs in a process of its own that has started (and preloaded).
        barrier = multiprocessing.get_context("spawn").Barrier(count)
        pool = self._pool(barrier)
        jobs = [pool.submit(_ready, timeout) for _ in range(count)]
        done, _ = wait(jobs, timeout)
        if len(done) < count:
            self.close()
            raise TimeoutError(f"the engine workers were not ready within {timeout:g} s")
        for job in done:
            job.result()  # a worker that could not start raises here

    def close(self, *, wait: bool = False) -> None:
        """Stop the worker processes; requests waiting for them fail. With ``wait``, until
        they have exited (running jobs finish first)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)

    async def run(self, fields: Mapping[str, Any], correct: bool = False) -> Result:
        """Validate and improve a request's fields off the event loop (``correct``: a
        corrections-only request); raises :class:`~rephrase_ls.offline.request.ApiError` for a
        refused request."""
        later, known = self._options.later_shape, self._options.known_words
        documented = self._options.documented
        if not self._options.workers:
            return await asyncio.to_thread(
                process_fields, fields, later, known, documented, correct, self._choices()
            )
        from concurrent.futures.process import BrokenProcessPool

        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            return await loop.run_in_executor(
                pool, _process_in_worker, fields, later, documented, correct
            )
        except BrokenProcessPool:
            # A worker process died (killed, out of memory): the executor is unusable, and
            # this request may have been the one it was working on.
            _log.error("offline service: an engine worker process died; starting a new pool")
            if self._executor is pool:
                self.close()
            raise ApiError(500, "Internal server error: the engine process working on this "
                           "request stopped; please retry.") from None


# -- in the worker processes -----------------------------------------------------------------

_worker_known_words: frozenset[str] = frozenset()
_worker_choices: Choices | None = None
_worker_barrier: Any = None


def _init_worker(
    known_words: frozenset[str], preload: bool, barrier: Any, choices: Choices | None = None
) -> None:
    """Runs once in each worker process when it starts."""
    global _worker_known_words, _worker_barrier, _worker_choices
    # Ctrl-C in a terminal reaches the whole process group; the service decides when its
    # workers stop, so a job is not cut off with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent()
    _worker_known_words = known_words
    _worker_choices = choices
    _worker_barrier = barrier
    if preload:
        import rephrase_ls.offline.engine as engine
        from rephrase_ls.text.detect import detect_language

        for lang, text in _PRELOAD_TEXTS:
            detect_language(text)
            for target in engine.SUPPORTED_TARGETS:
                if target.split("-")[0] == lang:
                    engine.improve(text, target, known_words=known_words)


def _watch_parent() -> None:
    """Exit this worker when the service's process dies (killed: it cannot stop us)."""
    import multiprocessing
    import multiprocessing.connection

    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _ready(timeout: float) -> int:
    """A job of :meth:`EngineWork.start`: wait until every worker runs one."""
    if _worker_barrier is not None:
        _worker_barrier.wait(timeout)
    return os.getpid()


def _process_in_worker(
    fields: Mapping[str, Any], later_shape: bool, documented: bool = False, correct: bool = False
) -> Result:
    return process_fields(
        fields, later_shape, _worker_known_words, documented, correct, _worker_choices
    )
