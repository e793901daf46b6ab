"""Regenerate sample_images/: stills with truth beside them, two game sequences, README.md.

Deterministic: run ``.venv/bin/python sample_images/make_samples.py`` (about 5 minutes on one
core); ``--only NAME`` renders one still, ``--no-sequences`` skips the sequences.
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from armada_vision.geometry.layout import standard_layout
from armada_vision.geometry.pose import Pose
from armada_vision.synth import COLORS, CameraSpec, PieceSpec, ProjectorSpec, SceneSpec, render
from armada_vision.synth.io import write_scene
from armada_vision.synth.random_scene import random_scene
from armada_vision.synth.sequence import DEMO, build_sequence, write_sequence

HERE = Path(__file__).resolve().parent
HD, FHD, UHD = (1280, 720), (1920, 1080), (3840, 2160)


def _projector_scene() -> SceneSpec:
    base = random_scene(19, image_size=FHD, n_pieces=6, tilt_deg=15, surface="laminate",
                        jpeg_quality=92)
    pcam = CameraSpec.looking_at((1280, 800), (300.0, 300.0), 1300.0, 8.0, 180.0, fov_deg=32)
    img = np.zeros((800, 1280, 3), np.uint8)
    for x in range(0, 1280, 80):
        cv2.line(img, (x, 0), (x, 799), (90, 90, 90), 2)
    for y in range(0, 800, 80):
        cv2.line(img, (0, y), (1279, y), (90, 90, 90), 2)
    cv2.circle(img, (640, 400), 150, (0, 200, 255), 8)
    cv2.putText(img, "ARMADA", (420, 620), cv2.FONT_HERSHEY_SIMPLEX, 4.0, (255, 120, 0), 10)
    proj = ProjectorSpec(img, pcam.intrinsics, pcam.rvec, pcam.tvec, gain=0.55)
    return dataclasses.replace(base, projector=proj)


def _partial_view() -> SceneSpec:
    base = random_scene(26, image_size=HD, n_pieces=8, surface="wood")
    cam = CameraSpec.looking_at(HD, (170.0, 200.0), 480.0, 15.0, 0.0, fov_deg=62)
    return dataclasses.replace(base, camera=cam)


def _all_colours(seed: int, size, surface: str, tilt: float,
                 jpeg: int | None = None) -> SceneSpec:
    return random_scene(seed, image_size=size, n_pieces=10, colors=COLORS, surface=surface,
                        tilt_deg=tilt, jpeg_quality=jpeg)


def _black_white() -> SceneSpec:
    return random_scene(22, image_size=FHD, n_pieces=8, colors=("black", "white"),
                        surface="felt", tilt_deg=10, jpeg_quality=92)


def _clear_on_laminate() -> SceneSpec:
    return random_scene(23, image_size=FHD, n_pieces=7, colors=("clear", "white", "yellow"),
                        surface="laminate", tilt_deg=18, jpeg_quality=95)


def _crowded() -> SceneSpec:
    return random_scene(17, image_size=FHD, n_pieces=16, tilt_deg=12, surface="cloth",
                        jpeg_quality=92)


def _single_large_topdown() -> SceneSpec:
    # From 0.6 m a 50° lens sees 560 × 315 mm: a 600 × 600 table put every marker off the
    # image or cut by its sides (too_few_markers). On a 500 × 290 mm layout all eight markers
    # and their paper lie whole in view (≥ 20 px in), the camera over its middle.
    cam = CameraSpec.looking_at(HD, (250.0, 145.0), 600.0, 0.0, fov_deg=50)
    pieces = (PieceSpec("large", "red", Pose(200.0, 145.0, 20.0)),
              PieceSpec("medium", "green", Pose(280.0, 95.0, 200.0)),
              PieceSpec("small", "blue", Pose(290.0, 185.0, 120.0)))
    return SceneSpec(standard_layout(500, 290), cam, pieces, "wood", seed=27)


# name → (what it shows, what it tests, camera file written?, spec builder)
STILLS: dict[str, tuple[str, str, bool, Callable[[], SceneSpec]]] = {
    "s01_top_hd_wood": ("1280×720, straight down, wood, PNG", "baseline detection", True,
                        lambda: random_scene(1, image_size=HD, tilt_deg=0, surface="wood")),
    "s02_tilt10_hd_felt": ("1280×720, 10° tilt, felt, JPEG 95", "tilt, green felt", True,
                           lambda: random_scene(2, image_size=HD, tilt_deg=10, surface="felt",
                                                jpeg_quality=95)),
    "s03_tilt20_fhd_cloth": ("1920×1080, 20° tilt, cloth, JPEG", "tilt, dark cloth", True,
                             lambda: random_scene(3, tilt_deg=20, surface="cloth",
                                                  jpeg_quality=92)),
    "s04_tilt35_fhd_laminate": ("1920×1080, 35° tilt, laminate, JPEG", "steepest tilt", True,
                                lambda: random_scene(4, tilt_deg=35, surface="laminate",
                                                     jpeg_quality=92)),
    "s05_distort_hd": ("1280×720, barrel distortion, PNG", "undistortion with camera.json",
                       True, lambda: random_scene(5, image_size=HD, distort=True, tilt_deg=15)),
    "s06_distort_nocam_fhd": ("1920×1080, distortion, no camera.json, JPEG",
                              "working without intrinsics; honest accuracy", False,
                              lambda: random_scene(6, distort=True, tilt_deg=20,
                                                   jpeg_quality=92)),
    "s07_touching_fhd": ("1920×1080, pieces < 1 mm apart, JPEG", "separating touching pieces",
                         True, lambda: random_scene(7, touching=True, n_pieces=10, tilt_deg=8,
                                                    jpeg_quality=92)),
    "s08_touching_hd": ("1280×720, touching pieces, JPEG 95",
                        "touching pieces at low resolution", True,
                        lambda: random_scene(8, image_size=HD, touching=True, n_pieces=8,
                                             tilt_deg=0, jpeg_quality=95)),
    "s09_colours_fhd_wood": ("1920×1080, all ten colours, wood, JPEG", "colour naming", True,
                             lambda: _all_colours(9, FHD, "wood", 12, 92)),
    "s10_colours_hd_laminate": ("1280×720, all ten colours, laminate, JPEG 95",
                                "colour on a light table", True,
                                lambda: _all_colours(10, HD, "laminate", 5, 95)),
    "s11_extras_fhd": ("1920×1080, chits, dice, coins (and maybe a hand), JPEG",
                       "distractors are not ships", True,
                       lambda: random_scene(11, extras=True, tilt_deg=15, jpeg_quality=92)),
    "s12_hand_fhd": ("1920×1080, hand and arm reaching in, JPEG", "occlusion", True,
                     lambda: random_scene(15, extras=True, hand=True, tilt_deg=10,
                                          jpeg_quality=92)),
    "s13_upright_fhd": ("1920×1080, two pieces standing upright, JPEG",
                        "upright pieces are not ships", True,
                        lambda: random_scene(13, upright=2, tilt_deg=20, jpeg_quality=92)),
    "s14_outside_fhd": ("1920×1080, pieces partly outside the play area, JPEG",
                        "in_play_area flag", True,
                        lambda: random_scene(14, outside=3, n_pieces=8, tilt_deg=10,
                                             jpeg_quality=92)),
    "s15_top_4k": ("3840×2160, straight down, JPEG", "4K speed and accuracy", True,
                   lambda: random_scene(16, image_size=UHD, tilt_deg=0, jpeg_quality=88)),
    "s16_tilt30_distort_4k": ("3840×2160, 30° tilt, distortion, JPEG", "4K with distortion",
                              True, lambda: random_scene(18, image_size=UHD, tilt_deg=30,
                                                         distort=True, jpeg_quality=88)),
    "s17_crowded_fhd_cloth": ("1920×1080, 16 pieces, cloth, JPEG", "many pieces", True,
                              _crowded),
    "s18_empty_hd": ("1280×720, markers only, PNG", "calibration alone; no false pieces", True,
                     lambda: random_scene(20, image_size=HD, n_pieces=0, tilt_deg=22)),
    "s19_projector_fhd": ("1920×1080, projector light on the table, JPEG",
                          "detection under projected overlays", True, _projector_scene),
    "s20_noisy_fhd": ("1920×1080, heavy sensor noise (σ 7), JPEG", "robustness to noise", True,
                      lambda: random_scene(21, tilt_deg=14, noise_sigma=7.0, jpeg_quality=92)),
    "s21_lowq_hd": ("1280×720, JPEG quality 45", "compression artefacts", True,
                    lambda: random_scene(24, image_size=HD, tilt_deg=12, jpeg_quality=45)),
    "s22_black_white_fhd_felt": ("1920×1080, black and white pieces on felt, JPEG",
                                 "opaque pieces", True, _black_white),
    "s23_clear_fhd_laminate": ("1920×1080, clear, white and yellow on laminate, JPEG 95",
                               "low-contrast pieces", True, _clear_on_laminate),
    "s24_everything_fhd": ("1920×1080, 28° tilt, distortion, touching, extras, upright, JPEG",
                           "all at once", True,
                           lambda: random_scene(25, tilt_deg=28, distort=True, touching=True,
                                                extras=True, hand=True, upright=1,
                                                n_pieces=10,
                                                jpeg_quality=92)),
    "s25_yaw90_fhd": ("1920×1080, camera turned 90° about the vertical, JPEG",
                      "any camera orientation", True,
                      lambda: random_scene(26, tilt_deg=15, yaw_deg=90, jpeg_quality=92)),
    "s26_partial_hd": ("1280×720, low camera seeing part of the table (some markers), PNG",
                       "calibration from a subset of markers", True, _partial_view),
    "s27_closeup_hd": ("1280×720, three pieces close up from 0.6 m, straight down, on a "
                       "50×29 cm layout whose eight markers are all in view, PNG",
                       "sub-millimetre pose accuracy", True, _single_large_topdown),
}

SEQUENCES = {
    "demo": ("demo: red vs blue, every move legal; `armada-vision serve` plays it", DEMO["seed"],
             {k: v for k, v in DEMO.items() if k not in ("seed", "name")}),
    "skirmish": ("one deliberately illegal step (§4.2 turn of 84°), flagged in events.json", 2,
                 dict(foul=True, max_frames=106, surface="felt")),
}


def make_still(name: str) -> None:
    _what, _tests, cam_file, build = STILLS[name]
    r = render(build())
    write_scene(r, HERE / "stills", name, camera_file=cam_file)


def readme() -> str:
    lines = ["# Sample images", "",
             "Rendered by `armada_vision.synth` with exact ground truth; regenerate with",
             "`.venv/bin/python sample_images/make_samples.py` (deterministic). Each still",
             "`stills/NAME.png|jpg` has `NAME.truth.json` (poses in table mm, their projections",
             "in px, markers, extras), `NAME.layout.json` and, unless noted, `NAME.camera.json`",
             "(interfaces.md camera file plus `rvec`/`tvec`). Truth comes from the scene",
             "description, never from a detector. See docs/synth.md for the formats.", "",
             "| still | shows | tests |", "|---|---|---|"]
    for name, (what, tests, _cam, _b) in STILLS.items():
        lines.append(f"| `{name}` | {what} | {tests} |")
    lines += ["", "## Sequences", "",
              "`sequences/NAME/`: `frame_0000.jpg` … (1280×720, 2 frames per second),",
              "`layout.json`, `camera.json`, `events.json` (players, opening position, the true",
              "events: moves with their steps, shots with the ruler placement, damage, sinkings,",
              "turn ends; and per-frame truth: pieces with roles ship/spare/placing, hand",
              "present, settled).", "", "| sequence | shows |", "|---|---|"]
    for name, (what, _seed, _kw) in SEQUENCES.items():
        lines.append(f"| `{name}` | {what} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--only", help="render only this still")
    ap.add_argument("--no-sequences", action="store_true")
    ap.add_argument("--sequences-only", action="store_true")
    ap.add_argument("--sequence", help="render only this sequence")
    args = ap.parse_args(argv)
    names = ([args.only] if args.only else [] if args.sequences_only or args.sequence
             else list(STILLS))
    for name in names:
        print("still", name, flush=True)
        make_still(name)
    if not args.only and not args.no_sequences:
        for name, (_what, seed, kw) in SEQUENCES.items():
            if args.sequence and name != args.sequence:
                continue
            print("sequence", name, flush=True)
            out = HERE / "sequences" / name
            shutil.rmtree(out, ignore_errors=True)
            seq = build_sequence(seed, name=name, **kw)
            write_sequence(seq, out, jpeg_quality=75, noise_sigma=1.2)
    (HERE / "README.md").write_text(readme(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
