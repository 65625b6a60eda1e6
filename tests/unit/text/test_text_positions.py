"""LineIndex against a naive reference, in all three encodings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples
from text_strategies import any_text

from rephrase_ls.text.positions import ENCODINGS, LineIndex, normalize_encoding

UNIT = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}


def units(text: str, encoding: str) -> int:
    codec, size = UNIT[encoding]
    return len(text.encode(codec, "surrogatepass")) // size


def naive_lines(text: str) -> list[tuple[int, int]]:
    """(start, content end) of each line, the slow obvious way."""
    lines = []
    start = 0
    i = 0
    while i < len(text):
        if text[i] == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            lines.append((start, i))
            i += 2
            start = i
        elif text[i] in "\r\n":
            lines.append((start, i))
            i += 1
            start = i
        else:
            i += 1
    lines.append((start, len(text)))
    return lines


def naive_position(text: str, offset: int, encoding: str) -> tuple[int, int]:
    lines = naive_lines(text)
    line = max(n for n, (start, _) in enumerate(lines) if start <= offset)
    return line, units(text[lines[line][0] : offset], encoding)


def naive_offset(text: str, line: int, character: int, encoding: str) -> int:
    lines = naive_lines(text)
    if line >= len(lines):
        return len(text)
    start, end = lines[line]
    offset = start
    used = 0
    while offset < end:
        width = units(text[offset], encoding)
        if used + width > character:
            break
        used += width
        offset += 1
    return offset


@settings(max_examples=examples(150))
@given(any_text, st.data())
def test_position_and_offset_match_the_reference(text: str, data: st.DataObject) -> None:
    index = LineIndex(text)
    offset = data.draw(st.integers(0, len(text)))
    for encoding in ENCODINGS:
        assert index.position(offset, encoding) == naive_position(text, offset, encoding)
        line, character = naive_position(text, offset, encoding)
        if offset == len(text) or not (text[offset - 1 : offset] == "\r" and text[offset] == "\n"):
            assert index.offset(line, character, encoding) == offset
        probe_line = data.draw(st.integers(0, len(naive_lines(text)) + 1))
        probe_char = data.draw(st.integers(0, 12))
        assert index.offset(probe_line, probe_char, encoding) == naive_offset(
            text, probe_line, probe_char, encoding
        )


def test_line_breaks_of_every_kind() -> None:
    text = "a\nb\r\nc\rd"
    index = LineIndex(text)
    assert index.line_count == 4
    assert [index.line_start(n) for n in range(4)] == [0, 2, 5, 7]
    assert [index.line_end(n) for n in range(4)] == [1, 3, 6, 8]
    assert index.position(len(text)) == (3, 1)
    assert LineIndex("x\n").position(2) == (1, 0)


def test_astral_characters_count_twice_in_utf16_and_four_bytes_in_utf8() -> None:
    text = "a😀b\né😀"
    index = LineIndex(text)
    assert index.position(2, "utf-16") == (0, 3)
    assert index.position(2, "utf-8") == (0, 5)
    assert index.position(2, "utf-32") == (0, 2)
    assert index.position(6, "utf-8") == (1, 6)  # é is 2 bytes, 😀 4
    assert index.offset(0, 3, "utf-16") == 2
    # A character inside a surrogate pair / a multi-byte sequence snaps to its start.
    assert index.offset(0, 2, "utf-16") == 1
    assert index.offset(1, 1, "utf-8") == 4
    assert index.offset(1, 99, "utf-16") == len(text)  # past the line end: the line end
    assert index.offset(7, 0, "utf-16") == len(text)  # past the last line: the text end


def test_bad_input_is_a_clear_error() -> None:
    index = LineIndex("abc")
    with pytest.raises(ValueError, match="outside the text"):
        index.position(4)
    with pytest.raises(ValueError, match="outside the text"):
        index.position(-1)
    with pytest.raises(ValueError, match="negative"):
        index.offset(0, -1)
    with pytest.raises(ValueError, match="unknown position encoding"):
        index.position(0, "latin-1")
    with pytest.raises(TypeError):
        LineIndex(b"abc")  # type: ignore[arg-type]


def test_encoding_names_are_normalized() -> None:
    assert normalize_encoding("UTF-16") == "utf-16"
    assert normalize_encoding("utf8") == "utf-8"
    assert normalize_encoding("utf_32") == "utf-32"


def test_large_document_lookups_round_trip() -> None:
    # How fast is measured by bench/, not asserted here (machines are shared and noisy).
    text = ("Zeile mit Umlauten äöü und 😀 Emoji.\n" * 30_000)[:1_000_000]
    index = LineIndex(text)
    assert index.position(len(text) - 1, "utf-8")[0] == text.count("\n")
    for n in range(2_000):
        offset = (n * 97) % len(text)
        line, character = index.position(offset, "utf-16")
        assert index.offset(line, character, "utf-16") == offset


@settings(max_examples=examples(40))
@given(
    st.lists(st.sampled_from(["😀", "é", "a", "中", " ", "\n", "\r\n", "x" * 30]), max_size=200),
    st.data(),
)
def test_long_lines_across_checkpoints_match_the_reference(
    pieces: list[str], data: st.DataObject
) -> None:
    text = "".join(pieces)
    index = LineIndex(text)
    for _ in range(10):
        offset = data.draw(st.integers(0, len(text)))
        for encoding in ENCODINGS:
            expected = naive_position(text, offset, encoding)
            assert index.position(offset, encoding) == expected
            if offset == len(text) or not (
                text[offset - 1 : offset] == "\r" and text[offset] == "\n"
            ):
                assert index.offset(*expected, encoding) == offset
