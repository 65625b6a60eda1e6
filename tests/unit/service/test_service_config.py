"""ServiceConfig, SecretKey, tiers and base-address validation."""

from __future__ import annotations

import pickle

import pytest

from rephrase_ls.service import (
    InsecureURL,
    NotConfigured,
    SecretKey,
    ServiceConfig,
    api_key_from_env,
    validate_base_url,
)


def test_secret_key_hides_itself() -> None:
    key = SecretKey("  abc-123:fx \n")
    assert key.reveal() == "abc-123:fx"
    assert "abc" not in repr(key) and "abc" not in str(key) and "abc" not in f"{key}"
    assert "abc" not in repr(ServiceConfig(api_key=key))
    with pytest.raises(TypeError):
        pickle.dumps(key)


@pytest.mark.parametrize("bad", ["", "   ", "ab cd", "ab\x00cd", "ab\ncd"])
def test_secret_key_rejects_bad_values_without_echoing_them(bad: str) -> None:
    with pytest.raises(ValueError) as info:
        SecretKey(bad)
    if bad.strip():
        assert bad.strip() not in str(info.value)


def test_api_key_from_env() -> None:
    assert api_key_from_env({}) is None
    assert api_key_from_env({"REPHRASE_API_KEY": "  "}) is None
    key = api_key_from_env({"REPHRASE_API_KEY": "k1"})
    assert key is not None and key.reveal() == "k1"
    other = api_key_from_env({"OTHER": "k2"}, variable="OTHER")
    assert other is not None and other.reveal() == "k2"


@pytest.mark.parametrize(
    ("tier", "key", "expected"),
    [
        ("auto", None, "paid"),
        ("auto", "abc", "paid"),
        ("auto", "abc:fx", "free"),
        ("paid", "abc:fx", "paid"),
        ("free", "abc", "free"),
    ],
)
def test_effective_tier(tier: str, key: str | None, expected: str) -> None:
    cfg = ServiceConfig(tier=tier, api_key=SecretKey(key) if key else None)  # type: ignore[arg-type]
    assert cfg.effective_tier == expected


def test_base_url_follows_tier() -> None:
    cfg = ServiceConfig(server_url="https://paid.example/", free_server_url="https://free.example")
    assert cfg.base_url == "https://paid.example"
    free = ServiceConfig(
        server_url="https://paid.example",
        free_server_url="https://free.example",
        api_key=SecretKey("k:fx"),
    )
    assert free.base_url == "https://free.example"


def test_base_url_not_configured() -> None:
    with pytest.raises(NotConfigured, match="serverUrl"):
        _ = ServiceConfig(api_key=SecretKey("k")).base_url
    with pytest.raises(NotConfigured, match="freeServerUrl"):
        _ = ServiceConfig(server_url="https://p.example", api_key=SecretKey("k:fx")).base_url


@pytest.mark.parametrize(
    "field_values",
    [
        {"tier": "gold"},
        {"auth_scheme": ""},
        {"auth_scheme": "Two Words"},
        {"max_concurrency": 0},
        {"max_concurrency": True},
        {"max_retries": -1},
        {"timeout": 0},
        {"timeout": float("nan")},
        {"deadline": -1.0},
        {"capability_ttl": -5},
        {"user_agent_suffix": "vscode\r\nX-Evil: 1"},
    ],
)
def test_config_rejects_bad_values(field_values: dict[str, object]) -> None:
    with pytest.raises((ValueError, TypeError)):
        ServiceConfig(**field_values)  # type: ignore[arg-type]


def test_config_wants_a_secret_key_not_a_string() -> None:
    with pytest.raises(TypeError, match="SecretKey"):
        ServiceConfig(api_key="plain")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "url",
    [
        "https://api.example.com",
        "https://api.example.com/",
        "http://127.0.0.1:8080",
        "http://127.5.6.7",
        "http://localhost:9000/",
        "http://[::1]:8000",
    ],
)
def test_validate_base_url_accepts(url: str) -> None:
    assert validate_base_url(url) == url.rstrip("/")


@pytest.mark.parametrize(
    "url",
    [
        "http://api.example.com",
        "http://10.0.0.1",
        "http://localhost.evil.com",
        "http://foo.localhost:8080",
        "http://localhost.:8080",
        "ftp://example.com",
        "example.com",
        "",
        "https://user:pw@example.com",
        "https://example.com/?x=1",
        "https://example.com:notaport",
    ],
)
def test_validate_base_url_refuses(url: str) -> None:
    with pytest.raises(InsecureURL):
        validate_base_url(url)
