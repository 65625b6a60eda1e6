"""``rephrase-ls improve --write`` in a repository someone else prepared.

Planted links at the temporary names, a file edited while the service is slow, read-only,
hard-linked and other users' files, and links leading out of the project: each either writes the
file as it should or refuses with a message, and nothing outside the project is touched.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rephrase_ls.safe_write import temp_names
from tests.e2e.cli_in_process import run_in_process


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``rephrase-ls ARGS`` with no REPHRASE_ settings from this environment (embedded service)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    return subprocess.run(
        [sys.executable, "-m", "rephrase_ls", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_here(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """As :func:`run`, inside this process (tests/e2e/cli_in_process.py)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    return run_in_process(*args, cwd=cwd, env=env)


ORIGINAL = "this is the the plan.\n"
IMPROVED = "This is the plan.\n"
VICTIM = "# the user's own file, outside the project\nexport PATH=$HOME/bin:$PATH\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A cloned repository: a folder with ``.git``, beside the user's home."""
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    return repo


def _victim(tmp_path: Path, name: str) -> Path:
    victim = tmp_path / "home" / name
    victim.write_text(VICTIM, encoding="utf-8")
    return victim


def _listing(folder: Path) -> set[str]:
    return {p.name for p in folder.iterdir()}


def test_links_planted_at_all_but_one_temp_name_are_not_followed(
    project: Path, tmp_path: Path
) -> None:
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    names = temp_names(doc.name)
    assert names[0] == ".notes.md.rephrase-tmp"  # the old fixed name is the first one tried
    victims: dict[str, Path] = {}
    for i, name in enumerate(names[:-1]):
        # Half lead to existing files, half to names that do not exist yet.
        target = _victim(tmp_path, f".bashrc{i}") if i % 2 else tmp_path / "home" / f"new{i}"
        (project / name).symlink_to(target)
        victims[name] = target
    before = _listing(project)
    result = run_here("improve", "--write", str(doc), cwd=project)
    assert result.returncode == 0, result.stderr
    assert doc.read_text(encoding="utf-8") == IMPROVED
    for name, target in victims.items():
        assert (project / name).is_symlink() and os.readlink(project / name) == str(target)
        if target.name.startswith("new"):
            assert not target.exists(), f"{name} was followed"
        else:
            assert target.read_text(encoding="utf-8") == VICTIM, f"{name} was followed"
    assert _listing(project) == before  # the one temporary file used was renamed away


def test_every_temp_name_taken_refuses_and_follows_none(project: Path, tmp_path: Path) -> None:
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    bashrc = _victim(tmp_path, ".bashrc")
    for name in temp_names(doc.name):
        (project / name).symlink_to(bashrc)
    result = run_here("improve", "--write", str(doc), cwd=project)
    assert result.returncode == 2
    assert "cannot create a temporary file" in result.stderr
    assert "remove them" in result.stderr and "Nothing was written" in result.stderr
    assert doc.read_text(encoding="utf-8") == ORIGINAL
    assert bashrc.read_text(encoding="utf-8") == VICTIM


def test_a_link_out_of_the_project_is_refused(project: Path, tmp_path: Path) -> None:
    diary = tmp_path / "home" / "diary.md"
    diary.write_text(ORIGINAL, encoding="utf-8")  # prose the service would improve
    link = project / "README.md"
    link.symlink_to(diary)
    result = run_here("improve", "--write", str(link), cwd=project)
    assert result.returncode == 2
    assert f"is a symbolic link to {diary}" in result.stderr
    assert "outside the project" in result.stderr and "it was not read" in result.stderr
    assert diary.read_text(encoding="utf-8") == ORIGINAL
    # Reading is refused too: what --diff or --check read would go to the service (a link
    # planted as docs/x.md -> ~/.aws/credentials would send the user's keys).
    for mode in ((), ("--diff",), ("--check",)):
        shown = run_here("improve", *mode, str(link), cwd=project)
        assert shown.returncode == 2, (mode, shown.stderr)
        assert f"{link} is a symbolic link to {diary}" in shown.stderr
        assert "outside the project" in shown.stderr and "not read" in shown.stderr
        assert shown.stdout == ""
    # The target named by its own path is the user's choice: it is read.
    own = run_here("improve", str(diary), cwd=project)
    assert own.returncode == 0 and "+This is the plan." in own.stdout


