"""Code actions end to end: list → resolve (or command) → apply → the buffer is exactly right."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from rephrase_ls.offline.engine import improve as engine_improve

from .conftest import Editor, every_profile

pytestmark = pytest.mark.asyncio(loop_scope="session")


def by_title(actions: list[types.CodeAction]) -> dict[str, types.CodeAction]:
    return {a.title: a for a in actions}


async def wait_for(predicate, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.05)


async def actions_when_ready(
    editor: Editor, uri: str, start, end, only=None
) -> dict[str, types.CodeAction]:
    """Code actions once the server has its capability list (loaded in the background)."""
    for _ in range(100):
        actions = by_title(await editor.code_actions(uri, start, end, only))
        if any(t.startswith("Improve: ") for t in actions):
            return actions
        await asyncio.sleep(0.05)
    return actions


@every_profile
async def test_improve_selection_changes_only_that_paragraph(editor: Editor) -> None:
    first = "this is the the test.  it works fine , really."
    second = "Another paragraph that stays as it was."
    uri = editor.open("notes.md", f"# Notes\n\n{first}\n\n{second}\n")
    actions = await actions_when_ready(editor, uri, (2, 0), (2, len(first)))
    assert "Improve" in actions
    assert actions["Improve"].kind == types.CodeActionKind.RefactorRewrite
    if editor.profile == "emacs":
        assert actions["Improve"].command is not None  # no resolveSupport: the command path
    else:
        assert actions["Improve"].edit is None  # the edit is computed lazily
    await editor.run_action(actions["Improve"])
    expected = engine_improve(first, "en-us")
    assert expected != first
    await wait_for(lambda: editor.text(uri) != f"# Notes\n\n{first}\n\n{second}\n")
    assert editor.text(uri) == f"# Notes\n\n{expected}\n\n{second}\n"


async def test_style_tone_and_variant_actions_follow_the_capability_lists(editor: Editor) -> None:
    uri = editor.open("en.md", "We really need to organize the colors of this page quickly.\n")
    actions = await actions_when_ready(editor, uri, (0, 0), (0, 0))
    for name in ("Improve: business", "Improve: casual", "Improve: friendly", "Convert to en-GB"):
        assert name in actions, sorted(actions)
    fr = editor.open("fr.md", "Nous devons organiser les couleurs de cette page rapidement.\n")
    fr_actions = by_title(await editor.code_actions(fr, (0, 0), (0, 0)))
    assert "Improve" in fr_actions
    assert not any(t.startswith("Improve: ") for t in fr_actions), sorted(fr_actions)
    assert not any(t.startswith("Convert to") for t in fr_actions)


async def test_context_only_is_respected(editor: Editor) -> None:
    uri = editor.open("a.md", "this is the the fine.\n")
    source_only = by_title(await editor.code_actions(uri, (0, 0), (0, 4), only=["source"]))
    # source.fixAll.rephrase is a kind of source too (review mode, tests/lsp/test_review_*.py)
    assert list(source_only) == [
        "Correct document",
        "Improve document",
        "Fix all rephrase findings",
        "Review document with the service",
    ]
    quickfix = await editor.code_actions(uri, (0, 0), (0, 4), only=["quickfix"])
    assert quickfix == []


@every_profile
async def test_improve_document_keeps_code_and_structure(editor: Editor) -> None:
    first = "this is the the first paragraph."
    item = "a list item with with a doubled word"
    text = f"# Title\n\n{first}\n\n```python\nx = 1  # the the code\n```\n\n- {item}\n"
    uri = editor.open("doc.md", text)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != text)
    result = editor.text(uri)
    assert engine_improve(first, "en-us") != first
    assert result == (
        f"# Title\n\n{engine_improve(first, 'en-us')}\n\n"
        f"```python\nx = 1  # the the code\n```\n\n- {engine_improve(item, 'en-us')}\n"
    )


@every_profile
async def test_stale_document_is_refused(editor: Editor) -> None:
    text = "this is the the test.\n"
    uri = editor.open("stale.md", text)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 5)))
    editor.set_text(uri, "this is the the test. More typing\n")
    await editor.run_action(actions["Improve"])
    await asyncio.sleep(0.3)
    assert editor.text(uri) == "this is the the test. More typing\n"
    assert any("changed" in m.message for m in editor.client.messages)


async def test_hard_wrapped_list_paragraph_keeps_prefixes_and_breaks(editor: Editor) -> None:
    text = "> this is the the quoted\n> paragraph that wraps\n> over three lines.\n"
    uri = editor.open("quote.md", text)
    actions = by_title(await editor.code_actions(uri, (0, 0), (2, 18)))
    await editor.run_action(actions["Improve"])
    await wait_for(lambda: editor.text(uri) != text)
    assert editor.text(uri) == "> This is the quoted\n> paragraph that wraps\n> over three lines.\n"


@every_profile
async def test_selection_without_prose_offers_no_improvement(editor: Editor) -> None:
    text = "Some prose here.\n\n```\ncode only\n```\n"
    uri = editor.open("code.md", text)
    actions = await editor.code_actions(uri, (3, 0), (3, 9))
    rewrite = [a for a in actions if a.kind == types.CodeActionKind.RefactorRewrite]
    assert [a for a in rewrite if a.disabled is None] == []
    if editor.profile == "visual-studio-code":
        # A client that shows disabled actions is told why there is nothing to improve.
        assert rewrite and rewrite[0].disabled is not None
        assert "No prose" in rewrite[0].disabled.reason


async def test_same_improvement_twice_is_not_billed_twice(editor: Editor) -> None:
    text = "this is the the billed once.\n"
    uri = editor.open("bill.md", text)
    start = (await editor.command("rephrase.usage", uri))["characterCount"]  # earlier tests'
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 5)))
    await editor.run_action(actions["Improve"])
    await wait_for(lambda: editor.text(uri) != text)
    before = (await editor.command("rephrase.usage", uri))["characterCount"]
    assert before > start
    editor.set_text(uri, text)  # the writer undoes the change
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 5)))
    await editor.run_action(actions["Improve"])
    await wait_for(lambda: editor.text(uri) != text)
    after = (await editor.command("rephrase.usage", uri))["characterCount"]
    assert after == before


async def test_a_selection_inside_a_sentence_is_improved_in_context(editor: Editor) -> None:
    text = "this is the the plan and it is a very good plan.\n"
    uri = editor.open("ctx.md", text)
    # "the the plan": the doubled word goes, but "this" outside the selection stays as it is.
    start = text.index("the the")
    actions = by_title(await editor.code_actions(uri, (0, start), (0, start + len("the the plan"))))
    await editor.run_action(actions["Improve"])
    await wait_for(lambda: editor.text(uri) != text)
    assert editor.text(uri) == "this is the plan and it is a very good plan.\n"
    # A fragment in mid-sentence is not taken for a sentence of its own (no capital "It").
    text = editor.text(uri)
    start = text.index("it is a very good")
    actions = by_title(
        await editor.code_actions(uri, (0, start), (0, start + len("it is a very good ")))
    )
    await editor.run_action(actions["Improve"])
    await asyncio.sleep(0.5)
    assert editor.text(uri) == "this is the plan and it is a very good plan.\n"
