"""Do the fast fit / foreground / shade / calibration, or explain.py, detect the same as a ref?

Runs ``detect`` on the sample stills (and with ``--seeds`` on rendered scenes) twice in one
process: once as the working tree has it, once with part of the detector taken from a git revision
(``--ref``) and patched in. ``--part speed`` (default) patches ``fit.py``'s fitting,
``segment.foreground``, ``look.shade``, ``detect._piece`` (a fit's cost → σ), the refit
(``refine_on_score``), the frame's fit units (``detect.edge_px``, vision.jpeg; 1 for a ref without
it) and ``calibrate`` (ref default: the last commit before the latest speed work); ``--part view``
patches what turns the view into the fit map and regions: the rectifier, segment.py's crisp edges,
foreground, object mask, regions and desaturated, and detect.py's shade and region_foreground;
``--part explain`` patches what decides which hypotheses are fitted and chosen: detect.py's
``find_pieces`` (which regions are explained how), explain.py (with scene.py and open_base.py,
split from it in session 25), the crisp pass (crisp.py), the
reading from an open base (base_quad.py) and how pieces are named (colors.py). Everything else is
the working tree's in both runs, so only that part can make a difference (another helper's edits to
the rest do not). ``--part tree`` takes the whole ``armada_vision`` package from the ref (``git
archive``) and runs it in a child process: the check for a change anywhere in the detector (a
part's patch misses what it does not name: segment.py's helpers under ``--part explain``). Prints
per image the pieces found, those found only by the working tree, and the largest stern / tip /
heading / σ differences of the reference's pieces; exits 1 when one of those is missing or moved by
more than the tolerance (a piece found only by the working tree is reported, not a failure: recall
work adds pieces).

Usage: ``python benchmarks/check_detect_same.py [--part speed|view|explain|tree] [--ref REV]
[--stills N] [--with-4k] [--seeds N] [--seed0 1000] [--tol-mm 0.01]``.
"""

from __future__ import annotations

import argparse
import inspect
import math
import pickle
import subprocess
import sys
import tempfile
import types
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armada_vision.geometry.pose import angle_diff_deg  # noqa: E402
from armada_vision.vision import detect as detect_mod  # noqa: E402
from armada_vision.vision import explain as explain_mod  # noqa: E402
from armada_vision.vision import open_base as open_base_mod  # noqa: E402
from armada_vision.vision import scene as scene_mod  # noqa: E402
from armada_vision.vision.io import load_camera_file, load_layout_file, read_image  # noqa: E402
from armada_vision.vision.types import VisionFailure  # noqa: E402

STILLS = ROOT / "sample_images" / "stills"
REF_REV = "837256b"


@contextmanager
def _imports_from(modules: dict[str, types.ModuleType]) -> Iterator[None]:
    """While a reference's module is read, its ``from armada_vision.vision.NAME import ...``
    finds ``modules[NAME]``."""
    saved = {n: sys.modules[f"armada_vision.vision.{n}"] for n in modules}
    sys.modules.update({f"armada_vision.vision.{n}": m for n, m in modules.items()})
    try:
        yield
    finally:
        sys.modules.update({f"armada_vision.vision.{n}": m for n, m in saved.items()})


def _merged(*mods: types.ModuleType) -> types.ModuleType:
    """One module with the names of ``mods`` (the working tree's explain.py and the modules
    split from it, for a reference from before the split, which imports all from explain)."""
    out = types.ModuleType("_merged_explain")
    for m in mods:
        vars(out).update(vars(m))
    return out


def _exists_at(rev: str, path: str) -> bool:
    return subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}:{path}"],
                          capture_output=True).returncode == 0


def _module_at(rev: str, path: str, name: str) -> types.ModuleType:
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True,
                         capture_output=True, text=True).stdout
    mod = types.ModuleType(name)
    mod.__file__ = f"{rev}:{path}"
    # Dataclasses look their module up by name while building the class.
    sys.modules[name] = mod
    exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    return mod


def _detect_at(rev: str, name: str) -> types.ModuleType:
    """The reference's detect.py, importing the working tree's explain.py and the modules
    split from it (as one, for a reference from before the split)."""
    split = _exists_at(rev, "armada_vision/vision/scene.py")
    with _imports_from({} if split else
                       {"explain": _merged(scene_mod, open_base_mod, explain_mod)}):
        return _module_at(rev, "armada_vision/vision/detect.py", name)


