"""A pose the players set by hand (``Recorder.correct(flag, "set", changes)``) against the
camera that misread or lost the piece: the set pose stands while the camera goes on showing
what it showed then, and the piece counts as moved only when it is seen somewhere else.
Scripted tables (known poses → detections), the real rules; table mm."""

from __future__ import annotations

from armada_vision.gamelog import Correction, Flagged, GameStore, Move, Recorder
from armada_vision.gamelog.events import Change
from armada_vision.gamelog.recorder import hand_set_readings
from armada_vision.gamelog.scripted import ScriptedTable
from armada_vision.geometry.pose import Pose
from armada_vision.rules.table import Ship

AREA = ((0.0, 0.0), (600.0, 0.0), (600.0, 600.0), (0.0, 600.0))
SHIPS = (Ship("L1", "A", "large", Pose(100, 100, 0)),
         Ship("L2", "A", "large", Pose(100, 400, 0)),
         Ship("M1", "B", "medium", Pose(450, 450, 180)),
         Ship("S1", "B", "small", Pose(300, 300, 0)))


def new_game(store: GameStore | None = None) -> tuple[Recorder, ScriptedTable]:
    table = ScriptedTable(SHIPS)
    rec = Recorder.start(store, game_id="set-1", players=("A", "B"), ships=SHIPS,
                         play_area=AREA, pieces=table.view())
    return rec, table


def misread_flag(rec: Recorder, table: ScriptedTable) -> tuple[Flagged, Pose]:
    """L1 and L2 moved in one view (flagged); the camera reads L2's heading 25° off."""
    table.step("L1", [0.0])
    table.place("L2", Pose(120, 400, 25))          # what the camera shows for L2
    (flag,) = rec.observe(table.view(), frame="f1")
    assert isinstance(flag, Flagged) and "2 ships moved at once" in flag.reason
    return flag, Pose(120, 400, 0)                # where L2 really is


def test_a_set_pose_stands_while_the_camera_shows_the_same_misread() -> None:
    rec, table = new_game()
    flag, true = misread_flag(rec, table)
    seen = rec.state.table.ship("L2").pose
    fix = rec.correct(flag.n, "set", changes=(Change("L2", seen, true),), note="misread")
    assert isinstance(fix, Correction) and rec.state.pending == ()
    assert rec.state.table.ship("L2").pose == true
    assert rec.hand_set == {"L2": seen}
    # the same misread view again, many times: nothing moved
    for k in range(3):
        assert rec.observe(table.view(), frame=f"f{2 + k}") == []
    assert rec.state.table.ship("L2").pose == true
    # the piece really moves on from where the players put it: a move from the set pose
    rec.end_turn()
    rec.end_turn()                                   # A's turn again, nothing moved yet
    table.place("L2", Pose(120 + 46.229, 400, 0))
    (mv,) = rec.observe(table.view(), frame="f9")
    assert isinstance(mv, Move) and mv.ship == "L2" and mv.before == true
    assert mv.verdict.yes, mv.verdict.reason         # one straight step from the true pose
    assert rec.hand_set == {}


def test_without_the_set_the_misread_view_stays_what_the_log_has() -> None:
    """The contrast: accepting the flag keeps the camera's pose (25° off) in the log."""
    rec, table = new_game()
    flag, _ = misread_flag(rec, table)
    rec.correct(flag.n, "accept")
    assert rec.state.table.ship("L2").pose.heading_deg == 25
    assert rec.hand_set == {}


def test_a_lost_piece_placed_by_hand_is_not_flagged_gone_again() -> None:
    """The camera loses S1 (not sunk): flagged; the players place it by hand. While the camera
    still sees nothing of it, it is not gone; seen at the set pose, nothing happens; seen
    elsewhere later, it moved."""
    rec, table = new_game()
    table.remove("S1")
    (flag,) = rec.observe(table.view(), frame="f1")
    assert isinstance(flag, Flagged) and "S1 left the table" in flag.reason
    assert rec.state.missing == {"S1"}
    placed = Pose(300, 300, 0)
    rec.correct(flag.n, "set", changes=(Change("S1", None, placed),))
    assert rec.state.missing == frozenset() and rec.state.table.ship("S1").pose == placed
    assert rec.hand_set == {"S1": None}
    assert rec.observe(table.view(), frame="f2") == []          # still not seen: not gone
    table.place("S1", Pose(300.2, 299.9, 0.3))
    assert rec.observe(table.view(), frame="f3") == []          # seen where it was put
    rec.end_turn()                                               # B's turn
    table.step("S1", [0.0])
    (mv,) = rec.observe(table.view(), frame="f4")
    assert isinstance(mv, Move) and mv.ship == "S1" and mv.before == placed


def test_an_undone_set_is_pending_again_and_its_pose_gone() -> None:
    rec, table = new_game()
    flag, true = misread_flag(rec, table)
    seen = rec.state.table.ship("L2").pose
    rec.correct(flag.n, "set", changes=(Change("L2", seen, true),))
    rec.undo(note="wrong ship")
    assert rec.state.pending == (flag.n,) and rec.hand_set == {}
    assert rec.state.table.ship("L2").pose == seen


def test_a_set_pose_survives_a_restart(tmp_path) -> None:
    with GameStore(tmp_path / "g.sqlite") as store:
        rec, table = new_game(store)
        flag, true = misread_flag(rec, table)
        seen = rec.state.table.ship("L2").pose
        rec.correct(flag.n, "set", changes=(Change("L2", seen, true),))
    with GameStore(tmp_path / "g.sqlite") as store:
        again = Recorder.resume(store, "set-1", pieces=table.view())
        assert again.hand_set == {"L2": seen}
        assert again.observe(table.view(), frame="f5") == []
        assert again.state.table.ship("L2").pose == true


def test_hand_set_readings_end_with_a_later_flag_of_the_ship() -> None:
    seen, true = Pose(10, 10, 5), Pose(10, 10, 0)
    fix = Correction(game_id="g", n=3, target=2, resolution="set",
                     changes=(Change("L1", seen, true), Change("?small-2", None, None)))
    again = Flagged(game_id="g", n=4, reason="x", changes=(Change("L1", true, seen),))
    assert hand_set_readings([fix]) == {"L1": seen}          # strays are not ships
    assert hand_set_readings([fix, again]) == {}
