"""The improvement pipeline shared by the language server and the command line.

document → prose paragraphs (text/) → the service (service/) → rebuilt paragraphs → minimal edits.
It knows nothing of LSP: the server and the CLI turn its edits into protocol edits or a diff.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import re
import time
from bisect import bisect_left
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rephrase_ls.settings import Settings
from rephrase_ls.text.diff import TextEdit, word_edits
from rephrase_ls.text.language import (
    detect,
    detect_variant,
    document_override,
    is_directive,
    normalize_language,
)
from rephrase_ls.text.paragraphs import Paragraph, select_paragraphs

if TYPE_CHECKING:
    from rephrase_ls.backend import Backend
    from rephrase_ls.service.capabilities import Capabilities
    from rephrase_ls.service.models import Improvement
    from rephrase_ls.text.markup import ProseBlock

#: The part of the document a paragraph's edits may touch (None: all of it).
Clip = tuple[int, int] | None

log = logging.getLogger(__name__)

#: Variant pairs offered as "Convert to …" actions.
VARIANTS = {"en-US": "en-GB", "en-GB": "en-US", "pt-BR": "pt-PT", "pt-PT": "pt-BR"}

#: How much prose language detection looks at (detection is reliable well before this).
DETECTION_SAMPLE = 4000

#: Paragraphs are rebuilt while later requests are in flight, in slices of at most this many
#: seconds of CPU between two turns of the event loop, so answers are read (and the next
#: requests sent) without waiting for the rebuilding.
REBUILD_SLICE = 0.002
#: The pause after each slice while requests are in flight (see ``improve_paragraphs``).
REBUILD_PAUSE = 0.0005


@dataclass(frozen=True)
class LanguageChoice:
    """The document's language and what the write product offers for it."""

    language: str | None
    """Normalised code (``de``, ``en-US``) or None when unknown."""
    source: str
    """Where it came from: document, settings, detected, service or unknown."""
    target_lang: str | None
    """What to send as ``target_lang``: None when the write product does not support it."""
    writing_styles: tuple[str, ...] = ()
    tones: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    reason: str | None = None
    """Why there are no style choices, in words for the writer."""


def resolve_language(
    text: str,
    settings: Settings,
    capabilities: Capabilities | None,
    *,
    service_detected: str | None = None,
    sample: str | None = None,
    detected_variant: str | None = None,
) -> LanguageChoice:
    """Decide the language: in-document override, setting, offline detection, the service's view.

    ``detected_variant`` (``en-US``, say) is the variant the document was detected as before
    the server converted part of it: while the detected base language is the same, it stands,
    so converting one paragraph does not change what the whole document is said to be.
    """
    override = document_override(text)
    language: str | None
    if override:
        language, source = override, "document"
    elif settings.language:
        language, source = settings.language, "settings"
    else:
        excerpt = (sample if sample is not None else text)[:DETECTION_SAMPLE]
        detected = detect(excerpt)
        if detected:
            language, source = detected, "detected"
            if detected in ("en", "pt"):
                # A British document is improved as en-GB, not converted to American spelling.
                if detected_variant and detected_variant.split("-")[0].lower() == detected:
                    language = detected_variant
                else:
                    language = detect_variant(excerpt, detected) or detected
        elif service_detected:
            language, source = service_detected, "service"
        else:
            language, source = None, "unknown"
    if language is not None:
        language = normalize_language(
            language, settings.english_variant, settings.portuguese_variant
        )
    if language is None:
        return LanguageChoice(
            None,
            source,
            None,
            reason="the document's language could not be determined; set rephrase.language "
            "or add a 'rephrase: language=xx' comment",
        )
    if capabilities is None:
        return LanguageChoice(
            language,
            source,
            language,
            reason="the service's language list is not loaded yet",
        )
    entry = capabilities.find(language)
    if entry is None or not entry.usable_as_target:
        return LanguageChoice(
            language,
            source,
            None,
            reason=f"the service cannot improve {language} text with styles or tones; "
            "the default improvement is used",
        )
    styles = capabilities.writing_styles(entry.lang)
    tones = capabilities.tones(entry.lang)
    variant = VARIANTS.get(entry.lang)
    variants: tuple[str, ...] = ()
    if variant is not None:
        other = capabilities.find(variant)
        if other is not None and other.usable_as_target:
            variants = (other.lang,)
    reason = None
    if not styles and not tones:
        reason = f"the service offers no writing styles or tones for {entry.lang}"
    return LanguageChoice(language, source, entry.lang, styles, tones, variants, reason)


