"""``rephrase-ls improve`` on Japanese, Korean and Chinese files in a real process: against a
loopback service as its documentation describes it today (``--as-documented``: ``ja``, ``ko``,
``zh`` are targets), and on the embedded offline service, which has no rules for them."""

from __future__ import annotations

from pathlib import Path

from . import offline_service
from .test_cli import run

#: A Japanese document whose heading is kanji alone (Chinese, read on its own).
JAPANESE = "# 説明\n\nこれはテストの文章です。今日はいい天気ですね。私は学校に行きました。\n"


def _project(tmp_path: Path, url: str | None = None, **files: str) -> dict[str, str]:
    """``files`` written in ``tmp_path``; with ``url``, the user config file names that service
    (with the real service's header scheme) and a key is given. Returns the environment."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    if url is not None:
        config = tmp_path / "config" / "rephrase-ls"
        config.mkdir(parents=True)
        (config / "config.toml").write_text(
            f'serverUrl = "{url}"\nauthScheme = "DeepL-Auth-Key"\n', encoding="utf-8"
        )
        env.update(REPHRASE_API_KEY="k-secret", XDG_CONFIG_HOME=str(tmp_path / "config"))
    return env


def test_a_japanese_file_with_a_kanji_heading_is_improved(tmp_path: Path) -> None:
    with offline_service("--workers", "0", "--as-documented", "--key", "k-secret") as url:
        env = _project(tmp_path, url, **{"ja.md": JAPANESE})
        result = run("improve", "-v", "--write", "ja.md", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert "improved as ja (detected)" in result.stderr
    assert "not changed" not in result.stderr and "skipped" not in result.stderr
    assert (tmp_path / "ja.md").read_text(encoding="utf-8") == JAPANESE


def test_a_kanji_heading_the_service_refuses_is_left_alone_with_a_note(tmp_path: Path) -> None:
    # The service refuses the first two requests (400): the whole file, then the heading sent
    # apart; the Japanese paragraph still goes, and only the heading is left as it is.
    flags = ("--workers", "0", "--as-documented", "--key", "k-secret", "--fail", "400:2")
    with offline_service(*flags) as url:
        env = _project(tmp_path, url, **{"ja.md": JAPANESE})
        result = run("improve", "-v", "--write", "ja.md", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert "1 paragraph skipped: the service read it as another language" in result.stderr
    assert "paragraph 1 (line 1, “説明”) was left as it is: the service refused it as ja" in (
        result.stderr
    )
    assert "not changed" not in result.stderr
    assert (tmp_path / "ja.md").read_text(encoding="utf-8") == JAPANESE


def test_the_embedded_service_says_it_cannot_check_japanese_korean_or_chinese(
    tmp_path: Path,
) -> None:
    korean = "이것은 테스트 문장입니다. 오늘은 날씨가 좋네요.\n"
    env = _project(tmp_path, **{"ja.md": JAPANESE, "ko.md": korean})
    detected = run("improve", "-v", "--check", "ja.md", cwd=tmp_path, env=env)
    assert detected.returncode == 0, detected.stderr
    assert "improved as" not in detected.stderr
    assert (
        "rephrase-ls: ja.md: the embedded offline service has no rules for Japanese (ja): "
        "nothing was checked. The service improves it: give your API key in the environment "
        "variable REPHRASE_API_KEY." in detected.stderr
    )
    # --language takes the languages the service improves, though the embedded one cannot.
    for flag, name in (("ja", "Japanese (ja)"), ("ko", "Korean (ko)"), ("zh", "Chinese")):
        given = run("improve", "--language", flag, "ko.md", cwd=tmp_path, env=env)
        assert given.returncode == 0, given.stderr
        assert f"has no rules for {name}" in given.stderr and "nothing was checked" in (
            given.stderr
        )
    unknown = run("improve", "--language", "xx", "ko.md", cwd=tmp_path, env=env)
    assert unknown.returncode == 2 and "unknown language 'xx'" in unknown.stderr
    assert (tmp_path / "ja.md").read_text(encoding="utf-8") == JAPANESE


def test_simplified_chinese_by_either_of_its_codes(tmp_path: Path) -> None:
    chinese = "这是一个测试文本。今天天气很好。\n"
    with offline_service("--workers", "0", "--as-documented", "--key", "k-secret") as url:
        env = _project(tmp_path, url, **{"zh.md": chinese})
        for code in ("zh-Hans", "zh-hans", "zh"):
            result = run("improve", "-v", "--language", code, "zh.md", cwd=tmp_path, env=env)
            assert result.returncode == 0, result.stderr
            assert "improved as zh" in result.stderr and "not changed" not in result.stderr
        # Traditional Chinese is not among the languages the service improves.
        hant = run("improve", "--language", "zh-Hant", "zh.md", cwd=tmp_path, env=env)
        assert hant.returncode == 2 and "expected one of" in hant.stderr


def test_kanji_headings_refused_together_are_tried_one_by_one(tmp_path: Path) -> None:
    # Refused: the whole file, both headings together, then the first heading alone; the
    # second heading, alone, and the Japanese paragraphs go.
    text = JAPANESE + "\n## 設定方法\n\n設定ファイルを開いて、値を変えてください。\n"
    flags = ("--workers", "0", "--as-documented", "--key", "k-secret", "--fail", "400:3")
    with offline_service(*flags) as url:
        env = _project(tmp_path, url, **{"ja.md": text})
        result = run("improve", "-v", "ja.md", cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    assert "1 paragraph skipped: the service read it as another language" in result.stderr
    assert "(line 1, “説明”) was left as it is" in result.stderr
    assert "設定方法" not in result.stderr and "not changed" not in result.stderr
