"""Properties of what the projector draws: clearance cut-outs, zone conversion, px mapping."""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from armada_vision.vision.projector import Overlay, ProjectorCalibration, apply_homography
from armada_vision.web import referee
from armada_vision.web.projector import ProjectorController, cut_out, overlays_from_zones


def _area(overlays: list[Overlay]) -> float:
    return sum(shapely.Polygon(o.rings_mm[0], o.rings_mm[1:]).area for o in overlays if o.closed)


def _regular(cx: float, cy: float, r: float, n: int, rot: float) -> shapely.Polygon:
    a = [rot + 2 * math.pi * k / n for k in range(n)]
    return shapely.Polygon([(cx + r * math.cos(t), cy + r * math.sin(t)) for t in a])


polygons = st.builds(
    _regular,
    st.floats(100, 500), st.floats(100, 500), st.floats(10, 120), st.integers(3, 9),
    st.floats(0, 2 * math.pi))


@settings(max_examples=40, deadline=None)
@given(zone=polygons, hole=polygons, cx=st.floats(50, 550), cy=st.floats(50, 550),
       r=st.floats(1, 60), clear=st.floats(0.5, 12))
def test_cut_out_keeps_light_clear_and_loses_only_the_keep_out(zone, hole, cx, cy, r,
                                                                clear) -> None:
    inner = hole.buffer(-min(5.0, hole.minimum_rotated_rectangle.length / 20))
    poly = zone.difference(inner) if inner.within(zone) and not inner.is_empty else zone
    rings = (tuple(poly.exterior.coords), *(tuple(i.coords) for i in poly.interiors))
    piece = shapely.Point(cx, cy).buffer(r)
    keep = piece.buffer(clear)
    out = cut_out([Overlay("reach", rings)], keep)
    # shapely's buffers are polygons: the clearance holds to their chord sag (≪ 0.1 mm here)
    tol = 0.005 * (r + clear) + 1e-3
    assert math.isclose(_area(out), poly.difference(keep).area, rel_tol=1e-6, abs_tol=1e-3)
    for o in out:
        # a zone edge may run along the keep-out's boundary, never into the piece's clearance
        assert shapely.Polygon(o.rings_mm[0], o.rings_mm[1:]).distance(piece) >= clear - tol
    line = Overlay("last_move", (tuple(zone.exterior.coords),), closed=False)
    for o in cut_out([line], keep):
        assert not o.closed and shapely.LineString(o.rings_mm[0]).distance(piece) >= clear - tol


@settings(max_examples=30, deadline=None)
@given(zone=polygons)
def test_zones_json_becomes_overlays_of_the_same_area(zone) -> None:
    zones = {"step": referee.geometry_json(zone), "reach": [], "firing": {}}
    out = overlays_from_zones(zones)
    assert [o.layer for o in out] == ["step"]
    # geometry_json rounds vertices to 0.01 mm: the area may move by about perimeter × 0.01
    assert math.isclose(_area(out), zone.area, abs_tol=zone.length * 0.01)


@settings(max_examples=30, deadline=None)
@given(zone=polygons, a=st.floats(1.2, 2.5), b=st.floats(-0.3, 0.3), g=st.floats(-2e-4, 2e-4),
       tx=st.floats(-100, 100), ty=st.floats(600, 900))
def test_frame_px_map_back_to_the_table_rings(zone, a, b, g, tx, ty) -> None:
    H = ((a, b, tx), (b, -a, ty), (g, 0.0, 1.0))
    ctrl = ProjectorController(ProjectorCalibration((1280, 800), H, 0.1, 0.2, 50, 50))
    ctrl.set_style(ctrl.style.__class__(clear_mm=0.0))
    ring = tuple(zone.exterior.coords)
    ctrl.set_overlays([Overlay("firing", (ring,))])
    drawn = ctrl.frame_json()["overlays"][0]["rings_px"][0]
    back = apply_homography(np.linalg.inv(np.array(H)), drawn)
    assert np.abs(back - np.array(ring)).max() < 0.02  # px rounded to 0.01 ≤ 0.01 mm here