def test_a_folder_link_out_of_the_project_is_not_read(project: Path, tmp_path: Path) -> None:
    """``docs -> ~/.aws`` in a clone: ``docs/credentials`` is not read (nor sent), in any mode;
    a file of the project given in the same run still is."""
    secret = _victim(tmp_path, "credentials")
    (project / "docs").symlink_to(secret.parent)
    own = project / "notes.md"
    own.write_text(ORIGINAL, encoding="utf-8")
    for mode in ("--diff", "--check", "--write"):
        result = run_here("improve", mode, "docs/credentials", "notes.md", cwd=project)
        assert result.returncode == 2, (mode, result.stderr)
        assert f"docs/credentials is a symbolic link to {secret}" in result.stderr
        assert "not read" in result.stderr
        assert "export PATH" not in result.stdout
        assert secret.read_text(encoding="utf-8") == VICTIM
    assert own.read_text(encoding="utf-8") == IMPROVED  # written by the --write run


def test_read_only_file_is_refused_and_unchanged(project: Path) -> None:
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    doc.chmod(0o444)
    result = run_here("improve", "--write", str(doc), cwd=project)
    assert result.returncode == 2
    assert "is read-only" in result.stderr and "nothing was written" in result.stderr
    assert doc.read_text(encoding="utf-8") == ORIGINAL
    assert doc.stat().st_mode & 0o777 == 0o444


def test_mode_is_kept(project: Path) -> None:
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    doc.chmod(0o604)
    result = run_here("improve", "--write", str(doc), cwd=project)
    assert result.returncode == 0, result.stderr
    assert doc.read_text(encoding="utf-8") == IMPROVED
    assert doc.stat().st_mode & 0o7777 == 0o604


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file away needs root"
)
def test_owner_and_group_are_kept(project: Path) -> None:
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    os.chown(doc, 4321, 4322)
    result = run_here("improve", "--write", str(doc), cwd=project)
    assert result.returncode == 0, result.stderr
    assert doc.read_text(encoding="utf-8") == IMPROVED
    st = doc.stat()
    assert (st.st_uid, st.st_gid) == (4321, 4322)


def test_hard_linked_file_is_refused_and_keeps_its_links(project: Path) -> None:
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    other = project / "copy.md"
    os.link(doc, other)
    result = run_here("improve", "--write", str(doc), cwd=project)
    assert result.returncode == 2
    assert "has 2 hard links" in result.stderr and "nothing was written" in result.stderr
    assert doc.read_text(encoding="utf-8") == ORIGINAL
    assert os.path.samefile(doc, other) and doc.stat().st_nlink == 2


