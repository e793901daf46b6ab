"""The view-size steps rewritten for speed give the very floats of what they replaced.

The rectifier maps' half-pixel shift (segment._half_shift) stands in for cv2.warpAffine, and
look.shade adds contiguous channel planes where it added stride-3 channel views: both must
agree bit for bit, or every detection downstream may move.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from armada_vision.vision.detect import shade
from armada_vision.vision.segment import (
    CLOSE_GAP_MM,
    _CrispPixels,
    _distance_planes,
    _half_shift,
    area_share_over,
    closed_holes,
    distance_of_planes,
    fill_holes,
    split_planes,
)


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
    assert np.array_equal(shade(view, bg, bg_planes=cv2.split(bg),
                                view_planes=split_planes(v)), want)


@pytest.mark.parametrize("rows", [150, 64, 1])
def test_shade_in_strips_is_the_whole_planes_ratio(rows: int) -> None:
    # speed44: shade's sums and ratio strip by strip (look._SHADE_ROWS), a last strip short
    # or none: the floats of the whole planes at once; a float64 table estimate too.
    rng = np.random.default_rng(rows)
    view = rng.integers(0, 256, (rows, 70, 3), dtype=np.uint8)
    for bg in ((rng.random((rows, 70, 3)) * 255).astype(np.float32),
               rng.random((rows, 70, 3)) * 255):
        v = [p.astype(np.float32) for p in cv2.split(view)]
        t = cv2.split(bg)
        num = v[0] + v[1]
        num += v[2]
        num += 1.0
        den = t[0] + t[1]
        den += t[2]
        den += 1.0
        num /= den
        got = shade(view, bg)
        assert got.dtype == num.dtype and np.array_equal(got, num)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_split_planes_are_cv2_splits(dtype: type) -> None:
    # Issue 4 (speed35): planes split into arrays made beforehand, the very values of
    # cv2.split's, contiguous; a row strip of an image too.
    rng = np.random.default_rng(5)
    img = (rng.random((70, 90, 3)) * 255).astype(dtype)
    for part in (img, img[10:42]):
        got = split_planes(part)
        for g, w in zip(got, cv2.split(part), strict=True):
            assert g.dtype == w.dtype and g.flags.c_contiguous
            assert np.array_equal(g, w)


def test_distance_of_planes_by_strips_is_the_whole_images() -> None:
    # Issue 4 (speed35): the foreground score worked out strip by strip on slices of the
    # view's planes gives the floats of one pass over the whole planes.
    rng = np.random.default_rng(11)
    img = (rng.random((300, 260, 3)) * 255).astype(np.float32)
    bg = (rng.random((300, 260, 3)) * 255).astype(np.float32)
    want = _distance_planes(cv2.split(img), cv2.split(bg))
    got = distance_of_planes(split_planes(img), split_planes(bg))
    assert np.array_equal(got, want)


def _half_shift_both_rows(fine: np.ndarray, k: int, rows: int, cols: int) -> np.ndarray:
    """_half_shift as it was before speed29: each row pair's lerps along u made afresh."""
    top = fine[k:k + rows, k + 1:k + 1 + cols] - fine[k:k + rows, k:k + cols]
    top *= 0.5
    top += fine[k:k + rows, k:k + cols]
    out = fine[k + 1:k + 1 + rows, k + 1:k + 1 + cols] - fine[k + 1:k + 1 + rows, k:k + cols]
    out *= 0.5
    out += fine[k + 1:k + 1 + rows, k:k + cols]
    out -= top
    out *= 0.5
    out += top
    return out


@pytest.mark.parametrize("seed", range(6))
def test_half_shift_lerps_each_row_once_with_the_same_floats(seed: int) -> None:
    # speed29: the lerp along u is made once per row and shared by the two output rows it
    # borders; random maps of several sizes and scales, the 720p view's shape included.
    rng = np.random.default_rng(seed)
    rows, cols = [(88, 112), (879, 879), (5, 3)][seed % 3]
    k = 3
    scale = [1.0, 1300.0, 1e-4][seed % 3]
    fine = ((rng.random((rows + k + 2, cols + k + 2)) - 0.3) * scale).astype(np.float32)
    got = _half_shift(fine, k, rows, cols)
    want = _half_shift_both_rows(fine, k, rows, cols)
    assert got.dtype == want.dtype and got.shape == want.shape == (rows, cols)
    assert np.array_equal(got, want)
    assert got.flags.c_contiguous


