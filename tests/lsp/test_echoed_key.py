"""A service that sends the key back, in every header and every body field it controls, never
gets it into a log line, a window message or an error: the real server over stdio and the real
``rephrase-ls improve``, against an echoing service on 127.0.0.1.
"""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from .test_trust_boundary import KEY, environment, improve, lsp, user_config

#: What the service answers: JSON whose every field is the key, a body that is not JSON, or an
#: error status whose message and code are the key.
MODES = ["fields", "not-json", "400", "456"]


def _fields(path: str, key: str, texts: int) -> Any:
    """Each endpoint's answer, every field the key (and one well-formed entry beside)."""
    if path.startswith("/v3/languages/products"):
        feature = {"name": key, "required_on_source": key, "required_on_target": key}
        return [{"name": key, "features": [feature], key: key}]
    if path.startswith("/v3/languages/exceptions"):
        return [{"source_lang": key, "target_lang": key, "features": [key], key: key}]
    if path.startswith("/v3/languages"):
        return [
            {"lang": key, "usable_as_source": True, "usable_as_target": True, "features": [key]},
            {"lang": "en-US", "usable_as_source": key, "usable_as_target": True, "features": key},
        ]
    if path.startswith("/v2/languages"):
        return [{"language": key, "name": key, "supports_formality": key, key: key}]
    if path.startswith("/v2/write/rephrase"):
        item = {"text": key, "target_language": key, "detected_source_language": key, key: key}
        return {"improvements": [item] * texts, "message": key}
    return {"character_count": key, "character_limit": key, "message": key, key: key}


class Echo:
    """An HTTP service on 127.0.0.1 that answers every request with the key it was sent."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.requests = 0
        echo = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _handle(self) -> None:
                echo.requests += 1
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                key = (self.headers.get("Authorization") or "").partition(" ")[2] or KEY
                try:
                    texts = len(json.loads(body).get("text", [])) if body else 0
                except (ValueError, AttributeError):
                    texts = 1
                status = 200
                if echo.mode == "fields":
                    payload = json.dumps(_fields(self.path, key, texts)).encode()
                elif echo.mode == "not-json":
                    payload = f"<html><body>{key}</body></html>".encode()
                else:
                    status = int(echo.mode)
                    payload = json.dumps({"message": key, "code": key, "detail": key}).encode()
                self.send_response(status, key)
                for name in ("X-Trace-ID", "Retry-After", "X-Request-ID", "Server", "Warning"):
                    self.send_header(name, key)
                self.send_header("Content-Type", "application/json; charset=" + key)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _handle

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(params=MODES)
def echo(request: pytest.FixtureRequest) -> Iterator[Echo]:
    service = Echo(request.param)
    yield service
    service.stop()


def _config(tmp_path: Path, echo: Echo) -> Path:
    # timeout and no retries to wait out: the test is about what is shown, not about retrying
    user_config(tmp_path / "config", f'serverUrl = "{echo.url}"\ntimeout = 5\n')
    return tmp_path / "config"


@pytest.mark.asyncio(loop_scope="session")
async def test_server_shows_the_key_nowhere(tmp_path: Path, echo: Echo) -> None:
    config = _config(tmp_path, echo)
    errors: list[str] = []
    async with lsp(tmp_path / "ws", environment(config)) as ed:
        text = "this is the the plan for the week.\n"
        uri = ed.open("a.md", text)
        whole = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 10}}
        for command, args in (
            ("rephrase.listStyles", [uri]),
            ("rephrase.usage", [uri]),
            ("rephrase.improve", [uri, whole]),
            ("rephrase.setLanguage", [uri, "xx-YY"]),
            ("rephrase.review", [uri]),
        ):
            try:
                await ed.command(command, *args)
            except JsonRpcException as exc:
                errors.append(f"{command}: {exc}")
        shown = [m.message for m in (*ed.client.messages, *ed.client.log_messages)]
    assert echo.requests > 0
    assert shown, "the service's failures were not reported at all"
    leaked = [m for m in [*shown, *errors] if KEY in m]
    assert not leaked, leaked


def test_cli_shows_the_key_nowhere(tmp_path: Path, echo: Echo) -> None:
    config = _config(tmp_path, echo)
    root = tmp_path / "project"
    root.mkdir()
    (root / "a.md").write_text("this is the the plan.\n", encoding="utf-8")
    result = improve("a.md", cwd=root, env=environment(config))
    assert echo.requests > 0
    assert "Traceback" not in result.stderr
    # Standard output is the diff: the improved text, which the service chose to be the key.
    assert KEY not in result.stderr, result.stderr
