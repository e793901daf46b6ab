"""Pose of a lying piece in the table frame (rules.md §1, interfaces.md).

Table frame: millimetres, +x right, +y away from the viewer, seen from above. Heading: degrees
counter-clockwise from +x, normalised to [0, 360). The pose names the stern-edge midpoint.

>>> p = Pose(100.0, 50.0, -90.0)
>>> p
Pose(x_mm=100.0, y_mm=50.0, heading_deg=270.0)
>>> str(p)
'pose x_mm=100.0 y_mm=50.0 heading_deg=270.0'
>>> Pose.parse(str(p)) == p
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from armada_vision.geometry.text import format_fields, parse_fields, take_float


def normalize_deg(angle_deg: float) -> float:
    """Angle in degrees mapped to [0, 360).

    >>> normalize_deg(-1e-18), normalize_deg(725.0)
    (0.0, 5.0)
    """
    a = math.fmod(float(angle_deg), 360.0)
    if a < 0.0:
        a += 360.0
    return 0.0 if a >= 360.0 else a + 0.0  # + 0.0 turns -0.0 into 0.0


def angle_diff_deg(a_deg: float, b_deg: float) -> float:
    """Signed smallest difference a − b in degrees, in [−180, 180).

    >>> angle_diff_deg(10.0, 350.0), angle_diff_deg(350.0, 10.0)
    (20.0, -20.0)
    """
    return normalize_deg(a_deg - b_deg + 180.0) - 180.0


@dataclass(frozen=True, slots=True)
class Pose:
    """Stern-edge midpoint (x_mm, y_mm) in the table frame and heading_deg in [0, 360)."""

    x_mm: float
    y_mm: float
    heading_deg: float

    def __post_init__(self) -> None:
        x, y, h = self.x_mm, self.y_mm, self.heading_deg
        if (type(x) is float and type(y) is float and type(h) is float and math.isfinite(x)
                and math.isfinite(y) and math.isfinite(h)):
            # Plain finite floats (every fit's poses, ~300 a detect): nothing to convert.
            object.__setattr__(self, "heading_deg", normalize_deg(h))
            return
        for name in ("x_mm", "y_mm", "heading_deg"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise ValueError(f"{name}: must be a finite number, got {v!r}")
            object.__setattr__(self, name, float(v))
        object.__setattr__(self, "heading_deg", normalize_deg(self.heading_deg))

    @property
    def stern_mm(self) -> tuple[float, float]:
        return (self.x_mm, self.y_mm)

    @property
    def direction(self) -> tuple[float, float]:
        """Unit vector of the heading in the table frame."""
        a = math.radians(self.heading_deg)
        return (math.cos(a), math.sin(a))

    def tip_mm(self, length_mm: float) -> tuple[float, float]:
        """Tip of a piece whose footprint is ``length_mm`` long (s of rules.md §1)."""
        c, s = self.direction
        return (self.x_mm + length_mm * c, self.y_mm + length_mm * s)

    @classmethod
    def with_tip(cls, tip_mm: tuple[float, float] | np.ndarray, heading_deg: float,
                 length_mm: float) -> Pose:
        """The pose of a piece whose footprint is ``length_mm`` long, heading ``heading_deg``,
        with its tip at ``tip_mm`` (the inverse of :meth:`tip_mm`).

        >>> Pose.with_tip((110.0, 50.0), 90.0, 10.0).tip_mm(10.0)
        (110.0, 50.0)
        """
        a = math.radians(heading_deg)
        return cls(tip_mm[0] - length_mm * math.cos(a), tip_mm[1] - length_mm * math.sin(a),
                   heading_deg)

    def to_table(self, points_ship: np.ndarray) -> np.ndarray:
        """Map (N, 2) points from the ship frame (stern origin, tip +x, y to port) to table mm."""
        c, s = self.direction
        pts = np.asarray(points_ship, dtype=float)
        return np.column_stack(
            (self.x_mm + c * pts[:, 0] - s * pts[:, 1], self.y_mm + s * pts[:, 0] + c * pts[:, 1])
        )

    def moved(self, dx_mm: float = 0.0, dy_mm: float = 0.0, turn_deg: float = 0.0) -> Pose:
        """A new pose shifted in the table frame and turned counter-clockwise."""
        return Pose(self.x_mm + dx_mm, self.y_mm + dy_mm, self.heading_deg + turn_deg)

    @classmethod
    def from_stern_tip(cls, stern_mm: tuple[float, float], tip_mm: tuple[float, float]) -> Pose:
        """Pose from the stern midpoint and the tip, both in table mm."""
        dx, dy = tip_mm[0] - stern_mm[0], tip_mm[1] - stern_mm[1]
        return cls(stern_mm[0], stern_mm[1], math.degrees(math.atan2(dy, dx)))

    def __str__(self) -> str:
        return format_fields(
            "pose", {"x_mm": self.x_mm, "y_mm": self.y_mm, "heading_deg": self.heading_deg}
        )

    @classmethod
    def parse(cls, text: str) -> Pose:
        f = parse_fields(text, "pose")
        return cls(*(take_float(f, k, "pose") for k in ("x_mm", "y_mm", "heading_deg")))
