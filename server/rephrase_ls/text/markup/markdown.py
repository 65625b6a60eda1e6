"""Prose in Markdown (CommonMark plus GFM tables, front matter, footnotes and dollar math).

The block structure is found by a single linear pass over the lines that follows the CommonMark
container algorithm (block quotes, list items, footnote definitions, lazy continuation lines) and
recognises the leaf blocks that are *not* prose: fenced and indented code, HTML blocks, front
matter, ``$$`` math blocks, link reference definitions, thematic breaks, table delimiter rows.
Paragraphs, headings (ATX and setext) and table cells become :class:`ProseBlock`s.

markdown-it-py is the reference: the test suite checks that the lines found here as prose are the
lines markdown-it-py (with the same plugins) maps to inline content. It is not used at run time
because its block parser alone needs about two seconds for a 1 MB document, twenty times the budget
(see docs/markup.md).

Inside prose, :func:`inline_protected` protects code spans, escapes, autolinks, inline HTML,
images, footnote references, link brackets and destinations, ``$…$`` math, bare URLs, entities
and emphasis markers.

This module also holds the small line helpers the other markup extractors share.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from rephrase_ls.text.markup import ProseBlock, register_format

__all__ = [
    "Lines",
    "inline_protected",
    "make_block",
    "markdown_blocks",
    "require_text",
    "trim",
]

# --------------------------------------------------------------------------------------------
# Shared helpers (also used by the LaTeX, reStructuredText, code and commit extractors)
# --------------------------------------------------------------------------------------------

_NEWLINE = re.compile(r"\r\n|\r|\n")
_SPACE = " \t"


class Lines:
    """Start offset and content end (before the line break) of every line, computed once."""

    __slots__ = ("ends", "starts", "text")

    def __init__(self, text: str) -> None:
        require_text(text)
        self.text = text
        starts = [0]
        ends = []
        for m in _NEWLINE.finditer(text):
            ends.append(m.start())
            starts.append(m.end())
        ends.append(len(text))
        self.starts: list[int] = starts
        self.ends: list[int] = ends

    @classmethod
    def spans(cls, text: str, starts: list[int], ends: list[int]) -> Lines:
        """Some lines of ``text`` given by their ``[start, end)`` (a region of a document, such
        as a docstring's body, read line by line with document offsets)."""
        lines = object.__new__(cls)
        lines.text, lines.starts, lines.ends = text, starts, ends
        return lines

    def __len__(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """Index of the line holding ``offset`` (a line break belongs to the line it ends)."""
        return bisect_right(self.starts, offset) - 1


def require_text(text: object) -> None:
    """Raise a clear ``TypeError`` unless ``text`` is a ``str`` (a document, not bytes)."""
    if not isinstance(text, str):
        raise TypeError(f"a document must be a str, not {type(text).__name__}")


def trim(text: str, start: int, end: int) -> tuple[int, int]:
    """Shrink ``[start, end)`` past spaces and tabs at both ends."""
    while start < end and text[start] in _SPACE:
        start += 1
    while end > start and text[end - 1] in _SPACE:
        end -= 1
    return start, end


def make_block(
    text: str,
    segments: Iterable[tuple[int, int]],
    protected: Iterable[tuple[int, int]] = (),
) -> ProseBlock | None:
    """Build a block from per-line segments and protected spans, or ``None`` if it has no prose.

    Segments are trimmed and empty ones dropped; protected spans are clipped to the segments
    (a span crossing a line break becomes one span per line), sorted and merged when they touch.
    A block whose segments hold no word character outside protected spans is not prose.
    """
    segs: list[tuple[int, int]] = []
    for s, e in segments:
        s, e = trim(text, s, e)
        if s < e:
            segs.append((s, e))
    if not segs:
        return None
    return build_block(text, segs, sorted(p for p in protected if p[0] < p[1]))


def build_block(
    text: str, segs: Sequence[tuple[int, int]], protected: Iterable[tuple[int, int]]
) -> ProseBlock | None:
    """:func:`make_block` for segments already trimmed, in order and not empty, and protected
    spans sorted by start."""
    clipped = _clip(segs, protected)
    if not _has_prose(text, segs, clipped):
        return None
    return ProseBlock(segments=tuple(segs), protected=tuple(clipped))


def _clip(
    segs: Sequence[tuple[int, int]], spans: Iterable[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Sorted spans clipped to the segments (one piece per segment crossed), merged if touching."""
    clipped: list[tuple[int, int]] = []
    last_end = -1  # the end of the last clipped span (spans and segments start at 0 or later)
    n = len(segs)
    i = 0
    for s, e in spans:
        while i < n and segs[i][1] <= s:
            i += 1
        j = i
        while j < n and segs[j][0] < e:
            seg_start, seg_end = segs[j]
            cs = s if s > seg_start else seg_start
            ce = e if e < seg_end else seg_end
            if cs < ce:
                if cs > last_end:
                    clipped.append((cs, ce))
                    last_end = ce
                elif ce > last_end:
                    clipped[-1] = (clipped[-1][0], ce)
                    last_end = ce
            j += 1
    return clipped


_WORDISH = re.compile(r"[^\W_]")


def _has_prose(
    text: str, segs: Sequence[tuple[int, int]], protected: Sequence[tuple[int, int]]
) -> bool:
    k = 0
    for s, e in segs:
        pos = s
        while k < len(protected) and protected[k][0] < e:
            ps, pe = protected[k]
            if ps > pos and _WORDISH.search(text, pos, ps):
                return True
            pos = max(pos, pe)
            if pe > e:
                break
            k += 1
        if pos < e and _WORDISH.search(text, pos, e):
            return True
    return False


# --------------------------------------------------------------------------------------------
# Inline protection
# --------------------------------------------------------------------------------------------

# The patterns never cross a NUL character (NUL is excluded from every negated class and stands
# in for `.`): the scanner joins the spans of all blocks with NULs and scans them in one pass.
_ANY = r"[^\x00]"
_LINK_DEST = r"(?:<[^<>\n]*>|[^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)"
_LINK_TITLE = r"""(?:\s+(?:"(?:[^"\\]|\\@)*"|'(?:[^'\\]|\\@)*'|\((?:[^()\\]|\\@)*\)))?""".replace(
    "@", _ANY
)
_URL_TAIL = r"[^\s<>]*[^\s<>.,;:!?'\")\]*_~]"
#: An attribute list, as Pandoc, kramdown, Python-Markdown (mkdocs) and markdown-it-attrs write
#: them after a heading, a link, a span or on a line of their own: ``{#id}``, ``{ #id .class }``,
#: ``{: .class}`` (kramdown), ``{.class key=val}``, ``{key="val"}``, ``{-}`` (unnumbered),
#: ``{=html}`` (a raw attribute).
ATTRIBUTE_LIST = r"\{[ \t]*(?:[:#.=-]|[A-Za-z_][\w.:-]*=)[^{}\n]*\}"
# after the type of an admonition: its title in quotes, or the end of the line
_TYPE_END = r'(?=[ \t]+"|[ \t]*(?:[\n\x00]|\Z))'
# The alternatives are grouped by their first character, each group starting with that
# character as a literal: the regular expression engine then knows the set of characters a
# match can start with and skips plain text between them in its C loop (this scan is most of
# the cost of a block). Within a group the alternatives keep their order of precedence.
_INLINE_ALTERNATIVES = (
    r"\\(?:[!-/:-@\[-`{-~]|(?=[\r\n\x00]|\Z))",  # backslash escape, hard line break
    r"`(`*)(?!`)" + _ANY + r"+?(?<!`)`\1(?!`)",  # code span (the run after its first tick)
    r"<(?:[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*>"  # URI autolink
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?>"
    r"|!--" + _ANY + r"*?-->|\?" + _ANY + r"*?\?>|![A-Za-z][^>]*>"  # HTML comment etc.
    r"|!\[CDATA\[" + _ANY + r"*?\]\]>"
    r"|/?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*"
    r"""(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*/?>)""",  # inline HTML tag
    r"!!!\+?[ \t]+[\w-]+" + _TYPE_END + ""  # an admonition's mark and type (!!! note "Title")
    r"|!(?:\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\](?:\(\s*" + _LINK_DEST + _LINK_TITLE + r"\s*\)"
    r"|\[[^\]\n]*\])?"  # image
    r"|(?=\[))",  # the mark of an image the pattern above could not read whole
    r"\[(?:\^[^\]\s]+\]|)",  # footnote reference, or a link text bracket
    r"\](?:\(\s*" + _LINK_DEST + _LINK_TITLE + r"\s*\)"  # link destination and title
    r"|\[[^\[\]\n]*\]|)",  # full or collapsed reference link label, or a link text bracket
    r"\$(?:\$" + _ANY + r"+?\$\$"  # display math written inline
    r"|(?![\s$])(?:[^$\\]|\\" + _ANY + r")+?(?<![\s\\])\$(?!\d))",  # inline math
    r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});",  # entity
    # a template tag: a Hugo shortcode ({{< youtube x >}}, {{% notice %}}), Liquid, Jinja or
    # Handlebars ({{ page.title }}, {% include a.html %}), an mkdocs include ({* file.py *})
    # (no brace inside a tag: each attempt stops at the next brace, so that many unclosed `{{`
    # cost linear time, not a scan to the end of the text each)
    r"\{(?:\{[^{}\x00]*\}\}|%[^{}\x00]*%\}|\*[^{}\x00]*\*\})",
    ATTRIBUTE_LIST,  # attribute list of Pandoc, kramdown, mkdocs, markdown-it-attrs
    r"\?\?\?\+?[ \t]+[\w-]+" + _TYPE_END,  # a collapsible admonition's (??? note)
    r"///+(?:[ \t]*[\w-]+(?:[ \t]*\|)?)?",  # a block's fence and type (pymdownx: /// tip | Title)
    r":::+(?:[ \t]*\{[^{}\n]*\}|[ \t]*[\w-]+)?"  # a fenced div / container fence and its class
    r"|:[a-z0-9_+-]{2,}:(?![\w:])",  # emoji short code (:warning:)
    r"\*\**",  # emphasis markers
    r"~~+",  # strikethrough markers
    r"__*",  # emphasis marker unless inside a word (checked by the scanner)
)
_INLINE = re.compile(("|".join(_INLINE_ALTERNATIVES)).replace("[^", "[^\x00"))
# Bare URLs are found by a second pass that looks for "://" and "www." (a literal search is
# much faster than stopping at every h, f and w), then reads the scheme before and the rest after.
_URL_REST = re.compile(_URL_TAIL.replace("[^", "[^\x00"))


_SCHEMES = ("https", "http", "ftp")


def _url_scheme(text: str, start: int, pos: int) -> int:
    """Where the scheme before the ``://`` at ``pos`` starts (not before ``start``), or -1.

    As the pattern ``(?:https?|ftp)$`` searched in the five characters before, which also
    finds ``http`` or ``ftp`` before a line break there (``$`` matches before a final one).
    """
    end, schemes = (pos - 1, ("http", "ftp")) if text[pos - 1] == "\n" else (pos, _SCHEMES)
    for scheme in schemes:
        s = end - len(scheme)
        if s >= start and s >= pos - 5 and text.startswith(scheme, s):
            return s
    return -1


def _inside_url_word(char: str) -> bool:
    """Whether a URL preceded by ``char`` is part of something longer (a word, a path...)."""
    return char.isalnum() or char in "_/@."


def _in_word(text: str, s: int, e: int, start: int, end: int) -> bool:
    """Whether the underscore run ``[s, e)`` lies between two letters or digits (snake_case)."""
    return start < s and e < end and text[s - 1].isalnum() and text[e].isalnum()


def _scan(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Protected spans in ``text[start:end]``, sorted by start (they may overlap: URLs)."""
    spans = [m.span() for m in _INLINE.finditer(text, start, end)]
    if text.find("_", start, end) >= 0:
        # `snake_case`: an underscore run between two letters or digits is part of the word
        spans = [
            span for span in spans if text[span[0]] != "_" or not _in_word(text, *span, start, end)
        ]
    urls = []
    find = text.find
    rest_match = _URL_REST.match
    pos = find("://", start, end)
    while pos >= 0:
        after = pos + 3
        # the scheme before (`_url_scheme`, inlined: this loop runs for every link)
        if text[pos - 1] != "\n":
            if pos - 5 >= start and text.startswith("https", pos - 5):
                s = pos - 5
            elif pos - 4 >= start and text.startswith("http", pos - 4):
                s = pos - 4
            elif pos - 3 >= start and text.startswith("ftp", pos - 3):
                s = pos - 3
            else:
                s = -1
        else:
            s = _url_scheme(text, start, pos)
        # not inside a word, a path, an address or a longer name
        if s >= 0 and (s == start or not _inside_url_word(text[s - 1])):
            rest = rest_match(text, after, end)
            if rest is not None:
                urls.append((s, rest.end()))
        pos = find("://", after, end)
    pos = find("www.", start, end)
    while pos >= 0:
        after = pos + 4
        if pos == start or not _inside_url_word(text[pos - 1]):
            rest = rest_match(text, after, end)
            if rest is not None:
                urls.append((pos, rest.end()))
        pos = find("www.", after, end)
    if urls:
        spans.extend(urls)
        spans.sort()
    return spans


def inline_protected(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Spans of ``text[start:end]`` (Markdown inline content) that must come back unchanged.

    Code spans, escapes, autolinks, inline HTML, images, footnote references, link brackets,
    link destinations and titles, math, bare URLs, entities and emphasis markers; an underscore
    run between two letters or digits (``snake_case``) is part of the word, not a marker.
    Sorted by start; spans may overlap (a URL inside a code span), which make_block merges.
    """
    return _scan(text, start, len(text) if end is None else end)


# --------------------------------------------------------------------------------------------
# Block structure
# --------------------------------------------------------------------------------------------

_ATX = re.compile(r"#{1,6}(?=[ \t]|$)")
_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_FENCE = re.compile(r"(`{3,})(?!.*`)|(~{3,})")
_FENCE_RUN = re.compile(r"`{3,}|~{3,}")
_THEMATIC = re.compile(r"(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$")
_SETEXT = re.compile(r"(=+|-+)[ \t]*$")
_BULLET = re.compile(r"([-+*])(?=[ \t]|$)")
_ORDERED = re.compile(r"([0-9]{1,9})[.)](?=[ \t]|$)")
_FOOTNOTE_DEF = re.compile(r"\[\^[^\]\s]+\]:")
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

_SPACES = re.compile(r" *")
_BLANK = re.compile(r"[ \t]*$")
# first characters that never start a block nor a table delimiter row nor a setext underline
_PLAIN_START = frozenset("(\"'.,;?!/@%&^{}")

_QUOTE = ("q", 0)  # the container entry of a block quote

# leaf states
_NONE, _PARA, _FENCED, _HTML, _MATH, _CODE, _TABLE = range(7)


# a MultiMarkdown / Python-Markdown metadata line: "Key: value" (the key may hold spaces in
# MultiMarkdown, "Base Header Level: 2")
_META_LINE = re.compile(r"[A-Za-z0-9][\w -]{0,40}:(?:[ \t]|$)")
# keys that make a single "Key: value" line at the top metadata rather than a sentence
_META_KEYS = frozenset(
    (
        "title", "subtitle", "author", "authors", "date", "summary", "description", "keywords",
        "tags", "category", "categories", "slug", "template", "css", "base header level",
        "language", "lang", "copyright", "status", "version", "affiliation", "email", "web",
        "format", "quotes language", "latex input", "html header", "xhtml header", "revision",
    )
)  # fmt: skip


def front_matter_lines(text: str, lines: Lines) -> int:
    """How many lines at the start of a Markdown document are front matter, 0 for none.

    YAML between ``---`` lines (closed by ``---`` or ``...``), TOML between ``+++`` lines (Hugo,
    Zola), JSON from a ``{`` line to a ``}`` line (Hugo), a Pandoc title block (``% title``,
    ``% author``, ``% date``, with continuation lines that start with a space), and
    MultiMarkdown / Python-Markdown (mkdocs) metadata: ``Key: value`` lines up to the first blank
    line, continued by indented lines — recognised when there are two keys or more, or one that
    metadata uses (``Title:``, ``Author:``…), so that a first sentence such as "Note: …" stays
    prose. A ``---`` or ``+++`` block without its closing line is not front matter.
    """
    starts, ends = lines.starts, lines.ends
    n = len(starts)
    first = text[: ends[0]].rstrip(_SPACE)
    if first in ("---", "+++"):
        closing = ("---", "...") if first == "---" else ("+++",)
        for i in range(1, n):
            if text[starts[i] : ends[i]].rstrip(_SPACE) in closing:
                return i + 1
        return 0
    if first.startswith("{") and (first == "{" or first.startswith('{"')):
        for i in range(1, n):
            if text[starts[i] : ends[i]].rstrip(_SPACE) == "}":
                return i + 1
        return 0
    if first.startswith("%"):
        i = 1
        while i < n:
            line = text[starts[i] : ends[i]]
            if line.startswith("%") or (line[:1] in _SPACE and line.strip()):
                i += 1
            else:
                break
        return i
    keys: list[str] = []
    i = 0
    while i < n:
        line = text[starts[i] : ends[i]]
        if not line.strip():
            break
        if line[:1] in _SPACE and keys:
            i += 1  # a continuation of the value above
            continue
        m = _META_LINE.match(line)
        if m is None:
            return 0
        keys.append(line[: m.end()].rstrip(": \t").lower())
        i += 1
    if len(keys) >= 2 or (keys and keys[0] in _META_KEYS):
        return i
    return 0


def _heading_end(text: str, start: int, end: int) -> int:
    """Where the text of an ATX heading ``[start, end)`` ends: before its closing ``#``s."""
    if text.find("#", start, end) < 0:
        return end  # no closing sequence: the search below would try every position
    close = _ATX_CLOSE.search(text, start, end)
    return end if close is None else close.start()


def _indent(text: str, pos: int, end: int, col: int) -> tuple[int, int]:
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


def _advance_cols(text: str, pos: int, end: int, col: int, target: int) -> tuple[int, int]:
    """Consume whitespace columns up to ``target`` (a partly consumed tab is consumed whole)."""
    while pos < end and col < target and text[pos] in _SPACE:
        col = col + 1 if text[pos] == " " else col + 4 - col % 4
        pos += 1
    return pos, col


# A cell and the pipe after it (or the row's end; a lone backslash at the end ends a cell too).
# Written as an unrolled loop: a repeated alternation is many times slower in `re`.
_CELL = re.compile(r"([^|\\]*(?:\\.[^|\\]*)*)(?:\||\\$|$)")
# The same with the spaces and tabs before the cell's content outside the group.
_CELL_CONTENT = re.compile(r"[ \t]*([^|\\]*(?:\\.[^|\\]*)*)(?:\||\\$|$)")


def _row_start(text: str, start: int, end: int) -> tuple[int, int]:
    """A table row's ``[start, end)`` trimmed, past its leading pipe."""
    s, e = trim(text, start, end)
    if s < e and text[s] == "|":
        s += 1
    return s, e


def _table_cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cell spans of a table row: split at unescaped pipes, outer pipes dropped."""
    s, e = _row_start(text, start, end)
    if text.find("\\", s, e) < 0:
        # no escapes (nearly every row): the cells are the pieces between pipes, which
        # str.split finds several times faster than the pattern
        cells = []
        for cell in text[s:e].split("|"):
            cells.append((s, s + len(cell)))
            s += len(cell) + 1
    else:
        cells = [m.span(1) for m in _CELL.finditer(text, s, e)]
    if len(cells) > 1 and cells[-1][0] == cells[-1][1]:
        cells.pop()  # after the closing pipe
    return cells


class _Scanner:
    """One pass over the lines; see the module docstring."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = Lines(text)
        self.pending: list[list[tuple[int, int]]] = []  # trimmed segments of each block
        # open containers: ("q", 0) for a block quote, ("i", content column) for a list item
        # or footnote definition
        self.containers: list[tuple[str, int]] = []
        self.leaf = _NONE
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
        spans = _scan(joined, 0, len(joined))  # sorted by start, each inside one piece
        blocks = []
        k = 0
        offset = 0  # where the piece of the block starts in `joined`
        for segs, piece in zip(pending, pieces, strict=True):
            end = offset + len(piece)
            shift = segs[0][0] - offset
            found = []
            while k < len(spans) and spans[k][0] < end:
                s, e = spans[k]
                found.append((s + shift, e + shift))
                k += 1
            block = build_block(text, segs, found)
            if block is not None:
                blocks.append(block)
            offset = end + 1
        return blocks

    def _close_para(self) -> None:
        if self.leaf == _PARA:
            self._emit_para(self.para)
        self.para = []
        self.leaf = _NONE

    # the same: a stale `para` list is never read (a paragraph starts with a new list)
    _close_leaf = _close_para

    def _emit_para(self, segs: list[tuple[int, int]]) -> None:
        # Each line's content starts at a non-blank character (the scanner skipped the
        # indentation) and ends at the line's end: only trailing white space needs trimming.
        if segs:
            self.pending.append([trim(self.text, s, e) for s, e in segs])

    def _emit_row(self, start: int, end: int) -> None:
        """Each non-empty cell of a table row is a block (the cells of `_table_cells`, trimmed)."""
        text, pending = self.text, self.pending
        s, e = _row_start(text, start, end)
        if text.find("\\", s, e) < 0:
            # no escapes: split at every pipe, as `_table_cells` does
            for cell in text[s:e].split("|"):
                n = len(cell)
                lead = n - len(cell.lstrip(_SPACE))
                if lead < n:  # not blank
                    pending.append([(s + lead, s + len(cell.rstrip(_SPACE)))])
                s += n + 1
            return
        for m in _CELL_CONTENT.finditer(text, s, e):
            cs, ce = m.span(1)
            if cs < ce:  # it starts with neither a space nor a tab: only its end may need trimming
                if text[ce - 1] in _SPACE:
                    ce = cs + len(text[cs:ce].rstrip(_SPACE))
                pending.append([(cs, ce)])

    # -- the pass ---------------------------------------------------------------------------

    def run(self) -> list[ProseBlock]:
        lines = self.lines
        first = self._front_matter()
        for s, e in zip(lines.starts[first:], lines.ends[first:], strict=True):
            self._line(s, e)
        self._close_leaf()
        return self._finish()

    def _html_block(self, p: int, e: int) -> bool:
        """Whether an HTML block starts at ``p``: it is opened (or closed on the same line)."""
        text = self.text
        for start, end in _HTML_START:
            if start.match(text, p, e):
                self._close_leaf()
                if end is None or not end.search(text, p, e):
                    self.leaf = _HTML
                    self.html_end = end
                return True
        if self.leaf != _PARA and _HTML_TYPE7.match(text, p, e):
            self._close_leaf()
            self.leaf = _HTML
            self.html_end = None
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
        if _QUOTE in self.containers:
            start, limit = self.quote_search
            if not start <= e < limit:
                limit = self._quote_end(e)
                self.quote_search = (e, limit)
            if limit <= found:
                return False
        self._close_leaf()
        self.leaf = _MATH
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
            p, c = _indent(text, s, e, 0)
            if p == e:
                return s
            if text[p] == ">":
                p = _indent(text, p + 1, e, c + 1)[0]
                empty = p == e
            elif empty or self._starts_block(p, e, c, lazy=True):
                return s
        return len(text) + 1

    def _is_ref_def(self, p: int, e: int) -> bool:
        """Whether the line at ``p`` is a link reference definition (one line, not prose)."""
        m = _REF_DEF.match(self.text, p, e)
        return m is not None and bool(self.text[m.end() : e].strip())

    def _front_matter(self) -> int:
        """How many lines at the start are front matter (not prose), 0 for none; see
        :func:`front_matter_lines`."""
        text = self.text
        if not text or (text[0] not in "-+{%" and _META_LINE.match(text) is None):
            return 0  # (without looking at the lines)
        return front_matter_lines(text, self.lines)

    def _line(self, s: int, e: int) -> None:
        if self.leaf == _MATH:
            # as in markdown-it-py, the lines of a math block belong to it whatever their
            # indentation or container markers, up to its closing line
            if e >= self.math_close:
                self.leaf = _NONE
            return
        text = self.text
        containers = self.containers
        pos, col = s, 0
        matched = 0
        for kind, indent in containers:
            if kind == "q":
                # (as in markdown-it-py, an open quote goes on at any indentation: a quote
                # only opens at most 3 columns in)
                p, c = _indent(text, pos, e, col)
                if p >= e or text[p] != ">":
                    break
                pos, col = p + 1, c + 1
                if pos < e and text[pos] in _SPACE:
                    pos, col = _advance_cols(text, pos, e, col, col + 1)
            else:
                p, c = _indent(text, pos, e, col)
                if p >= e:  # blank line: list items continue
                    pos, col = p, c
                elif c >= indent:
                    pos, col = _advance_cols(text, pos, e, col, indent)
                else:
                    break
            matched += 1
        fp, fc = _indent(text, pos, e, col)
        blank = fp >= e
        if blank and s == self.empty_next and matched > self.empty_depth:
            matched = self.empty_depth  # the line after an empty item's marker: it ends
        all_matched = matched == len(containers)

        leaf = self.leaf
        if all_matched:
            if leaf == _FENCED:
                if fc - col <= 3:
                    m = _FENCE_RUN.match(text[fp:e])
                    if (
                        m
                        and m.group()[0] == self.fence_char
                        and len(m.group()) >= self.fence_len
                        and not text[fp + m.end() : e].strip()
                    ):
                        self.leaf = _NONE
                return
            if leaf == _HTML:
                if self.html_end is None:
                    if blank:
                        self.leaf = _NONE
                elif self.html_end.search(text, pos, e):
                    self.leaf = _NONE
                return
            if leaf == _CODE:
                if blank or fc - col >= 4:
                    return
                self.leaf = _NONE
            if leaf == _TABLE:
                # a row; blank lines, lines indented by 4 and other blocks end the table
                # (any list item ends a table, as in markdown-it-py: not only "1." ones)
                if not blank and fc - col < 4 and not self._starts_block(fp, e, 0, lazy=True):
                    self._emit_row(fp, e)
                    return
                self.leaf = _NONE
        elif leaf == _PARA and not blank:
            # A lazy continuation line, unless it starts a block. As markdown-it-py reads it,
            # the indentation that decides is counted from the content of the item the
            # paragraph is in (directly, or in a quote in it): a line less indented than that is
            # never indented code there, whatever it is at the level it falls back to. A list
            # marker is text too if it is indented by 4 or more from where that item's list is
            # (its special case for a staircase of items).
            n = len(containers)
            k = n - 1 if containers[-1][0] == "i" else n - 2
            if k < 0:
                ind = fc
            elif containers[k][0] == "q":  # a quote in a quote: from the outer one's content
                ind = fc - col
            else:
                base = containers[k][1]
                ind = fc - base
                if k == 0:
                    outer = 0
                elif containers[k - 1][0] == "i":
                    outer = containers[k - 1][1]
                else:
                    outer = col if matched == k else fc
                if (
                    ind < 0
                    and fc - outer >= 4
                    and (
                        _BULLET.match(text, fp, e) is not None
                        or _ORDERED.match(text, fp, e) is not None
                    )
                    and _THEMATIC.match(text, fp, e) is None
                ):
                    ind = 4  # not a block (a thematic break still is)
            if not self._starts_block(fp, e, ind, lazy=True):
                self.para.append((fp, e))
                return

        if not all_matched:
            self._close_leaf()
            del containers[matched:]

        # open new containers
        opened = False
        while True:
            p, c = _indent(text, pos, e, col)
            if c - col >= 4 or p >= e:
                break
            ch = text[p]
            if ch == ">":
                self._close_leaf()
                containers.append(_QUOTE)
                opened = True
                pos, col = p + 1, c + 1
                if pos < e and text[pos] in _SPACE:
                    pos, col = _advance_cols(text, pos, e, col, col + 1)
                continue
            if (
                ch in "*-_"
                and _THEMATIC.match(text, p, e)
                and not (self.leaf == _PARA and not opened and _SETEXT.match(text, p, e))
            ):
                break
            if ch in "-+*":
                m = _BULLET.match(text, p, e)
            elif "0" <= ch <= "9":
                m = _ORDERED.match(text, p, e)
            else:
                m = None
            if m is not None:
                after, acol = m.end(), c + m.end() - p
                q, qc = _indent(text, after, e, acol)
                empty = q >= e
                if (
                    self.leaf == _PARA
                    and not opened
                    and (empty or (m.re is _ORDERED and m.group(1) != "1"))
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
                    pos, col = _advance_cols(text, after, e, acol, acol + 1)
                else:
                    content_col, pos, col = qc, q, qc
                self._close_leaf()
                containers.append(("i", content_col))
                opened = True
                continue
            if ch == "[":  # a footnote definition (it may interrupt a paragraph)
                m = _FOOTNOTE_DEF.match(text, p, e)
                if m is not None:
                    self._close_leaf()
                    containers.append(("i", c + 4))
                    opened = True
                    pos, col = _indent(text, m.end(), e, c + m.end() - p)
                    continue
            break

        fp, fc = _indent(text, pos, e, col)
        if fp >= e:
            self._close_leaf()
            return
        if opened:
            self._close_leaf()
        self._leaf(fp, e, fc - col)

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
        if ch in "*-_" and _THEMATIC.match(text, p, e):
            return True
        if ch == "<" and any(start.match(text, p, e) for start, _ in _HTML_START):
            return True
        if ch in "-+*":
            m = _BULLET.match(text, p, e)
        elif "0" <= ch <= "9":
            m = _ORDERED.match(text, p, e)
        else:
            return False
        if m is None:
            return False
        if lazy:
            return True
        return bool(text[m.end() : e].strip()) and (m.re is _BULLET or m.group(1) == "1")

    def _leaf(self, p: int, e: int, ind: int) -> None:
        text = self.text
        if ind >= 4:
            if self.leaf == _PARA:
                self.para.append((p, e))
            else:
                self._close_leaf()
                self.leaf = _CODE
            return
        ch = text[p]
        if self.leaf == _PARA and ch in "=-" and _SETEXT.match(text, p, e):
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
                self.leaf = _FENCED
                self.fence_char = ch
                self.fence_len = len(m.group(1) or m.group(2))
                return
        if ch in "*-_" and _THEMATIC.match(text, p, e):
            self._close_leaf()
            return
        if ch == "$" and self.leaf != _PARA and text.startswith("$$", p) and self._math(p, e):
            return  # a math block (it cannot interrupt a paragraph: there it is inline math)
        if ch == "<" and self._html_block(p, e):
            return
        if (
            self.leaf != _PARA
            and ch == "["
            and not text.startswith("[^", p)
            and self._is_ref_def(p, e)
        ):
            self._close_leaf()
            return
        if self.leaf == _PARA:
            if "-" in text[p:e] and _TABLE_DELIM.match(text, p, e):
                hs, he = self.para[-1]
                header = _table_cells(text, hs, he)
                delim = _table_cells(text, p, e)
                if len(header) == len(delim) and "|" in text[hs:he]:
                    self.para.pop()
                    self._close_para()
                    self._emit_row(hs, he)
                    self.leaf = _TABLE
                    return
            self.para.append((p, e))
            return
        self._close_leaf()
        self.leaf = _PARA
        self.para = [(p, e)]


def markdown_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of a Markdown document, in document order."""
    require_text(text)
    return _Scanner(text).run()


register_format(
    "markdown",
    markdown_blocks,
    extensions=(".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".rmd", ".qmd"),
)
