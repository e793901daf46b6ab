"""``armada-vision adjudicate`` and ``zones`` through a real subprocess (interfaces.md)."""

from __future__ import annotations

import copy
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

# The scene of tests/test_scene.py (copied: test modules are not importable from each other
# under every pytest import mode).
GOOD = {
    "play_area": [[0, 0], [600, 0], [600, 600], [0, 600]],
    "ships": [
        {"id": "L1", "player": "A", "size": "large", "stern": [300, 300], "heading": 0,
         "damage": 0, "sigma_mm": 0.1, "sigma_deg": 0.2},
        {"id": "S1", "player": "B", "size": "small", "stern": [310, 340], "heading": 0},
    ],
    "objects": [{"id": "rock", "polygon": [[100, 100], [120, 100], [110, 120]]}],
    "queries": [{"shot": {"from": "L1", "target": "S1"}},
                {"move": {"ship": "S1", "to": {"stern": [336.385, 340], "heading": 0}}},
                {"setup": {}}],
}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "armada_vision", *args],
                          capture_output=True, text=True, timeout=120)


def write(tmp_path: Path, data: object, name: str = "scene.json") -> str:
    p = tmp_path / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")
    return str(p)


def test_good_scene_prints_one_result_per_query(tmp_path: Path) -> None:
    out = run("adjudicate", write(tmp_path, GOOD))
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)["results"]
    assert len(results) == len(GOOD["queries"])
    for r in results:
        assert {"verdict", "in_doubt", "reason", "margin_mm"} <= set(r)
        assert r["verdict"] in ("yes", "no")
    shot = results[0]
    assert shot["verdict"] == "yes" and shot["side"] == "port"
    assert len(shot["ruler"]) == 3 and shot["margin_mm"] > shot["allowance_mm"]
    assert shot["query"] == GOOD["queries"][0]


BAD = [
    ("heading", lambda d: d["ships"][1].update(heading="north"), "ships[1].heading"),
    ("missing play area", lambda d: d.pop("play_area"), "play_area"),
    ("unknown target", lambda d: d["queries"][0]["shot"].update(target="X"),
     "queries[0].shot.target"),
    ("bad size", lambda d: d["ships"][0].update(size="jumbo"), "ships[0].size"),
]


@pytest.mark.parametrize("name,mutate,field", BAD, ids=[b[0] for b in BAD])
def test_malformed_scene_one_line_naming_the_field(tmp_path: Path, name, mutate, field) -> None:
    d = copy.deepcopy(GOOD)
    mutate(d)
    out = run("adjudicate", write(tmp_path, d))
    assert out.returncode != 0
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and field in lines[0]
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("text,needle", [("{not json", "not valid JSON"), ("[1, 2]", "scene")])
def test_unreadable_files(tmp_path: Path, text: str, needle: str) -> None:
    out = run("adjudicate", write(tmp_path, text))
    assert out.returncode != 0 and needle in out.stderr and len(out.stderr.splitlines()) == 1
    missing = run("adjudicate", str(tmp_path / "nope.json"))
    assert missing.returncode != 0 and "no such file" in missing.stderr


def test_overlapping_ships_give_a_state_verdict_not_a_traceback(tmp_path: Path) -> None:
    d = copy.deepcopy(GOOD)
    d["ships"][1]["stern"] = [305, 300]
    out = run("adjudicate", write(tmp_path, d))
    assert out.returncode == 0, out.stderr
    results = json.loads(out.stdout)["results"]
    assert results[0]["verdict"] == "no" and results[0]["decided_by"] == "state"
    assert "overlap" in results[0]["reason"]


def test_example_readable_and_json() -> None:
    text = run("adjudicate", "--example")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("1. shot ") and "YES" in text.stdout
    js = run("adjudicate", "--example", "--json")
    assert js.returncode == 0
    assert len(json.loads(js.stdout)["results"]) == len(text.stdout.strip().splitlines())


def test_no_scene_and_no_example_is_an_error() -> None:
    out = run("adjudicate")
    assert out.returncode != 0 and "--example" in out.stderr


def test_zones_svg_is_drawn_to_scale(tmp_path: Path) -> None:
    """zones: the SVG parses, has a mm scale bar, and the ship's footprint measured against the
    bar has the size of §1 (a large's stern edge is 25.4 mm)."""
    import re
    import xml.etree.ElementTree as ET

    from armada_vision.rules.scene import load_example, scene_to_dict

    scene = write(tmp_path, scene_to_dict(load_example()))
    svg = tmp_path / "zones.svg"
    out = run("zones", scene, "--ship", "L1", "--svg", str(svg))
    assert out.returncode == 0, out.stderr
    root = ET.parse(svg).getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    bar_label = next(t for t in texts if t and t.endswith(" mm") and t.split()[0].isdigit())
    bar_mm = float(bar_label.split()[0])
    bar = next(r for r in root.iterfind(".//s:rect", ns) if r.get("height") == "6")
    k = float(bar.get("width")) / bar_mm
    footprints = [p for p in root.iterfind(".//s:path", ns)
                  if p.get("stroke") == "none" and p.get("fill-opacity") == "0.6"]
    assert len(footprints) == 5                          # every ship of the example
    pts = [tuple(map(float, m)) for m in re.findall(r"([\d.]+),([\d.]+)", footprints[0].get("d"))]
    stern_edge_px = math.dist(pts[0], pts[2])
    assert stern_edge_px / k == pytest.approx(25.4, abs=0.05)
    assert any("firing zone, port" in (t or "") for t in texts)
    assert any("one-step zone" in (t or "") for t in texts)


def test_zones_bad_ship_is_one_line(tmp_path: Path) -> None:
    out = run("zones", write(tmp_path, GOOD), "--ship", "Q7", "--svg", str(tmp_path / "z.svg"))
    assert out.returncode != 0 and "--ship" in out.stderr and len(out.stderr.splitlines()) == 1
    assert not (tmp_path / "z.svg").exists()


def test_scene_on_stdin() -> None:
    out = subprocess.run([sys.executable, "-m", "armada_vision", "adjudicate", "-"],
                         input=json.dumps(GOOD), capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["results"]) == len(GOOD["queries"])
    bad = subprocess.run([sys.executable, "-m", "armada_vision", "adjudicate", "-"],
                         input="{", capture_output=True, text=True, timeout=120)
    assert bad.returncode != 0 and "stdin" in bad.stderr
