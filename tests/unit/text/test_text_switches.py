"""In-document switches: which spans ``rephrase: off`` / ``on`` / ``ignore-next-line`` take out."""

from __future__ import annotations

import pytest

from rephrase_ls.improve.round_trip import without_directives
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.switches import comment_line, switched_off


def _taken(text: str) -> list[str]:
    return [text[start:end] for start, end in switched_off(text)]


def test_a_region_runs_from_off_to_on_inclusive() -> None:
    text = "a\n<!-- rephrase: off -->\nb\n<!-- rephrase: on -->\nc\n"
    assert _taken(text) == ["<!-- rephrase: off -->\nb\n<!-- rephrase: on -->\n"]


def test_off_never_switched_on_runs_to_the_end() -> None:
    text = "a\n% rephrase: off\nb\nc"
    assert _taken(text) == ["% rephrase: off\nb\nc"]


def test_ignore_next_line_takes_the_switch_and_the_next_line_only() -> None:
    text = "a\n# rephrase: ignore-next-line\nb\nc\n"
    assert _taken(text) == ["# rephrase: ignore-next-line\nb\n"]


@pytest.mark.parametrize(
    "line",
    [
        "<!-- rephrase: off -->", "% rephrase: off", "# rephrase: off", ".. rephrase: off",
        "// rephrase: off", "/* rephrase: off */", "{/* rephrase: off */}", "-- rephrase: off",
        "; rephrase: off", "  <!--rephrase:off-->",
    ],
)
def test_every_comment_syntax(line: str) -> None:
    assert _taken(f"a\n{line}\nb\r\n") == [f"{line}\nb\r\n"]


@pytest.mark.parametrize(
    "text",
    [
        "The switch rephrase: off in a sentence is prose.\n",
        "```toml\n# rephrase: off\n```\nprose\n",  # an example in a code fence
        "<!-- rephrase: offside -->\n",
    ],
)
def test_what_is_not_a_switch(text: str) -> None:
    assert switched_off(text) == []


def test_on_without_off_takes_only_its_own_line() -> None:
    assert _taken("a\n# rephrase: on\nb\n") == ["# rephrase: on\n"]


def test_prose_in_a_switched_off_region_is_no_block() -> None:
    text = (
        "Teh first.\n\n<!-- rephrase: off -->\nTeh second paragraph\nwraps here.\n"
        "<!-- rephrase: on -->\n\nTeh third.\n"
        "<!-- rephrase: ignore-next-line -->\nTeh fourth.\n"
    )
    kept = without_directives(text, prose_blocks(text, "markdown"))
    assert [text[b.start : b.end] for b in kept] == ["Teh first.", "Teh third."]


@pytest.mark.parametrize(
    ("language_id", "expected"),
    [
        ("markdown", "<!-- rephrase: off -->\n"),
        ("latex", "% rephrase: off\n"),
        ("restructuredtext", ".. rephrase: off\n"),
        ("python", "# rephrase: off\n"),
        ("plaintext", "# rephrase: off\n"),
    ],
)
def test_comment_lines_are_switches_again(language_id: str, expected: str) -> None:
    line = comment_line(language_id, "off")
    assert line == expected
    assert switched_off(line + "x\n") == [(0, len(line) + 2)]
