"""White pieces seen by their open base alone (issue 4, white21: white misses on laminate).

A white piece on grey laminate has faces of the table's shade: the foreground score sees only
its open base, where the camera looks into the hollow (×0.3 of the table's light, darker than
any cast shadow, ×0.68 and up), and the fit of the whole outline on that map fails (cost
1.1–1.6 at the true pose). The hollow as seen is the base face's quadrilateral seen through
the camera (:func:`open_base._base_seen_at`): its edge on the table is the piece's stern, its
far edge the raised rim, so the quad alone gives the pose and, by its width, the size. A
reading from it is kept only with the rest of the piece in view: a step into the hollow from
the table behind and the face ahead (open_base.BASE_STEP, every lane), the outline's crisp
edges ahead of the base (the faces' steps and the contact shadow), and the colour white. Its
pose is the quad's, not an edge fit: it is always doubtful (σ at least BASE_QUAD_MM).

Frames: table mm (+y away from the viewer); view px per :class:`ViewGrid`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.vision.crisp import (
    SOFT_WHITE_CLIP_PX,
    _outline_samples_many,
    clipped_at,
    edge_distance_window,
)
from armada_vision.vision.fit import FitResult, ViewGrid, lying_local_3d, outline_mm
from armada_vision.vision.open_base import (
    BASE_STEP,
    _base_seen_at,
    base_lanes_beside,
    covering_open_bases,
    near_edges,
)
from armada_vision.vision.scene import MAX_COST, Candidate, Scene, clashes

# The hollow's inside, over the table's light: white pieces' open bases 0.29-0.44 (1936-set
# misses), cast shadows 0.68 and lighter.
BASE_DARK = 0.5
# Only the hollow's deepest part may be that dark (issue 4, white30): at 10-35 degrees of tilt
# the camera sees the walls inside the open base, lit through it, at 0.5-0.7 of the table's
# light (the 5680-set's 5919 and 5925: their dark areas 142 and 210 mm² of quads of 269 and
# 362 mm²). When the dark area alone gives no quad, it is grown by up to WALL_GROW_PX pixels
# into what is darker than BASE_WALL and joins it, and the quad fitted to that.
BASE_WALL = 0.7
WALL_GROW_PX = 6
# A dark area is a base when the quad of the best pose and size covers it this well (IoU).
QUAD_MIN_IOU = 0.6
# Share of the outline ahead of the base (past BASE_AHEAD_MM from the stern) within a pixel
# of a crisp edge.
EDGE_MIN_SHARE = 0.6
BASE_AHEAD_MM = 3.0
EDGE_SAMPLES = 80
# On a coloured table (wood, felt, cloth) the texture leaves few crisp edges (the crisp pass
# keeps none on the grain), so a white piece's outline ahead of its base seldom shows on them
# (issue 4, wb32: the 6256-set's 6404 white medium on wood, 0.07 at its true pose, its base
# quad 9 mm off in a lane-passing hollow), but its faces are greyer than the table: the
# boundary of the desaturated area (segment.grey_of) follows it (0.90 there). GREY_EDGE: that
# boundary stands in for the crisp edges, at the same EDGE_MIN_SHARE, within GREY_EDGE_PX
# (the ratio is smoothed over 3 px, so its boundary lies up to 2 px off the outline).
GREY_EDGE_PX = 2
# Least σ (mm) of a reading from the quad: never trusted (its pose is no edge fit).
BASE_QUAD_MM = 3.0
# The dark areas looked at: at least this many mm² (a small's base seen from overhead is a
# thin strip) and at most the large's base face.
QUAD_MIN_MM2 = 12.0
# Pieces found cover their outline grown by this much (mm): their own bases and dark faces. A
# dark area is theirs when at least OWN_SHARE of it lies there; a white piece's hollow beside
# a neighbour found lies mostly outside it (the 5392-set's 5450, 5537, 5582, 5489: 0.0-0.19),
# and was left before whenever any of it came within COVER_MM (white24's touching class).
# A hollow may join a neighbour's dark faces or open base through a bridge wider than the
# opening's pixel (issue 4, dark33: the 6544-set's 6551, a white large on laminate whose stern
# touches a purple small: one dark area of 275 mm², 0.61 of it by the purple): what such an
# area leaves off the pieces found (COVER_MM), opened again, is looked at as an area of its own
# when it covers QUAD_MIN_MM2 (6551's hollow, 156 mm² with its rim: the large at its place,
# σ 99 mm), with every test after as before (quad, lanes, edges ahead, named white).
COVER_MM = 2.0
OWN_SHARE = 0.5
# The hollow as seen is the quad inside its rim and walls: the dark area grown by this much
# (mm) is compared with the quad (1936-set: 0 read the larges as mediums, 1.0 all three right).
RIM_MM = 1.0
# A dark area is looked at when its pixels fill this share of their least rectangle (an open
# base seen is a convex quad).
QUAD_FILL = 0.5
OPEN_KERNEL = np.ones((3, 3), np.uint8)
# A dark area whose best quad is a hollow the view steps into (the lanes) but whose outline
# ahead the crisp edges do not follow may be another size's or heading's open base: the quad
# alone hardly tells a base seen from above from the same quad of the piece turned end for
# end, nor a small's from a medium's at a shallow tilt (issue 4, white31: the 5968-set's 6107
# white large read as a medium turned 178 degrees, IoU 0.78 against the true pose's 0.76,
# edges ahead 0.21 against 0.75; 6222's medium as a small, 0.69 against 0.74, edges 0.46
# against 1.0). Each size's best start, and its best start turned OTHER_TURN_DEG or more from
# that, are refined when within OTHER_QUAD_SLACK of the best start's IoU, and read in turn
# with every test as before.
OTHER_QUAD_SLACK = 0.15
OTHER_TURN_DEG = 90.0
# The best start of each size is refined when its IoU is within this of the best start's
# (and none when the best start's is under START_MIN_IOU: the 1936-set's bases 0.51-0.88).
START_SLACK = 0.15
START_MIN_IOU = 0.5
# The pose refined on the IoU: steps (mm, degrees), one round each.
REFINE_STEPS = ((1.0, 4.0), (0.35, 1.5))
REFINE_MAX_MOVES = 8
# A white piece whose open base faces the camera, its faces lit (issue 4, sure28: seed 5540's
# white large, heading away from the camera on pale laminate): the dark re-read reads the
# hollow alone as a black small (cost 0.33, σ 1.0 mm, turned 106°), and hollow_of_longer does
# not ask it (a good fit; the hollow seen at 22-35° tilt is a slanted quad filling 0.70 of its
# least rectangle). A reading lying (HOLLOW_INSIDE of its footprint or more) in a dark area
# that a longer piece's open base as seen covers (IoU HOLLOW_QUAD_IOU or more, the pose from
# the quad as pieces_from_base finds it) may be that piece: σ covers it when the view shows
# its open base (open_base.shows_open_base). 5540: the large's quad 0.91 at the true pose (0.5
# mm, 4 degrees off). A black piece's dark area holds its faces beside its base: 5540's black
# small (right, cost 0.02) lies in one a medium's quad covers 0.72 at best.
HOLLOW_INSIDE = 0.9
HOLLOW_QUAD_IOU = 0.85
# The window (view px) round a reading in which its dark area is looked for.
HOLLOW_WINDOW_PX = 40
# The quad's heading is a short lever (issue 4, session 49, acc59): the hollow is a base's width
# long, and its IoU is refined in 1.5° steps, so a reading from it has its stern in place
# (0.02-0.4 mm) but lies turned 1.5-8.6° (the 13744-set's 13748 white medium 3.3°, 13752's
# white large 2.4°, the 10576-set's 10592, 10644, 10646 and the 13168-set's 13208 white larges
# and mediums 4.8-6.6°): the heading tail's largest class of one maker (5 of the 26 readings
# over 1.5° in the 13744-set's first 73 scenes). Its faces ahead of the base are on the crisp
# edges, a piece's length long: the reading is turned about its stern, every STERN_TURN_STEP_DEG
# up to STERN_TURN_MAX_DEG either way, to the heading whose outline ahead of the base
# (BASE_AHEAD_MM) lies nearest the edges (mean distance, clipped at SOFT_WHITE_CLIP_PX), when
# that outline lies on them (STERN_TURN_EDGES of its samples, as _edge_share counts them) and
# it clashes with no reading. Mediums and larges only: a small's outline ahead is too short
# to tell (the 13744-set's 13758 and 13812 whites turned the wrong way, 1.6 -> 3.1° and 1.7 ->
# 3.6°). The stern is kept (the quad's is right), and so is σ (BASE_QUAD_MM and up).
STERN_TURN_SIZES = (Size.MEDIUM, Size.LARGE)
STERN_TURN_MAX_DEG = 10.0
STERN_TURN_STEP_DEG = 0.25
STERN_TURN_EDGES = 0.9
STERN_TURN_PAD_PX = 20


def pieces_from_base(scene: Scene, edges: np.ndarray, lying: list[Candidate],
                     unseen: np.ndarray | None = None,
                     markers_mm: Sequence[np.ndarray] = (),
                     grey: np.ndarray | None = None, dark_level: float = BASE_DARK,
                     wall_level: float = BASE_WALL, in_unseen: bool = False
                     ) -> list[Candidate]:
    """Lying pieces (table mm) read from an open base seen dark where no piece found (nor a
    hand, ``unseen``: view-size bool, nor a printed marker, ``markers_mm``: their corners)
    lies; ``edges``: the view's crisp edges (bool); ``grey``: on a coloured table, the view's
    desaturated area (bool, segment.grey_of), whose boundary the outline ahead may follow
    instead (GREY_EDGE). ``dark_level``: the shade under which the hollow is looked for,
    ``wall_level``: the walls' (a clear piece's hollow is lighter: CLEAR_BASE_DARK).
    ``in_unseen``: read only the dark areas whose bounds meet ``unseen`` instead (a hand's
    region that took in a white piece, on the laminate: detect.find_pieces, white61)."""
    if scene.shade is None:
        return []
    grid = scene.grid
    ppm = grid.px_per_mm
    # Outer contours of the dark areas, not a labelling of the whole view (~30x dearer);
    # each opened by a pixel on its own window (a stray pixel's bridge to a shadow goes).
    dark = (scene.shade < dark_level).view(np.uint8)
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_px, max_px = QUAD_MIN_MM2 * ppm**2, (scene.pieces.dims(Size.LARGE).base_w_mm * ppm)**2
    # What the pieces found (their bases, shadows) and the markers cover: their bounds (view
    # px), grown by COVER_MM; their outlines asked only when those meet.
    outlines = [c.outline_mm for c in lying] + list(markers_mm)
    taken = _bounds_px(grid, outlines, COVER_MM * ppm)
    polys: dict[int, shapely.Polygon] = {}  # of outlines, made when asked
    out: list[Candidate] = []
    # A dark area within a marker's bounds, or wholly within COVER_MM of a piece found, is
    # left before its opening: each part of it would be (the markers' cells and the dark faces
    # of black pieces are most of the dark areas).
    for cnt in _opened(dark, [c for c in contours if cv2.contourArea(c) >= min_px
                              and not _within(cv2.boundingRect(c), taken[len(lying):])
                              and not _all_on(grid, c, taken[:len(lying)], outlines, polys)]):
        if not min_px <= cv2.contourArea(cnt) <= max_px:
            continue
        x, y, w, h = cv2.boundingRect(cnt)
        if unseen is not None and unseen[y:y + h, x:x + w].any() != in_unseen:
            continue
        near = np.flatnonzero((taken[:, 0] < x + w) & (taken[:, 2] > x) & (taken[:, 1] < y + h)
                              & (taken[:, 3] > y))
        if np.any(near >= len(lying)):
            continue  # on a marker
        for j in near:
            if j not in polys:
                polys[j] = shapely.Polygon(outlines[j])
        on = [polys[j] for j in near]
        if _own_share(grid, cnt, on) >= OWN_SHARE:
            # On a piece found: its own base or its dark faces; a hollow joined to them
            # is what lies off them (see OWN_SHARE).
            cnt = _off_pieces(grid, dark, cnt, on, min_px)
            if cnt is None:
                continue
            x, y, w, h = cv2.boundingRect(cnt)
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [cnt], -1, 1, thickness=cv2.FILLED, offset=(-x, -y))
        rect = cv2.minAreaRect(cnt)
        if cv2.countNonZero(inside & opened_at(dark, x, y, w, h)) < QUAD_FILL * (
                rect[1][0] + 1) * (rect[1][1] + 1):
            continue  # not a convex quad: a shadow's or a hand's patch, a marker's cells
        c, retry = _base_reading(scene, edges, lying + out, cnt, rect, centred=True,
                                 grey=grey)
        if c is None:
            # Only the hollow's deepest part is that dark: its walls, lit through the open
            # base, are taken in where they join it (see BASE_WALL).
            walls = _with_walls(scene.shade, cnt, wall_level)
            retry_walls = None
            if walls is not None and cv2.contourArea(walls) <= max_px:
                c, retry_walls = _base_reading(scene, edges, lying + out, walls,
                                               cv2.minAreaRect(walls), centred=True,
                                               grey=grey)
            # Then the other quads (OTHER_QUAD_SLACK): the dark part's, its walls'.
            for again in (retry, retry_walls):
                if c is None and again is not None:
                    c = again()
        if c is not None:
            out.append(_turned_on_stern(scene, edges, lying + out, c))
    return out


def _turned_on_stern(scene: Scene, edges: np.ndarray, lying: list[Candidate], c: Candidate
                     ) -> Candidate:
    """``c`` (read from its open base) turned about its stern to the heading whose outline as
    seen ahead of the base lies nearest the crisp ``edges`` (view-size bool), when it lies on
    them and clashes with none of ``lying`` (STERN_TURN_*); else ``c``."""
    if c.size not in STERN_TURN_SIZES:
        return c
    p = c.fit.pose
    n = round(STERN_TURN_MAX_DEG / STERN_TURN_STEP_DEG)
    turns = np.arange(-n, n + 1) * STERN_TURN_STEP_DEG
    poses = [Pose(p.x_mm, p.y_mm, p.heading_deg + float(t)) for t in turns]
    mean = ahead_distance_px(scene, edges, c.size, poses, p.heading_deg + turns)
    best = int(np.argmin(mean))
    if mean[best] >= mean[n]:
        return c  # the quad's own heading is as near the edges as any
    t = _candidate(scene, c.size, poses[best])
    if _edge_share(scene, t, edges) < STERN_TURN_EDGES or clashes(t, lying, scene):
        return c
    return t


def ahead_distance_px(scene: Scene, edges: np.ndarray, size: Size, poses: Sequence[Pose],
                      heads_deg: np.ndarray) -> np.ndarray:
    """For each of ``poses`` (of one stern, at the headings ``heads_deg``: a reading from its
    open base turned about it) of a lying ``size``: the mean distance (view px, clipped at
    SOFT_WHITE_CLIP_PX) from the crisp ``edges`` (view-size bool) of its outline as seen
    ahead of the base (BASE_AHEAD_MM)."""
    p = poses[0]
    samples = _outline_samples_many(scene, poses, lying_local_3d(scene.pieces.dims(size)))
    heads = np.radians(heads_deg)
    along = np.einsum("knd,kd->kn", samples - np.asarray(p.stern_mm),
                      np.column_stack((np.cos(heads), np.sin(heads))))
    dist, origin = edge_distance_window(scene.grid, edges, samples.reshape(-1, 2),
                                        STERN_TURN_PAD_PX)
    px = np.round(scene.grid.to_px(samples.reshape(-1, 2)) - origin).astype(np.intp)
    # Each pose's mean summed in float64.
    d = clipped_at(np.minimum(dist, SOFT_WHITE_CLIP_PX), px).astype(np.float64)
    ahead = along > BASE_AHEAD_MM
    return (d.reshape(along.shape) * ahead).sum(axis=1) / np.maximum(ahead.sum(axis=1), 1)


def base_of_longer(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with its size ambiguity raised to cover the longer lying piece whose open base as
    seen is the dark area ``c`` lies in (see HOLLOW_QUAD_IOU)."""
    if c.upright or scene.shade is None:
        return c
    grid = scene.grid
    px = grid.to_px(np.asarray(c.outline_mm))
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int) - HOLLOW_WINDOW_PX, 0)
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + HOLLOW_WINDOW_PX
    dark = (scene.shade[y0:y1, x0:x1] < BASE_DARK).view(np.uint8)
    fp = scene.footprint(c)[0]
    inside = np.zeros(dark.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(grid.to_px(np.asarray(fp.exterior.coords))
                                   - (x0, y0)).astype(np.int32)], 1)
    if cv2.countNonZero(dark & inside) < HOLLOW_INSIDE * max(cv2.countNonZero(inside), 1):
        return c  # not a dark reading (the test below asks the area, grown by RIM_MM)
    n, lab = cv2.connectedComponents(dark, connectivity=8)
    over = np.bincount(lab[inside > 0], minlength=n)
    over[0] = 0
    cnts, _ = cv2.findContours((lab == int(over.argmax())).view(np.uint8), cv2.RETR_EXTERNAL,
                               cv2.CHAIN_APPROX_SIMPLE, offset=(int(x0), int(y0)))
    cnt = max(cnts, key=cv2.contourArea)
    if len(cnt) < 3:
        return c
    area_mm = _grown_area(grid, cnt)
    if fp.intersection(area_mm).area < HOLLOW_INSIDE * fp.area:
        return c
    got = _quad_of_area(scene, area_mm, cv2.minAreaRect(cnt))
    if got is None:
        return c
    size, pose, _iou = got
    dims = scene.pieces.dims
    if (dims(size).footprint_length_mm <= dims(c.size).footprint_length_mm
            or _area_iou(scene, size, pose, area_mm) < HOLLOW_QUAD_IOU):
        return c
    return covering_open_bases(scene, c, [_candidate(scene, size, pose)])


