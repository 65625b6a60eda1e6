"""End-to-end harness: the real server over stdio, driven by pytest-lsp as a given editor.

:class:`Editor` plays the editor's part: it owns the buffers, sends ``didOpen``/``didChange``,
answers ``workspace/applyEdit`` the way editors do (refusing an edit pinned to an old version),
and applies edits with its own position arithmetic, so the server's conversions are checked
against an independent implementation.

The ``editor`` fixture shares one server per editor profile among all the tests of a run's
process (of each pytest-xdist worker; a server takes a second or more to start, most tests take
milliseconds): each test gets a workspace folder of its own
(``workspace/didChangeWorkspaceFolders``), so its project file, editor settings and documents are
its own, and sees only what the server says from its start. A test runs in the VS Code profile
alone unless marked ``every_profile`` (or ``profiles(...)``). Tests that need a server set up
otherwise (environment, flags, client capabilities, a service) start their own.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

import pytest
import pytest_asyncio
import pytest_lsp
from cattrs import Converter
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import register_lsp_features

SERVER = [sys.executable, "-m", "rephrase_ls"]


def server_env(**extra: str) -> dict[str, str]:
    """The server's environment: no API key unless given, and no user config file (a folder
    that holds none) unless ``XDG_CONFIG_HOME`` is given."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env["XDG_CONFIG_HOME"] = str(Path(__file__).resolve().parents[1] / "data" / "no-user-config")
    env.update(extra)
    return env


def _split_lines(text: str) -> list[str]:
    """Lines with their terminators, split at \\r\\n, \\n or \\r as LSP does."""
    lines: list[str] = []
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            lines.append(text[start : i + 2])
            i += 2
            start = i
            continue
        if ch in "\r\n":
            lines.append(text[start : i + 1])
            start = i + 1
        i += 1
    lines.append(text[start:])
    return lines


def offset_of(text: str, pos: types.Position, encoding: str) -> int:
    """Naive reference conversion of an LSP position to a code point offset."""
    lines = _split_lines(text)
    assert pos.line < len(lines), f"line {pos.line} beyond the document"
    base = sum(len(line) for line in lines[: pos.line])
    line = lines[pos.line].rstrip("\r\n")
    units = 0
    for index, ch in enumerate(line):
        if units >= pos.character:
            assert units == pos.character, "position inside a character"
            return base + index
        if encoding == "utf-8":
            units += len(ch.encode("utf-8"))
        elif encoding == "utf-16":
            units += len(ch.encode("utf-16-le")) // 2
        else:
            units += 1
    assert units >= pos.character, f"character {pos.character} beyond the line"
    return base + len(line)


