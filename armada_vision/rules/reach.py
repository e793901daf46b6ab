"""Where a ship's footprint can end up after a whole move of 1…N steps (rules.md §4), for drawing.

Coordinates are table-frame millimetres (+x right, +y away from the viewer); turns in degrees.

The region is the union of every reachable placement's footprint, every intermediate step legal
(§4.3, §4.4). It is built by expanding step by step from the ship's pose, with three economies:

- **Free space is precomputed.** Far from every object and edge, what 1…r steps can reach from a
  pose is the same shape in that pose's frame: F_r = fan ∪ ⋃_φ T_φ(F_{r−1}), the turns φ sampled
  every ``resolution_deg``. F_1…F_N are computed once per piece size and resolution and cached.
- **Only what can touch something is expanded.** A pose whose r-step free region, grown by the
  silhouette's overhang, stays clear of every object by more than its allowance (and inside the
  play area) contributes F_r placed at that pose. The others get their exact legal intervals
  (``step.legal_many``, the sets of ``step.options_at`` computed for many poses at once), their
  zone is drawn from them and their turns are sampled every ``resolution_deg`` for the next
  step. The strict sweep (§4.4) changes nothing in free space,
  where every turn is clear; near things it narrows those intervals.
- **Near-identical states merge**: poses whose sterns share a cell of s·resolution (the tip's
  travel for one resolution step) and whose headings share a ``resolution_deg`` bin are one.
  Above ``max_states`` per step the grid coarsens (doubling) until they fit, always keeping the
  extreme headings of each stern cell (the outline comes from the sharpest turns); crowded
  places are then drawn coarser (a few mm) but in bounded time.

The result is exact up to that resolution: intermediate turns are sampled every
``resolution_deg``; outlines are drawn with chords of at most 4° (``ARC_CHORD_DEG``, a sagitta
under 0.03 mm) and simplified by 0.02 mm (``SIMPLIFY_MM``).

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

import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceDims
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.step import StepEnv, fan_polygon, legal_many, step_zone
from armada_vision.rules.table import Table

__all__ = ["reachable_region", "step_zone"]

SIMPLIFY_MM = 0.02   # outline tolerance of the precomputed free-space shapes
ARC_CHORD_DEG = 4.0  # drawn arcs: chords of at most this (sagitta ≤ 0.03 mm at 46 mm radius)


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
def _free_shapes(w: float, h: float, lim: float, res: float, n: int) -> dict[int, object]:
    """Free-space regions in a pose frame (stern origin, heading +x): F[r] is where the
    footprint can be after 1…r steps, r = 1…n."""
    dims = PieceDims(w, h)
    s = dims.footprint_length_mm
    F = {1: fan_polygon((s, 0.0), 0.0, -lim, lim, dims, res)}
    for r in range(2, n + 1):
        copies = [_place(F[r - 1], s, 0.0, phi) for phi in _samples(-lim, lim, res)]
        # Drop vertices that move the outline by less than SIMPLIFY_MM: placed many times
        # over, these shapes are what the final union pays for.
        F[r] = shapely.union_all([F[1], *copies]).simplify(SIMPLIFY_MM)
    shapely.prepare(np.array(list(F.values()), dtype=object))
    return F


def _clear(env: StepEnv, geoms: np.ndarray, grow_mm: float) -> np.ndarray:
    """Which regions (table mm) stay clear, with allowance and ``grow_mm``, of everything."""
    if not len(geoms):
        return np.zeros(0, dtype=bool)
    ok = shapely.contains(_shrunk_area(env, grow_mm), geoms)
    if len(env.ids):
        gi, oi = env.tree.query(geoms, predicate="dwithin", distance=env.a_max + grow_mm)
        if len(gi):
            hit = shapely.dwithin(env.geoms[oi], geoms[gi], env.allow[oi] + grow_mm)
            ok[gi[hit]] = False
    return ok


_SHRUNK: dict[tuple[int, float], object] = {}


def _shrunk_area(env: StepEnv, grow_mm: float):
    """The play area less a band of the edge allowance plus ``grow_mm`` (prepared, cached):
    a region inside it keeps clear of the edge."""
    key = (id(env), round(grow_mm, 9))
    hit = _SHRUNK.get(key)
    if hit is None or hit[0] is not env:
        if len(_SHRUNK) > 32:
            _SHRUNK.clear()
        g = env.area.buffer(-(env.a_area + grow_mm), join_style="mitre")
        shapely.prepare(g)
        hit = _SHRUNK[key] = (env, g)
    return hit[1]


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
    F = _free_shapes(dims.base_w_mm, dims.height_mm, round(lim, 9), res, n)
    grow = _overhang_mm(dims)
    cell = s * math.radians(res)
    parts: list = []        # fans drawn from exact intervals near things
    free_parts: list = []   # free-space regions placed at poses with room round them
    p0 = env.ship.pose
    X, Y, H = np.array([p0.x_mm]), np.array([p0.y_mm]), np.array([p0.heading_deg])
    for depth in range(n):
        r = n - depth
        if not len(X):
            break
        hr = np.radians(H)
        tips = np.column_stack([X + s * np.cos(hr), Y + s * np.sin(hr)])
        placed = _place_many(F[r], X, Y, H)
        free = _roomy(env, tips, r * s + grow)
        free[~free] = _clear(env, placed[~free], grow)
        free_parts.extend(placed[free])
        busy = np.flatnonzero(~free)
        if not len(busy):
            break
        legal = legal_many(env, X[busy], Y[busy], H[busy], strict)
        rows = [(i, a, c) for i, lg in zip(busy, legal, strict=True) for a, c in lg]
        if not rows:
            break
        ri = np.array([r_[0] for r_ in rows])
        lo = np.array([r_[1] for r_ in rows])
        hi = np.array([r_[2] for r_ in rows])
        parts.extend(_fans(tips[ri], H[ri], lo, hi, dims, res, lim))
        if r == 1:
            break
        cx, cy, ch = [], [], []
        for i, a, c in rows:
            phis = _samples(a, c, res)
            cx.append(np.full(len(phis), tips[i, 0]))
            cy.append(np.full(len(phis), tips[i, 1]))
            ch.append(H[i] + phis)
        if not cx:
            break
        X, Y, H = _merge(np.concatenate(cx), np.concatenate(cy), np.concatenate(ch) % 360.0,
                         cell, res, max_states)
    if not parts and not free_parts:
        return shapely.Polygon()
    return shapely.union_all([*free_parts, *parts])


def _fans(pivots: np.ndarray, bases_deg: np.ndarray, lo_deg: np.ndarray, hi_deg: np.ndarray,
          dims: PieceDims, res: float, lim: float) -> np.ndarray:
    """:func:`step.fan_polygon` for many (pivot, base heading, turn interval) at once, every arc
    with the point count of the widest so that the polygons build as one array."""
    s, hw = dims.footprint_length_mm, dims.half_w_mm
    k = max(2, math.ceil(2 * lim / max(res, ARC_CHORD_DEG)) + 1)
    a, b = bases_deg + lo_deg, bases_deg + hi_deg
    t = np.linspace(0.0, 1.0, k)
    arc = a[:, None] + (b - a)[:, None] * t[None, :]
    ang = np.radians(np.column_stack([np.zeros_like(a), a - 90.0, arc, b + 90.0]))
    rad = np.concatenate([[0.0, hw], np.full(k, s), [hw]])[None, :]
    xy = np.stack([pivots[:, :1] + rad * np.cos(ang), pivots[:, 1:] + rad * np.sin(ang)],
                  axis=-1)
    return shapely.polygons(xy)


def _place_many(geom, xs: np.ndarray, ys: np.ndarray, headings_deg: np.ndarray) -> np.ndarray:
    """``geom`` (pose frame) placed at many poses (table mm) at once."""
    if not len(xs):
        return np.array([], dtype=object)
    if geom.geom_type != "Polygon" or len(geom.interiors):
        return np.array([_place(geom, x, y, h) for x, y, h in zip(xs, ys, headings_deg,
                                                                   strict=True)], dtype=object)
    loc = np.asarray(geom.exterior.coords)
    a = np.radians(headings_deg)[:, None]
    c, s = np.cos(a), np.sin(a)
    xy = np.stack([xs[:, None] + c * loc[:, 0] - s * loc[:, 1],
                   ys[:, None] + s * loc[:, 0] + c * loc[:, 1]], axis=-1)
    return shapely.polygons(xy)


def _overhang_mm(d: PieceDims) -> float:
    """How far the silhouette reaches beyond the footprint (the raised base's free corners)."""
    s, hw, c = d.footprint_length_mm, d.half_w_mm, d.base_reach_mm
    # Distance of the corner (c, hw) outside the long side from (0, hw) to (s, 0).
    nx, ny = hw, s
    ln = math.hypot(nx, ny)
    return max(0.0, (nx * c + ny * hw - hw * s) / ln) + 1e-6


def _merge(xs: np.ndarray, ys: np.ndarray, hs: np.ndarray, cell_mm: float, bin_deg: float,
           budget: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One pose per (stern cell, heading bin): near-identical states expand alike.

    Over ``budget`` states the grid coarsens (doubling), but the two extreme headings of every
    stern cell are always kept: the region's outline comes from the sharpest turns, and a
    representative from the middle of a wide heading bin would cut it short."""
    while True:
        kx = np.floor(xs / cell_mm).astype(np.int64)
        ky = np.floor(ys / cell_mm).astype(np.int64)
        kx -= kx.min()
        ky -= ky.min()
        kc = kx * (int(ky.max()) + 1) + ky
        kh = np.floor(hs / bin_deg).astype(np.int64)
        key = kc * (int(kh.max()) + 1) + kh
        _, first = np.unique(key, return_index=True)
        # Extreme headings per stern cell, measured from the cell's first heading (no wrap).
        _, inv = np.unique(kc, return_inverse=True)
        ref = np.zeros(inv.max() + 1)
        ref[inv[::-1]] = hs[::-1]
        rel = (hs - ref[inv] + 180.0) % 360.0 - 180.0
        order = np.lexsort((rel, inv))
        cells = inv[order]
        lo = order[np.r_[True, cells[1:] != cells[:-1]]]
        hi = order[np.r_[cells[1:] != cells[:-1], True]]
        keep = np.unique(np.concatenate([first, lo, hi]))
        if len(keep) <= budget or cell_mm > 1e3:
            return xs[keep], ys[keep], hs[keep]
        cell_mm, bin_deg = cell_mm * 2.0, bin_deg * 2.0