def _grown_area(grid: ViewGrid, cnt: np.ndarray) -> shapely.Polygon:
    """The dark area within contour ``cnt`` (view px) in table mm, grown by RIM_MM: the open
    base as seen, its rim and walls taken in."""
    return shapely.Polygon(grid.to_mm(cnt.reshape(-1, 2).astype(float))).buffer(
        RIM_MM, quad_segs=2)


def _quad_of_area(scene: Scene, area_mm: shapely.Polygon, rect: tuple, centred: bool = False
                  ) -> tuple[Size, Pose, float] | None:
    """The open base as seen (size, pose, IoU; :func:`_quad_pose`, ``centred`` passed on)
    fitted to the convex hull of ``area_mm`` (table mm; cv2 needs it convex), started from
    ``rect`` (the area's contour's cv2.minAreaRect, view px)."""
    hull = cv2.convexHull(np.asarray(area_mm.convex_hull.exterior.coords[:-1], np.float32))
    return _quad_pose(scene, hull, scene.grid.to_mm(cv2.boxPoints(rect)), centred)


def _base_reading(scene: Scene, edges: np.ndarray, lying: list[Candidate], cnt: np.ndarray,
                  rect: tuple, centred: bool = False, grey: np.ndarray | None = None
                  ) -> tuple[Candidate | None, Callable[[], Candidate | None] | None]:
    """The reading from the open base as seen that the area within contour ``cnt`` (view px;
    ``rect`` its cv2.minAreaRect) is, when the quad covers it (QUAD_MIN_IOU), the view steps
    into it in every lane (BASE_STEP), the crisp ``edges`` follow the outline ahead of it
    (EDGE_MIN_SHARE) and it clashes with none of ``lying``; else None. With it, when only
    the edges ahead failed, the reading of the area's other quads to ask after
    (:func:`_other_quads`: another size or heading), else None."""
    area_mm = _grown_area(scene.grid, cnt)
    got = _quad_of_area(scene, area_mm, rect, centred)
    # Fitted to the hull; judged against the area itself.
    if got is None or _area_iou(scene, got[0], got[1], area_mm) < QUAD_MIN_IOU:
        return None, None
    c, why = _kept(scene, edges, lying, got[0], got[1], grey)
    if c is not None or why != "edges":
        return c, None

    def other() -> Candidate | None:
        # A hollow the view steps into whose outline ahead the crisp edges do not follow:
        # another size or heading whose quad covers the area nearly as well may be the piece
        # (see OTHER_QUAD_SLACK).
        for size, pose in _other_quads(scene, area_mm, rect, got, centred):
            if _area_iou(scene, size, pose, area_mm) >= QUAD_MIN_IOU and (
                    k := _kept(scene, edges, lying, size, pose, grey)[0]) is not None:
                return k
        return None
    return None, other


