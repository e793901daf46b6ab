"""The fast outline fit (vision/fit.py) against a plain, per-sample version of the same method.

The reference below is written for reading, not speed: one profile per outline sample, a
Python loop to find the crossing nearest the middle, the Jacobian sample by sample. The
fast code must agree with it to round-off.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vision_helpers import raster_outline

from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.vision.fit import (
    FitResult,
    ViewGrid,
    _edge_offsets,
    _result,
    _samples,
    fit_pose,
    fit_poses,
    lying_local_3d,
    outline_mm,
    sample_costs_at,
    sample_map,
    seen_on_table,
    upright_local_3d,
)


def _bilinear(img: np.ndarray, u: float, v: float) -> float:
    rows, cols = img.shape
    u0, v0 = math.floor(u), math.floor(v)
    if not (0 <= u0 < cols - 1 and 0 <= v0 < rows - 1):
        return 0.0
    fu, fv = u - u0, v - v0
    top = img[v0, u0] * (1 - fu) + img[v0, u0 + 1] * fu
    bot = img[v0 + 1, u0] * (1 - fu) + img[v0 + 1, u0 + 1] * fu
    return float(top * (1 - fv) + bot * fv)


def _bilinear_f32(img: np.ndarray, u: float, v: float) -> float:
    """:func:`_bilinear` at the point as OpenCV's remap takes it (the fit's profiles away
    from the border): in float32. (OpenCV 5 interpolates in float32 too: ~1e-7 more.)"""
    return _bilinear(img, float(np.float32(u)), float(np.float32(v)))


def ref_samples(hull, pts, step_mm):
    """Samples edge by edge: k = max(⌊length / step⌋, 2) at t = (j + ½) / k, off the corners."""
    a_idx, b_idx, ts = [], [], []
    for i in range(len(hull)):
        a, b = hull[i], hull[(i + 1) % len(hull)]
        length = float(np.linalg.norm(pts[b] - pts[a]))
        k = max(int(length / step_mm), 2)
        for j in range(k):
            t = (j + 0.5) / k
            if t * length > 0.8 and (1 - t) * length > 0.8:
                a_idx.append(a)
                b_idx.append(b)
                ts.append(t)
    return np.array(a_idx, int), np.array(b_idx, int), np.array(ts)


def ref_edge_offsets(fg, grid, p_mm, n_mm, search_mm):
    """Per sample (rows of (N, 2) points and normals): walk the profile, nearest crossing."""
    step = 0.5 / grid.px_per_mm
    ts = np.arange(-search_mm, search_mm + 1e-9, step)
    mid = len(ts) // 2
    # Profiles that all lie well inside the view are sampled by OpenCV; else plainly.
    px = grid.to_px(p_mm)
    r_px = (search_mm + 1e-6) * grid.px_per_mm
    rows, cols = fg.shape
    inside = (px.min(axis=0) - r_px >= 0).all() and (px[:, 0].max() + r_px < cols - 1
                                                      and px[:, 1].max() + r_px < rows - 1)
    sample = _bilinear_f32 if inside else _bilinear
    offs, oks, blocked = [], [], []
    for p, n in zip(p_mm, n_mm, strict=True):
        pts = p[None, :] + ts[:, None] * n[None, :]
        prof = np.array([sample(fg, *grid.to_px(q)[0]) for q in pts])
        inner, outer = prof[: mid + 1].max(), prof[mid:].min()
        level = 0.5 * (inner + outer)
        best = None
        for j in sorted(range(len(ts) - 1), key=lambda j: (abs(j - mid + 0.5), j)):
            if prof[j] >= level > prof[j + 1]:
                best = j
                break
        ok = inner - outer > 0.3 and best is not None
        off = 0.0
        if best is not None:
            f0, f1 = prof[best], prof[best + 1]
            off = ts[best] + min(max((f0 - level) / max(f0 - f1, 1e-6), 0.0), 1.0) * step
        offs.append(off)
        oks.append(ok)
        blocked.append(not ok and prof[mid:].mean() > 0.5)
    return np.array(offs), np.array(oks), np.array(blocked)


def ref_fit_pose(fg, grid, local_3d, init, camera_mm, *, search_mm=4.0, iterations=8,
                 step_mm=1.0, huber_px=0.7):
    """The same Gauss–Newton, sample by sample, with a numerical Jacobian."""
    p = np.array([init.x_mm, init.y_mm, math.radians(init.heading_deg)])
    w = res = np.zeros(0)
    ok = blocked = np.zeros(0, bool)
    J = np.zeros((0, 3))
    m0 = n = np.zeros((0, 2))
    search = search_mm
    scale = huber_px / grid.px_per_mm
    last_hull = None

    def outline(q):
        pts = seen_on_table(local_3d, q, camera_mm)
        hull = cv2.convexHull(pts.astype(np.float32), clockwise=False,
                              returnPoints=False).ravel()
        return pts, hull

    for it in range(iterations):
        pts, hull = outline(p)
        if len(hull) < 3:
            break
        if it == 0 or not np.array_equal(hull, last_hull):
            # Samples are placed when the hull (which vertices bound the outline) changes.
            a, b, t = ref_samples(hull, pts, step_mm)
            last_hull = hull
        m0 = pts[a] + (pts[b] - pts[a]) * t[:, None]
        e = pts[b] - pts[a]
        e /= np.linalg.norm(e, axis=1)[:, None]
        n = np.column_stack((e[:, 1], -e[:, 0]))
        off, ok, blocked = ref_edge_offsets(fg, grid, m0, n, search)
        # Jacobian of the samples' normal offsets, vertex by vertex: a vertex at height z is
        # seen at C + (P − C)·k, k = C_z / (C_z − z), so it moves k times as far as P.
        k = camera_mm[2] / (camera_mm[2] - local_3d[:, 2])
        c, s = math.cos(p[2]), math.sin(p[2])
        dvert = np.column_stack((k * (-s * local_3d[:, 0] - c * local_3d[:, 1]),
                                 k * (c * local_3d[:, 0] - s * local_3d[:, 1])))
        J = np.zeros((len(a), 3))
        for i in range(len(a)):
            ki = (1 - t[i]) * k[a[i]] + t[i] * k[b[i]]
            dth = (1 - t[i]) * dvert[a[i]] + t[i] * dvert[b[i]]
            J[i] = (ki * n[i, 0], ki * n[i, 1], dth @ n[i])
        res = -off
        if ok.sum() < 6:
            break
        w = np.where(ok, np.minimum(1.0, scale / np.maximum(np.abs(res), 1e-9)), 0.0)
        w[np.abs(res) > 4 * scale + 0.5 * search] = 0.0
        A = J.T @ (w[:, None] * J) + np.diag([1e-6, 1e-6, 1e-2])
        dp = -np.linalg.solve(A, J.T @ (w * res))
        p = p + dp
        search = max(search * 0.6, 1.5)
        if np.abs(dp[:2]).max() < 0.005 and abs(dp[2]) < 1e-4 and it >= 2:
            break
    probe = m0 + 1.5 * n if len(res) else np.zeros((0, 2))
    return _result(p, res, ok, w, J, grid, huber_px, blocked, probe)


@pytest.mark.parametrize("near_border", [False, True])
def test_edge_offsets_match_the_plain_walk(near_border):
    rng = np.random.default_rng(3)
    grid = ViewGrid(0.0, 100.0, 1.5, (150, 150))
    # A blurred blob map with noise: crossings at many sub-pixel places, some profiles flat.
    fg = np.zeros(grid.shape, np.float32)
    cv2.circle(fg, (75, 75), 40, 1.0, -1)
    fg = cv2.GaussianBlur(fg, (0, 0), 1.2) + rng.normal(0, 0.05, grid.shape).astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi, 60)
    radius = rng.uniform(20, 33, 60)
    centre = np.array([2.0, 98.0]) if near_border else np.array([50.0, 50.0])
    p = centre + np.column_stack((np.cos(ang), np.sin(ang))) * (
        radius[:, None] if not near_border else 1.0)
    n = np.column_stack((np.cos(ang), np.sin(ang)))
    for search in (4.0, 2.4, 1.5):
        off, ok, blocked = _edge_offsets(fg, grid, p.T.copy(), n.T.copy(), search)
        r_off, r_ok, r_blocked = ref_edge_offsets(fg, grid, p, n, search)
        assert np.array_equal(ok, r_ok) and np.array_equal(blocked, r_blocked)
        # float64 sampling agrees to round-off; OpenCV's float32 interpolation to ~1e-6 mm.
        assert np.allclose(off[ok], r_off[ok], atol=1e-9 if near_border else 1e-5)
        assert ok.any() or near_border


def test_samples_match_the_plain_walk():
    rng = np.random.default_rng(5)
    for _ in range(50):
        pts = rng.uniform(0, 60, (5, 2))
        hull = cv2.convexHull(pts.astype(np.float32), clockwise=False,
                              returnPoints=False).ravel()
        a, b, t, edge = _samples(hull, pts, 1.0)
        ra, rb, rt = ref_samples(hull, pts, 1.0)
        assert np.array_equal(a, ra) and np.array_equal(b, rb) and np.array_equal(t, rt)
        assert np.array_equal(hull[edge], a)


def test_sample_map_fast_path_is_bilinear():
    rng = np.random.default_rng(1)
    img = rng.uniform(0, 1, (40, 50)).astype(np.float32)
    # Some points outside (the masked path), then all inside (the direct path).
    for lo, hi in ((-2.0, 2.0), (0.0, -1.001)):
        u, v = rng.uniform(lo, 50 + hi, 500), rng.uniform(lo, 40 + hi, 500)
        got = sample_map(img, u, v)
        want = [_bilinear(img, a, b) for a, b in zip(u, v, strict=True)]
        assert np.allclose(got, want, atol=1e-6)
    # A point inside gets the very same value on either path (an edge search near the view's
    # border must not differ by round-off from one away from it).
    u, v = rng.uniform(0, 48.9, 200), rng.uniform(0, 38.9, 200)
    masked = sample_map(img, np.append(u, -5.0), np.append(v, -5.0))
    assert np.array_equal(masked[:-1], sample_map(img, u, v)) and masked[-1] == 0.0


def test_sample_map_masked_path_takes_numpys_indexed_pixels():
    # Points partly off the image: a C-contiguous image's neighbours are taken by raveled
    # index (cost55), any other by numpy's fancy indexing; the same pixels, the same floats.
    rng = np.random.default_rng(3)
    img = rng.uniform(0, 1, (40, 50)).astype(np.float32)
    wide = np.zeros((40, 100), np.float32)
    wide[:, ::2] = img  # the same pixels in a strided view
    view = wide[:, ::2]
    assert not view.flags.c_contiguous and np.array_equal(view, img)
    u, v = rng.uniform(-3.0, 53.0, 600), rng.uniform(-3.0, 43.0, 600)
    got = sample_map(img, u, v)
    assert np.any(got == 0.0) and np.array_equal(got, sample_map(view, u, v))


@settings(max_examples=12, deadline=None)
@given(size=st.sampled_from(list(Size)), heading=st.floats(0, 360),
       cam_x=st.floats(-300, 300), tilt_y=st.floats(-600, 0),
       dx=st.floats(-3, 3), dy=st.floats(-3, 3), dh=st.floats(-8, 8),
       iterations=st.sampled_from([3, 8]), upright=st.booleans())
def test_fit_pose_matches_the_plain_version(size, heading, cam_x, tilt_y, dx, dy, dh,
                                            iterations, upright):
    grid = ViewGrid(40.0, 160.0, 1.5, (180, 180))
    cam = np.array([100.0 + cam_x, 100.0 + tilt_y, 900.0])
    d = NOMINAL_PIECES.dims(size)
    loc = upright_local_3d(d) if upright else lying_local_3d(d)
    truth = np.array([100.0, 100.0, math.radians(heading)])
    # A neighbour's edge and some noise, so that weights, cuts and misses all happen.
    fg = raster_outline(outline_mm(loc, truth, cam), grid)
    cv2.rectangle(fg, (0, 0), (40, 179), 0.9, -1)
    fg += np.random.default_rng(0).normal(0, 0.03, fg.shape).astype(np.float32)
    init = Pose(100.0 + dx, 100.0 + dy, heading + dh)
    fast = fit_pose(fg, grid, loc, init, cam, iterations=iterations)
    ref = ref_fit_pose(fg, grid, loc, init, cam, iterations=iterations)
    assert math.hypot(fast.pose.x_mm - ref.pose.x_mm, fast.pose.y_mm - ref.pose.y_mm) < 1e-4
    assert abs(fast.pose.heading_deg - ref.pose.heading_deg) < 1e-4
    for k in ("sigma_mm", "sigma_deg", "rms_px", "coverage", "cost"):
        assert getattr(fast, k) == pytest.approx(getattr(ref, k), rel=1e-4, abs=1e-6), k
    assert fast.n_samples == ref.n_samples
    assert np.allclose(fast.probe_mm, ref.probe_mm, atol=1e-4)
    assert np.array_equal(np.isnan(fast.sample_cost), np.isnan(ref.sample_cost))


def test_cost_given_is_the_nanmean_of_the_excused_costs():
    # The plain reading: hidden samples not excused count as a miss (2), excused ones are
    # left out of the mean; nothing left gives 99.
    rng = np.random.default_rng(7)
    for _ in range(300):
        n = int(rng.integers(0, 60))
        cost = rng.uniform(0, 2, n)
        cost[rng.uniform(size=n) < rng.uniform()] = np.nan
        explained = rng.uniform(size=n) < rng.uniform()
        f = FitResult(Pose(0.0, 0.0, 0.0), 0.0, 0.0, 0.0, 0.0, 0.0, n, cost, np.zeros((n, 2)))
        c = np.where(np.isnan(cost) & ~explained, 2.0, cost)
        want = float(np.nanmean(c)) if np.any(~np.isnan(c)) else 99.0
        assert f.cost_given(explained) == want


def test_give_up_stops_after_round_three_only_above_the_ceiling():
    # A fit that gives up returns exactly the 3-round fit; one under its ceiling runs on to
    # the very result it would have had without one.
    grid = ViewGrid(40.0, 160.0, 1.5, (180, 180))
    cam = np.array([120.0, -200.0, 900.0])
    loc = lying_local_3d(NOMINAL_PIECES.dims(Size.MEDIUM))
    fg = raster_outline(outline_mm(loc, np.array([100.0, 100.0, 0.5]), cam), grid)
    gave_up = 0
    for dx, dh in ((0.5, 2.0), (6.0, 25.0), (-8.0, 60.0), (10.0, 120.0), (3.0, 170.0)):
        init = Pose(100.0 + dx, 100.0 - dx / 2, math.degrees(0.5) + dh)
        r3 = fit_pose(fg, grid, loc, init, cam, iterations=3)
        full = fit_pose(fg, grid, loc, init, cam)
        above = fit_pose(fg, grid, loc, init, cam, give_up=((3, r3.cost + 1e-9),))
        below = fit_pose(fg, grid, loc, init, cam, give_up=((3, r3.cost - 1e-9),))
        assert (above.pose, above.cost) == (full.pose, full.cost)
        want = r3 if r3.cost <= 2.0 else full
        assert (below.pose, below.cost) == (want.pose, want.cost)
        gave_up += below.pose != full.pose
    assert gave_up >= 2


def test_cost_only_gives_the_full_results_pose_and_cost():
    grid = ViewGrid(40.0, 160.0, 1.5, (180, 180))
    cam = np.array([60.0, -300.0, 900.0])
    loc = lying_local_3d(NOMINAL_PIECES.dims(Size.LARGE))
    fg = raster_outline(outline_mm(loc, np.array([100.0, 100.0, 2.0]), cam), grid)
    costs = []
    for dx, dh in ((0.0, 0.0), (4.0, 20.0), (10.0, 45.0), (8.0, 60.0), (200.0, 0.0)):
        init = Pose(100.0 + dx, 100.0 + dx / 3, math.degrees(2.0) + dh)
        for it in (3, 8):
            full = fit_pose(fg, grid, loc, init, cam, iterations=it)
            lean = fit_pose(fg, grid, loc, init, cam, iterations=it, cost_only=True)
            assert (lean.pose, lean.cost, lean.n_samples) == (full.pose, full.cost,
                                                              full.n_samples)
            costs.append(full.cost)
    # Good fits, poor ones and one that found no edges at all (99) were all compared.
    assert min(costs) < 0.35 and any(0.35 < c < 99.0 for c in costs) and max(costs) == 99.0


@pytest.mark.parametrize(("give_up", "cost_only", "iterations"),
                         [((), False, 8), (((3, 0.5), (4, 0.3)), False, 8), (((2, 1.0),), True, 3)])
def test_fits_side_by_side_are_the_fits_one_by_one(give_up, cost_only, iterations):
    # fit_poses must give each fit the very floats fit_pose gives it: good and poor starts,
    # all sizes, lying and standing bodies, and a start by the view's border (its edge search
    # takes the masked path, alone), some of them ending or giving up before the others.
    grid = ViewGrid(0.0, 200.0, 1.5, (300, 300))
    cam = np.array([90.0, -250.0, 900.0])
    fg = np.zeros((300, 300), np.float32)
    truths = [(Size.SMALL, 40.0, 50.0, 30.0), (Size.MEDIUM, 120.0, 60.0, 200.0),
              (Size.LARGE, 80.0, 140.0, 100.0), (Size.MEDIUM, 10.0, 185.0, 0.0)]
    for z, x, y, h in truths:
        loc = lying_local_3d(NOMINAL_PIECES.dims(z))
        fg = np.maximum(fg, raster_outline(outline_mm(loc, np.array([x, y, math.radians(h)]),
                                                      cam), grid))
    fg += np.random.default_rng(5).normal(0, 0.03, fg.shape).astype(np.float32)
    jobs = []
    for i, (z, x, y, h) in enumerate(truths):
        d = NOMINAL_PIECES.dims(z)
        for dx, dh in ((0.5, 3.0), (5.0, 30.0)):
            jobs.append((lying_local_3d(d), Pose(x + dx, y - dx / 2, h + dh)))
        if i == 1:
            jobs.append((upright_local_3d(d), Pose(x, y, h)))
    jobs.append((lying_local_3d(NOMINAL_PIECES.dims(Size.SMALL)), Pose(500.0, 500.0, 0.0)))
    kw = dict(iterations=iterations, give_up=give_up, cost_only=cost_only)
    side = fit_poses(fg, grid, jobs, cam, **kw)
    alone = [fit_pose(fg, grid, loc, init, cam, **kw) for loc, init in jobs]
    assert len(side) == len(alone)
    for a, b in zip(side, alone, strict=True):
        assert (a.pose, a.sigma_mm, a.sigma_deg, a.rms_px, a.coverage, a.cost, a.n_samples) == (
            b.pose, b.sigma_mm, b.sigma_deg, b.rms_px, b.coverage, b.cost, b.n_samples)
        assert np.array_equal(a.sample_cost, b.sample_cost, equal_nan=True)
        assert np.array_equal(a.probe_mm, b.probe_mm)
    # The cases the comparison is for all happened: fits that found their piece, ones that
    # did not, and (with ceilings) ones given up.
    costs = [r.cost for r in alone]
    assert min(costs) < 0.35 and max(costs) > 0.5
    if give_up and not cost_only:
        assert any(r.sigma_mm == 99.0 and r.cost <= 2.0 for r in alone)


@pytest.mark.parametrize("kind", ["blobs", "noise", "overflow"])
def test_view_regions_labels_match_opencvs_int32_labels(kind):
    """segment._components (uint16 labels while they fit) gives cv2's int32 count, labels and
    stats, and falls back to int32 when the labels overflow uint16."""
    from armada_vision.vision.segment import _components

    rng = np.random.default_rng(3)
    if kind == "blobs":
        mask = np.zeros((300, 400), np.uint8)
        for _ in range(12):
            x, y = rng.integers(0, 380), rng.integers(0, 280)
            cv2.circle(mask, (int(x), int(y)), int(rng.integers(2, 30)), 1, -1)
    elif kind == "noise":
        mask = (rng.random((200, 250)) > 0.6).astype(np.uint8)
    else:  # isolated pixels: ~90 000 labels, more than uint16 holds
        mask = np.zeros((600, 600), np.uint8)
        mask[::2, ::2] = 1
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    n2, lab2, stats2 = _components(mask)
    assert n2 == n > 1
    assert np.array_equal(lab2, lab)
    assert np.array_equal(stats2, stats)
    assert (lab2.dtype == np.int32) == (kind == "overflow")


@pytest.mark.parametrize("box", [(40, 60, 160, 200), (0, 0, 90, 120), (150, 250, 300, 400)])
def test_view_regions_in_a_box_are_the_whole_views(box):
    """segment.view_regions on a mask that is 0 outside ``box`` (traced in the box only) gives
    the whole view's regions: the same sub-grids and masks, inside and running off the view."""
    from armada_vision.vision.fit import ViewGrid
    from armada_vision.vision.segment import view_regions

    rng = np.random.default_rng(4)
    mask = np.zeros((300, 400), np.uint8)
    for _ in range(10):
        x, y = rng.integers(box[1], box[3]), rng.integers(box[0], box[2])
        cv2.circle(mask, (int(x), int(y)), int(rng.integers(2, 25)), 1, -1)
    outside = np.ones_like(mask, bool)
    outside[box[0]:box[2], box[1]:box[3]] = False
    mask[outside] = 0
    grid = ViewGrid(0.0, 0.0, 1.5, (300, 400))
    whole = view_regions(mask, grid, min_area_mm2=20.0, pad_px=15)
    boxed = view_regions(mask, grid, min_area_mm2=20.0, pad_px=15, box=box)
    assert whole[0]  # regions to compare (the boxes at the view's edge hold some running off)
    for a, b in zip(whole, boxed, strict=True):
        assert [(s.x0_mm, s.y1_mm, s.shape) for s, _ in a] == [
            (s.x0_mm, s.y1_mm, s.shape) for s, _ in b]
        assert all(np.array_equal(m, k) for (_, m), (_, k) in zip(a, b, strict=True))


