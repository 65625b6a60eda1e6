"""Plain text: blank-line separated paragraphs, list items and quotes.

On each line the leading indentation and any quote / list prefix (``> ``, ``> > ``, ``- ``,
``* ``, ``+ ``, ``1. ``, ``1) ``) stay outside the prose segment, as does trailing whitespace.
A block ends at a blank line (also a quote line with nothing after ``>``); a list item and a
change of quote depth start a new block. URLs and e-mail addresses are protected, and what
comment prose protects (:mod:`~rephrase_ls.text.markup.code_inline`: identifiers such as
``gnu_ftp_host-{alpha,beta,stable}``, paths, calls, file names). A line of shell (``$(…)``,
``${…}``, ``&&``, ``||``, a pipe `` | ``, a backslash ending it, a ``./`` or ``$ ``
starting it) is not prose: READMEs quote commands in plain text; nor is a line whose words are
aligned in columns (a table: ``FAQ             Frequently Asked Questions``, a title with a mode
line after tabs): a tab, three spaces or more, or two after a character that ends no sentence
(two spaces after a full stop are a house style, not a column). A fenced block (a line of
three or more backticks or tildes, up to its closing line) is code, not prose.

One pass over the lines, O(n); URLs and addresses are found from their ``://``, ``www.`` and
``@`` with ``str.find`` rather than a regex tried at every position.
"""

from __future__ import annotations

import re

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.code_inline import comment_protected
from rephrase_ls.text.markup.registry import register_format

__all__ = ["plain_blocks", "protected_spans"]

