"""A reading's size from the strip between its stern and a longer size's: is that strip the
table, the piece's own plastic, or its shaded base?

Frames: table mm (+y away from the viewer) for poses and strips; view px (y down) for maps.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import shapely

from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.vision.colors import classify_color
from armada_vision.vision.crisp import _edges_candidate, _outline_samples
from armada_vision.vision.fit import outline_mm, sample_map
from armada_vision.vision.look import FACES_CAN_VANISH, median_in, median_shade
from armada_vision.vision.open_base import (
    _base_seen_at,
    _base_shades_at,
    near_edges,
    shades_in,
    values_in,
)
from armada_vision.vision.order import median
from armada_vision.vision.scene import Candidate, Scene, clashes, reading_gap
from armada_vision.vision.segment import TableView

# A clear reading in size doubt whose stern is cut short (issue 4, session 26, csize34): on the
# 6832-set 13 of the 21 clear pieces read one or two sizes short end within 4 mm of the true
# tip and 5-20 mm inside the true stern. The camera sees into the open base, which on a clear
# piece is the table darkened through its walls (or lit, on a lit piece), not a dark hollow,
# so size33's base lanes (open_base.longer_past_face) do not pass, and the readings of the
# crisp and desaturated passes have no longer fit on the main map. But the strip a longer size
# from the same tip adds past the stern (its outline as seen less the reading's grown by
# STRIP_GROW_MM, less the other readings') shows the piece: over the 88 longer sizes of the
# set's clear readings in size doubt that are right, the strip's median shade is 0.87-1.09
# (the table; its darkest 6998's, 0.87, a shadow on felt); over the short ones 0.65-0.74 (6:
# 6839, 7007, 7042, 7087, 7109, 7116) or, on a lit piece (its inside at least
# CLEAR_STRIP_LIT), 1.38-1.63 (6839, 7100), the other five 0.88-1.13. So such a reading is
# replaced by the longest longer size from its tip whose strip, at least STRIP_FREE of it off
# the other readings, has a median shade at most CLEAR_STRIP_DARK (or, lit, at least
# CLEAR_STRIP_LIT) and that clashes with no other reading; set at that pose, not fitted, its σ
# covers the shorter reading (never trusted: the size is the view's shade, not a fit).
CLEAR_STRIP_DARK = 0.8
# ... and on a coloured table, by its grey (issue 4, session 35, size45). A clear piece on a
# coloured table mutes its colour (saturation over the table's, segment.saturation_ratio,
# 0.5-0.9 where the piece is: on wood 0.8-0.9) but not its light: its strip past a reading cut
# short at its stern has the table's shade (0.85-1.1 for the 8560-set's clear larges on wood
# read as smalls from their tips) and no crisp edge in the grain. The strips of readings at
# their size (bare table) keep 0.95-1.05 of the table's saturation. So a clear reading in size
# doubt that is itself grey (at most CLEAR_GREY over its footprint) has its strip pass too
# when the strip's median saturation lies nearer the reading's than the table's (under their
# mean), and so does the strip's part past the next shorter size (its last 10 mm, which a piece
# of that size leaves bare: the 8560-set's 8620, a clear medium on felt read as a small, its
# large's strip 0.83, that last part 0.99), or that part is at most CLEAR_GREY: the open base
# keeps more of the table's colour (the table seen through the back walls, little light
# added): 8784's large, its reading at 0.58, its last part 0.83.
CLEAR_GREY = 0.9
CLEAR_STRIP_LIT = 1.2
STRIP_FREE = 0.9
STRIP_GROW_MM = 0.7
# ... and by its shade beside it (issue 4, session 37, size47). A faint clear piece read short
# at its stern often lies where the table is lit over its estimate (its caustic, or the
# light's fall-off the estimate smooths over), so its strip, the table darkened through the
# open base's walls, keeps a shade near the table estimate's (the 9712-set's 9772, a clear
# large on wood read as a medium from its tip at σ 9.9 mm: strip 0.85, the table beside it
# 1.11; 9911's clear large read as a small: 0.91 beside 1.11) and CLEAR_STRIP_DARK's 0.8 does
# not pass it. Set against the table beside the strip (a band CLEAR_BESIDE_MM out from the
# longer outline, within CLEAR_BESIDE_MM[1] + 1 mm of the strip, off the reading and the other
# readings), the strips of right clear readings in size doubt keep 0.89 of it or more (9712-
# set: 9803's medium 0.89, a shade fall-off, most 0.95-1.04; 9424-set 0.91 and up), the
# short ones' 0.69-0.86. So a clear reading in size doubt that no rule above made longer is
# read at the longest longer size from its tip whose strip, at least STRIP_FREE of it off
# the other readings, and the strip's part past the next shorter size have a median shade
# at most CLEAR_STRIP_BESIDE of the band's median, and that clashes with no other reading:
# set there, not fitted, its σ covering the shorter reading, named clear as it was
# (9424-set: 9566's and 9588's clear larges on wood, read as smalls, 0.71-0.81 of the table
# beside them; their larges' footprints take in the wood seen through the open base and are
# named yellow). Merged with the session's other branches, two right smalls were made longer
# (the 8272-set's 8445, a white small read as clear: its medium's strip 0.852 of the table
# beside it; the 8848-set's 9085, a clear small: its large's strip 0.79, the part past the
# medium 0.40, a shadow): the bound is CLEAR_STRIP_BESIDE 0.84 (9800's large, 0.857, is given
# up), and a strip or its last part darker than CLEAR_STRIP_FLOOR of the band is a shadow or a
# dark thing, not the table seen through two walls of clear plastic (the short readings'
# strips 0.71 and up).
CLEAR_STRIP_BESIDE = 0.84
# ... on a coloured table (issue 4, session 46, sizeclear56), at most
# CLEAR_STRIP_BESIDE_COLOURED. The clear larges on wood read a size or two short from their tip
# (the stern 7-18 mm short: the open base's rim drowned in the grain) have their large's strip
# at 0.846-0.873 of the table beside it and its part past the medium at 0.842-0.854 (the base
# runs' 10576-set 10719, 10864-set 11037, 12016-set 12198, 12880-set 12901, 8560-set 8742,
# 9712-set 9800: session 37's "9800 given up"; /work/scratch/sizeclear56/diag_wood.txt), under
# the 0.89 and up the right clear readings keep (9803's medium 0.89, a fall-off; most
# 0.95-1.04). The two right smalls that set CLEAR_STRIP_BESIDE lay on a grey table (8445, the
# laminate: its medium 0.852) or had a shadow past the medium (9085, under the floor); on a
# grey table the bound stays. Not where the longer outline comes within CLEAR_STRIP_HAND_MM of a
# hand's region: the check set 5104's 5311 (a clear medium on cloth read as a small, its stern
# against a hand) has its large's strip at 0.860 of the table beside it, the hand's shade, its
# medium's at 0.994.
CLEAR_STRIP_BESIDE_COLOURED = 0.875
CLEAR_STRIP_HAND_MM = 4.0
CLEAR_STRIP_FLOOR = 0.6
CLEAR_BESIDE_MM = (1.5, 4.0)
# ... and from its stern, the tip short (issue 4, session 39, clearsize49). The other half of
# the clear pieces read short keep their stern and lose their tip: on laminate the apex is a
# thin grey wedge of two walls fading into the table and the piece's own soft shadow, and the
# fit stops where the open base's dark ends (the 8272-set's 8282, a clear medium read as a
# small, stern 1.1 mm off, tip 11 mm short, σ 22.5 mm; 8309's large read as a medium; the
# 10288-set's 10393 and 10521's two mediums read as smalls). The rules above set the longer
# sizes from the reading's tip, so never reach them. Set from the reading's stern and heading
# instead, the strip a longer size adds past the reading's tip (the outline as seen less the
# reading's grown by STRIP_GROW_MM, at least STRIP_FREE of it off the other readings) is those
# walls: against the table beside it (CLEAR_BESIDE_MM) 0.84-0.89 for those five (8282 0.84,
# 10393 0.85, 10521 0.85 and 0.87, 8309 0.89), and the longer outline past the reading lies on
# the crisp edges (the walls' sides, open_base.near_edges as for EDGE_LONGER_SHARE) for 0.41-
# 0.75 of its samples. Right clear readings in size doubt on the 8272- and 10288-sets have a
# strip at 0.907 of the table beside it or more (a faint shadow past the tip), and those under
# 0.93 (8327, 8357, 8371, 10363) an edge share of 0.38 or less. So a clear reading in size
# doubt that no rule above made longer is read at the longest longer size from its stern whose
# strip, and its part past the next shorter size, are at most CLEAR_TIP_BESIDE of the table
# beside them (at least CLEAR_STRIP_FLOOR) and whose outline past the reading lies on the
# edges for at least CLEAR_TIP_EDGES of its samples, and that clashes with no other reading:
# set there, not fitted, its σ covering the shorter reading (never trusted: the size is the
# view's, not a fit's), named clear as the reading was. Readings named white (their shaded
# base and shadow darken a strip past the tip just as much: the 8272-set's 8291, 8406, white
# smalls at 0.80-0.84) are not asked.
CLEAR_TIP_BESIDE = 0.9
CLEAR_TIP_EDGES = 0.4
# ... unless the longer size's tip comes within CLEAR_TIP_OFF_MM of another reading: its strip
# then takes in that piece's shadow and its edges those of that piece (the 10000-set's 10007, a
# clear small whose tip points at a cyan large's stern, 1280×720: its medium's strip 0.84 of the
# table beside it, edge share 0.53, the medium's tip on the cyan's outline; the longer sizes
# read so on the 8272- and 10288-sets end 14 mm or more from any other reading).
CLEAR_TIP_OFF_MM = 5.0
# ... and unless that outline lies on the edges nearly all along (over CLEAR_TIP_EDGES_MAX): a
# faint apex shows only part of its walls as crisp steps (0.40-0.75 on the pieces read so on
# the 8272-, 10288-, 8848- and 5104-sets), a neighbour's whole sides are crisp (the 8848-set's
# 8849: two clear mediums side by side head to tail, one missed; the found one's large from its
# stern lies over the other, strip 0.81, edge share 0.89).
CLEAR_TIP_EDGES_MAX = 0.8
# ... and, when no longer size passes at the heading as read, the same tests at that heading
# turned by CLEAR_TIP_TURN_DEG either way (issue 4, session 39, clearturn49). Half the clear
# pieces read short from their stern are also read turned 15-25°: the faint apex lost, the fit
# leans toward the piece's own shadow or a wall, and the longer size set straight on from the
# stern runs its strip partly off the piece, where only a few of its outline samples meet the
# walls' crisp edges (edge share 0.29-0.39 as read on the 8272-set's 8277, the 10000-set's
# 10260, the 9424-set's 9543's large and medium, the 8848-set's 8919 and the 8560-set's 8610,
# strip 0.84-0.90 of the table beside it). Turned 10° toward the piece the outline lies near
# the true one: strip 0.80-0.87, edge share 0.41-0.55. The stern stays (5-9 mm off on these),
# the heading is the turned one (5-15° off the truth, from 15-25°); never trusted (σ covers the
# shorter reading). Right clear readings in size doubt on those scenes (8610's two smalls,
# 9543's small) keep strips of 0.92 or more and edge shares of 0.20 or less turned. A size
# whose outline at the heading as read lies on the edges nearly all along (over
# CLEAR_TIP_EDGES_MAX: a neighbour's sides) is not turned: the 8848-set's 8849's large from
# the found clear medium's stern, 0.89 as read, turned 10° toward the missed medium beside it
# has strip 0.70 and edge share 0.52, that piece's shadow and sides.
CLEAR_TIP_TURN_DEG = 10.0
# ... and on a grey table (the laminate: segment.saturation_ratio None), a size turned
# CLEAR_TIP_TURN_DEG whose outline lies on the edges nearly all along is the piece's own crisp
# sides, not a neighbour's (issue 4, session 52, sizeclear62): a clear piece on the laminate
# seen whole, its tip crisp, read short from its stern and turned 10-15° (the 12880-set's
# 12908 and the 14608-set's 14894, clear mediums read as smalls: their mediums turned 10°
# toward the piece have strips 0.84 / 0.77 of the table beside them and edge shares 0.94 /
# 0.90; the 10864-set's 10887, a clear large read as a medium: its large turned -10° 0.74,
# 0.81). A neighbour's whole sides past the reading are caught straight on (the 8848-set's
# 8849: 0.89 as read, so never turned); turned, CLEAR_TIP_EDGES_MAX is not asked there ...
CLEAR_TIP_TURN_EDGES_MAX = 1.0
# ... but such a size's strip must be no darker than CLEAR_TIP_TURN_FLOOR of the table beside
# it: a black piece lit grey and read clear has its shadow's crisp edges all along its longer
# size turned, and its shadow darker than clear walls (the 9424-set's 9427, a black medium
# read as a clear medium: its large turned -10° 0.664, edge share 0.81, read as a large;
# the clear pieces above 0.74-0.84).
CLEAR_TIP_TURN_FLOOR = 0.7
# A clear reading in size doubt read short from its stern whose FIT barely holds, the longer
# size's strip ahead of its tip darker than the table beside it (issue 4, session 54,
# sizeclear64). On wood and the laminate the tip-short class's longer strips keep the table's
# shade as CLEAR_TIP_BESIDE measures them (0.91-0.95 of the table beside them: the 14896-set's
# 15067, a clear large on wood read as a medium, 0.915; the 14032-set's 14211, a clear medium
# read as a small, 0.961; the 14608-set's 14610 on the laminate, 0.947) and lie on no crisp
# edge (CLEAR_TIP_EDGES: 0.00 on wood): that strip is mostly the longer size's wider sides,
# the table beside the reading. Its part AHEAD of the reading's tip (less CLEAR_APEX_BACK_MM),
# the faint apex's two walls, is darker: 0.872 (15067's large), 0.855 (14211's medium), 0.905
# (14610's large) of the table beside it. A right reading's part ahead may hold its own faint
# shadow: over the clear readings the strip rules ask on the 14608-, 14896- and 14032-sets
# (/work/scratch/sizeclear64/v1/apex_*.txt, v2/) right ones reach 0.639 (a shadow), 0.878,
# 0.884, 0.895 (the 14896-set's 14912, a medium) and 0.91-0.92, all fitted well (cost
# 0.21-0.40), where the three short ones fit badly (0.490-0.536: the fit stopped short of a
# tip it could not find). So such a reading costing
# CLEAR_APEX_COST or more (the doubtful fits' band, between scene.GOOD_COST and MAX_COST) is
# read at the longest longer size from its stern and heading whose part ahead of its tip is at
# most CLEAR_APEX_BESIDE (at least CLEAR_STRIP_FLOOR) of the table beside it, whose tip lies
# CLEAR_TIP_OFF_MM or more from the other readings and that clashes with no other reading:
# set there, not fitted, its σ covering the shorter reading (never trusted), named clear. The
# margins: the cost gate 0.490 (14610) against 0.398 (14912). The bound was first 0.91 (for
# 14610's 0.905); the merged tree's run of the check set 5104 read 5259, a right clear small on
# wood (1280×720, 22-35°, fitted at 0.511), as a medium over its medium's part ahead at 0.902,
# so it sits between that and the highest of the other cases read at their size on the sets
# run (15067's 0.872; 14211's 0.855, and the 13744-set's 13908 0.768, the 14320-set's 14435
# 0.762 and 14486 0.77), leaving 14610 short in doubt as before. A size whose
# outline past the reading lies on the crisp edges over CLEAR_TIP_EDGES_MAX is a missed
# neighbour's body, not an apex (the 8848-set's 8849: its large's part ahead 0.764, edges
# 0.89; 14610's 0.79 the nearest under).
CLEAR_APEX_BESIDE = 0.885
CLEAR_APEX_BACK_MM = 2.0
CLEAR_APEX_COST = 0.45
# A clear reading in size doubt whose longer size shows the piece's side wall past it, greyer
# than the table beside it (issue 4, session 40, clearsz50). A clear large on cloth or felt
# seen at 10-35° is often read as a medium from its stern (the tip 7-12 mm short, heading
# within 1°): its faint apex has no crisp steps on the nap (CLEAR_TIP_EDGES fails, edge share
# 0.11-0.28) and the strip past the tip keeps the table's shade (0.94-1.03 of the table beside
# it). But the large is wider as well as longer, and its wall on the side the camera sees lies
# outside the medium's outline: the large from the stern turned CLEAR_TIP_TURN_DEG toward that
# wall has a strip whose median saturation (segment.saturation_ratio) is 0.62-0.65 of the
# table's beside it (the 10000-set's 10074, 10104, the 5104-set's 5210, the 8560-set's 8731,
# and on wood the 5968-set's 6180), where every clear reading at its size or longer on the
# probed scenes (the 10000-set, part of the 9136-set, the cases' scenes: 212 turned strips)
# keeps 0.90 or more (a strip of bare table, or its shadow, keeps the table's colour). The
# strip straight past the tip is not asked: there the targets keep the table's colour
# (0.97-1.01), while a clear piece at its size may cast a pale caustic ahead of its apex
# (the 8560-set's 8601 and 8640 on wood, 8763 on cloth: clear readings at their size whose
# longer size's straight strip is at 0.60-0.71, 8601's lit at 1.16 of the table's shade;
# turned, 0.97 or more). So a clear reading in size doubt that no rule above
# made longer is read at the longest longer size from its stern whose strip turned
# CLEAR_TIP_TURN_DEG either way has a median saturation at most CLEAR_WALL_GREY of the
# table's beside it, and so has its part past the next shorter size at most CLEAR_GREY of it
# (that part a piece of the shorter size leaves bare), whose tip lies CLEAR_TIP_OFF_MM or more
# from the other readings (a neighbour beyond the tip, a white piece's pale side, would grey
# the strip as well). It is set at the reading's stern and heading as read (the grey tells the
# size, not the heading: these pieces lie within 1° of it), not fitted, its σ covering the
# shorter reading (never trusted), named clear; a longer size that clashes with another
# reading is not taken.
CLEAR_WALL_GREY = 0.75
# ... and when that longer size's tip does come within CLEAR_TIP_OFF_MM of another reading,
# its strip is asked again CLEAR_WALL_AWAY_MM clear of the readings near it (issue 4, session
# 41, cleartip51): a clear large on felt or cloth read as a medium from its stern whose tip
# ends against a coloured neighbour (the 9136-set's 9248, a red large's side, and 9296, a blue
# medium's; 1920×1080, 22-35°) has its large's strip turned toward the wall at 0.65 of the
# table's saturation, and still 0.66 and 0.70 on the 0.86 and 0.74 of it that lie 8 mm or
# more from the neighbour: the grey is its own wall, not the neighbour's side. Where the
# neighbour greys the strip (the 10288-set's 10538, a clear medium read as a small whose
# turned medium reaches a pale neighbour: 0.67 whole, 0.89 away from it) the grey goes with
# the neighbour. So a size whose tip comes near another reading passes when at least
# CLEAR_WALL_AWAY of its strip lies CLEAR_WALL_AWAY_MM or more from the readings near it and
# that part is at most CLEAR_WALL_GREY of the table beside it (the band as far from them).
CLEAR_WALL_AWAY_MM = 8.0
CLEAR_WALL_AWAY = 0.7
# A clear reading in size doubt whose longer size from its tip shows the open base past its
# stern, greyer than the table beside it (issue 4, session 41, cleartip51). A clear piece on
# cloth or felt read one size short from its tip (the stern 7-11 mm short, heading within 2°:
# the 11152-set's 11195, a large read as a medium on felt, 1280×720; the 5104-set's 5311, a
# medium read as a small on cloth) has its base's back edge and the table seen through the
# open base past the reading: the longer size's strip past the stern, straight on from the
# tip, has a median saturation 0.79-0.81 of the table's beside it. clear_strip_longer's grey
# (CLEAR_GREY) asks the strip against the reading's own grey and the table's estimate, and
# those readings are greyer still or the table there more vivid. The same strips of clear
# readings at their size in doubt keep 0.91 or more (the 10000- and 9136-sets, every clear
# reading reaching clear_wall_longer on cloth, felt and wood, strips STRIP_FREE off the
# others: 9196's medium on felt 0.91, the rest 0.94-1.03). So a clear reading in size doubt
# that no rule above made longer is read at the longest longer size from its tip whose strip
# past the stern is at most CLEAR_BASE_GREY of the table's saturation beside it and its part
# past the next shorter size at most CLEAR_GREY (a piece of that size leaves it bare), whose
# stern lies CLEAR_TIP_OFF_MM or more from the other readings (a pale neighbour's side greys a
# strip too): set there, not fitted, its σ covering the shorter reading (never trusted),
# named clear. When no size passes straight on, the same is asked turned CLEAR_TIP_TURN_DEG
# either way about the tip (as clear_tip_longer does from the stern): the 10000-set's 10157, a
# clear large on felt read as a medium from its tip (1280×720, heading 3° off), has its
# large's strip at 0.90 straight on and 0.83 turned toward the base; the turned strips of the
# clear readings at their size on those sets keep 0.93 or more. The size is set straight on
# from the tip as read (the grey tells the size, not the heading).
CLEAR_BASE_GREY = 0.85
# A clear reading in size doubt that lies ACROSS a longer clear piece (issue 4, session 43,
# clearsize53). A quarter of the clear wrong sizes (25 of the 89 lines on the fourteen tuning
# and two check sets, 14 of the 16 sets, 18 on wood) are a large or medium read as a small
# turned 100-150° from the truth: the small is fitted to the open base and one side wall, its
# stern on one wall, its tip on the other (crisp_pieces and _white_by_shadow start them),
# and the rest of the piece, the two walls running to the faint apex, is the table darkened
# through clear plastic with no crisp edge and nothing on the fit map (median 0.00 over it).
# The rules above all keep the reading's heading, so never reach it. Seen from the reading,
# the true stern lies 10-30 mm ahead of its stern and 6-18 mm to one side, the piece turned
# 100-150° toward that side (the 25 lines; /work/scratch/clearsize53/probe.py). Over that
# family of poses (CLEAR_ACROSS_*), each longer size's outline as seen that holds the reading
# (CLEAR_ACROSS_COVER of its lattice points) has a strip (the outline less the reading grown
# by STRIP_GROW_MM, at least STRIP_FREE of it off the other readings) and a band
# CLEAR_BESIDE_MM out from the outline (off the reading and the others); the darkest strip
# against its band (the view's shade on a lattice, CLEAR_ACROSS_STEP_MM) has a median of
# 0.67-0.86 at the true size for the class on wood and laminate (larges read as smalls; the
# mediums' larges stay 0.87-0.94, the strip running onto the table past the apex), while over
# the clear readings at their size in size doubt on the cases' scenes and the first scenes of
# the 10288- and 11728-sets (43) the darkest is 0.879 (10318's small on wood, a strip along a
# dark band of the grain) and the rest 0.93 and up. So a clear reading in size doubt that no
# rule above made longer is read at the longest longer size whose darkest strip is at most
# CLEAR_ACROSS_DARK (at least CLEAR_STRIP_FLOOR: a shadow) of its band, at that pose when it
# clashes with no other reading: set there, not fitted, its σ covering the reading (never
# trusted: the size is the view's shade, not a fit's), named clear. The search is coarse
# (27 poses a side and size), then fine about each size's darkest pose; each outline is
# tested on the lattice by its edges' half-planes, in a window round it.
CLEAR_ACROSS_TURN_DEG = (105.0, 125.0, 145.0)
CLEAR_ACROSS_AHEAD_MM = (12.5, 20.0, 27.5)
CLEAR_ACROSS_SIDE_MM = (7.0, 12.0, 17.0)
# ... searched coarse, then about each size's darkest coarse pose by these steps either way.
CLEAR_ACROSS_FINE = (5.0, 2.5, 2.5)  # turn °, ahead mm, side mm
# ... only where the coarse pose is within CLEAR_ACROSS_FINE_ASK of the bound (the fine steps
# darken the class's strips by 0.02-0.08; most readings at their size stay 0.95 and up).
CLEAR_ACROSS_FINE_ASK = 0.1
CLEAR_ACROSS_DARK = 0.84
CLEAR_ACROSS_COVER = 0.9
CLEAR_ACROSS_STEP_MM = 1.5
# Only a reading of the shortest size is asked: the class's readings
# that pass are all smalls, the small being what fits the open base and one wall; the
# 8848-set's 8849 (two clear mediums head to tail, one missed) had its found medium read as a
# large lying over the missed one (its strip the other piece, 0.8 of the band).
# A reading in size doubt whose longer reading's outline past its stern lies on the crisp edges
# (issue 4, session 34, size44). A piece read one size short from its tip (its base hard to
# see: a white piece's shaded face scores under its lit one, a vivid one's base lies in its
# own shadow) has σ covering the longer size but is reported at the short one. Its walls are
# still crisp brightness steps (segment.crisp_edges) along the sides the longer reading adds;
# where the piece is short, those sides run over bare table. Over the 8848-, 8560- and
# 8272-sets' readings in size doubt, the longer size from the reading's tip and heading has
# EDGE_LONGER_SHARE (0.55) or more of its outline samples past the reading (outside its outline
# as seen grown by EDGE_PAST_MM, at least EDGE_LONGER_FREE of them off the other readings)
# within a pixel of a crisp edge where the piece is that long for 21 of the 52 short readings
# (0.55-1.0), at 0.48 or under for all 483 longer sizes of readings at their size
# (docs/vision-history.md, "A reading in size doubt whose longer outline lies on the crisp
# edges"). So such a reading is replaced by the longest longer size that passes and clashes
# with no other reading, named in the same colour (or black, for a white one whose dark open
# base the longer footprint takes in: SHADED_BASE, it keeps the white name); set at that pose,
# not fitted, its σ covers the shorter reading (never trusted: the size is the edges', not a
# fit's).
EDGE_LONGER_SHARE = 0.55
EDGE_LONGER_FREE = 0.8
EDGE_PAST_MM = 1.5
# A longer reading whose strip past the next shorter size is bare table (issue 4, session 36,
# trust46). The 9424-set's 9603: a white medium on navy cloth read as a large from its tip,
# its stern set 7.6 mm back over bare cloth, σ 1.5 mm (trusted). Its strip (the outline as
# seen less the next shorter size's from the same tip grown by STRIP_GROW_MM, at least
# STRIP_FREE of it off the other readings) has the table's colour and light: median
# foreground score (segment.foreground_planes: the colour distance to the table estimate over
# three times the table's noise) 0.64, median shade 1.00. A piece that long fills that strip
# with its face or its open base (seen into: shaded plastic, darker than the table, or the
# plastic's colour): over the 9424- and 9136-sets' right readings longer than a small named
# other than clear, the strip's median score is 1.26 and up (a black large, shade 0.66; a
# white large's shaded base, 1.37 at shade 0.52), most 2 and up. Clear plastic shows the
# table through it (its strip 0.2-1.5: CLEAR_STRIP_DARK's own rule reads those), so a reading
# named clear is not asked. A strip at most BARE_STRIP_SCORE, its shade at least
# BARE_STRIP_SHADE (a piece's own shadow or a dark base is not bare table), is read at the
# next shorter size from the same tip (set there, not fitted; named as it was), its σ
# covering the longer reading: the view says the longer one is wrong, not that the shorter
# one is sure.
# The reading's own part (the shorter size's outline as seen, shrunk by 1 mm) must score
# BARE_OWN_SCORE or more: a faint white or black piece on a grey table, which the table
# estimate took in, scores as table over its whole outline, strip and all (the 9136-set's
# 9164, 9311, 9327 and 9375, right sizes in doubt: strips 0.28-0.40, outlines 0.25-0.49;
# 9603's outline 80.8).
BARE_STRIP_SCORE = 1.0
BARE_STRIP_SHADE = 0.85
BARE_OWN_SCORE = 2.0
# A vivid reading longer than a small whose strip past the next shorter size (from its tip, as
# BARE_STRIP_SCORE's rule cuts it) is black plastic (issue 4, session 38, trust48): two
# touching pieces, a dark one against a vivid one's stern, read as one longer vivid piece.
# The 10000-set's 10220: a black small against a red medium's stern on wood, one region whose
# axis fit, a red large from the medium's tip, cost 0.49 (just under SIZE_DOUBT_COST), σ 3.0 mm:
# its size trusted, the medium missed and the black read red. Its strip past a medium from
# the same tip is named black. The strip of a vivid piece read at its size is its own faces
# and base, named its colour or a neighbouring hue (on the 10000- and 9712-sets. 1830
# strips asked: its own colour; orange/yellow 20, blue/cyan 22, cyan/green 8, purple/red 2,
# black only at 10220): so another hue is no sign of another piece, black plastic is. Such a
# reading is read at the next shorter size from its tip (set there, not fitted; named as it
# was), its σ covering the longer reading: the dark part is another piece, whose own pose no
# fit gives. The strip is asked when at least OTHER_STRIP_MIN_SHARE of it is one part off the
# other readings (a sliver or a strip split by a neighbour names nothing).
OTHER_STRIP_MIN_SHARE = 0.8
OTHER_STRIP_NAMES = frozenset({"black"})
# A reading in size doubt whose strip to a longer size looks like the reading itself (issue 4,
# session 37, size47): the mirror of BARE_STRIP_SCORE's rule. The 9712-set's 9739, a white
# large on navy cloth read as a medium from its tip (σ 9.9 mm), its large's strip past the
# medium's stern (the longer outline as seen less the reading's grown by STRIP_GROW_MM, at
# least STRIP_FREE of it off the other readings) all foreground (the fit map's median 1.0),
# scoring 72.8 where the reading scores 66.9 and as lit (shade 3.72 to 3.49): the piece's own
# face, which a medium from its tip leaves out. A strip past a piece read at its size is the
# table (fit map 0, score 0.2-0.7) or another thing: a vivid piece's own shadow (the 9712-set's
# 9869, a blue small: foreground, score 14.6 to its 12.7, but shade 0.27 to its 0.76), a glint
# (9814's red medium: shade 1.49 to 0.52), a white piece's shaded base (9924's medium: fit map
# 0.95, score 3.9 to its 5.5). So a reading whose own part scores BARE_OWN_SCORE or more is read
# at the longest longer size its σ covers whose strip, and the strip's part past the next
# shorter size, have the fit map's median at least FULL_STRIP_FG, a median score at least
# FULL_STRIP_SCORE of the reading's and a median shade within a factor FULL_STRIP_SHADE of
# the reading's, and that clashes with no other reading: set there, not fitted, its σ
# covering the shorter reading (the size is the view's, not a fit's).
FULL_STRIP_FG = 0.9
FULL_STRIP_SCORE = 0.8
FULL_STRIP_SHADE = 1.4
# A white reading in size doubt whose dark open base is wider than its size's (issue 4,
# session 45, size55). A white large on the laminate read as a medium (or a small) from its
# stern, the tip 9-19 mm short (its lit end lost in the laminate, on the fit map and on the
# crisp edges: white49's refits do not find the large whole), shows the camera its open base
# whole: a dark hollow the large's width. The width of the dark run across the base, along
# WIDE_BASE_HEIGHTS of the way from the reading's base's bottom edge to its rim as seen (each
# run from the middle out, darker than halfway between the base's inside and the table or face
# round it), is the inside of the piece's own base: 21.9-23.1 mm for the white larges, 15.4-18.8
# for white mediums read right and 9.9-13.4 for white smalls (the 9712-set's first 100 scenes,
# the white wrong-size lines' scenes of all eighteen sets: /work/scratch/size55/probe.py,
# pr_*.txt), that is each size's base width less WIDE_BASE_WALLS_MM. Asked only where the
# reading's own base shows dark: its lanes' inside darker by WIDE_BASE_DARK than the table
# behind and the face ahead (the pieces read so: 1.97-2.68; a reading off its base, or a white
# piece lit like the table, gives no hollow to measure). So a white reading in size doubt that
# no rule above changed is read at the longest longer size whose inside less WIDE_BASE_SLACK_MM
# the run reaches at every height, none over that size's base width plus WIDE_BASE_OVER_MM (a
# neighbour's dark joining the hollow: the 8272-set's 8537, a white small read as a medium
# beside another white piece, runs 24.9, 28.3 and 12.9 mm), set from its stern, not fitted,
# σ covering the shorter reading (never trusted), named white, when it clashes with no other
# reading.
WIDE_BASE_HEIGHTS = (0.3, 0.5, 0.7)
WIDE_BASE_WALLS_MM = 2.6
WIDE_BASE_DARK = 1.8
WIDE_BASE_SLACK_MM = 1.5
WIDE_BASE_OVER_MM = 1.0
WIDE_BASE_REACH_MM = 20.0
WIDE_BASE_STEP_MM = 0.25
# A white reading in size doubt lying off its own open base (issue 4, session 47, sizewhite57).
# A white piece on the laminate read a size short on its lit face (the shaded face or the lit
# end lost in the table): the reading lies 1-9 mm ahead of the true stern and 0-6 mm aside
# (the base runs' probe /work/scratch/sizewhite57/probe3.py: at the truth's pose the open base
# shows dark with a run the true size's width, 10 of the 28 white pieces read short so). Its
# own base lanes lie on the lit face, so WIDE_BASE_*'s test finds no hollow. Asked at the
# poses of a longer size at the reading's heading with its stern HOLLOW_BACK_MM behind and
# HOLLOW_ACROSS_MM aside (probe4.py: the stern offsets of the cases -8.4 to +0.4 mm, aside
# 0-6 mm), only where the base's middle as seen is darker than HOLLOW_MID_DARK (a cheap
# first look: the hollows' insides are 0.3-0.55 of the table), the same test as WIDE_BASE_*'s:
# the base dark, its run the longer size's inside at every height. Of the poses passing, the
# one taking in most of the reading, at least HOLLOW_INSIDE of its area (the same piece, not a
# neighbour's hollow beside it); set there, not fitted, σ covering the reading.
HOLLOW_BACK_MM = (0.0, 1.5, 3.0, 4.5, 6.0, 7.5, 9.0)
HOLLOW_ACROSS_MM = (0.0, -1.5, 1.5, -3.0, 3.0, -4.5, 4.5, -6.0, 6.0)
HOLLOW_MID_DARK = 0.6
HOLLOW_INSIDE = 0.9
# The runs at the three heights are one width (the base's, perspective taken out: each run is
# scaled by its lane's length as seen): 0.1-0.6 mm apart at the poses read right (12887, 13095,
# 13265) and at the truth's pose of ten white pieces read short (0.1-0.3). A hollow joined by a
# shadow or a neighbour's dark widens with the height: the 13168-set's 13259 (a white small read
# right: a large's pose beside it, runs 24.1, 22.8, 22.2) and 13357 (a white medium read right:
# 21.9, 23.5, 24.4), both read large by the first form of the rule. It costs one case: the
# 10288-set's 10482, its reading turned 7° off the piece, whose runs at the poses asked (at the
# reading's heading) widen too (22.8, 25.4, 25.3). Session 48 (size58) widened it from 1.0 to
# 1.2: the 8560-set's 8747, a white medium on the laminate read as a small (σ 19.8 mm) 5.1 mm
# ahead of its stern, runs 17.4/17.1/16.3 at the pose 4.5 mm behind (0.6 mm ahead of the
# stern: the top lane's run cut short near the rim; 17.2/17.1/17.1 at the truth's pose); the
# widening ones stay out (1.9, 2.5).
HOLLOW_FLAT_MM = 1.2
# A reading lying on its own hollow is not read off it: where the middle of the reading's own
# open base as seen is darker than HOLLOW_MID_DARK and the run darker than that is as wide as
# the reading's own size's base at every height (WIDE_BASE_*'s widths, :func:`_runs_fit`), the
# open base is the reading's and it is not asked. The 8560-set's 8640 (issue 4, session 48,
# size58): a white medium on wood read right in doubt (σ 9.9 mm), its hollow's inside 0.44 of
# the table, the wood's shadow behind it 0.68 (so WIDE_BASE_DARK's test fails at its own pose),
# its middle 0.43 and runs 17.6/17.3/17.5 mm (a medium's 15.7-20.8); a large's pose 1.5 mm
# behind took the hollow and its shadow in as 22.1-22.6 mm wide and read it large (σ 99). The
# rule's gains lie off their hollow: their own base's middle lit (13265, 5261, 11375, 11435:
# 1.14-1.27), or dark with runs wider than a small's (12887, 13095, 9293: 16.8-23.1 mm, a
# small's at most 15.3).


def _longer_sizes(scene: Scene, c: Candidate, sigma_mm: float) -> list[Size]:
    """The sizes longer than reading ``c`` that its σ ``sigma_mm`` covers (size doubt),
    shortest first."""
    dims = scene.pieces.dims
    d_c = dims(c.size).footprint_length_mm
    return [z for z in scene.by_length if dims(z).footprint_length_mm > d_c
            and sigma_mm >= dims(z).footprint_length_mm - d_c - 0.1]


def _set_from_tip(scene: Scene, c: Candidate, sizes: list[Size], turn_deg: float = 0.0
                  ) -> list[Candidate]:
    """Readings of ``sizes`` set at ``c``'s tip and heading (turned by ``turn_deg`` about the
    tip), not fitted (crisp._edges_candidate)."""
    dims = scene.pieces.dims
    tip = c.fit.pose.tip_mm(dims(c.size).footprint_length_mm)
    heading = (c.fit.pose.heading_deg + turn_deg) % 360.0
    return [_edges_candidate(scene, z, Pose.with_tip(tip, heading, dims(z).footprint_length_mm))
            for z in sizes]


def _free_strips(scene: Scene, seen: shapely.Geometry, sets: list[Candidate],
                 others: list[Candidate]
                 ) -> Iterator[tuple[Candidate, shapely.Geometry, Candidate | None]]:
    """Longest first, each of ``sets`` (longer readings set from a reading's tip) with its strip
    past the reading as ``seen`` (grown STRIP_GROW_MM; table mm) off ``others``, when at least
    STRIP_FREE of the strip is, and the next shorter of ``sets`` (None for the shortest)."""
    for k in reversed(range(len(sets))):
        o = sets[k]
        strip = shapely.Polygon(o.outline_mm).difference(seen.buffer(STRIP_GROW_MM))
        free = _off_others(scene, strip, others)
        if strip.area <= 0.0 or free.area < STRIP_FREE * strip.area:
            continue
        yield o, free, sets[k - 1] if k else None


def clear_strip_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                       ratio: np.ndarray | None = None) -> Candidate | None:
    """The longest size longer than clear reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) from ``c``'s tip and heading whose strip past ``c``'s stern shows the piece (see
    CLEAR_STRIP_DARK; on a coloured table, with ``ratio`` the view's saturation over the
    table's, also as grey as a clear piece: CLEAR_GREY) and that clashes with none of
    ``lying``: set there, not fitted (crisp._edges_candidate), its σ covering ``c``; else
    None."""
    if c.upright or scene.shade is None:
        return None
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    lit = median_shade(scene, seen.buffer(-1.0)) >= CLEAR_STRIP_LIT
    # The reading's own grey, when greyer than the table (a clear piece on a coloured one):
    # its strip may show the piece by that grey (CLEAR_GREY).
    own = median_in(scene, ratio, seen.buffer(-1.0)) if ratio is not None else 1.0
    grey = own <= CLEAR_GREY
    sets = _set_from_tip(scene, c, _longer_sizes(scene, c, sigma_mm))
    for o, free, shorter in _free_strips(scene, seen, sets, others):
        shade = median_shade(scene, free)
        if not (shade >= CLEAR_STRIP_LIT if lit else shade <= CLEAR_STRIP_DARK) and not (
                grey and _grey_strip(scene, ratio, free, own, shorter)):
            continue
        if (q := _covering_longer(scene, o, c, others)) is not None:
            return q
    return None


def _longer_asked(scene: Scene, c: Candidate, sigma_mm: float) -> list[Size]:
    """The longer sizes a strip rule asks of reading ``c`` (σ ``sigma_mm``: those it covers,
    :func:`_longer_sizes`); none for a standing reading or without the table's shade."""
    if c.upright or scene.shade is None:
        return []
    return _longer_sizes(scene, c, sigma_mm)


def clear_beside_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                        coloured: bool = False, hand_mask: np.ndarray | None = None
                        ) -> Candidate | None:
    """The longest size longer than clear reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) from ``c``'s tip and heading whose strip past ``c`` (at least STRIP_FREE of it off
    the other readings) is darker than the table beside it (CLEAR_STRIP_BESIDE; on a
    ``coloured`` table CLEAR_STRIP_BESIDE_COLOURED, when the longer outline is not within
    CLEAR_STRIP_HAND_MM of ``hand_mask``, view px) and that clashes with none of ``lying``:
    set there, not fitted (crisp._edges_candidate), its σ covering ``c``; else None."""
    if not (longer := _longer_asked(scene, c, sigma_mm)):
        return None
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    for o, free, shorter in _free_strips(scene, seen, _set_from_tip(scene, c, longer), others):
        # The looser bound passes all the stricter one does: one test, at the bound that applies.
        bound = (CLEAR_STRIP_BESIDE_COLOURED if coloured and not _near_hand(scene, o, hand_mask)
                 else CLEAR_STRIP_BESIDE)
        if not _darker_than_beside(scene, o, seen, free, others, shorter, bound):
            continue
        if (q := _covering_longer(scene, o, c, others)) is not None:
            return q
    return None


