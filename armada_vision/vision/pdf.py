"""A minimal vector PDF writer: filled rectangles, lines and Helvetica text, at true scale.

Coordinates are in the *page frame*: millimetres from the page's bottom-left corner, +y up (PDF's
own orientation), converted to points (1 mm = 72/25.4 pt) on output, so a 50 mm square prints 50
mm wide at "actual size". Content streams are left uncompressed: they are small, and tests can
read them back. Comments (``% ...``) in the content stream name what the following operators
draw (e.g. ``% marker 3``) so a reader can find them.

>>> doc = PdfDocument()
>>> page = doc.page(210, 297)
>>> page.rect(10, 10, 50, 50)
>>> pdf = doc.to_bytes()
>>> pdf.startswith(b"%PDF-1.4") and pdf.rstrip().endswith(b"%%EOF")
True
>>> b"28.3465 28.3465 141.7323 141.7323 re f" in pdf
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

PT_PER_MM = 72.0 / 25.4


def pt(v_mm: float) -> str:
    """A length in mm as a PDF number in points (4 decimals, no exponent)."""
    s = f"{v_mm * PT_PER_MM:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _text_literal(text: str) -> bytes:
    # WinAnsiEncoding (≈ cp1252) covers °, ×, ·, ±; characters it lacks become '?'.
    raw = text.encode("cp1252", errors="replace")
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


@dataclass(slots=True)
class PdfPage:
    """One page being drawn; every coordinate is page-frame mm (origin bottom-left, +y up)."""

    width_mm: float
    height_mm: float
    ops: list[bytes] = field(default_factory=list)

    def comment(self, text: str) -> None:
        """A ``% text`` line marking what follows (no effect on the drawing)."""
        self.ops.append(b"% " + text.replace("\n", " ").encode("ascii", "replace"))

    def gray(self, level: float, stroke: bool = False) -> None:
        """Set the fill (or stroke) colour to a grey level, 0 black … 1 white."""
        self.ops.append(f"{level:.3g} {'G' if stroke else 'g'}".encode())

    def rect(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> None:
        """A filled rectangle with its lower-left corner at (x_mm, y_mm), page-frame mm."""
        self.ops.append(f"{pt(x_mm)} {pt(y_mm)} {pt(w_mm)} {pt(h_mm)} re f".encode())

    def stroke_rect(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> None:
        """An outlined rectangle, page-frame mm."""
        self.ops.append(f"{pt(x_mm)} {pt(y_mm)} {pt(w_mm)} {pt(h_mm)} re S".encode())

    def line_width(self, w_mm: float) -> None:
        self.ops.append(f"{pt(w_mm)} w".encode())

    def dash(self, on_mm: float = 0.0, off_mm: float = 0.0) -> None:
        """Dashed strokes from now on; ``dash()`` makes them solid again."""
        pattern = f"{pt(on_mm)} {pt(off_mm)}" if on_mm > 0 else ""
        self.ops.append(f"[{pattern}] 0 d".encode())

    def polyline(self, points_mm: list[tuple[float, float]], close: bool = False) -> None:
        """A stroked path through page-frame mm points."""
        parts = [f"{pt(points_mm[0][0])} {pt(points_mm[0][1])} m"]
        parts += [f"{pt(x)} {pt(y)} l" for x, y in points_mm[1:]]
        parts.append("s" if close else "S")
        self.ops.append(" ".join(parts).encode())

    def line(self, x0_mm: float, y0_mm: float, x1_mm: float, y1_mm: float) -> None:
        self.polyline([(x0_mm, y0_mm), (x1_mm, y1_mm)])

    def text(self, x_mm: float, y_mm: float, text: str, size_pt: float = 9.0,
             bold: bool = False) -> None:
        """Helvetica text with its baseline starting at (x_mm, y_mm), page-frame mm."""
        font = "/F2" if bold else "/F1"
        self.ops.append(f"BT {font} {size_pt:g} Tf {pt(x_mm)} {pt(y_mm)} Td ".encode()
                        + _text_literal(text) + b" Tj ET")

    def save(self) -> None:
        self.ops.append(b"q")

    def restore(self) -> None:
        self.ops.append(b"Q")

    def transform(self, a: float, b: float, c: float, d: float, e_mm: float, f_mm: float) -> None:
        """Concatenate ``[a b c d e f]`` to the current matrix; the offset (e, f) is in mm."""
        self.ops.append(f"{a:.6f} {b:.6f} {c:.6f} {d:.6f} {pt(e_mm)} {pt(f_mm)} cm".encode())

    def clip(self, x_mm: float, y_mm: float, w_mm: float, h_mm: float) -> None:
        """Clip what follows to a rectangle (until the enclosing ``restore``)."""
        self.ops.append(f"{pt(x_mm)} {pt(y_mm)} {pt(w_mm)} {pt(h_mm)} re W n".encode())

    def content(self) -> bytes:
        return b"\n".join(self.ops) + b"\n"


@dataclass(slots=True)
class PdfDocument:
    """Pages of vector drawing, serialised by ``to_bytes`` with a correct cross-reference table."""

    title: str = "armada-vision"
    pages: list[PdfPage] = field(default_factory=list)

    def page(self, width_mm: float, height_mm: float) -> PdfPage:
        """Start a new page of the given size (mm) and return it for drawing."""
        p = PdfPage(width_mm, height_mm)
        self.pages.append(p)
        return p

    def to_bytes(self) -> bytes:
        if not self.pages:
            raise ValueError("pdf: a document needs at least one page")
        # Object numbers: 1 catalog, 2 page tree, 3-4 fonts, 5 info, then (page, content) pairs.
        n_pages = len(self.pages)
        page_ids = [6 + 2 * i for i in range(n_pages)]
        objs: dict[int, bytes] = {
            1: b"<< /Type /Catalog /Pages 2 0 R >>",
            2: (f"<< /Type /Pages /Count {n_pages} /Kids ["
                + " ".join(f"{i} 0 R" for i in page_ids) + "] >>").encode(),
            3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            4: (b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold "
                b"/Encoding /WinAnsiEncoding >>"),
            5: b"<< /Title " + _text_literal(self.title) + b" /Producer (armada-vision) >>",
        }
        for pid, page in zip(page_ids, self.pages, strict=True):
            objs[pid] = (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pt(page.width_mm)} "
                         f"{pt(page.height_mm)}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> "
                         f"/Contents {pid + 1} 0 R >>").encode()
            body = page.content()
            objs[pid + 1] = (f"<< /Length {len(body)} >>\nstream\n".encode() + body
                             + b"endstream")
        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = {}
        for num in sorted(objs):
            offsets[num] = len(out)
            out += f"{num} 0 obj\n".encode() + objs[num] + b"\nendobj\n"
        xref_at = len(out)
        size = max(objs) + 1
        out += f"xref\n0 {size}\n0000000000 65535 f \n".encode()
        for num in range(1, size):
            out += f"{offsets[num]:010d} 00000 n \n".encode()
        out += (f"trailer\n<< /Size {size} /Root 1 0 R /Info 5 0 R >>\n"
                f"startxref\n{xref_at}\n%%EOF\n").encode()
        return bytes(out)
