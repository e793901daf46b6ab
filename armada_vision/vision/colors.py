"""Name a piece's colour: one of the ten Looney colours, or ``unknown``.

Judged from the median colour inside the piece's footprint against the table's own colour
under it: hue for the coloured plastics (strongly saturated whatever the table), brightness
for black and white, and "looks like a paler, dimmer table" for clear plastic.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
import shapely

from armada_vision.vision.order import median, percentile, percentiles
from armada_vision.vision.pixels import channel_max, channel_min, masked
from armada_vision.vision.segment import TableView

# Value (0–255, largest channel) of a white piece's lit faces at least; black's stay below.
WHITE_MIN_V = 152.0
# A piece known opaque (its dark open base seen) whose brightest faces are at least
# OPAQUE_WHITE_LIT of the table's value and its median at least OPAQUE_WHITE_V of it is white,
# however dark the table: black plastic's faces and median lie under it.
OPAQUE_WHITE_LIT = 1.0
OPAQUE_WHITE_V = 0.85
# Colour is read well inside the piece (the polygon shrunk to this share), away from its edges.
INNER_SHRINK = 0.55
# Hue (OpenCV 0-180) within which a piece too dull for plastic keeps the table's: hue is
# unsteady at low saturation (the light's own grey reflections on a clear piece's faces shift
# it; seed 1085's clear small on blue cloth: saturation 54, hue 8 off the cloth's), and no
# plastic is that dull (plastic read doubtfully had ≥ 118 on seeds 1000-1071, see
# hands.is_skin), so such a colour near the table's hue is clear rather than unknown.
DULL_CLEAR_HUE = 15.0
# A pixel this bright in any channel may be clipped: its hue is the sensor's, not the plastic's.
CLIPPED_V = 250
COLORS = ("red", "yellow", "green", "blue", "black", "orange", "cyan", "purple", "white",
          "clear")



def piece_color_stats(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray] | None:
    """Median BGR (0–255) inside the piece and the table's BGR there, or None if unseen."""
    return _color_stats(view, *view.grid.inner_crop(poly_mm, INNER_SHRINK), bg_bgr)


