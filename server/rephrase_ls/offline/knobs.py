"""How an offline service instance behaves: its options, and the testing knobs that make it
fail, hang, answer late or answer broken bodies (see ``docs/offline-service.md``)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from rephrase_ls.offline.request import STATUS_MESSAGES, ApiError

__all__ = [
    "DOCUMENTED_AUTH_SCHEME",
    "RETRY_AFTER_STATUSES",
    "Knobs",
    "OfflineOptions",
    "hang_until_disconnect",
    "malformed_response",
]

RETRY_AFTER_STATUSES: Final = frozenset({429, 503, 529})
#: The Authorization scheme word of the real service (service-facts.md).
DOCUMENTED_AUTH_SCHEME: Final = "DeepL-Auth-Key"


@dataclass
class OfflineOptions:
    """How an offline service instance behaves. Everything is off by default.

    ``keys``: only these keys are accepted (``None``: any non-empty key). ``fail``: pairs
    ``(status, count)``, consumed in order: the next ``count`` write requests answer
    ``status``. ``hang``: the next N write requests never answer. ``malformed``: the next N
    answer 200 with a body that breaks the interface. ``character_limit``: the account's
    cost-control limit (456 once reached). ``retry_after``: seconds sent in ``Retry-After`` with
    429/503/529. ``later_shape``: serve the v3 lists in the service's later shape.
    ``documented`` (needs ``later_shape``): the write list is the one the service's public
    documentation describes today (styles and tones for de, en, es, fr, it, pt; ja, ko and zh
    without), not what the engine does; :meth:`as_documented` is the whole profile.
    ``workers``: 0 runs detection and the engine in threads of this process (the embedded mode);
    N > 0 runs them in a pool of N worker processes, so concurrent requests use several cores.
    ``preload``: worker processes load every language's engine data when they start (needs
    ``workers``). ``overlap_latency``: the work runs during ``latency_ms`` instead of after it.
    ``known_words``: never corrected; ``language_words``, ``disabled_rules``: the writer's
    per-language words and the kinds of changes turned off, as ``(language, value)`` pairs
    (:class:`~rephrase_ls.offline.request.Choices`). ``corrections``: serve
    ``POST /v2/write/correct``; False answers 404 there, as a service
    that ``service-interface.md`` describes. The knobs ``fail``, ``hang``, ``malformed`` and
    ``latency_ms`` act on both write endpoints.
    """

    keys: tuple[str, ...] | None = field(default=None, repr=False)
    auth_scheme: str = "Service-Auth-Key"
    latency_ms: float = 0.0
    fail: list[tuple[int, int]] = field(default_factory=list)
    hang: int = 0
    malformed: int = 0
    character_limit: int | None = None
    known_words: frozenset[str] = frozenset()
    language_words: tuple[tuple[str, str], ...] = ()
    disabled_rules: tuple[tuple[str, str], ...] = ()
    retry_after: float = 1.0
    later_shape: bool = False
    documented: bool = False
    workers: int = 0
    preload: bool = False
    overlap_latency: bool = False
    corrections: bool = True

    def __post_init__(self) -> None:
        if not self.auth_scheme or any(c.isspace() for c in self.auth_scheme):
            raise ValueError("auth_scheme must be a non-empty word without spaces")
        if self.keys is not None:
            if not self.keys:
                raise ValueError("keys must name at least one key (or be None to accept any)")
            for key in self.keys:
                if not isinstance(key, str) or not key.strip() or any(c.isspace() for c in key):
                    raise ValueError("every key must be a non-empty string without spaces")
        if self.latency_ms < 0:
            raise ValueError("latency_ms must not be negative")
        for entry in self.fail:
            if len(entry) != 2:
                raise ValueError("fail entries are (status, count) pairs")
            status, count = entry
            if not 400 <= status <= 599:
                raise ValueError(f"fail status {status} is not an HTTP error status (400-599)")
            if count < 1:
                raise ValueError("fail count must be at least 1")
        if self.hang < 0 or self.malformed < 0:
            raise ValueError("hang and malformed counts must not be negative")
        if self.character_limit is not None and self.character_limit < 0:
            raise ValueError("character_limit must not be negative")
        if self.retry_after < 0:
            raise ValueError("retry_after must not be negative")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) \
                or self.workers < 0:
            raise ValueError("workers must be a whole number >= 0 (0: threads in this process)")
        if self.preload and not self.workers:
            raise ValueError("preload needs worker processes (workers >= 1)")
        if self.documented and not self.later_shape:
            raise ValueError("documented needs later_shape (the documented list is the later "
                             "shape)")

    @classmethod
    def as_documented(cls, **options: Any) -> OfflineOptions:
        """The service as its public documentation describes it today: the later list shape,
        the documented write list and the ``DeepL-Auth-Key`` header scheme (``options`` set the
        other fields, or override these)."""
        settings: dict[str, Any] = {"later_shape": True, "documented": True,
                                    "auth_scheme": DOCUMENTED_AUTH_SCHEME, **options}
        return cls(**settings)


class Knobs:
    """The knobs' counters of one app: what the next write requests do."""

    def __init__(self, options: OfflineOptions) -> None:
        self.retry_after = options.retry_after
        self.fail = [[status, count] for status, count in options.fail]
        self.hang = options.hang
        self.malformed = options.malformed
        self.malformed_served = 0

    def take_hang(self) -> bool:
        """Whether this request is one that never answers (and counts it)."""
        if self.hang <= 0:
            return False
        self.hang -= 1
        return True

    def take_failure(self) -> ApiError | None:
        """The simulated error this request answers, if any (and counts it)."""
        if not self.fail:
            return None
        entry = self.fail[0]
        status = entry[0]
        entry[1] -= 1
        if entry[1] <= 0:
            self.fail.pop(0)
        headers = {}
        if status in RETRY_AFTER_STATUSES:
            headers["Retry-After"] = _format_seconds(self.retry_after)
        message = STATUS_MESSAGES.get(status, f"Error {status} (simulated).")
        return ApiError(status, message, headers)

    def take_malformed(self, improvements: list[dict[str, Any]]) -> Response | None:
        """The broken 200 answer this request gets instead of ``improvements``, if any."""
        if self.malformed <= 0:
            return None
        self.malformed -= 1
        self.malformed_served += 1
        return malformed_response(improvements, self.malformed_served)


def _format_seconds(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else f"{seconds:g}"


def malformed_response(improvements: list[dict[str, Any]], serial: int) -> Response:
    """A 200 answer that breaks the interface, in one of four ways chosen by ``serial``."""
    variant = (serial - 1) % 4
    if variant == 0:
        return JSONResponse({"result": improvements})
    if variant == 1:
        return JSONResponse({"improvements": [*improvements, improvements[-1]]})
    if variant == 2:
        return JSONResponse({"improvements": [{"target_language": i["target_language"]}
                                              for i in improvements]})
    return Response("<html><body>upstream hiccup</body></html>", status_code=200,
                    media_type="text/html")


async def hang_until_disconnect(request: Request, never: asyncio.Event) -> None:
    """Never answer: wait for ``never`` (an event nobody sets) until the client goes away, then
    raise (the answer is never delivered)."""
    waiting = asyncio.ensure_future(never.wait())
    gone = asyncio.ensure_future(_wait_disconnect(request))
    try:
        await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        waiting.cancel()
        gone.cancel()
    raise ApiError(499, "Client closed the request.")


async def _wait_disconnect(request: Request) -> None:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            return
