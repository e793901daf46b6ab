"""Calibration without a camera file: focal length from mildly tilted views, radial distortion
k1 when the lens bends the markers' lines. Truth from the renderer's camera, never from the
detector."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from armada_vision.synth.random_scene import random_scene
from armada_vision.synth.render import render
from armada_vision.vision.calibrate import PRINCIPAL_POINT_REL, TableCalibration, calibrate


def _table_error_mm(cal: TableCalibration, truth: dict, z_mm: float = 0.0) -> float:
    """Worst error (mm) of a 7 × 7 grid over the table, projected by the true camera and
    mapped back through the calibration at height ``z_mm``."""
    t = truth["camera"]
    g = np.linspace(40.0, 560.0, 7)
    pts = np.array([[x, y, z_mm] for x in g for y in g])
    px, _ = cv2.projectPoints(pts, np.array(t["rvec"]), np.array(t["tvec"]),
                              np.array(t["camera_matrix"]), np.array(t["dist_coeffs"]))
    back = cal.image_to_table(px.reshape(-1, 2), z_mm=z_mm)
    return float(np.linalg.norm(back - pts[:, :2], axis=1).max())


@pytest.mark.parametrize("seed", [31, 32])
def test_a_distorting_lens_is_estimated_without_a_camera_file(seed: int) -> None:
    """k1 within 0.03 of the lens's (which also has a small k2 and tangential terms the model
    leaves out), and the table maps back within 0.3 mm on the table and 15 mm above it."""
    r = render(random_scene(seed, image_size=(1280, 720), n_pieces=0, tilt_deg=20,
                            distort=True))
    k1_true = r.truth["camera"]["dist_coeffs"][0]
    assert k1_true < -0.05
    cal = calibrate(r.image_bgr, r.layout, None)
    assert isinstance(cal, TableCalibration)
    assert cal.info.intrinsics_source == "estimated"
    assert abs(cal.camera.dist[0] - k1_true) < 0.03
    assert _table_error_mm(cal, r.truth) < 0.3
    assert _table_error_mm(cal, r.truth, 15.0) < 0.3


def test_an_undistorted_view_gets_no_distortion() -> None:
    r = render(random_scene(33, image_size=(1280, 720), n_pieces=0, tilt_deg=20))
    cal = calibrate(r.image_bgr, r.layout, None)
    assert isinstance(cal, TableCalibration)
    assert not np.any(cal.camera.dist)
    assert _table_error_mm(cal, r.truth, 15.0) < 0.1


def test_a_view_tilted_8_degrees_determines_the_focal_length_with_an_honest_sigma() -> None:
    """At 8° the focal length comes from the view (within 2 %), and its σ allows for the
    principal point not being exactly at the image centre on a real camera."""
    r = render(random_scene(34, image_size=(1920, 1080), n_pieces=0, tilt_deg=8))
    cal = calibrate(r.image_bgr, r.layout, None)
    assert isinstance(cal, TableCalibration)
    f_true = r.truth["camera"]["camera_matrix"][0][0]
    assert abs(cal.camera.fx - f_true) / f_true < 0.02
    assert cal.focal_rel_sigma >= PRINCIPAL_POINT_REL / math.tan(math.radians(9.0))
    assert cal.focal_rel_sigma < 0.3
    assert _table_error_mm(cal, r.truth, 15.0) < 0.2
