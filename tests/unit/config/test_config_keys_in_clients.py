"""The editor clients declare exactly the server's settings and style/tone names.

``rephrase_ls.config.settings.KEYS`` is the one list of settings keys and
``rephrase_ls.service.models.WRITING_STYLES``/``TONES`` the one list of style and tone names.
The VS Code extension declares its settings in package.json ``contributes.configuration`` and
derives its key lists from there (``src/settings.ts``); the Neovim plugin passes ``settings``
through unchanged and completes style and tone names from the server's ``rephrase.listStyles``,
so it holds no list to check.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rephrase_ls.config.settings import CONNECTION_KEYS, KEYS, SECRET_KEYS, USER_LIMIT_KEYS
from rephrase_ls.service.models import TONES, WRITING_STYLES

CLIENTS = Path(__file__).resolve().parents[3] / "editor-clients"
PACKAGE_JSON = CLIENTS / "vscode" / "package.json"
SETTINGS_TS = CLIENTS / "vscode" / "src" / "settings.ts"
NVIM = CLIENTS / "nvim"

PREFIX = "rephrase."

#: Server keys that are deliberately not VS Code settings, and why.
NOT_IN_VSCODE = {
    # The extension keeps the key in SecretStorage and passes it in the environment: a setting
    # would sit in settings.json in plain text (and may be synced).
    "apiKey",
    # Project file only (docs/configuration.md): the words belong to the project, not the editor.
    "words",
    # Project file and user config file (docs/configuration.md): the files a project leaves
    # alone belong to it, and rephrase-ls improve, which reads no editor settings, skips them too.
    "exclude",
}


def _manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PACKAGE_JSON.read_text(encoding="utf-8"))
    return data


def _properties() -> dict[str, dict[str, Any]]:
    props: dict[str, dict[str, Any]] = _manifest()["contributes"]["configuration"]["properties"]
    return props


def _client_keys() -> set[str]:
    """``CLIENT_SETTING_KEYS`` of src/settings.ts: the settings only the extension reads."""
    source = SETTINGS_TS.read_text(encoding="utf-8")
    match = re.search(r"export const CLIENT_SETTING_KEYS = \[(.*?)\] as const", source, re.S)
    assert match, f"CLIENT_SETTING_KEYS not found in {SETTINGS_TS}"
    return set(re.findall(r"'([^']+)'", match[1]))


def test_exemptions_are_server_keys() -> None:
    assert set(KEYS) >= NOT_IN_VSCODE, "an exemption names a key the server no longer has"


def test_every_server_key_is_a_vscode_setting_and_nothing_extra() -> None:
    declared = {name.removeprefix(PREFIX) for name in _properties()}
    assert all(name.startswith(PREFIX) for name in _properties())
    server = set(KEYS) - NOT_IN_VSCODE
    client = _client_keys()
    assert not client & set(KEYS), "a client-only setting has the name of a server key"
    assert server - declared == set(), "server keys missing from package.json"
    assert declared - server - client == set(), "package.json declares keys the server lacks"
    assert client - declared == set(), "CLIENT_SETTING_KEYS names settings package.json lacks"


@pytest.mark.parametrize("key", sorted(set(KEYS) - NOT_IN_VSCODE))
def test_server_setting_has_scope_and_description(key: str) -> None:
    prop = _properties()[PREFIX + key]
    assert prop.get("scope") in (
        "application",
        "machine",
        "machine-overridable",
        "window",
        "resource",
        "language-overridable",
    ), prop
    assert (prop.get("markdownDescription") or prop.get("description") or "").strip(), prop
    # Unset (null) leaves the value to the server and the user's config file.
    assert prop.get("default") is None, f"{key}: the server's default applies, not the editor's"


def test_connection_keys_are_machine_scoped_and_restricted() -> None:
    """Where text and the key go: user settings only, and held back in untrusted workspaces."""
    connection = CONNECTION_KEYS - SECRET_KEYS
    props = _properties()
    for key in connection:
        assert props[PREFIX + key]["scope"] == "machine", key
    restricted = set(_manifest()["capabilities"]["untrustedWorkspaces"]["restrictedConfigurations"])
    server_restricted = {k.removeprefix(PREFIX) for k in restricted} & set(KEYS)
    assert server_restricted == connection


def _enum(key: str) -> list[Any]:
    values: list[Any] = _properties()[PREFIX + key]["enum"]
    return values


def test_style_and_tone_enums_are_the_service_names() -> None:
    assert _enum("writingStyle") == [None, "default", *WRITING_STYLES]
    assert _enum("tone") == [None, "default", *TONES]


def test_no_client_keeps_its_own_list_of_style_names() -> None:
    """Clients ask the server (``rephrase.listStyles``); a copied list would go stale."""
    sources = [*NVIM.rglob("*.lua"), *(CLIENTS / "vscode" / "src").rglob("*.ts")]
    assert sources
    for path in sources:
        text = path.read_text(encoding="utf-8")
        names = (*WRITING_STYLES, *TONES)
        found = [name for name in names if re.search(rf"['\"]{name}['\"]", text)]
        assert not found, f"{path} lists {found}"


def test_user_limits_are_user_level_in_vscode_and_sent_at_launch() -> None:
    """A limit a project may only lower (``USER_LIMIT_KEYS``): VS Code takes it from user
    settings alone (``application`` scope) and sends it in the initialization options, the
    user-level source where the server lets it be raised."""
    source = SETTINGS_TS.read_text(encoding="utf-8")
    match = re.search(r"USER_LIMIT_SETTING_KEYS: readonly string\[\] = \[(.*?)\]", source, re.S)
    assert match, f"USER_LIMIT_SETTING_KEYS not found in {SETTINGS_TS}"
    assert set(re.findall(r"'([^']+)'", match[1])) == set(USER_LIMIT_KEYS)
    for key in USER_LIMIT_KEYS:
        assert _properties()[PREFIX + key]["scope"] == "application", key
    assert "userLimitSettings(config)" in (SETTINGS_TS.parent / "extension.ts").read_text("utf-8")
