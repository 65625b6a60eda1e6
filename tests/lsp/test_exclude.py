"""``exclude`` in ``.rephrase.toml`` over the real protocol: a document the patterns name gets
no diagnostics (an empty list, pushed or pulled); the others keep theirs."""

from __future__ import annotations

import pytest

from .conftest import Editor
from .review_support import PULL, PUSH, covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = "I recieved the letter yesterday, and I read it twice before dinner.\n"


@pytest.mark.profiles(PUSH, PULL)
async def test_excluded_files_get_no_diagnostics(editor: Editor) -> None:
    (editor.root / ".rephrase.toml").write_text(
        'exclude = ["CHANGELOG.md", "vendor/**"]\n', encoding="utf-8"
    )
    kept = editor.open("notes.md", TEXT)
    found = await editor.diagnostics(kept, lambda d: len(d) >= 1)
    assert [covered(TEXT, d.range) for d in found] == ["recieved"]
    for name in ("CHANGELOG.md", "docs/CHANGELOG.md", "vendor/lib/README.md"):
        uri = editor.open(name, TEXT)
        assert await editor.diagnostics(uri) == [], name
    # a name that only starts like a pattern is not excluded
    near = editor.open("vendored.md", TEXT)
    found = await editor.diagnostics(near, lambda d: len(d) >= 1)
    assert [covered(TEXT, d.range) for d in found] == ["recieved"]


@pytest.mark.profiles(PUSH, PULL)
async def test_editing_the_project_file_takes_effect_at_once(editor: Editor) -> None:
    toml = 'exclude = ["vendor/**"]\n'
    (editor.root / ".rephrase.toml").write_text(toml, encoding="utf-8")
    uri = editor.open("guide.md", TEXT)
    assert len(await editor.diagnostics(uri, lambda d: len(d) >= 1)) == 1
    toml_uri = editor.open(".rephrase.toml", toml, language_id="toml")
    editor.set_text(toml_uri, 'exclude = ["vendor/**", "guide.md"]\n')
    assert await editor.diagnostics(uri, lambda d: d == []) == []
    editor.set_text(toml_uri, toml)
    assert len(await editor.diagnostics(uri, lambda d: len(d) >= 1)) == 1