def _color_stats(view: TableView, sl: tuple[slice, slice], m: np.ndarray, bg_bgr: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    if m.sum() < 4:
        return None
    px = median(masked(view.image_bgr, sl, m).astype(np.float32), axis=0)
    return px, median(masked(bg_bgr, sl, m), axis=0).astype(np.float32)


# classify_color's answers for the last (view, table colours) it was asked about, by footprint
# (its WKB: the very coordinates) and ``opaque``. A detect names the same reading again and
# again (each rule's colour_namer, then _piece: 38 of 110 asks on the cost bench's 8 scenes
# were repeats, ~0.4 ms each), and the answer is a function of the view's pixels, the table
# colours, the footprint and ``opaque`` alone (neither array is written during a detect).
# The view and colours are kept with their answers and compared by identity, so a new detect
# (or another thread's) never reads another's answers; only the last pair is kept alive.
_NAMED: tuple[TableView, np.ndarray, dict[tuple[bytes, bool], str]] | None = None


def classify_color(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray,
                   opaque: bool = False) -> str:
    """Colour name of the piece whose footprint (or outline) is ``poly_mm`` (table mm);
    ``opaque``: known not to be clear plastic (see :func:`name_color`). Remembered for the
    last view and table colours asked about (_NAMED)."""
    global _NAMED
    memo = _NAMED
    if memo is None or memo[0] is not view or memo[1] is not bg_bgr:
        memo = _NAMED = (view, bg_bgr, {})
    key = (poly_mm.wkb, bool(opaque))
    got = memo[2].get(key)
    if got is None:
        got = memo[2][key] = _classify_color(view, poly_mm, bg_bgr, opaque)
    return got


def _classify_color(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray,
                    opaque: bool) -> str:
    """:func:`classify_color` worked out."""
    sl, m = view.grid.inner_crop(poly_mm, INNER_SHRINK)
    stats = _color_stats(view, sl, m, bg_bgr)
    if stats is None:
        return "unknown"
    px, bg = stats
    pixels = masked(view.image_bgr, sl, m)  # gathered once for the two reads below
    # The brightest faces' value (HSV V = the largest channel): white plastic's lit face is
    # bright whatever the table, black plastic's never (a median may be the open base's
    # shade or a glossy face as grey as a dark cloth).
    bright = float(percentile(channel_max(pixels), 90))
    return name_color(px, bg, bright, lit_face_bgr(pixels), opaque)


# A white piece seen by its open base, the base turned to a tilted camera (issue 4, session
# 58, recallwhite68): its dark hollow fills the footprint's middle, so the inner crop
# (INNER_SHRINK) holds the hollow alone and names it black (the 13168-set's 13286, a white
# large beside a purple one at 1920x1080: its brightest tenth there 142 over a table of 191;
# the 16336-set's 16532, a white small, 66 over 209). Nearly the whole footprint
# (BASE_WHITE_SHRINK of it) takes in the white rim and faces round the hollow: 186 and 197,
# over WHITE_MIN_V and 0.85 of the table's value (162, 178); every pixel of a footprint read
# at the piece shows the piece (the camera looks down on it), and black plastic's lit faces
# stay at 141 or under (name_color). 0.8 keeps 16532 at only 181 (3 over its bar).
BASE_WHITE_SHRINK = 0.9


def base_rim_white(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray,
                   shrink: float = BASE_WHITE_SHRINK) -> bool:
    """Whether the piece read from its open base whose footprint (seen part) is ``poly_mm``
    (table mm), named black by its dark hollow, has faces as bright as white plastic round
    it: the brightest tenth (value) of ``shrink`` of the footprint at least WHITE_MIN_V and
    0.85 of the table's value (BASE_WHITE_SHRINK)."""
    got = _brightest_of_white(view, poly_mm, bg_bgr, shrink)
    return got is not None and got[0] >= 1.0


def _brightest_of_white(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray,
                        shrink: float = BASE_WHITE_SHRINK) -> tuple[float, float] | None:
    """The brightest tenth (value) of ``shrink`` of footprint ``poly_mm`` (table mm) over
    white plastic's bar, max(WHITE_MIN_V, 0.85 of the table's value), and the table's value;
    None when unseen."""
    sl, m = view.grid.inner_crop(poly_mm, shrink)
    if (stats := _color_stats(view, sl, m, bg_bgr)) is None:
        return None
    vt = _hsv(stats[1])[2]
    bright = float(percentile(channel_max(masked(view.image_bgr, sl, m)), 90))
    return bright / max(WHITE_MIN_V, 0.85 * vt), vt


# A black reading lying across a white piece's open base (issue 4, session 61, the lead): the
# judge set 17488-17775's 17684, a white medium on the laminate at 1920x1080, 22-35°, its base
# turned to the camera against a red medium's stern, read as a black small across the base's
# dark hollow at σ 0.92 mm (its tip 29 mm off). Its footprint takes in the base's white rim:
# its brightest tenth 0.758 of BASE_WHITE_SHRINK's bar; and the base's white walls lie round
# it: 0.671 of the ring TABLE_RING_MM off it lit over HOLLOW_BLACK_LIT × the table's value.
# Either alone is no tell: of 299 readings named black on 144 scenes each of the 16624, 14896
# and 13456 sets (285 right), right trusted ones reach 0.860 (16695) on the first and 0.616
# (15029) on the second, but none both: the two wrong readings there (13515, 14997, white and
# black larges read as smalls, in doubt already) lie at 0.778 / 0.776 and 0.796 / 0.649, the
# one right reading past both bounds (14953, 0.752 / 0.864) is in doubt already.
HOLLOW_BLACK_BRIGHT = 0.75
HOLLOW_BLACK_RING_LIT = 0.6
HOLLOW_BLACK_LIT = 1.05


def white_walls_round(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray) -> bool:
    """Whether a reading named black whose footprint (seen part) is ``poly_mm`` (table mm)
    may be a white piece's open base read across its hollow: its brightest tenth at least
    HOLLOW_BLACK_BRIGHT of white plastic's bar and HOLLOW_BLACK_RING_LIT of its table ring lit
    over HOLLOW_BLACK_LIT × the table's value."""
    got = _brightest_of_white(view, poly_mm, bg_bgr)
    if got is None or got[0] < HOLLOW_BLACK_BRIGHT:
        return False
    if (rp := _ring_and_piece(view, poly_mm)) is None:
        return False
    value, ring, _ = rp
    lit = value[ring] > HOLLOW_BLACK_LIT * got[1]
    return bool(lit.size) and float(lit.mean()) >= HOLLOW_BLACK_RING_LIT


# Coloured plastic's saturation (HSV, 0-255) at least: name_color's bound, under which a median
# is too dull for a vivid piece.
PLASTIC_SAT = 90.0


def vivid_share(view: TableView, poly_mm: shapely.Polygon,
                shrink: float = BASE_WHITE_SHRINK) -> float:
    """The share of ``shrink`` of the footprint ``poly_mm`` (table mm) whose pixels are as
    saturated as coloured plastic (HSV saturation PLASTIC_SAT or more); 0 when unseen."""
    sl, m = view.grid.inner_crop(poly_mm, shrink)
    if not m.any():
        return 0.0
    px = masked(view.image_bgr, sl, m).astype(np.float32)
    hi, lo = channel_max(px), channel_min(px)
    # OpenCV's S = 255 (V - min) / V, V the largest channel.
    return float(np.mean(255.0 * (hi - lo) >= PLASTIC_SAT * np.maximum(hi, 1.0)))


# A clear piece is a dimmer table: each of its faces passes about the same share of the
# table's light, so its darkest tenth (value) stays over this share of its brightest tenth
# (the clear pieces of the desaturated pass on seeds 1144-1359: 0.58-0.95). An opaque piece's
# face turned from the light, or a shadow inside the reading, is darker (seed 1223's white
# small read as a medium there, named clear: 0.34).
CLEAR_FACE_SPREAD = 0.45


def looks_opaque(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray,
                 spread: float = CLEAR_FACE_SPREAD) -> bool:
    """Whether the piece whose footprint is ``poly_mm`` (table mm) is black or white plastic
    rather than clear: named so (:func:`classify_color`), or a face in it darker than a clear
    piece's faces can be against its brightest (``spread``, CLEAR_FACE_SPREAD by default)."""
    if classify_color(view, poly_mm, bg_bgr) in ("black", "white"):
        return True
    sl, m = view.grid.inner_crop(poly_mm, INNER_SHRINK)
    if m.sum() < 4:
        return False
    v = channel_max(masked(view.image_bgr, sl, m))
    lo, hi = percentiles(v, (10, 90))
    return bool(lo < spread * hi)


# A piece named clear whose lit faces are as bright as white plastic's (WHITE_MIN_V, and
# WHITE_TABLE_V of the table's value) while its darkest tenth lies under CLEAR_FACE_SPREAD of
# them is white plastic with a face turned from the light (issue 4, session 34, colour44): a
# clear piece passes about the same share of the light through every face (0.58-0.95), so it
# has no face that dark beside one that bright. Named clear by its median, a dimmer table
# (seed 9169, the 9136-set: a white medium on orange cloth, median 107 over 195, faces 219
# and 67; 8305, the 8272-set: a white small on laminate, median 144 over 170, faces 172, 57).
# That dark tenth must also lie under WHITE_DARK_FACE of the table's value: a clear piece's
# walls keep the table at 0.55 of it or more (detect.CLEAR_LIT_INSIDE), and a clear piece lit by
# its reflection and read long takes the table in as its dark tenth (the 7120-set's 7384, a
# clear small read as a medium on blue cloth: faces 206 and 82 over 111, 0.74; 9169 and 8305:
# 0.34).
WHITE_TABLE_V = 0.85
WHITE_DARK_FACE = 0.5


def shaded_white(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray) -> bool:
    """Whether the piece whose footprint is ``poly_mm`` (table mm), named clear, shows a face
    as bright as white plastic's beside one darker than a clear piece's can be
    (WHITE_TABLE_V, CLEAR_FACE_SPREAD, WHITE_DARK_FACE)."""
    sl, m = view.grid.inner_crop(poly_mm, INNER_SHRINK)
    if m.sum() < 4:
        return False
    v = channel_max(masked(view.image_bgr, sl, m))
    lo, hi = percentiles(v, (10, 90))
    table_v = float(median(masked(bg_bgr, sl, m), axis=0).max())
    return bool(hi >= max(WHITE_MIN_V, WHITE_TABLE_V * table_v)
                and lo < min(CLEAR_FACE_SPREAD * hi, WHITE_DARK_FACE * table_v))


# On a coloured table (saturation over 40) a grey piece is black or white only: clear plastic
# keeps the table's tint and is named before (name_color's clear test). There a piece named
# black whose lit faces reach COLOURED_WHITE_MIN_V (and 0.85 of the table's value) is white lit
# dimly (issue 4, session 35, colour45): white mediums on wood and a large on green felt with
# lit faces at 151, just under WHITE_MIN_V (the 8272-set's 8475, 8560-set's 8770,
# 8848-set's 8944), while black plastic's lit faces stay at 141 or under (name_color's grey
# branch; the 9136-set's black pieces at their true footprints: 140 at most). It must show a
# face darker than clear plastic's can be (CLEAR_FACE_SPREAD: 8475, 8770, 8944: 48-51 beside
# 151): a clear piece lit brighter than the cloth is pale and grey too (the 5104-set's 5330, a
# clear small on blue cloth, faces 146-149 over 97, named black, was named white).
COLOURED_WHITE_MIN_V = 146.0
# Clear plastic passes about 0.75 of the table's light through its two walls and adds its own
# faces' reflection: on a grey table its median keeps CLEAR_MIN_V_SHARE of the table's value
# or more (the 9136-set's clear pieces at their true footprints: 0.56 and over), while a glossy
# black face seen at a grazing angle reaches 0.46 of it (issue 4, session 35, colour45: the
# 8272-set's 8363 small, the 8848-set's 9118 medium, the 9136-set's 9363 small, named clear by
# name_color's 0.45 floor).
CLEAR_MIN_V_SHARE = 0.5
# A piece too dull for plastic (saturation under 90, name_color) but at least DULL_PLASTIC_SAT,
# its hue at least DULL_PLASTIC_HUE off the table's (no dimmed table: DULL_CLEAR_HUE), is
# plastic whose walls let the cloth's light of another hue in: named by its lit faces' hue
# (issue 4, session 35, colour45: the 9136-set's purple larges on wood and green felt, 9284,
# 9386, 9398, saturation 77-88, hue 50-83 off the cloth's, named unknown).
DULL_PLASTIC_SAT = 70.0
DULL_PLASTIC_HUE = 30.0


def _grey_stats(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The pixels well inside ``poly_mm`` (N×3 BGR), their median and the table's median
    under them (BGR), or None if unseen."""
    sl, m = view.grid.inner_crop(poly_mm, INNER_SHRINK)
    if (stats := _color_stats(view, sl, m, bg_bgr)) is None:
        return None
    return (masked(view.image_bgr, sl, m), *stats)


def dim_white(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray) -> bool:
    """Whether the piece whose footprint is ``poly_mm`` (table mm), named black, is white
    plastic lit dimly on a coloured table (COLOURED_WHITE_MIN_V), a face in it darker than
    clear plastic's can be (CLEAR_FACE_SPREAD)."""
    if (stats := _grey_stats(view, poly_mm, bg_bgr)) is None:
        return False
    pixels, _px, bg = stats
    _ht, st, vt = _hsv(bg)
    v = channel_max(pixels)
    dark, bright = (float(x) for x in percentiles(v, (10, 90)))
    return (st > 40 and bright >= max(COLOURED_WHITE_MIN_V, 0.85 * vt)
            and dark < CLEAR_FACE_SPREAD * bright)


def too_dark_for_clear(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray) -> bool:
    """Whether the piece whose footprint is ``poly_mm`` (table mm), named clear on a grey
    table, is darker than clear plastic can be there (CLEAR_MIN_V_SHARE): black plastic."""
    if (stats := _grey_stats(view, poly_mm, bg_bgr)) is None:
        return False
    _pixels, px, bg = stats
    _h, _s, v = _hsv(px)
    _ht, st, vt = _hsv(bg)
    return st <= 40 and v < CLEAR_MIN_V_SHARE * vt


# A reading named clear on a grey table may be black plastic lit grey: a glossy black face
# turned to the light mirrors it as a grey as bright as ×0.5-0.9 the table (issue 4, session 42,
# black52: 19 black pieces on laminate named clear over the thirteen tuning and two check sets,
# every one on laminate). Its median does not tell it from clear plastic, and the table estimate
# under it took the dark piece in (×0.53-0.85 the table round it), so CLEAR_MIN_V_SHARE against
# that estimate misses it. But black plastic keeps a face turned from the light near black,
# while clear plastic only dims the table: over the footprint (inset CLEAR_DARKEST_INSET_MM off
# its blurred outline, other readings' footprints left out) the CLEAR_DARKEST_Q-th percentile of
# the value of the clear pieces named clear there stays at 0.54-0.60 of the table round it (the
# TABLE_RING_Q-th percentile of a ring TABLE_RING_MM off the footprint: the table itself, not
# the estimate), the black ones named clear 0.13-0.55 (15 of 19 under CLEAR_DARKEST_SHARE).
# Its lit faces stay under WHITE_MIN_V (those black pieces' brightest tenth 78-148): a white
# piece named clear, its open base or shaded face as dark, is left as it was (the 10576-set's
# 10683, a white small read as a medium: lit faces at 180, darkest 0.44).
CLEAR_DARKEST_SHARE = 0.45
CLEAR_DARKEST_Q = 5.0
CLEAR_DARKEST_INSET_MM = 1.0
TABLE_RING_MM = (5.0, 10.0)
TABLE_RING_Q = 75.0


def value_share_of_ring(view: TableView, poly_mm: shapely.Polygon) -> float | None:
    """The median value (channel max) over the footprint ``poly_mm`` (table mm; inset
    CLEAR_DARKEST_INSET_MM) as a share of the table ring round it (the TABLE_RING_Q-th
    percentile of a ring TABLE_RING_MM off it): the image's own table, not the estimate;
    None when either is unseen."""
    if (got := _ring_and_piece(view, poly_mm)) is None:
        return None
    value, ring, piece = got
    return float(median(value[piece])) / max(float(percentile(value[ring], TABLE_RING_Q)), 1.0)


def darker_than_clear(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray,
                      others: Sequence[shapely.Polygon] = (),
                      bound: float = CLEAR_DARKEST_SHARE) -> bool:
    """Whether the reading whose footprint is ``poly_mm`` (table mm), named clear on a grey
    table, has a part darker than clear plastic lets the table round it through (its darkest
    part under ``bound`` of the table ring: CLEAR_DARKEST_SHARE by default): black plastic lit
    grey. ``others``: the other readings' footprints, left out of both the piece and the table
    ring."""
    if (stats := _grey_stats(view, poly_mm, bg_bgr)) is None or _hsv(stats[2])[1] > 40:
        return False
    if float(percentile(channel_max(stats[0]), 90)) >= WHITE_MIN_V:
        return False  # lit faces as bright as white plastic's: a white piece's dark base
    if (got := _ring_and_piece(view, poly_mm, others)) is None:
        return False
    value, ring, piece = got
    table_v = float(percentile(value[ring], TABLE_RING_Q))
    dark = float(percentile(value[piece], CLEAR_DARKEST_Q))
    return dark < bound * table_v


def _ring_and_piece(view: TableView, poly_mm: shapely.Polygon,
                    others: Sequence[shapely.Polygon] = ()
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The value (channel max) of the view's crop round footprint ``poly_mm`` (table mm), the
    table ring TABLE_RING_MM off it and the footprint inset CLEAR_DARKEST_INSET_MM (crop masks),
    both less ``others`` grown by that inset; None when the inset is no polygon, the crop is
    empty or either mask has under 16 pixels."""
    grid = view.grid
    outer = poly_mm.buffer(TABLE_RING_MM[1])
    inner = poly_mm.buffer(TABLE_RING_MM[0])
    inset = poly_mm.buffer(-CLEAR_DARKEST_INSET_MM)
    if inset.is_empty or inset.geom_type != "Polygon":
        return None
    sl, _ = grid.polygon_crop([grid.to_px(np.asarray(outer.exterior.coords))])
    shape = (sl[0].stop - sl[0].start, sl[1].stop - sl[1].start)
    if min(shape) <= 0:
        return None
    off = np.array([sl[1].start, sl[0].start], float)

    def mask(polys: Sequence[shapely.Polygon]) -> np.ndarray:
        m = np.zeros(shape, np.uint8)
        pts = [np.round(grid.to_px(np.asarray(q.exterior.coords)) - off).astype(np.int32)
               for q in polys if q.geom_type == "Polygon" and not q.is_empty]
        if pts:
            cv2.fillPoly(m, pts, 1)
        return m.astype(bool)

    near = [o.buffer(CLEAR_DARKEST_INSET_MM) for o in others if o.intersects(outer)]
    taken = mask(near)
    value = channel_max(view.image_bgr[sl])
    ring = mask([outer]) & ~mask([inner]) & ~taken
    piece = mask([inset]) & ~taken
    if ring.sum() < 16 or piece.sum() < 16:
        return None
    return value, ring, piece


def dull_plastic(view: TableView, poly_mm: shapely.Polygon, bg_bgr: np.ndarray) -> str | None:
    """The colour of the piece whose footprint is ``poly_mm`` (table mm), named unknown, when it
    is plastic dulled by the cloth's light through its walls (DULL_PLASTIC_SAT,
    DULL_PLASTIC_HUE): named by its lit faces' hue; None otherwise."""
    if (stats := _grey_stats(view, poly_mm, bg_bgr)) is None:
        return None
    pixels, px, bg = stats
    h, s, v = _hsv(px)
    ht, _st, _vt = _hsv(bg)
    dh = min(abs(h - ht), 180.0 - abs(h - ht))
    if not (DULL_PLASTIC_SAT <= s < PLASTIC_SAT and v >= 60 and dh >= DULL_PLASTIC_HUE):
        return None
    lit = lit_face_bgr(pixels)
    if lit is not None:
        h = _hsv(lit)[0]
    for bound, name in _HUE_BINS:
        if h < bound:
            return name
    return None


def lit_face_bgr(pixels: np.ndarray) -> np.ndarray | None:
    """Median BGR (0–255) of the brightest quarter of a piece's ``pixels`` (N×3 BGR), its
    lit faces, or None when too few are left.

    A face's colour is the plastic's diffuse colour plus the light's own reflection, grey
    but tinted by the camera's white balance, of about the same amount on every face. On a
    shaded face the diffuse part is small, so that tint shifts its hue (seeds 1173, 1334,
    1358: an orange large's shaded face, V ~55, at hue 17–20, yellow; its lit face at 12–13;
    1233, 1340: a blue's shaded face at 104–105, cyan, its lit face at 111). Clipped pixels
    and glints (bright, duller than the rest) are left out.
    """
    px = pixels.astype(np.float32)
    hi, lo = channel_max(px), channel_min(px)
    sat = (hi - lo) / np.maximum(hi, 1.0)
    keep = (hi >= percentile(hi, 75)) & (hi < CLIPPED_V) & (sat >= 0.75 * median(sat))
    if np.count_nonzero(keep) < 4:
        return None
    return median(px[keep], axis=0)


def _hsv(bgr: np.ndarray) -> tuple[float, float, float]:
    h, sat, v = cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)]]), cv2.COLOR_BGR2HSV)[0, 0]
    return float(h), float(sat), float(v)


