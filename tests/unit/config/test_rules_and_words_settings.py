"""``disabledRules``, ``enabledRules``, per-language ``words`` and the word files: parsing,
layering (each source adds), and editing the lists in a project file."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from rephrase_ls.config import project_file, user_config, word_files
from rephrase_ls.config.per_language import applies
from rephrase_ls.config.settings import (
    Settings,
    merge,
    rules_off,
    rules_on,
    to_camel_dict,
    words_for,
)


def test_a_list_is_every_language_a_table_per_language() -> None:
    s, warnings = merge(
        Settings(),
        {"disabledRules": {"de": ["capitalisation"], "*": ["spacing"]}, "words": ["zlib"]},
        "user",
    )
    assert warnings == []
    assert rules_off(s, "de") == {"capitalisation", "spacing"}
    assert rules_off(s, "de-ch") == {"capitalisation", "spacing"}
    assert rules_off(s, "en-us") == {"spacing"}
    assert rules_off(s, None) == {"spacing"}
    s, _ = merge(s, {"words": {"en-GB": ["colour"], "de": ["Haus"]}}, "project")
    assert words_for(s, "en-gb") == {"zlib", "colour"}
    assert words_for(s, "en-us") == {"zlib"}
    assert words_for(s, "de") == {"zlib", "Haus"}


def test_each_source_adds_to_the_lists() -> None:
    s, _ = merge(Settings(), {"disabledRules": ["spacing"], "words": ["a"]}, "user")
    s, _ = merge(s, {"disabledRules": ["variant"], "words": ["b"]}, "project")
    assert rules_off(s, "en-us") == {"spacing", "variant"}
    assert s.words == ("a", "b")
    assert to_camel_dict(s)["disabledRules"] == ["spacing", "variant"]


def test_disabled_wins_over_enabled() -> None:
    raw = {"enabledRules": ["spacing"], "disabledRules": {"de": ["spacing"]}}
    s, _ = merge(Settings(), raw, "x")
    assert rules_on(s, "en-us") == {"spacing"}
    assert rules_on(s, "de") == frozenset()


@pytest.mark.parametrize(
    ("value", "says"),
    [
        (["spelin"], "unknown rule 'spelin'"),
        ("spacing", "expected a list"),
        ({"deutsch!": ["spacing"]}, "is not a language code"),
        ({"de": "spacing"}, "de: expected a list"),
    ],
)
def test_bad_rule_values_are_reported_and_ignored(value: object, says: str) -> None:
    s, warnings = merge(Settings(), {"disabledRules": value}, "project")
    assert s.disabled_rules == ()
    assert len(warnings) == 1 and says in str(warnings[0])


def test_language_keys() -> None:
    assert applies("", None) and applies("en", "en-us") and applies("en-gb", "en-gb")
    assert not applies("en-gb", "en-us") and not applies("de", "en") and not applies("de", None)


def test_user_words_file_and_tables_in_the_user_config(tmp_path: Path) -> None:
    folder = tmp_path / "rephrase-ls"
    folder.mkdir()
    (folder / "config.toml").write_text(
        'words = { "*" = ["zlib"], de = ["Haus"] }\ndisabledRules = { de = ["variant"] }\n',
        "utf-8",
    )
    (folder / "words.txt").write_text("\ufeff# mine\nKubernetes\r\n\r\nteh\n", "utf-8")
    user = user_config.read({"XDG_CONFIG_HOME": str(tmp_path)})
    assert user.word_list == ("Kubernetes", "teh")
    s, warnings = user_config.compose(user=user, folder=None, environ={})
    assert warnings == []
    assert words_for(s, "de") == {"zlib", "Haus", "Kubernetes", "teh"}
    assert rules_off(s, "de") == {"variant"}


def test_word_files_inside_the_project_only(tmp_path: Path) -> None:
    project = tmp_path / "p"
    (project / "docs").mkdir(parents=True)
    (project / "docs" / "wordlist.txt").write_text("teh\n", "utf-8")
    (tmp_path / "secret.txt").write_text("outside\n", "utf-8")
    os.symlink(tmp_path / "secret.txt", project / "link.txt")
    values = {"wordFiles": ["docs/wordlist.txt", "link.txt", "../secret.txt", "missing.txt"]}
    s, warnings = user_config.compose(
        user=user_config.UserConfig(tmp_path / "none.toml"),
        folder=project,
        project=values,
        environ={},
    )
    assert s.words == ("teh",)
    said = [str(w) for w in warnings]
    assert sum("leads outside the project" in w for w in said) == 2
    assert any("missing.txt does not exist" in w for w in said)
    _, warnings = user_config.compose(
        user=user_config.UserConfig(tmp_path / "none.toml"),
        folder=project,
        project={"wordFiles": "docs/wordlist.txt"},
        environ={},
    )
    assert any("must be a list" in str(w) for w in warnings)


def test_with_word_keeps_the_file_as_it_is() -> None:
    assert word_files.with_word(None, "teh") == "teh\n"
    assert word_files.with_word("a", "teh") == "a\nteh\n"
    assert word_files.with_word("a\r\n", "teh") == "a\r\nteh\r\n"
    assert word_files.with_word("teh\n", "teh") == "teh\n"
    assert word_files.with_word("Teh\n", "teh") == "Teh\nteh\n"  # case counts in a word list


def test_add_to_a_list_or_a_table() -> None:
    text = '# c\ndisabledRules = { de = ["capitalisation"] }\n'
    out = project_file.add_to_list(text, "disabledRules", "spacing")
    assert out.startswith("# c\n")
    assert tomllib.loads(out)["disabledRules"] == {"de": ["capitalisation"], "*": ["spacing"]}
    assert project_file.add_to_list(out, "disabledRules", "spacing") == out
    out = project_file.add_to_list('words = ["a"]\n', "disabledRules", "variant")
    assert tomllib.loads(out) == {"words": ["a"], "disabledRules": ["variant"]}
    with pytest.raises(project_file.WordsNotAList):
        project_file.add_to_list("disabledRules = { de = 3 }\n", "disabledRules", "spacing")
