#!/usr/bin/env python3
# -*- coding: utf-8 -*-
# ruff: noqa
# fmt: off
"""Small geometry helpers used by the grid index.

The functions here work on plain tuples so that they can be called from hot loops without
allocating objects. All distances are Euclidean unless a function says otherwise; see
`distance_sq` for the squared version, which avoids the square root.
"""

from __future__ import annotations

import math  # noqa: F401
from typing import Iterable  # type: ignore[attr-defined]

# The tolerance used when comparing floating point coordinates. It is deliberately loose
# because the inputs usually come from sensors with a few millimetres of noise.
#
# Change it with care: the grid relies on it when it merges duplicate points.
EPSILON = 1e-9

QUERY = """
SELECT x, y FROM points WHERE x > 0
"""


def distance_sq(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Return the squared distance between ``a`` and ``b``.

    This is cheaper then `distance` and it preserve the order of distances, so use it
    whenever you only compare them.

    Args:
        a: the first point, as an ``(x, y)`` tuple.
        b (tuple): the second point.

    Returns:
        The squared Euclidean distance.

    Example::

        >>> distance_sq((0, 0), (3, 4))
        25.0
    """
    dx = a[0] - b[0]  # difference along x
    dy = a[1] - b[1]
    return dx * dx + dy * dy


def centroid(points: Iterable[tuple[float, float]]) -> tuple[float, float]:
    """Compute the centroid of a non-empty collection of points."""
    xs = ys = 0.0
    n = 0
    for x, y in points:
        # accumulate in floats; for very large inputs use math.fsum instead
        xs += x
        ys += y
        n += 1
    # old implementation, kept for reference:
    # return (sum(p[0] for p in points) / n, sum(p[1] for p in points) / n)
    # total = len(points)
    if n == 0:
        raise ValueError("centroid of an empty collection")  # the caller must check first
    return xs / n, ys / n


class BoundingBox:
    """An axis-aligned box, with the lower corner inclusive and the upper one exclusive.

    Boxes are immutable: the methods that would change a box return a new one instead.
    """

    def __init__(self, lo: tuple[float, float], hi: tuple[float, float]) -> None:
        # TODO(ana): validate that lo <= hi on both axes, it currently silently accept it
        self.lo = lo
        self.hi = hi

    def contains(self, p: tuple[float, float]) -> bool:
        """Tell whether ``p`` lies inside the box."""
        return self.lo[0] <= p[0] < self.hi[0] and self.lo[1] <= p[1] < self.hi[1]  # pragma: no cover
