"""Fixtures for the service client's unit tests."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from service_helpers import FakeTime, Handler, mock_client

from rephrase_ls.service import ServiceClient


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def make_client(fake_time: FakeTime) -> Callable[..., ServiceClient]:
    """Build clients over ``httpx.MockTransport(handler)`` that sleep on the fake clock."""

    def make(handler: Handler, seed: int = 7, **overrides: Any) -> ServiceClient:
        return mock_client(handler, fake_time, seed, **overrides)

    return make
