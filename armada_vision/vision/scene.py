"""What the fits of a view's pieces share: the scene (fit map, score, grid, piece set,
camera) with its fit caches, a fitted reading (:class:`Candidate`), and the costs and tests
every pass judges readings by (the cost levels, clashes, joint cost, size swaps).

Split from :mod:`explain` (session 25) so that the passes on a reading's open base
(:mod:`open_base`) and the region passes (:mod:`explain`) both build on it.

Frames: table mm (+y away from the viewer); view px per :class:`ViewGrid`.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceSet, Size
from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.fit import (
    FitResult,
    ViewGrid,
    fit_pose,
    fit_poses,
    lying_local_3d,
    outline_mm,
    sample_map,
    upright_local_3d,
)

# Mean robust cost per outline sample (px², a miss counts 2): a piece is good below GOOD_COST;
# up to MAX_COST it is kept as doubtful (its σ inflated so the rules answer no).
GOOD_COST = 0.35
MAX_COST = 0.58
# Two lying pieces never share table: two readings whose footprints overlap by CLASH_SHARE of
# the smaller's area or more clash (clashes), and no pass keeps both. The rest is fitting
# noise: right readings of touching pieces overlap 0.08 at most (4816-set, 1957 matched; 0.05
# on 1648-2223, detect.OVERLAP_SHARE). At 0.15 a piece was read twice just under it (issue 4,
# session 19, 4816-set): 4933's blue small again end for end (0.15), 4949's blue medium as
# a small plus a small in its open base (0.14), 5066's red small in a red large's hollow
# (0.13), 4846's red large's shadow re-read on the unscaled map as a clear medium (0.10);
# and a piece read into its neighbour's table kept the longer size (5009's white small as a
# medium, 0.14). At 0.10 the choice takes another reading there: those four gone, 4949's
# and 5009's read at their sizes.
CLASH_SHARE = 0.10
# A full fit stops after rounds 3, 4, 5 when its cost is still above these (fit_pose's
# give_up): it would not end usable (≤ MAX_COST + AMBIGUITY_COST). On 14 stills and 12
# scenes the fits ending ≤ 0.88 had reached at most 1.55 / 1.51 / 1.44 by then, but those
# that ended chosen or a rival reading only 1.46 / 1.28 / 1.16 (one fit), else ≤ 1.08 /
# 0.92 / 0.76.
GIVE_UP = ((3, 1.2), (4, 1.0), (5, 0.95))
# A screen (3 rounds) stops after round 2 above this: it would not pass 2 × MAX_COST after
# round 3 (on the same images, of 1332 screens the 566 that passed had reached ≤ 1.73, the
# 75 whose full fit ended chosen or a rival ≤ 1.37; 6 that passed, none of those, are lost).
SCREEN_GIVE_UP = ((2, 1.5),)
# The full fits from a passed screen and the size swaps have fair starts, and stop sooner:
# on the same images the tip fits that ended chosen or a rival had reached ≤ 0.74 after round
# 3 (those ending ≤ 0.88: ≤ 1.01), the swaps that ended a rival ≤ 0.81 (≤ 0.88: 2 of 660 over
# 1.0), saving ~640 of ~18000 rounds.
SURE_GIVE_UP = ((3, 1.0), *GIVE_UP[1:])
# Foreground (0–1 map) above which the outside of an edge is solid (a piece), not a shadow.
SOLID_FG = 0.7
# σ (mm) at least of such a piece: its edges against the hand's region were found on a table
# estimate the hand's colour bled into (seed 1007's orange: stern 1.6 mm off).
HAND_EDGE_MM = 1.5
# A clean longer reading from a hand piece's tip (tip within TIP_SAME_MM of its) replaces it
# when its stern is seen and the piece's own is not: the view's brightness over the table's
# STERN_IN_MM either side of the stern edge differs by STERN_STEP or more (seed 1017's blue
# large 0.47 / 0.94 at its stern, its medium reading 0.58 / 0.52 across the face).
TIP_SAME_MM = 2.0
STERN_IN_MM = 1.5
STERN_STEP = 1.25


@dataclass(frozen=True, slots=True, eq=False)
class Candidate:
    """One fitted hypothesis: a lying piece of ``size`` (or an upright one), its fit, its
    outline as the camera sees it on the table plane (mm) and, per outline sample, whether
    the outside there is solid foreground."""

    size: Size
    upright: bool
    fit: FitResult
    outline_mm: np.ndarray
    solid_outside: np.ndarray
    ambiguity_mm: float = 0.0
    ambiguity_deg: float = 0.0
    covering_ambiguity_mm: float = 0.0
    covering_ambiguity_deg: float = 0.0

    def in_doubt_of(self, mm: float, deg: float) -> Candidate:
        """This candidate with its ambiguities (own and covering) at least ``mm`` (table mm)
        and ``deg`` (degrees)."""
        return replace(self, ambiguity_mm=max(self.ambiguity_mm, mm),
                       covering_ambiguity_mm=max(self.covering_ambiguity_mm, mm),
                       ambiguity_deg=max(self.ambiguity_deg, deg),
                       covering_ambiguity_deg=max(self.covering_ambiguity_deg, deg))


@dataclass(frozen=True, slots=True, eq=False)
class Scene:
    """What the fits need: the foreground map (0–1) and raw score of the view, its grid, the
    piece dimensions and the camera centre (table mm)."""

    fg: np.ndarray
    score: np.ndarray
    grid: ViewGrid
    pieces: PieceSet
    camera_mm: np.ndarray
    # The view's brightness over the table's estimate (1 on bare table, < 1 in a shadow).
    shade: np.ndarray | None = None
    # Fits already made, by (size, upright, start pose, iterations): a region's leftover
    # that no new piece explains is refitted from the same axis guess each round, and a
    # size swap often repeats one (~40 of ~185 fits per 1080p image were repeats).
    _fits: dict[tuple, Candidate] = field(default_factory=dict, repr=False)
    _screens: dict[tuple, FitResult] = field(default_factory=dict, repr=False)
    # Footprints (with bounds) and grown outlines by (size, upright, pose): the choice asks
    # for the same few hundred again and again.
    _shapes: dict[tuple, object] = field(default_factory=dict, repr=False)

    def on_map(self, fg: np.ndarray) -> Scene:
        """This scene fitted on the map ``fg`` (view px, 0–1) instead, with fresh caches (the
        fits depend on the map): an unscaled, colour or re-scaled map of a window."""
        return replace(self, fg=fg, _fits={}, _screens={}, _shapes={})

    def footprint(self, c: Candidate) -> tuple[shapely.Polygon, tuple[float, ...]]:
        """``c``'s footprint on the table (mm) and its bounds (x0, y0, x1, y1)."""
        p = c.fit.pose
        key = ("fp", c.size, p.x_mm, p.y_mm, p.heading_deg)
        got = self._shapes.get(key)
        if got is None:
            fp = footprint(p, self.pieces.dims(c.size))
            got = self._shapes[key] = (fp, fp.bounds)
        return got  # type: ignore[return-value]

    def overlap(self, c: Candidate, k: Candidate) -> bool:
        """Whether ``c``'s footprint overlaps ``k``'s by CLASH_SHARE of the smaller's area or more
        (:func:`clashes`), remembered: the choice asks about the same pairs again and again
        (a third of the asks on the 1648-set's first 48 scenes)."""
        p, q = c.fit.pose, k.fit.pose
        key = ("clash", c.size, p.x_mm, p.y_mm, p.heading_deg, k.size, q.x_mm, q.y_mm,
               q.heading_deg)
        got = self._shapes.get(key)
        if got is None:
            fp, o = self.footprint(c)[0], self.footprint(k)[0]
            got = self._shapes[key] = (fp.intersection(o).area
                                       >= CLASH_SHARE * min(fp.area, o.area))
        return got  # type: ignore[return-value]

    def grown_outline(self, c: Candidate) -> shapely.Polygon:
        """``c``'s outline as seen (table mm) grown by 1 mm, prepared for point tests."""
        p = c.fit.pose
        key = ("out", c.size, c.upright, p.x_mm, p.y_mm, p.heading_deg)
        got = self._shapes.get(key)
        if got is None:
            got = self._shapes[key] = shapely.Polygon(c.outline_mm).buffer(1.0)
            shapely.prepare(got)
        return got  # type: ignore[return-value]

    def fit(self, size: Size, init: Pose, *, upright: bool = False, iterations: int = 8,
            give_up: tuple[tuple[int, float], ...] = GIVE_UP) -> Candidate:
        """The fit of ``size`` (lying, or ``upright``) from ``init`` (table mm), stopped
        where hopeless (``give_up``, see :func:`fit_pose`); a repeat of the same start is
        answered from memory (fits are deterministic), a fit with the usual GIVE_UP serving
        for any ceilings (it only went on longer)."""
        key = (size, upright, init.x_mm, init.y_mm, init.heading_deg, iterations)
        c = self._fits.get((*key, give_up)) or self._fits.get((*key, GIVE_UP))
        if c is None:
            c = self._fits[*key, give_up] = self._fit(size, init, upright, iterations, give_up)
        return c

    def fits(self, starts: list[tuple[Size, Pose]], *, upright: bool = False,
             iterations: int = 8, give_up: tuple[tuple[int, float], ...] = GIVE_UP
             ) -> list[Candidate]:
        """:meth:`fit` of each (size, start) of ``starts``, those not in memory fitted side by
        side (:func:`fit_poses`: the same fits, cheaper)."""
        keys = [(z, upright, p.x_mm, p.y_mm, p.heading_deg, iterations) for z, p in starts]
        got = [self._fits.get((*k, give_up)) or self._fits.get((*k, GIVE_UP)) for k in keys]
        todo = {k: (z, p) for k, c, (z, p) in zip(keys, got, starts, strict=True) if c is None}
        if todo:
            jobs = [(z, self._local(z, upright), p) for z, p in todo.values()]
            made = fit_poses(self.fg, self.grid, [(loc, p) for _z, loc, p in jobs],
                             self.camera_mm, iterations=iterations, give_up=give_up)
            for k, (z, loc, _p), f in zip(todo, jobs, made, strict=True):
                self._fits[*k, give_up] = self._candidate(z, upright, loc, f)
        return [c or self._fits[*k, give_up] for k, c in zip(keys, got, strict=True)]

    def screen(self, size: Size, init: Pose, iterations: int = 3) -> FitResult:
        """A short lying fit of ``size`` from ``init`` (table mm), only its pose and cost:
        most screens are hopeless, so the outline as seen and its solid outside, which only
        a candidate needs, are not worked out."""
        key = ("screen", size, init.x_mm, init.y_mm, init.heading_deg, iterations)
        f = self._screens.get(key)
        if f is None:
            f = self._screens[key] = fit_pose(
                self.fg, self.grid, self._local(size, False), init,
                self.camera_mm, iterations=iterations, give_up=SCREEN_GIVE_UP, cost_only=True)
        return f

    def screens(self, starts: list[tuple[Size, Pose]], iterations: int = 3
                ) -> list[FitResult]:
        """:meth:`screen` of each (size, start) of ``starts``, those not in memory run side by
        side (:func:`fit_poses`)."""
        keys = [("screen", z, p.x_mm, p.y_mm, p.heading_deg, iterations) for z, p in starts]
        todo = {k: (z, p) for k, (z, p) in zip(keys, starts, strict=True)
                if k not in self._screens}
        if todo:
            made = fit_poses(self.fg, self.grid,
                             [(self._local(z, False), p) for z, p in todo.values()],
                             self.camera_mm, iterations=iterations, give_up=SCREEN_GIVE_UP,
                             cost_only=True)
            self._screens.update(zip(todo, made, strict=True))
        return [self._screens[k] for k in keys]

    def _fit(self, size: Size, init: Pose, upright: bool, iterations: int,
             give_up: tuple[tuple[int, float], ...]) -> Candidate:
        loc = self._local(size, upright)
        return self._candidate(size, upright, loc, fit_pose(
            self.fg, self.grid, loc, init, self.camera_mm, iterations=iterations,
            give_up=give_up))

    def _local(self, size: Size, upright: bool) -> np.ndarray:
        """The body's vertices (ship frame, mm) of ``size``, lying or ``upright`` (made once a
        scene: every fit asks; read only)."""
        key = ("local", size, upright)
        got = self._shapes.get(key)
        if got is None:
            d = self.pieces.dims(size)
            got = self._shapes[key] = upright_local_3d(d) if upright else lying_local_3d(d)
        return got  # type: ignore[return-value]

    def _candidate(self, size: Size, upright: bool, loc: np.ndarray, f: FitResult
                   ) -> Candidate:
        """The candidate of fit ``f`` of body ``loc``: its outline as seen and the solid
        outside of its samples."""
        if len(f.probe_mm):
            p = self.grid.to_px(f.probe_mm)
            solid = sample_map(self.fg, p[:, 0], p[:, 1]) > SOLID_FG
        else:  # a failed or given-up fit
            solid = np.zeros(0, bool)
        params = np.array([f.pose.x_mm, f.pose.y_mm, math.radians(f.pose.heading_deg)])
        return Candidate(size, upright, f, outline_mm(loc, params, self.camera_mm), solid)

    def strong(self, region: np.ndarray, sub: ViewGrid) -> np.ndarray:
        """The region's pixels that are clearly object (fit map ≥ 0.5), not faint shadow."""
        crop = self.fg[self.grid.window(sub)]
        if crop.shape != region.shape:
            return region
        return region & (crop >= 0.5)

    @property
    def max_area_mm2(self) -> float:
        """Largest view area one lying piece can cover (its outline plus parallax)."""
        big = self.pieces.dims(Size.LARGE)
        return 1.4 * (big.base_w_mm * big.footprint_length_mm / 2 + 6 * big.base_w_mm)

    @property
    def max_length_mm(self) -> float:
        """Footprint length (mm) of the largest piece."""
        return self.pieces.dims(Size.LARGE).footprint_length_mm

    @property
    def by_length(self) -> list[Size]:
        """The sizes, shortest footprint first."""
        return sorted(Size, key=lambda z: self.pieces.dims(z).footprint_length_mm)

    @property
    def small_area_mm2(self) -> float:
        d = self.pieces.dims(Size.SMALL)
        return d.base_w_mm * d.footprint_length_mm / 2

    def off_radial_deg(self, pose: Pose, at_mm: np.ndarray | None = None) -> float:
        """How far (degrees, signed as :func:`angle_diff_deg`) ``pose``'s heading turns from
        straight away from the camera's foot at ``at_mm`` (table mm; default its stern): a
        standing piece's faces lean that way, so a lying reading fitted to them heads so."""
        away = np.asarray(pose.stern_mm if at_mm is None else at_mm) - self.camera_mm[:2]
        return angle_diff_deg(pose.heading_deg, math.degrees(math.atan2(away[1], away[0])))


