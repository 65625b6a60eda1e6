"""The rephrase.* commands end to end, and the project file they write."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from pygls.exceptions import JsonRpcInvalidParams

from .conftest import Editor, every_profile
from .test_actions import wait_for
from .test_settings_and_faults import _start

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_list_styles_reports_language_and_choices(editor: Editor) -> None:
    uri = editor.open("a.md", "We need to organize the colors of this page before the meeting.\n")
    result = await editor.command("rephrase.listStyles", uri)
    assert result["language"] == "en-US"
    assert result["languageSource"] == "detected"
    assert set(result["writingStyles"]) == {"simple", "business", "academic", "casual"}
    assert set(result["tones"]) == {"enthusiastic", "friendly", "confident", "diplomatic"}
    assert result["current"] == {"writingStyle": None, "tone": None}
    assert "en-GB" in result["targets"] and "de" in result["targets"]
    assert result["backend"] == "offline (embedded)"


async def test_list_styles_for_a_language_without_styles_says_why(editor: Editor) -> None:
    uri = editor.open(
        "fr.md", "Nous devons organiser les couleurs de cette page avant la réunion.\n"
    )
    result = await editor.command("rephrase.listStyles", uri)
    assert result["language"] == "fr"
    assert result["writingStyles"] == [] and result["tones"] == []
    assert result["supported"] is False
    assert result["reason"]


@every_profile
async def test_set_style_writes_the_project_file_and_clears_tone(editor: Editor) -> None:
    uri = editor.open("a.md", "We need to organize the colors of this page before the meeting.\n")
    toml = editor.root / ".rephrase.toml"
    toml.write_text('# my settings\ntone = "friendly"\n', encoding="utf-8")
    result = await editor.command("rephrase.setStyle", uri, "business")
    assert result["applied"] is True
    values = tomllib.loads(toml.read_text(encoding="utf-8"))
    assert values == {"writingStyle": "business"}
    assert toml.read_text(encoding="utf-8").startswith("# my settings\n")
    listed = await editor.command("rephrase.listStyles", uri)
    assert listed["current"] == {"writingStyle": "business", "tone": None}
    await editor.command("rephrase.setTone", uri, "diplomatic")
    values = tomllib.loads(toml.read_text(encoding="utf-8"))
    assert values == {"tone": "diplomatic"}


@every_profile
async def test_set_style_creates_the_project_file(editor: Editor) -> None:
    uri = editor.open("a.md", "We need to organize the colors of this page before the meeting.\n")
    result = await editor.command("rephrase.setStyle", uri, "casual")
    assert result["applied"] is True
    toml = editor.root / ".rephrase.toml"
    await wait_for(toml.exists)
    assert tomllib.loads(toml.read_text(encoding="utf-8")) == {"writingStyle": "casual"}


async def test_set_style_unsupported_for_language_is_invalid_params(editor: Editor) -> None:
    uri = editor.open(
        "fr.md", "Nous devons organiser les couleurs de cette page avant la réunion.\n"
    )
    with pytest.raises(JsonRpcInvalidParams, match="value"):
        await editor.command("rephrase.setStyle", uri, "business")
    assert not (editor.root / ".rephrase.toml").exists()


@pytest.mark.parametrize(
    ("command", "args", "named"),
    [
        ("rephrase.setStyle", ["file:///x.md", "shouty"], "value"),
        ("rephrase.setTone", ["file:///x.md", 3], "value"),
        ("rephrase.listStyles", [], "uri"),
        ("rephrase.pairFeatures", ["translate_text", "de"], "target"),
        ("rephrase.improve", ["file:///not-open.md"], "uri"),
        ("rephrase.improve", [None], "uri"),
        ("rephrase.setLanguage", ["file:///x.md", "xx-YY"], "value"),
    ],
)
async def test_bad_arguments_name_the_argument(
    editor: Editor, command: str, args: list, named: str
) -> None:
    editor.open("x.md", "Some text in English that is long enough to detect.\n")
    with pytest.raises(JsonRpcInvalidParams, match=named):
        await editor.command(command, *args)


async def test_set_language_then_list(editor: Editor) -> None:
    uri = editor.open("a.md", "We need to organize the colors of this page before the meeting.\n")
    await editor.command("rephrase.setLanguage", uri, "en-GB")
    listed = await editor.command("rephrase.listStyles", uri)
    assert listed["language"] == "en-GB"
    assert listed["languageSource"] == "settings"
    assert listed["variants"] == ["en-US"]


async def test_in_document_override_wins(editor: Editor) -> None:
    uri = editor.open("de.md", "---\nlang: de\n---\n\nWe write English here but say German.\n")
    listed = await editor.command("rephrase.listStyles", uri)
    assert listed["language"] == "de"
    assert listed["languageSource"] == "document"


async def test_languages_and_pair_features(editor: Editor) -> None:
    result = await editor.command("rephrase.languages", "write")
    targets = {row["lang"] for row in result["targets"]}
    assert {"de", "en-GB", "en-US", "fr", "pt-BR"} <= targets
    de = next(row for row in result["targets"] if row["lang"] == "de")
    assert "writing_style" in de["features"]
    translate = await editor.command("rephrase.languages", "translate_text")
    assert translate["sources"]
    pair = await editor.command("rephrase.pairFeatures", "translate_text", "en", "de")
    assert "glossary" in pair["features"]  # 4.3: exceptions, else the intersection
    assert "formality" in pair["runtimeFeatures"]  # 4.2: formality is judged on the target


async def test_usage_names_the_backend(tmp_path: Path) -> None:
    """On a server of its own: the shared ones have counted other tests' characters."""
    client, ed = await _start(tmp_path)
    try:
        result = await ed.command("rephrase.usage")
        assert result["backend"] == "offline (embedded)"
        assert result["embedded"] is True
        assert result["characterCount"] == 0
    finally:
        await client.shutdown_session()
        await client.stop()


