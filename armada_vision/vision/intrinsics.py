"""One-time intrinsic calibration of a camera from photos of a printed ChArUco board.

OpenCV finds the board (``cv2.aruco.CharucoDetector``), matches its chessboard corners to board
coordinates (``CharucoBoard.matchImagePoints``) and solves K and the distortion
(``cv2.calibrateCamera``). Board frame: mm, origin at the board's top-left outer corner, x along
the squares' columns, y down the rows (OpenCV's), z = 0. Image frame: px, x right, y down.

>>> spec = CharucoSpec.from_dict({"squares_x": 5, "squares_y": 7, "square_mm": 30,
...                               "marker_mm": 22.5, "dictionary": "DICT_4X4_50"})
>>> spec.inner_corners
24
>>> CharucoSpec.from_dict({"square_mm": 20, "marker_mm": 25})
Traceback (most recent call last):
ValueError: marker_mm: must be smaller than square_mm (20.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.vision.types import VisionFailure

MIN_CORNERS_PER_VIEW = 8   # fewer corners pin down too little of one view's pose
MIN_VIEWS = 4              # K and 5 distortion terms need several differently tilted views


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    """OpenCV's predefined dictionary ``name`` (e.g. ``DICT_4X4_50``); ValueError if unknown."""
    code = getattr(cv2.aruco, name, None) if isinstance(name, str) else None
    if not isinstance(name, str) or not name.startswith("DICT_") or not isinstance(code, int):
        raise ValueError(f"dictionary: {name!r} is not an OpenCV predefined ArUco dictionary")
    return cv2.aruco.getPredefinedDictionary(code)


def dictionary_size(name: str) -> int:
    """How many marker ids dictionary ``name`` holds."""
    return int(aruco_dictionary(name).bytesList.shape[0])


@dataclass(frozen=True, slots=True)
class CharucoSpec:
    """A ChArUco board: squares across (x) and down (y), square and marker sides in mm."""

    squares_x: int = 6
    squares_y: int = 9
    square_mm: float = 25.0
    marker_mm: float = 17.5
    dictionary: str = "DICT_5X5_100"

    @property
    def inner_corners(self) -> int:
        return (self.squares_x - 1) * (self.squares_y - 1)

    @property
    def size_mm(self) -> tuple[float, float]:
        """Outer width and height of the chequered area, mm."""
        return (self.squares_x * self.square_mm, self.squares_y * self.square_mm)

    def board(self) -> cv2.aruco.CharucoBoard:
        """The OpenCV board, its object points in mm."""
        return cv2.aruco.CharucoBoard((self.squares_x, self.squares_y), float(self.square_mm),
                                      float(self.marker_mm), aruco_dictionary(self.dictionary))

    @classmethod
    def from_dict(cls, data: Any) -> CharucoSpec:
        """Parse a board object (missing fields take the defaults); ValueError names the field."""
        if not isinstance(data, dict):
            raise ValueError("board: expected a JSON object")
        d = cls()
        vals: dict[str, Any] = {}
        for key in ("squares_x", "squares_y"):
            v = data.get(key, getattr(d, key))
            if isinstance(v, bool) or not isinstance(v, int) or not 3 <= v <= 40:
                raise ValueError(f"{key}: expected a whole number from 3 to 40")
            vals[key] = v
        for key in ("square_mm", "marker_mm"):
            v = data.get(key, getattr(d, key))
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v) \
                    or v <= 0:
                raise ValueError(f"{key}: expected a positive number of mm")
            vals[key] = float(v)
        if vals["marker_mm"] >= vals["square_mm"]:
            raise ValueError(f"marker_mm: must be smaller than square_mm ({vals['square_mm']})")
        name = data.get("dictionary", d.dictionary)
        markers = vals["squares_x"] * vals["squares_y"] // 2
        if dictionary_size(name) < markers:
            raise ValueError(f"dictionary: {name} has fewer than the {markers} markers needed")
        return cls(dictionary=name, **vals)

    def to_dict(self) -> dict[str, Any]:
        return {"squares_x": self.squares_x, "squares_y": self.squares_y,
                "square_mm": self.square_mm, "marker_mm": self.marker_mm,
                "dictionary": self.dictionary}


DEFAULT_BOARD = CharucoSpec()


@dataclass(frozen=True, slots=True)
class BoardView:
    """The board as found in one image: matched board points (mm) and image points (px)."""

    object_mm: np.ndarray = field(repr=False)   # (n, 3) board frame
    image_px: np.ndarray = field(repr=False)    # (n, 2) image frame
    corners: int = 0


