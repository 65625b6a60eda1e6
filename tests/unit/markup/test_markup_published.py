"""Published documents through the product path: ``rephrase-ls improve --write`` on excerpts of
real projects' documents (tests/data/markup/real/, see SOURCES.md there), with the embedded
offline service. Each test guards a class of change that made correct published text worse
(bench/bench_published.py measures them on whole documents)."""

from __future__ import annotations

import logging
import os
import re
import shutil
from pathlib import Path

import pytest

from rephrase_ls.cli.improve import main

REAL = Path(__file__).resolve().parents[2] / "data" / "markup" / "real"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project to improve files in as a user would, with no key and no settings."""
    for name in [n for n in os.environ if n.startswith("REPHRASE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    # the CLI quietens the library's logger for its process: not for the next tests of this one
    library = logging.getLogger("rephrase_ls")
    monkeypatch.setattr(library, "level", library.level)
    return project


@pytest.fixture
def improved(project: Path):
    """Improve a copy of a real document in :func:`project`."""

    def run(name: str, *options: str) -> tuple[str, str]:
        path = project / name
        shutil.copyfile(REAL / name, path)
        before = path.read_text(encoding="utf-8")
        assert main([*options, "--write", str(path)]) == 0
        return before, path.read_text(encoding="utf-8")

    return run


def lines_changed(before: str, after: str) -> list[tuple[str, str]]:
    return [(a, b) for a, b in zip(before.split("\n"), after.split("\n"), strict=True) if a != b]


# -- a lower-case start set apart from the running prose is the writer's style ----------------


def test_code_comments_keep_their_lower_case_start(improved) -> None:
    before, after = improved("requests-utils.py")
    comments = [line for line in before.splitlines() if re.match(r"\s*# [a-z]", line)]
    assert len(comments) >= 6  # "# make a check value list…", "# filter out…", "# now check…"
    assert 'test.replace(".", r"\\.")  # mask dots' in before
    for line in [*comments, '            test = test.replace(".", r"\\.")  # mask dots']:
        assert line in after.splitlines(), line


def test_a_definition_list_of_options_keeps_its_markers(improved) -> None:
    """MkDocs Material's options: `<!-- md:option … -->` terms, `:   ` definitions (their
    text after a `<!-- md:default … -->` comment) with fenced code and an admonition inside.
    Read as paragraphs, `:   <!-- … --> This option` lost its three spaces."""
    from rephrase_ls.text.markup import prose_blocks

    text = (REAL / "mkdocs-material-git-repository.md").read_text(encoding="utf-8")
    blocks = prose_blocks(text, "markdown", None)
    prose = [" ".join(text[s:e] for s, e in b.segments) for b in blocks]
    sentence = (
        "This option specifies whether the plugin is enabled when building your project. If "
        "you want to switch the plugin off, e.g. for local builds, use an [environment variable]:"
    )
    assert any(p.endswith(sentence) for p in prose), prose
    assert not any(p.startswith(":") for p in prose)
    before, after = improved("mkdocs-material-git-repository.md")
    assert before.count("\n:   <!-- md:default ") == 4
    assert after == before


def test_lower_case_headings_naming_variables_are_kept(improved) -> None:
    before, after = improved("mkdocs-themes.md")
    assert "#### pages\n" in before and "#### page\n" in before
    assert "#### pages\n" in after and "#### page\n" in after
    assert "#### base_url\n" in after


def test_a_list_written_in_lower_case_keeps_its_style(improved) -> None:
    before, after = improved("flask-viewdecorators.rst")
    # "1." goes on "as follows" (no full stop); "2." and "3." follow a full stop, but every
    # item of the list starts in lower case: the list's style, kept
    for item in ("1. get the unique", "2. get the value", "3. otherwise the original"):
        assert item in before and item in after


def test_an_indented_example_in_a_docstring_keeps_its_lower_case(improved) -> None:
    before, after = improved("flask-ctx.py")
    assert "\n        from flask import g\n" in before
    assert "\n        from flask import g\n" in after


# -- code and names inside prose: plain text, comments and docstrings -------------------------


def test_words_joined_with_no_space_in_a_docstring_are_kept(improved) -> None:
    before, after = improved("requests-utils.py")
    assert "    username,password.\n" in before
    assert "    username,password.\n" in after


def test_columns_of_a_plain_text_index_are_kept(improved) -> None:
    before, after = improved("zlib-INDEX")
    assert "CMakeLists.txt  cmake build file\n" in before
    assert after == before


def test_a_name_its_owners_write_in_lower_case_stays_so(improved) -> None:
    before, after = improved("zlib-FAQ")
    assert "Zlib" not in before
    for line in ("    Yes. zlib doesn't handle dates.\n", "    zlib is rather portable"):
        assert line in before and line in after, line
    assert "Zlib" not in after


def test_a_style_keeps_the_grammar_and_the_lower_case_names_of_a_real_document(
    improved,
) -> None:
    # business expands contractions, but not before their subject ("Why do not you")
    _before, after = improved("zlib-FAQ", "--style", "business")
    assert "    Yes. zlib does not handle dates.\n" in after
    assert " 7. Why don't you use GNU autoconf or libtool or ...?\n" in after
    assert "Zlib" not in after


def test_a_file_extension_keeps_its_dot(improved) -> None:
    _before, after = improved("zlib-FAQ")
    assert "12. Can zlib handle .Z files?\n" in after


def test_a_command_line_in_plain_text_is_not_prose(improved) -> None:
    from rephrase_ls.text.markup import prose_blocks

    text = (REAL / "zlib-FAQ").read_text(encoding="utf-8")
    command = text.index("    ./configure\n") + 4
    blocks = prose_blocks(text, None, "file:///project/FAQ")
    assert not any(s <= command < e for b in blocks for s, e in b.segments)
    _, after = improved("zlib-FAQ")
    assert "    make distclean\n    ./configure\n    make\n" in after


def test_the_optional_argument_of_an_unknown_latex_command_is_markup(improved) -> None:
    from rephrase_ls.text.markup import prose_blocks

    text = (REAL / "tufte-sample-book.tex").read_text(encoding="utf-8")
    option = "[symmetric,justified,marginals=raggedouter]"
    at = text.index(option)
    blocks = prose_blocks(text, None, "file:///project/sample-book.tex")
    sent = [
        (max(s, at), min(e, at + len(option)))
        for b in blocks
        for s, e in b.segments
        if s < at + len(option) and at < e
    ]
    for s, e in sent:  # where the option is inside a segment, it is protected whole
        assert any(ps <= s and e <= pe for b in blocks for ps, pe in b.protected), text[s:e]
    _before, after = improved("tufte-sample-book.tex")
    assert "\\doccmdnoindex{documentclass}" + option + "\\{tufte-book\\}" in after


# -- the document's house style ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        (
            "flask-viewdecorators.rst",
            [
                "certain amount of time.  A decorator would be nice for that.  We're",
                "request.  Notice that we are using a function that first creates the",
            ],
        ),
        (
            "zlib-FAQ",
            [
                "    avail_out is big enough to allow processing all pending input.  Note that a",
                "    strm.avail_out returns with zero.  See http://zlib.net/zlib_how.html for a",
            ],
        ),
    ],
)
def test_two_spaces_between_sentences_are_kept(improved, name: str, lines: list[str]) -> None:
    before, after = improved(name)
    for line in lines:
        assert line in before.splitlines() and line in after.splitlines(), line


def test_which_documents_put_two_spaces_between_sentences() -> None:
    from rephrase_ls.guards.house_style import two_spaces_between_sentences

    def real(name: str) -> str:
        return (REAL / name).read_text(encoding="utf-8")

    assert two_spaces_between_sentences(real("flask-viewdecorators.rst"))
    assert two_spaces_between_sentences(real("zlib-FAQ"))
    assert not two_spaces_between_sentences(real("mkdocs-themes.md"))
    assert not two_spaces_between_sentences(real("fastapi-alternatives.md"))


# -- a plain Improve keeps the document's spelling variant ------------------------------------


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("phd-thesis-chapter3.tex", "in favour of breaking them"),  # variant not told: en-US asked
        ("phd-thesis-chapter1.tex", "so beguiled and demoralized by"),  # British: -ize is too
    ],
)
def test_a_plain_improve_keeps_the_spelling_variant(improved, name: str, word: str) -> None:
    before, after = improved(name)
    assert word in before and word in after


def test_a_word_spelt_unlike_the_rest_of_a_confident_document_is_respelt(improved) -> None:
    before, after = improved("httpx-code_of_conduct.md")
    assert "## Inappropriate Behavior" in before  # the document writes "behavior"…
    assert "respectful**. Behaviours that" in before  # …and once "Behaviours"
    assert "respectful**. Behaviors that" in after


# -- the engine's word rules on published text ------------------------------------------------


def test_an_initialism_keeps_its_article(improved) -> None:
    before, after = improved("requests-utils.py")
    line = '    """Given a url with authentication components, extract them into a tuple of'
    assert line in before.splitlines() and line in after.splitlines()


