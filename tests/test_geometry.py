"""The pure geometry of lying pieces (rules.md §1, §5 shapes) and its invariants."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from armada_vision.geometry import (
    NOMINAL_PIECES,
    SIDES,
    Pose,
    Size,
    angle_diff_deg,
    body_local_3d,
    firing_zone,
    footprint,
    normalize_deg,
    ruler_local,
    ruler_slide_mm,
    silhouette,
)
from armada_vision.geometry.pieces import PieceDims, PieceSet
from armada_vision.geometry.shapes import footprint_local

# rules.md §1 table: size, pips, w, h, s, e, steps, base rise (w·sinθ), base-corner overhang.
SIZE_TABLE = [
    ("§1 small", Size.SMALL, 1, 14.2875, 25.400, 26.385, 27.335, 4, 13.8, 1.0),
    ("§1 medium", Size.MEDIUM, 2, 19.84375, 34.925, 36.307, 37.638, 2, 19.1, 1.4),
    ("§1 large", Size.LARGE, 3, 25.400, 44.450, 46.229, 47.941, 1, 24.4, 1.8),
]


@pytest.mark.parametrize(
    "name,size,pips,w,h,s,e,steps,rise,overhang", SIZE_TABLE, ids=[r[0] for r in SIZE_TABLE]
)
def test_nominal_dimensions(name, size, pips, w, h, s, e, steps, rise, overhang) -> None:
    d = NOMINAL_PIECES.dims(size)
    assert (d.base_w_mm, d.height_mm) == (w, h)
    assert d.footprint_length_mm == pytest.approx(s, abs=1e-3)
    assert d.long_side_mm == pytest.approx(e, abs=1e-3)
    assert d.base_rise_mm == pytest.approx(rise, abs=0.05)
    assert (size.pips, size.max_steps) == (pips, steps)
    # The base's free corner stands outside the footprint's long side by the stated overhang.
    corner = shapely.Point(d.base_reach_mm, d.half_w_mm)
    fp = footprint(Pose(0, 0, 0), d)
    assert corner.distance(fp) == pytest.approx(overhang, abs=0.06)


@pytest.mark.parametrize(
    "size,limit", [(Size.SMALL, 74.85), (Size.MEDIUM, 74.72), (Size.LARGE, 74.64)]
)
def test_max_turn_matches_rule_4_2(size: Size, limit: float) -> None:
    """§4.2: |φ| < 90° − atan((w/2)/s); at that turn the new footprint just touches the old."""
    d = NOMINAL_PIECES.dims(size)
    assert d.max_turn_deg == pytest.approx(limit, abs=0.005)
    old = footprint(Pose(0, 0, 0), d)
    tip = Pose(0, 0, 0).tip_mm(d.footprint_length_mm)
    just_inside = footprint(Pose(*tip, d.max_turn_deg - 0.05), d)
    just_beyond = footprint(Pose(*tip, d.max_turn_deg + 0.05), d)
    assert old.intersection(just_inside).area < 1e-9
    assert old.intersection(just_beyond).area > 1e-6


def test_firing_zone_is_the_union_of_ruler_placements() -> None:
    """§5: sliding the ruler along a long side sweeps a trapezoid, far edge e − 25.4 mm."""
    for size, far in [(Size.SMALL, 1.9), (Size.MEDIUM, 12.2), (Size.LARGE, 22.5)]:
        d, ruler = NOMINAL_PIECES.dims(size), NOMINAL_PIECES.large
        for side in SIDES:
            zone = firing_zone(Pose(0, 0, 0), d, ruler, side)
            slide = ruler_slide_mm(d, ruler)
            union = shapely.union_all([
                shapely.Polygon(ruler_local(d, ruler, side, t))
                for t in np.linspace(0, slide, 200)
            ])
            # sampled placements leave tiny notches between apexes: the zone contains them all
            assert union.within(zone.buffer(1e-6))
            assert zone.area - union.area < 5e-3 * zone.area
            coords = np.asarray(zone.exterior.coords)[:4]
            assert np.linalg.norm(coords[2] - coords[1]) == pytest.approx(far, abs=0.05)
            # the zone lies outside the shooter's footprint
            assert zone.intersection(footprint(Pose(0, 0, 0), d)).area < 1e-9


def test_body_3d_matches_footprint_and_silhouette() -> None:
    d = NOMINAL_PIECES.large
    v, faces = body_local_3d(d)
    # every edge from the tip to a base corner is a slant edge of length e
    for i in (0, 1, 3, 4):
        assert np.linalg.norm(v[2] - v[i]) == pytest.approx(d.long_side_mm, abs=1e-9)
    # base is a w × w square
    assert np.linalg.norm(v[3] - v[4]) == pytest.approx(d.base_w_mm)
    assert np.linalg.norm(v[0] - v[3]) == pytest.approx(d.base_w_mm)
    top = shapely.Polygon(v[[0, 3, 2, 4, 1], :2]).convex_hull
    assert top.equals_exact(silhouette(Pose(0, 0, 0), d).convex_hull.normalize(), 1e-9) or (
        top.symmetric_difference(silhouette(Pose(0, 0, 0), d)).area < 1e-9
    )
    assert len(faces) == 5


def test_piece_set_from_caliper_measurements() -> None:
    """§1: a user's measured set replaces the nominal dimensions, size by size."""
    ps = PieceSet.from_dict({"small": {"base_w_mm": 14.0, "height_mm": 25.0}})
    assert ps.small == PieceDims(14.0, 25.0)
    assert ps.large == NOMINAL_PIECES.large
    assert ps.size_by_length(36.0) is Size.MEDIUM
    with pytest.raises(ValueError, match=r"pieces\.small"):
        PieceSet.from_dict({"small": {"base_w_mm": -1, "height_mm": 25.0}})
    with pytest.raises(ValueError, match="unknown size 'huge'"):
        PieceSet.from_dict({"huge": {}})


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "12", None, True])
def test_pose_rejects_non_numbers_naming_the_field(bad: object) -> None:
    with pytest.raises(ValueError, match="x_mm"):
        Pose(bad, 0.0, 0.0)  # type: ignore[arg-type]


