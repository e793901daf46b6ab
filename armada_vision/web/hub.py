"""Latest-value broadcast from the pipeline threads to the asyncio clients.

Nothing queues: a publisher replaces the value and wakes the waiters; a client that was busy
simply gets the newest value when it asks again, so a slow phone skips frames and never holds
the pipeline back (the only per-client state is one ``asyncio.Event``).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class FramePacket:
    """One encoded frame: ``seq`` counts frames, ``captured_at`` is wall-clock seconds (epoch),
    ``image_size`` is the source image (w, h px) the overlays' image frame refers to."""

    seq: int
    captured_at: float
    jpeg: bytes
    image_size: tuple[int, int]


class Hub:
    """Holds the newest frame and the newest state (JSON bytes) with a shared version counter.

    >>> hub = Hub()
    >>> hub.publish_state(b'{"seq": 1}')
    >>> hub.version, hub.state
    (1, b'{"seq": 1}')
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.version = 0
        self.frame: FramePacket | None = None
        self.state: bytes | None = None
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def publish_frame(self, packet: FramePacket) -> None:
        self._publish("frame", packet)

    def publish_state(self, state_json: bytes) -> None:
        self._publish("state", state_json)

    def _publish(self, attr: str, value: Any) -> None:
        with self._lock:
            setattr(self, attr, value)
            self.version += 1
            waiters = list(self._waiters)
        for loop, event in waiters:
            try:
                loop.call_soon_threadsafe(event.set)
            except RuntimeError:  # that client's loop is closed: it is gone
                with self._lock:
                    self._waiters.discard((loop, event))

    @property
    def clients(self) -> int:
        return len(self._waiters)

    def subscribe(self) -> tuple[asyncio.AbstractEventLoop, asyncio.Event]:
        key = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.add(key)
        return key

    def unsubscribe(self, key: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        with self._lock:
            self._waiters.discard(key)

    async def wait_newer(self, key: tuple[asyncio.AbstractEventLoop, asyncio.Event],
                         seen_version: int, timeout_s: float) -> int:
        """Wait until the version passes ``seen_version`` (or the timeout); the new version."""
        event = key[1]
        if self.version > seen_version:
            return self.version
        event.clear()
        if self.version > seen_version:  # published between the check and the clear
            return self.version
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout_s)
        return self.version
