"""Front matter and metadata of every kind, attribute lists, reStructuredText directive
arguments and fields, docstring conventions, and how a document's kind is found from its
content: the cases the real documents do not all show."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markup_helpers import check_blocks, joined, protected
from tests.hypothesis_profiles import examples

from rephrase_ls.text.markup import format_for, prose_blocks, sniff_format
from rephrase_ls.text.markup.code import code_blocks
from rephrase_ls.text.markup.markdown import markdown_blocks
from rephrase_ls.text.markup.plain import plain_blocks
from rephrase_ls.text.markup.rst import rst_blocks


def md(text: str) -> list[str]:
    blocks = markdown_blocks(text)
    check_blocks(text, blocks)
    return joined(text, blocks)


@pytest.mark.parametrize(
    "head",
    [
        "---\ntitle: Hello world\ntags: [a, b]\n---\n",
        "---\ntitle: Hello world\n...\n",
        "+++\ntitle = 'Hello world'\ndraft = false\n+++\n",
        '{\n  "title": "Hello world",\n  "draft": false\n}\n',
        '{"title": "Hello world",\n "draft": false\n}\n',
        "% Hello world\n% Jane Doe;\n  John Roe\n% 2024-01-01\n",
        "% Hello world\n",
        "Title: Hello world\nAuthor: Jane Doe\n",
        "Title:   Hello world\n",
        "title: Hello world\nsummary: A page\n    that goes on\n",
        "Base Header Level: 2\nCSS: style.css\n",
    ],
)
def test_front_matter_of_every_kind_is_not_prose(head: str) -> None:
    text = head + "\nThe body text is here.\n"
    assert md(text) == ["The body text is here."]
    # the same with carriage returns
    crlf = text.replace("\n", "\r\n")
    assert md(crlf) == ["The body text is here."]


@pytest.mark.parametrize(
    "text",
    [
        "Note: this first paragraph is prose.\n\nBody.\n",  # one key that metadata does not use
        "Warning: careful here\nbecause it goes on.\n\nBody.\n",  # a line that is not a key
        "---\nnot closed front matter\n\nBody.\n",  # a `---` without its end: a rule, then text
        "+++\nnot closed\n\nBody.\n",
        "{ not json\n\nBody.\n",
    ],
)
def test_what_only_looks_like_front_matter_stays_prose(text: str) -> None:
    prose = md(text)
    assert prose[-1] == "Body."
    assert len(prose) == 2, prose


@pytest.mark.parametrize(
    ("source", "guarded"),
    [
        ("## Falcon { #falcon }\n", "{ #falcon }"),
        ("## Conclusion {#conclusion}\n", "{#conclusion}"),
        ("# Intro {#intro .unnumbered}\n", "{#intro .unnumbered}"),
        ("# Appendix {-}\n", "{-}"),
        ("A paragraph.\n{: .lead }\n", "{: .lead }"),
        ("Some [text]{.smallcaps} here.\n", "{.smallcaps}"),
        ("![alt](a.png){ width=50% }\n\nSee [it](x){target=_blank} now.\n", "{target=_blank}"),
        ("Text with `code`{.python} in it.\n", "{.python}"),
        ("::: {.warning}\nBe careful.\n:::\n", "::: {.warning}"),
        ("!!! note \"A title\"\n", "!!! note"),
        # the space is optional (Python-Markdown; pydantic's docs/concepts/types.md)
        ("!!!note\n    Not possible before 2.4.\n", "!!!note"),
        ("???+ tip\n    Open by default.\n", "???+ tip"),
        ("???tip\n    Folded.\n", "???tip"),
    ],
)
def test_attribute_lists_and_block_marks_are_protected(source: str, guarded: str) -> None:
    blocks = markdown_blocks(source)
    check_blocks(source, blocks)
    assert any(guarded in span for span in protected(source, blocks)), protected(source, blocks)


def test_braces_in_prose_stay_prose() -> None:
    text = "A set {a, b} and a word {like this} stay prose.\n"
    assert protected(text, markdown_blocks(text)) == []


def rst(text: str) -> list[str]:
    blocks = rst_blocks(text)
    check_blocks(text, blocks)
    return joined(text, blocks)


def test_rst_directive_arguments() -> None:
    text = (
        ".. deprecated:: 2.1\n   Use :func:`other` instead.\n\n"
        ".. versionchanged:: 3.0 The default is now ``None``.\n\n"
        ".. versionadded:: 1.4\n\n"
        ".. only:: html and not latex\n\n   Shown in HTML.\n\n"
        ".. container:: big-box\n\n   Inside the box.\n\n"
        ".. admonition:: A custom title\n\n   Its body.\n\n"
        ".. note:: Text on the directive line.\n"
    )
    assert rst(text) == [
        "Use :func:`other` instead.",
        "The default is now ``None``.",
        "Shown in HTML.",
        "Inside the box.",
        "A custom title",
        "Its body.",
        "Text on the directive line.",
    ]


def test_rst_type_fields_are_not_prose() -> None:
    text = (
        "Do it.\n\n:param x: the value.\n:type x: int or None\n"
        ":returns: the result,\n    wrapped.\n:rtype: list[str]\n"
        ":raises ValueError: when bad.\n:vartype y: dict\n"
    )
    assert rst(text) == ["Do it.", "the value.", "the result, wrapped.", "when bad."]


def test_rst_docinfo_after_a_title_and_subtitle() -> None:
    text = (
        "=======\n Title\n=======\n\nSubtitle\n--------\n\n:Author: Jane Doe\n:Version: 1.0\n"
        ":Abstract:\n    It has several lines\n    of text.\n\n:Date: today\n\nThe body.\n\n"
        ":param x: a field list later on is prose.\n"
    )
    assert rst(text) == ["Title", "Subtitle", "The body.", "a field list later on is prose."]


def test_rst_file_wide_metadata_is_not_prose() -> None:
    assert rst(":orphan:\n:tocdepth: 2\n\nThe page.\n") == ["The page."]


def docstring(body: str) -> list[str]:
    text = f'def f(x):\n    """{body}"""\n'
    blocks = code_blocks(text, "python")
    check_blocks(text, blocks)
    return joined(text, blocks)


def test_docstring_doctest_output_and_ellipsis_paragraph() -> None:
    body = (
        "Summary.\n\n    >>> f(1)\n    {'a': 1,\n    ... 'b': 2}\n    Some output\n\n"
        "    ... or call it twice.\n    "
    )
    assert docstring(body) == ["Summary.", "... or call it twice."]


def test_docstring_first_line_type_of_an_attribute() -> None:
    assert docstring("int: The number of items.\n    ") == ["The number of items."]
    assert docstring("Return the thing: it is good.") == ["Return the thing: it is good."]


def test_docstring_google_returns_and_raises() -> None:
    body = (
        "Do it.\n\n    Returns:\n        dict[str, int]: the counts.\n\n"
        "    Raises:\n        KeyError: when missing.\n\n    Note:\n        Be careful.\n    "
    )
    assert docstring(body) == ["Do it.", "the counts.", "when missing.", "Be careful."]


def test_docstring_sphinx_fields_and_literal_block() -> None:
    body = (
        "Do it::\n\n        code here\n\n    :param x: the x.\n    :type x: bool\n"
        "    :rtype: str\n\n    .. versionadded:: 2.0\n    "
    )
    assert docstring(body) == ["Do it::", "the x."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Title\n\nSome text with a [link](https://x.org).\n", "markdown"),
        ("```\ncode\n```\n\n## Usage\n", "markdown"),
        ("Title\n~~~~~\n\n.. note:: Careful.\n\nSee :func:`f`.\n", "restructuredtext"),
        (".. _target:\n\nUse ``x`` here.\n", "restructuredtext"),
        ("Dear Jane,\n\nthe meeting is at 10:30. See you there!\n\n- Bob\n", None),
        ("Title\n=====\n\nJust words.\n", None),  # setext or reST: not enough to choose
        # fences alone make no Markdown: plain-text notes copy them (plain text reads the
        # block as code); beside a heading they do
        ("Build it:\n\n```\n./configure; make test\n```\n", None),
        ("Build it:\n\n```\nmake\n```\n\n```\nmake test\n```\n", None),
        ("", None),
    ],
)
def test_sniff_format(text: str, expected: str | None) -> None:
    assert sniff_format(text) == expected


def test_the_kind_of_a_document_by_id_name_then_content() -> None:
    markdown = "# Title\n\nSome [link](https://x.org) here.\n"
    assert format_for("plaintext", "file:///a/README", markdown) == "markdown"
    assert format_for(None, "file:///a/notes.txt", markdown) == "markdown"
    assert format_for(None, "file:///a/README.unknown", markdown) == "markdown"
    assert format_for(None, None, markdown) == "markdown"
    # a specific languageId or a known extension decides, whatever the content
    assert format_for("latex", "file:///a/README", markdown) == "latex"
    assert format_for("plaintext", "file:///a/doc.rst", markdown) == "restructuredtext"
    assert format_for(None, "file:///a/COMMIT_EDITMSG", markdown) == "gitcommit"
    # without the text, as before: by name
    assert format_for("plaintext", "file:///a/README") == "plaintext"
    text = markdown + "\n```python\n>>> import requests\n```\n"
    blocks = prose_blocks(text, "plaintext", "file:///a/README")
    assert all("import" not in text[b.start : b.end] for b in blocks)


_DOC_LINES = [
    "Summary line.",
    "",
    "Args:",
    "    x (int): the x,",
    "        wrapped.",
    "    *args: more.",
    "Returns:",
    "    dict[str, int]: counts.",
    "Parameters",
    "----------",
    "x : int",
    "    The x.",
    "Notes",
    "-----",
    ">>> f(1)",
    "... 2",
    "3",
    ".. deprecated:: 1.0",
    "   Use g.",
    ":param x: the x.",
    ":type x: int",
    "Literal::",
    "",
    "    code()",
    "\tTabbed text.",
    "str: The name.",
]


@settings(max_examples=examples(150), deadline=None)
@given(
    lines=st.lists(st.sampled_from(_DOC_LINES), max_size=14),
    indent=st.sampled_from(["", "    ", "        "]),
    first=st.sampled_from(["", "\n"]),
)
def test_any_docstring_keeps_the_contract(lines: list[str], indent: str, first: str) -> None:
    body = first + "\n".join(indent + line if line else "" for line in lines)
    text = f'def f():\n    """{body}\n    """\n    return 1\n'
    blocks = code_blocks(text, "python")
    check_blocks(text, blocks)
    # nothing outside the docstring is prose
    start, end = text.index('"""') + 3, text.rindex('"""')
    assert all(start <= b.start and b.end <= end for b in blocks)


def test_a_fenced_block_in_plain_text_is_code() -> None:
    # zlib's FAQ (zlib licence, tests/data/markup/real/zlib-FAQ) quotes its build commands;
    # a note copying them between fences: the fenced lines are no prose, in a README or .txt
    text = (
        "Build and test it:\n\n```sh\n./configure; make test\nmake install prefix=$HOME\n```\n\n"
        "Done, see the FAQ.\n"
    )
    assert format_for(None, "file:///a/notes.txt", text) == "plaintext"
    blocks = prose_blocks(text, "plaintext", "file:///a/notes.txt")
    check_blocks(text, blocks)
    assert joined(text, blocks) == ["Build and test it:", "Done, see the FAQ."]
    # tildes too, closed only by as many or more of the same character
    text = "Build it:\n~~~~\nzlib is rather portable\n~~~\n```\nstill code\n~~~~\nDone.\n"
    assert joined(text, plain_blocks(text)) == ["Build it:", "Done."]
    # an unclosed fence runs to the end; a line of backticks with a backtick after is no fence
    text = "Intro.\n\n``` x `y` z\nmore prose\n\n```\nnever closed\n"
    assert joined(text, prose_blocks(text, "plaintext", "file:///a/notes.txt")) == [
        "Intro.",
        "``` x `y` z more prose",
    ]
