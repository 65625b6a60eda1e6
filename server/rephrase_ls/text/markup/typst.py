"""Prose in Typst, found by one pass over the document with a stack of modes (markup, code).

Prose: paragraphs (split at blank lines), headings (``= Title``), list, enumeration and term
items (``- ``, ``+ ``, ``1. ``, ``/ Term:``; each item a block, its marker outside), and the
content blocks ``[…]`` of code: the trailing content of a function called inside a sentence
(``#emph[…]``, ``#link("…")[…]``, ``#footnote[…]``) stays in its sentence, the content of a call
that starts its line and is not one of :data:`INLINE_FUNCTIONS` (``#figure(…, caption: […])``,
``#quote[…]``, ``#table([…], […])``, a template's ``title: […]``) is a block of its own.

Not prose: code — ``#set``, ``#show``, ``#let``, ``#import``, ``#include`` statements, the
arguments of calls in ``(…)``, code blocks ``{…}``, strings —, raw text and raw blocks (backticks),
comments (``//``, ``/* */``). Inside prose, inline raw, math (``$…$``, also display math on lines
of its own), function calls with their arguments, labels (``<label>``), references (``@ref``),
URLs, escapes (``\\#``, ``\\u{…}``), line breaks (``\\``), ``~``, ``-?``, brackets and the
emphasis markers ``*`` and ``_`` are protected.

Nesting (content in code in content…) is kept on an explicit stack, so any depth costs linear time
and no recursion; a delimiter that is never closed (a backtick, a ``$``) is protected and read as
text, and each kind is searched for only once past the point where it was not found. Each mode
reads on in a loop of its own while its frame is on top, a regular expression jumping over the
text between the marks that matter to it; the pieces go straight to the paragraph builder
(:class:`~rephrase_ls.text.markup.pieces.Paragraphs`), which makes each block at its break.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import require_text
from rephrase_ls.text.markup.pieces import BREAK, PROTECT, Paragraphs
from rephrase_ls.text.markup.registry import register_format

__all__ = ["INLINE_FUNCTIONS", "typst_blocks"]

#: Functions whose trailing content belongs to the sentence around them, also at a line's start.
INLINE_FUNCTIONS = frozenset(
    (
        "box", "cite", "emph", "footnote", "h", "highlight", "link", "lower", "overline", "ref",
        "smallcaps", "strike", "strong", "sub", "super", "sym", "emoji", "text", "underline",
        "upper", "raw", "math", "linebreak", "sc", "underline", "todo",
    )
)  # fmt: skip
#: Keywords of statements, which run to the end of their line (or a ``;``).
_STATEMENTS = frozenset(("let", "set", "show", "import", "include", "return", "break", "continue"))
#: Keywords whose bodies end them (``#if … [ ] else [ ]``).
_CONTROL = frozenset(("if", "for", "while"))
_KEYWORDS = _STATEMENTS | _CONTROL | {"context"}

_IDENT = re.compile(r"[^\W\d][\w-]*")
_CALL_WITH_CONTENT = re.compile(r"#([^\W\d][\w-]*)\[")
_HASHES = re.compile(r"#+")
# A run of prose up to the next mark that matters to the structure (escapes are part of it)
_PROSE_CHAR = r"[^\\`$#\[\]\r\n/h]|\\(?:u\{[0-9A-Fa-f]{0,8}\}|\S|)|h(?!ttps?://)|/(?![/*])"
_PROSE_RUN = re.compile(rf"(?:{_PROSE_CHAR})*+")
# The same over the line breaks that only go on with the paragraph: the next line is not blank
# and starts no heading, list item or embedded expression (for a paragraph outside a list item
# and a heading, whose line breaks matter)
_GOES_ON = r"(?![ \t]*+(?:[\r\n#]|\Z|(?:=+|[-+/]|[0-9]+\.)(?:[ \t]|[\r\n]|\Z)))"
_PROSE_LINES = re.compile(rf"(?:{_PROSE_CHAR}|(?:\r\n|\r|\n){_GOES_ON})*+")
# What prose protects, found in each paragraph: labels, references, emphasis markers (a ``*`` or
# ``_`` inside a word is a character of it), non-breaking spaces, soft hyphens.
# (Each alternative starts with its mark, the look behind coming after it; the look ahead for the
# marks comes first, so the search leaves any other character at once.)
_INLINE = re.compile(
    r"(?=[<@*_~\\-])"
    r"(?:<[\w.:-]+>|@(?<![^\W_]@)[\w.:-]*[\w-]"
    r"|[*_](?:(?<![^\W_][*_])[*_]*|[*_]*(?![^\W_]))|~+|-\?"
    r"|(?:\\(?:u\{[0-9A-Fa-f]{0,8}\}|\S|))+)"
)
_INLINE_MARK = re.compile(r"[<@*_~\\-]")  # the marks a match of _INLINE starts with
_MATHS = re.compile(r"(?:\$(?:[^$\\]|\\.)*+\$)+", re.DOTALL)
_OPENING = re.compile(r"\[+")
_CLOSING = re.compile(r"\]+")
_CODE_SPECIAL = re.compile(r"//|/\*|[\"`$\[\](){}\r\n;]")
_URL = re.compile(r"https?://[^\s\[\]<>\"]*")
_URL_TRAIL = ".,;:!?'"
# A line's indentation, then the marker of a heading or of a list, enumeration or term item
_LINE = r"(?P<line>[ \t]*+(?P<mark>(?:=+|[-+/]|[0-9]+\.)(?:[ \t]+|(?=[\r\n]|\Z)))?)"
_LINE_START = re.compile(_LINE)
# A line break, the blank lines after it (a paragraph's end), then the next line's start
_NEXT_LINE = re.compile(r"(?:\r\n|\r|\n)(?P<blank>(?:[ \t]*(?:\r\n|\r|\n))+)?" + _LINE)
_SPACES = re.compile(r"[ \t]*")
_TRAILING_LABEL = re.compile(r"[ \t]*<[\w.:-]+>")
_BACKTICKS = re.compile(r"`+")
_MATH_REST = re.compile(r"(?:[^$\\]|\\.)*+\$", re.DOTALL)
_STRING_REST = re.compile(r"(?:[^\"\\]|\\.)*+(?:\"|\Z)", re.DOTALL)
_COMMENT_MARK = re.compile(r"/\*|\*/")
_ELSE = re.compile(r"[ \t]*else\b")
_LINE_BREAK = re.compile(r"[\r\n]")


@dataclass(slots=True)
class _Markup:
    """Markup: the document, or a content block ``[…]`` (``closed`` by ``]``)."""

    closed: bool
    kind: int  # of the content block's brackets: PROTECT inside a sentence, BREAK around a block
    depth: int = 0  # plain brackets opened in it and not closed yet
    item: int = -1  # indentation of the open list item's marker, -1 without one
    heading: bool = False
    chain: bool = False  # the trailing content of a call in markup: the call may go on after it


@dataclass(slots=True)
class _Code:
    """Code: a group closed by ``)`` or ``}``, a statement (``eol``), or ``#if``, ``#for``,
    ``#while`` with their bodies (``ctrl``)."""

    closer: str
    kind: int
    body_closed: bool = False


