"""Cheaper forms in the cold detect's hot paths give the very values of the forms they replaced
(issue 4, 720p speed, speed29): a change of even the last bit of a pose is not allowed, so each
fast form is checked against the plain one it stands for, on random inputs and on fits of a
rendered outline."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from vision_helpers import raster_outline

from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.vision.crisp import (
    SOFT_WHITE_CLIP_PX,
    SOFT_WHITE_MOVES,
    SOFT_WHITE_STEPS,
    _chamfer_refine,
    _outline_samples,
    _outline_samples_many,
)
from armada_vision.vision.explain import _covered_px, unexplained_mask
from armada_vision.vision.fit import (
    _FLIP,
    FitResult,
    ViewGrid,
    _edge_offsets_px,
    _Fit,
    _robust_cost,
    _sample_inside,
    lying_local_3d,
    outline_mm,
    sample_map,
)
from armada_vision.vision.scene import Candidate


@pytest.mark.parametrize("seed", range(8))
def test_polygon_crop_is_its_array_form(seed: int) -> None:
    # Polygons inside the view, over its edges and wholly outside it: the same slices and mask.
    rng = np.random.default_rng(seed)
    grid = ViewGrid(0.0, 100.0, 1.5, (150, 140))
    for _ in range(40):
        polys = [rng.uniform(-30, 180, 2) + rng.uniform(-25, 25, (int(rng.integers(3, 7)), 2))
                 for _ in range(int(rng.integers(1, 3)))]
        (rs, cs), m = grid.polygon_crop(polys)
        (rs0, cs0), m0 = grid._polygon_crop_arrays(polys)
        assert (rs.start, rs.stop, cs.start, cs.stop) == (rs0.start, rs0.stop, cs0.start,
                                                          cs0.stop)
        assert m.dtype == m0.dtype == bool and np.array_equal(m, m0)


def test_sample_map_inside_is_the_stacked_sample() -> None:
    # The direct path's bounds test by ufunc reduces and its np.array of (u, v): the values of
    # .min()/.max() and np.stack, on 1-D and 2-D points.
    rng = np.random.default_rng(4)
    img = rng.uniform(0, 1, (60, 70)).astype(np.float32)
    for shape in ((300,), (7, 40)):
        u, v = rng.uniform(0, 68.9, shape), rng.uniform(0, 58.9, shape)
        want = _sample_inside(img.reshape(-1), 70, np.stack((u, v)))
        assert np.array_equal(sample_map(img, u, v), want)


def test_robust_cost_judges_the_found_or_unblocked_samples() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        n = int(rng.integers(0, 60))
        r = rng.normal(0, 1.5, n)
        good, blocked = rng.random(n) < 0.6, rng.random(n) < 0.4
        _cost, _per, judged, n_judged = _robust_cost(r, good, blocked, 0.7)
        assert np.array_equal(judged, ~blocked | good) and n_judged == np.count_nonzero(judged)


def test_a_fits_keep_is_its_found_and_weighted_samples() -> None:
    # cost_now and result take the step's keep for ok & (w > 0): the same samples, round by
    # round, on a rendered medium with a neighbour's edge and noise (misses, cuts, weights).
    grid = ViewGrid(40.0, 160.0, 1.5, (180, 180))
    cam = np.array([130.0, -200.0, 900.0])
    loc = lying_local_3d(NOMINAL_PIECES.dims(Size.MEDIUM))
    fg = raster_outline(outline_mm(loc, np.array([100.0, 100.0, 0.7]), cam), grid)
    cv2.rectangle(fg, (0, 0), (40, 179), 0.9, -1)
    fg += np.random.default_rng(0).normal(0, 0.05, fg.shape).astype(np.float32)
    ppm = grid.px_per_mm
    origin = np.array(((grid.x0_mm,), (grid.y1_mm,)))
    checked = 0
    for dx, dh in ((0.0, 0.0), (2.5, 6.0), (-3.0, -9.0), (1.0, 20.0)):
        f = _Fit(loc, Pose(100.0 + dx, 100.0, math.degrees(0.7) + dh), cam)
        search = 4.0
        for it in range(8):
            if not f.place(grid, _FLIP * ppm, origin, 1.0):
                break
            off, ok, blocked = _edge_offsets_px(fg, ppm, f.p_px, f.d_px, search, f.bbox)
            going = f.step(off, ok, blocked, search, 0.7 / ppm, it)
            if np.count_nonzero(ok) >= 6:
                assert np.array_equal(f.keep, f.ok & (f.w > 0))
                checked += 1
            if not going:
                break
            search = max(search * 0.6, 1.5)
    assert checked >= 8


def _candidate(grid: ViewGrid, pose: Pose, size: Size = Size.SMALL) -> Candidate:
    loc = lying_local_3d(NOMINAL_PIECES.dims(size))
    params = np.array([pose.x_mm, pose.y_mm, math.radians(pose.heading_deg)])
    fit = FitResult(pose, 0.5, 0.5, 0.5, 1.0, 0.1, 10)
    return Candidate(size, False, fit, outline_mm(loc, params, np.array([50.0, 50.0, 900.0])),
                     np.zeros(0, bool))


@pytest.mark.parametrize("grow_mm", [0.0, 1.0, 2.0])
def test_unexplained_and_covered_masks_are_the_two_pass_forms(grow_mm: float) -> None:
    rng = np.random.default_rng(int(grow_mm * 10))
    sub = ViewGrid(20.0, 90.0, 1.5, (105, 90))
    part = rng.random(sub.shape) < 0.5
    chosen = [_candidate(sub, Pose(30.0 + 10 * i, 40.0 + 5 * i, 40.0 * i)) for i in range(3)]
    got = unexplained_mask(part, sub, chosen, grow_mm)
    cover = np.zeros(part.shape, np.uint8)
    for c in chosen:
        cv2.fillPoly(cover, [np.round(sub.to_px(c.outline_mm)).astype(np.int32)], 1)
    r = max(round(grow_mm * sub.px_per_mm), 1)
    cover = cv2.dilate(cover, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    assert got.dtype == bool and np.array_equal(got, part & (cover == 0))
    for c in chosen:
        mask = np.zeros(part.shape, np.uint8)
        cv2.fillPoly(mask, [np.round(sub.to_px(c.outline_mm)).astype(np.int32)], 1)
        cov = _covered_px(c, part, sub)
        assert cov.dtype == bool and np.array_equal(cov, part & (mask > 0))


class _ChamferScene:
    """What crisp's chamfer refit reads of a scene: the view grid, the pieces, the camera."""

    def __init__(self, grid: ViewGrid, camera_mm: np.ndarray) -> None:
        self.grid, self.camera_mm, self.pieces = grid, camera_mm, NOMINAL_PIECES


