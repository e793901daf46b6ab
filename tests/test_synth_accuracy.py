"""The renderer puts things exactly where its truth says (image px, OpenCV convention).

Edges are measured in the rendered image itself: the 50 % crossing of intensity profiles taken
across each projected edge, lines fitted through them, corners as line intersections.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from armada_vision.geometry.layout import standard_layout
from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.synth.objects import piece_vertices
from armada_vision.synth.random_scene import random_scene
from armada_vision.synth.render import render
from armada_vision.synth.scene import CameraSpec, PieceSpec, SceneSpec
from armada_vision.vision.calibrate import find_markers


def _sample(gray: np.ndarray, pts: np.ndarray) -> np.ndarray:
    m = pts.astype(np.float32).reshape(-1, 1, 2)
    return cv2.remap(gray, m[..., 0], m[..., 1], cv2.INTER_LINEAR).ravel()


def measured_edge_line(gray: np.ndarray, a: np.ndarray, b: np.ndarray, inside: np.ndarray,
                       n_samples: int = 12, reach: float = 2.5) -> tuple[np.ndarray, float]:
    """Fit the edge a→b as seen in ``gray``: unit normal n (pointing out of the shape, whose
    interior contains ``inside``) and offset c with n·x = c, from 50 % crossings of profiles
    across the edge, sampled away from the ends."""
    u = (b - a) / np.linalg.norm(b - a)
    n = np.array([u[1], -u[0]])
    if n @ (inside - a) > 0:
        n = -n
    ln = float(np.linalg.norm(b - a))
    offs = np.linspace(-reach, reach, 101)
    found = []
    for t in np.linspace(0.3, 0.7, n_samples) * ln:
        p = a + u * t
        prof = _sample(gray, p + np.outer(offs, n))
        lo, hi = prof[offs < -1.5].mean(), prof[offs > 1.5].mean()   # inside, outside levels
        mid = (lo + hi) / 2
        s = np.sign(prof - mid)
        k = np.nonzero(s[:-1] != s[1:])[0]
        if len(k) != 1 or abs(hi - lo) < 30:
            continue
        i = k[0]
        f = (mid - prof[i]) / (prof[i + 1] - prof[i])
        found.append(p + n * (offs[i] + f * (offs[1] - offs[0])))
    pts = np.array(found)
    assert len(pts) >= n_samples // 2, "edge not measurable"
    return n, float(np.median(pts @ n))


def corner_from_lines(l1: tuple[np.ndarray, float], l2: tuple[np.ndarray, float]) -> np.ndarray:
    return np.linalg.solve(np.array([l1[0], l2[0]]), np.array([l1[1], l2[1]]))


def single_piece_scene(size: Size, heading: float, tilt: float, color: str = "black",
                       dist: tuple[float, ...] = (0.0,) * 5, effects: bool = False) -> SceneSpec:
    layout = standard_layout(600, 600)
    cam = CameraSpec.looking_at((640, 480), (300.0, 300.0), 260.0, tilt, fov_deg=40,
                                dist_coeffs=dist)
    piece = PieceSpec(size, color, Pose(290.0, 292.0, heading))
    return SceneSpec(layout, cam, (piece,), surface="laminate", noise_sigma=0.0, seed=1,
                     light_dir=(0.0, 0.0, 1.0), effects=effects)


@pytest.mark.parametrize(("size", "heading", "tilt"), [
    (Size.LARGE, 17.0, 0.0), (Size.MEDIUM, 133.0, 20.0), (Size.SMALL, 251.0, 35.0),
    (Size.LARGE, 300.0, 30.0)])
def test_projected_piece_corners_land_on_the_rendered_silhouette(size, heading, tilt) -> None:
    """Tip, stern corners and the raised base corners as rendered (silhouette = hull of the
    3-D body, rules.md §1) are within 0.3 px of their projection. Flat shading (no shadows or
    bright edges) so that the 50 % crossing measures the geometry and not the lighting."""
    spec = single_piece_scene(size, heading, tilt)
    r = render(spec)
    gray = cv2.cvtColor(r.image_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    v, _, _ = piece_vertices(spec.pieces[0], NOMINAL_PIECES.dims(size))
    px = spec.camera.project(v)
    hull = cv2.convexHull(px.astype(np.float32), returnPoints=False).ravel()
    centre = px.mean(axis=0)
    k = len(hull)
    lines = [measured_edge_line(gray, px[hull[i]], px[hull[(i + 1) % k]], centre)
             for i in range(k)]
    for i in range(k):
        corner = corner_from_lines(lines[i - 1], lines[i])
        err = float(np.linalg.norm(corner - px[hull[i]]))
        assert err < 0.3, f"vertex {hull[i]} off by {err:.3f} px"
    # The truth's tip is the rendered tip vertex; its stern lies on the stern edge 0–1.
    t = r.truth["pieces"][0]
    assert np.allclose(t["tip_px"], px[2], atol=1e-6)
    e = px[1] - px[0]
    assert abs(np.cross(np.append(e, 0), np.append(np.array(t["stern_px"]) - px[0], 0))[2]) \
        / np.linalg.norm(e) < 1e-6


def _marker_lines_error(r, spec: SceneSpec) -> float:
    gray = cv2.cvtColor(r.image_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    worst = 0.0
    for m in r.truth["markers"]:
        c = np.array(m["corners_px"])
        lines = [measured_edge_line(gray, c[i], c[(i + 1) % 4], c.mean(axis=0)) for i in range(4)]
        for i in range(4):
            worst = max(worst, float(np.linalg.norm(corner_from_lines(lines[i - 1], lines[i])
                                                    - c[i])))
    return worst


@pytest.mark.parametrize("distort", [False, True])
def test_marker_squares_are_drawn_exactly(distort: bool) -> None:
    """Each marker's black square, measured by line fits, has its corners within 0.15 px of
    the truth's projection (cv2.projectPoints, with distortion when asked)."""
    spec = dataclasses.replace(random_scene(11, image_size=(1280, 720), n_pieces=0,
                                            tilt_deg=25, distort=distort), noise_sigma=0.0)
    r = render(spec)
    # Straight lines only where the lens keeps them straight: skip the edge fit when distorted.
    if not distort:
        assert _marker_lines_error(r, spec) < 0.15
    det = _detect(r.image_bgr)
    assert set(det) == {m.id for m in spec.layout.markers}


