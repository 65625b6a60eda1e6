"""Prose in Markdown (CommonMark plus GFM tables, front matter, footnotes and dollar math).

The block structure is found by a single linear pass over the lines that follows the CommonMark
container algorithm (block quotes, list items, footnote definitions, lazy continuation lines) and
recognises the leaf blocks that are *not* prose: fenced and indented code, HTML blocks, front
matter, ``$$`` math blocks, link reference definitions, thematic breaks, table delimiter rows.
Paragraphs, headings (ATX and setext) and table cells become :class:`ProseBlock`s.

markdown-it-py is the reference: the test suite checks that the lines found here as prose are the
lines markdown-it-py (with the same plugins) maps to inline content. It is not used at run time:
its block parser is too slow for the code-action budget on large documents (see docs/markup.md;
``bench/bench_markup.py --reference`` times it).

This module holds the pass and its containers; the leaf blocks are in
:mod:`~rephrase_ls.text.markup.markdown_leaves`, front matter in
:mod:`~rephrase_ls.text.markup.markdown_front_matter`. Inside prose,
:func:`~rephrase_ls.text.markup.markdown_inline.inline_protected` protects code spans, escapes,
autolinks, inline HTML, images, footnote references, link brackets and destinations, ``$…$``
math, bare URLs, entities and emphasis markers.
"""

from __future__ import annotations

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import SPACE, require_text
from rephrase_ls.text.markup.markdown_front_matter import front_matter_lines
from rephrase_ls.text.markup.markdown_leaves import (
    BULLET,
    CODE,
    DEFINITION,
    FENCE_RUN,
    FENCED,
    FOOTNOTE_DEF,
    HTML,
    MATH,
    NONE,
    ORDERED,
    PARA,
    QUOTE,
    SETEXT,
    TABLE,
    THEMATIC,
    LeafBlocks,
    advance_cols,
    skip_indent,
)
from rephrase_ls.text.markup.registry import register_format

__all__ = ["markdown_blocks"]

# what a definition marker follows (`_Scanner._defines`): a term, or one that only some
# Markdown processors read as one (NONE: nothing it defines)
DEFINES, MARKED = 1, 2


