"""What a synthetic scene is made of: pieces, camera, extras, projector light, surface.

Frames: table mm (+x right, +y away from the viewer, +z up); camera pose in OpenCV's
convention, ``X_cam = R·X_table + t`` with ``R = Rodrigues(rvec)``; image px (x right, y down).

>>> cam = CameraSpec.looking_at((1920, 1080), (300.0, 300.0), 1000.0, tilt_deg=0.0)
>>> [round(v, 3) for v in cam.center_mm]
[300.0, 300.0, 1000.0]
>>> [round(float(v), 1) for v in cam.project([[300.0, 300.0, 0.0]])[0]]
[959.5, 539.5]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceSet, Size
from armada_vision.geometry.pose import Pose

Point = tuple[float, float]

# The ten Looney colours; black and white are opaque, the rest translucent.
COLORS: tuple[str, ...] = ("red", "yellow", "green", "blue", "black", "orange", "cyan",
                           "purple", "white", "clear")
SURFACES: tuple[str, ...] = ("wood", "felt", "cloth", "laminate")


@dataclass(frozen=True, slots=True)
class PieceSpec:
    """A pyramid. Lying (default): ``pose`` is its stern midpoint and heading, table mm.
    Upright (``upright=True``): standing on its base, ``pose.x/y`` is the base centre and the
    heading turns the square base."""

    size: Size
    color: str
    pose: Pose
    upright: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", Size.parse(self.size))
        if self.color not in COLORS:
            raise ValueError(f"color: expected one of {', '.join(COLORS)}, got {self.color!r}")


@dataclass(frozen=True, slots=True)
class CameraSpec:
    """Intrinsics plus pose: ``X_cam = R(rvec)·X_table + tvec`` (table mm, z up)."""

    intrinsics: CameraIntrinsics
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]

    @property
    def R(self) -> np.ndarray:
        return cv2.Rodrigues(np.asarray(self.rvec, dtype=float).reshape(3, 1))[0]

    @property
    def center_mm(self) -> tuple[float, float, float]:
        """Camera centre in the table frame (mm)."""
        c = -self.R.T @ np.asarray(self.tvec, dtype=float)
        return (float(c[0]), float(c[1]), float(c[2]))

    def project(self, points_mm: Any) -> np.ndarray:
        """(N, 3) table-mm points → (N, 2) image px, with the lens distortion."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 3)
        px, _ = cv2.projectPoints(pts, np.asarray(self.rvec, dtype=float),
                                  np.asarray(self.tvec, dtype=float),
                                  self.intrinsics.K, self.intrinsics.dist)
        return px.reshape(-1, 2)

    def to_dict(self) -> dict[str, Any]:
        """The camera file of interfaces.md plus the pose (``rvec``, ``tvec``)."""
        out = self.intrinsics.to_dict()
        out["rvec"] = list(self.rvec)
        out["tvec"] = list(self.tvec)
        return out

    @classmethod
    def from_dict(cls, data: Any) -> CameraSpec:
        intr = CameraIntrinsics.from_dict(data)
        for key in ("rvec", "tvec"):
            v = data.get(key)
            if not isinstance(v, list | tuple) or len(v) != 3:
                raise ValueError(f"{key}: expected three numbers")
        return cls(intr, tuple(float(v) for v in data["rvec"]),
                   tuple(float(v) for v in data["tvec"]))

    @classmethod
    def looking_at(cls, image_size: tuple[int, int], target_mm: Point, height_mm: float,
                   tilt_deg: float, yaw_deg: float = 0.0, fov_deg: float = 60.0,
                   dist_coeffs: tuple[float, ...] = (0.0,) * 5) -> CameraSpec:
        """A camera ``height_mm`` above the table whose optical axis hits ``target_mm`` (table
        mm), tilted ``tilt_deg`` from straight down towards +y (the viewer sits at −y) and turned
        ``yaw_deg`` counter-clockwise about the vertical; ``fov_deg`` is the horizontal field of
        view. Image right is table +x and image down table −y when yaw and tilt are 0."""
        if not 0.0 <= tilt_deg < 89.0:
            raise ValueError(f"tilt_deg: expected 0 ≤ tilt < 89, got {tilt_deg}")
        if height_mm <= 0:
            raise ValueError(f"height_mm: must be positive, got {height_mm}")
        if not 1.0 < fov_deg < 170.0:
            raise ValueError(f"fov_deg: expected 1–170 degrees, got {fov_deg}")
        w, h = int(image_size[0]), int(image_size[1])
        t, y = math.radians(tilt_deg), math.radians(yaw_deg)
        cy_, sy_ = math.cos(y), math.sin(y)
        fwd = np.array([-sy_ * math.sin(t), cy_ * math.sin(t), -math.cos(t)])
        right = np.array([cy_, sy_, 0.0])
        down = np.cross(fwd, right)
        R = np.vstack([right, down, fwd])
        center = np.array([target_mm[0], target_mm[1], 0.0]) - fwd * (height_mm / math.cos(t))
        rvec = cv2.Rodrigues(R)[0].ravel()
        if np.abs(cv2.Rodrigues(rvec)[0] - R).max() > 1e-10:
            # OpenCV's R → rvec is ill-conditioned near 180° (a camera straight down: tilt
            # 6e-5° put the target 0.002 px off the principal point); from the quaternion.
            rvec = _rvec_near_half_turn(R)
        # The pose is what rvec says: t from R(rvec).
        tvec = -cv2.Rodrigues(rvec)[0] @ center
        f = (w / 2.0) / math.tan(math.radians(fov_deg) / 2.0)
        K = ((f, 0.0, (w - 1) / 2.0), (0.0, f, (h - 1) / 2.0), (0.0, 0.0, 1.0))
        intr = CameraIntrinsics((w, h), K, tuple(float(v) for v in dist_coeffs))
        return cls(intr, tuple(float(v) for v in rvec), tuple(float(v) for v in tvec))