@every_profile
async def test_improve_command_applies_through_apply_edit(editor: Editor) -> None:
    text = "i think the the colour is nice .\n"
    uri = editor.open("c.md", text)
    result = await editor.command(
        "rephrase.improve",
        uri,
        {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": len(text) - 1}},
        {"targetLang": "en-US"},
    )
    assert result["applied"] is True
    await wait_for(lambda: editor.text(uri) != text)
    assert editor.text(uri).startswith("I think the")
    assert "the the" not in editor.text(uri)


async def test_project_file_key_is_ignored_with_a_warning(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('apiKey = "abc123secret"\n', encoding="utf-8")
    uri = editor.open("a.md", "Some English text that is long enough to be detected well.\n")
    result = await editor.command("rephrase.usage", uri)
    assert result["embedded"] is True
    assert any("apiKey is ignored" in m.message for m in editor.client.messages)
    for message in [*editor.client.messages, *editor.client.log_messages]:
        assert "abc123secret" not in message.message


async def test_more_bad_arguments_and_refusals(editor: Editor) -> None:
    text = "Some English text that is long enough to detect.\n\n```\ncode\n```\n"
    uri = editor.open("x.md", text)
    with pytest.raises(JsonRpcInvalidParams, match="uri"):
        await editor.command("rephrase.listStyles", editor.uri("not-open.md"))
    far = {"start": {"line": 40, "character": 0}, "end": {"line": 41, "character": 0}}
    with pytest.raises(JsonRpcInvalidParams, match="range"):
        await editor.command("rephrase.improve", uri, far)
    with pytest.raises(JsonRpcInvalidParams, match="targetLang"):
        await editor.command(
            "rephrase.improve", uri, None, {"targetLang": "en-GB", "writingStyle": "casual"}
        )
    code = {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 4}}
    result = await editor.command("rephrase.improve", uri, code)
    assert result["applied"] is False and "no prose" in result["reason"]
    assert editor.text(uri) == text


async def test_a_broken_project_file_is_not_edited(editor: Editor) -> None:
    uri = editor.open("a.md", "We need to organize the colors of this page before the meeting.\n")
    toml = editor.root / ".rephrase.toml"
    toml.write_text('tone = "friendly\nbroken = [\n', encoding="utf-8")
    with pytest.raises(JsonRpcInvalidParams, match="not valid TOML"):
        await editor.command("rephrase.setStyle", uri, "business")
    assert toml.read_text(encoding="utf-8") == 'tone = "friendly\nbroken = [\n'
