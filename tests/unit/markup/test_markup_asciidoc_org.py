"""AsciiDoc and Org: what is prose, what comes back byte for byte, and the round trip on
documents of real projects (tests/data/markup/real/, see SOURCES.md there): Asciidoctor's README
and two pages of its Antora documentation, Doom Emacs's FAQ, manual and a module README."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markup_helpers import check_blocks, data, joined, protected
from test_markup_roundtrip import improve_document, mutate
from tests.hypothesis_profiles import examples

from rephrase_ls.offline.engine import improve
from rephrase_ls.text.markup import format_for, prose_blocks
from rephrase_ls.text.markup.asciidoc import asciidoc_blocks
from rephrase_ls.text.markup.org import org_blocks

ASCIIDOC_DOCUMENTS = [
    "asciidoctor-README.adoc",
    "asciidoctor-api-options.adoc",
    "asciidoctor-stem-mathematical.adoc",
]
ORG_DOCUMENTS = ["doom-faq.org", "doom-getting-started.org", "doom-spell-README.org"]
DOCUMENTS = ASCIIDOC_DOCUMENTS + ORG_DOCUMENTS


def adoc(source: str) -> list:
    blocks = asciidoc_blocks(source)
    check_blocks(source, blocks)
    return blocks


def org(source: str) -> list:
    blocks = org_blocks(source)
    check_blocks(source, blocks)
    return blocks


def sent(text: str, blocks: list) -> str:
    """The prose as words: every segment with its protected spans cut out."""
    out = []
    for block in blocks:
        for s, e in block.segments:
            pos = s
            for ps, pe in block.protected:
                if s <= ps < e:
                    out.append(text[pos:ps])
                    pos = pe
            out.append(text[pos:e])
            out.append(" ")
        out.append("\n")
    return "".join(out)


# -- choosing the format ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language_id", "uri", "expected"),
    [
        (None, "file:///docs/modules/ROOT/pages/index.adoc", "asciidoc"),
        (None, "file:///docs/guide.asciidoc", "asciidoc"),
        ("asciidoc", "untitled:Untitled-1", "asciidoc"),
        ("plaintext", "file:///notes/GUIDE.ADOC", "asciidoc"),
        (None, "file:///home/me/notes.org", "org"),
        ("org", "untitled:Untitled-1", "org"),
        ("plaintext", "file:///home/me/todo.org", "org"),
    ],
)
def test_format_by_extension_and_language_id(language_id, uri, expected) -> None:
    assert format_for(language_id, uri, "Some text.\n") == expected


# -- AsciiDoc -----------------------------------------------------------------------------------

ASCIIDOC = """\
= The Grid Guide
Jane Doe <jane@example.org>
v1.2, 2024-05-01
:toc: left
:url-repo: https://example.org/grid \\
  /tree/main

This guide explain the grid, with `Grid(cell=0.5)` and kbd:[Ctrl+G] and stem:[x^2 + y^2].
See link:https://example.org/docs[the documentation^] or xref:install.adoc#pip[installing it],
and <<usage,the usage section>>, footnote:[A footnote, with commas.] {url-repo}[the repository].
A hard line break +
ends this line.

// a comment line teh
== Usage ==

.A titled listing
[source,python]
----
grid = Grid(cell=teh)
----

[stem]
++++
\\sqrt{teh}
++++

NOTE: Grids are not thread safe.

[WARNING]
====
Keep a lock around the grid.
====

* First item
* [x] Second item with *bold* and _emphasis_ and snake_case_name
** Nested item
. Ordered item

CPU:: The unit that runs the code.
Memory::
  Where the points live.

[cols="1,1"]
|===
|Name |Meaning

|cell
|The size of a cell.
l|literal teh cell
m|monospace teh cell
a|An AsciiDoc cell.
|===

 $ pip install teh-grid

[literal]
A literal paragraph teh.

Two-line title
--------------

image::grid.png[A grid]
include::partial$footer.adoc[]
ifdef::env-github[]
A paragraph for GitHub.
endif::[]