class _Scanner(LeafBlocks):
    """One pass over the lines: the containers each line continues, closes or opens, then what
    the rest of the line does to the leaf blocks; see the module docstring."""

    # -- the pass ---------------------------------------------------------------------------

    def run(self) -> list[ProseBlock]:
        lines = self.lines
        first = front_matter_lines(self.text, lines)
        containers = self.containers  # changed in place only
        for s, e in zip(lines.starts[first:], lines.ends[first:], strict=True):
            if s == e and self.leaf == NONE and not containers:
                continue  # an empty line between top-level blocks changes nothing
            self._line(s, e)
        self._close_leaf()
        return self._finish()

    def _line(self, s: int, e: int) -> None:
        if self.leaf == MATH:
            # as in markdown-it-py, the lines of a math block belong to it whatever their
            # indentation or container markers, up to its closing line
            if e >= self.math_close:
                self.leaf = NONE
            return
        text = self.text
        containers = self.containers
        self.line_start = s
        pos, col = s, 0
        matched = 0
        for kind, indent in containers:
            if kind == "q":
                # (as in markdown-it-py, an open quote goes on at any indentation: a quote
                # only opens at most 3 columns in)
                p, c = skip_indent(text, pos, e, col)
                if p >= e or text[p] != ">":
                    break
                pos, col = p + 1, c + 1
                if pos < e and text[pos] in SPACE:
                    pos, col = advance_cols(text, pos, e, col, col + 1)
            else:
                p, c = skip_indent(text, pos, e, col)
                if p >= e:  # blank line: list items continue
                    pos, col = p, c
                elif c >= indent:
                    pos, col = advance_cols(text, pos, e, col, indent)
                else:
                    break
            matched += 1
        fp, fc = skip_indent(text, pos, e, col)
        blank = fp >= e
        if blank and s == self.empty_next and matched > self.empty_depth:
            matched = self.empty_depth  # the line after an empty item's marker: it ends
        all_matched = matched == len(containers)

        leaf = self.leaf
        if all_matched:
            if leaf == FENCED:
                if fc - col <= 3:
                    m = FENCE_RUN.match(text[fp:e])
                    if (
                        m
                        and m.group()[0] == self.fence_char
                        and len(m.group()) >= self.fence_len
                        and not text[fp + m.end() : e].strip()
                    ):
                        self.leaf = NONE
                return
            if leaf == HTML:
                if self.html_end is None:
                    if blank:
                        self.leaf = NONE
                        return
                elif self.html_end.search(text, pos, e):
                    self.leaf = NONE
                self.term_end = -1  # (only an HTML block of one line is a term: see _defines)
                return
            if leaf == CODE:
                if blank or fc - col >= 4:
                    return
                self.leaf = NONE
            if leaf == TABLE:
                # a row; blank lines, lines indented by 4 and other blocks end the table
                # (any list item ends a table, as in markdown-it-py: not only "1." ones)
                if not blank and fc - col < 4 and not self._starts_block(fp, e, 0, lazy=True):
                    self._emit_row(fp, e)
                    return
                self.leaf = NONE
        elif leaf == PARA and not blank:
            # A lazy continuation line, unless it starts a block. As markdown-it-py reads it,
            # the indentation that decides is counted from the content of the item the
            # paragraph is in (directly, or in a quote in it): a line less indented than that is
            # never indented code there, whatever it is at the level it falls back to. A list
            # marker is text too if it is indented by 4 or more from where that item's list is
            # (its special case for a staircase of items).
            n = len(containers)
            k = n - 1 if containers[-1][0] != "q" else n - 2
            if k < 0:
                ind = fc
            elif containers[k][0] == "q":  # a quote in a quote: from the outer one's content
                ind = fc - col
            else:
                base = containers[k][1]
                ind = fc - base
                # where the list of the innermost item is (for a definition: of the item it
                # is in; outside any item, the case does not apply)
                j = k
                while j >= 0 and containers[j][0] != "i":
                    j -= 1
                if j <= 0:
                    outer = 0
                elif containers[j - 1][0] != "q":
                    outer = containers[j - 1][1]
                else:
                    outer = col if matched == j else fc
                if (
                    ind < 0
                    and j >= 0
                    and fc - outer >= 4
                    and (
                        BULLET.match(text, fp, e) is not None
                        or ORDERED.match(text, fp, e) is not None
                    )
                    and THEMATIC.match(text, fp, e) is None
                ):
                    ind = 4  # not a block (a thematic break still is)
            if not self._starts_block(fp, e, ind, lazy=True) and not (
                ind < 4 and text[fp] in ":~" and self._ends_definition(fp, e, matched)
            ):
                if (
                    text[fp] in "=-"
                    and SETEXT.match(text, fp, e)
                    and any(kind == "d" for kind, _ in containers[matched:])
                ):
                    # a setext underline under a definition: markup, not prose (markdown-it-py
                    # reads the term and its definitions above it as a heading)
                    self._close_leaf()
                    return
                self.para.append((fp, e))
                return

        # a definition closed on this line: a definition at its level is the list's next one
        after_definition = False
        if not all_matched:
            self._close_leaf()
            after_definition = containers[matched][0] == "d"
            if after_definition:
                self.definition_closed = s
            del containers[matched:]

        if (
            after_definition
            and not blank
            and not (text[fp] in ":~" and DEFINITION.match(text, fp, e))
            and self._term_above_marker(s)
        ):
            # the list goes on: whatever the line holds, it is the next term (markdown-it-deflist)
            self.leaf = PARA
            self.para = [(fp, e)]
            return

        # open new containers (`fp`, `fc`: where the content after `pos` starts, and its column)
        opened = False
        while True:
            p, c = fp, fc
            if p >= e:
                break
            # (as markdown-it-deflist reads it, a definition marker under a term of one line
            # may be indented by any amount)
            if c - col >= 4 and not (
                text[p] in ":~"
                and not opened
                and DEFINITION.match(text, p, e) is not None
                and self._defines(s) == DEFINES
            ):
                break
            ch = text[p]
            if ch == ">":
                self._close_leaf()
                containers.append(QUOTE)
                opened = True
                pos, col = p + 1, c + 1
                if pos < e and text[pos] in SPACE:
                    pos, col = advance_cols(text, pos, e, col, col + 1)
                fp, fc = skip_indent(text, pos, e, col)
                continue
            if (
                ch in "*-_"
                and THEMATIC.match(text, p, e)
                and not (self.leaf == PARA and not opened and SETEXT.match(text, p, e))
            ):
                break
            if ch in "-+*":
                m = BULLET.match(text, p, e)
            elif "0" <= ch <= "9":
                m = ORDERED.match(text, p, e)
            else:
                m = None
            if m is not None:
                after, acol = m.end(), c + m.end() - p
                q, qc = skip_indent(text, after, e, acol)
                empty = q >= e
                if (
                    self.leaf == PARA
                    and not opened
                    and (empty or (m.re is ORDERED and m.group(1) != "1"))
                ):
                    break
                if empty:
                    content_col, pos, col = acol + 1, q, qc
                    # an item may start with at most one blank line: one on the next line
                    # ends it (and the items opened in it)
                    self.empty_next = e + 2 if text.startswith("\r\n", e) else e + 1
                    self.empty_depth = len(containers)
                elif qc - acol >= 5:
                    content_col = acol + 1
                    pos, col = advance_cols(text, after, e, acol, acol + 1)
                else:
                    content_col, pos, col = qc, q, qc
                self._close_leaf()
                containers.append(("i", content_col))
                opened = True
                fp, fc = skip_indent(text, pos, e, col)
                continue
            if ch == "[":  # a footnote definition (it may interrupt a paragraph)
                m = FOOTNOTE_DEF.match(text, p, e)
                if m is not None:
                    self._close_leaf()
                    containers.append(("i", c + 4))
                    opened = True
                    pos, col = fp, fc = skip_indent(text, m.end(), e, c + m.end() - p)
                    continue
            if ch in ":~" and not opened:
                m = DEFINITION.match(text, p, e)
                defines = NONE if m is None else DEFINES if after_definition else self._defines(s)
                if defines == DEFINES:
                    # a definition: its marker stays outside the prose; as in
                    # markdown-it-deflist, its content goes on at two columns past the marker
                    if self.leaf == PARA:
                        self._close_terms()
                    else:
                        self._close_leaf()
                    containers.append(("d", c + 2))
                    opened = True
                    pos, col = advance_cols(text, p + 1, e, c + 1, c + 2)
                    fp, fc = skip_indent(text, pos, e, col)
                    self.definition_start = fp
                    continue
                if defines == MARKED and m is not None:
                    # a definition as PHP Markdown Extra and Python-Markdown read it, a
                    # paragraph as markdown-it-py does: read as the paragraph, its marker
                    # outside the prose
                    if self.leaf == PARA and self.para is self.marked:
                        self.para.append((m.end(), e))
                        return
                    if self.leaf == PARA:
                        self._close_terms()
                    else:
                        self._close_leaf()
                    self.leaf = PARA
                    self.para = self.marked = [(m.end(), e)]
                    return
            break

        if fp >= e:
            self._close_leaf()
            return
        if opened:
            self._close_leaf()
        self._leaf(fp, e, fc - col)

    # -- definition lists ----------------------------------------------------------------------

    def _defines(self, s: int) -> int:
        """What the definition marker on the line that starts at ``s`` follows (after the
        containers it is in): :data:`DEFINES` a term, a paragraph of one line right above it
        (open) or one blank line above it, as markdown-it-deflist reads one; :data:`MARKED` a
        term as PHP Markdown Extra and Python-Markdown read one and markdown-it-py does not,
        a paragraph of several lines (each line a term) or an HTML block of one line (mkdocs
        writes its terms as HTML comments) right above or one blank line above; else
        :data:`NONE`."""
        if self.leaf == PARA:
            return DEFINES if len(self.para) == 1 and self.para is not self.marked else MARKED
        if self.term_depth != len(self.containers) or self.term_end < 0:
            return NONE
        lines = self.lines
        last = lines.line_of(self.term_end)
        gap = lines.line_of(s) - last
        if gap == 1:  # (only an HTML block ends on the line above a line it does not hold)
            return MARKED
        between = last + 1
        if gap != 2 or self.text[lines.starts[between] : lines.ends[between]].strip(" \t>"):
            return NONE
        return DEFINES if self.term_single else MARKED

    def _term_above_marker(self, s: int) -> bool:
        """Whether the line after the one that starts at ``s`` (or the one after that, past a
        blank line) starts with a definition marker (its container marks and indentation
        skipped)."""
        lines, text = self.lines, self.text
        i = lines.line_of(s) + 1
        for j in (i, i + 1):
            if j >= len(lines):
                return False
            line = text[lines.starts[j] : lines.ends[j]].lstrip(" \t>")
            if line:
                return line[0] in ":~" and DEFINITION.match(line) is not None
            if j == i + 1:
                return False
        return False

    def _close_terms(self) -> None:
        """Close the open paragraph as the terms of a definition: each line a term (as PHP
        Markdown Extra and Python-Markdown read them), a block of its own."""
        for seg in self.para:
            self._emit_para([seg])
        self.term_end, self.term_depth = self.para[-1][1], len(self.containers)
        self.term_single = len(self.para) == 1
        self.leaf = NONE

    def _ends_definition(self, p: int, e: int, matched: int) -> bool:
        """Whether the line whose content starts at ``p`` is the marker of a definition that
        follows one of the definitions it closes (those after the first ``matched``
        containers): the next definition of a list, as markdown-it-deflist reads it."""
        return (
            self.text[p] in ":~"
            and DEFINITION.match(self.text, p, e) is not None
            and any(kind == "d" for kind, _ in self.containers[matched:])
        )


def markdown_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of a Markdown document, in document order."""
    require_text(text)
    return _Scanner(text).run()


register_format(
    "markdown",
    markdown_blocks,
    extensions=(".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".rmd", ".qmd"),
)
