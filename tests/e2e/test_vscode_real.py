"""The VS Code extension in a real VS Code: code-server (VS Code 1.100.3) shown in headless
Chromium and driven with the keyboard by ``tests/e2e/vscode/drive.mjs`` (playwright-core).

The host is installed by ``editor-clients/vscode/scripts/real-host-setup.sh`` (``.ci/run``
runs it); without it the test is skipped, unless REPHRASE_REQUIRE_EDITORS=1. The extension is
packaged from the sources (``npm run package``) and installed into fresh extension and user
folders; the server is the venv's ``rephrase-ls`` with no API key, so the embedded offline
service answers and the expected texts come from the same offline engine.

The first start walks the writer's paths; a second start of the same installation (same user
data and state folders) checks that user settings reach the server, that the no-API-key notice
is not shown again, and the review controls (in-document switches, the language switch, the
project's and the user's settings and words, per-language ``disabledRules``,
``unknownWordSeverity``, hover and each quick fix, ``diagnosticsOn = "save"`` then ``"open"``).
On a failure the driver's screenshot path is in the message. The code-action menu's
screenshot becomes the README's picture, docs/images/vscode-code-actions.png, and the quick-fix
menu on a diagnostic docs/images/vscode-diagnostic-quick-fix.png, when
``REPHRASE_UPDATE_SCREENSHOTS=1`` (a run otherwise leaves the pictures as committed: pixels
differ from run to run).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rephrase_ls.offline.engine import improve
from tests.e2e.vscode_lock import vscode_folder_lock

ROOT = Path(__file__).resolve().parents[2]
VSCODE = ROOT / "editor-clients" / "vscode"
SETUP = VSCODE / "scripts" / "real-host-setup.sh"
DRIVER = Path(__file__).resolve().parent / "vscode" / "drive.mjs"
PICTURE = ROOT / "docs" / "images" / "vscode-code-actions.png"
QUICK_FIX_PICTURE = ROOT / "docs" / "images" / "vscode-diagnostic-quick-fix.png"

HEADING = "# Notes"
P1 = "This is a very good sentance, and it are really importent for teh team."
P2 = "We will basically try to get the report done, and it is a very good idea to start now."
P3 = "Please organize the colors of the center page before the meeting."
P4 = "Their going to check the the numbers before friday."
LINES = [HEADING, "", P1, "", P2, "", P3, "", P4]
#: review.md: the offline engine's diagnostics on its misspellings, fixed one at a time.
REVIEW = "We recieved teh report on Monday, and the team will read it before the meeting on Friday."
REVIEW_LINES = ["# Review", "", REVIEW]
#: controls.md, for the second start: what the review controls leave of its findings.
CONTROLS = [
    "# Controls",
    "",
    "I recieved the wurd from the team, and it was was clear to everyone.",
    "",
    "We read teh report  before the meeting on Friday.",
    "",
    "<!-- rephrase: ignore-next-line -->",
    "Thier reply came late, and it said nothing of the plans we made.",
    "",
    "<!-- rephrase: off -->",
    "So the end came untill now, I beleive.",
    "<!-- rephrase: on -->",
    "",
    "The notes are definately ready for the zorb and the glorp teams.",
]
#: german.md, for the second start: the in-document language switch makes it German (the user
#: settings say en-GB), and the user's per-language disabledRules turn off its capitalisation.
GERMAN = [
    "<!-- rephrase: language=de -->",
    "",
    "Wir haben vieleicht das Haus gesehen. wir waren zu spät für die Führung.",
]


def _missing(what: str) -> None:
    if os.environ.get("REPHRASE_REQUIRE_EDITORS") == "1":
        pytest.fail(f"{what}, and REPHRASE_REQUIRE_EDITORS=1 needs this test")
    pytest.skip(what)


def _pinned(name: str) -> str:
    match = re.search(rf"^{name}=(\S+)$", SETUP.read_text(encoding="utf-8"), re.M)
    assert match, f"{name} is not set in {SETUP}"
    return match.group(1)


def _host() -> tuple[Path, Path]:
    """code-server and playwright-core, from the environment or real-host-setup.sh's cache."""
    cache = Path(
        os.environ.get("REPHRASE_CI_CACHE") or Path.home() / ".cache" / "rephrase-ls-ci"
    )
    code_server = Path(
        os.environ.get("REPHRASE_CODE_SERVER")
        or cache / f"code-server-{_pinned('CODE_SERVER_VERSION')}/node_modules/.bin/code-server"
    )
    playwright = Path(
        os.environ.get("REPHRASE_PLAYWRIGHT")
        or cache / f"playwright-core-{_pinned('PLAYWRIGHT_VERSION')}/node_modules/playwright-core"
    )
    for path in (code_server, playwright, Path("/usr/bin/chromium")):
        if not path.exists():
            _missing(f"{path} is missing: run {SETUP.relative_to(ROOT)}")
    return code_server, playwright