# Line breaks other than \n, \r\n and \r that str.splitlines would also split at.
_OTHER_BREAKS = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# Matched at a line start with endpos at the line end, so "$" is the end of the line.
_PREFIX = re.compile(
    r"[ \t]*(?P<quote>(?:>[ \t]*)*)(?P<list>(?:[-*+]|\d{1,9}[.)])(?=[ \t]|$)[ \t]*)?"
)
_URL_END = r"[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]}]"
_URL = re.compile(r"(?:https?|ftp)://" + _URL_END)
_WWW = re.compile(r"www\." + _URL_END)
# An e-mail address: its whole local part (letters, digits, . + - _), @, a dotted domain.
_EMAIL = re.compile(r"(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_SCHEMES = ("https", "http", "ftp")
# A line of shell: a substitution or ${variable}, && or ||, a pipe between spaces, a continuation
# backslash at its end, or ./ or a "$ " prompt at its start.
# A run of non-spaces with a sign of code in it (what comment prose protects is looked for
# only in such runs: plain text is mostly words, and the full search costs ten times more).
_CODE_CHUNK = re.compile(
    r"(?<!\S)[^\s_{}()=/<>@`,;.]*(?:[_{}()=/<>@`]|[.,;](?=\w)|[a-z](?=[A-Z]))\S*"
)
# Words aligned in columns: a tab, three spaces or more, or two after what ends no sentence.
_ALIGNED = re.compile(r"\S(?: *\t[ \t]*| {3,})\S|[^\s.!?:;)\]\"'’”]  \S")
# A fenced block, as Markdown writes it and plain-text files copy it (READMEs, notes): a line
# of three or more backticks or tildes, indented by up to three spaces, then an info string
# (no backtick in it after backticks); it ends at a line of the same character, as many or
# more, or at the end of the text. Its lines are code, not prose.
_FENCE = re.compile(r" {0,3}(`{3,}(?=[^`]*$)|~{3,})(.*)")
_FENCE_CHARS = ("`", "~")
#: Longer runs without a space are protected whole, not searched for code signs.
_LONGEST_WORD = 100
_SHELL = re.compile(r"\$[({]|&&|\|\||[ \t]\|[ \t]|[ \t]\\$|^[ \t]*(?:\./|\$[ \t])")


def _lines(text: str) -> list[str]:
    """The lines of ``text`` with their line breaks (only ``\\n``, ``\\r\\n``, ``\\r``)."""
    if _OTHER_BREAKS.search(text) is None:
        return text.splitlines(keepends=True)
    return _LINE.findall(text)


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Sorted, disjoint spans of URLs (``scheme://``, ``www.``) and e-mail addresses."""
    found: list[tuple[int, int]] = []
    # A URL runs to the next space: the search goes on after it, not inside it (where any URL
    # found would be inside it too), so that "http://http://…" is read once, not once per
    # "://".
    position = text.find("://")
    while position >= 0:
        after = position + 3
        for scheme in _SCHEMES:
            start = position - len(scheme)
            if start >= 0 and text.startswith(scheme, start):
                match = _URL.match(text, start)
                if match is not None:
                    found.append(match.span())
                    after = max(after, match.end())
                break
        position = text.find("://", after)
    position = text.find("www.")
    while position >= 0:
        after = position + 4
        if position == 0 or not (text[position - 1].isalnum() or text[position - 1] in "/.@"):
            match = _WWW.match(text, position)
            if match is not None:
                found.append(match.span())
                after = max(after, match.end())
        position = text.find("www.", after)
    if "@" in text:
        found.extend(match.span() for match in _EMAIL.finditer(text))
    found.sort()
    spans: list[tuple[int, int]] = []
    for start, end in found:
        if spans and start < spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


def plain_blocks(text: str) -> list[ProseBlock]:
    """The paragraphs of plain text, as prose blocks."""
    code = [
        span
        for chunk in _CODE_CHUNK.finditer(text)
        for span in (
            [chunk.span()]  # no word runs this long without a space: a hash, a rule, data
            if chunk.end() - chunk.start() > _LONGEST_WORD
            else comment_protected(text, chunk.start(), chunk.end())
        )
    ]
    protected = list(_merged(protected_spans(text) + code)) if code else protected_spans(text)
    next_protected = 0
    blocks: list[ProseBlock] = []
    segments: list[tuple[int, int]] = []
    depth = -1

    def flush() -> None:
        nonlocal next_protected
        if not segments:
            return
        inside: list[tuple[int, int]] = []
        block_end = segments[-1][1]
        k = next_protected
        j = 0  # the first segment that ends after the span's start: the only one that may hold it
        while k < len(protected) and protected[k][0] < block_end:
            start, end = protected[k]
            while segments[j][1] <= start:
                j += 1
            if segments[j][0] <= start and end <= segments[j][1]:
                inside.append((start, end))
            k += 1
        next_protected = k
        blocks.append(ProseBlock(tuple(segments), tuple(inside)))
        segments.clear()

    line_start = 0
    fence = ""  # the fence run of the open fenced block, "" outside one
    for line in _lines(text):
        line_end = line_start + len(line)
        content = line.rstrip()
        if fence or content.lstrip(" ")[:1] in _FENCE_CHARS:
            fence = _fence_after(content, fence)
            if fence or _FENCE.match(content):
                flush()  # a fence line, or a line of a fenced block: code, not prose
                depth = -1
                line_start = line_end
                continue
        if not content:
            flush()
            depth = -1
            line_start = line_end
            continue
        first = content[0]
        if first.isalpha() or (not first.isdigit() and first not in " \t>-*+"):
            content_start = line_start  # prose from the first character: no prefix to parse
            line_depth = 0
            is_item = False
        else:
            match = _PREFIX.match(text, line_start, line_start + len(content))
            assert match is not None  # every part of the pattern is optional
            content_start = match.end()
            line_depth = match.group("quote").count(">")
            is_item = match.group("list") is not None
        content_end = line_start + len(content)
        if content_end > content_start and (
            _is_command(content) or _is_aligned(text, content_start, content_end)
        ):
            content_end = content_start  # a command, or columns: not prose
        if content_end > content_start:
            if is_item or line_depth != depth:
                flush()
            depth = line_depth
            segments.append((content_start, content_end))
        else:
            flush()
            depth = -1
        line_start = line_end
    flush()
    return blocks


def _fence_after(line: str, fence: str) -> str:
    """The fence run open after ``line`` (without its line break): ``fence`` goes on unless
    ``line`` closes it (the same character, as many or more, nothing after); outside a block,
    ``line`` opens one if it is a fence line (:data:`_FENCE`)."""
    match = _FENCE.match(line)
    if not fence:
        return match.group(1) if match is not None else ""
    if (
        match is not None
        and match.group(1)[0] == fence[0]
        and len(match.group(1)) >= len(fence)
        and not match.group(2).strip()
    ):
        return ""
    return fence


def _is_command(line: str) -> bool:
    """Whether ``line`` is a line of shell (:data:`_SHELL`; cheap tests first)."""
    return (
        "$" in line or "&" in line or "|" in line or line.endswith("\\") or "./" in line
    ) and _SHELL.search(line) is not None


def _is_aligned(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is aligned in columns (:data:`_ALIGNED`)."""
    return (
        text.find("  ", start, end) >= 0 or text.find("\t", start, end) >= 0
    ) and _ALIGNED.search(text, start, end) is not None


def _merged(spans: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """``spans`` sorted, overlapping and touching ones joined (a run of code signs, ``a@a@a``,
    is one protected span, not one per sign)."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return tuple(out)


register_format("plaintext", plain_blocks, extensions=(".txt", ".text"))
