"""What one improvement asks for, as one typed value built and validated in one place.

:class:`ImproveOptions` is what the writer chose (a code action, the ``rephrase.improve``
command's options, the CLI's ``--style``/``--tone``/``--convert``, or the workspace's settings for
the plain "Improve"); :meth:`ImproveOptions.mode` turns it into the :class:`Mode` sent to the
service for the document's language, applying the ``prefer_`` rule. The style and tone names,
and their parsing (:func:`~rephrase_ls.service.models.parse_name`), are those of
:mod:`rephrase_ls.service.models`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rephrase_ls.service.models import PREFER_PREFIX, Endpoint, parse_name

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.improve.language_choice import LanguageChoice

@dataclass(frozen=True)
class Mode:
    """What one request to the service asks for: the target and the style or tone as sent."""

    target_lang: str | None = None
    writing_style: str | None = None
    tone: str | None = None
    keep_variant: bool = field(default=False, compare=False)
    """Keep the document's spelling variant: an answer's variant conversions are taken out
    unless the document allows them (a plain Improve or a style or tone, not a conversion, of a
    document whose variant the writer did not set;
    :func:`rephrase_ls.guards.variants_keep.keep_variant_spellings`). Not sent, nor part of the
    cache's key: the answer is the same."""
    variant_detected: bool = field(default=False, compare=False)
    """The target's variant was read from the document, not guessed. Not sent."""
    endpoint: Endpoint = "rephrase"
    """The service's endpoint the request goes to; part of the cache's key. ``correct``:
    corrections only (``/v2/write/correct``), never with a style or tone."""

    @property
    def correct(self) -> bool:
        """Whether this asks for corrections only."""
        return self.endpoint == "correct"

    def label(self) -> str:
        """A short description for messages."""
        parts = [p for p in (self.writing_style, self.tone) if p]
        if self.correct:
            parts.insert(0, "corrections only")
        if self.target_lang:
            parts.append(self.target_lang)
        return ", ".join(parts) or "default"


@dataclass(frozen=True)
class ImproveOptions:
    """One improvement's choice: a writing style, a tone, a variant to convert to, or none
    (the plain "Improve": the workspace's style or tone, if any).

    Build it with :meth:`parse`, which validates; :meth:`mode` resolves it against the
    workspace's settings and the document's language.
    """

    writing_style: str | None = None
    """A base name of :data:`~rephrase_ls.service.models.WRITING_STYLES`."""
    tone: str | None = None
    """A base name of :data:`~rephrase_ls.service.models.TONES`."""
    variant: str | None = None
    """Convert to this variant (``en-GB``, say) instead of improving in a style."""
    prefer: bool = False
    """Asked for in the ``prefer_`` form: where the language has no styles, the default is
    used (also so for every name when the ``preferFallback`` setting is on)."""
    correct: bool = False
    """Corrections only ("Correct"): spelling and grammar, the wording kept; never a style,
    a tone (not even the workspace's) or a conversion."""

    @classmethod
    def parse(
        cls,
        *,
        writing_style: str | None = None,
        tone: str | None = None,
        variant: str | None = None,
        correct: bool = False,
    ) -> ImproveOptions:
        """The options for what the writer picked (names in any case, ``prefer_x`` for the
        ``prefer_`` form; none: the workspace's default; ``correct``: corrections only).

        Raises :class:`~rephrase_ls.service.models.UnknownName` for a name that is not a style
        or tone, ``ValueError`` when more than one of the four is given.
        """
        if sum(v is not None for v in (writing_style, tone, variant)) + bool(correct) > 1:
            raise ValueError(
                "a writing style, a tone, a variant and corrections only exclude each other"
            )
        if correct:
            return cls(correct=True)
        if writing_style is not None:
            base, prefer = parse_name("writing style", writing_style)
            return cls(writing_style=base, prefer=prefer)
        if tone is not None:
            base, prefer = parse_name("tone", tone)
            return cls(tone=base, prefer=prefer)
        return cls(variant=variant)

    @property
    def is_conversion(self) -> bool:
        """Whether this converts to another variant."""
        return self.variant is not None

    @property
    def is_default(self) -> bool:
        """Whether nothing was picked: the workspace's style or tone applies."""
        return (
            self.writing_style is None
            and self.tone is None
            and self.variant is None
            and not self.correct
        )

    def as_pair(self) -> tuple[str, str | None]:
        """``(kind, value)`` as code action data carries it: ``default``, ``style``, ``tone``,
        ``variant`` or ``correct``, and the name as given to :meth:`parse`."""
        if self.correct:
            return "correct", None
        prefix = PREFER_PREFIX if self.prefer else ""
        if self.writing_style is not None:
            return "style", prefix + self.writing_style
        if self.tone is not None:
            return "tone", prefix + self.tone
        if self.variant is not None:
            return "variant", self.variant
        return "default", None

    def mode(
        self, settings: Settings, choice: LanguageChoice, endpoint: Endpoint = "rephrase"
    ) -> Mode:
        """The request for a document in ``choice``'s language (the one place of the
        ``prefer_`` rule).

        A style or tone is sent in its ``prefer_`` form when asked so or when the
        ``preferFallback`` setting is on. The workspace's own style or tone (the plain
        "Improve") is left out where the language does not offer it, so that action never
        fails on a language without styles; a picked one is sent as it is.
        """
        if self.variant is not None:
            return Mode(self.variant, endpoint=endpoint)
        keep_variant = choice.target_lang is not None and (
            choice.variant_guessed or choice.source not in ("document", "settings")
        )
        if self.correct or endpoint == "correct":
            return Mode(
                choice.target_lang,
                keep_variant=keep_variant,
                variant_detected=not choice.variant_guessed,
                endpoint="correct",
            )
        picked = self
        if self.is_default:
            picked = ImproveOptions.parse(
                writing_style=settings.writing_style,
                tone=None if settings.writing_style else settings.tone,
            )
        prefer = picked.prefer or settings.prefer_fallback

        def sent(base: str | None, offered: tuple[str, ...]) -> str | None:
            if base is None:
                return None
            if prefer:
                return PREFER_PREFIX + base
            if self.is_default and base not in offered:
                return None
            return base

        return Mode(
            choice.target_lang,
            sent(picked.writing_style, choice.writing_styles),
            sent(picked.tone, choice.tones),
            keep_variant=keep_variant,
            variant_detected=not choice.variant_guessed,
            endpoint=endpoint,
        )
