"""One step of a ship (rules.md §4): exact legal turn intervals, why the rest is out, the zone.

Coordinates are table-frame millimetres (+x right, +y away from the viewer); turns φ are degrees
counter-clockwise relative to the old heading.

A step puts the new stern on the old tip and turns by φ (§4.1). The new silhouette is then a rigid
rotation about that pivot, so its clearance against a fixed polygon crosses the doubt allowance
``a`` only at *critical angles*: a moving vertex at distance ``a`` from a fixed vertex (circle –
circle) or from a fixed edge's line (circle – line), or a fixed vertex at distance ``a`` from a
moving edge's line. Those are solved in closed form, sorted, and every sub-interval between them is
classified by one clearance evaluation at its middle. The result is exact up to float rounding, not
a sampling.

Doubt (§7): against another ship the allowance is ``allowance_mm([σ_self, σ_other], floor)``,
against an obstacle ``[σ_self, obstacle.sigma_mm]``, against the play-area edge ``[σ_self]``. The
turn limit of §4.2 is an angle between two headings of the same ship; it keeps room to spare of
``2·√2·sigma_deg + floor/s`` (in degrees: §7's formula on the heading σ of both positions, the
floor turned into degrees at the piece's length s, the tip's swing). With σ = 0 a small ship may
turn 74° (limit 74.85°, allowance 0.54°) but not 74.5°.

>>> from armada_vision.rules.table import PlayArea, Ship, Table
>>> from armada_vision.geometry import Pose, Size
>>> t = Table(PlayArea.rectangle(0, 0, 600, 600), (Ship("S1", "A", Size.SMALL, Pose(300, 300, 0)),))
>>> opt = step_options(t, "S1")
>>> [(round(lo, 2), round(hi, 2)) for lo, hi in opt.legal_deg]
[(-74.31, 74.31)]
>>> adjudicate_step(t, "S1", Pose(326.385, 300, 74.0)).verdict
'yes'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceDims
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import silhouette_local
from armada_vision.rules import angles
from armada_vision.rules.angles import Intervals
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.doubt import allowance_mm
from armada_vision.rules.table import Ship, Table
from armada_vision.rules.verdict import Verdict

PLAY_AREA = "play_area"
TURN = "turn"


@dataclass(frozen=True, slots=True)
class Blocked:
    """A turn interval (degrees, relative to the old heading) that is out, and why.

    ``by``: the blocking object's id, ``play_area`` or ``turn`` (§4.2, including the doubt band
    just inside the limit). ``clearance_mm``: the clearance at the interval's middle (negative:
    overlap depth; None for ``turn``); ``allowance_mm``: the doubt allowance it had to beat.
    """

    lo_deg: float
    hi_deg: float
    by: str
    clearance_mm: float | None
    allowance_mm: float


@dataclass(frozen=True, slots=True)
class StepOptions:
    """Every legal turn of one step of ship ``ship_id`` from ``from_pose``.

    - ``stern_mm``: the new stern (the old tip), table mm.
    - ``base_heading_deg``: the old heading.
    - ``legal_deg``: open turn intervals, relative to the old heading, legal with room to spare.
    - ``blocked``: the turn intervals that are out, with the object (or rule) in the way.
    - ``allowance_mm``: the doubt allowance per object considered (``turn``: the self allowance
      in mm; ``play_area``: against the edge).
    - ``turn_limit_deg``: |φ| must stay below this (max turn of §4.2 less the allowance).
    """

    ship_id: str
    from_pose: Pose
    stern_mm: tuple[float, float]
    base_heading_deg: float
    legal_deg: Intervals
    blocked: tuple[Blocked, ...]
    allowance_mm: tuple[tuple[str, float], ...]
    turn_limit_deg: float
    strict_sweep: bool = False

    @property
    def stuck(self) -> bool:
        """§4.5: no legal step at all."""
        return not self.legal_deg

    def is_legal(self, turn_deg: float) -> bool:
        return angles.contains(self.legal_deg, turn_deg)

    def pose(self, turn_deg: float) -> Pose:
        """The placement after turning by ``turn_deg``."""
        return Pose(self.stern_mm[0], self.stern_mm[1], self.base_heading_deg + turn_deg)

    def blocked_by(self, turn_deg: float) -> Blocked | None:
        """What rules out ``turn_deg`` (closed intervals: an end is out too)."""
        for b in self.blocked:
            if b.lo_deg <= turn_deg <= b.hi_deg:
                return b
        return None


class StepEnv:
    """Everything one moving ship must keep clear of, with per-object allowances, indexed.

    Built once per ship and reused for every step of a move or a reachable region. The moving
    ship itself is left out: its earlier positions are empty table (§4.3), only rule 2 applies.
    """

    __slots__ = ("R", "a_area", "a_max", "a_self", "a_self_deg", "allow", "area", "area_boundary",
                 "area_ring", "dims", "geoms", "hulls", "ids", "local", "max_turn_deg",
                 "own_options", "rings", "ship", "tree")

    def __init__(self, table: Table, ship: Ship, config: RulesConfig) -> None:
        self.ship = ship
        self.own_options: dict[bool, StepOptions] = {}   # from the ship's own pose, by strict
        self.dims: PieceDims = ship.dims(config)
        sigma = ship.sigma_total_mm(config)
        floor = config.doubt_floor_mm
        others = [o for o in table.ships if o.id != ship.id]
        ids = [o.id for o in others] + [ob.id for ob in table.obstacles]
        allow = [allowance_mm([sigma, o.sigma_total_mm(config)], floor) for o in others]
        allow += [allowance_mm([sigma, ob.sigma_mm], floor) for ob in table.obstacles]
        # Other ships' silhouettes, transformed all at once per size (convex: hull = outline).
        coords: list[np.ndarray] = [np.empty((0, 2))] * len(others)
        for size in {o.size for o in others}:
            idx = [i for i, o in enumerate(others) if o.size == size]
            pose = np.array([[others[i].pose.x_mm, others[i].pose.y_mm,
                              math.radians(others[i].pose.heading_deg)] for i in idx])
            loc = silhouette_local(config.pieces.dims(size))
            c, s = np.cos(pose[:, 2])[:, None], np.sin(pose[:, 2])[:, None]
            xy = np.stack([pose[:, :1] + c * loc[:, 0] - s * loc[:, 1],
                           pose[:, 1:2] + s * loc[:, 0] + c * loc[:, 1]], axis=-1)
            for k, i in enumerate(idx):
                coords[i] = xy[k]
        geoms = list(shapely.polygons(coords)) if coords else []
        geoms += [ob.shape for ob in table.obstacles]
        self.ids = tuple(ids)
        self.geoms = np.array(geoms, dtype=object)
        shapely.prepare(self.geoms)
        self.allow = np.array(allow, dtype=float)
        self.tree = shapely.STRtree(self.geoms)
        self.rings = [np.vstack([c, c[:1]]) for c in coords]
        self.rings += [np.asarray(g.exterior.coords, dtype=float) for g in geoms[len(coords):]]
        self.hulls = list(coords) + [
            np.asarray(g.convex_hull.exterior.coords, dtype=float)[:-1]
            for g in geoms[len(coords):]]
        self.area = table.play_area.shape
        shapely.prepare(self.area)
        self.area_boundary = self.area.boundary
        self.area_ring = np.asarray(self.area.exterior.coords, dtype=float)
        self.a_area = allowance_mm([sigma], floor)
        self.a_self = allowance_mm([sigma, sigma], floor)
        # Angles compare two headings of this ship: §7's formula on the heading σ alone, with
        # the floor turned into degrees at s (turning sigma_mm into degrees too would count the
        # stern's σ as a heading error: 0.3 mm + 0.3° would already eat a 3° tolerance).
        self.a_self_deg = (2.0 * math.sqrt(2.0) * ship.sigma_deg
                           + math.degrees(floor / self.dims.footprint_length_mm))
        self.a_max = float(max([self.a_area, *allow]))
        self.local = silhouette_local(self.dims)
        self.R = float(np.max(np.hypot(self.local[:, 0], self.local[:, 1])))
        self.max_turn_deg = self.dims.max_turn_deg

    @classmethod
    def for_ship(cls, table: Table, ship_id: str, config: RulesConfig) -> StepEnv:
        """The environment of ``ship_id``; the last few are cached, since a page asking for
        the options, the zone and a verdict of the same ship on the same table is common."""
        ship_of(table, ship_id)
        return _env_cached(table, ship_id, config)

    @property
    def turn_limit_deg(self) -> float:
        return self.max_turn_deg - self.a_self_deg

    def near(self, pivot: tuple[float, float]) -> list[int]:
        """Indices of objects a silhouette turning about ``pivot`` could come within reach of."""
        pt = shapely.Point(pivot)
        idx = self.tree.query(pt, predicate="dwithin", distance=self.R + self.a_max)
        if len(idx) == 0:
            return []
        d = shapely.distance(self.geoms[idx], pt)
        return [int(i) for i, di in zip(idx, d, strict=True) if di <= self.R + self.allow[i]]

    def area_matters(self, pivot: tuple[float, float]) -> bool:
        """Whether the play-area edge is within reach of a silhouette turning about ``pivot``."""
        pt = shapely.Point(pivot)
        return not (self.area.contains(pt)
                    and self.area_boundary.distance(pt) > self.R + self.a_area)

    def silhouettes(self, xs: np.ndarray, ys: np.ndarray, headings_deg: np.ndarray) -> np.ndarray:
        """Silhouette polygons (table mm) for arrays of stern x, y and heading."""
        return shapely.polygons(self.silhouette_coords(xs, ys, headings_deg))

    def silhouette_coords(self, xs, ys, headings_deg) -> np.ndarray:
        h = np.radians(np.asarray(headings_deg, dtype=float))
        c, s = np.cos(h)[:, None], np.sin(h)[:, None]
        v = self.local
        x = np.asarray(xs, dtype=float)[:, None] + c * v[:, 0] - s * v[:, 1]
        y = np.asarray(ys, dtype=float)[:, None] + s * v[:, 0] + c * v[:, 1]
        return np.stack([x, y], axis=-1)

    def evaluate(self, xs, ys, headings_deg) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Rule-3 check of many placements at once.

        Returns per placement: ``slack`` (clearance − allowance of the tightest object, mm;
        +inf when nothing is within reach; a yes needs slack > 0), ``which`` (object index, −1
        for the play-area edge, −2 for nothing) and the raw ``clearance`` (mm, 0 when touching
        or overlapping; see :meth:`signed_clearance` for depth).
        """
        polys = self.silhouettes(xs, ys, headings_deg)
        n = len(polys)
        slack = np.full(n, np.inf)
        which = np.full(n, -2, dtype=int)
        clear = np.full(n, np.inf)
        if len(self.ids):
            pi, oi = self.tree.query(polys, predicate="dwithin", distance=self.a_max)
            if len(pi):
                d = shapely.distance(polys[pi], self.geoms[oi])
                sl = d - self.allow[oi]
                # Per placement keep its tightest pair: sort by (placement, slack to 1e-9,
                # object), take firsts. Ties (two objects touched, clearance 0 each) go to the
                # table's first object, not the spatial index's order, which moving the table
                # changes.
                order = np.lexsort((oi, np.round(sl, 9), pi))
                pi, oi, d, sl = pi[order], oi[order], d[order], sl[order]
                first = np.r_[True, pi[1:] != pi[:-1]]
                slack[pi[first]], which[pi[first]], clear[pi[first]] = (
                    sl[first], oi[first], d[first])
        inside = shapely.contains(self.area, polys)
        da = shapely.distance(polys, self.area_boundary)
        da = np.where(inside, da, 0.0)
        sa = da - self.a_area
        worse = sa < slack
        slack = np.where(worse, sa, slack)
        which = np.where(worse, -1, which)
        clear = np.where(worse, da, clear)
        return slack, which, clear

    def signed_clearance(self, pose: Pose, which: int) -> float:
        """Clearance (mm) of the silhouette at ``pose`` from object ``which`` (−1: play-area edge):
        positive gap, or minus the overlap depth (how far it would have to move out)."""
        coords = self.silhouette_coords([pose.x_mm], [pose.y_mm], [pose.heading_deg])[0]
        poly = shapely.Polygon(coords)
        if which == -1:
            if self.area.contains(poly):
                return float(self.area_boundary.distance(poly))
            out = shapely.distance(shapely.points(coords), self.area)
            return -float(np.max(out))
        d = float(shapely.distance(poly, self.geoms[which]))
        if d > 0:
            return d
        return -_sat_depth(coords, self.hulls[which])

    def blocker_name(self, which: int) -> str:
        return PLAY_AREA if which == -1 else self.ids[which]

    def allowance_of(self, which: int) -> float:
        return self.a_area if which == -1 else float(self.allow[which])


