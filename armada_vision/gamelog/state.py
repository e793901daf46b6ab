"""The state of a game as a fold over its events: the table as last seen, whose turn it is,
the actions used, pending flags, the result.

The fold never judges: verdicts were decided when the events were recorded (``gamelog.replay``
re-adjudicates). It applies what happened: the table follows the camera (an illegal move still
moves the piece; the flag beside it asks the players to put it back or accept it), only legal
actions (and illegal moves the players accepted) count against the turn's three, and an undo
takes back its target and every event caused by it. All poses are table-frame mm.

>>> from armada_vision.gamelog.events import GameStarted, TurnEnd, Undo
>>> from armada_vision.geometry.pose import Pose
>>> from armada_vision.rules.table import Ship
>>> start = GameStarted(game_id="g", n=1, players=("A", "B"), date="2026-11-23",
...     ships=(Ship("L1", "A", "large", Pose(100, 100, 90)),
...            Ship("S1", "B", "small", Pose(100, 400, 270))),
...     play_area=((0, 0), (600, 0), (600, 600), (0, 600)))
>>> evs = [start, TurnEnd(game_id="g", n=2, player="A")]
>>> replay_state(evs).player, replay_state(evs).turn
('B', 2)
>>> replay_state([*evs, Undo(game_id="g", n=3, target=2)]).player
'A'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from armada_vision.gamelog.events import (
    Change,
    Correction,
    Damage,
    Event,
    Flagged,
    GameStarted,
    Move,
    Result,
    Shot,
    Sinking,
    TurnEnd,
    Undo,
)
from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import silhouette
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.game import Breakthrough, CaptureFlag, Flag, GameState, Outcome, SinkAll
from armada_vision.rules.table import Obstacle, PlayArea, Ship, Table
from armada_vision.rules.verdict import Verdict

ACTIONS_PER_TURN = 3


class LogError(ValueError):
    """A log that cannot be folded (no start, an undo of nothing, a gap in numbering)."""


@dataclass(frozen=True, slots=True)
class LogState:
    """A game after some events.

    - ``table``: ships where last seen (table mm), with their damage (a ship sunk by a hit stays
      until it is seen gone); ``sunk``: ships that left the table, with their final damage;
      ``missing``: ships gone from view without a sinking (flag pending).
    - ``player`` / ``turn``: whose turn, 1-based turn count; ``actions``: used this turn;
      ``moved``: ships moved this turn; ``fired``: (ship, shots) this turn.
    - ``pending``: numbers of unresolved flags; ``strays``: pieces on the table belonging to no
      ship, as (label, pose); ``result``: the Result event once decided; ``last_n``.

    It reads like the rules' ``GameState`` (``current_player``, ``actions_used``, ``shots``,
    ``outcome``, ``fleet``, ``is_sunk``), and :attr:`game_state` is one.
    """

    game_id: str
    players: tuple[str, ...]
    table: Table
    config: RulesConfig = DEFAULT_CONFIG
    flagships: tuple[str, ...] = ()
    goal_line: tuple[tuple[float, float], ...] = ()
    attacker: str = ""
    player: str = ""
    turn: int = 1
    actions: int = 0
    moved: frozenset[str] = frozenset()
    fired: tuple[tuple[str, int], ...] = ()
    sunk: tuple[Ship, ...] = ()
    missing: frozenset[str] = frozenset()
    pending: tuple[int, ...] = ()
    strays: tuple[tuple[str, Pose], ...] = ()
    result: Result | None = None
    last_n: int = 0
    undone: frozenset[int] = field(default=frozenset())

    def shots_fired(self, ship_id: str) -> int:
        return dict(self.fired).get(ship_id, 0)

    # -- read like rules.game.GameState
    @property
    def current_player(self) -> str:
        return self.player

    @property
    def actions_used(self) -> int:
        return self.actions

    @property
    def shots(self) -> tuple[tuple[str, int], ...]:
        return self.fired

    @property
    def outcome(self) -> Outcome | None:
        return None if self.result is None else Outcome(self.result.winner, self.result.reason)

    def fleet(self, player: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.table.ships if s.player == player)

    def is_sunk(self, ship_id: str) -> bool:
        return any(s.id == ship_id for s in self.sunk) or (
            self.table.has_ship(ship_id) and self.table.ship(ship_id).sunk)

    @property
    def game_state(self) -> GameState:
        """The rules' ``GameState`` of this moment: ships sunk by a hit are off its table (as
        the rules have it) even before they are seen removed; missing ships are left out."""
        table = judging_table(self)
        gone = tuple(s for s in table.ships if s.sunk)
        for s in gone:
            table = table.without_ship(s.id)
        flags = tuple(Flag(self.owner(f) or "", f) for f in self.flagships if self.owner(f))
        victory: SinkAll | CaptureFlag | Breakthrough = SinkAll()
        if len(self.goal_line) == 2 and self.attacker:
            victory = Breakthrough(self.attacker, self.goal_line[0], self.goal_line[1])
        elif flags:
            victory = CaptureFlag(flags)
        current = self.players.index(self.player) if self.player in self.players else 0
        return GameState(table=table, players=self.players, config=self.config,
                         victory=victory, teams=(), current=current, turn=self.turn,
                         actions_used=self.actions, moved=self.moved, shots=self.fired,
                         sunk=(*self.sunk, *gone), outcome=self.outcome)

    def owner(self, ship_id: str) -> str | None:
        """The player of a ship on the table or sunk; None for an unknown id."""
        if self.table.has_ship(ship_id):
            return self.table.ship(ship_id).player
        return next((s.player for s in self.sunk if s.id == ship_id), None)

    def alive(self, player: str) -> tuple[str, ...]:
        """Ids of ``player``'s ships not sunk (damage below pips)."""
        return tuple(s.id for s in self.table.ships if s.player == player and not s.sunk)


