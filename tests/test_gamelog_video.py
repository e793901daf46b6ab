"""End to end: the rendered frames of a sample sequence through the real tracker
(vision.track) and the recorder, shots declared as the phone would at the truth's frames.

Minutes of CPU (detection on every changed frame), so it runs only with ARMADA_E2E=1. What it
checks is the whole chain: the log's moves, shots, sinkings and turn ends must be the
sequence's true events, with no flag."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from armada_vision.gamelog import Flagged, Recorder
from armada_vision.gamelog.truth import log_actions, truth_actions, truth_players, truth_ships

ROOT = Path(__file__).resolve().parent.parent
SEQ = ROOT / "sample_images" / "sequences"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("ARMADA_E2E") != "1",
                       reason="minutes of detection: set ARMADA_E2E=1 to run"),
]


def record_video(folder: Path) -> tuple[Recorder, dict]:
    import cv2

    from armada_vision.geometry.camera import CameraIntrinsics
    from armada_vision.geometry.layout import TableLayout
    from armada_vision.vision.track import Tracker

    truth = json.loads((folder / "events.json").read_text())
    layout = TableLayout.from_dict(json.loads((folder / "layout.json").read_text()))
    cam = json.loads((folder / "camera.json").read_text())
    camera = CameraIntrinsics.from_dict({k: cam[k] for k in
                                         ("image_size", "camera_matrix", "dist_coeffs")
                                         if k in cam}) if "camera_matrix" in cam else None
    tracker = Tracker(layout, camera)
    phone: dict[int, list[dict]] = {}
    for e in truth["events"]:
        if e["type"] in ("shot", "turn_end"):
            phone.setdefault(int(e["frame"]), []).append(e)
    rec: Recorder | None = None
    fps = float(truth.get("fps", 2.0))
    for f in truth["frames"]:
        i = int(f["index"])
        state = tracker.update(cv2.imread(str(folder / f["file"])), i / fps)
        if rec is None:
            if state.settled:
                rec = Recorder.start(None, game_id=folder.name, players=truth_players(truth),
                                     ships=truth_ships(truth), play_area=layout.play_area_mm,
                                     table=layout.name, pieces=state.pieces)
            continue
        for e in phone.get(i, []):
            if e["type"] == "shot":
                rec.declare_shot(e["shooter"], e["target"])
            elif rec.state.player == e["player"]:
                rec.end_turn()
        rec.observe_track(state, frame=f["file"])
    assert rec is not None, "the table never settled"
    return rec, truth


@pytest.mark.parametrize("name", ["demo"])
def test_rendered_frames_through_tracker_and_recorder(name: str) -> None:
    rec, truth = record_video(SEQ / name)
    flags = [e.reason for e in rec.events if isinstance(e, Flagged)]
    assert log_actions(rec.events) == truth_actions(truth), flags
    assert flags == []
