"""Printable calibration mats and ChArUco boards as true-scale vector PDF.

Two ways to print a table layout's markers:
- ``marker_sheets``: markers to cut out, packed on a4 / a3 / letter pages, each labelled with its
  id and the table-frame centre and rotation it belongs at;
- ``tiled_mat``: the whole table at true scale split over A4 tiles with overlap lines, to glue
  into one mat.
Every page carries a 100 mm scale bar and "print at actual size". Marker bits come from OpenCV's
generator; each black run of cells is one filled rectangle, so the black square (border included)
is exactly the layout's ``size`` mm. Coordinates: layout positions in table mm (+y away from the
viewer); drawing in page mm (origin bottom-left, +y up), which maps table +y to the page's top.

>>> bits = marker_bits("DICT_4X4_50", 0)
>>> bits.shape, bool(bits[0].all()), bool(bits[:, 0].all())
((6, 6), True, True)
>>> bitmap_rects(np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1]], bool))
[(0, 0, 2, 2), (2, 2, 1, 1)]
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from armada_vision.geometry.layout import Marker, TableLayout
from armada_vision.vision.intrinsics import (
    DEFAULT_BOARD,
    CharucoSpec,
    aruco_dictionary,
)
from armada_vision.vision.layouts import check_dictionary
from armada_vision.vision.pdf import PdfDocument, PdfPage

PAPERS_MM = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}
MARGIN_MM = 12.0            # stays clear of most printers' unprintable edge
SCALE_BAR_MM = 100.0
PRINT_NOTE = "Print at 100 % / actual size (not 'fit to page'). The bar below must measure 100 mm."

# Tiled mat on A4 portrait: the table drawn inside this page rectangle (page mm).
TILE_PAPER_MM = PAPERS_MM["a4"]
TILE_AREA_MM = (15.0, 30.0, 180.0, 236.0)   # x, y, width, height (page mm)
TILE_OVERLAP_MM = 10.0


def marker_bits(dictionary: str, marker_id: int) -> np.ndarray:
    """The marker's cells incl. its black border as a bool array, True = black, row 0 on top.

    ValueError if the id is not in the dictionary."""
    d = aruco_dictionary(dictionary)
    if not 0 <= marker_id < d.bytesList.shape[0]:
        raise ValueError(f"markers: id {marker_id} is not in {dictionary} "
                         f"(ids 0–{d.bytesList.shape[0] - 1})")
    cells = d.markerSize + 2
    return cv2.aruco.generateImageMarker(d, marker_id, cells) < 128


def bitmap_rects(black: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Cover the True cells with rectangles ``(row, col, n_rows, n_cols)``: horizontal runs,
    merged downwards while the run below is identical."""
    rects: list[tuple[int, int, int, int]] = []
    open_runs: dict[tuple[int, int], int] = {}     # (col, n_cols) -> first row
    rows = black.shape[0]
    for r in range(rows + 1):
        runs = set()
        if r < rows:
            line = np.concatenate([[False], black[r].astype(bool), [False]])
            edges = np.flatnonzero(np.diff(line.astype(np.int8)))
            runs = {(int(a), int(b - a)) for a, b in zip(edges[::2], edges[1::2], strict=True)}
        for run in [k for k in open_runs if k not in runs]:
            start = open_runs.pop(run)
            rects.append((start, run[0], r - start, run[1]))
        for run in runs:
            open_runs.setdefault(run, r)
    return sorted(rects)


def draw_bitmap(page: PdfPage, black: np.ndarray, left_mm: float, top_mm: float,
                cell_mm: float) -> None:
    """Fill the True cells of ``black`` (row 0 on top) from the page point (left, top)."""
    page.gray(0)
    for r, c, nr, nc in bitmap_rects(black):
        page.rect(left_mm + c * cell_mm, top_mm - (r + nr) * cell_mm, nc * cell_mm, nr * cell_mm)


def quiet_zone_mm(marker: Marker, dictionary: str) -> float:
    """White margin kept round a marker: one cell, at least 4 mm."""
    return max(marker.size_mm / marker_bits(dictionary, marker.id).shape[0], 4.0)


