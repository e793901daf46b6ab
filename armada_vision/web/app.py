"""The FastAPI app: the phone page, pushed updates (server-sent events) and the referee API.

``create_app`` wires a frame source, an analyser and a game session; the pipeline starts with
the app (lifespan) and stops with it. A projector router, when ``armada_vision.web.projector``
exists, is included as is; it reaches everything through ``request.app.state.armada``
(a :class:`Server`).
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, File, HTTPException, Query, Request, UploadFile
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, FiniteFloat
from starlette.exceptions import HTTPException as StarletteHTTPException

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.web import referee
from armada_vision.web.analysis import Analyser
from armada_vision.web.hub import Hub
from armada_vision.web.images import MAX_UPLOAD_BYTES, BadImage, decode_upload, encode_jpeg
from armada_vision.web.pipeline import Pipeline
from armada_vision.web.security import has_control, new_token, require_control
from armada_vision.web.session import ActionRefused, Session
from armada_vision.web.sources import FrameSource

log = logging.getLogger("armada_vision.web")
STATIC = Path(__file__).resolve().parent / "static"
ShipId = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,32}$")]
View = Literal["live", "upload"]


class ShotRequest(BaseModel):
    """A shot asked about or recorded: ids of ships on the table of ``view``."""

    model_config = ConfigDict(extra="forbid")
    shooter: ShipId
    target: ShipId
    view: View = "live"


class DamageRequest(BaseModel):
    """One damage the players rule themselves (the page's + button); taking damage back is
    done with undo, so the log keeps what happened."""

    model_config = ConfigDict(extra="forbid")
    ship: ShipId
    delta: Literal[1] = 1


class SelectRequest(BaseModel):
    """What a controlling phone has selected, for the projector: a ship (None: nothing) and
    optionally the enemy it asked about (the shot's verdict is shown with its ruler)."""

    model_config = ConfigDict(extra="forbid")
    ship: ShipId | None = None
    target: ShipId | None = None
    view: View = "live"


class PoseSet(BaseModel):
    """Where the players put a ship by hand: stern and heading in the table frame (mm, degrees
    counter-clockwise; normalised to [0, 360) by the server)."""

    model_config = ConfigDict(extra="forbid")
    ship: ShipId
    x_mm: FiniteFloat
    y_mm: FiniteFloat
    heading_deg: FiniteFloat


class CorrectionRequest(BaseModel):
    """The players' answer to a pending flag (the game log's ``Recorder.correct``): ``accept``
    (it stands), ``revert`` (the pieces go back where they were) or ``set`` (the ships in
    ``poses`` are where the players say, e.g. a piece the camera misread or lost)."""

    model_config = ConfigDict(extra="forbid")
    flag: int = Field(ge=1, le=10_000_000)
    resolution: Literal["accept", "revert", "set"]
    poses: list[PoseSet] = Field(default_factory=list, max_length=16)
    note: str = Field(default="", max_length=200)


class Server:
    """Everything one running referee holds: session, hub, pipeline, token, upload analyser."""

    def __init__(self, source: FrameSource | None, layout: TableLayout,
                 analyser: Analyser | None, upload_analyser: Analyser | None,
                 config: RulesConfig, token: str, jpeg_width: int, fps: float | None,
                 restart_on_loop: bool = False,
                 color_players: dict[str, str] | None = None,
                 store_path: str | Path | None = None,
                 first_player: str | None = None) -> None:
        self.layout, self.config, self.token = layout, config, token
        self.hub = Hub()
        self.session = Session(layout, config, source_name=source.name if source else "photos",
                               color_players=dict(color_players or {}), store_path=store_path,
                               first_player=first_player)
        self.upload_analyser = upload_analyser
        self.upload_jpeg: bytes | None = None
        self.upload_seq = 0
        self.pipeline = None if source is None else Pipeline(
            source, analyser, self.session, self.hub, self.publish_state, jpeg_width, fps,
            restart_on_loop)
        self.publish_state()

    def publish_state(self) -> None:
        """Serialize the live state once and hand it to every connected page."""
        self.hub.publish_state(json.dumps(self.session.state_json("live")).encode())

    def stats(self) -> dict[str, Any]:
        out: dict[str, Any] = {"source": self.session.source_name, "clients": self.hub.clients}
        if self.pipeline is not None:
            out.update(self.pipeline.stats())
        return out


def create_app(source: FrameSource | None, layout: TableLayout, *,
               camera: CameraIntrinsics | None = None, analyser: Analyser | None = None,
               upload_analyser: Analyser | None = None, config: RulesConfig = DEFAULT_CONFIG,
               token: str | None = None, jpeg_width: int = 1280,
               fps: float | None = None, restart_on_loop: bool = False,
               color_players: dict[str, str] | None = None,
               store_path: str | Path | None = None,
               first_player: str | None = None) -> FastAPI:
    """The referee app. ``analyser`` defaults to the vision layer's detector with ``camera``;
    uploads use ``upload_analyser`` (default: the detector without intrinsics, since a phone is
    not the calibrated camera). ``token`` defaults to a fresh random one (``app.state.armada
    .token``). ``source=None``: photos only. ``restart_on_loop``: a looping recording of a
    game (the demo) starts a new game each time round."""
    if analyser is None:
        from armada_vision.web.analysis import StillAnalyser, VisionAnalyser

        analyser = VisionAnalyser(layout, camera)
        upload_analyser = upload_analyser or StillAnalyser(layout)
    server = Server(source, layout, analyser, upload_analyser or analyser, config,
                    token or new_token(), jpeg_width, fps, restart_on_loop, color_players,
                    store_path, first_player)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if server.pipeline is not None:
            server.pipeline.start()
        try:
            yield
        finally:
            if server.pipeline is not None:
                await asyncio.to_thread(server.pipeline.stop)
            await asyncio.to_thread(server.session.close)

    app = FastAPI(title="armada-vision", lifespan=lifespan, docs_url=None, redoc_url=None,
                  openapi_url=None)
    app.state.armada = server

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response = await call_next(request)
        # The join URL carries the token: never leak it in a Referer; no framing, no sniffing.
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        return response

    _add_error_handlers(app)
    _add_routes(app, server)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    if importlib.util.find_spec("armada_vision.web.projector") is not None:
        app.include_router(importlib.import_module("armada_vision.web.projector").router)
    return app


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status)


def _add_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(StarletteHTTPException)
    async def http_error(_r: Request, e: StarletteHTTPException) -> JSONResponse:
        return _error(e.status_code, str(e.detail))

    @app.exception_handler(RequestValidationError)
    async def invalid(_r: Request, e: RequestValidationError) -> JSONResponse:
        first = e.errors()[0] if e.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("body", "query"))
        return _error(422, f"{where or 'request'}: {first.get('msg', 'invalid input')}")

    @app.exception_handler(Exception)
    async def crashed(_r: Request, e: Exception) -> JSONResponse:
        log.exception("request failed")
        return _error(500, "internal error (see the server log)")


