"""The service round trip of the pipeline: paragraphs → the service → rebuilt paragraphs → edits.

:func:`rephrase_ls.improve.pipeline.improve_text` is the entry point; this module sends paragraphs'
prose (minus what the cache knows), rebuilds each paragraph from its answer and gives the
minimal edits. It knows nothing of LSP.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rephrase_ls.guards.chain import DocumentFacts, guard
from rephrase_ls.guards.open_sentence import (  # noqa: F401  (re-exported: part of this module's interface)
    continues_sentence,
    keep_open_sentence,
    keeps_lower_start,
    prose_ends,
)
from rephrase_ls.improve.options import Mode
from rephrase_ls.service.capabilities import check_rephrase_options
from rephrase_ls.service.errors import BadRequest
from rephrase_ls.text.diff import TextEdit, word_edits
from rephrase_ls.text.language import is_directive, paragraph_language
from rephrase_ls.text.markup import ProseBlock
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs
from rephrase_ls.text.placeholders import PlaceholderError
from rephrase_ls.text.switches import overlaps, switched_off

if TYPE_CHECKING:
    from rephrase_ls.improve.backend import Backend
    from rephrase_ls.service.models import Improvement

#: The part of the document a paragraph's edits may touch (None: all of it).
Clip = tuple[int, int] | None

class ImprovementCache:
    """Improvements already paid for, keyed by (backend, text, endpoint, target, style, tone);
    LRU-bounded."""

    def __init__(self, max_chars: int = 8_000_000) -> None:
        self._items: OrderedDict[
            tuple[str, str, str, str | None, str | None, str | None], tuple[str, str]
        ]
        self._items = OrderedDict()
        self._chars = 0
        self.max_chars = max_chars

    def get(self, backend: str, text: str, mode: Mode) -> tuple[str, str] | None:
        key = (backend, text, mode.endpoint, mode.target_lang, mode.writing_style, mode.tone)
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, backend: str, text: str, mode: Mode, improved: str, detected: str) -> None:
        key = (backend, text, mode.endpoint, mode.target_lang, mode.writing_style, mode.tone)
        if key in self._items:
            return
        self._items[key] = (improved, detected)
        self._chars += len(text) + len(improved)
        while self._chars > self.max_chars and self._items:
            (_, old_text, *_), (old_improved, _) = self._items.popitem(last=False)
            self._chars -= len(old_text) + len(old_improved)


def without_directives(text: str, blocks: Sequence[ProseBlock]) -> list[ProseBlock]:
    """The blocks without the lines that are a ``rephrase: language=xx`` directive, and without
    the prose the in-document switches take out (:mod:`rephrase_ls.text.switches`:
    ``rephrase: off`` … ``rephrase: on``, ``rephrase: ignore-next-line``).

    A directive is an instruction to rephrase-ls in a comment, not prose: improved as the first
    words of a paragraph it would come back as "Rephrase: language=…". A block that a switched
    off span cuts keeps its prose on either side as blocks of their own.
    """
    if "rephrase" not in text:
        return list(blocks)

    off = switched_off(text)
    out: list[ProseBlock] = []
    for block in blocks:
        runs: list[list[tuple[int, int]]] = [[]]
        for start, end in block.segments:
            if is_directive(text[start:end]) or (off and overlaps(off, start, end)):
                runs.append([])
            else:
                runs[-1].append((start, end))
        if len(runs) == 1:
            out.append(block)
            continue
        for run in runs:
            if run:
                lo, hi = run[0][0], run[-1][1]
                protected = tuple(p for p in block.protected if lo <= p[0] and p[1] <= hi)
                out.append(ProseBlock(tuple(run), protected))
    return out


def with_context(
    text: str, paragraphs: Sequence[Paragraph], blocks: Sequence[ProseBlock]
) -> tuple[list[Paragraph], list[Clip]]:
    """Widen each paragraph the selection cut to its whole paragraph, remembering the cut.

    A fragment sent alone reads as a sentence of its own: the service would capitalise its
    first word or end it with a full stop. Sent whole, the paragraph is improved in context and
    only the edits inside the selection are kept.

    ``paragraphs`` are those :func:`select_paragraphs` gives for one selection: only the first
    and the last can be cut by it (every block in between is inside it, whole), so only those
    two are looked at again.
    """
    widened: list[Paragraph] = []
    clips: list[Clip] = []
    last = len(paragraphs) - 1
    for n, paragraph in enumerate(paragraphs):
        if 0 < n < last:
            widened.append(paragraph)
            clips.append(None)
            continue
        whole = select_paragraphs(text, paragraph.start, paragraph.start, blocks)
        if (
            whole
            and whole[0].start <= paragraph.start
            and paragraph.end <= whole[0].end
            and (whole[0].start, whole[0].end) != (paragraph.start, paragraph.end)
        ):
            widened.append(whole[0])
            clips.append((paragraph.start, paragraph.end))
        else:
            widened.append(paragraph)
            clips.append(None)
    return widened, clips


#: Why a paragraph was left as it is, in a few words (a summary counts them per reason).
ANOTHER_LANGUAGE = "another language"
READ_AS_ANOTHER_LANGUAGE = "the service read it as another language"
PROTECTED_MARKUP = "the service altered protected markup"
UNUSABLE_ANSWER = "the service's answer could not be used"


@dataclass(frozen=True)
class Skip:
    """A paragraph left as it is: ``reason`` (one of the constants above) and ``message``, the
    paragraph named (line, first words) with the details."""

    reason: str
    message: str


@dataclass
class Outcome:
    """What one improvement produced."""

    replacements: list[tuple[Paragraph, str, Clip]] = field(default_factory=list)
    skips: list[Skip] = field(default_factory=list)
    detected_language: str | None = None
    sent_texts: int = 0
    # (start, end, replacement) → (the span's text, its word edits relative to start), as
    # computed while the paragraph was rebuilt; used when the span still reads the same.
    _known_edits: dict[tuple[int, int, str], tuple[str, list[TextEdit]]] = field(
        default_factory=dict, repr=False
    )

    @property
    def refused(self) -> list[str]:
        """The paragraphs left as they are, each named with the reason."""
        return [skip.message for skip in self.skips]

    def add(
        self,
        paragraph: Paragraph,
        replacement: str,
        clip: Clip = None,
        edits: tuple[str, list[TextEdit]] | None = None,
    ) -> None:
        """Record a replacement; ``edits``: the original span's text and the word edits (relative
        to the paragraph's start) that turn it into ``replacement``, when already known."""
        self.replacements.append((paragraph, replacement, clip))
        if edits is not None:
            self._known_edits[(paragraph.start, paragraph.end, replacement)] = edits

    def merge(self, other: Outcome) -> None:
        """Take in what ``other``, an improvement of other paragraphs of the same text, gave."""
        self.replacements.extend(other.replacements)
        self.skips.extend(other.skips)
        self._known_edits.update(other._known_edits)
        self.sent_texts += other.sent_texts
        if self.detected_language is None:
            self.detected_language = other.detected_language

    def edits(self, text: str) -> list[TextEdit]:
        """Minimal edits, in document offsets, sorted, that turn ``text`` into the improved text."""
        out: list[TextEdit] = []
        for paragraph, replacement, clip in sorted(self.replacements, key=lambda r: r[0].start):
            original = text[paragraph.start : paragraph.end]
            known = self._known_edits.get((paragraph.start, paragraph.end, replacement))
            if known is not None and known[0] == original:
                relative = known[1]
            else:
                relative = word_edits(original, replacement)
            for edit in relative:
                start, end = edit.start + paragraph.start, edit.end + paragraph.start
                if clip is not None and not _inside(text, start, end, clip):
                    continue  # outside the selection: context only
                out.append(TextEdit(start, end, edit.new_text))
        return out