@pytest.mark.parametrize("n_dist", [0, 4, 5, 8, 12])
def test_calibration_project_matches_opencvs_projectpoints(n_dist):
    """TableCalibration.project (numpy for up to 8 distortion terms, OpenCV beyond) puts
    table points where cv2.projectPoints does, to round-off."""
    from armada_vision.geometry.camera import CameraIntrinsics
    from armada_vision.vision.calibrate import TableCalibration

    rng = np.random.default_rng(n_dist)
    dist = tuple(float(v) for v in rng.normal(0.0, 0.08, n_dist)) or (0.0,) * 5
    cam = CameraIntrinsics((1920, 1080), ((1500.0, 0.0, 955.0), (0.0, 1490.0, 545.0),
                                          (0.0, 0.0, 1.0)), dist)
    rvec, tvec = (2.6, 0.1, -0.05), (-400.0, 300.0, 1100.0)
    calib = TableCalibration(cam, rvec, tvec, None, 0.1)  # type: ignore[arg-type]
    pts = np.column_stack((rng.uniform(0, 900, 500), rng.uniform(0, 900, 500),
                           rng.uniform(0, 40, 500)))
    want = cv2.projectPoints(pts, np.array(rvec), np.array(tvec), cam.K, cam.dist)[0]
    got = calib.project(pts)
    assert got.shape == (500, 2)
    assert np.abs(got - want.reshape(-1, 2)).max() < 1e-9
    # Points on the table plane may be given as (N, 2).
    flat = pts.copy()
    flat[:, 2] = 0.0
    assert np.array_equal(calib.project(flat[:, :2]), calib.project(flat))


