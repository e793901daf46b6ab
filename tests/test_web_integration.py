"""The phone page's server with the game log: the log to step through (``/api/log``).
Frames are rendered; poses come from the renderer's truth (``TruthAnalyser``), never
from the detector."""

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
