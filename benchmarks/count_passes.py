"""How often each pass of ``detect.find_pieces`` changes the output, and what it costs.

Each pass (the main reading, the dark / glare / black-or-sunk re-reads on the unscaled map,
the hand regions' tip pieces, the crisp and desaturated passes, the leftover and touching
readings, the upright fit, and the cheap tests that gate them) is wrapped in a CPU timer; the
time of a pass called inside another goes to the outer one. The candidates a pass returns are
tagged with it (first tag wins), and each piece detect outputs is counted for the pass that
first made it. A pass "changed the output" of a scene when a piece of it was output there (an
upper bound: a re-read that returns the main reading's piece again still counts), or, for
the filters (`is_skin`, `hand_hides`), when it dropped one.

Scenes are bench_vision's (``--seed``, ``--scenes``, the same tilt bands, sizes and extras).
Measurement only: nothing is written. One OpenCV thread, ``time.process_time``.

    python benchmarks/count_passes.py --seed 1144 --scenes 216
"""

from __future__ import annotations

import argparse
import inspect
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from armada_vision.vision import detect as D  # noqa: E402
from armada_vision.vision import segment as S  # noqa: E402
from benchmarks.bench_vision import rendered_scenes  # noqa: E402

# Which call of a function find_pieces makes, by a fragment of its source line.
CALLERS = {
    "explain_region": [("found = explain_region(scene", "main"),
                       ("again = explain_region(unscaled", "dark re-read"),
                       ("explain_region(unscaled_map(scene, sub)", "black/sunk re-read")],
    "leftover_piece": [("again += leftover_piece(unscaled", "dark re-read"),
                       ("got = leftover_piece(scene", "leftover (empty)"),
                       ("leftover_piece(unscaled_map(scene, sub)", "touching + sunk beside"),
                       ("lying += [c for c in leftover_piece(scene", "leftover (roomy)")],
}
SIMPLE = {
    "crisp_edges": "front: crisp edges", "foreground_planes": "front: foreground",
    "object_mask": "front: regions", "view_regions": "front: regions",
    "region_foreground": "front: fit map", "shade": "front: shade",
    "no_piece_in": "test: no_piece_in",
    "_is_dark": "test: _is_dark",
    "_black_left": "test: _black_left",
    "_sunk_left": "test: _sunk_left",
    "_room_left": "test: _room_left",
    "shows_no_base": "test: shows_no_base",
    "_size_doubtful": "test: _size_doubtful",
    "_glare_reread": "glare re-read", "_with_unscaled": "black/sunk re-read",
    "hand_hides": "filter: under hand", "upright_fit": "upright fit",
    "pieces_at_tips": "hand regions: pieces at tips", "grey_of": "desaturated (mask)",
    "touching_pieces": "touching", "_sunk_beside": "touching + sunk beside",
    "is_skin": "filter: skin", "_piece": "colour and σ (_piece)",
    "closed_holes": "front: closed holes", "_sunk_plastic_pieces": "sunk plastic re-read",
    "calibrate": "calibrate", "make_rectifier": "rectifier",
}


class Tally:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = defaultdict(float)
        self.ran: dict[str, int] = defaultdict(int)      # scenes where the pass ran
        self.changed: dict[str, int] = defaultdict(int)  # scenes where it changed the output
        self.pieces: dict[str, int] = defaultdict(int)   # output pieces it made
        self.stack: list[str] = []
        self.tag: dict[int, tuple[str, object]] = {}
        self.scene_ran: set[str] = set()
        self.scene_changed: set[str] = set()
        self.pale = 0

    def new_scene(self) -> None:
        self.tag.clear()
        self.scene_ran.clear()
        self.scene_changed.clear()

    def end_scene(self) -> None:
        for n in self.scene_ran:
            self.ran[n] += 1
        for n in self.scene_changed:
            self.changed[n] += 1


T = Tally()


def _name_of(fn: str, lines: dict[int, str]) -> str:
    if fn not in CALLERS:
        return SIMPLE[fn]
    frame = sys._getframe(2)
    text = lines.get(frame.f_lineno, "") if frame.f_code.co_name == "find_pieces" else ""
    for frag, name in CALLERS[fn]:
        if frag in text:
            return name
    return f"{fn} (other)"