def unsure(c: Candidate) -> bool:
    """Whether ``c`` is doubtful or in size doubt (a covering reading of another size)."""
    return c.fit.cost > GOOD_COST or c.covering_ambiguity_mm > 0.0


def clashes(c: Candidate, others: list[Candidate], scene: Scene) -> bool:
    """Whether ``c``'s footprint overlaps any of ``others``' beyond fitting noise (lying
    pieces' footprints cannot overlap)."""
    x0, y0, x1, y1 = scene.footprint(c)[1]
    for k in others:
        u0, v0, u1, v1 = scene.footprint(k)[1]
        # Disjoint bounds: no overlap, and no need to ask shapely.
        if u0 > x1 or u1 < x0 or v0 > y1 or v1 < y0:
            continue
        if scene.overlap(c, k):
            return True
    return False


def joint_cost(c: Candidate, others: list[Candidate], scene: Scene,
               excused: np.ndarray | None = None) -> float:
    """``c``'s cost where a hidden edge is excused only by a shadow-weak outside, by another
    chosen piece's outline or where ``excused`` (per outline sample) says so."""
    probe = c.fit.probe_mm
    explained = ~c.solid_outside if excused is None else ~c.solid_outside | excused
    for o in others:
        explained |= shapely.contains_xy(scene.grown_outline(o), probe[:, 0], probe[:, 1])
    return c.fit.cost_given(explained)


