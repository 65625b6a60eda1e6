"""The service's findings through an edit: moved with the text, dropped where it changed.

Pure. A finding was made on one text; after an edit it still applies where the edit did not
touch its words (nor the characters right at their edges), at an offset moved by the edit.
"""

from __future__ import annotations

from dataclasses import replace

from rephrase_ls.review.findings import Finding

__all__ = ["carry"]


def _common_prefix(a: str, b: str) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:  # the longest n with a[:n] == b[:n]: log n slice comparisons in C
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: str, b: str, limit: int) -> int:
    low, high = 0, limit
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            low = mid
        else:
            high = mid - 1
    return low


def carry(found: list[Finding], old: str, new: str) -> list[Finding]:
    """``found`` (findings on ``old``) on ``new``: those outside the changed stretch, moved with
    the text; a finding whose words (or the characters right at its edges) changed is dropped."""
    if old == new:
        return found
    prefix = _common_prefix(old, new)
    suffix = _common_suffix(old, new, min(len(old), len(new)) - prefix)
    changed_start, changed_end = prefix, len(old) - suffix
    shift = len(new) - len(old)
    out = []
    for f in found:
        if f.end < changed_start:
            out.append(f)
        elif f.start > changed_end:
            out.append(replace(f, start=f.start + shift, end=f.end + shift))
    return out
