"""Unknown words: which words are reported, the writer's words with their case rules, the
guards, and the suggestions."""

from __future__ import annotations

from importlib import resources

import pytest

from rephrase_ls.config.settings import RULE_CODES
from rephrase_ls.review import CODES, findings
from rephrase_ls.review.unknown import WordList, known, software_terms, suggestions
from rephrase_ls.text.markup import prose_blocks


def unknown(text: str, fmt: str = "markdown", words: tuple[str, ...] = ()) -> list[str]:
    found = findings(
        text, prose_blocks(text, fmt), target_lang="en-us", words=words, unknown_words=True
    )
    return [f.original for f in found if f.code == "unknown-word"]


def test_rule_codes_are_the_findings_codes() -> None:
    assert set(RULE_CODES) == set(CODES)


@pytest.mark.parametrize(
    "word", ["config", "namespace", "structs", "lookups", "tuples", "subdomains", "typehint",
             "don't", "people's", "well-known"],
)  # fmt: skip
def test_technical_and_derived_words_are_known(word: str) -> None:
    assert known(word, "en")


@pytest.mark.parametrize("word", ["wurd", "becuase", "peple", "frobnicaton", "untill"])
def test_slips_are_not(word: str) -> None:
    assert not known(word, "en")


def test_other_languages_take_verb_forms_loans_and_clitics() -> None:
    assert known("reiniciándola", "es") and known("codebase", "es")
    assert known("declararías", "es")
    assert not known("gelesn", "de")


def test_an_unknown_word_is_reported_once_and_the_engines_corrections_are_not() -> None:
    text = "I recieved the wurd from the team, and it was clear to everyone there.\n"
    found = findings(text, prose_blocks(text, "markdown"), target_lang="en-us", unknown_words=True)
    assert [(f.original, f.code) for f in found] == [
        ("recieved", "spelling"),
        ("wurd", "unknown-word"),
    ]
    wurd = found[1]
    assert wurd.replacement == wurd.original and wurd.edit().new_text == "wurd"
    assert wurd.suggestions[0] == "word" and len(wurd.suggestions) <= 3
    assert wurd.word == "wurd"
    assert wurd.message == "wurd: unknown word (word, ward, turd?)"
    # not asked for: not given
    assert "wurd" not in [
        f.original for f in findings(text, prose_blocks(text, "markdown"), target_lang="en-us")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "We call `frobnicate()` here, and then frobnicate runs in the loop for us.\n",
        "Open https://example.com/frobnicate in the browser to see the whole page.\n",
        "The Frobnicator tool does the work for the team in a few short steps.\n",
        "Run frobnicate_all and frobnicateAll before the team starts the next step.\n",
        "We frobnicate the data first.\n\nThen we frobnicate it again to be very sure.\n",
        "Ask @frobnicator or read #frobnication before you start the work here.\n",
        "Pass --frobnicate to the tool when you start the work for the day.\n",
        "- frobnicate\n- the rest\n",
        "- natbib and frobnicate\n- the rest of it\n",
        "Then check the release with gpg before you sign it for the team.\n",
    ],
)
def test_the_guards_of_every_finding_hold(text: str) -> None:
    assert unknown(text) == []


def test_listed_words_and_their_case_rules() -> None:
    text = "We run kubernetes and Kubernetes’s pods in the zlib cluster every day.\n"
    assert unknown(text) == ["kubernetes", "zlib"] or unknown(text) == ["kubernetes"]
    assert unknown(text, words=("Kubernetes", "zlib")) == ["kubernetes"]
    assert unknown(text, words=("kubernetes", "zlib")) == []
    listed = WordList.of(["Kubernetes", "zlib"])
    assert listed.accepts("Kubernetes'") and listed.accepts("Kubernetes’s")
    assert listed.accepts("Zlib") and listed.accepts("ZLIB") and listed.accepts("zlib’s")
    assert not listed.accepts("kubernetes") and not listed.accepts("KUBErnetes")
    assert suggestions("kubernetes", "en", listed)[0] == "Kubernetes"


def test_another_language_and_lists_of_names_get_none() -> None:
    latin = (
        "Proin lacinia felis malesuada arcu aliquet fringilla, tellus eget maximus porttitor "
        "quam sem luctus massa, eu fermentum arcu diam ac massa.\n"
    )
    assert unknown(latin) == []
    names = "The tools are xifthen, ifpdf, chngpage, optparams and placeins, all of them.\n"
    assert unknown(names) == []


@pytest.mark.parametrize("word", ["semed", "joged", "dowing", "wated", "whating"])
def test_a_short_inflection_no_web_page_has_is_not_a_word(word: str) -> None:
    # pyspellchecker's inflection rules take "semed" for "seme" + "d"; the web has no "semed"
    assert not known(word, "en")


