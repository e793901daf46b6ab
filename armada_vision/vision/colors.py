"""Name a piece's colour: one of the ten Looney colours, or ``unknown``.

Translucent plastic shows the table through it, so the colour is judged from what the piece
does to the light: the ratio of the piece's pixels to the table's own colour there (its
transmission), together with how bright and saturated it looks. Opaque black and white are
told apart by brightness against the table.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import shapely

from armada_vision.vision.segment import TableView

COLORS = ("red", "yellow", "green", "blue", "black", "orange", "cyan", "purple", "white",
          "clear")

# Hue (OpenCV degrees/2 scale, 0–180) of each chromatic colour's transmission.
_HUES = {"red": 0.0, "orange": 14.0, "yellow": 28.0, "green": 60.0, "cyan": 90.0,
         "blue": 115.0, "purple": 145.0}


def _inner_mask(view: TableView, poly_mm: shapely.Polygon, shrink: float = 0.55) -> np.ndarray:
    c = np.array(poly_mm.centroid.coords[0])
    pts = np.asarray(poly_mm.exterior.coords)[:-1]
    pts = c + (pts - c) * shrink
    mask = np.zeros(view.image_bgr.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(view.grid.to_px(pts)).astype(np.int32)], 1)
    return mask.astype(bool)


def piece_color_stats(view: TableView, poly_mm: shapely.Polygon, bg_lab: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray] | None:
    """Median BGR (0–255) inside the piece and the table's BGR there, or None if unseen."""
    m = _inner_mask(view, poly_mm)
    if m.sum() < 4:
        return None
    px = np.median(view.image_bgr[m].astype(np.float32), axis=0)
    bg = np.median(bg_lab[m], axis=0).astype(np.float32).reshape(1, 1, 3)
    bg_bgr = cv2.cvtColor(bg, cv2.COLOR_Lab2BGR).reshape(3) * 255.0
    return px, bg_bgr


def classify_color(view: TableView, poly_mm: shapely.Polygon, bg_lab: np.ndarray) -> str:
    """Colour name of the piece whose footprint (or outline) is ``poly_mm`` (table mm)."""
    stats = piece_color_stats(view, poly_mm, bg_lab)
    if stats is None:
        return "unknown"
    px, bg = stats
    return name_color(px, bg)


def name_color(piece_bgr: np.ndarray, table_bgr: np.ndarray) -> str:
    """Colour name from the piece's median BGR and the table's BGR under it (0–255).

    >>> name_color(np.array([30., 30., 200.]), np.array([150., 170., 190.]))
    'red'
    >>> name_color(np.array([20., 20., 22.]), np.array([150., 170., 190.]))
    'black'
    """
    p = np.maximum(np.asarray(piece_bgr, float), 1.0)
    t = np.maximum(np.asarray(table_bgr, float), 1.0)
    v_p = float(p.max())
    hsv = cv2.cvtColor(np.uint8([[np.clip(p, 0, 255)]]), cv2.COLOR_BGR2HSV)[0, 0]
    sat_p = float(hsv[1]) / 255.0
    if v_p < 60 and sat_p < 0.5:
        return "black"
    # Transmission: how the piece filters the table's light, normalised to its brightest band.
    tr = p / t
    tr_n = tr / tr.max()
    sat_t = 1.0 - float(tr_n.min())
    bright = float(np.mean(p) / np.mean(t))
    if sat_t < 0.18 and sat_p < 0.25:
        return "white" if bright > 1.12 else "clear"
    hue = cv2.cvtColor(np.uint8([[np.clip(tr_n * 255, 0, 255)]]), cv2.COLOR_BGR2HSV)[0, 0, 0]
    best, dist = "unknown", math.inf
    for name, h in _HUES.items():
        dh = abs(float(hue) - h)
        dh = min(dh, 180.0 - dh)
        if dh < dist:
            best, dist = name, dh
    return best if dist < 20 else "unknown"
