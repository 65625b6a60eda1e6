"""Typst and HTML: what is prose and what comes back byte for byte, on constructs one by one and
on published documents (tests/data/markup/real/, see SOURCES.md there: Typst's own templates,
Google's style guides), through the round trip with the offline engine and random mutations."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markup_helpers import check_blocks, data, joined, protected
from test_markup_roundtrip import improve_document, mutate
from tests.hypothesis_profiles import examples

from rephrase_ls.offline.engine import improve
from rephrase_ls.text.markup import format_for, prose_blocks


def typst(text: str) -> tuple[list[str], list[str], str]:
    """Each block joined, every protected span, and the words that would be sent."""
    return _read(text, "typst")


def html(text: str) -> tuple[list[str], list[str], str]:
    return _read(text, "html")


def _read(text: str, language_id: str) -> tuple[list[str], list[str], str]:
    blocks = prose_blocks(text, language_id)
    check_blocks(text, blocks)
    return joined(text, blocks), protected(text, blocks), sent(text, blocks)


def sent(text: str, blocks: list) -> str:
    """The prose that would be sent as words: every segment with its protected spans cut out."""
    out = []
    for block in blocks:
        for s, e in block.segments:
            pos = s
            for ps, pe in block.protected:
                if s <= ps < e:
                    out.append(text[pos:ps])
                    out.append(" ")
                    pos = pe
            out.append(text[pos:e])
            out.append(" ")
        out.append("\n")
    return "".join(out)


def engine(prose: str) -> str:
    return improve(prose, "en-US")


# -- choosing the format ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language_id", "uri", "expected"),
    [
        (None, "file:///paper/main.typ", "typst"),
        ("typst", "untitled:Untitled-1", "typst"),
        ("plaintext", "file:///paper/main.typ", "typst"),
        (None, "file:///site/index.html", "html"),
        (None, "file:///site/INDEX.HTM", "html"),
        ("html", "untitled:Untitled-2", "html"),
        ("plaintext", "file:///site/about.htm", "html"),
    ],
)
def test_the_format_by_extension_and_language_id(
    language_id: str | None, uri: str, expected: str
) -> None:
    assert format_for(language_id, uri, "Some text.") == expected


# -- Typst, construct by construct ---------------------------------------------------------------


def test_typst_headings_paragraphs_and_items_are_blocks_with_markers_outside() -> None:
    text = (
        "= Introduction <intro>\n"
        "This paragraph goes\non a second line.\n\n"
        "- first item\n  goes on here\n- second item\n"
        "+ numbered\n1. explicit\n"
        "/ Term: its description\n"
        "After the list.\n"
    )
    blocks, guarded, words = typst(text)
    assert blocks == [
        "Introduction <intro>",
        "This paragraph goes on a second line.",
        "first item goes on here",
        "second item",
        "numbered",
        "explicit",
        "Term: its description",
        "After the list.",
    ]
    assert guarded == ["<intro>"]
    assert "intro" not in words


def test_typst_code_is_not_prose() -> None:
    text = (
        '#import "@preview/charged-ieee:0.1.3": ieee\n'
        '#set text(font: "Linux Libertine", lang: "en")\n'
        "#let total = calc.pow(2, 8)\n"
        "#show heading: it => block(it.body)\n"
        "#if total > 3 { [Big] } else { [Small] }\n"
        "#for x in (1, 2) [Item #x. ]\n\n"
        "Only this sentence is prose.\n"
    )
    blocks, _, words = typst(text)
    assert blocks[-1] == "Only this sentence is prose."
    for code in ("import", "preview", "font", "Libertine", "calc", "heading", "total"):
        assert code not in words, code
    # the content blocks of code are prose of their own
    assert "Big" in blocks and "Small" in blocks


def test_typst_calls_inside_a_sentence_keep_their_content_in_it() -> None:
    text = (
        'See #link("https://typst.app/docs")[the manual] and #emph[this] too.#footnote[A note.]\n'
    )
    blocks, guarded, words = typst(text)
    assert blocks == [text.rstrip("\n")]
    assert '#link("https://typst.app/docs")[' in guarded
    assert "typst.app" not in words and "manual" in words and "A note." in words


def test_typst_a_block_call_at_a_line_start_is_a_block_of_its_own() -> None:
    text = (
        "Text before the figure.\n"
        '#figure(\n  image("sun.png", width: 50%),\n  caption: [A circle for the Sun.],\n)'
        " <fig:sun>\n"
        "Text after it, see @fig:sun.\n"
    )
    blocks, guarded, words = typst(text)
    # the label after the figure holds no prose: no block of its own
    assert blocks == [
        "Text before the figure.",
        "A circle for the Sun.",
        "Text after it, see @fig:sun.",
    ]
    assert "@fig:sun" in guarded and "sun.png" not in words and "width" not in words


def test_typst_raw_math_labels_references_escapes_and_markers_are_protected() -> None:
    text = (
        "Run `typst compile` on $x^2 + y$, see @eq:one and <here>, pay \\$5, "
        "*strong* and _emph_ words~together, a snake_case name, https://typst.app/x.\n"
    )
    blocks, guarded, words = typst(text)
    assert len(blocks) == 1
    for span in (
        "`typst compile`",
        "$x^2 + y$",
        "@eq:one",
        "<here>",
        "\\$",
        "~",
        "https://typst.app/x",
    ):
        assert span in guarded, span
    assert "*" not in words and "_emph_" not in words and "snake_case" in words
    assert "compile" not in words and "eq:one" not in words


def test_typst_raw_blocks_comments_and_display_math() -> None:
    text = (
        'Before the code.\n\n```rust\nfn main() { println!("the the"); }\n```\n\n'
        "// a comment line\nA sentence /* inline comment */ goes on.\n\n"
        "The formula is\n$ a + b = c $\n"
    )
    blocks, _, words = typst(text)
    assert blocks == [
        "Before the code.",
        "A sentence /* inline comment */ goes on.",
        "The formula is $ a + b = c $",
    ]
    assert "println" not in words and "comment" not in words and "a + b" not in words


def test_typst_unclosed_delimiters_are_text() -> None:
    text = "A lone ` backtick and a $ sign, then more words.\n"
    blocks, guarded, words = typst(text)
    assert blocks == [text.rstrip("\n")]
    assert guarded == ["`", "$"]
    assert "then more words" in words


def test_typst_nesting_thousands_deep_costs_no_recursion() -> None:
    text = "#[" * 20_000 + "Deep words." + "]" * 20_000
    blocks, _, words = typst(text)
    assert "Deep words." in words and len(blocks) == 1


# -- HTML, construct by construct ----------------------------------------------------------------


def test_html_block_elements_are_blocks_and_skipped_elements_are_not_prose() -> None:
    text = (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>The title</title>\n'
        "<style>p { color: red; }</style>\n</head>\n<body>\n"
        "<h1>A heading</h1>\n<p>A paragraph that goes\non.</p>\n"
        "<ul><li>One item</li><li>Another item</li></ul>\n"
        "<table><tr><td>Cell one</td><td><code>x = 1</code></td></tr></table>\n"
        "<pre>preformatted the the text</pre>\n"
        "<script>var teh = 1;</script>\n"
        "<p>Line one<br>line two</p>\n</body>\n</html>\n"
    )
    blocks, _, words = html(text)
    assert blocks == [
        "A heading",
        "A paragraph that goes on.",
        "One item",
        "Another item",
        "Cell one",
        "Line one",
        "line two",
    ]
    for absent in ("title", "color", "preformatted", "teh", "x = 1", "DOCTYPE"):
        assert absent not in words, absent


def test_html_inline_tags_code_entities_and_urls_are_protected() -> None:
    text = (
        '<p>Read <a href="https://example.org/teh" title="a > b">the guide</a>, '
        "use <code>recieve()</code> and <em>never</em> &lt;blink&gt;; "
        "see https://example.org/x. <!-- a comment --> Done.</p>\n"
    )
    blocks, guarded, words = html(text)
    assert len(blocks) == 1
    for span in (
        '<a href="https://example.org/teh" title="a > b">',
        "</a>",
        "<code>recieve()</code>",
        "&lt;",
        "&gt;",
        "https://example.org/x",
    ):
        assert any(span in g for g in guarded), span
    assert "teh" not in words and "recieve" not in words and "comment" not in words
    assert "the guide" in words and "never" in words


def test_html_a_tag_never_closed_takes_the_rest_and_a_lone_less_than_is_text() -> None:
    blocks, _, _ = html("<p>If a < b then it holds.</p>\n<p>Then <a href='x' more text\n")
    assert blocks == ["If a < b then it holds.", "Then"]


# -- published documents ------------------------------------------------------------------------

REAL = [
    "typst-charged-ieee.typ",
    "typst-unequivocal-ams.typ",
    "typst-dashing-dept-news.typ",
    "google-javaguide.html",
    "google-htmlcssguide.html",
]


def real(name: str) -> str:
    return data(f"real/{name}")


@pytest.mark.parametrize("name", REAL)
def test_published_document_identity_and_engine_change_only_prose(name: str) -> None:
    text = real(name)
    uri = f"file:///project/{name}"
    assert improve_document(text, uri, lambda prose: prose) == text
    improve_document(text, uri, engine)


@pytest.mark.parametrize("name", REAL)
@settings(max_examples=examples(10), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), rate=st.floats(0.05, 0.9))
def test_published_document_random_mutations_change_only_prose(
    name: str, seed: int, rate: float
) -> None:
    rng = random.Random(seed)
    text = real(name)
    improve_document(
        text, f"file:///p/{name}", lambda prose: mutate(prose, rng, rate), lines_may_empty=True
    )


def test_charged_ieee_code_strings_labels_and_references_are_kept() -> None:
    text = real("typst-charged-ieee.typ")
    blocks = prose_blocks(text, None, "file:///t/main.typ")
    check_blocks(text, blocks)
    words = sent(text, blocks)
    prose = joined(text, blocks)
    for absent in (
        "preview",
        "Martin Haug",
        "haug@typst.app",
        "refs.bib",
        "lorem",
        "placement",
        "sec:methods",
        "fig:sun",
        "calc.rem",
        "efefef",
        "Table styling",
    ):
        assert absent not in words, absent
    assert "A Typesetting System to Untangle the Scientific Writing Process" in prose
    assert any(p.startswith("The process of scientific writing is often tangled") for p in prose)
    assert "A circle representing the Sun." in prose  # a figure's caption
    assert "Mercury" in prose  # a table cell


def test_unequivocal_ams_math_is_protected_and_theorems_are_prose() -> None:
    text = real("typst-unequivocal-ams.typ")
    blocks = prose_blocks(text, None, "file:///t/main.typ")
    check_blocks(text, blocks)
    words = sent(text, blocks)
    for absent in ("sqrt(", "binom(", "integral_", "pi^2", "x^2"):
        assert absent not in words, absent
    assert "The square of any real number is non-negative." in joined(text, blocks)
    assert "Call me Ishmael." in words


def test_javaguide_head_scripts_and_code_are_not_sent() -> None:
    text = real("google-javaguide.html")
    blocks = prose_blocks(text, None, "file:///s/javaguide.html")
    check_blocks(text, blocks)
    words = sent(text, blocks)
    prose = joined(text, blocks)
    for absent in (
        "Google Java Style Guide</title>",
        "styleguide.js",
        "prettyprint",
        "unitAbbrev",
        "\\u03bcs",
        "@interface",
        "s1-introduction",
        "#8482",
    ):
        assert absent not in words, absent
    assert "1.1 Terminology notes" in prose
    assert "Best: perfectly clear even without a comment." in prose  # a table cell
    assert "Package statement" in prose  # a list item


def test_htmlcss_guide_examples_in_pre_are_not_sent() -> None:
    text = real("google-htmlcssguide.html")
    blocks = prose_blocks(text, None, "file:///s/htmlcssguide.html")
    check_blocks(text, blocks)
    words = sent(text, blocks)
    for absent in ("ajax.googleapis.com", "Not recommended", "fonts.googleapis", "{# TODO"):
        assert absent not in words, absent
    assert "Use HTTPS for embedded resources where possible." in joined(text, blocks)


# -- a slip in prose is fixed, the same slip in code, a call, a link target or math is kept ------

TYPST_SLIPS = (
    "= Results\n\n"
    "We recieve the data every day.\n\n"
    '#let recieve = "recieve"\n'
    "Call `recieve()` or #recieve(1) on $recieve$, see "
    '#link("https://example.org/recieve")[how we recieve it].\n'
)
HTML_SLIPS = (
    "<html><head><title>recieve</title></head><body>\n"
    "<p>We recieve the data every day.</p>\n"
    '<p>Call <code>recieve()</code>, see <a href="https://example.org/recieve">how we '
    "recieve it</a>.</p>\n"
    "<pre>recieve</pre>\n<script>recieve();</script>\n"
    "<p><math><mi>recieve</mi></math> is math.</p>\n</body></html>\n"
)


@pytest.mark.parametrize(
    ("text", "uri", "kept"),
    [
        (
            TYPST_SLIPS,
            "file:///p/slips.typ",
            [
                '#let recieve = "recieve"',
                "`recieve()`",
                "#recieve(1)",
                "$recieve$",
                '#link("https://example.org/recieve")[',
            ],
        ),
        (
            HTML_SLIPS,
            "file:///p/slips.html",
            [
                "<title>recieve</title>",
                "<code>recieve()</code>",
                '<a href="https://example.org/recieve">',
                "<pre>recieve</pre>",
                "<script>recieve();</script>",
                "<mi>recieve</mi>",
            ],
        ),
    ],
)
def test_a_slip_is_fixed_in_prose_and_kept_in_code(text: str, uri: str, kept: list[str]) -> None:
    result = improve_document(text, uri, engine)
    assert "We receive the data every day." in result
    assert "how we receive it" in result
    for span in kept:
        assert span in text and span in result, span
    # and no other slip is left
    assert len(re.findall("recieve", result)) == sum(span.count("recieve") for span in kept)


# -- in-document directives in each format's comments --------------------------------------------


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("// rephrase: language=de\n= Titel\n\nEin Satz.\n", "de"),
        ("/* rephrase: language=fr */\nUne phrase.\n", "fr"),
        ("<!-- rephrase: language=pt-PT -->\n<p>Uma frase.</p>\n", "pt-PT"),
    ],
)
def test_the_language_directive_in_typst_and_html_comments(text: str, language: str) -> None:
    from rephrase_ls.text.language import document_override

    assert document_override(text) == language


@pytest.mark.parametrize(
    ("text", "fmt", "language"),
    [
        ('#set text(lang: "de")\n= Titel\n\nEin Satz.\n', "typst", "de"),
        # arguments over lines, another rule before it, nested groups and strings in them
        (
            '#set page(numbering: "1")\n#set text(\n  font: ("Libertinus", "New CM"),\n'
            '  fill: rgb("#222"),\n  lang: "en", region: "gb",\n)\nText.\n',
            "typst",
            "en-GB",
        ),
        ('#set text(region: "BR", lang: "pt")\n', "typst", "pt-BR"),
        # a region rephrase does not tell apart is dropped
        ('#set text(lang: "de", region: "at")\n', "typst", "de"),
        # a template's body, in code
        ('#let conf(doc) = {\n  set text(lang: "fr")\n  doc\n}\n', "typst", "fr"),
        ('#show: doc => { set text(size: 11pt); set text(lang: "es"); doc }\n', "typst", "es"),
        # the first rule that gives a language decides
        ('#set text(size: 11pt)\n#set text(lang: "it")\n#set text(lang: "de")\n', "typst", "it"),
        # not a rule: prose, a rule never closed, another argument, another function
        ('Write `#set text(lang: "de")` at the top.\n', "typst", None),
        ('#set text(lang: "de"\n\nText.\n', "typst", None),
        ('#set text(slang: "de")\n#set par(lang: "de")\n', "typst", None),
        # a comment directive wins
        ('// rephrase: language=en-US\n#set text(lang: "de")\n', "typst", "en-US"),
        ('<!DOCTYPE html>\n<html lang="de">\n<body><p>Ein Satz.</p></body></html>\n', "html", "de"),
        ("<HTML LANG=fr>\n", "html", "fr"),
        ('<html xml:lang="pt-PT" lang="pt-PT">\n', "html", "pt-PT"),
        ("<html class=\"a>b\" lang='en-gb'>\n", "html", "en-gb"),
        ('<html lang="de-AT">\n', "html", "de"),
        ('<html lang="zh-Hant-TW">\n', "html", "zh-Hant"),
        ('<html data-lang="de">\n<p lang="fr">Une phrase.</p>\n', "html", None),
        ('<html lang="">\n', "html", None),
        ('<!-- rephrase: language=en-GB -->\n<html lang="de">\n', "html", "en-GB"),
        # a format's own setting is read in that format only
        ('Use this page:\n\n```html\n<html lang="fr">\n```\n', "markdown", None),
        ('```typst\n#set text(lang: "de")\n```\n', "markdown", None),
        (":lang: de\n\nText.\n", "markdown", None),
        (":lang: de\n\nText.\n", "asciidoc", "de"),
        ("#+LANGUAGE: fr\n\nText.\n", "org", "fr"),
    ],
)
def test_the_document_language_from_typst_and_html_settings(
    text: str, fmt: str, language: str | None
) -> None:
    from rephrase_ls.text.language import document_override

    assert document_override(text, fmt) == language


@pytest.mark.parametrize(
    ("text", "language_id", "kept"),
    [
        (
            "A first sentence.\n\n// rephrase: off\nTheir reply, I beleive.\n// rephrase: on\n\n"
            "/* rephrase: ignore-next-line */\nSo it came untill now.\nThe end.\n",
            "typst",
            ["Their reply, I beleive.", "So it came untill now."],
        ),
        (
            "<p>A first sentence.</p>\n<!-- rephrase: off -->\n<p>Their reply, I beleive.</p>\n"
            "<!-- rephrase: on -->\n<!-- rephrase: ignore-next-line -->\n"
            "<p>So it came untill now.</p>\n<p>The end.</p>\n",
            "html",
            ["Their reply, I beleive.", "So it came untill now."],
        ),
    ],
)
def test_the_switches_in_typst_and_html_comments(
    text: str, language_id: str, kept: list[str]
) -> None:
    from rephrase_ls.improve.round_trip import without_directives

    blocks = without_directives(text, prose_blocks(text, language_id))
    prose = joined(text, blocks)
    assert "A first sentence." in prose and "The end." in prose
    for line in kept:
        assert not any(line in p for p in prose), line


# -- generated documents: fragments of every construct joined at random -------------------------

TYPST_FRAGMENTS = [
    "= A heading <h>\n", "== Sub heading\n", "Plain words of a sentence. ", "More words here.\n",
    "\n", "\n\n", "- an item\n", "  goes on\n", "+ numbered\n", "/ Term: text\n", "1. first\n",
    "`raw code` ", "```py\nprint(1)\n```\n", "$x^2$ ", "$ a + b $\n", "@ref ", "<label> ",
    '#link("https://x.org")[a link] ', "#emph[stressed words] ", "#footnote[A note.] ",
    '#set text(lang: "en")\n', "#let x = (1, [content])\n", "#figure(\n  caption: [Cap.],\n)\n",
    "#table([a], [b])\n", "#if x [yes] else [no]\n", "// comment\n", "/* block */ ", "*strong* ",
    "_emph_ ", "snake_case ", "\\# ", "~", "https://typst.app ", "#[", "]", "#f(", ")", "$", "`",
    '"quoted" ', "#{ let y = 1 }\n",
]  # fmt: skip
HTML_FRAGMENTS = [
    "<p>", "</p>", "Words of a sentence. ", "More words.\n", "\n", "\n\n", "<h2 id=x>", "</h2>",
    "<ul><li>", "</li><li>", "</li></ul>", '<a href="https://x.org/a">', "</a>", "<em>", "</em>",
    "<code>x()</code>", "<pre>code\n</pre>", "<script>var a = 1;</script>", "<style>p{}</style>",
    "&amp;", "&#160;", "<!-- comment -->", "<br>", "<img src=x alt='a > b'>", "<table><tr><td>",
    "</td><td>", "</td></tr></table>", "<head><title>T</title></head>", "a < b ", "<", "<code>",
    "<!DOCTYPE html>\n", "<div class=\"c\">", "</div>", "https://x.org ",
]  # fmt: skip


@pytest.mark.parametrize(
    ("fragments", "uri"),
    [(TYPST_FRAGMENTS, "file:///g/doc.typ"), (HTML_FRAGMENTS, "file:///g/page.html")],
    ids=["typst", "html"],
)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_documents_keep_the_contract_and_change_only_prose(
    fragments: list[str], uri: str, data: st.DataObject
) -> None:
    pieces = data.draw(st.lists(st.sampled_from(fragments), min_size=1, max_size=40))
    text = "".join(pieces)
    check_blocks(text, prose_blocks(text, None, uri))
    if not prose_blocks(text, None, uri):
        return
    assert improve_document(text, uri, lambda prose: prose) == text
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
    improve_document(text, uri, lambda prose: mutate(prose, rng, 0.5), lines_may_empty=True)


def test_html_templates_and_server_side_scripts_are_protected() -> None:
    text = (
        "<p>Hello {{ user.name }}, {% if admin %}you may edit{% endif %} {# a note #}.</p>\n"
        "<p>Today is <?php echo $date->format('l'); ?> here.</p>\n"
    )
    blocks, guarded, words = html(text)
    assert blocks == [
        "Hello {{ user.name }}, {% if admin %}you may edit{% endif %} {# a note #}.",
        "Today is <?php echo $date->format('l'); ?> here.",
    ]
    for span in (
        "{{ user.name }}",
        "{% if admin %}",
        "{% endif %}",
        "{# a note #}",
        "<?php echo $date->format('l'); ?>",
    ):
        assert span in guarded, span
    assert "user" not in words and "admin" not in words and "format" not in words