def reference_patches(rev: str) -> dict[tuple[types.ModuleType, str], object]:
    """(module, attribute) → the reference revision's function."""
    fit = _module_at(rev, "armada_vision/vision/fit.py", "_ref_fit")
    seg = _module_at(rev, "armada_vision/vision/segment.py", "_ref_segment")
    det = _detect_at(rev, "_ref_detect")
    cal = _module_at(rev, "armada_vision/vision/calibrate.py", "_ref_calibrate")
    fit_poses = getattr(fit, "fit_poses", None) or _one_by_one(fit)
    # The fits and the map sampling, wherever the passes call them (explain.py and the
    # modules split from it).
    out = {(mod, a): f for mod in (scene_mod, open_base_mod, explain_mod)
           for a, f in (("fit_pose", fit.fit_pose), ("fit_poses", fit_poses),
                        ("sample_map", fit.sample_map)) if hasattr(mod, a)}
    out |= {(detect_mod, "foreground"): _known_kwargs(seg.foreground),
            (detect_mod, "shade"): _known_kwargs(det.shade),
            (detect_mod, "calibrate"): cal.calibrate,
            # How a fit's cost becomes a piece's σ reads the fit's result (FitResult.cost_1px
            # since the compressed-frame units): the reference's, with the reference's fits.
            (detect_mod, "_piece"): _known_args(det._piece)}
    if hasattr(detect_mod, "refine_on_score"):
        # The refit on the raw score reads the fits' results too: the reference's, with the
        # reference's fits.
        ref_refine = _module_at(rev, "armada_vision/vision/refine.py", "_ref_refine")
        ref_refine.fit_poses = fit_poses
        out[detect_mod, "refine_on_score"] = ref_refine.refine_on_score
    if hasattr(detect_mod, "edge_px") and not hasattr(det, "edge_px"):
        # A reference from before vision.jpeg judges every frame's fits in view px.
        out[detect_mod, "edge_px"] = lambda image_bgr: 1.0
    if hasattr(detect_mod, "_in_view_px") and not hasattr(det, "_in_view_px"):
        # Nor does it know a fit's cost in view px apart from its cost.
        out[detect_mod, "_in_view_px"] = lambda c, cost: cost
    return out


def _one_by_one(fit: types.ModuleType):
    """A reference fit.py's ``fit_pose`` called as explain.py calls ``fit_poses`` (several
    fits side by side, since the sixth speed round): one fit after another."""
    def fit_poses(fg, grid, jobs, camera_mm, **kw):
        return [fit.fit_pose(fg, grid, loc, init, camera_mm, **kw) for loc, init in jobs]
    return fit_poses


def _known_args(piece):
    """A reference ``_piece`` called as detect calls it now: the doubt rules added since
    (keyword arguments it does not know) are left out, so where one of them fires the σ
    differs (reported as a σ difference, as any change to σ is)."""
    known = inspect.signature(piece).parameters
    now = inspect.signature(detect_mod._piece)

    def call(*args, **kw):
        bound = now.bind(*args, **kw).arguments  # by name, however detect passes them
        return piece(**{k: v for k, v in bound.items() if k in known})
    return call


def _known_kwargs(f):
    """A reference function called as detect calls it now: keyword arguments added since
    that only hand in what it works out itself (``shade``'s ``bg_planes``, ``foreground``'s
    ``crisp`` areas) are left out."""
    known = inspect.signature(f).parameters

    def call(*args, **kw):
        return f(*args, **{k: v for k, v in kw.items() if k in known})
    return call


def view_patches(rev: str) -> dict[tuple[types.ModuleType, str], object]:
    """(module, attribute) → the reference revision's view-to-regions steps, as detect.py
    calls them."""
    seg = _module_at(rev, "armada_vision/vision/segment.py", "_ref_segment_view")
    det = _detect_at(rev, "_ref_detect_view")
    out: dict[tuple[types.ModuleType, str], object] = {
        (detect_mod, a): getattr(seg, a)
        for a in ("make_rectifier", "crisp_edges", "foreground", "object_mask", "view_regions",
                  "desaturated")
        # (detect.py calls segment.saturation_ratio itself since the grey pass took the
        # ratio: desaturated is no longer one of its steps.)
        if hasattr(detect_mod, a)}
    out[detect_mod, "shade"] = _known_kwargs(det.shade)
    out[detect_mod, "region_foreground"] = det.region_foreground
    return out


