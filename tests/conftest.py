"""Shared fixtures: a small rendered game scene in a folder, and an analyser that reports the
renderer's ground truth (so web tests exercise the server, not the detector)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from armada_vision.geometry.layout import TableLayout, standard_layout
from armada_vision.geometry.pose import Pose
from armada_vision.vision.types import CalibrationInfo, DetectedPiece

# The web tests' game: a Large of player A with a Small of player B on its port broadside
# (a hit, rules.md §5) and a Medium of player B far away (out of range).
SCENE = (("large", Pose(250.0, 300.0, 0.0)), ("small", Pose(260.0, 340.0, 0.0)),
         ("medium", Pose(450.0, 450.0, 90.0)))
IMAGE_SIZE = (960, 540)


@dataclass(frozen=True)
class RenderedScene:
    folder: Path
    layout: TableLayout
    frames: tuple[np.ndarray, ...]
    H_image_from_table: np.ndarray
    pieces: tuple[tuple[str, Pose], ...]


def _render_scene(folder: Path) -> RenderedScene:
    from armada_vision.synth import CameraSpec, PieceSpec, SceneSpec, render

    layout = standard_layout(600, 600)
    cam = CameraSpec.looking_at(IMAGE_SIZE, (300.0, 300.0), 1100.0, tilt_deg=0.0)
    folder.mkdir(parents=True, exist_ok=True)
    frames = []
    for i in range(3):
        spec = SceneSpec(layout, cam, tuple(PieceSpec(s, "red", p) for s, p in SCENE), seed=i)
        img = render(spec).image_bgr
        cv2.imwrite(str(folder / f"frame_{i:04d}.jpg"), img)
        frames.append(img)
    (folder / "layout.json").write_text(json.dumps(layout.to_dict()), encoding="utf-8")
    corners = np.array(layout.play_area_mm, dtype=np.float64)
    px = cam.project(np.column_stack([corners, np.zeros(len(corners))]))
    H = cv2.getPerspectiveTransform(corners[:4].astype(np.float32), px[:4].astype(np.float32))
    return RenderedScene(folder, layout, tuple(frames), H, SCENE)


@pytest.fixture(scope="session")
def rendered_scene(tmp_path_factory: pytest.TempPathFactory) -> RenderedScene:
    return _render_scene(tmp_path_factory.mktemp("web_scene"))


class TruthAnalyser:
    """Reports the scene's true poses (σ 0.2 mm / 0.3°) with the true homography; ids and
    settling come from the server's own ``IdKeeper``. ``poses`` can be changed by a test."""

    def __init__(self, scene: RenderedScene, delay_s: float = 0.0) -> None:
        from armada_vision.web.analysis import IdKeeper

        self.scene, self.delay_s = scene, delay_s
        self.pieces = list(scene.pieces)
        self.ids = IdKeeper(settle_frames=2)
        self.calls = 0

    def reset(self) -> None:
        self.ids.reset()

    def __call__(self, frame_bgr: np.ndarray, frame_seq: int, captured_at: float):
        import time

        from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
        from armada_vision.web.analysis import FrameAnalysis

        self.calls += 1
        if self.delay_s:
            time.sleep(self.delay_s)
        pieces = []
        for size, pose in self.pieces:
            s = NOMINAL_PIECES.dims(Size(size)).footprint_length_mm
            pieces.append(DetectedPiece(Size(size), "red", pose, pose.tip_mm(s), 0.2, 0.3, True))
        H_t_i = np.linalg.inv(self.scene.H_image_from_table)
        cal = CalibrationInfo(tuple(range(8)), 0.2, tuple(tuple(map(float, r)) for r in H_t_i))
        h, w = frame_bgr.shape[:2]
        tracked = self.ids.assign(tuple(pieces))
        return FrameAnalysis(frame_seq, captured_at, (w, h), tracked, (), cal, None,
                             self.ids.settled, 1.0)


def wait_until(cond, timeout_s: float = 15.0):
    """Poll ``cond()`` until it returns something truthy (returned); fail after ``timeout_s``."""
    import time

    deadline = time.time() + timeout_s
    while time.time() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError("condition not met in time")


WEB_TOKEN = "secret-join-token"


@pytest.fixture()
def game(rendered_scene: RenderedScene) -> Iterator[tuple[Any, TruthAnalyser]]:
    """A web app (TestClient) on the rendered scene's frames, analysed from the renderer's truth
    (``TruthAnalyser``), with control token ``WEB_TOKEN``; yielded once its first turn started."""
    from fastapi.testclient import TestClient

    from armada_vision.web.app import create_app
    from armada_vision.web.sources import FolderSource

    analyser = TruthAnalyser(rendered_scene)
    app = create_app(FolderSource(rendered_scene.folder, fps=30), rendered_scene.layout,
                     analyser=analyser, token=WEB_TOKEN)
    with TestClient(app) as c:
        wait_until(lambda: c.get("/api/state").json()["turn"]["started"])
        yield c, analyser
