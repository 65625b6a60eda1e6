"""A small editor for the review-mode tests: buffers with versions, every published diagnostic
kept in order, workspace edits applied (pinned versions checked), UTF-16 positions.

Independent of conftest.py on purpose: these tests start their own servers with the client
profile (pull or push) each needs.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "rephrase_ls"]
#: A client that pulls diagnostics (Neovim, from 0.11, announces textDocument.diagnostic), as
#: the shared servers of tests/lsp/conftest.py name it.
PULL = "neovim"
#: A client that does not: it is pushed textDocument/publishDiagnostics.
PUSH = "visual-studio-code"


def server_env(**extra: str) -> dict[str, str]:
    """No API key unless given, and no user config file."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env["XDG_CONFIG_HOME"] = str(Path(__file__).resolve().parents[1] / "data" / "no-user-config")
    env.update(extra)
    return env


def offset(text: str, pos: types.Position) -> int:
    """A UTF-16 position → a code-point offset (lines end at \\n only in these tests)."""
    lines = text.split("\n")
    start = sum(len(line) + 1 for line in lines[: pos.line])
    line = lines[pos.line] if pos.line < len(lines) else ""
    units = 0
    for i, ch in enumerate(line):
        if units >= pos.character:
            return start + i
        units += 2 if ord(ch) > 0xFFFF else 1
    return start + len(line)


def covered(text: str, rng: types.Range) -> str:
    return text[offset(text, rng.start) : offset(text, rng.end)]


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    spans = sorted(
        ((offset(text, e.range.start), offset(text, e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


@dataclass
class Editor:
    client: LanguageClient
    root: Path
    profile: str
    texts: dict[str, str] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)
    published: list[types.PublishDiagnosticsParams] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    server_capabilities: types.ServerCapabilities | None = None

    def open(self, name: str, text: str, language_id: str = "markdown") -> str:
        path = self.root / name
        path.write_text(text, encoding="utf-8")
        uri = path.as_uri()
        self.texts[uri], self.versions[uri] = text, 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id=language_id, version=1, text=text
                )
            )
        )
        return uri

    def set_text(self, uri: str, text: str) -> None:
        self.texts[uri] = text
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def apply(self, edit: types.WorkspaceEdit) -> types.ApplyWorkspaceEditResult:
        plans: list[tuple[str, list[types.TextEdit]]] = []
        for change in edit.document_changes or []:
            if isinstance(change, types.CreateFile):
                path = Path(change.uri.removeprefix("file://"))
                if not path.exists():
                    path.write_text("", encoding="utf-8")
                continue
            assert isinstance(change, types.TextDocumentEdit)
            uri, version = change.text_document.uri, change.text_document.version
            if uri in self.versions and version is not None and version != self.versions[uri]:
                self.refused.append(uri)
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason="version")
            plans.append((uri, [e for e in change.edits if isinstance(e, types.TextEdit)]))
        plans.extend((uri, list(edits)) for uri, edits in (edit.changes or {}).items())
        for uri, edits in plans:
            if uri in self.texts:
                self.set_text(uri, apply_edits(self.texts[uri], edits))
            else:  # a file not open: written as the editor would save it
                path = Path(uri.removeprefix("file://"))
                old = path.read_text(encoding="utf-8") if path.exists() else ""
                path.write_text(apply_edits(old, edits), encoding="utf-8")
        return types.ApplyWorkspaceEditResult(applied=True)

    async def actions(
        self,
        uri: str,
        rng: types.Range,
        diagnostics: list[types.Diagnostic] | None = None,
        only: list[str] | None = None,
    ) -> list[types.CodeAction]:
        result = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=rng,
                context=types.CodeActionContext(diagnostics=diagnostics or [], only=only),
            )
        )
        return [a for a in result or [] if isinstance(a, types.CodeAction)]

    async def run(self, action: types.CodeAction) -> None:
        if action.edit is not None:
            assert self.apply(action.edit).applied
        if action.command is not None:
            await self.command(action.command.command, *(action.command.arguments or []))

    async def command(self, name: str, *args: Any) -> Any:
        return await self.client.workspace_execute_command_async(
            types.ExecuteCommandParams(command=name, arguments=list(args))
        )

    async def pull(self, uri: str) -> list[types.Diagnostic]:
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
                if params.version is not None and params.version != self.versions.get(uri):
                    return None
                return list(params.diagnostics)
        return None

    async def diagnostics(
        self, uri: str, until: Callable[[list[types.Diagnostic]], bool] = lambda d: True
    ) -> list[types.Diagnostic]:
        """The document's diagnostics as the client gets them (pulled or pushed), once
        ``until`` holds (at most 20 s)."""
        for _ in range(200):
            found = await self.pull(uri) if self.profile == PULL else self.pushed(uri)
            if found is not None and until(found):
                return found
            await asyncio.sleep(0.1)
        raise AssertionError(f"diagnostics of {uri} never matched; last {found!r}")


def _decode_actions_as_editors_do(client: LanguageClient) -> None:
    """lsprotocol reads any code action carrying a ``command`` as a bare Command; an editor
    tells them apart by the type of ``command`` (a string for a Command)."""
    converter = client.protocol._converter

    def one(obj: Any) -> types.Command | types.CodeAction:
        kind = types.Command if isinstance(obj.get("command"), str) else types.CodeAction
        return converter.structure(obj, kind)  # type: ignore[no-any-return]

    converter.register_structure_hook(
        Optional[Sequence[Union[types.Command, types.CodeAction]]],  # noqa: UP007, UP045
        lambda obj, _: None if obj is None else [one(o) for o in obj],
    )
    converter.register_structure_hook(
        Union[types.Command, types.CodeAction],  # noqa: UP007
        lambda obj, _: one(obj),
    )


async def start(
    client: LanguageClient,
    root: Path,
    profile: str,
    settings: dict[str, Any] | None = None,
    initialization_options: dict[str, Any] | None = None,
    refresh: bool = False,
) -> Editor:
    """Initialize ``client`` as ``profile`` over ``root`` with the folder settings given;
    ``refresh``: the client announces ``workspace/diagnostic/refresh``."""
    editor = Editor(client, root, profile)
    client.set_configuration({"rephrase": settings or {}})
    features = client.protocol.fm.features
    del features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def record(params: types.PublishDiagnosticsParams) -> None:
        editor.published.append(params)

    _decode_actions_as_editors_do(client)

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def on_apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        return editor.apply(params.edit)

    capabilities = client_capabilities(profile)
    if refresh:
        assert capabilities.workspace is not None
        capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(
            refresh_support=True
        )
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=initialization_options,
        )
    )
    editor.server_capabilities = result.capabilities
    return editor
