"""Whole moves (rules.md §4): reconstruction of the steps, placement tolerance, what fails."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely

from armada_vision.geometry import NOMINAL_PIECES, Pose, Size, footprint, silhouette
from armada_vision.rules import DEFAULT_CONFIG, Obstacle, PlayArea, Ship, Table
from armada_vision.rules.move import adjudicate_move
from armada_vision.rules.reach import reachable_region
from armada_vision.rules.step import StepEnv, adjudicate_step, step_zone

AREA = PlayArea.rectangle(0, 0, 600, 600)


def walk(pose: Pose, size: Size, turns: list[float]) -> list[Pose]:
    s = NOMINAL_PIECES.dims(size).footprint_length_mm
    out = []
    for t in turns:
        tip = pose.tip_mm(s)
        pose = Pose(tip[0], tip[1], pose.heading_deg + t)
        out.append(pose)
    return out


def shifted(p: Pose, dx: float = 0.0, dy: float = 0.0, dh: float = 0.0) -> Pose:
    return Pose(p.x_mm + dx, p.y_mm + dy, p.heading_deg + dh)


def check_chain(table: Table, ship: Ship, steps: tuple[Pose, ...]) -> None:
    """Each reconstructed step is itself a legal step from the one before (§4.4)."""
    prev = ship.pose
    for p in steps:
        v = adjudicate_step(table, ship.id, p, from_pose=prev)
        assert v.yes, v.reason
        tip = prev.tip_mm(ship.dims(DEFAULT_CONFIG).footprint_length_mm)
        assert p.stern_mm == pytest.approx(tip, abs=1e-6)   # §4.1 exactly, not within tolerance
        prev = p


@pytest.mark.parametrize("rule, size, turns", [
    ("§4 one-step large move", Size.LARGE, [30.0]),
    ("§4 two-step medium move", Size.MEDIUM, [20.0, -35.0]),
    ("§4 three-step small move", Size.SMALL, [-60.0, 10.0, 40.0]),
    ("§4 four-step small move", Size.SMALL, [30.0, -40.0, 70.0, -60.0]),
    ("§4 fewer steps than the maximum", Size.SMALL, [15.0, 15.0]),
])
def test_legal_moves_are_reconstructed(rule, size, turns):
    ship = Ship("X", "A", size, Pose(250.0, 280.0, 15.0))
    t = Table(AREA, (ship,))
    after = walk(ship.pose, size, turns)[-1]
    v = adjudicate_move(t, "X", after)
    assert v.yes and not v.in_doubt, rule
    assert 1 <= len(v.steps) <= size.max_steps
    end = v.steps[-1]
    assert math.dist(end.stern_mm, after.stern_mm) < DEFAULT_CONFIG.place_tol_mm
    check_chain(t, ship, v.steps)


def test_two_step_medium_reconstruction_recovers_the_turns():
    ship = Ship("M1", "A", Size.MEDIUM, Pose(250.0, 280.0, 0.0))
    steps = walk(ship.pose, Size.MEDIUM, [20.0, -35.0])
    v = adjudicate_move(Table(AREA, (ship,)), "M1", steps[-1])
    assert [p.heading_deg for p in v.steps] == pytest.approx([20.0, 345.0], abs=1e-6)


def test_five_step_small_move_is_too_far():
    ship = Ship("S1", "A", Size.SMALL, Pose(200.0, 300.0, 0.0))
    after = walk(ship.pose, Size.SMALL, [5.0] * 5)[-1]
    v = adjudicate_move(Table(AREA, (ship,)), "S1", after)
    assert not v.yes and v.decided_by == "distance" and "5+" in v.reason
    assert v.margin_mm < 0


@pytest.mark.parametrize("rule, size, turns, offset_mm, yes", [
    ("§4 placement tolerance: large 1.5 mm off", Size.LARGE, [10.0], 1.5, True),
    ("§4 placement tolerance: large 2.5 mm off", Size.LARGE, [10.0], 2.5, False),
    ("§4 placement tolerance: medium straight, 1.5 mm beyond", Size.MEDIUM, [0.0, 0.0], 1.5,
     True),
    ("§4 placement tolerance: medium straight, 2.5 mm beyond", Size.MEDIUM, [0.0, 0.0], 2.5,
     False),
])
def test_placement_tolerance(rule, size, turns, offset_mm, yes):
    ship = Ship("X", "A", size, Pose(200.0, 300.0, 0.0))
    after = walk(ship.pose, size, turns)[-1]
    c, s = after.direction
    v = adjudicate_move(Table(AREA, (ship,)), "X",
                        shifted(after, offset_mm * c, offset_mm * s))
    assert v.yes is yes, rule
    if not yes:
        assert v.decided_by == "distance" and not v.in_doubt


def test_placement_tolerance_is_reduced_by_the_allowance():
    """§4 with §7: 1.5 mm off is legal with σ = 0 but not once σ eats the tolerance."""
    for sigma, yes in ((0.0, True), (0.15, False)):
        ship = Ship("L1", "A", Size.LARGE, Pose(200.0, 300.0, 0.0), sigma_mm=sigma)
        after = walk(ship.pose, Size.LARGE, [0.0])[-1]
        v = adjudicate_move(Table(AREA, (ship,)), "L1", shifted(after, 1.5))
        assert v.yes is yes


@pytest.mark.parametrize("rule, size, turns, decided_by, in_doubt", [
    ("§4.2 a clear foul (84° turn) is a plain no even when σ eats the tolerance",
     Size.SMALL, [84.0], "turn", False),
    ("§4 with §7: a legal move is no, in doubt, when σ eats the tolerance",
     Size.LARGE, [30.0], "distance", True),
])
def test_allowance_larger_than_the_tolerance(rule, size, turns, decided_by, in_doubt):
    ship = Ship("S", "A", size, Pose(200.0, 300.0, 0.0), sigma_mm=0.8)
    after = walk(ship.pose, size, turns)[-1]
    v = adjudicate_move(Table(AREA, (ship,)), "S", after)
    assert not v.yes
    assert (v.decided_by, v.in_doubt) == (decided_by, in_doubt), v.reason
    if in_doubt:   # the reading it could not confirm is there to draw
        assert v.steps and v.steps[-1].stern_mm == pytest.approx(after.stern_mm, abs=1e-6)


def test_contact_at_an_intermediate_step_names_step_and_blocker():
    """§4.4: the final placement is clear, but the only way there touches a rock at step 1."""
    ship = Ship("M1", "A", Size.MEDIUM, Pose(200.0, 300.0, 0.0))
    steps = walk(ship.pose, Size.MEDIUM, [0.0, 0.0])
    mid = silhouette(steps[0], NOMINAL_PIECES.medium)
    c = np.array(mid.centroid.coords[0]) + np.array([0.0, 6.0])
    rock = Obstacle("rock", tuple(map(tuple, c + np.array([[-2, 0], [2, 0], [2, 9], [-2, 9]]))))
    t = Table(AREA, (ship,), (rock,))
    assert not silhouette(steps[1], NOMINAL_PIECES.medium).intersects(rock.shape.buffer(1))
    v = adjudicate_move(t, "M1", steps[1])
    assert not v.yes and v.decided_by == "contact"
    assert v.failed_step == 1 and v.blocker == "rock"
    assert v.margin_mm < 0


def test_move_ending_off_the_play_area():
    ship = Ship("M1", "A", Size.MEDIUM, Pose(500.0, 300.0, 0.0))
    after = walk(ship.pose, Size.MEDIUM, [0.0, 0.0])[-1]
    v = adjudicate_move(Table(AREA, (ship,)), "M1", after)
    assert not v.yes and v.decided_by == "play_area" and v.blocker == "play_area"


def test_four_step_move_finds_a_way_round_an_obstacle():
    """A rock sits where a straight first step would put the tip; the move ends 2 lengths
    beyond the first stern, which 3 free links reach along many curving paths."""
    ship = Ship("S1", "A", Size.SMALL, Pose(200.0, 300.0, 0.0))
    straight = walk(ship.pose, Size.SMALL, [0.0, 0.0, 0.0])
    c = np.array(straight[1].stern_mm)
    rock = Obstacle("rock", tuple(map(tuple, c + np.array([[-3, -3], [3, -3], [3, 3], [-3, 3]]))))
    t = Table(AREA, (ship,), (rock,))
    assert not adjudicate_step(t, "S1", straight[0]).yes      # the straight way is blocked
    after = straight[2]
    v = adjudicate_move(t, "S1", after)
    assert v.yes, v.reason
    assert len(v.steps) == 4
    check_chain(t, ship, v.steps)
    env = StepEnv.for_ship(t, "S1", DEFAULT_CONFIG)
    for p in v.steps:
        assert silhouette(p, NOMINAL_PIECES.small).distance(rock.shape) > env.allowance_of(0)


def test_verdict_json_carries_the_steps():
    ship = Ship("M1", "A", Size.MEDIUM, Pose(200.0, 300.0, 0.0))
    after = walk(ship.pose, Size.MEDIUM, [10.0, 10.0])[-1]
    js = adjudicate_move(Table(AREA, (ship,)), "M1", after).to_json()
    assert js["verdict"] == "yes" and len(js["steps"]) == 2
    assert set(js["steps"][0]) == {"stern", "heading"}


def test_impossible_start_state():
    ship = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    other = Ship("E1", "B", Size.SMALL, Pose(305.0, 302.0, 0.0))
    v = adjudicate_move(Table(AREA, (ship, other)), "S1", walk(ship.pose, Size.SMALL, [0])[0])
    assert not v.yes and v.decided_by == "state" and "E1" in v.reason


# -- reachable region --------------------------------------------------------------------------

def test_reachable_region_of_a_large_ship_is_its_step_zone():
    ship = Ship("L1", "A", Size.LARGE, Pose(300.0, 300.0, 0.0))
    t = Table(AREA, (ship,))
    r, z = reachable_region(t, "L1"), step_zone(t, "L1")
    assert r.symmetric_difference(z).area < 1e-6 * z.area


def test_reachable_region_contains_every_reconstructed_end_and_avoids_objects():
    ship = Ship("M1", "A", Size.MEDIUM, Pose(200.0, 300.0, 0.0))
    enemy = Ship("E1", "B", Size.LARGE, Pose(270.0, 330.0, 200.0))
    t = Table(AREA, (ship, enemy))
    region = reachable_region(t, "M1", resolution_deg=1.0)
    assert not region.intersects(enemy.silhouette(DEFAULT_CONFIG))
    rng = np.random.default_rng(5)
    d = NOMINAL_PIECES.medium
    for _ in range(15):
        turns = list(rng.uniform(-70, 70, size=2))
        after = walk(ship.pose, Size.MEDIUM, turns)[-1]
        v = adjudicate_move(t, "M1", after)
        if v.yes:
            fp = footprint(v.steps[-1], d)
            # Within the sampling resolution (s · 1° ≈ 0.6 mm per sampled turn).
            assert fp.difference(region.buffer(1.5)).area < 1e-6


def test_reachable_region_of_a_small_ship_grows_with_steps_and_matches_sampling():
    ship = Ship("S1", "A", Size.SMALL, Pose(300.0, 300.0, 0.0))
    t = Table(AREA, (ship,))
    areas = [reachable_region(t, "S1", max_steps=k, resolution_deg=2.0).area for k in (1, 2, 3)]
    assert areas[0] < areas[1] < areas[2]
    # Brute force for 2 steps: footprints at a 3° grid of both turns.
    d = NOMINAL_PIECES.small
    lim = 74.3
    fps = [footprint(p, d) for a in np.arange(-lim, lim, 3.0) for b in np.arange(-lim, lim, 3.0)
           for p in walk(ship.pose, Size.SMALL, [a, b])]
    brute = shapely.union_all(fps)
    two = reachable_region(t, "S1", max_steps=2, resolution_deg=1.0)
    assert brute.difference(two).area < 0.005 * brute.area
    assert two.difference(brute.buffer(2.0)).area < 0.005 * two.area


def test_reachable_region_does_not_jump_a_wall():
    """§4.4: every intermediate step must be legal, so nothing beyond a wall is reachable even
    where the final footprint alone would fit."""
    ship = Ship("M1", "A", Size.MEDIUM, Pose(200.0, 300.0, 0.0))
    s = NOMINAL_PIECES.medium.footprint_length_mm
    x0 = 200.0 + 2 * s + 3.0
    wall = Obstacle("wall", ((x0, 100.0), (x0 + 10, 100.0), (x0 + 10, 500.0), (x0, 500.0)))
    t = Table(AREA, (ship,), (wall,))
    region = reachable_region(t, "M1", resolution_deg=2.0)
    assert not region.intersects(wall.shape)
    beyond = shapely.box(x0 + 10, 0, 600, 600)
    assert region.intersection(beyond).area == 0.0
    # The one-step placements in front of the wall are there.
    assert region.contains(footprint(walk(ship.pose, Size.MEDIUM, [0.0])[0],
                                     NOMINAL_PIECES.medium).buffer(-0.1))
    # Straight on twice ends with the second footprint through the wall.
    v = adjudicate_move(t, "M1", walk(ship.pose, Size.MEDIUM, [0.0, 0.0])[-1])
    assert not v.yes and v.blocker == "wall" and v.failed_step == 2