def _near_hand(scene: Scene, o: Candidate, hand_mask: np.ndarray | None) -> bool:
    """Whether reading ``o``'s outline as seen (table mm), grown by CLEAR_STRIP_HAND_MM, takes
    in a pixel of ``hand_mask`` (view px), sampled on a 0.5 mm lattice."""
    if hand_mask is None or not hand_mask.any():
        return False
    grown = shapely.Polygon(o.outline_mm).buffer(CLEAR_STRIP_HAND_MM)
    x0, y0, x1, y1 = grown.bounds
    gx, gy = np.meshgrid(np.arange(x0, x1, 0.5), np.arange(y0, y1, 0.5))
    inside = shapely.contains_xy(grown, gx, gy)
    px = np.round(scene.grid.to_px(np.stack([gx[inside], gy[inside]], axis=1))).astype(int)
    rows, cols = hand_mask.shape[:2]
    ok = (px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < cols) & (px[:, 1] < rows)
    return bool(hand_mask[px[ok, 1], px[ok, 0]].any())


def _set_from_stern(scene: Scene, c: Candidate, sizes: list[Size], turn_deg: float = 0.0
                    ) -> list[Candidate]:
    """Readings of ``sizes`` set at ``c``'s stern and heading (turned by ``turn_deg``), not
    fitted (crisp._edges_candidate)."""
    p = c.fit.pose
    return [_edges_candidate(scene, z, Pose(p.x_mm, p.y_mm, (p.heading_deg + turn_deg) % 360.0))
            for z in sizes]


