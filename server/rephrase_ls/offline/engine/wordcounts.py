"""pyspellchecker's word lists (word → count), packed: the spelling corrector's ``freq``.

A list holds 86,000 (Spanish) to 417,000 (Portuguese) words; as a Python dict of str to int
the English one (160,000 words) costs some 14 MB. :class:`WordCounts` keeps the words as one
string, in the list's order and each followed by a newline, with three arrays: each word's
offset in that string and its count (in list order), and a sorted key per word, its ``hash()``
(this process's, computed at load) with the word's index in the low ``INDEX_BITS`` bits. A
lookup narrows the keys by their top ``BUCKET_BITS`` bits (a table of where each bucket
starts), binary-searches the bucket, and compares the word itself, so it is exact. English
costs ~4 MB this way.
"""

from __future__ import annotations

import gzip
import itertools
import json
import operator
import sys
from array import array
from bisect import bisect_left
from collections.abc import ItemsView, Iterator, Mapping, ValuesView
from importlib import resources
from typing import Final, TypeVar, overload

from rephrase_ls.memory import release_free_memory

INDEX_BITS: Final = 20  # up to 1,048,576 words
BUCKET_BITS: Final = 12
_INDEX_MASK: Final = (1 << INDEX_BITS) - 1
_HASH_MASK: Final = ~_INDEX_MASK
_BUCKET_SHIFT: Final = 64 - BUCKET_BITS
_HALF: Final = 1 << (BUCKET_BITS - 1)  # keys are signed: bucket 0 holds the most negative
_ITER_CHUNK: Final = 4096  # words split out of the string at a time when iterating
_T = TypeVar("_T")


class WordCounts(Mapping[str, int]):
    """A read-only word → count mapping, packed (see the module's docstring); iterates in the
    order the words were given. Words must not hold a newline."""

    __slots__ = ("_counts", "_keys", "_offsets", "_starts", "_words")

    def __init__(self, counts: Mapping[str, int]) -> None:
        if len(counts) > _INDEX_MASK + 1:
            raise ValueError(f"more than {_INDEX_MASK + 1} words")
        words = "\n".join(counts)
        if words.count("\n") != max(len(counts) - 1, 0):
            raise ValueError("a word holds a newline")
        self._words = words + "\n"
        self._offsets: array[int] = array("i", [0])
        self._offsets.extend(itertools.accumulate(len(word) + 1 for word in counts))
        self._counts: array[int] = array("i", counts.values())  # OverflowError past 2**31
        # (hash & _HASH_MASK) | index for each word, without a Python loop
        hashes = map(operator.and_, map(hash, counts), itertools.repeat(_HASH_MASK))
        self._keys: array[int] = array("q", sorted(map(operator.or_, hashes, itertools.count())))
        keys = self._keys
        self._starts: array[int] = array(
            "i", [bisect_left(keys, (b - _HALF) << _BUCKET_SHIFT) for b in range(2 * _HALF)]
        )
        self._starts.append(len(keys))

    def _index(self, word: str) -> int:
        """The word's index, or -1."""
        key = hash(word) & _HASH_MASK
        bucket = (key >> _BUCKET_SHIFT) + _HALF
        keys, starts = self._keys, self._starts
        hi = starts[bucket + 1]
        i = bisect_left(keys, key, starts[bucket], hi)
        while i < hi:
            found = keys[i]
            if found & _HASH_MASK != key:
                return -1
            index = found & _INDEX_MASK
            start = self._offsets[index]
            if self._offsets[index + 1] - start == len(word) + 1 and self._words.startswith(
                word, start
            ):
                return index
            i += 1
        return -1

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._index(word) >= 0

    def __getitem__(self, word: str) -> int:
        index = self._index(word) if isinstance(word, str) else -1
        if index < 0:
            raise KeyError(word)
        return self._counts[index]

    @overload
    def get(self, word: str, /) -> int | None: ...
    @overload
    def get(self, word: str, default: int, /) -> int: ...
    @overload
    def get(self, word: str, default: _T, /) -> int | _T: ...
    def get(self, word: str, default: object = None, /) -> object:
        index = self._index(word)
        return default if index < 0 else self._counts[index]

    def __len__(self) -> int:
        return len(self._counts)

    def __iter__(self) -> Iterator[str]:
        # A piece of the string at a time: splitting it all at once would hold every word as
        # a Python string.
        words, offsets = self._words, self._offsets
        for first in range(0, len(self._counts), _ITER_CHUNK):
            last = min(first + _ITER_CHUNK, len(self._counts))
            yield from words[offsets[first] : offsets[last] - 1].split("\n")

    def items(self) -> ItemsView[str, int]:
        return _Items(self)

    def values(self) -> ValuesView[int]:
        return _Values(self)

    def nbytes(self) -> int:
        """The memory of the packed list's string and arrays, in bytes."""
        arrays = (self._offsets, self._counts, self._keys, self._starts)
        return sys.getsizeof(self._words) + sum(a.itemsize * len(a) for a in arrays)


class _Items(ItemsView[str, int]):
    """The (word, count) pairs in order, without a lookup per word."""

    _mapping: WordCounts

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return zip(self._mapping, self._mapping._counts, strict=True)


class _Values(ValuesView[int]):
    """The counts in order, without a lookup per word."""

    _mapping: WordCounts

    def __iter__(self) -> Iterator[int]:
        return iter(self._mapping._counts)


def load(lang: str) -> WordCounts:
    """pyspellchecker's word list for ``lang`` (its ``resources/LANG.json.gz``), packed."""
    resource = resources.files("spellchecker").joinpath("resources", f"{lang}.json.gz")
    with resource.open("rb") as raw, gzip.GzipFile(fileobj=raw) as fh:
        data = json.loads(fh.read().decode("utf-8"))
    if not isinstance(data, dict) or not all(isinstance(c, int) for c in data.values()):
        raise ValueError(f"pyspellchecker's {lang} list is not a JSON object of counts")
    packed = WordCounts(data)
    del data
    release_free_memory()  # what the dict of all its words leaves in the C heap
    return packed
