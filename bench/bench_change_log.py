"""Benchmark of following a document's changes while an improvement runs on it.

While Improve waits for the service, each ``didChange`` of the document is also replayed into
the improvement's :class:`~rephrase_ls.text.changes.ChangeLog` (so its edits can be moved through
typing elsewhere). This times that extra work per keystroke on a large document, next to what
pygls's workspace already does for the same keystroke (applying it and giving the text back).

Usage: ``python bench/bench_change_log.py [--size-kb 2048] [--keys 50]``

A document of ``--size-kb`` of 900-character lines with a blank line between them, once with
``\\n`` and once with ``\\r\\n`` line breaks; ``--keys`` one-character insertions at the start
of the line at 90 % of the document (a position the log must scan to). Printed: milliseconds
per keystroke (wall, median) for the change log and for pygls.
"""

from __future__ import annotations

import argparse
import statistics
import time

from lsprotocol import types
from pygls.workspace import Workspace

from rephrase_ls.text.changes import ChangeLog

URI = "file:///bench.md"


def _document(size: int, newline: str) -> str:
    line = "The quick brown fox jumps over the lazy dog. " * 20
    unit = line + newline + newline
    return unit * (size // len(unit) + 1)


def run(size_kb: int, keys: int) -> None:
    for newline in ("\n", "\r\n"):
        text = _document(size_kb * 1024, newline)
        line = int(text.count(newline) * 0.9)
        workspace = Workspace(None)
        workspace.put_text_document(
            types.TextDocumentItem(uri=URI, language_id="markdown", version=1, text=text)
        )
        log = ChangeLog(text, 1)
        pygls_ms: list[float] = []
        log_ms: list[float] = []
        for n in range(keys):
            rng = types.Range(types.Position(line, 0), types.Position(line, 0))
            start = time.perf_counter()
            workspace.update_text_document(
                types.VersionedTextDocumentIdentifier(uri=URI, version=n + 2),
                types.TextDocumentContentChangePartial(range=rng, text="x"),
            )
            result = workspace.get_text_document(URI).source
            pygls_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            log.record(n + 2, [((line, 0, line, 0), "x")], "utf-16", result)
            log_ms.append((time.perf_counter() - start) * 1000)
        assert log.broken is None, log.broken
        name = "\\n" if newline == "\n" else "\\r\\n"
        print(
            f"{len(text) / 1e6:.2f} MB, {name}, line {line}: change log "
            f"{statistics.median(log_ms):.1f} ms per keystroke, pygls "
            f"{statistics.median(pygls_ms):.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-kb", type=int, default=2048)
    parser.add_argument("--keys", type=int, default=50)
    args = parser.parse_args()
    run(args.size_kb, args.keys)


if __name__ == "__main__":
    main()
