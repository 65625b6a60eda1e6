"""A plain Improve keeps the document's spelling variant when nothing says which it is; an
explicit conversion converts. Through the pipeline (``improve_text``), with the offline
engine as the service."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.config.settings import Settings, merge
from rephrase_ls.guards.variants_keep import is_variant_change, keep_variant_spellings
from rephrase_ls.improve.language_choice import resolve_language
from rephrase_ls.improve.options import ImproveOptions
from rephrase_ls.improve.pipeline import Improved, improve_text
from rephrase_ls.improve.request import ImproveRequest
from rephrase_ls.improve.round_trip import ImprovementCache
from rephrase_ls.offline.engine import improve as engine_improve
from rephrase_ls.service.models import Improvement
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import prose_blocks


@dataclass
class EngineClient:
    """The offline engine as the service, converting to ``target_lang`` as the service does."""

    targets: list[str | None] = field(default_factory=list)

    async def rephrase(self, texts, *, target_lang=None, **_kw):
        self.targets.append(target_lang)
        return [Improvement(engine_improve(t, target_lang or "en"), "en", "en") for t in texts]


async def _improve(text: str, options: ImproveOptions, **values: str) -> str:
    settings, warnings = merge(Settings(), values, "test")
    assert not warnings
    blocks = prose_blocks(text, None, "file:///a.md")
    request = ImproveRequest(
        text, None, blocks, None, options, settings,
        FakeBackend(EngineClient()),  # type: ignore[arg-type]
        resolve_language(text, settings, None),
    )  # fmt: skip
    result = await improve_text(request, cache=ImprovementCache())
    assert isinstance(result, Improved)
    return apply_edits(text, result.edits)


# Two paragraphs, one British and one American spelling: a tie, so the variant is unknown.
MIXED = (
    "The colour of the page is set in the theme file, with teh rest of the styles.\n\n"
    "The color of the links is set in the same file and can be changed there.\n"
)


async def test_a_plain_improve_of_a_mixed_document_keeps_both_spellings() -> None:
    assert engine_improve("The colour of the page.", "en-us") == "The color of the page."
    for variant in ("en-US", "en-GB"):
        result = await _improve(MIXED, ImproveOptions(), englishVariant=variant)
        assert result == MIXED.replace("teh rest", "the rest")


async def test_a_document_with_no_variant_spelling_in_its_sample_keeps_later_ones() -> None:
    # The language choice reads the document's first 4,000 characters.
    opening = "The theme file holds the styles of every page of the site.\n\n" * 80
    text = opening + "The colour of the links can be changed there.\n"
    assert await _improve(text, ImproveOptions()) == text


async def test_an_explicit_conversion_converts() -> None:
    result = await _improve(MIXED, ImproveOptions.parse(variant="en-US"))
    assert result == MIXED.replace("colour", "color").replace("teh rest", "the rest")
    result = await _improve(MIXED, ImproveOptions.parse(variant="en-GB"))
    assert result == MIXED.replace("color", "colour").replace("teh rest", "the rest")


async def test_a_document_confidently_one_variant_gets_its_stray_spellings() -> None:
    british = (
        "The colour of the centre panel is grey, and the theatre's programme is on it.\n\n"
        "The color of the links is set in the same file.\n"
    )
    result = await _improve(british, ImproveOptions(), englishVariant="en-US")
    assert result == british.replace("The color", "The colour")


async def test_a_language_set_without_variant_keeps_the_spellings() -> None:
    text = "The colour of the page is set in the theme file.\n"
    assert await _improve(text, ImproveOptions(), language="en") == text
    # A variant the writer set is the document's: the other spellings are converted.
    result = await _improve(text, ImproveOptions(), language="en-US")
    assert result == text.replace("colour", "color")


@pytest.mark.parametrize(
    ("old", "new", "language", "expected"),
    [
        ("colour", "color", "en-US", True),
        ("Color", "Colour", "en", True),
        ("centre", "center", "en-GB", True),
        ("teh", "the", "en-US", False),
        ("ônibus", "autocarro", "pt-PT", True),
        ("a fazer", "fazendo", "pt-BR", True),
        ("fazendo", "a fazer", "pt", True),
        ("casa de banho", "banheiro", "pt-BR", True),
        ("colour", "color", "de", False),
    ],
)
def test_is_variant_change(old: str, new: str, language: str, expected: bool) -> None:
    assert is_variant_change(old, new, language) is expected


def test_keep_variant_spellings_keeps_every_other_change() -> None:
    assert keep_variant_spellings(
        "Teh colour of teh centre.", "The color of the center.", "en-US"
    ) == "The colour of the centre."
    assert keep_variant_spellings(
        "Eu estou a fazer isso no ônibus, no no centro.",
        "Eu estou fazendo isso no autocarro, no centro.",
        "pt-BR",
    ) == "Eu estou a fazer isso no ônibus, no centro."


def test_a_confident_document_respells_a_stray_word_unless_it_writes_others() -> None:
    from rephrase_ls.guards.variants_keep import document_variant

    american = "The color of the center. The colour of the page."
    one = document_variant(american, "en-US", confident=True)
    assert one.others == {"colour"}
    assert keep_variant_spellings(
        "The colour of the page.", "The color of the page.", "en-US", one
    ) == "The color of the page."
    # a document that writes two British words is mixed: both stay
    mixed = document_variant(american + " Its centre is grey.", "en-US", confident=True)
    assert keep_variant_spellings(
        "The colour of the page.", "The color of the page.", "en-US", mixed
    ) == "The colour of the page."
    # nothing told: every conversion is taken out
    guessed = document_variant(american, "en-US", confident=False)
    assert keep_variant_spellings(
        "The colour of the page.", "The color of the page.", "en-US", guessed
    ) == "The colour of the page."
    # -ize is British too (Oxford spelling): never respelt -ise
    british = document_variant("The colour of the centre. We organize it.", "en-GB", True)
    assert keep_variant_spellings("We organize it.", "We organise it.", "en-GB", british) == (
        "We organize it."
    )
