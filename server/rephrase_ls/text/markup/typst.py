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
text, and each kind is searched for only once past the point where it was not found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import require_text
from rephrase_ls.text.markup.pieces import BREAK, PROSE, PROTECT, Piece, blocks_from_pieces
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
# (Each alternative starts with its mark, the look behind coming after it: the search then skips
# the text between marks in C.)
_INLINE = re.compile(
    r"<[\w.:-]+>|@(?<![^\W_]@)[\w.:-]*[\w-]"
    r"|[*_](?:(?<![^\W_][*_])[*_]*|[*_]*(?![^\W_]))|~+|-\?"
    r"|(?:\\(?:u\{[0-9A-Fa-f]{0,8}\}|\S|))+"
)
_MATHS = re.compile(r"(?:\$(?:[^$\\]|\\.)*+\$)+", re.DOTALL)
_HASHES = re.compile(r"#+")
_OPENING = re.compile(r"\[+")
_CLOSING = re.compile(r"\]+")
_CODE_SPECIAL = re.compile(r"//|/\*|[\"`$\[\](){}\r\n;]")
_URL = re.compile(r"https?://[^\s\[\]<>\"]*")
_URL_TRAIL = ".,;:!?'"
# A line's indentation, then the marker of a heading or of a list, enumeration or term item
_LINE_START = re.compile(r"[ \t]*+(?P<mark>(?:=+|[-+/]|[0-9]+\.)(?:[ \t]+|(?=[\r\n]|\Z)))?")
_SPACES = re.compile(r"[ \t]*")
_TRAILING_LABEL = re.compile(r"[ \t]*<[\w.:-]+>")
_BLANK_LINES = re.compile(r"(?:[ \t]*(?:\r\n|\r|\n))+")
_BACKTICKS = re.compile(r"`+")
_MATH_REST = re.compile(r"(?:[^$\\]|\\.)*+\$", re.DOTALL)
_STRING_REST = re.compile(r"(?:[^\"\\]|\\.)*+(?:\"|\Z)", re.DOTALL)
_COMMENT_MARK = re.compile(r"/\*|\*/")
_ELSE = re.compile(r"[ \t]*else\b")


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
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.pieces: list[Piece] = []
        self.stack: list[_Markup | _Code | _Chain] = [_Markup(closed=False, kind=BREAK)]
        self.pos = 0
        self.content_start = 0  # where the current line's content starts (after indentation)
        self.no_backticks: dict[int, int] = {}  # run length → offset past which none closes

    # -- output -------------------------------------------------------------------------------

    def emit(self, start: int, end: int, kind: int) -> None:
        pieces = self.pieces
        if kind == BREAK:
            pieces.append((start, end, kind))
        elif end > start:
            if pieces and pieces[-1][2] == kind and pieces[-1][1] == start:
                pieces[-1] = (pieces[-1][0], end, kind)  # one piece for a run of one kind
            else:
                pieces.append((start, end, kind))

    # -- the pass -----------------------------------------------------------------------------

    def run(self) -> list[Piece]:
        top = _Markup(closed=False, kind=BREAK)
        self.stack = [top]
        self._line_start(top, 0)
        n = self.n
        while self.stack:
            if self.pos >= n:  # what is still open ends with the text: nothing more to emit
                break
            frame = self.stack[-1]
            if isinstance(frame, _Markup):
                self._markup(frame)
            elif isinstance(frame, _Code):
                self._code(frame)
            else:
                self._chain(frame)
        return self.pieces

    def _pop(self) -> None:
        frame = self.stack.pop()
        if self.stack:
            parent = self.stack[-1]
            body = isinstance(frame, _Markup) or (isinstance(frame, _Code) and frame.closer == "}")
            if body and isinstance(parent, _Code) and parent.closer == "ctrl":
                parent.body_closed = True

    # -- markup -------------------------------------------------------------------------------

    def _line_start(self, frame: _Markup, begin: int) -> None:
        """At the start of a line (``begin``, or where a content block's text starts): its
        indentation, then a heading's or a list item's marker."""
        text = self.text
        m = _LINE_START.match(text, begin)
        assert m is not None  # it matches the empty string
        mark = m.start(1)
        content = mark if mark >= 0 else m.end()
        self.pos = self.content_start = content
        if mark < 0 and frame.item < 0:  # the common case: nothing to open or to end
            return
        if content >= self.n or text[content] in "\r\n":
            return
        indent = content - begin
        if frame.item >= 0 and indent <= frame.item:
            frame.item = -1
            self.emit(content, content, BREAK)
        if mark >= 0:
            self.emit(mark, mark, BREAK)
            if text[mark] == "=":
                frame.heading = True
            else:
                frame.item = indent
            self.pos = self.content_start = m.end()

    def _newline(self, frame: _Markup, at: int) -> None:
        text = self.text
        end = at + 2 if text.startswith("\r\n", at) else at + 1
        if frame.heading:
            frame.heading = False
            self.emit(at, at, BREAK)
        blanks = _BLANK_LINES.match(text, end)
        if blanks is not None or end >= self.n:
            # a blank line ends the paragraph (and the list item)
            self.emit(end, end, BREAK)
            frame.item = -1
            if blanks is not None:
                end = blanks.end()
        self._line_start(frame, end)

    def _markup(self, frame: _Markup) -> None:
        text = self.text
        pos = self.pos
        prose = _PROSE_LINES if frame.item < 0 and not frame.heading else _PROSE_RUN
        at = prose.match(text, pos).end()  # type: ignore[union-attr]
        if at > pos:
            self.emit(pos, at, PROSE)
        if at >= self.n:
            self.pos = self.n
            return
        c = text[at]
        self.pos = at + 1
        if c in "\r\n":
            self._newline(frame, at)
        elif c == "/":
            self.pos = _line_end(text, at) if text[at + 1] == "/" else self._block_comment(at)
        elif c == "h":
            self._url(at)
        elif c == "`":
            self._raw(at)
        elif c == "$":
            maths = _MATHS.match(text, at)
            end = maths.end() if maths is not None else at + 1
            self.emit(at, end, PROTECT)
            self.pos = end
        elif c == "#":
            call = _CALL_WITH_CONTENT.match(text, at)
            if call is not None and at != self.content_start and call.group(1) not in _KEYWORDS:
                # the common case inside a sentence, `#emph[…]`: the call and its bracket are
                # protected, the content goes on with the sentence
                end = call.end()
                self.emit(at, end, PROTECT)
                self.stack.append(_Markup(True, PROTECT, chain=True))
                self.pos = end
                return
            last = at
            if text.startswith("##", at):  # "##…": only the last one may start an expression
                last = _HASHES.match(text, at).end() - 1  # type: ignore[union-attr]
                self.emit(at, last, PROSE)
            self._hash(last)
        elif c == "[":
            end = _OPENING.match(text, at).end()  # type: ignore[union-attr]
            frame.depth += end - at
            self.emit(at, end, PROTECT)
            self.pos = end
        elif frame.depth > 0 or not frame.closed:  # "]" closing a plain bracket
            end = _CLOSING.match(text, at).end()  # type: ignore[union-attr]
            if frame.closed:
                end = min(end, at + frame.depth)
            frame.depth = max(0, frame.depth - (end - at))
            self.emit(at, end, PROTECT)
            self.pos = end
        else:  # "]" closing the content block
            if frame.heading:
                self.emit(at, at, BREAK)
            self.emit(at, at + 1, frame.kind)
            self._pop()
            if frame.chain:  # the call goes on (`#f[a][b]`, `#f[a].b`) or ends here
                after = self.pos
                if after < self.n and text[after] in "([{.":
                    self.stack.append(_Chain(frame.kind))
                else:
                    self._end_chain(frame.kind)

    def _url(self, at: int) -> None:
        m = _URL.match(self.text, at)
        end = m.end() if m is not None else at + 1
        while end > at and self.text[end - 1] in _URL_TRAIL:
            end -= 1
        url = self.text[at:end]
        while url.endswith(")") and url.count(")") > url.count("("):
            end -= 1
            url = url[:-1]
        self.emit(at, end, PROTECT)
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

    def _raw(self, at: int) -> None:
        """Raw text from the run of backticks at ``at``: to the next run of the same length."""
        text = self.text
        run = _BACKTICKS.match(text, at)
        assert run is not None
        k = run.end() - at
        if k == 2:  # an empty raw
            self.emit(at, run.end(), PROTECT)
            self.pos = run.end()
            return
        end = -1
        if self.no_backticks.get(k, self.n + 1) > at:
            for close in _BACKTICKS.finditer(text, run.end()):
                if close.end() - close.start() == k:
                    end = close.end()
                    break
            if end < 0:
                self.no_backticks[k] = at
        if end < 0:  # never closed: the backticks are kept as they are, the text read on
            self.emit(at, run.end(), PROTECT)
            self.pos = run.end()
            return
        multiline = any(ch in "\r\n" for ch in text[at:end]) if k >= 3 else False
        self.emit(at, end, BREAK if multiline else PROTECT)
        self.pos = end

    # -- embedded code ------------------------------------------------------------------------

    def _hash(self, at: int) -> None:
        """An expression embedded in markup at ``at`` (the ``#``)."""
        text = self.text
        start = at + 1
        line_start = at == self.content_start
        m = _IDENT.match(text, start)
        if m is not None:
            name = m.group()
            if name == "context":  # a prefix: the expression after it decides
                after = _skip_spaces(text, m.end())
                name_m = _IDENT.match(text, after)
                if name_m is None and (after >= self.n or text[after] not in "([{"):
                    self._statement(at, m.end(), BREAK if line_start else PROTECT, "eol")
                    return
                m = name_m
                if m is None:
                    kind = BREAK if line_start else PROTECT
                    self.emit(at, after, kind)
                    self.pos = after
                    self.stack.append(_Chain(kind))
                    return
                name = m.group()
            if name in _STATEMENTS:
                self._statement(at, m.end(), BREAK if line_start else PROTECT, "eol")
            elif name in _CONTROL:
                self._statement(at, m.end(), BREAK if line_start else PROTECT, "ctrl")
            else:
                kind = BREAK if line_start and name not in INLINE_FUNCTIONS else PROTECT
                end = m.end()
                self.emit(at, end, kind)
                self.pos = end
                if end < self.n and text[end] == "[":  # trailing content, the common case
                    self._open_content(end, kind, chain=True)
                else:
                    self.stack.append(_Chain(kind))
            return
        if start < self.n and text[start] in "([{":
            kind = BREAK if line_start and text[start] != "[" else PROTECT
            self.emit(at, start, kind)
            self.pos = start
            self.stack.append(_Chain(kind))
        elif start < self.n and text[start] == '"':
            s = _STRING_REST.match(text, start + 1)
            end = s.end() if s is not None else self.n
            self.emit(at, end, PROTECT)
            self.pos = end
        else:
            self.emit(at, start, PROSE)  # a "#" that starts no expression is text
            self.pos = start

    def _statement(self, at: int, end: int, kind: int, closer: str) -> None:
        self.emit(at, end, kind)
        self.pos = end
        self.stack.append(_Code(closer, kind))

    def _chain(self, frame: _Chain) -> None:
        """After a part of an embedded expression: a call, a content block or a field may go
        on with it; anything else ends it."""
        text, pos = self.text, self.pos
        c = text[pos]
        if c in "({":
            self.emit(pos, pos + 1, frame.kind)
            self.pos = pos + 1
            self.stack.append(_Code(")" if c == "(" else "}", frame.kind))
            return
        if c == "[":
            self._open_content(pos, frame.kind)
            return
        if c == "." and pos + 1 < self.n:
            m = _IDENT.match(text, pos + 1)
            if m is not None:
                self.emit(pos, m.end(), frame.kind)
                self.pos = m.end()
                return
        self.stack.pop()
        self._end_chain(frame.kind)

    def _end_chain(self, kind: int) -> None:
        """Where an embedded expression ends: a block-level one ends its block, with the label
        after it (`) <fig:sun>`)."""
        if kind == BREAK:
            pos = self.pos
            label = _TRAILING_LABEL.match(self.text, pos)
            end = pos if label is None else label.end()
            self.emit(pos, end, BREAK)
            self.pos = end

    def _open_content(self, at: int, kind: int, chain: bool = False) -> None:
        self.emit(at, at + 1, kind)
        self.pos = at + 1
        content = _Markup(closed=True, kind=kind, chain=chain)
        self.stack.append(content)
        if kind == BREAK:  # a block of its own: its first line may be a heading or an item
            self._line_start(content, at + 1)

    def _code(self, frame: _Code) -> None:
        text = self.text
        pos = self.pos
        if frame.body_closed:
            frame.body_closed = False
            m = _ELSE.match(text, pos)
            if m is None:
                self.stack.pop()
                if frame.kind == BREAK:
                    self.emit(pos, pos, BREAK)
                return
        m = _CODE_SPECIAL.search(text, pos)
        if m is None:
            self.emit(pos, self.n, frame.kind)
            self.pos = self.n
            return
        at = m.start()
        token = m.group()
        c = token[0]
        if c in "\r\n;" and frame.closer in ("eol", "ctrl"):
            end = at + 1 if c == ";" else at
            self.emit(pos, end, frame.kind)
            self.pos = end
            self.stack.pop()
            if frame.kind == BREAK:
                self.emit(end, end, BREAK)
            return
        if c == "]" or (c in ")}" and frame.closer in ("eol", "ctrl")):
            # closes something around this code: end it here, the frame below reads the mark
            self.emit(pos, at, frame.kind)
            self.pos = at
            self.stack.pop()
            if frame.kind == BREAK and frame.closer in ("eol", "ctrl"):
                self.emit(at, at, BREAK)
            return
        if c == "[":
            self.emit(pos, at, frame.kind)
            self._open_content(at, frame.kind)
            return
        end = m.end()
        if c in ")}":
            self.emit(pos, end, frame.kind)
            self.pos = end
            if c == frame.closer:
                self._pop()
            return
        if c in "({":
            self.emit(pos, end, frame.kind)
            self.pos = end
            self.stack.append(_Code(")" if c == "(" else "}", frame.kind))
            return
        if token == "//":
            end = _line_end(text, at)
        elif token == "/*":
            end = self._block_comment(at)
        elif c == '"':
            s = _STRING_REST.match(text, at + 1)
            end = s.end() if s is not None else self.n
        elif c == "$":
            close = _MATH_REST.match(text, at + 1)
            end = close.end() if close is not None else at + 1
        elif c == "`":
            run = _BACKTICKS.match(text, at)
            assert run is not None
            k = run.end() - at
            end = run.end()
            if k != 2 and self.no_backticks.get(k, self.n + 1) > at:
                for close_run in _BACKTICKS.finditer(text, run.end()):
                    if close_run.end() - close_run.start() == k:
                        end = close_run.end()
                        break
                else:
                    self.no_backticks[k] = at
        self.emit(pos, end, frame.kind)
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
    return blocks_from_pieces(text, _Scanner(text).run(), _inline)


def _inline(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [m.span() for m in _INLINE.finditer(text, start, end)]


register_format("typst", typst_blocks, extensions=(".typ",))
