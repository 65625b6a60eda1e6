"""The one pipeline (``improve_text``) and its typed options (``ImproveOptions``)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.config.settings import Settings, merge
from rephrase_ls.improve.language_choice import LanguageChoice
from rephrase_ls.improve.options import ImproveOptions, Mode
from rephrase_ls.improve.pipeline import Improved, NotImproved, improve_text
from rephrase_ls.improve.request import ImproveRequest
from rephrase_ls.improve.round_trip import ImprovementCache
from rephrase_ls.service.errors import BadRequest
from rephrase_ls.service.models import Improvement, UnknownName
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import prose_blocks

EN = LanguageChoice("en-US", "detected", "en-US", ("simple", "casual"), ("friendly",), ("en-GB",))
#: A language the service improves without styles or tones.
XX = LanguageChoice("xx", "settings", "xx")


def settings(**values: Any) -> Settings:
    merged, warnings = merge(Settings(), values, "test")
    assert not warnings
    return merged


@pytest.mark.parametrize(
    ("options", "values", "choice", "expected"),
    [
        # The plain "Improve": the workspace's style where the language offers it, else none.
        (ImproveOptions(), {"writingStyle": "casual"}, EN, Mode("en-US", "casual")),
        (ImproveOptions(), {"writingStyle": "casual"}, XX, Mode("xx")),
        (ImproveOptions(), {"tone": "friendly"}, EN, Mode("en-US", tone="friendly")),
        # ... in the prefer_ form when the setting says so, or the setting's value does.
        (
            ImproveOptions(),
            {"writingStyle": "casual", "preferFallback": True},
            XX,
            Mode("xx", "prefer_casual"),
        ),
        (ImproveOptions(), {"writingStyle": "prefer_casual"}, XX, Mode("xx", "prefer_casual")),
        # A picked style is sent as it is (the service says when the language has none) ...
        (ImproveOptions.parse(writing_style="business"), {}, XX, Mode("xx", "business")),
        # ... or in the prefer_ form when asked so, or when the setting says so.
        (
            ImproveOptions.parse(writing_style="PREFER_Business"),
            {},
            XX,
            Mode("xx", "prefer_business"),
        ),
        (
            ImproveOptions.parse(tone="friendly"),
            {"preferFallback": True, "writingStyle": "casual"},
            EN,
            Mode("en-US", tone="prefer_friendly"),
        ),
        # A conversion sends the variant as the target, nothing else.
        (ImproveOptions.parse(variant="en-GB"), {"writingStyle": "casual"}, EN, Mode("en-GB")),
    ],
)
def test_the_prefer_rule_and_the_workspace_default(
    options: ImproveOptions, values: dict[str, Any], choice: LanguageChoice, expected: Mode
) -> None:
    assert options.mode(settings(**values), choice) == expected


def test_options_are_validated_once_and_round_trip_as_action_data() -> None:
    with pytest.raises(UnknownName) as caught:
        ImproveOptions.parse(tone="shouty")
    assert caught.value.names == ("enthusiastic", "friendly", "confident", "diplomatic")
    with pytest.raises(ValueError, match="exclude each other"):
        ImproveOptions.parse(writing_style="casual", tone="friendly")
    for options in (
        ImproveOptions(),
        ImproveOptions.parse(writing_style="prefer_casual"),
        ImproveOptions.parse(tone="Friendly"),
        ImproveOptions.parse(variant="pt-PT"),
    ):
        kind, value = options.as_pair()
        parsed = ImproveOptions.parse(
            writing_style=value if kind == "style" else None,
            tone=value if kind == "tone" else None,
            variant=value if kind == "variant" else None,
        )
        assert parsed == options


@dataclass
class Client:
    """Fixes doubled words; or fails with ``error``."""

    error: Exception | None = None
    sent: list[list[str]] = field(default_factory=list)
    modes: list[dict[str, Any]] = field(default_factory=list)

    async def rephrase(self, texts: list[str], **kw: Any) -> list[Improvement]:
        self.sent.append(list(texts))
        self.modes.append({k: kw[k] for k in ("target_lang", "writing_style", "tone")})
        if self.error is not None:
            raise self.error
        return [Improvement(t.replace("the the", "the"), "en-US", "en") for t in texts]


TEXT = "First the the one\nof two lines.\n\n```\nthe the code\n```\n\nSecond the the one.\n"


async def run(
    span: tuple[int, int] | None,
    options: ImproveOptions | None = None,
    client: Client | None = None,
    choice: LanguageChoice = EN,
    text: str = TEXT,
    **kw: Any,
) -> tuple[Improved | NotImproved, Client]:
    client = client or Client()
    blocks = prose_blocks(text, "markdown")
    request = ImproveRequest(
        text,
        None,
        blocks,
        span,
        options or ImproveOptions(),
        Settings(),
        FakeBackend(client),  # type: ignore[arg-type]
        choice,
    )
    outcome = await improve_text(request, cache=ImprovementCache(), **kw)
    return outcome, client


async def test_the_whole_document() -> None:
    outcome, client = await run(None, ImproveOptions.parse(writing_style="casual"))
    assert isinstance(outcome, Improved)
    assert apply_edits(TEXT, outcome.edits) == TEXT.replace("the the one", "the one")
    assert outcome.covers_all and outcome.mode == Mode("en-US", "casual")
    assert client.modes == [{"target_lang": "en-US", "writing_style": "casual", "tone": None}]


async def test_a_cut_paragraph_is_sent_whole_and_changed_only_inside_the_selection() -> None:
    start = TEXT.index("of two")
    outcome, client = await run((start, start + len("of two lines.")))
    assert isinstance(outcome, Improved)
    assert client.sent == [["First the the one of two lines."]]
    assert outcome.edits == []  # the doubled word lies outside the selection
    start = TEXT.index("the the one")
    outcome, _ = await run((start, start + 11))
    assert isinstance(outcome, Improved)
    assert apply_edits(TEXT, outcome.edits) == TEXT.replace("the the one\n", "the one\n", 1)
    assert not outcome.covers_all


async def test_a_conversion_of_all_the_prose_covers_all() -> None:
    outcome, _ = await run((0, len(TEXT)), ImproveOptions.parse(variant="en-GB"))
    assert isinstance(outcome, Improved) and outcome.covers_all
    start = TEXT.index("Second")
    outcome, _ = await run((start, len(TEXT)), ImproveOptions.parse(variant="en-GB"))
    assert isinstance(outcome, Improved) and not outcome.covers_all


async def test_no_prose_and_too_little_prose_are_refusals_that_send_nothing() -> None:
    code = TEXT.index("the the code")
    outcome, client = await run((code, code + 5))
    assert isinstance(outcome, NotImproved) and outcome.reason == "no prose"
    assert "no prose" in outcome.message and client.sent == []
    unknown = LanguageChoice(None, "unknown", None)
    outcome, client = await run(None, choice=unknown, text="# Title\n", skip_undetectable=True)
    assert isinstance(outcome, NotImproved) and outcome.reason == "too little prose"
    assert client.sent == []
    # Without skip_undetectable (the editor) it is sent: the service may tell.
    outcome, client = await run(None, choice=unknown, text="# Title\n")
    assert isinstance(outcome, Improved) and client.sent == [["Title"]]


async def test_a_service_failure_is_an_outcome_with_the_error_and_progress_ends_failed() -> None:
    ends: list[str] = []

    class Progress:
        async def begin(self, prose_bytes: int) -> None:
            assert prose_bytes > 0

        def report(self, done: int, total: int) -> None:
            pass

        def end(self, message: str) -> None:
            ends.append(message)

    error = BadRequest("Could not detect the language.", status=400)
    unknown = LanguageChoice(None, "unknown", None)
    outcome, _ = await run(None, client=Client(error), choice=unknown, progress=Progress())
    assert isinstance(outcome, NotImproved) and outcome.reason == "service"
    assert outcome.error is error and outcome.language_unknown
    assert ends == ["failed"]
    outcome, _ = await run(None, progress=Progress())
    assert isinstance(outcome, Improved) and ends == ["failed", "done"]


def test_the_request_mode_reaches_the_service_mode_and_the_cache_key() -> None:
    """What a request asks of the service (``rephrase``) is carried into the :class:`Mode`
    sent, and an answer cached for one endpoint is not taken for another."""
    request = ImproveRequest(TEXT, 3, prose_blocks(TEXT, "markdown"), None, ImproveOptions(),
                             Settings(), None, EN)  # fmt: skip
    mode = request.service_mode()
    assert request.mode == "rephrase"
    assert mode.endpoint == "rephrase"
    assert mode == ImproveOptions().mode(Settings(), EN)
    cache = ImprovementCache()
    cache.put("backend", "the the one", mode, "the one", "en-US")
    assert cache.get("backend", "the the one", mode) == ("the one", "en-US")
    other = replace(mode, endpoint="correct")  # type: ignore[arg-type]  # a future endpoint
    assert cache.get("backend", "the the one", other) is None


async def test_a_request_without_a_backend_is_refused_before_anything_is_sent() -> None:
    request = ImproveRequest(TEXT, None, prose_blocks(TEXT, "markdown"), None, ImproveOptions(),
                             Settings(), None, EN)  # fmt: skip
    with pytest.raises(ValueError, match="needs a backend"):
        await improve_text(request, cache=ImprovementCache())
