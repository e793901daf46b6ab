"""Hands over the table: skin told from plastic, and the pieces read in a hand's region.

Frames: view px of the top-down table view, y down; table mm for poses (+y away from the viewer).
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceSet
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.colors import classify_color, name_color, piece_color_stats
from armada_vision.vision.crisp import (
    COVER_GROW_MM,
    GREY_SHADE,
    MIN_SHARE,
    OPEN_MM,
    _areas,
    _without_lit_shadows,
    crisp_pieces,
)
from armada_vision.vision.explain import (
    DOUBT_MAX_LEFT,
    HAND_COLOUR_MM,
    HAND_MAX_COST,
    HAND_MAX_HIDDEN,
    pieces_in_colour,
    unexplained_mask,
)
from armada_vision.vision.fit import ViewGrid
from armada_vision.vision.look import (
    COLOURED_TABLE_SAT,
    colour_map,
    median_shade,
    table_hsv,
    table_hue_sat,
    window_hsv,
)
from armada_vision.vision.order import median
from armada_vision.vision.pixels import masked
from armada_vision.vision.scene import GOOD_COST, Candidate, Scene, joint_cost
from armada_vision.vision.segment import FAINT_SCORE, TableView, grey_at_mid

# A white piece in a hand's region (issue 4, session 37, white47: in or against its arm's
# shadow, which runs off the view and takes the piece into the hand's region, where only
# vivid colours were read; hand_pale_pieces), or touching a piece found on a coloured table
# (the region's passes took it as explained by its neighbour; whites_left): its lit faces
# are grey and brighter than the table's estimate (which a hand's shadow dims): HSV
# saturation under PALE_SAT (skin 90-140; the white pieces 9-26 at their 90th percentile;
# felt and cloth 88 and more) and shade at least PALE_SHADE (the white pieces' lit faces
# 1.6-4.0 at their median; on laminate the lit table beside a hand's shadow, which the
# estimate dims too, reaches 1.4 at its 90th percentile). Read as the vivid colours are
# (pieces_in_colour: a clean fit covering the pale area, never trusted) and kept only when
# named white and fitted at most PALE_COST: the white pieces read so fit 0.03-0.20; a clear
# large's lit tip in a hand's shadow beside one (9136-set's 9173) fitted a small at 0.28.
PALE_SAT = 40
PALE_SHADE = 1.45
PALE_COST = 0.24
# ... and with at most PALE_SKIN of the points just outside its outline skin (_border_skin): a
# lit patch of laminate between a hand's finger shadows, against a finger, was read as a white
# small in the 9424-set's 9456 (0.14; the white pieces read so 0-0.02).
PALE_SKIN = 0.08
# ... and in a hand's region on a grey table (laminate), its footprint's median shade at least
# PALE_GREY_SHADE: the lit table between a hand's finger shadows, which the estimate dims,
# reads 1.58-1.63 (9424-set 9456, 9712-set 9924: read as white smalls, cost 0.12-0.15),
# white plastic in a hand's shadow there 1.84-1.93 (8850, 9173; 9556's large in an arm's
# shadow, 1.62, is lost with them).
PALE_GREY_SHADE = 1.75
# ... and so, on a grey table, only the pale area's parts (8-connected) whose median shade is
# PALE_GREY_SHADE or more are fitted: the lit laminate beside a hand's shadow makes parts of
# 1.52-1.67 (seed 1007: five, 13.7 smalls' area, ~120 ms of fits for nothing), the white
# pieces' parts 1.92 (8850, 9173). Not asked per pixel: that cuts a white piece's own darker
# faces out of its area (9173's large was lost so).
# A black piece in a hand's region on a coloured table (issue 4, recall; session 62, black72;
# hand_dark_pieces): the hand's region takes in a black piece beside it or in its shadow, where
# only vivid colours (pieces_in_colour), white ones (hand_pale_pieces) and clean pieces at the
# region's corners (pieces_at_tips) were read. Black plastic is colourless, lit or not: the
# spread of its BGR channels (max - min, 0-255) under BLACK_HAND_CHROMA, where HSV saturation
# is not (dark pixels' saturation is noise: the black pieces' median 12-43, up to 73 at their
# 80th percentile). The cases (13478, 14492, 14720, 16388, 17212, 14785, 16696, 6015): the
# black pieces' footprints 4-9 at their 80th percentile; the rest of their hands' regions
# (table, its shadows, skin) 29-41 at their 20th. Read as white ones are (PALE_COST,
# PALE_SKIN), kept only when named black; σ at least HAND_COLOUR_MM. The pieces found so
# (14492, 17212, 16696, 6015) fit 0.034-0.206 with 0-0.017 of their border skin; 13478's,
# against two fingers, 0.225 (turned down by PALE_SKIN, as a dark gap between fingers would be).
BLACK_HAND_CHROMA = 20
# A clear piece in a hand's region (clear_in_hands): its crisp or muted area is taken in
# up to this far past the region's border (mm), which may run across the piece.
HAND_CLEAR_GROW_MM = 3.0
# ... and only where the foreground score counts the area as object (its median at least
# FAINT_SCORE): the hand's shadow, the table's hue darkened and named clear, is forgiven as
# shadow (seed 1007's, 596 mm², median 0.34: 20 ms of fits for nothing), while the clear
# pieces read in hands' regions stand out, lit or muted (6621, 6641, 6273: 5.4-16.6).
HAND_CLEAR_SCORE = FAINT_SCORE
# ... and on a crisp area a doubtful fit up to HAND_CLEAR_DOUBT_COST named clear is kept too, in
# doubt (σ at least DOUBT_FLOOR_MM), as on a muted one (issue 4, session 48, recallclear58): a
# clear piece's crisp area in a hand's shadow's region takes its own shadow in and fits only
# doubtfully: the 11440-set's 11637 (a clear medium on the laminate, 22-35°, 1280x720: cost
# 0.50, stern 2.6 mm off) and the 5968-set's 6125 (a clear small, 0.36) were missed, only good
# fits being kept. Not up to MAX_COST: the 8848-set's 8995, a white large's shadow beside a
# hand on the laminate, fitted as a clear small at 0.55, was read as a false clear medium.
HAND_CLEAR_DOUBT_COST = 0.52
# A doubtful fit whose inside is a warm colour (red, orange, yellow) duller than plastic (HSV
# saturation under SKIN_MAX_SAT, 0-255) is skin: on wood a hand is taken into the table
# estimate and only its fingers' edges and ends score (issue 4, check seed 1058: a fingertip
# read as a doubtful orange small, cost 0.46, saturation 98). The plastic is vivid: of the
# coloured pieces found on seeds 1000-1071 the dullest was 102 (a purple, cost 0.02), the
# dullest doubtful one 118 (a red, 0.43), the other doubtful warm ones 155 and more.
SKIN_MAX_SAT = 110.0
WARM = frozenset({"red", "orange", "yellow"})
# A fit inside a finger (issue 4, tuning seeds 1341, 1241: good-fit orange smalls, saturation
# 105 and 111) is told by the skin going on past its outline (in_skin).
SKIN_IN_MAX_SAT = 140.0
SKIN_RING_MM = 4.0
SKIN_SAME_BGR = 30.0
SKIN_RING_SHARE = 0.4
# A reading named clear or white whose outline as seen is skin round much of it is the table
# (or a hand's shadow on it) in the crook between a thumb and a palm, a region of its own
# (in_crook_of_hand; issue 4, session 31, false40c: the 7408-set's 7415, a small named clear
# in a hand's shadow, cost 0.38, and the 7984-set's 8131, one named white, cost 0.29, both on
# laminate): over SKIN_BORDER_SHARE of the samples SKIN_BORDER_MM outside its outline are skin
# (warm, duller than plastic), 0.72 and 0.50 there. A piece ends against the table, its
# shadow or its neighbours; one touching a hand touches it along a part of its outline (the
# 7696-set's 7828, a clear medium on felt whose tip touches a hand, read in doubt: 0.07; a red
# small partly under 8131's hand, 0.38). The table estimate takes a hand in, so skin is told
# by its own colour, not against the estimate under it. SKIN_MIN_SAT: a dull warm colour
# under it is named no colour (colors.name_color).
SKIN_BORDER_MM = 3.0
SKIN_BORDER_SHARE = 0.4
SKIN_BORDER_SAMPLES = 120
SKIN_MIN_SAT = 90.0
# Warm hues (OpenCV's 0-180): under the first (red, orange, yellow) or from the second (red).
SKIN_WARM_HUE = (45.0, 160.0)
# A table greyer than this (HSV saturation: laminate, grey felt) or of a cool hue is told
# from skin; a warm one (wood) is not.
SKIN_GREY_TABLE_SAT = 40
# On wood a doubtful reading named warm whose inside is no more vivid than the wood there (HSV
# saturation at most this over the table estimate's) is no plastic (_dull_as_wood; issue 4,
# session 32, wood41): a finger's skin, lit a little more vivid than SKIN_MAX_SAT (the
# 8272-set's 8289 and 8499: orange, 111-118, the wood 123-136), or wood lit beside a hand's
# shadow that dragged the estimate down (8494, 7984-set 8001: yellow, 117-119, the wood
# 118-119: the same saturation, ×1.7 brighter): 0 or less over the wood there. Orange, yellow
# and red plastic on wood read in doubt (the 8272 and 7408 sets' wood scenes): 91 and more
# over the wood, but for a yellow small whose lit face clips white (7408-set 7640: 159, 33
# over the wood).
WOOD_SAT_MARGIN = 15
# The same test asks a good fit too (skin_on_wood; issue 4, session 47, precision57): on wood
# a fingertip, or the wood lit between a hand's finger shadows, fits a small or medium cleanly
# (cost 0.25-0.35) and was a trusted false orange piece (σ 0.4-0.6 mm): the 12304-set's 12376
# and 12556, the 12592-set's 12844 and 12869, the 13168-set's 13220 (read twice), the
# 11152-set's 11339: saturation 100-131 inside, 4 to 37 under the wood there. Orange, red and
# yellow plastic on wood fitted well reads 41 and more over it (the 8848-set's 8951, 5968-set's
# 5997, 10576-set's 10760: 41-100; session 32's survey: 91 and more, the clipped yellow 7640 33).
# Plastic lit pale is told by its glare and its own hue: the 12304-set's 12338, a red small
# whose lit face clips white (value 255, saturation 145 against the wood's 142), hue 2 against
# the wood's 15. Skin and lit wood are matte and of the wood's hue (value 146-215, hue 0-5
# from the wood's on the cases above), so a good fit is asked only when its median value is
# under SKIN_WOOD_MAX_VALUE and its hue within SKIN_WOOD_HUE (OpenCV's 0-180) of the wood's.
SKIN_WOOD_MAX_VALUE = 245
SKIN_WOOD_HUE = 7
# ... and lit: its median value at least SKIN_WOOD_LIT of the table estimate's there. A piece
# in a neighbour's shade is dark, not skin: the 11440-set's 11720, an orange small half under a
# black large on wood, value 51 against the wood's 172 (0.30), saturation and hue the wood's
# there, was dropped. The skin and lit wood of the cases above are 1.28-2.0 of the estimate
# (a hand's shadow drags it down), the wood seen through 13313's clear large 0.90.
SKIN_WOOD_LIT = 0.75


def clear_in_hands(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                   crisp: np.ndarray, grey: np.ndarray | None, ratio: np.ndarray | None,
                   hands: list[tuple[ViewGrid, np.ndarray]], lying: list[Candidate],
                   standing: list[Candidate], is_clear: Callable[[Candidate], bool],
                   looks_clear: Callable[[tuple[slice, slice], np.ndarray], bool]
                   ) -> list[Candidate]:
    """Clear pieces in the hands' regions (``hands``: (sub-grid, region)), which the crisp
    and desaturated passes leave out: each crisp area (``crisp``, with ``edges``) and muted
    one (``grey``, cut at its own level by ``ratio``) lying there, grown by
    HAND_CLEAR_GROW_MM, counted as object by the foreground score (HAND_CLEAR_SCORE) and of
    a clear piece's median colour (``looks_clear(window, area)``: the fingers' filled
    outlines are skin-coloured), fitted as those passes fit theirs (a good fit; on a crisp
    area a doubtful one up to HAND_CLEAR_DOUBT_COST too, on a muted one up to MAX_COST, as the
    desaturated pass keeps one; no soft reading, no peel), named clear (``is_clear``) and not
    a finger's patch (:func:`in_skin`), σ at least HAND_COLOUR_MM: a hand may hide its
    neighbourhood's edges."""
    def worth(sl: tuple[slice, slice], area: np.ndarray) -> bool:
        return (float(median(scene.score[sl][area])) >= HAND_CLEAR_SCORE
                and looks_clear(sl, area))

    grid = scene.grid
    r = max(round(HAND_CLEAR_GROW_MM * grid.px_per_mm), 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
    # The hands' regions grown, and their windows: only the windows are worked on here.
    grown = np.zeros(grid.shape, bool)
    wins = []
    for sub, region in hands:
        rows, cols = grid.window(sub)
        r0, c0 = max(rows.start - r, 0), max(cols.start - r, 0)
        win = (slice(r0, min(rows.stop + r, grid.shape[0])),
               slice(c0, min(cols.stop + r, grid.shape[1])))
        pad = np.zeros((win[0].stop - r0, win[1].stop - c0), np.uint8)
        pad[rows.start - r0:rows.stop - r0, cols.start - c0:cols.stop - c0] = region
        grown[win] |= cv2.dilate(pad, disc) > 0
        wins.append(win)
    min_px = MIN_SHARE * scene.small_area_mm2 * grid.px_per_mm**2
    max_px = 2.5 * scene.max_area_mm2 * grid.px_per_mm**2

    # The pieces found, grown as the passes grow them, in each window.
    rc = max(round(COVER_GROW_MM * grid.px_per_mm), 1)
    cdisc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rc + 1,) * 2)
    covers = []
    for win in wins:
        cover = np.zeros((win[0].stop - win[0].start, win[1].stop - win[1].start), np.uint8)
        for c in [*lying, *standing]:
            cv2.fillPoly(cover, [np.round(grid.to_px(c.outline_mm)
                                          - (win[1].start, win[0].start)).astype(np.int32)], 1)
        covers.append(cv2.dilate(cover, cdisc) == 0)

    ro = max(round(OPEN_MM * grid.px_per_mm), 1)
    odisc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ro + 1,) * 2)

    def any_worth(mask: np.ndarray, mid_of: np.ndarray | None = None) -> bool:
        # Whether any area there is worth a pass's call (its full-view work): the areas
        # the pass fits (less the pieces found, cut as it cuts them, opened), by window.
        for win, free in zip(wins, covers, strict=True):
            left = mask[win] & grown[win] & free
            if mid_of is not None:
                left = grey_at_mid(left, mid_of[win], min_px)
            if scene.shade is not None:
                left = _without_lit_shadows(left, scene.shade[win], scene.score[win], min_px)
            body = cv2.morphologyEx(left.view(np.uint8), cv2.MORPH_OPEN, odisc)
            for c0, r0, area in _areas(body, min_px):
                if np.count_nonzero(area) > max_px:
                    continue  # not fitted by the passes either (a hand's crisp area)
                sl = (slice(win[0].start + r0, win[0].start + r0 + area.shape[0]),
                      slice(win[1].start + c0, win[1].start + c0 + area.shape[1]))
                if worth(sl, area):
                    return True
        return False

    got = []
    if any_worth(crisp):
        got += [c for c in crisp_pieces(scene, edges, crisp & grown, lying, None, standing,
                                        heading_floor=True, area_if=worth,
                                        doubtful_if=is_clear)
                if is_clear(c) and c.fit.cost <= HAND_CLEAR_DOUBT_COST]
    if grey is not None and ratio is not None and any_worth(grey, ratio):
        got += [c for c in crisp_pieces(scene, None, grey & grown, lying + got, None,
                                         standing, shade_range=GREY_SHADE,
                                         heading_floor=True, one_size=True, base_open=True,
                                         mid_of=ratio, doubtful_if=is_clear,
                                         area_if=worth)
                if is_clear(c)]
    return [c.in_doubt_of(HAND_COLOUR_MM, 0.0) for c in got if not in_skin(c, view, bg)]


