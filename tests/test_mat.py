"""Printed mats: the PDF is well-formed, markers are at true scale, decode to the right ids and
sit where the layout says; built-in layouts; make-mat's bad-input handling.

Checks read our own PDF back (content-stream rectangles, ``cm`` transforms) and rasterise it
with numpy/OpenCV, so they need no PDF renderer.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from armada_vision.geometry.layout import Marker, TableLayout, standard_layout
from armada_vision.vision import mat
from armada_vision.vision.intrinsics import DEFAULT_BOARD, CharucoSpec
from armada_vision.vision.layouts import builtin_layout_names, load_layout
from armada_vision.vision.pdf import PT_PER_MM, PdfDocument

ROOT = Path(__file__).resolve().parent.parent
PAPER_PT = {k: (w * PT_PER_MM, h * PT_PER_MM) for k, (w, h) in mat.PAPERS_MM.items()}


# --- reading our PDF back ---------------------------------------------------------------------

def parse_pdf(data: bytes) -> list[tuple[tuple[float, float], bytes]]:
    """Check the file structure (header, xref offsets, stream lengths, %%EOF) and return each
    page's (MediaBox size in pt, content stream)."""
    assert data.startswith(b"%PDF-1.")
    assert data.rstrip().endswith(b"%%EOF")
    start = int(re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data)[1])
    assert data[start:].startswith(b"xref")
    head = re.match(rb"xref\s+0 (\d+)\s+", data[start:])
    n = int(head[1])
    entries = data[start + head.end():].split(b"\n")[:n]
    objs: dict[int, bytes] = {}
    for num, entry in enumerate(entries):
        off, _gen, kind = entry.split()
        if kind == b"n":
            off = int(off)
            assert data[off:].startswith(f"{num} 0 obj".encode()), f"xref offset of {num}"
            objs[num] = data[off:data.index(b"endobj", off)]
    trailer = data[data.index(b"trailer", start):]
    assert f"/Size {n}".encode() in trailer
    pages = []
    for body in objs.values():
        if b"/Type /Page " in body or body.rstrip().endswith(b"/Type /Page"):
            box = [float(v) for v in re.search(rb"/MediaBox \[([^\]]+)\]", body)[1].split()]
            cref = int(re.search(rb"/Contents (\d+) 0 R", body)[1])
            stream_obj = objs[cref]
            length = int(re.search(rb"/Length (\d+)", stream_obj)[1])
            s = stream_obj.index(b"stream\n") + len(b"stream\n")
            content = stream_obj[s:s + length]
            assert stream_obj[s + length:].startswith(b"endstream"), "stream /Length"
            pages.append(((box[2], box[3]), content))
    assert len(pages) == int(re.search(rb"/Count (\d+)", data)[1])
    return pages


def groups(content: bytes, tag: str) -> list[tuple[str, list[np.ndarray]]]:
    """The filled rectangles (each as 4 page-pt corners after any ``cm``) between
    ``% tag …`` and ``% end tag`` comments, with the opening comment's text."""
    out: list[tuple[str, list[np.ndarray]]] = []
    current: list[np.ndarray] | None = None
    ctm = np.eye(3)
    stack: list[np.ndarray] = []
    for line in content.decode("latin-1").splitlines():
        if line.startswith(f"% {tag}"):
            current = []
            out.append((line[2:], current))
        elif line.startswith(f"% end {tag}"):
            current = None
        elif line == "q":
            stack.append(ctm.copy())
        elif line == "Q":
            ctm = stack.pop()
        elif line.endswith(" cm"):
            a, b, c, d, e, f = (float(v) for v in line.split()[:6])
            ctm = np.array([[a, c, e], [b, d, f], [0, 0, 1]]) @ ctm
        elif line.endswith(" re f") and current is not None:
            x, y, w, h = (float(v) for v in line.split()[:4])
            pts = np.array([[x, y, 1], [x + w, y, 1], [x + w, y + h, 1], [x, y + h, 1]])
            current.append((pts @ ctm.T)[:, :2])
    return out


