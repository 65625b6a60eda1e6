"""Which kinds of findings are shown and applied: ``disabledRules``, ``enabledRules`` and the
spacing a rendered document does not show.

A finding's kind is its code (:mod:`.codes`). ``disabledRules`` turns kinds off: their findings
are not shown, and the offline engine's Improve does not make their changes
(:func:`revert_off`: the engine's answer is cut into change groups as the review cuts it, each
classified the same way, and the groups of a kind turned off are undone, so that Improve and the
review agree change for change).

Spacing a rendered document does not show — a run of spaces, or spaces and a line break, inside
a Markdown, reStructuredText or LaTeX paragraph, which the rendered page shows as one space —
is not shown by default (:func:`hidden_by_rendering`); ``enabledRules = ["spacing"]`` shows it.
Spacing that shows (a space before a comma) is shown in every format, and plain text and
commit messages show every spacing finding: there the text is what the reader sees.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from typing import Protocol, TypeVar

from rephrase_ls.review.codes import SPACING, classify

__all__ = ["RENDERED_FORMATS", "hidden_by_rendering", "revert_off", "shown"]

#: Formats whose readers see the rendered document, where a run of whitespace inside a
#: paragraph is one space (languageIds, as :func:`rephrase_ls.text.markup.format_for` gives).
RENDERED_FORMATS = frozenset(
    {
        "markdown",
        "restructuredtext",
        "rst",
        "latex",
        "tex",
        "plaintex",
        "asciidoc",
        "org",
        "typst",
        "html",
    }
)

_RUN = re.compile(r"[ \t]*(?:\r\n|\r|\n)[ \t]*|[ \t]+")


def _collapsed(text: str) -> str:
    return _RUN.sub(" ", text)


def hidden_by_rendering(code: str, original: str, replacement: str, fmt: str) -> bool:
    """Whether a change is spacing the rendered ``fmt`` document does not show: both sides are
    the same once each run of spaces, tabs and one line break is one space (``a  b`` → ``a b``)."""
    return (
        code == SPACING
        and fmt in RENDERED_FORMATS
        and _collapsed(original) == _collapsed(replacement)
    )


class _Kind(Protocol):
    """What a finding needs here: its code and both sides."""

    @property
    def code(self) -> str: ...
    @property
    def original(self) -> str: ...
    @property
    def replacement(self) -> str: ...


F = TypeVar("F", bound=_Kind)


def shown(found: Iterable[F], off: Collection[str], on: Collection[str], fmt: str) -> list[F]:
    """The findings of ``found`` to show: none whose code is in ``off``; none that is spacing
    the rendered document hides, unless ``on`` holds ``spacing``."""
    spacing_on = SPACING in on
    return [
        f
        for f in found
        if f.code not in off
        and (spacing_on or not hidden_by_rendering(f.code, f.original, f.replacement, fmt))
    ]


def revert_off(text: str, improved: str, target: str, off: Collection[str]) -> str:
    """``improved`` (the engine's answer for ``text``) without the changes of the kinds in
    ``off``: the answer is cut into change groups (:func:`~.changes.change_groups`), each is
    classified (:func:`~.codes.classify`), and those of a kind turned off keep the original."""
    if not off or improved == text:
        return improved
    from rephrase_ls.review.changes import change_groups
    from rephrase_ls.text.diff import word_edits

    edits = word_edits(text, improved)
    groups = change_groups(text, edits, [(0, len(text))])
    pieces: list[str] = []
    position = 0
    for change in groups:
        pieces.append(text[position : change.start])
        code = classify(change.said, change.says, target)
        pieces.append(change.original if code in off else change.replacement)
        position = change.end
    pieces.append(text[position:])
    return "".join(pieces)
