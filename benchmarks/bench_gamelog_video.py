"""Why moves seen on video are judged the way they are: pose error against σ on a rendered
game sequence, and what the rules (§4 placement tolerance, §7 doubt) can say with them.

Data: the sequences of sample_images/sequences (default: demo and skirmish). Every settled
frame is detected (camera file given) and its ships matched to the renderer's truth in
events.json (nearest stern of the same size within 15 mm); truth never comes from the
detector. Reported:

- stern / heading error and σ of the ships over all settled frames, error/σ;
- bias against frame-to-frame scatter: a piece lying still is seen in many frames with fresh
  sensor noise; the spread of its poses over those frames is the noise a running mean over
  frames could average away, the mean's error is what it cannot;
- each true move judged by the rules from the tracker's two views (last settled frame before
  the move, the second settled frame after it), with the detector's σ, and with each pose's σ
  set to its actual error (σ = |error|, the least σ that covers the error);
- with ``--e2e``: the whole chain (frames → vision.track.Tracker → gamelog.Recorder), actions
  against the truth.

Run: ``python benchmarks/bench_gamelog_video.py [--sequence NAME]… [--e2e] [--no-write]``;
writes the ``gamelog-video`` section of docs/benchmarks.md (minutes of CPU).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import angle_diff_deg
from armada_vision.rules import DEFAULT_CONFIG, PlayArea, Ship, Table
from armada_vision.rules.doubt import piece_sigma_mm
from armada_vision.rules.move import adjudicate_move
from benchmarks.report import write_section

ROOT = Path(__file__).resolve().parent.parent
SEQ = ROOT / "sample_images" / "sequences"


def detect_settled(folder: Path, truth: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per true ship per settled frame: its detection (if any) and the truth."""
    from armada_vision.vision.detect import detect
    from armada_vision.vision.io import load_camera_file, load_layout_file, read_image

    layout = load_layout_file(folder / "layout.json")
    camera = load_camera_file(folder / "camera.json")
    rows = []
    for f in truth["frames"]:
        if not f["settled"]:
            continue
        det = detect(read_image(folder / f["file"]), layout, camera)
        pieces = getattr(det, "pieces", ())
        for p in f["pieces"]:
            if p["role"] != "ship":
                continue
            near = [d for d in pieces if d.size.value == p["size"]
                    and math.dist(d.pose.stern_mm, p["stern"]) < 15.0]
            r = {"frame": f["index"], "id": p["id"], "size": p["size"], "truth": p}
            if near:
                d = min(near, key=lambda d: math.dist(d.pose.stern_mm, p["stern"]))
                r.update(det=d, err_mm=math.dist(d.pose.stern_mm, p["stern"]),
                         err_xy=(d.pose.x_mm - p["stern"][0], d.pose.y_mm - p["stern"][1]),
                         err_deg=angle_diff_deg(d.pose.heading_deg, p["heading"]))
            rows.append(r)
    return rows


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(xs, q)) if xs else float("nan")


def error_table(rows: list[dict[str, Any]]) -> list[str]:
    seen = [r for r in rows if "det" in r]
    em = [r["err_mm"] for r in seen]
    ed = [abs(r["err_deg"]) for r in seen]
    sm = [r["det"].sigma_mm for r in seen]
    sd = [r["det"].sigma_deg for r in seen]
    rm = [e / s for e, s in zip(em, sm, strict=True)]
    rd = [e / s for e, s in zip(ed, sd, strict=True)]
    return [
        f"Ships found in settled frames: {len(seen)} of {len(rows)}.",
        "",
        "| figure | median | p95 |",
        "|---|---|---|",
        f"| stern error (mm) | {pct(em, 50):.2f} | {pct(em, 95):.2f} |",
        f"| heading error (°) | {pct(ed, 50):.2f} | {pct(ed, 95):.2f} |",
        f"| σ (mm) | {pct(sm, 50):.2f} | {pct(sm, 95):.2f} |",
        f"| σ (°) | {pct(sd, 50):.2f} | {pct(sd, 95):.2f} |",
        f"| stern error / σ | {pct(rm, 50):.2f} | {pct(rm, 95):.2f} |",
        f"| heading error / σ° | {pct(rd, 50):.2f} | {pct(rd, 95):.2f} |",
        "",
        f"Errors beyond 2σ / 3σ: stern {np.mean(np.array(rm) > 2):.1%} / "
        f"{np.mean(np.array(rm) > 3):.1%}, heading {np.mean(np.array(rd) > 2):.1%} / "
        f"{np.mean(np.array(rd) > 3):.1%}.",
    ]


