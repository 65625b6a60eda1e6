"""Prose in LaTeX, found with pylatexenc's node tree.

Prose: the text of paragraphs (split at blank lines, ``\\par``, ``\\item`` and block-level
environments) and the arguments of sectioning commands (``\\section{…}``, ``\\caption{…}``,
``\\title{…}``…), each a block of its own. The arguments of text commands (``\\emph{…}``,
``\\textbf{…}``, ``\\footnote{…}``…) stay in their sentence, with the command and its braces
protected.

Not prose: math environments and display math, verbatim-like environments (``verbatim``,
``lstlisting``, ``minted``, ``tabular``, ``tikzpicture``…), comments, the preamble commands.
Inside prose, inline math, ``\\cite``, ``\\ref``, ``\\label``, ``\\url``, ``\\verb``, every other
command with its arguments (an unknown one's too: the groups and the ``[…]`` right after it), ``~``
and the other special characters are protected.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from pylatexenc.latexwalker import (
    LatexCharsNode,
    LatexCommentNode,
    LatexEnvironmentNode,
    LatexGroupNode,
    LatexMacroNode,
    LatexMathNode,
    LatexNode,
    LatexSpecialsNode,
    LatexWalker,
)

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.latex_commands import (
    BLOCK_COMMANDS,
    FLUSH_MARK,
    OPAQUE_ENVIRONMENTS,
    SECTIONING,
    TEXT_COMMANDS,
    latex_context,
)
from rephrase_ls.text.markup.lines import Lines, make_block, require_text
from rephrase_ls.text.markup.registry import register_format

__all__ = ["latex_blocks"]

_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*(?:\r?\n|\r)\s*|\r[ \t]*\r\s*")

# piece kinds
_PROSE, _PROTECT, _BREAK = range(3)
Piece = tuple[int, int, int]


def _arguments(node: LatexMacroNode | LatexEnvironmentNode) -> list[LatexNode]:
    argd = node.nodeargd
    if argd is None or not argd.argnlist:
        return []
    return [a for a in argd.argnlist if a is not None]


def _walk(nodes: Sequence[LatexNode] | None, text: str) -> Iterator[Piece]:
    """Pieces of prose, protected markup and paragraph breaks, in document order."""
    if not nodes:
        return
    protect_groups = False  # a group right after a protected unknown command is its argument
    for node in nodes:
        start, end = node.pos, node.pos + node.len
        if isinstance(node, LatexCharsNode):
            pos = start
            if protect_groups and text.startswith("[", start):
                # the optional argument of the unknown command: \doccmd{documentclass}[a,b=c]
                close = text.find("]", start, end)
                if close >= 0 and _PARAGRAPH_BREAK.search(text, start, close) is None:
                    yield start, close + 1, _PROTECT
                    pos = close + 1
                    if pos == end:
                        continue  # a group may follow: \cmd[option]{argument}
            protect_groups = False
            for m in _PARAGRAPH_BREAK.finditer(text, pos, end):
                if m.start() > pos:
                    yield pos, m.start(), _PROSE
                yield m.start(), m.end(), _BREAK
                pos = m.end()
            if pos < end:
                yield pos, end, _PROSE
        elif isinstance(node, LatexCommentNode):
            continue  # outside the segments, or a line of its own; does not break a paragraph
        elif isinstance(node, LatexMathNode):
            protect_groups = False
            yield start, end, (_PROTECT if node.displaytype == "inline" else _BREAK)
        elif isinstance(node, LatexSpecialsNode) and node.specials_chars == FLUSH_MARK:
            char = text[start]  # what the document has where _plain_runs_ended put the mark
            if char in "\r\n":
                yield start, end, _BREAK  # inside a run of line breaks
            elif not char.isspace():
                yield start, end, _PROSE
        elif isinstance(node, LatexSpecialsNode):
            yield start, end, _PROTECT
        elif isinstance(node, LatexGroupNode):
            if protect_groups:
                yield start, end, _PROTECT
                continue
            yield start, start + 1, _PROTECT
            yield from _walk(node.nodelist, text)
            if end - 1 > start:
                yield end - 1, end, _PROTECT
        elif isinstance(node, LatexEnvironmentNode):
            protect_groups = False
            yield from _environment(node, text)
        elif isinstance(node, LatexMacroNode):
            protect_groups = False
            name = node.macroname
            args = _arguments(node)
            if name in SECTIONING:
                yield start, end, _BREAK
                if args and isinstance(args[-1], LatexGroupNode):
                    yield from _walk(args[-1].nodelist, text)
                yield start, end, _BREAK
            elif name in BLOCK_COMMANDS:
                yield start, end, _BREAK
            elif name in TEXT_COMMANDS and args and isinstance(args[-1], LatexGroupNode):
                last = args[-1]
                yield start, last.pos + 1, _PROTECT
                yield from _walk(last.nodelist, text)
                yield last.pos + last.len - 1, end, _PROTECT
            else:
                yield start, end, _PROTECT
                protect_groups = not args and name.isalpha()
        else:  # anything else pylatexenc may produce: keep it unchanged
            yield start, end, _PROTECT


def _environment(node: LatexEnvironmentNode, text: str) -> Iterator[Piece]:
    start, end = node.pos, node.pos + node.len
    if node.environmentname in OPAQUE_ENVIRONMENTS or not node.nodelist:
        yield start, end, _BREAK
        return
    body = node.nodelist
    yield start, body[0].pos, _BREAK  # \begin{name}[args]
    yield from _walk(body, text)
    last = body[-1]
    yield last.pos + last.len, end, _BREAK  # \end{name}


def _block(text: str, lines: Lines, pieces: list[Piece]) -> ProseBlock | None:
    """A block from the prose and protected pieces of one paragraph."""
    per_line: dict[int, list[int]] = {}
    protected: list[tuple[int, int]] = []
    covered: list[tuple[int, int]] = []
    for start, end, kind in pieces:
        if kind == _PROTECT:
            protected.append((start, end))
        covered.append((start, end))
        first, last = lines.line_of(start), lines.line_of(max(start, end - 1))
        for i in range(first, last + 1):
            s = max(start, lines.starts[i])
            e = min(end, lines.ends[i])
            while s < e and text[s] in " \t":
                s += 1
            while e > s and text[e - 1] in " \t\r\n":
                e -= 1
            if s >= e:
                continue
            bounds = per_line.get(i)
            if bounds is None:
                per_line[i] = [s, e]
            else:
                bounds[0] = min(bounds[0], s)
                bounds[1] = max(bounds[1], e)
    segments = [(b[0], b[1]) for _, b in sorted(per_line.items())]
    # anything inside a segment that no piece covers (a comment cannot be, but be safe) and that
    # is not white space is protected rather than sent
    covered.sort()
    pos = segments[0][0] if segments else 0
    for s, e in covered:
        if s > pos and text[pos:s].strip():
            protected.append((pos, s))
        pos = max(pos, e)
    return make_block(text, segments, protected)


_LONG_SPACE = re.compile(r"\s{64,}")
_SPACE_STEP = 48


def _short_spaces(text: str) -> str:
    """``text`` for pylatexenc, whose reading of a run of white space costs the square of its
    length: in each run of 64 or more white-space characters, one character in every 48 (not a
    line break, nor among the first and last 8) made a letter, so that no run pylatexenc reads
    is longer, and every position stays where it is. The pieces read back are taken from
    ``text`` itself."""

    def broken(m: re.Match[str]) -> str:
        run = list(m.group())
        for k in range(_SPACE_STEP, len(run) - 8, _SPACE_STEP):
            at = k if run[k] != "\n" else k + 1  # two line breaks end pylatexenc's run anyway
            if run[at] != "\n":
                run[at] = "x"
        return "".join(run)

    return _LONG_SPACE.sub(broken, text)


_PLAIN_RUN = re.compile(r"[^\\{}$%&~#^_\[\]]{512,}")
_RUN_STEP = 256
_LINE_BREAKS = "\r\n"


def _plain_runs_ended(text: str, read: str) -> str:
    """``read`` (``text`` as pylatexenc is to read it) with a :data:`FLUSH_MARK` about every 256
    characters in each run of 512 or more characters without a command, group, math or other
    active character: pylatexenc gathers such a run one character at a time into a string that
    it copies each time (quadratic), and a special character ends the run. The mark goes inside
    a word, inside a stretch of spaces and tabs, or between two line breaks, never beside a
    line break, so that :func:`_walk` reads the same words and paragraph breaks."""

    def kind(at: int) -> int:
        """0: a word's character or a space among spaces; 1: a line break among line breaks;
        -1: neither (beside the edge of a word or of a line)."""
        near = text[at - 1 : at + 2]
        if all(c in _LINE_BREAKS for c in near):
            return 1
        if all(not c.isspace() for c in near) or all(c in " \t" for c in near):
            return 0
        return -1

    chars: list[str] | None = None
    for m in _PLAIN_RUN.finditer(read):
        for k in range(m.start() + _RUN_STEP, m.end() - _RUN_STEP, _RUN_STEP):
            at = next((j for j in range(k, k + 8) if kind(j) >= 0), -1)
            if at >= 0:
                if chars is None:
                    chars = list(read)
                chars[at] = FLUSH_MARK
    return read if chars is None else "".join(chars)


def latex_blocks(text: str) -> list[ProseBlock]:
    """The prose blocks of a LaTeX document, in document order.

    Raises ``ValueError`` for a document nested too deeply for pylatexenc to read.
    """
    require_text(text)
    read = _plain_runs_ended(text, _short_spaces(text))
    walker = LatexWalker(read, latex_context=latex_context(), tolerant_parsing=True)
    try:
        nodes, _, _ = walker.get_latex_nodes(pos=0)
    except RecursionError:
        # pylatexenc reads each group by recursion: a document of thousands of nested braces
        # (or environments) is beyond it, and is no LaTeX anyone writes by hand.
        raise ValueError(
            "this LaTeX document nests groups or environments too deeply to be "
            "read (thousands of levels); no prose can be taken from it"
        ) from None
    lines = Lines(text)
    blocks: list[ProseBlock] = []
    paragraph: list[Piece] = []
    for piece in _walk(nodes, text):
        if piece[2] == _BREAK:
            if paragraph:
                block = _block(text, lines, paragraph)
                if block is not None:
                    blocks.append(block)
                paragraph = []
        else:
            paragraph.append(piece)
    if paragraph:
        block = _block(text, lines, paragraph)
        if block is not None:
            blocks.append(block)
    blocks.sort(key=lambda b: b.start)
    return blocks


register_format("latex", latex_blocks, extensions=(".tex", ".ltx", ".sty", ".cls"))
register_format("tex", latex_blocks)
register_format("plaintex", latex_blocks)  # Neovim's file type for plain TeX
