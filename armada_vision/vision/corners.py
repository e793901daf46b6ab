"""Sub-pixel marker corners from the four outer edges of each ArUco marker's black square.

OpenCV's corner refinements look at a small window round each corner; a blurred L-corner's
gradients there pull the estimate towards the inside of the square (≈ 0.2 px on our renders).
Here each outer edge is located instead along its whole length: intensity profiles across the
edge (from the black border into the white paper margin) each give one edge point, the
centroid of the intensity gradient round the profile's 50 % crossing; a straight line is
fitted through those points (in undistorted pixels when the camera is known, where
the edge really is straight) and neighbouring lines are intersected.

A corner whose edges cannot be measured cleanly (an edge partly under a hand, its margin
missing, a poor line fit) keeps OpenCV's corner; so does one the lines would move further
than ``MAX_SHIFT_PX``. An occluder with a straight edge lying along the marker's edge is not
recognised here (OpenCV's corners are wrong there too): ``calibrate`` drops such a marker
because it disagrees with the others.

Frames: image px (OpenCV convention, pixel centres at integers, y down).
"""

from __future__ import annotations

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics

# Profiles across each edge, and samples along each profile (≤ 0.25 px apart at the widest).
PROFILES_PER_EDGE = 40
SAMPLES_PER_PROFILE = 33
# Samples at each end of a profile that give the border's and the margin's grey level.
END_SAMPLES = 3
# Profiles reach this share of a cell into the border and into the margin: both are one cell
# wide, so the profile sees only black and white.
REACH_CELLS = 0.45
MIN_REACH_PX, MAX_REACH_PX = 1.5, 4.0
# Profiles start this far from each corner, where the other edge's blur no longer reaches.
END_GAP_PX = 2.5
# A usable profile spans at least this many grey levels between border and margin.
MIN_CONTRAST = 25.0
# An edge needs this share of its profiles as line inliers, and this RMS distance to the line.
MIN_INLIER_SHARE = 0.6
MAX_LINE_RMS_PX = 0.25
# Lines that would move a corner further than this from OpenCV's are not trusted (OpenCV's
# own corner can be 2 px off on a blurred or heavily compressed image).
MAX_SHIFT_PX = 3.0
# Edge position: centroid of the gradient within this distance of the 50 % crossing, counting
# only what exceeds this share of the profile's steepest step.
CENTROID_HALF_WIDTH_PX = 3.0
GRAD_FLOOR = 0.1


def _to_ideal(pts_px: np.ndarray, camera: CameraIntrinsics | None) -> np.ndarray:
    """Image px → undistorted ("ideal" pinhole) px of the same camera matrix."""
    if camera is None or not np.any(camera.dist):
        return pts_px
    p = pts_px.reshape(-1, 1, 2).astype(np.float64)
    return cv2.undistortPoints(p, camera.K, camera.dist, P=camera.K).reshape(-1, 2)


def _from_ideal(pts_ideal: np.ndarray, camera: CameraIntrinsics | None) -> np.ndarray:
    """Undistorted px → image px (the inverse of :func:`_to_ideal`)."""
    if camera is None or not np.any(camera.dist):
        return pts_ideal
    K = camera.K
    norm = (pts_ideal - K[:2, 2]) / np.array([K[0, 0], K[1, 1]])
    rays = np.column_stack((norm, np.ones(len(norm))))
    out, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), K, camera.dist)
    return out.reshape(-1, 2)


