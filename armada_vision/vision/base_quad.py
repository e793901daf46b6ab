"""White pieces seen by their open base alone (issue 4, session 21: white misses on laminate).

A white piece on grey laminate has faces of the table's shade: the foreground score sees only
its open base, where the camera looks into the hollow (×0.3 of the table's light, darker than
any cast shadow, ×0.68 and up), and the fit of the whole outline on that map fails (cost
1.1–1.6 at the true pose). The hollow as seen is the base face's quadrilateral seen through
the camera (:func:`explain._base_seen_at`): its edge on the table is the piece's stern, its
far edge the raised rim, so the quad alone gives the pose and, by its width, the size. A
reading from it is kept only with the rest of the piece in view: a step into the hollow from
the table behind and the face ahead (explain.BASE_STEP, every lane), the outline's crisp
edges ahead of the base (the faces' steps and the contact shadow), and the colour white. Its
pose is the quad's, not an edge fit: it is always doubtful (σ at least BASE_QUAD_MM).

Frames: table mm (+y away from the viewer); view px per :class:`ViewGrid`.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.vision.explain import (
    BASE_STEP,
    MAX_COST,
    Candidate,
    Scene,
    _base_lanes,
    _base_seen_at,
    clashes,
)
from armada_vision.vision.fit import FitResult, lying_local_3d, outline_mm

# The hollow's inside, over the table's light: white pieces' open bases 0.29-0.44 (1936-set
# misses), cast shadows 0.68 and lighter.
BASE_DARK = 0.5
# A dark area is a base when the quad of the best pose and size covers it this well (IoU).
QUAD_MIN_IOU = 0.6
# Share of the outline ahead of the base (past BASE_AHEAD_MM from the stern) within a pixel
# of a crisp edge.
EDGE_MIN_SHARE = 0.6
BASE_AHEAD_MM = 3.0
# Least σ (mm) of a reading from the quad: never trusted (its pose is no edge fit).
BASE_QUAD_MM = 3.0
# The dark areas looked at: at least this many mm² (a small's base seen from overhead is a
# thin strip) and at most the large's base face.
QUAD_MIN_MM2 = 12.0
# Pieces found cover their outline grown by this much (mm): their own bases and shadows.
COVER_MM = 2.0
# The hollow as seen is the quad inside its rim and walls: the dark area grown by this much
# (mm) is compared with the quad (1936-set: 0 read the larges as mediums, 1.0 all three right).
RIM_MM = 1.0
# The pose refined on the IoU: steps (mm, degrees), halved each round.
REFINE_STEPS = ((1.0, 4.0), (0.5, 2.0), (0.25, 1.0))


def pieces_from_base(scene: Scene, edges: np.ndarray, lying: list[Candidate],
                     unseen: np.ndarray | None = None) -> list[Candidate]:
    """Lying pieces (table mm) read from an open base seen dark where no piece found (nor a
    hand, ``unseen``: view-size bool) lies; ``edges``: the view's crisp edges (bool)."""
    if scene.shade is None:
        return []
    grid = scene.grid
    ppm = grid.px_per_mm
    dark = (scene.shade < BASE_DARK).view(np.uint8)
    cover = np.zeros(dark.shape, np.uint8)
    for c in lying:
        cv2.fillPoly(cover, [np.round(grid.to_px(c.outline_mm)).astype(np.int32)], 1)
    r = max(round(COVER_MM * ppm), 1)
    cover = cv2.dilate(cover, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2))
    dark = dark & (cover == 0)
    if unseen is not None:
        dark &= ~unseen.view(np.uint8)
    dark = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    big = scene.pieces.dims(Size.LARGE).base_w_mm
    n, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    near_edge = None
    out: list[Candidate] = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if not QUAD_MIN_MM2 * ppm**2 <= area <= big * big * ppm**2:
            continue
        part = (labels[y:y + h, x:x + w] == i).view(np.uint8)
        cnts, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                   offset=(int(x), int(y)))
        cnt = max(cnts, key=cv2.contourArea)
        poly = shapely.Polygon(grid.to_mm(cnt.reshape(-1, 2).astype(float))).buffer(RIM_MM)
        if not poly.is_valid or poly.area <= 0:
            continue
        got = _quad_pose(scene, poly, grid.to_mm(cv2.boxPoints(cv2.minAreaRect(cnt))))
        if got is None or got[2] < QUAD_MIN_IOU:
            continue
        size, pose, _iou = got
        if near_edge is None:
            near_edge = cv2.dilate(edges.view(np.uint8), np.ones((3, 3), np.uint8)).view(bool)
        c = _candidate(scene, size, pose)
        lanes = _base_lanes(scene, c)
        if lanes is None or not np.all(lanes >= BASE_STEP):
            continue
        if _edge_share(scene, c, near_edge) < EDGE_MIN_SHARE:
            continue
        if clashes(c, lying + out, scene):
            continue
        out.append(c)
    return out


