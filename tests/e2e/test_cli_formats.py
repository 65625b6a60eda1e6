"""``rephrase-ls improve`` (the real process) on AsciiDoc and Org files, chosen by extension:
the diff changes the prose line only; code, macros, link targets and math keep their slip."""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_cli import run

ADOC = (
    "= Notes\n\n"
    "Asciidoctor gives you access to a ecosystem of extensions.\n\n"
    "Use `a ecosystem`, kbd:[a ecosystem], link:https://example.org/a-ecosystem[the page] and\n"
    "stem:[a ecosystem].\n\n"
    "[source,ruby]\n----\nputs 'a ecosystem'\n----\n"
)
ORG = (
    "#+TITLE: Notes a ecosystem\n\n"
    "* Notes\n"
    "Doom gives you access to a ecosystem of packages.\n\n"
    "Use ~a ecosystem~, =a ecosystem=, [[https://example.org/a ecosystem][the page]] and\n"
    "$a ecosystem$.\n\n"
    "#+BEGIN_SRC sh\necho a ecosystem\n#+END_SRC\n"
)


@pytest.mark.parametrize(("name", "text"), [("notes.adoc", ADOC), ("notes.org", ORG)])
def test_improve_diff_and_write_change_prose_only(tmp_path: Path, name: str, text: str) -> None:
    doc = tmp_path / name
    doc.write_text(text, encoding="utf-8")
    diff = run("improve", str(doc), cwd=tmp_path)
    assert diff.returncode == 0, diff.stderr
    changed = [
        line
        for line in diff.stdout.splitlines()
        if line.startswith(("+", "-")) and not line.startswith(("+++", "---"))
    ]
    assert len(changed) == 2, diff.stdout
    assert changed[0].startswith("-") and "access to a ecosystem" in changed[0]
    assert changed[1].startswith("+") and "access to an ecosystem" in changed[1]
    write = run("improve", "--write", str(doc), cwd=tmp_path)
    assert write.returncode == 0, write.stderr
    assert doc.read_text(encoding="utf-8") == text.replace(
        "access to a ecosystem", "access to an ecosystem"
    )


DEFINITIONS = (
    "Glossary\n========\n\n"
    "Apple\n: A fruit.\n\n"
    "Ecosystem\n:   What gives you access to a ecosystem of plugins.\n\n"
    "    Its second paragraph.\n\n"
    "Orange\n~ Round and orange.\n~ A colour.\n"
)


def test_definition_lists_keep_their_markers(tmp_path: Path) -> None:
    """A Markdown definition list (PHP Markdown Extra, Pandoc, Python-Markdown's def_list):
    the trial's `Apple` / `: A fruit.` comes back as it is (the term and the definition were
    one sentence, `Apple: A fruit.`), a slip in a definition is fixed and every `:` and `~`
    marker stays where it was."""
    trial = tmp_path / "dl.md"
    trial.write_text("Apple\n: A fruit.\n", encoding="utf-8")
    result = run("improve", str(trial), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    doc = tmp_path / "glossary.md"
    doc.write_text(DEFINITIONS, encoding="utf-8")
    write = run("improve", "--write", str(doc), cwd=tmp_path)
    assert write.returncode == 0, write.stderr
    assert doc.read_text(encoding="utf-8") == DEFINITIONS.replace(
        "access to a ecosystem", "access to an ecosystem"
    )
