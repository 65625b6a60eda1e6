"""Writing styles and tones: the documented rule sets for English and German."""

from __future__ import annotations

import pytest

from rephrase_ls.offline.engine import improve


def style(text: str, target: str, name: str) -> str:
    return improve(text, target, writing_style=name)


def tone(text: str, target: str, name: str) -> str:
    return improve(text, target, tone=name)


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        (
            "I do not know. It is late and I am tired.",
            "casual",
            "I don't know. It's late and I'm tired.",
        ),
        ("I know what it is.", "casual", "I know what it is."),  # "it's" cannot end a clause
        ("Hello, thank you for the file.", "casual", "Hi, thanks for the file."),
        ("I don’t think it’s done.", "business", "I do not think it is done."),
        ("It's been a really long day.", "business", "It has been a long day."),
        ("Basically, we won. Thank you very much.", "business", "We won. Thank you very much."),
        (
            "Thanks, I'll send it asap.",
            "business",
            "Thank you, I will send it as soon as possible.",
        ),
        (
            "We looked at a big sample. But it failed.",
            "academic",
            "We examined a large sample. However, it failed.",
        ),
        (
            "Maybe we're wrong. So, we test it.",
            "academic",
            "Perhaps we are wrong. Therefore, we test it.",
        ),
        (
            "We utilize numerous tools in order to facilitate work.",
            "simple",
            "We use many tools to help work.",
        ),
        ("Prior to the meeting, we will commence.", "simple", "Before the meeting, we will start."),
    ],
)
def test_english_styles(text: str, name: str, expected: str) -> None:
    assert style(text, "en-us", name) == expected


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("It is a good idea and I like it.", "enthusiastic", "It is a great idea and I love it."),
        ("Good morning, nice to meet you.", "enthusiastic", "Good morning, wonderful to meet you."),
        (
            "Dear Sir or Madam, I am writing to ask. Kind regards",
            "friendly",
            "Hello, I'd like to ask. Warm regards",
        ),
        # the framing goes; hedges and modals are part of the claim and stay
        ("I think we might win. Maybe it works.", "confident", "We might win. Maybe it works."),
        (
            "We will try to finish. I believe that it helps.",
            "confident",
            "We will try to finish. It helps.",
        ),
        ("It could possibly fail.", "confident", "It could fail."),
        (
            "Send me the file. You must fix it.",
            "diplomatic",
            "Could you please send me the file? Please make sure you fix it.",
        ),
        ("Obviously, this is wrong.", "diplomatic", "This is not quite right."),
        ("Let me know. Please send it.", "diplomatic", "Let me know. Please send it."),
    ],
)
def test_english_tones(text: str, name: str, expected: str) -> None:
    assert tone(text, "en-gb", name) == expected


@pytest.mark.parametrize(
    ("text", "kind", "name", "expected"),
    [
        ("Wie geht es dir? Es gibt es.", "style", "casual", "Wie geht's dir? Es gibt's."),
        (
            "Sehr geehrte Damen und Herren, hier ist es.",
            "style",
            "casual",
            "Hallo zusammen, hier ist es.",
        ),
        (
            "Das ist eigentlich halt gut. Wie geht's?",
            "style",
            "business",
            "Das ist gut. Wie geht es?",
        ),
        ("Ich kriege das und checke es.", "style", "academic", "Ich erhalte das und checke es."),
        (
            "Wir benötigen zahlreiche Tools, circa zehn.",
            "style",
            "simple",
            "Wir brauchen viele Tools, etwa zehn.",
        ),
        (
            "Das ist ein gutes Ergebnis.",
            "tone",
            "enthusiastic",
            "Das ist ein großartiges Ergebnis.",
        ),
        (
            "Sehr geehrte Frau Weber, danke. Mit freundlichen Grüßen",
            "tone",
            "friendly",
            "Liebe Frau Weber, danke. Viele Grüße",
        ),
        (
            "Ich glaube, wir schaffen das. Wir kommen vielleicht morgen.",
            "tone",
            "confident",
            "Wir schaffen das. Wir kommen vielleicht morgen.",
        ),
        # a modal is part of the claim: "könnte" is not "wird"
        ("Das könnte länger dauern.", "tone", "confident", "Das könnte länger dauern."),
        # a sentence-initial adverb causes inversion: removing it would break the word order
        ("Vielleicht kommen wir.", "tone", "confident", "Vielleicht kommen wir."),
        ("Ich glaube, dass es klappt.", "tone", "confident", "Ich glaube, dass es klappt."),
        (
            "Schicken Sie mir die Datei. Sie müssen das prüfen.",
            "tone",
            "diplomatic",
            "Könnten Sie mir die Datei bitte schicken? Sie müssen das prüfen.",
        ),
        # separable verb (particle at the end): left alone
        ("Rufen Sie mich an.", "tone", "diplomatic", "Rufen Sie mich an."),
    ],
)
def test_german(text: str, kind: str, name: str, expected: str) -> None:
    out = style(text, "de", name) if kind == "style" else tone(text, "de", name)
    assert out == expected


