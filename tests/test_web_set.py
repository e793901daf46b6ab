"""Placing a piece by hand from the phone: ``POST /api/flags`` with ``resolution: "set"`` and
the ships' poses (table mm, degrees). The server checks the join token, every field (finite,
inside the play area, a ship of the game) and logs the game log's ``set`` correction; the
state, the log and the live view then have the ship where the players put it, and the next
settled views of the same (misread or missing) piece do not flag it again. Frames are
rendered; poses come from the renderer's truth (``TruthAnalyser``), never from the detector."""

from __future__ import annotations

import json

import pytest
from conftest import WEB_TOKEN as TOKEN
from conftest import TruthAnalyser, wait_until
from fastapi.testclient import TestClient

from armada_vision.geometry.pose import Pose

CTRL = {"X-Armada-Token": TOKEN}
# The camera's misreading of L1 and M1 in one settled view (two ships moved: a flag).
L1_SEEN, M1_SEEN = Pose(260.0, 250.0, 0.0), Pose(450.0, 500.0, 90.0)



def _show(analyser: TruthAnalyser, poses: dict[str, Pose | None]) -> None:
    """What the camera reports from now on: size → pose (None: not seen)."""
    out = []
    for size, pose in analyser.pieces:
        p = poses.get(size, pose)
        if p is not None:
            out.append((size, p))
    analyser.pieces = out


def _flag(c: TestClient, analyser: TruthAnalyser, poses: dict[str, Pose | None]) -> dict:
    _show(analyser, poses)
    return wait_until(lambda: c.get("/api/state").json()["flags"])[0]


def _settled_frames(c: TestClient, analyser: TruthAnalyser, n: int = 8) -> dict:
    """Let ``n`` more frames be analysed; the state after them."""
    start = analyser.calls
    wait_until(lambda: analyser.calls >= start + n)
    return c.get("/api/state").json()


def _ship(state: dict, sid: str) -> dict:
    return next(s for s in state["ships"] if s["id"] == sid)


def _set(flag: int, *poses: tuple[str, float, float, float], **extra) -> dict:
    return {"flag": flag, "resolution": "set", **extra,
            "poses": [{"ship": s, "x_mm": x, "y_mm": y, "heading_deg": h}
                      for s, x, y, h in poses]}


def test_the_flag_names_its_ships_and_the_game_ships_carry_their_recorded_pose(game) -> None:
    c, analyser = game
    flag = _flag(c, analyser, {"large": L1_SEEN, "medium": M1_SEEN})
    assert flag["ships"] == ["L1", "M1"]
    state = c.get("/api/state").json()
    ships = {s["id"]: s for s in state["game_ships"]}
    assert set(ships) == {"L1", "M1", "S1"}
    assert ships["L1"]["stern"] == pytest.approx([L1_SEEN.x_mm, L1_SEEN.y_mm])
    assert ships["L1"]["outline"] == _ship(state, "L1")["outline"]   # the same silhouette
    assert not ships["L1"]["missing"]


def test_a_set_without_the_join_token_is_refused(game) -> None:
    c, analyser = game
    flag = _flag(c, analyser, {"large": L1_SEEN, "medium": M1_SEEN})
    n = c.get("/api/state").json()["log_n"]
    r = c.post("/api/flags", json=_set(flag["n"], ("L1", 250, 300, 0)))
    assert r.status_code == 403 and "token" in r.json()["error"]
    r = c.post("/api/flags", json=_set(flag["n"], ("L1", 250, 300, 0)),
               headers={"X-Armada-Token": TOKEN + "x"})
    assert r.status_code == 403
    s = c.get("/api/state").json()
    assert s["log_n"] == n and [f["n"] for f in s["flags"]] == [flag["n"]]


@pytest.mark.parametrize("pose, status, field", [
    ({"x_mm": 700.0}, 422, "poses.0.x_mm"),                # off the 600 mm play area
    ({"y_mm": -0.5}, 422, "poses.0.y_mm"),
    ({"x_mm": 1e400}, 422, "poses.0.x_mm"),               # JSON's overflow to infinity
    ({"heading_deg": "north"}, 422, "poses.0.heading_deg"),
    ({"heading_deg": None}, 422, "poses.0.heading_deg"),
    ({"ship": "L 1"}, 422, "poses.0.ship"),                # not an id
    ({"ship": "Z9"}, 404, "poses.0.ship"),                 # no such ship in the game
    ({"z_mm": 1.0}, 422, "poses.0.z_mm"),                  # unknown field
])
def test_a_bad_pose_field_is_a_clean_error_naming_it(game, pose, status, field) -> None:
    c, analyser = game
    flag = _flag(c, analyser, {"large": L1_SEEN, "medium": M1_SEEN})
    body = _set(flag["n"], ("L1", 255.0, 252.0, 10.0))
    body["poses"][0].update(pose)
    r = c.post("/api/flags", content=json.dumps(body), headers={
        **CTRL, "Content-Type": "application/json"})
    assert r.status_code == status and r.json()["error"].startswith(field + ":"), r.json()
    assert c.get("/api/state").json()["flags"]              # still pending


