"""``rephrase-ls improve FILE...``: the editor's pipeline on files, for the terminal, CI and hooks.

Prints a unified diff by default, writes the files with ``--write``, and with ``--check`` exits 1
when improvements exist; ``--correct`` asks for corrections only. Settings come from the user
config file, the nearest ``.rephrase.toml`` (prose settings only, unless the user trusts the
folder), the environment and the flags, as in the editor
(:func:`rephrase_ls.config.user_config.compose`); with no API key the embedded offline service
answers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import difflib
import json
import logging
import os
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rephrase_ls import safe_write
from rephrase_ls.cli.files import link_out, write_area
from rephrase_ls.cli.reading import InputError, decode, os_error, read_file
from rephrase_ls.cli.report import FORMATS, changes
from rephrase_ls.cli.walk import Walk
from rephrase_ls.config import project_file, user_config
from rephrase_ls.config.exclude import excluded
from rephrase_ls.config.settings import Settings, merge
from rephrase_ls.improve.backend import Backend, Backends
from rephrase_ls.improve.language_choice import LanguageChoice, resolve_language
from rephrase_ls.improve.options import ImproveOptions
from rephrase_ls.improve.pipeline import NotImproved, embedded_has_no_rules, improve_text
from rephrase_ls.improve.request import ImproveRequest, document_prose, document_stripped
from rephrase_ls.improve.round_trip import ImprovementCache, Skip
from rephrase_ls.service.config import validate_base_url
from rephrase_ls.service.errors import (
    BadRequest,
    CorrectionsUnavailable,
    InsecureURL,
    ServiceError,
)
from rephrase_ls.service.models import Kind, UnknownName, names_of
from rephrase_ls.text.diff import apply_edits
from rephrase_ls.text.language import normalize_language
from rephrase_ls.text.markup import format_for

#: The variants ``--convert`` converts to.
CONVERSIONS = ("en-US", "en-GB", "pt-BR", "pt-PT")
#: What the exit status says (``--help`` shows it; docs/cli.md too).
EXIT_STATUS = """exit status:
  0  done: nothing to improve, or the diff printed, or the files written
  1  --check: improvements (or corrections) found
  2  a usage error (an unknown flag or value) or an input error (a file that cannot be read,
     is not UTF-8 text, or the service refused); the message names the file and what to do
