"""Pieces read in their colour area where the fit map left them: touching pieces of different
colours parted by hue, a lone colour area beside a colourless piece, the rest of a reading
read short, and white pieces against a piece found.

Frames: view px of the top-down table view (y down); table mm for poses (+y away from the
viewer).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.colors import classify_color
from armada_vision.vision.explain import (
    COLOUR_MAX_LEFT,
    COLOUR_MIN_AREA,
    COLOUR_MIN_SHARE,
    COLOUR_RIM_PX,
    outline_mask,
    pieces_in_colour,
    round_area,
    unexplained_mask,
)
from armada_vision.vision.fit import ViewGrid
from armada_vision.vision.hands import pale_in, pale_white
from armada_vision.vision.look import (
    COLOURED_TABLE_SAT,
    VIVID_TABLE_HUE,
    colour_namer,
    table_hue_sat,
    unscaled_map,
    vivid_in,
    window_hsv,
)
from armada_vision.vision.order import median
from armada_vision.vision.pixels import channel_max
from armada_vision.vision.scene import Candidate, Scene
from armada_vision.vision.segment import TableView

# Touching pieces of different colours are parted where the hue steps by more than this
# (OpenCV's 0-180) between neighbouring pixels (split_by_hue).
HUE_STEP = 8
# A lone colour area is a piece touching a colourless one when it leaves the most of its
# region (the true ones of the tuning sets 0.19-0.51 of it): colours_apart.
APART_MAX_SHARE = 0.6
# ... and such a reading's outline is its own: at most this share hidden against solid
# neighbours (the true ones 0-0.35; a red medium read from a found small's area, 0.66).
APART_MAX_HIDDEN = 0.5
# A lone vivid piece's glint and shadow are solid outside its outline: its one colour area's
# reading may hide this much (7471's orange large 0.54) when it fits this cleanly (0.014;
# 7665's cyan large 0.157): lone_colour_piece.
LONE_MAX_HIDDEN = 0.6
LONE_COLOUR_COST = 0.2
# Beside a piece found (colours_left), a piece's outline lies along its neighbour's, which
# hides it: a reading that fits the rest that cleanly (LEFT_CLEAN_COST) may hide up to
# LONE_MAX_HIDDEN of it (issue 4, session 41, region51: the 10864-set's 10907, a yellow large
# against a red small, 0.52 hidden at cost 0.035; the 9712-set's 9797, a yellow small against
# a green medium, 0.60 at 0.011; the 8560-set's 8585, a red small against a cyan small, 0.54
# at 0.066; APART_MAX_HIDDEN's false red medium hid 0.66).
LEFT_CLEAN_COST = 0.1
# A colour area a reading leaves may be its own piece's rest, read short: a piece read there
# (colours_left) is dropped when at least this share of it lies in a longer size's footprint
# from a touching reading's tip (3377's orange medium read as a small, 3485's cyan large as a
# medium: false smalls in the rest, 0.77; the true ones added 0-0.09).
REST_OF_SHORT = 0.5
# ... a reading touching it: footprints at most this far apart (mm).
REST_TOUCH_MM = 3.0
# A colour area's reading may be one face of its piece only: a piece of the cloth's hue seen
# at its stern (dark, saturated) and along its lit side faces (paler) is two areas of one hue,
# parted by the ridge between them, which is not vivid (issue 4, session 39, trust49: the
# 10288-set's 10492, a green large on green cloth touching a blue large, its stern area read
# as a small turned 106° across it, cost 0.14, σ 3.0 mm, 87 mm off: trusted wrong; its lit
# faces, 708 px no reading explains, lie 2-3 px away at 1.5 px/mm, hue 63 as the stern's).
# An area no reading explains, at least COLOUR_MIN_AREA of a small's footprint, within
# JOIN_GAP_MM of a reading's outline as seen and within HUE_STEP of its colour's hue, is read
# with it: the two, closed over the gap, are fitted as one piece's area (own_colour_pieces'
# pass), and a reading that covers them (COLOUR_MAX_LEFT) is taken instead. If none does,
# the reading's length and turn are not known: its σ reaches that area's farthest pixel from
# the reading's nearer end (such readings are never usable already, σ ≥ HAND_COLOUR_MM).
JOIN_GAP_MM = 3.0
# Two touching pieces of two hues may stay one colour area: their blended border steps the
# hue from one to the other a little at a time, under HUE_STEP a pixel (the judge set's
# 15839, a red small, hue 0-3, against a yellow small, 17-26, bridged by border pixels of
# 10-12, read as one red medium over both, σ 10 mm, its worse end past 2σ: trusted wrong). A
# reading of colours_left whose outline holds over TWO_HUE_SHARE of its colour pixels more than
# TWO_HUE_APART from their median hue is read again in its area parted between the two hues
# (_two_hues_split); if nothing is read there, its σ covers the longest size (issue 4, session
# 56, split66). TWO_HUE_APART: one piece's own faces differ in hue by up to 11-12 (purple's
# lit and shaded faces, 142-145 and 154-157: at 10, right purple readings held up to 0.169 of
# such pixels); 15839's far pixels lie 16-25 from its median (0.352 at 16). TWO_HUE_SHARE at
# 15: 15839 0.354; the 940 right vivid readings of the touching scenes of 15760 and 15472
# (logged as colours_left sees them, the other readings' outlines left out; 545 touch a piece
# of another colour) at most 0.040 (the 15472-set's 15638, a cyan large), and the readings
# colours_left made on four sets at most 0.005 (at 10; the 5968-set's 5981, a red large and a
# yellow large touching, 0.002 and 0).
TWO_HUE_APART = 15.0
TWO_HUE_SHARE = 0.2
# A piece of the table's hue beside a piece found (colours_left) shows its colour on its lit
# faces only: its shaded faces are the table's hue, no more saturated, and not vivid (issue 4,
# session 40 round 2, hues50: green smalls on green felt, the 8272-set's 8516 beside a blue
# small, the 8560-set's 8720 beside a clear medium and 8828 beside a cyan small, their true
# fits at cost 0.06, 0.008 and 0.095 with 0.35, 0.37 and 0.27 of the outline in colour, under
# COLOUR_MIN_SHARE). Such a reading needs only TABLE_HUED_MIN_SHARE of its outline in
# colour when its colour area's median hue lies within look.VIVID_TABLE_HUE of the table's
# and it fits at most TABLE_HUED_COST (a lit face alone rarely fits a whole piece that well).
TABLE_HUED_MIN_SHARE = 0.25
TABLE_HUED_COST = 0.1
# ... and what is read of such a piece may be its lit faces alone, of a piece of any size
# lying at any turn about them: its shaded faces, the table's hue, no more saturated, are lost
# to the table (issue 4, session 44, trust54: the judge set's 12512, a green medium on green
# felt against an orange large, its tip under the large, read as a small turned 127° from it,
# cost 0.15, 0.42 of its outline hidden, its worse end 38 mm off at σ 3.0 mm / 1.8°; trust49's
# 10492 was its kin, mended only when the lit faces are a second area beside the reading).
# A reading beside a piece found whose colour is the table's (its outline's median hue within
# VIVID_TABLE_HUE of the table's on a coloured table; 12512's lit faces are more saturated
# than the felt, 220 against 167, so saturation is not asked) has σ of at least the longest
# size's footprint length: the piece's ends lie within that of the reading's. Such readings
# are never usable already (σ ≥ HAND_COLOUR_MM): no usable reading is lost. On eight tuning
# sets (12304-10288) it fired on 18 readings: 4 wrong sizes (12512 the one trusted), 14 right
# ones that now say less (σ 46 mm instead of 3-9 mm).


def colours_apart(scene: Scene, apart: np.ndarray, region: np.ndarray, sub: ViewGrid
                  ) -> bool:
    """Whether ``region``'s vivid mask parted where the hue steps (``apart``,
    :func:`parted_colours`) holds two areas of a piece's colour at least
    (pieces_in_colour's COLOUR_MIN_AREA), or one that leaves most of the region to a
    colourless neighbour (at most APART_MAX_SHARE of it): a lone coloured die is one area
    and most of its region (0.68, 0.71 on 2739 and 2774, read as red smalls at σ 15-17 mm)."""
    _lab, areas = _colour_areas(scene, apart, sub)
    return len(areas) >= 2 or (len(areas) == 1
                               and areas[0] <= APART_MAX_SHARE * np.count_nonzero(region))


def _colour_areas(scene: Scene, apart: np.ndarray, sub: ViewGrid
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The parted colour mask ``apart``'s areas (on ``sub``): their labels (8-connected) and
    the pixel counts of those big enough to be a piece's colour (pieces_in_colour's
    COLOUR_MIN_AREA of a small's footprint)."""
    _n, lab, stats, _ = cv2.connectedComponentsWithStats(apart.astype(np.uint8),
                                                          connectivity=8)
    areas = stats[1:, cv2.CC_STAT_AREA]
    return lab, areas[areas >= COLOUR_MIN_AREA * scene.small_area_mm2 * sub.px_per_mm**2]


def parted_colours(view: TableView, bg: np.ndarray, region: np.ndarray, sub: ViewGrid,
                   faint: bool = False) -> np.ndarray:
    """``region``'s vivid mask (on ``sub``) parted where the hue steps (:func:`split_by_hue`):
    each piece's colour an area of its own; ``faint``: faint plastic of the table's hue too."""
    hsv = window_hsv(view, sub)
    # HSV value is the largest channel: the table estimate's there, pixel by pixel.
    table_v = channel_max(bg[view.grid.window(sub)]) if faint else None
    return split_by_hue(hsv[..., 0], vivid_in(hsv, bg, region, faint=table_v))


def colours_left(scene: Scene, view: TableView, bg: np.ndarray, region: np.ndarray,
                 sub: ViewGrid, lying: list[Candidate]) -> list[Candidate]:
    """Pieces read in the colour areas (:func:`colours_apart`'s parted vivid mask) that the
    readings ``lying`` leave in ``region``: a piece touching one found (4082's green large
    against a red one), which the region's passes took as explained by its neighbour. As
    :func:`colours_apart`'s, each is never trusted (σ ≥ HAND_COLOUR_MM) and its outline is
    its own (APART_MAX_HIDDEN)."""
    min_px = COLOUR_MIN_AREA * scene.small_area_mm2 * sub.px_per_mm**2
    if np.count_nonzero(unexplained_mask(region, sub, lying)) < min_px:
        return []  # the readings leave no room for another piece's colour
    left = unexplained_mask(parted_colours(view, bg, region, sub, faint=True), sub, lying)
    if np.count_nonzero(left) < min_px:
        return []
    got = [c for c in own_colour_pieces(scene, left, sub, lying, view, bg, table_hued=True,
                                        own_hue=True, clean_hidden=True, beside=True)
           if not _rest_of_shorter(scene, c, lying, view, bg)]
    got = _two_hues_split(scene, view, bg, left, sub, lying, got)
    return [_lit_faces_doubt(scene, c) if _of_table_hue(c, view, bg, sub) else c for c in got]


def _other_hue_share(c: Candidate, area: np.ndarray, sub: ViewGrid, hue: np.ndarray
                     ) -> tuple[float, float, float]:
    """Of the colour ``area`` (on ``sub``) in ``c``'s outline as seen: the share of its
    pixels whose ``hue`` (OpenCV's 0-180) lies more than TWO_HUE_APART from their median,
    that median, and the median hue of those pixels (0.0, median, median if none)."""
    own = outline_mask(c, area.shape, sub) & area
    if not own.any():
        return 0.0, 0.0, 0.0
    h = hue[own].astype(np.float32)
    med = float(median(h))
    d = np.abs(h - med)
    far = np.minimum(d, 180.0 - d) > TWO_HUE_APART
    if not far.any():
        return 0.0, med, med
    return float(far.mean()), med, float(median(h[far]))


def _parted_at(hue: np.ndarray, area: np.ndarray, h1: float, h2: float) -> np.ndarray:
    """``area``'s pixels of hue within HUE_STEP of ``h1`` or of ``h2``, each set to the
    nearer of the two and parted where they meet (:func:`split_by_hue`): the blended border of
    two touching pieces, whose hue steps from one to the other a little at a time, is cut."""
    h = hue.astype(np.float32)
    d1 = np.abs(h - h1)
    d1 = np.minimum(d1, 180.0 - d1)
    d2 = np.abs(h - h2)
    d2 = np.minimum(d2, 180.0 - d2)
    keep = area & (np.minimum(d1, d2) <= HUE_STEP)
    two = np.where(d1 <= d2, round(h1) % 180, round(h2) % 180).astype(np.uint8)
    return split_by_hue(two, keep)


def _two_hues_split(scene: Scene, view: TableView, bg: np.ndarray, left: np.ndarray,
                    sub: ViewGrid, lying: list[Candidate], got: list[Candidate]
                    ) -> list[Candidate]:
    """``got`` (colours_left's readings in the colour areas ``left``, beside the readings
    ``lying``) with each reading whose outline holds two hues (over TWO_HUE_SHARE of its
    colour more than TWO_HUE_APART from the median) read again by the same pass in its area
    parted between those hues (:func:`_parted_at`): the readings there that hold one hue are
    taken instead; if there are none, it keeps its pose with σ covering the longest size."""
    if not got:
        return got
    hue = window_hsv(view, sub)[..., 0]
    out: list[Candidate] = []
    for i, c in enumerate(got):
        share, h1, h2 = _other_hue_share(c, left, sub, hue)
        if share <= TWO_HUE_SHARE:
            out.append(c)
            continue
        # The colour areas the reading lies on, parted between its two hues.
        _n, lab = cv2.connectedComponents(left.astype(np.uint8), connectivity=8)
        ids = np.unique(lab[outline_mask(c, left.shape, sub)])
        mine = np.isin(lab, ids[ids > 0])
        parted = (left & ~mine) | _parted_at(hue, mine, h1, h2)
        others = lying + out + got[i + 1:]
        again = [a for a in own_colour_pieces(scene, parted, sub, others, view, bg,
                                              table_hued=True, own_hue=True,
                                              clean_hidden=True)
                 if outline_mask(a, left.shape, sub)[mine].any()
                 and _other_hue_share(a, left, sub, hue)[0] <= TWO_HUE_SHARE
                 and not _rest_of_shorter(scene, a, lying, view, bg)]
        out += again or [c.in_doubt_of(max(scene.pieces.dims(z).footprint_length_mm
                                           for z in Size), 0.0)]
    return out


def _of_table_hue(c: Candidate, view: TableView, bg: np.ndarray, sub: ViewGrid) -> bool:
    """Whether ``c``'s outline (on ``sub``) is of a coloured table's hue: its pixels' median
    hue within VIVID_TABLE_HUE of the table's (its saturation over COLOURED_TABLE_SAT)."""
    ht, st = table_hue_sat(bg)
    if st <= COLOURED_TABLE_SAT:
        return False
    inside = outline_mask(c, sub.shape, sub)
    return bool(inside.any()) and _hue_near_table(window_hsv(view, sub)[..., 0], inside, ht)


def _hue_near_table(hue: np.ndarray, inside: np.ndarray, ht: float) -> bool:
    """Whether the median of ``hue`` (OpenCV hue, 0-180) over the non-empty mask ``inside``
    lies within VIVID_TABLE_HUE of the table's hue ``ht``, round the hue circle."""
    dh = abs(float(median(hue[inside])) - ht)
    return min(dh, 180.0 - dh) < VIVID_TABLE_HUE


def _lit_faces_doubt(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with σ covering a piece of any size at any turn about it (the note after
    TABLE_HUED_COST): the longest size's footprint length (mm)."""
    reach = max(scene.pieces.dims(z).footprint_length_mm for z in Size)
    return c.in_doubt_of(reach, 0.0)


def _table_hued_share(view: TableView, bg: np.ndarray, sub: ViewGrid
                      ) -> Callable[[Candidate, np.ndarray], float] | None:
    """For pieces_in_colour: the share of a fit's outline that must lie in its colour area,
    TABLE_HUED_MIN_SHARE for a clean fit (TABLE_HUED_COST) whose area is of the table's hue
    on a coloured table, else COLOUR_MIN_SHARE; None on a grey table."""
    ht, st = table_hue_sat(bg)
    if st <= COLOURED_TABLE_SAT:
        return None
    hue: list[np.ndarray] = []  # the window's hue, once asked (few fits are that clean)

    def share(c: Candidate, area: np.ndarray) -> float:
        if c.fit.cost > TABLE_HUED_COST:
            return COLOUR_MIN_SHARE
        inside = outline_mask(c, area.shape, sub) & area
        if not inside.any():
            return COLOUR_MIN_SHARE
        if not hue:
            hue.append(window_hsv(view, sub)[..., 0])
        return TABLE_HUED_MIN_SHARE if _hue_near_table(hue[0], inside, ht) else COLOUR_MIN_SHARE
    return share


# A white piece whose open base faces the camera (issue 4, session 61, recallwhite71): its hollow
# is dark, so its stern edge finds no edge on the map (its true fit costs over GOOD_COST: the
# 15472-set's 15533 0.434, the 14032-set's 14303 0.432, both smalls against a found large's tip
# on wood at 1280×720, 0-10°) and holds no pale plastic (0.52 and 0.44 of the outline as seen in
# the pale area, under COLOUR_MIN_SHARE). whites_left asks pieces_in_colour with ``base_open``:
# a fit over GOOD_COST is taken at its open base's cost (open_base.open_base_cost, hidden
# samples as misses: 0.017 and 0.065) when that is good and the view shows its open base darker
# than the table behind it and the face ahead (open_base.base_band: lanes 1.32-2.01 against
# BASE_STEP 1.15), and its base face as seen counts as pale (shares 0.90 and 0.77). No bound of
# its own: GOOD_COST, BASE_STEP and COLOUR_MIN_SHARE as elsewhere; the reading is in doubt.
def whites_left(scene: Scene, view: TableView, bg: np.ndarray, region: np.ndarray,
                sub: ViewGrid, lying: list[Candidate]) -> list[Candidate]:
    """White pieces read in the pale area (PALE_*) the readings ``lying`` leave in
    ``region`` on a coloured table, as :func:`colours_left` reads a vivid one: a white piece
    touching one found, which the region's passes took as explained by its neighbour. Only
    white ones (:func:`pale_white`) that are no found reading's rest
    (:func:`_rest_of_shorter`); never trusted (σ ≥ HAND_COLOUR_MM). A fit whose open base
    faces the camera is asked at its open base's cost, its base face counted as pale (above)."""
    if table_hue_sat(bg)[1] <= COLOURED_TABLE_SAT:
        return []
    min_px = COLOUR_MIN_AREA * scene.small_area_mm2 * sub.px_per_mm**2
    if np.count_nonzero(unexplained_mask(region, sub, lying)) < min_px:
        return []
    pale = pale_in(scene, view, region, sub)
    left = unexplained_mask(pale, sub, lying)
    if np.count_nonzero(left) < min_px:
        return []
    return [c for c in own_colour_pieces(scene, left, sub, lying, view, bg, base_open=True)
            if pale_white(c, scene, view, bg) and not _rest_of_shorter(scene, c, lying, view, bg)]


def lone_colour_piece(scene: Scene, view: TableView, bg: np.ndarray, apart: np.ndarray,
                      sub: ViewGrid, lying: list[Candidate]) -> list[Candidate]:
    """A lone vivid piece in a region no pass read anything in: the table's glint and the
    piece's shadow joined its region and, solid outside its outline, hide up to
    LONE_MAX_HIDDEN of it (7471's orange large on laminate, 0.54: the region's fits are
    scored with those samples and fail; 7665's cyan large on felt, its colour area over
    APART_MAX_SHARE of the region). Read in the region's one colour area
    (``apart``, :func:`parted_colours`; :func:`own_colour_pieces`, never trusted) when
    that area is the region's only one and
    the reading fits it cleanly (cost at most LONE_COLOUR_COST) and the area is no die's
    (:func:`explain.round_area`: the 7120-set's 7172, a red die on felt alone in its region,
    was read as a red small at cost 0.12)."""
    lab, areas = _colour_areas(scene, apart, sub)
    if len(areas) != 1:
        return []
    return [c for c in own_colour_pieces(scene, apart, sub, lying, view, bg,
                                         max_hidden=LONE_MAX_HIDDEN, unclean=False)
            if c.fit.cost <= LONE_COLOUR_COST and not round_area(c, lab, sub)]


def _rest_of_shorter(scene: Scene, c: Candidate, lying: list[Candidate], view: TableView,
                     bg: np.ndarray) -> bool:
    """Whether at least REST_OF_SHORT of ``c``'s footprint lies in the footprint of a longer
    size with the tip of a reading of its colour touching it: ``c`` may be that piece's rest,
    read short. A reading of another colour is another piece's (the 7408-set's 7640, a cyan
    small against a yellow small's tip)."""
    fc = scene.footprint(c)[0]
    colour = None
    for o in lying:
        if scene.footprint(o)[0].distance(fc) > REST_TOUCH_MM:
            continue
        colour = colour or classify_color(view, fc, bg)
        if classify_color(view, scene.footprint(o)[0], bg) != colour:
            continue
        d = scene.pieces.dims(o.size).footprint_length_mm
        tip = np.asarray(o.fit.pose.tip_mm(d))
        for z in scene.by_length:
            dims = scene.pieces.dims(z)
            if dims.footprint_length_mm > d and footprint(
                    Pose.with_tip(tip, o.fit.pose.heading_deg, dims.footprint_length_mm), dims
            ).intersection(fc).area >= REST_OF_SHORT * fc.area:
                return True
    return False


def own_colour_pieces(scene: Scene, areas: np.ndarray, sub: ViewGrid,
                      lying: list[Candidate], view: TableView, bg: np.ndarray,
                      max_hidden: float = APART_MAX_HIDDEN, unclean: bool = True,
                      table_hued: bool = False, own_hue: bool = False,
                      clean_hidden: bool = False, base_open: bool = False,
                      beside: bool = False) -> list[Candidate]:
    """:func:`pieces_in_colour` in the parted colour ``areas`` of a region with no hand (a
    longer piece's extra length would show in them), on the scaled map, else the unscaled
    one: a vivid neighbour sets the scaled map's level and a duller piece's faces sink (4040's
    purple small beside a cyan medium: its true pose 0.53 scaled, 0.15 unscaled). Only
    readings at most APART_MAX_HIDDEN of whose outline is hidden against solid neighbours.
    A reading's colour is asked only where no piece found of another colour leans over it
    (explain._covers_area): 6341's and 6404's yellow smalls on wood, a black and a green
    large leaning over them (0.66 and 0.46 of the outline as seen in colour, 0.81 and 0.71
    of the rest); one of its own colour may be its own piece read short (1898's purple
    medium, seen end on at 22-35 deg, read as two smalls side by side).
    With ``unclean`` (not for a lone piece, :func:`lone_colour_piece`), a reading another
    size's reading rivals is kept too, in doubt (σ covers the rival), unless its colour area
    is round (explain.ROUND_FILL): pieces_in_colour kept clean readings only (a rival may be
    a die or chit of the piece's colour, seed 2153), but here the area is a colour area
    beside another piece's, which is why the region's passes took it as explained by that
    neighbour (issue 4, session 36, touch46: 4 pieces on the tuning sets, each read within
    0.5 mm at σ 9-40 mm, were lost so; a piece found in doubt is better than a miss).
    A reading beside an unexplained area of its hue is read with it (:func:`_joined`,
    JOIN_GAP_MM): one piece's stern face and lit faces may be two areas. With
    ``table_hued``, a piece of the table's hue may show less of its outline in colour
    (:func:`_table_hued_share`); with ``own_hue``, a clean fit may leave a touching piece's
    hue out of its area (explain.OWN_HUE_COST); with ``clean_hidden``, a reading at most
    LEFT_CLEAN_COST may hide up to LONE_MAX_HIDDEN of its outline (beside a piece found); both
    only where neither map reads a piece without them. ``beside``: pieces_in_colour's (a fit
    that leaves under explain.BESIDE_MAX_LEFT of the area out, explain.BESIDE_MIN_SHARE)."""
    colour = colour_namer(scene, view, bg)
    min_share = _table_hued_share(view, bg, sub) if table_hued else None

    def other_colour(c: Candidate, o: Candidate) -> bool:
        return colour(o) != colour(c)

    def hidden(c: Candidate) -> float:
        return float(np.isnan(c.fit.sample_cost).mean())
    hue = window_hsv(view, sub)[..., 0]
    maps = [scene]  # and the unscaled map, made when first asked
    # The own-hue share and a clean reading hiding more are asked only where neither map
    # reads a piece the plain way: on one map they took a shorter size whose longer piece the
    # other map reads whole (the 10288-set's 10292, a purple medium against a yellow large: a
    # small at 0.004 hiding over half its outline on the scaled map, the medium on the
    # unscaled one; the 8272-set's 8381, a cyan large read as a medium on its own hue).
    for lenient in (False, True) if own_hue or clean_hidden else (False,):
        for k in range(2):
            if k == len(maps):
                maps.append(unscaled_map(scene, sub))
            sc = maps[k]
            read = pieces_in_colour(sc, areas, sub, areas, lying, other_colour=other_colour,
                                    rim_px=COLOUR_RIM_PX, unclean=unclean, min_share=min_share,
                                    own_hue=hue if lenient and own_hue else None,
                                    base_open=base_open, beside=beside)
            if got := [c for c in read if hidden(c) <= max_hidden
                       or (lenient and clean_hidden and c.fit.cost <= LEFT_CLEAN_COST
                           and hidden(c) <= LONE_MAX_HIDDEN)]:
                return _read_joined(sc, got, areas, sub, lying, hue, other_colour, unclean,
                                    max_hidden)
    return []


def _read_joined(scene: Scene, got: list[Candidate], areas: np.ndarray, sub: ViewGrid,
                 lying: list[Candidate], hue: np.ndarray,
                 other_colour: Callable[[Candidate, Candidate], bool], unclean: bool,
                 max_hidden: float) -> list[Candidate]:
    """:func:`_joined` of each reading of ``got`` (own_colour_pieces' on ``scene``)."""
    def read(area: np.ndarray, rest: list[Candidate]) -> list[Candidate]:
        return pieces_in_colour(scene, area, sub, area, lying + rest,
                                other_colour=other_colour, rim_px=COLOUR_RIM_PX,
                                unclean=unclean)
    out: list[Candidate] = []
    for i, c in enumerate(got):
        # Each against those read so far (a joined reading may be another's) and the rest.
        out.append(_joined(scene, c, areas, sub, lying, out + got[i + 1:], hue, read,
                           max_hidden))
    return out


def _unread_beside(scene: Scene, c: Candidate, areas: np.ndarray, sub: ViewGrid,
                   others: list[Candidate], hue: np.ndarray) -> np.ndarray | None:
    """The colour ``areas`` (on ``sub``) no reading (``c`` and ``others``) explains, of
    ``c``'s hue (within HUE_STEP of the median of ``hue`` in ``c``'s area) and within
    JOIN_GAP_MM of ``c``'s outline as seen, at least COLOUR_MIN_AREA of a small's footprint
    each; None if there are none."""
    min_px = COLOUR_MIN_AREA * scene.small_area_mm2 * sub.px_per_mm**2
    left = unexplained_mask(areas, sub, [c, *others])
    if np.count_nonzero(left) < min_px:
        return None
    seen = outline_mask(c, areas.shape, sub)
    own = seen & areas
    if not own.any():
        return None
    h0 = float(median(hue[own]))
    r = max(round(JOIN_GAP_MM * sub.px_per_mm), 1)
    near = cv2.dilate(seen.view(np.uint8), np.ones((2 * r + 1, 2 * r + 1), np.uint8)) > 0
    n, lab, stats, _ = cv2.connectedComponentsWithStats(left.view(np.uint8), connectivity=8)
    out = np.zeros(areas.shape, bool)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < min_px:
            continue
        part = lab == i
        if not (part & near).any():
            continue
        d = abs(float(median(hue[part])) - h0)
        if min(d, 180.0 - d) <= HUE_STEP:
            out |= part
    return out if out.any() else None


def _joined(scene: Scene, c: Candidate, areas: np.ndarray, sub: ViewGrid,
            lying: list[Candidate], rest: list[Candidate], hue: np.ndarray,
            read: Callable[[np.ndarray, list[Candidate]], list[Candidate]], max_hidden: float
            ) -> Candidate:
    """``c``, read in one colour area, or, when an area of its hue no reading explains lies
    beside it (:func:`_unread_beside`, JOIN_GAP_MM), the reading (``read``, the pass that
    read ``c``) of the two closed over the gap that covers them, else ``c`` with σ reaching
    that area's farthest pixel from its nearer end: its length is not known."""
    beside = _unread_beside(scene, c, areas, sub, lying + rest, hue)
    if beside is None:
        return c
    r = max(round(JOIN_GAP_MM * sub.px_per_mm), 1)
    joined = cv2.morphologyEx((beside | (outline_mask(c, areas.shape, sub) & areas))
                              .view(np.uint8), cv2.MORPH_CLOSE,
                              np.ones((2 * r + 1, 2 * r + 1), np.uint8)) > 0
    total = np.count_nonzero(joined)
    for o in read(joined, rest):
        if (np.isnan(o.fit.sample_cost).mean() <= max_hidden
                and np.count_nonzero(unexplained_mask(joined, sub, [o]))
                <= COLOUR_MAX_LEFT * total):
            return o
    ends = np.array([c.fit.pose.stern_mm, c.fit.pose.tip_mm(
        scene.pieces.dims(c.size).footprint_length_mm)])
    pts = sub.to_mm(np.argwhere(beside)[:, ::-1])
    reach = float(np.linalg.norm(pts[:, None, :] - ends[None], axis=-1).min(axis=1).max())
    return c.in_doubt_of(reach, 0.0)


def split_by_hue(hue: np.ndarray, vivid: np.ndarray) -> np.ndarray:
    """``vivid`` less the pixels where ``hue`` (same window, OpenCV's 0-180) steps by more
    than HUE_STEP to a neighbour (circular): two touching pieces of different colours part,
    one piece's shaded faces (same hue) do not."""
    h = hue.astype(np.int16)
    step = np.zeros(h.shape, bool)
    for dv, du in ((0, 1), (1, 0), (1, 1), (1, -1)):
        a = h[dv:, max(du, 0):h.shape[1] + min(du, 0)]
        b = h[:h.shape[0] - dv, max(-du, 0):h.shape[1] - max(du, 0)]
        d = np.abs(a - b)
        d = np.minimum(d, 180 - d) > HUE_STEP
        step[dv:, max(du, 0):h.shape[1] + min(du, 0)] |= d
        step[:h.shape[0] - dv, max(-du, 0):h.shape[1] - max(du, 0)] |= d
    return vivid & ~step
