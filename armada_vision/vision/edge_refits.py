"""Refits to the crisp edges that read white and grey pieces where the fit map cannot.

A white piece lit like a grey table (laminate) loses its lit faces on the fit map, and a black
piece whose face mirrors the light is lit grey and takes its shadow in; their outlines are still
crisp. Each rule here refits a lying piece of each size to the crisp edges
(:func:`~armada_vision.vision.crisp._chamfer_refine`) and reads the size or place whose outline
lies on them: a white piece from its shadow's clear reading (:func:`white_by_shadow`), a white
or black reading in doubt at the size whose outline is whole on the edges
(:func:`white_size_by_edges`, :func:`grey_black_size_by_edges`), a white piece against a piece
found where no pass read it (:func:`white_beside_found`), and a white or clear reading in doubt
moved onto its own outline (:func:`edges_refit`). Every reading made or moved here is in
doubt: its size or place comes from the edges, not a fit. Split from
:mod:`~armada_vision.vision.detect` (session 40), whose ``find_pieces`` calls them.

Frames: table mm (+y away from the viewer); view px of the scene's grid (x right, y down).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import replace

import cv2
import numpy as np
import shapely

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.base_quad import ahead_distance_px
from armada_vision.vision.calibrate import TableCalibration
from armada_vision.vision.colors import classify_color, darker_than_clear, value_share_of_ring
from armada_vision.vision.crisp import (
    DOUBT_FLOOR_MM,
    GREY_ALONE_MM,
    GREY_BLACK_LIT,
    ROUND_MIN,
    SOFT_WHITE_CLIP_PX,
    SOFT_WHITE_STEPS,
    WINDOW_PAD_PX,
    _areas,
    _chamfer_refine,
    _edges_candidate,
    _grown_within,
    _inset_shade,
    _left_of,
    _nonzero_window,
    _outline_samples,
    _outline_samples_many,
    clipped_at,
    edge_distance_window,
    in_size_doubt_of,
    inset_crop,
    overlaps_any,
)
from armada_vision.vision.explain import unexplained_mask
from armada_vision.vision.fit import ViewGrid, lying_local_3d, sample_costs_at
from armada_vision.vision.hands import _skin_share
from armada_vision.vision.look import COLOURED_TABLE_SAT, colour_namer, table_hue_sat
from armada_vision.vision.open_base import near_edges, shades_in
from armada_vision.vision.order import median, percentile
from armada_vision.vision.scene import GOOD_COST, Candidate, Scene, clashes, unsure
from armada_vision.vision.segment import TableView
from armada_vision.vision.shadows import _cast_hull, cast_offset
from armada_vision.vision.types import DetectedPiece

# A white piece lit like the laminate (issue 4, session 38, white48; 8272-set 8298, 8560-set
# 8590, 8848-set 8910, 9424-set 9486, 9712-set 9948, 10000-set 10009): its lit faces are the
# table's shade, so the passes read only its shaded face and its shadow, as a clear piece in
# doubt 9-25 mm off toward the shadow and turned 14-28° (a miss and a false piece). Its
# outline is still crisp: white_by_shadow refits a lying piece of each size to the crisp
# edges (crisp._chamfer_refine, as crisp._on_edges_fit does) from the start, of those shifted
# by SHADOW_WHITE_SHIFTS_MM in x and y and turned by SHADOW_WHITE_TURNS_DEG round the clear
# reading, whose outline lies nearest the edges (SHADOW_WHITE_REFINED per size: each refit
# ~1.5 ms; three per size found no more pieces); the refit with the most of its outline on the
# edges (SHADOW_WHITE_EDGES or more: the white pieces 0.85-1.0) is taken when its footprint is
# lit like the table (inset median shade at least SHADOW_WHITE_LIT: the white pieces
# 1.03-1.23; the shadow's own refits 0.55-0.88, a white small fitted on 8405's shadow's outer
# edge 0.97) and named white, not clashing with or overlapping another reading. The clear
# reading must be darkened (median shade under SHADOW_WHITE_PAST: the shadows 0.56-0.86 past
# the white piece; a clear piece lit like the table is not tried) and what it covers past the
# white piece too. It replaces the clear reading, in doubt (σ at least DOUBT_FLOOR_MM,
# crisp._edges_candidate), and is no bare table (lit_table): its outline is crisp and it
# casts a shadow. Only on a grey table (COLOURED_TABLE_SAT). A shadow lies past its piece
# away from the light: the white piece must lie from the clear reading toward the light's
# offset (cast_offset), else nothing is changed. The lit bar stands a hair under the table's
# shade (issue 4, session 46, recallwhite56): the 11728-set's 11844 white medium, read as a
# false clear medium on its shadow, refits whole on the edges (share 1.0, 0.5 mm from the
# truth) with its inset median 0.999, just under the table's 1.0 (the 10288-set's 10442,
# 0.984, a white medium too); under SHADOW_WHITE_LIT stay the shadow refits (0.55-0.88),
# 8405's outer-edge small (0.97, white48) and the 8272-set's 8505, a clear medium's small
# refit named white (0.929: no bar under it is safe).
SHADOW_WHITE_SHIFTS_MM = (-20.0, -16.0, -12.0, -8.0, -4.0, 0.0, 4.0, 8.0)
SHADOW_WHITE_TURNS_DEG = (-30.0, -20.0, -10.0, 0.0, 10.0, 20.0, 30.0)
SHADOW_WHITE_REFINED = 1
SHADOW_WHITE_EDGES = 0.8
SHADOW_WHITE_LIT = 0.98
SHADOW_WHITE_PAD_PX = 40
SHADOW_WHITE_PAST = 0.9
# A white piece on a grey table read at the wrong size (issue 4, session 39, white49; the
# 8272-set's 8555, the 9712-set's 9826, 9971, 9992, the 8560-set's 8691, 8788, the 10288-set's
# 10328, 10396, 10482): lit like the laminate, its lit end is lost on the fit map, so a
# shorter size sits inside it (both ends 4-7 mm short) or a longer one takes in its shadow,
# in doubt (σ 10-99 mm) but at the wrong size; the true size's fit on the map costs more
# (0.5-0.9) than the wrong one's (0.43-0.58). Its outline is still crisp: refitted to the
# crisp edges (crisp._chamfer_refine) from its stern, its tip and its middle, the true size
# lies with all of its outline on them (share 1.0, 0.1-1.4 mm from the truth), the read one
# 0.84-0.96. A white reading in doubt (_unsure or σ at least DOUBT_FLOOR_MM) is read at
# another size when that size's refit has WHITE_EDGES_WHOLE of its outline on the edges or
# more and beats the read size's (and every other size's) by WHITE_EDGES_MARGIN (3 of the 80
# samples): of the 57 white readings in doubt on the 9712-set logged, none read at its true
# size had another size's refit beat its own (closest: 0.975 against 0.988, 0.988 against
# 1.0), and an even tie (8537's small and medium, both 1.0) is left as read. On wood the
# grain hides the edges (shares 0.2-0.35): no size is whole there. The new reading is in
# doubt as the shadow's white is (σ at least DOUBT_FLOOR_MM, crisp._edges_candidate): its
# size from the edges, its place not fitted on the map. First only on a grey table
# (COLOURED_TABLE_SAT), as white_by_shadow; on a coloured one too since session 42
# (WHITE_EDGES_COLOURED).
WHITE_EDGES_WHOLE = 0.97
WHITE_EDGES_MARGIN = 0.03
# ... and a shorter size only when its outline lies on the edges at every sample: a clear
# piece named white shows its open base's inner rim through its walls, a shorter outline
# nested at its tip that lies on the edges nearly all along (the 9136-set's 9311, a clear
# large named white at its size, share 0.900, its medium 0.988 = 79 of 80: read as a medium,
# merge of session 39), while a white piece read long has taken its shadow in and its own
# outline is whole (share 1.0 for the five read shorter on the tuning sets: the 8272-set's
# 8555, the 10288-set's 10396, the 9712-set's 9918, the 9136-set's 9281 and 9397).
WHITE_EDGES_SHORTER = 1.0
WHITE_EDGES_PAD_PX = 40
# A white reading shorter than the longest size is asked too while not yet in doubt, for a
# longer size only (issue 4, session 42, whitesize52): explain_region's reading of a white
# piece lit like the laminate, its lit end lost on the fit map, sits inside it a size short
# at a fit good enough (cost 0.13-0.35) to be in no doubt when asked here; detect._piece
# raises its σ later (19.8 mm: its face goes on past its tip, every other size's reach), at
# the wrong size (the 10864-set's 10915, a medium read as a small; the 10288-set's 10482 and
# the check set 5968's 6154, larges read as a medium and a small). Refitted to the crisp
# edges the true size lies whole on them (share 0.975-1.0) and the read one does not
# (0.81-0.83). Never shorter: a white reading in no doubt has not taken a shadow in. Asked
# only when its face goes on past its tip (detect._white_past_tip, the test that raises its σ
# later): asking every white reading read short cost +2.8 % instructions per detect, and it
# mended 10482 too (a large whose σ another of _piece's tests raises), now left as read.
WHITE_EDGES_ASK_SHORT = True
# A reading in doubt that lies with WHITE_EDGES_AGAIN of its footprint or more inside the
# whole size's outline is the same white piece read again, its shaded face or shadow read as
# a second piece: it gives way to the new reading rather than holding it off (the 11440-set's
# 11678 and the 9712-set's 9916, mediums read as smalls with a second small (white or black,
# in doubt) 0.61-0.67 inside the medium's outline; the check set 5104's 5372, two white
# smalls each 0.54-0.77 inside it). A neighbour the white piece touches lies outside its
# outline but for fitting noise (8747's cyan medium: 0.07 inside), so it still holds the
# swap off.
WHITE_EDGES_AGAIN = 0.5
# ... and a neighbour's footprint overlapping the whole size's outline by a sliver, at most
# WHITE_EDGES_SLIVER of that outline's area, is fitting noise where the two touch (the check
# set 5104's 5180: a medium read as a small whose medium refit grazes a yellow large's
# footprint by under 0.01 of its area; 8560's 8747, its cyan neighbour 0.07, is still held).
# The first refits' guard of white_beside_found lets such a sliver through too (session 59,
# recallwhite69): the 15472-set's 15530, a white medium against an orange one, first refit
# 0.975 on the edges 0.006 inside the orange reading, was dropped, its next refit whole at the
# truth; the cost bench's 1003 (a blue large's shadow, its small refit 0.061 inside the blue
# reading) is still held, and the 13168-set's 13370 (0.022) too (its refit lit 0.899 would be
# turned down anyway).
WHITE_EDGES_SLIVER = 0.02
# On a coloured table too (felt, cloth; issue 4, session 42, whitesize52): white plastic
# stands off a coloured table as well as off the laminate, and the crisp edges show its
# outline there (the 11728-set's 11729, a white large on felt read as a medium in doubt, large
# share 1.0 against 0.963; the 8272-set's 8273, a white small on cloth read as a medium, small
# 1.0 against 0.86). On wood the grain hides the edges (every size 0.2-0.45): no size is whole.
WHITE_EDGES_COLOURED = True
# A black piece lit grey on a grey table read a size long (issue 4, session 40, opaque50; the
# 8560-set's 8736, the 9136-set's 9264 and 9327, the 10000-set's 10032 and 10110, the
# 10288-set's 10482 (two), the 10576-set's 10632, 10664 and 10681, the 10864-set's 11115):
# its tip points at the light (headings 214-262°, the light's azimuth ~232°), its wide face
# mirrors it (lit 0.5-0.85 of the table, named clear), and the fit takes in its full shadow
# behind the stern: one size long, in doubt (σ 10-51 mm). Its outline is still crisp:
# refitted to the crisp edges as a white piece's (_edge_shares), the true size lies with all
# of its outline on them (share 1.0, one 0.988), the read one 0.84-0.94. So a clear or black
# reading in doubt on a grey table is read a size shorter on a white one's terms
# (WHITE_EDGES_SHORTER: the shorter outline whole on the edges, beating every other size by a
# margin), in doubt (crisp._edges_candidate), named as before; never longer (no
# black piece was read short so). A clear piece read short shows its open base's inner
# outline nested in its walls, whole on the edges too (the 10288-set's 10514: two clear
# larges read as mediums on the way, later lengthened, whose smalls were 1.0 there): a longer
# size then lies on the edges better than the read one (0.91-0.95 against 0.83-0.94), where a
# black piece read long has no longer size or a worse one (0.55-0.59); such a reading is left.
# Nor is a clear piece lit like the table whose inner outline nests at its tip on the edges
# (the 10000-set's 10037: a clear large read at its size, its medium 1.0 against 0.963): the
# shorter footprint must be darker than GREY_BLACK_LIT, as black plastic mirroring the light
# is (crisp; the black pieces above 0.48-0.86, 10037's medium 0.96).
# The shortened reading is not lengthened again by the strip passes that follow
# (clear_tip_longer took 10681's medium back to the large the shadow gives).
GREY_BLACK_EDGES_SHORTER = 1.0
# ... beating every other size's by GREY_BLACK_EDGES_MARGIN (more than 4 of the 80 samples):
# the black pieces' read outlines cross their shadow's soft end and are beaten by 0.0625-0.15
# (5-12 samples); a clear piece read at its size lies nearly whole on its own outline while
# its open base's inner outline is whole (1.0), beaten by 0.037-0.05 (the 10000-set's 10037
# and the 9136-set's 9151, clear larges at 0.963; the check set 5104's 5222 and 5358, a clear
# medium and large at 0.95). And only the next shorter size: a shadow adds less than a size's
# length (5358's inner outline was a small's, two sizes short).
GREY_BLACK_EDGES_MARGIN = 0.06
# ... and only when its heading lies within GREY_BLACK_LIGHT_DEG of the light's azimuth (the
# offset of shadows.cast_offset): its tip toward the light is what makes its face mirror it and
# its shadow fall behind its stern (the black pieces above 214-257°, the light at ~230°). A
# clear piece on darker laminate pointing away from it shows its open base's inner outline
# whole on the edges, dark inside, its own outline 5 samples short (the 8848-set's 8994: a
# clear medium read right, heading 72°, read as a small in the merge of session 40).
GREY_BLACK_LIGHT_DEG = 60.0

# A white piece lit like the grey table against a piece found (issue 4, session 40, white50;
# the 8848-set's 8972, the 10576-set's 10646 and 10700): touching a coloured piece the region's
# passes read, the region is taken as explained by it, and on a grey table the white piece's
# lit faces are not pale enough over the table for whites_left (PALE_SHADE) nor vivid for
# colours_left; no pass returns a candidate near it. Its outline is crisp: an area the
# readings leave in a read region (at least WHITE_BESIDE_MIN_AREA of a small's footprint: its
# shaded face and shadow, 1.09-2.1 for the three; most neighbours' shadows left are 0.6-0.75)
# is refitted to the crisp edges (crisp._chamfer_refine) from starts along its principal axis
# and across it (WHITE_BESIDE_TURNS_DEG), each size's footprint centred on the area and
# shifted along by WHITE_BESIDE_ALONG of its length; of each size the start whose outline lies
# nearest the edges is refined, and when that refit has WHITE_BESIDE_PROMISE of its outline
# on the edges (the three's true sizes 0.887-1.0) the next ones too, up to
# WHITE_BESIDE_REFINED (fewer missed 10646's medium: its best start was the 5th, 6 mm off at
# 4 refits; each refit ~2-3 ms: refitting every size's 6 starts cost +28 % instructions per
# detect), and only when the first refits' best clashes with no reading and overlaps none by
# more than a sliver (WHITE_EDGES_SLIVER; a neighbour's shadow's area ends there: +3.0 %
# without that). The best size is read
# when its outline lies whole on the edges (WHITE_EDGES_WHOLE) and beats every other size's
# by WHITE_EDGES_MARGIN (as white_size_by_edges), its footprint is lit like the table (inset
# median shade at least WHITE_BESIDE_LIT: the white pieces 0.975-1.15; shadows' refits
# 0.55-0.88, see SHADOW_WHITE_LIT), it is named white and clashes with and overlaps no
# reading. In doubt (σ at least DOUBT_FLOOR_MM, crisp._edges_candidate). Only on a grey table
# (COLOURED_TABLE_SAT): on a coloured one whites_left reads it.
WHITE_BESIDE_MIN_AREA = 1.0
WHITE_BESIDE_REACH_MM = 25.0
WHITE_BESIDE_TURNS_DEG = (-110.0, -90.0, -70.0, -20.0, 0.0, 20.0, 70.0, 90.0, 110.0,
                          160.0, 180.0, 200.0)
WHITE_BESIDE_ALONG = (-0.25, 0.0, 0.25)
WHITE_BESIDE_REFINED = 6
WHITE_BESIDE_LIT = 0.95
WHITE_BESIDE_PROMISE = 0.85
# ... and alone (issue 4, session 41, whitelam51; the 10576-set's 10605 and 10770, the
# 10864-set's 11085, the 8560-set's 8673, white pieces alone on laminate): with no piece beside
# it, its region is its shaded face and shadow (400-1200 mm², its middle 5-15 mm off the
# piece's toward the shadow), which no pass reads (explain_region fits nothing there), and it
# is left empty. Refitted to the crisp edges as above, but from starts round the region, not
# along its axis (that axis is the shadow's): each size's footprint centred on the region's
# middle, shifted by WHITE_ALONE_SHIFTS_MM in x and y and turned every WHITE_ALONE_TURN_DEG, the
# WHITE_ALONE_REFINED starts whose outlines lie nearest the edges refined (the four white
# pieces' true sizes then lie whole on them, 1.0). Read as white_beside_found reads (whole on
# the edges, beating every other size by WHITE_EDGES_MARGIN, clashing with no reading; in
# doubt), named white, when its lit face is brighter than the table: the WHITE_ALONE_FACE_Q-th
# percentile of its inset footprint's shade at least WHITE_ALONE_FACE (the four 1.16-1.51; two
# of them named clear, their shaded face the larger, median 0.76-0.81). Clear plastic passes
# the table's light dimmed through its walls: clear smalls whose refit lies whole on their
# outline, named white and lit like the table (the 10576-set's 10842, median 0.96, which the
# soft pass reads, and the 10000-set's 10272, 0.93), reach 0.93-0.96 there; the whole refits
# named clear on the 10000-set (clear pieces, a black large, shadows, white dice) 0.52-0.85.
# A clear face mirroring the light can pass it: the 10864-set's 11108, a clear large missed
# before (1.28, named white by classify_color too), is now read as a white one, in doubt.
# Not where any part of its inset footprint is darker than WHITE_ALONE_DARK beyond
# WHITE_ALONE_DARK_SHARE of it: a white die's black pips (the 10000-set's 10212: a 16 mm white
# die whose small refit lies 0.963 on its edges, named white, 75th percentile 1.07, pips 0.036
# of it under 0.4), while a white piece's shaded face keeps 0.55 of the table's shade or more
# (none of the four has a pixel under 0.4).
# ... or nearly whole (issue 4, session 43, white53): a white piece alone on the laminate,
# most often seen from a tilted camera (22-35°), loses its lit side's edge against the table,
# so its true size's refit lies only 0.91-0.96 on the edges, still beating every other size's
# by WHITE_EDGES_MARGIN or more, and its lit face is the table's (75th percentile 0.89-1.06,
# under WHITE_ALONE_FACE): the 10288-set's 10401 and the 9712-set's 9873, 9916 (0-10°) and
# 9969. Read when its outline lies WHITE_ALONE_NEAR_WHOLE on the edges, beats every other size
# by WHITE_EDGES_MARGIN, passes every gate above but the lit face's, and classify_color names
# it white, not merely clear: the seven refits as near on the 10000-set's laminate (the face
# test off) are all named clear, one of them a white small (10155), the others clear pieces,
# shadows and bare table; four white pieces named clear (11661, 12045, 10155, 8318) are left.
# Nor where the darkest tenth of its inset footprint (WHITE_ALONE_NEAR_SHADE_Q) is darker than
# WHITE_ALONE_NEAR_SHADE: a lying white piece's shaded face stays near the table's shade (the
# four 0.77-0.86; the whole ones found before 0.68-0.79), a shadow does not: the 9712-set's
# 9837, a white small standing on the laminate (not read standing), whose lying small refit,
# 0.9 on the edges and named white, took in its long shadow (0.58): a false white small.
# Nor where its first quartile (WHITE_ALONE_NEAR_FACE_Q) is as bright as the table
# (WHITE_ALONE_NEAR_FACE): a lying piece shows its shaded face (the four 0.84-0.89), a die's
# lit top fills the footprint: the 10576-set's 10763, a white die showing two pips (under
# WHITE_ALONE_DARK_SHARE), whose small refit lay 0.938 on its edges, named white (1.03).
# ... and a whole refit whose lit face is the table's (issue 4, session 57, recallwhite67): the
# whole tier's lit-face test (WHITE_ALONE_FACE) dropped it, while the same refit lying 0.96 on
# the edges would have been asked the nearly whole tier's tests below: a whole outline was held
# to more than a broken one. It is asked those (named white by classify_color, not heading from
# the camera's foot, the darkest tenth not a shadow's, the first quartile not a die's lit top).
# The 12880-set's 13011: a white large alone on the laminate (1280×720, 22-35°), whole at 0.975
# (medium 0.84, small 0.91), named white, 75th percentile 1.083 (under 1.1), darkest tenth
# 0.846, first quartile 0.865, 145° off radial: read 2.0 mm off, in doubt. Of the 25 white
# misses alone or beside a piece on the laminate at 720p on the thirty base files, the other
# whole refits fail those tests as they would nearly whole (14553's large, 1.0, named clear;
# 12657's small, 1.0, darkest tenth 0.63; 15285's small, 0.99, named clear, a die's dark).
WHITE_ALONE_NEAR_WHOLE = 0.9
WHITE_ALONE_NEAR_SHADE_Q = 10.0
WHITE_ALONE_NEAR_SHADE = 0.7
WHITE_ALONE_NEAR_FACE_Q = 25.0
WHITE_ALONE_NEAR_FACE = 1.0
# Nor where it heads within WHITE_ALONE_NEAR_RADIAL_DEG of straight away from the camera's foot:
# a standing piece's faces, seen from a tilted camera, lean away from its foot, and a lying
# reading fitted to them heads roughly so (merge53: two white mediums standing on the laminate,
# not read standing, read as a false lying medium at 11° from it, the 8848-set's 8877, and a
# false lying small at 41°, the 8560-set's 8589, with a lying piece's shades; the six white
# pieces the tier reads right on the sixteen sets head 100-157° from it). Wider than
# detect.CLEAR_BASE_RADIAL_DEG, whose quad reads the base square itself.
WHITE_ALONE_NEAR_RADIAL_DEG = 60.0
WHITE_ALONE_SHIFTS_MM = (-16.0, -12.0, -8.0, -4.0, 0.0, 4.0, 8.0, 12.0, 16.0)
WHITE_ALONE_TURN_DEG = 15.0
WHITE_ALONE_REFINED = 3
WHITE_ALONE_FACE_Q = 75.0
WHITE_ALONE_FACE = 1.1
WHITE_ALONE_DARK = 0.4
WHITE_ALONE_DARK_SHARE = 0.005
# Nor within WHITE_ALONE_HAND_MM of a hand's region or of skin (over WHITE_ALONE_SKIN_SHARE of
# the pixels there: hands._skin_share): a fingertip lit brighter than the table beside its
# shadow is such a region too (the check set 5104's 5221: a small refit whole on the edges of
# a finger's tip and its shadow, 40 mm from the hand's region, which holds only the palm, read
# as a false white small).
WHITE_ALONE_HAND_MM = 10.0
WHITE_ALONE_SKIN_SHARE = 0.02
# The stern error's tail at 720p (issue 4, session 39, acc49): readings in doubt (σ over
# EDGE_REFIT_MIN_SIGMA_MM, the rules' trust level) of the right size whose pose is 2-6 mm off.
# A white or clear piece's faces are lit like the table, so the fit map holds part of it (or
# its shadow) and the fit slides; a reading set, not fitted (score 0: cost at MAX_COST, from a
# strip or edges rule), was never fitted at all. Their outline is still crisp: such a reading
# is moved to its own size's refit to the crisp edges (crisp._chamfer_refine) when that
# outline lies whole on them (EDGE_REFIT_SHARE of its samples) where the pose found did not
# (EDGE_REFIT_GAIN more) and it moved at most EDGE_REFIT_MAX_MOVE_MM. Size, colour and σ are
# kept: the reading stays in doubt, only its pose is better. A vivid piece fitted on its map is
# left: its crisp edges take its shadow's or a neighbour's in (the 9136-set's 9155 purple
# large, 0.3 -> 1.9 mm; 9219's green small, 0.4 -> 2.4 mm). Any share gain (0.8 whole) made
# 51 of 98 moved readings worse (the crisp edges lie ~1 px off a well-fitted outline).
# Session 47 (acc57; the stern and heading p95 over 1.5 mm / 1.5° on the 13168- and 10576-sets,
# their tail white and clear readings in doubt fitted on the map 2-3.5 mm off): 0.9 of the
# samples and 0.05 more than the pose found (was 0.95 and 0.15). Per reading in doubt on those
# two sets (/work/scratch/acc57/probe.py, ~200 scenes each), the white, clear or set readings
# whose refit passes 0.9 / 0.05 but not 0.95 / 0.15: 22, stern/tip/heading errors over 1.5
# brought under it 34 times, none put over it (13186's white large 3.35 -> 0.46 mm, 10657's
# 2.07 -> 0.59 mm); two sterns farther (13325's clear medium 1.89 -> 2.30 mm, its heading
# 6.7 -> 3.7°; 10675's 0.19 -> 0.52 mm). 0.9 / 0.03 put one over (10664's clear medium 2.26 ->
# 2.45 mm); 0.85 / 0.05 three; any colour at 0.9 / 0.05 19 over for 42 under (a vivid piece's
# crisp edges take its shadow in).
EDGE_REFIT_MIN_SIGMA_MM = 1.5
EDGE_REFIT_COLOURS = ("white", "clear")
EDGE_REFIT_SHARE = 0.9
EDGE_REFIT_GAIN = 0.05
EDGE_REFIT_MAX_MOVE_MM = 6.0
# Session 53 (acc63; the 720p stern p95 of the last judge set 1.72 mm): a white or set (score
# 0) reading in doubt already on the crisp edges (over 0.95 of its samples: no refit can gain
# EDGE_REFIT_GAIN) may still lie 1.5-6 mm off: the edges are counted within a pixel, so a
# share of 0.95-1.0 holds outlines a pixel or two apart. Its refit is also taken when it lies
# on EDGE_REFIT_SHARE of the edges and its outline's mean distance to them (view px, clipped
# at SOFT_WHITE_CLIP_PX, what the refit lowers) falls by EDGE_REFIT_NEARER_PX or more.
# Per reading in doubt on the 14896-set's 720p scenes (/work/scratch/acc63/probe.py): 14933's
# clear large, set, 0.62 -> 0.38 px, stern 1.58 -> 0.31 mm; 14897's clear large, set, 0.25 ->
# 0.11 px, 1.85 -> 0.85 mm; 14925's white medium 0.34 -> 0.12 px, 1.91 -> 1.20 mm, heading
# 2.10 -> 1.34°; 15079's white large, set, 6.14 -> 4.91 mm. Fitted clear readings are left:
# at the same bounds as many went farther as nearer (15079's clear large 0.43 -> 0.28 px,
# 2.09 -> 3.24 mm; 15101's 0.93 -> 1.67 mm; their inner rim is crisp through the walls).
# Mediums and larges only (EDGE_REFIT_NEARER_SIZES): on the 14896-set's whole run the white
# smalls so moved at 1920×1080 went farther as often as nearer (15076's tip 1.03 -> 1.82 mm,
# 0.65 -> 3.65°; 15088's 0.53 -> 1.03 mm; 14900's 2.80 -> 2.13 mm): a small's outline is too
# short to hold its heading (as acc59 found for the open-base turn).
# Not a reading from its open base's quad (base_quad.pieces_from_base, ``from_base``): its
# stern is measured there, on the base's edge on the table (0.02-0.4 mm), and its heading
# already turned about it to the crisp edges (base_quad.STERN_TURN_*); the chamfer refit
# gives that stern up (session 54, acc64: the 13744-set's 13748, a white medium, set, stern
# 0.02 -> 1.02 mm, tip 1.12 -> 1.68 mm under this branch).
EDGE_REFIT_NEARER_PX = 0.1
EDGE_REFIT_NEARER_SIZES = (Size.MEDIUM, Size.LARGE)
# Session 55 (acc65; the check set 5104's 720p stern p95 1.50 -> 1.54 mm under this branch): a
# medium moved by distance alone keeps its heading, or is not moved. Its outline is too short
# to hold a heading on edges it already lies on (as a small's, above). Of the 20 readings the
# branch moved in the 720p scenes of 5104, 14896, 13744 and 12880 (/work/scratch/acc65/mv.py,
# mv_*.jsonl), the 11 whose refit kept the heading came nearer at both ends (12893's white
# medium 2.65 -> 0.74 mm, 13945's clear medium 1.62 -> 0.83 mm); of the 5 mediums it turned
# (0.75-4.5°, its heading steps) three went farther (5141's white medium, set, 0.75 -> 1.27
# mm, 2.37 -> 3.87°; 5197's, fitted, 0.80 -> 1.72 mm; 13879's 0.87 -> 1.15 mm, 0.77 ->
# 1.52°), one nearer (14925's, 1.91 -> 1.20 mm) and one mixed (14003's clear, stern 1.32 ->
# 1.69 mm, heading 4.92 -> 0.42°). Holding the heading in the refit did not mend them (5197
# 2.13 mm, 5141 1.49 mm: alt_turned.jsonl). The 4 larges it turned came nearer (13819 3.30 ->
# 1.80 mm, 13959's two) or mixed (14977's stern 1.27 -> 1.54 mm, tip 3.26 -> 2.03 mm, heading
# 3.64 -> 2.14°): they may turn. The tell is the refit's own step, not a bound: no margin.
EDGE_REFIT_NEARER_HELD_SIZES = (Size.MEDIUM,)
# Session 56 (acc66; the 720p stern p95 over 1.5 mm on five tuning sets): a clear large set,
# not fitted (score 0), from a shorter reading's tip or stern by a strip rule
# (strips.clear_strip_longer, clear_beside_longer, clear_base_longer, clear_tip_longer) lies
# where the shorter's end put it, 1.5-6 mm off along its axis when that end stopped short of
# the clear piece's. When edges_refit leaves it, it is moved to the fit map's fit of its size
# from there (scene.fit, its usual give-up) when that fit costs SET_CLEAR_REFIT_COST or less;
# size, colour and σ kept (the size is still the strip's look). Per such reading in the 720p
# scenes of eight sets (/work/scratch/acc66/cls.py, cls_*.jsonl; gate.py): the fits at 0.640
# or less came nearer at both ends (the 5104-set's 5163 5.89 -> 2.73 mm at 0.640, the
# 14032-set's 14207 3.16 -> 1.42 mm at 0.640, 14051 3.41 -> 0.23 mm, the 14896-set's 14971
# 1.83 -> 0.16 mm, the 12880-set's 12991 4.77 -> 2.29 mm); above the bound the 13744-set's
# 13959 (0.664) nearer, the 14032-set's 14161 (0.667) its stern nearer but its tip farther
# (1.15 -> 2.32 mm), the 5968-set's 5973 (0.747) and 5104's 5385 (0.756, 1.81 -> 2.17 mm)
# farther. One mover is mixed: the 15184-set's 15455 (0.635), turned 8.5° off its piece, both
# ends nearer (7.11 / 2.70 -> 6.49 / 0.85 mm) but its heading 0.63° farther. Many such
# readings lie on wood or felt where the map holds none of the piece (cost 1.2-1.9, coverage
# 0): their fits stay where they are.
SET_CLEAR_REFIT_COST = 0.65
# Session 57 (head67; the 720p heading p95 over 1.5° on many sets): a clear reading set by
# strips.clear_tip_longer (a medium or large from the shorter reading's stern at its heading
# turned 0 or ±10°) lies 5-21° off when the turn or the shorter's heading was wrong. When
# edges_refit leaves it, it takes its map fit at SET_CLEAR_REFIT_COST or less (a medium too:
# the 14896-set's 14997, 14.6 -> 0.07°, 14953), and up to SET_TIP_TURN_COST that fit's heading
# only, turned about the end the fit moved less: at 0.65-0.9 the fit's own pose sent an end
# farther on three of twelve (the 10576-set's 10731 large, tip 1.28 -> 2.74 mm; 14032's
# 14161, 1.15 -> 2.32; 5104's 5385), the turn on none but 10576's 10699, its tip 6.52 -> 6.72
# mm as its heading came 14.4 -> 0.66° (/work/scratch/head67/var.py on cls2_*.jsonl: 10576,
# 14896, 5968, 12304 and acc66's cases). Margin: the costliest mover 5968's 6057 (0.785,
# 13.9 -> 4.2°, stern 6.88 -> 0.95 mm); above the bound 12304's 12541 (0.909: its fit still
# 5.2° off) and 14896's 14925 (0.991: 1.9 -> 3.9°, stern 2.81 -> 3.46 mm turned or fitted).
SET_TIP_TURN_COST = 0.9
# Session 58 (head68; the 720p heading p95 over 1.5° on many sets): a white reading from its
# open base's quad (base_quad.pieces_from_base: set, score 0, in doubt) has its stern right
# (0.03-0.9 mm) but its heading from the quad, a short lever: 2-15° off when
# base_quad._turned_on_stern did not turn it (a small, or its outline ahead off the crisp
# edges), its tip 2-7 mm off (35 of the 105 set readings over 1.5° at 720p on five sets). The
# fit map's fit of its size from there (scene.fit) holds little of a white piece on the
# laminate (coverage 0, cost 1.0-1.7) and its heading goes either way, and so does the heading
# nearest the crisp edges alone; where both agree it is right. When edges_refit leaves such a
# reading, it is turned about its stern to the fit's heading when that turns it
# BASE_FIT_TURN_MIN_DEG or more (a smaller turn is within the quad's and the fit's own error)
# and its outline ahead of the base (base_quad.ahead_distance_px) lies BASE_FIT_TURN_NEARER_PX
# nearer the crisp edges than at its own heading; size, colour, stern and σ kept. Per such
# reading in the 720p scenes of five sets and acc66's cases (/work/scratch/head68/qprobe.py,
# q1.jsonl, qana.py): the nine movers (turned 4.1-11.1°, 0.15-0.82 px nearer) came nearer
# at the tip and in heading (8505 7.90 -> 1.88°, tip 5.22 -> 0.42 mm; 12581 3.80 -> 0.30°, the
# smallest turn). Left: the 5968-set's 6067 (turned 2.96°, 0.22 px nearer: its tip 1.45 ->
# 0.46 mm but its heading 1.44 -> 1.52°, the bound's case); at 0.09 px 6213 (turned 2.1°,
# nearer), at 0.05 px the 14896-set's 15101 (1.05°, its heading 1.13 -> 2.17°: farther), 6107's
# small (0.88°, 0.02 px; 0.06 -> 0.83°: farther); the fit's turns that went farther by more were
# all farther from the edges (8419 30°, 8459 5.6°, 14957, 15161, 14961 at +0.0 px).
BASE_FIT_TURN_MIN_DEG = 3.5
BASE_FIT_TURN_NEARER_PX = 0.1


# Session 59 (acc69; the 720p stern p95 of the 16624 set 1.84 mm): the largest class of the
# 720p stern tail (errors over 1.5 mm) is clear readings on the laminate, all in doubt: 13-27
# per set of 41-62 (/work/scratch/acc69/classes.py on cls_*.jsonl). The fit map holds such a
# piece's footprint but not its far walls, which the camera sees past the footprint and which
# are lit like the table: the body's outline samples on the side away from the camera find no
# edge, and the fit slides toward the camera, 1.5-3.5 mm (a fit from the truth's pose goes
# there too: /work/scratch/acc69/fromtruth.py). The tell is the fit's own samples: their mean
# cost on the far side (outward within 60° of away from the camera) CLEAR_FAR_MISS or more
# above the near side's. Such a reading is moved CLEAR_FAR_SHIFT_MM away from the camera's
# foot; size, colour and σ kept (all in doubt). On a grey table only: on felt the test fired
# on right readings (the 16624 set's 16627 and 16637 clear larges, 0.53 and 0.61). Per such
# reading in the 720p scenes of 16624, 16336 and 10000 and the 1080p laminate scenes of those
# three (/work/scratch/acc69/shift.py, sh_*.jsonl): the 17 movers (0.71-1.52; two of them
# false clear smalls, neutral) came nearer at both ends (16767's medium 2.50 -> 1.37 mm,
# 10000's 10237 small 2.94 -> 1.84 mm). Margin:
# the smallest mover the 16624 set's 16679 medium (0.714, 0.84 -> 0.50 mm); below the bound
# the 16336 set's 16592 small at 1080p (0.677: turned 11° off, its tip 0.77 -> 1.91 mm; the
# 16336 run at 0.65 moved it: its 1080p tip p95 0.85 -> 0.88 mm), 16842 and 10150 (0.66,
# nearer), 16689's small read of a medium (0.58: its tip 5.41 -> 5.73 mm). The step: at 1.6 mm
# 16679's medium (0.84 -> 0.86 mm) and 16763's tip (1.83 -> 1.92 mm) went farther; at 1.2 mm
# none. Most movers stay over 1.5 mm: the slide is 1.5-3.5 mm, the step fixed.
# Asked last (detect.find_pieces), after the readings of one piece are merged and the grey ones
# named, both of which ask where the readings lie (session 60, lead70): moved first, the
# 12016-set's 12134 clear medium came 1.2 mm nearer a black small read as a clear small, which
# then lay 0.465 in its large footprint (0.373 as read; ONE_PIECE_SHARE 0.4) and was merged
# away; asked between the two, it took the small within GREY_ALONE_MM (3.05 -> 2.21 mm) and
# the small kept the name clear.
CLEAR_FAR_MISS = 0.7
CLEAR_FAR_SHIFT_MM = 1.2
CLEAR_FAR_COS = 0.5
# Session 60 (tail70; the 720p stern p95 still 1.81 mm on 16624): the step measured, not
# fixed. The outline's samples are costed at poses CLEAR_FAR_STEP_MM apart away from the
# camera (fit.sample_costs_at: not fitted; the sides by each sample's normal), and the reading
# moved by the first step up to CLEAR_FAR_MAX_SHIFT_MM at which its far side costs no more
# than its near side (CLEAR_FAR_BALANCE): on the movers the near side costs least at the read
# pose and the far side less step by step, balancing near the reading's own slide (the 5968
# set's 6123 large at 2.6 mm, its slide 2.66 mm: 1.53 -> 0.43 mm off at the fixed step and the
# measured one; the 14896 set's 15051 small 2.6 mm, 2.22 -> 0.82 mm). Of the 23 right-size
# movers on the 720p laminate scenes of 16624, 5968 and 14896 (/work/scratch/tail70/probe.py,
# rules.py) 13 stay over 1.5 mm (15 at the fixed step), one went farther (16679's medium,
# 0.50 -> 0.68 mm). The fixed CLEAR_FAR_SHIFT_MM where no step up to 3 mm balances (16769's
# medium: 3.21 mm off at 3 mm, 2.41 at 1.2; 16763, 5985, 14977; a 3.4 mm cap sent four
# farther) or where at the read pose the far side costs less than CLEAR_FAR_MEASURED more than
# the near side by the normals: its near side hidden by a neighbour (6101's large -0.08,
# 15143's large -0.04: a 0.2 mm step would balance them, 6101 ~3.1 mm off; the smallest
# measured 14977's large 0.37).
# Session 62 (acc72): a clear set reading (score 0) that set_clear_refit moved to its map fit
# lies where a fitted one does, its far walls off the map, and is asked as one: find_pieces hands
# clear_far_shift that fit (the same test, bounds and step; a reading set_clear_refit only turned,
# or left, is not at a map fit and is left). On the 720p and 1080p laminate scenes of 16624, 14896,
# 5968, 13744 and 12880 (/work/scratch/acc72/probe.py, pr_*.jsonl) four such readings, all at
# 720p: three nearer at both ends, the 14896 set's 14997 medium (far side 1.34 above its near
# side, step 3 mm: 2.21 -> 0.89 mm), the 12880 set's 12991 large (step 2 mm: 2.29 -> 0.65 mm),
# the 16624 set's 16639 large (1.36, step 2 mm: 2.24 / 2.71 -> 2.12 / 2.13 mm); one mixed, a
# wrong reading in doubt (12880's 13053, a white medium read as a clear large: stern 2.17 ->
# 3.29 mm, tip 7.96 -> 7.38 mm).
CLEAR_FAR_STEP_MM = 0.2
CLEAR_FAR_MAX_SHIFT_MM = 3.0
CLEAR_FAR_BALANCE = 0.0
CLEAR_FAR_MEASURED = 0.3


def edges_refit(scene: Scene, edges: np.ndarray, p: DetectedPiece,
                 calib: TableCalibration, from_base: bool = False) -> DetectedPiece:
    """``p`` (lying, in doubt: σ over EDGE_REFIT_MIN_SIGMA_MM) moved to its own size's refit to
    the crisp edges (``edges``: view-size bool) when that outline lies on them and on more
    of them, or (white or set, not read from its open base's quad: ``from_base``) nearer
    them (EDGE_REFIT_*); size, colour and σ kept."""
    if p.sigma_mm <= EDGE_REFIT_MIN_SIGMA_MM or not (p.color in EDGE_REFIT_COLOURS
                                                     or p.score <= 0.0):
        return p
    grid = scene.grid
    pose = p.pose
    pts = _outline_samples(scene, p.size, pose)
    before = float(near_edges(grid, pts, edges).mean())
    # A white or set medium or large may also be moved by its mean distance (EDGE_REFIT_NEARER_*).
    by_distance = ((p.color == "white" or p.score <= 0.0)
                   and p.size in EDGE_REFIT_NEARER_SIZES and not from_base)
    if before > 1.0 - EDGE_REFIT_GAIN and not by_distance:
        return p  # no refit could gain EDGE_REFIT_GAIN: most readings end here, unrefitted
    dist, (x0, y0) = edge_distance_window(grid, edges, pts, WHITE_EDGES_PAD_PX)
    q = _chamfer_refine(scene, p.size, pose, dist, (x0, y0), SOFT_WHITE_STEPS)
    q_pts = _outline_samples(scene, p.size, q)
    after = float(near_edges(grid, q_pts, edges).mean())
    moved = math.dist(q.stern_mm, pose.stern_mm)
    if after < EDGE_REFIT_SHARE or moved > EDGE_REFIT_MAX_MOVE_MM:
        return p
    if after < before + EDGE_REFIT_GAIN:
        if not by_distance:
            return p
        clipped = np.minimum(dist, SOFT_WHITE_CLIP_PX)
        d0, d1 = (float(clipped_at(clipped, np.round(grid.to_px(x) - (x0, y0)).astype(int)).mean())
                  for x in (pts, q_pts))
        if d0 - d1 < EDGE_REFIT_NEARER_PX:
            return p
        if (p.size in EDGE_REFIT_NEARER_HELD_SIZES
                and abs(angle_diff_deg(q.heading_deg, pose.heading_deg)) > 1e-6):
            return p  # a medium turned on edges it lay on already (EDGE_REFIT_NEARER_HELD_SIZES)
    return _moved_to(scene, p, calib, q)


def _moved_to(scene: Scene, p: DetectedPiece, calib: TableCalibration, q: Pose
              ) -> DetectedPiece:
    """``p`` at the pose ``q`` (table mm): its tip and its outline as seen (image px) with
    it; size, colour, σ and score kept."""
    outline_px = calib.project(_edges_candidate(scene, p.size, q).outline_mm)
    return replace(p, pose=q, tip_mm=q.tip_mm(scene.pieces.dims(p.size).footprint_length_mm),
                   outline_px=tuple((float(x), float(y)) for x, y in outline_px))


def set_clear_refit(scene: Scene, p: DetectedPiece, calib: TableCalibration,
                    from_base: bool = False, from_tip: bool = False) -> DetectedPiece:
    """``p`` (a clear reading of the longest size, or any set by strips.clear_tip_longer:
    ``from_tip``; set, not fitted: score 0; in doubt; not read from its open base's quad:
    ``from_base``) moved to the fit map's fit of its size from its pose when that fit costs
    at most SET_CLEAR_REFIT_COST and it moved at most EDGE_REFIT_MAX_MOVE_MM; one set by
    clear_tip_longer whose fit costs at most SET_TIP_TURN_COST turned to that fit's heading
    about the end the fit moved less; size, colour and σ kept."""
    if (from_base or p.score > 0.0 or p.color != "clear"
            or (p.size != scene.by_length[-1] and not from_tip)
            or p.sigma_mm <= EDGE_REFIT_MIN_SIGMA_MM):
        return p
    f = scene.fit(p.size, p.pose).fit
    if (stern_moved := math.dist(f.pose.stern_mm, p.pose.stern_mm)) > EDGE_REFIT_MAX_MOVE_MM:
        return p
    if f.cost <= SET_CLEAR_REFIT_COST:
        return _moved_to(scene, p, calib, f.pose)
    if not from_tip or f.cost > SET_TIP_TURN_COST:
        return p
    # Its heading only, turned about the end the fit moved less (SET_TIP_TURN_COST).
    length = scene.pieces.dims(p.size).footprint_length_mm
    tip = p.pose.tip_mm(length)
    q = (Pose(p.pose.x_mm, p.pose.y_mm, f.pose.heading_deg)
         if stern_moved <= math.dist(f.pose.tip_mm(length), tip)
         else Pose.with_tip(tip, f.pose.heading_deg, length))
    return _moved_to(scene, p, calib, q)


def _far_excess(costs: np.ndarray, cos: np.ndarray) -> float | None:
    """The mean cost of an outline's samples (``costs``: NaN, hidden, counted a full miss)
    facing within 60° of away from the camera (``cos``: each one's cosine to that way,
    CLEAR_FAR_COS) less that of those facing within 60° of toward it; None when either side
    has none."""
    costs = np.where(np.isnan(costs), 2.0, costs)
    far, near = cos > CLEAR_FAR_COS, cos < -CLEAR_FAR_COS
    if not far.any() or not near.any():
        return None
    return float(costs[far].mean()) - float(costs[near].mean())


def clear_far_shift(scene: Scene, c: Candidate, p: DetectedPiece, calib: TableCalibration,
                    grey_table: bool) -> DetectedPiece:
    """``p`` (a clear reading in doubt at its map fit ``c``'s pose: as first read, score over
    0, or a set reading set_clear_refit moved there) on a grey table (``grey_table``: the
    laminate) moved away from the camera's foot when ``c``'s outline samples on its side
    away from the camera cost CLEAR_FAR_MISS more than those toward it (its far walls, not on
    the map, pulled it toward the camera): by the first step of CLEAR_FAR_STEP_MM up to
    CLEAR_FAR_MAX_SHIFT_MM at which its outline's far side costs no more than its near side
    (CLEAR_FAR_BALANCE), or CLEAR_FAR_SHIFT_MM when none does; size, colour and σ kept."""
    f = c.fit
    if (not grey_table or p.color != "clear"
            or p.sigma_mm <= EDGE_REFIT_MIN_SIGMA_MM
            or p.pose != f.pose or len(f.probe_mm) == 0):
        return p
    cen = np.asarray(c.outline_mm, float).mean(axis=0)
    away = cen - np.asarray(scene.camera_mm[:2], float)
    if (n := float(np.hypot(*away))) < 1e-6:
        return p
    away /= n
    out = np.asarray(f.probe_mm, float) - cen
    cos = out @ away / np.maximum(np.hypot(out[:, 0], out[:, 1]), 1e-9)
    if (ex := _far_excess(f.sample_cost, cos)) is None or ex < CLEAR_FAR_MISS:
        return p
    local = lying_local_3d(scene.pieces.dims(p.size))
    step = CLEAR_FAR_SHIFT_MM
    for k in range(round(CLEAR_FAR_MAX_SHIFT_MM / CLEAR_FAR_STEP_MM) + 1):
        s = k * CLEAR_FAR_STEP_MM
        q = Pose(p.pose.x_mm + away[0] * s, p.pose.y_mm + away[1] * s, p.pose.heading_deg)
        costs, normals = sample_costs_at(scene.fg, scene.grid, local, q, scene.camera_mm)
        ex = _far_excess(costs, normals @ away)
        if k == 0 and (ex is None or ex < CLEAR_FAR_MEASURED):
            break  # its near side hidden (a neighbour): the step not measured
        if k > 0 and ex is not None and ex <= CLEAR_FAR_BALANCE:
            step = s
            break
    dx, dy = away * step
    return _moved_to(scene, p, calib, Pose(p.pose.x_mm + dx, p.pose.y_mm + dy, p.pose.heading_deg))


def base_fit_turn(scene: Scene, edges: np.ndarray, p: DetectedPiece, calib: TableCalibration
                  ) -> DetectedPiece:
    """``p`` (read from its open base's quad; white, set: score 0, in doubt) turned about its
    stern to the heading of the fit map's fit of its size from there when that turns it
    BASE_FIT_TURN_MIN_DEG or more and its outline ahead of the base lies
    BASE_FIT_TURN_NEARER_PX nearer the crisp ``edges`` (view-size bool) there; size, colour,
    stern and σ kept."""
    if p.score > 0.0 or p.color != "white" or p.sigma_mm <= EDGE_REFIT_MIN_SIGMA_MM:
        return p
    f = scene.fit(p.size, p.pose).fit
    turn = angle_diff_deg(f.pose.heading_deg, p.pose.heading_deg)
    if abs(turn) < BASE_FIT_TURN_MIN_DEG:
        return p
    heads = p.pose.heading_deg + np.array([0.0, turn])
    poses = [Pose(p.pose.x_mm, p.pose.y_mm, float(h)) for h in heads]
    own, turned = ahead_distance_px(scene, edges, p.size, poses, heads)
    if own - turned < BASE_FIT_TURN_NEARER_PX:
        return p
    return _moved_to(scene, p, calib, poses[1])


def white_by_shadow(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                     lying: list[Candidate]) -> list[Candidate]:
    """``lying`` with each clear reading in doubt that is a white piece's shaded face and
    shadow replaced by that white piece (SHADOW_WHITE_*), in doubt."""
    if scene.shade is None or table_hue_sat(bg)[1] > COLOURED_TABLE_SAT:
        # On a coloured table a white piece's lit faces are not the table's colour: the
        # passes read them (and the refits cost ~1.5 ms each for nothing there).
        return lying
    name = colour_namer(scene, view, bg)
    light = _light_offset(scene, name)
    out = list(lying)
    for i in _in_doubt_named(lying, name, ("clear",)):
        c = lying[i]
        others = out[:i] + out[i + 1:]
        if (w := _white_casting(scene, view, bg, edges, c, others)) is None:
            continue
        # A shadow lies past its piece away from the light: the white piece lies toward the
        # light's offset from the clear reading (8848-set 9062: a white medium read right
        # but named clear there; a small refitted 13 mm from it away from the light).
        if (off := light(lying)) is None:
            continue
        a, b = scene.footprint(c)[0].centroid, scene.footprint(w)[0].centroid
        if (b.x - a.x) * off[0] + (b.y - a.y) * off[1] > 0.0:
            out[i] = w
    return out


def white_size_by_edges(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                         lying: list[Candidate],
                         past_tip: Callable[[Candidate], bool] | None = None
                         ) -> list[Candidate]:
    """``lying`` with each white reading in doubt read at the size whose outline, refitted to
    the crisp edges, lies whole on them when its own does not (WHITE_EDGES_*), in doubt."""
    if not WHITE_EDGES_COLOURED and table_hue_sat(bg)[1] > COLOURED_TABLE_SAT:
        return lying
    name = colour_namer(scene, view, bg)
    out = list(lying)
    doubt = set(_in_doubt_named(lying, name, ("white",)))
    longest = max(scene.pieces.dims(z).footprint_length_mm for z in Size)
    asked = sorted(doubt | ({
        i for i, c in enumerate(lying) if not c.upright and i not in doubt
        and scene.pieces.dims(c.size).footprint_length_mm < longest and name(c) == "white"
        and past_tip(c)} if WHITE_EDGES_ASK_SHORT and past_tip is not None else set()))
    dropped: set[int] = set()
    for i in asked:
        c = lying[i]
        if i in dropped:
            continue
        share = _edge_shares(scene, edges, c)
        if not share:
            continue
        if (whole := _whole_size(share)) is None or whole[0] == c.size:
            continue
        z, (best, q) = whole[0], share[whole[0]]
        d_z, d_c = (scene.pieces.dims(k).footprint_length_mm for k in (z, c.size))
        if d_z < d_c and (best < WHITE_EDGES_SHORTER or i not in doubt):
            continue  # a clear piece's inner rim, nested at its tip (WHITE_EDGES_SHORTER)
        wc = _edges_candidate(scene, z, q)
        fw = scene.footprint(wc)[0]
        # The same piece read again, in doubt, inside the whole outline (WHITE_EDGES_AGAIN).
        again = {k for k, o in enumerate(out) if k != i and k not in dropped
                 and not o.upright and _in_doubt(o)
                 and fw.intersection(fo := scene.footprint(o)[0]).area
                 >= WHITE_EDGES_AGAIN * fo.area}
        others = [o for k, o in enumerate(out) if k != i and k not in dropped | again]
        if (not fw.intersects(scene.footprint(c)[0])
                or clashes(wc, others, scene)
                or overlaps_any(scene, wc, others, WHITE_EDGES_SLIVER)
                or classify_color(view, fw, bg) != "white"):
            continue
        out[i] = wc
        dropped |= again
    return [c for k, c in enumerate(out) if k not in dropped]


def grey_black_size_by_edges(scene: Scene, view: TableView, bg: np.ndarray,
                              edges: np.ndarray, lying: list[Candidate]) -> list[Candidate]:
    """``lying`` with each clear or black reading in doubt read a size shorter when that
    size's outline, refitted to the crisp edges, lies whole on them and its own does not
    (GREY_BLACK_EDGES_SHORTER), in doubt: a black piece lit grey that took its shadow in."""
    if scene.shade is None or table_hue_sat(bg)[1] > COLOURED_TABLE_SAT:
        return lying
    name = colour_namer(scene, view, bg)
    light = _light_offset(scene, name)
    out = list(lying)
    def toward_light(c: Candidate) -> bool:
        # Its tip toward the light, or no shadow lies behind its stern (GREY_BLACK_LIGHT_DEG).
        off = light(lying)
        return off is not None and abs(angle_diff_deg(
            c.fit.pose.heading_deg, math.degrees(math.atan2(off[1], off[0])))
            ) <= GREY_BLACK_LIGHT_DEG

    for i in _in_doubt_named(lying, name, ("clear", "black"), trusted_too=True):
        c = lying[i]
        length = scene.pieces.dims(c.size).footprint_length_mm
        shorter = [k for k in Size if scene.pieces.dims(k).footprint_length_mm < length]
        if not shorter:
            continue  # no size to read it at
        if _in_doubt(c):
            share = _edge_shares(scene, edges, c) if toward_light(c) else None
        else:
            # A trusted reading's own outline nearly always lies on the edges (one refit says
            # so, and _edge_shares returns nothing): asked before the light, which every good
            # reading's shadow is measured for.
            share = _edge_shares(scene, edges, c)
            share = share if share and toward_light(c) else None
        if not share:
            continue
        z, (best, q) = max(share.items(), key=lambda t: t[1][0])
        if (z != max(shorter,
                                    key=lambda k: scene.pieces.dims(k).footprint_length_mm)
                or best < GREY_BLACK_EDGES_SHORTER or any(
                    best < s + GREY_BLACK_EDGES_MARGIN for k, (s, _q) in share.items() if k != z)
                or any(s > share[c.size][0] for k, (s, _q) in share.items()
                       if scene.pieces.dims(k).footprint_length_mm > length)):
            continue  # a longer outline on the edges: a clear piece's inner one (GREY_BLACK_*)
        wc = _edges_candidate(scene, z, q)
        if (lit := _inset_shade(scene, wc)) is None or lit >= GREY_BLACK_LIT:
            continue  # lit like the table: a clear piece's inner outline (GREY_BLACK_*)
        others = out[:i] + out[i + 1:]
        if (not scene.footprint(wc)[0].intersects(scene.footprint(c)[0])
                or clashes(wc, others, scene) or overlaps_any(scene, wc, others)
                or classify_color(view, scene.footprint(wc)[0], bg) not in ("clear", "black")):
            continue
        out[i] = wc
    return out


def _in_doubt(c: Candidate) -> bool:
    """Whether reading ``c`` is in doubt as the refits here ask: unsure, or ambiguous by
    DOUBT_FLOOR_MM or more."""
    return unsure(c) or c.ambiguity_mm >= DOUBT_FLOOR_MM


def _in_doubt_named(lying: list[Candidate], name: Callable[[Candidate], str],
                    colours: tuple[str, ...], trusted_too: bool = False) -> Iterator[int]:
    """The indices of ``lying``'s lying readings in doubt (unsure, or ambiguous by
    DOUBT_FLOOR_MM or more; any, with ``trusted_too``) that ``name`` names one of ``colours``:
    the readings the size and shadow refits here ask about (each named only once it is in
    doubt)."""
    for i, c in enumerate(lying):
        if (not c.upright and (trusted_too or _in_doubt(c))
                and name(c) in colours):
            yield i


def _light_offset(scene: Scene, name: Callable[[Candidate], str]
                  ) -> Callable[[list[Candidate]], tuple[float, float] | None]:
    """The light's offset (shadows.cast_offset: table mm per mm of height, toward the light)
    from the good readings not named clear (``name``) of the readings it is first asked
    with, found once and kept: a scene has one light."""
    found: list[tuple[float, float] | None] = []

    def light(lying: list[Candidate]) -> tuple[float, float] | None:
        if not found:
            flat = [o for o in lying if not o.upright]
            found.append(cast_offset(
                scene, [o for o in flat if o.fit.cost <= GOOD_COST and name(o) != "clear"],
                [np.asarray(o.outline_mm, float) for o in flat]))
        return found[0]
    return light


def _edge_shares(scene: Scene, edges: np.ndarray, c: Candidate
                 ) -> dict[Size, tuple[float, Pose]]:
    """For each size, the pose refitted to the crisp edges (``edges``: view-size bool) from
    ``c``'s stern, its tip and its middle (heading kept at the start) and the share of that
    outline on them, the best of the three; empty when ``c``'s own size, refitted from the
    start whose outline lies nearest the edges, leaves no other size room to beat it
    (WHITE_EDGES_MARGIN): the best of three could only be higher (most readings end there,
    one refit instead of nine)."""
    grid = scene.grid
    dist, (x0, y0) = edge_distance_window(grid, edges, c.outline_mm, WHITE_EDGES_PAD_PX)
    clipped = np.minimum(dist, SOFT_WHITE_CLIP_PX)
    p = c.fit.pose
    d_c = scene.pieces.dims(c.size).footprint_length_mm
    tip = np.asarray(p.tip_mm(d_c))

    def starts(z: Size) -> list[Pose]:
        d_z = scene.pieces.dims(z).footprint_length_mm
        mid = np.asarray(p.stern_mm) + (d_c - d_z) / 2 * np.asarray(p.direction)
        return [p, Pose.with_tip(tip, p.heading_deg, d_z),
                Pose(float(mid[0]), float(mid[1]), p.heading_deg)]

    refits: dict[tuple[Size, int], tuple[float, Pose]] = {}

    def refit(z: Size, k: int) -> tuple[float, Pose]:
        if (z, k) not in refits:
            q = _chamfer_refine(scene, z, starts(z)[k], dist, (x0, y0), SOFT_WHITE_STEPS)
            refits[z, k] = (float(near_edges(grid, _outline_samples(scene, z, q), edges).mean()),
                            q)
        return refits[z, k]

    def nearest(z: Size) -> int:
        mean = []
        for start in starts(z):
            pts = np.round(grid.to_px(_outline_samples(scene, z, start)) - (x0, y0)).astype(int)
            mean.append(float(clipped_at(clipped, pts).mean()))
        return int(np.argmin(mean))

    if refit(c.size, nearest(c.size))[0] > 1.0 - WHITE_EDGES_MARGIN:
        return {}
    return {z: max((refit(z, k) for k in range(3)), key=lambda t: t[0]) for z in Size}


def _whole_size(best: dict[Size, tuple[float, Pose]], whole: float = WHITE_EDGES_WHOLE,
                margin: float = WHITE_EDGES_MARGIN) -> tuple[Size, Pose] | None:
    """Of each size's refit (its share of outline on the crisp edges, its pose), the size and
    pose whose outline lies whole on them (``whole``, WHITE_EDGES_WHOLE) beating every other
    size's by ``margin`` (WHITE_EDGES_MARGIN); None when none does (no size known)."""
    z, (share, q) = max(best.items(), key=lambda t: t[1][0])
    if share < whole or any(
            share < s + margin for y, (s, _q) in best.items() if y != z):
        return None
    return z, q


def _edge_window_round(grid: ViewGrid, edges: np.ndarray, pts: np.ndarray
                       ) -> tuple[np.ndarray, tuple[int, int], np.ndarray]:
    """The crisp ``edges``' distance window (:func:`crisp.edge_distance_window`, view px) over
    the table points ``pts`` (mm) and WHITE_BESIDE_REACH_MM round them, its origin, and the
    distances clipped at SOFT_WHITE_CLIP_PX."""
    box = np.vstack((pts.min(axis=0) - WHITE_BESIDE_REACH_MM,
                     pts.max(axis=0) + WHITE_BESIDE_REACH_MM))
    dist, origin = edge_distance_window(grid, edges, box, SHADOW_WHITE_PAD_PX)
    return dist, origin, np.minimum(dist, SOFT_WHITE_CLIP_PX)


def white_beside_found(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                        region: np.ndarray, sub: ViewGrid, lying: list[Candidate]
                        ) -> list[Candidate]:
    """White pieces lit like the grey table against a piece found in ``region`` (on ``sub``),
    read where the readings ``lying`` leave an area no pass read (WHITE_BESIDE_*): the
    lying piece whose outline, refitted to the crisp ``edges`` from the area's axis, lies
    whole on them, lit like the table and named white; in doubt (crisp._edges_candidate)."""
    if scene.shade is None or table_hue_sat(bg)[1] > COLOURED_TABLE_SAT:
        return []
    left = unexplained_mask(region, sub, lying)
    min_px = WHITE_BESIDE_MIN_AREA * scene.small_area_mm2 * sub.px_per_mm**2
    if np.count_nonzero(left) < min_px:
        return []
    n, lab, stats, _ = cv2.connectedComponentsWithStats(left.astype(np.uint8), connectivity=8)
    out: list[Candidate] = []
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < min_px:
            continue
        ys, xs = np.nonzero(lab == k)
        pts = sub.to_mm(np.column_stack((xs, ys)).astype(float))
        # Each size's starts, nearest the edges first; the nearest refined, and the next ones
        # (up to WHITE_BESIDE_REFINED) only of a size whose first refit comes near the edges
        # (WHITE_BESIDE_PROMISE): a shadow's area ends after three refits. The first refits'
        # best must lie clear of the readings but for a sliver (WHITE_EDGES_SLIVER: 15530's
        # medium grazes its orange neighbour by 0.006): a neighbour's shadow's area ends here
        # (of the 8 scenes of the cost bench, 1003's blue large's shadow, its small refit
        # 0.975 on the edges, 0.061 inside the blue reading). Not its shade: 10700's first
        # refit, 0.887 on the edges, takes in its shadow (0.77) and the next is right.
        if (wc := white_whole_from_area(scene, view, bg, edges, pts, lying + out)) is not None:
            out.append(wc)
    return out


def white_whole_from_area(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                          pts: np.ndarray, others: list[Candidate]) -> Candidate | None:
    """The white piece lit like the grey table refitted to the crisp ``edges`` from the axis
    of the area of table points ``pts`` (mm), as :func:`white_beside_found` reads it: whole
    on the edges at one size (_whole_size), lit like the table (WHITE_BESIDE_LIT), clear of
    ``others`` and named white; in doubt (crisp._edges_candidate). Else None."""
    if (best := _whole_from_area(scene, edges, pts, others)) is None:
        return None
    if (whole := _whole_size(best)) is None:
        return None  # not whole on the edges, or another size as whole: no size known
    wc = _edges_candidate(scene, *whole)
    if ((lit := _inset_shade(scene, wc)) is None or lit < WHITE_BESIDE_LIT
            or clashes(wc, others, scene) or overlaps_any(scene, wc, others)
            or classify_color(view, scene.footprint(wc)[0], bg) != "white"):
        return None
    return wc


def _white_edges_refit(scene: Scene, z: Size, start: Pose, dist: np.ndarray,
                       corner: tuple[int, int], edges: np.ndarray) -> tuple[float, Pose]:
    """A lying ``z`` refitted to the crisp edges (``dist``: their distance window, its corner
    ``corner`` in view px) from ``start``, and the share of its outline on ``edges``."""
    q = _chamfer_refine(scene, z, start, dist, corner, SOFT_WHITE_STEPS)
    return float(near_edges(scene.grid, _outline_samples(scene, z, q), edges).mean()), q


def _white_casting(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                   c: Candidate, others: list[Candidate]) -> Candidate | None:
    """The white piece lit like the table whose shaded face and shadow the clear reading ``c``
    is (SHADOW_WHITE_*), else None."""
    fp_c = scene.footprint(c)[0]
    inside = shades_in(scene, fp_c)
    if not inside.size or float(median(inside)) >= SHADOW_WHITE_PAST:
        return None  # not darkened: no shadow there
    grid = scene.grid
    dist, (x0, y0) = edge_distance_window(grid, edges, c.outline_mm, SHADOW_WHITE_PAD_PX)
    clipped = np.minimum(dist, SOFT_WHITE_CLIP_PX)
    p = c.fit.pose
    shifts = np.array([(dx, dy) for dx in SHADOW_WHITE_SHIFTS_MM for dy in SHADOW_WHITE_SHIFTS_MM])
    tries: dict[tuple[Size, float, float, float], float] = {}
    for z in Size:
        # Each turn's outline shifted on the table (the view's parallax over a shift this
        # short is under a pixel): the starts whose outlines lie nearest the edges refined.
        # All turns at once (crisp._outline_samples_many: the very floats of one
        # _outline_samples call each; the means row by row as before): ~20 numpy calls a
        # turn fewer, the same starts in the same order.
        rings = _outline_samples_many(
            scene, [Pose(p.x_mm, p.y_mm, p.heading_deg + dh) for dh in SHADOW_WHITE_TURNS_DEG],
            lying_local_3d(scene.pieces.dims(z)))
        pts = np.round(grid.to_px((rings[:, None] + shifts[None, :, None]).reshape(-1, 2))
                       - (x0, y0)).astype(int).reshape(len(rings) * len(shifts), -1, 2)
        d = clipped_at(clipped, pts).mean(axis=1).reshape(len(rings), len(shifts))
        starts = [(float(d[t, k]), dh, k) for t, dh in enumerate(SHADOW_WHITE_TURNS_DEG)
                  for k in range(len(shifts))]
        for _, dh, k in sorted(starts)[:SHADOW_WHITE_REFINED]:
            q = _chamfer_refine(scene, z, Pose(p.x_mm + shifts[k, 0], p.y_mm + shifts[k, 1],
                                               p.heading_deg + dh),
                                dist, (x0, y0), SOFT_WHITE_STEPS)
            key = (z, q.x_mm, q.y_mm, q.heading_deg)
            if key not in tries:
                tries[key] = float(near_edges(grid, _outline_samples(scene, z, q), edges).mean())
    for (z, x, y, hd), share in sorted(tries.items(), key=lambda t: -t[1]):
        if share < SHADOW_WHITE_EDGES:
            break
        wc = _edges_candidate(scene, z, Pose(x, y, hd))
        if (lit := _inset_shade(scene, wc)) is None or lit < SHADOW_WHITE_LIT:
            continue
        fp_w = scene.footprint(wc)[0]
        if not fp_w.intersects(fp_c) or clashes(wc, others, scene) or overlaps_any(
                scene, wc, others):
            continue
        past = shades_in(scene, fp_c.difference(fp_w))
        if not past.size or float(median(past)) >= SHADOW_WHITE_PAST:
            continue
        if classify_color(view, fp_w, bg) != "white":
            continue
        return wc
    return None



def white_alone(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                region: np.ndarray, sub: ViewGrid, lying: list[Candidate],
                standing: list[Candidate], hand_mask: np.ndarray) -> list[Candidate]:
    """A white piece lit like the grey table alone in ``region`` (on ``sub``: its shaded face
    and shadow), where no pass read a piece (WHITE_ALONE_*): the lying piece whose outline,
    refitted to the crisp ``edges`` from starts round the region, lies whole on them, its lit
    face brighter than the table and no die's pips in it; in doubt (crisp._edges_candidate),
    named white by find_pieces."""
    if scene.shade is None or table_hue_sat(bg)[1] > COLOURED_TABLE_SAT:
        return []
    left = unexplained_mask(region, sub, lying)
    if np.count_nonzero(left) < WHITE_BESIDE_MIN_AREA * scene.small_area_mm2 * sub.px_per_mm**2:
        return []
    ys, xs = np.nonzero(left)
    pts = sub.to_mm(np.column_stack((xs, ys)).astype(float))
    mid = pts.mean(axis=0)
    grid = scene.grid
    dist, (x0, y0), clipped = _edge_window_round(grid, edges, pts)
    shifts = np.array([(dx, dy) for dx in WHITE_ALONE_SHIFTS_MM for dy in WHITE_ALONE_SHIFTS_MM])
    best: dict[Size, tuple[float, Pose]] = {}
    for z in Size:
        d_z = scene.pieces.dims(z).footprint_length_mm
        turns = []
        for h in np.arange(0.0, 360.0, WHITE_ALONE_TURN_DEG):
            u = np.array([math.cos(math.radians(h)), math.sin(math.radians(h))])
            st = mid - 0.5 * d_z * u
            turns.append(Pose(float(st[0]), float(st[1]), float(h)))
        # Each turn's outline shifted on the table, as white_by_shadow's starts (the view's
        # parallax over a shift this short is under a pixel).
        rings = _outline_samples_many(scene, turns, lying_local_3d(scene.pieces.dims(z)))
        at = np.round(grid.to_px((rings[:, None] + shifts[None, :, None]).reshape(-1, 2))
                      - (x0, y0)).astype(int).reshape(len(rings) * len(shifts), -1, 2)
        near = clipped_at(clipped, at).mean(axis=1)
        for j in np.argsort(near, kind="stable")[:WHITE_ALONE_REFINED]:
            t, k = divmod(int(j), len(shifts))
            start = Pose(turns[t].x_mm + float(shifts[k, 0]), turns[t].y_mm + float(shifts[k, 1]),
                         turns[t].heading_deg)
            got = _white_edges_refit(scene, z, start, dist, (x0, y0), edges)
            if z not in best or got[0] > best[z][0]:
                best[z] = got
    if (whole := _whole_size(best)) is None and (
            whole := _whole_size(best, WHITE_ALONE_NEAR_WHOLE, WHITE_EDGES_MARGIN)) is None:
        return []  # not whole on the edges, or another size as whole: no size known
    # Nearly whole only (its lit side's edge lost on the laminate): named white by
    # classify_color too, its lit face then need not outshine the table (WHITE_ALONE_NEAR_*).
    near_only = best[whole[0]][0] < WHITE_EDGES_WHOLE
    wc = _edges_candidate(scene, *whole)
    if (crop := inset_crop(scene, wc)) is None:
        return []
    if _near_hand(scene, view, bg, wc, hand_mask):
        return []  # a finger's tip and its shadow (WHITE_ALONE_HAND_MM)
    inside = scene.shade[crop[0]][crop[1]]
    if (float((inside < WHITE_ALONE_DARK).mean()) > WHITE_ALONE_DARK_SHARE
            or clashes(wc, lying + standing, scene) or overlaps_any(scene, wc, lying)):
        return []  # a die's pips, or on a reading
    if near_only:  # a clear piece, a shadow, a standing piece, a die (WHITE_ALONE_NEAR_*)
        return [wc] if _near_white(scene, view, bg, wc, inside) else []
    if (float(percentile(inside, WHITE_ALONE_FACE_Q)) < WHITE_ALONE_FACE
            or classify_color(view, scene.footprint(wc)[0], bg) not in ("white", "clear")):
        # No lit face brighter than the table: a clear piece, a shadow; or a white piece lit
        # like the table whose outline is whole, asked as a nearly whole one is (its tests
        # passed at 0.97 would be stricter than at 0.96: see WHITE_ALONE_NEAR_* below).
        return [wc] if _near_white(scene, view, bg, wc, inside) else []
    return [wc]


def _near_white(scene: Scene, view: TableView, bg: np.ndarray, wc: Candidate,
                inside: np.ndarray) -> bool:
    """White_alone's tests of a refit whose lit face need not outshine the table
    (WHITE_ALONE_NEAR_*: not heading away from the camera's foot, no shadow's dark in its
    inset footprint ``inside``, no die's lit top filling it, named white)."""
    return (abs(scene.off_radial_deg(wc.fit.pose)) > WHITE_ALONE_NEAR_RADIAL_DEG
            and float(percentile(inside, WHITE_ALONE_NEAR_SHADE_Q)) >= WHITE_ALONE_NEAR_SHADE
            and float(percentile(inside, WHITE_ALONE_NEAR_FACE_Q)) < WHITE_ALONE_NEAR_FACE
            and classify_color(view, scene.footprint(wc)[0], bg) == "white")


# A clear piece lit like the grey table (issue 4, session 44, clearmiss54; after session 43's
# clearmiss53, not merged): clear plastic darkens the laminate as a shadow does (its crisp
# area's median shade 0.68-0.88 of the table's, its inset footprint's 0.64-0.87; the ten read
# on the cases' scenes), so the score map takes it for table and no
# pass proposes it, while its crisp outline is whole. Last of the passes, on a grey table,
# each area of the crisp map (crisp | holes, no hand's) the readings leave (crisp._left_of),
# opened by CLEAR_BESIDE_OPEN_MM, from CLEAR_BESIDE_MIN_AREA of a small's footprint (a whole
# clear piece's crisp area takes its edge band in: the cases 1.5-6.5) to CLEAR_BESIDE_MAX_AREA
# of the largest area a lying piece covers, is asked, before any refit:
# - its median shade in CLEAR_BESIDE_SHADE (clear plastic's darkening);
# - one solid body of a lying piece's shape: it fills CLEAR_BESIDE_FILL of its convex hull
#   (the eight pieces read 0.87-1.0; a shadow's or a neighbour's broken band 0.42-0.84), its
#   hull's least box no longer than CLEAR_BESIDE_ASPECT of its width (the eight 1.44-2.15; a
#   piece's long shadow 2.4-3.6, a rim of the table 4-15) and not round (crisp.ROUND_MIN:
#   a die, a chit, a standing piece's square base);
# - no found piece's shaded face or cast shadow: at most CLEAR_BESIDE_CAST of it lies where a
#   lying reading's body and its cast shadow in the scene's light (shadows.cast_offset, from
#   the good readings not named clear; the body alone when none is found) cover the table,
#   grown by CLEAR_BESIDE_CAST_GROW_MM. clearmiss53's five false pieces (the 11440-set's
#   11519, the 10288-set's 10567, the 10576-set's 10758, the 10000-set's 10086 and 10037:
#   shaded faces and shadows of found pieces, each against a reading) lie 0.37-0.99 there,
#   the eight pieces read 0.00-0.12. Session 46 (recallclear56) took 0.25 to 0.30: a clear
#   piece lying within a millimetre of a found neighbour has the grown body's 2 mm band over
#   its near side, 0.26 (the 9712-set's 9887, a clear small against a white small; the
#   12880-set's 13070, a clear medium against a reading); the false areas keep 0.07 above.
# Only then is it refitted to the crisp edges as white_beside_found refits
# (:func:`_whole_from_area`); the size whose outline lies whole on them (WHITE_EDGES_WHOLE,
# beating the others by WHITE_EDGES_MARGIN) is read when its inset shade lies in
# CLEAR_BESIDE_SHADE too, it is named clear, clashes with no reading and overlaps none by more
# than CLEAR_BESIDE_SLIVER (the 11152-set's 11237 grazes its white neighbour), it is not the
# other end of a reading in doubt of its size (CLEAR_BESIDE_DOUBT_SHARE of it in that
# reading's size hull: the 10000-set's 10070, a clear large read at its size in doubt, 0.85,
# was read as a medium beside a new small; the pieces read beside a reading in doubt
# 0.14-0.37) and it is not a clear piece standing (``standing_clear``). From the edges: σ at
# least DOUBT_FLOOR_MM, never trusted. Black larges lit grey are read so too (the 9424-set's
# 9457, the 11152-set's 11310), named black by detect._grey_black_named.
CLEAR_BESIDE_MIN_AREA = 1.25
CLEAR_BESIDE_MAX_AREA = 1.2
CLEAR_BESIDE_OPEN_MM = 1.0
CLEAR_BESIDE_SHADE = (0.60, 0.95)
CLEAR_BESIDE_FILL = 0.85
CLEAR_BESIDE_ASPECT = 2.5
CLEAR_BESIDE_CAST = 0.30
CLEAR_BESIDE_CAST_GROW_MM = 2.0
CLEAR_BESIDE_SLIVER = WHITE_EDGES_SLIVER
CLEAR_BESIDE_DOUBT_SHARE = 0.5

# A clear piece beside a neighbour whose crisp area reads a little over CLEAR_BESIDE_SHADE
# (issue 4, session 46, recallclear56): the area takes the piece's bright edge band in (and a
# sliver of the lit neighbour it touches), so its median is over the inset footprint's. The
# 10000-set's 10082 (a clear large against a white small: area 0.952, its whole refit's inset
# 0.926) and the 8272-set's 8537 (a clear large against a black small: area 0.953) were turned
# down by the area's cheap test alone. So the area's median may reach CLEAR_BESIDE_AREA_LIT
# (the refit's inset shade is still held to CLEAR_BESIDE_SHADE); lit clear pieces' areas, whose
# insets are the table's, read 0.97-1.04 (the 10864-set's 11024 and 10892, 12880's 13070):
# those are asked by the lit path instead (CLEAR_LIT_AREA).
CLEAR_BESIDE_AREA_LIT = 0.96

# A clear large's crisp outline holds a medium's whole too (recallclear56): its open base's
# inner rim shows through its walls, a shorter outline nested at its tip, so both refits lie
# whole on the edges (the 8272-set's 8537: medium 1.0, large 1.0) and neither beats the other
# by WHITE_EDGES_MARGIN. A shorter piece's edges hold no longer outline whole (the longer one
# runs past its base on bare table), so where every size within the margin of the best is
# whole and each shorter one lies CLEAR_BESIDE_NESTED of its footprint inside the longest's,
# clear_beside_found reads the longest (in doubt, as every refit it reads).
CLEAR_BESIDE_NESTED = 0.9

# A clear piece's refit one sample in 80 short of WHITE_EDGES_WHOLE (issue 4, session 47,
# recallclear57): where it touches its neighbour the crisp outline bends into the neighbour's,
# so 77 of the 80 samples lie on the edges (share 0.9625): the 10288-set's 10331 (a clear
# small, its medium 0.85) and the 10864-set's 11108 (a clear small, its medium 0.7375) were
# left by that alone, every later test passing. The clear path reads a size whole from
# CLEAR_BESIDE_WHOLE, still beating every other size by WHITE_EDGES_MARGIN; the area's shape,
# shade and cast tests and the refit's inset, name, clash and size-doubt tests stand.
# Two samples short (issue 4, session 59, recallclear69): a clear large against a found large
# loses a run of its side along the neighbour's or its own lit side (76 of 80: 0.95): the
# 14896-set's 15032 (medium 0.86) and the 13168-set's 13283 (lit, the lit path; medium 0.88),
# and the 12304-set's 12407's small clear of its neighbour's reading (every medium refit on
# the neighbour: ``_whole_clear_of``); every later test passing. No case on the other side:
# at 0.9375 the pass read nothing more on the 14896-set's 78 laminate scenes, and on four sets
# (14896, 16048, 12304, 13168) 0.95 read only these cases; the nearest refits at 0.95 that are
# no right reading (the 12304-set's 12497 turned, 15566's and 16139's on the neighbour) are held
# by the name and clash tests.
CLEAR_BESIDE_WHOLE = 0.95

# A clear piece against a found one whose crisp area the cheap tests turn down (issue 4,
# session 55, recallclear65): its area is joined with the neighbour's shaded side or shadow,
# so it is under CLEAR_BESIDE_MIN_AREA (the 15472-set's 15620: 1.23 smalls), fills less of its
# hull than CLEAR_BESIDE_FILL (15725: 0.59; the 15184-set's 15389: 0.76) or shares over
# CLEAR_BESIDE_CAST with the neighbour's grown body and cast shadow (0.41, 0.40, 0.35), yet its
# own outline lies whole on the crisp edges at every sample, the next size 0.73-0.84. Such an
# area is refitted when it is one body (it fills CLEAR_JOINED_FILL of its hull, 0.59 the
# least case; its hull's least box at most CLEAR_BESIDE_ASPECT as long as wide, the cases
# 2.02-2.47: the check set 5104's 5141, an area 2.91 as long, 0.41 cast, beside a white
# medium's stern, was read as a false clear small when this bound was 3.0), no larger than the
# clear path's CLEAR_BESIDE_MAX_AREA, of clear shade (CLEAR_BESIDE_SHADE..AREA_LIT) and at
# over CLEAR_BESIDE_CAST but at most CLEAR_JOINED_CAST a found piece's grown body and cast
# shadow (joined with it: a cost gate, the lone and round areas of a scene, cast 0, are not
# refitted; 44 refits for nothing on the 15472-set's 70 laminate scenes without it; the cases
# 0.35-0.41; 13937's area,
# 0.64, refits a small whole at a turned heading and the found pieces' own shaded sides
# score 0.37-0.99: this bound sits inside that range, so the refit must be whole at every
# sample, CLEAR_JOINED_WHOLE, not CLEAR_BESIDE_WHOLE's 77 of 80, beating the others by
# WHITE_EDGES_MARGIN), and read when the clear path's later tests pass (inset shade, named
# clear, no clash nor overlap, no size doubt, not standing). In doubt (σ at least
# DOUBT_FLOOR_MM), never trusted; not lengthened by the strip rules at the end (15725's small
# was taken to a medium by the apex rule over its white neighbour's shade).
# A clear piece lying in its found neighbour's cast shadow (issue 4, session 60,
# recallclear70): the neighbour's shadow falls over it, so more of its area lies in the grown
# body and cast shadow: the 15760-set's 15953 (a clear medium 3.5 mm from an orange large:
# 0.64) and the 16048-set's 16307 (a clear small 1.2 mm from a yellow small: 0.47) were
# dropped before any refit, though their outlines lie whole on the crisp edges at every sample
# (15953's medium and a small nested at its tip both 1.0: the joined path reads the longest,
# ``_nested_whole`` at CLEAR_JOINED_WHOLE; 16307's small 1.0, the next 0.84). So the bound is
# 0.70: the cases 0.35-0.64 below it. No case on the other side sets it: with no bound at all
# the joined path read nothing but 15953 on the 15760-set and nothing new on the 15184- and
# 16336-sets (the nearest area above, 15184's 0.703, refitted and not read); 13937's area (0.64,
# a small whole at a turned heading) is held by the inset shade (0.54), and the found pieces'
# shaded faces and shadows of the guards (clearmiss53's five) by the shade, shape and whole
# tests, as before. Lowered to 0.50 by the lead after the merged tree's runs: the 14032-set's
# 14117 read a false clear small from an area lying 0.55-0.60 in a reading's body and cast
# shadow (at 0.55 it is left, at 0.60 read). At 0.50 16307 (0.47) is read and 15953 (0.64) is
# not: no bound keeps 15953 and leaves 14117.
CLEAR_JOINED_FILL = 0.55
CLEAR_JOINED_CAST = 0.50
CLEAR_JOINED_WHOLE = 1.0

# A clear small against a found piece whose crisp area that piece's reading cuts under a
# small's footprint (issue 4, session 61, recallclear71): the two share one crisp area; what
# the reading's outline, grown by crisp.COVER_GROW_MM, leaves of it and the opening
# (CLEAR_BESIDE_OPEN_MM) trims is under min(CLEAR_BESIDE_MIN_AREA, CLEAR_BAND_AREA[0]) of a
# small's footprint, so no path asked it: the 14320-set's 14339 (a clear small 1.1 mm from a
# white small, 0-10° 1280×720: area 0.83 smalls, cast 0.21; its small refit 1.0 at its pose,
# the medium 0.925; inset 0.66, named clear). Such an area, at least CLEAR_CUT_AREA of a
# small's footprint, touching a reading's grown outline (cut by it: a cost gate, and the tell
# that it is the part of a joined area the reading does not explain), one body (the joined
# path's shape) of clear shade, goes to the joined path whatever its cast share up to
# CLEAR_JOINED_CAST: read only from a refit whole at every sample (CLEAR_JOINED_WHOLE),
# beating the others by WHITE_EDGES_MARGIN, and the clear path's later tests (inset shade,
# named clear, no clash nor overlap, no size doubt, not standing). In doubt, never trusted.
# The other cut parts of the survey hold no size whole at every sample: the 14608-set's 14789
# (0.85 smalls, best 0.85), the 12880-set's 13040 (0.79, small 0.94), the 5968-set's 6038
# (0.87, small 0.988 at its pose, and on its black neighbour read grown as a large); the
# 13456-set's 13517 (0.45) and the 15472-set's 15584 (0.27) lie under the bound.
CLEAR_CUT_AREA = 0.75

# A clear piece on cloth or felt (issue 4, session 57, recallclear67): over the dark cloth it
# is lit, not darkened (its crisp area's median shade 1.04-2.01 of the table's: the 11728-set's
# 11957, the 10288-set's 10457, the 12880-set's 13052; the clear misses' areas there 0.57-2.77),
# so CLEAR_BESIDE_SHADE turns it down, and clear_beside_found asked no coloured table: its
# outline whole on the crisp edges at its size and pose, no pass read it. On cloth and felt
# (detect asks no wood table: the crisp map holds nothing of a clear piece on wood) only the
# clear path runs (the cheap tests, the joined path, the refit and _clear_beside_ok; no band,
# no black path), the area's median and the refit's inset held to CLEAR_CLOTH_SHADE instead.
# The bounds only keep out what is no clear plastic at all: a shadow under 0.6 (as on the
# laminate) and a white piece's lit face over 3.0; the name (classify_color, clear) and the
# whole refit carry the rule (see vision-history, recallclear67, for what the wide-open form
# read).
CLEAR_CLOTH_SHADE = (0.60, 3.0)

# A lit clear piece on the laminate whose crisp area is piece-shaped (issue 4, session 58,
# recallclear68): its faces pass the table's light, so the area's median shade is over
# CLEAR_BESIDE_AREA_LIT (the 10864-set's 10892, a clear small 2 mm from a clear small: 1.04;
# the 15760-set's 16037, a clear medium 2 mm from a black medium: 1.01) and the clear path
# turned it down before any refit, though its outline lies whole on the crisp edges at its size
# and pose (10892's small 1.0, the next 0.78; 16037's small and medium 1.0, nested). On a grey
# table such an area, its median over CLEAR_BESIDE_AREA_LIT up to CLEAR_LIT_AREA and at most
# CLEAR_BESIDE_CAST of it a found piece's grown body and cast shadow, is refitted (the lit
# path); the size whole on the crisp edges (CLEAR_BESIDE_WHOLE beating the others by
# WHITE_EDGES_MARGIN, or ``_nested_whole``) is read when its inset shade lies in
# CLEAR_BESIDE_SHADE[0]..CLEAR_LIT_AREA (10892 1.045, 16037's medium 0.964), it is named
# clear, or named white but lit like the table with no white piece's shade nor shadow
# (``lit_clear``: detect._bare_white; 10892: its darkest tenth 1.03, the ring 0.77), and the
# clash, overlap, size-doubt and standing tests pass. Its fit's id joins ``lit`` (named clear
# at the end); in doubt (σ at least DOUBT_FLOOR_MM), never trusted. An area with a part darker
# than clear plastic lets through (colors.darker_than_clear) is no lit clear piece: it goes on
# to the black path (the 10000-set's 10194, a black large lit grey, area 0.96, named clear,
# was read as a clear piece without this). No case on the other side sets the bound: with the
# area's and the inset's tops at 1.5 the lit path found no whole refit on the laminate scenes
# of the 14896-, 13744-, 14320- and 16048-sets and the check set 5104 (vision-history,
# recallclear68); 1.08 sits over the cases' 1.04 and 1.045 with room, the name and the whole
# outline carry the rule.
CLEAR_LIT_AREA = 1.08

# A lit clear piece on the laminate pointing at the viewer (issue 4, session 49,
# recallclear59): its faces pass the table's light (its inset 0.92-1.0 of the table), so the
# crisp map holds its outline only as a long band down its shaded side and shadow (the
# 10864-set's 11029, the 9136-set's 9262, the 9424-set's 9427: 1.0-1.8 of a small's
# footprint, filling 0.80-0.94 of its hull, the hull 4.1-7.4 times as long as wide, not
# piece-shaped). Such a band, CLEAR_BAND_AREA of a small's footprint, its hull
# CLEAR_BAND_ASPECT long, filling CLEAR_BAND_FILL of it, its median shade in
# CLEAR_BESIDE_SHADE..CLEAR_BESIDE_AREA_LIT (the cases 0.75-0.85), its long axis within
# CLEAR_BAND_RADIAL_DEG of the line from the camera's foot (the pieces point roughly at the
# viewer: the cases' bands 27-47° off it, 10864's 11061, not whole, 24°; a cost gate, with
# room) and no found piece's face or shadow (CLEAR_BESIDE_CAST), is refitted from its hull
# filled (the band's own points centre the starts on the shaded side: 9427's large 0.45 from
# them, 1.0 from the hull); the size whole on the crisp edges (CLEAR_BESIDE_WHOLE, beating
# the others by WHITE_EDGES_MARGIN; 11029's medium 0.988, 9262's 0.963, 9427's large 1.0) is
# read when its inset shade is in CLEAR_BAND_INSET (the cases 0.915-0.997), it is named
# clear, or named white but lit like the table with no white piece's shade nor shadow
# (``lit_clear``: detect._bare_white; the cases' darkest tenth 0.62-0.98, ring 0.76-0.84),
# and the clash, overlap, size-doubt and standing tests pass. Named clear, in doubt (σ at
# least DOUBT_FLOOR_MM), never trusted.
CLEAR_BAND_AREA = (1.0, 2.0)
CLEAR_BAND_ASPECT = (3.5, 8.0)
CLEAR_BAND_FILL = 0.7
CLEAR_BAND_RADIAL_DEG = 60.0
CLEAR_BAND_INSET = (0.60, 1.02)

# A black piece lit grey on the grey table (issue 4, session 45, recallwb55): pointing at the
# viewer, its faces mirror the light a mid grey, and the table estimate
# (segment.foreground_planes' first median, ~36 mm) takes the piece in, so the score map reads
# a ring of table round it and no pass proposes it (black53). Its crisp area (piece, shadow and
# edge band) is whole but too big for a clear piece's (1.19-1.31 of the largest footprint on the
# cases, over CLEAR_BESIDE_MAX_AREA) or too bright against that estimate (10194's 0.96, over
# CLEAR_BESIDE_SHADE), or the clear path's tests turn its refit down (not named clear, its
# inset shade too dark). So each crisp area clear_beside_found asks, up to
# GREY_BLACK_ALONE_MAX_AREA of the largest lying footprint, whose refit the clear path does not
# read, is read as black when:
# - one size's refit lies GREY_BLACK_ALONE_WHOLE on the crisp edges, beating every other
#   size's by GREY_BLACK_ALONE_MARGIN (the cases' true size 0.963-1.0, the next 0.79-0.9: its
#   lit side's edge is lost a little on the laminate, but no other size comes near);
# - classify_color names it clear or black;
# - on the image, not the estimate that took it in: its inset median value (channel max) is at
#   most GREY_BLACK_ALONE_V of the table ring round it (colors.value_share_of_ring: the cases
#   0.45-0.55; clear plastic's darkest 5 % alone stays at 0.54-0.60, colors.CLEAR_DARKEST_*,
#   its median well over), or, alone, a part of it is darker than clear plastic lets through
#   (colors.darker_than_clear);
# - alone (no reading within GREY_ALONE_MM), or touching a reading with the median test met
#   (a neighbour's dark open base or shade must not be its "near black face") and no clash
#   with nor overlap past GREY_BLACK_BESIDE_SLIVER of any reading (the check set 5104's 5216,
#   a black large touching a clear small, the 8560-set's 8768, a black medium touching an
#   orange small).
# - no hand's region nor skin within WHITE_ALONE_HAND_MM (``_near_hand``, as white_alone): the
#   9136-set's 9273 read a false black small by a hand (found by the test suite after the runs).
# From the edges: σ at least DOUBT_FLOOR_MM, never trusted; named black by find_pieces.
GREY_BLACK_ALONE_MAX_AREA = 1.5
GREY_BLACK_ALONE_WHOLE = 0.95
GREY_BLACK_ALONE_MARGIN = 0.1
GREY_BLACK_ALONE_V = 0.56
# The black path refits a crisp area the clear path turns down (not clear-like) only when the
# area's hull could be black plastic lit grey: its median value at most GREY_BLACK_AREA_V of
# the table ring round it (colors.value_share_of_ring) or a part of it darker than clear
# plastic lets through (colors.darker_than_clear). The refit costs ~68 M instructions (bench
# scene 1007's bright area, hull 0.92 of its ring, no dark part: refitted and turned down,
# 0.85 % of the 8-scene instruction figure); the black pieces the path reads have hulls at
# 0.46-0.57 with a dark part (10194, 10479, 10509, 6073; 8768 and 5216, clear-like, are not
# gated). GREY_BLACK_ALONE_V (the refit's inset, 0.56) with a wide margin: a cost gate, not a
# tell (issue 4, session 46, cost56).
GREY_BLACK_AREA_V = 0.75
GREY_BLACK_BESIDE_SLIVER = 0.02


def clear_beside_found(scene: Scene, view: TableView, bg: np.ndarray, edges: np.ndarray,
                       enclosed: np.ndarray, lying: list[Candidate],
                       standing: list[Candidate], hand_mask: np.ndarray,
                       standing_clear: Callable[[Candidate], bool],
                       black: set[int] | None = None,
                       lit_clear: Callable[[Candidate], bool] | None = None,
                       lit: set[int] | None = None,
                       joined: set[int] | None = None) -> list[Candidate]:
    """Clear pieces lit like the grey table read from the crisp areas (``enclosed``: the
    crisp map and its holes, view-size bool) the readings ``lying`` and ``standing`` and the
    hands (``hand_mask``) leave (CLEAR_BESIDE_*): an area darkened as clear plastic darkens,
    shaped like a lying piece and no reading's shaded face or cast shadow, refitted to the
    crisp ``edges`` from its axis; the size whose outline lies whole on them, named clear, not
    standing (``standing_clear``); in doubt (crisp._edges_candidate). A lit clear piece's
    band (CLEAR_BAND_*) is read so from its hull when named clear or ``lit_clear``; its fit's
    id joins ``lit`` (named clear at the end). An area joined with a found piece's shaded side
    (CLEAR_JOINED_*) is read only from a refit whole at every sample; its fit's id joins
    ``joined`` (not lengthened at the end: its longer sizes were not whole). On a coloured
    table (cloth or felt: detect asks no wood table) only the clear path, its shades held to
    CLEAR_CLOTH_SHADE."""
    if scene.shade is None:
        return []
    # On cloth or felt (a coloured table; detect asks no wood table) a clear piece is lit
    # over the dark cloth: only the clear path, its shade bounds CLEAR_CLOTH_SHADE.
    cloth = table_hue_sat(bg)[1] > COLOURED_TABLE_SAT
    shade_lo, area_hi = CLEAR_CLOTH_SHADE if cloth else (CLEAR_BESIDE_SHADE[0],
                                                          CLEAR_BESIDE_AREA_LIT)
    inset_shade = CLEAR_CLOTH_SHADE if cloth else CLEAR_BESIDE_SHADE
    if cloth:
        lit_clear = None  # no lit band (the black path is left by black_path below)
    grid = scene.grid
    ppm2 = grid.px_per_mm**2
    cover, left = _left_of(scene, enclosed, [*lying, *standing], hand_mask)
    if (win := _nonzero_window(left, WINDOW_PAD_PX)) is None:
        return []
    r = max(round(CLEAR_BESIDE_OPEN_MM * grid.px_per_mm), 1)
    opened = cv2.morphologyEx(left[win].view(np.uint8), cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2))
    lo = min(CLEAR_BESIDE_MIN_AREA, CLEAR_BAND_AREA[0]) * scene.small_area_mm2 * ppm2
    cut_lo = CLEAR_CUT_AREA * scene.small_area_mm2 * ppm2
    touch_disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 3,) * 2)
    band_px = tuple(a * scene.small_area_mm2 * ppm2 for a in CLEAR_BAND_AREA)
    hi = CLEAR_BESIDE_MAX_AREA * scene.max_area_mm2 * ppm2
    name = colour_namer(scene, view, bg)
    light: list[tuple[float, float] | None] = []
    out: list[Candidate] = []
    hi_black = GREY_BLACK_ALONE_MAX_AREA * scene.max_area_mm2 * ppm2
    for c0, r0, area in _areas(opened, min(lo, cut_lo), 0, (win, left.shape)):
        sl = (slice(r0, r0 + area.shape[0]), slice(c0, c0 + area.shape[1]))
        n_px = np.count_nonzero(area)
        # Under every path's least area: only a part a reading cut off (CLEAR_CUT_AREA).
        cut = n_px < lo
        small = n_px < CLEAR_BESIDE_MIN_AREA * scene.small_area_mm2 * ppm2
        shade_at: float | None = None  # the area's median shade, asked once

        def area_shade(sl: tuple[slice, slice] = sl, area: np.ndarray = area) -> float:
            nonlocal shade_at
            if shade_at is None:
                shade_at = float(median(scene.shade[sl][area]))
            return shade_at

        def clear_shade() -> bool:
            return shade_lo <= area_shade() <= area_hi

        # Touching the readings' grown outlines: the cover grown by r + 1 px over the area
        # meets it (the disc is symmetric: the area grown meets the cover).
        if cut and not ((_grown_within(cover, sl, touch_disc) & area).any()
                        and _piece_shaped(area, hi, CLEAR_JOINED_FILL, False)):
            continue
        shaped = not small and _piece_shaped(area, hi)
        clear_like = shaped and clear_shade()
        # A lit clear piece's area, over the clear path's shade (CLEAR_LIT_AREA): refitted,
        # its whole refit read when named clear or lit like the table (``lit_clear``).
        lit_area = (shaped and not clear_like and lit_clear is not None
                    and area_hi < area_shade() <= CLEAR_LIT_AREA)
        # Not piece-shaped: perhaps a lit clear piece's band (CLEAR_BAND_*).
        if not cut and not clear_like and lit_clear is not None and (wc := _lit_band(
                scene, edges, sl, area, band_px, lying, light, name)) is not None and (
                _clear_beside_ok(scene, view, bg, wc, lying + out, lying, standing_clear,
                                 CLEAR_BAND_INSET, lit_clear)):
            out.append(wc)
            if lit is not None:
                lit.add(id(wc.fit))
            continue
        # Turned down as small or not piece-shaped: perhaps a clear piece joined with its
        # neighbour's shaded side (CLEAR_JOINED_*), refitted when its cast share says so.
        by_side = (not clear_like and _piece_shaped(area, hi, CLEAR_JOINED_FILL, False)
                   and clear_shade())
        if small and not by_side:  # under a piece's area: only a band is read
            continue
        # Else perhaps a black piece lit grey (GREY_BLACK_ALONE_*): asked after the refit.
        black_path = not (small or cloth) and (clear_like or _piece_shaped(area, hi_black))
        if not (clear_like or black_path or by_side or lit_area):
            continue
        if not light:  # the scene's light, found once (a scene has one)
            light.append(_light_offset(scene, name)(lying))
        cast = _cast_share(scene, sl, area, lying, light[0])
        ys, xs = np.nonzero(area)
        pts = grid.to_mm(np.column_stack((xs + c0, ys + r0)).astype(float))
        refit: list[dict[Size, tuple[float, Pose]] | None] = []  # the area's refit, made once
        if lit_area and cast <= CLEAR_BESIDE_CAST:
            # No part darker than clear plastic lets through: no black piece lit grey (the
            # 10000-set's 10194, its area 0.96 and named clear, was read as a clear piece; it
            # goes on to the black path, as before).
            if not darker_than_clear(view, shapely.MultiPoint(pts).convex_hull, bg, ()) and (
                    (best := _refit_once(refit, scene, edges, pts)) is not None
                    and (whole := _whole_size(best, CLEAR_BESIDE_WHOLE)
                         or _nested_whole(scene, best)) is not None
                    and _clear_beside_ok(scene, view, bg, wc := _edges_candidate(scene, *whole),
                                         lying + out, lying, standing_clear,
                                         (CLEAR_BESIDE_SHADE[0], CLEAR_LIT_AREA), lit_clear)):
                out.append(wc)
                if lit is not None:
                    lit.add(id(wc.fit))
                continue
            if not black_path:
                continue
        if cast > CLEAR_BESIDE_CAST:
            # A found piece's shaded face or cast shadow; a clear piece against it shares
            # up to CLEAR_JOINED_CAST of its area with them (only its whole refit is read).
            if cast > CLEAR_JOINED_CAST or not (clear_like or by_side):
                continue
            clear_like, by_side, black_path = False, True, False
        elif by_side and not cut:
            # Joined with no found piece's side (at most CLEAR_BESIDE_CAST of it there): not
            # this path (a cost gate: round chits and lone areas were refitted for nothing).
            # A part a reading cut off (CLEAR_CUT_AREA) is joined with that reading.
            by_side = False
            if not (clear_like or black_path):
                continue
        if not clear_like and black_path and not _may_be_grey_black(view, bg, pts):
            black_path = False  # (GREY_BLACK_AREA_V: no refit)
            if not by_side:
                continue
        if (best := _refit_once(refit, scene, edges, pts)) is None:
            continue
        if clear_like and (whole := _whole_size(best, CLEAR_BESIDE_WHOLE)
                           or _nested_whole(scene, best)
                           ) is not None and _clear_beside_ok(
                scene, view, bg, wc := _edges_candidate(scene, *whole), lying + out, lying,
                standing_clear, inset_shade):
            out.append(wc)
            continue
        # Its best refit landed on a found reading (that piece's own outline, whole on the
        # edges it shares): each size's best refit clear of the readings (_whole_clear_of).
        if (clear_like or by_side) and (whole := _whole_clear_of(
                scene, best, refit[1], lying + out,
                CLEAR_BESIDE_WHOLE if clear_like else CLEAR_JOINED_WHOLE)) is not None and (
                _clear_beside_ok(scene, view, bg, wc := _edges_candidate(scene, *whole),
                                 lying + out, lying, standing_clear, inset_shade)):
            out.append(wc)
            if by_side and joined is not None:
                joined.add(id(wc.fit))
            continue
        # Whole at every sample, or nested sizes each whole at every sample (the longest read:
        # the 15760-set's 15953, a clear medium whose small nested at its tip is whole too).
        if by_side and (whole := _whole_size(best, CLEAR_JOINED_WHOLE)
                        or _nested_whole(scene, best, CLEAR_JOINED_WHOLE)) is not None and (
                _clear_beside_ok(scene, view, bg, wc := _edges_candidate(scene, *whole),
                                 lying + out, lying, standing_clear, inset_shade)):
            out.append(wc)
            if joined is not None:
                joined.add(id(wc.fit))
            continue
        # Not clear plastic: perhaps black plastic lit grey (GREY_BLACK_ALONE_*).
        if black_path and (whole := _whole_size(best, GREY_BLACK_ALONE_WHOLE,
                                                GREY_BLACK_ALONE_MARGIN)
                           ) is not None and _grey_black_alone(
                    scene, view, bg, wc := _edges_candidate(scene, *whole),
                    lying + standing + out) and not _near_hand(scene, view, bg, wc, hand_mask):
            out.append(wc)
            if black is not None:
                black.add(id(wc.fit))
    return out