@dataclass(frozen=True, slots=True)
class Chit:
    """A round damage chit lying on the table: centre (table mm), radius, colour, label."""

    center_mm: Point
    radius_mm: float = 9.0
    color: str = "red"
    label: str = "1"
    kind: str = field(default="chit", init=False)


@dataclass(frozen=True, slots=True)
class Coin:
    """A metal coin lying on the table: centre (table mm), radius, thickness."""

    center_mm: Point
    radius_mm: float = 11.0
    thickness_mm: float = 1.8
    kind: str = field(default="coin", init=False)


@dataclass(frozen=True, slots=True)
class Die:
    """A six-sided die: centre (table mm), side, turn about z (degrees), value on top."""

    center_mm: Point
    side_mm: float = 16.0
    yaw_deg: float = 0.0
    value: int = 6
    color: str = "white"
    kind: str = field(default="die", init=False)


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand and arm reaching in above the table: the arm enters at ``from_mm`` (usually
    beyond the table edge), the palm centre hovers over ``to_mm`` at ``height_mm`` (table mm)."""

    from_mm: Point
    to_mm: Point
    height_mm: float = 60.0
    kind: str = field(default="hand", init=False)


Extra = Chit | Coin | Die | Hand


@dataclass(frozen=True, slots=True)
class ProjectorSpec:
    """Projector light added onto the table: ``image_bgr`` (uint8) seen through a pinhole with
    ``intrinsics`` and pose ``X_proj = R(rvec)·X_table + tvec`` (table mm); ``gain`` scales the
    light (0–1 is gentle, ~1 is a bright projector in a dim room)."""

    image_bgr: np.ndarray = field(repr=False, compare=False)
    intrinsics: CameraIntrinsics
    rvec: tuple[float, float, float]
    tvec: tuple[float, float, float]
    gain: float = 0.6


@dataclass(frozen=True, slots=True)
class SceneSpec:
    """Everything a render needs; rendering is a pure function of it (seed included)."""

    layout: TableLayout
    camera: CameraSpec
    pieces: tuple[PieceSpec, ...]
    surface: str = "wood"
    extras: tuple[Extra, ...] = ()
    projector: ProjectorSpec | None = None
    noise_sigma: float = 2.0
    jpeg_quality: int | None = None
    seed: int = 0
    piece_set: PieceSet = NOMINAL_PIECES
    table_mm: tuple[float, float] | None = None   # table extent; None: from the layout
    light_dir: tuple[float, float, float] = (-0.35, -0.45, 1.0)  # towards the light, table frame
    # False: flat-shaded geometry only (no shadows, bright edges or refraction), for checks.
    effects: bool = True
    table_seed: int | None = None   # seeds the table texture (None: ``seed``); frames share it
    table_margin_mm: float = 40.0   # the table top reaches this far beyond the layout's extent
    blur_px: float = 0.5            # lens and sensor softness (Gaussian σ, output px)
    exposure: float = 1.0           # overall gain of the camera
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)   # per-channel gain, BGR

    def __post_init__(self) -> None:
        if self.surface not in SURFACES:
            raise ValueError(f"surface: expected one of {', '.join(SURFACES)}, "
                             f"got {self.surface!r}")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"jpeg_quality: expected 1–100, got {self.jpeg_quality}")
        if self.noise_sigma < 0:
            raise ValueError("noise_sigma: must not be negative")
        if self.blur_px < 0:
            raise ValueError("blur_px: must not be negative")
        if not (self.exposure > 0 and all(g > 0 for g in self.white_balance)):
            raise ValueError("exposure, white_balance: gains must be positive")

    def table_extent_mm(self) -> tuple[float, float]:
        """(width, depth) of the table top in mm, origin at its near-left corner."""
        if self.table_mm is not None:
            return self.table_mm
        xs = [m.center_mm[0] + m.size_mm / 2 for m in self.layout.markers]
        ys = [m.center_mm[1] + m.size_mm / 2 for m in self.layout.markers]
        xs += [p[0] for p in self.layout.play_area_mm]
        ys += [p[1] for p in self.layout.play_area_mm]
        return (max(xs) + 5.0, max(ys) + 5.0)


def _rvec_near_half_turn(R: np.ndarray) -> np.ndarray:
    """Rotation vector of rotation matrix ``R`` by its quaternion, which stays well
    conditioned near a half turn (the axis from the largest diagonal term)."""
    d = np.diag(R)
    k = int(np.argmax(d))
    i, j = (k + 1) % 3, (k + 2) % 3
    v = np.zeros(3)
    v[k] = math.sqrt(max(1.0 + d[k] - d[i] - d[j], 0.0)) / 2.0
    v[i] = (R[i, k] + R[k, i]) / (4.0 * v[k])
    v[j] = (R[j, k] + R[k, j]) / (4.0 * v[k])
    w = (R[j, i] - R[i, j]) / (4.0 * v[k])
    if w < 0:  # the same rotation; keep the angle in [0, π]
        v, w = -v, -w
    angle = 2.0 * math.atan2(float(np.linalg.norm(v)), w)
    return v / np.linalg.norm(v) * angle