'''
"""


def test_asciidoc_prose_blocks() -> None:
    blocks = adoc(ASCIIDOC)
    prose = joined(ASCIIDOC, blocks)
    assert prose[0] == "The Grid Guide"
    for present in (
        "Usage",
        "A titled listing",
        "Grids are not thread safe.",
        "Keep a lock around the grid.",
        "First item",
        "Nested item",
        "Ordered item",
        "CPU",
        "The unit that runs the code.",
        "Memory",
        "Where the points live.",
        "The size of a cell.",
        "An AsciiDoc cell.",
        "Two-line title",
        "A paragraph for GitHub.",
    ):
        assert present in prose, present
    assert "Second item with *bold* and _emphasis_ and snake_case_name" in prose
    assert "A hard line break ends this line." in " ".join(prose)
    everything = "\n".join(prose)
    for absent in (
        "Jane Doe",  # author line
        "v1.2",  # revision line
        ":toc:",
        "/tree/main",  # an attribute entry's continuation
        "teh",  # comments, listings, passthrough, literal cells and paragraphs
        "[source",
        "----",
        "NOTE:",
        "[x]",
        "image::",
        "include::",
        "ifdef::",
        "'''",
        "|===",
    ):
        assert absent not in everything, absent


def test_asciidoc_protected_spans() -> None:
    blocks = adoc(ASCIIDOC)
    guarded = protected(ASCIIDOC, blocks)
    for span in (
        "`Grid(cell=0.5)`",
        "kbd:[Ctrl+G]",
        "stem:[x^2 + y^2]",
        "link:https://example.org/docs[",
        "^]",
        "xref:install.adoc#pip[",
        "<<usage,",
        ">>",
        "footnote:[",
        "{url-repo}[",
    ):
        assert span in guarded, span
    words = sent(ASCIIDOC, blocks)
    for prose in ("the documentation", "installing it", "the usage section", "the repository"):
        assert prose in words, prose  # link texts are prose
    assert "A footnote, with commas." in words
    assert "example.org" not in words and "+\n" not in words
    assert "snake_case_name" in words  # an underscore inside a word is not a mark
    assert "*bold*" not in words and "_emphasis_" not in words


def test_asciidoc_link_text_with_attributes_is_protected_whole() -> None:
    text = "Read link:https://example.org[the guide,role=external,window=_blank] now.\n"
    blocks = adoc(text)
    assert "link:https://example.org[the guide,role=external,window=_blank]" in protected(
        text, blocks
    )


def test_asciidoc_open_block_styled_as_source_is_not_prose() -> None:
    text = "Intro text.\n\n[source,ruby]\n--\nputs teh\n--\n\n[plantuml]\n....\na -> teh\n....\n"
    assert joined(text, adoc(text)) == ["Intro text."]


def test_asciidoc_front_matter_and_csv_tables_are_not_prose() -> None:
    text = "---\ntitle: Teh page\n---\n= Title\n\nText.\n\n,===\nteh,data\n,===\n"
    assert joined(text, adoc(text)) == ["Title", "Text."]


# -- Org ----------------------------------------------------------------------------------------

ORG = """\
#+TITLE: Grid notes teh
#+OPTIONS: toc:nil
#+TODO: TODO WAIT | DONE

* WAIT [#A] Write the grid guide [1/2] :docs:grid:
  SCHEDULED: <2024-05-01 Wed>
  :PROPERTIES:
  :CUSTOM_ID: guide-teh
  :END:
This guide explain the grid, with =Grid(cell=0.5)= and ~grid.insert~ and $x^2 + y^2$
and \\(a + b\\) and \\alpha and src_python{Grid(teh)} and {{{version(teh)}}} and
a [[https://example.org/docs][documentation page]] and [[file:teh.org]] and footnote[fn:1].
It keeps *bold*, /italic/ and _underlined_ words, and a path ~/.config/grid/teh.el. \\\\
- First item
- [X] Second item
  goes on here.
- term :: the description
1. Ordered item

#+BEGIN_SRC python
grid = Grid(cell=teh)
#+END_SRC

#+begin_example
teh example
#+end_example

#+begin_quote
A quoted paragraph.
#+end_quote

: fixed width teh

| Name | Meaning          |
|------+------------------|
| cell | The size of a cell |
#+TBLFM: $2=teh

# a comment teh
\\begin{equation}
x = teh
\\end{equation}

* COMMENT Drafts
Nothing here is prose teh.
** Nor here

* DONE Next heading
[fn:1] The footnote text.
"""


