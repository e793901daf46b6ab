"""What the server needs from one frame: pieces with stable ids, calibration, settled or not.

The vision layer does the work (``vision.detect``); this adapter gives each lying piece a
stable id across frames (size letter + number, matched by nearest pose of the same size and
colour) and says when the table has *settled* (every pose still for a few frames), which is
when a move is judged. Coordinates: ``*_mm`` table frame (mm, +y away from the viewer);
``H_image_from_table`` maps table mm to image px (OpenCV, y down).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.vision.types import (
    CalibrationInfo,
    DetectedPiece,
    Detections,
    UprightPiece,
    VisionFailure,
)


@dataclass(frozen=True, slots=True)
class FrameAnalysis:
    """Result for one frame. ``pieces`` carry ``track_id``; ``failure`` is set when vision
    found nothing usable (then ``pieces`` is empty). ``captured_at`` is epoch seconds."""

    frame_seq: int
    captured_at: float
    image_size: tuple[int, int]
    pieces: tuple[DetectedPiece, ...] = ()
    upright: tuple[UprightPiece, ...] = ()
    calibration: CalibrationInfo | None = None
    failure: VisionFailure | None = None
    settled: bool = False
    elapsed_ms: float = 0.0
    moving: bool = False       # this frame differs from the last one
    occluded: bool = False     # a hand or an arm is over the table

    @property
    def H_image_from_table(self) -> np.ndarray | None:
        """3×3 homography, table mm → image px; None without a calibration."""
        if self.calibration is None:
            return None
        H = np.asarray(self.calibration.H_table_from_image, dtype=float)
        try:
            return np.linalg.inv(H)
        except np.linalg.LinAlgError:
            return None


Analyser = Callable[[np.ndarray, int, float], FrameAnalysis]
"""``analyse(frame_bgr, frame_seq, captured_at) -> FrameAnalysis``."""


class IdKeeper:
    """Stable ids for pieces across frames, and the settled test.

    A piece keeps its id while it is within ``near_mm`` of where it was; a piece that appears
    where none was takes the id of a vanished piece of the same size and colour (it was lifted
    and put down elsewhere: a move), else a new id. ``settle_frames`` frames in a row with every
    pose within ``still_mm`` / ``still_deg`` make the table settled.

    >>> from armada_vision.geometry.pieces import Size
    >>> from armada_vision.geometry.pose import Pose
    >>> p = DetectedPiece(Size.LARGE, "red", Pose(100, 100, 0), (146.2, 100), 0.3, 0.4, True)
    >>> k = IdKeeper(settle_frames=2)
    >>> [q.track_id for q in k.assign((p,))], k.settled
    (['L1'], False)
    >>> [q.track_id for q in k.assign((p,))], k.settled
    (['L1'], True)
    """

    def __init__(self, near_mm: float = 25.0, settle_frames: int = 3, still_mm: float = 1.5,
                 still_deg: float = 2.0) -> None:
        self.near_mm, self.settle_frames = near_mm, settle_frames
        self.still_mm, self.still_deg = still_mm, still_deg
        self.known: dict[str, DetectedPiece] = {}   # last seen pose of every id ever seen
        self._counter: dict[str, int] = {}
        self._prev: dict[str, DetectedPiece] = {}
        self._still = 0
        self.settled = False

    def reset(self) -> None:
        self.__init__(self.near_mm, self.settle_frames, self.still_mm, self.still_deg)

    def _new_id(self, piece: DetectedPiece) -> str:
        letter = piece.size.value[0].upper()
        n = self._counter.get(letter, 0) + 1
        self._counter[letter] = n
        return f"{letter}{n}"

    def assign(self, pieces: tuple[DetectedPiece, ...]) -> tuple[DetectedPiece, ...]:
        ids: list[str | None] = [None] * len(pieces)
        free = dict(self.known)
        pairs = sorted(
            (_dist(p, q), i, tid)
            for i, p in enumerate(pieces) for tid, q in free.items() if _same_kind(p, q)
        )
        taken: set[str] = set()
        for d, i, tid in pairs:       # nearest pairs first, within near_mm
            if d > self.near_mm:
                break
            if ids[i] is None and tid not in taken:
                ids[i] = tid
                taken.add(tid)
        # Then a moved piece takes the id of an unclaimed piece of its kind: first one seen in
        # the previous frame (it jumped), then one gone for longer (it was lifted).
        for recent in (True, False):
            for _d, i, tid in pairs:
                if ids[i] is None and tid not in taken and (tid in self._prev) == recent:
                    ids[i] = tid
                    taken.add(tid)
        out = []
        for i, p in enumerate(pieces):
            tid = ids[i] or self._new_id(p)
            out.append(replace(p, track_id=tid))
        now = {p.track_id: p for p in out if p.track_id is not None}
        still = set(now) == set(self._prev) and all(
            _dist(p, self._prev[t]) <= self.still_mm
            and abs(_angle(p.pose.heading_deg - self._prev[t].pose.heading_deg)) <= self.still_deg
            for t, p in now.items())
        self._still = self._still + 1 if still else 0
        self.settled = self._still + 1 >= self.settle_frames
        self._prev = now
        self.known.update(now)
        return tuple(out)


def _same_kind(a: DetectedPiece, b: DetectedPiece) -> bool:
    return a.size == b.size and (a.color == b.color or "unknown" in (a.color, b.color))


def _dist(a: DetectedPiece, b: DetectedPiece) -> float:
    return math.hypot(a.pose.x_mm - b.pose.x_mm, a.pose.y_mm - b.pose.y_mm)


def _angle(d: float) -> float:
    return (d + 180.0) % 360.0 - 180.0


class VisionAnalyser:
    """The real analyser: the vision layer's ``Tracker`` (detection only when something changed
    and then stood still, stable ids, settling, occlusion; calibration kept until the camera is
    bumped). Without a tracker it falls back to ``detect`` on every frame with an ``IdKeeper``.
    """

    def __init__(self, layout: TableLayout, camera: CameraIntrinsics | None = None) -> None:
        self.layout, self.camera = layout, camera
        self.ids = IdKeeper()
        self._t0 = time.monotonic()
        self.reset()

    def reset(self) -> None:
        self.ids.reset()
        try:
            from armada_vision.vision.track import Tracker
        except ImportError:
            self.tracker = None
        else:
            self.tracker = Tracker(self.layout, self.camera)

    def __call__(self, frame_bgr: np.ndarray, frame_seq: int,
                 captured_at: float) -> FrameAnalysis:
        t0 = time.perf_counter()
        h, w = frame_bgr.shape[:2]
        if self.tracker is not None:
            st = self.tracker.update(frame_bgr, time.monotonic() - self._t0)
            elapsed = (time.perf_counter() - t0) * 1e3
            if st.calibration is None and st.failure is not None:
                return FrameAnalysis(frame_seq, captured_at, (w, h), failure=st.failure,
                                     elapsed_ms=elapsed)
            return FrameAnalysis(frame_seq, captured_at, (w, h), tuple(st.pieces),
                                 tuple(st.upright), st.calibration, None,
                                 st.settled and not st.occluded, elapsed,
                                 bool(st.moving), bool(st.occluded))
        from armada_vision.vision.detect import detect  # cv2 work lives in the vision layer

        result = detect(frame_bgr, self.layout, self.camera)
        elapsed = (time.perf_counter() - t0) * 1e3
        if isinstance(result, VisionFailure):
            self.ids.settled = False
            return FrameAnalysis(frame_seq, captured_at, (w, h), failure=result,
                                 elapsed_ms=elapsed)
        assert isinstance(result, Detections)
        pieces = self.ids.assign(tuple(result.pieces))
        return FrameAnalysis(frame_seq, captured_at, (w, h), pieces, tuple(result.upright),
                             result.calibration, None, self.ids.settled, elapsed)


class StillAnalyser:
    """For uploaded photos: ``detect`` on each photo (a phone is not the calibrated camera,
    so the intrinsics are estimated), ids kept from photo to photo by an ``IdKeeper``; a photo
    is settled by nature."""

    def __init__(self, layout: TableLayout) -> None:
        self.layout = layout
        self.ids = IdKeeper(settle_frames=1)

    def __call__(self, frame_bgr: np.ndarray, frame_seq: int,
                 captured_at: float) -> FrameAnalysis:
        from armada_vision.vision.detect import detect

        t0 = time.perf_counter()
        h, w = frame_bgr.shape[:2]
        result = detect(frame_bgr, self.layout, None)
        elapsed = (time.perf_counter() - t0) * 1e3
        if isinstance(result, VisionFailure):
            return FrameAnalysis(frame_seq, captured_at, (w, h), failure=result,
                                 elapsed_ms=elapsed)
        pieces = self.ids.assign(tuple(result.pieces))
        return FrameAnalysis(frame_seq, captured_at, (w, h), pieces, tuple(result.upright),
                             result.calibration, None, True, elapsed)