def _refit_once(memo: list, scene: Scene, edges: np.ndarray, pts: np.ndarray
                ) -> dict[Size, tuple[float, Pose]] | None:
    """:func:`_whole_from_area` of the crisp area of table points ``pts`` (mm, N × 2), kept in
    ``memo`` (empty until asked; then the refits' best and every refit tried, its second
    item): clear_beside_found's lit path and its later paths refit one area alike."""
    if not memo:
        tried: list[tuple[Size, float, Pose]] = []
        memo.extend((_whole_from_area(scene, edges, pts, None, tried), tried))
    return memo[0]


def _whole_clear_of(scene: Scene, best: dict[Size, tuple[float, Pose]],
                    tried: list[tuple[Size, float, Pose]], others: list[Candidate],
                    whole: float) -> tuple[Size, Pose] | None:
    """The size and pose whole on the crisp edges (``whole``, beating the other sizes by
    WHITE_EDGES_MARGIN) among a crisp area's refits that land on no reading of ``others`` (no
    clash, no overlap past CLEAR_BESIDE_SLIVER), asked only when the best refit (``best``:
    each size's best; ``tried``: every refit made) lands on one; else None.

    A clear piece against a found one shares its crisp area and the edges between them: the
    refit from the area's starts may settle on the neighbour's own outline, whole on those
    edges (the 12304-set's 12407: its small refit 1.0 on the purple small it touches), and the
    area was dropped for the clash though another start's refit lies on the clear piece (its
    small 0.95 at its pose). A size whose every refit lands on a reading (the neighbour's
    outline again, 12407's medium 0.95) does not compete; the later tests
    (``_clear_beside_ok``: inset shade, named clear, no clash, no size doubt, not standing)
    stand. No refit is added: only the ones the area's refit made are asked."""
    def lands_on(size: Size, pose: Pose) -> bool:
        c = _edges_candidate(scene, size, pose)
        return clashes(c, others, scene) or overlaps_any(scene, c, others, CLEAR_BESIDE_SLIVER)

    z, (_share, q) = max(best.items(), key=lambda t: t[1][0])
    if not lands_on(z, q):
        return None
    clear: dict[Size, tuple[float, Pose]] = {}
    for y, share, p in tried:
        if share > clear.get(y, (-1.0, p))[0] and not lands_on(y, p):
            clear[y] = (share, p)
    # The sizes whose every refit lands on a reading (the neighbour's outline) do not compete.
    return _whole_size(clear, whole) if clear else None


