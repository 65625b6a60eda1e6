"""In-document language overrides, code normalisation and detection."""

from __future__ import annotations

import sys
import types

import pytest

from rephrase_ls.text.language import detect, document_override, normalize_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("---\ntitle: A post\nlang: de\n---\nText.\n", "de"),
        ('---\r\nlanguage: "en_GB"  # British\r\n---\r\nText.', "en-GB"),
        ("\ufeff---\nlang: 'pt-br'\n...\nText", "pt-br"),
        ("---\rlang: fr\r---\rText", "fr"),
        ('+++\ntitle = "x"\nlang = "it"\n+++\n', "it"),
        ("# Title\n\n<!-- rephrase: language=es -->\nText\n", "es"),
        ("\\section{A}\n% rephrase: language=de\n", "de"),
        ("#!/usr/bin/env python\n# rephrase: language=en-US\n", "en-US"),
        ("int x;\n  // rephrase: language=fr\n", "fr"),
        ("/* rephrase: language=it */\n", "it"),
        ("Title\n=====\n\n.. rephrase: language=pt-PT\n", "pt-PT"),
        ("-- rephrase: language=de\nselect 1;", "de"),
        # The explicit comment wins over front matter.
        ("---\nlang: de\n---\n<!-- rephrase: language=fr -->\n", "fr"),
    ],
)
def test_overrides_are_found(text: str, expected: str) -> None:
    assert document_override(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Plain text without any override.",
        "Some text\n---\nlang: de\n---\n",  # front matter only at the very start
        "---\ntitle: no language\n---\nlang: de\n",  # after the front matter: just text
        "---\n  lang: de\n---\n",  # nested key, not the document's
        "---\nlang: de\n",  # never closed: not front matter
        "We talk about rephrase: language=de in prose.",  # not in a comment
        "<!-- rephrase: language=not a code -->",
    ],
)
def test_no_override(text: str) -> None:
    assert document_override(text) is None


def test_override_is_found_at_the_end_of_a_large_document() -> None:
    text = "Just some words on a line, nothing more.\n" * 25_000 + "% rephrase: language=de\n"
    assert document_override(text) == "de"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("de", "de"),
        ("DE", "de"),
        ("en", "en-US"),
        ("EN", "en-US"),
        ("pt", "pt-BR"),
        ("en-gb", "en-GB"),
        ("EN_us", "en-US"),
        ("pt-pt", "pt-PT"),
        ("es-419", "es-419"),
        ("zh-hant", "zh-Hant"),
        (" fr ", "fr"),
    ],
)
def test_normalize_language(code: str, expected: str) -> None:
    assert normalize_language(code) == expected


def test_bare_codes_take_the_configured_variants() -> None:
    assert normalize_language("en", english_variant="en-gb") == "en-GB"
    assert normalize_language("pt", portuguese_variant="PT-pt") == "pt-PT"
    assert normalize_language("de", english_variant="en-GB") == "de"


@pytest.mark.parametrize("code", ["", "x", "english", "en US", "de-", "12", "en-US-"])
def test_bad_codes_are_rejected(code: str) -> None:
    with pytest.raises(ValueError, match="invalid language code"):
        normalize_language(code)


def test_bad_variant_settings_are_rejected() -> None:
    with pytest.raises(ValueError, match="english_variant"):
        normalize_language("en", english_variant="de-DE")
    with pytest.raises(ValueError, match="portuguese_variant"):
        normalize_language("pt", portuguese_variant="pt")


def test_detect_delegates_to_the_detector(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def fake_detect(text: str) -> str | None:
        calls.append(text)
        return "fr"

    fake = types.ModuleType("rephrase_ls.text.detect")
    fake.detect_language = fake_detect  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rephrase_ls.text.detect", fake)
    assert detect("Bonjour tout le monde") == "fr"
    assert calls == ["Bonjour tout le monde"]


def test_detect_with_the_real_engine() -> None:
    pytest.importorskip("rephrase_ls.offline.engine")
    assert detect("Das ist ein schöner Tag, und wir gehen heute nach Hause.") == "de"
    assert detect("This is a fine day, and we are going home today.") == "en"
