"""Overlays: detections drawn onto the camera image (kept apart from detection itself).

Everything is drawn in the image frame (px); poses come in table mm and are mapped through
the calibration the detections were made with.
"""

from __future__ import annotations

import cv2
import numpy as np

from armada_vision.geometry.layout import TableLayout
from armada_vision.vision.calibrate import TableCalibration
from armada_vision.vision.types import Detections

# BGR for drawing each colour name (unknown: magenta, so it stands out).
_INK = {"red": (40, 40, 230), "yellow": (30, 220, 240), "green": (40, 200, 40),
        "blue": (230, 120, 30), "black": (60, 60, 60), "orange": (20, 140, 255),
        "cyan": (230, 220, 40), "purple": (170, 40, 140), "white": (250, 250, 250),
        "clear": (200, 200, 200), "unknown": (255, 0, 255)}


def draw_detections(image_bgr: np.ndarray, det: Detections, calib: TableCalibration | None,
                    layout: TableLayout | None = None) -> np.ndarray:
    """A copy of ``image_bgr`` with each piece's outline, stern→tip arrow, id (or index),
    size and σ; upright pieces crossed out; the play area when ``layout`` is given."""
    out = image_bgr.copy()
    if out.ndim == 2:
        out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
    scale = max(out.shape[1] / 1280.0, 0.6)
    thick = max(round(2 * scale), 1)
    if calib is not None and layout is not None:
        area = calib.project(np.asarray(layout.play_area_mm))
        cv2.polylines(out, [np.round(area * 16).astype(np.int32)], True, (0, 255, 255),
                      thick, cv2.LINE_AA, 4)
    for i, p in enumerate(det.pieces):
        ink = _INK.get(p.color, _INK["unknown"])
        if len(p.outline_px) >= 3:
            poly = np.round(np.asarray(p.outline_px) * 16).astype(np.int32)
            cv2.polylines(out, [poly], True, ink, thick, cv2.LINE_AA, 4)
        if calib is not None:
            st, tp = calib.project(np.array([p.pose.stern_mm, p.tip_mm]))
            cv2.arrowedLine(out, tuple(np.round(st * 16).astype(int)),
                            tuple(np.round(tp * 16).astype(int)), (0, 255, 0), thick,
                            cv2.LINE_AA, 4, 0.25)
            label = (f"{p.track_id or i} {p.size.value[0].upper()} "
                     f"s{p.sigma_mm:.2f}mm/{p.sigma_deg:.1f}d")
            org = (int(st[0] + 6 * scale), int(st[1] - 6 * scale))
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale, (0, 0, 0),
                        thick + 2, cv2.LINE_AA)
            cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale,
                        (255, 255, 255), thick, cv2.LINE_AA)
    if calib is not None:
        for u in det.upright:
            c = calib.project(np.array([u.center_mm]))[0]
            r = 10 * scale
            a, b = (int(c[0] - r), int(c[1] - r)), (int(c[0] + r), int(c[1] + r))
            cv2.line(out, a, b, (0, 0, 255), thick, cv2.LINE_AA)
            cv2.line(out, (a[0], b[1]), (b[0], a[1]), (0, 0, 255), thick, cv2.LINE_AA)
    return out
