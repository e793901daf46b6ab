"""Named regression cases for pieces the detector used to lose, each a scene of the vision
benchmark (``benchmarks/bench_vision.py``, seeds 1000–1035) re-rendered here; the truth is the
renderer's, never the detector's. One case per failure class fixed (docs/vision.md, "What
was lost and why")."""

from __future__ import annotations

import json
import math
from functools import cache

import cv2
import numpy as np
import pytest
from vision_helpers import match, pair, scene_spec, uses_camera

from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.geometry.shapes import footprint
from armada_vision.synth.render import Rendered, render
from armada_vision.vision.detect import detect
from armada_vision.vision.jpeg import COARSE_COLOUR_RATIO, colour_detail
from armada_vision.vision.scene import GOOD_COST, MAX_COST
from armada_vision.vision.types import Detections


def bench_scene(seed: int, seed0: int = 1000) -> tuple[Rendered, Detections]:
    """Scene ``seed`` of the vision benchmark run from ``seed0`` (same parameters as its
    ``rendered_scenes``) and its detections, rendered and detected once per test process."""
    # One cache key per scene: a cache on this function itself keys ``bench_scene(1026)`` and
    # ``bench_scene(1026, 1000)`` apart, and rendered and detected such a scene twice.
    return _bench_scene(seed, seed0)


@cache
def _bench_scene(seed: int, seed0: int) -> tuple[Rendered, Detections]:
    r = render(scene_spec(seed, seed0)[0])
    det = detect(r.image_bgr, r.layout, r.camera if uses_camera(seed, seed0) else None)
    assert isinstance(det, Detections)
    return r, det


def assert_no_false_piece(seed: int, seed0: int) -> None:
    """Scene ``seed`` of the run from ``seed0`` has no false piece (bench_vision's match)."""
    r, det = bench_scene(seed, seed0)
    assert not any("false" in m for m in match(r.truth, det).misses)


def assert_read_standing(seed: int, seed0: int) -> None:
    """Scene ``seed`` of the run from ``seed0``: its one upright piece is read standing within
    3 mm of its place (table mm), at its size and colour, and no lying reading's stern lies
    within 15 mm of it."""
    r, det = bench_scene(seed, seed0)
    (up,) = r.truth["upright"]
    assert all(math.dist(p.pose.stern_mm, up["center"]) > 15 for p in det.pieces)
    (u,) = [u for u in det.upright if math.dist(u.center_mm, up["center"]) < 3]
    assert (u.size.value, u.color) == (up["size"], up["color"])


def found(seed: int, size: str, color: str, stern_mm: tuple[float, float], seed0: int = 1000):
    """The detection matched to the truth piece of ``size`` and ``color`` whose stern is
    within 2 mm of ``stern_mm`` (table mm), or None if it was missed."""
    r, det = bench_scene(seed, seed0)
    truth = [p for p in r.truth["pieces"] if p["size"] == size and p["color"] == color
             and math.dist(p["stern"], stern_mm) < 2.0]
    assert len(truth) == 1, "the case's piece is not in the scene as rendered"
    # Paired as bench_vision's match() pairs: by footprint overlap.
    best = pair(truth[0], [footprint(p.pose, NOMINAL_PIECES.dims(p.size)) for p in det.pieces])
    return None if best is None else det.pieces[best]


def assert_kept_trusted(seed: int, seed0: int, size: str, color: str,
                        stern_mm: tuple[float, float], within_mm: float | None = None,
                        named: bool = False) -> None:
    """A right reading a rule must leave alone: the piece of ``size`` and ``color`` at
    ``stern_mm`` (table mm) found at its size, trusted (σ ≤ 1.5 mm), its stern within
    ``within_mm`` when given, and named ``color`` when ``named``."""
    p = found(seed, size, color, stern_mm, seed0=seed0)
    assert p is not None and p.size.value == size and p.sigma_mm <= 1.5
    if within_mm is not None:
        assert math.dist(p.pose.stern_mm, stern_mm) <= within_mm
    if named:
        assert p.color == color


def _clear_read_at(seed0: int, seed: int, size: str, stern: tuple[float, float],
                   heading: float, within: float):
    """The clear reading of ``seed``'s ``size`` near ``stern`` (table mm), asserted found at its
    size with stern and tip within ``within`` mm of the pose (``stern``, ``heading``)."""
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "clear"
    assert math.dist(p.pose.stern_mm, stern) < within
    length = NOMINAL_PIECES.dims(Size(size)).footprint_length_mm
    assert math.dist(p.tip_mm, Pose(*stern, heading).tip_mm(length)) < within
    return p


def assert_clear_read_at_size_in_doubt(seed: int, seed0: int, size: str,
                                       stern_mm: tuple[float, float]) -> None:
    """The clear piece of ``size`` at ``stern_mm`` (table mm) is read clear at its size, in
    doubt (σ > 1.5 mm: its size set by a strip's shade, not fitted), within the rules'
    allowance of the truth, and the scene holds no false piece."""
    p = found(seed, size, "clear", stern_mm, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "clear"
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(seed, seed0, size, "clear", stern_mm, any_size=True)
    assert_no_false_piece(seed, seed0)


def assert_white_read_from_edges(seed: int, seed0: int, size: str,
                                 stern_mm: tuple[float, float]) -> None:
    """The white piece of ``size`` at ``stern_mm`` (table mm) is read white at its size within
    3 mm, in doubt (σ > 1.5 mm: its place from the crisp edges, not fitted on the map, is never
    trusted), and the scene holds no false piece."""
    p = found(seed, size, "white", stern_mm, seed0=seed0)
    assert p is not None and p.color == "white" and p.size.value == size
    assert math.dist(p.pose.stern_mm, stern_mm) < 3.0
    assert p.sigma_mm > 1.5
    assert_no_false_piece(seed, seed0)


def assert_no_sure_wrong_size(seed: int, seed0: int, size: str, color: str,
                              stern_mm: tuple[float, float], any_size: bool = False) -> None:
    """The truth piece of ``size`` and ``color`` at ``stern_mm`` (table mm) is found, and if
    at a wrong size (or at any size with ``any_size``), its worse end lies within 2σ of the
    renderer's truth, σ as the rules use it (rules.md §7: σ_mm + length × σ_rad): the rules
    answer "in doubt", not a wrong yes."""
    from armada_vision.geometry.pieces import NOMINAL_PIECES

    p = found(seed, size, color, stern_mm, seed0=seed0)
    assert p is not None
    if p.size.value != size or any_size:
        r, _det = bench_scene(seed, seed0)
        truth = min(r.truth["pieces"], key=lambda t: math.dist(t["stern"], stern_mm))
        s_rules = p.sigma_mm + NOMINAL_PIECES.dims(p.size).footprint_length_mm * math.radians(
            p.sigma_deg)
        worse = max(math.dist(p.pose.stern_mm, truth["stern"]), math.dist(p.tip_mm, truth["tip"]))
        assert worse <= 2 * s_rules, (
            f"read {p.size.value}, σ {p.sigma_mm:.1f} mm, {worse:.1f} mm off")


def assert_set_at_size(seed: int, seed0: int, size: str, color: str,
                       stern_mm: tuple[float, float]) -> None:
    """The piece of ``size`` and ``color`` at ``stern_mm`` (table mm), read short before, is
    read at its size and named ``color``, in doubt (σ > 1.5 mm: its size from what lies past
    the short reading, its place set, not fitted), within 2σ of the truth."""
    p = found(seed, size, color, stern_mm, seed0=seed0)
    assert p is not None and p.color == color and p.size.value == size
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(seed, seed0, size, color, stern_mm, any_size=True)


def assert_named(seed: int, seed0: int, size: str, color: str,
                 stern_mm: tuple[float, float]) -> None:
    """The truth piece of ``size`` and ``color`` at ``stern_mm`` (table mm) is found and named
    ``color``, with no sure wrong size and no false piece in the scene."""
    p = found(seed, size, color, stern_mm, seed0=seed0)
    assert p is not None and p.color == color
    assert_no_sure_wrong_size(seed, seed0, size, color, stern_mm)
    assert_no_false_piece(seed, seed0)


def assert_clear_found_in_doubt(seed: int, seed0: int, size: str,
                                stern_mm: tuple[float, float]) -> None:
    """The clear truth piece of ``size`` at ``stern_mm`` (table mm) is found, named clear, with
    σ over the rules' 1.5 mm (in doubt), and at any size within 2σ of the renderer's truth."""
    assert_no_sure_wrong_size(seed, seed0, size, "clear", stern_mm, any_size=True)
    p = found(seed, size, "clear", stern_mm, seed0=seed0)
    assert p.color == "clear" and p.sigma_mm > 1.5


# A dull piece touching a glaring one: the fit map is scaled per region, and the glaring
# piece's score used to push the dull one below the edge level (FG_CAP).
@pytest.mark.parametrize("seed, size, color, stern", [
    (1001, "small", "purple", (345.8, 421.2)),   # against a yellow small
    (1034, "small", "cyan", (368.4, 328.0)),     # against a large orange
])
def test_a_dull_piece_touching_a_glaring_one_is_found(seed, size, color, stern):
    p = found(seed, size, color, stern)
    assert p is not None
    assert p.size.value == size
    assert math.dist(p.pose.stern_mm, stern) < 3 * p.sigma_mm + 0.5


def test_a_standing_piece_in_its_own_shadow_is_not_a_doubtful_lying_one():
    r, det = bench_scene(1035)
    (up,) = r.truth["upright"]
    assert all(math.dist(p.pose.stern_mm, up["center"]) > 30 for p in det.pieces)
    assert any(math.dist(u.center_mm, up["center"]) < 10 for u in det.upright)


# Colour: clear plastic is the table's hue with less of its colour; black may be a glossy grey.
@pytest.mark.parametrize("seed, size, color, stern", [
    (1006, "small", "black", (288.7, 457.6)),    # glossy, lighter than "dark" on laminate
    (1027, "small", "green", (416.0, 467.5)),    # on green felt: same hue, not clear
    (1029, "small", "clear", (270.0, 432.2)),    # on wood, lit brighter than the table
    (1030, "medium", "clear", (508.5, 287.0)),   # on dark cloth, as dark as black plastic
])
def test_colour_is_named_against_the_table_under_it(seed, size, color, stern):
    p = found(seed, size, color, stern)
    assert p is not None
    assert p.color == color


# Black and white by their brightest faces (a median may be the open base's shade, or a glossy
# black face as grey as a dark cloth); scenes of the benchmark run from seed 1036.
@pytest.mark.parametrize("seed, size, color, stern", [
    (1056, "large", "black", (486.4, 485.4)),    # glossy grey face on blue cloth
    (1062, "large", "white", (445.8, 422.5)),    # open base filling the inside, on felt
])
def test_black_and_white_by_their_brightest_faces(seed, size, color, stern):
    p = found(seed, size, color, stern, seed0=1036)
    assert p is not None
    assert p.color == color


# A piece touching a hand's region (the hand's colour bleeds into the table estimate round
# it, so the piece's region runs into the arm's and off the view): taken at its sharp tip.
@pytest.mark.parametrize("seed, size, color, stern", [
    (1007, "large", "orange", (322.0, 255.4)),
    (1017, "large", "blue", (181.6, 165.5)),
])
def test_a_piece_beside_a_hand_is_found_with_an_honest_sigma(seed, size, color, stern):
    p = found(seed, size, color, stern)
    assert p is not None
    assert p.color == color
    # Its stern may be lost in the hand's region: then σ covers the longer reading.
    err = math.dist(p.pose.stern_mm, stern)
    assert err <= 1.0 or p.sigma_mm >= err / 2


def test_a_piece_beside_a_hand_whose_stern_is_seen_is_read_at_its_full_length():
    """Issue 4, size: seed 1017's blue large lies whole beside a hand, but on the fit map
    (scaled to the hand's region) its stern was hidden, and all three sizes fitted its tip
    equally well: the medium won and σ covered the large (11.5 mm off). Its stern edge is a
    step in the view's brightness (its open base against the table), the medium's crosses a
    face: the large is taken (explain._hidden_length)."""
    stern = (181.6, 165.5)
    p = found(1017, "large", "blue", stern)
    assert p is not None
    assert p.size.value == "large"
    assert math.dist(p.pose.stern_mm, stern) <= 2 * p.sigma_mm


def test_a_piece_beside_a_hand_seen_whole_at_its_length_is_read_at_it():
    """Issue 4, size (check seed 1038): a purple medium beside a finger was read clean at its
    tip as a small (cost 0.145, its stern hidden against the rest of the piece), σ covering
    the medium (11.7 mm off). The medium from the same tip is a good fit with 3 % of its
    outline hidden, but its stern lies against the finger's shadow, as dark as its open base,
    so no brightness step shows there: it is taken as seen whole on the fit map."""
    stern = (322.2, 276.78)
    p = found(1038, "medium", "purple", stern, 1036)
    assert p is not None
    assert p.size.value == "medium"
    assert math.dist(p.pose.stern_mm, stern) <= 1.0


# Doubtful fits that were noise: on a finger whose region the fit leaves mostly unexplained
# (seed 1002), on speckle round an arm's shadow (seed 1008) and on a glint strip beside a
# yellow piece (seed 1025), both partly table inside.
@pytest.mark.parametrize("seed, where", [(1002, (316.0, 232.0)), (1008, (307.0, 148.0)),
                                         (1025, (481.0, 221.0))])


def test_no_piece_is_read_into_a_finger_or_speckle(seed, where):
    r, det = bench_scene(seed)
    assert all(math.dist(p.pose.stern_mm, where) > 5 for p in det.pieces)
    assert not any("false" in m for m in match(r.truth, det).misses)


# A good fit inside a finger (issue 4; tuning seeds 1341: cost 0.31, saturation 105; 1241: a
# thumb, cost 0.13, saturation 111, over the skin rule's limit): the skin goes on past the
# fit's outline, where a piece ends. The real warm pieces of the scene are still found.
@pytest.mark.parametrize("seed", [1341, 1241])
def test_no_piece_is_read_inside_a_finger_where_the_skin_goes_on_past_it(seed):
    r, det = bench_scene(seed, 1144)
    t = match(r.truth, det)
    assert not any("false" in m for m in t.misses)
    assert any(p["color"] in ("red", "orange", "yellow") for p in r.truth["pieces"])
    assert not any("missed" in m and any(c in m for c in ("red", "orange", "yellow"))
                   for m in t.misses)


# A clear piece only darkens the table, like a shadow, and the table estimate used to take it
# in. Its crisp outline encloses it (a shadow's penumbra does not), so its darkening counts
# (segment.foreground). Its fit is rough (its own shadow and a lit face darkening little):
# σ must cover the error, as the rules' doubt allowance reads it.
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1015, 1000, "medium", (437.1, 250.9)),   # on laminate beside a white piece
    (1015, 1000, "small", (358.9, 212.3)),
    (1057, 1036, "medium", (131.5, 281.6)),
])
def test_a_clear_piece_that_only_darkens_the_table_is_found(seed, seed0, size, stern):
    clear_piece_found(seed, seed0, size, stern)


# A clear piece on dark wood lit above it (issue 4): its wall's own colourless reflection
# over the darkened wood lifts it to ×1.12 the wood (seed 1327's medium; 1690's and 1692's
# smalls ×1.25 and ×1.13), over the desaturated pass's old top (×1.1). Areas up to GREY_LIT
# are fitted now, a piece read in one kept only when named clear.
def test_a_clear_piece_lit_above_dark_wood_is_found():
    p = clear_piece_found(1327, 1144, "medium", (435.8, 250.5))
    # Its soft ends: σ covers them (crisp.SNUG_END_MM).
    assert p.sigma_mm >= 2.0


# A clear piece on felt (issue 4): it keeps ~0.6 of the felt's saturation, and the smoothed
# ratio crossed the desaturated mask's fixed cut (0.9) ~1 px outside its outline all round,
# so its true pose cost 0.42 on the area. Each area is now cut at its own edge level, midway
# between its median ratio and the table's (segment.grey_at_mid).
def test_a_clear_piece_on_felt_is_cut_at_its_own_edge_level():
    clear_piece_found(1901, 1648, "medium", (214.9, 372.9))


def clear_piece_found(seed: int, seed0: int, size: str, stern: tuple[float, float]):
    """The clear piece of ``size`` whose true stern is ``stern`` (table mm), found with its
    size and colour right and its stern within 2σ of the truth; returned."""
    return piece_found(seed, seed0, size, "clear", stern)


def piece_found(seed: int, seed0: int, size: str, color: str, stern: tuple[float, float],
                sigmas: float = 2.0, slack_mm: float = 0.0):
    """The piece of ``size`` and ``color`` whose true stern is ``stern`` (table mm), found with
    its size and colour right and its stern within ``sigmas`` σ (+ ``slack_mm``) of the
    truth; returned."""
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None
    assert p.size.value == size
    assert p.color == color
    assert math.dist(p.pose.stern_mm, stern) <= sigmas * p.sigma_mm + slack_mm
    return p


def truth_in_view(seed: int, color: str, size: str,
                  stern: tuple[float, float] | None = None):
    """The rendered scene of ``seed``, its one true piece of ``color`` and ``size`` (truth from
    the renderer; the one whose stern is within 2 mm of ``stern`` when given), the top-down
    view through the calibration, its foreground score and table estimate, and the piece's
    true footprint (table mm)."""
    from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
    from armada_vision.geometry.pose import Pose
    from armada_vision.geometry.shapes import footprint
    from armada_vision.vision.calibrate import calibrate
    from armada_vision.vision.segment import foreground, make_rectifier

    r, _det = bench_scene(seed)
    (truth,) = [p for p in r.truth["pieces"] if p["color"] == color and p["size"] == size
                and (stern is None or math.dist(p["stern"], stern) < 2.0)]
    cal = calibrate(r.image_bgr, r.layout, r.camera)
    view = make_rectifier(cal, r.layout).view(r.image_bgr)
    score, bg = foreground(view)
    fp = footprint(Pose(*truth["stern"], truth["heading"]), NOMINAL_PIECES.dims(Size(size)))
    return r, truth, view, score, bg, fp


def test_a_clear_piece_scores_as_object_inside_its_footprint():
    _r, _truth, view, score, _bg, fp = truth_in_view(1015, "clear", "small")
    # The footprint shrunk by 1 mm (blur at its edges), sampled on its inside.
    inner = fp.buffer(-1.0)
    px = view.grid.to_px(np.asarray(inner.exterior.coords))
    mask = np.zeros(score.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
    inside = score[mask.astype(bool)]
    # The blob threshold is 2: most of the piece must clear it (it scored 0.1–0.7 before).
    assert np.median(inside) > 2.0


# A white piece on a laminate as bright as its faces: only its open base scored, and the region
# was the base alone. Its crisp outline encloses it; the enclosed area's pixels not darker than
# the table (its lit faces, not its shadow) now count as object (segment.foreground, PALE_*).
# Its fit is rough (a face in the table's colour on one side): σ must cover the error. Size
# is not asserted: 1015's reads as a small (σ 12 mm covers it).
@pytest.mark.parametrize("seed, size, stern", [
    (1004, "medium", (453.2, 318.0)),
    (1015, "medium", (469.7, 257.8)),
])
def test_a_white_piece_on_a_table_of_its_brightness_is_found(seed, size, stern):
    p = found(seed, size, "white", stern)
    assert p is not None
    # Its open base fills the footprint's middle: named by its bright faces (colors.py).
    assert p.color == "white"
    assert math.dist(p.pose.stern_mm, stern) <= 2 * p.sigma_mm


def test_a_white_pieces_lit_faces_score_as_object():
    from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
    from armada_vision.geometry.pose import Pose
    from armada_vision.geometry.shapes import footprint
    from armada_vision.vision.calibrate import calibrate
    from armada_vision.vision.segment import foreground, make_rectifier

    r, _det = bench_scene(1004)
    (truth,) = [p for p in r.truth["pieces"] if p["color"] == "white"]
    cal = calibrate(r.image_bgr, r.layout, r.camera)
    view = make_rectifier(cal, r.layout).view(r.image_bgr)
    score, _bg = foreground(view)
    fp = footprint(Pose(*truth["stern"], truth["heading"]), NOMINAL_PIECES.dims(Size.MEDIUM))
    px = view.grid.to_px(np.asarray(fp.buffer(-1.0).exterior.coords))
    mask = np.zeros(score.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
    inside = score[mask.astype(bool)]
    # The blob threshold is 2: before, only the open base and rims cleared it (0.59 of it).
    assert np.mean(inside > 2.0) > 0.8


# Pieces the foreground score cannot separate from a neighbour (a clear piece touching another,
# two touching pieces whose tips hide in each other, a piece and its neighbour's shadow): their
# crisp outline still encloses them, and what the pieces found leave of the crisp-enclosed
# areas is fitted on its own (vision/crisp.py). Its σ covers its error.
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (1007, 1000, "large", "clear", (394.8, 219.2)),    # tip against a black small, laminate
    (1034, 1000, "small", "clear", (410.0, 412.4)),    # against a red large, on cloth
    (1031, 1000, "medium", "yellow", (430.9, 491.5)),  # tips hidden in an orange small's
    (1067, 1036, "medium", "white", (324.7, 348.6)),   # its contact shadow in its crisp area
])
def test_a_piece_the_score_merges_with_a_neighbour_is_found_by_its_crisp_outline(
        seed, seed0, size, color, stern):
    piece_found(seed, seed0, size, color, stern)


def test_a_standing_pieces_crisp_outline_is_no_lying_piece():
    """s24's upright yellow large: no lying model fits its region on the foreground map, but
    on its crisp area a lying large did (cost 0.3) until the standing model was tried too."""
    from pathlib import Path

    from armada_vision.vision.io import load_camera_file, load_layout_file, read_image

    base = Path(__file__).resolve().parent.parent / "sample_images" / "stills"
    name = "s24_everything_fhd"
    truth = json.loads((base / f"{name}.truth.json").read_text())
    det = detect(read_image(base / f"{name}.jpg"), load_layout_file(base / f"{name}.layout.json"),
                 load_camera_file(base / f"{name}.camera.json"))
    assert isinstance(det, Detections)
    (up,) = truth["upright"]
    assert all(math.dist(p.pose.stern_mm, up["center"]) > 30 for p in det.pieces)
    assert not any("false" in m for m in match(truth, det).misses)


# A clear piece on wood: the grain raises the crisp-edge level and the piece's soft edges
# enclose no area, but it mutes the wood's colour (segment.desaturated), and that area goes
# through the crisp pass. σ must cover the error.
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1028, 1000, "small", (180.2, 243.0)),
    (1029, 1000, "medium", (151.6, 408.2)),
    (1065, 1036, "small", (482.4, 415.7)),
])
def test_a_clear_piece_on_wood_is_found_by_the_colour_it_mutes(seed, seed0, size, stern):
    from armada_vision.geometry.pose import angle_diff_deg

    p = clear_piece_found(seed, seed0, size, stern)
    r, _det = bench_scene(seed, seed0)
    (truth,) = [q for q in r.truth["pieces"] if math.dist(q["stern"], stern) < 2.0]
    assert abs(angle_diff_deg(p.pose.heading_deg, truth["heading"])) <= 2 * p.sigma_deg


# On those areas a piece whose size is in doubt (1065's medium fitted as well as a small 11 mm
# off that covers it) was left out, missed rather than misread. Since clear25 one named clear
# is kept in doubt, its σ covering both sizes (crisp.SIZE_DOUBT_MM): found, never a wrong yes.
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1065, 1036, "medium", (403.9, 259.6)),
    (1065, 1036, "large", (404.2, 364.4)),   # issue 4: its open base is off the area
])
def test_a_clear_piece_on_wood_of_doubtful_size_is_read_in_doubt(seed, seed0, size, stern):
    assert_no_sure_wrong_size(seed, seed0, size, "clear", stern, any_size=True)
    _r, det = bench_scene(seed, seed0)
    near = [p for p in det.pieces if math.dist(p.pose.stern_mm, stern) < 20]
    assert all(p.size.value == size or p.sigma_mm > 1.5 for p in near)


# Issue 4, a clear LARGE on wood (check seed 1065; docs/vision.md, Known gaps: "clear larges"):
# its desaturated area holds its faces but not where the wood under it lies in the piece's
# own shade (darker, its colour kept, as in a shadow): 409 mm² of its 676 mm² outline. The
# large from the area's axis lies 0.6 mm from the truth, but its stern and a 13 mm stretch
# of one side find no edge there (cost 0.76). Until session 43 it was read as a small lying
# across it (turned 103°, σ 41 mm; a strict xfail till then). Since clearsize53 that small is
# read at the large it lies across (strips.CLEAR_ACROSS_DARK: the rest of the piece, the
# wood seen through its walls, darker than the wood beside it), 1.4 mm from the true stern,
# never trusted (σ 99 mm: the size is the view's shade, not a fit's).
def test_a_clear_large_on_wood_is_found():
    clear_piece_found(1065, 1036, "large", (404.2, 364.4))


# Issue 4, a clear large on wood read whole though a shorter reading covers its area (check
# seed 1061): its open base shows the wood unmuted, so its stern edge finds none on the
# desaturated area (left out: open_base.open_base_cost, 0.32), and a medium 6 mm off covered
# the area as well, so its size was in doubt and it was dropped. That medium's base lies on
# the large's muted face, where no open base can be (crisp.MUTED_BASE): no rival. Found at
# its size, σ at least crisp.SNUG_END_MM (its stern is read off the base's rim).
def test_a_clear_large_whose_open_base_shows_the_wood_is_read_whole():
    from armada_vision.geometry.pose import angle_diff_deg

    stern = (505.0, 338.0)
    p = clear_piece_found(1061, 1036, "large", stern)
    assert p.sigma_mm >= 2.0
    r, det = bench_scene(1061, 1036)
    (truth,) = [q for q in r.truth["pieces"] if math.dist(q["stern"], stern) < 2.0]
    assert abs(angle_diff_deg(p.pose.heading_deg, truth["heading"])) <= 2 * p.sigma_deg
    assert not any("false" in m for m in match(r.truth, det).misses)


# Issue 4, clear pieces on wood whose size was in doubt on the desaturated area (seed 1026):
# the medium's rival was a small snug inside it, which leaves a thick part of the area out
# and is no rival (crisp.py, one_size: only covering readings count); the large's stern was
# missed on the area, since its open base shows the bare wood, though its sides are seen up
# to it (open_base.open_base_cost). Both were missed; now found at their size.
@pytest.mark.parametrize("size, stern", [("medium", (116.4, 410.1)), ("large", (232.5, 116.4))])
def test_a_clear_piece_on_wood_is_read_at_its_size(size, stern):
    from armada_vision.geometry.pose import angle_diff_deg

    p = clear_piece_found(1026, 1000, size, stern)
    r, _det = bench_scene(1026)
    (truth,) = [q for q in r.truth["pieces"] if math.dist(q["stern"], stern) < 2.0]
    assert abs(angle_diff_deg(p.pose.heading_deg, truth["heading"])) <= 2 * p.sigma_deg


# Issue 4, a clear piece lying against another piece on a coloured table (seed 1013: a clear
# medium along a yellow large on blue cloth): its desaturated area runs on along the yellow's
# edge (the greyed cloth between and beside them), so its border hugged the piece found over
# 0.29 of its length and it was held off as that piece's shadow. Tried again without what lies
# within crisp.PEEL_MM of the pieces found, with edges facing that strip excused, it is found
# at its size; σ covers the error.
def test_a_clear_piece_against_a_neighbour_is_found_when_its_area_is_peeled_off_it():
    from armada_vision.geometry.pose import angle_diff_deg

    stern = (343.6, 329.8)
    p = clear_piece_found(1013, 1000, "medium", stern)
    r, det = bench_scene(1013)
    (truth,) = [q for q in r.truth["pieces"] if math.dist(q["stern"], stern) < 2.0]
    assert abs(angle_diff_deg(p.pose.heading_deg, truth["heading"])) <= 2 * p.sigma_deg
    # Its neighbour is still found, and nothing false was added beside them.
    assert found(1013, "large", "yellow", (324.1, 322.3)) is not None
    assert not any("false" in m for m in match(r.truth, det).misses)

def test_a_clear_piece_mutes_the_woods_colour_and_the_bare_wood_does_not():
    from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
    from armada_vision.geometry.pose import Pose
    from armada_vision.geometry.shapes import footprint
    from armada_vision.vision.segment import desaturated

    r, truth, view, _score, bg, fp = truth_in_view(1026, "clear", "medium")
    grey = desaturated(view, bg)
    assert grey is not None

    def share(poly) -> float:
        """Share of the view pixels inside ``poly`` (table mm; holes left out) that are grey."""
        mask = np.zeros(grey.shape, np.uint8)
        for ring, value in [(poly.exterior, 1), *((i, 0) for i in poly.interiors)]:
            px = view.grid.to_px(np.asarray(ring.coords))
            cv2.fillPoly(mask, [np.round(px).astype(np.int32)], value)
        return float(grey[mask.astype(bool)].mean())

    assert share(fp.buffer(-1.0)) > 0.6
    # A ring of bare wood round it (no other piece within 15 mm in this scene).
    others = [footprint(Pose(*p["stern"], p["heading"]), NOMINAL_PIECES.dims(Size(p["size"])))
              for p in r.truth["pieces"] if p is not truth]
    ring = fp.buffer(12.0).difference(fp.buffer(4.0))
    assert not any(ring.intersects(o) for o in others)
    assert share(ring) < 0.1


# Black plastic (issue 4): its darkness scores far above a vivid piece's colour, so the fit
# map scaled per region put its lit base rim and grey faces below the mid level and the
# outline fitted to the dark core alone failed (cost 0.60). A region mostly darker than any
# shadow, that nothing explains, is explained again on the unscaled map (look.unscaled_map).
def test_a_black_piece_whose_rims_score_below_its_core_is_found():
    p = piece_found(1005, 1000, "medium", "black", (373.2, 159.2))   # on green felt
    # A good fit (cost ≤ GOOD_COST), not a doubtful one.
    assert p.score >= 1.0 - GOOD_COST / MAX_COST


def test_a_black_piece_of_doubtful_size_is_read_again_on_the_unscaled_map():
    """Issue 4, size (check seed 1048): a black medium on green felt, whose lit base rim and
    grey faces the fit map scaled to its dark core puts below the mid level, was read as a
    doubtful small (σ 10 mm) with the medium as a rival. A dark region holding a doubtful
    piece in size doubt is explained again on the unscaled map: the medium, a good fit."""
    p = piece_found(1048, 1036, "medium", "black", (335.85, 437.65))
    assert p.score >= 1.0 - GOOD_COST / MAX_COST


def test_a_black_piece_read_short_yields_to_its_whole_reading_on_the_unscaled_map():
    """Issue 4, size (detect._with_unscaled): a black medium on felt (seed 1048 of the run
    from 1000) read on the scaled map as a small at cost 0.35, GOOD_COST's edge, in size
    doubt (a medium over it fits nearly as well), so the region was not read again as a
    whole; its dark part left (_black_left) was, and the unscaled map's medium (a good fit)
    clashed with the small and was not added: a small in doubt, σ 8.3 mm. In a dark region
    a reading in size doubt yields to a good reading over it on the unscaled map. (1005's
    black medium above is the same case under OpenCV 5.1's render of its scene.)"""
    p = piece_found(1048, 1000, "medium", "black", (420.9, 110.3))
    assert p.score >= 1.0 - GOOD_COST / MAX_COST


def test_a_piece_touching_a_black_one_is_read_again_on_the_unscaled_map():
    """Issue 4, size (check seed 1064): a yellow medium touching a black large on wood; the
    fit map scaled to the black's score put the yellow's faces about the mid level, and it
    was read as a doubtful small, 8 mm and 13° off. On the unscaled map the region alone gave
    the large only; the turned tip guesses find the medium beside it."""
    p = piece_found(1064, 1036, "medium", "yellow", (302.62, 215.66))
    assert p.score >= 1.0 - GOOD_COST / MAX_COST
    # The black large it touches is still read, at its size.
    q = found(1064, "large", "black", (267.5, 233.7), 1036)
    assert q is not None and q.size.value == "large"


# Black plastic beside something that sets the region's scaling (issue 4, seeds 1072-1107):
# a vivid neighbour or the black piece's own open base scores far above its faces (×0.55-0.9
# of the table's light, score 4-6), so they sank below the scaled fit map's mid level. A
# region whose reading leaves a piece-sized part unexplained, at least a quarter of it darker
# than the table's shadows, is read again on the unscaled map and its good pieces are added
# (detect._black_left, _with_unscaled).
@pytest.mark.parametrize("seed, size, stern", [
    (1097, "large", (489.81, 227.10)),   # beside a yellow small on green felt (1.38 scaled)
    (1102, "large", (201.40, 235.01)),   # alone on felt, its lit face as bright as the felt
    (1088, "small", (189.75, 297.78)),   # behind a red large, which hides 39 % of its outline
])
def test_a_black_piece_the_scaled_map_lost_is_found_on_the_unscaled_map(seed, size, stern):
    # Colour too: 1088's small is read black on the part of its footprint the red large
    # does not lean over in the view (detect._seen_part; its whole footprint's median is red).
    p = piece_found(seed, 1072, size, "black", stern)
    assert p.score >= 1.0 - GOOD_COST / MAX_COST


def test_a_black_large_read_as_a_medium_is_in_doubt_with_no_false_small():
    """Issue 4 (seed 1102): a black large on felt, its faces below the scaled map's mid
    level, was read as a medium (σ 9.9 mm, in size doubt) with a false doubtful small over its
    tip. The small now clashes with it (scene.CLASH_SHARE, session 19), so nothing asks for
    the unscaled re-read that read it as a large: the medium stays, in doubt, its σ covering
    the large (a re-read asked by good fits too gave 5327's cyan small a trusted wrong size)."""
    r, det = bench_scene(1102, 1072)
    t = match(r.truth, det)
    assert t.found == t.matched  # no false piece in the scene
    stern = (365.49, 308.37)
    p = min(det.pieces, key=lambda d: math.dist(d.pose.stern_mm, stern))
    assert p.color == "black" and math.dist(p.pose.stern_mm, stern) < 15.0
    assert (p.size.value == "large" and math.dist(p.pose.stern_mm, stern) <= 1.5) or (
        p.sigma_mm >= 0.9 * (NOMINAL_PIECES.dims(Size.LARGE).footprint_length_mm
                             - NOMINAL_PIECES.dims(p.size).footprint_length_mm))


# A good fit in size doubt is not re-read on the unscaled map (detect._size_doubtful): asked of
# good fits too (false26, session 19), the re-read turned the judged set's 5327 cyan small
# (σ 10.6 mm, in doubt) into a medium at σ 1.4 mm, 10° off: a wrong size the rules would trust.
def test_a_good_fit_in_size_doubt_is_not_re_read_into_a_trusted_wrong_size():
    assert_no_sure_wrong_size(5327, 5104, "small", "cyan", (405.6, 161.6))


# A tip's heading guess is its corner's bisector: a streak along one side of the tip turns it
# (wood grain, or a lit patch beside a white piece), and the fit from it stuck off the piece
# (seed 1032's red medium: guess 14° off, fit 10° off at cost 0.58). A region still unexplained
# after the crisp passes has its corners tried again with the guess turned by ±10° and ±20°,
# and at most one piece is taken (explain.leftover_piece). The red one's edges along the
# streaks are hidden, so it is doubtful: its σ must cover its error.
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (1032, 1000, "medium", "red", (120.3, 418.1)),     # wood-grain streaks along one side
    (1000, 1000, "small", "white", (211.7, 486.4)),    # a lit patch beside it
    (1053, 1036, "large", "purple", (446.4, 453.0)),    # check seeds from here
    (1067, 1036, "medium", "purple", (280.2, 346.0)),   # a crisp-found white medium beside
])
def test_a_piece_whose_tip_guess_is_turned_by_what_touches_it_is_found(
        seed, seed0, size, color, stern):
    # (1053's large is 0.75 mm off for σ 0.32 mm: 2.4σ, within the benchmark's p95 of
    # stern error / σ, 2.34; hence the dull-piece cases' bound.)
    piece_found(seed, seed0, size, color, stern, sigmas=3.0, slack_mm=0.5)
    # Only the one piece comes from the turned guesses: seed 1000's reversed small on the lit
    # patch (cost 0.32) was an artefact.
    _r, det = bench_scene(seed, seed0)
    assert len([q for q in det.pieces if math.dist(q.pose.stern_mm, stern) < 25]) == 1


# A white piece's open base (issue 4, size): dark and colourless, it scores as shadow, so on the
# fit map the reading one size short, its stern on the base's front rim, fitted better and the
# piece was reported that size with σ covering both. The longer reading misses only at its
# stern and the view shows the base there, darker than the table behind and the face ahead all
# across (open_base._open_base).
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1025, 1000, "large", (113.8, 300.7)),   # on wood, read as a medium 9.5 mm off
    (1043, 1036, "large", (342.0, 420.5)),   # on wood, read as a medium 9.2 mm off
])
def test_a_white_piece_whose_open_base_scores_as_shadow_is_read_at_its_size(
        seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0)
    assert p is not None
    assert p.size.value == size
    err = math.dist(p.pose.stern_mm, stern)
    assert err <= 2 * p.sigma_mm
    # Decided, not a σ stretched over two readings.
    assert p.sigma_mm < 5.0


def test_a_vivid_pieces_shadow_past_its_stern_is_no_open_base():
    """Seed 1059's yellow medium on cloth: its large reading from the same tip misses only at
    its stern too (the tinted shadow beyond), but the view shows no dark base there (0.97 of
    the table and face): it stays a medium, its σ covering the large."""
    p = found(1059, "medium", "yellow", (449.0, 311.2), 1036)
    assert p is not None
    assert p.size.value == "medium"


def test_a_glint_past_a_pieces_tip_does_not_stretch_it_a_size_longer():
    """Seed 1019's cyan small on green felt (issue 4, size): a bright streak on the table past
    its tip is foreground, so the small's tip samples were hidden against it and counted as
    misses, and a doubtful medium stretched over the streak was reported (σ 10 mm). The
    streak is brighter than the plastic can be (2-3× the table against the piece's faces'
    1.6): the small is read, its σ no longer stretched over the medium."""
    stern = (165.4, 205.4)
    p = found(1019, "small", "cyan", stern)
    assert p is not None
    assert p.size.value == "small"
    assert math.dist(p.pose.stern_mm, stern) <= 2 * p.sigma_mm
    assert p.sigma_mm < 5.0


def test_a_white_piece_whose_base_outline_is_not_seen_is_read_at_its_size_by_its_base():
    """Seed 1015's white medium on laminate (issue 4, size): the pale pass marks a ring of
    table round it as object, so its medium reading's stern samples are hidden against the
    ring, and its base's rim is as bright as the laminate, so its sides miss there too; it was
    read as a small (8.8 mm off, σ 12 mm). Its outline past the base is seen and the view
    shows the base darker than the table behind and the face ahead in every lane: read as a
    medium, σ covering a stern read from the base alone."""
    stern = (469.7, 257.8)
    p = found(1015, "medium", "white", stern)
    assert p is not None
    assert p.size.value == "medium"
    err = math.dist(p.pose.stern_mm, stern)
    assert err <= p.sigma_mm
    assert p.sigma_mm < 5.0


# A doubtful fit on a neighbour's shadow band (issue 4, check seed 1049): on blue cloth a blue
# large's shadow band joins its region, and a reversed medium over the band fitted at 0.55
# only because 39 % of its outline, hidden against the large and a cyan medium, was excused by
# them (0.97 without). A doubtful fit so much hidden is dropped (explain.DOUBT_MAX_HIDDEN).
def test_no_piece_is_read_into_a_neighbours_shadow_band():
    r, det = bench_scene(1049, 1036)
    t = match(r.truth, det)
    assert t.truth == 4
    assert t.matched == 4
    assert not any("false" in m for m in t.misses)


# A standing white piece read as a lying one (issue 4, check seed 1059): seen from 22-35° of
# tilt, a standing small's outline is nearly a lying small's, which fitted better (0.348
# against 0.44). But the lying reading's open base would face the camera 13 mm deep, and the
# view there is three times brighter than round it: plastic, not a dark open base. Such a
# reading yields to the standing fit (open_base.shows_no_base).
def test_a_lying_reading_whose_open_base_shows_plastic_is_a_standing_piece():
    assert_read_standing(1059, 1036)
    r, det = bench_scene(1059, 1036)
    t = match(r.truth, det)
    assert t.matched == t.truth
    assert not any("false" in m for m in t.misses)


# A standing piece read as a lying one heading straight away from the camera (issue 4,
# precision; tuning seeds 1611 and 1419 of the set from 1360): a standing piece's apex is above
# its base's centre, so the camera sees it pushed radially outward, a triangle a lying fit
# takes (σ 0.3-0.5 mm, a false piece the rules would trust). A lone lying reading within
# detect.RADIAL_DEG of that direction yields to a standing fit about as good; 1419's black
# small is fitted standing on the unscaled map its dark region was read on.
@pytest.mark.parametrize("seed", [1611, 1419])
def test_a_standing_piece_seen_pointing_away_from_the_camera_is_read_standing(seed):
    assert_read_standing(seed, 1360)
    assert_no_false_piece(seed, 1360)


# ... but a lying piece heading away from the camera, read lying at its place, is no standing
# one (issue 4, session 26, vivid34; the 6832-set): its open base shows below the face ahead
# of its rim, though not below the table behind it as well (open_base.shows_open_base): 6885's
# yellow small on dark felt (the felt as dark as its hollow: 1.11, the face 1.79) and 6979's
# red small on wood (the dark red face ahead 1.32, the wood 2.54). The face ahead alone
# (open_base.FACE_OVER_BASE) keeps them lying; 6885's standing red large is still read
# standing.
@pytest.mark.parametrize(("seed", "color", "stern"), [
    (6885, "yellow", (444.5, 377.2)),
    (6979, "red", (493.8, 464.9)),
])
def test_a_lying_piece_heading_away_from_the_camera_is_not_read_standing(seed, color, stern):
    p = found(seed, "small", color, stern, seed0=6832)
    assert p is not None and (p.size.value, p.color) == ("small", color)
    assert math.dist(p.pose.stern_mm, stern) <= 1.0
    r, det = bench_scene(seed, 6832)
    assert all(math.dist(u.center_mm, stern) > 15 for u in det.upright)
    assert len(det.upright) == len(r.truth["upright"])


# An upright piece read as good lying pieces (issue 4, session 62, false72; 22-35° of tilt,
# 1280×720): its base and faces fitted one lying piece heading off the camera's direction
# (14320-set 14349: an orange large read as a medium, fit cost 0.31, σ 9.9 mm) or two (5968-set
# 5997: an orange large as two smalls, 0.23 and 0.26; 14032-set 14127: a red large as two
# smalls, 0.19 and 0.28), each good, so no standing fit was asked: false pieces, in doubt. A
# lone region's good readings whose best joint cost is detect.STAND_GOOD_FROM or more yield to
# a standing fit at detect.STAND_OFF_SHARE of it (standing 0.144, 0.164, 0.001 against lying
# joints 0.314, 0.257, 0.278).
@pytest.mark.parametrize(("seed", "seed0"), [(14349, 14320), (5997, 5968), (14127, 14032)])
def test_an_upright_piece_read_as_good_lying_pieces_is_read_standing(seed, seed0):
    assert_read_standing(seed, seed0)
    assert_no_false_piece(seed, seed0)


# ... but the true lying pieces nearest that share stay lying (the 16624-set: of 176 standing
# fits asked on 147 scenes at 22-35° and 1280×720 of the 16624-, 15472- and 12880-sets, the
# lying pieces' fitted standing at 1.25 of their joint cost or more, the upright pieces'
# at 0.87 or less): 16893's clear medium (joint 0.217, standing 0.272: 1.25) and 16659's red
# small (0.349, 0.442: 1.27, trusted).
def test_a_lying_piece_whose_standing_fit_is_a_little_worse_stays_lying():
    assert_kept_trusted(16659, 16624, "small", "red", (257.7, 331.1), within_mm=1.0)
    p = found(16893, "medium", "clear", (392.7, 419.9), seed0=16624)
    assert p is not None and p.size.value == "medium"
    _r, det = bench_scene(16893, 16624)
    assert all(math.dist(u.center_mm, (392.7, 419.9)) > 15 for u in det.upright)


# A patch of bare blue cloth read as a piece (issue 4, precision; tuning seed 1537 of the set
# from 1360): beside a marker the cloth differs from its estimate by 5-9 %, with no crisp edge,
# and the region's fit map, scaled to its own weak score, took a blue small at σ 0.5 mm.
# Plastic, even clear, changes the light by more (look.BARE_COLOUR) or shows a crisp
# outline: a fit on neither is the table (look.bare_table).
def test_no_piece_is_read_on_a_bare_patch_of_cloth():
    r, det = bench_scene(1537, 1360)
    assert r.truth["surface"] == "cloth"
    t = match(r.truth, det)
    assert t.matched == t.truth == 4
    assert not any("false" in m for m in t.misses)


# Bare table lit beside a hand's shadow (issue 4, precision; tuning seeds 1661 and 1675 of the
# set from 1648): the table estimate is dragged down beside the shadow, so the bare laminate
# and cloth there look ×1.10-1.40 lit, of the table's chromaticity, and were fitted as a white
# and a blue small (σ 10 and 21 mm). A piece's colour ends at its outline; the lit table's goes
# on past it (shadows.lit_table). The white pieces in 1661 are of the laminate's chromaticity
# too; those found stay found (since white21 also 1661's white large, read from its open base).
@pytest.mark.parametrize("seed, found_pieces", [(1661, 8), (1675, 7)])
def test_no_piece_is_read_on_lit_table_beside_a_hands_shadow(seed, found_pieces):
    r, det = bench_scene(seed, 1648)
    assert r.image_bgr.shape[:2] == (720, 1280)
    t = match(r.truth, det)
    assert t.matched == found_pieces
    assert not any("false" in m for m in t.misses)


# A translucent piece's tinted shadow (issue 4, precision; tuning seed 1798 of the set from
# 1648): beside a purple large, dark enough that its region's sunk part is read again on the
# unscaled map, the table lit through the plastic (×0.73 the estimate, too dull for plastic)
# was added as a small (σ 36 mm). A piece added there darker than the table and of no plastic's
# colour is the shadow (shadows.tinted_shadow).
def test_no_piece_is_read_on_a_translucent_pieces_tinted_shadow():
    r, det = bench_scene(1798, 1648)
    t = match(r.truth, det)
    assert t.matched == t.truth == 6
    assert not any("false" in m for m in t.misses)
    assert all(p.color != "unknown" for p in det.pieces)


# A standing piece's tinted shadow on cloth (issue 4, precision; tuning seed 1761 of the set
# from 1648): a standing red large (not found) casts on blue cloth a shadow lit through its
# plastic, which the crisp pass read as a blue small at σ 1.0 mm, a false ship the rules would
# trust. Its colour is the cloth with light taken away (darker, keeping less of its colour,
# 10 of hue off it): no coloured plastic looks so (colors.dimmed_table), so it carries a
# doubtful fit's σ. Since session 19 the standing large is found (its fit started from its
# region's centre too: explain.upright_fit) and the shadow is no reading at all.
def test_a_shadow_named_a_vivid_colour_is_not_trusted():
    r, det = bench_scene(1761, 1648)
    assert any(u["color"] == "red" for u in r.truth["upright"]), \
        "the case's standing piece is not in the scene as rendered"
    t = match(r.truth, det)
    assert t.matched == t.truth == 8
    sterns = [p["stern"] for p in r.truth["pieces"]]
    false = [d for d in det.pieces if min(math.dist(d.pose.stern_mm, s) for s in sterns) > 10]
    assert all(d.color == "blue" and d.sigma_mm > 3.0 for d in false)
    assert false or any(u.color == "red" for u in det.upright)
    # The real blue small on the same cloth keeps its small σ.
    blue = [d for d in det.pieces if d.color == "blue" and not any(d is f for f in false)]
    assert blue and all(d.sigma_mm < 0.5 for d in blue)


# A vivid colour going on past a reading's outline (issue 4; tuning seeds of the set from
# 1648): a piece's colour ends at its outline, so a reading whose colour goes on is not all of
# what is there. 1695: a red die's top and side were read as a red small at σ 1.3 mm, a false
# ship the rules would trust; 1898: a purple medium was read as a small at σ 1.3 mm, a wrong
# size they would trust. Both now carry a doubtful fit's σ (detect._colour_goes_on).
def _die_read_doubtful(seed: int, seed0: int, color: str):
    """The readings on a rendered die (truth from the renderer): none (since session 31 a
    small read on a die's top is dropped, detect._die_top) or one named ``color``, σ > 3 mm."""
    r, det = bench_scene(seed, seed0)
    die = [e for e in r.truth["extras"] if e["kind"] == "die"]
    assert die, "the case's die is not in the scene as rendered"
    on_die = [d for d in det.pieces if math.dist(d.pose.stern_mm, die[0]["center"]) < 12]
    assert len(on_die) <= 1 and all(d.color == color and d.sigma_mm > 3.0 for d in on_die)
    return r, det, on_die


def test_a_red_die_read_as_a_small_is_not_trusted():
    _die_read_doubtful(1695, 1648, "red")
    # The pieces found on the same scene at d10b139 keep the σ they had (all ≤ 1.1 mm then);
    # its white large, found since (white30: its hollow dark only deep inside), is in doubt.
    for size, color, stern in [("large", "black", (91.8, 167.2)),
                               ("large", "black", (466.5, 332.5)),
                               ("medium", "black", (367.9, 422.0)),
                               ("small", "green", (209.3, 413.3)),
                               ("large", "orange", (501.4, 432.2))]:
        p = found(1695, size, color, stern, seed0=1648)
        assert p is not None and p.sigma_mm < 1.1, (size, color)


# A die's colour goes on round the reading (issue 4; seed 1983 of session 11's judge set, now
# tuning pool, from 1936): a die is a cube whose faces all show its colour, so a reading on
# part of it has that colour past its outline, where a piece's would end. A black die on blue
# cloth was read as a black small at σ 1.2 mm, a false ship the rules would trust
# (_colour_goes_on asks vivid pieces only); it now carries a doubtful fit's σ
# (detect._inside_goes_on: 0.20 of its ring is like its inside; the true pieces read at their
# size on 1648-2223, 0.065 at most but one already doubted).
def test_a_black_die_read_as_a_small_is_not_trusted():
    r, det, _ = _die_read_doubtful(1983, 1936, "black")
    # The real pieces keep their σ: 4 of the 6 found were trusted (σ < 1.5 mm) at fb14ad6.
    t = match(r.truth, det)
    assert t.matched == 6
    sterns = [p["stern"] for p in r.truth["pieces"] if p.get("fully_visible", True)
              and not p.get("occluded", False)]
    real = [d for d in det.pieces if min(math.dist(d.pose.stern_mm, s) for s in sterns) < 3]
    assert len(real) == 6 and sum(d.sigma_mm < 1.5 for d in real) == 4


# The same tell on a shadow (issue 4, tuning seed 1231 of the set from 1144): a hand's shadow
# band beside the skin on laminate was read as a black small at σ 1.3 mm. A shadow has no
# outline of its own: its dark goes on past the reading (detect._inside_goes_on).
def test_a_hands_shadow_band_read_as_a_black_small_is_not_trusted():
    r, det = bench_scene(1231, 1144)
    assert any(e["kind"] == "hand" for e in r.truth["extras"]), \
        "the case's hand is not in the scene as rendered"
    sterns = [p["stern"] for p in r.truth["pieces"]]
    false = [d for d in det.pieces if min(math.dist(d.pose.stern_mm, s) for s in sterns) > 10]
    # Read as a black small in doubt until session 48; since upright58's wider standing bounds
    # the band is read standing (``det.upright``): no ship at all. Either way never trusted.
    assert len(false) <= 1 and all(d.color == "black" and d.sigma_mm > 3.0 for d in false)


def test_a_piece_read_one_size_short_whose_colour_goes_on_is_not_trusted():
    r, det = bench_scene(1898, 1648)
    truth = [p for p in r.truth["pieces"] if p["size"] == "medium" and p["color"] == "purple"
             and math.dist(p["stern"], (138.0, 281.0)) < 2.0]
    assert len(truth) == 1, "the case's piece is not in the scene as rendered"
    # Read from its tip end as a small (its stern 16 mm off the truth's).
    read = [d for d in det.pieces if d.color == "purple"
            and math.dist(d.pose.stern_mm, truth[0]["stern"]) < 25.0]
    assert len(read) == 1 and read[0].size.value == "small"
    assert read[0].sigma_mm > 3.0


# A fingertip on wood (issue 4, check seed 1058): the hand is taken into the table estimate,
# so only its fingers' ends score, and one was read as a doubtful orange small. Its inside is
# a warm colour duller than any plastic (hands.SKIN_MAX_SAT): skin, dropped.
def test_no_piece_is_read_into_a_fingertip_on_wood():
    r, det = bench_scene(1058, 1036)
    hand = [e for e in r.truth["extras"] if e["kind"] == "hand"]
    assert hand, "the case's hand is not in the scene as rendered"
    t = match(r.truth, det)
    assert t.truth == 1
    assert t.matched == 1
    assert not any("false" in m for m in t.misses)
    assert len(det.pieces) == 1


# A piece's end beside a finger (issue 4, check seed 1043): on wood the hand is taken into the
# table estimate; a purple large whose stern lies under a finger showed only its tip, read as a
# good small (joint cost 0.245 alone). Its region is mostly left unexplained, by skin (the
# finger's edge): its pieces are judged as beside a hand, only clean ones kept
# (hands.hand_hides). The truth marks the large occluded: nothing is to be read there.
def test_no_piece_is_read_at_the_end_of_one_under_a_finger():
    from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
    from armada_vision.geometry.pose import Pose
    from armada_vision.geometry.shapes import footprint

    r, det = bench_scene(1043, 1036)
    (hidden,) = [p for p in r.truth["pieces"] if p["color"] == "purple"]
    assert hidden["occluded"]
    fp = footprint(Pose(*hidden["stern"], hidden["heading"]),
                   NOMINAL_PIECES.dims(Size(hidden["size"])))
    assert all(fp.intersection(footprint(p.pose, NOMINAL_PIECES.dims(p.size))).area < 1.0
               for p in det.pieces)
    assert not any("false" in m for m in match(r.truth, det).misses)
    # The pieces clear of the hand are still found.
    for size, color, stern in (("large", "red", (393.7, 161.1)),
                               ("medium", "orange", (490.7, 210.7)),
                               ("small", "clear", (500.8, 225.5)),
                               ("large", "white", (342.0, 420.5))):
        assert found(1043, size, color, stern, 1036) is not None


# A piece whose tip hides in a neighbour found in the same region (issue 4): the region has no
# corner at that tip, so no fit starts there, until the neighbour is cut off what is left of
# the region (explain._beside_found). 1031's orange small sits against a yellow medium found
# by the crisp pass; the narrow gap between them reads as solid, so its edges hidden there are
# excused within GAP_MM of the yellow and it is taken as doubtful, its σ inflated. 1053's red
# small touches a purple large found by the turned tip guesses, and fits well.
@pytest.mark.parametrize("seed, seed0, color, stern, doubtful", [
    (1031, 1000, "orange", (410.3, 503.4), True),
    (1053, 1036, "red", (447.8, 423.3), False),    # check seeds
])
def test_a_piece_whose_tip_hides_in_a_neighbour_found_beside_it_is_found(
        seed, seed0, color, stern, doubtful):
    p = piece_found(seed, seed0, "small", color, stern)
    assert (p.score < 1.0 - GOOD_COST / MAX_COST) == doubtful
    if doubtful:
        assert p.sigma_mm >= 2.0
    r, det = bench_scene(seed, seed0)
    t = match(r.truth, det)
    assert not any("false" in m for m in t.misses)


# A white piece whose lit face's outline against the table is too faint to be crisp (issue 4):
# seed 1000's white small on laminate, its faces in shade scoring 1.3–1.6. Its crisp area holds
# its shadow and open base but not the face (the outline is broken along the lit side), so the
# pale pass marked a ring of table and the base, and no fit explained them. Inside the area's
# convex hull the face is brighter than the table (×1.05; the table round it ≤ ×1.03), and
# those pixels now count as object too (segment._pale_hull, PALE_FACE).
def test_a_white_piece_whose_lit_face_has_no_crisp_outline_is_found():
    stern = (123.59, 251.20)
    piece_found(1000, 1000, "small", "white", stern)
    r, det = bench_scene(1000)
    assert not any("false" in m for m in match(r.truth, det).misses)
    _r, _truth, view, score, _bg, fp = truth_in_view(1000, "white", "small", stern)
    px = view.grid.to_px(np.asarray(fp.buffer(-1.0).exterior.coords))
    mask = np.zeros(score.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(px).astype(np.int32)], 1)
    # The blob threshold is 2: before, only the open base and a rim cleared it (0.35 of it).
    assert np.mean(score[mask.astype(bool)] > 2.0) > 0.7


# A piece read short whose longer reading from its tip is seen whole (issue 4, seed 1093): a
# white large on wood, its shaded face scoring under its lit one, so the large from the
# region's axis stuck 6° off (cost 0.57) and a small at its tip won (joint cost 0.49, a fifth
# of its outline hidden against the rest of the piece); it was reported as a small 18 mm off
# with σ 19.6 mm. The large from the small's tip fits at 0.14 with nothing hidden, and is
# taken (explain._seen_whole_longer), its σ at least 1.5 mm.
def test_a_piece_whose_longer_reading_from_its_tip_is_seen_whole_is_read_at_it():
    stern = (183.49, 427.23)
    p = piece_found(1093, 1072, "large", "white", stern)
    assert p.sigma_mm < 5.0
    r, det = bench_scene(1093, 1072)
    t = match(r.truth, det)
    assert not any("false" in m for m in t.misses)


# A doubtful piece read short whose region goes on, lit, past its stern (issue 4, size; seed
# 1177 of the tuning set from 1144): a white large on laminate, the face turned from the light
# as bright as the table, so the large from its tip misses along that side near the stern
# (joint cost 0.52) and a medium from the same tip (0.43) won, 7.2 mm short with σ 10.4 mm,
# leaving the lit stern end (×1.4 the table) unexplained. Plastic, not shadow: the large is
# taken (explain._lit_past_stern), still doubtful, its σ covering the medium's reading.
def test_a_doubtful_piece_whose_region_goes_on_lit_past_its_stern_is_read_longer():
    p = piece_found(1177, 1144, "large", "white", (364.71, 475.61))
    assert p.sigma_mm >= 5.0  # doubtful: the rules must not trust it


# Issue 4, a clear piece's colour (seed 1085; colors.py, DULL_CLEAR_HUE). On blue cloth a
# clear small's median is too dull for plastic (saturation 54) and its hue 8 off the cloth's,
# just past the clear test's 8: it read unknown. It reads clear now.
def test_a_clear_piece_too_dull_for_plastic_reads_clear():
    p = found(1085, "small", "clear", (501.1, 142.6), seed0=1072)
    assert p is not None
    assert p.color == "clear"


# A dull piece whose region's scale a glaring neighbour set (issue 4, seed 1079 of the set from
# 1072): a green large on green felt touching a white small. The fit map is scaled to the
# region's 80th-percentile score, which the white sets, so the green's shaded faces fell
# below the edge level and a medium on its lit face (cost 0.37) was read, 9.5 mm short with
# σ 1.6 mm: a confident wrong size. Its own score is under GLARED × the region's, so the
# region is explained again on the unscaled map, where the large fits (detect._glared).
def test_a_dull_piece_beside_a_glaring_one_is_read_at_its_size():
    stern = (160.22, 477.82)
    p = piece_found(1079, 1072, "large", "green", stern, slack_mm=0.5)
    assert p.score >= 1.0 - GOOD_COST / MAX_COST  # a good fit, not a doubtful one
    r, det = bench_scene(1079, 1072)
    t = match(r.truth, det)
    assert t.matched == len(r.truth["pieces"])
    assert not any("false" in m for m in t.misses)


# Two pieces touching tip to side in one region (issue 4, the set from 1072): neither tip is a
# corner of their region and its axis is neither piece's, so no tip start lies near either
# piece, and each alone costs the edges it hides against the other as misses. A lying piece
# also rests on its two stern corners, so the region's corners are read as stern corners too:
# from their arms (explain.stern_guesses, in leftover_piece: the first piece fits well and the
# other's tip is then a corner of what it leaves, _beside_found) and from their bisector
# (explain.stern_corner_starts, in touching_pieces: two taken together, each one's hidden
# edges the other's outline). Each start finds cases the other does not. slack: 1073's cyan
# is 0.57 mm off at σ 0.24 mm. 1106's red medium touches a green medium that barely scores
# on green felt: it is taken alone.
@pytest.mark.parametrize("seed, pieces, slack_mm", [
    (1073, [("medium", "orange", (178.41, 278.56)), ("large", "cyan", (224.37, 261.86))], 0.5),
    (1100, [("medium", "white", (429.56, 162.52)), ("medium", "green", (446.86, 133.98))], 0.0),
    (1094, [("large", "black", (150.0, 243.6)), ("large", "cyan", (97.6, 244.4))], 0.0),
    (1106, [("medium", "red", (110.4, 468.9))], 0.0),
])
def test_pieces_touching_tip_to_side_are_found(seed, pieces, slack_mm):
    for size, color, stern in pieces:
        p = piece_found(seed, 1072, size, color, stern, slack_mm=slack_mm)
        assert p.sigma_mm < 1.0  # found as good fits: the pose is known
    assert_no_false_piece(seed, 1072)


# A piece beside black plastic (issue 4, seed 1082): the fit map of a dark region is scaled to
# the black piece's darkness, so an orange small touching a black large (score 3.2) sank under
# the map's 0 level; the large was found, so the region was not read again. What the large
# leaves on the unscaled map holds a piece, and the good pieces read there beside it are
# added (detect._sunk_left), the large kept as it was.
def test_a_piece_beside_black_plastic_is_read_on_the_unscaled_map():
    piece_found(1082, 1072, "small", "orange", (390.0, 359.7))
    assert_no_false_piece(1082, 1072)


# A dull piece beside one taken alone from a stern corner (issue 4, seed 1106 of the set from
# 1072): a green medium on green felt whose side a red medium's tip touches. The region's map
# is scaled to the red (80th-percentile score 14.2), the green scores 3.3 (its own hue), under
# the map's 0 level: it fits its true pose at 1.10 there, 0.036 on the unscaled map.
# touching_pieces takes the red alone, leaving room for a neighbour; what it leaves scores
# under GLARED × the region's (4.6 / 14.2), so that is read on the unscaled map beside the red
# (detect._sunk_beside), good pieces only.
def test_a_dull_piece_beside_one_taken_alone_is_read_on_the_unscaled_map():
    p = piece_found(1106, 1072, "medium", "green", (115.01, 437.04))
    assert p.score >= 1.0 - GOOD_COST / MAX_COST  # a good fit, not a doubtful one
    assert abs((p.pose.heading_deg - 31.19 + 180.0) % 360.0 - 180.0) <= 2 * p.sigma_deg
    piece_found(1106, 1072, "medium", "red", (110.37, 468.91))  # its neighbour still found
    assert_no_false_piece(1106, 1072)


# A piece beside one found whose start from the remainder's axis sticks (issue 4, seed 1082
# of the set from 1072): an orange medium on wood (score 3.1, the wood's own colour) beside a
# green medium explain_region finds. What the green leaves starts a fit from its axis 15° off,
# which sticks at 1.30; the orange's stern corner is a corner of the region, and from it the
# medium fits at 0.027. A region bigger than one piece whose pieces leave room for another is
# given leftover_piece's starts after the crisp passes (detect._room_left), good pieces only.
def test_a_piece_beside_one_found_whose_axis_start_sticks_is_found_from_its_corners():
    p = piece_found(1082, 1072, "medium", "orange", (333.85, 261.25))
    assert p.score >= 1.0 - GOOD_COST / MAX_COST
    assert abs((p.pose.heading_deg - 212.86 + 180.0) % 360.0 - 180.0) <= 2 * p.sigma_deg
    piece_found(1082, 1072, "medium", "green", (302.02, 232.41))  # its neighbour still found
    assert_no_false_piece(1082, 1072)


# Issue 4, a vivid piece's colour by its lit faces (colors.lit_face_bgr; tuning set from 1144).
# A face is the plastic's diffuse colour plus the light's own reflection, grey but tinted by
# the white balance; on a shaded face the diffuse part is small and the tint moves the hue.
# A dark piece whose footprint is mostly shaded face read by its median: 1173's orange large
# at hue 20 (yellow; its lit face 13), 1233's blue large at 104 (cyan; its lit face 111).
@pytest.mark.parametrize("seed, size, color, stern", [
    (1173, "large", "orange", (325.2, 209.3)),   # on green felt
    (1233, "large", "blue", (314.0, 278.0)),     # on green felt
])
def test_a_vivid_piece_is_named_by_its_lit_faces(seed, size, color, stern):
    p = found(seed, size, color, stern, seed0=1144)
    assert p is not None
    assert p.color == color


# A black piece read shorter on the map scaled to its open base (issue 4, wrong sizes the rules
# would trust; seeds of the set from 1144): the region's 80th-percentile score is its open
# base's darkness, so its grey faces sink under the scaled map's mid level and a small fits
# the dark core well (cost 0.32 and 0.23) with nothing of another size near it there. Read
# again on the unscaled map (detect._black_left), the true size fits at 0.03 and 0.02, 0.4
# and 0.2 mm off, but the sure small was kept and the clashing reading dropped. Which map shows
# the piece whole is the doubt: the small's σ covers the other map's reading
# (detect._other_map_rivals), so the rules answer "in doubt" instead of trusting it.
@pytest.mark.parametrize("seed, size, stern", [
    (1203, "medium", (280.90, 401.37)),   # was a small, σ 0.9 mm, 4.8 mm off
    (1252, "large", (293.39, 432.72)),    # was a small, σ 0.6 mm, 15 mm off
])
def test_a_black_piece_read_shorter_on_the_scaled_map_is_no_sure_wrong_size(seed, size, stern):
    assert_no_sure_wrong_size(seed, 1144, size, "black", stern)

# An opaque piece read one size long on the desaturated area (issue 4, wrong sizes the rules
# would trust; seeds of the set from 1144): the grey pass reads a black small whose shadow
# greys the wood past its stern (1169), and a white small, named clear, against a green
# medium (1223), as mediums with σ 1.0 mm. The small fits inside the area at 0.042 / 0.069
# once its outline hidden inside the area is excused. A clear piece is a dimmer table and
# its desaturated area ends where it does; an opaque piece's (colors.looks_opaque: named
# black or white, or a face under 0.45 × its brightest) may take its shadow in, so σ covers
# the shorter reading (crisp._rivals_hidden_inside) and the rules answer "in doubt".
@pytest.mark.parametrize("seed, color, stern", [
    (1169, "black", (325.92, 392.62)),   # was a medium, σ 1.0 mm
    (1223, "white", (426.00, 319.70)),   # was a medium, σ 1.0 mm
])
def test_an_opaque_piece_read_long_on_the_desaturated_area_is_no_sure_wrong_size(
        seed, color, stern):
    assert_no_sure_wrong_size(seed, 1144, "small", color, stern)


# A white piece read one size short, its stern on the lit face just ahead of its open base
# (issue 4, wrong sizes the rules would trust; seeds of the set from 1648): on a pale table the
# faces score little and the open base as shadow, so the short reading from the true tip fits
# well (0.22-0.24) and the true size does not (0.51-0.78); read with σ 0.6 mm. Where the
# camera sees 5-7 mm into the short reading's "base", the view shows the face ahead of it (no
# step) and the longer reading from the same tip shows its open base: σ covers that reading
# (open_base.face_for_base), so the rules answer "in doubt".
@pytest.mark.parametrize("seed, size, stern", [
    (1902, "medium", (177.05, 469.51)),   # was a small, σ 0.6 mm
    (1907, "large", (325.42, 155.94)),    # was a medium, σ 0.6 mm
])
def test_a_white_piece_read_short_on_its_face_ahead_of_its_open_base_is_no_sure_wrong_size(
        seed, size, stern):
    assert_no_sure_wrong_size(seed, 1648, size, "white", stern)


# A white piece whose open base faces the camera on a pale table, read as a dark piece of its
# own (issue 4, wrong sizes the rules would trust; seeds of the set from 1648): little shows
# but the dark hollow, fitted as a black small (1651, turned 104°) or medium (1911, turned
# 46°) at a doubtful cost (0.43, 0.47) with σ 3.5-4.1 mm. The hollow is a dark quadrilateral
# whose near edge is as wide as the large's base inside its walls: σ covers that large
# (open_base.hollow_of_longer), so the rules answer "in doubt".
@pytest.mark.parametrize("seed, stern", [
    (1651, (349.97, 293.48)),   # was a black small, σ 3.5 mm
    (1911, (428.90, 330.20)),   # was a black medium, σ 4.1 mm
])
def test_a_white_piece_seen_by_its_open_base_is_no_sure_wrong_size(seed, stern):
    assert_no_sure_wrong_size(seed, 1648, "large", "white", stern)


# A clear piece against a piece found, on laminate (issue 4, seed 1181 of the tuning set from
# 1144): a clear medium lying along a yellow large. Its crisp-enclosed area joins the large's,
# so it is no faint area and no region; what the large's cover leaves of it hugs the large
# (contact over crisp.MAX_CONTACT) and was held off as the large's shadow. It is darker than
# the table (median ×0.82), as a clear piece is and a white piece's lit area is not, so it
# is peeled off the large as the desaturated areas are (crisp.PEEL_DARK) and fitted.
def test_a_clear_piece_against_a_piece_found_is_peeled_off_it():
    piece_found(1181, 1144, "medium", "clear", (206.34, 378.83))
    piece_found(1181, 1144, "large", "yellow", (215.36, 348.59))  # its neighbour still found
    assert_no_false_piece(1181, 1144)


# A clear piece along a piece found hides one long side of its outline (issue 4, seed 1244 of
# the tuning set from 1144): a clear medium lying along an orange small on laminate. Its area
# is held off by its contact with the small and peeled off it; its fit hides 0.37 of its
# outline against the small, over the 0.3 the peel allowed (set on seed 1013, 0.25), under
# what a long side is of the outline (crisp.peel_hidden, 0.40).
def test_a_clear_piece_hiding_a_long_side_against_a_neighbour_is_found():
    piece_found(1244, 1144, "medium", "clear", (245.43, 104.10))
    piece_found(1244, 1144, "small", "orange", (245.38, 124.14))  # its neighbour still found
    assert_no_false_piece(1244, 1144)


# A glaring piece's edges on the fit map lie outside it (issue 4, the 720p pose tail): the
# map clips a yellow piece scoring ~40 at FG_CAP, so its mid level lies far down the blurred
# edge, 0.5–1.2 mm outside; with its stern's edge hidden by its own shadow, the too-wide
# sides slid it towards its tip (1207's yellow medium on blue cloth: 3.0 mm along its axis,
# 1219's yellow large: 2.8 mm). Refitted on the raw score (refine.refine_on_score).
@pytest.mark.parametrize("seed, size, color, stern", [
    (1207, "medium", "yellow", (244.86, 140.05)),
    (1219, "large", "yellow", (495.23, 249.64)),
])
def test_a_glaring_piece_is_placed_on_its_own_edges_at_720p(seed, size, color, stern):
    r, det = bench_scene(seed, 1144)
    assert r.image_bgr.shape[:2] == (720, 1280)
    truth = [p for p in r.truth["pieces"] if p["size"] == size and p["color"] == color
             and math.dist(p["stern"], stern) < 2.0]
    assert len(truth) == 1
    p = min(det.pieces, key=lambda q: math.dist(q.pose.stern_mm, truth[0]["stern"]))
    assert p.size.value == size
    assert math.dist(p.pose.stern_mm, truth[0]["stern"]) < 1.0
    assert math.dist(p.tip_mm, truth[0]["tip"]) < 1.0


# Black plastic on a coloured table (issue 4; 19 of the 28 black pieces missed on seeds
# 1144-1647 lay on wood): its glossy faces mirror the white light, grey at ×0.3-0.9 of the
# wood's light, which the score forgives as shadow (the grain's noise level divides their
# colour change: score ~1.2). A shadow lit by the same white light keeps the wood's colour;
# the faces keep a fifth of it. The colourless dark areas (segment.colourless_dark) are read
# as the crisp pass reads its areas (detect._colourless_pieces).
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1155, 1144, "small", (293.80, 289.42)),
    (1415, 1360, "large", (448.48, 350.34)),
])
def test_a_black_piece_on_wood_is_found_by_its_colourless_faces(seed, seed0, size, stern):
    piece_found(seed, seed0, size, "black", stern)
    assert_no_false_piece(seed, seed0)


# Compressed frames (issue 4, docs/vision.md "JPEG frames"): a JPEG's colour is stored at half
# resolution, so the colour edges the foreground score is mostly made of are coarser than a
# lossless frame's, and the fits' costs, set on lossless frames, rejected true pieces. On a
# frame whose colour is coarser than its pixels, fits are judged in the colour's units.
def test_a_jpeg_75_frame_keeps_a_piece_its_coarse_colour_edges_lost():
    r, _ = bench_scene(1155, 1144)
    ok, buf = cv2.imencode(".jpg", r.image_bgr, [cv2.IMWRITE_JPEG_QUALITY, 75])
    assert ok
    frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    # The lossless render's colour changes between pixels as its brightness does (sensor
    # noise); the JPEG's does not.
    assert colour_detail(r.image_bgr) > COARSE_COLOUR_RATIO > colour_detail(frame)
    det = detect(frame, r.layout, r.camera)
    assert isinstance(det, Detections)
    (truth,) = [p for p in r.truth["pieces"] if p["size"] == "medium" and p["color"] == "red"
                and math.dist(p["stern"], (331.0, 474.0)) < 2.0]
    p = min(det.pieces, key=lambda q: math.dist(q.pose.stern_mm, truth["stern"]))
    assert match(dict(r.truth, pieces=[truth]), det).matched == 1
    assert p.size.value == "medium" and p.color == "red"
    assert math.dist(p.pose.stern_mm, truth["stern"]) < 2 * p.sigma_mm + 0.5


def test_a_jpeg_75_frame_weighs_a_standing_piece_against_a_lying_one_in_view_px():
    # A standing piece seen from a tilted camera looks like a lying one heading away from the
    # camera's foot (detect._standing_read_lying). On a JPEG 75 frame the lying fit judged its
    # residuals in the colour's coarser units (cost 0.29; 0.37 in view px) and beat the
    # standing fit's 0.37 in view px: the blue medium was reported lying with σ 1.3 mm
    # (issue 4, 1144-set at JPEG 75). Both weighed in view px, it stands.
    r, _ = bench_scene(1239, 1144)
    ok, buf = cv2.imencode(".jpg", r.image_bgr, [cv2.IMWRITE_JPEG_QUALITY, 75])
    assert ok
    det = detect(cv2.imdecode(buf, cv2.IMREAD_COLOR), r.layout, r.camera)
    assert isinstance(det, Detections)
    (truth,) = r.truth["upright"]
    assert any(u.size.value == truth["size"] and math.dist(u.center_mm, truth["center"]) < 5.0
               for u in det.upright)
    assert not any(math.dist(p.pose.stern_mm, truth["center"]) < 25.0 for p in det.pieces)


# A white piece whose open base faces the camera on a pale table, read one size short inside
# itself (issue 4, wrong sizes the rules would trust; seeds of the set from 1936): its faces
# are the table's brightness, so the fit map holds its dark hollow and the lit face's rims,
# and a small fits inside the medium (0.06, 0.25), its stern on the hollow's far rim, its tip
# short of the faint true tip; the longer fits from its tip slide off (read with σ 0.3 / 0.5
# mm). Where the camera sees into the small's "base", the view shows the face ahead of it (no
# step), and a medium along the same axis, its stern slid back to the hollow's near side,
# shows its open base there: σ covers it (open_base.base_on_face), so the rules answer "in doubt".
@pytest.mark.parametrize("seed, stern", [
    (2027, (364.2, 352.8)),   # was a small, σ 0.3 mm
    (2147, (174.2, 145.9)),   # was a small, σ 0.5 mm
])
def test_a_white_piece_read_short_inside_its_open_base_is_no_sure_wrong_size(seed, stern):
    assert_no_sure_wrong_size(seed, 1936, "medium", "white", stern)


# A white piece read one size long over its own shadow (issue 4, wrong sizes the rules would
# trust): lit white plastic is brighter than the pale table, its soft shadow round it darker,
# and the fit map scores the shadow but hardly the faces, so a medium fitted to the shadow's
# outer edge wins (0.30-0.38) with no shorter rival (σ 1.0-1.6 mm). Just inside a piece's
# outline lies its plastic, never its shadow: most of the band 1 mm inside the medium is
# shadow, lit plastic within, so σ covers the next shorter size
# (open_base.shadow_ring_of_shorter), and the rules answer "in doubt".
@pytest.mark.parametrize("seed, seed0, stern", [
    (1853, 1648, (487.4, 102.3)),   # was a medium, σ 1.0 mm
    (2112, 1936, (382.3, 92.7)),    # was a medium, σ 1.6 mm
])
def test_a_white_piece_read_long_over_its_shadow_is_no_sure_wrong_size(seed, seed0, stern):
    assert_no_sure_wrong_size(seed, seed0, "small", "white", stern)


def _found_at_truth(seed: int, seed0: int, size: str, color: str,
                    sterns: list[tuple[float, float]]) -> None:
    """Each truth piece of ``size`` and ``color`` near ``sterns`` (table mm, within 2 mm) is
    found at its size and colour, its stern within 2σ (+0.5 mm) of the renderer's."""
    r, det = bench_scene(seed, seed0)
    for stern in sterns:
        (truth,) = [p for p in r.truth["pieces"] if p["size"] == size and p["color"] == color
                    and math.dist(p["stern"], stern) < 2.0]
        assert match(dict(r.truth, pieces=[truth]), det).matched == 1
        p = min(det.pieces, key=lambda q: math.dist(q.pose.stern_mm, truth["stern"]))
        assert p.size.value == size and p.color == color
        assert math.dist(p.pose.stern_mm, truth["stern"]) < 2 * p.sigma_mm + 0.5


def test_a_touching_pair_whose_second_piece_no_corner_reaches_is_found():
    # Two red mediums side by side, each tip against the other's side (issue 4, seed 2120 of
    # the set from 1936): the region's corners are their sterns'; from the right one's the
    # short fits screen over 2 × MAX_COST both ways round, so no pair was tried and both were
    # missed, though each fits its true pose at 0.01-0.02. The left one fits well; the right
    # one is what it leaves of the region (explain.partner_from_rest).
    _found_at_truth(2120, 1936, "medium", "red", [(430.0, 298.0), (473.0, 292.0)])


def test_a_dull_piece_touching_a_vivid_one_is_read_on_the_unscaled_map():
    # A green medium touching a red small (issue 4, seed 2129 of the set from 1936, 720p): the
    # region's map is scaled to the red's score, so the green's faces sink below its 0 level
    # (true pose 1.7 there, 0.06 on the unscaled map) and the red alone explained the region
    # (detect._dull_beside_vivid).
    _found_at_truth(2129, 1936, "medium", "green", [(388.0, 434.0)])


def _found_in_colour_never_trusted(seed: int, seed0: int, size: str, color: str,
                                   stern: tuple[float, float]) -> None:
    """The renderer's piece is found at its size and colour, with a σ the rules do not trust
    (read from its colour's own area: explain.pieces_in_colour)."""
    _found_at_truth(seed, seed0, size, color, [stern])
    assert found(seed, size, color, stern, seed0=seed0).sigma_mm > 1.5


@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (1875, 1648, "medium", "blue", (304.0, 170.0)),
    (2093, 1936, "small", "blue", (373.0, 229.0)),
    (2342, 2224, "medium", "green", (254.0, 194.0)),
    (2392, 2224, "medium", "blue", (271.0, 412.0)),
    (2651, 2512, "large", "green", (106.0, 424.0)),
    (2690, 2512, "large", "red", (164.0, 257.0)),
    (2767, 2512, "small", "purple", (233.0, 214.0)),
])
def test_a_touching_piece_of_another_colour_is_found_in_its_colour(
        seed, seed0, size, color, stern):
    # Touching pieces, of different colours or one coloured beside a colourless one, whose
    # region nothing explained, not even leftover_piece or touching_pieces, though each true
    # pose fits the scaled map at 0.01-0.22 (issue 4, recall16): each colour's own area,
    # parted where the hue steps (colour_areas.colours_apart), is read as a hand's region's is
    # (explain.pieces_in_colour). Nothing confirms such a reading as a pair's partner
    # does: never trusted.
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (2360, 2224, "small", "cyan", (157.0, 338.0)),
])
def test_a_coloured_piece_beside_a_colourless_one_is_not_made_a_longer_ones_room(
        seed, seed0, size, color, stern):
    # A coloured piece touching a colourless one (issue 4: 2900's red medium beside a clear
    # piece, 2360's cyan small beside a white large; 2219's cyan medium below): read from its
    # colour's area 1-3 mm from the renderer's pose, it was dropped because a longer piece's
    # extra length lay in the region, its neighbour's, as if a hand might hide it there
    # (σ 9.9 mm for 2360's). A longer one would show its colour there: only colour areas
    # may hide it (detect.py's apart pass).
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (4082, "large", "green", (413.1, 497.8)),
    (4085, "large", "orange", (143.3, 93.2)),
    (4199, "small", "cyan", (417.0, 296.9)),
    (4040, "small", "purple", (367.3, 472.4)),
])
def test_a_coloured_piece_touching_a_piece_found_is_found_in_its_colour(
        seed, size, color, stern):
    # A coloured piece in plain view touching a piece that was found (issue 4, touch23:
    # 4082's green large against a red large, 4085's orange large against an orange medium,
    # 4207's blue medium against a green large, 4199's cyan small against a black small):
    # its region counted as explained by the neighbour's reading, so the colour pass of
    # regions nothing explained never ran. The colour area the readings leave is read in its
    # colour (colour_areas.colours_left); 4040's purple small beside a cyan medium fits on the
    # unscaled map only (0.53 scaled, 0.15). Never trusted: nothing confirms it.
    _found_in_colour_never_trusted(seed, 3952, size, color, stern)


@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (4009, "small", "yellow", (262.0, 169.0)),
    (4199, "small", "green", (363.0, 243.0)),
    (4204, "small", "yellow", (490.0, 374.0)),
])
def test_a_coloured_piece_beside_a_hand_is_found_in_its_colour(seed, size, color, stern):
    # A small in its colour area beside a hand (issue 4, hand24): it fits (4204's at 0.017)
    # and its only rival is a longer piece whose extra length would lie under the hand, which
    # made explain.pieces_in_colour drop it as not clean. Kept with σ covering that longer
    # size (its colour area is no disc: round_area). Never trusted.
    _found_in_colour_never_trusted(seed, 3952, size, color, stern)


def test_no_piece_is_read_on_a_coin_beside_a_hand():
    # 4014's coin beside a hand: its yellow area fits a small at 0.05 with only a longer size
    # under the hand as rival, as the pieces above; but the area fills 0.54 of its smallest
    # enclosing circle (a piece's 0.31-0.46), so it is no piece (explain.ROUND_FILL).
    r, det = bench_scene(4014, 3952)
    t = match(r.truth, det, "seed 4014")
    assert t.found == t.truth
    assert not [e for e in t.misses if ": false " in e]


@pytest.mark.parametrize("seed", [3377, 3485])
def test_no_piece_is_read_in_the_colour_left_by_a_piece_read_short(seed):
    # The colour pass on what a region's readings leave (colour_areas.colours_left) read a false
    # small in the rest of a piece read short (3377's orange medium read as a small, 3485's
    # cyan large as a medium: that rest is in the longer size's footprint from the reading's
    # tip, colour_areas._rest_of_shorter). No false piece, as bench_vision counts them.
    r, det = bench_scene(seed, 3376)
    t = match(r.truth, det, f"seed {seed}")
    assert not [e for e in t.misses if ": false " in e]


def test_a_coloured_piece_beside_a_clear_one_found_is_read_whole():
    # 2219's cyan medium (above, before clear21): once the clear large beside it is found
    # (segment.SPLIT_MM), its region is explained and the cyan is read there, not from its
    # colour's area: at its pose (0.2 mm off), its σ covering the error.
    p = piece_found(2219, 1936, "medium", "cyan", (338.96, 213.28))
    assert math.dist(p.tip_mm, (374.77, 207.28)) <= 2 * p.sigma_mm + 0.5
    assert clear_piece_found(2219, 1936, "large", (330.69, 184.74)).sigma_mm > 1.5


def test_a_red_piece_beside_a_clear_one_found_on_cloth_is_read_whole():
    # 2900's red medium (above, before recall23), as 2219's cyan: once the clear medium beside
    # it is found (a doubtful fit on the desaturated pass, crisp.DOUBT_FLOOR_MM), the red is
    # read in what its region leaves, at its pose (0.4 mm off), not from its colour's area.
    p = piece_found(2900, 2800, "medium", "red", (303.4, 482.5))
    assert math.dist(p.tip_mm, (280.39, 510.59)) <= 2 * p.sigma_mm + 0.5
    assert clear_piece_found(2900, 2800, "medium", (319.09, 479.05)).sigma_mm > 1.5


@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (1795, 1648, "small", "red", (451.2, 101.1)),
    (1915, 1648, "medium", "blue", (346.7, 91.4)),
    (1935, 1648, "large", "green", (327.3, 261.3)),
    (1948, 1936, "large", "cyan", (154.1, 329.0)),
    (2003, 1936, "large", "red", (294.7, 175.4)),
    (2043, 1936, "small", "red", (464.3, 327.2)),
    (2048, 1936, "medium", "orange", (282.0, 344.7)),
    (2138, 1936, "small", "yellow", (435.9, 316.3)),
    (2153, 1936, "medium", "blue", (223.8, 373.1)),
    (2153, 1936, "large", "blue", (297.5, 186.5)),
    (2153, 1936, "large", "green", (231.1, 167.4)),
    (2158, 1936, "small", "green", (199.0, 178.4)),
    (2168, 1936, "medium", "purple", (473.7, 134.8)),
    (2188, 1936, "medium", "purple", (455.6, 96.6)),
    (2198, 1936, "medium", "purple", (439.1, 129.0)),
])
def test_a_piece_in_a_hands_region_whose_tip_is_no_corner_of_it_is_found(
        seed, seed0, size, color, stern):
    # Pieces touching a hand, an arm or its shadow (issue 4): their region runs off the view,
    # so only pieces_at_tips reads it, from its corners under 80°; each piece's tip is none
    # (it lies against the hand or its shadow) though its true pose fits at 0.01-0.33. The
    # area of its own colour has the corners and the axis (explain.pieces_in_colour,
    # look.vivid_in). A hand may lie over such a piece: never trusted.
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


def test_no_piece_is_read_short_in_its_colour_cut_by_a_finger():
    # A red medium under a finger (seed 1920 of the set from 1648; the truth leaves it out):
    # its colour's area in the hand's region is cut where the finger lies over it, and a
    # small from its tip covered the area (0.17, σ 1.7 mm). Of that small's outline as seen
    # only 0.68 is red (the true pieces read so: 0.76-0.96): no reading.
    r, det = bench_scene(1920, 1648)
    (truth,) = [p for p in r.truth["pieces"] if p["size"] == "medium" and p["color"] == "red"
                and math.dist(p["stern"], (218.9, 271.2)) < 2.0]
    assert truth["occluded"]
    assert not [p for p in det.pieces if p.color == "red" and p.size.value != "medium"
                and math.dist(p.tip_mm, truth["tip"]) < 10.0]


# A white large whose open base faces the camera, read as a small at its stern inside its
# deep hollow (issue 4, trust15; seed 2078 of the set from 1936: σ 1.2 mm, its tip 18 mm short
# of the true tip). The face ahead of the small's base is as dark as the hollow (0.29 × the
# table), where white plastic would be lit: the hollow goes on, so σ covers the longer piece
# along its axis (open_base.hollow_ahead_mm) and the rules answer "in doubt".
def test_a_white_large_read_short_inside_its_deep_hollow_is_no_sure_wrong_size():
    assert_no_sure_wrong_size(2078, 1936, "large", "white", (377.9, 394.0))


def _overlapping_false_piece(seed: int, seed0: int, size: str, color: str,
                             stern: tuple[float, float]) -> None:
    """The one detection no truth piece's stern is near (10 mm), if any, overlaps the truth
    piece of ``size`` and ``color`` at ``stern``: it is not trusted (σ over 3 mm); and the real
    piece it overlapped is found at its size and colour and stays trusted (σ ≤ 1.5 mm). (Since
    session 19 a reading overlapping another by 0.10 of its footprint clashes and is not
    kept: 1818's, 0.15 on the large, is gone; scene.CLASH_SHARE.)"""
    r, det = bench_scene(seed, seed0)
    (truth,) = [p for p in r.truth["pieces"] if p["size"] == size and p["color"] == color
                and math.dist(p["stern"], stern) < 2.0]
    sterns = [p["stern"] for p in r.truth["pieces"]]
    false = [d for d in det.pieces if min(math.dist(d.pose.stern_mm, s) for s in sterns) > 10]
    assert len(false) <= 1
    if false:
        fp = footprint(false[0].pose, NOMINAL_PIECES.dims(false[0].size))
        tfp = footprint(Pose(*truth["stern"], truth["heading"]), NOMINAL_PIECES.dims(size))
        assert fp.intersection(tfp).area > 0.08 * fp.area, "the false piece is not on the real one"
        assert false[0].sigma_mm > 3.0
    real = min(det.pieces, key=lambda d: math.dist(d.pose.stern_mm, truth["stern"]))
    assert real.size.value == size and real.color == color and real.sigma_mm <= 1.5


# Two lying pieces never share table (issue 4, trust15): a reading that a better-fitting one
# overlaps by 0.08 of its footprint or more is wrong (detect._overlaps_better). Seed 1818 of
# the set from 1648: a white large's shadow beside it read as a clear medium (σ 1.5 mm, 15 %
# of it on the large); seed 2177 of the set from 1936: bare wood under a red large's base read
# as an orange large (σ 1.2 mm, 27 % on the red).
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (1818, 1648, "large", "white", (207.1, 250.3)),
    (2177, 1936, "large", "red", (248.2, 447.5)),
])
def test_a_reading_a_better_one_overlaps_is_not_trusted(seed, seed0, size, color, stern):
    _overlapping_false_piece(seed, seed0, size, color, stern)


# The same tell on a real piece read end for end (seed 2012 of the set from 1936): a yellow
# small whose tip lies under a cyan large, read turned round (stern 14 mm off) at σ 1.2 mm,
# 13 % of it on the large.
def test_a_small_read_end_for_end_into_its_neighbour_is_not_trusted():
    r, det = bench_scene(2012, 1936)
    (truth,) = [t for t in r.truth["pieces"] if t["size"] == "small" and t["color"] == "yellow"]
    (p,) = [d for d in det.pieces if d.size.value == "small" and d.color == "yellow"]
    assert math.dist(p.tip_mm, truth["tip"]) < 35.0, "not the yellow small's reading"
    if max(math.dist(p.pose.stern_mm, truth["stern"]), math.dist(p.tip_mm, truth["tip"])) > 3.0:
        assert p.sigma_mm > 3.0


# A white piece's open base, where the camera sees into it, is a hollow its walls shade
# (issue 4, trust15; open_base.lit_base_seen): a white reading whose base as seen is lit with no
# step to the face ahead has no base there. Smalls turned across a faint white large, their
# "base" on its lit face (2153 of the set from 1936 at σ 3.5 mm, 1742 of the set from 1648 at
# σ 5.4 mm, both 45-49 mm off at the worse end): the rules answer "in doubt".
@pytest.mark.parametrize("seed, seed0, stern", [
    (2153, 1936, (236.4, 392.5)),
    (1742, 1648, (173.3, 423.0)),
])
def test_a_small_turned_across_a_white_large_is_no_sure_wrong_size(seed, seed0, stern):
    assert_no_sure_wrong_size(seed, seed0, "large", "white", stern)


# The same tell on bare table (seed 2069 of the set from 1936): the lit laminate between a
# red medium's and a black large's shadows read as a white small at σ 0.5 mm, its "base" as
# lit as the table. The five real pieces keep their σ (trusted, under 1.5 mm).
def test_bare_laminate_between_two_shadows_read_as_a_white_small_is_not_trusted():
    r, det = bench_scene(2069, 1936)
    sterns = [p["stern"] for p in r.truth["pieces"]]
    false = [d for d in det.pieces if min(math.dist(d.pose.stern_mm, s) for s in sterns) > 10]
    assert len(false) == 1 and false[0].color == "white"
    assert false[0].sigma_mm > 3.0
    real = [d for d in det.pieces if d is not false[0]]
    assert match(r.truth, det).matched == 5 and all(d.sigma_mm < 1.5 for d in real)


# The same tell on a white large read as two smalls (seed 2153 of the set from 1936): besides
# the small turned across it, a second one at its tip (false, σ 1.5 mm, the crisp pass's
# floor) whose base as seen is no darker than the face ahead (0.80 / 0.80 × the table).
# (Session 24, clear32: the false one at the tip, its darkest tenth and the large's lit face
# round it like a clear piece's, is named clear by detect.CLEAR_LIT_*: still false, not trusted.)
def test_a_white_large_read_as_two_smalls_is_not_trusted():
    r, det = bench_scene(2153, 1936)
    (large,) = [p for p in r.truth["pieces"] if p["size"] == "large" and p["color"] == "white"]
    on = [d for d in det.pieces if d.color in ("white", "clear") and d.size.value == "small"
          and math.dist(d.pose.stern_mm, large["stern"]) < 50.0]
    assert len(on) == 2 and all(d.sigma_mm > 3.0 for d in on)


# A vivid piece's colour goes on past a reading on a table of its hue (issue 4, trust16): the
# table's own pixels have the piece's hue there, so _colour_goes_on skipped such tables, but
# plastic is more saturated than the table (here by 58-108 levels of HSV saturation) and a
# ring pixel that much more saturated than the table's estimate there is plastic. 2291 (set
# from 2224): a green large on green felt read as a medium at σ 1.1 mm, its lit base rim past
# the medium's stern (0.34 of the ring; right vivid readings on such tables 0.28 at most over
# the 1648-, 1936- and 2224-sets).
def test_a_vivid_piece_read_short_on_a_table_of_its_hue_is_no_sure_wrong_size():
    assert_no_sure_wrong_size(2291, 2224, "large", "green", (444.3, 408.4))


# The same on wood (set from 1936, seed 2223): a red die read as a red small at σ 1.3 mm, a
# false ship the rules would trust (0.33 of its ring is the die's red plastic). The real
# pieces keep their σ.
def test_a_red_die_on_wood_read_as_a_small_is_not_trusted():
    r, det, _ = _die_read_doubtful(2223, 1936, "red")
    sterns = [p["stern"] for p in r.truth["pieces"]]
    real = [d for d in det.pieces if min(math.dist(d.pose.stern_mm, s) for s in sterns) < 3]
    assert len(real) == 4 and sum(d.sigma_mm < 1.5 for d in real) == 3


# And a standing red medium on wood (set from 2224, seed 2337) read as a lying red small at
# σ 1.5 mm: its other faces' red goes on round the reading (0.37 of the ring). Read lying in
# doubt under OpenCV 5.0's render, not read at all under 5.1's (a grey level apart in a few
# pixels): either way no reading on it the rules would trust.
def test_a_standing_piece_on_wood_of_its_hue_read_lying_is_not_trusted():
    r, det = bench_scene(2337, 2224)
    (up,) = [u for u in r.truth["upright"] if u["color"] == "red"]
    on = [d for d in det.pieces if math.dist(d.pose.stern_mm, up["center"]) < 12]
    assert len(on) <= 1 and all(d.sigma_mm > 3.0 for d in on)


# A faint clear large read as a small inside or across it (issue 4, trust18): the small fits
# the part of the large whose edges show, at cost 0.22-0.47, where most right clear readings
# fit at 0.20 or better; such a clear reading's σ covers the large (detect.CLEAR_SHORT_COST).
@pytest.mark.parametrize("seed, seed0, stern", [
    (2381, 2224, (149.0, 294.0)),   # read as a small, σ 0.6 mm, 20 mm off
    (2404, 2224, (313.0, 191.0)),   # a small across it, σ 4.8 mm, 49 mm off
    (2600, 2512, (170.0, 424.0)),   # read as a small, σ 2.0 mm, 31 mm off
    (3274, 3088, (303.0, 135.0)),   # read as a small, σ 1.0 mm (held out when the rule was set)
])
def test_a_clear_large_read_short_is_in_doubt(seed, seed0, stern):
    assert_no_sure_wrong_size(seed, seed0, "large", "clear", stern)


# The same rule on the 3088-set, held out when CLEAR_SHORT_COST was set: a clear medium read as
# a small, and a black small named clear and read as a medium (both σ 1.0 mm before).
@pytest.mark.parametrize("seed, size, color, stern", [
    (3126, "medium", "clear", (234.0, 150.0)),
    (3124, "small", "black", (504.0, 462.0)),
])
def test_a_clear_reading_short_of_a_large_fitting_loosely_is_in_doubt(seed, size, color, stern):
    assert_no_sure_wrong_size(seed, 3088, size, color, stern)


# A faint white piece read one size off where the fit map is mostly table (issue 4, white18):
# the other size fits the part whose edges show; the reading's footprint is 0.44 / 0.39 /
# 0.10 foreground, where right trusted white readings are 0.5 and more but for 3 of about 450
# (1648-2799). Such a white reading's σ covers any other size (detect.FAINT_WHITE_FG). 3079
# and 3215 were held out when the rule was set.
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1712, 1648, "medium", (124.0, 412.0)),  # read as a small, σ 1.1 mm, 7.0 mm off
    (3079, 2800, "medium", (139.0, 506.0)),  # read as a small, σ 0.8 mm, 6.6 mm off
    (3215, 3088, "small", (256.0, 152.0)),   # read as a medium, σ 1.5 mm, 7.5 mm off
])
def test_a_faint_white_piece_read_one_size_off_is_in_doubt(seed, seed0, size, stern):
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern)


# A vivid piece read one size short whose lit colour goes on past its stern (issue 4,
# stern21): 3413's yellow medium lies with its base against a green medium's side and was read
# from its tip as a small, σ 0.5 mm, 7.9 mm off; the whole ring's share of its colour is small
# (only the stern's side goes on), but the ring behind its stern is its lit yellow plastic
# (detect.VIVID_STERN_SHARE). Right readings of the 3376-set kept their σ.
def test_a_vivid_piece_read_short_whose_colour_goes_on_past_its_stern_is_in_doubt():
    assert_no_sure_wrong_size(3413, 3376, "medium", "yellow", (401.0, 467.0))


# Issue 4, a clear piece touching a coloured one on laminate (clear21): their crisp outlines
# join, the coloured piece's strong pixels made the joint area fail segment.FAINT_MAX_STRONG,
# and the table estimate took the clear piece in (score > 2 on 0.00-0.02 of its footprint).
# What is left of the area away from the vivid pixels (segment.SPLIT_MM) is judged alone: the
# clear piece's darkening counts and it is found, in doubt (it slides 1.5-1.8 mm off its open
# base; σ 14-38 mm covers it).
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1736, 1648, "small", (387.4, 210.8)),    # its tip against a green medium's tip
    (1799, 1648, "medium", (199.5, 340.8)),   # its tip against a green medium's side
    (2054, 1936, "medium", (392.1, 213.3)),   # beside a blue small
    (2219, 1936, "large", (330.7, 184.7)),
])
def test_a_clear_piece_touching_a_coloured_one_is_found(seed, seed0, size, stern):
    clear_piece_found(seed, seed0, size, stern)


# A clear piece on wood, felt or cloth whose muted area (segment.desaturated) the grain or the
# weave breaks (issue 4, session 23): its ragged edges cost even the true pose 0.37-0.58 on the
# desaturated pass's map, over GOOD_COST, and it was missed. Such a doubtful fit is kept when
# no good one is and the piece read is named clear, always in doubt (crisp.DOUBT_FLOOR_MM).
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (1790, 1648, "medium", (448.7, 501.1)),   # wood, beside a white large
    (1881, 1648, "large", (477.8, 442.1)),    # felt
    (2062, 1936, "small", (316.0, 183.4)),    # wood
    (2173, 1936, "medium", (199.9, 373.9)),   # wood
])
def test_a_clear_piece_on_a_coloured_table_fitting_loosely_is_found_in_doubt(seed, seed0, size,
                                                                            stern):
    p = clear_piece_found(seed, seed0, size, stern)
    assert p.sigma_mm > 1.5


# A clear piece on wood whose muted area another size explains nearly as well (issue 4,
# clear25): the one-size rule (crisp.SIZE_DOUBT_MM) dropped it, 8 of the 4528-set's 19 clear
# misses on wood. Kept when named clear, in doubt, σ covering both sizes: found, and where read
# at the other size, its worse end within 2σ.
@pytest.mark.parametrize("seed, size, stern", [
    (4596, "medium", (363.7, 381.4)),   # read at its size, a small inside it as good
    (4653, "large", (462.5, 317.7)),    # half its area muted: read as a small
    (4668, "large", (298.3, 145.8)),    # read as a medium
])
def test_a_clear_piece_on_wood_of_doubtful_size_is_found_in_doubt(seed, size, stern):
    assert_clear_found_in_doubt(seed, 4528, size, stern)


# ... but not where its footprint overlaps a reading found (crisp.SIZE_DOUBT_MM): 4631's clear
# large, its muted area broken in two by the grain, read as a small from each patch.
def test_a_clear_piece_whose_muted_area_breaks_in_two_is_read_once():
    assert_no_false_piece(4631, 4528)


# A clear piece on wood or cloth whose muted area runs past its outline, or covers only part
# of it (issue 4, session 23, clear31, set from 5968): every fit hid part of its outline inside
# the area itself (0.13-0.33 of it), counted as misses, so none was kept (the medium at 6108's
# true pose 0.42 raw, over MAX_COST counting the hidden part). As on the crisp pass (clear26),
# an area where nothing is read keeps its best fit once those samples are excused, named
# clear, in doubt of its size and place (crisp_pieces' soft_clear on the desaturated pass).
@pytest.mark.parametrize("seed, size, stern", [
    (6108, "medium", (451.3, 131.9)),   # wood, 10-22°, read as a small
    (6131, "medium", (143.4, 434.6)),   # wood, 0-10°, at its size
    (6096, "large", (376.5, 283.7)),    # wood, 10-22°, read as a small
    (6062, "medium", (438.4, 460.2)),   # cloth, 22-35°, at its size
    (6179, "medium", (438.6, 253.5)),   # cloth, 0-10°, at its size
])
def test_a_clear_piece_whose_muted_area_runs_past_it_is_found_in_doubt(seed, size, stern):
    assert_clear_found_in_doubt(seed, 5968, size, stern)


# ... but not in a muted area that runs off the view (crisp.soft_off): 4322's arm (set from
# 4240, wood, 22-35°), duller than the wood where it leaves the image and outside the hand's
# region, was read as a clear small at (258, 8) on the first version (σ 42.8 mm, false); nor
# on a patch the score does not count that is no darkening (crisp._muted_as_clear): its clear
# large's muted area, partly bare wood (×1.06 the table), read as a small across it, 19 mm
# off (σ 31.8 mm, counted false).
def test_a_muted_area_running_off_the_view_is_not_read_as_a_clear_piece():
    r, det = bench_scene(4322, 4240)
    assert all(math.dist(p.pose.stern_mm, (257.5, 7.7)) > 20 for p in det.pieces)
    assert not any("false" in m for m in match(r.truth, det).misses)


# ... nor a shadow on cloth (crisp._muted_as_clear): 4943's two orange pieces on blue cloth
# (set from 4816, missed) cast a shadow the desaturated pass takes in with their rims; read
# as a clear small on the first version (footprint ×0.73 the table, the score over it 3.5).
# The clear pieces read so: ×0.92-1.31 on cloth and felt, ×0.75-0.90 on wood with the score
# under FAINT_SCORE.
def test_a_shadow_on_cloth_is_not_read_as_a_clear_piece_by_the_desaturated_pass():
    r, det = bench_scene(4943, 4816)
    assert r.truth["surface"] == "cloth"
    assert not any("false" in m for m in match(r.truth, det).misses)


# ... and a part whose strong neighbours are colourless is not judged alone (segment.
# SPLIT_VIVID_SHARE): a white piece's shaded face and shadow beside its open base looked
# faint and grew its region. Split off, 1762's white medium and 1831's white large were lost,
# and 2147's white medium's shaded face, split from an area shared with a purple large, cost
# the purple.
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (1762, 1648, "medium", "white", (192.4, 420.8)),
    (1831, 1648, "large", "white", (262.4, 195.5)),
    (2147, 1936, "large", "purple", (156.5, 143.5)),
])
def test_no_piece_is_lost_to_a_faint_part_split_off_a_white_one(seed, seed0, size, color, stern):
    assert found(seed, size, color, stern, seed0=seed0) is not None


def _white_found_by_its_base(seed: int, seed0: int, size: str, stern: tuple[float, float]
                             ) -> None:
    """The white piece of ``size`` at ``stern`` (table mm) is found at its size, named white,
    within 3 mm, and in doubt (a base quad's reading is never trusted)."""
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None
    assert p.size.value == size and p.color == "white"
    assert math.dist(p.pose.stern_mm, stern) < 3.0
    assert p.sigma_mm > 1.5


# White pieces on laminate whose faces are the table's shade, seen by their open base alone
# (issue 4, white21): the fit map shows only the dark hollow, and the fit of the whole
# outline at the renderer's true pose costs 1.1-1.6. The base quad as seen gives the pose
# and the size (base_quad.pieces_from_base); such a reading is never trusted.
@pytest.mark.parametrize("seed, size, stern", [
    (1972, "small", (487.0, 305.0)),   # 0-10°, 1920×1080
    (2010, "large", (125.0, 299.0)),   # 10-22°, 1920×1080
    (2010, "large", (439.0, 209.0)),
    (2133, "large", (459.0, 321.0)),   # 22-35°, 1280×720
])
def test_a_white_piece_seen_by_its_open_base_alone_is_found_in_doubt(seed, size, stern):
    _white_found_by_its_base(seed, 1936, size, stern)


# A reading's tip inside another reading's footprint (issue 4, tip21): a tip is a point on the
# table, and two lying pieces never share table. 3485's white small, named clear, was read as a
# medium whose tip runs 1.3 mm into a green small's base (σ 1.5 mm, 7.2 mm off); 3530's white
# small was read 31 mm off, its tip 0.6 mm inside a neighbour (σ 1.3 mm). Right readings of the
# 1936- and 3376-sets reach 0.21 mm in at most (detect.TIP_INSIDE_MM 0.5).
def test_a_white_small_read_long_into_its_neighbour_is_in_doubt():
    assert_no_sure_wrong_size(3485, 3376, "small", "white", (98.0, 158.0))


def test_a_white_small_read_far_off_with_its_tip_in_a_neighbour_is_in_doubt():
    assert_no_sure_wrong_size(3530, 3376, "small", "white", (150.8, 275.2), any_size=True)


# A white reading whose lit face goes on past its tip (issue 4, trust22): 3716's white large
# (22-35°, 1920×1080) was read as a medium from its stern, σ 0.8 mm, its faint tip
# 10 mm past the reading's; 0.28 of the strip a large would add past the tip is white
# plastic, right trusted white readings of the 1648- and 3664-sets reach 0.20
# (detect.WHITE_PAST_TIP 0.22).
def test_a_white_large_read_as_a_medium_with_its_face_past_the_tip_is_in_doubt():
    assert_no_sure_wrong_size(3716, 3664, "large", "white", (497.9, 189.1))


# A doubtful reading's size is in doubt too (issue 4, trust23): of the readings a tell puts in
# doubt, one in four is another size on the tuning sets, and of those fitting worse than
# detect.SIZE_DOUBT_COST one in nine; their σ covers every other size. 4025's white medium
# (0-10°, 1280×720) was read as a small 40 mm off at cost 0.54, σ 6.6 mm; 4064's yellow large
# (22-35°, 1920×1080), in doubt by its colour going on, as a small 49 mm off, σ 12.6 mm.
@pytest.mark.parametrize("seed, size, color, stern", [
    (4025, "medium", "white", (494.3, 299.7)),
    (4064, "large", "yellow", (426.6, 104.0)),
])
def test_a_doubtful_reading_of_the_wrong_size_has_a_sigma_covering_the_other_sizes(
        seed, size, color, stern):
    assert_no_sure_wrong_size(seed, 3952, size, color, stern)


# A white piece seen by its open base alone, named clear (issue 4, white24): on grey laminate
# its footprint's median lies between its dark hollow and its faces (×0.59-0.79 of the table),
# which the colour test takes for clear plastic, a dimmer table; so the open base's reading
# was dropped. A clear piece's walls let the light into its hollow (the renderer: ×0.86 of the
# table behind), so a hollow ×0.3-0.5 dark is opaque plastic, named white by its lit faces.
@pytest.mark.parametrize("seed, size, stern", [
    (4383, "medium", (198.6, 279.6)),   # 22-35°, 1280×720, on lilac laminate
    (4448, "small", (211.8, 132.0)),    # 22-35°, 1920×1080
    (4473, "small", (342.9, 266.3)),    # 22-35°, 1280×720
    (4485, "small", (148.9, 287.0)),    # 22-35°, 1280×720
])
def test_a_white_piece_seen_by_its_dark_open_base_is_not_named_clear(seed, size, stern):
    _white_found_by_its_base(seed, 4240, size, stern)


# ... nor black, its base turned to a tilted camera (issue 4, session 58, recallwhite68): its
# hollow fills the footprint's middle, so the inner crop names it black (brightest tenth
# 66-142 over a table of 191-209) and the open base's reading was dropped; nearly the whole
# footprint (colors.BASE_WHITE_SHRINK, 0.9) takes in the white rim round the hollow (186-197,
# over WHITE_MIN_V and 0.85 of the table's value), which black plastic never reaches. Both
# missed on 5a949b6, beside a coloured piece on the laminate at 1920×1080, 22-35°.
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (13286, 13168, "large", (196.9, 465.9)),   # beside a purple large
    (16532, 16336, "small", (478.6, 319.6)),   # beside a purple large
])
def test_a_white_piece_whose_open_base_fills_its_middle_is_not_named_black(seed, seed0, size,
                                                                           stern):
    _white_found_by_its_base(seed, seed0, size, stern)
    assert_no_false_piece(seed, seed0)


# ... nor dropped by the clear path for its dark hollow (issue 4, session 58, recallwhite68;
# detect._clear_from_base, see CLEAR_BASE_FG_MAX): a white piece whose hollow's dark area under
# base_quad.BASE_DARK is its deepest part only (no quad for white_bases) is read from its base
# at the clear path's lighter level, then was dropped as no clear piece (hollow median 0.31 and
# 0.35, under BASE_DARK); named white as opaque plastic it is read in doubt. Both missed on
# 5a949b6 (white smalls on the laminate).
@pytest.mark.parametrize("seed, seed0, stern", [
    (14576, 14320, (397.8, 434.4)),   # 1920×1080, 22-35°, a green small across its base
    (9363, 9136, (425.8, 411.5)),     # 1280×720, 22-35°, alone
])
def test_a_white_piece_read_from_its_base_at_the_clear_level_is_not_dropped(seed, seed0,
                                                                             stern):
    _white_found_by_its_base(seed, seed0, "small", stern)
    assert_no_false_piece(seed, seed0)


# ... but a base read there whose seen footprint shows coloured plastic is a vivid piece's open
# base, no white piece's (issue 4, session 60, trace70; detect.WHITE_BASE_VIVID): the
# 11440-set's 11666 (the laminate, 1920×1080, 22-35°), a yellow large read as a medium from its
# tip, its base face seen past its stern read as a white small (0.33 of the footprint as
# saturated as plastic; the white smalls above 0.00). A false white small at σ 99 mm since
# recallwhite68 (fails on 522ee5e); the yellow large is found as before.
def test_a_vivid_piece_open_base_read_at_the_clear_level_is_no_white_piece():
    assert_no_false_piece(11666, 11440)
    assert found(11666, "large", "yellow", (366.6, 208.0), seed0=11440) is not None


# A white piece read by its top face alone, turned about its tip (issue 4, trust25): a lying
# pyramid's side faces lean out over the table, so a tilted camera sees the one on its side,
# shaded, between the footprint's edge and the ridge from the raised base corner to the tip.
# On a pale table (or beside a black piece) the fit's edge went on the ridge: the stern 3-4 mm
# off at σ 0.5-0.9 mm, the heading ~7° off. Along the ridge such a pose puts inside the top
# face, both sides are the top face (a step of 0-1 grey levels; right readings 7 and more), so
# σ covers the side face's width (detect._flat_ridge_mm).
@pytest.mark.parametrize("seed, seed0, stern", [
    (4568, 4528, (436.0, 257.6)),   # 22-35°, 1920×1080, beside a black small, on wood
    (4572, 4528, (332.7, 382.2)),   # 10-22°, 1920×1080, on grey laminate
    (4227, 3952, (345.8, 445.2)),   # 22-35°, on grey laminate
])
def test_a_white_small_read_by_its_top_face_alone_is_in_doubt(seed, seed0, stern):
    assert_no_sure_wrong_size(seed, seed0, "small", "white", stern, any_size=True)


# The same tell leaves right white readings whose ridge shows trusted: 4537's small (10-22°,
# step 24) and 4538's medium (22-35°, step 9, the smallest of the 4528-set's right ones).
@pytest.mark.parametrize("seed, size, stern", [
    (4537, "small", (253.4, 296.5)),
    (4538, "medium", (291.5, 473.2)),
])
def test_a_white_piece_whose_side_face_ridge_shows_stays_trusted(seed, size, stern):
    p = found(seed, size, "white", stern, seed0=4528)
    assert p is not None and p.size.value == size
    assert math.dist(p.pose.stern_mm, stern) <= 1.5 and p.sigma_mm <= 1.5


# A small piece whose tip hides under a neighbour (as the tilted camera sees it) shows its base
# end alone, and a reading turned into that seen part fitted it: 30-34 mm off at σ 1.1-1.3 mm,
# a third of its outline hidden under the neighbour (issue 4, hidden26). The true pose, turned
# about the reading, fits better (0.01-0.04 against 0.25-0.34), so σ covers it
# (detect._turned_mm).
@pytest.mark.parametrize("seed, seed0, color, stern", [
    (2126, 1936, "blue", (210.0, 462.0)),    # beside a red medium, on wood
    (2348, 2224, "blue", (170.0, 285.8)),    # beside another blue small, on wood
    (4994, 4816, "green", (317.1, 495.6)),   # under a blue medium lying across it
])
def test_a_small_read_turned_into_its_part_a_neighbour_leaves_seen_is_in_doubt(
        seed, seed0, color, stern):
    assert_no_sure_wrong_size(seed, seed0, "small", color, stern, any_size=True)


# The same question leaves right readings partly hidden by a neighbour trusted: no reading
# turned about them fits nearly as well (1936-set: 1946's green large 31 % hidden, 1976's red
# small 29 %, 2102's green small 27 %; 2224-set: 2459's red small 39 %, as hidden as the
# cases, no turned fit; 2336's yellow small 34 %, its best turned fit 0.20 worse, the nearest
# of the two sets; 2348's second blue small, 25 %).
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (1946, 1936, "large", "green", (427.1, 346.9)),
    (1976, 1936, "small", "red", (343.9, 249.0)),
    (2102, 1936, "small", "green", (196.6, 376.2)),
    (2459, 2224, "small", "red", (457.6, 391.9)),
    (2336, 2224, "small", "yellow", (254.4, 350.8)),
    (2348, 2224, "small", "blue", (193.0, 272.6)),
])
def test_a_right_reading_partly_hidden_by_a_neighbour_stays_trusted(
        seed, seed0, size, color, stern):
    assert_kept_trusted(seed, seed0, size, color, stern, within_mm=1.5)


# The held-out 3088-set's one trusted wrong size, 3278's white large read as a small (named
# black, σ 1.0 mm): a reading turned about it fits as well, so it is in doubt too.
def test_a_reading_another_turned_about_it_fits_as_well_is_in_doubt():
    assert_no_sure_wrong_size(3278, 3088, "large", "white", (186.5, 232.3))


# A clear piece on laminate whose crisp area runs past its outline as seen (issue 4, clear26):
# its rim, the ridge of a face lit like the table, a soft end. Every fit hid 0.12-0.29 of its
# outline inside the area itself, counted as misses, and nothing was read. Those samples are
# excused when nothing else reads the area (crisp.SOFT_HIDDEN): the piece is read in doubt of
# its size and place (σ covering every size), named clear.
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (4827, 4816, "large", (218.9, 168.1)),   # 22-35°, read as a small
    (4921, 4816, "large", (165.2, 152.1)),   # 10-22°, read at its size 0.9 mm off
    (4982, 4816, "large", (223.6, 470.5)),   # 22-35°, read as a medium
    (4571, 4528, "medium", (117.8, 278.4)),  # 0-10°, a purple large's shadow in its area
])
def test_a_clear_piece_on_laminate_whose_crisp_area_runs_past_it_is_found_in_doubt(
        seed, seed0, size, stern):
    assert_clear_found_in_doubt(seed, seed0, size, stern)


# ... but a shadow is no clear piece (crisp._darkened_as_clear, crisp._by_hand): a finger's
# (4858, two of them), a die's (4998) and a white medium's (5098), darker than a faint clear
# piece and not counted as object by the score, each named clear, were read as clear smalls
# before the gate; 1695's hand shadow beside a coin (shade 0.93, faint) reached the hand's
# region.
@pytest.mark.parametrize("seed, seed0", [(4858, 4816), (4998, 4816), (5098, 4816),
                                         (1695, 1648)])


def test_a_shadow_on_laminate_is_not_read_as_a_clear_piece(seed, seed0):
    r, det = bench_scene(seed, seed0)
    assert not any("false" in m and "clear" in m for m in match(r.truth, det).misses)


# ... and it is added last, where no other pass reads a piece: a white small's shaded face and
# shadow (4831, 4962) read as clear there kept the white piece from being read.
@pytest.mark.parametrize("seed, stern", [(4831, (189.5, 421.8)), (4962, (232.6, 302.9))])
def test_a_white_piece_is_not_taken_for_a_clear_one_by_its_shadow(seed, stern):
    p = found(seed, "small", "white", stern, seed0=4816)
    assert p is not None and p.color == "white"


# ... and not where a reading in doubt of its size could lie (crisp.in_size_doubt_of; session
# 20, set from 5104): a clear piece read one size short, in doubt, leaves the rest of its
# footprint unread, and there the soft reading took its other end for a second clear small
# (5197's medium: 0.74 of that small inside the medium's footprint from the reading's tip;
# 5287's large: 0.39). The piece stays found, in doubt.
@pytest.mark.parametrize("seed, size, stern", [(5197, "medium", (228.8, 322.8)),
                                               (5287, "large", (433.4, 186.3))])


def test_a_clear_piece_read_short_is_not_read_again_at_its_other_end(seed, size, stern):
    r, det = bench_scene(seed, 5104)
    t = match(r.truth, det, f"seed {seed}")
    assert t.matched == t.truth
    assert not [e for e in t.misses if ": false " in e]
    assert_no_sure_wrong_size(seed, 5104, size, "clear", stern, any_size=True)
    assert found(seed, size, "clear", stern, seed0=5104).color == "clear"


# The same between any two readings of one colour, both in doubt (detect.
# _one_reading_per_doubtful_piece; session 20): 5372's white medium (set from 5104) and 4857's
# white large (set from 4816) were each read as two smalls in doubt that do not overlap, one
# lying where the other could if its size is in doubt (0.68 and 0.76 of it). One reading is
# kept, in doubt, its σ covering the other.
@pytest.mark.parametrize("seed, seed0, size, stern", [(5372, 5104, "medium", (270.2, 374.2)),
                                                      (4857, 4816, "large", (389.0, 343.2))])


def test_a_piece_read_at_each_end_in_doubt_is_one_reading(seed, seed0, size, stern):
    r, det = bench_scene(seed, seed0)
    t = match(r.truth, det, f"seed {seed}")
    assert not [e for e in t.misses if ": false " in e]
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)


# A clear piece read short over its tip, its open base read across it as a second clear reading
# (issue 4, session 53, sizeclear63; detect.ACROSS_BASE_SHARE): the 14896-set's 14972 and 15080,
# clear larges on felt (1920×1080, 22-35°), each read as a small over its tip (σ 20 mm) and a
# small turned 112° / 104° over its base; _one_reading_per_doubtful_piece kept the tip's small
# (σ 44 / 50 mm on 7f4c545), though 0.78 / 0.89 of the one that went lies in the large from its
# tip (0.34 / 0.06 in the medium); the 14032-set's 14193 (felt, 1280×720, 22-35°: a small
# over the tip, a medium turned 117° over the base, 0.62 in the large, 0.31 in the medium; a
# small at σ 49 mm on 7f4c545); the 14320-set's 14546 (wood, 1920×1080, 22-35°: a medium turned
# 113° over the base, 0.63 in the large, 0.42 in the medium; a small at σ 99 mm on 7f4c545).
# One piece reaching over both: read at the size that holds
# them, in doubt, and no false piece.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (14972, 14896, (506.3, 111.9)),
    (15080, 14896, (297.8, 294.2)),
    (14193, 14032, (256.4, 416.0)),
    (14546, 14320, (115.0, 136.8)),
])
def test_a_clear_piece_read_over_its_tip_and_across_its_base_is_read_at_the_size_holding_both(
        seed, seed0, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, "large", stern)


# The same with the short reading trusted (issue 4, session 53, lead63;
# detect.TRUSTED_ACROSS_BASE_SHARE): the 15184-set's 15213 (session 53's judge set, traced after
# the run), a clear medium on blue cloth (1280×720, 22-35°) read as a small over its tip at σ
# 1.50 mm, 11 mm short, its open base read across it as a clear small in doubt turned 115°
# (σ 69 mm), 0.57 of which lies in the medium from the small's tip. The merge asks two readings
# in doubt, so it left the trusted one: its σ now covers the longer size; the rules answer "in
# doubt", not a wrong yes.
def test_a_trusted_clear_reading_whose_open_base_is_read_across_it_is_in_doubt():
    assert_no_sure_wrong_size(15213, 15184, "medium", "clear", (134.1, 437.8), any_size=True)


# ... and merged with its open base's reading at that size (issue 4, session 54, sizeclear64;
# detect._trusted_clear_reaching_over): 15213's small and the small across its base are one
# piece, read as a clear medium in doubt, and no false piece (on d09d5f0 a small at σ 9.9 mm
# and a false clear small).
def test_a_trusted_clear_reading_and_its_open_base_read_across_it_are_one_piece_at_its_size():
    assert_clear_read_at_size_in_doubt(15213, 15184, "medium", (134.1, 437.8))


# A clear piece read short from its stern, its faint apex the only part of the longer size
# darker than the table beside it (issue 4, session 54, sizeclear64; strips.CLEAR_APEX_BESIDE):
# the longer size's strip past the reading is mostly its wider sides (the table's shade:
# 0.91-0.99), but its part ahead of the reading's tip is the apex's two walls. The 14896-set's
# 15067 (a clear large on wood, 1280×720, 10-22°, read as a medium at σ 42.7 mm on d09d5f0:
# the large's part ahead 0.872 of the table beside it) and the 14032-set's 14211 (a clear
# medium on wood, 1280×720, 22-35°, read as a small at σ 67.7 mm: the medium's 0.855) and the
# 14320-set's 14435 (a clear medium on wood, 1280×720, 0-10°, read as a small at σ 48.0 mm:
# 0.762), each fitted badly (cost 0.47-0.54, over CLEAR_APEX_COST).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (15067, 14896, "large", (121.3, 454.7)),
    (14211, 14032, "medium", (187.2, 303.6)),
    (14435, 14320, "medium", (300.6, 175.2)),
])
def test_a_clear_piece_read_short_from_its_stern_whose_apex_is_darker_is_read_at_its_size(
        seed, seed0, size, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, size, stern)


# ... but not a right clear small fitted as badly whose medium's part ahead is a shade over the
# bound (strips.CLEAR_APEX_BESIDE 0.885; a guard, passing on d09d5f0): the check set 5104's
# 5259 (wood, 1280×720, 22-35°, fitted at 0.511, its medium's part ahead 0.902), read as a
# medium by the rule's first bound, 0.91, in the merged tree's run. The 14608-set's 14610 (a
# clear large on the laminate read as a medium, 0.905) is left short in doubt for it.
def test_a_right_clear_small_whose_apex_strip_is_a_shade_over_the_bound_stays_small():
    p = found(5259, "small", "clear", (318.6, 311.1), seed0=5104)
    assert p is not None and p.size.value == "small" and p.color == "clear"
    assert_no_false_piece(5259, 5104)


# A clear small read in the middle of a large (issue 4, session 58, size68;
# strips.clear_set_apex_longer): its stern and its tip 6-12 mm short of the large's, the strip
# rules (clear_strip_longer, clear_beside_longer) set a medium from its tip, or the across rule
# a medium across it, and stopped there: the large's strip from the small's tip runs past the
# true stern. That medium's stern lies near the true stern, its tip short, and the large's
# part ahead of it, the faint apex, is darker than the table beside it (strips.CLEAR_SET_APEX_BESIDE
# 0.85), as clear_apex_longer asks of fitted readings. Each was read as a medium at σ 99 mm on
# 5a949b6: the 16048-set's 16122 (1920×1080, 10-22°, the beside rule's medium; its large's
# part ahead 0.778), the 14608-set's 14739 (1280×720, 22-35°, the beside rule's; 0.835) and
# 14666 (1920×1080, 22-35°, the across rule's; 0.780), the 14896-set's 15177 (1280×720,
# 22-35°, the across rule's; 0.841), the 8848-set's 8997 (1280×720, 22-35°; 0.848, the nearest
# the bound) and the check set 5104's 5241 (1280×720, 22-35°, the strip rule's; 0.794).
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (16122, 16048, (295.5, 490.6)),
    (14739, 14608, (473.6, 390.5)),
    (14666, 14608, (478.5, 188.0)),
    (15177, 14896, (470.6, 179.8)),
    (8997, 8848, (203.8, 227.9)),
    (5241, 5104, (251.7, 327.6)),
])
def test_a_clear_medium_set_by_a_strip_rule_whose_apex_ahead_is_darker_is_read_as_a_large(
        seed, seed0, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, "large", stern)


# ... but not a right clear medium a strip rule set whose large's part ahead is a shade over
# the bound (guards, passing on 5a949b6): the 16048-set's 16051 (1280×720, 10-22°, the medium
# set from a small's tip at σ 70 mm; its large's part ahead 0.902 of the table beside it), and
# the two the merged tree read as larges at CLEAR_APEX_BESIDE 0.885 (the lead, session 58): the
# 15472-set's 15601 (0.872) and the 12880-set's 12901 (0.858, the nearest), both 1280×720,
# 10-22°.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (16051, 16048, (198.8, 331.7)),
    (15601, 15472, (433.8, 307.0)),
    (12901, 12880, (248.9, 328.3)),
])
def test_a_right_clear_medium_set_by_a_strip_rule_whose_apex_is_a_shade_over_stays_medium(
        seed, seed0, stern):
    _stays_clear_medium(seed, seed0, stern)


def _stays_clear_medium(seed: int, seed0: int, stern: tuple[float, float]) -> None:
    """The right clear medium at ``stern`` (table mm) is read as a clear medium, no false
    piece beside it."""
    p = found(seed, "medium", "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == "medium" and p.color == "clear"
    assert_no_false_piece(seed, seed0)


# ... nor a right clear medium whose set medium stands back of its stern, its own apex ahead of
# the set tip (issue 4, session 60, trace70; strips.CLEAR_SET_APEX_FAR_MM): the 12016-set's
# 12073 (wood, 1280×720, 10-22°), its small read 5.9 mm inside the stern, the beside rule's
# medium from its tip 4.0 mm back of the stern and 4.0 mm short: the large's part ahead of it
# 0.840 of the table beside it (under CLEAR_SET_APEX_BESIDE 0.85), its part 2 mm past the set
# tip 0.877 (bare table past the medium's apex). Read as a medium at σ 99 mm on 5a949b6, as a
# large since size68 (fails on 522ee5e).
def test_a_right_clear_medium_set_back_of_its_stern_whose_far_apex_strip_is_table_stays_medium():
    _stays_clear_medium(12073, 12016, (350.2, 180.9))


# A soft clear reading snug inside its own crisp area, the longer fit on the area's rim (issue 4,
# session 60, size70; crisp.SOFT_LONGER_*). The soft pass picks the fit explaining most of a
# darkened area per doubt; a clear large's faint tip end costs its own fit (0.52) more than a
# medium's snug one (0.29), which hides 0.31 of its outline inside the area itself (the area
# goes on past it), where the large's hides 0.11: the area's rim is the large's outline. No
# strip rule read it longer. The 15760-set's 15785 (1280×720, 0-10°, a clear large on the
# laminate whose tip nearly meets a blue medium) was read as a medium at σ 22.5 mm on 522ee5e,
# the 15184-set's 15455 (1280×720, 0-10°, a clear large against another; its medium pick hides
# 0.35, its large 0.10) as a medium at σ 78.2 mm.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (15785, 15760, (256.0, 68.5)),
    (15455, 15184, (477.9, 419.2)),
])
def test_a_soft_clear_reading_snug_inside_its_area_is_read_at_the_longer_fit_on_its_rim(
        seed, seed0, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, "large", stern)


# ... but not a right soft clear small whose medium fit hides as much of its outline inside the
# area (0.39, over SOFT_LONGER_EDGE 0.15: the area's rim is not its outline): the 16624-set's
# 16799 (a clear small read at σ 99 mm; passing on 522ee5e).
def test_a_soft_clear_small_whose_longer_fit_hides_as_much_stays_small():
    p = found(16799, "small", "clear", (385.6, 132.7), seed0=16624)
    assert p is not None and p.size.value == "small" and p.color == "clear"
    assert_no_false_piece(16799, 16624)


# A clear medium in size doubt whose large fits the map from its stern or its tip and finds the
# edges past its ends (issue 4, session 61, size71; strips.clear_fit_longer, CLEAR_FIT_COST
# 0.7, CLEAR_FIT_SIGMA_MM 0.5, CLEAR_FIT_PAST_COST 0.4). No strip rule read these clear larges
# longer (15230's strip from the tip not free of a touching yellow large, 0.86 of it; 15422's
# from the tip 0.99 of the table beside it, from the stern not free), yet the large's own fit
# from the medium's tip (15230: cost 0.48) or stern (15422: 0.61) converges on the piece, its
# samples past the medium's ends finding edges (mean cost 0.11 and 0.34), where a right
# reading's longer fit mostly lies on bare table past them (1.13 and up on the survey). The
# 15184-set's 15230 (σ 10.8 mm) and 15422 (σ 49.3 mm), both 1920×1080 and read as mediums on
# 17d752f.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (15230, 15184, (313.0, 182.9)),
    (15422, 15184, (313.8, 299.2)),
])
def test_a_clear_medium_whose_large_fit_finds_the_edges_past_its_ends_is_read_large(
        seed, seed0, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, "large", stern)


# ... but not a right medium whose large fit costs as little but whose samples past it lie on
# bare table or its shadow's rim: the 15184-set's 15285 (a white medium read as clear at σ 70
# mm, 1280×720, 22-35°), its large from the tip 0.53 at σ 0.16 mm, past 1.13; the 16336-set's
# 16557 (a clear medium at σ 99 mm, 1280×720, 22-35°), its large from the stern 0.60, past 0.75
# (read as a large under a first bound, 0.75). Both mediums on 17d752f. (The 8848-set's 8849,
# past 0.51 on a missed neighbour, and the 16624-set's 16745, a small whose medium costs 0.84
# at past 0.26, are guarded by test_a_clear_piece_whose_longer_size_runs_into_another_piece_
# keeps_its_size and test_a_clear_reading_on_the_laminate_whose_far_side_found_its_edge_is_
# not_moved: each failed under the first bounds, 0.85 and 0.75, for any size.)
@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (15285, 15184, "white", (114.7, 369.6)),
    (16557, 16336, "clear", (179.6, 167.7)),
])
def test_a_medium_whose_large_fit_finds_no_edges_past_its_ends_stays_medium(
        seed, seed0, color, stern):
    p = found(seed, "medium", color, stern, seed0=seed0)
    assert p is not None and p.size.value == "medium"


# A piece read twice (issue 4, precision; session 19, set from 4816): two lying pieces never
# share table, yet a region's choice let a second reading overlap one chosen by up to 0.15 of
# the smaller footprint, and the re-reads' clash tests the same: 4933's blue small read again
# end for end (0.15), 4949's blue medium as a small plus a small in its open base (0.14),
# 5066's red small in a red large's hollow (0.13 of the small), 4846's red large's shadow on
# the unscaled map as a clear medium (0.10). Right readings of touching pieces overlap 0.08 at
# most (scene.CLASH_SHARE). No false piece, as bench_vision counts them.
@pytest.mark.parametrize("seed", [4846, 4933, 4949, 5066])
def test_no_piece_is_read_twice_where_two_readings_would_share_table(seed):
    r, det = bench_scene(seed, 4816)
    t = match(r.truth, det, f"seed {seed}")
    assert t.matched == t.truth
    assert not [e for e in t.misses if ": false " in e]


# The same rule lets the region's choice take the piece's own size where the longer reading
# ran into a neighbour's table or the shorter left its base to a second reading: 4949's blue
# medium (was a small, σ 10.7 mm), 5009's white small beside a white medium (was a medium 0.14
# into the medium's footprint, σ 65 mm).
@pytest.mark.parametrize("seed, size, color, stern", [
    (4949, "medium", "blue", (322.8, 396.2)),
    (5009, "small", "white", (102.5, 265.5)),
])
def test_a_piece_whose_reading_would_share_table_is_read_at_its_size(seed, size, color, stern):
    p = found(seed, size, color, stern, seed0=4816)
    assert p is not None and p.size.value == size


# A standing piece fitted only from a start shifted toward the camera's foot (the apex is seen
# pushed away from it) was lost (session 19, set from 4816): 4821's blue large and 5025's
# black large, read as nothing, and 4833's red medium, read lying (a false piece, σ 9.9 mm).
# From the region's centre each standing fit lands within 0.5 mm (explain.upright_fit).
@pytest.mark.parametrize("seed", [4821, 4833, 5025])
def test_a_standing_piece_is_fitted_from_its_regions_centre_too(seed):
    r, det = bench_scene(seed, 4816)
    (truth,) = r.truth["upright"]
    got = [u for u in det.upright if math.dist(u.center_mm, truth["center"]) <= 1.5]
    assert len(got) == 1 and got[0].size.value == truth["size"]
    t = match(r.truth, det, f"seed {seed}")
    assert not [e for e in t.misses if ": false " in e]


# A piece of the table's own hue (session 20, opaque27; the 5104-set): blue on the blue cloth,
# green on the green felt. In a hand's region look.vivid_in left its colour out with the
# table's hue, so explain.pieces_in_colour had no area to read it from (5266's blue large and
# 5286's blue medium beside a hand's shadow, HSV saturation 234 against the cloth's 150): a
# pixel of the table's hue TABLE_SAT_SEP more saturated than the table is plastic's.
@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (5266, "large", "blue", (403.8, 108.9)),
    (5286, "medium", "blue", (271.7, 119.4)),
])
def test_a_piece_of_the_tables_hue_beside_a_hand_is_found_in_its_colour(seed, size, color, stern):
    _found_in_colour_never_trusted(seed, 5104, size, color, stern)


# Alone in its region, such a piece was read by no pass: the map scaled to the region sinks
# its faces, which differ from the table in saturation and shade only (5145's green large:
# its true pose 0.70 scaled, 0.15 unscaled; 5191's green small 0.44 / 0.19). 5341's orange
# medium on wood fits both (0.17 / 0.26), but its region's reading on the scaled map was
# chosen at a joint cost of 0.45 and dropped (the region's axis heads 169°, the piece 73°).
# A region no pass read that holds a piece's area of the table's hue, saturated over the
# table, is read again on the unscaled map (detect._sunk_plastic_pieces); never trusted.
@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (5145, "large", "green", (261.9, 337.1)),
    (5191, "small", "green", (339.7, 291.0)),
    (5341, "medium", "orange", (265.8, 268.5)),
])
def test_a_lone_piece_of_the_tables_hue_is_found_on_the_unscaled_map(seed, size, color, stern):
    _found_in_colour_never_trusted(seed, 5104, size, color, stern)


# Clear pieces on laminate whose crisp outline breaks (issue 4, session 20, clear27, set from
# 5104): where a face is lit like the table the edge falls under the crisp level for a pixel
# or two, the outline encloses nothing and the crisp area is its edge band alone (0.37-0.53 of
# the footprint); closed (segment.closed_holes), 0.95-1.0, and the piece is found, in doubt
# (5268's medium at its size, σ 9.9 mm; the others one size off or a wrong colour named).
@pytest.mark.parametrize("seed, size, stern", [
    (5268, "medium", (341.5, 444.3)),   # 10-22°, 1920×1080
    (5385, "large", (285.1, 396.8)),    # 22-35°, read as a small
    (5241, "small", (335.7, 430.6)),    # 22-35°
    (5187, "medium", (256.0, 226.1)),   # 22-35°, read as a small
])
def test_a_clear_piece_on_laminate_whose_outline_breaks_is_found_in_doubt(seed, size, stern):
    assert_clear_found_in_doubt(seed, 5104, size, stern)


# A clear piece on laminate whose crisp area is whole but which darkens the table only a
# little under the score and not faintly enough for the soft reading's gate (issue 4,
# session 21, clear28, set from 5392): its footprint's median shade 0.76-0.81, under
# SOFT_FAINT_SHADE (0.82), the score under it 0.25-0.28. The table estimate took it in, so the
# table just round it reads brighter than the estimate (ring 1-3 mm out: 1.07-1.13), where a
# shadow's surroundings read 0.76-1.04 (crisp.SOFT_RING_LIT). Found, in doubt.
@pytest.mark.parametrize("seed, size, stern", [
    (5540, "medium", (70.89, 252.41)),    # 22-35°, 1920×1080
    (5546, "large", (359.81, 435.84)),    # 22-35°, read as a medium
    (5558, "large", (349.07, 498.85)),    # 22-35°, beside an orange large
])
def test_a_clear_piece_on_laminate_with_a_lit_ring_round_it_is_found_in_doubt(
        seed, size, stern):
    assert_clear_found_in_doubt(seed, 5392, size, stern)


# A clear piece on laminate that darkens the table as a shadow does (footprint 0.59-0.79, the
# score under it 0.2-0.4) with no lit ring round it (0.96-1.05) is told from a shadow by its
# outline (issue 4, session 22, clear30, set from 5680): its walls end sharp, so its outline
# as seen lies on the crisp edges (0.74-0.90 of it within a pixel), where a cast shadow's
# penumbra breaks them (the white pieces' and the black large's shadows of the clear26 and
# clear28 tests: 0.51-0.63; crisp.SOFT_EDGE_SHARE). Found, in doubt.
@pytest.mark.parametrize("seed, size, stern", [
    (5912, "medium", (198.75, 477.5)),    # 22-35°, 1920×1080, read as a small
    (5963, "small", (330.11, 367.42)),    # 0-10°, 1280×720
    (5966, "medium", (225.68, 471.32)),   # 22-35°, 1920×1080, another medium on it
    (5966, "medium", (463.35, 233.68)),   # 22-35°, against a cyan medium, read as a small
])
def test_a_clear_piece_on_laminate_whose_outline_is_crisp_is_found_in_doubt(seed, size, stern):
    assert_clear_found_in_doubt(seed, 5680, size, stern)


# ... but a shadow lies against its caster, and one whose far edge is crisp lies close to it:
# 2531's white small (set from 2512, 0-10°; missed) casts a shadow whose reading has 0.68 of
# its outline on the crisp edges, read as a false clear small on the first version of the
# rule. Within 3 mm of its outline lies the white piece's dark open base (the ring's 2nd
# percentile shade 0.34; the clear pieces above 0.59-0.74: crisp.SOFT_EDGE_DARK).
def test_a_crisp_shadow_beside_its_caster_is_not_read_as_a_clear_piece():
    r, det = bench_scene(2531, 2512)
    assert not any("false" in m and "clear" in m for m in match(r.truth, det).misses)


# ... nor is a standing clear piece's crisp outline (issue 4, clear31): 4269's standing
# medium (set from 4240, 22-35°, 1280×720) was read by the edge route as a lying small whose
# tip is its apex, seen pushed away from the camera's foot (16° off that way), σ 19.8 mm,
# false. A standing pyramid fits its area at 0.10 on the crisp map, covering 0.69 of it against
# the small's 0.44 (crisp.SOFT_UPRIGHT_*) ...
# On the desaturated pass too: 3705's standing medium on felt (set from 3664, 22-35°), read
# as a lying medium pointing that way (0°), σ 91.8 mm, false; standing fit 0.06 on the grey
# map covering 0.99 of the area against 0.90.
@pytest.mark.parametrize("seed, seed0", [(4269, 4240), (3705, 3664)])
def test_a_standing_clear_piece_is_not_read_lying_by_its_crisp_outline(seed, seed0):
    r, det = bench_scene(seed, seed0)
    (up,) = r.truth["upright"]
    assert up["color"] == "clear"
    assert all(math.dist(p.pose.stern_mm, up["center"]) > 20 for p in det.pieces)
    assert not any("false" in m for m in match(r.truth, det).misses)


# ... while lying clear larges pointing that way, whose area a standing pyramid fits as well
# (0.13-0.14) but covers less of (3088-set, 22-35°: 3111's 0.62 against 0.65, read as a
# medium; 3176's 0.65 against 0.96, at its size), are still found. The first version (the
# fit and the heading alone) lost both.
@pytest.mark.parametrize("seed, stern", [(3111, (222.74, 335.54)), (3176, (346.62, 266.32))])
def test_a_lying_clear_piece_pointing_away_from_the_camera_is_still_read(seed, stern):
    assert_clear_found_in_doubt(seed, 3088, "large", stern)


# ... while a white piece whose closed area takes in its lit and shaded faces keeps what the
# score made of its unclosed one (pale, or its shaded face's band faint): only faint areas
# gain from the holes (5303's small and 5263's medium were lost when the closed areas
# replaced the crisp ones).
@pytest.mark.parametrize("seed, size, stern", [(5303, "small", (473.0, 478.0)),
                                               (5263, "medium", (426.1, 484.4))])


def test_a_white_piece_is_kept_when_its_crisp_outline_is_closed(seed, size, stern):
    assert found(seed, size, "white", stern, seed0=5104) is not None


# An opaque piece read by the clear pieces' crisp pass (issue 4, trust27): its crisp area takes
# in the shadow it casts behind its stern, a larger piece's base fits there with the tip on the
# true tip (cost 0.31-0.33, σ the pass's floor CRISP_EDGE_MM), and the medium from the same tip
# hid its stern edge inside the area, counted as misses, so it was no rival. Those samples tell
# nothing of where the piece ends (crisp._rivals_hidden_inside): σ covers the shorter reading.
# The judge set 5104-5391's three trusted wrong sizes (5203's and 5221's black mediums are
# named clear: their shadow is in the footprint the colour is read on).
@pytest.mark.parametrize("seed, size, color, stern", [
    (5124, "medium", "purple", (424.96, 174.44)),
    (5203, "medium", "black", (423.11, 511.96)),
    (5221, "medium", "black", (273.19, 422.65)),
])
def test_an_opaque_piece_read_long_by_the_crisp_pass_into_its_shadow_is_in_doubt(
        seed, size, color, stern):
    assert_no_sure_wrong_size(seed, 5104, size, color, stern)


# ... while the pieces that pass reads at their size stay trusted (the 5104-set's four): a
# vivid one's shorter reading from its tip fits the scene's fit map worse than it does
# (crisp._shorter_on_fit_map), and a clear one is not taken for dark opaque plastic
# (detect.CRISP_FACE_SPREAD: spread 0.61-0.87 against the black pieces' 0.26-0.50).
@pytest.mark.parametrize("seed, size, color, stern", [
    (5192, "large", "cyan", (424.52, 408.95)),
    (5295, "medium", "yellow", (131.74, 361.45)),
    (5222, "medium", "clear", (473.87, 183.94)),
    (5324, "small", "clear", (384.40, 116.13)),
])
def test_a_piece_the_crisp_pass_reads_at_its_size_stays_trusted(seed, size, color, stern):
    p = found(seed, size, color, stern, seed0=5104)
    assert p is not None and p.size.value == size and p.color == color
    assert math.dist(p.pose.stern_mm, stern) <= 1.5 and p.sigma_mm <= 1.5


# The judge set 5680-5967's 5868 (issue 4, session 21, after its judge run): a purple medium read
# by the crisp pass into its shadow as a large at σ 1.0 mm, 4 mm long. On the scene's fit map
# the medium from the same tip fits 0.485, over GOOD_COST, against the large refitted there
# 0.642: a shorter reading that much better (crisp.SHORTER_FIT_GAIN) is a rival up to
# SHORTER_FIT_COST, and σ covers it. The four above stay trusted.
def test_a_vivid_piece_read_long_by_the_crisp_pass_is_in_doubt_when_the_fit_map_prefers_shorter():
    assert_no_sure_wrong_size(5868, 5680, "medium", "purple", (489.49, 278.67))


# White pieces on wood missed by every pass (issue 4, session 21, white28, set from 5392): the
# lit face scores so far over the wood that the map scaled to the region drops the shaded face
# under the mid level (5535's small: its true pose 0.63 scaled, 0.04 unscaled), and the region,
# holding the cast shadow too, turns the axis and tip guesses (5419: 18-22 deg). A region no
# pass read that holds a small's half of white plastic (bright, colourless on a coloured table)
# is read again on the unscaled map, the turned tip guesses too (detect._sunk_plastic_pieces);
# never trusted.
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (5419, "medium", (230.7, 508.1)),
    (5535, "small", (286.2, 271.0)),
    (5643, "small", (482.6, 505.5)),
    (5652, "medium", (233.2, 422.2)),
])
def test_a_white_piece_on_wood_sunk_by_its_regions_scale_is_found_in_doubt(seed, size, stern):
    _found_in_colour_never_trusted(seed, 5392, size, "white", stern)


# A white piece on laminate whose faces are the table's colour, and whose colour goes on past
# its outline (the ring test of shadows.lit_table, 0.5 and more), was dropped as lit table
# although it fitted cleanly (5490's small 0.10, 5506's medium 0.18) with its dark open base
# stepping down from the table behind and the face ahead in every lane (×2.7-3.1): lit table
# has no open base (open_base.base_band), so such a reading is kept.
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (5490, "small", (290.9, 130.7)),
    (5506, "medium", (365.7, 331.3)),
])
def test_a_white_piece_showing_its_open_base_is_not_taken_for_lit_table(seed, size, stern):
    p = found(seed, size, "white", stern, seed0=5392)
    assert p is not None and p.size.value == size and p.color == "white"
    assert math.dist(p.pose.stern_mm, stern) <= 1.0


# A white piece whose faces are the table's shade, seen by its open base beside a piece found
# (issue 4, session 21, white28, set from 5392; white24's touching class): the hollow came
# within COVER_MM of the neighbour's outline and was left as that piece's own base or shadow,
# though almost none of it lies there (0.0-0.18). A dark area is a found piece's own only when
# most of it lies near it (base_quad.OWN_SHARE); the colour is read on the part no neighbour
# leans over (5582's medium under a cyan large's outline). Never trusted (the quad's pose).
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (5450, "small", (317.0, 193.5)),    # its stern against a green medium found
    (5537, "large", (200.5, 429.1)),    # beside a cyan large
    (5582, "medium", (433.0, 171.3)),   # a cyan large's outline over it
])
def test_a_white_piece_seen_by_its_open_base_beside_a_piece_found_is_read_in_doubt(
        seed, size, stern):
    _found_in_colour_never_trusted(seed, 5392, size, "white", stern)


# The 5392-set's two trusted wrong sizes (issue 4, sure28). 5397: a white medium on wood whose
# tip hides (26 % of its outline), read by the main pass as a small turned 116° at a doubtful
# fit's σ 4.1 mm, the worse end 37 mm off: a small turned about it fits better (0.43 against
# its own refit's 0.50), and the turned test (detect._turned_mm) is now asked at any σ.
# 5540: a white large heading away from the camera, its open base read by the dark re-read as
# a black small (σ 1.0 mm): the dark area it lies in is the large's open base as seen (the
# quad 0.91 at the true pose), so σ covers the large (base_quad.base_of_longer).
@pytest.mark.parametrize("seed, size, color, stern", [
    (5397, "medium", "white", (335.27, 364.95)),
    (5540, "large", "white", (408.50, 300.68)),
])
def test_a_piece_read_turned_or_by_its_open_base_alone_is_in_doubt(seed, size, color, stern):
    assert_no_sure_wrong_size(seed, 5392, size, color, stern)


# ... while a black piece, whose dark area holds its faces beside its base, stays trusted
# (5540's black small: a medium's quad covers its dark area 0.72 at best, HOLLOW_QUAD_IOU).
def test_a_black_piece_is_not_taken_for_a_longer_piece_open_base():
    p = found(5540, "small", "black", (87.08, 240.60), seed0=5392)
    assert p is not None and p.size.value == "small" and p.color == "black"
    assert math.dist(p.pose.stern_mm, (87.08, 240.60)) <= 1.5 and p.sigma_mm <= 1.5


# The 5680-set's 5864 (issue 4, trust30): a clear large on pale laminate (1920×1080, 22-35°)
# whose crisp outline shows all round, read by the soft clear reading (crisp._soft_clear_piece)
# as a medium across its base end, turned 104°, 44 mm off at σ 9.9 mm: the reading leaves the
# area's long part toward the tip unexplained (thicker than a shadow's crescent), so the piece
# that area is may lie anywhere in it, and σ covers the area's farthest point from the
# reading's stern or tip (crisp._soft_doubt_mm).
def test_a_soft_reading_leaving_a_thick_part_of_its_crisp_area_is_in_doubt_over_the_area():
    assert_no_sure_wrong_size(5864, 5680, "large", "clear", (232.38, 244.70))


# The 4528-set's 4601 (issue 4, trust30): a purple small on blue cloth, its stern against a
# white medium's tip, read by the crisp pass as a medium from its stern, 9.3 mm long past its
# tip, at σ 1.5 mm. trust27's check (SHORTER_ON_FIT_MAP) tried shorter readings from the tip
# only (a shadow behind the stern), with no neighbour's outline excused: the small from the
# stern fits the scene's fit map 0.40 once the edges against the white medium are excused,
# against the medium refitted there 0.57 (SHORTER_FIT_GAIN): a rival, and σ covers it.
def test_a_vivid_piece_read_long_past_its_tip_by_the_crisp_pass_is_in_doubt():
    assert_no_sure_wrong_size(4601, 4528, "small", "purple", (143.44, 215.93))


# A white piece on laminate seen by its open base, whose hollow is that dark (BASE_DARK) only
# in its deepest part (issue 4, session 22, white30): at 10-35 degrees of tilt the camera sees
# the walls inside the base, lit through it, at 0.5-0.7 of the table's light, so the dark area
# was a third to a half of the quad as seen (5919's 142 of 269 mm²; 5823's 26 of 94) and no
# quad fitted it (its edge starts under START_MIN_IOU, or the quad under QUAD_MIN_IOU). The
# area is now grown into the darker-than-BASE_WALL view that joins it (base_quad._with_walls)
# and its quad started centred on it too; the lanes, edge and colour tests as before. Never
# trusted (the quad's pose).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (5823, 5680, "small", (292.3, 307.9)),
    (5912, 5680, "small", (171.1, 465.9)),
    (5919, 5680, "medium", (365.6, 395.0)),
    (5925, 5680, "medium", (118.7, 314.6)),   # its dark part's quad: edges 0.53 ahead of it
    (5665, 5392, "small", (196.2, 429.8)),
])
def test_a_white_piece_whose_hollow_is_dark_only_deep_inside_is_read_in_doubt(
        seed, seed0, size, stern):
    _found_in_colour_never_trusted(seed, seed0, size, "white", stern)
    p = found(seed, size, "white", stern, seed0=seed0)
    assert math.dist(p.pose.stern_mm, stern) <= 1.5


# A white piece seen by its open base whose best quad is another size's, or the piece turned
# end for end (issue 4, session 23, white31): the quad alone hardly tells them apart, so the
# hollow (the lanes step into it) was read as 6107's large turned 178° (a medium, edges ahead
# 0.21) and 6222's medium as a small (edges 0.46), and dropped for the outline ahead that the
# crisp edges do not follow. Each size's best start and its best start turned 90° or more are
# now read in turn (base_quad._other_quads). 6107's false clear small, a soft reading over the
# large's faces, goes with it. Never trusted (the quad's pose).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (6107, 5968, "large", (219.3, 206.7)),
    (6222, 5968, "medium", (154.3, 497.3)),
    (5862, 5680, "medium", (132.7, 490.1)),
    (4957, 4816, "medium", (183.1, 450.3)),   # held out: found by the first run on its set
])
def test_a_white_piece_whose_base_quad_is_another_size_or_turned_is_read_in_doubt(
        seed, seed0, size, stern):
    _found_in_colour_never_trusted(seed, seed0, size, "white", stern)
    p = found(seed, size, "white", stern, seed0=seed0)
    assert math.dist(p.pose.stern_mm, stern) <= 1.5


def test_the_white_large_read_turned_leaves_no_false_clear_piece_over_it():
    assert_no_false_piece(6107, 5968)


# The 5968-set's 6149 (issue 4, white31): a white large on laminate of value 145 (1280×720,
# 0-10°), its open base facing the camera, read from its base at its true pose, then named
# black: its faces lit like the table (value 148) stay under WHITE_MIN_V 152. A piece known
# opaque with a median as bright as the table (colors.OPAQUE_WHITE_V) is white.
def test_a_white_piece_read_by_its_base_on_a_dark_table_is_named_white():
    _found_in_colour_never_trusted(6149, 5968, "large", "white", (447.8, 350.5))


# A white piece on laminate lit like the table, its open base turned from the camera (issue 4,
# session 23, white31): no hollow for the open-base pass, its lit face alone (or nothing)
# foreground, so no region pass read it; its crisp area takes in its shadow, so the crisp fits
# hid 0.25-0.40 of their outline and the soft reading kept only a piece named clear. The soft
# fit, lit and named white, refitted to the crisp edges themselves, lies with 0.9 or more of
# its outline on them (crisp._soft_white_piece): read at its size, in doubt (5991's large,
# beside a purple large, 7 mm off at σ 67.6 mm).
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (5991, "large", (426.4, 198.1)),
    (6006, "large", (328.1, 359.5)),
    (6129, "small", (93.8, 116.3)),
    (6176, "small", (294.2, 497.7)),
    (6224, "medium", (118.7, 414.3)),
])
def test_a_white_piece_lit_like_laminate_with_no_hollow_is_read_from_its_crisp_outline_in_doubt(
        seed, size, stern):
    _found_in_colour_never_trusted(seed, 5968, size, "white", stern)
    assert_no_false_piece(seed, 5968)


# Black pieces on a coloured table whose colourless area fits a little loosely (issue 4,
# session 23, black31; the 5968-set): the area takes in the stern's raised corner or the
# darkest part of the shadow, and the true pose costs just over GOOD_COST there (6145's medium
# on wood: 0.35 with its hidden samples counted, 0.9 mm off), or another size covers it (6119's
# small on cloth, its stern against an orange large). The colourless pass keeps such a fit
# when named black, in doubt (σ at least crisp.DOUBT_FLOOR_MM): nothing else confirms it.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (6145, 5968, "medium", (153.43, 252.47)),
    (6119, 5968, "small", (201.40, 246.82)),
])
def test_a_black_piece_whose_colourless_area_fits_loosely_is_found_in_doubt(
        seed, seed0, size, stern):
    p = piece_found(seed, seed0, size, "black", stern)
    assert p.sigma_mm >= 3.0
    assert_no_sure_wrong_size(seed, seed0, size, "black", stern, any_size=True)


# A piece whose tip touches a piece found (issue 4, session 23, black31; the 5968-set's 6224:
# a black large on laminate, its tip against an orange large, 22-35° of tilt). What the orange
# leaves of the region is the black large whose tip is cut off; its axis guess puts the
# footprint's stern at the wide end, but the raised base as seen reaches ~9 mm past the stern,
# so the large from there stuck at cost 1.06 and the tip start lay inside the orange. A start
# with the outline as seen ending at the wide end (explain.seen_stern_start) fits at 0.03:
# found at its place, trusted (a clean fit).
def test_a_piece_whose_tip_hides_against_a_piece_found_is_started_from_its_stern_as_seen():
    p = piece_found(6224, 5968, "large", "black", (205.40, 483.13))
    assert math.dist(p.pose.stern_mm, (205.40, 483.13)) < 1.0


# A piece of the table's hue whose lit face is brighter than the table, not more saturated
# (issue 4, session 23, black31; the 5968-set's green mediums on green felt, 22-35° of tilt):
# alone in its region, nothing read on the map scaled to the lit face (true pose 0.60-0.63);
# the region was not read again on the unscaled map (0.16-0.20 there), as the felt's own
# saturation is over the lit face's. Lit ×2.1-2.4 the felt's light, of its hue and coloured
# as plastic is (look.LIT_HUED_SAT): read again there, never trusted (σ 3 mm).
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (6027, 5968, (346.62, 453.44)),
    (6189, 5968, (92.99, 177.46)),
])
def test_a_lit_piece_of_the_tables_hue_is_found_on_the_unscaled_map(seed, seed0, stern):
    _found_in_colour_never_trusted(seed, seed0, "medium", "green", stern)


# A white large whose open base faces the camera from well off its axis (issue 4, session 24,
# wb32; the 6256-set's 6376: 46° off the line to the camera's foot, 1920×1080, 0-10°): read as
# a white small at cost 0.43 over its hollow and shaded face, σ 3.0 mm, the one wrong size the
# rules trusted on that set. Its dark area is the hollow's quad (8.2 × 24.1 mm), but the nearer
# side by its midpoint was the 8.2 mm one, which matches no size's base: the near side of each
# pair of opposite sides is asked (open_base.hollow_of_longer), and σ covers the large.
def test_a_white_piece_whose_hollow_is_seen_from_its_side_is_no_sure_wrong_size():
    assert_no_sure_wrong_size(6376, 6256, "large", "white", (130.4, 226.5))


# A white piece on wood whose open base faces the camera (issue 4, session 24, wb32; the
# 6256-set's 6404 medium, 1920×1080, 22-35°): its hollow is dark and the view steps into it
# in every lane, but the grain leaves no crisp edge along its outline ahead (0.07 at its true
# pose), so the open-base pass kept nothing. Its faces are greyer than the wood: the boundary
# of the desaturated area follows the outline (0.86 at the quad's pose) and stands in for the
# crisp edges (base_quad.GREY_EDGE): found at its size, white, in doubt.
def test_a_white_piece_on_wood_is_read_from_its_base_by_its_grey_outline():
    _found_in_colour_never_trusted(6404, 6256, "medium", "white", (237.0, 311.0))


# A black piece on laminate whose top face is lit grey (issue 4, session 24, wb32; the
# 6256-set's 6461 small, 1280×720, 0-10°): only its shaded face is foreground, its crisp area
# takes in its cast shadow, and the soft clear reading kept nothing (named black, a medium).
# Its outline lies whole on the crisp edges: the soft pick, named black and darker than a lit
# white piece, is refitted to them as a white one is (crisp.SOFT_BLACK_SHADE): found at its
# size, black, in doubt.
def test_a_black_piece_lit_grey_on_laminate_is_read_from_its_crisp_outline_in_doubt():
    _found_in_colour_never_trusted(6461, 6256, "small", "black", (468.4, 106.2))


# A white small whose soft pick hides more of its outline than a soft clear reading may
# (issue 4, session 24, wb32; the 6256-set's 6329, 1280×720, 0-10°: beside a white large, its
# crisp area takes in its shadow, its near fits hide over SOFT_HIDDEN). The pick is only the
# start of the refit to the crisp edges, which judges the reading on its own: a pick hiding up
# to crisp.SOFT_WHITE_HIDDEN starts it. Found at its size, white, in doubt.
def test_a_white_piece_whose_soft_pick_hides_much_of_its_outline_is_refitted_to_its_edges():
    _found_in_colour_never_trusted(6329, 6256, "small", "white", (413.8, 290.7))


# A piece touching one found that leans over it in the view (issue 4, session 24, vivid32; the
# 6256-set's yellow smalls on wood against a black large and a green large, whose raised bases
# cover part of them as seen). Their colour areas were read at their place (fits 0.09, 0.19),
# but only 0.66 and 0.46 of the outline as seen was in colour (COLOUR_MIN_SHARE 0.7): the
# rest lay under the neighbour. Asked only where no piece found leans over it
# (explain._covers_area's bare part, COLOUR_BARE_MIN): found, never trusted (σ 3 mm).
@pytest.mark.parametrize(("seed", "stern"), [
    (6341, (482.3, 134.2)),
    (6404, (349.4, 426.5)),
])
def test_a_piece_a_found_one_leans_over_is_asked_its_colour_where_it_shows(seed, stern):
    _found_in_colour_never_trusted(seed, 6256, "small", "yellow", stern)


# A piece of the table's hue in a hand's region, lit brighter than the table, not more
# saturated (issue 4, session 24, vivid32; the 6256-set's cyan small beside a green large and
# cyan medium beside a palm, on blue cloth: saturation 181-191 against the cloth's 145-150,
# lit 1.7-1.8x its median light). Only 0.23-0.53 of their footprints passed the colour test
# (TABLE_SAT_SEP over the cloth), so no colour area held them; lit LIT_HUED_BRIGHT over the
# table, they do (look.vivid_in's lit=True, asked in hands' regions): found, σ 3 mm.
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (6263, "small", (418.3, 245.2)),
    (6273, "medium", (297.7, 356.7)),
])
def test_a_lit_piece_of_the_tables_hue_in_a_hands_region_has_its_colour_area(seed, size, stern):
    _found_in_colour_never_trusted(seed, 6256, size, "cyan", stern)


# A vivid piece in a hand's region whose edges sink on the hand's map (issue 4, session 24,
# vivid32; the 6256-set's orange small and red medium on blue cloth in an arm's shadow, and a
# red medium on felt beside a finger, 10-22° of tilt). Their colour areas held them whole
# (0.97-0.99 of the footprint), but the map, which scores the hand's shadow and the piece's
# own as object, fitted their true poses at 0.43-0.50 (over GOOD_COST). Fitted on the colour
# area itself (look.colour_map) where the map gives no good fit: found, σ 3 mm.
@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (6378, "small", "orange", (414.7, 426.4)),
    (6378, "medium", "red", (426.1, 203.2)),
    (6498, "medium", "red", (146.5, 365.9)),
])
def test_a_vivid_piece_in_a_hands_region_is_fitted_on_its_colour(seed, size, color, stern):
    _found_in_colour_never_trusted(seed, 6256, size, color, stern)


# A crisp area holding two pieces (issue 4, session 24, clear32; the 6256-set's 6461: a clear
# medium on laminate against a black small, 0-10° of tilt, one crisp area of 1116 mm²): the
# soft reading picked the black small and its gates dropped it, and the rest of the area, the
# clear medium, was never fitted. What a reading leaves of its area is fitted again
# (crisp.REST_AFTER_READING): found in doubt (as a small).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (6461, 6256, "medium", (501.8, 98.7)),
    (4670, 4528, "large", (141.3, 172.9)),   # held out: beside a red small, read as a small
])
def test_the_rest_of_an_area_after_its_reading_is_fitted_again(seed, seed0, size, stern):
    assert_clear_found_in_doubt(seed, seed0, size, stern)


# ... but not the rest a white piece's dark open base leaves, picked and dropped: its own
# faces lit like the table (the 2512-set's 2621, held out: its white medium missed, the face
# read as a false clear small on the first version).
def test_the_rest_after_a_white_pieces_open_base_is_not_read_as_a_clear_piece():
    assert_no_false_piece(2621, 2512)


# A small held off by its contact with a piece found (issue 4, session 24, clear32; the
# 6256-set's 6275: a clear small on wood against an orange small, 0-10°): the peel looked for
# mediums and larges only; it looks for what a small keeps too (crisp.PEEL_SMALL).
def test_a_clear_small_against_a_piece_found_is_peeled_off_it():
    assert_clear_found_in_doubt(6275, 6256, "small", (247.0, 97.8))


# A clear piece on laminate lit like it, named white by its grey (issue 4, session 24,
# clear32; the 6256-set): its darkest tenth is the table through two walls (0.59-0.65 of the
# table's light) and it casts no full shadow (the ring round it 0.78-0.87): named clear
# (detect.CLEAR_LIT_*).
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (6278, "large", (289.0, 449.4)),    # read by white31's crisp outline, σ 99 mm
    (6490, "small", (161.5, 362.3)),
    (6540, "small", (299.4, 152.8)),    # was named white at σ 1.3 mm
])
def test_a_clear_piece_lit_like_laminate_is_named_clear(seed, size, stern):
    p = found(seed, size, "clear", stern, seed0=6256)
    assert p is not None and p.color == "clear"


# ... while a white piece lit like the table, its faces as bright as it or brighter, stays
# white (the 6256-set's laminate: 6326's white medium and large, lit ×1.3-1.5; 6329's white
# larges, one lit ×1.37 with no shadow round it darker than 0.73; 6411's white medium, its
# darkest tenth 0.70 of the table's light).
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (6326, "medium", (491.1, 136.9)),
    (6326, "large", (485.2, 369.1)),
    (6329, "large", (469.9, 423.4)),
    (6329, "large", (405.3, 279.5)),
    (6411, "medium", (273.5, 440.6)),
])
def test_a_white_piece_lit_like_laminate_stays_white(seed, size, stern):
    p = found(seed, size, "white", stern, seed0=6256)
    assert p is not None and p.color == "white"


# ... nor a white piece read too long over its own shadow (the 4528-set's 4597, held out: a
# white small read as a medium, 0.52 inside, the ring 0.90; renamed clear on the first
# version, whose floor was 0.5).
def test_a_white_piece_read_over_its_shadow_stays_white():
    p = found(4597, "small", "white", (508.2, 219.7), seed0=4528)
    assert p is not None and p.color == "white"


# A black piece lying against a coloured one found, on a coloured table (issue 4, session 25,
# dark33; the 6544-set's 6737 small on blue cloth against an orange medium, 6776 medium on
# wood between a purple large and a white small, 6791 medium on cloth under a red small's
# tip, 6824 medium on wood along an orange small). Its lit faces are grey, which the score
# forgives as shadow; its colourless area (segment.colourless_dark) is whole but touches the
# neighbour found along more than crisp.MAX_CONTACT, so the colourless pass held it off as
# that piece's shadow and never fitted it. The pass now peels it off the neighbour as the
# crisp pass peels a clear piece (crisp PEEL_MM), its fits hiding up to one long side
# (crisp.peel_hidden; 6737's and 6824's true poses hide 0.34 and 0.32, over the muted areas'
# PEEL_HIDDEN_MUTED 0.3): found at its size, black.
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (6737, "small", (359.9, 401.6)),
    (6776, "medium", (391.9, 419.9)),
    (6791, "medium", (425.2, 166.4)),
    (6824, "medium", (301.5, 152.5)),
])
def test_a_black_piece_against_a_piece_found_on_a_coloured_table_is_peeled_off_it(
        seed, size, stern):
    _found_at_truth(seed, 6544, size, "black", [stern])


# A white piece's hollow joined to a neighbour's dark faces (issue 4, session 25, dark33; the
# 6544-set's 6551, a white large on laminate whose stern touches a purple small, 1280×720,
# 0-10°): one dark area, 0.61 of it within COVER_MM of the purple, was left whole as the
# purple's (base_quad.OWN_SHARE). What it leaves off the purple is the hollow, read by the
# open-base pass with all its tests: found at its size, white, in doubt.
def test_a_white_pieces_hollow_joined_to_a_neighbours_dark_faces_is_read_off_them():
    _found_in_colour_never_trusted(6551, 6544, "large", "white", (426.6, 180.7))


# A piece read one size short, its stern on its open base's raised rim, the face just ahead
# of the base (issue 4, session 25, size33; the 6544-set): the longer reading from its tip,
# whose open base the view shows (open_base.FACE_BASE_LANE), is taken, still in doubt (σ covers
# the shorter reading). Read by the main pass (6643), a hand region's tips (6676, 6711, 6756)
# and the unscaled re-read (6727, 6629).
@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (6643, "large", "white", (200.3, 190.6)),
    (6676, "large", "purple", (183.4, 148.7)),
    (6711, "large", "black", (233.2, 218.0)),
    (6727, "medium", "black", (121.3, 408.3)),
    (6756, "large", "purple", (281.6, 366.6)),   # read as a small, its base 3.3 mm deep
    (6629, "medium", "white", (484.6, 115.2)),   # read as a small, its base 3.8 mm deep
])
def test_a_piece_read_short_on_the_face_ahead_of_its_open_base_is_read_whole(
        seed, size, color, stern):
    p = found(seed, size, color, stern, seed0=6544)
    assert p is not None and p.size.value == size and p.color == color
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(seed, 6544, size, color, stern, any_size=True)


# ... and a reading not in size doubt, trusted one size short (issue 4, session 26, lead26;
# the tuning pool's 4661, a green medium on green felt, 1280×720, read as a small at σ 0.5 mm,
# 6 mm short at its stern): its "base" shows no step to the face ahead, but the medium from
# its tip showed its base by a median lane of 1.18 only, under shows_open_base's 1.4, so
# face_for_base gave no doubt. face_for_base asks for FACE_BASE_LANE (1.1), the line
# longer_past_face draws: the small is in doubt, and longer_past_face then reads the medium
# (σ covers the small).
def test_a_trusted_reading_short_on_the_face_ahead_of_its_open_base_is_read_whole():
    p = found(4661, "medium", "green", (366.6, 397.4), seed0=4528)
    assert p is not None and p.size.value == "medium"
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(4661, 4528, "medium", "green", (366.6, 397.4), any_size=True)


# A faint clear large on wood read as a medium that fits well, 10 mm short at its stern
# (issue 4, session 26, lead26; wrong sizes the rules would trust, tuning pool): 3785 (cost
# 0.15, σ 1.5 mm) and 3002 (0.09, σ 1.0 mm). No longer reading from the tip kept its tip, so
# face_for_base had none to cover, but the view shows the face ahead where the medium's base
# would be (open_base.face_ahead_of_base): σ covers the large (detect.CLEAR_SHORT_COST's
# note), and the rules answer "in doubt".
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (3785, 3664, (191.8, 349.5)),
    (3002, 2800, (135.8, 295.1)),
])
def test_a_clear_piece_read_short_on_the_face_ahead_of_its_base_is_no_sure_wrong_size(
        seed, seed0, stern):
    assert_no_sure_wrong_size(seed, seed0, "large", "clear", stern)


# A clear piece in a hand's region (issue 4, session 25, clear33; the 6544-set): the hand's
# shadow or fingers joined its region, and the crisp and desaturated passes left the hands'
# regions out whole. 6621's small on cloth: its crisp area a clean triangle, all of it in the
# hand's region; 6641's medium on cloth: its muted area, 0.90 of it there. Each pass's areas
# there are fitted once more, kept named clear and not a finger's patch, σ at least
# HAND_COLOUR_MM (hands.clear_in_hands): found at their size, never trusted.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (6621, 6544, "small", (291.7, 295.2)),
    (6641, 6544, "medium", (223.5, 379.6)),
    (6273, 6256, "small", (428.3, 415.7)),   # on cloth, lit ×1.43 (clear32's Left)
])
def test_a_clear_piece_in_a_hands_region_is_found(seed, seed0, size, stern):
    assert_clear_found_in_doubt(seed, seed0, size, stern)
    assert found(seed, size, "clear", stern, seed0=seed0).size.value == size


# ... and where its crisp area fits only doubtfully (issue 4, session 48, recallclear58;
# hands.HAND_CLEAR_DOUBT_COST): a clear piece's crisp area in a hand's shadow's region takes its
# own shadow in. The crisp call of hands.clear_in_hands kept only good fits (the muted call
# doubtful ones too); now it keeps a doubtful fit named clear up to 0.52, σ at least
# DOUBT_FLOOR_MM. The 11440-set's 11637 (a clear medium on the laminate, 22-35°, 1280x720, its
# area 489 mm², wholly in the hand's region: cost 0.50) and the 5968-set's 6125 (a clear small,
# 0.36). Both missed on fa34a12; read at their size, in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (11637, 11440, "medium", (361.2, 202.3)),
    (6125, 5968, "small", (352.0, 374.0)),
])
def test_a_clear_piece_in_a_hands_region_fitted_doubtfully_is_found(seed, seed0, size, stern):
    assert_clear_found_in_doubt(seed, seed0, size, stern)
    assert found(seed, size, "clear", stern, seed0=seed0).size.value == size


# ... but not over HAND_CLEAR_DOUBT_COST: the rule's first form (up to MAX_COST, 528850c) read
# the 8848-set's 8995, a white large's cast shadow beside a hand on the laminate fitted as a
# clear small at 0.55 (then lengthened), as a false clear medium.
def test_a_white_pieces_shadow_by_a_hand_is_no_clear_piece_fitted_doubtfully():
    assert_no_false_piece(8995, 8848)


# A clear piece on wood whose lit face lifts its muted area over the table's light (issue 4,
# session 25, clear33; the 6544-set's 6776: a clear small, its area's median ×1.14): the cut of
# a lit piece's shadow took its shaded face (0.64 of its footprint) and the rest fitted
# nothing. A lit area named clear whose cut reads nothing is fitted again whole
# (crisp_pieces' lit_whole): found at its size, in doubt (σ at least SNUG_END_MM, GREY_LIT).
# 6616's clear small, read only on its cut area, keeps its reading.
def test_a_lit_clear_piece_on_wood_is_fitted_whole_where_its_cut_reads_nothing():
    assert_clear_found_in_doubt(6776, 6544, "small", (172.5, 529.4))
    assert found(6776, "small", "clear", (172.5, 529.4), seed0=6544).size.value == "small"
    assert found(6616, "small", "clear", (288.4, 398.6), seed0=6544) is not None


# A piece of the table's hue, less saturated than TABLE_SAT_SEP over it, against a piece
# found (issue 4, session 25, small33; the 6544-set's 6701, a green small on green felt whose
# tip touches a cyan large, 1280×720, 0-10°). Its saturation 175-197 against the felt's 152:
# half its pixels under the table's 192, so what the cyan's reading left of its region held
# too little colour (157 px of 212) for colours_left. Its saturation averaged over
# look.FAINT_HUED_BOX px counts there now (FAINT_HUED_SEP): found at its size, green, never
# trusted. The 6256-set's 6365 (a green small on green felt, not tuned on) is found the same
# way.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (6701, 6544, (421.0, 475.8)),
    (6365, 6256, (328.1, 268.7)),
])
def test_a_faint_piece_of_the_tables_hue_against_a_piece_found_is_read_in_its_colour(
        seed, seed0, stern):
    _found_in_colour_never_trusted(seed, seed0, "small", "green", stern)


# ... but not a piece's own shadow on a table of its hue (issue 4, session 25; the judge set's
# 6958, found after its run: a blue large's shadow on blue cloth, as saturated as a piece
# and darker than the table, was read beside it as a false blue small):
# look.FAINT_HUED_BRIGHT. The large is still found, and nothing false beside it.
def test_a_pieces_shadow_on_a_table_of_its_hue_is_not_read_as_a_faint_piece():
    r, det = bench_scene(6958, 6832)
    assert not any("false" in m for m in match(r.truth, det).misses)
    assert found(6958, "large", "blue", (267.2, 129.1), seed0=6832) is not None


# A clear small against a coloured piece found, on laminate (issue 4, session 26, clear34;
# the 6832-set's 6860: a clear small against a blue small, 1920×1080, 22-35°). Its crisp area
# hugs the blue's reading, so it is held off by contact and peeled (crisp.PEEL_*), but the
# peel looked only for a medium's or a large's part on a crisp area; what it leaves is a
# small's (PEEL_SMALL now on every area). Its fit there (cost 0.46) is a soft reading, kept as
# a clear piece's darkening by its outline on the crisp edges, but the table beside it had a
# dark part: the blue's shaded face, a piece found, which is no table (SOFT_EDGE_OFF_FOUND).
# Found at its size, clear, in doubt; the blue small keeps its reading.
def test_a_clear_small_held_off_by_a_coloured_piece_found_is_peeled_off_it():
    assert_clear_found_in_doubt(6860, 6832, "small", (259.1, 287.4))
    assert found(6860, "small", "clear", (259.1, 287.4), seed0=6832).size.value == "small"
    blue = found(6860, "small", "blue", (276.3, 283.8), seed0=6832)
    assert blue is not None and blue.sigma_mm < 1.0


# A clear piece read one size short, its stern cut where the camera sees into its open base
# (issue 4, session 26, csize34; the 6832-set, the largest class of its clear wrong sizes):
# on a clear piece the base is the table darkened through its walls, not a dark hollow, so
# size33's base lanes do not pass, and the crisp and desaturated passes' readings have no
# longer fit on the main map. The strip the longer size from the same tip adds past the
# reading's stern shows the piece (median shade 0.65-0.74 against the table's 0.87-1.09 past
# right readings): strips.CLEAR_STRIP_DARK. Read at the truth's size, never trusted (σ covers
# the shorter reading).
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (6839, "large", (482.3, 125.9)),   # felt, read as a medium by the desaturated pass
    (7042, "large", (427.2, 324.9)),   # laminate, a medium by the main pass
    (7116, "medium", (233.3, 362.1)),  # wood, a small by the desaturated pass
])
def test_a_clear_piece_read_short_whose_strip_past_its_stern_shows_it_is_read_whole(
        seed, size, stern):
    assert_clear_found_in_doubt(seed, 6832, size, stern)
    assert found(seed, size, "clear", stern, seed0=6832).size.value == size


# A white large read one size short over its open base and shaded face, at a fit just past
# GOOD_COST (issue 4, session 26, white34; the 6832-set's 6964, 0-10°, 1920×1080, laminate:
# the lit face is the table's shade, the map holds the hollow and the shaded face only, and a
# small beside the true axis fitted them at a joint cost of 0.37, σ 1.5 mm: a wrong size the
# rules would trust). Its dark area is a full quadrilateral 23.2 mm wide, the large's hollow
# (22.8 mm inside its walls): open_base.hollow_of_longer, asked now of every doubtful reading
# (HOLLOW_COST = GOOD_COST, was 0.4), puts the large within its σ. Still a small, in doubt.
def test_a_white_piece_read_short_over_its_hollow_just_past_a_good_fit_is_in_doubt():
    assert_no_sure_wrong_size(6964, 6832, "large", "white", (397.2, 120.4), any_size=True)


# A white piece whose stern touches a piece found (issue 4, session 26, white34; the
# 6832-set's 6857, a white small on laminate, 1280×720, 0-10°, its stern against a red
# large's side): the open-base pass's quad lies at its place (edges ahead 1.0), but behind its
# stern is the red's shaded face and shadow, no table (0.36-0.67 of the table's light against
# the hollow's 0.35-0.42), so one lane stepped 0.99 (BASE_STEP 1.15) and it was left. A lane
# whose table behind lies on a piece found is judged by the face ahead alone
# (open_base.base_lanes_beside): found at its size, white, in doubt.
def test_a_white_pieces_base_against_a_piece_found_is_judged_by_its_face_ahead():
    _found_in_colour_never_trusted(6857, 6832, "small", "white", (346.8, 267.5))


def _read_in_place_and_scene_whole(seed: int, size: str, color: str,
                                   stern: tuple[float, float]) -> None:
    """The 7120-set scene ``seed``'s piece at ``stern`` (table mm) is read at its size and
    colour within 1 mm, and every truth piece of the scene is matched with no false piece."""
    p = found(seed, size, color, stern, seed0=7120)
    assert p is not None and (p.size.value, p.color) == (size, color)
    assert math.dist(p.pose.stern_mm, stern) <= 1.0
    r, det = bench_scene(seed, 7120)
    t = match(r.truth, det)
    assert t.matched == t.truth
    assert not any("false" in m for m in t.misses)


# A piece whose own region nothing explained, a neighbour found in the region beside it lying
# over part of it (issue 4, session 27, vivid35; coloured pieces against a neighbour; the
# 7120-set's 7130, a yellow large on wood, its stern under a purple large's side, and 7151, a
# purple small on wood, its tip under a yellow large's side): the true pose fits the region
# (0.06, 0.23), but with its edges hidden under the neighbour taken as misses the choice's
# joint cost was 0.46 / 0.37 and leftover_piece dropped it; 7151's region (179 mm²) was under
# a small's area. The neighbour's outline now excuses those edges (explain._leaning_on,
# LEAN_GAP_MM), and such a region down to LEAN_MIN_AREA of a small's is read, good fits only,
# σ covering the longer sizes (its length may run on under the neighbour).
@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (7130, "large", "yellow", (149.4, 320.3)),
    (7151, "small", "purple", (90.8, 190.0)),
])
def test_a_piece_a_neighbour_found_lies_over_is_read_in_its_own_region(seed, size, color, stern):
    _read_in_place_and_scene_whole(seed, size, color, stern)


# A piece no pass read on the scaled map, read on the unscaled one at a doubtful fit (issue 4,
# session 27, sure35; the 7120-set's 7305, a yellow large on wood, 1280×720, 22-35°): that
# map takes the grain and the shadow in, and its fit (cost 0.36) lay 8.1 mm back along the
# piece's axis at σ 3.0 mm (HAND_COLOUR_MM), a pose the rules would trust; the true pose fits
# the scaled map at 0.10. A doubtful fit there now has σ over every size
# (detect._sunk_doubt): found at its size, in doubt.
def test_a_doubtful_reading_on_the_unscaled_map_of_a_sunk_piece_is_in_doubt():
    assert_no_sure_wrong_size(7305, 7120, "large", "yellow", (285.0, 458.2), any_size=True)


# A clear medium read as a large from its stern at a doubtful fit (issue 4, session 27,
# sure35; the 7120-set's 7191, on laminate, 1280×720, 22-35°: cost 0.42, σ 1.8 mm, the medium
# from the same stern 0.28): the table past its tip fitted as faint plastic. A clear reading
# of the longest size past GOOD_COST is doubtful (detect.CLEAR_LONG_COST): σ covers the
# shorter sizes.
def test_a_clear_piece_read_long_at_a_doubtful_fit_is_no_sure_wrong_size():
    assert_no_sure_wrong_size(7191, 7120, "medium", "clear", (292.8, 142.6))


# A clear piece on dark blue cloth, lit by its own reflection (issue 4, session 27, clear35;
# the 7120-set's 7341, a medium, 1280×720, 22-35°, and 7384, a small, 1920×1080, 0-10°):
# its muted area is ×1.53-1.56 the cloth's shade, over the desaturated pass's lit top (was
# crisp.GREY_LIT 1.4), and its crisp area's soft reading is lit, not darkened as a clear
# piece darkens the table, so nothing read it. Lit areas named clear are fitted up to
# GREY_LIT 1.7 now: each found, named clear, in doubt (7384's small read as a medium, σ
# covering the small). Seed 1001's clear small on cloth (area ×1.40) is found so too.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (7341, 7120, "medium", (198.9, 497.9)),
    (7384, 7120, "small", (374.6, 159.8)),
    (1001, 1000, "small", (376.7, 150.5)),
])
def test_a_clear_piece_lit_over_dark_cloth_is_read_on_its_muted_area(seed, seed0, size, stern):
    assert_clear_found_in_doubt(seed, seed0, size, stern)


# A clear piece touching a piece read from its open base (issue 4, session 28, soft36; the
# 7120-set's 7253, a clear medium on laminate whose tip touches a white small): the soft
# reading at its place (3.4 mm off) was dropped where the soft readings are added last, for
# overlapping the white's reading by 0.5 mm² of its 360 (crisp.overlaps_any, any area). A
# soft reading overlapping a later one by at most SOFT_TOUCH_SHARE of its footprint is a
# piece touching it, not its shade: found, in doubt, and the white small still read.
def test_a_clear_piece_touching_a_piece_read_from_its_open_base_is_kept():
    assert_clear_found_in_doubt(7253, 7120, "medium", (380.7, 89.7))
    assert found(7253, "small", "white", (391.7, 115.3), seed0=7120) is not None


# A glare re-read's shorter reading of a piece the scaled map read longer (issue 4, session
# 28, sure36; the 7120-set's 7259, a purple large against a green large's stern, on wood,
# 1280×720, 0-10°): the scaled map read the large at cost 0.357, the unscaled map a medium at
# 0.08 whose stern lies 7.5 mm inside, σ 1.4 mm, a wrong size the rules would trust. Which map
# shows the piece whole is the doubt: σ covers the longer reading (detect._longer_first_rivals).
def test_a_glare_rereads_short_reading_of_a_piece_read_longer_is_in_doubt():
    assert_no_sure_wrong_size(7259, 7120, "large", "purple", (346.4, 511.6))


# A clear piece hiding its outline at both ends (issue 4, session 28, sure36; the 7120-set's
# 7314, a clear large alone on laminate, 1920×1080, 10-22°): its dark base past the stern and
# a glint past the tip are solid outside (0.89 and 0.43 of those ends' samples hidden), and
# its sides show double, so the fit slid 3.2 mm along them at σ 0.8 mm, a pose the rules
# would trust. Such a reading has σ at least detect.CLEAR_ENDS_HIDDEN_MM: in doubt.
def test_a_clear_piece_hiding_both_ends_is_in_doubt():
    assert_no_sure_wrong_size(7314, 7120, "large", "clear", (234.5, 203.7), any_size=True)


# A piece in one region with its neighbour, the neighbour read, not it (issue 4, session 28,
# vivid37; the 7120-set's 7190, a red small on felt beside a black medium, and 7289, a red
# small on cloth among a white large, a white medium and a blue large): its colour area's
# true fits (cost 0.06 / 0.19) had only 0.66 / 0.67 of their outline as seen in colour,
# under explain.COLOUR_MIN_SHARE, for the colour mask's edge lies a pixel in from the outline
# (the views' grid 1.5 px/mm). The share is asked of the outline less that rim
# (explain.COLOUR_RIM_PX) where the region's colours are parted: found, never trusted.
@pytest.mark.parametrize(("seed", "stern"), [(7190, (180.8, 130.3)), (7289, (436.0, 190.1))])
def test_a_small_in_its_neighbours_region_is_read_in_its_colour_area(seed, stern):
    _read_in_place_and_scene_whole(seed, "small", "red", stern)


# A vivid piece whose longer reading only the other map shows (issue 4, session 28, sure37;
# seed 3797 of the run from 3664, a green large beside a black large's tip, on felt,
# 1280×720, 0-10°): the scaled map read it as a medium at cost 0.33, its stern 7.1 mm inside,
# σ 0.5 mm, a wrong size the rules would trust; the unscaled map read the large at 0.125. Only
# the all-rivals ambiguity was raised, which does not count for a vivid piece: a longer rival
# raises the covering ambiguity too (detect._other_map_rivals).
def test_a_vivid_pieces_short_reading_with_a_longer_one_on_the_other_map_is_in_doubt():
    assert_no_sure_wrong_size(3797, 3664, "large", "green", (131.9, 457.1))


def _scene_whole_no_false(seed: int, seed0: int) -> None:
    """Scene ``seed`` of the run from ``seed0``: every truth piece matched, no false piece."""
    r, det = bench_scene(seed, seed0)
    t = match(r.truth, det)
    assert t.matched == t.truth
    assert not any("false" in m for m in t.misses)


# A piece's shadow on cloth of its hue, beside it (issue 4, session 29, vivid38; the
# 7408-set's 7552: a cyan large on blue cloth, 1920×1080, 0-10°): the shadow is as saturated
# as plastic, and at 1.03 of the cloth's value over the view passed the faint colour's
# brightness test (look.FAINT_HUED_BRIGHT), so colours_left read it as a false cyan small
# beside the large (σ 3 mm). The cloth there is brighter than its median: the shadow is 0.92
# of it. The test asks the table's value where each pixel lies: no false piece, the large
# still found; 6701's faint green small on felt (the faint test's case) is still read.
def test_a_pieces_shadow_on_a_table_of_its_hue_brighter_than_its_median_is_no_piece():
    _scene_whole_no_false(7552, 7408)
    large = found(7552, "large", "cyan", (206.0, 270.0), seed0=7408)
    assert large is not None and large.size.value == "large"
    assert found(6701, "small", "green", (421.0, 475.8), seed0=6544) is not None


# A standing clear piece's crisp outline read softly as a lying one (issue 4, session 29,
# vivid38; the 7408-set's 7473, a standing clear large, and 7521, a standing clear medium,
# both on felt at 22-35°): the soft readings pointed 1° and 3° off away from the camera's
# foot, a standing pyramid fitted their areas at 0.13 and 0.05 against their 0.44 and 0.54,
# but covered no more of them by SOFT_UPRIGHT_MORE (0.99 against 0.94; 0.51 against 0.89),
# so each was read as a false clear piece (σ 28 / 67 mm). A standing fit better by
# crisp.SOFT_UPRIGHT_BETTER is that outline too: no false piece.
@pytest.mark.parametrize("seed", [7473, 7521])
def test_a_standing_clear_piece_that_fits_standing_much_better_is_no_lying_piece(seed):
    r, det = bench_scene(seed, 7408)
    assert not any("false" in m for m in match(r.truth, det).misses)
    assert len(det.pieces) == len(r.truth["pieces"])


# A clear piece whose tip touches a hand is found (issue 4, session 29; the 7696-set's 7828,
# felt, 1920×1080, 0-10°): a doubtful clear reading that reaches a hand's region may be the
# table in the hand's shadow (the 7408-set's 7415, mended in session 31 below), but dropping
# such readings (vivid38's detect._hand_shadow, tried) lost this real medium, read right in
# doubt (σ 43 mm).
def test_a_clear_piece_touching_a_hand_with_its_tip_is_found():
    assert found(7828, "medium", "clear", (281.4, 182.2), seed0=7696) is not None


# The table in the crook between a thumb and a palm, a region of its own, is no piece (issue
# 4, precision, session 31, false40c; false pieces named clear or white): the 7408-set's
# 7415 (laminate, 1280×720, 0-10°), the table in the hand's shadow read as a clear small
# (cost 0.38), and the 7984-set's 8131 (laminate, 1280×720, 10-22°), one read as a white
# small (cost 0.29). Skin lies round 0.72 and 0.50 of their outlines as seen (3 mm out);
# 7828's clear medium above, its tip touching a hand, 0.07 (hands.in_crook_of_hand).
@pytest.mark.parametrize(("seed", "seed0"), [(7415, 7408), (8131, 7984)])
def test_the_table_between_a_thumb_and_a_palm_is_no_piece(seed, seed0):
    assert_no_false_piece(seed, seed0)


# A clear piece hiding one end and part of its sides (issue 4, session 29, sure38; the
# 7408-set's 7573, a clear large alone on laminate, 1280×720, 10-22°: 0.50 of its tip end's
# samples hidden and 0.23 of its sides', 4.1 mm off at σ 0.7 mm; seed 4627 of the run from
# 4528, a clear small, its stern end 0.31 and sides 0.22, 3.0 mm off at σ 0.8 mm): the double
# sides it shows leave the fit free to slide, a pose the rules would trust. Such a reading
# has σ at least detect.CLEAR_ENDS_HIDDEN_MM, as one hiding both ends: in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (7573, 7408, "large", (376.9, 383.6)),
    (4627, 4528, "small", (360.6, 224.3)),
])
def test_a_clear_piece_hiding_an_end_and_its_sides_is_in_doubt(seed, seed0, size, stern):
    assert_no_sure_wrong_size(seed, seed0, size, "clear", stern, any_size=True)


# A colour area's reading turned on its piece (issue 4, session 29, sure38; the 7408-set's
# 7520, a green medium beside a hand, on cloth, 1920×1080, 22-35°, its base face seen beside
# it as the camera is tilted): read in the hand's region on its colour area turned 117° at
# cost 0.24 (σ 9.9 mm, 43 mm off), its refit's joint cost 0.61 (edges hidden against the base
# face, which no reading explains). The turned reading near its true pose costs 0.27 on its
# own, 1.61 jointly: such a reading's turned rivals are judged on own costs
# (detect._turned_rivals), and σ covers the turned one.
def test_a_colour_area_reading_turned_on_its_piece_is_in_doubt():
    assert_no_sure_wrong_size(7520, 7408, "medium", "green", (389.9, 285.0), any_size=True)


# A black piece read short across its tip half at a doubtful fit (issue 4, session 29,
# sure38; the 7408-set's 7616, a black large on wood touching a yellow large tip to tip,
# 1920×1080, 22-35°): read as a small turned 108° at cost 0.475, σ 3.9 mm, 31 mm off, a wrong
# size the rules would trust. Its black goes on past its outline (the large's base, 0.21 of
# the ring), which detect._inside_goes_on asked only of readings at σ ≤ 3 mm: asked at any σ,
# the reading is in doubt, σ covering every size.
def test_a_black_piece_read_short_at_a_doubtful_fit_is_in_doubt():
    assert_no_sure_wrong_size(7616, 7408, "large", "black", (282.4, 339.6))


# A lone vivid piece whose glint and shadow joined its region (issue 4, session 29, recall38;
# the 7408-set's 7471, an orange large on laminate, 1280×720, 10-22°, and 7665, a cyan large
# on felt, 1280×720, 22-35°): the region's fits count the glint and shadow past the outline as
# solid and fail, nothing else reads the region, and its one colour area fits the piece
# cleanly (0.014 / 0.157) but was refused: 7471's hides 0.54 of its outline (the colour
# passes allow colour_areas.APART_MAX_HIDDEN 0.5), 7665's area is over APART_MAX_SHARE of its
# region (a die's test). A region's only colour area read so cleanly is taken
# (colour_areas.lone_colour_piece): found at its size and colour, never trusted. A die's round
# area is not (the 7120-set's 7172: a red die alone on felt was read as a red small).
@pytest.mark.parametrize(("seed", "color", "stern"), [
    (7471, "orange", (284.4, 197.0)),
    (7665, "cyan", (126.4, 149.2)),
])
def test_a_lone_vivid_piece_with_its_glint_in_its_region_is_read_in_its_colour_area(
        seed, color, stern):
    p = found(seed, "large", color, stern, seed0=7408)
    assert p is not None and (p.size.value, p.color) == ("large", color)
    assert math.dist(p.pose.stern_mm, stern) <= 1.0
    assert p.sigma_mm >= 3.0
    assert_no_false_piece(seed, 7408)


def test_a_lone_die_is_read_as_no_piece():
    assert_no_false_piece(7172, 7120)


# A white piece lit like the table whose soft pick took its shadow in (issue 4, session 29,
# recall38; the 7408-set's 7434 and 7576, white larges alone on light laminate, 1920×1080,
# 10-22° and 0-10°): the main pass's fits follow the shadow and fail; the crisp pass's soft
# pick, a large 10-15 mm off along the shadow and ~16° turned, refits to the crisp edges on
# under crisp.SOFT_WHITE_EDGES of its outline. The area's best good fits start the refit too
# (crisp._soft_white_from, SOFT_WHITE_STARTS): 7434's medium from the piece's own stern
# (cost 0.03) refits to the large 0.6 mm off. Found, named white, in doubt.
@pytest.mark.parametrize(("seed", "stern"), [(7434, (138.5, 486.0)), (7576, (148.0, 473.4))])
def test_a_white_piece_whose_soft_pick_took_its_shadow_in_is_refitted_from_a_good_fit(
        seed, stern):
    p = found(seed, "large", "white", stern, seed0=7408)
    assert p is not None and (p.size.value, p.color) == ("large", "white")
    assert math.dist(p.pose.stern_mm, stern) <= 1.0
    assert p.sigma_mm > 1.5
    assert_no_false_piece(seed, 7408)


# A vivid piece against another colour's tip is its own piece, not the rest of that one read
# short (issue 4, session 29; the 7408-set's 7640, wood, 1920×1080, 22-35°): its colour area,
# left by the readings, reads a cyan small cleanly (cost 0.05) that lay in the footprint of a
# longer size from a yellow small's tip, and colour_areas._rest_of_shorter dropped it. Only a
# reading of its colour can be the piece it is the rest of.
def test_a_vivid_piece_against_another_colours_tip_is_not_its_rest():
    assert found(7640, "small", "cyan", (105.3, 251.8), seed0=7408) is not None


# A piece read at both ends, one reading trusted (issue 4, session 30, split39; the
# 7696-set's 7760, laminate, 1920×1080, 22-35°, and 7967, felt, 1280×720, 0-10°): 7760's
# purple large, a green medium's tip under its stern, was read as a small over its tip half
# (in doubt) and a medium turned across its base (cost 0.29, σ 1.3 mm: a wrong size the
# rules would trust); 7967's white large as a medium over its tip (in doubt) and its open
# base's hollow as a black small (σ 1.1 mm, a trusted false piece). The trusted reading lies
# 0.83 / 0.66 in the footprint the one in doubt would have longer (detect._split_piece):
# one piece, one reading left, in doubt.
@pytest.mark.parametrize(("seed", "color", "stern"), [
    (7760, "purple", (365.5, 497.3)),
    (7967, "white", (350.8, 472.7)),
])
def test_a_piece_read_at_both_ends_with_one_reading_trusted_is_one_reading_in_doubt(
        seed, color, stern):
    assert_no_sure_wrong_size(seed, 7696, "large", color, stern)
    assert_no_false_piece(seed, 7696)


# A trusted reading as long as the piece it would be the rest of is the whole piece (issue 4,
# session 61, recallhue71): the 13456-set's 13521 and the 16336-set's 16521, green larges on
# felt alone (1280×720, 22-35°), each read right at σ 0.3 mm and its stern's area as a small
# turned 89° / 101° across it (σ 19.8 mm). 0.62 / 0.63 of the large lies in the large the
# small would be, so detect._split_piece took the large for the rest of the small's piece,
# dropped it and kept the small: the large missed, a false small. The piece the two make is
# no longer than the trusted reading: the small goes, the large is kept with σ covering it.
# (7760 and 7967 above: the trusted reading is shorter than the piece, 0.83 / 0.66 in it.)
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (13521, 13456, (456.1, 452.8)),
    (16521, 16336, (235.9, 490.6)),
])
def test_a_trusted_large_and_its_stern_read_across_it_keep_the_large(seed, seed0, stern):
    p = found(seed, "large", "green", stern, seed0=seed0)
    assert p is not None and p.size.value == "large" and p.color == "green"
    assert_no_false_piece(seed, seed0)


# A hued small touching a neighbour on the dark blue cloth whose shaded faces are not vivid
# (issue 4, session 61, recallhue71): the region's choice priced its fit against the
# neighbour's reading (over MAX_COST), and colours_left's fit in its own colour area, whole
# (0.00-0.03 of the area left out) and cheap (0.02-0.05), had 0.65-0.69 of its outline as seen
# in colour, under explain.COLOUR_MIN_SHARE: none read. Beside a piece found, a fit leaving
# at most BESIDE_MAX_LEFT of its area out needs BESIDE_MIN_SHARE (0.6): found, in colour,
# never trusted, no false piece.
@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (12071, 12016, "red", (481.4, 131.7)),
    (14519, 14320, "yellow", (170.0, 422.6)),
    (14267, 14032, "red", (254.7, 423.1)),
    (16352, 16336, "orange", (446.6, 261.0)),
])
def test_a_hued_small_beside_a_neighbour_with_its_shaded_faces_dull_is_read(
        seed, seed0, color, stern):
    _found_in_colour_never_trusted(seed, seed0, "small", color, stern)
    assert found(seed, "small", color, stern, seed0=seed0).color == color
    assert_no_false_piece(seed, seed0)


# A hued piece in a knot whose region no pass read a piece in, its neighbour read by another
# pass (the crisp pass, from the neighbour's own edges; issue 4, session 62, knot72): the
# region was never asked what that reading leaves of its colour (colours_left asked only the
# regions a piece was read in), though the piece's fit there is good and whole. Asked of such
# a region too (detect._reading_on): found, in colour, never trusted, no false piece. The
# 13456-set's 13481 (a cyan large beside a black medium, felt), the 16048-set's 16235 (a cyan
# small at a yellow large's tip, felt) and 16301 (a yellow small beside a yellow small,
# cloth), the 13744-set's 13853 (an orange large beside a yellow large, cloth), the
# 15184-set's 15467 (a yellow large beside a yellow large, cloth) and the 14320-set's 14519
# (a yellow large beside an orange large, cloth), all 1280×720, 0-10°; and the 14320-set's
# 14396 (a yellow medium beside an orange medium, cloth, 1920×1080, 22-35°).
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (13481, 13456, "large", "cyan", (395.9, 291.4)),
    (16235, 16048, "small", "cyan", (327.6, 125.4)),
    (16301, 16048, "small", "yellow", (237.9, 486.1)),
    (13853, 13744, "large", "orange", (255.2, 238.5)),
    (15467, 15184, "large", "yellow", (330.9, 401.4)),
    (14519, 14320, "large", "yellow", (399.9, 163.2)),
    (14396, 14320, "medium", "yellow", (218.2, 437.1)),
])
def test_a_hued_piece_in_a_region_no_pass_read_whose_neighbour_another_pass_read_is_found(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)
    assert found(seed, size, color, stern, seed0=seed0).color == color
    assert_no_false_piece(seed, seed0)


# A piece read short over one end and its other end read across it, both in doubt (issue 4,
# session 30, split39; the 7696-set's 7905, felt, 1280×720, 22-35°): a clear large whose
# stern touches a purple large's was read as a small over its tip (σ 20 mm) and a small
# turned 104° over its base (σ 72 mm, a false piece), 0.35 and 0.38 of each in the other's
# longer footprints, under ONE_PIECE_SHARE. Turned across each other and touching, two
# readings of one colour are one piece at TURNED_PIECE_SHARE (detect._turned_across).
def test_a_piece_read_short_with_its_other_end_read_across_it_is_one_reading():
    assert_no_sure_wrong_size(7905, 7696, "large", "clear", (136.9, 457.9))
    assert_no_false_piece(7905, 7696)


# A white small on light laminate whose soft pick is no white piece's footprint (issue 4,
# session 30, touch39; opaque pieces missed, the class "a white piece lit like the table"):
# the 7408-set's 7477 (alone, 1280×720, 10-22°) and 7679 (against an orange medium's side,
# 1280×720, 0-10°). Nothing but the crisp pass's soft pick reads either, and its refit to the
# crisp edges lands on the piece (0.2 / 1.1 mm off), but the pick was judged on its own
# footprint: 7477's takes the shadow in (shade 0.72, named clear), 7679's lit face is 1.31 of
# the table (over crisp.SOFT_WHITE_SHADE's former 1.3). A pick darker than the band and not
# black is judged where refitted (crisp._soft_white_piece), the lit bound is 1.4: found,
# named white, in doubt as every soft white reading, and no false piece.
@pytest.mark.parametrize(("seed", "stern"), [(7477, (212.4, 483.6)), (7679, (85.2, 350.6))])
def test_a_white_small_on_laminate_is_judged_white_where_refitted(seed, stern):
    p = found(seed, "small", "white", stern, seed0=7408)
    assert p is not None and (p.size.value, p.color) == ("small", "white")
    assert math.dist(p.pose.stern_mm, stern) <= 1.5
    assert p.sigma_mm > 1.5
    r, det = bench_scene(seed, 7408)
    assert len([m for m in match(r.truth, det).misses if "false" in m]) == (
        1 if seed == 7679 else 0)  # 7679's false clear small: a white large's shadow (vivid38)

# A doubtful reading whose refit fits nothing on the map, turned on its piece (issue 4,
# session 30, unfit39; the 7696-set's 7838, a black small on dark cloth, 1920×1080, 22-35°,
# its tip against a cyan small): the crisp pass read it turned 95° at cost 0.44 (σ 3.1 mm,
# 29.6 mm off); its refit on the map costs 0.59 and none of its turned starts (about its
# footprint's centre, 12 mm from the true one's) fits, while its true pose costs 0.21. Such
# a reading's turn is pinned by nothing (detect._turned_mm): σ covers its length.
def test_a_doubtful_reading_whose_refit_fits_nothing_is_in_doubt():
    assert_no_sure_wrong_size(7838, 7696, "small", "black", (307.9, 393.3), any_size=True)


# A lit clear piece on light laminate whose crisp area is one rim (issue 4, session 30,
# clear39; the 7408-set's 7434 S, 7441 M, 7686 L, 7690 S, each alone, 0-22°): its inside is
# lit like the table, so no region holds it and the crisp edges enclose only the rim's band,
# a V open on one side with its shadow's edge beside it, that no fit on the crisp map
# explains (7434's best, a small 2.4 mm off, cost 0.61). crisp.rim_pieces reads such an area
# from its convex hull's axis refitted to the crisp edges (crisp.RIM_EDGES of the outline on
# them), kept and named clear when lit like the table with no shadow beside it
# (detect.RIM_LIT_INSIDE): found at its size within 1.5 mm, named clear, in doubt, no false
# piece added.
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (7434, "small", (350.9, 366.8)),
    (7441, "medium", (347.1, 398.6)),
    (7690, "small", (488.4, 205.4)),
])
def test_a_lit_clear_piece_whose_crisp_area_is_one_rim_is_found(seed, size, stern):
    p = found(seed, size, "clear", stern, seed0=7408)
    assert p is not None and (p.size.value, p.color) == (size, "clear")
    assert math.dist(p.pose.stern_mm, stern) <= 1.5
    assert p.sigma_mm > 1.5
    assert_no_false_piece(seed, 7408)


# ... and a white die whose crisp area with its shadow is a rim is no clear piece (the
# 7408-set's 7625, laminate, 1280×720: read as a clear small, named clear, before the
# detect.RIM_LIT_INSIDE test; the shadow beside it, ring 0.57).
def test_a_dies_rim_with_its_shadow_is_no_clear_piece():
    assert_no_false_piece(7625, 7408)


# A die read as a small (issue 4, session 31, false40v; false pieces in an opaque colour where
# there is no piece): the 7984-set's 8076 (a red die on wood, 1920×1080, 10-22°, read as a
# red small at σ 1.3 mm: a false piece the rules would trust), the 7696-set's 7748 (a black
# die on cloth, 1920×1080, 22-35°, σ 20 mm) and the 7120-set's 7377 (a red die on laminate
# beside a hand, 1280×720, 22-35°, σ 20 mm). The area of the reading's colour that holds its
# inside is a die's top, a filled square 16-24 mm wide lying 0.11-0.22 past the small's
# outline (detect._die_top): dropped, and nothing is read on the die.
@pytest.mark.parametrize(("seed", "seed0", "die_mm"), [
    (8076, 7984, (149.0, 482.0)),
    (7748, 7696, (320.0, 331.0)),
    (7377, 7120, (415.0, 230.0)),
    (8514, 8272, (121.2, 391.6)),  # a red six filling 0.74 of its rectangle (DIE_FILL)
])
def test_a_die_is_no_piece(seed, seed0, die_mm):
    r, det = bench_scene(seed, seed0)
    assert any(e["kind"] == "die" and math.dist(e["center"], die_mm) < 1.0
               for e in r.truth["extras"]), "the case's die is not in the scene as rendered"
    assert not any(math.dist(p.pose.stern_mm, die_mm) < 20.0 for p in det.pieces)
    assert_no_false_piece(seed, seed0)


# A clear large whose lit base was taken for a glint (issue 4, session 31, size40; the
# 7984-set's 8138, felt, 1920×1080, 22-35°, its stern against a white medium's tip): fitted at
# its true pose at 0.36, it was replaced by a medium from its tip whose hidden stern samples
# were excused against the lit base face (open_base._glint_tip; 0.20, σ 1.5 mm, 8.8 mm short
# at the stern: a wrong size the rules would trust). What a longer reading adds past a
# shorter one's stern is the piece's own stern, no glint past a tip (_adds_past_stern).
def test_a_clear_piece_whose_lit_base_lies_past_a_shorter_readings_stern_is_read_at_its_size():
    stern = (281.5, 158.0)
    p = found(8138, "large", "clear", stern, seed0=7984)
    assert p is not None and (p.size.value, p.color) == ("large", "clear")
    assert math.dist(p.pose.stern_mm, stern) <= max(2 * p.sigma_mm, 1.0)


# A fit that stopped short of settling (issue 4, session 32, far41; a right size read off that
# the rules would trust): the 8272-set's 8522, a yellow small on wood (1920×1080, 22-35°)
# whose tip touches a white small, was read 7.8° turned at cost 0.27, σ 0.5 mm / 1.0°: its tip
# 3.2 mm off. Refitted from that pose on the fit map it turns back to the true heading, so the
# pose is in question (refine.unsettled_doubt): its worse end lies within 2σ, and its white
# neighbour, whose fit settled, keeps a σ the rules can use.
def test_a_fit_that_a_refit_turns_away_from_is_in_doubt():
    assert_no_sure_wrong_size(8522, 8272, "small", "yellow", (213.4, 207.6), any_size=True)
    p = found(8522, "small", "white", (205.9, 226.5), seed0=8272)
    assert p is not None and p.sigma_mm <= 1.5 and p.sigma_deg <= 1.5


# A finger's skin or wood lit beside a hand's shadow read as an orange or yellow piece (issue
# 4, session 32, wood41; false pieces on wood): the 8272-set's 8499 (wood, 1280×720, 22-35°:
# an orange small and an orange large on a thumb and a finger, cost 0.52-0.56, saturation
# 111-113, over SKIN_MAX_SAT), 8494 (wood, 1920×1080, 0-10°: a yellow medium on wood lit
# between the shadows of a hand's fingers) and the 7984-set's 8001 (wood, 1280×720, 22-35°: a
# yellow small on wood by a finger's shadow). Each is no more vivid than the wood there
# (hands._dull_as_wood): dropped. Plastic on wood found in doubt stays (the 7408-set's 7525,
# an orange medium at cost 0.48, 96 over the wood's saturation; 7640, a yellow small at cost
# 0.39 whose lit face clips white, 33 over the wood).
@pytest.mark.parametrize(("seed", "seed0", "false_mm"), [
    (8499, 8272, (478.0, 376.0)),
    (8499, 8272, (511.0, 333.0)),
    (8494, 8272, (303.0, 286.0)),
    (8001, 7984, (401.0, 342.0)),
])
def test_skin_or_lit_wood_no_more_vivid_than_the_wood_is_no_piece(seed, seed0, false_mm):
    r, det = bench_scene(seed, seed0)
    assert r.truth["surface"] == "wood"
    assert not any(math.dist(p.pose.stern_mm, false_mm) < 10.0 for p in det.pieces)
    assert_no_false_piece(seed, seed0)


@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (7525, "medium", "orange", (90.7, 329.1)),
    (7640, "small", "yellow", (90.0, 244.0)),
])
def test_a_warm_piece_on_wood_read_in_doubt_is_kept(seed, size, color, stern):
    p = found(seed, size, color, stern, seed0=7408)
    assert p is not None and (p.size.value, p.color) == (size, color)


# A standing piece whose shaded near face looks like an open base below the face ahead
# (issue 4, session 32, stand41; precision: a false piece the rules would trust): the
# 7696-set's 7755, an upright red small on laminate (1280×720, 22-35°), read as a lying red
# small heading away from the camera at joint cost 0.09, σ 0.29 mm, its "base" 1.36 below
# the face ahead (open_base.FACE_OVER_BASE). A standing fit that is sure (0.02:
# detect.STAND_SURE_COST, STAND_BELOW_SHARE of the lying one's) still takes it: read standing
# at its place, at its size and colour, and no piece lies there.
def test_a_standing_piece_whose_near_face_looks_like_a_base_is_read_standing():
    assert_read_standing(7755, 7696)
    assert_no_false_piece(7755, 7696)


# A white piece's raised face read as a piece of its own (issue 4, session 32, shade41; false
# pieces named white or clear beside a white one): the 8272-set's 8516 (a white large on felt,
# 1920×1080, 22-35°) was read as the large (σ 10.8 mm) and, by explain_region, as a white
# small on its lit side face (σ 35.8 mm), 0.99 of the small's footprint under the large's
# outline as seen, where no piece lying could be seen (detect.HIDDEN_PIECE_SHARE): one piece,
# the small dropped, the large read at its size and place.
def test_a_white_pieces_raised_face_is_no_piece_of_its_own():
    stern = (322.0, 392.7)
    p = found(8516, "large", "white", stern, seed0=8272)
    assert p is not None and (p.size.value, p.color) == ("large", "white")
    assert math.dist(p.pose.stern_mm, stern) <= 1.0
    assert_no_false_piece(8516, 8272)


# A neighbour's shadow read as a piece of the table's colour (issue 4, session 32, shadow41;
# precision): the 8272-set's 8332, blue cloth (1920×1080, 0-10°), where a red large's shadow
# was read as a blue small leaning on it (52 % of its outline hidden, σ 19.8 mm): the cloth
# with light taken away (detect._leaning_shadow). Dropped; the red large keeps its reading.
def test_a_shadow_leaning_on_its_piece_is_no_piece_of_the_tables_colour():
    assert_no_false_piece(8332, 8272)
    p = found(8332, "large", "red", (386.4, 105.5), seed0=8272)
    assert p is not None and p.sigma_mm <= 1.5


# A vivid piece read one size short with its stern on the face ahead of its open base, the
# longer reading on the other map (issue 4, session 33, sure42; a wrong size the rules would
# trust): the 8560-set's 8591, a green large on green felt (1280×720, 0-10°) beside an orange
# small, read as a medium at cost 0.27, σ 0.4 mm, its stern 7.5 mm ahead of the large's on
# the face ahead of its base (open_base.face_ahead_of_base). The unscaled map reads the large
# at cost 0.33, its open base shown (median lane 1.57): σ covers it
# (detect._other_map_rivals), the rules answer "in doubt".
def test_a_short_reading_on_the_face_ahead_of_a_longer_readings_base_is_in_doubt():
    assert_no_sure_wrong_size(8591, 8560, "large", "green", (98.4, 353.6))


# A black piece read one size short on the map scaled to its dark faces (issue 4, session 33,
# sure42; wrong sizes): the 8560-set's 8580 (a black large on felt, read as a small at cost
# 0.16), 8613 (a black large on cloth, as a medium at 0.29), 8649 and 8701 (black mediums on
# felt, as smalls at 0.48 and 0.35), each σ 12-65 mm. The unscaled map, asked because black
# plastic sank (detect._black_left) or the region is dark, reads each at its size at cost
# 0.01-0.26: a good longer reading that fits better puts the short one in size doubt
# (detect._in_size_doubt), and it yields: each read at its size and place, σ usable.
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (8580, "large", (332.9, 238.6)),
    (8613, "large", (158.1, 346.7)),
    (8649, "medium", (390.4, 379.8)),
    (8701, "medium", (481.8, 458.5)),
])
def test_a_black_piece_the_unscaled_map_reads_longer_and_better_is_read_at_its_size(
        seed, size, stern):
    p = found(seed, size, "black", stern, seed0=8560)
    assert p is not None and (p.size.value, p.color) == (size, "black")
    assert math.dist(p.pose.stern_mm, stern) <= 1.0 and p.sigma_mm <= 1.5


# A standing piece whose faces are read as lying pieces (issue 4, session 33, false42;
# precision): the 8560-set's 8661, an upright purple large on wood (1280×720, 22-35°), was read
# by explain_region as two purple smalls over its faces, joint cost 0.42 each (σ 2.3 mm): a
# standing fit was asked of a lone region with one doubtful reading only. Its standing fit,
# 0.18, beats both (detect._standing_max_cost): read standing at its place, size and colour,
# and no lying piece there.
def test_a_standing_piece_read_as_two_doubtful_lying_ones_is_read_standing():
    assert_read_standing(8661, 8560)
    assert_no_false_piece(8661, 8560)


# A dark piece standing sinks in its region's scaled map, as a dark lying one does (issue 4,
# session 33, false42; precision): the 8560-set's 8625, an upright black large on felt
# (1280×720, 22-35°), fitted standing at 0.66 on the scaled map and was read as a lying black
# large at 0.48 (σ 2.4 mm); on the unscaled map it fits standing at 0.06, 0.1 mm from the
# truth. Read standing at its place, size and colour, and no lying piece there.
def test_a_dark_standing_piece_is_fitted_on_the_unscaled_map():
    assert_read_standing(8625, 8560)
    assert_no_false_piece(8625, 8560)


# A standing piece read lying off the radial direction (issue 4, session 34, false44;
# precision: a false piece the rules would trust): the 8848-set's 8871, an upright orange
# small on grey laminate (1280×720, 22-35°), was read by explain_region as a lying orange
# small heading 36° off away from the camera's foot, fit cost 0.35, σ 0.9 mm: the standing
# test asked radial readings only. Its joint cost lying is 0.75 (doubtful), standing 0.16,
# under detect.STAND_OFF_COST and half the lying one's: read standing at its place, size and
# colour, and no lying piece there.
def test_a_standing_piece_read_lying_off_the_radial_direction_is_read_standing():
    assert_read_standing(8871, 8848)
    assert_no_false_piece(8871, 8848)


# A standing piece read in its colour area where its region read nothing (issue 4, session
# 34, false44; precision): the 8848-set's 9027 and the 8560-set's 8799, upright yellow smalls
# on blue felt (1280×720, 22-35°), fitted standing at joint cost 0.55 in their regions (over
# GOOD_COST; 8799's region took a clear medium's in too) and were read by the empty regions'
# colour pass (colour_areas.own_colour_pieces) as lying yellow smalls heading 3° off away from
# the camera's foot, joint costs 1.06 and 1.14 (σ 3.0 mm). Asked as a lone lying reading is,
# of the region and of its colour areas (detect._standing_in_colour), each is read standing
# at its place, size and colour, and no lying piece lies there.
@pytest.mark.parametrize(("seed", "seed0"), [(9027, 8848), (8799, 8560)])
def test_a_standing_piece_read_in_its_colour_area_is_read_standing(seed, seed0):
    assert_read_standing(seed, seed0)
    assert_no_false_piece(seed, seed0)


# Standing pieces read lying just outside the standing test's bounds (issue 4, session 48,
# upright58; precision: three false pieces the rules would trust, four in doubt), all upright
# at 22-35° (1280×720): the 10864-set's 10995 (red small on felt, read lying 5.0° off the
# radial direction, joint cost 0.33, σ 0.46 mm, standing 0.22: detect.RADIAL_DEG 6), the
# 11728-set's 11883 (green small on wood, its near face a "base" below the face ahead, 0.028
# against 0.025: STAND_BELOW_SHARE 1), the 12880-set's 12933 (cyan small on wood, 130° off,
# doubtful joint 0.66 against 0.45: STAND_OFF_COST MAX_COST, STAND_OFF_SHARE 0.75) and, in
# doubt, the 8272-set's 8511 (0.76 against 0.56), the 11728-set's 11739 (1.0 against 0.46)
# and the 10000-set's 10233 (0.46 against 0.457, 5.6° off); the 9712-set's 9867 (0.72
# against 0.43), read standing in its colour area, was read lying again by the passes after
# (lone_colour_piece, σ 3.0 mm): a region read standing there is done. Each is read standing
# at its place, size and colour, and no lying piece lies there.
@pytest.mark.parametrize(("seed", "seed0"), [
    (10995, 10864), (11883, 11728), (12933, 12880),
    (8511, 8272), (11739, 11728), (10233, 10000), (9867, 9712),
])
def test_a_standing_piece_read_lying_near_the_standing_tests_bounds_is_read_standing(
        seed, seed0):
    assert_read_standing(seed, seed0)
    assert_no_false_piece(seed, seed0)


# ... while the true lying pieces nearest those bounds stay lying and trusted (issue 4,
# session 48, upright58): the 12880-set's 12927 (an orange small on laminate heading 5.3° off
# the radial direction, joint cost 0.26, standing 0.39: over STAND_TIE), the 13456-set's 13605
# (a cyan small on felt, radial, its open base below the face ahead, 0.14 against standing
# 0.23: over STAND_SURE_COST), and the two a wider radial bound took: the 13168-set's 13346 (a
# green small on laminate, 2.6° off, 0.01 against standing 0.088: a tie of 0.08) and the
# 10864-set's 10989 (a purple large on laminate, 1.3° off, 0.30 against 0.40: a share of
# 1.35), where the 11152-set's 11349, an upright purple medium read lying at 0.183 against
# standing 0.234 (σ 0.32 mm), needed 0.051 or 1.28: left.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (12927, 12880, "small", "orange", (496.9, 272.3)),
    (13605, 13456, "small", "cyan", (417.0, 290.1)),
    (13346, 13168, "small", "green", (214.6, 327.1)),
    (10989, 10864, "large", "purple", (380.0, 429.2)),
])
def test_a_lying_piece_near_the_standing_tests_bounds_stays_lying(seed, seed0, size, color,
                                                                  stern):
    assert_kept_trusted(seed, seed0, size, color, stern, within_mm=1.0, named=True)


# A standing black piece's crisp outline read as a black piece lit like the table (issue 4,
# session 34, false44; precision): the 8560-set's 8697, an upright black large on grey
# laminate (1280×720, 22-35°), was read by the soft pass's refit to the crisp edges
# (crisp.SOFT_WHITE_SHADE, named black) as a lying black large in doubt (σ 68 mm), false. The
# standing test of the soft clear readings (crisp._standing_seen) is asked of those refits
# too (crisp.SOFT_UPRIGHT_BLACK): dropped, while the white large the same pass reads in the
# scene is kept.
def test_a_standing_black_piece_is_no_soft_lying_piece():
    assert_no_false_piece(8697, 8560)
    assert found(8697, "large", "white", (477.9, 222.4), seed0=8560) is not None


# A die's top read whole by a longer reading in doubt (issue 4, session 34, false44;
# precision): the 8848-set's 9110, a black die showing three pips on blue felt (1920×1080,
# 22-35°), was read by the soft pass's refit to the crisp edges as a black medium (σ 68 mm),
# false: the die rule asked small readings only, and a share of the die's top past the
# outline, which a medium's holds whole (0.02). Asked of a longer reading in doubt without
# that share and with two pips' holes at least (detect.DIE_LONGER_PIPS; three, 54-80 levels
# lighter): dropped, and the black small beside the cyan medium is kept.
def test_a_dies_top_read_whole_by_a_longer_doubtful_reading_is_no_piece():
    assert_no_false_piece(9110, 8848)
    p = found(9110, "small", "black", (139.9, 178.1), seed0=8848)
    assert p is not None and p.sigma_mm <= 1.5


# A clear piece on a light table beside a coloured one, whose part of their joint crisp area
# met the rest of it along more than SPLIT_MAX_CONTACT (issue 4, session 34, recall44; clear
# pieces on light tables): the 8560-set's 8711 (a clear large on laminate beside a red large,
# 1280×720, 0-10°) and 8738 (a clear medium beside a purple medium, 1920×1080, 22-35°). The
# clear piece's own crisp rims, cut off with the neighbour's strong pixels, count as its
# area's rest: contact 0.34 and 0.35, over 0.3, so the part was not judged faint, the table
# estimate took the piece in (score ~0 over its footprint) and it was missed. Its strong
# neighbours are mostly vivid (0.61, 0.93): coloured plastic, no white piece's open base or
# black piece's grey face, whose shaded faces the contact limit keeps out, so the limit there
# is segment.SPLIT_MAX_CONTACT_VIVID (0.36). Both found, named clear; the medium read as a
# small in size doubt (σ 46 mm), which the rules answer "in doubt".
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (8711, "large", (178.5, 365.0)),
    (8738, "medium", (383.0, 209.8)),
])
def test_a_clear_piece_whose_rims_meet_a_vivid_neighbours_area_is_split_off_it(
        seed, size, stern):
    p = found(seed, size, "clear", stern, seed0=8560)
    assert p is not None and p.color == "clear"
    assert_no_sure_wrong_size(seed, 8560, size, "clear", stern)
    assert_no_false_piece(seed, 8560)


# A piece read one size short whose longer outline lies on the crisp edges (issue 4, session 34,
# size44; wrong sizes): the 8848-set's 9065, a yellow medium (1280×720, 0-10°), read as a small
# from its tip at cost 0.56, and 9042, a white large (1920×1080, 10-22°), read as a small at
# 0.32, each in size doubt (σ 53 / 20 mm). The outline the longer size from the reading's tip
# adds past its stern lies within a pixel of a crisp edge for 1.0 / 0.73 of its samples (the
# walls' steps); past the readings at their size, 0.48 or under (strips.EDGE_LONGER_SHARE).
# Each is read at its size and colour, set at that pose, σ covering the short reading (99 mm
# as the clear strip rule's set readings): never trusted.
@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (9065, "medium", "yellow", (184.4, 317.5)),
    (9042, "large", "white", (378.4, 414.4)),
])
def test_a_short_reading_whose_longer_outline_lies_on_the_edges_is_read_at_its_size(
        seed, size, color, stern):
    assert_no_sure_wrong_size(seed, 8848, size, color, stern, any_size=True)
    p = found(seed, size, color, stern, seed0=8848)
    assert p is not None and (p.size.value, p.color) == (size, color)
    assert p.sigma_mm > 1.5


# Right sizes read far off that the rules would trust (issue 4, session 34, faroff44; trusted
# far-off readings), the 9136-set's two at 139abc7. 9158's blue medium on blue cloth
# (1920×1080, 22-35°), its stern against a black small and a hand beside it, was read in its
# colour area (explain.pieces_in_colour) turned 117° at cost 0.28, 42.8 mm off at σ 3.0 mm
# (HAND_COLOUR_MM), while a small fits the front of that area at the true heading at 0.03,
# its outline in the area's colour: the better fit left part of the area out, so it was no
# candidate, but it says the area's outline may be another piece's; σ now covers it
# (explain.COLOUR_RIVAL_GAIN; 44 mm). 9035's right red medium (8848-set), whose rival is only
# 0.03 better, keeps σ 3.0 mm, and the clear large touching it stays found.
# 9403's yellow large (1280×720, 10-22°, lens distortion), read on the crisp map with the
# last 9 mm to its tip hidden and no piece against it, was pinned along its axis by its stern
# edge alone, 3.2 mm off at σ 1.0 mm; σ is now at least SNUG_END_MM (crisp.CRISP_TIP_UNSEEN).
def test_a_colour_area_reading_with_a_better_fit_on_it_has_a_sigma_covering_it():
    assert_no_sure_wrong_size(9158, 9136, "medium", "blue", (340.8, 287.7), any_size=True)


def test_a_crisp_reading_whose_tip_the_edges_do_not_close_is_not_trusted():
    assert_no_sure_wrong_size(9403, 9136, "large", "yellow", (430.1, 148.7), any_size=True)
    p = found(9403, "large", "yellow", (430.1, 148.7), seed0=9136)
    assert p.size.value == "large" and p.sigma_mm > 1.5


def test_a_colour_area_reading_with_a_rival_only_a_little_better_keeps_its_neighbour():
    assert found(9035, "large", "clear", (297.7, 317.9), seed0=8848) is not None
    p = found(9035, "medium", "red", (304.8, 302.0), seed0=8848)
    assert p is not None and p.sigma_mm <= 3.0


# A white piece with a face turned from the light named clear by its median (issue 4, session 34,
# colour44; colour): the 9136-set's 9169, a white medium on orange cloth (1280×720, 10-22°), its
# median 107 against the cloth's 195, at its hue and paler, passed colours.name_color's clear
# test (a dimmer table) though its lit faces reach 219, brighter than the cloth, and its darkest
# tenth 67 (0.31 of them); the 8272-set's 8305, a white small on laminate read as a medium in
# doubt, the same on a grey table (faces 172 and 57, median 144 over 170). Clear plastic passes
# about the same share of the light through every face (its darkest tenth 0.58-0.95 of its
# brightest, CLEAR_FACE_SPREAD 0.45), so bright faces beside one that dark are white plastic
# (colors.shaded_white, WHITE_TABLE_V). Each is named white; the 9136-set's 9317 (a white
# medium read as a small, σ 20 mm, its longer outline's footprint named clear) is now read at
# its size in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (9169, 9136, "medium", (202.3, 393.9)),
    (8305, 8272, "small", (472.7, 400.5)),
])
def test_a_white_piece_with_a_dark_face_is_no_clear_piece(seed, seed0, size, stern):
    assert_named(seed, seed0, size, "white", stern)


# A clear piece on wood read short from its tip, its strip past the reading as grey as the
# piece (issue 4, session 35, size45; wrong sizes, clear pieces on wood read short): the
# 8560-set's 8784, a clear large (1920×1080, 10-22°), and 8797, a clear large (1280×720,
# 10-22°), each read as a small from its tip, and 8751, a clear medium (1280×720, 22-35°), read
# as a small, each in size doubt (σ 54-61 mm). The grain drowns the piece's soft edges (no
# crisp edge past the reading) and the piece keeps the table's light (the strip's shade
# 0.9-1.0, so the clear strip rule's shade test did not pass), but it mutes the wood's colour:
# the strip the longer size adds past the reading keeps 0.64 / 0.88 / 0.89 of the table's
# saturation, nearer the reading's own (0.58 / 0.83 / 0.84) than the table's, where the strips
# of the readings at their size keep 0.95-1.05 (strips.CLEAR_GREY). Each is read at its size,
# set from the tip, σ covering the short reading: never trusted.
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (8784, "large", (225.4, 208.2)),
    (8797, "large", (297.2, 281.6)),
    (8751, "medium", (386.8, 423.4)),
])
def test_a_clear_piece_on_wood_read_short_is_read_at_its_size_by_its_grey(seed, size, stern):
    assert_clear_found_in_doubt(seed, 8560, size, stern)
    p = found(seed, size, "clear", stern, seed0=8560)
    assert p.size.value == size


# A black piece on a grey table, its faces lit grey (issue 4, session 35, white45; black lit
# grey): the 9136-set's 9375 (a black large on grey laminate, 1280×720, 22-35°), the 8272-set's
# 8388 (small), 8484 (large) and 8541 (small, 1280×720) and the 8560-set's 8590 (large). Their
# faces are ×0.6-0.75 the table's light with no hue, which the score forgives as shadow, so
# only their shaded face was foreground (0.07-0.34 of the footprint) and no region pass read
# them; their crisp area takes their cast shadow in and the soft pick, named clear (a dimmer
# grey table), was neither darkened as a clear piece (the dark shadow beside it) nor named
# black, so the soft reading kept nothing. Refitted to the crisp edges each lands on the piece
# (0.93-1.0 of its outline on them), and an opaque piece's full shadow lies beside it: now
# read in doubt, named as opaque plastic, black (crisp.SOFT_GREY_BLACK). The standing pieces
# of 9375 and 8541 are still read standing.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern", "alone"), [
    (9375, 9136, "large", (420.6, 196.0), True),
    (8388, 8272, "small", (277.7, 495.2), True),
    (8484, 8272, "large", (94.4, 412.7), True),
    (8541, 8272, "small", (292.0, 447.5), True),
    (8590, 8560, "large", (401.4, 404.6), False),  # its white large is still missed
])
def test_a_black_piece_lit_grey_on_a_grey_table_is_read_black(seed, seed0, size, stern, alone):
    p = found(seed, size, "black", stern, seed0=seed0)
    assert p is not None and p.color == "black"
    assert_no_sure_wrong_size(seed, seed0, size, "black", stern, any_size=True)
    if alone:
        assert_no_false_piece(seed, seed0)
    if seed in (9375, 8541):
        assert_read_standing(seed, seed0)


# ... and only alone (crisp.GREY_ALONE_MM): a white piece's open base or shaded side face, seen
# grey beside it with its shadow, passes the other tests. The 9136-set's 9317 (a white medium on
# laminate, 1280×720, 0-10°): its base was read as a false black small and the white then one
# size short; the 8848-set's 9078 (a white large read later from its open base): its side face
# and shadow were read as a false black small. Neither is read now. And the same path finds a
# white piece whose faces are shaded, named as opaque plastic: 9219's white medium on grey
# laminate (the 9136-set, 1280×720, 22-35°), missed before, is read white, in doubt.
def test_a_grey_area_beside_a_white_piece_is_no_black_one():
    assert_no_false_piece(9317, 9136)
    p = found(9317, "medium", "white", (269.1, 145.5), seed0=9136)
    assert p is not None and p.size.value == "medium" and p.color == "white"
    assert_no_false_piece(9078, 8848)
    p = found(9219, "medium", "white", (201.0, 458.3), seed0=9136)
    assert p is not None and p.color == "white" and p.sigma_mm > 1.5
    assert_no_false_piece(9219, 9136)


# A white piece lit dimly on a coloured table named black (issue 4, session 35, colour45;
# colour): the 8272-set's 8475 (1280×720, 22-35°) and the 8848-set's 8944 (1920×1080, 0-10°),
# white mediums on wood, and the 8560-set's 8770 (1920×1080, 0-10°), a white large on green
# felt, show lit faces at 151 (90th percentile of the value), one under colors.WHITE_MIN_V, so
# name_color's grey branch named them black. On a coloured table a grey piece is black or white
# only (clear plastic keeps the table's tint and is named before) and black plastic's lit faces
# stay at 141 or under, so there COLOURED_WHITE_MIN_V (146) tells white (colors.dim_white).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8475, 8272, "medium", (433.2, 458.4)),
    (8944, 8848, "medium", (434.8, 415.1)),
    (8770, 8560, "large", (405.4, 399.9)),
])
def test_a_dim_white_piece_on_a_coloured_table_is_no_black_piece(seed, seed0, size, stern):
    assert_named(seed, seed0, size, "white", stern)


# A glossy black piece on laminate named clear (issue 4, session 35, colour45; colour): the
# 8272-set's 8363 small (1280×720, 0-10°), the 8848-set's 9118 medium (1920×1080, 0-10°) and
# the 9136-set's 9363 small (1280×720, 22-35°), their faces at a grazing angle, kept 0.455-0.465
# of the laminate's value, over name_color's 0.45 floor for a dimmer table. Clear plastic passes
# about 0.75 of the table's light through its two walls and adds its faces' own reflection (the
# 9136-set's clear pieces at their true footprints: 0.56 and over), so a piece named clear on a
# grey table under colors.CLEAR_MIN_V_SHARE (0.5) of its value is black
# (colors.too_dark_for_clear).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8363, 8272, "small", (466.8, 445.6)),
    (9118, 8848, "medium", (511.9, 285.4)),
    (9363, 9136, "small", (350.8, 242.7)),
])
def test_a_glossy_black_piece_on_laminate_is_no_clear_piece(seed, seed0, size, stern):
    assert_named(seed, seed0, size, "black", stern)


# A purple piece dulled by the cloth's light named unknown (issue 4, session 35, colour45;
# colour): the 9136-set's purple larges 9284 on wood, 9386 and 9398 on green felt (1920×1080,
# 22-35°) have median saturation 77-88, under name_color's 90 for plastic: their walls let the
# table's light of another hue in (hue 50-83 off the table's). A colour at least
# colors.DULL_PLASTIC_SAT (70) saturated and DULL_PLASTIC_HUE (30) off the table's hue is no
# dimmed table and no shadow of it: plastic, named by its lit faces' hue (colors.dull_plastic).
@pytest.mark.parametrize(("seed", "stern"), [
    (9284, (320.3, 415.4)),
    (9386, (397.0, 337.7)),
    (9398, (351.9, 211.4)),
])
def test_a_dull_purple_piece_is_named_purple(seed, stern):
    assert_named(seed, 9136, "large", "purple", stern)


# A clear piece whose crisp area holds lit strong pixels (issue 4, session 35, clear45; clear
# pieces on light tables, lost to the table estimate). Clear plastic focuses the light: the
# 8272-set's 8484 (a clear medium on laminate, 1920×1080, 10-22°) throws a lit patch on the
# table beside it (a caustic, 0.21 of its crisp area), 8358's clear large (1920×1080, 10-22°)
# has bright rims (0.043, with 0.012 dark strong pixels). Those pixels score strongly, so the
# area failed segment.FAINT_MAX_STRONG (0.05) and was not judged faint; the table estimate
# took the piece in (score ~0.2 over its footprint) and it was missed (8358's large left a
# false white small at its tip). Strong pixels lit above the table are now left out of that
# count (up to FAINT_MAX_LIT 0.25) when the rest of the strong pixels are at most
# FAINT_LIT_MAX_DARK (0.015; a white piece shows its dark open base: 0.020-0.044) and the area
# is weak over FAINT_LIT_SHARE (0.72; the clear pieces 0.76-0.94, a white piece's areas with
# lit faces 0.61-0.69): the 8848-set's 8878 white medium on laminate (weak 0.61, dark 0.020)
# was lost when the lit pixels alone were left out, so it is kept here. The 8560-set's 8817
# (a clear small on laminate, 1280×720, 22-35°) is found the same way, in size doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8484, 8272, "medium", (268.1, 364.1)),
    (8358, 8272, "large", (219.0, 258.7)),
    (8817, 8560, "small", (397.3, 517.0)),
])
def test_a_clear_piece_whose_caustic_or_rims_are_lit_is_faint(seed, seed0, size, stern):
    assert_named(seed, seed0, size, "clear", stern)


def test_a_white_piece_whose_lit_faces_score_strongly_is_no_clear_piece():
    p = found(8878, "medium", "white", (333.8, 498.4), seed0=8848)
    assert p is not None and p.color == "white"
    assert p.sigma_mm <= 1.5
    assert_no_false_piece(8878, 8848)


# A longer reading whose strip past the next shorter size is bare table (issue 4, session 36,
# trust46; wrong sizes the rules would trust). The 9424-set's 9603 (1280×720, 22-35°, navy
# cloth): a white medium was read as a large from its tip, its stern set 7.6 mm back over bare
# cloth, σ 1.5 mm: trusted. On dark cloth the cloth past the face passed for the shaded open
# base (open_base.no_base_step). The strip the large adds past a medium from the same tip has
# the cloth's colour and light (median score 0.64, shade 1.00), where a piece that long shows
# its face or its shaded base (right larges and mediums named other than clear: 1.26 and
# up); it is now read as a medium from that tip, named white, its σ covering the large
# (strips.BARE_STRIP_SCORE): the right size, never trusted.
def test_a_longer_reading_whose_strip_past_a_shorter_size_is_bare_table_is_read_shorter():
    assert_no_sure_wrong_size(9603, 9424, "medium", "white", (486.2, 483.2), any_size=True)
    p = found(9603, "medium", "white", (486.2, 483.2), seed0=9424)
    assert (p.size.value, p.color) == ("medium", "white")
    assert p.sigma_mm > 1.5
    assert_no_false_piece(9603, 9424)


# A vivid piece of its cloth's hue, hiding a side against a neighbour (issue 4, session 36,
# trust46; right sizes read far off that the rules would trust). The 9424-set's 9542
# (1920×1080, 22-35°, green cloth): a green small against a purple large's base, 40 % of its
# outline hidden, was read turned 8° about its tip, 3.7 mm off at σ 1.2 mm. Its shaded side
# face is the cloth's green darkened, a shadow to the fit map, which took the ridge for the
# edge; the other side hidden, nothing held the turn, and a fit from the true pose fits worse
# (0.55 against 0.25). Its σ is now at least that side face's width as seen at the stern
# (3.7 mm, detect._hued_side_mm); vivid pieces well more saturated than their cloth (9458's
# blue small, 9548's yellow medium, 40 % and more over it) keep theirs, and so does a fit as
# clean as the 8272-set's 8552 cyan small on blue cloth (cost 0.02, HUED_MIN_COST).
def test_a_piece_of_its_cloths_hue_hiding_a_side_has_sigma_covering_its_side_face():
    assert_no_sure_wrong_size(9542, 9424, "small", "green", (414.8, 277.5), any_size=True)
    p = found(9542, "small", "green", (414.8, 277.5), seed0=9424)
    assert p.size.value == "small" and p.sigma_mm > 1.5
    assert found(9458, "small", "blue", (142.1, 419.4), seed0=9424).sigma_mm <= 1.5
    assert found(8552, "small", "cyan", (442.6, 459.5), seed0=8272).sigma_mm <= 1.5


# A clear piece on wood whose grey area is only part of it (issue 4, session 36, wood46; clear
# pieces on wood, no crisp edge). On wood a clear piece has no crisp edge (the grain drowns it)
# and the desaturated pass reads it by its grey area (saturation under 0.9 of the wood's), but
# its faces lit or near its tip keep 0.88-0.95 of it: the grey area took only part of the
# piece (or ran into a clear neighbour's) and every fit cost 0.69-1.2, so the 9424-set's 9585
# (a clear small, 1280×720, 22-35°), 9449 (a clear large touching a clear small, 0-10°), 9588
# and 9596 (a clear large and medium, 1920×1080) and the 8272-set's 8465 and 8550 (clear
# larges) were missed, though plainly seen in the render (×0.75-0.87 the wood's light,
# saturation ×0.80-0.85). Bare wood is almost never both muted and darkened (0.1-0.2 % of it
# under ratio 0.93 and shade 0.95; the pieces 0.57-1.0 of their footprints), so on a wood
# table the desaturated pass is run once more on that area joined to the grey one, where
# nothing is read (detect.WOOD_MUTE_*): 9449's large is read at its place, the others in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (9585, 9424, "small", (306.4, 457.2)),
    (9449, 9424, "large", (536.4, 144.6)),
    (9588, 9424, "large", (335.6, 85.3)),
    (9596, 9424, "medium", (333.4, 453.8)),
    (8465, 8272, "large", (443.0, 334.5)),
    (8550, 8272, "large", (354.0, 482.1)),
])
def test_a_clear_piece_on_wood_muted_and_darkened_is_found(seed, seed0, size, stern):
    assert_no_sure_wrong_size(seed, seed0, size, "clear", stern, any_size=True)
    assert found(seed, size, "clear", stern, seed0=seed0).color == "clear"
    assert_no_false_piece(seed, seed0)


# ... and its base past a reading of it cut short is no piece of its own (issue 4, session 36,
# wood46; clear pieces on wood read short). The 8560-set's 8653 (a clear large on wood,
# 1280×720, 10-22°) is read as a medium in size doubt (σ 10.7 mm) whose strip to the large is
# dark (0.76), so strips.CLEAR_STRIP_DARK reads it at its size; the muted-and-darkened pass read
# that strip, its base, as a small of its own (cost 0.33), which took the strip and left the
# piece read as a medium. A reading of that pass lying over WOOD_STRIP_SHARE of its footprint
# in the strip a clear reading's σ covers past its stern is dropped.
def test_a_clear_pieces_base_on_wood_past_its_short_reading_is_no_piece():
    p = found(8653, "large", "clear", (223.3, 176.4), seed0=8560)
    assert p is not None and p.size.value == "large" and p.color == "clear"
    assert_no_false_piece(8653, 8560)


# ... nor is a vivid translucent piece's tinted shadow on wood (issue 4, session 36, wood46;
# false pieces on wood). The 5104-set's 5380 (1920×1080, 0-10°): a cyan medium's shadow on
# light wood is muted (×0.74) and darkened (×0.78) as a clear piece is, and the pass read it as
# a clear small (cost 0.44). Clear plastic keeps the wood's hue (the inside's Lab chroma turns
# -5.4 to +6.9° from the table's for the 21 clear pieces the pass finds), the cyan shadow turns
# it 29°: a reading of the pass turned more than detect.WOOD_HUE_TURN_DEG (15°) is dropped.
# (The scene's other false clear small, at (107, 134), is an older pass's, not this one's.)
def test_a_tinted_shadow_on_wood_is_no_clear_piece():
    _r, det = bench_scene(5380, 5104)
    assert not any(math.dist(p.pose.stern_mm, (281.6, 169.9)) < 10 for p in det.pieces)
    p = found(5380, "medium", "cyan", (261.7, 168.2), seed0=5104)
    assert p is not None and p.color == "cyan" and p.sigma_mm <= 1.5


# A piece touching one found, read in its colour area with a rival reading (issue 4, session 36,
# touch46; pieces that touch each other, a good fit made and not kept). The region's passes
# took the neighbour as explaining the region; colour_areas.colours_left fitted the colour area the
# readings leave, and the true pose fitted it at cost 0.10-0.27, covering it, but another
# size's reading fitted nearly as well, and pieces_in_colour kept clean readings only (a rival
# may be a die or chit of the piece's colour): the piece was missed. Beside a piece found it
# is now kept in doubt, σ covering the rival (explain.pieces_in_colour's ``unclean``), unless
# its colour area is round (ROUND_FILL: a die, a coin). The 8560-set's 8618 (a yellow medium
# against a white large, 1920×1080, 22-35°, σ 11.2 mm) and 8789 (a yellow medium against a
# blue large, 1280×720, 0-10°, σ 8.9 mm), the 8848-set's 8933 (a yellow large against a black
# small, σ 40 mm) and the 9136-set's 9365 (a yellow large against a white large, σ 19 mm):
# each read 0.1-0.5 mm from its stern, none trusted; no false piece.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8618, 8560, "medium", (132.3, 311.6)),
    (8789, 8560, "medium", (452.0, 375.6)),
    (8933, 8848, "large", (151.9, 214.4)),
    (9365, 9136, "large", (398.2, 263.6)),
])
def test_a_piece_against_one_found_read_in_its_colour_with_a_rival_is_kept_in_doubt(
        seed, seed0, size, stern):
    p = found(seed, size, "yellow", stern, seed0=seed0)
    assert p is not None and p.color == "yellow"
    assert_no_sure_wrong_size(seed, seed0, size, "yellow", stern, any_size=True)
    assert_no_false_piece(seed, seed0)


# Touching pieces of two colours beside a hand (issue 4, session 36, broken46; pieces in or
# beside a hand's region). A hand's region (its shadow joins the table round it to the
# foreground) swallows the pieces beside it; explain.pieces_in_colour reads each one in its
# own colour area. Two touching pieces of different colours are one vivid area, which no one
# reading covers (COLOUR_MAX_LEFT 0.2), so neither was read. The hands' pass now also reads,
# in the colour areas parted where the hue steps (colour_areas.split_by_hue), two good fits that
# together cover an area (explain._pair_covering): the 9424-set's 9536, an orange and a
# yellow medium beside a hand on wood (1920×1080, 22-35°), whose hues run into each other over
# a few pixels (no step over HUE_STEP), their true fits 0.04 and 0.08, and the 8560-set's 8762
# (a yellow large beside a hand on felt). Each is read as a piece in a hand's region is, never
# trusted (σ at least HAND_COLOUR_MM, 3 mm). Two fits are read only when their hues differ
# (explain.PAIR_MIN_HUE): the 9424-set's 9531, an upright green large beside a hand (1280×720,
# 22-35°), its colour area covered by two green smalls (hue 64 both), read a false green small
# without it. One fit alone in a hue-parted area is not read there: broken46 read them too
# (9136-set 9173's green medium and 9218's purple large, 8848-set 8960's yellow small found),
# but on session 36's judge set that read 9849's upright yellow large, its base under a thumb
# (green cloth, 1280×720, 22-35°), as a lying large (σ 10 mm), a false piece.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (9536, 9424, "medium", "orange", (426.7, 135.7)),
    (9536, 9424, "medium", "yellow", (456.7, 142.5)),
    (8762, 8560, "large", "yellow", (193.2, 210.0)),
])
def test_touching_pieces_of_two_colours_beside_a_hand_are_each_read(seed, seed0, size, color,
                                                                    stern):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.color == color and p.size.value == size
    assert p.sigma_mm >= 1.5  # beside a hand: never trusted
    if seed == 9536:
        assert_no_false_piece(seed, seed0)


@pytest.mark.parametrize(("seed", "seed0"), [(9531, 9424), (9849, 9712)])
def test_an_upright_piece_beside_a_hand_is_no_lying_piece(seed, seed0):
    assert_no_false_piece(seed, seed0)


# A round crisp area bigger than one piece (issue 4, session 36, broken46; clear pieces on
# laminate whose outline joins their neighbours'). The crisp pass leaves an area whose convex
# hull is round (crisp.ROUND_MIN) unfitted: a chit, a coin or a die. The 8560-set's 8603 (1280×720,
# 0-10°) has a clear small, a clear large and a white small lying side by side on laminate, one
# crisp area of 1808 mm² whose hull is round: nothing was read in it. An area bigger than one
# lying piece can cover (Scene.max_area_mm2, 1035 mm²; a coin is at most 531) is now fitted:
# the white small is read and the clear large in doubt of its size (never a sure wrong size).
def test_a_round_crisp_area_bigger_than_a_piece_is_fitted():
    assert found(8603, "small", "white", (260.1, 403.2), seed0=8560) is not None
    assert_no_sure_wrong_size(8603, 8560, "large", "clear", (242.1, 386.4))
    assert_no_false_piece(8603, 8560)


# A neighbour's cast shadow read as a clear piece (issue 4, session 37, false47; false small
# clears on shadows). A black or white piece's shadow past its side is the table with light
# taken away, with a crisp side (the piece's own edge): the crisp pass read it as a clear small,
# the 9712-set's 9791 (a black large's shadow on laminate, 1280×720, 0-10°) at σ 1.5 mm, cost
# 0.03, and the white larges' shadows of the 8272-set's 8513, the 8560-set's 8806 and the
# 9424-set's 9587 in doubt. The light's direction is estimated from the scene (the shift per mm
# of height for which the good readings' bodies would cast the most shadow past what the view
# shows of them: (-0.39, -0.46) on these, the renderer's is (-0.35, -0.45)); a clear reading
# touching a neighbour of another colour with 60 % of its footprint in that neighbour's cast
# sliver is dropped (shadows.cast_shadows, CAST_SHARE), unless it is darker than the rest of
# the shadow as a clear piece lying in it would be (CAST_CLEAR_DIM). The neighbours stay read,
# and a real clear piece against a black one's shadow side (9935's small, 11 % in the sliver)
# is kept.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (9791, 9712, "large", "black", (390.2, 203.8)),
    (8513, 8272, "large", "white", (352.1, 396.2)),
    (8806, 8560, "large", "white", (475.8, 132.1)),
    (9587, 9424, "large", "white", (196.9, 137.4)),
])
def test_a_neighbours_cast_shadow_is_no_clear_piece(seed, seed0, size, color, stern):
    assert_no_false_piece(seed, seed0)
    assert found(seed, size, color, stern, seed0=seed0) is not None


def test_a_clear_piece_against_a_black_ones_shadow_side_is_kept():
    p = found(9935, "small", "clear", (411.7, 400.0), seed0=9712)
    assert p is not None and p.color == "clear" and p.sigma_mm <= 1.5


# A clear piece on felt whose shaded face sank below its region's scaled map (issue 4, session
# 37, clear47; clear pieces on felt and cloth that are foreground but not read). The fit map is
# scaled to the region's 80th-percentile score, which a vivid neighbour in the region sets
# (9482's green small, 9512's yellow small) or the clear piece's own lit face does when it lies
# alone (9660): its shaded face (score 2.5-5) falls below the map's edge level, so no fit
# started on it or every fit cost 0.58-0.72, and the piece was missed though plainly seen. On
# the unscaled map each fits its true pose at 0.01-0.14. A region not dark, once every pass has
# read what it reads, whose pixels scoring as object on the unscaled map (≥ 2.5) leave room for
# a piece beside the readings is read again there (detect._clear_sunk): a clean fit
# (CLEAR_SUNK_COST 0.15) overlapping nothing read and named clear is kept. The 9424-set's 9482
# (a clear small against a green small, 1920×1080, 22-35°), 9512 (a clear medium against a
# yellow small) and 9660 (a clear medium alone, 10-22°), the 9136-set's 9331 (1280×720) and the
# 8560-set's 8781 and 8792 are read 0.3-0.9 mm from their sterns; no false piece.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (9482, 9424, "small", (352.5, 427.2)),
    (9512, 9424, "medium", (143.5, 432.6)),
    (9660, 9424, "medium", (238.2, 338.7)),
    (9331, 9136, "medium", (225.7, 502.0)),
    (8781, 8560, "medium", (387.9, 325.4)),
    (8792, 8560, "small", (478.0, 300.1)),
])
def test_a_clear_piece_on_felt_whose_shaded_face_sank_below_the_map_is_found(seed, seed0, size,
                                                                             stern):
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.color == "clear"
    assert math.dist(p.pose.stern_mm, stern) < 1.5
    assert_no_sure_wrong_size(seed, seed0, size, "clear", stern, any_size=True)
    assert_no_false_piece(seed, seed0)


# A faint clear piece read short at its stern whose strip is darker than the table beside it
# (issue 4, session 37, size47; clear pieces read one size short). The 9712-set's 9772: a clear
# large on wood (1920×1080, 0-10°) read as a medium from its tip at σ 9.9 mm. The strip the
# large adds past the medium's stern is the table seen through the open base, shade 0.85 over
# the table estimate: not dark enough for CLEAR_STRIP_DARK (0.8), but the table beside it (the
# band CLEAR_BESIDE_MM out from the large's outline) is lit at 1.11, and against that the strip
# is 0.77 (right clear readings' strips keep 0.89 of it or more). The 9424-set's 9541 (a clear
# large read as a medium, 0.83 of the table beside it) is read at its size so too, and 9588's
# clear large on wood (1920×1080, 10-22°), read as a small at σ 19.8 mm (0.81), whose large's
# footprint takes in the wood seen through its open base and is named yellow: named clear, as
# the reading was. Each is read as a large set from the reading's tip, never trusted (σ covers
# the shorter reading).
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (9772, 9712, (327.1, 479.4)),
    (9541, 9424, (140.5, 185.7)),
    (9588, 9424, (335.6, 85.3)),
])
def test_a_clear_pieces_strip_darker_than_the_table_beside_it_is_read_longer(seed, seed0,
                                                                             stern):
    p = found(seed, "large", "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == "large" and p.color == "clear"
    assert p.sigma_mm > 1.5  # the size is the view's shade, not a fit's
    assert_no_false_piece(seed, seed0)


# A reading in size doubt whose strip to a longer size looks like the reading itself (issue 4,
# session 37, size47; white pieces read one size short). The 9712-set's 9739: a white large on
# navy cloth (1280×720, 10-22°) read as a medium from its tip at σ 9.9 mm; the strip the large
# adds past the medium's stern is all foreground (fit map median 1.0), scores 72.8 to the
# reading's 66.9 and is as lit (shade 3.72 to 3.49): the piece's own face. 9834's white large
# (1920×1080), read as a small at σ 45 mm, whose medium's and large's strips are so too (score
# 8.6-9.0 to 7.2, shade 1.25 to 1.21). Right readings' strips are the table (fit map 0) or a
# shadow, a glint or a shaded base (shade or score off the reading's: FULL_STRIP_SHADE,
# FULL_STRIP_SCORE). Each is read as a large set from the reading's tip, never trusted.
@pytest.mark.parametrize(("seed", "stern"), [(9739, (371.4, 248.2)), (9834, (221.7, 381.9))])
def test_a_strip_to_a_longer_size_that_looks_like_the_reading_is_read_longer(seed, stern):
    p = found(seed, "large", "white", stern, seed0=9712)
    assert p is not None and p.size.value == "large" and p.color == "white"
    assert p.sigma_mm > 1.5
    assert_no_false_piece(seed, 9712)


# A white piece in a hand's region (issue 4, session 37, white47; whites near hands). An arm's
# shadow runs off the view and joins the pieces in or against it to the hand's region, where
# only a piece at one of the region's sharp corners or in a vivid colour was read: a white
# piece, grey, was missed there whole (7 of the 35 tuning scenes with a white missed at
# 1530e05). Its lit faces are grey (HSV saturation under PALE_SAT) and brighter than the
# table's estimate, which the shadow dims (shade at least PALE_SHADE, 1.6-3.8 at the
# median): hands.hand_pale_pieces reads that pale area as pieces_in_colour reads a vivid
# one (a clean fit covering it, σ at least HAND_COLOUR_MM) and keeps the readings named white
# fitted at most PALE_COST. The 8848-set's 9045 (a white small on blue cloth at a hand's
# shadow's edge, 1280×720, 22-35°) and 8850 (a white large half in a shadow on laminate,
# 1920×1080, 10-22°), the 9424-set's 9491 (a white large on felt, 1280×720, 0-10°) and the
# 9136-set's 9173 (a white large between finger shadows on laminate, 1280×720, 0-10°): each
# found, never trusted. In 9173 the lit tip of the clear large beside it fitted a small at
# 0.28 and was named white: PALE_COST keeps it out.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (9045, 8848, "small", (319.5, 186.2)),
    (8850, 8848, "large", (397.7, 173.3)),
    (9491, 9424, "large", (256.5, 115.3)),
    (9173, 9136, "large", (315.0, 292.7)),
])
def test_a_white_piece_in_a_hands_region_is_read_in_its_pale_area(seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.color == "white"
    assert p.sigma_mm >= 1.5  # in a hand's region: never trusted
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)
    r, det = bench_scene(seed, seed0)
    assert not any("false" in m and "white" in m for m in match(r.truth, det).misses)



# A black piece in a hand's region on a coloured table (issue 4, recall; session 62, black72).
# A hand's region (its shadow, its fingers) takes in a black piece beside or under it, where
# only vivid colours, white pieces and clean pieces at the region's corners were read: no
# pass asked black, and the piece was missed whole (10 of the 31 black misses of the base72
# files). Black plastic is colourless, lit or not (the spread of its BGR channels 4-9 at the
# 80th percentile; the cloth, felt, their shadows and skin 29-41 at the 20th):
# hands.hand_dark_pieces reads the area under BLACK_HAND_CHROMA as hand_pale_pieces reads a
# pale one, keeping readings named black, fitted at most PALE_COST, at most PALE_SKIN of
# their border skin. The 14320-set's 14492 (a black large on cloth beside a red one under a
# finger, 1920x1080, 22-35°), the 17200-set's 17212 (a black medium in a hand's shadow on
# felt, 1920x1080, 0-10°), the 16624-set's 16696 (a black small on felt, 1920x1080, 0-10°)
# and the 5968-set's 6015 (a black large on felt, 1280x720, 22-35°): found at their size,
# named black, never trusted (σ 3.0-29.9 mm).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (14492, 14320, "large", (472.0, 293.7)),
    (17212, 17200, "medium", (450.1, 402.9)),
    (16696, 16624, "small", (398.6, 108.7)),
    (6015, 5968, "large", (448.2, 326.4)),
])
def test_a_black_piece_in_a_hands_region_is_read_in_its_colourless_area(seed, seed0, size, stern):
    _found_in_colour_never_trusted(seed, seed0, size, "black", stern)
    assert_no_false_piece(seed, seed0)


# ... and the lit table between a hand's finger shadows is no white piece (issue 4, session 37,
# white47; pale table patches). The table's estimate, dimmed by the shadows, makes the lit
# laminate between them pale and bright: the 9424-set's 9456 (against a finger: PALE_SKIN of
# its border skin, 0.14) and the 9712-set's 9924 (between a finger's and the thumb's shadows:
# median shade 1.63, under PALE_GREY_SHADE) were read as white smalls at cost 0.12-0.15.
@pytest.mark.parametrize(("seed", "seed0"), [(9456, 9424), (9924, 9712)])
def test_the_lit_table_between_finger_shadows_is_no_white_piece(seed, seed0):
    assert_no_false_piece(seed, seed0)


# A white piece touching a piece found on a coloured table (issue 4, session 37, white47;
# whites against neighbours). The region's passes took the neighbour as explaining the region
# and colour_areas.colours_left reads only vivid areas the readings leave: the white piece beside
# it was missed. Its lit faces are grey on the saturated table and lit over its estimate
# (PALE_SAT, PALE_SHADE): colour_areas.whites_left reads the pale area the readings leave as
# colours_left reads a colour area, and keeps the readings named white, fitted at most
# PALE_COST, that are no found reading's rest (_rest_of_shorter). The 8560-set's 8705 (a white
# small against a yellow medium on cloth, 1280×720, 0-10°, cost 0.19), the 9712-set's 9740 (a
# white large against a yellow small on wood, 1920×1080, 22-35°: read as a medium, σ 9.9 mm)
# and the 9424-set's 9551 (a white large against a red large on wood, 1280×720, 0-10°: read
# as a medium, σ 12.3 mm): found, never trusted, no false piece.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8705, 8560, "small", (418.9, 452.9)),
    (9740, 9712, "large", (140.8, 271.2)),
    (9551, 9424, "large", (369.6, 292.5)),
])
def test_a_white_piece_against_one_found_is_read_in_the_pale_area_left(seed, seed0, size,
                                                                        stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.color == "white"
    assert p.sigma_mm >= 1.5
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)
    assert_no_false_piece(seed, seed0)


# ... when its open base faces the camera (issue 4, session 61, recallwhite71; whites_left with
# explain.pieces_in_colour's base_open). Its hollow is dark: no edge at its stern, so its true
# fit costs over GOOD_COST, and no pale plastic there, so under COLOUR_MIN_SHARE of its outline
# lies in the pale area. Taken at its open base's cost (open_base.open_base_cost: 0.02 and 0.07
# against 0.43 and 0.43) where the view shows the open base (base_band), its base face as seen
# counted in the area (share 0.52 → 0.90, 0.44 → 0.77): the 15472-set's 15533 (a white small
# against a black large's tip) and the 14032-set's 14303 (against a cyan large's tip), both on
# wood at 1280×720, 0-10°: found, never trusted, no false piece.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (15533, 15472, (165.4, 309.2)),
    (14303, 14032, (435.3, 322.8)),
])
def test_a_white_piece_against_one_found_showing_its_open_base_is_read(seed, seed0, stern):
    p = found(seed, "small", "white", stern, seed0=seed0)
    assert p is not None and p.color == "white" and p.size == Size.SMALL
    assert p.sigma_mm > 1.5
    assert math.dist(p.pose.stern_mm, stern) < 3.0
    assert_no_false_piece(seed, seed0)


# Where the session's branches met (issue 4, session 37, the merge; each branch alone was right
# on these). (a) false47's cast-shadow rule dropped clear47's new reading of the 8272-set's 8384,
# a clear small on cloth against a cyan large (1920×1080, 22-35°): the light's offset put 60 %
# of it in the large's sliver, but a shadow darkens the table and this reading's inside is 1.04
# of the table's shade (the rest of the sliver 0.96): no shadow there. A reading is a shadow only
# when its inside's median shade is under CAST_DARK (the shadows dropped: 0.58-0.80).
# (b) size47's strip-beside rule made two right smalls longer: the 8272-set's 8445 (a white small
# read as clear, its medium's strip 0.852 of the table beside it: CLEAR_STRIP_BESIDE 0.86 → 0.84)
# and the 8848-set's 9085 (a clear small, its large's strip 0.79, the part past the medium
# 0.40: a shadow, not the table through two clear walls; CLEAR_STRIP_FLOOR 0.6).
def test_a_clear_piece_that_does_not_darken_the_table_is_no_cast_shadow():
    p = found(8384, "small", "clear", (140.0, 191.9), seed0=8272)
    assert p is not None and p.color == "clear" and p.sigma_mm <= 1.5


@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (8445, 8272, "white", (213.3, 399.3)),
    (9085, 8848, "clear", (266.4, 161.7)),
])
def test_a_small_whose_strip_is_no_table_through_clear_walls_stays_small(seed, seed0, color,
                                                                         stern):
    p = found(seed, "small", color, stern, seed0=seed0)
    assert p is not None and p.size == "small"


# Two touching pieces, a black one against a vivid one's stern, read as one longer vivid piece
# (issue 4, session 38, trust48; wrong sizes the rules would trust). The 10000-set's 10220
# (1920×1080, 22-35°, wood): a black small lies against a red medium's stern; their region's
# axis fit, a red large from the medium's tip, cost 0.49 (just under SIZE_DOUBT_COST), σ 3.0 mm,
# and the bench paired it with the black small: read as a red large the rules would trust, the
# red medium missed. The strip the large adds past a medium from the same tip is named black,
# where a vivid piece read at its size shows its own faces there (named its colour or a
# neighbouring hue on the 10000- and 9712-sets' 1830 strips asked); the reading is now a red
# medium from that tip, σ covering the large (strips.OTHER_STRIP_NAMES): the medium found, the
# black small missed (no fit gives its pose), nothing trusted wrongly.
def test_a_vivid_reading_whose_strip_past_a_shorter_size_is_black_is_read_shorter():
    assert_no_sure_wrong_size(10220, 10000, "medium", "red", (359.9, 212.5), any_size=True)
    p = found(10220, "medium", "red", (359.9, 212.5), seed0=10000)
    assert (p.size.value, p.color) == ("medium", "red") and p.sigma_mm > 1.5
    black = found(10220, "small", "black", (370.5, 217.7), seed0=10000)
    assert black is None or black.sigma_mm > 1.5
    assert_no_false_piece(10220, 10000)


# A crisp-pass reading's heading (issue 4, session 38, trust48; right sizes read far off that
# the rules would trust). The 9712-set's 9959 (1280×720, 0-10°): a clear large, found on the
# crisp map alone (fit 0.13 there, 0.29 on the main map, 12 % of its outline hidden), was read
# 3.2° turned, its stern 3.3 mm off, at σ 1.0 mm (crisp.CRISP_EDGE_MM) and 0.40° (the fit's
# own 0.30°): the rules trusted it. A fit from the true pose settles on the reading on the
# crisp map, and 2.5 mm off at cost 0.56 on the main map: nothing fits it right. The crisp map
# places each end within CRISP_EDGE_MM only, so the heading is no surer than that across the
# piece's length, as the desaturated pass already said (crisp_pieces' heading_floor, now given
# to the crisp passes too). Its σ is now 1.0 mm and 1.24°: in doubt by the rules' σ.
def test_a_crisp_reading_has_heading_sigma_of_its_ends_across_its_length():
    assert_no_sure_wrong_size(9959, 9712, "large", "clear", (406.7, 117.5), any_size=True)
    p = found(9959, "large", "clear", (406.7, 117.5), seed0=9712)
    length = NOMINAL_PIECES.dims(Size.LARGE).footprint_length_mm
    assert p.sigma_deg >= math.degrees(1.0 / length) - 1e-6


# Two clear pieces side by side, each one's facing edge hidden against the other (issue 4,
# session 38, lam48; missed clear pieces on laminate, wholly foreground and crisp yet unread).
# The 9136-set's 9251: two clear mediums on laminate (1280×720, 0-10°) head to tail, 2.4 mm
# apart. No one piece explains the region, and the pair was never read: the best reading of the
# right one is turned 4° off its piece (188° for 192°), so its outline grown by 1 mm excuses 7
# of the 31 hidden samples along the left one's facing edge (joint cost 0.73, its own 0.13) and
# _pair rejects it; the left one was missed, the right one read alone in doubt. Two good fits
# (own cost ≤ GOOD_COST) whose hidden edges lie within PAIR_WIDE_MM (2 mm: a few degrees' turn
# along a side) of each other's outline explain it (joint 0.38 and 0.49, nothing left of the
# region): both read, never trusted (cost at least PAIR_WIDE_COST: σ inflated, any size).
def test_two_clear_pieces_side_by_side_each_hiding_the_others_edge_are_both_read():
    for stern in ((251.5, 300.9), (275.2, 321.6)):
        p = found(9251, "medium", "clear", stern, seed0=9136)
        assert p is not None and p.color == "clear"
        assert p.sigma_mm > 1.5  # placed loosely: never trusted
    assert_no_false_piece(9251, 9136)


# ... but not when a fit of a longer size lies over half of each (issue 4, session 38, the
# lead's mend where lam48 met the 9424-set; explain.PAIR_WIDE_ONE). The 9424-set's 9633: a clear
# large on laminate (1280×720, 22-35°) beside an upright large, read at its size in doubt
# before, was read by the loose pair as two clear smalls head to tail (0.5 each), then merged
# into one small at σ 81 mm; a large's fits lie over 0.85 and 0.97 of the two: one piece in two
# parts. Read at its size again, the upright piece standing.
def test_a_clear_large_is_not_read_as_a_loose_pair_of_smalls_head_to_tail():
    p = found(9633, "large", "clear", (286.9, 434.4), seed0=9424)
    assert p is not None and p.size == Size.LARGE


# A white piece lit like the laminate read as its own shadow (issue 4, session 38, white48;
# whites lit like the table). Its lit faces are the table's shade, so the passes read only its
# shaded face and the shadow past it, as a clear piece in doubt 9-25 mm off toward the shadow
# and turned 14-28°: a miss and a false piece. Its outline is still crisp: a lying piece of
# each size refitted to the crisp edges from starts round the clear reading
# (edge_refits.white_by_shadow, SHADOW_WHITE_*), with SHADOW_WHITE_EDGES of its outline on them,
# lit like the table (SHADOW_WHITE_LIT; the shadow's own refits 0.55-0.88) and named white, the
# clear reading's rest past it dark (SHADOW_WHITE_PAST), replaces the clear reading in doubt.
# The 8272-set's 8298 (small, 1920×1080, 10-22°), the 9424-set's 9486 (small, 1920×1080,
# 10-22°), the 8560-set's 8590 (large, 1920×1080, 0-10°), the 8848-set's 8910 (large,
# 1920×1080, 10-22°), the 9712-set's 9948 (medium, 1920×1080, 10-22°) and the 10000-set's
# 10009 (large, 1280×720, 10-22°): found, never trusted, no false piece.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8298, 8272, "small", (168.1, 485.5)),
    (9486, 9424, "small", (123.4, 216.3)),
    (8590, 8560, "large", (137.6, 145.5)),
    (8910, 8848, "large", (141.1, 197.0)),
    (9948, 9712, "medium", (136.4, 310.5)),
    (10009, 10000, "large", (131.5, 168.4)),
])
def test_a_white_piece_lit_like_the_table_is_read_from_its_outline_not_its_shadow(
        seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.color == "white"
    assert p.sigma_mm >= 1.5
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)
    assert_no_false_piece(seed, seed0)


# The same, its lit faces a hair darker than the table (issue 4, session 46, recallwhite56):
# the 11728-set's 11844 white medium (1920×1080, 10-22°, alone on the laminate) was read as a
# false clear medium on its shadow and missed; white_by_shadow's refit lies whole on the crisp
# edges (share 1.0, 0.5 mm from the truth) but its inset median shade is 0.999, under the
# former SHADOW_WHITE_LIT (1.0). With the bar at 0.98 (the shadow refits 0.55-0.88): found,
# named white, in doubt, no false piece.
def test_a_white_piece_lit_a_hair_under_the_table_is_read_from_its_outline_not_its_shadow():
    p = found(11844, "medium", "white", (87.0, 316.9), seed0=11728)
    assert p is not None and p.color == "white" and p.size == Size.MEDIUM
    assert p.sigma_mm >= 1.5
    assert_no_sure_wrong_size(11844, 11728, "medium", "white", (87.0, 316.9), any_size=True)
    assert_no_false_piece(11844, 11728)



# A black large on laminate whose wide face mirrors the light (issue 4, session 38, opaque48;
# black pieces lit grey, a face as bright as 0.83-0.85 of the table). Its tip points at the
# light (heading 239-259°), so its wide face is lit grey and only its shaded face and shadow
# were foreground; the soft pick refitted to the crisp edges lands on it (0.1-2 mm off), named
# clear, but its footprint's median shade, 0.83 (the 10000-set's 10143: 1280×720, 22-35°) and
# 0.85 (the 8560-set's 8652: 1920×1080, 10-22°), lay over SOFT_BLACK_SHADE (0.8), so
# SOFT_GREY_BLACK left it. Black plastic keeps its shaded face near black (the inset
# footprint's 5th percentile 0.17 and 0.29, where a clear piece only darkens the table and a
# white piece's shaded face is grey) and casts a full shadow (the ring's 2nd percentile 0.25
# and 0.26): up to crisp.GREY_BLACK_LIT (0.9) such a refit is black plastic too. Found, in
# doubt (the soft reading's σ), named black; no false piece in 10143, and 8652's one false
# piece (a white small, before as now) is not this rule's.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (10143, 10000, (467.2, 450.5)),
    (8652, 8560, (176.0, 263.4)),
])
def test_a_black_large_whose_face_mirrors_the_light_is_read_black(seed, seed0, stern):
    p = found(seed, "large", "black", stern, seed0=seed0)
    assert p is not None and p.color == "black"
    assert p.sigma_mm > 1.5  # a soft reading: never trusted
    assert_no_sure_wrong_size(seed, seed0, "large", "black", stern, any_size=True)
    if seed == 10143:
        assert_no_false_piece(seed, seed0)
    r, det = bench_scene(seed, seed0)
    assert not any("false" in m and "black" in m for m in match(r.truth, det).misses)



# ... and beside a piece named in a vivid colour (issue 4, session 38, opaque48; black pieces
# lit grey, crisp.GREY_BESIDE_VIVID). GREY_ALONE_MM keeps a white piece's open base or shaded
# face, seen grey with its shadow, from being read as a black piece; a vivid piece's base and
# faces keep its hue. The 9712-set's 9992 (a black small on laminate touching a blue small,
# 1920×1080, 22-35°; refit 0.7 mm off, shade 0.71, the ring's 2nd percentile 0.26-0.29) was
# left for the blue small within 3 mm: now read black, in doubt. The white cases of that guard
# (9317, 9078: test_a_grey_area_beside_a_white_piece_is_no_black_one) are unchanged.
def test_a_black_piece_lit_grey_against_a_vivid_one_is_read_black():
    stern = (512.2, 385.1)
    p = found(9992, "small", "black", stern, seed0=9712)
    assert p is not None and p.color == "black" and p.sigma_mm > 1.5
    assert_no_sure_wrong_size(9992, 9712, "small", "black", stern, any_size=True)
    assert_no_false_piece(9992, 9712)


# A colour area's reading that is one face of its piece (issue 4, session 39, trust49; wrong
# sizes the rules would trust). The 10288-set's 10492 (1920×1080, 0-10°): a green large on
# green cloth lies stern to stern with a blue large. Its vivid colour is two areas of one hue
# (63), parted by the ridge between its dark stern face and its paler lit faces, which is not
# vivid (2-3 px at 1.5 px/mm). The region's colour-area pass (own_colour_pieces) read the
# stern area alone as a small turned 106° across the piece (cost 0.14, σ 3.0 mm, 87 mm off):
# the rules trusted a wrong size. An area of the reading's hue that no reading explains, within
# JOIN_GAP_MM of its outline, is now read with it (closed over the gap): the large at its pose
# covers both (cost 0.13), and is read instead, in doubt as colour-area readings are; where no
# fit covers the two, the reading's σ reaches the unexplained area (its length is not known).
def test_a_colour_area_read_with_the_area_of_its_hue_beside_it():
    stern = (211.1, 125.3)
    assert_no_sure_wrong_size(10492, 10288, "large", "green", stern, any_size=True)
    p = found(10492, "large", "green", stern, seed0=10288)
    assert (p.size.value, p.color) == ("large", "green") and p.sigma_mm > 1.5
    assert found(10492, "large", "blue", (223.5, 126.9), seed0=10288).sigma_mm <= 1.5
    assert_no_false_piece(10492, 10288)


# A clear piece read short from its stern, the tip lost (issue 4, session 39, clearsize49;
# clear pieces read one size short). The 8272-set's 8282: a clear medium on laminate (1920×1080,
# 22-35°) read as a small at σ 22.5 mm, its stern 1.1 mm off and its tip 11 mm short: the apex
# is a thin grey wedge of two walls fading into the table, and the fit stops where the open
# base's dark ends. The strip rules set longer sizes from the reading's tip, so never reach it.
# From its stern, the medium's strip past the small's tip is 0.84 of the table beside it and
# its outline there lies on the crisp edges for 0.75 of its samples (right clear readings'
# strips keep 0.907 of the table or more; those under 0.93 an edge share of 0.38 or less:
# CLEAR_TIP_BESIDE, CLEAR_TIP_EDGES). So too 8309's clear large (read as a medium), the
# 10288-set's 10393 and 10521's two clear mediums (read as smalls). Each is read at its size,
# set from the reading's stern, never trusted (σ covers the shorter reading), named clear.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8282, 8272, "medium", (364.5, 149.8)),
    (8309, 8272, "large", (202.7, 369.6)),
    (10393, 10288, "medium", (277.2, 400.5)),
    (10521, 10288, "medium", (143.9, 121.5)),
    (10521, 10288, "medium", (81.3, 138.9)),
])
def test_a_clear_piece_read_short_from_its_stern_is_read_at_its_size(seed, seed0, size, stern):
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "clear"
    assert p.sigma_mm > 1.5  # the size is the view's shade and edges, not a fit's
    assert_no_false_piece(seed, seed0)


# ... but not when the longer size's tip runs into another piece, or its outline is another
# piece's (issue 4, session 39, clearsize49; CLEAR_TIP_OFF_MM, CLEAR_TIP_EDGES_MAX). The
# 10000-set's 10007: a clear small on laminate (1280×720, 0-10°) read at its size in doubt
# (σ 22.5 mm), its tip pointing at a cyan large's stern. Its medium from the same stern ends
# on the cyan's outline: the strip past the small's tip takes in the cyan's shadow (0.84 of the
# table beside it) and its edges (share 0.53), as a piece's tip would. The 8848-set's 8849: two
# clear mediums side by side head to tail (1280×720, 0-10°), one missed; the found one's large
# from its stern lies over the other (strip 0.81, edge share 0.89: crisp nearly all along, a
# neighbour's sides, where a faint apex shows 0.40-0.75). Each keeps its size.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10007, 10000, "small", (446.9, 273.3)),
    (8849, 8848, "medium", (308.4, 332.3)),
])
def test_a_clear_piece_whose_longer_size_runs_into_another_piece_keeps_its_size(
        seed, seed0, size, stern):
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "clear"


# A clear piece read short from its stern AND turned (issue 4, session 39, clearturn49; clear
# pieces read one size short, turned 15-25°). The 8272-set's 8277: a clear large on laminate
# (1280×720, 22-35°) read as a medium at σ 49.1 mm, turned 17° toward its shadow. Its large from
# the medium's stern at the heading as read runs its strip partly off the piece: strip 0.88 of
# the table beside it but edge share 0.38 (under CLEAR_TIP_EDGES). Turned 10° toward the piece
# (CLEAR_TIP_TURN_DEG): strip 0.83, edge share 0.43. So too the 10000-set's 10260, the
# 9424-set's 9543 (a large read as a medium, a medium read as a small), the 8848-set's 8919 and
# the 8560-set's 8610 (larges read as mediums). Each is read at its size, never trusted, named
# clear. The same scenes' right clear smalls in size doubt (9543's, 8610's two) keep their size:
# their turned strips are table (0.92 or more, edge share 0.20 or less); and the 8848-set's 8849
# (above) keeps its medium: its large as read lies on the missed neighbour's sides (edge share
# 0.89), and such a size is not turned (turned 10° toward that piece: strip 0.70, share 0.52).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8277, 8272, "large", (222.5, 327.1)),
    (10260, 10000, "large", (258.2, 411.6)),
    (9543, 9424, "large", (285.0, 415.2)),
    (9543, 9424, "medium", (278.2, 503.1)),
    (8919, 8848, "large", (404.4, 106.1)),
    (8610, 8560, "large", (208.3, 466.8)),
])
def test_a_clear_piece_read_short_and_turned_is_read_at_its_size(seed, seed0, size, stern):
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "clear"
    assert p.sigma_mm > 1.5  # the size is the view's shade and edges, not a fit's
    assert_no_false_piece(seed, seed0)


@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (9543, 9424, (435.1, 419.8)),
    (8610, 8560, (395.6, 253.9)),
    (8610, 8560, (296.8, 93.0)),
])
def test_a_clear_small_in_size_doubt_keeps_its_size_turned(seed, seed0, stern):
    p = found(seed, "small", "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == "small" and p.color == "clear"



# A white piece in doubt read at the wrong size (issue 4, session 39, white49; whites lit like
# the laminate, read short or long). Its lit end is lost on the fit map, so a shorter size sits
# inside it (both ends 4-7 mm short) or a longer one takes in its shadow: in doubt, but at the
# wrong size, and the true size's fit on the map costs more than the wrong one's. Its outline
# is still crisp: refitted to the crisp edges from the reading's stern, tip and middle, the
# true size lies whole on them (WHITE_EDGES_WHOLE) and beats the read size by
# WHITE_EDGES_MARGIN (edge_refits.white_size_by_edges); it is read at that size, never trusted.
# The 8272-set's 8517 (large read as medium, 1280×720, 22-35°) and 8555 (medium read as large,
# 1280×720, 0-10°), the 9712-set's 9826 (large read as medium, 1920×1080, 0-10°), the
# 8560-set's 8691 (large read as medium, 1280×720, 22-35°), the 10288-set's 10396 (medium read
# as large, 1920×1080, 0-10°) and the 9136-set's 9281 (small read as medium, 1280×720, 0-10°).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8517, 8272, "large", (176.8, 431.4)),
    (8555, 8272, "medium", (452.9, 456.2)),
    (9826, 9712, "large", (421.7, 406.6)),
    (8691, 8560, "large", (243.5, 216.7)),
    (10396, 10288, "medium", (482.0, 456.3)),
    (9281, 9136, "small", (443.3, 261.1)),
])
def test_a_white_piece_in_doubt_is_read_at_the_size_whole_on_its_crisp_edges(seed, seed0, size,
                                                                              stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.color == "white" and p.size.value == size
    assert p.sigma_mm > 1.5  # its size from the edges, its place not fitted: never trusted
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)
    assert_no_false_piece(seed, seed0)


# A white piece lit like the grey table against a piece found (issue 4, session 40, white50;
# white pieces touching a coloured one on laminate, missed). The region's passes take the
# region as explained by the coloured neighbour; on a grey table the white piece's lit faces
# are not pale enough over the laminate for whites_left nor vivid for colours_left, and no pass
# returned a candidate near it. Its outline is crisp: refitted to the crisp edges from the
# axis of the area the readings leave (its shaded face and shadow), one size lies whole on
# them and is lit like the table and named white (edge_refits.white_beside_found); it is read in
# doubt, never trusted. The 8848-set's 8972 (small against a red medium) and the 10576-set's
# 10646 (medium against a green medium) and 10700 (small against an orange medium), all on
# laminate at 1920×1080, 22-35°.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8972, 8848, "small", (131.6, 262.3)),
    (10646, 10576, "medium", (279.4, 454.8)),
    (10700, 10576, "small", (220.3, 511.0)),
])
def test_a_white_piece_lit_like_the_laminate_against_a_piece_found_is_read(seed, seed0, size,
                                                                          stern):
    assert_white_read_from_edges(seed, seed0, size, stern)


# ... when the first refits' best grazes the neighbour's reading (issue 4, session 59,
# recallwhite69; edge_refits._whole_from_area's guard): the 15472-set's 15530, a white medium
# against an orange medium (laminate, 1920×1080, 22-35°). Its medium's first refit lies 0.975 on
# the edges, 6° off, its footprint 0.006 inside the orange reading's; the guard (there for a
# neighbour's shadow's area: the cost bench's 1003, a blue large's shadow whose small refit
# lies 0.061 inside the blue reading) dropped the area, and the next refit lies whole (1.0) at
# the truth, clear of the orange reading. A sliver (WHITE_EDGES_SLIVER) is let through.
def test_a_white_piece_whose_first_refit_grazes_the_neighbour_found_is_read():
    assert_white_read_from_edges(15530, 15472, "medium", (113.1, 297.8))


# ... and the guard still holds a neighbour's shadow's area whose refit lies inside the
# neighbour's reading by more than a sliver (1003, 1280×720, 10-22°: 0.061 of the small's
# footprint inside the blue large's): no white piece read there.
def test_a_neighbours_shadow_area_whose_refit_overlaps_it_gives_no_white_piece():
    assert_no_false_piece(1003, 1000)


# ... but a clear piece named white keeps its size (issue 4, session 39, the lead's mend of the
# merge; WHITE_EDGES_SHORTER). The 9136-set's 9311: a clear large (1280×720, 0-10°) named white,
# read at its size in doubt; its open base's inner rim, seen through the walls, nests a medium's
# outline at its tip that lies on the crisp edges at 79 of 80 samples (0.988) against the
# large's 0.900, and the merged tree read it as a white medium. A shorter size must be whole.
def test_a_clear_piece_named_white_keeps_its_size_against_its_inner_rim():
    stern = (154.0, 218.6)
    p = found(9311, "large", "clear", stern, seed0=9136)
    assert p is not None and p.size == Size.LARGE
    assert math.dist(p.pose.stern_mm, stern) < 3.0


# A reading the end drops as lit table held a clear piece's crisp area off (issue 4, session
# 39, clear49; clear pieces on laminate held off by a neighbour). The 9424-set's 9602: a clear
# large on laminate (1920×1080, 22-35°) whose tip touches a blue medium. The main pass read two
# doubtful smalls (fit 0.50 and 0.55) on its faces, lit like the table beside its shade; the
# end drops them as bare table looking lit (shadows.lit_table), but at the crisp pass they were
# pieces found: the large's crisp area (804 mm²) ran along them over 0.54 of its border, held
# off as their shadow (MAX_CONTACT), its peeled part still 0.53 (PEEL_CONTACT), and the piece
# was missed. The 8848-set's 9005 (a clear large on laminate against a purple large, 1280×720,
# 0-10°): one such small (0.56), contact 0.53. The crisp areas touching a reading lit_table
# calls table are fitted again without it, good fits only (the first call keeps it: its
# excused strip lets the soft reading read the 9136-set's 9375 and 9327 black pieces): 9602's
# large read 1.5 mm off at σ 1.5 mm, 9005's 1.8 mm off at σ 2.0 mm, at their size.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (9602, 9424, (393.5, 258.7)),
    (9005, 8848, (144.3, 150.9)),
])
def test_a_lit_table_reading_holds_no_clear_pieces_crisp_area_off(seed, seed0, stern):
    p = found(seed, "large", "clear", stern, seed0=seed0)
    assert p is not None and p.color == "clear" and p.size == Size.LARGE
    assert math.dist(p.pose.stern_mm, stern) < 2.0
    assert_no_sure_wrong_size(seed, seed0, "large", "clear", stern, any_size=True)
    if seed == 9602:
        assert_no_false_piece(seed, seed0)


# ... while the crisp pass's first call keeps such readings (issue 4, session 39, clear49): the
# 9136-set's 9375, a black large on laminate (1280×720, 22-35°) beside a lit-table small
# (0.53), is read by that call's soft reading on its peeled part, the small's strip excused;
# without the small its whole area was fitted, no reading came of it, and the large was lost.
def test_a_lit_table_readings_strip_still_excuses_the_soft_reading_beside_it():
    p = found(9375, "large", "black", (420.6, 196.0), seed0=9136)
    assert p is not None and p.color == "black"
    assert_no_sure_wrong_size(9375, 9136, "large", "black", (420.6, 196.0), any_size=True)


# A doubtful crisp fit's turn is not pinned (issue 4, session 39, the lead; trusted far-off
# readings; crisp.DOUBT_TURN_DEG). The 10576-set's 10718 (1920×1080, 22-35°, cloth): a black
# small against a purple medium's stern, its peeled part fitted on the crisp map at 0.38 (over
# GOOD_COST, kept in doubt at σ 3.0 mm) turned 115° from the truth, its heading σ the fit's
# 4.7°: its tip 31 mm off, outside the rules' allowance. Such a fit's heading σ is at least
# 45°: the rules answer in doubt.
def test_a_doubtful_crisp_fit_is_in_doubt_of_its_turn():
    assert_no_sure_wrong_size(10718, 10576, "small", "black", (461.3, 401.1), any_size=True)
    p = found(10718, "small", "black", (461.3, 401.1), seed0=10576)
    assert p.sigma_deg >= 45.0


# Two touching pieces of near hues, one colour area, no hand (issue 4, session 39, touch49;
# touching a piece of a similar hue). The 10000-set's 10067 (1280×720, 0-10°): a red small's
# stern against an orange medium's side; its red (hue 0-1) runs into the orange (10-15) over a
# pixel or two, no HUE_STEP parts them, the one area is most of the region (colours_apart says
# no) and no one fit covers it: no pass read anything and both were missed. The 9712-set's
# 9773 (a yellow large and an orange small, 1280×720, 0-10°) likewise. Read as a pair as in a
# hand's region (explain._pair_covering: two good fits of two hues that together cover the
# area); the second piece's corners are hidden in the joint area, so the pair is sought among
# the fits of what each good fit's outline leaves of it too (explain._rest_fits). Each read
# within 2 mm, in doubt (σ 3 mm, HAND_COLOUR_MM), no false piece.
@pytest.mark.parametrize(("seed", "seed0", "pieces"), [
    (10067, 10000, [("small", "red", (371.2, 510.6)), ("medium", "orange", (385.1, 522.5))]),
    (9773, 9712, [("large", "yellow", (413.7, 486.7)), ("small", "orange", (408.0, 508.6))]),
])
def test_touching_pieces_of_near_hues_are_read_as_a_pair(seed, seed0, pieces):
    assert_pair_read(seed, seed0, pieces, 2.5)


def assert_pair_read(seed: int, seed0: int, pieces: list, within_mm: float) -> None:
    """Each of ``pieces`` (size, colour, stern in table mm) read at its size and colour within
    ``within_mm``, in doubt (a pair in one colour area is never trusted), and no false piece."""
    for size, color, stern in pieces:
        p = found(seed, size, color, stern, seed0=seed0)
        assert p is not None and p.color == color and p.size.value == size
        assert math.dist(p.pose.stern_mm, stern) < within_mm
        assert p.sigma_mm >= 3.0
    assert_no_false_piece(seed, seed0)


# A reading in doubt whose pose is poor (issue 4, session 39, acc49; the stern error's tail at
# 720p: right-size readings in doubt 2-6 mm off). The 9136-set's 9341: a clear small touching a
# blue small (1280×720), its faces lit like the table, fitted on the map at cost 0.38 with its
# stern 5.5 mm off toward its neighbour (σ 36 mm); 9303: a yellow large read by an edges rule,
# set, not fitted (score 0), 2.9 mm off (σ 99 mm). Their outlines were crisp but the poses
# found lay on 0.76 and 0.74 of their samples only: refitted to the crisp edges at their own
# size (EDGE_REFIT_*) the outline lies whole on them, the sterns 1.1 and 0.4 mm off. Only the
# pose moves: size and σ are kept, so the readings stay in doubt (the rules never trust a
# reading the refit moved).
@pytest.mark.parametrize(("seed", "size", "color", "stern"), [
    (9341, "small", "clear", (142.69, 94.75)),
    (9303, "large", "yellow", (291.26, 363.39)),
])
def test_a_doubtful_reading_off_its_crisp_outline_is_refitted_to_it(seed, size, color, stern):
    p = found(seed, size, color, stern, seed0=9136)
    assert p is not None and p.size.value == size
    assert math.dist(p.pose.stern_mm, stern) < 1.5
    assert p.sigma_mm > 1.5
    if seed == 9303:  # (9341 has a false white small at (297, 247), as before)
        assert_no_false_piece(seed, 9136)


# The stern and heading error's tail (issue 4, session 47, acc57; p95 over 1.5 mm / 1.5° on the
# 13168- and 10576-sets): white and clear readings in doubt fitted on the map 2-3.5 mm off,
# their faces lit like the table, whose refit to the crisp edges lies on 0.9-1.0 of its samples
# where the pose found lay on 0.81-0.95, a gain short of the 0.15 the refit asked. The
# 13168-set's 13186 (1920×1080, 0-10°, laminate): a white large 3.35 mm off at σ 20.7 mm, its
# outline 0.90 -> 1.00 on the edges; the 10576-set's 10657 (1280×720, 10-22°): a white large
# 2.07 mm off, 0.95 -> 1.00; 10651 (1280×720, felt): a clear small 1.74 mm off, 0.81 -> 0.94.
# Refitted (EDGE_REFIT_SHARE 0.9, EDGE_REFIT_GAIN 0.05) they lie 0.46, 0.59 and 0.66 mm off;
# size, colour and σ are kept: they stay in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (13186, 13168, "large", "white", (310.35, 390.12)),
    (10657, 10576, "large", "white", (105.78, 197.72)),
    (10651, 10576, "small", "clear", (174.26, 310.86)),
])
def test_a_doubtful_pale_reading_nearly_on_its_crisp_outline_is_refitted_to_it(seed, seed0,
                                                                               size, color,
                                                                               stern):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == color
    assert math.dist(p.pose.stern_mm, stern) < 1.0
    assert p.sigma_mm > 1.5


# The stern error's tail at 720p (issue 4, session 53, acc63; the last judge set's 1280×720
# stern p95 1.72 mm): a white or set (score 0) reading in doubt already on its crisp edges at
# 0.93-0.99 of its samples, so no refit could gain the 0.05 EDGE_REFIT_GAIN asks, yet 1.6-2.7
# mm off at both ends (the share counts edges within a pixel). The 14896-set's 14897: a clear
# large on cloth set, not fitted (1280×720, 0-10°), stern 1.85 mm off, its refit's mean edge
# distance 0.25 -> 0.11 px; 14933: a clear large on cloth, set, 1.58 mm off, 0.62 -> 0.38 px;
# the 12880-set's 12893 (session 55, acc65): a white medium on laminate (0-10°), 2.65 mm off
# along its axis, 0.22 -> 0.05 px, its heading kept (EDGE_REFIT_NEARER_HELD_SIZES; acc63's
# 14925, a white medium the refit turned 0.75°, is left since). Refitted
# (EDGE_REFIT_NEARER_PX) both ends lie within 0.31-0.85 mm; size, colour and σ are kept: they
# stay in doubt.
@pytest.mark.parametrize(("seed0", "seed", "size", "color", "stern", "tip"), [
    (14896, 14897, "large", "clear", (287.97, 361.56), (242.75, 371.16)),
    (14896, 14933, "large", "clear", (482.68, 301.25), (438.62, 315.24)),
    (12880, 12893, "medium", "white", (180.58, 152.22), (203.88, 180.06)),
])
def test_a_white_or_set_reading_on_its_crisp_outline_is_moved_nearer_it(seed0, seed, size,
                                                                        color, stern, tip):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == color
    assert math.dist(p.pose.stern_mm, stern) < 1.3
    assert math.dist(p.tip_mm, tip) < 1.3
    assert p.sigma_mm > 1.5


# A medium is not turned by the nearer-distance refit (issue 4, session 55, acc65;
# EDGE_REFIT_NEARER_HELD_SIZES): on the check set 5104 (1280×720, laminate) two white mediums
# in doubt already on their crisp edges were turned 1.5° by their refit and slid farther from
# the truth: 5141's, set (0-10°), stern 0.75 -> 1.27 mm, heading 2.37 -> 3.87°; 5197's, fitted
# (10-22°), stern 0.80 -> 1.72 mm, tip 0.79 -> 1.53 mm (session 54's branch). Left, both keep
# their stern within 1 mm.
@pytest.mark.parametrize(("seed", "stern"), [
    (5141, (156.07, 91.01)),
    (5197, (137.17, 122.59)),
])
def test_a_medium_on_its_crisp_outline_is_not_turned_off_it(seed, stern):
    p = found(seed, "medium", "white", stern, seed0=5104)
    assert p is not None and p.size.value == "medium"
    assert math.dist(p.pose.stern_mm, stern) < 1.0
    assert p.sigma_mm > 1.5


# A clear large set by a strip rule moved to its map fit (issue 4, session 56, acc66; the 720p
# stern p95 over 1.5 mm on five tuning sets). Set from a shorter reading's tip or stern, not
# fitted (score 0), it lies where the shorter's end put it: the 14896-set's 14971 (1280×720,
# 10-22°, felt, clear_strip_longer) 1.83 mm off at both ends; the 14032-set's 14051 (0-10°,
# cloth) 3.41 / 2.98 mm and 14207 (0-10°, felt, clear_base_longer) 3.16 / 3.10 mm. The fit map's
# fit of the large from there costs 0.454, 0.523 and 0.640 (SET_CLEAR_REFIT_COST 0.65) and lies
# 0.16 / 0.12, 0.23 / 0.81 and 1.42 / 1.34 mm off; size, colour and σ are kept: in doubt.
@pytest.mark.parametrize(("seed0", "seed", "stern", "tip", "within"), [
    (14896, 14971, (335.96, 416.72), (362.99, 454.22), 1.0),
    (14032, 14051, (198.93, 233.82), (213.98, 277.53), 1.0),
    (14032, 14207, (452.66, 343.25), (410.48, 362.17), 1.5),
])
def test_a_clear_large_set_by_a_strip_rule_is_moved_to_its_map_fit(seed0, seed, stern, tip,
                                                                    within):
    p = found(seed, "large", "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == "large" and p.color == "clear"
    assert math.dist(p.pose.stern_mm, stern) < within
    assert math.dist(p.tip_mm, tip) < within
    assert p.sigma_mm > 1.5


# ... but not to a fit costing over SET_CLEAR_REFIT_COST (issue 4, session 56, acc66): the
# 14032-set's 14161 (1280×720, 10-22°, laminate), a clear large set from a medium's stern
# (clear_tip_longer), stern 3.70 mm off but its tip 1.15 mm; its fit (0.667) brings the stern
# to 2.83 mm and sends the tip to 2.32 mm. Left, its tip stays within 1.3 mm.
def test_a_clear_large_whose_map_fit_costs_more_keeps_its_set_pose():
    tip = (196.1, 397.47)
    p = found(14161, "large", "clear", (150.85, 406.93), seed0=14032)
    assert p is not None and p.size.value == "large"
    assert math.dist(p.tip_mm, tip) < 1.3


# A clear reading set by strips.clear_tip_longer, turned 10° by that rule, takes its map fit's
# heading (issue 4, session 57, head67; the 720p heading p95 over 1.5°): the rule sets a longer
# size from the shorter reading's stern at its heading turned 0 or ±10°, so these set readings
# lie 5-21° off. Its map fit from there (cost up to SET_CLEAR_REFIT_COST: the pose; up to
# SET_TIP_TURN_COST: the heading, turned about the end the fit moved less) puts them within 1°.
# Laminate, 1280×720: the 14896-set's 14997 (a medium 14.6° off, fit 0.580: the fit's pose),
# the 10576-set's 10731 (a medium 21.5° off, 0.651), 10699 (a large 14.4° off, 0.661),
# the 13744-set's 13959 (a large 16.4° off, 0.664): turned.
@pytest.mark.parametrize(("seed0", "seed", "size", "stern", "heading", "tip", "within"), [
    (14896, 14997, "medium", (154.81, 377.13), 152.82, (122.51, 393.71), 2.5),
    (10576, 10731, "medium", (204.24, 334.82), 150.62, (172.6, 352.63), 5.5),
    (10576, 10699, "large", (140.49, 382.08), 31.34, (179.97, 406.12), 7.0),
    (13744, 13959, "large", (147.21, 169.93), 168.09, (101.98, 179.47), 7.0),
])
def test_a_clear_reading_set_turned_by_the_tip_rule_takes_its_map_fits_heading(
        seed0, seed, size, stern, heading, tip, within):
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "clear"
    assert abs(angle_diff_deg(p.pose.heading_deg, heading)) < 1.0
    # Neither end sent far (each was as far or farther before: 10699's tip 6.5 mm).
    assert math.dist(p.pose.stern_mm, stern) < within
    assert math.dist(p.tip_mm, tip) < within
    assert p.sigma_mm > 1.5


# ... but not one whose fit costs over SET_TIP_TURN_COST (issue 4, session 57, head67): the
# 14896-set's 14925 (1280×720, 22-35°, laminate), a clear medium set by clear_tip_longer 1.9°
# off, its fit (0.991) 3.9° off and its stern farther (2.81 -> 3.46 mm). Left within 2.5°.
def test_a_clear_reading_set_by_the_tip_rule_whose_map_fit_costs_more_keeps_its_heading():
    p = found(14925, "medium", "clear", (98.26, 470.56), seed0=14896)
    assert p is not None and p.size.value == "medium"
    assert abs(angle_diff_deg(p.pose.heading_deg, 65.44)) < 2.5


# A white reading from its open base's quad, set (score 0) and left by edges_refit, is turned
# about its stern to its map fit's heading where the crisp edges agree (issue 4, session 58,
# head68; the 720p heading p95 over 1.5°): the quad gives the stern (0.03-1.2 mm here) but its
# heading is a short lever, 3.8-14.6° off, the tip 1.8-6.1 mm. The fit map's fit from there
# turns it 4.1-11.1° (edge_refits.BASE_FIT_TURN_MIN_DEG 3.5) and its outline ahead of the base
# lies 0.23-0.60 px nearer the crisp edges there (BASE_FIT_TURN_NEARER_PX 0.1). All 1280×720 on
# the laminate: the 8272-set's 8505 large (7.90°) and 8553 medium (10.58°), the 15184-set's
# 15455 small (4.72°), the 12304-set's 12581 small (3.80°), the check set's 5163 small
# (14.63°). Stern, size, colour and σ kept: in doubt.
@pytest.mark.parametrize(("seed0", "seed", "size", "stern", "heading", "tip", "within_deg"), [
    (8272, 8505, "large", (482.6, 372.23), 75.03, (494.54, 416.89), 2.5),
    (8272, 8553, "medium", (495.07, 362.35), 110.04, (482.62, 396.46), 2.5),
    (15184, 15455, "small", (240.85, 268.47), 59.53, (254.23, 291.21), 1.0),
    (12304, 12581, "small", (263.07, 109.87), 203.1, (238.8, 99.52), 1.0),
    (5104, 5163, "small", (267.49, 315.67), 60.62, (280.44, 338.66), 4.0),
])
def test_a_white_reading_from_its_open_bases_quad_is_turned_to_its_map_fits_heading(
        seed0, seed, size, stern, heading, tip, within_deg):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "white"
    assert abs(angle_diff_deg(p.pose.heading_deg, heading)) < within_deg
    assert math.dist(p.tip_mm, tip) < 1.2
    assert math.dist(p.pose.stern_mm, stern) < 1.5  # the quad's stern kept
    assert p.sigma_mm > 1.5


# ... but not where the fit turns it less than BASE_FIT_TURN_MIN_DEG, or its outline ahead lies
# no nearer the crisp edges at the fit's heading (issue 4, session 58, head68). 1280×720, white,
# on the laminate, each read from its quad: the 14896-set's 15101 small (the fit turns it 1.05°,
# 0.05 px nearer: 1.13 -> 2.17°), the 5968-set's 6107 small (0.88°, 0.02 px nearer: 0.06 ->
# 0.83°), the 14896-set's 14957 large (2.76°, 0.17 px farther: 0.26 -> 3.02°), the 8272-set's
# 8459 small (5.61°, 0.42 px farther: 6.98 -> 12.59°). Each keeps its heading.
@pytest.mark.parametrize(("seed0", "seed", "size", "stern", "heading", "within_deg"), [
    (14896, 15101, "small", (222.63, 484.72), 65.43, 1.5),
    (5968, 6107, "small", (442.62, 193.83), 333.49, 0.5),
    (14896, 14957, "large", (393.23, 329.48), 314.51, 0.5),
    (8272, 8459, "small", (289.84, 513.39), 126.68, 8.0),
])
def test_a_white_reading_from_its_quad_whose_map_fit_the_edges_do_not_back_keeps_its_heading(
        seed0, seed, size, stern, heading, within_deg):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.size.value == size
    assert abs(angle_diff_deg(p.pose.heading_deg, heading)) < within_deg


# A clear reading in doubt on the laminate, as first read from its map fit, whose fit samples
# on the side away from the camera cost CLEAR_FAR_MISS (0.7) more than those toward it, is
# moved CLEAR_FAR_SHIFT_MM (1.2 mm) away from the camera (issue 4, session 59, acc69; the 720p
# stern p95 of the 16624 set 1.84 mm): the fit map holds its footprint but not its far walls,
# lit like the table, so the fit slid 2-3.5 mm toward the camera. The 16624 set's 1280×720
# scenes: 16767's medium (far side 0.80 more, stern 2.50 -> 1.37 mm), 16679's medium (0.84;
# 2.84 -> 1.73 mm), 16783's small (1.34; 3.38 -> 2.21 mm), 16905's medium (0.95; 3.35 -> 2.56
# mm). Size, colour and σ kept: in doubt.
@pytest.mark.parametrize(("seed", "size", "stern", "heading", "within"), [
    (16767, "medium", (155.58, 106.42), 60.21, 1.8),
    (16679, "medium", (98.73, 306.34), 85.49, 2.2),
    (16783, "small", (171.65, 361.5), 154.52, 2.6),
    (16905, "medium", (253.31, 272.05), 185.89, 2.9),
])
def test_a_clear_reading_on_the_laminate_whose_far_side_found_no_edge_is_moved_from_the_camera(
        seed, size, stern, heading, within):
    p = found(seed, size, "clear", stern, seed0=16624)
    assert p is not None and p.size.value == size and p.color == "clear"
    assert math.dist(p.pose.stern_mm, stern) < within
    length = NOMINAL_PIECES.dims(Size(size)).footprint_length_mm
    assert math.dist(p.tip_mm, Pose(*stern, heading).tip_mm(length)) < within
    assert p.sigma_mm > 1.5


# ... but not one whose far side costs less than CLEAR_FAR_MISS more than its near side
# (issue 4, session 59, acc69): 16624-set, 1280×720, laminate, each right within 2 mm. 16745's
# small (far side 0.59 less; moved, 0.66 -> 1.85 mm), 16657's medium (0.27 more; 0.19 -> 1.01
# mm), 16783's large (0.30 less; 1.82 -> 2.38 mm). Each stays where it was read.
@pytest.mark.parametrize(("seed", "size", "stern", "within"), [
    (16745, "small", (123.11, 338.06), 1.0),
    (16657, "medium", (410.64, 215.95), 0.5),
    (16783, "large", (287.35, 232.57), 2.0),
])
def test_a_clear_reading_on_the_laminate_whose_far_side_found_its_edge_is_not_moved(
        seed, size, stern, within):
    p = found(seed, size, "clear", stern, seed0=16624)
    assert p is not None and p.size.value == size
    assert math.dist(p.pose.stern_mm, stern) < within


# ... and moved only once the readings of one piece are merged and the grey ones named
# (issue 4, session 60, lead70): the 12016-set's 12134 (1920×1080, estimated intrinsics), a
# clear medium in doubt beside a black small read as a clear small (σ 99 mm both). Moved first,
# 1.2 mm toward the small, the small lay 0.465 in the medium's large footprint (0.373 where it
# was read; ONE_PIECE_SHARE 0.4) and was merged into it: missed on 522ee5e (found on 01516c9,
# before the move). Moved after the merge but before the grey readings are named, it came within
# GREY_ALONE_MM of the small (3.05 -> 2.21 mm), which kept the name clear. Both mediums of the
# scene are still moved: 12134's 2.16 -> 1.07 mm at its stern, the other 1.46 -> 0.49 mm.
def test_a_clear_reading_moved_from_the_camera_does_not_merge_a_touching_neighbour_away():
    small = found(12134, "small", "black", (192.2, 153.0), seed0=12016)
    assert small is not None and small.size.value == "small" and small.color == "black"
    assert small.sigma_mm > 1.5
    medium = found(12134, "medium", "clear", (195.3, 135.5), seed0=12016)
    assert medium is not None and math.dist(medium.pose.stern_mm, (195.3, 135.5)) < 1.3


# ... by the step at which its outline's far side costs no more than its near side
# (CLEAR_FAR_BALANCE), edges searched at the poses CLEAR_FAR_STEP_MM apart up to
# CLEAR_FAR_MAX_SHIFT_MM (3 mm) away from the camera, not a fixed 1.2 mm (issue 4, session 60,
# tail70; the slide is 1.5-3.5 mm). 1280×720, laminate, each in doubt: the 5968 set's 6123
# large (step 2.6 mm; stern 1.53 -> 0.43 mm at the fixed step and the measured one) and 5991
# medium (2.2 mm; 2.31 -> 1.65 mm), the 14896 set's 15051 small (2.6 mm; 2.22 -> 0.82 mm), the
# 16624 set's 16783 small (1.8 mm; 2.21 / 1.91 -> 1.64 / 1.32 mm). Size, colour and σ kept.
@pytest.mark.parametrize(("seed0", "seed", "size", "stern", "heading", "within"), [
    (5968, 6123, "large", (471.97, 146.74), 348.71, 1.0),
    (5968, 5991, "medium", (347.71, 255.34), 358.87, 2.0),
    (14896, 15051, "small", (363.77, 303.70), 135.07, 1.5),
    (16624, 16783, "small", (171.65, 361.5), 154.52, 1.9),
])
def test_a_clear_reading_moved_from_the_camera_goes_until_its_far_side_costs_no_more_than_its_near(
        seed0, seed, size, stern, heading, within):
    p = _clear_read_at(seed0, seed, size, stern, heading, within)
    assert p.sigma_mm > 1.5


# ... and by the fixed CLEAR_FAR_SHIFT_MM (1.2 mm) where the step is not measured (issue 4,
# session 60, tail70): 1280×720, laminate. The 5968 set's 6101 large, its near side hidden by a
# neighbour (its outline's far side 0.08 below its near side at the read pose, under
# CLEAR_FAR_MEASURED 0.3: a first step of 0.2 mm would balance it, ~3.1 mm off); the 16624 set's
# 16769 medium, whose far side still costs more 3 mm away (at 3 mm: 3.21 mm off). Each as at
# the fixed step: 6101 2.07 / 1.67 mm, 16769 2.36 / 2.41 mm.
@pytest.mark.parametrize(("seed0", "seed", "size", "stern", "heading", "within"), [
    (5968, 6101, "large", (275.07, 451.67), 306.55, 2.3),
    (16624, 16769, "medium", (168.96, 219.25), 151.55, 2.6),
])
def test_a_clear_reading_moved_from_the_camera_whose_step_is_not_measured_takes_the_fixed_one(
        seed0, seed, size, stern, heading, within):
    _clear_read_at(seed0, seed, size, stern, heading, within)


# ... and so is a clear set reading that set_clear_refit moved to its map fit (issue 4, session
# 62, acc72): it lies where a fitted one does, its far walls off the map, and the fit's own
# samples are asked as a fitted reading's are (CLEAR_FAR_MISS's test, the measured step). 1280×720,
# laminate, σ 99 mm: the 14896 set's 14997 medium (far side 1.34 above its near side; step 3 mm:
# 2.21 / 2.17 -> 0.89 / 0.91 mm), the 12880 set's 12991 large (step 2 mm: 2.29 / 1.84 -> 0.65 /
# 0.79 mm), the 16624 set's 16639 large (1.36; step 2 mm: 2.24 / 2.71 -> 2.12 / 2.13 mm). Size,
# colour and σ kept.
@pytest.mark.parametrize(("seed0", "seed", "size", "stern", "heading", "within"), [
    (14896, 14997, "medium", (154.81, 377.13), 152.82, 1.5),
    (12880, 12991, "large", (347.51, 435.48), 7.31, 1.5),
    (16624, 16639, "large", (292.59, 287.06), 344.62, 2.2),
])
def test_a_clear_set_reading_at_its_map_fit_is_moved_from_the_camera_as_a_fitted_one(
        seed0, seed, size, stern, heading, within):
    p = _clear_read_at(seed0, seed, size, stern, heading, within)
    assert p.sigma_mm > 1.5


# ... but one whose map fit's far side found its edge is left (issue 4, session 62, acc72): the
# 5968 set's 6154 clear large (1920×1080, laminate, σ in doubt) at set_clear_refit's map fit,
# its far side 0.12 above its near side (CLEAR_FAR_MISS 0.7): 1.74 / 2.66 mm off as left; moved
# the fixed 1.2 mm its stern would go to 2.07 mm.
def test_a_clear_set_reading_at_its_map_fit_whose_far_side_found_its_edge_is_not_moved():
    p = found(6154, "large", "clear", (315.8, 406.04), seed0=5968)
    assert p is not None and p.size.value == "large" and p.color == "clear"
    assert math.dist(p.pose.stern_mm, (315.8, 406.04)) < 1.9


# A clear piece lit like a grey table is no lit table (issue 4, session 40, clearrec50; clear
# pieces on laminate missed, lit like the table). The 10864-set's 11118: a clear small alone on
# laminate (1920×1080, 10-22°), its faces passing the table's light and colour at over ×1.05.
# The crisp pass read it cleanly (cost 0.22, 2.2 mm off), but the end dropped it as bare table
# looking lit beside a dark area (shadows.lit_table: its colour goes on past its outline, the
# table's own seen through it). The 10000-set's 10274: a clear medium (22-35°), read at 0.58
# and dropped so. Their own outlines lie on the crisp edges at 0.97 and 1.00 of their samples;
# the readings lit_table calls table on the 10864- and 10000-sets that are no piece, 0.00-0.54.
# A lit reading whose outline lies on the crisp edges at LIT_PIECE_EDGES is kept, in doubt (σ at
# least DOUBT_FLOOR_MM); named white, it is named clear when no part of it is darker than two
# clear walls pass (LIT_PIECE_DARK: 11118 1.06, 10274 0.74). The 9712-set's 9902, a white
# medium lit like the table (outline 0.99 on the edges), missed before, is kept so too; its
# dark open base (0.31) keeps it white (the first form named it clear).
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (11118, 10864, "small", "clear", (442.8, 359.9)),
    (10274, 10000, "medium", "clear", (314.0, 325.0)),
    (9902, 9712, "medium", "white", (476.5, 221.6)),
])
def test_a_piece_lit_like_the_table_with_a_crisp_outline_is_no_lit_table(seed, seed0, size,
                                                                         color, stern):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.color == color
    assert p.sigma_mm >= 3.0
    assert_no_sure_wrong_size(seed, seed0, size, color, stern, any_size=True)


# A clear large read as a medium from its stern on cloth or felt, its side wall past the reading
# greyer than the table (issue 4, session 40, clearsz50; clear pieces read one size short, the
# tip short, on a coloured table). The 10000-set's 10074 (cloth) and 10104 (felt), 1920×1080,
# and the 8560-set's 8731 (felt, 1280×720), all 10-22°: a clear large read as a medium at σ
# 47-82 mm, its stern within 3 mm and heading within 1° of the truth, the tip 7-9 mm short.
# The faint apex has no crisp steps on the nap (clear_tip_longer's edge share 0.11-0.28) and
# the strip past the tip keeps the table's shade, so no strip rule reached them. But the large
# is wider too, and its wall on the side the camera sees lies outside the medium's outline:
# the large from the stern turned 10° toward it has a strip at 0.62-0.65 of the table's
# saturation beside it, where clear readings at their size keep 0.84 or more
# (CLEAR_WALL_GREY, 0.75). Each is read at its size, set at the reading's stern and heading,
# never trusted (σ covers the medium), named clear.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (10074, 10000, (213.6, 415.0)),
    (10104, 10000, (185.6, 444.0)),
    (8731, 8560, (196.2, 397.5)),
])
def test_a_clear_large_whose_side_wall_shows_past_its_medium_reading_is_read_large(
        seed, seed0, stern):
    p = found(seed, "large", "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == "large" and p.color == "clear"
    assert p.sigma_mm > 1.5  # the size is the wall's grey, not a fit's
    assert_no_sure_wrong_size(seed, seed0, "large", "clear", stern, any_size=True)


# A black piece lit grey on a grey table read a size long (issue 4, session 40, opaque50; black
# pieces alone on laminate read one size long). The 10288-set's 10482: two black mediums on
# laminate (1920×1080, 22-35°) whose tips point at the light (headings 259° and 253°): their
# wide faces mirror it and are lit grey (named clear), and the fits took in each one's full
# shadow behind the stern, read as larges in doubt (σ 23 and 27 mm); the 10576-set's 10664, a
# black small read as a medium so (σ 11 mm). Refitted to the crisp edges, the true size lies
# with all of its outline on them and the read one with 0.84-0.89: the reading is taken a size
# shorter there (GREY_BLACK_EDGES_SHORTER), still in doubt (its place set on the edges, not
# fitted on the map), and not lengthened again by the strip passes after it.
# Trusted readings too (issue 4, session 51, lead61): the 13456-set's 13708, a black medium on
# laminate (1920×1080, 0-10°, heading 239°, the light ~8° from its heading) read as a clear
# large at cost 0.26, σ 0.3 mm: trusted, its stern 5.7 mm back in its shadow. Its medium
# refit lies whole on the edges (1.0), its large 0.938, darker than the table (0.53).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10482, 10288, "medium", (336.77, 514.6)),
    (10482, 10288, "medium", (436.91, 307.92)),
    (10664, 10576, "small", (385.52, 197.77)),
    (13708, 13456, "medium", (476.4, 501.2)),
])
def test_a_black_piece_lit_grey_that_took_its_shadow_in_is_read_a_size_shorter(seed, seed0, size,
                                                                                stern):
    p = found(seed, size, "black", stern, seed0=seed0)
    assert p is not None and p.size.value == size
    assert math.dist(p.pose.stern_mm, stern) < 3.0
    assert p.sigma_mm > 1.5  # set on the edges: in doubt
    assert_no_sure_wrong_size(seed, seed0, size, "black", stern)
    assert_no_false_piece(seed, seed0)


# ... but not a clear piece pointing away from the light (issue 4, session 40, merge of
# session 40; GREY_BLACK_LIGHT_DEG). The 8848-set's 8994: a clear medium on laminate
# (1920×1080, 10-22°) heading 72°, the light at ~230°, read at its size in doubt; its open
# base's inner outline lies whole on the crisp edges, dark inside (0.58), its own 5 samples
# short (0.9375): opaque50's rule read it as a small in the merge. A black piece's face
# mirrors the light and its shadow falls behind its stern only with its tip toward the light,
# so the rule asks only readings heading within 60° of it.
def test_a_clear_piece_pointing_away_from_the_light_is_not_read_shorter_on_its_edges():
    stern = (89.7, 461.6)
    p = found(8994, "medium", "clear", stern, seed0=8848)
    assert p is not None and p.size.value == "medium"
    assert_no_sure_wrong_size(8994, 8848, "medium", "clear", stern)


# A piece of the table's hue beside a piece found shows its colour on its lit faces only
# (issue 4, session 40 round 2, hues50; opaque pieces touching a piece of another hue, missed).
# The 8272-set's 8516 and the 8560-set's 8828: green smalls on green felt (1920×1080, 22-35°)
# touching a blue and a cyan small. Their true fits cost 0.06 and 0.095, but their shaded
# faces are the felt's hue, no more saturated, and not vivid: 0.35 and 0.27 of the outline
# lies in the colour area, under COLOUR_MIN_SHARE (0.7), and the colour pass beside the found
# neighbour (colours_left) dropped them. A clean fit (TABLE_HUED_COST) whose colour area is
# of the table's hue needs only TABLE_HUED_MIN_SHARE of its outline in colour; the reading is
# never trusted (σ 3 mm, as every reading of that pass), which is right for a piece seen on
# its lit faces alone. The 10864-set's 11036 is the same on wood: a yellow small under an
# orange large's side, its fit 0.051 with 0.39 of its outline in colour.
@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (8516, 8272, "green", (347.9, 243.4)),
    (8828, 8560, "green", (363.6, 482.6)),
    (11036, 10864, "yellow", (387.8, 511.5)),
])
def test_a_piece_of_the_tables_hue_beside_a_found_one_is_read_in_doubt(seed, seed0, color,
                                                                      stern):
    p = found(seed, "small", color, stern, seed0=seed0)
    assert p is not None and p.size.value == "small"
    assert math.dist(p.pose.stern_mm, stern) < 1.5
    assert p.sigma_mm > 1.5  # its shaded faces not seen in colour: never trusted
    assert_no_false_piece(seed, seed0)


# A clear piece on felt or cloth whose shaded face sank below its region's map, read there
# only at a good fit short of clean (issue 4, session 40 round 2, clearcloth50; clear pieces
# on felt or cloth plainly foreground yet missed). The 10288-set's 10466: a clear medium on
# cloth (1920×1080, 22-35°) beside a red piece; the 10864-set's 11151: a clear large alone on
# cloth (1280×720, 22-35°). No pass read them: the unscaled map's re-read (_clear_sunk) fitted
# their true poses, 0.3 and 1.5 mm off, but at cost 0.22, over CLEAR_SUNK_COST (0.15), and
# dropped them. Such a fit is kept last, where no later pass read a piece
# (CLEAR_SUNK_LATE_COST): taken at once it read the 11152-set's 11408, a clear large that a
# later pass reads at its size, as a medium. Kept in doubt (the fit is not clean).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10466, 10288, "medium", (123.47, 413.93)),
    (11151, 10864, "large", (299.17, 448.4)),
])
def test_a_sunk_clear_piece_on_cloth_fitted_short_of_clean_is_kept_last(seed, seed0, size,
                                                                          stern):
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.color == "clear"
    assert math.dist(p.pose.stern_mm, stern) < 3.0
    assert_clear_found_in_doubt(seed, seed0, size, stern)
    assert_no_false_piece(seed, seed0)


def test_a_clear_piece_a_later_pass_reads_is_not_taken_short_of_clean():
    stern = (177.75, 127.29)
    assert_no_sure_wrong_size(11408, 11152, "large", "clear", stern)
    assert_no_false_piece(11408, 11152)


# Never a wrong pose presented as certain (issue 4, session 41, trust51; trusted far-off
# readings). A white reading slid ahead onto its own face: the camera sees a little into its
# base (under open_base.BASE_ON_FACE_DEPTH_MM, so no_base_step is not asked), the fit took the
# hollow for table and put the stern on its far rim. The 11440-set's 11699: a white small
# beside a clear large (1280×720, 0-10°), base 2.3 mm deep as seen, its inside lit like the
# face ahead, the table behind it dark (0.42-0.65 of the inside's light): read 3.4 mm ahead
# at σ 0.6 mm. The 10864-set's 10900: a white small on wood read 1.2 mm ahead so at σ 0.3 mm.
# σ now covers a slide of the base's depth as seen (open_base.SLID_BEHIND_DARK).
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (11699, 11440, (182.6, 192.3)),
    (10900, 10864, (429.5, 206.4)),
])
def test_a_white_reading_ahead_of_its_hollow_is_not_trusted(seed, seed0, stern):
    p = found(seed, "small", "white", stern, seed0=seed0)
    assert p is not None and p.size.value == "small" and p.color == "white"
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(seed, seed0, "small", "white", stern, any_size=True)


# ... and a vivid or clear reading slid ahead onto its own lit face (issue 4, session 52,
# lead62): the 14608-set's 14759, a cyan medium on blue cloth against a black large's side
# (1280×720, 0-10°), seen 4.5 mm into its base, its hollow a dark band of its hue behind the
# reading: read 4.1 mm ahead at σ 0.3 mm. Its inside lit like the face ahead, the table
# behind darker than the table (open_base.SLID_HUED_DARK, SLID_HUED_SHADE): σ covers the
# depth. A right orange small on felt whose lit base has its shadow behind it, no darker than
# 0.92 of the table's light (the 13744-set's 13940), keeps its trust.
def test_a_vivid_reading_ahead_of_its_hollow_is_not_trusted():
    stern = (208.5, 221.6)
    p = found(14759, "medium", "cyan", stern, seed0=14608)
    assert p is not None and p.size.value == "medium" and p.color == "cyan"
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(14759, 14608, "medium", "cyan", stern, any_size=True)


def test_a_vivid_reading_whose_lit_base_has_its_shadow_behind_it_stays_trusted():
    assert_kept_trusted(13940, 13744, "small", "orange", (194.89, 513.72), named=True)


# ... and a white reading slid back onto its own shadow's ring (issue 4, session 57, white67;
# open_base.FACE_GAP_MM): the fit map holds a thin ring round the shadow behind the base and
# scores the band inside it as table, so the fit put the stern on the ring, the tip pulled
# back onto the map's end, its plastic beginning 2.8-4.0 mm past its rim as seen. The judge
# set 16048-16335's 16293 (a white small on the light laminate, 1280×720, 22-35°: read 3.3 mm
# off at σ 0.49 mm, a trusted far-off reading on caa1ec9), the check set's 5279 (a small, 2.9
# mm behind at σ 0.49 mm) and 5239 (a large, 2.7 mm behind at σ 0.27 mm): σ covers the gap.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (16293, 16048, "small", (479.84, 281.57)),
    (5279, 5104, "small", (294.52, 96.17)),
    (5239, 5104, "large", (265.83, 261.76)),
])
def test_a_white_reading_behind_where_its_plastic_begins_is_not_trusted(seed, seed0, size,
                                                                        stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "white"
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)


# ... and a vivid piece of its table's hue fitting worse than GOOD_COST (issue 4, session 58,
# lead68; detect.HUED_SIZE_DOUBT_COST): its shaded faces lost in the table, the fit may lie
# turned across what shows. The judge set 16624-16911's 16805: a green medium on green felt
# (1280×720, 0-10°) against a red large's base, read as a small turned 114° on its lit face at
# cost 0.431, σ 6.6 mm, σ° 12.9° (its tip 38 mm off, a wrong size the rules would trust on
# 5a949b6). σ covers every other size and σ° any heading, as past SIZE_DOUBT_COST.
def test_a_vivid_reading_of_its_tables_hue_fitting_badly_is_in_doubt_of_size_and_heading():
    assert_no_sure_wrong_size(16805, 16624, "medium", "green", (139.37, 454.50))


# ... and a reading named clear in doubt with a part as dark as black plastic, not alone
# (issue 4, session 59, lead69; detect._grey_black_named): its size is a fit to a grey taken
# for clear plastic. The judge set 16912-17199's 17036: a black medium on the laminate
# (1920×1080, 22-35°) touching an orange small's stern, read as a clear large at cost 0.226,
# σ 2.0 mm, its tip 8 mm past the medium's (a wrong size the rules would trust on 01516c9).
# σ covers the other sizes; the name stays clear, the dark part might be the neighbour's.
def test_a_clear_reading_in_doubt_as_dark_as_black_plastic_beside_another_is_in_doubt_of_size():
    assert_no_sure_wrong_size(17036, 16912, "medium", "black", (495.26, 273.38))


# ... but right white readings whose plastic begins nearest the gap keep their trust (guards,
# passing on caa1ec9): the 15760-set's 15789 (a large, its plastic 1.5 mm past its rim), the
# 13456-set's 13685 (a small seen 4.0 mm into its base, 1.04 mm measured offline) and the check
# set's 5270 (a faint small whose fit map scores 0.35-0.6 all over, 1.0 mm against its own level).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (15789, 15760, "large", (190.69, 484.16)),
    (13685, 13456, "small", (441.95, 292.73)),
    (5270, 5104, "small", (437.03, 402.88)),
])
def test_a_right_white_reading_whose_plastic_begins_at_its_rim_keeps_its_trust(seed, seed0,
                                                                               size, stern):
    assert_kept_trusted(seed, seed0, size, "white", stern, within_mm=1.5, named=True)


# ... a reading named white on a grey table that shows no white piece's shade and casts no
# shadow (detect.CLEAR_LIT_RING_MM's BARE_WHITE note): nothing tells white from clear, and a
# clear piece's outline is its walls' refraction. The 10864-set's 11148: a clear medium on
# laminate (1920×1080, 10-22°), its darkest tenth 0.72 of the table's light (over
# CLEAR_LIT_INSIDE's top 0.68, so named white), no shadow round it (0.87): read 3.1 mm off at
# σ 0.3 mm. Still named white (CLEAR_LIT_INSIDE's top kept: 6411's white medium lies at 0.70,
# one clear piece over it is too little to move it), in doubt now; the white pieces lit like
# laminate stay white (test_a_white_piece_lit_like_laminate_stays_white).
def test_a_white_reading_with_neither_shade_nor_shadow_is_not_trusted():
    stern = (196.6, 347.4)
    p = found(11148, "medium", "clear", stern, seed0=10864)
    assert p is not None and p.size.value == "medium"
    assert p.sigma_mm > 1.5
    assert_no_sure_wrong_size(11148, 10864, "medium", "clear", stern, any_size=True)


# ... two readings of one colour, both in doubt, touching, left apart by the one-piece shares
# (detect.PAIR_DOUBT_SHARE): the 10576-set's 10760, a yellow medium beside a cyan small on
# wood (1920×1080, 22-35°) read as two yellow smalls (0.27 and 0.20 of each in the other's
# longer footprint), the one taken for the medium at σ 9.6 mm, its stern 30 mm off. Each σ now
# covers the other reading.
def test_two_touching_readings_of_one_colour_in_doubt_cover_each_other():
    assert_no_sure_wrong_size(10760, 10576, "medium", "yellow", (477.3, 319.3))


# A clear large read as a medium whose large's tip ends against a coloured neighbour, its side
# wall still greyer than the table away from that neighbour (issue 4, session 41, cleartip51;
# clear pieces read one size short, the tip short, on a coloured table). The 9136-set's 9248
# (felt) and 9296 (cloth), 1920×1080, 22-35°: a clear large read as a medium at σ 46 and
# 76 mm, its stern within 6 mm and heading within 1° of the truth, the tip 11-12 mm short. The
# large from the stern turned 10° toward the wall the camera sees has a strip at 0.65 of the
# table's saturation beside it (clearsz50's CLEAR_WALL_GREY cue), but its tip reaches another
# reading (a red large's side, a blue medium's), and clear_wall_longer's tip guard kept the
# medium: a pale neighbour would grey the strip as well. Cut 8 mm clear of the readings near
# it, 0.86 and 0.74 of the strip remain at 0.66 and 0.70 of the table's saturation: the grey
# is the piece's own wall (CLEAR_WALL_AWAY_MM, CLEAR_WALL_AWAY). Each is read at its size, set
# at the reading's stern and heading, never trusted (σ covers the medium), named clear. The
# 10288-set's 10538 (a clear medium read as a small, its turned medium's strip 0.67 whole but
# 0.89 away from its neighbour) keeps its reading: there the grey is the neighbour's.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (9248, 9136, (360.7, 396.9)),
])
def test_a_clear_large_whose_wall_is_grey_away_from_the_piece_at_its_tip_is_read_large(
        seed, seed0, stern):
    p = found(seed, "large", "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == "large" and p.color == "clear"
    assert p.sigma_mm > 1.5  # the size is the wall's grey, not a fit's
    assert_no_sure_wrong_size(seed, seed0, "large", "clear", stern, any_size=True)
    assert_no_false_piece(seed, seed0)


# A clear piece read one size short from its tip whose open base shows past the stern, greyer
# than the table beside it (issue 4, session 41, cleartip51; clear pieces read one size short,
# the stern short, on a coloured table). The 11152-set's 11195 (a clear large on felt read as
# a medium, 1280×720, 0-10°) and 11395 (a clear medium on wood read as a small, 1280×720,
# 10-22°), the 5104-set's 5311 (a clear medium on cloth read as a small, 1280×720, 10-22°)
# and the 10000-set's 10157 (a clear large on felt read as a medium, 1280×720, 0-10°): each
# read from its tip (within 4 mm, heading within 4°), the stern 6-11 mm short, σ 20-72 mm.
# The longer size from the tip has a strip past the stern (the base's back edge and the table
# seen through the open base) at 0.79-0.81 of the table's saturation beside it (10157's 0.90
# straight on, 0.83 turned 10° about the tip), where the clear
# readings at their size on the 10000- and 9136-sets keep 0.91 or more (CLEAR_BASE_GREY,
# 0.85). Each is read at its size from the tip as read, never trusted (σ covers the shorter
# reading), named clear.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (11195, 11152, "large", (389.9, 171.2)),
    (11395, 11152, "medium", (217.0, 382.9)),
    (5311, 5104, "medium", (154.2, 208.4)),
    (10157, 10000, "large", (488.7, 95.4)),
])
def test_a_clear_piece_whose_open_base_shows_past_its_short_stern_is_read_at_its_size(
        seed, seed0, size, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, size, stern)  # the size is the base's grey


# A clear piece read as a small lying across it, turned on its open base (issue 4, session 43,
# clearsize53; clear pieces read a size short, turned 100-150°: 25 of the 89 clear wrong sizes
# in the base runs, 14 of the 16 sets, mostly on wood). The 11728-set's 11800 (a clear large
# on wood, 1920×1080, 0-10°) and 11978 (a clear large on wood, 1920×1080, 22-35°), read as
# smalls turned 103° and 147° from the truth, their sterns 17-23 mm ahead of the true one, and
# 11733 (a clear medium on wood, 1280×720, 22-35°) read as a small turned 148°: each small lies
# on the open base and one wall, the rest of the piece (the walls to the faint apex) is the
# wood seen through clear plastic, with no crisp edge and nothing on the fit map, and every
# other rule keeps the reading's heading. Over the poses a piece the reading lies across
# would have (its stern 10-30 mm ahead and 5-20 mm aside, turned 100-150° toward that side),
# the true size's strip past the reading is at 0.74-0.83 of the table's shade beside it
# (11733's large, running onto the table past the apex, 0.89), where the clear readings at
# their size in doubt keep 0.88 or more (CLEAR_ACROSS_DARK, 0.84). Each is read at its size,
# set at that pose, never trusted (σ covers the small), named clear.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (11800, 11728, "large", (482.3, 439.15)),
    (11978, 11728, "large", (412.05, 184.85)),
    (11733, 11728, "medium", (313.16, 201.02)),
])
def test_a_clear_piece_read_as_a_small_lying_across_it_is_read_at_its_size(
        seed, seed0, size, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, size, stern)  # the size is the view's shade


# A white piece lit like the laminate alone (issue 4, session 41, whitelam51; white pieces
# alone on laminate, missed: 16 on the tuning sets). With no piece beside it its region is its
# shaded face and shadow, whose middle lies 5-15 mm off the piece's toward the shadow; no pass
# fits anything there and the region is left empty (white_beside_found asks only regions a
# piece was read in). Its outline is crisp: refitted to the crisp edges from starts round the
# region (edge_refits.white_alone), one size lies whole on them and beats the others; it is
# read in doubt, named white, when lit like the table and named white, or, named clear, its
# lit face is brighter than the table (clear plastic dims it). The 10576-set's 10605 (large,
# 720p) and 10770 (small, 1080p, named clear: its shaded face the larger), the 10864-set's
# 11085 (large, 720p) and the 8560-set's 8673 (medium, 720p, named clear), all 10-35°.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10605, 10576, "large", (284.74, 440.67)),
    (10770, 10576, "small", (254.18, 495.76)),
    (11085, 10864, "large", (394.02, 504.75)),
    (8673, 8560, "medium", (513.34, 426.31)),
])
def test_a_white_piece_lit_like_the_laminate_alone_is_read(seed, seed0, size, stern):
    assert_white_read_from_edges(seed, seed0, size, stern)


# ... and when its outline lies only nearly whole on the crisp edges (issue 4, session 43,
# white53; white pieces alone on laminate, missed: the largest class of white misses, 29 of
# 64 on laminate, 20 of them alone). Lit like the laminate, its lit side's edge is lost against
# the table, so its true size's refit lies 0.91-0.96 on the edges (under WHITE_EDGES_WHOLE)
# while still beating every other size's by WHITE_EDGES_MARGIN, and its lit face is the
# table's (75th percentile 0.89-1.06, under WHITE_ALONE_FACE): no rule read it. Read, in doubt,
# when it lies WHITE_ALONE_NEAR_WHOLE (0.9) on the edges and classify_color names it white
# (the nearly whole refits on the 10000-set's laminate that are no piece are all named
# clear). The 10288-set's 10401 (medium, 720p, 22-35°) and the 9712-set's 9873 (large, 720p,
# 22-35°), 9916 (small, 1080p, 0-10°) and 9969 (small, 720p, 22-35°, chits and a die in the
# scene); all four missed on 039e87b.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10401, 10288, "medium", (191.67, 293.12)),
    (9873, 9712, "large", (463.67, 431.26)),
    (9916, 9712, "small", (217.5, 111.2)),
    (9969, 9712, "small", (496.77, 380.75)),
])
def test_a_white_piece_lit_like_the_laminate_alone_nearly_whole_on_its_edges_is_read(
        seed, seed0, size, stern):
    assert_white_read_from_edges(seed, seed0, size, stern)


# ... and when its outline lies whole on the crisp edges but its lit face is the table's
# (issue 4, session 57, recallwhite67): the whole tier's lit-face test (WHITE_ALONE_FACE, 75th
# percentile 1.1) dropped it, where a refit only nearly whole is asked the nearly whole tier's
# tests instead. The 12880-set's 13011: a white large alone on the laminate (1280×720,
# 22-35°), its large refit 0.975 on the edges, named white, 75th percentile 1.083; missed on
# caa1ec9. Read in doubt at its size, as the nearly whole tier reads.
def test_a_white_piece_alone_whole_on_its_edges_its_lit_face_the_laminates_is_read():
    assert_white_read_from_edges(13011, 12880, "large", (190.0, 302.43))


# ... but not a standing white piece's shadow (edge_refits.WHITE_ALONE_NEAR_SHADE; issue 4,
# session 43, white53): the 9712-set's 9837, a white small standing on the laminate (1280×720,
# 22-35°), not read standing; a lying small refitted round its region lies 0.9 on the edges,
# named white, and was read as a false white small with the nearly whole bar alone. Its inset
# footprint takes in the standing piece's long shadow (darkest tenth 0.58 of the table's
# shade), which a lying white piece's shaded face never is (0.68-0.86).
def test_a_standing_white_piece_is_no_white_piece_alone_nearly_whole():
    assert_no_false_piece(9837, 9712)


# ... nor a standing white piece's faces read heading from the camera's foot
# (edge_refits.WHITE_ALONE_NEAR_RADIAL_DEG; issue 4, session 43, the lead's mends on merge53):
# two white mediums standing on the laminate (1280×720, 22-35°), not read standing, whose
# lying refits lay nearly whole on the edges with a lying piece's shades: the 8848-set's 8877
# (a medium heading 11° from straight away from the camera's foot) and the 8560-set's 8589 (a
# small at 41°), false white pieces once white53 was merged (its branch ran neither set). The
# white pieces the tier reads head 100-157° from it.
@pytest.mark.parametrize("seed, seed0", [(8877, 8848), (8589, 8560)])
def test_a_standing_white_piece_read_from_the_camera_is_no_white_piece_alone_nearly_whole(
        seed, seed0):
    assert_no_false_piece(seed, seed0)


# ... nor a white die showing few pips (edge_refits.WHITE_ALONE_NEAR_FACE; issue 4, session
# 43, white53): the 10576-set's 10763 (laminate, 1280×720, 0-10°), a 16 mm white die showing
# two pips (under WHITE_ALONE_DARK_SHARE), whose small refit lies 0.938 on its edges, named
# white: read as a false white small with the nearly whole bar and the shade floor alone. Its
# lit top fills the inset footprint (first quartile 1.03 of the table's shade), where a lying
# white piece shows its shaded face (0.84-0.89).
def test_a_white_die_with_few_pips_is_no_white_piece_alone_nearly_whole():
    assert_no_false_piece(10763, 10576)


# ... but not a white die (edge_refits.WHITE_ALONE_DARK): the 10000-set's 10212, a 16 mm white
# die alone on laminate (1920×1080, 10-22°), whose region no pass reads; a small refitted to its
# crisp edges lies on them at 0.963 of its samples (just under WHITE_EDGES_WHOLE), lit like the
# table and named white: read with the share at 0.95, it was a false white small. Its black
# pips are darker than a white piece's shaded face ever is (0.036 of the footprint under 0.4).
def test_a_white_die_alone_on_the_laminate_is_no_white_piece():
    _die_read_doubtful(10212, 10000, "white")
    assert_no_false_piece(10212, 10000)


# ... nor a fingertip and its shadow beside a hand (edge_refits.WHITE_ALONE_HAND_MM): the check
# set 5104's 5221 (laminate, 1280×720, 10-22°), a hand whose fingertip, lit brighter than the
# table, and its shadow make a region of their own that no pass reads; a small refitted to
# their crisp edges lay whole on them and was read as a false white small.
def test_a_fingertip_and_its_shadow_are_no_white_piece_alone():
    assert_no_false_piece(5221, 5104)


# Two touching pieces of two hues are one colour area: the clean fit of one leaves the other's
# part out (issue 4, session 41, region51; opaque pieces touching a piece of another hue, the
# right fit clean but lost in the region's choice). The 10000-set's 10016: a yellow large on
# wood (1920×1080, 22-35°) against an orange large, its true fit at 0.02 leaving 0.32 of the
# yellow-orange area out (beside the found orange, colours_left); in hands' regions the
# vivid mask is not parted at all: the 8560-set's 8672 (a blue large against a red medium,
# 0.09, 0.37 out), the 10576-set's 10763 (a blue medium against a cyan large, 0.027, 0.63),
# the 9136-set's 9173 (a green medium against a red one, 0.069, 0.49) and 9218 (a purple
# large against a blue one, 0.12, 0.53). Each was dropped for leaving over COLOUR_MAX_LEFT
# of its area out. A clean fit (explain.OWN_HUE_COST) is asked what it leaves of the area's
# pixels of its own hue (within OWN_HUE_STEP of its median): 0.00-0.01, the rest is the
# neighbour's hue. The 10288-set's 10535: a yellow small between a cyan and a green medium
# beside a hand, one area: the second and third pieces of an area of several hues, clean
# fits of other hues beside the one picked, are read too (explain._other_hues). The
# 10576-set's 10775 (found in the set's run): an orange small against a yellow medium on
# cloth, read so beside it (and the medium, read as a large at σ 99 mm, is read at its size).
# Read as every reading in colour is, never trusted (σ ≥ 3 mm).
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern", "clean"), [
    (8672, 8560, "large", "blue", (425.7, 338.0), False),
    (10763, 10576, "medium", "blue", (435.3, 315.0), False),
    (9173, 9136, "medium", "green", (339.1, 173.7), False),
    (9218, 9136, "large", "purple", (519.6, 297.7), False),
    (10535, 10288, "small", "yellow", (191.4, 285.9), True),
    (10535, 10288, "medium", "cyan", (176.6, 267.6), True),
    (10535, 10288, "medium", "green", (216.5, 298.5), True),
    (10775, 10576, "small", "orange", (321.7, 419.9), True),
])
def test_a_clean_fit_in_a_colour_area_of_two_hues_is_read_in_doubt(seed, seed0, size, color,
                                                                   stern, clean):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == color
    assert math.dist(p.pose.stern_mm, stern) < 3.0  # (10775's 1.9 mm, at σ 3 mm or more)
    assert p.sigma_mm > 1.5  # its area joined to its neighbour's: never trusted
    if clean:  # (the others' scenes have a false piece of another class, before and after)
        assert_no_false_piece(seed, seed0)
    if seed == 10775:
        assert found(seed, "medium", "yellow", (339.7, 416.2), seed0=seed0).size.value == "medium"


# A clean reading beside a found piece hides its outline along the neighbour's (issue 4,
# session 41, region51; as above). The 10864-set's 10907 (a yellow large against a red small,
# 1280×720, 0-10°), the 9712-set's 9797 (a yellow small against a green medium) and the
# 8560-set's 8585 (a red small against a cyan small), all on cloth: colours_left read each
# at its place at cost 0.035, 0.011 and 0.066, but 0.52, 0.60 and 0.54 of the outline hidden,
# over APART_MAX_HIDDEN (0.5; the false red medium it was set for hid 0.66), and dropped it.
# A reading that clean (colour_areas.LEFT_CLEAN_COST) may hide up to LONE_MAX_HIDDEN.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10907, 10864, "large", "yellow", (406.1, 246.3)),
    (9797, 9712, "small", "yellow", (387.9, 283.1)),
    (8585, 8560, "small", "red", (176.0, 381.7)),
])
def test_a_clean_reading_beside_a_found_piece_may_hide_its_side(seed, seed0, size, color,
                                                               stern):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == color
    assert math.dist(p.pose.stern_mm, stern) < 1.5
    assert p.sigma_mm > 1.5
    assert_no_false_piece(seed, seed0)


# ... but only where neither map reads a piece the plain way (issue 4, session 41, the lead's
# mend where region51 met the 10288- and 8272-sets, which it had not run in full). The
# 10288-set's 10292, a purple medium on laminate, 22-35°, its tip under a yellow large's side:
# on the scaled map a small at its stern fits at 0.004 hiding over half its outline; read
# first, it was taken and the medium (cost 0.033 on the unscaled map, read before at σ 3 mm)
# was lost. The 8272-set's 8381, a cyan large between two reds: a medium at 0.019 on its own
# hue was taken on the scaled map, and the large (0.067, read before at σ 3 mm) lost.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10292, 10288, "medium", "purple", (399.8, 400.1)),
    (8381, 8272, "large", "cyan", (293.7, 124.8)),
])
def test_a_lenient_colour_reading_gives_way_to_a_plain_one(seed, seed0, size, color, stern):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == color
    assert math.dist(p.pose.stern_mm, stern) < 1.5


# A black piece lit grey named clear (issue 4, session 42, black52; colour black read as clear:
# 19 lines over the thirteen tuning and two check sets, every one on laminate). A glossy black
# face turned to the light mirrors it, a grey ×0.5-0.9 the table's, and the table estimate
# under the piece took the dark piece in, so its median passed as clear plastic's dimmer table.
# The 10576-set's 10681 (a black medium, 1280×720, 10-22°), the 9136-set's 9327 (a medium,
# 22-35°, beside a clear medium), the 11440-set's 11466 (a large, 1920×1080) and the 8560-set's
# 8736 (a medium): each keeps a face turned from the light near black (the 5th percentile of
# its inset footprint 0.12-0.28 of the table round it), darker than a clear piece lets the
# table through (0.54-0.60 there): named black (colors.CLEAR_DARKEST_SHARE), the name alone
# (place, size and σ as they were).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10681, 10576, "medium", (461.57, 355.72)),
    (9327, 9136, "medium", (188.33, 263.26)),
    (11466, 11440, "large", (109.06, 514.92)),
    (8736, 8560, "medium", (347.36, 391.21)),
])
def test_a_black_piece_lit_grey_with_a_near_black_face_is_named_black(seed, seed0, size, stern):
    p = found(seed, size, "black", stern, seed0=seed0)
    assert p is not None and p.color == "black"
    assert_no_sure_wrong_size(seed, seed0, size, "black", stern)


# ... but a clear piece on laminate is still clear: its darkest part only dims the table. The
# 9136-set's 9327 and the 10288-set's 10482 (clear mediums beside the black pieces above and
# in test_a_black_piece_lit_grey_that_took_its_shadow_in_is_read_a_size_shorter) and the
# 11152-set's 11397 (a clear medium read at σ 99 mm beside a black one still named clear:
# uniform faces, 0.47 of the table at the darkest, left).
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (9327, 9136, (227.31, 220.17)),
    (10482, 10288, (349.81, 343.86)),
    (11397, 11152, (461.8, 328.88)),
])
def test_a_clear_piece_on_laminate_is_not_named_black(seed, seed0, stern):
    p = found(seed, "medium", "clear", stern, seed0=seed0)
    assert p is not None and p.color == "clear"


# A clear piece lit like the laminate all over is named clear, not white (issue 4, session 42,
# clearwhite52; colour). Named white by its grey (colours.name_color: on a grey table a median
# at 0.85 of the table's or more with bright faces), and over _lit_clear's darkest-tenth window
# (CLEAR_LIT_INSIDE: 0.55-0.68): the 11152-set's 11254 small (darkest tenth 0.72, ring 0.85,
# median 0.95) and 11262 small, the 10288-set's 10358 large (0.74, 0.89, 0.93), the
# 10864-set's 11148 medium (0.72, 0.87, 0.91; read 3.1 mm off, so in doubt: σ at least
# DOUBT_FLOOR_MM), the check set 5968's 5995 small (1.06, 0.77, 1.10). A clear piece passes
# the table's light through its walls and casts no shadow; white plastic lit like the table
# casts one (5995's white medium: ring 0.56) or is brighter than it (8697's white large,
# ring 0.80, median 1.19), and stays white (detect.CLEAR_UNIFORM_*).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (11254, 11152, "small", (293.7, 385.1)),
    (11262, 11152, "small", (307.9, 439.7)),
    (10358, 10288, "large", (459.3, 101.2)),
    (11148, 10864, "medium", (196.6, 347.4)),
    (5995, 5968, "small", (499.8, 399.0)),
])
def test_a_clear_piece_lit_like_the_laminate_all_over_is_named_clear(seed, seed0, size, stern):
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p is not None and p.color == "clear"
    assert p.sigma_mm > 1.5  # its outline is its walls' refraction: never trusted
    assert_no_sure_wrong_size(seed, seed0, size, "clear", stern)
    assert_no_false_piece(seed, seed0)


# ... and a white piece whose darkest tenth is under CLEAR_LIT_INSIDE's top, its open base or
# shaded face, is not asked (merge52, the lead's mend: the 8272-set's 8305, a white small read
# as a medium on its lit face, darkest tenth 0.38, ring 0.96, median 0.81, was named clear).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (8697, 8560, "large", (477.9, 222.4)),
    (5995, 5968, "medium", (124.6, 151.7)),
    (8305, 8272, "small", (473.0, 401.0)),
])
def test_a_white_piece_lit_like_the_laminate_stays_white(seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.color == "white"


# A clear piece on laminate whose outline breaks where its faces are lit like the table, seen by
# its open base (issue 4, session 42, clearmiss52; missed clear pieces, the laminate class with
# a broken outline). The 11440-set's 11482 (a clear large alone, 1920×1080, 0-10°), the
# 11728-set's 11735 (a clear medium, 1280×720, 0-10°) and the 5104-set's 5363 (a clear small,
# 1280×720, 0-10°): no crisp area held them whole and no pass made a reading within 6 mm of
# them (the fit at 11482's true pose costs 1.08 on the score map). Their open bases show as a
# white piece's does, the view stepping into them in every lane and the crisp edges following
# the outline ahead, but lighter (0.58-0.65 of the table's light; white pieces' hollows
# 0.29-0.44): base_quad's reading from the hollow, at the lighter levels of
# detect.CLEAR_BASE_LEVELS, named clear. Read from the quad: in doubt, never trusted.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (11482, 11440, "large", (358.9, 195.9)),
    (11735, 11728, "medium", (263.6, 289.9)),
    (5363, 5104, "small", (168.5, 142.7)),
])
def test_a_clear_piece_with_a_broken_outline_is_read_from_its_open_base(seed, seed0, size,
                                                                        stern):
    assert_clear_found_in_doubt(seed, seed0, size, stern)
    p = found(seed, size, "clear", stern, seed0=seed0)
    assert p.size.value == size and math.dist(p.pose.stern_mm, stern) < 2.0
    assert_no_false_piece(seed, seed0)


# ... but a dark quad with edges ahead that is no clear piece's hollow is not read so (as
# above): the 9136-set's 9273, an upright clear small, its base square and faces ahead heading
# 5° off the direction away from the camera's foot (detect.CLEAR_BASE_RADIAL_DEG); the
# 11440-set's 11487, a white die's shaded side and shadow, the fit map's foreground over 0.87
# of the reading's footprint (CLEAR_BASE_FG_MAX); the 11728-set's 11912, a black medium's face
# (hollow 0.13-0.17 of the table's light, under base_quad.BASE_DARK), read as a clear small.
def test_an_upright_clear_pieces_base_is_no_lying_clear_piece():
    r, det = bench_scene(9273, 9136)
    (up,) = r.truth["upright"]
    assert all(math.dist(p.pose.stern_mm, up["center"]) > 15 for p in det.pieces)
    assert_no_false_piece(9273, 9136)


def test_a_dies_side_or_a_black_face_is_no_clear_pieces_hollow():
    assert_no_false_piece(11487, 11440)
    _r, det = bench_scene(11912, 11728)
    assert not any(p.color == "clear" and math.dist(p.pose.stern_mm, (278.4, 334.4)) < 5
                   for p in det.pieces)


# A white piece read a size short, not yet in doubt when its size is asked (issue 4, session
# 42, whitesize52; wrong sizes of white pieces, ~60 on the fifteen base runs, the largest
# sub-class on laminate a medium read as a small or a large as a medium at σ 19.8-21 mm).
# Lit like the laminate, its lit end is lost on the fit map and explain_region reads a shorter
# size inside it at a fit good enough to be in no doubt when edge_refits.white_size_by_edges
# asks its size; detect._piece raises σ later (its face goes on past its tip), at the wrong
# size. Refitted to the crisp edges the true size lies whole on them and beats the read one
# (0.975-1.0 against 0.81-0.83), so a white reading shorter than the longest whose face goes
# on past its tip is asked too, for a longer size only (WHITE_EDGES_ASK_SHORT): the
# 10864-set's 10915 (a medium, 1280×720, 10-22°) and the check set 5968's 6154 (a large read
# as a small, 1920×1080, 0-10°). Where the piece was read
# twice, its shaded face or shadow a second reading in doubt half or more inside the true
# size's outline, that second reading held the swap off; it is the same piece read again and
# gives way (WHITE_EDGES_AGAIN): the 11440-set's 11678 (a white small 0.61 inside), the
# 9712-set's 9916 (a black small 0.67 inside, a false piece before), the check set 5104's
# 5372 (two white smalls). And a neighbour grazing the true outline by a sliver is fitting
# noise (WHITE_EDGES_SLIVER): 5104's 5180 against a yellow large. And on a coloured table too
# (WHITE_EDGES_COLOURED; the rule asked grey tables only): the 11728-set's 11729, a large on
# felt read as a medium in doubt, and the 8272-set's 8273, a small on cloth read as a medium
# (both 1280×720, 0-10°). Each is read at its size in doubt (its place from the edges, not
# fitted on the map).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10915, 10864, "medium", (270.40, 510.93)),
    (6154, 5968, "large", (303.75, 280.40)),
    (11678, 11440, "medium", (336.17, 249.60)),
    (9916, 9712, "medium", (360.56, 467.44)),
    (5372, 5104, "medium", (270.17, 374.16)),
    (5180, 5104, "medium", (265.02, 384.47)),
    (11729, 11728, "large", (257.78, 311.54)),
    (8273, 8272, "small", (138.71, 436.62)),
])
def test_a_white_piece_read_short_is_read_at_the_size_whole_on_its_crisp_edges(
        seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.color == "white" and p.size.value == size
    # 0.1-1.5 mm from the truth; 5180's 4.0 mm (its refit turned 4° on the laminate's edges)
    assert math.dist(p.pose.stern_mm, stern) < 4.5
    assert p.sigma_mm > 1.5  # its size from the edges, its place not fitted: never trusted
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)
    if seed == 9916:
        assert_no_false_piece(seed, seed0)


# issue 4, session 42, trust52; readings the rules would trust at a wrong size. The 12016-set's
# 12173 (1280×720, 0-10°, laminate): a yellow small and a red medium lying tip to tip, read by
# explain.explain_region as a medium and a large at σ 1.1 and 0.5 mm (no other size held
# there), each stern 3.5 and 6.4 mm behind the true one: the fit ran past the base onto the
# table and the piece's shaded back. A vivid piece's hue holds to its stern (its shaded stern
# face keeps it: over 2150 trusted right vivid readings of two sets, 0.16 or more of the last
# 3 mm, purple's the lowest); these readings' last 3 mm hold 0.05 and 0.00 of it, so σ covers
# the other sizes (detect.VIVID_STERN_END_SHARE): the rules answer "in doubt".
@pytest.mark.parametrize(("size", "color", "stern"), [
    ("small", "yellow", (509.2, 214.4)),
    ("medium", "red", (534.0, 206.2)),
])
def test_a_vivid_reading_whose_stern_end_lacks_its_hue_is_not_trusted(size, color, stern):
    assert_no_sure_wrong_size(12173, 12016, size, color, stern)


# issue 4, session 42, trust52; readings the rules would trust at a wrong size. The 12016-set's
# 12158 (1920×1080, 22-35°, blue cloth): a clear medium whose stern end lies against an orange
# piece mostly under a hand; explain.explain_region read the part seen as a small at σ 0.8 mm,
# its stern 10.3 mm ahead. A reading shorter than the longest whose stern meets a hand's
# region (0.96 of the 4 mm lane behind its stern; no right trusted reading of two sets over
# 0.48) may go on under the hand: σ covers the other sizes (detect.HAND_STERN_SHARE).
def test_a_short_reading_whose_stern_meets_a_hand_is_not_trusted():
    assert_no_sure_wrong_size(12158, 12016, "medium", "clear", (415.7, 304.1))


# issue 4, session 44, lead54; white pieces on wood missed: the camera sees into the open base,
# whose hollow scores as shadow, so the region stops at the base and the fit from its tips
# misses every stern sample (the 12304-set's 12511, a small: cost 0.43; the 12016-set's 12263,
# a medium: 0.43), over GOOD_COST, and no pass read the region. Without the stern's misses the
# fits cost 0.01 and 0.06 with the hollow seen (explain.piece_on_open_base): read at their size,
# named white, in place, and the scene holds no false piece.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (12511, 12304, "small", (208.9, 107.4)),    # 1280×720, 10-22°, wood
    (12263, 12016, "medium", (168.0, 296.0)),   # 1280×720, 0-10°, wood
])
def test_a_white_piece_whose_region_stops_at_its_open_base_is_found(seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "white"
    assert math.dist(p.pose.stern_mm, stern) < 1.5
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern)
    assert_no_false_piece(seed, seed0)


# issue 4, session 44, trust54; a reading the rules would trust at a wrong size. The 12304-set's
# 12512 (1920×1080, 22-35°, green felt): a green medium whose tip lies under an orange large,
# read by colour_areas.colours_left as a small turned 127° from it, its worse end 38 mm off at
# σ 3.0 mm / 1.8°: a piece of the table's hue whose lit faces alone are read (its shaded faces
# are the felt's hue). Such a reading's σ covers a piece of any size at any turn about it
# (colour_areas.TABLE_HUED_COST's second note): the rules answer "in doubt".
def test_a_piece_of_the_tables_hue_read_beside_a_piece_found_covers_any_turn():
    assert_no_sure_wrong_size(12512, 12304, "medium", "green", (121.4, 473.0), any_size=True)


# issue 4, session 44, trust54; a reading the rules would trust far off. The 11728-set's 11747
# (1280×720, 0-10°, blue cloth): an orange medium whose stern faces glare, read 3.2 mm short at
# σ 0.8 mm, the glare read as an orange small across its stern at σ 1.3 mm (a false piece the
# rules would trust). The small's footprint is 0.35 as saturated as the medium's; right pairs
# of one colour touching, 0.57 and over on eight sets (detect.GLARE_SAT_RATIO): the small's σ
# covers the medium, the medium's the other sizes.
def test_a_glare_read_as_a_piece_of_its_colour_is_not_trusted():
    assert_no_sure_wrong_size(11747, 11728, "medium", "orange", (128.7, 227.6), any_size=True)
    _r, det = bench_scene(11747, 11728)
    (pale,) = [p for p in det.pieces if p.size.value == "small" and p.color == "orange"]
    assert pale.sigma_mm > 1.5


# issue 4, session 45, trust55; a trusted reading whose tip hides against a neighbour. The
# 12592-set's 12611 (1280×720, 0-10°, laminate): a yellow small whose tip touches a purple
# large's side, read as a medium at σ 0.56 mm, its stern 2 mm behind, the extra length hidden
# against the large (a fit there has no edge to stop its tip). 0.47 of the reading's tip strip
# (past the small's length from its stern) lies on the large's reading; right trusted readings
# of touching scenes, 0.07 at most (detect.TIP_HIDDEN_SHARE): its σ covers the shorter sizes.
def test_a_trusted_reading_whose_tip_runs_into_a_neighbour_is_in_doubt():
    assert_no_sure_wrong_size(12611, 12592, "small", "yellow", (438.8, 299.1))
    _r, det = bench_scene(12611, 12592)
    large = [p for p in det.pieces if p.size.value == "large" and p.color == "purple"]
    assert len(large) == 1 and large[0].sigma_mm <= 1.5  # the neighbour stays usable


# issue 4, session 44, size54; vivid pieces read a size long, the fit run past the base. The
# 12304-set's 12332 (1920×1080, 22-35°) and the 11440-set's 11653 (1280×720, 10-22°): yellow
# mediums on blue cloth, the open base's lit end pale past the stern, read as larges 6-8 mm
# behind the stern, in doubt (σ 10.2, 19.8 mm). Each reading's last 3 mm hold 0.00 of its hue
# and are the table (0.78 of them within 25 levels of its estimate); the medium from its tip
# holds the hue at its stern end (0.96-1.0): read at that size, named as it was, σ covering
# the longer (detect.VIVID_SHORTER_HOLDS, VIVID_END_TABLE, _hue_holds_shorter).
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (12332, 12304, "medium", "yellow", (214.1, 182.0)),
    (11653, 11440, "medium", "yellow", (416.2, 382.8)),
])
def test_a_vivid_reading_in_doubt_whose_stern_end_lacks_its_hue_is_read_shorter(
        seed, seed0, size, color, stern):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.color == color and p.size.value == size
    assert p.sigma_mm > 1.5  # its size from its hue, not a fit: never trusted
    assert_no_sure_wrong_size(seed, seed0, size, color, stern, any_size=True)


# issue 4, session 44, size54; the guard of the rule above. Right readings in doubt whose stern
# end lacks their hue, their own stern face shaded off it, their base rim lit or their open
# base dark, none of it the table (0.00-0.01 of the end within 25 levels of its estimate): the
# 12304-set's 12317 and 12395, purple larges on wood, the 12016-set's 12122, a green large on
# blue cloth, the 11728-set's 11905, an orange large beside a hand, the 11440-set's 11720, a
# green medium on wood. Without VIVID_END_TABLE they were read a size short.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (12317, 12304, "large", "purple", (360.8, 243.0)),
    (12395, 12304, "large", "purple", (78.0, 289.8)),
    (12122, 12016, "large", "green", (443.4, 321.6)),
    (11905, 11728, "large", "orange", (293.3, 380.9)),
    (11720, 11440, "medium", "green", (229.5, 414.4)),
])
def test_a_vivid_reading_whose_shaded_stern_face_lacks_its_hue_keeps_its_size(
        seed, seed0, size, color, stern):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.size.value == size


# A clear piece lit like the grey table (issue 4, session 44, clearmiss54;
# edge_refits.clear_beside_found): clear plastic darkens the laminate as a shadow does (its
# crisp area's median shade 0.64-0.87 of the table's), so the score map takes it for table and
# no pass proposes it; its crisp area (its edge band and inside) is whole, and a lying piece
# refitted to the crisp edges from its axis lies whole on them. The 10576-set's 10731 (a clear
# medium), the 11440-set's 11546 and 11579, the 11152-set's 11237, the check set 5968's 6107
# (clear smalls), the 12016-set's 12134 (a clear medium, its black small neighbour read as a
# large before), and two black larges lit grey, the 9424-set's 9457 and the 11152-set's 11310
# (named black at the end). Every one missed on 69d2769; read in doubt (from the edges).
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10731, 10576, "medium", "clear", (204.2, 334.8)),
    (11546, 11440, "small", "clear", (248.4, 345.5)),
    (11579, 11440, "small", "clear", (461.2, 468.2)),
    (11237, 11152, "small", "clear", (130.7, 313.9)),
    (6107, 5968, "small", "clear", (488.0, 122.2)),
    (12134, 12016, "medium", "clear", (195.3, 135.5)),
    (9457, 9424, "large", "black", (446.2, 127.5)),
    (11310, 11152, "large", "black", (258.4, 216.1)),
])
def test_a_clear_piece_lit_like_the_grey_table_is_read_from_its_crisp_area(seed, seed0, size,
                                                                          color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# ... but not a found piece's shaded face or cast shadow (edge_refits.CLEAR_BESIDE_CAST), asked
# before any refit: session 43's form (clearmiss53, not merged) read the 11440-set's 11519 (a
# clear large's shaded face and shadow band), the 10288-set's 10567 (a large's long shadow),
# the 10576-set's 10758 (a yellow large's shadow beside a hand), the 10000-set's 10086 (a white
# piece's shaded face) and 10037 (on a black large's face) as false pieces: their crisp areas
# lie 0.37-0.99 in a reading's body and cast shadow (the eight pieces read 0.00-0.12). Nor the
# other end of a reading in doubt of its size (CLEAR_BESIDE_DOUBT_SHARE): the 10000-set's
# 10070, a clear large read at its size in doubt, was read as a medium beside a new small
# lying 0.85 in its size hull.
@pytest.mark.parametrize(("seed", "seed0"), [
    (11519, 11440), (10567, 10288), (10758, 10576), (10086, 10000), (10037, 10000)])
def test_a_found_pieces_shaded_face_or_shadow_is_no_clear_piece_lit_like_the_table(seed, seed0):
    assert_no_false_piece(seed, seed0)


def test_a_clear_piece_lit_like_the_table_is_no_other_end_of_a_reading_in_size_doubt():
    _found_at_truth(10070, 10000, "large", "clear", [(387.9, 208.0)])


# A clear piece against a neighbour whose crisp area reads a little over CLEAR_BESIDE_SHADE
# (issue 4, session 46, recallclear56; edge_refits.CLEAR_BESIDE_AREA_LIT): the area takes the
# piece's bright edge band in, so its median (0.952, 0.953) is over the inset's, and the cheap
# test turned it down before any refit. The 10000-set's 10082 (a clear large against a white
# small: its refit whole, inset 0.926) and the 8272-set's 8537 (a clear large against a black
# small, whose medium and large refits both lie whole on the edges, the medium nested at the
# large's tip: its open base's inner rim; edge_refits._nested_whole reads the large). And two
# clear pieces within a millimetre of a found neighbour, 0.26 of their area in its grown body
# (CLEAR_BESIDE_CAST 0.25 -> 0.30): the 9712-set's 9887 (a clear small against a white small)
# and the 12880-set's 13070 (a clear medium, its small and medium refits both whole: nested);
# and the 9712-set's 9866 (a clear large whose medium refit lies 0.975 on the edges, the large
# 1.0: nested, found by the runs). All five missed on a971351; read at their size, in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10082, 10000, "large", "clear", (138.2, 498.5)),
    (8537, 8272, "large", "clear", (439.6, 268.4)),
    (9887, 9712, "small", "clear", (145.0, 353.5)),
    (13070, 12880, "medium", "clear", (330.9, 139.6)),
    (9866, 9712, "large", "clear", (338.9, 169.2)),
])
def test_a_clear_piece_against_a_neighbour_its_area_lit_by_its_edge_band_is_read(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# A clear piece against a neighbour whose crisp refit lies one sample in 80 short of whole
# (issue 4, session 47, recallclear57; edge_refits.CLEAR_BESIDE_WHOLE 0.96): where it touches
# the neighbour its outline bends into the neighbour's, so 77 of 80 samples lie on the edges
# (0.9625, under WHITE_EDGES_WHOLE's 0.97). The 10288-set's 10331 (a clear small, 1280x720,
# its medium refit 0.85) and the 10864-set's 11108 (a clear small, 1920x1080, its medium
# 0.74): both missed on 643af0e; read at their size, in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10331, 10288, "small", "clear", (259.4, 222.3)),
    (11108, 10864, "small", "clear", (155.0, 415.0)),
])
def test_a_clear_piece_against_a_neighbour_its_refit_a_sample_short_of_whole_is_read(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# A clear piece against a found one on the laminate whose crisp area is joined with the
# neighbour's shaded side or shadow (issue 4, session 55, recallclear65; edge_refits.
# CLEAR_JOINED_*): the area's cheap tests turned it down before any refit (the 15472-set's
# 15620, a clear small against a blue medium: 1.23 smalls, under CLEAR_BESIDE_MIN_AREA, 0.41
# of it in the neighbour's grown body and shadow; 15725, a clear small against a white
# medium: filling 0.59 of its hull, 0.40 cast; the 15184-set's 15389, a clear medium between
# a small and a large: 0.76 of its hull, 0.35 cast), yet each one's refit lies whole on the
# crisp edges at every sample at its size (the next size 0.73-0.84). All three missed on
# 6a8175d; read at their size, named clear, in doubt (15725's small not lengthened by the
# apex rule over its neighbour's shade).
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (15620, 15472, "small", "clear", (166.9, 416.3)),
    (15725, 15472, "small", "clear", (213.4, 110.8)),
    (15389, 15184, "medium", "clear", (363.1, 356.3)),
])
def test_a_clear_piece_whose_area_is_joined_with_its_neighbours_shaded_side_is_read(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# A clear piece on cloth or felt (issue 4, session 57, recallclear67; edge_refits.
# CLEAR_CLOTH_SHADE): lit over the dark cloth (its crisp area's shade 1.04-2.01 of the table's), its
# outline whole on the crisp edges at its size and pose, but clear_beside_found's clear path was not
# asked on a coloured table, and no other pass read it. The 10288-set's 10457 (a clear medium on
# felt against a red large, 0.40 of its area in the large's grown body and shadow: the joined path),
# the 11728-set's 11957 (a clear large on cloth against a black small, its area filling 0.55 of its
# hull, 0.44 cast: the joined path) and the 12880-set's 13052 (a clear large on cloth 2 mm from a
# red large, cast 0: the clear path). All three missed on caa1ec9; read at their size, named clear,
# in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10457, 10288, "medium", "clear", (99.6, 496.1)),
    (11957, 11728, "large", "clear", (360.9, 307.2)),
    (13052, 12880, "large", "clear", (158.0, 334.0)),
])
def test_a_clear_piece_on_cloth_or_felt_lit_over_the_cloth_is_read(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# A lit clear piece on the laminate, piece-shaped in the crisp map (issue 4, session 58,
# recallclear68; edge_refits.CLEAR_LIT_AREA): its faces pass the table's light, so its crisp
# area's median shade is over the clear path's CLEAR_BESIDE_AREA_LIT (the 10864-set's 10892, a
# clear small 2 mm from a clear small: 1.04; the 15760-set's 16037, a clear medium 2 mm from a
# black medium: 1.01) and clear_beside_found turned it down before any refit, though its outline
# lies whole on the crisp edges at its size and pose. The lit path refits it and reads it when
# named clear (16037) or named white but lit like the table, no white piece's shade nor shadow
# (10892, lit_clear). Both missed on 5a949b6; read at their size, named clear, in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10892, 10864, "small", "clear", (371.9, 374.4)),
    (16037, 15760, "medium", "clear", (105.6, 474.7)),
])
def test_a_lit_clear_piece_whose_crisp_area_is_over_the_clear_shade_is_read(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# A clear piece against a found one on the laminate, its crisp area piece-shaped and of clear
# shade (issue 4, session 59, recallclear69; edge_refits._whole_clear_of, CLEAR_BESIDE_WHOLE):
# - the 12304-set's 12407 (a clear small touching a purple small, 0-10°, 1280×720): the area's
#   best small refit lands on the purple small's own outline (whole on the edges it shares,
#   clashing with its reading), so the area was dropped; of the refits clear of the readings
#   the small at the piece's pose lies 76 of 80 samples on the edges, every medium refit
#   on the neighbour.
# - the 14896-set's 15032 (a clear large 2 mm from a large, 22-35°, 1920×1080) and the
#   13168-set's 13283 (a clear large beside a large, lit: the lit path, 0-10°, 1280×720): the
#   large's refit lies 76 of 80 samples on the crisp edges (0.95, under the former 0.96), the
#   medium 0.86-0.88.
# All three missed on 01516c9; read at their size, named clear, in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (12407, 12304, "small", "clear", (324.2, 313.4)),
    (15032, 14896, "large", "clear", (395.5, 363.7)),
    (13283, 13168, "large", "clear", (283.9, 178.0)),
])
def test_a_clear_piece_beside_a_found_one_whose_refit_is_two_samples_short_or_landed_on_it(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# A clear piece lying in its found neighbour's cast shadow (issue 4, session 60, recallclear70;
# edge_refits.CLEAR_JOINED_CAST 0.45 -> 0.50, the joined path's _nested_whole): its crisp area
# lies over the old bound in the neighbour's grown body and cast shadow, so it was dropped
# before any refit, though its outline lies whole on the crisp edges at every sample. The
# 16048-set's 16307 (a clear small 1.2 mm from a yellow small, 0-10°, 1280×720: cast 0.47;
# small 1.0, the next 0.84): missed on 522ee5e; read at its size, named clear, in doubt. The
# guards on the other side are the found pieces' shaded faces and shadows above
# (test_a_found_pieces_shaded_face_or_shadow_is_no_clear_piece_lit_like_the_table, 0.37-0.99),
# 5141 below, and the 14032-set's 14117 (an area 0.55-0.60 in a reading's body and shadow,
# read as a false clear small at the branch's 0.70; the 15760-set's 15953, a clear medium at
# 0.64, is left missed with it).
def test_a_clear_piece_in_its_found_neighbours_cast_shadow_is_read():
    _found_in_colour_never_trusted(16307, 16048, "small", "clear", (229.3, 355.7))


def test_an_area_in_a_found_pieces_cast_shadow_past_the_bound_is_no_clear_piece():
    assert_no_false_piece(14117, 14032)


# A clear small whose crisp area its found neighbour's reading cuts under a small's footprint
# (issue 4, session 61, recallclear71; edge_refits.CLEAR_CUT_AREA): the 14320-set's 14339 (a
# clear small 1.1 mm from a white small, 0-10°, 1280×720): what the white small's grown
# outline leaves of their joined crisp area is 0.83 of a small's footprint, under every
# path's least area (1.0), so no path asked it, though its small refit lies whole on the crisp
# edges at every sample (the medium 0.925), named clear. Missed on 17d752f; read at its size,
# named clear, in doubt. The guards: 14117 above and the shaded faces and shadows above.
def test_a_clear_small_whose_area_its_found_neighbours_reading_cuts_is_read():
    _found_in_colour_never_trusted(14339, 14320, "small", "clear", (460.2, 408.4))


# Two pieces of one colour merged as one read twice are kept apart only when named: two
# readings named "unknown" turned apart are one false piece's, asked or not (issue 4, session
# 60, the lead on merging merge70; detect._read_twice_turn): the 13456-set's 13678, whose
# second unknown small (387, 239) was kept beside the first at merge70's turn rule.
def test_a_piece_read_twice_stern_to_stern_one_reading_set_is_one_reading():
    assert_no_false_piece(6174, 5968)


def test_two_readings_named_unknown_turned_apart_are_not_kept_as_two_pieces():
    r, det = bench_scene(13678, 13456)
    assert sum("false" in m for m in match(r.truth, det).misses) <= 1


def test_a_long_area_beside_a_white_pieces_stern_is_no_joined_clear_piece():
    # The guard on the joined path's shape (recallclear65; CLEAR_BESIDE_ASPECT 2.5 there): the
    # check set 5104's 5141, an area 2.91 times as long as wide beside a white medium's stern
    # on the laminate, 0.41 of it in the found pieces' grown bodies and shadows, refits a small
    # whole at every sample; with the bound at 3.0 it was read as a false clear small and the
    # white medium as a small in doubt. No false piece; the white medium read at its size.
    assert_no_false_piece(5141, 5104)
    _found_at_truth(5141, 5104, "medium", "white", [(156.1, 91.0)])


# A lone clear piece on wood that only mutes and darkens the wood a little (issue 4, session
# 56, recallcol66; detect.GRAIN_*): the score map takes it for table, the crisp map holds
# nothing and the wood-mute area only scattered bits of it, so no pass read it. Its patch of
# the blurred saturation ratio and shade, fitted on its muting, is read named clear, in doubt
# of its size and turn (most a size or two short, the lit face near the tip keeping the
# wood's colour; 12915's and 14331's lengthened to their size by the end's strip rules). The
# 15760-set's 15933, the 12880-set's 12915 and 12951, the 14320-set's 14331, the 14608-set's
# 14739, the 14896-set's 15177 (a medium) and the 15472-set's 15501: all 22-35°, 1280×720; and
# the 14320-set's 14411 (0-10°, 1280×720), 1.6 mm from a blue large. Each missed on 5d55072.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (15933, 15760, "large", (219.18, 345.83)),
    (12915, 12880, "large", (301.62, 307.85)),
    (12951, 12880, "large", (202.61, 457.74)),
    (14331, 14320, "large", (346.04, 433.65)),
    (14739, 14608, "large", (473.64, 390.45)),
    (15177, 14896, "medium", (95.91, 249.13)),
    (15501, 15472, "large", (290.49, 391.18)),
    (14411, 14320, "large", (425.13, 440.74)),
])
def test_a_lone_clear_piece_on_wood_that_only_mutes_the_wood_is_found_in_doubt(
        seed, seed0, size, stern):
    assert_clear_found_in_doubt(seed, seed0, size, stern)
    assert_no_false_piece(seed, seed0)


# ... but a clear piece standing on its base on wood is no lying one (a guard: GRAIN_AREA's
# top, GRAIN_IN): its patch is bigger (0.61-0.65 of the largest footprint's area) and its
# best fit, a small, holds only 0.21-0.22 of it. The 12880-set's 12915 (its upright clear
# large at (231.5, 171.0); saturation 0.78 of the wood round it, shade 0.83: inside
# GRAIN_RATIO_REL and GRAIN_SHADE_REL) and the 15760-set's 15825 (an upright clear large).
# And the 14320-set's 14343 (an upright clear medium, 1280×720, 22-35°), whose patch is a
# lying piece's size and held 0.35 by its fit, but the fit lies 2° off the line from the
# camera's foot (GRAIN_RADIAL_DEG): read as a false clear small by the form run on the sets.
# And the 14896-set's 14937 and the check set 5104's 5301 (upright clear mediums, 1280×720,
# 22-35°), their fits 20° and 16° off that line, read as a false clear large and small by the
# same form: a standing piece's outline explains their patches at 0.38 and 0.40
# (GRAIN_UPRIGHT_COST).
@pytest.mark.parametrize(("seed", "seed0"), [(12915, 12880), (15825, 15760), (14343, 14320),
                                             (14937, 14896), (5301, 5104)])
def test_a_clear_piece_standing_on_wood_is_no_lone_lying_one(seed, seed0):
    assert_no_false_piece(seed, seed0)


# A sunk clear piece's good fit beside a clean one in the same region (issue 4, session 56,
# recallcol66; detect._clear_sunk): the 14320-set's 14498, a clear medium on felt (1920×1080,
# 22-35°) beside a clear small; the unscaled re-read fitted the small clean (0.13) and the
# medium at its true pose at 0.21, short of clean, and dropped the medium: the region kept a
# clean fit, and beside one the rest was taken for that piece's remainder (the 9424-set's
# 9512, whose short fit overlaps the clean one, is still found: the felt test of
# test_a_clear_piece_on_felt_whose_shaded_face_sank_below_the_map_is_found). A good fit
# overlapping no clean one is kept last now. Missed on 5d55072.
def test_a_sunk_clear_piece_beside_a_clean_one_in_its_region_is_kept_last():
    stern = (106.83, 465.28)
    p = found(14498, "medium", "clear", stern, seed0=14320)
    assert p is not None and p.size.value == "medium" and p.color == "clear"
    assert math.dist(p.pose.stern_mm, stern) < 3.0
    assert_no_false_piece(14498, 14320)
    # The small beside it stays at its size.
    q = found(14498, "small", "clear", (121.94, 499.57), seed0=14320)
    assert q is not None and q.size.value == "small"


# A lit clear piece on the laminate (1280x720) whose faces pass the table's light, so the crisp
# map holds only a band down its shaded side and shadow, no piece-shaped area (issue 4, session
# 49, recallclear59; edge_refits.CLEAR_BAND_*): the band's hull refitted to the crisp edges lies
# whole at one size (the 10864-set's 11029 medium 0.988, the 9136-set's 9262 medium 0.963, the
# 9424-set's 9427 large 1.0), its inset lit like the table (0.92-1.0), named white by its grey
# but showing no white piece's shade nor shadow (detect._bare_white). All three missed on
# ebd426f; read at their size, named clear, in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (11029, 10864, "medium", "clear", (223.2, 222.5)),
    (9262, 9136, "medium", "clear", (99.3, 458.1)),
    (9427, 9424, "large", "clear", (370.0, 257.9)),
])
def test_a_lit_clear_piece_read_from_the_band_down_its_shaded_side(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# A lone clear piece on the laminate whose region holds its shadow too (issue 4, session 45,
# recallclear55; detect.CLEAR_SUNK_DOUBT_COST): no pass reads it, and _clear_sunk's re-read on
# the unscaled map fits it only doubtfully (the shadow's edge taken in): the 12304-set's 12519
# (a clear large, cost 0.48, stern 2.2 mm and heading 4° off) and the check set 5968's 6147 (a
# clear small, 0.50, 3.8 mm off). Both missed on 8efdd76; kept last where nothing else reads
# a piece, in doubt of size and turn, never trusted.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (12519, 12304, "large", "clear", (248.2, 209.0)),
    (6147, 5968, "small", "clear", (439.9, 404.8)),
])
def test_a_lone_clear_piece_fitted_doubtfully_on_the_unscaled_map_is_found_in_doubt(
        seed, seed0, size, color, stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# ... but not where a standing piece's outline fits the unscaled map as well: the rule's
# first form (e02df9e) read the 12304-set's 12561, an upright clear piece on blue cloth, as a
# false lying large (cost 0.52; standing 0.16). Nor in a region lit over the table
# (detect.CLEAR_SUNK_DOUBT_SHADE): its second form (39a46c3) read the 11440-set's 11647, the
# table lit beside a grey band and an orange medium (shade 1.14), as a false clear small. Nor
# over CLEAR_SUNK_DOUBT_COST (0.53): merged, it read the 11728-set's 11961, a white small standing
# on the laminate that no pass reads as standing, as a false lying clear small at 0.559. Nor on a
# coloured table (COLOURED_TABLE_SAT): it read the judge set 12880-13167's 12911, a light patch
# on wood beside a cyan large, as a false clear small at 0.439.
@pytest.mark.parametrize(("seed", "seed0"), [(12561, 12304), (11647, 11440), (11961, 11728),
                                             (12911, 12880)])
def test_a_standing_clear_piece_or_lit_table_is_no_lone_clear_piece_fitted_doubtfully(
        seed, seed0):
    assert_no_false_piece(seed, seed0)


# issue 4, session 45, size55; a white piece on the laminate read a size short from its stern,
# its lit tip lost in the laminate (on the fit map and on the crisp edges: white49's refits find
# no size whole), in doubt. Its open base shows whole: a dark hollow across which the run of
# shade darker than halfway to the table is the inside of its own base (21.9-23.1 mm for these
# larges, 18.4 for 5141's medium; white mediums read right 15.6-18.8, smalls 9.9-13.4). The
# 10000-set's 10272, the 10576-set's 10594 and 10702, the 12304-set's 12437, the 12592-set's
# 12682, the 8272-set's 8511 (larges read as mediums or smalls) and the check set 5104's 5141 (a
# medium read as a small) are read at their size from the stern, never trusted
# (strips.WIDE_BASE_*). A run that does not hold the longer width at every height is no longer
# base: 8272's 8537, a white small read as a medium beside another white piece (runs 24.9,
# 28.3, 12.9 mm), is not read as a large.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10272, 10000, "large", (115.6, 345.2)),
    (10594, 10576, "large", (205.0, 300.0)),
    (10702, 10576, "large", (112.3, 418.3)),
    (12437, 12304, "large", (314.0, 256.0)),
    (12682, 12592, "large", (123.4, 365.7)),
    (8511, 8272, "large", (216.9, 380.0)),
    (5141, 5104, "medium", (156.0, 91.0)),
])
def test_a_white_piece_whose_open_base_is_a_longer_sizes_width_is_read_at_that_size(
        seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.color == "white" and p.size.value == size
    assert p.sigma_mm > 1.5  # its size from the base's width, its place not fitted
    assert_no_sure_wrong_size(seed, seed0, size, "white", stern, any_size=True)


def test_a_white_piece_whose_dark_run_is_wide_at_one_height_only_is_not_read_longer():
    p = found(8537, "small", "white", (349.0, 185.0), seed0=8272)
    assert p is not None and p.size.value != "large"


# A white reading in size doubt lying off its own open base (issue 4, session 47, sizewhite57;
# strips.hollow_near_longer, HOLLOW_*): a white piece on the laminate read a size short on its
# lit face, the reading 1-9 mm ahead of its stern and 0-6 mm aside, so its own base lanes lie on
# the lit face and WIDE_BASE_*'s test finds no hollow. At a pose of the true size behind or
# aside the reading, taking the reading in, the base shows dark and as wide as that size's, one
# width at every height: the 12880-set's 12887 and 13095, the 13168-set's 13265, the 9136-set's
# 9293 and the 11152-set's 11375 (each a size short on 643af0e); read at their size, in doubt.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (12887, 12880, "large", (127.4, 144.1)),
    (13095, 12880, "medium", (116.8, 396.8)),
    (13265, 13168, "medium", (266.5, 326.6)),
    (9293, 9136, "large", (165.3, 407.8)),
    (11375, 11152, "large", (243.9, 158.2)),
])
def test_a_white_piece_read_short_off_its_open_base_is_read_at_the_size_of_its_hollow(
        seed, seed0, size, stern):
    assert_set_at_size(seed, seed0, size, "white", stern)  # its size from the base's width


# Guards (issue 4, session 47, sizewhite57): the 13168-set's 13259 (a white small) and 13357 (a
# white medium), each read right, beside a dark run as wide as a large's that widens with the
# height (a shadow or a neighbour's dark joining their hollow): not read large (HOLLOW_FLAT_MM).
@pytest.mark.parametrize(("seed", "size", "stern"), [
    (13259, "small", (216.1, 153.3)),
    (13357, "medium", (442.3, 258.2)),
])
def test_a_white_piece_beside_a_dark_run_that_widens_is_not_read_longer(seed, size, stern):
    p = found(seed, size, "white", stern, seed0=13168)
    assert p is not None and p.size.value == size


# Guard (issue 4, session 48, size58; strips._on_own_hollow): the 8560-set's 8640, a white
# medium on wood read right in doubt, lying on its own hollow (the middle of its own open base
# 0.43 of the table, runs 17.3-17.6 mm: a medium's). A large's pose 1.5 mm behind took the
# hollow and the shadow behind it in as 22.1-22.6 mm wide, one width, and read it large (σ 99)
# on fa34a12; not read off its own hollow.
def test_a_white_piece_lying_on_its_own_hollow_is_not_read_off_it():
    p = found(8640, "medium", "white", (197.6, 196.9), seed0=8560)
    assert p is not None and p.color == "white" and p.size.value == "medium"
    assert_no_sure_wrong_size(8640, 8560, "medium", "white", (197.6, 196.9), any_size=True)


# issue 4, session 48, size58 (strips.HOLLOW_FLAT_MM 1.0 -> 1.2): the 8560-set's 8747, a white
# medium on the laminate read as a small (σ 19.8 mm) 5.1 mm ahead of its stern. Its hollow's
# runs at the poses asked nearest its stern (4.5 mm behind the reading, 0.6 mm ahead of the
# stern) are 17.4/17.1/16.3 mm, the top lane's cut short near the rim: 1.1 apart, one width
# still (a hollow joined by a shadow widens 1.9-2.5). A size short on fa34a12; read at its size,
# in doubt.
def test_a_white_piece_read_short_its_hollow_a_fraction_of_a_step_behind_is_read_at_its_size():
    p = found(8747, "medium", "white", (305.4, 290.8), seed0=8560)
    assert p is not None and p.color == "white" and p.size.value == "medium"
    assert p.sigma_mm > 1.5  # its size from the base's width, its place not fitted
    assert_no_sure_wrong_size(8747, 8560, "medium", "white", (305.4, 290.8), any_size=True)


# A black piece lit grey alone on the laminate whose table estimate took it in (issue 4, session
# 45, recallwb55; edge_refits.GREY_BLACK_ALONE_*): pointing at the viewer, its faces mirror the
# light a mid grey, and the table estimate takes the piece in, so the score map reads a ring of
# table round it and no pass proposes it (black53). Its crisp area (piece, shadow, edge band) is
# whole but too big (1.19-1.31 of a large's footprint) or too bright against that estimate for a
# clear piece's (CLEAR_BESIDE_MAX_AREA, CLEAR_BESIDE_SHADE); the large refitted to the crisp
# edges lies 0.963-1.0 on them, the other sizes 0.71-0.81, and its median value is 0.45-0.55 of
# the table ring round it (or a face near black). The 10000-set's 10194, the 10288-set's 10479
# and 10509, the check set 5968's 6073; touching a reading (the median test, no clash nor
# overlap), the check set 5104's 5216 (a black large against a clear small) and the 8560-set's
# 8768 (a black medium against an orange small): each missed on 8efdd76; read in doubt, named
# black.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (10194, 10000, "large", "black", (457.0, 353.7)),
    (10479, 10288, "large", "black", (284.8, 378.7)),
    (10509, 10288, "large", "black", (326.0, 490.4)),
    (6073, 5968, "large", "black", (223.5, 445.4)),
    (5216, 5104, "large", "black", (140.6, 307.2)),
    (8768, 8560, "medium", "black", (310.3, 299.6)),
])
def test_a_black_piece_lit_grey_that_the_table_estimate_took_in_is_read(seed, seed0, size, color,
                                                                        stern):
    _found_in_colour_never_trusted(seed, seed0, size, color, stern)


# issue 4, session 46, trust56; a white piece's open base seen from off to its side. The
# 12880-set's 12956 (1920×1080, 22-35°, laminate): a white medium whose hollow, read as a black
# small at cost 0.41 (σ 3.5 mm, its tip 21 mm off), is a sheared parallelogram on the table's
# plane that fills its bounding rectangle 0.78, under open_base.HOLLOW_FILL. Asked as a
# parallelogram (HOLLOW_QUAD_CORNERS), its near edge spans the medium's hollow: σ covers the
# medium, and the rules answer "in doubt".
def test_a_hollow_seen_sheared_is_a_longer_pieces_open_base():
    assert_no_sure_wrong_size(12956, 12880, "medium", "white", (456.6, 351.2))


# issue 4, session 46, trust56; a vivid reading inside a longer piece of its colour. The
# 12880-set's 13073 (1280×720, 0-10°, wood): a purple medium read as a small inside it at
# σ 0.43 mm, 5.6 mm behind its stern; the piece's lit hue holds over 0.25 of the ring behind the
# reading's stern (its dark base rim the rest). Right trusted readings shorter than the longest
# reach 0.04 there on four sets (detect.VIVID_STERN_SHARE_OFF, 0.2 where the table's pixels
# cannot pass for the piece's hue): σ covers the other sizes.
def test_a_vivid_reading_whose_lit_hue_goes_on_behind_its_stern_is_in_doubt():
    assert_no_sure_wrong_size(13073, 12880, "medium", "purple", (454.8, 424.7))
    _r, det = bench_scene(13073, 12880)
    white = [p for p in det.pieces if p.color == "white" and p.size.value == "small"
             and math.dist(p.pose.stern_mm, (449.1, 451.4)) < 1.5]
    assert len(white) == 1 and white[0].sigma_mm <= 1.5  # the neighbour stays usable


# ... but not where the table's lit pixels pass for the piece's hue (a guard, passing on
# a971351; VIVID_STERN_HUE_OFF): the 8848-set's 8951 (1280×720, 0-10°, wood), a red small and an
# orange small touching, each read right and trusted; with 0.2 on every table the wood's grain
# behind their sterns put both in doubt.
def test_a_vivid_reading_of_the_woods_hue_keeps_its_trust():
    _r, det = bench_scene(8951, 8848)
    for color, stern in (("red", (201.0, 332.7)), ("orange", (202.8, 317.5))):
        p = [q for q in det.pieces if q.color == color and math.dist(q.pose.stern_mm, stern) < 1.5]
        assert len(p) == 1 and p[0].size.value == "small" and p[0].sigma_mm <= 1.5


# issue 4, session 47, trust57; a vivid reading whose tip half is not of its hue
# (detect.VIVID_TIP_HALF_SHARE). The 13168-set's 13304 (1280×720, laminate): a white medium's
# dark hollow, under a red medium's raised base as seen, read with that base as a red small at
# σ 1.2 mm (its tip half 0.01 red); 13316 (laminate): a blue and a green medium side by side
# read as one blue large at σ 2.3 mm (0.04 blue). Both are in doubt: the rules answer "in
# doubt", and the red medium beside 13304's reading stays usable.
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (13304, 13168, "medium", "white", (475.5, 490.3)),
    (13316, 13168, "medium", "blue", (263.9, 321.7)),
])
def test_a_vivid_reading_whose_tip_half_lacks_its_hue_is_in_doubt(seed, seed0, size, color,
                                                                   stern):
    assert_no_sure_wrong_size(seed, seed0, size, color, stern)


def test_a_vivid_reading_whose_tip_half_holds_its_hue_keeps_its_trust():
    _r, det = bench_scene(13304, 13168)
    red = [p for p in det.pieces if p.color == "red" and p.size.value == "medium"
           and math.dist(p.pose.stern_mm, (468.3, 474.2)) < 1.5]
    assert len(red) == 1 and red[0].sigma_mm <= 1.5


# ... but not a right reading whose hue holds over under half its inside (VIVID_HUE_HOLDS),
# nor a clean fit of the table's hue (HUED_MIN_COST): guards, passing on 643af0e, each put in
# doubt by trust57's first form. The 12016-set's 12176 (a red large on cloth, 0.08 of its
# inside of its hue) and the 11728-set's 11864 (a red small on the laminate, 0.38); the
# 11440-set's 11576, a cyan small on blue cloth at cost 0.04 that shows the face ahead; nor a
# tip half under a found neighbour's raised base as seen (detect._others_over): the 10000-set's
# 10076, a purple medium on felt whose tip half a red large hides, 0.07 of its hue; nor one
# whose fit sees its tip half hidden (VIVID_TIP_HIDDEN): the 9424-set's 9530, an orange small
# whose tip lies under a white chit, 0.79 of that half's outline hidden.
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (12176, 12016, "large", "red", (289.4, 456.8)),
    (11864, 11728, "small", "red", (118.3, 387.4)),
    (11576, 11440, "small", "cyan", (224.1, 237.9)),
    (10076, 10000, "medium", "purple", (158.4, 338.7)),
    (9530, 9424, "small", "orange", (206.6, 465.6)),
])
def test_a_right_vivid_reading_trust57_does_not_ask_keeps_its_trust(seed, seed0, size, color,
                                                                    stern):
    assert_kept_trusted(seed, seed0, size, color, stern)


# issue 4, session 47, trust57; a vivid piece of the table's hue whose base as seen is the face
# ahead of an open base (the note after detect.HUED_MIN_COST). The 13168-set's 13416 (felt):
# a green large on green felt read as a medium at σ 1.0 mm, its stern 6.8 mm ahead on the face
# ahead of its hollow: σ covers the large. The green small on the same felt, its base its
# own, stays usable.
def test_a_piece_of_the_tables_hue_read_from_the_face_ahead_of_its_base_is_in_doubt():
    assert_no_sure_wrong_size(13416, 13168, "large", "green", (145.9, 368.6))
    _r, det = bench_scene(13416, 13168)
    small = [p for p in det.pieces if p.color == "green" and p.size.value == "small"
             and math.dist(p.pose.stern_mm, (229.8, 428.9)) < 1.5]
    assert len(small) == 1 and small[0].sigma_mm <= 1.5


# ... and one more saturated than its table (TABLE_SAT_SEP over it) whose "base" as seen is
# its own lit face, the face ahead lit as its "inside" (issue 4, session 53, trust63;
# open_base.FACE_LIT_AS_INSIDE): the 14896-set's 15047, a green medium on green felt
# (1280×720, 0-10°), saturation 225 on 164, read as a small from its tip at σ 0.45 mm, its
# stern 6.8 mm ahead (face ahead over "inside" 1.01): σ covers the medium. The 14896-set's
# 15063, a right green small on that felt (222 on 159) fitting at 0.32 whose lit base glows
# brighter than the face ahead (0.81), keeps its trust (a guard: dropping the saturation bound
# alone put it in doubt).
def test_a_saturated_piece_of_the_tables_hue_read_from_its_own_face_is_in_doubt():
    assert_no_sure_wrong_size(15047, 14896, "medium", "green", (264.18, 292.84))


def test_a_saturated_piece_of_the_tables_hue_whose_lit_base_glows_keeps_its_trust():
    assert_kept_trusted(15063, 14896, "small", "green", (134.09, 408.26), named=True)


# A fit costing over SIZE_DOUBT_COST pins its heading no better than its size: σ° covers any
# heading (issue 4, session 53, trust63; detect.ANY_HEADING_DEG). The 14896-set's 15050, a
# yellow medium on blue cloth (1920×1080, 22-35°) whose open base faces the camera, read
# turned 97° at cost 0.57, σ 9.9 mm but σ° 7.3°: 41 mm off at the tip, outside twice the σ
# the rules use (σ_mm + length × σ_rad).
def test_a_costly_fit_read_turned_has_a_heading_sigma_covering_the_turn():
    assert_no_sure_wrong_size(15050, 14896, "medium", "yellow", (325.21, 431.88), any_size=True)


# ... and one in doubt just under it, over LATE_SIZE_DOUBT_COST 0.48, raised at find_pieces'
# end (issue 4, session 60, lead70b): the judge set 17200-17487's 17408, a purple small in a
# knot of four touching pieces (1920×1080, 22-35°), its map fit turned 116° across the piece
# at cost 0.489, σ 4.3 mm and σ° 6.5° on 4ece380: its tip 31 mm off, outside twice the σ the
# rules use. Now σ covers every size and σ° any heading.
def test_a_doubtful_fit_just_under_size_doubt_cost_read_turned_is_in_doubt_of_the_turn():
    assert_no_sure_wrong_size(17408, 17200, "small", "purple", (360.6, 290.5), any_size=True)


# A vivid reading on a table of its hue hiding TURN_MIN_HIDDEN of its outline, its saturated
# colour going on past it over HIDDEN_TABLE_PAST_SHARE of its ring (under TABLE_PAST_SHARE),
# is a shorter reading laid inside a longer piece: in doubt (issue 4, session 54, lead64;
# detect.HIDDEN_TABLE_PAST_SHARE). The judge set 15472-15759's 15494 (an orange medium on wood,
# 1920×1080, 22-35°, its tip against a black large's open base) was read as a small turned
# 118°, 17 mm off, at σ 0.93 mm (0.30 hidden, 0.267 of its ring); the 15184-set's 15226 (an
# orange large on wood partly under a hand, which the bench leaves out) as a small at σ 1.29 mm
# (0.40 hidden, 0.228). Both trusted on d09d5f0.
def test_a_vivid_reading_hiding_part_of_its_outline_inside_more_of_its_colour_is_in_doubt():
    assert_no_sure_wrong_size(15494, 15472, "medium", "orange", (235.5, 453.9), any_size=True)
    p = found(15226, "large", "orange", (253.2, 275.9), seed0=15184)
    assert p is not None and p.sigma_mm > 1.5


# ... but a right one hiding as much with little of its colour past it keeps its trust (a
# guard, passing on d09d5f0): the 13456-set's 13514, a yellow medium on wood hiding 0.29 of
# its outline, 0.104 of its ring past it, the highest such right reading logged.
def test_a_vivid_reading_hiding_part_of_its_outline_with_little_colour_past_keeps_its_trust():
    assert_kept_trusted(13514, 13456, "medium", "yellow", (103.3, 346.1), named=True)


# A trusted vivid reading of its table's hue, no more saturated than it, fitting at
# HUED_MIN_COST or worse, with plastic of the table's hue LOST_FACE_SAT more saturated than the
# table over LOST_FACE_SHARE of its ring, is a longer piece's lit face, its shaded face lost to
# the fit map as a shadow: σ covers the longest (issue 4, session 55, lead65;
# detect.LOST_FACE_SHARE). The judge set 15472-15759's 15710, a green large on green felt
# (1920×1080, 22-35°) beside a cyan medium, was read as a medium at σ 0.47 mm, 5.8 mm aside
# (cost 0.313; 0.181 of its ring), a trusted wrong size on 6a8175d.
def test_a_reading_of_the_tables_hue_beside_its_lost_shaded_face_is_in_doubt():
    assert_no_sure_wrong_size(15710, 15472, "large", "green", (260.83, 267.86), any_size=True)


# ... but right readings of their table's hue whose rings hold a little saturated plastic keep
# their trust (guards, passing on 6a8175d): the 14032-set's 14160, a red medium on wood (cost
# 0.194, 0.094 of its ring, the most logged), and the 14608-set's 14779, an orange medium on
# wood (0.222, 0.085).
@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (14160, 14032, "red", (458.74, 165.9)),
    (14779, 14608, "orange", (130.91, 364.88)),
])
def test_a_reading_of_the_tables_hue_with_little_saturated_plastic_beside_keeps_its_trust(
        seed, seed0, color, stern):
    assert_kept_trusted(seed, seed0, "medium", color, stern, named=True)


# Never a wrong pose presented as certain: a black piece lit grey read as a trusted clear
# reading (issue 4, session 56, sure66; detect.CLEAR_TRUSTED_DARKEST). The judge set
# 15760-16047's 15859, a black medium on the laminate (1280×720, 10-22°), its faces mirroring
# the light as a grey 0.52 of the table, was named clear and read as a large over the shadow
# ahead of its tip at σ 0.27 mm (cost 0.228), a trusted wrong size on 5d55072. Its darkest
# part is 0.472 of the table round it, darker than clear plastic lets the table through (0.53
# and over): named black, σ covering the other sizes.
def test_a_trusted_clear_reading_darker_than_clear_plastic_is_named_black_in_doubt():
    assert_no_sure_wrong_size(15859, 15760, "medium", "black", (474.58, 245.05))
    p = found(15859, "medium", "black", (474.58, 245.05), seed0=15760)
    assert p is not None and p.color == "black"


# ... but trusted clear larges alone on the laminate keep their trust and name (guards,
# passing on 5d55072): the 13456-set's 13732 (darkest 0.542 of the table, the nearest alone)
# and the 13744-set's 13948 (0.543).
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (13732, 13456, (283.61, 405.66)),
    (13948, 13744, (464.19, 170.3)),
])
def test_a_trusted_clear_large_alone_on_the_laminate_keeps_its_trust(seed, seed0, stern):
    assert_kept_trusted(seed, seed0, "large", "clear", stern, named=True)


# Two touching pieces of two hues whose blended border bridges the hue parting (each pixel
# steps the hue by HUE_STEP or less) are one colour area: a reading of colours_left whose
# outline holds two hues is read again in its area parted between them (issue 4, session 56,
# split66; colour_areas.TWO_HUE_SHARE). The judge set 15760-16047's 15839 (1280×720, 0-10°), a
# yellow small against a red small, was read as one red medium over both (0.355 of its outline
# another hue), σ 10.0 mm, its worse end past 2σ of the yellow piece: a trusted wrong size on
# 5d55072, the red small missed. Both smalls are read, at their size and colour.
@pytest.mark.parametrize(("color", "stern"), [
    ("yellow", (240.1, 267.5)),
    ("red", (225.4, 271.4)),
])
def test_two_touching_pieces_of_two_hues_read_as_one_are_read_apart(color, stern):
    p = found(15839, "small", color, stern, seed0=15760)
    assert p is not None and p.size.value == "small" and p.color == color
    assert math.dist(p.pose.stern_mm, stern) < 2.0
    assert_no_sure_wrong_size(15839, 15760, "small", color, stern, any_size=True)
    assert_no_false_piece(15839, 15760)


# A clear large on wood read short from its tip, its strip a little darker than the table
# beside it (issue 4, session 46, sizeclear56; strips.CLEAR_STRIP_BESIDE_COLOURED). The open
# base's rim drowns in the grain, so the reading stops 7-18 mm short of the stern; the large
# from its tip has a strip past it at 0.846-0.873 of the table beside it (its part past the
# medium 0.842-0.854), over CLEAR_STRIP_BESIDE's 0.84 (set on the laminate) and under the 0.89
# and up of the right clear readings. The 9712-set's 9800 (a clear large touching an orange
# medium, read as a medium), the 10576-set's 10719, the 10864-set's 11037, the 12016-set's
# 12198, the 12880-set's 12901 and the 8560-set's 8742 (larges read as mediums or smalls, σ
# 20-99 mm): each read at its size, in doubt, named clear.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (9800, 9712, "large", (158.1, 316.9)),
    (10719, 10576, "large", (268.2, 212.2)),
    (12198, 12016, "large", (286.2, 426.6)),
    (12901, 12880, "large", (507.3, 338.0)),
    (8742, 8560, "large", (490.6, 477.2)),
])
def test_a_clear_large_on_wood_read_short_from_its_tip_is_read_at_its_size(seed, seed0, size,
                                                                           stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, size, stern)


# A clear piece read short from its tip, its stern on the face just ahead of its open base
# (issue 4, session 49, sizeclear59; open_base.CLEAR_FACE_DEPTH_MM): the 13744-set's 13991, a
# clear medium on green felt (1280×720, 0-10°) beside a cyan small, read as a small at cost
# 0.11, σ 0.65 mm, a trusted wrong size on ebd426f. Its "base" is seen 2.0 mm deep with no step
# to the face ahead (1.02); the medium from its tip shows its open base (lane 1.23) and fits
# past it at 0.04: read at its size, in doubt.
def test_a_clear_piece_read_short_on_the_face_ahead_of_its_base_is_read_at_its_size():
    assert_clear_read_at_size_in_doubt(13991, 13744, "medium", (423.6, 489.9))


# A clear large read as a small from its stern, the turned strip rules lengthening it one size
# only (issue 4, session 50, sizeclear60; strips._longer_than): clear_tip_longer (and
# clear_wall_longer, clear_base_longer) asked its turns in turn and took the first that passed
# any size, so a medium passing straight on ended the search before a large passing turned
# CLEAR_TIP_TURN_DEG was asked. The 11728-set's 11797 (laminate, 1280×720, 10-22°): the
# medium straight on passes (strip 0.856 of the table beside it, edge share 0.61), the large
# straight on not (0.913) but turned -10° it does (0.698, its last part 0.796, edge share
# 0.46); the 5104-set's 5385 (laminate, 1280×720, 22-35°): the large straight on ends within
# CLEAR_TIP_OFF_MM of a neighbour, turned +10° it passes (0.841, 0.885, 0.55). Both read as
# mediums in doubt (σ 99 mm) on 4f93340; the longest size any turn passes is taken.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (11797, 11728, (232.2, 327.8)),
    (5385, 5104, (285.0, 397.0)),
])
def test_a_clear_large_a_turned_strip_rule_lengthens_is_read_at_the_longest_size(
        seed, seed0, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, "large", stern)


# A clear piece on the laminate seen whole, read short from its stern and turned 10-15°, whose
# longer size turned CLEAR_TIP_TURN_DEG toward it lies on the crisp edges nearly all along
# (issue 4, session 52, sizeclear62; strips.CLEAR_TIP_TURN_EDGES_MAX): its own sides, which
# CLEAR_TIP_EDGES_MAX, meant for a neighbour's sides past a size straight on (8848-set's 8849),
# refused. The 12880-set's 12908 (1920×1080, 22-35°, a clear medium read as a small beside an
# orange large: its medium turned +10° has strip 0.84 of the table beside it, edge share
# 0.94), the 14608-set's 14894 (1920×1080, 22-35°, a medium read as a small: turned -10°
# 0.77, 0.90) and the 10864-set's 10887 (1280×720, 22-35°, a large read as a medium: its
# large turned -10° 0.74, 0.81). All three read short in doubt on 76b05e8; read at their size,
# in doubt (set from the stern, not fitted).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (12908, 12880, "medium", (188.6, 125.2)),
    (14894, 14608, "medium", (453.0, 443.6)),
    (10887, 10864, "large", (357.4, 136.3)),
])
def test_a_clear_piece_on_the_laminate_whose_turned_size_lies_on_its_own_sides_is_read_at_it(
        seed, seed0, size, stern):
    assert_clear_read_at_size_in_doubt(seed, seed0, size, stern)


# ... but not over a shadow darker than clear walls (CLEAR_TIP_TURN_FLOOR; a guard, passing on
# 76b05e8): the 9424-set's 9427, a black medium on the laminate lit grey and read as a clear
# medium (1280×720, 10-22°), has its large turned -10° on its shadow's crisp edges (share
# 0.81) at 0.664 of the table beside it; without the floor it was read as a large.
def test_a_piece_read_clear_whose_turned_size_lies_on_its_dark_shadow_keeps_its_size():
    p = found(9427, "medium", "black", (476.7, 172.0), seed0=9424)
    assert p is not None and p.size.value == "medium"


# ... but not where the longer outline comes near a hand (CLEAR_STRIP_HAND_MM): the check set
# 5104's 5311, a clear medium on cloth read as a small, its stern against a hand, has its
# large's strip at 0.860 of the table beside it (the hand's shade); read at its size (a guard:
# passes on a971351; without the hand test it was read as a large).
def test_a_clear_piece_whose_longer_strip_is_a_hands_shade_keeps_its_size():
    p = found(5311, "medium", "clear", (154.2, 208.4), seed0=5104)
    assert p is not None and p.size.value == "medium"


# ... and when the strip rule (CLEAR_STRIP_DARK) and the beside rule both read a longer size,
# the longer (issue 4, session 46, the lead's mend of sizeclear56's merge; a guard, passing on
# a971351). sizeclear56 took the beside rule's size whenever it read one, putting right the
# check sets' 5357 and 6149 (clear mediums on the laminate read as larges over a neighbour's
# shade), but the merged tree read three right clear larges as mediums: the 12304-set's 12419
# (laminate, 1280×720, 0-10°, against a blue small), the 11440-set's 11712 and the 11152-set's
# 11271.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (12419, 12304, (429.6, 483.1)),
    (11712, 11440, (190.6, 111.2)),
    (11271, 11152, (341.8, 461.2)),
])
def test_a_clear_large_both_strip_rules_lengthen_is_read_at_the_longer(seed, seed0, stern):
    p = found(seed, "large", "clear", stern, seed0=seed0)
    assert p is not None and p.size.value == "large" and p.color == "clear"


# A fingertip, or the wood lit between a hand's finger shadows, fitted cleanly on wood (issue 4,
# session 47, precision57; hands.skin_on_wood): read as a trusted orange piece (σ 0.4-0.6 mm,
# cost 0.25-0.35), which the skin rule (is_skin) asked only of doubtful fits. The 12304-set's
# 12556 (1920×1080, 0-10°: a finger's end, saturation 106 against the wood's 122), the
# 12592-set's 12869 (1280×720, 0-10°: a finger beside a blue small, 113 against 128) and the
# 13168-set's 13220 (1920×1080, 22-35°: a finger read twice, 100-101 against 112-123): a good
# fit named warm and no more vivid than the wood (WOOD_SAT_MARGIN) is skin or lit wood. The
# scenes' every piece is still found; their red, orange and yellow pieces on the wood read
# 41-100 over it.
@pytest.mark.parametrize(("seed", "seed0", "where"), [
    (12556, 12304, (397.0, 292.0)),
    (12869, 12592, (256.0, 377.0)),
    (13220, 13168, (219.0, 438.0)),
])
def test_a_fingertip_fitted_cleanly_on_wood_is_no_piece(seed, seed0, where):
    _, det = bench_scene(seed, seed0)
    assert all(math.dist(p.pose.stern_mm, where) > 10 for p in det.pieces)
    _scene_whole_no_false(seed, seed0)


# ... but a warm piece lit pale or in a neighbour's shade is plastic (a guard: passes on
# 643af0e; skin_on_wood without SKIN_WOOD_MAX_VALUE, SKIN_WOOD_HUE and SKIN_WOOD_LIT dropped
# them): the 12304-set's 12338, a red small on wood (1920×1080, 22-35°) whose lit face clips
# white, saturation 145 against the wood's 142, value 255, hue 2 against the wood's 15; the
# 11440-set's 11720, an orange small half under a black large (1920×1080, 22-35°), value 51
# against the wood's 172. Each found at its size, trusted.
@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (12338, 12304, "red", (322.2, 204.5)),
    (11720, 11440, "orange", (483.3, 282.9)),
])
def test_a_warm_piece_on_wood_lit_pale_or_shaded_is_still_read(seed, seed0, color, stern):
    p = found(seed, "small", color, stern, seed0=seed0)
    assert p is not None and p.size.value == "small" and p.sigma_mm <= 1.5


# Two touching pieces of one colour are one colour area (issue 4, session 48, recall58;
# explain.ONE_HUE_PAIR_MIN_HUE): no hue parts them, no one fit covers the area and no pass
# read anything, so both were missed. Now read as a pair where two good fits that overlap
# neither each other nor a reading cover the area together, each in doubt (σ ≥ 3 mm), and
# checked as a standing piece's colour area as that pass's every reading. The 10000-set's
# 10031 (a blue medium and large on cloth) and 10079 (a red small and medium on cloth), the
# check set 5104's 5249 (two orange smalls on cloth), the 12304-set's 12341 (a yellow medium
# and small on cloth; the medium read 3.0 mm off at σ 12 mm): each pair missed on fa34a12.
@pytest.mark.parametrize(("seed", "seed0", "pieces"), [
    (10031, 10000, [("medium", "blue", (227.4, 468.5)), ("large", "blue", (205.7, 449.6))]),
    (10079, 10000, [("small", "red", (247.4, 136.1)), ("medium", "red", (259.8, 163.3))]),
    (5249, 5104, [("small", "orange", (196.4, 302.4)), ("small", "orange", (169.2, 292.2))]),
    (12341, 12304, [("medium", "yellow", (122.8, 204.0)), ("small", "yellow", (101.9, 218.6))]),
])
def test_touching_pieces_of_one_colour_are_read_as_a_pair(seed, seed0, pieces):
    assert_pair_read(seed, seed0, pieces, 3.5)


# ... but not a standing piece's two faces (explain.ONE_HUE_STAND_TIE, ONE_HUE_MAX_JOINT):
# the 10000-set's 10029 and 10239, an upright cyan large on felt and a purple large on cloth,
# the 12304-set's 12549, an upright cyan large on felt, and the check set 5104's 5271, an
# upright orange medium on cloth (all 1280×720, 22-35°), were read as two pieces by the
# one-colour pair alone (the pair's worse joint cost 0.97, 0.95, 0.83 and 0.92; a standing
# fit explains the region at 0.85, 0.51, 0.80 and 0.44). Each fails on efc04fd. And the
# 8848-set's 8961, an upright green large on cloth, read as a green medium and small at 0.50
# where no standing fit explains the region: its pair lies 20° off the camera's radial
# direction (explain.ONE_HUE_RADIAL_DEG); fails on f253d5e.
@pytest.mark.parametrize(("seed", "seed0"), [(10029, 10000), (10239, 10000), (12549, 12304),
                                             (5271, 5104), (8961, 8848)])
def test_a_standing_piece_is_no_pair_of_one_colour(seed, seed0):
    assert_no_false_piece(seed, seed0)


# ... nor a longer piece read along its axis as two shorter ones (explain.ONE_HUE_SAME_WAY_DEG):
# the 12304-set's 12326, a purple large on cloth (1920×1080, 22-35°) touching a red large,
# both missed, was read by the one-colour pair as a medium and a small heading 325° and 324°
# (worse joint cost 0.705): a wrong size (σ 11.9 mm) on efc04fd. It stays missed, as before.
def test_a_longer_piece_is_no_pair_of_one_colour_along_its_axis():
    p = found(12326, "large", "purple", (440.6, 495.3), seed0=12304)
    assert p is None or p.size.value == "large"
    assert_no_false_piece(12326, 12304)


# issue 4, session 49, lead59 (strips.black_grey_longer, BLACK_STRIP_GREY 0.5): black larges
# and mediums on a coloured table read a size or two short from their dark part, their lit
# face (grey) or their open base past the reading left out. The strip a longer size from the
# reading's stern or tip adds keeps 0.25-0.49 of the table's saturation beside it. Each read
# short on ebd426f (σ 19.8-42.3 mm); read at its size, in doubt (set, not fitted).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10908, 10864, "large", (127.3, 452.9)),  # wood, from the stern: its lit face grey
    (9715, 9712, "large", (148.4, 324.3)),
    (11733, 11728, "large", (203.8, 286.9)),  # wood, from the tip: its open base past it
    (11826, 11728, "large", (178.6, 468.9)),
    (12717, 12592, "medium", (206.1, 129.9)),  # felt
    (9435, 9424, "medium", (162.5, 460.7)),
])
def test_a_black_piece_read_short_its_grey_strip_past_it_is_read_at_its_size(
        seed, seed0, size, stern):
    assert_set_at_size(seed, seed0, size, "black", stern)  # its size from the strip's grey


# Guard (the same rule): black mediums read right in size doubt on felt and cloth, their strip
# to a large the table or its shadow (0.99 of the table's saturation beside it), stay mediums;
# so does the 13168-set's 13430, a clear medium on felt named black, its large's strip grey
# (0.42) but lit (1.99 of the felt's shade: BLACK_STRIP_LIT), and the 11152-set's 11223 and
# 11283, black mediums whose large's strip is grey only in the slivers beside them, its part past
# their tip the table (1.02: strips._past_end); each read as a large on merging.
@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (11824, 11728, "black", (466.4, 251.9)),
    (13795, 13744, "black", (423.4, 309.0)),
    (10891, 10864, "black", (175.2, 192.5)),
    (11223, 11152, "black", (223.9, 363.2)),
    (11283, 11152, "black", (496.6, 412.2)),
    (13430, 13168, "clear", (141.0, 128.1)),
])
def test_a_black_piece_read_right_its_strip_the_table_is_not_read_longer(
        seed, seed0, color, stern):
    p = found(seed, "medium", color, stern, seed0=seed0)
    assert p is not None and p.size.value == "medium"


# A reading from its open base turned about its stern to the crisp edges ahead (issue 4, session
# 49, acc59; the pose error's tail: readings from the base quad with the stern in place but
# turned). The 13744-set's 13748, a white medium on laminate (1920×1080, 22-35°), read from its
# open base 0.02 mm off at the stern but turned 3.25° (tip 2.07 mm off); 13752, a white large
# (10-22°), 0.03 mm and 2.44° (tip 1.98 mm). The quad's heading is a short lever; the faces
# ahead of the base lie on the crisp edges a piece's length long: turned about the stern to the
# heading whose outline ahead lies nearest them (base_quad.STERN_TURN_*), their tips come within
# 1.2 mm (1.12 and 0.05 mm), the sterns kept, still in doubt (σ is the quad's).
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (13748, 13744, "medium", (352.23, 271.73)),
    (13752, 13744, "large", (341.16, 474.25)),
])
def test_a_reading_from_its_open_base_is_turned_about_its_stern_to_its_crisp_edges(
        seed, seed0, size, stern):
    r, _ = bench_scene(seed, seed0)
    (t,) = [t for t in r.truth["pieces"] if t["size"] == size and t["color"] == "white"
            and math.dist(t["stern"], stern) < 2.0]
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "white"
    assert math.dist(p.pose.stern_mm, t["stern"]) < 0.5
    assert math.dist(p.tip_mm, t["tip"]) < 1.2
    assert p.sigma_mm > 1.5


# issue 4, session 50, lead60 (explain._turned_longer, TIP_TURNED_DEG 8°): a tip guess's
# heading is its corner's bisector, 21-22° off on these black larges on felt (22-35°, 1280×720):
# the small's and medium's screens turned to the piece's heading, the large's, starting with
# its far end across the table, did not, so the large was never fitted and the piece was read
# as a small in doubt on 4f93340. The longer sizes screened again from the turned screen's tip
# read them at their size, within the rules' allowance of the truth.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (9741, 9712, (148.8, 483.4)),
    (9611, 9424, (169.9, 523.4)),
])
def test_a_large_whose_tip_guess_is_turned_is_fitted_from_the_turned_screen(seed, seed0, stern):
    piece_found(seed, seed0, "large", "black", stern, slack_mm=0.5)
    assert_no_sure_wrong_size(seed, seed0, "large", "black", stern, any_size=True)
    assert_no_false_piece(seed, seed0)


# ... and kept only when it fits well (GOOD_COST): the 13168-set's 13421, a yellow medium on the
# laminate (0-10°, 1280×720) whose stern lies on a white chit, was read (in doubt) at its size on
# 4f93340; its large from the turned small's tip fitted at 0.44 over the chit and was read as
# a large in doubt (session 50's merge).
def test_a_doubtful_longer_fit_from_a_turned_tip_does_not_lengthen_a_piece():
    p = found(13421, "medium", "yellow", (274.4, 155.1), seed0=13168)
    assert p is not None and p.size.value == "medium"


# Pieces that earlier rules found or sized without a fit, in doubt (a colour area's reading:
# 2690's green large, 4207's blue medium, 10016's yellow large; a clear wall's or strip's grey:
# 9296's and 11037's clear larges), are fitted since lead60 from a tip whose guess its screens
# turned, and read at their size, trusted and right (stern and tip 0.1-0.7 mm off at σ
# 0.2-1.0 mm on f149f94). Their old tests asked σ > 1.5 mm; these cases moved here.
@pytest.mark.parametrize(("seed", "seed0", "size", "color", "stern"), [
    (2690, 2512, "large", "green", (172.0, 195.0)),
    (4207, 3952, "medium", "blue", (412.8, 459.4)),
    (9296, 9136, "large", "clear", (402.8, 396.0)),
    (10016, 10000, "large", "yellow", (351.1, 405.8)),
    (11037, 10864, "large", "clear", (248.2, 300.1)),
])
def test_a_piece_read_in_doubt_before_is_fitted_from_a_turned_tip_and_trusted_right(
        seed, seed0, size, color, stern):
    p = piece_found(seed, seed0, size, color, stern, slack_mm=0.5)
    assert p.sigma_mm <= 1.5
    assert_no_sure_wrong_size(seed, seed0, size, color, stern, any_size=True)


# ... nor at a cost near GOOD_COST (TIP_TURNED_COST 0.32): the 8560-set's 8791, a black large on
# felt (10-22°, 1280×720) whose shadow joins its side, read in doubt on 4f93340 (its own fit
# 0.50), was fitted from a turned screen at 0.335, 3.1 mm off into its shadow at σ 0.9 mm:
# trusted and wrong (session 50's merge).
def test_a_turned_tip_fit_near_the_good_cost_is_not_trusted_off_its_piece():
    assert_no_sure_wrong_size(8791, 8560, "large", "black", (404.2, 414.9), any_size=True)


# A vivid small on wood that no region holds (issue 4, session 49, recallsmall59,
# detect._unregioned_colour_pieces): the score weighs its colour against the grain's noise
# and stays under the object level (peaks 1.8-2.5 against 2.0), while its footprint is of the
# wood's hue TABLE_SAT_SEP more saturated. Read on the score scaled to its vivid area, never
# trusted (σ 3.0 mm). The 5968-set's 6192, the 12304-set's 12356 (a cyan medium 1.0 mm away)
# and the 12592-set's 12759, orange smalls; each missed on ebd426f.
@pytest.mark.parametrize(("seed", "seed0", "stern"), [
    (6192, 5968, (315.9, 192.1)),     # 10-22°, 1920×1080
    (12356, 12304, (243.4, 138.2)),   # 22-35°, 1920×1080
    (12759, 12592, (252.8, 123.2)),   # 22-35°, 1280×720
])
def test_a_vivid_small_on_wood_with_no_region_is_found_never_trusted(seed, seed0, stern):
    _found_in_colour_never_trusted(seed, seed0, "small", "orange", stern)


# issue 4, session 50, trust60; a vivid reading whose stern end lacks its hue, asked under the
# size span and not only when trusted (detect.VIVID_STERN_END_SHARE's note). The 14032-set's
# 14285 (1280×720, 0-10°, blue cloth): a yellow medium against a purple medium read as a large
# at σ 1.8 mm, 6.9 mm behind its stern, its last 3 mm 0.00 of its hue: a step off, past 2σ.
# σ now covers the other sizes. The right yellow large of the same scene, its stern end of its
# hue, stays usable.
def test_a_vivid_reading_over_trusted_whose_stern_end_lacks_its_hue_covers_the_sizes():
    assert_no_sure_wrong_size(14285, 14032, "medium", "yellow", (434.5, 394.1))
    assert_kept_trusted(14285, 14032, "large", "yellow", (477.0, 106.4))


# issue 4, session 50, trust60; a vivid reading fitting at VIVID_TIP_END_COST or worse whose
# hue stops VIVID_TIP_END_GAP_MM or more short of its tip end (detect.VIVID_TIP_END_GAP_MM). The
# 14032-set's 14128 (1920×1080, 0-10°, wood): a purple large read 6.1 mm ahead of its stern at
# σ 0.3 mm (cost 0.194), its tip run on along a pink-white glare strip on its lit edge, its
# shaded stern face left out; its hue stops 4.6 mm short of its inside's tip end. The
# 13456-set's 13616 (1920×1080, 22-35°): an orange medium against an orange large read turned
# 95° at σ 5.9 mm (cost 0.486), 41 mm off at the worse end: 3.6 mm. σ now covers each. The
# yellow large beside 14128 and the orange large beside 13616 stay usable.
@pytest.mark.parametrize("seed, seed0, size, color, stern, beside", [
    (14128, 14032, "large", "purple", (180.1, 219.9), ("large", "yellow", (224.1, 258.9))),
    (13616, 13456, "medium", "orange", (523.3, 417.4), ("large", "orange", (502.1, 403.6))),
])
def test_a_vivid_reading_whose_hue_stops_short_of_its_tip_end_is_in_doubt(seed, seed0, size,
                                                                          color, stern, beside):
    assert_no_sure_wrong_size(seed, seed0, size, color, stern, any_size=True)
    assert_kept_trusted(seed, seed0, *beside)


# ... but not a right reading whose hue stops as short of its tip end at a clean fit (under
# VIVID_TIP_END_COST): guards, passing on 4f93340. The 12880-set's 13040, a purple large, 5.4 mm
# at cost 0.12; the 14032-set's 14048, a purple medium on felt, 9.4 mm at 0.11, and 14216, a
# purple medium on wood, 3.6 mm at 0.04.
@pytest.mark.parametrize("seed, seed0, size, color, stern", [
    (13040, 12880, "large", "purple", (386.7, 382.0)),
    (14048, 14032, "medium", "purple", (331.7, 263.2)),
    (14216, 14032, "medium", "purple", (441.2, 325.4)),
])
def test_a_right_vivid_reading_whose_hue_stops_short_at_a_clean_fit_keeps_its_trust(
        seed, seed0, size, color, stern):
    assert_kept_trusted(seed, seed0, size, color, stern)


# issue 4, session 51, white61; white pieces on the laminate missed beside a hand: the hand's
# region (an arm's shadow, a fingertip) took the piece in, no pass reads white in it, and
# base_quad.pieces_from_base left the piece's open base, dark and a clean quad, as the hand's.
# On a grey table such a base is now read as one off a hand is (pieces_from_base's in_unseen:
# the quad, the lanes, the edges ahead, named white) and in doubt (σ at least BASE_QUAD_MM):
# found at its size, in place, and never trusted; the scene holds no false piece.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (10618, 10576, "large", (269.0, 111.6)),   # 1920×1080, 0-10°, an arm beside it
    (14026, 13744, "medium", (311.1, 216.3)),  # 1920×1080, 0-10°, a fingertip at its tip
    (5181, 5104, "small", (348.1, 93.4)),      # 1280×720, 22-35°, in an arm's shadow
])
def test_a_white_piece_in_a_hands_region_on_the_laminate_is_read_from_its_open_base(
        seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "white"
    assert math.dist(p.pose.stern_mm, stern) < 1.5
    assert p.sigma_mm > 1.5
    assert_no_false_piece(seed, seed0)


def _no_false_nor_trusted_wrong(seed: int, seed0: int) -> None:
    """Scene ``seed`` of the run from ``seed0`` holds no false piece and no reading the rules
    would trust wrongly (bench_vision's match: no "false", no "SURE")."""
    r, det = bench_scene(seed, seed0)
    misses = match(r.truth, det).misses
    assert not any("false" in m or "SURE" in m for m in misses)


# issue 4, session 55, recallwhite65 (recall64's split as a second look); white pieces on the
# laminate missed against a coloured neighbour: the two pieces' crisp areas join, the
# neighbour's faces score strongly (5318: 0.56 of the joint area, over PALE_MAX_STRONG), no
# pale area is judged and the white's faces stay table. segment._pale_parts cuts the area at
# its vivid pixels; where no pass read a piece over the white part, detect._pale_part_pieces
# reads it: the region explained again with the part scored as object (5318), else the piece
# refitted whole to the crisp edges from the part's axis, in doubt (13964, as
# white_beside_found reads one). Found at its size and colour, in place; the scene holds no
# false piece and no trusted wrong reading.
@pytest.mark.parametrize(("seed", "seed0", "size", "stern"), [
    (5318, 5104, "small", (323.8, 394.0)),     # 1920×1080, 22-35°, base to base with a red small
    (13964, 13744, "medium", (274.6, 112.8)),  # 1920×1080, 22-35°, its tip on a cyan medium
])
def test_a_white_piece_whose_crisp_area_joins_a_coloured_neighbours_is_read_from_its_pale_part(
        seed, seed0, size, stern):
    p = found(seed, size, "white", stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.color == "white"
    assert math.dist(p.pose.stern_mm, stern) < 2.5
    _no_false_nor_trusted_wrong(seed, seed0)


# ... and a pale part where the second look reads no white piece adds none: 14388 and 14482
# (the 14320-set: a purple large's lit edge, no white piece there), 5354 (a white large under
# a purple one's outline, its whole refit 12° turned: not named white, left missed) and
# 13114 (the 12880-set's purple large's tinted shadow, which recall64 read as a false medium).
@pytest.mark.parametrize(("seed", "seed0"), [(14388, 14320), (14482, 14320), (5354, 5104),
                                             (13114, 12880)])
def test_a_pale_part_where_no_white_piece_is_read_adds_no_piece(seed, seed0):
    _no_false_nor_trusted_wrong(seed, seed0)


# Two touching pieces of one colour, each read (in doubt, or one trusted), where one reading
# lies in a footprint the other would have at a longer size, behind its stern (issue 4,
# session 60, merge70): detect._one_reading_per_doubtful_piece took them for one piece read
# twice and kept one, the other piece missed. One piece read twice is read in line or with
# its open base read across it (104-118° on the cases the merge exists for); these pairs are
# turned otherwise (detect.IN_LINE_DEG, BASE_ACROSS_DEG): both pieces found, in doubt, no
# false piece and no trusted wrong reading. Each (seed, seed0, colour, the two pieces as
# (size, stern)), the piece missed on 522ee5e first, the turn between the readings and the
# branch that merged them on 522ee5e: ONE_PIECE_SHARE (or TURNED_PIECE_SHARE), or
# _split_piece (a trusted reading dropped). Both fitted: a reading a rule set (score 0) is
# merged at any turn, its heading set, not seen (the lead on merging: the 5968-set's 6174, one
# white medium read as two smalls stern to stern, 170°, one set; 8272's 8318 and 9424's 9602,
# white pairs with a set reading, merged again).
@pytest.mark.parametrize(("seed", "seed0", "color", "pieces"), [
    # a trusted medium (σ 0.3 mm) and a small, 52°; _split_piece, 0.70
    (10625, 10576, "white", [("medium", (97.8, 271.6)), ("small", (102.2, 289.6))]),
    # a trusted small (σ 0.6 mm) and a small, 60°; _split_piece, 0.61
    (16571, 16336, "white", [("small", (395.0, 196.8)), ("small", (388.3, 189.3))]),
    # two smalls, 63°; 0.60 in the other's large
    (10607, 10576, "black", [("small", (144.2, 447.6)), ("small", (163.8, 448.3))]),
    # a medium and a small, 82°; 0.71 of the medium in the small's large
    (10982, 10864, "black", [("medium", (195.0, 367.0)), ("small", (210.3, 395.3))]),
    # a large and a medium, 78°; TURNED_PIECE_SHARE, 0.32
    (12167, 12016, "black", [("large", (184.8, 122.6)), ("medium", (200.2, 128.8))]),
    # a trusted small (σ 1.05 mm) and a medium, 66°; _split_piece, 0.73
    (16013, 15760, "black", [("small", (273.0, 186.2)), ("medium", (265.7, 170.6))]),
    # a small and a medium stern to stern, 164°; 0.46
    (8519, 8272, "green", [("small", (286.1, 115.6)), ("medium", (283.6, 110.0))]),
    # two smalls, 80°; 0.52
    (15107, 14896, "orange", [("small", (268.1, 152.3)), ("small", (256.7, 123.2))]),
    # a medium and a small stern to stern, 179°; 0.71 of the medium in the small's large
    (16535, 16336, "red", [("medium", (475.4, 416.4)), ("small", (477.2, 417.1))]),
    # a trusted small (σ 0.7 mm) and a small behind its stern, 149°; _split_piece, 0.81
    (16679, 16624, "purple", [("small", (512.2, 178.0)), ("small", (521.2, 178.2))]),
    # a trusted medium (σ 0.4 mm) and a small, 44°; _split_piece, 0.69
    (16061, 16048, "cyan", [("medium", (360.8, 195.4)), ("small", (339.3, 196.4))]),
])
def test_two_touching_pieces_of_one_colour_turned_apart_are_both_read(
        seed, seed0, color, pieces):
    for size, stern in pieces:
        p = found(seed, size, color, stern, seed0=seed0)
        assert p is not None and p.color == color
    _no_false_nor_trusted_wrong(seed, seed0)


# ... and one piece read over its tip and across its open base stays one reading (guards of
# detect._read_twice_turn): the 10576-set's 10760, a white large read as a small over its tip
# and a medium across its base 118° apart (BASE_ACROSS_DEG); the 15760-set's 16004, a clear
# large read as a medium over its tip and a small across its base 82° apart (clear readings
# are not asked the turn). Found, no wrong size the rules would trust, no false piece of its
# colour.
@pytest.mark.parametrize(("seed", "seed0", "color", "stern"), [
    (10760, 10576, "white", (120.0, 444.3)),
    (16004, 15760, "clear", (176.3, 301.2)),
])
def test_a_piece_read_over_its_tip_and_across_its_base_stays_one_reading(seed, seed0, color,
                                                                         stern):
    assert_no_sure_wrong_size(seed, seed0, "large", color, stern, any_size=True)
    r, det = bench_scene(seed, seed0)
    assert not [m for m in match(r.truth, det).misses if f"false small {color}" in m
                or f"false medium {color}" in m or f"false large {color}" in m]


# ... and the 16624-set's 16736: a yellow large partly under a hand (left out of the truth),
# read as two smalls, sterns 3 mm apart, 93° (over BASE_ACROSS_DEG's 88°), one reading left.
def test_a_piece_under_a_hand_read_twice_across_is_one_reading():
    _r, det = bench_scene(16736, 16624)
    assert len([p for p in det.pieces if p.color == "yellow"
                and math.dist(p.pose.stern_mm, (410.0, 375.0)) < 10.0]) == 1


# A trusted reading named black lit nearly as white plastic inside, white walls lit round it:
# a white piece's open base read across its hollow, σ covering the other sizes (issue 4,
# session 61, the lead; colors.HOLLOW_BLACK_*): the judge set 17488-17775's 17684, a white
# medium on the laminate (1920×1080, 22-35°) against a red medium's stern, read as a black
# small across its base at σ 0.92 mm on 9f8e39d (brightest tenth 0.758 of white's bar, its
# ring 0.671 lit), its tip 29 mm off.
def test_a_black_reading_across_a_white_pieces_open_base_is_in_doubt():
    assert_no_sure_wrong_size(17684, 17488, "medium", "white", (122.8, 180.0), any_size=True)


# ... and right black readings with one of the two tells alone stay trusted: the 16624-set's
# 16695, a black large whose lit faces reach 0.860 of white's bar (its ring 0.192 lit), and
# the 14896-set's 15029, a black medium beside a lit white face (ring 0.616 lit, brightest
# tenth 0.320).
@pytest.mark.parametrize("seed, seed0, size, stern", [
    (16695, 16624, "large", (451.4, 376.0)),
    (15029, 14896, "medium", (125.6, 180.2)),
])
def test_a_black_reading_with_one_white_tell_alone_stays_trusted(seed, seed0, size, stern):
    assert_kept_trusted(seed, seed0, size, "black", stern, within_mm=1.5, named=True)


def test_a_view_with_one_whole_marker_finds_its_pieces():
    """s26_partial_hd: a low camera sees marker 7 whole and 0 and 4 cut by the image edge; with
    its camera file one whole marker calibrates (calibrate.ONE_MARKER_*, issue 4, session 62,
    stills72). Its three pieces in view were missed (`too_few_markers`); now each is found at
    its size, no false piece, and σ covers each reading's error (in doubt far from the
    marker)."""
    from pathlib import Path

    from armada_vision.vision.io import load_camera_file, load_layout_file, read_image

    base = Path(__file__).resolve().parent.parent / "sample_images" / "stills"
    name = "s26_partial_hd"
    truth = json.loads((base / f"{name}.truth.json").read_text())
    det = detect(read_image(base / f"{name}.png"), load_layout_file(base / f"{name}.layout.json"),
                 load_camera_file(base / f"{name}.camera.json"))
    assert isinstance(det, Detections)
    t = match(truth, det)
    assert t.truth == 3 and t.matched == 3 and t.size_ok == 3
    assert not any("false" in m for m in t.misses)
    for p in truth["pieces"]:
        if not p["fully_visible"]:
            continue
        best = pair(p, [footprint(q.pose, NOMINAL_PIECES.dims(q.size)) for q in det.pieces])
        q = det.pieces[best]
        assert math.dist(q.pose.stern_mm, p["stern"]) < max(q.sigma_mm, 0.5), p["id"]


# A trusted reading turned about its tip by its camera-side face lost in its shadow is refitted
# without that face (issue 4, session 62, headbias72; refine.NEAR_FACE_*). The face turned to
# the camera is seen edge-on as a wedge from the tip to the stern corner; of the table's hue
# and darkened, it scores as the table in shadow, and the fit turned 1.6-4.3° about the tip,
# the stern 0.9-2.3 mm away from the camera, σ 0.3-0.6 mm. All 1280×720: the 16624-set's
# 16779 small green on felt (4.27°), 16773 small purple on cloth (1.88°), 16789 small cyan on
# cloth (1.90°); the 14896-set's 15141 small clear on felt (3.20°), 15081 small white on wood
# (1.99°); the 12880-set's 13141 small yellow on wood (2.12°), 12919 medium purple on cloth
# (1.63°); the 5968-set's 6051 large yellow on wood (1.98°). Now within 0.4° and 0.6 mm.
@pytest.mark.parametrize(("seed0", "seed", "size", "color", "stern", "heading"), [
    (16624, 16779, "small", "green", (400.17, 370.27), 237.8),
    (16624, 16773, "small", "purple", (174.74, 270.63), 263.36),
    (16624, 16789, "small", "cyan", (316.58, 385.96), 244.36),
    (14896, 15141, "small", "clear", (109.63, 320.53), 264.57),
    (14896, 15081, "small", "white", (308.16, 219.99), 250.36),
    (12880, 13141, "small", "yellow", (460.68, 454.21), 227.26),
    (12880, 12919, "medium", "purple", (172.18, 519.76), 269.44),
    (5968, 6051, "large", "yellow", (466.61, 194.76), 242.2),
])
def test_a_trusted_reading_whose_camera_side_face_is_lost_is_not_turned_about_its_tip(
        seed0, seed, size, color, stern, heading):
    p = found(seed, size, color, stern, seed0=seed0)
    assert p is not None and p.size.value == size and p.sigma_mm <= 1.5
    assert abs(angle_diff_deg(p.pose.heading_deg, heading)) < 1.0
    assert math.dist(p.pose.stern_mm, stern) < 0.8


# ... but not one whose refit without that face costs over NEAR_FACE_MAX_COST (issue 4,
# session 62, headbias72): the 14896-set's 15061 large black on felt (1280×720), read 0.32 mm
# off; its refit without the face costs 0.122 (0.36 of the standard refit's) and lies 1.43 mm
# off. Left trusted within 0.6 mm.
def test_a_reading_whose_refit_without_its_camera_side_face_fits_worse_is_left():
    assert_kept_trusted(15061, 14896, "large", "black", (394.17, 260.71), within_mm=0.6)
