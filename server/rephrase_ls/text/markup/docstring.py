"""Prose in Python docstrings: reStructuredText with the sections of Google and NumPy style."""

from __future__ import annotations

import re

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.code_inline import comment_protected
from rephrase_ls.text.markup.lines import Lines, make_block
from rephrase_ls.text.markup.rst import RstExtractor, rst_protected

__all__ = ["DOCSTRING_SECTIONS", "ENTRY_SECTIONS", "docstring_blocks"]

#: section names of Google and NumPy style docstrings (as sphinx.ext.napoleon knows them)
DOCSTRING_SECTIONS = frozenset(
    (
        "args", "arguments", "attention", "attributes", "caution", "danger", "error", "example",
        "examples", "hint", "important", "keyword args", "keyword arguments", "kwargs",
        "methods", "note", "notes", "other parameters", "other params", "parameters", "params",
        "raise", "raises", "receive", "receives", "references", "return", "returns", "see also",
        "tip", "todo", "warning", "warnings", "warn", "warns", "yield", "yields",
    )
)  # fmt: skip
#: sections whose entries name a parameter, attribute, exception or type before their text
ENTRY_SECTIONS = frozenset(
    (
        "args", "arguments", "attributes", "keyword args", "keyword arguments", "kwargs",
        "methods", "other parameters", "other params", "parameters", "params", "raise", "raises",
        "receive", "receives", "return", "returns", "see also", "warn", "warns", "yield",
        "yields",
    )
)  # fmt: skip
_TYPE_SECTIONS = frozenset(("return", "returns", "yield", "yields", "receive", "receives"))
_GOOGLE_HEADER = re.compile(r"([A-Za-z][A-Za-z ]*[A-Za-z]):[ \t]*$")
_NUMPY_UNDERLINE = re.compile(r"[ \t]*-{3,}[ \t]*$")
# a Google entry: "name (type):", "*args:", "ValueError:"
_GOOGLE_ENTRY = re.compile(
    r"\*{0,2}[A-Za-z_][\w.]*(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]*:(?=[ \t]|$)"
)
# a Google "Returns:" entry's type: "int:", "dict[str, int]:", "list of str:", "bool or None:"
_GOOGLE_TYPE = re.compile(
    r"[\w.*|`:~]+(?:\[[^\]\n]*\]|\([^()\n]*\))?"
    r"(?:[ \t]+(?:of|or)[ \t]+[\w.`:~]+(?:\[[^\]\n]*\]|\([^()\n]*\))?)*"
    r"[ \t]*:(?=[ \t]|$)"
)


class _DocstringExtractor(RstExtractor):
    """reStructuredText plus the sections of Google and NumPy style (``Args:``,
    ``Parameters`` over a dashed line): their headers are not prose; in the sections that list
    parameters, attributes, exceptions or return types, the ``name (type):`` of a Google entry
    and the ``name : type`` line of a NumPy entry are not prose, the description is; nor is the
    type that may open an attribute's or property's docstring (``str: The name.``). Inside
    prose, what comment prose protects (identifiers, calls, paths…) is protected too."""

    def __init__(self, text: str, lines: Lines) -> None:
        super().__init__(text, lines)
        self.section = ""  # the open section's lower-case name ("" for none)
        self.section_indent = 0
        self.numpy = False
        self.entry_indent: int | None = None  # column of a Google section's entries

    def flush(self) -> None:
        if self.para:
            segments = self.para
            protected = rst_protected(self.text, segments[0][0], segments[-1][1])
            for s, e in segments:
                protected.extend(comment_protected(self.text, s, e))
            block = make_block(self.text, segments, protected)
            if block is not None:
                self.blocks.append(block)
        self.para = []

    def _next_line(self) -> str:
        k = self.index + 1
        if k >= len(self.lines):
            return ""
        return self.text[self.lines.starts[k] : self.lines.ends[k]]

    def _line(self, s: int, e: int, line: str, indent: int) -> None:
        stripped = line.strip()
        name = stripped.lower()
        kind = _GOOGLE_TYPE.match(line, indent) if self.index == 0 else None
        if kind is not None and line[kind.end() :].strip():
            # an attribute's or property's docstring may start with its type: "int: The…"
            self.start(s + kind.end(), e, indent, indent)
            self._item_open = False
            return
        if name in DOCSTRING_SECTIONS and _NUMPY_UNDERLINE.match(self._next_line()):
            self.flush()  # a NumPy header; its underline is an adornment without a title
            self.section, self.section_indent, self.numpy = name, indent, True
            return
        header = _GOOGLE_HEADER.match(stripped)
        if header is not None and header.group(1).lower() in DOCSTRING_SECTIONS:
            self.flush()
            self.section, self.section_indent, self.numpy = header.group(1).lower(), indent, False
            self.entry_indent = None
            return
        if self.section and not self.numpy and indent <= self.section_indent:
            self.section = ""  # a Google section ends where its indentation does
        if self.section in ENTRY_SECTIONS:
            if self.numpy:
                if indent <= self.section_indent:
                    self.flush()  # "name : type", "int", "ValueError": not prose
                    return
            else:
                if self.entry_indent is None:
                    self.entry_indent = indent
                if indent == self.entry_indent:
                    entry = (
                        _GOOGLE_TYPE if self.section in _TYPE_SECTIONS else _GOOGLE_ENTRY
                    ).match(line, indent)
                    if entry is not None:
                        self.flush()
                        if line[entry.end() :].strip():
                            self.start(s + entry.end(), e, indent, indent + 1)
                        self._item_open = True
                        return
        super()._line(s, e, line, indent)


def docstring_blocks(text: str, lines: Lines) -> list[ProseBlock]:
    """The prose blocks of a Python docstring: ``lines`` of ``text`` (its body, each line
    starting after the indentation the lines share), read as reStructuredText with the
    sections of Google and NumPy style."""
    return _DocstringExtractor(text, lines).run()
