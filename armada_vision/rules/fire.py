"""Firing (rules.md §5): range by the Large ruler, line of fire, obstruction.

All coordinates are table-frame millimetres (+x right, +y away from the viewer).

The ruler is a Large footprint laid with its whole base edge on one of the shooter's long
footprint sides, pointing outward, slid by an offset t ∈ [0, e − w_ruler]. The target is **in
range** when its footprint overlaps a ruler placement with positive area; the margin is the
*depth*: the largest distance from a point of target ∩ ruler to the ruler's boundary. Maximising
it over the point and the offset is a small linear programme in (x, y, t, depth), solved exactly
here by enumerating its vertices with numpy. The shot is **unobstructed** when no other piece
comes within the doubt allowance of the line of fire (convex hull of the ruler's base edge and
target ∩ ruler).

>>> from armada_vision.geometry import Pose
>>> from armada_vision.rules.table import PlayArea, Ship, Table
>>> area = PlayArea.rectangle(0, 0, 600, 600)
>>> t = Table(area, (Ship("L1", "A", "large", Pose(300, 300, 0)),
...                  Ship("S1", "B", "small", Pose(310, 340, 0))))
>>> v = adjudicate_shot(t, "L1", "S1")
>>> v.verdict, v.side, v.decided_by, round(v.margin_mm, 3)
('yes', 'port', 'range', 5.085)
>>> far = t.replace_ship(Ship("S1", "B", "small", Pose(400, 340, 0)))
>>> v = adjudicate_shot(far, "L1", "S1")
>>> v.verdict, v.decided_by, round(v.margin_mm, 1)      # minus the gap to the nearer zone
('no', 'range', -53.8)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceDims, Size
from armada_vision.geometry.shapes import SIDES, Side, firing_zone, ruler_local, ruler_slide_mm
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.doubt import allowance_mm
from armada_vision.rules.table import Obstacle, Ship, Table
from armada_vision.rules.verdict import Verdict

# Offsets tried when the deepest placement is obstructed: a grid this fine (mm of slide), then
# a finer one round the best grid point. A clear placement missed between grid points can only
# turn a yes into a no, the rulebook's safe side ("if there is any question ... No").
SEARCH_STEP_MM = 0.25
REFINE_STEP_MM = 0.05
_EPS = 1e-9


# --------------------------------------------------------------------------------------------
# Small exact linear programmes
# --------------------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _combos(m: int, n: int) -> np.ndarray:
    return np.array(list(itertools.combinations(range(m), n)), dtype=np.intp)


def lp_max_many(A: np.ndarray, B: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximise c·z subject to A z ≤ b for each row b of ``B``, by vertex enumeration.

    A is (m, n), B is (k, m). The feasible sets must contain no line (bounded enough to have a
    vertex), which holds for every programme built in this module. Returns (values (k,),
    arguments (k, n)); −inf and NaN where a programme is infeasible.

    >>> A = np.array([[1.0, 0], [0, 1], [-1, 0], [0, -1], [1, 1]])
    >>> val, z = lp_max_many(A, np.array([[2.0, 2, 0, 0, 3]]), np.array([1.0, 2.0]))
    >>> float(val[0]), z[0].tolist()
    (5.0, [1.0, 2.0])
    """
    A = np.asarray(A, dtype=float)
    B = np.atleast_2d(np.asarray(B, dtype=float))
    m, n = A.shape
    idx = _combos(m, n)
    sub = A[idx]                                       # (K, n, n)
    det = np.linalg.det(sub)
    good = np.abs(det) > 1e-10
    idx, sub = idx[good], sub[good]
    inv = np.linalg.inv(sub)                           # (K, n, n)
    rhs = B[:, idx]                                    # (k, K, n)
    z = np.einsum("aij,kaj->kai", inv, rhs)            # (k, K, n)
    slack = B[:, None, :] - z @ A.T                    # (k, K, m)
    scale = 1.0 + np.abs(B).max(axis=1)[:, None]
    feasible = np.all(slack >= -1e-9 * scale[:, :, None], axis=2)
    obj = np.where(feasible, z @ c, -np.inf)           # (k, K)
    best = np.argmax(obj, axis=1)
    rows = np.arange(B.shape[0])
    vals = obj[rows, best]
    args = z[rows, best]
    args[~np.isfinite(vals)] = np.nan
    return vals, args


