"""The phone page's server with the game log and the projector: the log to step through
(``/api/log``), flags the players settle (``/api/flags``), the selection and shot verdict that
the projector follows (``/api/select``), blanking wired into ``serve`` and full-resolution
frames for projector calibration. Frames are rendered; poses come from the renderer's truth
(``TruthAnalyser``), never from the detector."""

from __future__ import annotations

import time

import cv2
import numpy as np
import pytest
import shapely
from conftest import WEB_TOKEN as TOKEN
from conftest import TruthAnalyser, wait_until
from fastapi.testclient import TestClient

from armada_vision.geometry.pieces import NOMINAL_PIECES
from armada_vision.geometry.pose import Pose
from armada_vision.web.app import create_app
from armada_vision.web.sources import ArraySource, FolderSource

CTRL = {"X-Armada-Token": TOKEN}
L_POSE, M_POSE = Pose(250.0, 300.0, 0.0), Pose(450.0, 450.0, 90.0)
M_STEP = NOMINAL_PIECES.medium.footprint_length_mm





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
    tl = wait_until(lambda: (lambda t: t if any(x["event"]["kind"] == "move" for x in t) else None)(
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
    return wait_until(lambda: c.get("/api/state").json()["flags"])[0]


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
    ({"flag": 2, "resolution": "maybe"}, 422, "resolution"),
    ({"flag": 2, "resolution": "set"}, 422, "poses"),           # a set names its poses
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


# ---- the projector follows the phone (issue 7) --------------------------------------------------

def _projector_layers(c: TestClient) -> list[str]:
    """The overlays (table mm) the projector shows after its page's next poll."""
    from armada_vision.web.projector import controller_for

    assert c.get("/api/projector/frame", params={"wait_s": 0}).status_code == 200
    return sorted({o.layer for o in controller_for(c.app).overlays})


def test_selection_and_shot_reach_the_projector(game) -> None:
    c, _ = game
    session = c.app.state.armada.session
    assert _projector_layers(c) == []
    assert c.post("/api/select", json={"ship": "L1"}).status_code == 403
    r = c.post("/api/select", json={"ship": "L1"}, headers=CTRL)
    assert r.status_code == 200 and session.selected == "L1" and session.last_shot is None
    assert _projector_layers(c) == ["firing", "reach", "step"] or \
        _projector_layers(c) == ["firing", "step"]          # reach when rules provide it
    r = c.post("/api/select", json={"ship": "L1", "target": "S1"}, headers=CTRL)
    assert r.json()["shot"]["verdict"] == "yes" and session.last_shot["target"] == "S1"
    layers = _projector_layers(c)
    assert "ruler" in layers and "line_of_fire" in layers
    from armada_vision.web.projector import controller_for

    ruler = next(o for o in controller_for(c.app).overlays if o.layer == "ruler")
    assert shapely.Polygon(ruler.rings_mm[0]).equals_exact(
        shapely.Polygon(session.last_shot["ruler"]), 1e-6)
    assert c.post("/api/select", json={"ship": None}, headers=CTRL).status_code == 200
    assert _projector_layers(c) == [] and session.selected is None


@pytest.mark.parametrize("body, status, field", [
    ({"ship": "X9"}, 404, "ship"),
    ({"ship": "L1", "target": "X9"}, 404, "target"),
    ({"target": "S1"}, 422, "target"),
    ({"ship": "L1", "target": "L1"}, 422, "target"),
    ({"ship": "bad id!"}, 422, "ship"),
])
def test_bad_selections_are_clean_errors(game, body, status, field) -> None:
    c, _ = game
    r = c.post("/api/select", json=body, headers=CTRL)
    assert r.status_code == status and r.json()["error"].startswith(field), r.json()


def test_a_recorded_hit_and_the_last_move_reach_the_projector(game) -> None:
    c, analyser = game
    session = c.app.state.armada.session
    c.post("/api/hit", json={"shooter": "L1", "target": "S1"}, headers=CTRL)
    assert session.selected == "L1" and session.last_shot["verdict"] == "yes"
    assert "ruler" in _projector_layers(c)
    c.post("/api/turn/end", headers=CTRL)
    _move(analyser, {"medium": Pose(450.0, 450.0 + M_STEP, 150.0)})
    wait_until(lambda: c.get("/api/state").json()["last_move"])
    assert "last_move" in _projector_layers(c)


# ---- serve: blanking and full-resolution frames ---------------------------------------

def test_serve_wires_the_projector_and_blanking(monkeypatch, rendered_scene) -> None:
    import uvicorn

    from armada_vision.cli import main
    from armada_vision.web.projector import BlankingAnalyser, ProjectorController

    seen: dict = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    for extra, wrapped in (([], True), (["--no-blanking"], False),
                           (["--projector-lag", "0.4"], True)):
        assert main(["serve", "--source", str(rendered_scene.folder), "--db", "-",
                     "--no-qr", *extra]) == 0
        app = seen["app"]
        assert isinstance(app.state.projector, ProjectorController)
        analyser = app.state.armada.pipeline.analyser
        assert isinstance(analyser, BlankingAnalyser) == wrapped
        if wrapped:
            assert analyser.ctrl is app.state.projector
            assert analyser.exposure_s == (0.4 if extra else 0.15)
        assert app.state.armada.upload_analyser is not analyser
        # a projector page's open long poll must not hold Ctrl-C for its 20 s
        assert 0 < seen["timeout_graceful_shutdown"] <= 5


def test_serve_names_the_table_as_written(monkeypatch, capsys) -> None:
    # The banner's table name is the layout's own text ("60×60 cm table"), not a JSON
    # escape of it ("60\u00d760 cm table", as serve printed it until session 18).
    import uvicorn

    from armada_vision.cli import main

    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    assert main(["serve", "--source", "demo", "--layout", "60x60", "--db", "-",
                 "--no-qr"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith('on table "60×60 cm table"'), first


def test_serve_refuses_a_bad_projector_lag(capsys) -> None:
    from armada_vision.cli import main

    assert main(["serve", "--source", "demo", "--projector-lag", "-1", "--no-qr"]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--projector-lag" in err[0]


@pytest.mark.parametrize("lit", [False, True])
def test_without_a_projector_page_moves_are_still_judged(rendered_scene, lit) -> None:
    """With blanking on and no /projector page: nothing projected passes every frame; zones
    set but no page answering hold a rest only while the blank is tried, then pass it."""
    from armada_vision.cli.serve import make_app
    from armada_vision.vision.projector import ProjectorCalibration

    analyser = TruthAnalyser(rendered_scene)
    app = make_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                   analyser=analyser, token=TOKEN)
    ctrl = app.state.projector
    if lit:
        ctrl.set_calibration(ProjectorCalibration(
            (1280, 800), ((2.0, 0.0, 10.0), (0.0, -2.0, 1300.0), (0.0, 0.0, 1.0)),
            0.1, 0.2, 60, 60))
    with TestClient(app) as c:
        wait_until(lambda: c.get("/api/state").json()["turn"]["started"])
        c.post("/api/select", json={"ship": "M1"}, headers=CTRL)
        assert bool(_projector_layers(c)) and bool(ctrl.frame_json()["overlays"]) == lit
        time.sleep(0.3)    # frames from now on were exposed after the zones went up
        c.post("/api/turn/end", headers=CTRL)
        _move(analyser, {"medium": Pose(450.0, 450.0 + M_STEP, 150.0)})
        m = wait_until(lambda: c.get("/api/state").json()["last_move"], timeout_s=20)
        assert m["ship"] == "M1" and m["verdict"] == "yes"
        wrap = app.state.armada.pipeline.analyser
        assert (wrap.held_lit > 0) == lit


def test_latest_frame_is_full_resolution_for_projector_calibration(rendered_scene) -> None:
    from armada_vision.web.projector import _server_parts

    frames = [f.copy() for f in rendered_scene.frames]
    app = create_app(ArraySource(frames, fps=30), rendered_scene.layout,
                     analyser=TruthAnalyser(rendered_scene), token=TOKEN, jpeg_width=480)
    with TestClient(app) as c:
        pipeline = app.state.armada.pipeline
        frame, t = wait_until(pipeline.latest_frame)
        assert frame.shape == frames[0].shape and any(frame is f for f in frames)
        assert t <= time.time()
        packet = wait_until(lambda: app.state.armada.hub.frame)
        jpeg = cv2.imdecode(np.frombuffer(packet.jpeg, np.uint8),
                            cv2.IMREAD_COLOR)
        assert jpeg.shape[1] == 480                     # the phones' copy is scaled down
        grab, _layout, _camera = _server_parts(c.app)
        got = grab(time.time())
        assert got is not None and got.shape == frames[0].shape
        assert any(np.array_equal(got, f) for f in frames)     # the camera's own pixels
