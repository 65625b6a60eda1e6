"""Typed errors of the service client.

Every error carries ``message`` (a sentence a writer understands that says what to do),
``status`` (the HTTP status, when there was one), ``trace_id`` (the service's ``X-Trace-ID``,
when there was one) and ``retryable``. No message, ``repr`` or log line contains the API key:
texts that come from the service are scrubbed with :func:`scrub` before they are stored.
"""

from __future__ import annotations

from collections.abc import Iterable

_MAX_SERVICE_MESSAGE = 300


class ServiceError(Exception):
    """Base class of every error the service client raises."""

    retryable: bool = False
    #: Seconds the service asked to wait (``Retry-After``), when it said so.
    retry_after: float | None = None
    #: How many times the request was retried before this error was given up on.
    retries: int = 0

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        trace_id: str | None = None,
        retryable: bool | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.trace_id = trace_id
        if retryable is not None:
            self.retryable = retryable

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}({self.message!r}, status={self.status!r}, "
            f"trace_id={self.trace_id!r})"
        )


class BadRequest(ServiceError):
    """400: the service refused the request; ``service_message`` is its own words."""

    def __init__(
        self,
        message: str,
        *,
        service_message: str | None = None,
        status: int | None = 400,
        trace_id: str | None = None,
    ) -> None:
        super().__init__(message, status=status, trace_id=trace_id)
        self.service_message = service_message


class AuthorizationFailed(ServiceError):
    """403 (or 401): the key was refused."""


class NotFound(ServiceError):
    """404: the service does not know the path."""


class CorrectionsUnavailable(NotFound):
    """The service has no corrections-only endpoint (it answered 404 there, now or before)."""

    MESSAGE = (
        "This service has no corrections-only mode (it answers 404 to /v2/write/correct); "
        "Improve works there but rewrites more than corrections."
    )

    def __init__(
        self, *, status: int | None = 404, trace_id: str | None = None, known: bool = False
    ) -> None:
        super().__init__(self.MESSAGE, status=status, trace_id=trace_id)
        self.known = known
        """True when the absence was remembered from an earlier answer (nothing was sent)."""


class RequestTooLarge(ServiceError):
    """413: the request body was too large."""


class UnsupportedMediaType(ServiceError):
    """415: the service does not accept the request's Content-Type (a client bug)."""


class TooManyRequests(ServiceError):
    """429 or 529: the service asks to slow down; retried with backoff."""

    retryable = True


class QuotaExceeded(ServiceError):
    """456: the account's character quota or cost-control limit is reached."""


class ServerError(ServiceError):
    """500, 503, 504 or another 5xx: retried with backoff."""

    retryable = True


class RequestTimeout(ServiceError):
    """The service did not answer in time (an attempt's time-out or the whole call's deadline)."""

    retryable = True


class ConnectionFailed(ServiceError):
    """No connection to the service could be made or kept."""

    retryable = True


class MalformedResponse(ServiceError):
    """The service answered something the interface does not promise."""


class FreeTierNotAllowed(ServiceError):
    """Text improvement asked of a free-tier client; raised before any request."""


class InvalidRequest(ServiceError, ValueError):
    """A request the client refuses to send (style with tone, unsupported style, bad input)."""


class InsecureURL(ServiceError, ValueError):
    """A base address that is neither ``https://`` nor ``http://`` to a loopback address."""


class NotConfigured(ServiceError):
    """Something the client needs (a server address, a key) is not configured."""


class UnexpectedStatus(ServiceError):
    """Any other non-success status."""


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Return ``text`` with every secret replaced by ``***`` (for texts echoed by a service)."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text


def shorten(text: str, limit: int = _MAX_SERVICE_MESSAGE) -> str:
    """Collapse whitespace and cut ``text`` to ``limit`` characters for a one-line message."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


#: The Authorization scheme word of the real service (service-facts.md); the interface document
#: writes ``Service-Auth-Key``.
REAL_SERVICE_SCHEME = "DeepL-Auth-Key"


def scheme_hint(scheme: str) -> str:
    """What to add to a refusal of the first request: the header's scheme may be wrong too."""
    start = (
        " The service has accepted no request yet, so the header's scheme may be wrong too: "
        f"the requests say 'Authorization: {scheme} <key>' (the authScheme setting)"
    )
    where = (
        "in the user config file (rephrase-ls/config.toml in the user's config folder) or "
        "the editor's user settings (rephrase.authScheme)."
    )
    if scheme.lower() == REAL_SERVICE_SCHEME.lower():
        return f"{start}; if the service expects another word there, set authScheme {where}"
    return (
        f"{start}, and the real service expects '{REAL_SERVICE_SCHEME}'. Set "
        f'authScheme = "{REAL_SERVICE_SCHEME}" {where}'
    )


def error_for_status(
    status: int,
    service_message: str | None,
    *,
    trace_id: str | None = None,
    what: str = "the request",
) -> ServiceError:
    """Build the typed error for an HTTP error ``status`` (``service_message`` already scrubbed)."""
    said = f" The service said: {service_message}" if service_message else ""
    if status == 400:
        return BadRequest(
            f"The service refused {what}.{said or ' It gave no reason.'}",
            service_message=service_message,
            trace_id=trace_id,
        )
    if status in (401, 403):
        return AuthorizationFailed(
            "The service refused the API key. Check that the key is right and has access to "
            "this product; a free-tier key (ending in ':fx') cannot use text improvement." + said,
            status=status,
            trace_id=trace_id,
        )
    if status == 404:
        return NotFound(
            f"The service does not know the address of {what}; check the server URL.{said}",
            status=status,
            trace_id=trace_id,
        )
    if status == 413:
        return RequestTooLarge(
            f"The service found {what} too large.{said}", status=status, trace_id=trace_id
        )
    if status == 415:
        return UnsupportedMediaType(
            f"The service did not accept the format of {what} (a bug in rephrase-ls; please "
            f"report it).{said}",
            status=status,
            trace_id=trace_id,
        )
    if status in (429, 529):
        return TooManyRequests(
            f"The service is receiving too many requests; try again in a moment.{said}",
            status=status,
            trace_id=trace_id,
        )
    if status == 456:
        return QuotaExceeded(
            "The account's character quota or cost-control limit is reached; raise the limit "
            f"in the account settings or wait for the next billing period.{said}",
            status=status,
            trace_id=trace_id,
        )
    if status >= 500:
        return ServerError(
            f"The service had a problem (HTTP {status}); try again later.{said}",
            status=status,
            trace_id=trace_id,
        )
    return UnexpectedStatus(
        f"The service answered {what} with HTTP {status}.{said}",
        status=status,
        trace_id=trace_id,
    )
