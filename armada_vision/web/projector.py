"""The projector page's server side: what to draw on the felt, and the capture handshake.

``router`` (FastAPI) serves the full-screen page ``/projector`` and its JSON API under
``/api/projector/``. A :class:`ProjectorController` (one per app, ``app.state.projector``) holds
the calibration (``H_projector_from_table``), the style, the overlays in table mm and the page's
mode (``overlays`` | ``blank`` | ``pattern``). The page long-polls ``/api/projector/frame`` and
gets every overlay already mapped to projector px, so it only draws.

Capture handshake: a capture that must not see projected light calls
``controller.request_mode("blank")`` (or uses ``with controller.blanked():``); the page draws
black, waits two animation frames and acknowledges; the call returns the wall-clock time of the
acknowledgement, and frames captured after it are free of projection. With no page open the
call times out and returns None, so capture never hangs on the projector.

Frames: overlays are built in table mm (+x right, +y away from the viewer) and sent in
projector px (x right, y down, pixel centres at integers).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import FileResponse, Response

from armada_vision.geometry.layout import TableLayout
from armada_vision.vision.projector import (
    DEFAULT_COLORS,
    LAYERS,
    Overlay,
    ProjectorCalibration,
    ProjectorPattern,
    ProjectorStyle,
    apply_homography,
)
from armada_vision.web.hub import Hub
from armada_vision.web.projector_overlays import (
    cut_out,
    overlays_from_json,
    overlays_from_last_move,
    overlays_from_move,
    overlays_from_session,
    overlays_from_verdict,
    overlays_from_zones,
)

STATIC = Path(__file__).resolve().parent / "static"
MODES = ("overlays", "blank", "pattern")
DEFAULT_SIZE = (1280, 800)

# --- the controller -------------------------------------------------------------------------

class ProjectorController:
    """What the projector shows, shared by the server threads and the page (thread-safe).

    >>> c = ProjectorController()
    >>> c.set_overlays([Overlay("step", (((0, 0), (10, 0), (0, 10)),))])
    >>> c.frame_json()["mode"], len(c.frame_json()["overlays"])
    ('overlays', 0)
    """

    def __init__(self, calibration: ProjectorCalibration | None = None,
                 style: ProjectorStyle | None = None,
                 pattern_size: tuple[int, int] = DEFAULT_SIZE) -> None:
        self.hub = Hub()
        self._lock = threading.Condition()
        self._pub_lock = threading.Lock()  # publishes in order: an older state never lands last
        self.calibration = calibration
        self.style = style or ProjectorStyle()
        self.pattern = ProjectorPattern.fit(calibration.projector_size if calibration
                                            else pattern_size)
        self.overlays: tuple[Overlay, ...] = ()
        self.mode = "overlays"
        self.request_id = 0
        self.acked_id = 0
        self.acked_at = 0.0
        # When the table was surely dark: (wall time, lit) changes. Light counts from the
        # moment it is asked for; darkness only from the page's acknowledgement.
        self._timeline: deque[tuple[float, bool]] = deque([(0.0, False)], maxlen=256)
        self._request_dark: dict[int, bool] = {}
        self.status: dict[str, Any] = {}
        self.keep_out: shapely.Geometry | None = None
        self.selected: str | None = None
        self.verdict: dict[str, Any] | None = None
        self._synced: tuple[Any, ...] | None = None
        self._publish()

    # -- setting what is shown
    def set_overlays(self, overlays: Iterable[Overlay]) -> None:
        with self._lock:
            self.overlays = tuple(overlays)
        self._publish()

    def set_keep_out(self, shapes_mm: Iterable[shapely.Geometry]) -> None:
        """Where the pieces are (table mm): light is kept ``style.clear_mm`` off them."""
        shapes = [g for g in shapes_mm if g is not None and not g.is_empty]
        with self._lock:
            self.keep_out = shapely.union_all(shapes) if shapes else None
        self._publish()

    def set_style(self, style: ProjectorStyle) -> None:
        with self._lock:
            self.style = style
        self._publish()

    def set_calibration(self, calibration: ProjectorCalibration | None,
                        status: Mapping[str, Any] | None = None) -> None:
        with self._lock:
            self.calibration = calibration
            if calibration is not None and calibration.projector_size != self.pattern.size_px:
                self.pattern = ProjectorPattern.fit(calibration.projector_size)
            if status is not None:
                self.status = dict(status)
        self._publish()

    def set_pattern_size(self, size_px: tuple[int, int]) -> None:
        """The projector's resolution as the page reports it (before any calibration)."""
        with self._lock:
            if self.calibration is None and tuple(size_px) != self.pattern.size_px:
                self.pattern = ProjectorPattern.fit(size_px)
        self._publish()

    def select(self, ship_id: str | None, verdict: Mapping[str, Any] | None = None) -> None:
        """Which ship's zones to show and which shot verdict's ruler (None: none)."""
        with self._lock:
            self.selected = ship_id
            self.verdict = dict(verdict) if verdict else None
            self._synced = None

    def sync(self, session: Any) -> bool:
        """Recompute the overlays from the web server's session when it changed (its
        ``version``, the selection or the verdict); True when what the page shows changed (a
        new frame of the camera with the same poses publishes nothing). The selection is ours
        if set, else the session's ``selected`` if it has one."""
        with self._lock:
            sel = self.selected or getattr(session, "selected", None)
            verdict = self.verdict or getattr(session, "last_shot", None)
            key = (getattr(session, "version", None), sel, json.dumps(verdict, sort_keys=True,
                                                                      default=str))
            if key == self._synced:
                return False
            self._synced = key
        try:
            table = session.table()
            cfg = session.config
            pieces = [s.silhouette(cfg) for s in table.ships] + [o.shape for o in table.obstacles]
        except (LookupError, AttributeError):
            pieces = []
        keep = shapely.union_all(pieces) if pieces else None
        overlays = tuple(overlays_from_session(session, sel, verdict))
        with self._lock:
            same_keep = (keep is None and self.keep_out is None) or (
                keep is not None and self.keep_out is not None
                and shapely.to_wkb(keep) == shapely.to_wkb(self.keep_out))
            if same_keep and overlays == self.overlays:
                return False
            self.keep_out = keep
        self.set_overlays(overlays)
        return True

    # -- handshake
    def request_mode(self, mode: str, timeout_s: float = 1.0) -> float | None:
        """Ask the page to show ``mode``; the wall-clock time it confirmed (frames captured
        later show it), or None when no page confirmed within ``timeout_s``."""
        if mode not in MODES:
            raise ValueError(f"mode: expected one of {', '.join(MODES)}, got {mode!r}")
        with self._lock:
            self.mode = mode
            self.request_id += 1
            rid = self.request_id
        self._publish()
        with self._lock:
            ok = self._lock.wait_for(lambda: self.acked_id >= rid, timeout_s)
            return self.acked_at if ok else None

    def ack(self, request_id: int) -> None:
        """The page has shown what request ``request_id`` asked for."""
        with self._lock:
            if request_id > self.acked_id and request_id <= self.request_id:
                self.acked_id, self.acked_at = request_id, time.time()
                if (self._request_dark.get(request_id) and request_id == self.request_id
                        and self._timeline[-1][1]):
                    self._timeline.append((self.acked_at, False))
                self._lock.notify_all()

    def was_dark(self, t: float) -> bool:
        """True when the table surely had no projected light at wall-clock time ``t``."""
        with self._lock:
            for when, lit in reversed(self._timeline):
                if when <= t:
                    return not lit
        return False

    @contextmanager
    def blanked(self, timeout_s: float = 1.0) -> Iterator[float | None]:
        """``with controller.blanked() as t:`` the projector is black inside the block (frames
        captured after ``t`` see no projection; ``t`` is None if no page confirmed)."""
        t = self.request_mode("blank", timeout_s)
        try:
            yield t
        finally:
            with self._lock:
                self.mode = "overlays"
                self.request_id += 1
            self._publish()

    # -- what the page gets
    def frame_json(self) -> dict[str, Any]:
        """Everything the page draws: mode, size, style, overlays in projector px."""
        with self._lock:
            cal, style, overlays = self.calibration, self.style, self.overlays
            keep = self.keep_out
            out: dict[str, Any] = {
                "version": self.hub.version + 1, "mode": self.mode,
                "request_id": self.request_id,
                "size": list(cal.projector_size if cal else self.pattern.size_px),
                "calibrated": cal is not None, "style": style.to_dict(),
                "status": self.status,
            }
        if cal is not None:
            out["calibration"] = cal.to_dict()
        drawn = []
        if cal is not None:
            if keep is not None and style.clear_mm > 0:
                overlays = tuple(cut_out(overlays, keep.buffer(style.clear_mm)))
            for ov in overlays:
                if ov.layer in style.hidden:
                    continue
                rings = [np.round(apply_homography(cal.H, r), 2).tolist()
                         for r in ov.rings_mm if len(r) >= 2]
                drawn.append({"layer": ov.layer, "closed": ov.closed, "rings_px": rings})
        out["overlays"] = drawn
        return out

    def _publish(self) -> None:
        with self._pub_lock:
            frame = self.frame_json()
            lit = frame["mode"] == "pattern" or (frame["mode"] == "overlays"
                                                 and bool(frame["overlays"]))
            with self._lock:
                self._request_dark[frame["request_id"]] = not lit
                if len(self._request_dark) > 64:
                    self._request_dark.pop(min(self._request_dark))
                if lit and not self._timeline[-1][1]:
                    self._timeline.append((time.time(), True))
            self.hub.publish_state(json.dumps(frame).encode())