@pytest.mark.parametrize("target", ["fr", "es", "it", "pt-br", "pt-pt"])
def test_other_languages_ignore_styles_and_tones(target: str) -> None:
    text = "Basically it is really very good."
    plain = improve(text, target)
    assert style(text, target, "business") == plain
    assert tone(text, target, "friendly") == plain


def test_style_rules_leave_protected_text() -> None:
    text = 'I do not use `do not` or "do not" in {{0}} do not.'
    assert style(text, "en-us", "casual") == "I don't use `do not` or \"do not\" in {{0}} don't."


def test_names_inside_a_sentence_are_not_rewritten() -> None:
    assert tone("We met Good and Nice.", "en-us", "enthusiastic") == "We met Good and Nice."


# Sentences from published text (issue 24: styles that wrote another claim or bad grammar).
@pytest.mark.parametrize(
    ("text", "kind", "name", "expected"),
    [
        # "need" takes no that-clause (a style guide's sentence)
        (
            "The rule requires that someone put the keys back.",
            "style",
            "simple",
            "The rule requires that someone put the keys back.",
        ),
        ("A build requires a compiler.", "style", "simple", "A build needs a compiler."),
        # "might require" claims less than "will require" (an upgrade guide's sentence)
        (
            "This might require changes to your code.",
            "tone",
            "confident",
            "This might require changes to your code.",
        ),
        # zlib's FAQ: a negation before its subject keeps its contraction
        (
            "Why don't you use GNU autoconf or libtool or ...?",
            "style",
            "business",
            "Why don't you use GNU autoconf or libtool or ...?",
        ),
        (
            "Yes. zlib doesn't handle dates.",
            "style",
            "business",
            "Yes. zlib does not handle dates.",
        ),
        ("Isn't it obvious?", "style", "academic", "Isn't it obvious?"),
    ],
)
def test_styles_keep_grammar_and_claims_of_published_sentences(
    text: str, kind: str, name: str, expected: str
) -> None:
    out = style(text, "en-us", name) if kind == "style" else tone(text, "en-us", name)
    assert out == expected


