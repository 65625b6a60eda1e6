"""Protected text: placeholders, quotes, code, links, e-mails, paths, odd words, names."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.offline.engine import improve

PLACEHOLDER = re.compile(r"\{\{\d+\}\}")
TARGETS = ("en-us", "en-gb", "de", "fr", "es", "it", "pt-br", "pt-pt")

# Words that the rules like to change: typos, doubles, lower-case starts, articles, variants.
_WORDS = (
    "the", "The", "teh", "a", "an", "apple", "i", "recieve", "colour", "color", "und", "fur",
    "der", "très", "tres", "voce", "nao", "estou", "fazendo", "ônibus", "is", "was", "it",
    "really", "basically", "do", "not", "send", "Send", "me", "file",
)  # fmt: skip
_SEPARATORS = (" ", "  ", ", ", " , ", ". ", ".", "! ", "? ", "?", "\n", " ;", ":", "...")

placeholders = st.integers(min_value=0, max_value=120).map(lambda n: f"{{{{{n}}}}}")
# Mostly word, separator, word, ... (so rules see real neighbours), sometimes glued pieces.
items = st.one_of(st.sampled_from(_WORDS), st.sampled_from(_WORDS), placeholders)
separators = st.one_of(st.just(" "), st.just(" "), st.sampled_from(_SEPARATORS), st.just(""))
texts = st.lists(st.tuples(items, separators), min_size=1, max_size=20).map(
    lambda pairs: "".join(a + b for a, b in pairs)
)
modes = st.sampled_from(
    [{}, {"writing_style": "business"}, {"writing_style": "casual"}, {"tone": "diplomatic"},
     {"tone": "confident"}, {"writing_style": "simple"}]
)  # fmt: skip


@settings(max_examples=examples(200), deadline=None)
@given(texts, st.sampled_from(TARGETS), modes)
def test_placeholders_survive_byte_for_byte_and_in_order(
    text: str, target: str, mode: dict[str, str]
) -> None:
    out = improve(text, target, **mode)
    assert PLACEHOLDER.findall(out) == PLACEHOLDER.findall(text)


@settings(max_examples=examples(150), deadline=None)
@given(texts, st.sampled_from(TARGETS))
def test_deterministic(text: str, target: str) -> None:
    assert improve(text, target) == improve(text, target)


@settings(max_examples=examples(200), deadline=None)
@given(texts, st.sampled_from(TARGETS))
def test_idempotent(text: str, target: str) -> None:
    once = improve(text, target)
    assert improve(once, target) == once


@pytest.mark.parametrize("text", ["I saw teh the cat.", "the The ;the {{9}}.", "a a apple"])
def test_idempotent_examples(text: str) -> None:
    once = improve(text, "en-us")
    assert improve(once, "en-us") == once


@pytest.mark.parametrize(
    "text",
    [
        "{{0}} {{0}} teh test.",  # not a doubled word
        "the {{1}}the {{1}} recieve",
        "{{2}}teh and teh{{3}} stay glued.",
        "{{0}}. then {{1}}",
        "i {{4}} i",
    ],
)
def test_placeholders_are_not_words(text: str) -> None:
    out = improve(text, "en-us")
    assert PLACEHOLDER.findall(out) == PLACEHOLDER.findall(text)
    # Words glued to a placeholder are never touched.
    for glued in re.findall(r"\}\}[^\W\d_]+|[^\W\d_]+\{\{", text):
        assert glued in out


def test_placeholder_cases() -> None:
    assert improve("{{0}} {{0}} teh test.", "en-us") == "{{0}} {{0}} the test."
    assert improve("{{2}}teh and teh{{3}} stay.", "en-us") == "{{2}}teh and teh{{3}} stay."
    # A placeholder at the start may be code: the next word keeps its case.
    assert improve("{{0}} is great.", "en-us") == "{{0}} is great."
    # After a placeholder that ends a sentence, the next sentence starts with a capital.
    assert improve("See {{0}}. then go.", "en-us") == "See {{0}}. Then go."


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ('He wrote "teh the the recieve" yesterday.', "en-us"),
        ("He wrote 'teh recieve' yesterday.", "en-us"),
        ("Er schrieb „fur fur uber“ gestern.", "de"),
        ("Il a écrit « tres tres deja » hier.", "fr"),
        ("Run `teh  the the` now.", "en-us"),
        ("Run ``a `teh` b`` now.", "en-us"),
        ("See https://example.com/teh/recieve?q=the+the now.", "en-us"),
        ("See www.example.com/teh now.", "en-us"),
        ("Mail teh.recieve@example.com now.", "en-us"),
        ("Open /usr/share/teh/recieve and C:\\teh\\file now.", "en-us"),
        ("Open ./teh/file.txt and ~/recieve/x now.", "en-us"),
        ("The variables teh_recieve and recieve2 stay.", "en-us"),
        ("Call tehRecieve and RecieveTeh now.", "en-us"),
        ("The TEH and RECIEVE acronyms stay.", "en-us"),
        ("We met Recieve and Teh Smith in Colour Springs.", "en-us"),
        ("Edit config.yaml and teh.md now.", "en-us"),
    ],
)
def test_protected_spans_unchanged(text: str, target: str) -> None:
    out = improve(text, target)
    protected = re.findall(
        r'"[^"]*"|\'[^\']*\'|„[^“]*“|«[^»]*»|`+[^`]*`+|\S*[/@\\_]\S*|\S*\d\S*'
        r"|[a-z]+[A-Z]\w*|[A-Z]{2,}|[A-Z][a-z]+ [A-Z]\w+|\w+\.(?:yaml|md)",
        text,
    )
    assert protected
    for span in protected:
        assert span in out, (span, out)


def test_capitalised_words_inside_a_sentence_are_names() -> None:
    assert improve("We met Recieve yesterday.", "en-us") == "We met Recieve yesterday."
    assert improve("Recieve this.", "en-us") == "Receive this."


def test_engine_sentinel_characters_in_input_are_kept() -> None:
    text = "Odd \ue000 and \ue001\ue002 chars, teh end."
    out = improve(text, "en-us")
    assert out == "Odd \ue000 and \ue001\ue002 chars, the end."
