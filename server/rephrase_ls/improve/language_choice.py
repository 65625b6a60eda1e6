"""The document's language and what the service offers for it (styles, tones, variants).

Decided from, in order: a ``rephrase: language=xx`` comment in the document (or its front
matter, or its format's own setting such as ``<html lang="de">``), the ``language`` setting,
offline detection of the prose, the language the service detected; then looked up in the
write product's capability list.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rephrase_ls.text.language import (
    detect,
    detect_variant,
    document_override,
    is_latin_script,
    may_be_english,
    normalize_language,
)

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.service.capabilities import Capabilities
    from rephrase_ls.text.markup import ProseBlock

#: Variant pairs offered as "Convert to …" actions.
VARIANTS = {"en-US": "en-GB", "en-GB": "en-US", "pt-BR": "pt-PT", "pt-PT": "pt-BR"}

#: How much prose language detection looks at (detection is reliable well before this).
DETECTION_SAMPLE = 4000


def prose_sample(text: str, blocks: Sequence[ProseBlock], limit: int = DETECTION_SAMPLE) -> str:
    """Prose from the start of the document, for language detection: the segments of its
    blocks, without the markup, code and metadata around them (an AsciiDoc header's attribute
    entries, Org keywords and drawers, front matter), up to about ``limit`` characters."""
    parts: list[str] = []
    size = 0
    for block in blocks:
        for start, end in block.segments:
            parts.append(text[start:end])
            size += end - start
            if size >= limit:
                return " ".join(parts)
        parts.append("\n\n")
    return " ".join(parts)

@dataclass(frozen=True)
class LanguageChoice:
    """The document's language and what the write product offers for it."""

    language: str | None
    """Normalised code (``de``, ``en-US``) or None when unknown."""
    source: str
    """Where it came from: document, settings, detected, service, default (English for
    Latin-script text too short to detect, see :func:`resolve_language`) or unknown."""
    target_lang: str | None
    """What to send as ``target_lang``: None when the write product does not support it."""
    writing_styles: tuple[str, ...] = ()
    tones: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    reason: str | None = None
    """Why there are no style choices, in words for the writer."""
    variant_guessed: bool = False
    """The language is English or Portuguese but nothing says which variant (detected with
    no variant spelling, or set as bare ``en``/``pt``): the variant is the setting's, and a
    plain Improve keeps the document's variant spellings
    (:mod:`rephrase_ls.guards.variants_keep`)."""


def resolve_language(
    text: str,
    settings: Settings,
    capabilities: Capabilities | None,
    *,
    service_detected: str | None = None,
    sample: str | None = None,
    detected_variant: str | None = None,
    default_english: bool = False,
    fmt: str | None = None,
) -> LanguageChoice:
    """Decide the language: in-document override, setting, offline detection, the service's view.

    ``detected_variant`` (``en-US``, say) is the variant the document was detected as before
    the server converted part of it: while the detected base language is the same, it stands,
    so converting one paragraph does not change what the whole document is said to be.

    ``default_english``: when nothing gives the language, the prose is written in Latin
    script and is too short to detect or leans to English (:func:`may_be_english`), take
    English in the configured variant (source ``default``) rather than leave it unknown (the
    command line: a commit message's one line).

    ``fmt``: the document's format (a languageId of :mod:`rephrase_ls.text.markup`), whose own
    language setting is read (``:lang:``, ``#+LANGUAGE:``, ``#set text(lang: …)``, ``<html
    lang>``); None reads each format's.
    """
    override = document_override(text, fmt)
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
        elif default_english and is_latin_script(excerpt) and may_be_english(excerpt):
            language, source = "en", "default"
        else:
            language, source = None, "unknown"
    guessed = language is not None and language.strip().lower() in ("en", "pt")
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
            variant_guessed=guessed,
        )
    entry = capabilities.find_target(language)
    if entry is None:
        return LanguageChoice(
            language,
            source,
            None,
            reason=f"the service cannot improve {language} text with styles or tones; "
            "the default improvement is used",
            variant_guessed=guessed,
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
    return LanguageChoice(
        language, source, entry.lang, styles, tones, variants, reason, variant_guessed=guessed
    )