def controller_for(app: Any) -> ProjectorController:
    """The app's controller, created on first use (``app.state.projector``)."""
    ctrl = getattr(app.state, "projector", None)
    if ctrl is None:
        ctrl = ProjectorController()
        app.state.projector = ctrl
    return ctrl


class BlankingAnalyser:
    """Wraps the server's analyser so that moves are judged only on frames without projected
    light: a frame captured while the projection was on comes back with ``settled=False``
    (tracking still sees it); when such a frame is settled, the page is asked for black, the
    next settled frame exposed in the dark passes as it is (the session judges it), and the
    zones come back. The projection blinks once each time the table comes to rest.

    ``exposure_s``: how long before its time stamp a frame may have been exposed (camera
    buffering, projector lag). With no page answering, frames pass unchanged, so the referee
    keeps working without a projector.

    Use: ``ctrl = ProjectorController(); app = create_app(source, layout,
    analyser=BlankingAnalyser(VisionAnalyser(layout, camera), ctrl)); app.state.projector =
    ctrl``.
    """

    def __init__(self, inner: Callable[..., Any], ctrl: ProjectorController,
                 exposure_s: float = 0.15, timeout_s: float = 1.0,
                 max_dark_s: float = 3.0) -> None:
        self.inner, self.ctrl = inner, ctrl
        self.exposure_s, self.timeout_s, self.max_dark_s = exposure_s, timeout_s, max_dark_s
        self._need_clean = True
        self._blanking = False
        self._blank_started = 0.0
        self._no_page_until = 0.0
        self.passed_clean = 0
        self.held_lit = 0

    def reset(self) -> None:
        reset = getattr(self.inner, "reset", None)
        if reset is not None:
            reset()
        self._need_clean = True

    def __call__(self, frame_bgr: np.ndarray, frame_seq: int, captured_at: float) -> Any:
        a = self.inner(frame_bgr, frame_seq, captured_at)
        if self._blanking and time.time() - self._blank_started > self.max_dark_s:
            # the table does not come to rest in the dark (a hand hovering): zones back on,
            # and no new blink for a while
            self._blanking = False
            self._no_page_until = time.time() + 2.0 * self.max_dark_s
            self._set_mode("overlays")
        if self.ctrl.was_dark(captured_at - self.exposure_s):
            if getattr(a, "settled", False):
                self.passed_clean += 1
                self._need_clean = False
                if self._blanking:
                    self._blanking = False
                    self._set_mode("overlays")
            return a
        if time.time() < self._no_page_until:
            return a                     # no page answers (or no rest in the dark): as it is
        if not getattr(a, "settled", False):
            self._need_clean = True      # something moves: the next rest needs a dark frame
        elif self._need_clean and not self._blanking:
            self._blanking, self._blank_started = True, time.time()
            threading.Thread(target=self._blank, daemon=True).start()
        self.held_lit += 1
        return replace(a, settled=False)

    def _blank(self) -> None:
        if self.ctrl.request_mode("blank", self.timeout_s) is None:
            self._no_page_until = time.time() + 10.0
            self._blanking = False
            self._set_mode("overlays")

    def _set_mode(self, mode: str) -> None:
        with self.ctrl._lock:
            self.ctrl.mode = mode
            self.ctrl.request_id += 1
        self.ctrl._publish()


