"""Prose in HTML, found by one linear scan of the tags (no tree is built).

Prose: the text of the document's elements, split into paragraphs at the tags of block-level
elements (:data:`BLOCK_ELEMENTS`: ``<p>``, ``<h1>``…``<h6>``, ``<li>``, ``<td>``, ``<th>``,
``<blockquote>``, ``<div>``, ``<br>``…, opening or closing) and at blank lines: a paragraph, a
heading, a list item, a table cell is a block of its own.

Not prose: the elements of :data:`SKIPPED_ELEMENTS` with all they hold (``<head>``, ``<script>``,
``<style>``, ``<pre>``, ``<textarea>``, ``<template>``, ``<svg>``…), comments, the doctype and
CDATA sections. Inside prose, the tags of inline elements (``<a href="…">``, ``<em>``, ``<span
class="…">``, ``<img …>``; attributes included), the elements of :data:`OPAQUE_ELEMENTS` with
their content (``<code>``, ``<kbd>``, ``<samp>``, ``<var>``, ``<math>``), processing
instructions and server-side scripts (``<?php … ?>``), character references (``&amp;``,
``&#160;``), URLs and template tags (``{{ user.name }}``, ``{% if x %}``) are protected.

Tags are read as browsers read them: a quoted attribute value may hold ``>``; a tag, comment or
skipped element that is never closed runs to the end of the document (and so is not prose).
Linear: each search for an element's end tag is made once past the point where it was not found.
"""

from __future__ import annotations

import re

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.lines import require_text
from rephrase_ls.text.markup.pieces import BREAK, PROSE, PROTECT, Piece, blocks_from_pieces
from rephrase_ls.text.markup.registry import register_format

__all__ = ["BLOCK_ELEMENTS", "OPAQUE_ELEMENTS", "SKIPPED_ELEMENTS", "html_blocks"]

#: Elements whose tags (opening and closing) end a paragraph.
BLOCK_ELEMENTS = frozenset(
    (
        "address", "article", "aside", "base", "blockquote", "body", "br", "caption", "center",
        "col", "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "embed",
        "fieldset", "figcaption", "figure", "footer", "form", "frame", "frameset", "h1", "h2",
        "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "html", "input", "legend", "li",
        "link", "main", "menu", "meta", "nav", "ol", "optgroup", "option", "p", "param",
        "search", "section", "source", "summary", "table", "tbody", "td", "tfoot", "th",
        "thead", "tr", "track", "ul",
    )
)  # fmt: skip
#: Elements whose content is not prose: skipped whole, with their tags.
SKIPPED_ELEMENTS = frozenset(
    (
        "applet", "audio", "canvas", "head", "iframe", "map", "noembed", "noframes", "noscript",
        "object", "picture", "plaintext", "pre", "script", "select", "style", "svg", "template",
        "textarea", "title", "video", "xmp", "listing",
    )
)  # fmt: skip
#: Elements kept inside their sentence but protected whole, content included.
OPAQUE_ELEMENTS = frozenset(("code", "kbd", "samp", "var", "math", "tt"))

# A tag's attributes as the HTML tokenizer reads them (a value quoted after "=" may hold ">"; a
# quote elsewhere is a character of a name or an unquoted value), then its end.
_ATTRIBUTES = r"(?:[^>=]|=[ \t\r\n]*+\"[^\"]*+\"|=[ \t\r\n]*+'[^']*+'|=)*+>"
_START_TAG = re.compile(rf"<([A-Za-z][^\s/>]*+){_ATTRIBUTES}")
# A whole tag (start or end); other markup (a comment, a doctype, a tag never closed); a line
# break with blank lines after it (a paragraph's end).
_TOKEN = re.compile(
    rf"<(/?)([A-Za-z][^\s/>]*+){_ATTRIBUTES}|<[A-Za-z!?/]|(?:\r\n|\r|\n)(?:[ \t]*(?:\r\n|\r|\n))+"
)
_END_TAG = re.compile(r"</([A-Za-z][^\s/>]*+)[^>]*+>")
# What prose protects, found in each paragraph: character references, URLs, and the tags of the
# template languages HTML files are written in (Jinja, Django, Liquid, Handlebars, Angular, Vue:
# `{{ user.name }}`, `{% if x %}`, `{# note #}`; a tag holds no brace, so that many unclosed
# `{{` cost linear time).
_INLINE = re.compile(
    r"&(?:#[0-9]{1,8}|#[xX][0-9A-Fa-f]{1,8}|[A-Za-z][A-Za-z0-9]{0,31});"
    r"|https?://[^\s<>\"]*[^\s<>\".,;:!?')\]]"
    r"|\{(?:\{[^{}]*\}\}|%[^{}]*%\}|#[^{}]*#\})"
)


