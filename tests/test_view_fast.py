"""The view-size steps rewritten for speed give the very floats of what they replaced.

The rectifier maps' half-pixel shift (segment._half_shift) stands in for cv2.warpAffine, and
detect.shade adds contiguous channel planes where it added stride-3 channel views: both must
agree bit for bit, or every detection downstream may move.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from armada_vision.vision.detect import shade
from armada_vision.vision.segment import _half_shift


@pytest.mark.parametrize("scale, offset", [(1.0, 0.0), (900.0, -40.0), (1e-3, 5.0)])
def test_half_shift_is_warp_affines_shift(scale: float, offset: float) -> None:
    # Random maps, negative values and neighbours far apart included: a lerp and a mean of
    # four differ there unless the same operations run in the same order.
    rng = np.random.default_rng(7)
    fine = (rng.random((96, 120)) * scale + offset).astype(np.float32)
    rows, cols, k = 88, 112, 3
    m = np.float32([[1, 0, k + 0.5], [0, 1, k + 0.5]])
    want = cv2.warpAffine(fine, m, (cols, rows), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
    got = _half_shift(fine, k, rows, cols)
    assert got.dtype == np.float32 and got.shape == (rows, cols)
    assert np.array_equal(got, want)


def test_shade_is_the_channel_sums_ratio() -> None:
    rng = np.random.default_rng(3)
    view = rng.integers(0, 256, (40, 50, 3), dtype=np.uint8)
    bg = (rng.random((40, 50, 3)) * 255).astype(np.float32)
    v = view.astype(np.float32)
    # The formula as written before the planes: channel views added in this order.
    num = v[..., 0] + v[..., 1]
    num += v[..., 2]
    num += 1.0
    den = bg[..., 0] + bg[..., 1]
    den += bg[..., 2]
    den += 1.0
    want = num / den
    assert np.array_equal(shade(view, bg), want)
    assert np.array_equal(shade(view, bg, bg_planes=cv2.split(bg)), want)