@dataclass(frozen=True)
class Mode:
    """What one improvement asks for."""

    target_lang: str | None = None
    writing_style: str | None = None
    tone: str | None = None

    def label(self) -> str:
        """A short description for messages."""
        parts = [p for p in (self.writing_style, self.tone) if p]
        if self.target_lang:
            parts.append(self.target_lang)
        return ", ".join(parts) or "default"


def default_mode(settings: Settings, choice: LanguageChoice) -> Mode:
    """The mode of the plain "Improve" action: the workspace's style or tone where supported.

    A style the language does not offer is dropped (or sent as ``prefer_`` when the user asked
    for that), so the plain action never fails on a language without styles.
    """
    style, tone = settings.writing_style, settings.tone

    def fit(value: str | None, offered: tuple[str, ...]) -> str | None:
        if value is None:
            return None
        base = value.removeprefix("prefer_")
        if value.startswith("prefer_"):
            return value
        if base in offered:
            return f"prefer_{base}" if settings.prefer_fallback else base
        return f"prefer_{base}" if settings.prefer_fallback else None

    return Mode(choice.target_lang, fit(style, choice.writing_styles), fit(tone, choice.tones))


class ImprovementCache:
    """Improvements already paid for, keyed by (backend, text, target, style, tone); LRU-bounded."""

    def __init__(self, max_chars: int = 8_000_000) -> None:
        self._items: OrderedDict[
            tuple[str, str, str | None, str | None, str | None], tuple[str, str]
        ]
        self._items = OrderedDict()
        self._chars = 0
        self.max_chars = max_chars

    def get(self, backend: str, text: str, mode: Mode) -> tuple[str, str] | None:
        key = (backend, text, mode.target_lang, mode.writing_style, mode.tone)
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, backend: str, text: str, mode: Mode, improved: str, detected: str) -> None:
        key = (backend, text, mode.target_lang, mode.writing_style, mode.tone)
        if key in self._items:
            return
        self._items[key] = (improved, detected)
        self._chars += len(text) + len(improved)
        while self._chars > self.max_chars and self._items:
            (_, old_text, *_), (old_improved, _) = self._items.popitem(last=False)
            self._chars -= len(old_text) + len(old_improved)


def without_directives(text: str, blocks: Sequence[ProseBlock]) -> list[ProseBlock]:
    """The blocks without the lines that are a ``rephrase: language=xx`` directive.

    The directive is an instruction to rephrase-ls in a comment, not prose: improved as the
    first words of a paragraph it would come back as "Rephrase: language=…".
    """
    if "rephrase" not in text:
        return list(blocks)
    from rephrase_ls.text.markup import ProseBlock

    out: list[ProseBlock] = []
    for block in blocks:
        runs: list[list[tuple[int, int]]] = [[]]
        for start, end in block.segments:
            if is_directive(text[start:end]):
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


@dataclass
class Outcome:
    """What one improvement produced."""

    replacements: list[tuple[Paragraph, str, Clip]] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    detected_language: str | None = None
    sent_texts: int = 0
    # (start, end, replacement) → (the span's text, its word edits relative to start), as
    # computed while the paragraph was rebuilt; used when the span still reads the same.
    _known_edits: dict[tuple[int, int, str], tuple[str, list[TextEdit]]] = field(
        default_factory=dict, repr=False
    )

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


def _paragraph_label(text: str, paragraph: Paragraph, index: int) -> str:
    line = text.count("\n", 0, paragraph.start) + 1
    words = paragraph.prose.split()
    head = " ".join(words[:6]) + (" …" if len(words) > 6 else "")
    return f"paragraph {index + 1} (line {line}, “{head}”)"


#: What ends a sentence (before closing quotes, brackets and emphasis markers).
_SENTENCE_END = frozenset(".!?…。！？‼⁇⁈⁉")
_CLOSERS = "\"'’”»›)]}*_`~ \t\r\n"


def prose_ends(blocks: Sequence[ProseBlock | Paragraph]) -> tuple[list[int], list[int]]:
    """The starts and ends of the blocks, sorted by start (for :func:`continues_sentence`)."""
    spans = sorted((block.start, block.end) for block in blocks)
    return [s for s, _ in spans], [e for _, e in spans]


