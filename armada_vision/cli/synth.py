"""``armada-vision synth``: render a random still or a game sequence with its ground truth."""

from __future__ import annotations

import argparse
import re

from armada_vision.cli import CliError


def _size(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d+)x(\d+)", text.strip())
    if not m or int(m[1]) < 64 or int(m[2]) < 64:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1920x1080, got {text!r}")
    return int(m[1]), int(m[2])


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="render synthetic table scenes with exact ground truth",
                       description="Render a random table scene (image, layout.json, "
                                   "camera.json, truth.json) or a whole game sequence.")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--scene", choices=["random"], default="random",
                      help="what to render (default: random)")
    mode.add_argument("--sequence", action="store_true",
                      help="render a short game as frames with events.json")
    p.add_argument("--seed", type=int, default=0, help="random seed (renders are deterministic)")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--name", default=None, help="file name stem (default: scene_SEED)")
    p.add_argument("--size", type=_size, default=None,
                   help="image size WIDTHxHEIGHT (default 1920x1080; sequences 1280x720)")
    p.add_argument("--tilt", type=float, default=None, help="camera tilt from straight down, °")
    p.add_argument("--pieces", type=int, default=None, help="number of pieces")
    p.add_argument("--touching", action="store_true", help="put some pieces < 1 mm apart")
    p.add_argument("--distort", action="store_true", help="lens distortion")
    p.add_argument("--extras", action="store_true", help="chits, dice, coins, a hand")
    p.add_argument("--upright", type=int, default=0, help="pieces standing upright")
    p.add_argument("--surface", choices=["wood", "felt", "cloth", "laminate"], default=None)
    p.add_argument("--table", type=_size, default=(600, 600), help="table WIDTHxDEPTH in mm")
    p.add_argument("--jpeg", type=int, default=None, metavar="QUALITY",
                   help="write JPEG at this quality instead of PNG")
    p.add_argument("--frames", type=int, default=None,
                   help="sequence: stop after this many frames")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from armada_vision.synth.io import write_scene
    from armada_vision.synth.random_scene import random_scene
    from armada_vision.synth.render import render

    if args.jpeg is not None and not 1 <= args.jpeg <= 100:
        raise CliError("--jpeg: quality must be 1–100")
    if args.tilt is not None and not 0 <= args.tilt <= 60:
        raise CliError("--tilt: expected 0–60 degrees")
    if args.pieces is not None and not 0 <= args.pieces <= 40:
        raise CliError("--pieces: expected 0–40")
    if args.sequence:
        from armada_vision.synth.sequence import render_sequence, write_sequence

        size = args.size or (1280, 720)
        seq = render_sequence(args.seed, image_size=size, surface=args.surface,
                              max_frames=args.frames)
        paths = write_sequence(seq, args.out, jpeg_quality=args.jpeg or 85)
        print(f"wrote {len(seq.frames)} frames and events.json to {paths['dir']}")
        return 0
    spec = random_scene(args.seed, image_size=args.size or (1920, 1080), tilt_deg=args.tilt,
                        n_pieces=args.pieces, touching=args.touching, distort=args.distort,
                        extras=args.extras, surface=args.surface, table=args.table,
                        upright=args.upright, jpeg_quality=args.jpeg)
    paths = write_scene(render(spec), args.out, args.name or f"scene_{args.seed}")
    print(" ".join(str(p) for p in paths.values()))
    return 0
