"""reStructuredText and git commit message prose extraction."""

from __future__ import annotations

import pytest
from markup_helpers import check_blocks, data, joined, protected, texts

from rephrase_ls.text.markup import format_for, prose_blocks
from rephrase_ls.text.markup.code import code_blocks
from rephrase_ls.text.markup.gitcommit import gitcommit_blocks
from rephrase_ls.text.markup.rst import rst_blocks


def rst(source: str) -> list:
    blocks = rst_blocks(source)
    check_blocks(source, blocks)
    return blocks


def commit(source: str) -> list:
    blocks = gitcommit_blocks(source)
    check_blocks(source, blocks)
    return blocks


def test_rst_document() -> None:
    text = data("usage.rst")
    blocks = rst(text)
    prose = joined(text, blocks)
    assert prose[:3] == ["Using fastgrid", prose[1], "Installation"]
    for present in (
        "Create a grid and insert points into it::",
        "Grids are not thread safe. Wrap them in a lock if you share one between threads, or "
        "use |LockedGrid| instead.",
        "Saved grids are not portable between major versions.",
        "Choose a cell size.",
        "The definition of the term, which is prose too.",
        "Distances are Euclidean unless you pass ``metric=``.",
    ):
        assert present in prose, present
    everything = "\n".join(prose)
    for absent in (
        "Table of contents",  # directive argument
        ":depth:",
        "grid.insert((1.0, 2.0))",  # literal block
        'grid = Grid(cell="auto")',  # code-block directive
        "Grid(cell=1)",  # doctest
        "Method",  # grid table
        "--verbose",  # option list
        "_perf",  # target
        "replace::",  # substitution definition
        "This is a comment",
        "=====",
    ):
        assert absent not in everything, absent
    guarded = protected(text, blocks)
    for span in (
        ":mod:`fastgrid.api`",
        ":ref:`performance notes",  # a role that crosses a line break: protected on both lines
        "<perf>`",
        "``pip install fastgrid``",
        " <https://github.com/example/fastgrid>`_",
        "[#dist]_",
        "|LockedGrid|",
        "::",
    ):
        assert span in guarded, span


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Title\n=====\n\nText.\n", [["Title"], ["Text."]]),
        ("Para::\n\n    literal\n\nAfter.\n", [["Para::"], ["After."]]),
        ("::\n\n    literal\n\nAfter.\n", [["After."]]),
        ("- one\n- two\n  wrapped\n", [["one"], ["two", "wrapped"]]),
        ("#. auto\n#. numbered\n", [["auto"], ["numbered"]]),
        # as in docutils: an enumerator starts a list item only if the next line allows it
        ("A. Smith wrote it\nand more.\n", [["A. Smith wrote it", "and more."]]),
        ("A. Smith wrote it.\n", [["Smith wrote it."]]),
        ("  A block quote\n  on two lines.\n", [["A block quote", "on two lines."]]),
        (".. image:: x.png\n   :alt: An image\n\nText.\n", [["Text."]]),
        (".. note::\n   :class: x\n\n   Body of the note.\n", [["Body of the note."]]),
        ("Text\r\nwith CRLF.\r\n", [["Text", "with CRLF."]]),
        (
            "=====  =====\nA      B\n=====  =====\nx      y\n\nz      w\n=====  =====\n\nAfter.\n",
            [["After."]],
        ),
        ("", []),
    ],
)
def test_rst_constructs(source: str, expected: list[list[str]]) -> None:
    assert texts(source, rst(source)) == expected


def test_commit_message() -> None:
    text = data("COMMIT_EDITMSG")
    blocks = commit(text)
    prose = joined(text, blocks)
    assert prose[0] == "fix(grid)!: dont merge points that are only close on one axis"
    assert prose[2] == "compare the squared distance with `EPSILON ** 2` instead"
    assert (
        prose[3]
        == "add a regression test with points on a diagonal (the old code fails it in 3 of 4 cases)"
    )
    assert prose[-1] == "This reverts part of 3f2a9c1d, which introduced the per-axis check."
    everything = "\n".join(prose)
    for absent in (
        "Signed-off-by",
        "Co-authored-by",
        "Fixes:",
        "naive  180",
        "Please enter",
        "diff --git",
        "part of the diff",
    ):
        assert absent not in everything, absent
    guarded = protected(text, blocks)
    for span in (
        "fix(grid)!:",
        "`Grid.nearest`",
        "#142",
        "https://github.com/example/fastgrid/issues/142",
        "3f2a9c1d",
    ):
        assert span in guarded, span


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Subject\n\nBody line one\nand two.\n", [["Subject"], ["Body line one", "and two."]]),
        ("# only comments\n#\n", []),
        ("Subject\n# ------------------------ >8 ------------------------\nafter\n", [["Subject"]]),
        ("Subject\r\n\r\n* item\r\n", [["Subject"], ["item"]]),
        ("", []),
    ],
)
def test_commit_constructs(source: str, expected: list[list[str]]) -> None:
    assert texts(source, commit(source)) == expected


def test_dispatch() -> None:
    assert format_for("restructuredtext") == "restructuredtext"
    assert format_for(None, "file:///d/index.rst") == "restructuredtext"
    assert format_for("gitcommit") == "gitcommit"
    assert prose_blocks("Subject\n", "git-commit") == gitcommit_blocks("Subject\n")
    assert prose_blocks("Title\n=====\n", "rst") == rst_blocks("Title\n=====\n")
    assert format_for(None, "file:///repo/.git/COMMIT_EDITMSG") == "gitcommit"
    source = "Subject line\n"
    assert prose_blocks(source, None, "file:///r/.git/COMMIT_EDITMSG") == gitcommit_blocks(source)


@pytest.mark.parametrize(
    "line",
    [
        "a:" * 50_000 + "x",
        "a" * 100_000,
        "a." * 50_000,
        " :a:a" * 20_000,
        "a-" * 50_000,
        "$a." * 30_000,
        "a->" * 30_000,
    ],
    ids=["colons", "one-word", "dots", "role-like", "dashes", "dollars", "arrows"],
)
def test_long_runs_cost_linear_time(line: str) -> None:
    # No timing assertion: were a role, an e-mail address, a path, a call or a file name tried
    # from every character of the run, each scanning the rest of it, these 100 KB lines would
    # take minutes (a Python docstring adds the inline rules of comments to those of reST).
    text = f"Some prose {line} end.\n"
    blocks = rst_blocks(text)
    assert len(blocks) == 1 and blocks[0].segments == ((0, len(text) - 1),)
    docstring = f'def f():\n    """Sum.\n\n    Returns:\n        {line}\n    """\n'
    assert code_blocks(docstring, "python")