def test_org_prose_blocks() -> None:
    blocks = org(ORG)
    prose = joined(ORG, blocks)
    assert prose[0] == "Write the grid guide [1/2]"
    for present in (
        "First item",
        "Second item goes on here.",
        "term",
        "the description",
        "Ordered item",
        "A quoted paragraph.",
        "Name",
        "Meaning",
        "cell",
        "The size of a cell",
        "Next heading",
        "The footnote text.",
    ):
        assert present in prose, present
    everything = "\n".join(prose)
    for absent in ("teh", "WAIT", "DONE", "[#A]", ":docs:", "SCHEDULED", "CUSTOM_ID", "#+", "[X]"):
        if absent == "teh":
            # only the protected spans of the first paragraph hold it
            assert absent not in sent(ORG, blocks), absent
        else:
            assert absent not in everything, absent
    assert "Nothing here is prose" not in everything and "Nor here" not in everything


def test_org_protected_spans() -> None:
    blocks = org(ORG)
    guarded = protected(ORG, blocks)
    for span in (
        "=Grid(cell=0.5)=",
        "~grid.insert~",
        "$x^2 + y^2$",
        "\\(a + b\\)",
        "\\alpha",
        "src_python{Grid(teh)}",
        "{{{version(teh)}}}",
        "[[https://example.org/docs][",
        "[[file:teh.org]]",
        "[fn:1]",
        "~/.config/grid/teh.el.",
        "[1/2]",
    ):
        assert span in guarded, span
    words = sent(ORG, blocks)
    assert "documentation page" in words  # a link's description is prose
    assert "bold" in words and "*bold*" not in words and "/italic/" not in words


def test_org_code_across_a_line_break_is_protected() -> None:
    text = "Run ~emacs --batch --eval\n'(message \"teh\")'~ to test it.\n"
    blocks = org(text)
    assert "teh" not in sent(text, blocks)
    assert "Run" in sent(text, blocks) and "to test it." in sent(text, blocks)


def test_org_unclosed_drawer_is_not_a_drawer() -> None:
    text = "* Heading\n:NOTES:\nA paragraph.\n* Next\n:PROPERTIES:\n:ID: x\n:END:\nText.\n"
    assert joined(text, org(text)) == ["Heading", "A paragraph.", "Next", "Text."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a source block never closed: its begin line is an ordinary line, the text after it prose
        (
            "Before.\n\n#+BEGIN_SRC python\nprint(1)\n\nAfter the block.\n",
            ["Before.", "#+BEGIN_SRC python print(1)", "After the block."],
        ),
        # its end line comes after the next headline: Org looks no further than the section
        (
            "* One\n#+begin_example\nA line.\n* Two\n#+end_example\nText.\n",
            ["One", "#+begin_example A line.", "Two", "Text."],
        ),
        # a dynamic block and a LaTeX environment never closed
        ("#+BEGIN: clocktable :scope file\nA line.\n", ["#+BEGIN: clocktable :scope file A line."]),
        ("\\begin{equation}\nx = 1\n\nAfter.\n", ["\\begin{equation} x = 1", "After."]),
        # another block's end line does not close it
        ("#+BEGIN_SRC sh\nls\n#+END_EXAMPLE\nAfter.\n", ["#+BEGIN_SRC sh ls", "After."]),
        # closed blocks are skipped as before, the second begin line never closed
        (
            "#+BEGIN_SRC sh\nls\n#+END_SRC\nText.\n\n#+BEGIN_SRC sh\nrm\n\nMore.\n",
            ["Text.", "#+BEGIN_SRC sh rm", "More."],
        ),
        ("\\begin{align}\na\n\\end{align}\nText.\n", ["Text."]),
        ("#+BEGIN_QUOTE\nQuoted.\n#+END_QUOTE\n", ["Quoted."]),
    ],
)
def test_org_block_never_closed_is_an_ordinary_line(text: str, expected: list[str]) -> None:
    blocks = org(text)
    assert joined(text, blocks) == expected
    # the begin word is kept as it is
    for begin in ("#+BEGIN_SRC", "#+begin_example", "#+BEGIN:"):
        if begin in " ".join(expected):
            assert begin not in sent(text, blocks)


# -- documents of real projects -----------------------------------------------------------------


