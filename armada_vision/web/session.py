"""One game as the server follows it: the newest analysed views, and the game log's recorder.

The game itself (whose turn, actions, damage, moves judged when the table settles, undo) is the
game log's :class:`~armada_vision.gamelog.Recorder`; this module feeds it settled views and the
players' taps, and turns its state into what the page shows. Every recorder call runs on one
dedicated thread, because the SQLite store belongs to the thread that opened it and because
game actions must happen one at a time. Coordinates: table frame, mm.
"""

from __future__ import annotations

import datetime as _dt
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeVar

from armada_vision.gamelog import GameStarted, Recorder, Undo
from armada_vision.gamelog.events import Change, Correction, Flagged, Move, Result
from armada_vision.gamelog.notation import action_text, timeline_json
from armada_vision.gamelog.state import ACTIONS_PER_TURN, check_shot_action
from armada_vision.gamelog.store import GameStore
from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import RulesConfig
from armada_vision.rules.table import Table
from armada_vision.vision.types import DetectedPiece
from armada_vision.web import referee
from armada_vision.web.analysis import FrameAnalysis

T = TypeVar("T")


class ActionRefused(Exception):
    """A control action the game does not allow now (HTTP 409 with the reason)."""


def _pose_json(p: Any) -> dict[str, Any]:
    return {"stern": [round(p.x_mm, 2), round(p.y_mm, 2)], "heading": round(p.heading_deg, 2)}


