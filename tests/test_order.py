"""vision.order.median and percentile give numpy's very values (session 18, speed25: the
colour tells and the open-base lanes call them ~160 times a detect; ``percentiles``, session 46,
cost56: several at once without numpy's ``np.unique``, whose first call imports numpy.ma)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from armada_vision.vision.order import median, percentile, percentiles


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


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int64])
@pytest.mark.parametrize("q", [0, 10, 25, 37.5, 60, 75, 80, 90, 99.9, 100])
def test_percentile_is_numpys_bit_for_bit(dtype: type, q: float) -> None:
    rng = np.random.default_rng(25)
    for n in range(1, 40):
        a = (rng.random(n) * 300).astype(dtype)
        for arr in (a, np.round(a / 50).astype(dtype)):  # and with ties
            got, want = percentile(arr, q), np.percentile(arr, q)
            assert type(got) is type(want)
            assert np.array_equal(got, want)


def test_percentile_keeps_numpys_nan_and_leaves_its_input_alone() -> None:
    a = np.array([3.0, np.nan, 1.0, 2.0])
    assert np.isnan(percentile(a, 50))
    assert np.array_equal(a, [3.0, np.nan, 1.0, 2.0], equal_nan=True)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int64])
@pytest.mark.parametrize("qs", [(10, 90), (0, 100), (5, 37.5, 60, 99.9), (90, 10, 10)])
def test_percentiles_are_numpys_bit_for_bit(dtype: type, qs: tuple[float, ...]) -> None:
    rng = np.random.default_rng(46)
    for n in range(1, 60):
        a = (rng.random(n) * 300).astype(dtype)
        for arr in (a, np.round(a / 50).astype(dtype)):  # and with ties
            got, want = percentiles(arr, qs), tuple(np.percentile(arr, qs))
            assert [type(g) for g in got] == [type(w) for w in want]
            assert got == want


def test_percentiles_keep_numpys_nan_and_leave_their_input_alone() -> None:
    a = np.array([3.0, np.nan, 1.0, 2.0])
    assert all(np.isnan(p) for p in percentiles(a, (10, 90)))
    assert np.array_equal(a, [3.0, np.nan, 1.0, 2.0], equal_nan=True)


# Run in a fresh interpreter (pytest's own imports may have loaded numpy.ma already): the
# detects of bench scenes 1000 and 1001 (calibrate's marker median, colors.dim_white's
# percentiles), then whether numpy.ma was imported.
_NO_MA = """
import sys
sys.path.insert(0, sys.argv[1])
from armada_vision.synth.render import render
from armada_vision.vision.detect import detect
from benchmarks.bench_vision import scene_spec, uses_camera
assert "numpy.ma" not in sys.modules
for seed in (1000, 1001):
    r = render(scene_spec(seed, 1000)[0])
    detect(r.image_bgr, r.layout, r.camera if uses_camera(seed, 1000) else None)
print("numpy.ma" in sys.modules)
"""


def test_a_detect_does_not_import_numpy_ma() -> None:
    """np.median's NaN check and np.percentile's np.unique import numpy.ma on their first
    call (~45 M instructions, ~8 ms, paid once by a process's first detect): the detector
    asks vision.order's median / percentile / percentiles instead (session 46, cost56)."""
    root = str(Path(__file__).resolve().parent.parent)
    out = subprocess.run([sys.executable, "-c", _NO_MA, root], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"
