"""Neovim in a real terminal (tmux) with the plugin and the real server: what the writer sees.

The server's start-up notice fits the command line (no "Press ENTER" prompt), and the code
action menu lists the server's actions; the menu is drawn into ``docs/images/nvim-code-actions.png``
(the README's picture) when ``REPHRASE_UPDATE_SCREENSHOTS=1``, and otherwise checked against the
menu recorded in that picture, so the picture cannot silently go stale.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from .terminal_png import FONT_DIR, render
from .test_nvim import NEOVIMS, PLUGIN, ROOT, _clean_env, require_nvim

PICTURE = ROOT / "docs" / "images" / "nvim-code-actions.png"
COLUMNS, ROWS = 92, 26
DOCUMENT = """\
# Release notes

This release make the importer more faster, and it handle large files much
better then before.

The new `--dry-run` flag shows what would change without writing anything.
"""


class Tmux:
    """A private tmux server running one program in a COLUMNS x ROWS window."""

    def __init__(self, socket: Path, env: dict[str, str]) -> None:
        self.base = ["tmux", "-S", str(socket), "-f", "/dev/null"]
        self.env = env

    def start(self, *command: str, cwd: Path) -> None:
        subprocess.run(
            [*self.base, "new-session", "-d", "-x", str(COLUMNS), "-y", str(ROWS), "--", *command],
            cwd=cwd,
            env=self.env,
            check=True,
            timeout=30,
        )

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", *keys], check=True, timeout=30)

    def screen(self, escapes: bool = False) -> str:
        args = [*self.base, "capture-pane", "-p", *(["-e"] if escapes else [])]
        return subprocess.run(args, capture_output=True, text=True, check=True, timeout=30).stdout

    def wait_for(self, what: str, predicate, timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if predicate(screen):
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}")
            time.sleep(0.1)

    def kill(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=30, check=False)


def _menu(screen: str) -> list[str]:
    """The lines of the code action menu (vim.ui.select's list) on a screen."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Code actions:"))
    return [line.rstrip() for line in lines[start:] if line.strip() and "Type number" not in line]


@pytest.mark.parametrize("role", list(NEOVIMS))
def test_code_action_menu_and_start_up_notice(role: str, tmp_path: Path) -> None:
    """On each Neovim; the picture is Neovim 0.11's."""
    for needed, present in (
        ("tmux", shutil.which("tmux") is not None),
        (
            "DejaVu Sans Mono (Debian: fonts-dejavu-core)",
            (FONT_DIR / "DejaVuSansMono.ttf").exists(),
        ),
    ):
        if not present:
            if os.environ.get("REPHRASE_REQUIRE_EDITORS") == "1":
                pytest.fail(f"{needed} is not installed, and REPHRASE_REQUIRE_EDITORS=1 needs it")
            pytest.skip(f"{needed} is not installed")
    nvim, _version = require_nvim(role)
    server_cmd = str(Path(sys.executable).parent / "rephrase-ls")
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    (project / "NOTES.md").write_text(DOCUMENT, encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(
        f"vim.opt.runtimepath:prepend({str(PLUGIN)!r})\n"
        "vim.cmd('runtime plugin/rephrase.lua')\n"
        "vim.o.termguicolors = true\n"
        f"require('rephrase').setup({{ cmd = {{ {server_cmd!r} }} }})\n",
        encoding="utf-8",
    )
    env = _clean_env(tmp_path)
    env["TERM"] = "xterm-256color"
    tmux = Tmux(tmp_path / "tmux.sock", env)
    tmux.start(nvim, "--clean", "-u", str(init), "NOTES.md", cwd=project)
    try:
        # The server's first message: one short line, and Neovim does not stop for it.
        screen = tmux.wait_for("the start-up notice", lambda s: "offline" in s.splitlines()[-1])
        assert "Press ENTER" not in screen, screen
        assert screen.splitlines()[-1].startswith("rephrase: "), screen
        tmux.keys("3G")
        tmux.keys(":lua vim.lsp.buf.code_action()", "Enter")
        screen = tmux.wait_for("the code action menu", lambda s: "Improve document" in s)
        menu = _menu(screen)
        assert menu[:3] == ["Code actions:", "1: Correct", "2: Improve"], menu
        assert any(line.endswith(": Correct document") for line in menu), menu
        assert any(line.endswith(": Improve: business") for line in menu), menu
        assert any(line.endswith(": Convert to en-GB") for line in menu), menu
        drawn = tmp_path / "menu.png"
        render(tmux.screen(escapes=True), COLUMNS, drawn, {"menu": "\n".join(menu)})
        with Image.open(drawn) as image:
            assert image.size[0] > COLUMNS * 8 and image.size[1] > ROWS * 10
        if role == "0.11":
            if os.environ.get("REPHRASE_UPDATE_SCREENSHOTS") == "1":
                PICTURE.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(drawn, PICTURE)
            with Image.open(PICTURE) as committed:
                recorded = committed.text.get("menu", "")  # type: ignore[attr-defined]
            assert recorded.splitlines() == menu, (
                f"{PICTURE} shows another menu; redraw it with REPHRASE_UPDATE_SCREENSHOTS=1"
            )
        # Choosing "Improve" changes the paragraph on screen.
        tmux.keys("2", "Enter")
        tmux.wait_for("the improved paragraph", lambda s: "better than before" in s)
    finally:
        tmux.kill()
