"""The writer keeps typing while Improve waits for a slow service (the offline service on
loopback with ``--latency``): typing elsewhere leaves the improvement standing, applied where
its paragraph has moved to; typing in a paragraph being improved leaves that paragraph as the
writer made it, and says so; a change that replaces the whole text refuses the result."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .conftest import (
    SERVER,
    Editor,
    OfflineService,
    editor_config,
    initialize_params,
    install_apply_edit,
    server_env,
)
from .test_actions import by_title, wait_for

pytestmark = pytest.mark.asyncio

KEY = "typing-test-key"
#: Two paragraphs of over 9 KB each: each is sent in more than one request, so the editor is
#: shown progress, which tells the test that the requests are under way.
FIRST = " ".join(["We recieved teh letter yesterday and we will answer it soon."] * 170)
FIRST_IMPROVED = " ".join(["We received the letter yesterday and we will answer it soon."] * 170)
SECOND = " ".join(["The comittee will meet tomorow to discuss the budget."] * 190)
SECOND_IMPROVED = " ".join(["The committee will meet tomorrow to discuss the budget."] * 190)
#: The heading ends in a character of two UTF-16 code units (four UTF-8 ones): typing after it
#: is at character 10 of line 0 in UTF-16, 12 in UTF-8, 9 in UTF-32.
TEXT = f"# Notes 😀\n\n{FIRST}\n\n{SECOND}\n"
#: The lines of the two paragraphs.
FIRST_LINE, SECOND_LINE = 2, 4
#: Each request to the service waits this long (ms): time to type while Improve runs.
SLOW = ["--latency", "1500"]


@pytest.fixture
def profile(request: pytest.FixtureRequest) -> str:
    return str(getattr(request, "param", "visual-studio-code"))


@pytest_lsp.fixture(
    config=editor_config(server_command=SERVER, server_env=server_env(REPHRASE_API_KEY=KEY)),
)
async def session(
    lsp_client: LanguageClient, tmp_path: Path, service: OfflineService, profile: str
) -> AsyncIterator[None]:
    root = tmp_path / "ws"
    root.mkdir()
    # Improve document sends some 20,000 characters: no confirmation asked.
    lsp_client.set_configuration({"rephrase": {"timeout": 10, "confirmCharacters": 0}})
    ed = Editor(lsp_client, root, profile=profile)
    install_apply_edit(lsp_client, [ed])
    options = {"rephrase": {"serverUrl": service.url, "confirmCharacters": 0}}
    result = await lsp_client.initialize_session(
        initialize_params(profile, root, initialization_options=options)
    )
    chosen = result.capabilities.position_encoding or types.PositionEncodingKind.Utf16
    ed.encoding = chosen.value if isinstance(chosen, types.PositionEncodingKind) else chosen
    lsp_client.editor = ed  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def ed(session: LanguageClient) -> Editor:
    return session.editor  # type: ignore[attr-defined]


async def start(ed: Editor, uri: str, title: str, line: int = FIRST_LINE) -> asyncio.Future[Any]:
    """Pick ``title`` at ``line`` as the editor does; returns once its requests are under way
    (its progress has begun), the picking still running."""
    only = ["source"] if title.endswith("document") else None
    actions = by_title(await ed.code_actions(uri, (line, 5), (line, 5), only=only))
    running = asyncio.ensure_future(ed.run_action(actions[title]))
    await wait_for(lambda: any(ed.client.progress_reports.values()), 20)
    assert not running.done()
    return running


def warnings(ed: Editor) -> list[str]:
    return [m.message for m in ed.client.messages if m.type == types.MessageType.Warning]


@pytest.mark.parametrize("knobs", [SLOW], indirect=True)
@pytest.mark.parametrize("profile", ["visual-studio-code", "neovim"], indirect=True)
async def test_typing_elsewhere_keeps_the_improvement(
    knobs: list[str], profile: str, ed: Editor
) -> None:
    uri = ed.open("notes.md", TEXT)
    running = await start(ed, uri, "Improve")
    # Keystrokes elsewhere while the request waits: after the heading's last character (a
    # position in the negotiated encoding), a new line above the paragraph, and in the other.
    heading_end = {"utf-8": 12, "utf-16": 10, "utf-32": 9}[ed.encoding]
    ed.type_over(uri, (0, heading_end), (0, heading_end), " today")
    ed.type_over(uri, (1, 0), (1, 0), "Written in haste.\n\n")
    ed.type_over(uri, (SECOND_LINE + 2, 3), (SECOND_LINE + 2, 3), " new")
    typed = ed.text(uri)
    assert typed == f"# Notes 😀 today\nWritten in haste.\n\n\n{FIRST}\n\nThe new comittee" + (
        SECOND.removeprefix("The comittee") + "\n"
    )
    await asyncio.wait_for(running, 30)
    # The improvement landed on the paragraph where it is now; every keystroke is kept.
    assert ed.text(uri) == typed.replace(FIRST, FIRST_IMPROVED)
    assert ed.refused == []
    assert not [m for m in ed.client.messages if "changed" in m.message]


@pytest.mark.parametrize("knobs", [SLOW], indirect=True)
async def test_typing_in_an_improved_paragraph_leaves_it_and_improves_the_others(
    knobs: list[str], ed: Editor
) -> None:
    uri = ed.open("notes.md", TEXT)
    running = await start(ed, uri, "Improve document")
    # The writer fixes one word of the first paragraph themselves, and adds one.
    ed.type_over(uri, (FIRST_LINE, 3), (FIRST_LINE, 11), "received")
    ed.type_over(uri, (FIRST_LINE, 0), (FIRST_LINE, 0), "Yes. ")
    typed = ed.text(uri)
    await asyncio.wait_for(running, 30)
    # The first paragraph is as the writer left it (its other misspellings stay: it was being
    # edited); the second is improved.
    assert ed.text(uri) == typed.replace(SECOND, SECOND_IMPROVED)
    assert ed.text(uri).count("Yes. We received teh letter yesterday") == 1
    assert ed.text(uri).count("We recieved teh letter") == 169
    assert warnings(ed) == [
        "rephrase: paragraph 2 (line 3, “We recieved teh letter yesterday and …”) was not "
        "changed: it was edited while the improvement was computed. Choose the action again "
        "to improve it."
    ]


@pytest.mark.parametrize("knobs", [SLOW], indirect=True)
async def test_typing_at_the_end_of_the_only_paragraph_stops_the_improvement(
    knobs: list[str], ed: Editor
) -> None:
    uri = ed.open("notes.md", TEXT)
    running = await start(ed, uri, "Improve", line=SECOND_LINE)
    end = len(SECOND)
    ed.type_over(uri, (SECOND_LINE, end), (SECOND_LINE, end), " Bring")
    typed = ed.text(uri)
    await asyncio.wait_for(running, 30)
    assert ed.text(uri) == typed
    assert ed.applied == []
    assert warnings(ed) == [
        "rephrase: paragraph 1 (line 5, “The comittee will meet tomorow to …”) was "
        "edited while the improvement was computed; the improvement stopped and nothing was "
        "changed. Try again."
    ]


@pytest.mark.parametrize("knobs", [SLOW], indirect=True)
async def test_the_whole_text_replaced_refuses_the_improvement(
    knobs: list[str], ed: Editor
) -> None:
    uri = ed.open("notes.md", TEXT)
    running = await start(ed, uri, "Improve")
    ed.type_over(uri, (SECOND_LINE, 0), (SECOND_LINE, 0), "So. ")  # survivable ...
    replaced = ed.text(uri).replace("# Notes", "# Minutes")
    ed.set_text(uri, replaced)  # ... but this change comes without a range
    await asyncio.wait_for(running, 30)
    assert ed.text(uri) == replaced
    assert ed.applied == []
    assert warnings(ed) == [
        "rephrase: the document changed while the improvement was computed; the improvement "
        "stopped and nothing was changed. Try again."
    ]


#: A paragraph the styles rewrite, long enough that eight requests (one per style and tone)
#: show progress.
OPINION = " ".join(
    ["I think we can't finish the report by friday, but we will try hard to get it done."] * 14
)


@pytest.mark.parametrize("knobs", [SLOW], indirect=True)
async def test_alternatives_survive_typing_elsewhere(knobs: list[str], ed: Editor) -> None:
    text = f"# Notes\n\n{OPINION}\n\n{SECOND}\n"
    uri = ed.open("opinion.md", text)
    cursor = {"start": {"line": 2, "character": 5}, "end": {"line": 2, "character": 5}}
    asked = asyncio.ensure_future(ed.command("rephrase.alternatives", uri, cursor))
    await wait_for(lambda: any(ed.client.progress_reports.values()), 20)
    assert not asked.done()
    ed.type_over(uri, (1, 0), (1, 0), "Draft.\n")
    ed.type_over(uri, (5, 0), (5, 0), "And. ")
    typed = ed.text(uri)
    result = await asyncio.wait_for(asked, 30)
    assert result["version"] == ed.version(uri)
    assert result["range"]["start"]["line"] == 3  # where the paragraph is now
    business = next(a for a in result["alternatives"] if a.get("writingStyle") == "business")
    assert business["text"] != OPINION
    command = business["command"]
    outcome = await ed.command(command["command"], *command["arguments"])
    assert outcome["applied"] is True
    assert ed.text(uri) == typed.replace(OPINION, business["text"])


@pytest.mark.parametrize("knobs", [SLOW], indirect=True)
async def test_alternatives_are_refused_after_typing_in_their_paragraph(
    knobs: list[str], ed: Editor
) -> None:
    text = f"# Notes\n\n{OPINION}\n\n{SECOND}\n"
    uri = ed.open("opinion.md", text)
    cursor = {"start": {"line": 2, "character": 5}, "end": {"line": 2, "character": 5}}
    asked = asyncio.ensure_future(ed.command("rephrase.alternatives", uri, cursor))
    await wait_for(lambda: any(ed.client.progress_reports.values()), 20)
    ed.type_over(uri, (2, 0), (2, 0), "Well, ")
    typed = ed.text(uri)
    result = await asyncio.wait_for(asked, 30)
    assert result["alternatives"] == []
    assert "changed while the alternatives were computed" in result["reason"]
    assert ed.text(uri) == typed


@pytest.mark.parametrize("knobs", [SLOW], indirect=True)
async def test_a_service_review_survives_typing_and_leaves_out_an_edited_paragraph(
    knobs: list[str], ed: Editor
) -> None:
    from .review_support import covered

    uri = ed.open("notes.md", TEXT)
    reviewing = asyncio.ensure_future(ed.command("rephrase.review", uri))
    await wait_for(lambda: any(ed.client.progress_reports.values()), 20)
    assert not reviewing.done()
    heading_end = {"utf-8": 12, "utf-16": 10, "utf-32": 9}[ed.encoding]
    ed.type_over(uri, (0, heading_end), (0, heading_end), " today")
    ed.type_over(uri, (FIRST_LINE, 0), (FIRST_LINE, 0), "Yes. ")
    result = await asyncio.wait_for(reviewing, 30)
    # The second paragraph's findings (two misspellings, 190 times), where its words are now;
    # none of the first's, which the writer was editing.
    assert result == {"reviewed": True, "findings": 380}

    def services(found: list[types.Diagnostic]) -> list[types.Diagnostic]:
        return [d for d in found if d.data["origin"] == "service"]

    found = services(await ed.diagnostics(uri, lambda d: len(services(d)) == 380))
    assert {covered(ed.text(uri), d.range) for d in found} == {"comittee", "tomorow"}
    assert warnings(ed) == [
        "rephrase: paragraph 2 (line 3, “We recieved teh letter yesterday and …”) was edited "
        "while it was reviewed; its findings are not shown. Review it again."
    ]
