"""One request's snapshot: what an improvement of a document needs, taken once.

The editor's code actions and commands, review mode's diagnostics and the CLI each build an
:class:`ImproveRequest` from what they know (the open document or the file read, the settings
resolved for it, the backend, the language chosen) and hand it to
:func:`rephrase_ls.improve.pipeline.improve_text` (or, for review mode, read its prose and
language from it). :func:`document_prose` is the one place the prose to improve is cut from a
document: its prose blocks without the ``rephrase: language=xx`` directives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rephrase_ls.improve.round_trip import without_directives
from rephrase_ls.text.markup import prose_blocks, stripped_spans

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.improve.backend import Backend
    from rephrase_ls.improve.language_choice import LanguageChoice
    from rephrase_ls.improve.options import ImproveOptions, Mode
    from rephrase_ls.service.models import Endpoint
    from rephrase_ls.text.markup import ProseBlock


def document_prose(text: str, language_id: str | None, uri: str | None) -> list[ProseBlock]:
    """The prose of a document to improve: its prose blocks for its markup (``language_id``,
    else guessed from ``uri``), without the lines that are a ``rephrase:`` directive.

    Raises ``ValueError`` for markup it cannot read (LaTeX nested thousands deep).
    """
    return without_directives(text, prose_blocks(text, language_id, uri))


def document_stripped(
    text: str, language_id: str | None, uri: str | None
) -> tuple[tuple[int, int], ...]:
    """The spans of a document that its format's own tool strips (git: a commit message's ``#``
    comment lines and the diff below its scissors line): no word written there is a word the
    document writes in code (:func:`rephrase_ls.guards.code_words.code_words`)."""
    return stripped_spans(text, language_id, uri)


@dataclass(frozen=True)
class ImproveRequest:
    """What one improvement of a document needs, as it was when the request came."""

    text: str
    """The document's text."""
    version: int | None
    """The document's version (None: a file read from disk or standard input)."""
    blocks: Sequence[ProseBlock]
    """The document's prose to improve (:func:`document_prose`)."""
    span: tuple[int, int] | None
    """The part to improve, in offsets of ``text``; None: the whole document."""
    options: ImproveOptions
    """What the writer picked (a style, a tone, a conversion, or the workspace's default)."""
    settings: Settings
    """The settings resolved for the document."""
    backend: Backend | None
    """The service that answers (None where none could be set up: review mode still runs)."""
    language: LanguageChoice
    """The document's language and what the service offers for it."""
    mode: Endpoint = "rephrase"
    """What is asked of the service; sent to that endpoint and part of the cache's key."""
    stripped: tuple[tuple[int, int], ...] = ()
    """The spans of ``text`` its format's tool strips (:func:`document_stripped`): neither
    prose nor code."""

    def service_mode(self) -> Mode:
        """The request to the service: target, style or tone as sent, and endpoint."""
        return self.options.mode(self.settings, self.language, self.mode)
