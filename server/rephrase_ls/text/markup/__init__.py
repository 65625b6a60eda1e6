"""Which parts of a document are prose, per format.

A format module turns a whole document into a list of :class:`ProseBlock` (one per paragraph of
prose). :func:`prose_blocks` picks the format by LSP ``languageId``, then by the file name or
extension of the document's URI, then by the content (Markdown or reStructuredText, for a
document whose languageId and name say nothing), and falls back to plain text.

Registering a format is one call, made at import time of the format module::

    # rephrase_ls/text/markup/markdown.py
    from rephrase_ls.text.markup.block import ProseBlock
    from rephrase_ls.text.markup.registry import register_format

    def markdown_blocks(text: str) -> list[ProseBlock]: ...

    register_format("markdown", markdown_blocks, extensions=(".md", ".markdown"))

Built-in format modules are listed in :data:`BUILTIN_MODULES`; they are imported lazily on the
first call of :func:`prose_blocks` (importing parsers is slow, so the server does not pay for it at
start-up), or eagerly with :func:`load_builtin_formats`. A listed module that does not exist yet is
skipped; one that fails to import is logged and skipped, so plain text keeps working.
"""

from __future__ import annotations

import importlib
import logging
import re
import threading
from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

from rephrase_ls.text.markup.block import ProseBlock
from rephrase_ls.text.markup.registry import (
    EXTENSIONS,
    FILENAMES,
    FORMATS,
    STRIPPED,
    BlocksFn,
    register_format,
)

__all__ = [
    "BUILTIN_MODULES",
    "EXTENSIONS",
    "FILENAMES",
    "FORMATS",
    "GENERIC_IDS",
    "BlocksFn",
    "ProseBlock",
    "format_for",
    "load_builtin_formats",
    "prose_blocks",
    "register_format",
    "sniff_format",
    "stripped_spans",
]

_log = logging.getLogger(__name__)

#: Format modules inside this package that register themselves when imported.
BUILTIN_MODULES: tuple[str, ...] = (
    "plain", "markdown", "latex", "rst", "code", "gitcommit",
    "asciidoc", "org", "html", "typst",
)  # fmt: skip

_loaded = False
_load_lock = threading.Lock()


def load_builtin_formats() -> None:
    """Import every built-in format module (once), so that each registers itself."""
    global _loaded
    if _loaded:
        return
    with _load_lock:
        if _loaded:
            return
        for name in BUILTIN_MODULES:
            module = f"{__name__}.{name}"
            try:
                importlib.import_module(module)
            except ModuleNotFoundError as error:
                if error.name != module:
                    _log.exception("format module %s failed to import", module)
            except Exception:
                _log.exception("format module %s failed to import", module)
        _loaded = True


def _file_name(uri: str) -> str:
    parsed = urlparse(uri)
    path = unquote(parsed.path if parsed.scheme else uri)
    return PurePosixPath(path.replace("\\", "/")).name


#: languageIds that say nothing of a document's markup: a document with one of these (or with
#: none, or one no format handles) is judged by its file name, then by its content.
GENERIC_IDS = frozenset(("plaintext", "text", "plain", "txt", ""))

# What only Markdown writes (at the start of a line unless said otherwise): a fence, an ATX
# heading, a link or image with its destination (anywhere), a `---`/`+++` front matter. (A link
# text holds no `[`: each attempt stops at the next one, so a run of `[` costs linear time.)
_MARKDOWN_SIGNS = re.compile(
    r"^(?:```|~~~)|^#{1,6}[ \t]+\S|!?\[[^\[\]\n]+\]\([^()\s]+(?:[ \t]+\"[^\"\n]*\")?\)"
    r"|\A(?:---|\+\+\+)[ \t]*$",
    re.MULTILINE,
)
# What only reStructuredText writes: a directive, an explicit target, a role, an inline literal
# or a reference with a trailing underscore (anywhere), a paragraph ending in "::" before an
# indented block, a title adorned with a character Markdown does not use for headings.
_RST_SIGNS = re.compile(
    r"^\.\.[ \t]+(?:[\w:+.-]+::|_[^:\n]+:|\[[^\]\n]+\]|\|[^|\n]+\|)"
    r"|:[\w.+-]+:`[^`\n]+`|``[^`\n]+``|`[^`\n]+`__?(?!\w)"
    r"|::[ \t]*\n[ \t]*\n[ \t]+\S"
    r"|^[^\s\n][^\n]*\n([~^\"'*+#=-])\1{2,}[ \t]*$(?<![=-]{3})",
    re.MULTILINE,
)
#: how much of a document :func:`sniff_format` reads
SNIFF_SAMPLE = 32_768


