"""``ServiceClient.rephrase(on_result=...)``: each text handed over once all its pieces arrived."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from service_helpers import echo_improvements

from rephrase_ls.service import ServiceClient
from rephrase_ls.service.errors import ServerError
from rephrase_ls.service.models import Improvement

MakeClient = Callable[..., ServiceClient]


async def test_every_text_is_reported_once_when_complete_even_with_pieces_out_of_order(
    make_client: MakeClient,
) -> None:
    rng = random.Random(11)

    async def handler(request: httpx.Request) -> httpx.Response:
        # Answers come back in any order: later requests often finish first.
        await asyncio.sleep(rng.random() * 0.01)
        return echo_improvements(request, str.swapcase)

    client = make_client(handler, max_concurrency=4)
    texts = [f"Text {i}: " + "Ünïcödé sentence. " * rng.randint(1, 1500) for i in range(40)]
    assert any(len(t.encode()) > 3 * 10 * 1024 for t in texts)  # some split in several pieces
    reported: dict[int, Improvement] = {}
    events: list[str] = []

    def on_result(indexes: list[int], improvements: list[Improvement]) -> None:
        assert len(indexes) == len(improvements) > 0
        for index, improvement in zip(indexes, improvements, strict=True):
            assert index not in reported, "a text was reported twice"
            reported[index] = improvement
        events.append("result")

    result = await client.rephrase(
        texts,
        target_lang="en-US",
        on_result=on_result,
        on_progress=lambda done, total: events.append("progress"),
    )
    assert sorted(reported) == list(range(len(texts)))
    # What was reported is exactly what the call returns, split texts joined in order.
    assert [reported[i] for i in range(len(texts))] == result
    assert [r.text for r in result] == [t.swapcase() for t in texts]
    # Some requests complete no text (a middle piece): progress still counts them.
    assert events.count("progress") > events.count("result")


async def test_a_split_text_is_reported_only_with_its_last_piece(make_client: MakeClient) -> None:
    gate = asyncio.Event()
    seen: list[list[int]] = []

    async def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        if body["text"][0].startswith("first"):
            await gate.wait()  # the first piece of the long text answers last
        return echo_improvements(request)

    client = make_client(handler, max_concurrency=4)
    long_text = "first " + "word " * 5000  # about 25 KB: three requests
    texts = [long_text, "short one"]

    def on_result(indexes: list[int], improvements: list[Improvement]) -> None:
        seen.append(list(indexes))

    task = asyncio.create_task(
        client.rephrase(texts, target_lang="en-US", on_result=on_result, limit=10 * 1024)
    )
    for _ in range(50):
        await asyncio.sleep(0)
    assert [0] not in seen and all(0 not in batch for batch in seen)
    gate.set()
    result = await task
    assert any(0 in batch for batch in seen)
    assert result[0].text == long_text.upper()


async def test_an_error_in_the_callback_fails_the_call(make_client: MakeClient) -> None:
    client = make_client(lambda request: echo_improvements(request))

    def on_result(indexes: list[int], improvements: list[Improvement]) -> None:
        raise RuntimeError("consumer broke")

    with pytest.raises(RuntimeError, match="consumer broke"):
        await client.rephrase(["a", "b"], target_lang="en-US", on_result=on_result)


async def test_a_failed_request_fails_the_call_after_earlier_results_were_reported(
    make_client: MakeClient,
) -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        if calls > 1:
            return httpx.Response(500, json={"message": "down"})
        return echo_improvements(request)

    client = make_client(handler, max_concurrency=1, max_retries=0)
    got: list[int] = []
    texts = ["x" * 6000, "y" * 6000]  # two requests
    with pytest.raises(ServerError):
        await client.rephrase(texts, target_lang="en-US", on_result=lambda i, _imps: got.extend(i))
    assert got == [0]


async def test_without_a_callback_nothing_changes(make_client: MakeClient) -> None:
    kwargs: dict[str, Any] = {"target_lang": "en-US"}
    client = make_client(lambda request: echo_improvements(request))
    result = await client.rephrase(["one", "two"], **kwargs)
    assert [r.text for r in result] == ["ONE", "TWO"]
