"""The projector page's server side: frames in projector px, style, calibration upload, the
blank/pattern handshake, selection from the referee session, and the overlay drawing."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from armada_vision.geometry.layout import standard_layout
from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import DEFAULT_CONFIG
from armada_vision.rules.table import PlayArea, Ship, Table
from armada_vision.vision.projector import (
    Overlay,
    ProjectorCalibration,
    ProjectorStyle,
    draw_overlays,
    find_pattern,
)
from armada_vision.vision.types import VisionFailure
from armada_vision.web import referee
from armada_vision.web.projector import (
    ProjectorController,
    controller_for,
    overlays_from_move,
    overlays_from_zones,
    router,
)

# projector px = (2x + 10, −2y + 700): a plain scale-and-flip, so expected px are arithmetic
H_SIMPLE = [[2.0, 0.0, 10.0], [0.0, -2.0, 700.0], [0.0, 0.0, 1.0]]
CAL = {"projector_size": [1280, 800], "H_projector_from_table": H_SIMPLE,
       "residual_mean_mm": 0.1, "residual_max_mm": 0.3, "points": 70, "found": 72}


@pytest.fixture()
def client():
    app = FastAPI()
    app.include_router(router)
    with TestClient(app) as c:
        yield c


def _frame(client, since=0, wait_s=0.0):
    r = client.get("/api/projector/frame", params={"since": since, "wait_s": wait_s})
    assert r.status_code == 200
    return r.json(), int(r.headers["X-Version"])


def test_page_and_assets_are_served(client) -> None:
    page = client.get("/projector")
    assert page.status_code == 200 and "<canvas" in page.text
    assert "projector.js" in page.text
    assert client.get("/projector.js").status_code == 200
    assert client.get("/projector.css").headers["content-type"].startswith("text/css")


def test_overlays_arrive_in_projector_px_only_once_calibrated(client) -> None:
    body = {"overlays": [{"layer": "step", "rings": [[[100, 50], [150, 50], [150, 80]]]},
                         {"layer": "last_move", "rings": [[[0, 0], [10, 10]]], "closed": False}]}
    assert client.post("/api/projector/overlays", json=body).json()["overlays"] == 2
    f, _ = _frame(client)
    assert not f["calibrated"] and f["overlays"] == []
    assert client.put("/api/projector/calibration", json=CAL).status_code == 200
    f, _ = _frame(client)
    assert f["calibrated"] and f["size"] == [1280, 800]
    step = next(o for o in f["overlays"] if o["layer"] == "step")
    assert step["rings_px"] == [[[210.0, 600.0], [310.0, 600.0], [310.0, 540.0]]]
    path = next(o for o in f["overlays"] if o["layer"] == "last_move")
    assert path["closed"] is False and path["rings_px"] == [[[10.0, 700.0], [30.0, 680.0]]]
    assert client.get("/api/projector/calibration").json()["points"] == 70


def test_bad_input_is_refused_naming_the_field(client) -> None:
    cases = [  # (method, url, body, field named)
        ("put", "/api/projector/style", {"brightness": 2}, "brightness"),
        ("put", "/api/projector/style", {"colors": {"moon": "#ffffff"}}, "colors.moon"),
        ("put", "/api/projector/style", {"colors": {"step": "green"}}, "colors.step"),
        ("put", "/api/projector/style", {"hidden": ["nope"]}, "hidden"),
        ("put", "/api/projector/calibration", {**CAL, "projector_size": [0, 1]}, "projector_size"),
        ("post", "/api/projector/overlays", {"overlays": [{"layer": "sky", "rings": []}]},
         "layer"),
        ("post", "/api/projector/ack", {"request_id": "x"}, "request_id"),
    ]
    for method, url, body, field in cases:
        r = getattr(client, method)(url, json=body)
        assert r.status_code == 422, (url, body)
        assert field in r.text
    assert client.get("/api/projector/calibration").status_code == 404


def test_style_changes_are_pushed_and_hidden_layers_left_out(client) -> None:
    client.put("/api/projector/calibration", json=CAL)
    client.post("/api/projector/overlays", json={"overlays": [
        {"layer": "reach", "rings": [[[0, 0], [10, 0], [0, 10]]]},
        {"layer": "ruler", "rings": [[[0, 0], [10, 0], [0, 10]]]}]})
    _, v = _frame(client)
    r = client.put("/api/projector/style", json={"brightness": 0.5, "hidden": ["reach"],
                                                 "colors": {"ruler": "#FF0000"}})
    assert r.status_code == 200
    f, v2 = _frame(client, since=v, wait_s=2.0)
    assert v2 > v
    assert f["style"]["brightness"] == 0.5 and f["style"]["colors"]["ruler"] == "#ff0000"
    assert [o["layer"] for o in f["overlays"]] == ["ruler"]


def test_long_poll_waits_for_news_and_times_out_without(client) -> None:
    _, v = _frame(client)
    t0 = time.monotonic()
    _f, v2 = _frame(client, since=v, wait_s=0.3)
    assert v2 == v and time.monotonic() - t0 >= 0.25


def test_blank_handshake_returns_when_the_page_confirms(client) -> None:
    ctrl = controller_for(client.app)
    assert ctrl.request_mode("blank", timeout_s=0.1) is None  # no page: capture goes on
    got: list[float | None] = []
    t_start = time.time()
    th = threading.Thread(target=lambda: got.append(ctrl.request_mode("blank", 5.0)))
    th.start()
    for _ in range(100):  # the page: sees the request, draws black, acknowledges
        f, _ = _frame(client)
        if f["mode"] == "blank" and f["request_id"] == 2:
            break
        time.sleep(0.01)
    r = client.post("/api/projector/ack", json={"request_id": f["request_id"]})
    assert r.status_code == 200
    th.join(5.0)
    assert got and got[0] is not None and got[0] >= t_start
    with ctrl.blanked(timeout_s=0.05) as t:
        assert t is None and ctrl.mode == "blank"
    assert ctrl.mode == "overlays"


def test_pattern_png_is_the_board_the_calibration_looks_for(client) -> None:
    client.post("/api/projector/ack", json={"request_id": 0, "size": [1024, 768]})
    img = cv2.imdecode(np.frombuffer(client.get("/api/projector/pattern.png").content, np.uint8),
                       cv2.IMREAD_COLOR)
    ctrl = controller_for(client.app)
    assert img.shape[:2] == (768, 1024) and ctrl.pattern.size_px == (1024, 768)
    found = find_pattern(img, ctrl.pattern)
    assert not isinstance(found, VisionFailure)
    assert np.abs(found[0] - ctrl.pattern.corners_px()[found[1]]).max() < 0.1


class FakeSession:
    """The parts of web.session.Session the projector reads, on a real table and rules."""

    def __init__(self, table: Table) -> None:
        self._table, self.config, self.version = table, DEFAULT_CONFIG, 1
        self.last_move = {"ship": "M1", "before": {"stern": [300.0, 300.0], "heading": 0.0},
                          "after": {"stern": [372.61, 300.0], "heading": 0.0},
                          "steps": [{"stern": [336.31, 300.0], "heading": 0.0},
                                    {"stern": [372.61, 300.0], "heading": 0.0}]}

    def table(self, view: str = "live") -> Table:
        return self._table

    def close(self) -> None:  # the server closes its session on shutdown
        pass

    def zones(self, ship_id: str) -> dict:
        return referee.zones(self._table, ship_id, self.config, resolution_deg=5.0)

    def shot(self, shooter: str, target: str) -> dict:
        return {"verdict": "yes", "ruler": [[0, 0], [10, 0], [5, 40]],
                "line_of_fire": [[0, 0], [10, 0], [5, 20]]}


def _table() -> Table:
    return Table(PlayArea.rectangle(80, 80, 820, 520), (
        Ship("M1", "B", Size.MEDIUM, Pose(372.61, 300.0, 0.0)),
        Ship("L1", "A", Size.LARGE, Pose(600.0, 300.0, 180.0))))


def test_selection_shows_the_ships_zones_the_ruler_and_the_last_move() -> None:
    ctrl = ProjectorController(ProjectorCalibration.from_dict(CAL))
    session = FakeSession(_table())
    ctrl.select("M1", {"ruler": [[0, 0], [10, 0], [5, 40]], "line_of_fire": [[0, 0], [5, 5],
                                                                          [10, 0]]})
    assert ctrl.sync(session)
    layers = [o.layer for o in ctrl.overlays]
    assert {"firing", "ruler", "line_of_fire", "last_move"} <= set(layers)
    assert layers.count("firing") == 2  # both broadsides (§5)
    assert not ctrl.sync(session)       # nothing changed: nothing recomputed
    v = ctrl.hub.version
    session.version += 1                # a new camera frame, the same poses
    assert not ctrl.sync(session) and ctrl.hub.version == v   # nothing new to publish
    session._table = session._table.replace_ship(
        session._table.ship("L1").with_pose(Pose(610.0, 300.0, 180.0)))
    session.version += 1                # L1 moved: its clearance cut moves with it
    assert ctrl.sync(session) and ctrl.hub.version > v
    ctrl.select(None)
    ctrl.sync(session)
    assert {o.layer for o in ctrl.overlays} == {"last_move"}


def test_light_is_kept_clear_of_the_ships_on_the_table() -> None:
    """The projection must not fall on the pieces the camera measures: every drawn shape stays
    ``clear_mm`` away from every ship's silhouette (here the selected ship's own firing zones
    and the last move's outline touch it)."""
    import shapely

    ctrl = ProjectorController(ProjectorCalibration.from_dict(CAL))
    table = _table()
    session = FakeSession(table)
    ctrl.select("M1")
    ctrl.sync(session)
    inv = np.linalg.inv(np.array(H_SIMPLE))

    def gaps(frame):
        for o in frame["overlays"]:
            for ring in o["rings_px"]:
                q = np.column_stack((np.array(ring), np.ones(len(ring)))) @ inv.T
                line = shapely.LineString(q[:, :2] / q[:, 2:3])
                yield min(line.distance(s.silhouette(DEFAULT_CONFIG)) for s in table.ships)

    frame = ctrl.frame_json()
    assert len(frame["overlays"]) >= 3
    assert min(gaps(frame)) >= ctrl.style.clear_mm - 0.05
    ctrl.set_style(ProjectorStyle(clear_mm=0.0))
    assert min(gaps(ctrl.frame_json())) < 0.5  # unclipped, the firing zones start on the ship