def _add_routes(app: FastAPI, server: Server) -> None:
    session = server.session

    def guard(fn: Any, *args: Any) -> Any:
        """Domain failures as clean HTTP errors naming the field."""
        try:
            return fn(*args)
        except LookupError as e:
            raise HTTPException(404, e.args[0] if e.args else "not found") from None
        except ActionRefused as e:
            raise HTTPException(409, str(e)) from None
        except referee.Unavailable as e:
            raise HTTPException(503, str(e)) from None
        except ValueError as e:
            raise HTTPException(422, str(e)) from None

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/state")
    def state(request: Request, view: View = "live") -> dict[str, Any]:
        out = session.state_json(view)
        out["control"] = has_control(request)
        return out

    @app.get("/api/auth")
    def auth(request: Request) -> dict[str, bool]:
        return {"control": has_control(request)}

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return server.stats()

    async def frame(_request: Request) -> Response:
        """The newest JPEG. A plain route (no validation or thread hand-off): every phone asks
        for it after each frame event, so it must cost next to nothing."""
        packet = server.hub.frame
        if packet is None:
            raise HTTPException(503, "no frame yet")
        return Response(packet.jpeg, media_type="image/jpeg", headers={
            "Cache-Control": "no-store", "X-Frame-Seq": str(packet.seq),
            "X-Captured-At": f"{packet.captured_at:.6f}"})

    app.router.add_route("/api/frame.jpg", frame, methods=["GET"], include_in_schema=False)

    @app.get("/api/upload.jpg")
    async def upload_image() -> Response:
        if server.upload_jpeg is None:
            raise HTTPException(404, "no photo uploaded yet")
        return Response(server.upload_jpeg, media_type="image/jpeg",
                        headers={"Cache-Control": "no-store"})

    @app.get("/api/events")
    async def events(max_events: Annotated[int, Query(ge=0, le=100_000)] = 0,
                     max_fps: Annotated[float, Query(gt=0, le=60)] = 15.0,
                     ) -> StreamingResponse:
        """Server-sent events: ``frame`` (seq, captured_at) and ``state`` (the live JSON).
        Only the newest of each is ever sent, frames at most ``max_fps`` a second (a phone
        needs no more, and ten phones must not slow the pipeline); ``max_events`` > 0 ends the
        stream (tests)."""
        return StreamingResponse(_event_stream(server, max_events, 1.0 / max_fps),
                                 media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store",
                                          "X-Accel-Buffering": "no"})

    @app.get("/api/ships/{ship_id}/zones")
    def ship_zones(ship_id: Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_.-]{1,32}$")],
                   view: View = "live") -> dict[str, Any]:
        return guard(session.zones, ship_id, view)

    @app.post("/api/shot")
    def shot(req: ShotRequest) -> dict[str, Any]:
        return guard(session.shot, req.shooter, req.target, req.view)

    @app.post("/api/hit", dependencies=[Depends(require_control)])
    def hit(req: ShotRequest) -> dict[str, Any]:
        result = guard(session.record_hit, req.shooter, req.target, req.view)
        server.publish_state()
        return {"recorded": True, "shot": result, "state": session.state_json(req.view)}

    @app.post("/api/undo", dependencies=[Depends(require_control)])
    def undo() -> dict[str, Any]:
        what = guard(session.undo)
        server.publish_state()
        return {"undone": what, "state": session.state_json()}

    @app.post("/api/turn/end", dependencies=[Depends(require_control)])
    def end_turn() -> dict[str, Any]:
        guard(session.end_turn)
        server.publish_state()
        return {"state": session.state_json()}

    @app.post("/api/damage", dependencies=[Depends(require_control)])
    def damage(req: DamageRequest) -> dict[str, Any]:
        guard(session.add_damage, req.ship)
        server.publish_state()
        return {"state": session.state_json()}

    @app.get("/api/log")
    def game_log() -> dict[str, Any]:
        """The game so far, to step through: per event its JSON, notation token, whether it
        was undone and the state after it (table mm); ``pieces``: footprint sizes."""
        return guard(session.timeline_json)

    @app.post("/api/flags", dependencies=[Depends(require_control)])
    def settle_flag(req: CorrectionRequest) -> dict[str, Any]:
        if req.resolution == "set":
            what = guard(session.set_poses, req.flag,
                         [(p.ship, p.x_mm, p.y_mm, p.heading_deg) for p in req.poses], req.note)
        elif req.poses:
            raise HTTPException(422, f"poses: only a set takes poses, not {req.resolution}")
        else:
            what = guard(session.correct, req.flag, req.resolution, req.note)
        server.publish_state()
        return {"corrected": what, "state": session.state_json()}

    @app.post("/api/select", dependencies=[Depends(require_control)])
    def select(req: SelectRequest) -> dict[str, Any]:
        """The projector follows the controlling phone: its selected ship and shot."""
        return guard(session.select, req.ship, req.target, req.view)

    @app.post("/api/upload", dependencies=[Depends(require_control)])
    async def upload(request: Request, file: Annotated[UploadFile, File()]) -> dict[str, Any]:
        declared = request.headers.get("content-length")
        if declared and declared.isdigit() and int(declared) > MAX_UPLOAD_BYTES + 65536:
            raise HTTPException(413, f"file: more than the {MAX_UPLOAD_BYTES} byte limit")
        data = await file.read(MAX_UPLOAD_BYTES + 1)
        try:
            image = decode_upload(data, max_bytes=MAX_UPLOAD_BYTES)
        except BadImage as e:
            raise HTTPException(415 if "not a" in str(e) else 413 if "limit" in str(e)
                                else 422, str(e)) from None
        return await asyncio.to_thread(_analyse_upload, server, image)


