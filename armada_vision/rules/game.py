"""The game (rules.md §3 turns, §5 damage, §6 winning) as a frozen state and pure transitions.

Every function returns a new :class:`GameState`; nothing mutates. An action against the rules
(a fourth action, moving a ship twice, firing more than its pips, acting with an enemy's or a
sunk ship, acting after the game is won) is a ``no`` verdict with ``decided_by="action"`` and
the state unchanged, never an exception. A move or shot the geometry refuses is not taken either:
the state is unchanged and the verdict says why. Coordinates are table-frame millimetres.

>>> from armada_vision.geometry import Pose
>>> from armada_vision.rules.table import PlayArea, Ship, Table
>>> t = Table(PlayArea.rectangle(0, 0, 600, 600),
...           (Ship("L1", "A", "large", Pose(300, 300, 0)),
...            Ship("S1", "B", "small", Pose(310, 340, 0))))
>>> g = new_game(t, ("A", "B"))
>>> v, g = apply_shot(g, "L1", "S1")
>>> v.verdict, [s.id for s in g.sunk], g.outcome.winner
('yes', ['S1'], 'A')
>>> apply_shot(g, "L1", "S1")[0].reason
'the game is over: A won (every enemy ship is sunk)'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import shapely

from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.doubt import allowance_mm
from armada_vision.rules.table import Ship, Table
from armada_vision.rules.verdict import Verdict

ACTIONS_PER_TURN = 3
Point = tuple[float, float]


# --- ways to win (§6) --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SinkAll:
    """§6: sink the entire enemy fleet (the last team with ships wins)."""


@dataclass(frozen=True, slots=True)
class Flag:
    """A player's flag: one named ship (the flagship) or a fixed marker (polygon, table mm)."""

    player: str
    ship_id: str | None = None
    polygon_mm: tuple[Point, ...] | None = None

    def __post_init__(self) -> None:
        if (self.ship_id is None) == (self.polygon_mm is None):
            raise ValueError("flag: give either ship_id (a flagship) or polygon_mm (a marker)")


@dataclass(frozen=True, slots=True)
class CaptureFlag:
    """§6: the first player to sink the enemy flagship or touch the enemy flag wins."""

    flags: tuple[Flag, ...]


@dataclass(frozen=True, slots=True)
class Breakthrough:
    """§6: ``attacker`` wins when any of his ships crosses the goal line (the line through
    ``start_mm`` and ``end_mm``; the goal side is to the left of start → end), and loses when
    all of his ships are sunk."""

    attacker: str
    start_mm: Point
    end_mm: Point