@dataclass(slots=True)
class _Chain:
    """An expression embedded in markup after ``#``: calls, fields and trailing content."""

    kind: int


class _Scanner:
    """One pass over the document: markup and code each read on in a loop of their own while a
    frame of their kind is on top of the stack, jumping with one regular expression over the
    text between the marks that matter to them, and hand each piece to the paragraph builder."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.out = Paragraphs(text, _inline)
        self.stack: list[_Markup | _Code | _Chain] = [_Markup(closed=False, kind=BREAK)]
        self.pos = 0
        self.content_start = 0  # where the current line's content starts (after indentation)
        self.no_backticks: dict[int, int] = {}  # run length → offset past which none closes

    # -- the pass -----------------------------------------------------------------------------

    def run(self) -> list[ProseBlock]:
        top = self.stack[0]
        assert isinstance(top, _Markup)
        self._line_start(top, _LINE_START.match(self.text))
        self._markup(top)
        return self.out.finish()

    def _pop(self) -> None:
        frame = self.stack.pop()
        if self.stack:
            parent = self.stack[-1]
            body = isinstance(frame, _Markup) or (isinstance(frame, _Code) and frame.closer == "}")
            if body and isinstance(parent, _Code) and parent.closer == "ctrl":
                parent.body_closed = True

    # -- markup -------------------------------------------------------------------------------

    def _line_start(self, frame: _Markup, m: re.Match[str] | None) -> None:
        """At the start of a line, or where a content block's text starts (``m``, a match of
        :data:`_LINE_START` or :data:`_NEXT_LINE`): its indentation, then a heading's or a list
        item's marker."""
        assert m is not None  # both match where a line starts
        mark = m.start("mark")
        content = mark if mark >= 0 else m.end()
        self.pos = self.content_start = content
        if mark < 0 and frame.item < 0:  # the common case: nothing to open or to end
            return
        text = self.text
        if content >= self.n or text[content] in "\r\n":
            return
        indent = content - m.start("line")
        if frame.item >= 0 and indent <= frame.item:
            frame.item = -1
            self.out.brk()
        if mark >= 0:
            self.out.brk()
            if text[mark] == "=":
                frame.heading = True
            else:
                frame.item = indent
            self.pos = self.content_start = m.end()

    def _newline(self, frame: _Markup, at: int) -> None:
        """The line break at ``at``, the blank lines after it, and the next line's start."""
        if frame.heading:
            frame.heading = False
            self.out.brk()
        m = _NEXT_LINE.match(self.text, at)
        assert m is not None  # it matches a line break
        if m.start("blank") >= 0 or m.start("line") >= self.n:
            # a blank line ends the paragraph (and the list item)
            self.out.brk()
            frame.item = -1
        self._line_start(frame, m)

    def _markup(self, frame: _Markup) -> None:
        """The pass from :attr:`pos` to the end of the text: in markup, a run of prose, then the
        mark that ends it; the code and the expressions that open are read by their methods."""
        text, n, stack, out = self.text, self.n, self.stack, self.out
        while True:
            pos = self.pos
            prose = _PROSE_LINES if frame.item < 0 and not frame.heading else _PROSE_RUN
            at = prose.match(text, pos).end()  # type: ignore[union-attr]
            if at > pos:
                out.prose(pos, at)
            if at >= n:
                self.pos = n
                return
            c = text[at]
            self.pos = at + 1
            if c in "\r\n":
                self._newline(frame, at)
                continue  # the frame stays on top
            if c == "#":
                call = _CALL_WITH_CONTENT.match(text, at) if at != self.content_start else None
                if call is not None and call[1] not in _KEYWORDS:
                    # the common case inside a sentence, `#emph[…]`: the call and its bracket are
                    # protected, the content goes on with the sentence
                    end = call.end()
                    out.protect(at, end)
                    frame = _Markup(True, PROTECT, chain=True)
                    stack.append(frame)
                    self.pos = end
                    continue
                last = at
                if text.startswith("##", at):  # "##…": only the last one may start an expression
                    last = _HASHES.match(text, at).end() - 1  # type: ignore[union-attr]
                    out.prose(at, last)
                self._hash(last)
            elif c == "/":
                self.pos = _line_end(text, at) if text[at + 1] == "/" else self._block_comment(at)
                continue
            elif c == "h":
                self._url(at)
                continue
            elif c == "`":
                self._raw(at)
                continue
            elif c == "$":
                maths = _MATHS.match(text, at)
                end = maths.end() if maths is not None else at + 1
                out.protect(at, end)
                self.pos = end
                continue
            elif c == "[":
                end = _OPENING.match(text, at).end()  # type: ignore[union-attr]
                frame.depth += end - at
                out.protect(at, end)
                self.pos = end
                continue
            elif frame.depth > 0 or not frame.closed:  # "]" closing a plain bracket
                end = _CLOSING.match(text, at).end()  # type: ignore[union-attr]
                if frame.closed:
                    end = min(end, at + frame.depth)
                frame.depth = max(0, frame.depth - (end - at))
                out.protect(at, end)
                self.pos = end
                continue
            else:  # "]" closing the content block
                if frame.heading:
                    out.brk()
                self.out.piece(at, at + 1, frame.kind)
                self._pop()
                if frame.chain:  # the call goes on (`#f[a][b]`, `#f[a].b`) or ends here
                    after = self.pos
                    if after < n and text[after] in "([{.":
                        stack.append(_Chain(frame.kind))
                    else:
                        self._end_chain(frame.kind)
            # code and expressions on top are read by their own methods, each returning when
            # it ends or opens content; what is still open ends with the text
            while True:
                if not stack or self.pos >= n:
                    return
                top = stack[-1]
                if isinstance(top, _Markup):
                    break
                if isinstance(top, _Code):
                    self._code(top)
                else:
                    self._chain(top)
            frame = top

    def _url(self, at: int) -> None:
        m = _URL.match(self.text, at)
        end = m.end() if m is not None else at + 1
        while end > at and self.text[end - 1] in _URL_TRAIL:
            end -= 1
        url = self.text[at:end]
        while url.endswith(")") and url.count(")") > url.count("("):
            end -= 1
            url = url[:-1]
        self.out.protect(at, end)
        self.pos = end

    def _block_comment(self, at: int) -> int:
        """The end of the (nested) block comment opening at ``at`` (the end of the text if it is
        never closed)."""
        depth = 0
        for m in _COMMENT_MARK.finditer(self.text, at):
            depth += 1 if m.group() == "/*" else -1
            if depth == 0:
                return m.end()
        return self.n

    def _raw_end(self, at: int) -> tuple[int, int]:
        """The run of backticks at ``at``: where it ends, and where the next run of the same
        length ends (-1 if none does; an empty raw ````` ends where it starts)."""
        text = self.text
        run_end = _BACKTICKS.match(text, at).end()  # type: ignore[union-attr]
        k = run_end - at
        if k == 2:
            return run_end, run_end
        if self.no_backticks.get(k, self.n + 1) <= at:
            return run_end, -1
        ticks = "`" * k
        # the first occurrence of k backticks starts a run (none is just before it)
        close = text.find(ticks, run_end)
        while close >= 0:
            close_end = _BACKTICKS.match(text, close).end()  # type: ignore[union-attr]
            if close_end - close == k:
                return run_end, close_end
            close = text.find(ticks, close_end)
        self.no_backticks[k] = at
        return run_end, -1

    def _raw(self, at: int) -> None:
        """Raw text from the run of backticks at ``at``: to the next run of the same length."""
        run_end, end = self._raw_end(at)
        if end < 0:  # never closed: the backticks are kept as they are, the text read on
            self.out.protect(at, run_end)
            self.pos = run_end
            return
        if run_end - at >= 3 and _LINE_BREAK.search(self.text, run_end, end) is not None:
            self.out.brk()  # a raw block (three backticks or more, over lines)
        else:
            self.out.protect(at, end)
        self.pos = end

    # -- embedded code ------------------------------------------------------------------------

    def _hash(self, at: int) -> None:
        """An expression embedded in markup at ``at`` (the ``#``)."""
        text = self.text
        start = at + 1
        line_start = at == self.content_start
        ident = _IDENT.match(text, start)
        if ident is not None:
            name, name_end = ident.group(), ident.end()
            if name == "context":  # a prefix: the expression after it decides
                after = _skip_spaces(text, name_end)
                name_m = _IDENT.match(text, after)
                if name_m is None and (after >= self.n or text[after] not in "([{"):
                    self._statement(at, name_end, BREAK if line_start else PROTECT, "eol")
                    return
                if name_m is None:
                    kind = BREAK if line_start else PROTECT
                    self.out.piece(at, after, kind)
                    self.pos = after
                    self.stack.append(_Chain(kind))
                    return
                name, name_end = name_m.group(), name_m.end()
            if name in _STATEMENTS:
                self._statement(at, name_end, BREAK if line_start else PROTECT, "eol")
            elif name in _CONTROL:
                self._statement(at, name_end, BREAK if line_start else PROTECT, "ctrl")
            else:
                kind = BREAK if line_start and name not in INLINE_FUNCTIONS else PROTECT
                end = name_end
                self.out.piece(at, end, kind)
                self.pos = end
                if end < self.n and text[end] == "[":  # trailing content, the common case
                    self._open_content(end, kind, chain=True)
                else:
                    self.stack.append(_Chain(kind))
            return
        if start < self.n and text[start] in "([{":
            kind = BREAK if line_start and text[start] != "[" else PROTECT
            self.out.piece(at, start, kind)
            self.pos = start
            self.stack.append(_Chain(kind))
        elif start < self.n and text[start] == '"':
            s = _STRING_REST.match(text, start + 1)
            end = s.end() if s is not None else self.n
            self.out.protect(at, end)
            self.pos = end
        else:
            self.out.prose(at, start)  # a "#" that starts no expression is text
            self.pos = start

    def _statement(self, at: int, end: int, kind: int, closer: str) -> None:
        self.out.piece(at, end, kind)
        self.pos = end
        self.stack.append(_Code(closer, kind))

    def _chain(self, frame: _Chain) -> None:
        """After a part of an embedded expression: a call, a content block or a field may go
        on with it; anything else ends it."""
        text, pos = self.text, self.pos
        c = text[pos]
        if c in "({":
            self.out.piece(pos, pos + 1, frame.kind)
            self.pos = pos + 1
            self.stack.append(_Code(")" if c == "(" else "}", frame.kind))
            return
        if c == "[":
            self._open_content(pos, frame.kind)
            return
        if c == "." and pos + 1 < self.n:
            m = _IDENT.match(text, pos + 1)
            if m is not None:
                self.out.piece(pos, m.end(), frame.kind)
                self.pos = m.end()
                return
        self.stack.pop()
        self._end_chain(frame.kind)

    def _end_chain(self, kind: int) -> None:
        """Where an embedded expression ends: a block-level one ends its block, with the label
        after it (`) <fig:sun>`), which is left out."""
        if kind == BREAK:
            self.out.brk()
            label = _TRAILING_LABEL.match(self.text, self.pos)
            if label is not None:
                self.pos = label.end()

    def _open_content(self, at: int, kind: int, chain: bool = False) -> None:
        self.out.piece(at, at + 1, kind)
        self.pos = at + 1
        content = _Markup(closed=True, kind=kind, chain=chain)
        self.stack.append(content)
        if kind == BREAK:  # a block of its own: its first line may be a heading or an item
            self._line_start(content, _LINE_START.match(self.text, at + 1))

    def _code(self, frame: _Code) -> None:
        """Code from :attr:`pos`, as long as a code frame is on top of the stack, jumping from
        one mark that matters to code to the next. Inside a sentence the code is protected; the
        code of a block-level expression is outside the paragraphs (its ``#`` ended the one before
        it, and a group or content it opens has the same kind)."""
        text, stack, out = self.text, self.stack, self.out
        kind = frame.kind
        inside = kind == PROTECT
        while True:
            pos = self.pos
            statement = frame.closer == "eol" or frame.closer == "ctrl"
            if frame.body_closed:
                frame.body_closed = False
                if _ELSE.match(text, pos) is None:
                    stack.pop()
                    if kind == BREAK:
                        out.brk()
                    return
            m = _CODE_SPECIAL.search(text, pos)
            if m is None:
                if inside:
                    out.protect(pos, self.n)
                self.pos = self.n
                return
            at = m.start()
            c = text[at]
            if c == "(" or c == "{":  # a group opens
                if inside:
                    out.protect(pos, at + 1)
                self.pos = at + 1
                frame = _Code(")" if c == "(" else "}", kind)
                stack.append(frame)
                continue
            if c == "[":  # content
                if inside:
                    out.protect(pos, at)
                self._open_content(at, kind)
                return
            if c == "]" or (statement and c in ")}\r\n;"):
                # the end of a statement, or of something around this code: the frame below
                # reads the mark
                end = at + 1 if c == ";" else at
                if inside:
                    out.protect(pos, end)
                self.pos = end
                stack.pop()
                if kind == BREAK and statement:
                    out.brk()
                return
            if c == ")" or c == "}":
                if inside:
                    out.protect(pos, at + 1)
                self.pos = at + 1
                if c == frame.closer:  # the group closes
                    self._pop()
                    top = stack[-1] if stack else None
                    if not isinstance(top, _Code):
                        return
                    frame = top  # the group's parent, of the group's kind
                continue
            if c == "/":
                end = _line_end(text, at) if text[at + 1] == "/" else self._block_comment(at)
            elif c == '"':
                s = _STRING_REST.match(text, at + 1)
                end = s.end() if s is not None else self.n
            elif c == "$":
                close = _MATH_REST.match(text, at + 1)
                end = close.end() if close is not None else at + 1
            elif c == "`":
                run_end, end = self._raw_end(at)
                if end < 0:
                    end = run_end
            else:  # a line break inside a group
                end = m.end()
            if inside:
                out.protect(pos, end)
            self.pos = end


def _skip_spaces(text: str, pos: int) -> int:
    """The offset of the first character at or after ``pos`` that is no space or tab."""
    m = _SPACES.match(text, pos)
    return pos if m is None else m.end()


def _line_end(text: str, at: int) -> int:
    """The offset of the line break ending the line that holds ``at`` (or the text's end)."""
    n = text.find("\n", at)
    r = text.find("\r", at, n if n >= 0 else len(text))
    if r >= 0:
        return r
    return n if n >= 0 else len(text)


def typst_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of a Typst document, in document order."""
    require_text(text)
    return _Scanner(text).run()


def _inline(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if _INLINE_MARK.search(text, start, end) is None:  # a paragraph without marks: no search
        return []
    return [m.span() for m in _INLINE.finditer(text, start, end)]


register_format("typst", typst_blocks, extensions=(".typ",))
