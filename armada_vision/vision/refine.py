"""A last refit of the lying pieces on the raw foreground score (issue 4: the 720p pose tail).

The fit map (``detect.region_foreground``) is the score scaled per region and clipped at 1
from ``FG_HIGH`` × the region's typical score (at most ``FG_CAP``), so that a vivid piece's
tinted shadow falls below the edge level. But the clip moves the mid level of a blurred edge
outward: a yellow piece scoring ~40 is cut at 9, and its mid level (score ~7) lies where the
blur has fallen to a sixth of the piece's score, 0.5–1.2 mm outside the true edge at 720p
(seed 1207's yellow medium on blue cloth). With the stern's edge hidden (its own shadow
behind the raised base scores as object), the too-wide sides then slide the whole piece
towards its tip, where the model is wider: 3.0 mm along the axis at cost 0.13. On the raw
score the mid level is half the piece's own score, where a blurred step's edge lies: from the
pose found, 0.10 mm off at cost 0.009. The refit is taken only when it is clean all round
(REFINE_MAX_COST, REFINE_MAX_HIDDEN), so a piece against a neighbour, in its own shadow's
band or faint (a clear piece) keeps its pose; its σ and cost stay those of the fit that found
it (measured: the pieces whose error exceeds their σ fell in number, see docs/vision.md).

Frames: table mm, as :mod:`fit`.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from armada_vision.geometry.pose import Pose
from armada_vision.vision.fit import FitResult, fit_poses, lying_local_3d, outline_mm
from armada_vision.vision.scene import GOOD_COST, Candidate, Scene

# The edge search (±mm along each normal) and rounds of the refit: the poses it corrects
# lay up to ~3 mm off along the axis. 4 rounds: +1.2 % instructions per detect (6: +1.5 %,
# no better; 3: 720p stern p95 1.43 → 1.54 mm).
REFINE_SEARCH_MM = 2.5
REFINE_ROUNDS = 4
# Taken when its cost (px², per sample) is at most this, no more than this share of its
# outline is hidden (outside solid) and it moved at most this far (mm); else the pose stays.
REFINE_MAX_COST = 0.1
REFINE_MAX_HIDDEN = 0.05
REFINE_MAX_MOVE_MM = 4.0
# A fit the rules would trust may not have settled: its edge search narrows each round, so a
# piece read turned from the true pose can stop short of it (the 8272-set's 8522: a yellow
# small whose tip touches a white small, read 7.8° turned at cost 0.27, 3.2 mm off at the
# tip with σ 0.5 mm; refitted from that pose it turns back, 0.0° off at cost 0.06). A reading
# fitting over SETTLE_MIN_COST (and at most GOOD_COST, else it is in doubt already) is
# refitted from its pose on the fit map; when the refit fits as well or better and moves the
# tip over SETTLE_TIP_MM, the pose is in question and its ambiguity covers the move (rules.md
# §7: in doubt, no). Only a doubt: the first fit's map may differ from the refit's (a region's
# own scale), so its cost does not say which pose is right. On the 8272-set, 1 of the 345
# readings over 0.2 moved so; the next largest moves were 1.3 mm (none was 1.5 mm off).
SETTLE_MIN_COST = 0.2
SETTLE_TIP_MM = 2.0


def refine_on_score(scene: Scene, found: list[Candidate]) -> list[Candidate]:
    """``found`` with each lying piece moved to its refit on the raw score ``scene.score``
    when that refit is clean (see REFINE_MAX_COST); σ and cost stay the first fit's. The
    refits run side by side (:func:`fit_poses`)."""
    todo = [i for i, c in enumerate(found) if not c.upright]
    locs = [lying_local_3d(scene.pieces.dims(found[i].size)) for i in todo]
    fits = fit_poses(scene.score, scene.grid, [(loc, found[i].fit.pose)
                                               for loc, i in zip(locs, todo, strict=True)],
                     scene.camera_mm, search_mm=REFINE_SEARCH_MM, iterations=REFINE_ROUNDS)
    out = list(found)
    for i, loc, f in zip(todo, locs, fits, strict=True):
        if f.cost <= REFINE_MAX_COST and (moved := _moved_to(found[i], f, loc,
                                                             scene.camera_mm)) is not None:
            out[i] = moved
    return out


def _moved_to(c: Candidate, f: FitResult, loc: np.ndarray, camera_mm: np.ndarray
              ) -> Candidate | None:
    """``c`` at refit ``f``'s pose (body ``loc``, table mm) with its outline, or None when the
    refit saw too little of its outline (REFINE_MAX_HIDDEN) or moved too far
    (REFINE_MAX_MOVE_MM); σ and cost stay ``c``'s."""
    if not len(f.sample_cost) or float(np.isnan(f.sample_cost).mean()) > REFINE_MAX_HIDDEN:
        return None
    q = f.pose
    if math.hypot(q.x_mm - c.fit.pose.x_mm, q.y_mm - c.fit.pose.y_mm) > REFINE_MAX_MOVE_MM:
        return None
    params = np.array([q.x_mm, q.y_mm, math.radians(q.heading_deg)])
    return replace(c, fit=replace(c.fit, pose=q), outline_mm=outline_mm(loc, params, camera_mm))


