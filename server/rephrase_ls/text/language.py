"""The document's language: in-document overrides, code normalisation, offline detection."""

from __future__ import annotations

import re

__all__ = ["LANGUAGE_CODE", "detect", "document_override", "normalize_language"]

#: A language code as users write it: ``de``, ``en-US``, ``pt_br``, ``zh-Hant``, ``es-419``.
LANGUAGE_CODE = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*")

_CODE = r"[\"']?(?P<code>[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*)[\"']?"
_LINE_BREAK = r"(?:\r\n|\r|\n)"
# YAML front matter at the very start (optionally after a BOM), closed by --- or ...
_AFTER_BREAK = r"(?:(?<=\n)|(?<=\r))"
_YAML_FRONT_MATTER = re.compile(
    rf"\ufeff?---[ \t]*{_LINE_BREAK}(?P<body>.*?){_AFTER_BREAK}(?:---|\.\.\.)[ \t]*"
    rf"(?:{_LINE_BREAK}|\Z)",
    re.DOTALL,
)
_TOML_FRONT_MATTER = re.compile(
    rf"\ufeff?\+\+\+[ \t]*{_LINE_BREAK}(?P<body>.*?){_AFTER_BREAK}\+\+\+[ \t]*"
    rf"(?:{_LINE_BREAK}|\Z)",
    re.DOTALL,
)
_YAML_KEY = re.compile(
    rf"(?:^|(?<=[\r\n]))(?:lang|language)[ \t]*:[ \t]*{_CODE}[ \t]*(?:#[^\r\n]*)?(?=[\r\n]|\Z)"
)
_TOML_KEY = re.compile(
    rf"(?:^|(?<=[\r\n]))(?:lang|language)[ \t]*=[ \t]*{_CODE}[ \t]*(?:#[^\r\n]*)?(?=[\r\n]|\Z)"
)
# "rephrase: language=de" after a comment leader of any common syntax, at a line start:
# <!-- -->, %, #, //, /* */, *, --, ;, "..", (* *), {- -}, REM.
_COMMENT = re.compile(
    r"(?:^|(?<=[\r\n]))[ \t]*(?:<!--|%+|#+|//+|/\*+|\*+|--|;+|\.\.|\(\*|\{-|[Rr][Ee][Mm]\b)"
    rf"[ \t]*rephrase[ \t]*:[ \t]*language[ \t]*[=:][ \t]*{_CODE}"
    r"(?=[ \t]*(?:-->|\*/|\*\)|-\}|[\r\n]|\Z))"
)

# The document's own language setting, on a line of its own: AsciiDoc's `:lang: de` attribute
# entry, Org's `#+LANGUAGE: de` keyword.
_ASCIIDOC_LANG = re.compile(rf"(?:^|(?<=[\r\n])):lang:[ \t]*{_CODE}[ \t]*(?=[\r\n]|\Z)")
_ORG_LANG = re.compile(rf"(?:^|(?<=[\r\n]))#\+(?i:language):[ \t]*{_CODE}[ \t]*(?=[\r\n]|\Z)")
# Typst's `#set text(lang: "de", region: "at")` (also `set text(…)` in code, a template's body):
# the rule's head, then its arguments (strings, and groups one deep, read up to
# _TYPST_ARGS_LIMIT characters), and the two arguments that say the language.
_TYPST_SET_TEXT = re.compile(r"(?:^|(?<=[\r\n{;]))[ \t]*#?set[ \t]+text[ \t]*\(")
_TYPST_STRING = r'"(?:[^"\\]|\\.)*+"'
_TYPST_ARGS = re.compile(
    rf"(?:[^()\"]|{_TYPST_STRING}|\((?:[^()\"]|{_TYPST_STRING})*+\))*+\)", re.DOTALL
)
_TYPST_ARGS_LIMIT = 2000
_TYPST_LANG = re.compile(r'(?<![\w-])lang\s*:\s*"(?P<code>[A-Za-z]{2,3})"')
_TYPST_REGION = re.compile(r'(?<![\w-])region\s*:\s*"(?P<region>[A-Za-z]{2})"')
#: Languages whose regional variants rephrase tells apart (en-GB/en-US, pt-PT/pt-BR): a Typst
#: ``region`` is kept for them and dropped for the others (``de`` in Austria is ``de``).
_REGIONAL = frozenset(("en", "pt"))
# HTML's `<html lang="de">` (or `xml:lang`): the root element's attributes, read up to
# _HTML_TAG_LIMIT characters.
_HTML_ROOT = re.compile(r"<html(?=[\s>/])", re.IGNORECASE)
_HTML_ATTRIBUTES = re.compile(r"(?:[^>\"']|\"[^\"]*+\"|'[^']*+')*+>")
_HTML_TAG_LIMIT = 4000
_HTML_LANG = re.compile(
    r"(?<![\w:-])(?:xml:)?lang\s*=\s*(?:\"(?P<q>[^\"]*)\"|'(?P<a>[^']*)'|(?P<u>[^\s>\"']+))",
    re.IGNORECASE,
)