def explain_patches(rev: str) -> dict[tuple[types.ModuleType, str], object]:
    """(module, attribute) → the reference revision's ``find_pieces``, calling the reference's
    explain.py, crisp pass (each of those calling the reference's explain.py too) and
    colors.py."""
    # explain.py and the modules split from it (scene.py, open_base.py: session 25), as the
    # reference has them; while the reference's modules are read, their imports of these
    # names find the reference's (a reference from before the split imports everything
    # from its explain.py).
    ref: dict[str, types.ModuleType] = {}
    for n in ("scene", "open_base", "explain"):
        if _exists_at(rev, f"armada_vision/vision/{n}.py"):
            with _imports_from(ref):
                ref[n] = _module_at(rev, f"armada_vision/vision/{n}.py", f"_ref_{n}")
    with _imports_from(ref):
        col = _module_at(rev, "armada_vision/vision/colors.py", "_ref_colors")
        cr = _module_at(rev, "armada_vision/vision/crisp.py", "_ref_crisp")
        det = _module_at(rev, "armada_vision/vision/detect.py", "_ref_detect_find")
        if hasattr(det, "pieces_from_base"):
            # The reading from an open base (white21), with the reference's explain.py.
            bq = _module_at(rev, "armada_vision/vision/base_quad.py", "_ref_base_quad")
            det.pieces_from_base = bq.pieces_from_base
    det.crisp_pieces = cr.crisp_pieces
    for a in ("classify_color", "name_color", "piece_color_stats"):
        setattr(det, a, getattr(col, a))
    return {(detect_mod, "find_pieces"): det.find_pieces}


def stills(n: int, with_4k: bool = False) -> list[Path]:
    paths = sorted(p for p in STILLS.iterdir() if p.suffix in (".png", ".jpg"))
    # 4K stills are slow; they matter when what is checked depends on the view's scale
    # (explain.py: a piece's region at 4K can look unlike the same piece's at FHD).
    return [p for p in paths if with_4k or "_4k" not in p.stem][:n]


def load(path: Path) -> tuple:
    """(image, layout, camera or None) of a still."""
    cam_p = path.with_suffix(".camera.json")
    return (read_image(path), load_layout_file(path.with_suffix(".layout.json")),
            load_camera_file(cam_p) if cam_p.exists() else None)


def images(n_stills: int, n_seeds: int, seed0: int, with_4k: bool = False
           ) -> Iterator[tuple[str, tuple]]:
    """(label, detect's arguments) of the stills, then of rendered scenes as bench_vision
    makes them (truth unused: this compares two detectors)."""
    for p in stills(n_stills, with_4k):
        yield p.stem, load(p)
    if n_seeds:
        from benchmarks.bench_vision import rendered_scenes
        for label, _band, _res, r, use_cam in rendered_scenes(n_seeds, seed0, False):
            yield label, (r.image_bgr, r.layout, r.camera if use_cam else None)