@lru_cache(maxsize=16)
def _env_cached(table: Table, ship_id: str, config: RulesConfig) -> StepEnv:
    return StepEnv(table, table.ship(ship_id), config)


def ship_of(table: Table, ship_id: str) -> Ship:
    try:
        return table.ship(ship_id)
    except KeyError:
        raise ValueError(f"ship: no ship with id {ship_id!r} on the table") from None


def _sat_depth(a: np.ndarray, b: np.ndarray) -> float:
    """Penetration depth of two convex polygons (vertex arrays, table mm): the smallest push
    along an edge normal of either that separates them (separating-axis theorem)."""
    best = np.inf
    for poly in (a, b):
        e = np.roll(poly, -1, axis=0) - poly
        n = np.column_stack([e[:, 1], -e[:, 0]])
        ln = np.hypot(n[:, 0], n[:, 1])
        n = n[ln > 1e-12] / ln[ln > 1e-12, None]
        pa, pb = a @ n.T, b @ n.T
        overlap = np.minimum(pa.max(0), pb.max(0)) - np.maximum(pa.min(0), pb.min(0))
        best = min(best, float(overlap.min()))
    return max(best, 0.0)


def critical_turns_deg(local: np.ndarray, pivot: tuple[float, float], base_heading_deg: float,
                       ring: np.ndarray, dist_mm: float) -> np.ndarray:
    """Turns φ (degrees, relative to ``base_heading_deg``, in (−180, 180]) at which a polygon
    ``local`` (ship frame) placed with its origin on ``pivot`` (table mm) is at distance
    ``dist_mm`` from a vertex or an edge line of the closed ``ring`` (table mm).

    >>> sq = np.array([[10., -1], [12, -1], [12, 1], [10, 1], [10, -1]])
    >>> stick = np.array([[0., -0.1], [11, 0], [0, 0.1]])
    >>> phis = critical_turns_deg(stick, (0.0, 0.0), 0.0, sq, 0.0)
    >>> round(math.degrees(math.acos(10 / 11)), 2)   # the tip (r = 11) crosses the line x = 10
    24.62
    >>> bool(np.isclose(phis, 24.62, atol=0.01).any())
    True
    """
    phi = critical_turns_many(local, np.asarray([pivot], dtype=float),
                              np.array([base_heading_deg], dtype=float), ring, dist_mm)[0]
    return phi[np.isfinite(phi)]