# --- calibration through the page ------------------------------------------------------------

Grab = Callable[[float], "np.ndarray | None"]


def _capture_pair(ctrl: ProjectorController, grab: Grab, timeout_s: float
                  ) -> tuple[np.ndarray | None, np.ndarray | None, str | None]:
    """(board frame, dark frame, why not): the page shows the board, then black; the zones
    come back whatever happens."""
    try:
        t_on = ctrl.request_mode("pattern", timeout_s)
        if t_on is None:
            return None, None, "the projector page did not show the pattern"
        on = grab(t_on)
        t_off = ctrl.request_mode("blank", timeout_s)
        off = grab(t_off) if t_off is not None else None
    finally:
        with ctrl._lock:
            ctrl.mode = "overlays"
            ctrl.request_id += 1
        ctrl._publish()
    if on is None or off is None:
        return None, None, "no camera frame after the page changed"
    return on, off, None


def _capture_table(ctrl: ProjectorController, grab: Grab, layout: TableLayout, camera: Any,
                   timeout_s: float) -> tuple[Any, Any, Any] | dict[str, Any]:
    """A board/dark frame pair and the table calibration from the dark frame, or the failure
    status JSON."""
    from armada_vision.vision.calibrate import calibrate
    from armada_vision.vision.types import VisionFailure

    on, off, why = _capture_pair(ctrl, grab, timeout_s)
    if on is None or off is None:
        return {"ok": False, "reason": why}
    table = calibrate(off, layout, camera)
    if isinstance(table, VisionFailure):
        return {"ok": False, "reason": f"table calibration: {table.reason}"}
    return on, off, table


