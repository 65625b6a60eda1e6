"""Worker processes for the offline service's engine, driven straight from the event loop.

Each worker is a spawned process joined to the service by its own socket pair. The event loop
writes a job (a length-prefixed pickle of a module-level function and its arguments) to an idle
worker's socket and reads the answer back itself, with ``loop.sock_sendall`` and
``loop.sock_recv_into``: no thread of the service's process takes part.

Why not ``concurrent.futures.ProcessPoolExecutor``: there, each job crosses three threads of
the parent (the caller, the pool's manager thread, the call queue's feeder thread) on the way
out and two on the way back, each a wake-up and a turn of the GIL. On the loopback bench that
cost about 1 ms each way per request; here it is one write and one read (see
``docs/performance.md``).

Failure handling:

* A worker that dies while it works on a job (killed, out of memory) fails that job with
  :class:`WorkerDied` and is replaced by a new process; the other workers carry on.
* A worker found dead before it received a job (the write fails) is replaced and the job goes
  to another worker, since it never ran.
* A caller that is cancelled does not lose the worker: the exchange runs in its own task, which
  reads the abandoned answer and returns the worker to the idle ones.
* A worker exits when its socket reaches end-of-file: when the pool is closed, and when the
  service's process dies without closing it (the kernel closes the service's ends).
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import pickle
import signal
import socket
import struct
from collections.abc import Callable
from typing import Any, Final

__all__ = ["PoolClosed", "WorkerDied", "WorkerPool"]

_HEADER: Final = struct.Struct("!I")
_SPAWN: Final = multiprocessing.get_context("spawn")
_JOIN_SECONDS: Final = 5.0


class WorkerDied(RuntimeError):
    """The worker process running a job ended before it answered."""


class PoolClosed(RuntimeError):
    """A job was submitted to (or was waiting in) a pool that has been closed."""


# -- the worker's side -------------------------------------------------------------------------


def _recv_exactly(sock: socket.socket, size: int) -> bytes | None:
    """``size`` bytes from a blocking socket, or ``None`` at end-of-file."""
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        count = sock.recv_into(view[got:])
        if not count:
            return None
        got += count
    return bytes(buffer)


def _send_message(sock: socket.socket, payload: bytes) -> None:
    sock.sendall(_HEADER.pack(len(payload)) + payload)


def _encode_outcome(ok: bool, value: Any) -> bytes:
    try:
        return pickle.dumps((ok, value), protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # an answer or exception that cannot be pickled
        error = RuntimeError(f"the worker's answer cannot be sent back: {exc!r}")
        return pickle.dumps((False, error), protocol=pickle.HIGHEST_PROTOCOL)


def _serve(
    sock: socket.socket, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    """A worker process's main loop: initialise, say ready, then answer jobs until EOF."""
    # Ctrl-C in a terminal reaches the whole process group; the service decides when its
    # workers stop (by closing their sockets), so a job is not cut off with a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        if initializer is not None:
            initializer(*initargs)
        _send_message(sock, _encode_outcome(True, None))
        while True:
            header = _recv_exactly(sock, _HEADER.size)
            if header is None:
                return
            body = _recv_exactly(sock, _HEADER.unpack(header)[0])
            if body is None:
                return
            try:
                function, args = pickle.loads(body)
                outcome = _encode_outcome(True, function(*args))
            except Exception as exc:
                outcome = _encode_outcome(False, exc)
            _send_message(sock, outcome)
    except (BrokenPipeError, ConnectionResetError):
        return  # the service has gone


# -- the service's side ------------------------------------------------------------------------


class _Worker:
    __slots__ = ("process", "sock")

    def __init__(self, process: Any, sock: socket.socket) -> None:
        self.process = process
        self.sock = sock


