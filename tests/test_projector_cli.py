"""``armada-vision projector``: pattern, calibrate and check on rendered photos; bad input is
one line on stderr and a non-zero exit."""

from __future__ import annotations

import json

import cv2
import pytest
from projector_sim import camera_image, make_rig

from armada_vision.cli import main
from armada_vision.vision.projector import (
    ProjectorCalibration,
    ProjectorPattern,
    find_pattern,
    mapping_error_mm,
)
from armada_vision.vision.types import VisionFailure


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    """Rendered photos of a rig: board on, projector off, board on after a 6 mm nudge."""
    d = tmp_path_factory.mktemp("projector")
    rig = make_rig(4)
    pat = ProjectorPattern.fit((1280, 800))
    paths = {}
    for name, r, img in (("on", rig, pat.image()), ("off", rig, None),
                         ("nudged", rig.moved(6.0), pat.image())):
        paths[name] = d / f"{name}.png"
        cv2.imwrite(str(paths[name]), camera_image(r, img, seed=4))
    paths["layout"] = d / "layout.json"
    paths["layout"].write_text(json.dumps(rig.layout.to_dict()))
    paths["camera"] = d / "camera.json"
    paths["camera"].write_text(json.dumps(rig.camera.intrinsics.to_dict()))
    return d, paths, rig


def test_pattern_writes_the_board(tmp_path, capsys) -> None:
    out = tmp_path / "p.png"
    assert main(["projector", "pattern", "--size", "1024x768", "-o", str(out)]) == 0
    img = cv2.imread(str(out))
    assert img.shape[:2] == (768, 1024)
    info = json.loads(capsys.readouterr().out)
    pat = ProjectorPattern.fit((1024, 768))
    assert info["square_px"] == pat.square_px
    assert not isinstance(find_pattern(img, pat), VisionFailure)


def test_calibrate_then_check_flags_a_moved_projector(photos, capsys) -> None:
    d, p, rig = photos
    cal_path = d / "projector.json"
    args = ["projector", "calibrate", str(p["on"]), "--off", str(p["off"]),
            "--layout", str(p["layout"]), "--camera", str(p["camera"]), "--size", "1280x800",
            "-o", str(cal_path)]
    assert main(args) == 0
    printed = json.loads(capsys.readouterr().out)
    cal = ProjectorCalibration.from_dict(json.loads(cal_path.read_text()))
    assert printed["points"] == cal.points >= 40
    assert mapping_error_mm(cal, rig.H_projector_from_table, rig.layout.play_area_mm)[0] <= 1.0

    base = ["--off", str(p["off"]), "--layout", str(p["layout"]), "--calibration", str(cal_path)]
    assert main(["projector", "check", str(p["on"]), *base]) == 0
    assert json.loads(capsys.readouterr().out)["moved"] is False
    assert main(["projector", "check", str(p["nudged"]), *base]) == 1
    assert json.loads(capsys.readouterr().out)["moved"] is True


def test_bad_input_is_one_line_naming_it(photos, capsys) -> None:
    d, p, _rig = photos
    (d / "broken.json").write_text("{not json")
    cases = [  # (argv, text the one-line error must contain)
        (["projector", "pattern", "--size", "big", "-o", str(d / "x.png")], "--size"),
        (["projector", "calibrate", str(d / "nope.png"), "--layout", str(p["layout"])],
         "no such file"),
        (["projector", "calibrate", str(p["layout"]), "--layout", str(p["layout"])],
         "not a readable image"),
        (["projector", "calibrate", str(p["on"]), "--layout", str(d / "broken.json")],
         "not valid JSON"),
        (["projector", "check", str(p["on"]), "--layout", str(p["layout"]),
          "--calibration", str(p["camera"])], "projector_size"),
        (["projector", "calibrate", str(p["off"]), "--off", str(p["off"]),
          "--layout", str(p["layout"])], "projected pattern"),
    ]
    for argv, text in cases:
        assert main(argv) != 0, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and text in err and "Traceback" not in err, (argv, err)


def test_simulate_reports_the_error_against_the_true_mapping(capsys) -> None:
    assert main(["projector", "simulate", "--seed", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["seed"] == 2 and out["points"] >= 40
    assert 0.0 < out["true_error_mean_mm"] <= 1.0
    assert out["true_error_max_mm"] >= out["true_error_mean_mm"]
    assert main(["projector", "simulate", "--gain", "5"]) == 2
    assert "--gain" in capsys.readouterr().err
