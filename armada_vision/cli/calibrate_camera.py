"""``armada-vision calibrate-camera``: camera intrinsics from photos of the ChArUco board."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from armada_vision.cli import CliError, read_json
from armada_vision.cli.make_mat import write_atomic


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate-camera", help="camera.json from photos of the printed ChArUco board",
        description="One-time intrinsic calibration: photograph the board printed by "
                    "'make-mat --charuco' from 10-20 angles filling the frame, then pass the "
                    "photos here. Prints the RMS reprojection error and writes camera.json.")
    p.add_argument("images", nargs="+", metavar="IMAGE", help="photos of the board")
    p.add_argument("--out", required=True, help="camera JSON file to write")
    p.add_argument("--board", default="defaults", help="board JSON file, or 'defaults'")
    p.add_argument("--min-views", type=int, default=None,
                   help="images with the board found needed (default 4)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from armada_vision.vision.intrinsics import (
        DEFAULT_BOARD,
        MIN_VIEWS,
        CharucoSpec,
        calibrate_intrinsics,
        read_images,
    )
    from armada_vision.vision.types import VisionFailure

    spec = DEFAULT_BOARD if args.board == "defaults" else CharucoSpec.from_dict(
        read_json(args.board, "board"))
    min_views = MIN_VIEWS if args.min_views is None else args.min_views
    if min_views < 3:
        raise CliError("--min-views: at least 3 views are needed")
    images = read_images(args.images)
    result = calibrate_intrinsics(images, spec, min_views)
    if isinstance(result, VisionFailure):
        raise CliError(f"{result.reason}; existing {args.out} left as it was", code=1)
    for i, why in result.views_skipped:
        print(f"skipped {args.images[i]}: {why}", file=sys.stderr)
    cam = result.camera
    write_atomic(Path(args.out), (json.dumps(cam.to_dict(), indent=2) + "\n").encode())
    k = cam.K
    print(f"RMS reprojection error {result.rms_px:.3f} px from {len(result.views_used)} of "
          f"{len(images)} images; fx {k[0, 0]:.1f} fy {k[1, 1]:.1f} cx {k[0, 2]:.1f} "
          f"cy {k[1, 2]:.1f} px; wrote {args.out}")
    return 0
