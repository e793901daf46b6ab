"""Which pieces explain an object region of the top-down view.

A region is one piece, or several touching (or a piece and a chit...). Candidate poses come
from the region's shape (principal axis, stern on the wide end), from its sharp corners
(a tip lies on the table and survives any camera and any neighbour), and from whatever the
chosen pieces leave unexplained. Every candidate is fitted for the plausible sizes
(:func:`armada_vision.vision.fit.fit_pose`). Then a greedy choice keeps the candidates whose
outline edges are found, where an edge hidden by foreground counts as found only when another
chosen piece (or a shadow-weak foreground) explains it: a smaller model snug inside a bigger
piece explains nothing and loses. Footprints of the chosen pieces never overlap.

Frames: table mm (+y away from the viewer); view px per :class:`ViewGrid`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import PieceSet, Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.fit import (
    FitResult,
    ViewGrid,
    fit_pose,
    fit_poses,
    lying_local_3d,
    outline_mm,
    sample_map,
    seen_on_table,
    upright_local_3d,
)
from armada_vision.vision.order import median, percentile
from armada_vision.vision.segment import SHADOW_MIN

# Mean robust cost per outline sample (px², a miss counts 2): a piece is good below GOOD_COST;
# up to MAX_COST it is kept as doubtful (its σ inflated so the rules answer no).
GOOD_COST = 0.35
MAX_COST = 0.58
# A fit of another size within this much cost of the chosen one makes the size doubtful.
AMBIGUITY_COST = 0.3
# Two lying pieces never share table: two readings whose footprints overlap by CLASH_SHARE of
# the smaller's area or more clash (clashes), and no pass keeps both. The rest is fitting
# noise: right readings of touching pieces overlap 0.08 at most (4816-set, 1957 matched; 0.05
# on 1648-2223, detect.OVERLAP_SHARE). At 0.15 a piece was read twice just under it (issue 4,
# session 19, 4816-set): 4933's blue small again end for end (0.15), 4949's blue medium as
# a small plus a small in its open base (0.14), 5066's red small in a red large's hollow
# (0.13), 4846's red large's shadow re-read on the unscaled map as a clear medium (0.10);
# and a piece read into its neighbour's table kept the longer size (5009's white small as a
# medium, 0.14). At 0.10 the choice takes another reading there: those four gone, 4949's
# and 5009's read at their sizes.
CLASH_SHARE = 0.10
# A full fit stops after rounds 3, 4, 5 when its cost is still above these (fit_pose's
# give_up): it would not end usable (≤ MAX_COST + AMBIGUITY_COST). On 14 stills and 12
# scenes the fits ending ≤ 0.88 had reached at most 1.55 / 1.51 / 1.44 by then, but those
# that ended chosen or a rival reading only 1.46 / 1.28 / 1.16 (one fit), else ≤ 1.08 /
# 0.92 / 0.76.
GIVE_UP = ((3, 1.2), (4, 1.0), (5, 0.95))
# A screen (3 rounds) stops after round 2 above this: it would not pass 2 × MAX_COST after
# round 3 (on the same images, of 1332 screens the 566 that passed had reached ≤ 1.73, the
# 75 whose full fit ended chosen or a rival ≤ 1.37; 6 that passed, none of those, are lost).
SCREEN_GIVE_UP = ((2, 1.5),)
# The full fits from a passed screen and the size swaps have fair starts, and stop sooner:
# on the same images the tip fits that ended chosen or a rival had reached ≤ 0.74 after round
# 3 (those ending ≤ 0.88: ≤ 1.01), the swaps that ended a rival ≤ 0.81 (≤ 0.88: 2 of 660 over
# 1.0), saving ~640 of ~18000 rounds.
SURE_GIVE_UP = ((3, 1.0), *GIVE_UP[1:])
# A region whose convex hull is at least this round (circularity 4πA/P²) is a chit or a coin
# on its own, not worth fitting: on seeds 1000–1071 and the stills, the 26 regions from 0.942
# up were all chits and coins, where nothing was found (~2000 of ~50000 fit rounds), and the
# regions where a piece was found reached 0.917 (several pieces), uprights 0.888, dice ~0.9.
ROUND_REGION = 0.93
# ... and one with no point farther than this (mm) from its edge is a strip (a shadow, a rim):
# the smallest piece's footprint holds a disc of ~5.5 mm radius, and on the same images the
# regions where a piece was found held ≥ 4.7 mm, while the 49 thinner than 3 mm found
# nothing (~3600 fit rounds). (Regions under 0.6 of the smallest footprint are left too, as
# explain_region leaves such leftovers: the smallest with a piece was 0.83 of it.)
THIN_REGION_MM = 3.0
# Foreground (0–1 map) above which the outside of an edge is solid (a piece), not a shadow.
SOLID_FG = 0.7
# What a piece leaves of its region is its shadow when no point of it lies farther than this
# (mm) from the rest: the smallest piece is about 9 mm across.
SHADOW_MAX_HALF_MM = 2.5
# ... and where the table just outside its hidden edges is at most this bright (× the table).
SHADOW_SHADE = 0.85
# ... and its shadow hides at most this share of its outline (measured on the demo: 15-40 %).
SHADOW_MAX_HIDDEN = 0.45
# A doubtful fit is dropped when its region leaves unexplained more than this share of the
# largest piece's area (true doubtful pieces on 36 scenes left ≤ 0.31, a finger 1.27), or when
# a quarter of its inside scores below DOUBT_MIN_SCORE (true ones: 25th percentile ≥ 2.75;
# speckle 1.8, a glint strip filling half a small piece 0.8).
DOUBT_MAX_LEFT = 0.6
DOUBT_MIN_SCORE = 2.5
# ... or when more than this share of its outline is hidden (no edge, solid outside): its
# edges are then mostly excused by its neighbours, and what it explains of its own is their
# shadow (issue 4, seed 1049: a reversed medium over a blue large's shadow band on blue cloth,
# 39 % hidden, cost 0.55 beside its neighbours, 0.97 without them). The true doubtful pieces
# on seeds 1000–1071 had at most 27 % hidden (1064's yellow medium read as a small).
DOUBT_MAX_HIDDEN = 0.3
# Pieces touching a hand's region: only from corners sharper than HAND_TIP_DEG, at least
# HAND_BORDER_MM inside the view, with at most HAND_MAX_HIDDEN of the outline against it.
HAND_TIP_DEG = 80.0
HAND_BORDER_MM = 15.0
HAND_MAX_HIDDEN = 0.35
HAND_MAX_COST = 0.15
# ... or in an area of a piece's own colour inside a hand's region (pieces_in_colour), of at
# least COLOUR_MIN_AREA of a small's footprint: at least COLOUR_MIN_SHARE of the reading's
# outline as seen in that colour (a finger over a piece cuts it: seed 1920's red medium read
# as a small, 0.68; the true pieces so read on 1648-2223 0.76-0.96), at most COLOUR_MAX_LEFT
# of the area outside it.
COLOUR_MIN_AREA = 0.5
COLOUR_MIN_SHARE = 0.7
COLOUR_MAX_LEFT = 0.2
# ... asked again, when under COLOUR_MIN_SHARE, of the outline outside the pieces found of
# another colour (grown 1 mm, as unexplained_mask) when at least this share of it lies there:
# a neighbour leaning over a piece in the view hides its colour (session 24, vivid32: 6341's
# and 6404's yellow smalls under a black and a green large's raised base, 0.66 and 0.46 of the
# outline in colour, 0.81 and 0.71 of the rest, which is 0.82 and 0.64 of the outline).
COLOUR_BARE_MIN = 0.5
# ... and when a longer size's extra length under the hand is its only rival, kept unless its
# colour area fills more than ROUND_FILL of its smallest enclosing circle: a coin seen half
# or more fills 0.5 and up (seed 4014's, 0.54), a die 0.64; the pieces so read at their place
# on the tuning pool's hand scenes 0.36-0.46 (15), readings on wrong parts of pieces under a
# hand 0.31-0.52 (6; 1326's and 1437's, over 0.5, dropped).
ROUND_FILL = 0.5
# σ (mm) at least of such a piece: a hand touches it in the view, and may lie over part of it
# (on 1648-2223, 4 of the 19 so read were pieces the renderer counts as under a hand, each
# read at its size and place, as was seed 1017's purple small; neither the skin beside them
# nor the shade past their hidden outline told them apart).
HAND_COLOUR_MM = 3.0
# σ (mm) at least of such a piece: its edges against the hand's region were found on a table
# estimate the hand's colour bled into (seed 1007's orange: stern 1.6 mm off).
HAND_EDGE_MM = 1.5
# Turns (degrees) of a tip's heading guess tried when nothing explains a region (see
# leftover_piece; issue 4, seed 1032: a red medium's tip guess 14° off along wood-grain streaks,
# its fit stuck 10° off at cost 0.58; from 10° further round it fits at 0.085).
TIP_TURNS_DEG = (-20.0, -10.0, 10.0, 20.0)
# ... only in regions from a small piece's footprint to this many of the largest piece's
# areas (a whole piece fits; the pieces so found lay in regions of 0.36-1.51 of it, and the
# bigger regions nothing explains were wood-grain streaks and hands with 11-22 corners, at
# 0.1-0.3 s of CPU each).
LEFTOVER_MAX_AREA = 2.0
# ... and holding a disc of this radius (mm): a whole smallest piece holds ~5.5 mm, the regions
# where this pass found a piece on seeds 1000–1071 6.4 mm and more; the 17 thinner ones (grain
# streaks, shadow strips) found nothing for ~0.13 s of CPU over the 72 scenes.
LEFTOVER_MIN_INRADIUS_MM = 5.0
# ... and no longer than this many of the largest piece's footprint length: the regions where
# it found a piece on seeds 1000–1071 were ≤ 68 mm long (1.5×: a piece and a streak beside
# it); the 4 longer than 1.8× (wood grain, 97–148 mm) found nothing for ~0.24 s of CPU.
LEFTOVER_MAX_LENGTH = 1.8
# A piece whose tip hides in a neighbour found in the same region (issue 4, seed 1053's red
# small against a purple large, 1031's orange small against a yellow medium): the region has
# no corner at that tip, but what the pieces found leave of it does, once they are cut off.
# So in a region nothing explained on its own, the corners of that remainder which the region
# did not have (farther than NEW_CORNER_MM from each of its own) are tried as tips too, when
# the remainder could hold a piece (a small's footprint, LEFTOVER_MIN_INRADIUS_MM). The narrow
# gap between the two pieces reads as solid foreground, so an edge hidden within GAP_MM of a
# piece found is excused as one against it (1031's orange: all its hidden samples lie within
# 2 mm of the yellow, 5 % of them within 1.5 mm; cost 0.62 with them as misses, 0.43 excused).
NEW_CORNER_MM = 3.0
GAP_MM = 2.0
# Two pieces touching tip to side in one region (issue 4, seeds 1100 and 1106: a green
# medium's tip against a white medium's side, a red medium's against a green's): neither tip
# is a corner of the region, so no tip start lies near either piece; the corners there are
# their sterns'. A stern corner's arms are the stern edge and a long side, at the footprint's
# stern angle (74.8° for every size), so each way round gives a start (stern_corner_starts).
# And each piece hides edges against the other: alone, each costs them as misses (1100's
# green 0.11 with them excused, over MAX_COST alone), so when no one piece explains the
# region, two are taken together, each one's hidden edges excused by the other's outline
# (touching_pieces). PAIR_FIRSTS: how many of the best fits (own cost, hidden edges excused,
# at most PAIR_MAX_HIDDEN of the outline hidden) are tried as the first of the two.
PAIR_FIRSTS = 6
PAIR_MAX_HIDDEN = 0.6
# A clean longer reading from a hand piece's tip (tip within TIP_SAME_MM of its) replaces it
# when its stern is seen and the piece's own is not: the view's brightness over the table's
# STERN_IN_MM either side of the stern edge differs by STERN_STEP or more (seed 1017's blue
# large 0.47 / 0.94 at its stern, its medium reading 0.58 / 0.52 across the face).
TIP_SAME_MM = 2.0
STERN_IN_MM = 1.5
STERN_STEP = 1.25
# ... or when the longer reading is seen whole on the fit map: a good fit (GOOD_COST) with at
# most HAND_SEEN_HIDDEN of its outline hidden, its stern edge found, not hidden against the
# hand (issue 4, check seed 1038: a purple medium beside a finger, read clean as a small at
# cost 0.145 with 24 % hidden, all of it against the rest of the piece; the medium from its
# tip 0.269 with 3 % hidden, but its stern lies against the finger's shadow, as dark as its
# open base, so no step shows there).
HAND_SEEN_HIDDEN = 0.05
# A doubtful piece in size doubt whose region goes on past its stern, lit (issue 4, size):
# a white large whose face turned from the light is as bright as a light table shows only
# its lit face on the fit map, so its true reading misses along the shaded side near the
# stern (joint cost 0.49-0.56) and a doubtful medium from its tip wins (0.43-0.54), leaving
# the lit stern end unexplained. Brighter than the table, that end is plastic, never a
# shadow: the longer reading from the same tip is taken when it is usable (joint cost, its
# hidden edges counted as misses, at most MAX_COST) and the region's strong pixels it adds
# past the shorter one cover LIT_SHARE of the footprint it adds, at a median brightness of
# LIT_SHADE x the table or more. It stays doubtful: its σ keeps the shorter reading's
# distance (the shorter one stays its rival), so the rules never trust it.
LIT_SHARE = 0.5
LIT_SHADE = 1.1
# A white piece's open base (issue 4): dark and colourless, it scores as shadow, so on the
# fit map a reading one size short (its stern on the base's front rim) beats the true one,
# whose stern samples find no edge. The longer reading with the same tip is taken when its
# stern samples (within BASE_END_MM of its stern) alone missed, the BASE_SIDE_MM of outline
# ahead of them is seen, and the view shows the base's shape where the camera sees it: its
# inside darker by BASE_STEP than the table behind its bottom edge and the face ahead of its
# rim, in each of BASE_LANES lanes across the inner BASE_ACROSS of its width (the whole base,
# rim to rim; a contact shadow is a soft wedge on one side). Seed 1025's large: 22 of 111
# samples missed, all at the stern, the rest cost 0.03; its base lanes 1.77-1.93. Of the 94
# pieces in size doubt on seeds 1000-1071, the longer readings that are wrong had lanes at
# most 0.98 (the one whose fit passed, 1059's yellow medium: 0.97), the right ones 1.19-1.77.
BASE_END_MM = 4.0
BASE_SIDE_MM = 8.0
MISS_COST = 2.0
BASE_STEP = 1.15
BASE_LANES = 5
BASE_ACROSS = 0.7
# ... or, when the base's own outline is not seen at all (seed 1015's white medium on
# laminate: the pale pass's crisp area marks a ring of table ~3 mm round the piece as object,
# so 12 of its 17 stern samples are hidden against it, and the base's rim is as bright as the
# laminate, so its sides miss for 8 mm ahead of the stern: 37 of 87 samples, cost 0.40), the
# outline from BASE_END_MM + BASE_SIDE_MM on is seen (nothing hidden, the first BASE_SIDE_MM
# of it at most GOOD_COST; 1015's medium: 50 samples, 0.08) and the base is darker by
# BASE_STEP_UNSEEN in every lane (1015's: 1.51-2.81; of the 20 longer readings of pieces in
# size doubt on seeds 1000-1071 whose far outline passes, the 16 wrong ones ≤ 0.98): the
# base alone tells the stern, so σ is at least BASE_UNSEEN_MM (1015's medium from its tip:
# 2.1 mm off, its tip as short).
BASE_STEP_UNSEEN = 1.4
BASE_UNSEEN_MM = 3.0
# A glint past a piece's tip (issue 4, seed 1019): a bright streak on the table beside a
# cyan small, 2.0-3.0 x the table's light where the piece's faces reach 1.6 (90th
# percentile), is foreground, so the small's tip samples are hidden against it and count as
# misses (joint cost 0.53), while a medium stretched over the streak costs 0.55 and explains
# more of the region. In a doubtful piece of doubtful size, a shorter reading's hidden
# samples whose outside is brighter than GLINT_MIN x the table and GLINT_OVER x the
# reading's own faces (90th percentile of the shade inside it) are excused: light the
# plastic there does not give off. It is taken when it is then good (the small: 0.07) and
# at least GLINT_SHARE of what the longer piece adds to it is that bright (0.39; the three
# good pieces of seeds 1000-1071 with a shorter reading good once excused: <= 0.16).
GLINT_MIN = 1.8
GLINT_OVER = 1.3
GLINT_SHARE = 0.25
# A lying reading whose open base the camera would see at least NO_BASE_DEPTH_MM deep (its
# rim seen that far past its stern corners on the table) but where the view there is brighter
# than the table behind and the face ahead (base lanes, see BASE_STEP, at most NO_BASE_LANES
# in the median lane) shows plastic, not an open base: a standing piece is tried in its place
# (issue 4, check seed 1059: a standing white small read as a lying small at cost 0.348, its
# "base" 13 mm deep at 0.31; the standing small fits at 0.44, 0.3 mm from the truth). Of the
# lying pieces found alone in their regions on seeds 1000-1071, no other with a base seen
# 8 mm deep or more had a median lane <= 0.7 (white ones 0.89-2.99: dark open bases); from
# 5 mm deep three did (two true ones at 0.65, standing fits 0.95 and 1.36; a doubtful small
# at 0.26, standing 0.97).
NO_BASE_DEPTH_MM = 8.0
NO_BASE_LANES = 0.5
# A reading whose open base is the face ahead of it (issue 4, sure11): a white piece on a
# pale table shows the camera little but its open base, dark, and the lit face ahead of it.
# A reading one size short from the same tip (seeds 1902, 1907 of the set from 1648) ends
# on that face, just ahead of the open base, and fits well (0.22-0.24: the base scores as
# shadow, the table past it as nothing), while the true size pays for its faint faces
# (0.51-0.78). But where the camera would see FACE_BASE_DEPTH_MM or more into the short
# reading's base, the view shows no step from the face ahead of it (the face's shade over
# the "base's" below BASE_STEP: 0.97-0.99; a right reading's open base is darker than its
# face, 1.9-3.6 on 1685's white mediums), and a longer reading from the same tip shows its
# open base there (:func:`shows_open_base`): the stern is not seen, so σ covers the longer
# reading (:func:`face_for_base`).
FACE_BASE_DEPTH_MM = 4.0
# ... and when that reading is in size doubt, the longer size swap from its tip that shows
# the open base is taken in its place (issue 4, size33): a piece one size short, its stern
# on the base's raised rim, read by any pass (main, hand-region tips, unscaled re-read,
# sunk plastic), on any colour. On the 6544-set (288 scenes), of the readings whose own base
# as seen shows no step to the face ahead (FACE_BASE_DEPTH_MM deep or more), the longer
# swaps at the truth's size had a median base lane of 1.13-6.19 (8: 6575, 6629, 6643, 6676,
# 6711, 6727, 6734, 6745, each 0.3-2.5 mm from the true stern) and the wrong ones at most
# 1.00 (32; 0.98 on seeds 1000-1071, see BASE_STEP): FACE_BASE_LANE lies between. The swap
# must fit cleanly too: its own cost, its cost with the open base's stern misses left out
# (open_base_cost) or past the base (_seen_past_base) at most GOOD_COST (the right ones
# 0.01-0.34; 1157's clear medium, set from 1144, has a longer reading whose lanes come to
# 1.40 but fits at 0.79). Its σ keeps the shorter reading as rival: the base, not the fit,
# tells the size.
# Asked from FACE_LONGER_DEPTH_MM into the shorter reading's base: two more right swaps lie
# at 3.3 and 3.8 mm (6756's purple large read as a small, 6629's white medium), and the wrong
# swaps from 2.0 to 4.0 mm also had median lanes of at most 1.00 (30 on the same set).
FACE_BASE_LANE = 1.1
FACE_LONGER_DEPTH_MM = 3.0
# A piece read short whose longer reading from its tip is seen whole (issue 4, seed 1093: a
# white large on wood, its shaded face scoring under its lit one, so the large from the
# region's axis stuck 6° off at cost 0.57 and a small at its tip won, joint cost 0.49 with
# 20 % of its outline hidden against the rest of the piece; the large from the small's tip,
# the size swap's fit, costs 0.14 with nothing hidden). A longer size swap with the same tip
# (TIP_SAME_MM) replaces the piece when it is good, no more than HAND_SEEN_HIDDEN of it is
# hidden, it overlaps no other piece and its joint cost is lower than the piece's by more
# than AMBIGUITY_COST: the shorter reading is then no rival, its hidden edges the longer
# piece's own body. Its σ is at least HAND_EDGE_MM (the large: 1.1 mm off, fit σ 0.29 mm).


@dataclass(frozen=True, slots=True, eq=False)
class Candidate:
    """One fitted hypothesis: a lying piece of ``size`` (or an upright one), its fit, its
    outline as the camera sees it on the table plane (mm) and, per outline sample, whether
    the outside there is solid foreground."""

    size: Size
    upright: bool
    fit: FitResult
    outline_mm: np.ndarray
    solid_outside: np.ndarray
    ambiguity_mm: float = 0.0
    ambiguity_deg: float = 0.0
    covering_ambiguity_mm: float = 0.0
    covering_ambiguity_deg: float = 0.0


@dataclass(frozen=True, slots=True, eq=False)
class Scene:
    """What the fits need: the foreground map (0–1) and raw score of the view, its grid, the
    piece dimensions and the camera centre (table mm)."""

    fg: np.ndarray
    score: np.ndarray
    grid: ViewGrid
    pieces: PieceSet
    camera_mm: np.ndarray
    # The view's brightness over the table's estimate (1 on bare table, < 1 in a shadow).
    shade: np.ndarray | None = None
    # Fits already made, by (size, upright, start pose, iterations): a region's leftover
    # that no new piece explains is refitted from the same axis guess each round, and a
    # size swap often repeats one (~40 of ~185 fits per 1080p image were repeats).
    _fits: dict[tuple, Candidate] = field(default_factory=dict, repr=False)
    _screens: dict[tuple, FitResult] = field(default_factory=dict, repr=False)
    # Footprints (with bounds) and grown outlines by (size, upright, pose): the choice asks
    # for the same few hundred again and again.
    _shapes: dict[tuple, object] = field(default_factory=dict, repr=False)

    def footprint(self, c: Candidate) -> tuple[shapely.Polygon, tuple[float, ...]]:
        """``c``'s footprint on the table (mm) and its bounds (x0, y0, x1, y1)."""
        p = c.fit.pose
        key = ("fp", c.size, p.x_mm, p.y_mm, p.heading_deg)
        got = self._shapes.get(key)
        if got is None:
            fp = footprint(p, self.pieces.dims(c.size))
            got = self._shapes[key] = (fp, fp.bounds)
        return got  # type: ignore[return-value]

    def overlap(self, c: Candidate, k: Candidate) -> bool:
        """Whether ``c``'s footprint overlaps ``k``'s by CLASH_SHARE of the smaller's area or more
        (:func:`clashes`), remembered: the choice asks about the same pairs again and again
        (a third of the asks on the 1648-set's first 48 scenes)."""
        p, q = c.fit.pose, k.fit.pose
        key = ("clash", c.size, p.x_mm, p.y_mm, p.heading_deg, k.size, q.x_mm, q.y_mm,
               q.heading_deg)
        got = self._shapes.get(key)
        if got is None:
            fp, o = self.footprint(c)[0], self.footprint(k)[0]
            got = self._shapes[key] = (fp.intersection(o).area
                                       >= CLASH_SHARE * min(fp.area, o.area))
        return got  # type: ignore[return-value]

    def grown_outline(self, c: Candidate) -> shapely.Polygon:
        """``c``'s outline as seen (table mm) grown by 1 mm, prepared for point tests."""
        p = c.fit.pose
        key = ("out", c.size, c.upright, p.x_mm, p.y_mm, p.heading_deg)
        got = self._shapes.get(key)
        if got is None:
            got = self._shapes[key] = shapely.Polygon(c.outline_mm).buffer(1.0)
            shapely.prepare(got)
        return got  # type: ignore[return-value]

    def fit(self, size: Size, init: Pose, *, upright: bool = False, iterations: int = 8,
            give_up: tuple[tuple[int, float], ...] = GIVE_UP) -> Candidate:
        """The fit of ``size`` (lying, or ``upright``) from ``init`` (table mm), stopped
        where hopeless (``give_up``, see :func:`fit_pose`); a repeat of the same start is
        answered from memory (fits are deterministic), a fit with the usual GIVE_UP serving
        for any ceilings (it only went on longer)."""
        key = (size, upright, init.x_mm, init.y_mm, init.heading_deg, iterations)
        c = self._fits.get((*key, give_up)) or self._fits.get((*key, GIVE_UP))
        if c is None:
            c = self._fits[*key, give_up] = self._fit(size, init, upright, iterations, give_up)
        return c

    def fits(self, starts: list[tuple[Size, Pose]], *, upright: bool = False,
             iterations: int = 8, give_up: tuple[tuple[int, float], ...] = GIVE_UP
             ) -> list[Candidate]:
        """:meth:`fit` of each (size, start) of ``starts``, those not in memory fitted side by
        side (:func:`fit_poses`: the same fits, cheaper)."""
        keys = [(z, upright, p.x_mm, p.y_mm, p.heading_deg, iterations) for z, p in starts]
        got = [self._fits.get((*k, give_up)) or self._fits.get((*k, GIVE_UP)) for k in keys]
        todo = {k: (z, p) for k, c, (z, p) in zip(keys, got, starts, strict=True) if c is None}
        if todo:
            jobs = [(z, self._local(z, upright), p) for z, p in todo.values()]
            made = fit_poses(self.fg, self.grid, [(loc, p) for _z, loc, p in jobs],
                             self.camera_mm, iterations=iterations, give_up=give_up)
            for k, (z, loc, _p), f in zip(todo, jobs, made, strict=True):
                self._fits[*k, give_up] = self._candidate(z, upright, loc, f)
        return [c or self._fits[*k, give_up] for k, c in zip(keys, got, strict=True)]

    def screen(self, size: Size, init: Pose, iterations: int = 3) -> FitResult:
        """A short lying fit of ``size`` from ``init`` (table mm), only its pose and cost:
        most screens are hopeless, so the outline as seen and its solid outside, which only
        a candidate needs, are not worked out."""
        key = ("screen", size, init.x_mm, init.y_mm, init.heading_deg, iterations)
        f = self._screens.get(key)
        if f is None:
            f = self._screens[key] = fit_pose(
                self.fg, self.grid, self._local(size, False), init,
                self.camera_mm, iterations=iterations, give_up=SCREEN_GIVE_UP, cost_only=True)
        return f

    def screens(self, starts: list[tuple[Size, Pose]], iterations: int = 3
                ) -> list[FitResult]:
        """:meth:`screen` of each (size, start) of ``starts``, those not in memory run side by
        side (:func:`fit_poses`)."""
        keys = [("screen", z, p.x_mm, p.y_mm, p.heading_deg, iterations) for z, p in starts]
        todo = {k: (z, p) for k, (z, p) in zip(keys, starts, strict=True)
                if k not in self._screens}
        if todo:
            made = fit_poses(self.fg, self.grid,
                             [(self._local(z, False), p) for z, p in todo.values()],
                             self.camera_mm, iterations=iterations, give_up=SCREEN_GIVE_UP,
                             cost_only=True)
            self._screens.update(zip(todo, made, strict=True))
        return [self._screens[k] for k in keys]

    def _fit(self, size: Size, init: Pose, upright: bool, iterations: int,
             give_up: tuple[tuple[int, float], ...]) -> Candidate:
        loc = self._local(size, upright)
        return self._candidate(size, upright, loc, fit_pose(
            self.fg, self.grid, loc, init, self.camera_mm, iterations=iterations,
            give_up=give_up))

    def _local(self, size: Size, upright: bool) -> np.ndarray:
        """The body's vertices (ship frame, mm) of ``size``, lying or ``upright`` (made once a
        scene: every fit asks; read only)."""
        key = ("local", size, upright)
        got = self._shapes.get(key)
        if got is None:
            d = self.pieces.dims(size)
            got = self._shapes[key] = upright_local_3d(d) if upright else lying_local_3d(d)
        return got  # type: ignore[return-value]

    def _candidate(self, size: Size, upright: bool, loc: np.ndarray, f: FitResult
                   ) -> Candidate:
        """The candidate of fit ``f`` of body ``loc``: its outline as seen and the solid
        outside of its samples."""
        if len(f.probe_mm):
            p = self.grid.to_px(f.probe_mm)
            solid = sample_map(self.fg, p[:, 0], p[:, 1]) > SOLID_FG
        else:  # a failed or given-up fit
            solid = np.zeros(0, bool)
        params = np.array([f.pose.x_mm, f.pose.y_mm, math.radians(f.pose.heading_deg)])
        return Candidate(size, upright, f, outline_mm(loc, params, self.camera_mm), solid)

    def strong(self, region: np.ndarray, sub: ViewGrid) -> np.ndarray:
        """The region's pixels that are clearly object (fit map ≥ 0.5), not faint shadow."""
        crop = self.fg[self.grid.window(sub)]
        if crop.shape != region.shape:
            return region
        return region & (crop >= 0.5)

    @property
    def max_area_mm2(self) -> float:
        """Largest view area one lying piece can cover (its outline plus parallax)."""
        big = self.pieces.dims(Size.LARGE)
        return 1.4 * (big.base_w_mm * big.footprint_length_mm / 2 + 6 * big.base_w_mm)

    @property
    def max_length_mm(self) -> float:
        """Footprint length (mm) of the largest piece."""
        return self.pieces.dims(Size.LARGE).footprint_length_mm

    @property
    def by_length(self) -> list[Size]:
        """The sizes, shortest footprint first."""
        return sorted(Size, key=lambda z: self.pieces.dims(z).footprint_length_mm)

    @property
    def small_area_mm2(self) -> float:
        d = self.pieces.dims(Size.SMALL)
        return d.base_w_mm * d.footprint_length_mm / 2