def _edge_share_past(scene: Scene, z: Size, pose: Pose, seen: shapely.Geometry,
                     others: list[Candidate], edges: np.ndarray) -> float:
    """The share of size ``z``'s outline samples at ``pose`` past reading outline ``seen``
    (grown EDGE_PAST_MM) and off ``others`` (grown 1 mm) that lie within a pixel of the crisp
    ``edges``; 0 when under EDGE_LONGER_FREE of those past are off the others."""
    pts = _outline_samples(scene, z, pose)
    past = ~shapely.contains_xy(seen.buffer(EDGE_PAST_MM), pts[:, 0], pts[:, 1])
    if not past.any():
        return 0.0
    free = past & ~shapely.contains_xy(_off_others_mask(scene, others, pts[past]),
                                       pts[:, 0], pts[:, 1])
    n_free = np.count_nonzero(free)
    if n_free == 0 or n_free < EDGE_LONGER_FREE * np.count_nonzero(past):
        return 0.0
    return np.count_nonzero(near_edges(scene.grid, pts[free], edges)) / n_free


def _off_others_mask(scene: Scene, others: list[Candidate], pts: np.ndarray
                     ) -> shapely.Geometry:
    """The union of ``others``' outlines grown by 1 mm that reach points ``pts``."""
    if not len(others) or not len(pts):
        return shapely.Polygon()
    mp = shapely.multipoints(pts)
    near = [g for q in others for g in [scene.grown_outline(q)] if g.distance(mp) <= 0.0]
    return shapely.union_all(near) if near else shapely.Polygon()


