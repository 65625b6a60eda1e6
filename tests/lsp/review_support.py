"""What the review-mode tests share: the pull and push profiles, what a diagnostic covers, and
a server of a test's own for the tests that need one set up otherwise (an API key, a service,
initialization options, a capability the shared servers' clients do not announce).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from .conftest import Editor, install_apply_edit

#: A client that pulls diagnostics (Neovim, from 0.11, announces textDocument.diagnostic), as
#: the shared servers of tests/lsp/conftest.py name it.
PULL = "neovim"
#: A client that does not: it is pushed textDocument/publishDiagnostics.
PUSH = "visual-studio-code"


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
    editor = Editor(client, root, profile=profile)
    client.set_configuration({"rephrase": settings or {}})
    install_apply_edit(client, [editor])
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
    chosen = result.capabilities.position_encoding or types.PositionEncodingKind.Utf16
    editor.encoding = chosen.value if isinstance(chosen, types.PositionEncodingKind) else chosen
    return editor