# Sentences from published text and public learner writing (bench/bench_styles.py audits every
# change of every style and tone on them; bench/data/judged-styles.tsv lists the wrong ones).
# Each case was wrong before its rule got the context it needs.
CLAIMS_AND_GRAMMAR_EN = [
    # a filler after a negation is part of the claim ("not very fast" is not "not fast")
    ("It is not very fast.", "style", "business", "It is not very fast."),
    ("I don't really like it.", "style", "business", "I do not really like it."),
    ("I am not totally sure.", "style", "academic", "I am not totally sure."),
    ("This is not really a problem.", "style", "business", "This is not really a problem."),
    ("It is hardly very useful.", "style", "business", "It is hardly very useful."),
    (
        "This closure isn’t very useful except for the purposes of this example.",
        "style",
        "business",
        "This closure is not very useful except for the purposes of this example.",
    ),
    # ... and in a question; "very" after a determiner is the adjective
    ("Do you really have your off-days?", "style", "business", "Do you really have your off-days?"),
    ("The very idea is wrong.", "style", "business", "The very idea is wrong."),
    (
        "Once a user changes route, bring focus back to the very beginning of the page.",
        "style",
        "academic",
        "Once a user changes route, bring focus back to the very beginning of the page.",
    ),
    # "literally" as the manner, "'s" as "has"
    (
        "The input might be an expression to print literally, so we use `stringify!`.",
        "style",
        "business",
        "The input might be an expression to print literally, so we use `stringify!`.",
    ),
    (
        "People don’t mind what breed a fowl is, so long as it’s got two legs and a beak.",
        "style",
        "business",
        "People do not mind what breed a fowl is, so long as it has got two legs and a beak.",
    ),
    ("What’s been happening?", "style", "academic", "What has been happening?"),
    # academic: "look" as a noun, idioms with "big", openers that are no conclusion
    (
        "First, let’s take a look at the ownership rules.",
        "style",
        "academic",
        "First, let us take a look at the ownership rules.",
    ),
    ("That is no big deal.", "style", "academic", "That is no big deal."),
    (
        "So, why does Listing 8-18 compile?",
        "style",
        "academic",
        "So, why does Listing 8-18 compile?",
    ),
    (
        "But for them, we might have become intimate in the first half hour.",
        "style",
        "academic",
        "But for them, we might have become intimate in the first half hour.",
    ),
    # simple: the verb "regard", an obligation on a person, an instruction, a weaker claim
    ("We are regarding it as a bug.", "style", "simple", "We are regarding it as a bug."),
    (
        "This is why you’re required to implement the `next` method.",
        "style",
        "simple",
        "This is why you’re required to implement the `next` method.",
    ),
    (
        "Require two calls to `approve` before the state can be changed to `Published`.",
        "style",
        "simple",
        "Require two calls to `approve` before the state can be changed to `Published`.",
    ),
    (
        "The `Result` value might indicate that an error occurred.",
        "style",
        "simple",
        "The `Result` value might indicate that an error occurred.",
    ),
    # business: "Thanks to" means "because of"
    ("Thanks to the cache, it is fast.", "style", "business", "Thanks to the cache, it is fast."),
    # casual: permission, the verb "thank", "therefore" inside a clause, a program's name
    ("Rust won’t let us do this.", "style", "casual", "Rust won’t let us do this."),
    ("Let us know if it works.", "style", "casual", "Let us know if it works."),
    (
        "We want to thank you for joining us on this tour of Rust.",
        "style",
        "casual",
        "We want to thank you for joining us on this tour of Rust.",
    ),
    (
        "The default `opt-level` for `dev` is therefore `0`.",
        "style",
        "casual",
        "The default `opt-level` for `dev` is therefore `0`.",
    ),
    (
        "A hello world Vue app has a baseline size of only around 16kb.",
        "style",
        "casual",
        "A hello world Vue app has a baseline size of only around 16kb.",
    ),
    (
        "Therefore, Rust doesn’t need to free anything.",
        "style",
        "casual",
        "So, Rust doesn’t need to free anything.",
    ),
    # enthusiastic: idioms, nouns, negation, people
    ("It is as good as done.", "tone", "enthusiastic", "It is as good as done."),
    ("It is gone for good.", "tone", "enthusiastic", "It is gone for good."),
    ("We acted in good faith.", "tone", "enthusiastic", "We acted in good faith."),
    ("That’s no good!", "tone", "enthusiastic", "That’s no good!"),
    ("A swim will do me good.", "tone", "enthusiastic", "A swim will do me good."),
    ("Take the happy path.", "tone", "enthusiastic", "Take the happy path."),
    (
        "Happy holidays, stay safe, and see you next year!",
        "tone",
        "enthusiastic",
        "Happy holidays, stay safe, and see you next year!",
    ),
    ("This is not good.", "tone", "enthusiastic", "This is not good."),
    (
        "We’re providing docs for when a framework isn’t a good fit for your project.",
        "tone",
        "enthusiastic",
        "We’re providing docs for when a framework isn’t a good fit for your project.",
    ),
    ("I like to think so.", "tone", "enthusiastic", "I like to think so."),
    ("I like him, too.", "tone", "enthusiastic", "I like him, too."),
    # diplomatic: "wrong" only as a predicate; an obligation stays one
    ("Something went wrong.", "tone", "diplomatic", "Something went wrong."),
    ("You opened the wrong file.", "tone", "diplomatic", "You opened the wrong file."),
    (
        "The linter only knows when the dependencies are wrong.",
        "tone",
        "diplomatic",
        "The linter only knows when the dependencies are not quite right.",
    ),
    (
        "You must restart the server.",
        "tone",
        "diplomatic",
        "Please make sure you restart the server.",
    ),
    (
        "To fix this code, you need to add `onTick` to the dependency list.",
        "tone",
        "diplomatic",
        "To fix this code, you will need to add `onTick` to the dependency list.",
    ),
    ("You must know the way out.", "tone", "diplomatic", "You must know the way out."),
    # diplomatic: a label or a noun is no request
    (
        "Update Performance: how fast the application updates in response to user input.",
        "tone",
        "diplomatic",
        "Update Performance: how fast the application updates in response to user input.",
    ),
    (
        "Provide and inject are usually performed in separate components.",
        "tone",
        "diplomatic",
        "Provide and inject are usually performed in separate components.",
    ),
]


