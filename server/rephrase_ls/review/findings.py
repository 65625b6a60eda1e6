"""Offline findings: what the offline engine would change in a document, one change at a time.

Each prose block becomes a :class:`~rephrase_ls.text.paragraphs.Paragraph` as for the Improve
action (its prose sent with placeholders for protected text); the engine improves the prose in
this process, with the options the offline service uses for a plain Improve (no style, no tone,
the project's known ``words``, and the words the document writes twice as context words, which
are never spell-corrected); the paragraph is rebuilt from the answer, which gives the word
edits; the edits are cut into change groups (:mod:`.changes`), each a :class:`Finding`.

What Improve would leave alone is left alone here too: a paragraph in another language than the
target (a quotation: the service refuses to improve and translate at once), the
``rephrase: language=xx`` directive, and the capital the engine gives the first word of a
paragraph that goes on a sentence left open before it (``dass:`` before a list).

Work is kept per paragraph in a :class:`ReviewCache` keyed by the paragraph's text, its prose,
the target, the known words and the context words it contains, so after an edit only the
paragraphs whose text changed are improved again.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rephrase_ls.improve import (
    continues_sentence,
    keep_open_sentence,
    prose_ends,
    without_directives,
)
from rephrase_ls.offline import engine
from rephrase_ls.review.changes import Change, change_groups, classify, describe
from rephrase_ls.text.diff import TextEdit, word_edits
from rephrase_ls.text.language import detect
from rephrase_ls.text.paragraphs import Paragraph
from rephrase_ls.text.placeholders import PlaceholderError

if TYPE_CHECKING:
    from rephrase_ls.text.markup import ProseBlock

__all__ = ["Finding", "ReviewCache", "ReviewCancelled", "findings", "offline_target"]

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Finding:
    """One change the offline engine proposes.

    ``start``/``end``: the document span (code-point offsets) of the original words; it never
    covers protected text. ``original``: the document's text there; ``replacement``: what to
    put instead. ``code``: the rule (one of :data:`~rephrase_ls.review.changes.CODES`).
    ``message``: ``teh → the``.
    """

    start: int
    end: int
    original: str
    replacement: str
    code: str
    message: str

    def edit(self) -> TextEdit:
        """The edit that applies this finding."""
        return TextEdit(self.start, self.end, self.replacement)


class ReviewCancelled(Exception):
    """``findings`` was told to stop (a newer version of the document is waiting); the
    paragraphs done so far stay in the cache."""


@dataclass(frozen=True, slots=True)
class _Result:
    """One paragraph's outcome, relative to the paragraph's start."""

    replacement: str
    edits: tuple[TextEdit, ...]
    changes: tuple[tuple[Change, str], ...]  # each change group with its code


_Key = tuple[str, str, str, frozenset[str], frozenset[str]]


class ReviewCache:
    """Per-paragraph results, least recently used dropped first beyond ``max_chars``
    (counting each entry's paragraph text, prose and replacement).

    ``engine_runs`` counts the paragraphs the engine improved (cache misses), for tests and
    the benchmark.
    """

    def __init__(self, max_chars: int = 4_000_000) -> None:
        if max_chars < 0:
            raise ValueError("max_chars must not be negative")
        self.max_chars = max_chars
        self.engine_runs = 0
        self._items: OrderedDict[_Key, tuple[_Result, int]] = OrderedDict()
        self._chars = 0

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        """Forget every result (say, after the engine's word lists changed)."""
        self._items.clear()
        self._chars = 0

    def _get(self, key: _Key) -> _Result | None:
        found = self._items.get(key)
        if found is None:
            return None
        self._items.move_to_end(key)
        return found[0]

    def _put(self, key: _Key, result: _Result) -> None:
        if key in self._items:
            return
        size = len(key[0]) + len(key[1]) + len(result.replacement)
        self._items[key] = (result, size)
        self._chars += size
        while self._chars > self.max_chars and self._items:
            _, (_, old_size) = self._items.popitem(last=False)
            self._chars -= old_size


def offline_target(language: str | None) -> str | None:
    """The engine's target for a language code (``en-US`` → ``en-us``, ``de`` → ``de``), or
    None when the offline engine does not improve that language (no findings then)."""
    if not language:
        return None
    target = language.strip().lower().replace("_", "-")
    return target if target in engine.SUPPORTED_TARGETS else None


_ALPHA = re.compile(r"[^\W\d_]+")


def _relative_structure(
    paragraph: Paragraph, protected: Sequence[Span]
) -> tuple[list[Span], list[Span]]:
    """The paragraph's line spans and protected spans, relative to its start."""
    segments: list[Span] = []
    position = 0
    for n, line in enumerate(paragraph.lines):
        segments.append((position, position + len(line)))
        position += len(line) + (len(paragraph.gaps[n]) if n < len(paragraph.gaps) else 0)
    base, end = paragraph.start, paragraph.end
    inside = [
        (max(s, base) - base, min(e, end) - base) for s, e in protected if s < end and e > base
    ]
    return segments, inside


def _compute(
    paragraph: Paragraph,
    span: str,
    protected: Sequence[Span],
    target: str,
    words: frozenset[str],
    context: frozenset[str],
) -> _Result:
    """Improve one paragraph with the engine and cut the result into change groups."""
    language = detect(paragraph.prose)
    if language is not None and language != target.split("-")[0]:
        return _Result(span, (), ())  # another language: Improve leaves it as it is
    improved = engine.improve(paragraph.prose, target, known_words=words, context_words=context)
    try:
        replacement, edits = paragraph.rebuild_with_edits(improved)
    except (PlaceholderError, ValueError):
        return _Result(span, (), ())  # the engine keeps placeholders; never in practice
    return _Result(
        replacement, tuple(edits), _classified(paragraph, span, edits, protected, target)
    )


def _classified(
    paragraph: Paragraph,
    span: str,
    edits: Sequence[TextEdit],
    protected: Sequence[Span],
    target: str,
) -> tuple[tuple[Change, str], ...]:
    if not edits:
        return ()
    segments, inside = _relative_structure(paragraph, protected)
    return tuple(
        (change, classify(change.said, change.says, target))
        for change in change_groups(span, edits, segments, inside)
    )


def findings(
    text: str,
    blocks: Sequence[ProseBlock],
    *,
    target_lang: str,
    words: Iterable[str] = (),
    cache: ReviewCache | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[Finding]:
    """The offline engine's findings for the prose ``blocks`` of ``text``, in document order.

    ``blocks``: the document's prose blocks in document order (as
    :func:`~rephrase_ls.text.markup.prose_blocks` gives them). ``target_lang``: the document's
    language as the engine takes it (see :func:`offline_target`); ``ValueError`` when the
    engine does not support it. ``words``: the project's known words (never corrected or
    converted). ``cache``: keeps per-paragraph work between calls (one per server, shared by
    documents); without it every paragraph is improved. ``cancelled``: asked before each
    paragraph the engine improves; when it answers true, :class:`ReviewCancelled` is raised.

    Applying every finding's edit gives, paragraph by paragraph, what Improve with the offline
    engine gives.
    """
    target = offline_target(target_lang)
    if target is None:
        raise ValueError(
            f"the offline engine cannot review {target_lang!r} text; it supports "
            f"{', '.join(engine.SUPPORTED_TARGETS)}"
        )
    known = frozenset(word.lower() for word in words)
    if cache is None:
        cache = ReviewCache()
    kept = without_directives(text, blocks)
    paragraphs: list[tuple[Paragraph, ProseBlock]] = []
    for block in kept:
        paragraph = Paragraph.from_segments(text, block.segments, block.protected)
        if paragraph is not None:
            paragraphs.append((paragraph, block))
    proses = [paragraph.prose for paragraph, _ in paragraphs]
    # As the offline service does for the texts of one request: a word the document writes
    # twice is meant (a term, a name) and never spell-corrected.
    context = engine.repeated_words(proses) if len(proses) > 1 else frozenset()
    ends: tuple[list[int], list[int]] | None = None
    out: list[Finding] = []
    for paragraph, block in paragraphs:
        span = text[paragraph.start : paragraph.end]
        local = (
            context.intersection(_ALPHA.findall(paragraph.prose.lower()))
            if context
            else (frozenset())
        )
        key: _Key = (span, paragraph.prose, target, known, frozenset(local))
        result = cache._get(key)
        if result is None:
            if cancelled is not None and cancelled():
                raise ReviewCancelled
            result = _compute(paragraph, span, block.protected, target, known, key[4])
            cache.engine_runs += 1
            cache._put(key, result)
        if not result.changes:
            continue
        changes = result.changes
        if ends is None:
            ends = prose_ends(kept)
        if continues_sentence(text, paragraph.start, ends):
            open_start = keep_open_sentence(span, result.replacement)
            if open_start != result.replacement:
                changes = _classified(
                    paragraph, span, word_edits(span, open_start), block.protected, target
                )
        base = paragraph.start
        for change, code in changes:
            out.append(
                Finding(
                    base + change.start,
                    base + change.end,
                    change.original,
                    change.replacement,
                    code,
                    describe(change.said, change.says),
                )
            )
    return out
