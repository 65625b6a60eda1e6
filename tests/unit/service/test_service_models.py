"""Models of interface section 2: both shapes, absent booleans, malformed input."""

from __future__ import annotations

import pytest

from rephrase_ls.service import (
    Feature,
    Improvement,
    Language,
    MalformedResponse,
    PairException,
    Product,
    Usage,
    V2Language,
)
from rephrase_ls.service.models import parse_improvements, parse_list


def test_language_interface_shape() -> None:
    lang = Language.from_json(
        {"lang": "de", "usable_as_source": True, "usable_as_target": True, "features": ["glossary"]}
    )
    assert lang == Language("de", True, True, frozenset({"glossary"}), None)


def test_language_later_shape_and_absent_booleans() -> None:
    lang = Language.from_json(
        {
            "lang": "en-US",
            "usable_as_target": True,
            "features": {"writing_style": {"status": "stable"}, "tone": {"status": "beta"}},
            "status": "beta",
            "name": "English (American)",
        }
    )
    assert lang.usable_as_source is False
    assert lang.features == frozenset({"writing_style", "tone"})
    assert lang.status == "beta"


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        "de",
        {},
        {"lang": 3},
        {"lang": ""},
        {"lang": "de", "usable_as_source": "yes"},
        {"lang": "de", "features": "glossary"},
        {"lang": "de", "features": [1, 2]},
        {"lang": "de", "features": {"glossary": 5}},
        {"lang": "de", "status": 1},
    ],
)
def test_language_malformed(obj: object) -> None:
    with pytest.raises(MalformedResponse):
        Language.from_json(obj)


def test_product_both_shapes() -> None:
    early = Product.from_json(
        {
            "name": "translate_text",
            "features": [
                {"name": "glossary", "required_on_source": True, "required_on_target": True},
                {"name": "formality", "required_on_target": True},
            ],
        }
    )
    assert early.feature("formality") == Feature("formality", False, True)
    assert early.feature("glossary") == Feature("glossary", True, True)
    later = Product.from_json(
        {
            "resource": "write",
            "features": {
                "auto_detection": {"needs_source_support": True},
                "tone": {"needs_target_support": True, "status": "stable"},
            },
        }
    )
    assert later.name == "write"
    assert later.feature("auto_detection") == Feature("auto_detection", True, False)
    assert later.feature("tone") == Feature("tone", False, True)
    later_list = Product.from_json(
        {"resource": "write", "features": [{"name": "tone", "needs_target_support": True}]}
    )
    assert later_list.feature("tone") == Feature("tone", False, True)
    assert Product.from_json({"name": "x"}).features == ()


@pytest.mark.parametrize(
    "obj",
    [
        {"features": []},
        {"name": "", "features": []},
        {"name": "x", "features": 3},
        {"name": "x", "features": [{"required_on_source": True}]},
        {"name": "x", "features": [{"name": "f", "required_on_source": 1}]},
        {"name": "x", "features": {"f": "yes"}},
    ],
)
def test_product_malformed(obj: object) -> None:
    with pytest.raises(MalformedResponse):
        Product.from_json(obj)


def test_pair_exception_and_v2() -> None:
    exc = PairException.from_json({"source_lang": "de", "target_lang": "ja", "features": []})
    assert exc.features == frozenset()
    assert V2Language.from_json({"language": "DE", "name": "German", "supports_formality": True})
    assert (
        V2Language.from_json({"language": "EN-GB", "name": "English"}).supports_formality is False
    )
    with pytest.raises(MalformedResponse):
        PairException.from_json({"source_lang": "de"})
    with pytest.raises(MalformedResponse):
        V2Language.from_json({"name": "German"})


def test_improvements_exact_count() -> None:
    body = {
        "improvements": [
            {"text": "A", "target_language": "de", "detected_source_language": "de"},
            {"text": "B", "target_language": "de", "detected_source_language": "de"},
        ]
    }
    assert parse_improvements(body, 2) == (
        Improvement("A", "de", "de"),
        Improvement("B", "de", "de"),
    )
    for wrong in (1, 3):
        with pytest.raises(MalformedResponse, match="improvements for"):
            parse_improvements(body, wrong)
    for bad in ({}, {"improvements": {}}, [], {"improvements": [{"text": "A"}]}):
        with pytest.raises(MalformedResponse):
            parse_improvements(bad, 1)


def test_usage_limits() -> None:
    usage = Usage.from_json(
        {
            "character_count": 120,
            "character_limit": 1_000_000_000_000,
            "api_key_character_count": 20,
            "api_key_character_limit": 500,
            "products": [
                {"product_type": "write", "api_key_unit_count": 20, "account_unit_count": 40}
            ],
        }
    )
    assert usage.character_limit is None
    assert usage.api_key_character_limit == 500
    assert usage.products[0].product_type == "write"
    assert Usage.from_json({"character_count": 0}).character_limit is None
    assert Usage.from_json({"character_count": 5, "character_limit": 10}).character_limit == 10
    for bad in ({}, {"character_count": -1}, {"character_count": True}, {"character_count": "5"}):
        with pytest.raises(MalformedResponse):
            Usage.from_json(bad)


def test_parse_list_requires_array() -> None:
    with pytest.raises(MalformedResponse):
        parse_list({"lang": "de"}, Language.from_json, "language list")
    assert parse_list([], Language.from_json, "language list") == ()