def test_row_median_is_numpys_nanmedian():
    """corners._row_median gives np.nanmedian of the kept values per row, bit for bit,
    with odd, even and empty rows."""
    from armada_vision.vision.corners import _row_median

    rng = np.random.default_rng(5)
    values = rng.exponential(0.3, (64, 40))
    keep = rng.random((64, 40)) < rng.random((64, 1))
    keep[0] = False
    keep[1] = True
    keep[2, :] = False
    keep[2, 7] = True
    with np.errstate(all="ignore"), pytest.warns(RuntimeWarning):
        want = np.nanmedian(np.where(keep, values, np.nan), axis=1)
    got = _row_median(values, keep)
    assert np.isnan(got[0]) and np.isnan(want[0])
    assert np.array_equal(got, want, equal_nan=True)
    assert len({int(n) % 2 for n in keep.sum(axis=1)}) == 2


def test_detect_keeps_freed_memory_on_glibc():
    """vision.heap: on Linux with glibc, mallopt takes both settings (a detect's freed
    view-sized arrays are reused by the next, not faulted in again); asking again is a no-op.
    Elsewhere it reports False and changes nothing."""
    import ctypes
    import sys

    from armada_vision.vision.heap import keep_freed_memory

    try:
        has_mallopt = sys.platform.startswith("linux") and hasattr(ctypes.CDLL(None), "mallopt")
    except OSError:
        has_mallopt = False
    assert keep_freed_memory() is has_mallopt
    assert keep_freed_memory() is has_mallopt


