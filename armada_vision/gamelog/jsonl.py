"""JSON Lines: one event per line, as stored (``Event.to_json``), for export and import.

Import checks every line and names the first bad one (JSON, fields, numbering); nothing is
dropped silently.

>>> from armada_vision.gamelog.events import GameStarted
>>> start = GameStarted(game_id="g", n=1, players=("A", "B"), date="2026-11-23", ships=(),
...                     play_area=((0, 0), (600, 0), (600, 600)))
>>> text = dumps_jsonl([start])
>>> loads_jsonl(text) == [start]
True
>>> loads_jsonl(text + '{"kind": "turn_end", "game_id": "g", "n": 3, "player": "A"}\\n')
Traceback (most recent call last):
armada_vision.gamelog.store.GameLogError: line 2: game g event numbered 3, expected 2
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from armada_vision.gamelog.events import Event, event_from_json
from armada_vision.gamelog.store import GameLogError, encode_event


def dumps_jsonl(events: Iterable[Event]) -> str:
    """The events as JSON Lines text (UTF-8, one compact object per line)."""
    return "".join(encode_event(e) + "\n" for e in events)


def write_jsonl(events: Iterable[Event], path: str | Path) -> int:
    """Write events to ``path``; returns how many."""
    events = list(events)
    Path(path).write_text(dumps_jsonl(events), encoding="utf-8")
    return len(events)


def loads_jsonl(text: str, source: str = "") -> list[Event]:
    """Events from JSON Lines text. Blank lines are allowed; every other line must be one
    event, games numbered 1, 2, 3, … in order. GameLogError names ``source`` and the line."""
    where = f"{source} " if source else ""
    events: list[Event] = []
    last: dict[str, int] = {}
    for i, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            ev = event_from_json(json.loads(line))
        except json.JSONDecodeError as e:
            raise GameLogError(f"{where}line {i}: not valid JSON ({e.msg}, column {e.colno})"
                               ) from None
        except ValueError as e:
            raise GameLogError(f"{where}line {i}: {e}") from None
        expected = last.get(ev.game_id, 0) + 1
        if ev.n != expected:
            raise GameLogError(f"{where}line {i}: game {ev.game_id} event numbered {ev.n}, "
                               f"expected {expected}")
        last[ev.game_id] = ev.n
        events.append(ev)
    return events


def read_jsonl(path: str | Path) -> list[Event]:
    """Events from a JSON Lines file; GameLogError names the file and the bad line."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameLogError(f"{p}: no such file") from None
    except UnicodeDecodeError as e:
        line = p.read_bytes()[: e.start].count(b"\n") + 1
        raise GameLogError(f"{p} line {line}: not UTF-8 text") from None
    except OSError as e:
        raise GameLogError(f"{p}: cannot read ({e.strerror})") from None
    return loads_jsonl(text, str(p))