def test_crisp_pixels_within_are_their_own() -> None:
    # The pixels of a smaller area taken from a larger one's are the values worked out for it.
    rng = np.random.default_rng(5)
    img = (rng.random((60, 70, 3)) * 255).astype(np.float32)
    med = (rng.random((10, 11, 3)) * 255).astype(np.float32)
    small = rng.random((60, 70)) < 0.2
    big = small | (rng.random((60, 70)) < 0.3)
    got, want = _CrispPixels.make(big, img, med).within(small), _CrispPixels.make(small, img, med)
    for a in ("idx", "i", "b", "d", "ratio"):
        assert np.array_equal(getattr(got, a), getattr(want, a)), a


def _holes_by_flood_with_mask(mask: np.ndarray) -> np.ndarray:
    """fill_holes as it was: a flood fill with a mask argument, a copy and a masked write."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    outside = padded.copy()
    ff = np.zeros((padded.shape[0] + 2, padded.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, ff, (0, 0), 1)
    out = mask.copy()
    out[outside[1:-1, 1:-1] == 0] = 1
    return out


def test_fill_holes_is_the_flood_fill_it_replaced() -> None:
    # Random 0/1 masks (speckle, closed blobs, rings and diagonal-only gaps), tiny ones too.
    rng = np.random.default_rng(11)
    for t in range(120):
        rows, cols = (int(v) for v in rng.integers(1, 48, 2))
        mask = (rng.random((rows, cols)) < rng.random()).astype(np.uint8)
        if t % 2:
            mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
        got = fill_holes(mask)
        assert got.dtype == np.uint8 and got.flags.c_contiguous
        assert np.array_equal(got, _holes_by_flood_with_mask(mask))


@pytest.mark.parametrize("seed", range(4))
def test_closed_holes_are_the_masked_writes_form(seed: int) -> None:
    # speed44: the holes cleared where closed or crisp by bool ANDs on the 0/1 mask: the mask
    # of the masked writes they replaced, on rings with gaps, strokes and what they enclose.
    rng = np.random.default_rng(seed)
    edges = np.zeros((160, 200), np.uint8)
    for _ in range(8):
        c = (int(rng.integers(10, 190)), int(rng.integers(10, 150)))
        cv2.ellipse(edges, c, (int(rng.integers(4, 30)), int(rng.integers(4, 30))),
                    float(rng.uniform(0, 180)), 0, float(rng.uniform(250, 360)), 1, 1)
        cv2.line(edges, c, (int(rng.integers(0, 200)), int(rng.integers(0, 160))), 1, 1)
    # A ring whose gap (~3.5 px) the closing shuts: a hole for certain.
    edges[55:106, 75:126] = 0
    cv2.ellipse(edges, (100, 80), (20, 20), float(rng.uniform(0, 360)), 5, 355, 1, 1)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    crisp = np.zeros_like(edges)
    cv2.drawContours(crisp, contours, -1, 1, thickness=cv2.FILLED)
    crisp = crisp.view(bool)
    r = max(round(CLOSE_GAP_MM * 1.5 / 2.0), 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
    closed = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, disc)
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    want = np.zeros_like(closed)
    cv2.drawContours(want, contours, -1, 1, thickness=cv2.FILLED)
    want[closed > 0] = 0
    want[crisp] = 0
    got = closed_holes(edges.view(bool), crisp, 1.5)
    assert got.dtype == bool and np.array_equal(got, want.view(bool))
    assert want.any()


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_pixel_gathers_are_numpys_indexing(dtype: type) -> None:
    # vision.pixels: a window's masked pixels and rows by index, the same arrays as numpy's
    # boolean and integer indexing (same values, same order, same type), on random masks
    # including an empty one and a full one.
    from armada_vision.vision.pixels import gather_rows, masked

    rng = np.random.default_rng(11)
    img = (rng.random((60, 80, 3)) * 255).astype(dtype)
    for share in (0.0, 0.3, 1.0):
        for sl in ((slice(5, 41), slice(7, 70)), (slice(0, 60), slice(0, 80))):
            m = rng.random(img[sl].shape[:2]) < share
            want = img[sl][m]
            got = masked(img, sl, m)
            assert got.dtype == want.dtype and np.array_equal(got, want)
        m = rng.random(img.shape[:2]) < share
        assert np.array_equal(masked(img, None, m), img[m])
    flat = img.reshape(-1, 3)
    idx = rng.integers(0, len(flat), 500)
    assert np.array_equal(gather_rows(flat, idx), flat[idx])


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 1000, 20000])
def test_channel_reductions_are_numpys(n: int) -> None:
    # vision.pixels: the sum over a pixel's three channels adds them in numpy's order, to the
    # bit, on values whose sum rounds differently in another order; maxima and minima exact.
    from armada_vision.vision.pixels import channel_max, channel_min, channel_sum

    rng = np.random.default_rng(n)
    px = (rng.standard_normal((n, 3)) * rng.choice([1e-3, 1.0, 1e3], (n, 3))).astype(np.float32)
    s = channel_sum(px)
    assert s.dtype == np.float32 and np.array_equal(s, px.sum(axis=1))
    assert np.array_equal(channel_max(px), px.max(axis=1))
    assert np.array_equal(channel_min(px), px.min(axis=1))
    win = (rng.random((9, n % 50 + 1, 3)) * 255).astype(np.uint8)
    assert np.array_equal(channel_max(win), win.max(axis=-1))


@pytest.mark.parametrize("shape", [(879, 879), (733, 1100), (50, 37)])
def test_table_estimate_plane_by_plane_is_the_colour_resize(shape: tuple[int, int]) -> None:
    # segment.foreground_planes: the full-size table estimate's planes resized one by one
    # from the coarse grid's, and merged, are the 3-channel INTER_LINEAR resize and its split,
    # to float32 rounding: OpenCV picks its resize kernel by channel count and CPU (bit for bit
    # on the machines of sessions 51-52; on an AMD Zen 3 in session 53 up to 39 units in the
    # last place, 1.5e-5 of a 0-255 level, on 0.1 % of the values): far under any level the
    # foreground score or a threshold tells apart.
    rng = np.random.default_rng(shape[1])
    bg = (rng.random((146, 146, 3)) * 255).astype(np.float32)
    size = (shape[1], shape[0])
    want = cv2.resize(bg, size, interpolation=cv2.INTER_LINEAR)
    planes = [cv2.resize(p, size, interpolation=cv2.INTER_LINEAR) for p in split_planes(bg)]
    assert np.abs(cv2.merge(planes) - want).max() <= 1e-4
    assert all(np.abs(p - w).max() <= 1e-4
               for p, w in zip(planes, split_planes(want), strict=True))


@pytest.mark.parametrize("seed", range(3))
def test_area_share_over_is_the_area_resizes_bools(seed: int) -> None:
    # speed61: foreground_planes' unseen cells (a view mask shrunk to the coarse grid, cells
    # over 0.05 of it) from the mask's integral image: the bools of the INTER_AREA resize it
    # replaced, at whole and fractional cell sizes, on blocks, borders and speckle; and a
    # share on a cell's exact area (a quarter of a 2 × 2 cell) is left to the resize.
    rng = np.random.default_rng(seed)
    for t in range(60):
        rows, cols = (int(v) for v in rng.integers(8, 400, 2))
        mask = np.zeros((rows, cols), bool)
        for _ in range(int(rng.integers(0, 6))):
            y, x = int(rng.integers(0, rows)), int(rng.integers(0, cols))
            mask[y:y + int(rng.integers(1, 60)), x:x + int(rng.integers(1, 60))] = True
        if t % 3 == 0:
            mask |= rng.random((rows, cols)) < 0.1 * rng.random()
        for k in (1, 2, 5, 6):
            size = (max(cols // k, 1), max(rows // k, 1))
            want = cv2.resize(mask.view(np.uint8).astype(np.float32), size,
                              interpolation=cv2.INTER_AREA) > 0.05
            assert np.array_equal(area_share_over(mask, size, 0.05), want)
    one = np.zeros((4, 4), bool)
    one[0, 0] = True
    assert area_share_over(one, (2, 2), 0.25).tolist() == [[False, False], [False, False]]
