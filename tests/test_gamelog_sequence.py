"""A rendered game's ground truth played through the recorder (truth frames → detections with
track ids, hands → occluded, shots and turn ends declared at their frames): the log must match
the sequence's true events, and its deliberately illegal move must be flagged.

The renderer scripts the game (synth.sequence.build_sequence) without drawing the frames; the
sequences in sample_images/sequences/ are played the same way from their events.json."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from armada_vision.gamelog import (
    Correction,
    Flagged,
    GameStore,
    Move,
    Recorder,
    Result,
    Shot,
    replay_state,
)
from armada_vision.gamelog.replay import readjudicate
from armada_vision.gamelog.truth import (
    frame_detections,
    log_actions,
    observable_events,
    record_from_truth,
    record_from_views,
    seen_ships,
    truth_actions,
)
from armada_vision.geometry.pose import angle_diff_deg

synth_sequence = pytest.importorskip("armada_vision.synth.sequence")
ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_images" / "sequences").glob("*/events.json"))


def check_against_truth(rec: Recorder, truth: dict[str, Any]) -> None:
    assert log_actions(rec.events) == truth_actions(truth)
    events = rec.events
    moves = [e for e in events if isinstance(e, Move)]
    true_moves = [e for e in observable_events(truth) if e["type"] == "move"]
    for mv, tm in zip(moves, true_moves, strict=True):
        # the logged after-pose is the truth's final pose (up to the simulated noise)
        (x, y), h = tm["to"]["stern"], tm["to"]["heading"]
        assert math.dist((mv.after.x_mm, mv.after.y_mm), (x, y)) < 1.0
        assert abs(angle_diff_deg(mv.after.heading_deg, h)) < 1.0
        if tm["legal"]:
            assert 1 <= len(mv.steps) <= {"small": 4, "medium": 2, "large": 1}[tm["size"]]
            end = mv.steps[-1]
            assert math.dist(end.stern_mm, mv.after.stern_mm) <= 2.0    # §4 tolerance
        else:
            # §4.2: the deliberate foul turns too sharply; the recorder flags it
            assert mv.verdict.decided_by == "turn", mv.verdict.reason
            flags = [e for e in events if isinstance(e, Flagged) and e.cause == mv.n]
            assert len(flags) == 1
            assert any(isinstance(e, Correction) and e.target == flags[0].n for e in events)
    hits = [e for e in events if isinstance(e, Shot) and e.verdict.yes]
    true_hits = [e for e in truth["events"] if e["type"] == "shot" and e["hit"]]
    for shot, th in zip(hits, true_hits, strict=True):
        assert shot.verdict.side == th["side"]
        # the renderer staged every hit at least 3 mm deep (§5); our depth is the exact maximum
        assert shot.verdict.margin_mm >= th["depth_mm"] - 0.5
    victory = [e for e in truth["events"] if e["type"] == "victory"]
    results = [e for e in events if isinstance(e, Result)]
    assert [r.winner for r in results] == [v["player"] for v in victory]


@pytest.mark.parametrize("seed", [1, 2])
def test_scripted_sequence_with_a_foul_is_logged_as_it_happened(seed: int) -> None:
    seq = synth_sequence.build_sequence(seed, foul=True)
    truth = synth_sequence.events_json(seq)
    assert any(e["type"] == "move" and not e["legal"] for e in truth["events"])
    rec = record_from_truth(truth, seq.layout.play_area_mm, noise_seed=seed)
    check_against_truth(rec, truth)
    assert replay_state(rec.events).pending == ()      # every flag was answered
    report = readjudicate(rec.events)
    assert report.disagreements == () and report.unchecked == ()


def test_illegal_move_stays_flagged_when_nobody_answers() -> None:
    seq = synth_sequence.build_sequence(2, foul=True, turns=1)
    truth = synth_sequence.events_json(seq)
    rec = record_from_truth(truth, seq.layout.play_area_mm, accept_fouls=False)
    state = rec.state
    assert len(state.pending) == 1
    flag = rec.events[state.pending[0] - 1]
    assert isinstance(flag, Flagged) and "turn too sharp" in flag.reason


def test_a_recorded_sequence_survives_the_store(tmp_path: Path) -> None:
    seq = synth_sequence.build_sequence(1, foul=True, turns=3)
    truth = synth_sequence.events_json(seq)
    with GameStore(tmp_path / "seq.sqlite") as store:
        rec = record_from_truth(truth, seq.layout.play_area_mm, store=store, game_id="seq")
    with GameStore(tmp_path / "seq.sqlite") as store:
        assert tuple(store.events("seq")) == rec.events


@pytest.mark.skipif(not SAMPLES, reason="no rendered sequences in sample_images/sequences yet")
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.parent.name)
def test_sample_sequence_truth_matches_the_log(path: Path) -> None:
    truth = json.loads(path.read_text(encoding="utf-8"))
    layout = json.loads((path.parent / truth.get("layout", "layout.json")).read_text())
    area = [tuple(p) for p in layout["play_area"]]
    rec = record_from_truth(truth, area, noise_seed=0)
    check_against_truth(rec, truth)


class _View:
    """A tracker state as the recorder reads it (duck-typed vision.track.TrackState)."""

    def __init__(self, pieces: list, settled: bool, occluded: bool) -> None:
        self.pieces, self.settled, self.occluded = tuple(pieces), settled, occluded
        self.moving, self.failure = False, None


def test_views_of_a_sequence_give_the_log_of_its_truth() -> None:
    """record_from_views (the video path) with views made from the truth frames, σ 0.1 mm /
    0.1°: the same log as the truth, the game started from the first view's poses and σ."""
    seq = synth_sequence.build_sequence(1, foul=True)
    truth = synth_sequence.events_json(seq)
    area = seq.layout.play_area_mm
    views = [_View(frame_detections(f, area, sigma_mm=0.1, sigma_deg=0.1), f["settled"],
                   f["hand"]) for f in truth["frames"]]
    rec = record_from_views(truth, views, area, accept_flags=True)
    check_against_truth(rec, truth)
    start = rec.events[0]
    assert {s.id for s in start.ships} == {s["id"] for s in truth["ships"]}
    assert all(s.sigma_mm == 0.1 and s.sigma_deg == 0.1 for s in start.ships)


def test_a_ship_the_first_view_lacks_is_named() -> None:
    seq = synth_sequence.build_sequence(1, max_frames=5)
    truth = synth_sequence.events_json(seq)
    pieces = frame_detections(truth["frames"][0], seq.layout.play_area_mm)
    assert len(seen_ships(truth, pieces)) == len(truth["ships"])
    missing = truth["ships"][2]["id"]
    rest = [d for d in pieces if d.track_id != missing]
    with pytest.raises(ValueError, match=rf"ships\[2\]: {missing} .* was not detected"):
        seen_ships(truth, rest)
