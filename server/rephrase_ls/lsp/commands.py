"""The ``rephrase.*`` commands that read: styles, languages, usage; and the improvement commands
(``rephrase.improve``, ``rephrase.correct``).

All run on the server, so every editor gets them. The commands that change the project file are
in :mod:`rephrase_ls.lsp.project_commands`. Each takes the server first and the command's
arguments as JSON values (see :mod:`rephrase_ls.lsp.arguments`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rephrase_ls.lsp.actions import APPLY_COMMAND, ActionRequest, apply_request
from rephrase_ls.lsp.arguments import (
    arg,
    choice_for,
    invalid,
    max_args,
    open_uri,
    range_arg,
    write_caps,
)

if TYPE_CHECKING:
    from rephrase_ls.lsp.language_server import RephraseServer
    from rephrase_ls.service.models import Language, Usage


async def list_styles(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.listStyles [uri]``.

    Answers within :data:`~rephrase_ls.lsp.arguments.INTERACTIVE_WAIT` seconds. When the
    service's language list cannot be had by then (the service cannot be reached, or is slow;
    its loading goes on in the background), the choices are the last known list's, else
    those the service's documentation gives the language; ``confirmed`` is then false,
    ``unavailable`` says why, and the writer is shown what happened and what to check.
    """
    from lsprotocol import types

    from rephrase_ls.service.capabilities import documented_choices

    max_args(args, 1, "rephrase.listStyles")
    uri = open_uri(arg(args, 0, "uri", str))
    if uri not in ls.workspace.text_documents:
        raise invalid(f"argument 1 (uri): {uri} is not open in the editor")
    settings, backend, caps, unavailable = await write_caps(ls, uri)
    choice = choice_for(ls, uri, settings, backend)
    targets = sorted(lang.lang for lang in caps.targets()) if caps is not None else []
    writing_styles, tones, reason = choice.writing_styles, choice.tones, choice.reason
    if unavailable is not None:
        if caps is None and choice.language is not None:
            writing_styles, tones = documented_choices(choice.language)
            known = "the styles and tones the service's documentation gives the language"
        else:
            known = "the last language list the service sent"
        message = (
            f"The service's language list could not be loaded: {unavailable.message} "
            f"The style and tone choices shown are {known}, not confirmed by the service."
        )
        # Shown once per error: a completion may ask on every keystroke, and each answer
        # carries the error in ``unavailable``.
        key = f"listStyles|{backend.description}|{unavailable.message}|{known}"
        ls.say_once(key, message, types.MessageType.Warning)
        if not writing_styles and not tones and caps is None:
            reason = f"the service's language list could not be loaded ({unavailable.message})"
    from rephrase_ls.improve.pipeline import embedded_has_no_rules

    no_rules = embedded_has_no_rules(backend, choice.language, settings.api_key_env)
    if no_rules is not None:
        reason = no_rules  # rather than "the default improvement is used": none is
    return {
        "language": choice.language,
        "languageSource": choice.source,
        "targetLang": choice.target_lang,
        "supported": bool(writing_styles or tones),
        "reason": reason,
        "writingStyles": list(writing_styles),
        "tones": list(tones),
        "variants": list(choice.variants),
        "current": {"writingStyle": settings.writing_style, "tone": settings.tone},
        "targets": targets,
        "backend": backend.description,
        "confirmed": unavailable is None and caps is not None,
        "unavailable": unavailable.message if unavailable is not None else None,
    }


