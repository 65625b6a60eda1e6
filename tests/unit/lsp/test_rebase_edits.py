"""Moving an improvement's edits through the writer's changes (lsp/actions.py): the paragraphs
an improvement works on, and which of their edits survive which changes."""

from __future__ import annotations

from rephrase_ls.improve.request import document_prose
from rephrase_ls.lsp.actions import Region, paragraph_regions, rebase
from rephrase_ls.lsp.language_server import DocumentState
from rephrase_ls.text.changes import ChangeLog
from rephrase_ls.text.diff import TextEdit, apply_edits
from rephrase_ls.text.positions import LineIndex

TEXT = "# Notes\n\nWe recieved teh letter.\n\n```\ncode\n```\n\nThe comittee met.\n"


def state(text: str = TEXT) -> DocumentState:
    return DocumentState(1, text, LineIndex(text), document_prose(text, "markdown", None))


def at(word: str, new: str) -> TextEdit:
    start = TEXT.index(word)
    return TextEdit(start, start + len(word), new)


EDITS = [at("recieved", "received"), at("teh", "the"), at("comittee", "committee")]


def typed(rng: tuple[int, int, int, int], new: str) -> ChangeLog:
    log = ChangeLog(TEXT, 1)
    index = LineIndex(TEXT)
    start, end = index.offset(*rng[:2]), index.offset(*rng[2:])
    log.record(2, [(rng, new)], "utf-16", TEXT[:start] + new + TEXT[end:])
    assert log.broken is None
    return log


def test_a_selection_works_on_its_paragraphs_whole() -> None:
    start = TEXT.index("teh")
    (region,) = paragraph_regions(state(), (start, start + 3))
    assert TEXT[region.start : region.end] == "We recieved teh letter."
    assert region.label == "paragraph 1 (line 3, “We recieved teh letter.”)"
    whole = paragraph_regions(state(), None)
    assert [TEXT[r.start : r.end] for r in whole] == [
        "Notes",
        "We recieved teh letter.",
        "The comittee met.",
    ]


def test_typing_in_code_between_paragraphs_moves_the_later_edits() -> None:
    log = typed((5, 0, 5, 4), "more code")
    moved, edited = rebase(EDITS, paragraph_regions(state(), None), log)
    assert edited == []
    assert apply_edits(log.text, moved) == (
        "# Notes\n\nWe received the letter.\n\n```\nmore code\n```\n\nThe committee met.\n"
    )


def test_typing_in_a_paragraph_drops_only_its_edits() -> None:
    log = typed((2, 23, 2, 23), " Thanks.")  # right at its end
    moved, edited = rebase(EDITS, paragraph_regions(state(), None), log)
    assert [r.label for r in edited] == ["paragraph 2 (line 3, “We recieved teh letter.”)"]
    assert apply_edits(log.text, moved) == (
        "# Notes\n\nWe recieved teh letter. Thanks.\n\n```\ncode\n```\n\nThe committee met.\n"
    )


def test_an_edit_outside_every_paragraph_follows_on_its_own() -> None:
    code = TextEdit(TEXT.index("code"), TEXT.index("code") + 4, "CODE")
    regions = paragraph_regions(state(), None)
    log = typed((0, 2, 0, 2), "My ")
    moved, edited = rebase([code], regions, log)
    assert edited == [] and apply_edits(log.text, moved) == log.text.replace("code", "CODE")
    log = typed((5, 1, 5, 1), "x")
    moved, edited = rebase([code], regions, log)
    assert moved == [] and [r.label for r in edited] == ["the text at line 6"]
    assert isinstance(edited[0], Region)
