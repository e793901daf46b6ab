"""Cold detect cost in CPU instructions (valgrind callgrind), this tree against git revisions.

CPU time on the shared 2-core machine moves by ±15 % from run to run and by ~1.7× from one
day to another for the same code, so a speed change of a few percent cannot be told from noise
by timing. Instruction counts can: callgrind counts the same total for the same program and
input whatever else the machine does. This runs ``detect`` (calibration included, one OpenCV
thread) on the first N of bench_vision's random scenes (seeds 1000+, both resolutions) under
callgrind, once with the scenes and once without (imports only), and reports the difference
per image, for this working tree and each ``--ref`` revision (extracted with ``git archive``).
Instructions are not milliseconds (memory stalls and vectorised OpenCV code differ), but the
ratio between two trees tracks the ratio of their CPU time on the same data.

Writes the ``detect-instructions`` section of docs/benchmarks.md.

Usage: ``python benchmarks/bench_detect_instructions.py [--ref REV ...] [--scenes 8]
[--no-write]``. Needs valgrind (Debian package ``valgrind``).
"""

from __future__ import annotations

import argparse
import os
import pickle
import re
import shutil
import subprocess
import sys
import tempfile
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ref", action="append", default=[], help="git revision to compare")
    ap.add_argument("--scenes", type=int, default=8)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("bench_detect_instructions: valgrind not found (apt-get install valgrind)",
              file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        scenes, labels = [], []
        for label, _band, res, r, use_cam in rendered_scenes(args.scenes, 1000, False):
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

    ref_cost = rows[-1][1] if len(rows) > 1 else None
    lines = [
        "## Cold detect cost in instructions (`benchmarks/bench_detect_instructions.py`)",
        "",
        "valgrind callgrind's instruction count of one `detect` call (calibration included, one "
        "OpenCV thread), averaged over " + f"{args.scenes} of bench_vision's random scenes "
        f"({', '.join(labels)}): the run with the scenes minus the run with imports only, "
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
    body = "\n".join(lines)
    publish("detect-instructions", body, write=not args.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
