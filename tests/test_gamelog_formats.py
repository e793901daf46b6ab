"""Round trips: events ↔ JSON ↔ one-line text, JSON Lines ↔ events, events → notation →
actions; malformed input is refused naming the field or the line."""

from __future__ import annotations

import itertools
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armada_vision.gamelog import (
    Correction,
    Event,
    Flagged,
    GameLogError,
    Move,
    SetupChecked,
    Shot,
    event_from_json,
    parse_event,
    replay_state,
    states_after_each_event,
)
from armada_vision.gamelog.jsonl import dumps_jsonl, loads_jsonl, read_jsonl, write_jsonl
from armada_vision.gamelog.notation import action_text, parse_notation, to_notation
from armada_vision.gamelog.scripted import scripted_game
from armada_vision.geometry.pose import Pose
from armada_vision.rules.verdict import Verdict

AREA = ((0.0, 0.0), (600.0, 0.0), (600.0, 600.0), (0.0, 600.0))


GAME = list(scripted_game().events)


def test_the_played_game_has_every_kind_of_event() -> None:
    kinds = {e.kind for e in GAME}
    assert kinds == {"started", "setup", "move", "shot", "damage", "sinking", "turn_end",
                     "flagged", "correction", "undo"}


@pytest.mark.parametrize("event", GAME, ids=lambda e: f"{e.n}-{e.kind}")
def test_every_event_round_trips_through_json_and_text(event: Event) -> None:
    assert event_from_json(json.loads(json.dumps(event.to_json()))) == event
    line = str(event)
    assert "\n" not in line and line.split()[0] == event.kind
    assert parse_event(line) == event


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
coord = st.floats(-1e4, 1e4, allow_nan=False)
poses = st.builds(Pose, coord, coord, st.floats(-720, 720, allow_nan=False))
texts = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(before=poses, after=poses, margin=finite, yes=st.booleans(), reason=texts,
       steps=st.lists(poses, max_size=4), frame=texts)
def test_any_move_round_trips_exactly(before, after, margin, yes, reason, steps, frame) -> None:
    v = Verdict(yes, False, reason, "move", margin_mm=margin, steps=tuple(steps))
    e = Move(game_id="g", n=5, player="A", ship="S1", before=before, after=after, verdict=v,
             sigma_mm=0.3, sigma_deg=0.4, frame=frame)
    assert parse_event(str(e)) == e
    assert event_from_json(json.loads(json.dumps(e.to_json()))) == e


@settings(max_examples=80, deadline=None)
@given(note=texts | st.sampled_from(['a "b" c', "x=y z", "[1, 2", "{}", " lead", "12", "null",
                                     "tab\there", "line\u2028sep", "é è"]),
       target=st.integers(1, 10**6))
def test_free_text_never_breaks_the_one_line_form(note: str, target: int) -> None:
    e = Correction(game_id="g", n=target + 1, target=target, resolution="accept", note=note)
    line = str(e)
    assert len(line.splitlines()) == 1
    assert parse_event(line) == e


