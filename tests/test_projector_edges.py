"""Projected zones land where they belong (simulation).

The chain a player relies on: the calibration fitted from rendered photos draws a zone into
the projector frame; the renderer lights the table through the *true* projector pose; the
zone's edges are found in the camera image, mapped to the table with the table calibration and
compared with the zone's geometry. rules.md §4 (one-step zone) and §5 (firing zone).
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from projector_sim import camera_image, lit_edges_px, make_rig

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import DEFAULT_CONFIG
from armada_vision.rules.fire import firing_zones
from armada_vision.rules.step import step_zone
from armada_vision.rules.table import PlayArea, Ship, Table
from armada_vision.vision.calibrate import calibrate
from armada_vision.vision.projector import (
    Overlay,
    ProjectorCalibration,
    ProjectorPattern,
    ProjectorStyle,
    calibrate_projector,
    draw_overlays,
)
from armada_vision.vision.types import VisionFailure

WHITE = ProjectorStyle(colors=(("step", "#ffffff"), ("firing", "#ffffff")), brightness=1.0,
                       fill_alpha=1.0, line_px=1.0, clear_mm=0.0)


def _rings(poly: shapely.Polygon) -> tuple:
    return (tuple(poly.exterior.coords), *(tuple(r.coords) for r in poly.interiors))


@pytest.mark.parametrize(("seed", "rule", "heading"), [(0, "§4 step zone", 20.0),
                                                       (1, "§5 firing zone", 200.0),
                                                       (2, "§4 step zone", 300.0)])
def test_projected_zone_edges_land_within_1_5_mm(seed: int, rule: str, heading: float) -> None:
    rig = make_rig(seed)
    pat = ProjectorPattern.fit(rig.projector.intrinsics.image_size)
    dark = camera_image(rig, None, seed=seed)
    table_cal = calibrate(dark, rig.layout, rig.camera.intrinsics)
    assert not isinstance(table_cal, VisionFailure)
    cal = calibrate_projector(camera_image(rig, pat.image(), seed=seed), pat, table_cal,
                              image_off=dark)
    assert isinstance(cal, ProjectorCalibration)

    ship = Ship("S1", "A", Size.MEDIUM, Pose(430.0, 290.0, heading))
    table = Table(PlayArea(rig.layout.play_area_mm), (ship,))
    if rule.startswith("§4"):
        zone = step_zone(table, "S1", DEFAULT_CONFIG, resolution_deg=1.0)
        layer = "step"
    else:
        zone = firing_zones(table, "S1", DEFAULT_CONFIG)["port"]
        layer = "firing"
    zone = max(getattr(zone, "geoms", [zone]), key=lambda g: g.area)
    assert zone.area > 100.0
    frame = draw_overlays([Overlay(layer, _rings(zone))], cal.H, cal.projector_size, WHITE)
    lit = camera_image(rig, frame, seed=seed, gain=0.8)

    edge_mm = table_cal.image_to_table(lit_edges_px(lit, dark))
    miss = shapely.distance(shapely.points(edge_mm), zone.boundary)
    assert len(edge_mm) > 100, rule
    assert float(np.mean(miss)) <= 0.75, rule
    assert float(np.max(miss)) <= 1.5, (rule, float(np.max(miss)))