def _plain_chamfer_refine(scene: _ChamferScene, size: Size, pose: Pose, dist: np.ndarray,
                          origin: tuple[int, int], steps: tuple[tuple[float, float], ...]
                          ) -> Pose:
    # a24c05f's form: one outline's samples per pose, the window's misses filled by a mask.
    h, w = dist.shape
    local = lying_local_3d(NOMINAL_PIECES.dims(size))

    def mean_dist(q: np.ndarray) -> float:
        pts = np.round(scene.grid.to_px(_outline_samples(scene, size, Pose(*q), local))
                       - origin).astype(int)
        ok = (pts[:, 0] >= 0) & (pts[:, 0] < w) & (pts[:, 1] >= 0) & (pts[:, 1] < h)
        d = np.full(len(pts), SOFT_WHITE_CLIP_PX)
        d[ok] = np.minimum(dist[pts[ok, 1], pts[ok, 0]], SOFT_WHITE_CLIP_PX)
        return float(d.mean())

    q = np.array([pose.x_mm, pose.y_mm, pose.heading_deg])
    best = mean_dist(q)
    for mm, deg in steps:
        moves = np.array(((mm, 0, 0), (-mm, 0, 0), (0, mm, 0), (0, -mm, 0), (0, 0, deg),
                          (0, 0, -deg)))
        for _ in range(SOFT_WHITE_MOVES):
            vals = [mean_dist(q + d) for d in moves]
            i = int(np.argmin(vals))
            if vals[i] >= best - 1e-9:
                break
            best, q = vals[i], q + moves[i]
    return Pose(float(q[0]), float(q[1]), float(q[2]))


