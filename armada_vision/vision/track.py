"""Follow the pieces through a video: stable identities, motion, occlusion, settling.

Every frame is compared, downscaled and blurred (in colour: a piece can be as bright as the
table), with the previous frame (motion) and with the frame the current detections came from
(change). Detection runs only when something changed and then stayed still for ``settle_s``,
and never while a large changing region (a hand) is over the table, so nothing is judged
mid-move; in the steady state a frame costs a resize and a difference. The camera is
re-calibrated only when the markers moved (the camera was bumped).

Identities: a piece that is where it was keeps its id; a piece that appears where a vanished
piece of the same size (and colour) could have stepped to — its stern on the old tip, or a
few steps on — takes the vanished piece's id (a step replaces the piece by the spare, so the
identity follows the pose); anything else gets a new id.

Frames: poses in table mm; frames are BGR images; times in seconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceSet
from armada_vision.geometry.pose import angle_diff_deg
from armada_vision.vision.calibrate import TableCalibration, calibrate, find_markers
from armada_vision.vision.detect import detect
from armada_vision.vision.order import median
from armada_vision.vision.segment import Rectifier, make_rectifier
from armada_vision.vision.types import (
    CalibrationInfo,
    DetectedPiece,
    Detections,
    UprightPiece,
    VisionFailure,
)

SMALL_WIDTH = 240  # px width of the image used for change detection


@dataclass(frozen=True, slots=True)
class TrackState:
    """What the tracker knows after one frame.

    ``pieces`` carry ``track_id``; ``settled``: nothing has moved for ``settle_s`` and the
    detections are up to date; ``moving``: this frame differs from the last one;
    ``occluded``: a large changing region (a hand, an arm) covers part of the table;
    ``detected``/``recalibrated``: whether this frame ran detection / calibration.
    """

    t_s: float
    pieces: tuple[DetectedPiece, ...]
    upright: tuple[UprightPiece, ...]
    settled: bool
    moving: bool
    occluded: bool
    detected: bool = False
    recalibrated: bool = False
    calibration: CalibrationInfo | None = None
    failure: VisionFailure | None = None
    changed_fraction: float = 0.0


def _small(frame_bgr: np.ndarray) -> np.ndarray:
    """The frame downscaled to ``SMALL_WIDTH`` px and blurred, in colour (H×W×3, int16): a
    blue piece on green felt can be as bright as the felt, so grey alone misses its move."""
    h, w = frame_bgr.shape[:2]
    img = frame_bgr if frame_bgr.ndim == 3 else cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    sw = min(SMALL_WIDTH, w)
    small = cv2.resize(img, (sw, max(round(h * sw / w), 1)), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0).astype(np.int16)


def _changed(a: np.ndarray, b: np.ndarray, level: int) -> np.ndarray:
    """Pixels (of two :func:`_small` images) where any colour channel differs by more than
    ``level``."""
    return np.abs(a - b).max(axis=2) > level


class Tracker:
    """Stateful tracker for one camera over one table (see module doc)."""

    def __init__(self, layout: TableLayout, camera: CameraIntrinsics | None = None, *,
                 pieces: PieceSet = NOMINAL_PIECES, settle_s: float = 0.5,
                 diff_level: int = 12, occlusion_fraction: float = 0.02,
                 bump_px: float = 2.0) -> None:
        self.layout = layout
        self.camera = camera
        self.pieces = pieces
        self.settle_s = settle_s
        self.diff_level = diff_level
        self.occlusion_fraction = occlusion_fraction
        self.bump_px = bump_px
        self._calib: TableCalibration | None = None
        self._rect: Rectifier | None = None
        self._prev: np.ndarray | None = None
        self._ref: np.ndarray | None = None  # small frame of the current detections
        self._last_motion_t = -math.inf
        self._state: TrackState | None = None
        self._counter: dict[str, int] = {}
        self._marker_small: np.ndarray | None = None

    # -- identities -------------------------------------------------------------------------

    def _new_id(self, p: DetectedPiece) -> str:
        letter = p.size.value[0].upper()
        self._counter[letter] = self._counter.get(letter, 0) + 1
        return f"{letter}{self._counter[letter]}"

    def assign_ids(self, old: tuple[DetectedPiece, ...], new: tuple[DetectedPiece, ...]
                   ) -> tuple[DetectedPiece, ...]:
        """``new`` detections with ids carried over from ``old`` (see module doc)."""
        out: list[DetectedPiece | None] = [None] * len(new)
        free_old = [o for o in old if o.track_id is not None]
        for o in free_old:  # never hand out an id that is already taken
            letter, num = o.track_id[:1], o.track_id[1:]  # type: ignore[index]
            if num.isdigit():
                self._counter[letter] = max(self._counter.get(letter, 0), int(num))
        # 1. Still where it was.
        for i, p in enumerate(new):
            best = None
            for o in free_old:
                if o.size != p.size:
                    continue
                dist = math.dist(o.pose.stern_mm, p.pose.stern_mm)
                if (dist < 3.0 + 3 * (o.sigma_mm + p.sigma_mm)
                        and abs(angle_diff_deg(o.pose.heading_deg, p.pose.heading_deg)) < 8.0
                        and (best is None or dist < best[0])):
                    best = (dist, o)
            if best is not None:
                out[i] = replace(p, track_id=best[1].track_id)
                free_old.remove(best[1])
        # 2. Moved: a vanished piece of the same size and colour within its reach; a stern
        #    on the old tip is the nearest kind of move, so pair by distance to the old tip.
        pairs = []
        for i, p in enumerate(new):
            if out[i] is not None:
                continue
            for o in free_old:
                if o.size != p.size or (o.color != p.color and "unknown" not in (o.color,
                                                                                   p.color)):
                    continue
                s = self.pieces.dims(o.size).footprint_length_mm
                reach = o.size.max_steps * s + 6.0
                d_tip = math.dist(o.tip_mm, p.pose.stern_mm)
                if math.dist(o.pose.stern_mm, p.pose.stern_mm) <= reach:
                    pairs.append((d_tip, i, o))
        for _d, i, o in sorted(pairs, key=lambda x: x[0]):
            if out[i] is None and o in free_old:
                out[i] = replace(new[i], track_id=o.track_id)
                free_old.remove(o)
        return tuple(q if q is not None else replace(p, track_id=self._new_id(p))
                     for q, p in zip(out, new, strict=True))

    # -- frames -----------------------------------------------------------------------------

    def _calibrate(self, frame_bgr: np.ndarray) -> VisionFailure | None:
        cal = calibrate(frame_bgr, self.layout, self.camera)
        if isinstance(cal, VisionFailure):
            return cal
        self._calib = cal
        self._rect = make_rectifier(cal, self.layout)
        # Where the markers are in the change-detection image: motion there may be a bump.
        h, w = frame_bgr.shape[:2]
        sw = min(SMALL_WIDTH, w)
        scale = sw / w
        mask = np.zeros((max(round(h * scale), 1), sw), np.uint8)
        for m in self.layout.markers:
            q = cal.project(m.corners_mm()) * scale
            cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
        self._marker_small = mask.astype(bool)
        return None

    def _markers_moved(self, frame_bgr: np.ndarray) -> bool:
        """Whether the visible markers are no longer where the calibration puts them."""
        assert self._calib is not None
        gray = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY) if frame_bgr.ndim == 3 else frame_bgr
        found = find_markers(gray, self.layout)
        if len(found) < 2:
            return True
        err = [float(np.max(np.linalg.norm(
            self._calib.project(self.layout.marker(i).corners_mm()) - c, axis=1)))
            for i, c in found.items()]
        return float(median(err)) > self.bump_px

    def update(self, frame_bgr: np.ndarray, t_s: float) -> TrackState:
        """Take one frame (BGR) at time ``t_s`` and return the tracking state."""
        small = _small(frame_bgr)
        prev_state = self._state
        recal = False
        if self._calib is None:
            fail = self._calibrate(frame_bgr)
            if fail is not None:
                return self._remember(small, TrackState(t_s, (), (), False, False, False,
                                                        failure=fail))
            recal = True
        moving = False
        changed = 0.0
        if self._prev is not None and self._prev.shape == small.shape:
            motion = _changed(small, self._prev, self.diff_level)
            moving = bool(motion.any())
            if moving:
                self._last_motion_t = t_s
            # The markers' pixels changing: the camera was bumped (or a hand is over one).
            if (self._marker_small is not None and self._marker_small.shape == motion.shape
                    and np.any(motion & self._marker_small)
                    and self._markers_moved(frame_bgr)):
                fail = self._calibrate(frame_bgr)
                if fail is not None:
                    return self._remember(small, TrackState(t_s, (), (), False, True, False,
                                                            failure=fail))
                recal = True
                self._ref = None
        if self._ref is not None:
            diff = _changed(small, self._ref, self.diff_level)
            # A couple of pixels is noise; a piece moved changes more.
            changed = float(diff.mean()) if np.count_nonzero(diff) > 2 else 0.0
        occluded = (changed > self.occlusion_fraction and moving) or (
            changed > 4 * self.occlusion_fraction)
        still_for = t_s - self._last_motion_t
        need = self._ref is None or changed > 0.0
        pieces = prev_state.pieces if prev_state else ()
        upright = prev_state.upright if prev_state else ()
        detected = False
        failure = None
        if need and not occluded and (still_for >= self.settle_s or self._ref is None):
            det = detect(frame_bgr, self.layout, self.camera, pieces=self.pieces,
                         calibration=self._calib, rectifier=self._rect)
            if isinstance(det, Detections):
                pieces = self.assign_ids(pieces, det.pieces)
                upright = det.upright
                self._ref = small
                changed = 0.0
                detected = True
            else:
                failure = det
        settled = (not moving and still_for >= self.settle_s and self._ref is not None
                   and changed == 0.0)
        calib_info = self._calib.info if self._calib is not None else None
        state = TrackState(t_s, pieces, upright, settled, moving, occluded, detected, recal,
                           calib_info, failure, changed)
        return self._remember(small, state)

    def _remember(self, small: np.ndarray, state: TrackState) -> TrackState:
        self._prev = small
        self._state = state
        return state
