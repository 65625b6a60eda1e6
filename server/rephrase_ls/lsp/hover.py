"""``textDocument/hover`` over a rephrase finding: what its rule is, why it fired here, and how
to turn it off (the in-document switches, the project's words, the ``diagnostics`` setting)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from rephrase_ls.lsp import diagnostics as diag

if TYPE_CHECKING:
    from rephrase_ls.lsp.language_server import RephraseServer
    from rephrase_ls.review import Finding


def _describe(finding: Finding, origin: str, fmt: str, word: str | None) -> str:
    """The hover's Markdown for one finding."""
    # rephrase_ls.review loads the offline engine: on the first hover, not at start-up.
    from rephrase_ls.review.codes import RULES, UNKNOWN_WORD
    from rephrase_ls.text.switches import comment_line

    rule = RULES.get(finding.code, "a change")
    if finding.code == UNKNOWN_WORD:
        why = (
            "No dictionary of the document's language on this machine knows it, and the "
            "engine is not sure enough of a correction: **Improve** leaves it as it is."
        )
    elif origin == diag.SERVICE:
        why = "The service proposed it when you asked **Review with the service**."
    else:
        why = (
            "The offline engine on this machine would make this change if you chose "
            "**Improve**; nothing was sent anywhere."
        )
    ignore_line = comment_line(fmt, "ignore-next-line").strip()
    off = comment_line(fmt, "off").strip()
    on = comment_line(fmt, "on").strip()
    lines = [
        f"**rephrase: {finding.code}** — {finding.message}",
        "",
        f"The rule ‘{finding.code}’ finds {rule}. {why}",
        "",
        "To turn it off:",
        f"- here: `{ignore_line}` on the line before, or `{off}` … `{on}` around the "
        "paragraph (the quick fix *Ignore this paragraph* writes them);",
    ]
    if word:
        lines.append(
            f"- for this word: the quick fix *Add ‘{word}’ to the project's words* "
            f"(`words` in `.rephrase.toml`) or *Add ‘{word}’ to my words* (your `words.txt`);"
        )
    lines.append(
        f"- this kind of finding: `disabledRules = [\"{finding.code}\"]` in `.rephrase.toml` "
        f"or your settings (the quick fix *Turn off ‘{finding.code}’ in this project*);"
    )
    lines.append('- every diagnostic: the setting `diagnostics = "off"`.')
    return "\n".join(lines)


def _plain(markdown: str) -> str:
    """The hover's text for a client that shows no Markdown."""
    return markdown.replace("**", "").replace("`", "").replace("*", "")


async def on_hover(ls: RephraseServer, params: types.HoverParams) -> types.Hover | None:
    """The explanation of the findings under the cursor, or None where there is none."""
    from rephrase_ls.text.markup import format_for

    uri = params.text_document.uri
    doc = ls.workspace.text_documents.get(uri)
    if doc is None:
        return None
    reviewed = await diag.current(ls, uri)
    if reviewed is None:
        return None
    state = ls.state(doc)
    if reviewed.version != doc.version:
        return None
    offset, _ = ls.to_offsets(state, types.Range(params.position, params.position))
    under = [
        (finding, origin)
        for origin, found in ((diag.OFFLINE, reviewed.offline), (diag.SERVICE, reviewed.service))
        for finding in found
        if finding.start <= offset <= finding.end
    ]
    if not under:
        return None
    fmt = format_for(doc.language_id, doc.uri, state.text)
    parts = []
    for finding, origin in under:
        original = finding.original.strip()
        word = finding.word if original.isalpha() else None
        parts.append(_describe(finding, origin, fmt, word))
    markdown = "\n\n---\n\n".join(parts)
    capabilities = ls.client_capabilities.text_document
    formats = capabilities.hover.content_format if capabilities and capabilities.hover else None
    markup = (
        types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown)
        if formats and types.MarkupKind.Markdown in formats
        else types.MarkupContent(kind=types.MarkupKind.PlainText, value=_plain(markdown))
    )
    first = min(f.start for f, _ in under)
    last = max(f.end for f, _ in under)
    return types.Hover(contents=markup, range=ls.to_range(state, first, last))
