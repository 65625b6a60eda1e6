"""A loopback service that really corrects Japanese, Korean and Chinese, for the CJK tests.

It stands for the service as its documentation describes it today (``service-facts.md``, "What
the service added later"): the language list in the later shape names ``ja``, ``ko`` and ``zh``
as targets without styles or tones, and ``/v2/write/rephrase`` corrects text in those languages
(here by a fixed substitution table). Everything else (English and the other languages, the
other lists, usage) is forwarded to a real offline service. Like the real service, it refuses
(400) a request whose texts are in another language than ``target_lang``; a text's language is
told from its script on its own terms (kana → ja, Hangul → ko, Han → zh, which a Japanese
target also accepts), not by the code under test. Every request's JSON body is recorded.
"""

from __future__ import annotations

import http.client
import http.server
import json
import re
import threading
from typing import Any
from urllib.parse import urlsplit

#: What the double corrects, per language: (wrong, right).
FIXES: dict[str, tuple[tuple[str, str], ...]] = {
    "ja": (
        ("友達に合います", "友達に会います"),
        ("全プログラマ", "全てのプログラマ"),
        ("忘れわ", "忘れは"),
    ),
    "ko": (("됬", "됐"), ("않되", "안 되")),
    "zh": (("我门", "我们"), ("忽落", "忽略"), ("在次", "再次")),
}
ROWS = [
    {"lang": code, "name": name, "usable_as_source": True, "usable_as_target": True,
     "features": {"auto_detection": {"status": "stable"}}, "status": "stable"}
    for code, name in (("ja", "Japanese"), ("ko", "Korean"), ("zh", "Chinese (simplified)"))
]  # fmt: skip

_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")


def script_of(text: str) -> str | None:
    """``ja``, ``ko``, ``zh`` when the text is mostly in their scripts, else None."""
    kana, hangul, han = (len(p.findall(text)) for p in (_KANA, _HANGUL, _HAN))
    if kana + hangul + han == 0 or (kana + hangul + han) * 3 <= len(_LATIN.findall(text)):
        return None
    if hangul > kana + han:
        return "ko"
    return "ja" if kana else "zh"


class CjkService:
    """The double on 127.0.0.1, forwarding what it does not answer to ``upstream``."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.bodies: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, headers, payload = service._answer(self, body)
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = _handle

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()

    def requests(self) -> list[dict[str, Any]]:
        """The JSON bodies of the rephrase requests received so far."""
        with self._lock:
            return list(self.bodies)

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def _answer(
        self, handler: http.server.BaseHTTPRequestHandler, body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        path = urlsplit(handler.path)
        if handler.command == "POST" and path.path == "/v2/write/rephrase":
            if not handler.headers.get("Content-Type", "").startswith("application/json"):
                return self._forward(handler, body)
            fields = json.loads(body)
            with self._lock:
                self.bodies.append(fields)
            texts: list[str] = fields["text"]
            target = fields.get("target_lang")
            base = target.split("-")[0].lower() if target else None
            scripts = [script_of(text) for text in texts]
            if base is None and not all(scripts):
                return self._forward(handler, body)  # no target, not all CJK: the engine's
            if base is not None and base not in FIXES:
                if not any(scripts):
                    return self._forward(handler, body)
                script = next(s for s in scripts if s)
                message = (
                    f"The texts are in {script} but target_lang is {target}; translating and "
                    "improving at once is not supported."
                )
                return _json(400, {"message": message})
            improvements = []
            for text, script in zip(texts, scripts, strict=True):
                language = base or script
                accepted = script == language or (script == "zh" and language == "ja")
                if not accepted:
                    message = (
                        f"The text is in {script or 'a language of Latin script'} but "
                        f"target_lang is {target}; translating and improving at once is not "
                        "supported."
                    )
                    return _json(400, {"message": message})
                for wrong, right in FIXES[language or ""]:
                    text = text.replace(wrong, right)
                improvements.append(
                    {"text": text, "target_language": target or language,
                     "detected_source_language": language}
                )  # fmt: skip
            return _json(200, {"improvements": improvements})
        status, headers, payload = self._forward(handler, body)
        if (
            handler.command == "GET"
            and path.path == "/v3/languages"
            and "write" in path.query
            and status == 200
        ):
            rows = json.loads(payload)
            return _json(200, [*rows, *ROWS])
        return status, headers, payload

    def _forward(
        self, handler: http.server.BaseHTTPRequestHandler, body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        address = urlsplit(self.upstream)
        conn = http.client.HTTPConnection(address.hostname or "", address.port, timeout=30)
        skip = {"host", "content-length", "connection"}
        headers = {k: v for k, v in handler.headers.items() if k.lower() not in skip}
        conn.request(handler.command, handler.path, body=body or None, headers=headers)
        reply = conn.getresponse()
        payload = reply.read()
        kept = [
            (k, v)
            for k, v in reply.getheaders()
            if k.lower() not in ("content-length", "transfer-encoding", "connection")
        ]
        conn.close()
        return reply.status, kept, payload


def _json(status: int, data: object) -> tuple[int, list[tuple[str, str]], bytes]:
    return status, [("Content-Type", "application/json")], json.dumps(data).encode()
