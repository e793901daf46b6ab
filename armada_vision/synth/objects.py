"""3-D things on the table turned into paints (image px) and shadow casters (table mm).

Every object gives ``Drawable(depth_mm, paints, casters)``: paints in the ideal canvas, drawn
far to near; casters are (N, 3) table-mm point sets whose shadows fall on the table.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from armada_vision.geometry.pieces import PieceDims
from armada_vision.geometry.shapes import body_local_3d
from armada_vision.synth.draw import Paint
from armada_vision.synth.materials import (
    CHIT_COLORS,
    COIN,
    DIE_COLORS,
    MATERIALS,
    SKIN,
    Material,
)
from armada_vision.synth.project import IdealView
from armada_vision.synth.scene import Chit, Coin, Die, Hand, PieceSpec

WALL_MM = 1.3  # plastic wall thickness: the bright rim of the open base
# Windows and lamps low in the room, seen only as glints on the tilted faces: direction towards
# them (table frame) and strength.
GLINT_LAMPS = (((0.85, 0.2, 0.45), 0.8), ((-0.6, 0.7, 0.4), 0.7), ((0.2, -0.9, 0.42), 0.6),
               ((-0.8, -0.3, 0.5), 0.6))


@dataclass(slots=True)
class Drawable:
    depth_mm: float
    paints: list[Paint]
    casters: list[np.ndarray]
    shadow_transmit: tuple[float, float, float] = (0.0, 0.0, 0.0)
    on_top: bool = False


@dataclass(frozen=True, slots=True)
class Light:
    """Unit vector towards the light (table frame), ambient and key strengths."""

    to_light: np.ndarray
    ambient: float = 0.55
    key: float = 0.55


def piece_vertices(spec: PieceSpec, d: PieceDims) -> tuple[np.ndarray, tuple, int | None]:
    """Table-mm vertices, faces and the index of the open face (None: not visible)."""
    if spec.upright:
        hw, c = d.half_w_mm, spec.pose.direction
        local = np.array([[-hw, -hw], [hw, -hw], [hw, hw], [-hw, hw]])
        rot = np.array([[c[0], -c[1]], [c[1], c[0]]])
        base = local @ rot.T + spec.pose.stern_mm
        v = np.vstack([np.column_stack([base, np.zeros(4)]),
                       [[spec.pose.x_mm, spec.pose.y_mm, d.height_mm]]])
        faces = ((0, 1, 4), (1, 2, 4), (2, 3, 4), (3, 0, 4), (3, 2, 1, 0))
        return v, faces, 4
    v_local, faces = body_local_3d(d)
    xy = spec.pose.to_table(v_local[:, :2])
    return np.column_stack([xy, v_local[:, 2]]), faces, 4


def _normal(v: np.ndarray, face: tuple, centroid: np.ndarray) -> np.ndarray:
    a, b, c = v[face[0]], v[face[1]], v[face[2]]
    n = np.cross(b - a, c - a)
    n /= np.linalg.norm(n)
    return n if n @ (v[list(face)].mean(axis=0) - centroid) > 0 else -n


def _inner_strips(poly: np.ndarray, width_px: float) -> list[np.ndarray]:
    """Thin quads inside a convex polygon along each of its edges (bright plastic edges)."""
    c = poly.mean(axis=0)
    out = []
    for i in range(len(poly)):
        a, b = poly[i], poly[(i + 1) % len(poly)]
        e = b - a
        ln = float(np.hypot(*e))
        if ln < 1e-6:
            continue
        n = np.array([-e[1], e[0]]) / ln
        if n @ (c - a) < 0:
            n = -n
        # Pull the inner edge's ends towards the centre so strips stay inside the face.
        out.append(np.array([a, b, b + (c - b) * min(1.0, width_px / max(
            np.hypot(*(c - b)), 1e-6)) * 1.5, a + (c - a) * min(1.0, width_px / max(
            np.hypot(*(c - a)), 1e-6)) * 1.5]))
    return out


def piece_drawable(spec: PieceSpec, d: PieceDims, view: IdealView, light: Light,
                   cam_center: np.ndarray, px_per_mm: float, effects: bool = True) -> Drawable:
    """A pyramid: inner walls first (seen through the open base or the plastic), then the
    outer walls, with bright edges and a bright rim round the open base."""
    v, faces, open_face = piece_vertices(spec, d)
    mat: Material = MATERIALS[spec.color]
    centroid = v.mean(axis=0)
    px = view.project(v)
    T = np.asarray(mat.transmit)
    refl = np.asarray(mat.reflect)
    back, front = [], []
    for k, f in enumerate(faces):
        n = _normal(v, f, centroid)
        to_cam = cam_center - v[list(f)].mean(axis=0)
        to_cam /= np.linalg.norm(to_cam)
        facing = float(n @ to_cam)
        poly = px[list(f)]
        if facing <= 0:
            # Inside of the far wall: lit by what comes through the near walls.
            inner = max(0.0, float(-n @ light.to_light))
            k_r = 0.30 if mat.opaque else 0.18
            add = refl * k_r * (0.5 + 0.5 * inner)
            back.append(Paint(poly, mul=tuple(T * 0.96), add=tuple(add)))
        elif k != open_face:
            diff = max(0.0, float(n @ light.to_light))
            half = light.to_light + to_cam
            half /= np.linalg.norm(half)
            spec_ = 110.0 * max(0.0, float(n @ half)) ** 24
            fres = 0.04 + 0.4 * (1.0 - facing) ** 5
            k_r = 1.0 if mat.opaque else 0.32
            add = refl * k_r * (light.ambient + light.key * diff) + (spec_ + 90.0 * fres)
            mul = T * (1.0 - fres)
            # Light leaving the wall is bent: the table behind looks shifted.
            shift = (0.0, 0.0)
            if effects and not mat.opaque:
                nd = view.project(np.array([v[f[0]], v[f[0]] + n]))
                dn = nd[1] - nd[0]
                s = 0.9 * px_per_mm * (1.0 - facing)
                ln = float(np.hypot(*dn))
                if ln > 1e-6:
                    shift = (float(-dn[0] / ln * s), float(-dn[1] / ln * s))
            front.append(Paint(poly, mul=tuple(mul), add=tuple(add), shift_px=shift))
            # Glints: mirror images of the key light and of two ceiling lamps.
            for src in ((light.to_light, 1.0), *GLINT_LAMPS) if effects else ():
                glint = _glint(v[list(f)], n, np.asarray(src[0]) / np.linalg.norm(src[0]),
                               cam_center, view, src[1])
                if glint is not None:
                    front.append(glint)
            if not effects:
                continue
            edge_w = max(0.6, 0.5 * px_per_mm)
            glow = tuple(np.minimum(refl * 0.28 + 28.0, 255.0) * (0.5 if mat.opaque else 1.0))
            front += [Paint(q, mul=(1.0, 1.0, 1.0), add=glow)
                      for q in _inner_strips(poly, edge_w)]
        elif effects:
            # The rim of the open base: the walls' cut edges, bright where light pipes out.
            rim_w = max(0.7, WALL_MM * px_per_mm * (0.3 + 0.7 * facing))
            rim = tuple(np.minimum(refl * (0.9 if mat.opaque else 0.8) + 60.0, 255.0))
            front += [Paint(q, mul=tuple(T * 0.5), add=rim) for q in _inner_strips(poly, rim_w)]
    depth = float(np.linalg.norm(centroid - cam_center))
    shadow_t = tuple(float(x) for x in T * 0.85)
    return Drawable(depth, back + front, [v], shadow_t)


def _glint(face: np.ndarray, n: np.ndarray, to_light: np.ndarray, cam_center: np.ndarray,
           view: IdealView, strength: float = 1.0, radius_mm: float = 1.4,
           window_deg: float = 16.0) -> Paint | None:
    """A bright spot where a face mirrors a lamp into the camera. Lamps are windows of
    ``window_deg`` half-width, not points, so a face glints when the mirror direction at its
    centre falls within the window; the spot slides across the face towards the lamp."""
    c = face.mean(axis=0)
    to_cam = cam_center - c
    to_cam /= np.linalg.norm(to_cam)
    mirror = 2.0 * float(n @ to_cam) * n - to_cam        # direction the face reflects from
    ang = math.degrees(math.acos(float(np.clip(mirror @ to_light, -1.0, 1.0))))
    if ang >= window_deg:
        return None
    off = to_light - mirror
    off -= float(off @ n) * n
    p = c + off * 40.0          # a lamp off the mirror direction moves the spot that way
    k = len(face)
    for i in range(k):
        e0, e1 = face[i], face[(i + 1) % k]
        inward = np.cross(n, e1 - e0)
        inward /= np.linalg.norm(inward)
        if inward @ (c - e0) < 0:
            inward = -inward
        if float((p - e0) @ inward) < radius_mm * 1.2:
            return None
    u = np.cross(n, [0.0, 0.0, 1.0] if abs(n[2]) < 0.9 else [1.0, 0.0, 0.0])
    u /= np.linalg.norm(u)
    w = np.cross(n, u)
    t = np.linspace(0, 2 * np.pi, 14, endpoint=False)
    ring = p + radius_mm * (np.outer(np.cos(t), u) + np.outer(np.sin(t), w))
    a = strength * (1.0 - ang / window_deg)
    return Paint(view.project(ring), mul=(1.0 - 0.7 * a,) * 3, add=(200.0 * a,) * 3)


def _circle(center: tuple[float, float], r: float, z: float, n: int = 40) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.column_stack([center[0] + r * np.cos(a), center[1] + r * np.sin(a),
                            np.full(n, z)])


def _hull_px(px: np.ndarray) -> np.ndarray:
    import cv2  # local: keeps this module's top light

    return cv2.convexHull(px.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def disc_drawable(extra: Chit | Coin, view: IdealView, light: Light,
                  cam_center: np.ndarray) -> Drawable:
    """Chits and coins: a short cylinder, side then top."""
    if isinstance(extra, Coin):
        color, thick = np.asarray(COIN, float), extra.thickness_mm
    else:
        color, thick = np.asarray(CHIT_COLORS.get(extra.color, (40, 40, 190)), float), 1.5
    bottom = _circle(extra.center_mm, extra.radius_mm, 0.0)
    top = _circle(extra.center_mm, extra.radius_mm, thick)
    side = _hull_px(view.project(np.vstack([bottom, top])))
    shade = light.ambient + light.key * float(light.to_light[2])
    paints = [Paint(side, add=tuple(color * 0.55)),
              Paint(view.project(top), add=tuple(np.minimum(color * shade, 255)))]
    if isinstance(extra, Chit):
        ring = _circle(extra.center_mm, extra.radius_mm * 0.45, thick + 0.01, 24)
        paints.append(Paint(view.project(ring), add=(230.0, 230.0, 230.0)))
    else:
        rim = _circle(extra.center_mm, extra.radius_mm * 0.85, thick + 0.01)
        paints.append(Paint(view.project(rim), mul=(1.0, 1.0, 1.0), add=(-12.0, -12.0, -12.0)))
    depth = float(np.linalg.norm(np.array([*extra.center_mm, thick]) - cam_center))
    return Drawable(depth, paints, [np.vstack([bottom, top])])


def die_drawable(die: Die, view: IdealView, light: Light, cam_center: np.ndarray) -> Drawable:
    """A cube with its pips on top."""
    h = die.side_mm / 2
    a = math.radians(die.yaw_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    sq = np.array([[-h, -h], [h, -h], [h, h], [-h, h]]) @ rot.T + die.center_mm
    v = np.vstack([np.column_stack([sq, np.zeros(4)]),
                   np.column_stack([sq, np.full(4, die.side_mm)])])
    faces = ((4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))
    color = np.asarray(DIE_COLORS.get(die.color, (225, 225, 225)), float)
    centroid = v.mean(axis=0)
    px = view.project(v)
    paints = []
    for f in faces:
        n = _normal(v, f, centroid)
        to_cam = cam_center - v[list(f)].mean(axis=0)
        if n @ to_cam <= 0:
            continue
        shade = light.ambient + light.key * max(0.0, float(n @ light.to_light))
        paints.append(Paint(px[list(f)], add=tuple(np.minimum(color * shade, 255))))
    ink = (30.0, 30.0, 30.0) if color.mean() > 128 else (230.0, 230.0, 230.0)
    g = die.side_mm * 0.27
    layout = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
              4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
              5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
              6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}
    for i, j in layout.get(die.value, layout[6]):
        c = np.array([i * g, j * g]) @ rot.T + die.center_mm
        paints.append(Paint(view.project(_circle((c[0], c[1]), die.side_mm * 0.08,
                                                 die.side_mm + 0.01, 16)), add=ink))
    depth = float(np.linalg.norm(centroid - cam_center))
    return Drawable(depth, paints, [v])


def _capsule(a: np.ndarray, b: np.ndarray, r: float, za: float, zb: float,
             n: int = 12) -> np.ndarray:
    """3-D points whose hull (seen from above) is a capsule from a to b (table mm)."""
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    ring = np.column_stack([np.cos(t), np.sin(t)]) * r
    return np.vstack([np.column_stack([ring + a, np.full(n, za)]),
                      np.column_stack([ring + b, np.full(n, zb)])])


def hand_parts(hand: Hand) -> list[np.ndarray]:
    """Convex 3-D parts (table mm) of an arm and hand: forearm, palm, four fingers, thumb."""
    p0 = np.array(hand.to_mm, float)
    p1 = np.array(hand.from_mm, float)
    u = p1 - p0
    ln = float(np.linalg.norm(u))
    u = u / ln if ln > 1e-6 else np.array([0.0, -1.0])
    n = np.array([-u[1], u[0]])
    z0 = hand.height_mm
    # Forearm: from the wrist, rising towards where it enters and widening a little.
    far = max(ln, 60.0) + 200.0
    wrist, elbow = p0 + u * 40.0, p0 + u * far
    forearm = np.array([[*(wrist + n * 30.0), z0 + 5], [*(elbow + n * 44.0), z0 + 0.25 * far],
                        [*(elbow - n * 44.0), z0 + 0.25 * far], [*(wrist - n * 30.0), z0 + 5]])
    parts = [np.vstack([forearm, _capsule(wrist, wrist, 30.0, z0 + 5, z0 + 5)])]
    # Palm: a rounded oblong around p0.
    t = np.linspace(0, 2 * np.pi, 28, endpoint=False)
    palm = p0 + np.outer(np.cos(t) * 50.0, u) + np.outer(np.sin(t) * 42.0, n)
    parts.append(np.column_stack([palm, np.full(len(t), z0)]))
    # Fingers: slightly spread capsules pointing away from the arm, then the thumb.
    for k, (off, length) in enumerate(((-27.0, 55.0), (-9.0, 68.0), (9.0, 72.0),
                                       (27.0, 62.0))):
        ang = math.radians((k - 1.5) * 5.0)
        dirv = -u * math.cos(ang) + n * math.sin(ang)
        base = p0 - u * 36.0 + n * off
        parts.append(_capsule(base, base + dirv * length, 8.0, z0, z0 - 10.0))
    tb = p0 + n * 36.0 + u * 5.0
    parts.append(_capsule(tb, tb - u * 30.0 + n * 32.0, 10.0, z0, z0 - 6.0))
    return parts


def hand_drawable(hand: Hand, view: IdealView, light: Light,
                  cam_center: np.ndarray) -> Drawable:
    parts = hand_parts(hand)
    skin = np.asarray(SKIN)
    paints = []
    for i, part in enumerate(parts):
        hull = _hull_px(view.project(part))
        shade = (0.82, 0.95, 0.9, 0.93, 0.95, 0.92, 0.88)[min(i, 6)]
        if i >= 2:   # fingers: a darker rim where they meet their neighbours
            paints.append(Paint(hull, add=tuple(skin * 0.62)))
            c = hull.mean(axis=0)
            hull = c + (hull - c) * 0.9
        paints.append(Paint(hull, add=tuple(np.minimum(skin * shade, 255))))
    return Drawable(0.0, paints, parts, on_top=True)
