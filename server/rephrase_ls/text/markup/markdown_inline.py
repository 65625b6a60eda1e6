"""Markdown inline content: the spans inside prose that must come back unchanged.

Code spans, escapes, autolinks, inline HTML, images, footnote references, link brackets,
destinations and titles, ``$…$`` math, bare URLs, entities, emphasis markers, attribute lists,
template tags, admonition, content tab and container marks, and emoji short codes.
"""

from __future__ import annotations

import re

__all__ = ["ATTRIBUTE_LIST", "inline_protected"]

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
    # code span: a whole run of ticks (not its tail: "```" left open is text), its closing run
    r"`(?<!``)(`*)(?!`)" + _ANY + r"+?(?<!`)`\1(?!`)",
    r"<(?:[A-Za-z][A-Za-z0-9.+-]{1,31}:[^\s<>]*>"  # URI autolink
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?>"
    # an HTML comment, processing instruction, declaration, CDATA section (none holds the
    # opening of another of its kind: an unclosed one is read to the next opening, not to the
    # end of the text from each of many)
    r"|!--(?:(?!<!--)" + _ANY + r")*?-->|\?(?:(?!<\?)" + _ANY + r")*?\?>|![A-Za-z][^>]*>"
    r"|!\[CDATA\[(?:(?!<!\[CDATA\[)" + _ANY + r")*?\]\]>"
    r"|/?[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][\w.:-]*"
    r"""(?:\s*=\s*(?:[^\s"'=<>`]+|'[^']*'|"[^"]*"))?)*\s*/?>)""",  # inline HTML tag
    # an admonition's mark and type (!!! note "Title"; Python-Markdown also reads !!!note)
    r"!!!\+?[ \t]*[\w-]+" + _TYPE_END + ""
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
    r"\?\?\?\+?[ \t]*[\w-]+" + _TYPE_END,  # a collapsible admonition's (??? note, ???note)
    r'===(?:\+!?|!\+?)?[ \t]+(?=")',  # a content tab's mark, before its title (=== "Tab")
    r"///+(?:[ \t]*[\w-]+(?:[ \t]*\|)?)?",  # a block's fence and type (pymdownx: /// tip | Title)
    r":::+(?:[ \t]*\{[^{}\n]*\}|[ \t]*[\w-]+)?"  # a fenced div / container fence and its class
    r"|:[a-z0-9_+-]{2,}:(?![\w:])",  # emoji short code (:warning:)
    r"\*\**",  # emphasis markers
    r"~~+",  # strikethrough markers
    r"__*",  # emphasis marker unless inside a word (checked by inline_protected)
)
_INLINE = re.compile(("|".join(_INLINE_ALTERNATIVES)).replace("[^", "[^\x00"))
# Bare URLs are found by a second pass that looks for "://" and "www." (a literal search rather
# than stopping at every h, f and w), then reads the scheme before and the rest after.
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


def inline_protected(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Spans of ``text[start:end]`` (Markdown inline content) that must come back unchanged.

    Code spans, escapes, autolinks, inline HTML, images, footnote references, link brackets,
    link destinations and titles, math, bare URLs, entities and emphasis markers; an underscore
    run between two letters or digits (``snake_case``) is part of the word, not a marker.
    Sorted by start; spans may overlap (a URL inside a code span), which make_block merges.
    """
    if end is None:
        end = len(text)
    spans = [m.span() for m in _INLINE.finditer(text, start, end)]
    if text.find("_", start, end) >= 0:
        # `snake_case`: an underscore run between two letters or digits is part of the word
        spans = [
            span for span in spans if text[span[0]] != "_" or not _in_word(text, *span, start, end)
        ]
    urls: list[tuple[int, int]] = []
    find = text.find
    rest_match = _URL_REST.match
    pos = find("://", start, end)
    while pos >= 0:
        after = pos + 3
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
