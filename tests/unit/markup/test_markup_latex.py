"""LaTeX prose extraction with pylatexenc."""

from __future__ import annotations

import pytest
from markup_helpers import check_blocks, data, joined, protected, texts

from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.markup.latex import latex_blocks


def blocks_of(source: str) -> list:
    blocks = latex_blocks(source)
    check_blocks(source, blocks)
    return blocks


def test_paper_section() -> None:
    text = data("paper.tex")
    blocks = blocks_of(text)
    prose = joined(text, blocks)
    assert prose[0] == "Uniform Grids for Nearest Neighbour Queries"  # \title
    assert "Introduction" in prose and "Contributions" in prose  # sectioning arguments
    assert "Notation." in prose  # \paragraph{...} is a block of its own
    assert "Speed-up of the grid over a k-d tree, as a function of the number of points." in prose
    everything = "\n".join(prose)
    for absent in (
        "documentclass",
        "usepackage",
        "mathbb",  # \newcommand body
        "Ana Lima",  # \author
        "E = mc",
        "T(q) = \\sum",  # equation environment
        "not a comment inside verbatim",
        "Method & Build",  # tabular
        "TODO: cite benchmark",  # comment
        "d_k(q) = \\min",  # display math \[ \]
        "figures/speedup.pdf",
    ):
        assert absent not in everything, absent
    guarded = protected(text, blocks)
    for span in (
        "~\\cite{bentley1975,samet2006}",
        "~\\cite[Ch.~3]{guttman1984}",
        "~\\ref{sec:analysis}",
        "$O(1 + k)$",
        "\\emph{",
        "\\textbf{",
        "\\footnote{",
        "\\url{https://example.org/data}",
        "~\\eqref{eq:cost}",
    ):
        assert span in guarded, span
    # a comment at the end of a line stays outside the segments; the paragraph goes on
    intro = next(p for p in prose if p.startswith("Spatial indexes"))
    assert intro.endswith("we measure it.")
    assert "%" not in intro


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("One paragraph.\n\nAnother one.\n", [["One paragraph."], ["Another one."]]),
        ("Text \\par more text.\n", [["Text"], ["more text."]]),
        ("\\section*{Starred title}\nBody.\n", [["Starred title"], ["Body."]]),
        ("A % comment\nline.\n", [["A", "line."]]),
        ("% only a comment\n", []),
        ("\\begin{itemize}\n\\item One.\n\\item Two.\n\\end{itemize}\n", [["One."], ["Two."]]),
        ("Before\n\\begin{align}\na &= b\n\\end{align}\nafter.\n", [["Before"], ["after."]]),
        ("Use \\verb|x| here.\n", [["Use \\verb|x| here."]]),
        ("Inline \\(x^2\\) math.\n", [["Inline \\(x^2\\) math."]]),
        ("Broken \\emph{unclosed\n", [["Broken \\emph{unclosed"]]),
        (
            "\\begin{algorithmic}\n\\State return the answer\n\\end{algorithmic}\nText.\n",
            [["Text."]],
        ),
        ("", []),
    ],
)
def test_constructs(source: str, expected: list[list[str]]) -> None:
    assert texts(source, blocks_of(source)) == expected


def test_inline_commands_protected_and_their_text_kept() -> None:
    source = "We use \\textit{very} \\mycmd{arg} fast grids~\\cite{x}.\n"
    (block,) = blocks_of(source)
    assert protected(source, [block]) == [
        "\\textit{",
        "}",
        "\\mycmd{arg}",
        "~\\cite{x}",
    ]


def test_dispatch() -> None:
    source = "Some text.\n"
    assert prose_blocks(source, "latex") == latex_blocks(source)
    assert prose_blocks(source, None, "file:///p/paper.tex") == latex_blocks(source)
    assert prose_blocks(source, "plaintex") == latex_blocks(source)


@pytest.mark.parametrize("space", ["\t\u00a0", " ", " \n", "\t"])
def test_long_runs_of_white_space_are_read_as_white_space(space: str) -> None:
    """pylatexenc reads a long run of white space in quadratic time; the extractor hands it the
    runs broken up, and reads the prose back from the document itself."""
    gap = space * 500
    source = f"One \\emph{{word}}{gap}two.\n\n{gap}\\textbf{{Three}} words.\n"
    blocks = blocks_of(source)
    assert "x" not in joined(source, blocks)
    assert [" ".join(" ".join(t).split()) for t in texts(source, blocks)] == (
        ["One \\emph{word} two.", "\\textbf{Three} words."]
        if "\n" not in space
        else ["One \\emph{word}", "two.", "\\textbf{Three} words."]
    )


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        ("é" * 3000, ["One " + "é" * 3000 + " two."]),
        ("中" * 3000, ["One " + "中" * 3000 + " two."]),
        ("\n" * 3000, ["One", "two."]),
        ("word " * 600, ["One " + ("word " * 600).strip() + " two."]),
        ("\ue000" * 600, ["One " + "\ue000" * 600 + " two."]),
    ],
)
def test_long_runs_of_plain_text_keep_their_words_and_breaks(
    run: str, expected: list[str]
) -> None:
    """pylatexenc gathers a long run of plain text in quadratic time; the extractor ends such
    runs with a mark of its own, which reads back as the document's characters."""
    source = f"\\emph{{One}} {run} two.\n"
    blocks = blocks_of(source)
    assert [" ".join(" ".join(t).split()) for t in texts(source, blocks)] == [
        e.replace("One", "\\emph{One}", 1) for e in expected
    ]
    assert protected(source, blocks) == ["\\emph{", "}"]