def _inside(text: str, start: int, end: int, clip: tuple[int, int]) -> bool:
    """Whether an edit changes only text inside ``clip``; the whitespace at its ends (a deleted
    word takes its space along) may reach just outside."""
    span = text[start:end]
    if span.strip():
        start += len(span) - len(span.lstrip())
        end -= len(span) - len(span.rstrip())
    return clip[0] <= start and end <= clip[1]


def paragraph_label(text: str, paragraph: Paragraph, index: int) -> str:
    """``paragraph 2 (line 5, “The first six words of it …”)``: the paragraph as the writer
    sees it in the document (its text there, never the placeholders sent for protected text)."""
    line = text.count("\n", 0, paragraph.start) + 1
    words = text[paragraph.start : paragraph.end].split()
    head = " ".join(words[:6]) + (" …" if len(words) > 6 else "")
    return f"paragraph {index + 1} (line {line}, “{head}”)"


def other_language(
    text: str, paragraph: Paragraph, index: int, language: str, target: str
) -> Skip:
    """The :class:`Skip` of a paragraph in ``language``, not the ``target`` language."""
    return Skip(
        ANOTHER_LANGUAGE,
        f"{paragraph_label(text, paragraph, index)} was left as it is: it is in {language}, "
        f"not {target} (improving and translating at once is not possible)",
    )


