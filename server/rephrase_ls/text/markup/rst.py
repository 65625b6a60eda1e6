"""Prose in reStructuredText, found by one pass over the lines.

Prose: paragraphs, section titles, list items (bullet, enumerated, field-list bodies), block
quotes, line blocks, definition-list terms and definitions, footnote and citation bodies, and the
bodies of admonitions (``.. note::``, ``.. warning::``…). Each list item is a block of its own,
its marker outside the segment.

Not prose: section adornments and transitions, literal blocks (after ``::``), directives other
than admonitions (their options and bodies too), comments, targets, substitution definitions,
doctest blocks, option lists, grid and simple tables (blank lines inside a simple table included).

Inside prose, inline literals, roles, interpreted text, hyperlink references and embedded URIs,
footnote and citation references, substitution references, emphasis markers, escapes, URLs, and
a closing ``::`` are protected.
"""

from __future__ import annotations

import re

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import Lines, make_block
from rephrase_ls.text.markup.registry import register_format

__all__ = [
    "ADMONITIONS",
    "TYPE_FIELDS",
    "VERSION_DIRECTIVES",
    "RstExtractor",
    "rst_blocks",
    "rst_protected",
]

#: directives whose body is prose
ADMONITIONS = frozenset(
    (
        "attention",
        "caution",
        "danger",
        "error",
        "hint",
        "important",
        "note",
        "tip",
        "warning",
        "admonition",
        "seealso",
        "versionadded",
        "versionchanged",
        "deprecated",
        "topic",
        "sidebar",
        "epigraph",
        "highlights",
        "pull-quote",
        "container",
        "rst-class",
        "only",
        "versionremoved",
        "todo",
    )
)

#: admonitions whose argument is a version (``.. deprecated:: 1.0.0``): the version is not prose,
#: an explanation after it on the same line is
VERSION_DIRECTIVES = frozenset(("versionadded", "versionchanged", "deprecated", "versionremoved"))
#: admonitions whose argument is not prose (class names, an ``only`` expression)
_CODE_ARGUMENT = frozenset(("container", "rst-class", "only"))
#: fields whose body is a type, not prose (``:type x: bool``, ``:rtype: str``)
TYPE_FIELDS = frozenset(("type", "rtype", "vartype", "kwtype", "ytype"))

_ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*$")
_DIRECTIVE = re.compile(r"\.\.[ \t]+([\w:+.-]+)::(?:[ \t]|$)")
_FOOTNOTE = re.compile(r"\.\.[ \t]+\[(?:[0-9]+|#[\w-]*|\*|[A-Za-z][\w.-]*)\](?:[ \t]+|$)")
_BULLET = re.compile(r"[-*+•‣⁃](?:[ \t]+|$)")
_ENUMERATED = re.compile(
    r"(?:\(?(?:[0-9]+|#|[a-zA-Z]|[ivxlcdm]+|[IVXLCDM]+)\)|(?:[0-9]+|#|[a-zA-Z]|[ivxlcdm]+"
    r"|[IVXLCDM]+)\.)(?:[ \t]+|$)"
)
_VERSION_ARGUMENT = re.compile(r"[ \t]*\S+")
_FIELD = re.compile(r":(?![ \t])(?:[^:\\\n]|\\.)+(?<![ \t]):(?:[ \t]+|$)")
_OPTION = re.compile(r"(?:--?[A-Za-z0-9][\w-]*|/[A-Za-z])(?:[ =][^ \t]+)?(?:,[ \t]*\S+)*(?:  |$)")
_LINE_BLOCK = re.compile(r"\|(?:[ \t]+|$)")
_GRID_TABLE = re.compile(r"\+[-=+]+\+[ \t]*$")
_SIMPLE_TABLE = re.compile(r"=+(?:[ \t]+=+)+[ \t]*$")
_TABLE_BORDER = re.compile(r"[ \t]*=+(?:[ \t]+=+)*[ \t]*$")

# (The lookbehinds start a role, an embedded URI and an e-mail address at the start of a run of
# their characters: tried at each character inside a long run, each would read the rest of it.)
_INLINE = re.compile(
    "|".join(
        (
            r"\\.",  # escape
            r"``.+?``(?!\w)",  # inline literal
            # (a role and an e-mail address start where their run of name characters does:
            # tried from every character of a long run, each would scan the run again)
            r"(?<![\w.+:-]):[\w.+-]+(?::[\w.+-]+)*:`[^`]*`",  # role with content
            r"`[^`<>]*`:[\w.+-]+(?::[\w.+-]+)*:",  # content with a role after it
            r"`(?=[^`]*<[^`>]+>`__?)",  # opening back-quote of a reference with embedded URI
            r"(?<![ \t])[ \t]*<[^`<>]+>`__?",  # embedded URI and the reference end
            r"_?`[^`]+`_{0,2}",  # interpreted text, phrase reference, inline target
            r"\[(?:[0-9]+|#[\w-]*|\*|[A-Za-z][\w.-]*)\]_",  # footnote / citation reference
            r"\|[^|\s](?:[^|]*[^|\s])?\|_{0,2}",  # substitution reference
            r"(?:https?|ftp|mailto):[^\s<>]*[^\s<>.,;:!?'\")\]]",  # URL
            r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+",  # e-mail
            r"(?<=\w)__?(?!\w)",  # the underscore of a `word_` reference
            r"\*{1,2}(?=\S)|(?<=\S)\*{1,2}",  # emphasis markers
            r"::$",  # the `::` that introduces a literal block
        )
    ),
    re.MULTILINE,
)


