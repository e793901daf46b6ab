"""Table layouts by file or by built-in name (``60x60``, ``90x60``, ``120x90``).

The built-in layouts are ``geometry.layout.standard_layout`` tables shipped as package data
(``armada_vision/data/layouts/table_WxD.json``), the same files as ``calibration/``. Marker
coordinates are table-frame mm (+y away from the viewer).

>>> lay = load_layout("60x60")
>>> lay.name, len(lay.markers), lay.marker(2).center_mm
('60×60 cm table', 8, (570.0, 570.0))
>>> load_layout("nowhere.json")
Traceback (most recent call last):
ValueError: layout nowhere.json: no such file, and not a built-in layout (60x60, 90x60, 120x90)
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from armada_vision.geometry.layout import TableLayout

# Built-in table sizes in cm (width × depth), the names ``--layout`` accepts.
BUILTIN_TABLES_CM = ((60, 60), (90, 60), (120, 90))


def builtin_layout_names() -> tuple[str, ...]:
    """The names ``load_layout`` accepts besides file paths, e.g. ``('60x60', …)``."""
    return tuple(f"{w}x{d}" for w, d in BUILTIN_TABLES_CM)


def _builtin_key(name: str) -> str | None:
    """``60x60``, ``60×60``, ``table_60x60`` and ``table_60x60.json`` all name one table."""
    m = re.fullmatch(r"(?:table_)?(\d+)\s*[x×X]\s*(\d+)(?:\s*cm)?(?:\.json)?", name.strip())
    if not m:
        return None
    key = f"{int(m[1])}x{int(m[2])}"
    return key if key in builtin_layout_names() else None


def layout_from_text(text: str, source: str) -> TableLayout:
    """Parse layout JSON; ValueError starts with ``source`` and names the bad field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"layout {source}: not valid JSON (line {e.lineno}: {e.msg})") from None
    try:
        layout = TableLayout.from_dict(data)
        check_dictionary(layout)
    except ValueError as e:
        raise ValueError(f"layout {source}: {e}") from None
    return layout


def check_dictionary(layout: TableLayout) -> None:
    """ValueError unless the dictionary is OpenCV's and holds every marker id."""
    from armada_vision.vision.intrinsics import dictionary_size  # cv2: only when checking

    n = dictionary_size(layout.dictionary)
    for i, m in enumerate(layout.markers):
        if m.id >= n:
            raise ValueError(f"markers[{i}].id: {m.id} is not in {layout.dictionary} "
                             f"(ids 0–{n - 1})")


def load_layout(name_or_path: str | Path) -> TableLayout:
    """A layout from a JSON file, or a built-in one by name (a file of that name wins).

    ValueError, one line naming the file or field, when it is missing or malformed."""
    p = Path(name_or_path)
    if p.is_file():
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise ValueError(f"layout {p}: cannot read ({e})") from None
        return layout_from_text(text, str(p))
    key = _builtin_key(str(name_or_path))
    if key is None:
        what = "is a directory" if p.is_dir() else "no such file"
        raise ValueError(f"layout {name_or_path}: {what}, and not a built-in layout "
                         f"({', '.join(builtin_layout_names())})")
    res = resources.files("armada_vision").joinpath("data", "layouts", f"table_{key}.json")
    return layout_from_text(res.read_text(encoding="utf-8"), f"table_{key} (built in)")