def read_as_another_language(
    text: str, paragraph: Paragraph, index: int, language: str, target: str
) -> Skip:
    """The :class:`Skip` of a paragraph the document's language decided for (a kanji heading of
    a Japanese document) and that the service refused as ``language``."""
    return Skip(
        READ_AS_ANOTHER_LANGUAGE,
        f"{paragraph_label(text, paragraph, index)} was left as it is: the service refused it "
        f"as {target} (on its own it reads as {language}; too short to tell which, it was "
        f"sent as the document's {target})",
    )


def ambiguous_paragraphs(paragraphs: Sequence[Paragraph], target: str) -> list[tuple[int, str]]:
    """The paragraphs the document's language (``target``'s) decided for, with the language each
    reads as on its own: a few kanji alone (a heading of a Japanese document) read as Chinese."""
    from rephrase_ls.text.detect import detect_language

    base = target.split("-")[0].lower()
    out: list[tuple[int, str]] = []
    for index, paragraph in enumerate(paragraphs):
        alone = detect_language(paragraph.prose)
        if alone not in (None, base) and paragraph_language(paragraph.prose, base) == base:
            out.append((index, alone))
    return out


def split_languages(
    paragraphs: Sequence[Paragraph], target: str
) -> tuple[list[int], list[tuple[int, str]]]:
    """The indexes of the paragraphs in the ``target`` language (or too short to tell), and
    those of the others with the language each is in (the rule review mode follows)."""
    base = target.split("-")[0].lower()
    keep: list[int] = []
    foreign: list[tuple[int, str]] = []
    for index, paragraph in enumerate(paragraphs):
        language = paragraph_language(paragraph.prose, base)
        if language is not None and language != base:
            foreign.append((index, language))
        else:
            keep.append(index)
    return keep, foreign