def continues_sentence(text: str, start: int, ends: tuple[list[int], list[int]]) -> bool:
    """Whether the prose at ``start`` goes on a sentence the prose before it left open.

    The prose before is that of the last block starting before ``start`` (up to ``start`` when
    the block holds it): whatever lies between — a list marker, a code block, a quote marker —
    is not prose and neither ends nor opens a sentence. It is open when it does not end with a
    full stop, a question or exclamation mark or an ellipsis (closing quotes, brackets and
    emphasis markers after them aside): it ends with a colon (``dass:`` before a list), a comma,
    a word… At the start of the document (no prose before) and after a title (a Markdown,
    setext, reStructuredText or LaTeX heading) a sentence starts.
    """
    starts, block_ends = ends
    k = bisect_left(starts, start) - 1
    if k < 0:
        return False
    end = min(block_ends[k], start)
    before = text[max(starts[k], end - 200) : end].rstrip(_CLOSERS)
    if not before or before[-1] in _SENTENCE_END:
        return False
    return end < block_ends[k] or not _is_heading(text, starts[k], block_ends[k])


# A heading's line: `## Title` (also in a quote), a LaTeX sectioning command; the line under a
# setext or reStructuredText title.
_HEADING_LINE = re.compile(r"[ \t]*(?:>[ \t]*)*#{1,6}[ \t]")
_LATEX_HEADING = re.compile(
    r"\\(?:part|chapter|(?:sub)*section|(?:sub)?paragraph|caption|title|frametitle)\*?"
    r"(?:\[[^\]\n]*\])?\{$"
)
_UNDERLINE = re.compile(r"([=\-~^\"'`*+#:.])\1{2,}[ \t]*$")


def _is_heading(text: str, start: int, end: int) -> bool:
    """Whether the block ``[start, end)`` is a title (it ends no sentence, and opens none)."""
    line_start = text.rfind("\n", 0, start) + 1
    if _HEADING_LINE.match(text, line_start, start) is not None:
        return True
    if _LATEX_HEADING.search(text[max(line_start, start - 40) : start]) is not None:
        return True
    next_line = text.find("\n", end)
    if next_line < 0:
        return False
    following_end = text.find("\n", next_line + 1)
    following = text[next_line + 1 : len(text) if following_end < 0 else following_end]
    return _UNDERLINE.match(following.rstrip("\r")) is not None


_LETTER_RUN = re.compile(r"[^\W\d_]+")
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")


def _words_of(code: str) -> list[str]:
    """The lower-case words of ``code``: its letter runs, camelCase split at each capital
    (``fetchStrcts_v2`` gives ``fetch`` and ``strcts``)."""
    return [
        part.lower()
        for run in _LETTER_RUN.findall(code)
        for part in _CAMEL_HUMP.split(run)
        if len(part) > 1
    ]


def code_words(text: str, blocks: Sequence[ProseBlock | Paragraph]) -> frozenset[str]:
    """The words the document ``text`` writes outside its prose: in code blocks, inline code,
    identifiers, URLs and paths (everything outside the ``blocks``' prose, and their
    protected spans). A service never changes such a word in the prose either
    (:func:`keep_code_words`): it names the code (``recieve()`` defined, "then recieve
    waits")."""
    outside: list[str] = []
    pos = 0
    for block in blocks:
        if isinstance(block, Paragraph):
            segments: Sequence[tuple[int, int]] = ((block.start, block.end),)
            inside = list(block.masked.originals) if block.masked is not None else []
        else:
            segments = block.segments
            inside = [text[start:end] for start, end in block.protected]
        for start, end in segments:
            if start >= pos:
                outside.append(text[pos:start])
                pos = end
        outside.extend(inside)
    outside.append(text[pos:])
    runs = {run for piece in outside for run in _LETTER_RUN.findall(piece)}
    return frozenset(word for run in runs for word in _words_of(run))


_WORD_OR_NOT = re.compile(r"[^\W\d_]+|[\W\d_]+")


