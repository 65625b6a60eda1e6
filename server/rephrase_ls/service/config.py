"""Configuration of the service client: addresses, tier, key, limits."""

from __future__ import annotations

import ipaddress
import logging
import math
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from rephrase_ls.service.errors import InsecureURL, NotConfigured

API_KEY_ENV = "REPHRASE_API_KEY"
FREE_KEY_SUFFIX = ":fx"

Tier = Literal["auto", "paid", "free"]
_TIERS = ("auto", "paid", "free")


def _has_control(text: str) -> bool:
    return any(ord(c) < 0x20 or ord(c) == 0x7F for c in text)


#: Every API key this process has wrapped in a :class:`SecretKey`: masked in every log record
#: (see :func:`_install_record_masking`) and in what the server and the CLI show.
_KEYS: set[str] = set()
_record_masking = False


def mask_keys(text: str) -> str:
    """``text`` with every API key this process knows replaced by ``***``: for anything that
    holds what a service answered (a misbehaving service may echo the key in a header or a
    field)."""
    for key in _KEYS:
        if key in text:
            text = text.replace(key, "***")
    return text


def _install_record_masking() -> None:
    """Mask the keys in every log record made from now on, whichever logger and handler (the
    editor's log, stderr, a library's own logging)."""
    global _record_masking
    if _record_masking:
        return
    _record_masking = True
    make = logging.getLogRecordFactory()

    def masked_record(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        if _KEYS:
            try:
                message = record.getMessage()
            except Exception:  # a malformed record: logging reports it as it would
                return record
            masked = mask_keys(message)
            if masked != message:
                record.msg, record.args = masked, None
        return record

    logging.setLogRecordFactory(masked_record)


class SecretKey:
    """An API key whose ``repr`` and ``str`` never show it; ``reveal()`` gives it. Once wrapped,
    it is masked in every log record and message (:func:`mask_keys`)."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError("an API key must be a string")
        value = value.strip()
        if not value:
            raise ValueError("the API key is empty")
        if _has_control(value) or any(c.isspace() for c in value):
            # Never echo the key itself.
            raise ValueError("the API key contains spaces or control characters")
        if not value.isascii():
            # An HTTP header carries ASCII only; httpx's encoding error would quote the key.
            raise ValueError("the API key contains characters that are not ASCII")
        self._value = value
        _KEYS.add(value)
        _install_record_masking()

    def reveal(self) -> str:
        """The key itself: only for the Authorization header."""
        return self._value

    @property
    def is_free_tier(self) -> bool:
        """True for a free-tier key (by convention it ends in ``:fx``)."""
        return self._value.endswith(FREE_KEY_SUFFIX)

    def __repr__(self) -> str:
        return "SecretKey('***')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SecretKey) and other._value == self._value

    def __hash__(self) -> int:
        return hash(("SecretKey", self._value))

    def __reduce__(self) -> tuple[object, ...]:
        raise TypeError("SecretKey cannot be pickled")


def api_key_from_env(
    environ: Mapping[str, str] | None = None, variable: str = API_KEY_ENV
) -> SecretKey | None:
    """The key from the environment variable ``variable`` (``REPHRASE_API_KEY``), if set."""
    env = os.environ if environ is None else environ
    value = env.get(variable, "").strip()
    return SecretKey(value) if value else None


def _is_loopback_host(host: str) -> bool:
    """``localhost`` itself or a literal loopback address (``127.0.0.0/8``, ``::1``).

    Names under ``.localhost`` are not accepted: whether they resolve to this machine depends on
    the resolver, and plain http to a host that is not this machine would carry the key in clear.
    """
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def validate_base_url(url: str) -> str:
    """Check a base address and return it without a trailing slash.

    Raises :class:`InsecureURL` unless the address is ``https://`` or ``http://`` to a loopback
    address (``localhost`` itself, ``127.0.0.0/8``, ``::1``; not ``*.localhost``).
    """
    if not isinstance(url, str) or not url.strip():
        raise InsecureURL("The server URL is empty; set it to an https:// address.")
    url = url.strip()
    try:
        parts = urlsplit(url)
        host = parts.hostname
        _ = parts.port  # raises ValueError on a bad port
    except ValueError as exc:
        raise InsecureURL(f"The server URL {url!r} is not a valid URL ({exc}).") from None
    if not host:
        raise InsecureURL(f"The server URL {url!r} has no host; use https://HOST.")
    if parts.username or parts.password:
        raise InsecureURL(
            "The server URL must not contain a user name or password; configure the API key "
            "separately."
        )
    if parts.query or parts.fragment:
        raise InsecureURL(f"The server URL {url!r} must not have a query or fragment.")
    scheme = parts.scheme.lower()
    if scheme == "https":
        return url.rstrip("/")
    if scheme == "http" and _is_loopback_host(host):
        return url.rstrip("/")
    if scheme == "http":
        raise InsecureURL(
            f"The server URL {url!r} uses plain http:// to a host that is not this machine; "
            "use https:// (plain http is allowed only to a loopback address)."
        )
    raise InsecureURL(f"The server URL {url!r} must start with https://.")


def _positive(name: str, value: float) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} must be a number")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, not {value!r}")


#: An HTTP token (RFC 9110): an authentication scheme; anything else cannot go into a header.
_HTTP_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


@dataclass(frozen=True)
class ServiceConfig:
    """Everything the service client needs to know; validated on construction."""

    server_url: str | None = None
    free_server_url: str | None = None
    tier: Tier = "auto"
    auth_scheme: str = "Service-Auth-Key"
    api_key: SecretKey | None = field(default=None)
    user_agent_suffix: str | None = None
    max_concurrency: int = 4
    timeout: float = 10.0
    deadline: float = 120.0
    max_retries: int = 5
    capability_ttl: float = 3600.0

    def __post_init__(self) -> None:
        if self.tier not in _TIERS:
            raise ValueError(f"tier must be one of {', '.join(_TIERS)}, not {self.tier!r}")
        if (
            not isinstance(self.auth_scheme, str)
            or not self.auth_scheme.strip()
            or not _HTTP_TOKEN.fullmatch(self.auth_scheme)
        ):
            raise ValueError(
                f"auth_scheme must be one word such as 'Service-Auth-Key', not {self.auth_scheme!r}"
            )
        if self.api_key is not None and not isinstance(self.api_key, SecretKey):
            raise TypeError("api_key must be a SecretKey (wrap the key: SecretKey(key))")
        if self.user_agent_suffix is not None and (
            not isinstance(self.user_agent_suffix, str)
            or _has_control(self.user_agent_suffix)
            or not self.user_agent_suffix.isascii()
        ):
            raise ValueError("user_agent_suffix must be ASCII text without control characters")
        for name in ("server_url", "free_server_url"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{name} must be a string or None")
        if (
            isinstance(self.max_concurrency, bool)
            or not isinstance(self.max_concurrency, int)
            or self.max_concurrency < 1
        ):
            raise ValueError(
                f"max_concurrency must be an integer ≥ 1, not {self.max_concurrency!r}"
            )
        if (
            isinstance(self.max_retries, bool)
            or not isinstance(self.max_retries, int)
            or self.max_retries < 0
        ):
            raise ValueError(f"max_retries must be an integer ≥ 0, not {self.max_retries!r}")
        _positive("timeout", self.timeout)
        _positive("deadline", self.deadline)
        if isinstance(self.capability_ttl, bool) or not isinstance(
            self.capability_ttl, int | float
        ):
            raise TypeError("capability_ttl must be a number")
        if math.isnan(self.capability_ttl) or self.capability_ttl < 0:
            raise ValueError(f"capability_ttl must be ≥ 0, not {self.capability_ttl!r}")

    @property
    def effective_tier(self) -> Literal["paid", "free"]:
        """The tier in use: as set, or detected from the key (``:fx`` is free-tier)."""
        if self.tier == "paid":
            return "paid"
        if self.tier == "free":
            return "free"
        if self.api_key is not None and self.api_key.is_free_tier:
            return "free"
        return "paid"

    @property
    def base_url(self) -> str:
        """The base address the effective tier uses (not validated; see ``validate_base_url``).

        Raises :class:`NotConfigured` when that address is not set.
        """
        tier = self.effective_tier
        url = self.free_server_url if tier == "free" else self.server_url
        if url is None or not url.strip():
            setting = "freeServerUrl" if tier == "free" else "serverUrl"
            raise NotConfigured(
                f"No server address is configured for the {tier} tier; set '{setting}' in your "
                "own configuration: the user config file (rephrase-ls/config.toml in your "
                "configuration folder, e.g. ~/.config), your editor's user settings or the "
                "environment (a project's .rephrase.toml cannot set it); or leave the API key "
                "empty to use the offline service."
            )
        return url.strip().rstrip("/")
