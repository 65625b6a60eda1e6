"""``rephrase-ls offline-service``: the offline service on a loopback socket, served by uvicorn."""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
from typing import TextIO

from rephrase_ls.offline.knobs import DOCUMENTED_AUTH_SCHEME, OfflineOptions

__all__ = ["build_parser", "main", "options_from_args", "run"]

LISTENING_PREFIX = "rephrase-ls offline service listening on "
DEFAULT_REQUEST_TIMEOUT = 10.0
"""Seconds a request may take to arrive whole (see :mod:`rephrase_ls.offline.guarded_http`)."""
GRACEFUL_SHUTDOWN_SECONDS = 2
"""How long shutdown waits for requests in flight (a ``--hang`` request never ends)."""


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP addresses (``127.0.0.0/8``, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _fail_spec(value: str) -> tuple[int, int]:
    status_text, sep, count_text = value.partition(":")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected STATUS:COUNT, got {value!r}")
    try:
        status, count = int(status_text), int(count_text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected STATUS:COUNT with numbers, got {value!r}") \
            from None
    if not 400 <= status <= 599:
        raise argparse.ArgumentTypeError(f"STATUS must be an HTTP error status 400-599: {value!r}")
    if count < 1:
        raise argparse.ArgumentTypeError(f"COUNT must be at least 1: {value!r}")
    return status, count


def _non_negative_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {value!r}")
    return number


def _non_negative_float(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {value!r}") from None
    if not number >= 0 or number == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0: {value!r}")
    return number


def _positive_float(value: str) -> float:
    number = _non_negative_float(value)
    if number == 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {value!r}")
    return number


def _port(value: str) -> int:
    number = _non_negative_int(value)
    if number > 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port: {value!r}")
    return number


def cpu_count() -> int:
    """CPUs this process may run on (at least 1): the default number of engine workers."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def build_parser() -> argparse.ArgumentParser:
    """The command line of ``rephrase-ls offline-service``."""
    parser = argparse.ArgumentParser(
        prog="rephrase-ls offline-service",
        description="Serve the offline rephrase service (the interface of the real service, "
        "with a local improvement engine) over HTTP on loopback.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1; loopback only unless "
                        "--allow-remote)")
    parser.add_argument("--port", type=_port, default=0,
                        help="port to bind (default 0: any free port; the address is printed)")
    parser.add_argument("--allow-remote", action="store_true",
                        help="allow binding a non-loopback address")
    parser.add_argument("--auth-scheme", default=None, metavar="NAME",
                        help="scheme word of the Authorization header (default "
                        "Service-Auth-Key; DeepL-Auth-Key with --as-documented)")
    parser.add_argument("--key", action="append", dest="keys", metavar="KEY",
                        help="accept only this key (repeatable; default: any non-empty key)")
    parser.add_argument("--latency", type=_non_negative_float, default=0.0, metavar="MS",
                        help="add MS milliseconds to every write answer (rephrase or correct)")
    parser.add_argument("--overlap-latency", action="store_true",
                        help="let the engine work during the --latency delay, so an answer "
                        "takes max(latency, work) instead of latency + work")
    parser.add_argument("--fail", type=_fail_spec, action="append", default=[],
                        metavar="STATUS:COUNT",
                        help="the next COUNT write requests (rephrase or correct) answer STATUS "
                        "(repeatable, consumed in order)")
    parser.add_argument("--hang", type=_non_negative_int, default=0, metavar="COUNT",
                        help="the next COUNT write requests (rephrase or correct) never answer")
    parser.add_argument("--malformed", type=_non_negative_int, default=0, metavar="COUNT",
                        help="the next COUNT write requests (rephrase or correct) answer 200 "
                        "with a broken body")
    parser.add_argument("--character-limit", type=_non_negative_int, default=None, metavar="N",
                        help="the account's cost-control limit: 456 once N characters are used")
    parser.add_argument("--retry-after", type=_non_negative_float, default=1.0, metavar="S",
                        help="seconds sent in Retry-After with 429/503/529 (default 1)")
    parser.add_argument("--workers", type=_non_negative_int, default=None, metavar="N",
                        help="engine worker processes, so concurrent requests use several cores "
                        f"(default: the CPU count, here {cpu_count()}; 0: threads of this "
                        "process)")
    parser.add_argument("--preload", action="store_true",
                        help="load every language's engine data in each worker before "
                        "listening (slower start, no first-request delays; needs workers)")
    parser.add_argument("--no-correct", action="store_true",
                        help="have no corrections-only endpoint: POST /v2/write/correct answers "
                        "404, as service-interface.md describes the service")
    parser.add_argument("--later-shape", action="store_true",
                        help="serve the v3 language lists in the service's later shape")
    parser.add_argument("--as-documented", action="store_true",
                        help="behave as the service's public documentation describes it today: "
                        "the later list shape, styles and tones for de, en, es, fr, it, pt, "
                        "ja, ko and zh listed without them, and the DeepL-Auth-Key scheme")
    parser.add_argument("--request-timeout", type=_positive_float,
                        default=DEFAULT_REQUEST_TIMEOUT, metavar="S",
                        help="seconds a request may take to arrive whole, head and body "
                        f"(default {DEFAULT_REQUEST_TIMEOUT:g}); then 408 and the connection "
                        "is closed")
    parser.add_argument("--log-level", default="warning",
                        choices=["critical", "error", "warning", "info", "debug"],
                        help="uvicorn's log level (default warning)")
    return parser


def options_from_args(args: argparse.Namespace) -> OfflineOptions:
    """Turn parsed command-line arguments into :class:`OfflineOptions`."""
    return OfflineOptions(
        keys=tuple(args.keys) if args.keys else None,
        auth_scheme=args.auth_scheme or (
            DOCUMENTED_AUTH_SCHEME if args.as_documented else "Service-Auth-Key"
        ),
        latency_ms=args.latency,
        fail=list(args.fail),
        hang=args.hang,
        malformed=args.malformed,
        character_limit=args.character_limit,
        retry_after=args.retry_after,
        later_shape=args.later_shape or args.as_documented,
        documented=args.as_documented,
        workers=cpu_count() if args.workers is None else args.workers,
        preload=args.preload,
        overlap_latency=args.overlap_latency,
        corrections=not args.no_correct,
    )


def _bind(host: str, port: int) -> socket.socket:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    last_error: OSError | None = None
    for family, kind, proto, _name, address in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(128)
        except OSError as exc:
            sock.close()
            last_error = exc
            continue
        sock.setblocking(False)
        return sock
    raise last_error or OSError(f"cannot bind {host}:{port}")


def _url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def run(
    host: str = "127.0.0.1",
    port: int = 0,
    options: OfflineOptions | None = None,
    *,
    log_level: str = "warning",
    out: TextIO | None = None,
    request_timeout: float = DEFAULT_REQUEST_TIMEOUT,
) -> None:
    """Serve the offline service on ``host:port`` until interrupted (SIGINT/SIGTERM).

    Prints ``rephrase-ls offline service listening on http://HOST:PORT`` (the bound port) once
    the server accepts connections; with worker processes (``options.workers``), once they have
    started (and, with ``options.preload``, loaded). Binding is not restricted here; :func:`main`
    checks hosts. A request head larger than 16 KiB gets 431, and a request that has not
    arrived whole ``request_timeout`` seconds after its first byte (or after the connection
    opened) gets 408; both close the connection (see :mod:`rephrase_ls.offline.guarded_http`).
    """
    import uvicorn

    from rephrase_ls.offline.app import create_app
    from rephrase_ls.offline.guarded_http import guarded_protocol

    stream = out if out is not None else sys.stdout
    sock = _bind(host, port)
    url = _url(sock)
    app = create_app(options)
    service = app.state.offline
    config = uvicorn.Config(
        app,
        http=guarded_protocol(request_timeout),
        log_level=log_level,
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )

    class _AnnouncingServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if not self.should_exit:
                print(f"{LISTENING_PREFIX}{url}", file=stream, flush=True)

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            await super().shutdown(sockets=sockets)
            # Here, not only in ``finally``: after a SIGTERM, uvicorn re-raises the signal once
            # its loop ends, and the process dies without running ``finally``.
            service.close(wait=True)

    try:
        service.start_workers()
        _AnnouncingServer(config).run(sockets=[sock])
    finally:
        service.close()
        sock.close()


def main(argv: list[str]) -> int:
    """Entry point of ``rephrase-ls offline-service``; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.allow_remote and not is_loopback(args.host):
        parser.error(f"refusing to bind the non-loopback address {args.host!r}; pass "
                     "--allow-remote to serve other machines")
    try:
        options = options_from_args(args)
    except ValueError as exc:
        parser.error(str(exc))
    try:
        run(args.host, args.port, options, log_level=args.log_level,
            request_timeout=args.request_timeout)
    except OSError as exc:
        print(f"rephrase-ls offline-service: cannot listen on {args.host}:{args.port}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0
