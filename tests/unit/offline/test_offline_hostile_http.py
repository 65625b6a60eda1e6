"""The loopback offline service against hostile or unusual requests, over real HTTP to a
``rephrase-ls offline-service`` process: parameters wherever the real service reads them,
bodies that break the JSON parser, refused callers, oversized heads and slow requests."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from urllib.parse import urlsplit

import httpx
import pytest
from test_offline_server import offline_service

from rephrase_ls.offline.engine import improve

KEY = "k-1"
AUTH = {"Authorization": f"Service-Auth-Key {KEY}"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
EN = "This is the test and it is fine."
TIMEOUT = 0.6  # --request-timeout of the service under test, in seconds


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with offline_service("--key", KEY, "--workers", "0",
                         "--request-timeout", str(TIMEOUT)) as (url, _proc):
        yield url


def _languages(response: httpx.Response) -> set[str]:
    assert response.status_code == 200, response.text
    return {row["language"] for row in response.json()}


def test_v2_languages_reads_type_from_query_form_or_json_with_get_or_post(base_url: str) -> None:
    with httpx.Client(base_url=base_url, headers=AUTH) as client:
        source = _languages(client.get("/v2/languages"))
        target = _languages(client.get("/v2/languages", params={"type": "target"}))
        assert source != target and "EN-US" in target and "EN-US" not in source
        # What the official Python client of the real service sends: GET with a form body.
        assert _languages(client.request("GET", "/v2/languages", content="type=target",
                                         headers=FORM)) == target
        assert _languages(client.request("GET", "/v2/languages", json={"type": "target"})) \
            == target
        assert _languages(client.post("/v2/languages", data={"type": "target"})) == target
        assert _languages(client.post("/v2/languages")) == source
        twice = client.request("GET", "/v2/languages?type=source", content="type=target",
                               headers=FORM)
        assert twice.status_code == 400 and "only once" in twice.json()["message"]
        bad = client.post("/v2/languages", json={"type": ["target"]})
        assert bad.status_code == 400 and "'type'" in bad.json()["message"]


def test_usage_and_rephrase_take_get_or_post_and_parameters_anywhere(base_url: str) -> None:
    with httpx.Client(base_url=base_url, headers=AUTH) as client:
        for method in ("GET", "POST"):
            usage = client.request(method, "/v2/usage")
            assert usage.status_code == 200 and "character_count" in usage.json()
        expected = improve(EN, "en-us")
        answers = [
            client.get("/v2/write/rephrase", params={"text": EN, "target_lang": "en-US"}),
            client.post("/v2/write/rephrase?target_lang=en-US", json={"text": [EN]}),
            client.post("/v2/write/rephrase?text=" + EN.replace(" ", "+"),
                        data={"target_lang": "en-US"}),
            client.request("GET", "/v2/write/rephrase", json={"text": [EN],
                                                              "target_lang": "en-US"}),
        ]
        for answer in answers:
            assert answer.status_code == 200, answer.text
            assert answer.json()["improvements"][0]["text"] == expected
        both = client.post("/v2/write/rephrase?text=Hi", json={"text": [EN]})
        assert both.status_code == 400 and "one place" in both.json()["message"]
        no_type = client.request("GET", "/v2/write/rephrase", content=b"text=x")
        assert no_type.status_code == 415


@pytest.mark.parametrize("body, words", [
    ('{"text": ' + "[" * 3000 + "]" * 3000 + "}", "deeper than 32"),
    ('{"text": ["a"], "target_lang": "en-US", "n": ' + "9" * 5000 + "}", "digits"),
    ('{"text": ' + "[" * 100_000, "deeper than 32"),
])
def test_hostile_json_gets_400_with_a_message(base_url: str, body: str, words: str) -> None:
    with httpx.Client(base_url=base_url, headers=AUTH) as client:
        for path in ("/v2/write/rephrase", "/v2/languages"):
            response = client.post(path, content=body.encode(),
                                   headers={"Content-Type": "application/json"})
            expected = 413 if len(body) > 10 * 1024 else 400
            assert response.status_code == expected, response.text
            if expected == 400:
                assert words in response.json()["message"]
        # The service is still fine.
        assert client.get("/v2/usage").status_code == 200


@pytest.mark.parametrize("overlap", [False, True])
def test_callers_are_refused_before_the_body_is_read(overlap: bool) -> None:
    extra = ["--latency", "50", "--overlap-latency"] if overlap else []
    with offline_service("--key", KEY, "--workers", "0", *extra) as (url, _proc), \
            httpx.Client(base_url=url) as client:
        bodies: list[tuple[bytes, dict[str, str]]] = [
            (b'{"text": ' + b"[" * 3000, {"Content-Type": "application/json"}),
            (b"x" * 50_000, {"Content-Type": "application/json"}),
            (b"<xml/>", {"Content-Type": "application/xml"}),
        ]
        for body, headers in bodies:
            for auth in ({"Authorization": "Service-Auth-Key wrong"}, {}):
                for path in ("/v2/write/rephrase", "/v2/languages", "/v2/usage"):
                    response = client.post(path, content=body, headers={**headers, **auth})
                    assert response.status_code == 403, (path, response.text)
                    assert "Authorization" in response.json()["message"]


def _raw(base_url: str) -> socket.socket:
    parts = urlsplit(base_url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=10)
    return sock


def _read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    chunks = []
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


@pytest.mark.parametrize("head", [
    b"GET /v2/usage HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n",
    b"GET /v2/usage?" + b"q" * 20_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /v2/usage HTTP/1.1\r\nHost: x\r\n" + b"X-A: b\r\n" * 3000 + b"\r\n",
    # A header that does not end, sent in pieces: refused once the head passes the limit.
    b"GET /v2/usage HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 30_000,
    # All of it at once, with a body after it.
    b"POST /v2/usage HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nX-Big: " + b"a" * 17_000
    + b"\r\n\r\nhello",
])
def test_a_head_over_16_kib_gets_431_and_the_connection_closes(
    base_url: str, head: bytes,
) -> None:
    with _raw(base_url) as sock:
        piece = 4096 if b"POST" not in head else len(head)
        for start in range(0, len(head), piece):
            sock.sendall(head[start:start + piece])
        answer = _read_all(sock)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"16384 bytes" in answer


def test_a_head_under_the_limit_is_served(base_url: str) -> None:
    with httpx.Client(base_url=base_url, headers={**AUTH, "X-Pad": "a" * 12_000}) as client:
        assert client.get("/v2/usage").status_code == 200


@pytest.mark.parametrize("sent", [
    b"",  # a connection that never sends a request
    b"GET /v2/usage HTTP/1.1\r\nHost: x\r\n",  # a head that never ends
    # A body that never arrives whole.
    b"POST /v2/write/rephrase HTTP/1.1\r\nHost: x\r\nAuthorization: Service-Auth-Key k-1\r\n"
    b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\": [",
])
def test_an_incomplete_request_is_closed_after_the_request_timeout(
    base_url: str, sent: bytes,
) -> None:
    with _raw(base_url) as sock:
        start = time.monotonic()
        sock.sendall(sent)
        # Trickle a byte now and then, as a slowloris client does (the head case only: more
        # body bytes would complete the body).
        deadline = start + 30
        closed = b""
        sock.settimeout(TIMEOUT / 4)
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                if sent.endswith(b"\r\n"):
                    try:
                        sock.sendall(b"X-Slow: 1\r\n")
                    except (BrokenPipeError, ConnectionResetError):
                        break
                continue
            except ConnectionResetError:
                break
            if not chunk:
                break
            closed += chunk
        elapsed = time.monotonic() - start
    assert elapsed < 30, "the connection was never closed"
    assert elapsed >= TIMEOUT * 0.9
    if b"Content-Length" not in sent:
        assert closed.startswith(b"HTTP/1.1 408 "), closed[:200]


def test_the_request_timeout_does_not_limit_the_answer() -> None:
    """The time the service takes to answer (here its latency, 4 request timeouts) is not cut."""
    with offline_service("--key", KEY, "--workers", "0", "--request-timeout", "0.2",
                         "--latency", "800") as (url, _proc), \
            httpx.Client(base_url=url, headers=AUTH, timeout=30) as client:
        first = client.post("/v2/write/rephrase", json={"text": [EN], "target_lang": "en-US"})
        assert first.status_code == 200
        # And the kept-alive connection serves the next request.
        second = client.post("/v2/write/rephrase", json={"text": [EN], "target_lang": "en-US"})
        assert second.status_code == 200
        assert json.loads(second.text)["improvements"][0]["text"] == improve(EN, "en-us")


def _stderr_after_stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=20)
    return err


@pytest.mark.parametrize("key", [KEY, "wrong-key"])
def test_a_body_that_never_completes_gets_one_answer_and_no_traceback(key: str) -> None:
    """With the right key the app waits for the body: after the request timeout the client gets
    one 408 and the connection closes. With a wrong key the 403 comes at once, before the body,
    and nothing unsolicited follows it. Neither leaves a traceback in the service's log."""
    with offline_service("--key", KEY, "--workers", "0",
                         "--request-timeout", str(TIMEOUT)) as (url, proc):
        with _raw(url) as sock:
            sock.sendall(
                b"POST /v2/write/rephrase HTTP/1.1\r\nHost: x\r\n"
                + f"Authorization: Service-Auth-Key {key}\r\n".encode()
                + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\": ["
            )
            sock.settimeout(30)
            answer = _read_all(sock)
        log = _stderr_after_stop(proc)
    expected = b"HTTP/1.1 408 " if key == KEY else b"HTTP/1.1 403 "
    assert answer.startswith(expected), answer[:300]
    assert answer.count(b"HTTP/1.1 ") == 1, answer
    assert "Traceback" not in log and "Exception" not in log, log