def _candidate(scene: Scene, size: Size, pose: Pose) -> Candidate:
    """A doubtful reading of ``size`` at ``pose`` (no edge fit: cost MAX_COST, σ at least
    BASE_QUAD_MM)."""
    params = np.array([pose.x_mm, pose.y_mm, math.radians(pose.heading_deg)])
    f = FitResult(pose, BASE_QUAD_MM, math.degrees(BASE_QUAD_MM / 20.0), math.nan, 0.0,
                  MAX_COST, 0)
    return Candidate(size, False, f, outline_mm(lying_local_3d(scene.pieces.dims(size)),
                                                params, scene.camera_mm), np.zeros(0, bool),
                     BASE_QUAD_MM, 0.0, BASE_QUAD_MM, 0.0)


def _iou(scene: Scene, size: Size, pose: Pose, poly: shapely.Polygon) -> float:
    q = shapely.Polygon(_base_seen_at(scene, size, pose)[[0, 1, 3, 2]])
    if not q.is_valid:
        return 0.0
    inter = q.intersection(poly).area
    return inter / max(q.area + poly.area - inter, 1e-9)


def _quad_pose(scene: Scene, poly: shapely.Polygon, box_mm: np.ndarray
               ) -> tuple[Size, Pose, float] | None:
    """The size and pose whose open base as seen best covers the dark area ``poly`` (table
    mm), with that IoU: started from each edge of its bounding box ``box_mm`` as the stern
    (heading into the box), each size, then refined."""
    centre = box_mm.mean(axis=0)
    starts = []
    for k in range(4):
        a, b = box_mm[k], box_mm[(k + 1) % 4]
        mid = (a + b) / 2
        n = centre - mid
        for sign in (1.0, -1.0):
            heading = math.degrees(math.atan2(sign * n[1], sign * n[0]))
            for size in Size:
                p = Pose(float(mid[0]), float(mid[1]), heading)
                starts.append((_iou(scene, size, p, poly), size, p))
    if not starts:
        return None
    best = None
    # Each size's best start refined: the width tells the size.
    for size in Size:
        iou, _z, p = max((s for s in starts if s[1] == size), key=lambda s: s[0])
        iou, p = _refine(scene, size, p, poly, iou)
        if best is None or iou > best[2]:
            best = (size, p, iou)
    return best


def _refine(scene: Scene, size: Size, p: Pose, poly: shapely.Polygon, iou: float
            ) -> tuple[float, Pose]:
    """Coordinate ascent of the IoU over (x, y, heading) at REFINE_STEPS."""
    for mm, deg in REFINE_STEPS:
        moved = True
        while moved:
            moved = False
            for dx, dy, dh in ((mm, 0, 0), (-mm, 0, 0), (0, mm, 0), (0, -mm, 0),
                               (0, 0, deg), (0, 0, -deg)):
                q = Pose(p.x_mm + dx, p.y_mm + dy, p.heading_deg + dh)
                v = _iou(scene, size, q, poly)
                if v > iou + 1e-4:
                    iou, p, moved = v, q, True
    return iou, p


def _edge_share(scene: Scene, c: Candidate, near_edge: np.ndarray) -> float:
    """Share of ``c``'s outline as seen, past BASE_AHEAD_MM from its stern along its axis,
    within a pixel of a crisp edge (``near_edge``: the edges grown by a pixel)."""
    ring = shapely.LinearRing(c.outline_mm)
    pts = np.array([ring.interpolate(t).coords[0]
                    for t in np.linspace(0, ring.length, 80, endpoint=False)])
    u = np.asarray(c.fit.pose.direction)
    ahead = (pts - np.asarray(c.fit.pose.stern_mm)) @ u > BASE_AHEAD_MM
    if not ahead.any():
        return 0.0
    return float(scene.grid.mask_at(near_edge, pts[ahead]).mean())
