"""A word the document writes in code (a code block, inline code, an identifier) is never
changed in its prose, whatever the service answers: it names the code."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.unit.improve.fakes import FakeBackend

from rephrase_ls.guards.code_words import code_words, keep_code_words, keep_lower_case_words
from rephrase_ls.improve.options import Mode
from rephrase_ls.improve.round_trip import ImprovementCache, improve_paragraphs, with_context
from rephrase_ls.offline.engine import improve as engine_improve
from rephrase_ls.service.models import Improvement
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.markup import prose_blocks
from rephrase_ls.text.paragraphs import select_paragraphs


@dataclass
class EngineClient:
    """The offline engine as the service: it corrects misspellings ("recieve")."""

    sent: list[str] = field(default_factory=list)

    async def rephrase(self, texts, **_kw):
        self.sent.extend(texts)
        return [Improvement(engine_improve(text, "en-us"), "en", "en") for text in texts]


async def _improve(text: str, uri: str = "file:///a.md") -> str:
    blocks = prose_blocks(text, None, uri)
    paragraphs = select_paragraphs(text, 0, len(text), blocks)
    paragraphs, clips = with_context(text, paragraphs, blocks)
    outcome = await improve_paragraphs(
        FakeBackend(EngineClient()), text, paragraphs, Mode("en-US"), ImprovementCache(), None,
        clips, blocks=blocks,
    )  # fmt: skip
    return apply_edits(text, outcome.edits(text))


async def test_a_word_defined_in_a_code_block_is_kept_in_the_prose() -> None:
    text = (
        "# Setup\n\nCall it first.\n\n```python\ndef recieve(): ...\n```\n\n"
        "Then recieve waits for teh answer.\n"
    )
    assert engine_improve("Then recieve waits for teh answer.", "en-us") != (
        "Then recieve waits for the answer."
    )  # the engine alone corrects both words
    result = await _improve(text)
    assert result == text.replace("teh answer", "the answer")


async def test_a_word_of_inline_code_or_an_identifier_is_kept() -> None:
    text = (
        "The parser reads `strcts.py` first.\n\n"
        "Each of the strcts is checked by `checkRecieve()` before we recieve it.\n"
    )
    result = await _improve(text)
    assert result == text


async def test_words_not_in_code_are_still_corrected() -> None:
    text = "The code is in `main.py`.\n\nWe recieve teh data.\n"
    result = await _improve(text)
    assert result == "The code is in `main.py`.\n\nWe receive the data.\n"


def test_code_words_are_the_words_outside_the_prose() -> None:
    text = "Use `fetchData_v2` here.\n\n```sh\nzypper refresh\n```\n\nThe zypper tool.\n"
    blocks = prose_blocks(text, None, "file:///a.md")
    words = code_words(text, blocks)
    assert {"fetch", "data", "zypper", "refresh", "sh"} <= words
    assert "use" not in words and "tool" not in words  # prose only


def test_keep_code_words_drops_only_the_edits_of_code_words() -> None:
    code = frozenset({"recieve"})
    assert keep_code_words("We recieve teh data.", "We receive the data.", code) == (
        "We recieve the data."
    )
    assert keep_code_words("We recieve it.", "We recieve it.", code) == "We recieve it."
    assert keep_code_words("Teh end.", "The end.", code) == "The end."
    # a doubled word removed or a capital added is no replacement of the code's word
    the = frozenset({"the", "this"})
    assert keep_code_words("this is the the plan.", "This is the plan.", the) == (
        "This is the plan."
    )
    # a change that does not go word for word keeps its words when one is the code's
    assert keep_code_words("recieve teh the end", "receive the end", code) == (
        "recieve teh the end"
    )


def test_a_style_that_rewrites_the_words_after_a_lower_case_name_keeps_its_case() -> None:
    # issue 24: casual turned curl's "curl is not" into "Curl isn't"; curl writes its name in
    # lower case at a sentence start too
    lower = frozenset({"curl"})
    assert keep_lower_case_words(
        "It works. curl is not a browser.", "It works. Curl isn't a browser.", lower
    ) == "It works. curl isn't a browser."
    # a capital the change gives another word applies
    assert keep_lower_case_words(
        "It works. wget is not a browser.", "It works. Wget isn't a browser.", lower
    ) == "It works. Wget isn't a browser."


def test_switched_off_text_is_not_code() -> None:
    """Prose the in-document switches take out is left alone, not read as code: a slip written
    there is still a slip in the prose checked; code outside it still counts."""
    from rephrase_ls.improve.request import document_prose

    text = (
        "I beleive it, as `parse_recieve` says.\n\n"
        "<!-- rephrase: off -->\nSo I beleive, untill now.\n<!-- rephrase: on -->\n\n"
        "<!-- rephrase: ignore-next-line -->\nThier reply came.\n"
    )
    words = code_words(text, document_prose(text, "markdown", "file:///a.md"))
    assert {"parse", "recieve"} <= words
    assert not {"beleive", "untill", "thier", "rephrase", "off"} & words


def test_what_git_strips_from_a_commit_message_is_no_code() -> None:
    from rephrase_ls.text.markup import stripped_spans

    text = (
        "Fix teh parser\n\nWait untill it ends.\n\n    recieve()\n\n"
        "# Please enter teh commit message, untill done.\n"
        "# ------------------------ >8 ------------------------\n"
        "diff --git a/p.py b/p.py\n+def wiat(): pass\n"
    )
    blocks = prose_blocks(text, "gitcommit")
    stripped = stripped_spans(text, "gitcommit")
    assert [text[s:e] for s, e in stripped] == [
        "# Please enter teh commit message, untill done.",
        text[text.index("# ---") :],
    ]
    assert {"teh", "untill", "wiat", "recieve"} <= code_words(text, blocks)
    code = code_words(text, blocks, stripped)
    assert "recieve" in code  # an indented line: the message's own code, which git keeps
    assert not {"teh", "untill", "wiat", "please", "diff"} & code
    # other formats strip nothing: a Markdown document's "#" lines are its headings
    assert stripped_spans(text, "markdown") == ()
