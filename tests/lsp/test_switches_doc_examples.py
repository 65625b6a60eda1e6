"""The in-document switch examples of docs/configuration.md, one per format, read from the doc:
each example's switched-off prose gets no diagnostic and **Improve document** leaves it, while
the same text without the switch lines is flagged (the switches are what silence it); a
paragraph after the example is still reviewed, in the language its ``rephrase: language=``
line sets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import Editor
from .review_support import PUSH, covered
from .test_actions import by_title, wait_for

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
#: A paragraph after the example, in prose the switches do not take out: ``color`` is flagged
#: only in the British English the examples' ``rephrase: language=en-GB`` asks for.
CHECKED = "The reply came untill noon, and we chose the color of the cover."
#: Each documented format: the fence's info string → languageId, file name, the checked
#: paragraph as that format writes it.
FORMATS: dict[str, tuple[str, str, str]] = {
    "markdown": ("markdown", "switches.md", CHECKED),
    "rst": ("restructuredtext", "switches.rst", CHECKED),
    "latex": ("latex", "switches.tex", CHECKED),
    "asciidoc": ("asciidoc", "switches.adoc", CHECKED),
    "org": ("org", "switches.org", CHECKED),
    "typst": ("typst", "switches.typ", CHECKED),
    "html": ("html", "switches.html", f"<p>{CHECKED}</p>"),
    "python": ("python", "switches.py", f"# {CHECKED}"),
    "text": ("plaintext", "switches.txt", CHECKED),
    "gitcommit": ("gitcommit", "COMMIT_EDITMSG", CHECKED),
}


def _examples() -> dict[str, str]:
    """The fenced examples of the section "In-document switches", by info string."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## In-document switches\n", 1)[1].split("\n## ", 1)[0]
    found = re.findall(r"^```(\w+)\n(.*?)^```$", section, re.M | re.S)
    examples = dict(found)
    assert len(examples) == len(found), "one example per format"
    return examples


EXAMPLES = _examples()


def test_every_format_has_an_example() -> None:
    assert sorted(EXAMPLES) == sorted(FORMATS)


async def _findings(editor: Editor, uri: str) -> list[str]:
    version = editor.version(uri)
    found = await editor.diagnostics(
        uri, lambda d: bool(d) and all(x.data["version"] == version for x in d)
    )
    return [covered(editor.text(uri), d.range) for d in found]


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.profiles(PUSH)
@pytest.mark.parametrize("fence", list(FORMATS))
async def test_the_documented_switches_work(editor: Editor, fence: str) -> None:
    language_id, name, checked = FORMATS[fence]
    example = EXAMPLES[fence]
    text = f"{example}\n{checked}\n"
    # Without the switch lines, the example's slips are flagged.
    bare = "".join(line for line in text.splitlines(keepends=True) if "rephrase:" not in line)
    slips = await _findings(editor, editor.open(f"bare/{name}", bare, language_id))
    written = {word for word in ("teh", "recieved") if word in example}
    assert written and written | {"untill"} <= set(slips) and "color" not in slips, slips
    # With them, only the paragraph after the example, in British English.
    uri = editor.open(name, text, language_id)
    assert await _findings(editor, uri) == ["untill", "color"]
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != text)
    assert editor.text(uri) == text.replace("untill", "until").replace("color", "colour")
