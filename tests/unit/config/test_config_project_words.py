"""``project_file.add_word``: one word added to ``words``, the rest of the file as it was."""

from __future__ import annotations

import tomllib

import pytest

from rephrase_ls.config.project_file import WordsNotAList, add_word


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
            'words = [\n    "a",  # a name\n    "b",\n    "teh",\n]\ntone = "x"\n',
        ),
        ('words = [\n  "a" # why\n]\n', 'words = ["a", "teh"]\n'),
    ],
)
def test_add_word(text: str | None, expected: str) -> None:
    out = add_word(text, "teh")
    assert out == expected
    assert tomllib.loads(out)["words"][-1] == "teh"


def test_a_word_already_there_in_any_case_changes_nothing() -> None:
    text = 'words = ["Teh"]  # kept\n'
    assert add_word(text, "teh") == text


def test_words_that_are_not_a_list_are_refused() -> None:
    with pytest.raises(WordsNotAList):
        add_word('words = "teh"\n', "x")


def test_quotes_and_backslashes_are_escaped() -> None:
    out = add_word('words = ["a"]\n', 'o"k\\')
    assert tomllib.loads(out)["words"] == ["a", 'o"k\\']
