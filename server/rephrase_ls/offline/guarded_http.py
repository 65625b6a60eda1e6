"""uvicorn's httptools protocol with two limits a hostile or broken client cannot get around.

- **Request head size**: a request line and headers longer than :data:`MAX_HEAD_BYTES` get
  ``431 Request Header Fields Too Large`` and the connection is closed, before the head is read
  further (the parser would otherwise keep buffering an endless header).
- **Incomplete request**: a request must arrive whole (head and body) within the request
  timeout from its first byte, and a new connection must start one within it: otherwise
  ``408 Request Timeout`` once (the app, waiting for the rest of the body, sees the client
  disconnect and its answer is dropped) and the connection is closed. A request already
  answered before its body was read (a 403 for a wrong key) gets nothing more: the connection
  is closed. A client that sends a byte now and then (slowloris) holds a connection for that
  long at most. The time the app then takes to answer is not limited.

Imported by :mod:`rephrase_ls.offline.server` only when serving (it imports uvicorn).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["MAX_HEAD_BYTES", "guarded_protocol"]

MAX_HEAD_BYTES: Final = 16 * 1024
"""Largest request line plus headers accepted, in bytes."""

_LINGER_SECONDS: Final = 2.0
_REASONS: Final = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


def _plain_response(status: int, message: str) -> bytes:
    body = ('{"message": "' + message + '"}').encode("ascii")
    return b"".join((
        b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status]),
        b"content-type: application/json\r\n",
        b"content-length: %d\r\n" % len(body),
        b"connection: close\r\n\r\n",
        body,
    ))


class _GuardedProtocol(HttpToolsProtocol):
    """See the module docstring; ``request_timeout`` is set by :func:`guarded_protocol`."""

    request_timeout: float

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = False  # between a request's first byte and the end of its headers
        self._head_bytes = 0  # bytes of the current head received so far (while _in_head)
        self._refused = False  # the current request was refused: ignore the rest of it
        self._deadline: asyncio.TimerHandle | None = None

    # -- the incomplete-request timer -------------------------------------------------------

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if not self._in_head and cycle is not None and cycle.response_started:
            # The request was answered (a 403 before its body was read): nothing more is sent.
            self._refused = True
            self.transport.close()
            return
        if cycle is not None and not self._in_head:
            # The app waits for the rest of the body: it sees the client disconnect, and what it
            # would answer is dropped; the 408 below is the one answer.
            cycle.disconnected = True
            cycle.message_event.set()
        seconds = f"{self.request_timeout:g}"
        self._answer_and_close(_plain_response(
            408, f"The request did not arrive whole within {seconds} s."))

    def _refuse(self) -> None:
        self._disarm()
        self._answer_and_close(_plain_response(
            431, f"The request line and headers exceed {MAX_HEAD_BYTES} bytes."))

    def _answer_and_close(self, answer: bytes) -> None:
        """Send ``answer`` and close, reading and dropping what the client still sends for a
        moment first: closing with unread input would reset the connection, and the client
        might lose the answer."""
        self._refused = True
        if self.transport.is_closing():
            return
        self.transport.write(answer)
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self.loop.call_later(_LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()

    # -- protocol and parser callbacks ------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def eof_received(self) -> None:
        if self._refused:
            self.transport.close()  # the client has read the answer and is done
        else:
            super().eof_received()

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # dropped
        super().data_received(data)
        if self._in_head:
            # Still in the head after this chunk: the chunk was head (perhaps after the end of
            # a request before it, counted too: a bound, not an exact size).
            self._head_bytes += len(data)
            if self._head_bytes > MAX_HEAD_BYTES:
                self._refuse()
        elif self._refused:
            self._refuse()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_bytes = 0
        self._arm()

    def on_headers_complete(self) -> None:
        self._in_head = False
        # The head came in this chunk, perhaps with a body after it: count what was parsed.
        size = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        if size > MAX_HEAD_BYTES:
            self._refused = True  # data_received answers once the parser returns
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        self._disarm()
        super().on_message_complete()


def guarded_protocol(request_timeout: float) -> type[asyncio.Protocol]:
    """The protocol class for ``uvicorn.Config(http=...)``, with ``request_timeout`` seconds
    for a request to arrive whole."""
    if not request_timeout > 0:
        raise ValueError("request_timeout must be > 0")
    return type("GuardedHttpToolsProtocol", (_GuardedProtocol,),
                {"request_timeout": float(request_timeout)})

