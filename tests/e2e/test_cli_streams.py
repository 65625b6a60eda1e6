"""``rephrase-ls improve``: standard input and output, a closed pipe, ``prefer_`` styles and
tones, and ``--convert`` checked before anything is sent."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from . import offline_service

ROOT = Path(__file__).resolve().parents[2]


def run(
    *args: str, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    base.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "rephrase_ls", *args],
        cwd=cwd,
        env=base,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@contextmanager
def failing_service() -> Iterator[dict[str, str]]:
    """The offline service on loopback, answering every request with a quota error (456); yields
    the environment that makes the CLI use it: any request sent shows in the output as "quota"."""
    with offline_service("--fail", "456:99") as url:
        yield {"REPHRASE_API_KEY": "k", "REPHRASE_SERVER_URL": url}


def test_stdin_to_stdout_with_write(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    result = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "--write", "-"],
        cwd=tmp_path,
        env=env,
        input=b"this is the the plan.\r\nIt works.\r\n",
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == b"This is the plan.\r\nIt works.\r\n"  # line breaks kept


def test_stdin_that_is_not_utf8_is_given_back_byte_for_byte(tmp_path: Path) -> None:
    """An editor filter (``:%!rephrase-ls improve --write -``) replaces its text with the
    output: text that cannot be read comes back as it was, not as nothing."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    latin1 = "this is the the café.\n".encode("latin-1")
    result = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "--write", "-"],
        cwd=tmp_path,
        env=env,
        input=latin1,
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 2
    message = b"rephrase-ls: <stdin>: not UTF-8 (line 1, byte 20); it looks like Latin-1"
    assert message in result.stderr
    assert result.stdout == latin1


def test_stdout_is_utf8_whatever_the_locale_says(tmp_path: Path) -> None:
    """What was read as UTF-8 is written as UTF-8, even when Python's standard output has
    another encoding (a Latin-1 or ASCII locale): nothing re-encoded, nothing lost."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    for encoding in ("ascii", "latin-1"):
        result = subprocess.run(
            [sys.executable, "-m", "rephrase_ls", "improve", "--write", "-"],
            cwd=tmp_path,
            env={**env, "PYTHONIOENCODING": encoding},
            input="this is the the plan for 東京 and the café.\n".encode(),
            capture_output=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout == "This is the plan for 東京 and the café.\n".encode()


def test_stdin_with_nothing_to_improve_is_printed_unchanged(tmp_path: Path) -> None:
    result = run(
        "improve", "--language", "en", "--write", "-", cwd=tmp_path, stdin="All good here.\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "All good here.\n"


def test_stdin_diff_and_check(tmp_path: Path) -> None:
    diff = run("improve", "-", cwd=tmp_path, stdin="this is the the plan.\n")
    assert diff.returncode == 0, diff.stderr
    assert diff.stdout.splitlines() == [
        "--- <stdin>",
        "+++ <stdin>",
        "@@ -1 +1 @@",
        "-this is the the plan.",
        "+This is the plan.",
    ]
    check = run("improve", "--check", "-", cwd=tmp_path, stdin="this is the the plan.\n")
    assert check.returncode == 1
    assert check.stdout.splitlines() == [
        "<stdin>:1:1: capitalisation: this → This",
        "<stdin>:1:9: doubled-word: the the → the",
    ]


def test_stdin_is_read_as_markdown_by_its_content(tmp_path: Path) -> None:
    text = (
        "# Usage\n\nimport it in the the shell.\n\n```python\n>>> import requests\n```\n\n"
        "Then the the rest.\n"
    )
    result = run("improve", "--language", "en", "--write", "-", cwd=tmp_path, stdin=text)
    assert result.returncode == 0, result.stderr
    # read as plain text, ">>> import requests" would be a sentence: ">>> Import requests"
    assert result.stdout == text.replace("the the", "the").replace("import it", "Import it")


def test_stdin_is_given_back_whole_when_the_service_fails(tmp_path: Path) -> None:
    with failing_service() as service:
        result = run(
            "improve", "--write", "-", cwd=tmp_path, stdin="this is the the plan.\n", env=service,
        )  # fmt: skip
    assert result.returncode == 2
    assert result.stdout == "this is the the plan.\n"
    assert "quota" in result.stderr.lower()


def test_standard_input_only_once(tmp_path: Path) -> None:
    result = run("improve", "-", "-", cwd=tmp_path, stdin="x\n")
    assert result.returncode == 2
    assert "standard input" in result.stderr


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    doc = tmp_path / "big.md"
    doc.write_text("this is is a test.\n\n" * 4000, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "rephrase_ls", "improve", str(doc)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # what `| head -1` does
    stderr = process.stderr.read().decode()
    status = process.wait(timeout=120)
    assert first.startswith(b"--- a/")
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr
    assert status == 141


def test_prefer_styles_and_tones_are_accepted(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("this is the the plan.\n", encoding="utf-8")
    for option in (("--style", "prefer_casual"), ("--tone", "PREFER_friendly")):
        result = run("improve", *option, str(doc), cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert "+This is the plan." in result.stdout or "+this" not in result.stdout
        assert result.stdout.startswith("--- a/")


def test_an_unknown_style_names_the_prefer_forms(tmp_path: Path) -> None:
    result = run("improve", "--style", "prefer_fancy", "x.md", cwd=tmp_path)
    assert result.returncode == 2
    assert "prefer_" in result.stderr and "casual" in result.stderr


def test_a_bad_variant_is_refused_before_anything_is_sent(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("this is the the plan.\n", encoding="utf-8")
    with failing_service() as service:
        bad = run(
            "improve", "--convert", "en-XX", "--write", str(doc), cwd=tmp_path, env=service,
        )  # fmt: skip
        assert bad.returncode == 2
        assert "cannot convert to 'en-XX'" in bad.stderr and "en-GB" in bad.stderr
        assert "quota" not in bad.stderr.lower()  # nothing was sent
    assert doc.read_text(encoding="utf-8") == "this is the the plan.\n"
    # the case of a good variant does not matter
    good = run("improve", "--convert", "en_gb", str(doc), cwd=tmp_path)
    assert good.returncode == 0, good.stderr
