"""The table layout file (interfaces.md): ArUco markers in table mm and the play area.

>>> lay = TableLayout.from_dict({"name": "t", "dictionary": "DICT_4X4_50",
...     "markers": [{"id": 0, "center": [0.0, 0.0], "size": 50.0, "rotation": 0.0}],
...     "play_area": [[30, 30], [630, 30], [630, 630], [30, 630]]}, min_markers=1)
>>> lay.markers[0].corners_mm().tolist()
[[-25.0, 25.0], [25.0, 25.0], [25.0, -25.0], [-25.0, -25.0]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

Point = tuple[float, float]


def _num(v: object, field: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise ValueError(f"{field}: expected a number, got {v!r}")
    return float(v)


def _point(v: object, field: str) -> Point:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise ValueError(f"{field}: expected [x, y]")
    return (_num(v[0], f"{field}[0]"), _num(v[1], f"{field}[1]"))


@dataclass(frozen=True, slots=True)
class Marker:
    """One printed ArUco marker: id, centre (table mm), side of the black square (mm), rotation
    (degrees counter-clockwise)."""

    id: int
    center_mm: Point
    size_mm: float
    rotation_deg: float = 0.0

    def corners_mm(self) -> np.ndarray:
        """Corners in OpenCV's order (top-left, top-right, bottom-right, bottom-left) as printed
        upright seen from the table's −y side, turned by ``rotation_deg``; (4, 2) table mm."""
        h = self.size_mm / 2.0
        local = np.array([[-h, h], [h, h], [h, -h], [-h, -h]])
        a = math.radians(self.rotation_deg)
        c, s = math.cos(a), math.sin(a)
        rot = np.array([[c, -s], [s, c]])
        return local @ rot.T + np.asarray(self.center_mm)


@dataclass(frozen=True, slots=True)
class TableLayout:
    """A table: its marker dictionary, markers and play-area polygon, all in table mm."""

    name: str
    dictionary: str
    markers: tuple[Marker, ...]
    play_area_mm: tuple[Point, ...]

    def marker(self, marker_id: int) -> Marker:
        for m in self.markers:
            if m.id == marker_id:
                return m
        raise KeyError(marker_id)

    @classmethod
    def from_dict(cls, data: Any, min_markers: int = 4) -> TableLayout:
        """Parse a layout object; ValueError names the bad field."""
        if not isinstance(data, dict):
            raise ValueError("layout: expected a JSON object")
        name = data.get("name", "table")
        if not isinstance(name, str):
            raise ValueError("name: expected a string")
        dictionary = data.get("dictionary")
        if not isinstance(dictionary, str) or not dictionary.startswith("DICT_"):
            raise ValueError("dictionary: expected an OpenCV dictionary name such as DICT_4X4_50")
        raw = data.get("markers")
        if not isinstance(raw, list):
            raise ValueError("markers: expected a list")
        if len(raw) < min_markers:
            raise ValueError(f"markers: at least {min_markers} markers are needed, got {len(raw)}")
        markers = []
        for i, m in enumerate(raw):
            f = f"markers[{i}]"
            if not isinstance(m, dict):
                raise ValueError(f"{f}: expected an object")
            mid = m.get("id")
            if isinstance(mid, bool) or not isinstance(mid, int) or mid < 0:
                raise ValueError(f"{f}.id: expected a whole number ≥ 0")
            size = _num(m.get("size"), f"{f}.size")
            if size <= 0:
                raise ValueError(f"{f}.size: must be positive")
            markers.append(Marker(mid, _point(m.get("center"), f"{f}.center"), size,
                                  _num(m.get("rotation", 0.0), f"{f}.rotation")))
        ids = [m.id for m in markers]
        if len(set(ids)) != len(ids):
            raise ValueError("markers: an id is used twice")
        area = data.get("play_area")
        if not isinstance(area, list) or len(area) < 3:
            raise ValueError("play_area: expected a polygon of at least 3 [x, y] points")
        pts = tuple(_point(p, f"play_area[{i}]") for i, p in enumerate(area))
        return cls(name, dictionary, tuple(markers), pts)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "dictionary": self.dictionary,
            "markers": [
                {"id": m.id, "center": list(m.center_mm), "size": m.size_mm,
                 "rotation": m.rotation_deg}
                for m in self.markers
            ],
            "play_area": [list(p) for p in self.play_area_mm],
        }


def standard_layout(width_mm: float, depth_mm: float, name: str | None = None,
                    marker_mm: float = 50.0, dictionary: str = "DICT_4X4_50") -> TableLayout:
    """A table ``width_mm`` × ``depth_mm`` with its origin at the near-left corner: eight markers
    (ids 0–7: corners, then edge midpoints) in a band round the edge, the play area inside it.

    >>> lay = standard_layout(600, 600)
    >>> len(lay.markers), lay.play_area_mm[0], lay.play_area_mm[2]
    (8, (80.0, 80.0), (520.0, 520.0))
    """
    c = marker_mm / 2 + 5.0                  # marker centre 5 mm from the table edge
    inset = marker_mm + 30.0                 # play area starts 20 mm beyond the markers
    xs, ys = (c, width_mm / 2, width_mm - c), (c, depth_mm / 2, depth_mm - c)
    centres = [(xs[0], ys[0]), (xs[2], ys[0]), (xs[2], ys[2]), (xs[0], ys[2]),
               (xs[1], ys[0]), (xs[2], ys[1]), (xs[1], ys[2]), (xs[0], ys[1])]
    markers = tuple(Marker(i, (float(x), float(y)), marker_mm, 0.0)
                    for i, (x, y) in enumerate(centres))
    area = ((inset, inset), (width_mm - inset, inset), (width_mm - inset, depth_mm - inset),
            (inset, depth_mm - inset))
    area = tuple((float(x), float(y)) for x, y in area)
    label = name or f"{width_mm / 10:g}×{depth_mm / 10:g} cm table"
    return TableLayout(label, dictionary, markers, area)
