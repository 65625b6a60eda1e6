"""Plain-text prose blocks and the format registry."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.text import markup
from rephrase_ls.text.markup import ProseBlock, format_for, prose_blocks, register_format
from rephrase_ls.text.markup.plain import plain_blocks, protected_spans


def prose(text: str) -> list[list[str]]:
    return [[text[s:e] for s, e in block.segments] for block in plain_blocks(text)]


def test_blank_lines_separate_paragraphs_and_lines_are_segments() -> None:
    text = "First line\nsecond line  \n\n\n  Indented para\n\twith tab\n"
    assert prose(text) == [["First line", "second line"], ["Indented para", "with tab"]]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
def test_every_line_break_style(newline: str) -> None:
    text = newline.join(["one", "two", "", "three"])
    assert prose(text) == [["one", "two"], ["three"]]
    blocks = plain_blocks(text)
    assert blocks[0].segments == ((0, 3), (3 + len(newline), 6 + len(newline)))


def test_list_items_are_blocks_of_their_own_without_their_markers() -> None:
    text = "Intro:\n- one\n  continued\n* two\n+ three\n1. four\n12) five\n"
    assert prose(text) == [
        ["Intro:"],
        ["one", "continued"],
        ["two"],
        ["three"],
        ["four"],
        ["five"],
    ]


def test_things_that_only_look_like_list_markers_are_prose() -> None:
    text = "-5 degrees\n1.5 million\n*emphasis*\n"
    assert prose(text) == [["-5 degrees", "1.5 million", "*emphasis*"]]


def test_quotes_nested_quotes_and_quoted_lists() -> None:
    text = "> quoted\n> text\n> > deeper\n>\n> back\n> - item\n>   more\n"
    assert prose(text) == [["quoted", "text"], ["deeper"], ["back"], ["item", "more"]]


def test_urls_and_email_addresses_are_protected() -> None:
    text = "See https://example.org/a_b?x=1, or mail me@example.com.\nwww.example.org/x too"
    (block,) = plain_blocks(text)
    assert [text[s:e] for s, e in block.protected] == [
        "https://example.org/a_b?x=1",
        "me@example.com",
        "www.example.org/x",
    ]


def test_empty_and_blank_documents_have_no_blocks() -> None:
    assert plain_blocks("") == []
    assert plain_blocks(" \n\t\n> \n- \n") == []


def test_one_megabyte() -> None:
    text = ("A line of prose with https://example.org in it.\n" * 3 + "\n- item\n\n") * 6000
    blocks = plain_blocks(text)
    assert len(blocks) == 12_000


def test_prose_block_validates_its_spans() -> None:
    with pytest.raises(ValueError, match="at least one segment"):
        ProseBlock(())
    with pytest.raises(ValueError, match="in order"):
        ProseBlock(((5, 9), (2, 4)))
    with pytest.raises(ValueError, match="invalid segment"):
        ProseBlock(((5, 3),))
    with pytest.raises(ValueError, match="sorted"):
        ProseBlock(((0, 9),), protected=((5, 6), (1, 2)))
    assert ProseBlock(((2, 4), (6, 9))).start == 2
    assert ProseBlock(((2, 4), (6, 9))).end == 9


@pytest.fixture
def registry() -> Iterator[None]:
    """The registries as they were before the test, so registering in a test leaks nowhere."""
    markup.load_builtin_formats()
    tables = (markup.FORMATS, markup.EXTENSIONS, markup.FILENAMES)
    saved = [(table, dict(table)) for table in tables]
    yield
    for table, content in saved:
        table.clear()
        table.update(content)


def _whole_text(text: str) -> list[ProseBlock]:
    return [ProseBlock(((0, len(text)),))] if text else []


@pytest.mark.usefixtures("registry")
def test_dispatch_by_language_id_then_file_name_then_extension() -> None:
    register_format("demo", _whole_text, extensions=(".demo", ".x.demo"), filenames=("DEMOFILE",))
    text = "a\n\nb"
    assert format_for("demo") == "demo"
    assert format_for("unknown-id", "file:///home/u/notes.DEMO") == "demo"
    assert format_for(None, "file:///home/u/DEMOFILE") == "demo"
    assert format_for(None, "file:///home/u/My%20Notes.demo") == "demo"
    assert format_for(None, "untitled:Untitled-1") == "plaintext"
    assert format_for(None, None) == "plaintext"
    assert prose_blocks(text, "demo") == [ProseBlock(((0, 4),))]
    assert prose_blocks(text, "unknown-id", "file:///a/b.unknown") == plain_blocks(text)
    assert prose_blocks(text) == plain_blocks(text)


@pytest.mark.usefixtures("registry")
def test_register_format_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="language_id"):
        register_format("", _whole_text)
    with pytest.raises(TypeError, match="callable"):
        register_format("x", "not a function")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="dot"):
        register_format("x", _whole_text, extensions=("md",))
    with pytest.raises(ValueError, match="file name"):
        register_format("x", _whole_text, filenames=("a/b",))


def test_builtin_formats_register_themselves() -> None:
    markup.load_builtin_formats()
    assert markup.FORMATS["plaintext"] is plain_blocks
    assert markup.EXTENSIONS[".txt"] == "plaintext"
    assert format_for(None, "file:///tmp/readme.txt") == "plaintext"


@pytest.mark.usefixtures("registry")
def test_prose_blocks_come_back_in_document_order() -> None:
    def backwards(text: str) -> list[ProseBlock]:
        return [ProseBlock(((4, 5),)), ProseBlock(((0, 1),))]

    register_format("backwards", backwards)
    assert [block.start for block in prose_blocks("a\n\nb\n", "backwards")] == [0, 4]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(see https://x.org/a_b).", ["https://x.org/a_b"]),
        ("ftp://files.example.com/x.tar.gz, then", ["ftp://files.example.com/x.tar.gz"]),
        ("visit http://a.b/c?d=e&f=g!", ["http://a.b/c?d=e&f=g"]),
        ("at www.example.org.", ["www.example.org"]),
        ("https://www.example.org/x", ["https://www.example.org/x"]),
        ("mail first.last+tag@mail.example.co.uk today", ["first.last+tag@mail.example.co.uk"]),
        ("not an address: a@b, nor @handle, nor mailto", []),
        ("word://thing and xhttps:/ nothing", []),
    ],
)
def test_protected_spans(text: str, expected: list[str]) -> None:
    assert [text[s:e] for s, e in protected_spans(text)] == expected


@settings(max_examples=examples(150))
@given(
    st.lists(
        st.sampled_from(
            ["http", "https", "ftp", "://", "www.", "@", ".", "a", "é", "x-y", " ", "\n", ")", "/"]
        ),
        max_size=30,
    ).map("".join)
)
def test_protected_spans_are_sorted_disjoint_and_whitespace_free(text: str) -> None:
    previous = 0
    for start, end in protected_spans(text):
        assert previous <= start < end <= len(text)
        piece = text[start:end]
        assert not any(c.isspace() for c in piece)
        assert "://" in piece or "www." in piece or "@" in piece
        previous = end
