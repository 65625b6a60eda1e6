"""The one improvement pipeline, shared by the code actions, the server's commands and the CLI.

:func:`improve_text` takes a document's text and prose blocks, the part to improve, the
writer's :class:`~rephrase_ls.improve.options.ImproveOptions` and the backend that answers, and
gives either the minimal edits (:class:`Improved`) or why there are none (:class:`NotImproved`):

    select the paragraphs (text/paragraphs) → widen a cut paragraph to its whole (context for
    the service) → options → the request's mode → the service, through the cache
    (:mod:`rephrase_ls.improve.round_trip`) → rebuilt paragraphs → word edits inside the selection.

It knows nothing of LSP or the terminal: each caller phrases the outcome for its writer.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol

from rephrase_ls.improve.round_trip import (
    ImprovementCache,
    Skip,
    improve_paragraphs,
    other_language,
    split_languages,
    with_context,
)
from rephrase_ls.service.errors import ServiceError
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs

if TYPE_CHECKING:
    from rephrase_ls.improve.backend import Backend
    from rephrase_ls.improve.options import Mode
    from rephrase_ls.improve.request import ImproveRequest
    from rephrase_ls.text.diff import TextEdit


class Progress(Protocol):
    """Where the pipeline reports its requests (the editor's work-done progress, a terminal)."""

    async def begin(self, prose_bytes: int) -> None:
        """The requests are about to be sent; ``prose_bytes``: the size of the prose sent."""

    def report(self, done: int, total: int) -> None:
        """``done`` of ``total`` requests have been answered."""

    def end(self, message: str) -> None:
        """The requests are over (``done``, ``failed``, ``cancelled; nothing was changed``)."""


@dataclass(frozen=True)
class Improved:
    """The improvement went through (perhaps with nothing to change)."""

    edits: list[TextEdit]
    """Minimal edits in document offsets, sorted; empty when nothing needs changing."""
    mode: Mode
    """What was asked of the service."""
    skips: list[Skip] = field(default_factory=list)
    """Paragraphs left as they were, each named with the reason (the others have edits)."""
    detected_language: str | None = None
    """The language the service detected (most paragraphs)."""
    covers_all: bool = False
    """Whether the improvement covered all the document's prose: always so for the whole
    document; for a part of it, worked out only for a conversion (whose result decides
    whether the document's detected variant still holds)."""

    @property
    def refused(self) -> list[str]:
        """The paragraphs left as they were, each named with the reason."""
        return [skip.message for skip in self.skips]


NotImprovedReason = Literal["no prose", "too little prose", "service", "declined", "no rules"]

#: Asked before the requests go with the number of characters they will send (the prose the
#: cache does not know); ``False`` sends nothing (:func:`improve_text`'s ``confirm``).
Confirm = Callable[[int], Awaitable[bool]]


@dataclass(frozen=True)
class NotImproved:
    """Nothing can be applied; ``message`` says why, for the writer."""

    reason: NotImprovedReason
    message: str
    mode: Mode | None = None
    """What was asked of the service (for ``service``)."""
    error: ServiceError | None = None
    """The service's failure (for ``service``): the caller adds its own advice."""

    @property
    def language_unknown(self) -> bool:
        """Whether the request went without a target language (the service's refusal may be
        because it could not tell the language either)."""
        return self.mode is not None and self.mode.target_lang is None


def embedded_has_no_rules(backend: Backend, language: str | None, key_env: str) -> str | None:
    """What to tell the writer when ``backend`` is the embedded offline service and ``language``
    one it has no rules for (Japanese, Korean, Chinese: it would answer the text unchanged and
    claim nothing was wrong); None otherwise."""
    if not backend.embedded or language is None:
        return None
    from rephrase_ls.offline.catalogue import language_name
    from rephrase_ls.offline.engine import UNCHANGED_TARGETS

    code = language.lower()
    base = code.split("-")[0]
    if code not in UNCHANGED_TARGETS and base not in UNCHANGED_TARGETS:
        return None
    name = language_name(base)
    shown = f"{name} ({language})" if name != base else language
    return (
        f"the embedded offline service has no rules for {shown}: nothing was checked. "
        f"The service improves it: give your API key in the environment variable {key_env}"
    )


def prose_bytes(paragraphs: Sequence[Paragraph]) -> int:
    """About how many bytes of JSON the paragraphs' prose takes in requests."""
    return sum(len(json.dumps(p.prose, ensure_ascii=False).encode()) + 1 for p in paragraphs)


def characters_to_send(
    paragraphs: Sequence[Paragraph], mode: Mode, backend: Backend, cache: ImprovementCache
) -> int:
    """The characters of prose that requests for ``paragraphs`` will send (and the service
    bill): those the cache has no answer for."""
    return sum(
        len(p.prose) for p in paragraphs if cache.get(backend.cache_key, p.prose, mode) is None
    )


async def improve_text(
    request: ImproveRequest,
    *,
    cache: ImprovementCache,
    progress: Progress | None = None,
    skip_undetectable: bool = False,
    skip_other_languages: bool = False,
    confirm: Confirm | None = None,
) -> Improved | NotImproved:
    """Improve the prose of ``request.text`` in ``request.span`` (None: the whole document).

    The request's settings give the workspace's default style or tone and the ``prefer_``
    fallback; its language, what the service offers for the document; ``cache``: answers
    already paid for. With ``skip_undetectable``, prose too short to tell its language, in a
    language nobody gave, is not sent (``too little prose``).
    With ``skip_other_languages``, the paragraphs whose detected language is not the target's
    are left as they are before anything is sent (each a :class:`Skip`), the rule review mode
    follows; without it, only after the service refused them (:func:`improve_paragraphs`).
    ``confirm``: asked with the characters about to be sent (see :data:`Confirm`); when it
    answers ``False`` nothing is sent (``declined``).

    Service failures are an outcome (``service``), not an exception; cancellation propagates
    and stops the requests in flight. ``ValueError`` for a request without a backend.
    """
    text, blocks, span, options = request.text, request.blocks, request.span, request.options
    backend, language = request.backend, request.language
    if backend is None:
        raise ValueError("an improvement needs a backend (the service or the offline one)")

    start, end = (0, len(text)) if span is None else span
    paragraphs = select_paragraphs(text, start, end, blocks)
    if not paragraphs:
        return NotImproved(
            "no prose", "there is no prose to improve here (only code, math or markup)"
        )
    if skip_undetectable and language.language is None and not options.is_conversion:
        from rephrase_ls.text.language import too_short_to_tell

        if too_short_to_tell(" ".join(p.prose for p in paragraphs)):
            return NotImproved("too little prose", "too little prose to tell its language")
    covers_all = span is None or (
        options.is_conversion
        and len(paragraphs) == len(select_paragraphs(text, 0, len(text), blocks))
    )
    mode = request.service_mode()
    if not options.is_conversion:
        no_rules = embedded_has_no_rules(backend, language.language, request.settings.api_key_env)
        if no_rules is not None:
            return NotImproved("no rules", no_rules, mode)
    skipped: list[Skip] = []
    numbers: list[int] | None = None
    if skip_other_languages and mode.target_lang is not None:
        keep, foreign = split_languages(paragraphs, mode.target_lang)
        skipped = [
            other_language(text, paragraphs[i], i, language, mode.target_lang)
            for i, language in foreign
        ]
        paragraphs = [paragraphs[i] for i in keep]
        numbers = keep
        if not paragraphs:
            return Improved([], mode, skipped, None, covers_all)
    clips = None
    if span is not None:
        paragraphs, clips = with_context(text, paragraphs, blocks)
    if confirm is not None:
        characters = characters_to_send(paragraphs, mode, backend, cache)
        if characters and not await confirm(characters):
            return NotImproved(
                "declined", f"nothing was sent ({characters:,} characters not confirmed)", mode
            )
    if progress is not None:
        await progress.begin(prose_bytes(paragraphs))
    try:
        outcome = await improve_paragraphs(
            backend,
            text,
            paragraphs,
            mode,
            cache,
            progress.report if progress is not None else None,
            clips,
            blocks=blocks,
            numbers=numbers,
            stripped=request.stripped,
        )
    except ServiceError as exc:
        if progress is not None:
            progress.end("failed")
        return NotImproved("service", exc.message, mode, exc)
    except asyncio.CancelledError:
        if progress is not None:
            progress.end("cancelled; nothing was changed")
        raise
    if progress is not None:
        progress.end("done")
    return Improved(
        outcome.edits(text), mode, skipped + outcome.skips, outcome.detected_language, covers_all
    )
