"""Procedural table-top textures (albedo, BGR float 0–255) from numpy noise.

The texture covers the table top in table mm at ``ppm`` pixels per mm; row 0 is the far edge
(largest y), so texture pixel (u, v) is table point (u / ppm, depth − v / ppm), about.

>>> rng = np.random.default_rng(0)
>>> tex = table_texture("felt", 200, 100, 1.0, rng)
>>> tex.shape, tex.dtype
((100, 200, 3), dtype('float32'))
"""

from __future__ import annotations

import cv2
import numpy as np


def fbm(h: int, w: int, rng: np.random.Generator, base_cells: float, octaves: int = 4,
        aspect: float = 1.0) -> np.ndarray:
    """Fractal value noise (h, w) float32, mean ~0, std ~1: ``base_cells`` cells across the
    width at the coarsest octave; ``aspect`` > 1 stretches features along x (wood grain)."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    cells = base_cells
    for _ in range(octaves):
        cw = max(2, int(cells / aspect))
        chh = max(2, int(cells * h / max(w, 1)))
        small = rng.standard_normal((chh + 1, cw + 1)).astype(np.float32)
        out += amp * cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
        cells *= 2.0
    return out / total


def table_texture(surface: str, w_px: int, h_px: int, ppm: float,
                  rng: np.random.Generator) -> np.ndarray:
    """Albedo of a ``surface`` table top, ``w_px`` × ``h_px`` texture pixels at ``ppm`` px/mm."""
    w_mm = w_px / ppm
    if surface == "wood":
        return _wood(w_px, h_px, ppm, w_mm, rng)
    if surface == "felt":
        base = np.array([45, 105, 40], np.float32)
        n = 0.6 * fbm(h_px, w_px, rng, w_mm / 60) + 0.4 * fbm(h_px, w_px, rng, w_mm / 3, 2)
        fine = rng.standard_normal((h_px, w_px)).astype(np.float32)
        tex = base * (1.0 + 0.10 * n[..., None] + 0.05 * fine[..., None])
    elif surface == "cloth":
        base = np.array([110, 70, 45], np.float32)       # a dark blue table cloth
        yy, xx = np.mgrid[0:h_px, 0:w_px].astype(np.float32) / ppm
        weave = np.sin(xx * 2 * np.pi / 2.2) * np.sin(yy * 2 * np.pi / 2.2)
        n = fbm(h_px, w_px, rng, w_mm / 80)
        folds = fbm(h_px, w_px, rng, w_mm / 150, 2)
        tex = base * (1.0 + 0.06 * weave[..., None] + 0.08 * n[..., None]
                      + 0.10 * folds[..., None])
    elif surface == "laminate":
        base = np.array([214, 218, 220], np.float32)
        n = fbm(h_px, w_px, rng, w_mm / 40)
        speck = (rng.random((h_px, w_px)) < 0.01).astype(np.float32)
        tex = base * (1.0 + 0.025 * n[..., None] - 0.15 * speck[..., None])
    else:
        raise ValueError(f"surface: unknown {surface!r}")
    return np.clip(tex, 0, 255).astype(np.float32)


def _wood(w_px: int, h_px: int, ppm: float, w_mm: float, rng: np.random.Generator) -> np.ndarray:
    """Planks running along x: long grain streaks, wavy rings, a seam every ~120 mm."""
    light = np.array([120, 170, 215], np.float32)
    dark = np.array([60, 105, 160], np.float32)
    yy = np.arange(h_px, dtype=np.float32)[:, None] / ppm
    warp = 6.0 * fbm(h_px, w_px, rng, w_mm / 200, 3)
    rings = 0.5 + 0.5 * np.sin((yy + warp) * 2 * np.pi / rng.uniform(5.0, 9.0))
    streak = fbm(h_px, w_px, rng, w_mm / 2.0, 3, aspect=25.0)
    t = np.clip(0.55 * rings ** 3 + 0.25 * (streak + 1.0) + 0.1 * fbm(h_px, w_px, rng,
                                                                       w_mm / 50), 0, 1)
    tex = light * (1 - t[..., None]) + dark * t[..., None]
    plank_mm = rng.uniform(90.0, 140.0)
    pos = yy[:, 0] + rng.uniform(0, plank_mm)
    plank = np.floor(pos / plank_mm).astype(int)
    shade = 1.0 + 0.08 * rng.standard_normal(plank.max() + 1)
    tex *= shade[plank][:, None, None].astype(np.float32)
    tex[(pos % plank_mm) < 0.6] *= 0.55
    return tex
