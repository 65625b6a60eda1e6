"""The hooks of ``.pre-commit-hooks.yaml``, run by pre-commit itself in a temporary git
repository: the files hook on ``git commit`` (``--check`` fails the commit and says where), the
``commit-msg`` hook on a real ``git commit -m``.

Hermetic on purpose: a ``language: python`` hook makes pre-commit clone the hook repository and
``pip install`` it into a new virtual environment, which needs the package index (network) and
minutes. The test runs the README's copy-paste configuration instead, verbatim: the same hooks
as ``repo: local`` hooks of ``language: system``, run by the installed ``rephrase-ls`` (this
environment's, first on ``PATH``); and it checks that each of them is the manifest's hook (id,
name, entry, arguments, file types, stages). What pre-commit decides (which files, which stage,
which arguments) and what the command does with them are the real thing; only the installation
step differs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / ".pre-commit-hooks.yaml"
BIN = Path(sys.executable).parent

pytestmark = pytest.mark.skipif(
    shutil.which("git") is None or not (BIN / "pre-commit").exists(),
    reason="needs git and pre-commit (the test extra)",
)


def _hooks() -> list[dict[str, object]]:
    hooks: list[dict[str, object]] = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return hooks


def _readme_config() -> str:
    """The README's ``.pre-commit-config.yaml``, as printed there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"\n( *)```yaml\n(.*?)\n\1```", readme, re.S)
    configs = [
        "\n".join(line[len(indent) :] for line in block.splitlines())
        for indent, block in blocks
        if "rephrase-ls-commit-msg" in block
    ]
    assert len(configs) == 1, blocks
    return configs[0] + "\n"


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REPHRASE_", "GIT_"))}
    env.update(
        XDG_CONFIG_HOME=str(ROOT / "tests" / "data" / "no-user-config"),
        PRE_COMMIT_HOME=str(tmp_path / "pre-commit-cache"),
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Ann Example",
        GIT_AUTHOR_EMAIL="ann@example.org",
        GIT_COMMITTER_NAME="Ann Example",
        GIT_COMMITTER_EMAIL="ann@example.org",
        PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}",
    )
    return env


def _run(
    *args: str, cwd: Path, env: dict[str, str], check: bool = False
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    if check:
        assert done.returncode == 0, done.stdout + done.stderr
    return done


def test_the_manifest_is_valid_and_documented() -> None:
    done = subprocess.run(
        [str(BIN / "pre-commit"), "validate-manifest", str(MANIFEST)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    ids = [hook["id"] for hook in _hooks()]
    assert ids == ["rephrase-ls", "rephrase-ls-commit-msg"]
    (local,) = yaml.safe_load(_readme_config())["repos"]
    assert local["repo"] == "local"
    for published, documented in zip(_hooks(), local["hooks"], strict=True):
        assert documented.pop("language") == "system"
        assert published.pop("language") == "python"
        published.pop("description")
        assert documented == published


def test_hooks_on_real_commits(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    env = _env(tmp_path)
    _run("git", "init", "-q", "-b", "main", cwd=repo, env=env, check=True)
    (repo / ".pre-commit-config.yaml").write_text(_readme_config(), encoding="utf-8")
    (repo / ".rephrase.toml").write_text('exclude = ["CHANGELOG.md"]\n', encoding="utf-8")
    (repo / "guide.md").write_text("# Guide\n\nWe have recieved the reports.\n", encoding="utf-8")
    (repo / "CHANGELOG.md").write_text("# Changes\n\n- recieved fix\n", encoding="utf-8")
    (repo / "tool.py").write_text("# this is teh tool\n", encoding="utf-8")  # not a document
    for stage in ("pre-commit", "commit-msg"):
        _run("pre-commit", "install", "--hook-type", stage, cwd=repo, env=env, check=True)
    _run("git", "add", "-A", cwd=repo, env=env, check=True)

    # the files hook stops the commit and says where
    first = _run("git", "commit", "-q", "-m", "docs: add the guide", cwd=repo, env=env)
    assert first.returncode != 0
    out = first.stdout + first.stderr
    assert "rephrase-ls (prose)" in out and "Failed" in out
    assert "guide.md:3:9: spelling: recieved → received" in out
    assert "CHANGELOG.md" not in out.replace("CHANGELOG.md: skipped", "")  # excluded
    assert "tool.py" not in out  # not a document type the hook takes

    # fixed with --write (what args: [--write] in the config does), the files hook passes and
    # the commit-msg hook reads the message git wrote, conventions and all
    _run(str(BIN / "rephrase-ls"), "improve", "--write", "guide.md", cwd=repo, env=env, check=True)
    _run("git", "add", "-A", cwd=repo, env=env, check=True)
    message = "docs: add the the guide\n\nit explains the tool.\n\nSigned-off-by: Ann Exampel\n"
    second = _run("git", "commit", "-q", "-m", message, cwd=repo, env=env)
    assert second.returncode != 0
    out = second.stdout + second.stderr
    assert "rephrase-ls (prose)" in out and "Passed" in out
    assert "rephrase-ls (commit message)" in out
    assert "COMMIT_EDITMSG:1:11: doubled-word: the the → the" in out
    assert "Exampel" not in out  # a trailer is never changed
    assert _run("git", "rev-parse", "HEAD", cwd=repo, env=env).returncode != 0  # no commit
    # the files hook runs at its own stage only: no "Skipped" line at the commit-msg stage
    assert out.count("rephrase-ls (prose)") == 1 and "Skipped" not in out, out

    # the rejected message is kept where the README says, and its command brings it back
    assert (repo / ".git" / "COMMIT_EDITMSG").read_text(encoding="utf-8") == message
    fix = {**env, "GIT_EDITOR": "sed -i 's/the the guide/the guide/'"}
    third = _run("git", "commit", "-q", "-e", "-F", ".git/COMMIT_EDITMSG", cwd=repo, env=fix)
    assert third.returncode == 0, third.stdout + third.stderr
    log = _run("git", "log", "--format=%B", cwd=repo, env=env, check=True).stdout
    assert log.startswith("docs: add the guide\n")
