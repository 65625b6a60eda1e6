"""Pathological texts for bench_hostile.py and tests/unit/engine/test_engine_hostile.py.

Each generator makes a text of exactly ``n`` characters that stresses one way a tokenizer, a
regular expression or a loop can go super-linear: a long run of one mark (each position a
token that fails the same long alternative), alternations that glue into one long run, very
long words, long runs of spaces, digits, URL and address pieces, apostrophes and quotes
without their closing marks, mixed scripts, and shuffled mixes of all of them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

Generator = Callable[[int], str]


def _repeat(unit: str) -> Generator:
    return lambda n: (unit * (n // len(unit) + 1))[:n]


def _framed(head: str, fill: str, tail: str) -> Generator:
    """``head``, then ``fill`` repeated, then ``tail``: one long item inside ordinary text."""
    return lambda n: head + _repeat(fill)(n - len(head) - len(tail)) + tail


def _shuffled(pieces: list[str], seed: int) -> Generator:
    def make(n: int) -> str:
        rng = random.Random(seed)
        out: list[str] = []
        size = 0
        while size < n:
            piece = rng.choice(pieces)
            out.append(piece)
            size += len(piece)
        return "".join(out)[:n]

    return make


_MARKS = "-([{«„‚“‘»'\"`.!?,:;/\\@_*#|<~=+%&$^"
_ODD_PIECES = [
    "-", "--", "(", "[", "{", "{{", "{{1}}", "«", "„", "‚", "“", "‘", "'", "’", "\"", "`",
    "``", "@", "a@", "http://", "www.", "://", ".", "..", "a.", "a.B", "-1", "1", "_", "\\",
    "/", "~/", "a/", " ", "  ", "\t", "\n", "\u00a0", "a", "A", "é", "Ж", "漢", "\u0301", "😀",
    "\ue001", "I ", "the ", "Ab. ", ":a:", "|a", "<a", "*",
]  # fmt: skip
_MARKUP_PIECES = [
    "#", "#a", "[", "]", "(", ")", "{", "}", "\"", "`", "```", "$", "/*", "*/", "//", "<", ">",
    "<a", "</", "<p>", "<!--", "-->", "&", "&amp;", "=", "= ", "- ", "\n", "\n\n", " ", "a", "@a",
]  # fmt: skip

GENERATORS: dict[str, Generator] = {
    **{f"run of {mark!r}": _repeat(mark) for mark in _MARKS},
    "run of '’'": _repeat("’"),
    "run of '”'": _repeat("”"),
    "alternation 'a-'": _repeat("a-"),
    "alternation 'a.B'": _repeat("a.B"),
    "alternation '..a'": _repeat("..a"),
    "alternation 'a+'": _repeat("a+"),
    "alternation 'a@'": _repeat("a@"),
    "alternation 'a:'": _repeat("a:"),
    "alternation '-1'": _repeat("-1"),
    "alternation ':a'": _repeat(":a"),
    "alternation '(a'": _repeat("(a"),
    "alternation '«a '": _repeat("«a "),
    "alternation \"'a \"": _repeat("'a "),
    "alternation '|a'": _repeat("|a"),
    "alternation '<a'": _repeat("<a"),
    "alternation 'aB'": _repeat("aB"),
    "alternation '_-'": _repeat("_-"),
    "one long word": _repeat("a"),
    "one long capitalised word": _framed("The ", "a", "."),
    "one long word, Cyrillic": _repeat("Ж"),
    "one long word, CJK": _repeat("漢"),
    "one long hyphenated word": _repeat("ab-"),
    "many spaces": _framed("A", " ", "b."),
    "many tabs and no-break spaces": _repeat("\t\u00a0"),
    "many line breaks": _repeat("\n"),
    "many CRLF": _repeat("\r\n"),
    "long run of digits": _repeat("1"),
    "digits and separators": _repeat("1,000.5 "),
    "one long URL": _framed("See https://example.org/", "a", " now."),
    "URL pieces": _repeat("http://"),
    "www pieces": _repeat("www."),
    "address pieces": _repeat("a@b."),
    "one long address": _framed("Write to ", "a", "@example.org today."),
    "file name pieces": _repeat("a.b"),
    "apostrophes in words": _repeat("l'a"),
    "contractions": _repeat("don't "),
    "mixed scripts": _repeat("aЖ漢"),
    "combining accents": _repeat("e\u0301"),
    "emoji": _repeat("😀"),
    "placeholders": _repeat("{{1}}"),
    "sentinel characters": _repeat("\ue001"),
    "doubled words": _repeat("the "),
    "lower-case i": _repeat("i "),
    "articles": _repeat("a a "),
    "sentence starts": _repeat(". a"),
    "abbreviations": _repeat("Ab. "),
    "backtick pieces": _repeat("`a``"),
    "markdown emphasis": _repeat("*a_"),
    "LaTeX commands": _repeat("\\a{"),
    "reST roles": _repeat(":a:"),
    # Repetitive prose that the engine changes all over: few distinct tokens, no unique one to
    # anchor an alignment on (the word-edit alignment went cubic on these).
    "repeated clauses": _repeat("word , word . word ; "),
    "repeated sentence": _repeat("the cat sat on teh mat . "),
    "repeated misspelling": _repeat("recieved "),
    "repeated short lines": _repeat("word ,\n"),
    "repeated doubled word": _repeat("it it is . "),
    "repeated doubled name": _repeat("Zorba Zorba went . "),
    "one word repeated": _repeat("word "),
    "two words alternating": _repeat("yes no "),
    "identical short sentences": _repeat("It is. "),
    "punctuation storm": _repeat(", . ; ! ? "),
    "marks storm": _repeat("!!!?? "),
    # The same, with markup all over (review findings widen each change up to the nearest
    # protected span or line edge: one search per change).
    "repeated inline code": _repeat("`x` word , word . "),
    "repeated links": _repeat("[a](b) teh , "),
    "repeated quoted lines": _repeat("> word ,\n"),
    # Typst's and HTML's markup: nesting thousands deep, delimiters never closed, calls, tags.
    "Typst content nesting": _repeat("#a[b "),
    "Typst calls and strings": _repeat('#f("a", [b]) #g(" '),
    "Typst statements": _repeat("#let x = (a, [b\n"),
    "Typst raw, math and comments": _repeat("`a ``` $b /* c // "),
    "HTML tags": _repeat("<p><a href=x>a</a> b "),
    "HTML tags never closed": _repeat('<code>a <a href="b '),
    "HTML entities and comments": _repeat("&amp; &#1 <!-- &x; --"),
    "HTML end tags": _repeat("</a </p>a</"),
    **{f"shuffled mix {seed}": _shuffled(_ODD_PIECES, seed) for seed in range(4)},
    # AsciiDoc: unclosed macros, links and cross references, attribute references, passthrough
    # marks, cell separators, a heading or a hard line break after a long run of spaces
    "AsciiDoc macro pieces": _repeat("a:b["),
    "AsciiDoc link pieces": _repeat("link:(a:["),
    "AsciiDoc cross reference pieces": _repeat("<<a,"),
    "AsciiDoc attribute pieces": _repeat("{a}/"),
    "AsciiDoc passthrough marks": _repeat(" +a"),
    "AsciiDoc table cells": _framed("|===\n", "a|b 2+| ", "\n|===\n"),
    "AsciiDoc heading and spaces": _framed("== A", " ", "b ="),
    "AsciiDoc hard break and spaces": _framed("A", " ", "b +"),
    "AsciiDoc description terms": _repeat("a:;"),
    "AsciiDoc block lines": _repeat("[source,a]\n----\n.A title\n"),
    # a paragraph of many lines, each with a protected span (plain text matched every span
    # against every line of its paragraph)
    "inline code on short lines": _repeat("Read `a` here\n"),
    # Org: emphasis and verbatim marks that never close, links, math, drawers, tags, item tags
    "Org verbatim marks": _repeat(" =a"),
    "Org code marks across lines": _repeat(" ~a\n"),
    "Org link pieces": _repeat("[[a]["),
    "Org math pieces": _repeat("\\(a$a "),
    "Org drawers left open": _repeat(":A:\n"),
    "Org headline and spaces": _framed("* A", " ", ":a:"),
    "Org item tag and spaces": _framed("- a", " ", ":: b"),
    "Org line break and spaces": _framed("A", " ", "b \\\\"),
    "Org blocks left open": _repeat("#+BEGIN_QUOTE\n- a\n| a |\n"),
    "Org source blocks never closed": _repeat("#+BEGIN_SRC a\n\\begin{b}\n#+END_EXAMPLE\n"),
    **{f"shuffled markup mix {seed}": _shuffled(_MARKUP_PIECES, seed) for seed in range(2)},
    # Markdown definition lists: definition markers on every other line (each ends the
    # definition before it), markers in definitions, containers in definitions
    "Markdown definition markers": _repeat("Term a\n: ~ : definition of it\n"),
    "Markdown definitions in containers": _repeat("a\n: > : - : b ~ c\n"),
}


def prose(n: int, target: str = "en-us") -> str:
    """About ``n`` characters of real sentences (tests/data/engine), cut at a sentence end."""
    sentences = []
    path = ROOT / "tests" / "data" / "engine" / f"{target}.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            sentences.append(json.loads(line)["input"])
    random.Random(target).shuffle(sentences)
    out: list[str] = []
    size = 0
    index = 0
    while size < n:
        sentence = sentences[index % len(sentences)]
        index += 1
        out.append(sentence)
        size += len(sentence) + 1
        if index % 6 == 0:
            out.append("\n")
    return " ".join(out)[:n]
