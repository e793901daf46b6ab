"""Render a :class:`SceneSpec` into a camera image and its exact ground truth.

Pipeline: table texture warped onto the table plane by its homography; markers drawn
analytically (exact corners); soft shadows; projector light; objects far to near, supersampled;
lens distortion by ``cv2.remap``; sensor noise; JPEG. Truth comes from the spec alone.

>>> from armada_vision.synth.random_scene import random_scene
>>> r = render(random_scene(3, image_size=(320, 180), n_pieces=2))
>>> r.image_bgr.shape, len(r.truth["pieces"])
((180, 320, 3), 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import shapely

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.shapes import footprint
from armada_vision.synth.draw import Paint, composite
from armada_vision.synth.materials import FLOOR, INK, PAPER
from armada_vision.synth.objects import (
    Drawable,
    Light,
    die_drawable,
    disc_drawable,
    hand_drawable,
    hand_parts,
    piece_drawable,
    piece_vertices,
)
from armada_vision.synth.project import IdealView, ideal_view
from armada_vision.synth.scene import Chit, Coin, Die, Hand, SceneSpec
from armada_vision.synth.texture import table_texture

# White paper round each marker, in marker cells: narrower quiet zones pull OpenCV's sub-pixel
# corner refinement towards the paper's corners (measured: 3 px errors at half a cell).
MARGIN_CELLS = 1.0


@dataclass(frozen=True, slots=True)
class Rendered:
    """A rendered frame (BGR uint8), its truth (truth.json), layout and camera intrinsics.
    ``encoded`` holds the JPEG bytes when the scene asked for JPEG."""

    image_bgr: np.ndarray = field(repr=False)
    truth: dict[str, Any] = field(repr=False)
    layout: TableLayout
    camera: CameraIntrinsics
    encoded: bytes | None = field(default=None, repr=False)


def render(spec: SceneSpec) -> Rendered:
    """Render ``spec``; deterministic for a given spec (its seed drives texture and noise)."""
    rng = np.random.default_rng(spec.seed)
    view = ideal_view(spec.camera)
    cw, ch = view.size
    H = view.H_image_from_table
    table_w, table_d = spec.table_extent_mm()
    scale = _px_per_mm(H, table_w, table_d)
    light = Light(np.asarray(spec.light_dir, float) / np.linalg.norm(spec.light_dir))
    cam_center = np.asarray(spec.camera.center_mm)

    # Table albedo: texture warped by the plane homography, markers on paper drawn exactly.
    ppm = float(np.clip(round(scale * 2) / 2, 0.5, 3.0))
    # The table top reaches ``table_margin_mm`` beyond the layout's extent on every side.
    ext = round(spec.table_margin_mm)
    tex = _texture(spec.surface, spec.seed if spec.table_seed is None else spec.table_seed,
                   round(table_w) + 2 * ext, round(table_d) + 2 * ext, ppm)
    T_tex = np.array([[ppm, 0, ext * ppm - 0.5], [0, -ppm, (round(table_d) + ext) * ppm - 0.5],
                      [0, 0, 1]])
    img = cv2.warpPerspective(tex, H @ np.linalg.inv(T_tex), (cw, ch), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=FLOOR)
    for m in spec.layout.markers:
        composite(img, _marker_paints(spec.layout.dictionary, m.id, m.corners_mm(), H))

    # Light: a soft key light with falloff and vignetting, shadows, projector.
    illum = _illumination(view, H, table_w, table_d, light)
    drawables = _drawables(spec, view, light, cam_center, scale)
    shade = (_shadows(drawables, view, H, light, scale, (ch, cw)) if spec.effects
             else np.ones((ch, cw, 3), np.float32))
    # In place (the same float32 products, a ~25 MB 1080p frame fewer alive; session 51).
    lit = np.multiply(illum[..., None], shade, out=shade)
    lit *= img
    if spec.projector is not None:
        lit += img / 255.0 * _projector_light(spec, H, (cw, ch))
    img = lit
    del lit, shade  # ``img`` alone holds the canvas, so the gain or blur below frees it
    # Objects far to near; the hand last. Their own shading is scaled by the local light.
    for dr in sorted(drawables, key=lambda d: (d.on_top, -d.depth_mm)):
        k = _illum_at(illum, dr)
        for p in dr.paints:
            p.add = tuple(a * k for a in p.add)
        composite(img, dr.paints)

    img = view.distort(img)
    w, h = spec.camera.intrinsics.image_size
    img = img[:h, :w] if view.map_x is None else img
    gain = np.float32(spec.exposure) * np.asarray(spec.white_balance, np.float32)
    if np.any(gain != 1.0):
        img = img * gain
    if spec.blur_px > 0:
        img = cv2.GaussianBlur(img, (0, 0), spec.blur_px)
    if spec.noise_sigma > 0:
        # Read noise plus shot noise growing with the square root of the signal.
        # In place: the same float32 steps with three 1080p frames fewer alive (session 51).
        sigma = np.maximum(img, 0.0, dtype=np.float32)
        sigma *= np.float32(1 / 64)
        cv2.sqrt(sigma, dst=sigma)
        sigma *= np.float32(0.4 * spec.noise_sigma)
        sigma += np.float32(0.6 * spec.noise_sigma)
        noise = rng.standard_normal(img.shape, dtype=np.float32)
        noise *= sigma
        del sigma
        img += noise
        del noise
    img += np.float32(0.5)
    np.clip(img, 0, 255, out=img)
    out = img.astype(np.uint8)
    encoded = None
    if spec.jpeg_quality is not None:
        _ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, spec.jpeg_quality])
        encoded = buf.tobytes()
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return Rendered(out, truth(spec), spec.layout, spec.camera.intrinsics, encoded)


def truth(spec: SceneSpec) -> dict[str, Any]:
    """Ground truth of ``spec`` (truth.json): poses in table mm, their projections in px."""
    cam = spec.camera
    area = shapely.Polygon(spec.layout.play_area_mm)
    pieces, upright = [], []
    hand_polys = [shapely.MultiPoint(cam.project(p)).convex_hull
                  for e in spec.extras if isinstance(e, Hand) for p in hand_parts(e)]
    for i, p in enumerate(spec.pieces):
        d = spec.piece_set.dims(p.size)
        if p.upright:
            c = cam.project([[p.pose.x_mm, p.pose.y_mm, 0.0]])[0]
            upright.append({"id": f"u{i}", "size": p.size.value, "color": p.color,
                            "center": [p.pose.x_mm, p.pose.y_mm],
                            "center_px": [float(c[0]), float(c[1])]})
            continue
        tip = p.pose.tip_mm(d.footprint_length_mm)
        px = cam.project([[p.pose.x_mm, p.pose.y_mm, 0.0], [tip[0], tip[1], 0.0]])
        v, _, _ = piece_vertices(p, d)
        outline = cam.project(v)
        sil = shapely.MultiPoint(outline).convex_hull
        w, h = cam.intrinsics.image_size
        visible = bool(np.all((outline >= 0) & (outline <= (w - 1, h - 1))))
        pieces.append({
            "id": f"p{i}", "size": p.size.value, "color": p.color,
            "stern": [p.pose.x_mm, p.pose.y_mm], "tip": [tip[0], tip[1]],
            "heading": p.pose.heading_deg,
            "in_play_area": bool(area.buffer(1e-9).contains(footprint(p.pose, d))),
            "stern_px": [float(px[0, 0]), float(px[0, 1])],
            "tip_px": [float(px[1, 0]), float(px[1, 1])],
            "fully_visible": visible,
            "occluded": any(sil.intersects(hp) for hp in hand_polys),
        })
    extras = []
    for e in spec.extras:
        item: dict[str, Any] = {"kind": e.kind}
        if isinstance(e, Hand):
            item.update({"from": list(e.from_mm), "to": list(e.to_mm), "height": e.height_mm})
        else:
            item["center"] = list(e.center_mm)
            if isinstance(e, Chit | Coin):
                item["radius"] = e.radius_mm
            if isinstance(e, Die):
                item.update({"side": e.side_mm, "value": e.value})
        extras.append(item)
    markers = []
    for m in spec.layout.markers:
        c = cam.project(np.column_stack([m.corners_mm(), np.zeros(4)]))
        quad = shapely.Polygon(c).buffer(3.0)
        markers.append({"id": m.id, "corners_px": c.tolist(),
                        "occluded": any(quad.intersects(hp) for hp in hand_polys)})
    return {
        "image_size": list(cam.intrinsics.image_size),
        "camera": cam.to_dict(),
        "surface": spec.surface,
        "seed": spec.seed,
        "pieces": pieces,
        "upright": upright,
        "extras": extras,
        "markers": markers,
        "projector": None if spec.projector is None else {
            **spec.projector.intrinsics.to_dict(), "rvec": list(spec.projector.rvec),
            "tvec": list(spec.projector.tvec), "gain": spec.projector.gain},
    }


# Table textures kept: one. A sequence's frames share their table (``table_seed``) and hit it;
# random scenes each have their own table, so more never hit and only held memory: ~11 MB a
# texture (a 600 mm table at 2-3 px/mm), six of them ~65 MB of the benchmark's peak RSS over
# 96 scenes of seed 13744 (session 51).
TEXTURES_KEPT = 1


@lru_cache(maxsize=TEXTURES_KEPT)
def _texture(surface: str, seed: int, w_mm: int, d_mm: int, ppm: float) -> np.ndarray:
    tex = table_texture(surface, int(w_mm * ppm), int(d_mm * ppm), ppm,
                        np.random.default_rng([seed, 7]))
    tex.setflags(write=False)
    return tex


def _px_per_mm(H: np.ndarray, w_mm: float, d_mm: float) -> float:
    """Largest image scale (px per table mm) over the table's corners and centre."""
    best = 0.0
    for x, y in ((0, 0), (w_mm, 0), (0, d_mm), (w_mm, d_mm), (w_mm / 2, d_mm / 2)):
        p = np.array([[x, y, 1.0], [x + 1, y, 1.0], [x, y + 1, 1.0]]) @ H.T
        q = p[:, :2] / p[:, 2:3]
        if np.all(p[:, 2] > 0):
            a, b = q[1] - q[0], q[2] - q[0]
            best = max(best, float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0]))))
    return best or 1.0