def bbox(rects: list[np.ndarray]) -> tuple[float, float, float, float]:
    pts = np.vstack(rects)
    return (*pts.min(axis=0), *pts.max(axis=0))


def rasterise(rects: list[np.ndarray], page_pt: tuple[float, float], px_per_mm: float,
              ) -> np.ndarray:
    """White page with the rectangles filled black; row 0 is the page top."""
    k = px_per_mm / PT_PER_MM
    w, h = round(page_pt[0] * k), round(page_pt[1] * k)
    img = np.full((h, w), 255, np.uint8)
    for r in rects:
        # A pixel (centre at integers) is inside when its centre is; fillPoly's edges with
        # shift give that to 1/256 px.
        poly = np.column_stack([r[:, 0] * k - 0.5, (page_pt[1] - r[:, 1]) * k - 0.5])
        cv2.fillPoly(img, [np.round(poly * 256).astype(np.int32)], 0, cv2.LINE_8, shift=8)
    return img


def detect_markers(img: np.ndarray, dictionary: str) -> dict[int, np.ndarray]:
    d = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, dictionary))
    corners, ids, _ = cv2.aruco.ArucoDetector(d).detectMarkers(img)
    return {} if ids is None else {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners,
                                                                           strict=True)}


# --- the PDF writer ---------------------------------------------------------------------------

def test_pdf_structure_and_text_escaping() -> None:
    doc = PdfDocument("odd (title) \\ here")
    for _ in range(3):
        p = doc.page(100, 50)
        p.text(5, 5, "brackets (a) and \\ backslash, 45°")
        p.rect(1, 2, 3, 4)
    data = doc.to_bytes()
    pages = parse_pdf(data)
    assert len(pages) == 3
    assert pages[0][0] == pytest.approx((100 * PT_PER_MM, 50 * PT_PER_MM), abs=1e-3)
    assert b"(brackets \\(a\\) and \\\\ backslash, 45\xb0) Tj" in pages[0][1]
    with pytest.raises(ValueError, match="pdf"):
        PdfDocument().to_bytes()


@settings(max_examples=60, deadline=None)
@given(arrays(np.bool_, st.tuples(st.integers(1, 9), st.integers(1, 9))))
def test_bitmap_rects_cover_exactly_the_black_cells(black: np.ndarray) -> None:
    cover = np.zeros(black.shape, int)
    for r, c, nr, nc in mat.bitmap_rects(black):
        assert nr > 0 and nc > 0
        cover[r:r + nr, c:c + nc] += 1
    assert np.array_equal(cover, black.astype(int))   # every black cell once, no white cell


# --- marker sheets ----------------------------------------------------------------------------

@pytest.mark.parametrize("paper", ["a4", "a3", "letter"])
def test_marker_sheets_true_scale_ids_and_scale_bar(paper: str) -> None:
    layout = standard_layout(900, 600)
    pages = parse_pdf(mat.marker_sheets(layout, paper))
    px_per_mm = 4.0
    seen: dict[int, float] = {}
    for size_pt, content in pages:
        assert size_pt == pytest.approx(PAPER_PT[paper], abs=1e-3)
        bars = groups(content, "scale-bar")
        assert len(bars) == 1, "a scale bar on every page"
        x0, _, x1, _ = bbox(bars[0][1])
        assert x1 - x0 == pytest.approx(100 * PT_PER_MM, abs=1e-3)
        assert b"Print at 100 % / actual size" in content
        marks = groups(content, "marker")
        for label, rects in marks:
            mid = int(label.split()[1])
            bx0, by0, bx1, by1 = bbox(rects)
            side_pt = layout.marker(mid).size_mm * PT_PER_MM
            assert bx1 - bx0 == pytest.approx(side_pt, abs=1e-3)
            assert by1 - by0 == pytest.approx(side_pt, abs=1e-3)
            assert f"(id {mid}: centre x".encode() in content
        # Decode the printed page: each marker is the right id, upright, and the right size.
        img = rasterise([r for _, rs in marks for r in rs], size_pt, px_per_mm)
        found = detect_markers(img, layout.dictionary)
        assert set(found) == {int(lbl.split()[1]) for lbl, _ in marks}
        for mid, c in found.items():
            side = np.linalg.norm(np.diff(np.vstack([c, c[:1]]), axis=0), axis=1)
            assert side == pytest.approx([layout.marker(mid).size_mm * px_per_mm] * 4, abs=1.5)
            tl, tr, br, bl = c   # upright: OpenCV's first corner is the top-left on the page
            assert tl[0] < tr[0] and tl[1] < bl[1] and br[0] > bl[0]
            seen[mid] = float(np.mean(side))
    assert set(seen) == {m.id for m in layout.markers}


