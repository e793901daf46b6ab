"""The undistorted ("ideal") canvas a scene is drawn on, and the lens distortion map.

Everything is drawn with an ideal pinhole camera (intrinsics ``K_ideal``, no distortion), then,
if the lens distorts, resampled with ``cv2.remap`` so that a table point lands exactly where
``cv2.projectPoints`` with the distortion coefficients puts it. Coordinates: table mm; image px.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from armada_vision.synth.scene import CameraSpec

_GRID_STEP = 8  # px between exact undistortions; bilinear in between (distortion is smooth)


@dataclass(frozen=True, slots=True)
class IdealView:
    """Ideal canvas: size (w, h px), camera matrix, pose (R, t) and, with distortion, the maps
    from output pixels to ideal-canvas pixels."""

    size: tuple[int, int]
    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    map_x: np.ndarray | None
    map_y: np.ndarray | None

    @property
    def H_image_from_table(self) -> np.ndarray:
        """Homography of the table plane z = 0 (mm) into the ideal canvas (px)."""
        H = self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])
        return H / H[2, 2]

    def project(self, pts_mm: np.ndarray) -> np.ndarray:
        """(N, 3) table mm → (N, 2) ideal-canvas px (points must be in front of the camera)."""
        cam = np.asarray(pts_mm, dtype=float) @ self.R.T + self.t
        uvw = cam @ self.K.T
        return uvw[:, :2] / uvw[:, 2:3]

    def depth(self, pts_mm: np.ndarray) -> np.ndarray:
        """Distance along the optical axis (mm) of (N, 3) table-mm points."""
        return (np.asarray(pts_mm, dtype=float) @ self.R.T + self.t)[:, 2]

    def distort(self, ideal: np.ndarray) -> np.ndarray:
        """Resample an ideal-canvas image into the real (distorted) image."""
        if self.map_x is None:
            return ideal
        return cv2.remap(ideal, self.map_x, self.map_y, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE)


def ideal_view(camera: CameraSpec) -> IdealView:
    """The ideal canvas of ``camera`` (cached: sequences reuse one camera)."""
    intr = camera.intrinsics
    return _ideal_view(intr.image_size, intr.camera_matrix, intr.dist_coeffs,
                       camera.rvec, camera.tvec)


# Views kept: one. A sequence's frames share their camera and hit it; random scenes each have
# their own, so more never hit and only held their distortion maps (a 1080p pair of float32
# maps is 16 MB; the benchmark held ~14 MB over seeds 13744-13759, session 51).
VIEWS_KEPT = 1


@lru_cache(maxsize=VIEWS_KEPT)
def _ideal_view(size, camera_matrix, dist_coeffs, rvec, tvec) -> IdealView:
    K = np.array(camera_matrix, dtype=float)
    R = cv2.Rodrigues(np.asarray(rvec, dtype=float).reshape(3, 1))[0]
    t = np.asarray(tvec, dtype=float)
    w, h = size
    if not np.any(np.asarray(dist_coeffs, dtype=float)):
        return IdealView((w, h), K, R, t, None, None)
    # Exact undistortion on a coarse grid of output pixels, spanning the image and beyond.
    gx = np.arange(0, w + _GRID_STEP, _GRID_STEP, dtype=np.float64)
    gy = np.arange(0, h + _GRID_STEP, _GRID_STEP, dtype=np.float64)
    xx, yy = np.meshgrid(gx, gy)
    pts = np.stack([xx.ravel(), yy.ravel()], axis=1).reshape(-1, 1, 2)
    crit = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 100, 1e-10)
    und = cv2.undistortPoints(pts, K, np.asarray(dist_coeffs, dtype=float), None, K,
                              criteria=crit).reshape(len(gy), len(gx), 2)
    # The model must be invertible over the image (strong k1 alone folds back at the corners).
    rays = cv2.undistortPoints(pts, K, np.asarray(dist_coeffs, dtype=float), criteria=crit)
    back, _ = cv2.projectPoints(np.concatenate([rays, np.ones((len(rays), 1, 1))], axis=2),
                                np.zeros(3), np.zeros(3), K, np.asarray(dist_coeffs, float))
    if np.abs(back - pts).max() > 0.01:
        raise ValueError("dist_coeffs: the lens model folds over inside the image; "
                         "it cannot be inverted there")
    # Grow the ideal canvas so it holds every point the distorted image sees (capped at 2×).
    lo = np.floor(und.reshape(-1, 2).min(axis=0)) - 2
    hi = np.ceil(und.reshape(-1, 2).max(axis=0)) + 2
    lo = np.maximum(lo, [-w / 2, -h / 2])
    hi = np.minimum(hi, [w * 1.5, h * 1.5])
    off = -np.minimum(lo, 0.0)
    cw = int(max(hi[0], w - 1) + off[0]) + 1
    ch = int(max(hi[1], h - 1) + off[1]) + 1
    K2 = K.copy()
    K2[0, 2] += off[0]
    K2[1, 2] += off[1]
    small_x = (und[..., 0] + off[0]).astype(np.float32)
    small_y = (und[..., 1] + off[1]).astype(np.float32)
    # Bilinear interpolation of the grid at every output pixel (grid node i sits at i·step);
    # in numpy, since cv2.remap quantises its weights to 1/32.
    map_x = _bilinear(small_x, w, h)
    map_y = _bilinear(small_y, w, h)
    return IdealView((cw, ch), K2, R, t, map_x, map_y)


def _bilinear(grid: np.ndarray, w: int, h: int) -> np.ndarray:
    fx = np.arange(w, dtype=np.float64) / _GRID_STEP
    fy = np.arange(h, dtype=np.float64) / _GRID_STEP
    ix, iy = np.floor(fx).astype(int), np.floor(fy).astype(int)
    ax, ay = (fx - ix)[None, :], (fy - iy)[:, None]
    g = grid.astype(np.float64)
    top = g[iy][:, ix] * (1 - ax) + g[iy][:, ix + 1] * ax
    bot = g[iy + 1][:, ix] * (1 - ax) + g[iy + 1][:, ix + 1] * ax
    return (top * (1 - ay) + bot * ay).astype(np.float32)