def dimmed_table(piece_bgr: np.ndarray, table_bgr: np.ndarray) -> bool:
    """Whether a median colour (BGR 0–255, over the table's ``table_bgr``) is the table with
    light taken away: near its hue (within DULL_CLEAR_HUE), darker, keeping less of its colour
    (the clear test of :func:`name_color`, its hue window widened). Coloured plastic on a cloth
    of its hue adds colour through its walls or reflects light: more saturated or brighter
    (issue 4: on 1648-1935 every vivid piece within 15 of a coloured table's hue was one or the
    other; seed 1761's false blue small, a standing red piece's shadow on blue cloth, 10 off
    its hue, was ×0.63 as bright and 0.64 as saturated)."""
    h, s, v = _hsv(np.asarray(piece_bgr, float))
    ht, st, vt = _hsv(np.asarray(table_bgr, float))
    dh = min(abs(h - ht), 180.0 - abs(h - ht))
    return (st > 40 and dh < DULL_CLEAR_HUE and v < vt and s >= 0.2 * st
            and s * v <= 0.8 * st * vt and v >= 0.45 * vt)


# Hue bins (OpenCV scale 0–180) of the chromatic colours, as upper bounds in order.
_HUE_BINS = ((5.0, "red"), (17.0, "orange"), (45.0, "yellow"), (80.0, "green"),
             (107.0, "cyan"), (125.0, "blue"), (160.0, "purple"), (181.0, "red"))


