"""Top-down view of the table and what in it is not table.

The image is warped onto the table plane (``cv2.remap`` through the calibrated camera, lens
distortion included) at a fixed scale, so pieces have the same size everywhere. The table's
own look (wood grain, felt, cloth, light falloff) is estimated from the view itself with a
robust, coarse background model; a pixel's foreground score is how far its colour is from a
scaled copy of the table's (a shadow only scales it), relative to the table's own texture, so
shadows do not count as objects.

Frames: table mm (+y away from the viewer); view px as defined by :class:`ViewGrid`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from armada_vision.geometry.layout import TableLayout
from armada_vision.vision.calibrate import TableCalibration
from armada_vision.vision.fit import ViewGrid
from armada_vision.vision.order import median, percentile
from armada_vision.vision.pixels import channel_sum, gather_rows

# Shadows darken the table to no less than this share of its light (deeper: an object).
SHADOW_MIN = 0.5
# % of the table's light per unit of darkening beyond a shadow (black plastic is darker).
DARK_WEIGHT = 300.0
# Brightening the table's own grain and sheen can do (wood is striped light and dark).
BRIGHT_TOL = 0.0
# Object regions smaller than this (mm²) are specks, not pieces (a small piece's footprint is
# ~190 mm²).
MIN_REGION_MM2 = 80.0
# A foreground score that is object whatever else is in its region (the detector's fit map
# saturates here, detect.FG_CAP): a dull piece touching a glaring one, a white piece's faces
# beside its open base.
OBJECT_SCORE = 9.0
# Crisp edges: a pixel whose brightness gradient (relative to the local brightness) exceeds
# EDGE_K × the view's 90th percentile of it. An area these edges enclose is an object even
# when it only darkens the table (a clear piece): a shadow's penumbra is soft and encloses
# nothing.
EDGE_K = 4.0
# Gaps in those edges up to about this wide (mm: the closing disc's diameter) are closed and
# the holes they then enclose (:func:`closed_holes`) are judged faint with their area, and
# fitted by the crisp pass (issue 4, clear27): a clear piece on laminate whose outline breaks
# for a pixel or two where a face is lit like the table enclosed nothing, its edge band alone
# an area (the 5104-set's clear misses on laminate: the crisp area covered 0.15-0.69 of the
# footprint, 0.93-1.0 once closed), so the score did not count its darkening and the crisp
# pass fitted a band. A 4 mm closing found no more there.
CLOSE_GAP_MM = 3.0
# Inside such an area a darkening of the table counts this much per % of its light.
CRISP_DARK_WEIGHT = 1.0
# Such an area is faint (a clear piece, not found by colour) when FAINT_SHARE of it scores
# below FAINT_SCORE against the coarse table median, at most FAINT_MAX_STRONG of it above
# FAINT_STRONG (a white piece's open base, black plastic), its mean brightness is at most
# FAINT_MAX_SHADE of the table's and it covers at least FAINT_MIN_MM2 (a small piece's
# footprint is ~190 mm²; clear pieces found on 72 scenes: 410–890 mm² with their rims;
# smaller ones were bits of coloured pieces' faces and shadows).
FAINT_SCORE = 2.0
FAINT_SHARE = 0.6
FAINT_STRONG = 4.0
FAINT_MAX_STRONG = 0.05
FAINT_MAX_SHADE = 0.95
FAINT_MIN_MM2 = 150.0
# ... or, strong pixels brighter than the table (brightness ratio over FAINT_LIT_RATIO) left
# out of that count, when at most FAINT_MAX_LIT of the area is such and FAINT_LIT_SHARE of it
# is weak (issue 4, session 35, clear45). Clear plastic focuses the light: a lit patch on the
# table beside the piece (a caustic) and bright rims score strongly, lit, while the piece
# only darkens the table; the area failed FAINT_MAX_STRONG and the table estimate took the
# piece in (score ~0.2 over its footprint: missed). The 8272-set's 8484 (a clear medium on
# laminate: lit 0.21, dark strong 0.00, weak 0.76) and 8358 (a clear large: lit 0.043, dark
# 0.012, weak 0.76). A white piece's lit faces are lit strong pixels too, but it shows its
# dark open base (and black plastic is dark): the other strong pixels may then be at most
# FAINT_LIT_MAX_DARK (white pieces' areas with lit faces: 0.020-0.044 — 8639's white small
# lost its pose and 8766's white large its σ when 0.05 let them be faint; clear 0.000-0.012)
# and the area weak over FAINT_LIT_SHARE (white areas 0.61-0.69 — 8848-set's 8878 white
# medium was lost without it; clear 0.76-0.94).
FAINT_LIT_RATIO = 1.0
FAINT_MAX_LIT = 0.25
FAINT_LIT_MAX_DARK = 0.015
FAINT_LIT_SHARE = 0.72
# A clear piece touching a coloured one (issue 4, clear21; seeds 1736, 1799 of the 1648-set,
# 1979, 2054, 2219 of the 1936-set): their crisp areas join, the neighbour's strong pixels
# fail the joint area's FAINT_MAX_STRONG, and the table estimate takes the clear piece in
# (score > 2 on 0-0.02 of its footprint). What is left of such an
# area away from its strong pixels (SPLIT_MM) and opened to a piece's thickness (SPLIT_OPEN_MM:
# rims, crescents and the thin contact shadow along the neighbour go) is judged alone.
# A part is judged only when at most SPLIT_MAX_CONTACT of its border runs along the rest of
# its area: a clear piece touches its neighbour at a tip or along part of a side (0.11-0.29
# on the 1936-set), while a white piece's shaded face and the shadow beside it, or a black
# piece's grey face, run along the rest of their piece (0.38-1.0).
# And only when at least SPLIT_VIVID_SHARE of the strong pixels it was split from (within the
# split's and the opening's reach) are vivid (saturation at least SPLIT_VIVID and
# SPLIT_VIVID_OVER × the table's there): coloured plastic, whose own faces and shadow are no
# faint darkening (the clear pieces of 1648-2223 beside one: 0.24-0.98; the rest of those
# strong pixels are the clear piece's own rims and open base). Colourless strong pixels are a
# white piece's open base or black plastic, whose shaded faces and shadow look like a clear
# piece: split off they cost 4 whites of the 1648-set, and 2147's white medium's shaded face
# (0.00 vivid, beside a purple large) cost the purple.
SPLIT_MM = 1.5
SPLIT_OPEN_MM = 2.0
SPLIT_MAX_CONTACT = 0.3
# ... or SPLIT_MAX_CONTACT_VIVID when at least SPLIT_CONTACT_VIVID of those strong pixels are
# vivid (issue 4, session 34, recall44): the contact counts the part's own rims, cut off with
# the neighbour's strong pixels, as its area's rest, so a clear piece on a light table whose
# rims are crisp all round meets it along more (the 8560-set's 8711 and 8738, clear beside a
# red large and a purple medium: 0.34 and 0.35), and the table estimate took it in (score ~0
# over its footprint: missed). Coloured plastic is no white piece's shaded face and no black
# piece's grey face (those have colourless strong neighbours: SPLIT_VIVID_SHARE, 0.00 on
# 2147's white). Not higher: the 4528-set's 4670, a clear large beside a red small (0.40),
# split off fits at 0.94 on the map its own shadow joins and is lost, where the crisp pass
# read it in doubt before (and 0.45 found the 8272-set's 8324 at 0.43, but traded 4670).
SPLIT_CONTACT_VIVID = 0.5
SPLIT_MAX_CONTACT_VIVID = 0.36
SPLIT_VIVID = 0.4
SPLIT_VIVID_OVER = 2.0
SPLIT_VIVID_SHARE = 0.15
# A white piece on a table as bright as it (issue 4): only its open base scores strongly, its
# faces are the table's colour, and the crisp outline encloses it. An enclosed area on a
# bright table (coarse median brightness ≥ PALE_MIN_TABLE of 255) that is mostly weak
# (≥ PALE_SHARE), holds a strong part of at most PALE_MAX_STRONG (the base; a coloured
# piece's faces score strongly over more) and has lit faces brighter than the table (90th
# percentile of its brightness ratio ≥ PALE_LIT; coloured pieces' areas on laminate stay
# below 0.97) is a white piece: its pixels not darker than PALE_PIX × the table (its faces,
# not the contact shadow the crisp edge encloses with it) score at least OBJECT_SCORE.
PALE_MIN_TABLE = 150.0
PALE_SHARE = 0.5
PALE_MAX_STRONG = 0.45
PALE_LIT = 1.0
PALE_MIN_MM2 = 300.0
PALE_MAX_MM2 = 1500.0
PALE_PIX = 0.9
# Inside the convex hull of such an area, pixels brighter than PALE_FACE × the table (seed
# 1000's white small: the table round it p99.9 ×1.03, its lit face ×1.05) and of its colour
# (chroma under PALE_FACE_CHROMA % of its light; its face ≤ 1.4, a yellow neighbour 1.5–8) are
# its lit face too, when they cover at least PALE_FACE_MM2 (a face, not a sliver).
PALE_FACE = 1.035
PALE_FACE_CHROMA = 2.0
PALE_FACE_MM2 = 40.0
# A white piece touching a coloured one on a bright table (issue 4, session 54, recall64;
# session 55, recallwhite65): their crisp areas join, the neighbour's faces score strongly and
# its area fails PALE_MAX_STRONG (5104-set's 5318: 0.56), so the white's faces are left to the
# table and the piece is missed. What is left of such an area once its vivid pixels
# (SPLIT_VIVID, as the faint split judges them) and PALE_SPLIT_MM round them are taken out,
# opened by PALE_SPLIT_OPEN_MM, is judged part by part as a whole area is (PALE_SHARE,
# PALE_MAX_STRONG, PALE_MIN_MM2..PALE_SPLIT_PART_MAX_MM2, PALE_LIT). Asked only of areas with
# at least PALE_SPLIT_VIVID_MM2 of vivid pixels and PALE_SPLIT_FACE_MM2 of weak, colourless
# pixels lit at least PALE_PIX of the table (a white face's; a lone coloured piece's rest is
# its shadow and open base).
# The parts do not touch the score map every pass reads (on it they took white_beside_found's
# readings and read clear pieces as white: recall64): they are handed to the caller
# (foreground_planes' ``pale_parts``) for a second look where no pass read a piece
# (detect._pale_part_pieces).
PALE_SPLIT_MM = 1.0
PALE_SPLIT_OPEN_MM = 1.0
PALE_SPLIT_VIVID_MM2 = 20.0
PALE_SPLIT_FACE_MM2 = 60.0
PALE_SPLIT_MAX_MM2 = 4000.0
PALE_SPLIT_PART_MAX_MM2 = 2000.0
# A coloured table's saturation under DESAT_RATIO of its estimate's is a clear piece muting
# its colour (see desaturated); only on tables with a median saturation of at least
# DESAT_MIN_TABLE (on a grey table the ratio is noise).
DESAT_RATIO = 0.9
DESAT_MIN_TABLE = 0.25
# Black plastic on a coloured table (issue 4): its glossy faces mirror the white key light
# and the room, so they are grey, ×0.3–0.9 the table's light, which the score forgives as
# shadow (wood's grain sets a high noise level: chroma change ~12 % of the table's light
# scores ~1.2). A shadow, lit by the same white light, keeps the table's colour (saturation
# ×0.9–1.1 of the table's in the shadows round the missed pieces), the faces keep a fraction
# of it (×0.16–0.54). A pixel whose saturation is under COLOURLESS_RATIO of the table's and
# which is darker than the table is colourless dark; so is one darker than any shadow
# (SHADOW_MIN: the open base).
COLOURLESS_RATIO = 0.6
# Clear plastic keeps at least this share of the table's saturation (colors.name_color's
# clear test): a desaturated area greyer than that at its median is white or black plastic,
# whose area grey_at_mid leaves as it is (seed 1223's white small, 0.07: cut, it lost its
# shaded face and was missed).
CLEAR_KEEPS = 0.2
# grey_at_mid: the saturation ratio is smoothed over RATIO_SMOOTH_PX (saturation_ratio), so
# an area whose median ratio is m has its fixed cut DESAT_RATIO cross the edge
# (0.5 − (1 − DESAT_RATIO) / (1 − m)) × RATIO_SMOOTH_PX outside the mid level; the cut is
# moved only when that is at least MID_MIN_SHIFT_PX (m ≤ 0.7). On felt and cloth (areas'
# medians 0.41–0.65, 0.6–1 px) it matters; on wood (0.75–0.8: 0.1–0.3 px) the grain varies a
# clear piece's own ratio (0.65–0.94 inside 1750's and 1900's smalls) and a cut a little
# deeper only took its grain-lit pixels off (their fits 0.30–0.35 → 0.39–0.43: lost).
RATIO_SMOOTH_PX = 3
MID_MIN_SHIFT_PX = 0.5


@dataclass(frozen=True, slots=True, eq=False)
class TableView:
    """The table seen from straight above: BGR view, its grid, and the mask of pixels that
    belong to the table's markers (not to be read as objects)."""

    image_bgr: np.ndarray
    grid: ViewGrid
    marker_mask: np.ndarray
    valid_mask: np.ndarray  # pixels the camera actually saw


