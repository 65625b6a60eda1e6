"""A backend for the pipeline's unit tests: any fake client, no capability lists."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class NoCapabilities:
    """A capability store that has never heard from the service."""

    def peek(self, _product: str) -> None:
        return None


@dataclass
class FakeBackend:
    """What the pipeline reads of a :class:`rephrase_ls.improve.backend.Backend`, around
    ``client``."""

    client: Any
    capabilities: NoCapabilities = field(default_factory=NoCapabilities)
    description: str = "fake"
    cache_key: str = "fake"
    embedded: bool = True
