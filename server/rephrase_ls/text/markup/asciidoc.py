"""Prose in AsciiDoc (Asciidoctor's syntax, as Antora documentation sets write it), found by one
pass over the lines.

Prose: paragraphs, section titles (``== Title``, ``## Title`` and two-line titles), the document
title, block titles (``.Title``), list items (unordered, ordered, checklist, callout), the terms
and descriptions of description lists (``term:: description``), admonition paragraphs
(``NOTE: text``) and blocks (``[NOTE]`` over ``====``), the contents of example, sidebar, quote,
verse and open blocks, and table cells (``|===`` and nested ``!===`` tables). Each list item,
term, description and cell is a block of its own, its marker outside the segment.

Not prose: the document header's author and revision lines, attribute entries (``:name: value``,
with their ``\\`` continuation lines), block attribute lines (``[source,ruby]``, ``[[id]]``,
``[.role]``), block macros (``image::``, ``include::``, ``toc::[]``), preprocessor directives
(``ifdef::…[]``, ``endif::[]``), comments (``//`` lines, ``////`` blocks), listing, literal,
passthrough and fenced blocks (``----``, ``....``, ``++++``, ```````), literal paragraphs
(indented), any block or paragraph styled as source, listing, literal, passthrough, STEM, comment
or a diagram (``[source]``, ``[stem]``, ``[plantuml]``…), table cells styled ``l`` or ``m``, CSV and
DSV tables (``,===``, ``:===``), thematic and page breaks, list continuations (``+``) and front
matter (``---`` … ``---`` at the top, as Antora and Jekyll skip it).

Inside prose, monospace and passthrough text, inline macros with their targets and attributes
(``kbd:[…]``, ``image:…[…]``, ``stem:[…]``, ``pass:[…]``…), URLs, cross references, anchors,
attribute references (``{name}``), index terms, e-mail addresses, entities, escapes and the
formatting marks (``*``, ``_``, ``#``, ``^``, ``~``) are protected, as is a hard line break's
``+``. The text of a link, a cross reference or a footnote (``link:url[text]``,
``xref:page.adoc[text]``, ``<<id,text>>``, ``footnote:[text]``) is prose when it is plain words;
its target and brackets are protected (the whole macro when its text holds attributes).
"""

from __future__ import annotations

import re

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import Lines, make_block
from rephrase_ls.text.markup.registry import register_format

__all__ = ["VERBATIM_STYLES", "asciidoc_blocks", "asciidoc_protected"]

#: block styles whose content is not prose (source, literal, passthrough, math, comments and the
#: diagram blocks of Asciidoctor Diagram)
VERBATIM_STYLES = frozenset(
    (
        "source", "listing", "literal", "pass", "stem", "latexmath", "asciimath", "comment",
        "a2s", "actdiag", "barcode", "blockdiag", "bpmn", "bytefield", "d2", "dbml", "ditaa",
        "dpic", "erd", "gnuplot", "graphviz", "lilypond", "meme", "mermaid", "msc", "nomnoml",
        "nwdiag", "packetdiag", "pikchr", "plantuml", "qrcode", "rackdiag", "seqdiag", "shaape",
        "smcat", "structurizr", "svgbob", "symbolator", "syntrax", "tikz", "umlet", "vega",
        "vegalite", "wavedrom",
    )
)  # fmt: skip

