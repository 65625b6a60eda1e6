"""Japanese, Korean and Chinese documents through the real protocol, against a loopback service
that corrects them (:mod:`tests.lsp.cjk_service`): the target is right from the first request,
a one-character fix is a one-character edit, hard-wrapped lines and markup are kept, a
paragraph in another language is skipped with a note while the rest is improved, and a long
paragraph is split for the 10 KiB limit at clause marks."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from rephrase_ls.offline.engine import improve as engine_improve

from .cjk_service import CjkService
from .conftest import (
    SERVER,
    Editor,
    OfflineService,
    editor_config,
    initialize_params,
    install_apply_edit,
    server_env,
)
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio(loop_scope="session")

DATA = Path(__file__).parents[1] / "data" / "cjk"
IMPROVE = [sys.executable, "-m", "rephrase_ls", "improve"]


@pytest.fixture(scope="module")
def cjk_service() -> Iterator[CjkService]:
    """The double, in front of a real offline service serving the later list shape."""
    upstream = OfflineService("--later-shape")
    double = CjkService(upstream.url)
    yield double
    double.stop()
    upstream.stop()


@pytest_lsp.fixture(
    config=editor_config(
        server_command=SERVER, server_env=server_env(REPHRASE_API_KEY="cjk-test-key")
    ),
    loop_scope="session",
)
async def session(
    lsp_client: LanguageClient, tmp_path: Path, cjk_service: CjkService
) -> AsyncIterator[None]:
    root = tmp_path / "ws"
    root.mkdir()
    lsp_client.set_configuration({"rephrase": {"timeout": 10}})
    ed = Editor(lsp_client, root)
    install_apply_edit(lsp_client, [ed])
    await lsp_client.initialize_session(
        initialize_params(
            "visual-studio-code",
            root,
            initialization_options={"rephrase": {"serverUrl": cjk_service.url}},
        )
    )
    lsp_client.editor = ed  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def cjk(session: LanguageClient) -> Editor:
    return session.editor  # type: ignore[attr-defined]


async def improve_document(editor: Editor, uri: str, target: str) -> dict[str, object]:
    """Check the document's target (the language list loaded), run **Improve document** and
    wait for its edit; the styles the server offers for the document."""
    before = editor.text(uri)
    styles = await editor.command("rephrase.listStyles", uri)
    assert styles["targetLang"] == target, styles
    actions = by_title(await editor.code_actions(uri, (0, 0), (0, 0), only=["source"]))
    await editor.run_action(actions["Improve document"])
    await wait_for(lambda: editor.text(uri) != before, 30)
    return dict(styles)


def edits_of(editor: Editor) -> list[types.TextEdit | types.AnnotatedTextEdit]:
    """The text edits of the last workspace edit the editor applied."""
    edit = editor.applied[-1].edit
    found: list[types.TextEdit | types.AnnotatedTextEdit] = []
    kinds = (types.TextEdit, types.AnnotatedTextEdit)
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            found.extend(e for e in change.edits if isinstance(e, kinds))
    for edits in (edit.changes or {}).values():
        found.extend(edits)
    return found


def one_edit(editor: Editor) -> tuple[types.Range, str]:
    edits = edits_of(editor)
    assert len(edits) == 1, edits
    return edits[0].range, edits[0].new_text


@pytest.mark.parametrize("language_id", ["markdown", "plaintext"])
async def test_a_japanese_document_round_trips(
    cjk: Editor, cjk_service: CjkService, language_id: str
) -> None:
    text = "# 予定\n\n明日は駅で友達に\n合います。そのあと、\n一緒に映画を見ます。\n"
    name = "ja.md" if language_id == "markdown" else "ja.txt"
    uri = cjk.open(name, text, language_id)
    sent = len(cjk_service.requests())
    styles = await improve_document(cjk, uri, "ja")
    assert styles["writingStyles"] == [] and styles["tones"] == []  # none for ja in the list
    assert cjk.text(uri) == text.replace("合います", "会います")
    edit_range, new_text = one_edit(cjk)
    assert new_text == "会"
    assert (edit_range.start.line, edit_range.start.character) == (3, 0)
    assert (edit_range.end.line, edit_range.end.character) == (3, 1)
    first = cjk_service.requests()[sent]
    assert first["target_lang"] == "ja"  # right from the first request
    # The lines were joined without spaces, and the kanji heading went as Japanese.
    assert "明日は駅で友達に合います。そのあと、一緒に映画を見ます。" in first["text"]
    assert any("予定" in sent for sent in first["text"])


async def test_real_japanese_markdown_keeps_lines_and_emphasis(
    cjk: Editor, cjk_service: CjkService
) -> None:
    text = (DATA / "ja-comments.md").read_text(encoding="utf-8")
    uri = cjk.open("comments.md", text)
    await improve_document(cjk, uri, "ja")
    assert cjk.text(uri) == text.replace("全プログラマ", "全てのプログラマ")
    edit_range, new_text = one_edit(cjk)
    assert new_text == "ての" and edit_range.start == edit_range.end
    sent = [t for body in cjk_service.requests() for t in body["text"]]
    assert any("*コメント*" in t or "{{" in t for t in sent)


@pytest.mark.parametrize("language_id", ["markdown", "plaintext"])
async def test_a_korean_document_round_trips_by_the_syllable(cjk: Editor, language_id: str) -> None:
    text = "## 결과\n\n오랫동안 기다리던 문제가\n드디어 해결됬습니다. 모두\n감사합니다.\n"
    uri = cjk.open("ko.md" if language_id == "markdown" else "ko.txt", text, language_id)
    await improve_document(cjk, uri, "ko")
    assert cjk.text(uri) == text.replace("됬", "됐")
    edit_range, new_text = one_edit(cjk)
    assert new_text == "됐"
    assert (edit_range.start.line, edit_range.start.character) == (3, 6)
    assert (edit_range.end.line, edit_range.end.character) == (3, 7)


@pytest.mark.parametrize("language_id", ["markdown", "plaintext"])
async def test_a_chinese_document_round_trips_with_its_markup(
    cjk: Editor, language_id: str
) -> None:
    original = (DATA / "zh-comments.md").read_text(encoding="utf-8")
    # One slip in the real text, and its first paragraph hard-wrapped at a comma.
    text = original.replace("编译器会忽略它们", "编译器会忽落它们").replace(
        "不过有时还需要", "不过有时\n还需要"
    )
    uri = cjk.open("zh.md" if language_id == "markdown" else "zh.txt", text, language_id)
    await improve_document(cjk, uri, "zh")
    assert cjk.text(uri) == text.replace("忽落", "忽略")
    _edit_range, new_text = one_edit(cjk)
    assert new_text == "略"


async def test_a_japanese_paragraph_in_an_english_document_is_skipped_with_a_note(
    cjk: Editor,
) -> None:
    english = "this is the the first paragraph of the notes."
    japanese = "明日は駅で友達に合います。そのあと、一緒に映画を見ます。"
    last = "we will meet again next week to talk about the the plan."
    text = f"# Notes\n\n{english}\n\n{japanese}\n\n{last}\n"
    uri = cjk.open("mixed.md", text)
    await improve_document(cjk, uri, "en-US")
    expected = (
        f"# Notes\n\n{engine_improve(english, 'en-us')}\n\n{japanese}\n\n"
        f"{engine_improve(last, 'en-us')}\n"
    )
    assert engine_improve(english, "en-us") != english
    assert cjk.text(uri) == expected
    notes = [m.message for m in cjk.client.messages if m.type == types.MessageType.Warning]
    assert any("left as it is" in m and "in ja" in m for m in notes), notes


async def test_a_long_chinese_paragraph_splits_at_clause_marks(
    cjk: Editor, cjk_service: CjkService
) -> None:
    words = ["我门", "今天", "讨论", "这个", "问题", "非常", "重要", "系统", "设计", "发布"]
    clauses = ["".join(words[(n + k) % len(words)] for k in range(7)) for n in range(260)]
    paragraph = "，".join(clauses)  # about 11 KiB, no full stop
    assert len(paragraph.encode()) > 10 * 1024
    text = f"{paragraph}\n"
    uri = cjk.open("long.txt", text, "plaintext")
    sent = len(cjk_service.requests())
    await improve_document(cjk, uri, "zh")
    assert cjk.text(uri) == text.replace("我门", "我们")
    pieces = [t for body in cjk_service.requests()[sent:] for t in body["text"]]
    # The requests go out together: the pieces arrive in any order.
    assert len(pieces) >= 2
    assert sum(map(len, pieces)) == len(paragraph)
    assert all(piece in paragraph for piece in pieces)
    tails = [piece for piece in pieces if not piece.endswith("，")]
    assert len(tails) == 1 and paragraph.endswith(tails[0])


async def test_an_english_quotation_in_a_japanese_document_is_skipped_with_a_note(
    cjk: Editor,
) -> None:
    japanese = "明日は駅で友達に\n合います。そのあと、\n一緒に映画を見ます。"
    english = "The quick brown fox jumps over the the lazy dog every morning."
    text = f"# 設定方法\n\n{japanese}\n\n> {english}\n"
    uri = cjk.open("quote.md", text)
    await improve_document(cjk, uri, "ja")
    # The kanji heading went as Japanese; the English quotation is left as it is.
    assert cjk.text(uri) == text.replace("合います", "会います")
    notes = [m.message for m in cjk.client.messages if m.type == types.MessageType.Warning]
    assert any("left as it is" in m and "in en" in m for m in notes), notes


async def test_the_command_line_improves_a_korean_file(
    tmp_path: Path, cjk_service: CjkService
) -> None:
    text = "오랫동안 기다리던 문제가\n드디어 해결됬습니다. 모두\n감사합니다.\n"
    path = tmp_path / "notes.txt"
    path.write_text(text, encoding="utf-8")
    env = server_env(REPHRASE_API_KEY="cjk-test-key", XDG_CONFIG_HOME=str(tmp_path / "config"))
    result = subprocess.run(
        [*IMPROVE, "--write", "--server-url", cjk_service.url, str(path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert path.read_text(encoding="utf-8") == text.replace("됬", "됐")
    assert cjk_service.requests()[-1]["target_lang"] == "ko"
