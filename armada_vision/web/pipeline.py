"""The background pipeline: a capture thread and a vision thread, each at its own pace.

The capture thread reads the source (paced to its fps when it is a recording), hands the frame
to the vision thread through a one-slot mailbox (a newer frame replaces one not yet taken, so
vision always works on the newest frame), encodes the JPEG once for every phone and publishes
it. The vision thread analyses the newest frame, updates the session and publishes the state.
Neither ever waits for a client.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from armada_vision.web.analysis import Analyser
from armada_vision.web.hub import FramePacket, Hub
from armada_vision.web.images import encode_jpeg
from armada_vision.web.session import Session
from armada_vision.web.sources import FrameSource

log = logging.getLogger("armada_vision.web")


@dataclass(slots=True)
class Rate:
    """Events per second over a sliding window of the last ``n`` events."""

    n: int = 30
    times: list[float] | None = None
    count: int = 0

    def tick(self, t: float) -> None:
        if self.times is None:
            self.times = []
        self.times.append(t)
        self.count += 1
        if len(self.times) > self.n:
            del self.times[0]

    @property
    def per_s(self) -> float:
        if not self.times or len(self.times) < 2 or self.times[-1] <= self.times[0]:
            return 0.0
        return (len(self.times) - 1) / (self.times[-1] - self.times[0])


class Pipeline:
    """Runs ``source`` → ``analyser`` → ``session`` in two daemon threads; ``publish_state``
    is called after every analysis (the server turns the session into pushed JSON).
    ``restart_on_loop``: a recorded game that starts over starts a new game (the demo)."""

    def __init__(self, source: FrameSource, analyser: Analyser | None, session: Session,
                 hub: Hub, publish_state: Callable[[], None], jpeg_width: int = 1280,
                 fps: float | None = None, restart_on_loop: bool = False) -> None:
        self.source, self.analyser, self.session, self.hub = source, analyser, session, hub
        self.restart_on_loop = restart_on_loop
        self.publish_state, self.jpeg_width = publish_state, jpeg_width
        self.fps = fps if fps is not None else source.fps
        self.capture_rate, self.vision_rate = Rate(), Rate()
        self.vision_skipped = 0
        self.last_error: str | None = None
        self._stop = threading.Event()
        self._mail = threading.Condition()
        self._mailbox: tuple[np.ndarray, int, float] | None = None
        self._latest: tuple[np.ndarray, float] | None = None
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        self._stop.clear()
        self._threads = [threading.Thread(target=self._capture_loop, name="armada-capture",
                                          daemon=True)]
        if self.analyser is not None:
            self._threads.append(threading.Thread(target=self._vision_loop,
                                                  name="armada-vision", daemon=True))
        for t in self._threads:
            t.start()

    def stop(self, timeout_s: float = 3.0) -> None:
        self._stop.set()
        with self._mail:
            self._mail.notify_all()
        for t in self._threads:
            t.join(timeout_s)
        self.source.close()

    @property
    def running(self) -> bool:
        return any(t.is_alive() for t in self._threads)

    def stats(self) -> dict[str, float | int | str | None]:
        return {"capture_fps": round(self.capture_rate.per_s, 2),
                "vision_fps": round(self.vision_rate.per_s, 2),
                "frames_captured": self.capture_rate.count,
                "frames_analysed": self.vision_rate.count,
                "vision_skipped": self.vision_skipped, "clients": self.hub.clients,
                "last_error": self.last_error}

    def latest_frame(self) -> tuple[np.ndarray, float] | None:
        """The newest frame at the source's full resolution (BGR, image px) and its capture
        time (epoch s), or None before the first: projector calibration needs the camera's
        own pixels, not the phones' scaled JPEG. The array is shared: do not write to it."""
        return self._latest

    def _capture_loop(self) -> None:
        seq, loops = 0, self.source.loop_count
        period = 1.0 / self.fps if self.fps else 0.0
        next_t = time.perf_counter()
        misses = 0
        while not self._stop.is_set():
            try:
                frame = self.source.read()
            except Exception as e:  # a camera that fails must not kill the server
                log.exception("reading the source failed")
                self.last_error, frame = f"source: {e}", None
            if frame is None:
                misses += 1
                if misses > 50 and period:
                    log.info("source %s has no more frames", self.source.name)
                    return
                self._stop.wait(0.05)
                continue
            misses = 0
            if self.source.loop_count != loops:
                loops = self.source.loop_count
                if self.restart_on_loop:
                    self.session.restart()
                    reset = getattr(self.analyser, "reset", None)
                    if reset is not None:
                        reset()
            seq += 1
            captured_at = time.time()
            self._latest = (frame, captured_at)
            with self._mail:        # newest frame replaces one vision has not taken yet
                if self._mailbox is not None:
                    self.vision_skipped += 1
                self._mailbox = (frame, seq, captured_at)
                self._mail.notify()
            h, w = frame.shape[:2]
            try:
                jpeg = encode_jpeg(frame, self.jpeg_width)
            except Exception as e:
                self.last_error = f"jpeg: {e}"
                continue
            self.hub.publish_frame(FramePacket(seq, captured_at, jpeg, (w, h)))
            self.capture_rate.tick(time.perf_counter())
            if period:
                next_t += period
                delay = next_t - time.perf_counter()
                if delay > 0:
                    self._stop.wait(delay)
                else:
                    next_t = time.perf_counter()  # late: do not try to catch up

    def _vision_loop(self) -> None:
        assert self.analyser is not None
        while not self._stop.is_set():
            with self._mail:
                while self._mailbox is None and not self._stop.is_set():
                    self._mail.wait(0.5)
                if self._stop.is_set():
                    return
                frame, seq, captured_at = self._mailbox  # type: ignore[misc]
                self._mailbox = None
            try:
                analysis = self.analyser(frame, seq, captured_at)
                self.session.on_analysis(analysis)
                self.publish_state()
            except Exception as e:  # one bad frame must not stop the referee
                log.exception("analysing frame %d failed", seq)
                self.last_error = f"vision: {e}"
            self.vision_rate.tick(time.perf_counter())
