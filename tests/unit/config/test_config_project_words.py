"""``project_file.add_word``: one word added to ``words``, the rest of the file as it was."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rephrase_ls.config.project_file import CannotEdit, WordsNotAList, add_word, set_key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, 'words = ["teh"]\n'),
        ("", 'words = ["teh"]\n'),
        ('# mine\nlanguage = "de"\n', '# mine\nlanguage = "de"\nwords = ["teh"]\n'),
        (
            'tone = "x"\n\n[table]\nwords = ["z"]\n',
            'tone = "x"\nwords = ["teh"]\n\n[table]\nwords = ["z"]\n',
        ),
        ("words = []\n", 'words = ["teh"]\n'),
        ('words = ["a"]  # ours\n', 'words = ["a", "teh"]  # ours\n'),
        ('words = ["a",]\n', 'words = ["a", "teh"]\n'),
        ('words = ["]x"]\n', 'words = ["]x", "teh"]\n'),
        (
            'words = [\n    "a",  # a name\n    "b"\n]\ntone = "x"\n',
            'words = [\n    "a",  # a name\n    "b",\n    "teh"\n]\ntone = "x"\n',
        ),
        # the comment stays, after the word it was about
        ('words = [\n  "a" # why\n]\n', 'words = [\n  "a", # why\n  "teh"\n]\n'),
    ],
)
def test_add_word(text: str | None, expected: str) -> None:
    out = add_word(text, "teh")
    assert out == expected
    assert tomllib.loads(out)["words"][-1] == "teh"


def test_a_word_already_there_changes_nothing_in_another_case_it_is_added() -> None:
    """Listed words keep their case (a listed ``Kubernetes`` does not accept ``kubernetes``:
    the case rules of the unknown-word check)."""
    text = 'words = ["teh"]  # kept\n'
    assert add_word(text, "teh") == text
    assert tomllib.loads(add_word('words = ["Teh"]\n', "teh"))["words"] == ["Teh", "teh"]


def test_words_that_are_not_a_list_are_refused() -> None:
    with pytest.raises(WordsNotAList):
        add_word('words = "teh"\n', "x")


def test_quotes_and_backslashes_are_escaped() -> None:
    out = add_word('words = ["a"]\n', 'o"k\\')
    assert tomllib.loads(out)["words"] == ["a", 'o"k\\']


# Pieces of TOML that a project file may be laid out with; hypothesis strings them together and
# keeps what parses.
_PIECES = [
    "words = ",
    "'words' = ",
    '"language" = ',
    "language = ",
    "tone = ",
    "[",
    "]",
    '"a"',
    "'b'",
    ", ",
    ",",
    "# c\n",
    "\n",
    "\r\n",
    '"""\nwords = [ "x\n"""',
    "'''\nlanguage = 'fr'\n'''",
    '"\\""',
    "'\"'",
    '"#"',
    '"]"',
    "'['",
    "[t]\n",
    "[[a]]\n",
    "x.y = 1\n",
    "{ k = 1 }",
    " ",
]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(st.sampled_from(_PIECES), min_size=2, max_size=14).map("".join))
def test_any_layout_stays_valid_with_only_the_key_changed(text: str) -> None:
    """Whatever the layout: the result parses to the file with that one key changed, or the
    edit is refused (and the caller leaves the file as it is)."""
    try:
        before = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        assume(False)
        return
    try:
        out = add_word(text, "teh")
    except CannotEdit:
        pass
    else:
        words = before.get("words", [])
        assert tomllib.loads(out) == {**before, "words": [*words, "teh"]} or (
            "teh" in [w.lower() for w in words] and out == text
        )
    try:
        out = set_key(text, "language", "en-GB")
    except CannotEdit:
        return
    assert tomllib.loads(out) == {**before, "language": "en-GB"}