@pytest.mark.parametrize("size", [Size.SMALL, Size.LARGE])
def test_a_coarse_grid_judges_long_bodies_residuals_in_its_units(size):
    # A compressed frame's grid (edge_px 2, vision.jpeg): the same pose and σ, the cost of
    # residuals half as large for a body as long as a medium; a small keeps view px.
    grid = ViewGrid(40.0, 160.0, 1.5, (180, 180))
    coarse = ViewGrid(40.0, 160.0, 1.5, (180, 180), edge_px=2.0)
    cam = np.array([120.0, -300.0, 900.0])
    loc = lying_local_3d(NOMINAL_PIECES.dims(size))
    truth = np.array([100.0, 100.0, math.radians(30.0)])
    # The outline drawn 1 mm too wide on one side, blurred: residuals of about 1.5 view px.
    fg = cv2.GaussianBlur(raster_outline(outline_mm(loc, truth, cam), grid), (0, 0), 1.5)
    fg[:, 95:] = cv2.dilate(fg, np.ones((1, 3), np.uint8))[:, 95:]
    init = Pose(100.5, 99.5, 31.0)
    fine, wide = fit_pose(fg, grid, loc, init, cam), fit_pose(fg, coarse, loc, init, cam)
    assert (wide.pose, wide.sigma_mm, wide.sigma_deg) == (fine.pose, fine.sigma_mm,
                                                          fine.sigma_deg)
    if size is Size.SMALL:
        assert wide.cost == fine.cost and math.isnan(wide.cost_1px)
    else:
        assert 0.0 < wide.cost < fine.cost == pytest.approx(wide.cost_1px)
    # Side by side with a body of the other kind, each judged in its own units.
    other = lying_local_3d(NOMINAL_PIECES.dims(Size.LARGE if size is Size.SMALL
                                               else Size.SMALL))
    side = fit_poses(fg, coarse, [(loc, init), (other, init)], cam)
    assert side[0].cost == pytest.approx(wide.cost, rel=1e-6)
    assert side[1].cost == pytest.approx(fit_pose(fg, coarse, other, init, cam).cost, rel=1e-6)


