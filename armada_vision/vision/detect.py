"""Find every pyramid lying flat on the table: size, colour, stern, tip, heading and σ.

Pipeline: calibrate from the markers → top-down view of the table → foreground score against
the table's own look → object regions (split where pieces touch) → per region, an initial
pose from its shape → 3-D outline fit through the camera (:mod:`armada_vision.vision.fit`)
for the plausible sizes, and for a piece standing upright → keep what fits a pyramid well,
with σ from the fit and the calibration.

Frames: table mm (+y away from the viewer), image px (OpenCV).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import cv2
import numpy as np
import shapely

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceDims, PieceSet, Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.calibrate import TableCalibration, calibrate
from armada_vision.vision.colors import classify_color
from armada_vision.vision.fit import (
    FitResult,
    ViewGrid,
    fit_pose,
    lying_local_3d,
    outline_mm,
    upright_local_3d,
)
from armada_vision.vision.segment import Rectifier, TableView, blobs, foreground, make_rectifier
from armada_vision.vision.types import DetectedPiece, Detections, UprightPiece, VisionFailure

# A fit is a piece when its mean robust cost per outline sample (px², misses count 2) is below
# this; between GOOD and MAX it is kept with its σ inflated (doubtful, so the rules say no).
GOOD_COST = 0.35
MAX_COST = 0.8
MIN_COVERAGE = 0.55


@dataclass(frozen=True, slots=True)
class Candidate:
    """One fitted hypothesis: a lying piece of ``size`` or an upright one."""

    size: Size
    upright: bool
    fit: FitResult
    outline_mm: np.ndarray


def _region_seeds(region: np.ndarray, grid: ViewGrid, max_piece_area_mm2: float
                  ) -> list[np.ndarray]:
    """Split a region where pieces touch: erode until it falls apart into piece-sized parts;
    every pixel then goes to its nearest part."""
    area_mm2 = region.sum() / grid.px_per_mm**2
    reg8 = region.astype(np.uint8)
    best: list[np.ndarray] = [region]
    for r_mm in (1.0, 2.0, 3.0, 4.5):
        r = max(round(r_mm * grid.px_per_mm), 1)
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        er = cv2.erode(reg8, ker)
        n, lab, stats, _ = cv2.connectedComponentsWithStats(er, connectivity=8)
        min_core = 20.0 * grid.px_per_mm**2
        cores = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= min_core]
        if len(cores) >= 2:
            seeds = np.zeros_like(reg8)
            for k, i in enumerate(cores):
                seeds[lab == i] = k + 1
            # Nearest core for every region pixel.
            _, nearest = cv2.distanceTransformWithLabels(
                (seeds == 0).astype(np.uint8), cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_PIXEL)
            ys, xs = np.nonzero(seeds)
            lab_of_pixel = np.zeros(nearest.max() + 1, np.int32)
            lab_of_pixel[nearest[ys, xs]] = seeds[ys, xs]
            owner = lab_of_pixel[nearest]
            best = [region & (owner == k + 1) for k in range(len(cores))]
            break
        if area_mm2 <= max_piece_area_mm2:
            break
    return best


def _initial_poses(part: np.ndarray, grid: ViewGrid) -> tuple[Pose, float, float] | None:
    """Pose guess (stern on the wide end) from a region's shape, its length and width, mm."""
    ys, xs = np.nonzero(part)
    if len(xs) < 10:
        return None
    mm = grid.to_mm(np.column_stack((xs, ys)).astype(np.float64))
    c = mm.mean(axis=0)
    q = mm - c
    _evals, evecs = np.linalg.eigh(q.T @ q / len(q))
    u = evecs[:, 1]
    t = q @ u
    v = q @ np.array([-u[1], u[0]])
    t0, t1 = t.min(), t.max()
    length = t1 - t0
    band = 0.2 * length
    w_lo = np.ptp(v[t < t0 + band]) if np.any(t < t0 + band) else 0.0
    w_hi = np.ptp(v[t > t1 - band]) if np.any(t > t1 - band) else 0.0
    if w_hi > w_lo:
        u, t0, t1, t = -u, -t1, -t0, -t
    stern = c + u * t0
    width = float(np.ptp(v))
    pose = Pose(float(stern[0]), float(stern[1]), math.degrees(math.atan2(u[1], u[0])))
    return pose, float(length), width


