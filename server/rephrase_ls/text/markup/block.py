"""The prose block: what every format module finds in a document."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ProseBlock", "Span"]

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class ProseBlock:
    """One paragraph of prose in a document.

    ``segments``: per line, ``[start, end)`` of the prose on that line, as absolute offsets, in
    order. The text between consecutive segments (line break, the next line's indentation or
    ``> ``/``# ``/``// `` leader) is kept verbatim and never sent.
    ``protected``: sorted absolute spans inside the segments that must come back unchanged
    (inline code, URLs, commands...).
    """

    segments: tuple[Span, ...]
    protected: tuple[Span, ...] = ()

    def __post_init__(self) -> None:
        if not self.segments:
            raise ValueError("a ProseBlock needs at least one segment")
        previous_end = -1
        for start, end in self.segments:
            if start < 0 or end < start:
                raise ValueError(f"invalid segment [{start}, {end})")
            if start < previous_end:
                raise ValueError("ProseBlock segments must be in order and must not overlap")
            previous_end = end
        previous_start = -1
        for start, end in self.protected:
            if start < 0 or end < start:
                raise ValueError(f"invalid protected span [{start}, {end})")
            if start < previous_start:
                raise ValueError("ProseBlock protected spans must be sorted")
            previous_start = start

    @property
    def start(self) -> int:
        """Offset of the first prose character."""
        return self.segments[0][0]

    @property
    def end(self) -> int:
        """Offset just after the last prose character."""
        return self.segments[-1][1]