def _kept(scene: Scene, edges: np.ndarray, lying: list[Candidate], size: Size, pose: Pose,
          grey: np.ndarray | None = None) -> tuple[Candidate | None, str]:
    """The reading of ``size`` at ``pose`` from an open base as seen, when the view steps
    into it in every lane (BASE_STEP), the crisp ``edges`` (or, on a coloured table, the
    boundary of the desaturated area ``grey``: GREY_EDGE) follow the outline ahead of it
    (EDGE_MIN_SHARE) and it clashes with none of ``lying``; else None and the test it
    failed ("lanes", "edges" or "clash")."""
    c = _candidate(scene, size, pose)
    lanes = base_lanes_beside(scene, c, lying)
    if lanes is None or not np.all(lanes >= BASE_STEP):
        return None, "lanes"
    if _edge_share(scene, c, edges) < EDGE_MIN_SHARE and (
            grey is None or _edge_share(scene, c, grey, boundary=True) < EDGE_MIN_SHARE):
        return None, "edges"
    if clashes(c, lying, scene):
        return None, "clash"
    return c, ""


def _other_quads(scene: Scene, area_mm: shapely.Polygon, rect: tuple,
                 best: tuple[Size, Pose, float], centred: bool) -> list[tuple[Size, Pose]]:
    """The other readings of the dark area ``area_mm`` (table mm; ``rect`` its contour's
    cv2.minAreaRect, view px) than ``best`` (:func:`_quad_of_area`'s): for each size, its best
    start and its best start turned OTHER_TURN_DEG or more from that one, refined when within
    OTHER_QUAD_SLACK of the best start's IoU (kept when so of ``best``'s), but a start of
    ``best``'s size within OTHER_TURN_DEG of its heading (``best`` again); best IoU first."""
    hull = cv2.convexHull(np.asarray(area_mm.convex_hull.exterior.coords[:-1], np.float32))
    starts = _starts(scene.grid.to_mm(cv2.boxPoints(rect)))
    b_size, b_pose, top = best
    b_head = math.radians(b_pose.heading_deg)
    local = {z: lying_local_3d(scene.pieces.dims(z)) for z in Size}
    ious = {z: _ious(local[z], scene, starts, hull) for z in Size}
    if centred and max(float(v.max()) for v in ious.values()) < START_MIN_IOU:
        # As _quad_pose started them (a small dark area's quad lies askew of its box).
        starts = np.vstack([starts] + [_centred(scene, hull, starts, local[z]) for z in Size])
        ious = {z: _ious(local[z], scene, starts, hull) for z in Size}
    got: list[tuple[float, Size, Pose]] = []
    top_start = max(float(v.max()) for v in ious.values())
    for z in Size:
        v = ious[z]
        first = int(v.argmax())
        turned = np.abs(_turn(starts[:, 2], starts[first, 2])) >= math.radians(OTHER_TURN_DEG)
        picks = [first] + ([int(np.flatnonzero(turned)[v[turned].argmax()])]
                           if turned.any() else [])
        for i in picks:
            if v[i] < top_start - OTHER_QUAD_SLACK or (
                    z == b_size and abs(_turn(starts[i, 2], b_head)) < math.radians(
                        OTHER_TURN_DEG)):
                continue  # not near the best, or the best's own start again
            iou, p = _refine(local[z], scene, starts[i], hull, float(v[i]))
            if iou >= top - OTHER_QUAD_SLACK:
                got.append((iou, z, Pose(float(p[0]), float(p[1]), math.degrees(p[2]))))
    got.sort(key=lambda t: -t[0])
    return [(z, p) for _v, z, p in got]


