"""``armada-vision detect IMAGE --layout L.json [--camera C.json] --json``: find the pieces."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from armada_vision.cli import CliError, read_json


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("detect", help="find the pyramids lying on the table in one image",
                       description="Calibrate from the layout's markers and report every "
                                   "pyramid lying flat: size, colour, stern, tip, heading "
                                   "(table mm) and σ.")
    p.add_argument("image", help="image file (PNG, JPEG, ...)")
    p.add_argument("--layout", required=True, help="table layout JSON (or a built-in name)")
    p.add_argument("--camera", default=None, help="camera JSON (intrinsics); estimated if absent")
    p.add_argument("--pieces", default=None,
                   help="JSON of measured piece dimensions {size: {base_w_mm, height_mm}}")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--overlay", default=None, metavar="OUT.png",
                   help="write the image with the detections drawn on it")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceSet
    from armada_vision.vision.calibrate import calibrate
    from armada_vision.vision.detect import detect
    from armada_vision.vision.draw import draw_detections
    from armada_vision.vision.io import load_camera_file, load_layout_file, read_image
    from armada_vision.vision.types import VisionFailure

    layout = load_layout_file(args.layout)
    camera = load_camera_file(args.camera) if args.camera else None
    pieces = NOMINAL_PIECES
    if args.pieces:
        pieces = PieceSet.from_dict(read_json(args.pieces, "pieces"))
    image = read_image(args.image)
    if isinstance(image, VisionFailure):
        raise CliError(image.reason, code=1)
    calib = calibrate(image, layout, camera)
    if isinstance(calib, VisionFailure):
        raise CliError(f"{args.image}: {calib.reason}", code=1)
    det = detect(image, layout, camera, pieces=pieces, calibration=calib)
    if isinstance(det, VisionFailure):
        raise CliError(f"{args.image}: {det.reason}", code=1)
    if args.overlay:
        out = draw_detections(image, det, calib, layout)
        if not cv2.imwrite(args.overlay, out):
            raise CliError(f"--overlay {args.overlay}: cannot write the image")
    if args.json:
        print(json.dumps(det.to_json(Path(args.image).name)))
    else:
        c = det.calibration
        print(f"{Path(args.image).name}: {len(det.pieces)} pieces, markers "
              f"{list(c.markers_found)}, reprojection {c.reprojection_error_px:.2f} px, "
              f"intrinsics {c.intrinsics_source}, {det.elapsed_ms:.0f} ms")
        for p in det.pieces:
            print(f"  {p.size.value:6s} {p.color:7s} stern ({p.pose.x_mm:7.1f}, "
                  f"{p.pose.y_mm:7.1f}) heading {p.pose.heading_deg:6.1f}°  "
                  f"σ {p.sigma_mm:.2f} mm {p.sigma_deg:.2f}°"
                  f"{'' if p.in_play_area else '  (outside the play area)'}")
        for u in det.upright:
            print(f"  upright {u.size.value} {u.color} at ({u.center_mm[0]:.1f}, "
                  f"{u.center_mm[1]:.1f}) — not a ship")
    return 0