class _Scanner:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.pieces: list[Piece] = []
        self.closers: dict[str, re.Pattern[str]] = {}
        self.unclosed: dict[str, int] = {}  # element → offset past which its end tag is absent

    def emit(self, start: int, end: int, kind: int) -> None:
        pieces = self.pieces
        if kind != BREAK and pieces and pieces[-1][2] == kind and pieces[-1][1] == start:
            pieces[-1] = (pieces[-1][0], end, kind)  # one piece for a run of one kind
        else:
            pieces.append((start, end, kind))

    def _end_of(self, name: str, start: int) -> int:
        """The end of the end tag ``</name>`` after ``start``, or -1 when there is none."""
        if self.unclosed.get(name, self.n + 1) <= start:
            return -1
        closer = self.closers.get(name)
        if closer is None:
            closer = re.compile(rf"</{re.escape(name)}(?![^\s/>])[^>]*+>", re.IGNORECASE)
            self.closers[name] = closer
        m = closer.search(self.text, start)
        if m is None:
            self.unclosed[name] = start
            return -1
        return m.end()

    def run(self) -> list[Piece]:
        text, n = self.text, self.n
        emit = self.emit
        pos = 0
        while pos < n:
            m = _TOKEN.search(text, pos)
            if m is None:
                emit(pos, n, PROSE)
                break
            at = m.start()
            if at > pos:
                emit(pos, at, PROSE)
            name = m.group(2)
            if name is not None:  # a whole tag, the common case
                pos = self._element(at, m.end(), name.lower(), bool(m.group(1)))
            elif text[at] == "<":
                pos = self._tag(at)
            else:  # blank lines
                emit(m.end(), m.end(), BREAK)
                pos = m.end()
        return self.pieces

    def _element(self, at: int, end: int, name: str, closing: bool) -> int:
        """The tag ``text[at:end]`` of the element ``name``; the offset after what it takes."""
        if not closing:
            if name in SKIPPED_ELEMENTS:
                close = self._end_of(name, end)
                end = self.n if close < 0 else close
                self.emit(at, end, BREAK)
                return end
            if name in OPAQUE_ELEMENTS and not self.text.startswith("/>", end - 2):
                close = self._end_of(name, end)
                if close >= 0:
                    end = close
        self.emit(at, end, BREAK if name in BLOCK_ELEMENTS else PROTECT)
        return end

    def _tag(self, at: int) -> int:
        """Read the markup at ``at`` (a ``<``); the offset after it."""
        text, n = self.text, self.n
        if text.startswith("<!--", at):
            close = text.find("-->", at + 4)
            end = n if close < 0 else close + 3
            return end  # a comment: kept as it is, neither prose nor a paragraph's end
        nxt = text[at + 1] if at + 1 < n else ""
        if nxt in ("!", "?") or (nxt == "/" and not text[at + 2 : at + 3].isalpha()):
            # doctype, CDATA, a processing instruction, a bogus comment
            if text.startswith("<![CDATA[", at):
                close = text.find("]]>", at)
                end = n if close < 0 else close + 3
            elif nxt == "?" and self.unclosed.get("?>", n + 1) > at:
                # a server-side script (<?php … ?>) may hold ">": it ends at "?>"
                close = text.find("?>", at + 2)
                if close < 0:
                    self.unclosed["?>"] = at
                    close = text.find(">", at)
                    end = n if close < 0 else close + 1
                else:
                    end = close + 2
            else:
                close = text.find(">", at)
                end = n if close < 0 else close + 1
            self.emit(at, end, PROTECT if nxt == "?" else BREAK)
            return end
        if nxt == "/":
            m = _END_TAG.match(text, at)
            if m is None:  # never closed: the rest is inside the tag
                self.emit(at, n, BREAK)
                return n
            return self._element(at, m.end(), m.group(1).lower(), True)
        m = _START_TAG.match(text, at)
        if m is None:  # never closed: the rest is inside the tag
            self.emit(at, n, BREAK)
            return n
        return self._element(at, m.end(), m.group(1).lower(), False)


def html_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of an HTML document, in document order."""
    require_text(text)
    return blocks_from_pieces(text, _Scanner(text).run(), _inline)


def _inline(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return [m.span() for m in _INLINE.finditer(text, start, end)]


register_format("html", html_blocks, extensions=(".html", ".htm", ".xhtml"))
