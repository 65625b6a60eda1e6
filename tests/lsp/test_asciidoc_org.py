"""AsciiDoc and Org over the real protocol, with the embedded offline service: the server reads
them by file extension and by the editor's language id; review diagnostics, **Improve
document** and **Correct document** fix a slip in prose and leave the same slip in code,
macros, link targets and math; the switches work in each format's comment syntax, and **Ignore
this paragraph** writes them there."""

from __future__ import annotations

import pytest

from .conftest import Editor
from .review_support import PULL, PUSH, covered
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

# The slip "a ecosystem": in prose, and inside code, a macro, a link target and math.
ASCIIDOC = (
    "= Ecosystem notes\n"
    ":url-home: https://example.org/a-ecosystem\n\n"
    "With Asciidoctor you get access to a ecosystem of extensions, with `a ecosystem` and\n"
    "kbd:[a ecosystem], link:https://example.org/a-ecosystem[the page] and stem:[a ecosystem].\n\n"
    "[source,ruby]\n----\nputs 'a ecosystem'\n----\n"
)
ORG = (
    "#+TITLE: Ecosystem notes a ecosystem\n\n"
    "* Notes\n"
    "With Asciidoctor you get access to a ecosystem of extensions, with ~a ecosystem~ and\n"
    "=a ecosystem=, [[https://example.org/a ecosystem][the page]] and $a ecosystem$.\n\n"
    "#+BEGIN_SRC ruby\nputs 'a ecosystem'\n#+END_SRC\n"
)
FORMATS = [
    pytest.param(ASCIIDOC, "asciidoc", ".adoc", id="asciidoc"),
    pytest.param(ORG, "org", ".org", id="org"),
]
PROSE = ("access to a ecosystem", "access to an ecosystem")


def fixed(text: str) -> str:
    return text.replace(*PROSE)


async def _run_document_action(editor: Editor, uri: str, text: str, title: str) -> str:
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions[title])
    await wait_for(lambda: editor.text(uri) != text)
    return editor.text(uri)


@pytest.mark.parametrize(("text", "language_id", "extension"), FORMATS)
@pytest.mark.parametrize("title", ["Improve document", "Correct document"])
async def test_document_actions_fix_prose_only_by_language_id(
    editor: Editor, text: str, language_id: str, extension: str, title: str
) -> None:
    # no extension: the editor's language id alone says the format
    uri = editor.open(f"notes-{language_id}-{title.split()[0].lower()}", text, language_id)
    assert await _run_document_action(editor, uri, text, title) == fixed(text)


@pytest.mark.parametrize(("text", "language_id", "extension"), FORMATS)
async def test_improve_document_by_extension(
    editor: Editor, text: str, language_id: str, extension: str
) -> None:
    # a generic language id: the file's extension says the format
    uri = editor.open(f"notes-plain{extension}", text, "plaintext")
    assert await _run_document_action(editor, uri, text, "Improve document") == fixed(text)


@pytest.mark.profiles(PUSH, PULL)
@pytest.mark.parametrize(("text", "language_id", "extension"), FORMATS)
async def test_review_diagnostics_only_in_prose(
    editor: Editor, text: str, language_id: str, extension: str
) -> None:
    uri = editor.open(f"review{extension}", text, language_id)
    found = await editor.diagnostics(uri, lambda d: bool(d))
    at = text.index("a ecosystem of")
    assert found, "the slip in prose is reported"
    for diagnostic in found:
        start = text.index(covered(text, diagnostic.range), at - 5)
        assert at - 5 <= start < at + len("a ecosystem"), covered(text, diagnostic.range)


SWITCHED = {
    "asciidoc": (
        "Their reply came late, and it said nothing of the plans we made last spring.\n\n"
        "// rephrase: off\nThier reply was short, I beleive.\n// rephrase: on\n\n"
        "// rephrase: ignore-next-line\nSo the end came untill now.\n\n"
        "I recieved the letter.\n"
    ),
    "org": (
        "Their reply came late, and it said nothing of the plans we made last spring.\n\n"
        "# rephrase: off\nThier reply was short, I beleive.\n# rephrase: on\n\n"
        "# rephrase: ignore-next-line\nSo the end came untill now.\n\n"
        "I recieved the letter.\n"
    ),
}


@pytest.mark.profiles(PUSH, PULL)
@pytest.mark.parametrize("language_id", ["asciidoc", "org"])
async def test_switches_in_the_formats_comments(editor: Editor, language_id: str) -> None:
    text = SWITCHED[language_id]
    uri = editor.open(f"switches.{'adoc' if language_id == 'asciidoc' else 'org'}", text)
    found = await editor.diagnostics(uri, lambda d: bool(d))
    assert [covered(text, d.range) for d in found] == ["recieved"]


@pytest.mark.profiles(PUSH)
@pytest.mark.parametrize(("language_id", "comment"), [("asciidoc", "//"), ("org", "#")])
async def test_ignore_this_paragraph_writes_the_formats_comments(
    editor: Editor, language_id: str, comment: str
) -> None:
    late = "Thier reply came late, and it said nothing of the plans we made last spring.\n"
    text = f"I recieved teh letter.\n\n{late}"
    uri = editor.open(f"ignore-{language_id}", text, language_id)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 3)
    teh = next(d for d in found if covered(text, d.range) == "teh")
    actions = by_title(await editor.actions(uri, teh.range, [teh]))
    await editor.run_action(actions["Ignore this paragraph"])
    assert editor.text(uri) == (
        f"{comment} rephrase: off\nI recieved teh letter.\n{comment} rephrase: on\n\n{late}"
    )
    after = await editor.diagnostics(
        uri, lambda d: bool(d) and all(x.data["version"] == 2 for x in d)
    )
    assert [covered(editor.text(uri), d.range) for d in after] == ["Thier"]


@pytest.mark.profiles(PUSH)
async def test_org_text_after_a_block_never_closed_is_reviewed(editor: Editor) -> None:
    # the writer has typed the begin line of a source block and not yet its end line: Org reads
    # that line as an ordinary one, and the paragraphs after it are still prose
    text = (
        "* Notes\n"
        "I recieved the letter this morning.\n\n"
        "#+BEGIN_SRC ruby\n\n"
        "Thier reply came late, and it said nothing of the plans we made last spring.\n"
    )
    uri = editor.open("unclosed.org", text, "org")
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [covered(text, d.range) for d in found] == ["recieved", "Thier"]