_ATTRIBUTE_ENTRY = re.compile(r":!?\w[\w-]*!?:(?:[ \t]|$)")
_BLOCK_ATTRIBUTES = re.compile(r"\[[^\n]*\][ \t]*$")
_PREPROCESSOR = re.compile(r"(?:ifn?def|ifeval|endif|include)::[^\s\[]*\[[^\n]*\][ \t]*$")
_BLOCK_MACRO = re.compile(r"[A-Za-z][\w-]*::[^\s\[]*\[[^\n]*\][ \t]*$")
_SECTION = re.compile(r"(?:={1,6}|#{1,6})[ \t]+(?=\S)")
_SECTION_CLOSE = re.compile(r"(?<![ \t])[ \t]+(?:=+|#+)[ \t]*$")
_BLOCK_TITLE = re.compile(r"\.(?=[^\s.])")
_BREAK = re.compile(r"(?:'{3,}|<{3,}|(?:-[ \t]?){3}|(?:\*[ \t]?){3})[ \t]*$")
_LIST = re.compile(
    r"[ \t]*(?:\*{1,5}|-|\.{1,5}|[0-9]{1,9}\.|[A-Za-z]\.|[ivxlcdmIVXLCDM]{1,9}\)|<(?:[0-9]+|\.)>)"
    r"[ \t]+(?:\[[ xX*]\][ \t]+)?(?=\S)"
)
# the mark that ends a description list term (the first of a run of colons)
_DESCRIPTION = re.compile(r"(?<![:;])(?::{2,4}|;;)(?:[ \t]+|$)")
_ADMONITION = re.compile(r"(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION):[ \t]+(?=\S)")
# delimiters of blocks whose content is not prose, and of those whose content is
_VERBATIM_DELIMITER = re.compile(r"(?:-{4,}|\.{4,}|\+{4,}|/{4,})[ \t]*$")
_CONTAINER_DELIMITER = re.compile(r"(?:={4,}|\*{4,}|_{4,}|--)[ \t]*$")
_FENCE = re.compile(r"```")
_TABLE = re.compile(r"(?P<sep>[|!,:])={3,}[ \t]*$")
_TWO_LINE_UNDERLINE = re.compile(r"([=\-~^+])\1+[ \t]*$")
_HARD_BREAK = re.compile(r"[ \t]\+[ \t]*$")
# a cell's specifier (span, alignment, style) after a space or at a line start, and its separator
_CELL_SPEC = (
    r"(?:(?<![^ \t\n\r])(?:(?P<span>[0-9]+)?(?:\.(?P<rows>[0-9]+))?(?P<op>[*+]))?[<^>]?(?:\.[<^>])?"
    r"(?P<style>[adehlmsv])?)?"
)
# the columns of a table's `cols` attribute: `cols="1,2m,1"`, `cols=3*`, `cols=">1h;2d"`
_COLS = re.compile(
    r"""(?:^|[\[,])[ \t]*cols[ \t]*=[ \t]*(?:"(?P<q>[^"]*)"|'(?P<s>[^']*)'|(?P<b>[^,\]]*))"""
)
_TIMES = re.compile(r"([0-9]{1,4})\*")
#: Tables up to this many columns (by ``cols``) have the rows their cells span counted
_TRACKED_COLUMNS = 32


def _column_styles(line: str) -> list[str]:
    """The style letter of each column a block attribute line's ``cols`` gives ('' for none)."""
    m = _COLS.search(line)
    if m is None:
        return []
    value = next(v for v in (m.group("q"), m.group("s"), m.group("b"), "") if v is not None)
    styles: list[str] = []
    for spec in re.split(r"[,;]", value):
        spec = spec.strip()
        times = _TIMES.match(spec)
        style = spec[-1] if spec and spec[-1] in "adehlmsv" else ""
        styles.extend([style] * (int(times.group(1)) if times is not None else 1))
    return styles


_CELLS = {sep: re.compile(_CELL_SPEC + r"(?<!\\)" + re.escape(sep)) for sep in "|!"}

#: macros whose bracketed text is prose when it is plain words
_LINK_MACROS = frozenset(("xref", "link", "mailto", "footnote", "http", "https", "ftp", "irc"))
_PLAIN_TEXT = re.compile(r"[^=\"\n]*[^=\"\s^]\^?")