def test_roman_numerals_stay_lower_case(improved) -> None:
    before, after = improved("tufte-sample-book.tex")
    assert "(e.g., i, ii, iii,\n" in before and "(e.g., i, ii, iii,\n" in after


def test_a_script_without_extension_is_read_as_its_language(improved) -> None:
    from rephrase_ls.text.markup import format_for

    text = (REAL / "zlib-configure").read_text(encoding="utf-8")
    assert text.startswith("#!/bin/sh\n")
    assert format_for(None, "file:///project/configure", text) == "shellscript"
    line = 'if "${CROSS_PREFIX}ar" --version >/dev/null 2>/dev/null || test $? -lt 126; then'
    before, after = improved("zlib-configure")
    assert line in before.splitlines() and line in after.splitlines()


def test_the_terms_of_a_restructuredtext_definition_list_keep_their_lower_case(
    project: Path,
) -> None:
    # issue 24: a glossary's terms ("open source", "time zone") were capitalised; their
    # lower case is their point. The prose after the list is still corrected.
    path = project / "glossary.rst"
    path.write_text(
        "Glossary\n========\n\nopen source\n    Software whose source anyone may read.\n\n"
        "time zone\n    A region that keeps one standard time.\n\nthe end. it goes on.\n",
        encoding="utf-8",
    )
    assert main(["--write", str(path)]) == 0
    after = path.read_text(encoding="utf-8")
    assert "\nopen source\n" in after and "\ntime zone\n" in after
    assert "The end. It goes on." in after


