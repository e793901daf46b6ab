"""One step (rules.md §4.1–4.5, §7): exact turn intervals, step verdicts, the step zone."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import shapely

from armada_vision.geometry import NOMINAL_PIECES, Pose, Size, footprint, silhouette
from armada_vision.rules import DEFAULT_CONFIG, Obstacle, PlayArea, Ship, Table, allowance_mm
from armada_vision.rules.step import (
    PLAY_AREA,
    TURN,
    StepEnv,
    adjudicate_step,
    legal_many,
    options_at,
    step_options,
    step_zone,
)

AREA = PlayArea.rectangle(0, 0, 600, 600)


def s_of(size: Size) -> float:
    return NOMINAL_PIECES.dims(size).footprint_length_mm


def one_step(pose: Pose, size: Size, turn_deg: float) -> Pose:
    tip = pose.tip_mm(s_of(size))
    return Pose(tip[0], tip[1], pose.heading_deg + turn_deg)


def table_with(*things, area=AREA) -> Table:
    ships = tuple(t for t in things if isinstance(t, Ship))
    obstacles = tuple(t for t in things if isinstance(t, Obstacle))
    return Table(area, ships, obstacles)


ME = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 30.0))


# -- §4.1 / §4.2: turn limits on an empty table ----------------------------------------------------

@pytest.mark.parametrize("rule, size, turn, legal", [
    ("§4.1 straight step", Size.SMALL, 0.0, True),
    ("§4.2 small turns 74°", Size.SMALL, 74.0, True),
    ("§4.2 small turns −74°", Size.SMALL, -74.0, True),
    ("§4.2 small cannot turn 75°", Size.SMALL, 75.0, False),
    ("§4.2 within the doubt band of the limit", Size.SMALL, 74.6, False),
    ("§4.2 medium turns 74°", Size.MEDIUM, 74.0, True),
    ("§4.2 large cannot turn 74.7°", Size.LARGE, 74.7, False),
    ("§4.2 no turning back", Size.MEDIUM, 120.0, False),
])
def test_turn_limit_cases(rule, size, turn, legal):
    ship = Ship("X", "A", size, Pose(300.0, 300.0, 10.0))
    opt = step_options(table_with(ship), "X")
    assert opt.is_legal(turn) is legal, rule
    if not legal:
        assert opt.blocked_by(turn).by == TURN, rule


def test_turn_limit_is_max_turn_less_the_allowance_in_degrees():
    """§4.2 with §7: the limit keeps room for the self allowance turned into degrees at s."""
    for size in Size:
        d = NOMINAL_PIECES.dims(size)
        opt = step_options(table_with(Ship("X", "A", size, Pose(300, 300, 0))), "X")
        a = allowance_mm([0.0, 0.0], DEFAULT_CONFIG.doubt_floor_mm)
        assert opt.turn_limit_deg == pytest.approx(
            d.max_turn_deg - math.degrees(a / d.footprint_length_mm))
        assert opt.legal_deg == ((-opt.turn_limit_deg, opt.turn_limit_deg),)


def test_74_degree_step_own_silhouette_meets_but_footprints_do_not():
    """§4.3: the ship's previous position is exempt from the silhouette contact rule; only
    rule 2 (footprints) applies against it."""
    d = NOMINAL_PIECES.small
    new = one_step(ME.pose, Size.SMALL, 74.0)
    assert silhouette(new, d).intersects(silhouette(ME.pose, d))
    assert footprint(new, d).intersection(footprint(ME.pose, d)).area < 1e-6
    assert adjudicate_step(table_with(ME), "S1", new).yes


def test_step_verdict_names_the_reconstructed_step():
    new = one_step(ME.pose, Size.SMALL, -20.0)
    v = adjudicate_step(table_with(ME), "S1", new)
    assert v.yes and not v.in_doubt
    assert len(v.steps) == 1
    assert v.steps[0].stern_mm == pytest.approx(ME.tip_mm(DEFAULT_CONFIG))
    assert v.steps[0].heading_deg == pytest.approx(new.heading_deg)


def test_observed_turn_beyond_limit_and_tolerance_is_too_sharp():
    """§4.2 with the heading tolerance: 74.31° + (3° − 0.54°) is the most that passes."""
    ok = adjudicate_step(table_with(ME), "S1", one_step(ME.pose, Size.SMALL, 76.5))
    near = adjudicate_step(table_with(ME), "S1", one_step(ME.pose, Size.SMALL, 77.0))
    bad = adjudicate_step(table_with(ME), "S1", one_step(ME.pose, Size.SMALL, 79.0))
    assert ok.yes
    # Needs 77 − 2.46 = 74.54°: under the 74.85° limit by less than the 0.54° allowance.
    assert not near.yes and near.in_doubt and near.decided_by == "turn"
    assert 0 < near.margin_deg < 0.55
    assert not bad.yes and not bad.in_doubt and bad.decided_by == "turn" and bad.margin_deg < 0


def test_75_degrees_with_a_tight_heading_tolerance_is_no():
    cfg = replace(DEFAULT_CONFIG, place_tol_deg=0.6)
    v = adjudicate_step(table_with(ME), "S1", one_step(ME.pose, Size.SMALL, 75.0), cfg)
    assert not v.yes and v.decided_by == "turn"


# -- §4.3: contact with objects and the play-area edge ------------------------------------------

def enemy_ahead(gap_mm: float) -> Ship:
    """A large enemy lying across the path, its stern edge ``gap_mm`` beyond a straight step's
    tip (both with heading 0)."""
    me = Pose(300.0, 300.0, 0.0)
    tip2 = one_step(me, Size.SMALL, 0.0).tip_mm(s_of(Size.SMALL))
    hw = NOMINAL_PIECES.large.half_w_mm
    # Heading 90°: the stern edge runs along x at the ship's stern, the body lies to +x.
    return Ship("E1", "B", Size.LARGE, Pose(tip2[0] + gap_mm, tip2[1] + hw - 3.0, 270.0))


def test_step_into_an_enemy_is_contact_with_its_id_and_depth():
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    enemy = Ship("E1", "B", Size.LARGE, Pose(345.0, 290.0, 90.0))
    t = table_with(me, enemy)
    new = one_step(me.pose, Size.SMALL, 0.0)
    v = adjudicate_step(t, "S1", new)
    assert not v.yes and v.decided_by == "contact" and v.blocker == "E1"
    assert v.failed_step == 1
    depth = silhouette(new, NOMINAL_PIECES.small).intersection(
        enemy.silhouette(DEFAULT_CONFIG))
    assert depth.area > 0 and v.margin_mm < 0
    opt = step_options(t, "S1")
    assert opt.blocked_by(0.0).by == "E1"


def test_gap_smaller_than_the_allowance_is_no_and_in_doubt():
    """§7: a wall 0.5 mm beyond the tip, pose σ 0.4 mm: allowance 1.05 mm > gap."""
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0), sigma_mm=0.4)
    tip2 = one_step(me.pose, Size.SMALL, 0.0).tip_mm(s_of(Size.SMALL))
    x0 = tip2[0] + 0.5
    wall = Obstacle("wall", ((x0, 200.0), (x0 + 10, 200.0), (x0 + 10, 400.0), (x0, 400.0)))
    v = adjudicate_step(table_with(me, wall), "S1", one_step(me.pose, Size.SMALL, 0.0))
    a = allowance_mm([me.sigma_total_mm(DEFAULT_CONFIG), 0.0], DEFAULT_CONFIG.doubt_floor_mm)
    assert not v.yes and v.in_doubt and v.blocker == "wall"
    assert v.allowance_mm == pytest.approx(a)
    assert 0.0 < v.margin_mm <= a


@pytest.mark.parametrize("rule, sigma_mm, gap_mm, yes, doubt", [
    ("§7 clear gap beyond the allowance", 0.0, 0.6, True, False),
    ("§7 near miss inside the floor is doubtful", 0.0, 0.2, False, True),
    ("§7 pose σ widens the allowance", 0.3, 0.6, False, True),
])
def test_wall_gap_cases(rule, sigma_mm, gap_mm, yes, doubt):
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0), sigma_mm=sigma_mm)
    tip2 = one_step(me.pose, Size.SMALL, 0.0).tip_mm(s_of(Size.SMALL))
    x0 = tip2[0] + gap_mm
    wall = Obstacle("wall", ((x0, 200.0), (x0 + 10, 200.0), (x0 + 10, 400.0), (x0, 400.0)))
    v = adjudicate_step(table_with(me, wall), "S1", one_step(me.pose, Size.SMALL, 0.0))
    assert (v.yes, v.in_doubt) == (yes, doubt), rule


def test_step_off_the_play_area():
    me = Ship("S1", "A", Size.SMALL, Pose(560.0, 300.0, 0.0))
    v = adjudicate_step(table_with(me), "S1", one_step(me.pose, Size.SMALL, 0.0))
    assert not v.yes and v.decided_by == "play_area" and v.margin_mm < 0
    opt = step_options(table_with(me), "S1")
    assert opt.blocked_by(0.0).by == PLAY_AREA
    # Turning along the edge instead keeps clear of it.
    assert opt.is_legal(70.0) and opt.is_legal(-70.0)


def test_obstacle_blocks_only_the_turns_that_reach_it():
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    pivot = np.array(me.tip_mm(DEFAULT_CONFIG))
    c = pivot + 20.0 * np.array([math.cos(math.radians(40)), math.sin(math.radians(40))])
    rock = Obstacle("rock", tuple(map(tuple, c + np.array([[-2, -2], [2, -2], [2, 2], [-2, 2]]))))
    opt = step_options(table_with(me, rock), "S1")
    assert not opt.is_legal(40.0) and opt.blocked_by(40.0).by == "rock"
    assert opt.is_legal(0.0) and opt.is_legal(70.0) and opt.is_legal(-40.0)
    assert len(opt.legal_deg) == 2


def test_strict_sweep_keeps_only_the_interval_through_straight_ahead():
    """§4.4 strict option: the turn from straight ahead to φ must be clear all the way."""
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    pivot = np.array(me.tip_mm(DEFAULT_CONFIG))
    c = pivot + 20.0 * np.array([math.cos(math.radians(40)), math.sin(math.radians(40))])
    rock = Obstacle("rock", tuple(map(tuple, c + np.array([[-2, -2], [2, -2], [2, 2], [-2, 2]]))))
    t = table_with(me, rock)
    strict = step_options(t, "S1", replace(DEFAULT_CONFIG, strict_sweep=True))
    assert strict.is_legal(0.0) and strict.is_legal(-60.0)
    assert not strict.is_legal(70.0)
    assert len(strict.legal_deg) == 1
    v = adjudicate_step(t, "S1", one_step(me.pose, Size.SMALL, 70.0),
                        replace(DEFAULT_CONFIG, strict_sweep=True))
    assert not v.yes


def test_stuck_ship_has_no_step_and_an_empty_zone():
    """§4.5: boxed in by a tight ring, no step is legal."""
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    pivot = shapely.Point(me.tip_mm(DEFAULT_CONFIG))
    ring = pivot.buffer(22.0).difference(pivot.buffer(40.0).exterior.buffer(0)).difference(
        me.silhouette(DEFAULT_CONFIG).buffer(1.0))
    ring = max(getattr(ring, "geoms", [ring]), key=lambda g: g.area)
    wall = Obstacle("wall", tuple(ring.exterior.coords)[:-1])
    t = table_with(me, wall)
    assert step_options(t, "S1").stuck
    assert step_zone(t, "S1").is_empty


def test_impossible_start_is_a_verdict_not_a_crash():
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    other = Ship("E1", "B", Size.MEDIUM, Pose(305.0, 298.0, 10.0))
    v = adjudicate_step(table_with(me, other), "S1", one_step(me.pose, Size.SMALL, 0.0))
    assert not v.yes and v.decided_by == "state" and v.blocker == "E1"


def test_unknown_ship_is_malformed_input_naming_the_field():
    with pytest.raises(ValueError, match="ship"):
        step_options(table_with(ME), "nope")


# -- the zone ----------------------------------------------------------------------------------

def test_step_zone_equals_union_of_sampled_legal_footprints():
    me = Ship("S1", "A", Size.MEDIUM, Pose(300.0, 300.0, 0.0))
    pivot = np.array(me.tip_mm(DEFAULT_CONFIG))
    c = pivot + 25.0 * np.array([0.0, 1.0])
    rock = Obstacle("rock", tuple(map(tuple, c + np.array([[-3, -3], [3, -3], [3, 3], [-3, 3]]))))
    t = table_with(me, rock)
    zone = step_zone(t, "S1", resolution_deg=0.5)
    opt = step_options(t, "S1")
    d = NOMINAL_PIECES.medium
    legal = [p for p in np.arange(-75, 75, 0.1) if opt.is_legal(p)]
    sampled = shapely.union_all([footprint(opt.pose(p), d) for p in legal])
    assert zone.symmetric_difference(sampled).area < 0.01 * sampled.area
    assert not zone.intersects(rock.shape)


def test_env_evaluate_agrees_with_shapely_distance():
    me = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    enemy = enemy_ahead(3.0)
    env = StepEnv.for_ship(table_with(me, enemy), "S1", DEFAULT_CONFIG)
    p = one_step(me.pose, Size.SMALL, 0.0)
    slack, which, clear = env.evaluate(np.array([p.x_mm]), np.array([p.y_mm]),
                                       np.array([p.heading_deg]))
    gap = silhouette(p, NOMINAL_PIECES.small).distance(enemy.silhouette(DEFAULT_CONFIG))
    assert env.ids[which[0]] == "E1"
    assert clear[0] == pytest.approx(gap)
    assert slack[0] == pytest.approx(gap - env.allowance_of(int(which[0])))


def test_batched_legal_sets_equal_the_one_pose_computation():
    """§4.3: ``legal_many`` (used by the reachable region) gives exactly ``options_at``'s sets,
    near ships, a rock and the play-area edge."""
    rng = np.random.default_rng(11)
    me = Ship("S1", "A", Size.SMALL, Pose(80.0, 300.0, 0.0))
    others = [Ship(f"E{i}", "B", Size.MEDIUM, Pose(60.0 + 40 * i, 250.0 + 35 * (i % 2), 40.0 * i))
              for i in range(1, 4)]
    rock = Obstacle("rock", ((120.0, 330.0), (128.0, 330.0), (128.0, 338.0), (120.0, 338.0)))
    t = table_with(me, *others, rock)
    env = StepEnv.for_ship(t, "S1", DEFAULT_CONFIG)
    xs, ys = rng.uniform(20, 200, 150), rng.uniform(220, 380, 150)
    hs = rng.uniform(0, 360, 150)
    batched = legal_many(env, xs, ys, hs)
    for x, y, h, got in zip(xs, ys, hs, batched, strict=True):
        want = options_at(env, Pose(x, y, h)).legal_deg
        assert len(got) == len(want)
        for (a, b), (c, d) in zip(got, want, strict=True):
            assert abs(a - c) < 1e-7 and abs(b - d) < 1e-7
