"""``rephrase-ls improve`` on files, and the README's main-job command."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.cli_in_process import run_in_process

from . import offline_service

ROOT = Path(__file__).resolve().parents[2]


def run(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    # No user config file unless a test writes one (the developer's own must not take part).
    base["XDG_CONFIG_HOME"] = str(ROOT / "tests" / "data" / "no-user-config")
    base.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "rephrase_ls", *args],
        cwd=cwd or ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_here(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """As :func:`run`, inside this process (tests/e2e/cli_in_process.py): for the tests about
    what the command does and says; the README's command, ``--check``/``--write``, ``serve`` and
    the standard streams (test_cli_streams.py) start the real process."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    base["XDG_CONFIG_HOME"] = str(ROOT / "tests" / "data" / "no-user-config")
    base.update(env or {})
    return run_in_process(*args, cwd=cwd or ROOT, env=base)


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```sh\n(.*?)\n```", text, re.S)


def test_readme_gives_exactly_two_commands_and_the_main_job_runs() -> None:
    commands = readme_commands()
    assert len(commands) == 2, commands
    main_job, tests = commands
    assert main_job.startswith("python3 -m venv .venv") and "rephrase-ls improve" in main_job
    assert tests.startswith("python3 -m venv .venv") and "pytest" in tests
    # The part after set-up, run with this environment's interpreter.
    improve = main_job.split("&& .venv/bin/rephrase-ls ", 1)[1].split()
    result = run(*improve)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("--- a/examples/sample.md\n+++ b/examples/sample.md\n")
    # Prose is improved, code is not.
    assert "+We received many reports" in result.stdout
    assert 'return "hello , " + name' not in "".join(
        line for line in result.stdout.splitlines() if line.startswith(("+", "-"))
    )


def test_check_and_write(tmp_path: Path) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text("this is the the plan.\n\nAll good here.\n", encoding="utf-8")
    check = run("improve", "--check", str(doc), cwd=tmp_path)
    assert check.returncode == 1
    assert "improvements available" in check.stderr
    write = run("improve", "--write", str(doc), cwd=tmp_path)
    assert write.returncode == 0, write.stderr
    assert doc.read_text(encoding="utf-8") == "This is the plan.\n\nAll good here.\n"
    again = run("improve", "--check", str(doc), cwd=tmp_path)
    assert again.returncode == 0, again.stderr