def _uri(name: str) -> str:
    return f"file:///project/{name}"


@pytest.mark.parametrize("name", DOCUMENTS)
def test_real_document_identity_round_trip(name: str) -> None:
    text = data(f"real/{name}")
    check_blocks(text, prose_blocks(text, None, _uri(name)))
    assert improve_document(text, _uri(name), lambda prose: prose) == text


@pytest.mark.parametrize("name", DOCUMENTS)
def test_real_document_through_the_engine_changes_prose_only(name: str) -> None:
    text = data(f"real/{name}")
    result = improve_document(text, _uri(name), lambda prose: improve(prose, "en-us"))
    blocks = prose_blocks(text, None, _uri(name))
    # every line that holds no prose comes back unchanged
    prose_lines = {text.count("\n", 0, s) for b in blocks for s, _ in b.segments}
    for number, (before, after) in enumerate(
        zip(text.split("\n"), result.split("\n"), strict=True)
    ):
        if number not in prose_lines:
            assert before == after, (number, before)


@pytest.mark.parametrize("name", DOCUMENTS)
@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), rate=st.floats(0.05, 0.9))
def test_real_document_random_word_mutations_change_only_prose(
    name: str, seed: int, rate: float
) -> None:
    text = data(f"real/{name}")
    rng = random.Random(seed)
    improve_document(text, _uri(name), lambda prose: mutate(prose, rng, rate), lines_may_empty=True)


def test_asciidoctor_readme_markup_is_kept_through_the_engine() -> None:
    text = data("real/asciidoctor-README.adoc")
    result = improve_document(text, _uri("README.adoc"), lambda p: improve(p, "en-us"))
    for line in text.splitlines():
        if line.startswith((":", "ifdef::", "ifndef::", "endif::", "image:", "[", "----", "|")):
            assert line in result.splitlines(), line
    # the slip the project's own README has is fixed
    assert "access to a ecosystem" in text and "access to an ecosystem" in result


def test_doom_faq_metadata_is_kept_through_the_engine() -> None:
    text = data("real/doom-faq.org")
    result = improve_document(text, _uri("faq.org"), lambda p: improve(p, "en-us"))
    for line in text.splitlines():
        if line.startswith(("#+", ":")) or ("[[id:" in line and line.startswith("- [[")):
            assert line in result.splitlines(), line


# -- the product path: `rephrase-ls improve --write` on real documents with slips --------------

# "a ecosystem", the slip Asciidoctor's README has: in prose, in code, macros, link targets, cross
# references and math (a one-letter word, so that no guard keeps it for being written in code)
ASCIIDOC_SLIPS = (
    "Install a ecosystem with `a ecosystem`, press kbd:[a ecosystem], read "
    "link:https://example.org/a-ecosystem[the page^], pass:[a ecosystem], stem:[a ecosystem], "
    "<<a ecosystem>> and {a-ecosystem}.\n"
)
ORG_SLIPS = (
    "Install a ecosystem with ~a ecosystem~ and =a ecosystem=, read "
    "[[https://example.org/a ecosystem][the page]] and [[file:a ecosystem.org]], "
    "{{{a ecosystem}}}, $a ecosystem$, \\(a ecosystem\\) and src_sh{echo a ecosystem}.\n"
)
FIXED = ("Install a ecosystem", "Install an ecosystem")


