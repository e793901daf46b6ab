"""Simulation helpers for the projector tests and benchmark: a table, a camera and a projector
with known poses, rendered by ``armada_vision.synth.render`` (its ``ProjectorSpec`` adds the
projector's light onto the table). Ground truth (the true ``H_projector_from_table``) comes from
the poses we chose, never from the detector.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import shapely

from armada_vision.geometry.layout import TableLayout, standard_layout
from armada_vision.synth.render import render
from armada_vision.synth.scene import CameraSpec, PieceSpec, ProjectorSpec, SceneSpec
from armada_vision.vision.projector import H_image_from_table_pose, apply_homography

PROJECTOR_SIZE = (1280, 800)


@dataclass(frozen=True, slots=True)
class Rig:
    """Layout, camera and projector (a pinhole with pose, table → device) of one table."""

    layout: TableLayout
    camera: CameraSpec
    projector: CameraSpec
    table_mm: tuple[float, float]

    @property
    def H_projector_from_table(self) -> np.ndarray:
        p = self.projector
        return H_image_from_table_pose(p.intrinsics.K, p.rvec, p.tvec)

    def moved(self, dx_mm: float, dy_mm: float = 0.0) -> Rig:
        """The same rig with the projector shifted (its aim moves by about dx, dy on the
        table)."""
        R = self.projector.R
        t = np.asarray(self.projector.tvec) - R @ np.array([dx_mm, dy_mm, 0.0])
        return replace(self, projector=replace(self.projector, tvec=tuple(float(v) for v in t)))


def projector_over(table_mm: tuple[float, float], seed: int) -> CameraSpec:
    """A 1280 × 800 projector about a metre above the table centre, covering the play area;
    ``seed`` varies its height, tilt, yaw and aim."""
    rng = np.random.default_rng([seed, 7])
    w, d = table_mm
    aim = (w / 2 + rng.uniform(-30, 30), d / 2 + rng.uniform(-20, 20))
    height = float(rng.uniform(950, 1150)) * max(w, 1.5 * d) / 900.0
    return CameraSpec.looking_at(PROJECTOR_SIZE, aim, height, tilt_deg=float(rng.uniform(5, 20)),
                                 yaw_deg=float(rng.uniform(-8, 8)), fov_deg=48.0)


def make_rig(seed: int = 0, table_mm: tuple[float, float] = (900.0, 600.0),
             camera_px: tuple[int, int] = (1920, 1080)) -> Rig:
    """A table, a camera (1920 × 1080 by default) looking down at it and a projector over it."""
    layout = standard_layout(*table_mm)
    w, d = table_mm
    cam = CameraSpec.looking_at(camera_px, (w / 2, d / 2), 800.0 * w / 900.0, tilt_deg=12.0,
                                fov_deg=70.0)
    return Rig(layout, cam, projector_over(table_mm, seed), table_mm)


def with_projector(spec: SceneSpec, projector: CameraSpec, image_bgr: np.ndarray | None,
                   gain: float = 0.6) -> SceneSpec:
    """``spec`` with ``image_bgr`` projected through ``projector`` (None: projector off)."""
    if image_bgr is None:
        return replace(spec, projector=None)
    return replace(spec, projector=ProjectorSpec(image_bgr, projector.intrinsics,
                                                 projector.rvec, projector.tvec, gain))


def camera_image(rig: Rig, projector_bgr: np.ndarray | None, *, gain: float = 0.6,
                 pieces: tuple[PieceSpec, ...] = (), seed: int = 0,
                 noise_sigma: float = 1.5) -> np.ndarray:
    """The camera's view of the table with ``projector_bgr`` shown (None: projector off)."""
    spec = SceneSpec(rig.layout, rig.camera, pieces, surface="felt", seed=seed,
                     noise_sigma=noise_sigma, table_mm=rig.table_mm)
    return render(with_projector(spec, rig.projector, projector_bgr, gain)).image_bgr