def _fit_lying(fg: np.ndarray, grid: ViewGrid, pieces: PieceSet, init: Pose, length: float,
               cam_mm: np.ndarray) -> Candidate | None:
    best: Candidate | None = None
    sizes = sorted(Size, key=lambda z: abs(pieces.dims(z).footprint_length_mm - length))
    for z in sizes[:2]:
        d = pieces.dims(z)
        loc = lying_local_3d(d)
        # Start the stern on the region's wide end; shift by the parallax-free length error.
        for flip in (False, True):
            p0 = init
            if flip:
                tip = init.tip_mm(length)
                p0 = Pose(tip[0], tip[1], init.heading_deg + 180.0)
            f = fit_pose(fg, grid, loc, p0, cam_mm)
            if best is None or f.cost < best.fit.cost:
                best = Candidate(z, False, f, outline_mm(loc, _params(f.pose), cam_mm))
            if f.cost < 0.5 * GOOD_COST:
                break
        if best is not None and best.fit.cost < 0.5 * GOOD_COST:
            break
    return best


def _fit_upright(fg: np.ndarray, grid: ViewGrid, pieces: PieceSet, part: np.ndarray,
                 part_grid: ViewGrid, cam_mm: np.ndarray) -> Candidate | None:
    ys, xs = np.nonzero(part)
    pts = part_grid.to_mm(np.column_stack((xs, ys)).astype(np.float64)).astype(np.float32)
    (cx, cy), (w, h), ang = cv2.minAreaRect(pts)
    # The base is the end of the region nearest the camera's foot; apex leans away from it.
    foot = np.array([cx, cy])
    side = min(w, h)
    z = min(Size, key=lambda s: abs(pieces.dims(s).base_w_mm - side))
    d = pieces.dims(z)
    loc = upright_local_3d(d)
    # The apex appears displaced away from the camera; start the base centre near the
    # region end closest to the camera's foot.
    away = foot - cam_mm[:2]
    away /= max(np.linalg.norm(away), 1e-9)
    shift = d.height_mm * np.linalg.norm(foot - cam_mm[:2]) / cam_mm[2] / 2
    start = foot - away * shift
    f = fit_pose(fg, grid, loc, Pose(float(start[0]), float(start[1]), ang), cam_mm)
    return Candidate(z, True, f, outline_mm(loc, _params(f.pose), cam_mm))


def _params(p: Pose) -> np.ndarray:
    return np.array([p.x_mm, p.y_mm, math.radians(p.heading_deg)])


def _calibration_sigma_mm(calib: TableCalibration, at_mm: tuple[float, float],
                          d: PieceDims) -> float:
    """σ the calibration adds to a pose near ``at_mm``: corner noise averaged over the corners,
    and the uncertain focal length scaling the raised base's parallax."""
    mpp = calib.mm_per_px(at_mm)
    n = max(len(calib.info.markers_found) * 4, 1)
    s_cal = calib.corner_sigma_px * mpp * 2.0 / math.sqrt(n)
    c = calib.camera_center_mm
    rise = d.base_rise_mm
    parallax = rise * math.hypot(at_mm[0] - c[0], at_mm[1] - c[1]) / max(c[2] - rise, 1.0)
    return math.hypot(s_cal, calib.focal_rel_sigma * parallax * 0.5)


def _dedupe(cands: list[Candidate]) -> list[Candidate]:
    """Two seeds that converged on the same piece: keep the better fit."""
    polys = [shapely.Polygon(c.outline_mm) for c in cands]
    keep: list[int] = []
    for i in sorted(range(len(cands)), key=lambda k: cands[k].fit.cost):
        if all(polys[i].intersection(polys[j]).area < 0.4 * min(polys[i].area, polys[j].area)
               for j in keep):
            keep.append(i)
    return [cands[i] for i in sorted(keep)]


