"""Sub-pixel exact drawing by supersampling: polygons composited as ``out = in·mul + add``.

A group of shapes is drawn on an S× supersampled copy of the region they cover (nearest-neighbour
upsampling, so untouched pixels come back unchanged), then area-averaged back down: edges get
exact coverage anti-aliasing and land where the geometry says. Coordinates: image px (x right,
y down, pixel centres at integers).

>>> img = np.zeros((8, 8, 3), np.float32)
>>> square = np.array([[1.5, 1.5], [5.5, 1.5], [5.5, 5.5], [1.5, 5.5]])
>>> composite(img, [Paint(square, add=(100.0, 100.0, 100.0))])
>>> float(img[..., 0].sum()) / 100.0    # covered area in px²
16.0
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

SS = 4          # supersampling factor per axis
_SHIFT = 4      # fixed-point fraction bits for cv2.fillPoly


@dataclass(slots=True)
class Paint:
    """One shape: polygon (N, 2) image px; ``mul``/``add`` per BGR channel. ``line_px`` > 0
    strokes the closed outline with that width instead of filling. ``shift_px`` takes the
    transmitted light from the background displaced by that much (refraction)."""

    poly_px: np.ndarray
    mul: tuple[float, float, float] = (0.0, 0.0, 0.0)
    add: tuple[float, float, float] = (0.0, 0.0, 0.0)
    line_px: float = 0.0
    shift_px: tuple[float, float] = (0.0, 0.0)
    closed: bool = True
    extra: dict = field(default_factory=dict)


def _to_ss(poly_px: np.ndarray, x0: int, y0: int, ss: int = SS) -> np.ndarray:
    # Pixel i of the S× grid covers image x in [x0 + i/S − 0.5, x0 + (i+1)/S − 0.5).
    return (np.asarray(poly_px, dtype=np.float64).reshape(-1, 2) - (x0, y0) + 0.5) * ss - 0.5


def _fixed(ss: np.ndarray) -> np.ndarray:
    return np.round(ss * (1 << _SHIFT)).astype(np.int32).reshape(-1, 1, 2)


def shrink_for_fill(poly: np.ndarray) -> np.ndarray | None:
    """Undo cv2.fillPoly's rule (it fills pixels round(x_left) … round(x_right) inclusive, and
    likewise in y: the polygon grown by half a pixel square) for a convex polygon, so the fill
    takes exactly the pixels whose centres lie inside. None when nothing is left."""
    p = np.asarray(poly, dtype=np.float64)
    area2 = np.sum(p[:, 0] * np.roll(p[:, 1], -1) - np.roll(p[:, 0], -1) * p[:, 1])
    if abs(area2) < 1e-9:
        return None
    e = np.roll(p, -1, axis=0) - p
    keep = np.hypot(e[:, 0], e[:, 1]) > 1e-9
    p, e = p[keep], e[keep]
    n = np.column_stack([-e[:, 1], e[:, 0]]) / np.hypot(e[:, 0], e[:, 1])[:, None]
    if area2 < 0:
        n = -n                                  # inward normals
    c = np.sum(n * p, axis=1) + 0.5 * (np.abs(n[:, 0]) + np.abs(n[:, 1]))
    out = np.empty_like(p)
    for i in range(len(p)):
        j = i - 1                               # edges j (into vertex i) and i (out of it)
        A = np.array([n[j], n[i]])
        det = np.linalg.det(A)
        out[i] = (p[i] + n[i] * (c[i] - n[i] @ p[i]) if abs(det) < 1e-9
                  else np.linalg.solve(A, [c[j], c[i]]))
    a2 = np.sum(out[:, 0] * np.roll(out[:, 1], -1) - np.roll(out[:, 0], -1) * out[:, 1])
    return out if a2 * area2 > 0 else None


def composite(img: np.ndarray, paints: list[Paint], pad: int = 2,
              max_fine_px: int = 250_000) -> None:
    """Draw ``paints`` in order onto float32 BGR ``img`` (in place). Regions larger than
    ``max_fine_px`` pixels (a hand and arm) are supersampled less finely."""
    if not paints:
        return
    h, w = img.shape[:2]
    allpts = np.vstack([np.asarray(p.poly_px, dtype=float).reshape(-1, 2) for p in paints])
    reach = pad + int(np.ceil(max(max(p.line_px, abs(p.shift_px[0]), abs(p.shift_px[1]))
                                  for p in paints)))
    x0 = max(int(np.floor(allpts[:, 0].min())) - reach, 0)
    y0 = max(int(np.floor(allpts[:, 1].min())) - reach, 0)
    x1 = min(int(np.ceil(allpts[:, 0].max())) + reach + 1, w)
    y1 = min(int(np.ceil(allpts[:, 1].max())) + reach + 1, h)
    if x1 <= x0 or y1 <= y0:
        return
    area = (x1 - x0) * (y1 - y0)
    S = SS if area <= max_fine_px else 2 if area <= 4 * max_fine_px else 1
    roi = img[y0:y1, x0:x1]
    big = cv2.resize(roi, ((x1 - x0) * S, (y1 - y0) * S), interpolation=cv2.INTER_NEAREST)
    bh, bw = big.shape[:2]
    mask = np.zeros((bh, bw), np.uint8)
    for p in paints:
        ss = _to_ss(p.poly_px, x0, y0, S)
        lw = max(1, round(p.line_px * S)) if p.line_px > 0 else 0
        if not lw:
            ss = shrink_for_fill(ss)
            if ss is None:
                continue
        # Work in the paint's own window of the supersampled region.
        bx0 = max(int(np.floor(ss[:, 0].min())) - lw - 1, 0)
        by0 = max(int(np.floor(ss[:, 1].min())) - lw - 1, 0)
        bx1 = min(int(np.ceil(ss[:, 0].max())) + lw + 2, bw)
        by1 = min(int(np.ceil(ss[:, 1].max())) + lw + 2, bh)
        if bx1 <= bx0 or by1 <= by0:
            continue
        sub = mask[by0:by1, bx0:bx1]
        sub[:] = 0
        pts = _fixed(ss - (bx0, by0))
        if lw:
            cv2.polylines(sub, [pts], p.closed, 1, lw, cv2.LINE_8, _SHIFT)
        else:
            cv2.fillConvexPoly(sub, pts, 1, cv2.LINE_8, _SHIFT)
        m = sub.view(bool)
        region = big[by0:by1, bx0:bx1]
        mul = np.asarray(p.mul, np.float32)
        add = np.asarray(p.add, np.float32)
        if not np.any(mul):
            region[m] = add
            continue
        src = region
        if p.shift_px != (0.0, 0.0):
            dx, dy = (round(v * S) for v in p.shift_px)
            sx0, sy0 = bx0 - dx, by0 - dy
            if sx0 >= 0 and sx0 + (bx1 - bx0) <= bw and sy0 >= 0 and sy0 + (by1 - by0) <= bh:
                src = big[sy0:sy0 + (by1 - by0), sx0:sx0 + (bx1 - bx0)]
        region[m] = src[m] * mul + add
    img[y0:y1, x0:x1] = cv2.resize(big, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)
