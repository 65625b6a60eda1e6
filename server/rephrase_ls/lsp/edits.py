"""Protocol workspace edits from the pipeline's edits: pinned to the document version, as
``documentChanges`` or ``changes`` as the client supports, and annotated as a rewrite where it
supports change annotations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from rephrase_ls.config.settings import Settings
    from rephrase_ls.lsp.language_server import DocumentState, RephraseServer
    from rephrase_ls.text.diff import TextEdit as Edit

#: The id of the change annotation a rewrite's edits carry.
ANNOTATION_ID = "rephrase.rewrite"


def supports_change_annotations(ls: RephraseServer) -> bool:
    """Whether the client's workspace edits may carry change annotations."""
    ws = ls.client_capabilities.workspace
    return bool(ws and ws.workspace_edit and ws.workspace_edit.change_annotation_support)


def workspace_edit(
    ls: RephraseServer,
    state: DocumentState,
    uri: str,
    version: int,
    edits: Sequence[Edit],
    title: str,
    settings: Settings,
) -> types.WorkspaceEdit:
    """The edits as a workspace edit pinned to ``version``.

    Where the client supports change annotations, each edit carries one annotation labelled
    ``title`` (the action's title), with ``needsConfirmation`` when the ``confirmRewrites``
    setting is on, so the editor can show the rewrite for review before applying it.
    """
    ranges = [(ls.to_range(state, e.start, e.end), e.new_text) for e in edits]
    if ls.supports_document_changes and supports_change_annotations(ls):
        annotation = types.ChangeAnnotation(
            label=title,
            needs_confirmation=True if settings.confirm_rewrites else None,
            description="rephrase",
        )
        annotated: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = [
            types.AnnotatedTextEdit(range=r, new_text=t, annotation_id=ANNOTATION_ID)
            for r, t in ranges
        ]
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=uri, version=version
                    ),
                    edits=annotated,
                )
            ],
            change_annotations={ANNOTATION_ID: annotation},
        )
    text_edits = [types.TextEdit(range=r, new_text=t) for r, t in ranges]
    if ls.supports_document_changes:
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=uri, version=version
                    ),
                    edits=list(text_edits),
                )
            ]
        )
    return types.WorkspaceEdit(changes={uri: text_edits})