async def improve_paragraphs(
    backend: Backend,
    text: str,
    paragraphs: Sequence[Paragraph],
    mode: Mode,
    cache: ImprovementCache,
    on_progress: Callable[[int, int], None] | None = None,
    clips: Sequence[Clip] | None = None,
    *,
    blocks: Sequence[ProseBlock | Paragraph] | None = None,
    numbers: Sequence[int] | None = None,
    stripped: Sequence[tuple[int, int]] = (),
) -> Outcome:
    """Improve the paragraphs (see :func:`improve_in_one_language`); when the service refuses
    because some paragraphs are in another language than ``target_lang`` (a quotation, a
    passage in another language), leave those as they are, say so, and improve the rest. A
    paragraph only the document's language decided for (a kanji heading of a Japanese document,
    :func:`ambiguous_paragraphs`) is sent apart from the others, and left as it is with a note
    when the service refuses it.

    The paragraphs are checked one by one only after such a refusal, so the usual case pays
    nothing; answers already received were cached and are not paid for twice. ``numbers``:
    the place of each paragraph among those selected (by default their order here), which the
    messages name them by.
    """
    number_of = list(numbers) if numbers is not None else list(range(len(paragraphs)))
    try:
        return await improve_in_one_language(
            backend,
            text,
            paragraphs,
            mode,
            cache,
            on_progress,
            clips,
            blocks=blocks,
            numbers=number_of,
            stripped=stripped,
        )
    except BadRequest:
        if mode.target_lang is None:
            raise
        target = mode.target_lang
        keep, foreign = split_languages(paragraphs, target)
        ambiguous = dict(ambiguous_paragraphs(paragraphs, target))
        sure = [i for i in keep if i not in ambiguous]
        if not ambiguous and (not foreign or not keep):
            raise
        clip_of = list(clips) if clips is not None else [None] * len(paragraphs)

        async def improve(indexes: Sequence[int]) -> Outcome:
            return await improve_in_one_language(
                backend,
                text,
                [paragraphs[i] for i in indexes],
                mode,
                cache,
                on_progress,
                [clip_of[i] for i in indexes],
                blocks=blocks if blocks is not None else paragraphs,
                numbers=[number_of[i] for i in indexes],
                stripped=stripped,
            )

        # The paragraphs only the document's language decided for go first, together, then
        # (when refused, and more than one) each alone: one the service refuses is left as it
        # is with a note, never the whole document.
        outcome = Outcome()
        refused: list[int] = []
        batches = [list(ambiguous)] if ambiguous else []
        if len(ambiguous) == len(paragraphs):  # that very request was refused
            batches = [[i] for i in ambiguous] if len(ambiguous) > 1 else []
            refused = [] if len(ambiguous) > 1 else list(ambiguous)
        while batches:
            batch = batches.pop(0)
            try:
                outcome.merge(await improve(batch))
            except BadRequest:
                if len(batch) == 1:
                    refused.append(batch[0])
                else:
                    batches.extend([i] for i in batch)
        if sure:
            outcome.merge(await improve(sure))
        outcome.skips[:0] = [
            *(
                other_language(text, paragraphs[i], number_of[i], language, target)
                for i, language in foreign
            ),
            *(
                read_as_another_language(text, paragraphs[i], number_of[i], ambiguous[i], target)
                for i in sorted(refused)
            ),
        ]
        return outcome


