"""``rephrase-ls improve --write`` reads ``.typ`` files as Typst and ``.html``/``.htm`` files as
HTML (by extension): slips in prose are fixed; code, calls, link targets, math, scripts and the
prose the comment switches take out are left as they are."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TYPST = (
    "= Notes\n\n"
    "I recieved the letter yesterday, and I read it twice before dinner.\n\n"
    '#let note = "untill"\n'
    'Call `untill()` on $definately$, see #link("https://example.org/untill")[the page].\n\n'
    "// rephrase: off\nTheir reply was short, I beleive.\n// rephrase: on\n\n"
    "Thier reply came late.\n"
)
HTML = (
    "<html><head><title>untill</title><style>p { color: red; }</style></head><body>\n"
    "<p>I recieved the letter yesterday, and I read it twice before dinner.</p>\n"
    '<p>Call <code>untill()</code>, see <a href="https://example.org/untill">the page</a>.</p>\n'
    "<!-- rephrase: off -->\n<p>Their reply was short, I beleive.</p>\n<!-- rephrase: on -->\n"
    "<p>Thier reply came late.</p>\n</body></html>\n"
)


@pytest.mark.parametrize(("name", "text"), [("notes.typ", TYPST), ("page.htm", HTML)])
def test_write_fixes_prose_and_keeps_markup(tmp_path: Path, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    done = subprocess.run(
        [sys.executable, "-P", "-m", "rephrase_ls", "improve", "--write", str(path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert path.read_text(encoding="utf-8") == (
        text.replace("recieved", "received").replace("Thier", "Their")
    )


AMERICAN = "We need to organize the colors of this page before the meeting."


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("british.typ", f'#set text(lang: "en", region: "gb")\n\n{AMERICAN}\n'),
        ("british.html", f'<!DOCTYPE html>\n<html lang="en-GB">\n<body>\n<p>{AMERICAN}</p>\n'
         "</body></html>\n"),
    ],
)  # fmt: skip
def test_the_files_own_language_setting_is_its_language(
    tmp_path: Path, name: str, text: str
) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPHRASE_")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    done = subprocess.run(
        [sys.executable, "-P", "-m", "rephrase_ls", "improve", "--write", "--verbose", str(path)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"{name}: improved as en-GB (set in the file" in done.stderr
    assert path.read_text(encoding="utf-8") == (
        text.replace("organize the colors", "organise the colours")
    )