def test_marker_too_big_for_paper_is_named() -> None:
    big = TableLayout("big", "DICT_4X4_50", (Marker(0, (0.0, 0.0), 250.0),),
                      ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0)))
    with pytest.raises(ValueError, match=r"marker 0 .* does not fit on a4"):
        mat.marker_sheets(big, "a4")
    bad_id = TableLayout("t", "DICT_4X4_50", (Marker(60, (0.0, 0.0), 50.0),),
                         ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0)))
    with pytest.raises(ValueError, match=r"markers\[0\].id: 60 is not in DICT_4X4_50"):
        mat.marker_sheets(bad_id, "a4")


# --- tiled mat --------------------------------------------------------------------------------

def rotated_layout() -> TableLayout:
    """Markers at odd angles and sizes, to check the orientation convention of interfaces.md."""
    ms = (Marker(0, (40.0, 40.0), 50.0, 0.0), Marker(1, (300.0, 60.0), 40.0, 90.0),
          Marker(2, (260.0, 330.0), 60.0, 30.0), Marker(3, (60.0, 320.0), 45.0, -135.0))
    return TableLayout("rotated", "DICT_4X4_50", ms,
                       ((80.0, 80.0), (250.0, 80.0), (250.0, 280.0), (80.0, 280.0)))


@pytest.mark.parametrize("layout", [standard_layout(600, 600), rotated_layout()],
                         ids=["60x60", "rotated"])
def test_tiled_mat_puts_each_marker_at_its_table_corners(layout: TableLayout) -> None:
    """Tile page → table frame: table = page − tile-area corner + tile origin (all mm)."""
    pages = parse_pdf(mat.tiled_mat(layout))
    assert len(pages) == len(mat.tile_grid(layout))
    ax, ay, _aw, _ah = mat.TILE_AREA_MM
    px_per_mm = 4.0
    placed: set[int] = set()
    for size_pt, content in pages:
        assert size_pt == pytest.approx(PAPER_PT["a4"], abs=1e-3)
        assert len(groups(content, "scale-bar")) == 1
        x0, y0 = (float(v) for v in re.search(rb"% tile \w+ origin_mm (\S+) (\S+)", content)
                  .groups())
        for label, rects in groups(content, "marker"):
            mid = int(label.split()[1])
            m = layout.marker(mid)
            corners = np.vstack(rects) / PT_PER_MM - (ax, ay) + (x0, y0)   # table mm
            # Rasterise the marker alone (a white margin round it) and decode it.
            lo = corners.min(axis=0) - 15
            local = [r / PT_PER_MM - (ax, ay) + (x0, y0) - lo for r in rects]
            extent = corners.max(axis=0) + 15 - lo
            img = rasterise([r * PT_PER_MM for r in local], tuple(extent * PT_PER_MM),
                            px_per_mm)
            found = detect_markers(img, layout.dictionary)
            assert list(found) == [mid]
            # Image px → table mm: x = px/k + lo_x, y = (extent_y − py/k) + lo_y.
            c = found[mid] + 0.5   # pixel centres at integers
            table = np.column_stack([c[:, 0] / px_per_mm + lo[0],
                                     extent[1] - c[:, 1] / px_per_mm + lo[1]])
            assert table == pytest.approx(m.corners_mm(), abs=0.5)
            placed.add(mid)
    assert placed == {m.id for m in layout.markers}