def _turn(a: np.ndarray | float, b: float) -> np.ndarray | float:
    """The signed turn (rad, -pi to pi) from heading ``b`` to ``a``."""
    return (np.asarray(a) - b + np.pi) % (2 * np.pi) - np.pi


def _with_walls(shade: np.ndarray, cnt: np.ndarray, wall_level: float = BASE_WALL
                ) -> np.ndarray | None:
    """The outer contour (view px) of the dark area within ``cnt`` grown, by up to WALL_GROW_PX
    pixels, into the view darker than ``wall_level`` (BASE_WALL) that joins it (opened by
    OPEN_KERNEL); None when nothing is left."""
    x, y, w, h = cv2.boundingRect(cnt)
    x0, y0 = max(x - WALL_GROW_PX - 1, 0), max(y - WALL_GROW_PX - 1, 0)
    x1, y1 = x + w + WALL_GROW_PX + 1, y + h + WALL_GROW_PX + 1
    wall = (shade[y0:y1, x0:x1] < wall_level).view(np.uint8)
    got = np.zeros(wall.shape, np.uint8)
    cv2.drawContours(got, [cnt], -1, 1, thickness=cv2.FILLED, offset=(-x0, -y0))
    for _ in range(WALL_GROW_PX):
        got = cv2.dilate(got, OPEN_KERNEL) & wall
    got = cv2.morphologyEx(got, cv2.MORPH_OPEN, OPEN_KERNEL)
    cnts, _ = cv2.findContours(got, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x0, y0))
    cnts = [c for c in cnts if len(c) >= 3]
    return max(cnts, key=cv2.contourArea) if cnts else None