# Each alternative starts with a literal character or is anchored by a lookbehind, so that a
# long run of one character costs one attempt per run, not one per character.
_INLINE = re.compile(
    "|".join(
        (
            r"\\[^\s\w]",  # escape
            r"``[^`\n]+``|`[^`\n]+`",  # monospace
            r"\+\+\+[^+\n]*\+\+\+|\+\+[^+\n]+\+\+",  # passthrough
            r"(?<![\w+])\+(?=[^\s+])[^+\n]*(?<=[^\s+])\+(?![\w+])",  # constrained passthrough
            r"\$\$[^$\n]*\$\$",  # legacy passthrough
            # an inline macro or a URL with its bracketed text: name, target, text
            # (a name starts after a space, a line start or ("'>|[, none of which a target
            # holds: an attempt stops where the next one would start)
            r"(?<![^\s(\"'>|\[])(?P<name>[A-Za-z][\w-]*):(?P<target>[^\s\[\](\"'>|]{0,256})"
            r"\[(?P<text>(?:[^\[\]\\\n]|\\[^\n])*)\]",
            r"(?<![\w/.:-])(?:https?|ftp|irc|file)://[^\s\[\]<>]*[^\s\[\]<>.,;:!?'\")]",  # URL
            r"(?<![\w/.:-])mailto:[^\s\[\]<>]+",
            r"<<(?P<xref>[^<>,\n]+)(?:,(?P<xtext>[^<>\n]*))?>>",  # cross reference (by id or title)
            r"\[\[\[?[\w:.-]+(?:,[^\[\]\n]*)?\]\]\]?",  # anchor, bibliography anchor
            r"\[[#.%][^\[\]\n]*\](?=[#*_`+^~])",  # the role or id of a formatted phrase
            # an attribute reference, or a link to the URL an attribute holds, with its text
            r"\{[\w-]+\}[^\s\[\]{}]{0,256}\[(?P<atext>(?:[^\[\]\\\n]|\\[^\n])*)\]|\{[\w-]+(?::[^{}\n]*)?\}",
            r"\(\(\(?[^()\n]+\)?\)\)",  # index terms
            r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+",  # e-mail address
            r"&(?:#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});",  # entity
            r"[*#^~]+",  # formatting marks
            r"_+",  # a formatting mark unless inside a word (checked below)
        )
    )
)