def pale_in(scene: Scene, view: TableView, region: np.ndarray, sub: ViewGrid) -> np.ndarray:
    """The pixels of ``region`` (on ``sub``) grey and lit as white plastic is (PALE_SAT,
    PALE_SHADE); opened by a pixel (speckle)."""
    hsv = window_hsv(view, sub)
    shade_px = scene.shade[scene.grid.window(sub)]  # type: ignore[index]
    pale = (region & (hsv[..., 1] < PALE_SAT) & (shade_px >= PALE_SHADE)).view(np.uint8)
    return cv2.morphologyEx(pale, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0


def pale_white(c: Candidate, scene: Scene, view: TableView, bg: np.ndarray) -> bool:
    """Whether ``c``, read in a pale area, is a white piece: fitted at most PALE_COST, named
    white, and no more than PALE_SKIN of its border skin (a lit patch between fingers)."""
    return (c.fit.cost <= PALE_COST and _border_skin(c, view, bg) <= PALE_SKIN
            and classify_color(view, scene.footprint(c)[0], bg) == "white")


def _lit_parts(scene: Scene, mask: np.ndarray, sub: ViewGrid, shade: float) -> np.ndarray:
    """The parts (8-connected) of ``mask`` (on ``sub``) whose median shade (brightness over
    the table's estimate) is at least ``shade``."""
    n, labels = cv2.connectedComponents(mask.view(np.uint8), connectivity=8)
    if n <= 1:
        return mask
    shade_px = scene.shade[scene.grid.window(sub)]  # type: ignore[index]
    # Each part's median at once: its shades sorted within it, the middle one(s) taken.
    inside = labels > 0
    lab, vals = labels[inside], shade_px[inside]
    order = np.lexsort((vals, lab))
    vals = vals[order]
    counts = np.bincount(lab, minlength=n)[1:]
    starts = np.cumsum(counts) - counts
    medians = (vals[starts + (counts - 1) // 2] + vals[starts + counts // 2]) / 2
    keep = np.concatenate(([False], medians >= shade))
    return keep[labels]


def hand_pale_pieces(scene: Scene, view: TableView, bg: np.ndarray, region: np.ndarray,
                     sub: ViewGrid, taken: list[Candidate]) -> list[Candidate]:
    """White pieces in a hand's ``region`` (on ``sub``): read in its pale area (PALE_*:
    grey, lit over the table's estimate) as :func:`explain.pieces_in_colour` reads a vivid
    one, on the fit map and then on the area itself (:func:`colour_map`); only white ones
    are kept (:func:`pale_white`); on a grey table only the pale area's parts lit at least
    PALE_GREY_SHADE are read, and only readings so lit kept."""
    pale = pale_in(scene, view, region, sub)
    coloured = table_hue_sat(bg)[1] > COLOURED_TABLE_SAT
    if not coloured:
        pale = _lit_parts(scene, pale, sub, PALE_GREY_SHADE)
    return _read_in_area(scene, region, sub, pale, taken, lambda c: pale_white(
        c, scene, view, bg) and (coloured or median_shade(
            scene, scene.footprint(c)[0].buffer(-1.0)) >= PALE_GREY_SHADE))


def _read_in_area(scene: Scene, region: np.ndarray, sub: ViewGrid, area: np.ndarray,
                  taken: list[Candidate], keep: Callable[[Candidate], bool]) -> list[Candidate]:
    """The pieces :func:`explain.pieces_in_colour` reads in ``area`` of a hand's ``region``
    (on ``sub``), on the fit map and then on the area itself (:func:`colour_map`), those
    ``keep`` passes; none when the area is under half a small's."""
    if np.count_nonzero(area) < scene.small_area_mm2 * sub.px_per_mm**2 / 2:
        return []
    out: list[Candidate] = []
    for s in (scene, colour_map(scene, area, sub)):
        got = pieces_in_colour(s, region, sub, area, taken + out, under_hand=True)
        out += [c for c in got if keep(c)]
    return out


def hand_dark_pieces(scene: Scene, view: TableView, bg: np.ndarray, region: np.ndarray,
                     sub: ViewGrid, taken: list[Candidate]) -> list[Candidate]:
    """Black pieces in a hand's ``region`` (on ``sub``) on a coloured table: read in its
    colourless area (BLACK_HAND_CHROMA) as :func:`hand_pale_pieces` reads a white one, on the
    fit map and then on the area itself (:func:`colour_map`); only those fitted at most
    PALE_COST, with at most PALE_SKIN of their border skin and named black are kept (σ at
    least HAND_COLOUR_MM: never trusted)."""
    if table_hue_sat(bg)[1] <= COLOURED_TABLE_SAT:
        return []
    bgr = view.image_bgr[scene.grid.window(sub)]
    chroma = bgr.max(axis=2).astype(np.int16) - bgr.min(axis=2)
    dark = (region & (chroma < BLACK_HAND_CHROMA)).view(np.uint8)
    dark = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    return _read_in_area(scene, region, sub, dark, taken, lambda c: (
        c.fit.cost <= PALE_COST and _border_skin(c, view, bg) <= PALE_SKIN
        and classify_color(view, scene.footprint(c)[0], bg) == "black"))


def is_skin(c: Candidate, view: TableView, bg: np.ndarray, pieces: PieceSet) -> bool:
    """Whether doubtful ``c`` is a finger's skin, not plastic: its inside a warm colour
    duller than plastic (SKIN_MAX_SAT), or on wood no more vivid than the wood
    (:func:`_dull_as_wood`)."""
    if c.fit.cost <= GOOD_COST or c.upright:
        return False
    stats = piece_color_stats(view, footprint(c.fit.pose, pieces.dims(c.size)), bg)
    return stats is not None and (_skin_colour(*stats) or _dull_as_wood(*stats, bg))


def skin_on_wood(c: Candidate, view: TableView, bg: np.ndarray, pieces: PieceSet) -> bool:
    """Whether good-fit ``c`` (cost at most GOOD_COST; :func:`is_skin` asks the doubtful ones)
    lying on a wood table is a finger's skin or lit wood: named warm and no more vivid than
    the wood there (:func:`_dull_as_wood`), lit but matte (median value from SKIN_WOOD_LIT of
    the table estimate's to under SKIN_WOOD_MAX_VALUE) and of the wood's hue (within
    SKIN_WOOD_HUE). The footprint's colour is only measured on wood."""
    if c.fit.cost > GOOD_COST or c.upright or not wood_table(bg):
        return False
    stats = piece_color_stats(view, footprint(c.fit.pose, pieces.dims(c.size)), bg)
    if stats is None or not _dull_as_wood(*stats, bg):
        return False
    (h, _, v), (ht, _, vt) = cv2.cvtColor(np.uint8([np.clip(stats, 0, 255)]),
                                          cv2.COLOR_BGR2HSV)[0].astype(int)
    return (SKIN_WOOD_LIT * vt <= v < SKIN_WOOD_MAX_VALUE
            and min(abs(h - ht), 180 - abs(h - ht)) <= SKIN_WOOD_HUE)


def wood_table(bg: np.ndarray) -> bool:
    """Whether the table estimate ``bg`` is wood: its median warm and over
    SKIN_GREY_TABLE_SAT (as _dull_as_wood tells it)."""
    ht, st, _ = table_hsv(bg)
    return st > SKIN_GREY_TABLE_SAT and bool(_warm(np.float32(ht)))


def _dull_as_wood(bgr: np.ndarray, table_bgr: np.ndarray, bg: np.ndarray) -> bool:
    """Whether a median colour (BGR 0-255) named warm over the table's ``table_bgr`` there is
    skin or lit wood on a wood table (``bg``'s median warm and over SKIN_GREY_TABLE_SAT): its
    HSV saturation at most WOOD_SAT_MARGIN over the table's there."""
    if not wood_table(bg):
        return False
    if name_color(bgr, table_bgr) not in WARM:
        return False
    sat = cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)], [np.clip(table_bgr, 0, 255)]]),
                       cv2.COLOR_BGR2HSV)[:, 0, 1].astype(float)
    return sat[0] <= sat[1] + WOOD_SAT_MARGIN