def _bounds_px(grid: ViewGrid, outlines: Sequence[np.ndarray], grow_px: float) -> np.ndarray:
    """(N, 4) x0, y0, x1, y1 (view px) of each of ``outlines`` (table mm), grown by
    ``grow_px``."""
    if not outlines:
        return np.zeros((0, 4))
    pts = np.concatenate(outlines)
    at = np.cumsum([0] + [len(o) for o in outlines[:-1]])
    lo = grid.to_px(np.column_stack((np.minimum.reduceat(pts[:, 0], at),
                                     np.maximum.reduceat(pts[:, 1], at))))
    hi = grid.to_px(np.column_stack((np.maximum.reduceat(pts[:, 0], at),
                                     np.minimum.reduceat(pts[:, 1], at))))
    return np.hstack((lo - grow_px, hi + grow_px))


def _within(rect: Sequence[int], boxes: np.ndarray) -> bool:
    """Whether every pixel of ``rect`` (x, y, w, h) meets one of ``boxes`` (x0, y0, x1, y1), as
    the loop of pieces_from_base tests a rectangle against them: then so does any area in it."""
    x, y, w, h = rect
    return bool(np.any((boxes[:, 0] < x + 1) & (boxes[:, 2] > x + w - 1)
                       & (boxes[:, 1] < y + 1) & (boxes[:, 3] > y + h - 1)))