def _may_be_grey_black(view: TableView, bg: np.ndarray, pts: np.ndarray) -> bool:
    """Whether the crisp area of table points ``pts`` (mm, N × 2) could be black plastic lit
    grey, so that clear_beside_found's black path refits it: its hull's median value at most
    GREY_BLACK_AREA_V of the table ring round it (unknown counts as could), or a part of it
    darker than clear plastic lets through (``bg``: the table estimate, BGR view px).

    >>> import numpy as np
    >>> from armada_vision.vision.fit import ViewGrid
    >>> from armada_vision.vision.segment import TableView
    >>> grid = ViewGrid(0.0, 100.0, 1.0, (100, 100))
    >>> img = np.full((100, 100, 3), 150, np.uint8)
    >>> ones = np.ones((100, 100), bool)
    >>> view = TableView(img, grid, ~ones, ones)
    >>> bg = img.astype(np.float32)
    >>> pts = np.array([[40.0, 40.0], [60.0, 40.0], [60.0, 60.0], [40.0, 60.0]])
    >>> _may_be_grey_black(view, bg, pts)  # as bright as the table round it
    False
    >>> img[45:56, 45:56] = 40
    >>> _may_be_grey_black(view, bg, pts)  # dim against it
    True
    """
    hull = shapely.MultiPoint(pts).convex_hull
    share = value_share_of_ring(view, hull)
    return share is None or share <= GREY_BLACK_AREA_V or darker_than_clear(view, hull, bg, ())