def _established(port: int) -> bool:
    """Whether a TCP connection to ``port`` on loopback is open (Linux's /proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        remote, state = fields[2], fields[3]
        address, remote_port = remote.split(":")
        if state == "01" and address == "0100007F" and int(remote_port, 16) == port:
            return True  # a client's side of a connection to 127.0.0.1:port
    return False


@pytest.fixture
def slow_service() -> Iterator[tuple[str, int]]:
    """The offline service on loopback, answering each rephrase request after 1.5 s (the
    tests act within milliseconds of the connection)."""
    service = subprocess.Popen(
        [sys.executable, "-m", "rephrase_ls", "offline-service", "--port", "0",
         "--latency", "1500", "--workers", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )  # fmt: skip
    try:
        assert service.stdout is not None
        found = re.search(r"(http://\S+):(\d+)", service.stdout.readline())
        assert found, "the service did not start"
        yield f"{found.group(1)}:{found.group(2)}", int(found.group(2))
    finally:
        service.terminate()
        service.wait(timeout=10)


def _pointed_at(url: str) -> dict[str, str]:
    """Make the CLI use the service at ``url``: the address and the key in the environment."""
    return {"REPHRASE_API_KEY": "k-test", "REPHRASE_SERVER_URL": url}


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
def test_a_line_typed_while_the_service_is_slow_survives(
    project: Path, slow_service: tuple[str, int]
) -> None:
    url, port = slow_service
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env.update(_pointed_at(url))
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    cli = subprocess.Popen(
        [sys.executable, "-m", "rephrase_ls", "improve", "--write", str(doc)],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # The CLI reads the file before it connects; once connected it waits 1.5 s for the answer.
        deadline = time.monotonic() + 60
        while not _established(port):
            assert cli.poll() is None, cli.communicate()
            assert time.monotonic() < deadline, "the CLI never reached the service"
            time.sleep(0.02)
        with open(doc, "a", encoding="utf-8") as fh:
            fh.write("A line the user typed meanwhile.\n")
        _out, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert cli.returncode == 2, err
    assert "changed while rephrase-ls was working on it" in err
    assert "nothing was written" in err
    assert doc.read_text(encoding="utf-8") == ORIGINAL + "A line the user typed meanwhile.\n"
    assert _listing(project) == {".git", "notes.md"}  # no temporary file left


def test_the_file_replaced_by_a_link_meanwhile_is_not_written_through(
    project: Path, tmp_path: Path, slow_service: tuple[str, int]
) -> None:
    """Between reading and writing, the file becomes a link to a file outside: refused."""
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs Linux's /proc/net/tcp")
    url, port = slow_service
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env.update(_pointed_at(url))
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    # Named like the document, so the link is read as Markdown should the CLI look at it again.
    diary = _victim(tmp_path, "diary.md")
    cli = subprocess.Popen(
        [sys.executable, "-m", "rephrase_ls", "improve", "--write", str(doc)],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not _established(port):
            assert cli.poll() is None, cli.communicate()
            assert time.monotonic() < deadline, "the CLI never reached the service"
            time.sleep(0.02)
        doc.unlink()
        doc.symlink_to(diary)
        _out, err = cli.communicate(timeout=60)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert cli.returncode == 2, err
    assert "nothing was written" in err
    assert diary.read_text(encoding="utf-8") == VICTIM
    assert doc.is_symlink()


def test_a_link_to_another_repository_is_refused(project: Path, tmp_path: Path) -> None:
    """A folder link in the clone leading into another project (one with its own ``.git``,
    as a sibling checkout is): that project's root is not the clone's, so nothing is written
    there, whether the link is the other project's root or a folder above it."""
    sibling = tmp_path / "home" / "src" / "mine"
    (sibling / ".git").mkdir(parents=True)
    theirs = sibling / "README.md"
    theirs.write_text(ORIGINAL, encoding="utf-8")
    (project / "docs").symlink_to(sibling)
    (project / "vendor").symlink_to(sibling.parent)
    for named in ("docs/README.md", "vendor/mine/README.md"):
        result = run_here("improve", "--write", named, cwd=project)
        assert result.returncode == 2, result.stderr
        assert f"is a symbolic link to {theirs}" in result.stderr
        assert "it was not read" in result.stderr
        assert theirs.read_text(encoding="utf-8") == ORIGINAL
    # The other project's own path is its own root: written there.
    result = run_here("improve", "--write", str(theirs), cwd=project)
    assert result.returncode == 0, result.stderr
    assert theirs.read_text(encoding="utf-8") == IMPROVED


def test_a_link_to_a_device_is_not_read(project: Path) -> None:
    """``README.md -> /dev/zero`` and a FIFO ``pipe.md`` in a clone: reported at once, not read
    until memory runs out or waited on; the other files named are still improved."""
    (project / "README.md").symlink_to("/dev/zero")
    os.mkfifo(project / "pipe.md")
    doc = project / "notes.md"
    doc.write_text(ORIGINAL, encoding="utf-8")
    result = run("improve", "README.md", "pipe.md", "notes.md", cwd=project)
    assert result.returncode == 2
    assert "README.md is a symbolic link to /dev/zero" in result.stderr
    assert "pipe.md: not a regular file (a device, a pipe or a socket)" in result.stderr
    assert "+This is the plan." in result.stdout


def test_a_folder_link_out_of_an_archive_without_marker_is_refused(tmp_path: Path) -> None:
    """An unpacked archive (no ``.git``, no ``.rephrase.toml``) whose ``docs`` is a link to
    the user's home: ``docs/README.md`` is not written there; a file of the archive is."""
    archive = tmp_path / "unpacked"
    archive.mkdir()
    (tmp_path / "home").mkdir()
    theirs = _victim(tmp_path, "README.md")
    theirs.write_text(ORIGINAL, encoding="utf-8")
    (archive / "docs").symlink_to(theirs.parent)
    result = run_here("improve", "--write", "docs/README.md", cwd=archive)
    assert result.returncode == 2, result.stderr
    assert f"is a symbolic link to {theirs}" in result.stderr
    assert theirs.read_text(encoding="utf-8") == ORIGINAL
    own = archive / "notes.md"
    own.write_text(ORIGINAL, encoding="utf-8")
    result = run_here("improve", "--write", "notes.md", cwd=archive)
    assert result.returncode == 0, result.stderr
    assert own.read_text(encoding="utf-8") == IMPROVED