def critical_turns_many(local: np.ndarray, pivots: np.ndarray, base_headings_deg: np.ndarray,
                        ring: np.ndarray, dist_mm: float) -> np.ndarray:
    """:func:`critical_turns_deg` for M pivots (table mm) and base headings at once: an (M, K)
    array of turns in degrees, NaN where a family has no solution."""
    v = np.asarray(local, dtype=float)
    f = np.asarray(ring, dtype=float)
    h = np.radians(np.asarray(base_headings_deg, dtype=float))[:, None, None]
    a = float(dist_mm)
    r = np.hypot(v[:, 0], v[:, 1])
    alpha = np.arctan2(v[:, 1], v[:, 0])
    r, alpha = r[r > 1e-12], alpha[r > 1e-12]
    dv = f[None, :-1, :] - np.asarray(pivots, dtype=float)[:, None, :]          # (M, m, 2)
    d = np.maximum(np.hypot(dv[..., 0], dv[..., 1]), 1e-12)[:, None, :]        # (M, 1, m)
    delta = np.arctan2(dv[..., 1], dv[..., 0])[:, None, :]
    e = f[1:] - f[:-1]
    le = np.maximum(np.hypot(e[:, 0], e[:, 1]), 1e-12)
    n = np.column_stack([e[:, 1], -e[:, 0]]) / le[:, None]
    psi = np.arctan2(n[:, 1], n[:, 0])[None, None, :]
    c = np.einsum("mk,imk->im", n, dv)[:, None, :]
    ve = np.roll(v, -1, axis=0) - v
    lv = np.maximum(np.hypot(ve[:, 0], ve[:, 1]), 1e-12)
    mm = np.column_stack([ve[:, 1], -ve[:, 0]]) / lv[:, None]
    mu = np.arctan2(mm[:, 1], mm[:, 0])[None, :, None]
    ek = np.sum(mm * v, axis=1)[None, :, None]
    ra, al = r[None, :, None], alpha[None, :, None]
    # Every family is φ = base ± acos(cos):
    # (A) moving vertex i at distance a from fixed vertex j (law of cosines);
    # (B) moving vertex i on a line parallel to fixed edge j at distance a: r·cos(θ − ψ) = c ± a;
    # (C) fixed vertex j, which the moving frame sees turning the other way (angle δ − h − φ),
    #     on a line parallel to moving edge k at distance a: d·cos(γ − μ) = e ± a, φ = δ − h − γ.
    bases = [delta - h - al, psi - h - al, psi - h - al, delta - h - mu, delta - h - mu]
    coss = [(ra ** 2 + d ** 2 - a * a) / (2.0 * ra * d), (c + a) / ra, (c - a) / ra,
            (ek + a) / d, (ek - a) / d]
    m_ = len(pivots)
    base = np.concatenate([np.broadcast_to(b, np.broadcast_shapes(b.shape, x.shape)).reshape(
        m_, -1) for b, x in zip(bases, coss, strict=True)], axis=1)
    cosv = np.concatenate([np.broadcast_to(x, np.broadcast_shapes(b.shape, x.shape)).reshape(
        m_, -1) for b, x in zip(bases, coss, strict=True)], axis=1)
    w = np.where(np.abs(cosv) <= 1.0, np.arccos(np.clip(cosv, -1.0, 1.0)), np.nan)
    phi = np.concatenate([base + w, base - w], axis=1)
    return np.degrees((phi + np.pi) % (2.0 * np.pi) - np.pi)