def _tag(name: str, out: object) -> None:
    if isinstance(out, list):
        for c in out:
            if hasattr(c, "fit") and id(c) not in T.tag:
                T.tag[id(c)] = (name, c)


def _wrap(module, fn: str, lines: dict[int, str]) -> None:
    orig = getattr(module, fn)

    def wrapped(*a, **k):
        if fn == "crisp_pieces":
            name = "crisp pass" if a[1] is not None else "desaturated crisp pass"
        else:
            name = _name_of(fn, lines)
        outer = not T.stack
        T.stack.append(name)
        t0 = time.process_time()
        try:
            out = orig(*a, **k)
        finally:
            dt = time.process_time() - t0
            T.stack.pop()
        if outer:
            T.cpu[name] += dt
            T.scene_ran.add(name)
        label = T.stack[0] if T.stack else name
        if fn == "_piece":
            c = a[0]
            src = T.tag.get(id(c), ("?", None))[0]
            T.pieces[src] += 1
            T.scene_changed.add(src)
        elif (out is not None) if fn == "upright_fit" else (fn in ("is_skin", "hand_hides")
                                                                and bool(out)):
            # A standing piece found, a reading dropped as skin or as under a hand.
            T.scene_changed.add(name)
        elif fn == "grey_of" and out is not None:
            T.scene_changed.add("desaturated (mask) non-empty")
        else:
            _tag(label, out)
        return out

    setattr(module, fn, wrapped)


def _wrap_pale() -> None:
    orig = S._pale_hull

    def wrapped(*a, **k):
        T.pale += 1
        T.scene_changed.add("pale hull made")
        return orig(*a, **k)

    S._pale_hull = wrapped


def _wrap_carry(fn: str) -> None:
    """The refits return new candidates, one per input in order: they keep the input's tag."""
    orig = getattr(D, fn)

    def wrapped(scene, found, *a, **k):
        out = orig(scene, found, *a, **k)
        if isinstance(found, list):
            for old, new in zip(found, out, strict=True):
                if id(old) in T.tag and id(new) not in T.tag:
                    T.tag[id(new)] = T.tag[id(old)]
        else:
            if id(found) in T.tag and id(out) not in T.tag:
                T.tag[id(out)] = T.tag[id(found)]
        return out

    setattr(D, fn, wrapped)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1144)
    ap.add_argument("--scenes", type=int, default=216)
    args = ap.parse_args()
    if args.seed + args.scenes > 18064:
        sys.exit("seeds from 18064 on are the held-out judge set")
    cv2.setNumThreads(1)
    src, first = inspect.getsourcelines(D.find_pieces)
    lines = {first + i: s for i, s in enumerate(src)}
    for fn in [*CALLERS, *SIMPLE, "crisp_pieces"]:
        _wrap(D, fn, lines)
    _wrap_pale()
    _wrap_carry("refine_on_score")
    _wrap_carry("face_for_base")
    total = 0.0
    n = 0
    for label, _band, _res, r, use_camera in rendered_scenes(args.scenes, args.seed, False):
        T.new_scene()
        t0 = time.process_time()
        det = D.detect(r.image_bgr, r.layout, r.camera if use_camera else None)
        total += time.process_time() - t0
        n += 1
        T.end_scene()
        if not isinstance(det, D.Detections):
            print(label, "failed:", det)
    print(f"{n} scenes (seeds {args.seed}-{args.seed + n - 1}), detect CPU {total / n * 1e3:.1f} ms"
          " mean per scene (first detect of the process included)")
    print("| pass | CPU ms per scene | share of detect | scenes run | scenes changed |"
          " pieces output |")
    print("|---|---|---|---|---|---|")
    names = sorted(set(T.cpu) | set(T.changed) | set(T.pieces), key=lambda k: -T.cpu.get(k, 0))
    for k in names:
        print(f"| {k} | {T.cpu.get(k, 0) / n * 1e3:.1f} | {T.cpu.get(k, 0) / total * 100:.1f} % "
              f"| {T.ran.get(k, 0)} | {T.changed.get(k, 0)} | {T.pieces.get(k, 0)} |")
    print(f"pale hulls made: {T.pale}")


if __name__ == "__main__":
    main()