# "#!/bin/sh", "#! /usr/bin/env -S python3 -u": the interpreter's name (after env and its options).
_SHEBANG = re.compile(r"#![ \t]*(?:[^\s/]*/)*([\w.+-]+)(?:[ \t]+(?:-\S*[ \t]+)*([\w.+-]+))?")
#: Interpreters of a ``#!`` line (version digits aside) and the format of their scripts.
_INTERPRETERS = {
    **dict.fromkeys(("sh", "bash", "zsh", "ksh", "dash", "ash", "mksh"), "shellscript"),
    "python": "python",
    "perl": "perl",
    "ruby": "ruby",
    "node": "javascript",
    "nodejs": "javascript",
    "lua": "lua",
    "php": "php",
    "Rscript": "r",
}


def sniff_format(text: str) -> str | None:
    """The format the content of ``text`` shows: a script's language when it starts with a
    ``#!`` line naming a known interpreter (``#! /bin/bash``, ``#!/usr/bin/env python3``);
    ``"markdown"`` or ``"restructuredtext"`` when its start shows that markup (two signs or more
    that only one of them writes, and more of its signs than of the other's; fence lines count
    for Markdown only beside another of its signs); else None (plain text). For documents
    whose name and languageId say nothing (a ``README`` without extension, a ``.txt`` file, an
    editor's ``plaintext``)."""
    script = _SHEBANG.match(text)
    if script is not None:
        interpreter = script.group(2) if script.group(1) == "env" else script.group(1)
        if interpreter:
            name = interpreter.rstrip("0123456789.")
            if name in _INTERPRETERS:
                return _INTERPRETERS[name]
    sample = text[:SNIFF_SAMPLE]
    signs = [m.group() for _, m in zip(range(20), _MARKDOWN_SIGNS.finditer(sample), strict=False)]
    fences = sum(1 for sign in signs if sign in ("```", "~~~"))
    # Fences alone make no Markdown: plain text copies them too (a note, a README.txt), and
    # plain text reads a fenced block as code; read as Markdown, its columns would be prose.
    markdown = len(signs) if len(signs) > fences else 0
    rst = sum(1 for _ in zip(range(20), _RST_SIGNS.finditer(sample), strict=False))
    if markdown >= 2 and markdown > rst:
        return "markdown"
    if rst >= 2 and rst > markdown:
        return "restructuredtext"
    return None


def format_for(
    language_id: str | None = None, uri: str | None = None, text: str | None = None
) -> str:
    """The languageId whose format handles a document (``"plaintext"`` when none matches).

    A specific languageId decides; a generic one (:data:`GENERIC_IDS`) or none gives way to the
    file name or extension, and when that says plain text or nothing either, to the content
    (:func:`sniff_format`, when ``text`` is given).
    """
    load_builtin_formats()
    if language_id and language_id in FORMATS and language_id not in GENERIC_IDS:
        return language_id
    found = _format_by_name(uri) if uri else "plaintext"
    if found == "plaintext" and text is not None:
        sniffed = sniff_format(text)
        if sniffed is not None and sniffed in FORMATS:
            return sniffed
    return found


def _format_by_name(uri: str) -> str:
    name = _file_name(uri)
    if name in FILENAMES and FILENAMES[name] in FORMATS:
        return FILENAMES[name]
    lowered = name.lower()
    # Longest extension first, so ".tar.gz"-style registrations win over ".gz".
    suffixes = PurePosixPath(lowered).suffixes
    for i in range(len(suffixes)):
        extension = "".join(suffixes[i:])
        target = EXTENSIONS.get(extension)
        if target is not None and target in FORMATS:
            return target
    return "plaintext"


def prose_blocks(
    text: str, language_id: str | None = None, uri: str | None = None
) -> list[ProseBlock]:
    """The prose blocks of ``text``, by its format (see :func:`format_for`), in document order."""
    if not isinstance(text, str):
        raise TypeError("text must be a str")
    fmt = format_for(language_id, uri, text)
    blocks_fn = FORMATS.get(fmt)
    if blocks_fn is None:
        from rephrase_ls.text.markup.plain import plain_blocks

        blocks_fn = plain_blocks
    blocks = blocks_fn(text)
    if any(blocks[n].start > blocks[n + 1].start for n in range(len(blocks) - 1)):
        blocks.sort(key=lambda block: block.start)
    return blocks


def stripped_spans(
    text: str, language_id: str | None = None, uri: str | None = None
) -> tuple[tuple[int, int], ...]:
    """The spans of ``text`` that its format's own tool strips before use (git: a commit
    message's ``#`` comment lines and the diff below its scissors line), in order; none for
    most formats. They are neither prose nor code."""
    stripped_fn = STRIPPED.get(format_for(language_id, uri, text))
    return tuple(stripped_fn(text)) if stripped_fn is not None else ()
