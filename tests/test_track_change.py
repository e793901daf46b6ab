"""The tracker notices a move however the moved piece compares with the table in grey.

In the rendered skirmish (sample_images/sequences/skirmish), blue S1 on green felt makes two
steps between frames 21 and 32. In grey the blue plastic is as bright as the felt (the change
image differed by at most 9 levels, under the 12 that count), so the tracker saw no change,
called the table settled with the old poses, and the log later saw S1's and L1's moves in one
view ("2 ships moved at once"). Ground truth comes from the renderer's events.json."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from armada_vision.vision.io import load_camera_file, load_layout_file, read_image
from armada_vision.vision.track import Tracker

SKIRMISH = Path(__file__).resolve().parent.parent / "sample_images" / "sequences" / "skirmish"

pytestmark = pytest.mark.skipif(not (SKIRMISH / "events.json").exists(),
                                reason="sample_images/sequences/skirmish not present")


def test_a_blue_piece_moved_on_felt_is_seen_before_the_table_counts_as_settled() -> None:
    truth = json.loads((SKIRMISH / "events.json").read_text())
    move = next(e for e in truth["events"] if e["type"] == "move" and e["ship"] == "S1")
    frames = truth["frames"]
    tracker = Tracker(load_layout_file(SKIRMISH / "layout.json"),
                      load_camera_file(SKIRMISH / "camera.json"))
    fps = float(truth["fps"])
    # From the settled view before S1's move to the first settled view after it.
    start = max(f["index"] for f in frames if f["settled"] and f["index"] < move["frame"]) - 1
    end = min(f["index"] for f in frames if f["settled"] and f["index"] > move["frame"]) + 1
    state = None
    for f in frames[start:end + 1]:
        state = tracker.update(read_image(SKIRMISH / f["file"]), f["index"] / fps)
    assert state is not None and state.settled
    (true_s1,) = [p for p in frames[end]["pieces"] if p["id"] == "S1"]
    assert math.dist(true_s1["stern"], move["to"]["stern"]) < 1e-6
    near = [d for d in state.pieces if d.size.value == "small"
            and math.dist(d.pose.stern_mm, true_s1["stern"]) < 3.0]
    assert len(near) == 1, "S1's new pose is not in the settled view"
    old = [d for d in state.pieces if math.dist(d.pose.stern_mm, move["from"]["stern"]) < 3.0]
    assert old == [], "the settled view still has S1 where it was before the move"