def view_bounds_mm(layout: TableLayout, margin_mm: float = 10.0
                   ) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) table mm covering the markers and the play area."""
    pts = [c for m in layout.markers for c in m.corners_mm()] + list(layout.play_area_mm)
    a = np.asarray(pts, dtype=float)
    lo, hi = a.min(axis=0) - margin_mm, a.max(axis=0) + margin_mm
    return float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])


@dataclass(frozen=True, slots=True, eq=False)
class Rectifier:
    """Precomputed remap from the camera image to a top-down view (reuse while the camera
    does not move)."""

    grid: ViewGrid
    map_x: np.ndarray
    map_y: np.ndarray
    valid: np.ndarray
    marker_mask: np.ndarray

    def view(self, image_bgr: np.ndarray) -> TableView:
        out = cv2.remap(image_bgr, self.map_x, self.map_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
        return TableView(out, self.grid, self.marker_mask, self.valid)


def make_rectifier(calib: TableCalibration, layout: TableLayout, px_per_mm: float = 1.5,
                   margin_mm: float = -2.0) -> Rectifier:
    """Remap maps for the view of the layout's markers and play area at ``px_per_mm``. The
    view ends ``margin_mm`` beyond the outermost marker corners (default: just inside them,
    where a mat or table ends, so its edge is not an object)."""
    x0, y0, x1, y1 = view_bounds_mm(layout, margin_mm)
    cols = int(np.ceil((x1 - x0) * px_per_mm))
    rows = int(np.ceil((y1 - y0) * px_per_mm))
    grid = ViewGrid(x0, y1, px_per_mm, (rows, cols))
    # Project a coarse grid and interpolate: the maps are smooth, projecting every pixel is slow.
    step = 8
    cu = np.arange(0, cols + step, step, dtype=np.float64)
    cv = np.arange(0, rows + step, step, dtype=np.float64)
    uu, vv = np.meshgrid(cu, cv)
    mm = grid.to_mm(np.column_stack((uu.ravel(), vv.ravel())))
    px = calib.project(mm).reshape(len(cv), len(cu), 2).astype(np.float32)
    full_x = cv2.resize(px[..., 0], (len(cu) * step, len(cv) * step),
                        interpolation=cv2.INTER_LINEAR)
    full_y = cv2.resize(px[..., 1], (len(cu) * step, len(cv) * step),
                        interpolation=cv2.INTER_LINEAR)
    # cv2.resize aligns pixel areas; shift so that coarse sample k lands on fine pixel k·step
    # (view pixel u is fine pixel u + (step − 1)/2, halfway between two: step is even).
    full_x = _half_shift(full_x, (step - 1) // 2, rows, cols)
    full_y = _half_shift(full_y, (step - 1) // 2, rows, cols)
    w, h = calib.camera.image_size
    valid = ((full_x >= 0) & (full_x <= w - 1) & (full_y >= 0) & (full_y <= h - 1))
    markers = np.zeros((rows, cols), np.uint8)
    for m in layout.markers:
        # The printed marker has a white margin round its black square; mask both.
        c = np.asarray(m.center_mm)
        corners = c + (m.corners_mm() - c) * 1.45
        cv2.fillConvexPoly(markers, np.round(grid.to_px(corners)).astype(np.int32), 1)
    # (0/1 as bools: a view, no copy.)
    return Rectifier(grid, full_x, full_y, valid, markers.view(bool))


# View rows per strip of _half_shift (64: ~1.1 ms a 879 × 1100 map against ~3.3 whole).
_SHIFT_ROWS = 64


def _half_shift(fine: np.ndarray, k: int, rows: int, cols: int) -> np.ndarray:
    """``fine`` (float32) at (u + k + ½, v + k + ½) for view pixels u < ``cols``, v < ``rows``:
    bilinear halfway between four pixels, lerped along u and then along v, which are the very
    floats cv2.warpAffine's shift by k + ½ gives (checked on the benchmark's maps and on random
    ones), in ~half its instructions. ``fine`` reaches k + 2 pixels past the view."""
    # The lerp along u of rows k … k + rows once: row v's lower neighbour is row v + 1's upper
    # one, so these are the floats of lerping both rows for every v, in 6 view-size passes
    # instead of 9 (tests/test_view_fast.py). Done in strips of _SHIFT_ROWS view rows: the
    # strip's lerp along u stays in the cache for the lerp along v (element by element, so
    # the same floats; a whole map at once took ~3× the time, its passes over main memory).
    out = np.empty((rows, cols), np.float32)
    along = np.empty((min(_SHIFT_ROWS, rows) + 1, cols), np.float32)
    for r in range(0, rows, _SHIFT_ROWS):
        n = min(_SHIFT_ROWS, rows - r)
        lo = fine[k + r:k + r + n + 1, k:k + cols]
        a = along[:n + 1]
        np.subtract(fine[k + r:k + r + n + 1, k + 1:k + 1 + cols], lo, out=a)
        a *= 0.5
        a += lo
        o = out[r:r + n]
        np.subtract(a[1:], a[:n], out=o)
        o *= 0.5
        o += a[:n]
    return out


# area_share_over's margin: a cell whose share lies this near the bound is left to OpenCV
# (cv2.resize's float32 sums are ~1e-6 off the exact share; the margin is far past that).
SHARE_MARGIN = 1e-4


def area_share_over(mask: np.ndarray, size: tuple[int, int], share: float) -> np.ndarray:
    """Bool (rows, cols) for ``size`` (cols, rows): which cells of ``mask`` (bool, view px)
    shrunk to ``size`` are covered by it over ``share`` of their area, the very bools of
    ``cv2.resize(mask as float32, size, INTER_AREA) > share``. Worked out exactly from the
    mask's integral image at the cells' fractional bounds (the area under a 0/1 mask is
    bilinear within a pixel) in ~a fifth of the resize's instructions (a view's mask: ~13 M,
    1.3 % of a detect); where a cell's share lies within SHARE_MARGIN of ``share`` the resize
    answers, so a rounding never decides."""
    rows, cols = mask.shape
    ocols, orows = size
    ii = cv2.integral(mask.view(np.uint8)).reshape(-1)  # pixel counts (int32: exact)
    x0, fx = _cell_bounds(cols, ocols)
    y0, fy = _cell_bounds(rows, orows)
    # The integral at (y, x) for every pair of bounds: bilinear between its four corners
    # (flat takes: numpy's 2-D fancy indexing costs ~10× as much).
    at = y0[:, None] * (cols + 1) + x0
    top = ii.take(at) * (1.0 - fx) + ii.take(at + 1) * fx
    at += cols + 1
    bot = ii.take(at) * (1.0 - fx) + ii.take(at + 1) * fx
    under = top * (1.0 - fy)[:, None] + bot * fy[:, None]
    area = under[1:, 1:] - under[:-1, 1:] - under[1:, :-1] + under[:-1, :-1]
    got = area / ((cols / ocols) * (rows / orows))
    if np.any(np.abs(got - share) < SHARE_MARGIN):
        return cv2.resize(mask.view(np.uint8).astype(np.float32), size,
                          interpolation=cv2.INTER_AREA) > share
    return got > share


def _cell_bounds(n: int, cells: int) -> tuple[np.ndarray, np.ndarray]:
    """The bounds (px) of ``cells`` equal cells over ``n`` pixels, as each bound's pixel
    (0 … n − 1) and how far into it (0 … 1) it lies."""
    b = np.minimum(np.arange(cells + 1) * (n / cells), n)
    i = np.minimum(np.floor(b).astype(np.intp), n - 1)
    return i, b - i


def foreground(view: TableView, *, coarse_mm: float = 4.0, crisp: np.ndarray | None = None,
               holes: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Foreground score of every view pixel (float32, ~0 table, ≥1 clearly not table) and
    the coarse background (table) colour estimate, BGR float32 0–255, view size. ``crisp``:
    the crisp-enclosed areas (:func:`crisp_edges`), computed here when not given.
    ``holes`` (:func:`closed_holes`): the areas those with these holes make are judged
    faint too (a clear piece whose outline breaks); the pale areas stay ``crisp``'s."""
    score, bg, _view_planes, _bg_planes = foreground_planes(view, coarse_mm=coarse_mm,
                                                            crisp=crisp, holes=holes)
    return score, bg


