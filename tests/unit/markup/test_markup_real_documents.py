"""Markup of documents published by real projects (tests/data/markup/real/, see SOURCES.md
there): what is prose and what must come back unchanged, and the round trip through the offline
engine, which would otherwise damage them (anchors, directives, types, front matter)."""

from __future__ import annotations

import re

import pytest
from markup_helpers import check_blocks, data, joined, protected
from test_markup_roundtrip import improve_document

from rephrase_ls.offline.engine import improve
from rephrase_ls.text.markup import format_for, prose_blocks


def real(name: str) -> str:
    return data(f"real/{name}")


def blocks_of(name: str, uri: str | None = None, language_id: str | None = None) -> tuple:
    text = real(name)
    blocks = prose_blocks(text, language_id, uri or f"file:///project/{name}")
    check_blocks(text, blocks)
    return text, blocks


def unprotected(text: str, blocks: list) -> str:
    """The prose that would be sent as words: every segment with its protected spans cut out."""
    out = []
    for block in blocks:
        for s, e in block.segments:
            pos = s
            for ps, pe in block.protected:
                if s <= ps < e:
                    out.append(text[pos:ps])
                    pos = pe
            out.append(text[pos:e])
        out.append("\n")
    return "".join(out)


def engine(prose: str) -> str:
    return improve(prose, "en-US")


# -- MkDocs headings with attribute lists (FastAPI's documentation) ----------------------------


def test_fastapi_heading_anchors_are_protected() -> None:
    text, blocks = blocks_of("fastapi-alternatives.md")
    anchors = re.findall(r"\{ #[\w-]+ \}", text)
    assert len(anchors) == 6 and "{ #falcon }" in anchors
    guarded = protected(text, blocks)
    for anchor in anchors:
        assert any(anchor in span for span in guarded), anchor
    sent = unprotected(text, blocks)
    assert "#falcon" not in sent and "#intro" not in sent
    assert "Falcon is another high performance Python framework" in sent
    # pymdownx blocks: "/// tip | Title": the fence and type are markup, the title is prose
    assert any(span.startswith("/// tip") for span in guarded)
    assert "Inspired" in sent and "tip" not in sent.split()


def test_fastapi_page_through_the_engine_keeps_every_anchor() -> None:
    text = real("fastapi-alternatives.md")
    result = improve_document(text, "file:///docs/alternatives.md", engine)
    assert re.findall(r"\{ #[\w-]+ \}", result) == re.findall(r"\{ #[\w-]+ \}", text)
    assert result.count("\n///") == text.count("\n///")


# -- Python docstrings in reStructuredText (requests) -------------------------------------------


def test_requests_session_fields_and_directive() -> None:
    text, blocks = blocks_of("requests-sessions.py")
    prose = joined(text, blocks)
    sent = unprotected(text, blocks)
    # the descriptions of :param x: are prose, the types of :type x: and :rtype: are not
    assert "(optional) Set to True by default." in prose
    assert any(p.startswith("method for the new") for p in prose)
    for absent in ("bool", "float or tuple", "requests.Response", ":param", ":type", "rtype"):
        assert not re.search(rf"(?<!\w){re.escape(absent)}(?!\w)", sent), absent
    # `.. deprecated:: 1.0.0`: the directive and its version are not prose, its body is
    assert "deprecated::" not in sent
    assert not any(p.startswith(("1.0.0", ". deprecated", "deprecated")) for p in prose)
    assert any(p.startswith("This method has been deprecated since version 1.0.0") for p in prose)


def test_requests_session_through_the_engine_keeps_the_markup() -> None:
    text = real("requests-sessions.py")
    result = improve_document(text, "file:///src/requests/sessions.py", engine)
    for line in (
        "    .. deprecated:: 1.0.0",
        "        :type allow_redirects: bool",
        "        :type timeout: float or tuple",
        "        :rtype: requests.Response",
        "    :rtype: Session",
    ):
        assert f"\n{line}\n" in result, line


def test_requests_module_docstring_doctests() -> None:
    text, blocks = blocks_of("requests-init.py")
    prose = joined(text, blocks)
    sent = unprotected(text, blocks)
    # doctest lines and their output are not prose
    for absent in ("import requests", "status_code", "200", "True", "key1", '"form"'):
        assert absent not in sent, absent
    # a paragraph that starts with an ellipsis is prose, not a doctest continuation
    assert "... or POST:" in prose
    assert "Requests HTTP Library" in prose  # the title
    assert "Requests is an HTTP library, written in Python, for human beings. Basic GET usage:" in (
        prose
    )


# -- Google and NumPy style docstrings (Sphinx's napoleon examples) -----------------------------


def test_google_style_sections() -> None:
    text, blocks = blocks_of("sphinx-example_google.py")
    prose = joined(text, blocks)
    sent = unprotected(text, blocks)
    for header in ("Args:", "Returns:", "Raises:", "Attributes:", "Example:", "Todo:"):
        assert header not in sent, header
    for entry in ("param1 (int):", "param2 (:obj:`str`, optional):", "*args:", "bool:"):
        assert not any(p.startswith(entry) for p in prose), entry
    assert "The first parameter." in prose
    assert (
        "The second parameter. Defaults to None. Second line of description should be indented."
        in prose
    )
    assert "The return value. True for success, False otherwise." in prose
    assert "If `param2` is equal to `param1`." in prose
    assert "$ python example_google.py" not in sent  # the literal block after "::"