def _all_on(grid: ViewGrid, cnt: np.ndarray, boxes: np.ndarray, outlines: Sequence[np.ndarray],
            polys: dict[int, shapely.Polygon]) -> bool:
    """Whether all of the area within contour ``cnt`` (view px) is within COVER_MM of one
    piece's outline (table mm; convex, as fit.outline_mm makes them; bounds ``boxes`` grown by
    COVER_MM, its polygon cached in ``polys``): then so is every part of it, whose bounds meet
    that piece's and whose grown area lies within COVER_MM of it. The distance to a convex
    outline is largest at a corner of the area's convex hull."""
    x, y, w, h = cv2.boundingRect(cnt)
    hull_mm = None
    for j in np.flatnonzero((boxes[:, 0] < x) & (boxes[:, 2] > x + w - 1) & (boxes[:, 1] < y)
                            & (boxes[:, 3] > y + h - 1)):
        if j not in polys:
            polys[j] = shapely.Polygon(outlines[j])
        if hull_mm is None:
            hull_mm = shapely.points(grid.to_mm(cv2.convexHull(cnt).reshape(-1, 2).astype(float)))
        if shapely.distance(hull_mm, polys[j]).max() < COVER_MM * (1 - 1e-9):
            return True
    return False


def _off_pieces(grid: ViewGrid, dark: np.ndarray, cnt: np.ndarray,
                outlines: Sequence[shapely.Polygon], min_px: float) -> np.ndarray | None:
    """The largest part of the dark area within contour ``cnt`` (view px) that lies off
    ``outlines`` grown by COVER_MM, opened by OPEN_KERNEL, when it covers min_px."""
    x, y, w, h = cv2.boundingRect(cnt)
    area = np.zeros((h, w), np.uint8)
    cv2.drawContours(area, [cnt], -1, 1, thickness=cv2.FILLED, offset=(-x, -y))
    area &= opened_at(dark, x, y, w, h)
    for o in outlines:
        px = grid.to_px(np.asarray(o.buffer(COVER_MM, quad_segs=2).exterior.coords)) - (x, y)
        cv2.fillPoly(area, [np.round(px).astype(np.int32)], 0)
    area = cv2.morphologyEx(area, cv2.MORPH_OPEN, OPEN_KERNEL)
    cnts, _ = cv2.findContours(area, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(x, y))
    cnts = [c for c in cnts if cv2.contourArea(c) >= min_px]
    return max(cnts, key=cv2.contourArea) if cnts else None


