"""Prose in Org (Emacs Org mode's syntax), found by one pass over the lines.

Prose: paragraphs, headline titles, list items (``-``, ``+``, indented ``*``, ``1.``, ``1)``,
``a.``) with their continuation lines, the terms and descriptions of description items
(``- term :: description``), footnote definitions, table cells, and the contents of quote,
verse, center and special blocks (``#+BEGIN_QUOTE``, ``#+begin_note``…). Each list item, term,
description and cell is a block of its own, its marker outside the segment.

Not prose: keyword lines (``#+TITLE:``, ``#+OPTIONS:``, ``#+TBLFM:``…, front matter and metadata
alike), comments (``#`` lines and ``#+BEGIN_COMMENT`` blocks), drawers (``:PROPERTIES:`` …
``:END:``, ``:LOGBOOK:``…), planning lines (``SCHEDULED:``, ``DEADLINE:``, ``CLOSED:``), clock
lines, source, example and export blocks (``#+BEGIN_SRC`` … ``#+END_SRC``), dynamic blocks
(``#+BEGIN: name`` … ``#+END:``), fixed-width lines (``: text``), LaTeX environments
(``\\begin{…}`` … ``\\end{…}`` at a line start), table rules and table.el tables, horizontal
rules, and subtrees whose headline says ``COMMENT``.

Inside prose, verbatim and code (``=…=``, ``~…~``), links with their targets (the description
of ``[[target][description]]`` is prose when it is plain words), bare and angle links, inline
source blocks and calls (``src_python{…}``, ``call_f()``), macros (``{{{name(…)}}}``), targets
(``<<id>>``), footnote references, LaTeX fragments and entities (``$…$``, ``\\(…\\)``,
``\\alpha``), export snippets (``@@html:…@@``), timestamps, statistics cookies (``[2/3]``),
checkboxes, TODO keywords, priorities and tags of headlines, the emphasis marks (``*``, ``/``,
``_``, ``+``) and a line break's ``\\\\`` are protected.

A block (``#+BEGIN_…``, ``#+BEGIN:``) or LaTeX environment whose end line does not follow before
the next headline is none, as Org reads it: its first line is an ordinary line (its
``#+BEGIN_…`` word protected) and the lines after it are read as they are. The end lines are
found in the first pass over the lines, so this costs a look-up per begin line.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import Lines, build_block, make_block, trim
from rephrase_ls.text.markup.registry import register_format

__all__ = ["PROSE_BLOCKS", "org_blocks", "org_protected"]

#: ``#+BEGIN_…`` blocks that are not prose (other names, as QUOTE, VERSE, CENTER and special
#: blocks such as NOTE, hold prose)
VERBATIM_BLOCKS = frozenset(("src", "example", "export", "comment", "latex", "html", "ascii"))
#: the blocks whose content is prose, for the documentation (any other name but those of
#: :data:`VERBATIM_BLOCKS` too)
PROSE_BLOCKS = frozenset(("quote", "verse", "center"))

_HEADLINE = re.compile(r"(?P<stars>\*+)[ \t]+")
_TAGS = re.compile(r":(?:[\w@#%]+:)+")
_PRIORITY = re.compile(r"\[#[A-Za-z0-9]\][ \t]*")
_KEYWORD = re.compile(r"[ \t]*#\+[^\s:]*:(?:[ \t]|$)")
_TODO_KEYWORDS = re.compile(
    r"^[ \t]*#\+(?:SEQ_|TYP_)?TODO:(?P<words>[^\n]*)", re.IGNORECASE | re.MULTILINE
)
_COMMENT = re.compile(r"[ \t]*#(?:[ \t]|$)")
_BEGIN = re.compile(r"[ \t]*#\+BEGIN(?:_(?P<name>\S+)|:)", re.IGNORECASE)
# the end line of a block: `#+END_name`, `#+END:` or `#+END` (a dynamic block's)
_END = re.compile(r"[ \t]*#\+END(?:_(?P<name>\S+)|:?)[ \t]*$", re.IGNORECASE)
_LATEX_END = re.compile(r"\\end\{(?P<env>[A-Za-z0-9*]+)\}")
_DRAWER = re.compile(r"[ \t]*:[\w-]+:[ \t]*$")
_DRAWER_END = re.compile(r"[ \t]*:END:[ \t]*$", re.IGNORECASE)
_PLANNING = re.compile(r"[ \t]*(?:SCHEDULED|DEADLINE|CLOSED|CLOCK):")
_FIXED_WIDTH = re.compile(r"[ \t]*:(?:[ \t]|$)")
_LATEX_ENV = re.compile(r"[ \t]*\\begin\{(?P<env>[A-Za-z0-9*]+)\}")
_RULE = re.compile(r"[ \t]*-{5,}[ \t]*$")
_TABLE_RULE = re.compile(r"[ \t]*\|-[-+|: \t]*$")
_TABLE_EL = re.compile(r"[ \t]*\+-[-+]*\+?[ \t]*$")
_ITEM = re.compile(
    r"(?P<indent>[ \t]*)(?:[-+]|(?<=[ \t])\*|[0-9]+[.)])(?:[ \t]+|$)"
    r"(?:\[@(?:[0-9]+|[A-Za-z])\][ \t]*)?(?:\[[ xX-]\](?:[ \t]+|$))?"
)
_FOOTNOTE_DEF = re.compile(r"\[fn:[\w-]+\][ \t]*")
_CELL = re.compile(r"\|")
_LINE_BREAK = re.compile(r"(?<![ \t])[ \t]*\\\\[ \t]*$")

_PRE = r"(?<![^\s\-({'\"])"  # what may come before an emphasis mark: space, line start, -({'"
_POST = r"(?=[\s\-.,;:!?')}\[\"\\]|$)"  # what may come after its closing mark
_INLINE = re.compile(
    "|".join(
        (
            # a link: target, then the description of a described link
            r"\[\[(?:[^\[\]\n]|\\[\[\]])+\](?:\[(?P<desc>[^\[\]\n]*)\])?\]",
            r"<(?:https?|ftp|mailto|file|doi|news|shell|elisp|id|info|help|irc|attachment)"
            r":[^<>\n]*>",  # an angle link
            r"(?<![\w/.:-])(?:https?|ftp)://[^\s\[\]<>]*[^\s\[\]<>.,;:!?'\")]",  # plain link
            r"(?<![\w/.:-])(?:mailto|doi|file):[^\s\[\]<>]+",
            r"\bsrc_[\w+-]+(?:\[[^\[\]\n]*\])?\{[^{}\n]*\}",  # inline source block
            r"\bcall_[\w.-]+(?:\[[^\[\]\n]*\])?\([^()\n]*\)(?:\[[^\[\]\n]*\])?",  # inline call
            r"\{\{\{[^{}\n]*\}\}\}",  # macro
            r"<<<?[^<>\n]+>>>?",  # target, radio target
            r"\[fn:[^\[\]\n]*\]",  # footnote reference, inline footnote
            r"@@[\w-]+:(?:[^@\n]|@(?!@))*@@",  # export snippet
            r"[<\[][0-9]{4}-[0-9]{2}-[0-9]{2}[^<>\[\]\n]*[>\]]",  # timestamp
            r"\[(?:[0-9]*%|[0-9]*/[0-9]*)\]",  # statistics cookie
            r"\$\$[^$\n]+\$\$",  # display math written inline
            r"(?<![\w$])\$(?=[^\s$])[^$\n]*(?<=[^\s$,.;])\$(?![\w$])",  # inline math
            r"\\\((?:[^\\\n]|\\[^()\n])*\\\)|\\\[(?:[^\\\n]|\\[^\[\]\n])*\\\]",  # math
            r"\\[A-Za-z]+(?:\{\})?(?:\[[^\[\]\n]*\])?(?:\{[^{}\n]*\})*",  # LaTeX and entities
            r"\\\\",  # line break
            # the first word of a block's begin line that no end line closes (an ordinary line)
            r"#(?<!\S#)\+(?i:begin)(?:_\S+|:)",
            # a file path (~/.emacs.d/init.el, $DOOMDIR/config.el, {a,b}/c.el, and/or)
            r"(?<!\S)(?:~|\.{1,2}|\$\w+|\{[^{}\s]*\}|[\w.-]+)/[^\s]*",
            r"(?<![\w@.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+",  # e-mail address
            # emphasis marks: an opening one after a space or line start, a closing one before
            # a space, punctuation or the line end
            _PRE + r"[*/_+](?=[^\s*/_+])",
            r"(?<=[^\s*/_+])[*/_+]" + _POST,
        )
    )
)


# verbatim (=…=) and code (~…~): an opening mark after a space, a line start or -({'" and before
# a non-space; a closing one after a non-space and before a space, punctuation or the line end
_OPEN = {mark: re.compile(_PRE + mark + r"(?=\S)") for mark in "=~"}
_CLOSE = {mark: re.compile(r"(?<=\S)" + mark + _POST) for mark in "=~"}


def _verbatim(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The verbatim and code spans of ``text[start:end]``: each opening mark closed by the first
    closing mark after it, with at most one line break between (as Org reads them). The closing
    marks are found once and looked up, so that many opening marks cost linear time."""
    spans: list[tuple[int, int]] = []
    breaks: list[int] | None = None
    for mark in "=~":
        if text.find(mark, start, end) < 0:
            continue
        closes = [m.start() for m in _CLOSE[mark].finditer(text, start, end)]
        if not closes:
            continue
        if breaks is None:
            breaks = [m.start() for m in re.finditer(r"\n", text[start:end])]
        done = start
        for opening in _OPEN[mark].finditer(text, start, end):
            at = opening.start()
            if at < done:
                continue  # inside the span just found
            k = bisect_right(closes, at + 1)
            if k == len(closes):
                break
            close = closes[k]
            if bisect_right(breaks, close - start) - bisect_right(breaks, at - start) > 1:
                continue
            spans.append((at, close + 1))
            done = close + 1
    return spans


