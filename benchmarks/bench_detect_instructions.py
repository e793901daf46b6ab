"""Cold detect cost in CPU instructions (valgrind callgrind), this tree against git revisions.

CPU time on the shared 2-core machine moves by ±15 % from run to run and by ~1.7× from one
day to another for the same code, so a speed change of a few percent cannot be told from noise
by timing. Instruction counts can: callgrind counts the same total for the same program and
input whatever else the machine does. This runs ``detect`` (calibration included, one OpenCV
thread) on the first N of bench_vision's random scenes (seeds 1000+ unless ``--seed0``, both
resolutions) under callgrind, once with the scenes and once without (imports only), and reports
the difference per image, for this working tree and each ``--ref`` revision (extracted with
``git archive``). Instructions are not milliseconds (memory stalls and vectorised OpenCV code
differ), but the ratio between two trees tracks the ratio of their CPU time on the same data.

With ``--cpu-scenes N`` it also times the same trees in CPU milliseconds (``time.process_time``,
one OpenCV thread) on the first N scenes: each round runs every tree once in a fresh process
(the trees take turns, so a burst of load hits them alike), each image's fastest round counts,
and the table gives the median per resolution. That is the figure the target is set in; on a
quiet machine it is a measurement, on a loaded one the instructions are the better guide.

Writes the ``detect-instructions`` section of docs/benchmarks.md.

Usage: ``python benchmarks/bench_detect_instructions.py [--ref REV ...] [--scenes 8]
[--cpu-scenes 16 --cpu-rounds 3] [--no-write]``. Needs valgrind (Debian package ``valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_vision import rendered_scenes  # noqa: E402
from benchmarks.report import publish  # noqa: E402

# Run in the child under valgrind: import the tree's detector, detect each pickled scene.
CHILD = """
import pickle, sys
sys.path.insert(0, sys.argv[1])
import cv2
cv2.setNumThreads(1)
from armada_vision.vision.detect import detect
import armada_vision
assert armada_vision.__file__.startswith(sys.argv[1]), armada_vision.__file__
scenes = pickle.load(open(sys.argv[2], "rb"))
for img, layout, camera in scenes[: int(sys.argv[3])]:
    detect(img, layout, camera)
"""


# Run in the child without valgrind: CPU ms of each pickled scene's detect, after one warm-up
# detect (imports and OpenCV's first-call setup are not detection).
CPU_CHILD = """
import json, pickle, sys, time
sys.path.insert(0, sys.argv[1])
import cv2
cv2.setNumThreads(1)
from armada_vision.vision.detect import detect
import armada_vision
assert armada_vision.__file__.startswith(sys.argv[1]), armada_vision.__file__
scenes = pickle.load(open(sys.argv[2], "rb"))
detect(*scenes[0])
ms = []
for img, layout, camera in scenes:
    t0 = time.process_time()
    detect(img, layout, camera)
    ms.append((time.process_time() - t0) * 1e3)
print(json.dumps(ms))
"""


def _this_tree() -> str:
    """'this tree' with its commit, and whether the detector has uncommitted changes."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=False).stdout.strip() or "?"
    dirty = subprocess.run([*git, "diff", "--quiet", "HEAD", "--", "armada_vision"],
                           check=False).returncode != 0
    return f"this tree (`{head}`{' + uncommitted changes' if dirty else ''})"


def instructions(tree: Path, scenes_pkl: Path, n: int, workdir: Path) -> int:
    """Total instructions callgrind counts for the child on ``tree`` with ``n`` scenes."""
    out = workdir / f"cg.{tree.name}.{n}.out"
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
         CHILD, str(tree), str(scenes_pkl), str(n)],
        capture_output=True, text=True, env=env, cwd=workdir, check=False)
    m = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or m is None:
        raise RuntimeError(f"callgrind on {tree} with {n} scenes failed: {run.stderr[-500:]}")
    return int(m.group(1).replace(",", ""))


def per_detect(tree: Path, scenes_pkl: Path, n: int, workdir: Path) -> float:
    """Instructions of one detect on ``tree``: (with n scenes − with none) / n."""
    with ThreadPoolExecutor(2) as pool:  # the two runs are independent: one per core
        full, base = pool.map(lambda k: instructions(tree, scenes_pkl, k, workdir), (n, 0))
    return (full - base) / n


