"""What the view shows past a reading's stern: a piece's open base, a glint, a hollow, a
shadow's ring, and the passes that judge a reading by it (widening its σ to cover a longer
or shorter reading, or taking the longer reading in its place).

The camera sees into the raised, open base of a lying piece; its dark inside scores as
shadow, so a reading may end on the base's rim or on the face ahead of it. These tests look
at the view's shade in lanes across the base (:func:`base_band`) and at the outline past it.

Frames: table mm (+y away from the viewer); view px per :class:`ViewGrid`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.vision.fit import (
    ViewGrid,
    lying_local_3d,
    sample_map,
    seen_on_table,
)
from armada_vision.vision.order import median, percentile
from armada_vision.vision.scene import (
    GOOD_COST,
    HAND_EDGE_MM,
    STERN_IN_MM,
    SURE_GIVE_UP,
    TIP_SAME_MM,
    Candidate,
    Scene,
    _longer_from_tip,
    clashes,
    joint_cost,
    reading_gap,
    size_swaps,
)
from armada_vision.vision.segment import SHADOW_MIN

# A white piece's open base (issue 4): dark and colourless, it scores as shadow, so on the
# fit map a reading one size short (its stern on the base's front rim) beats the true one,
# whose stern samples find no edge. The longer reading with the same tip is taken when its
# stern samples (within BASE_END_MM of its stern) alone missed, the BASE_SIDE_MM of outline
# ahead of them is seen, and the view shows the base's shape where the camera sees it: its
# inside darker by BASE_STEP than the table behind its bottom edge and the face ahead of its
# rim, in each of BASE_LANES lanes across the inner BASE_ACROSS of its width (the whole base,
# rim to rim; a contact shadow is a soft wedge on one side). Seed 1025's large: 22 of 111
# samples missed, all at the stern, the rest cost 0.03; its base lanes 1.77-1.93. Of the 94
# pieces in size doubt on seeds 1000-1071, the longer readings that are wrong had lanes at
# most 0.98 (the one whose fit passed, 1059's yellow medium: 0.97), the right ones 1.19-1.77.
BASE_END_MM = 4.0
BASE_SIDE_MM = 8.0
MISS_COST = 2.0
BASE_STEP = 1.15
BASE_LANES = 5
BASE_ACROSS = 0.7
# ... or, when the base's own outline is not seen at all (seed 1015's white medium on
# laminate: the pale pass's crisp area marks a ring of table ~3 mm round the piece as object,
# so 12 of its 17 stern samples are hidden against it, and the base's rim is as bright as the
# laminate, so its sides miss for 8 mm ahead of the stern: 37 of 87 samples, cost 0.40), the
# outline from BASE_END_MM + BASE_SIDE_MM on is seen (nothing hidden, the first BASE_SIDE_MM
# of it at most GOOD_COST; 1015's medium: 50 samples, 0.08) and the base is darker by
# BASE_STEP_UNSEEN in every lane (1015's: 1.51-2.81; of the 20 longer readings of pieces in
# size doubt on seeds 1000-1071 whose far outline passes, the 16 wrong ones ≤ 0.98): the
# base alone tells the stern, so σ is at least BASE_UNSEEN_MM (1015's medium from its tip:
# 2.1 mm off, its tip as short).
BASE_STEP_UNSEEN = 1.4
BASE_UNSEEN_MM = 3.0
# A glint past a piece's tip (issue 4, seed 1019): a bright streak on the table beside a
# cyan small, 2.0-3.0 x the table's light where the piece's faces reach 1.6 (90th
# percentile), is foreground, so the small's tip samples are hidden against it and count as
# misses (joint cost 0.53), while a medium stretched over the streak costs 0.55 and explains
# more of the region. In a doubtful piece of doubtful size, a shorter reading's hidden
# samples whose outside is brighter than GLINT_MIN x the table and GLINT_OVER x the
# reading's own faces (90th percentile of the shade inside it) are excused: light the
# plastic there does not give off. It is taken when it is then good (the small: 0.07) and
# at least GLINT_SHARE of what the longer piece adds to it is that bright (0.39; the three
# good pieces of seeds 1000-1071 with a shorter reading good once excused: <= 0.16).
GLINT_MIN = 1.8
GLINT_OVER = 1.3
GLINT_SHARE = 0.25
# A lying reading whose open base the camera would see at least NO_BASE_DEPTH_MM deep (its
# rim seen that far past its stern corners on the table) but where the view there is brighter
# than the table behind and the face ahead (base lanes, see BASE_STEP, at most NO_BASE_LANES
# in the median lane) shows plastic, not an open base: a standing piece is tried in its place
# (issue 4, check seed 1059: a standing white small read as a lying small at cost 0.348, its
# "base" 13 mm deep at 0.31; the standing small fits at 0.44, 0.3 mm from the truth). Of the
# lying pieces found alone in their regions on seeds 1000-1071, no other with a base seen
# 8 mm deep or more had a median lane <= 0.7 (white ones 0.89-2.99: dark open bases); from
# 5 mm deep three did (two true ones at 0.65, standing fits 0.95 and 1.36; a doubtful small
# at 0.26, standing 0.97).
NO_BASE_DEPTH_MM = 8.0
NO_BASE_LANES = 0.5
# A reading whose open base is the face ahead of it (issue 4, sure11): a white piece on a
# pale table shows the camera little but its open base, dark, and the lit face ahead of it.
# A reading one size short from the same tip (seeds 1902, 1907 of the set from 1648) ends
# on that face, just ahead of the open base, and fits well (0.22-0.24: the base scores as
# shadow, the table past it as nothing), while the true size pays for its faint faces
# (0.51-0.78). But where the camera would see FACE_BASE_DEPTH_MM or more into the short
# reading's base, the view shows no step from the face ahead of it (the face's shade over
# the "base's" below BASE_STEP: 0.97-0.99; a right reading's open base is darker than its
# face, 1.9-3.6 on 1685's white mediums), and a longer reading from the same tip shows its
# open base there (:func:`shows_open_base`): the stern is not seen, so σ covers the longer
# reading (:func:`face_for_base`).
FACE_BASE_DEPTH_MM = 4.0
# ... and when that reading is in size doubt, the longer size swap from its tip that shows
# the open base is taken in its place (issue 4, size33): a piece one size short, its stern
# on the base's raised rim, read by any pass (main, hand-region tips, unscaled re-read,
# sunk plastic), on any colour. On the 6544-set (288 scenes), of the readings whose own base
# as seen shows no step to the face ahead (FACE_BASE_DEPTH_MM deep or more), the longer
# swaps at the truth's size had a median base lane of 1.13-6.19 (8: 6575, 6629, 6643, 6676,
# 6711, 6727, 6734, 6745, each 0.3-2.5 mm from the true stern) and the wrong ones at most
# 1.00 (32; 0.98 on seeds 1000-1071, see BASE_STEP): FACE_BASE_LANE lies between. The swap
# must fit cleanly too: its own cost, its cost with the open base's stern misses left out
# (open_base_cost) or past the base (_seen_past_base) at most GOOD_COST (the right ones
# 0.01-0.34; 1157's clear medium, set from 1144, has a longer reading whose lanes come to
# 1.40 but fits at 0.79). Its σ keeps the shorter reading as rival: the base, not the fit,
# tells the size.
# face_for_base's doubt asks the same of the longer swaps (session 26): 4661's green medium on
# green felt (tuning pool), read as a small at σ 0.5 mm, its medium from the tip at lane 1.18,
# under BASE_STEP_UNSEEN, was trusted one size short.
# Asked from FACE_LONGER_DEPTH_MM into the shorter reading's base: two more right swaps lie
# at 3.3 and 3.8 mm (6756's purple large read as a small, 6629's white medium), and the wrong
# swaps from 2.0 to 4.0 mm also had median lanes of at most 1.00 (30 on the same set).
FACE_BASE_LANE = 1.1
FACE_LONGER_DEPTH_MM = 3.0


def _open_base(scene: Scene, c: Candidate, others: list[Candidate]) -> Candidate | None:
    """The reading of the next longer size with ``c``'s tip (the size swap's fit, tip within
    TIP_SAME_MM) when ``c``'s stern lies on its open base (see BASE_END_MM), overlapping none
    of ``others``, with its cost without the stern's misses and σ at least HAND_EDGE_MM (its
    stern was read on the view, not fitted); else None."""
    by_length = scene.by_length
    if c.size is by_length[-1]:
        return None
    z = by_length[by_length.index(c.size) + 1]
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    d_z = scene.pieces.dims(z).footprint_length_mm
    tip = np.asarray(c.fit.pose.tip_mm(d_c))
    # The size swap's fit (finish made it: answered from memory).
    o = scene.fit(z, Pose.with_tip(tip, c.fit.pose.heading_deg, d_z), give_up=SURE_GIVE_UP)
    if (len(o.fit.sample_cost) == 0 or math.dist(o.fit.pose.tip_mm(d_z), tip) > TIP_SAME_MM
            or clashes(o, others, scene)):
        return None
    cost, step, sigma = open_base_cost(o), BASE_STEP, HAND_EDGE_MM
    if cost > GOOD_COST:
        cost, step, sigma = _seen_past_base(o), BASE_STEP_UNSEEN, BASE_UNSEEN_MM
    if cost > GOOD_COST or not base_band(scene, o, step):
        return None
    # Its stern misses are the open base's, not doubt: the cost is the rest's.
    return replace(o, fit=replace(o.fit, cost=cost), ambiguity_mm=sigma,
                   covering_ambiguity_mm=sigma)


def past_stern_mm(c: Candidate) -> np.ndarray:
    """How far each of ``c``'s outline samples lies past its stern along its axis (table mm)."""
    return (c.fit.probe_mm - np.asarray(c.fit.pose.stern_mm)) @ np.asarray(c.fit.pose.direction)


