"""Invariants of the log under random play (hypothesis): whatever happens on the table and the
phone, the recorder's state is the fold of its events, events are numbered without gaps, every
format round-trips, and the turn rules of rules.md §3 hold in the folded state."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armada_vision.gamelog import (
    GameStore,
    Move,
    Recorder,
    parse_event,
    replay_state,
    states_after_each_event,
)
from armada_vision.gamelog.jsonl import dumps_jsonl, loads_jsonl
from armada_vision.gamelog.notation import parse_notation, to_notation
from armada_vision.gamelog.scripted import ScriptedTable
from armada_vision.geometry.pose import Pose
from armada_vision.rules.table import Ship

AREA = ((0.0, 0.0), (600.0, 0.0), (600.0, 600.0), (0.0, 600.0))
SHIPS = (Ship("L1", "A", "large", Pose(150, 150, 45)),
         Ship("S1", "A", "small", Pose(300, 120, 90)),
         Ship("M1", "B", "medium", Pose(420, 420, 225)),
         Ship("S2", "B", "small", Pose(180, 420, 300)))
IDS = [s.id for s in SHIPS]

ops = st.one_of(
    st.tuples(st.just("step"), st.sampled_from(IDS),
              st.lists(st.floats(-60, 60), min_size=1, max_size=2)),
    st.tuples(st.just("knock"), st.sampled_from(IDS), st.floats(-6, 6), st.floats(-6, 6)),
    st.tuples(st.just("shot"), st.sampled_from(IDS), st.sampled_from(IDS)),
    st.tuples(st.just("remove"), st.sampled_from(IDS)),
    st.tuples(st.just("end")),
    st.tuples(st.just("undo")),
    st.tuples(st.just("hand")),
)


def play(rec: Recorder, table: ScriptedTable, op: tuple) -> None:
    kind = op[0]
    if kind == "step" and table.poses[op[1]] is not None:
        table.step(op[1], op[2])
        rec.observe(table.view(), settled=False)          # the hand is still there
        rec.observe(table.view())
    elif kind == "knock" and table.poses[op[1]] is not None:
        table.place(op[1], table.poses[op[1]].moved(op[2], op[3]))
        rec.observe(table.view())
    elif kind == "shot":
        rec.declare_shot(op[1], op[2])
    elif kind == "remove":
        table.remove(op[1])
        rec.observe(table.view())
    elif kind == "end":
        rec.end_turn()
    elif kind == "undo":
        rec.undo()
    elif kind == "hand":
        rec.observe(table.view(), occluded=True)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ops, min_size=1, max_size=8))
def test_random_play_keeps_the_log_consistent(script: list[tuple]) -> None:
    table = ScriptedTable(SHIPS)
    rec = Recorder.start(None, game_id="prop", players=("A", "B"), ships=SHIPS, play_area=AREA,
                         pieces=table.view())
    seen = 1
    for op in script:
        play(rec, table, op)
        events = rec.events
        assert [e.n for e in events] == list(range(1, len(events) + 1))
        for e in events[seen:]:
            assert parse_event(str(e)) == e
        seen = len(events)
        state = rec.state
        assert state == replay_state(events)                    # incremental == full fold
        assert state.actions <= 3                                # §3
        assert all(state.shots_fired(s.id) <= s.pips for s in state.table.ships)
        assert {s.id for s in state.table.ships} | {s.id for s in state.sunk} == set(IDS)
    events = list(rec.events)
    assert loads_jsonl(dumps_jsonl(events)) == events
    assert states_after_each_event(events)[-1][1] == rec.state
    notation = parse_notation(to_notation(events))
    moves = [a for a in notation.actions if a.kind == "move"]
    assert len(moves) == sum(isinstance(e, Move) for e in events)
    for e in events:
        if isinstance(e, Move) and e.verdict.yes:
            assert 1 <= len(e.steps) <= {"small": 4, "medium": 2, "large": 1}[
                next(s.size.value for s in SHIPS if s.id == e.ship)]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(st.lists(ops, min_size=1, max_size=6))
def test_a_game_resumed_from_the_store_continues_identically(tmp_path_factory, script) -> None:
    """Recording with a restart in the middle gives the same log as recording straight on."""
    path = tmp_path_factory.mktemp("prop") / "log.sqlite"
    half = len(script) // 2
    straight_table = ScriptedTable(SHIPS)
    straight = Recorder.start(None, game_id="g", players=("A", "B"), ships=SHIPS,
                              play_area=AREA, pieces=straight_table.view())
    for op in script:
        play(straight, straight_table, op)
    table = ScriptedTable(SHIPS)
    with GameStore(path) as store:
        rec = Recorder.start(store, game_id="g", players=("A", "B"), ships=SHIPS,
                             play_area=AREA, pieces=table.view())
        for op in script[:half]:
            play(rec, table, op)
    with GameStore(path) as store:
        rec = Recorder.resume(store, "g", pieces=table.view())
        for op in script[half:]:
            play(rec, table, op)
        stored = store.events("g")
    assert [replace(e, at="") for e in stored] == [replace(e, at="") for e in straight.events]