def test_seen_on_table_is_the_numpy_form_bit_for_bit():
    """speed25: seen_on_table works a body's vertices out in plain floats; they must be the
    very numbers of its numpy form (the outlines of every candidate come from it)."""
    rng = np.random.default_rng(25)
    for _ in range(300):
        params = np.array([*rng.uniform(-600, 600, 2), rng.uniform(-7, 7)])
        camera_mm = np.array([*rng.uniform(-600, 600, 2), rng.uniform(300, 2500)])
        for z in Size:
            for local_3d in (lying_local_3d(NOMINAL_PIECES.dims(z)),
                             upright_local_3d(NOMINAL_PIECES.dims(z))):
                c, s = math.cos(params[2]), math.sin(params[2])
                x = params[0] + c * local_3d[:, 0] - s * local_3d[:, 1]
                y = params[1] + s * local_3d[:, 0] + c * local_3d[:, 1]
                k = camera_mm[2] / (camera_mm[2] - local_3d[:, 2])
                want = np.column_stack((camera_mm[0] + (x - camera_mm[0]) * k,
                                        camera_mm[1] + (y - camera_mm[1]) * k))
                assert seen_on_table(local_3d, params, camera_mm).tobytes() == want.tobytes()


def test_a_placed_fits_samples_and_edges_are_their_own_products_bit_for_bit():
    """speed63: _Fit.place takes an outline's samples (vertices.T @ interp_t) and hull edge
    vectors (vertices.T @ edge_vec_t) from one product with both matrices side by side
    (``_Outline.both_t``); each must be the very floats of its own product, for every size,
    lying and standing, over random poses and cameras (every hull shape the fits meet)."""
    from armada_vision.vision.fit import _Fit

    rng = np.random.default_rng(63)
    grid = ViewGrid(-700.0, 700.0, 1.5, (2100, 2100))
    to_px = np.array(((1.5,), (-1.5,)))
    origin = np.array(((grid.x0_mm,), (grid.y1_mm,)))
    hulls = set()
    for _ in range(400):
        cam = np.array([*rng.uniform(-600, 600, 2), rng.uniform(300, 2500)])
        init = Pose(*rng.uniform(-300, 300, 2), rng.uniform(-180, 180))
        for z in Size:
            for loc in (lying_local_3d(NOMINAL_PIECES.dims(z)),
                        upright_local_3d(NOMINAL_PIECES.dims(z))):
                f = _Fit(loc, init, cam)
                assert f.place(grid, to_px, origin, float(rng.choice([0.5, 1.0])))
                pts_t = f.body.seen(f.x, f.y, f.c, f.s).T
                hulls.add(f.out.key)
                # One product gave both (what saves the call).
                assert f.m0.base is not None and f.m0.base is f.e.base
                assert f.m0.tobytes() == (pts_t @ f.out.interp_t.copy()).tobytes()
                e = pts_t @ f.out.edge_vec_t.copy()
                e /= np.hypot(e[0], e[1])
                assert f.n.tobytes() == (e[::-1] * np.array(((1.0,), (-1.0,)))).take(
                    f.out.edge, axis=1).tobytes()
    assert len(hulls) > 20



