"""Protected spans travel to the service as placeholders ``{{N}}`` and are restored afterwards.

Why this form survives a rephrase: ``{{0}}`` looks like a template variable (Mustache, Jinja,
Handlebars, i18n message catalogues), and text-improvement services are built to leave such
tokens alone: they contain no word to improve, no spelling to fix, and changing them would
break the templates their users send. The offline engine is told to keep them verbatim. A
rephraser may still move a placeholder to another place in the sentence, which is fine, or
drop, duplicate, reorder or alter it, which :meth:`Masked.unmask` detects and reports as a
:class:`PlaceholderError` instead of guessing.

Placeholders are numbered from 0 in document order. A literal ``{{N}}``-looking sequence that
is already in the prose is protected as well, so it cannot be mistaken for one of ours.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

__all__ = ["PLACEHOLDER", "Masked", "PlaceholderError", "mask", "placeholder"]

#: Matches one placeholder; group 1 is its number.
PLACEHOLDER = re.compile(r"\{\{(\d+)\}\}")
# Something a rephraser may have made of a placeholder: spaces inside, a brace lost, ...
_NEAR_MISS = re.compile(r"\{+\s*(\d+)\s*\}+|\{\s+\{\s*(\d+)\s*\}\s*\}")

PlaceholderProblem = Literal["lost", "duplicated", "reordered", "altered"]


def placeholder(number: int) -> str:
    """The placeholder text for ``number``."""
    return "{{" + str(number) + "}}"


class PlaceholderError(ValueError):
    """A placeholder did not come back from the service exactly once, in order, unchanged."""

    def __init__(self, kind: PlaceholderProblem, number: int, detail: str) -> None:
        super().__init__(detail)
        self.kind: PlaceholderProblem = kind
        self.number = number


@dataclass(frozen=True)
class Masked:
    """A text whose protected spans are replaced by placeholders.

    ``text`` is what is sent; ``originals[N]`` is the protected text behind ``{{N}}``.
    """

    text: str
    originals: tuple[str, ...]

    def unmask(self, improved: str) -> str:
        """``improved`` with every placeholder replaced by its original text."""
        return self.restore(improved)[0]

    def restore(self, improved: str) -> tuple[str, tuple[tuple[int, int], ...]]:
        """Like :meth:`unmask`, also giving the spans of the restored originals in the result.

        Raises :class:`PlaceholderError` when a placeholder is lost, duplicated, reordered or
        altered, or an unknown one appears.
        """
        matches = list(PLACEHOLDER.finditer(improved))
        count = len(self.originals)
        seen: dict[int, int] = {}
        for match in matches:
            number = int(match.group(1))
            if number >= count:
                raise PlaceholderError(
                    "altered",
                    number,
                    f"the service returned an unknown placeholder {{{{{number}}}}}",
                )
            if number in seen:
                raise PlaceholderError(
                    "duplicated",
                    number,
                    f"protected text {self.originals[number]!r} came back more than once",
                )
            seen[number] = len(seen)
        missing = [n for n in range(count) if n not in seen]
        if missing:
            number = missing[0]
            altered = any(
                int(m.group(1) or m.group(2)) == number and m.group() != placeholder(number)
                for m in _NEAR_MISS.finditer(improved)
            )
            kind: PlaceholderProblem = "altered" if altered else "lost"
            what = "was altered" if altered else "was lost"
            raise PlaceholderError(
                kind, number, f"protected text {self.originals[number]!r} {what} by the service"
            )
        order = [int(m.group(1)) for m in matches]
        for position, number in enumerate(order):
            if number != position:
                raise PlaceholderError(
                    "reordered",
                    number,
                    f"protected text {self.originals[number]!r} came back out of order",
                )
        pieces: list[str] = []
        spans: list[tuple[int, int]] = []
        position = 0
        length = 0
        for match in matches:
            before = improved[position : match.start()]
            pieces.append(before)
            length += len(before)
            original = self.originals[int(match.group(1))]
            pieces.append(original)
            spans.append((length, length + len(original)))
            length += len(original)
            position = match.end()
        pieces.append(improved[position:])
        return "".join(pieces), tuple(spans)


def _merged(spans: Iterable[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    result: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if not 0 <= start <= end <= length:
            raise ValueError(f"protected span [{start}, {end}) is outside the text ({length})")
        if start == end:
            continue
        if result and start < result[-1][1]:
            result[-1] = (result[-1][0], max(result[-1][1], end))
        else:
            result.append((start, end))
    return result


def mask(text: str, spans: Iterable[tuple[int, int]] = ()) -> Masked:
    """Replace each protected span of ``text`` (and each literal ``{{N}}``) by a placeholder.

    Overlapping spans are merged; touching spans stay separate placeholders.
    """
    protected = _merged(spans, len(text))
    literal = []
    for match in PLACEHOLDER.finditer(text):
        start, end = match.span()
        if not any(s <= start and end <= e for s, e in protected):
            literal.append((start, end))
    if literal:
        protected = _merged([*protected, *literal], len(text))
    pieces: list[str] = []
    originals: list[str] = []
    position = 0
    for number, (start, end) in enumerate(protected):
        pieces.append(text[position:start])
        pieces.append(placeholder(number))
        originals.append(text[start:end])
        position = end
    pieces.append(text[position:])
    return Masked("".join(pieces), tuple(originals))
