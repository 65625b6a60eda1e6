"""Corrections only in the improve wing: the options, the request's mode, and the cache keeping
corrections and improvements apart; answered by the embedded offline service (in process)."""

from __future__ import annotations

import pytest
from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.config.settings import Settings
from rephrase_ls.improve.language_choice import resolve_language
from rephrase_ls.improve.options import ImproveOptions, Mode
from rephrase_ls.improve.round_trip import ImprovementCache, improve_paragraphs
from rephrase_ls.lsp.actions import ActionRequest
from rephrase_ls.offline import EMBEDDED_BASE_URL, embedded_transport
from rephrase_ls.service import SecretKey, ServiceClient, ServiceConfig
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.paragraphs import select_paragraphs

TEXT = "We use teh tool in order to check the text.\n"


def test_correct_excludes_a_style_tone_or_conversion() -> None:
    assert ImproveOptions.parse(correct=True) == ImproveOptions(correct=True)
    for other in ({"writing_style": "simple"}, {"tone": "friendly"}, {"variant": "en-GB"}):
        with pytest.raises(ValueError, match="exclude each other"):
            ImproveOptions.parse(correct=True, **other)
    assert not ImproveOptions(correct=True).is_default


def test_the_mode_of_correct_sends_no_style_not_even_the_workspaces() -> None:
    settings = Settings(writing_style="simple", prefer_fallback=True)
    choice = resolve_language(TEXT, settings, None)
    mode = ImproveOptions(correct=True).mode(settings, choice)
    assert mode.correct and mode.writing_style is None and mode.tone is None
    assert mode.target_lang == ImproveOptions().mode(settings, choice).target_lang
    assert "corrections only" in mode.label()
    assert ImproveOptions().mode(settings, choice).writing_style == "prefer_simple"


def test_action_data_carries_correct() -> None:
    request = ActionRequest("file:///a.md", 3, None, True, ImproveOptions(correct=True))
    data = request.to_data()
    assert data["kind"] == "correct" and request.title == "Correct document"
    back = ActionRequest.from_data(data)
    assert back.options.correct and back.title == "Correct document"
    assert ActionRequest.from_data({**data, "whole": False}).title == "Correct"


async def test_the_cache_keeps_corrections_and_improvements_apart() -> None:
    config = ServiceConfig(server_url=EMBEDDED_BASE_URL, api_key=SecretKey("k"))
    paragraphs = select_paragraphs(TEXT, 0, len(TEXT), prose_blocks(TEXT))
    cache = ImprovementCache()
    async with ServiceClient(config, transport=embedded_transport()) as client:
        backend = FakeBackend(client)

        async def run(mode: Mode) -> str:
            outcome = await improve_paragraphs(backend, TEXT, paragraphs, mode, cache)
            return apply_edits(TEXT, outcome.edits(TEXT))

        # The plain Improve (no style) and Correct ask for the same target: only the endpoint
        # differs, and a correction is never the improvement's answer from the cache.
        improved = await run(Mode("en-US"))
        corrected = await run(Mode("en-US", endpoint="correct"))
        assert corrected == "We use the tool in order to check the text.\n" == improved
        billed = (await client.usage()).character_count
        assert billed == 2 * len(TEXT.strip())  # two requests, one per mode
        assert await run(Mode("en-US", endpoint="correct")) == corrected
        assert (await client.usage()).character_count == billed  # the cache answered
