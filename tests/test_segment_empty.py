"""Segment helpers on empty pixel sets: a split area whose strong pixels lie out of every part's
reach asks the vividness of no pixels (segment._judged_parts), which must not raise."""
from __future__ import annotations

import numpy as np
import pytest

from armada_vision.vision.segment import _saturation


@pytest.mark.parametrize("shape", [(1, 0, 3), (0, 3), (0, 0, 3)])
def test_the_saturation_of_no_pixels_is_empty(shape) -> None:
    got = _saturation(np.zeros(shape, np.float32))
    assert got.shape == shape[:-1] and got.dtype == np.float32


def test_the_saturation_of_pixels_is_max_minus_min_over_max_plus_one() -> None:
    bgr = np.array([[[10, 20, 30], [5, 5, 5]]], np.float32)
    np.testing.assert_allclose(_saturation(bgr), [[20 / 31, 0.0]], rtol=1e-6)


@pytest.mark.parametrize("shape", [(37, 53, 3), (400, 1, 3), (0, 3)])
def test_the_saturation_of_8_bit_pixels_is_that_of_their_floats(shape) -> None:
    # speed44: 8-bit pixels take max − min in 8 bits and widen once: the very floats of the
    # float32 pixels' saturation (widened first), strided and empty inputs too.
    bgr = np.random.default_rng(len(shape)).integers(0, 256, shape, dtype=np.uint8)
    if len(shape) == 3 and shape[1] == 1:
        bgr = bgr[::3]  # a strided view, as saturation_ratio's sample of the table
    got, want = _saturation(bgr), _saturation(bgr.astype(np.float32))
    assert got.dtype == want.dtype == np.float32 and np.array_equal(got, want)