def _asciidoc_language(text: str) -> str | None:
    match = _ASCIIDOC_LANG.search(text) if ":lang:" in text else None
    return None if match is None else match.group("code")


def _org_language(text: str) -> str | None:
    match = _ORG_LANG.search(text) if "#+" in text else None
    return None if match is None else match.group("code")


def _typst_language(text: str) -> str | None:
    """The language of the first ``set text(…)`` rule that gives one, with its region for the
    languages of :data:`_REGIONAL`."""
    if "text" not in text:
        return None
    for head in _TYPST_SET_TEXT.finditer(text):
        start = head.end()
        args = _TYPST_ARGS.match(text, start, start + _TYPST_ARGS_LIMIT)
        if args is None:  # never closed, or nested deeper than read: not a rule to trust
            continue
        lang = _TYPST_LANG.search(text, start, args.end())
        if lang is None:
            continue
        code = lang.group("code").lower()
        region = _TYPST_REGION.search(text, start, args.end())
        if region is not None and code in _REGIONAL:
            return f"{code}-{region.group('region').upper()}"
        return code
    return None


def _html_language(text: str) -> str | None:
    """The ``lang`` (or ``xml:lang``) of the document's ``<html>`` element."""
    root = _HTML_ROOT.search(text)
    if root is None:
        return None
    start = root.end()
    tag = _HTML_ATTRIBUTES.match(text, start, start + _HTML_TAG_LIMIT)
    if tag is None:
        return None
    lang = _HTML_LANG.search(text, start, tag.end() - 1)
    if lang is None:
        return None
    value = (lang.group("q") or lang.group("a") or lang.group("u") or "").strip()
    if LANGUAGE_CODE.fullmatch(value) is None:
        return None
    return _without_region(value.replace("_", "-"))


def _without_region(code: str) -> str:
    """``code`` without its region (``de-AT`` → ``de``, ``zh-Hant-TW`` → ``zh-Hant``) unless
    its language is one of :data:`_REGIONAL` (``en-GB`` stays)."""
    parts = code.split("-")
    if parts[0].lower() in _REGIONAL:
        return code
    return "-".join(part for i, part in enumerate(parts) if i == 0 or len(part) == 4)


#: Each format's own language setting, by format name (a languageId of text.markup).
_NATIVE_SETTINGS = {
    "asciidoc": _asciidoc_language,
    "org": _org_language,
    "typst": _typst_language,
    "html": _html_language,
}


def document_override(text: str, fmt: str | None = None) -> str | None:
    """The language a document asks for, or ``None``.

    A ``rephrase: language=de`` comment (in any comment syntax, on its own line, anywhere)
    wins; otherwise ``lang:`` / ``language:`` of YAML front matter (``---``) or ``lang =`` /
    ``language =`` of TOML front matter (``+++``), or the format's own setting: an AsciiDoc
    ``:lang: de`` attribute entry, an Org ``#+LANGUAGE: de`` keyword, a Typst ``#set
    text(lang: "de")`` rule (with ``region: "gb"``, ``en-GB``), an HTML ``<html lang="de">``.
    ``fmt`` is the document's format (see :func:`rephrase_ls.text.markup.format_for`): only its
    own setting is read; without it, each format's. The code is returned as written, ``_``
    turned into ``-``; pass it through :func:`normalize_language`.
    """
    match = _COMMENT.search(text)
    if match is not None:
        return match.group("code").replace("_", "-")
    front = _YAML_FRONT_MATTER.match(text)
    key = _YAML_KEY
    if front is None:
        front = _TOML_FRONT_MATTER.match(text)
        key = _TOML_KEY
    if front is not None:
        match = key.search(front.group("body"))
        return None if match is None else match.group("code").replace("_", "-")
    if fmt is None:
        readers = tuple(_NATIVE_SETTINGS.values())
    else:
        reader = _NATIVE_SETTINGS.get(fmt)
        readers = () if reader is None else (reader,)
    for read in readers:
        code = read(text)
        if code is not None:
            return code.replace("_", "-")
    return None


