"""``rephrase-ls improve -`` with the embedded offline engine, as a new user's trial ran it:
software terms are left as written, and a slip written in two paragraphs is corrected in both."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def improve_stdin(text: str, cwd: Path) -> str:
    """The text ``rephrase-ls improve --write -`` gives for ``text`` (no key: the embedded
    offline engine answers)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    result = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "--write", "-"],
        cwd=cwd,
        env=env,
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_software_terms_are_not_replaced_by_other_words(tmp_path: Path) -> None:
    text = (
        "Inline code goes between backticks. A transpiled heredocs file.\n\n"
        "Wrap the name in a backtick and teh rest stays.\n"
    )
    assert improve_stdin(text, tmp_path) == text.replace("teh", "the")


def test_a_slip_written_in_two_paragraphs_is_corrected_in_both(tmp_path: Path) -> None:
    text = "We recieved it.\n\nThey recieved it too.\n\nWe stay untill noon, untill then.\n"
    assert improve_stdin(text, tmp_path) == (
        "We received it.\n\nThey received it too.\n\nWe stay until noon, until then.\n"
    )


def test_a_term_written_in_two_paragraphs_is_still_kept(tmp_path: Path) -> None:
    # "hostid" alone is taken for "hosted"; written in two paragraphs it is a term
    text = "It reads a hostid first.\n\nThen the hostid is printed.\n"
    assert improve_stdin(text, tmp_path) == text
    assert improve_stdin("It reads a hostid first.\n", tmp_path) == "It reads a hosted first.\n"
    # the project's README writes "stdio" in two paragraphs: a term, not "studio"
    text = "It talks over stdio.\n\nThe stdio transport is the default.\n"
    assert improve_stdin(text, tmp_path) == text


def test_a_commit_messages_comments_and_diff_do_not_keep_a_slip_in_its_body(
    tmp_path: Path,
) -> None:
    """A word git strips (a ``#`` comment line, the diff below the scissors line) is no word
    written in code: ``teh`` there does not keep the body's ``teh``; an indented line, which
    git keeps (code, output), still does."""
    message = tmp_path / "COMMIT_EDITMSG"
    text = (
        "Fix teh parser\n\nIt hangs when teh input is empty.\n\n"
        "# Please enter teh commit message for your changes.\n"
        "# ------------------------ >8 ------------------------\n"
        "diff --git a/p.py b/p.py\n+# teh parser\n"
    )
    message.write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    result = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "--write", str(message)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    body = text.split("\n\n#")[0]
    assert message.read_text("utf-8") == text.replace(body, body.replace("teh", "the"))
    # an indented line is the message's own code or output: its words are kept in the body
    kept = "Fix teh parser\n\nIt hangs when recieve waits:\n\n    recieve()\n"
    message.write_text(kept, encoding="utf-8")
    subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "--write", str(message)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        timeout=120,
        check=True,
    )
    assert message.read_text("utf-8") == kept.replace("Fix teh", "Fix the")
