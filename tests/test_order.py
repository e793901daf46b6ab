"""vision.order.median gives np.median's very values (the speed round of session 18, speed25:
the colour tells and the open-base lanes call it ~120 times a detect)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from armada_vision.vision.order import median


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int64])
@pytest.mark.parametrize("axis", [None, 0])
def test_median_is_numpys_bit_for_bit(dtype: type, axis: int | None) -> None:
    rng = np.random.default_rng(25)
    for n in range(0, 24):
        for shape in ((n,), (n, 3)):
            a = (rng.random(shape) * 300).astype(dtype)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # numpy warns on an empty array
                got, want = median(a, axis=axis), np.median(a, axis=axis)
            assert type(got) is type(want)
            assert np.asarray(got).dtype == np.asarray(want).dtype
            assert np.array_equal(got, want, equal_nan=True)


def test_median_keeps_numpys_nan() -> None:
    a = np.array([[1.0, 2.0, 3.0], [np.nan, 5.0, 6.0], [7.0, 8.0, 9.0]], np.float32)
    assert np.array_equal(median(a, axis=0), np.median(a, axis=0), equal_nan=True)
    assert np.isnan(median(a))


def test_median_leaves_its_input_alone() -> None:
    a = np.array([5.0, 1.0, 4.0, 2.0, 3.0])
    median(a)
    assert a.tolist() == [5.0, 1.0, 4.0, 2.0, 3.0]
