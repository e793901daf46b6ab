"""Where frames come from: a webcam, a video file, a folder of images, or frames in memory.

A source hands out ``(frame_bgr, t_s)`` pairs, image frame (px, y down), ``t_s`` seconds since
the source started. ``fps`` is the pace a recorded source should be played at (``None``: as fast
as it can be read, or a live camera's own pace). Recorded sources loop, and say so through
``loop_count`` so a game session can start over instead of judging the jump back as a move.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
# What a webcam is asked to send (``serve --webcam-format``). Most send MJPEG by default; YUYV
# is uncompressed, at a lower frame rate, and JPEG's blocks are most of the pose error at 720p
# (docs/gamelog.md, "From video": lossless 0.23 mm stern median, JPEG 75 0.60 mm).
WEBCAM_FORMATS: dict[str, str | None] = {"camera": None, "mjpeg": "MJPG", "uncompressed": "YUYV"}


class FrameSource(Protocol):
    """What the pipeline reads: ``read()`` gives the next frame, or None when there is none."""

    name: str
    fps: float | None
    loop_count: int

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class ArraySource:
    """Frames held in memory (tests, benchmarks, an uploaded still), looped."""

    def __init__(self, frames: Sequence[np.ndarray], fps: float | None = 10.0,
                 name: str = "frames", loop: bool = True) -> None:
        if not frames:
            raise ValueError("frames: at least one frame is needed")
        self.frames = list(frames)
        self.fps, self.name, self.loop = fps, name, loop
        self.loop_count = 0
        self._i = 0

    def read(self) -> np.ndarray | None:
        if self._i >= len(self.frames):
            if not self.loop:
                return None
            self._i = 0
            self.loop_count += 1
        frame = self.frames[self._i]
        self._i += 1
        return frame

    def close(self) -> None:
        pass


class FolderSource:
    """Images of a folder in name order (``frame_0000.jpg``…), decoded one at a time, looped."""

    def __init__(self, folder: str | Path, fps: float | None = 10.0, loop: bool = True) -> None:
        self.folder = Path(folder)
        self.paths = sorted(p for p in self.folder.iterdir()
                            if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not self.paths:
            raise ValueError(f"source: no images in folder {self.folder}")
        self.fps, self.loop = fps, loop
        self.name = f"folder {self.folder.name}"
        self.loop_count = 0
        self._i = 0

    def read(self) -> np.ndarray | None:
        for _ in range(len(self.paths)):
            if self._i >= len(self.paths):
                if not self.loop:
                    return None
                self._i = 0
                self.loop_count += 1
            path = self.paths[self._i]
            self._i += 1
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is not None:
                return frame
        return None

    def close(self) -> None:
        pass


class CaptureSource:
    """A webcam (``webcam:N``) or a video file through ``cv2.VideoCapture``; files loop.

    A webcam is asked for ``size`` (px) and, if given, the pixel format ``fourcc`` (``"YUYV"``,
    ``"MJPG"``); cameras settle on what they can do, so its ``name`` says what it sends, e.g.
    ``webcam 0 (1280×720 MJPG, asked YUYV)``."""

    def __init__(self, target: int | str, loop: bool = True,
                 size: tuple[int, int] | None = None, fourcc: str | None = None) -> None:
        self.cap = cv2.VideoCapture(target)
        if not self.cap.isOpened():
            what = f"webcam {target}" if isinstance(target, int) else f"video {target}"
            raise ValueError(f"source: cannot open {what}")
        self.live = isinstance(target, int)
        if self.live and fourcc is not None:
            # Before the size: some drivers only list a format's sizes once it is chosen.
            self.cap.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*fourcc))
        if self.live and size is not None:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        file_fps = self.cap.get(cv2.CAP_PROP_FPS)
        self.fps = None if self.live else (file_fps if 0 < file_fps < 240 else 10.0)
        self.name = (f"webcam {target} ({self._sends(fourcc)})" if self.live
                     else f"video {Path(str(target)).name}")
        self.loop, self.loop_count = loop, 0
        self._lock = threading.Lock()

    def _sends(self, asked: str | None) -> str:
        """What the camera settled on: ``1280×720 YUYV``, and the format asked if not that."""
        w, h = (int(self.cap.get(p)) for p in (cv2.CAP_PROP_FRAME_WIDTH,
                                               cv2.CAP_PROP_FRAME_HEIGHT))
        code = int(self.cap.get(cv2.CAP_PROP_FOURCC))
        got = "".join(chr((code >> 8 * i) & 0xFF) for i in range(4)).strip("\0 ") or "?"
        return f"{w}×{h} {got}" + (f", asked {asked}" if asked and asked != got else "")

    def read(self) -> np.ndarray | None:
        with self._lock:
            ok, frame = self.cap.read()
            if not ok and not self.live and self.loop:
                self.cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                self.loop_count += 1
                ok, frame = self.cap.read()
            return frame if ok else None

    def close(self) -> None:
        with self._lock:
            self.cap.release()


@dataclass(frozen=True, slots=True)
class SourceSpec:
    """A parsed ``--source`` value: ``kind`` is webcam | video | folder | demo."""

    kind: str
    target: str | int | None = None

    @classmethod
    def parse(cls, text: str) -> SourceSpec:
        """``webcam:N``, ``demo``, a folder or a video file.

        >>> SourceSpec.parse("webcam:1"), SourceSpec.parse("demo").kind
        (SourceSpec(kind='webcam', target=1), 'demo')
        """
        if text == "demo":
            return cls("demo")
        if text.startswith("webcam:"):
            idx = text.split(":", 1)[1]
            if not idx.isdigit():
                raise ValueError(f"source: expected webcam:N with a whole number N, got {text!r}")
            return cls("webcam", int(idx))
        p = Path(text)
        if p.is_dir():
            return cls("folder", str(p))
        if p.is_file():
            return cls("video", str(p))
        raise ValueError(f"source: {text!r} is not webcam:N, demo, a folder or a video file")


def open_source(spec: SourceSpec, fps: float | None = 10.0,
                webcam_size: tuple[int, int] = (1920, 1080),
                webcam_format: str = "camera") -> FrameSource:
    """Open a parsed source (``demo`` must be resolved to its folder first). A webcam is asked
    for ``webcam_size`` (px) and ``webcam_format`` (a key of WEBCAM_FORMATS)."""
    if spec.kind == "webcam":
        if webcam_format not in WEBCAM_FORMATS:
            raise ValueError(f"webcam format: expected one of {', '.join(WEBCAM_FORMATS)}, "
                             f"got {webcam_format!r}")
        return CaptureSource(int(spec.target or 0), size=webcam_size,
                             fourcc=WEBCAM_FORMATS[webcam_format])
    if spec.kind == "video":
        return CaptureSource(str(spec.target))
    if spec.kind == "folder":
        return FolderSource(str(spec.target), fps=fps)
    raise ValueError(f"source: cannot open {spec.kind!r} directly")
