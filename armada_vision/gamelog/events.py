"""Game events: every action on the table, with its evidence, as a frozen value.

Every event names its game (``game_id``), its number in that game (``n``, 1, 2, 3, … with no
gaps), when it happened (``at``, ISO 8601 UTC, may be empty) and optionally the event that caused
it (``cause``, e.g. the damage of a shot names the shot). History is never rewritten: a
correction or an undo is an event too, and the game's state is a fold over the events
(``gamelog.state``). Poses are table-frame mm (+x right, +y away from the viewer), headings
degrees counter-clockwise from +x.

Each event has a JSON form (``to_json`` / ``event_from_json``) and a one-line text form
(``str`` / ``parse_event``) that parses back exactly:

>>> e = TurnEnd(game_id="g1", n=7, player="A", reason="tap")
>>> str(e)
'turn_end game_id=g1 n=7 player=A reason=tap'
>>> parse_event(str(e)) == e
True
>>> c = Correction(game_id="g1", n=9, target=8, resolution="accept", note="we agree")
>>> str(c)
'correction game_id=g1 n=9 target=8 resolution=accept note="we agree"'
>>> parse_event(str(c)) == c
True
"""

from __future__ import annotations

import json
import types
import typing
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from armada_vision.gamelog.codec import (
    config_from_json,
    config_to_json,
    points_from_json,
    pose_from_json,
    pose_to_json,
    ship_from_json,
    ship_to_json,
    verdict_from_json,
    verdict_to_json,
)
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.table import Ship
from armada_vision.rules.verdict import Verdict

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Change:
    """One piece's observed change: ``before``/``after`` poses (table mm), None when the piece
    was not on the table on that side. ``ship`` is a ship id, or ``?<size>`` for a piece that
    belongs to no ship."""

    ship: str
    before: Pose | None
    after: Pose | None

    def to_json(self) -> dict[str, Any]:
        return {"ship": self.ship,
                "before": None if self.before is None else pose_to_json(self.before),
                "after": None if self.after is None else pose_to_json(self.after)}

    @classmethod
    def from_json(cls, v: object, field: str) -> Change:
        if not isinstance(v, dict) or not isinstance(v.get("ship"), str):
            raise ValueError(f"{field}: expected {{ship, before, after}}")
        b, a = v.get("before"), v.get("after")
        return cls(v["ship"], None if b is None else pose_from_json(b, f"{field}.before"),
                   None if a is None else pose_from_json(a, f"{field}.after"))


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """What every event carries; see the module docstring."""

    kind: ClassVar[str] = "event"
    game_id: str
    n: int
    at: str = ""
    cause: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.game_id, str) or not self.game_id or any(
                c.isspace() for c in self.game_id):
            raise ValueError(f"{self.kind}.game_id: expected a name without spaces, "
                             f"got {self.game_id!r}")
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 1:
            raise ValueError(f"{self.kind}.n: expected a whole number ≥ 1, got {self.n!r}")

    def to_json(self) -> dict[str, Any]:
        """``{"kind": …, field: value, …}``; optional fields left empty are left out."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            v = getattr(self, f.name)
            if v is None or (f.default in ("", ()) and v == f.default):
                continue  # optional and empty: left out
            out[f.name] = _encode(v)
        return out

    def __str__(self) -> str:
        return " ".join([self.kind] + [f"{k}={_token(v)}"
                                       for k, v in self.to_json().items() if k != "kind"])


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStarted(Event):
    """A new game: players in turn order, date, the ships as placed (the fleets), variant,
    table layout name, play area (table mm), calibration summary, rules configuration, and how
    it is won (rules.md §6): by default sink every enemy ship; ``flagships`` (ship ids) for
    capture the flagship; ``goal_line`` (two points, table mm, goal side to the left of the
    first → second) and its ``attacker`` for breakthrough."""

    kind: ClassVar[str] = "started"
    players: tuple[str, ...]
    date: str
    ships: tuple[Ship, ...]
    play_area: tuple[Point, ...]
    variant: str = "basic"
    table: str = "table"
    calibration: str = ""
    config: RulesConfig = DEFAULT_CONFIG
    flagships: tuple[str, ...] = ()
    goal_line: tuple[Point, ...] = ()
    attacker: str = ""

    def fleet(self, player: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.player == player)


@dataclass(frozen=True, slots=True, kw_only=True)
class SetupChecked(Event):
    """Result of the setup check (rules.md §2) before the first turn."""

    kind: ClassVar[str] = "setup"
    verdict: Verdict
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Move(Event):
    """A ship seen moved between two settled tables: poses before and after (table mm) with
    their σ (``before_sigma_*``, and ``sigma_*`` for the after pose), the verdict (its ``steps``
    are the reconstructed steps) and the frame the after pose was seen in."""

    kind: ClassVar[str] = "move"
    player: str
    ship: str
    before: Pose
    after: Pose
    verdict: Verdict
    sigma_mm: float = 0.0
    sigma_deg: float = 0.0
    before_sigma_mm: float = 0.0
    before_sigma_deg: float = 0.0
    frame: str = ""

    @property
    def steps(self) -> tuple[Pose, ...]:
        return self.verdict.steps


@dataclass(frozen=True, slots=True, kw_only=True)
class Shot(Event):
    """A shot declared on the phone, with the verdict (ruler placement, side, margin)."""

    kind: ClassVar[str] = "shot"
    player: str
    shooter: str
    target: str
    verdict: Verdict


@dataclass(frozen=True, slots=True, kw_only=True)
class Damage(Event):
    """One damage to ``ship``; ``damage`` is its total after this hit."""

    kind: ClassVar[str] = "damage"
    ship: str
    damage: int
    by: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Sinking(Event):
    """A sunk ship left the table."""

    kind: ClassVar[str] = "sinking"
    ship: str
    frame: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class TurnEnd(Event):
    """``player``'s turn ended: ``reason`` is ``actions`` (three used) or ``tap``."""

    kind: ClassVar[str] = "turn_end"
    player: str
    reason: str = "tap"


