"""Python logging to the editor: records go out as ``window/logMessage`` at their level."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from rephrase_ls.service.config import mask_keys

#: A log record's attribute saying it already reached the client (RephraseServer.note).
SENT_TO_CLIENT = "rephrase_sent_to_client"

_MESSAGE_TYPE_OF_LEVEL = (
    (logging.ERROR, types.MessageType.Error),
    (logging.WARNING, types.MessageType.Warning),
    (logging.INFO, types.MessageType.Info),
)


class ClientLogHandler(logging.Handler):
    """Sends log records to the editor as ``window/logMessage`` at their level (an editor shows
    a server's stderr as errors, whatever it says). Before the connection is up (a fatal
    start-up error) and when sending fails, the record goes to stderr instead."""

    def __init__(self, server: LanguageServer) -> None:
        super().__init__()
        self.server = server
        self.loop: asyncio.AbstractEventLoop | None = None
        self._sending = False
        self._stderr = logging.StreamHandler()
        self._stderr.setFormatter(
            logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s")
        )

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(record, SENT_TO_CLIENT, False) or self._sending:
            return
        if self.server.protocol.writer is None:
            self._stderr.handle(record)
            return
        try:
            # the record's message is masked when made; a traceback's text is not
            message = mask_keys(self.format(record))
            if not record.name.startswith("rephrase_ls"):
                message = f"{record.name}: {message}"
            kind = next(
                (t for level, t in _MESSAGE_TYPE_OF_LEVEL if record.levelno >= level),
                types.MessageType.Log,
            )
            params = types.LogMessageParams(type=kind, message=message)
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is not None:
                self.loop = running
                self._send(params)
            elif self.loop is not None and not self.loop.is_closed():
                # Another thread: the message is written by the event loop's thread.
                self.loop.call_soon_threadsafe(self._send, params)
            else:
                self._stderr.handle(record)
        except Exception:
            self._stderr.handle(record)

    def _send(self, params: types.LogMessageParams) -> None:
        self._sending = True
        try:
            self.server.window_log_message(params)
        except Exception as exc:  # the connection is gone: stderr is all there is
            with contextlib.suppress(Exception):
                sys.stderr.write(f"{params.message} (not sent to the editor: {exc})\n")
        finally:
            self._sending = False
