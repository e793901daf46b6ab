"""Regenerate the default table layouts and their printable PDFs.

    python calibration/make_all.py [--tiles]

Writes, for each built-in table (60×60, 90×60, 120×90 cm):
- ``calibration/table_WxD.json`` and the packaged copy ``armada_vision/data/layouts/table_WxD.json``
  (``standard_layout`` → interfaces.md layout format);
- ``calibration/table_WxD_a4.pdf`` (cut-out markers on A4), and with ``--tiles`` also
  ``calibration/table_WxD_tiles.pdf`` (the whole table on A4 tiles; larger, so not committed);
and ``calibration/board.json`` + ``calibration/charuco_a4.pdf`` (the default ChArUco board).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from armada_vision.geometry.layout import standard_layout  # noqa: E402
from armada_vision.vision.intrinsics import DEFAULT_BOARD  # noqa: E402
from armada_vision.vision.layouts import BUILTIN_TABLES_CM  # noqa: E402
from armada_vision.vision.mat import charuco_sheet, marker_sheets, tiled_mat  # noqa: E402


def dump(obj: dict) -> str:
    """JSON with one line per marker or field, so diffs stay readable."""
    lines = []
    for key, value in obj.items():
        if key == "markers":
            items = ",\n".join("    " + json.dumps(m, ensure_ascii=False) for m in value)
            lines.append(f'  "markers": [\n{items}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tiles", action="store_true", help="also write the tiled full-table mats")
    args = ap.parse_args()
    cal, data = ROOT / "calibration", ROOT / "armada_vision" / "data" / "layouts"
    data.mkdir(parents=True, exist_ok=True)
    for w_cm, d_cm in BUILTIN_TABLES_CM:
        key = f"{w_cm}x{d_cm}"
        layout = standard_layout(w_cm * 10.0, d_cm * 10.0)
        for folder in (cal, data):
            (folder / f"table_{key}.json").write_text(dump(layout.to_dict()), encoding="utf-8")
        (cal / f"table_{key}_a4.pdf").write_bytes(marker_sheets(layout, "a4"))
        if args.tiles:
            (cal / f"table_{key}_tiles.pdf").write_bytes(tiled_mat(layout))
        print(f"table_{key}: {len(layout.markers)} markers")
    (cal / "board.json").write_text(dump(DEFAULT_BOARD.to_dict()), encoding="utf-8")
    (cal / "charuco_a4.pdf").write_bytes(charuco_sheet(DEFAULT_BOARD, "a4"))
    print("board.json, charuco_a4.pdf")


if __name__ == "__main__":
    main()
