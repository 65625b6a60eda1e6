"""How often words are written: wordfreq's large word lists, packed for lookups.

wordfreq (PyPI; data CC BY-SA 4.0, from Wikipedia, subtitles, news, books, web text, Reddit
and Twitter) lists each language's words seen at least about once in 10^8 words, technical
words included ("stdin", "structs", "refactor"), with their frequency in centibels. The
spelling corrector asks it two things: how common the word as written is, and how common a
candidate is (:func:`zipf`).

A language's list holds some 300,000 words. Kept as Python strings in a dict it would cost
about 40 MB; here each word is one 64-bit integer in a sorted ``array``: the word's
``hash()`` (this process's, computed at load) with its low ten bits replaced by its
frequency bucket. A lookup is a binary search. Two words share a key only when their hashes
agree in 54 bits (about one lookup in 10^11 for a 300,000-word list); the cost of such a
collision is a word taken as known, which the corrector then leaves alone.
"""

from __future__ import annotations

import gzip
import importlib.util
import io
import threading
from array import array
from bisect import bisect_left
from pathlib import Path
from typing import Final

_BUCKET_BITS: Final = 10
_BUCKET_MASK: Final = (1 << _BUCKET_BITS) - 1
_KEY_MASK: Final = ~_BUCKET_MASK
_lock = threading.Lock()
_tables: dict[str, array[int]] = {}


def package_file(package: str, *parts: str) -> Path:
    """A data file of an installed package, found without importing the package (importing
    wordfreq brings in regex, ftfy and langcodes: some 15 MB). Raises ``FileNotFoundError``
    when the package or the file is missing."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"the package {package!r} is not installed")
    path = Path(next(iter(spec.submodule_search_locations)), *parts)
    if not path.is_file():
        raise FileNotFoundError(f"{package!r} has no {'/'.join(parts)}")
    return path


def _load(lang: str) -> array[int]:
    import msgpack  # wordfreq's dependency; imported only when a list loads

    resource = package_file("wordfreq", "data", f"large_{lang}.msgpack.gz")
    # One bucket at a time: holding all 300,000 words as strings at once would leave ~15 MB of
    # freed but fragmented memory in the process.
    unpacker = msgpack.Unpacker(io.BytesIO(gzip.decompress(resource.read_bytes())), raw=False)
    count = unpacker.read_array_header()
    header = unpacker.unpack()
    if not isinstance(header, dict) or header.get("format") != "cB":
        raise RuntimeError(f"unexpected wordfreq list format for {lang!r}: {header!r}")
    # Sorted by parts (the keys' top eight bits, in signed order), so that no more than a few
    # thousand keys are Python ints at once: sorting them all in one list would leave ~10 MB
    # of fragmented memory behind.
    parts: list[array[int]] = [array("q") for _ in range(256)]
    for index in range(min(count - 1, _BUCKET_MASK + 1)):
        for word in unpacker.unpack():
            key = (hash(word) & _KEY_MASK) | index
            parts[(key >> 56) + 128].append(key)
    keys: array[int] = array("q", bytes(8 * sum(map(len, parts))))  # allocated once
    start = 0
    for i, part in enumerate(parts):
        keys[start : start + len(part)] = array("q", sorted(part))
        start += len(part)
        parts[i] = array("q")
    return keys


def table(lang: str) -> array[int]:
    """The packed list of the base language ``lang`` (loaded on first use, once)."""
    found = _tables.get(lang)
    if found is None:
        with _lock:
            found = _tables.get(lang)
            if found is None:
                found = _load(lang)
                _tables[lang] = found
    return found


def zipf(lang: str, word: str) -> float:
    """The Zipf frequency of the lower-case ``word`` in ``lang``: log10 of its count per 10^9
    words (``the`` is about 7.7, ``stdin`` 1.5); 0.0 when the list lacks it."""
    keys = table(lang)
    key = hash(word) & _KEY_MASK
    i = bisect_left(keys, key)
    if i == len(keys) or keys[i] & _KEY_MASK != key:
        return 0.0
    return 9.0 - (keys[i] & _BUCKET_MASK) / 100.0
