"""Markdown leaf blocks, for the pass of :mod:`rephrase_ls.text.markup.markdown`.

The patterns of block starts (headings, fences, thematic breaks, list markers, HTML blocks, math
blocks, link reference definitions, table delimiter rows), the column arithmetic of indentation,
table cells, and :class:`LeafBlocks`: the state of the pass, the blocks it emits and how a line
opens, continues or closes a leaf block. The containers (block quotes, list items, footnote
definitions) are the pass's own.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import SPACE, Lines, build_block, trim
from rephrase_ls.text.markup.markdown_inline import inline_protected

_ATX = re.compile(r"#{1,6}(?=[ \t]|$)")
_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_FENCE = re.compile(r"(`{3,})(?!.*`)|(~{3,})")
FENCE_RUN = re.compile(r"`{3,}|~{3,}")
THEMATIC = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
SETEXT = re.compile(r"(=+|-+)[ \t]*$")
BULLET = re.compile(r"([-+*])(?=[ \t]|$)")
ORDERED = re.compile(r"([0-9]{1,9})[.)](?=[ \t]|$)")
FOOTNOTE_DEF = re.compile(r"\[\^[^\]\s]+\]:")
# The marker of a definition in a definition list (PHP Markdown Extra, Pandoc, Python-Markdown's
# def_list, markdown-it-deflist): `:` or `~`, white space, then the definition's first line.
DEFINITION = re.compile(r"[:~][ \t]+(?=[^ \t])")
_REF_DEF = re.compile(r"\[(?:[^\[\]\\]|\\.){1,999}\]:")
_TABLE_DELIM = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
# The line that closes a `$$` math block: it ends with `$$`, or with `$$ (label)`, as the
# dollar-math plugin of markdown-it-py reads it (the label form closes the opening line too).
_MATH_END = re.compile(r"\$\$[^\S\r\n]*(?:\([^)$\r\n]+\)[^\S\r\n]*)?(?=[\r\n]|\Z)")
_HTML_BLOCK_TAGS = (
    "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|"
    "dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|"
    "h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|"
    "option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul"
)
_HTML_START: tuple[tuple[re.Pattern[str], re.Pattern[str] | None], ...] = (
    (
        re.compile(r"<(?:script|pre|style|textarea)(?:[ \t>]|$)", re.I),
        re.compile(r"</(?:script|pre|style|textarea)>", re.I),
    ),
    (re.compile(r"<!--"), re.compile(r"-->")),
    (re.compile(r"<\?"), re.compile(r"\?>")),
    (re.compile(r"<![A-Za-z]"), re.compile(r">")),
    (re.compile(r"<!\[CDATA\["), re.compile(r"\]\]>")),
    (re.compile(r"</?(?:" + _HTML_BLOCK_TAGS + r")(?:[ \t]|/?>|$)", re.I), None),
)
_HTML_TYPE7 = re.compile(
    r"(?:<[A-Za-z][A-Za-z0-9-]*(?:[ \t]+[A-Za-z_:][\w.:-]*"
    r"""(?:[ \t]*=[ \t]*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*[ \t]*/?>"""
    r"|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*$"
)


QUOTE = ("q", 0)  # the container entry of a block quote

# leaf states
NONE, PARA, FENCED, HTML, MATH, CODE, TABLE = range(7)


def _heading_end(text: str, start: int, end: int) -> int:
    """Where the text of an ATX heading ``[start, end)`` ends: before its closing ``#``s."""
    if text.find("#", start, end) < 0:
        return end  # no closing sequence: the search below would try every position
    close = _ATX_CLOSE.search(text, start, end)
    return end if close is None else close.start()


def skip_indent(text: str, pos: int, end: int, col: int) -> tuple[int, int]:
    """Skip spaces and tabs from ``pos``; return (new position, new column)."""
    while pos < end:
        c = text[pos]
        if c == " ":
            col += 1
        elif c == "\t":
            col += 4 - col % 4
        else:
            break
        pos += 1
    return pos, col


def advance_cols(text: str, pos: int, end: int, col: int, target: int) -> tuple[int, int]:
    """Consume whitespace columns up to ``target`` (a partly consumed tab is consumed whole)."""
    while pos < end and col < target and text[pos] in SPACE:
        col = col + 1 if text[pos] == " " else col + 4 - col % 4
        pos += 1
    return pos, col


# A cell and the pipe after it (or the row's end; a lone backslash at the end ends a cell too).
# Written as an unrolled loop: a repeated alternation is many times slower in `re`.
_CELL = re.compile(r"([^|\\]*(?:\\.[^|\\]*)*)(?:\||\\$|$)")


def _row_start(text: str, start: int, end: int) -> tuple[int, int]:
    """A table row's ``[start, end)`` trimmed, past its leading pipe."""
    s, e = trim(text, start, end)
    if s < e and text[s] == "|":
        s += 1
    return s, e


def _table_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cell spans of a table row: split at unescaped pipes, outer pipes dropped."""
    s, e = _row_start(text, start, end)
    cells = [m.span(1) for m in _CELL.finditer(text, s, e)]
    if len(cells) > 1 and cells[-1][0] == cells[-1][1]:
        cells.pop()  # after the closing pipe
    return cells


class LeafBlocks:
    """The state of the pass over the lines, what it emits, and the leaf blocks: whether a line
    starts one, and what a line does to the open one."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = Lines(text)
        self.pending: list[list[tuple[int, int]]] = []  # trimmed segments of each block
        # open containers: ("q", 0) for a block quote, ("i", content column) for a list item
        # or footnote definition, ("d", content column) for a definition (of a definition list)
        self.containers: list[tuple[str, int]] = []
        self.leaf = NONE
        self.para: list[tuple[int, int]] = []  # (content start, line end) of each line
        self.fence_char = ""
        self.fence_len = 0
        self.html_end: re.Pattern[str] | None = None
        # the open math block ends on the line that holds this offset
        self.math_close = 0
        # the last searches for a closing line and a blank line: (searched from, found at or -1)
        # (none yet: the first search starts after `len(text)`, a position no line has)
        self.math_search = self.quote_search = (len(text) + 1, -1)
        # the line after an item opened empty starts here; a blank line there ends the items
        # from `empty_depth` on (an item may start with at most one blank line)
        self.empty_next = -1
        self.empty_depth = 0
        # the end of the last line of the last paragraph or one-line HTML block closed, how
        # many containers it was in, and whether it is a paragraph of one line: what a
        # definition marker on the next line, or after one blank line, follows (see _defines)
        self.term_end = -1
        self.term_depth = -1
        self.term_single = False
        # the open paragraph when it started with a definition marker read as text (MARKED)
        self.marked: list[tuple[int, int]] | None = None
        # the start of the line being read, and of the last line that closed a definition
        self.line_start = -1
        self.definition_closed = -2
        # where the content of the first line of the definition just opened starts
        self.definition_start = -1

    # -- emitting --------------------------------------------------------------------------

    def _emit(self, start: int, end: int) -> None:
        """A one-line block (a heading), trimmed; nothing if it is empty."""
        s, e = trim(self.text, start, end)
        if s < e:
            self.pending.append([(s, e)])

    def _finish(self) -> list[ProseBlock]:
        """Protect the inline markup of every pending block and build the blocks.

        The span of each block (line breaks and `>` leaders included, so that code spans and
        links may cross lines) is scanned; what is found is clipped to the segments. The spans
        of all blocks are joined with NULs, which no pattern crosses, and scanned in one pass
        (one call per block would cost more than the scan itself in a document of short blocks).
        """
        text, pending = self.text, self.pending
        pieces = [text[segs[0][0] : segs[-1][1]] for segs in pending]
        joined = "\x00".join(pieces)
        spans = inline_protected(joined)  # sorted by start, each inside one piece
        blocks = []
        k = 0
        offset = 0  # where the piece of the block starts in `joined`
        for segs, piece in zip(pending, pieces, strict=True):
            end = offset + len(piece)
            first = k
            k = bisect_left(spans, (end, -1), k)  # the spans that start before `end`
            block = build_block(text, segs, spans[first:k], segs[0][0] - offset)
            if block is not None:
                blocks.append(block)
            offset = end + 1
        return blocks

    def _close_para(self) -> None:
        if self.leaf == PARA:
            self._emit_para(self.para)
            if self.para:
                self.term_end, self.term_depth = self.para[-1][1], len(self.containers)
                self.term_single = len(self.para) == 1
        self.leaf = NONE

    # the same: `para` is read only in a paragraph (which starts with a new list)
    _close_leaf = _close_para

    def _emit_para(self, segs: list[tuple[int, int]]) -> None:
        """The paragraph's lines become a pending block (the list is the block's from now on).

        Each line's content starts at a non-blank character (the pass skipped the indentation)
        and ends at the line's end: only trailing white space needs trimming."""
        if not segs:
            return
        text = self.text
        for k, (s, e) in enumerate(segs):
            if text[e - 1] in SPACE:
                segs[k] = trim(text, s, e)
        self.pending.append(segs)

    def _emit_row(self, start: int, end: int) -> None:
        """Each non-empty cell of a table row is a block (the cells of `_table_cells`, trimmed)."""
        text = self.text
        for s, e in _table_cells(text, start, end):
            s, e = trim(text, s, e)
            if s < e:
                self.pending.append([(s, e)])

    def _html_block(self, p: int, e: int) -> bool:
        """Whether an HTML block starts at ``p``: it is opened (or closed on the same line)."""
        text = self.text
        for start, end in _HTML_START:
            if start.match(text, p, e):
                if p == self.definition_start and end is not None:
                    # a definition's first line: an HTML comment (or tag…) closed with text
                    # after it is paragraph text, as Python-Markdown reads it (mkdocs writes
                    # `:   <!-- md:default none --> The option…`)
                    m = end.search(text, p, e)
                    if m is not None and text[m.end() : e].strip(SPACE):
                        return False
                self._close_leaf()
                if end is None or not end.search(text, p, e):
                    self.leaf = HTML
                    self.html_end = end
                self.term_end, self.term_depth = e, len(self.containers)
                # (right after a definition, a term: markdown-it-deflist goes on with the list)
                self.term_single = self.definition_closed == self.line_start
                return True
        if self.leaf != PARA and _HTML_TYPE7.match(text, p, e):
            self._close_leaf()
            self.leaf = HTML
            self.html_end = None
            self.term_end, self.term_depth = e, len(self.containers)
            self.term_single = self.definition_closed == self.line_start
            return True
        return False

    def _math(self, p: int, e: int) -> bool:
        """Whether the line whose text starts with ``$$`` at ``p`` opens a math block (then
        opened, or closed on the same line), as markdown-it-py's dollar-math plugin reads it.

        The block runs to the next line that ends with ``$$`` (or ``$$ (label)``), over blank
        lines and lines of any indentation; without such a line (in a block quote: before the
        quote ends, see `_quote_end`) it is no block and the line is paragraph text.
        A first line with more after its ``$$`` is math on one line if it ends with ``$$``; a
        ``$$`` elsewhere in it makes it paragraph text.
        """
        text = self.text
        rest = text[p + 2 : e].rstrip()
        if len(rest) > 1:
            if rest.endswith("$$") or _MATH_END.search(text, p, e) is not None:
                self._close_leaf()
                return True
            if "$$" in rest:
                return False
        start, found = self.math_search
        if not start <= e or not (found < 0 or e < found):
            m = _MATH_END.search(text, e)
            found = -1 if m is None else m.start()
            self.math_search = (e, found)
        if found < 0:
            return False
        if QUOTE in self.containers:
            start, limit = self.quote_search
            if not start <= e < limit:
                limit = self._quote_end(e)
                self.quote_search = (e, limit)
            if limit <= found:
                return False
        self._close_leaf()
        self.leaf = MATH
        self.math_close = found
        return True

    def _quote_end(self, e: int) -> int:
        """Where the block quote holding the line that ends at ``e`` ends, as markdown-it-py
        finds it before reading what is inside: at a blank line, at a line without `>` after
        one that is blank inside the quote, or at a line without `>` that starts a block (else
        it is a lazy continuation line). Approximated: nested quotes are not told apart, and
        the indentation of a line is counted from its start.
        """
        text, starts, ends = self.text, self.lines.starts, self.lines.ends
        empty = False
        for i in range(self.lines.line_of(e) + 1, len(starts)):
            s, e = starts[i], ends[i]
            p, c = skip_indent(text, s, e, 0)
            if p == e:
                return s
            if text[p] == ">":
                p = skip_indent(text, p + 1, e, c + 1)[0]
                empty = p == e
            elif empty or self._starts_block(p, e, c, lazy=True):
                return s
        return len(text) + 1

    def _is_ref_def(self, p: int, e: int) -> bool:
        """Whether the line at ``p`` is a link reference definition (one line, not prose)."""
        m = _REF_DEF.match(self.text, p, e)
        return m is not None and bool(self.text[m.end() : e].strip())

    def _starts_block(self, p: int, e: int, ind: int, *, lazy: bool = False) -> bool:
        """Whether the content at ``p`` starts a block that interrupts a paragraph.

        On a ``lazy`` line (not every open container matched) any list item starts a block;
        otherwise only a non-empty bullet item or an item numbered 1 may interrupt.
        """
        if ind >= 4:
            return False
        text = self.text
        ch = text[p]
        if ch == ">":
            return True
        if ch in "#" and _ATX.match(text, p, e):
            return True
        if ch in "`~" and _FENCE.match(text, p, e):
            return True
        if ch in "*-_" and THEMATIC.match(text, p, e):
            return True
        if ch == "<" and any(start.match(text, p, e) for start, _ in _HTML_START):
            return True
        if ch in "-+*":
            m = BULLET.match(text, p, e)
        elif "0" <= ch <= "9":
            m = ORDERED.match(text, p, e)
        else:
            return False
        if m is None:
            return False
        if lazy:
            return True
        return bool(text[m.end() : e].strip()) and (m.re is BULLET or m.group(1) == "1")

    def _leaf(self, p: int, e: int, ind: int) -> None:
        text = self.text
        if ind >= 4:
            if self.leaf == PARA:
                self.para.append((p, e))
            else:
                self._close_leaf()
                self.leaf = CODE
            return
        ch = text[p]
        if self.leaf == PARA and ch in "=-" and SETEXT.match(text, p, e):
            self._close_para()  # a setext heading: its text is prose, the underline is not
            return
        if ch == "#" and _ATX.match(text, p, e):
            self._close_leaf()
            m = _ATX.match(text, p, e)
            assert m is not None
            self._emit(m.end(), _heading_end(text, m.end(), e))
            return
        if ch in "`~":
            m = _FENCE.match(text, p, e)
            if m is not None:
                self._close_leaf()
                self.leaf = FENCED
                self.fence_char = ch
                self.fence_len = len(m.group(1) or m.group(2))
                return
        if ch in "*-_" and THEMATIC.match(text, p, e):
            self._close_leaf()
            return
        if ch == "$" and self.leaf != PARA and text.startswith("$$", p) and self._math(p, e):
            return  # a math block (it cannot interrupt a paragraph: there it is inline math)
        if ch == "<" and self._html_block(p, e):
            return
        if (
            self.leaf != PARA
            and ch == "["
            and not text.startswith("[^", p)
            and self._is_ref_def(p, e)
        ):
            self._close_leaf()
            return
        if self.leaf == PARA:
            if "-" in text[p:e] and _TABLE_DELIM.match(text, p, e):
                hs, he = self.para[-1]
                header = _table_cells(text, hs, he)
                delim = _table_cells(text, p, e)
                if len(header) == len(delim) and "|" in text[hs:he]:
                    self.para.pop()
                    self._close_para()
                    self._emit_row(hs, he)
                    self.leaf = TABLE
                    return
            self.para.append((p, e))
            return
        self._close_leaf()
        self.leaf = PARA
        self.para = [(p, e)]