@dataclass(frozen=True, slots=True, kw_only=True)
class Result(Event):
    """The game is decided: ``winner`` (a player, or ``draw``) and why."""

    kind: ClassVar[str] = "result"
    winner: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Flagged(Event):
    """A change the recorder cannot explain (a piece knocked, two ships moved at once, a ship
    gone without being sunk) or an illegal move (``cause`` names the move): for the players to
    confirm or correct. ``changes`` are applied to the table (it follows what the camera sees)."""

    kind: ClassVar[str] = "flagged"
    reason: str
    changes: tuple[Change, ...] = ()
    frame: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Correction(Event):
    """The players' answer to a flag (``target``): ``accept`` (it stands; an illegal move then
    counts as the action), ``revert`` / ``restored`` (pieces back as before), or ``set``
    (pieces where ``changes`` say)."""

    kind: ClassVar[str] = "correction"
    target: int
    resolution: str
    changes: tuple[Change, ...] = ()
    note: str = ""

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if self.resolution not in RESOLUTIONS:
            raise ValueError(f"correction.resolution: expected one of {', '.join(RESOLUTIONS)},"
                             f" got {self.resolution!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Undo(Event):
    """Takes back event ``target`` and every event caused by it."""

    kind: ClassVar[str] = "undo"
    target: int
    note: str = ""


RESOLUTIONS = ("accept", "revert", "restored", "set")
EVENT_TYPES: dict[str, type[Event]] = {
    c.kind: c for c in (GameStarted, SetupChecked, Move, Shot, Damage, Sinking, TurnEnd, Result,
                        Flagged, Correction, Undo)
}
_HINTS: dict[type, dict[str, Any]] = {}


def _encode(v: Any) -> Any:
    if isinstance(v, Pose):
        return pose_to_json(v)
    if isinstance(v, Verdict):
        return verdict_to_json(v)
    if isinstance(v, Ship):
        return ship_to_json(v)
    if isinstance(v, RulesConfig):
        return config_to_json(v)
    if isinstance(v, Change):
        return v.to_json()
    if isinstance(v, tuple):
        return [_encode(x) for x in v]
    return v


def _decode(hint: Any, v: Any, field: str) -> Any:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        if v is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _decode(inner, v, field)
    if hint is Pose:
        return pose_from_json(v, field)
    if hint is Verdict:
        return verdict_from_json(v, field)
    if hint is Ship:
        return ship_from_json(v, field)
    if hint is RulesConfig:
        return config_from_json(v, field)
    if hint is Change:
        return Change.from_json(v, field)
    if hint == tuple[Point, ...]:
        return points_from_json(v, field)
    if origin is tuple:
        if not isinstance(v, list):
            raise ValueError(f"{field}: expected a list, got {v!r}")
        return tuple(_decode(args[0], x, f"{field}[{i}]") for i, x in enumerate(v))
    if hint is float:
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ValueError(f"{field}: expected a number, got {v!r}")
        return float(v)
    if hint is int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"{field}: expected a whole number, got {v!r}")
        return v
    if hint is str:
        if not isinstance(v, str):
            raise ValueError(f"{field}: expected a string, got {v!r}")
        return v
    raise TypeError(f"{field}: no decoder for {hint!r}")  # a bug in this module, not bad input