def no_piece_in(scene: Scene, region: np.ndarray, sub: ViewGrid) -> bool:
    """Whether no lying or standing piece can explain a region (``region`` on the sub-grid
    ``sub`` of the view) alone: it is smaller than what :func:`explain_region` leaves of a
    region unfitted (0.6 × the smallest footprint), as round as a chit or a coin
    (ROUND_REGION) or too thin to hold a piece (THIN_REGION_MM)."""
    ys, xs = np.nonzero(region)
    if len(xs) < 0.6 * scene.small_area_mm2 * sub.px_per_mm**2:
        return True
    hull = cv2.convexHull(np.column_stack((xs, ys)).astype(np.float32))
    perimeter = cv2.arcLength(hull, True)
    if 4.0 * math.pi * cv2.contourArea(hull) >= ROUND_REGION * perimeter * perimeter:
        return True
    return _inradius_mm(region, sub) < THIN_REGION_MM


def _length_mm(region: np.ndarray, sub: ViewGrid) -> float:
    """Length (mm) of the region's smallest enclosing rectangle."""
    ys, xs = np.nonzero(region)
    _, (w, h), _ = cv2.minAreaRect(np.column_stack((xs, ys)).astype(np.float32))
    return max(w, h) / sub.px_per_mm


def _inradius_mm(region: np.ndarray, sub: ViewGrid) -> float:
    """Distance (mm) from the region's innermost point to its edge."""
    m = cv2.copyMakeBorder(region.astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    return float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max()) / sub.px_per_mm


