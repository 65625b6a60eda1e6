"""What writers saw wrong in editors, through the real server: the project file's end after a
rewrite, the document's language after a partial conversion, and where log lines go."""

from __future__ import annotations

import asyncio

import pytest

from rephrase_ls.offline.engine import detect_variant

from .conftest import Editor, every_profile
from .test_actions import actions_when_ready, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

AMERICAN = (
    "We need to organize the colors of this center before the meeting, and my favorite "
    "neighbor will analyze the catalog."
)
SECOND = "The color of the last page is fine."


@every_profile
async def test_a_tone_replacing_a_style_leaves_no_blank_line_at_the_end(editor: Editor) -> None:
    uri = editor.open("a.md", AMERICAN + "\n")
    toml = editor.root / ".rephrase.toml"
    # The file as Neovim leaves it after creating it: the new buffer's empty line is kept.
    toml.write_text('# mine\nwritingStyle = "business"\n\n', encoding="utf-8")
    result = await editor.command("rephrase.setTone", uri, "friendly")
    assert result["applied"] is True
    assert toml.read_text(encoding="utf-8") == '# mine\ntone = "friendly"\n'
    # Removing the last key leaves the comment, still with one final line break.
    await editor.command("rephrase.setTone", uri, "default")
    assert toml.read_text(encoding="utf-8") == "# mine\n"


async def test_converting_one_paragraph_does_not_change_the_documents_language(
    editor: Editor,
) -> None:
    text = f"{AMERICAN}\n\n{SECOND}\n"
    uri = editor.open("doc.md", text)
    before = await editor.command("rephrase.listStyles", uri)
    assert (before["language"], before["languageSource"]) == ("en-US", "detected")
    actions = await actions_when_ready(editor, uri, (0, 0), (0, 0))
    await editor.run_action(actions["Convert to en-GB"])
    await wait_for(lambda: editor.text(uri) != text)
    converted = editor.text(uri)
    assert "colours" in converted and SECOND in converted
    # The text alone now reads as British: the test means something.
    assert detect_variant(converted, "en") == "en-GB"
    after = await editor.command("rephrase.listStyles", uri)
    assert (after["language"], after["languageSource"]) == ("en-US", "detected")
    second = await actions_when_ready(editor, uri, (2, 0), (2, 0))
    assert "Convert to en-GB" in second and "Convert to en-US" not in second, sorted(second)
    # "Improve" on the American paragraph keeps it American.
    await editor.run_action(second["Improve"])
    await asyncio.sleep(0.2)
    assert "color" in editor.text(uri).split("\n\n")[1]


async def test_converting_the_whole_document_changes_its_language(editor: Editor) -> None:
    text = f"{AMERICAN}\n\n{SECOND}\n"
    uri = editor.open("doc.md", text)
    actions = await actions_when_ready(editor, uri, (0, 0), (0, 0))
    await editor.run_action(actions["Convert to en-GB"])
    await wait_for(lambda: editor.text(uri) != text)
    result = await editor.command("rephrase.improve", uri, None, {"targetLang": "en-GB"})
    assert result["applied"] is True
    after = await editor.command("rephrase.listStyles", uri)
    assert (after["language"], after["languageSource"]) == ("en-GB", "detected")


async def test_converting_every_paragraph_by_a_range_changes_the_documents_language(
    editor: Editor,
) -> None:
    text = f"{AMERICAN}\n\n{SECOND}\n"
    uri = editor.open("doc.md", text)
    actions = await actions_when_ready(editor, uri, (0, 0), (2, len(SECOND)))
    await editor.run_action(actions["Convert to en-GB"])
    await wait_for(lambda: editor.text(uri) != text)
    after = await editor.command("rephrase.listStyles", uri)
    assert (after["language"], after["languageSource"]) == ("en-GB", "detected")


async def test_a_misspelled_key_in_the_project_file_is_shown_once(editor: Editor) -> None:
    """``langauge = "en-GB"`` was dropped without a word: the writer is told once
    (window/showMessage, as every settings warning), with the file, the key and the key meant."""
    from lsprotocol import types

    toml = editor.root / ".rephrase.toml"
    toml.write_text('langauge = "en-GB"\n', encoding="utf-8")
    expected = f"rephrase: {toml}: unknown key 'langauge' is ignored; did you mean 'language'?"

    def shown() -> list[str]:
        return [
            m.message
            for m in editor.client.messages
            if m.type == types.MessageType.Warning and m.message == expected
        ]

    first = editor.open("one.md", AMERICAN + "\n")
    await editor.command("rephrase.listStyles", first)
    await wait_for(lambda: len(shown()) == 1)
    second = editor.open("two.md", SECOND + "\n")
    await editor.command("rephrase.listStyles", second)
    await actions_when_ready(editor, second, (0, 0), (0, 0))
    assert len(shown()) == 1
