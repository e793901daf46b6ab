"""The automatic game log: events with their evidence, an append-only SQLite store, the
recorder that turns settled tables and phone taps into events, JSON Lines and a PGN-like
notation, and replay (state as a fold over events; re-adjudication with the current rules).

Imports geometry, rules, vision types and the stdlib only (tests/test_layers.py).
"""

from armada_vision.gamelog.events import (
    EVENT_TYPES,
    Change,
    Correction,
    Damage,
    Event,
    Flagged,
    GameStarted,
    Move,
    Result,
    SetupChecked,
    Shot,
    Sinking,
    TurnEnd,
    Undo,
    event_from_json,
    parse_event,
)
from armada_vision.gamelog.jsonl import dumps_jsonl, loads_jsonl, read_jsonl, write_jsonl
from armada_vision.gamelog.judge import Judge, RulesJudge
from armada_vision.gamelog.notation import (
    parse_notation,
    state_to_json,
    timeline_json,
    to_notation,
)
from armada_vision.gamelog.recorder import Recorder, name_ships
from armada_vision.gamelog.replay import ReplayReport, load_games, readjudicate
from armada_vision.gamelog.state import (
    LogError,
    LogState,
    judging_table,
    replay_state,
    states_after_each_event,
)
from armada_vision.gamelog.store import GameInfo, GameLogError, GameStore, StoredEvent

__all__ = [
    "EVENT_TYPES",
    "Change",
    "Correction",
    "Damage",
    "Event",
    "Flagged",
    "GameInfo",
    "GameLogError",
    "GameStarted",
    "GameStore",
    "Judge",
    "LogError",
    "LogState",
    "Move",
    "Recorder",
    "ReplayReport",
    "Result",
    "RulesJudge",
    "SetupChecked",
    "Shot",
    "Sinking",
    "StoredEvent",
    "TurnEnd",
    "Undo",
    "dumps_jsonl",
    "event_from_json",
    "judging_table",
    "load_games",
    "loads_jsonl",
    "name_ships",
    "parse_event",
    "parse_notation",
    "read_jsonl",
    "readjudicate",
    "replay_state",
    "state_to_json",
    "states_after_each_event",
    "timeline_json",
    "to_notation",
    "write_jsonl",
]