def _nested_whole(scene: Scene, best: dict[Size, tuple[float, Pose]],
                  whole: float = WHITE_EDGES_WHOLE) -> tuple[Size, Pose] | None:
    """Of each size's refit (its share of outline on the crisp edges, its pose; table mm), the
    longest size and pose when every size within WHITE_EDGES_MARGIN of the best share is whole
    on the edges (``whole``: WHITE_EDGES_WHOLE; the joined path's CLEAR_JOINED_WHOLE) and each
    shorter one lies CLEAR_BESIDE_NESTED of its footprint inside the longest's (a clear piece's
    open base rim nested at its tip); else None."""
    top = max(s for s, _q in best.values())
    near = [(y, q) for y, (s, q) in best.items() if s >= top - WHITE_EDGES_MARGIN]
    if top < whole or len(near) < 2 or any(best[y][0] < whole for y, _q in near):
        return None
    dims = scene.pieces.dims
    longest, lq = max(near, key=lambda t: dims(t[0]).footprint_length_mm)
    outer = footprint(lq, dims(longest))
    for y, q in near:
        inner = footprint(q, dims(y))
        if y != longest and inner.intersection(outer).area < CLEAR_BESIDE_NESTED * inner.area:
            return None
    return longest, lq


def _near_hand(scene: Scene, view: TableView, bg: np.ndarray, wc: Candidate,
               hand_mask: np.ndarray) -> bool:
    """Whether a hand's region or skin (over WHITE_ALONE_SKIN_SHARE of the pixels) lies within
    WHITE_ALONE_HAND_MM of ``wc``'s footprint: a finger's tip and its shadow are no white piece
    alone, nor a black one lit grey (the 9136-set's 9273 read a false black small by a hand,
    GREY_BLACK_ALONE_*)."""
    grid = scene.grid
    near = scene.footprint(wc)[0].buffer(WHITE_ALONE_HAND_MM)
    hsl, hm = grid.polygon_crop([grid.to_px(np.asarray(near.exterior.coords))])
    return bool((hand_mask[hsl] & hm).any()) or _skin_share(
        view.image_bgr[hsl][hm].reshape(-1, 3), bg) > WHITE_ALONE_SKIN_SHARE


