"""Prose in source code: comments and docstrings, found with Pygments lexers.

Per comment line, the leader (``#``, ``//``, ``///``, ``//!``, ``--``, ``/*``, `` * ``, ``*/``,
``--[[``, ``]]``) and the indentation stay outside the segments. Consecutive own-line comments
with the same leader form one paragraph; a comment line with nothing after its leader ends the
paragraph; a comment after code on its line is a paragraph of its own. Python docstrings (and Rust
``///`` / ``//!`` doc comments) are paragraphs split at blank lines.

Not prose: shebangs, preprocessor lines, pragmas (``# type: ignore``, ``# noqa``, ``// eslint-…``,
``//go:build``, coding cookies, …), doctest lines (``>>>``/``...``), literal blocks after ``::``
in docstrings, and lines that look like commented-out code (see :func:`looks_like_code`).

Inside prose, inline code in backticks, URLs, identifiers that are clearly code (``snake_case``,
``camelCase``, ``dotted.names``, ``calls()``, ``{braces}``), file paths, reST roles, JSDoc tags with
their names and ``TODO(x):`` markers are protected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, String, _TokenType
from pygments.util import ClassNotFound

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.code_inline import comment_protected
from rephrase_ls.text.markup.docstring import docstring_blocks
from rephrase_ls.text.markup.lines import Lines, make_block, require_text, trim
from rephrase_ls.text.markup.registry import register_format

__all__ = ["ALIASES", "LANGUAGES", "code_blocks", "code_blocks_for", "looks_like_code"]

#: languageId → (Pygments lexer name, file extensions, exact file names)
LANGUAGES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "python": ("python", (".py", ".pyi", ".pyw"), ()),
    "javascript": ("javascript", (".js", ".mjs", ".cjs"), ()),
    "javascriptreact": ("jsx", (".jsx",), ()),
    "typescript": ("typescript", (".ts", ".mts", ".cts"), ()),
    "typescriptreact": ("tsx", (".tsx",), ()),
    "rust": ("rust", (".rs",), ()),
    "go": ("go", (".go",), ()),
    "c": ("c", (".c", ".h"), ()),
    "cpp": ("cpp", (".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx"), ()),
    "java": ("java", (".java",), ()),
    "lua": ("lua", (".lua",), ()),
    "shellscript": ("bash", (".sh", ".bash", ".zsh", ".ksh"), (".bashrc", ".zshrc", ".profile")),
    "csharp": ("csharp", (".cs",), ()),
    "kotlin": ("kotlin", (".kt", ".kts"), ()),
    "swift": ("swift", (".swift",), ()),
    "ruby": ("ruby", (".rb",), ("Rakefile", "Gemfile")),
    "php": ("php", (".php",), ()),
    "scala": ("scala", (".scala",), ()),
    "perl": ("perl", (".pl", ".pm"), ()),
    "r": ("r", (".r",), ()),
    "sql": ("sql", (".sql",), ()),
    "yaml": ("yaml", (".yaml", ".yml"), ()),
    "toml": ("toml", (".toml",), ()),
    "dockerfile": ("docker", (), ("Dockerfile",)),
    "makefile": ("make", (".mk",), ("Makefile", "GNUmakefile")),
}

_SKIPPED = (Comment.Preproc, Comment.PreprocFile, Comment.Hashbang)

# leader at the start of a comment line, after indentation
_LEADER = re.compile(r"(?:///?!?|//|#+[:!]?|--(?:\[=*\[)?|/\*+!?|\*+(?!/)|;+|%+)")
_TRAILER = re.compile(r"(?:\*+/|\]=*\])\s*$")
# The start of reStructuredText explicit markup (a directive such as `.. versionadded:: 8.0`, a
# target, a comment) in a Sphinx doc comment (`#:`), which Sphinx reads as reStructuredText.
_RST_EXPLICIT = re.compile(r"\.\.(?:[ \t]|$)")
_DOC_OPEN = re.compile(r"[rRuUbBfF]{0,2}(?:\"\"\"|'''|\"|')")
_DOC_CLOSE = re.compile(r"(?:\"\"\"|'''|\"|')\s*$")

_PRAGMA = re.compile(
    r"(?:type:\s*ignore|noqa\b|pylint:|mypy:|pyright:|fmt:\s*(?:off|on|skip)|isort:|pragma\b"
    r"|nosec\b|-\*-.*-\*-|vim?:|ex:|eslint(?:-disable|-enable)?\b|@ts-|prettier-ignore"
    r"|istanbul\b|c8\s+ignore|jshint\b|jscs:|global\s+\w|go:\w|\+build\b|nolint\b|NOLINT"
    r"|clang-format\b|shellcheck\b|luacheck:|#?region\b|#?endregion\b|SPDX-License-Identifier:"
    r"|<reference\b|ruff:|@flow\b|@jsx\b|rubocop:|coverage:|cspell:|spell-checker:|codespell:)",
    re.IGNORECASE,
)

_CODE_KEYWORDS = re.compile(
    r"(?:import|from|def|class|return|if|elif|else|for|while|let|const|var|fn|func|function"
    r"|local|public|private|protected|static|void|int|char|bool|struct|enum|impl|package|use"
    r"|print|printf|echo|export|await|async|yield|raise|throw|try|catch|except|with|assert)\b"
)
_ASSIGNMENT = re.compile(r"[A-Za-z_$][\w.$\[\]'\"]*\s*(?:[-+*/%|&^]|//|\*\*|:)?=(?!=)\s*\S")
_CALL_LINE = re.compile(r"[A-Za-z_$][\w.$]*\s*\(.*\)\s*[;,]?$")
_CODE_END = re.compile(r"(?:[;{}]|\)\s*[;:]?|\]\s*[;,]?|=>|->|&&|\|\|)$")
_CODE_START = re.compile(r"(?:[}\])]|</?[A-Za-z]|#include\b|@\w+\(|\$\(|\w+::\w)")


def looks_like_code(content: str) -> bool:
    """Cheap heuristic: is this comment line commented-out code rather than prose?

    Code if it ends like a statement (``;``, ``{``, ``}``, ``)``, ``]``, ``=>``, ``->``), starts
    like one (a closing bracket, a tag, ``#include``, a decorator call, ``a::b``), is an
    assignment (``x = 1``, ``self.x += y``), a call statement (``f(x)``), an import
    (``import os``, ``from a import b``, ``use a::b;``), or starts with a
    lower-case keyword and contains code punctuation (``(``, ``=``, ``{``, ``[``) or ends with
    ``:`` without sentence punctuation.
    """
    s = content.strip()
    if not s:
        return False
    if _CODE_END.search(s) or _CODE_START.match(s):
        # "... (see below)" is prose: a closing bracket after words, no code punctuation elsewhere
        return not (s[-1] in ")]" and " " in s and not _CODE_PUNCTUATION.search(s))
    if _ASSIGNMENT.match(s) or _CALL_LINE.match(s) or _IMPORT.match(s):
        return True
    if not _CODE_KEYWORDS.match(s):
        return False
    return any(c in s for c in "(={[") or (s.endswith(":") and not _SENTENCE.search(s))


_IMPORT = re.compile(r"(?:import [\w.]+(?: as \w+)?|from [\w.]+ import \w.*|use [\w:]+;?)$")
_CODE_PUNCTUATION = re.compile(r"[=;{}]|\w\(")
_SENTENCE = re.compile(r"[.!?,]")


_ARG_ENTRY = re.compile(r"\*{0,2}[A-Za-z_]\w*(?:\s*\([^()\n]*\))?\s*:(?=\s|$)")
_SECTION = re.compile(r"[A-Z][A-Za-z]*(?: [A-Za-z]+)?:$")


@dataclass
class _Paragraph:
    """A paragraph of comment prose being collected."""

    segments: list[tuple[int, int]]
    protected: list[tuple[int, int]]
    last_line: int
    leader: str
    column: int


@lru_cache(maxsize=64)
def _lexer(name: str) -> Lexer:
    return get_lexer_by_name(name, stripnl=False, stripall=False, ensurenl=False)


# A line holding only spaces, tabs or a carriage return. Pygments' lexers (Python's, for one)
# take quadratic time over a long run of such lines, and none of it is a comment: the lexer is
# given the text with their characters as line breaks (the same length, so the same offsets).
_BLANK_LINE = re.compile(r"^[ \t\r\f\v]+$", re.MULTILINE)


def _for_lexer(text: str) -> str:
    return _BLANK_LINE.sub(lambda m: "\n" * len(m.group()), text)


def _regions(lexer: Lexer, text: str) -> Iterator[tuple[int, int, str]]:
    """Contiguous comment / doc-string regions as (start, end, kind), kind "comment" or "doc"."""
    cur_start = cur_end = -1
    cur_kind = ""
    for index, ttype, value in lexer.get_tokens_unprocessed(_for_lexer(text)):
        kind = _kind(ttype)
        if kind == cur_kind and index == cur_end and kind:
            cur_end = index + len(value)
            continue
        if cur_kind:
            yield cur_start, cur_end, cur_kind
        cur_kind = kind
        cur_start, cur_end = index, index + len(value)
    if cur_kind:
        yield cur_start, cur_end, cur_kind


def _kind(ttype: _TokenType) -> str:
    if ttype in String.Doc:
        return "doc"
    if ttype in Comment and not any(ttype in skipped for skipped in _SKIPPED):
        return "comment"
    return ""


def _docstring_position(text: str, start: int) -> bool:
    """Whether a Python string at ``start`` is a docstring: first in the module or in a block."""
    i = start - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    if i < 0 or text[i] == ":":
        return True
    line_start = max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) + 1
    return text[line_start : i + 1].lstrip().startswith("#")  # after a comment: module header


class _Extractor:
    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = Lines(text)
        self.blocks: list[ProseBlock] = []
        self.para: _Paragraph | None = None

    def flush(self) -> None:
        if self.para is not None:
            block = make_block(self.text, self.para.segments, self.para.protected)
            if block is not None:
                self.blocks.append(block)
        self.para = None

    def add(self, line: int, start: int, end: int, leader: str, column: int) -> None:
        """Add a prose line; continue the open paragraph if it is the same kind of comment."""
        p = self.para
        if p is None or p.last_line != line - 1 or p.leader != leader or p.column != column:
            self.flush()
            p = self.para = _Paragraph([], [], line, leader, column)
        p.segments.append((start, end))
        p.protected.extend(comment_protected(self.text, start, end))
        p.last_line = line

    def comment(self, start: int, end: int) -> None:
        text, lines = self.text, self.lines
        first = lines.line_of(start)
        last = lines.line_of(end - 1) if end > start else first
        line_start = lines.starts[first]
        own_line = not text[line_start:start].strip()
        if not own_line:
            self.flush()
        block_comment = text.startswith("/*", start) or text.startswith("--[", start)
        if block_comment:
            self.flush()
        for i in range(first, last + 1):
            s = max(lines.starts[i], start)
            e = min(lines.ends[i], end)
            ls, le = trim(text, s, e)
            column = ls - lines.starts[i]
            leader = ""
            m = _LEADER.match(text, ls, le)
            if m is not None and (i == first or not block_comment or text[ls] == "*"):
                leader = m.group()
                ls = m.end()
            t = _TRAILER.search(text, ls, le)
            if t is not None:
                le = t.start()
            ls, le = trim(text, ls, le)
            content = text[ls:le]
            if i == 0 and content.startswith("!") and leader == "#":
                self.flush()  # a shebang the lexer did not mark
                continue
            if (
                not content
                or _PRAGMA.match(content)
                or looks_like_code(content)
                or (leader == "#:" and _RST_EXPLICIT.match(content) is not None)
            ):
                self.flush()
                continue
            if content.startswith("@"):
                self.flush()  # a JSDoc / Javadoc tag starts its own paragraph
            key = leader if not block_comment else "/*"
            # lines of one block comment belong together whatever their indentation
            self.add(
                i, ls, le, key if own_line else f"trailing:{start}", 0 if block_comment else column
            )
        if block_comment or not own_line:
            self.flush()

    def docstring(self, start: int, end: int, *, python: bool = False) -> None:
        text, lines = self.text, self.lines
        self.flush()
        m = _DOC_OPEN.match(text, start, end)
        if m is not None and m.group().lstrip("rRuUbBfF"):
            body_start = m.end()
            close = _DOC_CLOSE.search(text, body_start, end)
            body_end = close.start() if close is not None else end
            if python:
                self.blocks.extend(docstring_blocks(text, self._body_lines(body_start, body_end)))
                return
        elif text.startswith(("///", "//!"), start):
            for i in range(lines.line_of(start), lines.line_of(max(start, end - 1)) + 1):
                self.comment(max(lines.starts[i], start), min(lines.ends[i], end))
            return
        else:
            body_start, body_end = start, end
        first = lines.line_of(body_start)
        last = lines.line_of(max(body_start, body_end - 1))
        literal_indent: int | None = None  # inside a literal block after "::"
        for i in range(first, last + 1):
            s = max(lines.starts[i], body_start)
            e = min(lines.ends[i], body_end)
            ls, le = trim(text, s, e)
            indent = ls - lines.starts[i] if i > first else -1
            content = text[ls:le]
            if literal_indent is not None:
                if not content or indent > literal_indent:
                    continue
                literal_indent = None
            if not content or content.startswith((">>>", "...")) or _SECTION.match(content):
                self.flush()
                continue
            if _ARG_ENTRY.match(content):
                self.flush()  # "x (int): the x" starts its own paragraph, its name protected
                a = _ARG_ENTRY.match(content)
                assert a is not None
                self.add(i, ls, le, "doc", indent)
                if self.para is not None:
                    self.para.protected.append((ls, ls + a.end()))
                continue
            p = self.para
            if p is not None and p.last_line == i - 1 and p.leader == "doc":
                p.segments.append((ls, le))
                p.protected.extend(comment_protected(text, ls, le))
                p.last_line = i
            else:
                self.add(i, ls, le, "doc", indent)
            if content.endswith("::"):
                if self.para is not None:
                    self.para.protected.append((le - 2, le))
                self.flush()
                literal_indent = max(indent, 0)
        self.flush()

    def _body_lines(self, body_start: int, body_end: int) -> Lines:
        """The lines of a docstring's body as PEP 257 reads them: the first from the text after
        the quotes, each of the others after the indentation the others share."""
        text, lines = self.text, self.lines
        first = lines.line_of(body_start)
        last = lines.line_of(max(body_start, body_end - 1))
        spans = [
            (lines.starts[i], min(lines.ends[i], body_end)) for i in range(first + 1, last + 1)
        ]
        shared = min(
            (len(text[s:e]) - len(text[s:e].lstrip(" \t")) for s, e in spans if text[s:e].strip()),
            default=0,
        )
        head = trim(text, body_start, min(lines.ends[first], body_end))[0]
        starts = [head] + [min(s + shared, e) for s, e in spans]
        ends = [max(head, min(lines.ends[first], body_end))] + [e for _, e in spans]
        return Lines.spans(text, starts, ends)


def code_blocks_for(text: str, lexer_name: str) -> list[ProseBlock]:
    """The prose blocks (comments and docstrings) of ``text`` lexed by the Pygments lexer named."""
    require_text(text)
    try:
        lexer = _lexer(lexer_name)
    except ClassNotFound as error:
        raise ValueError(f"no Pygments lexer named {lexer_name!r}") from error
    extractor = _Extractor(text)
    python = lexer_name in ("python", "python3", "py")
    for start, end, kind in _regions(lexer, text):
        if kind == "doc":
            if python and not _docstring_position(text, start):
                continue  # a triple-quoted string that is data (SQL, a template...), not a doc
            extractor.docstring(start, end, python=python)
        else:
            extractor.comment(start, end)
    extractor.flush()
    blocks = extractor.blocks
    blocks.sort(key=lambda b: b.start)
    return blocks


def code_blocks(text: str, language_id: str = "python") -> list[ProseBlock]:
    """The prose blocks of source code in the language of LSP ``language_id``."""
    entry = LANGUAGES.get(ALIASES.get(language_id, language_id))
    if entry is None:
        raise ValueError(f"unsupported source language {language_id!r}")
    return code_blocks_for(text, entry[0])


def _blocks_fn(lexer_name: str) -> Callable[[str], list[ProseBlock]]:
    def blocks(text: str) -> list[ProseBlock]:
        return code_blocks_for(text, lexer_name)

    blocks.__doc__ = f"Prose blocks of source code lexed as {lexer_name!r}."
    return blocks


#: other names editors use for these languages (Neovim file types) → languageId above
ALIASES = {"sh": "shellscript", "bash": "shellscript", "zsh": "shellscript", "make": "makefile"}

for _language_id, (_lexer_name, _extensions, _filenames) in LANGUAGES.items():
    register_format(
        _language_id, _blocks_fn(_lexer_name), extensions=_extensions, filenames=_filenames
    )
for _alias, _language_id in ALIASES.items():
    register_format(_alias, _blocks_fn(LANGUAGES[_language_id][0]))
