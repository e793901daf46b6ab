"""Geometric invariants of steps and moves (rules.md §4, §7), checked with hypothesis."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from armada_vision.geometry import Pose, Size, footprint, silhouette
from armada_vision.rules import DEFAULT_CONFIG, Obstacle, PlayArea, Ship, Table
from armada_vision.rules import angles as iv
from armada_vision.rules.move import adjudicate_move
from armada_vision.rules.step import StepEnv, step_options

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

sizes = st.sampled_from(list(Size))
sigmas = st.floats(0.0, 0.4)


@st.composite
def scenes(draw):
    """A ship at the centre with 0–3 neighbours and maybe a rock within step reach, the play
    area edge sometimes close. Table mm."""
    size = draw(sizes)
    me = Ship("M", "A", size, Pose(300.0, 300.0, draw(st.floats(0, 360))),
              sigma_mm=draw(sigmas), sigma_deg=draw(st.floats(0, 0.3)))
    s = me.dims(DEFAULT_CONFIG).footprint_length_mm
    tip = np.array(me.tip_mm(DEFAULT_CONFIG))
    ships = [me]
    for i in range(draw(st.integers(0, 3))):
        ang = draw(st.floats(0, 2 * math.pi))
        r = draw(st.floats(15.0, 2.2 * s + 30.0))
        p = tip + r * np.array([math.cos(ang), math.sin(ang)])
        other = Ship(f"E{i}", "B", draw(sizes), Pose(p[0], p[1], draw(st.floats(0, 360))),
                     sigma_mm=draw(sigmas))
        if all(other.silhouette(DEFAULT_CONFIG).distance(o.silhouette(DEFAULT_CONFIG)) > 0.5
               for o in ships):
            ships.append(other)
    obstacles = []
    if draw(st.booleans()):
        ang = draw(st.floats(0, 2 * math.pi))
        c = tip + draw(st.floats(8.0, s + 10.0)) * np.array([math.cos(ang), math.sin(ang)])
        half = draw(st.floats(1.0, 6.0))
        rock = Obstacle("rock", tuple(map(tuple, c + half * np.array(
            [[-1, -1], [1, -1], [1, 1], [-1, 1]]))))
        if rock.shape.distance(me.silhouette(DEFAULT_CONFIG)) > 0.5:
            obstacles.append(rock)
    edge = draw(st.floats(300.0 + s * 0.5, 300.0 + 3 * s))
    area = PlayArea.rectangle(300.0 - 3 * s - 50, 300.0 - 3 * s - 50, edge, 300.0 + 3 * s + 50)
    assume(area.shape.contains(me.silhouette(DEFAULT_CONFIG)))
    return Table(area, tuple(ships), tuple(obstacles))


def sampled_legal(table: Table, n: int = 6001) -> tuple[np.ndarray, np.ndarray]:
    env = StepEnv.for_ship(table, "M", DEFAULT_CONFIG)
    me = table.ship("M")
    lim = env.max_turn_deg
    phis = np.linspace(-lim + 1e-6, lim - 1e-6, n)
    tip = me.tip_mm(DEFAULT_CONFIG)
    slack, _, _ = env.evaluate(np.full(n, tip[0]), np.full(n, tip[1]),
                               me.pose.heading_deg + phis)
    return phis, (slack > 0) & (np.abs(phis) < env.turn_limit_deg)


@SETTINGS
@given(scenes())
def test_exact_intervals_agree_with_fine_sampling(table):
    """§4.3: the closed-form critical angles give the same legal set as 6001 samples, except
    within 0.05° of an interval end."""
    opt = step_options(table, "M")
    phis, ok = sampled_legal(table)
    exact = np.array([iv.contains(opt.legal_deg, p) for p in phis])
    ends = np.array([e for lo_hi in opt.legal_deg for e in lo_hi] +
                    [-opt.turn_limit_deg, opt.turn_limit_deg])
    mismatch = phis[exact != ok]
    assert all(np.min(np.abs(ends - p)) < 0.05 for p in mismatch)


@SETTINGS
@given(scenes(), st.floats(0.01, 0.99))
def test_a_legal_step_never_overlaps_the_previous_footprint(table, frac):
    """§4.2: whatever is legal keeps the new footprint off the old one."""
    opt = step_options(table, "M")
    assume(opt.legal_deg)
    lo, hi = opt.legal_deg[int(frac * len(opt.legal_deg))]
    phi = lo + frac * (hi - lo)
    d = table.ship("M").dims(DEFAULT_CONFIG)
    old = footprint(table.ship("M").pose, d)
    assert footprint(opt.pose(phi), d).intersection(old).area < 1e-6


def rigid(table: Table, pose: Pose, ang_deg: float, dx: float, dy: float):
    """The same table (ships, obstacles, play area) and query pose turned about the origin by
    ``ang_deg`` and shifted by (dx, dy)."""
    a = math.radians(ang_deg)
    c, s = math.cos(a), math.sin(a)

    def pt(p):
        return (c * p[0] - s * p[1] + dx, s * p[0] + c * p[1] + dy)

    def ps(p: Pose) -> Pose:
        x, y = pt(p.stern_mm)
        return Pose(x, y, p.heading_deg + ang_deg)

    ships = tuple(Ship(o.id, o.player, o.size, ps(o.pose), sigma_mm=o.sigma_mm,
                       sigma_deg=o.sigma_deg) for o in table.ships)
    obs = tuple(Obstacle(o.id, tuple(pt(p) for p in o.polygon_mm), o.sigma_mm)
                for o in table.obstacles)
    area = PlayArea(tuple(pt(p) for p in table.play_area.polygon_mm))
    return Table(area, ships, obs), ps(pose)


def stepped(table: Table, ship_id: str, turns) -> Pose:
    """The ship's pose after one step per turn (deg), each from the last one's tip."""
    me = table.ship(ship_id)
    s = me.dims(DEFAULT_CONFIG).footprint_length_mm
    p = me.pose
    for t in turns:
        tip = p.tip_mm(s)
        p = Pose(tip[0], tip[1], p.heading_deg + t)
    return p


# Derandomized: random draws found cases this property did not hold for (the case table
# below), and CI must not pass or fail on which examples a run happens to draw.
@settings(SETTINGS, derandomize=True)
@given(scenes(), st.floats(0, 360), st.floats(-500, 500), st.floats(-500, 500),
       st.lists(st.floats(-70, 70), min_size=1, max_size=4))
def test_verdicts_do_not_depend_on_where_the_table_is(table, ang, dx, dy, turns):
    """Translating and turning everything (and the query) changes no verdict."""
    me = table.ship("M")
    p = stepped(table, "M", turns[:me.size.max_steps])
    t2, p2 = rigid(table, p, ang, dx, dy)
    o1, o2 = step_options(table, "M"), step_options(t2, "M")
    assert len(o1.legal_deg) == len(o2.legal_deg)
    for (a1, b1), (a2, b2) in zip(o1.legal_deg, o2.legal_deg, strict=True):
        assert abs(a1 - a2) < 1e-6 and abs(b1 - b2) < 1e-6
    v1, v2 = adjudicate_move(table, "M", p), adjudicate_move(t2, "M", p2)
    assert (v1.yes, v1.decided_by, v1.blocker) == (v2.yes, v2.decided_by, v2.blocker)


def _square(lo: float, hi_x: float, hi_y: float) -> PlayArea:
    return PlayArea(((lo, lo), (hi_x, lo), (hi_x, hi_y), (lo, hi_y)))


# Found by the property test above (sessions 34, 35): moves that fail on every chain at step 1
# by an overlap (each chain's slack the same −allowance) named whichever chain the search
# finished first, and turning the table changes which chains are finished: the verdict (no)
# stayed, the reason changed. Ties among failing chains now go to the most direct chain (least
# turning, then nearest the claimed pose, each within 1e-6, then the blocker listed first;
# move._most_direct): rules.md §3 and §7,
# a verdict names what decided it, wherever the table stands.
TIED_FAILURES = {
    # session 34: off the play area on a 4-step detour, into E0 on the direct 3-step chain
    "direct_chain_into_a_ship_beside_detours_off_the_edge": (
        Table(_square(170.84358221494293, 327.0, 429.1564177850571),
              (Ship("M", "A", Size.SMALL, Pose(300.0, 300.0, 0.0)),
               Ship("E0", "B", Size.SMALL, Pose(341.385472595019, 300.0, 0.0)))),
        [1.0, 0.0, 0.0], 1.0, "contact", "E0"),
    # session 35: chains turning the least possible 41°, some into the rock just beyond the
    # edge, some off the edge, in an order set by float noise
    "least_turning_chains_tied_between_edge_and_rock": (
        Table(_square(141.07895953195901, 337.0, 458.921040468041),
              (Ship("M", "A", Size.MEDIUM, Pose(300.0, 300.0, 0.0)),),
              (Obstacle("rock", ((348.0058699861309, 268.8820331629773),
                                 (358.0058699861309, 268.8820331629773),
                                 (358.0058699861309, 278.8820331629773),
                                 (348.0058699861309, 278.8820331629773))),)),
        [-41.0, 0.0], 40.0, "contact", "rock"),
    # session 35: the same, the total turns equal but for the last bits, on either side of a
    # rounding boundary (so ties are compared within a tolerance, not rounded)
    "least_turning_chains_tied_to_the_last_bits": (
        Table(_square(141.07895953195901, 337.0, 458.921040468041),
              (Ship("M", "A", Size.MEDIUM, Pose(300.0, 300.0, 0.5)),),
              (Obstacle("rock", ((349.0818331067458, 267.51383748651443),
                                 (359.0818331067458, 267.51383748651443),
                                 (359.0818331067458, 277.51383748651443),
                                 (349.0818331067458, 277.51383748651443))),)),
        [-42.6484375, -1.0], 43.0, "play_area", "play_area"),
}


@pytest.mark.parametrize("name", TIED_FAILURES)
def test_a_move_failing_every_chain_names_the_same_blocker_wherever_the_table_is(name):
    table, turns, ang, decided_by, blocker = TIED_FAILURES[name]
    p = stepped(table, "M", turns)
    t2, p2 = rigid(table, p, ang, 0.0, 0.0)
    for v in (adjudicate_move(table, "M", p), adjudicate_move(t2, "M", p2)):
        assert (v.yes, v.decided_by, v.blocker) == (False, decided_by, blocker), v.reason


def test_a_legal_move_stays_legal_when_the_table_is_moved():
    """Hypothesis's case (rules.md, steps: a move is legal when some chain of legal steps
    makes it): moved 227 mm, the two-step chains' order among near-equal ones changed in the
    last bits, only the first few were finished, and the move read 'too close to E0'."""
    lo, hi = 170.84358221494293, 429.1564177850571
    table = Table(PlayArea(((lo, lo), (338.0, lo), (338.0, hi), (lo, hi))), (
        Ship("M", "A", Size.SMALL, Pose(300.0, 300.0, 326.8125), sigma_mm=0.28125),
        Ship("E0", "B", Size.SMALL, Pose(325.7198670787921, 217.27896969763665, 81.75))), ())
    s = table.ship("M").dims(DEFAULT_CONFIG).footprint_length_mm
    p = table.ship("M").pose
    for t in (-42.4375, 0.0):
        tip = p.tip_mm(s)
        p = Pose(tip[0], tip[1], p.heading_deg + t)
    for dy in (0.0, 227.0):
        t2, p2 = rigid(table, p, 0.0, 0.0, dy)
        v = adjudicate_move(t2, "M", p2)
        assert (v.yes, v.decided_by) == (True, "move"), (dy, v.reason)


@SETTINGS
@given(scenes(), st.lists(st.floats(-76, 76), min_size=1, max_size=4),
       st.floats(-2.5, 2.5), st.floats(-2.5, 2.5), st.floats(-4, 4))
def test_never_yes_without_room_to_spare(table, turns, ex, ey, eh):
    """§7: a yes has every margin above its allowance, checked independently with shapely:
    each step's silhouette clear of every other object, inside the play area, turns within the
    limit and the end within the placement tolerance."""
    me = table.ship("M")
    cfg = DEFAULT_CONFIG
    d = me.dims(cfg)
    s = d.footprint_length_mm
    p = me.pose
    for t in turns[:me.size.max_steps]:
        tip = p.tip_mm(s)
        p = Pose(tip[0], tip[1], p.heading_deg + t)
    after = Pose(p.x_mm + ex, p.y_mm + ey, p.heading_deg + eh)
    v = adjudicate_move(table, "M", after)
    if v.margin_mm is not None and v.allowance_mm is not None and \
            abs(v.margin_mm) <= v.allowance_mm:
        assert not v.yes and v.in_doubt
    if not v.yes:
        return
    assert v.margin_mm > v.allowance_mm
    env = StepEnv(table, me, cfg)
    prev = me.pose
    for q in v.steps:
        sil = silhouette(q, d)
        for j, g in enumerate(env.geoms):
            assert sil.distance(g) > env.allow[j]
        assert table.play_area.shape.contains(sil)
        assert table.play_area.shape.exterior.distance(sil) > env.a_area
        turn = abs((q.heading_deg - prev.heading_deg + 180) % 360 - 180)
        assert d.max_turn_deg - turn > env.a_self_deg
        assert math.dist(q.stern_mm, prev.tip_mm(s)) < 1e-6
        prev = q
    assert cfg.place_tol_mm - math.dist(prev.stern_mm, after.stern_mm) > env.a_self
    dh = abs((after.heading_deg - prev.heading_deg + 180) % 360 - 180)
    assert cfg.place_tol_deg - dh > env.a_self_deg


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(scenes())
def test_reachable_region_keeps_clear_of_everything(table):
    """§4.3: every footprint in the reachable region belongs to a legal placement, so the region
    stays inside the play area and keeps each object's allowance (less 0.05 mm of drawing
    tolerance: chords and simplification)."""
    from armada_vision.rules.reach import reachable_region

    region = reachable_region(table, "M", resolution_deg=3.0)
    assume(not region.is_empty)
    env = StepEnv(table, table.ship("M"), DEFAULT_CONFIG)
    for g, a in zip(env.geoms, env.allow, strict=True):
        assert region.distance(g) >= a - 0.05
    assert table.play_area.shape.buffer(1e-6).contains(region)
    assert table.play_area.shape.exterior.distance(region) >= env.a_area - 0.05


def test_a_step_onto_two_blockers_names_the_same_one_wherever_the_table_is():
    """Found by the property above (CI, session 20): a step whose footprint overlaps both a
    rock and a ship (rules.md §3, contact) named the rock, and the ship once the table was
    turned 180°: both clearances are 0 with the same allowance, and the tie went to whichever
    the spatial index listed first. The tie now goes to the first object of the table."""
    area = PlayArea(((170.8, 170.8), (327.0, 170.8), (327.0, 429.2), (170.8, 429.2)))
    ships = (Ship("M", "A", Size.SMALL, Pose(300.0, 300.0, 0.0)),
             Ship("E0", "B", Size.SMALL, Pose(341.385472595019, 300.0, 0.0)))
    rock = Obstacle("rock", ((333.385472595019, 299.0), (335.385472595019, 299.0),
                             (335.385472595019, 301.0), (333.385472595019, 301.0)))
    table = Table(area, ships, (rock,))
    p = stepped(table, "M", [0.0])
    v1 = adjudicate_move(table, "M", p)
    t2, p2 = rigid(table, p, 180.0, 0.0, 0.0)
    v2 = adjudicate_move(t2, "M", p2)
    assert not v1.yes and v1.decided_by == "contact"
    assert v1.blocker == v2.blocker


def test_a_move_found_through_the_target_ring_is_found_wherever_the_table_is():
    """Found by the property above (CI, session 20): a three-step move whose legal chain ends
    off the exact target, within the placement tolerance (rules.md §4), was found with the table
    turned 2° but not as it lay: the ring of targets round the placed stern was laid out at
    fixed table angles (0°, 45°, ...), so turning the table moved it against the pieces. It is
    now laid out from the ship's start heading."""
    area = PlayArea(((170.8, 170.8), (314.0, 170.8), (314.0, 429.2), (170.8, 429.2)))
    ships = (Ship("M", "A", Size.SMALL, Pose(300.0, 300.0, 162.9375)),
             Ship("E0", "B", Size.SMALL, Pose(222.97367755208168, 286.46908316638377, 0.0)))
    table = Table(area, ships, ())
    p = stepped(table, "M", [61.5, 0.0, 0.0])
    turned = [rigid(table, p, ang, 0.0, 0.0) for ang in (0.0, 1.0, 2.0, 90.0)]
    assert all(adjudicate_move(t, "M", q).yes for t, q in turned)