def axis_guess(part: np.ndarray, grid: ViewGrid) -> tuple[Pose, float] | None:
    """Pose guess from a region's principal axis, stern on the wide end, and its length (mm)."""
    ys, xs = np.nonzero(part)
    if len(xs) < 10:
        return None
    mm = grid.to_mm(np.column_stack((xs, ys)).astype(np.float64))
    c = mm.mean(axis=0)
    q = mm - c
    u = np.linalg.eigh(q.T @ q / len(q))[1][:, 1]
    t = q @ u
    v = q @ np.array([-u[1], u[0]])
    t0, t1 = float(t.min()), float(t.max())
    band = 0.2 * (t1 - t0)
    w_lo = np.ptp(v[t < t0 + band]) if np.any(t < t0 + band) else 0.0
    w_hi = np.ptp(v[t > t1 - band]) if np.any(t > t1 - band) else 0.0
    if w_hi > w_lo:
        u, t0, t1 = -u, -t1, -t0
    stern = c + u * t0
    return Pose(float(stern[0]), float(stern[1]), math.degrees(math.atan2(u[1], u[0]))), t1 - t0


def tip_guesses(part: np.ndarray, grid: ViewGrid, max_angle_deg: float = 100.0
                ) -> list[tuple[np.ndarray, float]]:
    """Sharp convex corners of a region's outline, where a tip may be: (tip table mm, heading
    guess in degrees). The angle at each outline point is measured to the points ~5 mm along
    either way; local minima under ``max_angle_deg`` count."""
    out = []
    for corner, a, b in _sharp_corners(part, grid, max_angle_deg):
        inward = a + b
        out.append((corner, math.degrees(math.atan2(-inward[1], -inward[0]))))
    return out


