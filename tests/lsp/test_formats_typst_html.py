"""Typst and HTML over the real protocol, with the embedded offline service: the server reads a
document as Typst or HTML by its languageId (``typst``, ``html``) or, under a generic one, by its
extension; review diagnostics, **Improve document** and **Correct document** fix slips in prose
and leave code, calls, link targets, math, raw text, scripts and the prose the comment switches
(``// rephrase: off``, ``<!-- rephrase: off -->``) take out as they are. (The slips in code are
other words than those in prose: a word the document writes as code is kept in its prose too,
see ``guards.code_words``.)"""

from __future__ import annotations

import pytest

from .conftest import Editor
from .review_support import PULL, PUSH, covered
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

TYPST = (
    '#set text(lang: "en")\n'
    "= Notes\n\n"
    "I recieved the letter.\n\n"
    '#let note = "untill"\n'
    'Call `untill()` on $definately$ and see #link("https://example.org/untill")[the page].\n\n'
    "```\nteh untill\n```\n\n"
    "// rephrase: off\nTheir reply was short, I beleive.\n// rephrase: on\n\n"
    "Thier reply came late.\n"
)
HTML = (
    '<!DOCTYPE html>\n<html lang="en">\n<head><title>untill</title>\n'
    "<script>var untill = 1;</script></head>\n<body>\n"
    "<h1>Notes</h1>\n"
    "<p>I recieved the letter.</p>\n"
    '<p>Call <code>untill()</code> and see <a href="https://example.org/untill">the page'
    "</a>.</p>\n"
    "<pre>teh untill</pre>\n"
    "<!-- rephrase: off -->\n<p>Their reply was short, I beleive.</p>\n<!-- rephrase: on -->\n"
    "<p>Thier reply came late.</p>\n</body>\n</html>\n"
)
FIXED = {"recieved the letter": "received the letter", "Thier": "Their"}

# (name, text, languageId): by the editor's languageId, and by the extension under a generic one
DOCUMENTS = [
    pytest.param("notes.typ", TYPST, "typst", id="typst"),
    pytest.param("notes.typ", TYPST, "plaintext", id="typst-by-extension"),
    pytest.param("page.html", HTML, "html", id="html"),
    pytest.param("page.htm", HTML, "plaintext", id="html-by-extension"),
]


def fixed(text: str) -> str:
    for slip, fix in FIXED.items():
        text = text.replace(slip, fix)
    return text


@pytest.mark.parametrize(("name", "text", "language_id"), DOCUMENTS)
async def test_improve_document_fixes_prose_and_keeps_the_markup(
    editor: Editor, name: str, text: str, language_id: str
) -> None:
    uri = editor.open(f"improve-{name}", text, language_id=language_id)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != text)
    assert editor.text(uri) == fixed(text)


@pytest.mark.parametrize(("name", "text", "language_id"), DOCUMENTS[::2])
async def test_correct_document_fixes_prose_and_keeps_the_markup(
    editor: Editor, name: str, text: str, language_id: str
) -> None:
    uri = editor.open(f"correct-{name}", text, language_id=language_id)
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Correct document"])
    await wait_for(lambda: editor.text(uri) != text)
    assert editor.text(uri) == fixed(text)


@pytest.mark.profiles(PUSH, PULL)
@pytest.mark.parametrize(("name", "text", "language_id"), DOCUMENTS[::2])
async def test_review_diagnostics_find_the_slips_in_prose_only(
    editor: Editor, name: str, text: str, language_id: str
) -> None:
    uri = editor.open(f"review-{name}", text, language_id=language_id)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 2)
    assert [covered(text, d.range) for d in found] == ["recieved", "Thier"]


# Long enough to tell its language by itself once the paragraph before is switched off.
LATE = "Thier reply came late, and it said nothing of the plans we made last spring.\n"


@pytest.mark.profiles(PUSH)
@pytest.mark.parametrize(
    ("name", "language_id", "off", "on"),
    [
        ("ignore.typ", "typst", "// rephrase: off\n", "// rephrase: on\n"),
        ("ignore.html", "html", "<!-- rephrase: off -->\n", "<!-- rephrase: on -->\n"),
    ],
)
async def test_ignore_this_paragraph_writes_the_switches_in_the_formats_comments(
    editor: Editor, name: str, language_id: str, off: str, on: str
) -> None:
    text = f"I recieved teh letter.\n\n{LATE}"
    uri = editor.open(name, text, language_id=language_id)
    found = await editor.diagnostics(uri, lambda d: len(d) >= 3)
    teh = next(d for d in found if covered(text, d.range) == "teh")
    actions = by_title(await editor.actions(uri, teh.range, [teh]))
    await editor.run_action(actions["Ignore this paragraph"])
    assert editor.text(uri) == f"{off}I recieved teh letter.\n{on}\n{LATE}"
    after = await editor.diagnostics(
        uri, lambda d: bool(d) and all(x.data["version"] == 2 for x in d)
    )
    assert [covered(editor.text(uri), d.range) for d in after] == ["Thier"]


# -- the document's language from its own setting ---------------------------------------------

AMERICAN = "We need to organize the colors of this page before the meeting.\n"


@pytest.mark.parametrize(
    ("name", "text", "language_id"),
    [
        pytest.param(
            "british.typ", f'#set text(lang: "en", region: "gb")\n\n{AMERICAN}', "typst",
            id="typst",
        ),
        pytest.param(
            "british.html", f'<html lang="en-GB">\n<body>\n<p>{AMERICAN}</p>\n</body></html>\n',
            "html", id="html",
        ),
    ],
)  # fmt: skip
async def test_the_documents_own_language_setting_is_its_language(
    editor: Editor, name: str, text: str, language_id: str
) -> None:
    # American spellings, but the document says it is British: it is improved as en-GB
    uri = editor.open(name, text, language_id=language_id)
    listed = await editor.command("rephrase.listStyles", uri)
    assert (listed["language"], listed["languageSource"]) == ("en-GB", "document")
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != text)
    assert editor.text(uri) == text.replace("organize the colors", "organise the colours")


@pytest.mark.parametrize(
    ("name", "text", "language_id", "language"),
    [
        ("german.typ", '#set text(\n  font: "Libertinus",\n  lang: "de",\n)\n', "typst", "de"),
        ("austrian.typ", '#set text(lang: "de", region: "at")\n', "typst", "de"),
        ("german.htm", '<!DOCTYPE html>\n<html lang="de-DE">\n', "plaintext", "de"),
    ],
)  # fmt: skip
async def test_the_language_setting_of_typst_and_html_by_language_id_and_extension(
    editor: Editor, name: str, text: str, language_id: str, language: str
) -> None:
    uri = editor.open(name, f"{text}\n{AMERICAN}", language_id=language_id)
    listed = await editor.command("rephrase.listStyles", uri)
    assert (listed["language"], listed["languageSource"]) == (language, "document")


async def test_another_formats_language_setting_in_a_markdown_code_block_is_not_read(
    editor: Editor,
) -> None:
    text = f'{AMERICAN}\n```html\n<html lang="de">\n```\n\n```typst\n#set text(lang: "de")\n```\n'
    uri = editor.open("page-howto.md", text)
    listed = await editor.command("rephrase.listStyles", uri)
    assert (listed["language"], listed["languageSource"]) == ("en-US", "detected")