def _variant(value: str, base: str, name: str) -> str:
    code = _normalized_case(value, name)
    if code.split("-")[0] != base or "-" not in code:
        raise ValueError(f"{name} must be a variant of {base!r} such as {base}-XX, not {value!r}")
    return code


def _normalized_case(code: str, name: str = "language") -> str:
    if not isinstance(code, str) or LANGUAGE_CODE.fullmatch(code.strip()) is None:
        raise ValueError(f"invalid {name} code: {code!r}")
    parts = code.strip().replace("_", "-").split("-")
    result = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 4 and part.isalpha():
            result.append(part.title())  # script: zh-Hant
        elif len(part) == 2 or (len(part) == 3 and part.isdigit()):
            result.append(part.upper())  # region: en-US, es-419
        else:
            result.append(part.lower())
    return "-".join(result)


def normalize_language(
    code: str, english_variant: str = "en-US", portuguese_variant: str = "pt-BR"
) -> str:
    """``EN_us`` → ``en-US``, ``DE`` → ``de``; bare ``en`` / ``pt`` → the configured variant.

    Raises ``ValueError`` for something that is not a language code, or a variant setting that
    is not a variant of English / Portuguese.
    """
    normalized = _normalized_case(code)
    if normalized == "en":
        return _variant(english_variant, "en", "english_variant")
    if normalized == "pt":
        return _variant(portuguese_variant, "pt", "portuguese_variant")
    return normalized


def detect(text: str) -> str | None:
    """The detector's guess at the language of ``text`` (lower-case base code or None; see
    :mod:`rephrase_ls.text.detect`)."""
    from rephrase_ls.text.detect import detect_language

    return detect_language(text)


def paragraph_language(text: str, document: str | None) -> str | None:
    """The detector's guess at the language of one paragraph of a document in ``document``
    (a base code, or None): a few Han characters alone (a heading in kanji) are read as the
    document's Japanese, not as Chinese."""
    from rephrase_ls.text.detect import detect_language, is_han_heading

    found = detect_language(text)
    if found == "zh" and document == "ja" and is_han_heading(text):
        return "ja"
    return found


def too_short_to_tell(text: str) -> bool:
    """Whether ``text`` has too few words for any language to be told from it (a title)."""
    from rephrase_ls.text.detect import enough_words, script_language, words

    if script_language(text) is not None:
        return False  # told by its script
    counted = [word for word, _name in words(text)]
    return not enough_words(len(counted), sum(len(word) for word in counted))


#: Letters of the Latin script: ASCII, Latin-1, Latin Extended-A/B, IPA, Latin Extended
#: Additional (Vietnamese), the fullwidth forms aside.
_LATIN = re.compile(r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02af\u1e00-\u1eff]")
_ANY_LETTER = re.compile(r"[^\W\d_]")


def is_latin_script(text: str) -> bool:
    """Whether most letters of ``text`` are Latin (and it has some): text that, too short to
    detect, may be taken as English by default, where Cyrillic or Greek may not."""
    letters = len(_ANY_LETTER.findall(text))
    return letters > 0 and len(_LATIN.findall(text)) * 2 > letters


def may_be_english(text: str) -> bool:
    """Whether ``text``, which the detector could not decide on, may be taken as English: it
    is too short for any language to be told from it, or English leads the other languages
    (``the parser recieved a NULL pointer``), where a longer text in a language the detector
    does not know (Dutch) leads with another."""
    from rephrase_ls.text.detect import leading_language

    return too_short_to_tell(text) or leading_language(text) == "en"


def detect_variant(text: str, language: str) -> str | None:
    """The variant the spellings of a text point to (en-GB/en-US, pt-PT/pt-BR) or None."""
    from rephrase_ls.text.variant_detect import detect_variant as spelling_variant

    return spelling_variant(text, language)


# The directive as prose sees it once the comment leader is outside the segment.
_DIRECTIVE_PROSE = re.compile(rf"\s*rephrase[ \t]*:[ \t]*language[ \t]*[=:][ \t]*{_CODE}\s*")


def is_directive(prose: str) -> bool:
    """Whether ``prose`` is only a ``rephrase: language=xx`` directive (never improved)."""
    return _DIRECTIVE_PROSE.fullmatch(prose) is not None