def asciidoc_protected(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of ``text[start:end]`` (AsciiDoc inline content) to keep unchanged, sorted."""
    spans: list[tuple[int, int]] = []
    for m in _INLINE.finditer(text, start, end):
        s, e = m.span()
        if text[s] == "_" and start < s and e < end and text[s - 1].isalnum() and text[e].isalnum():
            continue  # snake_case
        name = m.group("name")
        inner = "text" if name is not None else "atext" if text[s] == "{" else "xtext"
        if (name is None or name.lower() in _LINK_MACROS) and m.group(inner):
            ts, te = m.span(inner)
            if (name is not None and name.lower() == "footnote") or _PLAIN_TEXT.fullmatch(
                text, ts, te
            ):
                if text[te - 1] == "^" and name is not None and name.lower() != "footnote":
                    te -= 1  # the mark of a link opened in a new window
                spans.append((s, ts))
                spans.extend(asciidoc_protected(text, ts, te))
                spans.append((te, e))
                continue
        spans.append((s, e))
    return spans


def _style(line: str) -> str:
    """The style of a block attribute line (``[source,ruby]`` → ``source``), lower-cased."""
    inner = line.strip()[1:-1]
    if inner.startswith(("[", "#", ".", "%")):
        return ""
    first = inner.split(",", 1)[0].strip().strip("\"'")
    if "=" in first:
        return ""
    return re.split(r"[#.%]", first, maxsplit=1)[0].lower()


class _Scanner:
    """The pass over the lines; see the module docstring."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = Lines(text)
        self.blocks: list[ProseBlock] = []
        self.para: list[tuple[int, int]] = []
        self.in_item = False  # the open block is a list item (another item may follow it)
        self.style = ""  # the style given by the last block attribute line
        self.closing: str | None = None  # the delimiter that ends the verbatim block being skipped
        self.to_blank = False  # skipping a literal paragraph up to the next blank line
        self.table: str | None = None  # the separator of the table being read
        self.table_close = ""
        self.cell_skip = False  # the open table cell is literal or monospace
        self.columns: list[str] = []  # the style of each column (`cols`) of the next table
        self.column = 0  # the column of the next cell in its row
        self.row = 0  # the row of the next cell, counted from the table's first
        self.held_until = 0  # the row from which no cell spanning rows holds a column
        # for each column, the row up to which (not included) a cell spanning rows holds it
        self.held: list[int] = []
        self.first_row = False  # the next line of the table is its first
        self.definition = False  # a description list term closed its line: its description next

    def flush(self) -> None:
        if self.para:
            protected: list[tuple[int, int]] = []
            for s, e in self.para:
                protected.extend(asciidoc_protected(self.text, s, e))
            block = make_block(self.text, self.para, protected)
            if block is not None:
                self.blocks.append(block)
        self.para = []
        self.in_item = False

    def add(self, s: int, e: int) -> None:
        """Add a line's prose ``[s, e)`` to the open block (a hard line break's ``+`` left out)."""
        m = _HARD_BREAK.search(self.text, s, e)
        self.para.append((s, m.start() if m is not None else e))

    def run(self) -> list[ProseBlock]:
        text, lines = self.text, self.lines
        first = self._front_matter()
        header = True  # before the first block: the document title may come
        in_header = False  # the lines after the document title, up to a blank line
        continued = False  # the last attribute entry goes on to this line
        for i in range(first, len(lines)):
            s, e = lines.starts[i], lines.ends[i]
            line = text[s:e]
            stripped = line.strip()
            if self.closing is not None:
                if stripped == self.closing:
                    self.closing = None
                continue
            if continued:
                continued = stripped.endswith(" \\")
                continue
            if self.to_blank:
                if stripped:
                    continue
                self.to_blank = False
            if self.table is not None:
                self._table_line(s, e, line, stripped)
                continue
            if not stripped:
                self.flush()
                in_header = self.definition = False
                continue
            if in_header:
                continue  # author, revision and attribute lines of the header
            if (line.startswith("//") and not line.startswith("////")) or _PREPROCESSOR.match(line):
                continue  # a comment line or a directive: the paragraph goes on after it
            if _ATTRIBUTE_ENTRY.match(line) and not self.para:
                continued = stripped.endswith(" \\")
                continue
            if self._two_line_title(line, stripped):
                self.flush()
                continue
            if self._delimiter(line, stripped):
                continue
            if _BLOCK_ATTRIBUTES.match(line):
                self.flush()
                style = _style(stripped)
                if style or not stripped.startswith("[["):
                    self.style = style
                self.columns = _column_styles(stripped)
                continue
            if stripped == "+":
                self.flush()  # a list continuation
                continue
            if self.para:
                if not (self.in_item and self._item(s, e, line)):
                    self.add(s, e)
                continue
            if self.definition:
                self.definition = False
                if not self._item(s, e, line):
                    self.add(s, e)
                    self.in_item = True
                continue
            if header:
                header = False
                if line.startswith("= ") and stripped != "=":
                    self.para = [(s + 2, e)]
                    self.flush()
                    in_header = True
                    continue
            self._start(s, e, line, stripped)
        self.flush()
        return self.blocks

    def _front_matter(self) -> int:
        """The index of the first line after front matter (``---`` … ``---`` at the top)."""
        text, lines = self.text, self.lines
        if text[lines.starts[0] : lines.ends[0]].rstrip() != "---":
            return 0
        for i in range(1, len(lines)):
            if text[lines.starts[i] : lines.ends[i]].rstrip() == "---":
                return i + 1
        return 0

    def _delimiter(self, line: str, stripped: str) -> bool:
        """Handle a block delimiter line (``----``, ``====``, ``|===``…); whether it was one."""
        if _VERBATIM_DELIMITER.match(line):
            self.flush()
            self.closing = stripped
            self.style = ""
            return True
        if line.startswith("```"):
            self.flush()
            self.closing = "```"
            self.style = ""
            return True
        if _CONTAINER_DELIMITER.match(line):
            self.flush()
            if self.style in VERBATIM_STYLES:
                self.closing = stripped
            self.style = ""
            return True
        table = _TABLE.match(line)
        if table is not None:
            self.flush()
            sep = table.group("sep")
            if sep in "|!" and self.style not in VERBATIM_STYLES:
                self.table = sep
                self.table_close = stripped
                self.column = self.row = self.held_until = 0
                self.held = [0] * len(self.columns)
                self.first_row = True
            else:
                self.closing = stripped  # CSV and DSV tables hold data, not prose
            self.style = ""
            return True
        return False

    def _two_line_title(self, line: str, stripped: str) -> bool:
        """Whether ``line`` underlines the open paragraph's only line (a two-line title)."""
        if len(self.para) != 1 or self.in_item or _TWO_LINE_UNDERLINE.match(line) is None:
            return False
        s, e = self.para[0]
        title = self.text[s:e].strip()
        return bool(title) and title[0].isalnum() and abs(len(title) - len(stripped)) <= 1

    def _item(self, s: int, e: int, line: str) -> bool:
        """Start a list item or a description list entry at ``line``; whether it is one."""
        m = _LIST.match(line)
        if m is not None:
            self.flush()
            self.add(s + m.end(), e)
            self.in_item = True
            return True
        m = _DESCRIPTION.search(line) if "::" in line or ";;" in line else None
        indent = len(line) - len(line.lstrip(" \t"))
        if m is not None and m.start() > indent and line[m.start() - 1] not in " \t":
            self.flush()
            self.para = [(s + indent, s + m.start())]
            self.flush()
            if m.end() < len(line):
                self.add(s + m.end(), e)
                self.in_item = True
            else:
                self.definition = True  # the description starts on the next line
            return True
        return False

    def _start(self, s: int, e: int, line: str, stripped: str) -> None:
        """A line that starts a block."""
        style, self.style = self.style, ""
        if _BLOCK_MACRO.match(line) or _BREAK.match(line):
            return
        if style in VERBATIM_STYLES:
            self.to_blank = True  # a paragraph styled as source, literal, math…
            return
        m = _SECTION.match(line)
        if m is not None:
            close = _SECTION_CLOSE.search(line, m.end())
            self.para = [(s + m.end(), s + close.start() if close is not None else e)]
            self.flush()
            return
        if _BLOCK_TITLE.match(line):
            self.para = [(s + 1, e)]
            self.flush()
            return
        if self._item(s, e, line):
            return
        if line[0] in " \t":
            self.to_blank = True  # a literal paragraph
            return
        m = _ADMONITION.match(line)
        self.add(s + (m.end() if m is not None else 0), e)

    def _table_line(self, s: int, e: int, line: str, stripped: str) -> None:
        """A line inside a table: its cells, each a block of its own."""
        if stripped == self.table_close:
            self.flush()
            self.table = None
            self.cell_skip = False
            self.columns = []
            return
        if line.startswith("//") and not line.startswith("////"):
            return
        if not stripped:
            self.flush()
            return
        if _VERBATIM_DELIMITER.match(line) or line.startswith("```"):
            self.flush()  # a listing inside an AsciiDoc cell
            self.closing = stripped if not line.startswith("```") else "```"
            return
        assert self.table is not None
        header = False
        if self.first_row:
            # a first line followed by a blank line is the header row: its cells take no
            # column style
            self.first_row = False
            following = self.lines.line_of(s) + 1
            lines = self.lines
            header = (
                following < len(lines)
                and not self.text[lines.starts[following] : lines.ends[following]].strip()
            )
        pos = s
        for m in _CELLS[self.table].finditer(self.text, s, e):
            self._cell_text(pos, m.start())
            self.flush()
            style = m.group("style")
            if self.columns:  # a cell's own style wins over its column's
                column = self._place_cell(m)
                if not header:
                    style = style or self.columns[column]
            self.cell_skip = style in ("l", "m")
            pos = m.end()
        self._cell_text(pos, e)

    def _place_cell(self, spec: re.Match[str]) -> int:
        """The column of the cell ``spec`` opens (``2+|`` spans two columns, ``.2+|`` two rows,
        ``2.3+|`` both, ``3*|`` is three cells), past the columns that cells of the rows above
        hold; the rows wrap at the table's width, as AsciiDoc fills them. (Wider tables than
        :data:`_TRACKED_COLUMNS` are counted without the rows cells hold.)"""
        width = len(self.columns)
        held = self.held  # the row up to which (not included) a cell holds each column
        op = spec.group("op")
        count = max(int(spec.group("span") or 1), 1) if op is not None else 1
        if width > _TRACKED_COLUMNS:
            column = self.column % width
            self.column += count if op is not None else 1
            return column
        while True:
            if self.column >= width:  # the row is full: the next one starts
                self.column = 0
                self.row += 1
            if self.row >= self.held_until:  # no cell above spans into this row
                if self.column < width:
                    break
                continue
            while self.column < width and held[self.column] > self.row:
                self.column += 1
            if self.column < width:
                break
            self.row = min(held) - 1  # every column held: on to the first row that frees one
            self.column = width
        column = self.column
        if op == "*":  # duplicated: that many cells, one column each
            self.column += count
            return column
        rows = int(spec.group("rows") or 1) if op is not None else 1
        if rows > 1:
            end = min(width, column + count)
            held[column:end] = [self.row + rows] * (end - column)
            self.held_until = max(self.held_until, self.row + rows)
        self.column += count
        return column

    def _cell_text(self, s: int, e: int) -> None:
        if self.cell_skip or s >= e or not self.text[s:e].strip():
            return
        m = _LIST.match(self.text, s, e) if not self.para else None
        if m is not None:
            s = m.end()
        self.add(s, e)


def asciidoc_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of an AsciiDoc document, in document order."""
    return _Scanner(text).run()


register_format("asciidoc", asciidoc_blocks, extensions=(".adoc", ".asciidoc"))