def _three_pieces_map() -> tuple[ViewGrid, np.ndarray, np.ndarray, list]:
    """A 300×300 px view (1.5 px/mm), a tilted camera and the fit map of a small, a medium
    and a large lying apart, with their (size, x_mm, y_mm, heading_deg)."""
    grid = ViewGrid(0.0, 200.0, 1.5, (300, 300))
    cam = np.array([90.0, -250.0, 900.0])
    fg = np.zeros((300, 300), np.float32)
    truths = [(Size.SMALL, 40.0, 50.0, 30.0), (Size.MEDIUM, 120.0, 60.0, 200.0),
              (Size.LARGE, 80.0, 140.0, 100.0)]
    for z, x, y, h in truths:
        loc = lying_local_3d(NOMINAL_PIECES.dims(z))
        fg = np.maximum(fg, raster_outline(outline_mm(loc, np.array([x, y, math.radians(h)]),
                                                      cam), grid))
    return grid, cam, fg, truths

def test_a_fit_rounds_products_are_ndarray_dots_with_the_matmul_bits():
    """speed69: a fit round's small products (_Body.seen's kl·R, place's samples and edges,
    step's R′q, wjt·jtᵀ and wjt·off) are taken with ndarray.dot, not the @ operator: the same
    BLAS call (gemm / gemv) without the matmul gufunc's set-up (~3.6 k instructions a product,
    callgrind; ~6 products a fit and round). They must be the @ products bit for bit: every
    round's step of good and poor starts, all sizes, lying and standing, is worked out again
    with @ from the fit's own operands."""
    import sys

    from armada_vision.vision.fit import _edge_offsets_px, _Fit, _solve3, _weights

    grid, cam, fg, truths = _three_pieces_map()
    fg += np.random.default_rng(69).normal(0, 0.03, fg.shape).astype(np.float32)
    to_px = np.array(((1.5,), (-1.5,)))
    origin = np.array(((grid.x0_mm,), (grid.y1_mm,)))
    scale = 0.7 / 1.5
    steps = dots = place_dots = 0
    for z, x, y, h in truths:
        d = NOMINAL_PIECES.dims(z)
        for loc in (lying_local_3d(d), upright_local_3d(d)):
            for dx, dh in ((0.5, 3.0), (4.0, 25.0)):
                f = _Fit(loc, Pose(x + dx, y - dx / 2, h + dh), cam)
                search = 4.0
                for it in range(8):
                    # Which products go through ndarray.dot: C calls seen by a profile hook
                    # (the @ operator makes none).
                    seen: list[str] = []
                    sys.setprofile(lambda _fr, ev, arg, seen=seen: seen.append(arg.__name__)
                                   if ev == "c_call" else None)
                    try:
                        placed = f.place(grid, to_px, origin, 1.0)
                    finally:
                        sys.setprofile(None)
                    if not placed:
                        break
                    place_dots += seen.count("dot")
                    pts_t = f.body.seen(f.x, f.y, f.c, f.s).T
                    assert f.m0.tobytes() == (pts_t @ f.out.interp_t.copy()).tobytes()
                    assert pts_t.tobytes() == (f.body.base + f.body.kc * (f.x, f.y) + f.body.kl
                                               @ np.array(((f.c, f.s), (-f.s, f.c)))
                                               ).T.tobytes()
                    off, ok, blocked = _edge_offsets_px(fg, 1.5, f.p_px, f.d_px, search, f.bbox)
                    x0, y0, th0, c, s = f.x, f.y, f.th, f.c, f.s
                    seen.clear()
                    sys.setprofile(lambda _fr, ev, arg, seen=seen: seen.append(arg.__name__)
                                   if ev == "c_call" else None)
                    try:
                        going = f.step(off, ok, blocked, search, scale, it)
                    finally:
                        sys.setprofile(None)
                    if np.count_nonzero(ok) < 6:
                        break
                    # The step again with @ from the fit's own operands.
                    jt = np.empty((3, len(off)))
                    np.multiply(f.out.ka, f.n, out=jt[:2])
                    tq = np.array(((-s, -c), (c, -s))) @ f.out.q_t
                    tq *= f.n
                    np.add(tq[0], tq[1], out=jt[2])
                    assert jt.tobytes() == f.jt.tobytes()
                    w, _keep = _weights(off, ok, search, scale)
                    wjt = jt * w
                    ddx, ddy, ddth = _solve3(wjt @ jt.T, wjt @ off, (1e-6, 1e-6, 1e-2))
                    assert (f.x, f.y, f.th) == (x0 + ddx, y0 + ddy, th0 + ddth)
                    steps += 1
                    dots += seen.count("dot")
                    if not going:
                        break
                    search = max(search * 0.6, 1.5)
    # Every round compared took its two products in place and three in step with ndarray.dot.
    assert steps > 40 and dots == 3 * steps and place_dots >= 2 * steps


