"""Comments and docstrings of source code as prose."""

from __future__ import annotations

import pytest
from markup_helpers import check_blocks, data, joined, protected, texts

from rephrase_ls.text.markup import format_for, prose_blocks
from rephrase_ls.text.markup.code import code_blocks, code_blocks_for, looks_like_code


def blocks_of(source: str, language_id: str) -> list:
    blocks = code_blocks(source, language_id)
    check_blocks(source, blocks)
    return blocks


def test_python_module() -> None:
    text = data("geometry.py")
    blocks = blocks_of(text, "python")
    prose = joined(text, blocks)
    assert prose[0] == "Small geometry helpers used by the grid index."
    assert prose[1].startswith("The functions here work on plain tuples")
    # consecutive comment lines form one paragraph; an empty comment line ends it
    assert (
        "The tolerance used when comparing floating point coordinates. It is deliberately loose "
        "because the inputs usually come from sensors with a few millimetres of noise."
    ) in prose
    assert "Change it with care: the grid relies on it when it merges duplicate points." in prose
    assert "difference along x" in prose  # a trailing comment is its own paragraph
    assert "the caller must check first" in prose
    everything = "\n".join(prose)
    for absent in (
        "/usr/bin/env",  # shebang
        "coding",  # coding cookie
        "ruff",
        "noqa",
        "type: ignore",
        "pragma",
        "SELECT",  # a triple-quoted string that is data, not a docstring
        "return (sum(",  # commented-out code
        "total = len",
        ">>>",  # doctest
        "25.0",
        "dx = a[0]",  # code itself
    ):
        assert absent not in everything, absent
    guarded = protected(text, blocks)
    # a Google-style entry's "name (type):" stays outside the prose, its description is prose
    assert "the first point, as an ``(x, y)`` tuple." in prose
    assert "the second point." in prose
    assert not any(p.startswith(("a:", "b (tuple)")) for p in prose)
    for span in ("`distance_sq`", "``a``", "math.fsum", "TODO(ana):", "::"):
        assert span in guarded, span


def test_sphinx_doc_comments_keep_their_directives() -> None:
    """``#:`` comments are Sphinx's attribute docs, read as reStructuredText: a directive line
    in them (click's ``#: .. versionadded:: 8.0``) is markup, never sent; the text is prose."""
    source = (
        "class Context:\n"
        "    #: the user object stored.\n"
        "    #:\n"
        "    #: .. versionadded:: 8.0\n"
        "    obj = None\n"
        "    #: .. deprecated:: 9.0\n"
        "    #: read the the map instead.\n"
        "    default_map = None\n"
        "    # .. an ordinary comment that starts with two dots stays prose\n"
    )
    prose = joined(source, blocks_of(source, "python"))
    assert "the user object stored." in prose
    assert "read the the map instead." in prose
    assert not any("versionadded" in p or "deprecated" in p for p in prose), prose
    assert ".. an ordinary comment that starts with two dots stays prose" in prose


def test_docstring_sections_and_literal_blocks() -> None:
    source = '''def f():
    """Summary line.

    Example::

        x = f()
        y = g()

    Back to prose after the literal block.

    Returns:
        The value.
    """
'''
    assert joined(source, blocks_of(source, "python")) == [
        "Summary line.",
        "Example::",
        "Back to prose after the literal block.",
        "The value.",
    ]