def event_from_json(d: object) -> Event:
    """An event from its JSON object; ValueError names the bad field (``move.after[2]``)."""
    if not isinstance(d, dict):
        raise ValueError(f"event: expected a JSON object, got {type(d).__name__}")
    kind = d.get("kind")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"kind: unknown event kind {kind!r}")
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    kw: dict[str, Any] = {}
    names = set()
    for f in fields(cls):
        names.add(f.name)
        if f.name in d:
            kw[f.name] = _decode(hints[f.name], d[f.name], f"{kind}.{f.name}")
        elif f.default is f.default_factory:  # both MISSING: a required field
            raise ValueError(f"{kind}.{f.name}: missing")
    unknown = set(d) - names - {"kind"}
    if unknown:
        raise ValueError(f"{kind}.{sorted(unknown)[0]}: unknown field")
    try:
        return cls(**kw)
    except ValueError as e:
        msg = str(e)
        raise ValueError(msg if msg.startswith(kind) else f"{kind}.{msg}") from None


def _token(v: Any) -> str:
    """A value as one token: a bare word when that cannot be misread, else compact ASCII JSON
    (whose strings may hold spaces: the parser reads a JSON value whole)."""
    if isinstance(v, str) and v and v.isascii() and v.isprintable() and v[0] not in '"[{' \
            and not any(c in v for c in ' "='):
        try:
            json.loads(v)
        except ValueError:
            return v
    return json.dumps(v, separators=(",", ":"), ensure_ascii=True)


_DECODER = json.JSONDecoder()


def parse_event(line: str) -> Event:
    """An event from its one-line text form (``str(event)``); ValueError names the bad part."""
    words = line.split(None, 1)
    if not words:
        raise ValueError("event: empty line")
    kind, rest = words[0], (words[1] if len(words) > 1 else "")
    d: dict[str, Any] = {"kind": kind}
    i, end = 0, len(rest)
    while True:
        while i < end and rest[i].isspace():
            i += 1
        if i >= end:
            return event_from_json(d)
        eq = rest.find("=", i)
        key = rest[i:eq] if eq > i else ""
        if not key or any(c.isspace() for c in key):
            raise ValueError(f"{kind}: expected key=value at {rest[i:i + 20]!r}")
        if key in d:
            raise ValueError(f"{kind}.{key}: given twice")
        i = eq + 1
        if i < end and rest[i] in '"[{':
            try:
                d[key], i = _DECODER.raw_decode(rest, i)
            except ValueError:
                raise ValueError(f"{kind}.{key}: not a valid JSON value") from None
            if i < end and not rest[i].isspace():
                raise ValueError(f"{kind}.{key}: expected a space after the value")
        else:
            j = i
            while j < end and not rest[j].isspace():
                j += 1
            word, i = rest[i:j], j
            try:
                d[key] = json.loads(word)
            except ValueError:
                d[key] = word
