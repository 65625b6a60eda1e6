"""Change groups and their codes, on edits as the word diff gives them."""

from __future__ import annotations

import ast
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hypothesis_profiles import examples

import rephrase_ls.review
from rephrase_ls.review import CODES, Change, change_groups, classify, describe
from rephrase_ls.text.diff import TextEdit, apply_edits, word_edits


def _groups(
    text: str, improved: str, segments: list[tuple[int, int]] | None = None,
    protected: tuple[tuple[int, int], ...] = (),
) -> list[tuple[str, str]]:  # fmt: skip
    """The groups of the word diff between ``text`` and ``improved``, checked to give
    ``improved`` when all applied."""
    edits = word_edits(text, improved)
    groups = change_groups(text, edits, segments or [(0, len(text))], protected)
    applied = apply_edits(text, [TextEdit(g.start, g.end, g.replacement) for g in groups])
    assert applied == improved
    for group in groups:
        assert text[group.start : group.end] == group.original
    return [(g.original, g.replacement) for g in groups]


def test_one_group_per_changed_word() -> None:
    assert _groups("We recieved teh report.", "We received the report.") == [
        ("recieved", "received"),
        ("teh", "the"),
    ]


def test_an_edit_inside_a_word_takes_the_whole_word() -> None:
    text = "Send an e-mial to us."
    groups = change_groups(text, [TextEdit(10, 14, "mail")], [(0, len(text))])
    assert groups == [Change(8, 14, "e-mial", "e-mail", "e-mial", "e-mail")]


@pytest.mark.parametrize(
    ("text", "improved", "expected"),
    [
        ("We went to to the market.", "We went to the market.", ("to to", "to")),
        ("the the cat sat.", "the cat sat.", ("the the", "the")),
        ("It ran the the end.", "It ran the end.", ("the the", "the")),
    ],
)
def test_a_removed_doubled_word_covers_both_words(
    text: str, improved: str, expected: tuple[str, str]
) -> None:
    assert _groups(text, improved) == [expected]


@pytest.mark.parametrize(
    ("improved", "original", "replacement", "said", "says"),
    [
        # the second "the" goes: the range runs from the first to the word after the second
        ("> They reviewed the\n> release notes.", "the\n> the release", "the\n> release",
         "the the release", "the release"),
        # the first goes: from the word before it to the second
        ("> They reviewed\n> the release notes.", "reviewed the\n> the", "reviewed\n> the",
         "reviewed the the", "reviewed the"),
    ],
)  # fmt: skip
def test_a_doubled_word_across_a_line_break_in_a_quote(
    improved: str, original: str, replacement: str, said: str, says: str
) -> None:
    """Two lines of a quote: the prose of each line is a segment; ``> `` is between them."""
    text = "> They reviewed the\n> the release notes."
    segments = [(2, 19), (22, len(text))]
    groups = change_groups(text, word_edits(text, improved), segments)
    assert [(g.original, g.replacement, g.said, g.says) for g in groups] == [
        (original, replacement, said, says)
    ]
    assert apply_edits(text, [TextEdit(g.start, g.end, g.replacement) for g in groups]) == improved
    assert classify(said, says, "en-us") == "doubled-word"
    assert describe(said, says) == f"{said} → {says}"


@pytest.mark.parametrize(
    ("text", "improved", "expected"),
    [
        ("Send it,,then go.", "Send it, then go.", ("it,,then", "it, then")),
        ("Wow!!! Nice.", "Wow! Nice.", ("Wow!!!", "Wow!")),
        ("It works , mostly.", "It works, mostly.", ("works ,", "works,")),
        ("It  works.", "It works.", ("It  works.", "It works.")),
        ("It ends.the next", "It ends. The next", ("ends.the", "ends. The")),
    ],
)
def test_punctuation_and_spaces_take_in_the_words_next_to_them(
    text: str, improved: str, expected: tuple[str, str]
) -> None:
    assert _groups(text, improved) == [expected]


def test_widening_stops_at_protected_text_and_line_edges() -> None:
    text = "Look at `cfg`,, then go.\n> next!!"
    code = (text.index("`"), text.index(",,"))
    segments = [(0, text.index("\n")), (text.index("next"), len(text))]
    improved = "Look at `cfg`, then go.\n> next!"
    groups = change_groups(text, word_edits(text, improved), segments, (code,))
    assert [(g.original, g.replacement) for g in groups] == [(",,", ","), ("next!!", "next!")]
    assert groups[0].start == code[1]


def test_an_edit_over_protected_text_is_split_around_it_or_dropped() -> None:
    text = "Use teh `x` tool now."
    protected = ((8, 11),)
    segment = [(0, len(text))]
    # one edit from "teh" to "tool", the protected text coming back once: split around it
    split = change_groups(text, [TextEdit(4, 16, "the `x` tools")], segment, protected)
    assert [(g.original, g.replacement) for g in split] == [("teh", "the"), ("tool", "tools")]
    # the protected text changed or duplicated: nothing is proposed there
    assert change_groups(text, [TextEdit(4, 16, "the `y` tools")], segment, protected) == []
    doubled = TextEdit(4, 16, "the `x` `x` tools")
    assert change_groups(text, [doubled], segment, protected) == []
    inserted = TextEdit(9, 9, "y")
    assert change_groups(text, [inserted], segment, protected) == []