def test_crlf_is_kept(tmp_path: Path) -> None:
    doc = tmp_path / "crlf.txt"
    doc.write_bytes(b"this is the the plan.\r\nit spans two lines.\r\n")
    result = run_here("improve", "--write", str(doc), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert doc.read_bytes() == b"This is the plan.\r\nIt spans two lines.\r\n"


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = run("improve", str(tmp_path / "nope.md"), cwd=tmp_path)
    assert result.returncode == 2
    assert "nope.md: no such file or folder; check the name" in result.stderr
    assert "Errno" not in result.stderr


def test_project_file_settings_and_bad_values(tmp_path: Path) -> None:
    (tmp_path / ".rephrase.toml").write_text(
        'writingStyle = "casual"\nmaxConcurrency = "lots"\napiKey = "secret-in-project"\n',
        encoding="utf-8",
    )
    doc = tmp_path / "a.md"
    doc.write_text("We do not need it. It is not ready.\n", encoding="utf-8")
    result = run_here("improve", str(doc), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "maxConcurrency = 'lots' is not valid" in result.stderr
    assert "apiKey is ignored" in result.stderr
    assert "secret-in-project" not in result.stderr + result.stdout
    assert "+We don't need it." in result.stdout  # the casual style contracts


def test_a_project_file_cannot_pick_the_key_variable(tmp_path: Path) -> None:
    """A cloned repository's ``apiKeyEnv = "GITHUB_TOKEN"`` with its own ``serverUrl``: the
    token is not taken as the key (nothing is sent there); the embedded service answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    (tmp_path / ".rephrase.toml").write_text(
        f'apiKeyEnv = "GITHUB_TOKEN"\nserverUrl = "http://127.0.0.1:{port}"\ntimeout = 1\n',
        encoding="utf-8",
    )
    doc = tmp_path / "a.md"
    doc.write_text("this is the the plan.\n", encoding="utf-8")
    try:
        result = run_here("improve", str(doc), cwd=tmp_path, env={"GITHUB_TOKEN": "ghp_not_a_key"})
        with pytest.raises(TimeoutError):
            listener.accept()  # nobody connected to the project's service
    finally:
        listener.close()
    assert result.returncode == 0, result.stderr
    assert "apiKeyEnv, serverUrl are ignored" in result.stderr
    assert "+This is the plan." in result.stdout
    assert "ghp_not_a_key" not in result.stderr + result.stdout


def test_service_error_leaves_the_file_alone(tmp_path: Path) -> None:
    with offline_service("--fail", "456:5") as url:
        config = tmp_path / "config" / "rephrase-ls"  # the user config file names the service
        config.mkdir(parents=True)
        (config / "config.toml").write_text(f'serverUrl = "{url}"\n', encoding="utf-8")
        doc = tmp_path / "a.md"
        doc.write_text("this is the the plan.\n", encoding="utf-8")
        env = {"REPHRASE_API_KEY": "k-secret", "XDG_CONFIG_HOME": str(tmp_path / "config")}
        result = run_here("improve", "--write", str(doc), cwd=tmp_path, env=env)
    assert result.returncode == 2
    assert "quota" in result.stderr.lower()
    assert "was not changed" in result.stderr
    assert "k-secret" not in result.stderr
    assert doc.read_text(encoding="utf-8") == "this is the the plan.\n"


def test_style_and_tone_exclude_each_other(tmp_path: Path) -> None:
    result = run_here("improve", "--style", "casual", "--tone", "friendly", "x.md", cwd=tmp_path)
    assert result.returncode == 2
    assert "not allowed with argument" in result.stderr


def test_the_server_accepts_stdio_flag_as_clients_pass_it() -> None:
    import json

    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    ).encode()
    message = b"Content-Length: %d\r\n\r\n" % len(body) + body
    exit_body = json.dumps({"jsonrpc": "2.0", "method": "exit"}).encode()
    message += b"Content-Length: %d\r\n\r\n" % len(exit_body) + exit_body
    result = subprocess.run(
        [sys.executable, "-m", "rephrase_ls", "--stdio"],
        input=message,
        capture_output=True,
        timeout=60,
    )
    assert b'"resolveProvider": true' in result.stdout, result.stderr[-2000:]


def test_write_keeps_permissions_and_writes_through_links(tmp_path: Path) -> None:
    real = tmp_path / "real.sh.md"
    real.write_text("this is the the plan.\n", encoding="utf-8")
    real.chmod(0o755)
    link = tmp_path / "link.md"
    link.symlink_to(real)
    result = run_here("improve", "--write", str(link), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == "This is the plan.\n"
    assert real.stat().st_mode & 0o777 == 0o755


def test_an_unusable_key_is_a_clear_error_that_never_shows_the_key(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("this is the the plan.\n", encoding="utf-8")
    for key in ("has space-secret", "nön-ascii-secret"):
        result = run_here("improve", str(doc), cwd=tmp_path, env={"REPHRASE_API_KEY": key})
        assert result.returncode == 2
        assert "REPHRASE_API_KEY is not valid" in result.stderr
        assert "secret" not in result.stderr and "Traceback" not in result.stderr


def test_bad_language_and_tcp_arguments_are_clear_errors(tmp_path: Path) -> None:
    doc = tmp_path / "a.md"
    doc.write_text("this is the the plan.\n", encoding="utf-8")
    result = run("improve", "--language", "xx", str(doc), cwd=tmp_path)
    assert result.returncode == 2
    assert "argument --language: unknown language 'xx': expected one of de," in result.stderr
    for bad in ("foo", "127.0.0.1:99999"):
        result = run("serve", "--tcp", bad, cwd=tmp_path)
        assert result.returncode == 2
        assert "expected HOST:PORT" in result.stderr and "Traceback" not in result.stderr


def test_an_unsupported_language_is_left_alone_with_advice(tmp_path: Path) -> None:
    doc = tmp_path / "nl.md"
    text = "De trein vertrekt elke tien minuten van het station naar de stad en weer terug.\n"
    doc.write_text(text, encoding="utf-8")
    result = run_here("improve", "--write", str(doc), cwd=tmp_path)
    assert result.returncode == 2
    assert "--language" in result.stderr and "was not changed" in result.stderr
    assert "X-Trace-ID" not in result.stderr  # the library's log lines are not repeated
    assert doc.read_text(encoding="utf-8") == text


def test_a_file_whose_only_prose_is_a_title_is_skipped_not_failed(tmp_path: Path) -> None:
    """A changelog whose prose is its title says too little to tell its language: it is read
    as English (the default variant), and a run over many files (``--check`` in CI) goes on
    and succeeds."""
    title = tmp_path / "changes.md"
    title.write_text("# Changes\n\n```\nv1.0.0\n```\n", encoding="utf-8")
    doc = tmp_path / "notes.md"
    doc.write_text("this is the the plan for the week ahead of us.\n", encoding="utf-8")
    check = run_here("improve", "--check", "--verbose", str(title), cwd=tmp_path)
    assert check.returncode == 0, check.stderr
    assert "changes.md: improved as en-US (too little prose to detect it" in check.stderr
    both = run_here("improve", "--write", str(title), str(doc), cwd=tmp_path)
    assert both.returncode == 0, both.stderr
    assert doc.read_text(encoding="utf-8") == "This is the plan for the week ahead of us.\n"
    assert title.read_text(encoding="utf-8") == "# Changes\n\n```\nv1.0.0\n```\n"


def test_markup_too_deep_to_read_is_a_clear_error_and_the_run_goes_on(tmp_path: Path) -> None:
    deep = tmp_path / "deep.tex"
    deep.write_text("\\begin{document}" + "{" * 5000 + "x" + "}" * 5000 + "\\end{document}\n")
    doc = tmp_path / "notes.md"
    doc.write_text("this is the the plan for the week ahead of us.\n", encoding="utf-8")
    result = run_here("improve", "--write", str(deep), str(doc), cwd=tmp_path)
    assert result.returncode == 2
    assert "deep.tex: this LaTeX document nests groups or environments too deeply" in result.stderr
    assert "Traceback" not in result.stderr
    assert doc.read_text(encoding="utf-8") == "This is the plan for the week ahead of us.\n"


def test_a_passage_in_another_language_is_left_alone_and_the_rest_improved(tmp_path: Path) -> None:
    doc = tmp_path / "mixed.md"
    quote = (
        "> Wir müssen die Farben dieser Seite vor dem Treffen morgen früh noch einmal "
        "gründlich besprechen."
    )
    doc.write_text(
        "We need to organize the the colors of this page before the meeting starts.\n\n"
        f"{quote}\n\nthis is the end of the the document.\n",
        encoding="utf-8",
    )
    result = run("improve", "--write", "--verbose", str(doc), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "mixed.md: 1 paragraph skipped: another language\n" in result.stderr
    assert "paragraph 2 (line 3" in result.stderr and "it is in de" in result.stderr
    assert doc.read_text(encoding="utf-8") == (
        "We need to organize the colors of this page before the meeting starts.\n\n"
        f"{quote}\n\nThis is the end of the document.\n"
    )


def test_what_the_readme_says_improve_does_with_in_order_to(tmp_path: Path) -> None:
    """The README tells what Improve does on the embedded offline service: plain Improve keeps
    "in order to" (it fixes, it does not reword), Improve: simple makes it "to"."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert (
        "embedded offline service fixes spelling, grammar, punctuation and spacing and keeps "
        'the wording: "in order to" stays), **Improve: simple** (also shortens wordy phrases: '
        '"in order to" → "to")' in readme
    )
    doc = tmp_path / "a.md"
    doc.write_text("We use the tool in order to check the text.\n", encoding="utf-8")
    plain = run("improve", str(doc), cwd=tmp_path)
    assert plain.returncode == 0 and plain.stdout == "", plain.stdout + plain.stderr
    simple = run("improve", "--style", "simple", str(doc), cwd=tmp_path)
    assert "+We use the tool to check the text." in simple.stdout, simple.stdout + simple.stderr
