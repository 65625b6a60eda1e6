"""The editor's work-done progress for one improvement (the pipeline's :class:`Progress`)."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from rephrase_ls.lsp.language_server import RephraseServer

#: Below this many bytes of prose one request suffices, so no progress is shown.
PROGRESS_THRESHOLD = 9 * 1024


class WorkDoneProgress:
    """Progress shown only when more than one request is needed; cancelling it in the editor
    cancels the improvement (the running task is tracked under the progress token)."""

    def __init__(self, ls: RephraseServer, title: str) -> None:
        self.ls = ls
        self.title = title
        self.token: str | None = None

    async def begin(self, prose_bytes: int) -> None:
        if prose_bytes <= PROGRESS_THRESHOLD or not self.ls.supports_progress:
            return
        token = f"rephrase-{uuid.uuid4()}"
        try:
            await self.ls.work_done_progress.create_async(token)
        except Exception as exc:
            self.ls.note(f"progress not available: {exc}")
            return
        self.token = token
        self.ls.work_done_progress.begin(
            token,
            types.WorkDoneProgressBegin(title=self.title, cancellable=True, percentage=0),
        )
        task = asyncio.current_task()
        if task is not None:
            self.ls.track(("progress", token), task)

    def report(self, done: int, total: int) -> None:
        if self.token is None or total <= 0:
            return
        self.ls.work_done_progress.report(
            self.token,
            types.WorkDoneProgressReport(
                message=f"{done}/{total} requests", percentage=int(100 * done / total)
            ),
        )

    def end(self, message: str) -> None:
        if self.token is not None:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            self.token = None