def _env(home: Path) -> dict[str, str]:
    """A private HOME and XDG folders, no API key, no inherited VS Code or rephrase settings."""
    env = {
        k: v
        for k, v in os.environ.items()
        if "API_KEY" not in k
        and not k.startswith(("XDG_", "VSCODE_", "REPHRASE_", "CODE_SERVER", "ELECTRON_"))
    }
    env["HOME"] = str(home)
    for name in ("CONFIG", "DATA", "STATE", "CACHE"):
        folder = home / f"xdg-{name.lower()}"
        folder.mkdir(parents=True, exist_ok=True)
        env[f"XDG_{name}_HOME"] = str(folder)
    return env


@pytest.fixture(scope="module")
def host() -> tuple[Path, Path]:
    return _host()


@pytest.fixture(scope="module")
def vsix(host: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The extension packaged from the sources (node_modules from the lockfile when absent);
    only once the host is known to be there."""
    npm = shutil.which("npm")
    if npm is None:
        _missing("npm is not installed")
    assert npm is not None
    out = tmp_path_factory.mktemp("vsix") / "rephrase-ls.vsix"
    steps = [] if (VSCODE / "node_modules" / ".bin" / "vsce").exists() else [["ci"]]
    steps.append(
        ["exec", "--", "vsce", "package", "--no-dependencies", "--allow-missing-repository",
         "--out", str(out)]
    )
    for args in steps:
        with vscode_folder_lock():
            proc = subprocess.run(
                [npm, *args, "--no-audit", "--no-fund"] if args == ["ci"] else [npm, *args],
                cwd=VSCODE, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                timeout=900, check=False,
            )
        assert proc.returncode == 0, f"npm {' '.join(args)}:\n{proc.stdout}\n{proc.stderr}"
    return out


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Installation:
    """One VS Code installation: user data, extensions, HOME and state folders, kept between
    starts."""

    def __init__(self, base: Path, code_server: Path, playwright: Path, vsix: Path) -> None:
        self.base = base
        self.code_server = code_server
        self.playwright = playwright
        self.user_data = base / "user-data"
        self.extensions = base / "extensions"
        self.env = _env(base / "home")
        self.state = Path(self.env["XDG_STATE_HOME"])
        self.workspace = base / "workspace"
        (self.workspace / ".git").mkdir(parents=True)
        (self.workspace / "notes.md").write_text("\n".join(LINES) + "\n", encoding="utf-8")
        (self.workspace / "review.md").write_text(
            "\n".join(REVIEW_LINES) + "\n", encoding="utf-8"
        )
        proc = subprocess.run(
            [str(code_server), "--install-extension", str(vsix),
             "--extensions-dir", str(self.extensions), "--user-data-dir", str(self.user_data)],
            env=self.env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
            timeout=300, check=False,
        )
        assert proc.returncode == 0, f"install-extension:\n{proc.stdout}\n{proc.stderr}"

    def write_settings(self, extra: dict[str, object]) -> None:
        settings: dict[str, object] = {
            # The extension host does not inherit PATH: the server by its full path.
            "rephrase.server.path": str(Path(sys.executable).parent / "rephrase-ls"),
            "workbench.startupEditor": "none",
            "workbench.tips.enabled": False,
            "security.workspace.trust.enabled": False,
            "telemetry.telemetryLevel": "off",
            "extensions.autoCheckUpdates": False,
            "extensions.ignoreRecommendations": True,
            "chat.commandCenter.enabled": False,
            "[markdown]": {"editor.wordWrap": "off"},
            "editor.minimap.enabled": False,
            "editor.cursorBlinking": "solid",
            # The LSP messages in the Rephrase output, to see the cancels when a check fails.
            "rephrase.trace.server": "messages",
            **extra,
        }
        user = self.user_data / "User"
        user.mkdir(parents=True, exist_ok=True)
        (user / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")

    def run(self, scenario: str, artifacts: Path) -> dict[str, Any]:
        """Starts code-server, runs the driver's scenario, stops code-server; the observations."""
        port = _free_port()
        config = self.base / "code-server.yaml"
        config.write_text(f"bind-addr: 127.0.0.1:{port}\nauth: none\ncert: false\n")
        artifacts.mkdir(parents=True, exist_ok=True)
        log = (artifacts / "code-server.log").open("w")
        server = subprocess.Popen(
            [str(self.code_server), "--config", str(config), "--user-data-dir",
             str(self.user_data), "--extensions-dir", str(self.extensions),
             "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
             "--disable-getting-started-override", "--ignore-last-opened"],
            env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            _wait_http(f"http://127.0.0.1:{port}/healthz", server)
            env = dict(self.env)
            env.update(
                REPHRASE_PLAYWRIGHT=str(self.playwright),
                REPHRASE_URL=f"http://127.0.0.1:{port}/?folder={self.workspace}",
                REPHRASE_SCENARIO=scenario,
                REPHRASE_FILE="notes.md",
                REPHRASE_REVIEW_FILE="review.md",
                REPHRASE_CONTROLS_FILE="controls.md",
                REPHRASE_EXCLUDED_FILE="excluded.md",
                REPHRASE_GERMAN_FILE="german.md",
                REPHRASE_USER_SETTINGS=str(self.user_data / "User" / "settings.json"),
                REPHRASE_ARTIFACTS=str(artifacts),
            )
            proc = subprocess.run(
                ["node", str(DRIVER)], env=env, stdin=subprocess.DEVNULL, capture_output=True,
                text=True, timeout=600, check=False,
            )
        finally:
            _stop(server)
            log.close()
        result_file = artifacts / "result.json"
        result = json.loads(result_file.read_text()) if result_file.exists() else {}
        assert proc.returncode == 0, (
            f"the {scenario} start failed; screenshot: {result.get('failureScreenshot')}; "
            f"code-server log, page log and result.json in {artifacts}\n"
            f"{json.dumps(result, indent=1, ensure_ascii=False)[-4000:]}\n"
            f"stdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}"
        )
        return result

    def rephrase_logs(self) -> str:
        """Everything the extension wrote to its "Rephrase" output channel (VS Code keeps each
        log channel in a file under the user data folder's logs)."""
        files = sorted((self.user_data / "logs").rglob("Rephrase.log"))
        assert files, f"no Rephrase.log under {self.user_data / 'logs'}"
        return "\n".join(f.read_text(encoding="utf-8", errors="replace") for f in files)


def _wait_http(url: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, "code-server exited at start"
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError(f"code-server did not answer {url} within 120 s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, 15)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait(timeout=20)


@pytest.fixture
def installation(
    tmp_path: Path, host: tuple[Path, Path], vsix: Path
) -> Iterator[Installation]:
    code_server, playwright = host
    yield Installation(tmp_path, code_server, playwright, vsix)


def test_vscode_real_host(installation: Installation, tmp_path: Path) -> None:
    # The test means something only if the engine changes every paragraph in each mode.
    assert improve(P1, "en-us") != P1
    assert improve(P2, "en-us", writing_style="business") != improve(P2, "en-us")
    assert improve(P3, "en-gb") != P3
    assert improve(P4, "en-us") != P4

    installation.write_settings({})
    first_dir = tmp_path / "first"
    first = installation.run("first", first_dir)
    assert first["original"][: len(LINES)] == LINES, first["original"]
    assert "no API key found" in str(first["notice"])

    menu = first["improve"]["rows"]
    for title in ("Improve", "Improve: business", "Improve: friendly", "Convert to en-GB"):
        assert title in menu, " | ".join(menu)
    assert "Convert to en-US" not in menu, menu
    assert first["improve"]["after"] == improve(P1, "en-us")
    # One Ctrl+Z restores the whole paragraph.
    assert first["undo"] == P1 and first["undoSettled"] == P1
    assert first["business"]["after"] == improve(P2, "en-us", writing_style="business")
    assert first["convert"]["after"] == improve(P3, "en-gb")
    assert first["selection"]["after"] == improve(P4, "en-us")

    assert first["convertUndone"] == P3

    # "Improve document" improves every paragraph (the ones Ctrl+Z restored too).
    before, after = first["document"]["before"], first["document"]["after"]
    assert before[2] == P1 and before[6] == P3
    assert after == [*before[:2], *(improve(line, "en-us") for line in before[2:])], after

    picker = first["stylePicker"]
    assert picker["title"] == "Rephrase: writing style for en-US", picker
    assert "writing style set to \"academic\"" in first["styleNotice"]
    toml = (installation.workspace / ".rephrase.toml").read_text(encoding="utf-8")
    assert re.search(r'^writingStyle = "academic"$', toml, re.M), toml
    assert "tone" not in toml, toml
    assert "Rephrase uses the offline" in first["usage"], first["usage"]

    # Show Alternatives: a quick pick of the rewrites; the chosen one replaces the paragraph.
    alternatives = first["alternatives"]
    assert alternatives["title"] == "Rephrase: alternatives for this paragraph", alternatives
    casual = improve(alternatives["before"], "en-us", writing_style="casual")
    assert casual != alternatives["before"]
    assert any(row.startswith("casual (writing style)") for row in alternatives["rows"])
    assert any(casual in row for row in alternatives["rows"]), alternatives["rows"]
    assert alternatives["after"] == casual, alternatives
    # The Ctrl+. action opens the same quick pick (the extension runs it instead of the
    # server's showMessageRequest choice).
    from_menu = first["alternativesFromMenu"]
    assert from_menu["title"] == "Rephrase: alternatives for this paragraph", from_menu
    assert from_menu["after"] == improve(from_menu["before"], "en-us", writing_style="business")
    assert from_menu["after"] != from_menu["before"]

    # The README's picture: the Ctrl+. menu on a paragraph, as this run showed it.
    redraw = os.environ.get("REPHRASE_UPDATE_SCREENSHOTS") == "1"
    if redraw:
        PICTURE.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(first_dir / "code-actions.png", PICTURE)

    # Review mode: the misspellings are squiggled (blue: information) and in the Problems view
    # from source "rephrase" with no request from the writer; "Replace with ‘the’" on "teh"
    # changes that word only and its diagnostic goes, the other one stays.
    review = first["review"]
    assert review["original"][: len(REVIEW_LINES)] == REVIEW_LINES, review
    on_line = [(q["text"], q["kind"]) for q in review["squiggles"] if q["line"] == 3]
    assert ("recieved", "squiggly-info") in on_line and ("teh", "squiggly-info") in on_line, review
    assert any("teh → the" in p and "rephrase" in p for p in review["problems"]), review
    assert any("recieved → received" in p for p in review["problems"]), review
    fix = review["fix"]
    assert fix["rows"][0] == "Replace with ‘the’", fix
    # the writer's words and the kinds of findings, from the same menu
    for title in (
        "Add ‘teh’ to the project's words",
        "Add ‘teh’ to my words",
        "Turn off ‘spelling’ in this project",
    ):
        assert title in fix["rows"], fix
    assert fix["before"] == REVIEW
    assert fix["after"] == REVIEW.replace("teh", "the", 1), fix
    assert review["linesAfter"][: len(REVIEW_LINES)] == [*REVIEW_LINES[:2], fix["after"]], review
    after = [(q["line"], q["text"]) for q in review["squigglesAfter"]]
    assert (3, "recieved") in after and (3, "teh") not in after and (3, "the") not in after, after
    if redraw:
        shutil.copyfile(first_dir / "diagnostic-quick-fix.png", QUICK_FIX_PICTURE)

    assert "no API key found" in installation.rephrase_logs()
    marker = installation.state / "rephrase-ls" / "notice-offline-service"
    assert marker.is_file()

    # A later start of the same installation, with a language, diagnosticsOn and enabledRules
    # in the user settings, kinds of findings turned off and a file excluded in the project file.
    # "zorb" and "glorp" (unknown words otherwise) are listed: the first, for English, in the
    # user config file, the second in a word file of the project.
    project_file = installation.workspace / ".rephrase.toml"
    project_file.write_text(
        project_file.read_text(encoding="utf-8")
        + 'disabledRules = ["doubled-word"]\nexclude = ["excluded.md"]\n'
        + 'wordFiles = ["docs/words.txt"]\n',
        encoding="utf-8",
    )
    (installation.workspace / "docs").mkdir()
    (installation.workspace / "docs" / "words.txt").write_text("glorp\n", encoding="utf-8")
    user_config = Path(installation.env["XDG_CONFIG_HOME"]) / "rephrase-ls" / "config.toml"
    user_config.parent.mkdir(parents=True, exist_ok=True)
    user_config.write_text('words = { en = ["zorb"] }\n', encoding="utf-8")
    text = "\n".join(CONTROLS) + "\n"
    (installation.workspace / "controls.md").write_text(text, encoding="utf-8")
    (installation.workspace / "excluded.md").write_text(text, encoding="utf-8")
    (installation.workspace / "german.md").write_text(
        "\n".join(GERMAN) + "\n", encoding="utf-8"
    )
    # code-server saves after a second by default (files.autoSave): off, as in VS Code.
    installation.write_settings(
        {
            "rephrase.language": "en-GB",
            "rephrase.diagnosticsOn": "save",
            "rephrase.enabledRules": ["spacing"],
            "rephrase.disabledRules": {"de": ["capitalisation"]},
            "rephrase.unknownWordSeverity": "warning",
            "files.autoSave": "off",
        }
    )
    second = installation.run("second", tmp_path / "second")
    assert "Convert to en-US" in second["menu"], second["menu"]
    assert "Convert to en-GB" not in second["menu"], second["menu"]
    assert second["stylePicker"]["title"] == "Rephrase: writing style for en-GB", second
    notices = [n for n in second["notifications"] if "no API key" in n]
    assert not notices, second["notifications"]
    logs = installation.rephrase_logs()
    # The server still logged why it used the offline service.
    assert logs.count("no API key found") >= 2
    # VS Code cancels code-action requests it no longer needs, often after the server answered
    # them (the trace shows "Sending notification '$/cancelRequest'"): no warning for those.
    # Whether a run has such cancels depends on timing (mostly while the server starts); the
    # protocol-level test is test_cancel_for_an_answered_request_is_not_a_warning.
    assert "unknown message id" not in logs, logs[-3000:]

    # Review controls (drive.mjs's controls()): the squiggles are exactly those the project's
    # disabledRules and the in-document switches leave (checked there); the excluded file has
    # none, the hover explains, and each quick fix does what it says.
    controls = second["controls"]
    assert controls["original"][: len(CONTROLS)] == CONTROLS, controls
    assert controls["excludedLines"][: len(CONTROLS)] == CONTROLS, controls
    assert controls["excludedSquiggles"] == [], controls
    hover = controls["hover"]
    for part in (
        "rephrase: spelling",
        "<!-- rephrase: ignore-next-line -->",
        'disabledRules = ["spelling"]',
        "Add ‘recieved’ to my words",
    ):
        assert part in hover, hover
    assert controls["unknownMenu"][:3] == [
        "Replace with ‘word’",
        "Replace with ‘ward’",
        "Replace with ‘turd’",
    ], controls["unknownMenu"]
    assert controls["unknownFixed"] == CONTROLS[2].replace("wurd", "word"), controls
    words = installation.env["XDG_CONFIG_HOME"] + "/rephrase-ls/words.txt"
    assert Path(words).read_text(encoding="utf-8") == "teh\n"
    # typed, and not reviewed until saved
    assert controls["squigglesBeforeSave"] == {
        "3": [["recieved", "squiggly-info"]],
        "5": [["report  before", "squiggly-info"]],
        "14": [["definately", "squiggly-info"]],
    }, controls
    # "Ignore this paragraph": the Markdown switches around it
    assert controls["linesAfterIgnore"][2:5] == [
        "<!-- rephrase: off -->",
        CONTROLS[2].replace("wurd", "word"),
        "<!-- rephrase: on -->",
    ], controls["linesAfterIgnore"]
    # Each quick fix's change was on disk at once (the extension saves it; no Save All).
    assert tomllib.loads(controls["projectFileAfterWord"])["words"] == ["agian"], controls
    after_turn_off = tomllib.loads(controls["projectFileAfterTurnOff"])
    assert after_turn_off["disabledRules"] == ["doubled-word", "spelling"], controls
    written = tomllib.loads(project_file.read_text(encoding="utf-8"))
    assert written["disabledRules"] == ["doubled-word", "spelling"], written
    assert written["words"] == ["agian"], written
    assert written["exclude"] == ["excluded.md"] and written["writingStyle"] == "academic"
    assert written["wordFiles"] == ["docs/words.txt"]

    # The German file: German findings (the language switch), its capitalisation turned off
    # by the user settings' disabledRules for German only.
    assert controls["germanLines"][: len(GERMAN)] == GERMAN, controls
    assert controls["germanSquiggles"] == {"3": [["vieleicht", "squiggly-info"]]}, controls
    # diagnosticsOn = "open": the settings change reviewed the unsaved line (drive.mjs waits for
    # it), a save afterwards nothing.
    assert controls["beforeOpenSetting"] == {"7": [["report  before", "squiggly-info"]]}, controls
    saved = controls["linesAfterOpen"]
    assert any("They left  early" in line for line in saved), saved
    assert controls["afterOpenSave"] == controls["afterOpenSetting"], controls