def averaging_table(rows: list[dict[str, Any]]) -> list[str]:
    """Pieces lying still over several settled frames: scatter between frames vs bias."""
    groups: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        if "det" in r:
            t = r["truth"]
            groups[(r["id"], round(t["stern"][0], 3), round(t["stern"][1], 3))].append(r)
    single, mean_err, scatter, scatter_deg, single_deg, mean_deg = [], [], [], [], [], []
    for g in groups.values():
        if len(g) < 3:
            continue
        xy = np.array([r["err_xy"] for r in g])
        hd = np.array([r["err_deg"] for r in g])
        single += [r["err_mm"] for r in g]
        single_deg += list(np.abs(hd))
        mean_err.append(float(np.hypot(*xy.mean(axis=0))))
        mean_deg.append(float(abs(hd.mean())))
        scatter.append(float(xy.std(axis=0, ddof=1).mean()))
        scatter_deg.append(float(hd.std(ddof=1)))
    n = sum(1 for g in groups.values() if len(g) >= 3)
    return [
        f"{n} stretches of a ship lying still for 3 or more settled frames:",
        "",
        "| figure | median | max |",
        "|---|---|---|",
        f"| stern scatter between frames (sd per axis, mm) | {pct(scatter, 50):.3f} | "
        f"{max(scatter, default=float('nan')):.3f} |",
        f"| stern error of one frame (mm) | {pct(single, 50):.2f} | "
        f"{max(single, default=float('nan')):.2f} |",
        f"| stern error of the mean over the stretch (mm) | {pct(mean_err, 50):.2f} | "
        f"{max(mean_err, default=float('nan')):.2f} |",
        f"| heading scatter between frames (sd, °) | {pct(scatter_deg, 50):.3f} | "
        f"{max(scatter_deg, default=float('nan')):.3f} |",
        f"| heading error of one frame (°) | {pct(single_deg, 50):.2f} | "
        f"{max(single_deg, default=float('nan')):.2f} |",
        f"| heading error of the mean (°) | {pct(mean_deg, 50):.2f} | "
        f"{max(mean_deg, default=float('nan')):.2f} |",
    ]


def judge(before: dict[str, Any], after: dict[str, Any], move: dict[str, Any],
          layout: TableLayout, oracle: bool) -> tuple[Any, float]:
    """The rules on the mover alone (no other piece): its σ the RMS of both views' σ."""
    def sig(r: dict[str, Any]) -> tuple[float, float]:
        if oracle:
            return max(r["err_mm"], 0.01), max(abs(r["err_deg"]), 0.01)
        return r["det"].sigma_mm, r["det"].sigma_deg

    (bs, bd), (as_, ad) = sig(before), sig(after)
    size = Size.parse(move["size"])
    b = before["det"].pose
    ship = Ship(move["ship"], move["player"], size, b, 0, math.sqrt((bs ** 2 + as_ ** 2) / 2),
                math.sqrt((bd ** 2 + ad ** 2) / 2))
    table = Table(PlayArea(tuple(layout.play_area_mm)), (ship,))
    length = NOMINAL_PIECES.dims(size).footprint_length_mm
    eff = math.hypot(piece_sigma_mm(bs, bd, length), piece_sigma_mm(as_, ad, length))
    return adjudicate_move(table, move["ship"], after["det"].pose, DEFAULT_CONFIG), eff


