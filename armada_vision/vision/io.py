"""Reading what the vision layer is given: images, layouts and camera files.

Failures to read an image are values (:class:`VisionFailure`); malformed layout or camera
files raise ValueError naming the file and field, like every other malformed input.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from armada_vision.geometry.camera import CameraIntrinsics
from armada_vision.geometry.layout import TableLayout
from armada_vision.vision.types import VisionFailure


def read_image(path: str | Path) -> np.ndarray | VisionFailure:
    """8-bit BGR image from a file, or ``VisionFailure("unreadable", ...)``."""
    p = Path(path)
    if not p.is_file():
        return VisionFailure("unreadable", f"image {p}: no such file")
    data = np.fromfile(str(p), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None or img.size == 0:
        return VisionFailure("unreadable", f"image {p}: not a readable image")
    return img


def load_layout_file(name_or_path: str | Path) -> TableLayout:
    """A layout by path or built-in name (the mat module's loader when present)."""
    try:
        from armada_vision.vision.layouts import load_layout
    except ImportError:  # pragma: no cover - the loader ships with the mat module
        p = Path(name_or_path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ValueError(f"layout {p}: no such file") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(f"layout {p}: cannot read ({e})") from None
        try:
            return TableLayout.from_dict(data)
        except ValueError as e:
            raise ValueError(f"layout {p}: {e}") from None
    return load_layout(name_or_path)


def load_camera_file(path: str | Path) -> CameraIntrinsics:
    """Camera intrinsics from a camera JSON file (interfaces.md); ValueError names the field."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"camera {p}: no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"camera {p}: cannot read ({e})") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"camera {p}: not valid JSON (line {e.lineno}: {e.msg})") from None
    try:
        return CameraIntrinsics.from_dict(data)
    except ValueError as e:
        raise ValueError(f"camera {p}: {e}") from None
