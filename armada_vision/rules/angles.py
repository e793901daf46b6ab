"""Arithmetic on sets of turn angles: sorted, disjoint, open intervals of degrees.

A turn set is a tuple of ``(lo_deg, hi_deg)`` pairs with ``lo < hi``, sorted and disjoint. Turns of
one step live in (−90°, 90°) relative to the old heading (rules.md §4.2), so nothing here wraps
round the circle. Intervals are open: an end is where a margin equals its allowance, which is
never a yes (§7).

>>> a = ((-70.0, -10.0), (5.0, 60.0))
>>> subtract(a, ((0.0, 20.0),))
((-70.0, -10.0), (20.0, 60.0))
>>> intersect(a, ((-20.0, 10.0),))
((-20.0, -10.0), (5.0, 10.0))
>>> contains(a, 7.5), contains(a, 0.0), nearest(a, 0.0)
(True, False, 5.0)
>>> component_containing(a, 30.0)
((5.0, 60.0),)
"""

from __future__ import annotations

Interval = tuple[float, float]
Intervals = tuple[Interval, ...]


def normalize(intervals: list[Interval] | Intervals) -> Intervals:
    """Sort, drop empty intervals and merge overlapping ones (touching open intervals stay
    apart: the shared end is excluded from both)."""
    out: list[list[float]] = []
    for lo, hi in sorted((float(a), float(b)) for a, b in intervals if b > a):
        if out and lo < out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return tuple((a, b) for a, b in out)


def union(a: Intervals, b: Intervals) -> Intervals:
    return normalize(list(a) + list(b))


def intersect(a: Intervals, b: Intervals) -> Intervals:
    out = []
    for lo1, hi1 in a:
        for lo2, hi2 in b:
            lo, hi = max(lo1, lo2), min(hi1, hi2)
            if hi > lo:
                out.append((lo, hi))
    return normalize(out)


def subtract(a: Intervals, b: Intervals) -> Intervals:
    """``a`` without the (closed) intervals of ``b``."""
    cur = list(a)
    for blo, bhi in b:
        nxt = []
        for lo, hi in cur:
            if bhi <= lo or blo >= hi:
                nxt.append((lo, hi))
                continue
            if blo > lo:
                nxt.append((lo, blo))
            if bhi < hi:
                nxt.append((bhi, hi))
        cur = nxt
    return normalize(cur)


def contains(a: Intervals, x: float) -> bool:
    return any(lo < x < hi for lo, hi in a)


def nearest(a: Intervals, x: float) -> float | None:
    """The point of the closure of ``a`` nearest to ``x`` (None when ``a`` is empty)."""
    best, best_d = None, float("inf")
    for lo, hi in a:
        p = min(max(x, lo), hi)
        if abs(p - x) < best_d:
            best, best_d = p, abs(p - x)
    return best


def component_containing(a: Intervals, x: float) -> Intervals:
    """The one interval of ``a`` that contains ``x``, or nothing (used by the strict sweep)."""
    return tuple((lo, hi) for lo, hi in a if lo < x < hi)


def total_deg(a: Intervals) -> float:
    return sum(hi - lo for lo, hi in a)