def _own_share(grid: ViewGrid, cnt: np.ndarray, outlines: Sequence[shapely.Polygon]) -> float:
    """Share of the area within contour ``cnt`` (view px) that lies within COVER_MM of
    ``outlines`` (table mm): 1 for an area :func:`_all_on` leaves."""
    if not outlines:
        return 0.0
    area = shapely.Polygon(grid.to_mm(cnt.reshape(-1, 2).astype(float))).buffer(0)
    if area.area <= 0:
        return 1.0
    near = shapely.union_all([o.buffer(COVER_MM, quad_segs=2) for o in outlines])
    return float(area.intersection(near).area / area.area)


def _opened(dark: np.ndarray, contours: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The outer contours of each of ``contours``' areas (of the view mask ``dark``) once
    opened by a pixel (OPEN_KERNEL), on its own window: the opening is local, so the same as
    opening the whole view there."""
    out: list[np.ndarray] = []
    for cnt in contours:
        x, y, w, h = cv2.boundingRect(cnt)
        part = opened_at(dark, x, y, w, h)
        out += cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                offset=(x, y))[0]
    return out


def opened_at(dark: np.ndarray, x: int, y: int, w: int, h: int) -> np.ndarray:
    """``dark`` opened by OPEN_KERNEL on the window (x, y, w, h) (view px)."""
    x0, y0 = max(x - 2, 0), max(y - 2, 0)
    grown = dark[y0:y + h + 2, x0:x + w + 2]
    opened = cv2.morphologyEx(grown, cv2.MORPH_OPEN, OPEN_KERNEL)
    return opened[y - y0:y - y0 + h, x - x0:x - x0 + w]


def _candidate(scene: Scene, size: Size, pose: Pose) -> Candidate:
    """A doubtful reading of ``size`` at ``pose`` (no edge fit: cost MAX_COST, σ at least
    BASE_QUAD_MM)."""
    params = np.array([pose.x_mm, pose.y_mm, math.radians(pose.heading_deg)])
    f = FitResult(pose, BASE_QUAD_MM, math.degrees(BASE_QUAD_MM / 20.0), math.nan, 0.0,
                  MAX_COST, 0)
    return Candidate(size, False, f, outline_mm(lying_local_3d(scene.pieces.dims(size)),
                                                params, scene.camera_mm), np.zeros(0, bool),
                     BASE_QUAD_MM, 0.0, BASE_QUAD_MM, 0.0)


def _ious(local: np.ndarray, scene: Scene, poses: np.ndarray, hull: np.ndarray
          ) -> np.ndarray:
    """IoU with the convex ``hull`` (table mm, float32) of the open base as seen of a lying
    piece (vertices ``local``) at each of ``poses`` ((K, 3): x, y mm, heading rad): the base's
    corners placed and projected from the camera onto the table as fit.seen_on_table does,
    for all poses at once."""
    quads = _quads(local, scene, poses)
    area = cv2.contourArea(hull)
    out = np.empty(len(poses))
    for i, q in enumerate(quads.astype(np.float32)):
        q = cv2.convexHull(q)  # the same turning as ``hull``, as intersectConvexConvex needs
        inter, _ = cv2.intersectConvexConvex(q, hull)
        out[i] = inter / max(cv2.contourArea(q) + area - inter, 1e-9)
    return out


def _quads(local: np.ndarray, scene: Scene, poses: np.ndarray) -> np.ndarray:
    """(K, 4, 2) the open base as seen (table mm) of a lying piece (vertices ``local``) at
    each of ``poses`` ((K, 3): x, y mm, heading rad)."""
    base = local[[0, 1, 4, 3]]
    cam = scene.camera_mm
    c, s = np.cos(poses[:, 2:3]), np.sin(poses[:, 2:3])
    x = poses[:, 0:1] + c * base[:, 0] - s * base[:, 1]
    y = poses[:, 1:2] + s * base[:, 0] + c * base[:, 1]
    k = cam[2] / (cam[2] - base[:, 2])
    return np.stack((cam[0] + (x - cam[0]) * k, cam[1] + (y - cam[1]) * k), axis=-1)


def _area_iou(scene: Scene, size: Size, pose: Pose, area: shapely.Polygon) -> float:
    """IoU of the open base as seen of a lying ``size`` at ``pose`` with ``area`` (table mm)."""
    q = shapely.Polygon(_base_seen_at(scene, size, pose)[[0, 1, 3, 2]])
    inter = q.intersection(area).area
    return inter / max(q.area + area.area - inter, 1e-9)


def _quad_pose(scene: Scene, hull: np.ndarray, box_mm: np.ndarray, centred: bool = False
               ) -> tuple[Size, Pose, float] | None:
    """The size and pose whose open base as seen best covers the dark area's ``hull`` (table
    mm), with that IoU: started from each edge of its bounding box ``box_mm`` as the stern,
    heading either way across it, each size (and, with ``centred``, when none reaches
    START_MIN_IOU, each moved so its quad's centre is the hull's); the best start of each size
    whose IoU comes within START_SLACK of the best refined (the width tells the size)."""
    starts = _starts(box_mm)
    local = {z: lying_local_3d(scene.pieces.dims(z)) for z in Size}
    best_start = {}
    for z in Size:
        v = _ious(local[z], scene, starts, hull)
        best_start[z] = (float(v.max()), starts[int(v.argmax())])
    top = max(v for v, _p in best_start.values())
    if top < START_MIN_IOU and centred:
        # An edge start's quad lies askew of a small dark area, the deepest part of a hollow
        # seen obliquely (5823's 26 mm² of its small's 94 mm² quad; 5912's): each start is
        # moved so that its quad's centre is the hull's. Asked by pieces_from_base only.
        for z in Size:
            moved = _centred(scene, hull, starts, local[z])
            v = _ious(local[z], scene, moved, hull)
            if v.max() > best_start[z][0]:
                best_start[z] = (float(v.max()), moved[int(v.argmax())])
        top = max(v for v, _p in best_start.values())
    if top < START_MIN_IOU:
        return None  # no quad of a base: the refits gain less than this
    best = None
    for z, (v, p) in best_start.items():
        if v < top - START_SLACK:
            continue
        v, p = _refine(local[z], scene, p, hull, v)
        if best is None or v > best[2]:
            best = (z, p, v)
    if best is None:
        return None
    z, p, v = best
    return z, Pose(float(p[0]), float(p[1]), math.degrees(p[2])), v


def _starts(box_mm: np.ndarray) -> np.ndarray:
    """(8, 3) the quad fit's starts from a dark area's bounding box ``box_mm`` (table mm,
    4x2): each edge's middle as the stern, heading across the box either way."""
    mids = (box_mm + np.roll(box_mm, -1, axis=0)) / 2
    n = box_mm.mean(axis=0) - mids
    heads = np.arctan2(n[:, 1], n[:, 0])
    return np.column_stack((np.tile(mids, (2, 1)), np.concatenate((heads, heads + np.pi))))