def _detect(img: np.ndarray) -> dict[int, np.ndarray]:
    d = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    p = cv2.aruco.DetectorParameters()
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    d.setDetectorParameters(p)
    corners, ids, _ = d.detectMarkers(img)
    return {} if ids is None else {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel(),
                                                                          strict=True)}


@pytest.mark.parametrize(("seed", "size", "distort"), [
    (2, (1920, 1080), False), (3, (1920, 1080), True), (5, (1920, 1080), False),
    (7, (1280, 720), True), (8, (1280, 720), False)])
def test_every_marker_corner_is_found_within_0_3_px(seed: int, size: tuple[int, int],
                                                     distort: bool) -> None:
    """OpenCV's ArucoDetector finds every marker of a noisy render; ``find_markers`` (its
    corners refined from each marker's outer edges, with the scene's camera) puts every corner
    within 0.3 px of the truth's projection: 40 markers, 160 corners over the five scenes."""
    spec = random_scene(seed, image_size=size, n_pieces=6, distort=distort)
    r = render(spec)
    assert set(_detect(r.image_bgr)) == {m.id for m in spec.layout.markers}
    gray = cv2.cvtColor(r.image_bgr, cv2.COLOR_BGR2GRAY)
    found = find_markers(gray, r.layout, r.camera)
    assert set(found) == {m.id for m in spec.layout.markers}
    errs = np.array([np.linalg.norm(found[m["id"]] - np.array(m["corners_px"]), axis=1)
                     for m in r.truth["markers"]])
    assert errs.max() < 0.3


@pytest.mark.parametrize(("size", "heading", "tilt"), [
    (Size.LARGE, 17.0, 0.0), (Size.MEDIUM, 133.0, 20.0), (Size.SMALL, 251.0, 35.0)])
def test_with_lighting_effects_a_black_piece_edge_moves_less_than_half_a_pixel(
        size, heading, tilt) -> None:
    """Shadows and the bright edge strips shift a black piece's measured corners by < 0.45 px:
    what a detector sees stays near the geometry (rules.md §1 silhouette)."""
    spec = single_piece_scene(size, heading, tilt, effects=True)
    r = render(spec)
    gray = cv2.cvtColor(r.image_bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    v, _, _ = piece_vertices(spec.pieces[0], NOMINAL_PIECES.dims(size))
    px = spec.camera.project(v)
    hull = cv2.convexHull(px.astype(np.float32), returnPoints=False).ravel()
    k = len(hull)
    lines = [measured_edge_line(gray, px[hull[i]], px[hull[(i + 1) % k]], px.mean(axis=0))
             for i in range(k)]
    for i in range(k):
        assert np.linalg.norm(corner_from_lines(lines[i - 1], lines[i]) - px[hull[i]]) < 0.45
