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
from dataclasses import dataclass, field

import cv2
import numpy as np

from armada_vision.geometry.pieces import PieceDims
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import body_local_3d


@dataclass(frozen=True, slots=True, eq=False)
class ViewGrid:
    """Pixel grid of a top-down view: pixel centre (u, v) is table point
    (x0_mm + u / px_per_mm, y1_mm − v / px_per_mm); the view's v grows towards table −y."""

    x0_mm: float
    y1_mm: float
    px_per_mm: float
    shape: tuple[int, int]  # (rows, cols)

    def to_px(self, points_mm: np.ndarray) -> np.ndarray:
        """Table mm (N, 2) → view px (N, 2)."""
        p = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2)
        return np.column_stack(((p[:, 0] - self.x0_mm) * self.px_per_mm,
                                (self.y1_mm - p[:, 1]) * self.px_per_mm))

    def to_mm(self, points_px: np.ndarray) -> np.ndarray:
        """View px (N, 2) → table mm (N, 2)."""
        p = np.asarray(points_px, dtype=np.float64).reshape(-1, 2)
        return np.column_stack((self.x0_mm + p[:, 0] / self.px_per_mm,
                                self.y1_mm - p[:, 1] / self.px_per_mm))


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
    c, s = math.cos(params[2]), math.sin(params[2])
    x = params[0] + c * local_3d[:, 0] - s * local_3d[:, 1]
    y = params[1] + s * local_3d[:, 0] + c * local_3d[:, 1]
    z = local_3d[:, 2]
    k = camera_mm[2] / (camera_mm[2] - z)
    return np.column_stack((camera_mm[0] + (x - camera_mm[0]) * k,
                            camera_mm[1] + (y - camera_mm[1]) * k))


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

    def cost_given(self, explained: np.ndarray) -> float:
        """Cost when the hidden samples flagged in ``explained`` (bool per sample) are excused
        and the other hidden ones count as misses."""
        c = np.where(np.isnan(self.sample_cost) & ~explained, 2.0, self.sample_cost)
        return float(np.nanmean(c)) if np.any(~np.isnan(c)) else 99.0