def _marker_paints(dictionary: str, marker_id: int, corners_mm: np.ndarray,
                   H: np.ndarray) -> list[Paint]:
    """Paper square, black marker square and its white cells, each cell an exact quad."""
    aruco = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    cells = aruco.markerSize + 2
    bits = cv2.aruco.generateImageMarker(aruco, marker_id, cells)  # one pixel per cell
    tl, tr, _br, bl = corners_mm
    ex, ey = (tr - tl) / cells, (bl - tl) / cells   # one cell along a row, down a column

    def quad(r0: float, c0: float, r1: float, c1: float) -> np.ndarray:
        pts = np.array([tl + ex * c0 + ey * r0, tl + ex * c1 + ey * r0,
                        tl + ex * c1 + ey * r1, tl + ex * c0 + ey * r1])
        q = np.column_stack([pts, np.ones(4)]) @ H.T
        return q[:, :2] / q[:, 2:3]

    m = MARGIN_CELLS
    grow = 0.004  # white cells overlap their white neighbours (not the black) by a hair
    paints = [Paint(quad(-m, -m, cells + m, cells + m), add=PAPER),
              Paint(quad(0, 0, cells, cells), add=INK)]
    for r in range(1, cells - 1):
        for c in range(1, cells - 1):
            if bits[r, c] > 127:
                g = [grow if (0 < rr < cells - 1 and 0 < cc < cells - 1 and bits[rr, cc] > 127)
                     else 0.0 for rr, cc in ((r - 1, c), (r, c - 1), (r + 1, c), (r, c + 1))]
                paints.append(Paint(quad(r - g[0], c - g[1], r + 1 + g[2], c + 1 + g[3]),
                                    add=PAPER))
    return paints