def in_skin(c: Candidate, view: TableView, bg: np.ndarray) -> bool:
    """Whether ``c`` (good fit or not) is a patch of a finger: its inside a skin colour
    (warm, duller than SKIN_IN_MAX_SAT) and the same colour going on outside its outline on
    over SKIN_RING_SHARE of a ring SKIN_RING_MM wide (view px). A piece ends at its outline
    (table or shadow beyond); a finger goes on past the fit's ends into the hand."""
    got = outline_inside(c, view)
    if got is None:
        return False
    img, inside, box = got
    x0, y0, x1, y1 = box
    med = median(img[inside > 0].astype(np.float32), axis=0)
    table = median(bg[y0:y1, x0:x1][inside > 0], axis=0)
    if not _skin_colour(med, table, SKIN_IN_MAX_SAT):
        return False
    ring = ring_outside(inside, view, box)
    if not ring.any():
        return False
    d = np.linalg.norm(img[ring > 0].astype(np.float32) - med, axis=1)
    return float(np.mean(d < SKIN_SAME_BGR)) > SKIN_RING_SHARE


def in_crook_of_hand(c: Candidate, scene: Scene, view: TableView, bg: np.ndarray) -> bool:
    """Whether ``c`` is the table between a hand's fingers: over SKIN_BORDER_SHARE of
    SKIN_BORDER_SAMPLES points SKIN_BORDER_MM outside its outline as seen (table mm) are skin
    (:func:`_skin_share`) and its footprint is named clear or white."""
    if c.upright or _border_skin(c, view, bg) <= SKIN_BORDER_SHARE:
        return False
    return classify_color(view, scene.footprint(c)[0], bg) in ("clear", "white")


