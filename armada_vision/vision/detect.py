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
from dataclasses import dataclass, replace

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


def _tip_hypotheses(part: np.ndarray, grid: ViewGrid, max_angle_deg: float = 100.0
                    ) -> list[tuple[np.ndarray, float]]:
    """Sharp convex corners of a region's outline, where a tip may be: (tip table mm, heading
    guess in degrees). A piece's tip is its sharpest corner (~30°) and lies on the table, so
    it stays put under any camera; touching pieces keep their tips."""
    contours, _ = cv2.findContours(part.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    out: list[tuple[np.ndarray, float]] = []
    for c in contours:
        if len(c) < 24:
            continue
        mm = grid.to_mm(c.reshape(-1, 2).astype(np.float64))
        # Corner angle at every outline point from the points ~5 mm along either way.
        seg = np.linalg.norm(np.diff(mm, axis=0, append=mm[:1]), axis=1)
        k = max(round(5.0 / max(float(seg.mean()), 1e-6)), 2)
        a = np.roll(mm, k, axis=0) - mm
        b = np.roll(mm, -k, axis=0) - mm
        cosang = np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
        ang = np.degrees(np.arccos(np.clip(cosang, -1.0, 1.0)))
        # Convex (pointing out of the region): the chord's midpoint lies inside the region.
        mid = grid.to_px(mm + 0.5 * (a + b) * 0.5)
        ui = np.clip(np.round(mid[:, 0]).astype(int), 0, part.shape[1] - 1)
        vi = np.clip(np.round(mid[:, 1]).astype(int), 0, part.shape[0] - 1)
        convex = part[vi, ui]
        n = len(mm)
        for i in np.argsort(ang):
            if ang[i] > max_angle_deg:
                break
            if not convex[i]:
                continue
            # Local minimum over ±k points, and not next to a tip already taken.
            idx = np.arange(i - k, i + k + 1) % n
            if ang[i] > ang[idx].min() + 1e-9:
                continue
            if any(np.linalg.norm(mm[i] - t) < 6.0 for t, _ in out):
                continue
            inward = a[i] / np.linalg.norm(a[i]) + b[i] / np.linalg.norm(b[i])
            out.append((mm[i], math.degrees(math.atan2(-inward[1], -inward[0]))))
    return out


def _unexplained_mm2(part: np.ndarray, grid: ViewGrid, outlines: list[np.ndarray]) -> float:
    """Area of a region not covered by the fitted outlines (grown by 1 mm), mm²."""
    cover = np.zeros(part.shape, np.uint8)
    for o in outlines:
        cv2.fillPoly(cover, [np.round(grid.to_px(o)).astype(np.int32)], 1)
    r = max(round(1.0 * grid.px_per_mm), 1)
    cover = cv2.dilate(cover, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    return float(np.count_nonzero(part & (cover == 0))) / grid.px_per_mm**2


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
    sizes = sorted(Size, key=lambda z: abs(pieces.dims(z).footprint_length_mm - length))[:2]
    sizes.sort(key=lambda z: -pieces.dims(z).footprint_length_mm)
    for z in sizes:
        d = pieces.dims(z)
        loc = lying_local_3d(d)
        # Start the stern on the region's wide end, then the other way round if that fails.
        for flip in (False, True):
            p0 = init
            if flip:
                tip = init.tip_mm(length)
                p0 = Pose(tip[0], tip[1], init.heading_deg + 180.0)
            f = fit_pose(fg, grid, loc, p0, cam_mm)
            if best is None or f.cost < best.fit.cost:
                best = Candidate(z, False, f, outline_mm(loc, _params(f.pose), cam_mm))
            if f.cost <= GOOD_COST:
                # The larger size is tried first and wins when good (see _preferred).
                return Candidate(z, False, f, outline_mm(loc, _params(f.pose), cam_mm))
    return best


def _fit_from_tip(fg: np.ndarray, grid: ViewGrid, pieces: PieceSet, tip: np.ndarray,
                  heading_deg: float, cam_mm: np.ndarray) -> list[Candidate]:
    """The best-fitting size for a piece whose tip is at ``tip`` (table mm); [] if none fits."""
    # Largest size first: a short fit screens it, a full fit confirms it. The largest good
    # fit wins (a smaller model also fits inside a bigger piece, see _preferred).
    best: Candidate | None = None
    h = math.radians(heading_deg)
    for z in sorted(Size, key=lambda z: -pieces.dims(z).footprint_length_mm):
        d = pieces.dims(z)
        s = d.footprint_length_mm
        p0 = Pose(tip[0] - s * math.cos(h), tip[1] - s * math.sin(h), heading_deg)
        loc = lying_local_3d(d)
        f = fit_pose(fg, grid, loc, p0, cam_mm, iterations=3)
        if f.cost > 2 * GOOD_COST and best is not None:
            continue
        f = fit_pose(fg, grid, loc, f.pose, cam_mm)
        c = Candidate(z, False, f, outline_mm(loc, _params(f.pose), cam_mm))
        if f.cost <= GOOD_COST:
            return [c]
        if best is None or f.cost < best.fit.cost:
            best = c
    return [best] if best is not None and best.fit.cost <= MAX_COST else []


def _outline_cover(grid: ViewGrid, shape: tuple[int, ...], outlines: list[np.ndarray],
                   grow_mm: float = 1.0) -> np.ndarray:
    cover = np.zeros(shape[:2], np.uint8)
    for o in outlines:
        cv2.fillPoly(cover, [np.round(grid.to_px(o)).astype(np.int32)], 1)
    r = max(round(grow_mm * grid.px_per_mm), 1)
    return cv2.dilate(cover, np.ones((2 * r + 1, 2 * r + 1), np.uint8)).astype(bool)


def _joint_cost(c: Candidate, others: list[Candidate]) -> float:
    """``c``'s fit cost where only the other accepted pieces excuse its hidden edges."""
    probe = c.fit.probe_mm
    explained = np.zeros(len(probe), bool)
    for o in others:
        poly = shapely.Polygon(o.outline_mm).buffer(1.0)
        explained |= shapely.contains_xy(poly, probe[:, 0], probe[:, 1])
    return c.fit.cost_given(explained)


def _select(cands: list[Candidate], pieces: PieceSet) -> list[Candidate]:
    """Greedy choice of the pieces that explain a region: the lowest joint cost first (a good
    bigger piece before a smaller one that fits inside it), no two footprints overlapping;
    then each kept fit is re-scored against all the others."""
    pool = [c for c in cands if c.fit.cost <= MAX_COST]
    chosen: list[Candidate] = []
    while pool:
        scored = [(_joint_cost(c, chosen), c) for c in pool]
        ok = [(j, c) for j, c in scored if j <= MAX_COST]
        if not ok:
            break
        good = [(j, c) for j, c in ok if j <= GOOD_COST]
        if good:
            # Among good fits at one place, the biggest piece (a smaller one fits inside it).
            c0 = min(good, key=lambda x: x[0])[1]
            rivals = [(j, c) for j, c in good if _clashes(c, [c0], pieces)]
            c0 = max(rivals, key=lambda x: (pieces.dims(x[1].size).footprint_length_mm,
                                            -x[0]))[1]
        else:
            c0 = min(ok, key=lambda x: x[0])[1]
        chosen.append(c0)
        pool = [c for c in pool if c is not c0 and not _clashes(c, [c0], pieces)]
    out = []
    for c in chosen:
        j = _joint_cost(c, [o for o in chosen if o is not c])
        if j <= MAX_COST:
            out.append(Candidate(c.size, c.upright, replace(c.fit, cost=j), c.outline_mm))
    return out


def _explain_region(fg: np.ndarray, grid: ViewGrid, pieces: PieceSet, region: np.ndarray,
                    sub: ViewGrid, cam_mm: np.ndarray, max_area: float, small_area: float
                    ) -> list[Candidate]:
    """Pieces that together explain one object region: from its shape when it is one piece,
    from its tips, then from whatever the chosen pieces leave unexplained, round by round."""
    area = region.sum() / sub.px_per_mm**2
    cands: list[Candidate] = []
    guess = _initial_poses(region, sub) if area <= max_area else None
    if guess is not None:
        lying = _fit_lying(fg, grid, pieces, guess[0], guess[1], cam_mm)
        if lying is not None:
            cands.append(lying)
    chosen = _select(cands, pieces)
    if chosen and _unexplained_mm2(region, sub, [c.outline_mm for c in chosen]) <= (
            0.5 * small_area) and all(c.fit.cost <= GOOD_COST for c in chosen):
        return chosen
    # Several pieces (or a piece and something else) touch: start from every tip.
    for tip, heading in _tip_hypotheses(region, sub):
        cands += _fit_from_tip(fg, grid, pieces, tip, heading, cam_mm)
    chosen = _select(cands, pieces)
    for _ in range(3):
        rest = region & ~_outline_cover(sub, region.shape, [c.outline_mm for c in chosen])
        n, lab, stats, _c = cv2.connectedComponentsWithStats(rest.astype(np.uint8), 8)
        added = 0
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] / sub.px_per_mm**2 < 0.6 * small_area:
                continue
            g = _initial_poses(lab == i, sub)
            c = _fit_lying(fg, grid, pieces, g[0], g[1], cam_mm) if g is not None else None
            if c is not None and not _clashes(c, chosen, pieces):
                cands.append(c)
                added += 1
        if not added:
            break
        chosen = _select(cands, pieces)
    return chosen


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


def _footprint(c: Candidate, pieces: PieceSet) -> shapely.Polygon:
    return footprint(c.fit.pose, pieces.dims(c.size))


def _preferred(a: Candidate, b: Candidate, pieces: PieceSet) -> bool:
    """Whether ``a`` should win over ``b`` when their footprints clash. Two good fits: the
    bigger piece (a smaller model fits inside a bigger piece's outline, where the bigger
    piece's own body hides the edges it lacks); otherwise the better fit."""
    if a.fit.cost <= GOOD_COST and b.fit.cost <= GOOD_COST:
        da, db = pieces.dims(a.size), pieces.dims(b.size)
        if da.footprint_length_mm != db.footprint_length_mm:
            return da.footprint_length_mm > db.footprint_length_mm
    return a.fit.cost < b.fit.cost


def _clashes(c: Candidate, others: list[Candidate], pieces: PieceSet) -> bool:
    """Whether ``c``'s footprint overlaps any of ``others``' (beyond fitting noise)."""
    fp = _footprint(c, pieces)
    return any(fp.intersection(o).area >= 0.15 * min(fp.area, o.area)
               for o in (_footprint(k, pieces) for k in others))


def _dedupe(cands: list[Candidate], pieces: PieceSet) -> list[Candidate]:
    """Footprints of lying pieces cannot overlap: of two clashing fits keep the preferred."""
    fps = [_footprint(c, pieces) for c in cands]
    order = list(range(len(cands)))
    # Insertion by preference (n is small).
    ranked: list[int] = []
    for i in order:
        k = 0
        while k < len(ranked) and not _preferred(cands[i], cands[ranked[k]], pieces):
            k += 1
        ranked.insert(k, i)
    keep: list[int] = []
    for i in ranked:
        if all(fps[i].intersection(fps[j]).area < 0.15 * min(fps[i].area, fps[j].area)
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
    small = pieces.dims(Size.SMALL)
    small_area = small.base_w_mm * small.footprint_length_mm / 2
    for sub, region in regions:
        area = region.sum() / grid.px_per_mm**2
        if area > 12 * max_area:
            continue  # a hand or an arm: nothing in it can be judged
        found = _explain_region(fg, grid, pieces, region, sub, cam_mm, max_area, small_area)
        if not found and area <= max_area:
            up = _fit_upright(fg, grid, pieces, region, sub, cam_mm)
            if up is not None and up.fit.cost < GOOD_COST:
                uprights.append(up)
                continue
        cands += [c for c in found
                  if c.fit.cost <= MAX_COST and c.fit.coverage >= MIN_COVERAGE]
    cands = _dedupe(cands, pieces)
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