@pytest.mark.parametrize(
    ("language_id", "source", "expected"),
    [
        (
            "javascript",
            "/**\n * Adds two numbers.\n * @param {number} a the first one\n */\n"
            "function add(a, b) {}\n",
            [["Adds two numbers."], ["@param {number} a the first one"]],
        ),
        (
            "typescript",
            "// Line one of a comment\n// and line two.\nconst x = 1; // trailing note\n",
            [["Line one of a comment", "and line two."], ["trailing note"]],
        ),
        (
            "rust",
            "//! Crate docs.\n\n/// Item docs that wrap\n/// onto a second line.\nfn main() {}\n",
            [["Crate docs."], ["Item docs that wrap", "onto a second line."]],
        ),
        (
            "go",
            "//go:build linux\n\n// Package grid indexes points.\npackage grid\n",
            [["Package grid indexes points."]],
        ),
        (
            "c",
            "#include <stdio.h>\n/* A block comment\n * over two lines. */\nint x;\n",
            [["A block comment", "over two lines."]],
        ),
        (
            "cpp",
            "// clang-format off\n// Explain the trick.\nint y = 0;\n",
            [["Explain the trick."]],
        ),
        (
            "java",
            "/** Returns the grid. */\nclass A { // eslint-disable-line\n}\n",
            [["Returns the grid."]],
        ),
        (
            "lua",
            "-- A Lua comment.\n--[[ A long\ncomment here. ]]\nlocal x = 1\n",
            [["A Lua comment."], ["A long", "comment here."]],
        ),
        (
            "shellscript",
            "#!/bin/sh\n# Install the tools.\n# shellcheck disable=SC2086\necho hi # say hi\n",
            [["Install the tools."], ["say hi"]],
        ),
    ],
)
def test_languages(language_id: str, source: str, expected: list[list[str]]) -> None:
    assert texts(source, blocks_of(source, language_id)) == expected


def test_leaders_and_indentation_stay_outside_segments() -> None:
    source = "def f():\n    # first line\n    # second line\n    pass\n"
    (block,) = blocks_of(source, "python")
    between = source[block.segments[0][1] : block.segments[1][0]]
    assert between == "\n    # "


@pytest.mark.parametrize(
    "line",
    [
        "x = compute(a, b)",
        "self.total += 1",
        "return (sum(p) / n)",
        "foo(bar)",
        "if (x > 0) {",
        "}",
        "import os",
        "const y = 2;",
        "#include <stdio.h>",
        "for x in range(3):",
    ],
)
def test_commented_out_code_is_recognised(line: str) -> None:
    assert looks_like_code(line)


@pytest.mark.parametrize(
    "line",
    [
        "This is a sentence.",
        "Returns the value (or None).",
        "if you change this, update the docs too",
        "for details see the README",
        "TODO: handle the empty case",
        "Note: the order matters",
    ],
)
def test_prose_is_not_mistaken_for_code(line: str) -> None:
    assert not looks_like_code(line)


def test_dispatch_by_language_id_and_extension() -> None:
    source = "# A comment here.\nx = 1\n"
    assert format_for("python") == "python"
    assert format_for(None, "file:///a/b/script.py") == "python"
    assert format_for(None, "file:///a/b/main.rs") == "rust"
    assert format_for(None, "file:///a/Makefile") == "makefile"
    assert prose_blocks("# Say hi.\necho hi\n", "sh") == code_blocks("# Say hi.\necho hi\n", "bash")
    assert prose_blocks(source, None, "file:///x.py") == code_blocks_for(source, "python")


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unsupported source language 'cobol-74'"):
        code_blocks("x", "cobol-74")
    with pytest.raises(ValueError, match="no Pygments lexer named 'nope'"):
        code_blocks_for("x", "nope")


def test_crlf_source() -> None:
    source = "# One comment line\r\n# and another.\r\nx = 1\r\n"
    assert joined(source, blocks_of(source, "python")) == ["One comment line and another."]


def test_plain_text_protects_addresses_and_long_runs_whole() -> None:
    # a run of 100+ characters without a space is no word (a hash, a rule, data): protected
    # whole, not searched sign by sign; an e-mail address from its whole local part
    digest = "sha512-" + "aB3/x+Yz" * 16
    text = f"Mail jane.doe+x@example.org with the digest {digest} attached.\n"
    blocks = prose_blocks(text, "plaintext", "file:///notes.txt")
    assert protected(text, blocks) == ["jane.doe+x@example.org", digest]
