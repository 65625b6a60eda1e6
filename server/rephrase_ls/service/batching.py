"""Pack texts into request bodies that never exceed a byte limit (pure, no I/O).

Sizes are computed incrementally. The body encoder is assumed *additive*, which the JSON and
form encodings both are: a body of texts ``t1..tk`` is ``base + Σ item(ti) + (k-1)·sep`` bytes,
and a text's item size is ``item("") + Σ esc(pieces)`` for any split of it into pieces, because
both JSON escaping and percent-encoding work code point by code point. The three constants are
measured with the encoder itself, each text (or sentence, when splitting) is encoded once, and
every final body is encoded once more to check it really fits, so a non-additive encoder is
caught (``ValueError``) instead of sending an oversized body.

A text too large for one request is split at sentence boundaries (``.!?`` and ``。！？``), then
after clause marks (``、，,;；``: Chinese and Japanese write no spaces between words), then at
word boundaries, then between characters, never inside one (a character with its combining
marks, an emoji sequence joined by zero-width joiners). Each piece keeps its trailing
whitespace, so the pieces concatenate back to the text exactly.

:func:`encode_json` is the body encoding the client uses and :func:`json_text_size` its exact
size measure. :class:`ImprovementAssembly` puts the answers back together: each text's
improvement as soon as all its pieces have arrived, in whatever order the requests complete.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring as _encode_basestring

from rephrase_ls.service.models import Improvement

DEFAULT_LIMIT = 10 * 1024

EncodeBody = Callable[[list[str]], bytes]
Measure = Callable[[str], int]

# A sentence ends at terminal punctuation (with closing quotes/brackets) followed by whitespace,
# at CJK full stops (no whitespace needed), or at a line break. The pattern starts with one
# character class (then picks its branch by look-behind) so the scan is fast; it matches the same
# as ``[.!?…‼⁇⁈⁉]+[closers]*\s+ | [。！？]+[closers]*\s* | \n\s*``.
_SENTENCE_END = re.compile(
    r"[.!?…‼⁇⁈⁉。！？\n]"
    r"(?:(?<=[.!?…‼⁇⁈⁉])[.!?…‼⁇⁈⁉]*[\"'”’»)\]]*\s+"
    r"|(?<=[。！？])[。！？]*[」』”’)）]*\s*"
    r"|(?<=\n)\s*)"
)
# A clause ends after a full-width comma or semicolon (and any spaces after it), or after a
# comma or semicolon followed by spaces (not inside "1,000").
_CLAUSE_END = re.compile(r"[、，；︐︑﹐﹑､]\s*|[,;]\s+")
_WORD_START = re.compile(r"\s+(?=\S)")
# One character as a reader sees it: a code point with the combining marks, variation
# selectors and zero-width-joined code points after it.
_CLUSTER = re.compile(
    r"(?s:.)(?:[\u0300-\u036f\u0483-\u0489\u0591-\u05bd\u0610-\u061a\u064b-\u065f"
    r"\u0900-\u0903\u093a-\u094f\u0e31-\u0e3a\u0e47-\u0e4e\u1ab0-\u1aff\u1dc0-\u1dff"
    r"\u20d0-\u20ff\u302a-\u302f\u3099\u309a\ufe00-\ufe0f\ufe20-\ufe2f\U0001f3fb-\U0001f3ff"
    r"\U000e0020-\U000e007f\U000e0100-\U000e01ef\u200c]|\u200d(?s:.))*"
)
# Characters json.dumps(ensure_ascii=False) escapes inside a string.
_JSON_ESCAPED = re.compile(r'[\x00-\x1f"\\]')


def encode_json(obj: object) -> bytes:
    """The compact JSON encoding used for request bodies (the bytes the size limit counts)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def json_text_size(text: str) -> int:
    """Bytes ``text`` takes inside a compact JSON body, without its quotes.

    ``json.dumps(..., ensure_ascii=False)`` escapes strings with ``encode_basestring``; this is
    the same function, so the size is exact. Raises ``UnicodeEncodeError`` on lone surrogates.
    """
    if _JSON_ESCAPED.search(text) is None:
        return len(text.encode())  # nothing to escape: the UTF-8 bytes themselves
    return len(_encode_basestring(text).encode()) - 2


