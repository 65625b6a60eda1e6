"""The user config file, trusted folders, and which source may set a connection setting."""

from __future__ import annotations

from pathlib import Path

import platformdirs.windows
import pytest

from rephrase_ls.config import user_config
from rephrase_ls.config.folders import config_dir, state_dir
from rephrase_ls.config.settings import CONNECTION_KEYS, Settings, merge
from rephrase_ls.config.user_config import UserConfig, compose, parse

HOSTILE = {
    "serverUrl": "https://collect.example",
    "freeServerUrl": "https://collect.example",
    "tier": "free",
    "authScheme": "Bearer",
    "apiKeyEnv": "GITHUB_TOKEN",
    "writingStyle": "business",
}


def test_config_dir_follows_xdg_then_the_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/u")
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)  # platformdirs reads it on macOS too
    assert config_dir({"XDG_CONFIG_HOME": "/x"}, "linux") == Path("/x/rephrase-ls")
    assert config_dir({"XDG_CONFIG_HOME": "relative"}, "linux") == Path(
        "/home/u/.config/rephrase-ls"
    )
    assert config_dir({}, "linux") == Path("/home/u/.config/rephrase-ls")
    assert config_dir({}, "darwin") == Path("/home/u/Library/Application Support/rephrase-ls")
    windows = {"CSIDL_APPDATA": "/roaming", "CSIDL_LOCAL_APPDATA": "/local"}
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", windows.__getitem__)
    assert config_dir({}, "win32") == Path("/roaming/rephrase-ls")
    assert config_dir({"XDG_CONFIG_HOME": "/x"}, "win32") == Path("/x/rephrase-ls")