def _edge_lines(gray: np.ndarray, quads: np.ndarray, cells: int,
                camera: CameraIntrinsics | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fit every outer edge of every marker (``quads``: (n, 4, 2) image px, edge i runs from
    corner i to corner i + 1). Returns unit normals (n, 4, 2) and offsets (n, 4) of the lines
    n·x = c in undistorted px, and which edges could be fitted (n, 4)."""
    n_m = len(quads)
    a = quads
    b = np.roll(quads, -1, axis=1)
    ln = np.linalg.norm(b - a, axis=2)                                    # (n, 4)
    u = (b - a) / np.maximum(ln, 1e-9)[..., None]
    nrm = np.stack((u[..., 1], -u[..., 0]), axis=-1)
    centre = quads.mean(axis=1, keepdims=True)
    flip = np.sum(nrm * (centre - a), axis=2) > 0
    nrm[flip] *= -1.0                                                     # outward
    side = ln.mean(axis=1)
    reach = np.clip(REACH_CELLS * side / cells, MIN_REACH_PX, MAX_REACH_PX)  # (n,)
    gap = np.maximum(END_GAP_PX, reach)[:, None]
    usable = ln > 2 * gap + 4
    k = PROFILES_PER_EDGE
    t = gap[..., None] + np.linspace(0.0, 1.0, k) * np.maximum(ln - 2 * gap, 0.0)[..., None]
    along = a[:, :, None, :] + t[..., None] * u[:, :, None, :]            # (n, 4, k, 2)
    offs = np.linspace(-1.0, 1.0, SAMPLES_PER_PROFILE)[None, :] * reach[:, None]  # (n, s)
    pts = along[:, :, :, None, :] + offs[:, None, None, :, None] * nrm[:, :, None, None, :]
    pts = pts.reshape(-1, SAMPLES_PER_PROFILE, 2).astype(np.float32)
    prof = cv2.remap(gray, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    lo = prof[:, :END_SAMPLES].mean(axis=1)                               # the black border
    hi = prof[:, -END_SAMPLES:].mean(axis=1)                              # the white margin
    mid = (lo + hi) / 2
    above = prof > mid[:, None]
    flips = above[:, 1:] != above[:, :-1]
    ok = (hi - lo > MIN_CONTRAST) & (flips.sum(axis=1) == 1)
    i = np.argmax(flips, axis=1)
    rows = np.arange(len(prof))
    p0, p1 = prof[rows, i], prof[rows, i + 1]
    frac = np.clip((mid - p0) / np.where(p1 != p0, p1 - p0, 1.0), 0.0, 1.0)
    offs_rows = np.repeat(offs, 4 * k, axis=0)
    step = offs_rows[:, 1] - offs_rows[:, 0]
    off = offs_rows[rows, i] + frac * step
    # The edge is the centroid of the dark→light gradient near that crossing: unlike the
    # crossing itself it does not depend on the sampling phase of an axis-aligned edge, nor
    # on the level estimates. Gradients under GRAD_FLOOR of the profile's peak are noise.
    grad = np.diff(prof, axis=1)
    x = (offs_rows[:, 1:] + offs_rows[:, :-1]) / 2
    wgt = np.clip(grad - GRAD_FLOOR * grad.max(axis=1, keepdims=True), 0.0, None)
    wgt *= np.abs(x - off[:, None]) <= CENTROID_HALF_WIDTH_PX
    total = wgt.sum(axis=1)
    ok &= total > 0
    off = (wgt * x).sum(axis=1) / np.where(total > 0, total, 1.0)
    edge_pts = along.reshape(-1, 2) + off[:, None] * np.repeat(nrm.reshape(-1, 2), k, axis=0)
    edge_pts = _to_ideal(edge_pts, camera).reshape(n_m * 4, k, 2)
    keep = ok.reshape(n_m * 4, k) & np.repeat(usable.reshape(-1), k).reshape(n_m * 4, k)
    need = max(5, int(np.ceil(MIN_INLIER_SHARE * k)))
    normal = np.zeros((n_m * 4, 2))
    c = np.zeros(n_m * 4)
    rms = np.full(n_m * 4, np.inf)
    for _ in range(4):
        w = keep.astype(np.float64)
        cnt = np.maximum(w.sum(axis=1), 1.0)
        mean = (edge_pts * w[..., None]).sum(axis=1) / cnt[:, None]
        d = (edge_pts - mean[:, None, :]) * w[..., None]
        sxx, syy = (d[..., 0] ** 2).sum(axis=1), (d[..., 1] ** 2).sum(axis=1)
        sxy = (d[..., 0] * d[..., 1]).sum(axis=1)
        theta = 0.5 * np.arctan2(2 * sxy, sxx - syy)                      # line direction
        normal = np.stack((-np.sin(theta), np.cos(theta)), axis=1)
        c = np.sum(normal * mean, axis=1)
        res = np.abs(np.einsum("ekj,ej->ek", edge_pts, normal) - c[:, None])
        rms = np.sqrt((res ** 2 * w).sum(axis=1) / cnt)
        mad = _row_median(res, keep)
        new = keep & (res < np.maximum(4.0 * 1.4826 * np.nan_to_num(mad), 0.15)[:, None])
        if np.array_equal(new, keep):
            break
        keep = new
    fitted = (keep.sum(axis=1) >= need) & (rms <= MAX_LINE_RMS_PX)
    return normal.reshape(n_m, 4, 2), c.reshape(n_m, 4), fitted.reshape(n_m, 4)


def _row_median(values: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """Median of each row's kept ``values`` (NaN for a row with none), as
    ``np.nanmedian(np.where(keep, values, np.nan), axis=1)`` gives it, to the bit: rows of a
    few dozen go through numpy's masked-array median there, ~0.2 ms a call."""
    s = np.sort(np.where(keep, values, np.inf), axis=1)
    n = keep.sum(axis=1)
    h = n // 2
    lo = np.take_along_axis(s, np.maximum(np.where(n % 2 == 1, h, h - 1), 0)[:, None], 1)
    hi = np.take_along_axis(s, np.minimum(h, s.shape[1] - 1)[:, None], 1)
    out = (lo[:, 0] + hi[:, 0]) / 2.0
    out[n == 0] = np.nan
    return out


def refine_corners(gray: np.ndarray, quads_px: np.ndarray, cells: int,
                   camera: CameraIntrinsics | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Refine markers' corners (image px, (n, 4, 2), OpenCV's order) from their outer edges.

    ``gray``: 8-bit grayscale image. ``cells``: cells across the black square (marker bits + 2
    for the border). ``camera``: when given, lines are fitted in undistorted px and the corners
    distorted back. Returns the corners (image px, (n, 4, 2)) and which were refined (n, 4);
    the others are OpenCV's, unchanged.
    """
    quads = np.asarray(quads_px, dtype=np.float64).reshape(-1, 4, 2)
    if len(quads) == 0:
        return quads.copy(), np.zeros((0, 4), dtype=bool)
    normal, c, fitted = _edge_lines(gray, quads, cells, camera)
    n_in, c_in = np.roll(normal, 1, axis=1), np.roll(c, 1, axis=1)        # edge into corner i
    det = n_in[..., 0] * normal[..., 1] - n_in[..., 1] * normal[..., 0]
    safe = np.where(np.abs(det) < 0.2, 1.0, det)                          # near-parallel: no
    x = (c_in * normal[..., 1] - c * n_in[..., 1]) / safe
    y = (n_in[..., 0] * c - normal[..., 0] * c_in) / safe
    ideal = np.stack((x, y), axis=-1)
    start = _to_ideal(quads.reshape(-1, 2), camera).reshape(-1, 4, 2)
    good = (fitted & np.roll(fitted, 1, axis=1) & (np.abs(det) >= 0.2)
            & (np.linalg.norm(ideal - start, axis=2) <= MAX_SHIFT_PX))
    out = quads.copy()
    if good.any():
        out[good] = _from_ideal(ideal[good], camera)
    return out, good
