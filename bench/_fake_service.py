"""A service for benchmarks whose own processing costs next to nothing.

Everything is the offline service (language lists, usage, validation of keys) except
``POST /v2/write/rephrase``, which waits ``--latency`` ms and answers with a cheap rewrite
(doubled words removed, the first letter capitalised) instead of running the offline engine. On
a 2-core machine the engine's CPU would otherwise compete with the language server being
measured; a real service does its work on its own machines.

``python bench/_fake_service.py [--latency MS]`` prints the offline service's "listening on"
line with its address, like ``rephrase-ls offline-service``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import socket
from typing import Any

import uvicorn

from rephrase_ls.offline.app import OfflineOptions, create_app
from rephrase_ls.offline.server import LISTENING_PREFIX

_DOUBLED = re.compile(r"\b(\w+) \1\b")


def rewrite(text: str) -> str:
    """A deterministic stand-in improvement."""
    text = _DOUBLED.sub(r"\1", text)
    return text[:1].upper() + text[1:]


def make_app(latency_ms: float) -> Any:
    inner = create_app(OfflineOptions())

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] != "/v2/write/rephrase":
            await inner(scope, receive, send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        fields = json.loads(body)
        await asyncio.sleep(latency_ms / 1000)
        target = fields.get("target_lang") or "en"
        answer = json.dumps(
            {
                "improvements": [
                    {
                        "text": rewrite(t),
                        "target_language": target,
                        "detected_source_language": "en",
                    }
                    for t in fields["text"]
                ]
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": answer})

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=100.0, help="ms")
    args = parser.parse_args()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(make_app(args.latency), log_level="warning")
    print(f"{LISTENING_PREFIX}http://127.0.0.1:{port}", flush=True)
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
