"""Every extractor keeps the ProseBlock contract on any input, and refuses what is not text."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markup_helpers import check_blocks, data
from tests.hypothesis_profiles import examples

from rephrase_ls.text.markup import ProseBlock, prose_blocks
from rephrase_ls.text.markup.asciidoc import asciidoc_blocks
from rephrase_ls.text.markup.code import code_blocks
from rephrase_ls.text.markup.gitcommit import gitcommit_blocks
from rephrase_ls.text.markup.latex import latex_blocks
from rephrase_ls.text.markup.markdown import markdown_blocks
from rephrase_ls.text.markup.org import org_blocks
from rephrase_ls.text.markup.rst import rst_blocks

EXTRACTORS: dict[str, Callable[[str], list[ProseBlock]]] = {
    "markdown": markdown_blocks,
    "latex": latex_blocks,
    "rst": rst_blocks,
    "gitcommit": gitcommit_blocks,
    "python": lambda text: code_blocks(text, "python"),
    "javascript": lambda text: code_blocks(text, "javascript"),
    "c": lambda text: code_blocks(text, "c"),
    "lua": lambda text: code_blocks(text, "lua"),
    "asciidoc": asciidoc_blocks,
    "org": org_blocks,
}

# characters that mean something to at least one of the formats, and some that mean nothing
_ALPHABET = [*"ab Z1 .:*-_`'\"#[](){}<>!$%&|\\/=~^+@;,\t\n\r", "\u00e9", "\u2028", "\x00"]


@pytest.mark.parametrize("name", sorted(EXTRACTORS))
@settings(max_examples=examples(120), deadline=None)
@given(text=st.text(alphabet=st.sampled_from(_ALPHABET), max_size=120))
def test_any_input_keeps_the_contract(name: str, text: str) -> None:
    check_blocks(text, EXTRACTORS[name](text))


@pytest.mark.parametrize("name", sorted(EXTRACTORS))
@settings(max_examples=examples(40), deadline=None)
@given(cut=st.integers(min_value=0, max_value=10_000))
def test_truncated_documents_keep_the_contract(name: str, cut: int) -> None:
    files = {
        "markdown": "README.md",
        "latex": "paper.tex",
        "rst": "usage.rst",
        "gitcommit": "COMMIT_EDITMSG",
        "asciidoc": "real/asciidoctor-README.adoc",
        "org": "real/doom-faq.org",
    }
    text = data(files.get(name, "geometry.py"))
    text = text[: cut % (len(text) + 1)]
    check_blocks(text, EXTRACTORS[name](text))


@pytest.mark.parametrize("name", sorted(EXTRACTORS))
@pytest.mark.parametrize("bad", [b"bytes", None, 42])
def test_non_text_is_a_clear_error(name: str, bad: object) -> None:
    with pytest.raises(TypeError, match="must be a str"):
        EXTRACTORS[name](bad)  # type: ignore[arg-type]


def test_every_format_is_registered() -> None:
    text = "Some words here.\n"
    for language_id in (
        "markdown", "latex", "restructuredtext", "gitcommit", "python", "rust", "asciidoc", "org",
    ):  # fmt: skip
        check_blocks(text, prose_blocks(text, language_id))
