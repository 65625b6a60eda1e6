"""Offline findings on real published documents (tests/data/markup/real, see SOURCES.md there)
with slips inserted: ranges, replacements, codes, protected markup, clean documents."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.config.settings import Settings
from rephrase_ls.improve.language_choice import LanguageChoice, prose_sample, resolve_language
from rephrase_ls.improve.options import ImproveOptions
from rephrase_ls.improve.pipeline import Improved, improve_text
from rephrase_ls.improve.request import ImproveRequest, document_prose
from rephrase_ls.improve.round_trip import ImprovementCache, without_directives
from rephrase_ls.offline import engine
from rephrase_ls.offline.request import ApiError, process_fields
from rephrase_ls.review import Finding, findings, offline_target, review_mode
from rephrase_ls.service.errors import BadRequest
from rephrase_ls.service.models import Improvement
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import ProseBlock, prose_blocks

REAL = Path(__file__).resolve().parents[2] / "data" / "markup" / "real"

# (document text to find, what to put instead, the finding expected there: original words,
# replacement, code) — slips written into fastapi's "Alternatives" page (MIT).
SLIPS = [
    ("for the previous work", "for teh previous work", "teh", "the", "spelling"),
    ("It's the most popular", "It's the the most popular", "the the", "the", "doubled-word"),
    ("is widely trusted.", "is widely trusted..", "trusted..", "trusted.", "punctuation"),
    ("plug-ins, and tools.", "plug-ins , and tools.", "plug-ins ,", "plug-ins,", "spacing"),
    ("It is used by many companies", "it is used by many companies", "it", "It",
     "capitalisation"),
    ("taking the best ideas", "taking the favourite ideas", "favourite", "favorite", "variant"),
]  # fmt: skip
# Slips inside protected markup: inline code, a link's address, a fenced code block.
PROTECTED_SLIPS = [
    ("using Django underneath,", "using Django underneath (`thier thier recieved`),"),
    ("many different frameworks,", "many different [frameworks](https://example.com/thier/x),"),
]
# (not "teh": a word the document writes in code is never changed in its prose, see guards.py)
CODE_BLOCK = "\n```python\n# thier thier recieved\nvalue = 'thier  thier'\n```\n"


def _read(name: str) -> str:
    return (REAL / name).read_text(encoding="utf-8")


def _with_slips() -> str:
    text = _read("fastapi-alternatives.md")
    for anchor, slip, *_ in [*SLIPS, *PROTECTED_SLIPS]:
        assert text.count(anchor) == 1, anchor
        text = text.replace(anchor, slip)
    return text + CODE_BLOCK


def _findings(text: str, language_id: str = "markdown", target: str = "en-US") -> list[Finding]:
    return findings(text, document_prose(text, language_id, None), target_lang=target)


@dataclass
class OfflineService:
    """The offline service's own request handling (validation, language check, the engine with
    the request's context words), called in process: the whole document in one request."""

    async def rephrase(
        self, texts: list[str], *, target_lang: str | None, writing_style: str | None,
        tone: str | None, **_kw: Any,
    ) -> list[Improvement]:  # fmt: skip
        fields = {"text": texts, "target_lang": target_lang}
        fields.update({k: v for k, v in (("writing_style", writing_style), ("tone", tone)) if v})
        try:
            answers, _ = process_fields(fields, False, frozenset())
        except ApiError as exc:
            raise BadRequest(exc.message, service_message=exc.message) from exc
        return [Improvement.from_json(answer) for answer in answers]


def _improved(text: str, blocks: list[ProseBlock], choice: LanguageChoice) -> str:
    """What a plain Improve of the whole document gives with the offline service (the product's
    pipeline, :func:`~rephrase_ls.improve.pipeline.improve_text`, guards and all)."""
    outcome = asyncio.run(
        improve_text(
            ImproveRequest(
                text, None, without_directives(text, blocks), None, ImproveOptions(),
                Settings(), FakeBackend(OfflineService()), choice,  # type: ignore[arg-type]
            ),
            cache=ImprovementCache(),
        )
    )  # fmt: skip
    assert isinstance(outcome, Improved), outcome
    return apply_edits(text, outcome.edits)


def _reviewed(text: str, blocks: list[ProseBlock], choice: LanguageChoice) -> list[Finding]:
    """The offline findings as review mode asks for them in ``choice``'s language."""
    mode = review_mode(Settings(), choice)
    assert mode is not None and mode.target_lang is not None
    return findings(
        text, blocks, target_lang=mode.target_lang, keep_variant=mode.keep_variant,
        variant_detected=mode.variant_detected,
    )  # fmt: skip