def unsettled_doubt(scene: Scene, found: list[Candidate]) -> list[Candidate]:
    """``found`` with the ambiguity (mm, °) of each lying reading whose refit from its own
    pose on ``scene.fg`` fits as well and moves its tip over SETTLE_TIP_MM raised to cover
    the move (SETTLE_*). Table mm. The refits run side by side (:func:`fit_poses`)."""
    todo = [i for i, c in enumerate(found)
            if not c.upright and SETTLE_MIN_COST < c.fit.cost <= GOOD_COST]
    if not todo:
        return found
    dims = [scene.pieces.dims(found[i].size) for i in todo]
    fits = fit_poses(scene.fg, scene.grid, [(lying_local_3d(d), found[i].fit.pose)
                                            for d, i in zip(dims, todo, strict=True)],
                     scene.camera_mm)
    out = list(found)
    for i, d, f in zip(todo, dims, fits, strict=True):
        c = found[i]
        p, q, length = c.fit.pose, f.pose, d.footprint_length_mm
        if f.cost > c.fit.cost or math.dist(p.tip_mm(length), q.tip_mm(length)) <= SETTLE_TIP_MM:
            continue
        mm = math.dist(p.stern_mm, q.stern_mm)
        deg = abs((q.heading_deg - p.heading_deg + 180.0) % 360.0 - 180.0)
        out[i] = c.in_doubt_of(mm, deg)
    return out


# The camera-side face (issue 4, session 62, headbias72). A lying pyramid's side faces lean out
# a little over its bottom edges (normal z −0.07); the one turned to the camera is seen edge-on
# (n·to-camera 0.1–0.25), as a wedge on the table plane from the tip (0 mm) to the stern
# corner (1.5–4 mm for a small at 720p: the raised base corner seen inside the bottom edge).
# That face is the piece's colour darkened (unlit or grazing), and on a table of its own hue
# (green on felt, yellow on wood, blue on cloth, white on laminate) it scores as the table in
# shadow: the map's edge on that side runs from the tip to the raised corner, and the fit,
# whose outline's near side is the bottom edge, turns about the tip, the stern 0.8–2.3 mm away
# from the camera, at a clean cost with σ 0.2–0.6 mm (38 trusted readings 1.5–4.3° off on four
# 720p sets; 37 of them stern farther off than tip). A refit from the pose found, on the raw
# score, with the body lacking its camera-side stern corner (the face taken as unseen: its
# near side runs from the tip to the raised corner as seen) fits those far better (cost 0.009–
# 0.043 against the standard refit's 0.14–0.44 from the same start) and lands 0.1–0.6° off;
# where that face is seen, it fits worse (0.14–0.22 against 0.02–0.04). Taken when it costs at
# most NEAR_FACE_MAX_COST and at most NEAR_FACE_RATIO of the standard refit's; its hidden share
# and move bounded as REFINE_*'s. σ and cost stay the first fit's. Nearest cases outside
# the bounds (the scenes of the 38, trusted readings): 15019's small cyan (ratio 0.28, cost
# 0.068: would move 0.93 → 1.08 mm), 15061's large black (0.36, 0.122: 0.32 → 1.43 mm),
# 14903's small blue (0.41, 0.113: 0.78 → 1.66 mm).
NEAR_FACE_RATIO = 0.35
NEAR_FACE_MAX_COST = 0.05


def _near_cornerless(local_3d: np.ndarray, pose: Pose, camera_mm: np.ndarray) -> np.ndarray:
    """``local_3d`` (a lying body, :func:`lying_local_3d`) without the stern corner on the
    camera's side of its axis at ``pose`` (table mm)."""
    h = math.radians(pose.heading_deg)
    side = (-(camera_mm[0] - pose.x_mm) * math.sin(h) + (camera_mm[1] - pose.y_mm) * math.cos(h))
    return np.delete(local_3d, 1 if side > 0 else 0, axis=0)


def near_face_refit(scene: Scene, found: list[Candidate]) -> list[Candidate]:
    """``found`` with each lying piece moved to its refit on the raw score with the camera-side
    face taken as unseen, where that fits clearly better than the standard refit from the same
    pose (NEAR_FACE_*); σ and cost stay the first fit's. Table mm."""
    todo = [i for i, c in enumerate(found) if not c.upright]
    if not todo:
        return found
    cam = np.asarray(scene.camera_mm, np.float64)
    jobs: list[tuple[np.ndarray, Pose]] = []
    for i in todo:
        loc, p = lying_local_3d(scene.pieces.dims(found[i].size)), found[i].fit.pose
        jobs += [(loc, p), (_near_cornerless(loc, p, cam), p)]
    fits = fit_poses(scene.score, scene.grid, jobs, cam, search_mm=REFINE_SEARCH_MM)
    out = list(found)
    for k, i in enumerate(todo):
        std, near = fits[2 * k], fits[2 * k + 1]
        if near.cost > NEAR_FACE_MAX_COST or near.cost > NEAR_FACE_RATIO * std.cost:
            continue
        if (moved := _moved_to(found[i], near, jobs[2 * k][0], cam)) is not None:
            out[i] = moved
    return out
