"""Regenerate ``server/rephrase_ls/offline/engine/data/software-terms.txt``, the software terms
the English spelling engine never corrects and review mode's ``unknown-word`` hint takes as
known (:func:`rephrase_ls.offline.engine.software_terms.software_terms`),
from cspell's ``@cspell/dict-software-terms`` package on npm (MIT licence, Street Side
Software), and its licence beside it (``software-terms.LICENSE``).

Kept: the lower-case, letters-only entries of the package's word lists :data:`LISTS`
(``deserialization``, ``hashmap``); entries with a capital are names (``Ackermann``), which
the hint never marks, and entries with digits or other marks are code, which the tokenizer
protects. Left out: the package's ``cspell-corrections.yaml`` (misspellings, not words), its
compound fragments, POSIX names and the ``!``-forbidden or ``*``-affix entries cspell's format
allows. Needs ``npm`` (``npm pack`` fetches the tarball; nothing is installed)::

    .venv/bin/python bench/make_software_terms.py [--version 5.4.9]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Final

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "server" / "rephrase_ls" / "offline" / "engine" / "data"
PACKAGE: Final = "@cspell/dict-software-terms"
VERSION: Final = "5.4.9"
#: The package's word lists that are taken (its ``dict/`` folder).
LISTS: Final = (
    "softwareTerms.txt.gz",
    "software-tools.txt",
    "networkingTerms.txt",
    "webServices.txt",
    "computing-acronyms.txt",
    "software-terms-alternative.txt",
)
_WORD = re.compile(r"^[a-z]+$")


def _lines(data: bytes) -> list[str]:
    return [
        line.strip()
        for line in data.decode("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", default=VERSION)
    args = parser.parse_args()
    spec = f"{PACKAGE}@{args.version}"
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["npm", "pack", "--json", spec], cwd=tmp, capture_output=True, text=True, check=False
        )
        if done.returncode:
            raise SystemExit(f"npm pack {spec} failed: {done.stderr.strip()}")
        tarball = Path(tmp) / json.loads(done.stdout)[0]["filename"]
        with tarfile.open(tarball) as archive:

            def read(name: str) -> bytes:
                member = archive.extractfile(f"package/{name}")
                if member is None:
                    raise SystemExit(f"{spec} has no {name}")
                return member.read()

            meta = json.loads(read("package.json"))
            licence = read("LICENSE").decode("utf-8")
            words: set[str] = set()
            for name in LISTS:
                data = read(f"dict/{name}")
                if name.endswith(".gz"):
                    data = gzip.decompress(data)
                words.update(w for w in _lines(data) if _WORD.match(w))
    if meta.get("license") != "MIT":
        raise SystemExit(f"{spec}: licence {meta.get('license')!r}, expected MIT: check it")
    header = [
        f"# {meta['name']} {meta['version']} (npm), {meta.get('homepage', '')}",
        f"# licence: {meta['license']}, software-terms.LICENSE beside this file",
        "# the lower-case letters-only entries of: " + ", ".join(LISTS),
        "# regenerate: .venv/bin/python bench/make_software_terms.py",
    ]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "software-terms.txt").write_text(
        "\n".join(header + sorted(words)) + "\n", encoding="utf-8"
    )
    (OUT / "software-terms.LICENSE").write_text(licence, encoding="utf-8")
    print(f"{len(words)} words from {spec} -> {OUT / 'software-terms.txt'}")


if __name__ == "__main__":
    main()