def legal_many(env: StepEnv, xs: np.ndarray, ys: np.ndarray, headings_deg: np.ndarray,
               strict_sweep: bool = False) -> list[Intervals]:
    """Exact legal turn intervals of one step from each of M poses (table mm) at once: the same
    sets as :func:`options_at` (without the explanations), batched per object so a reachable
    region near crowded places costs a few array operations per object, not per pose."""
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    hs = np.asarray(headings_deg, dtype=float)
    m_ = len(xs)
    s = env.dims.footprint_length_mm
    hr = np.radians(hs)
    piv = np.column_stack([xs + s * np.cos(hr), ys + s * np.sin(hr)])
    lim = env.turn_limit_deg
    if lim <= 0:
        return [() for _ in range(m_)]
    blocked: list[list[tuple[float, float]]] = [[] for _ in range(m_)]
    pts = shapely.points(piv)
    jobs: list[tuple[np.ndarray, np.ndarray, float, object]] = []
    if len(env.ids):
        pi, oi = env.tree.query(pts, predicate="dwithin", distance=env.R + env.a_max)
        if len(pi):
            dd = shapely.distance(env.geoms[oi], pts[pi])
            keep = dd <= env.R + env.allow[oi]
            pi, oi = pi[keep], oi[keep]
            for j in np.unique(oi):
                jobs.append((pi[oi == j], env.rings[j], float(env.allow[j]), env.geoms[j]))
    inside = shapely.contains(env.area, pts)
    near_edge = ~inside | (shapely.distance(pts, env.area_boundary) <= env.R + env.a_area)
    if near_edge.any():
        jobs.append((np.flatnonzero(near_edge), env.area_ring, env.a_area, None))
    for idx, ring, a, geom in jobs:
        cand = critical_turns_many(env.local, piv[idx], hs[idx], ring, a)
        cand = np.where(np.isfinite(cand) & (np.abs(cand) < lim), cand, lim)
        cuts = np.sort(np.concatenate([np.full((len(idx), 1), -lim), cand,
                                       np.full((len(idx), 1), lim)], axis=1), axis=1)
        mids = (cuts[:, :-1] + cuts[:, 1:]) / 2.0
        wide = (cuts[:, 1:] - cuts[:, :-1]) > 1e-12
        row, col = np.nonzero(wide)
        polys = env.silhouettes(piv[idx][row, 0], piv[idx][row, 1],
                                hs[idx][row] + mids[row, col])
        if geom is None:
            ok = shapely.contains(env.area, polys)
            dist = np.where(ok, shapely.distance(polys, env.area_boundary), 0.0)
        else:
            dist = shapely.distance(polys, geom)
        bad = dist <= a
        for rr, cc in zip(row[bad], col[bad], strict=True):
            blocked[idx[rr]].append((float(cuts[rr, cc]), float(cuts[rr, cc + 1])))
    out: list[Intervals] = []
    for i in range(m_):
        legal = angles.subtract(((-lim, lim),), tuple(angles.normalize(blocked[i])))
        # Slivers between two critical angles a rounding error apart were never evaluated.
        legal = tuple((lo, hi) for lo, hi in legal if hi - lo > 1e-9)
        if strict_sweep:
            legal = angles.component_containing(legal, 0.0)
        out.append(legal)
    return out


