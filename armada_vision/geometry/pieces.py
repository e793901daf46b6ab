"""Piece sizes and their dimensions (rules.md §1).

Dimensions are configuration: the nominal Looney Pyramids values are the default, and a user can
enter caliper measurements of their own set. All lengths are millimetres.

>>> d = NOMINAL_PIECES.dims(Size.LARGE)
>>> round(d.footprint_length_mm, 3), round(d.long_side_mm, 3)
(46.229, 47.941)
>>> round(NOMINAL_PIECES.dims(Size.SMALL).max_turn_deg, 2)
74.85
>>> Size.parse("medium").pips, Size.MEDIUM.max_steps
(2, 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum


class Size(StrEnum):
    """Piece size class. Pips and steps per move come from the rulebook, not from dimensions."""

    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"

    @property
    def pips(self) -> int:
        return {"small": 1, "medium": 2, "large": 3}[self.value]

    @property
    def max_steps(self) -> int:
        """Most steps in one move: 4 / 2 / 1 for small / medium / large."""
        return {"small": 4, "medium": 2, "large": 1}[self.value]

    @classmethod
    def parse(cls, text: str, field: str = "size") -> Size:
        try:
            return cls(str(text).lower())
        except ValueError:
            raise ValueError(f"{field}: expected small, medium or large, got {text!r}") from None


@dataclass(frozen=True, slots=True)
class PieceDims:
    """A pyramid's base width w and height h, in mm; everything else derives from them."""

    base_w_mm: float
    height_mm: float

    def __post_init__(self) -> None:
        for name in ("base_w_mm", "height_mm"):
            v = getattr(self, name)
            if not (isinstance(v, int | float) and math.isfinite(v) and v > 0):
                raise ValueError(f"{name}: must be a positive number of mm, got {v!r}")

    @property
    def half_w_mm(self) -> float:
        return self.base_w_mm / 2.0

    @property
    def footprint_length_mm(self) -> float:
        """s: stern-edge midpoint to tip of the face lying on the table."""
        return math.hypot(self.height_mm, self.half_w_mm)

    @property
    def long_side_mm(self) -> float:
        """e: length of a footprint long side (a slant edge of the pyramid)."""
        return math.sqrt(self.height_mm**2 + self.base_w_mm**2 / 2.0)

    @property
    def face_base_angle_rad(self) -> float:
        """θ: dihedral angle between a face and the base, atan(h / (w/2))."""
        return math.atan2(self.height_mm, self.half_w_mm)

    @property
    def base_rise_mm(self) -> float:
        """Height of the raised base's two free corners above the table, w·sinθ."""
        return self.base_w_mm * math.sin(self.face_base_angle_rad)

    @property
    def base_reach_mm(self) -> float:
        """How far forward (+x, ship frame) the free base corners stand, w·cosθ."""
        return self.base_w_mm * math.cos(self.face_base_angle_rad)

    @property
    def max_turn_deg(self) -> float:
        """Rule §4.2 bound: a step turns by |φ| < 90° − atan((w/2)/s)."""
        return 90.0 - math.degrees(math.atan2(self.half_w_mm, self.footprint_length_mm))


@dataclass(frozen=True, slots=True)
class PieceSet:
    """Dimensions of the three sizes of one set of pieces."""

    small: PieceDims
    medium: PieceDims
    large: PieceDims

    def dims(self, size: Size | str) -> PieceDims:
        # A Size needs no parsing (a detect asks ~600 times).
        return getattr(self, size.value if isinstance(size, Size) else Size.parse(size).value)

    def size_by_length(self, length_mm: float) -> Size:
        """Nearest size class for a measured footprint length (mm)."""
        return min(Size, key=lambda z: abs(self.dims(z).footprint_length_mm - length_mm))

    def to_dict(self) -> dict[str, dict[str, float]]:
        return {
            z.value: {"base_w_mm": self.dims(z).base_w_mm, "height_mm": self.dims(z).height_mm}
            for z in Size
        }

    @classmethod
    def from_dict(cls, data: object, field: str = "pieces") -> PieceSet:
        """Build from ``{"small": {"base_w_mm": .., "height_mm": ..}, ...}``; missing sizes keep
        their nominal dimensions."""
        if not isinstance(data, dict):
            raise ValueError(f"{field}: expected an object keyed by size")
        out = {}
        for z in Size:
            entry = data.get(z.value)
            if entry is None:
                out[z.value] = NOMINAL_PIECES.dims(z)
                continue
            if not isinstance(entry, dict):
                raise ValueError(f"{field}.{z.value}: expected base_w_mm and height_mm")
            try:
                out[z.value] = PieceDims(float(entry["base_w_mm"]), float(entry["height_mm"]))
            except KeyError as e:
                raise ValueError(f"{field}.{z.value}: missing {e.args[0]}") from None
            except (TypeError, ValueError) as e:
                raise ValueError(f"{field}.{z.value}: {e}") from None
        unknown = set(data) - {z.value for z in Size}
        if unknown:
            raise ValueError(f"{field}: unknown size {sorted(unknown)[0]!r}")
        return cls(**out)


NOMINAL_PIECES = PieceSet(
    small=PieceDims(14.2875, 25.4),
    medium=PieceDims(19.84375, 34.925),
    large=PieceDims(25.4, 44.45),
)