def test_each_slip_is_one_finding_over_its_words_with_its_code() -> None:
    text = _with_slips()
    found = _findings(text)
    by_original = {f.original: f for f in found}
    for _, slip, original, replacement, code in SLIPS:
        finding = by_original.get(original)
        assert finding is not None, (original, [f.message for f in found])
        assert text[finding.start : finding.end] == original
        assert text.count(slip) == 1 and text.index(slip) <= finding.start
        assert finding.end <= text.index(slip) + len(slip)
        assert (finding.replacement, finding.code) == (replacement, code)
        assert finding.message == f"{original} → {replacement}"
    assert len(found) == len(SLIPS), [f.message for f in found]


def test_ranges_are_whole_words_of_the_document() -> None:
    text = _with_slips()
    for finding in _findings(text):
        assert text[finding.start : finding.end] == finding.original
        assert finding.original == finding.original.strip()
        before = text[finding.start - 1] if finding.start else " "
        after = text[finding.end] if finding.end < len(text) else " "
        # a range never starts or ends inside a word
        assert not (before.isalnum() and finding.original[0].isalnum()), finding
        assert not (after.isalnum() and finding.original[-1].isalnum()), finding


def _written_twice() -> str:
    """The slips, and a misspelling written in two paragraphs (a term: never corrected)."""
    text = _with_slips().replace("to be a flexible toolkit", "to be a recieved toolkit")
    return text.replace("including Mozilla", "including recieved Mozilla")


def test_the_edits_give_what_improve_gives() -> None:
    for name, language_id, language, slips in [
        ("fastapi-alternatives.md", "markdown", "en-US", _with_slips),
        ("fastapi-alternatives.md", "markdown", "en-US", _written_twice),
        ("docutils-quickstart.rst", "restructuredtext", "en-US", None),
        ("fastapi-de-async.md", "markdown", "de", None),
    ]:
        text = slips() if slips else _read(name)
        blocks = prose_blocks(text, language_id)
        choice = LanguageChoice(language, "settings", language)
        found = _reviewed(text, blocks, choice)
        expected = _improved(text, blocks, choice)
        assert expected != text or not found
        assert apply_edits(text, [f.edit() for f in found]) == expected, name


def test_nothing_in_protected_markup_or_outside_prose_is_flagged() -> None:
    text = _with_slips()
    blocks = prose_blocks(text, "markdown")
    found = _findings(text)
    protected = [span for block in blocks for span in block.protected]
    segments = [span for block in blocks for span in block.segments]
    assert any("thier" in text[s:e] for s, e in protected)  # the slips are protected
    for finding in found:
        assert not any(s < finding.end and e > finding.start for s, e in protected), finding
        assert any(s <= finding.start and finding.end <= e for s, e in segments), finding
    code_block = text.rindex(CODE_BLOCK)
    assert all(f.end <= code_block for f in found)
    assert not any("recieved" in f.original or "thier" in f.original for f in found)


@pytest.mark.parametrize(
    ("name", "language_id"),
    [
        ("fastapi-alternatives.md", "markdown"),
        ("README", "markdown"),
        ("fastapi-query-params.md", "markdown"),
        ("hugo-emoji-support.md", "markdown"),
    ],
)
def test_a_clean_document_gives_no_findings(name: str, language_id: str) -> None:
    assert _findings(_read(name), language_id) == []


def test_applying_every_finding_leaves_none() -> None:
    text = _with_slips()
    fixed = apply_edits(text, [f.edit() for f in _findings(text)])
    assert fixed != text
    assert _findings(fixed) == []


def test_published_slips_of_a_real_document() -> None:
    """docutils' quickstart (public domain) as published: British spelling, and two spaces
    between sentences all through (its house style, which Improve keeps: no finding); in en-US
    the spelling is a finding, in en-GB nothing is."""
    text = _read("docutils-quickstart.rst")
    assert text.count(".  ") >= 2
    american = [(f.code, f.original) for f in _findings(text, "restructuredtext", "en-us")]
    assert american == [("variant", "recognised")]
    assert _findings(text, "restructuredtext", "en-gb") == []


def test_a_paragraph_in_another_language_is_left_alone() -> None:
    """A German page reviewed as English: Improve would be refused for each paragraph."""
    german = _read("fastapi-de-async.md")
    assert engine.improve("die Daten des Clients", "en-us") != "die Daten des Clients"
    assert _findings(german, target="en-US") == []