def compare(a, b) -> tuple[str, float, float, float, bool]:
    """One line, largest position (mm), heading (°) and σ (mm) differences of ``a``'s pieces
    (each paired with the nearest of ``b``'s), and are the two the same pieces (sizes,
    colours, standing count, no piece of ``b``'s left over)? ``b``'s extra pieces are
    named in the line."""
    if isinstance(a, VisionFailure) or isinstance(b, VisionFailure):
        same = isinstance(a, VisionFailure) and isinstance(b, VisionFailure)
        return f"failure {a!r:.40} / {b!r:.40}", 0.0, 0.0, 0.0, same
    pb = list(b.pieces)
    dmm = ddeg = dsig = 0.0
    same = len(a.upright) == len(b.upright)
    for p in a.pieces:
        if not pb:
            return f"{len(a.pieces)} vs {len(b.pieces)} pieces", 99.0, 99.0, 99.0, False
        q = min(pb, key=lambda q: math.dist(q.pose.stern_mm, p.pose.stern_mm))
        pb.remove(q)
        same &= p.size == q.size and p.color == q.color
        dmm = max(dmm, abs(p.pose.x_mm - q.pose.x_mm), abs(p.pose.y_mm - q.pose.y_mm),
                  abs(p.tip_mm[0] - q.tip_mm[0]), abs(p.tip_mm[1] - q.tip_mm[1]))
        ddeg = max(ddeg, abs(angle_diff_deg(p.pose.heading_deg, q.pose.heading_deg)))
        dsig = max(dsig, abs(p.sigma_mm - q.sigma_mm))
    extra = "".join(f" +{q.size.value} {q.color}" for q in pb)
    # A piece only ``b`` has is a difference too (it was shown but passed as the same).
    return f"{len(a.pieces)}+{len(a.upright)} pieces{extra}", dmm, ddeg, dsig, same and not pb


# Run in the child: the ref's whole detector on the pickled arguments, the results pickled back.
TREE_CHILD = """
import pickle, sys
sys.path.insert(0, sys.argv[1])
import cv2
cv2.setNumThreads(1)
import armada_vision
assert armada_vision.__file__.startswith(sys.argv[1]), armada_vision.__file__
from armada_vision.vision.detect import detect
pickle.dump([detect(*a) for a in pickle.load(sys.stdin.buffer)], sys.stdout.buffer)
"""


def tree_detections(rev: str, det_args: list[tuple]) -> list:
    """``detect``'s results on each of ``det_args`` by the package as it is at git revision
    ``rev``, in a child process (the results are unpickled into this tree's classes)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "armada_vision"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        out = subprocess.run([sys.executable, "-c", TREE_CHILD, tmp], input=pickle.dumps(det_args),
                             capture_output=True, check=True).stdout
    return pickle.loads(out)


def _patched_detect(patches: dict[tuple[types.ModuleType, str], object], det_args: tuple):
    """``detect`` with ``patches`` (module, attribute → the ref's object) in place."""
    saved = {k: getattr(*k) for k in patches}
    for (mod, attr), f in patches.items():
        setattr(mod, attr, f)
    try:
        return detect_mod.detect(*det_args)
    finally:
        for (mod, attr), f in saved.items():
            setattr(mod, attr, f)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("speed", "view", "explain", "tree"), default="speed")
    ap.add_argument("--ref", default=None, help=f"git revision (speed: default {REF_REV})")
    ap.add_argument("--stills", type=int, default=14)
    ap.add_argument("--seeds", type=int, default=0, help="rendered scenes too")
    ap.add_argument("--with-4k", action="store_true", help="the 4K stills too")
    ap.add_argument("--seed0", type=int, default=1000)
    ap.add_argument("--tol-mm", type=float, default=0.01)
    ap.add_argument("--tol-deg", type=float, default=0.01)
    args = ap.parse_args()
    cv2.setNumThreads(1)
    patches: dict[tuple[types.ModuleType, str], object] = {}
    if args.part == "speed":
        patches = reference_patches(args.ref or REF_REV)
    elif args.part == "view":
        patches = view_patches(args.ref or "HEAD")
    elif args.part == "explain":
        patches = explain_patches(args.ref or "HEAD")
    todo = list(images(args.stills, args.seeds, args.seed0, args.with_4k))
    refs = (tree_detections(args.ref or "HEAD", [a for _label, a in todo])
            if args.part == "tree" else None)
    bad = 0
    for i, (label, det_args) in enumerate(todo):
        new = detect_mod.detect(*det_args)
        ref = refs[i] if refs is not None else _patched_detect(patches, det_args)
        text, dmm, ddeg, dsig, same = compare(ref, new)
        ok = same and dmm <= args.tol_mm and ddeg <= args.tol_deg and dsig <= args.tol_mm
        bad += not ok
        print(f"{label:28s} {text:24s} Δpos {dmm:.2g} mm  Δheading {ddeg:.2g}°  "
              f"Δσ {dsig:.2g} mm  {'same' if ok else 'DIFFERENT'}")
    print("all the same" if not bad else f"{bad} images differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