def run_calibration(ctrl: ProjectorController, grab: Grab, layout: TableLayout,
                    camera: Any = None, timeout_s: float = 3.0) -> dict[str, Any]:
    """Show the pattern, grab a frame, blank, grab another, fit and store the calibration.

    ``grab(after_t)`` returns a full-resolution BGR camera frame captured after wall-clock
    ``after_t`` (or None). Returns the status JSON (residual in mm, or the reason it failed).
    """
    from armada_vision.vision.projector import calibrate_projector
    from armada_vision.vision.types import VisionFailure

    captured = _capture_table(ctrl, grab, layout, camera, timeout_s)
    if isinstance(captured, dict):
        return captured
    on, off, table = captured
    cal = calibrate_projector(on, ctrl.pattern, table, image_off=off)
    if isinstance(cal, VisionFailure):
        status = {"ok": False, "reason": cal.reason}
        ctrl.set_calibration(ctrl.calibration, status)
        return status
    status = {"ok": True, "residual_mean_mm": round(cal.residual_mean_mm, 3),
              "residual_max_mm": round(cal.residual_max_mm, 3), "points": cal.points,
              "at": time.time()}
    ctrl.set_calibration(cal, status)
    return status


def run_check(ctrl: ProjectorController, grab: Grab, layout: TableLayout, camera: Any = None,
              timeout_s: float = 3.0, moved_mm: float | None = None) -> dict[str, Any]:
    """Re-check the stored calibration on a fresh board/dark pair; ``moved`` when the residual
    jumped (the projector or the camera was moved: calibrate again)."""
    from armada_vision.vision.projector import check_projector
    from armada_vision.vision.types import VisionFailure

    cal = ctrl.calibration
    if cal is None:
        return {"ok": False, "reason": "the projector is not calibrated"}
    captured = _capture_table(ctrl, grab, layout, camera, timeout_s)
    if isinstance(captured, dict):
        return captured
    on, off, table = captured
    chk = check_projector(on, ctrl.pattern, table, cal, image_off=off, moved_mm=moved_mm)
    if isinstance(chk, VisionFailure):
        return {"ok": False, "reason": chk.reason}
    status = {"ok": not chk.moved, "moved": chk.moved,
              "residual_mean_mm": round(chk.residual_mean_mm, 3),
              "threshold_mm": round(chk.threshold_mm, 3), "points": chk.points,
              "at": time.time()}
    if chk.moved:
        status["reason"] = (f"the projector has moved ({chk.residual_mean_mm:.1f} mm off): "
                            "calibrate again")
    ctrl.set_calibration(cal, status)
    return status


