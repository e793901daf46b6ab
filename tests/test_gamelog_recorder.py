"""The recorder played with scripted tables (known poses → detections with track ids) and the
project's real rules (rules.move, rules.fire): the log must say what happened on the table."""

from __future__ import annotations

import math

import pytest

from armada_vision.gamelog import (
    Correction,
    Damage,
    Flagged,
    GameStore,
    Move,
    Recorder,
    Result,
    Shot,
    Sinking,
    TurnEnd,
    Undo,
    replay_state,
)
from armada_vision.gamelog.scripted import ScriptedTable, detected
from armada_vision.geometry.pose import Pose
from armada_vision.rules.table import Ship
from armada_vision.rules.verdict import Verdict

AREA = ((0.0, 0.0), (600.0, 0.0), (600.0, 600.0), (0.0, 600.0))


def fleet() -> tuple[Ship, ...]:
    # S1 lies in L1's port firing zone (5.1 mm deep, rules.md §5); M1 is far from everything.
    return (Ship("L1", "A", "large", Pose(100, 100, 0)),
            Ship("L2", "A", "large", Pose(100, 400, 0)),
            Ship("M1", "B", "medium", Pose(450, 450, 180)),
            Ship("S1", "B", "small", Pose(110, 140, 0)))


def new_game(store: GameStore | None = None, **kw) -> tuple[Recorder, ScriptedTable]:
    ships = fleet()
    table = ScriptedTable(ships)
    rec = Recorder.start(store, game_id="club-1", players=("A", "B"), ships=ships,
                         play_area=AREA, table="kitchen", calibration="markers 0-7, 0.2 px",
                         pieces=table.view(), **kw)
    return rec, table


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def test_one_legal_move_is_logged_with_its_steps() -> None:
    """§4: one ship moved between settled views → a move event with the reconstructed steps."""
    rec, table = new_game()
    assert rec.observe(table.view()) == []               # nothing changed, nothing logged
    after = table.step("L1", [10.0])
    (mv,) = rec.observe(table.view(), frame="frame_0042.jpg")
    assert isinstance(mv, Move) and mv.verdict.yes
    assert (mv.ship, mv.player, mv.frame) == ("L1", "A", "frame_0042.jpg")
    assert mv.before == Pose(100, 100, 0) and mv.after == after
    assert len(mv.steps) == 1
    assert abs(mv.steps[0].x_mm - after.x_mm) <= 2.0     # §4 placement tolerance
    assert rec.state.table.ship("L1").pose == after
    assert rec.state.actions == 1 and rec.state.moved == {"L1"}


def test_nothing_is_judged_while_the_table_is_unsettled_or_occluded() -> None:
    rec, table = new_game()
    table.step("L1", [0.0])
    assert rec.observe(table.view(), settled=False) == []
    assert rec.observe(table.view(), occluded=True) == []
    assert len(rec.events) == 1
    assert kinds(rec.observe(table.view())) == ["move"]


def test_too_far_is_an_illegal_move_and_is_flagged_then_put_back() -> None:
    """§4: a large moves one step; three steps' distance is too far → move (no) + flagged;
    the piece put back where it was → correction 'restored' and the flag is resolved."""
    rec, table = new_game()
    table.step("L2", [0.0, 0.0, 0.0])
    mv, flag = rec.observe(table.view())
    assert isinstance(mv, Move) and not mv.verdict.yes and mv.verdict.decided_by != "action"
    assert isinstance(flag, Flagged) and flag.cause == mv.n and "L2" in flag.reason
    assert rec.state.pending == (flag.n,)
    assert rec.state.actions == 0                      # an illegal move is not an action
    table.place("L2", Pose(100.4, 399.7, 0.5))          # back by hand, within tolerance
    (corr,) = rec.observe(table.view())
    assert isinstance(corr, Correction) and corr.resolution == "restored"
    assert corr.target == flag.n and rec.state.pending == ()
    assert rec.observe(table.view()) == []


def test_enemy_piece_knocked_is_flagged_as_an_action_against_the_rules() -> None:
    """§3: on A's turn a B ship moving is not A's action: the move is a no (action) + flag."""
    rec, table = new_game()
    table.place("M1", Pose(455, 452, 183))
    mv, flag = rec.observe(table.view())
    assert isinstance(mv, Move) and mv.verdict.decided_by == "action" and not mv.verdict.yes
    assert "B's ship" in mv.verdict.reason
    assert isinstance(flag, Flagged)


