"""The one chain of the document's guards (``rephrase_ls.guards.chain``), which Improve and review
mode's findings share: its facts, its shortcut (``may_act``), and the findings' cache, which
holds the engine's findings while the guards follow the rest of the document."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rephrase_ls.guards.chain import DocumentFacts, guard, may_act, signals
from rephrase_ls.improve.options import Mode
from rephrase_ls.review import ReviewCache, findings
from rephrase_ls.text.detect import is_common_word
from rephrase_ls.text.markup import prose_blocks

DATA = Path(__file__).resolve().parents[2] / "data" / "markup"
DOCUMENTS = sorted(
    p for p in DATA.rglob("*") if p.is_file() and p.name not in ("SOURCES.md", "LICENSES.md")
)
PLAIN = Mode("en-US")


def lower_case_words(text: str) -> frozenset[str]:
    """The definition, over the whole text at once: the letter runs of two letters or more
    written in lower case three times or more, never with a capital first letter and the rest
    in lower case, and no common word."""
    runs = Counter(re.findall(r"[^\W\d_]+", text))
    capital = {r.lower() for r in runs if r[0].isupper() and len(r) > 1 and r[1:].islower()}
    return frozenset(
        r
        for r, n in runs.items()
        if n >= 3 and len(r) > 1 and r.islower() and r not in capital and not is_common_word(r)
    )


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.name)
def test_words_looked_up_one_by_one_are_those_of_lower_case_words(path: Path) -> None:
    """Every word of the document, in lower case and as written: the lookup the guards make
    word by word gives what the definition over the whole text (:func:`lower_case_words`)
    has."""
    text = path.read_text(encoding="utf-8")
    runs = re.findall(r"[^\W\d_]+", text)
    words = {*runs, *(run.lower() for run in runs), "ab", "x"}
    assert DocumentFacts(text, []).lower_case(words) == lower_case_words(text) & words


def test_a_name_at_the_start_of_the_text_and_at_its_end() -> None:
    text = "zlib is small; use zlib, then zlib"
    assert DocumentFacts(text, []).lower_case({"zlib"}) == {"zlib"}
    assert DocumentFacts("Zlib " + text, []).lower_case({"zlib"}) == frozenset()
    # inside a longer word it is not the name
    assert DocumentFacts("zlibs zlibs zlibs", []).lower_case({"zlib"}) == frozenset()


def test_a_common_word_written_in_lower_case_is_no_name() -> None:
    # "this" written mid-sentence again and again still gets its capital at a sentence start
    text = "I like this. And this, and this too.\n\nthis is a slip.\n"
    assert DocumentFacts(text, []).lower_case({"this"}) == frozenset()
    start = text.index("this is")
    span = text[start:].rstrip("\n")
    blocks = prose_blocks(text, "markdown")
    assert guard(start, span, "This is a slip.", PLAIN, DocumentFacts(text, blocks)) == (
        "This is a slip."
    )


def test_the_guards_keep_what_the_document_shows() -> None:
    text = (
        "Call `recieve()` first.  The git tool is small and git is portable.\n\n"
        "It works.  git will recieve teh data.  Done.\n"
    )
    blocks = prose_blocks(text, "markdown")
    start = text.index("It works")
    span = text[start:].rstrip("\n")
    answer = "It works. Git will receive the data. Done."
    facts = DocumentFacts(text, blocks)
    # two spaces kept, "git" not capitalised, "recieve" (code) kept; "teh" corrected
    assert guard(start, span, answer, PLAIN, facts) == (
        "It works.  git will recieve the data.  Done."
    )
    changes = [("  git", " Git"), ("recieve", "receive"), ("teh", "the")]
    assert may_act(start, signals(changes, "en-US"), PLAIN, facts)
    assert not may_act(start, signals([("teh", "the")], "en-US"), PLAIN, facts)


def test_may_act_on_a_variant_conversion_only_when_the_variant_is_kept() -> None:
    text = "The colour is set here.\n"
    facts = DocumentFacts(text, prose_blocks(text, "markdown"))
    conversion = signals([("colour", "color")], "en-US")
    assert not may_act(0, conversion, PLAIN, facts)
    kept = Mode("en-US", keep_variant=True)
    assert may_act(0, conversion, kept, facts)
    assert guard(0, text.rstrip("\n"), "The color is set here.", kept, facts) == text.rstrip("\n")


def test_a_cached_paragraph_follows_a_fact_another_paragraph_changes() -> None:
    """The engine's findings of a paragraph are cached; a word written in code in another
    paragraph takes its finding away without the engine running on it again."""
    prose = "We recieve teh data.\n"
    text = prose + "\nAnother paragraph.\n"
    cache = ReviewCache()
    found = findings(text, prose_blocks(text, "markdown"), target_lang="en-US", cache=cache)
    assert [f.original for f in found] == ["recieve", "teh"]
    runs = cache.engine_runs
    with_code = prose + "\nAnother paragraph: `recieve()`.\n"
    found = findings(
        with_code, prose_blocks(with_code, "markdown"), target_lang="en-US", cache=cache
    )
    assert [f.original for f in found] == ["teh"]
    assert cache.engine_runs == runs + 1  # only the paragraph that changed
    found = findings(text, prose_blocks(text, "markdown"), target_lang="en-US", cache=cache)
    assert [f.original for f in found] == ["recieve", "teh"]
    assert cache.engine_runs == runs + 1
    # another word in code: what the guards kept for the first one is not reused
    other = prose + "\nAnother paragraph: `teh()`.\n"
    found = findings(other, prose_blocks(other, "markdown"), target_lang="en-US", cache=cache)
    assert [f.original for f in found] == ["recieve"]
    found = findings(
        with_code, prose_blocks(with_code, "markdown"), target_lang="en-US", cache=cache
    )
    assert [f.original for f in found] == ["teh"]
    assert cache.engine_runs == runs + 2
