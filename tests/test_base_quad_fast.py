"""The early skips of base_quad.pieces_from_base (issue 4, speed22) leave only what its full
tests would leave: a dark area within a marker's bounds, and one wholly on a piece found; and
what counts as a piece's own dark area (white28: most of it near the piece, OWN_SHARE); the
hollow's lit walls taken in where they join its dark part (white30: _with_walls)."""

from __future__ import annotations

import cv2
import numpy as np
import shapely

from armada_vision.vision.base_quad import (
    BASE_DARK,
    BASE_WALL,
    COVER_MM,
    OWN_SHARE,
    WALL_GROW_PX,
    _all_on,
    _bounds_px,
    _own_share,
    _with_walls,
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


def test_a_dark_area_is_a_piece_founds_own_only_when_most_of_it_lies_near_it():
    grid = ViewGrid(0.0, 60.0, 1.5, (90, 90))
    outline = np.array(((20.0, 20.0), (44.0, 20.0), (44.0, 30.0), (20.0, 30.0)))
    poly = shapely.Polygon(outline)

    def share(x0: float, y0: float, x1: float, y1: float) -> float:
        # A dark rectangle (table mm) drawn in the view and its outer contour.
        mask = np.zeros((90, 90), np.uint8)
        p = np.round(grid.to_px(np.array(((x0, y0), (x1, y1))))).astype(int)
        cv2.rectangle(mask, tuple(p[0]), tuple(p[1]), 1, -1)
        cnt = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0][0]
        return _own_share(grid, cnt, [poly])

    # Inside the outline (its own open base): all of it.
    assert share(24, 22, 30, 28) == 1.0
    # A hollow beside it, touching its edge over a sliver (a white piece against it): little.
    assert share(45, 21, 52, 29) < OWN_SHARE
    # Straddling the edge, mostly inside (its base where the fit ends a little short): its own.
    assert share(38, 22, 46, 28) >= OWN_SHARE
    # Nothing found near it.
    assert _own_share(grid, np.array([[[1, 1]], [[5, 1]], [[5, 5]]]), []) == 0.0


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


def test_an_open_base_takes_in_the_walls_that_join_its_dark_part_only():
    # Table 1.0; the hollow's deepest part under BASE_DARK, its walls round it (4 px wide)
    # between BASE_DARK and BASE_WALL; a shadow as dark as the walls, apart from them by
    # table; and a strip as dark running on from the walls far past WALL_GROW_PX.
    shade = np.ones((80, 160), np.float32)
    wall = (BASE_DARK + BASE_WALL) / 2
    shade[20:40, 20:50] = wall
    shade[24:36, 24:46] = BASE_DARK / 2
    shade[20:40, 55:70] = wall  # apart: table between
    shade[37:40, 50:150] = wall  # the strip, joined to the walls
    dark = (shade < BASE_DARK).astype(np.uint8)
    (cnt,) = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    got = _with_walls(shade, cnt)
    assert got is not None
    x, y, w, h = cv2.boundingRect(got)
    # The walls round the dark part; the strip only as far as the growth reaches from the
    # dark part, not the shadow apart (x 55 on) nor the strip's far end.
    assert (x, y, h) == (20, 20, 20)
    assert 50 <= x + w <= 46 + WALL_GROW_PX