def test_moving_the_same_ship_twice_in_a_turn_is_flagged() -> None:
    """§3: a ship moves at most once a turn."""
    rec, table = new_game()
    table.step("L1", [0.0])
    assert rec.observe(table.view())[0].verdict.yes
    table.step("L1", [0.0])
    mv, flag = rec.observe(table.view())
    assert mv.verdict.decided_by == "action" and "already moved" in mv.verdict.reason
    assert isinstance(flag, Flagged)


def test_two_ships_moved_at_once_are_flagged_not_judged() -> None:
    rec, table = new_game()
    table.step("L1", [0.0])
    table.step("L2", [0.0])
    (flag,) = rec.observe(table.view())
    assert isinstance(flag, Flagged) and "2 ships moved at once: L1, L2" in flag.reason
    assert {c.ship for c in flag.changes} == {"L1", "L2"}
    # The log follows the table, so the same view does not flag again.
    assert rec.observe(table.view()) == []
    corr = rec.correct(flag.n, "accept", note="both fine")
    assert corr.resolution == "accept" and rec.state.pending == ()


def test_ship_gone_without_being_sunk_and_unknown_piece_are_flagged() -> None:
    rec, table = new_game()
    table.remove("M1")
    (flag,) = rec.observe(table.view())
    assert "M1 left the table without being sunk" in flag.reason
    assert rec.state.missing == {"M1"}
    table.extras.append(detected("small", Pose(300, 300, 45), track_id="t-x"))
    (flag2,) = rec.observe(table.view())
    assert "small piece nobody owns" in flag2.reason
    assert [label for label, _ in rec.state.strays] == [f"?small-{flag2.n}"]
    assert rec.observe(table.view()) == []             # a known stray is not news
    table.place("M1", Pose(450, 450, 180))
    (corr,) = rec.observe(table.view())
    assert isinstance(corr, Correction) and corr.target == flag.n
    assert rec.state.missing == frozenset()


def test_pieces_outside_the_play_area_are_ignored() -> None:
    """The spares lie outside the play area (rules.md §2)."""
    rec, table = new_game()
    table.extras.append(detected("large", Pose(650, 300, 0), in_play_area=False))
    assert rec.observe(table.view()) == []


def test_a_hit_sinks_a_small_and_its_removal_is_a_sinking() -> None:
    """§5: each hit does one damage; a ship with damage = pips sinks and leaves the table."""
    rec, table = new_game()
    v = rec.declare_shot("L1", "S1")
    assert v.yes and v.side == "port" and v.margin_mm > v.allowance_mm
    shot, dmg = rec.events[-2:]
    assert isinstance(shot, Shot) and shot.verdict == v
    assert isinstance(dmg, Damage) and (dmg.ship, dmg.damage, dmg.cause) == ("S1", 1, shot.n)
    assert rec.state.table.ship("S1").sunk
    table.remove("S1")
    (sink,) = rec.observe(table.view())
    assert isinstance(sink, Sinking) and sink.ship == "S1"
    assert [x.id for x in rec.state.sunk] == ["S1"] and not rec.state.table.has_ship("S1")
    assert rec.state.sunk[0].damage == 1 and rec.state.is_sunk("S1")


def test_shots_against_the_turn_rules_are_no() -> None:
    rec, _table = new_game()
    assert rec.declare_shot("M1", "L1").decided_by == "action"       # not B's turn
    assert rec.declare_shot("L1", "L2").decided_by == "action"       # own ship
    v = rec.declare_shot("L1", "M1")
    assert not v.yes and v.decided_by == "range"                     # §5 out of range
    assert rec.state.actions == 0 and kinds(rec.events[1:]) == ["shot"] * 3


def test_three_actions_end_the_turn_and_a_tap_ends_it_early() -> None:
    """§3: up to three actions a turn."""
    rec, table = new_game()
    table.step("L1", [0.0])
    rec.observe(table.view())
    table.step("L2", [5.0])
    rec.observe(table.view())
    rec.declare_shot("L2", "M1")                      # out of range: no action used
    assert rec.state.player == "A"
    table.step("M1", [0.0])                          # B's ship moves on A's turn: flagged
    rec.observe(table.view())
    assert rec.state.player == "A"
    end = rec.end_turn()
    assert isinstance(end, TurnEnd) and end.reason == "tap"
    assert (rec.state.player, rec.state.turn, rec.state.actions) == ("B", 2, 0)


