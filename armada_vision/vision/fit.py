"""Fit the 3-D shape of a pyramid to the image, in a top-down view of the table.

The top-down view is the image warped onto the table plane (z = 0), so a point of the body at
height z appears where the camera ray through it meets the table: its central projection from
the camera centre. The outline the camera sees of a convex body is then the convex hull of its
vertices' projections, exact for any camera pose. The fit moves (x, y, heading) until that
outline lies on the sub-pixel edges of a foreground map (Gauss–Newton on point-to-edge
distances along the outline's normals, robust weights, edges searched again each round), and
its covariance gives σ.

Frames: table mm (+y away from the viewer); the view's pixels are a fixed scale of table mm.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import shapely

try:  # numpy 2's C count_nonzero, without np.count_nonzero's Python wrapper (speed71)
    from numpy._core.multiarray import count_nonzero as _count_true
except ImportError:  # another numpy layout: the public function, the same counts
    _count_true = np.count_nonzero

from armada_vision.geometry.pieces import PieceDims
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import body_local_3d

# A body shorter than this (its longest extent on the table, mm: a small piece lying, 26 mm;
# a medium 36 mm; any piece standing) is judged in view px whatever the grid's edge_px: its
# short sides are a fingertip's, a finger gap's or a shadow corner's size, and in a compressed
# frame's coarser units those fitted it (seeds 1144–1359 at JPEG 75, all bodies coarse: 14 of
# the 19 new false pieces were smalls; of the 19 pieces newly found on 1144–1203, 4).
COARSE_MIN_LENGTH_MM = 30.0


def _edge_unit(grid: ViewGrid, local_3d: np.ndarray) -> float:
    """The view px a fit of body ``local_3d`` (mm) on ``grid`` judges its residuals in."""
    if grid.edge_px == 1.0:
        return 1.0
    ext = local_3d[:, :2].max(axis=0) - local_3d[:, :2].min(axis=0)
    return grid.edge_px if float(ext.max()) >= COARSE_MIN_LENGTH_MM else 1.0


@dataclass(frozen=True, slots=True, eq=False)
class ViewGrid:
    """Pixel grid of a top-down view: pixel centre (u, v) is table point
    (x0_mm + u / px_per_mm, y1_mm − v / px_per_mm); the view's v grows towards table −y.
    ``edge_px``: the view px a fit's edge residual is judged in (its cost, not its pose or
    σ): 1 for a lossless frame, more where the frame's colour edges are coarser (a JPEG's
    colour at half resolution, vision.jpeg); only for bodies as long as a medium piece
    (COARSE_MIN_LENGTH_MM)."""

    x0_mm: float
    y1_mm: float
    px_per_mm: float
    shape: tuple[int, int]  # (rows, cols)
    edge_px: float = 1.0

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) → view px (N, 2)."""
        p = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        # (y − y1)·(−s) is exactly (y1 − y)·s: one broadcast instead of two columns.
        return (p - (self.x0_mm, self.y1_mm)) * (self.px_per_mm, -self.px_per_mm)

    def mask_at(self, mask: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
        """Bool (N,): ``mask`` (bool, on this grid) at the pixels nearest table points
        ``points_mm`` (N, 2); False outside the mask.

        >>> g = ViewGrid(0.0, 10.0, 1.0, (10, 10))
        >>> m = np.zeros((10, 10), bool); m[7, 2] = True
        >>> g.mask_at(m, np.array([[2.0, 3.0], [2.0, 4.0], [-5.0, 3.0]])).tolist()
        [True, False, False]
        """
        p = np.round(self.to_px(points_mm)).astype(int)
        rows, cols = mask.shape[:2]
        ok = (p[:, 0] >= 0) & (p[:, 1] >= 0) & (p[:, 0] < cols) & (p[:, 1] < rows)
        out = np.zeros(len(p), bool)
        out[ok] = mask[p[ok, 1], p[ok, 0]]
        return out

    def to_mm(self, points_px: np.ndarray) -> np.ndarray:
        """View px (N, 2) → table mm (N, 2)."""
        p = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
        return p / (self.px_per_mm, -self.px_per_mm) + (self.x0_mm, self.y1_mm)

    def sub(self, c0: int, r0: int, shape: tuple[int, int]) -> ViewGrid:
        """The sub-grid whose pixel (0, 0) is this grid's (c0, r0) (column, row), ``shape``
        (rows, cols): a crop of the view with the same scale."""
        return ViewGrid(self.x0_mm + c0 / self.px_per_mm, self.y1_mm - r0 / self.px_per_mm,
                        self.px_per_mm, shape, self.edge_px)

    def window(self, sub: ViewGrid) -> tuple[slice, slice]:
        """Row and column slices of this grid's pixels that sub-grid ``sub`` (same scale, made
        by :meth:`sub`) covers.

        >>> g = ViewGrid(0.0, 100.0, 2.0, (200, 300))
        >>> g.window(g.sub(10, 4, (5, 6)))
        (slice(4, 9, None), slice(10, 16, None))
        """
        r0 = round((self.y1_mm - sub.y1_mm) * self.px_per_mm)
        c0 = round((sub.x0_mm - self.x0_mm) * self.px_per_mm)
        return slice(r0, r0 + sub.shape[0]), slice(c0, c0 + sub.shape[1])

    def inner_crop(self, poly_mm: shapely.Polygon, shrink: float
                   ) -> tuple[tuple[slice, slice], np.ndarray]:
        """The view pixels well inside a polygon (table mm), shrunk about its centroid to
        ``shrink`` of its size: a crop of the view (row and column slices) and its bool mask."""
        c = np.array(poly_mm.centroid.coords[0])
        pts = np.asarray(poly_mm.exterior.coords)[:-1]
        return self.polygon_crop([self.to_px(c + (pts - c) * shrink)])

    def polygon_crop(self, polys_px: list[np.ndarray]) -> tuple[tuple[slice, slice], np.ndarray]:
        """The view pixels inside polygons given in view px (each (N, 2), x right, y down): the
        crop of the view round them (row and column slices, clipped to the view) and its
        bool mask."""
        rows, cols = self.shape
        # The bounds in plain numbers (~30 calls a detect: np.min of a list and np.clip cost
        # more than the crop); the same whole numbers as flooring and clipping the arrays.
        (x_lo, y_lo), (x_hi, y_hi) = (
            np.min([p.min(axis=0) for p in polys_px], axis=0).tolist(),
            np.max([p.max(axis=0) for p in polys_px], axis=0).tolist())
        if not math.isfinite(x_lo + y_lo + x_hi + y_hi):
            return self._polygon_crop_arrays(polys_px)
        c0, r0 = min(max(math.floor(x_lo), 0), cols), min(max(math.floor(y_lo), 0), rows)
        c1, r1 = min(max(math.ceil(x_hi) + 1, 0), cols), min(max(math.ceil(y_hi) + 1, 0), rows)
        mask = np.zeros((max(r1 - r0, 0), max(c1 - c0, 0)), np.uint8)
        if mask.size:
            cv2.fillPoly(mask, [np.round(p - (c0, r0)).astype(np.int32) for p in polys_px], 1)
        # (0/1 as bools: a view, no copy.)
        return (slice(r0, r1), slice(c0, c1)), mask.view(bool)

    def _polygon_crop_arrays(self, polys_px: list[np.ndarray]
                             ) -> tuple[tuple[slice, slice], np.ndarray]:
        """:meth:`polygon_crop` worked out on arrays (its form before speed29): what it does
        with points that are not finite, and what tests compare it with."""
        rows, cols = self.shape
        lo = np.min([p.min(axis=0) for p in polys_px], axis=0)
        hi = np.max([p.max(axis=0) for p in polys_px], axis=0)
        c0, r0 = np.clip(np.floor(lo).astype(int), 0, (cols, rows))
        c1, r1 = np.clip(np.ceil(hi).astype(int) + 1, 0, (cols, rows))
        mask = np.zeros((max(r1 - r0, 0), max(c1 - c0, 0)), np.uint8)
        if mask.size:
            cv2.fillPoly(mask, [np.round(p - (c0, r0)).astype(np.int32) for p in polys_px], 1)
        return (slice(r0, r1), slice(c0, c1)), mask.astype(bool)


def upright_local_3d(d: PieceDims) -> np.ndarray:
    """A pyramid standing on its base: 4 base corners and the apex (x, y, z mm), centred."""
    hw = d.half_w_mm
    return np.array([[-hw, -hw, 0], [hw, -hw, 0], [hw, hw, 0], [-hw, hw, 0],
                     [0, 0, d.height_mm]], dtype=float)


def lying_local_3d(d: PieceDims) -> np.ndarray:
    """The five vertices of a lying pyramid in the ship frame (x, y, z mm)."""
    return body_local_3d(d)[0]


def seen_on_table(local_3d: np.ndarray, params: np.ndarray, camera_mm: np.ndarray) -> np.ndarray:
    """Where the camera sees each body vertex on the table plane: vertices (ship frame, mm)
    placed at ``params`` = (x_mm, y_mm, heading_rad), centrally projected from ``camera_mm``
    (table mm, z = height) onto z = 0. Returns (N, 2) table mm."""
    # A body has five vertices: in plain floats, the very operations (and order) of the numpy
    # form x = px + c·lx − s·ly, k = Cz / (Cz − z), C + (x − C)·k, without its ~15 numpy
    # calls (~100 outlines a detect; tests/test_fit_fast.py compares the two).
    px, py, th = np.asarray(params, np.float64).tolist()[:3]
    c, s = math.cos(th), math.sin(th)
    cx, cy, cz = np.asarray(camera_mm, np.float64).tolist()[:3]
    out = []
    for lx, ly, lz in np.asarray(local_3d, np.float64).tolist():
        k = cz / (cz - lz)
        out.append((cx + (px + c * lx - s * ly - cx) * k, cy + (py + s * lx + c * ly - cy) * k))
    return np.array(out).reshape(-1, 2)


def outline_mm(local_3d: np.ndarray, params: np.ndarray, camera_mm: np.ndarray) -> np.ndarray:
    """Outline (convex hull, counter-clockwise) of the body as seen on the table, mm."""
    pts = seen_on_table(local_3d, params, camera_mm)
    hull = cv2.convexHull(pts.astype(np.float32), clockwise=False, returnPoints=False).ravel()
    return pts[hull]


@dataclass(frozen=True, slots=True, eq=False)
class FitResult:
    """A fitted pose with its uncertainty and how well the outline matched.

    ``sigma_mm``: stern position σ (largest axis); ``sigma_deg``: heading σ; ``rms_px``: robust
    rms of the edge distances (view px); ``coverage``: share of the outline with an edge found;
    ``cost``: mean robust cost per outline sample, misses counted fully (lower is better),
    samples whose outside is foreground left out. ``sample_cost`` (NaN where the outside is
    foreground, "hidden") and ``probe_mm`` (a point just outside each sample, table mm) let a
    caller count a hidden sample as a miss unless another accepted piece explains it.
    ``cost_1px``: the cost with the residuals in view px, where the fit judged them in
    coarser units (ViewGrid.edge_px); NaN when it did not. A pose's doubt is judged on it: a
    fit let in by a coarse frame's units must not look as certain as a lossless one.
    """

    pose: Pose
    sigma_mm: float
    sigma_deg: float
    rms_px: float
    coverage: float
    cost: float
    n_samples: int
    sample_cost: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    probe_mm: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)), repr=False)
    cost_1px: float = math.nan

    def cost_given(self, explained: np.ndarray) -> float:
        """Cost when the hidden samples flagged in ``explained`` (bool per sample) are excused
        and the other hidden ones count as misses."""
        hidden = np.isnan(self.sample_cost)
        # np.nanmean written out (it costs ~10x the arithmetic here): excused samples add
        # nothing and are not counted.
        n = len(hidden) - int(_count_true(hidden & explained))
        if n == 0:
            return 99.0
        return float(np.where(hidden, 2.0 * ~explained, self.sample_cost).sum()) / n


