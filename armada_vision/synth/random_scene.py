"""Random scenes, deterministic by seed: pieces lying flat without overlapping (silhouettes),
inside and around the play area, optionally touching (gaps under 1 mm), distorted, with extras.

>>> a = random_scene(5, n_pieces=4)
>>> a == random_scene(5, n_pieces=4), len(a.pieces)
(True, 4)
"""

from __future__ import annotations

import math

import numpy as np
import shapely

from armada_vision.geometry.layout import standard_layout
from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceSet, Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import silhouette
from armada_vision.synth.scene import (
    COLORS,
    SURFACES,
    CameraSpec,
    Chit,
    Coin,
    Die,
    Hand,
    PieceSpec,
    SceneSpec,
)


def fit_camera(image_size: tuple[int, int], table_mm: tuple[float, float], height_mm: float,
               tilt_deg: float, yaw_deg: float = 0.0,
               dist_coeffs: tuple[float, ...] = (0.0,) * 5, margin: float = 0.04) -> CameraSpec:
    """Camera ``height_mm`` above the table centre with the narrowest field of view (at most
    100°) that shows the whole table top (table mm, origin at its near-left corner)."""
    w, d = table_mm
    target = (w / 2, d / 2)
    corners = np.array([[0, 0, 0], [w, 0, 0], [w, d, 0], [0, d, 0]], float)
    lo, hi = 10.0, 100.0
    for _ in range(30):
        mid = (lo + hi) / 2
        cam = CameraSpec.looking_at(image_size, target, height_mm, tilt_deg, yaw_deg, mid)
        px = cam.project(corners)
        iw, ih = image_size
        inside = np.all((px[:, 0] > margin * iw) & (px[:, 0] < (1 - margin) * iw)
                        & (px[:, 1] > margin * ih) & (px[:, 1] < (1 - margin) * ih))
        lo, hi = (lo, mid) if inside else (mid, hi)
    return CameraSpec.looking_at(image_size, target, height_mm, tilt_deg, yaw_deg, hi,
                                 dist_coeffs)


def random_scene(seed: int, *, image_size: tuple[int, int] = (1920, 1080),
                 tilt_deg: float | None = None, n_pieces: int | None = None,
                 touching: bool = False, distort: bool = False, extras: bool = False,
                 surface: str | None = None, table: tuple[float, float] = (600, 600),
                 upright: int = 0, outside: int = 0, colors: tuple[str, ...] | None = None,
                 piece_set: PieceSet = NOMINAL_PIECES, noise_sigma: float = 2.0,
                 jpeg_quality: int | None = None, yaw_deg: float | None = None,
                 height_mm: float | None = None, hand: bool | None = None) -> SceneSpec:
    """A random table scene (see module doc). ``outside``: how many pieces to put partly outside
    the play area (still on the table, off the markers); ``upright``: pieces standing up;
    ``hand``: a hand reaching in (None: at random when ``extras``)."""
    rng = np.random.default_rng([seed, 1])
    layout = standard_layout(*table)
    tilt = float(rng.uniform(0, 35)) if tilt_deg is None else float(tilt_deg)
    height = float(rng.uniform(800, 1400)) if height_mm is None else float(height_mm)
    dist = (0.0,) * 5
    if distort:
        k1 = float(rng.uniform(-0.28, -0.05))
        dist = (k1, float(rng.uniform(0.03, 0.1)), float(rng.uniform(-1e-3, 1e-3)),
                float(rng.uniform(-1e-3, 1e-3)), 0.0)
    yaw = float(rng.uniform(-4, 4)) if yaw_deg is None else float(yaw_deg)
    camera = fit_camera(image_size, table, height, tilt, yaw, dist)
    n = int(rng.integers(4, 11)) if n_pieces is None else int(n_pieces)
    palette = colors or COLORS
    blockers = [_marker_zone(layout)]
    placed: list[PieceSpec] = []
    area = shapely.Polygon(layout.play_area_mm)
    table_poly = shapely.box(0, 0, *table).buffer(-8.0)
    for i in range(n):
        size = Size(rng.choice([z.value for z in Size]))
        # Given colours are used in turn (so a scene can show each once); otherwise at random.
        color = colors[i % len(colors)] if colors else str(rng.choice(palette))
        d = piece_set.dims(size)
        want_out = i < outside
        want_touch = touching and placed and i % 2 == 1
        pose = None
        for _ in range(400):
            if want_touch:
                pose = _touching_pose(placed[-1], piece_set, d, rng, gap=float(
                    rng.uniform(0.15, 0.9)))
            else:
                region = table_poly if want_out else area
                minx, miny, maxx, maxy = region.bounds
                pose = Pose(float(rng.uniform(minx, maxx)), float(rng.uniform(miny, maxy)),
                            float(rng.uniform(0, 360)))
            if pose is None:
                continue
            sil = silhouette(pose, d)
            if not table_poly.contains(sil) or sil.intersects(blockers[0]):
                continue
            if want_out and (area.contains(sil) or not area.intersects(sil)):
                continue
            if not want_out and not want_touch and not area.contains(sil):
                continue
            others = [silhouette(p.pose, piece_set.dims(p.size)) for p in placed
                      if not p.upright]
            ups = [_upright_poly(p, piece_set) for p in placed if p.upright]
            gaps = [sil.distance(o) for o in others + ups]
            if want_touch:
                # Near the piece it leans on (0.1–1 mm), well clear of the others.
                if 0.1 < gaps[-1] < 1.0 and all(g > 3.0 for g in gaps[:-1]):
                    break
            elif all(g > 4.0 for g in gaps):
                break
            pose = None
        if pose is not None:
            placed.append(PieceSpec(size, color, pose))
    for _ in range(upright):
        size = Size(rng.choice([z.value for z in Size]))
        for _ in range(200):
            minx, miny, maxx, maxy = area.bounds
            p = PieceSpec(size, str(rng.choice(palette)),
                          Pose(float(rng.uniform(minx + 20, maxx - 20)),
                               float(rng.uniform(miny + 20, maxy - 20)),
                               float(rng.uniform(0, 90))), upright=True)
            poly = _upright_poly(p, piece_set).buffer(4.0)
            if all(not poly.intersects(_poly_of(q, piece_set)) for q in placed):
                placed.append(p)
                break
    extra_list: tuple = ()
    if extras:
        extra_list = _random_extras(rng, placed, piece_set, table, area, hand)
    elif hand:
        extra_list = _random_extras(rng, placed, piece_set, table, area, True, n_things=0)
    # Cameras differ: exposure and white balance vary a little from scene to scene.
    exposure = float(rng.uniform(0.85, 1.12))
    wb = tuple(float(g) for g in 1.0 + rng.uniform(-0.06, 0.06, 3))
    return SceneSpec(layout=layout, camera=camera, pieces=tuple(placed),
                     exposure=exposure, white_balance=wb,
                     surface=surface or str(rng.choice(SURFACES)), extras=extra_list,
                     noise_sigma=noise_sigma, jpeg_quality=jpeg_quality, seed=seed,
                     piece_set=piece_set, table_mm=(float(table[0]), float(table[1])))


