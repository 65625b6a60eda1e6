"""``rephrase-ls improve`` (the real process): how it names files and standard input, what its
messages start with, and what it says of a broken or misspelled ``.rephrase.toml``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SLIP = "this is the the plan.\n"


def run(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env["XDG_CONFIG_HOME"] = str(ROOT / "tests" / "data" / "no-user-config")
    return subprocess.run(
        [sys.executable, "-m", "rephrase_ls", *args],
        cwd=cwd,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _project(tmp_path: Path, toml: str | None = None) -> Path:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    if toml is not None:
        (project / ".rephrase.toml").write_text(toml, encoding="utf-8")
    return project


def test_the_diff_of_an_absolute_path_reads_as_gits() -> None:
    """``a//tmp/x.txt`` was written for ``/tmp/x.txt``: git writes ``a/tmp/x.txt``."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        doc = Path(folder) / "x.txt"
        doc.write_text(SLIP, encoding="utf-8")
        result = run("improve", str(doc), cwd=Path(folder))
    assert result.returncode == 0, result.stderr
    relative = str(doc).lstrip("/")
    assert result.stdout.startswith(f"--- a/{relative}\n+++ b/{relative}\n"), result.stdout
    assert "//" not in result.stdout.splitlines()[0]


def test_standard_input_has_one_name(tmp_path: Path) -> None:
    """The diff, the change lines, the JSON report and every message call it ``<stdin>``."""
    project = _project(tmp_path)
    diff = run("improve", "-", cwd=project, stdin=SLIP)
    assert diff.stdout.startswith("--- <stdin>\n+++ <stdin>\n"), diff.stdout
    check = run("improve", "--check", "--verbose", "-", cwd=project, stdin=SLIP)
    assert check.returncode == 1
    assert check.stdout.splitlines()[0].startswith("<stdin>:1:1: ")
    assert "rephrase-ls: <stdin>: improvements available" in check.stderr.splitlines()
    assert "rephrase-ls: <stdin>: improved as en-US" in check.stderr
    write = run("improve", "--write", "-", cwd=project, stdin=SLIP)
    assert write.stderr == "rephrase-ls: <stdin>: improved\n"
    bad = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "improve", "-"],
        cwd=project,
        input=b"caf\xe9\n",
        capture_output=True,
    )
    assert bad.stderr.decode().startswith("rephrase-ls: <stdin>: not UTF-8")
    assert "standard input" not in diff.stderr + check.stderr + write.stderr


def test_every_message_starts_with_the_command_name(tmp_path: Path) -> None:
    """Written, checked, warned about and skipped: each line on standard error starts with
    ``rephrase-ls:`` (a settings warning started with ``rephrase:``, a written file's line and
    ``--check``'s with nothing)."""
    project = _project(tmp_path, 'maxConcurrency = "lots"\nexclude = ["skip.md"]\n')
    for name in ("a.md", "b.md", "skip.md"):
        (project / name).write_text(SLIP, encoding="utf-8")
    for mode in ("--check", "--write"):
        result = run("improve", mode, "a.md", "b.md", "skip.md", "nope.md", cwd=project)
        assert result.returncode == 2, result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) >= 5, lines  # warning, two files, the skipped one, the missing one
        assert all(line.startswith("rephrase-ls: ") for line in lines), lines
    assert "rephrase-ls: a.md: improved" in lines


def test_a_broken_project_file_says_where_and_what_to_do(tmp_path: Path) -> None:
    project = _project(tmp_path, 'tone = "casual"\nlanguage = en-GB\n')
    (project / "a.md").write_text(SLIP, encoding="utf-8")
    result = run("improve", "a.md", cwd=project)
    assert result.returncode == 0, result.stderr
    message = next(line for line in result.stderr.splitlines() if "TOML" in line)
    toml = project / ".rephrase.toml"
    assert message.startswith(f"rephrase-ls: {toml}:2: not valid TOML: invalid value"), message
    assert "'language = en-GB'" in message
    assert "ignored until it is fixed" in message and 'language = "en-GB"' in message
    assert "+This is the plan." in result.stdout  # the file is still improved, by the defaults


def test_a_misspelled_key_is_named_with_the_key_meant(tmp_path: Path) -> None:
    project = _project(tmp_path, 'langauge = "en-GB"\nwords = ["Zorbify"]\nfrobnicate = 1\n')
    for name in ("a.md", "b.md"):
        (project / name).write_text(SLIP, encoding="utf-8")
    result = run("improve", "a.md", "b.md", cwd=project)
    assert result.returncode == 0, result.stderr
    toml = project / ".rephrase.toml"
    lines = result.stderr.splitlines()
    # once for the run, not once per file
    assert (
        lines.count(
            f"rephrase-ls: {toml}: unknown key 'langauge' is ignored; did you mean 'language'?"
        )
        == 1
    ), lines
    assert any(f"{toml}: unknown key 'frobnicate' is ignored; the keys are" in x for x in lines)
    assert not any("words" in x for x in lines)  # a key the file may hold
