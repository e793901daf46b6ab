"""A compact human-readable notation in the spirit of PGN (docs/gamelog.md).

A header of ``[Key "value"]`` tags (game, date, players, fleets, variant, table, calibration,
setup, result), a blank line, then one line per turn: ``N. PLAYER:`` and that turn's actions
separated by ``;``. Reasons are ``{comments}``. Angles are degrees, margins millimetres::

    3. A: L1 move 1 step (+12°) legal margin 1.8mm; L1 x S2 port hit depth 4.1mm; end

:func:`parse_notation` reads it back to the header and the sequence of actions.

>>> from armada_vision.gamelog.events import GameStarted, TurnEnd
>>> from armada_vision.geometry.pose import Pose
>>> from armada_vision.rules.table import Ship
>>> start = GameStarted(game_id="g", n=1, players=("A", "B"), date="2026-11-23",
...     ships=(Ship("L1", "A", "large", Pose(100, 100, 90)),), play_area=((0, 0), (9, 0), (9, 9)))
>>> text = to_notation([start, TurnEnd(game_id="g", n=2, player="A")])
>>> print(text.splitlines()[-1])
1. A: end
>>> parse_notation(text).actions[0].kind
'end'
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from armada_vision.gamelog.events import (
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
)
from armada_vision.gamelog.state import LogState, states_after_each_event
from armada_vision.geometry.pose import angle_diff_deg
from armada_vision.rules.verdict import Verdict


@dataclass(frozen=True, slots=True)
class Action:
    """One action read back from the notation.

    ``kind``: ``move`` | ``shot`` | ``damage`` | ``sunk`` | ``end`` | ``flag`` | ``correct`` |
    ``undo`` | ``result``. ``outcome``: legal / illegal / in doubt (moves), hit / miss / in doubt
    (shots), the resolution (corrections), the winner (result). ``ref``: the event number a
    flag, correction or undo names. ``turns_deg``: heading change of each step.
    """

    turn: int
    player: str
    kind: str
    ship: str | None = None
    target: str | None = None
    outcome: str | None = None
    margin_mm: float | None = None
    turns_deg: tuple[float, ...] = ()
    side: str | None = None
    ref: int | None = None
    reason: str | None = None
    damage: int | None = None


@dataclass(frozen=True, slots=True)
class Notation:
    header: dict[str, str]
    actions: tuple[Action, ...]


def _comment(text: str) -> str:
    return "{" + text.replace("{", "(").replace("}", ")").replace("\n", " ") + "}"


def _mm(v: float | None, label: str = "margin") -> str:
    return "" if v is None else f" {label} {v:.1f}mm"


def _outcome(v: Verdict, yes: str, no: str) -> str:
    return yes if v.yes else ("in doubt" if v.in_doubt else no)


def _margin_label(v: Verdict) -> str:
    return {"range": "depth", "obstruction": "clearance"}.get(v.decided_by, "margin")


def _turns(e: Move) -> list[float]:
    out, prev = [], e.before.heading_deg
    for p in e.verdict.steps:
        out.append(angle_diff_deg(p.heading_deg, prev))
        prev = p.heading_deg
    return out


def action_text(e: Event) -> str | None:
    """One event as a notation token; None for events the notation leaves implicit (a game
    start and setup go in the header, a hit's damage and an automatic turn end are implied)."""
    if isinstance(e, Move):
        v = e.verdict
        k = len(v.steps)
        if k:
            turns = ", ".join(f"{t:+.0f}°" for t in _turns(e))
            what = f"move {k} step{'s' if k > 1 else ''} ({turns})"
        else:
            a = e.after
            what = f"move to ({a.x_mm:.0f}, {a.y_mm:.0f}, {a.heading_deg:.0f}°)"
        out = _outcome(v, "legal", "illegal")
        reason = "" if v.yes else " " + _comment(v.reason)
        return f"{e.ship} {what} {out}{reason}{_mm(v.margin_mm)}"
    if isinstance(e, Shot):
        v = e.verdict
        side = f" {v.side}" if v.side else ""
        reason = "" if v.yes else " " + _comment(v.reason)
        return (f"{e.shooter} x {e.target}{side} {_outcome(v, 'hit', 'miss')}{reason}"
                f"{_mm(v.margin_mm, _margin_label(v))}")
    if isinstance(e, Damage):
        return None if e.cause is not None else f"{e.ship} damage {e.damage}"
    if isinstance(e, Sinking):
        return f"{e.ship} sunk"
    if isinstance(e, TurnEnd):
        return "end" if e.reason == "tap" else None
    if isinstance(e, Flagged):
        return f"flag #{e.n}" + ("" if e.cause is not None else " " + _comment(e.reason))
    if isinstance(e, Correction):
        return f"correct #{e.target} {e.resolution}" + (f" {_comment(e.note)}" if e.note else "")
    if isinstance(e, Undo):
        return f"undo #{e.target}" + (f" {_comment(e.note)}" if e.note else "")
    if isinstance(e, Result):
        return f"{e.winner} wins {_comment(e.reason)}"
    return None


def _tag(key: str, value: str) -> str:
    return f'[{key} "{value.replace(chr(92), "/").replace(chr(34), chr(39))}"]'


def to_notation(events: Sequence[Event]) -> str:
    """The notation of one game's events (numbered 1, 2, 3, …, beginning with its start)."""
    pairs = states_after_each_event(events)
    start = events[0]
    if not isinstance(start, GameStarted):
        raise ValueError("events: the notation needs the game start first")
    head = [_tag("Game", start.game_id), _tag("Date", start.date),
            _tag("Players", " ".join(start.players))]
    head += [_tag("Fleet", f"{p}: " + " ".join(s.id for s in start.fleet(p)))
             for p in start.players]
    head += [_tag("Variant", start.variant), _tag("Table", start.table)]
    if start.calibration:
        head.append(_tag("Calibration", start.calibration))
    if start.flagships:
        head.append(_tag("Flagships", " ".join(start.flagships)))
    for e in events:
        if isinstance(e, SetupChecked):
            head.append(_tag("Setup", f"{_outcome(e.verdict, 'ok', 'error')}: {e.verdict.reason}"))
    final = pairs[-1][1]
    if final.result is not None:
        head.append(_tag("Result", final.result.winner))

    lines: list[str] = []
    key: tuple[int, str] | None = None
    prev = pairs[0][1]
    for e, after in pairs[1:]:
        token = action_text(e)
        if token is not None:
            k = (prev.turn, prev.player)
            if k != key:
                lines.append(f"{k[0]}. {k[1]}:")
                key = k
                lines[-1] += " " + token
            else:
                lines[-1] += "; " + token
        prev = after
    return "\n".join(head) + "\n\n" + "\n".join(lines) + ("\n" if lines else "")


_HEAD = re.compile(r'^\[(\w+) "(.*)"\]$')
_LINE = re.compile(r"^(\d+)\.\s+(\S+):\s*(.*)$")
_MARGIN = r"(?: (?:margin|depth|clearance) (-?[\d.]+|nan|inf|-inf)mm)?"
_COMMENT = r"(?: \{([^}]*)\})?"
_MOVE = re.compile(r"^(\S+) move (?:(\d+) steps? \(([^)]*)\)|to \(([^)]*)\)) "
                   r"(legal|illegal|in doubt)" + _COMMENT + _MARGIN + "$")
_SHOT = re.compile(r"^(\S+) x (\S+)(?: (port|starboard))? (hit|miss|in doubt)"
                   + _COMMENT + _MARGIN + "$")
_OTHER = [
    ("damage", re.compile(r"^(?P<ship>\S+) damage (?P<damage>\d+)$")),
    ("sunk", re.compile(r"^(?P<ship>\S+) sunk$")),
    ("end", re.compile(r"^end$")),
    ("flag", re.compile(r"^flag #(?P<ref>\d+)" + r"(?: \{(?P<reason>[^}]*)\})?$")),
    ("correct", re.compile(r"^correct #(?P<ref>\d+) (?P<outcome>\w+)"
                           + r"(?: \{(?P<reason>[^}]*)\})?$")),
    ("undo", re.compile(r"^undo #(?P<ref>\d+)" + r"(?: \{(?P<reason>[^}]*)\})?$")),
    ("result", re.compile(r"^(?P<outcome>\S+) wins" + r"(?: \{(?P<reason>[^}]*)\})?$")),
]


def _split_actions(text: str) -> list[str]:
    """Split on ``;`` outside ``{comments}``."""
    parts, depth, cur = [], 0, []
    for c in text:
        depth += (c == "{") - (c == "}")
        if c == ";" and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
    parts.append("".join(cur).strip())
    return [p for p in parts if p]


def _parse_action(turn: int, player: str, text: str) -> Action:
    m = _MOVE.match(text)
    if m:
        ship, k, turns, _to, out, reason, margin = m.groups()
        degs = tuple(float(t.strip().rstrip("°")) for t in turns.split(",")) if k else ()
        if k and len(degs) != int(k):
            raise ValueError(f"{text!r}: {k} steps but {len(degs)} turns")
        return Action(turn, player, "move", ship=ship, outcome=out, reason=reason,
                      margin_mm=None if margin is None else float(margin), turns_deg=degs)
    m = _SHOT.match(text)
    if m:
        shooter, target, side, out, reason, margin = m.groups()
        return Action(turn, player, "shot", ship=shooter, target=target, side=side,
                      outcome=out, reason=reason,
                      margin_mm=None if margin is None else float(margin))
    for kind, rx in _OTHER:
        m = rx.match(text)
        if m:
            g = m.groupdict()
            return Action(turn, player, kind, ship=g.get("ship"), outcome=g.get("outcome"),
                          reason=g.get("reason"),
                          ref=int(g["ref"]) if g.get("ref") else None,
                          damage=int(g["damage"]) if g.get("damage") else None)
    raise ValueError(f"not an action: {text!r}")


def parse_notation(text: str) -> Notation:
    """The header and actions of a game in the notation; ValueError names the bad line."""
    header: dict[str, str] = {}
    actions: list[Action] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        m = _HEAD.match(line)
        if m:
            key = m.group(1)
            header[key] = header[key] + "\n" + m.group(2) if key in header else m.group(2)
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError(f"line {i}: expected '[Tag \"value\"]' or 'N. PLAYER: actions'")
        turn, player = int(m.group(1)), m.group(2)
        try:
            actions += [_parse_action(turn, player, a) for a in _split_actions(m.group(3))]
        except ValueError as e:
            raise ValueError(f"line {i}: {e}") from None
    return Notation(header, tuple(actions))


def state_to_json(state: LogState) -> dict[str, Any]:
    """A folded state as JSON for a page that draws the table (table mm, degrees): ships with
    stern, tip, heading, damage and σ; whose turn; actions used; sunk, missing and stray
    pieces; pending flags; the result."""
    cfg = state.config
    ships = []
    for s in state.table.ships:
        tip = s.tip_mm(cfg)
        ships.append({"id": s.id, "player": s.player, "size": s.size.value, "color": s.color,
                      "stern": [s.pose.x_mm, s.pose.y_mm], "tip": [tip[0], tip[1]],
                      "heading": s.pose.heading_deg, "damage": s.damage, "sunk": s.sunk,
                      "missing": s.id in state.missing, "sigma_mm": s.sigma_mm,
                      "sigma_deg": s.sigma_deg})
    return {"game_id": state.game_id, "players": list(state.players), "player": state.player,
            "turn": state.turn, "actions": state.actions, "moved": sorted(state.moved),
            "fired": dict(state.fired), "ships": ships, "sunk": [s.id for s in state.sunk],
            "strays": [{"label": k, "stern": [p.x_mm, p.y_mm], "heading": p.heading_deg}
                       for k, p in state.strays],
            "play_area": [list(p) for p in state.table.play_area.polygon_mm],
            "pending_flags": list(state.pending),
            "result": None if state.result is None else {"winner": state.result.winner,
                                                         "reason": state.result.reason},
            "last_n": state.last_n}


def timeline_json(events: Sequence[Event]) -> list[dict[str, Any]]:
    """For a page stepping through a game: per event its JSON, its notation token (None when
    the notation leaves it implicit), whether it was undone, and the state after it. Strict
    JSON: non-finite numbers become null.

    >>> from armada_vision.gamelog.events import GameStarted, TurnEnd
    >>> start = GameStarted(game_id="g", n=1, players=("A", "B"), date="2026-11-23",
    ...                     ships=(), play_area=((0, 0), (9, 0), (9, 9)))
    >>> [(t["event"]["kind"], t["text"], t["state"]["player"])
    ...  for t in timeline_json([start, TurnEnd(game_id="g", n=2, player="A")])]
    [('started', None, 'A'), ('turn_end', 'end', 'B')]
    """
    pairs = states_after_each_event(events)
    undone = pairs[-1][1].undone if pairs else frozenset()
    return [_strict({"event": e.to_json(), "text": action_text(e), "undone": e.n in undone,
                     "state": state_to_json(s)}) for e, s in pairs]


def _strict(v: Any) -> Any:
    """Non-finite floats (an unbounded margin) as None: browsers' JSON has no Infinity."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, dict):
        return {k: _strict(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_strict(x) for x in v]
    return v
