"""The phone page's server with the game log: the log to step through (``/api/log``) and
flags the players settle (``/api/flags``). Frames are rendered; poses come from the
renderer's truth (``TruthAnalyser``), never from the detector."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from conftest import TruthAnalyser
from fastapi.testclient import TestClient

from armada_vision.geometry.pieces import NOMINAL_PIECES
from armada_vision.geometry.pose import Pose
from armada_vision.web.app import create_app
from armada_vision.web.sources import FolderSource

TOKEN = "secret-join-token"
CTRL = {"X-Armada-Token": TOKEN}
L_POSE, M_POSE = Pose(250.0, 300.0, 0.0), Pose(450.0, 450.0, 90.0)
M_STEP = NOMINAL_PIECES.medium.footprint_length_mm


def _wait(cond, timeout_s: float = 15.0):
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


@pytest.fixture()
def game(rendered_scene) -> Iterator[tuple[TestClient, TruthAnalyser]]:
    analyser = TruthAnalyser(rendered_scene)
    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=analyser, token=TOKEN)
    with TestClient(app) as c:
        _wait(lambda: c.get("/api/state").json()["turn"]["started"])
        yield c, analyser


def _move(analyser: TruthAnalyser, moves: dict[str, Pose]) -> None:
    analyser.pieces = [(s, moves.get(s, p)) for s, p in analyser.pieces]


def _log(c: TestClient) -> list[dict]:
    r = c.get("/api/log")
    assert r.status_code == 200
    return r.json()["timeline"]


# ---- the game log to step through (issue 6) -----------------------------------------------------

def test_log_before_a_game_is_empty(rendered_scene) -> None:
    app = create_app(None, rendered_scene.layout, analyser=TruthAnalyser(rendered_scene),
                     token=TOKEN)
    with TestClient(app) as c:
        body = c.get("/api/log").json()
        assert body["timeline"] == [] and body["game_id"] is None
        assert body["pieces"]["large"]["w"] == pytest.approx(NOMINAL_PIECES.large.base_w_mm)


def test_log_steps_through_a_hit_its_damage_and_its_undo(game) -> None:
    """§5: the shot L1 → S1 is logged with its ruler; the state after it has S1 damaged and
    sunk; an undo marks the shot and its damage undone. No token is needed to read."""
    c, _ = game
    t0 = _log(c)
    assert [t["event"]["kind"] for t in t0][:1] == ["started"]
    ships0 = {s["id"]: s for s in t0[0]["state"]["ships"]}
    assert ships0["L1"]["stern"] == pytest.approx([L_POSE.x_mm, L_POSE.y_mm])
    assert ships0["M1"]["heading"] == pytest.approx(M_POSE.heading_deg)
    assert c.post("/api/hit", json={"shooter": "L1", "target": "S1"}, headers=CTRL).status_code \
        == 200
    t1 = _log(c)
    kinds = [t["event"]["kind"] for t in t1]
    shot = t1[kinds.index("shot")]
    assert shot["text"].startswith("L1 x S1") and shot["event"]["verdict"]["yes"]
    assert len(shot["event"]["verdict"]["ruler"]) >= 3
    after = {s["id"]: s for s in t1[kinds.index("damage")]["state"]["ships"]}
    assert after["S1"]["damage"] == 1 and after["S1"]["sunk"]
    before = {s["id"]: s for s in t1[kinds.index("shot") - 1]["state"]["ships"]}
    assert before["S1"]["damage"] == 0
    assert c.post("/api/undo", headers=CTRL).status_code == 200
    t2 = _log(c)
    assert t2[-1]["event"]["kind"] == "undo"
    undone = {t["event"]["kind"] for t in t2 if t["undone"]}
    assert {"shot", "damage"} <= undone
    assert c.get("/api/state").json()["log_n"] == len(t2)


def test_log_has_a_move_with_its_steps(game) -> None:
    """§4: a legal one-step move of M1 on B's turn: its event carries before, after and the
    reconstructed step; the state after it has M1 at the new pose."""
    c, analyser = game
    c.post("/api/turn/end", headers=CTRL)
    after = Pose(450.0, 450.0 + M_STEP, 150.0)
    _move(analyser, {"medium": after})
    tl = _wait(lambda: (lambda t: t if any(x["event"]["kind"] == "move" for x in t) else None)(
        _log(c)))
    move = next(t for t in tl if t["event"]["kind"] == "move")
    assert move["event"]["ship"] == "M1" and move["event"]["verdict"]["yes"]
    assert move["event"]["before"][:2] == pytest.approx([M_POSE.x_mm, M_POSE.y_mm], abs=0.01)
    (step,) = move["event"]["verdict"]["steps"]
    assert step[:2] == pytest.approx([after.x_mm, after.y_mm], abs=2.0)
    m1 = next(s for s in move["state"]["ships"] if s["id"] == "M1")
    assert m1["stern"] == pytest.approx([after.x_mm, after.y_mm], abs=0.01)


# ---- flags the players settle (issue 6) -----------------------------------------------

def _flag_two_ships(c: TestClient, analyser: TruthAnalyser) -> dict:
    """Two ships moved in one settled view: the recorder cannot judge it and flags it."""
    _move(analyser, {"large": Pose(260.0, 250.0, 0.0), "medium": Pose(450.0, 500.0, 90.0)})
    return _wait(lambda: c.get("/api/state").json()["flags"])[0]


def test_a_flag_is_listed_and_accepted_with_the_token_only(game) -> None:
    c, analyser = game
    flag = _flag_two_ships(c, analyser)
    assert "moved at once" in flag["reason"] and flag["n"] > 1
    assert {ch["ship"] for ch in flag["changes"]} == {"L1", "M1"}
    s = c.get("/api/state").json()
    assert s["turn"]["pending_flags"] == [flag["n"]]
    r = c.post("/api/flags", json={"flag": flag["n"], "resolution": "accept"})
    assert r.status_code == 403 and "token" in r.json()["error"]
    assert c.get("/api/state").json()["flags"]                    # still pending
    r = c.post("/api/flags", json={"flag": flag["n"], "resolution": "accept"}, headers=CTRL)
    assert r.status_code == 200, r.text
    assert r.json()["state"]["flags"] == [] and r.json()["state"]["turn"]["pending_flags"] == []
    last = _log(c)[-1]["event"]
    assert last["kind"] == "correction" and last["target"] == flag["n"]
    assert last["resolution"] == "accept"
    # settled: a second answer is refused by the game
    r = c.post("/api/flags", json={"flag": flag["n"], "resolution": "revert"}, headers=CTRL)
    assert r.status_code == 409 and r.json()["error"].startswith("flag:")


def test_reverting_a_flag_expects_the_pieces_back(game) -> None:
    c, analyser = game
    flag = _flag_two_ships(c, analyser)
    r = c.post("/api/flags", json={"flag": flag["n"], "resolution": "revert", "note": "oops"},
               headers=CTRL)
    assert r.status_code == 200, r.text
    # the state right after the correction has the pieces back (until the camera says
    # otherwise: the players are to put them back)
    fix = next(t for t in _log(c) if t["event"]["kind"] == "correction")
    assert fix["event"]["resolution"] == "revert" and fix["event"]["note"] == "oops"
    assert fix["event"]["target"] == flag["n"]
    ships = {s["id"]: s for s in fix["state"]["ships"]}
    assert ships["L1"]["stern"] == pytest.approx([L_POSE.x_mm, L_POSE.y_mm], abs=0.01)
    assert ships["M1"]["stern"] == pytest.approx([M_POSE.x_mm, M_POSE.y_mm], abs=0.01)


@pytest.mark.parametrize("body, status, field", [
    ({"flag": 2, "resolution": "set"}, 422, "resolution"),
    ({"flag": 0, "resolution": "accept"}, 422, "flag"),
    ({"flag": "two", "resolution": "accept"}, 422, "flag"),
    ({"flag": 2, "resolution": "accept", "x": 1}, 422, "x"),
    ({"flag": 2, "resolution": "accept", "note": "n" * 201}, 422, "note"),
    ({"flag": 2, "resolution": "accept"}, 409, "flag"),          # event 2 is not a flag
])
def test_bad_flag_answers_are_clean_errors(game, body, status, field) -> None:
    c, _ = game
    r = c.post("/api/flags", json=body, headers=CTRL)
    assert r.status_code == status and r.json()["error"].startswith(field), r.json()
