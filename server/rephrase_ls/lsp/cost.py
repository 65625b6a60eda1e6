"""Cost before spending: an action that will send more than ``confirmCharacters`` characters
to a paid service asks the writer first (``window/showMessageRequest``, Yes/No).

The embedded offline service costs nothing and never asks; ``confirmCharacters = 0`` never
asks. No answer (the message dismissed, or an editor that cannot ask) sends nothing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.improve.backend import Backend
    from rephrase_ls.lsp.language_server import RephraseServer

log = logging.getLogger(__name__)

YES = "Yes"
NO = "No"


def needs_confirmation(backend: Backend, settings: Settings, characters: int) -> bool:
    """Whether sending ``characters`` to ``backend`` must be confirmed first."""
    limit = settings.confirm_characters
    return not backend.embedded and limit > 0 and characters > limit


async def confirm_cost(
    ls: RephraseServer, backend: Backend, settings: Settings, characters: int, what: str
) -> bool:
    """Whether ``what`` may send ``characters`` characters to ``backend``: at once when no
    confirmation is needed, else the writer's answer to a Yes/No question naming the count."""
    if not needs_confirmation(backend, settings, characters):
        return True
    message = (
        f"rephrase: {what} will send {characters:,} characters to the service at "
        f"{backend.description}, which bills them (more than confirmCharacters = "
        f"{settings.confirm_characters:,}). Send them?"
    )
    try:
        answer = await ls.window_show_message_request_async(
            types.ShowMessageRequestParams(
                type=types.MessageType.Warning,
                message=message,
                actions=[types.MessageActionItem(title=YES), types.MessageActionItem(title=NO)],
            )
        )
    except Exception as exc:  # an editor that cannot ask: nothing is sent
        log.info("could not ask to confirm %d characters: %s", characters, exc)
        return False
    return answer is not None and answer.title == YES


def declined(characters: int) -> str:
    """The note for an action the writer did not confirm."""
    return f"rephrase: nothing was sent ({characters:,} characters not confirmed)."