def draw_marker(page: PdfPage, marker: Marker, dictionary: str, cx_mm: float, cy_mm: float,
                rotation_deg: float = 0.0) -> None:
    """A marker's black square (``size_mm`` side) centred at page point (cx, cy), upright as
    seen from the table's −y side, turned counter-clockwise by ``rotation_deg``."""
    bits = marker_bits(dictionary, marker.id)
    cell = marker.size_mm / bits.shape[0]
    half = marker.size_mm / 2
    page.comment(f"marker {marker.id} size_mm {marker.size_mm:g}")
    page.save()
    if rotation_deg % 360:
        a = math.radians(rotation_deg)
        page.transform(math.cos(a), math.sin(a), -math.sin(a), math.cos(a), cx_mm, cy_mm)
        draw_bitmap(page, bits, -half, half, cell)
    else:
        draw_bitmap(page, bits, cx_mm - half, cy_mm + half, cell)
    page.restore()
    page.comment("end marker")


def draw_scale_bar(page: PdfPage, x_mm: float, y_mm: float) -> None:
    """A 100 mm bar with 10 mm ticks; its outer ends are exactly 100 mm apart."""
    tick_w, bar_h = 0.3, 0.4
    page.comment(f"scale-bar {SCALE_BAR_MM:g} mm")
    page.gray(0)
    page.rect(x_mm, y_mm, SCALE_BAR_MM, bar_h)
    for i in range(11):
        tx = min(max(x_mm + i * 10 - tick_w / 2, x_mm), x_mm + SCALE_BAR_MM - tick_w)
        page.rect(tx, y_mm, tick_w, 4.0 if i % 5 == 0 else 2.5)
    page.comment("end scale-bar")
    for i in (0, 5, 10):
        page.text(x_mm + i * 10 - (1 if i == 0 else 3), y_mm + 5, f"{i * 10} mm" if i else "0",
                  size_pt=7)


def _page_furniture(page: PdfPage, title: str, note: str = PRINT_NOTE) -> None:
    """Title and print note at the top, scale bar at the bottom of every page."""
    h = page.height_mm
    page.gray(0)
    page.text(MARGIN_MM, h - MARGIN_MM - 3, title, size_pt=11, bold=True)
    page.text(MARGIN_MM, h - MARGIN_MM - 8, note, size_pt=8)
    draw_scale_bar(page, MARGIN_MM, MARGIN_MM)
    page.text(MARGIN_MM + SCALE_BAR_MM + 6, MARGIN_MM + 1, "check: 100 mm", size_pt=7)


LABEL_MM = 9.0   # two label lines under each cut-out


def marker_sheets(layout: TableLayout, paper: str = "a4") -> bytes:
    """Cut-out markers packed on ``paper`` pages (a4, a3, letter), as PDF bytes.

    Each marker sits in a dashed cut line enclosing its white quiet zone; under it, outside the
    cut line, its id and the table-frame centre and rotation where it goes."""
    if paper not in PAPERS_MM:
        raise ValueError(f"paper: expected one of {', '.join(PAPERS_MM)} or tiles, got {paper!r}")
    check_dictionary(layout)
    pw, ph = PAPERS_MM[paper]
    top = ph - MARGIN_MM - 14          # below title and note
    bottom = MARGIN_MM + 12            # above the scale bar
    gap = 6.0
    doc = PdfDocument(f"{layout.name}: markers")
    page: PdfPage | None = None
    x = y_top = row_h = 0.0
    for m in layout.markers:
        q = quiet_zone_mm(m, layout.dictionary)
        cw, chh = m.size_mm + 2 * q, m.size_mm + 2 * q + LABEL_MM
        if cw > pw - 2 * MARGIN_MM or chh > top - bottom:
            raise ValueError(f"markers: marker {m.id} ({m.size_mm:g} mm) does not fit on {paper} "
                             "paper; use a larger paper or --paper tiles")
        if page is not None and x + cw > pw - MARGIN_MM:
            x, y_top, row_h = MARGIN_MM, y_top - row_h - gap, 0.0
        if page is None or y_top - chh < bottom:
            page = doc.page(pw, ph)
            _page_furniture(page, f"{layout.name}: ArUco markers ({layout.dictionary}), "
                                  f"page {len(doc.pages)}")
            x, y_top, row_h = MARGIN_MM, top, 0.0
        cx, cy = x + q + m.size_mm / 2, y_top - q - m.size_mm / 2
        page.gray(0.55, stroke=True)
        page.line_width(0.2)
        page.dash(2, 1.5)
        page.stroke_rect(x, y_top - m.size_mm - 2 * q, cw, m.size_mm + 2 * q)
        page.dash()
        draw_marker(page, m, layout.dictionary, cx, cy)
        page.gray(0.45)   # small id in the quiet zone, on the near (−y) side
        page.text(cx - 4, y_top - m.size_mm - 2 * q + q / 2 - 0.8, f"id {m.id} near", size_pt=5)
        page.gray(0)
        label_y = y_top - m.size_mm - 2 * q - 4
        page.text(x, label_y, f"id {m.id}: centre x {m.center_mm[0]:g}, y {m.center_mm[1]:g} mm",
                  size_pt=7, bold=True)
        turn = m.rotation_deg % 360
        page.text(x, label_y - 3.5, "'near' side toward you" + (
            f", then turn {turn:g}° counter-clockwise" if turn else " (rotation 0)"), size_pt=6)
        x += cw + gap
        row_h = max(row_h, chh)
    return doc.to_bytes()