def _sharp_corners(part: np.ndarray, grid: ViewGrid, max_angle_deg: float
                   ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The corners of :func:`tip_guesses`: (corner table mm, unit vectors along the outline
    either way from it)."""
    contours, _ = cv2.findContours(part.astype(np.uint8), cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_NONE)
    out: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    kept: list[list[float]] = []  # the corners of ``out`` as floats, for the 6 mm spacing
    for c in contours:
        if len(c) < 24:
            continue
        mm = grid.to_mm(c.reshape(-1, 2).astype(np.float64))
        seg = np.linalg.norm(np.diff(mm, axis=0, append=mm[:1]), axis=1)
        k = max(round(5.0 / max(float(seg.mean()), 1e-6)), 2)
        a = np.roll(mm, k, axis=0) - mm
        b = np.roll(mm, -k, axis=0) - mm
        cosang = np.sum(a * b, axis=1) / np.maximum(
            np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1), 1e-12)
        ang = np.degrees(np.arccos(np.clip(cosang, -1.0, 1.0)))
        # Convex (pointing out of the region): the chord's midpoint lies inside the region.
        mid = grid.to_px(mm + 0.25 * (a + b))
        ui = np.clip(np.round(mid[:, 0]).astype(int), 0, part.shape[1] - 1)
        vi = np.clip(np.round(mid[:, 1]).astype(int), 0, part.shape[0] - 1)
        convex = part[vi, ui]
        n = len(mm)
        # The smallest angle within k points either way (round the closed outline), for all
        # points in one gather: the per-point loop over every corner under the limit was
        # most of this function's time.
        low = ang[(np.arange(n)[:, None] + np.arange(-k, k + 1)) % n].min(axis=1)
        ok = convex & (ang <= low + 1e-9)
        for i in np.argsort(ang):
            if ang[i] > max_angle_deg:
                break
            if not ok[i]:
                continue
            pt = mm[i].tolist()
            if any(math.dist(pt, t) < 6.0 for t in kept):
                continue
            kept.append(pt)
            out.append((mm[i], a[i] / np.linalg.norm(a[i]), b[i] / np.linalg.norm(b[i])))
    return out


def stern_guesses(part: np.ndarray, grid: ViewGrid, pieces: PieceSet
                  ) -> list[tuple[Size, Pose]]:
    """Starts with a stern corner at each sharp convex corner of a region's outline (as
    :func:`tip_guesses`): a lying piece rests on its tip and its two stern corners, so these
    too lie on the table and survive parallax and neighbours. Either edge from the corner may
    be the long side; the axis is that side turned away from the other edge by half the tip
    angle, and the stern (the base's middle) lies half the base's width along the other edge.
    (size, start pose), table mm. :func:`stern_corner_starts` reads a corner as a stern
    corner from its bisector instead; each finds pieces the other misses (seeds 1072-1107:
    these starts alone lose 1106's red medium, those alone 1073's pair), so both are kept."""
    out = []
    for corner, a, b in _sharp_corners(part, grid, 100.0):
        for side, stern_edge in ((a, b), (b, a)):
            turn = math.copysign(1.0, side[0] * stern_edge[1] - side[1] * stern_edge[0])
            for z in Size:
                d = pieces.dims(z)
                half = math.atan2(d.base_w_mm / 2, d.footprint_length_mm)
                heading = math.atan2(side[1], side[0]) - turn * half
                across = turn * np.array([-math.sin(heading), math.cos(heading)])
                stern = corner + across * d.base_w_mm / 2
                out.append((z, Pose(float(stern[0]), float(stern[1]), math.degrees(heading))))
    return out


def seen_stern_start(scene: Scene, init: Pose, size: Size) -> Pose:
    """``init`` moved along its heading so that the outline as seen of ``size`` there (raised
    base and parallax included) ends at ``init``'s stern, not its footprint: the stern a
    region's wide end shows. The axis guess puts the footprint's stern at the wide end, but
    the raised base, seen from a tilted camera, reaches 5-9 mm past it (a large at 22-35°),
    where nothing else starts a fit when the tip hides against a neighbour (issue 4, seed
    6224 of the 5968-set: a black large whose tip touches an orange large found; what the
    orange leaves, its axis guess 11 mm behind the stern, the large from there 1.06, from
    this start 0.03, 0.4 mm off)."""
    params = np.array([init.x_mm, init.y_mm, math.radians(init.heading_deg)])
    u = np.array([math.cos(params[2]), math.sin(params[2])])
    seen = outline_mm(scene._local(size, False), params, scene.camera_mm)
    back = -float(((seen - params[:2]) @ u).min())
    return Pose(init.x_mm + back * u[0], init.y_mm + back * u[1], init.heading_deg)


def fits_from_axis(scene: Scene, init: Pose, length_mm: float,
                   strong: np.ndarray | None = None, sub: ViewGrid | None = None,
                   *, screened: bool = False, sizes: int = 3,
                   seen_stern: bool = False) -> list[Candidate]:
    """Fits from the region's axis guess, the size nearest its length first, each the better
    of both ways round when not good. A clean fit (good, nothing solid hidden along its
    outline, and explaining the region's ``strong`` pixels when given) ends the search;
    otherwise every size is tried (a shadow or a neighbour in the region misleads the
    length). ``screened``: each size's starts are screened by a short fit and only the best,
    if promising, is fitted fully (cheaper, for areas that are seldom a piece). ``sizes``:
    only that many sizes, nearest the length first. ``seen_stern`` (not screened): a last
    start with the outline as seen ending at the wide end (:func:`seen_stern_start`),
    fitted where the first start is not good."""
    zs = sorted(Size, key=lambda z: abs(scene.pieces.dims(z).footprint_length_mm - length_mm)
                )[:sizes]
    # Stern on the wide end; else the tip on the narrow end (a shadow or the raised base can
    # stretch the wide end); else the other way round.
    tip = init.tip_mm(length_mm)
    starts = {z: (init, Pose.with_tip(tip, init.heading_deg,
                                      scene.pieces.dims(z).footprint_length_mm),
                  Pose(tip[0], tip[1], init.heading_deg + 180.0)) for z in zs}
    if seen_stern and not screened:
        starts = {z: (*st, seen_stern_start(scene, init, z)) for z, st in starts.items()}
    out = []
    # Of three sizes, the nearest alone first (clean ~55 % of the time); when it is not, the
    # second seldom is (~8 %): the others are fitted side by side (_fit_ahead), as are two.
    for group in ([zs[:1], zs[1:]] if len(zs) > 2 else [zs]):
        _fit_ahead(scene, [(z, starts[z]) for z in group], screened)
        for z in group:
            if screened:
                f = min(scene.screens([(z, p0) for p0 in starts[z]]), key=lambda f: f.cost)
                if f.cost > 2 * MAX_COST:
                    continue
                c = scene.fit(z, f.pose)
            else:
                c = scene.fit(z, starts[z][0])
                for p0 in starts[z][1:]:
                    if c.fit.cost <= GOOD_COST:
                        break
                    c = min(c, scene.fit(z, p0), key=lambda x: x.fit.cost)
            out.append(c)
            hidden_solid = np.isnan(c.fit.sample_cost) & c.solid_outside
            if c.fit.cost <= GOOD_COST and hidden_solid.mean() < 0.05 and (
                    strong is None or sub is None
                    or np.count_nonzero(unexplained_mask(strong, sub, [c])) / sub.px_per_mm**2
                    < 0.3 * scene.small_area_mm2):
                return out
    return out


def _fit_ahead(scene: Scene, starts: list[tuple[Size, tuple[Pose, ...]]], screened: bool
               ) -> None:
    """Into the scene's memory, side by side (:meth:`Scene.screens`, :meth:`Scene.fits`: the
    same fits as one by one, cheaper), what :func:`fits_from_axis` asks of each size of
    ``starts``: ``screened``, the screens and the fit from the best if promising; else the
    first start, then the others where that is not good (then the first tip start is good
    only ~12 % of the time)."""
    if screened:
        fs = scene.screens([(z, p0) for z, st in starts for p0 in st])
        n = len(fs) // max(len(starts), 1)
        scene.fits([(z, f.pose) for i, (z, _st) in enumerate(starts)
                    if (f := min(fs[i * n:(i + 1) * n], key=lambda f: f.cost)).cost
                    <= 2 * MAX_COST])
        return
    first = scene.fits([(z, st[0]) for z, st in starts])
    scene.fits([(z, p0) for (z, st), c in zip(starts, first, strict=True)
                if c.fit.cost > GOOD_COST for p0 in st[1:]])


def fits_from_tips(scene: Scene, tips: list[tuple[np.ndarray, float]]) -> list[Candidate]:
    """Fits of every size with its tip at each (tip, heading) of ``tips`` (table mm, °), in
    order: a short fit screens each size (all side by side), the promising ones are fitted
    fully (:meth:`Scene.fits`)."""
    starts = [(z, Pose.with_tip(tip, heading, scene.pieces.dims(z).footprint_length_mm))
              for tip, heading in tips for z in Size]
    screens = scene.screens(starts)
    return scene.fits([(z, f.pose) for (z, _p), f in zip(starts, screens, strict=True)
                       if f.cost <= 2 * MAX_COST], give_up=SURE_GIVE_UP)


def _footprint(c: Candidate, scene: Scene) -> shapely.Polygon:
    return scene.footprint(c)[0]


def clashes(c: Candidate, others: list[Candidate], scene: Scene) -> bool:
    """Whether ``c``'s footprint overlaps any of ``others``' beyond fitting noise (lying
    pieces' footprints cannot overlap)."""
    x0, y0, x1, y1 = scene.footprint(c)[1]
    for k in others:
        u0, v0, u1, v1 = scene.footprint(k)[1]
        # Disjoint bounds: no overlap, and no need to ask shapely.
        if u0 > x1 or u1 < x0 or v0 > y1 or v1 < y0:
            continue
        if scene.overlap(c, k):
            return True
    return False


def size_span_mm(pieces: PieceSet, size: Size) -> tuple[float, float]:
    """How far (mm) the longest and the shortest size's footprints reach past and short of
    ``size``'s: the σ that covers a reading of any other size from the same tip or stern.

    >>> from armada_vision.geometry.pieces import NOMINAL_PIECES
    >>> [round(x, 1) for x in size_span_mm(NOMINAL_PIECES, Size.MEDIUM)]
    [9.9, 9.9]
    """
    lengths_mm = [pieces.dims(z).footprint_length_mm for z in Size]
    own = pieces.dims(size).footprint_length_mm
    return max(lengths_mm) - own, own - min(lengths_mm)


def size_footprints(pose: Pose, size: Size, pieces: PieceSet
                    ) -> list[tuple[Size, shapely.Polygon]]:
    """The footprints (table mm) a reading at ``pose`` (stern and heading) of ``size`` would
    have at every size, from its stern and from its tip: where it could lie if its size is in
    doubt. Those of its size and longer each hold its own footprint (the sizes are alike in
    shape).

    >>> from armada_vision.geometry.pieces import NOMINAL_PIECES
    >>> got = size_footprints(Pose(0.0, 0.0, 0.0), Size.MEDIUM, NOMINAL_PIECES)
    >>> own = footprint(Pose(0.0, 0.0, 0.0), NOMINAL_PIECES.dims(Size.MEDIUM))
    >>> [(z.value, round(f.bounds[0], 1), f.buffer(1e-6).contains(own)) for z, f in got]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('small', 0.0, False), ('small', 9.9, False), ('medium', 0.0, True),
     ('large', 0.0, True), ('large', -9.9, True)]
    """
    own = pieces.dims(size).footprint_length_mm
    ux, uy = math.cos(math.radians(pose.heading_deg)), math.sin(math.radians(pose.heading_deg))
    shifts = {z: dict.fromkeys((0.0, own - pieces.dims(z).footprint_length_mm)) for z in Size}
    return [(z, footprint(replace(pose, x_mm=pose.x_mm + shift * ux,
                                  y_mm=pose.y_mm + shift * uy), pieces.dims(z)))
            for z in Size for shift in shifts[z]]


def size_hull(pose: Pose, size: Size, pieces: PieceSet) -> shapely.Geometry:
    """The union of :func:`size_footprints` (table mm).

    >>> from armada_vision.geometry.pieces import NOMINAL_PIECES
    >>> hull = size_hull(Pose(0.0, 0.0, 0.0), Size.MEDIUM, NOMINAL_PIECES)
    >>> [round(v, 1) for v in hull.bounds]
    [-9.9, -12.7, 46.2, 12.7]
    """
    return shapely.union_all([f for _z, f in size_footprints(pose, size, pieces)])


def joint_cost(c: Candidate, others: list[Candidate], scene: Scene,
               excused: np.ndarray | None = None) -> float:
    """``c``'s cost where a hidden edge is excused only by a shadow-weak outside, by another
    chosen piece's outline or where ``excused`` (per outline sample) says so."""
    probe = c.fit.probe_mm
    explained = ~c.solid_outside if excused is None else ~c.solid_outside | excused
    for o in others:
        explained |= shapely.contains_xy(scene.grown_outline(o), probe[:, 0], probe[:, 1])
    return c.fit.cost_given(explained)


def _covered_px(c: Candidate, region: np.ndarray, sub: ViewGrid) -> np.ndarray:
    mask = np.zeros(region.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(sub.to_px(c.outline_mm)).astype(np.int32)], 1)
    # (mask is 0/1: as bools, ``region & (mask > 0)`` in one pass.)
    return region & mask.view(bool) if region.dtype == bool else region & (mask > 0)


def select(cands: list[Candidate], scene: Scene, region: np.ndarray, sub: ViewGrid, *,
           given: list[Candidate] | None = None, most: int | None = None) -> list[Candidate]:
    """Greedy choice, never two clashing footprints: next is the candidate with the most
    explanation per doubt, share of the region's not yet explained pixels × (1 − joint cost
    / MAX_COST), so a smaller model snug inside a bigger piece (it explains less) or a big
    model straddling two pieces (it fits badly) loses. Each kept fit is then re-scored against
    all the others (its ``fit.cost`` becomes that joint cost). ``given``: pieces already
    there (found by another pass), whose outlines excuse the edges hidden against them in
    every joint cost; ``most``: at most this many chosen."""
    given = given or []
    # Without pieces given, a fit over MAX_COST on its own is out at once; with them, only
    # once its hidden edges are excused (the joint cost below).
    pool = [c for c in cands if given or c.fit.cost <= MAX_COST]
    cover = {id(c): _covered_px(c, region, sub) for c in pool}
    total = max(int(np.count_nonzero(region)), 1)
    explained = np.zeros(region.shape, bool)
    chosen: list[Candidate] = []
    while pool and (most is None or len(chosen) < most):
        best, best_u = None, 0.0
        for c in pool:
            j = joint_cost(c, given + chosen, scene)
            if j > MAX_COST:
                continue
            new = np.count_nonzero(cover[id(c)] & ~explained) / total
            u = new * (1.0 - j / MAX_COST)
            if best is None or u > best_u:
                best, best_u = c, u
        if best is None or best_u <= 0.0:
            break
        # The same piece seen from several starts: of its same-size poses, the best fit.
        twins = [c for c in pool if c.size == best.size and clashes(c, [best], scene)]
        best = min(twins, key=lambda c: joint_cost(c, given + chosen, scene))
        chosen.append(best)
        explained |= cover[id(best)]
        pool = [c for c in pool if c is not best and not clashes(c, [best], scene)]
    out = []
    for c in chosen:
        j = joint_cost(c, given + [o for o in chosen if o is not c], scene)
        if j <= MAX_COST:
            out.append(replace(c, fit=replace(c.fit, cost=j)))
    return out


def size_swaps(scene: Scene, c: Candidate) -> list[Candidate]:
    """Fits of the other sizes with the tip, or the stern, where ``c``'s is (side by
    side)."""
    return scene.fits(_swap_starts(scene, c), give_up=SURE_GIVE_UP)


def fit_size_swaps(scene: Scene, chosen: list[Candidate]) -> None:
    """The :func:`size_swaps` of all of ``chosen`` fitted side by side, into the scene's
    memory (for :func:`finish`, which asks for them piece by piece)."""
    scene.fits([s for c in chosen for s in _swap_starts(scene, c)], give_up=SURE_GIVE_UP)


def _swap_starts(scene: Scene, c: Candidate) -> list[tuple[Size, Pose]]:
    tip = c.fit.pose.tip_mm(scene.pieces.dims(c.size).footprint_length_mm)
    starts = []
    for z in Size:
        if z != c.size:
            s = scene.pieces.dims(z).footprint_length_mm
            starts += [(z, Pose.with_tip(tip, c.fit.pose.heading_deg, s)),
                       (z, c.fit.pose)]  # same stern
    return starts


def reading_gap(scene: Scene, o: Candidate, c: Candidate) -> tuple[float, float]:
    """How far reading ``o`` lies from reading ``c`` of the same piece: the farther of their
    sterns and tips apart (table mm) and their headings apart (degrees)."""
    d_o = scene.pieces.dims(o.size).footprint_length_mm
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    return (max(math.dist(o.fit.pose.stern_mm, c.fit.pose.stern_mm),
                math.dist(o.fit.pose.tip_mm(d_o), c.fit.pose.tip_mm(d_c))),
            abs((o.fit.pose.heading_deg - c.fit.pose.heading_deg + 180.0) % 360.0 - 180.0))


def with_ambiguity(chosen: list[Candidate], cands: list[Candidate], scene: Scene,
                   strong: np.ndarray | None = None, sub: ViewGrid | None = None
                   ) -> list[Candidate]:
    """Each chosen piece with how far another size's reading of it lies, when that reading
    fits nearly as well (the size is then in doubt, and the pose by that much):
    ``ambiguity_mm/deg`` over every such reading; ``covering_ambiguity_mm/deg`` only over
    those that also cover what the chosen piece explains of the region's ``strong`` pixels
    (on ``sub``). A smaller model snug inside a clearly seen piece leaves a thick part of it
    unexplained, so for a piece whose faces all show it is no rival reading (a thin crescent
    left over may be shadow: still a rival)."""
    out = []
    for c in chosen:
        mine = None if strong is None or sub is None else _covered_px(c, strong, sub)
        others = [o for o in chosen if o is not c]
        amb = np.zeros(4)  # mm, deg over all rivals; mm, deg over covering rivals
        for o in cands:
            if (o.size != c.size and clashes(o, [c], scene)
                    and joint_cost(o, others, scene) <= c.fit.cost + AMBIGUITY_COST):
                here = np.array(reading_gap(scene, o, c))
                amb[:2] = np.maximum(amb[:2], here)
                if mine is None or not _thick(unexplained_mask(mine, sub, [o]), sub):
                    amb[2:] = np.maximum(amb[2:], here)
        out.append(replace(c, ambiguity_mm=float(amb[0]), ambiguity_deg=float(amb[1]),
                           covering_ambiguity_mm=float(amb[2]),
                           covering_ambiguity_deg=float(amb[3])))
    return out


def unexplained_mask(part: np.ndarray, grid: ViewGrid, chosen: list[Candidate],
                     grow_mm: float = 1.0) -> np.ndarray:
    """The region's pixels outside every chosen outline (grown by ``grow_mm``)."""
    cover = np.zeros(part.shape, np.uint8)
    for c in chosen:
        cv2.fillPoly(cover, [np.round(grid.to_px(c.outline_mm)).astype(np.int32)], 1)
    r = max(round(grow_mm * grid.px_per_mm), 1)
    cover = cv2.dilate(cover, np.ones((2 * r + 1, 2 * r + 1), np.uint8))
    if part.dtype == bool:
        # part and not cover in one pass (cover is 0/1): ``part & (cover == 0)`` takes two.
        return np.greater(part, cover.view(bool))
    return part & (cover == 0)


def explain_region(scene: Scene, region: np.ndarray, sub: ViewGrid) -> list[Candidate]:
    """The lying pieces that together explain one region (``region`` on the sub-grid
    ``sub`` of the view)."""
    area = region.sum() / sub.px_per_mm**2
    min_left = 0.6 * scene.small_area_mm2
    strong = scene.strong(region, sub)
    cands: list[Candidate] = []
    # A shadow can make a lone piece's region bigger than the piece: try its axis anyway.
    guess = axis_guess(region, sub) if area <= 2.5 * scene.max_area_mm2 else None
    if guess is not None:
        cands += fits_from_axis(scene, *guess, strong, sub)
        chosen = select(cands, scene, strong, sub)
        left = np.count_nonzero(unexplained_mask(strong, sub, chosen)) / sub.px_per_mm**2
        if chosen and left <= min_left and all(c.fit.cost <= GOOD_COST for c in chosen):
            fit_size_swaps(scene, chosen)
            return _reread(scene, finish(scene, chosen, cands, strong, sub), cands)
    # Several pieces (or a piece and something else) touch: start from every tip.
    cands += fits_from_tips(scene, tip_guesses(region, sub))
    chosen = select(cands, scene, strong, sub)
    for _ in range(3):
        # What the chosen pieces leave unexplained, piece by piece, while that helps.
        rest = unexplained_mask(strong, sub, chosen).astype(np.uint8)
        n, lab, stats, _c = cv2.connectedComponentsWithStats(rest, connectivity=8)
        before = len(chosen)
        for i in range(1, n):
            if stats[i, cv2.CC_STAT_AREA] / sub.px_per_mm**2 < min_left:
                continue
            g = axis_guess(lab == i, sub)
            if g is not None:
                # What is left beside chosen pieces is its own length: the size farthest from
                # it is not tried (on 25 stills and seeds 1000-1071 those fits were never
                # chosen; ~4 % of the fits. The nearest alone is not enough: seed 1054's σ).
                # Its tip may hide against a chosen piece: the stern as seen starts it too
                # (only beside a chosen piece: with none chosen, on the whole region, it
                # read the 2512-set's 2613 green large as a doubtful medium, held out).
                cands += [c for c in fits_from_axis(scene, *g, lab == i, sub, sizes=2,
                                                    seen_stern=bool(chosen))
                          if not clashes(c, chosen, scene)]
        chosen = select(cands, scene, strong, sub)
        if len(chosen) <= before:
            break
    if not chosen:
        chosen = shadowed_piece(scene, cands, strong, sub)
    chosen = _plausible(scene, chosen, strong, sub)
    fit_size_swaps(scene, chosen)
    return _lit_longer(scene, _reread(scene, finish(scene, chosen, cands, strong, sub), cands),
                       strong, sub)


def leftover_piece(scene: Scene, region: np.ndarray, sub: ViewGrid, found: list[Candidate]
                   ) -> list[Candidate]:
    """The lying piece in a region that nothing explained on its own, once the pieces
    ``found`` since (the crisp passes) are taken out of it (at most one; none overlapping
    ``found``), fitted from the region's sharp corners with their heading guesses turned by
    TIP_TURNS_DEG: a streak along one side of a tip (wood grain, a lit patch beside a white
    piece) turns the corner's bisector. Its edges hidden against a found piece are excused.
    Chosen as :func:`select` chooses, doubtful ones kept with σ inflated and those more
    likely noise dropped (:func:`_plausible`). Only one: a second from the same guesses was
    an artefact (seed 1000: a reversed small on a white piece's lit patch, cost 0.32). When
    they find none and the region is bigger than one piece can be, a good one with a stern
    corner at a corner (:func:`_at_stern_corners`). Then at most one more whose tip hides in
    a piece found in the region (:func:`_beside_found`)."""
    area = region.sum() / sub.px_per_mm**2
    if (not scene.small_area_mm2 <= area <= LEFTOVER_MAX_AREA * scene.max_area_mm2
            or _inradius_mm(region, sub) < LEFTOVER_MIN_INRADIUS_MM
            or _length_mm(region, sub) > LEFTOVER_MAX_LENGTH * scene.max_length_mm):
        return []
    mine = [c for c in found if _covered_px(c, region, sub).any()]
    rest = unexplained_mask(scene.strong(region, sub), sub, mine)
    def start(z: Size, tip: np.ndarray, h: float) -> tuple[Size, Pose]:
        return z, Pose.with_tip(tip, h, scene.pieces.dims(z).footprint_length_mm)

    corners = tip_guesses(region, sub)
    # The turn is found with the middle size's short fits; the other sizes are screened only
    # at its best turn (the tip's direction does not depend on the size; half the screens,
    # which were most of this pass's cost on wood grain). Every corner's screens, then their
    # fits, side by side (Scene.screens, Scene.fits: the same fits, cheaper).
    turned = scene.screens([start(Size.MEDIUM, tip, heading + t) for tip, heading in corners
                            for t in TIP_TURNS_DEG])
    n = len(TIP_TURNS_DEG)
    best = [min(turned[i:i + n], key=lambda f: f.cost) for i in range(0, len(turned), n)]
    heads = [heading + TIP_TURNS_DEG[turned[i * n:(i + 1) * n].index(b)]
             for i, ((_tip, heading), b) in enumerate(zip(corners, best, strict=True))]
    others = iter(scene.screens([start(z, tip, h) for (tip, _), h in zip(corners, heads,
                                                                          strict=True)
                                 for z in Size if z is not Size.MEDIUM]))
    starts = [(z, f.pose) for b in best for z in Size
              if (f := b if z is Size.MEDIUM else next(others)).cost <= 2 * MAX_COST]
    cands = [c for c in scene.fits(starts) if not clashes(c, found, scene)]
    chosen = select(cands, scene, rest, sub, given=mine, most=1)
    out = finish(scene, _plausible(scene, chosen, rest, sub), cands, rest, sub)
    if not out and area > scene.max_area_mm2:
        # A lone piece's tip is a corner of its region, already tried; a region bigger than
        # any one piece may hold two whose tips both hide against the other.
        out = _at_stern_corners(scene, region, sub, found, mine, rest, cands)
    return out + _beside_found(scene, region, sub, found + out, mine + out, corners)


def _at_stern_corners(scene: Scene, region: np.ndarray, sub: ViewGrid, found: list[Candidate],
                      mine: list[Candidate], rest: np.ndarray, cands: list[Candidate]
                      ) -> list[Candidate]:
    """The lying piece (at most one) with a stern corner at a sharp corner of ``region``
    (:func:`stern_guesses`; issue 4, seed 1073 of the set from 1072: an orange medium and a
    cyan large side by side, each tip against the other's side, so neither tip is a corner
    of the region), chosen as :func:`leftover_piece` chooses but only when good (a doubtful
    one from these starts was false: a white small read into a clear large's region on the
    still s23); none overlapping ``found``."""
    starts = stern_guesses(region, sub, scene.pieces)
    screens = scene.screens(starts)
    new = [c for c in scene.fits([(z, f.pose) for (z, _p), f in zip(starts, screens, strict=True)
                                  if f.cost <= 2 * MAX_COST], give_up=SURE_GIVE_UP)
           if not clashes(c, found, scene)]
    chosen = [c for c in select(new, scene, rest, sub, given=mine, most=1)
              if c.fit.cost <= GOOD_COST]
    return finish(scene, chosen, cands + new, rest, sub)


def _beside_found(scene: Scene, region: np.ndarray, sub: ViewGrid, found: list[Candidate],
                  mine: list[Candidate], corners: list[tuple[np.ndarray, float]]
                  ) -> list[Candidate]:
    """The lying piece (at most one) whose tip hides in one of the pieces ``mine`` found in
    ``region`` (see NEW_CORNER_MM): fitted from the corners of what they leave of it that the
    region's own ``corners`` did not include, its edges hidden within GAP_MM of them excused,
    chosen as :func:`leftover_piece` chooses; none overlapping ``found``."""
    if not mine:
        return []
    rest = unexplained_mask(scene.strong(region, sub), sub, mine)
    if (rest.sum() / sub.px_per_mm**2 < scene.small_area_mm2
            or _inradius_mm(rest, sub) < LEFTOVER_MIN_INRADIUS_MM):
        return []
    near = shapely.union_all([shapely.Polygon(c.outline_mm) for c in mine]).buffer(GAP_MM)
    shapely.prepare(near)
    new = [(tip, heading) for tip, heading in tip_guesses(rest, sub)
           if all(math.dist(tip, t) >= NEW_CORNER_MM for t, _ in corners)]
    cands = []
    for c in fits_from_tips(scene, new):
        if clashes(c, found, scene) or not len(c.solid_outside):
            continue
        probe = c.fit.probe_mm
        gap = shapely.contains_xy(near, probe[:, 0], probe[:, 1])
        cands.append(replace(c, solid_outside=c.solid_outside & ~gap))
    chosen = select(cands, scene, rest, sub, given=mine, most=1)
    return finish(scene, _plausible(scene, chosen, rest, sub), cands, rest, sub)


def stern_corner_starts(scene: Scene, corner: np.ndarray, heading: float, size: Size
                        ) -> list[Pose]:
    """Starts of ``size`` reading ``corner`` (table mm, outward heading guess in °, as
    :func:`tip_guesses` gives it) as a stern corner: the stern edge along one arm and a long
    side along the other, both ways round, the arms at the footprint's stern angle about the
    corner's bisector (robust to an arm its shadow rounds; :func:`stern_guesses` follows the
    arms themselves)."""
    d = scene.pieces.dims(size)
    back = math.radians(heading + 180.0)
    half = 0.5 * math.atan2(d.footprint_length_mm, d.half_w_mm)
    side_mm = math.hypot(d.footprint_length_mm, d.half_w_mm)
    starts = []
    for sign in (1.0, -1.0):
        side, edge = back + sign * half, back - sign * half
        tip = corner + side_mm * np.array([math.cos(side), math.sin(side)])
        stern = corner + d.half_w_mm * np.array([math.cos(edge), math.sin(edge)])
        starts.append(Pose(float(stern[0]), float(stern[1]),
                           math.degrees(math.atan2(tip[1] - stern[1], tip[0] - stern[0]))))
    return starts


def touching_pieces(scene: Scene, region: np.ndarray, sub: ViewGrid, found: list[Candidate]
                    ) -> list[Candidate]:
    """The lying pieces of a region nothing explained (not even :func:`leftover_piece`),
    where two pieces touch tip to side (see PAIR_FIRSTS): fits from its corners read as
    stern corners (:func:`stern_corner_starts`) and as tips; two together when a pair
    explains the whole region (:func:`_pair`), else one good piece chosen as
    :func:`leftover_piece` chooses that leaves room for the neighbour it touches
    (:func:`_room_beside`: a lone piece there leaves its neighbour unexplained); none
    overlapping ``found``, edges hidden against the pieces found in the region excused."""
    area = region.sum() / sub.px_per_mm**2
    # Two pieces' footprints at least; otherwise leftover_piece's limits.
    if (not 2 * scene.small_area_mm2 <= area <= LEFTOVER_MAX_AREA * scene.max_area_mm2
            or _inradius_mm(region, sub) < LEFTOVER_MIN_INRADIUS_MM
            or _length_mm(region, sub) > LEFTOVER_MAX_LENGTH * scene.max_length_mm):
        return []
    mine = [c for c in found if _covered_px(c, region, sub).any()]
    rest = unexplained_mask(scene.strong(region, sub), sub, mine)
    corners = tip_guesses(region, sub)
    # Which way round is found with the middle size's short fits, the other sizes are
    # screened that way only (as leftover_piece's turns): 4 screens a corner, not 6; the
    # promising ones are fitted fully (only the best one or two lost 1094's larges or all).
    meds = [stern_corner_starts(scene, tip, h, Size.MEDIUM) for tip, h in corners]
    ways = scene.screens([(Size.MEDIUM, p) for two in meds for p in two])
    others = [z for z in Size if z is not Size.MEDIUM]
    way = [int(ways[2 * k + 1].cost < ways[2 * k].cost) for k in range(len(corners))]
    rest_screens = scene.screens([(z, stern_corner_starts(scene, tip, h, z)[w])
                                  for (tip, h), w in zip(corners, way, strict=True)
                                  for z in others])
    promising = []
    for k, w in enumerate(way):
        got = [(Size.MEDIUM, ways[2 * k + w]), *zip(others, rest_screens[2 * k:2 * k + 2],
                                                     strict=True)]
        promising += [(z, f.pose) for z, f in got if f.cost <= 2 * MAX_COST]
    cands = scene.fits(promising, give_up=SURE_GIVE_UP)
    cands = [c for c in cands + fits_from_tips(scene, corners) if not clashes(c, found, scene)]
    chosen = _plausible(scene, _pair(scene, cands, rest, sub, mine), rest, sub)
    if len(chosen) < 2:
        chosen = partner_from_rest(scene, cands, rest, sub, mine, found)
    if len(chosen) < 2:
        # No pair (or one of it noise): one piece, good (nothing confirms it, as a pair's
        # partner does: a doubtful small on a missed clear large of still s23, cost 0.46)
        # and leaving room for the neighbour it touches.
        chosen = [c for c in select(cands, scene, rest, sub, given=mine, most=1)
                  if c.fit.cost <= GOOD_COST and _room_beside(scene, region, sub, [*mine, c])]
    return finish(scene, chosen, cands, rest, sub)


def partner_from_rest(scene: Scene, cands: list[Candidate], rest: np.ndarray, sub: ViewGrid,
                      mine: list[Candidate], found: list[Candidate]) -> list[Candidate]:
    """A touching pair whose second piece no corner start reaches (issue 4, seed 2120 of the
    set from 1936: two red mediums side by side, each tip against the other's side; from the
    right one's stern corner the short fits screen 1.1-1.2 both ways round, over 2 × MAX_COST,
    yet its fit from there ends 0.1 mm off at cost 0.014): once one piece fits well, the other
    is what it leaves of the region, so it is fitted from that remainder's axis (as
    :func:`explain_region` fits what its chosen pieces leave), and :func:`_pair` chooses among
    all. Both of the pair must be good (nothing else confirms a piece in a region that no one
    piece explains); none when no pair does."""
    firsts = [c for c in sorted(cands, key=lambda c: c.fit.cost)[:PAIR_FIRSTS]
              if c.fit.cost <= GOOD_COST and len(c.fit.sample_cost)
              and np.isnan(c.fit.sample_cost).mean() <= PAIR_MAX_HIDDEN]
    more: list[Candidate] = []
    for c in firsts:
        left = unexplained_mask(rest, sub, [*mine, c]).astype(np.uint8)
        n, lab, stats, _c = cv2.connectedComponentsWithStats(left, connectivity=8)
        if n < 2:
            continue
        i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        # Room for the partner, as _room_beside asks (a shadow's crescent has none).
        if (stats[i, cv2.CC_STAT_AREA] / sub.px_per_mm**2 < scene.small_area_mm2
                or _inradius_mm(lab == i, sub) < LEFTOVER_MIN_INRADIUS_MM):
            continue
        # The remainder is the partner's own length: its nearest size only, screened (the
        # fits are this pass's cost: 4-8 ms per region where it runs on seeds 1000-1007).
        if (g := axis_guess(lab == i, sub)) is not None:
            more += [o for o in fits_from_axis(scene, *g, lab == i, sub, screened=True,
                                               sizes=1)
                     if not clashes(o, [*found, c], scene)]
    if not more:
        return []
    pair = _pair(scene, cands + more, rest, sub, mine)
    return pair if all(c.fit.cost <= GOOD_COST for c in pair) else []


def _room_beside(scene: Scene, region: np.ndarray, sub: ViewGrid, chosen: list[Candidate]
                 ) -> bool:
    """Whether what ``chosen`` leave of ``region`` could hold the piece they touch: a small's
    footprint and a LEFTOVER_MIN_INRADIUS_MM disc (seed 1029: a standing medium read as a
    lying small at cost 0.10 left 115 mm², 4.4 mm; 1106's red medium leaves its green
    neighbour, 578 mm², 10.8 mm)."""
    rest = unexplained_mask(region, sub, chosen)
    return (rest.sum() / sub.px_per_mm**2 >= scene.small_area_mm2
            and _inradius_mm(rest, sub) >= LEFTOVER_MIN_INRADIUS_MM)


def _pair(scene: Scene, cands: list[Candidate], strong: np.ndarray, sub: ViewGrid,
          given: list[Candidate]) -> list[Candidate]:
    """Two of ``cands`` that explain the region's ``strong`` pixels together (beside the
    pieces ``given``), each one's joint cost at most MAX_COST with the other's outline
    excusing its hidden edges, leaving no more of it unexplained than
    :func:`explain_region` leaves (0.6 of a small's footprint): the pair explaining most per
    doubt, as :func:`select` weighs one piece; none when no pair does."""
    min_left = 0.6 * scene.small_area_mm2 * sub.px_per_mm**2
    total = max(int(np.count_nonzero(strong)), 1)
    firsts: list[Candidate] = []
    for c in sorted(cands, key=lambda c: c.fit.cost):
        if len(firsts) == PAIR_FIRSTS or c.fit.cost > MAX_COST:
            break
        if (len(c.fit.sample_cost) and np.isnan(c.fit.sample_cost).mean() <= PAIR_MAX_HIDDEN
                and not any(o.size == c.size and clashes(c, [o], scene) for o in firsts)):
            firsts.append(c)
    best: list[Candidate] = []
    best_u = 0.0
    for c in firsts:
        got = select([o for o in cands if not clashes(o, [c], scene)], scene, strong, sub,
                     given=[*given, c], most=1)
        if not got:
            continue
        j = joint_cost(c, given + got, scene)
        if j > MAX_COST:
            continue
        pair = [replace(c, fit=replace(c.fit, cost=j)), got[0]]
        left = int(np.count_nonzero(unexplained_mask(strong, sub, given + pair)))
        u = (1.0 - left / total) * (1.0 - (j + got[0].fit.cost) / (2.0 * MAX_COST))
        if left <= min_left and u > best_u:
            best, best_u = pair, u
    return best


def _plausible(scene: Scene, chosen: list[Candidate], strong: np.ndarray, sub: ViewGrid
               ) -> list[Candidate]:
    """``chosen`` without the doubtful fits that are more likely noise than a piece: those
    in a region that the pieces leave mostly unexplained (a hand's finger, an arm's shadow),
    those whose inside is partly table (speckle round a shadow, a glint strip) and those with
    much of their outline hidden (a neighbour's shadow band)."""
    if all(c.fit.cost <= GOOD_COST for c in chosen):
        return chosen
    left = np.count_nonzero(unexplained_mask(strong, sub, chosen)) / sub.px_per_mm**2
    out = []
    for c in chosen:
        if c.fit.cost > GOOD_COST and (left > DOUBT_MAX_LEFT * scene.max_area_mm2
                                       or np.isnan(c.fit.sample_cost).mean() > DOUBT_MAX_HIDDEN
                                       or _inside_score(scene, c) < DOUBT_MIN_SCORE):
            continue
        out.append(c)
    return out


def _inside_score(scene: Scene, c: Candidate) -> float:
    """25th percentile of the foreground score well inside ``c``'s footprint."""
    sl, m = scene.grid.inner_crop(_footprint(c, scene), 0.8)
    vals = scene.score[sl][m]
    return float(percentile(vals, 25)) if vals.size else 0.0


def shadowed_piece(scene: Scene, cands: list[Candidate], strong: np.ndarray, sub: ViewGrid
                   ) -> list[Candidate]:
    """A lone piece whose edges on one side are lost in its own (tinted) shadow: the good or
    doubtful fit (hidden edges excused) covering most of the region, if what it leaves of
    the region is nowhere thick enough to hide another piece (a shadow is a thin crescent).
    The hidden samples stay excused; σ grows with the hidden share of the outline."""
    good = [c for c in cands if not c.upright and c.fit.cost <= MAX_COST
            and np.isnan(c.fit.sample_cost).mean() <= SHADOW_MAX_HIDDEN
            and _hidden_in_shadow(scene, c)]
    # Good fits first; a doubtful one (its σ inflated) only when no good one will do.
    good.sort(key=lambda c: (c.fit.cost > GOOD_COST,
                             -int(np.count_nonzero(_covered_px(c, strong, sub)))))
    for c in good[:6]:
        if not _thick(unexplained_mask(strong, sub, [c], grow_mm=0.5), sub):
            return [c]
    return []


def _thick(mask: np.ndarray, sub: ViewGrid) -> bool:
    """Whether some pixel of ``mask`` lies farther than SHADOW_MAX_HALF_MM from its edge."""
    if not mask.any():
        return False
    m = cv2.copyMakeBorder(mask.astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    return float(cv2.distanceTransform(m, cv2.DIST_L2, 3).max()) >= (
        SHADOW_MAX_HALF_MM * sub.px_per_mm)


def _hidden_in_shadow(scene: Scene, c: Candidate) -> bool:
    """Whether just outside ``c``'s hidden outline samples the table is darker than the
    table: a shadow, not a clear piece or a glint."""
    hidden = np.isnan(c.fit.sample_cost)
    if scene.shade is None or not hidden.any():
        return scene.shade is None
    p = scene.grid.to_px(c.fit.probe_mm[hidden])
    dark = float(median(sample_map(scene.shade, p[:, 0], p[:, 1])))
    return dark <= SHADOW_SHADE


def finish(scene: Scene, chosen: list[Candidate], cands: list[Candidate],
            strong: np.ndarray | None = None, sub: ViewGrid | None = None
            ) -> list[Candidate]:
    """``chosen`` with their size ambiguity against ``cands`` and the other sizes fitted
    in their place (:func:`with_ambiguity`)."""
    swaps = [f for c in chosen for f in size_swaps(scene, c)]
    return with_ambiguity(chosen, cands + swaps, scene, strong, sub)


def pieces_at_tips(scene: Scene, part: np.ndarray, sub: ViewGrid) -> list[Candidate]:
    """Lying pieces in a region that is mostly something else (a hand, an arm and the table
    its colour bled into): fitted only from the region's sharp corners (a hand has none, a
    piece's tip is one), and kept only when clean: a good fit with at most HAND_MAX_HIDDEN of
    its outline against the rest of the region. Footprints never overlap."""
    rows, cols = scene.grid.shape
    margin = HAND_BORDER_MM * scene.grid.px_per_mm
    tips = []
    for tip, heading in tip_guesses(part, sub, max_angle_deg=HAND_TIP_DEG):
        u, v = scene.grid.to_px(tip[None])[0]
        if margin <= u <= cols - margin and margin <= v <= rows - margin:
            tips.append((tip, heading))
    cands = fits_from_tips(scene, tips)
    good = sorted((c for c in cands if c.fit.cost <= HAND_MAX_COST
                   and np.isnan(c.fit.sample_cost).mean() <= HAND_MAX_HIDDEN),
                  key=lambda c: c.fit.cost)
    out: list[Candidate] = []
    for c in good:
        if not clashes(c, out, scene):
            out.append(c)
    # The rest of a longer piece may be lost in the hand's region: when the region covers
    # where a longer piece with the same tip would lie, σ covers that reading too.
    fit_size_swaps(scene, out)
    done = finish(scene, out, cands)
    return [_hidden_length(scene, c, part, sub, [o for o in done if o is not c]) for c in done]


def pieces_in_colour(scene: Scene, part: np.ndarray, sub: ViewGrid, vivid: np.ndarray,
                     taken: list[Candidate], under_hand: bool = False,
                     other_colour: Callable[[Candidate, Candidate], bool] | None = None
                     ) -> list[Candidate]:
    """Lying pieces in a hand's region ``part`` fitted in each area of its ``vivid`` mask (a
    piece's own colour, apart from the skin and the table): from the area's sharp corners (a
    tip that is no corner of the region is one of the area's) and its axis; per area the good
    fit that covers it best (:func:`_covers_area`); none overlaps ``taken`` or another. Only
    clean readings are kept (σ as :func:`pieces_at_tips` gives it no more than HAND_EDGE_MM),
    and ``under_hand`` (``part`` is a hand's region) those only a longer size under the hand
    makes unclean whose colour area is not round; each with σ at least HAND_COLOUR_MM.
    With ``other_colour`` (whether a reading of ``taken`` is of another colour than a fit),
    a fit's colour is asked only where no reading of another colour leans over it."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(vivid.astype(np.uint8), connectivity=8)
    min_px = COLOUR_MIN_AREA * scene.small_area_mm2 * sub.px_per_mm**2
    out: list[Candidate] = []
    cands: list[Candidate] = []
    free = None
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < min_px:
            continue
        area = lab == i
        if free is None:
            free = unexplained_mask(vivid, sub, taken)
        if np.count_nonzero(free & area) < min_px:
            continue  # a piece read already (pieces_at_tips)
        got = fits_from_tips(scene, tip_guesses(area, sub))
        if (guess := axis_guess(area, sub)) is not None:
            got += fits_from_axis(scene, *guess, screened=True)
        cands += got
        fits = [(c, left) for c in got if c.fit.cost <= GOOD_COST
                and (left := _covers_area(c, area, sub, _leaning(c, taken, sub, other_colour)
                                          )) is not None
                and not clashes(c, out + taken, scene)]
        if fits:
            out.append(min(fits, key=lambda f: f[0].fit.cost + f[1])[0])
    fit_size_swaps(scene, out)
    done = finish(scene, out, cands)
    read = [_hidden_length(scene, c, part, sub, [o for o in done if o is not c] + taken)
            for c in done]
    # Only clean readings: one with a rival (a size or a pose as good) may be a die or a
    # chit of the piece's colour (seed 2153: a yellow small at σ 20 mm where no piece lies).
    # Under a hand, a reading only a longer size hidden by the hand makes unclean is kept
    # (σ covers that size) unless its colour area is round (a coin, a chit, a die).
    # Those kept touch a hand (or its shadow), which may lie over them: never trusted.
    return [replace(c, ambiguity_mm=max(c.ambiguity_mm, HAND_COLOUR_MM),
                    covering_ambiguity_mm=max(c.covering_ambiguity_mm, HAND_COLOUR_MM))
            for c0, c in zip(done, read, strict=True) if _amb(c) <= HAND_EDGE_MM or (
                under_hand and _amb(c0) <= HAND_EDGE_MM and not _round_area(c, lab, sub))]


def _amb(c: Candidate) -> float:
    return max(c.ambiguity_mm, c.covering_ambiguity_mm)


def _round_area(c: Candidate, lab: np.ndarray, sub: ViewGrid) -> bool:
    """Whether the colour area (component of ``lab``) most inside ``c``'s outline fills more
    than ROUND_FILL of its smallest enclosing circle: a coin or chit seen half or more, or a
    die, rather than a lying piece's triangle (its footprint fills 0.30 of it)."""
    seen = np.zeros(lab.shape, np.uint8)
    cv2.fillPoly(seen, [np.round(sub.to_px(c.outline_mm)).astype(np.int32)], 1)
    ids = lab[(seen > 0) & (lab > 0)]
    if len(ids) == 0:
        return True
    area = (lab == np.bincount(ids).argmax()).astype(np.uint8)
    contours, _ = cv2.findContours(area, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outer = max(contours, key=cv2.contourArea)
    _, radius = cv2.minEnclosingCircle(outer)
    return cv2.contourArea(outer) > ROUND_FILL * math.pi * radius**2


def _leaning(c: Candidate, taken: list[Candidate], sub: ViewGrid,
             other_colour: Callable[[Candidate, Candidate], bool] | None
             ) -> Callable[[np.ndarray], np.ndarray] | None:
    """For :func:`_covers_area`: the part of a mask (on ``sub``) outside the readings of
    ``taken`` of another colour than ``c`` (``other_colour``), asked only when needed."""
    if other_colour is None:
        return None

    def bare(shape_of: np.ndarray) -> np.ndarray:
        others = [o for o in taken if other_colour(c, o)]
        return unexplained_mask(np.ones(shape_of.shape, bool), sub, others)
    return bare


def _covers_area(c: Candidate, area: np.ndarray, sub: ViewGrid,
                 bare: Callable[[np.ndarray], np.ndarray] | None = None) -> float | None:
    """The share of ``area`` (on ``sub``) left outside ``c``'s outline, when ``c``'s outline
    as seen is at least COLOUR_MIN_SHARE that area and leaves at most COLOUR_MAX_LEFT of it;
    else None (the reading is not that area's piece). With ``bare`` (the part of a mask
    outside the readings found of another colour, :func:`_leaning`), a share under
    COLOUR_MIN_SHARE is asked again of that part of the outline, when it is at least
    COLOUR_BARE_MIN of it: a piece of another colour found leaning over ``c`` in the view
    hides its colour (one of ``c``'s colour would not: it may be ``c``'s own piece)."""
    seen = np.zeros(area.shape, np.uint8)
    cv2.fillPoly(seen, [np.round(sub.to_px(c.outline_mm)).astype(np.int32)], 1)
    inside = seen > 0
    if not inside.any():
        return None
    if area[inside].mean() < COLOUR_MIN_SHARE and bare is not None:
        shown = inside & bare(area)
        if np.count_nonzero(shown) >= COLOUR_BARE_MIN * np.count_nonzero(inside):
            inside = shown
    if not inside.any() or area[inside].mean() < COLOUR_MIN_SHARE:
        return None
    left = unexplained_mask(area, sub, [c]).sum() / max(np.count_nonzero(area), 1)
    return float(left) if left <= COLOUR_MAX_LEFT else None


def _hidden_length(scene: Scene, c: Candidate, part: np.ndarray, sub: ViewGrid,
                   others: list[Candidate] | None = None) -> Candidate:
    """``c`` with its ambiguity raised to HAND_EDGE_MM and to the stern shift of every
    longer size whose extra length lies (mostly) in ``part``. When ``c``'s own stern edge
    shows no step in brightness (it ends on the piece, not at its end) and a clean reading of
    that longer size with the same tip shows one (:func:`_stern_seen`), or is seen whole on
    the fit map (HAND_SEEN_HIDDEN), and overlaps none of ``others``, that reading is taken
    instead: the whole piece is seen, only the fit map (scaled to the hand's region) hid its
    stern (seed 1017: a blue large, all three sizes fitted its tip at cost ≤ 0.022 and the
    medium won by 0.005), or the small's stern lay on the piece (check seed 1038)."""
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    tip = np.asarray(c.fit.pose.tip_mm(d_c))
    amb = HAND_EDGE_MM
    own_seen: bool | None = None
    for z in scene.by_length:
        d_z = scene.pieces.dims(z).footprint_length_mm
        if d_z <= d_c:
            continue
        alt = Pose.with_tip(tip, c.fit.pose.heading_deg, d_z)
        extra = footprint(alt, scene.pieces.dims(z)).difference(_footprint(c, scene).buffer(1.0))
        if extra.is_empty or extra.area < 1.0:
            continue
        lo, hi = np.asarray(extra.bounds[:2]), np.asarray(extra.bounds[2:])
        grid_pts = np.stack(np.meshgrid(np.linspace(lo[0], hi[0], 12),
                                        np.linspace(lo[1], hi[1], 12)), -1).reshape(-1, 2)
        pts = grid_pts[shapely.contains_xy(extra, grid_pts[:, 0], grid_pts[:, 1])]
        if len(pts) == 0:
            continue
        if sub.mask_at(part, pts).mean() < 0.5:
            continue
        if own_seen is None:
            own_seen = _stern_seen(scene, c)
        longer = None if own_seen else _longer_reading(scene, c, z, others or [])
        if longer is None:
            amb = max(amb, d_z - d_c)
            continue
        # The longer piece is seen whole: the shorter reading is no rival (its stern lies
        # on the piece), but a longer size still may be.
        c, d_c, own_seen = replace(longer, ambiguity_mm=0.0, covering_ambiguity_mm=0.0,
                                   ambiguity_deg=0.0, covering_ambiguity_deg=0.0), d_z, True
    return replace(c, ambiguity_mm=max(amb, c.ambiguity_mm),
                   covering_ambiguity_mm=max(amb, c.covering_ambiguity_mm))


def _longer_reading(scene: Scene, c: Candidate, size: Size, others: list[Candidate]
                    ) -> Candidate | None:
    """The fit of ``size`` from ``c``'s tip (tip within TIP_SAME_MM of ``c``'s) that overlaps
    none of ``others`` and is clean (as :func:`pieces_at_tips` keeps them) with its stern edge
    seen, or seen whole on the fit map (good, at most HAND_SEEN_HIDDEN hidden); or None."""
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    d_z = scene.pieces.dims(size).footprint_length_mm
    tip = np.asarray(c.fit.pose.tip_mm(d_c))
    start = Pose.with_tip(tip, c.fit.pose.heading_deg, d_z)
    o = scene.fit(size, scene.screen(size, start).pose)
    if not _from_tip(o, tip, d_z):
        return None
    if not _seen_whole(o) and (o.fit.cost > HAND_MAX_COST
                               or float(np.isnan(o.fit.sample_cost).mean()) > HAND_MAX_HIDDEN
                               or not _stern_seen(scene, o)):
        return None
    return None if clashes(o, others, scene) else o


def _from_tip(o: Candidate, tip: np.ndarray, length_mm: float) -> bool:
    """Whether fit ``o`` (footprint ``length_mm`` long) was made and kept its tip within
    TIP_SAME_MM of ``tip`` (table mm)."""
    return (len(o.fit.sample_cost) > 0
            and math.dist(o.fit.pose.tip_mm(length_mm), tip) <= TIP_SAME_MM)


def _longer_from_tip(scene: Scene, c: Candidate) -> Iterator[Candidate]:
    """``c``'s longer size swaps, shortest first, fitted from its tip and heading, that kept
    their tip (:func:`_from_tip`; the fits :func:`finish` made, answered from memory)."""
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    tip = np.asarray(c.fit.pose.tip_mm(d_c))
    for z in scene.by_length:
        d_z = scene.pieces.dims(z).footprint_length_mm
        if d_z <= d_c:
            continue
        o = scene.fit(z, Pose.with_tip(tip, c.fit.pose.heading_deg, d_z), give_up=SURE_GIVE_UP)
        if _from_tip(o, tip, d_z):
            yield o


def _seen_whole(o: Candidate) -> bool:
    """Whether fit ``o`` is seen whole on the fit map: good, at most HAND_SEEN_HIDDEN of its
    outline hidden."""
    return (o.fit.cost <= GOOD_COST
            and float(np.isnan(o.fit.sample_cost).mean()) <= HAND_SEEN_HIDDEN)


def _stern_seen(scene: Scene, c: Candidate) -> bool:
    """Whether ``c``'s stern edge is an edge in the view: the brightness over the table's
    (``scene.shade``) STERN_IN_MM inside it and as far outside differ by a factor of
    STERN_STEP or more (median along the edge, its corners left out). Where a reading ends
    on the piece itself both sides are the same face (seed 1017's medium: 0.58 / 0.52); a
    piece's end against the table steps (its large: 0.47 inside, the open base, / 0.94)."""
    if scene.shade is None:
        return False
    p = c.fit.pose
    h = math.radians(p.heading_deg)
    u = np.array([math.cos(h), math.sin(h)])
    w = scene.pieces.dims(c.size).base_w_mm / 2 - STERN_IN_MM
    edge = np.asarray(p.stern_mm) + np.outer(np.linspace(-w, w, 15), [-u[1], u[0]])
    px_in = scene.grid.to_px(edge + STERN_IN_MM * u)
    px_out = scene.grid.to_px(edge - STERN_IN_MM * u)
    inside = float(median(sample_map(scene.shade, px_in[:, 0], px_in[:, 1])))
    outside = float(median(sample_map(scene.shade, px_out[:, 0], px_out[:, 1])))
    ratio = max(inside, 1e-3) / max(outside, 1e-3)
    return not 1.0 / STERN_STEP < ratio < STERN_STEP


def _reread(scene: Scene, chosen: list[Candidate], cands: list[Candidate]
            ) -> list[Candidate]:
    """``chosen``, each lying piece whose size is in doubt read again: at the next longer
    size when that reading's stern lies past an open base (:func:`_open_base`), then, if it
    is doubtful, at a shorter size whose only trouble is a glint past its tip
    (:func:`_glint_tip`); each against the other pieces as they stand."""
    out = list(chosen)
    for reread in (lambda c, others: _open_base(scene, c, others),
                   lambda c, others: (None if c.fit.cost <= GOOD_COST
                                      else _glint_tip(scene, c, cands, others)),
                   lambda c, others: _seen_whole_longer(scene, c, others)):
        for i, c in enumerate(out):
            if c.upright or c.ambiguity_mm <= 0.0:
                continue
            new = reread(c, out[:i] + out[i + 1:])
            if new is not None:
                out[i] = new
    return out


def _seen_whole_longer(scene: Scene, c: Candidate, others: list[Candidate]
                       ) -> Candidate | None:
    """The longest of ``c``'s longer size swaps with its tip (tip within TIP_SAME_MM, the
    fits :func:`finish` made) that is seen whole — good, at most HAND_SEEN_HIDDEN of its
    outline hidden — overlaps none of ``others`` and beats ``c``'s joint cost by more than
    AMBIGUITY_COST, with its size ambiguity against its own size swaps; else None."""
    best = None
    for o in _longer_from_tip(scene, c):
        if not _seen_whole(o):
            continue
        j = joint_cost(o, others, scene)
        if j < c.fit.cost - AMBIGUITY_COST and not clashes(o, others, scene):
            best = replace(o, fit=replace(o.fit, cost=j))
    if best is None:
        return None
    # The size is the view's, but the fit map misled the first fits (1093's large 1.1 mm off,
    # fit σ 0.29 mm): σ at least HAND_EDGE_MM, as for a hand piece's longer reading.
    best = with_ambiguity([best], [*size_swaps(scene, best), c], scene)[0]
    return replace(best, ambiguity_mm=max(best.ambiguity_mm, HAND_EDGE_MM),
                   covering_ambiguity_mm=max(best.covering_ambiguity_mm, HAND_EDGE_MM))


def _lit_longer(scene: Scene, chosen: list[Candidate], strong: np.ndarray, sub: ViewGrid
                ) -> list[Candidate]:
    """``chosen``, each doubtful lying piece in size doubt replaced by its longer reading
    when the region goes on past its stern, lit (:func:`_lit_past_stern`)."""
    out = list(chosen)
    for i, c in enumerate(out):
        if c.upright or c.ambiguity_mm <= 0.0 or c.fit.cost <= GOOD_COST:
            continue
        new = _lit_past_stern(scene, c, out[:i] + out[i + 1:], strong, sub)
        if new is not None:
            out[i] = new
    return out


def _lit_past_stern(scene: Scene, c: Candidate, others: list[Candidate], strong: np.ndarray,
                    sub: ViewGrid) -> Candidate | None:
    """The longest of ``c``'s longer size swaps with its tip (tip within TIP_SAME_MM) that is
    usable against ``others`` (joint cost ≤ MAX_COST, no clash) and whose footprint past
    ``c``'s holds ``strong`` pixels (on ``sub``)
    over LIT_SHARE of its area, LIT_SHADE × the table's brightness or more at their median;
    its σ keeps ``c`` as a rival. Else None."""
    if scene.shade is None:
        return None
    shade = scene.shade[scene.grid.window(sub)]
    best = None
    for o in _longer_from_tip(scene, c):
        if clashes(o, others, scene):
            continue
        j = joint_cost(o, others, scene)
        if j > MAX_COST:
            continue
        past = unexplained_mask(_covered_px(o, strong, sub), sub, [c], grow_mm=0.0)
        added = (scene.footprint(o)[0].area - scene.footprint(c)[0].area) * sub.px_per_mm**2
        n = np.count_nonzero(past)
        if n < LIT_SHARE * added or float(median(shade[past])) < LIT_SHADE:
            continue
        best = replace(o, fit=replace(o.fit, cost=j))
    if best is None:
        return None
    return with_ambiguity([best], [*size_swaps(scene, best), c], scene)[0]


def _open_base(scene: Scene, c: Candidate, others: list[Candidate]) -> Candidate | None:
    """The reading of the next longer size with ``c``'s tip (the size swap's fit, tip within
    TIP_SAME_MM) when ``c``'s stern lies on its open base (see BASE_END_MM), overlapping none
    of ``others``, with its cost without the stern's misses and σ at least HAND_EDGE_MM (its
    stern was read on the view, not fitted); else None."""
    by_length = scene.by_length
    if c.size is by_length[-1]:
        return None
    z = by_length[by_length.index(c.size) + 1]
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    d_z = scene.pieces.dims(z).footprint_length_mm
    tip = np.asarray(c.fit.pose.tip_mm(d_c))
    # The size swap's fit (finish made it: answered from memory).
    o = scene.fit(z, Pose.with_tip(tip, c.fit.pose.heading_deg, d_z), give_up=SURE_GIVE_UP)
    if (len(o.fit.sample_cost) == 0 or math.dist(o.fit.pose.tip_mm(d_z), tip) > TIP_SAME_MM
            or clashes(o, others, scene)):
        return None
    cost, step, sigma = open_base_cost(o), BASE_STEP, HAND_EDGE_MM
    if cost > GOOD_COST:
        cost, step, sigma = _seen_past_base(o), BASE_STEP_UNSEEN, BASE_UNSEEN_MM
    if cost > GOOD_COST or not base_band(scene, o, step):
        return None
    # Its stern misses are the open base's, not doubt: the cost is the rest's.
    return replace(o, fit=replace(o.fit, cost=cost), ambiguity_mm=sigma,
                   covering_ambiguity_mm=sigma)


def _past_stern_mm(c: Candidate) -> np.ndarray:
    """How far each of ``c``'s outline samples lies past its stern along its axis (table mm)."""
    return (c.fit.probe_mm - np.asarray(c.fit.pose.stern_mm)) @ np.asarray(c.fit.pose.direction)


def open_base_cost(c: Candidate, excused: np.ndarray | None = None) -> float:
    """``c``'s cost with the samples of its stern end (within BASE_END_MM of the stern along
    the axis) that found no edge (cost at least MISS_COST) left out, when its sides are seen
    right up to that end (cost at most GOOD_COST over the next BASE_SIDE_MM, nothing hidden
    there); else 99. ``excused`` flags the hidden samples to leave out (an edge against a
    piece found); the other hidden ones count as misses. Without it, any hidden sample gives
    99. An open base hides the stern edge on the map two ways: a clear piece's shows the
    bare wood (seed 1026's large: 26 stern samples missed, cost 0.59, the rest 0.16), a white
    piece's scores as shadow (see BASE_END_MM); a reading longer than the piece has no sides
    there."""
    sc = c.fit.sample_cost
    t = _past_stern_mm(c)
    hidden = np.isnan(sc)
    if excused is None:
        if hidden.any():
            return 99.0
        excused = np.zeros(len(sc), bool)
    cost = np.where(hidden, MISS_COST * ~excused, sc)
    side = (t >= BASE_END_MM) & (t < BASE_END_MM + BASE_SIDE_MM)
    if not side.any() or np.any(hidden[side] & ~excused[side]) or cost[side].mean() > GOOD_COST:
        return 99.0
    keep = ~((t < BASE_END_MM) & ~hidden & (sc >= MISS_COST)) & ~(hidden & excused)
    return float(cost[keep].mean()) if keep.any() else 99.0


def _seen_past_base(c: Candidate) -> float:
    """``c``'s cost over its outline from BASE_END_MM + BASE_SIDE_MM past the stern on (the
    base's part left out, seen or not), when nothing there is hidden and its first
    BASE_SIDE_MM costs at most GOOD_COST; else 99."""
    sc = c.fit.sample_cost
    t = _past_stern_mm(c)
    far = t >= BASE_END_MM + BASE_SIDE_MM
    side = far & (t < BASE_END_MM + 2 * BASE_SIDE_MM)
    if not side.any() or np.isnan(sc[far]).any() or sc[side].mean() > GOOD_COST:
        return 99.0
    return float(sc[far].mean())


def base_band(scene: Scene, c: Candidate, step: float = BASE_STEP) -> bool:
    """Whether the view shows ``c``'s open base where the camera sees it (the base face's
    corners through the camera onto the table): inside it, over the inner BASE_ACROSS of its
    width, darker by ``step`` than the table just behind its bottom edge and the face just
    ahead of its top rim, in each of BASE_LANES lanes across (medians along each lane)."""
    lanes = _base_lanes(scene, c)
    return lanes is not None and bool(np.all(lanes >= step))


def _base_seen(scene: Scene, c: Candidate) -> np.ndarray:
    """The corners of lying ``c``'s base face as the camera sees them on the table (mm, 4×2):
    its two stern corners, then its raised rim's two."""
    return _base_seen_at(scene, c.size, c.fit.pose)


def _base_seen_at(scene: Scene, size: Size, p: Pose) -> np.ndarray:
    """:func:`_base_seen` of a lying piece of ``size`` at pose ``p`` (table mm)."""
    return seen_on_table(lying_local_3d(scene.pieces.dims(size))[[0, 1, 3, 4]],
                         np.array([p.x_mm, p.y_mm, math.radians(p.heading_deg)]),
                         scene.camera_mm)


def _base_lanes(scene: Scene, c: Candidate) -> np.ndarray | None:
    """Per lane across ``c``'s open base as seen: min(table behind, face ahead) over the
    base's inside (shade medians along the lane); None without a shade map."""
    got = _base_shades(scene, c)
    if got is None:
        return None
    behind, inside, ahead = got
    return np.minimum(behind, ahead) / np.maximum(inside, 1e-3)


def _base_shades(scene: Scene, c: Candidate
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Per lane across ``c``'s open base as seen (see BASE_LANES): the shade medians of the
    table just behind its bottom edge, of its inside and of the face just ahead of its rim;
    None without a shade map."""
    return _base_shades_at(scene, c.size, c.fit.pose)


def _base_shades_at(scene: Scene, size: Size, p: Pose
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`_base_shades` of a lying piece of ``size`` at pose ``p`` (table mm)."""
    if scene.shade is None:
        return None
    q = _base_seen_at(scene, size, p)
    lanes = 0.5 + np.linspace(-BASE_ACROSS, BASE_ACROSS, BASE_LANES) / 2
    bottom = q[0] + np.outer(lanes, q[1] - q[0])    # on the table (stern corners)
    top = q[2] + np.outer(lanes, q[3] - q[2])       # the raised rim as seen
    u = np.asarray(p.direction)

    def lane_median(pts: np.ndarray) -> np.ndarray:
        px = scene.grid.to_px(pts.reshape(-1, 2))
        vals = sample_map(scene.shade, px[:, 0], px[:, 1]).reshape(-1, BASE_LANES)
        return median(vals, axis=0)

    inside = lane_median(np.stack([bottom + f * (top - bottom) for f in (0.3, 0.5, 0.7)]))
    behind = lane_median(np.stack([bottom - k * STERN_IN_MM * u for k in (1.0, 2.0)]))
    # Ahead of the rim: towards the tip from whichever of the two edges lies nearer it.
    front = np.where(((top - bottom) @ u)[:, None] > 0, top, bottom)
    ahead = lane_median(np.stack([front + k * STERN_IN_MM * u for k in (1.0, 2.0)]))
    return behind, inside, ahead


def _glint_tip(scene: Scene, c: Candidate, cands: list[Candidate], others: list[Candidate]
               ) -> Candidate | None:
    """The best shorter reading of ``c`` (of ``cands`` and its size swaps, overlapping none
    of ``others``) that is good once its hidden samples against a glint are excused (outside
    brighter than GLINT_MIN x the table and GLINT_OVER x its own faces), with at least
    GLINT_SHARE of ``c``'s extra area as bright: that reading, its cost the excused one and
    σ at least HAND_EDGE_MM (its tip edge is hidden, read from its sides); else None."""
    if scene.shade is None:
        return None
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    best, best_cost = None, min(GOOD_COST, c.fit.cost)
    for o in cands + size_swaps(scene, c):
        if (o.upright or len(o.fit.sample_cost) == 0
                or scene.pieces.dims(o.size).footprint_length_mm >= d_c
                or not clashes(o, [c], scene) or clashes(o, others, scene)):
            continue
        hidden = np.isnan(o.fit.sample_cost)
        if not hidden.any():
            continue
        sl, m = scene.grid.inner_crop(shapely.Polygon(o.outline_mm), 0.8)
        if not m.any():
            continue
        bright = max(GLINT_MIN, GLINT_OVER * float(percentile(scene.shade[sl][m], 90)))
        p = scene.grid.to_px(o.fit.probe_mm)
        glint = hidden & (sample_map(scene.shade, p[:, 0], p[:, 1]) >= bright)
        cost = joint_cost(o, others, scene, excused=glint)
        if cost <= best_cost and _glint_share(scene, c, o, bright) >= GLINT_SHARE:
            best, best_cost = o, cost
    if best is None:
        return None
    return replace(best, fit=replace(best.fit, cost=best_cost), ambiguity_mm=HAND_EDGE_MM,
                   covering_ambiguity_mm=HAND_EDGE_MM, ambiguity_deg=0.0,
                   covering_ambiguity_deg=0.0)


def _glint_share(scene: Scene, c: Candidate, o: Candidate, bright: float) -> float:
    """Share of what ``c``'s outline as seen adds to ``o``'s (grown by 1 mm) whose shade
    is at least ``bright``."""
    extra = shapely.Polygon(c.outline_mm).difference(shapely.Polygon(o.outline_mm).buffer(1.0))
    polys = [np.round(scene.grid.to_px(np.asarray(g.exterior.coords)))
             for g in getattr(extra, "geoms", [extra])
             if isinstance(g, shapely.Polygon) and not g.is_empty]
    if not polys:
        return 0.0
    sl, mask = scene.grid.polygon_crop(polys)
    vals = scene.shade[sl][mask]
    return float((vals >= bright).mean()) if vals.size else 0.0


def shows_no_base(scene: Scene, c: Candidate) -> bool:
    """Whether the view contradicts lying ``c``: the camera would see into its open base at
    least NO_BASE_DEPTH_MM deep, but the view there is brighter than round it (median base
    lane at most NO_BASE_LANES): a face of plastic, as a standing piece shows."""
    if c.upright:
        return False
    if _base_depth_mm(scene, c) < NO_BASE_DEPTH_MM:
        return False
    lane = _median_base_lane(scene, c)
    return lane is not None and lane <= NO_BASE_LANES


def _base_depth_mm(scene: Scene, c: Candidate) -> float:
    """How far lying ``c``'s raised rim is seen past its stern corners on the table, along
    its axis (mm; negative: its base turned away from the camera)."""
    q = _base_seen(scene, c)
    return float((q[2] + q[3] - q[0] - q[1]) @ np.asarray(c.fit.pose.direction)) / 2


def face_for_base(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover each of
    its longer size swaps from its tip that shows its open base (:func:`shows_open_base`;
    a piece read in that base, 1902's false black small, does not rule it out: only σ
    grows), when the camera sees at least FACE_BASE_DEPTH_MM into
    ``c``'s own base and the view shows there the face ahead of it (no BASE_STEP between
    them, median over the lanes): ``c``'s stern lies on the piece, not at its end."""
    if c.upright or scene.shade is None or _base_depth_mm(scene, c) < FACE_BASE_DEPTH_MM:
        return c
    _behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    if float(median(ahead / np.maximum(inside, 1e-3))) >= BASE_STEP:
        return c
    return covering_open_bases(scene, c, _longer_from_tip(scene, c))


def longer_past_face(scene: Scene, c: Candidate, others: list[Candidate]) -> Candidate:
    """``c`` or, when it is in size doubt and its stern lies on the piece's face just ahead
    of an open base (see FACE_BASE_LANE), the longer size swap from its tip that shows that
    base (median lane at least FACE_BASE_LANE), fits cleanly (see FACE_BASE_LANE) and
    overlaps none of ``others``; of several, the one whose base shows most. Its σ covers
    ``c``, which stays its rival: the reading is never trusted. Asked from
    FACE_LONGER_DEPTH_MM into ``c``'s base as seen."""
    if (c.upright or c.ambiguity_mm <= 0.0 or scene.shade is None
            or _base_depth_mm(scene, c) < FACE_LONGER_DEPTH_MM):
        return c
    _behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    if float(median(ahead / np.maximum(inside, 1e-3))) >= BASE_STEP:
        return c
    best, best_lane = None, FACE_BASE_LANE
    for o in _longer_from_tip(scene, c):
        lane = _median_base_lane(scene, o)
        if (lane is None or lane < best_lane
                or min(o.fit.cost, open_base_cost(o), _seen_past_base(o)) > GOOD_COST
                or clashes(o, others, scene)):
            continue
        best, best_lane = o, lane
    if best is None:
        return c
    gap_mm, gap_deg = reading_gap(scene, best, c)
    return replace(best, ambiguity_mm=gap_mm, ambiguity_deg=gap_deg,
                   covering_ambiguity_mm=gap_mm, covering_ambiguity_deg=gap_deg)


def shows_open_base(scene: Scene, c: Candidate) -> bool:
    """Whether the view shows lying ``c``'s open base where the camera sees into it: darker by
    BASE_STEP_UNSEEN than the table behind and the face ahead (median base lane)."""
    lane = None if c.upright else _median_base_lane(scene, c)
    return lane is not None and lane >= BASE_STEP_UNSEEN


def _median_base_lane(scene: Scene, c: Candidate) -> float | None:
    lanes = _base_lanes(scene, c)
    return None if lanes is None else float(median(lanes))


def upright_fit(scene: Scene, region: np.ndarray, sub: ViewGrid, max_cost: float = GOOD_COST
                ) -> Candidate | None:
    """A pyramid standing on its base that explains the region (joint cost at most
    ``max_cost``), or None."""
    ys, xs = np.nonzero(region)
    pts = sub.to_mm(np.column_stack((xs, ys)).astype(np.float64)).astype(np.float32)
    (cx, cy), _size, ang = cv2.minAreaRect(pts)
    foot = np.array([cx, cy])
    cam = scene.camera_mm
    away = foot - cam[:2]
    dist = float(np.linalg.norm(away))
    away /= max(dist, 1e-9)
    best, best_cost = None, max_cost
    # Every size (fitted side by side): the region's width includes the piece's shadow, so
    # it misleads the size.
    starts = []
    for z in Size:
        # The apex appears pushed away from the camera's foot: start the base short of the
        # centre, and at the centre too: from the shifted start alone 21 of the 4816-set's 48
        # standing pieces were found, with the centre's 31 (4821's blue large, 5025's black
        # large: nothing read before; 4833's red medium read lying, σ 9.9 mm), each within
        # 0.5 mm (session 19).
        start = foot - away * (scene.pieces.dims(z).height_mm * dist / cam[2] / 2)
        starts.append((z, Pose(float(start[0]), float(start[1]), ang)))
        starts.append((z, Pose(float(foot[0]), float(foot[1]), ang)))
    for c in scene.fits(starts, upright=True):
        j = joint_cost(c, [], scene)
        if j <= best_cost:
            best, best_cost = c, j
    return best


# A white piece whose open base faces the camera on a pale table shows little but the base:
# a dark hollow, read as a dark piece of its own, one or two sizes short and turned (issue 4,
# seeds 1651, 1884, 1911: white larges read as a black small at cost 0.43, a clear small at
# 0.51, a black medium at 0.47, σ 3.5-4.9 mm). The hollow as seen is the base face's
# quadrilateral, its edge nearest the camera the piece's stern: a dark area (shade under
# SHADOW_MIN) that fills its bounding rectangle (HOLLOW_FILL or more; 0.89-0.96 on the
# three), where a dark lying piece shows its triangle beside its base (1670's and 1719's
# black smalls, read doubtfully: 0.63, 0.76). Its near edge spans the base inside the walls'
# bright cut edges (WALL_MM each side: 22.0-23.4 mm on the three larges, 25.4 - 2.6
# expected). So for a doubtful reading (HOLLOW_COST or worse) whose dark area is such a
# quadrilateral, a longer size whose hollow that edge matches (within HOLLOW_WIDTH_MM, under
# half the 5.5 mm between sizes), headed away from the camera from that edge and showing its
# open base there (:func:`shows_open_base`), is covered by σ (:func:`hollow_of_longer`).
# The size is not changed: the tip is unseen.
# The near edge is the nearer of each pair of opposite sides, each asked with the width test:
# from a camera off to the piece's side the hollow's depth edge can lie nearer than its stern
# edge (issue 4, wb32: seed 6376's white large, 46 degrees off the line to the
# camera's foot, read as a small at cost 0.43, σ 3.0 mm; its dark area 8.2 x 24.1 mm, the
# 8.2 mm side the nearer by its midpoint, so no size's hollow matched and σ stayed short).
HOLLOW_COST = 0.4
HOLLOW_FILL = 0.85
HOLLOW_WIDTH_MM = 2.5
WALL_MM = 1.3


def hollow_of_longer(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with its size ambiguity raised to cover each longer lying piece whose open base,
    as the camera sees it, is ``c``'s dark area (see HOLLOW_FILL)."""
    if c.upright or scene.shade is None or c.fit.cost < HOLLOW_COST:
        return c
    rect = _dark_rect(scene, c)
    if rect is None:
        return c
    box = cv2.boxPoints(rect).astype(np.float64)
    mids = (box + np.roll(box, -1, axis=0)) / 2
    dist = np.linalg.norm(mids - scene.camera_mm[:2], axis=1)
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    others = []
    # The near edge of each pair of opposite sides (see HOLLOW_COST).
    for k in (0 if dist[0] <= dist[2] else 2, 1 if dist[1] <= dist[3] else 3):
        width = float(np.linalg.norm(box[(k + 1) % 4] - box[k]))
        ahead = np.asarray(rect[0]) - mids[k]
        heading = math.degrees(math.atan2(ahead[1], ahead[0]))
        stern = Pose(float(mids[k][0]), float(mids[k][1]), heading)
        others += [scene.fit(z, stern, iterations=0) for z in scene.by_length
                   if scene.pieces.dims(z).footprint_length_mm > d_c
                   and abs(scene.pieces.dims(z).base_w_mm - 2 * WALL_MM - width)
                   <= HOLLOW_WIDTH_MM]
    return covering_open_bases(scene, c, others)


def near_edges(grid: ViewGrid, pts_mm: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Whether each of ``pts_mm`` ((N, 2) table mm) lies within a pixel (its 3×3
    neighbourhood on ``grid``'s view) of a crisp edge (``edges``: view-size bool); points off
    the view count as without. The edges grown by a pixel, looked up at the points only."""
    px = np.round(grid.to_px(pts_mm)).astype(np.intp)
    rows, cols = edges.shape
    hit = np.zeros(len(px), bool)
    for du in (-1, 0, 1):
        for dv in (-1, 0, 1):
            u, v = px[:, 0] + du, px[:, 1] + dv
            ok = (u >= 0) & (v >= 0) & (u < cols) & (v < rows)
            hit[ok] |= edges[v[ok], u[ok]]
    return hit


def covering_open_bases(scene: Scene, c: Candidate, others: Iterable[Candidate]
                         ) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover each of
    ``others`` whose open base the view shows (:func:`shows_open_base`)."""
    amb = np.array([c.ambiguity_mm, c.ambiguity_deg])
    for o in others:
        if shows_open_base(scene, o):
            amb = np.maximum(amb, reading_gap(scene, o, c))
    if amb[0] <= c.ambiguity_mm and amb[1] <= c.ambiguity_deg:
        return c
    return replace(c, ambiguity_mm=float(amb[0]), ambiguity_deg=float(amb[1]),
                   covering_ambiguity_mm=max(c.covering_ambiguity_mm, float(amb[0])),
                   covering_ambiguity_deg=max(c.covering_ambiguity_deg, float(amb[1])))


def _dark_rect(scene: Scene, c: Candidate
               ) -> tuple[tuple[float, float], tuple[float, float], float] | None:
    """The bounding rectangle (table mm, ``cv2.minAreaRect``) of the dark area (shade under
    SHADOW_MIN) that most overlaps ``c``'s outline, when that area fills at least HOLLOW_FILL
    of it; else None."""
    assert scene.shade is not None
    px = scene.grid.to_px(np.asarray(c.outline_mm))
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int) - 40, 0)
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + 40
    shade = scene.shade[y0:y1, x0:x1]
    mask = np.zeros(shade.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(px - (x0, y0)).astype(np.int32)], 1)
    n, lab = cv2.connectedComponents((shade < SHADOW_MIN).astype(np.uint8), connectivity=8)
    over = np.bincount(lab[mask > 0], minlength=n)
    over[0] = 0
    if over.max() == 0:
        return None
    ys, xs = np.nonzero(lab == int(over.argmax()))
    pts = scene.grid.to_mm(np.column_stack((xs + x0, ys + y0)).astype(np.float64))
    rect = cv2.minAreaRect(pts.astype(np.float32))
    area = len(xs) / scene.grid.px_per_mm ** 2
    if area < HOLLOW_FILL * rect[1][0] * rect[1][1]:
        return None
    return rect


# A white piece whose open base faces the camera, on a pale table (issue 4, sure14; seeds
# 2027, 2120, 2147 of the set from 1936): its faces are about the table's brightness, so the
# fit map holds its dark hollow and the lit face's rims, and a reading one size short lies
# inside it, its stern on the hollow's far rim, its tip short of the faint true tip (the
# smalls cost 0.06-0.25, σ 0.3-0.5 mm; the true medium from its pose 0.86-1.02). The longer
# fits from its tip slide off (their bases' lanes 0.42-1.17), so no rival reading is left.
# But where the camera would see into the short reading's base (2.5 mm deep or more: 3.0-4.8
# on the three) the view shows lit plastic (median shade over the table's at least BASE_LIT:
# 1.13-1.30), no step to the face ahead (as `face_for_base`), and the dark hollow behind its
# stern (0.31-0.45): an open base is never lit above the table. The longer piece lies along
# the same axis, its stern behind the reading's (at the hollow's near side), its tip at or
# past the reading's: slid back in BASE_SLIDE_MM steps from the reading's stern (no fit; the
# tip is not seen), a longer size whose open base the view then shows (median lane at least
# BASE_STEP_UNSEEN) is covered by σ (:func:`base_on_face`). The size is not changed. Without
# the BASE_LIT gate a right purple medium (1669's: its faces as dark as a hollow, the base
# 0.29 against 0.32 ahead) and 2078's white large read as a small at its stern, inside its
# deep hollow (0.30 / 0.29), look alike: the second is left.
BASE_ON_FACE_DEPTH_MM = 2.5
BASE_SLIDE_MM = 1.0
BASE_LIT = 1.0


def _base_seen_deep(scene: Scene, c: Candidate) -> np.ndarray | None:
    """Lying ``c``'s base as seen (:func:`_base_seen`) when the camera sees at least
    BASE_ON_FACE_DEPTH_MM into it; else None."""
    if c.upright or scene.shade is None:
        return None
    q = _base_seen(scene, c)
    if float((q[2] + q[3] - q[0] - q[1]) @ np.asarray(c.fit.pose.direction)) / 2 < (
            BASE_ON_FACE_DEPTH_MM):
        return None
    return q


def no_base_step(scene: Scene, c: Candidate) -> bool:
    """Whether the camera sees at least BASE_ON_FACE_DEPTH_MM into lying ``c``'s base and
    the view shows there no step (BASE_STEP) to the face ahead: no shaded hollow where ``c``
    would show one."""
    if _base_seen_deep(scene, c) is None:
        return False
    _behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    return float(median(ahead / np.maximum(inside, 1e-3))) < BASE_STEP


def lit_base_seen(scene: Scene, c: Candidate) -> bool:
    """Whether :func:`no_base_step` and the view shows lit plastic or table in ``c``'s base
    as seen (median shade at least BASE_LIT)."""
    q = _base_seen_deep(scene, c)
    if q is None:
        return False
    # Most bases as seen are dark (a hollow) or coloured: one look at the middle first.
    mid = scene.grid.to_px(q.mean(axis=0, keepdims=True))
    if float(sample_map(scene.shade, mid[:, 0], mid[:, 1])[0]) < BASE_LIT:
        return False
    _behind, inside, ahead = _base_shades(scene, c)  # type: ignore[misc]
    return (float(median(inside)) >= BASE_LIT
            and float(median(ahead / np.maximum(inside, 1e-3))) < BASE_STEP)


def base_on_face(scene: Scene, c: Candidate) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover the
    longer lying reading along its axis, its stern slid back from ``c``'s (its tip at or past
    ``c``'s), whose open base the view shows best (median base lane at least
    BASE_STEP_UNSEEN), when the camera sees at least BASE_ON_FACE_DEPTH_MM into ``c``'s own
    base and the view shows there no step from the face ahead (see BASE_ON_FACE_DEPTH_MM)."""
    if not lit_base_seen(scene, c):
        return c
    p = c.fit.pose
    u = np.asarray(p.direction)
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    tip = np.asarray(p.tip_mm(d_c))
    amb = np.array([c.ambiguity_mm, c.ambiguity_deg])
    for z in scene.by_length:
        d_z = scene.pieces.dims(z).footprint_length_mm
        if d_z <= d_c:
            continue
        best, best_lane = None, BASE_STEP_UNSEEN
        for s in np.arange(0.0, d_z - d_c + 1e-6, BASE_SLIDE_MM):
            stern = np.asarray(p.stern_mm) - s * u
            q = Pose(float(stern[0]), float(stern[1]), p.heading_deg)
            shades = _base_shades_at(scene, z, q)
            assert shades is not None
            behind, inside_z, ahead_z = shades
            lane = float(median(np.minimum(behind, ahead_z) / np.maximum(inside_z, 1e-3)))
            if lane >= best_lane:
                best, best_lane = q, lane
        if best is not None:
            gap = max(math.dist(best.stern_mm, p.stern_mm),
                      math.dist(best.tip_mm(d_z), tuple(tip)))
            amb = np.maximum(amb, (gap, 0.0))
    if amb[0] <= c.ambiguity_mm:
        return c
    return replace(c, ambiguity_mm=float(amb[0]),
                   covering_ambiguity_mm=max(c.covering_ambiguity_mm, float(amb[0])))


# A white piece read one size long over its own shadow (issue 4, sure14; seeds 2018, 2112 of
# the set from 1936, 1853 of the set from 1648): lit white plastic is brighter than the table
# (its faces ×1.04-1.11 on these pale tables, 90th percentile inside the reading) and its
# shadow, all round it on a soft light, darker; the fit map scores the shadow and the hollow
# but hardly the lit faces, so a medium fitted to the shadow's outer edge wins (cost
# 0.30-0.38; the true small from its pose 0.68-1.56) and no shorter reading is near it: σ
# 1.0-1.6 mm. A piece's outline as seen is where its plastic ends: just inside it lie its
# faces (or its dark base), never the shadow round it. So where RING_SHARE or more of the band
# RING_IN_MM inside a reading's outline is darker than RING_SHADE × the table (the wrong
# mediums 0.82-0.94; right white readings of seeds 1648-1671 0-0.18, a doubtful one 0.33)
# while lit plastic brighter than the table (RING_LIT, 90th percentile inside) shows within
# (a clear piece is a dimmer table, up to 0.97 there; a vivid or black one darker), the
# outline lies on a shadow's edge and the piece is shorter than read: σ covers the next
# shorter size, its tip or stern where the reading's is (:func:`shadow_ring_of_shorter`).
# White only: on seeds 1936-2186 the same shades (90th percentile inside over ×1.0, a dark
# band inside the outline) were those of 16 right vivid and black pieces, whose faces are
# coloured or dark right up to the edge (a lit coloured face can pass the table's shade).
RING_IN_MM = 1.0
RING_SAMPLES = 120
RING_SHADE = 0.9
RING_SHARE = 0.6
RING_LIT = 1.0


def shadow_ring_of_shorter(scene: Scene, c: Candidate,
                           is_white: Callable[[Candidate], bool]) -> Candidate:
    """``c`` with its size ambiguity (all rivals and covering ones) raised to cover the next
    shorter size along its axis when its outline lies on a shadow's outer edge round lit
    plastic (see RING_SHARE) and ``is_white`` (asked last: a colour test costs more)."""
    by_length = scene.by_length
    if c.upright or scene.shade is None or c.size is by_length[0]:
        return c
    # Lit plastic within first (most pieces are darker than the table: no shapely work):
    # the outline's samples drawn towards its centre, by a third and by two thirds.
    out = _ring_points(np.asarray(c.outline_mm), RING_SAMPLES // 4)
    mid = out.mean(axis=0)
    inner = np.concatenate([mid + f * (out - mid) for f in (0.33, 0.67)])
    px = scene.grid.to_px(inner)
    if float(percentile(sample_map(scene.shade, px[:, 0], px[:, 1]), 90)) < RING_LIT:
        return c
    ring = shapely.Polygon(c.outline_mm).buffer(-RING_IN_MM).exterior
    if ring.is_empty:
        return c
    px = scene.grid.to_px(_ring_points(shapely.get_coordinates(ring), RING_SAMPLES))
    if float((sample_map(scene.shade, px[:, 0], px[:, 1]) < RING_SHADE).mean()) < RING_SHARE:
        return c
    if not is_white(c):
        return c
    z = by_length[by_length.index(c.size) - 1]
    gap = (scene.pieces.dims(c.size).footprint_length_mm
           - scene.pieces.dims(z).footprint_length_mm)
    if gap <= c.ambiguity_mm:
        return c
    return replace(c, ambiguity_mm=gap, covering_ambiguity_mm=max(c.covering_ambiguity_mm, gap))


def _ring_points(vertices: np.ndarray, n: int) -> np.ndarray:
    """``n`` points spread evenly along the closed polygon of ``vertices`` (N×2, any units)."""
    v = np.vstack([vertices, vertices[:1]])
    seg = np.linalg.norm(np.diff(v, axis=0), axis=1)
    at = np.concatenate([[0.0], np.cumsum(seg)])
    t = np.linspace(0.0, at[-1], n, endpoint=False)
    return np.column_stack([np.interp(t, at, v[:, 0]), np.interp(t, at, v[:, 1])])


# A pale reading inside a longer white piece's deep hollow (issue 4, trust15; seed 2078 of the
# set from 1936: a white large whose open base faces the camera, read as a small at its stern,
# cost 0.31, σ 1.2 mm, its tip 18 mm short of the true tip). Its own base as seen is dark, as
# an open base is, and so is the face just ahead of it (median lane 0.29 × the table), where a
# white piece shows lit plastic and a clear one a dimmer table: on 1648-2223 no other white or
# clear reading had that face under 0.50 (the darkest right white reading's), while a dark
# piece's faces are as dark as its base (282 black, 439 coloured readings under 0.45). A pale
# face that dark is the hollow going on: the piece goes on past the reading's tip, unseen. σ
# covers each longer size along its axis from the reading's stern (:func:`hollow_ahead_mm`,
# asked of pale readings only). The size is not changed.
HOLLOW_AHEAD = 0.4


def hollow_ahead_mm(scene: Scene, c: Candidate) -> float:
    """The size ambiguity (mm) that covers the longest size along lying ``c``'s axis from its
    stern when the face ahead of its base as seen is darker than HOLLOW_AHEAD × the table
    (the hollow goes on past it); 0 otherwise."""
    longest = scene.by_length[-1]
    if c.upright or scene.shade is None or c.size is longest:
        return 0.0
    shades = _base_shades(scene, c)
    if shades is None or float(median(shades[2])) >= HOLLOW_AHEAD:
        return 0.0
    return (scene.pieces.dims(longest).footprint_length_mm
            - scene.pieces.dims(c.size).footprint_length_mm)