def test_sample_costs_at_a_pose_are_its_outlines_own_not_fitted():
    # fit.sample_costs_at (edge_refits.clear_far_shift's measured step, session 60): an
    # outline placed on its own map costs little, one placed 2 mm off costs more on the side
    # facing the move and the side facing away, and a converged fit's own sample costs are
    # what it gives at the fit's pose. Normals are unit vectors, one per sample.
    grid = ViewGrid(40.0, 160.0, 1.5, (180, 180))
    cam = np.array([120.0, -200.0, 900.0])
    loc = lying_local_3d(NOMINAL_PIECES.dims(Size.MEDIUM))
    fg = raster_outline(outline_mm(loc, np.array([100.0, 100.0, 0.5]), cam), grid)
    at = Pose(100.0, 100.0, math.degrees(0.5))
    costs, normals = sample_costs_at(fg, grid, loc, at, cam)
    assert costs.shape == (len(normals),) and np.allclose(np.hypot(*normals.T), 1.0)
    assert float(np.nanmean(costs)) < 0.15
    off, n_off = sample_costs_at(fg, grid, loc, Pose(102.0, 100.0, at.heading_deg), cam)
    facing = np.abs(n_off[:, 0]) > 0.5
    assert float(np.nanmean(off[facing])) > 0.5 + float(np.nanmean(costs))
    f = fit_pose(fg, grid, loc, at, cam)
    again, _ = sample_costs_at(fg, grid, loc, f.pose, cam)
    assert abs(float(np.nanmean(again)) - float(np.nanmean(f.sample_cost))) < 0.05


