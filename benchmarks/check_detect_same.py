"""Do the fast fit / foreground / shade give the same detections as a reference revision?

Runs ``detect`` on the sample stills twice in one process: once as the working tree has it,
once with ``fit.py``'s fitting, ``segment.foreground`` and ``detect.shade`` taken from a git
revision (``--ref``, default the last commit before the speed work) and patched in. Everything
else (explain.py, colours, thresholds) is the working tree's in both runs, so only the speed
work can make a difference. Prints per still the pieces found and the largest stern / tip /
heading / σ differences; exits 1 when a piece is missing or moved by more than the tolerance.

Usage: ``python benchmarks/check_detect_same.py [--ref REV] [--stills N] [--tol-mm 0.01]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import types
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armada_vision.geometry.pose import angle_diff_deg  # noqa: E402
from armada_vision.vision import detect as detect_mod  # noqa: E402
from armada_vision.vision import explain as explain_mod  # noqa: E402
from armada_vision.vision.io import load_camera_file, load_layout_file, read_image  # noqa: E402
from armada_vision.vision.types import VisionFailure  # noqa: E402

STILLS = ROOT / "sample_images" / "stills"
REF_REV = "98ff8cb"


def _module_at(rev: str, path: str, name: str) -> types.ModuleType:
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True,
                         capture_output=True, text=True).stdout
    mod = types.ModuleType(name)
    mod.__file__ = f"{rev}:{path}"
    # Dataclasses look their module up by name while building the class.
    sys.modules[name] = mod
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    return mod


def reference_patches(rev: str) -> dict[tuple[types.ModuleType, str], object]:
    """(module, attribute) → the reference revision's function."""
    fit = _module_at(rev, "armada_vision/vision/fit.py", "_ref_fit")
    seg = _module_at(rev, "armada_vision/vision/segment.py", "_ref_segment")
    det = _module_at(rev, "armada_vision/vision/detect.py", "_ref_detect")
    return {(explain_mod, "fit_pose"): fit.fit_pose,
            (explain_mod, "sample_map"): fit.sample_map,
            (detect_mod, "foreground"): seg.foreground,
            (detect_mod, "shade"): det.shade}


def stills(n: int) -> list[Path]:
    paths = sorted(p for p in STILLS.iterdir() if p.suffix in (".png", ".jpg"))
    # 4K stills are slow and add nothing the FHD ones do not test here.
    return [p for p in paths if "_4k" not in p.stem][:n]


def load(path: Path) -> tuple:
    """(image, layout, camera or None) of a still."""
    cam_p = path.with_suffix(".camera.json")
    return (read_image(path), load_layout_file(path.with_suffix(".layout.json")),
            load_camera_file(cam_p) if cam_p.exists() else None)


def run(path: Path):
    return detect_mod.detect(*load(path))


def compare(a, b) -> tuple[str, float, float, float, bool]:
    """One line, largest position (mm), heading (°) and σ (mm) differences, same pieces?"""
    if isinstance(a, VisionFailure) or isinstance(b, VisionFailure):
        same = isinstance(a, VisionFailure) and isinstance(b, VisionFailure)
        return f"failure {a!r:.40} / {b!r:.40}", 0.0, 0.0, 0.0, same
    pa = sorted(a.pieces, key=lambda p: (p.pose.x_mm, p.pose.y_mm))
    pb = sorted(b.pieces, key=lambda p: (p.pose.x_mm, p.pose.y_mm))
    if len(pa) != len(pb) or len(a.upright) != len(b.upright):
        return (f"{len(pa)}+{len(a.upright)} vs {len(pb)}+{len(b.upright)} pieces",
                99.0, 99.0, 99.0, False)
    dmm = ddeg = dsig = 0.0
    same = True
    for p, q in zip(pa, pb, strict=True):
        same &= p.size == q.size and p.color == q.color
        dmm = max(dmm, abs(p.pose.x_mm - q.pose.x_mm), abs(p.pose.y_mm - q.pose.y_mm),
                  abs(p.tip_mm[0] - q.tip_mm[0]), abs(p.tip_mm[1] - q.tip_mm[1]))
        ddeg = max(ddeg, abs(angle_diff_deg(p.pose.heading_deg, q.pose.heading_deg)))
        dsig = max(dsig, abs(p.sigma_mm - q.sigma_mm))
    return f"{len(pa)}+{len(a.upright)} pieces", dmm, ddeg, dsig, same


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", default=REF_REV)
    ap.add_argument("--stills", type=int, default=14)
    ap.add_argument("--tol-mm", type=float, default=0.01)
    ap.add_argument("--tol-deg", type=float, default=0.01)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    patches = reference_patches(args.ref)
    bad = 0
    for path in stills(args.stills):
        new = run(path)
        saved = {k: getattr(*k) for k in patches}
        for (mod, attr), f in patches.items():
            setattr(mod, attr, f)
        try:
            ref = run(path)
        finally:
            for (mod, attr), f in saved.items():
                setattr(mod, attr, f)
        text, dmm, ddeg, dsig, same = compare(ref, new)
        ok = same and dmm <= args.tol_mm and ddeg <= args.tol_deg
        bad += not ok
        print(f"{path.stem:28s} {text:14s} Δpos {dmm:.2g} mm  Δheading {ddeg:.2g}°  "
              f"Δσ {dsig:.2g} mm  {'same' if ok else 'DIFFERENT'}")
    print("all the same" if not bad else f"{bad} stills differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
