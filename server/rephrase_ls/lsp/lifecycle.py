"""The session and document notifications: initialize, documents opening, changing and
closing, configuration changes, a cancelled progress.

Each handler takes the server first; :func:`rephrase_ls.lsp.server.create_server` registers them.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from rephrase_ls import __version__

if TYPE_CHECKING:
    from lsprotocol import types

    from rephrase_ls.lsp.language_server import RephraseServer

log = logging.getLogger("rephrase_ls")


def agent_suffix(name: str, version: str | None) -> str:
    """The client's name and version as a User-Agent product (``neovim/0.10.2``): a header
    carries visible ASCII only, so anything else in what the client calls itself becomes ``-``."""

    def token(text: str) -> str:
        return re.sub(r"[^!#$%&'*+\-.^_`|~0-9A-Za-z]", "-", text.strip()) or "-"

    name_token = token(name.lower())
    return f"{name_token}/{token(version)}" if version and version.strip() else name_token


def on_initialize(ls: RephraseServer, params: types.InitializeParams) -> None:
    """Keep the initialization options; name the client in the service's User-Agent."""
    ls.settings.initialization_options = params.initialization_options
    info = params.client_info
    log.info(
        "rephrase-ls %s serving %s",
        __version__,
        f"{info.name} {info.version or ''}".strip() if info else "an unnamed client",
    )
    if info is not None:
        ls.user_agent_suffix = agent_suffix(info.name, info.version)
        if "backends" in ls.__dict__:  # already created
            ls.backends.user_agent_suffix = ls.user_agent_suffix


def on_initialized(ls: RephraseServer, params: types.InitializedParams) -> None:
    """Load the root folder's settings and the language list in the background."""
    root = ls.workspace.root_uri
    if root:
        ls.spawn(ls.warm(root))


def on_open(ls: RephraseServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.settings.document_touched(params.text_document.uri)
    ls.spawn(ls.warm(params.text_document.uri))


def on_change(ls: RephraseServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.settings.document_touched(params.text_document.uri)
    ls.document_changed(params)
    ls.document_moved_on(params.text_document.uri, "changed")


def on_close(ls: RephraseServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.document_moved_on(params.text_document.uri, "closed")
    ls.documents.pop(params.text_document.uri, None)
    ls.variant_before_conversion.pop(params.text_document.uri, None)
    ls.settings.document_touched(params.text_document.uri)


def on_configuration(ls: RephraseServer, params: types.DidChangeConfigurationParams) -> None:
    """Forget the cached editor settings; load them again for every open document."""
    ls.settings.changed(params.settings)
    for uri in list(ls.workspace.text_documents):
        ls.spawn(ls.warm(uri))


def on_progress_cancel(ls: RephraseServer, params: types.WorkDoneProgressCancelParams) -> None:
    """The writer cancelled an improvement's progress: stop the improvement."""
    ls.cancel_running(("progress", params.token))