def test_tiles_cover_the_table_with_overlap() -> None:
    layout = standard_layout(1200, 900)
    x_min, y_min, x_max, y_max = mat.table_extent_mm(layout)
    assert (x_min, y_min, x_max, y_max) == (0, 0, 1200, 900)
    _, _, aw, ah = mat.TILE_AREA_MM
    tiles = mat.tile_grid(layout)
    xs, ys = sorted({t[1] for t in tiles}), sorted({t[2] for t in tiles})
    assert xs[0] == x_min and xs[-1] + aw >= x_max and ys[0] == y_min and ys[-1] + ah >= y_max
    assert np.diff(xs) == pytest.approx(aw - mat.TILE_OVERLAP_MM)
    assert np.diff(ys) == pytest.approx(ah - mat.TILE_OVERLAP_MM)
    assert len({t[0] for t in tiles}) == len(tiles) == len(xs) * len(ys)


# --- ChArUco board ----------------------------------------------------------------------------

@pytest.mark.parametrize("spec", [DEFAULT_BOARD, CharucoSpec(5, 7, 30.0, 22.5, "DICT_4X4_50")],
                         ids=["default", "5x7"])
def test_charuco_sheet_is_a_detectable_true_scale_board(spec: CharucoSpec) -> None:
    (size_pt, content), = parse_pdf(mat.charuco_sheet(spec, "a4"))
    (_, rects), = groups(content, "charuco")
    x0, y0, x1, y1 = bbox(rects)
    assert (x1 - x0, y1 - y0) == pytest.approx(
        (spec.size_mm[0] * PT_PER_MM, spec.size_mm[1] * PT_PER_MM), abs=1e-3)
    assert f"square {spec.square_mm:g} mm, marker {spec.marker_mm:g} mm".encode() in content
    assert len(groups(content, "scale-bar")) == 1
    px_per_mm = 6.0
    img = rasterise(rects, size_pt, px_per_mm)
    corners, ids, _, _ = cv2.aruco.CharucoDetector(spec.board()).detectBoard(img)
    assert ids is not None and len(ids) == spec.inner_corners
    # Neighbouring inner corners are one square apart on the page.
    grid = dict(zip(ids.ravel().tolist(), corners.reshape(-1, 2), strict=True))
    nx = spec.squares_x - 1
    steps = [np.linalg.norm(grid[i + 1] - grid[i]) for i in grid if (i + 1) % nx and i + 1 in grid]
    assert np.median(steps) == pytest.approx(spec.square_mm * px_per_mm, abs=0.3)


def test_board_too_big_for_paper() -> None:
    with pytest.raises(ValueError, match=r"board: .* does not fit on a4"):
        mat.charuco_sheet(CharucoSpec(10, 12, 30.0, 20.0, "DICT_4X4_100"), "a4")


# --- layouts ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", builtin_layout_names())
def test_builtin_layouts_match_standard_layout_and_calibration_files(name: str) -> None:
    w_cm, d_cm = (int(v) for v in name.split("x"))
    expected = standard_layout(w_cm * 10.0, d_cm * 10.0)
    assert load_layout(name) == expected
    assert load_layout(f"table_{name}.json") == expected
    assert load_layout(name.replace("x", "×")) == expected
    on_disk = ROOT / "calibration" / f"table_{name}.json"
    assert load_layout(on_disk) == expected   # calibration/ and the packaged copy agree
    assert TableLayout.from_dict(json.loads(on_disk.read_text())) == expected


