"""The user's folders for rephrase-ls: the config folder (the user config file, ``words.txt``)
and the state folder (what the server remembers between runs).

Each platform's rules come from platformdirs: ``%APPDATA%`` (config) and ``%LOCALAPPDATA%``
(state) on Windows, ``~/Library/Application Support`` for both on macOS. Elsewhere, and on any
platform where the variable holds an absolute path, the XDG base directories:
``$XDG_CONFIG_HOME`` (``~/.config``) and ``$XDG_STATE_HOME`` (``~/.local/state``); a relative
path there is ignored, as the XDG specification asks.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path

from platformdirs.api import PlatformDirsABC
from platformdirs.macos import MacOS
from platformdirs.windows import Windows

__all__ = ["APP_DIR", "config_dir", "state_dir"]

APP_DIR = "rephrase-ls"

_PLATFORMS: dict[str, type[PlatformDirsABC]] = {"win32": Windows, "darwin": MacOS}


def _folder(
    xdg: tuple[str, str], kind: str, environ: Mapping[str, str] | None, platform: str | None
) -> Path:
    """``$<xdg[0]>/rephrase-ls`` when it is absolute, else platformdirs' ``kind`` folder on
    Windows and macOS (the config folder roams with the user's Windows profile, the state stays
    on the machine), else ``~/<xdg[1]>/rephrase-ls``."""
    xdg_name, xdg_default = xdg
    env = os.environ if environ is None else environ
    base = env.get(xdg_name, "")
    if base and os.path.isabs(base):
        return Path(base) / APP_DIR
    dirs = _PLATFORMS.get(sys.platform if platform is None else platform)
    if dirs is not None:
        roaming = kind == "user_config_dir"
        return Path(getattr(dirs(APP_DIR, appauthor=False, roaming=roaming), kind))
    return Path.home() / xdg_default / APP_DIR


def config_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The folder of the user config file (not created here)."""
    return _folder(("XDG_CONFIG_HOME", ".config"), "user_config_dir", environ, platform)


def state_dir(environ: Mapping[str, str] | None = None, platform: str | None = None) -> Path:
    """The folder for this user's rephrase-ls state (not created here)."""
    return _folder(("XDG_STATE_HOME", ".local/state"), "user_state_dir", environ, platform)
