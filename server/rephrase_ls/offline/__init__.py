"""The offline service: the rephrase service's interface, answered in-process or on loopback.

Importing this package is cheap (the language server does it at start-up): Starlette, httpx's
ASGI transport and the engine are imported only when a transport or app is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import httpx

    from rephrase_ls.offline.knobs import OfflineOptions

__all__ = ["EMBEDDED_BASE_URL", "embedded_transport"]

EMBEDDED_BASE_URL: Final = "http://offline.embedded"
"""Base address to use with :func:`embedded_transport` (no socket is ever opened)."""


def embedded_transport(options: OfflineOptions | None = None) -> httpx.ASGITransport:
    """A fresh in-process offline service behind an ``httpx`` transport.

    Each call builds a new app with its own usage and knob counters. Note that httpx applies no
    time-outs to an ASGI transport: a caller that uses the ``hang`` knob must bound the wait
    itself (``asyncio.timeout``).
    """
    import httpx

    from rephrase_ls.offline.app import create_app

    return httpx.ASGITransport(app=create_app(options))