def table_extent_mm(layout: TableLayout, pad_mm: float = 5.0) -> tuple[float, float, float, float]:
    """(x_min, y_min, x_max, y_max) table mm covering every marker and the play area."""
    pts = [p for m in layout.markers for p in m.corners_mm().tolist()] + list(layout.play_area_mm)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (math.floor(min(xs) - pad_mm), math.floor(min(ys) - pad_mm),
            math.ceil(max(xs) + pad_mm), math.ceil(max(ys) + pad_mm))


def tile_grid(layout: TableLayout) -> list[tuple[str, float, float]]:
    """The tiles as (label, x0, y0): table-mm corner drawn at the tile area's lower left.
    Columns A, B, … from the left; rows 1, 2, … from the near (−y) side."""
    x_min, y_min, x_max, y_max = table_extent_mm(layout)
    _, _, aw, ah = TILE_AREA_MM
    sx, sy = aw - TILE_OVERLAP_MM, ah - TILE_OVERLAP_MM
    nx = max(1, math.ceil((x_max - x_min - TILE_OVERLAP_MM) / sx))
    ny = max(1, math.ceil((y_max - y_min - TILE_OVERLAP_MM) / sy))
    if nx > 26:
        raise ValueError("layout: the table is too wide to tile (more than 26 columns)")
    return [(f"{chr(65 + i)}{j + 1}", x_min + i * sx, y_min + j * sy)
            for j in range(ny) for i in range(nx)]


def tiled_mat(layout: TableLayout) -> bytes:
    """The whole table at true scale over A4 tiles, as PDF bytes.

    Table frame → page: page = table − (x0, y0) + tile-area corner, so +y is up the page. Where a
    neighbour tile overlaps, a dashed line marks its edge: glue the neighbour's edge on it."""
    check_dictionary(layout)
    tiles = tile_grid(layout)
    x_min, y_min, x_max, y_max = table_extent_mm(layout)
    ax, ay, aw, ah = TILE_AREA_MM
    ncols = len({t[1] for t in tiles})
    nrows = len(tiles) // ncols
    doc = PdfDocument(f"{layout.name}: tiled mat")
    for label, x0, y0 in tiles:
        page = doc.page(*TILE_PAPER_MM)
        _page_furniture(page, f"{layout.name}: tile {label} of {ncols}×{nrows}")
        page.text(MARGIN_MM, page.height_mm - MARGIN_MM - 12,
                  f"table x {x0:g}–{x0 + aw:g} mm, y {y0:g}–{y0 + ah:g} mm; columns A… left to "
                  "right, rows 1… from the near side; trim the white border, overlap 10 mm",
                  size_pt=7)
        page.comment(f"tile {label} origin_mm {x0:g} {y0:g}")

        def to_page(x: float, y: float, x0: float = x0, y0: float = y0) -> tuple[float, float]:
            return (x - x0 + ax, y - y0 + ay)

        page.save()
        page.clip(ax, ay, aw, ah)
        page.gray(0.7, stroke=True)
        page.line_width(0.2)
        ex0, ey0 = to_page(x_min, y_min)
        page.stroke_rect(ex0, ey0, x_max - x_min, y_max - y_min)
        page.gray(0.35, stroke=True)
        page.line_width(0.4)
        page.polyline([to_page(*p) for p in layout.play_area_mm], close=True)
        # Alignment crosses every 100 mm of table, labelled with their table coordinates.
        page.gray(0.5, stroke=True)
        page.line_width(0.15)
        for gx in range(math.ceil(x_min / 100) * 100, int(x_max) + 1, 100):
            for gy in range(math.ceil(y_min / 100) * 100, int(y_max) + 1, 100):
                px, py = to_page(gx, gy)
                if not (ax - 3 < px < ax + aw + 3 and ay - 3 < py < ay + ah + 3):
                    continue
                page.line(px - 3, py, px + 3, py)
                page.line(px, py - 3, px, py + 3)
                page.gray(0.5)
                page.text(px + 1, py + 1, f"{gx},{gy}", size_pt=5)
        page.gray(0.3, stroke=True)
        page.dash(3, 2)
        if x0 + aw < x_max:   # right neighbour's left edge
            page.line(ax + aw - TILE_OVERLAP_MM, ay, ax + aw - TILE_OVERLAP_MM, ay + ah)
        if y0 + ah < y_max:   # far neighbour's bottom edge
            page.line(ax, ay + ah - TILE_OVERLAP_MM, ax + aw, ay + ah - TILE_OVERLAP_MM)
        page.dash()
        for m in layout.markers:
            cx, cy = to_page(*m.center_mm)
            r = m.size_mm * math.sqrt(0.5)
            if ax - r < cx < ax + aw + r and ay - r < cy < ay + ah + r:
                draw_marker(page, m, layout.dictionary, cx, cy, m.rotation_deg)
        page.restore()
        page.gray(0.3, stroke=True)
        page.line_width(0.2)
        page.stroke_rect(ax, ay, aw, ah)
    return doc.to_bytes()


