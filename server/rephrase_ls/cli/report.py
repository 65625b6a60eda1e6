"""What ``rephrase-ls improve`` reports of each change, for people and for CI: the change groups
review mode shows as diagnostics (:func:`rephrase_ls.review.grouping.edit_findings`), each with
its place (line and column from 1, columns in characters), rule code and suggested text;
written as text lines, one JSON array, or GitHub Actions workflow commands (annotations)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rephrase_ls.review.grouping import edit_findings

if TYPE_CHECKING:
    from rephrase_ls.text.diff import TextEdit
    from rephrase_ls.text.markup import ProseBlock

FORMATS = ("text", "json", "github")


@dataclass(frozen=True)
class Change:
    """One change found in a file."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    original: str
    replacement: str
    message: str

    def as_json(self) -> dict[str, Any]:
        """The change as a JSON object (the keys of this class)."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "original": self.original,
            "replacement": self.replacement,
            "message": self.message,
        }

    def as_text(self) -> str:
        """``file:line:column: code: message`` (as compilers and linters print)."""
        return f"{self.file}:{self.line}:{self.column}: {self.code}: {self.message}"

    def as_github(self) -> str:
        """A GitHub Actions ``::warning`` command: an annotation on the change's lines."""
        properties = ",".join(
            f"{key}={_property(str(value))}"
            for key, value in (
                ("file", self.file),
                ("line", self.line),
                ("col", self.column),
                ("endLine", self.end_line),
                ("endColumn", self.end_column),
                ("title", f"rephrase-ls {self.code}"),
            )
        )
        suggested = self.replacement if self.replacement.strip() else "(delete it)"
        text = f"{self.message} (suggested: {suggested})"
        return f"::warning {properties}::{_data(text)}"


def _data(text: str) -> str:
    """A workflow command's message, escaped as GitHub's runner reads it."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    """A workflow command's property value, escaped as GitHub's runner reads it."""
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _position(text: str, offset: int) -> tuple[int, int]:
    """Line and column (from 1, in characters) of ``offset`` in ``text``."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def changes(
    name: str,
    text: str,
    blocks: Sequence[ProseBlock],
    edits: Sequence[TextEdit],
    target_lang: str,
) -> list[Change]:
    """The changes ``edits`` make to ``text`` (the file called ``name``), in document order."""
    out = []
    for finding in edit_findings(text, blocks, edits, target_lang.lower()):
        line, column = _position(text, finding.start)
        end_line, end_column = _position(text, finding.end)
        out.append(
            Change(
                name,
                line,
                column,
                end_line,
                end_column,
                finding.code,
                finding.original,
                finding.replacement,
                finding.message,
            )
        )
    return out