class WorkerPool:
    """``count`` worker processes that run jobs for coroutines of one event loop at a time.

    :meth:`start` starts them all and blocks until each is ready (its ``initializer`` has
    run); without it, :meth:`run` starts them on first use and waits for them there.
    """

    def __init__(
        self,
        count: int,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        *,
        name: str = "worker",
    ) -> None:
        if count < 1:
            raise ValueError("a worker pool needs at least one worker")
        self._count = count
        self._initializer = initializer
        self._initargs = initargs
        self._name = name
        self._serial = 0
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting: set[_Worker] = set()
        self._waiters: collections.deque[asyncio.Future[_Worker]] = collections.deque()
        self._started = False
        self._closed = False

    @property
    def pids(self) -> list[int]:
        """Process ids of the workers (idle, busy and starting)."""
        workers = [*self._idle, *self._busy, *self._starting]
        return [w.process.pid for w in workers if w.process.pid is not None]

    def _spawn(self) -> _Worker:
        ours, theirs = socket.socketpair()
        self._serial += 1
        process = _SPAWN.Process(
            target=_serve,
            args=(theirs, self._initializer, self._initargs),
            name=f"{self._name}-{self._serial}",
            daemon=True,
        )
        try:
            process.start()
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()  # the child has its own copy
        return _Worker(process, ours)

    def start(self, timeout: float = 600.0) -> None:
        """Start every worker and block until all are ready (or raise :class:`WorkerDied`)."""
        if self._closed:
            raise PoolClosed("the worker pool is closed")
        if self._started:
            return
        self._started = True
        workers = [self._spawn() for _ in range(self._count)]
        self._starting.update(workers)
        for worker in workers:
            worker.sock.settimeout(timeout)
            try:
                header = _recv_exactly(worker.sock, _HEADER.size)
                ready = None if header is None else \
                    _recv_exactly(worker.sock, _HEADER.unpack(header)[0])
            except TimeoutError:
                self.close()
                raise WorkerDied(f"a worker was not ready within {timeout:g} s") from None
            if ready is None:
                self.close()
                raise WorkerDied("a worker ended while it started (see its error output)")
            worker.sock.setblocking(False)
            self._starting.discard(worker)
            self._idle.append(worker)

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` in a worker process (both picklable); its result or exception.

        Raises :class:`WorkerDied` when the worker ended during the job, and
        :class:`PoolClosed` when the pool is closed before the job could run.
        """
        payload = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        message = _HEADER.pack(len(payload)) + payload
        while True:
            worker = await self._acquire()
            loop = asyncio.get_running_loop()
            try:
                await loop.sock_sendall(worker.sock, message)
            except OSError:
                # Dead before the job reached it: the job never ran, so another worker may
                # run it.
                self._lose(worker)
                continue
            except BaseException:
                self._lose(worker)  # cut off mid-message: the worker cannot be trusted now
                raise
            break
        # The answer is read in its own task, so that a caller cancelled now does not leave a
        # half-read answer on the socket: the task finishes the read and frees the worker.
        exchange = loop.create_task(self._answer(worker))
        _background.add(exchange)
        exchange.add_done_callback(_forget)
        ok, value = await asyncio.shield(exchange)
        if ok:
            return value
        raise value

    async def _answer(self, worker: _Worker) -> tuple[bool, Any]:
        loop = asyncio.get_running_loop()
        try:
            header = await _read_exactly(loop, worker.sock, _HEADER.size)
            body = await _read_exactly(loop, worker.sock, _HEADER.unpack(header)[0])
        except (OSError, EOFError):
            self._lose(worker)
            if self._closed:
                raise PoolClosed("the worker pool was closed during the job") from None
            raise WorkerDied("an engine worker process ended during the job; it has been "
                             "replaced") from None
        except BaseException:
            self._lose(worker)
            raise
        self._release(worker)
        outcome: tuple[bool, Any] = pickle.loads(body)
        return outcome

    async def _acquire(self) -> _Worker:
        if self._closed:
            raise PoolClosed("the worker pool is closed")
        if not self._started:
            self._started = True
            for _ in range(self._count):
                self._start_async()
        if self._idle:
            worker = self._idle.pop()
            self._busy.add(worker)
            return worker
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed over just as we were cancelled
            raise

    def _start_async(self) -> None:
        """Start a worker (a replacement, or on first use) and make it idle once ready."""
        worker = self._spawn()
        self._starting.add(worker)
        worker.sock.setblocking(False)

        async def ready() -> None:
            loop = asyncio.get_running_loop()
            try:
                header = await _read_exactly(loop, worker.sock, _HEADER.size)
                await _read_exactly(loop, worker.sock, _HEADER.unpack(header)[0])
            except (OSError, EOFError):
                self._starting.discard(worker)
                self._end(worker)
                self._fail_waiters_if_none_left()
                return
            self._starting.discard(worker)
            self._busy.add(worker)
            self._release(worker)

        task = asyncio.get_running_loop().create_task(ready())
        _background.add(task)
        task.add_done_callback(_forget)

    def _release(self, worker: _Worker) -> None:
        """A busy worker is free again: hand it to the first waiting caller, or make it idle."""
        self._busy.discard(worker)
        if self._closed:
            self._end(worker)
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                self._busy.add(worker)
                waiter.set_result(worker)
                return
        self._idle.append(worker)

    def _lose(self, worker: _Worker) -> None:
        """A worker that failed: end it, and start a replacement unless the pool is closed."""
        self._busy.discard(worker)
        self._end(worker)
        if not self._closed:
            self._start_async()

    def _fail_waiters_if_none_left(self) -> None:
        # Every worker failed to start: callers would wait forever otherwise.
        if self._idle or self._busy or self._starting:
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(WorkerDied("no engine worker process could start"))

    @staticmethod
    def _end(worker: _Worker) -> None:
        worker.sock.close()
        if worker.process.is_alive():
            worker.process.kill()

    def close(self, *, wait: bool = False) -> None:
        """Stop the workers. Idle ones exit at end-of-file; busy and starting ones are killed
        (their jobs fail with :class:`PoolClosed`). With ``wait``, until they have exited."""
        if self._closed:
            return
        self._closed = True
        processes = [w.process for w in (*self._idle, *self._busy, *self._starting)]
        for worker in self._idle:
            worker.sock.close()
        self._idle.clear()
        for worker in (*self._busy, *self._starting):
            # Their exchange (if a loop still runs it) sees end-of-file and closes the socket.
            if worker.process.is_alive():
                worker.process.kill()
        for waiter in self._waiters:
            if not waiter.done() and not waiter.get_loop().is_closed():
                waiter.get_loop().call_soon_threadsafe(_fail, waiter)
        self._waiters.clear()
        if wait:
            for process in processes:
                process.join(_JOIN_SECONDS)
                if process.is_alive():
                    process.kill()
                    process.join(_JOIN_SECONDS)


_background: set[asyncio.Task[Any]] = set()
"""Tasks nobody else may hold (an abandoned exchange, a worker starting): kept until done."""


def _forget(task: asyncio.Task[Any]) -> None:
    _background.discard(task)
    if not task.cancelled():
        task.exception()  # retrieved: a caller that was cancelled no longer wants it


def _fail(waiter: asyncio.Future[Any]) -> None:
    if not waiter.done():
        waiter.set_exception(PoolClosed("the worker pool was closed"))


async def _read_exactly(loop: asyncio.AbstractEventLoop, sock: socket.socket, size: int) -> bytes:
    """``size`` bytes from a non-blocking socket through ``loop``; EOFError at end-of-file."""
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        count = await loop.sock_recv_into(sock, view[got:])
        if not count:
            raise EOFError
        got += count
    return bytes(buffer)
