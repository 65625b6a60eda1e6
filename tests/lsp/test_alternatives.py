"""Alternatives (``rephrase.alternatives``, ``rephrase.applyAlternative``, "Show alternatives…")
over the real protocol, against the offline service on loopback (real HTTP, its fault knobs)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from rephrase_ls.offline.engine import improve as engine_improve

from .conftest import (
    SERVER,
    Editor,
    OfflineService,
    editor_config,
    initialize_params,
    install_apply_edit,
    server_env,
)

pytestmark = pytest.mark.asyncio

KEY = "alternatives-test-key"
PARAGRAPH = (
    "I think we can't finish the report by friday, but we will try hard to get it done and "
    "send it to you soon."
)
TEXT = f"# Notes\n\n{PARAGRAPH}\n\nThe end is near, and it is good.\n"
LINE = 2  # the paragraph's line
STYLES = ("simple", "business", "academic", "casual")
TONES = ("enthusiastic", "friendly", "confident", "diplomatic")


@dataclass
class AltEditor(Editor):
    """An editor that also answers ``showMessageRequest``."""

    answer: str | None = None
    requests: list[types.ShowMessageRequestParams] = field(default_factory=list)


@pytest.fixture
def profile(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "visual-studio-code"))


@pytest.fixture
def launch(request: pytest.FixtureRequest) -> dict[str, Any]:
    """Settings of the launch configuration (initializationOptions)."""
    return dict(getattr(request, "param", {}))


@pytest_lsp.fixture(
    config=editor_config(server_command=SERVER, server_env=server_env(REPHRASE_API_KEY=KEY)),
)
async def alt_session(
    lsp_client: LanguageClient,
    tmp_path: Path,
    service: OfflineService,
    profile: str,
    launch: dict[str, Any],
) -> AsyncIterator[None]:
    root = tmp_path / "ws"
    root.mkdir()
    lsp_client.set_configuration({"rephrase": {"timeout": 5}})
    ed = AltEditor(lsp_client, root)
    install_apply_edit(lsp_client, [ed])

    @lsp_client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def on_request(params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        ed.requests.append(params)
        return None if ed.answer is None else types.MessageActionItem(title=ed.answer)

    options = {"rephrase": {"serverUrl": service.url, **launch}}
    await lsp_client.initialize_session(
        initialize_params(profile, root, initialization_options=options)
    )
    lsp_client.editor = ed  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def ed(alt_session: LanguageClient) -> AltEditor:
    return alt_session.editor  # type: ignore[attr-defined]


async def listed(ed: AltEditor, uri: str, line: int = LINE) -> dict[str, types.CodeAction]:
    """The code actions at ``line`` once the server has its language list (loaded in the
    background after the first listing)."""
    for _ in range(100):
        actions = {a.title: a for a in await ed.code_actions(uri, (line, 5), (line, 5))}
        if any(t.startswith("Improve: ") for t in actions):
            return actions
        await asyncio.sleep(0.05)
    return actions


def at_paragraph() -> dict[str, Any]:
    """A cursor inside the paragraph."""
    return {"start": {"line": LINE, "character": 5}, "end": {"line": LINE, "character": 5}}


def expected(kind: str, name: str) -> str:
    if kind == "writingStyle":
        return engine_improve(PARAGRAPH, "en-us", writing_style=name)
    return engine_improve(PARAGRAPH, "en-us", tone=name)


async def alternatives(ed: AltEditor, uri: str, *rest: Any) -> dict[str, Any]:
    result: dict[str, Any] = await ed.command("rephrase.alternatives", uri, at_paragraph(), *rest)
    return result


def edited(text: str, edit: dict[str, Any]) -> str:
    """``text`` with a serialized workspace edit of one document applied."""
    from .conftest import apply_text_edits

    (change,) = edit["documentChanges"]
    edits = [
        types.TextEdit(
            range=types.Range(
                types.Position(**e["range"]["start"]), types.Position(**e["range"]["end"])
            ),
            new_text=e["newText"],
        )
        for e in change["edits"]
    ]
    return apply_text_edits(text, edits, "utf-16")


async def test_every_style_and_tone_is_offered_except_those_that_change_nothing(
    ed: AltEditor,
) -> None:
    uri = ed.open("a.md", TEXT)
    result = await alternatives(ed, uri)
    assert result["failed"] == []
    found = {label: a for a in result["alternatives"] for label in a["labels"]}
    texts = [a["text"] for a in result["alternatives"]]
    assert len(set(texts)) == len(texts)  # one entry per rewrite
    for kind, names, suffix in (
        ("writingStyle", STYLES, "writing style"),
        ("tone", TONES, "tone"),
    ):
        for name in names:
            label = f"{name} ({suffix})"
            want = expected(kind, name)
            if want == PARAGRAPH:
                assert label in result["unchanged"]
                assert label not in found
                continue
            alt = found[label]
            if alt["labels"][0] == label:  # the entry applies its first style or tone
                assert alt[kind] == name
            assert alt["text"] == want
            assert len(alt["preview"]) <= 72 and alt["preview"].endswith("…")
            assert want.startswith(alt["preview"][:-1])
            assert edited(TEXT, alt["edits"]) == TEXT.replace(PARAGRAPH, want)
            assert alt["command"]["command"] == "rephrase.applyAlternative"
    assert len(found) + len(result["unchanged"]) == len(STYLES) + len(TONES)
    assert len(found) >= 3  # the paragraph has something for several of them
    assert ed.text(uri) == TEXT  # asking changes nothing
    assert result["range"]["start"] == {"line": LINE, "character": 0}
    assert result["range"]["end"] == {"line": LINE, "character": len(PARAGRAPH)}


async def test_applying_one_gives_minimal_edits(ed: AltEditor) -> None:
    uri = ed.open("a.md", TEXT)
    result = await alternatives(ed, uri)
    (business,) = [a for a in result["alternatives"] if a.get("writingStyle") == "business"]
    usage_before = await ed.command("rephrase.usage", uri)
    command = business["command"]
    outcome = await ed.command(command["command"], *command["arguments"])
    assert outcome["applied"] is True
    assert ed.text(uri) == TEXT.replace(PARAGRAPH, expected("writingStyle", "business"))
    (params,) = ed.applied
    assert params.label == "Improve: business"
    (change,) = params.edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit)
    assert change.text_document.version == 1
    # Minimal: the words that change, not the paragraph.
    edits = [e for e in change.edits if not isinstance(e, types.SnippetTextEdit)]
    assert len(edits) == len(change.edits)
    assert sum(len(e.new_text) for e in edits) < 20
    for e in edits:
        assert e.range.start.line == e.range.end.line == LINE
    # Applying is answered from the improvement cache: nothing is billed again.
    usage_after = await ed.command("rephrase.usage", uri)
    assert usage_after["characterCount"] == usage_before["characterCount"]


async def test_applying_is_refused_after_the_document_changed(ed: AltEditor) -> None:
    uri = ed.open("a.md", TEXT)
    result = await alternatives(ed, uri)
    typed = TEXT.replace("The end", "The very end")
    ed.set_text(uri, typed)
    command = result["alternatives"][0]["command"]
    outcome = await ed.command(command["command"], *command["arguments"])
    assert outcome["applied"] is False
    assert "changed" in outcome["reason"]
    assert ed.text(uri) == typed
    assert ed.applied == []
    # Asking with the old version is refused too.
    stale = await alternatives(ed, uri, {"version": result["version"]})
    assert stale["alternatives"] == [] and "changed" in stale["reason"]


@pytest.mark.parametrize("knobs", [["--latency", "600"]], indirect=True)
async def test_a_change_while_the_requests_run_refuses_the_result(
    knobs: list[str], ed: AltEditor
) -> None:
    uri = ed.open("a.md", TEXT)
    asked = asyncio.ensure_future(alternatives(ed, uri))
    await asyncio.sleep(0.3)
    ed.set_text(uri, TEXT + "More.\n")
    result = await asked
    assert result["alternatives"] == []
    assert "changed while" in result["reason"]
    assert any("changed while" in m.message for m in ed.client.messages)


async def test_a_language_without_styles_says_so_and_sends_nothing(ed: AltEditor) -> None:
    text = "Le chat dort sur le canapé depuis ce matin, et il ne veut pas bouger du tout.\n"
    uri = ed.open("fr.md", text)
    result = await ed.command(
        "rephrase.alternatives",
        uri,
        {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
    )
    assert result["alternatives"] == []
    assert "no alternatives" in result["reason"] and "fr" in result["reason"]
    assert any("no alternatives" in m.message for m in ed.client.messages)
    usage = await ed.command("rephrase.usage", uri)
    assert usage["characterCount"] == 0
    # Nor is the action offered there (once the language list is known, as it is now).
    actions = await ed.code_actions(uri, (0, 0), (0, 0))
    assert "Improve" in [a.title for a in actions]
    assert "Show alternatives…" not in [a.title for a in actions]


async def test_styles_that_give_the_same_rewrite_are_one_entry(ed: AltEditor) -> None:
    # business and academic both only write out the contraction here
    paragraph = "We don't know why the build failed on the server last night."
    assert engine_improve(paragraph, "en-us", writing_style="business") == engine_improve(
        paragraph, "en-us", writing_style="academic"
    )
    uri = ed.open("a.md", f"# Notes\n\n{paragraph}\n")
    result = await alternatives(ed, uri)
    texts = [a["text"] for a in result["alternatives"]]
    assert len(set(texts)) == len(texts)
    (entry,) = (a for a in result["alternatives"] if "business (writing style)" in a["labels"])
    assert "academic (writing style)" in entry["labels"]
    assert entry["label"] == "business (writing style), academic (writing style)"
    assert entry["writingStyle"] == "business"
    assert entry["text"] == paragraph.replace("don't", "do not")


@pytest.mark.parametrize("knobs", [["--fail", "456:1"]], indirect=True)
async def test_one_failing_request_leaves_out_that_alternative_and_names_it(
    knobs: list[str], ed: AltEditor
) -> None:
    uri = ed.open("a.md", TEXT)
    result = await alternatives(ed, uri)
    (failed,) = result["failed"]
    labels = [label for a in result["alternatives"] for label in a["labels"]]
    labels += result["unchanged"]
    assert failed["label"] not in labels
    assert len(labels) == len(STYLES) + len(TONES) - 1
    assert "quota" in failed["reason"].lower()
    warnings = [m.message for m in ed.client.messages if m.type == types.MessageType.Warning]
    assert any(failed["label"] in w for w in warnings), warnings


@pytest.mark.parametrize("knobs", [["--fail", "456:8"]], indirect=True)
async def test_every_request_failing_is_an_error(knobs: list[str], ed: AltEditor) -> None:
    uri = ed.open("a.md", TEXT)
    result = await alternatives(ed, uri)
    assert result["alternatives"] == []
    assert "every request failed" in result["reason"]
    errors = [m.message for m in ed.client.messages if m.type == types.MessageType.Error]
    assert any("every request failed" in e for e in errors)
    assert ed.text(uri) == TEXT


async def test_the_code_action_offers_the_labels_and_applies_the_one_chosen(
    ed: AltEditor,
) -> None:
    uri = ed.open("a.md", TEXT)
    action = (await listed(ed, uri))["Show alternatives…"]
    assert action.kind == types.CodeActionKind.RefactorRewrite
    assert action.command is not None and action.command.command == "rephrase.alternatives"
    # the titles are the entries' labels: styles and tones that give one rewrite share one
    casual = next(
        t
        for t in (await alternatives(ed, uri))["alternatives"]
        if "casual (writing style)" in t["labels"]
    )["label"]
    ed.answer = casual
    await ed.run_action(action)
    (request,) = ed.requests
    titles = [a.title for a in request.actions or []]
    assert casual in titles and any(t.startswith("business") for t in titles)
    assert len(set(titles)) == len(titles)
    assert ed.text(uri) == TEXT.replace(PARAGRAPH, expected("writingStyle", "casual"))


async def test_choosing_nothing_changes_nothing(ed: AltEditor) -> None:
    uri = ed.open("a.md", TEXT)
    action = (await listed(ed, uri))["Show alternatives…"]
    ed.answer = None
    await ed.run_action(action)
    assert len(ed.requests) == 1
    assert ed.text(uri) == TEXT and ed.applied == []


@pytest.mark.parametrize("profile", ["emacs"], indirect=True)
async def test_no_picker_action_for_a_client_without_message_requests(
    profile: str, ed: AltEditor
) -> None:
    uri = ed.open("a.md", TEXT)
    titles = list(await listed(ed, uri))
    assert "Improve: business" in titles
    assert "Show alternatives…" not in titles
