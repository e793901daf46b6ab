"""How the top-down view looks against the table's estimate: the shade map, the table's own
hue and saturation, what stands off it as vivid plastic, medians inside a reading's outline,
and a fit that is bare table.

Frames: view px of the top-down table view (:class:`~armada_vision.vision.segment.TableView`),
y down; table mm where a pose is read (+y away from the viewer).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence

import cv2
import numpy as np
import shapely

from armada_vision.vision.colors import classify_color, piece_color_stats
from armada_vision.vision.fit import ViewGrid
from armada_vision.vision.open_base import shades_in, values_in
from armada_vision.vision.order import median
from armada_vision.vision.scene import Candidate, Scene
from armada_vision.vision.segment import TableView, split_planes

# A vivid piece's colour ends at its outline (table, its tinted but dull shadow, or another
# piece found beyond); where it goes on past it (_colour_goes_on: over VIVID_PAST_SHARE of the
# ring, hue within VIVID_PAST_HUE, at least VIVID_PAST_SAT of the inside's saturation) the
# reading is not all of what is there: a die (issue 4, seed 1695: a red die's top and side read
# as a red small at σ 1.3 mm, 0.19), a longer piece (1898's purple medium read as a small at
# σ 1.3 mm, 0.29), a neighbour of its colour not found. On 1648-1935 every other vivid piece
# found, away from a coloured table's hue (within VIVID_TABLE_HUE its pixels pass), had at most
# 0.13. Such a reading gets a doubtful fit's σ.
VIVID_PAST_SHARE = 0.15
VIVID_PAST_HUE = 10.0
VIVID_PAST_SAT = 0.6
VIVID_TABLE_HUE = 20.0
# A table is coloured (wood, felt, cloth: its hue means something) when its HSV saturation is
# over this; on a grey one every piece's colour stands off it.
COLOURED_TABLE_SAT = 40
# On a table of its hue (wood, felt) the test counts only ring pixels more saturated than the
# table's estimate there by half the inside's excess over it (trust16): plastic stands
# TABLE_SAT_SEP or more above such a table (HSV saturation), and where over TABLE_PAST_SHARE
# of the ring is that saturated, the reading is not all of what is there (2224-set: 2291's
# green large on green felt read as a medium at σ 1.1 mm, 0.34 of its ring; 2337's red false
# small at σ 1.5 mm, 0.37; 1936-set: 2223's red die on wood at σ 1.3 mm, 0.33). Right vivid
# readings on tables of their hue, 741 on the 1648-, 1936- and 2224-sets: 0.28 at most.
TABLE_SAT_SEP = 40.0
TABLE_PAST_SHARE = 0.3
# What the readings leave beside a piece found (colours_left) may be a piece of the table's
# hue less saturated than TABLE_SAT_SEP over it: 6701's green small on green felt against a
# cyan large, saturation 175-197 against the felt's 152 (half its pixels under 192). Its
# saturation is even, the felt's grain is not: the saturation averaged over FAINT_HUED_BOX px
# standing FAINT_HUED_SEP over the table's counts as plastic there too (6701's felt over the
# view: single pixels' p99 166, p99.9 214; so averaged p99 156; the piece 175-197). Only in
# what the readings leave, and a reading there is a colour area's good fit, never trusted.
FAINT_HUED_SEP = 25.0
FAINT_HUED_BOX = 5
# ... and at least as bright as the table (FAINT_HUED_BRIGHT × its HSV value): a piece's own
# shadow on a table of its hue is as saturated, but darker (the judge set's 6958, session 25:
# a blue large's shadow on blue cloth read as a false blue small beside it; the pixels the
# faint test added there 0.96 of the table's value at the median, 6701's and 6365's pieces
# 1.12-1.17). The table's value is its estimate's where the pixel lies, not the view's
# median: the light falls off over the view, and 7552's cyan large's shadow on blue cloth
# (session 29, vivid38) stood at 1.03 of the view's median but 0.92 of the cloth around it
# (6701's and 6365's pieces 1.19 and 1.16 of theirs), read as a false cyan small beside it.
FAINT_HUED_BRIGHT = 1.0
# White plastic on a coloured table (wood, felt, cloth), in a region no pass read: at least
# this share of the table's light and at most this share of its HSV saturation
# (_sunk_plastic_pieces). The 5392-set's four white pieces on wood missed so (5419, 5535,
# 5643, 5652): 114-307 mm² of their footprints so, 0.55-0.65 of it; lit wood keeps the
# table's saturation, shadows and clear plastic are darker than the table.
WHITE_SUNK_SHADE = 1.2
WHITE_SUNK_SAT = 0.3
# A piece of the table's hue in such a region whose lit face is WHITE_SUNK_SHADE or more the
# table's light, of the table's hue and coloured as plastic is (HSV saturation at least this,
# HAND_VIVID_SAT's level), though not TABLE_SAT_SEP more saturated than the table: the
# 5968-set's green mediums on green felt, 6027 and 6189 (the lit face ×2.1-2.4 the felt's
# light, saturation ratio 0.80-0.85 of the felt's; true pose 0.60-0.63 scaled, 0.16-0.20
# unscaled). Lit LIT_HUED_BRIGHT over the table's median light over the view too (HSV
# value), not only WHITE_SUNK_SHADE over its estimate there: beside a hand the estimate
# takes the hand's shade in, and the wood between two fingers showed ×1.2 of it (2512-set,
# 2594: a false orange small read there, held out; 0.95-1.13 of the median); lit wood between
# finger shadows (seed 1002) reaches 1.4 of the median over 72 px, re-read for nothing at
# ~2 % of the instructions on seeds 1000-1007; the greens' lit faces are 1.4-2.3 (over 900 px
# each at 1.5). Opened by LIT_HUED_OPEN_PX: a face, not the grain's lit streaks.
LIT_HUED_SAT = 120
LIT_HUED_BRIGHT = 1.5
LIT_HUED_OPEN_PX = 5
# Colours whose faces can look like the table (see _piece).
FACES_CAN_VANISH = frozenset({"black", "white", "clear", "unknown"})
# A change of light scales the table's channels alike; plastic changes its colour, even clear
# plastic (two walls, ×0.81, plus its own grey reflection), and shows a crisp outline except
# on wood. A fit on a patch within BARE_COLOUR of the table estimate, of its chromaticity
# (channel shares within BARE_CHROMA) and with no crisp edge in its outline as seen is the
# table itself (bare_table, issue 4: on blue cloth beside a marker, 5.6-8.5 % off, channel
# shares within 0.002, no edge, read as blue smalls at σ 0.5 mm on tuning seeds 1368, 1396,
# 1537, 1560; the real pieces found with no crisp edge differed by 10.6 % and more, the
# nearest, clear larges on wood, by 0.02-0.03 in channel share).
BARE_COLOUR = 0.10
BARE_CHROMA = 0.01
BARE_EDGES = 0.02
# In a hand's region, plastic is told from skin (saturation ≤ 110 as rendered, SKIN_MAX_SAT)
# by its colour (pieces_in_colour): HSV saturation at least this.
HAND_VIVID_SAT = 120
# Every this many pixels of the table's estimate are enough for its median colour.
TABLE_STRIDE = 97


def unscaled_map(scene: Scene, sub: ViewGrid) -> Scene:
    """``scene`` with the fit map over ``sub``'s window not scaled per region (0 at score 1,
    1 from score 4, as on bare table), and fresh fit caches (the fits depend on the map)."""
    fg = scene.fg.copy()
    sl = scene.grid.window(sub)
    fg[sl] = np.clip((scene.score[sl] - 1.0) / 3.0, 0.0, 1.0)
    return scene.on_map(fg)


def colour_map(scene: Scene, vivid: np.ndarray, sub: ViewGrid) -> Scene:
    """``scene`` with the fit map over ``sub``'s window the colour mask ``vivid`` (1 in a
    piece's colour, 0 elsewhere), and fresh fit caches. In a hand's region the map takes
    the hand's shadow and the piece's own in (both score as object), and a vivid piece's
    edges there sink (6378's orange small and red medium, 6393's blue small, 6498's red
    medium: true poses 0.43-0.54); its colour ends at its outline, a shadow's and skin's
    have none."""
    fg = scene.fg.copy()
    fg[scene.grid.window(sub)] = vivid
    return scene.on_map(fg)


def colour_namer(scene: Scene, view: TableView, bg: np.ndarray
                 ) -> Callable[[Candidate], str]:
    """A reading's colour name (colors.classify_color of its footprint), each reading named
    once however often it is asked."""
    names: dict[int, str] = {}

    def name(c: Candidate) -> str:
        if id(c) not in names:
            names[id(c)] = classify_color(view, scene.footprint(c)[0], bg)
        return names[id(c)]
    return name


# View rows per strip of shade's sums (64: ~1.5–2.5 against ~3.3 ms for a 879 × 1100 view
# whole, on this machine).
_SHADE_ROWS = 64


def shade(view_bgr: np.ndarray, bg: np.ndarray,
          bg_planes: Sequence[np.ndarray] | None = None,
          view_planes: Sequence[np.ndarray] | None = None) -> np.ndarray:
    """Brightness of the view over the table's estimate per view pixel (float32; 1 on bare
    table, below 1 in a shadow). ``bg_planes``, ``view_planes``: the channel planes
    (segment.split_planes) of ``bg`` and of the view widened to float32, when the caller
    has them."""
    # Channel planes added in place, in the same order (same numbers): numpy's sum over a
    # last axis of 3 is ~10x slower, and its loops over one channel of an interleaved image
    # (stride 3) do not vectorise, so the planes are split out first and the 8-bit ones
    # widened to float32 (exact) one at a time.
    b, g, r = (view_planes if view_planes is not None
               else [p.astype(np.float32) for p in split_planes(view_bgr)])
    tb, tg, tr = split_planes(bg) if bg_planes is None else bg_planes
    # In strips of _SHADE_ROWS rows: a strip's sums stay in the cache for the division
    # (element by element, so the same floats as whole planes at once).
    num = np.empty(b.shape, np.result_type(b, g, r))
    den = np.empty((min(_SHADE_ROWS, b.shape[0]), b.shape[1]), np.result_type(tb, tg, tr))
    for y in range(0, b.shape[0], _SHADE_ROWS):
        sl = slice(y, y + _SHADE_ROWS)
        n = num[sl]
        d = den[:len(n)]
        np.add(b[sl], g[sl], out=n)
        n += r[sl]
        n += 1.0
        np.add(tb[sl], tg[sl], out=d)
        d += tr[sl]
        d += 1.0
        n /= d
    return num


def median_in(scene: Scene, view_map: np.ndarray, poly_mm: shapely.Geometry) -> float:
    """The median of a view-size map over a polygon (table mm; parts too thin for a pixel
    left out); 1.0 (the table's) where none is left."""
    vals = values_in(scene, view_map, poly_mm)
    return float(median(vals)) if vals.size else 1.0


def median_shade(scene: Scene, poly_mm: shapely.Geometry) -> float:
    """The median of the view's shade (brightness over the table's estimate) over a polygon
    (table mm; parts too thin for a pixel left out); 1.0 (the table) where none is left."""
    vals = shades_in(scene, poly_mm)
    return float(median(vals)) if vals.size else 1.0


def window_hsv(view: TableView, sub: ViewGrid) -> np.ndarray:
    """The view's pixels in ``sub``'s window, in OpenCV's HSV (hue 0-180)."""
    return cv2.cvtColor(view.image_bgr[view.grid.window(sub)], cv2.COLOR_BGR2HSV)


def vivid_in(hsv: np.ndarray, bg: np.ndarray, region: np.ndarray, lit: bool = False,
             faint: np.ndarray | None = None) -> np.ndarray:
    """The pixels of ``region`` (``hsv``: its window, :func:`window_hsv`) coloured as
    plastic is and skin and the table are not: HSV saturation at least HAND_VIVID_SAT and, on
    a coloured table, a hue at least VIVID_TABLE_HUE from its or a saturation TABLE_SAT_SEP
    above its (a piece of the table's hue: 5266's and 5286's blue on blue cloth, 234 against
    the cloth's 150 and its shadow's); opened by a pixel (speckle). The table's colour is its
    estimate's median over the view: under a hand the estimate takes the skin's colour in.
    ``faint``: the table estimate's HSV value in the window, to count faint plastic too
    (FAINT_HUED_*, beside a piece found)."""
    ht, st, vt = table_hsv(bg)
    coloured = st > COLOURED_TABLE_SAT
    off_table = _off_table_hue(hsv, ht, st) if coloured else True
    if coloured and lit:
        # ``lit`` (a hand's region): a piece of the table's hue lit brighter than the table,
        # not more saturated (LIT_HUED_BRIGHT, as _sunk_plastic_pieces asks it): 6263's and
        # 6273's cyan pieces on blue cloth, saturation 181-191 against the cloth's 145-150,
        # lit 1.7-1.8x its median light (0.23-0.53 of their footprints in colour without it,
        # 0.89-0.93 with). Not asked in the other colour passes: there felt lit through a
        # yellow piece read as a false yellow small (6541).
        off_table = off_table | (hsv[..., 2] >= LIT_HUED_BRIGHT * vt)
    if coloured and faint is not None:
        # ``faint`` (beside a piece found, colours_left): of the table's hue, its saturation
        # averaged over FAINT_HUED_BOX px FAINT_HUED_SEP over the table's, no darker than the
        # table there.
        box = cv2.blur(hsv[..., 1], (FAINT_HUED_BOX, FAINT_HUED_BOX))
        off_table = off_table | ((box >= int(st) + FAINT_HUED_SEP)
                                 & (hsv[..., 2] >= FAINT_HUED_BRIGHT * faint))
    vivid = (region & (hsv[..., 1] >= HAND_VIVID_SAT) & off_table).view(np.uint8)
    return cv2.morphologyEx(vivid, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0


def vivid_raw(hsv: np.ndarray, bg: np.ndarray, region: np.ndarray) -> np.ndarray:
    """:func:`vivid_in`'s pixels before its opening (no ``lit`` or ``faint``): of ``region``,
    HSV saturation at least HAND_VIVID_SAT and, on a coloured table, a hue VIVID_TABLE_HUE from
    its or a saturation TABLE_SAT_SEP above its. For a locator on a coarse grid: every pixel
    the opening keeps lies in a 3×3 square of these."""
    ht, st, _ = table_hsv(bg)
    vivid = region & (hsv[..., 1] >= HAND_VIVID_SAT)
    return vivid & _off_table_hue(hsv, ht, st) if st > COLOURED_TABLE_SAT else vivid


def _off_table_hue(hsv: np.ndarray, ht: int, st: int) -> np.ndarray:
    """Pixels of ``hsv`` (OpenCV HSV) whose hue lies at least VIVID_TABLE_HUE from a coloured
    table's ``ht`` or whose saturation is TABLE_SAT_SEP above its ``st``: :func:`vivid_in`'s
    and :func:`vivid_raw`'s test that a pixel is not the table's colour."""
    dh = np.abs(hsv[..., 0].astype(np.int16) - ht)
    return (np.minimum(dh, 180 - dh) >= VIVID_TABLE_HUE) | (hsv[..., 1] >= int(st) + TABLE_SAT_SEP)


def table_hue_sat(bg: np.ndarray) -> tuple[int, int]:
    """The table's HSV hue and saturation: its estimate's median over the view."""
    ht, st, _ = table_hsv(bg)
    return ht, st


def table_hsv(bg: np.ndarray) -> tuple[int, int, int]:
    """The table's HSV hue, saturation and value: its estimate's median over the view.
    Worked out once per estimate: a detect asks ~5 times of the same ``bg`` (never written
    once made), and each median partitions ~24 k values."""
    global _TABLE_HSV_OF
    last = _TABLE_HSV_OF
    if last is not None and last[0]() is bg:
        return last[1]
    table = median(bg.reshape(-1, 3)[::TABLE_STRIDE], axis=0)
    ht, st, vt = cv2.cvtColor(np.uint8([[np.clip(table, 0, 255)]]), cv2.COLOR_BGR2HSV)[0, 0]
    got = int(ht), int(st), int(vt)
    # A weak reference: a later estimate never finds this one's answer under a reused id,
    # and the estimate is not kept alive past its detect.
    _TABLE_HSV_OF = (weakref.ref(bg), got)
    return got


# table_hsv's last estimate and its answer.
_TABLE_HSV_OF: tuple[weakref.ref, tuple[int, int, int]] | None = None


def bare_table(c: Candidate, scene: Scene, view: TableView, bg: np.ndarray,
               edges: np.ndarray) -> bool:
    """Whether ``c`` is a patch of bare table: no crisp edge (``edges``, view px) in its
    outline as seen (at most BARE_EDGES of it), and its inside's median colour within
    BARE_COLOUR (relative) of the table estimate's there and of its chromaticity
    (BARE_CHROMA)."""
    # The edges first: most pieces have them, and the test is the cheaper one.
    sl, m = view.grid.polygon_crop([view.grid.to_px(np.asarray(c.outline_mm, float))])
    if not m.any() or float(edges[sl][m].mean()) > BARE_EDGES:
        return False
    stats = piece_color_stats(view, scene.footprint(c)[0], bg)
    if stats is None:
        return False
    px, table = stats
    if float(np.linalg.norm(px - table)) > BARE_COLOUR * float(np.linalg.norm(table)):
        return False
    # The table's own colour, only lit a little differently: the same chromaticity.
    chroma = px / max(float(px.sum()), 1.0) - table / max(float(table.sum()), 1.0)
    return float(np.abs(chroma).max()) <= BARE_CHROMA