def test_third_action_ends_the_turn_automatically() -> None:
    rec, table = new_game()
    rec.declare_shot("L1", "S1")          # 1: hit, S1 sunk
    table.remove("S1")
    rec.observe(table.view())
    table.step("L1", [0.0])
    rec.observe(table.view())             # 2
    table.step("L2", [0.0])
    events = rec.observe(table.view())    # 3: the turn ends with it
    assert kinds(events) == ["move", "turn_end"]
    assert events[1].reason == "actions" and events[1].cause == events[0].n
    assert rec.state.player == "B"


def test_sinking_the_whole_fleet_is_a_result() -> None:
    """§6: sink the entire enemy fleet."""
    ships = (Ship("L1", "A", "large", Pose(100, 100, 0)),
             Ship("S1", "B", "small", Pose(110, 140, 0)))
    rec = Recorder.start(None, game_id="g", players=("A", "B"), ships=ships, play_area=AREA)
    rec.declare_shot("L1", "S1")
    res = rec.events[-1]
    assert isinstance(res, Result) and res.winner == "A" and "sunk" in res.reason
    assert rec.state.result == res
    assert rec.declare_shot("L1", "S1").decided_by == "action"      # the game is over


def test_undo_takes_back_a_shot_with_its_damage() -> None:
    rec, _table = new_game()
    rec.declare_shot("L1", "S1")
    assert rec.state.table.ship("S1").damage == 1
    u = rec.undo(note="wrong target")
    assert isinstance(u, Undo) and u.target == 2
    assert rec.state.table.ship("S1").damage == 0 and rec.state.actions == 0
    assert len(rec.events) == 4                       # history is kept, not rewritten
    assert rec.undo() is None                         # nothing left to take back


def test_accepting_an_illegal_move_counts_it_as_the_action() -> None:
    rec, table = new_game()
    table.step("L2", [0.0, 0.0])
    _mv, flag = rec.observe(table.view())
    rec.correct(flag.n, "accept", note="house rule")
    assert rec.state.actions == 1 and "L2" in rec.state.moved


def test_revert_correction_expects_the_piece_back() -> None:
    rec, table = new_game()
    table.step("L2", [0.0, 0.0])
    mv, flag = rec.observe(table.view())
    corr = rec.correct(flag.n, "revert")
    assert corr.changes[0].after == mv.before
    assert rec.state.table.ship("L2").pose == mv.before
    table.place("L2", mv.before)
    assert rec.observe(table.view()) == []


def test_correcting_something_that_is_not_a_pending_flag_is_an_error() -> None:
    rec, _ = new_game()
    with pytest.raises(ValueError, match="not a pending flag"):
        rec.correct(1, "accept")


def test_lost_track_ids_are_matched_by_nearest_piece_of_the_same_size() -> None:
    rec, table = new_game()
    after = table.step("L1", [0.0])
    view = [d if d.track_id != "t-L1" else detected("large", after, track_id="new-7")
            for d in table.view()]
    (mv,) = rec.observe(view)
    assert mv.ship == "L1" and mv.verdict.yes


