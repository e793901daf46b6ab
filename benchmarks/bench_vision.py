"""Vision benchmark: detection accuracy against the renderer's truth, and speed.

Renders fresh random scenes (``armada_vision.synth.random_scene``, truth from the renderer),
plus the stills in ``sample_images/`` when present (``NAME.png`` beside ``NAME.truth.json``),
runs ``detect`` on each and matches detections to the truth by footprint overlap. Reports
recall, precision, size and colour accuracy, stern/tip/heading errors (median and 95th
percentile) per tilt band and resolution, cold single-image time, the tracking steady-state
frame time (one core) and peak memory, into the ``vision`` section of docs/benchmarks.md.

A second set from ``--holdout`` (default seed 18064; ``--holdout-scenes``, default as many
as ``--scenes``), never tuned on, gets its own row: the first set's figures are partly tuned
to it (seeds 1000–17487 have all been looked at; 17200–17487 only for the last judge run).
A wrong size whose worse end is off by over 2σ is counted apart: the rules would trust it
(rules.md §7). A reading of a piece the truth leaves out (partly under a hand, or cut by
the image edge) is neither found nor false: precision leaves it out, as detection benchmarks
treat "ignore" objects, and the figure counting it false is printed beside.

``--jpeg Q`` re-encodes every rendered scene and still as JPEG quality Q (OpenCV's encoder,
4:2:0 chroma) before detect, as a webcam's MJPEG stream or a phone photo arrives; the rows
and the text say so. Off by default: the renders are lossless PNG-like arrays.

Usage: ``python benchmarks/bench_vision.py [--scenes N] [--seed S] [--holdout S|0]
[--holdout-scenes N] [--jpeg Q] [--quick] [--no-write] [--verbose]``.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
# A reading the rules can use: σ at most this (rules.md §7; the benchmark's "trusted").
TRUSTED_MM = 1.5
# A right-sized reading whose worse end is off by over FAR_OFF_MM and over 2σ (as the rules
# use σ) is as bad for a verdict as a wrong size the rules would trust (read end for end, or
# slid along a neighbour): counted apart.
FAR_OFF_MM = 3.0
sys.path.insert(0, str(ROOT))

from armada_vision.geometry.pieces import NOMINAL_PIECES  # noqa: E402
from armada_vision.geometry.pose import Pose, angle_diff_deg  # noqa: E402
from armada_vision.geometry.shapes import footprint  # noqa: E402
from armada_vision.vision.detect import detect  # noqa: E402
from armada_vision.vision.types import Detections, VisionFailure  # noqa: E402


@dataclass
class Tally:
    """Counts and errors over a set of images."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    size_ok: int = 0
    color_ok: int = 0
    stern_mm: list[float] = field(default_factory=list)
    tip_mm: list[float] = field(default_factory=list)
    heading_deg: list[float] = field(default_factory=list)
    # Each matched reading's reported σ_mm, beside its stern error (stern_mm).
    sigma_mm: list[float] = field(default_factory=list)
    sigma_ratio: list[float] = field(default_factory=list)
    sigma_deg_ratio: list[float] = field(default_factory=list)
    rules_ratio: list[float] = field(default_factory=list)
    cold_ms: list[float] = field(default_factory=list)
    failures: int = 0
    images: int = 0
    misses: list[str] = field(default_factory=list)
    # Wrong sizes the rules would trust: the worse end's error beyond 2σ (rules.md §7).
    sure_wrong_sizes: int = 0
    sure_far_off: int = 0
    # False pieces (on no real piece), and readings of a real piece the truth leaves out
    # because a hand hides part of it or the image edge cuts it: those are neither truth nor
    # false (an "ignore" piece, as detection benchmarks treat them), so precision leaves
    # them out; `precision_counting_left_out` counts them false, as before session 15.
    false_pieces: int = 0
    on_left_out: int = 0
    # Right readings (right size, worse end within TRUSTED_MM) and those of them reported with
    # σ ≤ TRUSTED_MM, which the rules can use: the price of the doubt rules, the other side of
    # sure_wrong_sizes.
    right: int = 0
    right_trusted: int = 0
    scores: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for k in ("truth", "found", "matched", "size_ok", "color_ok", "failures", "images",
                  "sure_wrong_sizes", "sure_far_off", "false_pieces", "on_left_out", "right",
                  "right_trusted"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for k in ("stern_mm", "tip_mm", "heading_deg", "sigma_mm", "sigma_ratio", "sigma_deg_ratio",
                  "rules_ratio",
                  "cold_ms", "misses", "scores"):
            getattr(self, k).extend(getattr(other, k))

    @property
    def precision(self) -> float:
        """Matched readings over readings, those of pieces the truth leaves out aside."""
        n = self.found - self.on_left_out
        return self.matched / n if n else float("nan")

    @property
    def precision_counting_left_out(self) -> float:
        """Matched readings over all readings: a reading of a piece the truth leaves out
        counted false (the figure reported until session 15)."""
        return self.matched / self.found if self.found else float("nan")


def _truth_footprint(p: dict):
    """A truth piece's footprint (table mm) from its stern, heading and size."""
    return footprint(Pose(p["stern"][0], p["stern"][1], p["heading"]),
                     NOMINAL_PIECES.dims(p["size"]))


def pair(piece: dict, fps: list, used: set[int] | frozenset[int] = frozenset()) -> int | None:
    """The index of the detection footprint (``fps``, table mm) that overlaps the truth
    ``piece``'s footprint most, not in ``used``; None when none shares 0.3 of the smaller."""
    fp = _truth_footprint(piece)
    best, area = None, 0.0
    for i, q in enumerate(fps):
        a = fp.intersection(q).area
        if i not in used and a > area:
            best, area = i, a
    if best is None or area < 0.3 * min(fp.area, fps[best].area):
        return None
    return best


def match(truth: dict, det: Detections | VisionFailure, label: str = "") -> Tally:
    """Match one image's detections to its truth (fully visible lying pieces, not under a
    hand): a pair shares footprint area; each truth piece takes its best-overlapping match."""
    t = Tally(images=1)
    want = [p for p in truth["pieces"] if p.get("fully_visible", True)
            and not p.get("occluded", False)]
    t.truth = len(want)
    if isinstance(det, VisionFailure):
        t.failures = 1
        t.misses.append(f"{label}: {det.reason}")
        return t
    t.found = len(det.pieces)
    t.cold_ms.append(det.elapsed_ms)
    fps = [footprint(p.pose, NOMINAL_PIECES.dims(p.size)) for p in det.pieces]
    used: set[int] = set()
    for p in want:
        best = pair(p, fps, used)
        if best is None:
            t.misses.append(f"{label}: missed {p['size']} {p['color']} at "
                            f"({p['stern'][0]:.0f}, {p['stern'][1]:.0f})")
            continue
        used.add(best)
        d = det.pieces[best]
        t.matched += 1
        t.size_ok += d.size.value == p["size"]
        t.color_ok += d.color == p["color"]
        if d.color != p["color"]:
            t.misses.append(f"{label}: colour {p['color']} read as {d.color}")
        if d.size.value != p["size"]:
            t.misses.append(f"{label}: size {p['size']} {p['color']} at ({p['stern'][0]:.0f}, "
                            f"{p['stern'][1]:.0f}) read as {d.size.value} (σ {d.sigma_mm:.1f} mm)")
        es = math.hypot(d.pose.x_mm - p["stern"][0], d.pose.y_mm - p["stern"][1])
        et = math.hypot(d.tip_mm[0] - p["tip"][0], d.tip_mm[1] - p["tip"][1])
        t.stern_mm.append(es)
        t.tip_mm.append(et)
        t.heading_deg.append(abs(angle_diff_deg(d.pose.heading_deg, p["heading"])))
        t.sigma_mm.append(d.sigma_mm)
        t.sigma_ratio.append(es / max(d.sigma_mm, 1e-6))
        t.sigma_deg_ratio.append(t.heading_deg[-1] / max(d.sigma_deg, 1e-6))
        # The σ the rules use (rules.md §7: σ_mm + length × σ_rad) against the worse end.
        s_rules = d.sigma_mm + NOMINAL_PIECES.dims(d.size).footprint_length_mm * math.radians(
            d.sigma_deg)
        t.rules_ratio.append(max(es, et) / max(s_rules, 1e-6))
        if d.size.value == p["size"] and max(es, et) <= TRUSTED_MM:
            t.right += 1
            t.right_trusted += d.sigma_mm <= TRUSTED_MM
        if d.size.value != p["size"] and max(es, et) > 2 * s_rules:
            t.sure_wrong_sizes += 1
            t.misses[-1] += " SURE: the rules would trust it"
        if d.size.value == p["size"] and max(es, et) > max(2 * s_rules, FAR_OFF_MM):
            t.sure_far_off += 1
            t.misses.append(f"{label}: {p['size']} {p['color']} at ({p['stern'][0]:.0f}, "
                            f"{p['stern'][1]:.0f}) read {max(es, et):.1f} mm off (σ "
                            f"{d.sigma_mm:.1f} mm) SURE: the rules would trust it")
        t.scores.append(d.score)
    left_out = [_truth_footprint(p) for p in truth["pieces"]
                if p.get("occluded", False) or not p.get("fully_visible", True)]
    for i, d in enumerate(det.pieces):
        if i in used:
            continue
        at = (f"{d.size.value} {d.color} at ({d.pose.x_mm:.0f}, {d.pose.y_mm:.0f}), fit "
              f"score {d.score:.2f}")
        if any(fps[i].intersection(h).area >= 0.3 * min(fps[i].area, h.area)
               for h in left_out):
            t.on_left_out += 1
            t.misses.append(f"{label}: read {at}, on a piece the truth leaves out (partly "
                            "under a hand or cut by the image edge): not counted")
        else:
            t.false_pieces += 1
            t.misses.append(f"{label}: false {at}")
    return t


def _pct(v: list[float], q: float) -> float:
    return float(np.percentile(v, q)) if v else float("nan")


def sure_stern_line(name: str, t: Tally) -> str:
    """Where the stern error's tail lies: the p95 over the readings reported with σ ≤
    TRUSTED_MM (those the rules treat as sure) and over the rest (in doubt, their σ says so)."""
    sure = [e for e, s in zip(t.stern_mm, t.sigma_mm, strict=True) if s <= TRUSTED_MM]
    doubt = [e for e, s in zip(t.stern_mm, t.sigma_mm, strict=True) if s > TRUSTED_MM]
    return (f"{name}: σ ≤ {TRUSTED_MM} mm {len(sure)} readings, stern p95 "
            f"{_pct(sure, 95):.2f} mm; σ > {TRUSTED_MM} mm {len(doubt)}, p95 "
            f"{_pct(doubt, 95):.2f} mm")


def summary_row(name: str, t: Tally) -> str:
    rec = t.matched / t.truth if t.truth else float("nan")
    prec = t.precision
    size = t.size_ok / t.matched if t.matched else float("nan")
    col = t.color_ok / t.matched if t.matched else float("nan")
    return (f"| {name} | {t.images} | {t.truth} | {rec:.1%} | {prec:.1%} | {size:.1%} | "
            f"{col:.1%} | {_pct(t.stern_mm, 50):.2f} / {_pct(t.stern_mm, 95):.2f} | "
            f"{_pct(t.tip_mm, 50):.2f} / {_pct(t.tip_mm, 95):.2f} | "
            f"{_pct(t.heading_deg, 50):.2f} / {_pct(t.heading_deg, 95):.2f} | "
            f"{_pct(t.cold_ms, 50):.0f} |")


HEAD = ("| data | images | pieces | recall | precision | size | colour | stern mm "
        "(median / p95) | tip mm (median / p95) | heading ° (median / p95) | "
        "cold ms (median) |\n|---|---|---|---|---|---|---|---|---|---|---|")


SIZES = [(1920, 1080), (1280, 720)]
BANDS = [(0.0, 10.0), (10.0, 22.0), (22.0, 35.0)]


def scene_spec(seed: int, seed0: int, quick: bool = False):
    """The random scene ``seed`` of a run from ``seed0``: its spec, tilt band (degrees) and
    image size (px). Resolution, band, touching pieces, distortion, extras and an upright
    piece cycle with the scene's index, so every run from the same seed0 sees the same mix."""
    from armada_vision.synth.random_scene import random_scene

    i = seed - seed0
    size = SIZES[i % len(SIZES)]
    lo, hi = BANDS[(i // len(SIZES)) % len(BANDS)]
    tilt = lo + (hi - lo) * ((seed * 0.618) % 1.0)
    spec = random_scene(seed, image_size=size, tilt_deg=tilt, touching=(i % 3 == 1),
                        distort=(i % 4 == 3), extras=(i % 5 == 2 and not quick),
                        upright=1 if i % 6 == 5 else 0)
    return spec, (lo, hi), size


def uses_camera(seed: int, seed0: int) -> bool:
    """Whether scene ``seed`` of a run from ``seed0`` is detected with its camera.json (one in
    seven is not: the intrinsics are then estimated)."""
    return (seed - seed0) % 7 != 6


def rendered_scenes(n: int, seed0: int, quick: bool):
    """(label, tilt band, resolution, rendered, use_camera) for fresh random scenes."""
    from armada_vision.synth.render import render

    for seed in range(seed0, seed0 + n):
        spec, (lo, hi), size = scene_spec(seed, seed0, quick)
        yield (f"seed {seed}", f"{lo:g}–{hi:g}°", f"{size[0]}×{size[1]}", render(spec),
               uses_camera(seed, seed0))


def sample_stills():
    """(label, image, truth, layout, camera) for sample_images/**/NAME.png + NAME.truth.json."""
    from armada_vision.vision.io import load_camera_file, load_layout_file, read_image

    base = ROOT / "sample_images"
    if not base.is_dir():
        return
    for tp in sorted(base.rglob("*.truth.json")):
        stem = tp.name[: -len(".truth.json")]
        img_path = next((tp.with_name(stem + e) for e in (".png", ".jpg")
                         if tp.with_name(stem + e).exists()), None)
        lay = tp.with_name(stem + ".layout.json")
        if img_path is None or not lay.exists():
            continue
        cam = tp.with_name(stem + ".camera.json")
        img = read_image(img_path)
        if isinstance(img, VisionFailure):
            continue
        yield (str(tp.relative_to(ROOT)), img, json.loads(tp.read_text()),
               load_layout_file(lay), load_camera_file(cam) if cam.exists() else None)


def noisy_frame(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``img`` (8-bit BGR) with fresh sensor noise of -2..2 levels, like a real camera watching
    a still table. Drawn as int16: an int64 draw was ~50 MB a 1080p frame and set the
    benchmark process's peak RSS (+47 MB over seeds 13744-13767, session 51)."""
    noise = rng.integers(-2, 3, img.shape, dtype=np.int16)
    noise += img
    return np.clip(noise, 0, 255).astype(np.uint8)


def tracking_speed(n_frames: int = 40) -> tuple[float, float]:
    """Median and p95 ms per frame of Tracker.update in the steady state (1920×1080)."""
    from armada_vision.synth.random_scene import random_scene
    from armada_vision.synth.render import render
    from armada_vision.vision.track import Tracker

    r = render(random_scene(7, image_size=(1920, 1080), tilt_deg=15.0, n_pieces=8))
    tr = Tracker(r.layout, r.camera)
    rng = np.random.default_rng(0)
    times = []
    for i in range(n_frames):
        frame = noisy_frame(r.image_bgr, rng)
        t0 = time.perf_counter()
        tr.update(frame, i / 30.0)
        if i >= 3:
            times.append((time.perf_counter() - t0) * 1e3)
    return _pct(times, 50), _pct(times, 95)


# The product's own peak memory is measured on this many of a set's scenes: the 1920×1080 ones
# with the most pieces (a detect's arrays scale with the image and its pieces).
PEAK_SCENES = 3

# A fresh process's peak RSS (kB), printed on its last stdout line. VmHWM, not getrusage: a
# child spawned from the benchmark process (vfork/exec) reports the parent's max RSS as its
# own ru_maxrss (Linux keeps the larger across exec), so RUSAGE_CHILDREN and wait4 would read
# the benchmark's figure again.
_PEAK_KB = ("hwm = next(x for x in open('/proc/self/status') if x.startswith('VmHWM:'))\n"
            "print(int(hwm.split()[1]))\n")
# The user's command, `armada-vision detect IMAGE --layout L [--camera C] --json`, its output
# thrown away.
_DETECT_CHILD = ("import contextlib, os, sys\n"
                 "from armada_vision.cli import main\n"
                 "with open(os.devnull, 'w') as out, contextlib.redirect_stdout(out):\n"
                 "    main(sys.argv[1:])\n" + _PEAK_KB)
# Tracker.update on the stem's image with fresh sensor noise each frame (as tracking_speed).
_TRACK_CHILD = ("import sys\n"
                "from benchmarks.bench_vision import track_files\n"
                "track_files(sys.argv[1], int(sys.argv[2]))\n" + _PEAK_KB)


def heaviest_scenes(n: int, seed0: int, quick: bool, k: int = PEAK_SCENES) -> list[int]:
    """Seeds of the ``k`` 1920×1080 scenes of a run from ``seed0`` with the most pieces (the
    lowest seed first among equals), from their specs alone (nothing rendered)."""
    load = []
    for seed in range(seed0, seed0 + n):
        spec, _, size = scene_spec(seed, seed0, quick)
        if size == SIZES[0]:
            load.append((-len(spec.pieces), seed))
    return [seed for _, seed in sorted(load)[:k]]


def track_files(stem: str, n_frames: int) -> None:
    """Tracker.update over ``n_frames`` noisy copies of ``stem``.png (with its .layout.json and
    .camera.json), as :func:`tracking_speed` runs it: the tracking loop's memory, alone."""
    from armada_vision.vision.io import load_camera_file, load_layout_file, read_image
    from armada_vision.vision.track import Tracker

    img = read_image(Path(stem + ".png"))
    tr = Tracker(load_layout_file(Path(stem + ".layout.json")),
                 load_camera_file(Path(stem + ".camera.json")))
    rng = np.random.default_rng(0)
    for i in range(n_frames):
        tr.update(noisy_frame(img, rng), i / 30.0)


def _child_peak_mb(code: str, args: list[str]) -> float | None:
    """Peak RSS (MB) of a fresh Python process running ``code`` with ``args``; None where
    /proc/self/status is not there (not Linux) or the child failed."""
    import os
    import subprocess

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [x for x in [os.environ.get("PYTHONPATH")] if x]))
    out = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    last = out.stdout.strip().splitlines()[-1:] if out.returncode == 0 else []
    return int(last[0]) / 1024.0 if last and last[0].isdigit() else None


def product_peaks(seeds: list[int], seed0: int, quick: bool, n_frames: int
                  ) -> tuple[float | None, float | None]:
    """The product's own peak memory (MB): the largest of fresh `armada-vision detect --json`
    processes, one per scene of ``seeds`` (its camera.json given as the run gives it), and a
    fresh process running the tracking loop of :func:`tracking_speed` (``n_frames``). The
    scenes are rendered here and written as PNG, so no renderer shares their processes."""
    import tempfile

    from armada_vision.synth.io import write_scene
    from armada_vision.synth.random_scene import random_scene
    from armada_vision.synth.render import render

    detect_mb: list[float | None] = []
    with tempfile.TemporaryDirectory() as tmp:
        for seed in seeds:
            paths = write_scene(render(scene_spec(seed, seed0, quick)[0]), tmp, f"s{seed}")
            args = ["detect", str(paths["image"]), "--layout", str(paths["layout"]), "--json"]
            if uses_camera(seed, seed0):
                args += ["--camera", str(paths["camera"])]
            detect_mb.append(_child_peak_mb(_DETECT_CHILD, args))
        r = render(random_scene(7, image_size=(1920, 1080), tilt_deg=15.0, n_pieces=8))
        write_scene(r, tmp, "track")
        track_mb = _child_peak_mb(_TRACK_CHILD, [str(Path(tmp) / "track"), str(n_frames)])
    got = [m for m in detect_mb if m is not None]
    return (max(got) if got and len(got) == len(detect_mb) else None), track_mb


def jpeg_view(img: np.ndarray, quality: int | None) -> np.ndarray:
    """``img`` (BGR) as it comes back from a JPEG of ``quality`` (None: unchanged)."""
    if not quality:
        return img
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def run_scenes(n: int, seed0: int, quick: bool, verbose: bool = False,
               jpeg: int | None = None):
    """Detect and match ``n`` fresh scenes from ``seed0`` (re-encoded as JPEG ``jpeg`` when
    given): tallies by tilt band, resolution and intrinsics source, the total, and CPU ms per
    resolution."""
    by_band: dict[str, Tally] = defaultdict(Tally)
    by_res: dict[str, Tally] = defaultdict(Tally)
    by_cam: dict[str, Tally] = defaultdict(Tally)
    total = Tally()
    cpu_ms: dict[str, list[float]] = defaultdict(list)
    for label, band, res, r, use_cam in rendered_scenes(n, seed0, quick):
        img = jpeg_view(r.image_bgr, jpeg)
        c0 = time.process_time()
        det = detect(img, r.layout, r.camera if use_cam else None)
        cpu_ms[res].append((time.process_time() - c0) * 1e3)
        t = match(r.truth, det, label)
        by_band[band].add(t)
        by_res[res].add(t)
        by_cam["camera.json" if use_cam else "estimated intrinsics"].add(t)
        total.add(t)
        if verbose:
            print(label, band, res, f"{t.matched}/{t.truth} found {t.found}", t.misses)
    return by_band, by_res, by_cam, total, cpu_ms


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=36)
    ap.add_argument("--seed", type=int, default=1000)
    # A second set never tuned on: the first set's figures are partly tuned to it.
    ap.add_argument("--holdout", type=int, default=18064,
                    help="first seed of a held-out set (0: none)")
    ap.add_argument("--holdout-scenes", type=int, default=0,
                    help="scenes in the held-out set (default: as many as --scenes)")
    ap.add_argument("--jpeg", type=int, default=0, metavar="Q",
                    help="re-encode every scene and still as JPEG quality Q (0: lossless)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)  # the targets are per core

    by_band, by_res, by_cam, total, cpu_ms = run_scenes(args.scenes, args.seed, args.quick,
                                                        args.verbose, args.jpeg)
    held = None
    n_held = args.holdout_scenes or args.scenes
    if args.holdout:
        held = run_scenes(n_held, args.holdout, args.quick, args.verbose, args.jpeg)[3]
    samples = Tally()
    for label, img, truth, lay, cam in sample_stills():
        samples.add(match(truth, detect(jpeg_view(img, args.jpeg), lay, cam), label))
    track_med, track_p95 = tracking_speed(12 if args.quick else 40)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    heavy = heaviest_scenes(args.scenes, args.seed, args.quick)
    detect_peak, track_peak = product_peaks(heavy, args.seed, args.quick,
                                            12 if args.quick else 40)

    from benchmarks.report import publish, verdict_line

    jp = f", JPEG {args.jpeg}" if args.jpeg else ""
    rows = [summary_row(f"tilt {k}{jp}", v) for k, v in sorted(by_band.items())]
    rows += [summary_row(f"{k}{jp}", v) for k, v in sorted(by_res.items())]
    rows += [summary_row(f"{k}{jp}", v) for k, v in sorted(by_cam.items())]
    if samples.images:
        rows.append(summary_row(f"sample_images/{jp}", samples))
    rows.append(summary_row(f"**all rendered{jp}**", total))
    if held is not None:
        rows.append(summary_row(f"held out (seeds {args.holdout}–"
                                f"{args.holdout + n_held - 1}){jp}", held))
    big = [(e, r) for e, r in zip(total.stern_mm, total.sigma_ratio, strict=True) if e > 1.5]
    rec = total.matched / max(total.truth, 1)
    lines = [
        f"Fresh random scenes rendered by `armada_vision.synth` (seeds {args.seed}–"
        f"{args.seed + args.scenes - 1}: 1920×1080 and 1280×720, tilt bands 0–35°, every "
        "third scene with touching pieces, every fourth with lens distortion, some with "
        "chits/dice/coins/a hand and an upright piece, one in seven without camera.json); "
        "truth from the renderer. Pieces hidden under a hand or cut by the image edge are "
        "not counted. Errors in table mm / degrees over matched pieces."
        + (f" Every scene and still re-encoded as JPEG quality {args.jpeg} (OpenCV, 4:2:0 "
           "chroma) before detect." if args.jpeg else ""),
        "",
        HEAD,
        *rows,
        "",
        f"- recall {verdict_line(100 * rec, 99.5, '%', lower_is_better=False)}; precision "
        f"{verdict_line(100 * total.precision, 99.5, '%', lower_is_better=False)}; false "
        f"pieces {total.false_pieces}; readings of real pieces the truth leaves out (partly "
        f"under a hand or cut by the image edge), not counted: {total.on_left_out} "
        f"(counted false, precision {100 * total.precision_counting_left_out:.1f} %)",
        f"- size {total.size_ok}/{total.matched} (wrong sizes the rules would trust, the "
        f"worse end off by over 2σ: {total.sure_wrong_sizes}; right sizes read over "
        f"{FAR_OFF_MM:.0f} mm off that the rules would trust: {total.sure_far_off}), colour "
        f"{total.color_ok}/{total.matched}",
        f"- right readings (right size, worse end ≤ {TRUSTED_MM} mm) reported with σ ≤ "
        f"{TRUSTED_MM} mm, so the rules can use them: {total.right_trusted}/{total.right} "
        f"({100 * total.right_trusted / max(total.right, 1):.1f} %; the rest are in doubt)",
        f"- stern error median {verdict_line(_pct(total.stern_mm, 50), 0.5, 'mm')}, p95 "
        f"{verdict_line(_pct(total.stern_mm, 95), 1.5, 'mm')}",
        f"- tip error median {verdict_line(_pct(total.tip_mm, 50), 0.5, 'mm')}, p95 "
        f"{verdict_line(_pct(total.tip_mm, 95), 1.5, 'mm')}",
        f"- heading error median {verdict_line(_pct(total.heading_deg, 50), 0.5, '°')}, p95 "
        f"{verdict_line(_pct(total.heading_deg, 95), 1.5, '°')}",
        f"- stern error / reported σ: median {_pct(total.sigma_ratio, 50):.2f}, "
        f"p95 {_pct(total.sigma_ratio, 95):.2f}; stern errors over 1.5 mm: {len(big)}, of "
        f"which {sum(1 for e, r in big if r <= 2.0)} reported with σ ≥ half the error "
        "(so the doubt allowance of rules.md §7, 2·√(σa² + σb²) + floor, covers them)",
        "- the stern error's tail by reported σ: " + "; ".join(
            [sure_stern_line(k, v) for k, v in sorted(by_res.items())]
            + [sure_stern_line("all", total)]),
        f"- heading error / reported σ°: median {_pct(total.sigma_deg_ratio, 50):.2f}, "
        f"p95 {_pct(total.sigma_deg_ratio, 95):.2f}",
        f"- worse of stern and tip error / the piece's σ as the rules use it (σ_mm + length × "
        f"σ_rad, rules.md §7): median {_pct(total.rules_ratio, 50):.2f}, p95 "
        f"{_pct(total.rules_ratio, 95):.2f}, beyond 2 (outside a lone piece's allowance "
        f"2σ + floor): {100 * np.mean(np.array(total.rules_ratio) > 2):.1f} %",
        f"- cold single-image detect (calibration included, one OpenCV thread) median "
        f"{verdict_line(_pct(total.cold_ms, 50), 150, 'ms')} wall clock on the shared "
        f"machine; CPU time of the process: "
        + ", ".join(f"{k} median {_pct(v, 50):.0f} ms" for k, v in sorted(cpu_ms.items())),
        f"- tracking steady state, 1920×1080, one thread: median "
        f"{verdict_line(track_med, 33, 'ms')} per frame, p95 {track_p95:.1f} ms",
        "- peak memory of the program, each in a fresh process (VmHWM): `armada-vision "
        f"detect --json` on the {len(heavy)} 1920×1080 scenes with the most pieces (seeds "
        + ", ".join(map(str, heavy)) + ") "
        + (verdict_line(detect_peak, 500, 'MB') if detect_peak is not None else "n/a")
        + "; the tracking loop above (both with OpenCV's default threads, as a user runs them) "
        + (verdict_line(track_peak, 500, 'MB') if track_peak is not None else "n/a"),
        f"- peak memory of the benchmark process (max RSS: the harness too, rendering and "
        f"matching every scene, the renderer's own peak above a detect's) "
        f"{verdict_line(peak_mb, 500, 'MB')}",
        f"- calibration failures: {total.failures}",
    ]
    if held is not None:
        h_rec = held.matched / max(held.truth, 1)
        lines.append(
            f"- held out (seeds {args.holdout}–{args.holdout + n_held - 1}, made the same "
            f"way, not tuned on): recall "
            f"{verdict_line(100 * h_rec, 99.5, '%', lower_is_better=False)}; precision "
            f"{verdict_line(100 * held.precision, 99.5, '%', lower_is_better=False)} ("
            f"{held.false_pieces} false; {held.on_left_out} readings of pieces the truth "
            f"leaves out not counted; counted false, "
            f"{100 * held.precision_counting_left_out:.1f} %); size "
            f"{held.size_ok}/{held.matched} (the rules would trust {held.sure_wrong_sizes} "
            f"wrong and {held.sure_far_off} right sizes over {FAR_OFF_MM:.0f} mm off; right "
            f"readings with σ ≤ {TRUSTED_MM} mm {held.right_trusted}/{held.right}), "
            f"colour {held.color_ok}/{held.matched}")
    if total.misses:
        lines += ["", "Misses and errors (first 25):", ""]
        lines += [f"- {m}" for m in total.misses[:25]]
    if held is not None and held.misses:
        lines += ["", "Held out, misses and errors (first 25):", ""]
        lines += [f"- {m}" for m in held.misses[:25]]
    body = "\n".join(lines)
    publish("vision", body, write=not args.no_write)
    return 0


if __name__ == "__main__":
    sys.exit(main())
