"""improve_paragraphs rebuilds paragraphs as the client reports their answers, while later
requests are in flight."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.improve.options import Mode
from rephrase_ls.improve.round_trip import ImprovementCache, improve_paragraphs
from rephrase_ls.service.errors import ServerError
from rephrase_ls.service.models import Improvement
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs

TEXT = "".join(
    f"> Paragraph {n} has the the words\n> wrapped over lines ({n}), ok.\n\n" for n in range(12)
)


def fix(text: str) -> str:
    return text.replace("the the", "the").replace("ok.", "OK.")


@dataclass
class StreamingClient:
    """Answers in halves, reporting each half through ``on_result`` like ServiceClient."""

    fail_second_half: bool = False
    between: Callable[[list[int]], Any] | None = None
    sent: list[list[str]] = field(default_factory=list)
    cancelled: bool = False

    async def rephrase(
        self, texts: Sequence[str], *, on_result: Any = None, **_kw: Any
    ) -> list[Improvement]:
        self.sent.append(list(texts))
        answers = [Improvement(fix(t), "en-US", "en") for t in texts]
        half = len(texts) // 2
        try:
            await asyncio.sleep(0)
            if on_result is not None:
                on_result(list(range(half)), answers[:half])
            if self.between is not None:
                await self.between(list(range(half)))
            if self.fail_second_half:
                raise ServerError("The service failed; try again later.", status=500)
            await asyncio.sleep(0)
            if on_result is not None:
                on_result(list(range(half, len(texts))), answers[half:])
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        return answers


def paragraphs_of(text: str) -> list[Paragraph]:
    return select_paragraphs(text, 0, len(text), prose_blocks(text, "markdown"))


async def test_paragraphs_are_rebuilt_while_the_rest_is_still_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rebuilt: list[str] = []
    original = Paragraph.rebuild_with_edits

    def spy(self: Paragraph, improved: str) -> Any:
        rebuilt.append(self.prose)
        return original(self, improved)

    monkeypatch.setattr(Paragraph, "rebuild_with_edits", spy)
    paragraphs = paragraphs_of(TEXT)
    seen_in_flight: list[int] = []

    async def between(done: list[int]) -> None:
        # The first half is rebuilt when the client reports it; wait up to 5 s for it (a
        # loaded machine is slow).
        for _ in range(5000):
            if len(rebuilt) >= len(paragraphs) // 2:
                break
            await asyncio.sleep(0.001)
        seen_in_flight.append(len(rebuilt))

    client = StreamingClient(between=between)
    outcome = await improve_paragraphs(
        FakeBackend(client), TEXT, paragraphs, Mode("en-US"), ImprovementCache()
    )
    assert seen_in_flight == [len(paragraphs) // 2]  # the first half, before the second came
    assert sorted(rebuilt) == sorted(p.prose for p in paragraphs)
    expected = fix(TEXT)
    assert apply_edits(TEXT, outcome.edits(TEXT)) == expected
    assert [r[0].start for r in outcome.replacements] == sorted(p.start for p in paragraphs)


async def test_a_failure_after_some_answers_propagates_and_keeps_them_cached() -> None:
    paragraphs = paragraphs_of(TEXT)
    assert len(paragraphs) == 12 and all(len(p.lines) == 2 for p in paragraphs)
    cache = ImprovementCache()
    failing = StreamingClient(fail_second_half=True)
    with pytest.raises(ServerError):
        await improve_paragraphs(FakeBackend(failing), TEXT, paragraphs, Mode("en-US"), cache)
    # The answers already paid for are not asked (and billed) again.
    retry = StreamingClient()
    outcome = await improve_paragraphs(FakeBackend(retry), TEXT, paragraphs, Mode("en-US"), cache)
    assert retry.sent == [[p.prose for p in paragraphs[len(paragraphs) // 2 :]]]
    assert apply_edits(TEXT, outcome.edits(TEXT)) == fix(TEXT)


async def test_cancelling_stops_the_requests_and_gives_nothing() -> None:
    stall = asyncio.Event()

    async def between(_done: list[int]) -> None:
        await stall.wait()

    client = StreamingClient(between=between)
    task = asyncio.create_task(
        improve_paragraphs(
            FakeBackend(client), TEXT, paragraphs_of(TEXT), Mode("en-US"), ImprovementCache()
        )
    )
    for _ in range(20):
        await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert client.cancelled


async def test_a_client_that_reports_nothing_early_gives_the_same_edits() -> None:
    paragraphs = paragraphs_of(TEXT)

    @dataclass
    class Quiet(StreamingClient):
        async def rephrase(self, texts: Sequence[str], **kw: Any) -> list[Improvement]:
            kw.pop("on_result", None)
            return await super().rephrase(texts, **kw)

    streamed = await improve_paragraphs(
        FakeBackend(StreamingClient()), TEXT, paragraphs, Mode("en-US"), ImprovementCache()
    )
    quiet = await improve_paragraphs(
        FakeBackend(Quiet()), TEXT, paragraphs, Mode("en-US"), ImprovementCache()
    )
    assert streamed.edits(TEXT) == quiet.edits(TEXT)
    assert streamed.sent_texts == quiet.sent_texts == len(paragraphs)


async def test_edits_for_a_changed_document_are_recomputed_not_reused() -> None:
    paragraphs = paragraphs_of(TEXT)
    outcome = await improve_paragraphs(
        FakeBackend(StreamingClient()), TEXT, paragraphs, Mode("en-US"), ImprovementCache()
    )
    # Same length, other letters inside the first paragraph: the stored edits no longer fit.
    changed = TEXT.replace("has", "had", 1)
    assert apply_edits(changed, outcome.edits(changed)) == fix(TEXT)