def clear_tip_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                     edges: np.ndarray, grey_table: bool = False) -> Candidate | None:
    """The longest size longer than clear reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) from ``c``'s STERN and heading whose strip past ``c``'s tip (at least STRIP_FREE
    of it off the other readings) is darker than the table beside it (CLEAR_TIP_BESIDE, and so
    is its part past the next shorter size) and whose outline past ``c`` lies on the crisp
    ``edges`` for CLEAR_TIP_EDGES (at most CLEAR_TIP_EDGES_MAX) of its samples, whose tip lies
    CLEAR_TIP_OFF_MM or more from the other readings, and that clashes with none of ``lying``:
    set there, not fitted (crisp._edges_candidate), its σ covering ``c``; when none passes at
    ``c``'s heading, the same at that heading turned CLEAR_TIP_TURN_DEG either way (on a
    ``grey_table``, turned, the edge share bound CLEAR_TIP_TURN_EDGES_MAX); else None."""
    if not (longer := _longer_asked(scene, c, sigma_mm)):
        return None
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    crowded: set[Size] = set()  # sizes whose outline as read lies on a neighbour's sides
    best: Candidate | None = None  # the longest passing so far (_longer_than)
    for turn in (0.0, CLEAR_TIP_TURN_DEG, -CLEAR_TIP_TURN_DEG):
        sets = [o for o in _set_from_stern(scene, c, longer, turn) if o.size not in crowded]
        for o, free, shorter in _free_strips(scene, seen, sets, others):
            if not _longer_than(scene, o, best):
                break  # longest first: no longer size left at this turn
            if not _darker_than_beside(scene, o, seen, free, others, shorter,
                                       bound=CLEAR_TIP_BESIDE):
                continue
            share = _edge_share_past(scene, o.size, o.fit.pose, seen, others, edges)
            if share > CLEAR_TIP_EDGES_MAX and turn == 0.0:
                crowded.add(o.size)  # not turned either (CLEAR_TIP_TURN_DEG)
            most = (CLEAR_TIP_TURN_EDGES_MAX if grey_table and turn != 0.0
                    else CLEAR_TIP_EDGES_MAX)
            if not CLEAR_TIP_EDGES <= share <= most:
                continue
            if share > CLEAR_TIP_EDGES_MAX and not _darker_than_beside(
                    scene, o, seen, free, others, shorter, bound=CLEAR_TIP_BESIDE,
                    floor=CLEAR_TIP_TURN_FLOOR):
                continue  # its edges all along a shadow darker than clear walls
            if _end_near(scene, o, others, tip=True):
                continue  # its tip runs into another piece: that piece's shadow and edges
            if (q := _covering_longer(scene, o, c, others)) is not None:
                best = q
                break
    return best


def _apex_strip(scene: Scene, c: Candidate, o: Candidate, seen: shapely.Geometry,
                others: list[Candidate]) -> shapely.Geometry | None:
    """Longer reading ``o``'s (set from ``c``'s stern) strip past ``c`` as ``seen`` (grown
    STRIP_GROW_MM) AHEAD of ``c``'s tip less CLEAR_APEX_BACK_MM (:func:`_past_end`), off
    ``others`` (table mm); None when under STRIP_FREE of it is off them."""
    part = shapely.Polygon(o.outline_mm).difference(seen.buffer(STRIP_GROW_MM)).intersection(
        _past_end(scene, c, tip=True, back_mm=CLEAR_APEX_BACK_MM))
    free = _off_others(scene, part, others)
    if part.area <= 0.0 or free.area < STRIP_FREE * part.area:
        return None
    return free


def clear_apex_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                      edges: np.ndarray, bound: float = CLEAR_APEX_BESIDE,
                      far_mm: float | None = None) -> Candidate | None:
    """For clear reading ``c`` fitted no better than CLEAR_APEX_COST: the longest size longer
    than it (σ ``sigma_mm``, covering it: in size doubt) from ``c``'s stern and heading whose
    strip AHEAD of ``c``'s tip (:func:`_apex_strip`), and its part past the next shorter size,
    and (``far_mm`` given) its part ``far_mm`` or more past ``c``'s tip,
    are at most ``bound`` (CLEAR_APEX_BESIDE; at least CLEAR_STRIP_FLOOR) of the table beside them
    (:func:`_darker_than_beside`),
    whose tip lies CLEAR_TIP_OFF_MM or more from the other readings, whose outline past ``c``
    lies on the crisp ``edges`` for at most CLEAR_TIP_EDGES_MAX of its samples (a missed
    neighbour's sides) and that clashes with none of ``lying``: set there, not fitted
    (crisp._edges_candidate), its σ covering ``c``; else None."""
    if c.fit.cost < CLEAR_APEX_COST or not (longer := _longer_asked(scene, c, sigma_mm)):
        return None  # a reading fitted well is not short for want of its tip
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    sets = _set_from_stern(scene, c, longer)
    far = None if far_mm is None else _past_end(scene, c, tip=True, back_mm=-far_mm)
    for k in reversed(range(len(sets))):
        o = sets[k]
        free = _apex_strip(scene, c, o, seen, others)
        if free is None or not _darker_than_beside(scene, o, seen, free, others,
                                                   sets[k - 1] if k else None,
                                                   bound=bound, far=far):
            continue
        if _end_near(scene, o, others, tip=True):
            continue  # its tip runs into another piece: that piece's shadow
        if _edge_share_past(scene, o.size, o.fit.pose, seen, others,
                            edges) > CLEAR_TIP_EDGES_MAX:
            continue  # crisp nearly all along: a missed neighbour's body (the 8848-set's 8849)
        if (q := _covering_longer(scene, o, c, others)) is not None:
            return q
    return None