def moves_table(rows: list[dict[str, Any]], truth: dict[str, Any],
                layout: TableLayout) -> list[str]:
    by_frame: dict[int, dict[str, dict[str, Any]]] = defaultdict(dict)
    for r in rows:
        if "det" in r:
            by_frame[r["frame"]][r["id"]] = r
    settled = sorted({r["frame"] for r in rows})
    out = ["| move | true | views' stern / heading error | allowance, detector σ | verdict | "
           "allowance, σ = error | verdict |", "|---|---|---|---|---|---|---|"]
    yes = [0, 0]
    n = 0
    for e in truth["events"]:
        if e["type"] != "move":
            continue
        before_f = [f for f in settled if f < e["frame"]]
        after_f = [f for f in settled if f > e["frame"]]
        if not before_f or not after_f:
            continue
        fa = after_f[1] if len(after_f) > 1 and after_f[1] == after_f[0] + 1 else after_f[0]
        b, a = by_frame[before_f[-1]].get(e["ship"]), by_frame[fa].get(e["ship"])
        if b is None or a is None:
            out.append(f"| {e['ship']} @{e['frame']} | {e['legal']} | not seen | | | | |")
            continue
        n += 1
        cells = []
        for k, oracle in enumerate((False, True)):
            v, _eff = judge(b, a, e, layout, oracle)
            yes[k] += bool(v.yes == e["legal"] and not v.in_doubt)
            word = "yes" if v.yes else ("in doubt" if v.in_doubt else "no")
            allow = v.allowance_mm or 0.0
            cells += [f"{allow:.2f} mm", word]
        out.append(f"| {e['ship']} @{e['frame']} | {'legal' if e['legal'] else 'foul'} | "
                   f"{b['err_mm']:.2f}/{b['err_deg']:+.2f}° → {a['err_mm']:.2f}/"
                   f"{a['err_deg']:+.2f}° | " + " | ".join(cells) + " |")
    out += ["", f"Judged right (legal → yes, foul → no, not in doubt): {yes[0]} of {n} with the "
            f"detector's σ; {yes[1]} of {n} with σ = each view's actual error."]
    return out


def e2e(folder: Path, truth: dict[str, Any]) -> tuple[list[str], float]:
    from armada_vision.gamelog import Move, Shot
    from armada_vision.gamelog.truth import log_actions, record_sequence, truth_actions

    c0 = time.process_time()
    rec, _ = record_sequence(folder)
    cpu = time.process_time() - c0
    la, ta = log_actions(rec.events), truth_actions(truth)
    moves = [e for e in rec.events if isinstance(e, Move)]
    shots = [e for e in rec.events if isinstance(e, Shot)]

    def count(evs: list[Any]) -> str:
        y = sum(e.verdict.yes for e in evs)
        d = sum(e.verdict.in_doubt for e in evs)
        return f"{y} yes, {d} in doubt, {len(evs) - y - d} no"

    true_moves = [e for e in truth["events"] if e["type"] == "move"]
    true_shots = [e for e in truth["events"] if e["type"] == "shot"]
    return [f"End to end (tracker → recorder, players accepting flagged moves): "
            f"{len(moves)} moves logged of {len(true_moves)} true "
            f"({sum(e['legal'] for e in true_moves)} legal): {count(moves)}; "
            f"{len(shots)} shots of {len(true_shots)} true hits: {count(shots)}; "
            f"log equals the truth: {la == ta}."], cpu


def report(name: str, e2e_too: bool) -> list[str]:
    """The measurements of one sequence, as Markdown lines."""
    folder = SEQ / name if (SEQ / name).is_dir() else Path(name)
    truth = json.loads((folder / "events.json").read_text())
    layout = TableLayout.from_dict(json.loads((folder / "layout.json").read_text()))
    cam = json.loads((folder / "camera.json").read_text())
    c0 = time.process_time()
    rows = detect_settled(folder, truth)
    cpu = time.process_time() - c0
    w, h = cam["image_size"]
    body = [f"### `{name}`", "",
            f"{truth['frame_count']} frames of {w}×{h} JPEG, "
            f"{sum(f['settled'] for f in truth['frames'])} settled; detection of the settled "
            f"frames {cpu:.0f} s CPU.", ""]
    body += [*error_table(rows), "", *averaging_table(rows), ""]
    body += ["Each true move judged by the rules from the tracker's views of it (the mover "
             "alone on the table; §4 tolerance 2 mm / 3°, §7 allowance 2·√(σa² + σb²) + "
             "0.25 mm with σ = σ_mm + s·σ_rad):", ""]
    body += moves_table(rows, truth, layout)
    if e2e_too:
        lines, cpu_e = e2e(folder, truth)
        body += ["", *lines, f"({cpu_e:.0f} s CPU.)"]
    return body


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sequence", action="append",
                    help="a folder of sample_images/sequences, or the path of one "
                         "(repeatable; default: demo and skirmish)")
    ap.add_argument("--e2e", action="store_true", help="also run tracker → recorder")
    ap.add_argument("--no-write", action="store_true", help="print, don't write the doc")
    args = ap.parse_args(argv)
    body = ["## Game log from video (`benchmarks/bench_gamelog_video.py`)", "",
            "Rendered sequences; truth: the renderer's events.json, never the detector.", ""]
    for name in args.sequence or ["demo", "skirmish"]:
        body += [*report(name, args.e2e), ""]
    text = "\n".join(body)
    if not args.no_write:
        print(f"wrote {write_section('gamelog-video', text)}")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
