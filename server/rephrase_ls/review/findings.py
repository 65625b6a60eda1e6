# Over 400 lines: the findings and their two-level cache (engine, guarded) are one algorithm.
"""Offline findings: what the offline engine would change in a document, one change at a time.

Each prose block becomes a :class:`~rephrase_ls.text.paragraphs.Paragraph` as for the Improve
action (its prose sent with placeholders for protected text); the engine improves the prose in
this process, with the options the offline service uses for a plain Improve (no style, no tone,
the project's known ``words``, and the words the document writes twice as context words, which
are never spell-corrected); the paragraph is rebuilt from the answer, which gives the word
edits; the edits are cut into change groups (:mod:`.changes`), each a :class:`Finding`.

What Improve would leave alone is left alone here too: a paragraph in another language than the
target (a quotation: the service refuses to improve and translate at once), the
``rephrase: language=xx`` directive, and whatever the document's guards keep
(:func:`rephrase_ls.guards.chain.guard`, the one chain Improve applies to each answer): the
lower-case start of a paragraph that goes on an open sentence (``dass:`` before a list) or is set
apart, a word the document writes in code or only in lower case (``zlib``), its spelling variant
(``keep_variant``) and its two spaces between sentences.

Work is kept in a :class:`ReviewCache`: each block's words, keyed by a digest of the block's text
and markup (wherever it is in the document), and each paragraph's findings, keyed by that, the
target, the known words and the context words the paragraph contains. After an edit only the
paragraphs whose text changed (and those holding a word that became, or stopped being, written
twice) are improved again. The cache holds the engine's findings; the guards, which read the
whole document, are applied after it, to the paragraphs whose findings one of them may act on
(:func:`rephrase_ls.guards.chain.may_act`). The cache holds no text of the document: a paragraph is
rebuilt from its block when the engine improves it, and its findings are kept relative to its
start, so that a reviewed 1 MB document costs the cache ~3 MB.
"""

from __future__ import annotations

import hashlib
import logging
import re
import sys
from array import array
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Generic, TypeVar

from rephrase_ls.guards.chain import DocumentFacts, Signals, facts_key, guard, may_act, signals
from rephrase_ls.improve.options import ImproveOptions, Mode
from rephrase_ls.offline import engine
from rephrase_ls.offline.engine import rules
from rephrase_ls.review.changes import change_groups
from rephrase_ls.review.codes import SPELLING, UNKNOWN_WORD, VARIANT, classify, describe
from rephrase_ls.review.unknown import WordList, suggestions, unknown_words
from rephrase_ls.review.unknown import message as unknown_message
from rephrase_ls.review.unknown import stem as unknown_stem
from rephrase_ls.text.diff import TextEdit, word_edits
from rephrase_ls.text.language import detect
from rephrase_ls.text.paragraphs import Paragraph
from rephrase_ls.text.placeholders import PlaceholderError

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.improve.language_choice import LanguageChoice
    from rephrase_ls.text.markup import ProseBlock

__all__ = [
    "Finding",
    "ReviewCache",
    "ReviewCancelled",
    "findings",
    "offline_target",
    "review_mode",
]

Span = tuple[int, int]

_log = logging.getLogger(__name__)

#: A paragraph of this many words whose language the detector cannot tell gets no
#: ``unknown-word`` findings (see :func:`_compute`).
UNDETECTED_WORDS = 8

# One word as the engine's rules see one: letters, with inner apostrophes or hyphens.
_ONE_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


