"""Pieces the foreground score merges with a neighbour, found by their crisp outline.

A clear piece touching another piece, two touching pieces whose tips hide in each other, a
white piece and its contact shadow: the foreground score cannot part them, so the region is
explained by the neighbour (or by nothing) and the piece is lost. Its outline is still a
closed line of crisp brightness steps (:func:`armada_vision.vision.segment.crisp_edges`).
What the pieces found leave of the crisp-enclosed areas is fitted like a region, on a 0/1 map
of those areas whose mid level lies on the crisp edge band, and a fit is kept only when it is
good there, hides little of its outline against the pieces found and overlaps none.

Frames: table mm (+y away from the viewer); view px per :class:`ViewGrid`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.vision.explain import (
    _covered_px,
    _thick,
    axis_guess,
    finish,
    fits_from_axis,
    fits_from_tips,
    row_ends,
    size_hull,
    size_span_mm,
    tip_guesses,
    unexplained_mask,
    upright_fit,
    with_ambiguity,
)
from armada_vision.vision.fit import FitResult, ViewGrid, lying_local_3d, outline_mm
from armada_vision.vision.open_base import (
    _base_seen,
    near_edges,
    open_base_cost,
    past_stern_mm,
)
from armada_vision.vision.order import median, percentile
from armada_vision.vision.scene import (
    CLASH_SHARE,
    GOOD_COST,
    MAX_COST,
    SURE_GIVE_UP,
    Candidate,
    Scene,
    clashes,
    joint_cost,
    reading_gap,
    size_swaps,
)
from armada_vision.vision.segment import (
    FAINT_MAX_SHADE,
    FAINT_SCORE,
    PALE_LIT,
    PALE_PIX,
    grey_at_mid,
)

# The pieces found cover their outline grown by this much (mm): their rims and contact
# shadows are crisp too.
COVER_GROW_MM = 1.5
# What is left is opened with a disc of this radius (mm): rim lines and crescents go, a
# piece's body (≥ 9 mm across but at its tip) stays.
OPEN_MM = 1.5
# A leftover area is fitted when it covers at least this share of a small piece's footprint.
MIN_SHARE = 0.6
# The window of what is left that crisp_pieces works on (_nonzero_window) reaches this many
# px past the opening's reach (2 × its radius): past the 4 px its areas are padded by
# (_areas' pad), the 2 px of the fit map band's erosion and a pixel of the contour tracing's
# border, so that every pixel the whole view's morphology would set lies inside it and the
# window's edges are read as the view's zeros (a cost change only, session 43, cost53).
WINDOW_PAD_PX = 8
# An area whose border runs along the pieces found for more than this share is their shadow
# (measured on seeds 1000-1071: pieces found ≤ 0.08; 0.12-0.51 were shadows and rims), and
# one whose convex hull is this round is a chit, a coin or a die: neither is fitted (on
# seeds 1000-1071 and the stills: chits and coins 0.93-0.99, dice 0.87-0.91, the pieces
# kept 0.65-0.82; a regular pentagon is 0.86).
MAX_CONTACT = 0.2
ROUND_MIN = 0.85
# ... but an area bigger than one lying piece can cover (Scene.max_area_mm2, 1035 mm² for
# the standard set; a coin is at most 531 mm², a chit 254, a die 256, each with its rim and
# shadow well under it) is no chit, coin or die, however round its hull: several pieces
# touching (issue 4, session 36, broken46: the 8560-set's 8603, a clear small and large and a
# white small on laminate side by side, one crisp area of 1808 mm² whose hull is round, was
# never fitted; fitted, the white small is read and the clear large in doubt).
# With ``peel``, an area held off by its contact is tried once more
# without what lies within PEEL_MM of the pieces found (the greyed strip along a neighbour:
# a piece lying against one keeps its body), the rest opened again. What is left may touch
# the pieces found along PEEL_CONTACT of its border (it lies against one: seed 1013's clear
# medium along a yellow large, 0.29 before the peel and 0.30 after) and its fits may hide
# what a piece lying along a neighbour hides, one long side (:func:`peel_hidden`, 0.40 of
# the outline: seed 1244's clear medium along an orange small hides 0.37, over the 0.3 set
# on 1013, whose medium hid 0.25). On the desaturated areas the limit stays
# PEEL_HIDDEN_MUTED: there a longer reading hiding more of its outline in the greyed strip
# wins (1013's medium read as a large with σ 1.0 mm at 0.40). An edge facing the peeled
# strip (within PEEL_MM − COVER_GROW_MM of it) is excused, as one against a piece found.
# The side facing the neighbour may lie anywhere across the peeled strip: a peeled piece's σ
# is at least PEEL_MM / 2 (seed 1244's medium: stern 2.5 mm off, fit σ 1.0 mm).
# What is left must cover what a medium lying along a neighbour keeps once the strip along
# its long side is peeled (:func:`_peel_min_mm2`, 246 mm² nominal) or, as it is now on every
# area, what a small keeps (PEEL_SMALL). Smaller parts were fitted for
# ~30-40 ms of CPU and found nothing (1035's 163 mm², 1003's ~200 mm²); 1013's is 497 mm²,
# 1181's 535 mm². PEEL_SMALL (issue 4, clear32): on the desaturated areas the least is what a
# small keeps (106 mm² nominal): a small held off by its contact there was never read (the
# 6256-set's 6275, a clear small on wood against an orange small, its muted area 201 mm²
# held off; its peeled part read at its size, σ 19.8 mm). On the crisp areas too since
# session 26 (clear34): the 6832-set's 6860, a clear small on laminate against a blue small,
# held off, its peeled part 231 mm² (a medium's least is 246), read as a soft reading
# (SOFT_EDGE_OFF_FOUND). There only a part of a clear piece's median colour (the caller's
# ``clear_part``): 1003's 202 mm² part, a blue large's tinted shadow named no colour, was
# fitted for nothing (session 24: +1.5 % of the instructions per detect on seeds 1000-1007;
# again +25 ms of CPU on 1003's crisp pass, 3.7 → 29 ms, before the colour test).
PEEL_MM = 3.0
PEEL_CONTACT = 0.4
PEEL_HIDDEN_MUTED = 0.3
# REST_AFTER_READING (issue 4, clear32): an area may hold two pieces (a clear piece against a
# black one the crisp pass does not read, two touching clear pieces): its best fit reads one
# (or the soft reading picks one and its gates drop it: the 6256-set's 6461, a black small
# not darkened as a clear piece is, against a clear medium in one crisp area of 1116 mm²),
# and the rest of the area, where the other lies, was never fitted. What the soft reading's
# pick (kept, or dropped by its gates) leaves of its area is read again, once, by the soft
# reading alone, as the peel fits what a neighbour leaves: without what lies within PEEL_MM of
# the pick's outline as seen, opened, each part a medium or a large lying along it keeps
# (:func:`_peel_min_mm2`: the parts a reading leaves are many, its shadow and rims, so not
# down to a small's), touching the pick along at most PEEL_CONTACT of its border, its fits
# hiding what a peeled part's may, σ at least PEEL_MM / 2 (:func:`_rest_after`). Not after a
# reading the area's fits keep, nor by those fits on the rest: so on the first version a fit
# on what a crisp reading left read 1073's orange medium (set from 1072, touching a cyan
# large) as a large (σ 8.6 mm; the cyan's σ 0.2 → 19.8 mm) and moved 1031's orange small. 6461's
# medium: read (as a small, σ 44.6 mm) by the soft reading on its part (540 mm²); on the
# held-out 4528-set 4670's clear large beside a red small (as a small, σ 46.4 mm). A pick the
# soft reading drops leaves its rest only when it is another piece (``other_piece``: named
# black or a vivid colour): a white piece's dark open base, picked and dropped, leaves its
# own faces lit like the table, and the held-out 2512-set's 2621 read them as a false clear
# small (its white medium missed; the face ×0.82 the table, named clear).
# On the crisp areas only one darker than the table is peeled (median brightness over the
# table's at most PEEL_DARK, segment's FAINT_MAX_SHADE): a clear piece darkens what it lies
# on (the touching clear pieces missed on seeds 1144-1359: 0.69-0.91), while the part peeled
# off a white piece beside its contact shadow is lit (seed 1020's false white small, read
# when every crisp area was peeled). Nor one darker than GREY_SHADE's floor: a clear piece
# darkens the table by a bounded amount, darker is a shadow or black plastic.
PEEL_DARK = FAINT_MAX_SHADE
# The area's corners are tried as tips only when no axis fit explains it this well (share of
# the area explained × (1 − cost / MAX_COST)).
AXIS_ENOUGH = 0.5
# σ (mm) at least of a piece found on the crisp map alone: the map is the edge band's
# middle, not the profile the main fit reads, and a clear piece's raised base shows no crisp
# outline (measured on seeds 1000-1071: stern errors 0.06-1.2 mm).
CRISP_EDGE_MM = 1.0
# SHORTER_ON_FIT_MAP (issue 4, trust27): that floor is no cover for the size. A crisp area
# round an opaque piece takes in the shadow it casts behind its stern, and a longer piece's
# base fits there with the tip on the true tip (the 5104-set's 5124 purple, 5203 and 5221
# black mediums read as larges at cost 0.31-0.33, σ 1.0 mm, sterns 4-6 mm behind). The scene's
# own fit map scores a shadow as table: where a shorter reading from the same tip fits it
# well (GOOD_COST) and better than the reading refitted there (5124: the medium 0.20, the
# large 0.66), σ covers that reading (:func:`_shorter_on_fit_map`). A dark piece the fit map
# does not see (5203, 5221: every size over cost 1.0 there) is asked as the desaturated
# areas' opaque pieces are (:func:`_rivals_hidden_inside`, ``not_clear``): a shorter reading
# whose end hides inside the area is a rival. The crisp area may run past the tip as well (a
# neighbour's tip or lit face against it: the 4528-set's 4601, a purple small read as a medium
# from its stern, 9.3 mm long, σ 1.5 mm; trust30), so the shorter readings are fitted from the
# stern too, and on both maps an edge against a piece found is excused (the joint cost, as
# everywhere: 4601's small from the stern 0.40 so, 0.56 without, the medium 0.57).
# An area is lit (a white or vivid piece with its shadow) when this quantile of its
# brightness over the table's is at least PALE_LIT (clear pieces' bright rims lift their 90th
# percentile over it).
LIT_QUANTILE = 0.5
# (SHORTER_ON_FIT_MAP) a shorter reading is a rival at this joint cost or under, when it fits the
# fit map better than the reading refitted there by SHORTER_FIT_GAIN (the judge set 5680-5967's
# 5868: a purple medium read as a large, the medium 0.485 against the large's 0.642).
SHORTER_FIT_COST = 0.5
SHORTER_FIT_GAIN = 0.1
# A fit hiding more than this share of its outline against the pieces found is their shadow
# (measured on seeds 1000–1035: shadows 0.35–0.48, pieces ≤ 0.10).
MAX_HIDDEN = 0.25
# The desaturated areas (segment.desaturated) fitted: median brightness over the table's in
# this range. A clear piece greys the wood a little (medians 0.73-0.98 in the four missed
# on seeds 1025-1029); darker is black plastic or a shadow, brighter a lit white or pale
# piece, both of which the main pass reads (each area fitted costs ~40 ms of CPU).
GREY_SHADE = (0.65, 1.1)
# ... and up to GREY_LIT, brighter than the table, when the piece read there is named clear
# (issue 4). A clear wall adds its own colourless reflection (its lit face, the bright rims
# along its edges) to the wood it lets through, darkened; over dark wood that lifts it above
# the wood (seeds 1690, 1692: clear smalls at 1.25 and 1.13, fits 0.18 and 0.22 on their
# areas). The colour keeps the wood's hue, muted (colors.name_color's clear test); a white
# piece's does not, and a white piece the main pass missed is not this pass's to read: a lit
# area is fitted only when its median colour is named clear (each fit costs ~20-40 ms: seed
# 1002's two lit areas on wood, not clear, cost 2 % of detect's instructions when fitted),
# and the piece read is kept only when named clear. The
# stern of those read lay 0.2-1.9 mm off (their shaded face is cut as a lit piece's shadow,
# _without_lit_shadows): σ at least SNUG_END_MM.
# Up to 1.7 since session 27 (issue 4, clear35; was 1.4): over dark blue cloth the
# reflection lifts a clear piece's muted area further (the 7120-set's 7341 medium and 7384
# small, areas ×1.53-1.56 the cloth, named clear; their crisp areas' soft readings are
# lit, not darkened, so no pass read them; seed 1001's small, ×1.40). Still only areas named
# clear are fitted.
GREY_LIT = 1.7
# A lit clear area fitted whole (crisp_pieces' ``lit_whole``). A lit area is cut of its
# pixels darker than PALE_PIX (_without_lit_shadows: a white piece's contact shadow enclosed
# with it), but a muted area named clear is the piece itself, its lit face lifting the
# median over the table's and its shaded face its own (a shadow keeps the wood's colour: not
# muted). Where the cut area reads nothing, the area is fitted again whole: the 6544-set's
# 6776 clear small on wood (×1.14) lost 0.64 of its footprint to the cut and fitted nothing.
# Not instead of the cut: 6616's clear small (×1.15) is read only on its cut area (whole,
# the fits hide more).
# Sizes differ by ~10 mm in length: a size ambiguity over this (mm) is a size in doubt. The
# desaturated areas' ends are soft, and a piece read with its size in doubt was as often the
# wrong size as the right one (seeds 1026 and 1065: a medium read right with σ 11 mm, one read
# as a small 11 mm off, lifting the check seeds' stern p95 over 1.5 mm), so none is kept —
# but with ``doubtful_if`` one named clear is (issue 4, clear25: 8 of the 4528-set's 19 clear
# misses on wood had a fit there, 0.23-0.56, and another size as good): a reading in doubt,
# σ at least its covering ambiguity (which spans both sizes) and DOUBT_FLOOR_MM; not when its
# footprint overlaps a reading found: the grain broke that piece's muted area in two (4631's
# clear large, read as a small from each patch, footprints overlapping; the 4528-set's seven
# found lie 10 mm and more from any other reading).
SIZE_DOUBT_MM = 3.0
# σ (mm) at least of a piece kept there although a shorter reading fits inside it (no rival:
# it leaves a thick part of the area out): its soft ends may both sit short (s09's clear
# medium: stern and tip 2.1 mm short along the axis).
SNUG_END_MM = 2.0
# ... and so of a piece whose tip end, the last CRISP_TIP_END_MM of its outline, has at least
# CRISP_TIP_UNSEEN of its samples hidden on the crisp map with no piece found against them:
# the area's edges do not close its tip, so only the stern edge pins it along its axis, and
# on a crisp map that edge may be either rim of the open base (issue 4, session 34,
# faroff44: 9403's yellow large, 1280×720 with lens distortion, its last 9 mm to the tip
# unseen, read 3.2 mm along its axis at σ 1.0 mm, trusted).
CRISP_TIP_END_MM = 4.0
CRISP_TIP_UNSEEN = 0.5
# With ``doubtful_if`` (the desaturated areas), a fit over GOOD_COST up to MAX_COST is kept
# too, when no good one is, if the piece read there is named clear (issue 4: a clear piece on
# wood or cloth whose muted area the grain breaks, so its ragged edges cost the true pose
# 0.37-0.58 on the map: 1790's medium, 1881's large; on the 1648- and 1936-sets 14 found, no
# false piece added); such a reading is in doubt whatever its fit's σ: at least this (mm),
# over the 1.5 mm the rules trust (rules.md §7; the ones found lay 0.1-1.8 mm off).
DOUBT_FLOOR_MM = 3.0
# ... and its turn is not pinned either: such a fit's outline lies on the crisp map only in
# part, so the fit's own heading σ says nothing; its heading σ is at least DOUBT_TURN_DEG
# (issue 4, session 39, the lead; trusted far-off readings: the 10576-set's 10718, a black
# small against a purple medium's stern, its peeled part fitted at 0.38 turned 115° from the
# truth, σ 3.0 mm, 4.7°: its tip 31 mm off, past the rules' allowance). At 45° the rules'
# 2σ turns over ±90°. No detection step reads the heading σ; of the 26 such fits on the
# 10000- and 10576-sets all but 10718's were clear readings whose σ other steps raised to
# 11-88° already.
DOUBT_TURN_DEG = 45.0
# A stern edge seen through (a clear piece's open base shows the wood) may be left out when
# the sides are seen up to it (open_base.open_base_cost) ...
# ... and only when the area fills at least this share of its outline as seen (seed 1026's
# large 0.75; a ring of grey round s24's standing yellow, read as a small, 0.46).
BASE_FILL = 0.6
# A clear piece's open base shows the wood unmuted: a reading whose base as seen (shrunk by
# BASE_INSET_MM) lies on the muted area at most MUTED_BASE is a clear piece read whole, and a
# reading of another size whose base lies on it more (on a face of the piece: no open base
# there) is no rival. Measured on the clear larges on wood (seeds 1061, 1065, 1086): the true
# large's base 0.08-0.27 on the area, the other sizes' from its tip 0.57-0.98.
MUTED_BASE = 0.5
BASE_INSET_MM = 1.0
# A shorter reading inside a desaturated area hides its outline where the area goes on (issue
# 4, seeds 1169 and 1223: a black and a white small read as mediums at σ 1.0 mm; the small
# fits at 0.042 / 0.069 with 31 % / 40 % of its outline hidden inside the area, which the
# joint cost counts as misses, so it was no rival). The area's soft end does not tell where
# the piece ends, so those hidden samples are excused when the rival's cost is compared
# (``_rivals_hidden_inside``), and σ covers that reading — for an opaque piece only (the
# ``not_clear`` test): a clear piece's area is the piece itself (counted for every piece,
# it gave ~20 correctly sized clear pieces of seeds 1144-1359 σ 9-55 mm).


# With ``soft_clear`` (the crisp pass, issue 4, clear26): a clear piece on laminate whose crisp
# area runs past its outline as seen (its rim, the ridge of a face lit like the table, a soft
# end) and where nothing is read: every fit hid 0.12-0.29 of its outline in the area itself,
# counted as misses (the 4528- and 4816-sets' clear misses on laminate whose crisp area
# covers 0.86-1.0 of the footprint and is 1.3-1.9 times it). Those samples tell nothing of
# where the piece ends: they are excused, and the fit may hide up to SOFT_HIDDEN of its
# outline (a long side and more). A shadow's area is read so too (a hand's fingers, a die's,
# a white piece's), so the reading's footprint must be darkened as a clear piece darkens the
# table (:func:`_darkened_as_clear`): median shade in SOFT_SHADE (the clear pieces read
# 0.57-0.94; bare table between finger shadows 1.0, a white piece's shadow 0.45) and either
# counted as object by the foreground score (FAINT_SCORE: clear pieces 6-14 where the crisp
# darkening counts) or faint, at least SOFT_FAINT_SHADE (clear pieces under the score
# 0.85-0.94; shadows of fingers, a die and a white medium 0.56-0.79, score 0.18-0.24).
# Nor is one by a hand (its footprint touching the hands' regions): a hand's fingers cast long
# shadows with crisp ends (1695, 2807, 4858: every reading tried by a hand on the 1648-,
# 2800-, 4816- and 4528-sets' scenes looked at was a shadow; no clear piece read so lay by one).
# Such a reading is in doubt of its size and place: σ covers every size
# (:func:`_any_size_mm`) and its heading SOFT_DOUBT_DEG; it is added by the caller only
# where no later pass reads a piece.
SOFT_HIDDEN = 0.4
# A soft clear reading snug inside its own crisp area (issue 4, session 60, size70). The soft
# pick (explaining most of the area per doubt) can be a size short: a clear piece's faint end
# costs its own fit more than a shorter fit lying snug inside the area. The 15760-set's 15785, a
# clear large on the laminate: the pick a medium at cost 0.29 hiding 0.31 of its outline inside
# the area itself (the area goes on past it), the large's fit 0.52 hiding 0.11 (its outline is
# the area's rim), no strip rule reading it longer: a medium at σ 22.5 mm. Where the pick hides
# at least SOFT_LONGER_HIDDEN of its outline, the longest fit of the area longer than it taking
# in SOFT_LONGER_IN of its footprint and hiding at most SOFT_LONGER_EDGE of its own outline, up
# to MAX_COST, is noted (_soft_longer), and read after the clear strip rules when none made the
# reading longer (soft_longer_read: its σ covering that size, clashing with no reading; σ
# covering the pick). Soft picks surveyed on the 16624 set and the 15760 set's 15760-15797
# (/work/scratch/size70/softb_*.txt): the short picks whose longer fit hides 0.04-0.12 are four
# clear larges (16639, 16689 and 16815, which the strip rules read at their size already, and
# 15785); the nearest over the bound hide 0.24 (16667, a medium's), 0.28 (16761, a large read
# two sizes short: its medium's), 0.31 (16781, a large's) and 0.39 (16799, a right small's
# medium: left small). Those four picks hide 0.31-0.39. On five full sets the rule changed two
# lines, both better: 15785 and the 15184-set's 15455 (a medium pick hiding 0.35, the large 0.10).
SOFT_LONGER_HIDDEN = 0.25
SOFT_LONGER_IN = 0.9
SOFT_LONGER_EDGE = 0.15
# A soft reading is added last, where no later pass read a piece (detect.find_pieces); one
# whose footprint overlaps a later reading by no more than SOFT_TOUCH_SHARE of its own area
# is a piece touching that reading, not its shade (issue 4, session 28; the 7120-set's 7253:
# a clear medium on laminate whose tip touches a white small read from its open base; the
# soft reading, 3.4 mm off, overlapped the white's by 0.5 mm² of 360, 0.13 %).
SOFT_TOUCH_SHARE = 0.01
SOFT_SHADE = (0.5, FAINT_MAX_SHADE)
SOFT_FAINT_SHADE = 0.82
SOFT_DOUBT_DEG = 10.0
# A clear piece the table estimate took in (not faint, so the score under it is low) leaves
# the estimate dimmed round it, so the table just outside its outline as seen reads brighter
# than the estimate (vision.md's "bright ring round it on laminate"); a shadow's surroundings
# do not (issue 4, clear28). A footprint darker than SOFT_FAINT_SHADE, down to SOFT_RING_SHADE,
# is a clear piece's darkening too when the ring SOFT_RING_MM outside its outline as seen has a
# median shade of at least SOFT_RING_LIT. Measured on the 5392-set's laminate clear misses
# read so (5540 M, 5546 L, 5558 L): footprint 0.76-0.81, ring 1.07-1.13; the shadows the soft
# reading took before the gate (white pieces' 4831, 4962, 5098, 5434; 4858, 4998, 5404 by a
# hand; 5490's black large): footprint 0.61-0.73, ring 0.76-1.04.
SOFT_RING_SHADE = 0.75
SOFT_RING_LIT = 1.05
SOFT_RING_MM = (1.0, 3.0)
# A soft reading may leave a thick part of its area unexplained (explain._thick: wider than
# a shadow's crescent): a clear piece that area is may lie anywhere in it (issue 4, trust30:
# 5864's clear large on laminate, its crisp outline whole, read as a medium across its base
# end turned 104°, 44 mm off at σ 9.9 mm; the area's tip part left out). Its σ then covers
# every place in the area a piece's end could be: the farthest point of the area from the
# reading's stern or tip (:func:`_soft_doubt_mm`).

# A cast shadow's outline is a penumbra (the light is no point): its crisp edges break along
# it, where a clear piece's walls end sharp, each rimmed by a lit edge (issue 4, clear30). A
# footprint darker than SOFT_FAINT_SHADE, down to SOFT_SHADE's floor, is a clear piece's
# darkening too when at least SOFT_EDGE_SHARE of its outline as seen lies on the crisp edges
# (within a pixel): the 5680-set's laminate clear misses read so (5912, 5933, 5963, 5966 ×2)
# 0.69-0.90; the shadows the soft reading took, named clear and by no hand (white pieces'
# 4831, 4962, 5098, 5434; 5490's black large), 0.51-0.63. A shadow lies against its caster,
# and one whose far edge is crisp lies close to it: a white small's shadow beside it (2531,
# 0.68 on the edges, the white missed) reads its dark open base within 3 mm of the outline as
# seen. So the table there must have no such dark part: its SOFT_EDGE_DARK_Q-th percentile
# shade at least SOFT_EDGE_DARK (white pieces' shadows 0.28-0.41; the clear pieces above
# 0.59-0.74 but 5933's small between a red and a purple piece, 0.33, left unread).
SOFT_EDGE_SHARE = 0.66
SOFT_EDGE_DARK = 0.5
SOFT_EDGE_DARK_Q = 2.0
SOFT_EDGE_DARK_MM = (0.0, 3.0)
# SOFT_EDGE_OFF_FOUND (issue 4, clear34): what the pieces found cover (grown by
# COVER_GROW_MM) is no table for that test: a clear piece against a coloured one found has
# the neighbour's shaded face within 3 mm of its outline (the 6832-set's 6860, a clear small
# on laminate against a blue small: the ring's 2nd percentile 0.39 with it, 0.76 without;
# 5933 above), while a white piece's dark open base beside its shadow is no piece found.
# A white piece on laminate whose faces are lit like the table and whose open base is turned
# from the camera (issue 4, white31): no hollow for the open-base pass, its lit face alone
# (or nothing) foreground, so no region pass reads it; its crisp area takes in its shadow, so
# the crisp fits hide 0.25-0.40 of their outline in it and slide towards the shadow, and the
# soft reading keeps only a piece darkened as a clear one is, named clear (the 5968-set's
# 5991 L, 6006 L, 6129 S, 6176 S, 6224 M: footprint shade 0.86-1.22, named white). Its outline
# lies whole on the crisp edges: the soft reading's fit, when its footprint's median shade
# lies in SOFT_WHITE_SHADE and it is named white, is refitted to the edges themselves (the
# mean distance of SOFT_WHITE_SAMPLES outline samples to the nearest crisp edge, clipped at
# SOFT_WHITE_CLIP_PX, lowered by steps SOFT_WHITE_STEPS, each other size from the refined stern
# and tip) and kept when SOFT_WHITE_EDGES of its outline lies within a pixel of an edge: on
# the 5968-set every such reading (where the soft clear reading failed) lay on a white piece,
# footprint IoU 0.45-0.93 (0.5-1.0 of the outline on the edges); in doubt as the soft reading.
# SOFT_WHITE_REFIT_NAMED (issue 4, touch39): a pick that takes the piece's shadow in (the
# 7408-set's 7477, a white small alone on laminate: shade 0.72, named clear) fails those two
# tests while its refit lands on the piece: a pick darker than the band and not black is
# judged where refitted instead (its refit's footprint shade and name). Only a darker one:
# the refit costs ~4 % of a detect per call (seed 1001's two bright picks not named white,
# shade 1.32-1.35, refitted for nothing on a first version). A white small's lit face may be
# brighter than 1.3 of the table (7679's, against an orange medium: 1.31, 1.30 refitted), so
# the band reaches 1.4.
SOFT_WHITE_SHADE = (0.8, 1.4)
# A black piece on laminate, its top face lit grey (issue 4, wb32; black31's laminate class):
# only its shaded face is foreground, the crisp area takes its cast shadow in, the soft clear
# reading keeps nothing (not darkened as a clear piece is) and no other pass reads it (the
# 6256-set's 6411 M and 6461 S: soft picks named black, 6-7 mm off or a size long, footprint
# shade 0.17-0.53). Its outline lies whole on the crisp edges too: the same refit to the edges
# is asked of a soft pick named black whose footprint is darker than SOFT_BLACK_SHADE (a lit
# white piece's floor), kept at SOFT_WHITE_EDGES when named black again where refitted (6411's
# refit is named clear there: left, not read in a wrong colour), in doubt as the soft reading.
SOFT_BLACK_SHADE = SOFT_WHITE_SHADE[0]
# SOFT_GREY_BLACK (issue 4, session 35, white45): a black piece on a grey table, its faces
# lit grey. A grey as dark as ×0.6-0.8 the table's with no hue of its own is named clear there
# (colors.name_color: a dimmer table), so the soft pick is not named black; nor is it kept as a
# clear piece (not darkened as one is: an opaque piece casts a full shadow beside it, which
# clear walls do not). The 8272-, 8560- and 9136-sets' 8388 S, 8484 L, 8541 S, 8590 L, 8652 L
# and 9375 L: only their shaded face was foreground, and refitted to the edges each lands on
# the piece (0.93-1.0 of its outline on them), named clear, footprint shade 0.61-0.85. A dark
# pick named clear (``soft_grey``) is refitted so too and kept as black plastic (named as an
# opaque piece, colors.name_color's ``opaque``: black, or white where its lit faces are
# bright) when its refit, named clear again, is darker than SOFT_BLACK_SHADE (8652's is 0.85:
# left) and the table within SOFT_EDGE_DARK_MM of its outline as seen has a part darker than
# SOFT_EDGE_DARK (its cast shadow; the clear pieces SOFT_EDGE_DARK keeps are 0.59-0.74 there):
# in doubt as the soft reading, and asked SOFT_UPRIGHT_BLACK's test. Only alone: no reading's
# outline as seen within GREY_ALONE_MM of its own. A white piece's open base, seen grey behind
# its stern, is such a dark area on the edges with a shadow beside it (the 9136-set's 9317: a
# white medium's base read as a black small, false, and the white then read a size short);
# the pieces above lie 10 mm or more from any reading. Asked again of every reading when the
# soft readings are added (detect.find_pieces): a white piece read later from its open base
# (the 8848-set's 9078: its shaded side face and shadow, seen beside its base, read as a false
# black small).
GREY_ALONE_MM = 3.0
# GREY_BLACK_LIT (issue 4, session 38, opaque48): a black large on laminate whose tip points
# at the light mirrors it on its wide face, and that face is as bright as 0.83-0.85 of the
# table: its refit, named clear, is then lighter than SOFT_BLACK_SHADE and was left (the
# 10000-set's 10143 L, the 8560-set's 8652 L: refitted 0.1-2 mm off, alone, on the edges).
# Black plastic keeps its shaded face near black: the GREY_BLACK_FACE_Q-th percentile of the
# inset footprint 0.17-0.29 there, where a clear piece only darkens the table (0.6-0.9) and a
# white piece's shaded face is grey; and it casts a full shadow beside it (the ring's
# SOFT_EDGE_DARK_Q-th percentile 0.25-0.26). So a refit up to GREY_BLACK_LIT is black plastic
# too when both are darker than GREY_BLACK_DARK; the other SOFT_GREY_BLACK tests stand.
GREY_BLACK_LIT = 0.9
GREY_BLACK_FACE_Q = 5.0
GREY_BLACK_DARK = 0.35
# GREY_BESIDE_VIVID (grey_alone's ``vivid``; issue 4, session 38, opaque48): GREY_ALONE_MM is
# asked against a white piece's open base or shaded face, seen grey with its shadow; a piece
# named in a vivid colour shows neither grey (its base and faces keep its hue), so a reading
# so named is no reason to leave a black piece lit grey beside it: the 9712-set's 9992, a black
# small on laminate touching a blue small (refit 0.7 mm off, shade 0.71, full shadow
# 0.26-0.29) was left so.
# The pick is only the refit's start, the kept reading judged on the edges alone: where no
# pick hides at most SOFT_HIDDEN, one hiding up to SOFT_WHITE_HIDDEN starts it (its shadow in
# the crisp area hides more of a fit's outline: the 6256-set's 6294 white small at 0-10°, its
# hollow a thin strip, its one near fit 0.22 hiding 0.45, 2.6 mm off; 0.96 of its true
# outline on the edges). Asked for the refit only, not for a soft clear reading.
SOFT_WHITE_HIDDEN = 0.5
SOFT_WHITE_EDGES = 0.9
SOFT_WHITE_SAMPLES = 80
SOFT_WHITE_CLIP_PX = 6.0
SOFT_WHITE_STEPS = ((1.0, 3.0), (0.5, 1.5), (0.25, 0.75))
SOFT_WHITE_MOVES = 12
SOFT_WHITE_PAD_PX = 20
# The soft pick may take the piece's shadow in and start the edges' refit too far off (the
# 7408-set's 7434 and 7576, white larges alone on light laminate: picks 10-15 mm off along
# the shadow, ~16° turned): the area's best good fits (a medium from the piece's own stern,
# cost 0.03) start it too, this many.
SOFT_WHITE_STARTS = 3

# A lit clear piece on a light table whose crisp area is one rim (rim_pieces): its crisp
# edges trace its outline, but its inside is lit like the table, so the area they enclose is
# the rim's band, often open on a side, with its shadow's edge beside it (the 7408-set's 7434,
# 7441, 7690 on laminate): no fit on the crisp map explains it. An area no pass read that fills
# less than RIM_FILL of its convex hull, ...
RIM_FILL = 0.7
# ... the hull between MIN_SHARE of a small's footprint and RIM_MAX_AREAS of the largest
# footprint, is read from the hull's axis refitted to the crisp edges, kept when RIM_EDGES of
# its outline lies on them.
RIM_MAX_AREAS = 1.5
RIM_EDGES = 0.8
# ... and when the pieces found (grown by COVER_GROW_MM) cover at most this share of the hull:
# the rims left round pieces found are their shadows' edges (0.38-0.86 on 7434, 7441, 7690;
# the clear pieces' own 0).
RIM_COVERED = 0.1
# ... and when this share of the reading's outline as seen lies in the hull grown by
# COVER_GROW_MM: a standing clear piece's square outline, its edges refitted as a lying large
# running past it, is no rim (the 1144-set's 1341: 0.29; the rims read, 1.0).
RIM_IN_HULL = 0.9

# A standing clear piece's crisp outline is read softly too, as a lying piece whose tip is
# its apex: seen pushed away from the camera's foot (issue 4, clear31: 4269's standing medium,
# set from 4240, read as a lying small pointing 16° off that way, σ 19.8 mm, false). A soft
# reading pointing within SOFT_UPRIGHT_DEG of away from the camera's foot, whose area a
# standing pyramid fits at cost SOFT_UPRIGHT_COST or less on the crisp map
# (explain.upright_fit) covering SOFT_UPRIGHT_MORE more of it, is that outline: not read.
# 4269: 0.10, covering 0.69 of the area against the small's 0.44. On the desaturated pass
# too: 3705's standing medium on felt (3664-set), read as a lying medium pointing that way
# (0°), standing fit 0.06 on the grey map covering 0.99 against 0.90. Lying clear larges
# point that way too (3088-set: 3111's, -2°, and 3176's, 11°, standing fits 0.13-0.14), but
# the standing fit covers less of their area (0.62 against 0.65, 0.65 against 0.96), as it
# does on the lying pieces read softly at any heading (5540, 5912, 5966: 0.24-0.72 against
# 0.53-0.89; on the desaturated pass 0.36-0.84 against 0.49-1.0).
# Or a standing pyramid fits it SOFT_UPRIGHT_BETTER or more better than the soft reading
# (session 29, vivid38: the 7408-set's 7473 and 7521, a standing clear large and medium on
# felt at 22-35°, read as lying ones pointing 1° and 3° off that way: soft costs 0.44 and
# 0.54, standing 0.13 and 0.05, the standing fit covering 0.99 against 0.94 and, its start
# drawn by the shadow, 0.51 against 0.89). 4269's and 3705's standing pieces 0.12 and 0.51
# better; the lying larges of 3111 and 3176 fit standing 0.03 worse and 0.02 better. Only
# within SOFT_UPRIGHT_BETTER_DEG of away from the foot: the 5104-set's 5163, a lying clear
# large on laminate read softly as a medium 27° off that way (cost 0.43), fits standing 0.31
# better (a small covering 0.38 of its area against 0.69).
# SOFT_UPRIGHT_BLACK (issue 4, session 34, false44): the refit to the edges of a soft pick
# named black (SOFT_BLACK_SHADE) is asked the same: the 8560-set's 8697, an upright black large
# on grey laminate at 22-35°, was read as a lying black large in doubt (σ 68 mm), false; its
# standing fit passes the test. Not asked of those named white: the 8272-set's 8559, a white
# small lying on laminate, read so (σ 68 mm), passes it too (its refit, 14 mm off, points
# away from the camera's foot).
SOFT_UPRIGHT_DEG = 30.0
SOFT_UPRIGHT_COST = 0.2
SOFT_UPRIGHT_MORE = 0.05
SOFT_UPRIGHT_BETTER = 0.15
SOFT_UPRIGHT_BETTER_DEG = 10.0

# The desaturated pass's soft reading (clear31: crisp_pieces with soft_dark False) is a clear
# piece's muting of a coloured table: on cloth and felt the foreground score counts the piece
# as object (4-5.3 over the footprints read so, ×0.92-1.31 the table's shade), on wood it
# does not (0.31-0.75, ×0.75-0.92: a slight darkening). Not read: a darkening under
# SOFT_FAINT_SHADE counted as object (4943's shadow of two orange pieces on blue cloth: 3.5,
# ×0.73), or a patch not counted and no darkening (4322's clear large on wood read as a small
# across it, 19 mm off, partly on bare wood: 0.60, ×1.06). Nor where the area runs off the
# view (soft_off: 4322's arm, duller than the wood where it leaves the image, outside the
# hand's region: read as a clear small).


def crisp_pieces(scene: Scene, edges: np.ndarray | None, crisp: np.ndarray, chosen: list[Candidate],
                 unseen: np.ndarray | None = None, standing: Sequence[Candidate] = (),
                 *, shade_range: tuple[float, float] | None = None,
                 heading_floor: bool = False, one_size: bool = False,
                 base_open: bool = False, peel: bool = False,
                 not_clear: Callable[[Candidate], bool] | None = None,
                 lit_clear: tuple[float, Callable[[tuple[slice, slice], np.ndarray], bool],
                                  Callable[[Candidate], bool]] | None = None,
                 mid_of: np.ndarray | None = None, min_share: float = MIN_SHARE,
                 doubtful_if: Callable[[Candidate], bool] | None = None,
                 soft_clear: Callable[[Candidate], bool] | None = None,
                 soft_out: list[Candidate] | None = None,
                 soft_white: Callable[[Candidate], bool] | None = None,
                 white_out: list[Candidate] | None = None, soft_dark: bool = True,
                 soft_off: np.ndarray | None = None,
                 soft_black: Callable[[Candidate], bool] | None = None,
                 soft_grey: Callable[[Candidate], bool] | None = None,
                 grey_out: list[Candidate] | None = None,
                 other_piece: Callable[[Candidate], bool] | None = None,
                 peel_hide: float | None = None,
                 lit_whole: list[np.ndarray] | None = None, cut_lit: bool = True,
                 area_if: Callable[[tuple[slice, slice], np.ndarray], bool] | None = None,
                 clear_part: Callable[[tuple[slice, slice], np.ndarray], bool] | None = None,
                 vivid: Callable[[Candidate], bool] | None = None,
                 soft_longer: dict[int, tuple[Candidate, Candidate]] | None = None
                 ) -> list[Candidate]:
    """Lying pieces (table mm) in the crisp-enclosed areas (``crisp``, view-size bool;
    ``edges`` the crisp edges themselves) that the lying pieces ``chosen``, the ``standing``
    ones and ``unseen`` (view-size bool: hands) leave unexplained. Their ``ambiguity_mm`` is
    at least CRISP_EDGE_MM. ``shade_range``: only areas whose median brightness over the
    table's (``scene.shade``) lies in it are fitted. ``heading_floor``: their
    ``ambiguity_deg`` is at least CRISP_EDGE_MM across the piece's length (for areas from a
    smoothed cue, whose two ends are each that uncertain: on seeds 1028 and 1029 heading
    errors 2.4° and 1.8° for fit σ 1.0° and 0.6°; and for the crisp map, whose ends are each
    placed within CRISP_EDGE_MM too: the 9712-set's 9959, 3.2° for fit σ 0.30°).
    ``one_size``: an area that another size explains nearly as well (size ambiguity over
    SIZE_DOUBT_MM; only a reading covering what this one explains of the area counts) is
    left alone. ``base_open``: a stern edge missed
    on the map is excused when the sides are seen up to it (:func:`open_base.open_base_cost`).
    ``peel``: an area held off by its contact with the pieces found is tried again without
    what lies within PEEL_MM of them (see PEEL_MM); with ``edges`` (a crisp area, not a
    muted one) only when it is darker than the table (PEEL_DARK); ``peel_hide``: the share of
    its outline a peeled part's fit may hide (by default :func:`peel_hidden` on a crisp area,
    PEEL_HIDDEN_MUTED on a muted one). ``not_clear``: whether a
    piece is opaque plastic, whose area may run past it, so a shorter reading hidden inside
    the area is its rival (:func:`_rivals_hidden_inside`; without ``one_size``, its covering
    ambiguity too). Without ``one_size``, a shorter reading the scene's fit map prefers is
    a rival too (SHORTER_ON_FIT_MAP).
    ``lit_clear`` (with ``shade_range``): (top, looks_clear, is_clear): areas whose median
    lies above the range, up to top, are fitted too when ``looks_clear(view window, area)``,
    and a piece read in one is kept only when ``is_clear(piece)`` (see GREY_LIT).
    ``mid_of``: the view's saturation ratio (segment.saturation_ratio): each area, once the
    pieces found are left out, is cut at its own edge level (segment.grey_at_mid).
    ``min_share``: an area is fitted when it covers at least this share of a small piece's
    footprint. ``doubtful_if``: when an area has no good fit, a doubtful one (up to MAX_COST)
    is kept if ``doubtful_if(piece)``, its σ at least DOUBT_FLOOR_MM; with ``one_size``, so
    is a reading whose size is in doubt (σ covering the other size too). ``soft_clear``: an
    area where nothing is read at all keeps a fit darkened as a clear piece darkens the
    table (:func:`_darkened_as_clear`) whose outline hides in the area itself (see
    SOFT_HIDDEN) if ``soft_clear(piece)``, in doubt of its size and place
    (:func:`_any_size_mm`), appended to ``soft_out``, not returned: the caller adds it
    when no later pass reads the area. ``soft_white``: where that keeps nothing either, a
    piece lit like the table whose whole outline lies on the crisp edges once fitted to
    them, if ``soft_white(piece)`` (:func:`_soft_white_piece`), in doubt as the soft clear
    reading is, appended to ``white_out``, not returned; with ``soft_black``, a dark pick
    named black so too (SOFT_BLACK_SHADE); with ``soft_grey``, a dark pick it accepts (named
    clear) kept as black plastic (SOFT_GREY_BLACK), also appended to ``grey_out``. What the
    soft reading's pick leaves of its area is read again by the soft reading
    (REST_AFTER_READING); what a pick dropped by its gates
    leaves, only if ``other_piece(pick)``. ``lit_whole`` (with ``lit_clear``): the lit
    areas of a clear piece's colour, before their shaded faces are cut, are appended to it as
    one view-size bool mask, for the caller to fit whole with ``cut_lit`` False (no cut) where
    nothing is read (see GREY_LIT). ``area_if(window, area)``: only the areas it
    accepts are fitted. ``clear_part(window, part)``: on a crisp area, a peeled part under
    what a medium keeps is fitted only when it accepts it (of a clear piece's colour;
    PEEL_SMALL); without it, not at all. ``vivid``: the readings named in a vivid colour, no
    rival to a grey black reading (GREY_BESIDE_VIVID). ``soft_longer``: where a soft clear
    reading lies snug inside its area, its longer fit on the area's rim is noted there by id of
    the reading's fit, with the reading (SOFT_LONGER_*; read by :func:`soft_longer_read`)."""
    grid = scene.grid
    ppm = grid.px_per_mm
    cover, left = _left_of(scene, crisp, [*chosen, *standing], unseen)
    ro = max(round(OPEN_MM * ppm), 1)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * ro + 1,) * 2)
    # The cuts below only take pixels off what is left: its shadows' areas, the opening, its
    # areas and the fit map's band are worked out on the window round it (the rest of the
    # view holds none of it), the same pixels as on the whole view (WINDOW_PAD_PX).
    win = _nonzero_window(left, 2 * ro + WINDOW_PAD_PX)
    if win is None:
        return []  # nothing left: no area to fit
    min_px = min_share * scene.small_area_mm2 * ppm**2
    if mid_of is not None:
        left = grey_at_mid(left, mid_of, min_px, window=win)
    if scene.shade is not None and cut_lit:
        left = _without_lit_shadows(
            left, scene.shade, scene.score, min_px,
            None if lit_clear is None or lit_whole is None else lit_clear[1], lit_whole,
            window=win)
    left_w = left[win].view(np.uint8)
    body = cv2.morphologyEx(left_w, cv2.MORPH_OPEN, disc)
    max_px = 2.5 * scene.max_area_mm2 * ppm**2
    incover = cover.view(bool)  # (0/1: a view, no copy; cover is not written after)
    # (area's sub-grid, area, the pieces found's cover on the view that excuses its edges,
    # the share of a fit's outline that may be hidden, the least σ (mm) of a piece found)
    # (the last: False an area, True a peeled part, None what a soft pick left of an area)
    areas: list[tuple[ViewGrid, np.ndarray, np.ndarray, float, float, bool, bool | None]] = []
    peeled = None
    peel_disc = None
    # Outer contours, not a labelling of the whole view: the areas are few and small.
    for c0, r0, region in _areas(body, min_px, pad=4, window=(win, left.shape)):
        sl = (slice(r0, r0 + region.shape[0]), slice(c0, c0 + region.shape[1]))
        lit = False
        if shade_range is not None and scene.shade is not None:
            m = float(median(scene.shade[sl][region]))
            top = shade_range[1] if lit_clear is None else lit_clear[0]
            if not shade_range[0] <= m <= top:
                continue
            lit = m > shade_range[1]
            if lit and lit_clear is not None and not lit_clear[1](sl, region):
                continue  # lit, and not of a clear piece's colour: not fitted (GREY_LIT)
        if np.count_nonzero(region) > max_px:
            continue
        if area_if is not None and not area_if(sl, region):
            continue
        fit_it = _worth_fitting(region, incover[sl],
                                round_max_px=scene.max_area_mm2 * ppm**2)
        if fit_it is None and peel and edges is not None and scene.shade is not None and not (
                GREY_SHADE[0] <= float(median(scene.shade[sl][region])) <= PEEL_DARK):
            continue  # held off, and not a clear piece's darkening: not peeled
        if fit_it is None and peel:
            if peel_disc is None:
                rp = max(round((PEEL_MM - COVER_GROW_MM) * ppm), 1)
                peel_disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rp + 1,) * 2)
            near_cover = _grown_within(cover, sl, peel_disc)
            least = _peel_min_mm2(scene, Size.SMALL)
            medium_px = _peel_min_mm2(scene) * ppm**2
            for part_full in _parts_off(region, near_cover, disc, least * ppm**2):
                if edges is not None and np.count_nonzero(part_full) < medium_px and (
                        clear_part is None or not clear_part(sl, part_full)):
                    continue  # a small's part on a crisp area: a clear one's only (PEEL_SMALL)
                # What was peeled off the area is the neighbour's too, and an edge
                # within the peel's width of it faces the neighbour, not the table.
                if peeled is None:
                    peeled = cv2.dilate(cover, peel_disc) > 0
                excuse = peeled.copy()
                excuse[sl] |= region & ~part_full
                excuse = cv2.dilate(excuse.view(np.uint8), peel_disc).view(bool)
                hide = (peel_hide if peel_hide is not None else peel_hidden(scene)
                        if edges is not None else PEEL_HIDDEN_MUTED)
                areas.append((grid.sub(c0, r0, region.shape), part_full, excuse, hide,
                              PEEL_MM / 2, lit, True))
        elif fit_it:
            areas.append((grid.sub(c0, r0, region.shape), region, incover, MAX_HIDDEN,
                          CRISP_EDGE_MM, lit, False))
    if not areas:
        return []
    # The fit map: 1 inside, ½ on the crisp edge band, 0 outside, smoothed, so its mid level
    # lies along the band's middle, where the brightness step is (the filled area's own
    # border is the band's outer side, ~1 px out). The tip, thinner than the opening's disc,
    # is taken back from the unopened area. Where a piece found lies the map is solid: an
    # edge against it is hidden, not missed.
    # (On the window: outside it the map is 0 but where a piece found lies.)
    near = cv2.dilate(body, disc, iterations=2) & left_w
    fg = np.zeros(left.shape, np.float32)
    fg_w = fg[win]
    fg_w[...] = near
    # Only the outline's band: the rims and the base's edges inside a piece stay inside.
    deep = cv2.erode(near, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    if edges is not None:
        fg_w[edges[win] & (deep == 0)] *= 0.5
    fg[incover] = 1.0
    fg = cv2.blur(fg, (3, 3))
    # (The score is only read for doubtful fits, which this pass never keeps.)
    crisp_scene = Scene(fg, fg, grid, scene.pieces, scene.camera_mm, scene.shade)
    out: list[Candidate] = []
    # (areas may grow in the loop: what a reading leaves of its area, REST_AFTER_READING)
    for sub, region, excuse, hide, floor_mm, lit, peeled_part in areas:
        # A rest after a soft pick (REST_AFTER_READING) keeps only a soft reading.
        rest_part = peeled_part is None
        n_out = len(out)
        taken: Candidate | None = None
        # The axis first (it stops at a fit explaining the area); the area's sharp corners
        # only when that leaves it unexplained.
        guess = axis_guess(region, sub)
        cands = (fits_from_axis(crisp_scene, *guess, region, sub, screened=True)
                 if guess is not None else [])
        top = GOOD_COST if doubtful_if is None else MAX_COST
        scored = _scored(cands, region, sub, excuse, grid, base_open, hide, top)
        good = [t for t in scored if t[1] <= GOOD_COST]
        if not good or min(good, key=lambda t: t[0])[0] > -AXIS_ENOUGH:
            tips = fits_from_tips(crisp_scene, tip_guesses(region, sub))
            cands += tips
            scored += _scored(tips, region, sub, excuse, grid, base_open, hide, top)
        scored.sort(key=lambda t: t[0])
        if any(t[1] <= GOOD_COST for t in scored):
            scored = [t for t in scored if t[1] <= GOOD_COST]
        if scored and upright_fit(crisp_scene, region, sub, scored[0][1]) is not None:
            # A standing piece's crisp outline (the main pass saw no lying piece in it).
            continue
        for _u, cost, c in ([] if rest_part else scored):
            if not clashes(c, chosen + out, scene):
                # Another size nearly as good on this map: σ covers both readings.
                c = replace(c, fit=replace(c.fit, cost=cost))
                if not one_size:
                    (c,) = finish(crisp_scene, [c], cands)
                    # The crisp map cannot tell a shadow cast behind the stern, or what
                    # lies against the tip, from the piece (SHORTER_ON_FIT_MAP): σ covers a
                    # shorter reading from either end that the fit map prefers, or, for an
                    # opaque piece, any that fits the area with its end hidden inside it.
                    c = _shorter_on_fit_map(scene, c, chosen + out)
                    if not_clear is not None and not_clear(c):
                        c = _rivals_hidden_inside(crisp_scene, c, cands, region, sub,
                                                  covering=True)
                else:
                    # Only a reading that covers what this one explains of the area is a
                    # rival: a shorter one snug inside leaves a thick part of it out.
                    (c,) = finish(crisp_scene, [c], cands, region, sub)
                    if c.covering_ambiguity_mm > SIZE_DOUBT_MM and base_open:
                        c = _open_base_rivals(crisp_scene, c, cands, region, sub, left)
                    if c.covering_ambiguity_mm > SIZE_DOUBT_MM:
                        # Another size explains the area nearly as well: kept only when
                        # named clear (doubtful_if), in doubt, σ covering both (SIZE_DOUBT_MM).
                        if doubtful_if is None or overlaps_any(scene, c, chosen + out) or (
                                not doubtful_if(c)):
                            break
                        floor_mm = max(floor_mm, DOUBT_FLOOR_MM)
                    # A shorter reading fitting inside it says its ends are soft: σ at
                    # least SNUG_END_MM.
                    snug = SNUG_END_MM if c.ambiguity_mm > SIZE_DOUBT_MM else 0.0
                    c = replace(c, ambiguity_mm=max(c.covering_ambiguity_mm, snug),
                                covering_ambiguity_mm=max(c.covering_ambiguity_mm, snug),
                                ambiguity_deg=c.covering_ambiguity_deg)
                    if not_clear is not None and not_clear(c):
                        c = _rivals_hidden_inside(crisp_scene, c, cands, region, sub)
                floor_deg = 0.0
                if cost > GOOD_COST:
                    # A doubtful fit (doubtful_if): kept only when named clear, and in doubt,
                    # its turn too (DOUBT_TURN_DEG).
                    if doubtful_if is None or not doubtful_if(c):
                        break
                    floor_mm, floor_deg = max(floor_mm, DOUBT_FLOOR_MM), DOUBT_TURN_DEG
                if lit and lit_clear is not None:
                    if not lit_clear[2](c):
                        break
                    # Its shaded face, darker than the table, is cut from a lit area
                    # (_without_lit_shadows): σ at least SNUG_END_MM (GREY_LIT).
                    floor_mm = max(floor_mm, SNUG_END_MM)
                if _tip_unseen(c, grid.mask_at(excuse, c.fit.probe_mm),
                               scene.pieces.dims(c.size).footprint_length_mm):
                    # Pinned along its axis by its stern edge alone (CRISP_TIP_UNSEEN).
                    floor_mm = max(floor_mm, SNUG_END_MM)
                deg = floor_deg
                if heading_floor:
                    length = scene.pieces.dims(c.size).footprint_length_mm
                    deg = max(deg, math.degrees(CRISP_EDGE_MM / length))
                out.append(c.in_doubt_of(floor_mm, deg))
                break
        if (len(out) == n_out and soft_clear is not None and soft_out is not None
                and scene.shade is not None
                and not (soft_off is not None and _runs_off(region, grid.window(sub), soft_off,
                                                           disc))):
            pick = _soft_pick(scene, cands, region, sub, excuse, grid,
                              chosen + out + soft_out)
            white_only = False
            if pick is None and soft_white is not None and edges is not None:
                # Only a start for the refit to the edges (SOFT_WHITE_HIDDEN).
                pick = _soft_pick(scene, cands, region, sub, excuse, grid,
                                  chosen + out + soft_out, SOFT_WHITE_HIDDEN)
                white_only = True
            if pick is None or _by_hand(scene, pick[1], unseen):
                continue
            # Dropped below, the pick leaves the rest of the area only when it is a piece of
            # its own (REST_AFTER_READING).
            taken = pick[1] if other_piece is not None and other_piece(pick[1]) else None
            c = None if white_only else _soft_clear_piece(scene, pick, region, sub, soft_clear,
                                                          edges, dark=soft_dark,
                                                          found=incover)
            if c is not None:
                # A standing piece's outline is neither a clear nor a white lying piece.
                if not _standing_seen(crisp_scene, c, region, sub):
                    if (soft_longer is not None
                            and (w := _soft_longer(scene, c, cands, region, sub, excuse, grid,
                                                   chosen + out + soft_out)) is not None
                            and not _standing_seen(crisp_scene, w, region, sub)):
                        # Snug inside its own area, a longer fit on the area's rim
                        # (SOFT_LONGER_*): the caller's size rules may read it.
                        soft_longer[id(c.fit)] = (c, w)
                    soft_out.append(c)
                    taken = c
            elif (soft_white is not None and white_out is not None and edges is not None
                  and (c := _soft_white_from(scene, pick[1], cands, region, sub,
                                             chosen + out + soft_out + white_out,
                                             soft_white, edges, soft_black, soft_grey,
                                             grey := [], vivid)) is not None
                  and not (((soft_black is not None and soft_black(c))
                            or any(c is g for g in grey))
                           and _standing_seen(crisp_scene, c, region, sub))):
                # Nor is it a black lying piece (SOFT_UPRIGHT_BLACK).
                white_out.append(c)
                if grey_out is not None and any(c is g for g in grey):
                    grey_out.append(c)
                taken = c
        if taken is not None and peeled_part is False:
            rest_hide = peel_hidden(scene) if edges is not None else PEEL_HIDDEN_MUTED
            areas += [(sub, part, part_excuse, rest_hide, PEEL_MM / 2, lit, None)
                      for part, part_excuse in _rest_after(scene, taken, region, sub, excuse,
                                                           disc)]
    return out


def _tip_unseen(c: Candidate, excused: np.ndarray, length_mm: float) -> bool:
    """Whether at least CRISP_TIP_UNSEEN of ``c``'s outline samples within CRISP_TIP_END_MM
    of its tip (``length_mm`` its footprint's length) are hidden and not ``excused`` (bool per
    sample: against a piece found)."""
    if not len(c.fit.sample_cost):
        return False
    tip = past_stern_mm(c) > length_mm - CRISP_TIP_END_MM
    if not tip.any():
        return False
    unseen = np.isnan(c.fit.sample_cost) & ~excused
    return bool(unseen[tip].mean() >= CRISP_TIP_UNSEEN)


def rim_pieces(scene: Scene, edges: np.ndarray, crisp: np.ndarray, chosen: list[Candidate],
               unseen: np.ndarray | None, standing: Sequence[Candidate],
               is_clear: Callable[[Candidate], bool]) -> list[Candidate]:
    """Lit clear pieces (table mm) whose crisp area (``crisp``, view-size bool, with its
    ``edges``) is one rim (RIM_FILL): each area the pieces ``chosen`` and ``standing`` (grown
    by COVER_GROW_MM) and ``unseen`` (hands) leave that fills under RIM_FILL of its convex
    hull, the hull between MIN_SHARE of a small's footprint and RIM_MAX_AREAS of the
    largest's, is read from its hull's axis refitted to the crisp edges
    (:func:`_on_edges_fit`, RIM_EDGES of the outline on them), lying in the hull
    (RIM_IN_HULL), by no hand (asked of the axis before the refit too), named clear by
    ``is_clear``, clashing with and overlapping none of the others: in doubt as a soft
    reading is."""
    grid = scene.grid
    ppm2 = grid.px_per_mm**2
    cover, left = _left_of(scene, crisp, [*chosen, *standing], unseen)
    # Traced on the window round what is left (_nonzero_window): the same contours.
    win = _nonzero_window(left, WINDOW_PAD_PX)
    contours = () if win is None else cv2.findContours(
        left[win].view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
        offset=(win[1].start, win[0].start))[0]
    lo, hi = MIN_SHARE * scene.small_area_mm2 * ppm2, RIM_MAX_AREAS * scene.max_area_mm2 * ppm2
    out: list[Candidate] = []
    for cnt in contours:
        hull = cv2.convexHull(cnt)
        hull_px = cv2.contourArea(hull)
        if not (lo <= hull_px <= hi and cv2.contourArea(cnt) < RIM_FILL * hull_px):
            continue
        x, y, w, h = cv2.boundingRect(hull)
        region = np.zeros((h, w), np.uint8)
        cv2.fillPoly(region, [hull], 1, offset=(-x, -y))
        if np.count_nonzero(cover[y:y + h, x:x + w][region.view(bool)]) > (
                RIM_COVERED * np.count_nonzero(region)):
            continue  # a rim round a piece found: its shadow's edge
        sub = grid.sub(x, y, region.shape)
        if (guess := axis_guess(region.view(bool), sub)) is None:
            continue
        pose, length = guess
        size = min(Size, key=lambda z: abs(scene.pieces.dims(z).footprint_length_mm - length))
        start = _edges_candidate(scene, size, pose)
        # A rim by a hand is its shadow's edge: asked before the refit, the pass's one cost.
        if _by_hand(scene, start, unseen) or (
                got := _on_edges_fit(scene, start, edges, RIM_EDGES)) is None:
            continue
        c = _edges_candidate(scene, *got)
        seen = shapely.Polygon(c.outline_mm)
        rim = shapely.Polygon(grid.to_mm(hull.reshape(-1, 2).astype(np.float64)))
        if seen.intersection(rim.buffer(COVER_GROW_MM)).area < RIM_IN_HULL * seen.area or (
                _by_hand(scene, c, unseen) or not is_clear(c)
                or clashes(c, [*chosen, *out], scene) or overlaps_any(scene, c, [*chosen, *out])):
            continue
        amb = _soft_doubt_mm(scene, c, region.view(bool), sub)
        out.append(replace(c, ambiguity_mm=amb, covering_ambiguity_mm=amb,
                           ambiguity_deg=SOFT_DOUBT_DEG, covering_ambiguity_deg=SOFT_DOUBT_DEG))
    return out


def _left_of(scene: Scene, crisp: np.ndarray, found: Sequence[Candidate],
             unseen: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The pieces ``found``'s outlines as seen, grown by COVER_GROW_MM (view-size uint8), and
    what of ``crisp`` (view-size bool) they and ``unseen`` (hands) leave."""
    grid = scene.grid
    cover = np.zeros(crisp.shape, np.uint8)
    polys = [np.round(grid.to_px(c.outline_mm)).astype(np.int32) for c in found]
    for p in polys:
        cv2.fillPoly(cover, [p], 1)
    r = max(round(COVER_GROW_MM * grid.px_per_mm), 1)
    if polys:
        # Grown on the window round the outlines' corners (what they fill lies within them):
        # the same pixels as growing the whole view, whose rest is 0.
        pts = np.concatenate(polys)
        (x_lo, y_lo), (x_hi, y_hi) = pts.min(axis=0).tolist(), pts.max(axis=0).tolist()
        rows, cols = cover.shape
        y0, y1 = max(y_lo - r - 1, 0), min(y_hi + r + 2, rows)
        x0, x1 = max(x_lo - r - 1, 0), min(x_hi + r + 2, cols)
        if y0 < y1 and x0 < x1:
            cover[y0:y1, x0:x1] = cv2.dilate(
                cover[y0:y1, x0:x1],
                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2))
    # (cover is 0/1: as bools, crisp and not cover in one pass; then not unseen, in place.)
    left = np.greater(crisp, cover.view(bool))
    if unseen is not None:
        np.greater(left, unseen, out=left)
    return cover, left


def _rest_after(scene: Scene, c: Candidate, region: np.ndarray, sub: ViewGrid,
                excuse: np.ndarray, disc: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """What the reading ``c`` leaves of the area ``region`` (bool on ``sub``) it was read in
    (REST_AFTER_READING): the area without what lies within PEEL_MM of ``c``'s outline as seen,
    opened by ``disc``, each part that could be a medium or a large lying along ``c``
    (:func:`_peel_min_mm2`, PEEL_CONTACT), with its excuse (view-size bool: ``excuse``, ``c``
    and the rest of the area, grown by ``disc``: an edge facing them is hidden)."""
    grid = scene.grid
    ppm = grid.px_per_mm
    rp = max(round(PEEL_MM * ppm), 1)
    grow = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * rp + 1,) * 2)
    own = np.zeros(region.shape, np.uint8)
    cv2.fillPoly(own, [np.round(sub.to_px(c.outline_mm)).astype(np.int32)], 1)
    near = cv2.dilate(own, grow) > 0
    got = []
    for part_full in _parts_off(region, near, disc, _peel_min_mm2(scene) * ppm**2):
        more = np.zeros(excuse.shape, np.uint8)
        more[grid.window(sub)] = (near | (region & ~part_full)).view(np.uint8)
        got.append((part_full, excuse | (cv2.dilate(more, disc) > 0)))
    return got


def _parts_off(region: np.ndarray, near: np.ndarray, disc: np.ndarray, least_px: float
               ) -> list[np.ndarray]:
    """The parts of ``region`` (bool) left once ``near`` (bool, the same window: what lies
    by a neighbour or a reading) is taken off it and the rest opened by ``disc``, each
    covering at least ``least_px`` and lying along ``near`` enough to be worth fitting
    (PEEL_CONTACT), as bool masks of ``region``'s shape: the peel's and the rest's parts."""
    rest = cv2.morphologyEx((region & ~near).view(np.uint8), cv2.MORPH_OPEN, disc)
    got = []
    for d0, e0, part in _areas(rest, least_px):
        if _worth_fitting(part, near[e0:e0 + part.shape[0], d0:d0 + part.shape[1]],
                          PEEL_CONTACT):
            full = np.zeros(region.shape, bool)
            full[e0:e0 + part.shape[0], d0:d0 + part.shape[1]] = part
            got.append(full)
    return got


def _soft_pick(scene: Scene, cands: list[Candidate], region: np.ndarray, sub: ViewGrid,
               excuse: np.ndarray, grid: ViewGrid, others: list[Candidate],
               max_hidden: float = SOFT_HIDDEN) -> tuple[float, Candidate] | None:
    """The soft reading's pick of ``cands`` (fitted on a crisp ``region`` on ``sub`` where
    nothing was read): the best once its outline samples hidden inside the region itself are
    excused (SOFT_HIDDEN), up to MAX_COST, hiding at most ``max_hidden`` of its outline,
    clashing with and overlapping none of ``others`` nor in size doubt of one; with that
    cost, or None."""
    scored = _scored(cands, region, sub, excuse, grid, max_hidden=max_hidden,
                     max_cost=MAX_COST, own=region)
    for _u, cost, c in scored:
        if not (clashes(c, others, scene) or overlaps_any(scene, c, others)
                or in_size_doubt_of(scene, c, others)):
            return cost, c
    return None


def _soft_longer(scene: Scene, c: Candidate, cands: list[Candidate], region: np.ndarray,
                 sub: ViewGrid, excuse: np.ndarray, grid: ViewGrid, others: list[Candidate]
                 ) -> Candidate | None:
    """The longest fit of ``cands`` longer than the soft clear reading ``c`` (fitted on the
    crisp ``region`` on ``sub``) when ``c`` hides at least SOFT_LONGER_HIDDEN of its outline
    and the fit takes in SOFT_LONGER_IN of ``c``'s footprint, hides at most SOFT_LONGER_EDGE
    of its own outline, fits up to MAX_COST and clashes with, overlaps and is in size doubt
    of none of ``others``: in doubt as ``c`` is (:func:`_soft_doubt_mm`); else None."""
    if not len(c.fit.sample_cost) or np.isnan(c.fit.sample_cost).mean() < SOFT_LONGER_HIDDEN:
        return None
    dims = scene.pieces.dims
    d_c = dims(c.size).footprint_length_mm
    seen = shapely.Polygon(c.outline_mm)
    best: tuple[float, Candidate] | None = None
    for _u, cost, o in _scored(cands, region, sub, excuse, grid, max_hidden=SOFT_LONGER_EDGE,
                               max_cost=MAX_COST, own=region):
        d_o = dims(o.size).footprint_length_mm
        if (d_o <= d_c or (best is not None and d_o <= dims(best[1].size).footprint_length_mm)
                or shapely.Polygon(o.outline_mm).intersection(seen).area
                < SOFT_LONGER_IN * seen.area
                or clashes(o, others, scene) or overlaps_any(scene, o, others)
                or in_size_doubt_of(scene, o, others)):
            continue
        best = (cost, o)
    if best is None:
        return None
    cost, o = best
    amb = max(_soft_doubt_mm(scene, o, region, sub), c.covering_ambiguity_mm)
    return replace(o, fit=replace(o.fit, cost=cost), ambiguity_mm=amb,
                   covering_ambiguity_mm=amb,
                   ambiguity_deg=max(o.ambiguity_deg, SOFT_DOUBT_DEG),
                   covering_ambiguity_deg=max(o.covering_ambiguity_deg, SOFT_DOUBT_DEG))


def soft_longer_read(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                     soft_longer: dict[int, tuple[Candidate, Candidate]]) -> Candidate | None:
    """The longer fit :func:`_soft_longer` found for the soft clear reading ``c``
    (``soft_longer``: by ``id`` of the pick's fit, the pick, which keeps that id its own, and
    the longer fit) when ``c``'s σ ``sigma_mm`` covers its size (size doubt) and it clashes
    with none of ``lying`` but ``c``: its ambiguity at least their gap (σ covering ``c``);
    else None."""
    if (got := soft_longer.get(id(c.fit))) is None or got[0].fit is not c.fit:
        return None
    w = got[1]
    dims = scene.pieces.dims
    if sigma_mm < dims(w.size).footprint_length_mm - dims(c.size).footprint_length_mm - 0.1:
        return None
    if clashes(w, [k for k in lying if k is not c], scene):
        return None
    mm, deg = reading_gap(scene, w, c)
    return w.in_doubt_of(mm, deg)


def _soft_clear_piece(scene: Scene, pick: tuple[float, Candidate], region: np.ndarray,
                      sub: ViewGrid, soft_clear: Callable[[Candidate], bool],
                      edges: np.ndarray | None = None, dark: bool = True,
                      found: np.ndarray | None = None) -> Candidate | None:
    """The soft reading's ``pick`` (cost, fit: :func:`_soft_pick`; by no hand), when it is
    darkened as a clear piece darkens the table (:func:`_darkened_as_clear`; on the
    desaturated pass, ``dark`` False, muted as one mutes it: :func:`_muted_as_clear`) and
    named clear by ``soft_clear``: in doubt of its size and place (σ
    :func:`_soft_doubt_mm`); else None. ``found``: the pieces found's cover (view-size
    bool), which is no table for the darkening's test (SOFT_EDGE_OFF_FOUND)."""
    cost, c = pick
    if (not (_darkened_as_clear(scene, c, edges, found) if dark
             else _muted_as_clear(scene, c))
            or not soft_clear(c)):
        return None
    amb = _soft_doubt_mm(scene, c, region, sub)
    return replace(c, fit=replace(c.fit, cost=cost), ambiguity_mm=amb,
                   covering_ambiguity_mm=amb,
                   ambiguity_deg=max(c.ambiguity_deg, SOFT_DOUBT_DEG),
                   covering_ambiguity_deg=max(c.covering_ambiguity_deg, SOFT_DOUBT_DEG))


def _soft_white_from(scene: Scene, pick: Candidate, cands: list[Candidate], region: np.ndarray,
                     sub: ViewGrid, others: list[Candidate],
                     soft_white: Callable[[Candidate], bool], edges: np.ndarray,
                     soft_black: Callable[[Candidate], bool] | None = None,
                     soft_grey: Callable[[Candidate], bool] | None = None,
                     grey: list[Candidate] | None = None,
                     vivid: Callable[[Candidate], bool] | None = None) -> Candidate | None:
    """:func:`_soft_white_piece` from the soft pick ``pick``, else from the area's other good
    fits ``cands`` (cost at most GOOD_COST, best first, SOFT_WHITE_STARTS of them): the
    first whose refit to the crisp edges holds; else None."""
    starts = sorted((c for c in cands if c is not pick and c.fit.cost <= GOOD_COST),
                    key=lambda c: c.fit.cost)[:SOFT_WHITE_STARTS]
    for c in (pick, *starts):
        if (w := _soft_white_piece(scene, c, region, sub, others, soft_white, edges,
                                   soft_black, soft_grey, grey, vivid)) is not None:
            return w
    return None


def _soft_white_piece(scene: Scene, c: Candidate, region: np.ndarray, sub: ViewGrid,
                      others: list[Candidate], soft_white: Callable[[Candidate], bool],
                      edges: np.ndarray, soft_black: Callable[[Candidate], bool] | None = None,
                      soft_grey: Callable[[Candidate], bool] | None = None,
                      grey: list[Candidate] | None = None,
                      vivid: Callable[[Candidate], bool] | None = None) -> Candidate | None:
    """The white piece lit like the table that the crisp ``region`` (on ``sub``, nothing read
    there) holds (see SOFT_WHITE_SHADE): the soft reading's pick ``c`` (:func:`_soft_pick`;
    by no hand), refitted to the crisp ``edges`` at each size (:func:`_on_edges_fit`), lit
    (SOFT_WHITE_SHADE) and ``soft_white`` (or a black piece: darker than SOFT_BLACK_SHADE and
    ``soft_black``, before and after the refit), judged on ``c``, or, when ``c`` is darker
    than that and not black, on the refit (SOFT_WHITE_REFIT_NAMED), the best kept when
    SOFT_WHITE_EDGES of its outline lies on them and it clashes with and overlaps none of
    ``others``: in doubt of its size and place (σ :func:`_soft_doubt_mm`, its heading
    SOFT_DOUBT_DEG); else None. ``soft_grey``: a dark pick it accepts whose refit is black
    plastic named clear (SOFT_GREY_BLACK) is kept too, and appended to ``grey``."""
    if (lit := _inset_shade(scene, c)) is None:
        return None
    white = _lit_white(lit, c, soft_white)
    black = not white and soft_black is not None and lit < SOFT_BLACK_SHADE and soft_black(c)
    # Darker than the band and not black: the pick may have taken the piece's shadow in.
    shadowed = not (white or black) and lit < SOFT_WHITE_SHADE[0]
    if not (white or black or shadowed):
        return None
    # A dark pick named clear may be black plastic lit grey (SOFT_GREY_BLACK).
    greyed = shadowed and soft_grey is not None and lit < SOFT_BLACK_SHADE and soft_grey(c)
    got = _on_edges_fit(scene, c, edges)
    if got is None:
        return None
    w = _edges_candidate(scene, *got)
    # A black pick named so again where it is refitted (a lit face beside it may be read
    # clear there, 6411's medium); a shadowed pick judged white where refitted
    # (SOFT_WHITE_REFIT_NAMED), or black plastic named clear (SOFT_GREY_BLACK).
    grey_black = False
    if shadowed and not _lit_white(_inset_shade(scene, w), w, soft_white):
        if not (greyed and _grey_black(scene, w, soft_grey, others, vivid)):
            return None
        grey_black = True
    if (black and soft_black is not None and not soft_black(w)) or (
            clashes(w, others, scene) or overlaps_any(scene, w, others)
            or in_size_doubt_of(scene, w, others)):
        return None
    amb = _soft_doubt_mm(scene, w, region, sub)
    w = replace(w, ambiguity_mm=amb, covering_ambiguity_mm=amb,
                ambiguity_deg=SOFT_DOUBT_DEG, covering_ambiguity_deg=SOFT_DOUBT_DEG)
    if grey_black and grey is not None:
        grey.append(w)
    return w


def _grey_black(scene: Scene, w: Candidate, soft_grey: Callable[[Candidate], bool] | None,
                others: Sequence[Candidate], vivid: Callable[[Candidate], bool] | None = None
                ) -> bool:
    """Whether the refit ``w`` of a dark pick named clear is black plastic lit grey
    (SOFT_GREY_BLACK): named clear by ``soft_grey``, its footprint darker than
    SOFT_BLACK_SHADE, no outline as seen of ``others`` (the readings so far) within
    GREY_ALONE_MM of its own, and a part of the table within SOFT_EDGE_DARK_MM of its outline
    as seen darker than SOFT_EDGE_DARK (the full shadow an opaque piece casts)."""
    crop = inset_crop(scene, w)
    if crop is None or soft_grey is None:
        return False
    inside = scene.shade[crop[0]][crop[1]]
    lit = float(median(inside))
    if lit >= GREY_BLACK_LIT or not soft_grey(w) or not grey_alone(w, others, vivid):
        return False
    dark = _ring_shades(scene, w, SOFT_EDGE_DARK_MM)
    if dark.size == 0:
        return False
    shadow = float(percentile(dark, SOFT_EDGE_DARK_Q))
    if lit < SOFT_BLACK_SHADE:
        return shadow < SOFT_EDGE_DARK
    # Lit up to GREY_BLACK_LIT: a near-black shaded face and a full shadow (GREY_BLACK_LIT).
    return (shadow < GREY_BLACK_DARK
            and float(percentile(inside, GREY_BLACK_FACE_Q)) < GREY_BLACK_DARK)


def grey_alone(w: Candidate, others: Sequence[Candidate],
               vivid: Callable[[Candidate], bool] | None = None) -> bool:
    """Whether no outline as seen of ``others`` lies within GREY_ALONE_MM of ``w``'s
    (SOFT_GREY_BLACK), those ``vivid`` names left out (GREY_BESIDE_VIVID)."""
    near = shapely.Polygon(w.outline_mm).buffer(GREY_ALONE_MM)
    return not any(near.intersects(shapely.Polygon(o.outline_mm))
                   and (vivid is None or not vivid(o)) for o in others)


def _inset_shade(scene: Scene, c: Candidate) -> float | None:
    """The median shade over ``c``'s footprint shrunk by BASE_INSET_MM (:func:`inset_crop`),
    or None where nothing of it is left in the view."""
    assert scene.shade is not None
    if (crop := inset_crop(scene, c)) is None:
        return None
    sl, m = crop
    return float(median(scene.shade[sl][m]))


def _lit_white(lit: float | None, c: Candidate, soft_white: Callable[[Candidate], bool]
               ) -> bool:
    """``c``'s footprint shade ``lit`` lies in SOFT_WHITE_SHADE and ``soft_white`` names it."""
    return lit is not None and SOFT_WHITE_SHADE[0] <= lit <= SOFT_WHITE_SHADE[1] and soft_white(c)


def edge_distance_window(grid: ViewGrid, edges: np.ndarray, pts_mm: np.ndarray, pad: int
                         ) -> tuple[np.ndarray, tuple[int, int]]:
    """The distance (px) to the nearest of the crisp ``edges`` (view-size bool) over the box of
    points ``pts_mm`` (table mm) in the view grown by ``pad`` px, and the box's corner (x0, y0)
    in view px: what :func:`_chamfer_refine` slides an outline on."""
    px = grid.to_px(np.asarray(pts_mm))
    x0, y0 = np.maximum(np.floor(px.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.ceil(px.max(axis=0)).astype(int) + pad
    win = edges[y0:y1, x0:x1]
    return cv2.distanceTransform((~win).view(np.uint8), cv2.DIST_L2, 3), (int(x0), int(y0))


def clipped_at(clipped: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The capped edge distance ``clipped`` (px: an edge_distance_window capped at
    SOFT_WHITE_CLIP_PX) at its integer pixels ``pts`` (..., 2: x, y), the cap where they fall
    off the window: how near a start's outline lies to the crisp edges."""
    h, w = clipped.shape
    ok = (pts[..., 0] >= 0) & (pts[..., 0] < w) & (pts[..., 1] >= 0) & (pts[..., 1] < h)
    return np.where(ok, clipped[np.clip(pts[..., 1], 0, h - 1), np.clip(pts[..., 0], 0, w - 1)],
                    SOFT_WHITE_CLIP_PX)


def _on_edges_fit(scene: Scene, c: Candidate, edges: np.ndarray,
                  least: float = SOFT_WHITE_EDGES) -> tuple[Size, Pose] | None:
    """The size and pose (table mm) whose outline as seen lies nearest the crisp ``edges``
    (view-size bool) near reading ``c``: ``c``'s own size refined from its pose, then each
    other size from the refined stern and tip (:func:`_chamfer_refine`); the one with the
    largest share of its outline on the edges (SOFT_WHITE_EDGES or more), else None."""
    grid = scene.grid
    dist, (x0, y0) = edge_distance_window(grid, edges, c.outline_mm, SOFT_WHITE_PAD_PX)
    dims = scene.pieces.dims
    pose = _chamfer_refine(scene, c.size, c.fit.pose, dist, (x0, y0), SOFT_WHITE_STEPS)
    tip = pose.tip_mm(dims(c.size).footprint_length_mm)
    tries = [(c.size, pose)]
    for z in Size:
        if z != c.size:
            tries += [(z, _chamfer_refine(scene, z, s, dist, (x0, y0), SOFT_WHITE_STEPS))
                      for s in (pose, Pose.with_tip(tip, pose.heading_deg,
                                                    dims(z).footprint_length_mm))]
    shares = [float(near_edges(grid, _outline_samples(scene, z, q), edges).mean())
              for z, q in tries]
    best = int(np.argmax(shares))
    return tries[best] if shares[best] >= least else None


def _edges_candidate(scene: Scene, size: Size, pose: Pose) -> Candidate:
    """A reading of ``size`` at ``pose`` fitted to the crisp edges, not to a map: no samples,
    cost MAX_COST (doubtful), σ at least DOUBT_FLOOR_MM."""
    f = FitResult(pose, DOUBT_FLOOR_MM, SOFT_DOUBT_DEG, math.nan, 0.0, MAX_COST, 0)
    params = np.array([pose.x_mm, pose.y_mm, math.radians(pose.heading_deg)])
    return Candidate(size, False, f, outline_mm(lying_local_3d(scene.pieces.dims(size)),
                                                params, scene.camera_mm), np.zeros(0, bool))


def _outline_samples(scene: Scene, size: Size, pose: Pose,
                     local: np.ndarray | None = None) -> np.ndarray:
    """SOFT_WHITE_SAMPLES points (table mm) evenly along the outline as seen of a lying
    ``size`` at ``pose`` (``local``: its body's vertices, when at hand)."""
    if local is None:
        local = lying_local_3d(scene.pieces.dims(size))
    params = np.array([pose.x_mm, pose.y_mm, math.radians(pose.heading_deg)])
    ring = outline_mm(local, params, scene.camera_mm)
    ring = np.vstack((ring, ring[:1]))
    seg = np.hypot(*np.diff(ring, axis=0).T)
    at = np.linspace(0.0, seg.sum(), SOFT_WHITE_SAMPLES, endpoint=False)
    ends = np.cumsum(seg)
    i = np.minimum(np.searchsorted(ends, at, side="right"), len(seg) - 1)
    f = (at - (ends[i] - seg[i])) / np.maximum(seg[i], 1e-9)
    return ring[i] + f[:, None] * (ring[i + 1] - ring[i])


def _outline_samples_many(scene: Scene, poses: list[Pose], local: np.ndarray) -> np.ndarray:
    """:func:`_outline_samples` of each of ``poses`` (body vertices ``local``), (K, N, 2): the
    outlines with the same number of corners worked out together, element by element the
    very operations of one call each (the sums per outline, which numpy may order otherwise
    along an axis, are taken one outline at a time)."""
    n = SOFT_WHITE_SAMPLES
    # fit.outline_mm of each pose: fit.seen_on_table's plain-float operations, in its order
    # (cx + (px + c·lx − s·ly − cx)·k, k = Cz / (Cz − z), cos and sin from math), worked out
    # elementwise for all poses together (each numpy op rounds as the float op does), then
    # each pose's hull as outline_mm takes it.
    lx, ly, lz = np.asarray(local, np.float64).T
    cx, cy, cz = np.asarray(scene.camera_mm, np.float64).tolist()[:3]
    k = cz / (cz - lz)
    th = [math.radians(p.heading_deg) for p in poses]
    c = np.array([math.cos(t) for t in th])[:, None]
    s = np.array([math.sin(t) for t in th])[:, None]
    px = np.array([float(p.x_mm) for p in poses])[:, None]
    py = np.array([float(p.y_mm) for p in poses])[:, None]
    seen = np.empty((len(poses), len(lx), 2))
    seen[..., 0] = cx + (px + c * lx - s * ly - cx) * k
    seen[..., 1] = cy + (py + s * lx + c * ly - cy) * k
    rings = [pts[cv2.convexHull(pts.astype(np.float32), clockwise=False,
                                returnPoints=False).ravel()] for pts in seen]
    out = np.empty((len(poses), n, 2))
    by_len: dict[int, list[int]] = {}
    for j, r in enumerate(rings):
        by_len.setdefault(len(r), []).append(j)
    idx = np.arange(float(n))
    for m, js in by_len.items():
        ring = np.stack([rings[j] for j in js])
        ring = np.concatenate((ring, ring[:, :1]), axis=1)  # (K, m + 1, 2), closed
        d = np.diff(ring, axis=1)
        seg = np.hypot(d[..., 0], d[..., 1])  # (K, m)
        # np.linspace(0, total, n, endpoint=False): arange(n) · (total / n) + 0.
        total = np.array([float(r.sum()) for r in seg])
        at = idx * (total / n)[:, None]
        at += 0.0
        ends = np.cumsum(seg, axis=1)
        # searchsorted(ends, at, side="right"): how many ends lie at or before each sample.
        i = np.minimum((ends[:, None, :] <= at[:, :, None]).sum(axis=2), m - 1)
        # Gathers by row and index (what np.take_along_axis does, without its ~10 numpy
        # calls each): the same elements.
        rows = np.arange(len(js))[:, None]
        seg_i = seg[rows, i]
        f = (at - (ends[rows, i] - seg_i)) / np.maximum(seg_i, 1e-9)
        lo = ring[rows, i]
        hi = ring[rows, i + 1]
        out[js] = lo + f[..., None] * (hi - lo)
    return out


def _chamfer_refine(scene: Scene, size: Size, pose: Pose, dist: np.ndarray,
                    origin: tuple[int, int], steps: tuple[tuple[float, float], ...]) -> Pose:
    """``pose`` moved (steepest descent at each of ``steps``, mm and degrees) to lower the mean
    distance (view px, clipped at SOFT_WHITE_CLIP_PX) of the outline samples of a lying
    ``size`` to the nearest crisp edge (``dist``: the window's distance map, its corner at
    view px ``origin``)."""
    h, w = dist.shape
    local = lying_local_3d(scene.pieces.dims(size))
    # The distances clipped once, framed by a 1 px border at the clip: a sample off the
    # window reads the clip through one gather (the same floats as a masked fill).
    framed = np.full((h + 2, w + 2), SOFT_WHITE_CLIP_PX)
    framed[1:-1, 1:-1] = np.minimum(dist, SOFT_WHITE_CLIP_PX)
    flat = framed.ravel()
    # A move back to where the search was is asked again after each step taken (x + m − m is
    # x again for these steps): answered from memory (the function is deterministic).
    known: dict[tuple[float, float, float], float] = {}

    def mean_dists(qs: list[np.ndarray]) -> list[float]:
        """The mean clipped distance of each pose (x, y, heading) of ``qs``, the poses not in
        memory worked out together (:func:`_outline_samples_many`)."""
        keys = [tuple(q.tolist()) for q in qs]
        todo = list(dict.fromkeys(k for k in keys if k not in known))
        if todo:
            samples = _outline_samples_many(scene, [Pose(*k) for k in todo], local)
            pts = np.round(scene.grid.to_px(samples) - origin).astype(int)
            at = np.clip(pts[:, 1], -1, h)
            at += 1
            at *= w + 2
            at += np.clip(pts[:, 0], -1, w)
            at += 1
            got = flat.take(at).reshape(len(todo), -1)
            # Each outline's mean on its own row: the sum of one call's samples.
            known.update((k, float(g.mean())) for k, g in zip(todo, got, strict=True))
        return [known[k] for k in keys]

    q = np.array([pose.x_mm, pose.y_mm, pose.heading_deg])
    best = mean_dists([q])[0]
    for mm, deg in steps:
        moves = np.array(((mm, 0, 0), (-mm, 0, 0), (0, mm, 0), (0, -mm, 0), (0, 0, deg),
                          (0, 0, -deg)))
        for _ in range(SOFT_WHITE_MOVES):
            vals = mean_dists([q + d for d in moves])
            i = int(np.argmin(vals))
            if vals[i] >= best - 1e-9:
                break
            best, q = vals[i], q + moves[i]
    return Pose(float(q[0]), float(q[1]), float(q[2]))


def _runs_off(region: np.ndarray, sl: tuple[slice, slice], off: np.ndarray,
              disc: np.ndarray) -> bool:
    """Whether ``region`` (bool on the window ``sl`` of the view) grown by ``disc`` reaches
    ``off`` (view-size bool) or the view's border (SOFT_OFF)."""
    grown = cv2.dilate(region.view(np.uint8), disc) > 0
    crop = off[sl]
    if crop.shape != region.shape:
        return True  # the window runs past the view's border
    return bool((crop & grown).any())


def _standing_seen(fit_scene: Scene, c: Candidate, region: np.ndarray, sub: ViewGrid) -> bool:
    """Whether the crisp ``region`` (bool on ``sub``) read softly as ``c`` is a standing
    piece's outline (SOFT_UPRIGHT_*): ``c`` points away from the camera's foot, as the apex of
    one standing is seen (within SOFT_UPRIGHT_DEG), and a standing pyramid fits the region
    (cost at most SOFT_UPRIGHT_COST on ``fit_scene``'s map) covering SOFT_UPRIGHT_MORE more
    of it than ``c`` does, or fitting SOFT_UPRIGHT_BETTER better than ``c`` when ``c``
    points within SOFT_UPRIGHT_BETTER_DEG of that way."""
    p = c.fit.pose
    cam = fit_scene.camera_mm
    away = math.degrees(math.atan2(p.y_mm - cam[1], p.x_mm - cam[0]))
    off = abs(angle_diff_deg(p.heading_deg, away))
    if off > SOFT_UPRIGHT_DEG:
        return False
    up = upright_fit(fit_scene, region, sub, math.inf)
    if up is None or up.fit.cost > SOFT_UPRIGHT_COST:
        return False
    return ((off <= SOFT_UPRIGHT_BETTER_DEG and up.fit.cost <= c.fit.cost - SOFT_UPRIGHT_BETTER)
            or _share_in(up, region, sub) >= _share_in(c, region, sub) + SOFT_UPRIGHT_MORE)


def _share_in(c: Candidate, region: np.ndarray, sub: ViewGrid) -> float:
    """The share of ``region`` (bool on ``sub``) inside ``c``'s outline as seen."""
    return np.count_nonzero(_covered_px(c, region, sub)) / max(np.count_nonzero(region), 1)


def _by_hand(scene: Scene, c: Candidate, unseen: np.ndarray | None) -> bool:
    """Whether ``c``'s footprint grown by COVER_GROW_MM reaches ``unseen`` (view-size bool:
    the hands' regions, which take in their shadows' near ends)."""
    if unseen is None:
        return False
    fp = scene.footprint(c)[0].buffer(COVER_GROW_MM)
    sl, m = scene.grid.polygon_crop([scene.grid.to_px(np.asarray(fp.exterior.coords))])
    return bool(unseen[sl][m].any())


def _darkened_as_clear(scene: Scene, c: Candidate, edges: np.ndarray | None = None,
                       found: np.ndarray | None = None) -> bool:
    """Whether ``c``'s footprint (shrunk by BASE_INSET_MM) is a clear piece's darkening of
    the table: its median shade in SOFT_SHADE, and the foreground score counting it as
    object (median at least FAINT_SCORE: its crisp darkening counted) or its shade a faint
    one (at least SOFT_FAINT_SHADE), or down to SOFT_RING_SHADE with the table round it lit
    over the estimate (SOFT_RING_LIT), or its outline on the crisp ``edges`` (view-size
    bool; SOFT_EDGE_SHARE), not a shadow's: no dark part of the table beside it, where the
    pieces found (``found``, view-size bool, their cover) are no table (SOFT_EDGE_OFF_FOUND)."""
    got = _footprint_shade_score(scene, c)
    if got is None:
        return False
    shade, score = got
    if not SOFT_SHADE[0] <= shade <= SOFT_SHADE[1]:
        return False
    if shade >= SOFT_FAINT_SHADE or score >= FAINT_SCORE:
        return True
    if shade >= SOFT_RING_SHADE and _ring_shade(scene, c) >= SOFT_RING_LIT:
        return True
    if edges is None or _on_edges_share(scene, c, edges) < SOFT_EDGE_SHARE:
        return False
    dark = _ring_shades(scene, c, SOFT_EDGE_DARK_MM, found)
    return dark.size > 0 and float(percentile(dark, SOFT_EDGE_DARK_Q)) >= SOFT_EDGE_DARK


def _muted_as_clear(scene: Scene, c: Candidate) -> bool:
    """Whether ``c``'s footprint (shrunk by BASE_INSET_MM), read on the desaturated pass, is
    as a clear piece mutes a coloured table (see "The desaturated pass's soft reading"
    above): counted as object by the foreground score (FAINT_SCORE) and no darkening under
    SOFT_FAINT_SHADE (a shadow on cloth), or not counted and a darkening, at most
    FAINT_MAX_SHADE (on wood; not bare wood)."""
    got = _footprint_shade_score(scene, c)
    if got is None:
        return False
    shade, score = got
    if score >= FAINT_SCORE:
        return shade >= SOFT_FAINT_SHADE
    return shade <= FAINT_MAX_SHADE


def inset_crop(scene: Scene, c: Candidate) -> tuple[tuple[slice, slice], np.ndarray] | None:
    """The view crop (slices) and mask of ``c``'s footprint shrunk by BASE_INSET_MM (clear of
    its outline's blur), or None where nothing of it is left in the view."""
    fp = scene.footprint(c)[0].buffer(-BASE_INSET_MM)
    if fp.is_empty or fp.geom_type != "Polygon":
        return None
    sl, m = scene.grid.polygon_crop([scene.grid.to_px(np.asarray(fp.exterior.coords))])
    return (sl, m) if m.any() else None


def _footprint_shade_score(scene: Scene, c: Candidate) -> tuple[float, float] | None:
    """The median shade and foreground score over ``c``'s footprint shrunk by BASE_INSET_MM,
    or None where nothing of it is left in the view."""
    assert scene.shade is not None
    if (crop := inset_crop(scene, c)) is None:
        return None
    sl, m = crop
    return float(median(scene.shade[sl][m])), float(median(scene.score[sl][m]))


def _on_edges_share(scene: Scene, c: Candidate, edges: np.ndarray) -> float:
    """The share of ``c``'s outline samples (their probes just outside, as seen) with a crisp
    edge (``edges``, view-size bool) within a pixel (SOFT_EDGE_SHARE); off-view ones count
    as without."""
    probe = c.fit.probe_mm
    if not len(probe):
        return 0.0
    return float(np.count_nonzero(near_edges(scene.grid, probe, edges))) / len(probe)


def _ring_shade(scene: Scene, c: Candidate) -> float:
    """The median shade (brightness over the table estimate's) of the ring SOFT_RING_MM
    outside ``c``'s outline as seen (SOFT_RING_LIT); 0 where the ring leaves the view."""
    ring = _ring_shades(scene, c, SOFT_RING_MM)
    return float(median(ring)) if ring.size else 0.0


def _ring_shades(scene: Scene, c: Candidate, mm: tuple[float, float],
                 off: np.ndarray | None = None) -> np.ndarray:
    """The shades (brightness over the table estimate's) of the ring from ``mm[0]`` to
    ``mm[1]`` outside ``c``'s outline as seen, within the view, less ``off`` (view-size
    bool) where given."""
    assert scene.shade is not None
    seen = shapely.Polygon(c.outline_mm)
    outer, inner = (seen.buffer(d) for d in mm)
    grid = scene.grid
    sl, m = grid.polygon_crop([grid.to_px(np.asarray(outer.exterior.coords)),
                               grid.to_px(np.asarray(inner.exterior.coords))])
    if off is not None:
        m = m & ~off[sl]
    return scene.shade[sl][m]


def _soft_doubt_mm(scene: Scene, c: Candidate, region: np.ndarray, sub: ViewGrid) -> float:
    """σ (mm) of a soft reading ``c`` of the crisp area ``region`` (bool on ``sub``): any size
    (:func:`_any_size_mm`), and, when it leaves a thick part of the area unexplained, the
    farthest point of the area from its stern or tip (a piece lying anywhere in it)."""
    amb = _any_size_mm(scene, c)
    if not _thick(unexplained_mask(region, sub, [c]), sub):
        return amb
    # The farthest point of the area from a point lies on its convex hull.
    pts, _ = cv2.findContours(region.astype(np.uint8), cv2.RETR_EXTERNAL,
                              cv2.CHAIN_APPROX_SIMPLE)
    hull = sub.to_mm(cv2.convexHull(np.concatenate(pts)).reshape(-1, 2).astype(np.float64))
    p = c.fit.pose
    ends = np.array([p.stern_mm, p.tip_mm(scene.pieces.dims(c.size).footprint_length_mm)])
    reach = float(np.linalg.norm(hull[None, :, :] - ends[:, None, :], axis=2).max())
    return max(amb, reach)


def _any_size_mm(scene: Scene, c: Candidate) -> float:
    """σ (mm) covering ``c`` read at any size from its stern (:func:`explain.size_span_mm`),
    and at least DOUBT_FLOOR_MM."""
    return max(DOUBT_FLOOR_MM, *size_span_mm(scene.pieces, c.size))


def _shorter_on_fit_map(scene: Scene, c: Candidate, others: Sequence[Candidate] = ()
                        ) -> Candidate:
    """``c`` (a reading on the crisp map) with its size ambiguity (both kinds) raised over
    each shorter reading from its tip or its stern that fits the scene's own fit map better
    than ``c`` refitted there, and well (joint cost at most GOOD_COST, edges against the
    lying ``others`` excused) or by SHORTER_FIT_GAIN at most SHORTER_FIT_COST
    (SHORTER_ON_FIT_MAP)."""
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    tip = c.fit.pose.tip_mm(d_c)
    p = c.fit.pose
    short = [z for z in Size if scene.pieces.dims(z).footprint_length_mm < d_c]
    starts = [(z, Pose.with_tip(tip, p.heading_deg, scene.pieces.dims(z).footprint_length_mm))
              for z in short] + [(z, p) for z in short]
    if not starts:
        return c
    own, *shorter = scene.fits([(c.size, p), *starts], give_up=SURE_GIVE_UP)
    near = [o for o in others if not o.upright]
    own_cost = joint_cost(own, near, scene)
    amb_mm, amb_deg = c.covering_ambiguity_mm, c.covering_ambiguity_deg
    for o in shorter:
        cost = joint_cost(o, near, scene)
        if cost < own_cost and (cost <= GOOD_COST or (cost <= SHORTER_FIT_COST
                                                      and own_cost - cost >= SHORTER_FIT_GAIN)):
            mm, deg = reading_gap(scene, o, c)
            amb_mm, amb_deg = max(amb_mm, mm), max(amb_deg, deg)
    return replace(c, ambiguity_mm=max(c.ambiguity_mm, amb_mm),
                   ambiguity_deg=max(c.ambiguity_deg, amb_deg),
                   covering_ambiguity_mm=amb_mm, covering_ambiguity_deg=amb_deg)


def _rivals_hidden_inside(scene: Scene, c: Candidate, cands: list[Candidate],
                          region: np.ndarray, sub: ViewGrid, covering: bool = False
                          ) -> Candidate:
    """``c`` with its all-rivals size ambiguity (``ambiguity_mm/deg``, which σ follows for a
    piece whose faces can vanish) raised over each shorter reading that fits nearly as well
    once its outline samples hidden inside the area (``region`` on ``sub``) are excused: a
    soft desaturated area does not tell where the piece ends (the note above crisp_pieces),
    nor a crisp one that takes in the piece's cast shadow (SHORTER_ON_FIT_MAP). ``covering``:
    its covering ambiguity too (σ follows that for a piece named a vivid colour)."""
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    rivals = []
    for o in [*cands, *size_swaps(scene, c)]:
        if o.upright or scene.pieces.dims(o.size).footprint_length_mm >= d_c:
            continue
        hidden = np.isnan(o.fit.sample_cost) & o.solid_outside
        if not hidden.any():
            continue
        inside = sub.mask_at(region, o.fit.probe_mm[hidden])
        solid = o.solid_outside.copy()
        solid[np.flatnonzero(hidden)[inside]] = False
        rivals.append(replace(o, solid_outside=solid))
    if not rivals:
        return c
    (out,) = with_ambiguity([c], rivals, scene)
    c = replace(c, ambiguity_mm=max(c.ambiguity_mm, out.ambiguity_mm),
                ambiguity_deg=max(c.ambiguity_deg, out.ambiguity_deg))
    if covering:
        c = replace(c, covering_ambiguity_mm=max(c.covering_ambiguity_mm, out.ambiguity_mm),
                    covering_ambiguity_deg=max(c.covering_ambiguity_deg, out.ambiguity_deg))
    return c


def _open_base_rivals(scene: Scene, c: Candidate, cands: list[Candidate], region: np.ndarray,
                      sub: ViewGrid, muted: np.ndarray) -> Candidate:
    """``c`` (in size doubt on a muted area) with its size ambiguity against only the
    readings whose base lies on the muted area ``muted`` (view-size bool) as little as a
    clear piece's open base does, when ``c``'s own does (at most MUTED_BASE of it): the
    others' bases lie on the piece's faces. Else ``c`` as it was."""
    mine = _muted_share(scene, c, muted)
    if mine is None or mine > MUTED_BASE:
        return c
    rivals = [o for o in [*cands, *size_swaps(scene, c)]
              if o.size == c.size or (_muted_share(scene, o, muted) or 0.0) <= MUTED_BASE]
    (out,) = with_ambiguity([c], rivals, scene, region, sub)
    # Its stern is read where the base's rim meets the wood: σ at least SNUG_END_MM.
    return out.in_doubt_of(SNUG_END_MM, 0.0)


def overlaps_any(scene: Scene, c: Candidate, others: list[Candidate],
                 share: float = 0.0) -> bool:
    """Whether ``c``'s footprint overlaps any of ``others``' by more than ``share`` of its
    own area (by default by any area)."""
    fc, (x0, y0, x1, y1) = scene.footprint(c)
    least = share * fc.area
    for o in others:
        fo, (a0, b0, a1, b1) = scene.footprint(o)
        if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1 and fc.intersection(fo).area > least:
            return True
    return False


def in_size_doubt_of(scene: Scene, c: Candidate, others: Sequence[Candidate],
                     share: float = CLASH_SHARE) -> bool:
    """Whether ``share`` (CLASH_SHARE) or more of ``c``'s footprint lies where one of
    ``others`` in doubt of its size (covering σ over SIZE_DOUBT_MM) could lie
    (:func:`size_hull`, table mm). Such a reading may be that piece's other end (5197's clear
    medium read as a small at its tip, and again as a small across its stern)."""
    fc, (x0, y0, x1, y1) = scene.footprint(c)
    for o in others:
        if o.upright or o.covering_ambiguity_mm <= SIZE_DOUBT_MM:
            continue
        hull = size_hull(o.fit.pose, o.size, scene.pieces)
        a0, b0, a1, b1 = hull.bounds
        if (a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1
                and fc.intersection(hull).area >= share * fc.area):
            return True
    return False


def _muted_share(scene: Scene, c: Candidate, muted: np.ndarray) -> float | None:
    """The share of ``c``'s base face as seen, shrunk by BASE_INSET_MM, on ``muted``
    (view-size bool); None when nothing of it is left (a base seen edge-on)."""
    if c.upright or not len(c.fit.probe_mm):
        return None
    base = shapely.convex_hull(shapely.MultiPoint(_base_seen(scene, c))).buffer(-BASE_INSET_MM)
    if base.is_empty or base.geom_type != "Polygon":
        return None
    sl, inside = scene.grid.polygon_crop([scene.grid.to_px(np.asarray(base.exterior.coords))])
    n = np.count_nonzero(inside)
    return float(np.count_nonzero(muted[sl] & inside)) / n if n else None


def _without_lit_shadows(left: np.ndarray, shade: np.ndarray, score: np.ndarray,
                         min_px: float,
                         clear: Callable[[tuple[slice, slice], np.ndarray], bool] | None = None,
                         whole: list[np.ndarray] | None = None,
                         window: tuple[slice, slice] | None = None) -> np.ndarray:
    """``left`` (view-size bool) without the shadow pixels of its areas (of at least
    ``min_px`` pixels) lit brighter than the table (a white or vivid piece: LIT_QUANTILE of
    the brightness over the table's at least PALE_LIT): its crisp contact shadow is enclosed
    with it and would grow it (a white medium read as a large). Its pixels darker than
    PALE_PIX × the table that the foreground score takes for shadow (under FAINT_SCORE: a
    vivid piece's own dim face scores strongly) go; clear pieces, which darken the table,
    are not lit and keep theirs. With ``clear(window, area)`` (whether a lit area is of a
    clear piece's colour) and ``whole``: such areas, uncut, are appended to ``whole`` as one
    view-size bool mask (``lit_whole``, see GREY_LIT). ``window``: a window of the view
    holding all of ``left``, as :func:`_nonzero_window` makes it (its areas traced there)."""
    out = left
    kept = None
    for c0, r0, region in (_areas(left.view(np.uint8), min_px) if window is None else
                           _areas(left[window].view(np.uint8), min_px,
                                  window=(window, left.shape))):
        sl = (slice(r0, r0 + region.shape[0]), slice(c0, c0 + region.shape[1]))
        s = shade[sl]
        if np.quantile(s[region], LIT_QUANTILE, method="lower") < PALE_LIT:
            continue
        if clear is not None and whole is not None and clear(sl, region):
            if kept is None:
                kept = np.zeros(left.shape, bool)
                whole.append(kept)
            kept[sl] |= region
        if out is left:
            out = left.copy()
        out[sl] &= ~(region & (s < PALE_PIX) & (score[sl] < FAINT_SCORE))
    return out


def _areas(mask: np.ndarray, min_px: float, pad: int = 0,
           window: tuple[tuple[slice, slice], tuple[int, int]] | None = None
           ) -> list[tuple[int, int, np.ndarray]]:
    """The connected areas of a 0/1 uint8 view mask with at least ``min_px`` pixels, each as
    (first column, first row, its bool mask on its bounding box grown by ``pad``).
    ``window``: (its row and column slices, the view's shape) when ``mask`` is a window of
    the view mask holding all its pixels, WINDOW_PAD_PX + ``pad`` inside its edges but where
    it meets the view's (:func:`_nonzero_window`): the same areas, in view px, at the cost of
    tracing the window only."""
    if window is None:
        (y0, x0), (rows, cols) = (0, 0), mask.shape
    else:
        (y0, x0), (rows, cols) = (window[0][0].start, window[0][1].start), window[1]
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                   offset=(x0, y0))
    out = []
    for cnt in contours:
        x, y, w, h = cv2.boundingRect(cnt)
        if w * h < min_px:
            continue
        c0, r0 = max(x - pad, 0), max(y - pad, 0)
        c1, r1 = min(x + w + pad, cols), min(y + h + pad, rows)
        region = np.zeros((r1 - r0, c1 - c0), np.uint8)
        cv2.drawContours(region, [cnt], -1, 1, thickness=cv2.FILLED, offset=(-c0, -r0))
        region = region.view(bool) & mask[r0 - y0:r1 - y0, c0 - x0:c1 - x0].view(bool)
        if np.count_nonzero(region) >= min_px:
            out.append((c0, r0, region))
    return out


def _nonzero_window(mask: np.ndarray, grow: int) -> tuple[slice, slice] | None:
    """The window (row and column slices) of the view mask ``mask``'s nonzero pixels' bounds
    grown by ``grow`` px, clipped to the view; None when it has none. A pass's morphology
    and contour tracing on that window give the pixels they give on the whole view where
    the window's edges lie ``grow`` px off every pixel of the mask (or on the view's edge):
    a crisp pass's areas are a few % of the view (see WINDOW_PAD_PX)."""
    in_rows = np.flatnonzero(mask.any(axis=1))
    if not in_rows.size:
        return None
    r0, r1 = int(in_rows[0]), int(in_rows[-1]) + 1
    in_cols = np.flatnonzero(mask[r0:r1].any(axis=0))
    c0, c1 = int(in_cols[0]), int(in_cols[-1]) + 1
    rows, cols = mask.shape
    return (slice(max(r0 - grow, 0), min(r1 + grow, rows)),
            slice(max(c0 - grow, 0), min(c1 + grow, cols)))


def _grown_within(mask: np.ndarray, sl: tuple[slice, slice], disc: np.ndarray) -> np.ndarray:
    """``mask`` (view-size 0/1 uint8) dilated by ``disc``, on the view window ``sl`` only (bool):
    the same pixels as dilating the whole view, computed on the window grown by the disc's
    reach, not on the whole view."""
    r = disc.shape[0] // 2
    rows, cols = mask.shape
    y0, y1 = max(sl[0].start - r, 0), min(sl[0].stop + r, rows)
    x0, x1 = max(sl[1].start - r, 0), min(sl[1].stop + r, cols)
    grown = cv2.dilate(mask[y0:y1, x0:x1], disc, borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return grown[sl[0].start - y0:sl[0].stop - y0, sl[1].start - x0:sl[1].stop - x0] > 0


def _peel_min_mm2(scene: Scene, size: Size = Size.MEDIUM) -> float:
    """The least a peeled part must cover (mm²): what a ``size`` piece lying along a
    neighbour keeps when the PEEL_MM strip along its long side is peeled off (a part smaller
    than a medium keeps is no medium or large; PEEL_SMALL)."""
    d = scene.pieces.dims(size)
    return d.base_w_mm * d.footprint_length_mm / 2 - PEEL_MM * d.long_side_mm


def peel_hidden(scene: Scene) -> float:
    """The share of its outline a piece lying along a neighbour hides: one long side of its
    footprint (the same share for every size: the pieces are alike in shape)."""
    d = scene.pieces.dims(Size.MEDIUM)
    return d.long_side_mm / (2.0 * d.long_side_mm + d.base_w_mm)


def _worth_fitting(region: np.ndarray, incover: np.ndarray, max_contact: float = MAX_CONTACT,
                   round_max_px: float | None = None) -> bool | None:
    """Whether an area could be a piece of its own: not round or square (a chit, a coin, a
    die: its convex hull's circularity 4πA/P² at least ROUND_MIN; a lying pyramid's outline,
    a triangle or a pentagon with its raised base, stays under it: False), and not hugging
    the pieces found along more than MAX_CONTACT of its border (their shadow: None). With
    ``round_max_px``, an area of more pixels is never judged round (several pieces touching,
    ROUND_MIN)."""
    hull = cv2.convexHull(row_ends(region))
    perimeter = cv2.arcLength(hull, True)
    if (round_max_px is None or np.count_nonzero(region) <= round_max_px) and (
            4.0 * np.pi * cv2.contourArea(hull) >= ROUND_MIN * perimeter * perimeter):
        return False
    ring = cv2.dilate(region.view(np.uint8), np.ones((5, 5), np.uint8)).view(bool) & ~region
    if ring.any() and np.count_nonzero(incover[ring]) > max_contact * np.count_nonzero(ring):
        return None
    return True


def _scored(cands: list[Candidate], region: np.ndarray, sub: ViewGrid, incover: np.ndarray,
            grid: ViewGrid, base_open: bool = False, max_hidden: float = MAX_HIDDEN,
            max_cost: float = GOOD_COST, own: np.ndarray | None = None
            ) -> list[tuple[float, float, Candidate]]:
    """The lying fits among ``cands`` with cost at most ``max_cost`` (good ones by default)
    that hide at most ``max_hidden`` of their outline (an
    edge against a piece found, ``incover`` on ``grid``, is excused), each as (−share of
    ``region`` explained × (1 − cost / MAX_COST), cost, fit), best first: most of the area
    explained per doubt (as explain.select: a smaller model snug inside explains less).
    ``base_open``: the cost is the lower of that and :func:`open_base.open_base_cost`.
    ``own`` (bool on ``sub``): a hidden sample whose outside lies on it is excused too."""
    total = max(np.count_nonzero(region), 1)
    out = []
    for c in cands:
        if c.upright or not len(c.fit.sample_cost):
            continue
        if np.isnan(c.fit.sample_cost).mean() > max_hidden:
            continue
        excused = grid.mask_at(incover, c.fit.probe_mm)
        if own is not None:
            excused |= sub.mask_at(own, c.fit.probe_mm)
        cost = c.fit.cost_given(excused)
        open_base = False
        if base_open and cost > GOOD_COST:
            open_base = (ob := open_base_cost(c, excused)) < cost
            cost = min(cost, ob)
        if cost > max_cost:
            continue
        mask = np.zeros(region.shape, np.uint8)
        cv2.fillPoly(mask, [np.round(sub.to_px(c.outline_mm)).astype(np.int32)], 1)
        inside = np.count_nonzero(region & (mask > 0))
        if open_base and inside < BASE_FILL * shapely.Polygon(c.outline_mm).area * (
                sub.px_per_mm**2):
            continue
        share = inside / total
        out.append((-share * (1.0 - cost / MAX_COST), cost, c))
    out.sort(key=lambda t: t[0])
    return out