async def improve_in_one_language(
    backend: Backend,
    text: str,
    paragraphs: Sequence[Paragraph],
    mode: Mode,
    cache: ImprovementCache,
    on_progress: Callable[[int, int], None] | None = None,
    clips: Sequence[Clip] | None = None,
    *,
    blocks: Sequence[ProseBlock | Paragraph] | None = None,
    numbers: Sequence[int] | None = None,
    stripped: Sequence[tuple[int, int]] = (),
) -> Outcome:
    """Send the paragraphs' prose (minus what the cache knows) and rebuild each paragraph.

    Each answer is cached and its paragraph rebuilt (its word edits computed) as soon as the
    client reports it, while later requests are still in flight; an answer is paid for even
    when a later request fails. A paragraph whose placeholders did not survive is refused
    (named in ``refused``); the others go on. Service errors propagate: the caller shows them
    and applies nothing.

    Each answer goes through the document's guards (:func:`rephrase_ls.guards.chain.guard`, the
    chain review mode's findings use too): a lower-case start after an open sentence or set
    apart from the running prose, the words the document writes in code or only in lower case,
    its spelling variant (a plain Improve, ``mode.keep_variant``) and two spaces between
    sentences are kept. ``blocks``: the document's prose blocks (by default the paragraphs
    themselves), which the guards read the document with; ``stripped``: the spans its format's
    tool strips (:func:`rephrase_ls.text.markup.stripped_spans`), which they do not read.
    """
    outcome = Outcome()

    def number(index: int) -> int:
        return numbers[index] if numbers is not None else index

    # what the guards read of the document, each fact computed once, when an answer needs it
    facts = DocumentFacts(text, blocks if blocks is not None else paragraphs, stripped)
    clip_of = list(clips) if clips is not None else [None] * len(paragraphs)
    if len(clip_of) != len(paragraphs):
        raise ValueError(f"{len(clip_of)} clips for {len(paragraphs)} paragraphs")
    results: list[tuple[str, str] | None] = [
        cache.get(backend.cache_key, p.prose, mode) for p in paragraphs
    ]
    detected: Counter[str] = Counter()
    refused: list[tuple[int, Skip]] = []
    added: list[tuple[int, Paragraph, str, tuple[str, list[TextEdit]] | None]] = []

    def finish(index: int) -> None:
        """Rebuild paragraph ``index`` from its answer, or note why it is refused."""
        paragraph = paragraphs[index]
        result = results[index]
        assert result is not None
        improved, detected_lang = result
        if detected_lang:
            detected[detected_lang] += 1
        try:
            replacement, relative = paragraph.rebuild_with_edits(improved)
        except PlaceholderError as exc:
            refused.append(
                (
                    index,
                    Skip(
                        PROTECTED_MARKUP,
                        f"{paragraph_label(text, paragraph, number(index))} was not changed: the "
                        f"service altered protected markup ({exc})",
                    ),
                )
            )
            return
        except ValueError as exc:  # e.g. an empty answer for a non-empty paragraph
            refused.append(
                (
                    index,
                    Skip(
                        UNUSABLE_ANSWER,
                        f"{paragraph_label(text, paragraph, number(index))} was not changed: the "
                        f"service's answer cannot be used ({exc})",
                    ),
                )
            )
            return
        span = text[paragraph.start : paragraph.end]
        kept = guard(paragraph.start, span, replacement, mode, facts)
        if kept != replacement:
            replacement, relative = kept, word_edits(span, kept)
        if replacement != span:
            # The edits are relative to the paragraph's own text, which is the span for every
            # paragraph made from the document (Outcome.edits checks it again).
            known = (span, relative) if paragraph.original == span else None
            added.append((index, paragraph, replacement, known))

    # Rebuilding a paragraph (its alignment and guards) is CPU work: it runs in a worker
    # thread, one paragraph after another as the answers come, so the event loop goes on
    # answering other requests meanwhile, and a cancelled request starts no further paragraph.
    finishing: asyncio.Queue[int | None] = asyncio.Queue()

    async def finisher() -> None:
        while (index := await finishing.get()) is not None:
            await asyncio.to_thread(finish, index)

    worker = asyncio.create_task(finisher())
    try:
        for index, result in enumerate(results):
            if result is not None:
                finishing.put_nowait(index)
        missing = [i for i, r in enumerate(results) if r is None]
        if missing:
            check_rephrase_options(
                backend.capabilities.peek("write"), mode.target_lang, mode.writing_style,
                mode.tone,
            )

            def take(k: int, improvement: Improvement) -> None:
                index = missing[k]
                if results[index] is not None:
                    return
                value = (improvement.text, improvement.detected_source_language)
                cache.put(backend.cache_key, paragraphs[index].prose, mode, *value)
                results[index] = value
                finishing.put_nowait(index)

            def on_result(indexes: Sequence[int], improvements: Sequence[Improvement]) -> None:
                for k, improvement in zip(indexes, improvements, strict=True):
                    take(k, improvement)

            sent = [paragraphs[i].prose for i in missing]
            if mode.correct:
                improvements = await backend.client.correct(
                    sent,
                    target_lang=mode.target_lang,
                    on_progress=on_progress,
                    on_result=on_result,
                )
            else:
                improvements = await backend.client.rephrase(
                    sent,
                    target_lang=mode.target_lang,
                    writing_style=mode.writing_style,
                    tone=mode.tone,
                    on_progress=on_progress,
                    on_result=on_result,
                )
            outcome.sent_texts = len(missing)
            if len(improvements) != len(missing):
                raise ValueError(f"{len(improvements)} improvements for {len(missing)} texts")
            for k, improvement in enumerate(improvements):
                take(k, improvement)  # texts the client did not report one by one
        finishing.put_nowait(None)
        await worker
    finally:
        worker.cancel()
    for index, paragraph, replacement, known in sorted(added, key=lambda a: a[0]):
        outcome.add(paragraph, replacement, clip_of[index], known)
    outcome.skips = [skip for _, skip in sorted(refused, key=lambda r: r[0])]
    if detected:
        outcome.detected_language = detected.most_common(1)[0][0]
    return outcome
