"""ChangeLog: an editor's content changes replayed as offsets, and spans followed through them."""

from __future__ import annotations

import pytest

from rephrase_ls.text.changes import Change, ChangeLog

TEXT = "# Notes 😀\n\nFirst paragraph here.\n\nSecond one.\n"
FIRST = TEXT.index("First")
FIRST_END = FIRST + len("First paragraph here.")


def typed(log: ChangeLog, rng: tuple[int, int, int, int] | None, new: str, result: str) -> None:
    log.record((log.version or 0) + 1, [(rng, new)], "utf-16", result)


def test_a_change_before_a_span_moves_it_and_one_after_leaves_it() -> None:
    log = ChangeLog(TEXT, 1)
    after = TEXT.replace("Second", "The second")
    typed(log, (4, 0, 4, 0), "The s", after.replace("The second", "The sSecond"))
    assert log.broken is None
    # an insertion after the paragraph leaves it where it was
    assert log.follow(FIRST, FIRST_END) == (FIRST, FIRST_END)
    text = log.text
    typed(log, (1, 0, 1, 0), "Intro.\n", text.replace("\n\nFirst", "\nIntro.\n\nFirst"))
    assert log.follow(FIRST, FIRST_END) == (FIRST + 7, FIRST_END + 7)
    assert log.version == 3


def test_positions_are_read_in_the_negotiated_encoding() -> None:
    log = ChangeLog(TEXT, 1)
    # after the emoji: character 10 in UTF-16, 12 in UTF-8
    log.record(2, [((0, 10, 0, 10), "!")], "utf-16", TEXT.replace("😀", "😀!"))
    assert log.broken is None
    log.record(3, [((0, 13, 0, 13), "?")], "utf-8", TEXT.replace("😀", "😀!?"))
    assert log.broken is None
    assert log.changes == [Change(9, 9, 1), Change(10, 10, 1)]


def test_several_changes_in_one_notification_each_read_in_the_text_before_it() -> None:
    log = ChangeLog(TEXT, 1)
    # delete the heading's "#", then type at the new (0, 0)
    result = "Notes 😀" + TEXT[len("# Notes 😀") :]
    log.record(2, [((0, 0, 0, 2), ""), ((0, 0, 0, 0), "My ")], "utf-16", "My " + result)
    assert log.broken is None
    assert log.follow(FIRST, FIRST_END) == (FIRST + 1, FIRST_END + 1)


@pytest.mark.parametrize(
    ("rng", "new"),
    [
        ((2, 0, 2, 0), "Oh. "),  # at its start
        ((2, 21, 2, 21), " More."),  # at its end
        ((2, 6, 2, 15), "para"),  # inside
        ((0, 0, 3, 0), ""),  # over it
        ((1, 0, 2, 0), ""),  # the line break just before it, up to its start
    ],
)
def test_a_change_that_overlaps_or_touches_a_span_loses_it(
    rng: tuple[int, int, int, int], new: str
) -> None:
    from rephrase_ls.text.positions import LineIndex

    index = LineIndex(TEXT)
    start = index.offset(rng[0], rng[1])
    end = index.offset(rng[2], rng[3])
    log = ChangeLog(TEXT, 1)
    typed(log, rng, new, TEXT[:start] + new + TEXT[end:])
    assert log.broken is None
    assert log.follow(FIRST, FIRST_END) is None
    # the second paragraph, after the change, moves with it
    second = TEXT.index("Second")
    delta = len(new) - (end - start)
    assert log.follow(second, second + 11) == (second + delta, second + 11 + delta)


def test_the_whole_text_replaced_breaks_the_log() -> None:
    log = ChangeLog(TEXT, 1)
    typed(log, None, "Other text.\n", "Other text.\n")
    assert log.broken == "the whole text was replaced"
    assert log.follow(FIRST, FIRST_END) is None
    # nothing recorded afterwards mends it; the version still follows the editor's
    typed(log, (0, 0, 0, 0), "x", "xOther text.\n")
    assert log.broken == "the whole text was replaced" and log.version == 3


def test_a_replay_that_disagrees_with_the_editor_breaks_the_log() -> None:
    log = ChangeLog(TEXT, 1)
    typed(log, (0, 0, 0, 0), "x", "y" + TEXT)  # the editor's text is not what the change gives
    assert log.broken is not None
    assert log.follow(0, 1) is None


def test_a_negative_position_breaks_the_log() -> None:
    log = ChangeLog(TEXT, 1)
    typed(log, (0, -1, 0, 0), "x", "x" + TEXT)
    assert log.broken is not None and "could not be read" in log.broken


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "mixed"])
def test_offset_of_agrees_with_the_line_index(encoding: str, newline: str) -> None:
    from rephrase_ls.text.changes import offset_of
    from rephrase_ls.text.positions import LineIndex

    lines = ["# Notes 😀 é", "", "First ü paragraph.", "👩‍💻 x", "", "\r\n", ""]
    if newline == "mixed":
        text = "".join(
            line + brk
            for line, brk in zip(lines, ["\r\n", "\r", "\n", "\r", "\r\n", "\n", ""], strict=True)
        )
    else:
        text = newline.join(lines)
    index = LineIndex(text)
    for line in range(10):
        for character in range(0, 25):
            assert offset_of(text, line, character, encoding) == index.offset(
                line, character, encoding
            ), (line, character)


def test_a_point_moves_with_the_changes_before_it_and_to_the_end_of_one_over_it() -> None:
    log = ChangeLog(TEXT, 1)
    typed(log, (0, 0, 0, 0), "Hi ", "Hi " + TEXT)  # before everything
    text = log.text
    start = text.index("paragraph")
    typed(log, (2, 6, 2, 15), "para", text[:start] + "para" + text[start + 9 :])
    assert log.point(0) == 3  # an insertion right at a point goes before it
    assert log.point(FIRST) == FIRST + 3
    assert log.point(FIRST + 8) == FIRST + 3 + 6 + 4  # inside the replaced word: after "para"
    assert log.point(FIRST_END) == FIRST_END + 3 - 5