# A clear small read in the middle of a large (issue 4, session 58, size68). Of the clear
# larges read as mediums on the base files (5a949b6), about fifteen are a small read 6-15 mm
# inside both ends of a large, its stern and its tip short: clear_strip_longer or
# clear_beside_longer set a medium from its tip (the strip to the medium is the large's own
# wall, dark) and stopped there, since the large's strip from that tip runs past the true
# stern onto bare table. The medium so set has its stern near the true stern (1.9-7.8 mm
# off) and its tip 11-16 mm short: a large read short from its stern, which is what
# clear_apex_longer reads, but that rule asks only fitted readings that no rule above made
# longer. So the medium a strip rule sets, or the one clear_across_longer sets across the
# reading, is asked clear_apex_longer from its own stern (it is set, not fitted: cost
# MAX_COST, over CLEAR_APEX_COST), with the reading's σ, its bound CLEAR_APEX_BESIDE and its
# tests (the tip off the other readings, the crisp edges past it at most
# CLEAR_TIP_EDGES_MAX). The large's part ahead of the set medium on the fourteen larges it
# reads: 0.757-0.882 (the 16048-set's 16122 0.778, the 14608-set's 14666 0.780 across and
# 14739 0.835, the 14896-set's 15177 0.841 across, the 9424-set's 9684 0.874, the 13456-set's
# 13588 0.882, the nearest); on the right mediums the rules set on the sets run 0.902 (the
# 16048-set's 16051, 1280×720, the nearest) and 0.98 and up (/work/scratch/size68/rs_*.txt,
# '#A' lines). Set there, not fitted, its σ covering the first reading and the medium (never
# trusted). The bound is its own, under CLEAR_APEX_BESIDE (the lead, after the merged tree's
# runs): at 0.885 the merged tree read two right clear mediums set by a strip rule as larges
# (the 15472-set's 15601 at 0.872, the 12880-set's 12901 at 0.858, both 1280×720, 10-22°),
# inside the larges' range. At CLEAR_SET_APEX_BESIDE the larges up to 0.848 (the 8848-set's
# 8997) are read and 13219 (0.856), 9684 (0.874) and 13588 (0.882) are left as mediums, in
# doubt as before: a gap of 0.01 to 12901, measured on these cases alone.
CLEAR_SET_APEX_BESIDE = 0.85
# ... and the large's part CLEAR_SET_APEX_FAR_MM or more past the set medium's tip as dark, by
# the same bound against the same table beside the whole strip (issue 4, session 60, trace70).
# The medium is set from the first reading's tip, not fitted: a right medium's set medium
# may stand back of its stern (the 12016-set's 12073, a clear medium on wood at
# 1280×720, its small read 5.9 mm inside the stern, the set medium 4.0 mm back of it and its
# tip 4.0 mm short), so the strip ahead of the set tip holds the medium's own apex and reads
# 0.840, inside the larges' range, and 12073 was read as a large (σ 99 mm). A large's apex
# lies 6-16 mm past the set tip and fills the strip's far part too: on the eleven larges the
# rule reads (size68's cases) the far part is 0.737 (11259) to 0.845 (the 8848-set's 8997,
# the nearest), within 0.021 of each one's whole strip; a medium's far part is mostly bare
# table past its tip: 12073 0.877 (the nearest), 12901 0.898, 15601 0.913, 16051 0.953 (their
# whole strips 0.840-0.902). At 4 mm the far part is bare table past 8997's and 5241's tips
# too (0.901, 0.906): 2 mm, CLEAR_APEX_BACK_MM's mirror (the strip starts 2 mm back of the tip).
CLEAR_SET_APEX_FAR_MM = 2.0
def clear_set_apex_longer(scene: Scene, c: Candidate, o: Candidate, sigma_mm: float,
                          lying: list[Candidate], edges: np.ndarray) -> Candidate:
    """For longer reading ``o`` that a strip rule (:func:`clear_strip_longer`,
    :func:`clear_beside_longer`) set from clear reading ``c``'s tip, or
    :func:`clear_across_longer` across it (``c`` one of ``lying``, σ ``sigma_mm``): when
    ``o`` is short of the longest size, the longer size :func:`clear_apex_longer` reads from
    ``o``'s stern (see the note above), its σ covering ``c`` too; else ``o``."""
    if o.size == scene.by_length[-1]:
        return o
    others = [k for k in lying if k is not c]
    # o is set, not fitted (cost MAX_COST): CLEAR_APEX_COST's gate passes it.
    a = clear_apex_longer(scene, o, sigma_mm, [o, *others], edges, bound=CLEAR_SET_APEX_BESIDE,
                          far_mm=CLEAR_SET_APEX_FAR_MM)
    if a is None:
        return o
    wide = _covering(scene, a, c)
    return wide if wide.covering_ambiguity_mm > a.covering_ambiguity_mm else a


# A clear medium in size doubt whose large FITS the map from its stern or its tip (issue 4,
# session 61, size71). Of the clear larges read as mediums on the base files, a third are
# short for want of a strip rule that passes (the strip past the reading not free of a
# touching neighbour, or not dark enough against the table beside it: 0.87-0.98), yet in
# nine of them the large's own fit on the map from the reading's stern or tip, at its heading,
# converges (σ 0.1-0.4 mm) at cost 0.27-0.94. A right reading's longer fit from its tip
# converges as often (cost 0.49-0.99; on the survey, the 14608 set's 14608-14757 and the 15184
# set's 15184-15334, 28 of the 80 right clear readings in size doubt reaching this rule) but
# its outline past the reading mostly lies on bare table: the mean robust cost of its samples
# 1.5 mm (CLEAR_FIT_PAST_MM) or more past the reading's stern or tip, along its heading, is
# 1.13 (15285, a medium whose large costs 0.53) to 2.0 there, where the larges' find their
# edges: 0.03 (13095), 0.11 (15230), 0.19 (15537), 0.34 (15422), 0.43 (14610). Not always:
# the 8848-set's 8849, a right clear medium head to tail beside a missed one, has a large from
# its stern at cost 0.49 whose past samples lie on the other's outline (0.51); the 16336-set's
# 16557, a right clear medium, 0.60 and 0.75 (its shadow's rim); the 16624-set's 16745, a right
# clear small, a medium at 0.84 and 0.26. So only a medium is asked, of the large alone: the
# large's fit from its stern or its tip costing at most CLEAR_FIT_COST at σ at most
# CLEAR_FIT_SIGMA_MM, its past samples (at least CLEAR_FIT_PAST_SEEN of them seen, not
# foreground outside) costing at most CLEAR_FIT_PAST_COST, clashing with no reading, is read
# there, named clear, its σ covering the medium (never trusted). Bounds: the past cost 0.4
# between 15422's 0.34 and 8849's 0.51 (14610, 0.43, is left a medium in doubt); the fit cost
# 0.7 between 15422's 0.61 and 16745's 0.84, which leaves 13095 (0.81) and 15537 (0.79), read
# turned 18-21° and fitted back onto the piece, with the right readings' 0.49-0.99.
CLEAR_FIT_COST = 0.7
CLEAR_FIT_SIGMA_MM = 0.5
CLEAR_FIT_PAST_MM = 1.5
CLEAR_FIT_PAST_COST = 0.4
CLEAR_FIT_PAST_SEEN = 0.5


def _past_ends_cost(scene: Scene, c: Candidate, f: Candidate) -> float:
    """The mean robust cost of longer fit ``f``'s outline samples that lie past reading
    ``c``'s stern or tip by CLEAR_FIT_PAST_MM or more along ``c``'s heading (each sample's
    probe, just outside it; table mm), those whose outside is foreground left out; infinite
    when none lies past or under CLEAR_FIT_PAST_SEEN of those past are seen."""
    cost = f.fit.sample_cost
    if not len(cost):
        return math.inf
    p = c.fit.pose
    h = math.radians(p.heading_deg)
    along = (f.fit.probe_mm - np.asarray(p.stern_mm)) @ np.array((math.cos(h), math.sin(h)))
    past = (along < -CLEAR_FIT_PAST_MM) | (
        along > scene.pieces.dims(c.size).footprint_length_mm + CLEAR_FIT_PAST_MM)
    seen = past & ~np.isnan(cost)
    if not past.any() or np.count_nonzero(seen) < CLEAR_FIT_PAST_SEEN * np.count_nonzero(past):
        return math.inf
    return float(cost[seen].mean())


def clear_fit_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate]
                     ) -> Candidate | None:
    """For clear reading ``c`` of the size next to the longest, its σ ``sigma_mm`` covering the
    longest (in size doubt): the longest size's fit on the map from ``c``'s stern, else from
    its tip (at ``c``'s heading), when it costs at most CLEAR_FIT_COST at σ at most
    CLEAR_FIT_SIGMA_MM, finds the edges past ``c``'s ends (:func:`_past_ends_cost` at most
    CLEAR_FIT_PAST_COST) and clashes with none of ``lying``, its σ covering ``c``; else None."""
    z = scene.by_length[-1]
    if c.size != scene.by_length[-2] or z not in _longer_asked(scene, c, sigma_mm):
        return None  # a medium in doubt of the large alone (CLEAR_FIT_COST's note)
    others = [k for k in lying if k is not c]
    for o in (*_set_from_stern(scene, c, [z]), *_set_from_tip(scene, c, [z])):
        f = scene.fit(z, o.fit.pose)
        if (f.fit.cost <= CLEAR_FIT_COST and f.fit.sigma_mm <= CLEAR_FIT_SIGMA_MM
                and _past_ends_cost(scene, c, f) <= CLEAR_FIT_PAST_COST
                and not clashes(f, others, scene)):
            mm, deg = reading_gap(scene, f, c)
            return f.in_doubt_of(mm, deg)
    return None


def clear_wall_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                      ratio: np.ndarray | None) -> Candidate | None:
    """The longest size longer than clear reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) from ``c``'s stern, at its heading turned CLEAR_TIP_TURN_DEG either way, whose
    strip past ``c`` (at least STRIP_FREE of it off the other readings) is greyer than the
    table beside it (CLEAR_WALL_GREY of its saturation ``ratio``, its part past the next
    shorter size CLEAR_GREY of it), whose tip lies CLEAR_TIP_OFF_MM or more from the other
    readings: set at ``c``'s stern and heading as read, not fitted (crisp._edges_candidate),
    its σ covering ``c``, when it clashes with none of ``lying``; else None. None on a grey
    table (``ratio`` None)."""
    if ratio is None or not (longer := _longer_asked(scene, c, sigma_mm)):
        return None
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    best: Candidate | None = None  # the longest passing so far (_longer_than)
    for turn in (CLEAR_TIP_TURN_DEG, -CLEAR_TIP_TURN_DEG):  # the sides only: see CLEAR_WALL_GREY
        for o, free, shorter in _free_strips(scene, seen, _set_from_stern(scene, c, longer, turn),
                                             others):
            if not _longer_than(scene, o, best):
                break  # longest first: no longer size left at this turn
            if not _greyer_than_beside(scene, ratio, o, seen, free, others, shorter):
                continue
            if (_end_near(scene, o, others, tip=True)
                    and not _greyer_away(scene, ratio, o, seen, free, others)):
                continue  # its tip runs into another piece (see CLEAR_WALL_GREY, CLEAR_WALL_AWAY)
            straight = _set_from_stern(scene, c, [o.size])[0]
            if (q := _covering_longer(scene, straight, c, others)) is not None:
                best = q
                break
    return best


def clear_base_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                      ratio: np.ndarray | None) -> Candidate | None:
    """The longest size longer than clear reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) from ``c``'s TIP and heading whose strip past ``c``'s stern (at least STRIP_FREE of
    it off the other readings) is greyer than the table beside it (CLEAR_BASE_GREY of its
    saturation ``ratio``, its part past the next shorter size CLEAR_GREY of it), whose stern
    lies CLEAR_TIP_OFF_MM or more from the other readings: set there, not fitted
    (crisp._edges_candidate), its σ covering ``c``, when it clashes with none of ``lying``;
    when none passes at ``c``'s heading, the same asked at that heading turned
    CLEAR_TIP_TURN_DEG either way about the tip, the size set at the heading as read; else
    None. None on a grey table (``ratio`` None)."""
    if ratio is None or not (longer := _longer_asked(scene, c, sigma_mm)):
        return None
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    best: Candidate | None = None  # the longest passing so far (_longer_than)
    for turn in (0.0, CLEAR_TIP_TURN_DEG, -CLEAR_TIP_TURN_DEG):
        for o, free, shorter in _free_strips(scene, seen, _set_from_tip(scene, c, longer, turn),
                                             others):
            if not _longer_than(scene, o, best):
                break  # longest first: no longer size left at this turn
            if not _greyer_than_beside(scene, ratio, o, seen, free, others, shorter,
                                       bound=CLEAR_BASE_GREY):
                continue
            if _end_near(scene, o, others, tip=False):
                continue  # its stern runs into another piece: that piece's side may grey it
            straight = _set_from_tip(scene, c, [o.size])[0] if turn else o
            if (q := _covering_longer(scene, straight, c, others)) is not None:
                best = q
                break
    return best


