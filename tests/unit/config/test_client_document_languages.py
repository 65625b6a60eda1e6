"""The editor clients start for the document languages the server reads: the VS Code extension's
activation events and default ``rephrase.documentLanguages`` (package.json, and the same list in
src/extension.ts), and the Neovim plugin's default filetypes (lsp/rephrase.lua)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rephrase_ls.text.markup import FORMATS, load_builtin_formats

CLIENTS = Path(__file__).resolve().parents[3] / "editor-clients"
PACKAGE_JSON = CLIENTS / "vscode" / "package.json"
EXTENSION_TS = CLIENTS / "vscode" / "src" / "extension.ts"
NVIM_CONFIG = CLIENTS / "nvim" / "lsp" / "rephrase.lua"

#: Formats whose VS Code language id and Neovim filetype are the same name.
SHARED_NAMES = ("asciidoc", "org")


def _manifest() -> dict:
    return json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))


def _default_languages() -> list[str]:
    settings = _manifest()["contributes"]["configuration"]
    sections = settings if isinstance(settings, list) else [settings]
    for section in sections:
        found = section["properties"].get("rephrase.documentLanguages")
        if found is not None:
            return list(found["default"])
    raise AssertionError("rephrase.documentLanguages is not declared")


def _extension_languages() -> list[str]:
    source = EXTENSION_TS.read_text(encoding="utf-8")
    body = re.search(r"DEFAULT_DOCUMENT_LANGUAGES = \[(.*?)\];", source, re.DOTALL)
    assert body is not None
    return re.findall(r"'([^']+)'", body.group(1))


def _nvim_filetypes() -> list[str]:
    source = NVIM_CONFIG.read_text(encoding="utf-8")
    body = re.search(r"filetypes = \{(.*?)\}", source, re.DOTALL)
    assert body is not None
    return re.findall(r"'([^']+)'", body.group(1))


def test_the_extension_activates_for_every_default_language() -> None:
    events = set(_manifest()["activationEvents"])
    defaults = _default_languages()
    assert _extension_languages() == defaults
    for language in defaults:
        assert f"onLanguage:{language}" in events, language


@pytest.mark.parametrize("name", SHARED_NAMES)
def test_vscode_and_neovim_start_for_the_format(name: str) -> None:
    load_builtin_formats()
    assert name in FORMATS  # the server reads the format by this language id
    assert name in _default_languages()
    assert f"onLanguage:{name}" in _manifest()["activationEvents"]
    assert name in _nvim_filetypes()