def apply_text_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    """Apply LSP text edits (all relative to ``text``) the way an editor does."""
    lines = _split_lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    by_line: dict[int, dict[int, int]] = {}

    def offset(pos: types.Position) -> int:
        """As :func:`offset_of`, each line's code units counted once."""
        assert pos.line < len(lines), f"line {pos.line} beyond the document"
        units = by_line.get(pos.line)
        if units is None:
            units = by_line[pos.line] = {}
            count = 0
            line = lines[pos.line].rstrip("\r\n")
            for index, ch in enumerate(line):
                units[count] = index
                count += (
                    len(ch.encode("utf-16-le")) // 2
                    if encoding == "utf-16"
                    else (len(ch.encode("utf-8")) if encoding == "utf-8" else 1)
                )
            units[count] = len(line)
        assert pos.character in units, f"character {pos.character} beyond or inside a character"
        return starts[pos.line] + units[pos.character]

    spans = sorted((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits)
    out: list[str] = []
    last = 0
    for start, end, new in spans:
        assert start >= last, "overlapping edits"
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    return "".join(out)


@dataclass
class Buffer:
    text: str
    version: int
    language_id: str


@dataclass
class Editor:
    """The editor's side: buffers, versions, and applying workspace edits."""

    client: LanguageClient
    root: Path
    encoding: str = "utf-16"
    buffers: dict[str, Buffer] = field(default_factory=dict)
    applied: list[types.ApplyWorkspaceEditParams] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    apply_delay: float = 0.0
    #: The editor profile the client plays (``pytest_lsp.client_capabilities``).
    profile: str = "visual-studio-code"
    #: ``textDocument/publishDiagnostics`` for this editor's documents, in the order received.
    published: list[types.PublishDiagnosticsParams] = field(default_factory=list)
    #: What the server declared at ``initialize``.
    server_capabilities: types.ServerCapabilities | None = None

    @property
    def pulls(self) -> bool:
        """The profile pulls diagnostics (``textDocument/diagnostic``) rather than being pushed
        them."""
        return client_capabilities(self.profile).text_document.diagnostic is not None  # type: ignore[union-attr]

    def uri(self, name: str) -> str:
        return (self.root / name).as_uri()

    def open(self, name: str, text: str, language_id: str = "markdown") -> str:
        uri = self.uri(name)
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
        self.buffers[uri] = Buffer(text, 1, language_id)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id=language_id, version=1, text=text
                )
            )
        )
        return uri

    def set_text(self, uri: str, text: str) -> None:
        """The writer types: the buffer changes and the server is told."""
        buf = self.buffers[uri]
        buf.text = text
        buf.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=buf.version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def type_over(self, uri: str, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """The writer types ``text`` over ``start``–``end`` (positions in this editor's
        encoding): the buffer changes and the server is told with an incremental change (a
        range), as editors do for keystrokes."""
        buf = self.buffers[uri]
        rng = types.Range(types.Position(*start), types.Position(*end))
        buf.text = apply_text_edits(
            buf.text, [types.TextEdit(range=rng, new_text=text)], self.encoding
        )
        buf.version += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=buf.version),
                content_changes=[types.TextDocumentContentChangePartial(range=rng, text=text)],
            )
        )

    def text(self, uri: str) -> str:
        return self.buffers[uri].text

    def version(self, uri: str) -> int:
        return self.buffers[uri].version

    def apply(self, edit: types.WorkspaceEdit) -> types.ApplyWorkspaceEditResult:
        """Apply a workspace edit atomically, refusing it when pinned to an old version."""
        plans: list[tuple[str, list[types.TextEdit]]] = []
        creates: list[str] = []
        for change in edit.document_changes or []:
            if isinstance(change, types.CreateFile):
                creates.append(change.uri)
                continue
            if not isinstance(change, types.TextDocumentEdit):
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason="unsupported")
            uri = change.text_document.uri
            buf = self.buffers.get(uri)
            version = change.text_document.version
            if buf is not None and version is not None and version != buf.version:
                self.refused.append(uri)
                return types.ApplyWorkspaceEditResult(
                    applied=False, failure_reason=f"version {version} != {buf.version}"
                )
            kept = (types.TextEdit, types.AnnotatedTextEdit)
            plans.append((uri, [e for e in change.edits if isinstance(e, kept)]))
        for uri, edits in (edit.changes or {}).items():
            plans.append((uri, list(edits)))
        for uri in creates:
            path = Path(uri.removeprefix("file://"))
            if not path.exists():
                path.write_text("", encoding="utf-8")
        for uri, edits in plans:
            buf = self.buffers.get(uri)
            if buf is None:  # an unopened file: the editor opens it, edits, and saves it
                path = Path(uri.removeprefix("file://"))
                old = path.read_text(encoding="utf-8") if path.exists() else ""
                path.write_text(apply_text_edits(old, edits, self.encoding), encoding="utf-8")
                continue
            self.set_text(uri, apply_text_edits(buf.text, edits, self.encoding))
        return types.ApplyWorkspaceEditResult(applied=True)

    async def code_actions(
        self, uri: str, start: tuple[int, int], end: tuple[int, int], only: list[str] | None = None
    ) -> list[types.CodeAction]:
        rng = types.Range(types.Position(*start), types.Position(*end))
        return await self.actions(uri, rng, only=only)

    async def actions(
        self,
        uri: str,
        rng: types.Range,
        diagnostics: list[types.Diagnostic] | None = None,
        only: list[str] | None = None,
    ) -> list[types.CodeAction]:
        """The code actions for ``rng``, the editor showing ``diagnostics`` there."""
        result = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=rng,
                context=types.CodeActionContext(diagnostics=diagnostics or [], only=only),
            )
        )
        return [a for a in result or [] if isinstance(a, types.CodeAction)]

    async def pull(self, uri: str) -> list[types.Diagnostic]:
        """``textDocument/diagnostic``: the document's diagnostics, pulled."""
        report = await self.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        full = types.RelatedFullDocumentDiagnosticReport | types.FullDocumentDiagnosticReport
        assert isinstance(report, full)
        return list(report.items)

    def pushed(self, uri: str) -> list[types.Diagnostic] | None:
        """The diagnostics last pushed for ``uri`` for its current version (None: none yet)."""
        for params in reversed(self.published):
            if params.uri == uri:
                if params.version is not None and params.version != self.version(uri):
                    return None
                return list(params.diagnostics)
        return None

    async def diagnostics(
        self, uri: str, until: Callable[[list[types.Diagnostic]], bool] = lambda d: True
    ) -> list[types.Diagnostic]:
        """The document's diagnostics as this editor gets them (pulled or pushed), once
        ``until`` holds of them (at most 20 s)."""
        found = None
        for _ in range(200):
            found = await self.pull(uri) if self.pulls else self.pushed(uri)
            if found is not None and until(found):
                return found
            await asyncio.sleep(0.1)
        raise AssertionError(f"diagnostics of {uri} never matched; last {found!r}")

    async def run_action(self, action: types.CodeAction) -> None:
        """What an editor does when the writer picks an action."""
        if action.edit is None and action.command is None:
            action = await self.client.code_action_resolve_async(action)
        if action.edit is not None:
            result = self.apply(action.edit)
            self.applied.append(types.ApplyWorkspaceEditParams(edit=action.edit))
            assert result.applied or self.refused
        if action.command is not None:
            await self.client.workspace_execute_command_async(
                types.ExecuteCommandParams(
                    command=action.command.command, arguments=action.command.arguments
                )
            )

    async def command(self, name: str, *args: Any) -> Any:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=list(args))
        )


