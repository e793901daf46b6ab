"""explain.py's bookkeeping: remembered fits, screens and shapes give what fresh ones give.
Scenes come from the renderer; the truth is the renderer's."""

from __future__ import annotations

import math
import warnings
from functools import cache

import cv2
import numpy as np
import pytest

from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.synth.random_scene import random_scene
from armada_vision.synth.render import render
from armada_vision.vision.calibrate import TableCalibration, calibrate
from armada_vision.vision.detect import region_foreground, shade
from armada_vision.vision.explain import (
    fits_from_axis,
    no_piece_in,
    row_ends,
    stern_guesses,
    tip_guesses,
)
from armada_vision.vision.fit import ViewGrid
from armada_vision.vision.scene import GOOD_COST, Scene, clashes
from armada_vision.vision.segment import blobs, foreground, make_rectifier


@cache
def scene_and_truth() -> tuple[Scene, list[dict]]:
    """A fresh Scene (no fits remembered yet) of a rendered 1280×720 view, and its truth."""
    r = render(random_scene(1003, image_size=(1280, 720), tilt_deg=5.0))
    cal = calibrate(r.image_bgr, r.layout, r.camera)
    assert isinstance(cal, TableCalibration)
    view = make_rectifier(cal, r.layout, 1.5).view(r.image_bgr)
    score, bg = foreground(view)
    _mask, regions = blobs(score, view.grid)
    return (Scene(region_foreground(score, regions, view.grid), score, view.grid,
                  NOMINAL_PIECES, cal.camera_center_mm, shade(view.image_bgr, bg)),
            [p for p in r.truth["pieces"] if p.get("fully_visible", True)])


def fresh(scene: Scene) -> Scene:
    return Scene(scene.fg, scene.score, scene.grid, scene.pieces, scene.camera_mm, scene.shade)


def truth_pose(p: dict) -> Pose:
    return Pose(p["stern"][0], p["stern"][1], p["heading"])


def test_a_repeated_fit_is_remembered_and_equals_a_fresh_one():
    scene, truth = scene_and_truth()
    p = truth[0]
    start = truth_pose(p)
    start = Pose(start.x_mm + 1.5, start.y_mm - 1.0, start.heading_deg + 3.0)
    size = Size(p["size"])
    a = scene.fit(size, start)
    assert scene.fit(size, start) is a
    b = fresh(scene).fit(size, start)
    assert b is not a
    assert (a.fit.pose, a.fit.cost) == (b.fit.pose, b.fit.cost)
    np.testing.assert_array_equal(a.outline_mm, b.outline_mm)
    # Real behaviour, not just bookkeeping: the fit lands on the rendered piece, cleanly.
    assert math.dist(a.fit.pose.stern_mm, p["stern"]) < 2.5
    assert a.fit.cost <= GOOD_COST
    # Another iteration count is another fit.
    assert scene.fit(size, start, iterations=3) is not a


def test_a_screen_is_the_short_fit_without_the_candidate():
    scene, truth = scene_and_truth()
    p = truth[1]
    start = truth_pose(p)
    start = Pose(start.x_mm - 1.0, start.y_mm + 2.0, start.heading_deg - 4.0)
    f = scene.screen(Size(p["size"]), start)
    c = fresh(scene).fit(Size(p["size"]), start, iterations=3)
    assert (f.pose, f.cost) == (c.fit.pose, c.fit.cost)
    assert scene.screen(Size(p["size"]), start) is f
    assert math.dist(f.pose.stern_mm, p["stern"]) < math.dist(start.stern_mm, p["stern"])


def test_clashes_agrees_with_plain_footprint_overlap():
    scene, truth = scene_and_truth()
    cands = []
    for p in truth:
        for dx in (0.0, 6.0, 15.0):
            t = truth_pose(p)
            cands.append(scene.fit(Size(p["size"]), Pose(t.x_mm + dx, t.y_mm, t.heading_deg)))
    for c in cands:
        for o in cands:
            fc = footprint(c.fit.pose, NOMINAL_PIECES.dims(c.size))
            fo = footprint(o.fit.pose, NOMINAL_PIECES.dims(o.size))
            plain = fc.intersection(fo).area >= 0.15 * min(fc.area, fo.area)
            assert clashes(c, [o], scene) == plain



def test_fits_from_axis_tries_the_sizes_nearest_the_length_first():
    scene, truth = scene_and_truth()
    # An axis guess on bare table, away from every piece: no fit is clean, so every size
    # allowed is tried.
    rows, cols = scene.grid.shape
    (x0, y1), (x1, y0) = scene.grid.to_mm(np.array([[0.0, 0.0], [cols - 1.0, rows - 1.0]]))
    spots = [(x, y) for x in np.linspace(x0 + 60, x1 - 60, 9)
             for y in np.linspace(y0 + 60, y1 - 60, 9)]
    x, y = max(spots, key=lambda q: min(math.dist(q, p["stern"]) for p in truth))
    length = NOMINAL_PIECES.dims(Size.MEDIUM).footprint_length_mm + 1.0
    every = fits_from_axis(scene, Pose(x, y, 30.0), length)
    two = fits_from_axis(scene, Pose(x, y, 30.0), length, sizes=2)
    by_nearness = sorted(Size, key=lambda z: abs(NOMINAL_PIECES.dims(z).footprint_length_mm
                                                  - length))
    assert [c.size for c in every] == by_nearness
    assert all(c.fit.cost > GOOD_COST for c in every)
    # The same fits (remembered), without the size farthest from the length.
    assert [c.size for c in two] == by_nearness[:2]
    assert all(a is b for a, b in zip(two, every[:2], strict=True))


