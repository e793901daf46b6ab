"""``armada-vision make-mat``: print a layout's ArUco markers, or a ChArUco board, as PDF."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from armada_vision.cli import CliError, read_json

PAPERS = ("a4", "a3", "letter", "tiles")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "make-mat", help="printable true-scale marker mat or ChArUco board (PDF)",
        description="Write a vector PDF of the layout's markers at true scale: cut-out markers on "
                    "a4/a3/letter pages, or the whole table on A4 tiles (--paper tiles). With "
                    "--charuco, the ChArUco board for calibrate-camera instead.")
    p.add_argument("--layout", help="layout JSON file or built-in name (60x60, 90x60, 120x90)")
    p.add_argument("--paper", default="a4", help="a4 (default), a3, letter or tiles")
    p.add_argument("--charuco", action="store_true", help="print the ChArUco calibration board")
    p.add_argument("--board", default="defaults",
                   help="with --charuco: board JSON file, or 'defaults'")
    p.add_argument("--out", required=True, help="PDF file to write")
    p.set_defaults(run=run)


def write_atomic(path: Path, data: bytes) -> None:
    """Write via a temporary file in the same folder, so a failure leaves ``path`` untouched."""
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise CliError(f"--out {path}: folder {folder} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)   # mkstemp makes it private; a normal file is wanted
        os.replace(tmp, path)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise CliError(f"--out {path}: cannot write ({e.strerror})") from None


def run(args: argparse.Namespace) -> int:
    from armada_vision.vision import mat
    from armada_vision.vision.intrinsics import DEFAULT_BOARD, CharucoSpec
    from armada_vision.vision.layouts import load_layout

    paper = str(args.paper).lower()
    if paper not in PAPERS:
        raise CliError(f"--paper: expected one of {', '.join(PAPERS)}, got {args.paper!r}")
    out = Path(args.out)
    if args.charuco:
        if paper == "tiles":
            raise CliError("--paper tiles: a ChArUco board prints on a4, a3 or letter")
        spec = DEFAULT_BOARD if args.board == "defaults" else CharucoSpec.from_dict(
            read_json(args.board, "board"))
        write_atomic(out, mat.charuco_sheet(spec, paper))
        print(f"wrote {out}: ChArUco board {spec.squares_x}×{spec.squares_y}, square "
              f"{spec.square_mm:g} mm, marker {spec.marker_mm:g} mm ({spec.dictionary}) on "
              f"{paper}; print at 100 % and check the 100 mm bar")
        return 0
    if not args.layout:
        raise CliError("--layout: required (a layout file or 60x60, 90x60, 120x90), "
                       "unless --charuco")
    layout = load_layout(args.layout)
    write_atomic(out, mat.make_mat(layout, paper))
    sizes = sorted({m.size_mm for m in layout.markers})
    print(f"wrote {out}: {len(layout.markers)} markers ({layout.dictionary}, "
          f"{'/'.join(f'{s:g}' for s in sizes)} mm) of {layout.name!r} on {paper}; "
          "print at 100 % and check the 100 mm bar")
    return 0