def _samples(hull_vertex_idx: np.ndarray, pts_mm: np.ndarray, step_mm: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Points along the hull edges: indices (a, b) of the edge ends and the fraction t."""
    a_idx, b_idx, ts = [], [], []
    n = len(hull_vertex_idx)
    for i in range(n):
        a, b = hull_vertex_idx[i], hull_vertex_idx[(i + 1) % n]
        length = float(np.linalg.norm(pts_mm[b] - pts_mm[a]))
        k = max(int(length / step_mm), 2)
        # Keep off the corners, where the edge normal is ill-defined.
        t = (np.arange(k) + 0.5) / k
        t = t[(t * length > 0.8) & ((1 - t) * length > 0.8)]
        a_idx += [a] * len(t)
        b_idx += [b] * len(t)
        ts += list(t)
    return np.array(a_idx, int), np.array(b_idx, int), np.array(ts)


def _points(pts: np.ndarray, a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return pts[a] + (pts[b] - pts[a]) * t[:, None]


def sample_map(img: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Sample a float image at sub-pixel (u, v); outside the image counts as 0."""
    rows, cols = img.shape
    u0 = np.floor(u).astype(np.intp)
    v0 = np.floor(v).astype(np.intp)
    fu, fv = u - u0, v - v0
    inside = (u0 >= 0) & (v0 >= 0) & (u0 < cols - 1) & (v0 < rows - 1)
    u0 = np.clip(u0, 0, cols - 2)
    v0 = np.clip(v0, 0, rows - 2)
    a = img[v0, u0]
    b = img[v0, u0 + 1]
    c = img[v0 + 1, u0]
    d = img[v0 + 1, u0 + 1]
    out = (a * (1 - fu) + b * fu) * (1 - fv) + (c * (1 - fu) + d * fu) * fv
    return np.where(inside, out, 0.0)


def _edge_offsets(fg: np.ndarray, grid: ViewGrid, p_mm: np.ndarray, n_mm: np.ndarray,
                  search_mm: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along each outward normal, the signed distance (mm) to the nearest inside→outside
    crossing of the foreground map's mid level, whether one was found with contrast, and
    whether the outside is itself foreground (a touching neighbour hides the edge)."""
    step = 0.5 / grid.px_per_mm
    ts = np.arange(-search_mm, search_mm + 1e-9, step)
    ppm = grid.px_per_mm
    u = (p_mm[:, 0:1] + ts[None, :] * n_mm[:, 0:1] - grid.x0_mm) * ppm
    v = (grid.y1_mm - p_mm[:, 1:2] - ts[None, :] * n_mm[:, 1:2]) * ppm
    prof = sample_map(fg, u, v)
    mid = len(ts) // 2
    inner = prof[:, : mid + 1].max(axis=1)
    outer = prof[:, mid:].min(axis=1)
    level = 0.5 * (inner + outer)
    ok = (inner - outer) > 0.3
    above = prof >= level[:, None]
    cross = above[:, :-1] & ~above[:, 1:]  # inside → outside between j and j+1
    j = np.arange(len(ts) - 1)
    dist = np.where(cross, np.abs(j - mid + 0.5), np.inf)
    best = dist.argmin(axis=1)
    r = np.arange(len(p_mm))
    ok &= np.isfinite(dist[r, best])
    f0, f1 = prof[r, best], prof[r, best + 1]
    frac = np.clip((f0 - level) / np.maximum(f0 - f1, 1e-6), 0.0, 1.0)
    off = ts[best] + frac * step
    blocked = ~ok & (prof[:, mid:].mean(axis=1) > 0.5)
    return off, ok, blocked


def _jacobian(local_3d: np.ndarray, p: np.ndarray, camera_mm: np.ndarray, a: np.ndarray,
              b: np.ndarray, t: np.ndarray, n: np.ndarray) -> np.ndarray:
    """d(normal offset of each outline sample)/d(x, y, heading), analytically: a vertex seen at
    C + (P − C)·k with k = C_z / (C_z − z) moves k times as far as the vertex itself."""
    c, s = math.cos(p[2]), math.sin(p[2])
    k = camera_mm[2] / (camera_mm[2] - local_3d[:, 2])
    lx, ly = local_3d[:, 0], local_3d[:, 1]
    dth = np.column_stack((k * (-s * lx - c * ly), k * (c * lx - s * ly)))
    w_a, w_b = (1.0 - t)[:, None], t[:, None]
    ka = w_a[:, 0] * k[a] + w_b[:, 0] * k[b]
    d_th = w_a * dth[a] + w_b * dth[b]
    return np.column_stack((ka * n[:, 0], ka * n[:, 1], np.sum(d_th * n, axis=1)))


def fit_pose(fg: np.ndarray, grid: ViewGrid, local_3d: np.ndarray, init: Pose,
             camera_mm: np.ndarray, *, search_mm: float = 4.0, iterations: int = 8,
             step_mm: float = 1.0, huber_px: float = 0.7) -> FitResult:
    """Fit (x, y, heading) of a body to the edges of ``fg`` (float32 foreground map of the
    view, ~1 inside pieces and ~0 on the table). ``init`` and the result are table mm; the
    fit is over the outline the camera at ``camera_mm`` (table mm) sees."""
    p = np.array([init.x_mm, init.y_mm, math.radians(init.heading_deg)])
    w = np.zeros(0)
    res = np.zeros(0)
    ok = np.zeros(0, bool)
    blocked = np.zeros(0, bool)
    J = np.zeros((0, 3))
    search = search_mm
    hull_key: tuple = ()
    a = b = np.zeros(0, int)
    t = np.zeros(0)
    for it in range(iterations):
        pts = seen_on_table(local_3d, p, camera_mm)
        hull = cv2.convexHull(pts.astype(np.float32), clockwise=False,
                              returnPoints=False).ravel()
        if len(hull) < 3:
            break
        key = tuple(hull)
        if key != hull_key:
            a, b, t = _samples(hull, pts, step_mm)
            hull_key = key
        m0 = _points(pts, a, b, t)
        e = pts[b] - pts[a]
        e /= np.linalg.norm(e, axis=1)[:, None]
        # Counter-clockwise in table mm (y up): the outside is to the right of the edge.
        n = np.column_stack((e[:, 1], -e[:, 0]))
        off, ok, blocked = _edge_offsets(fg, grid, m0, n, search)
        J = _jacobian(local_3d, p, camera_mm, a, b, t, n)
        res = -off  # model point minus edge point, along the normal
        if ok.sum() < 6:
            break
        scale = huber_px / grid.px_per_mm
        w = np.where(ok, np.minimum(1.0, scale / np.maximum(np.abs(res), 1e-9)), 0.0)
        # Tukey-like cut: far residuals are other objects' edges.
        w[np.abs(res) > 4 * scale + 0.5 * search] = 0.0
        A = J.T @ (w[:, None] * J) + np.diag([1e-6, 1e-6, 1e-2])
        g = J.T @ (w * res)
        dp = -np.linalg.solve(A, g)
        p = p + dp
        search = max(search * 0.6, 1.5)
        if np.abs(dp[:2]).max() < 0.005 and abs(dp[2]) < 1e-4 and it >= 2:
            break
    probe = m0 + 1.5 * n if len(res) else np.zeros((0, 2))
    return _result(p, res, ok, w, J, grid, huber_px, blocked, probe)


def _result(p: np.ndarray, res: np.ndarray, ok: np.ndarray, w: np.ndarray, J: np.ndarray,
            grid: ViewGrid, huber_px: float, blocked: np.ndarray, probe: np.ndarray
            ) -> FitResult:
    pose = Pose(float(p[0]), float(p[1]), math.degrees(p[2]))
    n = len(res)
    if n == 0 or ok.sum() < 6:
        return FitResult(pose, 99.0, 99.0, 99.0, float(ok.mean()) if n else 0.0, 99.0, n)
    good = ok & (w > 0)
    r_px = res * grid.px_per_mm
    rms = float(np.sqrt(np.sum(w * r_px**2) / max(w.sum(), 1e-9)))
    # Robust cost per sample: Huber on found edges, a full miss (2 px²) otherwise.
    hub = np.where(np.abs(r_px) <= huber_px, 0.5 * r_px**2,
                   huber_px * (np.abs(r_px) - 0.5 * huber_px))
    # Where a touching neighbour hides the edge, the sample neither helps nor counts as a miss.
    judged = ~blocked | good
    if judged.sum() < 6:
        return FitResult(pose, 99.0, 99.0, rms, 0.0, 99.0, n)
    per = np.where(good, np.minimum(hub, 2.0), 2.0)
    per = np.where(judged, per, np.nan)
    cost = float(np.nanmean(per))
    dof = max(good.sum() - 3, 1)
    s2 = float(np.sum(w * res**2) / dof)
    # Neighbouring samples share pixels: count ~one independent sample per pixel of outline.
    s2 = max(s2, (0.1 / grid.px_per_mm) ** 2) * 2.0
    A = J.T @ (w[:, None] * J) + np.diag([1e-9, 1e-9, 1e-9])
    try:
        cov = s2 * np.linalg.inv(A)
    except np.linalg.LinAlgError:
        return FitResult(pose, 99.0, 99.0, rms, float(ok.mean()), cost, n)
    sig_xy = math.sqrt(max(np.linalg.eigvalsh(cov[:2, :2]).max(), 0.0))
    sig_deg = math.degrees(math.sqrt(max(cov[2, 2], 0.0)))
    # σ grows when much of the outline is hidden: fewer edges constrain the pose.
    hidden = 1.0 - float(judged.mean())
    k = 1.0 / max(1.0 - hidden, 0.3)
    return FitResult(pose, sig_xy * k, sig_deg * k, rms, float(good[judged].mean()), cost, n,
                     per, probe)
