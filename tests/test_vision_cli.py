"""The ``detect`` command through a subprocess: JSON per interfaces.md, overlays, and one-line
errors (never a traceback) for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from armada_vision.geometry.layout import standard_layout
from armada_vision.geometry.pose import Pose
from armada_vision.synth.io import write_scene
from armada_vision.synth.random_scene import fit_camera
from armada_vision.synth.render import render
from armada_vision.synth.scene import PieceSpec, SceneSpec


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "armada_vision", "detect", *args],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def scene_files(tmp_path_factory) -> dict[str, Path]:
    spec = SceneSpec(standard_layout(600, 600), fit_camera((1280, 720), (600, 600), 1000.0, 10.0),
                     (PieceSpec("large", "red", Pose(200, 250, 30)),
                      PieceSpec("small", "blue", Pose(400, 350, 120))), surface="wood")
    return write_scene(render(spec), tmp_path_factory.mktemp("scene"), "shot")


def test_json_output_follows_the_interface(scene_files, tmp_path):
    overlay = tmp_path / "over.png"
    out = _run(str(scene_files["image"]), "--layout", str(scene_files["layout"]), "--camera",
               str(scene_files["camera"]), "--json", "--overlay", str(overlay))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["image"] == "shot.png" and data["image_size"] == [1280, 720]
    assert data["calibration"]["markers_found"] == list(range(8))
    assert data["calibration"]["reprojection_error_px"] < 1.0
    truth = json.loads(scene_files["truth"].read_text())["pieces"]
    assert sorted(p["size"] for p in data["pieces"]) == sorted(t["size"] for t in truth)
    for t in truth:
        p = min(data["pieces"], key=lambda q: np.hypot(*np.subtract(q["stern"], t["stern"])))
        assert np.hypot(*np.subtract(p["stern"], t["stern"])) < 1.5
        assert np.hypot(*np.subtract(p["tip"], t["tip"])) < 1.5
        assert p["in_play_area"] is t["in_play_area"]
    img = cv2.imread(str(overlay))
    assert img is not None and img.shape == (720, 1280, 3)


def test_without_camera_file_it_still_works_and_says_estimated(scene_files):
    out = _run(str(scene_files["image"]), "--layout", str(scene_files["layout"]), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["calibration"]["intrinsics"] == "estimated"
    assert len(data["pieces"]) == 2


def _one_line_error(out: subprocess.CompletedProcess, *words: str) -> None:
    assert out.returncode != 0
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    for w in words:
        assert w in lines[0]


def test_unreadable_image(scene_files, tmp_path):
    bad = tmp_path / "not_an_image.png"
    bad.write_text("hello")
    _one_line_error(_run(str(bad), "--layout", str(scene_files["layout"])), "not a readable")
    _one_line_error(_run(str(tmp_path / "missing.png"), "--layout",
                         str(scene_files["layout"])), "no such file")


def test_no_markers_dark_and_blown_out(scene_files, tmp_path):
    cases = {"blank.png": (np.full((720, 1280, 3), 128, np.uint8), "markers"),
             "dark.png": (np.full((720, 1280, 3), 3, np.uint8), "too dark"),
             "white.png": (np.full((720, 1280, 3), 255, np.uint8), "blown out")}
    for name, (img, words) in cases.items():
        cv2.imwrite(str(tmp_path / name), img)
        _one_line_error(_run(str(tmp_path / name), "--layout", str(scene_files["layout"])),
                        words)


def test_bad_layout_and_camera_files(scene_files, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    _one_line_error(_run(str(scene_files["image"]), "--layout", str(broken)), "layout")
    cam = tmp_path / "cam.json"
    cam.write_text(json.dumps({"image_size": [1280, 720], "camera_matrix": [[1, 0]]}))
    _one_line_error(_run(str(scene_files["image"]), "--layout", str(scene_files["layout"]),
                         "--camera", str(cam)), "camera_matrix")