"""
#: The FILE that stands for standard input (and output).
STDIN = Path("-")
#: Standard input's name in every message, diff header and change report.
STDIN_NAME = "<stdin>"
#: What every message of the command starts with.
PREFIX = "rephrase-ls: "


def _style_or_tone(kind: Kind) -> Callable[[str], ImproveOptions]:
    """An argparse type: a style (or tone) name, or ``prefer_`` and one, in any case."""
    word = "style" if kind == "writing style" else kind

    def check(value: str) -> ImproveOptions:
        try:
            if kind == "writing style":
                return ImproveOptions.parse(writing_style=value)
            return ImproveOptions.parse(tone=value)
        except UnknownName as exc:
            names = exc.names
            raise argparse.ArgumentTypeError(
                f"unknown {word} {value!r}: expected one of {', '.join(names)}, or prefer_ and "
                f"one of them (e.g. prefer_{names[0]}) to fall back to the default where the "
                f"language has no {word}s"
            ) from None

    return check


def _variant(value: str) -> ImproveOptions:
    """An argparse type: a variant of :data:`CONVERSIONS`, in any case (``en-gb`` → ``en-GB``)."""
    for variant in CONVERSIONS:
        if value.strip().replace("_", "-").lower() == variant.lower():
            return ImproveOptions(variant=variant)
    raise argparse.ArgumentTypeError(
        f"cannot convert to {value!r}: expected one of {', '.join(CONVERSIONS)}"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rephrase-ls improve",
        description="Improve the prose of files with the same pipeline as the editor.",
        epilog=EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "files",
        nargs="+",
        metavar="PATH",
        type=Path,
        help="files or folders to improve; a folder gives the files in it of the formats "
        "rephrase-ls reads, less what .gitignore and the exclude setting name and hidden ones; "
        "- reads standard input (the result or the diff goes to standard output)",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--style",
        type=_style_or_tone("writing style"),
        metavar="STYLE",
        help=f"writing style: {', '.join(names_of('writing style'))}, or prefer_<style> (falls "
        "back to the "
        "default where the language has no styles)",
    )
    group.add_argument(
        "--tone",
        type=_style_or_tone("tone"),
        metavar="TONE",
        help=f"tone: {', '.join(names_of('tone'))}, or prefer_<tone>",
    )
    group.add_argument(
        "--convert",
        type=_variant,
        metavar="VARIANT",
        help=f"convert to a variant: {', '.join(CONVERSIONS)}",
    )
    group.add_argument(
        "--correct",
        action="store_const",
        const=ImproveOptions(correct=True),
        help="corrections only: spelling and grammar fixed, the wording kept (no style or "
        "tone); needs a service with /v2/write/correct",
    )
    parser.add_argument(
        "--language",
        help="language of the files (default: the language setting, else detected; text too "
        "short to detect in Latin script is taken as English in the englishVariant setting's "
        "variant)",
    )
    parser.add_argument(
        "--commit-message",
        action="store_true",
        help="read the files (or standard input) as git commit messages: the subject's area "
        "label (docs:, fix(parser):), trailers (Signed-off-by: ...), # comment lines and "
        "everything below the scissors line are left as they are (automatic for files named "
        "COMMIT_EDITMSG, MERGE_MSG, TAG_EDITMSG, SQUASH_MSG)",
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="say which language each file is improved as and why, and name each paragraph "
        "left as it is",
    )
    out = parser.add_mutually_exclusive_group()
    out.add_argument("--diff", action="store_true", help="print a unified diff (the default)")
    out.add_argument("--write", action="store_true", help="write the improved files")
    out.add_argument("--check", action="store_true", help="exit 1 when improvements exist")
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="how changes are reported on standard output: text (a unified diff; with --check "
        "one FILE:LINE:COLUMN: CODE: MESSAGE line per change), json (one array of changes: "
        "file, line, column, end_line, end_column, code, original, replacement, message) or "
        "github (a GitHub Actions ::warning annotation per change, with the suggested text)",
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        help="send even when the run sends more than confirmCharacters characters to a paid "
        "service (without it such a run stops before sending them, exit status 2)",
    )
    parser.add_argument(
        "--server-url",
        metavar="URL",
        type=_server_url,
        help="address of the rephrase service (overrides REPHRASE_SERVER_URL and the user "
        "config file; https, or http to localhost or a loopback address)",
    )
    return parser


def _server_url(value: str) -> str:
    """``--server-url``: an address the key may be sent to, else argparse reports why not."""
    try:
        return validate_base_url(value)
    except InsecureURL as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _settings_for(
    path: Path, language: str | None, server_url: str | None = None
) -> tuple[Settings, list[str]]:
    root = project_file.find_root(path.resolve())
    parsed = project_file.read(root)
    user = user_config.read()
    settings, found = user_config.compose(
        user=user, folder=root, project=parsed.values, project_source=str(parsed.path)
    )
    warnings = [str(w) for w in found]
    warnings.extend(parsed.warnings)
    if parsed.error:
        warnings.append(parsed.error)
    if language:
        settings, more = merge(settings, {"language": language}, "--language")
        warnings.extend(str(w) for w in more)
    if server_url:
        settings, more = merge(settings, {"serverUrl": server_url}, "--server-url")
        warnings.extend(str(w) for w in more)
    return settings, warnings


def _report_skips(name: str, skips: Sequence[Skip], verbose: bool) -> None:
    """One line per reason for the paragraphs of the file ``name`` left as they are (``3 paragraphs
    skipped: another language``); with ``verbose``, each paragraph named as well."""
    counts = Counter(skip.reason for skip in skips)
    for reason, count in counts.items():
        noun = "paragraph" if count == 1 else "paragraphs"
        hint = "" if verbose else " (--verbose names them)"
        print(f"rephrase-ls: {name}: {count} {noun} skipped: {reason}{hint}", file=sys.stderr)
    if verbose:
        for skip in skips:
            print(f"rephrase-ls: {name}: {skip.message}", file=sys.stderr)


class _UsageError(Exception):
    """A value of the command line that cannot be used (argparse reports it, exit status 2)."""


async def _check_language(args: argparse.Namespace, backends: Backends) -> None:
    """``--language``, checked as argparse checks every other value, against the languages the
    service improves (its list, once; the code's form alone when the list cannot be had):
    :class:`_UsageError` listing them for one it does not know."""
    if args.language is None:
        return
    first = next((path for path in args.files if path != STDIN), None)
    settings, _ = _settings_for(first or Path.cwd() / "-", None, args.server_url)
    caps = None
    backend = None
    with contextlib.suppress(ServiceError):  # said when the first file is improved
        backend = backends.get(settings)
        caps, _ = await backend.write_capabilities()
    try:
        code: str | None = normalize_language(
            args.language, settings.english_variant, settings.portuguese_variant
        )
    except ValueError:
        code = None
    if code is not None:
        if caps is None or caps.find_target(code) is not None:
            return
        if backend is not None and embedded_has_no_rules(backend, code, settings.api_key_env):
            return  # the service improves it; each file says the embedded one cannot
    if caps is not None:
        names = sorted({language.lang for language in caps.targets()}, key=str.lower)
        expected = f"one of {', '.join(names)} (the languages the service improves)"
    else:
        expected = "a language code such as de, en-GB or pt-BR"
    raise _UsageError(
        f"argument --language: unknown language {args.language!r}: expected {expected}"
    )


def _language_source(choice: LanguageChoice, flag: str | None, settings: Settings) -> str:
    """Which language a file is improved as, and why (for ``--verbose``)."""
    why = {
        "document": "set in the file: a 'rephrase: language=' comment, its front matter or "
        "its format's own setting",
        "settings": "from --language" if flag else "from the language setting",
        "detected": "detected",
        "service": "as the service detected it",
        "default": "too little prose to detect it; English in the variant of the "
        f"englishVariant setting ({settings.english_variant}) is assumed, give another with "
        "--language",
    }.get(choice.source, choice.source)
    return f"improved as {choice.language} ({why})"


class _Exclusions:
    """The ``exclude`` setting of each file's project (the user's patterns and the project
    file's, relative to the project's root), read once per project."""

    def __init__(self) -> None:
        self._roots: dict[Path, Path] = {}
        self._patterns: dict[Path, tuple[str, ...]] = {}

    def __call__(self, path: Path, is_dir: bool) -> bool:
        folder = Path(os.path.abspath(path)).parent
        root = self._roots.get(folder)
        if root is None:
            root = self._roots[folder] = project_file.find_root(folder)
        patterns = self._patterns.get(root)
        if patterns is None:
            settings, _ = _settings_for(root / project_file.FILE_NAME, None)
            patterns = self._patterns[root] = settings.exclude
        return excluded(path, root, patterns, is_dir=is_dir)


def _targets(args: argparse.Namespace) -> tuple[list[Path], list[str]]:
    """The files to improve, each once: those named, and those found in the folders named
    (:mod:`rephrase_ls.cli.walk`); and what could not be walked, in words."""
    exclusions = _Exclusions()
    walk = Walk(excluded=exclusions)
    paths: list[Path] = []
    problems: list[str] = []
    seen: set[str] = set()

    def add(path: Path) -> None:
        key = "-" if path == STDIN else os.path.abspath(path)
        if key not in seen:
            seen.add(key)
            paths.append(path)

    for path in args.files:
        if path == STDIN or not os.path.isdir(path):
            if path != STDIN and os.path.lexists(path) and exclusions(path, False):
                print(
                    f"rephrase-ls: {path}: skipped: the exclude setting names it",
                    file=sys.stderr,
                )
                continue
            add(path)
            continue
        if args.commit_message:
            problems.append(
                f"{path}: is a folder, where --commit-message needs the message's file (in a "
                "commit-msg hook: the file git names, .git/COMMIT_EDITMSG)"
            )
            continue
        found = list(walk.files(path))
        if not found and not walk.problems:
            print(
                f"rephrase-ls: {path}: no file of a format rephrase-ls reads here (or all are "
                "ignored by .gitignore or exclude)",
                file=sys.stderr,
            )
        for file in found:
            add(file)
    problems.extend(walk.problems)
    return paths, problems


class _TerminalProgress:
    """A one-line progress report on a terminal (the pipeline's Progress); silent otherwise."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.active = sys.stderr.isatty()

    async def begin(self, prose_bytes: int) -> None:
        """Nothing to show before the first answer."""

    def end(self, message: str) -> None:
        """The last report ended the line."""

    def report(self, done: int, total: int) -> None:
        if self.active and total > 1:
            sys.stderr.write(f"\r{PREFIX}{self.name}: {done}/{total} requests")
            if done >= total:
                sys.stderr.write("\n")
            sys.stderr.flush()


async def _run(args: argparse.Namespace) -> int:
    options: ImproveOptions = (
        args.style or args.tone or args.convert or args.correct or ImproveOptions()
    )
    done = "corrected" if options.correct else "improved"
    backends = Backends(user_agent_suffix="cli")
    cache = ImprovementCache()
    changed = 0
    failed = 0
    # characters sent to paid services in this run, for confirmCharacters
    spent = 0
    over_limit = False
    # what `--write -` prints: the bytes read, then the improved text once there is one; as
    # bytes, so that what could not be decoded, or the terminal's encoding could not show,
    # goes back as it came
    pending_output: list[bytes | None] = [None]
    shown: set[str] = set()
    # --format json: every change of the run, printed as one array at the end
    report: list[dict[str, Any]] = []
    started = False  # past the usage checks: --format json prints its array
    try:
        await _check_language(args, backends)
        started = True
        paths, problems = _targets(args)
        for problem in problems:
            print(f"rephrase-ls: {problem}", file=sys.stderr)
        failed += len(problems)
        for path in paths:
            stdin = path == STDIN
            name = STDIN_NAME if stdin else str(path)
            try:
                if stdin:
                    source = None
                    try:
                        raw = sys.stdin.buffer.read()
                    except OSError as exc:
                        raise InputError(os_error(STDIN_NAME, exc)) from None
                    if args.write:
                        pending_output[0] = raw
                    text = decode(raw, STDIN_NAME)
                else:
                    refusal = link_out(path)
                    if refusal is not None:
                        print(f"rephrase-ls: {refusal}", file=sys.stderr)
                        failed += 1
                        continue
                    source = read_file(path)
                    text = decode(source.data, path)
            except InputError as exc:
                print(f"rephrase-ls: {exc}", file=sys.stderr)
                failed += 1
                continue
            if args.write and not stdin:
                try:  # before asking the service: a file that cannot be written costs nothing
                    safe_write.check(path, write_area(path))
                except safe_write.WriteRefused as exc:
                    print(f"rephrase-ls: {exc}", file=sys.stderr)
                    failed += 1
                    continue
            settings, warnings = _settings_for(
                Path.cwd() if stdin else path, args.language, args.server_url
            )
            for warning in warnings:
                if warning not in shown:  # once, not once per file of the same project
                    shown.add(warning)
                    print(f"{PREFIX}{warning}", file=sys.stderr)
            try:
                backend = backends.get(settings)
            except ServiceError as exc:
                print(f"rephrase-ls: {exc.message}", file=sys.stderr)
                return 2
            if backend.embedded and args.server_url and "no key" not in shown:
                shown.add("no key")
                print(
                    f"rephrase-ls: --server-url is not used: no API key in the environment "
                    f"variable {settings.api_key_env}; the embedded offline service answers",
                    file=sys.stderr,
                )
            caps, unavailable = await backend.write_capabilities()
            if unavailable is not None and unavailable.message not in shown:
                shown.add(unavailable.message)
                print(
                    f"rephrase-ls: language list unavailable: {unavailable.message}",
                    file=sys.stderr,
                )
            uri = None if stdin else path.resolve().as_uri()  # standard input: by its content
            language_id = "gitcommit" if args.commit_message else None
            try:
                blocks = document_prose(text, language_id, uri)
            except ValueError as exc:  # markup it cannot read (LaTeX nested thousands deep)
                print(f"rephrase-ls: {name}: {exc}. The file was not changed.", file=sys.stderr)
                failed += 1
                continue
            choice = resolve_language(
                text, settings, caps, default_english=True,
                fmt=format_for(language_id, uri, text),
            )  # fmt: skip
            no_rules = embedded_has_no_rules(backend, choice.language, settings.api_key_env)
            if args.verbose and choice.language is not None and no_rules is None:
                print(
                    f"rephrase-ls: {name}: {_language_source(choice, args.language, settings)}",
                    file=sys.stderr,
                )

            async def confirm(
                characters: int,
                name: str = name,
                backend: Backend = backend,
                settings: Settings = settings,
            ) -> bool:
                """confirmCharacters: the run's characters so far and this file's, printed
                when over the limit; sent then only with --yes."""
                nonlocal spent, over_limit
                if backend.embedded:
                    return True
                total = spent + characters
                limit = settings.confirm_characters
                if limit and total > limit:
                    if not args.yes:
                        over_limit = True
                        print(
                            f"rephrase-ls: {name}: this run would send {total:,} characters "
                            f"({characters:,} for this file) to the service at "
                            f"{backend.description}, more than confirmCharacters = {limit:,}; "
                            "nothing more was sent. Run again with --yes to send them.",
                            file=sys.stderr,
                        )
                        return False
                    print(
                        f"rephrase-ls: {name}: sending {characters:,} characters ({total:,} in "
                        f"this run, over confirmCharacters = {limit:,}; --yes given)",
                        file=sys.stderr,
                    )
                spent = total
                return True

            request = ImproveRequest(
                text,
                None,
                blocks,
                None,
                options,
                settings,
                backend,
                choice,
                mode="correct" if options.correct else "rephrase",
                stripped=document_stripped(text, language_id, uri),
            )
            outcome = await improve_text(
                request,
                cache=cache,
                progress=_TerminalProgress(name),
                # A file whose only prose is a title: no reason to fail a run over many files.
                skip_undetectable=True,
                # a passage in another language is left as it is, as review mode leaves it
                skip_other_languages=True,
                confirm=confirm,
            )
            if over_limit:
                return 2
            if isinstance(outcome, NotImproved):
                if outcome.reason == "too little prose":
                    print(
                        f"rephrase-ls: {name}: skipped: too little prose to tell its language "
                        "(give it with --language to improve it)",
                        file=sys.stderr,
                    )
                elif outcome.reason == "no rules":
                    print(f"rephrase-ls: {name}: {outcome.message}.", file=sys.stderr)
                if outcome.error is None:
                    continue  # no prose, or too little: nothing to send
                if isinstance(outcome.error, CorrectionsUnavailable):
                    # The same for every file: said once, and nothing else is sent.
                    print(
                        f"rephrase-ls: {outcome.message} No file was changed by --correct.",
                        file=sys.stderr,
                    )
                    return 2
                hint = ""
                if isinstance(outcome.error, BadRequest) and outcome.language_unknown:
                    hint = (
                        " The text's language could not be determined: give it with --language"
                        " (or a 'rephrase: language=xx' comment in the file)."
                    )
                print(
                    f"rephrase-ls: {name}: {outcome.message}{hint} The file was not changed.",
                    file=sys.stderr,
                )
                failed += 1
                continue
            _report_skips(name, outcome.skips, args.verbose)
            new_text = apply_edits(text, outcome.edits)
            if stdin and args.write:
                pending_output[0] = new_text.encode("utf-8")
            if new_text == text:
                continue
            changed += 1
            found = changes(
                name,
                text,
                blocks,
                outcome.edits,
                outcome.mode.target_lang or choice.language or "",
            )
            if args.format == "json":
                report.extend(change.as_json() for change in found)
            elif args.format == "github":
                sys.stdout.writelines(change.as_github() + "\n" for change in found)
            elif args.check:
                sys.stdout.writelines(change.as_text() + "\n" for change in found)
            if stdin and args.write:
                print(f"{PREFIX}{name}: {done}", file=sys.stderr)
            elif args.write:
                assert source is not None  # only standard input has none
                try:
                    safe_write.replace(source, new_text.encode("utf-8"), write_area(path))
                except safe_write.WriteRefused as exc:
                    print(f"rephrase-ls: {exc}", file=sys.stderr)
                    failed += 1
                    continue
                except OSError as exc:
                    print(
                        f"rephrase-ls: {os_error(path, exc, 'write')}; it was left as it was",
                        file=sys.stderr,
                    )
                    failed += 1
                    continue
                print(f"{PREFIX}{name}: {done}", file=sys.stderr)
            elif args.check:
                what = "corrections" if options.correct else "improvements"
                print(f"{PREFIX}{name}: {what} available", file=sys.stderr)
            elif args.format == "text":
                sys.stdout.writelines(
                    difflib.unified_diff(
                        text.splitlines(keepends=True),
                        new_text.splitlines(keepends=True),
                        fromfile=name if stdin else _diff_path("a", path),
                        tofile=name if stdin else _diff_path("b", path),
                    )
                )
    finally:
        try:
            await backends.aclose()
        finally:
            if args.format == "json" and started:
                json.dump(report, sys.stdout, ensure_ascii=False, indent=2)
                sys.stdout.write("\n")
            if pending_output[0] is not None:
                sys.stdout.flush()
                sys.stdout.buffer.write(pending_output[0])
                sys.stdout.buffer.flush()
    if failed:
        return 2
    return 1 if (args.check and changed) else 0


def _diff_path(side: str, path: Path) -> str:
    """A diff header's path as git writes it: ``a/`` or ``b/`` before the path as given, an
    absolute one without its leading slash (``/tmp/x.txt`` → ``a/tmp/x.txt``)."""
    return f"{side}/{path.as_posix().lstrip('/')}"


class _MaskedStream:
    """A text stream writing through to ``stream`` with every known API key masked."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        from rephrase_ls.service.config import mask_keys

        self._stream.write(mask_keys(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main(argv: list[str]) -> int:
    """Entry point of ``rephrase-ls improve``."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.files.count(STDIN) > 1:
        parser.error("- (standard input) may be given once")
    if args.write and STDIN in args.files and args.format != "text":
        parser.error(
            f"--format {args.format} prints the changes on standard output, where --write - "
            "prints the improved text; use one of them"
        )
    # Messages for the writer are printed below; the library's own warnings would repeat them.
    logging.getLogger("rephrase_ls").setLevel(logging.ERROR)
    # What the service answered is in the messages (its own message, a trace ID, language
    # names): none of it shows the key, whatever a misbehaving service echoes.
    sys.stderr = _MaskedStream(sys.stderr)
    try:
        return asyncio.run(_run(args))
    except _UsageError as exc:
        parser.error(str(exc))
    except BrokenPipeError:
        # The reader of standard output is gone (`rephrase-ls improve x.md | head -1`): stop
        # quietly, as a program killed by SIGPIPE does (files being written are whole: each is
        # replaced at once). Standard output is pointed at /dev/null so that the flush at exit
        # does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return 128 + 13  # 128 + SIGPIPE, the status a shell shows for such a program
    except KeyboardInterrupt:
        print(
            "rephrase-ls: interrupted; files not yet written were left as they were",
            file=sys.stderr,
        )
        return 130
