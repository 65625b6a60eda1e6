"""Settings parsing and the project file editor."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rephrase_ls.config import project_file
from rephrase_ls.config.settings import Settings, SettingWarning, merge, to_camel_dict


def test_defaults_and_layering() -> None:
    base, warnings = merge(Settings(), {"language": "de", "actions": ["improve"]}, "editor")
    assert warnings == []
    top, warnings = merge(base, {"language": "en-GB"}, "project")
    assert (top.language, top.actions) == ("en-GB", ("improve",))
    assert top.sources == ("editor", "project")


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("maxConcurrency", 0),
        ("maxConcurrency", 2.5),
        ("maxConcurrency", True),
        ("timeout", "10"),
        ("tier", "gold"),
        ("writingStyle", "shouty"),
        ("tone", "grumpy"),
        ("actions", ["improve", "teleport"]),
        ("englishVariant", "en-AU"),
        ("serverUrl", "http://example.com"),
        ("language", "not a language"),
        ("authScheme", "two words"),
        ("preferFallback", "yes"),
    ],
)
def test_a_bad_value_warns_naming_key_and_value_and_keeps_the_default(
    key: str, value: object
) -> None:
    settings, warnings = merge(Settings(), {key: value}, "editor settings")
    assert len(warnings) == 1
    warning = warnings[0]
    assert isinstance(warning, SettingWarning)
    assert warning.key == key and repr(value) in str(warning)
    assert to_camel_dict(settings)[key] == to_camel_dict(Settings())[key]


def test_style_and_tone_exclude_each_other() -> None:
    settings, warnings = merge(Settings(), {"writingStyle": "business", "tone": "friendly"}, "x")
    assert (settings.writing_style, settings.tone) == ("business", None)
    assert any("exclude" in str(w) for w in warnings)
    # A higher layer's style replaces a lower layer's tone.
    lower, _ = merge(Settings(), {"tone": "friendly"}, "editor")
    upper, _ = merge(lower, {"writingStyle": "casual"}, "project")
    assert (upper.writing_style, upper.tone) == ("casual", None)


@pytest.mark.parametrize(
    "value", ["1BAD", "0d3f1c2a-5b6e-4f70-8a9b-c0d1e2f3a4b5:fx", "k3y with space"]
)
def test_a_bad_api_key_env_is_not_shown(value: str) -> None:
    """``apiKeyEnv`` names the variable; a writer who put the key itself there must not see it
    in a warning, which goes to the editor's log."""
    settings, warnings = merge(Settings(), {"apiKeyEnv": value}, "editor settings")
    assert settings.api_key_env == "REPHRASE_API_KEY"
    [warning] = warnings
    assert value not in str(warning) and "<hidden>" in str(warning)
    assert "not the key itself" in str(warning)


def test_api_key_is_refused_from_project_files_and_never_shown() -> None:
    settings, warnings = merge(Settings(), {"apiKey": "s3cret"}, "p.toml", allow_secrets=False)
    assert settings.api_key is None
    assert warnings and "s3cret" not in str(warnings[0])
    settings, warnings = merge(Settings(), {"apiKey": 42}, "editor")
    assert "42" not in str(warnings[0]) and "<hidden>" in str(warnings[0])
    settings, _ = merge(Settings(), {"apiKey": "s3cret"}, "editor")
    assert "s3cret" not in repr(settings)


def test_loopback_http_is_accepted() -> None:
    settings, warnings = merge(Settings(), {"serverUrl": "http://127.0.0.1:8080/"}, "e")
    assert warnings == [] and settings.server_url == "http://127.0.0.1:8080"


def test_set_key_changes_one_line_and_keeps_the_rest() -> None:
    text = '# settings\nlanguage = "de"  # German docs\ntone = "friendly"\n\n[tool]\nx = 1\n'
    out = project_file.set_key(text, "writingStyle", "business")
    out = project_file.set_key(out, "tone", None)
    expected = '# settings\nlanguage = "de"  # German docs\nwritingStyle = "business"\n'
    assert out == expected + "\n[tool]\nx = 1\n"
    assert project_file.set_key(out, "language", "en-GB").count("language") == 1


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30))
def test_set_key_writes_valid_toml_for_any_value(value: str) -> None:
    out = project_file.set_key('other = 1\n[table]\nk = "v"\n', "language", value)
    parsed = tomllib.loads(out)
    assert parsed["language"] == value
    assert parsed["other"] == 1 and parsed["table"] == {"k": "v"}


def test_parse_reports_bad_toml_instead_of_raising(tmp_path) -> None:
    (tmp_path / ".rephrase.toml").write_text("language = \n", encoding="utf-8")
    parsed = project_file.read(tmp_path)
    assert parsed.values == {} and parsed.error and "not valid TOML" in parsed.error
    # where (the file and line), the line itself, and what to do
    assert parsed.error.startswith(f"{tmp_path / '.rephrase.toml'}:1: not valid TOML: ")
    assert "in 'language ='" in parsed.error and "ignored until it is fixed" in parsed.error


def test_a_file_of_many_unknown_keys_names_a_few_then_counts() -> None:
    # a cloned repository's .rephrase.toml may hold 100,000 keys (its 1 MB limit) or one key
    # of half a megabyte: the warnings stay a few short lines
    from rephrase_ls.config.settings import MAX_UNKNOWN_KEYS, unknown_keys

    warnings = unknown_keys({f"key{i}": 1 for i in range(100_000)}, "x.toml")
    assert len(warnings) == MAX_UNKNOWN_KEYS + 1
    assert warnings[-1] == f"x.toml: {100_000 - MAX_UNKNOWN_KEYS} more unknown keys are ignored"
    (long,) = unknown_keys({"k" * 500_000: 1}, "x.toml")
    assert len(long) < 300
    assert unknown_keys({"langauge": 1}, "x.toml") == [
        "x.toml: unknown key 'langauge' is ignored; did you mean 'language'?"
    ]
