"""The service client against a hostile or broken server over real loopback HTTP: an endless
body, a compressed bomb, JSON that Python will not read. Each is a MalformedResponse with a
clear message, read no further than the client's cap."""

from __future__ import annotations

import asyncio
import gzip
import resource
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from rephrase_ls.service import MalformedResponse, SecretKey, ServiceClient, ServiceConfig
from rephrase_ls.service.transport import MAX_RESPONSE_BYTES

Writer = Callable[[asyncio.StreamWriter], Awaitable[None]]


def _head(extra: str = "") -> bytes:
    return ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + extra).encode()


async def _endless(writer: asyncio.StreamWriter) -> None:
    """A chunked body that never ends (until the client hangs up)."""
    writer.write(_head("Transfer-Encoding: chunked\r\n\r\n"))
    chunk = b"[" * 65536
    piece = b"%x\r\n%s\r\n" % (len(chunk), chunk)
    while True:
        writer.write(piece)
        await writer.drain()


_BOMB = gzip.compress(b" " * (MAX_RESPONSE_BYTES + 4 * 1024 * 1024), compresslevel=9)


async def _bomb(writer: asyncio.StreamWriter) -> None:
    """A small gzip body that inflates past the cap."""
    writer.write(_head(f"Content-Encoding: gzip\r\nContent-Length: {len(_BOMB)}\r\n\r\n"))
    writer.write(_BOMB)
    await writer.drain()


def _fixed(body: bytes) -> Writer:
    async def write(writer: asyncio.StreamWriter) -> None:
        writer.write(_head(f"Content-Length: {len(body)}\r\n\r\n") + body)
        await writer.drain()

    return write


@pytest.fixture
async def serve() -> AsyncIterator[Callable[[Writer], Awaitable[str]]]:
    servers: list[asyncio.Server] = []

    async def start(answer: Writer) -> str:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await reader.readuntil(b"\r\n\r\n")
                await answer(writer)
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        servers.append(server)
        port = server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    yield start
    for server in servers:
        server.close()


def _client(url: str) -> ServiceClient:
    config = ServiceConfig(server_url=url, free_server_url=url, api_key=SecretKey("k"),
                           max_retries=0, timeout=60, deadline=60)
    return ServiceClient(config, backend="offline")


@pytest.mark.parametrize("answer", [_endless, _bomb], ids=["endless body", "gzip bomb"])
async def test_a_body_over_the_cap_is_refused_unread(
    serve: Callable[[Writer], Awaitable[str]], answer: Writer,
) -> None:
    url = await serve(answer)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    async with _client(url) as client:
        with pytest.raises(MalformedResponse) as caught:
            await client.usage()
    assert "larger than 16 MiB" in caught.value.message
    assert "server URL" in caught.value.message
    # Read no further than the cap: the process grew by less than a few times it (the peak
    # resident size, in KiB on Linux), not by the endless or inflated body.
    grown_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    assert grown_kib < 4 * MAX_RESPONSE_BYTES // 1024


@pytest.mark.parametrize("body", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"character_count": ' + b"9" * 5000 + b', "character_limit": 1}',
    b"<html>upstream error</html>",
], ids=["nested 100,000 deep", "5,000-digit number", "html"])
async def test_json_python_will_not_read_is_a_malformed_response(
    serve: Callable[[Writer], Awaitable[str]], body: bytes,
) -> None:
    url = await serve(_fixed(body))
    async with _client(url) as client:
        with pytest.raises(MalformedResponse) as caught:
            await client.usage()
    assert "not JSON" in caught.value.message


async def test_an_answer_under_the_cap_is_read(
    serve: Callable[[Writer], Awaitable[str]],
) -> None:
    url = await serve(_fixed(b'{"character_count": 5, "character_limit": 100}'))
    async with _client(url) as client:
        usage = await client.usage()
    assert (usage.character_count, usage.character_limit) == (5, 100)
