"""Test helpers for the vision tests: a tiny marker-table renderer with a known camera.

Only markers on a plain table (no pieces): enough to check calibration against a camera whose
pose we chose. Scenes with pieces come from ``armada_vision.synth``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.vision.fit import ViewGrid

# One matcher of detections to truth for the tests and the benchmark (repo root on the path
# whichever way pytest was started).
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)
from benchmarks.bench_vision import match, pair, scene_spec, uses_camera  # noqa: E402

__all__ = ["look_at", "marker_table_image", "match", "pair", "raster_outline", "scene_spec",
           "uses_camera"]


def look_at(eye_mm, target_mm) -> tuple[np.ndarray, np.ndarray]:
    """rvec, tvec (table → camera) of a camera at ``eye_mm`` looking at ``target_mm`` with the
    image's x roughly along table +x."""
    eye, target = np.asarray(eye_mm, float), np.asarray(target_mm, float)
    z = (target - eye) / np.linalg.norm(target - eye)
    x = np.cross(z, [0.0, 1.0, 0.0])
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    R = np.vstack((x, y, z))
    return cv2.Rodrigues(R)[0].ravel(), -R @ eye


def marker_table_image(layout: TableLayout, camera: CameraIntrinsics, rvec, tvec,
                       *, px_per_mm: float = 4.0, table_gray: int = 190,
                       hide: tuple[int, ...] = ()) -> np.ndarray:
    """BGR image of the table (markers drawn with their white margin) seen by the camera."""
    pts = np.array([c for m in layout.markers for c in m.corners_mm()])
    lo, hi = pts.min(axis=0) - 60, pts.max(axis=0) + 60
    wc, hc = (int((hi - lo)[0] * px_per_mm), int((hi - lo)[1] * px_per_mm))
    canvas = np.full((hc, wc), table_gray, np.uint8)
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))
    for m in layout.markers:
        if m.id in hide:
            continue
        side = round(m.size_mm * px_per_mm)
        img = cv2.aruco.generateImageMarker(d, m.id, side)
        img = cv2.copyMakeBorder(img, side // 6, side // 6, side // 6, side // 6,
                                 cv2.BORDER_CONSTANT, value=255)
        n = img.shape[0]
        c = m.corners_mm()
        # Canvas px of the corners (canvas y grows towards table −y).
        dst = np.column_stack(((c[:, 0] - lo[0]) * px_per_mm, (hi[1] - c[:, 1]) * px_per_mm))
        b = side // 6
        src = np.array([[b, b], [b + side, b], [b + side, b + side], [b, b + side]], float)
        M = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        warped = cv2.warpPerspective(img, M, (wc, hc), flags=cv2.INTER_AREA, borderValue=0)
        mask = cv2.warpPerspective(np.full((n, n), 255, np.uint8), M, (wc, hc)) > 0
        canvas[mask] = warped[mask]
    w, h = camera.image_size
    u, v = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    rays = cv2.undistortPoints(np.column_stack((u.ravel(), v.ravel())).reshape(-1, 1, 2),
                               camera.K, camera.dist).reshape(-1, 2)
    R = cv2.Rodrigues(np.asarray(rvec, float))[0]
    eye = -R.T @ np.asarray(tvec, float)
    d_tab = np.column_stack((rays, np.ones(len(rays)))) @ R
    lam = -eye[2] / d_tab[:, 2]
    xy = eye[:2] + lam[:, None] * d_tab[:, :2]
    mapx = ((xy[:, 0] - lo[0]) * px_per_mm - 0.5).reshape(h, w).astype(np.float32)
    mapy = ((hi[1] - xy[:, 1]) * px_per_mm - 0.5).reshape(h, w).astype(np.float32)
    gray = cv2.remap(canvas, mapx, mapy, cv2.INTER_LINEAR,
                     borderValue=60)
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


def raster_outline(outline_mm: np.ndarray, grid: ViewGrid, ss: int = 8) -> np.ndarray:
    """An exact, anti-aliased 0–1 raster (float32, view px of ``grid``) of a polygon given in
    table mm: a foreground map for the outline fit with no renderer in between."""
    rows, cols = grid.shape
    big = np.zeros((rows * ss, cols * ss), np.uint8)
    pts = (grid.to_px(outline_mm) + 0.5) * ss - 0.5
    cv2.fillPoly(big, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    return cv2.resize(big, (cols, rows), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