def _border_skin(c: Candidate, view: TableView, bg: np.ndarray) -> float:
    """The share of SKIN_BORDER_SAMPLES points SKIN_BORDER_MM outside ``c``'s outline as seen
    (table mm) that are skin (:func:`_skin_share`); 0 when none lies in the view."""
    ring = shapely.get_coordinates(shapely.Polygon(c.outline_mm).buffer(SKIN_BORDER_MM).exterior)
    # Evenly along the ring by arc length: shapely's line_interpolate_point's very points
    # (to 1e-14 mm) at a third of its cost.
    at = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(ring, axis=0).T))))
    along = np.linspace(0.0, at[-1], SKIN_BORDER_SAMPLES, endpoint=False)
    pts = np.column_stack((np.interp(along, at, ring[:, 0]), np.interp(along, at, ring[:, 1])))
    px = np.round(view.grid.to_px(pts)).astype(int)
    h, w = view.image_bgr.shape[:2]
    px = px[(px[:, 0] >= 0) & (px[:, 0] < w) & (px[:, 1] >= 0) & (px[:, 1] < h)]
    return 0.0 if len(px) == 0 else _skin_share(view.image_bgr[px[:, 1], px[:, 0]], bg)


def _skin_share(bgr: np.ndarray, bg: np.ndarray) -> float:
    """The share of pixels ``bgr`` ((N, 3), 0-255) that are skin: a warm hue (red, orange,
    yellow: colors.name_color's bins) and saturation in [SKIN_MIN_SAT, SKIN_IN_MAX_SAT); 0 on a
    warm table (its estimate ``bg``'s median hue warm, saturation over SKIN_GREY_TABLE_SAT:
    wood), which skin is not told from (the estimate takes a hand in there)."""
    ht, st, _ = table_hsv(bg)
    if st > SKIN_GREY_TABLE_SAT and _warm(np.float32(ht)):
        return 0.0
    hsv = cv2.cvtColor(np.clip(bgr, 0, 255).astype(np.uint8)[None], cv2.COLOR_BGR2HSV)[0]
    sat = hsv[:, 1].astype(np.float32)
    return float(np.mean(_warm(hsv[:, 0].astype(np.float32)) & (sat >= SKIN_MIN_SAT)
                         & (sat < SKIN_IN_MAX_SAT)))


