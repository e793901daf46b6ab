"""Firing (rules.md §5, doubt §7): range by the Large ruler, line of fire, obstruction."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from armada_vision.geometry import NOMINAL_PIECES, SIDES, Pose, Size
from armada_vision.rules import DEFAULT_CONFIG, Obstacle, PlayArea, RulesConfig, Ship, Table
from armada_vision.rules.fire import (
    adjudicate_shot,
    broadside,
    depth_in_mm,
    firing_zones,
    max_depth,
    ruler_inradius_mm,
)
from armada_vision.rules.scene import impossible_state

AREA = PlayArea.rectangle(0, 0, 1000, 1000)
CFG = DEFAULT_CONFIG


def shooter(size: str = "large", **kw) -> Ship:
    return Ship("A1", "A", size, Pose(500, 500, 0), **kw)


def pose_with_tip(tip: np.ndarray, heading_deg: float, size: str) -> Pose:
    """Pose of a ship of ``size`` whose tip is at ``tip`` (table mm), heading ``heading_deg``."""
    s = NOMINAL_PIECES.dims(size).footprint_length_mm
    a = math.radians(heading_deg)
    return Pose(tip[0] - s * math.cos(a), tip[1] - s * math.sin(a), heading_deg)


def heading_of(v: np.ndarray) -> float:
    return math.degrees(math.atan2(v[1], v[0]))


def outward(bs) -> np.ndarray:
    """Outward unit normal of a broadside (from the ruler's base to its apex)."""
    base_mid = (bs.ruler0[0] + bs.ruler0[2]) / 2
    n = bs.ruler0[1] - base_mid
    return n / np.linalg.norm(n)


def far_edge_mid(bs) -> np.ndarray:
    return (bs.ruler(0.0)[1] + bs.ruler(bs.slide_mm)[1]) / 2


def deep_target(side: str, tid: str = "T1", size: str = "small", **kw) -> Ship:
    """A target whose tip is pushed well into the middle of ``side``'s firing zone."""
    bs = broadside(shooter(), side)
    n = outward(bs)
    centre = (bs.ruler(bs.slide_mm / 2)[0] + bs.ruler(bs.slide_mm / 2)[2]) / 2
    tip = centre + 20.0 * n
    return Ship(tid, "B", size, pose_with_tip(tip, heading_of(-n), size), **kw)


def _poke(side: str, depth_mm: float, **kw) -> Ship:
    """Small target pointing straight at the middle of the zone's far edge, its tip
    ``depth_mm`` beyond it (negative: short of it)."""
    bs = broadside(shooter(), side)
    n = outward(bs)
    tip = far_edge_mid(bs) - depth_mm * n
    return Ship("T1", "B", "small", pose_with_tip(tip, heading_of(-n), "small"), **kw)


# --- case table: each case names the rule it checks -------------------------------------------

def _case_in_range():
    return Table(AREA, (shooter(), deep_target("port"))), ("yes", False, "range", "port", None)


def _case_starboard():
    t = Table(AREA, (shooter(), deep_target("starboard")))
    return t, ("yes", False, "range", "starboard", None)


def _case_touching():
    return Table(AREA, (shooter(), _poke("port", 0.0))), ("no", True, "range", "port", None)


def _case_near_miss():
    return Table(AREA, (shooter(), _poke("port", -0.1))), ("no", True, "range", "port", None)


def _case_far_miss():
    return Table(AREA, (shooter(), _poke("port", -30.0))), ("no", False, "range", "port", None)


def _case_depth_within_allowance():
    # The deep target again, but measured so loosely that its depth is inside the allowance.
    t = Table(AREA, (shooter(sigma_mm=3.0), deep_target("port", sigma_mm=3.0)))
    return t, ("no", True, "range", "port", None)


def _case_blocked():
    tgt = deep_target("port")
    bs = broadside(shooter(), "port")
    n = outward(bs)
    # A bar lying across the whole zone halfway between the shooter and the target's tip.
    a = bs.ruler(0.0)[0] + 8.0 * n - 30 * bs.slide_dir
    b = bs.ruler(bs.slide_mm)[2] + 8.0 * n + 30 * bs.slide_dir
    bar = shapely.LineString([a, b]).buffer(1.5, cap_style="flat")
    rock = Obstacle("rock", tuple(map(tuple, np.asarray(bar.exterior.coords)[:-1])))
    return Table(AREA, (shooter(), tgt), (rock,)), ("no", False, "obstruction", "port", "rock")


def _case_blocked_by_ship():
    tgt = deep_target("port")
    bs = broadside(shooter(), "port")
    n = outward(bs)
    # A medium lying across the zone, parallel to the long side, between shooter and target.
    mid = (bs.ruler(bs.slide_mm / 2)[0] + bs.ruler(bs.slide_mm / 2)[2]) / 2 + 8.0 * n
    d = NOMINAL_PIECES.dims(Size.MEDIUM).footprint_length_mm
    stern = mid - 0.5 * d * bs.slide_dir
    other = Ship("M9", "B", "medium", Pose(stern[0], stern[1], heading_of(bs.slide_dir)))
    t = Table(AREA, (shooter(), tgt, other))
    return t, ("no", False, "obstruction", "port", "M9")


CASES = {
    "§5 in range: target deep in the port zone": _case_in_range,
    "§5 either broadside: the starboard zone fires too": _case_starboard,
    "§5 merely touching is no (in doubt)": _case_touching,
    "§5/§7 a near miss is in doubt too": _case_near_miss,
    "§5 out of range by a wide margin is a clear no": _case_far_miss,
    "§5/§7 depth within the allowance is no, in doubt": _case_depth_within_allowance,
    "§5 blocked by an obstacle across the line of fire": _case_blocked,
    "§5 blocked by another ship in the line of fire": _case_blocked_by_ship,
}


@pytest.mark.parametrize("name", list(CASES))
def test_shot_cases(name: str) -> None:
    table, (verdict, doubt, decided_by, side, blocker) = CASES[name]()
    v = adjudicate_shot(table, "A1", "T1")
    assert (v.verdict, v.in_doubt, v.decided_by, v.side) == (verdict, doubt, decided_by, side)
    assert v.blocker == blocker
    assert v.ruler is not None and len(v.ruler) == 3
    if v.yes:
        assert v.margin_mm > v.allowance_mm
        assert shapely.Polygon(v.ruler).intersection(table.ship("T1").footprint(CFG)).area > 0


def test_touching_has_zero_margin_and_near_miss_the_gap() -> None:
    """§5: touching is depth 0; a miss reports minus the gap (here 0.1 mm)."""
    t0 = adjudicate_shot(Table(AREA, (shooter(), _poke("port", 0.0))), "A1", "T1")
    t1 = adjudicate_shot(Table(AREA, (shooter(), _poke("port", -0.1))), "A1", "T1")
    assert abs(t0.margin_mm) < 1e-6
    assert t1.margin_mm == pytest.approx(-0.1, abs=1e-6)


def test_depth_within_allowance_keeps_the_geometric_depth() -> None:
    """§7: loosening σ changes the allowance, never the measured depth."""
    sure = adjudicate_shot(Table(AREA, (shooter(), deep_target("port"))), "A1", "T1")
    loose = adjudicate_shot(Table(AREA, (shooter(sigma_mm=3.0),
                                         deep_target("port", sigma_mm=3.0))), "A1", "T1")
    assert sure.margin_mm == pytest.approx(loose.margin_mm)
    assert loose.allowance_mm == pytest.approx(2 * math.hypot(3.0, 3.0) + 0.25)


def test_piece_under_the_ruler_outside_the_line_of_fire_does_not_block() -> None:
    """§5: a piece lying under the ruler but outside the line of fire does not obstruct."""
    # The target grazes the zone beside the shooter's long side, pointing along it, so its line
    # of fire is a thin strip along the base; a pebble sits under the ruler near its apex.
    bs = broadside(shooter(), "port")
    n = outward(bs)
    tip = bs.ruler(0.0)[0] + 10.0 * bs.slide_dir + 4.0 * n
    tgt = Ship("T1", "B", "small", pose_with_tip(tip, heading_of(bs.slide_dir), "small"))
    base = adjudicate_shot(Table(AREA, (shooter(), tgt)), "A1", "T1")
    assert base.yes, base.reason
    ruler = shapely.Polygon(base.ruler)
    lof = shapely.Polygon(base.line_of_fire)
    spot = np.array(base.ruler[1]) + 0.3 * (np.array(ruler.centroid.coords[0])
                                            - np.array(base.ruler[1]))
    pebble = shapely.Point(spot).buffer(1.0, quad_segs=4)
    assert pebble.within(ruler)
    assert pebble.distance(lof) > 5.0       # precondition: under the ruler, off the line
    rock = Obstacle("pebble", tuple(map(tuple, np.asarray(pebble.exterior.coords)[:-1])))
    v = adjudicate_shot(Table(AREA, (shooter(), tgt), (rock,)), "A1", "T1")
    assert v.yes, v.reason
    assert shapely.Polygon(v.ruler).intersects(pebble)
    assert v.margin_mm == pytest.approx(base.margin_mm)


def test_blocked_deepest_placement_finds_a_clear_one_by_sliding() -> None:
    """§5: the line of fire moves with the offset; a clear placement anywhere suffices."""
    t = Table(AREA, (shooter(), deep_target("port")))
    base = adjudicate_shot(t, "A1", "T1")
    # A pebble right on the deepest placement's line of fire, near one end of the slide.
    lof = shapely.Polygon(base.line_of_fire)
    bs = broadside(shooter(), "port")
    ends = [shapely.Polygon(bs.ruler(0.0)), shapely.Polygon(bs.ruler(bs.slide_mm))]
    spot = None
    for x in np.linspace(*lof.bounds[0::2], 40):
        for y in np.linspace(*lof.bounds[1::2], 40):
            p = shapely.Point(x, y)
            if lof.contains(p.buffer(1.0)) and not ends[0].intersects(p.buffer(1.5)):
                spot = p
                break
        if spot is not None:
            break
    assert spot is not None
    pebble = spot.buffer(0.6, quad_segs=4)
    rock = Obstacle("pebble", tuple(map(tuple, np.asarray(pebble.exterior.coords)[:-1])))
    v = adjudicate_shot(Table(AREA, (shooter(), deep_target("port")), (rock,)), "A1", "T1")
    assert v.yes, v.reason
    assert shapely.Polygon(v.line_of_fire).distance(pebble) > v.allowance_mm


@pytest.mark.parametrize("size,far_edge", [("small", 1.935), ("medium", 12.238),
                                           ("large", 22.541)])
def test_firing_zone_far_edge_is_e_minus_ruler_base(size: str, far_edge: float) -> None:
    """§5: the zone is a trapezoid 46.229 mm deep whose far edge is e − 25.4 mm."""
    t = Table(AREA, (shooter(size),))
    for side, zone in firing_zones(t, "A1").items():
        pts = np.asarray(zone.exterior.coords)[:-1]
        assert np.linalg.norm(pts[2] - pts[1]) == pytest.approx(far_edge, abs=1e-3), side
        base = shapely.LineString([pts[0], pts[3]])
        assert base.distance(shapely.Point(pts[1])) == pytest.approx(46.229, abs=1e-3)


def test_small_reaches_a_target_only_with_its_1_9_mm_slide() -> None:
    """§5: the small's ruler slides 1.935 mm; a target only the slid ruler covers is in range."""
    s = shooter("small")
    bs = broadside(s, "port")
    n = outward(bs)
    first, last = shapely.Polygon(bs.ruler(0.0)), shapely.Polygon(bs.ruler(bs.slide_mm))
    # Tip just inside the last placement's far-from-start edge, pointing back along the slide.
    edge_mid = (last.exterior.coords[1][0] / 2 + last.exterior.coords[2][0] / 2,
                last.exterior.coords[1][1] / 2 + last.exterior.coords[2][1] / 2)
    edge_dir = np.subtract(last.exterior.coords[2], last.exterior.coords[1])
    inward = np.array([edge_dir[1], -edge_dir[0]]) / np.linalg.norm(edge_dir)
    if last.contains(shapely.Point(np.array(edge_mid) - 0.5 * inward)):
        inward = -inward
    tip = np.array(edge_mid) + 0.8 * inward
    tgt = Ship("T1", "B", "small", pose_with_tip(tip, heading_of(inward), "small"))
    fp = tgt.footprint(CFG)
    assert fp.intersection(first).area == 0 and fp.intersection(last).area > 0
    depth, t = max_depth(bs, np.asarray(fp.exterior.coords)[:-1], np.zeros(2))
    assert t == pytest.approx(bs.slide_mm, abs=1e-9)
    v = adjudicate_shot(Table(AREA, (s, tgt)), "A1", "T1",
                        RulesConfig(doubt_floor_mm=0.01))
    assert v.yes and v.side == "port"
    assert v.margin_mm == pytest.approx(depth)
    assert n @ bs.slide_dir == pytest.approx(0.0, abs=1e-12)


def test_sunk_and_self_shots() -> None:
    """§5: a sunk ship neither fires nor is fired at; firing at oneself is malformed."""
    t = Table(AREA, (shooter(), deep_target("port", damage=1)))
    v = adjudicate_shot(t, "A1", "T1")
    assert not v.yes and v.decided_by == "state"
    with pytest.raises(ValueError, match="target"):
        adjudicate_shot(t, "A1", "A1")


def test_depth_in_mm_of_an_overlap() -> None:
    square = shapely.box(0, 0, 10, 10)
    l_shape = shapely.Polygon([(-5, 4), (5, 4), (5, 6), (-3, 6), (-3, 20), (-5, 20)])
    assert depth_in_mm(l_shape, square) == pytest.approx(5.0)


# --- properties -------------------------------------------------------------------------------

sizes = st.sampled_from(["small", "medium", "large"])
coords = st.floats(-60, 60, allow_nan=False)
angles = st.floats(0, 360, allow_nan=False, exclude_max=True)


def _brute_depth(bs, target: shapely.Polygon, n_t: int = 25, n_p: int = 40) -> float:
    """Independent estimate of the best depth by sampling offsets and points."""
    best = -math.inf
    for t in np.linspace(0, bs.slide_mm, n_t):
        ruler = shapely.Polygon(bs.ruler(t))
        inter = target.intersection(ruler)
        if inter.area <= 0:
            continue
        x0, y0, x1, y1 = inter.bounds
        xs, ys = np.meshgrid(np.linspace(x0, x1, n_p), np.linspace(y0, y1, n_p))
        pts = shapely.points(xs.ravel(), ys.ravel())
        pts = pts[shapely.intersects(inter, pts)]
        if len(pts):
            best = max(best, float(shapely.distance(pts, ruler.exterior).max()))
    return best


@settings(max_examples=25, deadline=None)
@given(sizes, sizes, coords, coords, angles, angles)
def test_depth_is_exact_and_never_exceeds_the_inradius(zs, zt, x, y, hs, ht) -> None:
    """§5: the programme's depth bounds every sampled depth, is close to the best sample, and
    never exceeds the ruler's inradius."""
    s = Ship("A1", "A", zs, Pose(0, 0, hs))
    t = Ship("T1", "B", zt, Pose(x, y, ht))
    fp = t.footprint(CFG)
    for side in SIDES:
        bs = broadside(s, side)
        depth, _ = max_depth(bs, np.asarray(fp.exterior.coords)[:-1], np.zeros(2))
        assert depth <= ruler_inradius_mm(CFG.ruler) + 1e-9
        brute = _brute_depth(bs, fp)
        if brute > -math.inf:
            assert depth >= brute - 1e-6
            assert depth <= brute + 0.6     # sampling resolution
        else:
            assert depth <= 0.6


def _rigid(table: Table, dx: float, dy: float, rot_deg: float) -> Table:
    a = math.radians(rot_deg)
    c, s = math.cos(a), math.sin(a)

    def f(p):
        return (c * p[0] - s * p[1] + dx, s * p[0] + c * p[1] + dy)

    ships = tuple(sh.with_pose(Pose(*f(sh.pose.stern_mm), sh.pose.heading_deg + rot_deg))
                  for sh in table.ships)
    obstacles = tuple(Obstacle(o.id, tuple(f(p) for p in o.polygon_mm), o.sigma_mm)
                      for o in table.obstacles)
    return Table(PlayArea(tuple(f(p) for p in table.play_area.polygon_mm)), ships, obstacles)


scene_ships = st.lists(st.tuples(sizes, st.floats(-90, 90), st.floats(-90, 90), angles),
                       min_size=1, max_size=5)


@settings(max_examples=25, deadline=None)
@given(sizes, scene_ships, st.floats(-400, 400), st.floats(-400, 400), angles,
       st.floats(0, 0.5), st.floats(0, 0.5))
def test_shot_invariant_under_rigid_motion(zs, others, dx, dy, rot, sig_mm, sig_deg) -> None:
    """§5: moving and turning the whole table changes no verdict and no margin; and a yes
    always has its margin beyond the allowance (§7)."""
    ships = [Ship("A1", "A", zs, Pose(0, 0, 0), sigma_mm=sig_mm, sigma_deg=sig_deg)]
    for i, (z, x, y, h) in enumerate(others):
        ships.append(Ship(f"T{i}", "B", z, Pose(x, y, h), sigma_mm=sig_mm))
    table = Table(PlayArea.rectangle(-200, -200, 200, 200), tuple(ships))
    assume(impossible_state(table) is None)     # two pieces in one place: not a table
    moved = _rigid(table, dx, dy, rot)
    for tid in (s.id for s in ships[1:]):
        v, w = adjudicate_shot(table, "A1", tid), adjudicate_shot(moved, "A1", tid)
        if abs(v.margin_mm - v.allowance_mm) > 1e-6 and abs(v.margin_mm) > 1e-6:
            assert (v.verdict, v.in_doubt, v.decided_by) == (w.verdict, w.in_doubt,
                                                             w.decided_by)
        assert v.margin_mm == pytest.approx(w.margin_mm, abs=1e-6)
        for x in (v, w):
            if x.yes:
                assert x.margin_mm > x.allowance_mm
            if x.margin_mm <= x.allowance_mm:
                assert not x.yes


def _crowded_table(rng: np.random.Generator, side_mm: float, n: int = 12) -> Table:
    """``n`` ships (two players, mixed sizes) and a rock scattered without overlap."""
    placed, ships = [], []
    sizes = ["small", "medium", "large"]
    while len(ships) < n:
        s = Ship(f"P{len(ships)}", "AB"[len(ships) % 2], sizes[len(ships) % 3],
                 Pose(*rng.uniform(30, side_mm - 30, 2), rng.uniform(0, 360)),
                 sigma_mm=0.2, sigma_deg=0.3)
        sil = s.silhouette(CFG)
        if all(sil.distance(p) > 2.0 for p in placed):
            placed.append(sil)
            ships.append(s)
    rock = Obstacle("rock", ((side_mm / 2, side_mm / 2), (side_mm / 2 + 10, side_mm / 2),
                             (side_mm / 2 + 10, side_mm / 2 + 10)))
    ships = [s for s in ships if s.silhouette(CFG).distance(rock.shape) > 2.0]
    return Table(PlayArea.rectangle(0, 0, side_mm, side_mm), tuple(ships), (rock,))


def _brute_shot_slack(table: Table, a: Ship, b: Ship, n_t: int = 80) -> float:
    """Independent scan of the slide: the best min(depth − allowance, clearance − allowance)
    over ``n_t`` offsets a side, the line of fire built from scratch with shapely."""
    from armada_vision.rules.doubt import allowance_mm

    sa, sb = a.sigma_total_mm(CFG), b.sigma_total_mm(CFG)
    a_range = allowance_mm([sa, sb], CFG.doubt_floor_mm)
    tgt = b.footprint(CFG)
    others = [(s.silhouette(CFG), allowance_mm([sa, sb, s.sigma_total_mm(CFG)],
                                               CFG.doubt_floor_mm))
              for s in table.ships if s.id not in (a.id, b.id)]
    others += [(o.shape, allowance_mm([sa, sb, o.sigma_mm], CFG.doubt_floor_mm))
               for o in table.obstacles]
    best = -math.inf
    for side in SIDES:
        bs = broadside(a, side)
        for t in np.linspace(0, bs.slide_mm, n_t):
            ruler = bs.ruler(t)
            covered = tgt.intersection(shapely.Polygon(ruler))
            if covered.area <= 0:
                continue
            depth = _brute_depth_fixed(ruler, covered)
            if depth <= a_range:
                continue
            lof = shapely.MultiPoint([*covered.exterior.coords, ruler[0], ruler[2]]).convex_hull
            clear = min((lof.distance(g) - al for g, al in others), default=math.inf)
            best = max(best, min(depth - a_range, clear))
    return best


def _brute_depth_fixed(ruler: np.ndarray, covered: shapely.Polygon) -> float:
    return depth_in_mm(covered, shapely.Polygon(ruler))


def test_verdicts_agree_with_a_brute_force_scan_of_the_slide() -> None:
    """§5: on crowded random tables, every in-range shot's verdict matches an independent scan
    of ruler offsets for a placement in range and clear (skipping scans within 0.05 mm of the
    line, where the scan's own resolution decides)."""
    rng = np.random.default_rng(11)
    seen: dict[tuple[str, str], int] = {}
    for _ in range(4):
        table = _crowded_table(rng, 170, n=16)
        for a in table.ships:
            for b in table.ships:
                if a.player == b.player:
                    continue
                v = adjudicate_shot(table, a.id, b.id)
                if v.margin_mm <= 0:
                    continue
                slack = _brute_shot_slack(table, a, b)
                if abs(slack) < 0.05:
                    continue
                assert v.yes == (slack > 0), (a.id, b.id, v.reason, slack)
                seen[(v.verdict, v.decided_by)] = seen.get((v.verdict, v.decided_by), 0) + 1
    assert seen.get(("yes", "range"), 0) > 0 and seen.get(("yes", "obstruction"), 0) > 0
    assert seen.get(("no", "obstruction"), 0) + seen.get(("no", "range"), 0) > 0


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_vectorised_penetration_matches_the_pairwise_one(seed: int) -> None:
    """§5 obstruction margin: the batched separating-axis depth equals the one-pair version,
    and moving the piece by that much along the best axis separates them."""
    from armada_vision.rules.fire import _penetrations, penetration_mm

    rng = np.random.default_rng(seed)
    polys = [shapely.MultiPoint(rng.uniform(0, 10, (int(rng.integers(3, 9)), 2))).convex_hull
             for _ in range(8)]
    polys = [p for p in polys if p.geom_type == "Polygon"]
    q = np.asarray(shapely.MultiPoint(rng.uniform(3, 8, (6, 2))).convex_hull.exterior.coords)[:-1]
    batched = _penetrations(np.array(polys, dtype=object), q)
    single = [penetration_mm(np.asarray(p.exterior.coords)[:-1], q) for p in polys]
    assert np.allclose(batched, single, atol=1e-9)
    for p, d in zip(polys, single, strict=True):
        overlaps = p.intersection(shapely.Polygon(q)).area > 1e-9
        assert (d > 1e-9) == overlaps