# Sentences of documents the rules were not tuned on (MkDocs', Requests' and Poetry's docs).
CLAIMS_AND_GRAMMAR_EN += [
    (
        "`--dependency`: Package to require with a version constraint.",
        "style",
        "simple",
        "`--dependency`: Package to require with a version constraint.",
    ),
    (
        "Read the Docs supports MkDocs out-of-the-box.",
        "tone",
        "diplomatic",
        "Read the Docs supports MkDocs out-of-the-box.",
    ),
    (
        "Add support for `nav_style` theme option for the `mkdocs` theme (#1930).",
        "tone",
        "diplomatic",
        "Add support for `nav_style` theme option for the `mkdocs` theme (#1930).",
    ),
    (
        "You must assume that only Python built-ins are available.",
        "tone",
        "diplomatic",
        "You must assume that only Python built-ins are available.",
    ),
    (
        "See Dependency groups for a more in-depth look at how to manage them.",
        "style",
        "academic",
        "See Dependency groups for a more in-depth look at how to manage them.",
    ),
    (
        "That's all well and good, but it's also only the start.",
        "tone",
        "enthusiastic",
        "That's all well and good, but it's also only the start.",
    ),
]


@pytest.mark.parametrize(("text", "kind", "name", "expected"), CLAIMS_AND_GRAMMAR_EN)
def test_english_rules_keep_claims_and_grammar(
    text: str, kind: str, name: str, expected: str
) -> None:
    out = style(text, "en-us", name) if kind == "style" else tone(text, "en-us", name)
    assert out == expected