@pytest.fixture
def improve_file(tmp_path, monkeypatch: pytest.MonkeyPatch):
    """Improve a real document, with ``extra`` inserted before ``before``, as a user would:
    through the command line, with no key and no settings (the embedded offline service)."""
    import logging
    import os

    from rephrase_ls.cli.improve import main

    for name in [n for n in os.environ if n.startswith("REPHRASE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    library = logging.getLogger("rephrase_ls")
    monkeypatch.setattr(library, "level", library.level)

    def run(name: str, extra: str, before: str) -> tuple[str, str]:
        text = data(f"real/{name}")
        at = text.index(before)
        text = text[:at] + extra + "\n" + text[at:]
        path = project / name
        path.write_bytes(text.encode("utf-8"))
        assert main(["--write", str(path)]) == 0
        return text, path.read_bytes().decode("utf-8")

    return run


def test_asciidoc_slip_fixed_in_prose_kept_in_code_macros_links_and_math(improve_file) -> None:
    before, after = improve_file("asciidoctor-README.adoc", ASCIIDOC_SLIPS, "== Sponsors")
    fixed = ASCIIDOC_SLIPS.replace(*FIXED)
    assert fixed.count("a ecosystem") == 5
    # only the slip in prose changed, and the README's own ("access to a ecosystem")
    assert after == before.replace(ASCIIDOC_SLIPS, fixed).replace(
        "access to a ecosystem", "access to an ecosystem"
    )


def test_org_slip_fixed_in_prose_kept_in_code_macros_links_and_math(improve_file) -> None:
    before, after = improve_file("doom-faq.org", ORG_SLIPS, "** Is Doom a fork")
    fixed = ORG_SLIPS.replace(*FIXED)
    assert fixed.count("a ecosystem") == 8
    assert after == before.replace(ORG_SLIPS, fixed)


@pytest.mark.parametrize(
    "name",
    [
        "asciidoctor-api-options.adoc",
        "asciidoctor-stem-mathematical.adoc",
        "doom-faq.org",
        "doom-getting-started.org",
        "doom-spell-README.org",
    ],
)
def test_correct_published_documents_are_left_as_they_are(improve_file, name: str) -> None:
    text = data(f"real/{name}")
    first_line = text.split("\n", 1)[0]
    before, after = improve_file(name, "", first_line)
    assert after == before


# -- in-document directives in each format's comments --------------------------------------------


@pytest.mark.parametrize(("name", "comment"), [("notes.adoc", "//"), ("notes.org", "#")])
def test_directives_in_the_formats_comments(name: str, comment: str) -> None:
    from rephrase_ls.improve.round_trip import without_directives
    from rephrase_ls.text.language import document_override
    from rephrase_ls.text.switches import comment_line, switched_off

    language_id = "asciidoc" if name.endswith(".adoc") else "org"
    text = (
        f"{comment} rephrase: language=de\n\nEin Absatz.\n\n"
        f"{comment} rephrase: off\nNicht dieser.\n{comment} rephrase: on\n\n"
        f"{comment} rephrase: ignore-next-line\nNicht diese Zeile.\n\nAber dieser.\n"
    )
    assert document_override(text) == "de"
    assert len(switched_off(text)) == 2
    blocks = without_directives(text, prose_blocks(text, None, _uri(name)))
    assert joined(text, blocks) == ["Ein Absatz.", "Aber dieser."]
    assert comment_line(language_id, "off") == f"{comment} rephrase: off\n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("= Notizen\n:lang: de\n:toc:\n\nEin Absatz.\n", "de"),
        ("#+TITLE: Notes\n#+LANGUAGE: fr\n\nUn paragraphe.\n", "fr"),
        ("#+language: pt_BR\n\nUm parágrafo.\n", "pt-BR"),
        # a comment directive wins over the document's own setting
        ("// rephrase: language=en-GB\n:lang: de\n\nText.\n", "en-GB"),
        # not on a line of its own: prose
        ("Write :lang: de in the header.\n", None),
    ],
)
def test_the_formats_own_language_settings(text: str, expected: str | None) -> None:
    from rephrase_ls.text.language import document_override

    assert document_override(text) == expected


def test_org_link_descriptions_of_keys_and_handles_are_protected() -> None:
    text = (
        "Press [[kbd:][SPC f f]] or [[kbd:][Find files]], ask [[doom-user:][@hlissner]] or read"
        " [[id:01cf][the user manual]].\n"
    )
    words = sent(text, org(text))
    assert "SPC" not in words and "Find files" not in words and "hlissner" not in words
    assert "the user manual" in words and "Press" in words


def test_asciidoc_monospace_and_literal_columns_are_not_prose() -> None:
    text = (
        '[cols="1,1m,2*l"]\n|===\n|Name |Value |Literal |Literal\n\n'
        "|A cell. |code teh |teh |teh\n2+|A cell over two columns. |teh |teh\n"
        "|Last cell. a|An AsciiDoc cell. |teh |teh\n|===\n"
    )
    assert joined(text, adoc(text)) == [
        "Name", "Value", "Literal", "Literal",  # the header row takes no column style
        "A cell.", "A cell over two columns.", "Last cell.", "An AsciiDoc cell.",
    ]  # fmt: skip
