"""The shape of a service's language lists, remembered per address between runs: a client that
starts with it sends no request the service refuses, and a shape that changed is probed anew."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest

from rephrase_ls.config.user_state import LIST_SHAPES_FILE, ListShapes
from rephrase_ls.offline import embedded_transport
from rephrase_ls.offline.knobs import OfflineOptions
from rephrase_ls.service import ServiceClient, ServiceConfig
from rephrase_ls.service.capabilities import CapabilityStore
from rephrase_ls.service.client import PRODUCTS_PATH, RESOURCES_PATH, ListShape
from rephrase_ls.service.config import SecretKey

URL = "https://rephrase.test"
KEY = "a-secret-key-4711"


class Counting(httpx.AsyncBaseTransport):
    """An offline service (its options can change between runs) that records every answer."""

    def __init__(self, options: OfflineOptions) -> None:
        self.inner = embedded_transport(options)
        self.answers: list[tuple[str, int]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        self.answers.append((request.url.path, response.status_code))
        return response

    def failed(self) -> list[tuple[str, int]]:
        return [answer for answer in self.answers if answer[1] >= 400]


class DictMemory:
    def __init__(self) -> None:
        self.shapes: dict[str, dict[str, Any]] = {}

    def recall(self, address: str) -> Mapping[str, Any] | None:
        return self.shapes.get(address)

    def remember(self, address: str, shape: Mapping[str, Any]) -> None:
        self.shapes[address] = dict(shape)


async def _start(service: Counting, memory: Any, scheme: str = "DeepL-Auth-Key") -> CapabilityStore:
    """One run: a new client (as a new process makes) loading the write lists."""
    config = ServiceConfig(server_url=URL, api_key=SecretKey(KEY), auth_scheme=scheme)
    client = ServiceClient(config, transport=service, shape_memory=memory)
    store = CapabilityStore(client)
    caps = await store.get("write")
    assert caps.writing_styles("de") and caps.product_object() is not None
    await client.aclose()
    return store


LATER = ListShape("resource", RESOURCES_PATH, False)


async def test_a_later_shape_is_probed_once_then_asked_for_directly() -> None:
    memory = DictMemory()
    service = Counting(OfflineOptions.as_documented())
    await _start(service, memory)
    # The old parameter, the old products path, the removed exceptions path.
    assert sorted(service.failed()) == [
        ("/v3/languages", 400), ("/v3/languages/exceptions", 404), (PRODUCTS_PATH, 404),
    ]  # fmt: skip
    assert ListShape.from_json(memory.shapes[URL]) == LATER
    service.answers.clear()
    await _start(service, memory)
    assert service.failed() == []
    assert sorted(path for path, _ in service.answers) == ["/v3/languages", RESOURCES_PATH]


async def test_a_shape_that_changed_back_is_probed_and_remembered_anew() -> None:
    memory = DictMemory()
    memory.shapes[URL] = LATER.to_json()
    service = Counting(OfflineOptions())
    store = await _start(service, memory, scheme="Service-Auth-Key")
    assert sorted(service.failed()) == [("/v3/languages", 400), (RESOURCES_PATH, 404)]
    assert ListShape.from_json(memory.shapes[URL]) == ListShape()
    service.answers.clear()
    # The next run asks the interface's way, exceptions included, and nothing fails.
    store = await _start(service, memory, scheme="Service-Auth-Key")
    assert service.failed() == []
    assert "/v3/languages/exceptions" in {path for path, _ in service.answers}
    assert store.peek("write") is not None


async def test_the_memory_lives_in_the_state_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    service = Counting(OfflineOptions.as_documented())
    await _start(service, ListShapes())
    saved = (tmp_path / "rephrase-ls" / LIST_SHAPES_FILE).read_text("utf-8")
    assert URL in saved
    assert KEY not in saved and "DeepL" not in saved  # the address and the shape only
    service.answers.clear()
    await _start(service, ListShapes())
    assert service.failed() == []
    # A damaged file recalls nothing: the next run probes, and writes it whole again.
    (tmp_path / "rephrase-ls" / LIST_SHAPES_FILE).write_text("{not json", "utf-8")
    service.answers.clear()
    await _start(service, ListShapes())
    assert len(service.failed()) == 3
    assert ListShape.from_json(ListShapes().recall(URL)) == LATER


def test_a_memory_that_is_not_a_shape_is_ignored() -> None:
    assert ListShape.from_json({"parameter": "resource"}) is None
    assert (
        ListShape.from_json({"parameter": "x", "products_path": PRODUCTS_PATH, "exceptions": True})
        is None
    )
    assert ListShape.from_json(None) is None
    assert ListShape.from_json(LATER.to_json()) == LATER
