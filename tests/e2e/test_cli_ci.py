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
    assert given.stderr.startswith("rephrase-ls: <stdin>: improved as de (from --language)")


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


# 2. Clear errors and exit codes


def test_unreadable_inputs_name_the_file_and_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "latin1.txt").write_bytes("Le café est bon.\n".encode("latin-1"))
    (tmp_path / "cp1252.txt").write_bytes("It’s the plan.\n".encode("cp1252"))
    (tmp_path / "utf16.txt").write_bytes("It is the plan.\n".encode("utf-16"))
    (tmp_path / "utf16-no-mark.txt").write_bytes("It is the plan.\n".encode("utf-16-le"))
    (tmp_path / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
    (tmp_path / "file.md").write_text("Fine.\n", encoding="utf-8")
    names = ["latin1.txt", "cp1252.txt", "utf16.txt", "utf16-no-mark.txt", "image.png"]
    names += ["missing.md", "file.md/inside.md"]
    done = cli("improve", "--write", *names, cwd=tmp_path)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert lines == [
        "rephrase-ls: latin1.txt: not UTF-8 (line 1, byte 7); it looks like Latin-1 "
        "(ISO-8859-1). Convert it to UTF-8 (for example: iconv -f LATIN1 -t UTF-8) and run "
        "again. It was not changed.",
        "rephrase-ls: cp1252.txt: not UTF-8 (line 1, byte 3); it looks like Windows-1252. "
        "Convert it to UTF-8 (for example: iconv -f WINDOWS-1252 -t UTF-8) and run again. It "
        "was not changed.",
        "rephrase-ls: utf16.txt: not UTF-8 (line 1, byte 1); it looks like UTF-16. Convert it "
        "to UTF-8 (for example: iconv -f UTF-16 -t UTF-8) and run again. It was not changed.",
        "rephrase-ls: utf16-no-mark.txt: not UTF-8 (line 1, byte 1); it looks like UTF-16. "
        "Convert it to UTF-8 (for example: iconv -f UTF-16 -t UTF-8) and run again. It was not "
        "changed.",
        "rephrase-ls: image.png: not a text file (it holds binary data); rephrase-ls improves "
        "text files in UTF-8. It was not changed.",
        "rephrase-ls: missing.md: no such file or folder; check the name",
        "rephrase-ls: file.md/inside.md: a part of the path is a file, not a folder; check the "
        "path",
    ]
    assert (tmp_path / "latin1.txt").read_bytes() == "Le café est bon.\n".encode("latin-1")
    piped = cli("improve", "-", cwd=tmp_path, stdin="Ça va.\n".encode("latin-1"))
    assert piped.returncode == 2
    assert piped.stderr.startswith("rephrase-ls: <stdin>: not UTF-8 (line 1, byte 1)")


def test_exit_status_is_documented_and_kept(tmp_path: Path) -> None:
    helped = cli("improve", "--help", cwd=tmp_path)
    assert helped.returncode == 0
    assert "exit status:" in helped.stdout and "1  --check" in helped.stdout
    clean = tmp_path / "clean.md"
    clean.write_text("All good here.\n", encoding="utf-8")
    assert cli("improve", "--check", str(clean), cwd=tmp_path).returncode == 0
    slip = tmp_path / "slip.md"
    slip.write_text("This is the the plan.\n", encoding="utf-8")
    assert cli("improve", "--check", str(slip), cwd=tmp_path).returncode == 1
    usage = cli("improve", "--no-such-flag", str(slip), cwd=tmp_path)
    assert usage.returncode == 2 and "usage:" in usage.stderr


# 3. Folders

SLIP = "this is the the plan.\n"


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _checked(stderr: str) -> list[str]:
    """The files ``--check`` found improvements in, in the order it named them."""
    return [
        line.removeprefix("rephrase-ls: ").split(": improvements available")[0]
        for line in stderr.splitlines()
        if line.endswith(": improvements available")
    ]


def test_a_folder_is_walked_in_a_stable_order_skipping_what_git_ignores(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    _tree(
        tmp_path,
        {
            ".gitignore": "build/\n*.log.md\n!keep.log.md\n",
            "docs/.gitignore": "drafts/\n",
            "docs/z.md": SLIP,
            "docs/a.rst": SLIP,
            "docs/b/c.tex": SLIP,
            "docs/drafts/d.md": SLIP,
            "docs/x.log.md": SLIP,
            "docs/keep.log.md": SLIP,
            "docs/notes.txt": SLIP,
            "docs/README": SLIP,  # no format rephrase-ls reads by name or extension
            "docs/image.svg": SLIP,
            "docs/tool.py": "# " + SLIP,
            "docs/.hidden/h.md": SLIP,
            "build/out.md": SLIP,
        },
    )
    (tmp_path / "docs" / "elsewhere").symlink_to(tmp_path / "build")
    done = cli("improve", "--check", ".", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    expected = [
        "docs/a.rst",
        "docs/keep.log.md",
        "docs/notes.txt",
        "docs/tool.py",
        "docs/z.md",
        "docs/b/c.tex",
    ]
    assert _checked(done.stderr) == expected
    again = cli("improve", "--check", "docs", cwd=tmp_path)
    assert _checked(again.stderr) == expected
    # a folder named on purpose is walked though .gitignore names it
    named = cli("improve", "--check", "build", cwd=tmp_path)
    assert _checked(named.stderr) == ["build/out.md"]
    # and --write writes every file found
    written = cli("improve", "--write", "docs", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert (tmp_path / "docs/b/c.tex").read_text(encoding="utf-8") == "This is the plan.\n"
    assert (tmp_path / "docs/drafts/d.md").read_text(encoding="utf-8") == SLIP


def test_a_folder_with_nothing_to_read_and_a_folder_for_a_commit_message(tmp_path: Path) -> None:
    _tree(tmp_path, {"empty/image.svg": "<svg/>"})
    done = cli("improve", "--check", "empty", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "empty: no file of a format rephrase-ls reads here" in done.stderr
    message = cli("improve", "--commit-message", "empty", cwd=tmp_path)
    assert message.returncode == 2
    assert "empty: is a folder, where --commit-message needs the message's file" in message.stderr


# 4. exclude


def test_exclude_in_the_project_file_and_the_user_config_file(tmp_path: Path) -> None:
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    _tree(
        project,
        {
            ".rephrase.toml": 'exclude = ["CHANGELOG.md", "vendor/**"]\n',
            "CHANGELOG.md": SLIP,
            "docs/CHANGELOG.md": SLIP,
            "docs/guide.md": SLIP,
            "docs/generated/api.md": SLIP,
            "vendor/lib/README.md": SLIP,
            "vendored.md": SLIP,
        },
    )
    config = tmp_path / "config" / "rephrase-ls"
    config.mkdir(parents=True)
    (config / "config.toml").write_text('exclude = ["generated/"]\n', encoding="utf-8")
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config")}
    walked = cli("improve", "--check", ".", cwd=project, env=env)
    assert walked.returncode == 1, walked.stderr
    assert _checked(walked.stderr) == ["vendored.md", "docs/guide.md"]
    # a file named on the command line (as pre-commit names them) is skipped too, with a note
    named = cli("improve", "--check", "CHANGELOG.md", "docs/guide.md", cwd=project, env=env)
    assert named.returncode == 1, named.stderr
    assert "CHANGELOG.md: skipped: the exclude setting names it" in named.stderr
    assert _checked(named.stderr) == ["docs/guide.md"]
    # without the user config file, its pattern no longer applies
    alone = cli("improve", "--check", "docs", cwd=project)
    assert _checked(alone.stderr) == ["docs/guide.md", "docs/generated/api.md"]


def test_a_bad_exclude_value_is_reported_and_ignored(tmp_path: Path) -> None:
    _tree(tmp_path, {".rephrase.toml": "exclude = 3\n", "a.md": SLIP})
    done = cli("improve", "--check", ".", cwd=tmp_path)
    assert done.returncode == 1
    assert "exclude = 3 is not valid (expected a list of gitignore-style patterns" in done.stderr
    assert _checked(done.stderr) == ["a.md"]


# 5. Quiet by default; 6. --language

FRENCH = (
    "# Un guide\n\n"
    "Nous avons reçu beaucoup de messages de nos utilisateurs depuis le mois dernier.\n\n"
    "Le code de conduite s'applique à tous les participants du projet sans exception.\n\n"
    "Les contributions sont les bienvenues, mais veuillez lire le guide `CONTRIBUTING.md`.\n"
)
ENGLISH = (
    "We have recieved many messages from our users since last month, and we thank them.\n\n"
    "The code of conduct applies to all participants of the project without exception.\n"
)


def test_paragraphs_in_another_language_are_one_summary_line(tmp_path: Path) -> None:
    doc = tmp_path / "guide.md"
    doc.write_text(FRENCH, encoding="utf-8")
    quiet = cli("improve", "--convert", "en-US", str(doc), cwd=tmp_path)
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stderr.splitlines() == [
        f"rephrase-ls: {doc}: 3 paragraphs skipped: another language (--verbose names them)"
    ]
    assert quiet.stdout == ""
    told = cli("improve", "--verbose", "--language", "en", str(doc), cwd=tmp_path)
    assert told.returncode == 0, told.stderr
    lines = told.stderr.splitlines()
    assert lines[:2] == [
        f"rephrase-ls: {doc}: improved as en-US (from --language)",
        f"rephrase-ls: {doc}: 3 paragraphs skipped: another language",
    ]
    assert len(lines) == 5
    # each paragraph named by its line and its own words: the inline code, not a placeholder
    assert "paragraph 4 (line 7, “Les contributions sont les bienvenues, mais …”)" in lines[4]
    assert "it is in fr, not en-US" in lines[4]
    assert "{{" not in told.stderr
    assert doc.read_text(encoding="utf-8") == FRENCH


def test_no_placeholder_in_a_named_paragraph(tmp_path: Path) -> None:
    doc = tmp_path / "conduct.md"
    doc.write_text(
        ENGLISH + "\n`Ce code` de conduite s'applique à tous les participants du projet.\n",
        encoding="utf-8",
    )
    done = cli("improve", "--write", "--verbose", str(doc), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 paragraph skipped: another language" in done.stderr
    assert "(line 5, “`Ce code` de conduite s'applique à …”)" in done.stderr
    assert "{{" not in done.stderr
    assert "We have received many" in doc.read_text(encoding="utf-8")


def test_language_is_validated_like_every_other_value(tmp_path: Path) -> None:
    doc = tmp_path / "notes.md"
    doc.write_text(ENGLISH, encoding="utf-8")
    for bad in ("english", "nl", "xx-YY"):
        done = cli("improve", "--format", "json", "--language", bad, str(doc), cwd=tmp_path)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("usage: rephrase-ls improve"), done.stderr
        assert (
            f"rephrase-ls improve: error: argument --language: unknown language {bad!r}: "
            "expected one of de, en-GB, en-US, es, fr, it, pt-BR, pt-PT "
            "(the languages the service improves)"
        ) in done.stderr
        assert done.stdout == ""
    # a language the service improves, on a file in another one: each paragraph skipped
    german = cli("improve", "--check", "--language", "de", str(doc), cwd=tmp_path)
    assert german.returncode == 0, german.stderr
    assert "2 paragraphs skipped: another language" in german.stderr
    assert cli("improve", "--check", "--language", "EN_us", str(doc), cwd=tmp_path).returncode == 1


# 7. --format text | json | github


def test_formats_for_people_scripts_and_github(tmp_path: Path) -> None:
    import json

    (tmp_path / "docs").mkdir()
    doc = tmp_path / "docs" / "a, b.md"  # a comma: escaped in an annotation's properties
    original = "# Notes\n\nWe have recieved the reports and read the the notes.\n"
    doc.write_text(original, encoding="utf-8")
    name = "docs/a, b.md"
    text = cli("improve", "--check", name, cwd=tmp_path)
    assert text.returncode == 1, text.stderr
    assert text.stdout.splitlines() == [
        f"{name}:3:9: spelling: recieved → received",
        f"{name}:3:39: doubled-word: the the → the",
    ]
    as_json = cli("improve", "--check", "--format", "json", name, cwd=tmp_path)
    assert as_json.returncode == 1, as_json.stderr
    found = json.loads(as_json.stdout)
    assert found[0] == {
        "file": name,
        "line": 3,
        "column": 9,
        "end_line": 3,
        "end_column": 17,
        "code": "spelling",
        "original": "recieved",
        "replacement": "received",
        "message": "recieved → received",
    }
    assert [f["code"] for f in found] == ["spelling", "doubled-word"]
    github = cli("improve", "--format", "github", name, cwd=tmp_path)
    assert github.returncode == 0, github.stderr
    assert github.stdout.splitlines() == [
        "::warning file=docs/a%2C b.md,line=3,col=9,endLine=3,endColumn=17,"
        "title=rephrase-ls spelling::recieved → received (suggested: received)",
        "::warning file=docs/a%2C b.md,line=3,col=39,endLine=3,endColumn=46,"
        "title=rephrase-ls doubled-word::the the → the (suggested: the)",
    ]
    # a clean run prints an empty array; the file is never changed without --write
    clean = tmp_path / "clean.md"
    clean.write_text("All good here.\n", encoding="utf-8")
    empty = cli("improve", "--format", "json", "clean.md", cwd=tmp_path)
    assert empty.returncode == 0 and json.loads(empty.stdout) == []
    assert doc.read_text(encoding="utf-8") == original
    clash = cli("improve", "--write", "--format", "json", "-", cwd=tmp_path, stdin="Hi.\n")
    assert clash.returncode == 2 and "--format json prints the changes" in clash.stderr