def _samples(hull_vertex_idx: np.ndarray, pts_mm: np.ndarray, step_mm: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Points along the hull edges: indices (a, b) of the edge ends, the fraction t and the
    index of the hull edge each lies on."""
    hull = hull_vertex_idx.tolist()
    runs = _edge_runs(hull, pts_mm.tolist(), step_mm)
    edge = _run_edges(runs)
    return (np.array(hull, np.intp).take(edge), np.array(hull[1:] + hull[:1], np.intp).take(edge),
            _run_ts(runs), edge)


def _edge_runs(hull: list[int], xy: list[list[float]], step_mm: float
               ) -> tuple[tuple[int, int, int], ...]:
    """Per hull edge (at most five, so in plain floats) the samples it gets: (k, lo, hi),
    samples lo … hi − 1 of k along the edge (see :func:`_t_of`). They fix the samples'
    t, so they key the outlines already made without a numpy call."""
    runs = []
    for i, ia in enumerate(hull):
        (xa, ya), (xb, yb) = xy[ia], xy[hull[i + 1] if i + 1 < len(hull) else hull[0]]
        dx, dy = xb - xa, yb - ya
        ln = math.sqrt(dx * dx + dy * dy)
        k = max(int(ln / step_mm), 2)
        # Keep off the corners, where the edge normal is ill-defined: t·ln > 0.8 and
        # (1 − t)·ln > 0.8 hold on one run of the k samples (t grows), found from its ends.
        # (j + 0.5) / k is the very float _t_of(k)[j] holds.
        lo, hi = 0, k
        while lo < hi and not ((t := (lo + 0.5) / k) * ln > 0.8 and (1 - t) * ln > 0.8):
            lo += 1
        while hi > lo and not ((t := (hi - 0.5) / k) * ln > 0.8 and (1 - t) * ln > 0.8):
            hi -= 1
        runs.append((k, lo, hi))
    return tuple(runs)


def _run_ts(runs: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    """The samples' t along their edges, edge after edge, for :func:`_edge_runs`' runs."""
    return np.concatenate([_t_of(k)[lo:hi] for k, lo, hi in runs])


def _run_edges(runs: tuple[tuple[int, int, int], ...]) -> np.ndarray:
    """The hull edge each sample of :func:`_edge_runs`' runs lies on."""
    return np.repeat(_arange(len(runs)), [hi - lo for _k, lo, hi in runs])


_T_OF: dict[int, np.ndarray] = {}


def _t_of(k: int) -> np.ndarray:
    """The j-th of an edge's k samples at t = (j + ½) / k."""
    t = _T_OF.get(k)
    if t is None:
        t = _T_OF[k] = (np.arange(k) + 0.5) / k
    return t


def sample_map(img: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Sample a float image at sub-pixel (u, v) (bilinear); outside the image counts as 0."""
    rows, cols = img.shape
    u = np.asarray(u, np.float64)
    v = np.asarray(v, np.float64)
    # (The ufuncs' reduce and np.array: the values of .min(), .max() and np.stack without
    # their Python wrappers; ~80 calls a detect.)
    if (u.size and img.flags.c_contiguous and np.minimum.reduce(u, axis=None) >= 0
            and np.minimum.reduce(v, axis=None) >= 0
            and np.maximum.reduce(u, axis=None) < cols - 1
            and np.maximum.reduce(v, axis=None) < rows - 1):
        return _sample_inside(img.reshape(-1), cols,
                              np.array((u, v)) if u.shape == v.shape else np.stack((u, v)))
    u0 = np.floor(u).astype(np.intp)
    v0 = np.floor(v).astype(np.intp)
    fu, fv = u - u0, v - v0
    inside = (u0 >= 0) & (v0 >= 0) & (u0 < cols - 1) & (v0 < rows - 1)
    u0 = np.clip(u0, 0, cols - 2)
    v0 = np.clip(v0, 0, rows - 2)
    if img.flags.c_contiguous:
        # The same pixels by their raveled index: take, not numpy's fancy indexing (which
        # copies pixel by pixel through its mapping iterator, ~3 M instructions a detect).
        flat = img.reshape(-1)
        i = v0 * cols
        i += u0
        a = flat.take(i)
        b = flat.take(i + 1)
        i += cols
        c = flat.take(i)
        d = flat.take(i + 1)
    else:
        a = img[v0, u0]
        b = img[v0, u0 + 1]
        c = img[v0 + 1, u0]
        d = img[v0 + 1, u0 + 1]
    # The same arithmetic as _sample_inside, so a point gets the same value either way.
    top = a + (b - a) * fu
    out = top + ((c + (d - c) * fu) - top) * fv
    return np.where(inside, out, 0.0)


def _sample_inside(flat: np.ndarray, cols: int, uv: np.ndarray) -> np.ndarray:
    """:func:`sample_map` at points ``uv`` (2, ...) (u first, then v; view px) known to lie
    inside the image, on its raveled (C-order) pixels: the same bilinear weights in fewer
    array passes (the four neighbours in one gather, both rows interpolated at once)."""
    f = np.floor(uv)
    fr = uv - f
    # Exact: whole numbers far below 2**53.
    i = f[1] * cols
    i += f[0]
    # (4, ...): a, c (this column, rows v and v + 1), then b, d (the next column). Every
    # index is inside, so 'wrap' changes none; it skips take's per-index range error check.
    q = flat.take(i.astype(np.intp) + _corners(cols, i.ndim), mode="wrap")
    # Along u for rows v and v + 1 at once: the differences in the image's own type, as
    # a + (b − a)·fu always took them, then in float64 from contiguous casts (a mixed-type
    # operation casts through numpy's buffered iterator, which costs more per call here).
    rows = (q[2:] - q[:2]).astype(np.float64)
    rows *= fr[0]
    rows += q[:2].astype(np.float64)
    # Then between the two rows along v.
    top = rows[0]
    out = rows[1] - top
    out *= fr[1]
    out += top
    return out


_CORNERS: dict[tuple[int, int], np.ndarray] = {}


def _corners(cols: int, ndim: int) -> np.ndarray:
    """Raveled offsets of a pixel's bilinear neighbours (itself, below, right, below right),
    shaped (4, 1, ...) to broadcast over an index array of ``ndim`` dimensions."""
    c = _CORNERS.get((cols, ndim))
    if c is None:
        c = _CORNERS[cols, ndim] = np.array((0, cols, 1, cols + 1), np.intp).reshape(
            (4,) + (1,) * ndim)
    return c


@dataclass(frozen=True, slots=True, eq=False)
class _Profile:
    """Where the edge search samples along a normal: offsets ``ts`` (mm, step ``step``; also
    shaped (1, S, 1) as ``ts3``) and the middle index. The crossing slot nearest the middle
    (slot j lies between samples j and j + 1; ties to the lower j, as an argmin over the
    distances would break them) is found as the largest ``rank`` (S − 1, 1) among the
    crossing slots: ``slot`` maps a rank back to its j (rank 0, no crossing, to the slot
    nearest the middle)."""

    ts: np.ndarray
    ts3: np.ndarray
    step: float
    mid: int
    rank: np.ndarray
    slot: np.ndarray

    @staticmethod
    def make(search_mm: float, step: float) -> _Profile:
        ts = np.arange(-search_mm, search_mm + 1e-9, step)
        mid = len(ts) // 2
        dist = np.abs(np.arange(len(ts) - 1) - mid + 0.5)
        order = np.argsort(dist, kind="stable")  # nearest the middle first
        n = len(order)
        rank = np.empty(n, np.uint8 if n < 256 else np.uint16)
        rank[order] = np.arange(n, 0, -1)
        slot = np.empty(n + 1, np.intp)
        slot[rank] = np.arange(n)
        slot[0] = order[0]
        return _Profile(ts, ts[None, :, None].copy(), step, mid, rank[:, None], slot)


_PROFILES: dict[tuple[float, float], _Profile] = {}
# _ts_rows' grids by _PROFILES' key: the offsets repeated along rows of at least _TS_COLS
# samples (a round's fits side by side reach ~1000; ~25 offsets × 8 bytes a sample).
_TS_ROWS: dict[tuple[float, float], np.ndarray] = {}
_TS_COLS = 1024


def _ts_rows(search_mm: float, step: float, n: int) -> np.ndarray:
    """:func:`_profile`'s offsets ``ts`` as an (S, n) grid, row j all ts[j] (a read-only view
    of a grid made once per profile and width)."""
    key = (search_mm, step)
    grid = _TS_ROWS.get(key)
    if grid is None or grid.shape[1] < n:
        ts = _profile(search_mm, step).ts
        grid = _TS_ROWS[key] = np.repeat(ts[:, None], max(n, _TS_COLS), axis=1)
        grid.flags.writeable = False
    return grid[:, :n]


def _profile(search_mm: float, step: float) -> _Profile:
    key = (search_mm, step)
    prof = _PROFILES.get(key)
    if prof is None:
        prof = _PROFILES[key] = _Profile.make(search_mm, step)
    return prof


def _edge_offsets(fg: np.ndarray, grid: ViewGrid, p_mm: np.ndarray, n_mm: np.ndarray,
                  search_mm: float, bbox_mm: tuple[float, float, float, float] | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along each outward normal, the signed distance (mm) to the nearest inside→outside
    crossing of the foreground map's mid level, whether one was found with contrast, and
    whether the outside is itself foreground (a touching neighbour hides the edge).
    ``p_mm``, ``n_mm``: points and unit normals, table mm, shaped (2, N) (x row, y row);
    ``bbox_mm``: (x_lo, y_lo, x_hi, y_hi) around the points when the caller knows one."""
    ppm = grid.px_per_mm
    to_px = np.array(((ppm,), (-ppm,)))
    p_px = (p_mm - np.array(((grid.x0_mm,), (grid.y1_mm,)))) * to_px
    if bbox_mm is None:
        (x_lo, y_lo), (x_hi, y_hi) = p_mm.min(axis=1).tolist(), p_mm.max(axis=1).tolist()
    else:
        x_lo, y_lo, x_hi, y_hi = bbox_mm
    bbox_px = ((x_lo - grid.x0_mm) * ppm, (grid.y1_mm - y_hi) * ppm,
               (x_hi - grid.x0_mm) * ppm, (grid.y1_mm - y_lo) * ppm)
    return _edge_offsets_px(fg, ppm, p_px, n_mm * to_px, search_mm, bbox_px)


def _edge_offsets_px(fg: np.ndarray, ppm: float, p_px: np.ndarray, d_px: np.ndarray,
                     search_mm: float, bbox_px: tuple[float, float, float, float]
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_edge_offsets` on view px: points ``p_px`` (2, N), ``d_px`` (2, N) the view px
    one mm along each normal moves (``ppm`` px per mm), ``bbox_px`` (u_lo, v_lo, u_hi, v_hi)
    around the points. Offsets are mm.

    The fit calls this ~6 times per pose and ~180 poses per 1080p image, so it is written
    for few numpy calls, each over long contiguous rows; ``tests/test_fit_fast.py`` checks
    it against a plain version."""
    pr = _profile(search_mm, 0.5 / ppm)
    mid = pr.mid
    rows, cols = fg.shape
    # (2, S, N): u/v, profile step, sample. The offsets as an (S, N) grid: numpy's products
    # with it cost ~10 k instructions a call less than with the broadcast (1, S, 1) column
    # (~2 % of the call; the same products, the sum p + d·t as before).
    uv = d_px[:, None, :] * _ts_rows(search_mm, 0.5 / ppm, p_px.shape[1])
    uv += p_px[:, None, :]
    # Every profile point lies within search_mm of its sample (a hair more, for rounding).
    r_px = (search_mm + 1e-6) * ppm
    u_lo, v_lo, u_hi, v_hi = bbox_px
    if (u_lo - r_px >= 0 and u_hi + r_px < cols - 1 and v_lo - r_px >= 0
            and v_hi + r_px < rows - 1 and fg.flags.c_contiguous):
        # OpenCV's bilinear remap: one call for what takes ~20 numpy calls (about a quarter
        # of the fit's instructions). OpenCV 5 takes the points and weights in float32
        # (values ~1e-5 off float64's; OpenCV 4 used 1/32 px fixed point): on 1022 fits of
        # bench scenes 1000–1007 the poses moved ≤ 0.001 mm against float64 sampling.
        uv32 = uv.astype(np.float32)
        prof = cv2.remap(fg, uv32[0], uv32[1], cv2.INTER_LINEAR).astype(np.float64)
    else:
        prof = sample_map(fg, uv[0], uv[1])
    # prof is (S, N): numpy reduces across rows of a C-order array far faster than along
    # short rows.
    inner = np.maximum.reduce(prof[: mid + 1], axis=0)
    outer = np.minimum.reduce(prof[mid:], axis=0)
    level = inner + outer
    level *= 0.5
    ok = (inner - outer) > 0.3
    above = prof >= level
    cross = above[:-1] > above[1:]  # inside → outside between j and j + 1
    # The crossing nearest the middle: the highest ranked crossing slot.
    # (The bools as uint8, 0 or 1: bool × uint8 would cast through a buffer.)
    top = np.maximum.reduce(cross.view(np.uint8) * pr.rank, axis=0)
    ok &= top.astype(bool)
    best = pr.slot.take(top)
    n = prof.shape[1]
    i0 = best * n
    i0 += _arange(n)
    flat = prof.reshape(-1)
    f0 = flat.take(i0)
    i0 += n
    den = f0 - flat.take(i0)
    np.maximum(den, 1e-6, out=den)
    frac = f0 - level
    frac /= den
    np.maximum(frac, 0.0, out=frac)
    np.minimum(frac, 1.0, out=frac)
    frac *= pr.step
    off = pr.ts.take(best)
    off += frac
    # (a > b on bools: a and not b.)
    blocked = np.add.reduce(prof[mid:], axis=0) > 0.5 * (len(pr.ts) - mid)
    np.greater(blocked, ok, out=blocked)
    return off, ok, blocked


_ARANGE = np.arange(4096)


def _arange(n: int) -> np.ndarray:
    """0 … n − 1 (a view of a shared array while n is small)."""
    return _ARANGE[:n] if n <= len(_ARANGE) else np.arange(n)


@dataclass(frozen=True, slots=True, eq=False)
class _Body:
    """A body's vertices (ship frame) ready for the fit. A vertex P at height z is seen on the
    table at C + (P − C)·k with k = C_z / (C_z − z): at ``base`` + k·(x, y) + R(heading)·``kl``
    for the body at (x, y, heading), so it moves k times as far as the vertex itself."""

    k: np.ndarray  # (V,)
    kc: np.ndarray  # (V, 1): k as a column
    kl: np.ndarray  # (V, 2): k × the vertex's ship-frame (x, y)
    k2: np.ndarray  # (V, 2): k in both columns (k·(x, y) broadcast along rows)
    base: np.ndarray  # (V, 2): C_xy·(1 − k)
    key: bytes  # the vertices and the camera

    @staticmethod
    def make(local_3d: np.ndarray, camera_mm: np.ndarray) -> _Body:
        # An image's fits share a few bodies (three sizes, lying or upright, one camera).
        raw = local_3d.tobytes() + np.asarray(camera_mm).tobytes()
        got = _BODIES.get(raw)
        if got is None:
            k = camera_mm[2] / (camera_mm[2] - local_3d[:, 2])
            got = _Body(k, k[:, None].copy(), local_3d[:, :2] * k[:, None],
                        np.repeat(k[:, None], 2, axis=1),
                        np.asarray(camera_mm[:2], np.float64) * (1.0 - k)[:, None],
                        k.tobytes() + raw)
            if len(_BODIES) >= 64:
                _BODIES.clear()
            _BODIES[raw] = got
        return got

    def seen(self, x: float, y: float, c: float, s: float) -> np.ndarray:
        """Where the vertices are seen on the table (V, 2) mm, as :func:`seen_on_table`."""
        # k·(x, y) by broadcasting: the products np.multiply.outer makes, without the ~10k
        # instructions of buffer set-up it spends on five vertices (callgrind); k repeated in
        # two columns (k2) broadcasts the pair along rows, cheaper than the (V, 1) column
        # against it (the same products; speed69). A round's small
        # products are ndarray.dot, not @: the very BLAS call (gemm, gemv) and bits, without
        # the matmul gufunc's set-up (~3.6 k instructions a product less; speed69, checked on
        # ~105 k products of 24 scenes and tests/test_fit_fast.py).
        return self.base + self.k2 * (x, y) + self.kl.dot(_two_by_two(c, s, -s, c))


_BODIES: dict[bytes, _Body] = {}

# A round's two 2×2 rotations (the body's R, the step's R'), ~1 300 a detect: packed as four
# doubles and read back as an array, ~2.4 k instructions less than np.array of nested tuples
# (its shape discovery; callgrind), the same float64 values (speed71).
_PACK4 = struct.Struct("=4d").pack


def _two_by_two(a: float, b: float, c: float, d: float) -> np.ndarray:
    """((a, b), (c, d)) as a float64 array (read-only)."""
    return np.frombuffer(_PACK4(a, b, c, d)).reshape(2, 2)


@dataclass(frozen=True, slots=True, eq=False)
class _Outline:
    """Outline samples of one hull (which vertices bound the seen outline), as matrices over
    the body's vertices, transposed to (V, N) so products give (2, N) rows: ``interp_t``
    places each sample between its edge's ends (samples = vertices.T @ interp_t),
    ``edge_vec_t`` gives the hull's edge vectors the same way, ``edge`` is each sample's hull
    edge, ``ka`` how far a sample moves per mm the body moves and ``q_t`` (2, N) its
    ship-frame arm (k-weighted), so that d(sample)/d(heading) = R'(heading)·q. ``both_t``:
    interp_t and edge_vec_t side by side (V, N + edges; those two are views of it), so that
    :meth:`_Fit.place` takes both products in one."""

    key: bytes
    edge_vec_t: np.ndarray
    interp_t: np.ndarray
    edge: np.ndarray
    ka: np.ndarray
    q_t: np.ndarray
    both_t: np.ndarray

    @staticmethod
    def make(hull: np.ndarray, pts: np.ndarray, step_mm: float, body: _Body) -> _Outline:
        return _outline(hull, pts, step_mm, body)


# Outlines already made, by (body, hull, samples per edge): an outline depends on the pose
# only through which vertices bound it and how many samples fit along each edge, and the
# fits of one image ask for the same few hundred (~40 % of the ~1200 made per 1080p still
# were repeats). Cleared when full: repeats come close together (on 23 stills and 12 scenes
# a bound of 512, ~4 MB, kept 40.3 % of the calls as hits against 41.2 % unbounded).
_OUTLINES: dict[tuple, _Outline] = {}
_OUTLINES_MAX = 512


def _outline(hull: np.ndarray, pts: np.ndarray, step_mm: float, body: _Body) -> _Outline:
    """The :class:`_Outline` of ``hull`` for vertices ``pts`` (V, 2) mm of ``body``."""
    hl = hull.tolist()
    runs = _edge_runs(hl, pts.tolist(), step_mm)
    key = (body.key, step_mm, tuple(hl), runs)
    got = _OUTLINES.get(key)
    if got is not None:
        return got
    t = _run_ts(runs)
    a = np.array(hl, np.intp)
    b = np.array(hl[1:] + hl[:1], np.intp)
    edge = _run_edges(runs)
    r = _arange(len(t))
    m = len(hl)
    both = np.zeros((len(pts), len(t) + m))
    interp, edge_vec = both[:, : len(t)], both[:, len(t):]
    interp[a.take(edge), r] = 1.0 - t
    interp[b.take(edge), r] += t
    edge_vec[b, _arange(m)] = 1.0
    edge_vec[a, _arange(m)] -= 1.0
    got = _Outline(hull.tobytes(), edge_vec, interp, edge, body.k @ interp, body.kl.T @ interp,
                   both)
    if len(_OUTLINES) >= _OUTLINES_MAX:
        _OUTLINES.clear()
    _OUTLINES[key] = got
    return got


def _solve3(A: np.ndarray, g: np.ndarray, damping: tuple[float, float, float] = (0, 0, 0)
            ) -> tuple[float, float, float]:
    """x with (A + diag(damping)) x = g for a symmetric positive definite 3×3 A (Cholesky in
    plain floats: np.linalg.solve's checks cost more than the arithmetic)."""
    (a00, a01, a02), (_, a11, a12), (_, _, a22) = A.tolist()
    a00 += damping[0]
    a11 += damping[1]
    a22 += damping[2]
    g0, g1, g2 = g.tolist()
    l00 = math.sqrt(a00)
    l10, l20 = a01 / l00, a02 / l00
    l11 = math.sqrt(a11 - l10 * l10)
    l21 = (a12 - l20 * l10) / l11
    l22 = math.sqrt(a22 - l20 * l20 - l21 * l21)
    y0 = g0 / l00
    y1 = (g1 - l10 * y0) / l11
    y2 = (g2 - l20 * y0 - l21 * y1) / l22
    x2 = y2 / l22
    x1 = (y1 - l21 * x2) / l11
    x0 = (y0 - l10 * x1 - l20 * x2) / l00
    return x0, x1, x2


def _weights(off: np.ndarray, ok: np.ndarray, search: float, scale: float
             ) -> tuple[np.ndarray, np.ndarray]:
    """Each sample's weight in a Gauss–Newton step (Huber-like, ``scale`` mm) from its edge
    offset ``off`` (mm), and which samples are kept: found (``ok``) and within the cut.
    Element by element, so the samples of several fits side by side get the very values of
    a call each (:func:`fit_poses` weighs a round's fits in one call)."""
    ares = np.abs(off)
    w = np.maximum(ares, 1e-9)
    np.divide(scale, w, out=w)
    np.minimum(w, 1.0, out=w)
    # Tukey-like cut: far residuals are other objects' edges (and no edge: no weight).
    keep = ares <= 4 * scale + 0.5 * search
    keep &= ok
    w *= keep
    # keep is where w > 0 (w is positive before the cut): the samples cost_now and result
    # judge as found, without working it out again from w.
    return w, keep


def _normals(fits: list[_Fit]) -> None:
    """Each placed fit's outline normals ``n`` (2, N) from its hull's edge vectors ``e``:
    the unit edge vectors turned outward, sample by sample. Several fits' edges are worked
    out side by side (element by element: the very floats of one call each)."""
    e = fits[0].e if len(fits) == 1 else np.concatenate([f.e for f in fits], axis=1)
    e /= np.hypot(e[0], e[1])
    # Counter-clockwise in table mm (y up): the outside is to the right of each edge.
    turned = e[::-1] * _FLIP
    if len(fits) == 1:
        fits[0].n = turned.take(fits[0].out.edge, axis=1)
        return
    a = 0
    for f in fits:
        b = a + f.e.shape[1]
        f.n = turned[:, a:b].take(f.out.edge, axis=1)
        a = b


def _view_px(m_mm: np.ndarray, origin: np.ndarray, to_px: np.ndarray) -> np.ndarray:
    """Table mm (2, N) → view px (2, N): (m − origin)·to_px."""
    p_px = m_mm - origin
    p_px *= to_px
    return p_px


_DAMPING = (1e-6, 1e-6, 1e-2)
# Table mm → view px is (mm − origin) · (ppm, −ppm); a normal (x, y) → (y, −x) by rows.
_FLIP = np.array(((1.0,), (-1.0,)))


def _empty(shape: tuple[int, ...], dtype: type = np.float64) -> np.ndarray:
    """A read-only empty array."""
    a = np.zeros(shape, dtype)
    a.flags.writeable = False
    return a


# A fit's samples before its first step (~700 fits a detect made four empty arrays each).
_NO_XY, _NO_FLOAT, _NO_JT = _empty((2, 0)), _empty((0,)), _empty((3, 0))
_NO_BOOL = _empty((0,), bool)


class _Fit:
    """One Gauss–Newton fit in progress (:func:`fit_pose`): its pose, the outline of the
    current round and what the last round found."""

    __slots__ = ("bbox", "blocked", "body", "c", "e", "jt", "keep", "m0", "n", "off", "ok",
                 "origin", "out", "s", "th", "to_px", "w", "x", "y")

    def __init__(self, local_3d: np.ndarray, init: Pose, camera_mm: np.ndarray) -> None:
        self.body = _Body.make(local_3d, camera_mm)
        self.x, self.y, self.th = init.x_mm, init.y_mm, math.radians(init.heading_deg)
        self.out: _Outline | None = None
        # Until the first step: no samples (shared empty arrays, never written).
        self.m0 = self.n = _NO_XY
        self.off = self.w = _NO_FLOAT
        self.ok = self.blocked = self.keep = _NO_BOOL
        self.jt = _NO_JT

    def place(self, grid: ViewGrid, to_px: np.ndarray, origin: np.ndarray,
              step_mm: float, normals: bool = True) -> bool:
        """The outline samples at the current pose, their normals and where their profiles
        lie in the view; False when the outline has collapsed (the fit ends). ``normals``
        False: the hull's edge vectors only (``e``), their normals left to the caller
        (:func:`_normals`, for a round's fits side by side)."""
        self.c, self.s = c, s = math.cos(self.th), math.sin(self.th)
        pts = self.body.seen(self.x, self.y, c, s)
        # (clockwise=False, returnPoints=False given by position: OpenCV's keyword parsing
        # costs more than the hull of five points.)
        hull = cv2.convexHull(pts.astype(np.float32), None, False, False).ravel()
        if len(hull) < 3:
            return False
        out = self.out
        if out is None or hull.tobytes() != out.key:
            out = self.out = _outline(hull, pts, step_mm, self.body)
        pts_t = pts.T
        # The samples and the edge vectors from one product (a numpy product of these small
        # matrices costs ~11 k instructions, mostly the call): each column of a product is
        # its own sum over the vertices, in the same order whatever the columns beside it
        # (the same floats: 977 fits of six 10288-set scenes, tests/test_fit_fast.py).
        both = pts_t.dot(out.both_t)
        n = out.interp_t.shape[1]
        self.m0, self.e = both[:, :n], both[:, n:]
        if normals:
            _normals([self])
        # Where they lie in the view (p_px, d_px) is worked out when asked: fit_poses does it
        # for a round's fits side by side in one call.
        self.origin, self.to_px = origin, to_px
        # The samples lie on the hull: its vertices bound them.
        xs, ys = pts_t.tolist()
        ppm = grid.px_per_mm
        self.bbox = ((min(xs) - grid.x0_mm) * ppm, (grid.y1_mm - max(ys)) * ppm,
                     (max(xs) - grid.x0_mm) * ppm, (grid.y1_mm - min(ys)) * ppm)
        return True

    @property
    def p_px(self) -> np.ndarray:
        """The outline samples placed by :meth:`place`, view px (2, N)."""
        return _view_px(self.m0, self.origin, self.to_px)

    @property
    def d_px(self) -> np.ndarray:
        """The view px one mm along each sample's outward normal moves (2, N)."""
        return self.n * self.to_px

    def step(self, off: np.ndarray, ok: np.ndarray, blocked: np.ndarray, search: float,
             scale: float, it: int,
             weighed: tuple[np.ndarray, np.ndarray] | None = None) -> bool:
        """One Gauss–Newton step from the edges found; False when the fit ends (too few
        edges, or converged). ``weighed``: :func:`_weights` of these samples, when the
        caller worked them out (for several fits' samples at once)."""
        self.off, self.ok, self.blocked = off, ok, blocked
        if _count_true(ok) < 6:
            return False
        out, n, c, s = self.out, self.n, self.c, self.s
        # Residual: model point minus edge point along the normal, −off.
        jt = np.empty((3, len(off)))
        np.multiply(out.ka, n, out=jt[:2])
        # d(R q)/d(heading) = R' q with R' = ((−s, −c), (c, −s)).
        tq = _two_by_two(-s, -c, c, -s).dot(out.q_t)
        tq *= n
        np.add(tq[0], tq[1], out=jt[2])
        w, keep = _weights(off, ok, search, scale) if weighed is None else weighed
        self.w, self.jt, self.keep = w, jt, keep
        wjt = jt * w
        # The step for the residual −off is minus the one for off.
        dx, dy, dth = _solve3(wjt.dot(jt.T), wjt.dot(off), _DAMPING)
        self.x, self.y, self.th = self.x + dx, self.y + dy, self.th + dth
        return not (max(abs(dx), abs(dy)) < 0.005 and abs(dth) < 1e-4 and it >= 2)

    def cost_now(self, ppm: float, huber_px: float) -> float:
        """The cost :meth:`result` would report now, without the rest of it."""
        if _count_true(self.ok) < 6:
            return 99.0
        # (Only reached after a step that set keep: ok has ≥ 6 samples only then.)
        return _robust_cost(self.off * ppm, self.keep, self.blocked, huber_px)[0]

    def pose_and_cost(self, cost: float) -> FitResult:
        """The current pose with ``cost`` (from :meth:`cost_now`), nothing else."""
        return FitResult(Pose(self.x, self.y, math.degrees(self.th)), 99.0, 99.0, 99.0, 0.0,
                         cost, len(self.off))

    def result(self, grid: ViewGrid, huber_px: float, unit: float = 1.0) -> FitResult:
        res = -self.off
        probe = (self.m0 + 1.5 * self.n).T.copy() if len(res) else np.zeros((0, 2))
        return _result(np.array([self.x, self.y, self.th]), res, self.ok, self.w, self.jt.T,
                       grid, huber_px, self.blocked, probe, unit, good=self.keep)


def fit_pose(fg: np.ndarray, grid: ViewGrid, local_3d: np.ndarray, init: Pose,
             camera_mm: np.ndarray, *, search_mm: float = 4.0, iterations: int = 8,
             step_mm: float = 1.0, huber_px: float = 0.7,
             give_up: tuple[tuple[int, float], ...] = (), cost_only: bool = False
             ) -> FitResult:
    """Fit (x, y, heading) of a body to the edges of ``fg`` (float32 foreground map of the
    view, ~1 inside pieces and ~0 on the table). ``init`` and the result are table mm; the
    fit is over the outline the camera at ``camera_mm`` (table mm) sees. ``give_up``: (round,
    cost ceiling) pairs, rounds counted from 1 and increasing: a fit whose cost after that
    round lies above the ceiling (edges found: at most a full miss per sample) stops there,
    its result that pose and cost (what ``iterations=round`` would have given), without σ,
    rms, coverage or per-sample costs. ``cost_only``: every result so (a screen)."""
    # Detection runs ~180 fits per 1080p image: what does not change between iterations
    # (vertex heights, a hull's samples) is computed once, and the loop is kept to few numpy
    # calls on (2, N) rows (tests/test_fit_fast.py checks it against a plain version).
    ppm = grid.px_per_mm
    unit = _edge_unit(grid, local_3d)
    cost_ppm = ppm / unit  # residuals in the units the costs are judged in
    to_px = _FLIP * ppm
    origin = np.array(((grid.x0_mm,), (grid.y1_mm,)))
    scale = huber_px / ppm
    f = _Fit(local_3d, init, camera_mm)
    search = search_mm
    k = 0  # the next give_up pair
    for it in range(iterations):
        if not f.place(grid, to_px, origin, step_mm):
            break
        off, ok, blocked = _edge_offsets_px(fg, ppm, f.p_px, f.d_px, search, f.bbox)
        if not f.step(off, ok, blocked, search, scale, it):
            break
        if k < len(give_up) and give_up[k][0] == it + 1:
            cost = f.cost_now(cost_ppm, huber_px) if it + 1 < iterations else 0.0
            if give_up[k][1] < cost <= 2.0:
                # Hopeless: the pose and cost say so; σ and the samples are not worked out.
                return f.pose_and_cost(cost)
            k += 1
        search = max(search * 0.6, 1.5)
    if cost_only:
        return f.pose_and_cost(f.cost_now(cost_ppm, huber_px))
    return f.result(grid, huber_px, unit)


def sample_costs_at(fg: np.ndarray, grid: ViewGrid, local_3d: np.ndarray, pose: Pose,
                    camera_mm: np.ndarray, *, search_mm: float = 1.5, huber_px: float = 0.7
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The outline as seen of body ``local_3d`` placed at ``pose`` (table mm), not fitted:
    each sample's robust cost, as :class:`FitResult`'s ``sample_cost`` (NaN where a touching
    neighbour hides its edge; edges searched ``search_mm`` along its normal, a fit's last
    rounds' reach), and its outward unit normal (table mm, (N, 2)). Empty when the outline
    has collapsed."""
    ppm = grid.px_per_mm
    f = _Fit(local_3d, pose, camera_mm)
    if not f.place(grid, _FLIP * ppm, np.array(((grid.x0_mm,), (grid.y1_mm,))), 1.0):
        return np.zeros(0), np.zeros((0, 2))
    off, ok, blocked = _edge_offsets_px(fg, ppm, f.p_px, f.d_px, search_mm, f.bbox)
    _w, keep = _weights(off, ok, search_mm, huber_px / ppm)
    _cost, per, judged, _n = _robust_cost(off * (ppm / _edge_unit(grid, local_3d)), keep,
                                          blocked, huber_px)
    return np.where(judged, per, np.nan), f.n.T


def fit_poses(fg: np.ndarray, grid: ViewGrid, jobs: Sequence[tuple[np.ndarray, Pose]],
              camera_mm: np.ndarray, *, search_mm: float = 4.0, iterations: int = 8,
              step_mm: float = 1.0, huber_px: float = 0.7,
              give_up: tuple[tuple[int, float], ...] = (), cost_only: bool = False
              ) -> list[FitResult]:
    """:func:`fit_pose` of each (local_3d, init) of ``jobs`` (table mm), the same results as
    one call each, the fits run side by side: each round's edge searches of the fits still
    going are one :func:`_edge_offsets_px` call. Its ~35 numpy calls cost nearly as much for
    one outline's ~100 samples as for three outlines' (the fits of one start's sizes, a
    piece's size swaps): side by side, three fits' edge search costs ~17 µs a fit and round
    instead of ~31 µs."""
    if len(jobs) < 2:
        return [fit_pose(fg, grid, loc, init, camera_mm, search_mm=search_mm,
                         iterations=iterations, step_mm=step_mm, huber_px=huber_px,
                         give_up=give_up, cost_only=cost_only) for loc, init in jobs]
    ppm = grid.px_per_mm
    units = [_edge_unit(grid, loc) for loc, _init in jobs]
    to_px = _FLIP * ppm
    origin = np.array(((grid.x0_mm,), (grid.y1_mm,)))
    scale = huber_px / ppm
    fits = [_Fit(loc, init, camera_mm) for loc, init in jobs]
    out: list[FitResult | None] = [None] * len(fits)
    going = list(range(len(fits)))
    ended: list[int] = []  # stopped as fit_pose's loop breaks: their result is worked out
    search = search_mm
    k = 0  # the next give_up pair
    for it in range(iterations):
        if not going:
            break
        placed = []
        for j in going:
            (placed if fits[j].place(grid, to_px, origin, step_mm, normals=False)
             else ended).append(j)
        if placed:
            _normals([fits[j] for j in placed])
        found, group = _edge_offsets_many(fg, ppm, [fits[j] for j in placed], search, scale)
        check = k < len(give_up) and give_up[k][0] == it + 1
        stepped = []
        for i, (j, (off, ok, blocked, w, keep)) in enumerate(zip(placed, found, strict=True)):
            if fits[j].step(off, ok, blocked, search, scale, it, (w, keep)):
                stepped.append((i, j))
            else:
                ended.append(j)
        if check and it + 1 < iterations:
            costs = _costs_now(fits, [j for _i, j in stepped], [i for i, _j in stepped],
                               group, [ppm / units[j] for _i, j in stepped], huber_px)
        else:
            costs = [0.0] * len(stepped)
        going = []
        for (_i, j), cost in zip(stepped, costs, strict=True):
            if check and give_up[k][1] < cost <= 2.0:
                out[j] = fits[j].pose_and_cost(cost)
                continue
            going.append(j)
        k += check
        search = max(search * 0.6, 1.5)
    for j in ended + going:
        f = fits[j]
        out[j] = (f.pose_and_cost(f.cost_now(ppm / units[j], huber_px)) if cost_only
                  else f.result(grid, huber_px, units[j]))
    return out  # type: ignore[return-value]


# One round's edge search of fits side by side (_edge_offsets_many): the fits searched in one
# call (their indices in the round's list), each one's columns (start, end), and the
# samples' offsets, whether kept and whether blocked, all of them.
_Group = tuple[list[int], list[tuple[int, int]], np.ndarray, np.ndarray, np.ndarray]


def _edge_offsets_many(fg: np.ndarray, ppm: float, fits: list[_Fit], search_mm: float,
                       scale: float
                       ) -> tuple[list[tuple[np.ndarray, ...]], _Group | None]:
    """:func:`_edge_offsets_px` of each fit's outline samples (their placed ``p_px``,
    ``d_px``, ``bbox``) with their :func:`_weights` (Huber ``scale`` mm): (off, ok, blocked,
    w, keep) per fit. Those whose profiles lie inside the view (the remap path) in one call,
    their columns side by side (every step works per column, so each fit gets the very
    values of a call of its own), and weighed in one call; any other alone. Also the group
    searched together (:data:`_Group`), None when there is none."""
    rows, cols = fg.shape
    r_px = (search_mm + 1e-6) * ppm
    inside = []
    if fg.flags.c_contiguous:
        for i, f in enumerate(fits):
            u_lo, v_lo, u_hi, v_hi = f.bbox
            # _edge_offsets_px's test for the remap path.
            if (u_lo - r_px >= 0 and u_hi + r_px < cols - 1 and v_lo - r_px >= 0
                    and v_hi + r_px < rows - 1):
                inside.append(i)
    out: list[tuple[np.ndarray, ...] | None] = [None] * len(fits)
    group = None
    if len(inside) > 1:
        members = [fits[i] for i in inside]
        bb = [f.bbox for f in members]
        # Placed side by side: the element-by-element products of each fit's own p_px, d_px.
        lead = members[0]
        off, ok, blocked = _edge_offsets_px(
            fg, ppm, _view_px(np.concatenate([f.m0 for f in members], axis=1), lead.origin,
                              lead.to_px),
            np.concatenate([f.n for f in members], axis=1) * lead.to_px, search_mm,
            (min(b[0] for b in bb), min(b[1] for b in bb), max(b[2] for b in bb),
             max(b[3] for b in bb)))
        w, keep = _weights(off, ok, search_mm, scale)
        spans = []
        a = 0
        for i, f in zip(inside, members, strict=True):
            b = a + f.m0.shape[1]
            out[i] = off[a:b], ok[a:b], blocked[a:b], w[a:b], keep[a:b]
            spans.append((a, b))
            a = b
        group = (inside, spans, off, keep, blocked)
    for i, f in enumerate(fits):
        if out[i] is None:
            off, ok, blocked = _edge_offsets_px(fg, ppm, f.p_px, f.d_px, search_mm, f.bbox)
            out[i] = (off, ok, blocked, *_weights(off, ok, search_mm, scale))
    return out, group  # type: ignore[return-value]


def _costs_now(fits: list[_Fit], which: list[int], at: list[int], group: _Group | None,
               cost_ppms: list[float], huber_px: float) -> list[float]:
    """:meth:`_Fit.cost_now` of ``fits[j]`` for j in ``which`` (each stepped this round, at
    ``at`` in the round's list, its residuals judged at ``cost_ppms`` px per mm): those
    searched in ``group`` at one scale in one :func:`_robust_costs` call, the same floats
    (element by element, then each fit's own sum), any other alone."""
    costs: list[float | None] = [None] * len(which)
    if group is not None and len(set(cost_ppms)) == 1:
        inside, spans, off, keep, blocked = group
        span_of = dict(zip(inside, spans, strict=True))
        mine = [(x, span_of[i]) for x, i in enumerate(at) if i in span_of]
        if len(mine) > 1:
            got = _robust_costs(off * cost_ppms[0], keep, blocked, huber_px,
                                [sp for _x, sp in mine])
            for (x, _sp), c in zip(mine, got, strict=True):
                costs[x] = c
    return [fits[j].cost_now(cp, huber_px) if c is None else c
            for j, cp, c in zip(which, cost_ppms, costs, strict=True)]


def _robust_costs(r_px: np.ndarray, good: np.ndarray, blocked: np.ndarray, huber_px: float,
                  spans: list[tuple[int, int]]) -> list[float]:
    """:func:`_robust_cost`'s cost of each span (start, end) of the samples: the per-sample
    costs worked out once for all (element by element: the same floats), then each span's
    own count and sum."""
    a_px = np.abs(r_px)
    hub = np.where(a_px <= huber_px, 0.5 * (r_px * r_px), huber_px * (a_px - 0.5 * huber_px))
    judged = np.greater_equal(good, blocked)
    counted = np.where(judged, np.where(good, np.minimum(hub, 2.0), 2.0), 0.0)
    costs = []
    for a, b in spans:
        n_judged = int(_count_true(judged[a:b]))
        costs.append(99.0 if n_judged < 6 else float(counted[a:b].sum()) / n_judged)
    return costs


def _robust_cost(r_px: np.ndarray, good: np.ndarray, blocked: np.ndarray, huber_px: float
                 ) -> tuple[float, np.ndarray, np.ndarray, int]:
    """Mean robust cost per judged sample (99 when fewer than 6 are judged), each sample's
    cost, which are judged and how many, from the residuals ``r_px`` (view px)."""
    # Robust cost per sample: Huber on found edges, a full miss (2 px²) otherwise.
    a_px = np.abs(r_px)
    hub = np.where(a_px <= huber_px, 0.5 * (r_px * r_px), huber_px * (a_px - 0.5 * huber_px))
    # Where a touching neighbour hides the edge, the sample neither helps nor counts as a miss.
    # (good or not blocked, on bools in one pass.)
    judged = np.greater_equal(good, blocked)
    n_judged = int(_count_true(judged))
    per = np.where(good, np.minimum(hub, 2.0), 2.0)
    if n_judged < 6:
        return 99.0, per, judged, n_judged
    return float(np.where(judged, per, 0.0).sum()) / n_judged, per, judged, n_judged


def _result(p: np.ndarray, res: np.ndarray, ok: np.ndarray, w: np.ndarray, J: np.ndarray,
            grid: ViewGrid, huber_px: float, blocked: np.ndarray, probe: np.ndarray,
            unit: float = 1.0, good: np.ndarray | None = None) -> FitResult:
    """The fit's result at parameters ``p``; ``good``: ``ok & (w > 0)`` when the caller has
    it (a fit's ``keep``)."""
    pose = Pose(float(p[0]), float(p[1]), math.degrees(p[2]))
    n = len(res)
    n_ok = int(_count_true(ok))
    if n == 0 or n_ok < 6:
        return FitResult(pose, 99.0, 99.0, 99.0, n_ok / n if n else 0.0, 99.0, n)
    if good is None:
        good = ok & (w > 0)
    r_px = res * grid.px_per_mm
    rms = math.sqrt(float(w.dot(r_px * r_px)) / max(float(w.sum()), 1e-9))
    # ``unit``: the view px the cost judges residuals in (_edge_unit).
    cost, per, judged, n_judged = _robust_cost(r_px / unit if unit != 1.0 else r_px, good,
                                               blocked, huber_px)
    if n_judged < 6:
        return FitResult(pose, 99.0, 99.0, rms, 0.0, 99.0, n)
    per[~judged] = np.nan
    n_good = int(_count_true(good))
    dof = max(n_good - 3, 1)
    s2 = float(w.dot(res * res)) / dof
    # Neighbouring samples share pixels: count ~one independent sample per pixel of outline.
    s2 = max(s2, (0.1 / grid.px_per_mm) ** 2) * 2.0
    (a, b, c), (_, d, e), (_, _, f) = J.T.dot(w[:, None] * J).tolist()
    a, d, f = a + 1e-9, d + 1e-9, f + 1e-9
    # The inverse's entries needed, from the cofactors (np.linalg.inv costs ~40 µs here).
    c00, c01, c02 = d * f - e * e, c * e - b * f, b * e - c * d
    det = a * c00 + b * c01 + c * c02
    if det == 0.0 or not math.isfinite(det):
        return FitResult(pose, 99.0, 99.0, rms, n_ok / n, cost, n)
    k2 = s2 / det
    cxx, cxy, cyy, ctt = k2 * c00, k2 * c01, k2 * (a * f - c * c), k2 * (a * d - b * b)
    # Largest eigenvalue of the symmetric 2×2 position block, in closed form.
    lam = 0.5 * (cxx + cyy) + math.hypot(0.5 * (cxx - cyy), cxy)
    sig_xy = math.sqrt(max(lam, 0.0))
    sig_deg = math.degrees(math.sqrt(max(ctt, 0.0)))
    # σ grows when much of the outline is hidden: fewer edges constrain the pose.
    hidden = 1.0 - n_judged / n
    k = 1.0 / max(1.0 - hidden, 0.3)
    # (good ⊂ judged, so this is the found share of the judged samples.)
    cost_1px = _robust_cost(r_px, good, blocked, huber_px)[0] if unit != 1.0 else math.nan
    return FitResult(pose, sig_xy * k, sig_deg * k, rms, n_good / n_judged, cost, n, per, probe,
                     cost_1px)