finite = st.floats(-2000, 2000, allow_nan=False)
heading = st.floats(-1e4, 1e4, allow_nan=False)


@settings(max_examples=200)
@given(finite, finite, heading)
def test_pose_text_round_trips(x: float, y: float, h: float) -> None:
    p = Pose(x, y, h)
    assert 0.0 <= p.heading_deg < 360.0
    assert Pose.parse(str(p)) == p
    assert eval(repr(p), {"Pose": Pose}) == p


@settings(max_examples=200)
@given(heading, heading)
def test_angle_diff_is_the_smallest_signed_turn(a: float, b: float) -> None:
    d = angle_diff_deg(a, b)
    assert -180.0 <= d < 180.0
    assert abs(angle_diff_deg(normalize_deg(b + d), a)) < 1e-6


@settings(max_examples=100)
@given(finite, finite, heading, st.sampled_from(list(Size)))
def test_shapes_move_rigidly_with_the_pose(x: float, y: float, h: float, size: Size) -> None:
    """Footprint and silhouette keep their area and the tip sits at distance s on the heading."""
    d = NOMINAL_PIECES.dims(size)
    p = Pose(x, y, h)
    ref_fp, ref_sil = footprint(Pose(0, 0, 0), d), silhouette(Pose(0, 0, 0), d)
    assert footprint(p, d).area == pytest.approx(ref_fp.area, rel=1e-9)
    assert silhouette(p, d).area == pytest.approx(ref_sil.area, rel=1e-9)
    tip = p.tip_mm(d.footprint_length_mm)
    assert math.dist(tip, p.stern_mm) == pytest.approx(d.footprint_length_mm)
    assert Pose.from_stern_tip(p.stern_mm, tip).heading_deg == pytest.approx(
        p.heading_deg, abs=1e-7
    ) or abs(angle_diff_deg(Pose.from_stern_tip(p.stern_mm, tip).heading_deg, h)) < 1e-7
    assert footprint(p, d).within(silhouette(p, d).buffer(1e-6))


def test_footprint_is_to_table_of_the_local_triangle_bit_for_bit() -> None:
    """speed25: footprint works the corners out in plain floats; they must be the very numbers
    Pose.to_table gives for footprint_local (poses and σ downstream are compared bit for bit)."""
    rng = np.random.default_rng(25)
    for _ in range(500):
        pose = Pose(*rng.uniform(-600, 600, 2), rng.uniform(-360, 360))
        for size in Size:
            d = NOMINAL_PIECES.dims(size)
            want = np.asarray(shapely.Polygon(pose.to_table(footprint_local(d))).exterior.coords)
            got = np.asarray(footprint(pose, d).exterior.coords)
            assert got.tobytes() == want.tobytes()


def test_a_pose_of_plain_floats_is_the_pose_of_any_other_numbers() -> None:
    """speed25: Pose takes plain finite floats without converting them; the pose must be the
    one the converting path makes from the same values (numpy floats, ints), and a non-finite
    float is still refused."""
    rng = np.random.default_rng(25)
    for x, y, h in [*rng.uniform(-800, 800, (200, 3)).tolist(), (0.0, -0.0, -0.0),
                    (1.0, 2.0, 360.0), (3.0, 4.0, -720.0), (5.0, 6.0, -1e-18)]:
        fast = Pose(x, y, h)
        slow = Pose(np.float64(x), np.float64(y), np.float64(h))
        assert (fast.x_mm, fast.y_mm, fast.heading_deg) == (slow.x_mm, slow.y_mm,
                                                            slow.heading_deg)
        assert math.copysign(1.0, fast.heading_deg) == math.copysign(1.0, slow.heading_deg)
        assert type(slow.x_mm) is float and type(slow.heading_deg) is float
    for bad in (math.inf, -math.inf, math.nan):
        with pytest.raises(ValueError):
            Pose(1.0, bad, 0.0)
        with pytest.raises(ValueError):
            Pose(1.0, 2.0, bad)