def _critical_mixed(local: np.ndarray, pivot: np.ndarray, base_deg: float, verts: np.ndarray,
                    a_v: np.ndarray, e0: np.ndarray, e1: np.ndarray, a_e: np.ndarray) -> np.ndarray:
    """Critical turns (degrees) of one pivot against many fixed vertices and edges at once, each
    with its own allowance: the families of :func:`critical_turns_many` flattened."""
    v = local
    h = math.radians(base_deg)
    r = np.hypot(v[:, 0], v[:, 1])
    alpha = np.arctan2(v[:, 1], v[:, 0])
    r, alpha = r[r > 1e-12][:, None], alpha[r > 1e-12][:, None]
    dv = verts - pivot
    d = np.maximum(np.hypot(dv[:, 0], dv[:, 1]), 1e-12)[None, :]
    delta = np.arctan2(dv[:, 1], dv[:, 0])[None, :]
    e = e1 - e0
    le = np.maximum(np.hypot(e[:, 0], e[:, 1]), 1e-12)
    n = np.column_stack([e[:, 1], -e[:, 0]]) / le[:, None]
    psi = np.arctan2(n[:, 1], n[:, 0])[None, :]
    c = np.sum(n * (e0 - pivot), axis=1)[None, :]
    ve = np.roll(v, -1, axis=0) - v
    lv = np.maximum(np.hypot(ve[:, 0], ve[:, 1]), 1e-12)
    mm = np.column_stack([ve[:, 1], -ve[:, 0]]) / lv[:, None]
    mu = np.arctan2(mm[:, 1], mm[:, 0])[:, None]
    ek = np.sum(mm * v, axis=1)[:, None]
    av, ae = a_v[None, :], a_e[None, :]
    base = np.concatenate([(delta - h - alpha).ravel(), np.tile((psi - h - alpha).ravel(), 2),
                           np.tile((delta - h - mu).ravel(), 2)])
    cosv = np.concatenate([((r ** 2 + d ** 2 - av ** 2) / (2.0 * r * d)).ravel(),
                           ((c + ae) / r).ravel(), ((c - ae) / r).ravel(),
                           ((ek + av) / d).ravel(), ((ek - av) / d).ravel()])
    ok = np.abs(cosv) <= 1.0
    base, w = base[ok], np.arccos(cosv[ok])
    phi = np.concatenate([base + w, base - w])
    return np.degrees((phi + np.pi) % (2.0 * np.pi) - np.pi)


