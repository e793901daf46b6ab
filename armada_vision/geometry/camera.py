"""The camera file (interfaces.md): OpenCV pinhole intrinsics and distortion, as a value.

>>> cam = CameraIntrinsics.from_dict({"image_size": [1920, 1080],
...     "camera_matrix": [[1400, 0, 960], [0, 1400, 540], [0, 0, 1]],
...     "dist_coeffs": [0, 0, 0, 0, 0]})
>>> cam.fx, cam.image_size
(1400.0, (1920, 1080))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, slots=True)
class CameraIntrinsics:
    """Image size (w, h px), 3×3 camera matrix K (px) and OpenCV distortion coefficients."""

    image_size: tuple[int, int]
    camera_matrix: tuple[tuple[float, float, float], ...]
    dist_coeffs: tuple[float, ...] = (0.0, 0.0, 0.0, 0.0, 0.0)

    @property
    def K(self) -> np.ndarray:
        return np.array(self.camera_matrix, dtype=float)

    @property
    def dist(self) -> np.ndarray:
        return np.array(self.dist_coeffs, dtype=float)

    @property
    def fx(self) -> float:
        return self.camera_matrix[0][0]

    @classmethod
    def from_dict(cls, data: Any) -> CameraIntrinsics:
        if not isinstance(data, dict):
            raise ValueError("camera: expected a JSON object")
        size = data.get("image_size")
        if (not isinstance(size, list | tuple) or len(size) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in size)):
            raise ValueError("image_size: expected [width, height] in whole pixels")
        k = data.get("camera_matrix")
        try:
            km = np.array(k, dtype=float)
        except (TypeError, ValueError):
            raise ValueError("camera_matrix: expected a 3×3 matrix of numbers") from None
        if km.shape != (3, 3) or not np.all(np.isfinite(km)) or km[0, 0] <= 0 or km[1, 1] <= 0:
            raise ValueError("camera_matrix: expected a 3×3 matrix with positive fx, fy")
        d = data.get("dist_coeffs", [0.0] * 5)
        if (not isinstance(d, list | tuple) or len(d) not in (4, 5, 8, 12, 14)
                or not all(isinstance(v, int | float) and math.isfinite(v) for v in d)):
            raise ValueError("dist_coeffs: expected 4, 5, 8, 12 or 14 numbers")
        return cls((int(size[0]), int(size[1])),
                   tuple(tuple(float(v) for v in row) for row in km),
                   tuple(float(v) for v in d))

    def to_dict(self) -> dict[str, Any]:
        return {"image_size": list(self.image_size),
                "camera_matrix": [list(r) for r in self.camera_matrix],
                "dist_coeffs": list(self.dist_coeffs)}
