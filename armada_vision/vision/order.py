"""Medians and percentiles with numpy's very values at a fraction of its per-call cost.

``np.median`` costs ~25 µs of Python per call (``_ureduce``, ``_median``, ``mean``, the NaN
check) whatever the array's size, and a detect calls it ~120 times on a few hundred pixels
(the colour tells, the lanes of an open base): about as much as the partition itself. This
does the same partition (the same kth, so the same elements land there) and the same mean of
the one or two middle elements (their sum in the array's float type, or float64 for integers,
halved: exact either way), and hands anything else to numpy (no element, NaN, other types).
``np.percentile`` of one scalar costs ~4× that (~40 calls a detect); :func:`percentile` takes
the same two order statistics and interpolates them as numpy's ``_lerp`` does, in the same
types (numpy's scalar q is weak: the array's float type, or float64 for integers).
"""

from __future__ import annotations

import math

import numpy as np


def median(a: np.ndarray | list, axis: int | None = None) -> np.floating | np.ndarray:
    """``np.median(a, axis=axis)``, the same numbers (``axis``: None or 0)."""
    a = np.asarray(a)
    kind = a.dtype.kind
    n = a.size if axis is None else a.shape[axis]
    if n == 0 or axis not in (None, 0) or not (
            kind in "iub" or a.dtype in (np.float32, np.float64)):
        return np.median(a, axis=axis)
    h = n // 2
    kth = [h - 1, h] if n % 2 == 0 else [h]
    if kind == "f":
        kth.append(-1)  # np.median's NaN check: a NaN sorts last
    part = np.partition(a, kth, axis=axis)  # axis None: flattened, as np.median does
    if kind == "f" and np.isnan(part[-1]).any():
        return np.median(a, axis=axis)
    if kind != "f":
        # np.mean of integers sums in float64.
        mid = part[h].astype(np.float64)
        if n % 2 == 0:
            mid += part[h - 1]
            mid /= 2
        return mid if axis is not None else np.float64(mid)
    if n % 2:
        return part[h].copy() if axis is not None else part[h]
    mid = part[h - 1] + part[h]
    return mid / 2


def percentile(a: np.ndarray, q: float) -> np.floating:
    """``np.percentile(a, q)`` (default linear method, all of ``a``), the same number, for a
    scalar ``q`` (Python int or float) in [0, 100]."""
    a = np.asarray(a)
    kind = a.dtype.kind
    n = a.size
    if type(q) not in (int, float) or n == 0 or not (
            kind in "iu" or a.dtype in (np.float32, np.float64)):
        return np.percentile(a, q)
    # numpy: the virtual index (n − 1)·q/100, its floor and the next one (the last element
    # for both at or past the end), gamma the virtual index less the index taken first.
    vi = (n - 1) * float(np.true_divide(q, 100))
    i0 = n - 1 if vi >= n - 1 else math.floor(vi)
    i1 = n - 1 if vi >= n - 1 else i0 + 1
    t = vi - (-1 if vi >= n - 1 else i0)
    kth = [i0, i1, n - 1] if kind == "f" else [i0, i1]
    part = np.partition(a.ravel(), kth)
    if kind == "f" and np.isnan(part[-1]):
        return np.percentile(a, q)
    lo, hi = part[i0], part[i1]
    diff = hi - lo
    # numpy's _lerp: from the lower value below t = 0.5, from the upper one from there on.
    return lo + diff * t if t < 0.5 else hi - diff * (1 - t)


def percentiles(a: np.ndarray, qs: tuple[float, ...]) -> tuple[np.floating, ...]:
    """``tuple(np.percentile(a, qs))`` (default linear method, all of ``a``), the same
    numbers, for scalar ``qs`` (Python ints or floats) in [0, 100]: one partition for all.
    numpy's array ``q`` sends its indices through ``np.unique``, whose first call imports
    ``numpy.ma`` (~8 ms, once a process: a one-shot detect pays it). Integers and float64
    only (a float32 array with an array ``q`` is worked out in float64, not as
    :func:`percentile` does); anything else goes to numpy.

    >>> v = np.array([3, 200, 17, 90, 41, 5, 255, 64], np.uint8)
    >>> percentiles(v, (10, 90)) == tuple(np.percentile(v, (10, 90)))
    True
    """
    a = np.asarray(a)
    kind = a.dtype.kind
    n = a.size
    if n == 0 or any(type(q) not in (int, float) for q in qs) or not (
            kind in "iu" or a.dtype == np.float64):
        return tuple(np.percentile(a, qs))
    spots = []
    for q in qs:
        # As percentile: numpy's virtual index, the two indices taken and gamma.
        vi = (n - 1) * float(np.true_divide(q, 100))
        i0 = n - 1 if vi >= n - 1 else math.floor(vi)
        i1 = n - 1 if vi >= n - 1 else i0 + 1
        spots.append((i0, i1, vi - (-1 if vi >= n - 1 else i0)))
    kth = sorted({i for i0, i1, _t in spots for i in (i0, i1)} | ({n - 1} if kind == "f"
                                                                   else set()))
    part = np.partition(a.ravel(), kth)
    if kind == "f" and np.isnan(part[-1]):
        return tuple(np.percentile(a, qs))
    out = []
    for i0, i1, t in spots:
        lo, hi = part[i0], part[i1]
        diff = hi - lo
        out.append(np.float64(lo + diff * t if t < 0.5 else hi - diff * (1 - t)))
    return tuple(out)