def _mask_mm(scene: Scene, polygon_mm: np.ndarray) -> np.ndarray:
    """The view px inside a table-mm polygon, as a region on the scene's grid."""
    m = np.zeros(scene.grid.shape, np.uint8)
    cv2.fillPoly(m, [np.round(scene.grid.to_px(polygon_mm)).astype(np.int32)], 1)
    return m.astype(bool)


def _circle_mm(c: tuple[float, float], r: float) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, 64, endpoint=False)
    return np.column_stack((c[0] + r * np.cos(t), c[1] + r * np.sin(t)))


def _rect_mm(c: tuple[float, float], w: float, h: float) -> np.ndarray:
    return np.array([(c[0] - w / 2, c[1] - h / 2), (c[0] + w / 2, c[1] - h / 2),
                     (c[0] + w / 2, c[1] + h / 2), (c[0] - w / 2, c[1] + h / 2)])


# Regions no piece can explain are not fitted (issue 4, cold detect speed): as round as a chit
# or a coin, thinner than a strip of shadow, or smaller than what explain_region leaves.
@pytest.mark.parametrize("name, polygon_mm, skipped", [
    ("a coin, 12 mm radius", _circle_mm((200.0, 200.0), 12.0), True),
    ("a strip of shadow, 2 × 40 mm", _rect_mm((200.0, 200.0), 40.0, 2.0), True),
    ("a speck, 8 × 8 mm", _rect_mm((200.0, 200.0), 8.0, 8.0), True),
    ("a chit, 20 × 30 mm (not round: it is fitted)", _rect_mm((200.0, 200.0), 20.0, 30.0),
     False),
])
def test_regions_no_piece_can_explain(name, polygon_mm, skipped):
    scene, _truth = scene_and_truth()
    assert no_piece_in(scene, _mask_mm(scene, polygon_mm), scene.grid) is skipped, name


def test_every_lying_pieces_footprint_is_a_region_to_fit():
    scene, truth = scene_and_truth()
    lying = [p for p in truth if not p.get("upright")]
    assert len(lying) >= 3
    for p in lying:
        fp = footprint(truth_pose(p), NOMINAL_PIECES.dims(Size(p["size"])))
        region = _mask_mm(scene, np.asarray(fp.exterior.coords))
        assert not no_piece_in(scene, region, scene.grid), p


# A lying piece rests on its tip and its two stern corners (issue 4): each sharp corner of its
# footprint's region gives starts with a stern corner there, either edge taken as the long
# side; one of them is the piece's own pose, whichever way it points.
@pytest.mark.parametrize("heading", [0.0, 37.0, 145.7, -100.0])
def test_a_stern_corner_start_lies_at_the_pieces_stern(heading):
    scene, _truth = scene_and_truth()
    pose = Pose(300.0, 300.0, heading)
    fp = footprint(pose, NOMINAL_PIECES.dims(Size.LARGE))
    starts = stern_guesses(_mask_mm(scene, np.asarray(fp.exterior.coords)), scene.grid,
                           NOMINAL_PIECES)
    assert len(starts) == 3 * 2 * 3  # tip and stern corners, two sides each, three sizes
    large = [p for z, p in starts if z is Size.LARGE]
    best = min(large, key=lambda p: math.dist(p.stern_mm, pose.stern_mm))
    assert math.dist(best.stern_mm, pose.stern_mm) < 1.0
    assert abs((best.heading_deg - heading + 180.0) % 360.0 - 180.0) < 3.0


# A region's outline can come back to where it was k points before (a hook one pixel wide,
# walked out and back): that point's arm to it has no length, so no direction. Read as a 90°
# corner, it gave a NaN heading, and the detect stopped on Pose's finite-number check (issue 4,
# session 48: a scene of the blind judge set 13744-14031). No corner is read there now.
def test_a_corner_with_an_arm_of_no_length_is_no_tip_nor_stern():
    part = np.zeros((60, 60), bool)
    part[20:41, 20:41] = True
    for v, u in ((30, 41), (30, 42), (27, 43), (28, 43), (29, 43), (31, 43), (31, 44)):
        part[v, u] = True  # a hook off the square's side, one pixel wide
    grid = ViewGrid(0.0, 100.0, 2.5, part.shape)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the NaN came with a divide warning
        tips = tip_guesses(part, grid)
        starts = stern_guesses(part, grid, NOMINAL_PIECES)
    assert tips and starts
    assert all(np.isfinite(t).all() and math.isfinite(h) for t, h in tips)
    assert all(math.isfinite(p.heading_deg) for _z, p in starts)


def test_the_hull_of_a_masks_row_ends_is_the_hull_of_all_its_pixels():
    """row_ends (no_piece_in's and crisp._worth_fitting's hull points): cv2.convexHull of each
    row's first and last set pixel is, byte for byte, the hull of all the set pixels (the
    same vertices, starting at the same one), on random masks: speckle, blobs with holes,
    single-pixel rows and columns, one pixel."""
    rng = np.random.default_rng(52)
    for _ in range(1500):
        h, w = (int(v) for v in rng.integers(1, 70, 2))
        mask = rng.random((h, w)) < rng.random()
        if rng.random() < 0.5:
            grown = cv2.dilate(mask.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
            mask = grown & (rng.random((h, w)) < 0.95)
        if not mask.any():
            continue
        ys, xs = np.nonzero(mask)
        full = cv2.convexHull(np.column_stack((xs, ys)).astype(np.float32))
        assert cv2.convexHull(row_ends(mask)).tobytes() == full.tobytes()
