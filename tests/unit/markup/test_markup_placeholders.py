"""Which placeholder forms survive the offline service's improvement (see docs/markup.md)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.offline.engine import improve

# Sentences the engine does change (typos, doubled words, missing capitals, spacing,
# style rewrites), each with slots for placeholders.
CONTEXTS = [
    ("en-us", None, "{} this is a  sentence with teh error ."),
    ("en-us", None, "use {} to configure it, it dont work {} otherwise ."),
    ("en-us", None, "the value {} is is doubled{}."),
    ("en-us", None, "{}word{} glued to teh words. {} starts a sentence. end{}"),
    ("en-us", "business", "in order to utilize {} we must {} leverage it."),
    ("en-us", "casual", "we revisits uniform grids {} as an index."),
    ("en-gb", None, "the color of the {} grid is is gray."),
    ("de", None, "das ist {} ein ein Test , und {} das Haus ist gross."),
    ("fr", None, "c'est {} un un test {} tres bien ."),
    ("es", None, "esto es {} un un ejemplo {} ."),
]

FORMS = {
    "{{N}}": "{{%d}}",
    "{N}": "{%d}",
    "[[N]]": "[[%d]]",
    "<xN/>": "<x%d/>",
    "__N__": "__%d__",
    "⟦N⟧": "⟦%d⟧",
    "@@N@@": "@@%d@@",
}


def survives(original: list[str], improved: str) -> bool:
    """Every placeholder exactly once, in order."""
    position = 0
    for token in original:
        if improved.count(token) != 1:
            return False
        found = improved.find(token, position)
        if found < 0:
            return False
        position = found + len(token)
    return True


def run(form: str, lang: str, style: str | None, template: str) -> tuple[str, str, list[str]]:
    tokens = [form % n for n in range(template.count("{}"))]
    source = template.format(*tokens)
    return source, improve(source, lang, writing_style=style), tokens


def test_the_contexts_do_get_improved() -> None:
    changed = [run("{{%d}}", *context)[:2] for context in CONTEXTS]
    assert all(source != result for source, result in changed)


@pytest.mark.parametrize("name", sorted(FORMS))
def test_placeholder_forms_survive_the_offline_engine(name: str) -> None:
    # Today every form listed survives the offline engine; docs/markup.md records this table
    # and explains why only {{N}} is used. If the engine changes, update both.
    for context in CONTEXTS:
        _, result, tokens = run(FORMS[name], *context)
        assert survives(tokens, result), (name, context, result)


_WORDS = st.sampled_from(
    [
        "the",
        "teh",
        "grid",
        "points",
        "dont",
        "is",
        "a",
        "an",
        "fast",
        "it's",
        "quick",
        "cells",
        "query,",
        "queries.",
        "Grid",
        "recieve",
        "seperate",
        "definately",
        "occured",
        "utilize",
        "leverage",
        "however,",
        "because",
    ]
)


@settings(max_examples=examples(150), deadline=None)
@given(
    pieces=st.lists(st.one_of(_WORDS, st.just("\x00")), min_size=1, max_size=40),
    lang=st.sampled_from(["en-us", "en-gb", "de", "fr"]),
    style=st.sampled_from([None, "simple", "business", "academic", "casual"]),
)
def test_mustache_placeholders_survive_any_sentence(
    pieces: list[str], lang: str, style: str | None
) -> None:
    count = 0
    words: list[str] = []
    for piece in pieces:
        if piece == "\x00":
            words.append(f"{{{{{count}}}}}")
            count += 1
        else:
            words.append(piece)
    source = " ".join(words)
    result = improve(
        source, lang, writing_style=style if lang in ("en-us", "en-gb", "de") else None
    )
    tokens = re.findall(r"\{\{\d+\}\}", source)
    assert survives(tokens, result), (source, result)