def _illumination(view: IdealView, H: np.ndarray, w_mm: float, d_mm: float,
                  light: Light) -> np.ndarray:
    """Light falling on the table per canvas pixel (about 1): a lamp above and to the side of
    the table (falloff, cosine law) and the lens's vignetting. Computed coarse, then resized."""
    cw, ch = view.size
    step = 16
    gx, gy = np.meshgrid(np.arange(0, cw + step, step, dtype=float),
                         np.arange(0, ch + step, step, dtype=float))
    p = np.stack([gx, gy, np.ones_like(gx)], -1) @ np.linalg.inv(H).T
    xy = p[..., :2] / p[..., 2:3]
    lamp = np.array([w_mm / 2, d_mm / 2, 0.0]) + light.to_light * 1600.0
    rel = np.concatenate([xy, np.zeros_like(xy[..., :1])], -1) - lamp
    dist = np.linalg.norm(rel, axis=-1)
    cos_in = -rel[..., 2] / dist
    key = cos_in * (1600.0 / dist) ** 2
    K = view.K
    r2 = ((gx - K[0, 2]) / K[0, 0]) ** 2 + ((gy - K[1, 2]) / K[1, 1]) ** 2
    vignette = 1.0 / (1.0 + 0.12 * r2) ** 2
    small = ((light.ambient + light.key * key) / (light.ambient + light.key) * vignette)
    big = cv2.resize(small.astype(np.float32), (small.shape[1] * step, small.shape[0] * step),
                     interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(big[:ch, :cw])


def _illum_at(illum: np.ndarray, dr: Drawable) -> float:
    pts = np.vstack([p.poly_px for p in dr.paints[:1]]) if dr.paints else None
    if pts is None:
        return 1.0
    x, y = pts.mean(axis=0)
    h, w = illum.shape
    return float(illum[int(np.clip(y, 0, h - 1)), int(np.clip(x, 0, w - 1))])


def _drawables(spec: SceneSpec, view: IdealView, light: Light, cam_center: np.ndarray,
               scale: float) -> list[Drawable]:
    out = [piece_drawable(p, spec.piece_set.dims(p.size), view, light, cam_center, scale,
                          spec.effects) for p in spec.pieces]
    for e in spec.extras:
        if isinstance(e, Chit | Coin):
            out.append(disc_drawable(e, view, light, cam_center))
        elif isinstance(e, Die):
            out.append(die_drawable(e, view, light, cam_center))
        elif isinstance(e, Hand):
            out.append(hand_drawable(e, view, light, cam_center))
    return out


def _shadows(drawables: list[Drawable], view: IdealView, H: np.ndarray, light: Light,
             scale: float, shape: tuple[int, int]) -> np.ndarray:
    """Per-pixel, per-channel light left after shadows (1 = unshadowed), soft-edged. Drawn
    and blurred at half resolution (they are soft anyway), then enlarged."""
    h2, w2 = (shape[0] + 1) // 2, (shape[1] + 1) // 2
    amount = np.zeros((h2, w2, 3), np.float32)
    contact = np.zeros((h2, w2), np.float32)
    L = light.to_light
    half = np.diag([0.5, 0.5, 1.0]) @ np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1.0]])
    Hh = half @ H          # table mm → half-resolution px (pixel centres kept consistent)
    for dr in drawables:
        strength = (1.0 - np.asarray(dr.shadow_transmit)) * light.key / (
            light.ambient + light.key) * 0.9
        for pts in dr.casters:
            flat = pts[:, :2] - pts[:, 2:3] / L[2] * L[:2]
            q = np.column_stack([flat, np.ones(len(flat))]) @ Hh.T
            hull = cv2.convexHull(np.round(q[:, :2] / q[:, 2:3] * 16).astype(np.int32))
            cv2.fillConvexPoly(amount, hull, tuple(float(s) for s in strength),
                               cv2.LINE_AA, 4)
            low = pts[pts[:, 2] < 2.0]
            if len(low) >= 3 and not dr.on_top:
                q = np.column_stack([low[:, :2], np.ones(len(low))]) @ Hh.T
                cp = cv2.convexHull(np.round(q[:, :2] / q[:, 2:3] * 16).astype(np.int32))
                cv2.fillConvexPoly(contact, cp, 0.35, cv2.LINE_AA, 4)
    amount = cv2.GaussianBlur(amount, (0, 0), max(0.5, 0.6 * scale))
    contact = cv2.GaussianBlur(contact, (0, 0), max(0.4, 0.4 * scale))
    out = (1.0 - amount) * (1.0 - contact[..., None])
    big = cv2.resize(out, (w2 * 2, h2 * 2), interpolation=cv2.INTER_LINEAR)
    return np.ascontiguousarray(big[:shape[0], :shape[1]])


def _projector_light(spec: SceneSpec, H: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """Projector image as light on the table plane, in canvas px (BGR, 0–255 × gain)."""
    pj = spec.projector
    R = cv2.Rodrigues(np.asarray(pj.rvec, float).reshape(3, 1))[0]
    Hp = pj.intrinsics.K @ np.column_stack([R[:, 0], R[:, 1], np.asarray(pj.tvec, float)])
    M = H @ np.linalg.inv(Hp)
    src = pj.image_bgr.astype(np.float32)
    return cv2.warpPerspective(src, M, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=0) * pj.gain