# --- the router -----------------------------------------------------------------------------

router = APIRouter()


def _ctrl(request: Request) -> ProjectorController:
    return controller_for(request.app)


def require_control(request: Request) -> None:
    """Changing what the projector shows needs the referee's join token (``X-Armada-Token``)
    when the app is the referee server; a bare app (tests, a projector-only server) is open."""
    server = getattr(request.app.state, "armada", None)
    expected = getattr(server, "token", None)
    if expected is None:
        return
    from armada_vision.web.security import TOKEN_HEADER, token_ok

    if not token_ok(request.headers.get(TOKEN_HEADER), expected):
        raise HTTPException(403, "control needs the join token: open the URL shown at start-up")


@router.get("/projector", include_in_schema=False)
def projector_page() -> FileResponse:
    return FileResponse(STATIC / "projector.html", media_type="text/html")


@router.get("/projector.js", include_in_schema=False)
def projector_js() -> FileResponse:
    return FileResponse(STATIC / "projector.js", media_type="text/javascript")


@router.get("/projector.css", include_in_schema=False)
def projector_css() -> FileResponse:
    return FileResponse(STATIC / "projector.css", media_type="text/css")


@router.get("/api/projector/frame")
async def frame(request: Request, since: int = 0, wait_s: float = 20.0) -> Response:
    """The newest frame JSON; waits (long poll, ≤ ``wait_s``) until it is newer than ``since``."""
    ctrl = _ctrl(request)
    hub = ctrl.hub
    session = _session(request.app)
    deadline = time.monotonic() + max(0.0, min(wait_s, 30.0))
    key = hub.subscribe()
    try:
        while True:
            if session is not None:   # the table moved on: new zones, new last move
                await asyncio.to_thread(ctrl.sync, session)
            left = deadline - time.monotonic()
            if hub.version > since or left <= 0:
                break
            await hub.wait_newer(key, since, min(left, 0.5))
    finally:
        hub.unsubscribe(key)
    body = hub.state or b"{}"
    return Response(body, media_type="application/json",
                    headers={"X-Version": str(hub.version), "Cache-Control": "no-store"})


@router.post("/api/projector/ack")
async def ack(request: Request) -> dict[str, Any]:
    """The page confirms it shows request ``request_id`` (and may report its ``size``)."""
    body = await _json(request)
    rid = body.get("request_id")
    if isinstance(rid, bool) or not isinstance(rid, int) or rid < 0:
        raise HTTPException(422, "request_id: expected a whole number ≥ 0")
    ctrl = _ctrl(request)
    size = body.get("size")
    if size is not None:
        ctrl.set_pattern_size(_size(size))
    ctrl.ack(rid)
    return {"ok": True}


@router.get("/api/projector/pattern.png")
def pattern_png(request: Request) -> Response:
    """The calibration pattern at the projector's resolution (show it at 1:1 on the canvas)."""
    import cv2

    _ok, buf = cv2.imencode(".png", _ctrl(request).pattern.image())
    return Response(buf.tobytes(), media_type="image/png", headers={"Cache-Control": "no-store"})


@router.get("/api/projector/style")
def get_style(request: Request) -> dict[str, Any]:
    return _ctrl(request).style.to_dict()


@router.put("/api/projector/style", dependencies=[Depends(require_control)])
async def put_style(request: Request) -> dict[str, Any]:
    """Change colours, brightness, fill opacity, line width or hidden layers (any subset)."""
    ctrl = _ctrl(request)
    ctrl.set_style(style_from_json(await _json(request), ctrl.style))
    return ctrl.style.to_dict()


@router.get("/api/projector/calibration")
def get_calibration(request: Request) -> dict[str, Any]:
    ctrl = _ctrl(request)
    if ctrl.calibration is None:
        raise HTTPException(404, "the projector is not calibrated")
    return ctrl.calibration.to_dict()


@router.put("/api/projector/calibration", dependencies=[Depends(require_control)])
async def put_calibration(request: Request) -> dict[str, Any]:
    """Load a calibration file (``armada-vision projector calibrate`` writes one)."""
    try:
        cal = ProjectorCalibration.from_dict(await _json(request))
    except ValueError as e:
        raise HTTPException(422, str(e)) from None
    _ctrl(request).set_calibration(cal, {"ok": True, "source": "uploaded"})
    return cal.to_dict()