def options_at(env: StepEnv, pose: Pose, strict_sweep: bool = False) -> StepOptions:
    """Step options of ``env``'s ship from ``pose`` (table mm): the exact interval computation.
    Those from the ship's own pose are kept on the environment (options, then zone, then a
    verdict for the same ship is the usual sequence of a page)."""
    if pose == env.ship.pose:
        hit = env.own_options.get(strict_sweep)
        if hit is None:
            hit = env.own_options[strict_sweep] = _options_at(env, pose, strict_sweep)
        return hit
    return _options_at(env, pose, strict_sweep)


def _options_at(env: StepEnv, pose: Pose, strict_sweep: bool) -> StepOptions:
    dims = env.dims
    pivot = pose.tip_mm(dims.footprint_length_mm)
    base = pose.heading_deg
    lim = env.turn_limit_deg
    blocked: list[Blocked] = []
    if lim > 0:
        blocked.append(Blocked(-180.0, -lim, TURN, None, env.a_self))
        blocked.append(Blocked(lim, 180.0, TURN, None, env.a_self))
    else:
        blocked.append(Blocked(-180.0, 180.0, TURN, None, env.a_self))
    allow: list[tuple[str, float]] = [(TURN, env.a_self)]
    legal: Intervals = ((-lim, lim),) if lim > 0 else ()
    if legal:
        # Every object within reach (and the edge, when near) at once: one set of critical
        # angles, one clearance evaluation per sub-interval and object.
        near = env.near(pivot)
        edge = env.area_matters(pivot)
        rings = [env.rings[j] for j in near] + ([env.area_ring] if edge else [])
        allows = [float(env.allow[j]) for j in near] + ([env.a_area] if edge else [])
        names = [env.ids[j] for j in near] + ([PLAY_AREA] if edge else [])
        allow += list(zip(names, allows, strict=True))
        if rings:
            verts = np.vstack([rg[:-1] for rg in rings])
            a_v = np.concatenate([np.full(len(rg) - 1, a) for rg, a in zip(rings, allows,
                                                                          strict=True)])
            e0 = np.vstack([rg[:-1] for rg in rings])
            e1 = np.vstack([rg[1:] for rg in rings])
            piv = np.asarray(pivot, dtype=float)
            cands = _critical_mixed(env.local, piv, base, verts, a_v, e0, e1, a_v)
            cuts = np.unique(np.concatenate([[-lim, lim],
                                             cands[(cands > -lim) & (cands < lim)]]))
            mids = (cuts[:-1] + cuts[1:]) / 2.0
            polys = env.silhouettes(np.full(len(mids), piv[0]), np.full(len(mids), piv[1]),
                                    base + mids)
            cols = []
            if near:
                cols.append(shapely.distance(polys[:, None], env.geoms[near][None, :]))
            if edge:
                inside = shapely.contains(env.area, polys)
                cols.append(np.where(inside, shapely.distance(polys, env.area_boundary),
                                     0.0)[:, None])
            dist = np.hstack(cols)
            bad = dist <= np.array(allows)[None, :]
            for j, name in enumerate(names):
                run: list[float] | None = None
                for k in np.flatnonzero(bad[:, j]):
                    lo, hi, cl = float(cuts[k]), float(cuts[k + 1]), float(dist[k, j])
                    if run is not None and run[1] == lo:
                        run[1], run[2] = hi, min(run[2], cl)
                        continue
                    if run is not None:
                        blocked.append(Blocked(run[0], run[1], name, run[2], allows[j]))
                    run = [lo, hi, cl]
                if run is not None:
                    blocked.append(Blocked(run[0], run[1], name, run[2], allows[j]))
        legal = angles.subtract(legal, tuple((b.lo_deg, b.hi_deg) for b in blocked))
        if strict_sweep:
            # The piece turns about the pivot from straight ahead to φ: every turn in between
            # must be clear, so only the legal interval holding 0 counts (§4.4, strict option).
            legal = angles.component_containing(legal, 0.0)
    return StepOptions(env.ship.id, pose, (float(pivot[0]), float(pivot[1])), base, legal,
                       tuple(sorted(blocked, key=lambda b: (b.lo_deg, b.hi_deg))),
                       tuple(allow), lim, strict_sweep)


