"""``armada-vision projector``: calibrate a projector over the table, re-check it, simulate it.

- ``projector pattern --size 1280x800 -o pattern.png``: the board to show full screen.
- ``projector calibrate ON.png [--off OFF.png] --layout L [--camera C] --size WxH -o P.json``:
  fit ``H_projector_from_table`` from a camera photo of the projected board (and, better, one
  with the projector black); prints the residual in table mm.
- ``projector check ON.png [--off OFF.png] --layout L --calibration P.json``: the residual of a
  new photo against a stored calibration; exit status 1 when the projector was moved.
- ``projector simulate [--seed N]``: a rendered table with a projector of known pose; prints
  how far the calibration lands from the truth (needs the renderer, ``armada_vision.synth``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from armada_vision.cli import CliError, parse_size, read_json


def add_parser(sub: Any) -> None:
    p = sub.add_parser("projector", help="calibrate and check a projector over the table",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ps = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    a = ps.add_parser("pattern", help="write the calibration board image")
    a.add_argument("--size", default="1280x800", help="projector resolution WxH (px)")
    a.add_argument("-o", "--output", required=True, help="PNG to write")

    for name, text in (("calibrate", "fit the table→projector homography from photos"),
                       ("check", "re-check a stored calibration on a new photo")):
        a = ps.add_parser(name, help=text)
        a.add_argument("image", help="camera photo with the board projected")
        a.add_argument("--off", help="the same view with the projector black (recommended)")
        a.add_argument("--layout", required=True, help="table layout JSON")
        a.add_argument("--camera", help="camera file JSON (optional)")
        if name == "calibrate":
            a.add_argument("--size", default="1280x800", help="projector resolution WxH (px)")
            a.add_argument("-o", "--output", help="calibration JSON to write")
        else:
            a.add_argument("--calibration", required=True, help="projector calibration JSON")
            a.add_argument("--moved-mm", type=float, default=None,
                           help="mean residual above which the projector counts as moved")

    a = ps.add_parser("simulate", help="calibrate a simulated projector and compare with truth")
    a.add_argument("--seed", type=int, default=0)
    a.add_argument("--gain", type=float, default=0.6, help="projector brightness (0–2)")
    p.set_defaults(run=run)


def _image(path: str, what: str) -> Any:
    import cv2

    if not Path(path).is_file():
        raise CliError(f"{what} {path}: no such file")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise CliError(f"{what} {path}: not a readable image")
    return img


def _table(args: argparse.Namespace, image: Any) -> Any:
    from armada_vision.geometry.camera import CameraIntrinsics
    from armada_vision.geometry.layout import TableLayout
    from armada_vision.vision.calibrate import calibrate
    from armada_vision.vision.types import VisionFailure

    layout = TableLayout.from_dict(read_json(args.layout, "layout"))
    camera = (CameraIntrinsics.from_dict(read_json(args.camera, "camera"))
              if args.camera else None)
    table = calibrate(image, layout, camera)
    if isinstance(table, VisionFailure):
        raise CliError(f"table calibration: {table.reason}", 1)
    return table


def run(args: argparse.Namespace) -> int:
    from armada_vision.vision.projector import (
        ProjectorCalibration,
        ProjectorPattern,
        calibrate_projector,
        check_projector,
    )
    from armada_vision.vision.types import VisionFailure

    if args.action == "pattern":
        import cv2

        pat = ProjectorPattern.fit(parse_size(args.size))
        if not cv2.imwrite(args.output, pat.image()):
            raise CliError(f"--output {args.output}: cannot write the image")
        print(json.dumps(pat.to_dict()))
        return 0
    if args.action == "simulate":
        return _simulate(args.seed, args.gain)

    stored = (ProjectorCalibration.from_dict(read_json(args.calibration, "calibration"))
              if args.action == "check" else None)
    on = _image(args.image, "image")
    off = _image(args.off, "--off image") if args.off else None
    if off is not None and off.shape != on.shape:
        raise CliError("--off: the two photos differ in size")
    table = _table(args, off if off is not None else on)
    if args.action == "calibrate":
        pat = ProjectorPattern.fit(parse_size(args.size))
        cal = calibrate_projector(on, pat, table, image_off=off)
        if isinstance(cal, VisionFailure):
            raise CliError(cal.reason, 1)
        out = cal.to_dict()
        if args.output:
            Path(args.output).write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(json.dumps(out))
        return 0
    assert stored is not None
    chk = check_projector(on, ProjectorPattern.fit(stored.projector_size), table, stored,
                          image_off=off, moved_mm=args.moved_mm)
    if isinstance(chk, VisionFailure):
        raise CliError(chk.reason, 1)
    print(json.dumps({"residual_mean_mm": round(chk.residual_mean_mm, 3),
                      "residual_max_mm": round(chk.residual_max_mm, 3), "points": chk.points,
                      "threshold_mm": round(chk.threshold_mm, 3), "moved": chk.moved}))
    return 1 if chk.moved else 0


def _simulate(seed: int, gain: float) -> int:
    """Render a 900 × 600 mm table with a projector of known pose showing the board, calibrate
    from the renders and print how far the result lands from the true mapping (table mm)."""
    import importlib.util

    if importlib.util.find_spec("armada_vision.synth.render") is None:
        raise CliError("simulate needs the renderer (armada_vision.synth.render)", 1)
    if not 0 < gain <= 2:
        raise CliError(f"--gain: expected a number in (0, 2], got {gain}")
    import numpy as np
    import shapely

    from armada_vision.geometry.layout import standard_layout
    from armada_vision.synth.render import render
    from armada_vision.synth.scene import CameraSpec, ProjectorSpec, SceneSpec
    from armada_vision.vision.calibrate import calibrate
    from armada_vision.vision.projector import (
        H_image_from_table_pose,
        ProjectorPattern,
        apply_homography,
        calibrate_projector,
        mapping_error_mm,
    )
    from armada_vision.vision.types import VisionFailure

    rng = np.random.default_rng([seed, 7])
    layout = standard_layout(900, 600)
    cam = CameraSpec.looking_at((1920, 1080), (450.0, 300.0), 800.0, 12.0, fov_deg=70.0)
    proj = CameraSpec.looking_at((1280, 800), (450 + rng.uniform(-30, 30),
                                               300 + rng.uniform(-20, 20)),
                                 float(rng.uniform(950, 1150)), float(rng.uniform(5, 20)),
                                 float(rng.uniform(-8, 8)), fov_deg=48.0)
    pat = ProjectorPattern.fit(proj.intrinsics.image_size)
    spec = SceneSpec(layout, cam, (), surface="felt", seed=seed, table_mm=(900.0, 600.0))
    off = render(spec).image_bgr
    on = render(SceneSpec(layout, cam, (), surface="felt", seed=seed, table_mm=(900.0, 600.0),
                          projector=ProjectorSpec(pat.image(), proj.intrinsics, proj.rvec,
                                                  proj.tvec, gain))).image_bgr
    table = calibrate(off, layout, cam.intrinsics)
    if isinstance(table, VisionFailure):
        raise CliError(f"table calibration: {table.reason}", 1)
    cal = calibrate_projector(on, pat, table, image_off=off)
    if isinstance(cal, VisionFailure):
        raise CliError(cal.reason, 1)
    H_true = H_image_from_table_pose(proj.intrinsics.K, proj.rvec, proj.tvec)
    w, h = proj.intrinsics.image_size
    foot = apply_homography(np.linalg.inv(H_true), [[0, 0], [w - 1, 0], [w - 1, h - 1],
                                                    [0, h - 1]])
    region = shapely.Polygon(layout.play_area_mm).intersection(shapely.Polygon(foot))
    mean, worst = mapping_error_mm(cal, H_true, np.asarray(region.exterior.coords)[:-1])
    json.dump({"seed": seed, **cal.to_dict(), "true_error_mean_mm": round(mean, 4),
               "true_error_max_mm": round(worst, 4)}, sys.stdout)
    print()
    return 0
