"""Calibration through the referee server end to end: ``POST /api/projector/calibrate`` on the
app of ``web.app.create_app`` with a simulated camera source (renders of the table lit by what
the simulated page shows) and a simulated page that acknowledges like the browser does. The
frames reach the projector through the server's pipeline (its pushed JPEG, scaled back)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from projector_sim import SimCameraSource, SimPage, lit_region, make_rig

from armada_vision.vision.projector import mapping_error_mm
from armada_vision.vision.types import VisionFailure
from armada_vision.web.analysis import FrameAnalysis
from armada_vision.web.app import create_app
from armada_vision.web.projector import ProjectorController


def _no_vision(frame, seq: int, captured_at: float) -> FrameAnalysis:
    """The pipeline's analyser is not under test here: every frame is 'nothing found'."""
    h, w = frame.shape[:2]
    return FrameAnalysis(seq, captured_at, (w, h), failure=VisionFailure("occluded", "stub"))


def test_calibrate_endpoint_through_the_live_pipeline() -> None:
    rig = make_rig(6, camera_px=(1280, 720))
    ctrl = ProjectorController(pattern_size=rig.projector.intrinsics.image_size)
    page = SimPage(ctrl, rig.projector.intrinsics.image_size)
    source = SimCameraSource(rig, page)
    # the pushed JPEG is 960 px wide: the projector scales it back to the camera's 1280
    app = create_app(source, rig.layout, camera=rig.camera.intrinsics, analyser=_no_vision,
                     token="tok", jpeg_width=960)
    app.state.projector = ctrl
    try:
        with TestClient(app) as c:
            assert c.post("/api/projector/calibrate").status_code == 403
            r = c.post("/api/projector/calibrate", headers={"X-Armada-Token": "tok"})
            assert r.status_code == 200, r.text
            status = r.json()
            assert status["ok"], status
            assert status["residual_mean_mm"] < 0.5
            frame = c.get("/api/projector/frame").json()
            assert frame["calibrated"] and frame["mode"] == "overlays"
            h = {"X-Armada-Token": "tok"}
            quiet = c.post("/api/projector/check", headers=h).json()
            assert quiet["moved"] is False, quiet
            source.rig = rig.moved(5.0)      # someone knocks the projector
            moved = c.post("/api/projector/check", headers=h).json()
            assert moved["moved"] is True and 3.0 < moved["residual_mean_mm"] < 8.0, moved
            assert "calibrate again" in c.get("/api/projector/frame").json()["status"]["reason"]
    finally:
        page.close()
    assert {"pattern", "blank"} <= set(page.shown)
    mean, _ = mapping_error_mm(ctrl.calibration, rig.H_projector_from_table, lit_region(rig))
    assert mean <= 1.0