def _warm(hue: np.ndarray) -> np.ndarray:
    """Whether OpenCV hues (0-180) are warm: red, orange or yellow (SKIN_WARM_HUE)."""
    return (hue < SKIN_WARM_HUE[0]) | (hue >= SKIN_WARM_HUE[1])


def outline_inside(c: Candidate, view: TableView, room_mm: float = SKIN_RING_MM
                   ) -> tuple[np.ndarray, np.ndarray, tuple[int, int, int, int]] | None:
    """The view crop (BGR) round ``c``'s outline as seen with room for a ring ``room_mm``
    wide, the outline's inside in it (uint8 mask) and the crop's bounds (x0, y0, x1, y1, view
    px); None when the crop or the inside is empty."""
    g = view.grid
    pts = g.to_px(np.asarray(c.outline_mm, float))
    r = max(2, round(room_mm * g.px_per_mm))
    x0, y0 = np.floor(pts.min(0)).astype(int) - r - 2
    x1, y1 = np.ceil(pts.max(0)).astype(int) + r + 3
    h, w = view.image_bgr.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 - x0 < 3 or y1 - y0 < 3:
        return None
    img = view.image_bgr[y0:y1, x0:x1]
    inside = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(pts - (x0, y0)).astype(np.int32)], 1)
    if not inside.any():
        return None
    return img, inside, (x0, y0, x1, y1)