@router.post("/api/projector/overlays", dependencies=[Depends(require_control)])
async def post_overlays(request: Request) -> dict[str, Any]:
    """Replace the overlays: ``{"overlays": [{"layer", "rings": [[[x, y], ...]], "closed"}]}``
    (table mm), or ``{"zones": ..., "verdict": ..., "last_move": ...}`` as the referee gives
    them."""
    body = await _json(request)
    try:
        overlays = overlays_from_json(body)
    except (ValueError, KeyError, TypeError, IndexError) as e:
        raise HTTPException(422, f"overlays: {e}") from None
    _ctrl(request).set_overlays(overlays)
    return {"ok": True, "overlays": len(overlays)}


@router.post("/api/projector/select", dependencies=[Depends(require_control)])
async def post_select(request: Request) -> dict[str, Any]:
    """``{"ship": id or null, "verdict": shot verdict JSON or null}`` or ``{"ship": id,
    "shot": {"shooter": id, "target": id}}`` (the session adjudicates it): what the projector
    shows from the server's session (the ship's zones, the ruler and line of fire, the last
    move)."""
    body = await _json(request)
    ship = body.get("ship")
    verdict = body.get("verdict")
    session = _session(request.app)
    shot = body.get("shot")
    if shot is not None:
        if (not isinstance(shot, dict) or not isinstance(shot.get("shooter"), str)
                or not isinstance(shot.get("target"), str)):
            raise HTTPException(422, "shot: expected {shooter: id, target: id}")
        if session is None:
            raise HTTPException(409, "shot: no referee session to adjudicate it")
        try:
            verdict = await asyncio.to_thread(session.shot, shot["shooter"], shot["target"])
        except (LookupError, ValueError) as e:
            raise HTTPException(422, f"shot: {e.args[0] if e.args else e}") from None
    if ship is not None and not isinstance(ship, str):
        raise HTTPException(422, "ship: expected a ship id or null")
    if verdict is not None and not isinstance(verdict, dict):
        raise HTTPException(422, "verdict: expected a verdict object or null")
    ctrl = _ctrl(request)
    ctrl.select(ship, verdict)
    if session is not None:
        await asyncio.to_thread(ctrl.sync, session)
    else:
        ctrl.set_overlays(overlays_from_verdict(verdict) if verdict else ())
    return {"ok": True, "ship": ship, "verdict": verdict}


@router.post("/api/projector/calibrate", dependencies=[Depends(require_control)])
async def post_calibrate(request: Request) -> dict[str, Any]:
    """Run the calibration through the page and the server's live camera."""
    ctrl = _ctrl(request)
    grab, layout, camera = _server_parts(request.app)
    if grab is None or layout is None:
        raise HTTPException(409, "no live camera: calibrate with `armada-vision projector "
                                 "calibrate` and upload the file")
    return await asyncio.to_thread(run_calibration, ctrl, grab, layout, camera)


@router.post("/api/projector/check", dependencies=[Depends(require_control)])
async def post_check(request: Request) -> dict[str, Any]:
    """Re-check the calibration through the page and the live camera (``moved`` when the
    residual jumped)."""
    ctrl = _ctrl(request)
    grab, layout, camera = _server_parts(request.app)
    if grab is None or layout is None:
        raise HTTPException(409, "no live camera: use `armada-vision projector check`")
    return await asyncio.to_thread(run_check, ctrl, grab, layout, camera)


def _session(app: Any) -> Any:
    """The referee session of the web server (``app.state.armada.session``), if any."""
    server = getattr(app.state, "armada", None)
    return getattr(server, "session", None) or getattr(app.state, "session", None)


def _server_parts(app: Any) -> tuple[Grab | None, TableLayout | None, Any]:
    """(grab, layout, camera) from the web server: ``grab(after_t)`` waits for a camera frame
    captured after ``after_t``. It takes the pipeline's raw frame when the pipeline offers one
    (``latest_frame() -> (bgr, captured_at)``), else decodes the pushed JPEG and scales it back
    to the source size (coarser: the JPEG is narrower than the camera)."""
    server = getattr(app.state, "armada", None)
    grab = getattr(app.state, "projector_grab", None)
    layout = getattr(server, "layout", None) or getattr(app.state, "layout", None)
    pipeline = getattr(server, "pipeline", None)
    analyser = getattr(pipeline, "analyser", None)
    camera = getattr(analyser, "camera", None) or getattr(app.state, "camera", None)
    if grab is None and pipeline is not None:
        grab = _pipeline_grab(server)
    return grab, layout, camera


