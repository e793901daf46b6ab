"""ChArUco intrinsic calibration recovers a known camera from synthetic views, and
``calibrate-camera`` handles bad input with one line and leaves camera.json alone.

Views: OpenCV's board image warped by K·[r1 r2 t] (known K and poses) with ``warpPerspective``,
then lens distortion applied with a remap built from ``undistortPoints`` (truth from the
renderer, not the detector).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.vision.intrinsics import (
    DEFAULT_BOARD,
    CharucoSpec,
    calibrate_intrinsics,
    find_board,
)
from armada_vision.vision.types import VisionFailure

ROOT = Path(__file__).resolve().parent.parent
SIZE = (1280, 720)
K_TRUE = np.array([[900.0, 0.0, 655.0], [0.0, 915.0, 350.0], [0.0, 0.0, 1.0]])
DIST_TRUE = np.array([-0.15, 0.06, 0.0, 0.0, 0.0])
# (tilt about x, tilt about y, turn about z) in degrees, board-centre offset (mm) from the axis.
POSES = [(0, 0, 0, 0, 0, 480), (28, 0, 5, -60, 40, 460), (-25, 5, -10, 70, -30, 470),
         (5, 30, 20, 90, 50, 500), (0, -30, -25, -90, -40, 490), (20, 20, 45, 60, 60, 520),
         (-20, -18, 95, -50, -50, 500), (15, -25, -70, 100, -10, 540),
         # towards the image corners, where distortion is strongest
         (10, 15, 90, 185, 95, 540), (-10, -15, 90, -185, -95, 540),
         (-12, 15, 80, 185, -95, 540), (12, -15, 100, -185, 95, 540)]
PPM = 8   # board image px per mm
SUPER = 3  # supersampling of the rendered views
CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-9)


def board_image(spec: CharucoSpec) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's board image with a white margin, and the map board mm → board image px."""
    bw, bh = spec.size_mm
    margin = 10 * PPM
    img = spec.board().generateImage((round(bw * PPM) + 2 * margin, round(bh * PPM) + 2 * margin),
                                     marginSize=margin, borderBits=1)
    # Board frame mm (origin top-left of the squares, y down) → px, pixel centres at integers.
    S = np.array([[PPM, 0, margin - 0.5], [0, PPM, margin - 0.5], [0, 0, 1.0]])
    return img, S


def pose(rx: float, ry: float, rz: float, dx: float, dy: float, z: float,
         spec: CharucoSpec) -> tuple[np.ndarray, np.ndarray]:
    R = cv2.Rodrigues(np.radians([rx, ry, 0.0]))[0] @ cv2.Rodrigues(np.radians([0, 0, rz]))[0]
    centre = np.array([*np.array(spec.size_mm) / 2, 0.0])
    t = np.array([dx, dy, z]) - R @ centre
    return R, t