def test_a_fit_round_asks_numpy_by_its_c_functions_with_the_same_numbers():
    """speed71: a fit round counts its found samples with numpy's C count_nonzero (not
    np.count_nonzero's Python wrapper and dispatcher, ~2.3 k instructions a call, ~1 200 calls
    a detect) and builds its two 2×2 rotations (_Body.seen's R, step's R′) from four packed
    doubles (fit._two_by_two), not np.array of nested tuples (~2.4 k instructions less). The
    same numbers: the rotations bit for bit, the counts equal and of the same type; and no
    round of fit_poses (lying and standing bodies, good and poor starts) calls either."""
    import sys

    from armada_vision.vision.fit import _count_true, _two_by_two

    rng = np.random.default_rng(71)
    for a, b, c, d in rng.normal(0.0, 1.0, (300, 4)).tolist():
        got = _two_by_two(a, b, c, d)
        want = np.array(((a, b), (c, d)))
        assert got.shape == want.shape and got.dtype == want.dtype
        assert got.tobytes() == want.tobytes()
    for n in (0, 1, 7, 300):
        m = rng.random(n) < 0.4
        assert _count_true(m) == np.count_nonzero(m)
        assert type(_count_true(m)) is type(np.count_nonzero(m))

    grid, cam, fg, truths = _three_pieces_map()
    jobs = []
    for z, x, y, h in truths:
        d = NOMINAL_PIECES.dims(z)
        for loc in (lying_local_3d(d), upright_local_3d(d)):
            for dx, dh in ((0.5, 3.0), (4.0, 25.0)):
                jobs.append((loc, Pose(x + dx, y - dx / 2, h + dh)))
    asked: dict[str, int] = {"step": 0, "wrapper": 0, "nested": 0}

    def hook(frame, event, arg) -> None:
        name = frame.f_code.co_name
        if event == "call" and name == "step":
            asked["step"] += 1
        elif event == "call" and name == "count_nonzero" and "numpy" in frame.f_code.co_filename:
            asked["wrapper"] += 1
        elif event == "c_call" and arg.__name__ == "array" and name in ("step", "seen"):
            asked["nested"] += 1

    sys.setprofile(hook)
    try:
        fits = fit_poses(fg, grid, jobs, cam)
    finally:
        sys.setprofile(None)
    assert len(fits) == len(jobs) and asked["step"] > 40
    assert asked["wrapper"] == 0 and asked["nested"] == 0
