"""One game as the server follows it: the latest analysed frame, the turn, damage, undo.

The vision thread calls ``on_analysis``; request handlers ask questions and record actions.
Everything is guarded by one lock; the turn is a frozen value replaced on every action, and the
previous values are kept (bounded) for undo. Coordinates: table frame, mm.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from dataclasses import dataclass, field, replace
from typing import Any

from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import angle_diff_deg
from armada_vision.rules.config import RulesConfig
from armada_vision.rules.table import Table
from armada_vision.web import referee
from armada_vision.web.analysis import FrameAnalysis

ACTIONS_PER_TURN = 3  # rules.md §3


class ActionRefused(Exception):
    """A control action the turn does not allow (HTTP 409 with the reason)."""


@dataclass(frozen=True, slots=True)
class TurnState:
    """Whose turn, what was done in it, and the damage on every ship (rules.md §3, §5).

    >>> t = TurnState(players=("A", "B"))
    >>> t = t.with_hit("L1", "S2", "A")
    >>> t.actions_left, t.damage_of("S2"), t.fired_count("L1")
    (2, 1, 1)
    >>> t.ended().player, t.ended().actions_left
    ('B', 3)
    """

    players: tuple[str, ...] = ("A", "B")
    number: int = 1
    index: int = 0
    actions: tuple[tuple[str, str, str], ...] = ()   # (kind, ship, target or "")
    damage: tuple[tuple[str, int], ...] = ()

    @property
    def player(self) -> str:
        return self.players[self.index % len(self.players)]

    @property
    def actions_left(self) -> int:
        return ACTIONS_PER_TURN - len(self.actions)

    def moved(self) -> list[str]:
        return [s for k, s, _ in self.actions if k == "move"]

    def fired_count(self, ship_id: str) -> int:
        return sum(1 for k, s, _ in self.actions if k == "fire" and s == ship_id)

    def damage_of(self, ship_id: str) -> int:
        return dict(self.damage).get(ship_id, 0)

    def refuse_move(self, ship_id: str, owner: str) -> str | None:
        """Why this ship may not move now, or None."""
        if owner != self.player:
            return f"it is {self.player}'s turn, {ship_id} belongs to {owner}"
        if self.actions_left <= 0:
            return f"{self.player} has no actions left this turn"
        if ship_id in self.moved():
            return f"{ship_id} has already moved this turn"
        return None

    def refuse_fire(self, ship_id: str, owner: str, pips: int) -> str | None:
        """Why this ship may not fire now, or None."""
        if owner != self.player:
            return f"it is {self.player}'s turn, {ship_id} belongs to {owner}"
        if self.actions_left <= 0:
            return f"{self.player} has no actions left this turn"
        if self.fired_count(ship_id) >= pips:
            return f"{ship_id} has fired {pips} time(s) this turn, as many as its pips"
        return None

    def with_move(self, ship_id: str) -> TurnState:
        return replace(self, actions=(*self.actions, ("move", ship_id, "")))

    def with_hit(self, shooter_id: str, target_id: str, player: str) -> TurnState:
        del player  # the caller checked it is this player's turn
        return replace(self, actions=(*self.actions, ("fire", shooter_id, target_id)),
                       damage=_bump(self.damage, target_id, 1))

    def with_damage(self, ship_id: str, delta: int) -> TurnState:
        return replace(self, damage=_bump(self.damage, ship_id, delta))

    def ended(self) -> TurnState:
        return replace(self, number=self.number + 1, index=(self.index + 1) % len(self.players),
                       actions=())

    def to_json(self) -> dict[str, Any]:
        fired: dict[str, int] = {}
        for k, s, _ in self.actions:
            if k == "fire":
                fired[s] = fired.get(s, 0) + 1
        return {"number": self.number, "player": self.player, "players": list(self.players),
                "actions_left": self.actions_left, "moved": self.moved(), "fired": fired,
                "actions": [{"kind": k, "ship": s, **({"target": t} if t else {})}
                            for k, s, t in self.actions]}


def _bump(damage: tuple[tuple[str, int], ...], ship_id: str, delta: int) -> tuple:
    d = dict(damage)
    d[ship_id] = max(0, d.get(ship_id, 0) + delta)
    return tuple(sorted((k, v) for k, v in d.items() if v > 0))


@dataclass(slots=True)
class Session:
    """The game the server follows. ``views``: "live" (the pipeline's newest analysis) and
    "upload" (the last photo a player sent)."""

    layout: TableLayout
    config: RulesConfig
    source_name: str = ""
    color_players: dict[str, str] = field(default_factory=dict)
    turn: TurnState = field(default_factory=TurnState)
    views: dict[str, FrameAnalysis] = field(default_factory=dict)
    history: deque = field(default_factory=lambda: deque(maxlen=200))
    log: deque = field(default_factory=lambda: deque(maxlen=30))
    last_move: dict[str, Any] | None = None
    baselines: dict[str, Table] = field(default_factory=dict)
    version: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _zone_cache: OrderedDict = field(default_factory=OrderedDict)

    # ---- reading -------------------------------------------------------------------------
    def analysis(self, view: str) -> FrameAnalysis:
        with self._lock:
            a = self.views.get(view)
        if a is None:
            raise LookupError(f"view: no {view} image yet")
        return a

    def table(self, view: str = "live") -> Table:
        a = self.analysis(view)
        with self._lock:
            damage = dict(self.turn.damage)
        return referee.build_table(a.pieces, a.upright, self.layout, damage,
                                   color_players=self.color_players)

    def zones(self, ship_id: str, view: str = "live") -> dict[str, Any]:
        table = self.table(view)
        ship = table.ship(ship_id)
        key = (view, ship_id, tuple((s.id, s.pose) for s in table.ships), ship.damage)
        with self._lock:
            if key in self._zone_cache:
                self._zone_cache.move_to_end(key)
                return self._zone_cache[key]
        out = referee.zones(table, ship_id, self.config)
        with self._lock:
            self._zone_cache[key] = out
            while len(self._zone_cache) > 32:
                self._zone_cache.popitem(last=False)
        return out

    def shot(self, shooter_id: str, target_id: str, view: str = "live") -> dict[str, Any]:
        table = self.table(view)
        for f, sid in (("shooter", shooter_id), ("target", target_id)):
            if not table.has_ship(sid):
                raise LookupError(f"{f}: no ship {sid!r} on the table")
        if shooter_id == target_id:
            raise ValueError("target: a ship cannot shoot itself")
        verdict = referee.shot(table, shooter_id, target_id, self.config).to_json()
        shooter = table.ship(shooter_id)
        with self._lock:
            refusal = self.turn.refuse_fire(shooter_id, shooter.player, shooter.pips)
        return {"shooter": shooter_id, "target": target_id, "view": view, **verdict,
                "can_record": verdict["verdict"] == "yes" and refusal is None,
                "turn_note": refusal}

    # ---- control (the caller checked the join token) ---------------------------------------
    def record_hit(self, shooter_id: str, target_id: str, view: str = "live") -> dict[str, Any]:
        result = self.shot(shooter_id, target_id, view)
        if result["verdict"] != "yes":
            raise ActionRefused(f"the shot is not a hit: {result['reason']}")
        if result["turn_note"]:
            raise ActionRefused(result["turn_note"])
        with self._lock:
            owner = self.table(view).ship(shooter_id).player
            self._push(self.turn.with_hit(shooter_id, target_id, owner),
                       f"{shooter_id} hits {target_id}")
        return result

    def adjust_damage(self, ship_id: str, delta: int) -> None:
        with self._lock:
            if ship_id not in {p.track_id for a in self.views.values() for p in a.pieces}:
                raise LookupError(f"ship: no ship {ship_id!r} seen")
            self._push(self.turn.with_damage(ship_id, delta),
                       f"damage {ship_id} {'+' if delta > 0 else ''}{delta}")

    def end_turn(self) -> None:
        with self._lock:
            ended = self.turn.player
            self._push(self.turn.ended(), f"{ended} ends turn {self.turn.number}")

    def undo(self) -> str:
        with self._lock:
            if not self.history:
                raise ActionRefused("nothing to undo")
            self.turn, what = self.history.pop()
            self.log.append(_stamp(f"undo: {what}"))
            self.version += 1
            return what

    def _push(self, new_turn: TurnState, what: str) -> None:
        self.history.append((self.turn, what))
        self.turn = new_turn
        self.log.append(_stamp(what))
        self.version += 1

    # ---- the vision thread ---------------------------------------------------------------
    def restart(self) -> None:
        """The recorded source looped: a new game from the first frame."""
        with self._lock:
            self.turn = TurnState(players=self.turn.players)
            self.history.clear()
            self.last_move = None
            self.baselines.pop("live", None)
            self.views.pop("live", None)
            self.log.append(_stamp("the recording starts over: new game"))
            self.version += 1

    def on_analysis(self, analysis: FrameAnalysis, view: str = "live") -> None:
        with self._lock:
            self.views[view] = analysis
            self.version += 1
            if not analysis.settled or analysis.failure is not None:
                return
            table = self.table(view)
            players = tuple(sorted({s.player for s in table.ships}))
            if not self.history and len(players) >= 2 and self.turn.players != players:
                self.turn = replace(self.turn, players=players)
            before, self.baselines[view] = self.baselines.get(view), table
        if before is not None:
            self._judge_moves(before, table)

    def _judge_moves(self, before: Table, after: Table) -> None:
        for ship in after.ships:
            if not before.has_ship(ship.id):
                continue
            old = before.ship(ship.id).pose
            dist = math.hypot(ship.pose.x_mm - old.x_mm, ship.pose.y_mm - old.y_mm)
            turn = abs(angle_diff_deg(ship.pose.heading_deg, old.heading_deg))
            if dist <= self.config.place_tol_mm and turn <= self.config.place_tol_deg:
                continue
            try:
                verdict = referee.move(before, ship.id, ship.pose, self.config).to_json()
            except referee.Unavailable as e:
                verdict = {"verdict": "no", "in_doubt": False, "decided_by": "state",
                           "reason": str(e), "margin_mm": None}
            with self._lock:
                refusal = self.turn.refuse_move(ship.id, ship.player)
                entry = {"ship": ship.id, "player": ship.player,
                         "before": {"stern": [round(old.x_mm, 2), round(old.y_mm, 2)],
                                    "heading": round(old.heading_deg, 2)},
                         "after": {"stern": [round(ship.pose.x_mm, 2), round(ship.pose.y_mm, 2)],
                                   "heading": round(ship.pose.heading_deg, 2)},
                         "turn_note": refusal, "at": time.time(), **verdict}
                self.last_move = entry
                if verdict["verdict"] == "yes" and refusal is None:
                    self._push(self.turn.with_move(ship.id), f"{ship.id} moves (legal)")
                else:
                    self.log.append(_stamp(f"{ship.id} moved: {verdict['verdict']} "
                                           f"({verdict['reason']})"
                                           + (f"; {refusal}" if refusal else "")))
                    self.version += 1

    # ---- what every page gets ----------------------------------------------------------------
    def state_json(self, view: str = "live") -> dict[str, Any]:
        """The pushed state: calibration, ships (mm), homography, turn, last move, log."""
        with self._lock:
            a = self.views.get(view)
            out: dict[str, Any] = {
                "version": self.version, "view": view, "source": self.source_name,
                "play_area": [list(p) for p in self.layout.play_area_mm],
                "turn": self.turn.to_json(), "last_move": self.last_move,
                "log": list(self.log)[-12:], "can_undo": bool(self.history),
                "pieces": {size.value: {"w": d.base_w_mm, "s": d.footprint_length_mm}
                           for size in Size for d in (self.config.pieces.dims(size),)},
            }
            damage = dict(self.turn.damage)
        if a is None:
            out.update(frame_seq=None, ships=[], calibration={"ok": False,
                       "reason": "waiting for the first frame"})
            return out
        table = referee.build_table(a.pieces, a.upright, self.layout, damage,
                                    color_players=self.color_players)
        H = a.H_image_from_table
        cal: dict[str, Any] = {"ok": a.failure is None and H is not None}
        if a.calibration is not None:
            cal.update(a.calibration.to_json())
        if a.failure is not None:
            cal.update(code=a.failure.code, reason=a.failure.reason)
        found = set(a.calibration.markers_found) if a.calibration else set()
        everything = referee.build_table(a.pieces, a.upright, self.layout, damage, True,
                                         self.color_players)
        out.update(
            frame_seq=a.frame_seq, captured_at=a.captured_at, image_size=list(a.image_size),
            settled=a.settled, vision_ms=round(a.elapsed_ms, 1), calibration=cal,
            H_image_from_table=None if H is None else [[float(v) for v in r] for r in H],
            markers=[{"id": m.id, "corners": m.corners_mm().round(2).tolist()}
                     for m in self.layout.markers if m.id in found],
            ships=[referee.ship_json(s, self.config) for s in table.ships],
            sunk=[referee.ship_json(s, self.config) for s in everything.ships if s.sunk],
            obstacles=[{"id": o.id, "polygon": [list(p) for p in o.polygon_mm]}
                       for o in table.obstacles],
            off_table=[p.to_json() for p in a.pieces if not p.in_play_area],
        )
        return out


def _stamp(text: str) -> str:
    return f"{time.strftime('%H:%M:%S')} {text}"