def keep_code_words(original: str, replacement: str, code: frozenset[str]) -> str:
    """``replacement`` without the replacements of words of ``code`` (:func:`code_words`) by
    other words: such a word is kept as it was, every other change applied (a doubled word
    removed, a capital added, another word corrected)."""
    parts: list[str] = []
    pos = 0
    for edit in word_edits(original, replacement):
        parts.append(original[pos : edit.start])
        pos = edit.end
        changed = original[edit.start : edit.end]
        if not any(word in code for word in _words_of(changed)):
            parts.append(edit.new_text)
            continue
        old, new = _WORD_OR_NOT.findall(changed), _WORD_OR_NOT.findall(edit.new_text)
        matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "replace":
                parts.extend(new[j1:j2])  # equal, inserted, or deleted (a doubled word)
            elif i2 - i1 == j2 - j1:
                parts.extend(
                    a if a.lower() != b.lower() and set(_words_of(a)) & code else b
                    for a, b in zip(old[i1:i2], new[j1:j2], strict=True)
                )
            else:
                gone = {w for a in old[i1:i2] for w in _words_of(a)} - {
                    w for b in new[j1:j2] for w in _words_of(b)
                }
                parts.extend(old[i1:i2] if gone & code else new[j1:j2])
    parts.append(original[pos:])
    return "".join(parts)