def _marker_zone(layout) -> shapely.Geometry:
    quads = [shapely.Polygon(m.corners_mm()).buffer(m.size_mm * 0.2) for m in layout.markers]
    return shapely.union_all(quads)


def _upright_poly(p: PieceSpec, ps: PieceSet) -> shapely.Polygon:
    hw = ps.dims(p.size).half_w_mm
    return shapely.Point(p.pose.stern_mm).buffer(hw * math.sqrt(2))


def _poly_of(p: PieceSpec, ps: PieceSet) -> shapely.Geometry:
    return _upright_poly(p, ps) if p.upright else silhouette(p.pose, ps.dims(p.size))


def _touching_pose(other: PieceSpec, ps: PieceSet, d, rng: np.random.Generator,
                   gap: float) -> Pose | None:
    """A pose whose silhouette comes within ``gap`` mm of ``other``'s: pick a direction and a
    heading, then bisect the distance along that direction."""
    base = silhouette(other.pose, ps.dims(other.size))
    c = np.array(base.centroid.coords[0])
    ang = rng.uniform(0, 2 * np.pi)
    u = np.array([math.cos(ang), math.sin(ang)])
    heading = float(rng.uniform(0, 360))
    # Place the new piece's silhouette centroid along u from the other's centroid.
    probe = silhouette(Pose(0, 0, heading), d)
    off = -np.array(probe.centroid.coords[0])
    lo, hi = 0.0, 120.0

    def at(t: float) -> Pose:
        p = c + u * t + off
        return Pose(float(p[0]), float(p[1]), heading)

    if silhouette(at(hi), d).distance(base) < gap:
        return None
    for _ in range(40):
        mid = (lo + hi) / 2
        if silhouette(at(mid), d).distance(base) < gap:
            lo = mid
        else:
            hi = mid
    return at(hi)


def _random_extras(rng: np.random.Generator, placed: list[PieceSpec], ps: PieceSet,
                   table: tuple[float, float], area: shapely.Polygon, hand: bool | None,
                   n_things: int | None = None) -> tuple:
    taken = [_poly_of(p, ps).buffer(3.0) for p in placed]
    out = []
    minx, miny, maxx, maxy = area.bounds
    makers = [lambda c: Chit(c, 9.0, str(rng.choice(["red", "yellow", "blue"])),
                             str(int(rng.integers(1, 4)))),
              lambda c: Coin(c, float(rng.uniform(9.5, 13.0))),
              lambda c: Die(c, 16.0, float(rng.uniform(0, 90)), int(rng.integers(1, 7)),
                            str(rng.choice(["white", "red", "black"])))]
    for k in range(int(rng.integers(2, 5)) if n_things is None else n_things):
        make = makers[k % len(makers)]
        for _ in range(100):
            c = (float(rng.uniform(minx, maxx)), float(rng.uniform(miny, maxy)))
            disc = shapely.Point(c).buffer(16.0)
            if not any(disc.intersects(t) for t in taken):
                out.append(make(c))
                taken.append(disc)
                break
    if rng.random() < 0.6 if hand is None else hand:
        x = float(rng.uniform(0.3, 0.7) * table[0])
        out.append(Hand((x + float(rng.uniform(-80, 80)), -250.0),
                        (x, float(rng.uniform(0.25, 0.55) * table[1])),
                        float(rng.uniform(50, 110))))
    return tuple(out)