def test_select_endpoint_with_the_referee_server_needs_the_token() -> None:
    from armada_vision.web.app import create_app

    app = create_app(None, standard_layout(900, 600), token="tok")
    app.state.armada.session = FakeSession(_table())
    with TestClient(app) as c:
        assert c.post("/api/projector/select", json={"ship": "M1"}).status_code == 403
        assert c.put("/api/projector/style", json={"brightness": 0.2}).status_code == 403
        h = {"X-Armada-Token": "tok"}
        assert c.put("/api/projector/calibration", json=CAL, headers=h).status_code == 200
        r = c.post("/api/projector/select", headers=h,
                   json={"ship": "M1", "shot": {"shooter": "M1", "target": "L1"}})
        assert r.status_code == 200, r.text
        f = c.get("/api/projector/frame").json()
        ruler = next(o for o in f["overlays"] if o["layer"] == "ruler")
        assert [20.0, 620.0] in ruler["rings_px"][0]   # (5, 40) mm → (2·5+10, −2·40+700)
        assert c.get("/projector").status_code == 200


def test_zones_of_the_rules_become_overlays() -> None:
    z = referee.zones(_table(), "M1", DEFAULT_CONFIG, resolution_deg=5.0)
    ovs = overlays_from_zones(z)
    assert sum(o.layer == "firing" for o in ovs) == 2
    for o in ovs:
        assert all(len(r) >= 3 for r in o.rings_mm)


