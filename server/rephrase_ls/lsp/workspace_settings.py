"""Settings per workspace folder: the user's own configuration, editor settings, project file.

Editor settings come from ``workspace/configuration`` scoped to the document's URI (so each folder
of a multi-root workspace gets its own), cached per folder until ``didChangeConfiguration``; for
clients without ``workspace/configuration``, from the initialization options (or the settings
pushed with ``didChangeConfiguration``). The project file ``.rephrase.toml`` at the folder's root
is laid on top; it is read from the editor's buffer when open, else from disk, and is never
allowed to carry the API key.

Connection settings (where text and the key go) are taken only from user-level sources: the user
config file, the initialization options (the client's launch configuration, the same for every
folder) and the environment. Whatever a client answers to ``workspace/configuration`` may come
from the folder (VS Code's folder settings, Emacs's ``.dir-locals.el``, Neovim's project-local
configuration), so connection settings in those answers, in pushed settings and in the project
file are ignored with one warning, unless the user config file trusts the folder. The layering
is :func:`rephrase_ls.config.user_config.compose`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

if TYPE_CHECKING:
    from pygls.workspace import Workspace

    from rephrase_ls.config.settings import Settings
    from rephrase_ls.config.user_config import UserConfig

log = logging.getLogger(__name__)


@dataclass
class _Written:
    """Project-file text the server wrote through the editor, until the disk catches up."""

    text: str
    disk_mtime: float | None


def _mtime(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def document_path(uri: str) -> Path | None:
    """The file of a ``file:`` URI, None for any other URI and for a path that goes up
    (``file:///work/../etc/x.md``): matched against the workspace folders as written, such a
    path would take the settings and project file of a folder it is not in."""
    if not uri.lower().startswith("file:"):
        return None
    path_str = to_fs_path(uri)
    if not path_str:
        return None
    path = Path(path_str)
    if not path.is_absolute() or ".." in path.parts:
        return None
    return path


class SettingsHost(Protocol):
    """What the settings need of the server: its workspace, the client's capabilities, the
    ``workspace/configuration`` request and the two ways to tell the writer something."""

    @property
    def workspace(self) -> Workspace: ...

    @property
    def client_capabilities(self) -> types.ClientCapabilities: ...

    async def workspace_configuration_async(
        self, params: types.ConfigurationParams
    ) -> Sequence[Any | None]: ...

    def say(self, message: str, kind: types.MessageType = ...) -> None: ...

    def note(self, message: str, kind: types.MessageType = ...) -> None: ...


class SettingsManager:
    """Effective settings for a document URI."""

    def __init__(self, server: SettingsHost) -> None:
        self.server = server
        self.initialization_options: Any = None
        self.pushed: Any = None
        self._editor: dict[str, dict[str, Any]] = {}
        self._written: dict[Path, _Written] = {}
        self._warned: set[str] = set()
        #: Project file text read from disk, by (mtime, size), so a request reads no file.
        self._disk: dict[Path, tuple[tuple[int, int], str]] = {}
        #: The last settings composed per project file, from the same editor values, project
        #: text, user config and word files (their (mtime, size)).
        self._composed: dict[
            Path | None,
            tuple[dict[str, Any], str | None, UserConfig, tuple[object, ...], Settings],
        ] = {}
        #: The user config file and word list as last read, with the (mtime, size) of each.
        self._user: tuple[tuple[object, ...], UserConfig] | None = None
        #: The client's answer being awaited, per folder (one question at a time).
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: Folders whose answer took too long for ``settle``: it no longer waits for them.
        self._slow: set[str] = set()
        #: Bumped by ``didChangeConfiguration``: an answer asked for before it is not kept.
        self._generation = 0
        #: Documents whose folder's editor settings are known (``settle`` returns at once).
        self._settled: set[str] = set()

    # -- where things are ---------------------------------------------------------------------

    def workspace_folders(self) -> list[Path]:
        """The workspace folders (and the root, for clients that give only that) as paths."""
        uris = [f.uri for f in self.server.workspace.folders.values()]
        if self.server.workspace.root_uri:
            uris.append(self.server.workspace.root_uri)
        return [Path(p) for p in map(to_fs_path, uris) if p]

    def folder_of(self, uri: str) -> Path | None:
        """The workspace folder holding ``uri`` (longest match), else the nearest project root;
        None for a document that is no file (``untitled:``, a notebook cell, a web address) or
        whose path goes up (``..``): it has no folder, so no project file."""
        path = document_path(uri)
        if path is None:
            return None
        best: Path | None = None
        for folder in self.workspace_folders():
            if (path == folder or folder in path.parents) and (
                best is None or len(folder.parts) > len(best.parts)
            ):
                best = folder
        if best is not None:
            return best
        from rephrase_ls.config import project_file  # here, not at start-up (tomllib)

        return project_file.find_root(path)

    def excluded(self, uri: str, settings: Settings) -> bool:
        """Whether the ``exclude`` patterns of ``settings`` name the document (relative to its
        folder, :meth:`folder_of`): it gets no diagnostics."""
        if not settings.exclude:
            return False
        path = document_path(uri)
        folder = self.folder_of(uri)
        if path is None or folder is None:
            return False
        from rephrase_ls.config.exclude import excluded

        return excluded(path, folder, settings.exclude)

    def _folder_key(self, uri: str) -> str:
        """The key of ``uri``'s folder in the per-folder caches ("" for a document with none)."""
        folder = self.folder_of(uri)
        return "" if folder is None else str(folder)

    def project_file_path(self, uri: str) -> Path | None:
        """Path of the project file for the folder of ``uri``; None when it has no folder."""
        from rephrase_ls.config import project_file

        folder = self.folder_of(uri)
        return None if folder is None else folder / project_file.FILE_NAME

    def project_text(self, path: Path) -> tuple[str | None, int | None]:
        """The project file's current text and, when open in the editor, its version."""
        uri = from_fs_path(str(path))
        doc = self.server.workspace.text_documents.get(uri) if uri else None
        if doc is not None:
            return doc.source, doc.version
        written = self._written.get(path)
        if written is not None and written.disk_mtime == _mtime(path):
            return written.text, None
        self._written.pop(path, None)
        try:
            stat = path.stat()
            stamp = (stat.st_mtime_ns, stat.st_size)
            cached = self._disk.get(path)
            if cached is not None and cached[0] == stamp:
                return cached[1], None
            from rephrase_ls.config import project_file

            text = project_file.read_text(path)
            self._disk[path] = (stamp, text)
            return text, None
        except FileNotFoundError:
            self._disk.pop(path, None)
            return None, None
        except (OSError, UnicodeDecodeError) as exc:
            self.warn_once(f"{path}: cannot be read ({exc})")
            return None, None

    def user_config(self) -> UserConfig:
        """The user config file, read again when it changed on disk (one ``stat`` per call)."""
        from rephrase_ls.config import user_config, word_files

        path = user_config.config_path()
        stamp = (path, word_files.stamp(path), word_files.stamp(path.parent / word_files.USER_FILE))
        if self._user is not None and self._user[0] == stamp:
            return self._user[1]
        config = user_config.read()
        self._user = (stamp, config)
        return config

    def remember_written(self, path: Path, text: str) -> None:
        """The editor applied our change to the project file (perhaps not saved yet)."""
        self._written[path] = _Written(text, _mtime(path))

    # -- events -----------------------------------------------------------------------------------

    def document_touched(self, uri: str) -> None:
        """A document opened, changed or closed: a project file buffer may have changed."""
        from rephrase_ls.config import project_file

        if uri.endswith(project_file.FILE_NAME):
            path_str = to_fs_path(uri)
            if path_str:
                self._written.pop(Path(path_str), None)

    def changed(self, pushed: Any) -> None:
        """``didChangeConfiguration``: forget cached editor settings."""
        self._editor.clear()
        self._pending.clear()
        self._slow.clear()
        self._settled.clear()
        self._generation += 1
        if isinstance(pushed, dict) and pushed:
            self.pushed = pushed.get("rephrase", pushed)
        self._warned.clear()

    def warn_once(self, message: str) -> None:
        """Show a settings warning (``FILE: what``) the first time it occurs, as the server's
        other messages are shown: ``rephrase: FILE: what``."""
        if message not in self._warned:
            self._warned.add(message)
            self.server.say(f"rephrase: {message}", types.MessageType.Warning)

    # -- settings ----------------------------------------------------------------------------------

    def _fallback_editor_settings(self) -> dict[str, Any]:
        if isinstance(self.pushed, dict):
            return self.pushed
        opts = self.initialization_options
        if isinstance(opts, dict):
            inner = opts.get("rephrase", opts)
            return inner if isinstance(inner, dict) else {}
        return {}

    @property
    def _client_has_configuration(self) -> bool:
        ws = self.server.client_capabilities.workspace
        return bool(ws and ws.configuration)

    async def fetch_editor(self, uri: str) -> dict[str, Any]:
        """Editor settings for the folder of ``uri`` (asks the client once per folder)."""
        folder = self._folder_key(uri)
        cached = self._editor.get(folder)
        if cached is not None:
            return cached
        if not self._client_has_configuration:
            values = self._fallback_editor_settings()
            self._editor[folder] = values
            return values
        pending = self._pending.get(folder)
        if pending is None:
            pending = asyncio.ensure_future(self._ask_client(uri, folder, self._generation))
            self._pending[folder] = pending

            def forget(done: asyncio.Future[dict[str, Any]], folder: str = folder) -> None:
                if self._pending.get(folder) is done:
                    del self._pending[folder]

            pending.add_done_callback(forget)
        # Shielded: a cancelled request does not cancel the question other requests wait on.
        return await asyncio.shield(pending)

    async def _ask_client(self, uri: str, folder: str, generation: int) -> dict[str, Any]:
        values: dict[str, Any]
        try:
            result = await self.server.workspace_configuration_async(
                types.ConfigurationParams(
                    items=[types.ConfigurationItem(scope_uri=uri, section="rephrase")]
                )
            )
            first = result[0] if result else None
            values = first if isinstance(first, dict) else {}
        except Exception as exc:  # a client that says it can but fails
            log.warning("workspace/configuration failed: %s", exc)
            values = self._fallback_editor_settings()
        if generation == self._generation:  # not asked before a didChangeConfiguration
            self._editor[folder] = values
            self._slow.discard(folder)
        return values

    async def settle(self, uri: str, timeout: float = 2.0) -> None:
        """Wait, at most ``timeout`` seconds, for the editor settings of ``uri``'s folder when
        they are not known yet (just after a document opened or the settings changed), so that
        requests answered from the cache use them rather than the defaults. A client that takes
        longer is not waited for again until it has answered."""
        if uri in self._settled:
            return  # the usual case on every code action: no folder lookup
        folder = self._folder_key(uri)
        if folder in self._editor:
            self._settled.add(uri)
            return
        if folder in self._slow:
            return
        try:
            await asyncio.wait_for(self.fetch_editor(uri), timeout)
        except TimeoutError:
            self.server.note(
                f"rephrase: the editor did not answer workspace/configuration in {timeout:.0f} s; "
                "using the settings known so far until it does",
                types.MessageType.Warning,
            )
            self._slow.add(folder)

    def _compose(self, uri: str, editor: dict[str, Any]) -> Settings:
        from rephrase_ls.config import project_file, user_config

        user = self.user_config()
        path = self.project_file_path(uri)
        text, _version = (None, None) if path is None else self.project_text(path)
        cached = self._composed.get(path)
        if (
            cached is not None
            and cached[0] is editor
            and cached[1] == text
            and cached[2] is user
            and cached[3] == self._word_stamps(path, text)
        ):
            return cached[4]  # same inputs: same settings, warnings already shown
        parsed = None if path is None else project_file.parse(path, text)
        settings, warnings = user_config.compose(
            user=user,
            folder=None if path is None else path.parent,
            launch=user_config.launch_values(self.initialization_options),
            editor=editor,
            editor_source="editor settings"
            if path is None
            else f"editor settings for {path.parent}",
            project={} if parsed is None else parsed.values,
            project_source=str(path),
        )
        if parsed is not None:
            warnings.extend(parsed.warnings)
            if parsed.error:
                warnings.append(parsed.error)
        for warning in warnings:
            self.warn_once(str(warning))
        self._composed[path] = (editor, text, user, self._word_stamps(path, text), settings)
        return settings

    def _word_stamps(self, path: Path | None, text: str | None) -> tuple[object, ...]:
        """The (mtime, size) of each word file the project file ``path`` names (``wordFiles``):
        a change to one composes the settings again."""
        if path is None or not text or "wordFiles" not in text:
            return ()
        from rephrase_ls.config import project_file, word_files

        value = project_file.parse(path, text).values.get(word_files.KEY)
        return tuple(
            (p, word_files.stamp(p)) for p in word_files.project_paths(path.parent, value)
        )

    async def for_uri(self, uri: str) -> Settings:
        """Effective settings for a document (may ask the client)."""
        return self._compose(uri, await self.fetch_editor(uri))

    def cached_for_uri(self, uri: str) -> Settings:
        """Effective settings without asking the client (for requests that must not wait)."""
        folder = self._folder_key(uri)
        editor = self._editor.get(folder)
        if editor is None:
            editor = {} if self._client_has_configuration else self._fallback_editor_settings()
        return self._compose(uri, editor)
