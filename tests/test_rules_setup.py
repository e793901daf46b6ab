"""Setup (rules.md §2): fleets of each variant and the check of a starting table."""

from __future__ import annotations

import pytest

from armada_vision.geometry import NOMINAL_PIECES, Pose
from armada_vision.rules import Obstacle, PlayArea, RulesConfig, Ship, Table
from armada_vision.rules.setup import (
    Fleet,
    FleetPlan,
    advanced_game,
    basic_game,
    check_fleets,
    check_setup,
    melee_game,
    multi_stash_game,
    owner_of,
)

AREA = PlayArea.rectangle(0, 0, 900, 900)
L = NOMINAL_PIECES.large.footprint_length_mm


FLEET_CASES = {
    "§2 basic: 4 large against 4 medium + 4 small": (basic_game("A", "B"), True, None),
    "§2 basic: the other player may take the large": (
        basic_game("A", "B", large_player="B", first_player="B"), True, None),
    "§2 basic: anything else is not the basic game": (
        FleetPlan("basic", (Fleet("A", large=3), Fleet("B", 4, 4)), "A"), False,
        "one fleet is the 4 large"),
    "§2 advanced: 0–4 of each size, split by size": (
        advanced_game("A", "B", {"large": 2, "small": 3}, {"medium": 4}), True, None),
    "§2 advanced: a fifth of a size is the spare": (
        advanced_game("A", "B", {"large": 5}, {"medium": 4}), False, "at most 4"),
    "§2 advanced: one stash, so size tells fleets apart": (
        advanced_game("A", "B", {"large": 2}, {"large": 2, "small": 1}), False,
        "size tells the fleets apart"),
    "§2 multi-stash: 12 pips each, own colours": (
        multi_stash_game([Fleet("A", 4, 4, 0, "red"), Fleet("B", 0, 0, 4, "blue"),
                          Fleet("C", 3, 3, 1, "green")]), True, None),
    "§2 multi-stash: a fleet worth 11 pips": (
        multi_stash_game([Fleet("A", 3, 4, 0, "red"), Fleet("B", 0, 0, 4, "blue")]), False,
        "worth 11 pips"),
    "§2 multi-stash: colour tells fleets apart": (
        multi_stash_game([Fleet("A", 4, 4, 0, "red"), Fleet("B", 0, 0, 4, "red")]), False,
        "own colour"),
    "§2 melee: 4 of every size, teams allowed": (
        melee_game([("A", "red"), ("B", "blue"), ("C", "green"), ("D", "yellow")],
                   teams={"A": "x", "B": "x", "C": "y", "D": "y"}), True, None),
    "§2 melee: fewer than 4 of a size": (
        FleetPlan("melee", (Fleet("A", 4, 4, 3, "red"), Fleet("B", 4, 4, 4, "blue")), "A"),
        False, "4 of every size"),
}


@pytest.mark.parametrize("name", list(FLEET_CASES))
def test_fleets(name: str) -> None:
    plan, ok, needle = FLEET_CASES[name]
    v = check_fleets(plan)
    assert v.yes == ok, v.reason
    if needle:
        assert needle in v.reason and v.decided_by == "fleet"


def test_advanced_swap_decides_who_moves_first() -> None:
    """§2: B accepts (and moves first) or swaps fleets (and A moves first)."""
    keep = advanced_game("A", "B", {"large": 3}, {"small": 4})
    swap = advanced_game("A", "B", {"large": 3}, {"small": 4}, b_swaps=True)
    assert (keep.fleet("A").large, keep.first_player) == (3, "B")
    assert (swap.fleet("A").small, swap.fleet("B").large, swap.first_player) == (4, 3, "A")
    assert swap.turn_order == ("A", "B")


def two_ships(gap_mm: float, **kw) -> Table:
    """Two enemy larges stern to stern along x, their silhouettes ``gap_mm`` apart."""
    a = Ship("A1", "A", "large", Pose(100, 450, 180), **kw)      # points to −x, stern at 100
    b = Ship("B1", "B", "large", Pose(100 + gap_mm, 450, 0), **kw)
    return Table(AREA, (a, b))


DISTANCE_CASES = {
    "§2 enemies 300 mm apart: legal, with a warning (under 305 mm)": (300.0, True, 1),
    "§2 enemies 320 mm apart: legal, no warning": (320.0, True, 0),
    "§2 enemies 250 mm apart: a setup error": (250.0, False, 0),
    "§2/§7 enemies 254.1 mm apart: within the allowance, so an error": (254.1, False, 0),
}