STRAY_SIGMA_MM = 0.5  # a stray's pose σ is not kept; this is a typical detection σ


def stray_label(size: Size, n: int, k: int = 0) -> str:
    """Label of a piece that belongs to no ship, the ``k``-th first seen in event ``n``:
    ``?small-12``, ``?small-12.1``, …"""
    return f"?{Size.parse(size).value}-{n}" + (f".{k}" if k else "")


def stray_size(label: str) -> Size:
    return Size.parse(label[1:].split("-")[0], "stray")


def judging_table(state: LogState) -> Table:
    """The table the rules judge on: ships in view (missing ones are not there) and strays as
    obstacles (their silhouettes, table mm)."""
    table = state.table
    for sid in sorted(state.missing):
        table = table.without_ship(sid)
    strays = tuple(
        Obstacle(label, tuple(silhouette(pose, state.config.pieces.dims(stray_size(label)))
                              .exterior.coords)[:-1], STRAY_SIGMA_MM)
        for label, pose in state.strays)
    return replace(table, obstacles=table.obstacles + strays) if strays else table


def move_table(state: LogState, ship_id: str, after_sigma_mm: float,
               after_sigma_deg: float) -> Table:
    """The table a move of ``ship_id`` is judged on: :func:`judging_table`, with the mover's σ
    the root mean square of its before and after σ, so the rules' allowance between its two
    positions, 2·√(σ² + σ²) + floor, is §7's 2·√(σ_before² + σ_after²) + floor."""
    table = judging_table(state)
    if not table.has_ship(ship_id):
        return table
    ship = table.ship(ship_id)
    rms_mm = math.sqrt((ship.sigma_mm ** 2 + after_sigma_mm ** 2) / 2)
    rms_deg = math.sqrt((ship.sigma_deg ** 2 + after_sigma_deg ** 2) / 2)
    return table.replace_ship(replace(ship, sigma_mm=rms_mm, sigma_deg=rms_deg))


def check_move_action(state: LogState, ship_id: str) -> Verdict | None:
    """A ``no`` (decided_by ``action``) when moving ``ship_id`` now breaks the turn rules of
    rules.md §3 (not the mover's ship, moved already, three actions used, sunk, game over);
    None when the move may be judged on its geometry."""
    return _check_action(state, ship_id, "move")