def test_a_list_that_goes_on_a_sentence_keeps_its_lower_case() -> None:
    """fastapi's German async page: a sentence ending in "dass:" goes on in a list; the
    engine alone would capitalise each item."""
    german = _read("fastapi-de-async.md")
    assert engine.improve("die Daten des Clients", "de").startswith("Die")
    found = _findings(german, target="de")
    assert not any(f.code == "capitalisation" for f in found), found
    # the one item the page itself capitalises is not made lower case either
    assert "* Eine Datenbankoperation" in german
    assert found == []


def test_the_language_directive_is_not_prose() -> None:
    """In plain text the directive is a line of prose; the engine would tidy its spaces."""
    text = "rephrase:  language=en-US\n\nWe recieved teh report.\n"
    assert engine.improve("rephrase:  language=en-US", "en-us") == "rephrase: language=en-US"
    found = _findings(text, "plaintext")
    assert [f.original for f in found] == ["recieved", "teh"]


def test_known_words_are_never_flagged() -> None:
    text = "Our tool reads the recieved colour data. It  works well!!\n"
    blocks = prose_blocks(text, "markdown")
    found = findings(text, blocks, target_lang="en-us")
    assert [(f.original, f.word) for f in found] == [
        ("recieved", "recieved"),
        ("colour", "colour"),
        ("It  works", None),
        ("well!!", None),
    ]
    words = [f.word for f in found if f.word]
    again = findings(text, blocks, target_lang="en-us", words=words)
    assert [f.original for f in again] == ["It  works", "well!!"]
    # known words are compared without case
    assert findings(text, blocks, target_lang="en-us", words=["Recieved", "COLOUR"]) == again


def test_offline_target_and_unsupported_languages() -> None:
    assert offline_target("en-US") == "en-us"
    assert offline_target("pt_BR") == "pt-br"
    assert offline_target("de") == "de"
    assert offline_target("ja") is None
    assert offline_target(None) is None
    with pytest.raises(ValueError, match="cannot review 'ja'"):
        findings("テキスト", prose_blocks("テキスト", "plaintext"), target_lang="ja")


DATA = REAL.parent


@pytest.mark.parametrize("language_set", [False, True], ids=["detected", "set"])
@pytest.mark.parametrize(
    "path",
    sorted(
        p for p in DATA.rglob("*") if p.is_file() and p.name not in ("SOURCES.md", "LICENSES.md")
    ),
    ids=lambda p: p.name,
)
def test_every_markup_document_keeps_the_invariants(path: Path, language_set: bool) -> None:
    """Every format of tests/data/markup: findings sorted and disjoint, each over its original
    text, inside prose, never over protected text; together they give what Improve with the
    offline service gives, the document's guards included (its code words, its lower-case
    names, its two spaces between sentences, its variant: detected from the document, or the
    language set)."""
    text = path.read_text(encoding="utf-8")
    blocks = prose_blocks(text, None, path.as_uri())
    if language_set:
        language = "de" if "-de-" in path.name else "en-US"
        choice = LanguageChoice(language, "settings", language)
    else:
        # detected from the prose, as the language server and the CLI do
        choice = resolve_language(text, Settings(), None, sample=prose_sample(text, blocks))
    found = _reviewed(text, blocks, choice)
    protected = [span for block in blocks for span in block.protected]
    for finding, following in pairwise(found):
        assert finding.end <= following.start
    for finding in found:
        assert text[finding.start : finding.end] == finding.original
        assert not any(s < finding.end and e > finding.start for s, e in protected)
        assert any(b.start <= finding.start and finding.end <= b.end for b in blocks)
    assert apply_edits(text, [f.edit() for f in found]) == _improved(text, blocks, choice)


def test_a_slip_written_in_two_paragraphs_gets_a_finding_in_each() -> None:
    # A new user's trial: editor diagnostics left "recieved" and "untill" written twice; a
    # listed misspelling is corrected however often it is written, a term written twice is kept
    text = (
        "We recieved it untill noon.\n\nThey recieved it too.\n\n"
        "It reads a hostid first.\n\nThen the hostid is printed, untill the end.\n"
    )
    found = [(f.original, f.replacement) for f in _findings(text)]
    assert found == [
        ("recieved", "received"),
        ("untill", "until"),
        ("recieved", "received"),
        ("untill", "until"),
    ]
