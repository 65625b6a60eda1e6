"""The improvement pipeline with a scripted backend: refusals, the cache, language rules."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.config.settings import Settings
from rephrase_ls.improve.language_choice import resolve_language
from rephrase_ls.improve.options import Mode
from rephrase_ls.improve.round_trip import ImprovementCache, improve_paragraphs
from rephrase_ls.service.capabilities import Capabilities
from rephrase_ls.service.models import Improvement, Language
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.paragraphs import select_paragraphs


@dataclass
class ScriptedClient:
    answers: dict[str, str]
    sent: list[list[str]] = field(default_factory=list)

    async def rephrase(self, texts, **_kw):
        self.sent.append(list(texts))
        return [Improvement(self.answers.get(t, t), "en-US", "en") for t in texts]


async def test_a_paragraph_whose_markup_was_lost_is_refused_the_others_apply() -> None:
    text = "Use `pip` here, ok.\n\nthe the second.\n\nthird one\n"
    blocks = prose_blocks(text, "markdown", "file:///a.md")
    paragraphs = select_paragraphs(text, 0, len(text), blocks)
    first, second, third = (p.prose for p in paragraphs)
    client = ScriptedClient({first: "Use pip here, OK.", second: "The second.", third: ""})
    outcome = await improve_paragraphs(
        FakeBackend(client), text, paragraphs, Mode("en-US"), ImprovementCache()
    )
    assert (
        apply_edits(text, outcome.edits(text))
        == "Use `pip` here, ok.\n\nThe second.\n\nthird one\n"
    )
    assert len(outcome.refused) == 2
    assert "paragraph 1 (line 1" in outcome.refused[0] and "protected markup" in outcome.refused[0]
    assert "paragraph 3 (line 5" in outcome.refused[1]


async def test_the_cache_answers_the_same_request_twice() -> None:
    text = "the the plan.\n"
    paragraphs = select_paragraphs(text, 0, len(text), prose_blocks(text))
    client = ScriptedClient({"the the plan.": "The plan."})
    cache = ImprovementCache()
    backend = FakeBackend(client)
    for _ in range(2):
        outcome = await improve_paragraphs(backend, text, paragraphs, Mode("en-US"), cache)
        assert apply_edits(text, outcome.edits(text)) == "The plan.\n"
    assert client.sent == [["the the plan."]]
    # Another style is another request.
    await improve_paragraphs(
        backend, text, paragraphs, Mode("en-US", writing_style="casual"), cache
    )
    assert len(client.sent) == 2


def _caps() -> Capabilities:
    def lang(code: str, src: bool, tgt: bool, features: tuple[str, ...] = ()) -> Language:
        return Language(code, src, tgt, frozenset(features), None)

    return Capabilities(
        "write",
        (
            lang("en", True, False, ("writing_style",)),
            lang("en-US", False, True, ("writing_style",)),
            lang("en-GB", False, True, ("writing_style",)),
            lang("fr", True, True),
        ),
        (),
        (),
    )


@pytest.mark.parametrize(
    ("text", "settings", "expected"),
    [
        (
            "<!-- rephrase: language=en-GB -->\nHallo Welt, wie geht es dir heute?",
            {},
            ("en-GB", "document"),
        ),
        ("Hallo Welt, wie geht es dir heute, mein Freund?", {"language": "fr"}, ("fr", "settings")),
        ("We need to organize the colors of this page soon.", {}, ("en-US", "detected")),
        # A detected document keeps its own spelling variant instead of being converted.
        ("We analysed the colour of the organisation in the centre.", {}, ("en-GB", "detected")),
        # No spelling evidence either way: the configured variant.
        (
            "We need to finish the work on this page before the meeting.",
            {"englishVariant": "en-GB"},
            ("en-GB", "detected"),
        ),
    ],
)
def test_language_precedence(text: str, settings: dict, expected: tuple[str, str]) -> None:
    from rephrase_ls.config.settings import merge

    merged, _ = merge(Settings(), settings, "test")
    choice = resolve_language(text, merged, _caps())
    assert (choice.language, choice.source) == expected


def test_styles_follow_the_capability_list() -> None:
    caps = _caps()
    en = resolve_language("We need to organize the colors of this page soon.", Settings(), caps)
    assert en.writing_styles and en.variants == ("en-GB",)
    fr = resolve_language("Nous devons organiser les couleurs de cette page.", Settings(), caps)
    assert fr.language == "fr" and fr.writing_styles == () and fr.reason


async def test_a_cut_paragraph_is_sent_whole_and_only_edits_inside_the_cut_apply() -> None:
    from rephrase_ls.improve.round_trip import with_context

    text = "this is the the plan, ok.\n"
    blocks = prose_blocks(text)
    start = text.index("the the")
    cut = select_paragraphs(text, start, start + len("the the plan"), blocks)
    assert [p.prose for p in cut] == ["the the plan"]
    widened, clips = with_context(text, cut, blocks)
    assert [p.prose for p in widened] == ["this is the the plan, ok."]
    assert clips == [(start, start + len("the the plan"))]
    client = ScriptedClient({"this is the the plan, ok.": "This is the plan, OK."})
    outcome = await improve_paragraphs(
        FakeBackend(client), text, widened, Mode("en-US"), ImprovementCache(), None, clips
    )
    assert apply_edits(text, outcome.edits(text)) == "this is the plan, ok.\n"
    # A whole paragraph is not widened or clipped.
    whole = select_paragraphs(text, 0, len(text), blocks)
    assert with_context(text, whole, blocks)[1] == [None]


def test_a_selection_over_several_paragraphs_widens_only_its_first_and_last() -> None:
    from rephrase_ls.improve.round_trip import with_context

    text = "One first paragraph here.\n\nA middle one.\n\nAnd the last paragraph.\n"
    blocks = prose_blocks(text)
    start, end = text.index("first"), text.index(" paragraph.")
    cut = select_paragraphs(text, start, end, blocks)
    assert [p.prose for p in cut] == ["first paragraph here.", "A middle one.", "And the last"]
    widened, clips = with_context(text, cut, blocks)
    assert [p.prose for p in widened] == [
        "One first paragraph here.", "A middle one.", "And the last paragraph."
    ]
    assert clips == [(start, cut[0].end), None, (cut[2].start, end)]


def test_language_directives_are_not_prose() -> None:
    from rephrase_ls.improve.round_trip import without_directives

    text = "# rephrase: language=en-GB\n# the colour is nice\n# and so is this\nx = 1\n"
    blocks = without_directives(text, prose_blocks(text, "python", "file:///a.py"))
    paragraphs = select_paragraphs(text, 0, len(text), blocks)
    assert [p.prose for p in paragraphs] == ["the colour is nice and so is this"]
    # A document without a directive keeps its blocks as they are.
    plain = "the colour is nice\n"
    assert without_directives(plain, prose_blocks(plain)) == prose_blocks(plain)
