"""Corrections only (``POST /v2/write/correct``) over REAL loopback HTTP: the offline service
with the endpoint (as the service's documentation describes it today) and without it (404, as
``service-interface.md`` describes the service)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from tests.integration.test_client_loopback import (
    KEY,
    RecordingSleep,
    client_for,
    offline_service,
)

from rephrase_ls.config.user_state import AddressState
from rephrase_ls.service import (
    BadRequest,
    CorrectionsUnavailable,
    SecretKey,
    ServiceClient,
    ServiceConfig,
    TooManyRequests,
)
from rephrase_ls.service import client as client_module

#: A slip to correct and a phrase only a style rewrites ("in order to" → "to").
TEXT = "We use teh tool in order to check the text."
HEADERS = {"Authorization": f"Service-Auth-Key {KEY}"}


@pytest.fixture(autouse=True)
def _fresh_process_memory(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every test starts with no address remembered, in the process or in the state folder."""
    monkeypatch.setattr(client_module, "_NO_CORRECTIONS", set())
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))


async def test_correct_fixes_slips_and_keeps_the_wording() -> None:
    with offline_service() as url:
        async with client_for(url) as client:
            [corrected] = await client.correct([TEXT], target_lang="en-US")
            [simple] = await client.rephrase([TEXT], target_lang="en-US", writing_style="simple")
    assert corrected.text == "We use the tool in order to check the text."
    assert "in order to" not in simple.text  # the style rule the correction did not apply
    assert corrected.target_language == "en-US"
    assert corrected.detected_source_language.lower() == "en"


async def test_correct_without_target_detects_the_language() -> None:
    with offline_service() as url:
        async with client_for(url) as client:
            german = "Wir prüfen den Text mit mit dem Werkzeug, bevor wir ihn schicken."
            results = await client.correct([german, TEXT])
    assert [r.detected_source_language.lower() for r in results] == ["de", "en"]
    assert results[0].text == german.replace("mit mit", "mit")


async def test_the_endpoint_refuses_a_style_or_tone() -> None:
    with offline_service() as url, httpx.Client(base_url=url, headers=HEADERS) as http:
        for field in ("writing_style", "tone"):
            answer = http.post("/v2/write/correct", json={"text": [TEXT], field: "default"})
            assert answer.status_code == 400
            assert field in answer.json()["message"]
        form = http.post("/v2/write/correct", data={"text": TEXT, "tone": "friendly"})
        assert form.status_code == 400
        ok = http.post("/v2/write/correct", data={"text": TEXT, "target_lang": "en-US"})
        assert ok.status_code == 200 and ok.json()["improvements"][0]["text"].startswith("We")


async def test_correct_splits_large_texts_like_rephrase() -> None:
    paragraph = "Das ist ist ein deutscher Absatz mit einigen Sätzen. Er ist recht lang. " * 200
    with offline_service() as url:
        async with client_for(url, max_concurrency=3) as client:
            progress: list[tuple[int, int]] = []
            [result] = await client.correct(
                [paragraph], target_lang="de", on_progress=lambda d, t: progress.append((d, t))
            )
    assert progress[-1][0] == progress[-1][1] > 1  # several requests under 10 KiB
    assert result.text == paragraph.replace("ist ist", "ist")


async def test_correct_retries_as_rephrase() -> None:
    with offline_service(fail=[(429, 2)], retry_after=0.2) as url:
        sleep = RecordingSleep()
        config = ServiceConfig(server_url=url, api_key=SecretKey(KEY), max_retries=3)
        async with ServiceClient(config, sleep=sleep) as client:
            [result] = await client.correct([TEXT], target_lang="en-US")
    assert result.text.startswith("We use the tool")
    assert sleep.delays == [0.2, 0.2]
    with offline_service(fail=[(429, 10)], retry_after=0.01) as url:
        async with client_for(url, max_retries=1) as client:
            with pytest.raises(TooManyRequests):
                await client.correct([TEXT])


async def test_a_bad_target_is_the_services_400() -> None:
    with offline_service() as url:
        async with client_for(url) as client:
            with pytest.raises(BadRequest) as info:
                await client.correct([TEXT], target_lang="xx")
    assert "target_lang" in (info.value.service_message or "")


async def _usage(url: str) -> int:
    async with client_for(url) as client:
        return (await client.usage()).character_count


async def test_a_service_without_the_endpoint_is_told_and_remembered() -> None:
    with offline_service(corrections=False) as url:
        async with client_for(url) as client:
            assert not client.corrections_known_absent
            with pytest.raises(CorrectionsUnavailable) as first:
                await client.correct([TEXT], target_lang="en-US")
            assert first.value.status == 404 and not first.value.known
            assert "no corrections-only mode" in first.value.message
            assert "Improve" in first.value.message
            # Never a silent fallback: nothing was rephrased (nothing billed).
            assert await _usage(url) == 0
            # Known now, for this client and any other of the process: no request is sent.
            with pytest.raises(CorrectionsUnavailable) as second:
                await client.correct([TEXT])
            assert second.value.known
        async with client_for(url) as other:
            assert other.corrections_known_absent
        # The rephrase endpoint still works there.
        async with client_for(url) as client:
            [improved] = await client.rephrase([TEXT], target_lang="en-US")
            assert improved.text.startswith("We use the tool")


async def test_the_state_folder_remembers_the_address(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    with offline_service(corrections=False) as url:
        config = ServiceConfig(server_url=url, api_key=SecretKey(KEY), max_retries=0)
        async with ServiceClient(config, corrections_memory=AddressState()) as client:
            with pytest.raises(CorrectionsUnavailable):
                await client.correct([TEXT])
        markers = list((tmp_path / "state" / "rephrase-ls").glob("no-correct-*"))
        assert len(markers) == 1 and url not in markers[0].read_text()
        # A new process (no process memory) learns it from the state folder.
        monkeypatch.setattr(client_module, "_NO_CORRECTIONS", set())
        async with ServiceClient(config, corrections_memory=AddressState()) as client:
            assert client.corrections_known_absent
        # Another address is not concerned; an old marker is no longer believed.
        assert not AddressState().knows_no_corrections(url + "/other")
        import os

        os.utime(markers[0], (0, 0))
        assert not AddressState().knows_no_corrections(url)


async def test_an_in_process_service_is_not_remembered_by_address() -> None:
    """The embedded service has no address of its own: its 404 is its client's alone."""
    from rephrase_ls.offline import EMBEDDED_BASE_URL, embedded_transport
    from rephrase_ls.offline.app import OfflineOptions

    config = ServiceConfig(server_url=EMBEDDED_BASE_URL, api_key=SecretKey(KEY))
    absent = embedded_transport(OfflineOptions(corrections=False))
    async with ServiceClient(config, transport=absent) as client:
        with pytest.raises(CorrectionsUnavailable):
            await client.correct([TEXT])
        assert client.corrections_known_absent
    async with ServiceClient(config, transport=embedded_transport(OfflineOptions())) as client:
        assert not client.corrections_known_absent
        [result] = await client.correct([TEXT], target_lang="en-US")
    assert result.text == "We use the tool in order to check the text."