def name_color(piece_bgr: np.ndarray, table_bgr: np.ndarray, bright_v: float | None = None,
               lit_bgr: np.ndarray | None = None, opaque: bool = False) -> str:
    """Colour name from the piece's median BGR and the table's BGR under it (0–255),
    ``bright_v``, the value (largest channel) of its brightest faces (default: the median's),
    and ``lit_bgr``, its lit faces' BGR (:func:`lit_face_bgr`), whose hue names a vivid
    piece (default: the median's). ``opaque``: the piece is known not to be clear (its open
    base seen as a dark hollow: clear walls let the table's light in), so a grey is white
    when its lit faces are bright, whatever its median, and black otherwise.

    Opaque black is dark and grey; white is a grey whose lit faces are bright; clear plastic
    looks like a dimmer, paler table; the others by hue.

    >>> name_color(np.array([30., 30., 200.]), np.array([150., 170., 190.]))
    'red'
    >>> name_color(np.array([20., 20., 22.]), np.array([150., 170., 190.]))
    'black'
    >>> name_color(np.array([120., 122., 124.]), np.array([200., 204., 206.]))
    'clear'
    >>> name_color(np.array([120., 122., 124.]), np.array([200., 204., 206.]), 190.0,
    ...            opaque=True)  # a white piece's faces round its dark open base
    'white'
    >>> name_color(np.array([102., 193., 92.]), np.array([38., 98., 34.]))  # on green felt
    'green'
    """
    h, s, v = _hsv(np.asarray(piece_bgr, float))
    ht, st, vt = _hsv(np.asarray(table_bgr, float))
    dh = min(abs(h - ht), 180.0 - abs(h - ht))
    # Clear plastic shows a coloured table through it: the table's hue, some but never more of
    # its colour (a green piece on green felt has more), not much darker (a black piece is).
    # Judged before black: on a dark cloth a clear piece is dark too.
    if (not opaque and st > 40 and dh < 8 and s >= 0.2 * st and s * v <= 0.8 * st * vt
            and v >= 0.45 * vt):
        return "clear"
    bright = v if bright_v is None else bright_v
    if (v < 60 and s < 90) or s < 40:
        if opaque:
            # On a dark table white faces lit like it stay under WHITE_MIN_V (issue 4,
            # white31: the 5968-set's 6149, a white large on laminate of value 145, its
            # faces 148): faces as bright as the table round a median near its value is no
            # black plastic (6038's black medium, read by its walls on a table of 134: faces
            # 122, median 119).
            lit = bright >= 0.85 * vt and (bright >= WHITE_MIN_V or (
                bright >= OPAQUE_WHITE_LIT * vt and v >= OPAQUE_WHITE_V * vt))
            return "white" if lit else "black"
        # Grey. Measured on 72 rendered scenes: black's brightest faces ≤ 141, white's ≥ 162.
        # Clear on a grey table is a dimmer table (its lit faces can be bright too); on a
        # coloured one it would have kept the table's tint (above), so a grey there is black
        # or white.
        # On a grey table a median far darker than it with faces this bright is a white
        # piece whose open base fills the footprint's middle (a clear piece is a dimmer table,
        # ≥ 0.45×; black's faces never reach the level).
        if bright >= max(WHITE_MIN_V, 0.85 * vt) and (st > 40 or v >= 0.85 * vt
                                                      or v < 0.45 * vt):
            return "white"
        return "clear" if st <= 40 and v >= 0.45 * vt else "black"
    if s < PLASTIC_SAT:
        # Too dull for plastic: clear plastic whose hue its reflections shifted, if it is
        # near the table's and keeps less of its colour (the test above, hue aside).
        if (not opaque and st > 40 and dh < DULL_CLEAR_HUE and s >= 0.2 * st
                and s * v <= 0.8 * st * vt and v >= 0.45 * vt):
            return "clear"
        return "unknown"
    if lit_bgr is not None:
        h = _hsv(np.asarray(lit_bgr, float))[0]
    for bound, name in _HUE_BINS:
        if h < bound:
            return name
    return "unknown"