def ring_outside(inside: np.ndarray, view: TableView, box: tuple[int, int, int, int]
                 ) -> np.ndarray:
    """A ring SKIN_RING_MM wide just outside ``inside`` (uint8 mask in the crop ``box`` of
    :func:`outline_inside`), within the view."""
    x0, y0, x1, y1 = box
    r = max(2, round(SKIN_RING_MM * view.grid.px_per_mm))
    k = np.ones((3, 3), np.uint8)
    # One square kernel 2r + 1 wide: the same as r passes of the 3×3 one, in one.
    ring = (cv2.dilate(inside, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
            & ~cv2.dilate(inside, k) & 1)
    ring &= view.valid_mask[y0:y1, x0:x1].astype(np.uint8) if view.valid_mask is not None else 1
    return ring


def _skin_colour(bgr: np.ndarray, table_bgr: np.ndarray, max_sat: float = SKIN_MAX_SAT
                 ) -> bool:
    """Whether a median colour (BGR 0-255, over the table's ``table_bgr`` there) is skin's:
    named a warm colour, but duller than plastic (HSV saturation under ``max_sat``)."""
    if name_color(bgr, table_bgr) not in WARM:
        return False
    hsv = cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)]]), cv2.COLOR_BGR2HSV)[0, 0]
    return float(hsv[1]) < max_sat


