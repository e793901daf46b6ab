"""Shapes of a lying piece and of the firing ruler (rules.md §1 and §5).

Ship frame: stern-edge midpoint at the origin, tip on +x, y to port; millimetres. Functions
named ``*_local`` return (N, 2) numpy arrays in that frame, counter-clockwise; the others take a
:class:`Pose` and return shapely polygons in the table frame (mm).

>>> from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
>>> d = NOMINAL_PIECES.dims(Size.LARGE)
>>> round(footprint(Pose(0, 0, 0), d).area, 1)      # w·s / 2
587.1
>>> sil = silhouette(Pose(0, 0, 0), d)
>>> round(sil.area - footprint(Pose(0, 0, 0), d).area, 2)   # the base's overhang
88.62
>>> [round(float(v), 3) for v in firing_zone_local(d, d, "port")[2]]
[24.493, 53.913]
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceDims
from armada_vision.geometry.pose import Pose

Side = Literal["port", "starboard"]
SIDES: tuple[Side, Side] = ("port", "starboard")


def footprint_local(d: PieceDims) -> np.ndarray:
    """The face on the table: triangle (0, −w/2), (s, 0), (0, +w/2)."""
    s, hw = d.footprint_length_mm, d.half_w_mm
    return np.array([[0.0, -hw], [s, 0.0], [0.0, hw]])


def silhouette_local(d: PieceDims) -> np.ndarray:
    """Outline seen from straight above: pentagon with the raised base's free corners."""
    s, hw, c = d.footprint_length_mm, d.half_w_mm, d.base_reach_mm
    return np.array([[0.0, -hw], [c, -hw], [s, 0.0], [c, hw], [0.0, hw]])


def body_local_3d(d: PieceDims) -> tuple[np.ndarray, tuple[tuple[int, ...], ...]]:
    """The pyramid lying on a face: 5 vertices (x, y, z mm, z up) and its faces.

    Vertices: 0/1 stern corners (starboard, port), 2 tip, 3/4 free base corners (starboard,
    port). Faces: the bottom face (0, 2, 1), the top faces (0, 3, 2), (1, 2, 4), (3, 4, 2) and the
    open base (0, 1, 4, 3), which is a hole in real pieces.
    """
    s, hw, c, r = d.footprint_length_mm, d.half_w_mm, d.base_reach_mm, d.base_rise_mm
    v = np.array([[0, -hw, 0], [0, hw, 0], [s, 0, 0], [c, -hw, r], [c, hw, r]], dtype=float)
    faces = ((0, 2, 1), (0, 3, 2), (1, 2, 4), (3, 4, 2), (0, 1, 4, 3))
    return v, faces


def footprint(pose: Pose, d: PieceDims) -> shapely.Polygon:
    """Footprint triangle in the table frame (mm)."""
    # Pose.to_table's arithmetic on the three corners in plain floats (the very numbers: the
    # same operations in the same order), without its ~10 numpy calls on 3 points: a detect
    # makes ~100 footprints.
    c, s = pose.direction
    x, y = pose.x_mm, pose.y_mm
    ln, hw = d.footprint_length_mm, d.half_w_mm
    return shapely.polygons(np.array([(x + c * px - s * py, y + s * px + c * py)
                                      for px, py in ((0.0, -hw), (ln, 0.0), (0.0, hw))]))


def silhouette(pose: Pose, d: PieceDims) -> shapely.Polygon:
    """Overhead silhouette pentagon in the table frame (mm)."""
    return shapely.Polygon(pose.to_table(silhouette_local(d)))


def long_side_local(d: PieceDims, side: Side) -> tuple[np.ndarray, np.ndarray]:
    """(start, outward unit normal) of a footprint long side; the side runs from ``start``
    towards the other end so that the outside lies to its right."""
    s, hw = d.footprint_length_mm, d.half_w_mm
    if side == "port":
        a, b = np.array([s, 0.0]), np.array([0.0, hw])
    elif side == "starboard":
        a, b = np.array([0.0, -hw]), np.array([s, 0.0])
    else:
        raise ValueError(f"side: expected 'port' or 'starboard', got {side!r}")
    u = (b - a) / np.linalg.norm(b - a)
    return a, np.array([u[1], -u[0]])


def ruler_local(d: PieceDims, ruler: PieceDims, side: Side, offset_mm: float) -> np.ndarray:
    """The ruler (a Large footprint) laid outward on ``side`` with its base edge starting
    ``offset_mm`` along the long side, 0 ≤ offset ≤ e − w_ruler. Returns the triangle
    (base start, apex, base end) in the ship frame."""
    a, n = long_side_local(d, side)
    u = np.array([-n[1], n[0]])
    b0 = a + offset_mm * u
    b1 = b0 + ruler.base_w_mm * u
    apex = (b0 + b1) / 2 + ruler.footprint_length_mm * n
    return np.array([b0, apex, b1])


def ruler_slide_mm(d: PieceDims, ruler: PieceDims) -> float:
    """How far the ruler's base can slide along a long side: e − w_ruler (negative: cannot)."""
    return d.long_side_mm - ruler.base_w_mm


def firing_zone_local(d: PieceDims, ruler: PieceDims, side: Side) -> np.ndarray:
    """Trapezoid swept by the ruler sliding along ``side``: the long side as base, depth s_ruler,
    far edge e − w_ruler long (rules.md §5). Vertices in the ship frame."""
    slide = max(ruler_slide_mm(d, ruler), 0.0)
    first = ruler_local(d, ruler, side, 0.0)
    last = ruler_local(d, ruler, side, slide)
    return np.array([first[0], first[1], last[1], last[2]])


def firing_zone(pose: Pose, d: PieceDims, ruler: PieceDims, side: Side) -> shapely.Polygon:
    """Firing zone of one broadside in the table frame (mm)."""
    return shapely.Polygon(pose.to_table(firing_zone_local(d, ruler, side)))
