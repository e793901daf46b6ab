"""``armada-vision serve``: the referee server and phone page (the default command).

With no source it plays the demo sequence in a loop, so a fresh install shows the product.
Control (hits, undo, turns, uploads) needs the join token printed at start as a URL and a QR
code; without it the page is read-only.
"""

from __future__ import annotations

import argparse
import json
import socket
from pathlib import Path
from typing import Any

from armada_vision.cli import CliError, parse_size, read_json


def add_parser(sub: Any) -> None:
    p = sub.add_parser("serve", help="run the referee server and phone page (default: demo)",
                       description=__doc__)
    p.add_argument("--source", default="demo",
                   help="webcam:N, a video file, a folder of frames, or demo (default)")
    p.add_argument("--webcam-size", default="1920x1080", metavar="WxH",
                   help="frame size to ask a webcam for (default 1920x1080)")
    p.add_argument("--webcam-format", choices=["camera", "mjpeg", "uncompressed"],
                   default="camera",
                   help="pixel format to ask a webcam for: its own choice (default), mjpeg, or "
                        "uncompressed (YUYV: fewer frames a second, but no JPEG blocks, which "
                        "cost the pose most; try it at --webcam-size 1280x720)")
    p.add_argument("--layout", help="table layout JSON or built-in name (60x60, 90x60, 120x90); "
                                    "default: the folder's layout.json")
    p.add_argument("--camera", help="camera JSON (intrinsics); default: the folder's "
                                    "camera.json, else estimated")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, "
                                                     "so phones on the network can connect)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--fps", type=float, default=None,
                   help="playback rate of a folder or video source (default: the folder's "
                        "events.json rate, else 10)")
    p.add_argument("--db", default=None,
                   help="SQLite game log (default ~/.local/share/armada-vision/games.sqlite; "
                        "'-' keeps the log in memory)")
    p.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    p.add_argument("--no-blanking", action="store_true",
                   help="judge moves on frames taken with the projector lit (by default a "
                        "connected /projector page blinks black for each settled table)")
    p.add_argument("--projector-lag", type=float, default=0.15, metavar="S",
                   help="seconds a frame may have been exposed before its time stamp (camera "
                        "buffering plus the projector's input lag), so a frame taken while the "
                        "zones were still lit is not judged (default 0.15)")
    p.set_defaults(run=run)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or 127.0.0.1."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _sequence_info(folder: Path | None) -> tuple[float | None, dict[str, str], str | None]:
    """Frame rate, colour → player and the first player of a recorded sequence, from its
    events.json if any (the first event's player moves first)."""
    if folder is None or not (folder / "events.json").is_file():
        return None, {}, None
    try:
        info = json.loads((folder / "events.json").read_text(encoding="utf-8"))
        fps = info.get("fps")
        players = {str(v["color"]): str(k) for k, v in (info.get("players") or {}).items()
                   if isinstance(v, dict) and "color" in v}
        events = info.get("events") or []
        first = events[0].get("player") if events and isinstance(events[0], dict) else None
        fps = float(fps) if isinstance(fps, int | float) and fps > 0 else None
        return fps, players, (str(first) if first else None)
    except (OSError, ValueError, TypeError, AttributeError):
        return None, {}, None


def _resolve(args: argparse.Namespace) -> tuple[Any, Any, Any, dict[str, str], str | None]:
    from armada_vision.geometry.camera import CameraIntrinsics
    from armada_vision.vision.layouts import load_layout
    from armada_vision.web.demo import ensure_demo
    from armada_vision.web.sources import SourceSpec, open_source

    spec = SourceSpec.parse(args.source)
    folder: Path | None = None
    if spec.kind == "demo":
        folder = ensure_demo()
        spec = SourceSpec("folder", str(folder))
    elif spec.kind == "folder":
        folder = Path(str(spec.target))
    if args.fps is not None and not 0 < args.fps <= 120:
        raise CliError("--fps: expected a rate between 0 and 120 frames/s")
    seq_fps, color_players, first = _sequence_info(folder)
    if args.layout:
        layout = load_layout(args.layout)
    elif folder is not None and (folder / "layout.json").is_file():
        layout = load_layout(folder / "layout.json")
    else:
        raise CliError("--layout: a table layout is needed for this source (e.g. --layout 60x60)")
    camera = None
    cam_path = Path(args.camera) if args.camera else (
        folder / "camera.json" if folder is not None else None)
    if cam_path is not None and (args.camera or cam_path.is_file()):
        try:
            camera = CameraIntrinsics.from_dict(read_json(cam_path, "camera"))
        except ValueError as e:
            raise CliError(f"camera {cam_path}: {e}") from None
    webcam_size = parse_size(args.webcam_size, "--webcam-size")
    source = open_source(spec, fps=args.fps or seq_fps or 10.0, webcam_size=webcam_size,
                         webcam_format=args.webcam_format)
    if args.source == "demo":
        source.name = "demo"
    return source, layout, camera, color_players, first


