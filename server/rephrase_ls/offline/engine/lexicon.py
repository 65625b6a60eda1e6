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
import threading
from array import array
from bisect import bisect_left
from importlib import resources
from typing import Final

_BUCKET_BITS: Final = 10
_BUCKET_MASK: Final = (1 << _BUCKET_BITS) - 1
_KEY_MASK: Final = ~_BUCKET_MASK
_lock = threading.Lock()
_tables: dict[str, array[int]] = {}


def _load(lang: str) -> array[int]:
    import msgpack  # wordfreq's dependency; imported only when a list loads

    resource = resources.files("wordfreq").joinpath("data", f"large_{lang}.msgpack.gz")
    buckets = msgpack.unpackb(gzip.decompress(resource.read_bytes()), raw=False)
    header, buckets = buckets[0], buckets[1:]
    if not isinstance(header, dict) or header.get("format") != "cB":
        raise RuntimeError(f"unexpected wordfreq list format for {lang!r}: {header!r}")
    keys = sorted(
        (hash(word) & _KEY_MASK) | min(index, _BUCKET_MASK)
        for index, bucket in enumerate(buckets)
        for word in bucket
    )
    return array("q", keys)


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
