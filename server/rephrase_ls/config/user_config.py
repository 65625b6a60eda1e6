"""The user's own configuration, and which source may set which setting.

Connection settings (:data:`~rephrase_ls.config.settings.CONNECTION_KEYS`: where text and the API
key are sent, the header's scheme, which environment variable holds the key) decide who receives the
user's key. A repository cloned from someone else must never decide that, so they are taken only
from sources that belong to the user:

- the user config file (:func:`config_path`, e.g. ``~/.config/rephrase-ls/config.toml``),
- the editor's launch configuration (LSP ``initializationOptions``; the VS Code extension fills
  them from user settings),
- the environment (``REPHRASE_SERVER_URL``, ``REPHRASE_FREE_SERVER_URL``; the key in
  ``REPHRASE_API_KEY`` or the variable named by ``apiKeyEnv``),
- command-line flags of ``rephrase-ls improve`` (``--server-url``).

A project file ``.rephrase.toml`` and a workspace folder's editor settings keep every prose
setting; their connection settings are ignored with one warning, unless the user config file lists
the folder under ``trustedFolders``. :func:`compose` is the one place that lays the sources over
each other, for the language server and the command line alike.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rephrase_ls.config.folders import config_dir
from rephrase_ls.config.project_file import ROOT_MARKERS, toml_error
from rephrase_ls.config.settings import (
    CONNECTION_KEYS,
    TABLE_KEYS,
    Settings,
    SettingWarning,
    merge,
    unknown_keys,
)

FILE_NAME = "config.toml"
TRUSTED_FOLDERS = "trustedFolders"

#: Environment variables that set a connection setting (camelCase key).
ENVIRONMENT: dict[str, str] = {
    "REPHRASE_SERVER_URL": "serverUrl",
    "REPHRASE_FREE_SERVER_URL": "freeServerUrl",
}


def config_path(environ: Mapping[str, str] | None = None) -> Path:
    """The user config file's path (it need not exist)."""
    return config_dir(environ) / FILE_NAME


@dataclass(frozen=True)
class UserConfig:
    """The parsed user config file (empty when there is none)."""

    path: Path
    values: dict[str, Any] = field(default_factory=dict)
    trusted_folders: tuple[Path, ...] = ()
    errors: tuple[str, ...] = ()
    word_list: tuple[str, ...] = ()
    """The words of ``words.txt`` beside the file (:mod:`rephrase_ls.config.word_files`)."""

    @property
    def words_path(self) -> Path:
        """The user's word list, ``words.txt`` in the user config folder."""
        from rephrase_ls.config.word_files import USER_FILE

        return self.path.parent / USER_FILE

    def is_trusted(self, folder: Path) -> bool:
        """Whether ``folder`` is, or lies inside, a folder listed under ``trustedFolders`` and
        belongs to no project nested in another there: from ``folder`` up to the listed folder
        at most one holds a ``.git`` or ``.rephrase.toml``. A listed ``~/work`` trusts each of
        its repositories; a listed repository does not trust one vendored inside it, whose
        ``.rephrase.toml`` its authors wrote."""
        if not self.trusted_folders:
            return False
        resolved = _resolve(folder)
        for trusted in self.trusted_folders:
            if resolved == trusted:
                return True
            if trusted not in resolved.parents:
                continue
            chain = [resolved, *resolved.parents]
            chain = chain[: chain.index(trusted) + 1]
            roots = [d for d in chain if any((d / m).exists() for m in ROOT_MARKERS)]
            if len(roots) <= 1:
                return True
        return False


def _resolve(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):
        return path.expanduser().absolute()


