"""``review.grouping.edit_findings``: a pipeline's edits as findings, grouped and classified
as the offline review's are; and ``review.carry.carry``: findings through an edit."""

from __future__ import annotations

from rephrase_ls.review import findings
from rephrase_ls.review.carry import carry
from rephrase_ls.review.grouping import edit_findings
from rephrase_ls.text.diff import apply_edits, word_edits
from rephrase_ls.text.markup import prose_blocks

TEXT = (
    "# Title\n\nI recieved teh letter, it was was late.\n\n```\nwrok code\n```\n\n"
    "> Thier reply\n> came.\n"
)


def test_edits_become_the_findings_the_offline_review_gives() -> None:
    blocks = prose_blocks(TEXT, "markdown")
    offline = findings(TEXT, blocks, target_lang="en-us")
    improved = apply_edits(TEXT, [f.edit() for f in offline])
    from_edits = edit_findings(TEXT, blocks, word_edits(TEXT, improved), "en-us")
    assert from_edits == offline
    assert [f.original for f in from_edits] == ["recieved", "teh", "was was", "Thier"]
    assert [f.code for f in from_edits] == ["spelling", "spelling", "doubled-word", "spelling"]


def test_an_edit_outside_the_prose_is_not_a_finding() -> None:
    blocks = prose_blocks(TEXT, "markdown")
    start = TEXT.index("wrok code")
    from rephrase_ls.text.diff import TextEdit

    assert edit_findings(TEXT, blocks, [TextEdit(start, start + 3, "the")], "en-us") == []


def test_carry_moves_findings_and_drops_those_whose_words_changed() -> None:
    blocks = prose_blocks(TEXT, "markdown")
    found = findings(TEXT, blocks, target_lang="en-us")
    moved = "Intro.\n" + TEXT
    carried = carry(found, TEXT, moved)
    assert [moved[f.start : f.end] for f in carried] == [f.original for f in found]
    changed = moved.replace("teh letter", "tea letter")
    kept = carry(carried, moved, changed)
    assert [f.original for f in kept] == ["recieved", "was was", "Thier"]
    assert all(changed[f.start : f.end] == f.original for f in kept)
    # Typing right against a finding's word changes it: dropped too.
    glued = changed.replace("recieved", "recievedx")
    assert [f.original for f in carry(kept, changed, glued)] == ["was was", "Thier"]