@pytest.mark.parametrize(
    "word", ["walked", "configured", "dependables", "lowercased", "refactoring", "subclassed"]
)
def test_real_inflections_and_long_rare_ones_stay_known(word: str) -> None:
    assert known(word, "en")


@pytest.mark.parametrize("word", ["wha't", "use't", "in'sen't", "pytest's"])
def test_an_apostrophe_needs_a_known_word_and_an_ending(word: str) -> None:
    assert not known(word, "en")


@pytest.mark.parametrize("word", ["isn't", "doesn't", "people's", "o'clock", "teacher's"])
def test_known_words_with_their_apostrophe_endings_are_known(word: str) -> None:
    assert known(word, "en")


def test_contractions_without_their_apostrophe_are_unknown_and_suggest_it() -> None:
    for word, meant in (("dont", "don't"), ("thats", "that's"), ("theres", "there's")):
        assert not known(word, "en")
        assert suggestions(word, "en", WordList.of([]))[0] == meant
    for word in ("cant", "wont", "its", "lets", "were", "well", "shell"):
        assert known(word, "en")  # words in their own right


def test_short_words_need_to_be_common_and_prefixes_make_words() -> None:
    assert not known("lod", "en") and not known("sed", "en") and not known("hom", "en")
    assert known("repo", "en") and known("diff", "en")
    assert known("reimplement", "en") and known("unmounts", "en") and known("declutter", "en")
    assert not known("remine", "en")  # "re" on a short word: as often a slip


def test_a_sentences_first_word_no_web_page_has_is_reported_and_keeps_its_capital() -> None:
    text = "We stayed in. Wiich way was it? Then we went to the shop and bought some bread.\n"
    assert unknown(text) == ["Wiich"]
    found = findings(text, prose_blocks(text, "markdown"), target_lang="en-us", unknown_words=True)
    assert found[0].suggestions[0] == "Which"


@pytest.mark.parametrize(
    "text",
    [
        # a name inside a sentence, unseen or not
        "Then the Frobnicator tool does the work for the team in a few short steps.\n",
        "We use Pydantic models to check the data the team sends in every day.\n",
        # a name the web knows starts a sentence
        "Django runs the site, and the team keeps it up to date every week.\n",
        # a name the document writes twice starts a sentence
        "Frobnicator runs the checks for the team.\n\nThe frobnicator reads the files.\n",
        # the possessive of a term the document writes twice
        "Tufte's style is plain and clear.\n\nThe books of Tufte show it in each chapter.\n",
        # the possessive of a word the document writes in code
        "A ``dict``-like object, as dict's ``copy`` gives it to the caller.\n",
    ],
)
def test_names_terms_and_code_words_stay_guarded(text: str) -> None:
    fmt = "restructuredtext" if "``" in text else "markdown"
    assert unknown(text, fmt) == []


def test_a_word_without_a_vowel_is_reported_only_when_no_web_page_has_it() -> None:
    assert unknown("We went to the frmh and saw the cows in the field by the gate.\n") == ["frmh"]
    assert unknown("Then check the release with gpg before you sign it for the team.\n") == []


def test_quoted_speech_is_checked_and_quoted_terms_are_not() -> None:
    assert unknown('He shouted "stop the thif now" and ran to the house by the road.\n') == ["thif"]
    assert unknown('Press "frobnicate now" to start the work for the whole team.\n') == []


@pytest.mark.parametrize("word", ["transpiler", "monorepo", "serializer", "webhooks", "kubectl"])
def test_software_terms_of_cspells_list_are_known(word: str) -> None:
    assert word in software_terms() or word.removesuffix("s") in software_terms()
    assert known(word, "en")


def test_a_listed_software_term_gets_no_hint_and_a_slip_beside_it_does() -> None:
    text = "The transpiler in our monorepo writes every serializer with a cashe we keep."
    assert unknown(text) == ["cashe"]
    # slips one letter from a listed term stay unknown words
    assert not any(known(slip, "en") for slip in ("transpilr", "monorpo", "serailizer"))


def test_the_software_terms_carry_their_origin_and_licence() -> None:
    data = resources.files("rephrase_ls.offline.engine").joinpath("data")
    header = data.joinpath("software-terms.txt").read_text("utf-8").splitlines()[:2]
    assert header[0].startswith("# @cspell/dict-software-terms ")
    assert "licence: MIT" in header[1]
    licence = data.joinpath("software-terms.LICENSE").read_text("utf-8")
    assert "MIT License" in licence and "Street Side Software" in licence