def _across_pose(c: Candidate, turn: float, ahead: float, side: float) -> Pose:
    """The stern and heading of a longer piece that reading ``c`` would lie across: ``ahead``
    mm ahead of ``c``'s stern and ``side`` mm to its left (right when negative), turned by
    ``turn``° toward that side (CLEAR_ACROSS_*)."""
    p = c.fit.pose
    cs, sn = math.cos(math.radians(p.heading_deg)), math.sin(math.radians(p.heading_deg))
    h = (p.heading_deg - math.copysign(turn, side)) % 360.0
    return Pose(p.x_mm + ahead * cs - side * sn, p.y_mm + ahead * sn + side * cs, h)


def _across_coarse() -> Iterator[tuple[float, float, float]]:
    """The coarse (turn °, ahead mm, side mm) of CLEAR_ACROSS_*, both sides."""
    for sign in (1.0, -1.0):
        for t in CLEAR_ACROSS_TURN_DEG:
            for a in CLEAR_ACROSS_AHEAD_MM:
                for b in CLEAR_ACROSS_SIDE_MM:
                    yield t, a, sign * b


def _across_fine(t: float, a: float, b: float) -> Iterator[tuple[float, float, float]]:
    """The (turn, ahead, side) about a coarse one by CLEAR_ACROSS_FINE either way."""
    dt, da, db = CLEAR_ACROSS_FINE
    for u in (-dt, 0.0, dt):
        for v in (-da, 0.0, da):
            for w in (-db, 0.0, db):
                if u or v or w:
                    yield t + u, a + v, b + math.copysign(w, b)


def _half_planes(outline: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The outward unit normals (k, 2) and offsets (k,) of a convex counter-clockwise
    ``outline`` (table mm): a point's distance outside is at least max(n·p − o)."""
    d = np.roll(outline, -1, axis=0) - outline
    n = np.stack([d[:, 1], -d[:, 0]], axis=1)
    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-9)
    return n, np.einsum("ij,ij->i", n, outline)


def _across_outline(scene: Scene, c: Candidate, z: Size, k: tuple[float, float, float]
                    ) -> np.ndarray:
    """The outline as seen (table mm) of size ``z`` at :func:`_across_pose` ``k`` of ``c``."""
    p = _across_pose(c, *k)
    return outline_mm(scene._local(z, False), np.array([p.x_mm, p.y_mm,
                                                        math.radians(p.heading_deg)]),
                      scene.camera_mm)


def clear_across_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate]
                        ) -> Candidate | None:
    """The longest size longer than clear reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) at a pose of the family a piece ``c`` lies across would have (CLEAR_ACROSS_*),
    holding ``c``, whose strip past ``c`` (at least STRIP_FREE of it off the other readings)
    has a median shade at most CLEAR_ACROSS_DARK (at least CLEAR_STRIP_FLOOR) of the band
    beside it, the darkest such pose: set there, not fitted (crisp._edges_candidate), its σ
    covering ``c``, when it clashes with none of ``lying``; else None."""
    if c.size != scene.by_length[0] or not (longer := _longer_asked(scene, c, sigma_mm)):
        return None  # only a small is asked (see below CLEAR_ACROSS_STEP_MM)
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    dims = scene.pieces.dims
    # The lattice: a box round every pose's outline (the coarse ones grown by the fine
    # steps' reach) and the band, the view's shade read once per point.
    reach = CLEAR_ACROSS_FINE[1] + CLEAR_ACROSS_FINE[2] + 2.0
    coarse = [(z, k) for z in longer for k in _across_coarse()]
    outlines = [_across_outline(scene, c, z, k) for z, k in coarse]
    near, far = CLEAR_BESIDE_MM
    allpts = np.concatenate(outlines)
    step = CLEAR_ACROSS_STEP_MM
    x0, y0 = allpts.min(axis=0) - far - reach
    xs = np.arange(x0, allpts[:, 0].max() + far + reach, step)
    ys = np.arange(y0, allpts[:, 1].max() + far + reach, step)
    gx, gy = np.meshgrid(xs, ys)
    px = np.round(scene.grid.to_px(np.stack([gx.ravel(), gy.ravel()], axis=1))).astype(int)
    rows, cols = scene.shade.shape[:2]
    ok = ((px[:, 0] >= 0) & (px[:, 1] >= 0) & (px[:, 0] < cols) & (px[:, 1] < rows)
          ).reshape(gx.shape)
    shade = np.where(ok.ravel(), scene.shade[np.clip(px[:, 1], 0, rows - 1),
                                             np.clip(px[:, 0], 0, cols - 1)], np.nan
                     ).reshape(gx.shape)
    own = shapely.contains_xy(seen, gx, gy)
    n_own = np.count_nonzero(own)
    if n_own == 0:
        return None
    own_pts = np.stack([gx[own], gy[own]], axis=1)
    own_band = shapely.contains_xy(seen.buffer(near), gx, gy)
    taken = (shapely.contains_xy(shapely.union_all([scene.grown_outline(k) for k in others]),
                                 gx, gy) if others else np.zeros(gx.shape, bool))
    strip_ok = ~shapely.contains_xy(seen.buffer(STRIP_GROW_MM), gx, gy) & ok
    band_ok = ~own_band & ~taken & ok

    def darkness(outline: np.ndarray) -> float:
        """The strip's median shade over the band's (inf when the outline does not hold the
        reading, or its strip lies on the others)."""
        n, o = _half_planes(outline)
        if np.count_nonzero((own_pts @ n.T - o).max(axis=1) <= 0.0) < CLEAR_ACROSS_COVER * n_own:
            return math.inf  # does not hold the reading
        (bx0, by0), (bx1, by1) = outline.min(axis=0) - far, outline.max(axis=0) + far
        c0, c1 = int((bx0 - x0) // step), int((bx1 - x0) // step) + 2
        r0, r1 = int((by0 - y0) // step), int((by1 - y0) // step) + 2
        win = (slice(max(r0, 0), r1), slice(max(c0, 0), c1))
        out = (np.stack([gx[win], gy[win]], axis=-1) @ n.T - o).max(axis=-1)
        strip = (out <= 0.0) & strip_ok[win]
        free = strip & ~taken[win]
        n_strip = np.count_nonzero(strip)
        band = (out >= near) & (out <= far) & band_ok[win]
        if n_strip == 0 or np.count_nonzero(free) < STRIP_FREE * n_strip or not band.any():
            return math.inf
        sw = shade[win]
        return float(median(sw[free])) / max(float(median(sw[band])), 1e-6)

    best: dict[Size, tuple[float, tuple[float, float, float]]] = {}
    for (z, k), outline in zip(coarse, outlines, strict=True):
        r = darkness(outline)
        if r < best.get(z, (math.inf,))[0]:
            best[z] = (r, k)
    for z, (r, k) in list(best.items()):
        if r > CLEAR_ACROSS_DARK + CLEAR_ACROSS_FINE_ASK:
            continue  # too light to be darkened under the bound by a fine step
        for f in _across_fine(*k):
            if (rf := darkness(_across_outline(scene, c, z, f))) < best[z][0]:
                best[z] = (rf, f)
    best = {z: v for z, v in best.items()
            if CLEAR_STRIP_FLOOR <= v[0] <= CLEAR_ACROSS_DARK}
    for z in sorted(best, key=lambda k: dims(k).footprint_length_mm, reverse=True):
        o = _edges_candidate(scene, z, _across_pose(c, *best[z][1]))
        if (q := _covering_longer(scene, o, c, others)) is not None:
            return q
    return None


def _longer_than(scene: Scene, o: Candidate, best: Candidate | None) -> bool:
    """Whether reading ``o`` is longer than ``best`` (any reading when ``best`` is None).

    The turned strip rules (clear_tip_longer, clear_wall_longer, clear_base_longer) take the
    longest size that ANY of their turns passes (issue 4, session 50, sizeclear60): asked
    turn by turn, the first turn passing any size ended the search, so a clear large read as
    a small from its stern was read as a medium when the medium passed straight on and the
    large only turned CLEAR_TIP_TURN_DEG (the 11728-set's 11797: the large straight on 0.913 of
    the table beside it, turned -10° 0.698; the 5104-set's 5385: straight on its tip within
    CLEAR_TIP_OFF_MM of a neighbour, turned +10° 0.841). After a turn passes a size, the turns
    left ask only the longer sizes."""
    dims = scene.pieces.dims
    return best is None or dims(o.size).footprint_length_mm > dims(best.size).footprint_length_mm


def _end_near(scene: Scene, o: Candidate, others: list[Candidate], tip: bool) -> bool:
    """Whether a longer reading ``o``'s tip (else its stern; table mm) lies within
    CLEAR_TIP_OFF_MM of one of ``others``' outlines."""
    pose = o.fit.pose
    end = shapely.Point(pose.tip_mm(scene.pieces.dims(o.size).footprint_length_mm) if tip
                        else pose.stern_mm)
    return any(shapely.Polygon(k.outline_mm).distance(end) < CLEAR_TIP_OFF_MM for k in others)


def _beside_strip(scene: Scene, o: Candidate, seen: shapely.Geometry, free: shapely.Geometry,
                  others: list[Candidate]) -> shapely.Geometry:
    """The table beside a longer reading ``o``'s strip ``free`` (table mm, past the reading
    as ``seen``, off ``others``): a band CLEAR_BESIDE_MM out from ``o``'s outline, within
    CLEAR_BESIDE_MM[1] + 1 mm of the strip, off the reading and the others."""
    outline = shapely.Polygon(o.outline_mm)
    near, far = CLEAR_BESIDE_MM
    band = outline.buffer(far).difference(outline.buffer(near))
    return _off_others(scene, band.intersection(free.buffer(far + 1.0)).difference(
        seen.buffer(near)), others)


def _greyer_than_beside(scene: Scene, ratio: np.ndarray, o: Candidate, seen: shapely.Geometry,
                        free: shapely.Geometry, others: list[Candidate],
                        shorter: Candidate | None, bound: float = CLEAR_WALL_GREY) -> bool:
    """Whether a longer reading ``o``'s strip ``free`` (table mm, past the reading as
    ``seen``, off ``others``) has a median saturation ``ratio`` at most ``bound``
    (CLEAR_WALL_GREY) of the table's beside it (:func:`_beside_strip`), and its part past
    ``shorter`` (the next shorter size set the same way, when longer than the reading) at most
    CLEAR_GREY of it."""
    beside = _beside_strip(scene, o, seen, free, others)
    if beside.area <= 0.0:
        return False
    return _grey_to(scene, ratio, free, median_in(scene, ratio, beside), bound, shorter,
                    CLEAR_GREY)


def _grey_to(scene: Scene, ratio: np.ndarray, free: shapely.Geometry, table: float,
             bound: float, shorter: Candidate | None, last_bound: float) -> bool:
    """Whether a longer reading's strip ``free`` (table mm) has a median saturation ``ratio``
    at most ``bound`` times ``table`` (the table's beside it), and its part past ``shorter``
    (the next shorter size set the same way, when longer than the reading) at most
    ``last_bound`` times it."""
    if median_in(scene, ratio, free) > bound * table:
        return False
    if shorter is None:
        return True
    last = free.difference(shapely.Polygon(shorter.outline_mm).buffer(STRIP_GROW_MM))
    return last.area > 0.0 and median_in(scene, ratio, last) <= last_bound * table


def _greyer_away(scene: Scene, ratio: np.ndarray, o: Candidate, seen: shapely.Geometry,
                 free: shapely.Geometry, others: list[Candidate]) -> bool:
    """Whether a longer reading ``o``'s strip ``free`` (table mm, past the reading as
    ``seen``, off ``others``), cut CLEAR_WALL_AWAY_MM clear of ``others``' outlines, keeps at
    least CLEAR_WALL_AWAY of its area and a median saturation ``ratio`` at most
    CLEAR_WALL_GREY of the table's beside it (:func:`_beside_strip`, as far from them)."""
    near = [g for q in others for g in [shapely.Polygon(q.outline_mm)]
            if g.distance(free) < CLEAR_WALL_AWAY_MM]
    if not near:
        return False  # the tip guard's neighbour lies off the strip: nothing to cut away
    grown = shapely.union_all(near).buffer(CLEAR_WALL_AWAY_MM)
    away = free.difference(grown)
    if away.area < CLEAR_WALL_AWAY * free.area:
        return False
    beside = _beside_strip(scene, o, seen, free, others).difference(grown)
    if beside.area <= 0.0:
        return False
    return median_in(scene, ratio, away) <= CLEAR_WALL_GREY * median_in(scene, ratio, beside)


def _darker_than_beside(scene: Scene, o: Candidate, seen: shapely.Geometry,
                        free: shapely.Geometry, others: list[Candidate],
                        shorter: Candidate | None, bound: float = CLEAR_STRIP_BESIDE,
                        floor: float = CLEAR_STRIP_FLOOR,
                        far: shapely.Geometry | None = None) -> bool:
    """Whether a longer reading ``o``'s strip ``free`` (table mm, past the reading as
    ``seen``, off ``others``) has a median shade at most ``bound`` (CLEAR_STRIP_BESIDE), and
    at least ``floor`` (CLEAR_STRIP_FLOOR), of the table's beside it (CLEAR_BESIDE_MM out
    from ``o``'s outline, within CLEAR_BESIDE_MM[1] + 1 mm of the strip, off the reading and
    the others), and so
    has its part in ``far`` (a half-plane, when given; against the same table beside the
    whole strip) and its part past ``shorter`` (the next shorter size set from the same tip,
    when longer than the reading)."""
    ring = shades_in(scene, _beside_strip(scene, o, seen, free, others))
    if not ring.size:
        return False
    lo, hi = floor * float(median(ring)), bound * float(median(ring))
    if not lo <= median_shade(scene, free) <= hi:
        return False
    if far is not None and not ((part := free.intersection(far)).area > 0.0
                                and lo <= median_shade(scene, part) <= hi):
        return False
    if shorter is None:
        return True
    last = free.difference(shapely.Polygon(shorter.outline_mm).buffer(STRIP_GROW_MM))
    return last.area > 0.0 and lo <= median_shade(scene, last) <= hi


def _shorter_strip(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate]
                   ) -> tuple[Candidate, shapely.Geometry, shapely.Geometry] | None:
    """For reading ``c`` not in size doubt (σ ``sigma_mm`` short of the next shorter size):
    the next shorter size from ``c``'s tip and heading (set there, not fitted:
    crisp._edges_candidate), the strip ``c`` adds past it (table mm; the shorter outline grown
    by STRIP_GROW_MM cut off) and that strip off the other readings; None when there is no
    shorter size, the strip is empty, or under STRIP_FREE of it is off the others."""
    dims = scene.pieces.dims
    order = scene.by_length
    k = order.index(c.size)
    if k == 0:
        return None  # no shorter size
    d_c, d_z = dims(c.size).footprint_length_mm, dims(order[k - 1]).footprint_length_mm
    if sigma_mm >= d_c - d_z - 0.1:
        return None  # in size doubt already
    o = _edges_candidate(scene, order[k - 1], Pose.with_tip(
        c.fit.pose.tip_mm(d_c), c.fit.pose.heading_deg, d_z))
    strip = shapely.Polygon(c.outline_mm).difference(
        shapely.Polygon(o.outline_mm).buffer(STRIP_GROW_MM))
    if strip.area <= 0.0:
        return None
    free = _off_others(scene, strip, [q for q in lying if q is not c])
    if free.area < STRIP_FREE * strip.area:
        return None
    return o, free, strip


def bare_strip_shorter(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate]
                       ) -> Candidate | None:
    """The next shorter size than reading ``c`` (σ ``sigma_mm`` not yet covering it) from
    ``c``'s tip and heading when the strip ``c`` adds past it is bare table (see
    BARE_STRIP_SCORE): set there, not fitted (crisp._edges_candidate), its σ covering ``c``;
    else None."""
    if (c.upright or scene.shade is None
            or (got := _shorter_strip(scene, c, sigma_mm, lying)) is None):
        return None
    o, free, _strip = got
    score = values_in(scene, scene.score, free)
    if not score.size or float(median(score)) > BARE_STRIP_SCORE:
        return None
    # The piece itself shows plainly on the score map (not a faint one the table estimate
    # took in, whose whole outline scores as table: BARE_OWN_SCORE).
    own = values_in(scene, scene.score, shapely.Polygon(o.outline_mm).buffer(-1.0))
    if not own.size or float(median(own)) < BARE_OWN_SCORE:
        return None
    if median_shade(scene, free) < BARE_STRIP_SHADE:
        return None
    return _covering(scene, o, c)


