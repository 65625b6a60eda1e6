"""Shared checks for the markup extractors' tests."""

from __future__ import annotations

from pathlib import Path

from rephrase_ls.text.markup import ProseBlock

DATA = Path(__file__).resolve().parents[2] / "data" / "markup"


def data(name: str) -> str:
    """A document of tests/data/markup, read without newline translation."""
    with open(DATA / name, encoding="utf-8", newline="") as handle:
        return handle.read()


def check_blocks(text: str, blocks: list[ProseBlock]) -> None:
    """The ProseBlock contract, for every block of a document.

    Segments: non-empty, trimmed of spaces and tabs, on one line each (line breaks as LSP
    counts them: \n, \r\n, \r), in order, blocks disjoint and in document
    order. Protected spans: sorted, disjoint, each inside one segment.
    """
    previous_end = -1
    for block in blocks:
        for s, e in block.segments:
            assert 0 <= s < e <= len(text), (s, e)
            assert s >= previous_end, "segments overlap or are out of order"
            piece = text[s:e]
            assert "\n" not in piece and "\r" not in piece, repr(piece)
            assert piece == piece.strip(" \t"), repr(piece)
            previous_end = e
        last = -1
        for s, e in block.protected:
            assert s < e and s >= last, "protected spans must be sorted and disjoint"
            assert any(ss <= s and e <= se for ss, se in block.segments), (
                f"protected {text[s:e]!r} is not inside one segment"
            )
            last = e


def texts(text: str, blocks: list[ProseBlock]) -> list[list[str]]:
    """Each block's segments as text."""
    return [[text[s:e] for s, e in block.segments] for block in blocks]


def protected(text: str, blocks: list[ProseBlock]) -> list[str]:
    """Every protected span of every block, as text, in order."""
    return [text[s:e] for block in blocks for s, e in block.protected]


def joined(text: str, blocks: list[ProseBlock]) -> list[str]:
    """Each block's segments joined by spaces (what the service would see, unmasked)."""
    return [" ".join(text[s:e] for s, e in block.segments) for block in blocks]