PROFILES = ["visual-studio-code", "neovim", "emacs"]
#: The profile of tests whose way through the server does not depend on the client's
#: capabilities. Tests whose way does (how an edit is applied, whether a file can be created
#: through an edit, disabled actions, position encodings) are marked :data:`every_profile`.
DEFAULT_PROFILE = "visual-studio-code"
every_profile = pytest.mark.profiles(*PROFILES)


def initialize_params(
    profile: str, root: Path, encodings: list[str] | None = None, **kw: Any
) -> types.InitializeParams:
    caps = client_capabilities(profile)
    if encodings is not None:
        caps.general = types.GeneralClientCapabilities(
            position_encodings=[types.PositionEncodingKind(e) for e in encodings]
        )
    return types.InitializeParams(
        capabilities=caps,
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        **kw,
    )


def _editor_converter() -> Converter:
    """pygls's converter, decoding code actions as editors do: lsprotocol decodes any code action
    carrying a ``command`` as a bare Command; editors look at the type of ``command`` (a string
    for a Command, an object for a CodeAction)."""
    converter = default_converter()

    def hook(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    converter.register_structure_hook(
        Optional[Sequence[Union[types.Command, types.CodeAction]]],  # noqa: UP007, UP045
        lambda obj, _: None if obj is None else [hook(o, types.CodeAction) for o in obj],
    )
    converter.register_structure_hook(Union[types.Command, types.CodeAction], hook)  # noqa: UP007
    return converter


def editor_client() -> LanguageClient:
    """A pytest-lsp test client whose code actions decode as an editor's do."""
    client = LanguageClient(converter_factory=_editor_converter)
    register_lsp_features(client)
    return client


def editor_config(**kwargs: Any) -> ClientServerConfig:
    """pytest-lsp's configuration with :func:`editor_client` as its client."""
    return ClientServerConfig(client_factory=editor_client, **kwargs)


def _targets(edit: types.WorkspaceEdit) -> list[str]:
    """The URIs a workspace edit changes."""
    uris = list(edit.changes or {})
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            uris.append(change.text_document.uri)
        elif isinstance(change, types.CreateFile | types.DeleteFile):
            uris.append(change.uri)
        elif isinstance(change, types.RenameFile):
            uris += [change.old_uri, change.new_uri]
    return uris


def install_apply_edit(
    client: LanguageClient, editor_ref: list[Editor], retired: Sequence[Path] = ()
) -> None:
    """Answer ``workspace/applyEdit`` with the editor in ``editor_ref``, and record in its
    ``published`` the diagnostics pushed for files in its folder. An edit to a file in one of the
    ``retired`` folders (of tests that have finished: the editor closed their documents) is
    refused, not taken for the running test's."""
    del client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics  # as pytest-lsp keeps them
        path = Path(params.uri.removeprefix("file://"))
        if editor_ref and editor_ref[0].root in path.parents:
            editor_ref[0].published.append(params)

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    async def on_apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        for uri in _targets(params.edit):
            path = Path(uri.removeprefix("file://"))
            if any(folder in path.parents for folder in retired):
                return types.ApplyWorkspaceEditResult(
                    applied=False, failure_reason=f"{uri} is not open"
                )
        editor = editor_ref[0]
        if editor.apply_delay:
            import asyncio

            await asyncio.sleep(editor.apply_delay)
        editor.applied.append(params)
        return editor.apply(params.edit)


@dataclass
class Shared:
    """One server of one editor profile, shared by the tests of this process (xdist worker)."""

    profile: str
    #: The position encoding the server chose from the client's offer.
    encoding: str = "utf-16"
    #: What the server declared at ``initialize``.
    capabilities: types.ServerCapabilities | None = None
    #: The running test's editor (``workspace/applyEdit`` goes to it).
    current: list[Editor] = field(default_factory=list)
    #: Workspace folders of the tests that have finished.
    retired: list[Path] = field(default_factory=list)


_SHARED: dict[str, Shared] = {}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that uses ``editor`` runs once per profile its ``profiles`` mark names; unmarked,
    in :data:`DEFAULT_PROFILE` alone."""
    if "editor_server" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("profiles")
    profiles = list(marker.args) if marker else [DEFAULT_PROFILE]
    unknown = [p for p in profiles if p not in PROFILES]
    if unknown or not profiles:
        raise pytest.UsageError(f"{metafunc.definition.nodeid}: profiles must be among {PROFILES}")
    metafunc.parametrize("editor_server", profiles, indirect=True, scope="session")


class OfflineService:
    """``rephrase-ls offline-service`` on loopback, with testing knobs. Its engine runs in
    threads (``--workers 0``): the language server sees the same HTTP answers, and a service
    with worker processes takes three times as long to start and stop (tests/unit/offline test
    those)."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "rephrase_ls",
                "offline-service",
                "--port",
                "0",
                "--workers",
                "0",
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"(http://\S+)", line)
        assert match, f"no address in {line!r}"
        self.url = match.group(1).rstrip("/")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture
def knobs(request: pytest.FixtureRequest) -> list[str]:
    """The offline service's testing knobs (parametrize indirectly to set them)."""
    return list(getattr(request, "param", []))


@pytest.fixture
def service(knobs: list[str]) -> Iterator[OfflineService]:
    """``rephrase-ls offline-service`` on a free loopback port, with ``knobs``."""
    svc = OfflineService(*knobs)
    yield svc
    svc.stop()


@pytest_lsp.fixture(
    scope="session",
    config=editor_config(server_command=SERVER, server_env=server_env()),
)
async def editor_server(
    request: pytest.FixtureRequest,
    lsp_client: LanguageClient,
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[None]:
    """One server per editor profile for this process's tests. Each test brings its own
    workspace folder (``workspace/didChangeWorkspaceFolders``) and documents: see :func:`editor`."""
    profile: str = request.param
    root = tmp_path_factory.mktemp(f"{profile}-root")
    shared = Shared(profile)
    install_apply_edit(lsp_client, shared.current, shared.retired)
    result = await lsp_client.initialize_session(initialize_params(profile, root))
    chosen = result.capabilities.position_encoding or types.PositionEncodingKind.Utf16
    shared.encoding = chosen.value if isinstance(chosen, types.PositionEncodingKind) else chosen
    shared.capabilities = result.capabilities
    _SHARED[profile] = shared
    yield
    del _SHARED[profile]
    await lsp_client.shutdown_session()


@pytest_asyncio.fixture(loop_scope="session")
async def editor(
    request: pytest.FixtureRequest, editor_server: LanguageClient, tmp_path: Path
) -> AsyncIterator[Editor]:
    """The editor of one test: a workspace folder of its own (so its project file, editor
    settings and documents are its own) added to the shared server of its profile, and what the
    server says from now on. An ``editor_settings`` mark sets the folder's editor settings (the
    answer to ``workspace/configuration``)."""
    client = editor_server
    shared = _SHARED[request.node.callspec.params["editor_server"]]
    root = tmp_path / "ws"
    root.mkdir()
    marker = request.node.get_closest_marker("editor_settings")
    if marker is not None:
        client.set_configuration({"rephrase": marker.args[0]}, scope_uri=root.as_uri())
    # What earlier tests heard is not this test's.
    client.messages.clear()
    client.log_messages.clear()
    client.progress_reports.clear()
    client._last_log_index = 0  # pytest-lsp's mark for the log lines it reports with a failure
    ed = Editor(
        client,
        root,
        encoding=shared.encoding,
        profile=shared.profile,
        server_capabilities=shared.capabilities,
    )
    shared.current[:] = [ed]
    folder = types.WorkspaceFolder(uri=root.as_uri(), name=root.name)
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(added=[folder], removed=[])
        )
    )
    yield ed
    for uri in ed.buffers:
        client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(added=[], removed=[folder])
        )
    )
    shared.retired.append(tmp_path)
    shared.current.clear()
