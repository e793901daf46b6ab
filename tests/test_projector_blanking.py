"""BlankingAnalyser: moves are judged only on frames exposed while the projector was dark; the
page is blanked once each time the table comes to rest, and the zones come back after."""

from __future__ import annotations

import time

import numpy as np
from projector_sim import SimPage

from armada_vision.vision.projector import Overlay, ProjectorCalibration
from armada_vision.web.analysis import FrameAnalysis
from armada_vision.web.projector import BlankingAnalyser, ProjectorController

CAL = ProjectorCalibration((1280, 800), ((2.0, 0.0, 10.0), (0.0, -2.0, 700.0), (0.0, 0.0, 1.0)),
                           0.1, 0.2, 60, 60)
FRAME = np.zeros((72, 128, 3), np.uint8)


class Inner:
    """Stands in for the vision analyser: ``settled`` is what the test says the table is."""

    def __init__(self) -> None:
        self.settled = False

    def __call__(self, frame, seq: int, captured_at: float) -> FrameAnalysis:
        return FrameAnalysis(seq, captured_at, (128, 72), settled=self.settled)


def _lit_controller() -> ProjectorController:
    ctrl = ProjectorController(CAL)
    ctrl.set_overlays([Overlay("step", (((100, 100), (200, 100), (150, 200)),))])
    time.sleep(0.2)  # frames exposed from now on saw the zones (exposure_s ≤ 0.15 below)
    return ctrl


def _wait(cond, timeout_s: float = 3.0) -> bool:
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if cond():
            return True
        time.sleep(0.01)
    return False


def test_only_dark_frames_are_judged_and_the_zones_come_back() -> None:
    ctrl = _lit_controller()
    page = SimPage(ctrl)
    inner = Inner()
    # A page that acknowledges slowly (a loaded machine) still counts: the test is about
    # which frames pass, not how fast the simulated page answers.
    wrap = BlankingAnalyser(inner, ctrl, exposure_s=0.05, timeout_s=10.0)
    try:
        # the table moves under the zones: nothing is settled anyway
        assert not wrap(FRAME, 1, time.time()).settled
        # it comes to rest: the lit frame is held back and the page is asked for black
        inner.settled = True
        assert not wrap(FRAME, 2, time.time()).settled
        assert _wait(lambda: ctrl.mode == "blank" and ctrl.acked_id == ctrl.request_id, 10.0)
        assert not page.image.any()
        time.sleep(0.06)
        # a frame exposed in the dark passes as it is, and the zones come back
        t_dark = time.time()
        assert ctrl.was_dark(t_dark - 0.05)
        assert wrap(FRAME, 3, t_dark).settled
        assert ctrl.mode == "overlays"
        assert _wait(lambda: page.image.any())
        # at rest under the zones again: held back, and no new blink
        assert not wrap(FRAME, 4, time.time()).settled
        time.sleep(0.1)
        assert ctrl.mode == "overlays" and wrap.passed_clean == 1
        # the next motion and rest blank once more
        inner.settled = False
        wrap(FRAME, 5, time.time())
        inner.settled = True
        wrap(FRAME, 6, time.time())
        assert _wait(lambda: ctrl.mode == "blank")
    finally:
        page.close()


def test_without_a_page_frames_pass_unchanged() -> None:
    ctrl = _lit_controller()        # nobody acknowledges
    inner = Inner()
    inner.settled = True
    wrap = BlankingAnalyser(inner, ctrl, timeout_s=0.1)
    assert not wrap(FRAME, 1, time.time()).settled     # held while the blank is tried
    assert _wait(lambda: ctrl.mode == "overlays" and wrap._no_page_until > 0)
    assert wrap(FRAME, 2, time.time()).settled          # then judged as they are


def test_nothing_projected_means_every_frame_is_clean() -> None:
    ctrl = ProjectorController()    # not calibrated: no light
    inner = Inner()
    inner.settled = True
    wrap = BlankingAnalyser(inner, ctrl)
    assert wrap(FRAME, 1, time.time()).settled
    assert ctrl.mode == "overlays" and wrap.held_lit == 0