@dataclass(frozen=True, slots=True)
class Finding:
    """One change the offline engine proposes.

    ``start``/``end``: the document span (code-point offsets) of the original words; it never
    covers protected text. ``original``: the document's text there; ``replacement``: what to
    put instead. ``code``: the rule (one of :data:`~rephrase_ls.review.codes.CODES`).
    ``message``: ``teh → the``.
    """

    start: int
    end: int
    original: str
    replacement: str
    code: str
    message: str
    suggestions: tuple[str, ...] = ()
    """For an ``unknown-word`` finding (whose replacement is its original: it changes
    nothing), the words it may have been meant as, likeliest first."""

    def edit(self) -> TextEdit:
        """The edit that applies this finding."""
        return TextEdit(self.start, self.end, self.replacement)

    @property
    def word(self) -> str | None:
        """The word to add to the project's ``words`` so that the engine leaves it alone (it
        never spell-corrects or converts a known word): the original, for a spelling or variant
        finding over one word, and an unknown word; None for any other finding."""
        if self.code not in (SPELLING, VARIANT, UNKNOWN_WORD) or not _ONE_WORD.fullmatch(
            self.original
        ):
            return None
        return self.original


class ReviewCancelled(Exception):
    """``findings`` was told to stop (a newer version of the document is waiting); the
    paragraphs done so far stay in the cache."""


# A prose block as it reads: a digest of its text, and of its segments and protected spans
# relative to its start. Equal keys make equal paragraphs, wherever the block is in the document.
_BlockKey = bytes
# Its findings: a digest of the block's key, the target and the paragraph's context words; and
# the known words (one set shared by every key of a review).
_ResultKey = tuple[bytes, frozenset[str]]
# A paragraph's findings, offsets relative to the paragraph's start.
_Result = tuple[Finding, ...]
# What the engine gives a paragraph: its findings, their signals for the guards, and the
# paragraph's unknown words (``unknown-word`` findings).
_Computed = tuple[_Result, Signals, _Result]


@dataclass(frozen=True, slots=True)
class _Prose:
    """What a block gives, computed once per block text: no text of the document."""

    start: int
    """Where the block's paragraph starts, relative to the block's start."""
    words: tuple[str, ...]
    """The lower-case words of the prose, as the engine counts them for context words: sorted,
    each string shared by every paragraph that writes it."""
    repeated: tuple[str, ...]
    """Those the prose writes twice or more."""


_NO_PROSE = _Prose(-1, (), ())
"""A block without a paragraph (no unprotected prose)."""


K = TypeVar("K")
V = TypeVar("V")