def step_options(table: Table, ship_id: str, config: RulesConfig = DEFAULT_CONFIG, *,
                 from_pose: Pose | None = None) -> StepOptions:
    """Exact legal turn intervals of one step of ``ship_id`` (from its pose on the table, or from
    ``from_pose``, table mm), with what blocks the rest (rules.md §4.1–4.3, §7)."""
    env = StepEnv.for_ship(table, ship_id, config)
    return options_at(env, from_pose or env.ship.pose, config.strict_sweep)


def fan_polygon(pivot: tuple[float, float], base_heading_deg: float, lo_deg: float,
                hi_deg: float, dims: PieceDims, resolution_deg: float = 1.0) -> shapely.Polygon:
    """Union of the footprints with stern on ``pivot`` (table mm) for every turn in
    [lo, hi] (degrees, relative to ``base_heading_deg``): the starboard side of the first
    footprint, the tip's arc (chords at most ``resolution_deg`` apart), the port side of the
    last. Exact but for the chords and a sliver (< 0.4 mm) near the stern corners."""
    s, hw = dims.footprint_length_mm, dims.half_w_mm
    a, b = base_heading_deg + lo_deg, base_heading_deg + hi_deg
    n = max(1, math.ceil((b - a) / max(resolution_deg, 1e-3)))
    ang = np.radians(np.concatenate([[0.0, a - 90.0], np.linspace(a, b, n + 1), [b + 90.0]]))
    rad = np.concatenate([[0.0, hw], np.full(n + 1, s), [hw]])
    pts = np.column_stack([pivot[0] + rad * np.cos(ang), pivot[1] + rad * np.sin(ang)])
    return shapely.Polygon(pts)