def open_base_cost(c: Candidate, excused: np.ndarray | None = None) -> float:
    """``c``'s cost with the samples of its stern end (within BASE_END_MM of the stern along
    the axis) that found no edge (cost at least MISS_COST) left out, when its sides are seen
    right up to that end (cost at most GOOD_COST over the next BASE_SIDE_MM, nothing hidden
    there); else 99. ``excused`` flags the hidden samples to leave out (an edge against a
    piece found); the other hidden ones count as misses. Without it, any hidden sample gives
    99. An open base hides the stern edge on the map two ways: a clear piece's shows the
    bare wood (seed 1026's large: 26 stern samples missed, cost 0.59, the rest 0.16), a white
    piece's scores as shadow (see BASE_END_MM); a reading longer than the piece has no sides
    there."""
    sc = c.fit.sample_cost
    t = past_stern_mm(c)
    hidden = np.isnan(sc)
    if excused is None:
        if hidden.any():
            return 99.0
        excused = np.zeros(len(sc), bool)
    cost = np.where(hidden, MISS_COST * ~excused, sc)
    side = (t >= BASE_END_MM) & (t < BASE_END_MM + BASE_SIDE_MM)
    if not side.any() or np.any(hidden[side] & ~excused[side]) or cost[side].mean() > GOOD_COST:
        return 99.0
    keep = ~((t < BASE_END_MM) & ~hidden & (sc >= MISS_COST)) & ~(hidden & excused)
    return float(cost[keep].mean()) if keep.any() else 99.0


def _seen_past_base(c: Candidate) -> float:
    """``c``'s cost over its outline from BASE_END_MM + BASE_SIDE_MM past the stern on (the
    base's part left out, seen or not), when nothing there is hidden and its first
    BASE_SIDE_MM costs at most GOOD_COST; else 99."""
    sc = c.fit.sample_cost
    t = past_stern_mm(c)
    far = t >= BASE_END_MM + BASE_SIDE_MM
    side = far & (t < BASE_END_MM + 2 * BASE_SIDE_MM)
    if not side.any() or np.isnan(sc[far]).any() or sc[side].mean() > GOOD_COST:
        return 99.0
    return float(sc[far].mean())


def base_band(scene: Scene, c: Candidate, step: float = BASE_STEP) -> bool:
    """Whether the view shows ``c``'s open base where the camera sees it (the base face's
    corners through the camera onto the table): inside it, over the inner BASE_ACROSS of its
    width, darker by ``step`` than the table just behind its bottom edge and the face just
    ahead of its top rim, in each of BASE_LANES lanes across (medians along each lane)."""
    lanes = _base_lanes(scene, c)
    return lanes is not None and bool(np.all(lanes >= step))


def _base_seen(scene: Scene, c: Candidate) -> np.ndarray:
    """The corners of lying ``c``'s base face as the camera sees them on the table (mm, 4×2):
    its two stern corners, then its raised rim's two."""
    return _base_seen_at(scene, c.size, c.fit.pose)


def _base_seen_at(scene: Scene, size: Size, p: Pose) -> np.ndarray:
    """:func:`_base_seen` of a lying piece of ``size`` at pose ``p`` (table mm)."""
    return seen_on_table(lying_local_3d(scene.pieces.dims(size))[[0, 1, 3, 4]],
                         np.array([p.x_mm, p.y_mm, math.radians(p.heading_deg)]),
                         scene.camera_mm)


def _base_lanes(scene: Scene, c: Candidate) -> np.ndarray | None:
    """Per lane across ``c``'s open base as seen: min(table behind, face ahead) over the
    base's inside (shade medians along the lane); None without a shade map."""
    got = _base_shades(scene, c)
    if got is None:
        return None
    behind, inside, ahead = got
    return np.minimum(behind, ahead) / np.maximum(inside, 1e-3)


def base_lanes_beside(scene: Scene, c: Candidate, others: Sequence[Candidate]
                      ) -> np.ndarray | None:
    """:func:`_base_lanes` of lying ``c``, where a lane whose table behind (both its points)
    lies within the outline as seen of one of ``others`` (pieces found) is the face ahead over
    the inside alone: behind it is that piece, no table (its faces or its shadow may be as
    dark as the hollow: issue 4, white34, the 6832-set's 6857, a white small whose stern
    touches a red large, its lanes behind 0.36-0.67 of the table's light, inside 0.35-0.42,
    ahead 1.0: one lane 0.99)."""
    got = _base_shades(scene, c)
    if got is None:
        return None
    behind, inside, ahead = got
    q = _base_seen(scene, c)
    pts = _behind_points(q, np.asarray(c.fit.pose.direction)).reshape(-1, 2)
    near = [o for o in others if scene.grown_outline(o).intersects(
        shapely.MultiPoint(pts).envelope)]
    on = np.zeros(len(pts), bool)
    for o in near:
        on |= shapely.contains_xy(scene.grown_outline(o), pts[:, 0], pts[:, 1])
    piece_behind = on.reshape(-1, BASE_LANES).all(axis=0)
    return np.where(piece_behind, ahead, np.minimum(behind, ahead)) / np.maximum(inside, 1e-3)