def foreground_planes(view: TableView, *, coarse_mm: float = 4.0,
                      crisp: np.ndarray | None = None, holes: np.ndarray | None = None,
                      pale_parts: list[np.ndarray] | None = None
                      ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], list[np.ndarray]]:
    """:func:`foreground`'s score and table estimate, and the channel planes (:func:`split_planes`,
    float32) of the view and of that estimate, which its score is worked out from: a caller
    that needs them too (the shade, the saturation ratio) does not split them again.
    ``pale_parts``: when given, the pale parts of crisp areas a white piece shares with a
    coloured neighbour are appended to it (see :func:`_faint_crisp`); the score leaves them."""
    img = view.image_bgr.astype(np.float32)
    rows, cols = img.shape[:2]
    k = max(round(coarse_mm * view.grid.px_per_mm), 1)
    small = cv2.resize(img, (max(cols // k, 1), max(rows // k, 1)), interpolation=cv2.INTER_AREA)
    unseen = view.marker_mask | ~view.valid_mask
    ignore = area_share_over(unseen, (small.shape[1], small.shape[0]), 0.05)
    # Pass 1: a median over ~36 mm ignores pieces that do not crowd the window; then the
    # table is re-estimated from what looks like table only, twice.
    med = cv2.medianBlur(np.clip(small, 0, 255).astype(np.uint8), 9).astype(np.float32)
    # Crisp-edged areas that look like table (a clear piece only darkens it): left out of the
    # table estimate, which would otherwise take them in, and their darkening counts below.
    if crisp is None:
        crisp = crisp_edges(view)[1]
    # The first pass's distances from the median table: its noise here, and again (with
    # more ignored) as the first re-estimate's.
    d = _distance(small, med)
    noise0 = _noise(d, ignore)
    closed = crisp | holes if holes is not None and holes.any() else None
    # The pixels' colours against the table, worked out once over both passes' areas.
    px = _CrispPixels.make(crisp if closed is None else closed, img, med)
    faint, pale = _faint_crisp(view, crisp, px if closed is None else px.within(crisp), img,
                               med, noise0, pale_parts=pale_parts)
    if closed is not None:
        # Only faint areas gain from the holes: a white piece's closed area, its lit face and
        # shaded face together, was no longer judged pale (5303's small) or its shaded face's
        # band no longer faint (5263's medium), and the piece was lost.
        more, _ = _faint_crisp(view, closed, px, img, med, noise0, with_pale=False)
        if more is not None:
            faint = more if faint is None else np.union1d(faint, more)
    # Pale areas too (a white piece's faces would pull the estimate).
    widened = False
    for idx in (i for i in (pale, faint) if i is not None):
        share = np.bincount(_cells(idx, (rows, cols), small.shape), minlength=ignore.size) * (
            small.shape[0] * small.shape[1] / (rows * cols))
        more = share.reshape(ignore.shape) > 0.05
        if np.greater(more, ignore).any():
            ignore |= more
            widened = True
    bg = med
    for it in range(2):
        if it:
            d = _distance(small, bg)
        # The first re-estimate's noise is noise0 when no cell was added to those ignored (the
        # same distances, the same cells: ~2 M instructions of a percentile a 720p detect).
        noise = noise0 if it == 0 and not widened else _noise(d, ignore)
        keep = (~ignore & (d < 2.5 * noise)).astype(np.float32)
        keep = cv2.erode(keep, np.ones((3, 3), np.uint8))
        num = cv2.GaussianBlur(small * keep[..., None], (0, 0), 3.0)
        den = cv2.GaussianBlur(keep, (0, 0), 3.0)[..., None]
        bg = np.where(den > 0.02, num / np.maximum(den, 1e-6), med)
    noise = _noise(_distance(small, bg), ignore)
    # The full-size table estimate resized plane by plane and merged: the same floats as
    # resizing the 3-channel grid and splitting it (INTER_LINEAR works each channel alone;
    # tests/test_view_fast.py), without the split of a full-size float32 image.
    bg_planes = [cv2.resize(p, (cols, rows), interpolation=cv2.INTER_LINEAR)
                 for p in split_planes(bg)]
    bg_full = cv2.merge(bg_planes)
    # The view's planes split from its 8-bit pixels and widened one at a time: the same
    # float32 planes as splitting ``img``, at ~⅓ of the time (a quarter of the bytes to split).
    view_planes = ([p.astype(np.float32) for p in split_planes(view.image_bgr)]
                   if view.image_bgr.dtype == np.uint8 else split_planes(img))
    score = distance_of_planes(view_planes, bg_planes)
    if faint is not None:
        i, b = gather_rows(img.reshape(-1, 3), faint), gather_rows(bg_full.reshape(-1, 3), faint)
        dark = (1.0 - (channel_sum(i) + 1.0) / (channel_sum(b) + 1.0)) * (
            100.0 * CRISP_DARK_WEIGHT)
        flat = score.reshape(-1)
        flat[faint] = np.maximum(flat[faint], dark)
    score /= 3.0 * noise
    if pale is not None:
        flat = score.reshape(-1)
        flat[pale] = np.maximum(flat[pale], OBJECT_SCORE)
    # (np.copyto with where: the masked write of score[unseen] = 0 without its index machinery,
    # ~⅓ of its time on a view.)
    np.copyto(score, 0.0, where=unseen)
    return score.astype(np.float32, copy=False), bg_full, view_planes, bg_planes


def crisp_edges(view: TableView) -> tuple[np.ndarray, np.ndarray]:
    """View-size bool masks (view px) of the crisp edges — brightness steps, relative to the
    local brightness, far above the table's own texture — and of the areas they enclose,
    edges included. A clear piece's straight outline and bright rims enclose it; a shadow's
    soft penumbra does not reach the level. :func:`foreground` and the detector's crisp pass
    both use them: compute once and pass ``crisp`` to :func:`foreground`."""
    gray = cv2.cvtColor(view.image_bgr, cv2.COLOR_BGR2GRAY)
    gx = cv2.Scharr(gray, cv2.CV_32F, 1, 0)
    gy = cv2.Scharr(gray, cv2.CV_32F, 0, 1)
    rel = cv2.magnitude(gx, gy)
    # Relative to the local brightness, so a step on dark cloth counts like one on laminate.
    local = cv2.blur(gray, (9, 9)).astype(np.float32)
    local += 8.0
    rel /= local
    seen = view.valid_mask & ~view.marker_mask
    if not seen.any():
        return np.zeros(gray.shape, bool), np.zeros(gray.shape, bool)
    # Every 29th pixel is plenty for the level (a strided view: no full-size copy).
    level = EDGE_K * float(percentile(rel.ravel()[::29][seen.ravel()[::29]], 90))
    edges = ((rel > level) & seen).view(np.uint8)  # a fresh bool array: no copy
    # Holes filled by drawing the outer contours filled: tracing the few edges is cheaper than
    # flooding the whole view (fill_holes).
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edges)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return edges.view(bool), filled.view(bool)


def closed_holes(edges: np.ndarray, crisp: np.ndarray, px_per_mm: float) -> np.ndarray:
    """View-size bool mask of what the crisp ``edges`` (:func:`crisp_edges`) enclose once
    their gaps up to CLOSE_GAP_MM are closed, less the areas ``crisp`` they enclose already
    and less the closing's own pixels: only holes are added, not bridges, so areas that did
    not touch stay apart (see CLOSE_GAP_MM)."""
    r = max(round(CLOSE_GAP_MM * px_per_mm / 2.0), 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
    closed = cv2.morphologyEx(edges.view(np.uint8), cv2.MORPH_CLOSE, disc)
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    holes = np.zeros_like(closed)
    cv2.drawContours(holes, contours, -1, 1, thickness=cv2.FILLED)
    # holes is 0/1: as bools, cleared where closed or crisp by two bool ANDs (the masked
    # writes holes[closed > 0] = 0 and holes[crisp] = 0 gave the same mask in ~⅓ more time).
    out = holes.view(bool)
    out &= closed == 0
    out &= ~crisp
    return out


def desaturated(view: TableView, bg: np.ndarray) -> np.ndarray | None:
    """View-size bool mask (view px) of where a coloured table (wood, felt, cloth) looks
    greyer than its estimate ``bg`` (BGR float, view size): the saturation's ratio to the
    table's, smoothed over 3 px only, under DESAT_RATIO. A clear piece on wood mutes the
    grain's colour (0.62-0.84 of the table's inside the missed ones), a shadow scales the
    colour and keeps its saturation. The light smoothing keeps a clear piece's thin tip (a
    5 mm one shortened it: a large read as a medium); the grain's thin streaks it lets
    through are opened away by the crisp pass. None on a grey table (median saturation
    under DESAT_MIN_TABLE)."""
    ratio = saturation_ratio(view, bg)
    return None if ratio is None else grey_of(view, ratio)


def grey_of(view: TableView, ratio: np.ndarray) -> np.ndarray:
    """View-size bool mask (view px) of :func:`desaturated` from its ``ratio``
    (:func:`saturation_ratio`), for a caller that keeps the ratio for other passes."""
    return (ratio < DESAT_RATIO) & view.valid_mask & ~view.marker_mask


def grey_at_mid(grey: np.ndarray, ratio: np.ndarray, min_px: float,
                window: tuple[slice, slice] | None = None) -> np.ndarray:
    """``grey`` (view-size bool, :func:`grey_of`) with each of its areas enclosing at least
    ``min_px`` pixels cut at the mid level between the area's median
    saturation ``ratio`` and the table's (1), where that lies under DESAT_RATIO: the
    piece's edge, as the fit reads an edge (issue 4). A clear piece on felt or cloth keeps
    ~0.6 of the table's saturation; the smoothed ratio crosses DESAT_RATIO ~1 px outside its
    outline, and the area grown by that all round cost its true pose 0.42-0.44 (seeds 1901,
    1757: over GOOD_COST) where the mid-level cut gives 0.10-0.17. On wood (0.8-0.9 inside)
    the cut stays at DESAT_RATIO (MID_MIN_SHIFT_PX), and an area greyer than CLEAR_KEEPS is
    left as it is. ``window``: a window of the view holding all of ``grey`` a pixel or more
    inside its edges (but where they are the view's): its areas are traced there only."""
    out = grey
    if window is None:
        contours, _ = cv2.findContours(grey.view(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
    else:
        contours, _ = cv2.findContours(grey[window].view(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE,
                                       offset=(window[1].start, window[0].start))
    for cnt in contours:
        # The enclosed area, not the bounding box: the grain's long thin streaks on wood
        # (~1300 contours a view) have large boxes and are no piece.
        if cv2.contourArea(cnt) < min_px:
            continue
        x, y, w, h = cv2.boundingRect(cnt)
        sl = (slice(y, y + h), slice(x, x + w))
        area = np.zeros((h, w), np.uint8)
        cv2.drawContours(area, [cnt], -1, 1, thickness=cv2.FILLED, offset=(-x, -y))
        inside = area.view(bool) & grey[sl]
        r = ratio[sl]
        med = float(median(r[inside]))
        # How far outside the mid level the fixed cut crosses the edge, over the ratio's
        # smoothing: worth moving the cut only from MID_MIN_SHIFT_PX on.
        shift = (0.5 - (1.0 - DESAT_RATIO) / (1.0 - med)) * RATIO_SMOOTH_PX
        if med < CLEAR_KEEPS or shift < MID_MIN_SHIFT_PX:
            continue
        cut = 0.5 * (1.0 + med)
        if out is grey:
            out = grey.copy()
        out[sl] &= ~(inside & (r >= cut))
    return out


def saturation_ratio(view: TableView, bg: np.ndarray,
                     bg_planes: Sequence[np.ndarray] | None = None) -> np.ndarray | None:
    """View-size float32 (view px): the view's saturation over its table estimate's ``bg``
    (BGR float, view size), smoothed over 3 px; None on a grey table (median saturation
    under DESAT_MIN_TABLE), where the ratio is noise. ``bg_planes``: ``split_planes(bg)``
    when the caller has it already."""
    seen = view.valid_mask & ~view.marker_mask
    if not seen.any():
        return None
    # Every 29th pixel is plenty for the table's median, and a grey table is told from it
    # before any full-size work.
    few = bg.reshape(-1, 1, 3)[::29][seen.ravel()[::29]]
    if float(median(_saturation(few))) < DESAT_MIN_TABLE:
        return None
    s_bg = _saturation(bg, bg_planes)
    ratio = _saturation(view.image_bgr)
    ratio /= np.maximum(s_bg, 1e-3, out=s_bg)  # (s_bg is this call's own: floored in place)
    return cv2.blur(ratio, (RATIO_SMOOTH_PX, RATIO_SMOOTH_PX))


def colourless_dark(view: TableView, ratio: np.ndarray, shade: np.ndarray) -> np.ndarray:
    """View-size bool mask (view px) of black plastic on a coloured table: pixels darker
    than the table (``shade``, brightness over the table's, under 1) whose saturation
    ``ratio`` (:func:`saturation_ratio`) is under COLOURLESS_RATIO, or darker than any
    shadow (under SHADOW_MIN). A shadow keeps the table's colour; see COLOURLESS_RATIO."""
    dark = shade < 1.0
    dark &= ratio < COLOURLESS_RATIO
    dark |= shade < SHADOW_MIN
    return dark & view.valid_mask & ~view.marker_mask


def _saturation(bgr: np.ndarray, planes: Sequence[np.ndarray] | None = None) -> np.ndarray:
    """HSV-style saturation (max − min) / (max + 1) per pixel of a BGR image (float32);
    ``planes``: its :func:`split_planes` when already made."""
    if planes is None and bgr.size == 0:
        return np.zeros(bgr.shape[:-1], np.float32)  # cv2.split of no pixels gives no planes
    # Per-channel cv2 max/min: numpy's reductions over a last axis of 3 are ~10x slower.
    b, g, r = split_planes(bgr) if planes is None else planes
    if b.dtype == np.uint8:
        # 8-bit pixels: max − min taken in 8 bits (never below 0, so exact) and widened once,
        # the floats of widening both and subtracting.
        mx8 = cv2.max(cv2.max(b, g), r)
        out = cv2.subtract(mx8, cv2.min(cv2.min(b, g), r)).astype(np.float32)
        mx = mx8.astype(np.float32)
        mx += 1.0
        out /= mx
        return out
    # No copy when the planes are float32 already (the table estimate): cv2.max's result is new.
    mx = cv2.max(cv2.max(b, g), r).astype(np.float32, copy=False)
    out = mx - cv2.min(cv2.min(b, g), r).astype(np.float32, copy=False)
    mx += 1.0
    out /= mx
    return out


@dataclass(frozen=True, slots=True, eq=False)
class _CrispPixels:
    """The view pixels of crisp areas and their colours against the table, per pixel:
    ``idx`` their flat indices (ascending), ``i`` their BGR, ``b`` the coarse median's BGR
    of their cell, ``d`` :func:`_distance` of the two and ``ratio`` their brightness ratio."""

    idx: np.ndarray
    i: np.ndarray
    b: np.ndarray
    d: np.ndarray
    ratio: np.ndarray

    @staticmethod
    def make(areas: np.ndarray, img: np.ndarray, med_small: np.ndarray) -> _CrispPixels:
        """The pixels of ``areas`` (bool, view size) of ``img`` against ``med_small``."""
        # Flat indices: the areas are a few % of the view, so only they are touched.
        idx = np.flatnonzero(areas)
        i = gather_rows(img.reshape(-1, 3), idx)
        b = gather_rows(med_small.reshape(-1, 3), _cells(idx, areas.shape, med_small.shape))
        return _CrispPixels(idx, i, b, _distance_block(i[None], b[None])[0],
                            (channel_sum(i) + 1.0) / (channel_sum(b) + 1.0))

    def within(self, areas: np.ndarray) -> _CrispPixels:
        """These pixels that lie in ``areas`` (bool, view size): the same values as
        :meth:`make` of ``areas`` when they hold no pixel these do not (every value is one
        pixel's own)."""
        sel = areas.reshape(-1)[self.idx]
        return _CrispPixels(self.idx[sel], self.i[sel], self.b[sel], self.d[sel],
                            self.ratio[sel])


def _faint_crisp(view: TableView, crisp: np.ndarray, px: _CrispPixels, img: np.ndarray,
                 med_small: np.ndarray, noise: float, *, with_pale: bool = True,
                 pale_parts: list[np.ndarray] | None = None
                 ) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The crisp-edged areas ``crisp`` (:func:`crisp_edges`) whose colour is mostly the
    table's (against the coarse median ``med_small``), that are darker than it and nothing in
    which scores strongly (a white piece's open base, black plastic): what a clear piece
    looks like. Coloured objects are found by colour already and are left alone. Also the
    pale areas (a white piece on a bright table: see PALE_*), unless ``with_pale`` is False
    (then None). ``px``: the pixels of ``crisp`` (:class:`_CrispPixels`). Flat indices of the
    faint and of the pale areas' view pixels, each None when there is none. ``pale_parts``:
    when given, the pale parts of the areas a white piece shares with a coloured neighbour
    (PALE_SPLIT_*) are appended to it, each as the flat indices of its lit pixels and hull."""
    idx, i, b, d, ratio = px.idx, px.i, px.b, px.d, px.ratio
    if idx.size == 0:
        return None, None
    n, lab = cv2.connectedComponents(crisp.view(np.uint8), connectivity=8)
    ids = lab.ravel()[idx]
    soft, hard = d < FAINT_SCORE * 3.0 * noise, d > FAINT_STRONG * 3.0 * noise
    count, weak, strong, good = _faint_areas(ids, n, soft, hard, ratio, view.grid.px_per_mm)
    keep = good[ids]
    # A faint part holds FAINT_MIN_MM2, FAINT_SHARE of it weak, and none of the strong pixels:
    # an area without that much of each has none (most coloured pieces' areas).
    least = FAINT_MIN_MM2 * view.grid.px_per_mm ** 2
    split = (~good & (strong > FAINT_MAX_STRONG * count) & (count - strong >= least)
             & (weak >= FAINT_SHARE * least))
    split[0] = False
    parts = None
    if split.any():
        def vivid(pos: np.ndarray) -> np.ndarray:
            """Whether the pixels at ``pos`` in ``idx`` are vivid (SPLIT_VIVID)."""
            sat = _saturation(i[pos][None])[0]
            return (sat >= SPLIT_VIVID) & (sat >= SPLIT_VIVID_OVER * _saturation(b[pos][None])[0])

        parts = _faint_parts(lab, ids, np.flatnonzero(split), idx, split[ids], hard, vivid,
                             soft, ratio, view.grid.px_per_mm)
    if parts is not None:
        keep[parts] = True
    faint = idx[keep] if keep.any() else None
    if not with_pale:
        return faint, None
    px2 = view.grid.px_per_mm ** 2
    table = np.bincount(ids, weights=channel_sum(b) / 3.0, minlength=n)
    pale = ((weak >= PALE_SHARE * count) & (strong <= PALE_MAX_STRONG * count)
            & (count >= PALE_MIN_MM2 * px2) & (count <= PALE_MAX_MM2 * px2)
            & (table >= PALE_MIN_TABLE * count) & ~good)
    pale[0] = False
    if pale.any():
        # 90th percentile of the brightness ratio per area, only for the few candidates.
        for a in np.flatnonzero(pale):
            pale[a] = float(percentile(ratio[ids == a], 90)) >= PALE_LIT
    # Only its pixels not darker than PALE_PIX × the table: the shadow its crisp contact edge
    # encloses with it is left as shadow (filling it too grew the pieces by their shadows).
    pkeep = pale[ids] & (ratio >= PALE_PIX)
    out = idx[pkeep]
    if pale.any():
        out = np.concatenate([out, *(_pale_hull(img, med_small, idx[ids == a], px2)
                                     for a in np.flatnonzero(pale))])
    if pale_parts is not None:
        # Areas a white piece shares with a coloured neighbour: judged part by part
        # (PALE_SPLIT_*), handed back apart from the score map.
        joined = (~pale & ~good & (count >= PALE_MIN_MM2 * px2)
                  & (count <= PALE_SPLIT_MAX_MM2 * px2) & (table >= PALE_MIN_TABLE * count))
        joined[0] = False
        if joined.any():
            for pos in _pale_parts(lab, ids, np.flatnonzero(joined), idx, i, b, soft, hard,
                                   ratio, view.grid.px_per_mm):
                pale_parts.append(np.concatenate([
                    idx[pos[ratio[pos] >= PALE_PIX]],
                    _pale_hull(img, med_small, idx[pos], px2)]))
    return faint, (out if out.size else None)


def _pale_parts(lab: np.ndarray, ids: np.ndarray, areas: np.ndarray, idx: np.ndarray,
                i: np.ndarray, b: np.ndarray, weak: np.ndarray, hard: np.ndarray,
                ratio: np.ndarray, ppm: float) -> list[np.ndarray]:
    """Positions in ``idx`` (flat indices of the crisp areas' view pixels, ascending; ``i``,
    ``b``, ``weak``, ``hard`` and ``ratio`` per pixel as :func:`_faint_crisp` has them) of the
    pale parts of the crisp areas ``areas`` (labels in ``lab`` and ``ids``): what is left of
    each away from its vivid pixels (PALE_SPLIT_*), judged as a whole pale area is. One array
    per part."""
    shape = lab.shape
    px2 = ppm ** 2
    r, ro = max(round(PALE_SPLIT_MM * ppm), 1), max(round(PALE_SPLIT_OPEN_MM * ppm), 1)
    out = []
    for a in areas:
        pos = np.flatnonzero(ids == a)
        face = weak[pos] & (ratio[pos] >= PALE_PIX)
        if np.count_nonzero(face) < PALE_SPLIT_FACE_MM2 * px2:
            continue  # no white face's worth of weak lit pixels (asked before the colours)
        sat = _saturation(i[pos][None])[0]
        viv = (sat >= SPLIT_VIVID) & (sat >= SPLIT_VIVID_OVER * _saturation(b[pos][None])[0])
        if (np.count_nonzero(viv) < PALE_SPLIT_VIVID_MM2 * px2
                or np.count_nonzero(face & ~viv) < PALE_SPLIT_FACE_MM2 * px2):
            continue
        rows, cols = np.divmod(idx[pos], shape[1])
        pad = r + ro + 2
        y0, x0 = max(int(rows.min()) - pad, 0), max(int(cols.min()) - pad, 0)
        hgt = min(int(rows.max()) + pad + 1, shape[0]) - y0
        wid = min(int(cols.max()) + pad + 1, shape[1]) - x0
        m = np.zeros((hgt, wid), np.uint8)
        v = np.zeros((hgt, wid), np.uint8)
        m[rows - y0, cols - x0] = 1
        v[rows[viv] - y0, cols[viv] - x0] = 1
        disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
        opener = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ro + 1,) * 2)
        rest = cv2.morphologyEx(m & (1 - cv2.dilate(v, disc)), cv2.MORPH_OPEN, opener)
        n, pl = cv2.connectedComponents(rest, connectivity=8)
        if n < 2:
            continue
        q = pl[rows - y0, cols - x0]
        cnt = np.bincount(q, minlength=n).astype(np.float64)
        ok = ((np.bincount(q, weights=weak[pos], minlength=n) >= PALE_SHARE * cnt)
              & (np.bincount(q, weights=hard[pos], minlength=n) <= PALE_MAX_STRONG * cnt)
              & (cnt >= PALE_MIN_MM2 * px2) & (cnt <= PALE_SPLIT_PART_MAX_MM2 * px2))
        ok[0] = False
        for p in np.flatnonzero(ok):
            got = pos[q == p]
            if float(percentile(ratio[got], 90)) >= PALE_LIT:
                out.append(got)
    return out


def _faint_areas(ids: np.ndarray, n: int, weak: np.ndarray, hard: np.ndarray,
                 ratio: np.ndarray, ppm: float
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per label 0..n-1 of the pixels' labels ``ids`` (0: none): their count, weak and strong
    counts (of the per-pixel flags ``weak`` and ``hard``), and whether the area is faint:
    FAINT_SHARE weak, at most FAINT_MAX_STRONG strong (or so besides the lit ones, FAINT_LIT_*),
    darker than the table (brightness ``ratio`` to it) by FAINT_MAX_SHADE, at least
    FAINT_MIN_MM2 (``ppm`` view px per mm)."""
    count = np.bincount(ids, minlength=n).astype(np.float64)
    weak_n = np.bincount(ids, weights=weak, minlength=n)
    strong = np.bincount(ids, weights=hard, minlength=n)
    # Its strong pixels lit above the table excused (FAINT_LIT_*): a clear piece's caustic
    # or lit rims, with its weak darkening over more of it than a white piece shows.
    lit = np.bincount(ids, weights=hard & (ratio > FAINT_LIT_RATIO), minlength=n)
    few_strong = (strong <= FAINT_MAX_STRONG * count) | (
        (strong - lit <= FAINT_LIT_MAX_DARK * count) & (lit <= FAINT_MAX_LIT * count)
        & (weak_n >= FAINT_LIT_SHARE * count))
    good = ((weak_n >= FAINT_SHARE * count) & few_strong
            & (np.bincount(ids, weights=ratio, minlength=n) <= FAINT_MAX_SHADE * count)
            & (count >= FAINT_MIN_MM2 * ppm**2))
    good[0] = False
    return count, weak_n, strong, good


def _faint_parts(lab: np.ndarray, ids: np.ndarray, areas: np.ndarray, idx: np.ndarray,
                 split: np.ndarray, hard: np.ndarray,
                 vivid: Callable[[np.ndarray], np.ndarray], weak: np.ndarray,
                 ratio: np.ndarray, ppm: float) -> np.ndarray | None:
    """Positions in ``idx`` (flat indices of the crisp areas' view pixels, ascending) of the
    faint parts of the crisp areas ``areas`` (labels in ``lab``, and per pixel of ``idx`` in
    ``ids``; ``split`` flags their pixels, see SPLIT_MM): each part, away from the areas' strong
    (``hard``) pixels, whose strong neighbours are partly ``vivid``, judged as a whole area
    is (``weak``, ``hard``, brightness ``ratio`` per pixel). None when there is none."""
    shape = lab.shape
    r, ro = max(round(SPLIT_MM * ppm), 1), max(round(SPLIT_OPEN_MM * ppm), 1)
    # The split areas and their strong pixels, on the view.
    marks = np.zeros(shape[0] * shape[1], np.uint8)
    marks[idx[split]] = 1
    marks[idx[split & hard]] = 2
    marks = marks.reshape(shape)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
    opener = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ro + 1,) * 2)
    pad = r + 2 * ro + 3
    out = []
    for a in areas:
        # Each area on its box, grown past the morphology's reach.
        rows, cols = np.divmod(idx[ids == a], shape[1])
        y0, x0 = max(int(rows.min()) - pad, 0), max(int(cols.min()) - pad, 0)
        box = (slice(y0, min(int(rows.max()) + pad + 1, shape[0])),
               slice(x0, min(int(cols.max()) + pad + 1, shape[1])))
        m = marks[box]
        near = cv2.dilate((m >= 2).view(np.uint8), disc)
        rest = cv2.morphologyEx((lab[box] == a).view(np.uint8) & (1 - near), cv2.MORPH_OPEN,
                                opener)
        if np.count_nonzero(rest) < FAINT_MIN_MM2 * ppm**2:
            continue  # too little left for a part (most coloured pieces' areas)
        got = _judged_parts(rest, m, idx, hard, vivid, weak, ratio, ppm, 2 * (r + ro) + 3,
                            (y0, x0, shape[1]))
        if got is not None:
            out.append(got)
    return np.concatenate(out) if out else None


def _judged_parts(rest: np.ndarray, marks: np.ndarray, idx: np.ndarray, hard: np.ndarray,
                  vivid: Callable[[np.ndarray], np.ndarray], weak: np.ndarray,
                  ratio: np.ndarray, ppm: float, reach_px: int, at: tuple[int, int, int]
                  ) -> np.ndarray | None:
    """Positions in ``idx`` of the parts of ``rest`` (0/1 on a box of the view whose first
    row, first column and the view's width are ``at``) that are faint (as _faint_crisp judges
    an area), meet the rest of their area (``marks`` ≥ 1 on the box; 2 strong) along at most
    SPLIT_MAX_CONTACT of their border (SPLIT_MAX_CONTACT_VIVID beside vivid plastic), and
    whose strong neighbours within ``reach_px`` are
    at least SPLIT_VIVID_SHARE ``vivid`` (of positions in ``idx``)."""
    n, lab = cv2.connectedComponents(rest, connectivity=8)
    if n < 2:
        return None
    ry, rx = np.nonzero(rest)
    pos = np.searchsorted(idx, (ry + at[0]) * at[2] + rx + at[1])
    ids = lab[ry, rx]
    good = _faint_areas(ids, n, weak[pos], hard[pos], ratio[pos], ppm)[3]
    if not good.any():
        return None
    # The border of each part (labels grown by 2 px): on the rest of its area, or on the table.
    parts = lab.astype(np.uint16)
    grown = cv2.dilate(parts, np.ones((5, 5), np.uint8))
    ring = (grown > 0) & (lab == 0)
    of = grown[ring]
    along = np.bincount(of, weights=marks[ring] > 0, minlength=n)
    # The strong pixels each part was split from (within the split's and the opening's reach).
    sy, sx = np.nonzero(marks >= 2)
    reach = cv2.dilate(parts, np.ones((reach_px, reach_px), np.uint8))[sy, sx]
    near = reach > 0
    total = np.bincount(reach, minlength=n)
    lively = np.zeros(reach.size, bool)
    lively[near] = vivid(np.searchsorted(idx, (sy[near] + at[0]) * at[2] + sx[near] + at[1]))
    share = np.bincount(reach, weights=lively, minlength=n)
    contact = np.where(share >= SPLIT_CONTACT_VIVID * total, SPLIT_MAX_CONTACT_VIVID,
                       SPLIT_MAX_CONTACT)
    good &= along <= contact * np.bincount(of, minlength=n)
    good &= (share >= SPLIT_VIVID_SHARE * total) & (total > 0)
    keep = good[ids]
    return pos[keep] if keep.any() else None


def _pale_hull(img: np.ndarray, med_small: np.ndarray, area: np.ndarray, px2: float
               ) -> np.ndarray:
    """Flat indices of the view pixels inside the convex hull of a pale area (flat indices
    ``area``; ``px2``: view px per mm²) but outside it that are brighter than the table
    (coarse median ``med_small``) by PALE_FACE and of its colour (chroma under
    PALE_FACE_CHROMA % of its light), when they cover at least PALE_FACE_MM2: a white piece's
    lit face whose outline against the table is too faint to be crisp all round, so the
    crisp area holds its shadow and base but not the face."""
    rows, cols = img.shape[:2]
    r, c = np.divmod(area, cols)
    y0, x0 = int(r.min()), int(c.min())
    box = np.zeros((int(r.max()) - y0 + 1, int(c.max()) - x0 + 1), np.uint8)
    pts = np.stack([c - x0, r - y0], axis=1).astype(np.int32)
    cv2.fillConvexPoly(box, cv2.convexHull(pts), 1)
    box.reshape(-1)[(r - y0) * box.shape[1] + (c - x0)] = 0
    by, bx = np.nonzero(box)
    flat = (by + y0) * cols + (bx + x0)
    i = gather_rows(img.reshape(-1, 3), flat)
    b = gather_rows(med_small.reshape(-1, 3), _cells(flat, (rows, cols), med_small.shape))
    # White, not a coloured neighbour brighter than the table (s21's yellow: chroma 1.5–8 %).
    chroma = np.sqrt(_scale_chroma2(i.T, b.T)[1])
    ratio = (channel_sum(i) + 1.0) / (channel_sum(b) + 1.0)
    sel = (ratio >= PALE_FACE) & (chroma < PALE_FACE_CHROMA)
    # A face, not a sliver of one the area already holds (1015's white medium: ≤ 25 px).
    if sel.sum() < PALE_FACE_MM2 * px2:
        return flat[:0]
    return flat[sel]


def _cells(flat_idx: np.ndarray, shape: tuple[int, int], small_shape: tuple[int, ...]
           ) -> np.ndarray:
    """Flat index into the coarse grid ``small_shape`` (a resize of ``shape``) of the cell
    holding each view pixel given by its flat index."""
    r, c = np.divmod(flat_idx, shape[1])
    rs = np.minimum(r * small_shape[0] // shape[0], small_shape[0] - 1)
    cs = np.minimum(c * small_shape[1] // shape[1], small_shape[1] - 1)
    return rs * small_shape[1] + cs


# Rows per strip of the full-size view in _distance: its dozen temporaries then stay in the
# cache and under malloc's mmap threshold, instead of a dozen fresh view-sized arrays.
_STRIP_ROWS = 32
# An image this small (the coarse table grid, ~150 × 150 px) is done whole: its planes fit in
# the cache anyway, and strips only repeat the ~35 calls per strip.
_WHOLE_MAX_PX = 65536


def split_planes(img: np.ndarray) -> list[np.ndarray]:
    """The channel planes of a 3-channel image, each contiguous (what ``cv2.split`` gives).
    Split into arrays made here: ``cv2.split``'s own output arrays cost ~2× the split's CPU
    time on a view (3.6 → 1.5 ms for a float32 879 × 879 view; the same values)."""
    out = [np.empty(img.shape[:2], img.dtype) for _ in range(3)]
    cv2.split(img, out)
    return out


def _distance(img: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """How unlike the table a pixel is, in % of the table's brightness. A shadow only scales
    the table's colour down, so the colour change beyond a common scale counts fully, a
    brightening beyond the grain's own and a darkening beyond what a shadow does (to ×0.5)
    count: with k = i·b / (|b|² + 1) for pixel colour i and table colour b,
    √(10⁴·|i − k·b|² / (|b|² + 1) + L²), L = 100·max(k − 1 − BRIGHT_TOL, 0)
    + DARK_WEIGHT·max(SHADOW_MIN − k, 0)."""
    return distance_of_planes(split_planes(img), split_planes(bg))


def distance_of_planes(ip: Sequence[np.ndarray], bp: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`_distance` from the pixels' and the table's channel planes (:func:`split_planes`)."""
    # Contiguous channel planes: numpy's loops over a channel of an interleaved image
    # (stride 3) do not vectorise and cost ~3× the instructions. A large image is worked
    # strip by strip, to keep the dozen temporaries small (in the cache, and under malloc's
    # mmap threshold: fresh view-sized arrays cost more in page faults than they save).
    # Element by element, so strips give the same numbers.
    rows, cols = ip[0].shape
    if rows <= 2 * _STRIP_ROWS or rows * cols <= _WHOLE_MAX_PX:
        return _distance_planes(ip, bp)
    out = np.empty((rows, cols), np.result_type(ip[0].dtype, bp[0].dtype))
    for r in range(0, rows, _STRIP_ROWS):
        sl = slice(r, r + _STRIP_ROWS)
        out[sl] = _distance_planes([p[sl] for p in ip], [p[sl] for p in bp])
    return out


def _distance_block(img: np.ndarray, bg: np.ndarray) -> np.ndarray:
    """:func:`_distance` of pixels ``img`` against table colours ``bg`` (…, 3), unsplit."""
    return _distance_planes([img[..., c] for c in range(3)], [bg[..., c] for c in range(3)])


def _scale_chroma2(ip: Sequence[np.ndarray], bp: Sequence[np.ndarray]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """From the pixels' and the table's channel planes: k, the common scale of the table's
    colour that comes nearest the pixel's (i·b / (|b|² + 1)), and the colour change beyond it
    squared, in % of the table's light (10⁴·|i − k·b|² / (|b|² + 1))."""
    # In place: a fresh array per operation cost a third more.
    i0, i1, i2 = ip
    b0, b1, b2 = bp
    bb = b0 * b0
    bb += b1 * b1
    bb += b2 * b2
    bb += 1.0
    # k: the common scale of the table's colour that comes nearest the pixel's.
    k = i0 * b0
    k += i1 * b1
    k += i2 * b2
    k /= bb
    # Colour change beyond that scale: |i − k·b|² / |b|², in (%)².
    chroma2 = i0 - k * b0
    chroma2 *= chroma2
    r = i1 - k * b1
    r *= r
    chroma2 += r
    r = i2 - k * b2
    r *= r
    chroma2 += r
    chroma2 /= bb
    chroma2 *= 1e4
    return k, chroma2


def _distance_planes(ip: Sequence[np.ndarray], bp: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`_distance` from the pixels' and the table's channel planes."""
    k, chroma2 = _scale_chroma2(ip, bp)
    # Brightening, or darkening beyond a shadow's; at most one of the two is non-zero.
    light = k - 1.0
    if BRIGHT_TOL:
        light -= BRIGHT_TOL
    np.maximum(light, 0.0, out=light)
    light *= 100.0
    dark = SHADOW_MIN - k
    np.maximum(dark, 0.0, out=dark)
    dark *= DARK_WEIGHT
    light += dark
    light *= light
    chroma2 += light
    return np.sqrt(chroma2, out=chroma2)


def _noise(d: np.ndarray, ignore: np.ndarray) -> float:
    vals = d[~ignore]
    if vals.size == 0:
        return 1.0
    return float(max(percentile(vals, 60) * 1.5, 1.0))


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """A 0/1 uint8 mask with its enclosed holes filled (a translucent piece can show as its
    own bright outline)."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    # The outside (the 0s 4-connected to the border) marked 2, all else is the mask or its
    # holes. Without a mask argument OpenCV's plain fill runs (a given mask takes the slower
    # fill that compares neighbours), and one comparison replaces a copy and a masked write.
    cv2.floodFill(padded, None, (0, 0), _OUTSIDE)
    return (padded[1:-1, 1:-1] != _OUTSIDE).view(np.uint8)


# fill_holes's mark for the outside (the mask holds 0 and 1).
_OUTSIDE = 2


def object_mask(score: np.ndarray, grid: ViewGrid, *, threshold: float = 2.0) -> np.ndarray:
    """Binary object mask (uint8, view px): score above ``threshold``, closed, opened and with
    its holes filled."""
    mask = (score > threshold).view(np.uint8)  # a fresh bool array: no copy
    r = max(round(0.7 * grid.px_per_mm), 1)
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, ker)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, ker)
    return fill_holes(mask)


def blobs(score: np.ndarray, grid: ViewGrid, *, min_area_mm2: float = MIN_REGION_MM2,
          threshold: float = 2.0, pad_px: int = 4
          ) -> tuple[np.ndarray, list[tuple[ViewGrid, np.ndarray]]]:
    """Binary object mask (uint8) and, per connected object region that does not run off the
    view (those are the table's edge or the floor, or an arm reaching in), its bounding box as
    a sub-grid of the view with the region's boolean mask cropped to it."""
    mask = object_mask(score, grid, threshold=threshold)
    return mask, view_regions(mask, grid, min_area_mm2=min_area_mm2, pad_px=pad_px)[0]


Regions = list[tuple[ViewGrid, np.ndarray]]


def view_regions(mask: np.ndarray, grid: ViewGrid, *, min_area_mm2: float = 0.0,
                 pad_px: int = 4, box: tuple[int, int, int, int] | None = None
                 ) -> tuple[Regions, Regions]:
    """The connected regions of a binary view mask (uint8), each as its padded bounding box (a
    sub-grid of the view, table mm) and its boolean mask cropped to it: those inside the view
    (at least ``min_area_mm2``), and those that run off it (an arm reaching in), any size.
    ``box`` (r0, c0, r1, c1, view px): ``mask`` is 0 outside it, so its components are traced
    in the box grown by a pixel only; the same regions as the whole view's."""
    rows, cols = mask.shape
    br0, bc0, br1, bc1 = (0, 0, rows, cols) if box is None else (
        max(box[0] - 1, 0), max(box[1] - 1, 0), min(box[2] + 1, rows), min(box[3] + 1, cols))
    n, lab, stats = _components(mask if box is None
                                else np.ascontiguousarray(mask[br0:br1, bc0:bc1]))
    min_px = min_area_mm2 * grid.px_per_mm**2
    inside: Regions = []
    off: Regions = []
    for i in range(1, n):
        x, y, w, h, a = stats[i]
        x, y = x + bc0, y + br0
        runs_off = x == 0 or y == 0 or x + w >= cols or y + h >= rows
        if not runs_off and a < min_px:
            continue
        c0, r0 = max(x - pad_px, 0), max(y - pad_px, 0)
        c1, r1 = min(x + w + pad_px, cols), min(y + h + pad_px, rows)
        sub = grid.sub(c0, r0, (r1 - r0, c1 - c0))
        if box is None:
            region = lab[r0:r1, c0:c1] == i
        else:
            # The window's part inside the traced box (outside it the mask is 0).
            region = np.zeros((r1 - r0, c1 - c0), bool)
            ir0, ic0, ir1, ic1 = max(r0, br0), max(c0, bc0), min(r1, br1), min(c1, bc1)
            region[ir0 - r0:ir1 - r0, ic0 - c0:ic1 - c0] = (
                lab[ir0 - br0:ir1 - br0, ic0 - bc0:ic1 - bc0] == i)
        (off if runs_off else inside).append((sub, region))
    return inside, off


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(mask, connectivity=8)``: count, labels, stats.
    Labels in uint16 while they fit: the same labels and stats, but OpenCV 5's stats pass
    for int32 labels costs ~4× as much (~6 against ~1.6 ms CPU at 879×879 px, one thread).
    OpenCV raises when the labels overflow uint16; then int32."""
    try:
        n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                            ltype=cv2.CV_16U)
    except cv2.error:
        n, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return n, lab, stats
