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