#: a word of three letters or more, as prose writes them (not ``SPC``, ``C-x``, ``@name``)
_PROSE_WORD = re.compile(r"(?<![^\s(\[\"'])[A-Za-z][a-z]{2,}(?![\w@/-])")


def _is_prose_description(text: str, link: int, start: int, end: int) -> bool:
    """Whether a link's description is prose: it has a word, and the link is not a key
    binding (``[[kbd:][SPC f f]]``, ``[[kbd:][C-c C-e]]``: names of keys)."""
    return not text.startswith("[[kbd:", link) and _PROSE_WORD.search(text, start, end) is not None


def org_protected(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Spans of ``text[start:end]`` (Org inline content) to keep unchanged, sorted."""
    spans = _verbatim(text, start, end)
    for m in _INLINE.finditer(text, start, end):
        s, e = m.span()
        if m.group("desc") and _is_prose_description(text, s, *m.span("desc")):
            ds, de = m.span("desc")
            spans.append((s, ds))
            spans.extend(org_protected(text, ds, de))
            spans.append((de, e))
        else:
            spans.append((s, e))
    spans.sort()
    return spans


def _item_tag(line: str, pos: int) -> int | None:
    """Where the `` ::`` that ends the term of a description item starts, or None."""
    at = pos
    while True:
        at = line.find("::", at)
        if at < 0:
            return None
        if at > pos and line[at - 1] in " \t" and (at + 2 == len(line) or line[at + 2] in " \t"):
            return at - 1
        at += 1


class _Scanner:
    """The pass over the lines; see the module docstring."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = Lines(text)
        self.blocks: list[ProseBlock] = []
        self.para: list[tuple[int, int]] = []
        self.item_indent = -1  # indentation of the open list item's marker (-1: none open)
        self.closing: re.Pattern[str] | None = None  # the line that ends what is being skipped
        self.comment_level = 0  # skipping a COMMENT subtree: the level of its headline
        self.todo = {"TODO", "DONE"}
        self.skip_to = -1  # skipping a drawer: the index of its :END: line
        self.headlines: list[int] = []  # indices of the headline lines
        self.drawer_ends: list[int] = []  # indices of the :END: lines
        # indices of the lines that end blocks, by the block's name (lower case; ":" for a
        # dynamic block's), and of the lines holding a LaTeX environment's \end{…}, by its name
        self.block_ends: dict[str, list[int]] = {}
        self.env_ends: dict[str, list[int]] = {}

    def flush(self) -> None:
        if self.para:
            # the whole span: code and verbatim may go on to the next line
            protected = org_protected(self.text, self.para[0][0], self.para[-1][1])
            block = make_block(self.text, self.para, protected)
            if block is not None:
                self.blocks.append(block)
        self.para = []
        self.item_indent = -1

    def add(self, s: int, e: int) -> None:
        """Add a line's prose ``[s, e)`` to the open block (a line break's ``\\\\`` left out)."""
        m = _LINE_BREAK.search(self.text, s, e)
        self.para.append((s, m.start() if m is not None else e))

    def run(self) -> list[ProseBlock]:
        text, lines = self.text, self.lines
        for m in _TODO_KEYWORDS.finditer(text):
            self.todo.update(w for w in re.findall(r"[A-Z][A-Z_-]*", m.group("words")))
        for i in range(len(lines)):
            line = text[lines.starts[i] : lines.ends[i]]
            if line[:1] == "*" and _HEADLINE.match(line):
                self.headlines.append(i)
            elif _DRAWER_END.match(line):
                self.drawer_ends.append(i)
            elif "#+" in line and (end := _END.match(line)) is not None:
                name = end.group("name")
                self.block_ends.setdefault(":" if name is None else name.lower(), []).append(i)
            if "\\end{" in line:
                for env in _LATEX_END.finditer(line):
                    ends = self.env_ends.setdefault(env.group("env"), [])
                    if not ends or ends[-1] != i:
                        ends.append(i)
        for i in range(len(lines)):
            if i <= self.skip_to:
                continue
            s, e = lines.starts[i], lines.ends[i]
            line = text[s:e]
            if self.closing is not None:
                if self.closing.match(line):
                    self.closing = None
                continue
            headline = _HEADLINE.match(line)
            if self.comment_level:
                if headline is None or len(headline.group("stars")) > self.comment_level:
                    continue
                self.comment_level = 0
            stripped = line.strip()
            if not stripped:
                self.flush()
                continue
            if headline is not None:
                self.flush()
                self._headline(s, e, line, headline)
                continue
            if self._skipped(i, line):
                continue
            if stripped.startswith("|"):
                self._table_row(s, e, line)
                continue
            indent = len(line) - len(line.lstrip(" \t"))
            item = _ITEM.match(line)
            if item is not None:
                self.flush()
                self._item(s, e, line, item)
                continue
            if self.para and self.item_indent >= 0 and indent <= self.item_indent:
                self.flush()  # a line as indented as the item's marker ends the item
            if not self.para:
                footnote = _FOOTNOTE_DEF.match(line)
                if footnote is not None:
                    self.add(s + footnote.end(), e)
                    continue
            self.add(s + indent, e)
        self.flush()
        return self.blocks

    def _skipped(self, index: int, line: str) -> bool:
        """Whether ``line`` is not prose (a keyword, comment, drawer, block…); closes the open
        block and starts skipping a block or drawer when it opens one."""
        begin = _BEGIN.match(line)
        if begin is not None:
            name = begin.group("name")
            key = ":" if name is None else name.lower()
            if not self._closed(self.block_ends.get(key), index):
                return False  # a block never closed is none: an ordinary line, as Org reads it
            self.flush()
            if name is None:  # a dynamic block
                self.closing = re.compile(r"[ \t]*#\+END:?[ \t]*$", re.IGNORECASE)
            elif key in VERBATIM_BLOCKS:
                self.closing = re.compile(rf"[ \t]*#\+END_{re.escape(name)}[ \t]*$", re.IGNORECASE)
            return True  # the contents of other blocks are read as prose
        if line.lstrip().lower().startswith("#+end"):
            self.flush()
            return True
        if _KEYWORD.match(line) or _COMMENT.match(line) or _FIXED_WIDTH.match(line):
            self.flush()
            return True
        if _PLANNING.match(line) or _RULE.match(line) or _TABLE_EL.match(line):
            self.flush()
            return True
        if _DRAWER.match(line) and not _DRAWER_END.match(line):
            self.flush()
            # a drawer is closed by an :END: line before the next headline (else it is none)
            following = bisect_right(self.drawer_ends, index)
            if following < len(self.drawer_ends):
                end = self.drawer_ends[following]
                heading = bisect_right(self.headlines, index)
                if heading == len(self.headlines) or self.headlines[heading] > end:
                    self.skip_to = end
            return True
        env = _LATEX_ENV.match(line)
        if env is not None:
            env_end = rf".*\\end\{{{re.escape(env.group('env'))}\}}"
            if re.match(env_end, line[env.end() :]) is not None:  # on one line
                self.flush()
                return True
            if not self._closed(self.env_ends.get(env.group("env")), index):
                return False  # never closed: an ordinary line
            self.flush()
            self.closing = re.compile(env_end)
            return True
        return False

    def _closed(self, ends: list[int] | None, index: int) -> bool:
        """Whether one of the lines ``ends`` (indices, in order) closes what opens on line
        ``index``: it comes after it and before the next headline (Org looks no further)."""
        if not ends:
            return False
        following = bisect_right(ends, index)
        if following == len(ends):
            return False
        heading = bisect_right(self.headlines, index)
        return heading == len(self.headlines) or self.headlines[heading] > ends[following]

    def _headline(self, s: int, e: int, line: str, m: re.Match[str]) -> None:
        """A headline: its title is prose; keyword, priority, cookies and tags are not."""
        pos = m.end()
        keyword = re.match(r"[A-Z][A-Z_-]*(?=[ \t]|$)", line[pos:])
        if keyword is not None and keyword.group() in self.todo:
            pos += keyword.end()
            while pos < len(line) and line[pos] in " \t":
                pos += 1
        if line.startswith("COMMENT", pos) and (len(line) == pos + 7 or line[pos + 7] in " \t"):
            self.comment_level = len(m.group("stars"))
            return
        priority = _PRIORITY.match(line, pos)
        if priority is not None:
            pos = priority.end()
        end = len(line.rstrip())
        last = max(line.rfind(" ", pos, end), line.rfind("\t", pos, end))
        if last >= pos and _TAGS.fullmatch(line, last + 1, end):
            end = last  # the tags
        self.para = [(s + pos, s + end)]
        self.flush()

    def _item(self, s: int, e: int, line: str, m: re.Match[str]) -> None:
        """A list item: a description item's term is a block of its own."""
        pos = m.end()
        if m.group(0).lstrip()[:1] in "-+*":
            tag = _item_tag(line, pos)
            if tag is not None:
                self.para = [(s + pos, s + tag)]
                self.flush()
                pos = tag + 3
        self.add(s + pos, e)
        self.item_indent = len(m.group("indent"))

    def _table_row(self, s: int, e: int, line: str) -> None:
        """A table row: each cell a block of its own; a rule is not prose."""
        self.flush()
        if _TABLE_RULE.match(line):
            return
        text, blocks = self.text, self.blocks
        bars = [s + c.start() for c in _CELL.finditer(line)]
        spans = org_protected(text, s, e)  # once for the row, then shared out to its cells
        k = 0
        for left, right in zip(bars, [*bars[1:], e], strict=True):
            cell_start, cell_end = trim(text, left + 1, right)
            if cell_start < cell_end:
                while k < len(spans) and spans[k][1] <= cell_start:
                    k += 1
                first = k
                while k < len(spans) and spans[k][0] < cell_end:
                    k += 1
                block = build_block(text, [(cell_start, cell_end)], spans[first:k])
                k = first  # a span may go on into the next cell
                if block is not None:
                    blocks.append(block)


def org_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of an Org document, in document order."""
    return _Scanner(text).run()


register_format("org", org_blocks, extensions=(".org",))
