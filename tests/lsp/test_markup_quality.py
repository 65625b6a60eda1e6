"""Over the protocol: a plaintext buffer with Markdown content is read as Markdown, and a
paragraph that goes on an open sentence keeps its lower-case first letter."""

from __future__ import annotations

import pytest

from rephrase_ls.offline.engine import improve as engine_improve

from .conftest import Editor
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _improve_document(editor: Editor, uri: str, text: str) -> str:
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != text)
    return editor.text(uri)


async def test_a_plaintext_readme_with_markdown_content(editor: Editor) -> None:
    prose = "Requests allows you to send HTTP/1.1 requests extremely easily, with with no effort."
    text = f"# Requests\n\n{prose}\n\n```python\n>>> import requests\n>>> r.status_code\n200\n```\n"
    uri = editor.open("README", text, language_id="plaintext")
    result = await _improve_document(editor, uri, text)
    assert engine_improve(prose, "en-us") != prose
    assert result == text.replace(prose, engine_improve(prose, "en-us"))


async def test_a_list_after_a_colon_and_a_paragraph_after_code_stay_lower_case(
    editor: Editor,
) -> None:
    text = (
        "Make sure that:\n\n- the the file is readable,\n- the path exists.\n\n"
        "Install it with\n\n```sh\npip install x\n```\n\nor build it from from the sources.\n"
    )
    uri = editor.open("notes.md", text)
    result = await _improve_document(editor, uri, text)
    assert result == (
        "Make sure that:\n\n- the file is readable,\n- the path exists.\n\n"
        "Install it with\n\n```sh\npip install x\n```\n\nor build it from the sources.\n"
    )