@dataclass(frozen=True)
class BatchPlan:
    """Requests to send and how to re-join their pieces into one result per text.

    ``requests[r]`` holds the pieces sent in request ``r``; ``owners[r][j]`` is the index of
    the text that piece ``j`` of request ``r`` belongs to. Pieces of a text appear in order.
    ``bodies[r]``, when :func:`plan_batches` made the plan, is ``encode_body(requests[r])``,
    the bytes it checked against the limit, so that a sender need not encode them again.
    """

    requests: tuple[tuple[str, ...], ...]
    owners: tuple[tuple[int, ...], ...]
    text_count: int
    bodies: tuple[bytes, ...] = ()

    @property
    def total_requests(self) -> int:
        return len(self.requests)

    def join(self, results: Sequence[Sequence[str]]) -> list[str]:
        """One string per text from the per-request results (same shape as ``requests``).

        Pieces of a split text are concatenated; every piece but the last gets back the
        trailing whitespace it was sent with (a service may strip it), so sentences never
        run together.
        """
        if len(results) != len(self.requests):
            raise ValueError(f"expected {len(self.requests)} results, got {len(results)}")
        parts: list[list[tuple[str, str]]] = [[] for _ in range(self.text_count)]
        for r, (sent, got, owners) in enumerate(
            zip(self.requests, results, self.owners, strict=True)
        ):
            if len(got) != len(sent):
                raise ValueError(f"request {r}: expected {len(sent)} pieces, got {len(got)}")
            for original, improved, owner in zip(sent, got, owners, strict=True):
                parts[owner].append((original, improved))
        joined: list[str] = []
        for pieces in parts:
            out: list[str] = []
            last = len(pieces) - 1
            for k, (original, improved) in enumerate(pieces):
                if k < last:
                    trailing = original[len(original.rstrip()) :]
                    if trailing:
                        improved = improved.rstrip() + trailing
                out.append(improved)
            joined.append("".join(out))
        return joined


def _cut(text: str, pattern: re.Pattern[str]) -> list[str]:
    """Split ``text`` after each match of ``pattern``; the pieces concatenate to ``text``."""
    pieces: list[str] = []
    start = 0
    for m in pattern.finditer(text):
        end = m.end()
        if start < end < len(text):
            pieces.append(text[start:end])
            start = end
    pieces.append(text[start:])
    return pieces


class _Sizer:
    """Escaped sizes of strings under an additive body encoder."""

    def __init__(self, encode_body: EncodeBody, measure: Measure | None) -> None:
        self.encode_body = encode_body
        self.measure = measure
        self.base = len(encode_body([]))
        self.item_empty = len(encode_body([""])) - self.base
        self.sep = len(encode_body(["", ""])) - self.base - 2 * self.item_empty
        self._char_cache: dict[str, int] = {}

    def esc(self, text: str) -> int:
        """Bytes of the text's content alone (without quotes or a field name)."""
        if self.measure is not None:
            return self.measure(text)
        return len(self.encode_body([text])) - self.base - self.item_empty

    def esc_char(self, char: str) -> int:
        size = self._char_cache.get(char)
        if size is None:
            size = self._char_cache[char] = self.esc(char)
        return size


def _split(text: str, cap: int, sizer: _Sizer, esc_text: int) -> list[tuple[str, int]]:
    """Split ``text`` (escaped size ``esc_text`` > cap) into pieces of escaped size ≤ ``cap``."""
    units: list[tuple[str, int]] = []
    _units(text, cap, sizer, 0, units, esc_text)
    # Greedy merge of consecutive units: sizes add up exactly.
    pieces: list[tuple[str, int]] = []
    buf: list[str] = []
    size = 0
    for unit, usize in units:
        if buf and size + usize > cap:
            pieces.append(("".join(buf), size))
            buf, size = [], 0
        buf.append(unit)
        size += usize
    if buf:
        pieces.append(("".join(buf), size))
    return pieces


def _units(
    text: str, cap: int, sizer: _Sizer, level: int, out: list[tuple[str, int]], size: int
) -> None:
    """Append units of ``text`` no larger than ``cap``: sentences, then clauses, then words,
    then characters (see :data:`_CLUSTER`)."""
    if size <= cap:
        out.append((text, size))
        return
    if level == 0:
        parts = _cut(text, _SENTENCE_END)
    elif level == 1:
        parts = _cut(text, _CLAUSE_END)
    elif level == 2:
        parts = _cut(text, _WORD_START)
    else:
        for cluster in _CLUSTER.findall(text):
            csize = sum(sizer.esc_char(char) for char in cluster)
            if csize > cap:
                raise ValueError(
                    f"the body limit is too small to hold the character U+{ord(cluster[0]):04X}"
                    + (" with the marks that follow it" if len(cluster) > 1 else "")
                )
            out.append((cluster, csize))
        return
    if len(parts) == 1:
        _units(text, cap, sizer, level + 1, out, size)
        return
    for part in parts:
        _units(part, cap, sizer, level + 1, out, sizer.esc(part))


