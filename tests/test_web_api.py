"""The referee server through FastAPI's TestClient: state, frames, zones, shot verdicts (§5),
join-token control, validation, uploads, pushed events, latest-frame semantics, serve."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
import shapely
from conftest import TruthAnalyser, wait_until
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.web.app import create_app
from armada_vision.web.hub import FramePacket, Hub
from armada_vision.web.images import decode_upload, header_size, qr_text, sniff
from armada_vision.web.security import token_ok
from armada_vision.web.sources import ArraySource, FolderSource, SourceSpec

TOKEN = "secret-join-token"
CTRL = {"X-Armada-Token": TOKEN}




@pytest.fixture()
def client(rendered_scene) -> Iterator[TestClient]:
    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=TruthAnalyser(rendered_scene), token=TOKEN)
    with TestClient(app) as c:
        _wait_for_the_game(c)
        yield c


def _wait_for_the_game(c: TestClient) -> None:
    """Until the table is settled and the game log has started from it: the game starts on the
    game thread after the settled view is shown, so an action sent in between would be refused
    (a race the loaded CI machine can lose)."""
    wait_until(lambda: (s := c.get("/api/state").json()).get("settled") and s["turn"]["started"])


def _poly(rings) -> shapely.Polygon:
    return shapely.Polygon(rings[0], rings[1:])


# ---- reading ------------------------------------------------------------------------------------

def test_state_has_the_true_ships_and_a_homography_onto_the_image(client, rendered_scene) -> None:
    s = client.get("/api/state").json()
    assert s["calibration"]["ok"] and s["calibration"]["markers_found"] == list(range(8))
    assert s["image_size"] == [960, 540] and s["control"] is False
    ships = {x["id"]: x for x in s["ships"]}
    assert sorted(ships) == ["L1", "M1", "S1"]
    assert {x["player"] for x in ships.values()} == {"A", "B"}
    assert ships["L1"]["player"] == "A" and ships["S1"]["player"] == "B"
    truth = dict(zip(("L1", "S1", "M1"), (p for _s, p in rendered_scene.pieces), strict=True))
    H = np.array(s["H_image_from_table"])
    for sid, pose in truth.items():
        assert ships[sid]["stern"] == pytest.approx([pose.x_mm, pose.y_mm], abs=0.01)
        # the served homography puts the stern where the renderer's camera does
        px = H @ [pose.x_mm, pose.y_mm, 1.0]
        cam = rendered_scene.H_image_from_table @ [pose.x_mm, pose.y_mm, 1.0]
        assert px[:2] / px[2] == pytest.approx(cam[:2] / cam[2], abs=1e-6)
        d = NOMINAL_PIECES.dims(Size(ships[sid]["size"]))
        outline = shapely.Polygon(ships[sid]["outline"])
        assert outline.contains(footprint(pose, d).buffer(-0.05))  # silhouette ⊇ footprint


def test_frame_is_the_newest_jpeg_scaled_for_phones(rendered_scene) -> None:
    big = [cv2.resize(f, (1920, 1080)) for f in rendered_scene.frames]
    app = create_app(ArraySource(big, fps=30), rendered_scene.layout,
                     analyser=TruthAnalyser(rendered_scene), token=TOKEN, jpeg_width=1280)
    with TestClient(app) as c:
        wait_until(lambda: c.get("/api/frame.jpg").status_code == 200)
        r = c.get("/api/frame.jpg")
        assert r.headers["content-type"] == "image/jpeg" and r.content[:3] == b"\xff\xd8\xff"
        img = cv2.imdecode(np.frombuffer(r.content, np.uint8), cv2.IMREAD_COLOR)
        assert img.shape[:2] == (720, 1280)
        seq = int(r.headers["x-frame-seq"])
        wait_until(lambda: int(c.get("/api/frame.jpg").headers["x-frame-seq"]) > seq)
        assert float(r.headers["x-captured-at"]) <= time.time()


def test_a_small_reaches_further_than_one_step(client) -> None:
    """§4: a Small moves up to four steps: its reachable region holds its one-step zone and
    more."""
    z = client.get("/api/ships/S1/zones").json()
    assert z["step"] and z["reach"]
    step = shapely.unary_union([_poly(p) for p in z["step"]])
    reach = shapely.unary_union([_poly(p) for p in z["reach"]])
    assert reach.buffer(0.5).contains(step) and reach.area > 2 * step.area


def test_zones_of_a_ship(client) -> None:
    z = client.get("/api/ships/L1/zones").json()
    port, starboard = _poly(z["firing"]["port"][0]), _poly(z["firing"]["starboard"][0])
    s1 = footprint(Pose(260.0, 340.0, 0.0), NOMINAL_PIECES.small)
    assert port.intersection(s1).area > 0 and not starboard.intersects(s1)   # §5 broadsides
    # §5: each zone is a trapezoid 46.229 mm deep on a 47.941 mm long side
    assert port.area == pytest.approx((47.941 + 22.541) / 2 * 46.229, rel=0.02)
    if z["step"]:
        step = shapely.unary_union([_poly(p) for p in z["step"]])
        tip = shapely.Point(250.0 + 46.229, 300.0)
        assert step.area > 0 and step.distance(tip) < 1.0      # §4.1: a step starts at the tip
        assert not step.intersects(footprint(Pose(250, 300, 0), NOMINAL_PIECES.large)
                                   .buffer(-0.5))
        if z["reach"]:    # §4: a Large moves one step, so its reach is its one-step zone
            reach = shapely.unary_union([_poly(p) for p in z["reach"]])
            assert reach.buffer(0.5).contains(step)
            assert reach.area == pytest.approx(step.area, rel=0.1)
    else:
        assert any("step" in n for n in z["notes"])


def test_shot_verdicts_yes_with_ruler_and_no_out_of_range(client) -> None:
    v = client.post("/api/shot", json={"shooter": "L1", "target": "S1"}).json()
    assert v["verdict"] == "yes" and not v["in_doubt"] and v["side"] == "port"   # §5
    assert v["margin_mm"] > v["allowance_mm"] > 0
    assert len(v["ruler"]) == 3 and len(v["line_of_fire"]) >= 3 and v["can_record"]
    s1 = footprint(Pose(260.0, 340.0, 0.0), NOMINAL_PIECES.small)
    assert shapely.Polygon(v["ruler"]).intersection(s1).area > 0
    far = client.post("/api/shot", json={"shooter": "L1", "target": "M1"}).json()
    assert far["verdict"] == "no" and far["margin_mm"] < 0 and "range" in far["reason"]
    assert far["can_record"] is False


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"shooter": "L1!", "target": "S1"}, 422, "shooter"),
    ({"shooter": "L1"}, 422, "target"),
    ({"shooter": "L1", "target": "S1", "extra": 1}, 422, "extra"),
    ({"shooter": "L1", "target": "S1", "view": "../etc"}, 422, "view"),
    ({"shooter": "L1", "target": "Q7"}, 404, "target"),
    ({"shooter": "L1", "target": "L1"}, 422, "target"),
])
def test_bad_shot_requests_are_clean_json_errors(client, body, status, field) -> None:
    r = client.post("/api/shot", json=body)
    assert r.status_code == status
    err = r.json()["error"]
    assert field in err and "Traceback" not in r.text


def test_unknown_routes_and_crashes_are_json_without_traceback(client, monkeypatch) -> None:
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json()["error"]

    def boom(*_a, **_k):
        raise RuntimeError("secret internals")

    from armada_vision.web.session import Session

    monkeypatch.setattr(Session, "zones", boom)
    # No ``with``: the fixture's client already runs the app's pipeline.
    r = TestClient(client.app, raise_server_exceptions=False).get("/api/ships/L1/zones")
    assert r.status_code == 500 and "secret" not in r.text and r.json()["error"]


# ---- control --------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "body"), [
    ("/api/hit", {"shooter": "L1", "target": "S1"}),
    ("/api/undo", None),
    ("/api/turn/end", None),
    ("/api/damage", {"ship": "M1", "delta": 1}),
])
@pytest.mark.parametrize("headers", [{}, {"X-Armada-Token": "wrong"},
                                     {"X-Armada-Token": TOKEN[:-1]}])
def test_control_needs_the_join_token(client, path, body, headers) -> None:
    before = client.get("/api/state").json()["turn"]
    r = client.post(path, json=body, headers=headers)
    assert r.status_code == 403 and "token" in r.json()["error"]
    assert client.get("/api/state").json()["turn"] == before


def test_upload_needs_the_join_token(client) -> None:
    r = client.post("/api/upload", files={"file": ("a.png", b"\x89PNG\r\n\x1a\n", "image/png")})
    assert r.status_code == 403


def test_hit_damage_sinks_and_undo_restores(client) -> None:
    assert client.get("/api/auth", headers=CTRL).json() == {"control": True}
    r = client.post("/api/hit", json={"shooter": "L1", "target": "S1"}, headers=CTRL)
    assert r.status_code == 200 and r.json()["recorded"]
    s = client.get("/api/state").json()
    # §5: a Small has one pip; one hit sinks it and it leaves the table
    assert "S1" not in [x["id"] for x in s["ships"]] and [x["id"] for x in s["sunk"]] == ["S1"]
    assert s["turn"]["actions_left"] == 2 and s["turn"]["fired"] == {"L1": 1}
    assert s["can_undo"]
    r = client.post("/api/undo", headers=CTRL)
    assert r.json()["undone"].startswith("L1 x S1")
    s = client.get("/api/state").json()
    assert "S1" in [x["id"] for x in s["ships"]] and s["turn"]["actions_left"] == 3
    assert client.post("/api/undo", headers=CTRL).status_code == 409   # nothing left to undo


def test_a_miss_cannot_be_recorded_and_turn_rules_apply(client) -> None:
    r = client.post("/api/hit", json={"shooter": "L1", "target": "M1"}, headers=CTRL)
    assert r.status_code == 409 and "not a hit" in r.json()["error"]
    assert client.post("/api/turn/end", headers=CTRL).json()["state"]["turn"]["player"] == "B"
    r = client.post("/api/hit", json={"shooter": "L1", "target": "S1"}, headers=CTRL)
    assert r.status_code == 409 and "B's turn" in r.json()["error"]                 # §3
    v = client.post("/api/shot", json={"shooter": "L1", "target": "S1"}).json()
    assert v["verdict"] == "yes" and not v["can_record"] and "B's turn" in v["turn_note"]


def test_a_small_fires_once_a_turn(client) -> None:
    """§3: a ship fires fewer times a turn than it has pips; a Small has one."""
    client.post("/api/turn/end", headers=CTRL)                     # B's turn
    v = client.post("/api/shot", json={"shooter": "S1", "target": "L1"}).json()
    assert v["verdict"] == "yes" and v["side"] == "starboard" and v["can_record"]
    r = client.post("/api/hit", json={"shooter": "S1", "target": "L1"}, headers=CTRL)
    assert r.status_code == 200
    s = r.json()["state"]
    assert s["turn"]["actions_left"] == 2 and s["turn"]["fired"] == {"S1": 1}
    assert {x["id"]: x["damage"] for x in s["ships"]}["L1"] == 1
    v = client.post("/api/shot", json={"shooter": "S1", "target": "L1"}).json()
    assert v["verdict"] == "yes" and not v["can_record"] and "pips" in v["turn_note"]
    r = client.post("/api/hit", json={"shooter": "S1", "target": "L1"}, headers=CTRL)
    assert r.status_code == 409 and "pips" in r.json()["error"]


@pytest.mark.parametrize("body", [{"ship": "M1", "delta": 2}, {"ship": "M1", "delta": -1},
                                  {"ship": "M 1", "delta": 1}, {"delta": 1}])
def test_damage_counter_validates(client, body) -> None:
    r = client.post("/api/damage", json=body, headers=CTRL)
    assert r.status_code == 422 and r.json()["error"]


def test_damage_counter_steps(client) -> None:
    client.post("/api/damage", json={"ship": "M1", "delta": 1}, headers=CTRL)
    ships = {x["id"]: x for x in client.get("/api/state").json()["ships"]}
    assert ships["M1"]["damage"] == 1
    assert client.post("/api/damage", json={"ship": "Z9", "delta": 1},
                       headers=CTRL).status_code == 404


# ---- uploads --------------------------------------------------------------------------------

def _png(img: np.ndarray) -> bytes:
    return cv2.imencode(".png", img)[1].tobytes()


def test_upload_is_analysed_and_judged_like_a_frame(client, rendered_scene) -> None:
    data = cv2.imencode(".jpg", rendered_scene.frames[0])[1].tobytes()
    r = client.post("/api/upload", files={"file": ("p.jpg", data, "image/jpeg")}, headers=CTRL)
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["view"] == "upload" and sorted(x["id"] for x in s["ships"]) == ["L1", "M1", "S1"]
    assert client.get("/api/upload.jpg").content[:3] == b"\xff\xd8\xff"
    v = client.post("/api/shot", json={"shooter": "L1", "target": "S1", "view": "upload"}).json()
    assert v["verdict"] == "yes" and v["view"] == "upload"


@pytest.mark.parametrize(("data", "status", "words"), [
    (b"GIF89a" + b"\0" * 100, 415, "not a JPEG"),
    (b"", 422, "empty"),
    (b"\xff\xd8\xff\xe0" + b"\0" * 100, 422, "cannot be decoded"),
    (b"<?php echo 1; ?>", 415, "not a JPEG"),
])
def test_bad_uploads_are_refused(client, data, status, words) -> None:
    r = client.post("/api/upload", files={"file": ("x.jpg", data, "image/jpeg")}, headers=CTRL)
    assert r.status_code == status and words in r.json()["error"]


def test_upload_limits_bytes_and_pixels() -> None:
    with pytest.raises(ValueError, match="byte limit"):
        decode_upload(b"\xff\xd8\xff" + b"\0" * 2000, max_bytes=1000)
    big = _png(np.zeros((300, 400, 3), np.uint8))
    assert header_size(big, "png") == (400, 300)
    with pytest.raises(ValueError, match="pixels"):
        decode_upload(big, max_pixels=100_000)
    jpg = cv2.imencode(".jpg", np.zeros((300, 400, 3), np.uint8))[1].tobytes()
    assert sniff(jpg) == "jpeg" and header_size(jpg, "jpeg") == (400, 300)
    with pytest.raises(ValueError, match="pixels"):
        decode_upload(jpg, max_pixels=100_000)
    assert decode_upload(jpg).shape == (300, 400, 3)


def test_oversized_upload_is_refused_by_the_server(client, monkeypatch) -> None:
    import armada_vision.web.app as web_app

    monkeypatch.setattr(web_app, "MAX_UPLOAD_BYTES", 1000)
    data = _png(np.random.default_rng(0).integers(0, 255, (100, 100, 3), dtype=np.uint8))
    r = client.post("/api/upload", files={"file": ("x.png", data, "image/png")}, headers=CTRL)
    assert r.status_code == 413 and "limit" in r.json()["error"]


# ---- pushed updates and the pipeline ----------------------------------------------------------

def test_events_push_frames_and_state(client) -> None:
    text = client.get("/api/events?max_events=2").text
    events = [b for b in text.split("\n\n") if b.startswith("event:")]
    kinds = {b.split("\n")[0] for b in events}
    assert kinds == {"event: frame", "event: state"}
    for b in events:
        data = json.loads(b.split("data: ", 1)[1])
        if b.startswith("event: state"):
            assert [x["id"] for x in data["ships"]] and data["turn"]["player"] == "A"
        else:
            assert data["seq"] >= 1 and data["image_size"] == [960, 540]
    assert client.get("/api/events?max_events=-1").status_code == 422


def test_slow_vision_never_holds_back_capture(rendered_scene) -> None:
    """Latest-frame semantics: vision works on the newest frame and skips the rest."""
    slow = TruthAnalyser(rendered_scene, delay_s=0.2)
    app = create_app(ArraySource(list(rendered_scene.frames), fps=None), rendered_scene.layout,
                     analyser=slow, token=TOKEN)
    with TestClient(app) as c:
        wait_until(lambda: c.get("/api/health").json()["frames_analysed"] >= 3)
        h = c.get("/api/health").json()
    assert h["frames_captured"] > 3 * h["frames_analysed"] and h["vision_skipped"] > 0


def test_hub_keeps_only_the_newest_frame() -> None:
    hub = Hub()
    for i in range(1, 1001):
        hub.publish_frame(FramePacket(i, float(i), b"x", (1, 1)))
    assert hub.frame.seq == 1000 and hub.version == 1000 and hub.clients == 0


def test_a_looping_demo_starts_a_new_game(rendered_scene) -> None:
    app = create_app(ArraySource(list(rendered_scene.frames[:2]), fps=30), rendered_scene.layout,
                     analyser=TruthAnalyser(rendered_scene), token=TOKEN, restart_on_loop=True)
    with TestClient(app) as c:
        wait_until(lambda: any("starts over" in x for x in c.get("/api/state").json()["log"]))


def test_a_settled_move_is_judged_and_counted(rendered_scene) -> None:
    """§4: after the table settles with a ship one step further on, the move verdict shows its
    steps and, on B's turn, counts as B's action."""
    pytest.importorskip("armada_vision.rules.move")
    analyser = TruthAnalyser(rendered_scene)
    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=analyser, token=TOKEN)
    with TestClient(app) as c:
        _wait_for_the_game(c)
        c.post("/api/turn/end", headers=CTRL)
        m_pose = Pose(450.0, 450.0, 90.0)
        after = Pose(450.0, 450.0 + NOMINAL_PIECES.medium.footprint_length_mm, 150.0)
        analyser.pieces = [(s, after if p == m_pose else p) for s, p in analyser.pieces]
        s = wait_until(lambda: (c.get("/api/state").json()
                           if c.get("/api/state").json()["last_move"] else None))
        m = s["last_move"]
        assert m["ship"] == "M1" and m["verdict"] == "yes" and len(m["steps"]) == 1, m
        assert m["steps"][0]["stern"] == pytest.approx([after.x_mm, after.y_mm], abs=2.0)
        assert s["turn"]["moved"] == ["M1"] and s["turn"]["actions_left"] == 2


# ---- pieces of the server --------------------------------------------------------------------

def test_token_comparison() -> None:
    assert token_ok(TOKEN, TOKEN)
    assert not token_ok(TOKEN + "x", TOKEN) and not token_ok("", TOKEN)
    assert not token_ok("tökén", TOKEN) and not token_ok(TOKEN, "")


def test_qr_code_in_the_terminal_reads_back() -> None:
    url = "http://192.168.1.23:8000/?token=abcDEF123_-xyz"
    text = qr_text(url)
    assert text is not None
    top = {"█": (0, 0), "▀": (0, 1), "▄": (1, 0), " ": (1, 1)}   # (upper dark, lower dark)
    rows = []
    for line in text.split("\n"):
        rows.append([top[ch][0] for ch in line])
        rows.append([top[ch][1] for ch in line])
    img = np.where(np.array(rows, np.uint8) == 1, 0, 255).astype(np.uint8)
    img = cv2.resize(np.pad(img, 4, constant_values=255), None, fx=8, fy=8,
                     interpolation=cv2.INTER_NEAREST)
    decoded, _pts, _ = cv2.QRCodeDetector().detectAndDecode(img)
    assert decoded == url


@pytest.mark.parametrize(("text", "kind"), [("demo", "demo"), ("webcam:2", "webcam")])
def test_source_spec(text, kind) -> None:
    assert SourceSpec.parse(text).kind == kind


@pytest.mark.parametrize("text", ["webcam:x", "/no/such/thing", "webcam:"])
def test_bad_source_spec(text) -> None:
    with pytest.raises(ValueError, match="source"):
        SourceSpec.parse(text)


def test_serve_refuses_bad_input_in_one_line(capsys, tmp_path, rendered_scene) -> None:
    from armada_vision.cli import main

    assert main(["serve", "--source", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "source" in err and "Traceback" not in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["serve", "--source", str(empty), "--layout", "60x60"]) == 2
    assert "no images" in capsys.readouterr().err
    assert main(["serve", "--source", str(rendered_scene.folder), "--port", "0"]) == 2
    assert "--port" in capsys.readouterr().err
    assert main(["serve", "--source", str(rendered_scene.folder), "--layout",
                 str(tmp_path / "x.json")]) == 2
    assert "layout" in capsys.readouterr().err


def test_folder_source_reads_in_name_order_and_loops(rendered_scene) -> None:
    src = FolderSource(rendered_scene.folder, fps=None)
    frames = [src.read() for _ in range(4)]
    assert src.loop_count == 1
    assert np.array_equal(frames[0], frames[3]) and not np.array_equal(frames[0], frames[1])


def test_doubt_shows_in_the_shot_reason(rendered_scene) -> None:
    """§7: a target barely in range is a no in doubt, and the page gets the reason."""
    near = Pose(260.0, 355.5, 0.0)   # 15.5 mm further out than the sure hit: depth ≈ 0.5 mm
    analyser = TruthAnalyser(rendered_scene)
    analyser.pieces = [("large", Pose(250.0, 300.0, 0.0)), ("small", near)]
    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=analyser, token=TOKEN)
    with TestClient(app) as c:
        wait_until(lambda: len(c.get("/api/state").json()["ships"]) == 2)
        v = c.post("/api/shot", json={"shooter": "L1", "target": "S1"}).json()
    assert v["verdict"] == "no" and v["in_doubt"] and abs(v["margin_mm"]) <= v["allowance_mm"]
    assert not v["can_record"]


def test_upload_reads_no_path_from_the_client(client, rendered_scene) -> None:
    data = _png(rendered_scene.frames[1])
    r = client.post("/api/upload", files={"file": ("../../etc/passwd", io.BytesIO(data),
                                                   "image/png")}, headers=CTRL)
    assert r.status_code == 200 and r.json()["view"] == "upload"


def test_demo_is_rendered_into_the_cache_when_no_checkout_has_it(tmp_path, monkeypatch) -> None:
    import armada_vision.synth.sequence as sequence
    import armada_vision.web.demo as demo

    calls = []

    def fake_write_demo(out_dir) -> None:   # the real one renders 120 frames
        calls.append(out_dir)
        (out_dir / "frame_0000.jpg").write_bytes(b"\xff\xd8\xff")
        (out_dir / "layout.json").write_text("{}")

    monkeypatch.setattr(demo, "repo_demo", lambda: None)
    monkeypatch.setattr(sequence, "write_demo", fake_write_demo)
    cache = tmp_path / "cache" / "demo"
    assert demo.ensure_demo(cache) == cache and calls == [cache]
    assert demo.ensure_demo(cache) == cache and len(calls) == 1     # rendered once


def test_serve_prints_the_join_url_and_qr(monkeypatch, capsys, rendered_scene) -> None:
    import uvicorn

    from armada_vision.cli import main

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    assert main(["serve", "--source", str(rendered_scene.folder), "--db", "-",
                 "--host", "127.0.0.1", "--port", "8123"]) == 0
    out = capsys.readouterr().out
    token = seen["app"].state.armada.token
    assert f"http://127.0.0.1:8123/?token={token}" in out and "█" in out
    assert seen["port"] == 8123 and "in memory" in out


def test_a_vision_failure_reaches_the_page_as_a_reason(rendered_scene) -> None:
    from armada_vision.vision.types import VisionFailure
    from armada_vision.web.analysis import FrameAnalysis

    def blind(frame, seq, t):
        return FrameAnalysis(seq, t, (frame.shape[1], frame.shape[0]),
                             failure=VisionFailure("too_few_markers", "only 1 marker visible"))

    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=blind, token=TOKEN)
    with TestClient(app) as c:
        s = wait_until(lambda: (st := c.get("/api/state").json())["frame_seq"] and st)
        assert s["calibration"] == {"ok": False, "code": "too_few_markers",
                                    "reason": "only 1 marker visible"}
        assert s["ships"] == [] and s["H_image_from_table"] is None
        assert s["turn"]["started"] is False
        r = c.post("/api/turn/end", headers=CTRL)
        assert r.status_code == 409 and "not started" in r.json()["error"]


def test_the_first_player_can_be_chosen(rendered_scene) -> None:
    """§2: one player chooses the fleets, the other who goes first."""
    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=TruthAnalyser(rendered_scene), token=TOKEN, first_player="B")
    with TestClient(app) as c:
        turn = wait_until(lambda: (t := c.get("/api/state").json()["turn"])["started"] and t)
        assert turn["player"] == "B" and turn["players"] == ["B", "A"]


def test_pages_carry_security_headers(client) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<svg" in r.text
    assert r.headers["referrer-policy"] == "no-referrer"          # the join URL has the token
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert client.get("/api/state").headers["x-content-type-options"] == "nosniff"


def test_motion_and_occlusion_reach_the_page(rendered_scene) -> None:
    from dataclasses import replace

    truth = TruthAnalyser(rendered_scene)

    def hand_over_table(frame, seq, t):
        return replace(truth(frame, seq, t), settled=False, moving=True, occluded=True)

    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=hand_over_table, token=TOKEN)
    with TestClient(app) as c:
        s = wait_until(lambda: (st := c.get("/api/state").json())["frame_seq"] and st)
        assert s["occluded"] and s["moving"] and not s["settled"]
        assert s["turn"]["started"] is False        # nothing is judged under a hand


def test_a_video_file_is_read_and_looped(tmp_path, rendered_scene) -> None:
    from armada_vision.web.sources import CaptureSource, open_source

    path = tmp_path / "game.avi"
    h, w = rendered_scene.frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5.0, (w, h))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for f in rendered_scene.frames:
        writer.write(f)
    writer.release()
    src = open_source(SourceSpec.parse(str(path)))
    assert isinstance(src, CaptureSource) and src.fps == pytest.approx(5.0)
    frames = [src.read() for _ in range(4)]
    assert all(f is not None and f.shape == (h, w, 3) for f in frames)
    assert src.loop_count == 1 and src.name == "video game.avi"
    src.close()
    with pytest.raises(ValueError, match="cannot open video"):
        CaptureSource(str(tmp_path / "nothing.avi"))


# ---- properties ------------------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(w=st.integers(1, 700), h=st.integers(1, 700), kind=st.sampled_from(["png", "jpeg"]))
def test_header_size_is_the_decoded_size(w, h, kind) -> None:
    data = cv2.imencode(".png" if kind == "png" else ".jpg", np.zeros((h, w, 3), np.uint8))[1]
    data = data.tobytes()
    assert sniff(data) == kind and header_size(data, kind) == (w, h)
    assert decode_upload(data).shape[:2] == (h, w)


@settings(max_examples=30, deadline=None)
@given(x=st.floats(-500, 500), y=st.floats(-500, 500), w=st.floats(5, 200),
       h=st.floats(5, 200), hole=st.floats(0.1, 0.8))
def test_zone_json_keeps_area_and_holes(x, y, w, h, hole) -> None:
    from armada_vision.web.referee import geometry_json

    outer = shapely.box(x, y, x + w, y + h)
    inner = shapely.box(x + w * (1 - hole) / 2, y + h * (1 - hole) / 2,
                        x + w * (1 + hole) / 2, y + h * (1 + hole) / 2)
    geom = shapely.MultiPolygon([outer.difference(inner),
                                 shapely.box(x + 2 * w, y, x + 3 * w, y + h)])
    polys = geometry_json(geom, nd=6)
    assert len(polys) == 2 and len(polys[0]) == 2            # the hole travels as a ring
    back = shapely.unary_union([_poly(p) for p in polys])
    assert back.area == pytest.approx(geom.area, rel=1e-6, abs=1e-6)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 8), jitter=st.floats(0.0, 5.0))
def test_ids_survive_jitter_and_order(seed, n, jitter) -> None:
    """Pieces at least 60 mm apart keep their ids when re-detected a few mm off, in any order."""
    from armada_vision.vision.types import DetectedPiece
    from armada_vision.web.analysis import IdKeeper

    rng = np.random.default_rng(seed)
    sizes = [Size.LARGE, Size.MEDIUM, Size.SMALL]
    pieces = []
    for i in range(n):
        pose = Pose(100.0 + 70.0 * i, 100.0 + 70.0 * (i % 3), float(rng.uniform(0, 360)))
        pieces.append(DetectedPiece(sizes[i % 3], "red", pose, pose.tip_mm(30.0), 0.3, 0.5, True))
    keeper = IdKeeper(settle_frames=2)
    first = {p.pose.stern_mm: p.track_id for p in keeper.assign(tuple(pieces))}
    moved = []
    for p in pieces:
        a = rng.uniform(0, 2 * np.pi)
        pose = p.pose.moved(jitter * np.cos(a), jitter * np.sin(a), float(rng.uniform(-2, 2)))
        moved.append((p.pose.stern_mm, DetectedPiece(p.size, p.color, pose, p.tip_mm, 0.3, 0.5,
                                                     True)))
    order = rng.permutation(n)
    again = keeper.assign(tuple(moved[i][1] for i in order))
    assert [q.track_id for q in again] == [first[moved[i][0]] for i in order]
    assert len({q.track_id for q in again}) == n