def _centred(scene: Scene, hull: np.ndarray, starts: np.ndarray, local: np.ndarray
             ) -> np.ndarray:
    """``starts`` each moved so that the quad of a lying piece (``local``: its body's
    vertices, :func:`lying_local_3d`) there has its centre at the ``hull``'s (table mm)."""
    m = cv2.moments(hull)
    centre = np.array((m["m10"], m["m01"])) / max(m["m00"], 1e-9)
    moved = starts.copy()
    moved[:, :2] += centre - _quads(local, scene, starts).mean(axis=1)
    return moved


def _refine(local: np.ndarray, scene: Scene, p: np.ndarray, hull: np.ndarray, iou: float
            ) -> tuple[float, np.ndarray]:
    """Steepest ascent of the IoU over (x, y, heading) at each of REFINE_STEPS."""
    for mm, deg in REFINE_STEPS:
        r = math.radians(deg)
        moves = np.array(((mm, 0, 0), (-mm, 0, 0), (0, mm, 0), (0, -mm, 0), (0, 0, r),
                          (0, 0, -r)))
        for _ in range(REFINE_MAX_MOVES):
            v = _ious(local, scene, p + moves, hull)
            if v.max() <= iou + 1e-4:
                break
            iou, p = float(v.max()), p + moves[int(v.argmax())]
    return iou, p


def _edge_share(scene: Scene, c: Candidate, edges: np.ndarray, boundary: bool = False
                ) -> float:
    """Share of ``c``'s outline as seen, past BASE_AHEAD_MM from its stern along its axis,
    within a pixel of a crisp edge (``edges``: view-size bool), or with ``boundary``, of the
    boundary of the area ``edges`` (a pixel of it and one not in its 3×3 neighbourhood)."""
    ring = shapely.LinearRing(c.outline_mm)
    pts = shapely.get_coordinates(shapely.line_interpolate_point(
        ring, np.linspace(0, ring.length, EDGE_SAMPLES, endpoint=False)))
    u = np.asarray(c.fit.pose.direction)
    ahead = (pts - np.asarray(c.fit.pose.stern_mm)) @ u > BASE_AHEAD_MM
    if not ahead.any():
        return 0.0
    if boundary:
        return float(_on_boundary(scene.grid, pts[ahead], edges).mean())
    return float(near_edges(scene.grid, pts[ahead], edges).mean())


def _on_boundary(grid: ViewGrid, pts_mm: np.ndarray, area: np.ndarray) -> np.ndarray:
    """Whether each of ``pts_mm`` ((N, 2) table mm) has within GREY_EDGE_PX view px (a square)
    both a pixel of ``area`` (view-size bool) and one not of it; points off the view count as
    without."""
    px = np.round(grid.to_px(pts_mm)).astype(np.intp)
    rows, cols = area.shape
    inside = np.zeros(len(px), bool)
    outside = np.zeros(len(px), bool)
    for du in range(-GREY_EDGE_PX, GREY_EDGE_PX + 1):
        for dv in range(-GREY_EDGE_PX, GREY_EDGE_PX + 1):
            u, v = px[:, 0] + du, px[:, 1] + dv
            ok = (u >= 0) & (v >= 0) & (u < cols) & (v < rows)
            got = area[v[ok], u[ok]]
            inside[ok] |= got
            outside[ok] |= ~got
    return inside & outside
