"""Write a rendered scene beside its truth: image, layout.json, camera.json, truth.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2

from armada_vision.synth.render import Rendered


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def write_scene(rendered: Rendered, out_dir: str | Path, name: str,
                camera_file: bool = True) -> dict[str, Path]:
    """Write ``NAME.png`` (or ``NAME.jpg`` when the scene was JPEG-encoded),
    ``NAME.layout.json``, ``NAME.camera.json`` (unless ``camera_file`` is False) and
    ``NAME.truth.json`` into ``out_dir``; returns the paths by kind."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    if rendered.encoded is not None:
        paths["image"] = out / f"{name}.jpg"
        paths["image"].write_bytes(rendered.encoded)
    else:
        paths["image"] = out / f"{name}.png"
        if not cv2.imwrite(str(paths["image"]), rendered.image_bgr):
            raise ValueError(f"out_dir: cannot write {paths['image']}")
    paths["layout"] = out / f"{name}.layout.json"
    write_json(paths["layout"], rendered.layout.to_dict())
    if camera_file:
        paths["camera"] = out / f"{name}.camera.json"
        write_json(paths["camera"], rendered.camera.to_dict())
    paths["truth"] = out / f"{name}.truth.json"
    truth = dict(rendered.truth)
    truth["image"] = paths["image"].name
    write_json(paths["truth"], truth)
    return paths