@pytest.mark.parametrize("name", list(DISTANCE_CASES))
def test_enemy_distance(name: str) -> None:
    gap, ok, warnings = DISTANCE_CASES[name]
    r = check_setup(two_ships(gap))
    assert r.ok == ok, [i.message for i in r.issues]
    assert len(r.warnings) == warnings
    assert r.closest_enemy_mm == pytest.approx(gap)
    v = r.verdict()
    assert v.yes == ok
    if not ok:
        assert v.decided_by == "distance" and v.margin_mm == pytest.approx(gap - 254.0)


def test_friends_may_stand_close_but_not_overlap() -> None:
    """§2: the distance rule is between enemies; no piece overlaps another."""
    a = Ship("A1", "A", "large", Pose(100, 100, 0))
    a2 = Ship("A2", "A", "large", Pose(100, 130, 0))
    a3 = Ship("A3", "A", "small", Pose(110, 100, 0))      # on top of A1
    r = check_setup(Table(AREA, (a, a2)))
    assert r.ok and not r.issues
    r = check_setup(Table(AREA, (a, a2, a3)))
    assert not r.ok and r.errors[0].check == "overlap"


def test_teams_are_not_enemies() -> None:
    t = Table(AREA, (Ship("A1", "A", "large", Pose(100, 100, 0)),
                     Ship("C1", "C", "large", Pose(100, 150, 0))))
    assert not check_setup(t).ok
    assert check_setup(t, teams={"A": "red", "C": "red"}).ok


def test_play_area_spares_flat_and_fleet_on_table() -> None:
    """§2: ships lie flat inside the play area; the spares stay outside it; the table holds
    the fleets of the plan."""
    plan = basic_game("A", "B")
    ships = [Ship(f"A{i}", "A", "large", Pose(100 + 60 * i, 100, 90)) for i in range(4)]
    ships += [Ship(f"B{i}", "B", "medium", Pose(100 + 60 * i, 700, 270)) for i in range(4)]
    ships += [Ship(f"b{i}", "B", "small", Pose(130 + 60 * i, 700, 270)) for i in range(4)]
    spare_out = Obstacle("spareL", ((950, 10), (980, 10), (965, 40)))
    t = Table(AREA, tuple(ships), (spare_out,))
    r = check_setup(t, plan=plan, spare_ids=["spareL"])
    assert r.ok, [i.message for i in r.errors]
    spare_in = Obstacle("spareL", ((450, 450), (480, 450), (465, 480)))
    r = check_setup(Table(AREA, tuple(ships), (spare_in,)), plan=plan, spare_ids=["spareL"])
    assert [i.check for i in r.errors] == ["spare"]
    r = check_setup(Table(AREA, tuple(ships[:-1])), plan=plan, upright_ids=["b3"])
    assert {i.check for i in r.errors} == {"flat", "fleet"}
    off = ships[0].with_pose(Pose(890, 100, 0))
    r = check_setup(Table(AREA, (off, *ships[1:])), plan=plan)
    assert [i.check for i in r.errors] == ["play_area"] and r.errors[0].margin_mm < 0


def test_setup_distance_is_configurable() -> None:
    r = check_setup(two_ships(200.0), RulesConfig(setup_error_mm=150, setup_warn_mm=180))
    assert r.ok and not r.warnings


OWNER_CASES = {
    "§2 basic game: size tells the fleets apart": (basic_game("A", "B"), "medium", "red", "B"),
    "§2 advanced: the fleet with that size": (
        advanced_game("A", "B", {"large": 2, "small": 2}, {"medium": 3}), "small", "x", "A"),
    "§2 advanced: a size in neither fleet has no owner": (
        advanced_game("A", "B", {"large": 2}, {"medium": 3}), "small", "x", None),
    "§2 multi-stash: colour tells the fleets apart": (
        multi_stash_game([Fleet("A", 4, 4, 0, "red"), Fleet("B", 0, 0, 4, "blue")]),
        "large", "Red", "A"),
    "§2 multi-stash: an unknown colour has no owner": (
        multi_stash_game([Fleet("A", 4, 4, 0, "red"), Fleet("B", 0, 0, 4, "blue")]),
        "large", "unknown", None),
}


@pytest.mark.parametrize("name", list(OWNER_CASES))
def test_owner_of_a_piece(name: str) -> None:
    plan, size, color, owner = OWNER_CASES[name]
    assert owner_of(plan, size, color) == owner
