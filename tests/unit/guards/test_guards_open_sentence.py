"""The pipeline keeps a paragraph that goes on an open sentence in lower case, whatever the
service answers (a capital added to the first letter only is not applied)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.guards.open_sentence import continues_sentence, keep_open_sentence, prose_ends
from rephrase_ls.improve.options import Mode
from rephrase_ls.improve.round_trip import ImprovementCache, improve_paragraphs, with_context
from rephrase_ls.service.models import Improvement
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.paragraphs import select_paragraphs


@dataclass
class CapitalisingClient:
    """A service that starts every text with a capital, as a real one does with a fragment."""

    sent: list[str] = field(default_factory=list)
    rewrite: dict[str, str] = field(default_factory=dict)

    async def rephrase(self, texts, **_kw):
        self.sent.extend(texts)
        out = []
        for text in texts:
            text = self.rewrite.get(text, text)
            out.append(Improvement(text[:1].upper() + text[1:], "de", "de"))
        return out


async def _improve(text: str, uri: str, client: CapitalisingClient, start=0, end=None) -> str:
    blocks = prose_blocks(text, None, uri)
    paragraphs = select_paragraphs(text, start, len(text) if end is None else end, blocks)
    paragraphs, clips = with_context(text, paragraphs, blocks)
    outcome = await improve_paragraphs(
        FakeBackend(client), text, paragraphs, Mode("de"), ImprovementCache(), None, clips,
        blocks=blocks,
    )  # fmt: skip
    return apply_edits(text, outcome.edits(text))


async def test_a_list_after_a_colon_keeps_its_lower_case() -> None:
    text = "Beachten Sie, dass:\n\n- die Datei lesbar ist,\n- der Pfad stimmt.\n\nneu hier.\n"
    result = await _improve(text, "file:///a.md", CapitalisingClient())
    # the items go on the sentence; the last paragraph follows a full stop: capitalised
    assert result == (
        "Beachten Sie, dass:\n\n- die Datei lesbar ist,\n- der Pfad stimmt.\n\nNeu hier.\n"
    )


async def test_a_list_item_after_a_full_stop_follows_its_list() -> None:
    # every item in lower case: the list's style, kept; one item in lower case among
    # capitalised ones: a slip, capitalised
    lower = "Es ist fertig.\n\n- die Datei ist lesbar\n- der Pfad stimmt\n"
    assert await _improve(lower, "file:///a.md", CapitalisingClient()) == lower
    mixed = "Es ist fertig.\n\n- die Datei ist lesbar\n- Der Pfad stimmt\n"
    assert await _improve(mixed, "file:///a.md", CapitalisingClient()) == mixed.replace(
        "- die", "- Die"
    )


async def test_a_paragraph_after_a_code_block_inside_a_sentence() -> None:
    text = (
        "Install it with\n\n```sh\npip install fastgrid\n```\n\n"
        "or build it from the sources.\n\n```sh\nmake\n```\n\nthen run it.\n"
    )
    result = await _improve(text, "file:///a.md", CapitalisingClient())
    assert "\nor build it from the sources.\n" in result
    assert "\nThen run it.\n" in result  # "sources." ended the sentence


async def test_the_other_changes_of_the_paragraph_are_kept() -> None:
    text = "Wie folgt:\n\n- die Datei ist ist lesbar,\n- und so weiter.\n"
    client = CapitalisingClient(rewrite={"die Datei ist ist lesbar,": "die Datei ist lesbar,"})
    result = await _improve(text, "file:///a.md", client)
    assert result == "Wie folgt:\n\n- die Datei ist lesbar,\n- und so weiter.\n"


async def test_a_selection_inside_an_open_sentence() -> None:
    text = "Run:\n\n```\nmake\n```\n\nand wait.\n"
    start = text.index("and")
    result = await _improve(text, "file:///a.md", CapitalisingClient(), start, len(text))
    assert result == text


@pytest.mark.parametrize(
    ("before", "expected"),
    [
        ("It works.", False),
        ("Does it?", False),
        ('He said "stop."', False),
        ("It is (as said).", False),
        ("**Done!**", False),
        ("as follows:", True),
        ("first,", True),
        ("Install it with", True),
    ],
)
def test_continues_sentence(before: str, expected: bool) -> None:
    text = before + "\n\nnext words\n"
    blocks = prose_blocks(text, "plaintext")
    assert continues_sentence(text, text.index("next"), prose_ends(blocks)) is expected


@pytest.mark.parametrize(
    ("text", "uri"),
    [
        ("# Usage\n\nnext words\n", "file:///a.md"),
        ("> ## Usage\n>\n> next words\n", "file:///a.md"),
        ("Usage\n=====\n\nnext words\n", "file:///a.md"),
        ("Usage\n-----\n\nnext words\n", "file:///a.rst"),
        ("=====\nUsage\n=====\n\nnext words\n", "file:///a.rst"),
        ("\\section{Usage}\nnext words\n", "file:///a.tex"),
        ("\\subsection*{Usage}\n\nnext words\n", "file:///a.tex"),
    ],
)
def test_a_title_ends_no_sentence(text: str, uri: str) -> None:
    blocks = prose_blocks(text, None, uri)
    assert len(blocks) == 2
    assert not continues_sentence(text, text.index("next"), prose_ends(blocks))


async def test_after_a_title_the_first_letter_is_capitalised() -> None:
    text = "# Usage\n\nimport it.\n\nInstall it with\n\n    pip x\n\nor build it.\n"
    result = await _improve(text, "file:///a.md", CapitalisingClient())
    assert result == text.replace("import it", "Import it")


def test_the_first_paragraph_starts_a_sentence() -> None:
    text = "words here\n"
    assert not continues_sentence(text, 0, prose_ends(prose_blocks(text)))


@pytest.mark.parametrize(
    ("original", "replacement", "expected"),
    [
        ("or build it", "Or build it", "or build it"),
        ("or build it", "Or build it now", "or build it now"),
        ("**or** build", "**Or** build", "**or** build"),
        ("or build", "Alternatively, build", "Alternatively, build"),
        ("iPhone apps", "IPhone apps", "iPhone apps"),
        ("Or build", "or build", "or build"),  # not a capital added: kept
        ("123", "123.", "123."),
        # a word whose casing the service corrected inside (a name) keeps the correction whole
        ("github is great", "GitHub is great", "GitHub is great"),
        ("javascript, mostly", "JavaScript, mostly", "JavaScript, mostly"),
        ("or build", "Orbuild", "Orbuild"),
    ],
)
def test_keep_open_sentence(original: str, replacement: str, expected: str) -> None:
    assert keep_open_sentence(original, replacement) == expected


# -- on documents of real projects (tests/data/markup/real/, see SOURCES.md there) -----------

REAL = Path(__file__).resolve().parents[2] / "data" / "markup" / "real"


def _real(name: str) -> str:
    with open(REAL / name, encoding="utf-8", newline="") as handle:
        return handle.read()


async def test_fastapi_german_list_after_dass_keeps_its_lower_case() -> None:
    text = _real("fastapi-de-async.md")
    result = await _improve(text, "file:///docs/de/docs/async.md", CapitalisingClient())
    assert "dass:\n\n* die Daten des Clients" in text
    assert result == text  # every item goes on the sentence: nothing to capitalise


async def test_fastapi_paragraphs_between_code_blocks_keep_their_lower_case() -> None:
    text = _real("fastapi-query-params.md")
    result = await _improve(text, "file:///docs/tutorial/query-params.md", CapitalisingClient())
    assert text.count("\nor\n") == 4 and "\nor any other case variation" in text
    assert result == text