def check_shot_action(state: LogState, shooter: str, target: str) -> Verdict | None:
    """Like :func:`check_move_action` for a shot (§3: fewer shots this turn than pips)."""
    v = _check_action(state, shooter, "fire")
    if v is not None:
        return v
    if not state.table.has_ship(target) or target in state.missing:
        return Verdict.no(f"{target} is not on the table", decided_by="action")
    t = state.table.ship(target)
    if t.sunk:
        return Verdict.no(f"{target} is already sunk", decided_by="action")
    if t.player == state.player:
        return Verdict.no(f"{target} is {state.player}'s own ship", decided_by="action")
    return None


def _check_action(state: LogState, ship_id: str, what: str) -> Verdict | None:
    def no(reason: str) -> Verdict:
        return Verdict.no(reason, decided_by="action")

    if state.result is not None:
        return no(f"the game is over ({state.result.winner} won)")
    if not state.table.has_ship(ship_id) or ship_id in state.missing:
        return no(f"{ship_id} is not on the table")
    ship = state.table.ship(ship_id)
    if ship.player != state.player:
        return no(f"{ship_id} is {ship.player}'s ship and it is {state.player}'s turn")
    if ship.sunk:
        return no(f"{ship_id} is sunk")
    if state.actions >= ACTIONS_PER_TURN:
        return no(f"{state.player} has used all {ACTIONS_PER_TURN} actions this turn")
    if what == "move" and ship_id in state.moved:
        return no(f"{ship_id} has already moved this turn")
    if what == "fire" and state.shots_fired(ship_id) >= ship.pips:
        return no(f"{ship_id} has fired {ship.pips} times this turn, as many as its pips")
    return None


def _start(e: GameStarted) -> LogState:
    table = Table(PlayArea(e.play_area), e.ships)
    return LogState(e.game_id, e.players, table, e.config, e.flagships, e.goal_line,
                    e.attacker, player=e.players[0], last_n=e.n)


def _set_poses(state: LogState, changes: Iterable[Change]) -> LogState:
    table, missing, strays = state.table, set(state.missing), dict(state.strays)
    for c in changes:
        if c.ship.startswith("?"):
            if c.after is None:
                strays.pop(c.ship, None)
            else:
                strays[c.ship] = c.after
        elif table.has_ship(c.ship):
            if c.after is None:
                missing.add(c.ship)
            else:
                table = table.replace_ship(table.ship(c.ship).with_pose(c.after))
                missing.discard(c.ship)
    return replace(state, table=table, missing=frozenset(missing),
                   strays=tuple(sorted(strays.items())))


def _count_action(state: LogState, ship_id: str, what: str) -> LogState:
    s = replace(state, actions=state.actions + 1)
    if what == "move":
        return replace(s, moved=s.moved | {ship_id})
    fired = dict(s.fired)
    fired[ship_id] = fired.get(ship_id, 0) + 1
    return replace(s, fired=tuple(sorted(fired.items())))


