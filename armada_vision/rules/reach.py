"""Where a ship's footprint can end up after a whole move of 1…N steps (rules.md §4), for drawing.

Coordinates are table-frame millimetres (+x right, +y away from the viewer); turns in degrees.

The region is the union of every reachable placement's footprint, every intermediate step legal
(§4.3, §4.4). It is built by expanding step by step from the ship's pose, with three economies:

- **Free space is precomputed.** Far from every object and edge, what 1…r steps can reach from a
  pose is the same shape in that pose's frame: F_r = fan ∪ ⋃_φ T_φ(F_{r−1}), with the turns φ
  sampled every ``resolution_deg``. F_r and its pieces per 5° bin of the first turn are computed
  once per piece size and resolution and cached.
- **Only what can touch something is expanded.** A pose whose r-step free region, grown by the
  silhouette's overhang, stays clear of every object by more than its allowance (and inside the
  play area) contributes F_r placed at that pose; a bin of first turns that stays clear
  contributes its piece. The rest get the exact legal intervals of ``step.options_at`` and their
  turns are sampled every ``resolution_deg``.
- The strict sweep (§4.4) changes nothing in free space, where every turn is clear; near
  things it narrows the exact intervals of ``options_at``.
- **Near-identical states merge**: poses whose sterns share a cell of s·resolution (the tip's
  travel for one resolution step) and whose headings share a ``resolution_deg`` bin are one.

The result is exact up to that resolution: arcs are chords at most ``resolution_deg`` apart and
intermediate turns are sampled at that step.

>>> from armada_vision.rules.table import PlayArea, Ship, Table
>>> from armada_vision.geometry import Pose, Size
>>> l1 = Ship("L1", "A", Size.LARGE, Pose(300, 300, 0))
>>> t = Table(PlayArea.rectangle(0, 0, 600, 600), (l1,))
>>> r = reachable_region(t, "L1")
>>> round(r.area) == round(step_zone(t, "L1").area)    # a large ship has one step per move
True
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import pairwise

import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceDims
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.step import StepEnv, fan_polygon, options_at, step_zone, zone_of
from armada_vision.rules.table import Table

__all__ = ["reachable_region", "step_zone"]

BIN_DEG = 5.0


def _samples(lo: float, hi: float, res: float) -> np.ndarray:
    """Turns from lo to hi (both ends, which bound the drawn closure) at most ``res`` apart."""
    n = max(1, math.ceil((hi - lo) / res - 1e-9))
    return np.linspace(lo, hi, n + 1)


def _place(geom, x: float, y: float, heading_deg: float):
    """Move a geometry from a pose frame (stern origin, heading +x) to the pose (table mm)."""
    a = math.radians(heading_deg)
    c, s = math.cos(a), math.sin(a)

    def f(xy: np.ndarray) -> np.ndarray:
        return np.column_stack([x + c * xy[:, 0] - s * xy[:, 1], y + s * xy[:, 0] + c * xy[:, 1]])

    return shapely.transform(geom, f)


@lru_cache(maxsize=32)
def _free_shapes(w: float, h: float, lim: float, res: float, n: int):
    """Free-space regions in a pose frame: F[r] (1…r steps, r = 1…n) and P[r][b], the part of
    F[r] beyond the first step reached with the first turn in bin b (r ≥ 2)."""
    dims = PieceDims(w, h)
    s = dims.footprint_length_mm
    edges = _bins(lim)
    F = {1: fan_polygon((s, 0.0), 0.0, -lim, lim, dims, res)}
    P: dict[int, list] = {}
    for r in range(2, n + 1):
        pieces = []
        for lo, hi in edges:
            copies = [_place(F[r - 1], s, 0.0, phi) for phi in _samples(lo, hi, res)]
            pieces.append(shapely.union_all(copies))
        P[r] = pieces
        F[r] = shapely.union_all([F[1], *pieces])
    for geoms in [list(F.values()), *P.values()]:
        shapely.prepare(np.array(geoms, dtype=object))
    return F, P


def _bins(lim: float) -> list[tuple[float, float]]:
    k = max(1, math.ceil(2 * lim / BIN_DEG))
    e = np.linspace(-lim, lim, k + 1)
    return [(float(a), float(b)) for a, b in pairwise(e)]


def _clear(env: StepEnv, geoms: np.ndarray, grow_mm: float) -> np.ndarray:
    """Which regions (table mm) stay clear, with allowance and ``grow_mm``, of everything."""
    ok = shapely.contains(env.area, geoms)
    ok &= shapely.distance(geoms, env.area_boundary) > env.a_area + grow_mm
    if len(env.ids):
        gi, oi = env.tree.query(geoms, predicate="dwithin", distance=env.a_max + grow_mm)
        if len(gi):
            d = shapely.distance(geoms[gi], env.geoms[oi])
            hit = d <= env.allow[oi] + grow_mm
            ok[gi[hit]] = False
    return ok


def _roomy(env: StepEnv, pivots: np.ndarray, radius: float) -> np.ndarray:
    """Pivots (table mm) with nothing, not even the play-area edge, within ``radius``."""
    pts = shapely.points(pivots)
    ok = shapely.contains(env.area, pts)
    ok &= shapely.distance(pts, env.area_boundary) > radius + env.a_area
    if len(env.ids):
        pi, _ = env.tree.query(pts, predicate="dwithin", distance=radius + env.a_max)
        ok[pi] = False
    return ok


def reachable_region(table: Table, ship_id: str, config: RulesConfig = DEFAULT_CONFIG, *,
                     resolution_deg: float = 1.0, max_steps: int | None = None,
                     max_states: int = 400):
    """Union (table mm) of the footprints of every placement ``ship_id`` can reach in 1…N legal
    steps (N = its size's steps per move, or ``max_steps``), turns sampled every
    ``resolution_deg``. Empty geometry when the ship cannot move at all.

    ``max_states`` bounds the poses expanded per step near objects: beyond it near-identical
    states are merged on a coarser grid, so crowded corners are drawn coarser but in bounded
    time."""
    if not (isinstance(resolution_deg, int | float) and 0.05 <= resolution_deg <= 30):
        raise ValueError(f"resolution_deg: expected 0.05…30 degrees, got {resolution_deg!r}")
    env = StepEnv.for_ship(table, ship_id, config)
    n = max_steps if max_steps is not None else env.ship.size.max_steps
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"max_steps: expected a whole number ≥ 1, got {n!r}")
    dims, lim = env.dims, env.turn_limit_deg
    if lim <= 0:
        return shapely.Polygon()
    s, res = dims.footprint_length_mm, float(resolution_deg)
    strict = config.strict_sweep
    F, P = _free_shapes(dims.base_w_mm, dims.height_mm, round(lim, 9), res, n)
    edges = _bins(lim)
    grow = _overhang_mm(dims)
    cell = s * math.radians(res)
    parts: list = []
    frontier = [env.ship.pose]
    for depth in range(n):
        r = n - depth
        if not frontier:
            break
        xs = np.array([p.x_mm for p in frontier])
        ys = np.array([p.y_mm for p in frontier])
        hs = np.radians([p.heading_deg for p in frontier])
        tips = np.column_stack([xs + s * np.cos(hs), ys + s * np.sin(hs)])
        roomy = _roomy(env, tips, r * s + grow)
        placed = np.array([_place(F[r], p.x_mm, p.y_mm, p.heading_deg) for p in frontier],
                          dtype=object)
        free = roomy | _clear(env, placed, grow)
        parts.extend(placed[free])
        children: list[Pose] = []
        for pose in (p for p, f in zip(frontier, free, strict=True) if not f):
            opts = options_at(env, pose, strict)
            if not opts.legal_deg:
                continue
            parts.append(zone_of(opts, dims, res))
            if r == 1:
                continue
            pieces = np.array([_place(g, pose.x_mm, pose.y_mm, pose.heading_deg)
                               for g in P[r]], dtype=object)
            ok = _clear(env, pieces, grow)
            for (lo, hi), piece, good in zip(edges, pieces, ok, strict=True):
                inside = any(a <= lo and hi <= b for a, b in opts.legal_deg)
                if good and inside:
                    parts.append(piece)
                    continue
                for a, b in opts.legal_deg:
                    la, hb = max(a, lo), min(b, hi)
                    if hb > la:
                        children.extend(opts.pose(float(phi)) for phi in _samples(la, hb, res))
        frontier = _merge(children, cell, res, max_states)
    if not parts:
        return shapely.Polygon()
    return shapely.union_all(parts)


def _overhang_mm(d: PieceDims) -> float:
    """How far the silhouette reaches beyond the footprint (the raised base's free corners)."""
    s, hw, c = d.footprint_length_mm, d.half_w_mm, d.base_reach_mm
    # Distance of the corner (c, hw) outside the long side from (0, hw) to (s, 0).
    nx, ny = hw, s
    ln = math.hypot(nx, ny)
    return max(0.0, (nx * c + ny * hw - hw * s) / ln) + 1e-6


def _merge(poses: list[Pose], cell_mm: float, bin_deg: float, budget: int) -> list[Pose]:
    """One pose per (stern cell, heading bin): near-identical states expand alike. Over
    ``budget`` states the grid doubles until they fit (coarser near crowded places)."""
    if not poses:
        return []
    arr = np.array([(p.x_mm, p.y_mm, p.heading_deg) for p in poses])
    while True:
        keys = np.column_stack([np.floor(arr[:, 0] / cell_mm), np.floor(arr[:, 1] / cell_mm),
                                np.floor(arr[:, 2] / bin_deg)]).astype(np.int64)
        _, first = np.unique(keys, axis=0, return_index=True)
        if len(first) <= budget:
            return [poses[i] for i in np.sort(first)]
        cell_mm, bin_deg = cell_mm * 2.0, bin_deg * 2.0