@pytest.mark.parametrize(("data", "message"), [
    ({"kind": "jump", "game_id": "g", "n": 2}, "kind: unknown event kind 'jump'"),
    ({"kind": "turn_end", "game_id": "g", "n": 2}, "turn_end.player: missing"),
    ({"kind": "turn_end", "game_id": "g", "n": "2", "player": "A"},
     "turn_end.n: expected a whole number"),
    ({"kind": "turn_end", "game_id": "g", "n": 0, "player": "A"}, "turn_end.n: expected"),
    ({"kind": "turn_end", "game_id": "g", "n": 2, "player": "A", "colour": "red"},
     "turn_end.colour: unknown field"),
    ({"kind": "move", "game_id": "g", "n": 2, "player": "A", "ship": "L1",
      "before": [0, 0, 0], "after": [0, 0], "verdict": {"yes": True, "in_doubt": False,
                                                         "reason": "", "decided_by": "x"}},
     r"move.after: expected \[x_mm, y_mm, heading_deg\]"),
    ({"kind": "move", "game_id": "g", "n": 2, "player": "A", "ship": "L1",
      "before": [0, 0, 0], "after": [0, 0, 0], "verdict": {"yes": True, "in_doubt": True,
                                                            "reason": "", "decided_by": "x"}},
     "move.verdict.yes: a verdict in doubt is never yes"),
    ({"kind": "correction", "game_id": "g", "n": 3, "target": 2, "resolution": "maybe"},
     "correction.resolution: expected one of"),
    ({"kind": "flagged", "game_id": "g", "n": 3, "reason": "r",
      "changes": [{"ship": "L1", "before": [0, 0, "x"], "after": None}]},
     r"flagged.changes\[0\].before\[2\]: expected a number"),
])
def test_malformed_events_name_the_field(data: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        event_from_json(data)


def test_jsonl_round_trip_through_a_file(tmp_path) -> None:
    path = tmp_path / "game.jsonl"
    assert write_jsonl(GAME, path) == len(GAME)
    assert read_jsonl(path) == GAME
    assert len(path.read_text(encoding="utf-8").splitlines()) == len(GAME)


@pytest.mark.parametrize(("line", "message"), [
    ('{"kind": "turn_end", "game_id": "club-7", "n": 99, "player": "A"', "not valid JSON"),
    ('{"kind": "turn_end", "game_id": "club-7", "n": 99}', "turn_end.player: missing"),
    ('{"kind": "turn_end", "game_id": "club-7", "n": 99, "player": "A"}',
     f"event numbered 99, expected {len(GAME) + 1}"),
    ("[1, 2]", "expected a JSON object"),
])
def test_a_bad_jsonl_line_is_named(tmp_path, line: str, message: str) -> None:
    lines = dumps_jsonl(GAME).splitlines()
    lines.insert(len(GAME), line)            # after the last good line
    bad_no = len(GAME) + 1
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(GameLogError, match=rf"bad.jsonl line {bad_no}: .*{message}"):
        read_jsonl(path)


def test_a_jsonl_line_that_is_not_utf8_is_named(tmp_path) -> None:
    path = tmp_path / "bin.jsonl"
    path.write_bytes(dumps_jsonl(GAME[:3]).encode() + b'{"kind": "\xff"}\n')
    with pytest.raises(GameLogError, match=r"bin\.jsonl line 4: not UTF-8"):
        read_jsonl(path)


def test_the_fold_is_the_same_from_jsonl() -> None:
    assert replay_state(loads_jsonl(dumps_jsonl(GAME))) == replay_state(GAME)


def test_states_after_each_event_end_in_the_final_state() -> None:
    pairs = states_after_each_event(GAME)
    assert [e for e, _ in pairs] == GAME
    assert pairs[-1][1] == replay_state(GAME)
    for i, (_e, s) in enumerate(pairs):                # each step equals a fold of its prefix
        assert s == replay_state(GAME[: i + 1])


def test_notation_header_and_lines() -> None:
    text = to_notation(GAME)
    head, body = text.split("\n\n")
    assert '[Game "club-7"]' in head and '[Players "A B"]' in head
    assert '[Fleet "A: L1 L2"]' in head and '[Fleet "B: M1 S1"]' in head
    assert '[Table "60×60 cm table"]' in head and "[Setup \"error: enemies L1 and S1" in head
    lines = body.splitlines()
    assert lines[0].startswith("1. A: L1 x S1 port hit depth 5.1mm; S1 sunk; L1 move 1 step "
                               "(+10°) legal margin")
    assert lines[0].endswith("; end")
    assert lines[1].startswith("2. B: M1 move 2 steps (")
    assert "illegal {M1 has already moved this turn}" in lines[1]


def test_notation_parses_back_to_the_actions() -> None:
    notation = parse_notation(to_notation(GAME))
    pairs = states_after_each_event(GAME)
    expected = [(e, before) for (_, before), (e, _) in itertools.pairwise(pairs)
                if action_text(e) is not None]
    assert len(notation.actions) == len(expected)
    for a, (e, before) in zip(notation.actions, expected, strict=True):
        assert (a.turn, a.player) == (before.turn, before.player)
        if isinstance(e, Move):
            assert (a.kind, a.ship) == ("move", e.ship)
            assert a.outcome == ("legal" if e.verdict.yes else
                                 "in doubt" if e.verdict.in_doubt else "illegal")
            assert len(a.turns_deg) == len(e.steps)
            if e.verdict.margin_mm is not None:
                assert math.isclose(a.margin_mm, e.verdict.margin_mm, abs_tol=0.051)
        elif isinstance(e, Shot):
            assert (a.kind, a.ship, a.target, a.side) == ("shot", e.shooter, e.target,
                                                          e.verdict.side)
            assert a.outcome == ("hit" if e.verdict.yes else "miss")
            assert math.isclose(a.margin_mm, e.verdict.margin_mm, abs_tol=0.051)
        elif isinstance(e, Flagged):
            assert (a.kind, a.ref) == ("flag", e.n)
        elif isinstance(e, Correction):
            assert (a.kind, a.ref, a.outcome) == ("correct", e.target, e.resolution)
        else:
            assert a.kind in {"sunk", "end", "undo", "damage", "result"}
    assert notation.header["Game"] == "club-7"


def test_setup_goes_in_the_header_only() -> None:
    assert action_text(next(e for e in GAME if isinstance(e, SetupChecked))) is None


def test_bad_notation_names_the_line() -> None:
    text = to_notation(GAME) + "3. A: L1 teleports\n"
    n = len(text.splitlines())
    with pytest.raises(ValueError, match=rf"line {n}: not an action: 'L1 teleports'"):
        parse_notation(text)
    with pytest.raises(ValueError, match="line 1: expected"):
        parse_notation("hello\n")


def test_timeline_for_a_page_is_strict_json_with_the_state_after_each_event() -> None:
    from armada_vision.gamelog.notation import timeline_json

    timeline = timeline_json(GAME)
    json.dumps(timeline, allow_nan=False)                  # a browser can parse it
    assert [t["event"]["n"] for t in timeline] == [e.n for e in GAME]
    final = replay_state(GAME)
    last = timeline[-1]["state"]
    assert last["player"] == final.player and last["turn"] == final.turn
    assert {s["id"] for s in last["ships"]} == {s.id for s in final.table.ships}
    undone = [t["event"]["n"] for t in timeline if t["undone"]]
    assert undone == sorted(final.undone) and undone
    move = next(t for t in timeline if t["event"]["kind"] == "move")
    l1 = next(s for s in move["state"]["ships"] if s["id"] == "L1")
    assert l1["stern"] == move["event"]["after"][:2]


def test_timeline_has_no_infinity() -> None:
    from armada_vision.gamelog.notation import timeline_json

    last = GAME[-1]                                        # replaced by an odd shot
    odd = Shot(game_id=last.game_id, n=last.n, player="B", shooter="M1", target="L1",
               verdict=Verdict.no("nothing to measure", decided_by="range",
                                  margin_mm=-math.inf))
    events = [*GAME[:-1], odd]
    out = timeline_json(events)[-1]
    assert out["event"]["verdict"]["margin_mm"] is None
    json.dumps(out, allow_nan=False)
