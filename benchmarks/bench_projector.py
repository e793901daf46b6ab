"""Projector benchmark → docs/benchmarks.md, section ``projector``.

All on rendered tables (``armada_vision.synth.render`` with projector light through a projector
pose we chose), so the truth is known:

1. calibration: how far the fitted table→projector mapping lands from the true one over the
   lit play area (target: ≤ 1 mm mean), its own residual, and its time;
2. zone edges: a one-step zone (§4) and a firing zone (§5) drawn with the fitted calibration,
   lit through the true pose, found in the camera image and mapped to the table (target:
   within 1.5 mm);
3. moved projector: the re-check residual of an unmoved and of a nudged projector;
4. detection with projection: ``vision.detect`` on frames with the selected ship's zones lit
   (with and without the 6 mm clearance round the ships) and on the blanked frame the capture
   handshake gives, against the renderer's truth and the vision targets;
5. the handshake itself in headless Chromium: request → page shows black → acknowledgement.

Run: ``python benchmarks/bench_projector.py [--quick]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import shapely

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from projector_sim import (  # noqa: E402
    camera_image,
    lit_edges_px,
    lit_region,
    make_rig,
    projector_over,
    with_projector,
)

from armada_vision.geometry.pieces import Size  # noqa: E402
from armada_vision.geometry.pose import Pose  # noqa: E402
from armada_vision.rules.config import DEFAULT_CONFIG  # noqa: E402
from armada_vision.rules.fire import firing_zones  # noqa: E402
from armada_vision.rules.step import step_zone  # noqa: E402
from armada_vision.rules.table import PlayArea, Ship, Table  # noqa: E402
from armada_vision.synth import render  # noqa: E402
from armada_vision.synth.random_scene import random_scene  # noqa: E402
from armada_vision.vision.calibrate import calibrate  # noqa: E402
from armada_vision.vision.detect import detect  # noqa: E402
from armada_vision.vision.projector import (  # noqa: E402
    H_image_from_table_pose,
    Overlay,
    ProjectorPattern,
    ProjectorStyle,
    calibrate_projector,
    check_projector,
    draw_overlays,
    mapping_error_mm,
)
from armada_vision.vision.types import VisionFailure  # noqa: E402
from armada_vision.web import referee  # noqa: E402
from armada_vision.web.projector import cut_out, overlays_from_zones  # noqa: E402
from benchmarks.report import verdict_line, write_section  # noqa: E402


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def bench_calibration(seeds: range) -> tuple[list[str], dict]:
    rows, errs, worst, resid, times = [], [], [], [], []
    cache = {}
    for seed in seeds:
        rig = make_rig(seed)
        pat = ProjectorPattern.fit(rig.projector.intrinsics.image_size)
        on = camera_image(rig, pat.image(), seed=seed)
        off = camera_image(rig, None, seed=seed)
        table = calibrate(off, rig.layout, rig.camera.intrinsics)
        t0 = time.perf_counter()
        cal = calibrate_projector(on, pat, table, image_off=off)
        times.append(time.perf_counter() - t0)
        if isinstance(cal, VisionFailure):
            rows.append(f"| {seed} | failed: {cal.reason} | | | |")
            continue
        mean, mx = mapping_error_mm(cal, rig.H_projector_from_table, lit_region(rig))
        errs.append(mean)
        worst.append(mx)
        resid.append(cal.residual_mean_mm)
        rows.append(f"| {seed} | {cal.points}/{cal.found} | {cal.residual_mean_mm:.3f} | "
                    f"{mean:.3f} | {mx:.3f} |")
        cache[seed] = (rig, pat, on, off, table, cal)
    lines = [
        "### 1. Calibration (900 × 600 mm table, 1920 × 1080 camera, 1280 × 800 projector, "
        "random projector height/tilt/yaw per seed; board on − board off frames)", "",
        "| seed | corners used/found | residual mean (mm) | true error mean (mm) | "
        "true error max (mm) |", "|---|---|---|---|---|", *rows, "",
        f"- true mapping error, mean over rigs: "
        f"{verdict_line(statistics.mean(errs), 1.0, 'mm')}; worst point {max(worst):.3f} mm",
        f"- `calibrate_projector` time: median {statistics.median(times) * 1e3:.0f} ms "
        f"(ChArUco detection on a 1920 × 1080 difference image + RANSAC)", ""]
    return lines, cache


def bench_edges(cache: dict) -> list[str]:
    white = ProjectorStyle(colors=(("step", "#ffffff"), ("firing", "#ffffff")),
                           brightness=1.0, fill_alpha=1.0, line_px=1.0, clear_mm=0.0)
    rows, all_miss = [], []
    for seed, (rig, _pat, _on, off, table, cal) in sorted(cache.items())[:4]:
        ship = Ship("S1", "A", Size.MEDIUM, Pose(430.0, 290.0, 37.0 * seed + 10.0))
        tab = Table(PlayArea(rig.layout.play_area_mm), (ship,))
        for rule, zone, layer in (
                ("§4 step zone", step_zone(tab, "S1", DEFAULT_CONFIG, resolution_deg=1.0), "step"),
                ("§5 firing zone", firing_zones(tab, "S1", DEFAULT_CONFIG)["starboard"],
                 "firing")):
            zone = max(getattr(zone, "geoms", [zone]), key=lambda g: g.area)
            rings = (tuple(zone.exterior.coords), *(tuple(r.coords) for r in zone.interiors))
            frame = draw_overlays([Overlay(layer, rings)], cal.H, cal.projector_size, white)
            lit = camera_image(rig, frame, seed=seed, gain=0.8)
            edge_mm = table.image_to_table(lit_edges_px(lit, off))
            miss = list(shapely.distance(shapely.points(edge_mm), zone.boundary))
            all_miss += miss
            rows.append(f"| {seed} | {rule} | {len(miss)} | {np.mean(miss):.3f} | "
                        f"{pct(miss, 95):.3f} | {max(miss):.3f} |")
    return [
        "### 2. Projected zone edges on the table", "",
        "Zone drawn with the fitted calibration, lit through the true pose, edge found at half "
        "the lit − dark step (¼ px), mapped with the table calibration, distance to the zone "
        "boundary:", "",
        "| seed | zone | edge points | mean (mm) | p95 (mm) | max (mm) |",
        "|---|---|---|---|---|---|", *rows, "",
        f"- worst edge point over all: {verdict_line(max(all_miss), 1.5, 'mm')}; "
        f"mean {np.mean(all_miss):.3f} mm", ""]


def bench_moved(cache: dict) -> list[str]:
    seed, (rig, pat, _on, off, table, cal) = sorted(cache.items())[0]
    rows = []
    for shift in (0.0, 1.0, 2.0, 5.0, 10.0):
        img = camera_image(rig.moved(shift) if shift else rig, pat.image(), seed=seed + 100)
        chk = check_projector(img, pat, table, cal, image_off=off)
        if isinstance(chk, VisionFailure):
            rows.append(f"| {shift:g} | {chk.reason} | | |")
            continue
        rows.append(f"| {shift:g} | {chk.residual_mean_mm:.3f} | {chk.threshold_mm:.2f} | "
                    f"{'yes' if chk.moved else 'no'} |")
    return ["### 3. Re-check: projector moved?", "",
            "| projector shifted (mm) | re-check residual mean (mm) | threshold (mm) | moved |",
            "|---|---|---|---|", *rows, ""]


def _match(det, truth) -> tuple[list[tuple[float, float, float, bool]], int, int]:
    found, missed = [], 0
    used = set()
    for p in truth["pieces"]:
        if not p["fully_visible"]:
            continue
        near = [(float(np.hypot(d.pose.x_mm - p["stern"][0], d.pose.y_mm - p["stern"][1])), i)
                for i, d in enumerate(det.pieces) if i not in used]
        if not near or min(near)[0] > 10.0:
            missed += 1
            continue
        e, i = min(near)
        used.add(i)
        d = det.pieces[i]
        found.append((e, float(np.hypot(d.tip_mm[0] - p["tip"][0], d.tip_mm[1] - p["tip"][1])),
                      abs((d.pose.heading_deg - p["heading"] + 180.0) % 360.0 - 180.0),
                      d.size.value == p["size"]))
    return found, missed, len(det.pieces) - len(used)


def bench_detection(seeds: range) -> list[str]:
    variants = ("projector off", "blanked by the handshake", "zones lit, 6 mm clearance",
                "zones lit, no clearance")
    acc = {v: {"found": [], "missed": 0, "extra": 0, "truth": 0} for v in variants}
    for seed in seeds:
        spec = random_scene(seed)
        proj = projector_over(spec.table_extent_mm(), seed)
        H = H_image_from_table_pose(proj.intrinsics.K, proj.rvec, proj.tvec)
        truth = render(spec).truth
        lying = [p for p in spec.pieces if not p.upright]
        ships = tuple(Ship(f"s{i}", "A" if p.size == Size.LARGE else "B", p.size, p.pose)
                      for i, p in enumerate(lying))
        table = Table(PlayArea(spec.layout.play_area_mm), ships)
        zones = overlays_from_zones(referee.zones(table, "s0", DEFAULT_CONFIG))
        keep = shapely.union_all([s.silhouette(DEFAULT_CONFIG) for s in ships])
        off = render(replace(spec, projector=None)).image_bgr
        frames = {"projector off": off,
                  # the handshake's frame is captured after the page showed black: no light
                  "blanked by the handshake": render(with_projector(
                      spec, proj, np.zeros((800, 1280, 3), np.uint8))).image_bgr}
        for name, ovs in (("zones lit, 6 mm clearance", cut_out(zones, keep.buffer(6.0))),
                          ("zones lit, no clearance", zones)):
            img = draw_overlays(ovs, H, proj.intrinsics.image_size, ProjectorStyle())
            frames[name] = render(with_projector(spec, proj, img)).image_bgr
        for name, frame in frames.items():
            det = detect(frame, spec.layout, spec.camera.intrinsics)
            a = acc[name]
            a["truth"] += sum(p["fully_visible"] for p in truth["pieces"])
            if isinstance(det, VisionFailure):
                a["missed"] += sum(p["fully_visible"] for p in truth["pieces"])
                continue
            found, missed, extra = _match(det, truth)
            a["found"] += found
            a["missed"] += missed
            a["extra"] += extra
    rows = []
    for name in variants:
        a = acc[name]
        f = a["found"]
        st, tp, hd = ([x[i] for x in f] for i in range(3))
        recall = len(f) / max(a["truth"], 1)
        precision = len(f) / max(len(f) + a["extra"], 1)
        rows.append(
            f"| {name} | {recall:.1%} | {precision:.1%} | "
            f"{sum(x[3] for x in f) / max(len(f), 1):.1%} | "
            f"{pct(st, 50):.2f} / {pct(st, 95):.2f} | {pct(tp, 50):.2f} / {pct(tp, 95):.2f} | "
            f"{pct(hd, 50):.2f} / {pct(hd, 95):.2f} |")
    return [
        f"### 4. Detection with the projection on ({len(seeds)} random scenes, "
        "`synth.random_scene` seeds "
        f"{seeds.start}–{seeds.stop - 1}, the first ship's step/reach/firing zones lit, "
        "default style)", "",
        "| frame | recall | precision | size right | stern err median / p95 (mm) | "
        "tip err median / p95 (mm) | heading err median / p95 (°) |",
        "|---|---|---|---|---|---|---|", *rows, "",
        "Vision targets: recall and precision ≥ 99.5 %, stern/tip median ≤ 0.5 mm and p95 ≤ "
        "1.5 mm, heading median ≤ 0.5° and p95 ≤ 1.5°. The blanked frame is the same image as "
        "the projector-off frame (the renderer adds no light for a black projector frame), so "
        "detection on it is exactly the detector's own accuracy; lit frames are what the "
        "detector would see without the handshake.", ""]


def bench_handshake(n: int) -> list[str]:
    import os
    import shutil
    import socket

    chromium = "/usr/bin/chromium"
    if not (os.path.exists(chromium) and shutil.which(chromium)):
        return ["### 5. Capture handshake", "", f"Not measured: {chromium} is missing.", ""]
    import uvicorn
    from fastapi import FastAPI
    from playwright.sync_api import sync_playwright

    from armada_vision.web.projector import controller_for, router

    app = FastAPI()
    app.include_router(router)
    ctrl = controller_for(app)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    while not srv.started:
        time.sleep(0.05)
    blank, back = [], []
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=chromium, headless=True,
                                  args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = b.new_context(viewport={"width": 1280, "height": 800}).new_page()
            page.goto(f"http://127.0.0.1:{port}/projector")
            page.wait_for_function("frame !== null", timeout=20000)
            for _ in range(n):
                t0 = time.time()
                t = ctrl.request_mode("blank", 5.0)
                if t is not None:
                    blank.append(t - t0)
                t0 = time.time()
                t = ctrl.request_mode("overlays", 5.0)
                if t is not None:
                    back.append(t - t0)
            b.close()
    finally:
        srv.should_exit = True
        th.join(10)
    ms = [v * 1e3 for v in blank]
    return ["### 5. Capture handshake (headless Chromium, loopback)", "",
            f"Request → page draws black → two animation frames → acknowledgement: median "
            f"{statistics.median(ms):.0f} ms, p95 {pct(ms, 95):.0f} ms over {len(ms)} requests "
            f"({n - len(ms)} timed out); back to the zones: median "
            f"{statistics.median(back) * 1e3:.0f} ms. A real projector adds its own input lag "
            "and the camera its exposure: the pipeline takes the first frame captured after the "
            "acknowledgement plus that lag.", ""]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer rigs and scenes")
    args = ap.parse_args()
    n_rigs, n_scenes, n_hs = (3, 2, 5) if args.quick else (8, 6, 20)
    t0 = time.perf_counter()
    lines, cache = bench_calibration(range(n_rigs))
    lines += bench_edges(cache)
    lines += bench_moved(cache)
    lines += bench_detection(range(n_scenes))
    lines += bench_handshake(n_hs)
    lines.append(f"Total run time {time.perf_counter() - t0:.0f} s.")
    body = "## Projector (`benchmarks/bench_projector.py`)\n\n" + "\n".join(lines)
    print(body)
    write_section("projector", body)


if __name__ == "__main__":
    main()
