"""The adjudicate scene file (interfaces.md): parsing, field-naming errors, round trip."""

from __future__ import annotations

import copy
import json

import pytest

from armada_vision.geometry import Pose
from armada_vision.rules import RulesConfig
from armada_vision.rules.scene import (
    MoveQuery,
    SetupQuery,
    ShotQuery,
    answer_scene,
    impossible_state,
    load_example,
    parse_scene,
    scene_to_dict,
)

GOOD = {
    "play_area": [[0, 0], [600, 0], [600, 600], [0, 600]],
    "ships": [
        {"id": "L1", "player": "A", "size": "large", "stern": [300, 300], "heading": 0,
         "damage": 0, "sigma_mm": 0.1, "sigma_deg": 0.2},
        {"id": "S1", "player": "B", "size": "small", "stern": [310, 340], "heading": 0},
    ],
    "objects": [{"id": "rock", "polygon": [[100, 100], [120, 100], [110, 120]]}],
    "queries": [{"shot": {"from": "L1", "target": "S1"}},
                {"move": {"ship": "S1", "to": {"stern": [336.385, 340], "heading": 0}}},
                {"setup": {}}],
}


def test_parse_good_scene() -> None:
    s = parse_scene(GOOD)
    assert [sh.id for sh in s.table.ships] == ["L1", "S1"]
    assert s.table.ship("L1").sigma_deg == 0.2
    assert s.table.obstacles[0].id == "rock"
    assert s.queries == (ShotQuery("L1", "S1"), MoveQuery("S1", Pose(336.385, 340, 0)),
                         SetupQuery())


def test_round_trip() -> None:
    s = parse_scene(GOOD)
    assert parse_scene(json.loads(json.dumps(scene_to_dict(s)))) == s


def test_tip_may_replace_heading_and_config_overrides() -> None:
    d = copy.deepcopy(GOOD)
    del d["ships"][1]["heading"]
    d["ships"][1]["tip"] = [310, 366.385]
    d["config"] = {"doubt_floor_mm": 0.5, "strict_sweep": True}
    d["pieces"] = {"small": {"base_w_mm": 14.0, "height_mm": 25.0}}
    s = parse_scene(d)
    assert s.table.ship("S1").pose.heading_deg == pytest.approx(90.0)
    assert s.config.doubt_floor_mm == 0.5 and s.config.strict_sweep
    assert s.config.pieces.small.base_w_mm == 14.0
    assert parse_scene(scene_to_dict(s)) == s


def _with(path: str, value: object) -> dict:
    d = copy.deepcopy(GOOD)
    keys = path.split(".")
    node = d
    for k in keys[:-1]:
        node = node[int(k)] if k.isdigit() else node[k]
    last = keys[-1]
    if value is _DELETE:
        del node[int(last) if last.isdigit() else last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return d


_DELETE = object()

MALFORMED = [
    ("ships.1.heading", "x", "ships[1].heading: expected a number"),
    ("ships.1.heading", _DELETE, "ships[1].heading: expected a number"),
    ("ships.0.stern", [1], "ships[0].stern: expected [x, y]"),
    ("ships.0.stern", [1, None], "ships[0].stern[1]: expected a number"),
    ("ships.0.size", "huge", "ships[0].size: expected small, medium or large"),
    ("ships.0.player", "", "ships[0].player: expected a non-empty name"),
    ("ships.0.damage", 3, "ships[0].damage: 3 damage sinks a large"),
    ("ships.0.damage", -1, "ships[0].damage: expected a whole number"),
    ("ships.0.sigma_mm", -0.1, "ships[0].sigma_mm: must not be negative"),
    ("ships.1.id", "L1", "ships[1].id: 'L1' is used twice"),
    ("objects.0.polygon", [[0, 0], [1, 1]], "objects[0].polygon: expected a polygon"),
    ("objects.0.polygon", [[0, 0], [1, 1], [0, 1], [1, 0]], "objects[0].polygon: self-inter"),
    ("play_area", "square", "play_area: expected a list"),
    ("queries.0.shot.target", "Z9", "queries[0].shot.target: no ship 'Z9'"),
    ("queries.0.shot.target", "L1", "queries[0].shot.target: a ship cannot fire at itself"),
    ("queries.1.move.to.heading", None, "queries[1].move.to.heading: expected a number"),
    ("queries.2", {"dance": {}}, "queries[2]: unknown query 'dance'"),
    ("ships", {}, "ships: expected a list"),
    ("config", {"doubt_floor": 1}, "config.doubt_floor: unknown setting"),
    ("pieces", {"small": {"base_w_mm": -1, "height_mm": 25}}, "pieces.small:"),
]


@pytest.mark.parametrize("path,value,message", MALFORMED, ids=[m[2] for m in MALFORMED])
def test_malformed_scene_names_the_field(path: str, value: object, message: str) -> None:
    with pytest.raises(ValueError) as e:
        parse_scene(_with(path, value))
    assert str(e.value).startswith(message)


def test_overlapping_ships_make_every_shot_and_move_an_impossible_state() -> None:
    d = copy.deepcopy(GOOD)
    d["ships"][1]["stern"] = [310, 300]   # on top of L1
    s = parse_scene(d)
    assert impossible_state(s.table) is not None
    shot, move, setup = answer_scene(s)
    for v in (shot, move):
        assert (v.verdict, v.decided_by) == ("no", "state")
        assert "overlap" in v.reason and v.margin_mm < 0
    assert setup.verdict == "no" and setup.decided_by == "overlap"


def test_touching_within_the_allowance_is_not_impossible() -> None:
    """§7: an overlap smaller than the doubt allowance is taken as two pieces touching."""
    d = copy.deepcopy(GOOD)
    # S1 lies alongside L1's port-side stern corner, 0.05 mm into its silhouette.
    d["ships"][1].update(stern=[300, 312.7 - 0.05 + 7.14375], heading=0)
    s = parse_scene(d)
    l1, s1 = s.table.ship("L1").silhouette(s.config), s.table.ship("S1").silhouette(s.config)
    assert l1.intersection(s1).area > 0
    assert impossible_state(s.table, RulesConfig()) is None


def test_bundled_example_loads_and_has_every_kind_of_answer() -> None:
    s = load_example()
    verdicts = answer_scene(s)
    assert len(verdicts) == len(s.queries) >= 4
    kinds = {(v.verdict, v.decided_by) for v in verdicts}
    assert ("yes", "range") in kinds
    assert ("no", "obstruction") in kinds
    assert ("no", "range") in kinds


def test_move_target_may_be_given_by_its_tip() -> None:
    d = copy.deepcopy(GOOD)
    d["queries"][1]["move"]["to"] = {"stern": [336.385, 340], "tip": [336.385, 400]}
    q = parse_scene(d).queries[1]
    assert q.to.heading_deg == pytest.approx(90.0)