@lru_cache(maxsize=8)
def _depth_combos(n_ruler: int, n_target: int) -> np.ndarray:
    """Row subsets of :func:`max_depth`'s programme that can be regular: at least one ruler row
    (the only rows with a depth term), never both offset bounds, at most two target rows."""
    m = n_ruler + n_target + 2
    idx = _combos(m, 4)
    has_ruler = (idx < n_ruler).any(axis=1)
    both_bounds = (idx >= m - 2).sum(axis=1) == 2
    target_rows = ((idx >= n_ruler) & (idx < m - 2)).sum(axis=1)   # they hold only x and y
    return idx[has_ruler & ~both_bounds & (target_rows <= 2)]


def feasible_vertices(A: np.ndarray, b: np.ndarray,
                      combos: np.ndarray | None = None) -> np.ndarray:
    """Every vertex (K', n) of the polyhedron A z ≤ b (A is (m, n)), by enumerating the n-row
    subsets of its constraints. Empty (0, n) when it has none.

    >>> A = np.array([[1.0, 0], [0, 1], [-1, 0], [0, -1]])
    >>> sorted(map(tuple, feasible_vertices(A, np.array([1.0, 1, 0, 0])).tolist()))
    [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]
    """
    A = np.asarray(A, dtype=float)
    b = np.asarray(b, dtype=float)
    m, n = A.shape
    idx = _combos(m, n) if combos is None else combos
    sub = A[idx]
    try:     # usually every subset is regular: one batched solve, no determinants
        z = np.linalg.solve(sub, b[idx][..., None])[..., 0]
        if not np.all(np.isfinite(z)):
            raise np.linalg.LinAlgError
    except np.linalg.LinAlgError:
        good = np.abs(np.linalg.det(sub)) > 1e-10
        idx, sub = idx[good], sub[good]
        z = np.linalg.solve(sub, b[idx][..., None])[..., 0]
    ok = np.all(z @ A.T <= b + 1e-9 * (1.0 + np.abs(b).max()), axis=1)
    return z[ok] + 0.0      # + 0.0 turns -0.0 into 0.0