@pytest.mark.parametrize("seed", range(4))
def test_outline_samples_together_are_one_call_each(seed: int) -> None:
    # crisp's chamfer refit samples a move's six poses together (speed44): each outline's
    # samples are the very floats of _outline_samples on that pose alone, 4- and 5-corner
    # outlines mixed (camera nearly over the piece, and far to one side).
    rng = np.random.default_rng(seed)
    for cam in (np.array([100.0, 100.0, 900.0]), np.array([-400.0, 50.0, 700.0])):
        scene = _ChamferScene(ViewGrid(0.0, 200.0, 1.5, (300, 300)), cam)
        for size in Size:
            local = lying_local_3d(NOMINAL_PIECES.dims(size))
            poses = [Pose(float(x), float(y), float(h)) for x, y, h in
                     zip(rng.uniform(0, 200, 9), rng.uniform(0, 200, 9),
                         rng.uniform(0, 360, 9), strict=True)]
            got = _outline_samples_many(scene, poses, local)  # type: ignore[arg-type]
            for p, g in zip(poses, got, strict=True):
                assert np.array_equal(g, _outline_samples(scene, size, p, local))  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(3))
def test_chamfer_refine_is_its_masked_form(seed: int) -> None:
    # The refit's clipped distances through a framed map and its poses remembered (speed44):
    # the pose of the plain search, to the bit, from starts off a rendered piece's crisp edges,
    # some with samples off the window.
    rng = np.random.default_rng(seed)
    grid = ViewGrid(40.0, 160.0, 1.5, (180, 180))
    cam = np.array([130.0, -200.0, 900.0])
    scene = _ChamferScene(grid, cam)
    loc = lying_local_3d(NOMINAL_PIECES.dims(Size.MEDIUM))
    fg = raster_outline(outline_mm(loc, np.array([100.0, 100.0, 0.7]), cam), grid)
    edges = cv2.Canny((fg * 255).astype(np.uint8), 50, 150) > 0
    edges |= rng.random(edges.shape) < 0.01
    for size in Size:
        for _ in range(3):
            start = Pose(100.0 + float(rng.normal(0, 3)), 100.0 + float(rng.normal(0, 3)),
                         math.degrees(0.7) + float(rng.normal(0, 8)))
            x0, y0 = (int(v) for v in rng.integers(0, 60, 2))
            win = edges[y0:y0 + 100, x0:x0 + 110]
            dist = cv2.distanceTransform((~win).view(np.uint8), cv2.DIST_L2, 3)
            args = (scene, size, start, dist, (x0, y0), SOFT_WHITE_STEPS)
            got, want = _chamfer_refine(*args), _plain_chamfer_refine(*args)  # type: ignore[arg-type]
            assert (got.x_mm, got.y_mm, got.heading_deg) == (want.x_mm, want.y_mm,
                                                             want.heading_deg)


def test_classify_color_remembers_only_its_own_view_and_table() -> None:
    # classify_color remembers its answers for the last view and table colours (issue 4,
    # session 40 round 2, speed50: 38 of 110 asks a detect were repeats): a repeat is the
    # worked-out answer, and another view of the same footprint is worked out anew, not
    # served the last view's answer.
    import shapely

    from armada_vision.vision import colors
    from armada_vision.vision.segment import TableView

    grid = ViewGrid(0.0, 100.0, 2.0, (200, 200))
    blank = np.zeros((200, 200), bool)
    bg = np.full((200, 200, 3), 120.0, np.float32)
    red = np.full((200, 200, 3), 120, np.uint8)
    red[60:140, 60:140] = (30, 30, 200)
    poly = shapely.box(35.0, 35.0, 65.0, 65.0)  # view px 70-130 both ways
    view = TableView(red, grid, blank, ~blank)
    first = colors.classify_color(view, poly, bg)
    assert first == colors._classify_color(view, poly, bg, False)
    assert colors.classify_color(view, poly, bg) == first
    plain = TableView(np.full_like(red, 120), grid, blank, ~blank)
    other = colors.classify_color(plain, poly, bg)
    assert other == colors._classify_color(plain, poly, bg, False) != first


def _blobs(rng: np.random.Generator, shape: tuple[int, int], n: int, at_edge: bool
           ) -> np.ndarray:
    """A bool view mask of ``n`` random filled quads and specks, some on the view's edge."""
    mask = np.zeros(shape, np.uint8)
    rows, cols = shape
    for _ in range(n):
        c = rng.uniform((0, 0), (cols, rows)) if not at_edge else rng.choice(
            [(0.0, rng.uniform(0, rows)), (cols - 1.0, rng.uniform(0, rows)),
             (rng.uniform(0, cols), 0.0)])
        pts = np.round(np.asarray(c) + rng.uniform(-12, 12, (4, 2))).astype(np.int32)
        cv2.fillPoly(mask, [cv2.convexHull(pts)], 1)
        mask[int(rng.integers(0, rows)), int(rng.integers(0, cols))] = 1
    return mask.view(bool)