class Scripted:
    """A judge with fixed answers, to test the plumbing apart from the geometry."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self.calls: list[tuple] = []

    def move(self, table, ship_id, after, config):
        self.calls.append((ship_id, after, tuple(s.id for s in table.ships)))
        return self.verdict

    def shot(self, table, shooter_id, target_id, config):
        self.calls.append((shooter_id, target_id))
        return self.verdict


def test_the_judge_sees_the_table_before_the_move_without_missing_ships() -> None:
    judge = Scripted(Verdict.no("in doubt", decided_by="contact", margin_mm=0.1,
                                allowance_mm=0.5))
    rec, table = new_game(judge=judge)
    table.remove("M1")
    rec.observe(table.view())                        # flagged: M1 gone unsunk
    after = table.step("L1", [0.0])
    mv, flag = rec.observe(table.view())
    assert judge.calls == [("L1", after, ("L1", "L2", "S1"))]
    assert mv.verdict.in_doubt and not mv.verdict.yes
    # A move in doubt is flagged for the players to look at, not called illegal.
    assert flag.cause == mv.n and flag.reason == "move of L1 in doubt: in doubt"


def test_resume_after_restart_gives_the_same_state(tmp_path) -> None:
    path = tmp_path / "club.sqlite"
    with GameStore(path) as store:
        rec, table = new_game(store)
        rec.declare_shot("L1", "S1")
        table.remove("S1")
        rec.observe(table.view())
        table.step("L1", [10.0])
        rec.observe(table.view())
        before = rec.state
        n = len(rec.events)
    with GameStore(path) as store:
        again = Recorder.resume(store, "club-1")
        assert again.events == rec.events
        assert again.state == before == replay_state(store.events("club-1"))
        table.step("L2", [0.0])                       # the game goes on where it stopped
        mv, end = again.observe(table.view())          # third action: the turn ends
        assert mv.n == n + 1 and mv.verdict.yes and end.kind == "turn_end"
        assert len(store.events("club-1")) == n + 2


def test_the_log_state_is_a_rules_game_state_too() -> None:
    """The fold reads like rules.game.GameState and converts to one: the rules' own
    transitions agree with what the recorder logged."""
    from armada_vision.rules import game

    rec, table = new_game()
    gs = rec.state.game_state
    assert isinstance(gs, game.GameState) and gs.current_player == "A" == rec.state.current_player
    after = table.step("L1", [10.0])
    v_rules, gs2 = game.apply_move(gs, "L1", after)
    (mv,) = rec.observe(table.view())
    assert v_rules.yes == mv.verdict.yes
    assert gs2.table.ship("L1").pose == rec.state.game_state.table.ship("L1").pose
    assert gs2.actions_used == rec.state.actions_used == 1
    rec.declare_shot("L2", "S1")                     # out of range from L2: a miss
    v_rules, _ = game.apply_shot(rec.state.game_state, "L2", "S1")
    assert v_rules.yes == rec.events[-1].verdict.yes is False
    rec.end_turn()
    assert rec.state.game_state.current_player == "B" and rec.state.game_state.turn == 2


def test_a_hit_sinks_at_once_in_the_game_state_before_the_piece_is_lifted() -> None:
    ships = (Ship("L1", "A", "large", Pose(100, 100, 0)),
             Ship("S1", "B", "small", Pose(110, 140, 0)))
    rec = Recorder.start(None, game_id="g", players=("A", "B"), ships=ships, play_area=AREA)
    rec.declare_shot("L1", "S1")
    gs = rec.state.game_state
    assert rec.state.table.has_ship("S1")              # still on the felt
    assert not gs.table.has_ship("S1") and gs.is_sunk("S1")
    from armada_vision.rules.game import victory
    assert victory(gs).winner == gs.outcome.winner == "A"


def test_a_sunk_flagship_decides_the_game() -> None:
    """§6 capture the flagship."""
    ships = (Ship("L1", "A", "large", Pose(100, 100, 0)),
             Ship("L2", "A", "large", Pose(100, 400, 0)),
             Ship("M1", "B", "medium", Pose(450, 450, 180)),
             Ship("S1", "B", "small", Pose(110, 140, 0)))
    rec = Recorder.start(None, game_id="g", players=("A", "B"), ships=ships, play_area=AREA,
                         flagships=("S1", "L2"), variant="flagship")
    rec.declare_shot("L1", "S1")
    res = rec.events[-1]
    assert isinstance(res, Result) and res.winner == "A" and "flagship S1" in res.reason
    assert rec.state.game_state.outcome.winner == "A"


def test_tracker_states_are_fed_by_their_flags() -> None:
    """observe_track reads a vision.track.TrackState: unsettled, occluded, moving or failed
    views are not judged."""
    from armada_vision.vision.track import TrackState
    from armada_vision.vision.types import VisionFailure

    rec, table = new_game()
    table.step("L1", [0.0])
    pieces = tuple(table.view())

    def track(**kw) -> TrackState:
        base = {"t_s": 1.0, "pieces": pieces, "upright": (), "settled": True, "moving": False,
                "occluded": False}
        return TrackState(**{**base, **kw})

    assert rec.observe_track(track(settled=False)) == []
    assert rec.observe_track(track(occluded=True)) == []
    assert rec.observe_track(track(moving=True)) == []
    assert rec.observe_track(track(failure=VisionFailure("too_dark", "too dark"))) == []
    (mv,) = rec.observe_track(track(), frame="frame_0007.jpg")
    assert mv.ship == "L1" and mv.frame == "frame_0007.jpg"


def test_two_unknown_pieces_at_once_are_two_strays() -> None:
    rec, table = new_game()
    table.extras += [detected("small", Pose(300, 300, 45)), detected("small", Pose(350, 200, 0))]
    (flag,) = rec.observe(table.view())
    assert len(rec.state.strays) == 2 and len(flag.changes) == 2
    assert rec.observe(table.view()) == []


def test_a_rules_failure_is_a_flagged_no_not_a_crash() -> None:
    class Broken(Scripted):
        def move(self, table, ship_id, after, config):
            raise ZeroDivisionError("bad luck")

    rec, table = new_game(judge=Broken(Verdict.no("x", decided_by="x")))
    table.step("L1", [0.0])
    mv, flag = rec.observe(table.view())
    assert mv.verdict.decided_by == "error" and "ZeroDivisionError" in mv.verdict.reason
    assert isinstance(flag, Flagged)


def test_a_move_is_judged_with_the_sigma_of_both_poses() -> None:
    """§7: the allowance between the before and after poses is 2·√(σb² + σa²) + floor; the
    rules take one σ per ship, so the mover carries the rms of the two."""
    seen = []

    class Spy(Scripted):
        def move(self, table, ship_id, after, config):
            s = table.ship(ship_id)
            seen.append((s.sigma_mm, s.sigma_deg, s.pose))
            return Verdict(True, False, "ok", "move", margin_mm=1.0, allowance_mm=0.5,
                           steps=(after,))

    rec, table = new_game(judge=Spy(Verdict.no("x", decided_by="x")))
    table.sigma_mm, table.sigma_deg = 0.3, 0.4        # the fleet was placed with σ 0
    table.step("L1", [0.0])
    (mv,) = rec.observe(table.view())
    (sig_mm, sig_deg, pose), = seen
    assert pose == Pose(100, 100, 0)                   # judged from where it was
    assert sig_mm == pytest.approx(math.sqrt((0.0 + 0.3**2) / 2))
    assert sig_deg == pytest.approx(math.sqrt((0.0 + 0.4**2) / 2))
    assert (mv.before_sigma_mm, mv.sigma_mm) == (0.0, 0.3)
    assert rec.state.table.ship("L1").sigma_mm == 0.3  # the new pose keeps its own σ


def test_a_move_with_a_piece_coming_back_is_judged_and_the_flag_resolved() -> None:
    """A detection that drops a ship for one view must not swallow the next move: the ship
    back where it was resolves its flag, and the move in the same view is judged."""
    rec, table = new_game()
    pose_m1 = table.poses["M1"]
    table.remove("M1")
    (flag,) = rec.observe(table.view())
    table.place("M1", pose_m1)
    table.step("L1", [0.0])
    corr, mv = rec.observe(table.view())
    assert isinstance(corr, Correction) and corr.target == flag.n
    assert corr.resolution == "restored"
    assert isinstance(mv, Move) and mv.ship == "L1" and mv.verdict.yes
    assert rec.state.pending == () and rec.state.missing == frozenset()


def test_one_move_and_an_unexplained_change_are_judged_and_flagged_apart() -> None:
    rec, table = new_game()
    table.step("L1", [0.0])
    table.remove("M1")
    mv, flag = rec.observe(table.view())
    assert isinstance(mv, Move) and mv.verdict.yes and mv.ship == "L1"
    assert isinstance(flag, Flagged) and flag.cause is None
    assert [c.ship for c in flag.changes] == ["M1"] and "M1 left the table" in flag.reason


def test_breaking_through_the_goal_line_wins() -> None:
    """§6 breakthrough: A wins when one of his ships crosses the goal line y = 200 mm (the
    goal side to the left of (0, 200) → (600, 200), i.e. +y)."""
    ships = (Ship("L1", "A", "large", Pose(300, 170, 90)),
             Ship("M1", "B", "medium", Pose(450, 450, 180)))
    table = ScriptedTable(ships)
    rec = Recorder.start(None, game_id="g", players=("A", "B"), ships=ships, play_area=AREA,
                         variant="breakthrough", goal_line=((0, 200), (600, 200)),
                         attacker="A", pieces=table.view())
    table.step("L1", [0.0])                          # the tip reaches y ≈ 262 mm
    mv, res = rec.observe(table.view())
    assert mv.verdict.yes and isinstance(res, Result) and res.winner == "A"
    assert res.cause == mv.n and "goal line" in res.reason
    assert replay_state(rec.events).result == res