def _analyse_upload(server: Server, image: Any) -> dict[str, Any]:
    from dataclasses import replace

    assert server.upload_analyser is not None
    server.upload_seq += 1
    analysis = server.upload_analyser(image, server.upload_seq, time.time())
    server.upload_jpeg = encode_jpeg(image, 1600, 85)
    server.session.on_analysis(replace(analysis, settled=True), view="upload")
    return server.session.state_json("upload")


async def _event_stream(server: Server, max_events: int,
                        frame_period_s: float) -> AsyncIterator[bytes]:
    hub = server.hub
    key = hub.subscribe()
    sent = 0
    frame_seen, state_seen, version = -1, None, -1
    next_frame_t = 0.0
    try:
        yield b"retry: 1000\n\n"
        while max_events == 0 or sent < max_events:
            version = await hub.wait_newer(key, version, timeout_s=15.0)
            packet, state = hub.frame, hub.state
            chunk = b""
            if packet is not None and packet.seq != frame_seen:
                now = time.monotonic()
                if now < next_frame_t:
                    await asyncio.sleep(next_frame_t - now)
                    packet = hub.frame or packet
                next_frame_t = max(now, next_frame_t) + frame_period_s
                frame_seen = packet.seq
                chunk += (b"event: frame\ndata: " + json.dumps(
                    {"seq": packet.seq, "captured_at": packet.captured_at,
                     "image_size": list(packet.image_size)}).encode() + b"\n\n")
                sent += 1
            if state is not None and state is not state_seen and (
                    max_events == 0 or sent < max_events):
                state_seen = state
                chunk += b"event: state\ndata: " + state + b"\n\n"
                sent += 1
            yield chunk or b": keep-alive\n\n"
    finally:
        hub.unsubscribe(key)