def distort_maps(K: np.ndarray, dist: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every pixel of the distorted image, where it comes from in the ideal pinhole image."""
    w, h = SIZE
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    pts = np.stack([u.ravel(), v.ravel()], axis=1).reshape(-1, 1, 2)
    ideal = cv2.undistortPoints(pts, K, dist, P=K).reshape(h, w, 2)
    return ideal[..., 0].astype(np.float32), ideal[..., 1].astype(np.float32)


def render_views(spec: CharucoSpec, K: np.ndarray, dist: np.ndarray | None,
                 poses: list[tuple] = POSES) -> list[np.ndarray]:
    img, S = board_image(spec)
    maps = distort_maps(K, dist) if dist is not None else None
    rng = np.random.default_rng(7)
    views = []
    for p in poses:
        R, t = pose(*p, spec)
        # Ground-truth sanity: every board corner lands well inside the frame.
        corners = np.array([[0, 0, 0], [spec.size_mm[0], spec.size_mm[1], 0],
                            [spec.size_mm[0], 0, 0], [0, spec.size_mm[1], 0]], float)
        proj = (K @ (corners @ R.T + t).T).T
        proj = proj[:, :2] / proj[:, 2:]
        assert np.all((proj > 20) & (proj < np.array(SIZE) - 20)), f"pose {p} leaves the frame"
        # Render at SUPER× and average down (INTER_AREA), as a sensor integrates light; pixel
        # centres: u_super = SUPER·(u + ½) − ½.
        A = np.array([[SUPER, 0, (SUPER - 1) / 2], [0, SUPER, (SUPER - 1) / 2], [0, 0, 1.0]])
        H = A @ K @ np.column_stack([R[:, 0], R[:, 1], t]) @ np.linalg.inv(S)
        big = cv2.warpPerspective(img, H, (SIZE[0] * SUPER, SIZE[1] * SUPER),
                                  flags=cv2.INTER_LINEAR, borderValue=150)
        view = cv2.resize(big, SIZE, interpolation=cv2.INTER_AREA)
        if maps is not None:
            view = cv2.remap(view, maps[0], maps[1], cv2.INTER_LINEAR, borderValue=150)
        noisy = view.astype(np.float32) + rng.normal(0, 2.0, view.shape)
        views.append(cv2.cvtColor(np.clip(noisy, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR))
    return views


@pytest.fixture(scope="module")
def distorted_views() -> list[np.ndarray]:
    return render_views(DEFAULT_BOARD, K_TRUE, DIST_TRUE)


def test_recovers_known_camera_with_distortion(distorted_views: list[np.ndarray]) -> None:
    result = calibrate_intrinsics(distorted_views, DEFAULT_BOARD)
    assert not isinstance(result, VisionFailure), result
    assert result.views_used == tuple(range(len(POSES)))
    K = result.camera.K
    assert K[0, 0] == pytest.approx(K_TRUE[0, 0], rel=0.01)
    assert K[1, 1] == pytest.approx(K_TRUE[1, 1], rel=0.01)
    assert K[0, 2] == pytest.approx(K_TRUE[0, 2], rel=0.01)
    assert K[1, 2] == pytest.approx(K_TRUE[1, 2], rel=0.01)
    assert result.camera.dist_coeffs[0] == pytest.approx(DIST_TRUE[0], abs=0.03)
    assert result.camera.image_size == SIZE
    assert result.rms_px < 0.3
    # What the solved distortion is for: straight lines in the world, imaged by the true lens
    # across the region the board covered, come out straight when undistorted with it.
    seen = np.vstack([find_board(v).image_px for v in distorted_views])
    lo, hi = seen.min(axis=0), seen.max(axis=0)
    worst = 0.0
    for fx, fy in np.linspace(0, 1, 5)[:, None] * (hi - lo) + lo:
        for a, b in (((lo[0], fy), (hi[0], fy)), ((fx, lo[1]), (fx, hi[1]))):
            ends = cv2.undistortPoints(np.array([[a], [b]], float), K_TRUE, DIST_TRUE, None, None,
                                       None, CRITERIA).reshape(2, 2)
            line = np.column_stack([np.linspace(*ends[:, 0], 40), np.linspace(*ends[:, 1], 40),
                                    np.ones(40)])   # a straight line of rays
            imaged = cv2.projectPoints(line, np.zeros(3), np.zeros(3), K_TRUE, DIST_TRUE)[0]
            flat = cv2.undistortPoints(imaged, K, result.camera.dist, None, None, K,
                                       CRITERIA).reshape(-1, 2)
            centred = flat - flat.mean(axis=0)
            worst = max(worst, float(np.linalg.svd(centred, compute_uv=False)[1] / np.sqrt(40)))
    assert worst < 0.5   # px, rms distance from the best straight line
    assert CameraIntrinsics.from_dict(result.camera.to_dict()) == result.camera


def test_recovers_pinhole_camera_on_another_board() -> None:
    spec = CharucoSpec(5, 7, 30.0, 22.5, "DICT_4X4_50")
    K = np.array([[1100.0, 0, 630.0], [0, 1100.0, 370.0], [0, 0, 1]])
    poses = [(a, b, c, dx, dy, z + 150) for a, b, c, dx, dy, z in POSES]
    result = calibrate_intrinsics(render_views(spec, K, None, poses), spec)
    assert not isinstance(result, VisionFailure), result
    solved = result.camera.K
    for (i, j) in ((0, 0), (1, 1), (0, 2), (1, 2)):
        assert solved[i, j] == pytest.approx(K[i, j], rel=0.01), (i, j)
    assert abs(result.camera.dist_coeffs[0]) < 0.05


def test_views_without_the_board_are_skipped_and_too_few_fail(
        distorted_views: list[np.ndarray]) -> None:
    blank = np.full_like(distorted_views[0], 180)
    result = calibrate_intrinsics([blank, *distorted_views[:5]], DEFAULT_BOARD)
    assert not isinstance(result, VisionFailure), result
    assert result.views_used == (1, 2, 3, 4, 5)
    assert [i for i, _ in result.views_skipped] == [0]
    assert "board corners found" in result.views_skipped[0][1]
    few = calibrate_intrinsics([blank, *distorted_views[:3]], DEFAULT_BOARD)
    assert isinstance(few, VisionFailure) and few.code == "too_few_views"
    assert "found in 3 of 4 images, 4 needed" in few.reason
    other = calibrate_intrinsics(distorted_views, CharucoSpec(5, 7, 30.0, 22.5, "DICT_4X4_50"))
    assert isinstance(other, VisionFailure) and other.code == "too_few_views"
    small = cv2.resize(distorted_views[1], (640, 360))
    mixed = calibrate_intrinsics([*distorted_views[:4], small], DEFAULT_BOARD)
    assert isinstance(mixed, VisionFailure) and mixed.code == "image_size"


def test_square_on_views_are_rejected_not_trusted() -> None:
    """Board always facing the camera: focal length is unobservable, the RMS is still tiny."""
    poses = [(0, 0, a, dx, dy, 480) for a, dx, dy in
             ((0, 0, 0), (30, 50, 20), (60, -60, -20), (90, 20, -40), (120, -30, 40))]
    result = calibrate_intrinsics(render_views(DEFAULT_BOARD, K_TRUE, None, poses))
    assert isinstance(result, VisionFailure) and result.code == "calibration_failed"
    assert "tilted" in result.reason


def test_find_board_matches_rendered_corners(distorted_views: list[np.ndarray]) -> None:
    """Found corners agree with the renderer's projection of the board corners (< 0.5 px)."""
    view = find_board(distorted_views[0], DEFAULT_BOARD)
    assert not isinstance(view, VisionFailure)
    assert view.corners == DEFAULT_BOARD.inner_corners
    R, t = pose(*POSES[0], DEFAULT_BOARD)
    truth = cv2.projectPoints(view.object_mm.astype(float), cv2.Rodrigues(R)[0], t, K_TRUE,
                              DIST_TRUE)[0].reshape(-1, 2)
    assert np.max(np.linalg.norm(truth - view.image_px, axis=1)) < 0.5


# --- calibrate-camera command -----------------------------------------------------------------

def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "armada_vision", "calibrate-camera", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def test_cli_writes_camera_json(tmp_path: Path, distorted_views: list[np.ndarray]) -> None:
    paths = []
    for i, v in enumerate(distorted_views):
        paths.append(str(tmp_path / f"v{i}.png"))
        cv2.imwrite(paths[-1], v)
    cv2.imwrite(str(tmp_path / "blank.png"), np.full_like(distorted_views[0], 200))
    out = tmp_path / "camera.json"
    r = cli(*paths, "blank.png", "--out", "camera.json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "RMS reprojection error" in r.stdout and f"from {len(paths)} of {len(paths) + 1}" \
        in r.stdout
    assert "skipped blank.png" in r.stderr
    cam = CameraIntrinsics.from_dict(json.loads(out.read_text()))
    assert cam.image_size == SIZE
    assert cam.K[0, 0] == pytest.approx(K_TRUE[0, 0], rel=0.01)


@pytest.mark.parametrize("case", ["missing", "unreadable", "too_few", "bad_board", "bad_views"])
def test_cli_bad_input_one_line_and_camera_json_untouched(
        tmp_path: Path, distorted_views: list[np.ndarray], case: str) -> None:
    out = tmp_path / "camera.json"
    out.write_text("previous\n")
    good = tmp_path / "v0.png"
    cv2.imwrite(str(good), distorted_views[0])
    args = {
        "missing": ([str(tmp_path / "nope.png")], "nope.png: no such file"),
        "unreadable": ([str(tmp_path / "junk.png")], "junk.png: not a readable image"),
        "too_few": ([str(good), str(good)], "found in 2 of 2 images, 4 needed"),
        "bad_board": ([str(good), "--board", str(tmp_path / "board.json")], "marker_mm"),
        "bad_views": ([str(good), "--min-views", "1"], "--min-views"),
    }[case]
    (tmp_path / "junk.png").write_bytes(b"not an image")
    (tmp_path / "board.json").write_text('{"square_mm": 10, "marker_mm": 12}')
    r = cli(*args[0], "--out", str(out), cwd=tmp_path)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and args[1] in lines[0], r.stderr
    assert out.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["camera.json", "v0.png", "junk.png", "board.json"])   # no temp file left behind