def test_numpy_style_sections() -> None:
    text, blocks = blocks_of("sphinx-example_numpy.py")
    prose = joined(text, blocks)
    sent = unprotected(text, blocks)
    for header in ("Parameters", "Returns", "Raises", "Attributes", "Yields", "Examples"):
        assert not any(p == header for p in prose), header
    for term in ("param1 : int", "param2 : str", "module_level_variable1 : int", "ValueError"):
        assert term not in sent, term
    assert not any(p in ("bool", "int", "AttributeError") for p in prose)
    assert "True if successful, False otherwise." in prose
    assert "Human readable string describing the exception." not in prose  # not kept (trimmed)
    assert "The first parameter." in prose
    assert "print([i for i in example_generator(4)])" not in sent


@pytest.mark.parametrize("name", ["sphinx-example_google.py", "sphinx-example_numpy.py"])
def test_napoleon_examples_through_the_engine(name: str) -> None:
    text = real(name)
    result = improve_document(text, f"file:///doc/{name}", engine)
    kept = [line for line in text.splitlines() if line.strip().endswith((":", "---"))]
    for line in kept:
        if re.fullmatch(r"\s*[A-Z][A-Za-z ]*:|\s*-+|\s*\w+ : .*", line):
            assert line in result.splitlines(), line


# -- a Markdown README without extension (requests) ---------------------------------------------


@pytest.mark.parametrize("language_id", [None, "plaintext"])
def test_extensionless_markdown_readme(language_id: str | None) -> None:
    text = real("README")
    assert format_for(language_id, "file:///requests/README", text) == "markdown"
    _, blocks = blocks_of("README", "file:///requests/README", language_id)
    sent = unprotected(text, blocks)
    assert ">>> import requests" not in sent and "import requests" not in sent
    assert "pip install requests" not in sent
    assert "Requests is a simple, yet elegant, HTTP library." in sent


def test_extensionless_readme_through_the_engine() -> None:
    text = real("README")
    result = improve_document(text, "file:///requests/README", engine)
    for line in text.splitlines():
        if line.startswith((">>>", "$ ", "```", "[!")):
            assert line in result.splitlines(), line


# -- front matter: TOML and YAML (Hugo), MultiMarkdown metadata --------------------------------


def test_hugo_toml_front_matter_is_not_prose() -> None:
    text, blocks = blocks_of("hugo-emoji-support.md")
    sent = unprotected(text, blocks)
    for absent in ("author", "Hugo Authors", "Emoji Support", "Guide to emoji usage", "2019"):
        assert absent not in sent, absent
    assert joined(text, blocks)[0].startswith("Emoji can be enabled in a Hugo project")
    result = improve_document(text, "file:///content/post/emoji-support.md", engine)
    assert result.split("+++")[1] == text.split("+++")[1]


def test_hugo_yaml_front_matter_is_not_prose() -> None:
    text, blocks = blocks_of("hugo-math-typesetting.md")
    sent = unprotected(text, blocks)
    assert "A brief guide to setup KaTeX" not in sent and "math: true" not in sent
    assert joined(text, blocks)[0].startswith("Mathematical notation in a Hugo project")


def test_multimarkdown_metadata_is_not_prose() -> None:
    text = real("mmd-DevelopmentNotes.txt")
    uri = "file:///MultiMarkdown-6/DevelopmentNotes/DevelopmentNotes.txt"
    assert format_for(None, uri, text) == "markdown"  # a .txt file, by its content
    _, blocks = blocks_of("mmd-DevelopmentNotes.txt", uri)
    sent = unprotected(text, blocks)
    for absent in ("Fletcher", "tufte-handout", "Header Level", "dd2d8e76", "Development Notes"):
        assert absent not in sent, absent
    assert joined(text, blocks)[0] == "Introduction"
    result = improve_document(text, uri, engine)
    assert result.split("\n\n")[0] == text.split("\n\n")[0]


# -- reStructuredText bibliographic fields (docutils) -------------------------------------------


def test_docutils_docinfo_is_not_prose() -> None:
    text, blocks = blocks_of("docutils-quickstart.rst")
    prose = joined(text, blocks)
    sent = unprotected(text, blocks)
    for absent in ("Richard Jones", "$Revision$", "placed in the public domain"):
        assert absent not in sent, absent
    assert prose[0] == "A ReStructuredText Primer"
    assert any(p.startswith("The text below contains links") for p in prose)
    assert any(p.startswith("This document is an informal introduction") for p in prose)


# -- template tags: Hugo shortcodes, FastAPI's includes -----------------------------------------


def test_hugo_shortcodes_are_not_prose() -> None:
    text, blocks = blocks_of("hugo-rich-content.md")
    sent = unprotected(text, blocks)
    for absent in ("youtube", "ZJthWmvUzzc", "twitter_simple", "designreviewed", "48912912"):
        assert absent not in sent, absent
    assert "Hugo ships with several" in sent
    result = improve_document(text, "file:///content/post/rich-content.md", engine)
    for line in text.splitlines():
        if line.startswith("{{<"):
            assert line in result.splitlines(), line


def test_fastapi_includes_anchors_and_blocks() -> None:
    text, blocks = blocks_of("fastapi-query-params.md")
    sent = unprotected(text, blocks)
    for absent in ("docs_src", "tutorial002_py310", "hl", "optional-parameters", "///"):
        assert absent not in sent, absent
    assert "In this case, the function parameter" in sent
    result = improve_document(text, "file:///docs/en/docs/tutorial/query-params.md", engine)
    for line in text.splitlines():
        if line.startswith(("{*", "///", "#")):
            assert line in result.splitlines(), line