def test_state_dir_follows_xdg_then_the_platform(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/home/u")
    monkeypatch.delenv("XDG_STATE_HOME", raising=False)  # platformdirs reads it on macOS too
    assert state_dir({"XDG_STATE_HOME": "/s"}, "linux") == Path("/s/rephrase-ls")
    assert state_dir({"XDG_STATE_HOME": "rel"}, "linux") == Path("/home/u/.local/state/rephrase-ls")
    assert state_dir({}, "darwin") == Path("/home/u/Library/Application Support/rephrase-ls")
    windows = {"CSIDL_APPDATA": "/roaming", "CSIDL_LOCAL_APPDATA": "/local"}
    monkeypatch.setattr(platformdirs.windows, "get_win_folder", windows.__getitem__)
    assert state_dir({}, "win32") == Path("/local/rephrase-ls")


def test_project_connection_settings_are_ignored_with_one_warning(tmp_path: Path) -> None:
    user = UserConfig(tmp_path / "config.toml", {"serverUrl": "https://mine.example"})
    settings, warnings = compose(
        user=user, folder=tmp_path / "repo", project=HOSTILE, project_source="p.toml", environ={}
    )
    assert settings.server_url == "https://mine.example"
    assert (settings.free_server_url, settings.tier) == (None, "auto")
    assert (settings.auth_scheme, settings.api_key_env) == ("Service-Auth-Key", "REPHRASE_API_KEY")
    assert settings.writing_style == "business"
    assert len(warnings) == 1
    for key in ("serverUrl", "freeServerUrl", "tier", "authScheme", "apiKeyEnv"):
        assert key in str(warnings[0])
    assert "trustedFolders" in str(warnings[0]) and str(user.path) in str(warnings[0])


def test_folder_settings_echoing_the_users_value_are_not_warned_about(tmp_path: Path) -> None:
    user = UserConfig(tmp_path / "config.toml")
    launch = {"serverUrl": "https://mine.example", "language": "de"}
    settings, warnings = compose(
        user=user, folder=tmp_path, launch=launch, editor=dict(launch), environ={}
    )
    assert warnings == [] and settings.server_url == "https://mine.example"
    _, warnings = compose(
        user=user, folder=tmp_path, launch=launch, editor={"serverUrl": "https://x.example"}
    )
    assert len(warnings) == 1 and "serverUrl is ignored" in str(warnings[0])


def test_trusted_folders_and_their_subfolders_may_set_them(tmp_path: Path) -> None:
    (tmp_path / "work" / "repo" / ".git").mkdir(parents=True)
    user = parse(tmp_path / "c.toml", f'trustedFolders = ["{tmp_path / "work"}"]\n')
    assert user.is_trusted(tmp_path / "work" / "repo") and user.is_trusted(tmp_path / "work")
    assert not user.is_trusted(tmp_path / "workshop") and not user.is_trusted(tmp_path)
    settings, warnings = compose(
        user=user, folder=tmp_path / "work" / "repo", project=HOSTILE, environ={}
    )
    assert warnings == []
    assert (settings.server_url, settings.auth_scheme) == ("https://collect.example", "Bearer")
    # Never the key itself, trusted or not: it would be committed.
    settings, warnings = compose(
        user=user, folder=tmp_path / "work", project={"apiKey": "k-123"}, environ={}
    )
    assert settings.api_key is None and "apiKey is ignored" in str(warnings[0])


def test_a_project_vendored_inside_a_trusted_one_is_not_trusted(tmp_path: Path) -> None:
    """A trusted repository holding another project (``vendor/theme`` with its own
    ``.rephrase.toml``, written by its authors) does not lend it its trust."""
    ours = tmp_path / "ours"
    (ours / ".git").mkdir(parents=True)
    theme = ours / "vendor" / "theme"
    (theme / "docs").mkdir(parents=True)
    (theme / ".rephrase.toml").write_text('serverUrl = "https://collect.example"\n')
    (ours / "docs").mkdir()
    user = parse(tmp_path / "c.toml", f'trustedFolders = ["{ours}"]\n')
    assert user.is_trusted(ours) and user.is_trusted(ours / "docs")
    assert not user.is_trusted(theme) and not user.is_trusted(theme / "docs")
    settings, warnings = compose(user=user, folder=theme, project=HOSTILE, environ={})
    assert settings.server_url is None and "serverUrl" in str(warnings)


def test_precedence_environment_over_trusted_project_over_launch_over_file(
    tmp_path: Path,
) -> None:
    user = UserConfig(
        tmp_path / "c.toml", {"serverUrl": "https://file.example"}, (tmp_path.resolve(),)
    )
    layers = {
        "launch": {"serverUrl": "https://launch.example"},
        "project": {"serverUrl": "https://project.example"},
        "environ": {"REPHRASE_SERVER_URL": "https://env.example"},
    }
    order = ["https://file.example", "https://launch.example", "https://project.example"]
    order.append("https://env.example")
    for upto in range(4):
        kwargs = {k: v for k, v in list(layers.items())[:upto]}
        kwargs.setdefault("environ", {})
        settings, _ = compose(user=user, folder=tmp_path, **kwargs)  # type: ignore[arg-type]
        assert settings.server_url == order[upto]


def test_user_file_problems_are_reported(tmp_path: Path) -> None:
    bad = parse(tmp_path / "c.toml", 'trustedFolders = ["relative/path", 3]\nserverUrl = "x"\n')
    assert len(bad.errors) == 2 and bad.trusted_folders == ()
    _, warnings = compose(user=bad, folder=tmp_path, environ={})
    assert any("serverUrl" in str(w) for w in warnings)
    assert "not valid TOML" in parse(tmp_path / "c.toml", "= =").errors[0]
    assert user_config.read({"XDG_CONFIG_HOME": str(tmp_path / "none")}).values == {}


def test_a_misspelled_key_in_the_user_file_is_named_with_the_key_meant(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    config = parse(path, 'englishVarient = "en-GB"\ntrustedFolders = []\nwords = ["Zorbify"]\n')
    assert config.errors == (
        f"{path}: unknown key 'englishVarient' is ignored; did you mean 'englishVariant'?",
    )
    _, warnings = compose(user=config, folder=tmp_path, environ={})
    assert [str(w) for w in warnings] == list(config.errors)


def test_merge_refuses_every_connection_key() -> None:
    raw = {key: "https://x.example" for key in CONNECTION_KEYS}
    settings, warnings = merge(Settings(), raw, "src", refuse_connection="advice")
    assert settings == Settings() and len(warnings) == 1
    assert all(key in str(warnings[0]) for key in CONNECTION_KEYS)


@pytest.mark.parametrize(
    ("user_value", "project_value", "effective", "warned"),
    [
        (None, 5_000, 5_000, False),  # a project may lower the default
        (None, 50_000, 20_000, True),  # never raise it
        (None, 0, 20_000, True),  # 0 (never ask) is the highest limit of all
        (0, 1_000, 1_000, False),  # lowering the user's "never ask" is allowed
        (100_000, 100_000, 100_000, False),  # the user's own value seen again
        (100_000, 200_000, 100_000, True),
    ],
)
def test_confirm_characters_a_project_or_folder_may_only_lower(
    tmp_path: Path, user_value: int | None, project_value: int, effective: int, warned: bool
) -> None:
    values = {} if user_value is None else {"confirmCharacters": user_value}
    user = UserConfig(tmp_path / "config.toml", values)
    for source in ("project", "editor"):
        settings, warnings = compose(
            user=user,
            folder=tmp_path / "repo",
            **{source: {"confirmCharacters": project_value}},
            environ={},
        )
        assert settings.confirm_characters == effective, source
        assert bool(warnings) == warned, (source, warnings)
        if warned:
            assert "confirmCharacters" in str(warnings[0]) and "only lower" in str(warnings[0])


def test_confirm_characters_user_level_sources_may_raise_it(tmp_path: Path) -> None:
    user = UserConfig(tmp_path / "config.toml", {"confirmCharacters": 100_000})
    settings, warnings = compose(user=user, folder=tmp_path, environ={})
    assert settings.confirm_characters == 100_000 and warnings == []
    settings, warnings = compose(
        user=UserConfig(tmp_path / "config.toml"),
        folder=tmp_path,
        launch={"confirmCharacters": 0},
        environ={},
    )
    assert settings.confirm_characters == 0 and warnings == []
    _, warnings = merge(Settings(), {"confirmCharacters": -1}, "x")
    assert "confirmCharacters" in str(warnings[0])


@pytest.mark.parametrize(
    ("project_value", "effective"),
    [(6, 6), (8, 8), (12, 2)],  # under the user's 8: taken, over the folder's 2; over 8: not
)
def test_every_limit_is_bounded_by_the_users_own_not_by_the_layer_below(
    tmp_path: Path, project_value: int, effective: int
) -> None:
    """``maxConcurrency``, ``diagnosticsMaxSize`` and ``confirmCharacters`` follow one rule: a
    folder or project may set any value up to the user's own; a higher one is ignored with a
    warning and the layer below stays."""
    user = UserConfig(
        tmp_path / "config.toml",
        {"maxConcurrency": 8, "diagnosticsMaxSize": 8000, "confirmCharacters": 8000},
    )
    settings, warnings = compose(
        user=user,
        folder=tmp_path / "repo",
        editor={"maxConcurrency": 2, "diagnosticsMaxSize": 2000, "confirmCharacters": 2000},
        project={
            "maxConcurrency": project_value,
            "diagnosticsMaxSize": project_value * 1000,
            "confirmCharacters": project_value * 1000,
        },
        environ={},
    )
    assert settings.max_concurrency == effective
    assert settings.diagnostics_max_size == effective * 1000
    assert settings.confirm_characters == effective * 1000
    assert len(warnings) == (3 if project_value > 8 else 0), warnings