@pytest.mark.parametrize(("text", "message"), [
    ("{", "not valid JSON"),
    ('{"dictionary": "DICT_4X4_50", "markers": []}', "markers: at least 4"),
    ('{"dictionary": 5}', "dictionary"),
    ('{"dictionary": "DICT_9X9_1", "markers": MARKERS, "play_area": [[0,0],[1,0],[1,1]]}',
     "dictionary: 'DICT_9X9_1' is not an OpenCV predefined ArUco dictionary"),
    ('{"dictionary": "DICT_4X4_50", "markers": MARKERS, "play_area": [[0,0],[1,0],[1,1]]}',
     r"markers\[3\].id: 50 is not in DICT_4X4_50"),
])
def test_load_layout_names_the_problem(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "bad.json"
    markers = [{"id": i, "center": [i * 60.0, 0.0], "size": 50.0} for i in (0, 1, 2, 50)]
    p.write_text(text.replace("MARKERS", json.dumps(markers)))
    with pytest.raises(ValueError, match=f"layout {re.escape(str(p))}: .*{message}"):
        load_layout(p)
    with pytest.raises(ValueError, match="not a built-in layout"):
        load_layout(tmp_path / "missing.json")


# --- make-mat command -------------------------------------------------------------------------

def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "armada_vision", *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd or ROOT)


def test_make_mat_writes_pdfs(tmp_path: Path) -> None:
    out = tmp_path / "mat.pdf"
    r = cli("make-mat", "--layout", "90x60", "--paper", "tiles", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert len(parse_pdf(out.read_bytes())) == len(mat.tile_grid(load_layout("90x60")))
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"squares_x": 5, "squares_y": 7, "square_mm": 30,
                                 "marker_mm": 22.5, "dictionary": "DICT_4X4_50"}))
    r = cli("make-mat", "--charuco", "--board", str(board), "--out", str(tmp_path / "b.pdf"))
    assert r.returncode == 0, r.stderr
    (_, content), = parse_pdf((tmp_path / "b.pdf").read_bytes())
    assert b"ChArUco board 5\xd77 squares, square 30 mm" in content


@pytest.mark.parametrize(("args", "message"), [
    (["--layout", "missing.json"], "layout missing.json: no such file"),
    (["--layout", "60x60", "--paper", "b5"], "--paper: expected one of a4, a3, letter, tiles"),
    ([], "--layout: required"),
    (["--charuco", "--paper", "tiles"], "--paper tiles"),
    (["--charuco", "--board", "nope.json"], "board nope.json: no such file"),
    (["--layout", "60x60", "--out-dir-missing"], None),
])
def test_make_mat_bad_input_one_line(tmp_path: Path, args: list[str], message: str | None,
                                     ) -> None:
    out = tmp_path / "mat.pdf"
    if message is None:   # an --out whose folder does not exist
        args, message = ["--layout", "60x60"], "folder"
        out = tmp_path / "no" / "mat.pdf"
    r = cli("make-mat", *args, "--out", str(out), cwd=tmp_path)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert not out.exists()


# --- an independent renderer, when installed (poppler-utils); not required ----------------------

@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) absent")
def test_poppler_renders_markers_at_true_scale(tmp_path: Path) -> None:
    layout = standard_layout(600, 600)
    pdf = tmp_path / "m.pdf"
    pdf.write_bytes(mat.marker_sheets(layout, "a4"))
    dpi = 100
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-png", str(pdf), str(tmp_path / "p")],
                   check=True, timeout=60)
    found: dict[int, np.ndarray] = {}
    for png in sorted(tmp_path.glob("p-*.png")):
        found.update(detect_markers(cv2.imread(str(png), cv2.IMREAD_GRAYSCALE), "DICT_4X4_50"))
    assert set(found) == {m.id for m in layout.markers}
    for c in found.values():
        side = np.linalg.norm(np.diff(np.vstack([c, c[:1]]), axis=0), axis=1)
        assert side == pytest.approx([50 / 25.4 * dpi] * 4, abs=1.5)
