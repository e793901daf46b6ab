"""Render time per resolution, on one core, and how exactly the renderer draws (section `synth`).

Scenes: ``random_scene(seed)`` (6–10 pieces, random tilt 0–35°, random surface) with extras and
distortion on alternate seeds; each timing is one cold render (the table texture of a new seed
is generated inside it). Sequence frames reuse their table texture, so they are timed apart.
Accuracy: ArUco (cv2.aruco.ArucoDetector, sub-pixel refinement) corners against the truth's
projection on the same renders. Run: ``.venv/bin/python benchmarks/bench_synth.py [--quick]``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from armada_vision.synth.random_scene import random_scene
from armada_vision.synth.render import render
from armada_vision.synth.sequence import build_sequence, frame_spec
from benchmarks.report import verdict_line, write_section

RESOLUTIONS = {"1280×720": (1280, 720), "1920×1080": (1920, 1080), "3840×2160": (3840, 2160)}


def aruco_errors(img: np.ndarray, truth: dict) -> np.ndarray:
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    p = cv2.aruco.DetectorParameters()
    p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    det.setDetectorParameters(p)
    corners, ids, _ = det.detectMarkers(img)
    true = {m["id"]: np.array(m["corners_px"]) for m in truth["markers"] if not m["occluded"]}
    errs = []
    for c, i in zip(corners, [] if ids is None else ids.ravel(), strict=False):
        if int(i) in true:
            errs += list(np.linalg.norm(c.reshape(4, 2) - true[int(i)], axis=1))
    return np.array(errs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer scenes")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    n = {"1280×720": 4, "1920×1080": 6, "3840×2160": 2}
    if args.quick:
        n = {k: max(1, v // 2) for k, v in n.items()}
    rows, all_err, found, expected = [], [], 0, 0
    for label, size in RESOLUTIONS.items():
        times, walls = [], []
        for k in range(n[label]):
            seed = 100 + k
            spec = random_scene(seed, image_size=size, extras=k % 2 == 0, distort=k % 2 == 1)
            t0, c0 = time.perf_counter(), time.process_time()
            r = render(spec)
            times.append(time.process_time() - c0)
            walls.append(time.perf_counter() - t0)
            e = aruco_errors(r.image_bgr, r.truth)
            found += len(e) // 4
            expected += sum(not m["occluded"] for m in r.truth["markers"])
            all_err.append(e)
            print(label, seed, f"cpu {times[-1]:.2f} s, wall {walls[-1]:.2f} s", flush=True)
        med = statistics.median(times)
        target = verdict_line(med, 2.0, "s") if label == "1920×1080" else f"{med:.3g} s"
        rows.append(f"| {label} | {len(times)} | {target} | {min(times):.2f} s | "
                    f"{max(times):.2f} s | {statistics.median(walls):.2f} s |")
    seq = build_sequence(1, max_frames=30)
    render(frame_spec(seq, 0))                       # warm: texture and distortion map cached
    ft = []
    for i in range(1, min(len(seq.frames), 13)):
        c0 = time.process_time()
        render(frame_spec(seq, i))
        ft.append(time.process_time() - c0)
    err = np.concatenate(all_err)
    body = "\n".join([
        "Render time of one frame on one core: CPU time of the single-threaded process",
        "(`cv2.setNumThreads(1)`, single-threaded BLAS), since the 2 shared cores were loaded",
        f"(load average {os.getloadavg()[0]:.1f}) and wall time mostly measured the waiting;",
        "wall medians are shown too. Cold renders (new table texture each scene);",
        "`random_scene` seeds 100+, extras (often a hand) on even seeds, lens distortion on odd",
        "ones. Target: 1920×1080 in ≤ 2 s.",
        "",
        "| resolution | scenes | median CPU | min | max | median wall |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"Sequence frames (1280×720, table texture cached, hand in most frames): median CPU "
        f"{statistics.median(ft):.2f} s over {len(ft)} frames.",
        "",
        f"ArUco check on the same renders: {found}/{expected} markers not under the hand found; "
        "sub-pixel corners "
        f"vs the truth's projection: RMS {np.sqrt(np.mean(err ** 2)):.3f} px, median "
        f"{np.median(err):.3f} px, max {err.max():.3f} px. (The drawn squares themselves are",
        "exact to < 0.15 px by line fits, tests/test_synth_accuracy.py; the detector shows the",
        "same error, RMS 0.22 px, on markers warped independently at 16× supersampling: it is",
        "its L-corner refinement, not the drawing.)",
    ])
    path = write_section("synth", body)
    print(body)
    print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