def _pipeline_grab(server: Any, timeout_s: float = 10.0, skip: int = 1) -> Grab:
    """``grab(after_t)``: a frame from the server's pipeline stamped after ``after_t``, skipping
    the first ``skip`` such frames: a frame is stamped when it is read, so the first one may
    have been exposed before the page changed (camera buffers, projector lag)."""
    import cv2

    def latest() -> tuple[Any, float] | None:
        fn = getattr(server.pipeline, "latest_frame", None)
        if callable(fn):
            return fn()
        pkt = server.hub.frame
        return None if pkt is None else (pkt, pkt.captured_at)

    def grab(after_t: float) -> np.ndarray | None:
        deadline = time.monotonic() + timeout_s
        seen = 0
        last_t = after_t
        while time.monotonic() < deadline:
            got = latest()
            if got is not None and got[1] > last_t:
                last_t = got[1]
                seen += 1
                if seen > skip:
                    frame = got[0]
                    if not isinstance(frame, np.ndarray):  # the pushed JPEG: decode, rescale
                        img = cv2.imdecode(np.frombuffer(frame.jpeg, np.uint8), cv2.IMREAD_COLOR)
                        if img is not None and (img.shape[1], img.shape[0]) != frame.image_size:
                            img = cv2.resize(img, frame.image_size,
                                             interpolation=cv2.INTER_CUBIC)
                        frame = img
                    return frame
            time.sleep(0.02)
        return None

    return grab


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(422, "body: expected a JSON object") from None
    if not isinstance(body, dict):
        raise HTTPException(422, "body: expected a JSON object")
    return body


def _size(v: Any) -> tuple[int, int]:
    if (not isinstance(v, list | tuple) or len(v) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and 64 <= x <= 16384
                       for x in v)):
        raise HTTPException(422, "size: expected [width, height] in whole pixels (≥ 64)")
    return (int(v[0]), int(v[1]))


def style_from_json(body: Mapping[str, Any], base: ProjectorStyle | None = None
                    ) -> ProjectorStyle:
    """A style from (a subset of) its JSON form; bad fields raise HTTPException(422)."""
    base = base or ProjectorStyle()
    kw: dict[str, Any] = {}
    for key, lo, hi in (("brightness", 0.0, 1.0), ("fill_alpha", 0.0, 1.0),
                        ("line_px", 0.5, 40.0), ("clear_mm", 0.0, 50.0)):
        if key in body:
            v = body[key]
            if isinstance(v, bool) or not isinstance(v, int | float) or not lo <= v <= hi:
                raise HTTPException(422, f"{key}: expected a number in [{lo:g}, {hi:g}]")
            kw[key] = float(v)
    if "colors" in body:
        cols = body["colors"]
        if not isinstance(cols, dict):
            raise HTTPException(422, "colors: expected {layer: '#rrggbb'}")
        merged = dict(base.colors)
        for layer, c in cols.items():
            if layer not in DEFAULT_COLORS:
                raise HTTPException(422, f"colors.{layer}: unknown layer")
            if not (isinstance(c, str) and len(c) == 7 and c[0] == "#"
                    and all(ch in "0123456789abcdefABCDEF" for ch in c[1:])):
                raise HTTPException(422, f"colors.{layer}: expected '#rrggbb'")
            merged[layer] = c.lower()
        kw["colors"] = tuple(merged.items())
    if "hidden" in body:
        hid = body["hidden"]
        if not isinstance(hid, list) or not all(h in LAYERS for h in hid):
            raise HTTPException(422, f"hidden: expected a list of layers ({', '.join(LAYERS)})")
        kw["hidden"] = tuple(hid)
    return replace(base, **kw)


__all__ = [
    "BlankingAnalyser", "ProjectorController", "controller_for", "cut_out", "overlays_from_json",
    "overlays_from_last_move", "overlays_from_move", "overlays_from_session",
    "overlays_from_verdict", "overlays_from_zones", "router", "run_calibration", "run_check",
    "style_from_json",
]
