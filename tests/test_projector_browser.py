"""The projector page in a real headless Chromium (Debian's, never a download) at a 1280×800
"projector" viewport, against a live server on 127.0.0.1: it draws the overlays where the
calibration puts them, blanks and shows the pattern on request and acknowledges."""

from __future__ import annotations

import base64
import time
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from browser import chromium, require_chromium, serve

pytestmark = pytest.mark.browser

require_chromium()
pytest.importorskip("playwright.sync_api")

H_SIMPLE = [[2.0, 0.0, 10.0], [0.0, -2.0, 700.0], [0.0, 0.0, 1.0]]  # px = (2x+10, 700−2y)
CAL = {"projector_size": [1280, 800], "H_projector_from_table": H_SIMPLE,
       "residual_mean_mm": 0.1, "residual_max_mm": 0.3, "points": 70, "found": 72}



@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, object]]:
    from fastapi import FastAPI

    from armada_vision.vision.projector import ProjectorCalibration, ProjectorStyle
    from armada_vision.web.projector import controller_for, overlays_from_json, router

    app = FastAPI()
    app.include_router(router)
    ctrl = controller_for(app)
    ctrl.set_calibration(ProjectorCalibration.from_dict(CAL))
    ctrl.set_style(ProjectorStyle(colors=(("step", "#00ff00"), ("ruler", "#ff0000")),
                                  brightness=1.0, fill_alpha=1.0, line_px=2.0, clear_mm=0.0))
    # a step zone square 100..300 mm → px 210..610 × 100..500; a ruler triangle elsewhere
    ctrl.set_overlays(overlays_from_json({"overlays": [
        {"layer": "step", "rings": [[[100, 100], [300, 100], [300, 300], [100, 300]]]},
        {"layer": "ruler", "rings": [[[400, 200], [450, 200], [425, 250]]]}]}))
    with serve(app) as url:
        yield url, ctrl


@pytest.fixture(scope="module")
def page(server):
    url, _ctrl = server
    with chromium() as b:
        ctx = b.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        pg = ctx.new_page()
        pg.goto(url + "/projector")
        pg.wait_for_function("frame && frame.overlays.length >= 2", timeout=20000)
        yield pg


def _canvas(pg) -> np.ndarray:
    data = pg.evaluate("document.getElementById('screen').toDataURL('image/png')")
    buf = np.frombuffer(base64.b64decode(data.split(",", 1)[1]), np.uint8)
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _wait_pixel(pg, x: int, y: int, bgr: tuple[int, int, int], timeout_s: float = 5.0) -> None:
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if np.abs(_canvas(pg)[y, x].astype(int) - bgr).max() <= 8:
            return
        time.sleep(0.05)
    pytest.fail(f"canvas pixel ({x}, {y}) never became {bgr}: {_canvas(pg)[y, x]}")


def test_overlays_are_drawn_where_the_calibration_puts_them(page) -> None:
    _wait_pixel(page, 410, 300, (0, 255, 0))    # table (200, 200) mm: inside the step zone
    img = _canvas(page)
    assert img.shape[:2] == (800, 1280)
    assert img[300, 150].max() == 0              # left of the zone (x = 70 mm): dark
    assert img[290, 860][2] > 200                # ruler at table (425, 205) mm: red
    assert img[700, 1200].max() == 0


def test_blank_and_pattern_requests_are_shown_then_acknowledged(page, server) -> None:
    from armada_vision.vision.projector import find_pattern
    from armada_vision.vision.types import VisionFailure

    _url, ctrl = server
    t0 = time.time()
    t_ack = ctrl.request_mode("blank", timeout_s=5.0)
    assert t_ack is not None and t_ack >= t0
    assert _canvas(page).max() == 0              # acknowledged only once black is on screen
    assert ctrl.request_mode("pattern", timeout_s=5.0) is not None
    shown = _canvas(page)
    found = find_pattern(shown, ctrl.pattern)    # the board is shown 1:1 in projector px
    assert not isinstance(found, VisionFailure)
    assert np.abs(found[0] - ctrl.pattern.corners_px()[found[1]]).max() < 0.5
    assert ctrl.request_mode("overlays", timeout_s=5.0) is not None
    _wait_pixel(page, 410, 300, (0, 255, 0))