def hand_hides(scene: Scene, region: np.ndarray, sub: ViewGrid, found: list[Candidate],
               view: TableView, bg: np.ndarray) -> list[Candidate]:
    """Those of a region's ``found`` pieces that a hand may hide part of, not clean: the
    region is mostly left unexplained (over DOUBT_MAX_LEFT of the largest piece's area) and
    what is left is skin (:func:`_skin_colour`), and the piece is not clean as a hand's
    region requires (:func:`pieces_at_tips`: joint cost at most HAND_MAX_COST, at most
    HAND_MAX_HIDDEN of its outline hidden)."""
    big = DOUBT_MAX_LEFT * scene.max_area_mm2 * sub.px_per_mm**2
    if not found or np.count_nonzero(region) <= big:
        return []
    rest = unexplained_mask(scene.strong(region, sub), sub, found)
    if np.count_nonzero(rest) <= big:
        return []
    sl = scene.grid.window(sub)
    if not _skin_colour(median(masked(view.image_bgr, sl, rest).astype(np.float32), axis=0),
                        median(masked(bg, sl, rest), axis=0)):
        return []
    return [c for c in found
            if joint_cost(c, [o for o in found if o is not c], scene) > HAND_MAX_COST
            or np.isnan(c.fit.sample_cost).mean() > HAND_MAX_HIDDEN]