def lit_region(rig: Rig) -> np.ndarray:
    """Play area clipped to what the projector covers (table mm, (N, 2))."""
    w, h = rig.projector.intrinsics.image_size
    corners = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], float)
    foot = apply_homography(np.linalg.inv(rig.H_projector_from_table), corners)
    region = shapely.Polygon(rig.layout.play_area_mm).intersection(shapely.Polygon(foot))
    return np.asarray(region.exterior.coords)[:-1]


def lit_edges_px(lit: np.ndarray, dark: np.ndarray, upsample: int = 4) -> np.ndarray:
    """Edge of the largest lit region in a camera image, found from the lit − dark difference
    at half its brightness, to 1/``upsample`` px: (N, 2) image px."""
    diff = (cv2.cvtColor(lit, cv2.COLOR_BGR2GRAY).astype(np.float32)
            - cv2.cvtColor(dark, cv2.COLOR_BGR2GRAY).astype(np.float32))
    diff = cv2.GaussianBlur(diff, (0, 0), 0.7)
    level = 0.5 * float(np.percentile(diff, 99.99))  # half the lit plateau (zones are small)
    h, w = diff.shape
    big = cv2.resize(diff, (w * upsample, h * upsample), interpolation=cv2.INTER_LINEAR)
    mask = (big > level).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    c = max(contours, key=cv2.contourArea).reshape(-1, 2).astype(float)
    # resized pixel centre i ↔ original (i + 0.5) / upsample − 0.5
    return (c + 0.5) / upsample - 0.5


class SimPage:
    """The projector page in simulation: a thread that follows the controller like the browser
    page does (draws the mode it is asked for, then acknowledges), and the image it shows."""

    def __init__(self, ctrl, size_px: tuple[int, int] = PROJECTOR_SIZE) -> None:
        import threading

        self.ctrl, self.size = ctrl, size_px
        self.image = np.zeros((size_px[1], size_px[0], 3), np.uint8)
        self.shown: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _draw(self, frame: dict) -> np.ndarray:
        from armada_vision.vision.projector import Overlay, ProjectorStyle, draw_overlays

        w, h = frame["size"]
        if frame["mode"] == "blank":
            return np.zeros((h, w, 3), np.uint8)
        if frame["mode"] == "pattern":
            return self.ctrl.pattern.image()
        st = frame["style"]
        style = ProjectorStyle(tuple(st["colors"].items()), st["brightness"], st["fill_alpha"],
                               st["line_px"], tuple(st["hidden"]), st["clear_mm"])
        ovs = [Overlay(o["layer"], tuple(tuple(map(tuple, r)) for r in o["rings_px"]),
                       o["closed"]) for o in frame["overlays"]]
        return draw_overlays(ovs, np.eye(3), (w, h), style)  # rings are already projector px

    def _run(self) -> None:
        import json as _json

        seen = -1
        while not self._stop.is_set():
            if self.ctrl.hub.version != seen:
                seen = self.ctrl.hub.version
                frame = _json.loads(self.ctrl.hub.state)
                self.image = self._draw(frame)
                self.shown.append(frame["mode"])
                self.ctrl.ack(frame["request_id"])
            self._stop.wait(0.005)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2.0)


class SimCameraSource:
    """A web ``FrameSource``: each read renders the rig's table lit by what ``page`` shows
    (the page image is taken when the read starts, like a camera exposing)."""

    def __init__(self, rig: Rig, page: SimPage) -> None:
        self.rig, self.page = rig, page
        self.fps: float | None = None
        self.loop_count = 0
        self.name = "simulated camera"
        self.frames = 0

    def read(self) -> np.ndarray:
        shown = self.page.image.copy()
        self.frames += 1
        return camera_image(self.rig, shown if shown.any() else None, seed=self.frames,
                            noise_sigma=1.5)

    def close(self) -> None:
        pass