def other_colour_strip(scene: Scene, c: Candidate, color: str, sigma_mm: float,
                       lying: list[Candidate], view: TableView, bg: np.ndarray
                       ) -> Candidate | None:
    """The next shorter size than vivid reading ``c`` (named ``color``, σ ``sigma_mm`` not yet
    covering it) from ``c``'s tip and heading when the strip ``c`` adds past it is named
    another colour (see OTHER_STRIP_NAMES): set there, not fitted, its σ covering ``c``;
    else None."""
    if (c.upright or color in FACES_CAN_VANISH
            or (got := _shorter_strip(scene, c, sigma_mm, lying)) is None):
        return None
    o, free, strip = got
    part = max(getattr(free, "geoms", [free]), key=lambda g: g.area)
    if not isinstance(part, shapely.Polygon) or part.area < OTHER_STRIP_MIN_SHARE * strip.area:
        return None
    name = classify_color(view, part, bg, opaque=True)
    if name == color or name not in OTHER_STRIP_NAMES:
        return None
    return _covering(scene, o, c)


def full_strip_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate]
                      ) -> Candidate | None:
    """The longest size longer than reading ``c`` (σ ``sigma_mm``, covering it: in size doubt)
    from ``c``'s tip and heading whose strip past ``c``, and that strip's part past the next
    shorter size, look like ``c``'s own part (see FULL_STRIP_FG) and that clashes with none
    of ``lying``: set there, not fitted (crisp._edges_candidate), its σ covering ``c``; else
    None."""
    if not (longer := _longer_asked(scene, c, sigma_mm)):
        return None
    seen = shapely.Polygon(c.outline_mm)
    inner = seen.buffer(-1.0)
    own = values_in(scene, scene.score, inner)
    if not own.size or (own_score := float(median(own))) < BARE_OWN_SCORE:
        return None
    own_shade = median_shade(scene, inner)
    others = [k for k in lying if k is not c]
    sets = _set_from_tip(scene, c, longer)

    def like_own(part: shapely.Geometry) -> bool:
        free = _off_others(scene, part, others)
        if part.area <= 0.0 or free.area < STRIP_FREE * part.area:
            return False
        fg = values_in(scene, scene.fg, free)
        score = values_in(scene, scene.score, free)
        if not fg.size or float(median(fg)) < FULL_STRIP_FG:
            return False
        if float(median(score)) < FULL_STRIP_SCORE * own_score:
            return False
        shade = median_shade(scene, free)
        return own_shade <= FULL_STRIP_SHADE * shade and shade <= FULL_STRIP_SHADE * own_shade

    for k in reversed(range(len(sets))):
        o = shapely.Polygon(sets[k].outline_mm)
        prev = shapely.Polygon(sets[k - 1].outline_mm) if k else seen
        if not (like_own(o.difference(seen.buffer(STRIP_GROW_MM)))
                and (not k or like_own(o.difference(prev.buffer(STRIP_GROW_MM))))):
            continue
        if (q := _covering_longer(scene, sets[k], c, others)) is not None:
            return q
    return None


def _grey_strip(scene: Scene, ratio: np.ndarray, free: shapely.Geometry, own: float,
                shorter: Candidate | None) -> bool:
    """Whether a longer reading's strip ``free`` (table mm, off the other readings) is as grey
    as the clear reading it would replace (median saturation ``ratio`` under the mean of the
    reading's, ``own``, and the table's, 1), and its part past ``shorter`` (the next shorter
    size set from the same tip, when longer than the reading) too or at most CLEAR_GREY: a
    piece of that shorter size leaves that part bare (see CLEAR_GREY)."""
    if median_in(scene, ratio, free) > 0.5 * (own + 1.0):
        return False
    if shorter is None:
        return True
    last = free.difference(shapely.Polygon(shorter.outline_mm).buffer(STRIP_GROW_MM))
    return last.area > 0.0 and median_in(scene, ratio, last) <= max(0.5 * (own + 1.0),
                                                                    CLEAR_GREY)


def _off_others(scene: Scene, strip: shapely.Geometry, others: list[Candidate]
                ) -> shapely.Geometry:
    """The part of ``strip`` (table mm) off ``others``' outlines grown by 1 mm (remembered by
    the scene: Scene.grown_outline), only those whose bounds reach the strip's asked."""
    x0, y0, x1, y1 = strip.bounds
    near = [g for q in others for g in [scene.grown_outline(q)]
            if g.bounds[0] <= x1 and g.bounds[2] >= x0 and g.bounds[1] <= y1
            and g.bounds[3] >= y0]
    return strip.difference(shapely.union_all(near)) if near else strip


def wide_base_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate]
                     ) -> Candidate | None:
    """The longest size longer than white reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) whose base's inside (its width less WIDE_BASE_WALLS_MM, less WIDE_BASE_SLACK_MM)
    the dark run across ``c``'s open base as seen reaches at every height
    (:func:`_base_runs_mm`), when no run is over the size's base width plus
    WIDE_BASE_OVER_MM and ``c``'s base shows dark
    (WIDE_BASE_DARK): set at ``c``'s stern and heading, not fitted (crisp._edges_candidate), its
    σ covering ``c``, when it clashes with none of ``lying``; else None."""
    if not (longer := _longer_asked(scene, c, sigma_mm)):
        return None
    runs = _dark_base_runs(scene, c)
    if runs is None:
        return None
    fits = [z for z in longer if _runs_fit(scene, z, runs)]
    if not fits:
        return None
    others = [k for k in lying if k is not c]
    return _covering_longer(scene, _set_from_stern(scene, c, fits[-1:])[0], c, others)


def hollow_near_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate]
                       ) -> Candidate | None:
    """The longest size longer than white reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt) whose open base shows dark and as wide as that size's (WIDE_BASE_*'s test) at a
    pose HOLLOW_BACK_MM behind and HOLLOW_ACROSS_MM aside ``c``'s stern at its heading (table
    mm), taking in at least HOLLOW_INSIDE of ``c``'s area (the pose taking in most): set there,
    not fitted (crisp._edges_candidate), its σ covering ``c``, when it clashes with none of
    ``lying``; else None."""
    if not (longer := _longer_asked(scene, c, sigma_mm)) or _on_own_hollow(scene, c):
        return None
    assert scene.shade is not None
    p = c.fit.pose
    u = np.asarray(p.direction)
    n = np.array([-u[1], u[0]])
    stern = np.array([p.x_mm, p.y_mm])
    seen = shapely.Polygon(c.outline_mm)
    others = [k for k in lying if k is not c]
    for z in reversed(longer):
        poses = [Pose(*(stern - b * u + a * n), p.heading_deg)
                 for b in HOLLOW_BACK_MM for a in HOLLOW_ACROSS_MM]
        mids = np.array([_base_seen_at(scene, z, q).mean(axis=0) for q in poses])
        px = scene.grid.to_px(mids)
        mid_shade = sample_map(scene.shade, px[:, 0], px[:, 1])
        best: tuple[float, Candidate] | None = None
        for q, m in zip(poses, mid_shade, strict=True):
            if m >= HOLLOW_MID_DARK or not _wide_base_at(scene, z, q):
                continue
            o = _edges_candidate(scene, z, q)
            share = seen.intersection(shapely.Polygon(o.outline_mm)).area / max(seen.area, 1e-9)
            if share >= HOLLOW_INSIDE and (best is None or share > best[0]):
                best = (share, o)
        if best is not None:
            return _covering_longer(scene, best[1], c, others)
    return None


def _on_own_hollow(scene: Scene, c: Candidate) -> bool:
    """Whether lying reading ``c``'s own open base as seen (table mm on the view) shows its
    middle darker than HOLLOW_MID_DARK with runs that dark as wide as ``c``'s size's base at
    every height (:func:`_runs_fit`): the reading lies on its own hollow."""
    assert scene.shade is not None
    mid = scene.grid.to_px(_base_seen_at(scene, c.size, c.fit.pose).mean(axis=0)[None])
    if sample_map(scene.shade, mid[:, 0], mid[:, 1])[0] >= HOLLOW_MID_DARK:
        return False
    return _runs_fit(scene, c.size, _base_runs_mm(scene, c, HOLLOW_MID_DARK))