def board_pixels_per_mm(spec: CharucoSpec) -> int:
    """Smallest whole pixels-per-mm at which OpenCV's board image has square, marker, marker
    offset and marker cell all on whole pixels, so the traced rectangles are exact (≤ 50)."""
    cells = aruco_dictionary(spec.dictionary).markerSize + 2
    for ppm in range(1, 51):
        sq, mk = spec.square_mm * ppm, spec.marker_mm * ppm
        if all(abs(v - round(v)) < 1e-9 for v in (sq, mk, (sq - mk) / 2, mk / cells)):
            return ppm
    return 20   # sizes with no exact grid: 0.05 mm steps are far below print precision


def charuco_sheet(spec: CharucoSpec = DEFAULT_BOARD, paper: str = "a4") -> bytes:
    """The ChArUco board centred on one ``paper`` page with its sizes printed, as PDF bytes."""
    if paper not in PAPERS_MM:
        raise ValueError(f"paper: expected one of {', '.join(PAPERS_MM)}, got {paper!r}")
    pw, ph = PAPERS_MM[paper]
    bw, bh = spec.size_mm
    if bw > pw - 2 * MARGIN_MM or bh > ph - 2 * MARGIN_MM - 30:
        raise ValueError(f"board: {bw:g}×{bh:g} mm does not fit on {paper} paper")
    ppm = board_pixels_per_mm(spec)
    w_px, h_px = round(bw * ppm), round(bh * ppm)
    image = spec.board().generateImage((w_px, h_px), marginSize=0, borderBits=1)
    doc = PdfDocument("ChArUco calibration board")
    page = doc.page(pw, ph)
    _page_furniture(page, f"ChArUco board {spec.squares_x}×{spec.squares_y} squares, square "
                          f"{spec.square_mm:g} mm, marker {spec.marker_mm:g} mm, {spec.dictionary}")
    page.text(MARGIN_MM, ph - MARGIN_MM - 12, "Lay flat or glue to a stiff board. Measure one "
              "square: if it is not the size above, enter the measured sizes in board.json.",
              size_pt=7)
    left, top = (pw - bw) / 2, (ph + bh) / 2 - 2
    page.comment(f"charuco {spec.squares_x}x{spec.squares_y} square_mm {spec.square_mm:g} "
                 f"marker_mm {spec.marker_mm:g}")
    draw_bitmap(page, image < 128, left, top, 1.0 / ppm)
    page.comment("end charuco")
    return doc.to_bytes()


def make_mat(layout: TableLayout, paper: str = "a4") -> bytes:
    """PDF bytes for ``paper``: ``tiles`` for the whole table, else cut-out marker sheets."""
    return tiled_mat(layout) if paper == "tiles" else marker_sheets(layout, paper)
