"""Review mode's core: the offline engine's changes to a document as separate findings.

Pure: no LSP, no HTTP. :func:`findings` gives, for a document's prose blocks, one
:class:`Finding` per change group (its range over the original words, the replacement, a rule
code and a ``teh → the`` message), computed per paragraph and cached in a
:class:`ReviewCache` so that after an edit only the changed paragraphs are improved again.
The language server turns them into diagnostics and quick fixes.
"""

from rephrase_ls.review.changes import Change, change_groups
from rephrase_ls.review.codes import (
    CAPITALISATION,
    CODES,
    DOUBLED_WORD,
    PUNCTUATION,
    SPACING,
    SPELLING,
    VARIANT,
    classify,
    describe,
)
from rephrase_ls.review.findings import (
    Finding,
    ReviewCache,
    ReviewCancelled,
    findings,
    offline_target,
    review_mode,
)

__all__ = [
    "CAPITALISATION",
    "CODES",
    "DOUBLED_WORD",
    "PUNCTUATION",
    "SPACING",
    "SPELLING",
    "VARIANT",
    "Change",
    "Finding",
    "ReviewCache",
    "ReviewCancelled",
    "change_groups",
    "classify",
    "describe",
    "findings",
    "offline_target",
    "review_mode",
]
