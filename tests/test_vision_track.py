"""Tracking: identity through a step (the id follows the pose), the settled flag, motion and
occlusion, a bumped camera; frames rendered from scenes whose truth we set."""

from __future__ import annotations

import math

import pytest

from armada_vision.geometry.layout import standard_layout
from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.synth.random_scene import fit_camera
from armada_vision.synth.render import render
from armada_vision.synth.scene import CameraSpec, Hand, PieceSpec, SceneSpec
from armada_vision.vision.track import Tracker
from armada_vision.vision.types import DetectedPiece

LAYOUT = standard_layout(600, 600)
CAM = fit_camera((1280, 720), (600, 600), 1000.0, 15.0)
LARGE = NOMINAL_PIECES.dims(Size.LARGE)
L0 = Pose(200.0, 250.0, 10.0)
# One step (rules §4.1): the new stern on the old tip, turned 30°.
L1 = Pose(*L0.tip_mm(LARGE.footprint_length_mm), 40.0)
SMALL = PieceSpec("small", "blue", Pose(420.0, 400.0, 200.0))


def _frame(large_pose: Pose, camera: CameraSpec = CAM, extras=()):
    spec = SceneSpec(LAYOUT, camera, (PieceSpec("large", "red", large_pose), SMALL),
                     surface="felt", extras=tuple(extras))
    return render(spec).image_bgr


@pytest.fixture(scope="module")
def frames():
    hand = Hand((650.0, 150.0), (300.0, 300.0), 80.0)
    return {"before": _frame(L0), "after": _frame(L1), "hand": _frame(L0, extras=[hand])}


def _ids_by_size(state):
    return {p.size: p.track_id for p in state.pieces}


def test_identity_follows_a_step_and_settling_gates_detection(frames):
    tr = Tracker(LAYOUT, CAM.intrinsics, settle_s=0.5)
    s0 = tr.update(frames["before"], 0.0)
    assert s0.detected and len(s0.pieces) == 2
    ids = _ids_by_size(s0)
    s1 = tr.update(frames["before"], 0.1)
    assert s1.settled and not s1.moving and not s1.detected  # steady state: no re-detection
    s2 = tr.update(frames["after"], 1.0)
    assert s2.moving and not s2.settled and not s2.detected  # nothing judged mid-move
    s3 = tr.update(frames["after"], 1.2)
    assert not s3.moving and not s3.settled and not s3.detected
    s4 = tr.update(frames["after"], 1.6)
    assert s4.detected and s4.settled
    assert _ids_by_size(s4) == ids  # same ships, the large one moved
    large = next(p for p in s4.pieces if p.size == Size.LARGE)
    assert math.dist(large.pose.stern_mm, L1.stern_mm) < 1.0


def test_a_hand_over_the_table_is_occlusion_and_nothing_is_judged(frames):
    tr = Tracker(LAYOUT, CAM.intrinsics, settle_s=0.5)
    s0 = tr.update(frames["before"], 0.0)
    s1 = tr.update(frames["hand"], 0.5)
    assert s1.occluded and not s1.detected and not s1.settled
    s2 = tr.update(frames["hand"], 2.0)  # a hand held still is still in the way
    assert s2.occluded and not s2.detected
    assert s2.pieces == s0.pieces
    tr.update(frames["before"], 2.5)
    s4 = tr.update(frames["before"], 3.1)
    assert s4.settled and not s4.occluded and _ids_by_size(s4) == _ids_by_size(s0)


def test_a_bumped_camera_is_recalibrated(frames):
    tr = Tracker(LAYOUT, CAM.intrinsics)
    tr.update(frames["before"], 0.0)
    bumped = CameraSpec(CAM.intrinsics, (CAM.rvec[0] + 0.02, CAM.rvec[1], CAM.rvec[2]),
                        CAM.tvec)
    s = tr.update(_frame(L0, bumped), 0.1)
    assert s.recalibrated and s.calibration is not None
    s = tr.update(_frame(L0, bumped), 1.0)
    assert s.settled and len(s.pieces) == 2


def _piece(size: str, color: str, pose: Pose, track_id: str | None = None) -> DetectedPiece:
    d = NOMINAL_PIECES.dims(size)
    return DetectedPiece(Size(size), color, pose, pose.tip_mm(d.footprint_length_mm), 0.2,
                         0.3, True, track_id=track_id)


def test_assign_ids_keeps_still_pieces_follows_steps_and_numbers_new_ones():
    tr = Tracker(LAYOUT)
    old = (_piece("large", "red", L0, "L1"), _piece("small", "red", Pose(100, 100, 0), "S1"))
    small = NOMINAL_PIECES.dims(Size.SMALL)
    # The small made two steps (§4: up to four), the large stayed, a medium arrived.
    p1 = Pose(*Pose(100, 100, 0).tip_mm(small.footprint_length_mm), 30.0)
    p2 = Pose(*p1.tip_mm(small.footprint_length_mm), 60.0)
    new = (_piece("small", "red", p2), _piece("large", "red", L0.moved(0.2, -0.1)),
           _piece("medium", "red", Pose(300, 300, 90)))
    out = tr.assign_ids(old, new)
    assert [p.track_id for p in out] == ["S1", "L1", "M1"]
    # A piece of another colour where the small went is not the small.
    out = tr.assign_ids(old, (_piece("small", "blue", p1),))
    assert out[0].track_id not in ("S1", "L1") and out[0].track_id.startswith("S")