def keep_open_sentence(original: str, replacement: str) -> str:
    """``replacement`` with the first letter of ``original`` as it was when the only change to
    it is a capital (``or build …`` → ``Or build …``): a paragraph that goes on an open sentence
    starts in lower case. Any other change (a rewritten or corrected first word) is kept."""
    i = next((k for k, c in enumerate(original) if c.isalpha()), -1)
    if i < 0:
        return replacement
    char = original[i]
    j = i + 1  # the end of the first word
    while j < len(original) and original[j].isalnum():
        j += 1
    if (
        char.islower()
        and len(replacement) > i
        and replacement[:i] == original[:i]
        and replacement[i] != char
        and replacement[i].lower() == char
        # the rest of the word as it was: a word whose casing was corrected inside too
        # (github → GitHub) is a correction, not a capital
        and replacement[i + 1 : j] == original[i + 1 : j]
        and not replacement[j : j + 1].isalnum()
    ):
        return replacement[:i] + char + replacement[i + 1 :]
    return replacement


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
) -> Outcome:
    """Improve the paragraphs (see :func:`improve_in_one_language`); when the service refuses
    because some paragraphs are in another language than ``target_lang`` (a quotation, a
    passage in another language), leave those as they are, say so, and improve the rest.

    The paragraphs are checked one by one only after such a refusal, so the usual case pays
    nothing; answers already received were cached and are not paid for twice.
    """
    from rephrase_ls.service.errors import BadRequest

    try:
        return await improve_in_one_language(
            backend, text, paragraphs, mode, cache, on_progress, clips, blocks=blocks
        )
    except BadRequest:
        if mode.target_lang is None or len(paragraphs) < 2:
            raise
        base = mode.target_lang.split("-")[0].lower()
        keep: list[int] = []
        foreign: list[tuple[int, str]] = []
        for index, paragraph in enumerate(paragraphs):
            language = detect(paragraph.prose)
            if language is not None and language != base:
                foreign.append((index, language))
            else:
                keep.append(index)
        if not foreign or not keep:
            raise
        clip_of = list(clips) if clips is not None else [None] * len(paragraphs)
        outcome = await improve_in_one_language(
            backend,
            text,
            [paragraphs[i] for i in keep],
            mode,
            cache,
            on_progress,
            [clip_of[i] for i in keep],
            blocks=blocks if blocks is not None else paragraphs,
        )
        outcome.refused[:0] = [
            f"{_paragraph_label(text, paragraphs[i], i)} was left as it is: it is in {language}, "
            f"not {mode.target_lang} (improving and translating at once is not possible)"
            for i, language in foreign
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
) -> Outcome:
    """Send the paragraphs' prose (minus what the cache knows) and rebuild each paragraph.

    Each paragraph is rebuilt (and its word edits computed) as soon as its answer arrives,
    while later requests are still in flight; each answer is cached as it arrives (it is paid
    for even when a later request fails). A paragraph whose placeholders did not survive is
    refused (named in ``refused``); the others go on. Service errors propagate: the caller
    shows them and applies nothing.

    ``blocks``: the document's prose blocks (by default the paragraphs themselves), to know
    whether the prose before each paragraph ends a sentence; where it does not, an answer
    that capitalises the paragraph's first letter keeps it as it is (see
    :func:`keep_open_sentence`); and which words the document writes in code, which no
    answer changes (:func:`keep_code_words`).
    """
    from rephrase_ls.text.placeholders import PlaceholderError

    outcome = Outcome()
    ends_before = prose_ends(blocks if blocks is not None else paragraphs)
    clip_of = list(clips) if clips is not None else [None] * len(paragraphs)
    if len(clip_of) != len(paragraphs):
        raise ValueError(f"{len(clip_of)} clips for {len(paragraphs)} paragraphs")
    results: list[tuple[str, str] | None] = [
        cache.get(backend.cache_key, p.prose, mode) for p in paragraphs
    ]
    ready: deque[int] = deque(i for i, r in enumerate(results) if r is not None)
    detected: Counter[str] = Counter()
    refused: list[tuple[int, str]] = []
    added: list[tuple[int, Paragraph, str, tuple[str, list[TextEdit]] | None]] = []
    code: list[frozenset[str]] = []  # the document's code words, see code_words()

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
                    f"{_paragraph_label(text, paragraph, index)} was not changed: the service "
                    f"altered protected markup ({exc})",
                )
            )
            return
        except ValueError as exc:  # e.g. an empty answer for a non-empty paragraph
            refused.append(
                (
                    index,
                    f"{_paragraph_label(text, paragraph, index)} was not changed: the service's "
                    f"answer cannot be used ({exc})",
                )
            )
            return
        span = text[paragraph.start : paragraph.end]
        if replacement != span and continues_sentence(text, paragraph.start, ends_before):
            kept = keep_open_sentence(span, replacement)
            if kept != replacement:
                replacement, relative = kept, word_edits(span, kept)
        if replacement != span:
            if not code:  # once per document, and only when a paragraph changes
                code.append(code_words(text, blocks if blocks is not None else paragraphs))
            kept = keep_code_words(span, replacement, code[0])
            if kept != replacement:
                replacement, relative = kept, word_edits(span, kept)
        if replacement != span:
            # The edits are relative to the paragraph's own text, which is the span for every
            # paragraph made from the document (Outcome.edits checks it again).
            known = (span, relative) if paragraph.original == span else None
            added.append((index, paragraph, replacement, known))

    async def work(in_flight: bool) -> None:
        """Rebuild the paragraphs whose answers are in, yielding to the event loop often.

        While requests are in flight each slice is followed by a short pause rather than a
        bare yield: reading an answer and sending the next request takes the client several
        turns of the loop, and a slice between each of them would delay every request."""
        turn_ends = time.perf_counter() + REBUILD_SLICE
        while ready:
            finish(ready.popleft())
            if ready and time.perf_counter() >= turn_ends:
                await asyncio.sleep(REBUILD_PAUSE if in_flight else 0)
                turn_ends = time.perf_counter() + REBUILD_SLICE

    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        capabilities = backend.capabilities.peek("write")
        loop = asyncio.get_running_loop()
        arrived: list[asyncio.Future[None]] = [loop.create_future()]

        def take(k: int, improvement: Improvement) -> None:
            index = missing[k]
            if results[index] is not None:
                return
            value = (improvement.text, improvement.detected_source_language)
            cache.put(backend.cache_key, paragraphs[index].prose, mode, *value)
            results[index] = value
            ready.append(index)

        def on_result(indexes: Sequence[int], improvements: Sequence[Improvement]) -> None:
            for k, improvement in zip(indexes, improvements, strict=True):
                take(k, improvement)
            if not arrived[0].done():
                arrived[0].set_result(None)

        request = asyncio.ensure_future(
            backend.client.rephrase(
                [paragraphs[i].prose for i in missing],
                target_lang=mode.target_lang,
                writing_style=mode.writing_style,
                tone=mode.tone,
                on_progress=on_progress,
                on_result=on_result,
                capabilities=capabilities,
            )
        )
        try:
            while not request.done():
                if ready:
                    await work(in_flight=True)
                    continue
                await asyncio.wait((request, arrived[0]), return_when=asyncio.FIRST_COMPLETED)
                if arrived[0].done():
                    arrived[0] = loop.create_future()
            improvements = request.result()
        finally:
            if not request.done():
                # Cancelled, or rebuilding failed: stop the requests in flight.
                request.cancel()
                await asyncio.wait((request,))
            if not request.cancelled():
                request.exception()  # retrieved: whatever stopped us is what propagates
        outcome.sent_texts = len(missing)
        if len(improvements) != len(missing):
            raise ValueError(f"{len(improvements)} improvements for {len(missing)} texts")
        for k, improvement in enumerate(improvements):
            take(k, improvement)  # texts the client did not report one by one
    await work(in_flight=False)
    for index, paragraph, replacement, known in sorted(added, key=lambda a: a[0]):
        outcome.add(paragraph, replacement, clip_of[index], known)
    outcome.refused = [message for _, message in sorted(refused)]
    if detected:
        outcome.detected_language = detected.most_common(1)[0][0]
    return outcome
