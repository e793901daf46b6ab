"""Compressed frames: a JPEG's colour edges are coarser than its pixels (issue 4).

A webcam's MJPEG stream, a phone photo and the game-log videos are JPEG: the two colour-
difference planes are stored at half resolution (4:2:0) and quantized more coarsely than the
brightness. The detector's foreground score is mostly colour (a grey copy of a lossless frame
loses half the pieces), so a piece's outline in the score is only as sharp as the colour:
smeared over ~2 image px and ringing in the 16 px blocks round it. Measured on the 720p scenes
of seeds 1144–1203 re-encoded as JPEG 75: JPEG brightness with lossless colour detects as the
lossless frame; lossless brightness with JPEG colour loses as much as the JPEG. The fits' edge
residuals grow accordingly, and the cost levels set on lossless frames (scene.GOOD_COST,
MAX_COST) rejected true pieces.

So where a frame's colour has lost its pixel-scale detail, the fits' residuals are judged in
units of the colour's sample spacing, twice the pixel's (ViewGrid.edge_px): a pose and its σ
are unchanged, only the cost that decides whether a fit explains a piece. A frame is taken as
such when its colour-difference planes change between neighbouring pixels far less than its
brightness does (:func:`colour_detail`): sensor noise alone keeps them alike in a lossless
frame (ratio 0.95–1.8 on renders and the PNG stills), a JPEG's colour is smooth at the pixel
scale (0.05–0.44 at quality 75–95, 4:2:0 or 4:4:4).
"""

from __future__ import annotations

import cv2
import numpy as np

# Below this ratio of colour to brightness change between neighbouring pixels, the frame's
# colour is coarser than its pixels (see the module doc for the measured ranges).
COARSE_COLOUR_RATIO = 0.6
# The residual unit then: the colour's sample spacing in a 4:2:0 frame, in pixels.
COARSE_EDGE_PX = 2.0
# The ratio is read in 3 × 3 patches of this size (px) spread over the frame: cheap, and a
# bare-table patch shows the sensor noise as well as a busy one.
_PATCH_PX = 96


def colour_detail(image_bgr: np.ndarray) -> float:
    """Mean absolute change between horizontally neighbouring pixels of the two colour-
    difference planes (Cr + Cb) over that of the brightness (Y), in nine patches of
    ``image_bgr`` (8-bit BGR, image px)."""
    h, w = image_bgr.shape[:2]
    half = _PATCH_PX // 2
    patches = []
    for fy in (0.3, 0.5, 0.7):
        for fx in (0.3, 0.5, 0.7):
            y0 = min(max(int(h * fy) - half, 0), max(h - _PATCH_PX, 0))
            x0 = min(max(int(w * fx) - half, 0), max(w - _PATCH_PX, 0))
            patches.append(image_bgr[y0:y0 + _PATCH_PX, x0:x0 + _PATCH_PX])
    ycc = cv2.cvtColor(np.vstack(patches), cv2.COLOR_BGR2YCrCb)
    # OpenCV's absolute difference and sums: the same integers as numpy's, a tenth of the
    # cost (0.2 ms per frame; it runs on every detect).
    d = cv2.sumElems(cv2.absdiff(ycc[:, 1:], ycc[:, :-1]))
    return float(d[1] + d[2]) / max(float(d[0]), 1.0)


def edge_px(image_bgr: np.ndarray) -> float:
    """The residual unit (view px per px of a lossless frame) for fits on ``image_bgr``:
    COARSE_EDGE_PX where its colour is coarser than its pixels, else 1."""
    return COARSE_EDGE_PX if colour_detail(image_bgr) < COARSE_COLOUR_RATIO else 1.0