@pytest.mark.parametrize(
    ("original", "replacement", "target", "code"),
    [
        ("teh", "the", "en-us", "spelling"),
        ("Teh", "The", "en-us", "spelling"),
        ("a", "an", "en-us", "spelling"),
        ("the the", "the", "en-us", "doubled-word"),
        ("The the", "The", "en-us", "doubled-word"),
        ("Wow!!!", "Wow!", "en-us", "punctuation"),
        ('"quoted"', "“quoted”", "en-us", "punctuation"),
        ("works ,", "works,", "en-us", "spacing"),
        ("It  works", "It works", "en-us", "spacing"),
        ("it", "It", "en-us", "capitalisation"),
        ("ends.the", "ends. The", "en-us", "capitalisation"),
        ("colour", "color", "en-us", "variant"),
        ("Colour", "Color", "en-us", "variant"),
        ("color", "colour", "en-gb", "variant"),
        ("colour", "color", "en-gb", "spelling"),
        ("colour", "color", "en", "spelling"),
        ("summarised the the", "summarized the", "en-us", "variant"),
        ("econômico", "económico", "pt-pt", "variant"),
        ("fazendo", "a fazer", "pt-pt", "variant"),
        ("a fazer", "fazendo", "pt-br", "variant"),
        ("fazendo", "a fazer", "pt-br", "spelling"),
        ("recieved", "received", "en-us", "spelling"),
    ],
)
def test_codes(original: str, replacement: str, target: str, code: str) -> None:
    assert code in CODES
    assert classify(original, replacement, target) == code


def test_messages() -> None:
    assert describe("teh", "the") == "teh → the"
    assert describe("the\nthe", "the") == "the the → the"
    assert describe("word", "") == "word → (delete)"
    long = "a" * 100
    assert describe(long, "b") == "a" * 47 + "… → b"


def test_the_package_needs_no_language_server_library() -> None:
    code = (
        "import sys, rephrase_ls.review;"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('pygls', 'lsprotocol', 'starlette', 'uvicorn')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_imports_no_protocol_or_http_code() -> None:
    """Its own modules import nothing of the server, the service client or HTTP (the engine's
    own imports are the engine's business)."""
    package = Path(rephrase_ls.review.__file__).parent
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(
                    ("pygls", "lsprotocol", "httpx", "starlette", "rephrase_ls.lsp",
                     "rephrase_ls.service", "rephrase_ls.improve.backend")
                ), (module.name, name)  # fmt: skip


_WORDS = ["the", "teh", "The", "cat", "sat", "e-mail", "don't", "a", "an", "!", ",", "..."]


@st.composite
def _paragraphs(draw: st.DrawFn) -> tuple[str, str, list[tuple[int, int]]]:
    """A line of words with some protected ``code`` spans, and the line with words of it
    changed, doubled, removed, recased or re-spaced (never the protected ones)."""
    words = draw(st.lists(st.sampled_from([*_WORDS, "`x`", "`teh`"]), min_size=1, max_size=12))
    out: list[str] = []
    for word in words:
        if word.startswith("`"):
            out.append(word)
            continue
        action = draw(st.sampled_from(["keep", "keep", "change", "double", "drop", "case"]))
        if action == "change":
            out.append(draw(st.sampled_from(_WORDS)))
        elif action == "double":
            out.extend([word, word])
        elif action == "case":
            out.append(word.upper())
        elif action == "keep" or not any(not w.startswith("`") for w in out):
            out.append(word)
    separators = [draw(st.sampled_from([" ", " ", "  ", ""])) for _ in words]
    text = "".join(w + s for w, s in zip(words, separators, strict=True)).strip() or "a"
    improved = " ".join(out) or "a"
    protected = []
    position = 0
    for word, separator in zip(words, separators, strict=True):
        at = text.find(word, position)
        if word.startswith("`") and at >= 0:
            protected.append((at, at + len(word)))
        position = max(position, at + len(word)) if at >= 0 else position
        position += len(separator) if at >= 0 else 0
    return text, improved, protected


@settings(max_examples=examples(300), deadline=None)
@given(_paragraphs())
def test_groups_apply_to_the_diff_result_and_never_cover_protected_text(
    case: tuple[str, str, list[tuple[int, int]]],
) -> None:
    text, improved, protected = case
    edits = word_edits(text, improved)
    groups = change_groups(text, edits, [(0, len(text))], tuple(protected))
    for group, following in pairwise(groups):
        assert group.end <= following.start
    for group in groups:
        assert text[group.start : group.end] == group.original
        assert not any(s < group.end and e > group.start for s, e in protected)
    applied = apply_edits(text, [TextEdit(g.start, g.end, g.replacement) for g in groups])
    touched = any(any(s < e.end and p > e.start for s, p in protected) for e in edits)
    if not touched:
        assert applied == improved
