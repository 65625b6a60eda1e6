"""Markdown prose extraction: constructs, the data README, and markdown-it-py as the reference."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markup_helpers import check_blocks, data, joined, protected, texts
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin
from tests.hypothesis_profiles import examples

from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.markup.lines import Lines
from rephrase_ls.text.markup.markdown import markdown_blocks
from rephrase_ls.text.markup.markdown_inline import ATTRIBUTE_LIST, inline_protected

_MD = (
    MarkdownIt("commonmark")
    .enable(["table", "strikethrough"])
    .use(front_matter_plugin)
    .use(footnote_plugin)
    .use(dollarmath_plugin)
    .use(deflist_plugin)
)
# keep footnote definitions where they are (the tail rule moves them, or drops unused ones)
_MD.core.ruler.disable("footnote_tail")
_WORD = re.compile(r"[^\W_]")


def reference_prose_lines(text: str) -> dict[int, str]:
    """Lines that markdown-it-py maps to inline (prose) content, with that content."""
    lines: dict[int, str] = {}
    for token in _MD.parse(text):
        if token.type == "inline" and token.map:
            first = token.map[0]
            for i, content in enumerate(token.content.split("\n"), first):
                lines[i] = content
    return lines


def our_prose_lines(text: str) -> set[int]:
    index = Lines(text)
    return {index.line_of(s) for b in markdown_blocks(text) for s, _ in b.segments}


def assert_same_prose_lines(text: str) -> None:
    ours, reference = our_prose_lines(text), reference_prose_lines(text)
    source = text.split("\n")
    extra = sorted(ours - reference.keys())
    assert not extra, [source[i] for i in extra]
    # lines markdown-it-py calls inline content that we leave out must hold no prose at all
    # (their inline content: a list item's `1.` marker is not prose)
    for i in sorted(reference.keys() - ours):
        line = reference[i]
        free, pos = [], 0
        for a, b in inline_protected(line):
            free.append(line[pos:a])
            pos = b
        free.append(line[pos:])
        assert not _WORD.search("".join(free)), f"missed prose line {line!r}"


# A definition marker, then lines up to a setext underline with no blank line between.
_HEADING_OVER_DEFINITIONS = re.compile(
    r"^[ \t>]*[:~][ \t]+\S.*\n(?:.*\S.*\n)*?[ \t>]*(?:=+|-+)[ \t]*$", re.M
)


def heading_over_definitions(text: str) -> bool:
    """Whether a setext underline follows definitions with no blank line between: there
    markdown-it-py's setext rule, tried first, reads the term, its definitions and the lines
    after them as one heading; the extractor reads the definition list (docs/markup.md)."""
    return _HEADING_OVER_DEFINITIONS.search(text) is not None


def blocks_of(text: str) -> list:
    blocks = markdown_blocks(text)
    check_blocks(text, blocks)
    return blocks


# -- the data README ---------------------------------------------------------------------------


def test_readme_prose_and_non_prose() -> None:
    text = data("README.md")
    blocks = blocks_of(text)
    prose = joined(text, blocks)
    assert prose[0] == "fastgrid — spatial indexing for people in a hurry"
    everything = "\n".join(prose)
    # not prose: front matter, fenced and indented code, HTML blocks, math blocks, definitions
    for absent in (
        "title: fastgrid",
        "pip install",
        "from fastgrid import Grid",
        "This is an indented code block",
        "<details>",
        "<summary>",
        "E[\\text{cost}]",
        "https://fastgrid.example.org/api/",
        "Do not modify",
    ):
        assert absent not in everything, absent
    # prose: paragraphs, list items (nested, in order), quotes, headings, table cells, footnotes
    for present in (
        "Install it from PyPI with pip:",
        "Create a grid with a cell size that is roughly the distance of your queries.",
        "Insert your points; each point is a tuple `(x, y)` or an object with `x` and `y` "
        "attributes.",
        "Reading from several threads at once is fine as long as nobody writes.",
        "The 2.x series drops support for Python 3.8.",
        "Quadtrees adapt to the density of the data",
        "Setting things up",
        "Build time",
        "naive scan",
        "Measured with `python -m fastgrid.bench --points 1e6` on an idle machine.",
    ):
        assert any(present in p for p in prose), present
    assert "Query time (k=10)" in prose and "0.05 ms" in prose
    guarded = protected(text, blocks)
    for span in (
        "`(x, y)`",
        '](docs/guide.md "The guide")',
        "][api]",
        "<https://fastgrid.example.org>",
        "<maintainers@example.org>",
        "$O(1 + k)$",
        "$\\sqrt{k / \\rho}$",
        "[^bench]",
        "&copy;",
        "<br>",
        "**",
        "`FASTGRID_CELL=0.25`",
    ):
        assert span in guarded, span
    # the badge lines are links around images only: no prose, so no block
    assert not any("Build status" in p for p in prose)


def test_readme_lines_match_markdown_it() -> None:
    assert_same_prose_lines(data("README.md"))
    assert_same_prose_lines(data("guide.md"))


# -- constructs --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("# Title #\n", [["Title"]]),
        ("## Title\n", [["Title"]]),
        ("#Not a heading\n", [["#Not a heading"]]),
        ("Setext\n======\n\nNext\n---\n", [["Setext"], ["Next"]]),
        ("para one\ncontinued\n\npara two\n", [["para one", "continued"], ["para two"]]),
        ("> quoted\n> more\nlazy\n", [["quoted", "more", "lazy"]]),
        ("> > nested\n> > quote\n", [["nested", "quote"]]),
        ("- one\n- two\n  wrapped\n", [["one"], ["two", "wrapped"]]),
        ("1. one\n2. two\n", [["one"], ["two"]]),
        ("text\n2. not a list\n", [["text", "2. not a list"]]),
        ("text\n- a list\n", [["text"], ["a list"]]),
        ("- a\n\n  second para\n- b\n", [["a"], ["second para"], ["b"]]),
        ("* outer\n  * inner\n", [["outer"], ["inner"]]),
        ("> - item in quote\n>   continued\n", [["item in quote", "continued"]]),
        ("```\ncode\n```\nafter\n", [["after"]]),
        ("~~~~\ncode\n```\nstill code\n~~~~\nafter\n", [["after"]]),
        ("- item\n\n  ```\n  code\n  ```\n", [["item"]]),
        ("    indented code\n\ntext\n", [["text"]]),
        ("text\n    not code, continuation\n", [["text", "not code, continuation"]]),
        ("<div>\nhtml *block*\n</div>\n\ntext\n", [["text"]]),
        ("<!-- a\ncomment -->\ntext\n", [["text"]]),
        ("---\ntitle: x\n---\ntext\n", [["text"]]),
        ("[ref]: https://example.org\ntext\n", [["text"]]),
        ("$$\nx = 1\n$$\ntext\n", [["text"]]),
        ("***\ntext\n", [["text"]]),
        ("| a | b |\n|---|:-:|\n| c | d \\| e |\n", [["a"], ["b"], ["c"], ["d \\| e"]]),
        ("a | b\n--|--\nc | d\n\ntext\n", [["a"], ["b"], ["c"], ["d"], ["text"]]),
        ("[^1]: the note\n    continued\n", [["the note", "continued"]]),
        ("text  \nhard break\n", [["text", "hard break"]]),
        ("para\r\nwith CRLF\r\n\r\n# Head\r\n", [["para", "with CRLF"], ["Head"]]),
        ("", []),
        ("\n\n   \n", []),
    ],
)
def test_constructs(source: str, expected: list[list[str]]) -> None:
    assert texts(source, blocks_of(source)) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # an item starts with at most one blank line: after two, the text is outside the list,
        # here indented code
        ("- \n\n    code, not prose\n", []),
        ("- \n\n  words\n", [["words"]]),
        ("- a\n  - \n\n    words\n", [["a"], ["words"]]),
        ("> - \n>\n>     code\n", []),
        # a math block in an item runs to its closing `$$`, over blank and unindented lines
        ("- item\n\n  $$\nx = 1\n\n  $$\n  after\n", [["item"], ["after"]]),
        ("- $$\nE = mc^2\n$$\n", []),
        # without a closing `$$` it is no block: paragraph text (here the item's)
        ("- $$\n  a sum\nwords\n", [["$$", "a sum", "words"]]),
        ("$$\nwords\n\nmore\n", [["$$", "words"], ["more"]]),
        # in a quote, the closing line must be in the quote
        ("> $$\n>\nwords\n> $$\n", [["words"]]),
        ("> $$\nx = 1\n> $$\n", []),
        # HTML blocks in items end with the item or at a blank line
        ("- item\n\n  <div>\n  *html*\n  </div>\n\n  words\n", [["item"], ["words"]]),
        ("- <div>\nwords\n", [["words"]]),
        # a line indented by 4 after an item whose content is further in: never indented code
        # in the item, so a quote marker ends the paragraph (and the line is code outside)...
        ("   - words here\n    > code\n", [["words here"]]),
        ("   - > quoted\n    > code\n", [["quoted"]]),
        # ...but a list marker indented by 4 from the item's list is paragraph text
        ("   - words here\n    - more words\n", [["words here", "- more words"]]),
        ("   - > quoted\n    - more words\n", [["quoted", "- more words"]]),
        # an open quote goes on at any indentation
        ("> quoted\n    > more\n", [["quoted", "more"]]),
        ("> quoted\n    >\n", [["quoted"]]),
    ],
)
def test_list_and_block_cases_read_as_markdown_it(source: str, expected: list[list[str]]) -> None:
    assert texts(source, blocks_of(source)) == expected
    assert_same_prose_lines(source)


@pytest.mark.parametrize(
    ("source", "spans"),
    [
        ("Use `a | b` and ``x ` y`` here", ["`a | b`", "``x ` y``"]),
        ("A [link](https://x.org/a_(b) 'title') here", ["[", "](https://x.org/a_(b) 'title')"]),
        ("A [ref][label] and [collapsed][] link", ["[", "][label]", "[", "][]"]),
        ("An ![image *alt*](i.png) here", ["![image *alt*](i.png)"]),
        ("A <https://a.org/x> and <me@a.org> link", ["<https://a.org/x>", "<me@a.org>"]),
        ('Some <span class="x">html</span> inline', ['<span class="x">', "</span>"]),
        ("Math $a^2 + b$ but not $5 or $ 6", ["$a^2 + b$"]),
        ("Footnote[^note] here", ["[^note]"]),
        ("*em* **strong** ~~gone~~ _under_", ["*", "*", "**", "**", "~~", "~~", "_", "_"]),
        ("snake_case_name stays a word", []),
        (
            "See https://example.org/a?b=c. Or www.example.org",
            ["https://example.org/a?b=c", "www.example.org"],
        ),
        ("Escapes \\* and &amp; and &#x27;", ["\\*", "&amp;", "&#x27;"]),
        ("Install {#install .tab} and :warning: at 10:30", ["{#install .tab}", ":warning:"]),
        ('===  "A content tab"', ["===  "]),
    ],
)
def test_inline_protection(source: str, spans: list[str]) -> None:
    blocks = blocks_of(source)
    assert protected(source, blocks) == spans


def test_code_span_across_lines_is_protected_on_both_lines() -> None:
    source = "Run `make\ncheck` first\n"
    blocks = blocks_of(source)
    assert protected(source, blocks) == ["`make", "check`"]


def test_block_with_only_markup_is_not_prose() -> None:
    source = "`code only`\n\n![img](x.png)\n\n**Real** words\n"
    assert joined(source, blocks_of(source)) == ["**Real** words"]


def test_dispatch_by_language_id_and_extension() -> None:
    source = "# Title\n\n```\ncode\n```\n"
    expected = markdown_blocks(source)
    assert prose_blocks(source, "markdown") == expected
    assert prose_blocks(source, None, "file:///home/me/README.md") == expected
    assert prose_blocks(source, None, "file:///home/me/notes.markdown") == expected


def test_crlf_and_lf_give_the_same_prose() -> None:
    lf = data("README.md")
    crlf = lf.replace("\n", "\r\n")
    assert joined(crlf, blocks_of(crlf)) == joined(lf, markdown_blocks(lf))


# -- markdown-it-py as the reference, on generated documents -----------------------------------

_FRAGMENTS = [
    "Plain words in a paragraph.",
    "more words with `code` and a [link](https://example.org)",
    "- bullet item",
    "  - nested item",
    "* star item",
    "1. first",
    "2. second",
    "> quoted text",
    "> > deeper",
    "# Heading",
    "### Third level ###",
    "Setext title\n============",
    "```python\nx = 1\n\ny = 2\n```",
    "~~~\ncode\n~~~",
    "    indented code",
    "<div>\nhtml block\n</div>",
    "<!-- comment -->",
    "| a | b |\n|---|---|\n| c | d |",
    "[label]: https://example.org",
    "---",
    "***",
    "$$\nE = mc^2\n$$",
    "[^n]: a footnote",
    "text with *emphasis* and **strong**",
    "   three spaces of indentation",
    "\tafter a tab",
    "> quote\ncontinued lazily",
    "1) paren item",
    "+ plus item",
    "10. tenth",
    "<span>inline</span> html start",
    "   ```\n   fenced with indent\n   ```",
    "- \n  item after an empty marker",
    "Term\n---",
    "- item\n\n  para in the item\n  more of it",
    "- item\n\n  ```\n  code in the item\n\n  more code\n  ```",
    "1. item\n   wrapped\n\n       indented code in the item",
    # numbers and math starting a line, pipes without a delimiter row, code and blank lines
    # inside items, math and HTML blocks with blank lines
    "2024 was the year it started",
    "$x$ starts this line",
    "| only | pipes |",
    "- item\n\n  ~~~\n  tilde code\n\n  ~~~",
    "$$\n\nx = 1\n$$",
    "<!--\n\ncomment\n-->",
    # definition lists
    "Term\n: a definition",
    "Term\n\n:   a loose definition\n\n    its second paragraph",
    "Term\n~ tilde definition\n~ another one",
    ": a definition's marker",
    "Term\n: - a list in a definition",
    "",
]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(st.sampled_from(_FRAGMENTS), st.sampled_from(["\n", "\n\n", "\n\n\n"])),
        min_size=1,
        max_size=10,
    )
)
def test_generated_documents_match_markdown_it(parts: list[tuple[str, str]]) -> None:
    text = "".join(fragment + sep for fragment, sep in parts)
    blocks = blocks_of(text)
    assume(not heading_over_definitions(text))
    assert_same_prose_lines(text)
    # (the words are compared unless a `$$` that opens no math block is left in the prose, by
    # the extractor or by markdown-it-py: see the list-heavy test below)
    if not any("$$" in text[s:e] for block in blocks for s, e in block.segments) and not any(
        "$$" in line for line in reference_prose_lines(text).values()
    ):
        assert our_prose_words(text) == reference_prose_words(text)


@settings(max_examples=examples(150), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab *-_`[]()<>!#$>|\n\t\\:=~1.")), max_size=80))
def test_arbitrary_input_keeps_the_contract(text: str) -> None:
    blocks_of(text)


# -- definition lists ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # the trial's document: the term and the definition are blocks of their own
        ("Apple\n: A fruit.\n", [["Apple"], ["A fruit."]]),
        ("Apple\n\n:   A fruit.\n", [["Apple"], ["A fruit."]]),
        # Pandoc's `~`, several definitions of one term, the marker indented
        ("Term\n~ First.\n~ Second.\n", [["Term"], ["First."], ["Second."]]),
        ("Term\n  : First.\n  : Second.\n", [["Term"], ["First."], ["Second."]]),
        ("Term\n: First.\n\n: Second.\n", [["Term"], ["First."], ["Second."]]),
        # a definition's paragraphs, its lazy line, its code (indented 4 past its content)
        (
            "Term\n:   Defined here\n    and here\nlazily.\n\n    Second paragraph.\n\n"
            "        code, not prose\n\n    ``` yaml\n    a: b\n    ```\n",
            [["Term"], ["Defined here", "and here", "lazily."], ["Second paragraph."]],
        ),
        # blocks in a definition
        ("Term\n: - item one\n  - item two\n", [["Term"], ["item one"], ["item two"]]),
        ("Term\n: > quoted\n", [["Term"], ["quoted"]]),
        # the next term after a blank line; in a list item; in a quote
        (
            "One\n: First.\n\nTwo\n: Second.\n",
            [["One"], ["First."], ["Two"], ["Second."]],
        ),
        ("- Term\n  : Defined.\n", [["Term"], ["Defined."]]),
        ("> Term\n> : Defined.\n", [["Term"], ["Defined."]]),
        # not a definition: no term, no space after the marker, nothing after it, a fence
        (": no term here\n", [[": no term here"]]),
        ("# Heading\n\n: not a definition\n", [["Heading"], [": not a definition"]]),
        ("Term\n:no space\n", [["Term", ":no space"]]),
        ("Term\n\n\n: two blank lines\n", [["Term"], [": two blank lines"]]),
        ("Term\n~~~\ncode\n~~~\n", [["Term"]]),
        # a paragraph right above a marker: each of its lines is a term (PHP Markdown Extra,
        # Python-Markdown), where markdown-it-py and Pandoc read one paragraph with the marker
        ("Apple\nPear\n: Fruits.\n", [["Apple"], ["Pear"], ["Fruits."]]),
        ("Apple\nPear\n: Fruits.\n: Sweet.\n", [["Apple"], ["Pear"], ["Fruits.", "Sweet."]]),
        # a term as MkDocs Material writes it (an HTML comment): a paragraph, its marker out
        ("<!-- md:option x -->\n\n:   The option.\n\n    code\n", [["The option."]]),
        # after a definition, whatever is right above a marker is the next term
        ("One\n: First.\n\n# Two\n: Second.\n", [["One"], ["First."], ["# Two"], ["Second."]]),
        # a marker under a term of one line, indented by any amount
        ("Term\n        : Deep.\n", [["Term"], ["Deep."]]),
        # a setext underline right below a definition is markup
        ("Term\n: Defined.\nTitle\n=====\n", [["Term"], ["Defined.", "Title"]]),
    ],
)
def test_definition_lists(source: str, expected: list[list[str]]) -> None:
    assert texts(source, blocks_of(source)) == expected
    assert_same_prose_lines(source)
    assert our_prose_words(source) == reference_prose_words(source)


def test_definition_lists_as_mkdocs_material_writes_them() -> None:
    """Terms written as HTML comments (which its hooks replace), the definition's first line
    opening with one: read as Python-Markdown reads them, the comment protected in the
    definition's first paragraph; markdown-it-py reads that line as an HTML block and the
    marker line after a comment as a paragraph (so the lines are not compared)."""
    source = (
        "<!-- md:option git-revision-date-localized.enabled -->\n\n"
        ":   <!-- md:default `true` --> This option specifies whether\n"
        "    the plugin is enabled when building your project:\n\n"
        "    ``` yaml\n    plugins:\n      - git-revision-date-localized\n    ```\n\n"
        "<!-- md:option type:note -->\n\n:   !!! note\n"
    )
    blocks = blocks_of(source)
    assert texts(source, blocks) == [
        [
            "<!-- md:default `true` --> This option specifies whether",
            "the plugin is enabled when building your project:",
        ],
    ]  # (the last definition holds an admonition's mark only: no prose)
    assert protected(source, blocks) == ["<!-- md:default `true` -->"]


# -- inline protection against markdown-it-py's inline tokens -----------------------------------

_WORDS = re.compile(r"[^\W_]+")
# Protected by design even where markdown-it-py reads text: bare URLs (no linkify there),
# footnote references without a definition, attribute lists, container fences and emoji
# short codes.
_BARE_URL = re.compile(
    r"(?:https?|ftp)://[^\s<>]*|www\.[^\s<>]*|\[\^[^\]\s]+\]"
    r"|" + ATTRIBUTE_LIST + r"|:::+(?:[ \t]*\{[^{}\n]*\}|[ \t]*[\w-]+)?|:[a-z0-9_+-]{2,}:(?![\w:])"
    r"|\{\{.*?\}\}|\{%.*?%\}|\{\*.*?\*\}|///+(?:[ \t]*[\w-]+)?|[!?]{3}[ \t]+[\w-]+(?=[ \t]+\"|$)"
)


def reference_prose_words(text: str) -> list[str]:
    """Words markdown-it-py parses as text (not code, HTML, URLs, images, math, footnotes)."""
    words: list[str] = []
    for token in _MD.parse(text):
        if token.type != "inline" or not token.children:
            continue
        depth_autolink = 0
        for child in token.children:
            if child.type == "link_open" and child.markup == "autolink":
                depth_autolink += 1
            elif child.type == "link_close" and depth_autolink:
                depth_autolink -= 1
            elif child.type == "text" and not depth_autolink:
                words.extend(_WORDS.findall(_BARE_URL.sub(" ", child.content)))
    return words


def our_prose_words(text: str) -> list[str]:
    """Words outside protected spans in our blocks."""
    words: list[str] = []
    for block in markdown_blocks(text):
        for s, e in block.segments:
            pos = s
            for ps, pe in block.protected:
                if s <= ps < e:
                    words.extend(_WORDS.findall(text[pos:ps]))
                    pos = pe
            words.extend(_WORDS.findall(text[pos:e]))
    return words


@pytest.mark.parametrize("name", ["README.md", "guide.md"])
def test_prose_words_match_markdown_it(name: str) -> None:
    text = data(name)
    assert our_prose_words(text) == reference_prose_words(text)


_INLINE_FRAGMENTS = [
    "plain words",
    "`code span`",
    "``double `tick` code``",
    "*emphasis*",
    "**strong words**",
    "_under score_",
    "snake_case_word",
    "[link text](https://example.org/path 'a title')",
    "[ref link][label]",
    "![alt words](image.png)",
    "<https://auto.link/x>",
    '<span class="c">',
    "</span>",
    "$x + y$",
    "https://bare.example.org/page",
    "\\*escaped\\*",
    "~~struck words~~",
    "[^note]",
    "{#anchor .cls}",
    "{ #spaced-anchor }",
    "{{< youtube abc >}}",
    "{{ page.title }}",
    "{% include a.html %}",
    "{: .kramdown }",
    "{.cls key=val}",
    ":rocket:",
    "at 10:30",
]


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.sampled_from(_INLINE_FRAGMENTS), min_size=1, max_size=8))
def test_generated_inline_words_match_markdown_it(parts: list[str]) -> None:
    text = (
        "Start " + " and ".join(parts) + " end.\n\n"
        "[label]: https://example.org\n\n[^note]: The note.\n"
    )
    assert our_prose_words(text) == reference_prose_words(text)


# -- list-heavy documents: items, quotes and lazy lines ----------------------------------------

_LIST_TEXTS = [
    "words here",
    "(a parenthesis",
    "more `code` and *emphasis*",
    "- nested",
    "1. numbered",
    "2. numbered",
    "> quoted",
    "```",
    "~~~",
    "---",
    "***",
    "# heading",
    "| a | b |",
    "[link](https://example.org) text",
    "title { #anchor } and {{< sc x >}}",
]


_ALL_INDENTS = ["", "", " ", "  ", "   ", "    ", "     ", "      ", "        "]


def _list_documents(texts: list[str], indents: list[str] = _ALL_INDENTS) -> st.SearchStrategy[str]:
    """Documents of list items, their continuation and lazy lines, quotes and blank lines."""
    line = st.tuples(
        st.sampled_from(indents),
        st.sampled_from(["", "", "- ", "* ", "+ ", "1. ", "2. ", "3) ", "10. ", "-  ", "-     "]),
        st.sampled_from(texts),
    )
    return st.lists(st.one_of(st.just(("", "", "")), line, line), min_size=1, max_size=14).map(
        lambda lines: "".join(a + b + c + "\n" for a, b, c in lines)
    )


@pytest.mark.parametrize(
    "text",
    [
        "words here\n2. ```\nmore `code` and *emphasis*\n",  # found by the property below
        "an open ``` run, then `code` and ``more code``\n",
    ],
)
def test_an_unclosed_run_of_ticks_is_text_and_later_code_spans_are_code(text: str) -> None:
    assert our_prose_words(text) == reference_prose_words(text)


# with empty items, blank quote lines, math and HTML blocks, tabs and definitions in items
_ALL_LIST_TEXTS = [
    *_LIST_TEXTS,
    *("", "> ", "$$", "<div>", "\tafter a tab", "[x]: /url", ": defined", "~ defined"),
]


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_list_documents(_ALL_LIST_TEXTS))
def test_list_heavy_documents_match_markdown_it(text: str) -> None:
    blocks = blocks_of(text)
    assume(not heading_over_definitions(text))
    assert_same_prose_lines(text)
    # A `$$` that opens no math block is paragraph text, where markdown-it-py pairs any two
    # dollar signs as inline math (across lines, around words); the extractor reads `$` as
    # math only around text that neither starts nor ends with a space (see docs/markup.md):
    # the words are compared when no `$` is left in the prose.
    if not any("$" in text[s:e] for block in blocks for s, e in block.segments):
        assert our_prose_words(text) == reference_prose_words(text)


def test_a_document_with_a_nul_gets_the_spans_of_one_without():
    # the patterns stop at a NUL, not at the end of the block: the spans are the same (here the
    # NUL stands where a comma would)
    doc = (
        "# Title `x`\n\nPlain,text with `code` and [link](https://x.org) here,\n"
        "more *em* text.\n\n| a | `b` |\n|---|---|\n| c **d** | e |\n\n> quoted `q` and _u_\n"
    )
    with_nul = doc.replace(",", "\x00")

    def spans(text: str) -> list[tuple[object, object]]:
        return [(block.segments, block.protected) for block in markdown_blocks(text)]

    assert spans(with_nul) == spans(doc)
    assert sum(1 for _, protected_spans in spans(doc) if protected_spans) >= 4


@pytest.mark.parametrize("line", ["{{ a\n", "{% a\n", "{* a\n", "see {{ a and more text here\n"])
def test_unclosed_template_tags_cost_linear_time(line: str) -> None:
    # No timing assertion: were each unclosed tag searched for its end through the rest of the
    # text, this paragraph of 32,000 of them (up to 900 KB) would take minutes.
    text = line * 32_000
    blocks = markdown_blocks(text)
    assert len(blocks) == 1 and len(blocks[0].segments) == 32_000  # one paragraph, every line
    closed = "Use {{< youtube w7Ft2ymGmfc >}} or {% include a.html %} here.\n"
    assert {"{{< youtube w7Ft2ymGmfc >}}", "{% include a.html %}"} <= set(
        protected(closed, markdown_blocks(closed))
    )


@pytest.mark.parametrize(
    ("opening", "closed"),
    [("<!--", "<!-- a comment -->"), ("<?", "<?php echo 1; ?>"), ("<![CDATA[", "<![CDATA[x]]>")],
)
def test_an_unclosed_comment_ends_at_the_next_opening_of_its_kind(
    opening: str, closed: str
) -> None:
    # each of many unclosed openings read to the end of the text cost quadratic time (80 KB of
    # "a <!-- --": 3 s); the words after an unclosed one are prose
    text = f"Some {opening} open words here and {closed} end.\n"
    guarded = protected(text, markdown_blocks(text))
    assert guarded[-1] == closed
    assert not any("open words" in span for span in guarded)
