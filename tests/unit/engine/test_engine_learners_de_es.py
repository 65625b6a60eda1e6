"""German and Spanish learner slips the engine fixes, and the look-alikes it leaves.

The learner sentences are from the dev split of the Falko-MERLIN GEC corpus (German learner
essays; Falko CC BY 3.0, MERLIN CC BY-SA 4.0; Boyd 2018, as github.com/spraakbanken/multiged-2023
ships it) and of COWS-L2H (Spanish learner essays, Apache-2.0; github.com/ucdaviscl/cowsl2h),
quoted as written. The published sentences are from bench/data/clean-de.txt (Vite's German
documentation, MIT). Figures on the whole sets: docs/offline-engine.md.
"""

from __future__ import annotations

import pytest

from rephrase_ls.offline.engine import improve, spelling

GERMAN_FIXED = [
    # A noun nobody writes, one slip from a common one: checked although capitalised.
    (
        "Aber die Arbeiter suchen nicht nur nach der gut bezahlten Arbeitstelle sondern auch "
        "einer Position, wo sie Karrier machen können.",
        "Aber die Arbeiter suchen nicht nur nach der gut bezahlten Arbeitsstelle sondern auch "
        "einer Position, wo sie Karriere machen können.",
    ),
    # A consonant for one that sounds alike (m/n); an umlaut written on the wrong vowel.
    # ("Arbeitestelle", a vowel for a consonant, is left; so is "Zwelt", a first letter
    # too many.)
    (
        "Heutzutage bieten zahlreiche Unternehnen gute Arbeitestelle mit hohem Gehalt an.",
        "Heutzutage bieten zahlreiche Unternehmen gute Arbeitestelle mit hohem Gehalt an.",
    ),
    (
        "Im moment ist Arbeitslösigkeit die höchste seit des Endes des zweiten Zwelt Krieg.",
        "Im moment ist Arbeitslosigkeit die höchste seit des Endes des zweiten Zwelt Krieg.",
    ),
    # Lower case: a word wordfreq has hardly seen, an umlaut left out.
    (
        "Die Kindern waren nicht in Deutschland, deswegen sollte ich auf die Eltern "
        "aufpassen, die funfzig Jahre alt sind.",
        "Die Kindern waren nicht in Deutschland, deswegen sollte ich auf die Eltern "
        "aufpassen, die fünfzig Jahre alt sind.",
    ),
    # A name the learner misspelt, and a name-like noun at a sentence start.
    (
        "Die Drogen, die in Europa gekauft werden, kommen aus Staaten in Sudamerika order "
        "Afganistan.",
        "Die Drogen, die in Europa gekauft werden, kommen aus Staaten in Südamerika order "
        "Afghanistan.",
    ),
    # Slips published in documentation (Vite's German docs).
    # "Swimmen" is not "Stimmen" (a consonant for another); "Verschidene" is a slip.
    (
        "Meine Hobbies Sind Kochen, Swimmen, Verschidene Spielen mit Kinder und Musik.",
        "Meine Hobbies Sind Kochen, Swimmen, Verschiedene Spielen mit Kinder und Musik.",
    ),
    (
        "Sehen Sie sich die Dokumenation für unterstützte Glob-Muster an.",
        "Sehen Sie sich die Dokumentation für unterstützte Glob-Muster an.",
    ),
]

GERMAN_KEPT = [
    # The spelling before 1996 is not a slip of another word ("Schlug").
    "Und zum Schluß möchte ich Schiller zitieren:",
    # A first letter added or left out, or a consonant for one that does not sound alike, is
    # as often another word meant: "Equalität" is not "Qualität".
    "Vor den Ersten Weltkrieg hat Frauen in westlichen Länder niedrige Menschenrechten und hat "
    "in die Gesellschaft keine Equalität.",
    # Names of products, which wordfreq has seen (clean-de.txt, Vite's documentation).
    "Einige Fehler werden aufgrund der Abstraktionsebenen und der sandboxartigen Natur von "
    "Vitest, Playwright und Chromium maskiert und versteckt.",
    # Vue's German documentation: nouns of every kind in capitals (clean-de.txt).
    "Der Block wird nur ausgegeben, wenn der in der Direktive angegebene Ausdruck `true` "
    "zurückgibt.",
]


@pytest.mark.parametrize(("text", "expected"), GERMAN_FIXED)
def test_german_slips_are_fixed(text: str, expected: str) -> None:
    assert improve(text, "de") == expected


@pytest.mark.parametrize("text", GERMAN_KEPT)
def test_german_look_alikes_are_kept(text: str) -> None:
    assert improve(text, "de") == text


def test_german_slip_shapes() -> None:
    """The edits a German candidate may be (``_german_slip``), on the dev split's words."""
    slip = spelling._german_slip
    assert slip("vorstelung", "vorstellung")  # a letter left out
    assert slip("mensschen", "menschen")  # a letter too many
    assert slip("fater", "vater") and slip("wisum", "visum")  # first letter, sounds alike
    assert slip("situazion", "situation")  # z for the t of -tion
    assert slip("ubersehen", "übersehen")  # an umlaut left out at the start
    assert not slip("equalität", "qualität")  # a first letter too many
    assert not slip("swimmen", "stimmen")  # a consonant for another
    assert not slip("grüze", "grüne")
