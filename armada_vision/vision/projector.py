"""Projector–camera calibration: where on the table each projector pixel lands.

The projector shows a ChArUco board (:class:`ProjectorPattern`); the camera sees it on the table;
the table calibration maps the seen corners from image px to table mm; ``cv2.findHomography``
(RANSAC) fits ``H_projector_from_table``, a plane-to-plane homography (the table is flat, so no
projector intrinsics are needed). Its residual is reported in table mm, and a later frame of the
same pattern re-checks it: a jump in the residual means the projector (or camera) was moved.

Frames: table mm (+x right, +y away from the viewer); camera image px and projector px both in
OpenCV's convention (x right, y down, pixel centres at integers).

Showing the pattern next to a blank frame (``image_off``) and detecting on the difference
removes the table's own texture (its ArUco markers, pieces, felt), so the board is found even on
a busy table; a single frame works too on a plain one.

>>> pat = ProjectorPattern.fit((1280, 800))
>>> pat.squares, pat.corners_px().shape
((12, 8), (77, 2))
>>> H = np.array([[2.0, 0, 10], [0, -2.0, 700], [0, 0, 1]])     # projector px from table mm
>>> apply_homography(H, [[100.0, 50.0]]).tolist()
[[210.0, 600.0]]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.vision.types import VisionFailure

Point = tuple[float, float]
Matrix3 = tuple[tuple[float, float, float], ...]

# A dictionary the table mat does not use (DICT_4X4_50), so the projected board never passes for
# a table marker and vice versa.
PATTERN_DICTIONARY = "DICT_5X5_250"


def apply_homography(H: Any, points: Any) -> np.ndarray:
    """Map (N, 2) points through the 3×3 homography ``H``; returns (N, 2) floats."""
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    Hm = np.asarray(H, dtype=float).reshape(3, 3)
    q = np.column_stack((pts, np.ones(len(pts)))) @ Hm.T
    return q[:, :2] / q[:, 2:3]


def H_image_from_table_pose(K: Any, rvec: Sequence[float], tvec: Sequence[float]) -> np.ndarray:
    """Homography from the table plane (z = 0, mm) to the pixels of a pinhole device (camera or
    projector) with matrix ``K`` and pose ``rvec``/``tvec`` (table → device, OpenCV convention),
    ignoring lens distortion: K·[r1 r2 t].

    >>> H = H_image_from_table_pose(np.diag([1000.0, 1000.0, 1.0]), (0, 0, 0), (0, 0, 1000))
    >>> apply_homography(H, [[10.0, 20.0]]).tolist()
    [[10.0, 20.0]]
    """
    R, _ = cv2.Rodrigues(np.asarray(rvec, dtype=float).reshape(3, 1))
    M = np.column_stack((R[:, 0], R[:, 1], np.asarray(tvec, dtype=float).reshape(3)))
    H = np.asarray(K, dtype=float) @ M
    return H / H[2, 2]


@dataclass(frozen=True, slots=True)
class ProjectorPattern:
    """A ChArUco board drawn into a projector image of ``size_px`` (w, h): ``squares`` (columns,
    rows) of ``square_px`` pixels with the board's top-left at ``origin_px``; the rest is black
    (no light)."""

    size_px: tuple[int, int]
    squares: tuple[int, int]
    square_px: int
    origin_px: tuple[int, int]
    dictionary: str = PATTERN_DICTIONARY
    marker_ratio: float = 0.7

    @classmethod
    def fit(cls, size_px: tuple[int, int], squares: tuple[int, int] = (12, 8),
            margin_frac: float = 0.04) -> ProjectorPattern:
        """The largest board of ``squares`` that fits ``size_px`` with a margin, centred."""
        w, h = int(size_px[0]), int(size_px[1])
        if w < 64 or h < 64:
            raise ValueError(f"projector_size: expected at least 64×64 px, got {w}×{h}")
        cols, rows = int(squares[0]), int(squares[1])
        if cols < 3 or rows < 3:
            raise ValueError("squares: expected at least 3×3")
        usable_w, usable_h = w * (1 - 2 * margin_frac), h * (1 - 2 * margin_frac)
        sq = int(min(usable_w / cols, usable_h / rows))
        origin = ((w - cols * sq) // 2, (h - rows * sq) // 2)
        return cls((w, h), (cols, rows), sq, origin)

    def board(self) -> Any:
        d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, self.dictionary))
        return cv2.aruco.CharucoBoard(self.squares, 1.0, self.marker_ratio, d)

    def image(self) -> np.ndarray:
        """The projector frame to show full screen: (h, w, 3) BGR uint8."""
        cols, rows = self.squares
        img = self.board().generateImage((cols * self.square_px, rows * self.square_px),
                                         marginSize=0, borderBits=1)
        w, h = self.size_px
        out = np.zeros((h, w), np.uint8)
        x0, y0 = self.origin_px
        out[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] = img
        return cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)

    def corners_px(self) -> np.ndarray:
        """Inner chessboard corners in projector px, indexed by ChArUco corner id: (N, 2).
        A corner between squares k−1 and k sits at origin + k·square − 0.5 (pixel centres at
        integers)."""
        obj = np.asarray(self.board().getChessboardCorners(), dtype=float)[:, :2]
        return np.asarray(self.origin_px, dtype=float) + obj * self.square_px - 0.5

    def to_dict(self) -> dict[str, Any]:
        return {"projector_size": list(self.size_px), "squares": list(self.squares),
                "square_px": self.square_px, "origin_px": list(self.origin_px),
                "dictionary": self.dictionary, "marker_ratio": self.marker_ratio}


@dataclass(frozen=True, slots=True)
class ProjectorCalibration:
    """The table→projector mapping and how well the pattern agreed with it.

    ``residual_*_mm``: distance on the table between where each detected corner was seen (via
    the table calibration) and where the fitted homography puts that projector pixel.
    ``points``: corners used (RANSAC inliers) of ``found`` detected.
    """

    projector_size: tuple[int, int]
    H_projector_from_table: Matrix3
    residual_mean_mm: float
    residual_max_mm: float
    points: int
    found: int

    @property
    def H(self) -> np.ndarray:
        return np.array(self.H_projector_from_table, dtype=float)

    def to_projector(self, points_mm: Any) -> np.ndarray:
        """(N, 2) table mm → (N, 2) projector px."""
        return apply_homography(self.H, points_mm)

    def to_table(self, points_px: Any) -> np.ndarray:
        """(N, 2) projector px → (N, 2) table mm."""
        return apply_homography(np.linalg.inv(self.H), points_px)

    def to_dict(self) -> dict[str, Any]:
        """The projector calibration file (docs/projector.md)."""
        return {"projector_size": list(self.projector_size),
                "H_projector_from_table": [[float(v) for v in r]
                                           for r in self.H_projector_from_table],
                "residual_mean_mm": round(self.residual_mean_mm, 4),
                "residual_max_mm": round(self.residual_max_mm, 4),
                "points": self.points, "found": self.found}

    @classmethod
    def from_dict(cls, data: Any) -> ProjectorCalibration:
        """Parse the calibration file; ValueError names the bad field."""
        if not isinstance(data, dict):
            raise ValueError("projector calibration: expected a JSON object")
        size = data.get("projector_size")
        if (not isinstance(size, list | tuple) or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0
                           for v in size)):
            raise ValueError("projector_size: expected [width, height] in whole pixels")
        try:
            H = np.array(data.get("H_projector_from_table"), dtype=float)
        except (TypeError, ValueError):
            raise ValueError("H_projector_from_table: expected a 3×3 matrix of numbers") from None
        if H.shape != (3, 3) or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
            raise ValueError("H_projector_from_table: expected an invertible 3×3 matrix")
        nums = {}
        for k in ("residual_mean_mm", "residual_max_mm", "points", "found"):
            v = data.get(k, 0)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise ValueError(f"{k}: expected a number")
            nums[k] = v
        return cls((int(size[0]), int(size[1])), _mat3(H), float(nums["residual_mean_mm"]),
                   float(nums["residual_max_mm"]), int(nums["points"]), int(nums["found"]))


@dataclass(frozen=True, slots=True)
class ProjectorCheck:
    """A re-check frame against a stored calibration: residual (table mm) and the verdict
    ``moved`` (mean residual above ``threshold_mm``)."""

    residual_mean_mm: float
    residual_max_mm: float
    points: int
    threshold_mm: float
    moved: bool


def _mat3(H: np.ndarray) -> Matrix3:
    H = H / H[2, 2]
    return tuple(tuple(float(v) for v in row) for row in H)  # type: ignore[return-value]


def _gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 2:
        return image.astype(np.float32)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)


def pattern_view(image_on: np.ndarray, image_off: np.ndarray | None = None) -> np.ndarray:
    """The camera image the board is searched in: the on−off difference stretched to 0–255
    (the table's own texture cancels), or the plain grey image without ``image_off``."""
    g = _gray(image_on)
    if image_off is not None:
        if image_off.shape[:2] != image_on.shape[:2]:
            raise ValueError("image_off: must have the same size as image_on")
        g = np.clip(g - _gray(image_off), 0, None)
    hi = float(np.percentile(g, 99.5))
    if hi <= 1e-6:
        return np.zeros(g.shape, np.uint8)
    return np.clip(g * (255.0 / hi), 0, 255).astype(np.uint8)


def find_pattern(
    image_on: np.ndarray, pattern: ProjectorPattern, image_off: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray] | VisionFailure:
    """Detect the projected board in a camera image: (corners in image px (N, 2), their ChArUco
    ids (N,)), or a VisionFailure when fewer than 6 corners are seen."""
    if image_on is None or getattr(image_on, "size", 0) == 0:
        return VisionFailure("unreadable", "no camera image")
    view = pattern_view(image_on, image_off)
    if view.max() == 0:
        return VisionFailure("too_dark", "the projected pattern is not visible (no light)")
    detector = cv2.aruco.CharucoDetector(pattern.board())
    corners, ids, _mc, _mi = detector.detectBoard(view)
    n = 0 if ids is None else len(ids)
    if n < 6:
        return VisionFailure("too_few_markers",
                             f"projected pattern: {n} corners found, at least 6 needed")
    return corners.reshape(-1, 2).astype(float), ids.reshape(-1).astype(int)


def _to_table(points_px: np.ndarray, H_table_from_image: Any,
              camera: CameraIntrinsics | None) -> np.ndarray:
    if hasattr(H_table_from_image, "image_to_table"):   # a vision.calibrate TableCalibration
        return np.asarray(H_table_from_image.image_to_table(points_px), dtype=float)
    pts = points_px
    if camera is not None and any(abs(v) > 0 for v in camera.dist_coeffs):
        # The table homography is taken to act on undistorted pixels when a camera is given.
        pts = cv2.undistortPoints(pts.reshape(-1, 1, 2), camera.K, camera.dist,
                                  P=camera.K).reshape(-1, 2)
    return apply_homography(H_table_from_image, pts)


def _residuals_mm(H_projector_from_table: np.ndarray, table_mm: np.ndarray,
                  projector_px: np.ndarray) -> np.ndarray:
    back = apply_homography(np.linalg.inv(H_projector_from_table), projector_px)
    return np.linalg.norm(back - table_mm, axis=1)


def calibrate_projector(
    image_on: np.ndarray, pattern: ProjectorPattern, H_table_from_image: Any, *,
    image_off: np.ndarray | None = None, camera: CameraIntrinsics | None = None,
    ransac_px: float = 4.0,
) -> ProjectorCalibration | VisionFailure:
    """Fit ``H_projector_from_table`` from a camera image of the projected ``pattern``.

    ``H_table_from_image``: the table calibration, either a ``TableCalibration`` of
    ``vision.calibrate`` (its ``image_to_table`` is used, distortion included) or a 3×3
    homography from camera px (undistorted with ``camera`` when that has distortion) to table
    mm; ``image_off`` is the same view with the projector
    black. RANSAC (``ransac_px`` in projector px) drops corners seen wrongly (a piece's edge, a
    hand); the residual is measured on the inliers in table mm.
    """
    found = find_pattern(image_on, pattern, image_off)
    if isinstance(found, VisionFailure):
        return found
    corners_img, ids = found
    table_mm = _to_table(corners_img, H_table_from_image, camera)
    proj_px = pattern.corners_px()[ids]
    H, mask = cv2.findHomography(table_mm, proj_px, cv2.RANSAC, ransac_px)
    if H is None:
        return VisionFailure("bad_calibration", "projected pattern: no homography fits")
    inl = mask.reshape(-1).astype(bool)
    if inl.sum() < 6:
        return VisionFailure("bad_calibration",
                             f"projected pattern: only {int(inl.sum())} corners agree")
    res = _residuals_mm(H, table_mm[inl], proj_px[inl])
    return ProjectorCalibration(pattern.size_px, _mat3(H), float(res.mean()), float(res.max()),
                                int(inl.sum()), len(ids))


def check_projector(
    image_on: np.ndarray, pattern: ProjectorPattern, H_table_from_image: Any,
    calibration: ProjectorCalibration, *, image_off: np.ndarray | None = None,
    camera: CameraIntrinsics | None = None, moved_mm: float | None = None,
) -> ProjectorCheck | VisionFailure:
    """Re-check a stored calibration on a new frame of the pattern, without refitting.

    ``moved`` when the mean residual exceeds ``moved_mm`` (default: the larger of 1.5 mm and
    three times the calibration's own mean residual); the median keeps one bad corner from
    raising the alarm, so the mean is taken over corners within 5× the median.
    """
    found = find_pattern(image_on, pattern, image_off)
    if isinstance(found, VisionFailure):
        return found
    corners_img, ids = found
    table_mm = _to_table(corners_img, H_table_from_image, camera)
    res = _residuals_mm(calibration.H, table_mm, pattern.corners_px()[ids])
    keep = res <= max(5.0 * float(np.median(res)), 0.5)
    mean = float(res[keep].mean())
    thr = moved_mm if moved_mm is not None else max(1.5, 3.0 * calibration.residual_mean_mm)
    return ProjectorCheck(mean, float(res.max()), int(keep.sum()), thr, mean > thr)


def mapping_error_mm(calibration: ProjectorCalibration, H_projector_from_table_true: Any,
                     region_mm: Any, step_mm: float = 10.0) -> tuple[float, float]:
    """(mean, max) distance on the table between where the calibration and the true mapping
    send the same projector pixel, over a grid of table points inside the (N, 2) polygon
    ``region_mm`` (for simulations, where the true mapping is known)."""
    poly = np.asarray(region_mm, dtype=np.float32).reshape(-1, 2)
    x0, y0 = poly.min(axis=0)
    x1, y1 = poly.max(axis=0)
    xs, ys = np.meshgrid(np.arange(x0, x1 + 1e-9, step_mm), np.arange(y0, y1 + 1e-9, step_mm))
    grid = np.column_stack((xs.ravel(), ys.ravel()))
    inside = np.array([cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0
                       for x, y in grid])
    grid = grid[inside]
    px = apply_homography(H_projector_from_table_true, grid)
    est = calibration.to_table(px)
    d = np.linalg.norm(est - grid, axis=1)
    return float(d.mean()), float(d.max())


# --- What is projected: shapes in table mm, drawn into projector px -------------------------

LAYERS: tuple[str, ...] = ("reach", "step", "firing", "ruler", "line_of_fire", "last_move")
DEFAULT_COLORS: dict[str, str] = {
    "reach": "#2f6bff", "step": "#22d36b", "firing": "#ff9a1f", "ruler": "#ffffff",
    "line_of_fire": "#ff3b3b", "last_move": "#c8b4ff",
}


@dataclass(frozen=True, slots=True)
class Overlay:
    """One shape to project: its ``layer`` (one of :data:`LAYERS`) and rings in table mm.
    Closed: a polygon, exterior ring first, then holes (filled even–odd and outlined).
    Open: each ring is a polyline (a path, an arrow shaft)."""

    layer: str
    rings_mm: tuple[tuple[Point, ...], ...]
    closed: bool = True

    def __post_init__(self) -> None:
        if self.layer not in LAYERS:
            raise ValueError(f"layer: expected one of {', '.join(LAYERS)}, got {self.layer!r}")


@dataclass(frozen=True, slots=True)
class ProjectorStyle:
    """How overlays look: colours per layer (``#rrggbb``), overall ``brightness`` (0–1),
    fill opacity ``fill_alpha`` (0–1; 0 draws outlines only), outline width ``line_px``,
    ``hidden`` layers, and ``clear_mm``: how far the light is kept off every ship on the table
    (so the projection does not fall on the pieces the camera measures; 0: not at all)."""

    colors: tuple[tuple[str, str], ...] = tuple(DEFAULT_COLORS.items())
    brightness: float = 0.8
    fill_alpha: float = 0.25
    line_px: float = 3.0
    hidden: tuple[str, ...] = ()
    clear_mm: float = 6.0

    def color(self, layer: str) -> str:
        return dict(self.colors).get(layer, "#ffffff")

    def bgr(self, layer: str, alpha: float = 1.0) -> tuple[float, float, float]:
        """Colour of ``layer`` as BGR 0–255 scaled by brightness × ``alpha``."""
        h = self.color(layer).lstrip("#")
        r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
        k = max(0.0, min(1.0, self.brightness)) * alpha
        return (b * k, g * k, r * k)

    def to_dict(self) -> dict[str, Any]:
        return {"colors": dict(self.colors), "brightness": self.brightness,
                "fill_alpha": self.fill_alpha, "line_px": self.line_px,
                "hidden": list(self.hidden), "clear_mm": self.clear_mm}


_SHIFT = 4  # cv2 fixed-point bits: vertices to 1/16 px


def draw_overlays(overlays: Sequence[Overlay], H_projector_from_table: Any,
                  size_px: tuple[int, int], style: ProjectorStyle | None = None) -> np.ndarray:
    """The projector frame for ``overlays`` (table mm) through ``H_projector_from_table``:
    (h, w, 3) BGR uint8 on black (black = no light). Layers are drawn in :data:`LAYERS` order
    so the ruler and line of fire sit on top of the zones. The browser page draws the same
    thing on a canvas; this is for simulations, snapshots and the command line."""
    style = style or ProjectorStyle()
    w, h = int(size_px[0]), int(size_px[1])
    acc = np.zeros((h, w, 3), np.float32)
    scale = float(1 << _SHIFT)
    order = {name: i for i, name in enumerate(LAYERS)}
    for ov in sorted(overlays, key=lambda o: order[o.layer]):
        if ov.layer in style.hidden or not ov.rings_mm:
            continue
        rings = [np.round(apply_homography(H_projector_from_table, r) * scale).astype(np.int32)
                 for r in ov.rings_mm if len(r) >= 2]
        thick = max(1, round(style.line_px))
        if ov.closed and style.fill_alpha > 0:
            layer = np.zeros_like(acc)
            cv2.fillPoly(layer, rings, style.bgr(ov.layer), lineType=cv2.LINE_AA, shift=_SHIFT)
            acc = acc * (1 - style.fill_alpha * (layer.max(axis=2, keepdims=True) > 0)) \
                + layer * style.fill_alpha
        layer = np.zeros_like(acc)
        cv2.polylines(layer, rings, ov.closed, style.bgr(ov.layer), thick, cv2.LINE_AA,
                      shift=_SHIFT)
        on = layer.max(axis=2, keepdims=True) > 0
        acc = np.where(on, layer, acc)
    return np.clip(acc, 0, 255).astype(np.uint8)
