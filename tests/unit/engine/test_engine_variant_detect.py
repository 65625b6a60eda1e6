"""detect_variant: en-GB / en-US and pt-PT / pt-BR from a text's spellings."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

from rephrase_ls.offline.engine import detect_variant, improve


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The colour of the centre is grey.", "en-GB"),
        ("The color of the center is gray.", "en-US"),
        ("We travelled to the theatre and cancelled dinner.", "en-GB"),
        ("We traveled to the theater and canceled dinner.", "en-US"),
        ("Colour is nice.", "en-GB"),  # sentence-initial capital counts
        ("We organise the catalogue.", "en-GB"),  # catalogue alone is not evidence
        ("We organize it.", "en-US"),
        # Oxford spelling: -ize with British -our; -ize only counts half
        ("We organize the colour scheme.", "en-GB"),
        ("We organize and realize the colour scheme.", None),  # 0.5 + 0.5 vs 1: a tie
        ("The colour and the color.", None),  # a tie
        ("Nothing here says which side of the Atlantic.", None),
        ("", None),
        # names, code, quotes and links do not vote
        ("We visit Lincoln Center today.", None),
        ("The Labour Party met.", None),
        ("Set `color` in the stylesheet, the colour stays.", "en-GB"),
        ('He said "color" twice; the colour stays.', "en-GB"),
        ("See https://example.com/color for the colour.", "en-GB"),
        # spellings both sides use are not evidence
        ("The computer program and the practice session.", None),
        ("The analyses of the connection and the judgment.", None),
    ],
)
def test_english(text: str, expected: str | None) -> None:
    assert detect_variant(text, "en") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Estou fazendo o trabalho no ônibus.", "pt-BR"),
        ("Estou a fazer o trabalho no autocarro.", "pt-PT"),
        ("De fato, o time ganhou o campeonato.", "pt-BR"),
        ("De facto, a equipa ganhou o campeonato.", "pt-PT"),
        ("O prémio económico foi entregue.", "pt-PT"),
        ("O prêmio econômico foi entregue.", "pt-BR"),
        ("A casa de banho fica ao fundo.", "pt-PT"),
        ("Tomamos o café da manhã cedo.", "pt-BR"),
        ("O utilizador entrou em contacto.", "pt-PT"),
        ("O usuário entrou em contato.", "pt-BR"),
        # not evidence: adjectives and idioms that look like the progressive, spellings both
        # use (Portugal before 1990: aspecto, recepção), senses both use (câmara municipal)
        ("O dia está lindo.", None),
        ("Ela está a par disso.", None),
        ("Ele está a caminho.", None),
        ("O aspecto da recepção é bom.", None),
        ("A câmara municipal reuniu.", None),
        ("Ele comprou um fato novo.", None),  # "fato" alone: a suit in Portugal
        ("O tempo está bom hoje.", None),
        ("Estou fazendo isso e estou a ler aquilo.", None),  # one each
    ],
)
def test_portuguese(text: str, expected: str | None) -> None:
    assert detect_variant(text, "pt") == expected


@pytest.mark.parametrize("language", ["EN", " en ", "en_GB", "pt-br"])
def test_language_forms(language: str) -> None:
    text = "The colour." if language.strip().lower().startswith("en") else "O ônibus."
    assert detect_variant(text, language) is not None


@pytest.mark.parametrize("language", ["de", "fr", "es", "it", "xx", ""])
def test_other_languages_give_none(language: str) -> None:
    assert detect_variant("The colour of the centre. O ônibus.", language) is None


def test_bad_arguments() -> None:
    with pytest.raises(TypeError):
        detect_variant(None, "en")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        detect_variant("colour", None)  # type: ignore[arg-type]


def test_a_british_text_keeps_its_spelling_when_improved_as_detected() -> None:
    # The language server's use: en detected, then the variant decides the target.
    text = "The colour of the centre is grey and we recieve it."
    variant = detect_variant(text, "en")
    assert variant == "en-GB"
    assert improve(text, variant.lower()) == ("The colour of the centre is grey and we receive it.")


def test_evidence_on_any_line_counts() -> None:
    lines = ["Plain text with nothing to say."] * 40 + ["The colour is fine.", "`color`"]
    assert detect_variant("\n".join(lines), "en") == "en-GB"
    # a code line does not vote, but the tokenizer protects backticks only on one line
    assert detect_variant("`color` and `center`\nthe colour", "en") == "en-GB"


words = st.sampled_from(
    ["colour", "color", "centre", "center", "the", "and", "grey", "gray", "is", "we"]
)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(words, max_size=30))
def test_property_verdict_follows_the_majority(tokens: list[str]) -> None:
    text = " ".join(tokens)
    gb = sum(t in ("colour", "centre", "grey") for t in tokens)
    us = sum(t in ("color", "center", "gray") for t in tokens)
    expected = "en-GB" if gb > us else "en-US" if us > gb else None
    assert detect_variant(text, "en") == expected
    assert detect_variant(text, "en") == detect_variant(text, "en")  # deterministic


@settings(max_examples=examples(150), deadline=None)
@given(st.text(max_size=300))
def test_property_any_text(text: str) -> None:
    for language in ("en", "pt"):
        assert detect_variant(text, language) in (
            None,
            *(("en-GB", "en-US") if language == "en" else ("pt-BR", "pt-PT")),
        )


def test_cheap_on_4_kb() -> None:
    text = textwrap.fill("The colour of the centre is grey and we travelled far. " * 75, 80)
    assert len(text) >= 4096
    detect_variant(text, "en")  # loads the lists
    runs = 20
    start = time.process_time()
    for _ in range(runs):
        detect_variant(text, "en")
    per_call = (time.process_time() - start) / runs
    assert per_call < 0.05  # a few ms normally; generous for a loaded machine


def test_lists_load_lazily() -> None:
    code = textwrap.dedent(
        """
        import sys
        from rephrase_ls.text import variant_detect
        assert variant_detect._english_votes.cache_info().currsize == 0
        assert variant_detect._portuguese_votes.cache_info().currsize == 0
        assert "breame.data.spelling_constants" not in sys.modules
        variant_detect.detect_variant("O ônibus.", "pt")
        assert "breame.data.spelling_constants" not in sys.modules
        variant_detect.detect_variant("The colour.", "en")
        assert variant_detect._english_votes.cache_info().currsize == 1
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
