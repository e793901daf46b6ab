"""Pixel gathers and per-pixel channel reductions with numpy's very values, cheaper.

A detect gathers the pixels of a few hundred masks and index lists from view-size colour
images (BGR, (H, W, 3)) and reduces pixels over their three channels. numpy does both one
pixel at a time there: a boolean mask or an index array over the leading axes of an (…, 3)
array copies each pixel's 3-channel row through its mapping iterator (~190 instructions a
pixel, ~24 M a detect: callgrind on bench scenes 1000–1007), and a reduction over a last
axis of 3 calls its inner loop once per pixel. The forms here copy and reduce whole rows
and columns instead; they give the same arrays (tests/test_view_fast.py):

- :func:`gather_rows` is ``a[idx]`` for an index array on the first axis, as ``take`` (the
  same elements in the same order);
- :func:`masked` is ``a[sl][m]`` (or ``a[m]``) for a bool mask over the window's two leading
  axes, as ``np.compress`` of the window's raveled pixels (row-major order, as boolean
  indexing does);
- a maximum or minimum is exact in any order, and numpy's add reduction over a last axis
  of 3 adds the columns in order, (c0 + c1) + c2, in the array's own type.
"""

from __future__ import annotations

import numpy as np


def gather_rows(a: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``a[idx]`` for an integer index array ``idx`` on ``a``'s first axis."""
    return a.take(idx, axis=0)


def masked(a: np.ndarray, sl: tuple[slice, slice] | None, m: np.ndarray) -> np.ndarray:
    """``a[sl][m]``: the pixels (N, C) of window ``sl`` (None: all of it) of ``a`` (H, W, C)
    where the bool mask ``m`` (the window's shape) is set, in row-major order."""
    win = a if sl is None else a[sl]
    if win.ndim != 3 or m.shape != win.shape[:2] or m.dtype != np.bool_:
        return win[m]
    return np.compress(m.reshape(-1), np.ascontiguousarray(win).reshape(-1, win.shape[2]),
                       axis=0)


def channel_sum(px: np.ndarray) -> np.ndarray:
    """``px.sum(axis=-1)`` of float pixels ``px`` (…, 3)."""
    out = px[..., 0] + px[..., 1]
    out += px[..., 2]
    return out


def channel_max(px: np.ndarray) -> np.ndarray:
    """``px.max(axis=-1)`` of pixels ``px`` (…, 3)."""
    return np.maximum(np.maximum(px[..., 0], px[..., 1]), px[..., 2])


def channel_min(px: np.ndarray) -> np.ndarray:
    """``px.min(axis=-1)`` of pixels ``px`` (…, 3)."""
    return np.minimum(np.minimum(px[..., 0], px[..., 1]), px[..., 2])