def test_an_area_label_at_a_line_start_keeps_its_lower_case(project: Path) -> None:
    # issue 24: "docs: fix …", "build: …" (conventional commits, changelogs) were capitalised
    path = project / "CHANGES.txt"
    path.write_text(
        "Changes\n=======\n\nbuild: bump the minimum Python to 3.9.\n\n"
        "docs: fix teh link to the quickstart.\n",
        encoding="utf-8",
    )
    assert main(["--write", str(path)]) == 0
    after = path.read_text(encoding="utf-8")
    assert "\nbuild: bump the minimum Python to 3.9.\n" in after
    assert "\ndocs: fix the link to the quickstart.\n" in after


def test_columns_of_a_text_note_with_a_fenced_block_are_kept(project: Path) -> None:
    # zlib's INDEX (columns aligned with spaces) in a .txt note that also copies a command
    # between fences, as notes do: fences alone do not make it Markdown, where the columns
    # were one paragraph and their spaces were collapsed
    index = (REAL / "zlib-INDEX").read_text(encoding="utf-8")
    note = project / "notes.txt"
    note.write_text(
        "The files:\n\n" + index.split("\n\n")[0] + "\n\nBuild it:\n\n```\n./configure\n```\n",
        encoding="utf-8",
    )
    before = note.read_text(encoding="utf-8")
    assert "FAQ             Frequently Asked Questions about zlib\n" in before
    assert main(["--write", str(note)]) == 0
    assert note.read_text(encoding="utf-8") == before
