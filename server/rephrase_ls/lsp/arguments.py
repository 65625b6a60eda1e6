"""Arguments of the ``rephrase.*`` commands, and the lookups several commands share.

Bad arguments give a JSON-RPC ``InvalidParams`` error whose message names the argument (pygls's
typed command arguments cannot express the optional trailing arguments these commands take).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.improve.backend import Backend
    from rephrase_ls.improve.language_choice import LanguageChoice
    from rephrase_ls.lsp.language_server import RephraseServer
    from rephrase_ls.service.capabilities import Capabilities
    from rephrase_ls.service.errors import ServiceError


def invalid(message: str) -> JsonRpcInvalidParams:
    """The error for a bad argument; ``message`` names it."""
    return JsonRpcInvalidParams(message)


def arg(
    args: tuple[Any, ...],
    index: int,
    name: str,
    kind: type | tuple[type, ...],
    *,
    optional: bool = False,
) -> Any:
    """Argument ``index`` (called ``name``) of ``args``, checked to be a ``kind``."""
    if index >= len(args) or args[index] is None:
        if optional:
            return None
        raise invalid(f"argument {index + 1} ({name}) is missing")
    value = args[index]
    if not isinstance(value, kind):
        expected = (
            kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        )
        raise invalid(
            f"argument {index + 1} ({name}) must be a {expected}, got {type(value).__name__}"
        )
    return value


def max_args(args: tuple[Any, ...], count: int, command: str) -> None:
    if len(args) > count:
        raise invalid(f"{command} takes at most {count} arguments, got {len(args)}")


def open_uri(uri: str, name: str = "uri") -> str:
    """``uri`` when it looks like a document URI."""
    if not uri.startswith(("file:", "untitled:")) and ":" not in uri:
        raise invalid(f"argument 1 ({name}) must be a document URI, got {uri!r}")
    return uri


def range_arg(value: Any) -> types.Range:
    """Argument 2 as an LSP range (positions checked against what LSP allows)."""
    try:
        start, end = value["start"], value["end"]
        values = [int(start["line"]), int(start["character"]), int(end["line"]),
                  int(end["character"])]
    except (KeyError, TypeError, ValueError):
        raise invalid(
            "argument 2 (range) must be an LSP range {start: {line, character}, end: {...}}"
        ) from None
    if min(values) < 0:
        raise invalid("argument 2 (range) must not have negative positions")
    if max(values) > 2**31 - 1:
        raise invalid("argument 2 (range): a position is larger than LSP allows (2^31 - 1)")
    return types.Range(types.Position(values[0], values[1]), types.Position(values[2], values[3]))


#: How long a command the writer waits on (a picker, a completion, setting a style) waits for
#: the service's language list before it goes on with what is known.
INTERACTIVE_WAIT = 2.0


async def write_caps(
    ls: RephraseServer, uri: str
) -> tuple[Settings, Backend, Capabilities | None, ServiceError | None]:
    """The settings and backend for ``uri``, the write product's capability list, and why it
    could not be loaded: within :data:`INTERACTIVE_WAIT` seconds (the load goes on in the
    background), else the last one known (None when none is), after a note in the log."""
    settings = await ls.settings.for_uri(uri)
    backend = ls.backends.get(settings)
    caps, unavailable = await backend.write_capabilities(wait=INTERACTIVE_WAIT)
    if unavailable is not None:
        ls.note(f"language list unavailable: {unavailable.message}", types.MessageType.Warning)
    return settings, backend, caps, unavailable


def choice_for(
    ls: RephraseServer, uri: str, settings: Settings, backend: Backend
) -> LanguageChoice:
    """The language choice for ``uri``: of the open document, else from the settings alone."""
    from rephrase_ls.improve.language_choice import resolve_language

    doc = ls.workspace.text_documents.get(uri)
    if doc is not None:
        return ls.language_of(doc, settings, backend)
    # A document the editor has not opened: judge from the settings alone.
    return resolve_language("", settings, backend.capabilities.peek("write"))