def _clear_beside_ok(scene: Scene, view: TableView, bg: np.ndarray, wc: Candidate,
                     others: list[Candidate], lying: list[Candidate],
                     standing_clear: Callable[[Candidate], bool],
                     shade: tuple[float, float] = CLEAR_BESIDE_SHADE,
                     lit_clear: Callable[[Candidate], bool] | None = None) -> bool:
    """Whether clear_beside_found reads the refit ``wc``: its inset shade in ``shade``
    (CLEAR_BESIDE_SHADE; a lit band's CLEAR_BAND_INSET), named clear (or, named white,
    ``lit_clear`` when given), no clash with ``others`` nor overlap past CLEAR_BESIDE_SLIVER,
    not the other end of a reading of ``lying`` in size doubt, not a clear piece standing
    (``standing_clear``)."""
    return not ((lit := _inset_shade(scene, wc)) is None
                or not shade[0] <= lit <= shade[1]
                or not _named_clear(view, bg, scene, wc, lit_clear)
                or clashes(wc, others, scene)
                or overlaps_any(scene, wc, others, CLEAR_BESIDE_SLIVER)
                or in_size_doubt_of(scene, wc, lying, CLEAR_BESIDE_DOUBT_SHARE)
                or standing_clear(wc))


def _lit_band(scene: Scene, edges: np.ndarray, sl: tuple[slice, slice], area: np.ndarray,
              band_px: tuple[float, float], lying: list[Candidate],
              light: list[tuple[float, float] | None], name: Callable) -> Candidate | None:
    """The refit (crisp._edges_candidate) of a lit clear piece from the crisp ``area`` (bool
    on the view window ``sl``) when it is a band down such a piece's shaded side (CLEAR_BAND_*:
    its size, hull, fill, shade, turn from the camera's radial line, no found piece's face or
    shadow), the size whole on the crisp ``edges``; else None. ``light``: the scene's light,
    found once into it (its first item)."""
    n_px = np.count_nonzero(area)
    if not band_px[0] <= n_px <= band_px[1]:
        return None
    cnt = cv2.findContours(area.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    hull = cv2.convexHull(np.vstack(cnt))
    (_x, _y), (w, h), _deg = cv2.minAreaRect(hull)
    if not (CLEAR_BAND_ASPECT[0] * min(w, h) <= max(w, h) <= CLEAR_BAND_ASPECT[1] * min(w, h)
            and n_px >= CLEAR_BAND_FILL * cv2.contourArea(hull)
            and CLEAR_BESIDE_SHADE[0] <= float(median(scene.shade[sl][area]))
            <= CLEAR_BESIDE_AREA_LIT):
        return None
    filled = np.zeros(area.shape, np.uint8)
    cv2.fillConvexPoly(filled, hull, 1)
    ys, xs = np.nonzero(filled)
    grid = scene.grid
    pts = grid.to_mm(np.column_stack((xs + sl[1].start, ys + sl[0].start)).astype(float))
    mid = pts.mean(axis=0)
    v = np.linalg.eigh(np.cov((pts - mid).T))[1][:, 1]
    axis = Pose(float(mid[0]), float(mid[1]), math.degrees(math.atan2(v[1], v[0])) % 360.0)
    off = abs(scene.off_radial_deg(axis))
    if min(off, 180.0 - off) > CLEAR_BAND_RADIAL_DEG:
        return None
    if not light:  # the scene's light, found once (a scene has one)
        light.append(_light_offset(scene, name)(lying))
    if _cast_share(scene, sl, area, lying, light[0]) > CLEAR_BESIDE_CAST:
        return None
    if (best := _whole_from_area(scene, edges, pts, None)) is None or (
            whole := _whole_size(best, CLEAR_BESIDE_WHOLE)) is None:
        return None
    return _edges_candidate(scene, *whole)


def _named_clear(view: TableView, bg: np.ndarray, scene: Scene, wc: Candidate,
                 lit_clear: Callable[[Candidate], bool] | None) -> bool:
    """Whether ``wc``'s footprint is named clear, or, with ``lit_clear``, named white and
    ``lit_clear(wc)`` (a lit clear piece the table's light passes)."""
    named = classify_color(view, scene.footprint(wc)[0], bg)
    return named == "clear" or (lit_clear is not None and named == "white" and lit_clear(wc))


def _grey_black_alone(scene: Scene, view: TableView, bg: np.ndarray, wc: Candidate,
                      others: list[Candidate]) -> bool:
    """Whether the refit ``wc`` (nearly whole on the crisp edges) is a black piece lit grey
    (GREY_BLACK_ALONE_*), named clear or black by classify_color, read on the image, not on
    the table estimate that took the piece in: alone (no reading of ``others`` within
    GREY_ALONE_MM), a part of it darker than clear plastic lets the table ring round it through
    (colors.darker_than_clear) or its median value at most GREY_BLACK_ALONE_V of that ring's;
    touching a reading, the median so and no clash with nor overlap of any
    (GREY_BLACK_BESIDE_SLIVER)."""
    fp = scene.footprint(wc)[0]
    if classify_color(view, fp, bg) not in ("clear", "black"):
        return False
    dim = (v := value_share_of_ring(view, fp)) is not None and v <= GREY_BLACK_ALONE_V
    near = fp.buffer(GREY_ALONE_MM)
    if not any(near.intersects(scene.footprint(o)[0]) for o in others):
        return dim or darker_than_clear(view, fp, bg, ())
    return dim and not (clashes(wc, others, scene)
                        or overlaps_any(scene, wc, others, GREY_BLACK_BESIDE_SLIVER))


def _piece_shaped(area: np.ndarray, most_px: float, fill: float = CLEAR_BESIDE_FILL,
                  not_round: bool = True) -> bool:
    """Whether the crisp ``area`` (bool, view px) is one solid body of a lying piece's shape:
    at most ``most_px`` pixels, filling ``fill`` of its convex hull, the hull's least box no
    longer than CLEAR_BESIDE_ASPECT of its width, and, with ``not_round``, the hull not round
    (crisp.ROUND_MIN). A clear piece joined with its neighbour's shaded side is asked with
    CLEAR_JOINED_FILL and may be round (CLEAR_JOINED_*)."""
    n_px = np.count_nonzero(area)
    if n_px > most_px:
        return False
    cnt = cv2.findContours(area.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    hull = cv2.convexHull(np.vstack(cnt))
    hull_px = cv2.contourArea(hull)
    (_x, _y), (w, h), _deg = cv2.minAreaRect(hull)
    if n_px < fill * hull_px or max(w, h) > CLEAR_BESIDE_ASPECT * min(w, h):
        return False
    perimeter = cv2.arcLength(hull, True)
    return not not_round or 4.0 * np.pi * hull_px < ROUND_MIN * perimeter * perimeter


def _cast_share(scene: Scene, sl: tuple[slice, slice], area: np.ndarray,
                lying: list[Candidate], light: tuple[float, float] | None) -> float:
    """The share of the crisp ``area`` (bool on the view window ``sl``) lying where a lying
    reading of ``lying``'s body and the shadow it casts in the light's ``light`` offset
    (shadows.cast_offset; its body alone when None) cover the table, grown by
    CLEAR_BESIDE_CAST_GROW_MM."""
    grid = scene.grid
    x0, y0 = sl[1].start, sl[0].start
    h, w = area.shape
    corners = grid.to_mm(np.array([[x0, y0], [x0 + w, y0], [x0, y0 + h], [x0 + w, y0 + h]],
                                  float))
    box = shapely.box(*corners.min(axis=0), *corners.max(axis=0)).buffer(
        CLEAR_BESIDE_CAST_GROW_MM)
    mask = np.zeros(area.shape, np.uint8)
    offset = (0.0, 0.0) if light is None else light
    for o in lying:
        if o.upright:
            continue
        hull = shapely.MultiPoint(_cast_hull(o, scene.pieces, offset)).convex_hull
        if hull.intersects(box):
            grown = np.asarray(hull.buffer(CLEAR_BESIDE_CAST_GROW_MM).exterior.coords)
            cv2.fillPoly(mask, [np.round(grid.to_px(grown) - (x0, y0)).astype(np.int32)], 1)
    return float(np.count_nonzero(mask.view(bool) & area)) / max(np.count_nonzero(area), 1)


def _whole_from_area(scene: Scene, edges: np.ndarray, pts: np.ndarray,
                     others: list[Candidate] | None,
                     tried: list[tuple[Size, float, Pose]] | None = None
                     ) -> dict[Size, tuple[float, Pose]] | None:
    """Each size's refit to the crisp ``edges`` (its share of outline on them, its pose) from
    starts along the axis of the area of table points ``pts`` (mm; WHITE_BESIDE_TURNS_DEG,
    WHITE_BESIDE_ALONG), each size's footprint centred on the area and shifted along by
    WHITE_BESIDE_ALONG of its length: the start nearest the edges refined, the next ones up to
    WHITE_BESIDE_REFINED only of a size whose first refit comes near the edges
    (WHITE_BESIDE_PROMISE). None when ``others`` is given and the first refits' best clashes
    with or overlaps one of them by more than a sliver (WHITE_EDGES_SLIVER; white_beside_found:
    a neighbour's shadow's area ends there). ``tried``, when given, gets every refit made (size,
    share, pose), the best or not."""
    grid = scene.grid
    mid = pts.mean(axis=0)
    v = np.linalg.eigh(np.cov((pts - mid).T))[1][:, 1]
    axis = math.degrees(math.atan2(v[1], v[0]))
    dist, (x0, y0), clipped = _edge_window_round(grid, edges, pts)
    best: dict[Size, tuple[float, Pose]] = {}
    order: dict[Size, tuple[list[Pose], np.ndarray]] = {}
    for z in Size:
        d_z = scene.pieces.dims(z).footprint_length_mm
        starts = []
        for turn in WHITE_BESIDE_TURNS_DEG:
            h = axis + turn
            u = np.array([math.cos(math.radians(h)), math.sin(math.radians(h))])
            for along in WHITE_BESIDE_ALONG:
                st = mid - (0.5 + along) * d_z * u
                starts.append(Pose(float(st[0]), float(st[1]), h % 360.0))
        # All starts' outlines at once (crisp._outline_samples_many: the very floats of
        # one _outline_samples call each) and each start's mean on its own row, as one
        # call's mean: the same order, ~36 outline calls a size fewer.
        at = np.round(grid.to_px(_outline_samples_many(
            scene, starts, lying_local_3d(scene.pieces.dims(z)))) - (x0, y0)).astype(int)
        near = [float(g.mean()) for g in clipped_at(clipped, at.reshape(len(starts), -1, 2))]
        order[z] = (starts, np.argsort(near, kind="stable")[:WHITE_BESIDE_REFINED])
        best[z] = _white_edges_refit(scene, z, starts[order[z][1][0]], dist, (x0, y0), edges)
        if tried is not None:
            tried.append((z, *best[z]))
    if others is not None:
        z, (_share, q) = max(best.items(), key=lambda t: t[1][0])
        first = _edges_candidate(scene, z, q)
        if clashes(first, others, scene) or overlaps_any(scene, first, others,
                                                         WHITE_EDGES_SLIVER):
            return None
    for z, (starts, idx) in order.items():
        if best[z][0] < WHITE_BESIDE_PROMISE:
            continue
        for j in idx[1:]:
            share, q = _white_edges_refit(scene, z, starts[j], dist, (x0, y0), edges)
            if tried is not None:
                tried.append((z, share, q))
            if share > best[z][0]:
                best[z] = (share, q)
    return best