def _lane_ends(q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each lane's end on the table (the stern corners' edge) and at the raised rim as seen
    (BASE_LANES × 2 each, table mm) of a base seen at corners ``q`` (:func:`_base_seen`)."""
    lanes = 0.5 + np.linspace(-BASE_ACROSS, BASE_ACROSS, BASE_LANES) / 2
    return q[0] + np.outer(lanes, q[1] - q[0]), q[2] + np.outer(lanes, q[3] - q[2])


def _behind_points(q: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The table just behind each lane's stern end (2 × BASE_LANES × 2, table mm) of a base
    seen at corners ``q``, ``u`` the piece's heading (unit vector)."""
    bottom = _lane_ends(q)[0]
    return np.stack([bottom - k * STERN_IN_MM * u for k in (1.0, 2.0)])


def _base_shades(scene: Scene, c: Candidate
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Per lane across ``c``'s open base as seen (see BASE_LANES): the shade medians of the
    table just behind its bottom edge, of its inside and of the face just ahead of its rim;
    None without a shade map."""
    return _base_shades_at(scene, c.size, c.fit.pose)


def _base_shades_at(scene: Scene, size: Size, p: Pose
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`_base_shades` of a lying piece of ``size`` at pose ``p`` (table mm), remembered
    in the scene: a reading's lanes are asked by several rules (36 of 109 asks on the cost
    bench's 8 scenes were repeats). The answer is a function of the shade map, the grid, the
    camera, the piece set, the size and the pose's three numbers alone; a scene made from this
    one by dataclasses.replace shares its memory, so those four are kept with the answer and
    compared by identity. The arrays are read-only: every caller only reads them."""
    if scene.shade is None:
        return None
    key = ("base_shades", size, p.x_mm, p.y_mm, p.heading_deg)
    got = scene._shapes.get(key)
    if got is not None and all(a is b for a, b in zip(  # type: ignore[call-overload]
            got[:4], (scene.shade, scene.grid, scene.camera_mm, scene.pieces), strict=True)):
        return got[4]  # type: ignore[index]
    shades = _base_shades_worked(scene, size, p)
    for a in shades:
        a.flags.writeable = False
    scene._shapes[key] = (scene.shade, scene.grid, scene.camera_mm, scene.pieces, shades)
    return shades


def _base_shades_worked(scene: Scene, size: Size, p: Pose
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_base_shades_at` worked out (``scene.shade`` not None)."""
    assert scene.shade is not None
    q = _base_seen_at(scene, size, p)
    bottom, top = _lane_ends(q)  # on the table (stern corners); the raised rim as seen
    u = np.asarray(p.direction)

    def lane_median(pts: np.ndarray) -> np.ndarray:
        px = scene.grid.to_px(pts.reshape(-1, 2))
        vals = sample_map(scene.shade, px[:, 0], px[:, 1]).reshape(-1, BASE_LANES)
        return median(vals, axis=0)

    inside = lane_median(np.stack([bottom + f * (top - bottom) for f in (0.3, 0.5, 0.7)]))
    behind = lane_median(_behind_points(q, u))
    # Ahead of the rim: towards the tip from whichever of the two edges lies nearer it.
    front = np.where(((top - bottom) @ u)[:, None] > 0, top, bottom)
    ahead = lane_median(np.stack([front + k * STERN_IN_MM * u for k in (1.0, 2.0)]))
    return behind, inside, ahead


def _glint_tip(scene: Scene, c: Candidate, cands: list[Candidate], others: list[Candidate]
               ) -> Candidate | None:
    """The best shorter reading of ``c`` (of ``cands`` and its size swaps, overlapping none
    of ``others``) that is good once its hidden samples against a glint are excused (outside
    brighter than GLINT_MIN x the table and GLINT_OVER x its own faces), with at least
    GLINT_SHARE of ``c``'s extra area as bright: that reading, its cost the excused one and
    σ at least HAND_EDGE_MM (its tip edge is hidden, read from its sides); else None."""
    if scene.shade is None:
        return None
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    best, best_cost = None, min(GOOD_COST, c.fit.cost)
    for o in cands + size_swaps(scene, c):
        if (o.upright or len(o.fit.sample_cost) == 0
                or scene.pieces.dims(o.size).footprint_length_mm >= d_c
                or not clashes(o, [c], scene) or clashes(o, others, scene)
                or _adds_past_stern(scene, c, o)):
            continue
        hidden = np.isnan(o.fit.sample_cost)
        if not hidden.any():
            continue
        sl, m = scene.grid.inner_crop(shapely.Polygon(o.outline_mm), 0.8)
        if not m.any():
            continue
        bright = max(GLINT_MIN, GLINT_OVER * float(percentile(scene.shade[sl][m], 90)))
        p = scene.grid.to_px(o.fit.probe_mm)
        glint = hidden & (sample_map(scene.shade, p[:, 0], p[:, 1]) >= bright)
        cost = joint_cost(o, others, scene, excused=glint)
        if cost <= best_cost and _glint_share(scene, c, o, bright) >= GLINT_SHARE:
            best, best_cost = o, cost
    if best is None:
        return None
    return replace(best, fit=replace(best.fit, cost=best_cost), ambiguity_mm=HAND_EDGE_MM,
                   covering_ambiguity_mm=HAND_EDGE_MM, ambiguity_deg=0.0,
                   covering_ambiguity_deg=0.0)


# What a longer reading adds past a shorter one's stern is no glint past a tip but the piece's
# own stern (issue 4, the 7984-set's 8138: a clear large on felt, 22-35°, its base face seen
# lit beside a white medium's tip, fitted at its true pose at 0.36; a medium from its tip,
# 8.8 mm shorter at the stern, excused its hidden stern samples against the lit base and was
# taken at 0.20, σ 1.5 mm, a trusted wrong size). :func:`_glint_tip` takes a shorter reading
# only when its stern lies nearer the longer one's stern than its tip to the longer one's tip.
def _adds_past_stern(scene: Scene, c: Candidate, o: Candidate) -> bool:
    """Whether what the longer reading ``c`` adds to the shorter ``o`` lies past ``o``'s
    stern rather than its tip: their sterns farther apart than their tips (table mm)."""
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    d_o = scene.pieces.dims(o.size).footprint_length_mm
    return (math.dist(o.fit.pose.stern_mm, c.fit.pose.stern_mm)
            > math.dist(o.fit.pose.tip_mm(d_o), c.fit.pose.tip_mm(d_c)))


def _glint_share(scene: Scene, c: Candidate, o: Candidate, bright: float) -> float:
    """Share of what ``c``'s outline as seen adds to ``o``'s (grown by 1 mm) whose shade
    is at least ``bright``."""
    extra = shapely.Polygon(c.outline_mm).difference(shapely.Polygon(o.outline_mm).buffer(1.0))
    vals = shades_in(scene, extra)
    return float((vals >= bright).mean()) if vals.size else 0.0


def crop_in(scene: Scene, poly_mm: shapely.Geometry
            ) -> tuple[tuple[slice, slice], np.ndarray] | None:
    """The view's crop (row and column slices) round a polygon or multipolygon (table mm)
    and its bool mask (parts too thin for a pixel left out); None when it has no part."""
    polys = [np.round(scene.grid.to_px(np.asarray(g.exterior.coords)))
             for g in getattr(poly_mm, "geoms", [poly_mm])
             if isinstance(g, shapely.Polygon) and not g.is_empty]
    return scene.grid.polygon_crop(polys) if polys else None


def values_in(scene: Scene, view_map: np.ndarray | None, poly_mm: shapely.Geometry
              ) -> np.ndarray:
    """A view-size map's values inside a polygon or multipolygon (table mm; parts too thin
    for a pixel left out); empty where none is (or without a map)."""
    if view_map is None or (got := crop_in(scene, poly_mm)) is None:
        return np.empty(0)
    sl, mask = got
    return view_map[sl][mask]


def shades_in(scene: Scene, poly_mm: shapely.Geometry) -> np.ndarray:
    """The view's shades (brightness over the table's estimate) inside a polygon or
    multipolygon (table mm; parts too thin for a pixel left out); empty where none is."""
    return values_in(scene, scene.shade, poly_mm)


def shows_no_base(scene: Scene, c: Candidate) -> bool:
    """Whether the view contradicts lying ``c``: the camera would see into its open base at
    least NO_BASE_DEPTH_MM deep, but the view there is brighter than round it (median base
    lane at most NO_BASE_LANES): a face of plastic, as a standing piece shows."""
    if c.upright:
        return False
    if _base_depth_mm(scene, c) < NO_BASE_DEPTH_MM:
        return False
    lane = _median_base_lane(scene, c)
    return lane is not None and lane <= NO_BASE_LANES


def _base_depth_mm(scene: Scene, c: Candidate) -> float:
    """How far lying ``c``'s raised rim is seen past its stern corners on the table, along
    its axis (mm; negative: its base turned away from the camera)."""
    q = _base_seen(scene, c)
    return float((q[2] + q[3] - q[0] - q[1]) @ np.asarray(c.fit.pose.direction)) / 2


def face_for_base(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover each of
    its longer size swaps from its tip that shows its open base (median lane at least
    FACE_BASE_LANE; a piece read in that base, 1902's false black small, does not rule it
    out: only σ grows), when its stern lies on the face ahead of its base
    (:func:`face_ahead_of_base`)."""
    if not face_ahead_of_base(scene, c):
        return c
    return covering_open_bases(scene, c, _longer_from_tip(scene, c), FACE_BASE_LANE)


def face_ahead_of_base(scene: Scene, c: Candidate, depth_mm: float = FACE_BASE_DEPTH_MM
                       ) -> bool:
    """Whether the camera sees at least ``depth_mm`` into lying ``c``'s open base and the view
    shows there the face ahead of it (no BASE_STEP between them, median over the lanes):
    ``c``'s stern may lie on the piece, not at its end."""
    if c.upright or scene.shade is None or _base_depth_mm(scene, c) < depth_mm:
        return False
    _behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    return _face_over_base(inside, ahead) < BASE_STEP


# A vivid reading of its coloured table's hue whose base as seen is the face ahead of an open
# base (face_ahead_of_base) is in doubt in size (detect's note after HUED_MIN_COST), but only
# when under TABLE_SAT_SEP more saturated than the table: a more saturated piece keeps its
# colour in the shade, so its hollow was thought to show. Its "base" may still be its own lit
# face: the face ahead lit FACE_LIT_AS_INSIDE or more of the "inside" (issue 4, session 53,
# trust63: the 14896-set's 15047, a green medium on green felt, saturation 225 on 164, read
# as a small at σ 0.45 mm, its stern 6.8 mm ahead: 1.01). A base that glows, as vivid
# plastic's lit base does, is brighter than the face ahead: the right trusted green small of
# 15063 on the same felt (0.81) and the 5968-set's 6143, a blue medium on cloth (0.83). Over
# the 14896, 14032 and 14608 sets (felt, cloth and wood) the readings so asked lay at 1.00-1.01
# (15047; 14032-set 14179, an orange medium on wood on a large) and the right ones at 0.58-0.94:
# a thin margin below, the 14608-set's 14813, a right red small on wood at 0.94 (in doubt
# already, σ 9.3 mm).
FACE_LIT_AS_INSIDE = 0.95


def face_lit_as_inside(scene: Scene, c: Candidate) -> bool:
    """Whether the face ahead of lying ``c``'s open base as seen is lit at least
    FACE_LIT_AS_INSIDE of its inside (median over the base lanes): its "base" its own face."""
    got = _base_shades(scene, c)
    return got is not None and _face_over_base(got[1], got[2]) >= FACE_LIT_AS_INSIDE


def longer_past_face(scene: Scene, c: Candidate, others: list[Candidate]) -> Candidate:
    """``c`` or, when it is in size doubt and its stern lies on the piece's face just ahead
    of an open base (see FACE_BASE_LANE), the longer size swap from its tip that shows that
    base (median lane at least FACE_BASE_LANE), fits cleanly (see FACE_BASE_LANE) and
    overlaps none of ``others``; of several, the one whose base shows most. Its σ covers
    ``c``, which stays its rival: the reading is never trusted. Asked from
    FACE_LONGER_DEPTH_MM into ``c``'s base as seen."""
    if c.ambiguity_mm <= 0.0 or not face_ahead_of_base(scene, c, FACE_LONGER_DEPTH_MM):
        return c
    return _longer_showing_base(scene, c, others) or c


# A clear piece read short from its tip, its stern on the face just ahead of its open base,
# fits that face cleanly: no other size near as good, so not in size doubt, and the camera
# sees too little into the short reading's "base" for longer_past_face (issue 4, sizeclear59:
# the 13744-set's 13991, a clear medium on green felt at 1280×720, 0-10°, read as a small at
# cost 0.11, σ 0.65 mm, trusted; its base seen 2.0 mm deep, face over base 1.02, no step; the
# medium from its tip shows its open base at lane 1.23 and fits past the base at 0.04). A
# clear reading shorter than the longest, seen CLEAR_FACE_DEPTH_MM or more into its base with
# no step to the face ahead, takes the longer swap from its tip that shows its open base (as
# longer_past_face asks it: lane at least FACE_BASE_LANE, a clean fit, no clash), in doubt.
# The wrong swaps of size33's 6544-set seen 2.0-4.0 mm deep had lanes of at most 1.00.
CLEAR_FACE_DEPTH_MM = 1.5


def clear_longer_past_face(scene: Scene, c: Candidate, others: list[Candidate]
                           ) -> Candidate | None:
    """For a clear reading ``c`` (in size doubt or not) whose stern lies on the face ahead of
    an open base seen CLEAR_FACE_DEPTH_MM deep or more, the longer swap from its tip that
    shows that base (see longer_past_face), its σ covering ``c``; else None."""
    if c.size == scene.by_length[-1] or not face_ahead_of_base(scene, c, CLEAR_FACE_DEPTH_MM):
        return None  # (the longest has no longer swap: its base is not asked)
    return _longer_showing_base(scene, c, others)


def _longer_showing_base(scene: Scene, c: Candidate, others: list[Candidate]
                         ) -> Candidate | None:
    """Of ``c``'s longer swaps from its tip that show their open base (median lane at least
    FACE_BASE_LANE), fit cleanly and overlap none of ``others``, the one whose base shows
    most, its ambiguity ``c``'s gap from it; None if none does."""
    best, best_lane = None, FACE_BASE_LANE
    for o in _longer_from_tip(scene, c):
        lane = _median_base_lane(scene, o)
        if (lane is None or lane < best_lane
                or min(o.fit.cost, open_base_cost(o), _seen_past_base(o)) > GOOD_COST
                or clashes(o, others, scene)):
            continue
        best, best_lane = o, lane
    if best is None:
        return None
    gap_mm, gap_deg = reading_gap(scene, best, c)
    return replace(best, ambiguity_mm=gap_mm, ambiguity_deg=gap_deg,
                   covering_ambiguity_mm=gap_mm, covering_ambiguity_deg=gap_deg)


def shows_open_base(scene: Scene, c: Candidate, lane_min: float = BASE_STEP_UNSEEN) -> bool:
    """Whether the view shows lying ``c``'s open base where the camera sees into it: darker by
    ``lane_min`` than the table behind and the face ahead (median base lane)."""
    lane = None if c.upright else _median_base_lane(scene, c)
    return lane is not None and lane >= lane_min


# A lying piece heading away from the camera shows its open base below the face ahead of its
# rim even where shows_open_base (both sides by BASE_STEP_UNSEEN) does not: the table behind
# no lighter than the hollow (a pale piece on dark felt), or a dark face ahead lighter by less
# than BASE_STEP_UNSEEN. A standing piece read lying there shows one plane face across its
# "base" and the face ahead (issue 4, session 26, vivid34: the 6832-set's 6885 yellow small
# on felt and 6979 red small on wood, read lying 0.2 mm off and then taken as standing: face
# over base 1.79 and 1.32, table behind 1.11 and 2.54; the 11 standing pieces
# _standing_read_lying met on the upright scenes of the 5392-, 5680-, 6256-, 6544- and
# 6832-sets: 0.99-1.21).
FACE_OVER_BASE = 1.3


def shows_base_below_face(scene: Scene, c: Candidate) -> bool:
    """Whether the view shows lying ``c``'s open base darker by FACE_OVER_BASE than the face
    ahead of its rim (median over the base lanes), whatever the table behind it."""
    got = None if c.upright else _base_shades(scene, c)
    return got is not None and _face_over_base(got[1], got[2]) >= FACE_OVER_BASE


def _face_over_base(inside: np.ndarray, ahead: np.ndarray) -> float:
    """The face ahead of a base's rim over its inside, median over the base lanes (shades)."""
    return float(median(ahead / np.maximum(inside, 1e-3)))


def _median_base_lane(scene: Scene, c: Candidate) -> float | None:
    lanes = _base_lanes(scene, c)
    return None if lanes is None else float(median(lanes))


# A white piece whose open base faces the camera on a pale table shows little but the base:
# a dark hollow, read as a dark piece of its own, one or two sizes short and turned (issue 4,
# seeds 1651, 1884, 1911: white larges read as a black small at cost 0.43, a clear small at
# 0.51, a black medium at 0.47, σ 3.5-4.9 mm). The hollow as seen is the base face's
# quadrilateral, its edge nearest the camera the piece's stern: a dark area (shade under
# SHADOW_MIN) that fills its bounding rectangle (HOLLOW_FILL or more; 0.89-0.96 on the
# three), where a dark lying piece shows its triangle beside its base (1670's and 1719's
# black smalls, read doubtfully: 0.63, 0.76). Its near edge spans the base inside the walls'
# bright cut edges (WALL_MM each side: 22.0-23.4 mm on the three larges, 25.4 - 2.6
# expected). So for a doubtful reading (HOLLOW_COST or worse) whose dark area is such a
# quadrilateral, a longer size whose hollow that edge matches (within HOLLOW_WIDTH_MM, under
# half the 5.5 mm between sizes), headed away from the camera from that edge and showing its
# open base there (:func:`shows_open_base`), is covered by σ (:func:`hollow_of_longer`).
# The size is not changed: the tip is unseen.
# The near edge is the nearer of each pair of opposite sides, each asked with the width test:
# from a camera off to the piece's side the hollow's depth edge can lie nearer than its stern
# edge (issue 4, wb32: seed 6376's white large, 46 degrees off the line to the
# camera's foot, read as a small at cost 0.43, σ 3.0 mm; its dark area 8.2 x 24.1 mm, the
# 8.2 mm side the nearer by its midpoint, so no size's hollow matched and σ stayed short).
# Asked from GOOD_COST, where a fit turns doubtful (it was 0.4): 6964's white large (issue 4,
# white34; 0-10°, laminate) read as a small over its hollow and shaded face at a joint cost of
# 0.37, σ 1.5 mm, its dark area 8.9 x 23.2 mm, the large's hollow (22.8 mm inside its walls).
HOLLOW_COST = GOOD_COST
HOLLOW_FILL = 0.85
HOLLOW_WIDTH_MM = 2.5
WALL_MM = 1.3
# The base face stands up from the table, so on the table's plane the hollow is a
# parallelogram: its stern edge on the table, the edges up from it leaning away from the
# camera's foot. Seen from in front of the base that is a rectangle; seen from off to its side
# it is sheared, and fills its bounding rectangle no better than a black piece's triangle and
# base do (issue 4, trust56: the 12880-set's 12956, a white medium on laminate at 22-35°, the
# camera 75° off its heading, its hollow read as a black small at cost 0.41, σ 3.5 mm, 21 mm
# off at its tip, a reading the rules would trust: its dark area fills its rectangle 0.78,
# under 1719's black small's 0.76 + the margin). So a dark area that fails the rectangle is
# asked as a parallelogram: its hull cut to HOLLOW_QUAD_CORNERS corners (cv2.approxPolyDP,
# HOLLOW_QUAD_EPS_MM), opposite sides within HOLLOW_WIDTH_MM of each other as vectors, the
# area at least HOLLOW_FILL of it. 12956's: four sides of 14.8-15.6 mm between pixel centres
# (the medium's hollow, 17.2 mm inside its walls, less a pixel: 16.5), filled 1.12 (pixel
# area over the centres' quadrilateral). Its stern edge is then the nearer of each pair, as for
# a rectangle, and the piece heads along that edge's normal into the area (the way from that
# edge's middle to the centre is the lean, not the heading, once sheared).
HOLLOW_QUAD_CORNERS = 4
HOLLOW_QUAD_EPS_MM = 1.0


def hollow_of_longer(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with its size ambiguity raised to cover each longer lying piece whose open base,
    as the camera sees it, is ``c``'s dark area (see HOLLOW_FILL)."""
    if c.upright or scene.shade is None or c.fit.cost < HOLLOW_COST:
        return c
    pts = _dark_area(scene, c)
    if pts is None:
        return c
    rect = _dark_rect(scene, pts)
    if rect is not None:
        box, centre, sheared = cv2.boxPoints(rect).astype(np.float64), np.asarray(rect[0]), False
    elif (quad := _dark_parallelogram(scene, pts)) is not None:
        box, centre, sheared = quad, quad.mean(axis=0), True
    else:
        return c
    mids = (box + np.roll(box, -1, axis=0)) / 2
    dist = np.linalg.norm(mids - scene.camera_mm[:2], axis=1)
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    others = []
    # The near edge of each pair of opposite sides (see HOLLOW_COST).
    for k in (0 if dist[0] <= dist[2] else 2, 1 if dist[1] <= dist[3] else 3):
        edge = box[(k + 1) % 4] - box[k]
        width = float(np.linalg.norm(edge))
        ahead = centre - mids[k]
        if sheared:
            # Along the edge's normal into the area (HOLLOW_QUAD_CORNERS' note).
            normal = np.array([-edge[1], edge[0]])
            ahead = normal if normal @ ahead >= 0 else -normal
        heading = math.degrees(math.atan2(ahead[1], ahead[0]))
        stern = Pose(float(mids[k][0]), float(mids[k][1]), heading)
        others += [scene.fit(z, stern, iterations=0) for z in scene.by_length
                   if scene.pieces.dims(z).footprint_length_mm > d_c
                   and abs(scene.pieces.dims(z).base_w_mm - 2 * WALL_MM - width)
                   <= HOLLOW_WIDTH_MM]
    return covering_open_bases(scene, c, others)


def near_edges(grid: ViewGrid, pts_mm: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Whether each of ``pts_mm`` ((N, 2) table mm) lies within a pixel (its 3×3
    neighbourhood on ``grid``'s view) of a crisp edge (``edges``: view-size bool); points off
    the view count as without. The edges grown by a pixel, looked up at the points only."""
    px = np.round(grid.to_px(pts_mm)).astype(np.intp)
    rows, cols = edges.shape
    hit = np.zeros(len(px), bool)
    for du in (-1, 0, 1):
        for dv in (-1, 0, 1):
            u, v = px[:, 0] + du, px[:, 1] + dv
            ok = (u >= 0) & (v >= 0) & (u < cols) & (v < rows)
            hit[ok] |= edges[v[ok], u[ok]]
    return hit


def covering_open_bases(scene: Scene, c: Candidate, others: Iterable[Candidate],
                         lane_min: float = BASE_STEP_UNSEEN) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover each of
    ``others`` whose open base the view shows (:func:`shows_open_base` at ``lane_min``)."""
    amb = np.array([c.ambiguity_mm, c.ambiguity_deg])
    for o in others:
        if shows_open_base(scene, o, lane_min):
            amb = np.maximum(amb, reading_gap(scene, o, c))
    if amb[0] <= c.ambiguity_mm and amb[1] <= c.ambiguity_deg:
        return c
    return c.in_doubt_of(float(amb[0]), float(amb[1]))


def _dark_area(scene: Scene, c: Candidate) -> np.ndarray | None:
    """The pixel centres (N×2 table mm) of the dark area (shade under SHADOW_MIN) that most
    overlaps ``c``'s outline; None where none does."""
    assert scene.shade is not None
    px = scene.grid.to_px(np.asarray(c.outline_mm))
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int) - 40, 0)
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 40
    shade = scene.shade[y0:y1, x0:x1]
    mask = np.zeros(shade.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(px - (x0, y0)).astype(np.int32)], 1)
    n, lab = cv2.connectedComponents((shade < SHADOW_MIN).view(np.uint8), connectivity=8)
    over = np.bincount(lab[mask > 0], minlength=n)
    over[0] = 0
    if over.max() == 0:
        return None
    ys, xs = np.nonzero(lab == int(over.argmax()))
    return scene.grid.to_mm(np.column_stack((xs + x0, ys + y0)).astype(np.float64))


def _dark_rect(scene: Scene, pts: np.ndarray
               ) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The bounding rectangle (table mm, ``cv2.minAreaRect``) of the dark area's pixel centres
    ``pts`` (N×2 table mm), when the area fills at least HOLLOW_FILL of it; else None."""
    rect = cv2.minAreaRect(pts.astype(np.float32))
    area = len(pts) / scene.grid.px_per_mm ** 2
    if area < HOLLOW_FILL * rect[1][0] * rect[1][1]:
        return None
    return rect


def _dark_parallelogram(scene: Scene, pts: np.ndarray) -> np.ndarray | None:
    """The corners (4×2 table mm, in order round it) of the parallelogram the dark area's pixel
    centres ``pts`` (N×2 table mm) make, when they make one that the area fills to at least
    HOLLOW_FILL (HOLLOW_QUAD_CORNERS' note); else None.

    >>> from types import SimpleNamespace
    >>> g = np.mgrid[0:16, 0:16].reshape(2, -1).T.astype(float)
    >>> sheared = g @ np.array([[1.0, 0.0], [0.6, 1.0]])  # rows lean 0.6 mm per mm
    >>> q = _dark_parallelogram(SimpleNamespace(grid=SimpleNamespace(px_per_mm=1.0)), sheared)
    >>> sorted(round(float(np.linalg.norm(q[i] - q[i - 1])), 1) for i in range(4))
    [15.0, 15.0, 17.5, 17.5]
    >>> L = np.array([p for p in g if p[0] < 5 or p[1] < 5])  # an L: no parallelogram
    >>> _dark_parallelogram(SimpleNamespace(grid=SimpleNamespace(px_per_mm=1.0)), L) is None
    True
    """
    hull = cv2.convexHull(pts.astype(np.float32))
    quad = cv2.approxPolyDP(hull, HOLLOW_QUAD_EPS_MM, True).reshape(-1, 2).astype(np.float64)
    if len(quad) != HOLLOW_QUAD_CORNERS:
        return None
    sides = np.roll(quad, -1, axis=0) - quad
    if max(np.linalg.norm(sides[0] + sides[2]), np.linalg.norm(sides[1] + sides[3])) \
            > HOLLOW_WIDTH_MM:
        return None
    if len(pts) / scene.grid.px_per_mm ** 2 < HOLLOW_FILL * cv2.contourArea(
            quad.astype(np.float32)):
        return None
    return quad


# A white piece whose open base faces the camera, on a pale table (issue 4, sure14; seeds
# 2027, 2120, 2147 of the set from 1936): its faces are about the table's brightness, so the
# fit map holds its dark hollow and the lit face's rims, and a reading one size short lies
# inside it, its stern on the hollow's far rim, its tip short of the faint true tip (the
# smalls cost 0.06-0.25, σ 0.3-0.5 mm; the true medium from its pose 0.86-1.02). The longer
# fits from its tip slide off (their bases' lanes 0.42-1.17), so no rival reading is left.
# But where the camera would see into the short reading's base (2.5 mm deep or more: 3.0-4.8
# on the three) the view shows lit plastic (median shade over the table's at least BASE_LIT:
# 1.13-1.30), no step to the face ahead (as `face_for_base`), and the dark hollow behind its
# stern (0.31-0.45): an open base is never lit above the table. The longer piece lies along
# the same axis, its stern behind the reading's (at the hollow's near side), its tip at or
# past the reading's: slid back in BASE_SLIDE_MM steps from the reading's stern (no fit; the
# tip is not seen), a longer size whose open base the view then shows (median lane at least
# BASE_STEP_UNSEEN) is covered by σ (:func:`base_on_face`). The size is not changed. Without
# the BASE_LIT gate a right purple medium (1669's: its faces as dark as a hollow, the base
# 0.29 against 0.32 ahead) and 2078's white large read as a small at its stern, inside its
# deep hollow (0.30 / 0.29), look alike: the second is left.
BASE_ON_FACE_DEPTH_MM = 2.5
BASE_SLIDE_MM = 1.0
BASE_LIT = 1.0


def _base_seen_deep(scene: Scene, c: Candidate) -> np.ndarray | None:
    """Lying ``c``'s base as seen (:func:`_base_seen`) when the camera sees at least
    BASE_ON_FACE_DEPTH_MM into it; else None."""
    if c.upright or scene.shade is None:
        return None
    q = _base_seen(scene, c)
    if float((q[2] + q[3] - q[0] - q[1]) @ np.asarray(c.fit.pose.direction)) / 2 < (
            BASE_ON_FACE_DEPTH_MM):
        return None
    return q


# A white reading slid ahead onto its own face (issue 4, session 41, trust51): where the camera
# sees less than BASE_ON_FACE_DEPTH_MM into its base, no_base_step is not asked (a shallow
# hollow's shade is not sure to show), and a fit that took the hollow for table put the stern
# on the hollow's far rim, the tip past the true one, its cost low. What tells it is the
# base's lanes: where the camera sees at least SLID_BASE_MIN_DEPTH_MM into it, its inside as
# seen lit plastic (median shade at least BASE_LIT, as base_on_face), no step to the face
# ahead (BASE_STEP) and the table just behind its stern dark (median behind over inside at
# most SLID_BEHIND_DARK): the hollow lies behind the reading, and so does the true stern (the
# 11440-set's 11699, a white small at 1280×720, depth 2.3 mm: inside 1.05-1.20 of the table's
# light, behind 0.42-0.65, read 3.4 mm ahead at σ 0.6 mm). A right reading shows its hollow
# inside (a step); a lit base with lit table behind it is no hollow. Such a reading's σ covers
# a slide of the base's depth as seen (the 10864-set's 10900 and 11088: white smalls on wood
# read 1.2 and 1.3 mm ahead at σ 0.3 mm, depth 1.8 mm, behind 0.54-0.76 of the table's light,
# the inside 1.51-1.75: right readings by the bench's 1.5 mm, now σ 1.8 mm).
SLID_BASE_MIN_DEPTH_MM = 1.0
SLID_BEHIND_DARK = 0.6
# The same slide for a vivid or clear piece (issue 4, session 52, lead62): the 14608-set's
# 14759, a cyan medium on blue cloth (1280×720, 0-10°) against a black large's side, seen
# 4.5 mm into its base, its hollow a dark band of its hue behind the reading: the fit put the
# stern on the lit face ahead of it, 4.1 mm ahead at σ 0.3 mm (inside 1.17 of the table's
# light, the face ahead 1.00 of it, behind 0.71 of the table's light and 0.61 of the
# inside). Such plastic glows in a lit base, and its own tinted shadow may lie behind it, so
# a lit base with no step is not enough (SHADED_BASE): the table behind must also be darker
# than the table (SLID_HUED_SHADE): of the trusted non-white readings of four sets (12880,
# 11440, 14320, 13744; every second scene) with a lit base and no step, the right readings
# that lie behind SLID_HUED_DARK with a bright table behind them (the 13744-set's 13940, an
# orange small on felt, 0.64 of the inside, 0.92 of the table's light, 0.16 mm off; 11596's
# cyan smalls, 0.87-0.92) keep their trust; those it takes lie 0.9-2.2 mm ahead at
# σ 0.2-1.0 mm, their depth as seen 1.5-2.8 mm (most off by more than twice their σ; on the
# 25 tuning and check sets 56 right readings by the bench's 1.5 mm lost their trust so).
SLID_HUED_DARK = 0.65
SLID_HUED_SHADE = 0.85


def slid_onto_face_mm(scene: Scene, c: Candidate, white: bool) -> float:
    """How deep the camera sees into lying ``c``'s open base (table mm) when that base as seen
    (at least SLID_BASE_MIN_DEPTH_MM deep) is lit plastic with no step to the face ahead and
    the table behind it dark (SLID_BEHIND_DARK of the inside for a ``white`` piece;
    SLID_HUED_DARK of it and SLID_HUED_SHADE of the table's light for another): its hollow
    lies behind it, the reading slid ahead of the piece by about that depth; else 0."""
    if c.upright or scene.shade is None:
        return 0.0
    if (depth := _base_depth_mm(scene, c)) < SLID_BASE_MIN_DEPTH_MM:
        return 0.0
    behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    if float(median(inside)) < BASE_LIT or _face_over_base(inside, ahead) >= BASE_STEP:
        return 0.0
    dark = float(median(behind / np.maximum(inside, 1e-3)))
    slid = (dark <= SLID_BEHIND_DARK if white
            else dark <= SLID_HUED_DARK and float(median(behind)) <= SLID_HUED_SHADE)
    return depth if slid else 0.0


# A white reading slid back onto its own shadow (issue 4, session 57, white67): the judge
# set's 16293 (a white small on the light laminate, 1280×720, 22-35°) was read 2.7 mm behind
# the piece at σ 0.49 mm, its tip pulled back onto the fit map's end (the faint last 3 mm of
# the true tip scored as table), its stern on the outer ring of the shadow band behind the
# base: the fit map holds a thin ring round a shadow, and between it and the piece the band
# itself scores as table. So does the check set's 5279 (a white small, 2.9 mm behind) and 5239
# (a white large, 2.7 mm behind). A right reading's face begins at its rim as seen: along its
# axis the fit map (the median of FACE_GAP_LANES lanes across the base, FACE_GAP_STEP_MM apart)
# first holds a FACE_GAP_RUN_MM run at FACE_GAP_LEVEL of the piece's own level (its middle
# third's median: a faint white scores 0.35-0.6 all over, the 5104-set's 5270) at most 1.5 mm
# past the rim (the 15760-set's 15789, a large; smalls at most 1.0, 5270) over the 294 right
# trusted white readings of the 16048, 5104 and 15760 sets as this function measures them, and
# at most 1.49 mm (15789 again) over 619 on six sets (those and 15472, 13456, 14032) measured
# offline on a grid 0.5 mm apart from 10 mm behind the stern; the three slid back show 3.0
# (16293), 3.47 (5239) and 4.05 mm (5279). Past FACE_GAP_MM the piece may
# begin that far ahead of the reading: σ covers it. A hollow seen in a base (depth as seen over
# 0) scores as shadow or as plastic: the gap is measured from the rim, so a hollow that scores
# as table is not counted in it. Readings slid ahead (5202, 5220, 15586: 1.3-2.2 mm, the hollow
# partly behind them) and two slid back 1.3-1.6 mm (13503; 5318 against a red small) show no
# gap: left (vision-history, white67). A move by the gap (no fit) would leave 16293 1.8 mm off
# (its heading 3.5° off), and refits from there cost 0.44-0.53: σ only.
FACE_GAP_MM = 2.1
FACE_GAP_LANES = (-0.3, -0.15, 0.0, 0.15, 0.3)  # across, in base widths
FACE_GAP_STEP_MM = 0.5
FACE_GAP_RUN_MM = 2.0
FACE_GAP_BEHIND_MM = 3.0  # searched from this far behind the outline's back end
FACE_GAP_LEVEL = 0.5


def face_gap_mm(scene: Scene, c: Candidate) -> float:
    """How far past lying ``c``'s rim as seen the fit map's plastic begins along its axis
    (mm; the first FACE_GAP_RUN_MM run at FACE_GAP_LEVEL of its middle third's level, the
    median of FACE_GAP_LANES lanes) when that is at least FACE_GAP_MM: the piece may begin
    that far ahead of the reading (its stern on a shadow's ring); else 0."""
    if c.upright:
        return 0.0
    p = c.fit.pose
    d = scene.pieces.dims(c.size)
    length = d.footprint_length_mm
    depth = _base_depth_mm(scene, c)
    u = np.asarray(p.direction)
    n = np.array([-u[1], u[0]])
    ts = np.arange(min(0.0, depth) - FACE_GAP_BEHIND_MM, 2 * length / 3 + 1e-6,
                   FACE_GAP_STEP_MM)
    across = np.asarray(FACE_GAP_LANES) * d.base_w_mm
    pts = (np.asarray(p.stern_mm)[None, None, :] + ts[None, :, None] * u
           + across[:, None, None] * n)
    px = scene.grid.to_px(pts.reshape(-1, 2))
    lanes = sample_map(scene.fg, px[:, 0], px[:, 1]).reshape(len(across), len(ts))
    prof = np.asarray(median(lanes, axis=0))
    level = float(median(prof[ts >= length / 3]))
    run = round(FACE_GAP_RUN_MM / FACE_GAP_STEP_MM)
    solid = np.convolve(prof >= FACE_GAP_LEVEL * level, np.ones(run), "valid") == run
    first = np.flatnonzero(solid)
    gap = float(ts[first[0]]) - depth if len(first) else length
    return gap if gap >= FACE_GAP_MM else 0.0


def no_base_step(scene: Scene, c: Candidate) -> bool:
    """Whether the camera sees at least BASE_ON_FACE_DEPTH_MM into lying ``c``'s base and
    the view shows there no step (BASE_STEP) to the face ahead: no shaded hollow where ``c``
    would show one."""
    if _base_seen_deep(scene, c) is None:
        return False
    _behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    return _face_over_base(inside, ahead) < BASE_STEP


def lit_base_seen(scene: Scene, c: Candidate) -> bool:
    """Whether :func:`no_base_step` and the view shows lit plastic or table in ``c``'s base
    as seen (median shade at least BASE_LIT)."""
    q = _base_seen_deep(scene, c)
    if q is None:
        return False
    # Most bases as seen are dark (a hollow) or coloured: one look at the middle first.
    mid = scene.grid.to_px(q.mean(axis=0, keepdims=True))
    if float(sample_map(scene.shade, mid[:, 0], mid[:, 1])[0]) < BASE_LIT:
        return False
    _behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    return (float(median(inside)) >= BASE_LIT
            and _face_over_base(inside, ahead) < BASE_STEP)


def base_on_face(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover the
    longer lying reading along its axis, its stern slid back from ``c``'s (its tip at or past
    ``c``'s), whose open base the view shows best (median base lane at least
    BASE_STEP_UNSEEN), when the camera sees at least BASE_ON_FACE_DEPTH_MM into ``c``'s own
    base and the view shows there no step from the face ahead (see BASE_ON_FACE_DEPTH_MM)."""
    if not lit_base_seen(scene, c):
        return c
    p = c.fit.pose
    u = np.asarray(p.direction)
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    tip = np.asarray(p.tip_mm(d_c))
    amb = np.array([c.ambiguity_mm, c.ambiguity_deg])
    for z in scene.by_length:
        d_z = scene.pieces.dims(z).footprint_length_mm
        if d_z <= d_c:
            continue
        best, best_lane = None, BASE_STEP_UNSEEN
        for s in np.arange(0.0, d_z - d_c + 1e-6, BASE_SLIDE_MM):
            stern = np.asarray(p.stern_mm) - s * u
            q = Pose(float(stern[0]), float(stern[1]), p.heading_deg)
            shades = _base_shades_at(scene, z, q)
            assert shades is not None
            behind, inside_z, ahead_z = shades
            lane = float(median(np.minimum(behind, ahead_z) / np.maximum(inside_z, 1e-3)))
            if lane >= best_lane:
                best, best_lane = q, lane
        if best is not None:
            gap = max(math.dist(best.stern_mm, p.stern_mm),
                      math.dist(best.tip_mm(d_z), tuple(tip)))
            amb = np.maximum(amb, (gap, 0.0))
    if amb[0] <= c.ambiguity_mm:
        return c
    return c.in_doubt_of(float(amb[0]), 0.0)


# A white piece read one size long over its own shadow (issue 4, sure14; seeds 2018, 2112 of
# the set from 1936, 1853 of the set from 1648): lit white plastic is brighter than the table
# (its faces ×1.04-1.11 on these pale tables, 90th percentile inside the reading) and its
# shadow, all round it on a soft light, darker; the fit map scores the shadow and the hollow
# but hardly the lit faces, so a medium fitted to the shadow's outer edge wins (cost
# 0.30-0.38; the true small from its pose 0.68-1.56) and no shorter reading is near it: σ
# 1.0-1.6 mm. A piece's outline as seen is where its plastic ends: just inside it lie its
# faces (or its dark base), never the shadow round it. So where RING_SHARE or more of the band
# RING_IN_MM inside a reading's outline is darker than RING_SHADE × the table (the wrong
# mediums 0.82-0.94; right white readings of seeds 1648-1671 0-0.18, a doubtful one 0.33)
# while lit plastic brighter than the table (RING_LIT, 90th percentile inside) shows within
# (a clear piece is a dimmer table, up to 0.97 there; a vivid or black one darker), the
# outline lies on a shadow's edge and the piece is shorter than read: σ covers the next
# shorter size, its tip or stern where the reading's is (:func:`shadow_ring_of_shorter`).
# White only: on seeds 1936-2186 the same shades (90th percentile inside over ×1.0, a dark
# band inside the outline) were those of 16 right vivid and black pieces, whose faces are
# coloured or dark right up to the edge (a lit coloured face can pass the table's shade).
RING_IN_MM = 1.0
RING_SAMPLES = 120
RING_SHADE = 0.9
RING_SHARE = 0.6
RING_LIT = 1.0


def shadow_ring_of_shorter(scene: Scene, c: Candidate,
                           is_white: Callable[[Candidate], bool]) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover the next
    shorter size along its axis when its outline lies on a shadow's outer edge round lit
    plastic (see RING_SHARE) and ``is_white`` (asked last: a colour test costs more)."""
    by_length = scene.by_length
    if c.upright or scene.shade is None or c.size is by_length[0]:
        return c
    # Lit plastic within first (most pieces are darker than the table: no shapely work):
    # the outline's samples drawn towards its centre, by a third and by two thirds.
    out = _ring_points(np.asarray(c.outline_mm), RING_SAMPLES // 4)
    mid = out.mean(axis=0)
    inner = np.concatenate([mid + f * (out - mid) for f in (0.33, 0.67)])
    px = scene.grid.to_px(inner)
    if float(percentile(sample_map(scene.shade, px[:, 0], px[:, 1]), 90)) < RING_LIT:
        return c
    ring = shapely.Polygon(c.outline_mm).buffer(-RING_IN_MM).exterior
    if ring.is_empty:
        return c
    px = scene.grid.to_px(_ring_points(shapely.get_coordinates(ring), RING_SAMPLES))
    if float((sample_map(scene.shade, px[:, 0], px[:, 1]) < RING_SHADE).mean()) < RING_SHARE:
        return c
    if not is_white(c):
        return c
    z = by_length[by_length.index(c.size) - 1]
    gap = (scene.pieces.dims(c.size).footprint_length_mm
           - scene.pieces.dims(z).footprint_length_mm)
    if gap <= c.ambiguity_mm:
        return c
    return c.in_doubt_of(gap, 0.0)


def _ring_points(vertices: np.ndarray, n: int) -> np.ndarray:
    """``n`` points spread evenly along the closed polygon of ``vertices`` (N×2, any units)."""
    v = np.vstack([vertices, vertices[:1]])
    seg = np.linalg.norm(np.diff(v, axis=0), axis=1)
    at = np.concatenate([[0.0], np.cumsum(seg)])
    t = np.linspace(0.0, at[-1], n, endpoint=False)
    return np.column_stack([np.interp(t, at, v[:, 0]), np.interp(t, at, v[:, 1])])


# A pale reading inside a longer white piece's deep hollow (issue 4, trust15; seed 2078 of the
# set from 1936: a white large whose open base faces the camera, read as a small at its stern,
# cost 0.31, σ 1.2 mm, its tip 18 mm short of the true tip). Its own base as seen is dark, as
# an open base is, and so is the face just ahead of it (median lane 0.29 × the table), where a
# white piece shows lit plastic and a clear one a dimmer table: on 1648-2223 no other white or
# clear reading had that face under 0.50 (the darkest right white reading's), while a dark
# piece's faces are as dark as its base (282 black, 439 coloured readings under 0.45). A pale
# face that dark is the hollow going on: the piece goes on past the reading's tip, unseen. σ
# covers each longer size along its axis from the reading's stern (:func:`hollow_ahead_mm`,
# asked of pale readings only). The size is not changed.
HOLLOW_AHEAD = 0.4


def hollow_ahead_mm(scene: Scene, c: Candidate) -> float:
    """The size ambiguity (mm) that covers the longest size along lying ``c``'s axis from its
    stern when the face ahead of its base as seen is darker than HOLLOW_AHEAD × the table
    (the hollow goes on past it); 0 otherwise."""
    longest = scene.by_length[-1]
    if c.upright or scene.shade is None or c.size is longest:
        return 0.0
    shades = _base_shades(scene, c)
    if shades is None or float(median(shades[2])) >= HOLLOW_AHEAD:
        return 0.0
    return (scene.pieces.dims(longest).footprint_length_mm
            - scene.pieces.dims(c.size).footprint_length_mm)