@pytest.mark.parametrize("seed", range(8))
def test_crisp_windows_are_the_whole_view(seed: int) -> None:
    # Issue 4, session 43, cost53 (a cost change only): the crisp passes trace their areas,
    # open them and cut them at the grey's mid level on the window round what is left
    # (crisp._nonzero_window, WINDOW_PAD_PX), and grow the pieces found's cover on the window
    # round their outlines: the same areas, pixels and order as on the whole view, areas on
    # the view's edge too.
    from armada_vision.vision.crisp import (
        OPEN_MM,
        WINDOW_PAD_PX,
        _areas,
        _left_of,
        _nonzero_window,
        _without_lit_shadows,
    )
    from armada_vision.vision.scene import Scene
    from armada_vision.vision.segment import grey_at_mid

    rng = np.random.default_rng(seed)
    shape = (150, 170)
    grid = ViewGrid(0.0, 150 / 1.5, 1.5, shape)
    left = _blobs(rng, shape, int(rng.integers(1, 4)), at_edge=seed % 2 == 1)
    ro = max(round(OPEN_MM * grid.px_per_mm), 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ro + 1,) * 2)
    win = _nonzero_window(left, 2 * ro + WINDOW_PAD_PX)
    assert win is not None
    body = cv2.morphologyEx(left.view(np.uint8), cv2.MORPH_OPEN, disc)
    body_w = cv2.morphologyEx(left[win].view(np.uint8), cv2.MORPH_OPEN, disc)
    whole = np.zeros(shape, np.uint8)
    whole[win] = body_w
    assert np.array_equal(whole, body)
    for pad in (0, 4):
        got = _areas(body_w, 3.0, pad=pad, window=(win, shape))
        want = _areas(body, 3.0, pad=pad)
        assert [(c, r) for c, r, _a in got] == [(c, r) for c, r, _a in want]
        assert all(np.array_equal(a, b) for (_c, _r, a), (_d, _e, b) in zip(got, want,
                                                                          strict=True))
    near = cv2.dilate(body, disc, iterations=2) & left.view(np.uint8)
    near_w = cv2.dilate(body_w, disc, iterations=2) & left[win].view(np.uint8)
    ell = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    deep = np.zeros(shape, np.uint8)
    deep[win] = cv2.erode(near_w, ell)
    assert np.array_equal(deep, cv2.erode(near, ell))
    ratio = rng.uniform(0.2, 1.2, shape).astype(np.float32)
    assert np.array_equal(grey_at_mid(left, ratio, 3.0, window=win),
                          grey_at_mid(left, ratio, 3.0))
    shade = rng.uniform(0.5, 1.6, shape).astype(np.float32)
    score = rng.uniform(0.0, 3.0, shape).astype(np.float32)
    assert np.array_equal(_without_lit_shadows(left, shade, score, 3.0, window=win),
                          _without_lit_shadows(left, shade, score, 3.0))
    # The cover grown on its outlines' window: the whole view's dilation.
    scene = Scene(np.zeros(shape, np.float32), np.zeros(shape, np.float32), grid,
                  NOMINAL_PIECES, np.array([50.0, -300.0, 700.0]))
    found = [Candidate(Size.SMALL, False, FitResult(Pose(0.0, 0.0, 0.0), 1.0, 1.0, 1.0, 1.0,
                                                    0.1, 0),
                       rng.uniform(-20, 130, 2) + rng.uniform(-15, 15, (4, 2)), np.zeros(0, bool))
             for _ in range(int(rng.integers(0, 4)))]
    cover, got_left = _left_of(scene, left, found, None)
    want = np.zeros(shape, np.uint8)
    for c in found:
        cv2.fillPoly(want, [np.round(grid.to_px(c.outline_mm)).astype(np.int32)], 1)
    r = max(round(1.5 * grid.px_per_mm), 1)
    want = cv2.dilate(want, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2))
    assert np.array_equal(cover, want)
    assert np.array_equal(got_left, left & (want == 0))