def apply_event(state: LogState | None, e: Event, by_n: dict[int, Event] | None = None
                ) -> LogState:
    """The state after event ``e`` (no undo handling: :func:`replay_state` does that).
    ``by_n`` maps event numbers to earlier events, for corrections that name their flag."""
    if isinstance(e, GameStarted):
        if state is not None:
            raise LogError(f"event {e.n}: a second game start in game {e.game_id}")
        return _start(e)
    if state is None:
        raise LogError(f"event {e.n}: the log does not begin with a game start")
    s = replace(state, last_n=e.n)
    if isinstance(e, Move):
        if not s.table.has_ship(e.ship):
            raise LogError(f"event {e.n}: move of unknown ship {e.ship!r}")
        ship = s.table.ship(e.ship)
        moved = replace(ship, pose=e.after, sigma_mm=e.sigma_mm, sigma_deg=e.sigma_deg)
        s = replace(s, table=s.table.replace_ship(moved), missing=s.missing - {e.ship})
        return _count_action(s, e.ship, "move") if e.verdict.yes else s
    if isinstance(e, Shot):
        return _count_action(s, e.shooter, "fire") if e.verdict.yes else s
    if isinstance(e, Damage):
        if not s.table.has_ship(e.ship):
            raise LogError(f"event {e.n}: damage to unknown ship {e.ship!r}")
        return replace(s, table=s.table.replace_ship(s.table.ship(e.ship).with_damage(e.damage)))
    if isinstance(e, Sinking):
        if not s.table.has_ship(e.ship):
            raise LogError(f"event {e.n}: sinking of unknown ship {e.ship!r}")
        return replace(s, table=s.table.without_ship(e.ship),
                       sunk=(*s.sunk, s.table.ship(e.ship)),
                       missing=s.missing - {e.ship})
    if isinstance(e, TurnEnd):
        order = s.players
        nxt = order[(order.index(s.player) + 1) % len(order)] if s.player in order else order[0]
        return replace(s, player=nxt, turn=s.turn + 1, actions=0, moved=frozenset(), fired=())
    if isinstance(e, Result):
        return replace(s, result=e)
    if isinstance(e, Flagged):
        return replace(_set_poses(s, e.changes), pending=(*s.pending, e.n))
    if isinstance(e, Correction):
        s = replace(_set_poses(s, e.changes), pending=tuple(p for p in s.pending if p != e.target))
        flag = (by_n or {}).get(e.target)
        cause = (by_n or {}).get(flag.cause) if isinstance(flag, Flagged) and flag.cause else None
        if e.resolution == "accept" and isinstance(cause, Move) and not cause.verdict.yes:
            s = _count_action(s, cause.ship, "move")
        return s
    return s  # SetupChecked and anything purely informative


def _undone(events: Sequence[Event]) -> frozenset[int]:
    """Numbers of events taken back by an undo, with everything they caused."""
    undone = {e.target for e in events if isinstance(e, Undo)}
    for e in events:  # a cause always comes before what it causes: one pass finds them all
        if e.cause is not None and e.cause in undone:
            undone.add(e.n)
    return frozenset(undone)


def _check_numbering(events: Sequence[Event]) -> None:
    for i, e in enumerate(events):
        if e.n != i + 1:
            raise LogError(f"event {i + 1} of game {e.game_id}: numbered {e.n}, events must be "
                           f"numbered 1, 2, 3, … without gaps")
        if e.game_id != events[0].game_id:
            raise LogError(f"event {e.n}: belongs to game {e.game_id}, not {events[0].game_id}")


def states_after_each_event(events: Sequence[Event]) -> list[tuple[Event, LogState]]:
    """``(event, state after it)`` for every event of one game, in order: what a page needs to
    step through the game drawing the table (``state.table``) at each action."""
    _check_numbering(events)
    out: list[tuple[Event, LogState]] = []
    state: LogState | None = None
    by_n: dict[int, Event] = {}
    for i, e in enumerate(events):
        by_n[e.n] = e
        if isinstance(e, Undo):
            target = by_n.get(e.target)
            if target is None or isinstance(target, Undo | GameStarted):
                raise LogError(f"event {e.n}: undo of event {e.target}, which cannot be undone")
            state = _fold(events[: i + 1])
        elif state is not None and e.cause is not None and e.cause in state.undone:
            state = replace(state, undone=state.undone | {e.n})  # caused by an undone event
        else:
            state = apply_event(state, e, by_n)
        out.append((e, replace(state, last_n=e.n)))
    return out


def _fold(events: Sequence[Event]) -> LogState:
    undone = _undone(events)
    by_n = {e.n: e for e in events}
    state: LogState | None = None
    for e in events:
        if e.n in undone:
            continue
        state = apply_event(state, e, by_n)
    if state is None:
        raise LogError("the log has no game start")
    return replace(state, undone=undone, last_n=events[-1].n)


def replay_state(events: Sequence[Event]) -> LogState:
    """The state of one game after all its ``events`` (numbered 1, 2, 3, …)."""
    if not events:
        raise LogError("the log is empty")
    _check_numbering(events)
    return _fold(events)