@dataclass(slots=True)
class Session:
    """The game the server follows. ``views``: "live" (the pipeline's newest analysis) and
    "upload" (the last photo a player sent). ``store_path``: the SQLite game log (None: the
    log is kept in memory only). A game starts at the first settled view with two fleets."""

    layout: TableLayout
    config: RulesConfig
    source_name: str = ""
    color_players: dict[str, str] = field(default_factory=dict)
    store_path: str | Path | None = None
    first_player: str | None = None
    views: dict[str, FrameAnalysis] = field(default_factory=dict)
    recorder: Recorder | None = None
    last_move: dict[str, Any] | None = None
    # What a controlling phone has selected (the projector follows it): a ship, and the
    # verdict of the last shot asked or recorded.
    selected: str | None = None
    last_shot: dict[str, Any] | None = None
    notes: deque = field(default_factory=lambda: deque(maxlen=30))
    version: int = 0
    games: int = 0
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _zone_cache: OrderedDict = field(default_factory=OrderedDict)
    _game: ThreadPoolExecutor = field(
        default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="armada-game"))
    _store: GameStore | None = None
    _timeline: tuple[Any, list[dict[str, Any]]] | None = None

    def _on_game_thread(self, fn: Callable[..., T], *args: Any) -> T:
        return self._game.submit(fn, *args).result(timeout=60)

    def close(self) -> None:
        def shut() -> None:
            if self._store is not None:
                self._store.close()
                self._store = None
        self._on_game_thread(shut)
        self._game.shutdown(wait=True)

    # ---- reading -------------------------------------------------------------------------
    def analysis(self, view: str) -> FrameAnalysis:
        with self._lock:
            a = self.views.get(view)
        if a is None:
            raise LookupError(f"view: no {view} image yet")
        return a

    def _damage(self) -> dict[str, int]:
        rec = self.recorder
        if rec is None:
            return {}
        st = rec.state
        out = {s.id: s.damage for s in st.table.ships}
        out.update({s.id: s.damage for s in st.sunk})
        return out

    def table(self, view: str = "live", include_sunk: bool = False) -> Table:
        """The table of ``view`` as seen now (poses from the newest analysis, table mm), with
        the damage the game log has recorded."""
        a = self.analysis(view)
        return referee.build_table(self._pieces(a, view)[0], a.upright, self.layout,
                                   self._damage(), include_sunk, self.color_players)

    def _pieces(self, a: FrameAnalysis, view: str
                ) -> tuple[tuple[DetectedPiece, ...], frozenset[str]]:
        """The pieces of a view as the game has them, and the ships put where the players set
        them: on the live view, a ship set by hand (``Recorder.hand_set``) is drawn and judged
        where it was set while the camera shows what it showed then (the same reading the
        game log keeps standing)."""
        rec = self.recorder
        hand = rec.hand_set if rec is not None and view == "live" else {}
        if rec is None or not hand:
            return tuple(a.pieces), frozenset()
        st = rec.state
        out = list(a.pieces)
        done: set[str] = set()
        for sid, seen in hand.items():
            if not st.table.has_ship(sid) or sid in st.missing:
                continue
            ship = st.table.ship(sid)
            set_piece = DetectedPiece(ship.size, ship.color, ship.pose, ship.tip_mm(self.config),
                                      ship.sigma_mm, ship.sigma_deg, True, track_id=sid)
            near = [i for i, p in enumerate(out) if p.size == ship.size and rec.same_place(
                seen if seen is not None else ship.pose, p)]
            if seen is None:          # placed where the camera saw nothing: add it
                if not near and not any(p.track_id == sid for p in out):
                    out.append(set_piece)
                    done.add(sid)
            elif near:                # the same misread: the pose the players set instead
                out[near[0]] = replace(set_piece, track_id=out[near[0]].track_id)
                done.add(sid)
        return tuple(out), frozenset(done)

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

    def _turn_refusal(self, shooter_id: str, target_id: str) -> str | None:
        rec = self.recorder
        if rec is None:
            return "the game has not started: waiting for a settled table with two fleets"
        v = check_shot_action(rec.state, shooter_id, target_id)
        return None if v is None else v.reason

    def shot(self, shooter_id: str, target_id: str, view: str = "live") -> dict[str, Any]:
        """rules.md §5 on the table as seen now; ``can_record`` when a yes may be logged."""
        table = self.table(view)
        for f, sid in (("shooter", shooter_id), ("target", target_id)):
            if not table.has_ship(sid):
                raise LookupError(f"{f}: no ship {sid!r} on the table")
        if shooter_id == target_id:
            raise ValueError("target: a ship cannot shoot itself")
        verdict = referee.shot(table, shooter_id, target_id, self.config).to_json()
        refusal = self._turn_refusal(shooter_id, target_id)
        return {"shooter": shooter_id, "target": target_id, "view": view, **verdict,
                "can_record": verdict["verdict"] == "yes" and refusal is None,
                "turn_note": refusal}

    # ---- control (the caller checked the join token) ---------------------------------------
    def record_hit(self, shooter_id: str, target_id: str, view: str = "live") -> dict[str, Any]:
        """Log a shot the page showed as a yes: the game log judges it again on the recorded
        table and logs the shot with its damage (and a sinking's result, a turn's end)."""
        result = self.shot(shooter_id, target_id, view)
        if result["verdict"] != "yes":
            raise ActionRefused(f"the shot is not a hit: {result['reason']}")
        if result["turn_note"]:
            raise ActionRefused(result["turn_note"])
        rec = self._need_game()
        v = self._on_game_thread(rec.declare_shot, shooter_id, target_id)
        with self._lock:                   # the projector shows the shot just recorded
            self.selected, self.last_shot = shooter_id, result
        self._changed()
        if not v.yes:
            raise ActionRefused(f"the game log judged the shot a miss: {v.reason}")
        return result

    def add_damage(self, ship_id: str) -> None:
        """One damage the players rule themselves (not an action), e.g. a shot in doubt."""
        rec = self._need_game()
        try:
            self._on_game_thread(rec.record_hit, ship_id)
        except ValueError:
            raise LookupError(f"ship: no ship {ship_id!r} in the game") from None
        self._changed()

    def end_turn(self) -> None:
        rec = self._need_game()
        self._on_game_thread(rec.end_turn)
        self._changed()

    def undo(self) -> str:
        rec = self._need_game()
        u = self._on_game_thread(rec.undo)
        if u is None:
            raise ActionRefused("nothing to undo")
        self._changed()
        target = next((e for e in rec.events if e.n == u.target), None)
        return _describe(target) if target is not None else f"event {u.target}"

    def select(self, ship_id: str | None, target_id: str | None = None,
               view: str = "live") -> dict[str, Any]:
        """A controlling phone selected ``ship_id`` (None: nothing) and, with ``target_id``,
        asked about the shot at it: what the projector shows (``selected``, ``last_shot``)."""
        if ship_id is None:
            if target_id is not None:
                raise ValueError("target: a shot needs a ship selected")
            with self._lock:
                self.selected, self.last_shot = None, None
            return {"ship": None, "shot": None}
        shot = None
        if target_id is not None:
            shot = self.shot(ship_id, target_id, view)
        elif not self.table(view).has_ship(ship_id):
            raise LookupError(f"ship: no ship {ship_id!r} on the table")
        with self._lock:
            self.selected, self.last_shot = ship_id, shot
        return {"ship": ship_id, "shot": shot}

    def correct(self, flag_n: int, resolution: str, note: str = "") -> str:
        """The players settle pending flag ``flag_n``: ``accept`` (it stands) or ``revert``
        (the pieces go back; the table is expected to follow)."""
        rec = self._need_game()
        if flag_n not in rec.state.pending:
            raise ActionRefused(f"flag: event {flag_n} is not a flag waiting to be settled")
        try:
            c = self._on_game_thread(rec.correct, flag_n, resolution, (), note)
        except ValueError as e:             # settled meanwhile by another phone
            raise ActionRefused(str(e)) from None
        self._changed()
        return _describe(c) or f"correction of #{flag_n}"

    def set_poses(self, flag_n: int, poses: list[tuple[str, float, float, float]],
                  note: str = "") -> str:
        """The players settle pending flag ``flag_n`` by placing ships by hand: ``poses`` are
        (ship, x_mm, y_mm, heading_deg) in the table frame; the heading is normalised to
        [0, 360). Each ship must be one of the game's, not sunk, with its stern inside the
        play area's bounds. Logged as the game log's ``set`` correction, whose changes run from
        the pose recorded now (None for a ship the camera lost) to the pose set."""
        rec = self._need_game()
        if not poses:
            raise ValueError("poses: a set needs at least one ship's pose")
        xs = [p[0] for p in self.layout.play_area_mm]
        ys = [p[1] for p in self.layout.play_area_mm]
        seen: set[str] = set()
        for i, (sid, x, y, h) in enumerate(poses):
            for name, v, lo, hi in (("x_mm", x, min(xs), max(xs)), ("y_mm", y, min(ys), max(ys))):
                if not (math.isfinite(v) and lo <= v <= hi):
                    raise ValueError(f"poses.{i}.{name}: {v} is outside the play area "
                                     f"({lo:g}–{hi:g} mm)")
            if not math.isfinite(h):
                raise ValueError(f"poses.{i}.heading_deg: expected a finite number")
            if sid in seen:
                raise ValueError(f"poses.{i}.ship: {sid} is given twice")
            seen.add(sid)

        def log_set() -> Correction:   # on the game thread: checked and logged at once
            st = rec.state
            if flag_n not in st.pending:
                raise ActionRefused(f"flag: event {flag_n} is not a flag waiting to be settled")
            changes = []
            for i, (sid, x, y, h) in enumerate(poses):
                if st.is_sunk(sid):
                    raise ValueError(f"poses.{i}.ship: {sid} is sunk")
                if not st.table.has_ship(sid):
                    raise LookupError(f"poses.{i}.ship: no ship {sid!r} in the game")
                before = None if sid in st.missing else st.table.ship(sid).pose
                changes.append(Change(sid, before, Pose(float(x), float(y), float(h) % 360.0)))
            try:
                return rec.correct(flag_n, "set", tuple(changes), note)
            except ValueError as e:       # settled meanwhile
                raise ActionRefused(str(e)) from None

        c = self._on_game_thread(log_set)
        self._changed()
        return _describe(c) or f"correction of #{flag_n}"

    def flags_json(self) -> list[dict[str, Any]]:
        """The unresolved flags, oldest first: number, reason, the move it judged illegal
        (``cause``) and the observed changes (table mm, degrees)."""
        rec = self.recorder
        if rec is None:
            return []
        st = rec.state
        pending = set(st.pending)
        events = rec.events
        out = []
        for e in events:
            if isinstance(e, Flagged) and e.n in pending:
                j = e.to_json()
                about = [c.ship for c in e.changes]
                cause = events[e.cause - 1] if e.cause and e.cause <= len(events) else None
                if isinstance(cause, Move):
                    about.insert(0, cause.ship)
                out.append({"n": e.n, "reason": e.reason, "cause": e.cause, "at": e.at,
                            "changes": j.get("changes", []),
                            "ships": [sid for sid in dict.fromkeys(about)
                                      if st.table.has_ship(sid)]})
        return out

    def game_ships_json(self) -> list[dict[str, Any]]:
        """The game's ships as the log has them (not sunk): where a pose can be set by hand
        from (table mm, with the silhouette), ``missing`` when the camera lost it."""
        rec = self.recorder
        if rec is None:
            return []
        st = rec.state
        return [{**referee.ship_json(s, self.config), "missing": s.id in st.missing}
                for s in st.table.ships if not s.sunk]

    def timeline_json(self) -> dict[str, Any]:
        """The game so far for stepping through it: the game log's ``timeline_json`` (per
        event: event, notation token, undone, state after it), cached until the log grows."""
        rec = self.recorder
        pieces = {size.value: {"w": d.base_w_mm, "s": d.footprint_length_mm}
                  for size in Size for d in (self.config.pieces.dims(size),)}
        if rec is None:
            return {"game_id": None, "timeline": [], "pieces": pieces}
        events = self._on_game_thread(lambda: list(rec.events))
        key = (rec.game_id, len(events))
        cached = self._timeline
        if cached is None or cached[0] != key:
            cached = (key, timeline_json(events))
            self._timeline = cached
        return {"game_id": rec.game_id, "timeline": cached[1], "pieces": pieces}

    def _need_game(self) -> Recorder:
        if self.recorder is None:
            raise ActionRefused("the game has not started: waiting for a settled table with "
                                "two fleets")
        return self.recorder

    def _changed(self) -> None:
        with self._lock:
            self.version += 1

    # ---- the vision side ------------------------------------------------------------------
    def restart(self) -> None:
        """The recorded source looped: the next settled view starts a new game."""
        with self._lock:
            self.recorder, self.last_move = None, None
            self.selected, self.last_shot = None, None
            self.views.pop("live", None)
            self.notes.append(_stamp("the recording starts over: new game"))
            self.version += 1

    def on_analysis(self, analysis: FrameAnalysis, view: str = "live") -> None:
        """A new analysed view; a settled one goes to the game log (which judges moves)."""
        with self._lock:
            self.views[view] = analysis
            self.version += 1
        if not analysis.settled or analysis.failure is not None:
            return
        self._on_game_thread(self._observe, analysis, view)

    def _observe(self, analysis: FrameAnalysis, view: str) -> None:
        frame = f"{view}:{analysis.frame_seq}"
        if self.recorder is None:
            table = referee.build_table(analysis.pieces, analysis.upright, self.layout, {},
                                        color_players=self.color_players)
            players = tuple(sorted({s.player for s in table.ships}))
            if len(players) < 2:
                return
            if self.first_player in players:       # turn order: the first player, then on
                i = players.index(self.first_player)
                players = players[i:] + players[:i]
            if self._store is None and self.store_path is not None:
                self._store = GameStore(self.store_path)
            self.games += 1
            game_id = _dt.datetime.now(_dt.UTC).strftime(f"%Y%m%d-%H%M%S-{self.games}")
            rec = Recorder.start(self._store, game_id=game_id, players=players,
                                 ships=table.ships, play_area=self.layout.play_area_mm,
                                 table=self.layout.name.replace(" ", "_") or "table",
                                 config=self.config, pieces=analysis.pieces)
            with self._lock:
                self.recorder = rec
                self.version += 1
            return
        events = self.recorder.observe(analysis.pieces, settled=True, frame=frame)
        with self._lock:
            for e in events:
                if isinstance(e, Move):
                    self.last_move = {"ship": e.ship, "player": e.player, "n": e.n,
                                      "before": _pose_json(e.before),
                                      "after": _pose_json(e.after), "at": time.time(),
                                      **e.verdict.to_json()}
            if events:
                self.version += 1

    # ---- what every page gets ----------------------------------------------------------------
    def turn_json(self) -> dict[str, Any]:
        rec = self.recorder
        if rec is None:
            return {"number": 0, "player": None, "players": [], "actions_left": 0,
                    "moved": [], "fired": {}, "started": False, "pending_flags": [],
                    "result": None}
        st = rec.state
        result = st.result
        return {"number": st.turn, "player": st.player, "players": list(st.players),
                "actions_left": ACTIONS_PER_TURN - st.actions, "moved": sorted(st.moved),
                "fired": dict(st.fired), "started": True, "game_id": rec.game_id,
                "pending_flags": list(st.pending),
                "result": None if result is None else {"winner": result.winner,
                                                       "reason": result.reason}}

    def log_lines(self, n: int = 12) -> list[str]:
        lines = list(self.notes)
        rec = self.recorder
        if rec is not None:
            undone = rec.state.undone
            for e in rec.events:
                text = _describe(e)
                if text:
                    lines.append(f"{e.at[11:19]} {text}" + (" (undone)" if e.n in undone
                                                            else ""))
        return lines[-n:]

    def can_undo(self) -> bool:
        rec = self.recorder
        if rec is None:
            return False
        undone = rec.state.undone
        return any(not isinstance(e, GameStarted | Undo) and e.n not in undone
                   for e in rec.events)

    def state_json(self, view: str = "live") -> dict[str, Any]:
        """The pushed state: calibration, ships (mm), homography, turn, last move, log."""
        with self._lock:
            a = self.views.get(view)
            out: dict[str, Any] = {
                "version": self.version, "view": view, "source": self.source_name,
                "play_area": [list(p) for p in self.layout.play_area_mm],
                "turn": self.turn_json(), "last_move": self.last_move,
                "log": self.log_lines(), "can_undo": self.can_undo(),
                "flags": self.flags_json(), "game_ships": self.game_ships_json(),
                "log_n": 0 if self.recorder is None else len(self.recorder.events),
                "pieces": {size.value: {"w": d.base_w_mm, "s": d.footprint_length_mm}
                           for size in Size for d in (self.config.pieces.dims(size),)},
            }
        if a is None:
            out.update(frame_seq=None, ships=[], sunk=[], calibration={
                "ok": False, "reason": "waiting for the first frame"})
            return out
        pieces, by_hand = self._pieces(a, view)
        everything = referee.build_table(pieces, a.upright, self.layout, self._damage(), True,
                                         self.color_players)
        H = a.H_image_from_table
        cal: dict[str, Any] = {"ok": a.failure is None and H is not None}
        if a.calibration is not None:
            cal.update(a.calibration.to_json())
        if a.failure is not None:
            cal.update(code=a.failure.code, reason=a.failure.reason)
        found = set(a.calibration.markers_found) if a.calibration else set()
        out.update(
            frame_seq=a.frame_seq, captured_at=a.captured_at, image_size=list(a.image_size),
            settled=a.settled, moving=a.moving, occluded=a.occluded,
            vision_ms=round(a.elapsed_ms, 1), calibration=cal,
            H_image_from_table=None if H is None else [[float(v) for v in r] for r in H],
            markers=[{"id": m.id, "corners": m.corners_mm().round(2).tolist()}
                     for m in self.layout.markers if m.id in found],
            ships=[{**referee.ship_json(s, self.config), "set_by_hand": s.id in by_hand}
                   for s in everything.ships if not s.sunk],
            sunk=[referee.ship_json(s, self.config) for s in everything.ships if s.sunk],
            obstacles=[{"id": o.id, "polygon": [list(p) for p in o.polygon_mm]}
                       for o in everything.obstacles],
            off_table=[p.to_json() for p in a.pieces if not p.in_play_area],
        )
        return out


def _describe(e: Any) -> str | None:
    """A log line for the page: the notation token, or a few words for what it leaves out."""
    if isinstance(e, GameStarted):
        return f"game {e.game_id} starts: " + ", ".join(f"{s.id} ({s.player})" for s in e.ships)
    if isinstance(e, Undo):
        return f"undo #{e.target}"
    if isinstance(e, Result):
        return f"{e.winner} wins: {e.reason}"
    if isinstance(e, Flagged):
        return f"flag #{e.n}: {e.reason}"
    if isinstance(e, Correction) and e.resolution == "set":
        placed = ", ".join(f"{c.ship} at ({c.after.x_mm:.0f}, {c.after.y_mm:.0f}, "
                           f"{c.after.heading_deg:.0f}°)" for c in e.changes if c.after)
        return f"{action_text(e)}: {placed}" if placed else action_text(e)
    text = action_text(e)
    if text is None and getattr(e, "kind", "") == "turn_end":
        return f"{e.player}'s turn ends"
    return text


def _stamp(text: str) -> str:
    return f"{time.strftime('%H:%M:%S')} {text}"
