"""pyspellchecker's word lists (word → count), packed: the spelling corrector's ``freq``.

A list holds 86,000 (Spanish) to 417,000 (Portuguese) words; as a Python dict of str to int
the English one (160,000 words) costs some 14 MB. :class:`WordCounts` keeps the words as one
string, in the list's order and each followed by a newline, with three arrays: each word's
offset in that string and its count (in list order), and a sorted key per word: the top
``HASH_BITS`` bits of its ``hash()`` (this process's, computed at load) followed by the word's
index in ``INDEX_BITS`` bits. A lookup narrows the keys by their top ``BUCKET_BITS`` bits (a
table of where each bucket starts), binary-searches the bucket, and compares the word itself,
so it is exact. English costs ~4 MB this way.

The keys are 52-bit integers held as floats (``array("d")``, exact below 2**53): Python sorts
a list of floats about twice as fast as one of large integers, which is most of the time
packing a list takes.
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

HASH_BITS: Final = 32
INDEX_BITS: Final = 20  # up to 1,048,576 words
BUCKET_BITS: Final = 12
_INDEX_MASK: Final = (1 << INDEX_BITS) - 1
_BUCKET_SHIFT: Final = HASH_BITS - BUCKET_BITS
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
        one = itertools.repeat(1)
        self._offsets.extend(itertools.accumulate(map(operator.add, map(len, counts), one)))
        self._counts: array[int] = array("i", counts.values())  # OverflowError past 2**31
        # (hash's top bits << INDEX_BITS) | index for each word, without a Python loop
        tops = map(operator.rshift, map(hash, counts), itertools.repeat(64 - HASH_BITS))
        shifted = map(operator.lshift, tops, itertools.repeat(INDEX_BITS))
        keys = sorted(map(float, map(operator.or_, shifted, itertools.count())))
        self._keys: array[float] = array("d", keys)
        bounds = (float((b - _HALF) << (_BUCKET_SHIFT + INDEX_BITS)) for b in range(2 * _HALF))
        self._starts: array[int] = array("i", [bisect_left(keys, bound) for bound in bounds])
        self._starts.append(len(keys))

    def starts_any(self, prefix: str) -> bool:
        """Whether a word of the list starts with ``prefix`` (one scan of the packed words)."""
        return self._words.startswith(prefix) or self._words.find("\n" + prefix) >= 0

    def _index(self, word: str) -> int:
        """The word's index, or -1."""
        top = hash(word) >> (64 - HASH_BITS)
        keys, starts = self._keys, self._starts
        bucket = (top >> _BUCKET_SHIFT) + _HALF
        hi = starts[bucket + 1]
        i = bisect_left(keys, float(top << INDEX_BITS), starts[bucket], hi)
        while i < hi:
            found = int(keys[i])
            if found >> INDEX_BITS != top:
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
        return itertools.chain.from_iterable(chunk.split("\n") for chunk in self._chunks())

    def _chunks(self) -> Iterator[str]:
        """The words, ``_ITER_CHUNK`` at a time, joined by newlines: splitting the whole
        string at once would hold every word as a Python string."""
        words, offsets = self._words, self._offsets
        for first in range(0, len(self._counts), _ITER_CHUNK):
            last = min(first + _ITER_CHUNK, len(self._counts))
            yield words[offsets[first] : offsets[last] - 1]

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
    try:
        if not isinstance(data, dict):
            raise TypeError("not an object")
        packed = WordCounts(data)  # TypeError for a count that is not a whole number
    except (TypeError, OverflowError) as exc:
        raise ValueError(f"pyspellchecker's {lang} list is not a JSON object of counts") from exc
    del data
    release_free_memory()  # what the dict of all its words leaves in the C heap
    return packed