def size_swaps(scene: Scene, c: Candidate) -> list[Candidate]:
    """Fits of the other sizes with the tip, or the stern, where ``c``'s is (side by
    side)."""
    return scene.fits(_swap_starts(scene, c), give_up=SURE_GIVE_UP)


def _swap_starts(scene: Scene, c: Candidate) -> list[tuple[Size, Pose]]:
    tip = c.fit.pose.tip_mm(scene.pieces.dims(c.size).footprint_length_mm)
    starts = []
    for z in Size:
        if z != c.size:
            s = scene.pieces.dims(z).footprint_length_mm
            starts += [(z, Pose.with_tip(tip, c.fit.pose.heading_deg, s)),
                       (z, c.fit.pose)]  # same stern
    return starts


def reading_gap(scene: Scene, o: Candidate, c: Candidate) -> tuple[float, float]:
    """How far reading ``o`` lies from reading ``c`` of the same piece: the farther of their
    sterns and tips apart (table mm) and their headings apart (degrees)."""
    d_o = scene.pieces.dims(o.size).footprint_length_mm
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    return (max(math.dist(o.fit.pose.stern_mm, c.fit.pose.stern_mm),
                math.dist(o.fit.pose.tip_mm(d_o), c.fit.pose.tip_mm(d_c))),
            abs((o.fit.pose.heading_deg - c.fit.pose.heading_deg + 180.0) % 360.0 - 180.0))


def _from_tip(o: Candidate, tip: np.ndarray, length_mm: float) -> bool:
    """Whether fit ``o`` (footprint ``length_mm`` long) was made and kept its tip within
    TIP_SAME_MM of ``tip`` (table mm)."""
    return (len(o.fit.sample_cost) > 0
            and math.dist(o.fit.pose.tip_mm(length_mm), tip) <= TIP_SAME_MM)


def _longer_from_tip(scene: Scene, c: Candidate) -> Iterator[Candidate]:
    """``c``'s longer size swaps, shortest first, fitted from its tip and heading, that kept
    their tip (:func:`_from_tip`; the fits :func:`finish` made, answered from memory)."""
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    tip = np.asarray(c.fit.pose.tip_mm(d_c))
    for z in scene.by_length:
        d_z = scene.pieces.dims(z).footprint_length_mm
        if d_z <= d_c:
            continue
        o = scene.fit(z, Pose.with_tip(tip, c.fit.pose.heading_deg, d_z), give_up=SURE_GIVE_UP)
        if _from_tip(o, tip, d_z):
            yield o
