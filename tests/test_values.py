"""Value types: text forms that parse back, validation that names the field, doubt (§7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armada_vision.geometry import Pose, Size
from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout, standard_layout
from armada_vision.rules import DEFAULT_CONFIG, Obstacle, PlayArea, Ship, Table, Verdict
from armada_vision.rules.doubt import allowance_mm, in_doubt, piece_sigma_mm

ids = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", min_size=1, max_size=6)
num = st.floats(-1000, 1000, allow_nan=False)
pos = st.floats(0, 5, allow_nan=False)


@settings(max_examples=150)
@given(ids, ids, st.sampled_from(list(Size)), num, num, num, st.integers(0, 3), pos, pos)
def test_ship_text_round_trips(sid, player, size, x, y, h, dmg, smm, sdeg) -> None:
    s = Ship(sid, player, size, Pose(x, y, h), dmg, smm, sdeg, "red")
    assert Ship.parse(str(s)) == s


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"id": ""}, "id"),
        ({"id": "a b"}, "id"),
        ({"player": ""}, "player"),
        ({"size": "huge"}, "size"),
        ({"damage": -1}, "damage"),
        ({"damage": 1.5}, "damage"),
        ({"sigma_mm": -0.1}, "sigma_mm"),
        ({"sigma_deg": float("nan")}, "sigma_deg"),
    ],
)
def test_ship_validation_names_the_field(kwargs: dict, field: str) -> None:
    base = {"id": "L1", "player": "A", "size": "large", "pose": Pose(0, 0, 0)}
    with pytest.raises(ValueError, match=field):
        Ship(**{**base, **kwargs})


def test_ship_parse_errors_name_the_field() -> None:
    with pytest.raises(ValueError, match="x_mm"):
        Ship.parse("ship id=L1 player=A size=large y_mm=0 heading_deg=0")
    with pytest.raises(ValueError, match="damage"):
        Ship.parse("ship id=L1 player=A size=large x_mm=0 y_mm=0 heading_deg=0 damage=x")


def test_table_is_immutable_and_returns_new_states() -> None:
    area = PlayArea.rectangle(0, 0, 600, 600)
    a = Ship("A1", "A", "small", Pose(100, 100, 0))
    t = Table(area, (a,))
    t2 = t.replace_ship(a.with_damage(1))
    assert t.ship("A1").damage == 0 and t2.ship("A1").damage == 1
    assert not t.without_ship("A1").has_ship("A1") and t.has_ship("A1")
    with pytest.raises(ValueError, match="used twice"):
        Table(area, (a, a))
    with pytest.raises(ValueError, match=r"objects\.rock"):
        Obstacle("rock", ((0, 0), (1, 1), (2, 2)))


# §7: allowance = 2·√(σa² + σb²) + floor; σ = sigma_mm + s · sigma_deg (radians)
DOUBT_CASES = [
    ("§7 exact pieces: floor only", [0.0, 0.0], 0.25, 0.25),
    ("§7 one piece", [0.5, 0.0], 0.25, 1.25),
    ("§7 two pieces", [0.3, 0.4], 0.25, 1.25),
    ("§7 floor configurable", [0.3, 0.4], 0.0, 1.0),
]


@pytest.mark.parametrize("name,sigmas,floor,expected", DOUBT_CASES, ids=[c[0] for c in DOUBT_CASES])
def test_doubt_allowance(name, sigmas, floor, expected) -> None:
    assert allowance_mm(sigmas, floor) == pytest.approx(expected)


def test_ship_sigma_includes_heading_swing_over_its_length() -> None:
    s = Ship("L1", "A", "large", Pose(0, 0, 0), sigma_mm=0.2, sigma_deg=1.0)
    expected = piece_sigma_mm(0.2, 1.0, DEFAULT_CONFIG.pieces.large.footprint_length_mm)
    assert s.sigma_total_mm(DEFAULT_CONFIG) == pytest.approx(expected)
    assert expected == pytest.approx(0.2 + 46.229 * 0.0174533, abs=1e-3)


@settings(max_examples=300)
@given(st.booleans(), st.floats(-10, 10, allow_nan=False), st.floats(0, 5, allow_nan=False))
def test_a_verdict_is_never_yes_inside_the_allowance(geometric_yes, margin, allowance) -> None:
    """§7: never yes on a margin not larger than the allowance; a near miss is in doubt too."""
    v = Verdict.decide(geometric_yes, "x", decided_by="range", margin_mm=margin,
                       allowance_mm=allowance)
    assert v.in_doubt == in_doubt(margin, allowance)
    if abs(margin) <= allowance:
        assert not v.yes and v.in_doubt
    else:
        assert v.yes == geometric_yes
    assert v.to_json()["verdict"] in ("yes", "no")


def test_verdict_refuses_yes_in_doubt() -> None:
    with pytest.raises(ValueError, match="never yes"):
        Verdict(True, True, "r", "range")


def test_layout_parsing_names_the_bad_field() -> None:
    good = standard_layout(900, 600).to_dict()
    assert TableLayout.from_dict(good) == standard_layout(900, 600)
    cases = [
        ({**good, "dictionary": 7}, "dictionary"),
        ({**good, "markers": good["markers"][:3]}, "at least 4 markers"),
        ({**good, "markers": [{**good["markers"][0], "size": -5}, *good["markers"][1:]]},
         r"markers\[0\].size"),
        ({**good, "markers": [{**good["markers"][0], "center": [1]}, *good["markers"][1:]]},
         r"markers\[0\].center"),
        ({**good, "play_area": [[0, 0]]}, "play_area"),
    ]
    for data, match in cases:
        with pytest.raises(ValueError, match=match):
            TableLayout.from_dict(data)


def test_marker_corners_follow_the_interface_convention() -> None:
    """interfaces.md: rotation 0 puts OpenCV's top-left corner at (cx − s/2, cy + s/2)."""
    m = standard_layout(600, 600).markers[0]
    c = m.corners_mm()
    cx, cy = m.center_mm
    h = m.size_mm / 2
    assert c.tolist() == [[cx - h, cy + h], [cx + h, cy + h], [cx + h, cy - h], [cx - h, cy - h]]


def test_camera_file_validation() -> None:
    good = {"image_size": [1920, 1080], "camera_matrix": [[1000, 0, 960], [0, 1000, 540],
            [0, 0, 1]], "dist_coeffs": [0.1, 0, 0, 0, 0]}
    cam = CameraIntrinsics.from_dict(good)
    assert CameraIntrinsics.from_dict(cam.to_dict()) == cam
    for key, bad in [("image_size", [1920]), ("camera_matrix", [[1, 2]]), ("dist_coeffs", [1])]:
        with pytest.raises(ValueError, match=key):
            CameraIntrinsics.from_dict({**good, key: bad})
