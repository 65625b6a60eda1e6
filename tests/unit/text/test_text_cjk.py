"""Japanese, Korean and Chinese: detection from the script, lines joined without a space where
the script writes none, line breaks laid back, edits by the character (Korean: the syllable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rephrase_ls.text.detect import detect_language, script_language
from rephrase_ls.text.diff import apply_edits, word_edits
from rephrase_ls.text.language import paragraph_language, too_short_to_tell
from rephrase_ls.text.layout import joiner
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs

DATA = Path(__file__).parents[2] / "data" / "cjk"


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("明日友達に会います。", "ja"),
        ("全プログラマは、自分のコードがわかりやすくなるよう努めます。", "ja"),
        ("러스트 여정을 시작해봅시다! 배울 것이 많지만, 모든 여정은 어딘가에서 시작합니다.", "ko"),
        ("所有程序员都力求使其代码易于理解，不过有时还需要提供额外的解释。", "zh"),
        ("設定", "zh"),  # Han alone, without its document: Chinese
        ("Rust では、コメントは 2 連スラッシュで始め、行の終わりまで続きます。", "ja"),
        ("This is an English sentence that names 東京 once and goes on in English.", "en"),
        ("Dies ist ein deutscher Satz über die Stadt und das Wetter heute.", "de"),
    ],
)
def test_the_script_tells_japanese_korean_and_chinese(text: str, language: str) -> None:
    assert detect_language(text) == language


def test_a_chinese_text_quoting_a_japanese_name_stays_chinese() -> None:
    text = "我们在东京开会，讨论了新的系统设计和发布计划，以及团队的分工。" * 3 + "「すし」"
    assert script_language(text) == "zh"


def test_a_kanji_heading_inherits_its_japanese_document() -> None:
    assert paragraph_language("設定と使い方", "ja") == "ja"
    assert paragraph_language("設定方法", "ja") == "ja"
    assert paragraph_language("設定方法", None) == "zh"
    assert paragraph_language("設定方法", "en") == "zh"
    # Chinese prose (clause marks, a sentence) in a Japanese document stays Chinese.
    chinese = "所有程序员都力求使其代码易于理解，不过有时还需要提供额外的解释。"
    assert paragraph_language(chinese, "ja") == "zh"
    assert paragraph_language("今日はいい天気です。", "zh") == "ja"


def test_cjk_prose_is_never_too_short_to_tell() -> None:
    assert not too_short_to_tell("明日友達に会います。")
    assert too_short_to_tell("Intro")


@pytest.mark.parametrize(
    ("left", "right", "glue"),
    [
        ("に", "会", ""),
        ("。", "今", ""),
        ("、", "「", ""),
        ("다", "해", " "),  # Korean writes spaces between phrases
        ("は", "R", " "),
        ("d", "の", " "),
        ("々", "〇", " "),  # letters to the tokenizer: the line break stays a space
    ],
)
def test_joiner_follows_the_characters_either_side(left: str, right: str, glue: str) -> None:
    assert joiner(left, right) == glue


def test_a_wrapped_japanese_paragraph_is_sent_without_inserted_spaces() -> None:
    doc = "明日友達に\n合います。今日は\n晴れです。"
    paragraph = select_paragraphs(doc, 0, len(doc), prose_blocks(doc, "plaintext"))[0]
    assert paragraph.prose == "明日友達に合います。今日は晴れです。"


def test_a_one_character_fix_is_a_one_character_edit_and_the_breaks_stay() -> None:
    doc = "明日友達に\n合います。今日は\n晴れです。"
    paragraph = select_paragraphs(doc, 0, len(doc), prose_blocks(doc, "plaintext"))[0]
    replacement, edits = paragraph.rebuild_with_edits("明日友達に会います。今日は晴れです。")
    assert replacement == "明日友達に\n会います。今日は\n晴れです。"
    assert [(e.start, e.end, e.new_text) for e in edits] == [(6, 7, "会")]
    assert apply_edits(doc, edits) == replacement


def test_a_break_next_to_a_change_goes_between_two_characters() -> None:
    doc = "今日は\n晴れです。"
    paragraph = Paragraph.from_segments(doc, [(0, 3), (4, len(doc))])
    replacement, edits = paragraph.rebuild_with_edits("今日はとても晴れです。")
    assert replacement.replace("\n", "") == "今日はとても晴れです。"
    assert replacement.count("\n") == 1
    assert apply_edits(doc, edits) == replacement


def test_a_line_break_in_the_answer_between_cjk_characters_adds_no_space() -> None:
    doc = "明日友達に合います。"
    paragraph = Paragraph.from_segments(doc, [(0, len(doc))])
    assert paragraph.rebuild("明日友達に\n会います。") == "明日友達に会います。"


def test_korean_lines_join_with_a_space_and_edits_are_by_the_syllable() -> None:
    doc = "문제가 드디어\n해결됬습니다. 감사합니다."
    paragraph = Paragraph.from_segments(doc, [(0, 7), (8, len(doc))])
    assert paragraph.prose == "문제가 드디어 해결됬습니다. 감사합니다."
    replacement, edits = paragraph.rebuild_with_edits("문제가 드디어 해결됐습니다. 감사합니다.")
    assert replacement == "문제가 드디어\n해결됐습니다. 감사합니다."
    assert [(e.start, e.end, e.new_text) for e in edits] == [(10, 11, "됐")]
    assert word_edits("해결됬습니다", "해결됐습니다") == [type(edits[0])(2, 3, "됐")]


def test_real_japanese_markdown_keeps_its_lines_and_emphasis() -> None:
    doc = (DATA / "ja-comments.md").read_text(encoding="utf-8")
    blocks = prose_blocks(doc, "markdown")
    start = doc.index("全プログラマ")
    paragraph = select_paragraphs(doc, start, start, blocks)[0]
    assert "\n" not in paragraph.prose and " " not in paragraph.prose.replace("{{", "")
    fixed = paragraph.prose.replace("全プログラマは", "全てのプログラマは")
    replacement, edits = paragraph.rebuild_with_edits(fixed)
    original = doc[paragraph.start : paragraph.end]
    assert replacement == original.replace("全プログラマは", "全てのプログラマは")
    assert [(e.start, e.end, e.new_text) for e in edits] == [(1, 1, "ての")]
