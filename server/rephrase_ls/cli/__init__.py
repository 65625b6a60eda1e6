"""The ``rephrase-ls`` command line: the language server, the file improver, the offline service."""

from __future__ import annotations

import argparse
import sys

from rephrase_ls import __version__


def _host_port(value: str) -> str:
    """``HOST:PORT`` with a port from 1 to 65535 (argparse reports anything else)."""
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(
            f"expected HOST:PORT with a port from 1 to 65535, got {value!r}"
        )
    return f"{host or '127.0.0.1'}:{port}"


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rephrase-ls",
        description="Improve prose through a rephrase service, in any LSP editor or on files.",
    )
    parser.add_argument("--version", action="version", version=f"rephrase-ls {__version__}")
    sub = parser.add_subparsers(dest="command")

    serve = sub.add_parser("serve", help="run the language server (the default)")
    serve.add_argument(
        "--tcp",
        metavar="HOST:PORT",
        type=_host_port,
        help="listen on TCP instead of stdio (debugging)",
    )
    serve.add_argument("--log-level", default="INFO", help="log level for the server's own log")
    serve.add_argument(
        "--offline",
        action="store_true",
        help="read no API key and use only the embedded offline service (an untrusted workspace)",
    )
    serve.add_argument(
        "--stdio",
        action="store_true",
        help="talk over stdin/stdout (the default; accepted because clients pass it)",
    )

    sub.add_parser(
        "offline-service",
        help="run the offline service on loopback (see 'rephrase-ls offline-service --help')",
        add_help=False,
    )
    sub.add_parser(
        "improve",
        help="improve files (see 'rephrase-ls improve --help')",
        add_help=False,
    )
    return parser


TERMINAL_HINT = (
    "rephrase-ls speaks the Language Server Protocol on standard input, for an editor to start; "
    "to improve files, run 'rephrase-ls improve FILE...' (Ctrl+D or Ctrl+C to leave)"
)


def _hint_on_a_terminal() -> None:
    """Say, in one line on standard error, what the server waits for when a person started it
    in a terminal (an editor connects through pipes)."""
    try:
        if sys.stdin is not None and sys.stdin.isatty():
            print(TERMINAL_HINT, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # a closed or odd standard input: nothing to say
        pass


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list and args_list[0] == "offline-service":
        from rephrase_ls.offline.server import main as offline_main

        return offline_main(args_list[1:])
    if args_list and args_list[0] == "improve":
        from rephrase_ls.cli.improve import main as improve_main

        return improve_main(args_list[1:])

    if not args_list:
        # The common case (an editor starting the server): no argument parsing at start-up.
        from rephrase_ls.lsp.server import run as serve

        _hint_on_a_terminal()
        return serve()
    parser = _build_parser()
    if args_list and args_list[0] not in ("serve", "-h", "--help", "--version"):
        # Clients start servers as "rephrase-ls --stdio" and the like: that means "serve".
        args_list = ["serve", *args_list]
    args = parser.parse_args(args_list)
    tcp = getattr(args, "tcp", None)
    log_level = getattr(args, "log_level", "INFO")
    from rephrase_ls.lsp.server import run

    if tcp is None:
        _hint_on_a_terminal()
    return run(tcp=tcp, log_level=log_level, offline=getattr(args, "offline", False))
