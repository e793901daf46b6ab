"""End to end: the rendered frames of a sample sequence through the real tracker
(vision.track) and the recorder, the game started from the first settled view (the ships where
the camera saw them, with their σ, as `armada-vision serve` starts one), shots and turn ends
declared as the phone would at the truth's frames, and the players accepting each flagged move
so the game goes on as rendered.

Minutes of CPU (detection on every changed frame), so it runs only with ARMADA_E2E=1. The
truth is the renderer's events.json, never a detector."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import pytest

from armada_vision.gamelog import Flagged, Move, Recorder, Shot
from armada_vision.gamelog.truth import log_actions, record_sequence, truth_actions

ROOT = Path(__file__).resolve().parent.parent
SEQ = ROOT / "sample_images" / "sequences"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("ARMADA_E2E") != "1",
                       reason="minutes of detection: set ARMADA_E2E=1 to run"),
]


@cache
def record_video(name: str) -> tuple[Recorder, dict]:
    return record_sequence(SEQ / name, game_id=name)


def _kinds(actions: list[tuple]) -> list[tuple]:
    """Actions without their verdicts: what happened, by whom, to whom."""
    return [a[:3] if a[0] == "shot" else a[:2] for a in actions if a[0] != "damage"
            and a[0] != "sinking"]


@pytest.mark.parametrize("name", ["demo", "skirmish"])
def test_every_action_is_logged_for_the_right_ship_and_no_verdict_is_confidently_wrong(
        name: str) -> None:
    """What works from video today: every true move, shot and turn end is in the log, in
    order, for the right ships; no ship is seen moving when it did not; a legal move or a hit
    the log does not call yes is *in doubt* (never a confident no), and the foul is never a
    yes. The only other flags are true sinkings the log could not explain (their hits were
    in doubt)."""
    rec, truth = record_video(name)
    assert _kinds(log_actions(rec.events)) == _kinds(truth_actions(truth))
    true_moves = [e for e in truth["events"] if e["type"] == "move"]
    moves = [e for e in rec.events if isinstance(e, Move)]
    for mv, tm in zip(moves, true_moves, strict=True):
        assert mv.ship == tm["ship"]
        if tm["legal"]:
            assert mv.verdict.yes or mv.verdict.in_doubt, (mv.ship, mv.verdict.reason)
        else:
            assert not mv.verdict.yes, (mv.ship, mv.verdict.reason)
            assert any(isinstance(e, Flagged) and e.cause == mv.n for e in rec.events)
    hits = {(e["shooter"], e["target"]) for e in truth["events"]
            if e["type"] == "shot" and e["hit"]}
    for shot in (e for e in rec.events if isinstance(e, Shot)):
        assert (shot.shooter, shot.target) in hits
        assert shot.verdict.yes or shot.verdict.in_doubt, shot.verdict.reason
    sunk = {e["ship"] for e in truth["events"] if e["type"] == "sunk"}
    for flag in (e for e in rec.events if isinstance(e, Flagged) and e.cause is None):
        (change,) = flag.changes
        assert change.ship in sunk and change.after is None, flag.reason


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "measured on both sequences: pose errors of 0.2-1 mm and 0.1-0.9° (a per-piece bias that a "
    "mean over frames does not remove) and σ of that size or more make the §7 allowance between "
    "a ship's two poses larger than the §4 placement tolerance, so legal moves are 'no, in "
    "doubt', and so are hits on ships with a σ of several mm; see docs/gamelog.md, 'From video'"))
@pytest.mark.parametrize("name", ["demo", "skirmish"])
def test_the_log_from_video_is_the_true_game(name: str) -> None:
    rec, truth = record_video(name)
    assert log_actions(rec.events) == truth_actions(truth)
