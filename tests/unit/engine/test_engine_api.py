"""The engine's contract: arguments, errors, laziness."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from rephrase_ls.offline.engine import detect_language, improve


@pytest.mark.parametrize("target", ["en-US", "EN-gb", "de", "pt_BR", " fr "])
def test_target_case_and_separator_are_normalised(target: str) -> None:
    assert improve("Radio  Hotel ,Video", target) == "Radio Hotel, Video"


@pytest.mark.parametrize("target", ["", "xx", "en-au", "nl", "zh-hant"])
def test_unsupported_target_is_a_clear_error(target: str) -> None:
    with pytest.raises(ValueError, match="unsupported target language"):
        improve("Hello.", target)


@pytest.mark.parametrize(
    ("target", "text"),
    [("ja", "明日友達に合います。"), ("KO", "문제가 해결됬습니다."), ("zh", "我门今天开会。")],
)
def test_japanese_korean_and_chinese_come_back_unchanged(target: str, text: str) -> None:
    # The engine has no rules for them: it claims no correction it cannot make.
    assert improve(text, target) == text
    with pytest.raises(ValueError):
        improve(text, target, writing_style="simple", tone="friendly")


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        improve(None, "en-us")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        improve("x", None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="together"):
        improve("x", "en-us", writing_style="casual", tone="friendly")
    with pytest.raises(ValueError, match="unknown writing_style"):
        improve("x", "en-us", writing_style="friendly")  # a tone, not a style
    with pytest.raises(ValueError, match="unknown tone"):
        improve("x", "en-us", tone="shouty")


def test_default_and_prefer_values() -> None:
    text = "I do not know."
    assert improve(text, "en-us", writing_style="default") == text
    assert improve(text, "en-us", tone="default") == text
    assert improve(text, "en-us", writing_style="prefer_casual") == "I don't know."


@pytest.mark.parametrize("text", ["", " ", "\n\n", "\t"])
def test_blank_text_comes_back(text: str) -> None:
    assert improve(text, "en-us") == text


def test_import_loads_no_data() -> None:
    code = textwrap.dedent(
        """
        import sys
        import rephrase_ls.offline.engine as engine
        from rephrase_ls.offline.engine import spelling
        from rephrase_ls.text import detect, variants
        assert spelling.load_frequencies.cache_info().currsize == 0
        assert detect._profiles.cache_info().currsize == 0
        assert variants._english_maps.cache_info().currsize == 0
        assert "breame.data.spelling_constants" not in sys.modules
        engine.improve("hello", "fr")
        assert spelling.load_frequencies.cache_info().currsize == 1  # only French
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize(
    "text",
    [
        "a" * 20_000,  # one huge "word": too long to spell-check
        "`" * 10_000,  # unmatched backticks
        "{{" * 10_000,
        "a@" * 10_000,
        "a/" * 10_000,
        "a." * 10_000,
        "Aa. " * 5_000,
    ],
)
def test_pathological_input_is_handled_in_linear_time(text: str) -> None:
    # No timing assertion: a quadratic pattern here would make this test take minutes.
    out = improve(text, "en-us")
    assert len(out) <= len(text) + 10
    assert detect_language(text) is None or isinstance(detect_language(text), str)