class _Lru(Generic[K, V]):
    """A mapping that drops the least recently used entries beyond ``max_chars``."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self.chars = 0
        self.items: OrderedDict[K, tuple[V, int]] = OrderedDict()

    def get(self, key: K) -> V | None:
        found = self.items.get(key)
        if found is None:
            return None
        self.items.move_to_end(key)
        return found[0]

    def put(self, key: K, value: V, size: int) -> None:
        if key in self.items:
            return
        self.items[key] = (value, size)
        self.chars += size
        while self.chars > self.max_chars and self.items:
            _, (_, old_size) = self.items.popitem(last=False)
            self.chars -= old_size

    def clear(self) -> None:
        self.items.clear()
        self.chars = 0


class ReviewCache:
    """Per-paragraph work kept between calls of :func:`findings`: each block's words, each
    paragraph's findings from the engine, and those the guards kept of them (keyed by the facts
    of the document the guards read for that paragraph, :func:`rephrase_ls.guards.chain.facts_key`),
    in three tables that each stand for at most ``max_chars`` characters of blocks, the least
    recently used dropped first.

    ``engine_runs`` counts the paragraphs the engine improved (cache misses), for tests and
    the benchmark.
    """

    def __init__(self, max_chars: int = 4_000_000) -> None:
        if max_chars < 0:
            raise ValueError("max_chars must not be negative")
        self.engine_runs = 0
        self._blocks: _Lru[_BlockKey, _Prose] = _Lru(max_chars)
        self._results: _Lru[_ResultKey, _Computed] = _Lru(max_chars)
        self._guarded: _Lru[tuple[_ResultKey, tuple[object, ...]], _Result] = _Lru(max_chars)

    def __len__(self) -> int:
        """The number of paragraphs whose findings are kept."""
        return len(self._results.items)

    @property
    def chars(self) -> int:
        """The characters of the blocks the three tables stand for."""
        return self._blocks.chars + self._results.chars + self._guarded.chars

    def clear(self) -> None:
        """Forget everything (say, after the engine's word lists changed)."""
        self._blocks.clear()
        self._results.clear()
        self._guarded.clear()


def offline_target(language: str | None) -> str | None:
    """The engine's target for a language code (``en-US`` → ``en-us``, ``de`` → ``de``), or
    None when the offline engine does not improve that language (no findings then)."""
    if not language:
        return None
    target = language.strip().lower().replace("_", "-")
    return target if target in engine.SUPPORTED_TARGETS else None


def review_mode(settings: Settings, choice: LanguageChoice) -> Mode | None:
    """What the offline review of a document in ``choice``'s language asks of the engine: the
    request a plain Improve makes (:meth:`~rephrase_ls.improve.options.ImproveOptions.mode`: its
    target and what it keeps of the document's variant), its target as the engine takes it
    (:func:`offline_target`; the language itself when the service takes no target for it); None
    when the engine does not review that language."""
    mode = ImproveOptions().mode(settings, choice)
    target = offline_target(mode.target_lang or choice.language)
    if target is None:
        return None
    return replace(mode, target_lang=target)


def _block_key(text: str, block: ProseBlock) -> _BlockKey:
    """The digest of the block's text, segments and protected spans (relative to its start)."""
    base, end = block.start, block.end
    data = text[base:end].encode("utf-8", "surrogatepass")
    spans = [len(data)]
    for s, e in block.segments:
        spans += (s - base, e - base)
    spans.append(-1)
    for s, e in block.protected:
        spans += (s - base, e - base)
    digest = hashlib.blake2b(array("q", spans).tobytes(), digest_size=16)
    digest.update(data)
    return digest.digest()


def _result_digest(block_key: _BlockKey, target: str, context: list[str]) -> bytes:
    """The digest of a block's key, the target and the (sorted) context words."""
    digest = hashlib.blake2b(block_key, digest_size=16)
    digest.update("\0".join([target, *context]).encode("utf-8", "surrogatepass"))
    return digest.digest()


def _paragraph(text: str, block: ProseBlock) -> Paragraph | None:
    """The paragraph made of the block (offsets in ``text``)."""
    return Paragraph.from_segments(text, block.segments, block.protected)


def _prose_of(paragraph: Paragraph | None, block_start: int) -> _Prose:
    """What a block's paragraph gives (see :class:`_Prose`); ``block_start``: the block's
    offset in the text the paragraph was made from."""
    if paragraph is None:
        return _NO_PROSE
    # as engine.repeated_words counts them
    counts = Counter(run.lower() for run in rules.glue_runs(paragraph.prose) if run.isalpha())
    words = tuple(sorted(sys.intern(word) for word in counts))
    repeated = tuple(word for word in words if counts[word] >= 2)
    return _Prose(paragraph.start - block_start, words, repeated)


def _protected_inside(paragraph: Paragraph, block: ProseBlock) -> tuple[Span, ...]:
    """The block's protected spans, clipped to the paragraph, relative to its start."""
    start, end = paragraph.start, paragraph.end
    return tuple(
        (max(s, start) - start, min(e, end) - start)
        for s, e in block.protected
        if s < end and e > start
    )


def _relative_segments(paragraph: Paragraph) -> list[Span]:
    """The spans of the paragraph's lines, relative to its start."""
    segments: list[Span] = []
    position = 0
    for n, line in enumerate(paragraph.lines):
        segments.append((position, position + len(line)))
        position += len(line) + (len(paragraph.gaps[n]) if n < len(paragraph.gaps) else 0)
    return segments


def _compute(
    paragraph: Paragraph,
    block: ProseBlock,
    target: str,
    words: frozenset[str],
    context: frozenset[str],
) -> tuple[_Result, _Result]:
    """Improve one paragraph with the engine and cut the result into findings; and the
    paragraph's unknown words the engine does not correct."""
    span = paragraph.original
    language = detect(paragraph.prose)
    if language is not None and language != target.split("-")[0]:
        return (), ()  # another language: Improve leaves it as it is
    try:
        improved = engine.improve(paragraph.prose, target, known_words=words, context_words=context)
        _, edits = paragraph.rebuild_with_edits(improved)
    except (PlaceholderError, ValueError, RuntimeError):
        # An engine bug (it keeps placeholders and protected spans): that paragraph gets no
        # findings, the rest of the document is still reviewed, and the bug is in the log.
        _log.exception(
            "offline review: the engine failed on a paragraph of %d characters; it gets no "
            "findings",
            len(span),
        )
        return (), ()
    result = _classified(paragraph, block, span, edits, target)
    if language is None and len(paragraph.prose.split()) >= UNDETECTED_WORDS:
        # Long enough to tell its language, and none was told: another language the detector
        # does not know (Latin filler text), or no prose at all. Its words are not checked.
        return result, ()
    return result, _unknown(paragraph, block, span, target, words, context, result)


def _unknown(
    paragraph: Paragraph,
    block: ProseBlock,
    span: str,
    target: str,
    words: frozenset[str],
    context: frozenset[str],
    result: _Result,
) -> _Result:
    """The paragraph's unknown words (:mod:`.unknown`) outside the engine's findings, as
    ``unknown-word`` findings relative to its start."""
    lang = target.split("-")[0]
    protected = _protected_inside(paragraph, block)
    spans: list[Span] = []
    for start, end in _relative_segments(paragraph):
        for s, e in protected:
            if s >= end or e <= start:
                continue
            if s > start:
                spans.append((start, s))
            start = max(start, e)
        if start < end:
            spans.append((start, end))
    listed = WordList.of(words)
    taken = [(f.start, f.end) for f in result]
    out: list[Finding] = []
    for start, end, word in unknown_words(span, spans, lang, listed, context):
        if any(s < end and start < e for s, e in taken):
            continue  # the engine corrects it: its finding is the diagnostic
        offered = suggestions(word, lang, listed)
        out.append(
            Finding(start, end, word, word, UNKNOWN_WORD, unknown_message(word, offered), offered)
        )
    return tuple(out)


def _classified(
    paragraph: Paragraph, block: ProseBlock, span: str, edits: Sequence[TextEdit], target: str
) -> _Result:
    """The findings of ``edits`` to the paragraph's text ``span``, relative to its start."""
    if not edits:
        return ()
    groups = change_groups(
        span, edits, _relative_segments(paragraph), _protected_inside(paragraph, block)
    )
    return tuple(
        Finding(
            change.start,
            change.end,
            change.original,
            change.replacement,
            classify(change.said, change.says, target),
            describe(change.said, change.says),
        )
        for change in groups
    )


def _applied(span: str, result: _Result) -> str:
    """The paragraph's text ``span`` with every finding of ``result`` applied: what the engine
    gave for it (change groups cover every edit of the engine's answer)."""
    pieces: list[str] = []
    position = 0
    for found in result:
        pieces += (span[position : found.start], found.replacement)
        position = found.end
    pieces.append(span[position:])
    return "".join(pieces)


def findings(
    text: str,
    blocks: Sequence[ProseBlock],
    *,
    target_lang: str,
    words: Iterable[str] = (),
    cache: ReviewCache | None = None,
    cancelled: Callable[[], bool] | None = None,
    keep_variant: bool = False,
    variant_detected: bool = False,
    unknown_words: bool = False,
    stripped: Sequence[tuple[int, int]] = (),
) -> list[Finding]:
    """The offline engine's findings for the prose ``blocks`` of ``text``, in document order.

    ``blocks``: the document's prose in document order, as
    :func:`~rephrase_ls.improve.request.document_prose` gives it (without directives).
    ``target_lang``: the document's language as the engine takes it (see
    :func:`offline_target`); ``ValueError`` when the engine does not support it. ``words``: the
    project's known words (never corrected or converted). ``cache``: keeps per-paragraph work
    between calls (one per server, shared by documents); without it every paragraph is improved.
    ``cancelled``: asked before each paragraph the engine improves; when it answers true,
    :class:`ReviewCancelled` is raised. ``keep_variant``, ``variant_detected``: as the
    :class:`~rephrase_ls.improve.options.Mode` of a plain Improve of the document has them
    (:meth:`rephrase_ls.improve.options.ImproveOptions.mode`): whether the engine's variant
    conversions are taken out unless the document allows them, and whether its variant was read
    from it (:mod:`rephrase_ls.guards.variants_keep`).

    ``unknown_words``: also the ``unknown-word`` findings (:mod:`.unknown`; they change
    nothing), less the words the document writes in code. ``stripped``: the spans of ``text``
    its format's tool strips (:func:`rephrase_ls.improve.request.document_stripped`), which
    count neither as prose nor as code.

    Applying every finding's edit gives what Improve with the offline engine gives.
    """
    target = offline_target(target_lang)
    if target is None:
        raise ValueError(
            f"the offline engine cannot review {target_lang!r} text; it supports "
            f"{', '.join(engine.SUPPORTED_TARGETS)}"
        )
    known = frozenset(words)
    if cache is None:
        cache = ReviewCache()
    kept = list(blocks)
    entries: list[tuple[ProseBlock, _BlockKey, _Prose]] = []
    for block in kept:
        key = _block_key(text, block)
        prose = cache._blocks.get(key)
        if prose is None:
            prose = _prose_of(_paragraph(text, block), block.start)
            cache._blocks.put(key, prose, block.end - block.start)
        if prose is not _NO_PROSE:
            entries.append((block, key, prose))
    # As the offline service does for the texts of one request: a word the document writes
    # twice is meant (a term, a name) and never spell-corrected (engine.repeated_words).
    repeated: set[str] = set()
    if len(entries) > 1:
        seen: set[str] = set()
        for _, _, prose in entries:
            repeated.update(prose.repeated)
            repeated.update(seen.intersection(prose.words))
            seen.update(prose.words)
    variant = Mode(target_lang, keep_variant=keep_variant, variant_detected=variant_detected)
    facts = DocumentFacts(text, kept, stripped)
    out: list[Finding] = []
    for block, block_key, prose in entries:
        context = [w for w in prose.words if w in repeated] if repeated else []
        key_of_result: _ResultKey = (_result_digest(block_key, target, context), known)
        cached = cache._results.get(key_of_result)
        if cached is None:
            if cancelled is not None and cancelled():
                raise ReviewCancelled
            paragraph = _paragraph(text, block)
            assert paragraph is not None
            result, unknown = _compute(paragraph, block, target, known, frozenset(context))
            found_signals = signals(((f.original, f.replacement) for f in result), target)
            cached = (result, found_signals, unknown)
            cache.engine_runs += 1
            cache._results.put(key_of_result, cached, block.end - block.start)
        result, found, unknown = cached
        start = block.start + prose.start
        if unknown_words and unknown:
            out += [
                replace(f, start=start + f.start, end=start + f.end)
                for f in unknown
                if f.original.lower() not in facts.code
                and unknown_stem(f.original.lower()) not in facts.code  # ``dict``: ``dict's``
            ]
        if not result:
            continue
        # The guards read the whole document: applied here, after the cache, so that a fact
        # another paragraph changed (a word now written in code there) counts at once.
        if may_act(start, found, variant, facts):
            key_of_guarded = (key_of_result, facts_key(start, found, variant, facts))
            held = cache._guarded.get(key_of_guarded)
            if held is None:
                paragraph = _paragraph(text, block)
                assert paragraph is not None
                span = paragraph.original
                replacement = _applied(span, result)
                guarded = guard(start, span, replacement, variant, facts)
                if guarded != replacement:
                    edits = word_edits(span, guarded)
                    held = _classified(paragraph, block, span, edits, target)
                else:
                    held = result
                cache._guarded.put(key_of_guarded, held, block.end - block.start)
            result = held
        out += [
            Finding(start + f.start, start + f.end, f.original, f.replacement, f.code, f.message)
            for f in result
        ]
    if unknown_words:
        out.sort(key=lambda f: (f.start, f.end))
    return out
