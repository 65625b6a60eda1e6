"""Findings from edits already computed: the service's review, as the offline review's findings.

The pipeline (:func:`rephrase_ls.improve.pipeline.improve_text`) gives the service's improvement as
minimal word edits in document offsets; here they are cut into change groups
(:func:`~rephrase_ls.review.changes.change_groups`, per prose block: a group never leaves its
block's lines nor covers protected text) and classified (:mod:`.codes`), with no second diff.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rephrase_ls.review.changes import change_groups
from rephrase_ls.review.codes import classify, describe
from rephrase_ls.review.findings import Finding
from rephrase_ls.text.diff import TextEdit

if TYPE_CHECKING:
    from rephrase_ls.text.markup import ProseBlock

__all__ = ["edit_findings"]


def edit_findings(
    text: str, blocks: Sequence[ProseBlock], edits: Sequence[TextEdit], target_lang: str
) -> list[Finding]:
    """One :class:`Finding` per change group of ``edits`` (sorted, disjoint, document offsets)
    over ``text``, in document order. ``blocks``: the document's prose blocks in order; an
    edit outside every block (which the pipeline never gives) is cut to none. ``target_lang``
    (such as ``en-us``) decides what counts as a ``variant`` change."""
    out: list[Finding] = []
    starts = [e.start for e in edits]
    for block in blocks:
        lo = bisect_left(starts, block.start)
        hi = bisect_right(starts, block.end)
        inside = [e for e in edits[lo:hi] if block.start <= e.start and e.end <= block.end]
        if not inside:
            continue
        base = block.start
        span = text[base : block.end]
        relative = [TextEdit(e.start - base, e.end - base, e.new_text) for e in inside]
        segments = [(s - base, e - base) for s, e in block.segments]
        protected = [(s - base, e - base) for s, e in block.protected]
        for change in change_groups(span, relative, segments, protected):
            out.append(
                Finding(
                    base + change.start,
                    base + change.end,
                    change.original,
                    change.replacement,
                    classify(change.said, change.says, target_lang),
                    describe(change.said, change.says),
                )
            )
    return out