def zone_of(options: StepOptions, dims: PieceDims, resolution_deg: float = 1.0):
    """Footprint union of the legal placements of ``options`` (table mm)."""
    fans = [fan_polygon(options.stern_mm, options.base_heading_deg, lo, hi, dims, resolution_deg)
            for lo, hi in options.legal_deg]
    if not fans:
        return shapely.Polygon()
    return fans[0] if len(fans) == 1 else shapely.union_all(fans)


def step_zone(table: Table, ship_id: str, config: RulesConfig = DEFAULT_CONFIG, *,
              resolution_deg: float = 1.0):
    """Union of the footprints of every legal one-step placement (table mm), for drawing; the
    tip's arc is drawn with chords at most ``resolution_deg`` apart. Empty when stuck."""
    env = StepEnv.for_ship(table, ship_id, config)
    opts = options_at(env, env.ship.pose, config.strict_sweep)
    return zone_of(opts, env.dims, resolution_deg)


def adjudicate_step(table: Table, ship_id: str, new_pose: Pose,
                    config: RulesConfig = DEFAULT_CONFIG, *, from_pose: Pose | None = None
                    ) -> Verdict:
    """Is ``new_pose`` (table mm) one legal step of ``ship_id`` from its pose (or ``from_pose``),
    within the placement tolerance? The verdict of a one-step move (see ``move.py``)."""
    from armada_vision.rules.move import adjudicate_steps

    return adjudicate_steps(table, ship_id, new_pose, config, max_steps=1, from_pose=from_pose)
