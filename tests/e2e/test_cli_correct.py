"""``rephrase-ls improve --correct`` in a real process: the embedded service, a loopback
service with ``/v2/write/correct``, and one without it (``--no-correct``: 404)."""

from __future__ import annotations

from pathlib import Path

from . import offline_service
from .test_cli import run

TEXT = "We use teh tool in order to check the text.\n\nThier reply came late.\n"
CORRECTED = "We use the tool in order to check the text.\n\nTheir reply came late.\n"


def _project(
    tmp_path: Path, url: str | None = None, scheme: str | None = None
) -> tuple[Path, dict[str, str]]:
    """A document in a project whose writing style is ``simple`` (which Correct never applies);
    with ``url``, the user config file names that service and a key is given."""
    tmp_path.mkdir(exist_ok=True)
    (tmp_path / ".rephrase.toml").write_text('writingStyle = "simple"\n', encoding="utf-8")
    doc = tmp_path / "notes.md"
    doc.write_text(TEXT, encoding="utf-8")
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    if url is not None:
        config = tmp_path / "config" / "rephrase-ls"
        config.mkdir(parents=True)
        lines = f'serverUrl = "{url}"\n' + (f'authScheme = "{scheme}"\n' if scheme else "")
        (config / "config.toml").write_text(lines, encoding="utf-8")
        env.update(REPHRASE_API_KEY="k-secret", XDG_CONFIG_HOME=str(tmp_path / "config"))
    return doc, env


def test_correct_keeps_the_wording_where_improve_rewrites(tmp_path: Path) -> None:
    doc, env = _project(tmp_path)
    check = run("improve", "--correct", "--check", str(doc), cwd=tmp_path, env=env)
    assert check.returncode == 1 and "corrections available" in check.stderr
    diff = run("improve", "--correct", str(doc), cwd=tmp_path, env=env)
    assert diff.returncode == 0, diff.stderr
    assert "+We use the tool in order to check the text." in diff.stdout
    improve = run("improve", str(doc), cwd=tmp_path, env=env)
    assert "+We use the tool to check the text." in improve.stdout
    write = run("improve", "--correct", "--write", str(doc), cwd=tmp_path, env=env)
    assert write.returncode == 0 and f"rephrase-ls: {doc}: corrected" in write.stderr
    assert doc.read_text(encoding="utf-8") == CORRECTED


def test_correct_over_loopback_and_without_the_endpoint(tmp_path: Path) -> None:
    with offline_service("--workers", "0") as url:
        doc, env = _project(tmp_path / "with", url)
        write = run("improve", "--correct", "--write", str(doc), cwd=doc.parent, env=env)
        assert write.returncode == 0, write.stderr
        assert doc.read_text(encoding="utf-8") == CORRECTED
    # The service as its documentation describes it today (its header scheme, the later lists).
    with offline_service("--workers", "0", "--as-documented") as url:
        doc, env = _project(tmp_path / "documented", url, "DeepL-Auth-Key")
        write = run("improve", "--correct", "--write", str(doc), cwd=doc.parent, env=env)
        assert write.returncode == 0, write.stderr
        assert doc.read_text(encoding="utf-8") == CORRECTED
    with offline_service("--workers", "0", "--no-correct") as url:
        doc, env = _project(tmp_path / "without", url)
        other = doc.parent / "other.md"
        other.write_text(TEXT, encoding="utf-8")
        result = run(
            "improve", "--correct", "--write", str(doc), str(other), cwd=doc.parent, env=env
        )
        assert result.returncode == 2
        assert "no corrections-only mode" in result.stderr and "Improve" in result.stderr
        assert result.stderr.count("no corrections-only mode") == 1
        assert "k-secret" not in result.stderr
        # Never a silent fallback: both files are as they were.
        assert doc.read_text(encoding="utf-8") == TEXT == other.read_text(encoding="utf-8")
        # Remembered in the state folder: the next run says so without asking the service.
        assert list((doc.parent / "state" / "rephrase-ls").glob("no-correct-*"))
        again = run("improve", "--correct", str(doc), cwd=doc.parent, env=env)
        assert again.returncode == 2 and "no corrections-only mode" in again.stderr


def test_correct_excludes_a_style_tone_or_conversion(tmp_path: Path) -> None:
    for flag in (["--style", "casual"], ["--tone", "friendly"], ["--convert", "en-GB"]):
        result = run("improve", "--correct", *flag, "x.md", cwd=tmp_path)
        assert result.returncode == 2
        assert "not allowed with argument" in result.stderr