def _db_path(arg: str | None) -> Path | None:
    import os

    if arg == "-":
        return None
    if arg:
        return Path(arg)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    path = Path(base) / "armada-vision" / "games.sqlite"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CliError(f"--db: cannot create {path.parent} ({e.strerror})") from None
    return path


def make_app(source: Any, layout: Any, camera: Any = None, *, blanking: bool = True,
             analyser: Any = None, projector_lag_s: float = 0.15, **kw: Any) -> Any:
    """The referee app with its projector: the controller is ``app.state.projector`` (the
    /projector page follows the phones), and with ``blanking`` the analyser is wrapped so
    that moves are judged only on frames exposed while the projector was dark. Without a
    projector page connected, frames pass unchanged. ``analyser``: the live analyser to wrap
    (default: the vision layer's tracker with ``camera``). ``projector_lag_s``: how long before
    its time stamp a frame may have been exposed (``BlankingAnalyser.exposure_s``)."""
    from armada_vision.web.analysis import StillAnalyser, VisionAnalyser
    from armada_vision.web.app import create_app
    from armada_vision.web.projector import BlankingAnalyser, ProjectorController

    ctrl = ProjectorController()
    if analyser is None:
        analyser = VisionAnalyser(layout, camera)
    if blanking:
        analyser = BlankingAnalyser(analyser, ctrl, exposure_s=projector_lag_s)
    app = create_app(source, layout, camera=camera, analyser=analyser,
                     upload_analyser=StillAnalyser(layout), **kw)
    app.state.projector = ctrl
    app.state.camera = camera            # projector calibration through the live camera
    return app


def run(args: argparse.Namespace) -> int:
    import logging

    import uvicorn

    from armada_vision.web.images import qr_text

    if not 0 < args.port < 65536:
        raise CliError("--port: expected 1–65535")
    if not 0.0 <= args.projector_lag <= 5.0:
        raise CliError("--projector-lag: expected 0–5 seconds")
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    source, layout, camera, color_players, first = _resolve(args)
    db = _db_path(args.db)
    # A recorded game starts over when it loops; a folder may be a still life, so it does not.
    app = make_app(source, layout, camera, blanking=not args.no_blanking,
                   projector_lag_s=args.projector_lag,
                   color_players=color_players, store_path=db, first_player=first,
                   restart_on_loop=args.source == "demo" or source.name.startswith("video")
                   or bool(color_players))
    token = app.state.armada.token
    host = lan_address() if args.host in ("0.0.0.0", "::") else args.host
    base = f"http://{host}:{args.port}/"
    control = f"{base}?token={token}"
    print(f"armada-vision: serving {source.name} on table "
          f"{json.dumps(layout.name, ensure_ascii=False)}")
    print(f"  watch (read-only, anyone on the network): {base}")
    print(f"  play (control: record hits, undo, end turns, upload photos): {control}")
    if not args.no_qr:
        qr = qr_text(control)
        if qr:
            print("  scan to join with control:")
            print(qr)
    print(f"  projector (full screen on the projector's display): {base}projector")
    print(f"  game log: {db if db is not None else 'in memory only'}")
    print("  Ctrl-C stops the server.", flush=True)
    # Open long polls (the projector page) and event streams would hold a Ctrl-C for up to
    # 20 s: cancel them after 3 s, then the app's shutdown stops the pipeline.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                timeout_graceful_shutdown=3)
    return 0
