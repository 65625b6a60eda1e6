"""Helpers for the service client's tests: a fake clock and clients over MockTransport."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from rephrase_ls.service import SecretKey, ServiceClient, ServiceConfig

KEY = "s3cr3t-k3y-0123456789"
BASE = "https://rephrase.example"


@dataclass
class FakeTime:
    """A monotonic clock that only moves when the client sleeps."""

    now: float = 1000.0
    sleeps: list[float] = field(default_factory=list)

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


def config(**overrides: Any) -> ServiceConfig:
    values: dict[str, Any] = {
        "server_url": BASE,
        "free_server_url": "https://free.rephrase.example",
        "api_key": SecretKey(KEY),
    }
    values.update(overrides)
    return ServiceConfig(**values)


Handler = Callable[[httpx.Request], Any]


def mock_client(
    handler: Handler, fake_time: FakeTime, seed: int = 7, **overrides: Any
) -> ServiceClient:
    """A client over ``httpx.MockTransport(handler)`` that sleeps on ``fake_time``."""
    return ServiceClient(
        config(**overrides),
        transport=httpx.MockTransport(handler),
        sleep=fake_time.sleep,
        rng=random.Random(seed),
        clock=fake_time.clock,
    )


def echo_improvements(
    request: httpx.Request, transform: Callable[[str], str] = str.upper
) -> httpx.Response:
    """A rephrase answer that improves each text with ``transform``."""
    body = json.loads(request.content)
    return httpx.Response(
        200,
        json={
            "improvements": [
                {
                    "text": transform(t),
                    "target_language": body.get("target_lang", "en-US"),
                    "detected_source_language": "en",
                }
                for t in body["text"]
            ]
        },
        headers={"X-Trace-ID": "trace-ok"},
    )
