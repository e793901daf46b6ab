"""The recorder: turns settled tables and taps on the phone into logged events.

It is fed what the tracker sees (``observe``: lying pieces with stable track ids, and whether
the table is settled / a hand is over it) and what players declare (``declare_shot``,
``record_hit``, ``end_turn``, ``undo``, ``correct``). Nothing is judged while pieces move or a
hand is over the table. When the table settles, the settled pieces are matched to the ships of
the game (by track id, else the nearest piece of the same size within reach) and compared with
the table as last recorded:

- one ship moved: the move is judged (turn rules of §3, then the geometry of §4) and logged with
  its reconstructed steps; an illegal move is followed by a ``flagged`` event; anything else
  that changed in the same view is flagged on its own;
- a ship with damage equal to its pips gone from the table: ``sinking``;
- pieces back where a pending flag found them: ``correction`` (restored), first;
- anything else (two ships moved at once, a ship gone unsunk, a piece nobody owns): ``flagged``,
  for the players to confirm or correct.

A pose the players ``set`` by hand (the camera misread the piece, or lost it) stands while the
camera goes on showing what it showed then: the piece is not taken to have moved until it is
seen somewhere else (:func:`hand_set_readings`).

After a hit or a legal move the rules say whether the game is won (``result``, §6); after the
third action the turn ends (``turn_end``).

Every event goes to the store (one transaction each) before the recorder moves on, so a killed
process resumes with ``Recorder.resume(store, game_id)``. Poses are table-frame mm.
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from armada_vision.gamelog.events import (
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
)
from armada_vision.gamelog.judge import DEFAULT_JUDGE, Judge
from armada_vision.gamelog.state import (
    ACTIONS_PER_TURN,
    LogState,
    apply_event,
    check_move_action,
    check_shot_action,
    judging_table,
    move_table,
    replay_state,
    stray_label,
    stray_size,
)
from armada_vision.gamelog.store import GameStore
from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.table import Ship
from armada_vision.rules.verdict import Verdict
from armada_vision.vision.types import DetectedPiece

Point = tuple[float, float]


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")


def name_ships(pieces: Iterable[DetectedPiece], owner: Callable[[DetectedPiece], str | None]
               ) -> tuple[Ship, ...]:
    """Ships for the pieces in the play area that ``owner`` gives a player: ids by size letter
    and order along the table (``L1``, ``L2``, ``M1``, … by x then y, table mm).

    >>> from armada_vision.geometry.pose import Pose
    >>> p = [DetectedPiece(Size.LARGE, "red", Pose(300, 50, 90), (0, 0), 0.3, 0.4, True),
    ...      DetectedPiece(Size.LARGE, "red", Pose(100, 50, 90), (0, 0), 0.3, 0.4, True)]
    >>> [(s.id, s.pose.x_mm) for s in name_ships(p, lambda d: "A")]
    [('L1', 100.0), ('L2', 300.0)]
    """
    ordered = sorted((d for d in pieces if d.in_play_area and owner(d) is not None),
                     key=lambda d: (d.size.value, d.pose.x_mm, d.pose.y_mm))
    count: dict[Size, int] = {}
    ships = []
    for d in ordered:
        count[d.size] = count.get(d.size, 0) + 1
        ships.append(Ship(f"{d.size.value[0].upper()}{count[d.size]}", str(owner(d)), d.size,
                          d.pose, 0, d.sigma_mm, d.sigma_deg, d.color))
    return tuple(ships)


def hand_set_readings(events: Iterable[Event], undone: Iterable[int] = ()
                      ) -> dict[str, Pose | None]:
    """Ships whose recorded pose was last set by hand (a ``set`` correction), each with what
    the camera showed when it was set: the change's ``before`` (table mm), None when the piece
    was not in view. A later move, flag, correction or sinking of the ship ends it; undone
    events (``undone``) do not count.

    >>> from armada_vision.gamelog.events import Correction
    >>> seen, true = Pose(100, 100, 20), Pose(100, 100, 0)
    >>> fix = Correction(game_id="g", n=5, target=4, resolution="set",
    ...                  changes=(Change("L1", seen, true),))
    >>> hand_set_readings([fix]) == {"L1": seen}, hand_set_readings([fix], undone={5})
    (True, {})
    """
    skip = set(undone)
    out: dict[str, Pose | None] = {}
    for e in events:
        if e.n in skip:
            continue
        if isinstance(e, Correction) and e.resolution == "set":
            for c in e.changes:
                if c.after is None:
                    out.pop(c.ship, None)
                else:
                    out[c.ship] = c.before
        elif isinstance(e, Flagged | Correction):
            for c in e.changes:
                out.pop(c.ship, None)
        elif isinstance(e, Move | Sinking):
            out.pop(e.ship, None)
    return {k: v for k, v in out.items() if not k.startswith("?")}


class Recorder:
    """Records one game. Build with :meth:`start` (new game) or :meth:`resume` (after a
    restart); ``store`` may be None for an in-memory log (tests, previews).

    ``still_mm`` / ``still_deg``: how far a piece may drift between settled views (beyond 3σ)
    and still count as not moved. ``judge``: the rules used (default: the rules core).
    """

    def __init__(self, store: GameStore | None, events: Sequence[Event], *,
                 judge: Judge = DEFAULT_JUDGE, still_mm: float = 1.5, still_deg: float = 2.0,
                 clock: Callable[[], str] = now_iso) -> None:
        if not events or not isinstance(events[0], GameStarted):
            raise ValueError("events: a recorder needs a log that begins with a game start")
        self.store, self.judge, self.clock = store, judge, clock
        self.still_mm, self.still_deg = still_mm, still_deg
        self._events: list[Event] = list(events)
        self._by_n = {e.n: e for e in self._events}
        self._state = replay_state(self._events)
        self._start: GameStarted = events[0]
        self._track_to_ship: dict[str, str] = {}
        self._hand_set = hand_set_readings(self._events, self._state.undone)

    # -- construction
    @classmethod
    def start(cls, store: GameStore | None, *, game_id: str, players: Sequence[str],
              ships: Sequence[Ship], play_area: Sequence[Point], variant: str = "basic",
              table: str = "table", calibration: str = "", date: str | None = None,
              config: RulesConfig = DEFAULT_CONFIG, flagships: Sequence[str] = (),
              goal_line: Sequence[Point] = (), attacker: str = "",
              pieces: Sequence[DetectedPiece] = (), **kw: Any) -> Recorder:
        """Log a game start and return its recorder. ``pieces``: the detections the ships were
        named from, so their track ids are known from the first frame. ``flagships`` /
        ``goal_line`` + ``attacker``: the §6 variants (see :class:`GameStarted`)."""
        if store is not None and store.next_n(game_id) != 1:
            raise ValueError(f"game_id: game {game_id!r} is already in {store.path}; "
                             "resume it or choose another id")
        clock = kw.get("clock", now_iso)
        at = clock()
        start = GameStarted(game_id=game_id, n=1, at=at, players=tuple(players),
                            date=date or at[:10], ships=tuple(ships),
                            play_area=tuple((float(x), float(y)) for x, y in play_area),
                            variant=variant, table=table, calibration=calibration,
                            config=config, flagships=tuple(flagships),
                            goal_line=tuple((float(x), float(y)) for x, y in goal_line),
                            attacker=attacker)
        if store is not None:
            store.append(start)
        rec = cls(store, [start], **kw)
        rec._map_tracks(pieces)
        return rec

    @classmethod
    def resume(cls, store: GameStore, game_id: str, *, pieces: Sequence[DetectedPiece] = (),
               **kw: Any) -> Recorder:
        """The recorder of a game already in ``store``, in the state its events leave it.
        ``pieces``: the current settled view, so the tracker's ids are tied to the ships again
        (a restart loses that tie; without it, a ship moved farther than one move's reach
        before the next view is flagged for the players rather than guessed)."""
        events = store.events(game_id)
        if not events:
            raise ValueError(f"game_id: no game {game_id!r} in {store.path}")
        rec = cls(store, events, **kw)
        rec._map_tracks(pieces)
        return rec

    # -- what the outside reads
    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def state(self) -> LogState:
        return self._state

    @property
    def game_id(self) -> str:
        return self._start.game_id

    @property
    def config(self) -> RulesConfig:
        return self._start.config

    @property
    def hand_set(self) -> dict[str, Pose | None]:
        """Ships placed by hand (``set``) → what the camera showed when they were set (None:
        not in view); see :func:`hand_set_readings`. A copy: safe to read from any thread."""
        return dict(self._hand_set)

    # -- logging
    def _log(self, cls: type[Event], **fields: Any) -> Event:
        e = cls(game_id=self.game_id, n=len(self._events) + 1, at=self.clock(), **fields)
        if self.store is not None:
            self.store.append(e)  # committed before the recorder's own state moves on
        self._events.append(e)
        self._by_n[e.n] = e
        self._state = (replay_state(self._events) if isinstance(e, Undo)
                       else apply_event(self._state, e, self._by_n))
        if isinstance(e, Undo | Correction | Flagged | Move | Sinking):
            # replaced, not mutated: another thread may be reading the old one
            self._hand_set = hand_set_readings(self._events, self._state.undone)
        return e

    # -- the phone
    def check_setup(self, verdict: Verdict | None = None, warnings: Sequence[str] = ()
                    ) -> SetupChecked:
        """Log the setup check (rules.md §2): by default the rules' own check of the table as
        recorded (``judge.setup``); or a verdict given by the caller."""
        if verdict is None:
            verdict, warnings = self.judge.setup(judging_table(self._state), self.config)
        return self._log(SetupChecked, verdict=verdict, warnings=tuple(warnings))

    def declare_shot(self, shooter: str, target: str) -> Verdict:
        """Judge and log a shot declared on the phone. A yes is a hit: its damage (and a
        result, and the turn's end after the third action) are logged with it."""
        s = self._state
        v = check_shot_action(s, shooter, target) or self._judged(
            self.judge.shot, judging_table(s), shooter, target, self.config)
        shot = self._log(Shot, player=s.player, shooter=shooter, target=target, verdict=v)
        if v.yes:
            self._damage(target, shooter, shot.n)
            self._maybe_end_turn(shot.n)
        return v

    def record_hit(self, target: str, by: str | None = None, note: str = "") -> list[Event]:
        """A hit the players rule themselves (e.g. a shot in doubt they agree hit): one damage
        to ``target``, not counted as an action. Returns the events logged."""
        if not self._state.table.has_ship(target):
            raise ValueError(f"target: no ship {target!r} on the table")
        n0 = len(self._events)
        self._damage(target, by, None)
        return self._events[n0:]

    def end_turn(self) -> TurnEnd:
        """The player taps 'end turn'."""
        return self._log(TurnEnd, player=self._state.player, reason="tap")

    def undo(self, note: str = "") -> Undo | None:
        """Take back the last action (with what it caused); None when there is nothing to take
        back. Undoing a move does not move the piece: put it back, or the next settled view
        records the move again."""
        undone = self._state.undone
        for e in reversed(self._events):
            if isinstance(e, Undo | GameStarted) or e.n in undone:
                continue
            root = e
            while root.cause is not None and root.cause in self._by_n:
                root = self._by_n[root.cause]
            if isinstance(root, GameStarted) or root.n in undone:
                continue
            return self._log(Undo, target=root.n, note=note)
        return None

    def correct(self, flag_n: int, resolution: str, changes: Sequence[Change] = (),
                note: str = "") -> Correction:
        """The players' answer to flag ``flag_n``: ``accept`` (it stands), ``revert`` (the
        pieces go back where they were: the table is expected to follow), or ``set`` with the
        poses in ``changes`` (``Change(ship, pose recorded now, pose set)``): a set pose stands
        while the camera goes on showing the ``before`` pose (a misread piece), or, with
        ``before`` None, while it shows nothing of the ship (a piece it lost)."""
        flag = self._by_n.get(flag_n)
        if not isinstance(flag, Flagged) or flag_n not in self._state.pending:
            raise ValueError(f"flag: event {flag_n} is not a pending flag")
        if resolution == "revert" and not changes:
            changes = tuple(Change(ship, self._current_pose(ship), before)
                            for ship, before in self._revert_targets(flag).items())
        return self._log(Correction, target=flag_n, resolution=resolution,
                         changes=tuple(changes), note=note)

    # -- the camera
    def observe_track(self, track: Any, frame: str = "") -> list[Event]:
        """Feed a tracker state (``vision.track.TrackState``: its ``pieces`` or
        ``detections.pieces``, ``settled`` and ``occluded``/``moving`` flags). A state with a
        vision ``failure`` is not judged."""
        if getattr(track, "failure", None) is not None:
            return []
        pieces = getattr(track, "pieces", None)
        if pieces is None:
            pieces = getattr(getattr(track, "detections", None), "pieces", ())
        return self.observe(pieces or (), settled=bool(getattr(track, "settled", False)),
                            occluded=bool(getattr(track, "occluded", False)
                                          or getattr(track, "moving", False)), frame=frame)

    def observe(self, pieces: Sequence[DetectedPiece], *, settled: bool = True,
                occluded: bool = False, frame: str = "") -> list[Event]:
        """Compare a settled view of the table with the recorded one and log what changed.
        Returns the events logged (none while unsettled or occluded)."""
        if not settled or occluded:
            return []
        n0 = len(self._events)
        s = self._state
        found = self._match(pieces)
        moved: dict[str, DetectedPiece] = {}
        vanished: list[str] = []
        back: dict[str, DetectedPiece] = {}
        hand = self._hand_set
        for ship in s.table.ships:
            d = found.get(ship.id)
            if d is None:
                # a ship the players placed by hand where the camera saw nothing is not gone
                if ship.id not in s.missing and not (ship.id in hand and hand[ship.id] is None):
                    vanished.append(ship.id)
            elif ship.id in s.missing:
                back[ship.id] = d
            elif not self.same_place(ship.pose, d) and not (
                    hand.get(ship.id) is not None and self.same_place(hand[ship.id], d)):
                moved[ship.id] = d
        extras = self._extras(pieces, found)

        for sid in [v for v in vanished if s.table.ship(v).sunk]:
            self._log(Sinking, ship=sid, frame=frame)
            vanished.remove(sid)
        if not (moved or vanished or back or extras):
            return self._events[n0:]

        for sid in self._restore_flags({**moved, **back}, frame):
            moved.pop(sid, None)
            back.pop(sid, None)
        if len(moved) == 1:
            # One ship moved: judge it; whatever else changed is flagged on its own.
            ((sid, d),) = moved.items()
            self._move(sid, d, frame)
            moved = {}
        if moved or vanished or back or extras:
            self._flag(moved, vanished, back, extras, frame)
        return self._events[n0:]

    def _flag(self, moved: dict[str, DetectedPiece], vanished: list[str],
              back: dict[str, DetectedPiece], extras: list[DetectedPiece], frame: str) -> None:
        s = self._state
        changes = [Change(sid, s.table.ship(sid).pose, d.pose) for sid, d in moved.items()]
        changes += [Change(sid, s.table.ship(sid).pose, None) for sid in vanished]
        changes += [Change(sid, None, d.pose) for sid, d in back.items()]
        n_next = len(self._events) + 1
        changes += [Change(stray_label(d.size, n_next, k), None, d.pose)
                    for k, d in enumerate(extras)]
        self._log(Flagged, reason=self._describe(moved, vanished, back, extras),
                  changes=tuple(changes), frame=frame)

    # -- internals
    def _move(self, sid: str, d: DetectedPiece, frame: str) -> None:
        s = self._state
        ship = s.table.ship(sid)
        v = check_move_action(s, sid) or self._judged(
            self.judge.move, move_table(s, sid, d.sigma_mm, d.sigma_deg), sid, d.pose,
            self.config)
        mv = self._log(Move, player=s.player, ship=sid, before=ship.pose, after=d.pose,
                       verdict=v, sigma_mm=d.sigma_mm, sigma_deg=d.sigma_deg,
                       before_sigma_mm=ship.sigma_mm, before_sigma_deg=ship.sigma_deg,
                       frame=frame)
        if v.yes:
            self._check_victory(mv.n)       # a breakthrough is won by moving
            self._maybe_end_turn(mv.n)
        else:
            # In doubt is not illegal: the players are asked to look, not told of a foul.
            reason = (f"move of {sid} in doubt: {v.reason}" if v.in_doubt
                      else f"illegal move of {sid}: {v.reason}")
            self._log(Flagged, reason=reason, cause=mv.n, frame=frame)

    @staticmethod
    def _judged(fn: Callable[..., Verdict], *args: Any) -> Verdict:
        """A ruling; should the rules fail on a table they were not written for, the game is
        not lost: the failure becomes a no the players see (and the move a flag)."""
        try:
            return fn(*args)
        except Exception as e:  # a recorder must not die mid-game
            return Verdict.no(f"the rules could not judge this ({type(e).__name__}: {e})",
                              decided_by="error")

    def _damage(self, target: str, by: str | None, cause: int | None) -> None:
        ship = self._state.table.ship(target)
        dmg = self._log(Damage, ship=target, damage=ship.damage + 1, by=by, cause=cause)
        self._check_victory(dmg.n)

    def _check_victory(self, cause: int) -> None:
        """Ask the rules (``rules.game.victory``, §6) whether the game is won now."""
        if self._state.result is not None:
            return
        from armada_vision.rules.game import victory

        out = victory(self._state.game_state)
        if out is not None:
            self._log(Result, winner=out.winner, reason=out.reason, cause=cause)

    def _maybe_end_turn(self, cause: int) -> None:
        s = self._state
        if s.actions >= ACTIONS_PER_TURN and s.result is None:
            self._log(TurnEnd, player=s.player, reason="actions", cause=cause)

    def _current_pose(self, ship: str) -> Pose | None:
        s = self._state
        if ship.startswith("?"):
            return dict(s.strays).get(ship)
        if not s.table.has_ship(ship) or ship in s.missing:
            return None
        return s.table.ship(ship).pose

    def _revert_targets(self, flag: Flagged) -> dict[str, Pose | None]:
        """Where the pieces a flag is about stood before it."""
        cause = self._by_n.get(flag.cause) if flag.cause is not None else None
        if isinstance(cause, Move):
            return {cause.ship: cause.before}
        return {c.ship: c.before for c in flag.changes}

    def _restore_flags(self, seen: dict[str, DetectedPiece], frame: str) -> set[str]:
        """Pieces put back where pending flags found them: log a correction for each flag whose
        pieces are all back; returns the ships so explained."""
        done: set[str] = set()
        for flag_n in reversed(self._state.pending):
            flag = self._by_n[flag_n]
            assert isinstance(flag, Flagged)
            targets = {k: v for k, v in self._revert_targets(flag).items()
                       if not k.startswith("?")}
            if not targets or done & set(targets) or not all(
                    k in seen and p is not None and self._near(p, seen[k], loose=True)
                    for k, p in targets.items()):
                continue
            changes = tuple(Change(k, self._current_pose(k), seen[k].pose) for k in targets)
            self._log(Correction, target=flag_n, resolution="restored", changes=changes,
                      note=f"pieces back as before (frame {frame})" if frame else "")
            done |= set(targets)
        return done

    def _near(self, pose: Pose, d: DetectedPiece, loose: bool = False) -> bool:
        tol_mm = 3 * d.sigma_mm + self.still_mm
        tol_deg = 3 * d.sigma_deg + self.still_deg
        if loose:  # a piece put back by hand: the placement tolerance of §4
            tol_mm += self.config.place_tol_mm
            tol_deg += self.config.place_tol_deg
        return (math.dist(pose.stern_mm, d.pose.stern_mm) <= tol_mm
                and abs(angle_diff_deg(pose.heading_deg, d.pose.heading_deg)) <= tol_deg)

    def same_place(self, pose: Pose, d: DetectedPiece) -> bool:
        """Whether piece ``d`` seen now is a piece at ``pose`` (table mm) that has not moved:
        within 3σ of its reading plus the still allowance (``still_mm``, ``still_deg``)."""
        return self._near(pose, d)

    def _map_tracks(self, pieces: Iterable[DetectedPiece]) -> None:
        for d in pieces:
            if d.track_id is None:
                continue
            for ship in self._state.table.ships:
                if ship.size == d.size and self._near(ship.pose, d):
                    self._track_to_ship[d.track_id] = ship.id

    def _reach_mm(self, size: Size) -> float:
        """Farthest a ship's stern can go in one move, with room for placement."""
        d = self.config.pieces.dims(size)
        return size.max_steps * d.footprint_length_mm + 2 * self.config.place_tol_mm + 10.0

    def _match(self, pieces: Sequence[DetectedPiece]) -> dict[str, DetectedPiece]:
        """Ship id → its piece in this view: by track id first, then the nearest unclaimed
        piece of the same size (and colour, when both are known) within a move's reach."""
        table = self._state.table
        found: dict[str, DetectedPiece] = {}
        claimed: set[int] = set()
        for i, d in enumerate(pieces):
            sid = self._track_to_ship.get(d.track_id) if d.track_id is not None else None
            if sid is not None and table.has_ship(sid) and sid not in found:
                found[sid] = d
                claimed.add(i)
        pairs = []
        for ship in table.ships:
            if ship.id in found:
                continue
            for i, d in enumerate(pieces):
                if i in claimed or not d.in_play_area or d.size != ship.size:
                    continue
                if "unknown" not in (d.color, ship.color) and d.color != ship.color:
                    continue
                dist = math.dist(ship.pose.stern_mm, d.pose.stern_mm)
                if dist <= self._reach_mm(ship.size):
                    pairs.append((dist, ship.id, i))
        for _dist, sid, i in sorted(pairs):
            if sid in found or i in claimed:
                continue
            found[sid] = pieces[i]
            claimed.add(i)
            if pieces[i].track_id is not None:
                self._track_to_ship = {t: s for t, s in self._track_to_ship.items() if s != sid}
                self._track_to_ship[pieces[i].track_id] = sid
        return found

    def _extras(self, pieces: Sequence[DetectedPiece], found: dict[str, DetectedPiece]
                ) -> list[DetectedPiece]:
        """Pieces in the play area that are no ship's and no known stray's."""
        mine = {id(d) for d in found.values()}
        strays = list(self._state.strays)
        out = []
        for d in pieces:
            if id(d) in mine or not d.in_play_area:
                continue
            hit = next((k for k, (label, pose) in enumerate(strays)
                        if stray_size(label) == d.size and self._near(pose, d, loose=True)),
                       None)
            if hit is None:
                out.append(d)
            else:
                strays.pop(hit)
        return out

    def _describe(self, moved: dict[str, DetectedPiece], vanished: list[str],
                  back: dict[str, DetectedPiece], extras: list[DetectedPiece]) -> str:
        parts = []
        if len(moved) > 1:
            parts.append(f"{len(moved)} ships moved at once: {', '.join(sorted(moved))}")
        elif moved:
            parts.append(f"{next(iter(moved))} moved")
        parts += [f"{sid} left the table without being sunk" for sid in vanished]
        parts += [f"{sid} is back on the table" for sid in back]
        parts += [f"a {d.size.value} piece nobody owns appeared at "
                  f"({d.pose.x_mm:.0f}, {d.pose.y_mm:.0f}) mm" for d in extras]
        return "; ".join(parts) + ": please confirm or correct"