@dataclass(frozen=True, slots=True)
class IntrinsicsResult:
    """A solved camera, its RMS reprojection error (px) and which views it used."""

    camera: CameraIntrinsics
    rms_px: float
    views_used: tuple[int, ...]
    views_skipped: tuple[tuple[int, str], ...] = ()


def find_board(image: np.ndarray, spec: CharucoSpec = DEFAULT_BOARD,
               board: cv2.aruco.CharucoBoard | None = None) -> BoardView | VisionFailure:
    """Find the ChArUco board's inner corners in one BGR or grey image (image frame px)."""
    board = board if board is not None else spec.board()
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids, _marker_corners, _marker_ids = cv2.aruco.CharucoDetector(board).detectBoard(grey)
    n = 0 if ids is None else len(ids)
    if n < MIN_CORNERS_PER_VIEW:
        return VisionFailure("board_not_found",
                             f"{n} board corners found, {MIN_CORNERS_PER_VIEW} needed")
    if board.checkCharucoCornersCollinear(ids):
        return VisionFailure("board_collinear", "the corners found lie on one line")
    obj, img = board.matchImagePoints(corners, ids)
    return BoardView(obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32),
                     n)


def calibrate_intrinsics(images: Sequence[np.ndarray], spec: CharucoSpec = DEFAULT_BOARD,
                         min_views: int = MIN_VIEWS) -> IntrinsicsResult | VisionFailure:
    """Solve the camera from photos of the board (all the same size); views without enough
    board corners are skipped and named in the result."""
    if not images:
        return VisionFailure("no_images", "no images given")
    h, w = images[0].shape[:2]
    board = spec.board()
    used: list[int] = []
    skipped: list[tuple[int, str]] = []
    obj_pts, img_pts = [], []
    for i, image in enumerate(images):
        if image.shape[:2] != (h, w):
            return VisionFailure("image_size", f"image {i} is {image.shape[1]}×{image.shape[0]} "
                                 f"px, the first is {w}×{h} px")
        view = find_board(image, spec, board)
        if isinstance(view, VisionFailure):
            skipped.append((i, view.reason))
            continue
        used.append(i)
        obj_pts.append(view.object_mm)
        img_pts.append(view.image_px)
    if len(used) < min_views:
        return VisionFailure("too_few_views", f"the board was found in {len(used)} of "
                             f"{len(images)} images, {min_views} needed")
    rms, K, dist, _rvecs, _tvecs = cv2.calibrateCamera(obj_pts, img_pts, (w, h), None, None)
    if not (math.isfinite(rms) and np.all(np.isfinite(K)) and K[0, 0] > 0 and K[1, 1] > 0):
        return VisionFailure("calibration_failed", "the solver did not converge")
    # Views all facing the camera square-on leave the focal length free: the solver then returns
    # a tiny RMS with an absurd K. Reject a field of view outside 10°–160°, unequal pixel scales
    # or an optical centre off the image, and say what photos are missing.
    fx, fy, cx, cy = K[0, 0], K[1, 1], K[0, 2], K[1, 2]
    fov_deg = math.degrees(2 * math.atan(w / (2 * fx)))
    if not (10 <= fov_deg <= 160 and 0.8 <= fx / fy <= 1.25 and 0 < cx < w and 0 < cy < h):
        return VisionFailure("calibration_failed", f"implausible result (fx {fx:.0f}, fy {fy:.0f}, "
                             f"cx {cx:.0f}, cy {cy:.0f} px): photograph the board tilted 20–40° "
                             "in different directions")
    cam = CameraIntrinsics((int(w), int(h)), tuple(tuple(float(v) for v in row) for row in K),
                           tuple(float(v) for v in np.ravel(dist)))
    return IntrinsicsResult(cam, float(rms), tuple(used), tuple(skipped))


def read_images(paths: Sequence[str | Path]) -> list[np.ndarray]:
    """Load image files as BGR arrays; ValueError names the first file that cannot be read."""
    out = []
    for p in paths:
        try:
            raw = Path(p).read_bytes()
        except FileNotFoundError:
            raise ValueError(f"image {p}: no such file") from None
        except OSError as e:
            raise ValueError(f"image {p}: cannot read ({e.strerror})") from None
        # imdecode on bytes: no OpenCV warning lines on stderr for a bad file.
        image = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR) if raw else None
        if image is None:
            raise ValueError(f"image {p}: not a readable image")
        out.append(image)
    return out
