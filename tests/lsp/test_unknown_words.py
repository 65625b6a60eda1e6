"""The ``unknown-word`` diagnostic over the real protocol: its severity, its quick fixes
(suggestions, the add-word fixes, turning it off), and that nothing applies it unasked."""

from __future__ import annotations

import tomllib

import pytest
from lsprotocol import types

from .conftest import Editor
from .review_support import PULL, PUSH, covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = "I recieved the wurd from the team, and it was was clear to everyone.\n"


def by_title(actions: list[types.CodeAction]) -> dict[str, types.CodeAction]:
    return {a.title: a for a in actions}


async def reviewed(editor: Editor, uri: str, count: int = 3) -> list[types.Diagnostic]:
    version = editor.version(uri)
    return await editor.diagnostics(
        uri, lambda d: len(d) >= count and all(x.data["version"] == version for x in d)
    )


@pytest.mark.profiles(PUSH, PULL)
async def test_an_unknown_word_is_a_hint_with_its_fixes(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await reviewed(editor, uri)
    wurd = next(d for d in found if d.code == "unknown-word")
    assert covered(TEXT, wurd.range) == "wurd"
    assert wurd.severity == types.DiagnosticSeverity.Hint
    assert wurd.message == "wurd: unknown word (word, ward, turd?)"
    assert wurd.data["suggestions"] == ["word", "ward", "turd"]
    others = [d for d in found if d.code != "unknown-word"]
    assert {d.severity for d in others} == {types.DiagnosticSeverity.Information}
    actions = by_title(await editor.actions(uri, wurd.range, [wurd], only=["quickfix"]))
    assert list(actions)[:3] == [
        "Replace with ‘word’",
        "Replace with ‘ward’",
        "Replace with ‘turd’",
    ]
    assert not any(a.is_preferred for a in actions.values())
    for title in (
        "Add ‘wurd’ to the project's words",
        "Add ‘wurd’ to my words",
        "Ignore this paragraph",
        "Turn off ‘unknown-word’ in this project",
    ):
        assert actions[title].kind == types.CodeActionKind.QuickFix
    assert not [t for t in actions if t.startswith("Fix all ‘unknown-word’")]
    await editor.run_action(actions["Replace with ‘word’"])
    assert editor.text(uri) == TEXT.replace("wurd", "word")


@pytest.mark.profiles(PUSH)
async def test_fix_all_and_improve_leave_an_unknown_word_alone(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    await reviewed(editor, uri)
    fix_all = await editor.actions(
        uri, types.Range(types.Position(0, 0), types.Position(1, 0)), only=["source.fixAll"]
    )
    await editor.run_action(fix_all[0])
    fixed = "I received the wurd from the team, and it was clear to everyone.\n"
    assert editor.text(uri) == fixed
    # the hint stays, and fix-all has nothing left to do
    found = await reviewed(editor, uri, 1)
    assert [d.code for d in found] == ["unknown-word"]
    assert (
        await editor.actions(
            uri, types.Range(types.Position(0, 0), types.Position(1, 0)), only=["source.fixAll"]
        )
        == []
    )
    other = editor.open("b.md", TEXT)
    result = await editor.command("rephrase.improve", other)
    assert result["applied"] is True
    assert editor.text(other) == fixed


@pytest.mark.profiles(PUSH)
@pytest.mark.editor_settings({"unknownWordSeverity": "warning"})
async def test_unknown_word_severity_setting(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await reviewed(editor, uri)
    wurd = next(d for d in found if d.code == "unknown-word")
    assert wurd.severity == types.DiagnosticSeverity.Warning


@pytest.mark.profiles(PUSH)
async def test_turn_off_unknown_words_in_this_project(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await reviewed(editor, uri)
    wurd = next(d for d in found if d.code == "unknown-word")
    actions = by_title(await editor.actions(uri, wurd.range, [wurd]))
    await editor.run_action(actions["Turn off ‘unknown-word’ in this project"])
    written = tomllib.loads((editor.root / ".rephrase.toml").read_text("utf-8"))
    assert written == {"disabledRules": ["unknown-word"]}
    after = await editor.diagnostics(uri, lambda d: len(d) == 2)
    assert "unknown-word" not in [d.code for d in after]


@pytest.mark.profiles(PUSH)
async def test_a_listed_word_gets_no_hint_with_the_case_rules(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text('words = ["Wurd"]\n', "utf-8")
    text = "We use Wurd’s tools, and the team likes Wurd' style, not wurd.\n"
    uri = editor.open("a.md", text)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert [(covered(text, d.range), d.code) for d in found] == [("wurd", "unknown-word")]
    assert found[0].data["suggestions"][0] == "Wurd"
    actions = by_title(await editor.actions(uri, found[0].range, found))
    await editor.run_action(actions["Add ‘wurd’ to the project's words"])
    assert tomllib.loads((editor.root / ".rephrase.toml").read_text("utf-8"))["words"] == [
        "Wurd",
        "wurd",
    ]
    assert await editor.diagnostics(uri, lambda d: not d) == []


@pytest.mark.profiles(PUSH)
async def test_hover_explains_an_unknown_word(editor: Editor) -> None:
    uri = editor.open("a.md", TEXT)
    found = await reviewed(editor, uri)
    wurd = next(d for d in found if d.code == "unknown-word")
    hover = await editor.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=wurd.range.start
        )
    )
    assert hover is not None
    contents = hover.contents
    value = contents.value if isinstance(contents, types.MarkupContent) else str(contents)
    assert "unknown-word" in value and "no dictionary" in value
    assert 'disabledRules = ["unknown-word"]' in value and "Add ‘wurd’ to my words" in value


@pytest.mark.profiles(PUSH)
async def test_a_sentences_first_word_gets_a_hint_and_names_and_code_words_do_not(
    editor: Editor,
) -> None:
    # "Wiich" starts a sentence and no web page has it: a slip, not a name; "Frobnicator"
    # inside a sentence is a name, and "dict's" is the possessive of a word written in code
    text = (
        "We stayed in. Wiich way was it? Ask the Frobnicator team, as `dict` gives dict's keys.\n"
    )
    uri = editor.open("a.md", text)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 1)
    assert [(covered(text, d.range), d.code) for d in found] == [("Wiich", "unknown-word")]
    assert found[0].severity == types.DiagnosticSeverity.Hint
    assert found[0].data["suggestions"] == ["Which", "Witch", "Winch"]
    actions = by_title(await editor.actions(uri, found[0].range, found, only=["quickfix"]))
    await editor.run_action(actions["Replace with ‘Which’"])
    assert editor.text(uri) == text.replace("Wiich", "Which")
    assert await editor.diagnostics(uri, lambda d: not d) == []