VictoryRule = SinkAll | CaptureFlag | Breakthrough


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won (a team: the player's name unless teams are set), why, and by what margin."""

    winner: str
    reason: str
    margin_mm: float | None = None


# --- the state ---------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class GameState:
    """A game between turns or mid-turn.

    - ``players``: in turn order; ``current`` indexes the player whose turn it is.
    - ``teams``: (player, team) pairs; a player without one is his own team.
    - ``actions_used``, ``moved``, ``shots``: this turn's actions, ships moved, shots per ship.
    - ``sunk``: ships that left the table, with their final damage.
    - ``outcome``: set once someone has won.
    """

    table: Table
    players: tuple[str, ...]
    config: RulesConfig = DEFAULT_CONFIG
    victory: VictoryRule = SinkAll()
    teams: tuple[tuple[str, str], ...] = ()
    current: int = 0
    turn: int = 1
    actions_used: int = 0
    moved: frozenset[str] = frozenset()
    shots: tuple[tuple[str, int], ...] = ()
    sunk: tuple[Ship, ...] = ()
    outcome: Outcome | None = None

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    def team_of(self, player: str) -> str:
        return dict(self.teams).get(player, player)

    def shots_fired(self, ship_id: str) -> int:
        return dict(self.shots).get(ship_id, 0)

    def fleet(self, player: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.table.ships if s.player == player)

    def is_sunk(self, ship_id: str) -> bool:
        return any(s.id == ship_id for s in self.sunk)


def new_game(table: Table, players: tuple[str, ...] | list[str], *,
             config: RulesConfig = DEFAULT_CONFIG, victory: VictoryRule | None = None,
             teams: dict[str, str] | None = None) -> GameState:
    """Start a game: ``players`` in turn order (the first moves first)."""
    players = tuple(players)
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("players: expected two or more different players in turn order")
    owners = {s.player for s in table.ships}
    strangers = owners - set(players)
    if strangers:
        raise ValueError(f"players: ships belong to {sorted(strangers)[0]!r}, not a player")
    return GameState(table, players, config, victory or SinkAll(),
                     tuple((teams or {}).items()))


def _refuse(reason: str) -> Verdict:
    return Verdict.no(reason, decided_by="action")


def _check_action(state: GameState, ship_id: str) -> Verdict | None:
    """Why ``ship_id`` may not act now (§3), or None."""
    if state.outcome is not None:
        return _refuse(f"the game is over: {state.outcome.winner} won ({state.outcome.reason})")
    if state.is_sunk(ship_id):
        return _refuse(f"{ship_id} has sunk; it no longer acts")
    if not state.table.has_ship(ship_id):
        return _refuse(f"there is no ship {ship_id!r} on the table")
    ship = state.table.ship(ship_id)
    if ship.player != state.current_player:
        return _refuse(f"{ship_id} belongs to {ship.player}; it is {state.current_player}'s turn")
    if state.actions_used >= ACTIONS_PER_TURN:
        return _refuse(f"{state.current_player} has used all {ACTIONS_PER_TURN} actions "
                       "this turn")
    return None


def apply_move(state: GameState, ship_id: str, after: Pose) -> tuple[Verdict, GameState]:
    """Move ``ship_id`` to ``after`` (table mm) as one action (§3, §4)."""
    from armada_vision.rules.move import adjudicate_move

    bad = _check_action(state, ship_id)
    if bad is None and ship_id in state.moved:
        bad = _refuse(f"{ship_id} has already moved this turn")
    if bad is not None:
        return bad, state
    v = adjudicate_move(state.table, ship_id, after, state.config)
    if not v.yes:
        return v, state
    ship = state.table.ship(ship_id)
    new = replace(state, table=state.table.replace_ship(ship.with_pose(after)),
                  actions_used=state.actions_used + 1, moved=state.moved | {ship_id})
    return v, _settle(new)


def apply_shot(state: GameState, shooter_id: str, target_id: str) -> tuple[Verdict, GameState]:
    """Fire from ``shooter_id`` at ``target_id`` as one action (§3, §5): a hit does one damage;
    damage equal to the pips sinks the target, which leaves the table."""
    from armada_vision.rules.fire import adjudicate_shot

    bad = _check_action(state, shooter_id)
    if bad is not None:
        return bad, state
    shooter = state.table.ship(shooter_id)
    if state.shots_fired(shooter_id) >= shooter.pips:
        return _refuse(f"{shooter_id} has fired {shooter.pips} time(s) this turn, as many as "
                       "its pips"), state
    if state.is_sunk(target_id):
        return _refuse(f"{target_id} has already sunk"), state
    if not state.table.has_ship(target_id):
        return _refuse(f"there is no ship {target_id!r} on the table"), state
    target = state.table.ship(target_id)
    if state.team_of(target.player) == state.team_of(shooter.player):
        return _refuse(f"{target_id} is in {shooter_id}'s own fleet"), state
    v = adjudicate_shot(state.table, shooter_id, target_id, state.config)
    if not v.yes:
        return v, state
    hit = target.with_damage(target.damage + 1)
    shots = dict(state.shots)
    shots[shooter_id] = shots.get(shooter_id, 0) + 1
    new = replace(state, actions_used=state.actions_used + 1, shots=tuple(shots.items()))
    if hit.sunk:
        note = f"{target_id} takes damage {hit.damage} of {hit.pips} and sinks"
        new = replace(new, table=state.table.without_ship(target_id), sunk=(*state.sunk, hit))
    else:
        note = f"{target_id} takes 1 damage ({hit.damage} of {hit.pips})"
        new = replace(new, table=state.table.replace_ship(hit))
    return replace(v, notes=(*v.notes, note)), _settle(new)


def end_turn(state: GameState) -> GameState:
    """Pass to the next player who still has ships; this turn's counters start afresh."""
    if state.outcome is not None:
        return state
    n = len(state.players)
    nxt = state.current
    for _ in range(n):
        nxt = (nxt + 1) % n
        if state.fleet(state.players[nxt]):
            break
    return replace(state, current=nxt, turn=state.turn + 1, actions_used=0,
                   moved=frozenset(), shots=())


# --- victory -----------------------------------------------------------------------------------

def _settle(state: GameState) -> GameState:
    out = victory(state)
    return state if out is None else replace(state, outcome=out)


def _teams_afloat(state: GameState) -> set[str]:
    return {state.team_of(s.player) for s in state.table.ships}


def victory(state: GameState) -> Outcome | None:
    """Has someone won (§6)? Checked after every action; the acting player's team wins a
    flag or a breakthrough; in every variant a team whose enemies are all sunk wins."""
    rule, me = state.victory, state.team_of(state.current_player)
    cfg = state.config
    if isinstance(rule, CaptureFlag):
        for flag in rule.flags:
            owner = state.team_of(flag.player)
            if owner == me:
                continue
            if flag.ship_id is not None and state.is_sunk(flag.ship_id):
                return Outcome(me, f"sank {flag.player}'s flagship {flag.ship_id}")
            if flag.polygon_mm is not None:
                marker = shapely.Polygon(flag.polygon_mm)
                for s in state.table.ships:
                    if state.team_of(s.player) != me:
                        continue
                    d = float(marker.distance(s.silhouette(cfg)))
                    a = allowance_mm([s.sigma_total_mm(cfg)], cfg.doubt_floor_mm)
                    if d <= a:   # in contact as far as the measurement can tell
                        return Outcome(me, f"{s.id} touches {flag.player}'s flag", d)
    if isinstance(rule, Breakthrough):
        attacker = state.team_of(rule.attacker)
        a, b = np.asarray(rule.start_mm, float), np.asarray(rule.end_mm, float)
        u = (b - a) / np.linalg.norm(b - a)
        left = np.array([-u[1], u[0]])
        for s in state.table.ships:
            if state.team_of(s.player) != attacker:
                continue
            pts = np.asarray(s.footprint(cfg).exterior.coords)
            beyond = float(((pts - a) @ left).max())
            allow = allowance_mm([s.sigma_total_mm(cfg)], cfg.doubt_floor_mm)
            if beyond > allow:
                return Outcome(attacker, f"{s.id} crossed the goal line by {beyond:.1f} mm",
                               beyond)
        if attacker not in _teams_afloat(state):
            others = sorted({state.team_of(p) for p in state.players} - {attacker})
            return Outcome(others[0], f"every ship of {rule.attacker} is sunk")
    afloat = _teams_afloat(state)
    if len(afloat) == 1:
        return Outcome(next(iter(afloat)), "every enemy ship is sunk")
    return None
