"""Projector–camera calibration in simulation: the rendered table has projector light whose
true pose we chose, so the recovered table→projector mapping is compared with the truth."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from projector_sim import camera_image, lit_region, make_rig

from armada_vision.vision.calibrate import calibrate
from armada_vision.vision.projector import (
    H_image_from_table_pose,
    ProjectorCalibration,
    ProjectorPattern,
    apply_homography,
    calibrate_projector,
    check_projector,
    find_pattern,
    mapping_error_mm,
)
from armada_vision.vision.types import VisionFailure


@pytest.fixture(scope="module", params=[0, 1, 2])
def scene(request):
    """One rig: the board projected (on), the projector black (off), the table calibration."""
    rig = make_rig(request.param)
    pat = ProjectorPattern.fit(rig.projector.intrinsics.image_size)
    on = camera_image(rig, pat.image(), seed=request.param)
    off = camera_image(rig, None, seed=request.param)
    table = calibrate(off, rig.layout, rig.camera.intrinsics)
    assert not isinstance(table, VisionFailure)
    return rig, pat, on, off, table


def test_calibration_recovers_the_true_mapping_within_1mm(scene) -> None:
    rig, pat, on, off, table = scene
    cal = calibrate_projector(on, pat, table, image_off=off)
    assert isinstance(cal, ProjectorCalibration), cal
    mean, worst = mapping_error_mm(cal, rig.H_projector_from_table, lit_region(rig))
    assert mean <= 1.0
    assert worst <= 2.0
    assert cal.points >= 40 and cal.residual_mean_mm <= 0.5
    assert cal.residual_max_mm >= cal.residual_mean_mm


def test_one_frame_without_the_dark_frame_also_calibrates(scene) -> None:
    rig, pat, on, _off, table = scene
    cal = calibrate_projector(on, pat, table)
    assert isinstance(cal, ProjectorCalibration), cal
    assert mapping_error_mm(cal, rig.H_projector_from_table, lit_region(rig))[0] <= 1.0


def test_recheck_of_an_unmoved_projector_is_quiet_and_a_moved_one_is_noticed(scene) -> None:
    rig, pat, on, off, table = scene
    cal = calibrate_projector(on, pat, table, image_off=off)
    assert isinstance(cal, ProjectorCalibration)
    # a new frame (other sensor noise) of the same projector
    again = camera_image(rig, pat.image(), seed=99)
    chk = check_projector(again, pat, table, cal, image_off=off)
    assert not isinstance(chk, VisionFailure)
    assert not chk.moved and chk.residual_mean_mm < chk.threshold_mm
    # the projector nudged by 6 mm
    nudged = camera_image(rig.moved(6.0), pat.image(), seed=99)
    moved = check_projector(nudged, pat, table, cal, image_off=off)
    assert not isinstance(moved, VisionFailure)
    assert moved.moved
    assert 3.0 < moved.residual_mean_mm < 9.0


def test_no_pattern_in_view_is_a_failure_value(scene) -> None:
    _rig, pat, _on, off, table = scene
    res = calibrate_projector(off, pat, table, image_off=off)
    assert isinstance(res, VisionFailure)
    assert res.code in ("too_dark", "too_few_markers")


def test_pattern_corners_are_where_the_detector_finds_them_on_the_projector_image() -> None:
    """The projector-px corner table (pixel centres at integers) matches what the ChArUco
    detector reports on the undistorted pattern itself."""
    pat = ProjectorPattern.fit((1024, 768), squares=(10, 7))
    found = find_pattern(pat.image(), pat)
    assert not isinstance(found, VisionFailure)
    corners, ids = found
    assert len(ids) == 9 * 6
    assert np.abs(corners - pat.corners_px()[ids]).max() < 0.1


@settings(max_examples=40, deadline=None)
@given(rx=st.floats(-0.4, 0.4), ry=st.floats(-0.4, 0.4), rz=st.floats(-3.1, 3.1),
       tx=st.floats(-300, 300), ty=st.floats(-300, 300), tz=st.floats(500, 2000),
       x=st.floats(-400, 400), y=st.floats(-400, 400))
def test_plane_homography_agrees_with_pinhole_projection(rx, ry, rz, tx, ty, tz, x, y) -> None:
    K = np.array([[1200.0, 0, 640], [0, 1180.0, 400], [0, 0, 1]])
    rvec, tvec = (rx, ry, rz), (tx, ty, tz)
    R = cv2.Rodrigues(np.array(rvec))[0]
    if (R @ np.array([x, y, 0.0]) + np.array(tvec))[2] < 50:
        return  # behind or at the device
    H = H_image_from_table_pose(K, rvec, tvec)
    px, _ = cv2.projectPoints(np.array([[x, y, 0.0]]), np.array(rvec), np.array(tvec), K, None)
    assert np.allclose(apply_homography(H, [[x, y]]), px.reshape(1, 2), atol=1e-6)
    back = apply_homography(np.linalg.inv(H), px.reshape(1, 2))
    assert np.allclose(back, [[x, y]], atol=1e-6)


def test_calibration_file_round_trip_and_bad_fields() -> None:
    cal = ProjectorCalibration((1280, 800), ((2.0, 0.1, 5.0), (0.0, -2.0, 700.0),
                                             (0.0, 0.0, 1.0)), 0.12, 0.4, 60, 64)
    back = ProjectorCalibration.from_dict(cal.to_dict())
    assert back.projector_size == cal.projector_size
    assert np.allclose(back.H, cal.H)
    assert np.allclose(back.to_table(back.to_projector([[100.0, 50.0]])), [[100.0, 50.0]])
    cases = [  # (field broken, expected field named)
        ({"projector_size": [1280]}, "projector_size"),
        ({"H_projector_from_table": [[1, 0, 0], [0, 1, 0], [0, 0, 0]]}, "H_projector_from_table"),
        ({"H_projector_from_table": "eye"}, "H_projector_from_table"),
        ({"residual_mean_mm": "small"}, "residual_mean_mm"),
    ]
    for patch, field in cases:
        with pytest.raises(ValueError, match=field):
            ProjectorCalibration.from_dict({**cal.to_dict(), **patch})


def test_pattern_fit_rejects_tiny_screens() -> None:
    with pytest.raises(ValueError, match="projector_size"):
        ProjectorPattern.fit((32, 800))
    pat = ProjectorPattern.fit((1920, 1080))
    c = pat.corners_px()
    assert c.min() > 0 and c[:, 0].max() < 1920 and c[:, 1].max() < 1080


def test_pieces_on_the_table_and_a_hand_over_the_board_only_cost_corners() -> None:
    """A busy table: pieces lie on it and a hand reaches over the projected board (only in the
    board frame). Corners under the hand are lost; the rest still give the true mapping."""
    from dataclasses import replace

    from projector_sim import with_projector

    from armada_vision.geometry.pieces import Size
    from armada_vision.geometry.pose import Pose
    from armada_vision.synth import render
    from armada_vision.synth.scene import Hand, PieceSpec, SceneSpec

    rig = make_rig(5)
    pat = ProjectorPattern.fit(rig.projector.intrinsics.image_size)
    pieces = (PieceSpec(Size.LARGE, "red", Pose(400, 250, 30)),
              PieceSpec(Size.SMALL, "blue", Pose(520, 330, 100)),
              PieceSpec(Size.MEDIUM, "yellow", Pose(300, 380, 200)))
    base = SceneSpec(rig.layout, rig.camera, pieces, surface="felt", seed=5,
                     table_mm=rig.table_mm)
    off = render(base).image_bgr
    on = render(replace(with_projector(base, rig.projector, pat.image()),
                        extras=(Hand((450, -100), (420, 250), 80),))).image_bgr
    table = calibrate(off, rig.layout, rig.camera.intrinsics)
    cal = calibrate_projector(on, pat, table, image_off=off)
    assert isinstance(cal, ProjectorCalibration), cal
    clear = calibrate_projector(camera_image(rig, pat.image(), seed=5), pat, table,
                                image_off=camera_image(rig, None, seed=5))
    assert isinstance(clear, ProjectorCalibration)
    assert cal.found < clear.found            # the hand hides corners
    assert mapping_error_mm(cal, rig.H_projector_from_table, lit_region(rig))[0] <= 1.0