def test_last_move_path_runs_stern_to_stern_and_ends_at_the_tip() -> None:
    d = NOMINAL_PIECES.dims(Size.SMALL)
    before = Pose(100, 100, 0)
    s1 = Pose(100 + d.footprint_length_mm, 100, 30)
    ovs = overlays_from_move(before, [s1], d)
    path = next(o for o in ovs if not o.closed).rings_mm[0]
    assert path[0] == before.stern_mm and path[1] == s1.stern_mm
    assert np.allclose(path[2], s1.tip_mm(d.footprint_length_mm))
    assert sum(o.closed for o in ovs) == 2  # the footprint before and after the step


def test_drawing_respects_brightness_fill_and_hidden_layers() -> None:
    sq = (((100.0, 100.0), (300.0, 100.0), (300.0, 300.0), (100.0, 300.0)),)
    H = np.array(H_SIMPLE)
    style = ProjectorStyle(colors=(("step", "#40c080"),), brightness=0.5, fill_alpha=0.5,
                           line_px=3)
    img = draw_overlays([Overlay("step", sq)], H, (1280, 800), style)
    inside = img[700 - 400, 10 + 400]            # table (200, 200) → px (410, 300)
    assert np.allclose(inside, [0x80 * 0.25, 0xc0 * 0.25, 0x40 * 0.25], atol=1.5)
    edge = img[700 - 200, 10 + 400]              # on the outline y = 100 mm → row 500
    assert np.allclose(edge, [0x80 * 0.5, 0xc0 * 0.5, 0x40 * 0.5], atol=1.5)
    assert img[50, 50].max() == 0                # outside: no light
    hidden = draw_overlays([Overlay("step", sq)], H, (1280, 800),
                           ProjectorStyle(hidden=("step",)))
    assert hidden.max() == 0