def plan_batches(
    texts: Sequence[str],
    encode_body: EncodeBody,
    limit: int = DEFAULT_LIMIT,
    *,
    measure: Measure | None = None,
) -> BatchPlan:
    """Pack ``texts`` in order into requests whose ``encode_body(pieces)`` is ≤ ``limit`` bytes.

    ``encode_body`` turns a list of texts into the exact request body (all other fields
    included). ``measure``, optional, gives a text's encoded content size directly (a fast path:
    by default it is derived from ``encode_body([text])``). Raises ``ValueError`` when the limit
    cannot hold even one character, or when the encoder (or ``measure``) turns out not to be
    additive.
    """
    if isinstance(texts, str):
        raise TypeError("texts must be a sequence of strings, not a single string")
    if not all(isinstance(t, str) for t in texts):
        raise TypeError("texts must be strings")
    if limit <= 0:
        raise ValueError("limit must be positive")
    sizer = _Sizer(encode_body, measure)
    cap = limit - sizer.base - sizer.item_empty
    if cap <= 0:
        raise ValueError(f"a body limit of {limit} bytes cannot hold any text")

    requests: list[tuple[str, ...]] = []
    owners: list[tuple[int, ...]] = []
    cur: list[str] = []
    cur_owners: list[int] = []
    cur_size = sizer.base

    def flush() -> None:
        nonlocal cur, cur_owners, cur_size
        if cur:
            requests.append(tuple(cur))
            owners.append(tuple(cur_owners))
        cur, cur_owners, cur_size = [], [], sizer.base

    for index, text in enumerate(texts):
        esc = sizer.esc(text)
        pieces = [(text, esc)] if esc <= cap else _split(text, cap, sizer, esc)
        for piece, psize in pieces:
            add = sizer.item_empty + psize + (sizer.sep if cur else 0)
            if cur and cur_size + add > limit:
                flush()
                add = sizer.item_empty + psize
            cur.append(piece)
            cur_owners.append(index)
            cur_size += add
    flush()

    bodies = tuple(encode_body(list(pieces_sent)) for pieces_sent in requests)
    for r, body in enumerate(bodies):
        if len(body) > limit:
            raise ValueError(
                f"request {r} would be {len(body)} bytes (over {limit}): the body encoder is not "
                "additive (or measure does not match it)"
            )
    return BatchPlan(
        requests=tuple(requests), owners=tuple(owners), text_count=len(texts), bodies=bodies
    )


def merge_improvements(
    plan: BatchPlan, results: Sequence[Sequence[Improvement]]
) -> list[Improvement]:
    """One improvement per text of ``plan``: split pieces joined, languages from the first."""
    joined = plan.join([[imp.text for imp in got] for got in results])
    firsts: list[Improvement | None] = [None] * plan.text_count
    for got, owners in zip(results, plan.owners, strict=True):
        for imp, owner in zip(got, owners, strict=True):
            if firsts[owner] is None:
                firsts[owner] = imp
    merged: list[Improvement] = []
    for text, first in zip(joined, firsts, strict=True):
        assert first is not None
        merged.append(Improvement(text, first.target_language, first.detected_source_language))
    return merged


class ImprovementAssembly:
    """Joins each text's improvement as soon as all its pieces have arrived."""

    def __init__(self, plan: BatchPlan) -> None:
        self.plan = plan
        self.left = [0] * plan.text_count
        for owners in plan.owners:
            for owner in owners:
                self.left[owner] += 1
        # Pieces of split texts so far: ((request, position), sent, improvement), any order.
        self.pieces: dict[int, list[tuple[tuple[int, int], str, Improvement]]] = {}
        self.done: list[Improvement | None] = [None] * plan.text_count

    def add(self, r: int, got: Sequence[Improvement]) -> tuple[list[int], list[Improvement]]:
        """Take request ``r``'s improvements; the texts they complete, and their improvements."""
        texts: list[int] = []
        improvements: list[Improvement] = []
        for j, (sent, owner, improvement) in enumerate(
            zip(self.plan.requests[r], self.plan.owners[r], got, strict=True)
        ):
            self.left[owner] -= 1
            if self.left[owner] == 0 and owner not in self.pieces:
                whole = improvement  # sent whole: nothing to join
            else:
                parts = self.pieces.setdefault(owner, [])
                parts.append(((r, j), sent, improvement))
                if self.left[owner]:
                    continue
                del self.pieces[owner]
                whole = self._join(parts)
            self.done[owner] = whole
            texts.append(owner)
            improvements.append(whole)
        return texts, improvements

    @staticmethod
    def _join(parts: list[tuple[tuple[int, int], str, Improvement]]) -> Improvement:
        """One text's pieces joined as :meth:`BatchPlan.join` does; languages from the first."""
        parts.sort(key=lambda part: part[0])  # requests complete in any order
        single = BatchPlan(
            requests=(tuple(sent for _, sent, _ in parts),),
            owners=((0,) * len(parts),),
            text_count=1,
        )
        (text,) = single.join([[improvement.text for _, _, improvement in parts]])
        first = parts[0][2]
        return Improvement(text, first.target_language, first.detected_source_language)

    def result(self) -> list[Improvement]:
        finished: list[Improvement] = []
        for improvement in self.done:
            assert improvement is not None, "a text is missing pieces"
            finished.append(improvement)
        return finished
