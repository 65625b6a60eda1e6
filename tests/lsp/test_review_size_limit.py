"""The offline review's size limit (``diagnosticsMaxSize``): a document longer than the limit is
not reviewed while the writer types, and the writer is told so once; one under it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from .conftest import Editor
from .review_support import covered

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = "# Notes\n\nI recieved teh letter yesterday.\n"
#: Clean prose the engine leaves alone, past the limit the tests set.
FILLER = "".join(f"\nParagraph {n} says nothing the engine would change.\n" for n in range(80))
LIMIT = 2_000


def _two(found: list[types.Diagnostic]) -> bool:
    return len(found) == 2


def _told(editor: Editor) -> list[str]:
    return [m.message for m in editor.client.messages if "diagnosticsMaxSize" in m.message]


@pytest.mark.editor_settings({"diagnosticsMaxSize": LIMIT})
async def test_a_document_over_the_limit_gets_no_offline_review(editor: Editor) -> None:
    big = TEXT + FILLER
    assert len(TEXT) < LIMIT < len(big)
    uri = editor.open("big.md", big)
    assert await editor.diagnostics(uri) == []  # the first push: nothing
    assert _told(editor) == [
        f"rephrase: big.md has {len(big):,} characters, more than diagnosticsMaxSize "
        f"({LIMIT:,}): the offline engine does not review it while you type. Improve and "
        "Review with the service still work on it; raise diagnosticsMaxSize to have it reviewed."
    ]
    small = editor.open("small.md", TEXT)
    found = await editor.diagnostics(small)
    assert [covered(TEXT, d.range) for d in found] == ["recieved", "teh"]

    # Cut under the limit, it is reviewed; grown past it again, its findings go (told once).
    editor.set_text(uri, TEXT)
    found = await editor.diagnostics(uri, _two)
    assert [covered(TEXT, d.range) for d in found] == ["recieved", "teh"]
    editor.set_text(uri, big)
    assert await editor.diagnostics(uri, lambda d: not d) == []
    assert len(_told(editor)) == 1


async def test_the_default_limit_reviews_a_long_document(editor: Editor) -> None:
    long = TEXT + FILLER * 3
    uri = editor.open("long.md", long)
    found = await editor.diagnostics(uri)
    assert [covered(long, d.range) for d in found] == ["recieved", "teh"]
    assert _told(editor) == []


@pytest.mark.parametrize("where", ["project", "folder"])
async def test_a_project_or_folder_cannot_raise_the_users_limit(tmp_path: Path, where: str) -> None:
    """A cloned repository's ``.rephrase.toml`` (or its folder settings) raising the limit is
    ignored with one warning: the user's own limit stays (a 10 MB generated file would be
    reviewed at hundreds of MB)."""
    from .conftest import server_env
    from .test_trust_boundary import lsp, user_config

    user_config(tmp_path / "config", f"diagnosticsMaxSize = {LIMIT}\n")
    root = tmp_path / "clone"
    root.mkdir()
    raised = {"diagnosticsMaxSize": 1_000_000_000}
    if where == "project":
        (root / ".rephrase.toml").write_text("diagnosticsMaxSize = 1000000000\n", "utf-8")
    env = server_env(XDG_CONFIG_HOME=str(tmp_path / "config"))
    settings = raised if where == "folder" else None
    async with lsp(root, env, folder_settings=settings) as editor:
        big = TEXT + FILLER
        uri = editor.open("big.md", big)
        assert await editor.diagnostics(uri) == []
        small = editor.open("small.md", TEXT)
        assert len(await editor.diagnostics(small, _two)) == 2  # lowering still works
        ignored = [
            m.message
            for m in editor.client.messages
            if "diagnosticsMaxSize = 1000000000 is ignored" in m.message
        ]
        assert len(ignored) == 1, [m.message for m in editor.client.messages]
        assert f"your own limit ({LIMIT})" in ignored[0]