def detect(image_bgr: np.ndarray, layout: TableLayout, camera: CameraIntrinsics | None = None,
           *, pieces: PieceSet = NOMINAL_PIECES, calibration: TableCalibration | None = None,
           rectifier: Rectifier | None = None, px_per_mm: float = 1.5
           ) -> Detections | VisionFailure:
    """Every pyramid lying flat in ``image_bgr`` (8-bit BGR), in table mm.

    ``calibration``/``rectifier``: reuse them while the camera has not moved (tracking).
    Returns
    :class:`Detections`, or a :class:`VisionFailure` when the image cannot be read or tied to
    the table.
    """
    t_start = time.perf_counter()
    if calibration is None:
        cal = calibrate(image_bgr, layout, camera)
        if isinstance(cal, VisionFailure):
            return cal
        calibration = cal
    if image_bgr.ndim == 2:
        image_bgr = cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR)
    if rectifier is None:
        rectifier = make_rectifier(calibration, layout, px_per_mm)
    view = rectifier.view(image_bgr)
    found, upright = find_pieces(view, calibration, layout, pieces)
    h, w = image_bgr.shape[:2]
    notes: tuple[str, ...] = ()
    if calibration.info.intrinsics_source == "estimated":
        notes = ("camera intrinsics estimated from the markers; σ includes the focal length's "
                 "uncertainty",)
    return Detections((w, h), calibration.info, tuple(found), tuple(upright),
                      (time.perf_counter() - t_start) * 1e3, notes)


def find_pieces(view: TableView, calib: TableCalibration, layout: TableLayout,
                pieces: PieceSet = NOMINAL_PIECES
                ) -> tuple[list[DetectedPiece], list[UprightPiece]]:
    """Lying and upright pieces in a top-down view of the table (table mm)."""
    grid = view.grid
    score, bg = foreground(view)
    fg = np.clip((score - 1.0) / 3.0, 0.0, 1.0)
    _, regions = blobs(score, grid)
    cam_mm = calib.camera_center_mm
    big = pieces.dims(Size.LARGE)
    max_area = 1.4 * (big.base_w_mm * big.footprint_length_mm / 2 + 2 * big.base_w_mm * 3)
    cands: list[Candidate] = []
    uprights: list[Candidate] = []
    for sub, region in regions:
        area = region.sum() / grid.px_per_mm**2
        if area > 12 * max_area:
            continue  # a hand or an arm: nothing in it can be judged
        for part in _region_seeds(region, sub, max_area):
            guess = _initial_poses(part, sub)
            if guess is None:
                continue
            init, length, _width = guess
            lying = _fit_lying(fg, grid, pieces, init, length, cam_mm)
            if lying is None or lying.fit.cost > GOOD_COST:
                up = _fit_upright(fg, grid, pieces, part, sub, cam_mm)
                if up is not None and up.fit.cost < GOOD_COST and (
                        lying is None or up.fit.cost < 0.8 * lying.fit.cost):
                    uprights.append(up)
                    continue
            if lying is None or lying.fit.cost > MAX_COST or lying.fit.coverage < MIN_COVERAGE:
                continue
            cands.append(lying)
    cands = _dedupe(cands)
    area_poly = shapely.Polygon(layout.play_area_mm)
    out: list[DetectedPiece] = []
    for c in cands:
        d = pieces.dims(c.size)
        pose = c.fit.pose
        s_cal = _calibration_sigma_mm(calib, pose.stern_mm, d)
        s_mm = math.hypot(c.fit.sigma_mm, s_cal) + 0.03
        s_deg = math.hypot(c.fit.sigma_deg, math.degrees(2 * s_cal / d.footprint_length_mm))
        if c.fit.cost > GOOD_COST:
            # Doubtful: a wrong pose must never look certain.
            k = 1.0 + 10.0 * (c.fit.cost - GOOD_COST) / (MAX_COST - GOOD_COST)
            s_mm, s_deg = s_mm * k + 0.5, s_deg * k + 0.5
        color = classify_color(view, footprint(pose, d), bg)
        inside = bool(area_poly.covers(footprint(pose, d)))
        outline_img = calib.project(c.outline_mm)
        out.append(DetectedPiece(c.size, color, pose, pose.tip_mm(d.footprint_length_mm),
                                 s_mm, s_deg, inside,
                                 tuple((float(x), float(y)) for x, y in outline_img),
                                 score=float(max(0.0, 1.0 - c.fit.cost / MAX_COST))))
    ups = [UprightPiece(c.size, classify_color(view, shapely.Polygon(c.outline_mm), bg),
                        c.fit.pose.stern_mm) for c in uprights]
    out.sort(key=lambda p: (p.pose.x_mm, p.pose.y_mm))
    return out, ups

