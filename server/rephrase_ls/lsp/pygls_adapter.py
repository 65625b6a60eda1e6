"""The one place rephrase-ls reaches into pygls's private API, where pygls has no public one.

Checked against pygls 2.1.1 (:data:`CHECKED_PYGLS`); ``tests/unit/lsp/test_pygls_adapter.py``
fails when the installed pygls is another version or the private names below change, and
``tests/unit/test_import_graph.py`` that no other module of the package uses a ``_`` name of
pygls or lsprotocol. What is used, and why there is no public way:

- ``JsonRPCProtocol._send_data``: send a message already in JSON values. ``notify`` converts
  its ``params`` through the typed message class again (for a large document's diagnostics,
  tens of thousands of fields converted twice).
- ``JsonRPCProtocol._send_response``: answer a request with an error before a handler runs
  (parameters that do not fit the protocol's types: pygls logs them and never answers).
- ``JsonRPCProtocol._handle_cancel_notification`` and ``_request_futures``: pygls cancels only
  the future of a request that has not started, and warns for every other ``$/cancelRequest``;
  :class:`CancelHookProtocol` turns it into the public-named hook
  :meth:`~CancelHookProtocol.on_cancel_request`.
- ``JsonRPCProtocol._server``: the server a protocol belongs to.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

#: The pygls versions this module was checked against.
CHECKED_PYGLS = ("2.1.1",)

#: The private names of pygls's ``JsonRPCProtocol`` used here.
PRIVATE_NAMES = (
    "_send_data",
    "_send_response",
    "_handle_cancel_notification",
    "_request_futures",
    "_server",
)


def send_json(protocol: LanguageServerProtocol, message: dict[str, Any]) -> None:
    """Send ``message`` (a whole JSON-RPC message as plain JSON values) as it is."""
    protocol._send_data(message)


def send_error(protocol: LanguageServerProtocol, msg_id: Any, error: types.ResponseError) -> None:
    """Answer the request ``msg_id`` with ``error``."""
    protocol._send_response(msg_id, error=error)


def server_of(protocol: LanguageServerProtocol) -> LanguageServer | None:
    """The server ``protocol`` belongs to."""
    server = protocol._server
    return server if isinstance(server, LanguageServer) else None


class CancelHookProtocol(LanguageServerProtocol):
    """A protocol that hands each ``$/cancelRequest`` to :meth:`on_cancel_request`."""

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        self.on_cancel_request(msg_id)

    def on_cancel_request(self, msg_id: Any) -> None:
        """The client cancels request ``msg_id``; by default pygls's own handling."""
        self.cancel_request_future(msg_id)

    def is_request_pending(self, msg_id: Any) -> bool:
        """Whether pygls still holds the future of request ``msg_id`` (not answered yet)."""
        return msg_id in self._request_futures

    def cancel_request_future(self, msg_id: Any) -> None:
        """pygls's cancellation: the request's future is cancelled if it has not started."""
        super()._handle_cancel_notification(msg_id)