def halfplanes(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Inward unit normals N (k, 2) and offsets h (k,) of a convex polygon (any orientation),
    so that the signed distance of p to edge i, positive inside, is N[i]·p − h[i]."""
    pts = np.asarray(points, dtype=float)
    nxt = np.concatenate((pts[1:], pts[:1]))
    edge = nxt - pts
    if float(np.sum(pts[:, 0] * nxt[:, 1] - nxt[:, 0] * pts[:, 1])) < 0:   # clockwise
        edge = -edge
    length = np.hypot(edge[:, 0], edge[:, 1])
    keep = length > 1e-12
    pts, edge, length = pts[keep], edge[keep], length[keep]
    normal = np.column_stack((-edge[:, 1], edge[:, 0])) / length[:, None]
    return normal, np.einsum("ij,ij->i", normal, pts)


def _convex_pieces(poly: shapely.Geometry) -> list[np.ndarray]:
    """Vertex arrays of convex pieces covering ``poly`` exactly (the polygon itself when it is
    convex, else its triangles)."""
    out: list[np.ndarray] = []
    for g in getattr(poly, "geoms", [poly]):
        if g.is_empty or g.geom_type != "Polygon" or g.area <= 0:
            continue
        if g.convex_hull.area - g.area <= 1e-9 * max(g.area, 1.0) and not g.interiors:
            out.append(np.asarray(g.exterior.coords)[:-1])
        else:
            tris = shapely.constrained_delaunay_triangles(g)
            out += [np.asarray(t.exterior.coords)[:-1] for t in tris.geoms if t.area > 0]
    return out


def depth_in_mm(part: shapely.Geometry, container: shapely.Geometry) -> float:
    """Largest distance from a point of ``part`` to the boundary of the convex ``container``,
    signed (negative: every point of ``part`` lies outside); table mm. For an overlap, how far
    ``part`` reaches into ``container``; −inf for an empty part.

    >>> sq = shapely.box(0, 0, 10, 10)
    >>> depth_in_mm(shapely.box(7, 2, 20, 8), sq), depth_in_mm(shapely.box(12, 2, 20, 8), sq)
    (3.0, -2.0)
    """
    N, h = halfplanes(np.asarray(container.convex_hull.exterior.coords)[:-1])
    best = -math.inf
    for piece in _convex_pieces(part):
        M, g = halfplanes(piece)
        # variables (x, y, d): d ≤ N·p − h for the container, M·p ≥ g for the part
        A = np.vstack((np.column_stack((-N, np.ones(len(N)))),
                       np.column_stack((-M, np.zeros(len(M))))))
        b = np.concatenate((-h, -g))
        val, _ = lp_max_many(A, b[None, :], np.array([0.0, 0.0, 1.0]))
        best = max(best, float(val[0]))
    return best


# --------------------------------------------------------------------------------------------
# The ruler and the range
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Broadside:
    """One side's ruler family, in table mm: placement(t) = ``ruler0`` + t·``slide_dir``."""

    side: Side
    ruler0: np.ndarray          # (3, 2): base start, apex, base end at offset 0
    slide_dir: np.ndarray       # (2,) unit vector along the long side
    slide_mm: float             # e − w_ruler: the offset runs over [0, slide_mm]

    @property
    def halfplanes(self) -> tuple[np.ndarray, np.ndarray]:
        """Inward normals and offsets of the ruler at offset 0 (see :func:`halfplanes`)."""
        return _ruler_halfplanes(self)

    def ruler(self, offset_mm: float) -> np.ndarray:
        return self.ruler0 + offset_mm * self.slide_dir

    def zone(self) -> shapely.Polygon:
        last = self.ruler(self.slide_mm)
        return shapely.Polygon([self.ruler0[0], self.ruler0[1], last[1], last[2]])


@lru_cache(maxsize=512)
def _ruler_halfplanes_key(key: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
    N, h = halfplanes(np.array(key).reshape(3, 2))
    N.setflags(write=False)
    h.setflags(write=False)
    return N, h


def _ruler_halfplanes(bs: Broadside) -> tuple[np.ndarray, np.ndarray]:
    return _ruler_halfplanes_key(tuple(bs.ruler0.ravel().tolist()))


@lru_cache(maxsize=512)
def _halfplanes_key(key: bytes, n: int) -> tuple[np.ndarray, np.ndarray]:
    N, h = halfplanes(np.frombuffer(key, dtype=float).reshape(n, 2))
    N.setflags(write=False)
    h.setflags(write=False)
    return N, h


def _cached_halfplanes(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`halfplanes` of a small polygon, memoised on its exact coordinates."""
    pts = np.ascontiguousarray(points, dtype=float)
    return _halfplanes_key(pts.tobytes(), len(pts))


def _shifted(hp: tuple[np.ndarray, np.ndarray], origin: np.ndarray):
    """Half-planes of a polygon moved by −origin: the offsets drop by N·origin."""
    N, h = hp
    return N, h - N @ origin


def broadside(ship: Ship, side: Side, config: RulesConfig = DEFAULT_CONFIG) -> Broadside:
    """The ruler family of ``ship``'s ``side`` broadside (table mm)."""
    d, r = ship.dims(config), config.ruler
    slide = ruler_slide_mm(d, r)
    r0 = ship.pose.to_table(ruler_local(d, r, side, 0.0))
    u = r0[2] - r0[0]
    u = u / np.linalg.norm(u)
    r0.setflags(write=False)
    u.setflags(write=False)
    return Broadside(side, r0, u, slide)


# Shapes of a ship depend only on its (frozen) value and the config: cache them, since a table
# is asked many questions between two moves.
@lru_cache(maxsize=512)
def _silhouette(ship: Ship, config: RulesConfig) -> shapely.Polygon:
    return ship.silhouette(config)


@lru_cache(maxsize=256)
def _obstacle_shape(obstacle: Obstacle) -> shapely.Polygon:
    return obstacle.shape


@lru_cache(maxsize=256)
def _footprint(ship: Ship, config: RulesConfig) -> tuple[shapely.Polygon, np.ndarray]:
    fp = ship.footprint(config)
    pts = np.asarray(fp.exterior.coords)[:-1]
    pts.setflags(write=False)
    return fp, pts


@lru_cache(maxsize=256)
def _broadsides(ship: Ship, config: RulesConfig) -> tuple[list[Broadside], list[shapely.Polygon]]:
    sides = [broadside(ship, side, config) for side in SIDES]
    return sides, [bs.zone() for bs in sides]


def firing_zones(table: Table, ship_id: str,
                 config: RulesConfig = DEFAULT_CONFIG) -> dict[str, shapely.Polygon]:
    """Both firing zones of a ship (table mm), keyed ``port`` and ``starboard`` (§5)."""
    ship = table.ship(ship_id)
    d = ship.dims(config)
    return {side: firing_zone(ship.pose, d, config.ruler, side) for side in SIDES}


def ruler_inradius_mm(ruler: PieceDims) -> float:
    """No depth can exceed the radius of the circle inscribed in the ruler (2·area/perimeter)."""
    area = ruler.base_w_mm * ruler.footprint_length_mm / 2
    return 2 * area / (ruler.base_w_mm + 2 * ruler.long_side_mm)


def max_depth(bs: Broadside, target_fp: np.ndarray, origin: np.ndarray) -> tuple[float, float]:
    """Exact max over offset t and point p ∈ target of the distance from p to the ruler's
    boundary (negative when the target misses every placement). Returns (depth, t).
    ``origin`` is subtracted from all coordinates first to keep the numbers small."""
    N, h = bs.halfplanes
    M, g = _cached_halfplanes(target_fp)
    nr, nt = len(N), len(M)
    # z = (x, y, t, d), p = (x, y) + origin. Ruler edge i at offset t: N_i·p − h_i − t·(N_i·u)
    # ≥ d; the target's edges: M_j·p ≥ g_j; 0 ≤ t ≤ slide. Filled in place: this runs per shot.
    A = np.zeros((nr + nt + 2, 4))
    A[:nr, :2] = -N
    A[:nr, 2] = N @ bs.slide_dir
    A[:nr, 3] = 1.0
    A[nr:nr + nt, :2] = -M
    A[-2, 2], A[-1, 2] = -1.0, 1.0
    b = np.empty(nr + nt + 2)
    b[:nr] = N @ origin - h
    b[nr:nr + nt] = M @ origin - g
    b[-2], b[-1] = 0.0, max(bs.slide_mm, 0.0)
    z = feasible_vertices(A, b, _depth_combos(nr, nt))
    depth = float(z[:, 3].max())
    # The deepest offsets often form an interval (the optimal face, whose vertices are among
    # these): report its middle, so the placement does not depend on the order the vertices
    # were met in (nor on how the table is turned).
    t = z[z[:, 3] >= depth - 1e-9, 2]
    return depth, float(np.clip((t.min() + t.max()) / 2, 0.0, max(bs.slide_mm, 0.0)))


def depth_at(bs: Broadside, target_fp: np.ndarray, offsets: np.ndarray,
             origin: np.ndarray) -> np.ndarray:
    """Depth of the target in the ruler at each fixed offset (mm), exactly, vectorised."""
    N, h = _shifted(bs.halfplanes, origin)
    M, g = _shifted(_cached_halfplanes(target_fp), origin)
    nu = N @ bs.slide_dir
    A = np.vstack((np.column_stack((-N, np.ones(len(N)))),
                   np.column_stack((-M, np.zeros(len(M))))))
    t = np.asarray(offsets, dtype=float)
    B = np.hstack((-h[None, :] - t[:, None] * nu[None, :], np.broadcast_to(-g, (len(t), len(g)))))
    vals, _ = lp_max_many(A, B, np.array([0.0, 0.0, 1.0]))
    return vals


# --------------------------------------------------------------------------------------------
# The shot
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Blocker:
    id: str
    shape: shapely.Geometry
    allowance_mm: float

    @property
    def hull(self) -> np.ndarray:
        return _hull_vertices(self.shape)


@lru_cache(maxsize=512)
def _hull_vertices(shape: shapely.Geometry) -> np.ndarray:
    v = _vertices(shape)
    v.setflags(write=False)
    return v


@dataclass(frozen=True, slots=True)
class _Placement:
    side: Side
    offset_mm: float
    depth_mm: float
    ruler: np.ndarray
    line_of_fire: shapely.Geometry | None
    clearance_mm: float          # signed distance of the limiting blocker (inf: none near)
    blocker: _Blocker | None
    range_allowance_mm: float

    @property
    def range_slack(self) -> float:
        return self.depth_mm - self.range_allowance_mm

    @property
    def block_slack(self) -> float:
        return math.inf if self.blocker is None else self.clearance_mm - self.blocker.allowance_mm

    @property
    def slack(self) -> float:
        return min(self.range_slack, self.block_slack)



def _lines_of_fire(bs: Broadside, target: shapely.Polygon,
                   offsets: np.ndarray) -> np.ndarray:
    """Line of fire at each offset: hull of the ruler's base edge and target ∩ ruler."""
    rulers = bs.ruler0[None, :, :] + offsets[:, None, None] * bs.slide_dir[None, None, :]
    covered = shapely.intersection(target, shapely.polygons(rulers))
    base = shapely.linestrings(rulers[:, [0, 2], :])
    return shapely.convex_hull(shapely.union(covered, base))


def penetration_mm(p: np.ndarray, q: np.ndarray) -> float:
    """How far one of two convex polygons (vertex arrays, table mm) must move to clear the
    other: the minimum translation distance, by the separating-axis test over both polygons'
    edge normals. Zero or negative when they do not overlap.

    >>> sq = np.array([[0, 0], [10, 0], [10, 10], [0, 10.0]])
    >>> penetration_mm(sq, sq + [7, 4]), penetration_mm(sq, sq + [12, 0])
    (3.0, -2.0)
    """
    axes = []
    for poly in (p, q):
        edge = np.roll(poly, -1, axis=0) - poly
        length = np.hypot(edge[:, 0], edge[:, 1])
        keep = length > 1e-12
        axes.append(np.column_stack((-edge[keep, 1], edge[keep, 0])) / length[keep, None])
    n = np.vstack(axes)
    pp, qq = p @ n.T, q @ n.T
    overlap = np.minimum(pp.max(axis=0) - qq.min(axis=0), qq.max(axis=0) - pp.min(axis=0))
    return float(overlap.min())


def _vertices(g: shapely.Geometry) -> np.ndarray:
    return np.asarray(g.convex_hull.exterior.coords)[:-1]


def _clearances(lofs: np.ndarray, blockers: list[_Blocker]) -> tuple[np.ndarray, np.ndarray]:
    """Signed clearance (k, B) of each blocker from each line of fire — the distance, or minus
    how far the blocker would have to move to clear it (:func:`penetration_mm`; a non-convex
    obstacle counts as its convex hull) — and the slack beyond each blocker's allowance."""
    shapes = np.array([b.shape for b in blockers], dtype=object)
    dist = shapely.distance(lofs[:, None], shapes[None, :])
    for j, b in enumerate(blockers):
        rows = np.nonzero(dist[:, j] <= 0.0)[0]
        if len(rows):
            dist[rows, j] = -np.maximum(_penetrations(lofs[rows], b.hull), 0.0)
    return dist, dist - np.array([b.allowance_mm for b in blockers])[None, :]


def _penetrations(polys: np.ndarray, q: np.ndarray) -> np.ndarray:
    """:func:`penetration_mm` of each convex polygon in ``polys`` against vertices ``q``, at
    once: rings are padded to one length by repeating their closing vertex, and a padded
    (zero-length) edge borrows its ring's first normal, which changes no minimum."""
    coords, index = shapely.get_coordinates(polys, return_index=True)
    counts = np.bincount(index, minlength=len(polys))
    n = int(counts.max())
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    pick = np.minimum(np.arange(n)[None, :], counts[:, None] - 1) + starts[:, None]
    P = coords[pick]                                              # (k, n, 2)
    edge = np.roll(P, -1, axis=1) - P
    length = np.hypot(edge[..., 0], edge[..., 1])
    normal = np.stack((-edge[..., 1], edge[..., 0]), axis=-1)
    normal = normal / np.maximum(length, 1e-300)[..., None]
    first = np.argmax(length > 1e-12, axis=1)
    normal = np.where((length > 1e-12)[..., None], normal,
                      normal[np.arange(len(P)), first][:, None, :])
    qe = np.roll(q, -1, axis=0) - q
    ql = np.hypot(qe[:, 0], qe[:, 1])
    qn = np.column_stack((-qe[ql > 1e-12, 1], qe[ql > 1e-12, 0])) / ql[ql > 1e-12, None]
    axes = np.concatenate((normal, np.broadcast_to(qn, (len(P), *qn.shape))), axis=1)
    pp = np.einsum("kvd,kad->kva", P, axes)
    qq = np.einsum("vd,kad->kva", q, axes)
    overlap = np.minimum(pp.max(axis=1) - qq.min(axis=1), qq.max(axis=1) - pp.min(axis=1))
    return overlap.min(axis=1)


def _placements(bs: Broadside, target: shapely.Polygon, target_fp: np.ndarray,
                offsets: np.ndarray, depths: np.ndarray, blockers: list[_Blocker],
                a_range: float) -> list[_Placement]:
    lofs = _lines_of_fire(bs, target, offsets)
    if blockers:
        dist, slack = _clearances(lofs, blockers)
        worst = np.argmin(slack, axis=1)
    out = []
    for i, t in enumerate(offsets):
        blk, clr = None, math.inf
        if blockers:
            j = int(worst[i])
            blk, clr = blockers[j], float(dist[i, j])
        out.append(_Placement(bs.side, float(t), float(depths[i]), bs.ruler(float(t)),
                              lofs[i], clr, blk, a_range))
    return out


def _search(bs: Broadside, target: shapely.Polygon, target_fp: np.ndarray,
            blockers: list[_Blocker], a_range: float, origin: np.ndarray,
            t_star: float) -> _Placement:
    """Best placement over the slide, by a grid then a finer grid round the best point."""
    L = max(bs.slide_mm, 0.0)
    n = max(2, math.ceil(L / SEARCH_STEP_MM) + 1)
    grid = np.unique(np.concatenate((np.linspace(0.0, L, n), [t_star])))
    best = _best(bs, target, target_fp, grid, blockers, a_range, origin)
    lo, hi = max(0.0, best.offset_mm - SEARCH_STEP_MM), min(L, best.offset_mm + SEARCH_STEP_MM)
    fine = np.linspace(lo, hi, max(2, math.ceil((hi - lo) / REFINE_STEP_MM) + 1))
    better = _best(bs, target, target_fp, fine, blockers, a_range, origin)
    return better if better.slack > best.slack else best


def _best(bs, target, target_fp, offsets, blockers, a_range, origin) -> _Placement:
    depths = depth_at(bs, target_fp, offsets, origin)
    inside = depths > a_range
    if not inside.any():
        i = int(np.argmax(depths))
        return _Placement(bs.side, float(offsets[i]), float(depths[i]), bs.ruler(offsets[i]),
                          None, math.inf, None, a_range)
    cands = _placements(bs, target, target_fp, offsets[inside], depths[inside], blockers,
                        a_range)
    return max(cands, key=lambda p: (p.slack, p.depth_mm))


def _pts(a: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in np.asarray(a))


def _poly_pts(g: shapely.Geometry | None) -> tuple[tuple[float, float], ...] | None:
    if g is None or g.is_empty:
        return None
    if g.geom_type != "Polygon":
        g = g.convex_hull
    if g.geom_type != "Polygon":
        return None
    return _pts(np.asarray(g.exterior.coords)[:-1])


def adjudicate_shot(table: Table, shooter_id: str, target_id: str,
                    config: RulesConfig = DEFAULT_CONFIG) -> Verdict:
    """May ``shooter_id`` fire at ``target_id``? (rules.md §5; table mm.)

    Yes only when some ruler placement, on either broadside, covers the target deeper than the
    range allowance (shooter and target σ, §7) and leaves its line of fire clear of every other
    piece by more than that piece's obstruction allowance (shooter, target and blocker σ). The
    verdict carries the placement (``ruler``, ``line_of_fire``, ``side``), the deciding margin
    (depth, or the limiting piece's clearance, whichever has less room) and ``blocker``.
    """
    if shooter_id == target_id:
        raise ValueError(f"target: ship {shooter_id!r} cannot fire at itself")
    shooter, target = table.ship(shooter_id), table.ship(target_id)
    for who, s in (("shooter", shooter), ("target", target)):
        if s.sunk:
            return Verdict.no(f"{who} {s.id} has sunk and is no longer on the table",
                              decided_by="state")
    sig_s, sig_t = shooter.sigma_total_mm(config), target.sigma_total_mm(config)
    a_range = allowance_mm([sig_s, sig_t], config.doubt_floor_mm)
    slide = ruler_slide_mm(shooter.dims(config), config.ruler)
    if slide < 0:
        return Verdict.no(f"{shooter.id}'s long side is shorter than the ruler's base "
                          f"({-slide:.2f} mm short): it cannot lay the ruler", decided_by="range")

    tgt, tgt_pts = _footprint(target, config)
    origin = np.array(shooter.pose.stern_mm)
    sides, zones = _broadsides(shooter, config)

    gaps = shapely.distance(tgt, np.array(zones, dtype=object))
    deepest = []
    for bs, gap in zip(sides, gaps, strict=True):
        if gap > 0:     # misses the zone: the margin is minus the gap, no programme needed
            t = 0.0 if shapely.distance(tgt, shapely.Polygon(bs.ruler(0.0))) <= gap + _EPS \
                else bs.slide_mm
            deepest.append((-float(gap), t, bs))
        else:
            deepest.append((*max_depth(bs, tgt_pts, origin), bs))
    margin, t_best, bs_best = max(deepest, key=lambda x: x[0])

    if margin <= a_range:
        ruler = _pts(bs_best.ruler(t_best))
        if margin > 0:
            reason = (f"{target.id} is in range of {shooter.id} only {margin:.2f} mm deep, "
                      f"within the {a_range:.2f} mm doubt allowance")
        elif margin > -a_range:
            reason = (f"{target.id} is just out of range of {shooter.id}: "
                      f"{-margin:.2f} mm from the ruler, within the {a_range:.2f} mm doubt "
                      "allowance")
        else:
            reason = (f"{target.id} is out of range of {shooter.id}: its footprint misses both "
                      f"firing zones by {-margin:.2f} mm")
        return Verdict.decide(False, reason, decided_by="range", margin_mm=margin,
                              allowance_mm=a_range, doubt_reason=reason, ruler=ruler,
                              side=bs_best.side)

    # Pieces that could come near any line of fire: those near either firing zone. A cheap
    # stern-distance test first (a zone lies within s_shooter + s_ruler of the stern), so
    # that far ships never have their silhouettes built.
    reach = shooter.dims(config).footprint_length_mm + config.ruler.footprint_length_mm
    length = {z: config.pieces.dims(z).footprint_length_mm for z in Size}
    blockers: list[_Blocker] = []
    for s in table.ships:
        if s.id in (shooter.id, target.id) or s.damage >= s.size.pips:
            continue
        sig = s.sigma_mm + length[s.size] * math.radians(s.sigma_deg)   # §7 piece σ
        a = 2.0 * math.sqrt(sig_s * sig_s + sig_t * sig_t + sig * sig) + config.doubt_floor_mm
        far = reach + length[s.size] + a + 1.0
        if math.hypot(s.pose.x_mm - origin[0], s.pose.y_mm - origin[1]) > far:
            continue
        blockers.append(_Blocker(s.id, _silhouette(s, config), a))
    for o in table.obstacles:
        a = allowance_mm([sig_s, sig_t, o.sigma_mm], config.doubt_floor_mm)
        blockers.append(_Blocker(o.id, _obstacle_shape(o), a))
    if blockers:
        shapes = np.array([b.shape for b in blockers], dtype=object)
        reach_mm = np.array([b.allowance_mm + 1.0 for b in blockers])
        near = shapely.dwithin(shapes, zones[0], reach_mm) | shapely.dwithin(shapes, zones[1],
                                                                             reach_mm)
        blockers = [b for b, keep in zip(blockers, near, strict=True) if keep]

    # The deepest placement of each side that is in range; search the slide if it is blocked.
    chosen: list[_Placement] = []
    for d_side, t_side, bs in deepest:
        if d_side <= a_range:
            continue
        p = _placements(bs, tgt, tgt_pts, np.array([t_side]), np.array([d_side]), blockers,
                        a_range)[0]
        if p.slack <= 0 and bs.slide_mm > 0:
            q = _search(bs, tgt, tgt_pts, blockers, a_range, origin, t_side)
            if q.slack > p.slack:
                p = q
        chosen.append(p)
    best = max(chosen, key=lambda p: (p.slack, p.depth_mm))

    common = dict(ruler=_pts(best.ruler), line_of_fire=_poly_pts(best.line_of_fire),
                  side=best.side)
    notes = [f"depth {best.depth_mm:.2f} mm (allowance {a_range:.2f} mm)"]
    if best.blocker is not None:
        notes.append(f"nearest other piece {best.blocker.id}: {best.clearance_mm:.2f} mm from "
                     f"the line of fire (allowance {best.blocker.allowance_mm:.2f} mm)")
    if best.block_slack < best.range_slack:
        b = best.blocker
        assert b is not None
        if best.block_slack > 0:
            reason = (f"{target.id} is in range of {shooter.id} ({best.side}) and the line of "
                      f"fire is clear: {b.id}, the nearest piece, is {best.clearance_mm:.2f} mm "
                      "from it")
        elif best.clearance_mm > 0:
            reason = (f"{b.id} is only {best.clearance_mm:.2f} mm from the line of fire of "
                      f"{shooter.id} at {target.id}, within the {b.allowance_mm:.2f} mm doubt "
                      "allowance")
        else:
            reason = (f"the line of fire of {shooter.id} at {target.id} is blocked by {b.id} "
                      f"on every placement: at the least blocked one it would have to move "
                      f"{-best.clearance_mm:.2f} mm to clear it")
        return Verdict.decide(best.block_slack > 0, reason, decided_by="obstruction",
                              margin_mm=best.clearance_mm, allowance_mm=b.allowance_mm,
                              doubt_reason=reason, blocker=b.id, notes=tuple(notes), **common)
    if best.range_slack > 0:
        reason = (f"{target.id} is in range of {shooter.id} ({best.side} broadside), "
                  f"{best.depth_mm:.2f} mm deep, and the line of fire is clear")
    else:  # the deep placements are blocked; the clear ones reach too shallow
        reason = (f"where the line of fire of {shooter.id} at {target.id} is clear the ruler "
                  f"covers it only {best.depth_mm:.2f} mm deep, within the {a_range:.2f} mm "
                  "doubt allowance; deeper placements are blocked")
    return Verdict.decide(best.range_slack > 0, reason, decided_by="range",
                          margin_mm=best.depth_mm, allowance_mm=a_range, doubt_reason=reason,
                          notes=tuple(notes), **common)
