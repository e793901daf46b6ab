"""The early skips of base_quad.pieces_from_base (issue 4, speed22) leave only what its full
tests would leave: a dark area within a marker's bounds, and one surely on a piece found."""

from __future__ import annotations

import cv2
import numpy as np
import shapely

from armada_vision.vision.base_quad import (
    COVER_MM,
    RIM_MM,
    _all_on,
    _bounds_px,
    _surely_on,
    _within,
)
from armada_vision.vision.fit import ViewGrid


def _meets(rect: tuple[int, int, int, int], boxes: np.ndarray) -> bool:
    """pieces_from_base's test of a part's bounding rectangle against the markers' bounds."""
    x, y, w, h = rect
    return bool(np.any((boxes[:, 0] < x + w) & (boxes[:, 2] > x) & (boxes[:, 1] < y + h)
                       & (boxes[:, 3] > y)))


def test_a_dark_area_within_a_markers_bounds_has_no_part_outside_them():
    rng = np.random.default_rng(22)
    within = 0
    for _ in range(3000):
        boxes = np.sort(rng.uniform(0, 60, (3, 2, 2)), axis=1).transpose(0, 2, 1).reshape(3, 4)
        boxes = boxes[:, [0, 2, 1, 3]]  # x0, y0, x1, y1
        x, y = (int(v) for v in rng.integers(0, 50, 2))
        w, h = (int(v) for v in rng.integers(1, 20, 2))
        if not _within((x, y, w, h), boxes):
            continue
        within += 1
        # Every part an opening could leave lies in the rectangle: each pixel of it, and
        # sub-rectangles, meet the bounds as the loop asks.
        for u in range(x, x + w):
            for v in range(y, y + h):
                assert _meets((u, v, 1, 1), boxes), ((x, y, w, h), boxes)
    assert within > 100


def test_an_area_surely_on_a_piece_found_is_one_the_grown_test_leaves():
    rng = np.random.default_rng(2222)
    sure = exact = 0
    for _ in range(600):
        # A dark blob (view px at 1.5 px/mm, thin arms and pixel steps as a mask gives them)
        # and a piece's outline (table mm) at a random distance from it.
        mask = np.zeros((80, 80), np.uint8)
        for _k in range(int(rng.integers(1, 4))):
            c = tuple(int(v) for v in rng.integers(20, 60, 2))
            axes = tuple(int(v) for v in rng.integers(1, 15, 2))
            cv2.ellipse(mask, c, axes, float(rng.uniform(0, 180)), 0, 360, 1, -1)
        cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        pts = cnts[0].reshape(-1, 2).astype(float) / 1.5
        centre = pts.mean(axis=0) + rng.uniform(-30, 30, 2)
        a = rng.uniform(0, np.pi)
        half = np.array(((10, 4), (-10, 4), (-10, -4), (10, -4)), float)
        rot = np.array(((np.cos(a), -np.sin(a)), (np.sin(a), np.cos(a))))
        outline = shapely.Polygon(centre + half @ rot.T)
        grown = shapely.Polygon(pts).buffer(RIM_MM, quad_segs=2).convex_hull
        on = grown.distance(outline) < COVER_MM
        hull = cnts[0][cv2.convexHull(cnts[0], returnPoints=False).ravel()]
        got = _surely_on(hull.reshape(-1, 2).astype(float) / 1.5, [outline])
        assert on or not got, (pts.tolist(), outline.wkt)
        sure += got
        exact += on
    # Most of what the grown test leaves is left early (only a rim's width of doubt).
    assert exact > 100 and sure >= 0.9 * exact


def test_a_dark_area_left_whole_as_on_a_piece_has_every_pixel_near_it():
    rng = np.random.default_rng(2223)
    grid = ViewGrid(0.0, 60.0, 1.5, (90, 90))
    left = 0
    for _ in range(400):
        mask = np.zeros((90, 90), np.uint8)
        c = tuple(int(v) for v in rng.integers(30, 60, 2))
        axes = tuple(int(v) for v in rng.integers(2, 12, 2))
        cv2.ellipse(mask, c, axes, float(rng.uniform(0, 180)), 0, 360, 1, -1)
        cnt = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0][0]
        centre = grid.to_mm(np.array([c], float))[0] + rng.uniform(-12, 12, 2)
        a = rng.uniform(0, np.pi)
        half = np.array(((12, 5), (-12, 5), (-12, -5), (12, -5)), float)
        rot = np.array(((np.cos(a), -np.sin(a)), (np.sin(a), np.cos(a))))
        outline = centre + half @ rot.T
        boxes = _bounds_px(grid, [outline], COVER_MM * grid.px_per_mm)
        if not _all_on(grid, cnt, boxes, [outline], {}):
            continue
        left += 1
        rows, cols = np.nonzero(mask)
        px = grid.to_mm(np.column_stack((cols, rows)).astype(float))
        assert shapely.distance(shapely.points(px), shapely.Polygon(outline)).max() < COVER_MM
    assert left > 20