def _wide_base_at(scene: Scene, z: Size, pose: Pose) -> bool:
    """Whether a piece of size ``z`` at ``pose`` (table mm) shows its open base dark
    (WIDE_BASE_DARK) with a dark run at every height at least its inside less
    WIDE_BASE_SLACK_MM, none over its base width plus WIDE_BASE_OVER_MM nor over the shortest
    run plus HOLLOW_FLAT_MM."""
    runs = _dark_base_runs(scene, _edges_candidate(scene, z, pose))
    return (runs is not None and _runs_fit(scene, z, runs)
            and max(runs) <= min(runs) + HOLLOW_FLAT_MM)


def _dark_base_runs(scene: Scene, c: Candidate) -> list[float] | None:
    """The dark runs across lying ``c``'s open base as seen at each height (mm,
    :func:`_base_runs_mm`, at the level halfway between its inside and the lighter of behind
    and ahead), when that base shows dark (behind and ahead at least WIDE_BASE_DARK times its
    inside); else None."""
    shades = _base_shades_at(scene, c.size, c.fit.pose)
    if shades is None:
        return None
    behind, inside, ahead = (float(median(a)) for a in shades)
    if min(behind, ahead) < WIDE_BASE_DARK * inside:
        return None
    return _base_runs_mm(scene, c, 0.5 * (inside + min(behind, ahead)))


def _runs_fit(scene: Scene, z: Size, runs: list[float]) -> bool:
    """Whether dark ``runs`` (mm) are as wide as size ``z``'s base: the shortest at least its
    inside (its width less WIDE_BASE_WALLS_MM) less WIDE_BASE_SLACK_MM, the longest at most its
    width plus WIDE_BASE_OVER_MM."""
    w = scene.pieces.dims(z).base_w_mm
    return (w - WIDE_BASE_WALLS_MM - WIDE_BASE_SLACK_MM <= min(runs)
            and max(runs) <= w + WIDE_BASE_OVER_MM)


def _base_runs_mm(scene: Scene, c: Candidate, dark: float) -> list[float]:
    """At each of WIDE_BASE_HEIGHTS, the width (mm across the base) of the run of view shade
    under ``dark`` through the middle of reading ``c``'s open base as seen (table mm on the
    view; 0 where the middle is not dark), read out to WIDE_BASE_REACH_MM either way."""
    assert scene.shade is not None
    q = _base_seen_at(scene, c.size, c.fit.pose)
    w = scene.pieces.dims(c.size).base_w_mm
    ts = np.arange(-WIDE_BASE_REACH_MM, WIDE_BASE_REACH_MM + 1e-6, WIDE_BASE_STEP_MM)
    mid = len(ts) // 2
    widths = []
    for f in WIDE_BASE_HEIGHTS:
        a, b = q[0] + f * (q[2] - q[0]), q[1] + f * (q[3] - q[1])
        n = float(np.hypot(*(b - a)))
        px = scene.grid.to_px(0.5 * (a + b) + np.outer(ts, (b - a) / max(n, 1e-6)))
        on = sample_map(scene.shade, px[:, 0], px[:, 1]) < dark
        if not on[mid] or n < 1e-6:
            widths.append(0.0)
            continue
        back = int(np.argmin(np.append(on[mid::-1], False)))  # dark samples from the middle
        fore = int(np.argmin(np.append(on[mid:], False)))
        widths.append((back + fore - 1) * WIDE_BASE_STEP_MM * w / n)
    return widths


def _covering_longer(scene: Scene, o: Candidate, c: Candidate, others: list[Candidate]
                     ) -> Candidate | None:
    """``o``, a longer reading set in place of reading ``c``, its ambiguity their gap (so its
    σ covers ``c``: the size is not a fit's); None when it clashes with one of ``others``."""
    return None if clashes(o, others, scene) else _covering(scene, o, c)


def _covering(scene: Scene, o: Candidate, c: Candidate) -> Candidate:
    """``o``, a reading set in place of reading ``c``, its ambiguity their gap (so its σ
    covers ``c``)."""
    gap_mm, gap_deg = reading_gap(scene, o, c)
    return replace(o, ambiguity_mm=gap_mm, ambiguity_deg=gap_deg,
                   covering_ambiguity_mm=gap_mm, covering_ambiguity_deg=gap_deg)


def edges_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                 edges: np.ndarray) -> Candidate | None:
    """The longest size longer than reading ``c`` (σ ``sigma_mm``, covering it: in size doubt)
    from ``c``'s tip and heading whose outline past ``c`` (outside its outline as seen grown
    by EDGE_PAST_MM, EDGE_LONGER_FREE of those samples or more off the other readings) lies
    on the crisp ``edges`` (view-size bool) for EDGE_LONGER_SHARE of those samples, and that
    clashes with none of ``lying``: set there, not fitted (crisp._edges_candidate), its σ
    covering ``c``; else None."""
    if c.upright:
        return None
    dims = scene.pieces.dims
    d_c = dims(c.size).footprint_length_mm
    tip = c.fit.pose.tip_mm(d_c)
    others = [k for k in lying if k is not c]
    longer = [z for z in reversed(scene.by_length) if dims(z).footprint_length_mm > d_c
              and sigma_mm >= dims(z).footprint_length_mm - d_c - 0.1]
    if not longer:
        return None
    seen = shapely.Polygon(c.outline_mm).buffer(EDGE_PAST_MM)
    # The other readings grown by 1 mm, only those within reach of the samples: a polygon
    # farther than 1 mm from every sample cannot hold one in its grown form (the same mask;
    # growing every reading's outline was most of this rule's cost).
    outlines = np.array([shapely.Polygon(k.outline_mm) for k in others], dtype=object)
    for z in longer:
        pose = Pose.with_tip(tip, c.fit.pose.heading_deg, dims(z).footprint_length_mm)
        pts = _outline_samples(scene, z, pose)
        past = ~shapely.contains_xy(seen, pts[:, 0], pts[:, 1])
        near = (outlines[shapely.distance(outlines, shapely.multipoints(pts[past])) <= 1.01]
                if past.any() and len(outlines) else [])
        taken = shapely.union_all([g.buffer(1.0) for g in near])
        free = past & ~shapely.contains_xy(taken, pts[:, 0], pts[:, 1])
        n_free = np.count_nonzero(free)
        if n_free == 0 or n_free < EDGE_LONGER_FREE * np.count_nonzero(past):
            continue
        if np.count_nonzero(near_edges(scene.grid, pts[free], edges)) < EDGE_LONGER_SHARE * n_free:
            continue
        if (q := _covering_longer(scene, _edges_candidate(scene, z, pose), c, others)) is not None:
            return q
    return None


# A black reading in size doubt on a coloured table read a size or two short (issue 4,
# session 49, lead59). A black piece's lit face on wood is grey, not dark, and its open
# base, seen at the other end, is dark and grey too; the dark passes read the black part
# alone, a small or medium from its stern or its tip (size58's survey: 16 of 22 black larges
# and mediums read short, on wood, felt or cloth). The strip a longer size from the same stern
# or tip adds past the reading keeps 0.25-0.49 of the table's saturation beside it on the
# short readings on wood of the tuning sets (10908, 9715, 11733, 13807, 11826, 13791; mediums
# 10213, 12717, 9435, 10901), 0.96-1.0 past the black readings right at their size (11824,
# 13795, 10891, 10982): the table, or a shadow, which keeps its colour. So such a reading is
# replaced by the longest longer size from its stern or tip whose strip past it, and that
# strip's part past the next shorter size, hold at most BLACK_STRIP_GREY of the table's
# saturation beside it, when it clashes with no other reading: set there, not fitted, its σ
# covering the reading.
BLACK_STRIP_GREY = 0.5
# ... and no brighter than BLACK_STRIP_LIT of the table's shade beside it: a black piece's lit
# face and open base lie at 0.09-0.96 of it on the cases; a strip lit past the table is clear or
# white plastic mirroring the light (the 13168-set's 13430, a clear medium on felt named black,
# read right in size doubt: its large's strip 0.42 of the felt's saturation, but 1.99 of its
# shade; read as a large on merging, session 49).
BLACK_STRIP_LIT = 1.2
# For a reading longer than the shortest size, the strip's part past the reading's end along its
# axis (past its tip for a size set from its stern, behind its stern for one set from its tip)
# is asked too (:func:`_past_end`): a medium read right whose large adds thin
# slivers at its sides, which the medium's own edge fills, is no large (the 11152-set's 11223 on
# cloth and 11283 on felt: black mediums read right in size doubt, their large's strip 0.26 and
# 0.33 of the table's saturation, its part past their tip 1.02; read as larges on merging,
# session 49). The medium of the cases, 13807's, holds 0.35 there. A small's longer sizes add
# wide strips, its own edge a small share of them; there the part past its end may be the table
# (10908's and 9715's readings lie aside of their larges' lit faces: 0.95-0.97).


def _grey_past(scene: Scene, ratio: np.ndarray, o: Candidate, seen: shapely.Geometry,
               free: shapely.Geometry, others: list[Candidate], shorter: Candidate | None,
               beyond: shapely.Geometry | None) -> bool:
    """Whether a longer reading ``o``'s strip ``free`` (table mm, past the reading as
    ``seen``, off ``others``), its part in ``beyond`` (past the reading's end along its axis;
    not asked when None) and its part past ``shorter`` (the next shorter size set the same
    way, when longer than the reading) hold a median saturation ``ratio`` at most
    BLACK_STRIP_GREY of the table's beside the strip (:func:`_beside_strip`), the strip no
    brighter than BLACK_STRIP_LIT of that table's shade."""
    beside = _beside_strip(scene, o, seen, free, others)
    if beside.area <= 0.0:
        return False
    table = median_in(scene, ratio, beside)
    if median_shade(scene, free) > BLACK_STRIP_LIT * median_shade(scene, beside):
        return False
    if beyond is not None and ((end := free.intersection(beyond)).area <= 0.0
                               or median_in(scene, ratio, end) > BLACK_STRIP_GREY * table):
        return False
    return _grey_to(scene, ratio, free, table, BLACK_STRIP_GREY, shorter, BLACK_STRIP_GREY)


def black_grey_longer(scene: Scene, c: Candidate, sigma_mm: float, lying: list[Candidate],
                      ratio: np.ndarray | None) -> Candidate | None:
    """The longest size longer than black reading ``c`` (σ ``sigma_mm``, covering it: in size
    doubt), set from ``c``'s stern or its tip at its heading, whose strip past ``c`` is grey
    (:func:`_grey_past`, BLACK_STRIP_GREY; ``ratio`` the view's saturation over the table's,
    None on a grey table) and that clashes with none of ``lying``: set there, not fitted
    (crisp._edges_candidate), its σ covering ``c``; else None."""
    if ratio is None or not (longer := _longer_asked(scene, c, sigma_mm)):
        return None
    others = [k for k in lying if k is not c]
    seen = shapely.Polygon(c.outline_mm)
    # A medium's large adds thin slivers at its sides, which its own edge can fill: the length
    # the large adds past the reading's end is asked too (BLACK_STRIP_LIT's note).
    end = c.size != scene.by_length[0]
    got: list[Candidate] = []
    for sets, tip in ((_set_from_stern(scene, c, longer), True),
                      (_set_from_tip(scene, c, longer), False)):
        beyond = _past_end(scene, c, tip) if end else None
        for o, free, shorter in _free_strips(scene, seen, sets, others):
            if _grey_past(scene, ratio, o, seen, free, others, shorter, beyond):
                got.append(o)
                break
    dims = scene.pieces.dims
    for o in sorted(got, key=lambda o: -dims(o.size).footprint_length_mm):
        if (q := _covering_longer(scene, o, c, others)) is not None:
            return q
    return None


def _past_end(scene: Scene, c: Candidate, tip: bool, far_mm: float = 500.0,
              back_mm: float = 0.0) -> shapely.Geometry:
    """The half-plane (table mm) past reading ``c``'s tip along its heading (``tip``), else
    behind its stern, its edge ``back_mm`` into the reading: where a longer size set from its
    stern (from its tip) adds its length, not the slivers its wider base adds at the reading's
    sides."""
    p = c.fit.pose
    u = np.asarray(p.direction)
    n = np.array([-u[1], u[0]])
    end = (np.asarray(p.tip_mm(scene.pieces.dims(c.size).footprint_length_mm)) - u * back_mm
           if tip else np.asarray(p.stern_mm) + u * back_mm)
    out = u * far_mm if tip else -u * far_mm
    return shapely.Polygon([end + n * far_mm, end - n * far_mm, end - n * far_mm + out,
                            end + n * far_mm + out])
