"""Shadows read as pieces: a vivid piece's tinted shadow, a shadow leaning off its caster, and
the shadows opaque pieces cast across the table in the scene's light.

Frames: table mm (+y away from the viewer) for poses; view px (y down) for maps.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceSet
from armada_vision.vision.colors import classify_color, piece_color_stats
from armada_vision.vision.fit import lying_local_3d
from armada_vision.vision.hands import outline_inside, ring_outside
from armada_vision.vision.look import BARE_CHROMA, colour_namer
from armada_vision.vision.open_base import base_band, shades_in
from armada_vision.vision.order import median
from armada_vision.vision.scene import GOOD_COST, Candidate, Scene
from armada_vision.vision.segment import TableView

# Beside a large dark area (a hand's shadow: seeds 1266, 1351, 1675; a piece's shadow, a
# black piece by a marker: 1661, 1257) the table estimate is dragged down (its coarse cells
# average the dark in), and bare table there looks lit: brighter than the estimate, of its
# chromaticity, no colour of its own (lit_table, issue 4: those 5 false pieces of seeds
# 1144-1359 and 1648-1935, at σ 10-40 mm, ×1.10-1.40 the estimate, channel shares within
# 0.002). What tells the table from a piece is where the colour ends:
# a piece's at its outline, the lit table's goes on past it (share of a ring SKIN_RING_MM
# wide within LIT_SAME of the inside's colour plus the sensor's noise LIT_NOISE: 0.57-0.72;
# the real pieces of the table's chromaticity brighter than the estimate, white ones on
# laminate, 0.41 at most; those whose colour goes on past them, 0.51-0.69, are no brighter
# than the estimate: ×0.92-0.99).
LIT_MIN_BRIGHT = 1.05
LIT_SAME = 0.08
LIT_NOISE = 6.0
LIT_RING_SHARE = 0.5
# A clear reading may be an opaque neighbour's cast shadow: the table with light taken away and
# a crisp side (the neighbour's edge), as a clear piece is (issue 4, session 37, false47; the
# 9712-set's 9791: a black large's shadow read as a clear small at σ 1.5 mm, cost 0.03). The
# light's direction is the scene's own: the offset of a shadow per mm of height (table mm / mm;
# CAST_ANGLES_DEG × CAST_LENGTHS, then CAST_FINE round the best) for which the slivers the good
# readings' bodies would cast past what the view shows of them (the readings' outlines as
# seen) hold the most shadow (each pixel counting CAST_DARK less its shade: dark ones for, lit
# ones against; drawn in a crop CAST_PAD_MM past the longest shadow; the CAST_CASTERS best fits
# only, to keep it cheap). A
# clear reading touching a neighbour of another colour (footprints within CAST_TOUCH_MM) with
# CAST_SHARE or more of its footprint in that neighbour's sliver is that shadow, unless it is
# darker than the rest of the sliver by a clear piece's two walls (below CAST_CLEAR_DIM of the
# rest's median shade, where the rest holds CAST_REST_PX pixels): a clear piece lying in the
# shadow darkens it further. On the rendered scenes the estimate comes out within 0.1 of the
# renderer's light (0.35, 0.45) where a black or white piece casts a clear shadow.
CAST_ANGLES_DEG = tuple(range(0, 360, 30))
CAST_LENGTHS = (0.3, 0.5, 0.7, 0.9)
CAST_FINE = ((-20.0, -10.0, 0.0, 10.0, 20.0), (-0.1, 0.0, 0.1))
CAST_PAD_MM = 1.0
CAST_CASTERS = 4
CAST_DARK = 0.85
# ... and a reading is that shadow only when its inside is darkened, its median shade below
# CAST_DARK: merged with clear47, the 8272-set's 8384, a clear small on cloth against a cyan
# large (shade 1.04 inside, the rest of the sliver 0.96: no shadow), was dropped; the shadows
# dropped are 0.58-0.80 inside.
CAST_TOUCH_MM = 2.0
CAST_SHARE = 0.6
CAST_CLEAR_DIM = 0.85
CAST_REST_PX = 20


def tinted_shadow(c: Candidate, scene: Scene, view: TableView, bg: np.ndarray) -> bool:
    """Whether ``c``, read on the unscaled map beside a dark piece, is a translucent piece's
    tinted shadow: darker than the table estimate (light taken away) and too dull for plastic
    (colour ``unknown``: the table lit through the plastic keeps a little of its hue; issue 4,
    seeds 1684 and 1798: smalls beside purple larges, ×0.73 the estimate, σ 11 and 36 mm).
    A piece that sank beside black plastic (seed 1082's orange small) is vivid."""
    stats = piece_color_stats(view, scene.footprint(c)[0], bg)
    if stats is None or float(stats[0].sum()) >= float(stats[1].sum()):
        return False
    return classify_color(view, scene.footprint(c)[0], bg) == "unknown"


def _cast_hull(c: Candidate, pieces: PieceSet, offset: tuple[float, float]) -> np.ndarray:
    """The corners (table mm) of what reading ``c``'s body and the shadow it casts cover on the
    table, the light's ``offset`` being the shadow's shift per mm of height."""
    local = lying_local_3d(pieces.dims(c.size))
    xy = c.fit.pose.to_table(local[:, :2])
    return np.vstack([xy, xy - local[:, 2:3] * np.asarray(offset, float)])


def cast_offset(scene: Scene, casters: list[Candidate], seen: list[np.ndarray]
                ) -> tuple[float, float] | None:
    """The light's offset (a shadow's shift per mm of height, table mm) for which the slivers
    ``casters`` would cast past the outlines as seen (``seen``, table mm) hold the most shadow
    (CAST_DARK), or None where no offset finds any."""
    assert scene.shade is not None
    grid = scene.grid
    reach = max(CAST_LENGTHS) + max(CAST_FINE[1])
    scale = np.array([grid.px_per_mm, -grid.px_per_mm])
    crops = []
    for c in sorted(casters, key=lambda c: c.fit.cost)[:CAST_CASTERS]:
        # The body's corners, and as far as its highest corner's shadow may reach.
        corners = _cast_hull(c, scene.pieces, (0.0, 0.0))[:5]
        height = lying_local_3d(scene.pieces.dims(c.size))[:, 2]
        pad = float(height.max()) * reach + CAST_PAD_MM
        (x0, y0), (x1, y1) = corners.min(axis=0) - pad, corners.max(axis=0) + pad
        sl, m = grid.polygon_crop([grid.to_px(np.array([[x0, y0], [x1, y0], [x1, y1],
                                                         [x0, y1]]))])
        if not m.any():
            continue
        at = np.array([sl[1].start, sl[0].start], float)
        shown = np.zeros(m.shape, np.uint8)
        cv2.fillPoly(shown, [np.round(grid.to_px(o) - at).astype(np.int32) for o in seen], 1)
        weight = ((CAST_DARK - scene.shade[sl]) * (m & (shown == 0))).astype(np.float32)
        raised = height > 0.0
        # View px are table mm scaled (ViewGrid.to_px): a corner's shadow is its px less
        # its height times the offset scaled.
        body = grid.to_px(corners) - at
        crops.append((body, body[raised], height[raised, None] * scale, weight,
                      np.zeros(m.shape, np.uint8)))
    if not crops:
        return None

    def held(angle_deg: float, length: float) -> float:
        offset = np.array([length * math.cos(math.radians(angle_deg)),
                           length * math.sin(math.radians(angle_deg))])
        total = 0.0
        for body, top, lift, weight, mask in crops:
            hull = cv2.convexHull((np.vstack([body, top - lift * offset]) + 0.5
                                   ).astype(np.int32))
            mask.fill(0)
            cv2.fillConvexPoly(mask, hull, 1)
            total += cv2.mean(weight, mask)[0] * cv2.countNonZero(mask)
        return total

    got = max((held(a, r), a, r) for a in CAST_ANGLES_DEG for r in CAST_LENGTHS)
    _, a0, r0 = got
    got = max([got] + [(held(a0 + da, r0 + dr), a0 + da, r0 + dr)
                       for da in CAST_FINE[0] for dr in CAST_FINE[1] if da or dr])
    if got[0] <= 0.0:
        return None
    return (got[2] * math.cos(math.radians(got[1])), got[2] * math.sin(math.radians(got[1])))


def cast_shadows(scene: Scene, view: TableView, bg: np.ndarray, lying: list[Candidate]
                 ) -> set[int]:
    """The ids of the clear readings in ``lying`` that are a neighbour's cast shadow
    (CAST_SHARE; the light's offset estimated from the good readings, :func:`cast_offset`)."""
    flat = [c for c in lying if not c.upright]

    def near(c: Candidate, o: Candidate) -> bool:
        (fc, (ax0, ay0, ax1, ay1)), (fo, (bx0, by0, bx1, by1)) = (scene.footprint(c),
                                                                  scene.footprint(o))
        gap = max(ax0 - bx1, bx0 - ax1, ay0 - by1, by0 - ay1)
        return gap <= CAST_TOUCH_MM and fc.distance(fo) <= CAST_TOUCH_MM

    pairs = [(c, o) for c in flat for o in flat if o is not c and near(c, o)]
    if not pairs or scene.shade is None:
        return set()
    name = colour_namer(scene, view, bg)
    pairs = [(c, o) for c, o in pairs if name(c) == "clear" and name(o) != "clear"]
    if not pairs:
        return set()
    tested = {id(c) for c, _ in pairs}
    casters = [c for c in flat if c.fit.cost <= GOOD_COST and id(c) not in tested]
    outlines = [np.asarray(c.outline_mm, float) for c in flat]
    if (offset := cast_offset(scene, casters, outlines)) is None:
        return set()
    seen = shapely.union_all([shapely.Polygon(o) for o in outlines])
    out: set[int] = set()
    for c, o in pairs:
        fp = scene.footprint(c)[0]
        sliver = shapely.MultiPoint(_cast_hull(o, scene.pieces, offset)).convex_hull.difference(
            scene.footprint(o)[0])
        if fp.intersection(sliver).area < CAST_SHARE * fp.area:
            continue
        rest = shades_in(scene, sliver.difference(fp).difference(seen))
        inside = shades_in(scene, fp)
        if not inside.size or float(median(inside)) >= CAST_DARK:
            continue  # not darkened: no shadow there (CAST_DARK)
        if (rest.size >= CAST_REST_PX
                and float(median(inside)) < CAST_CLEAR_DIM * float(median(rest))):
            continue
        out.add(id(c))
    return out


def lit_table(c: Candidate, scene: Scene, view: TableView, bg: np.ndarray) -> bool:
    """Whether ``c`` is bare table that looks lit beside a dark area: its inside's median colour
    of the table estimate's chromaticity (BARE_CHROMA) and brighter than it (LIT_MIN_BRIGHT),
    and the same colour going on past its outline as seen (over LIT_RING_SHARE of a ring
    outside it within LIT_SAME of the colour plus LIT_NOISE, view px)."""
    stats = piece_color_stats(view, scene.footprint(c)[0], bg)
    if stats is None:
        return False
    px, table = stats
    total = float(px.sum())
    if total < LIT_MIN_BRIGHT * float(table.sum()):
        return False
    chroma = px / max(total, 1.0) - table / max(float(table.sum()), 1.0)
    if float(np.abs(chroma).max()) > BARE_CHROMA:
        return False
    got = outline_inside(c, view)
    if got is None or base_band(scene, c):
        # Lit table has no open base: a white piece whose faces are the table's colour and
        # whose hollow steps down from the table behind and the face ahead in every lane is
        # plastic (5490's small, 5506's medium on laminate, cost 0.10 / 0.18, ring 0.5+).
        return False
    img, inside, box = got
    # The colour well inside the outline (off its blurred edge).
    core = cv2.erode(inside, np.ones((3, 3), np.uint8), iterations=2)
    ring = ring_outside(inside, view, box)
    if not core.any() or not ring.any():
        return False
    med = median(img[core > 0].astype(np.float32), axis=0)
    d = np.linalg.norm(img[ring > 0].astype(np.float32) - med, axis=1)
    return float(np.mean(d < LIT_SAME * float(np.linalg.norm(med)) + LIT_NOISE)) >= LIT_RING_SHARE
