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
