"""What the vision layer returns: detections as a data structure, failures as values.

Coordinates: ``*_mm`` in the table frame (mm, +y away from the viewer); ``*_px`` in the image
frame (OpenCV: x right, y down, pixel centres at integers). Drawing lives elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class DetectedPiece:
    """One pyramid lying flat: size class, colour, pose (stern, heading), tip, uncertainty."""

    size: Size
    color: str
    pose: Pose
    tip_mm: Point
    sigma_mm: float
    sigma_deg: float
    in_play_area: bool
    outline_px: tuple[Point, ...] = ()
    track_id: str | None = None
    score: float = 1.0

    def to_json(self) -> dict[str, Any]:
        """The piece object of interfaces.md ``detect --json``, plus ``id`` when tracked."""
        out: dict[str, Any] = {
            "size": self.size.value,
            "color": self.color,
            "stern": [round(self.pose.x_mm, 3), round(self.pose.y_mm, 3)],
            "tip": [round(self.tip_mm[0], 3), round(self.tip_mm[1], 3)],
            "heading": round(self.pose.heading_deg, 3),
            "sigma_mm": round(self.sigma_mm, 3),
            "sigma_deg": round(self.sigma_deg, 3),
            "in_play_area": self.in_play_area,
        }
        if self.track_id is not None:
            out["id"] = self.track_id
        return out


@dataclass(frozen=True, slots=True)
class UprightPiece:
    """A pyramid standing on its base: not a ship. Position of its apex's foot, table mm."""

    size: Size
    color: str
    center_mm: Point

    def to_json(self) -> dict[str, Any]:
        return {"size": self.size.value, "color": self.color,
                "center": [round(self.center_mm[0], 3), round(self.center_mm[1], 3)]}


@dataclass(frozen=True, slots=True)
class CalibrationInfo:
    """How the image was tied to the table: markers used, reprojection error, homography,
    and whether the camera intrinsics were given or estimated."""

    markers_found: tuple[int, ...]
    reprojection_error_px: float
    H_table_from_image: tuple[tuple[float, float, float], ...]
    intrinsics_source: str = "given"  # "given" | "estimated"
    rvec: tuple[float, float, float] | None = None
    tvec: tuple[float, float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"markers_found": list(self.markers_found),
                "reprojection_error_px": round(self.reprojection_error_px, 4),
                "intrinsics": self.intrinsics_source}


@dataclass(frozen=True, slots=True)
class Detections:
    """All pieces found in one image."""

    image_size: tuple[int, int]
    calibration: CalibrationInfo
    pieces: tuple[DetectedPiece, ...]
    upright: tuple[UprightPiece, ...] = ()
    elapsed_ms: float = 0.0
    notes: tuple[str, ...] = field(default=())

    def to_json(self, image_name: str | None = None) -> dict[str, Any]:
        """The object printed by ``detect --json`` (interfaces.md)."""
        out: dict[str, Any] = {}
        if image_name is not None:
            out["image"] = image_name
        out.update({
            "image_size": list(self.image_size),
            "calibration": self.calibration.to_json(),
            "pieces": [p.to_json() for p in self.pieces],
            "upright": [u.to_json() for u in self.upright],
            "elapsed_ms": round(self.elapsed_ms, 2),
        })
        return out


@dataclass(frozen=True, slots=True)
class VisionFailure:
    """Why an image gave no detections: a value, with a one-line reason for the user.

    ``code``: ``unreadable`` | ``too_few_markers`` | ``too_dark`` | ``blown_out`` |
    ``bad_calibration`` | ``occluded``.
    """

    code: str
    reason: str

    def __str__(self) -> str:
        return self.reason
