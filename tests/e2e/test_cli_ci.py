"""``rephrase-ls improve`` for writers and CI, each through the real command (a subprocess):
short texts and commit messages, clear errors, folders, ``exclude``, quiet notes,
``--language``, ``--format``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(
    *args: str,
    cwd: Path,
    env: dict[str, str] | None = None,
    stdin: str | bytes | None = None,
) -> subprocess.CompletedProcess[str]:
    """``rephrase-ls ARGS`` in a process of its own, with no user config file (unless ``env``
    names one) and ``stdin`` on standard input."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    base["XDG_CONFIG_HOME"] = str(ROOT / "tests" / "data" / "no-user-config")
    base.update(env or {})
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", *args],
        cwd=cwd,
        env=base,
        input=data if data is not None else b"",
        capture_output=True,
        timeout=120,
    )
    return subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8").replace("\r\n", "\n"),
        done.stderr.decode("utf-8").replace("\r\n", "\n"),
    )


# 1. Short texts and commit messages

SHORT = "the parser recieved a NULL pointer.\n"


def test_a_short_text_with_a_slip_is_improved_as_english(tmp_path: Path) -> None:
    doc = tmp_path / "note.txt"
    doc.write_text(SHORT, encoding="utf-8")
    check = cli("improve", "--check", str(doc), cwd=tmp_path)
    assert check.returncode == 1, check.stderr
    assert "target_lang" not in check.stderr and "detect" not in check.stderr
    done = cli("improve", "--write", "--verbose", str(doc), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert doc.read_text(encoding="utf-8") == "The parser received a NULL pointer.\n"
    assert "improved as en-US (too little prose to detect it" in done.stderr
    # without --verbose, nothing is said about the language
    quiet = cli("improve", "-", cwd=tmp_path, stdin=SHORT)
    assert quiet.returncode == 0, quiet.stderr
    assert "+The parser received a NULL pointer." in quiet.stdout
    assert quiet.stderr == ""


def test_the_configured_language_comes_before_the_default(tmp_path: Path) -> None:
    (tmp_path / ".rephrase.toml").write_text('englishVariant = "en-GB"\n', encoding="utf-8")
    done = cli("improve", "--verbose", "-", cwd=tmp_path, stdin="the colour recieved.\n")
    assert done.returncode == 0, done.stderr
    assert "improved as en-GB (too little prose to detect it" in done.stderr
    given = cli("improve", "-v", "--language", "de", "-", cwd=tmp_path, stdin="Das ist gut.\n")
    assert given.returncode == 0, given.stderr
    assert "improved as de (from --language)" in given.stderr


def test_short_text_in_another_script_is_skipped_not_failed(tmp_path: Path) -> None:
    done = cli("improve", "-", cwd=tmp_path, stdin="Привет.\n")
    assert done.returncode == 0, done.stderr
    assert "too little prose to tell its language" in done.stderr


COMMIT = (
    "docs: fix the the typo in the readme\n"
    "\n"
    "this change fixes a typo that was recieved from a user.\n"
    "\n"
    "Signed-off-by: Ann Exampel <ann@example.org>\n"
    "Co-authored-by: Bob Exampel <bob@example.org>\n"
    "# Please enter the commit message for your changes. Lines starting\n"
    "# with '#' will be ignored, and an empty message aborts teh commit.\n"
    "# ------------------------ >8 ------------------------\n"
    "# Do not modify or remove the line above.\n"
    "diff --git a/README.md b/README.md\n"
    "-this is the the old line\n"
    "+this is teh new line\n"
)
COMMIT_DONE = COMMIT.replace("fix the the typo", "fix the typo", 1).replace(
    "recieved", "received", 1
)


def test_commit_editmsg_keeps_its_conventions(tmp_path: Path) -> None:
    git = tmp_path / ".git"
    git.mkdir()
    message = git / "COMMIT_EDITMSG"
    message.write_text(COMMIT, encoding="utf-8")
    done = cli("improve", "--write", str(message), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert message.read_text(encoding="utf-8") == COMMIT_DONE


def test_commit_message_flag_on_any_file_and_standard_input(tmp_path: Path) -> None:
    message = tmp_path / "message.txt"
    message.write_text(COMMIT, encoding="utf-8")
    done = cli("improve", "--commit-message", "--write", str(message), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert message.read_text(encoding="utf-8") == COMMIT_DONE
    piped = cli(
        "improve",
        "--commit-message",
        "--write",
        "-",
        cwd=tmp_path,
        stdin="fix(parser): handle the the empty case\n\nRefs: #12\n",
    )
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == "fix(parser): handle the empty case\n\nRefs: #12\n"