async def languages(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.languages [product]``: source and target choices with their features."""
    from rephrase_ls.service.errors import ServiceError

    max_args(args, 2, "rephrase.languages")
    product = arg(args, 0, "product", str, optional=True) or "write"
    uri = arg(args, 1, "uri", str, optional=True) or ls.workspace.root_uri or "file:///"
    backend = ls.backends.get(await ls.settings.for_uri(uri))
    try:
        caps = await backend.capabilities.get(product)
    except ServiceError as exc:
        if exc.status == 400:
            raise invalid(f"argument 1 (product): {exc.message}") from None
        raise

    def row(lang: Language) -> dict[str, Any]:
        return {"lang": lang.lang, "features": sorted(lang.features)}

    return {
        "product": product,
        "sources": [row(lang) for lang in caps.sources()],
        "targets": [row(lang) for lang in caps.targets()],
    }


async def pair_features(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.pairFeatures [product, source, target]``."""
    max_args(args, 4, "rephrase.pairFeatures")
    product = arg(args, 0, "product", str)
    source = arg(args, 1, "source", str)
    target = arg(args, 2, "target", str)
    uri = arg(args, 3, "uri", str, optional=True) or ls.workspace.root_uri or "file:///"
    backend = ls.backends.get(await ls.settings.for_uri(uri))
    caps = await backend.capabilities.get(product)
    if caps.find(source) is None:
        raise invalid(f"argument 2 (source): {source!r} is not a language of {product}")
    if caps.find(target) is None:
        raise invalid(f"argument 3 (target): {target!r} is not a language of {product}")
    return {
        "product": product,
        "source": source,
        "target": target,
        "features": sorted(caps.pair_features(source, target)),
        "runtimeFeatures": sorted(caps.runtime_pair_features(source, target)),
    }


async def usage(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.usage [uri?]``: the character count and limit, and who answered."""
    max_args(args, 1, "rephrase.usage")
    uri = arg(args, 0, "uri", str, optional=True) or ls.workspace.root_uri or "file:///"
    backend = ls.backends.get(await ls.settings.for_uri(uri))
    result = await backend.client.usage()
    write = result.product("write")
    return {
        "backend": backend.description,
        "embedded": backend.embedded,
        "characterCount": result.character_count,
        "characterLimit": result.character_limit,
        "apiKeyCharacterCount": result.api_key_character_count,
        "apiKeyCharacterLimit": result.api_key_character_limit,
        "writeCharacterCount": write.account_unit_count if write is not None else None,
        "writeApiKeyCharacterCount": write.api_key_unit_count if write is not None else None,
        "periodStart": result.start_time,
        "periodEnd": result.end_time,
        "summary": usage_summary(result, backend.description),
    }


def usage_summary(usage: Usage, backend: str) -> str:
    """One line about the usage, for an editor to show as it is: the total, the
    text-improvement ("write") characters beside it, and the billing period when given."""
    limit = usage.character_limit
    line = f"{usage.character_count:,} characters used"
    line += f" of {limit:,}" if limit is not None else " (no limit)"
    write = usage.product("write")
    if write is not None and write.account_unit_count is not None:
        line += f", {write.account_unit_count:,} of them text improvement"
    if usage.start_time and usage.end_time:
        line += f"; billing period {usage.start_time} to {usage.end_time}"
    return f"{line} ({backend})"


async def improve(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.improve [uri, range?, options?]``: improve, apply via ``workspace/applyEdit``."""
    return await _improve_command(ls, args, "rephrase.improve", correct=False)


async def correct(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """``rephrase.correct [uri, range?, options?]``: corrections only (the wording kept), the
    arguments as ``rephrase.improve``'s; ``options`` may name no style, tone or conversion."""
    return await _improve_command(ls, args, "rephrase.correct", correct=True)


async def _improve_command(
    ls: RephraseServer, args: tuple[Any, ...], name: str, *, correct: bool
) -> dict[str, Any]:
    from rephrase_ls.improve.options import ImproveOptions
    from rephrase_ls.service.models import UnknownName

    max_args(args, 3, name)
    uri = open_uri(arg(args, 0, "uri", str))
    raw_range = arg(args, 1, "range", dict, optional=True)
    raw_options = arg(args, 2, "options", dict, optional=True) or {}
    if uri not in ls.workspace.text_documents:
        raise invalid(f"argument 1 (uri): {uri} is not open in the editor")
    fields = ("writingStyle", "tone", "targetLang")
    for field in fields:
        value = raw_options.get(field)
        if value is not None and not isinstance(value, str):
            raise invalid(f"argument 3 (options.{field}) must be a string")
    style, tone, target = (raw_options.get(field) or None for field in fields)
    if correct:
        given = [f for f, v in zip(fields, (style, tone, target), strict=True) if v]
        if given:
            raise invalid(
                f"argument 3 (options.{given[0]}): {name} corrects only, with no writing "
                "style, tone or conversion; use rephrase.improve for that"
            )
    if style and tone:
        raise invalid("argument 3 (options): writingStyle and tone exclude each other; give one")
    if target and (style or tone):
        raise invalid(
            "argument 3 (options): targetLang (a variant conversion) excludes writingStyle and "
            "tone; give one"
        )
    try:
        options = ImproveOptions.parse(
            writing_style=style, tone=tone, variant=target, correct=correct
        )
    except UnknownName as exc:
        field = "writingStyle" if exc.kind == "writing style" else "tone"
        raise invalid(
            f"argument 3 (options.{field}): {exc.value!r} is not one of {', '.join(exc.names)}"
        ) from None
    rng = range_arg(raw_range) if raw_range is not None else None
    if rng is not None:
        lines = ls.workspace.text_documents[uri].lines
        for end_name, pos in (("start", rng.start), ("end", rng.end)):
            # The line just after a final line break exists (at character 0) in LSP.
            if pos.line > len(lines) or (pos.line == len(lines) and pos.character > 0):
                raise invalid(
                    f"argument 2 (range): the {end_name} line {pos.line} is past the "
                    "document's end"
                )
    return await apply_request(ls, ActionRequest(uri, None, rng, rng is None, options))


async def apply_action(ls: RephraseServer, *args: Any) -> dict[str, Any]:
    """The command behind code actions for clients that do not resolve edits."""
    max_args(args, 1, APPLY_COMMAND)
    data = arg(args, 0, "data", dict)
    try:
        req = ActionRequest.from_data(data)
    except ValueError as exc:
        raise invalid(f"argument 1 (data): {exc}") from None
    return await apply_request(ls, req)
