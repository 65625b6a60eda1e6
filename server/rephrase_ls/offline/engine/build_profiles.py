"""Build ``text/data/profiles.json.gz``, the language-detection profiles of ``text.detect``,
from pyspellchecker's lists.

Run ``python -m rephrase_ls.offline.engine.build_profiles`` after upgrading pyspellchecker. Each
profile keeps the most frequent words of a language with their counts; the detector scores a
text by the log-probability of its words under each profile.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from .spelling import LANGUAGES, load_frequencies

PROFILE_SIZE = 6000
OUTPUT = Path(__file__).parents[2] / "text" / "data" / "profiles.json.gz"


def build(size: int = PROFILE_SIZE) -> dict[str, dict[str, int]]:
    """Return the top ``size`` words (by count) of each supported language."""
    profiles: dict[str, dict[str, int]] = {}
    for lang in LANGUAGES:
        freq = load_frequencies(lang)
        top = sorted(freq.items(), key=lambda kv: (-kv[1], kv[0]))[:size]
        profiles[lang] = dict(top)
    return profiles


def main() -> None:
    """Write the profiles file deterministically."""
    data = json.dumps(build(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    with gzip.GzipFile(OUTPUT, "wb", mtime=0) as fh:
        fh.write(data.encode("utf-8"))
    print(f"wrote {OUTPUT} ({OUTPUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