def parse(path: Path, text: str | None) -> UserConfig:
    """Parse the user config file's text; problems are reported, not raised."""
    if text is None:
        return UserConfig(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return UserConfig(path, errors=(toml_error(path, text, exc),))
    errors: list[str] = unknown_keys(data, str(path), [TRUSTED_FOLDERS])
    trusted: list[Path] = []
    raw_trusted = data.pop(TRUSTED_FOLDERS, [])
    if not isinstance(raw_trusted, list):
        errors.append(f"{path}: {TRUSTED_FOLDERS} must be a list of folder paths; it is ignored")
        raw_trusted = []
    for item in raw_trusted:
        folder = Path(item).expanduser() if isinstance(item, str) and item.strip() else None
        if folder is None or not folder.is_absolute():
            errors.append(
                f"{path}: {TRUSTED_FOLDERS}: {item!r} is not an absolute folder path; it is ignored"
            )
            continue
        trusted.append(_resolve(folder))
    values = {k: v for k, v in data.items() if not isinstance(v, dict) or k in TABLE_KEYS}
    return UserConfig(path, values, tuple(trusted), tuple(errors))


def read(environ: Mapping[str, str] | None = None) -> UserConfig:
    """Read the user config file and the user's word list from disk."""
    from rephrase_ls.config import word_files

    path = config_path(environ)
    try:
        config = parse(path, path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        config = UserConfig(path)
    except (OSError, UnicodeDecodeError) as exc:
        config = UserConfig(path, errors=(f"{path}: cannot be read ({exc}); it is ignored",))
    try:
        words = word_files.read(config.words_path)
    except FileNotFoundError:
        return config
    except (OSError, UnicodeDecodeError) as exc:
        error = f"{config.words_path}: cannot be read ({exc}); its words are not used"
        return dataclasses.replace(config, errors=(*config.errors, error))
    return dataclasses.replace(config, word_list=words)


def environment_values(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The connection settings given in the environment (``REPHRASE_SERVER_URL``, ...)."""
    env = os.environ if environ is None else environ
    return {key: env[var] for var, key in ENVIRONMENT.items() if env.get(var, "").strip()}


def launch_values(options: Any) -> dict[str, Any]:
    """The settings in LSP initialization options (``{"rephrase": {...}}`` or the keys directly)."""
    if not isinstance(options, dict):
        return {}
    inner = options.get("rephrase", options)
    return inner if isinstance(inner, dict) else {}


def refusal(user: UserConfig) -> str:
    """What a warning about ignored connection settings advises."""
    return (
        "where your text and API key are sent is set only in your own configuration (the "
        f"user config file {user.path}, your editor's user settings or the environment), never "
        f"by a project; to let this folder set it, list it under {TRUSTED_FOLDERS} in that file"
    )


def compose(
    *,
    user: UserConfig,
    folder: Path | None,
    launch: Mapping[str, Any] | None = None,
    editor: Mapping[str, Any] | None = None,
    editor_source: str = "editor settings",
    project: Mapping[str, Any] | None = None,
    project_source: str = ".rephrase.toml",
    environ: Mapping[str, str] | None = None,
) -> tuple[Settings, list[SettingWarning | str]]:
    """Effective settings for a document in ``folder``; lowest precedence first:

    1. the user config file (every key), and the user's ``words.txt``,
    2. ``launch``: the editor's launch configuration, user-level (every key),
    3. ``editor``: the editor's settings for the folder (prose keys; connection keys only when
       the folder is trusted; the ``LIMIT_KEYS`` only lowered below the user's own),
    4. ``project``: the project file (the same; never ``apiKey``), and the words of the files
       its ``wordFiles`` names (inside ``folder`` only),
    5. the environment (``REPHRASE_SERVER_URL``, ``REPHRASE_FREE_SERVER_URL``).

    Command-line flags go on top (the caller merges them). Returns the settings and warnings.
    """
    from rephrase_ls.config import word_files

    warnings: list[SettingWarning | str] = list(user.errors)
    trusted = folder is not None and user.is_trusted(folder)
    refuse = None if trusted else refusal(user)
    settings, more = merge(Settings(), user.values, str(user.path))
    warnings += more
    if user.word_list:
        settings, more = merge(settings, {"words": list(user.word_list)}, str(user.words_path))
        warnings += more
    settings, more = merge(settings, launch, "initialization options")
    warnings += more
    own = settings
    settings, more = merge(
        settings, editor, editor_source, refuse_connection=refuse, limits_of=own
    )
    warnings += more
    settings, more = merge(
        settings,
        project,
        project_source,
        allow_secrets=False,
        refuse_connection=refuse,
        limits_of=own,
    )
    warnings += more
    if project and folder is not None and word_files.KEY in project:
        words, more_warnings = word_files.read_project(
            folder, project[word_files.KEY], project_source
        )
        warnings += more_warnings
        if words:
            settings, more = merge(settings, {"words": list(words)}, f"{project_source} wordFiles")
            warnings += more
    env = os.environ if environ is None else environ
    for var, key in ENVIRONMENT.items():
        if env.get(var, "").strip():
            settings, more = merge(settings, {key: env[var]}, f"environment variable {var}")
            warnings += more
    return settings, warnings


__all__ = [
    "CONNECTION_KEYS",
    "ENVIRONMENT",
    "UserConfig",
    "compose",
    "config_dir",
    "config_path",
    "environment_values",
    "launch_values",
    "parse",
    "read",
]
