"""Which findings are shown (``disabledRules``, ``enabledRules``, the spacing rendering hides),
and the engine's answer with the changes of a kind turned off undone."""

from __future__ import annotations

import pytest

from rephrase_ls.offline import engine
from rephrase_ls.review import findings
from rephrase_ls.review.choice import hidden_by_rendering, revert_off, shown
from rephrase_ls.text.markup import prose_blocks

TEXT = "I recieved teh letter  today, and it was was short , so I left."


@pytest.mark.parametrize(
    ("original", "replacement", "fmt", "hidden"),
    [
        ("came  late", "came late", "markdown", True),
        ("came \n late", "came\nlate", "restructuredtext", True),
        ("came\t late", "came late", "latex", True),
        ("came  late", "came late", "plaintext", False),
        ("came  late", "came late", "git-commit", False),
        ("short ,", "short,", "markdown", False),
        ("a,b", "a, b", "markdown", False),
    ],
)
def test_hidden_by_rendering(original: str, replacement: str, fmt: str, hidden: bool) -> None:
    assert hidden_by_rendering("spacing", original, replacement, fmt) is hidden
    assert not hidden_by_rendering("spelling", original, replacement, fmt)


def test_shown_drops_the_kinds_turned_off_and_the_hidden_spacing() -> None:
    found = findings(TEXT, prose_blocks(TEXT, "markdown"), target_lang="en-us")
    kinds = [(f.original, f.code) for f in found]
    assert ("letter  today,", "spacing") in kinds
    assert [f.original for f in shown(found, {"spelling"}, (), "markdown")] == [
        "was was",
        "short ,",
    ]
    assert "letter  today," in [f.original for f in shown(found, (), {"spacing"}, "markdown")]
    assert "letter  today," in [f.original for f in shown(found, (), (), "plaintext")]


@pytest.mark.parametrize(
    ("off", "expected"),
    [
        (set(), "I received the letter today, and it was short, so I left."),
        ({"spelling"}, "I recieved teh letter today, and it was short, so I left."),
        ({"spacing"}, "I received the letter  today, and it was short , so I left."),
        ({"doubled-word"}, "I received the letter today, and it was was short, so I left."),
        (
            {"spelling", "spacing", "doubled-word"},
            "I recieved teh letter  today, and it was was short , so I left.",
        ),
    ],
)
def test_revert_off_undoes_exactly_the_kinds_turned_off(off: set[str], expected: str) -> None:
    improved = engine.improve(TEXT, "en-us")
    assert revert_off(TEXT, improved, "en-us", off) == expected


def test_the_offline_service_takes_the_writers_choices_per_language() -> None:
    from rephrase_ls.offline.request import Choices, process_fields

    choices = Choices(
        language_words=(("en", "teh"),), disabled_rules=(("en", "doubled-word"), ("de", "spacing"))
    )
    answers, _ = process_fields(
        {"text": [TEXT], "target_lang": "en-US"}, False, frozenset(), choices=choices
    )
    assert answers[0]["text"] == "I received teh letter today, and it was was short, so I left."
    german = "Das ist  gut , und es war war schön."
    answers, _ = process_fields(
        {"text": [german], "target_lang": "de"}, False, frozenset(), choices=choices
    )
    assert answers[0]["text"] == "Das ist  gut , und es war schön."