def test_nan_and_the_other_bad_requests(game) -> None:
    c, analyser = game
    flag = _flag(c, analyser, {"large": L1_SEEN, "medium": M1_SEEN})
    n = flag["n"]
    raw = json.dumps(_set(n, ("L1", float("nan"), 250.0, 0.0)))      # NaN: Python's json
    assert "NaN" in raw
    r = c.post("/api/flags", content=raw, headers={**CTRL, "Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"].startswith("poses.0.x_mm:"), r.json()
    for body, status, field in [
        (_set(n, ("L1", 250, 300, 0), ("L1", 251, 300, 0)), 422, "poses.1.ship"),   # twice
        (_set(n, *[("L1", 250, 300, 0)] * 17), 422, "poses"),                   # too many
        ({"flag": n, "resolution": "accept",
          "poses": [{"ship": "L1", "x_mm": 1, "y_mm": 1, "heading_deg": 0}]}, 422, "poses"),
        (_set(n + 1, ("L1", 250, 300, 0)), 409, "flag"),                 # not a flag
    ]:
        r = c.post("/api/flags", json=body, headers=CTRL)
        assert r.status_code == status and r.json()["error"].startswith(field + ":"), r.json()
    assert [f["n"] for f in c.get("/api/state").json()["flags"]] == [n]


def test_a_set_is_logged_and_stands_against_the_same_misread(game) -> None:
    """The camera misread L1 (and M1); the players set L1 where it is. The game log has the
    correction with the pose set (heading normalised), the state and the live view have L1
    there, and the same misread views that follow are not flagged again."""
    c, analyser = game
    flag = _flag(c, analyser, {"large": L1_SEEN, "medium": M1_SEEN})
    r = c.post("/api/flags", json=_set(flag["n"], ("L1", 255.0, 252.5, 370.0),
                                       note="camera misread"), headers=CTRL)
    assert r.status_code == 200, r.text
    assert r.json()["corrected"].startswith(f"correct #{flag['n']} set")
    assert "L1 at (255, 252, 10°)" in r.json()["corrected"]
    st = r.json()["state"]
    assert st["flags"] == [] and st["turn"]["pending_flags"] == []
    timeline = c.get("/api/log").json()["timeline"]
    fix = timeline[-1]
    assert fix["event"]["kind"] == "correction" and fix["event"]["resolution"] == "set"
    assert fix["event"]["target"] == flag["n"] and fix["event"]["note"] == "camera misread"
    (ch,) = fix["event"]["changes"]
    assert ch["ship"] == "L1"
    assert ch["before"] == pytest.approx([L1_SEEN.x_mm, L1_SEEN.y_mm, L1_SEEN.heading_deg])
    assert ch["after"] == pytest.approx([255.0, 252.5, 10.0])
    logged = {s["id"]: s for s in fix["state"]["ships"]}
    assert logged["L1"]["stern"] == pytest.approx([255.0, 252.5])
    assert logged["L1"]["heading"] == pytest.approx(10.0)
    assert logged["M1"]["stern"] == pytest.approx([M1_SEEN.x_mm, M1_SEEN.y_mm])  # as seen
    # the camera goes on reading L1 at L1_SEEN: no move, no new flag; the live view and the
    # questions asked on it have L1 where it was set
    after = _settled_frames(c, analyser)
    assert after["log_n"] == len(timeline) and after["flags"] == []
    l1 = _ship(after, "L1")
    assert l1["stern"] == pytest.approx([255.0, 252.5]) and l1["set_by_hand"]
    assert not _ship(after, "M1")["set_by_hand"]
    assert any(line.endswith("L1 at (255, 252, 10°)") for line in after["log"])
    # seen somewhere else, L1 moved from where it was set; the camera's pose is shown again
    _show(analyser, {"large": Pose(300.0, 260.0, 10.0)})
    move = wait_until(lambda: next((t["event"] for t in c.get("/api/log").json()["timeline"]
                                    if t["event"]["kind"] == "move"), None))
    assert move["ship"] == "L1" and move["before"] == pytest.approx([255.0, 252.5, 10.0])
    l1 = _ship(c.get("/api/state").json(), "L1")
    assert l1["stern"] == pytest.approx([300.0, 260.0]) and not l1["set_by_hand"]


def test_a_ship_the_camera_lost_is_placed_by_hand(game) -> None:
    """S1 vanishes from the camera's view without being sunk (flagged); the players place it.
    It is back in the game where they put it, drawn there, and not flagged gone again."""
    c, analyser = game
    flag = _flag(c, analyser, {"small": None})
    assert "S1 left the table" in flag["reason"] and flag["ships"] == ["S1"]
    assert next(s for s in c.get("/api/state").json()["game_ships"]
                if s["id"] == "S1")["missing"]
    r = c.post("/api/flags", json=_set(flag["n"], ("S1", 262.0, 341.0, -2.0)), headers=CTRL)
    assert r.status_code == 200, r.text
    fix = c.get("/api/log").json()["timeline"][-1]
    assert fix["event"]["changes"] == [{"ship": "S1", "before": None,
                                        "after": [262.0, 341.0, 358.0]}]
    after = _settled_frames(c, analyser)
    assert after["flags"] == [] and after["log_n"] == fix["event"]["n"]
    s1 = _ship(after, "S1")
    assert s1["stern"] == pytest.approx([262.0, 341.0]) and s1["set_by_hand"]
    # the shot L1 → S1 is asked on the table as the game has it
    shot = c.post("/api/shot", json={"shooter": "L1", "target": "S1"}).json()
    assert shot["verdict"] in ("yes", "no") and shot["target"] == "S1"


def test_a_sunk_ship_cannot_be_set(game) -> None:
    c, analyser = game
    assert c.post("/api/hit", json={"shooter": "L1", "target": "S1"},
                  headers=CTRL).status_code == 200
    flag = _flag(c, analyser, {"small": None, "large": L1_SEEN, "medium": M1_SEEN})
    r = c.post("/api/flags", json=_set(flag["n"], ("S1", 262.0, 341.0, 0.0)), headers=CTRL)
    assert r.status_code == 422 and r.json()["error"] == "poses.0.ship: S1 is sunk", r.json()
