"""Wiring: :func:`create_server` registers every feature module's handlers on a
:class:`~rephrase_ls.lsp.language_server.RephraseServer`; :func:`run` starts it.

The feature modules (:mod:`~rephrase_ls.lsp.lifecycle`, :mod:`~rephrase_ls.lsp.actions`,
:mod:`~rephrase_ls.lsp.commands`, :mod:`~rephrase_ls.lsp.project_commands`) take the server as
their handlers' first argument and import no server module at run time; this module is the one
place that knows them all.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from rephrase_ls.lsp import (
    actions,
    alternatives,
    commands,
    diagnostics,
    hover,
    lifecycle,
    project_commands,
    review_actions,
)
from rephrase_ls.lsp.client_log import ClientLogHandler
from rephrase_ls.lsp.language_server import RephraseServer

__all__ = ["ClientLogHandler", "RephraseServer", "create_server", "run"]

#: LSP's RequestFailed: the request was valid but the service could not answer it.
REQUEST_FAILED = -32803

Command = Callable[..., Awaitable[dict[str, Any]]]

#: The ``rephrase.*`` commands and their handlers ``(ls, *arguments)``.
COMMANDS: dict[str, Command] = {
    "rephrase.listStyles": commands.list_styles,
    "rephrase.setStyle": project_commands.set_style,
    "rephrase.setTone": project_commands.set_tone,
    "rephrase.setLanguage": project_commands.set_language,
    "rephrase.languages": commands.languages,
    "rephrase.pairFeatures": commands.pair_features,
    "rephrase.usage": commands.usage,
    "rephrase.improve": commands.improve,
    "rephrase.correct": commands.correct,
    actions.APPLY_COMMAND: commands.apply_action,
    review_actions.REVIEW_COMMAND: review_actions.review,
    review_actions.ADD_WORD_COMMAND: review_actions.add_word,
    review_actions.ADD_USER_WORD_COMMAND: review_actions.add_user_word,
    review_actions.DISABLE_RULE_COMMAND: review_actions.disable_rule,
    review_actions.FIX_ALL_COMMAND: review_actions.fix_all,
    alternatives.ALTERNATIVES_COMMAND: alternatives.alternatives,
    alternatives.APPLY_ALTERNATIVE_COMMAND: alternatives.apply_alternative,
}


def _then(first: Callable[[Any, Any], None], second: Callable[[Any, Any], None]) -> Any:
    """One notification handler running two modules' handlers (pygls takes one per method)."""

    def handler(ls: RephraseServer, params: Any) -> None:
        first(ls, params)
        second(ls, params)

    handler.__name__ = handler.__qualname__ = first.__name__
    return handler


async def _code_actions(
    ls: RephraseServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    """``textDocument/codeAction``: the improvement actions (with "Show alternatives…"), then
    review mode's."""
    listed = await alternatives.on_code_action(ls, params)
    return listed + review_actions.list_review_actions(ls, params)


def _command(func: Command) -> Command:
    """The handler registered for a command: the arguments as JSON values (pygls converts
    them by this signature's annotations, which name the server class: the reason the commands
    are registered here), a service failure turned into a message for the writer and a
    RequestFailed error."""

    async def handler(ls: RephraseServer, *args: Any) -> dict[str, Any]:
        from rephrase_ls.service.errors import ServiceError

        try:
            return await func(ls, *args)
        except ServiceError as exc:
            detail = f"{type(exc).__name__}: status={exc.status} trace_id={exc.trace_id}"
            ls.note(f"{func.__name__} failed ({detail}): {exc.message}", types.MessageType.Error)
            ls.say(f"rephrase: {exc.message}", types.MessageType.Error)
            from rephrase_ls.service.config import mask_keys

            raise JsonRpcException(mask_keys(exc.message), REQUEST_FAILED) from None

    handler.__name__ = handler.__qualname__ = func.__name__
    return handler


def create_server() -> RephraseServer:
    """A server with every feature registered."""
    server = RephraseServer()
    for method, handler in (
        (types.INITIALIZE, _then(lifecycle.on_initialize, diagnostics.on_initialize)),
        (types.INITIALIZED, lifecycle.on_initialized),
        (types.TEXT_DOCUMENT_DID_OPEN, _then(lifecycle.on_open, diagnostics.on_open)),
        (types.TEXT_DOCUMENT_DID_CHANGE, _then(lifecycle.on_change, diagnostics.on_change)),
        (types.TEXT_DOCUMENT_DID_CLOSE, _then(lifecycle.on_close, diagnostics.on_close)),
        (types.TEXT_DOCUMENT_DID_SAVE, diagnostics.on_save),
        (
            types.WORKSPACE_DID_CHANGE_CONFIGURATION,
            _then(lifecycle.on_configuration, diagnostics.on_configuration),
        ),
        (types.WINDOW_WORK_DONE_PROGRESS_CANCEL, lifecycle.on_progress_cancel),
        (types.CODE_ACTION_RESOLVE, actions.resolve_action),
        (types.TEXT_DOCUMENT_HOVER, hover.on_hover),
    ):
        server.feature(method)(handler)
    server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[
                types.CodeActionKind.RefactorRewrite,
                types.CodeActionKind.Source,
                types.CodeActionKind.QuickFix,
                review_actions.FIX_ALL_KIND,
            ],
            resolve_provider=True,
        ),
    )(_code_actions)
    for name, func in COMMANDS.items():
        server.command(name)(_command(func))
    return server


def run(tcp: str | None = None, log_level: str = "INFO", offline: bool = False) -> int:
    """Start the server on stdio (or TCP for debugging); ``offline``: never use a key.

    Log records go to the editor as ``window/logMessage`` at their level (ClientLogHandler);
    stderr gets only what happens before the connection is up.
    """
    server = create_server()
    root = logging.getLogger()
    root.handlers[:] = [ClientLogHandler(server)]
    root.setLevel(getattr(logging, log_level.upper(), logging.INFO))
    logging.getLogger("pygls").setLevel(logging.WARNING)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    server.offline = offline
    if tcp:
        host, _, port = tcp.rpartition(":")
        try:
            server.start_tcp(host or "127.0.0.1", int(port))
        except OSError as exc:  # fatal, before any client: stderr
            sys.stderr.write(f"rephrase-ls: cannot listen on {tcp}: {exc.strerror or exc}\n")
            return 1
    else:
        server.start_io()
    return 0