def cpu_ms(trees: list[Path], scenes_pkl: Path, rounds: int) -> list[list[float]]:
    """Per tree, per scene: the fastest CPU ms of one detect over ``rounds`` rounds, the trees
    taking turns in each round (one fresh process per tree and round)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    best: list[list[float]] = [[] for _ in trees]
    for _ in range(rounds):
        for i, tree in enumerate(trees):
            run = subprocess.run([sys.executable, "-c", CPU_CHILD, str(tree), str(scenes_pkl)],
                                 capture_output=True, text=True, env=env, check=False)
            if run.returncode != 0:
                raise RuntimeError(f"timing {tree} failed: {run.stderr[-500:]}")
            ms = json.loads(run.stdout.strip().splitlines()[-1])
            best[i] = [min(a, b) for a, b in zip(best[i], ms, strict=True)] if best[i] else ms
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", action="append", default=[], help="git revision to compare")
    ap.add_argument("--scenes", type=int, default=8)
    ap.add_argument("--seed0", type=int, default=1000,
                    help="first scene's seed (the default set is the one the figures cite)")
    ap.add_argument("--cpu-scenes", type=int, default=0,
                    help="also time CPU ms on this many scenes (0: instructions only)")
    ap.add_argument("--cpu-rounds", type=int, default=3)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("bench_detect_instructions: valgrind not found (apt-get install valgrind)",
              file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        scenes, labels = [], []
        for label, _band, res, r, use_cam in rendered_scenes(args.scenes, args.seed0, False):
            scenes.append((r.image_bgr, r.layout, r.camera if use_cam else None))
            labels.append(f"{label} ({res})")
        pkl = work / "scenes.pkl"
        pkl.write_bytes(pickle.dumps(scenes))

        trees: list[tuple[str, Path]] = [(_this_tree(), ROOT)]
        for rev in args.ref:
            dest = work / f"ref-{re.sub(r'[^0-9A-Za-z]', '_', rev)}"
            dest.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "armada_vision"],
                                     capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
            short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", rev],
                                   capture_output=True, text=True, check=True).stdout.strip()
            trees.append((f"`{short}` ({rev})" if short != rev else f"`{rev}`", dest))

        rows = []
        for name, tree in trees:
            cost = per_detect(tree, pkl, args.scenes, work)
            rows.append((name, cost))
            print(f"{name}: {cost / 1e6:.1f} M instructions per detect", flush=True)

        cpu_rows: list[tuple[str, dict[str, float]]] = []
        if args.cpu_scenes:
            timed, res_of = [], []
            cpu_set = rendered_scenes(args.cpu_scenes, args.seed0, False)
            for _label, _band, res, r, use_cam in cpu_set:
                timed.append((r.image_bgr, r.layout, r.camera if use_cam else None))
                res_of.append(res)
            tpkl = work / "timed.pkl"
            tpkl.write_bytes(pickle.dumps(timed))
            timings = cpu_ms([t for _, t in trees], tpkl, args.cpu_rounds)
            for (name, _tree), ms in zip(trees, timings, strict=True):
                per_res: dict[str, list[float]] = defaultdict(list)
                for res, v in zip(res_of, ms, strict=True):
                    per_res[res].append(v)
                med = {res: statistics.median(v) for res, v in sorted(per_res.items())}
                cpu_rows.append((name, med))
                print(f"{name}: CPU ms median " + ", ".join(
                    f"{res} {v:.0f}" for res, v in med.items()), flush=True)

    ref_cost = rows[-1][1] if len(rows) > 1 else None
    lines = [
        "## Cold detect cost in instructions (`benchmarks/bench_detect_instructions.py`)",
        "",
        "valgrind callgrind's instruction count of one `detect` call (calibration included, one "
        "OpenCV thread), averaged over " + f"{args.scenes} of bench_vision's random scenes "
        f"from seed {args.seed0} ({', '.join(labels)}): the run with the scenes minus the run "
        "with imports only, "
        "divided by the number of scenes. Repeatable whatever the machine's load, unlike CPU "
        "time here; instructions are not milliseconds, but the ratio of two trees follows the "
        "ratio of their CPU time.",
        "",
        "| tree | instructions per detect | against the last row |",
        "|---|---|---|",
    ]
    for name, cost in rows:
        rel = f"{(cost / ref_cost - 1) * 100:+.1f} %" if ref_cost else "–"
        lines.append(f"| {name} | {cost / 1e6:.0f} M | {rel} |")
    if cpu_rows:
        resolutions = list(cpu_rows[0][1])
        lines += [
            "",
            f"CPU time of the same trees on the first {args.cpu_scenes} scenes (seeds "
            f"{args.seed0}–{args.seed0 + args.cpu_scenes - 1}; `time.process_time`, one OpenCV "
            "thread; each image's "
            f"fastest of {args.cpu_rounds} rounds, the trees taking turns, one fresh process "
            "per tree and round), median per resolution; target ≤ 150 ms at 1920×1080:",
            "",
            "| tree | " + " | ".join(f"CPU ms, {r} (median)" for r in resolutions) + " |",
            "|---|" + "---|" * len(resolutions),
        ]
        for name, med in cpu_rows:
            lines.append(f"| {name} | " + " | ".join(f"{med[r]:.0f}" for r in resolutions)
                         + " |")
        load = os.getloadavg()[0]
        lines += ["", f"Load average at the end: {load:.2f} (2 cores)."]
    body = "\n".join(lines)
    publish("detect-instructions", body, write=not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