CLAIMS_AND_GRAMMAR_DE = [
    # simple: the participle is "genutzt", the present "nutzt"
    (
        "Das Plugin kann sowohl im Entwicklungs- als auch im Build-Modus verwendet werden.",
        "style",
        "simple",
        "Das Plugin kann sowohl im Entwicklungs- als auch im Build-Modus genutzt werden.",
    ),
    (
        "Vite verwendet jetzt `dotenv` 16 und `dotenv-expand` 9.",
        "style",
        "simple",
        "Vite nutzt jetzt `dotenv` 16 und `dotenv-expand` 9.",
    ),
    # "Jedoch" inverts the sentence, "Aber" cannot
    (
        "Jedoch finden viele sich in einem Gefängnis wieder.",
        "style",
        "simple",
        "Jedoch finden viele sich in einem Gefängnis wieder.",
    ),
    # business: a filler after a negation or in a question stays; "quasi" is a hedge
    (
        "Wir können das Lesen von lokalen Variablen nicht wirklich verfolgen.",
        "style",
        "business",
        "Wir können das Lesen von lokalen Variablen nicht wirklich verfolgen.",
    ),
    (
        "Haben seine Aktionen wirklich negative Folgen?",
        "style",
        "business",
        "Haben seine Aktionen wirklich negative Folgen?",
    ),
    (
        "Die Funktion ist quasi die Render-Funktion für die Komponente.",
        "style",
        "academic",
        "Die Funktion ist quasi die Render-Funktion für die Komponente.",
    ),
    # casual: "einmal" is a number ("once"); "noch einmal" is "noch mal"
    (
        "Wir veröffentlichen mindestens einmal im Jahr eine neue Version.",
        "style",
        "casual",
        "Wir veröffentlichen mindestens einmal im Jahr eine neue Version.",
    ),
    (
        "Wir können diese Namen auch noch einmal überprüfen.",
        "style",
        "casual",
        "Wir können diese Namen auch noch mal überprüfen.",
    ),
    # enthusiastic: the adverb "gut" is not "großartig", nor after a negation; greetings stay
    (
        "Außer Deutsch spreche ich gut Englisch und Russisch.",
        "tone",
        "enthusiastic",
        "Außer Deutsch spreche ich gut Englisch und Russisch.",
    ),
    (
        "Sie können Englisch nicht gut sprechen und verstehen.",
        "tone",
        "enthusiastic",
        "Sie können Englisch nicht gut sprechen und verstehen.",
    ),
    (
        "Guten Morgen, das ist eine gute Idee.",
        "tone",
        "enthusiastic",
        "Guten Morgen, das ist eine großartige Idee.",
    ),
    ("Das ist gut.", "tone", "enthusiastic", "Das ist großartig."),
    # confident: "ich glaube," inside a sentence carries its subject and verb
    (
        "Ich bewerbe mich, weil ich glaube, die notwendigen Voraussetzungen mitzubringen.",
        "tone",
        "confident",
        "Ich bewerbe mich, weil ich glaube, die notwendigen Voraussetzungen mitzubringen.",
    ),
    # diplomatic: no "Könnten Sie … bitte verb?" around a clause; an obligation stays one
    (
        "Beachten Sie, dass Vite den nächsten freien Port ausprobiert.",
        "tone",
        "diplomatic",
        "Beachten Sie, dass Vite den nächsten freien Port ausprobiert.",
    ),
    (
        "Geben Sie das Ausgabeverzeichnis an (relativ zum Projektstamm).",
        "tone",
        "diplomatic",
        "Geben Sie das Ausgabeverzeichnis an (relativ zum Projektstamm).",
    ),
    ("Wir müssen nie vergessen.", "tone", "diplomatic", "Wir müssen nie vergessen."),
    (
        "Leider ist diese Meinung falsch.",
        "tone",
        "diplomatic",
        "Leider ist diese Meinung nicht ganz richtig.",
    ),
    ("Das ist nicht falsch.", "tone", "diplomatic", "Das ist nicht falsch."),
]


@pytest.mark.parametrize(("text", "kind", "name", "expected"), CLAIMS_AND_GRAMMAR_DE)
def test_german_rules_keep_claims_and_grammar(
    text: str, kind: str, name: str, expected: str
) -> None:
    out = style(text, "de", name) if kind == "style" else tone(text, "de", name)
    assert out == expected


def test_when_often_and_ten_are_no_participles_after_its() -> None:
    # "'s" before a participle and its object is "has" ("It's been a while"); "when", "often"
    # and "ten" end like participles but are none: "'s" is "is" there
    assert improve("That's when the build fails.", "en-us", writing_style="business") == (
        "That is when the build fails."
    )
    assert improve("It's often the case.", "en-us", writing_style="business") == (
        "It is often the case."
    )
    assert improve("It's been a while.", "en-us", writing_style="business") == (
        "It has been a while."
    )


def test_a_bare_german_imperative_is_softened() -> None:
    assert improve("Prüfen Sie.", "de", tone="diplomatic") == "Könnten Sie bitte prüfen?"
