"""The game (rules.md §3 turns and actions, §5 damage, §6 winning) as pure state transitions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armada_vision.geometry import NOMINAL_PIECES, Pose
from armada_vision.rules import PlayArea, Ship, Table
from armada_vision.rules.game import (
    Breakthrough,
    CaptureFlag,
    Flag,
    apply_move,
    apply_shot,
    end_turn,
    new_game,
)

AREA = PlayArea.rectangle(0, 0, 1000, 1000)
SMALL_STEP = 26.38466   # a small's footprint length s


def table(*extra: Ship, without: tuple[str, ...] = ()) -> Table:
    ships = [Ship("L1", "A", "large", Pose(300, 300, 0)),
             Ship("S1", "B", "small", Pose(310, 340, 0)),     # in L1's port zone
             Ship("L9", "B", "large", Pose(310, 255, 0)),     # in L1's starboard zone
             *extra]
    return Table(AREA, tuple(s for s in ships if s.id not in without))


def s1_step(n: int = 1) -> Pose:
    return Pose(310 + n * SMALL_STEP, 340, 0)


def test_three_shots_sink_a_large_then_a_fourth_action_is_refused() -> None:
    """§3: up to three actions; §5: each hit one damage, damage == pips sinks."""
    g = new_game(table(), ("A", "B"))
    for k in (1, 2):
        v, g = apply_shot(g, "L1", "L9")
        assert v.yes and g.table.ship("L9").damage == k
    v, g = apply_shot(g, "L1", "L9")
    assert v.yes and not g.table.has_ship("L9") and g.sunk[0].id == "L9"
    assert g.sunk[0].damage == 3 and g.actions_used == 3
    v, g2 = apply_move(g, "L1", Pose(346.229, 300, 0))
    assert (v.verdict, v.decided_by) == ("no", "action") and "3 actions" in v.reason
    assert g2 is g


ACTION_CASES = {
    "§3 a ship moves at most once a turn": (
        lambda g: apply_move(apply_move(g, "S1", s1_step())[1], "S1", s1_step(2)),
        "already moved"),
    "§3 a ship fires at most its pips a turn": (
        lambda g: apply_shot(apply_shot(g, "S1", "L1")[1], "S1", "L1"), "as many as its pips"),
    "§3 a player acts only with his own ships": (
        lambda g: apply_shot(g, "L1", "S1"), "it is B's turn"),
    "§3 no firing at one's own fleet": (
        lambda g: apply_shot(g, "S1", "L9"), "own fleet"),
    "§5 a sunk ship no longer acts": (
        lambda g: apply_shot(end_turn(apply_shot(end_turn(g), "L1", "S1")[1]), "S1", "L1"),
        "has sunk"),
}


@pytest.mark.parametrize("name", list(ACTION_CASES))
def test_actions_against_the_rules_are_no_verdicts(name: str) -> None:
    play, needle = ACTION_CASES[name]
    g = end_turn(new_game(table(), ("A", "B")))       # B's turn
    v, _ = play(g)
    assert (v.verdict, v.decided_by) == ("no", "action"), v.reason
    assert needle in v.reason


def test_refused_geometry_takes_no_action() -> None:
    """§3/§4: an illegal move is not taken; the player still has his three actions."""
    g = end_turn(new_game(table(), ("A", "B")))
    v, g2 = apply_move(g, "S1", Pose(600, 600, 0))
    assert not v.yes and v.decided_by != "action"
    assert g2 == g


def test_damage_stays_with_the_ship_when_it_moves() -> None:
    """§5: damage stays with the ship when it moves."""
    g = new_game(table(), ("A", "B"))
    v, g = apply_shot(g, "L1", "S1")      # S1 (1 pip) sinks
    assert v.yes and g.is_sunk("S1")
    v, g = apply_shot(g, "L1", "L9")
    g = end_turn(g)
    v, g = apply_move(g, "L9", Pose(310 - 46.229, 255, 0).moved(dx_mm=2 * 46.229))
    assert v.yes, v.reason
    assert g.table.ship("L9").damage == 1 and g.table.ship("L9").pose.x_mm == pytest.approx(
        356.229)


def test_end_turn_resets_and_skips_players_without_ships() -> None:
    """§3: turns pass in order; a player with no ships left has no turn."""
    t = table(Ship("X1", "C", "small", Pose(800, 800, 0)))
    g = new_game(t, ("A", "B", "C"))
    v, g = apply_shot(g, "L1", "S1")
    assert v.yes
    v, g = apply_shot(g, "L1", "L9")
    assert v.yes
    g = end_turn(g)
    assert g.current_player == "B" and g.actions_used == 0 and g.shots == ()
    t2 = table(without=("S1", "L9")).replace_ship(Ship("L1", "A", "large", Pose(300, 300, 0)))
    g = new_game(Table(AREA, (*t2.ships, Ship("X1", "C", "small", Pose(800, 800, 0)))),
                 ("A", "B", "C"))
    assert end_turn(g).current_player == "C"


def sink_all_of_b(g):
    """A sinks L9 (three shots), both pass a turn, then A sinks S1."""
    for _ in range(3):
        v, g = apply_shot(g, "L1", "L9")
        assert v.yes, v.reason
    g = end_turn(end_turn(g))
    assert g.outcome is None and g.current_player == "A"
    return apply_shot(g, "L1", "S1")


VICTORY_CASES = {
    "§6 sink the entire enemy fleet": (dict(), lambda g: sink_all_of_b(g), "A", "every enemy"),
    "§6 capture the flag: sink the enemy flagship": (
        dict(victory=CaptureFlag((Flag("B", ship_id="S1"), Flag("A", ship_id="L1")))),
        lambda g: apply_shot(g, "L1", "S1"), "A", "flagship S1"),
    "§6 capture the flag: touch the enemy flag": (
        dict(victory=CaptureFlag((Flag("A", polygon_mm=((310 + 2 * SMALL_STEP, 335),
                                                        (375, 335), (375, 345),
                                                        (310 + 2 * SMALL_STEP, 345))),))),
        lambda g: apply_move(end_turn(g), "S1", s1_step()), "B", "touches A's flag"),
    "§6 breakthrough: crossing the goal line wins": (
        dict(victory=Breakthrough("B", (360, 1000), (360, 0))),
        lambda g: apply_move(end_turn(g), "S1", s1_step()), "B", "crossed the goal line"),
    "§6 breakthrough: the attacker loses when all his ships are sunk": (
        dict(victory=Breakthrough("B", (360, 1000), (360, 0))),
        lambda g: sink_all_of_b(g), "A", "every ship of B"),
}


@pytest.mark.parametrize("name", list(VICTORY_CASES))
def test_victory(name: str) -> None:
    kw, play, winner, needle = VICTORY_CASES[name]
    g = new_game(table(), ("A", "B"), **kw)
    assert g.outcome is None
    v, g = play(g)
    assert g.outcome is not None, v.reason
    assert g.outcome.winner == winner and needle in g.outcome.reason


def test_no_victory_before_the_line_is_crossed() -> None:
    """§6: a ship short of the goal line has not broken through."""
    g = new_game(table(), ("A", "B"), victory=Breakthrough("B", (400, 1000), (400, 0)))
    v, g = apply_move(end_turn(g), "S1", s1_step())
    assert v.yes and g.outcome is None


def test_new_game_rejects_ships_of_strangers() -> None:
    with pytest.raises(ValueError, match="players"):
        new_game(table(), ("A", "Z"))


def test_teams_share_victory_and_do_not_fire_on_each_other() -> None:
    """§2/§6: with teams, a teammate is no target, and a team wins when every enemy is sunk."""
    t = table(Ship("C1", "C", "small", Pose(280, 240, 90)))
    g = new_game(t, ("A", "B", "C"), teams={"A": "north", "C": "north", "B": "south"})
    v, _ = apply_shot(g, "L1", "C1")
    assert (v.verdict, v.decided_by) == ("no", "action") and "own fleet" in v.reason
    for _ in range(3):
        v, g = apply_shot(g, "L1", "L9")
        assert v.yes, v.reason
    g = end_turn(end_turn(end_turn(g)))          # B, C pass; A again
    assert g.current_player == "A"
    v, g = apply_shot(g, "L1", "S1")
    assert v.yes and g.outcome is not None and g.outcome.winner == "north"


# --- property: any sequence of actions keeps the §3 limits ------------------------------------

ops = st.lists(st.one_of(
    st.tuples(st.just("move"), st.integers(0, 4), st.integers(1, 4)),
    st.tuples(st.just("shot"), st.integers(0, 4), st.integers(0, 4)),
    st.tuples(st.just("end"), st.just(0), st.just(0)),
), min_size=1, max_size=25)


@settings(max_examples=30, deadline=None)
@given(ops)
def test_any_sequence_of_actions_keeps_the_turn_limits(seq) -> None:
    """§3/§5: whatever is tried, at most three actions a turn, a ship moves once and fires at
    most its pips a turn, refused actions change nothing, sunk ships are off the table."""
    t = table(Ship("M1", "A", "medium", Pose(250, 340, 0)),
              Ship("S2", "B", "small", Pose(360, 330, 180)))
    g = new_game(t, ("A", "B"))
    for kind, i, j in seq:
        ids = [s.id for s in g.table.ships] + [s.id for s in g.sunk]
        if kind == "end":
            g = end_turn(g)
            continue
        a = ids[i % len(ids)]
        if kind == "move":
            if not g.table.has_ship(a):
                v, g2 = apply_move(g, a, Pose(0, 0, 0))
            else:
                s = g.table.ship(a)
                n = min(j, s.size.max_steps)
                length = NOMINAL_PIECES.dims(s.size).footprint_length_mm
                tip = s.pose.tip_mm(length * n)
                v, g2 = apply_move(g, a, Pose(tip[0], tip[1], s.pose.heading_deg))
        else:
            v, g2 = apply_shot(g, a, ids[j % len(ids)])
        if not v.yes:
            assert g2 == g
        else:
            assert g2.actions_used == g.actions_used + 1
        g = g2
        assert g.actions_used <= 3
        assert all(n <= g.table.ship(sid).pips if g.table.has_ship(sid) else True
                   for sid, n in g.shots)
        assert all(m in {s.id for s in g.table.ships} | {s.id for s in g.sunk} for m in g.moved)
        assert all(not g.table.has_ship(s.id) and s.damage == s.pips for s in g.sunk)
        assert all(s.damage < s.pips for s in g.table.ships)
