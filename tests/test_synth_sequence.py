"""Rendered game sequences: every staged step and shot obeys rules.md, the foul is flagged,
frames and events agree. Checked by plain geometry and by the rules core's own referee."""

from __future__ import annotations

import itertools
import json
import math

import pytest
import shapely

from armada_vision.geometry.pieces import NOMINAL_PIECES
from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.geometry.shapes import silhouette
from armada_vision.rules.fire import adjudicate_shot
from armada_vision.rules.step import adjudicate_step
from armada_vision.rules.table import Obstacle, PlayArea, Ship, Table
from armada_vision.synth.sequence import build_sequence, events_json, write_sequence


@pytest.fixture(scope="module", params=[1, 2])
def game(request):
    seq = build_sequence(request.param, foul=True)
    return seq, events_json(seq)


def _pieces(frame: dict) -> dict[str, dict]:
    return {p["id"]: p for p in frame["pieces"]}


def _table(frame: dict, area) -> Table:
    ships, obstacles = [], []
    for p in frame["pieces"]:
        pose = Pose(p["stern"][0], p["stern"][1], p["heading"])
        if p["role"] == "ship":
            ships.append(Ship(p["id"], p["player"], p["size"], pose))
        else:
            poly = silhouette(pose, NOMINAL_PIECES.dims(p["size"]))
            obstacles.append(Obstacle(p["id"], tuple(poly.exterior.coords)[:-1]))
    return Table(PlayArea(tuple(map(tuple, area))), tuple(ships), tuple(obstacles))


def test_each_step_starts_on_the_old_tip_and_turns_within_the_limit(game) -> None:
    """§4.1 stern on the old tip; §4.2 |turn| < 90° − atan((w/2)/s), except the flagged foul."""
    _seq, truth = game
    moves = [e for e in truth["events"] if e["type"] == "move"]
    assert moves
    for mv in moves:
        d = NOMINAL_PIECES.dims(mv["size"])
        assert 1 <= len(mv["steps"]) <= {"small": 4, "medium": 2, "large": 1}[mv["size"]]
        pose = Pose(*mv["from"]["stern"], mv["from"]["heading"])
        for k, st in enumerate(mv["steps"]):
            assert st["stern"] == pytest.approx(list(pose.tip_mm(d.footprint_length_mm)))
            turn = angle_diff_deg(st["heading"], pose.heading_deg)
            assert turn == pytest.approx(st["turn"])
            if mv["legal"] or k > 0:
                assert abs(turn) < d.max_turn_deg
            else:
                assert abs(turn) >= d.max_turn_deg and "§4.2" in mv["reason"]
            pose = Pose(*st["stern"], st["heading"])
        assert [pose.x_mm, pose.y_mm] == pytest.approx(mv["to"]["stern"])
    assert sum(not m["legal"] for m in moves) == 1       # exactly the deliberate foul


def test_legal_steps_are_yes_for_the_referee_and_clear_of_everything(game) -> None:
    """§4.3: each legal step's silhouette is clear of every other piece and of the play-area
    edge; the rules core (adjudicate_step) agrees, with the pieces of the frame before it."""
    seq, truth = game
    area = seq.layout.play_area_mm
    frames = truth["frames"]
    for mv in (e for e in truth["events"] if e["type"] == "move" and e["legal"]):
        before = frames[mv["frame"] - 1]
        table = _table(before, area)
        d = NOMINAL_PIECES.dims(mv["size"])
        prev = Pose(*mv["from"]["stern"], mv["from"]["heading"])
        others = [silhouette(Pose(p["stern"][0], p["stern"][1], p["heading"]),
                             NOMINAL_PIECES.dims(p["size"]))
                  for p in before["pieces"] if p["id"] != mv["ship"]
                  and not p["id"].endswith(f"spare-{mv['size']}")]
        for st in mv["steps"]:
            new = Pose(*st["stern"], st["heading"])
            sil = silhouette(new, d)
            assert shapely.Polygon(area).buffer(-2.0).contains(sil)
            assert all(sil.distance(o) > 2.0 for o in others)
            # The spare of this size is in the player's hand during the move.
            spare = f"{mv['player']}-spare-{mv['size']}"
            t = Table(table.play_area, table.ships,
                      tuple(o for o in table.obstacles if o.id != spare))
            v = adjudicate_step(t, mv["ship"], new, from_pose=prev)
            assert v.yes, v.reason
            prev = new


def test_every_staged_hit_is_a_clear_yes_for_the_referee(game) -> None:
    """§5: the ruler reaches the target and the line of fire is clear, per adjudicate_shot."""
    seq, truth = game
    shots = [e for e in truth["events"] if e["type"] == "shot"]
    assert shots
    for sh in shots:
        table = _table(truth["frames"][sh["frame"] - 1], seq.layout.play_area_mm)
        v = adjudicate_shot(table, sh["shooter"], sh["target"])
        assert v.yes == sh["hit"], v.reason
        assert sh["depth_mm"] >= 3.0


def test_damage_sinks_at_pips_and_the_sunk_ship_leaves_the_table(game) -> None:
    _seq, truth = game
    frames = truth["frames"]
    for ev in (e for e in truth["events"] if e["type"] == "sunk"):
        size = next(s["size"] for s in truth["ships"] if s["id"] == ev["ship"])
        dmg = [e["damage"] for e in truth["events"] if e["type"] == "damage"
               and e["ship"] == ev["ship"]]
        assert dmg[-1] == {"small": 1, "medium": 2, "large": 3}[size]
        assert all(ev["ship"] not in _pieces(f) for f in frames[ev["frame"] + 2:])


def test_frames_settle_between_actions_and_a_hand_acts(game) -> None:
    _seq, truth = game
    frames = truth["frames"]
    assert frames[0]["settled"] and not frames[0]["hand"]
    for f in frames:
        assert f["settled"] != f["hand"]            # hands only while something happens
    for ev in (e for e in truth["events"] if e["type"] in ("move", "shot")):
        assert frames[ev["frame"] - 1]["settled"]    # each action starts from a settled table
        assert frames[ev["frame"]]["hand"]
    # During a step both the old piece and the one just placed lie on the table.
    assert any(p["role"] == "placing" for f in frames for p in f["pieces"])
    # Settled frames in a row show the same table.
    for a, b in itertools.pairwise(frames):
        if a["settled"] and b["settled"]:
            assert a["pieces"] == b["pieces"]


def test_write_sequence_renders_frames_and_json(tmp_path) -> None:
    seq = build_sequence(3, max_frames=3, image_size=(320, 180))
    paths = write_sequence(seq, tmp_path)
    assert sorted(p.name for p in tmp_path.glob("frame_*.jpg")) == [
        "frame_0000.jpg", "frame_0001.jpg", "frame_0002.jpg"]
    ev = json.loads(paths["events"].read_text())
    assert ev["frame_count"] == 3 and len(ev["frames"]) == 3
    cam = json.loads((tmp_path / "camera.json").read_text())
    assert cam["image_size"] == [320, 180] and len(cam["rvec"]) == 3
    assert math.isclose(ev["fps"], 2.0)