def rst_protected(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of ``text[start:end]`` (reStructuredText inline content) to keep unchanged."""
    return [m.span() for m in _INLINE.finditer(text, start, end)]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


class RstExtractor:
    """One pass over ``lines`` (all lines of ``text`` by default; a docstring's body, each line
    starting after the indentation the docstring's lines share, for a Python docstring)."""

    def __init__(self, text: str, lines: Lines | None = None) -> None:
        self.text = text
        self.lines = Lines(text) if lines is None else lines
        self.blocks: list[ProseBlock] = []
        self.para: list[tuple[int, int]] = []  # segments of the open paragraph
        self.para_indent = 0  # indentation of the open paragraph's first line
        self.para_cont = 0  # column of its continuation lines
        self.skip_over: int | None = None  # skip lines indented more than this (and blanks)
        self.skip_to_blank = False  # skip until a blank line (grid tables, doctests, options)
        self.in_simple_table = False  # skip a simple table (see run)
        self.in_options = False  # right after a directive: `:option: value` lines
        self.index = 0  # the line being read

    def flush(self) -> None:
        if self.para:
            segments = self.para
            # the whole span is scanned, so that roles and references may cross lines
            protected = rst_protected(self.text, segments[0][0], segments[-1][1])
            block = make_block(self.text, segments, protected)
            if block is not None:
                self.blocks.append(block)
        self.para = []

    def start(self, s: int, e: int, indent: int, cont: int) -> None:
        self.flush()
        self.para = [(s, e)]
        self.para_indent = indent
        self.para_cont = cont

    def run(self, skipped: range = range(0)) -> list[ProseBlock]:
        """The blocks of the lines, but for those in ``skipped`` (read as a blank line)."""
        text, lines = self.text, self.lines
        n = len(lines)
        for i in range(n):
            if i in skipped:
                if i == skipped.start:
                    self.flush()
                continue
            s, e = lines.starts[i], lines.ends[i]
            line = text[s:e]
            blank = not line.strip()
            indent = _indent(line)
            if self.skip_over is not None:
                if blank or indent > self.skip_over:
                    continue
                self.skip_over = None
            if self.skip_to_blank:
                if not blank:
                    continue
                self.skip_to_blank = False
            if self.in_simple_table:
                # a simple table may hold blank lines: it ends with a border line that is
                # followed by a blank line or the end of the document
                if _TABLE_BORDER.match(line):
                    following = (
                        i + 1 >= n or not text[lines.starts[i + 1] : lines.ends[i + 1]].strip()
                    )
                    self.in_simple_table = not following
                continue
            if blank:
                self.flush()
                self.in_options = False
                continue
            if self.in_options and _FIELD.match(line, indent):
                continue
            self.in_options = False
            self.index = i
            self._line(s, e, line, indent)
        self.flush()
        self.blocks.sort(key=lambda b: b.start)
        return self.blocks

    def _line(self, s: int, e: int, line: str, indent: int) -> None:
        text = self.text
        body = s + indent
        stripped = line.strip()
        if stripped == "::":
            self.flush()
            self.skip_over = indent
            return
        # section title underline (or a transition / overline)
        if _ADORNMENT.match(line) and len(stripped) >= 2:
            if len(self.para) == 1 and indent == 0 and self.para_indent == 0:
                title = self.para[0]
                if len(stripped) >= len(text[title[0] : title[1]].strip()) or len(stripped) >= 4:
                    self.flush()
                    return
            if not self.para:
                self.flush()
                return
        if stripped == ".." or stripped.startswith(("..\t", ".. ")):
            self.flush()
            self._explicit(s, e, line, indent)
            return
        if _SIMPLE_TABLE.match(line, indent) and not self.para:
            self.flush()
            self.in_simple_table = True
            return
        if stripped.startswith(">>>") or _GRID_TABLE.match(line, indent):
            self.flush()
            self.skip_to_blank = True
            return
        if self.para:
            if indent == self.para_cont or (self._item_open and indent >= self.para_cont):
                self.para.append((body, e))
                self._literal_after(line, indent)
                return
            if indent > self.para_cont and len(self.para) == 1 and not self._item_open:
                # a definition list: the term is one block, its definition another
                self.start(body, e, indent, indent)
                self._literal_after(line, indent)
                return
        self._item(s, e, line, indent)

    _item_open = False

    def _item(self, s: int, e: int, line: str, indent: int) -> None:
        """A line that starts a paragraph: maybe a list item, a field, an option, a line block."""
        body = s + indent
        for pattern in (_BULLET, _ENUMERATED, _LINE_BLOCK):
            m = pattern.match(line, indent)
            if m is not None and (pattern is not _ENUMERATED or self._plausible_enum(line, m)):
                self.start(s + m.end(), e, indent, m.end())
                self._item_open = True
                self._literal_after(line, indent)
                return
        m = _FIELD.match(line, indent)
        if m is not None:
            if m.group().strip(": \t").split(None, 1)[0].lower() in TYPE_FIELDS:
                self.flush()  # `:type x: bool`: a type, with its continuation lines
                self.skip_over = indent
                return
            self.start(s + m.end(), e, indent, indent + 1)
            self._item_open = True
            self._literal_after(line, indent)
            return
        if _OPTION.match(line, indent) and line[indent] in "-/":
            self.flush()
            self.skip_to_blank = True
            return
        self.start(body, e, indent, indent)
        self._item_open = False
        self._literal_after(line, indent)

    def _plausible_enum(self, line: str, m: re.Match[str]) -> bool:
        """An enumerated item needs a blank, indented or item line after it (else "A. Smith")."""
        nxt = self.index + 1
        if nxt >= len(self.lines):
            return True
        following = self.text[self.lines.starts[nxt] : self.lines.ends[nxt]]
        if not following.strip() or _indent(following) >= m.end():
            return True
        return _ENUMERATED.match(following, _indent(following)) is not None

    def _literal_after(self, line: str, indent: int) -> None:
        """A paragraph line ending in `::` closes the paragraph; an indented literal follows."""
        if line.rstrip().endswith("::"):
            self.flush()
            self.skip_over = self.para_indent if self.para_indent <= indent else indent

    def _explicit(self, s: int, e: int, line: str, indent: int) -> None:
        """An explicit markup block: directive, footnote, target, substitution or comment."""
        m = _DIRECTIVE.match(line, indent)
        if m is not None and m.group(1).lower() in ADMONITIONS:
            name = m.group(1).lower()
            self.in_options = True  # the body is prose, after the options
            rest = s + m.end()
            if name in VERSION_DIRECTIVES:
                version = _VERSION_ARGUMENT.match(self.text, rest, e)
                rest = e if version is None else version.end()
            elif name in _CODE_ARGUMENT:
                rest = e
            if self.text[rest:e].strip():  # `.. note:: Text` starts the body on the same line
                self.start(rest, e, indent, indent + 3)
                self._item_open = True
            return
        m = _FOOTNOTE.match(line, indent)
        if m is not None:
            self.start(s + m.end(), e, indent, indent + 3)
            self._item_open = True
            return
        self.skip_over = indent  # other directives, targets, substitutions, comments


def _docinfo(text: str, lines: Lines) -> range:
    """The lines of the bibliographic field list at the top of a document (its *docinfo*:
    ``:Author:``, ``:Date:``, ``:Version:``…, or Sphinx's ``:orphan:``, ``:tocdepth:``), empty
    when there is none. As docutils reads it, it is the first thing after the document title (and
    subtitle); explicit markup before the title (comments, an ``include``, targets) is passed
    over."""
    starts, ends = lines.starts, lines.ends
    n = len(starts)

    def line(k: int) -> str:
        return text[starts[k] : ends[k]]

    i = 0
    while i < n:
        current = line(i)
        if not current.strip():
            i += 1
        elif current.startswith(".."):
            i += 1  # a comment, target, substitution or include, with its indented lines
            while i < n and (not line(i).strip() or line(i)[:1] in " \t"):
                i += 1
        else:
            break
    for _ in range(2):  # the title, then a subtitle
        k = i + 1 if i < n and _ADORNMENT.match(line(i)) else i
        if k + 1 < n and line(k).strip() and _ADORNMENT.match(line(k + 1)):
            i = k + 2
            while i < n and not line(i).strip():
                i += 1
    if i >= n or _FIELD.match(line(i)) is None:
        return range(0)
    first = i
    while i < n:
        current = line(i)
        if _FIELD.match(current) is not None or (current.strip() and current[:1] in " \t"):
            i += 1
        elif not current.strip():
            k = i
            while k < n and not line(k).strip():
                k += 1
            if k < n and (_FIELD.match(line(k)) is not None or line(k)[:1] in " \t"):
                i = k
            else:
                break
        else:
            break
    return range(first, i)


def rst_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of a reStructuredText document, in document order.

    The bibliographic fields at the top (see :func:`_docinfo`) are not prose.
    """
    extractor = RstExtractor(text)
    return extractor.run(_docinfo(text, extractor.lines))


register_format("restructuredtext", rst_blocks, extensions=(".rst", ".rest"))
register_format("rst", rst_blocks)  # Neovim's file type
