"""Re-adjudicate a recorded game with the current rules and list where they now disagree.

Every setup check, move and shot is judged again on the table as the log had it just before
(the fold of the earlier events, ``judging_table``), with the game's own rules configuration.
A ruling disagrees when yes/no or in-doubt changed, or its deciding margin moved by more than
``margin_tol_mm`` (the rules changed, or a log was edited by hand).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from armada_vision.gamelog.events import Event, GameStarted, Move, SetupChecked, Shot
from armada_vision.gamelog.jsonl import read_jsonl
from armada_vision.gamelog.judge import DEFAULT_JUDGE, Judge
from armada_vision.gamelog.state import (
    check_move_action,
    check_shot_action,
    judging_table,
    move_table,
    states_after_each_event,
)
from armada_vision.gamelog.store import GameLogError, GameStore
from armada_vision.rules.verdict import Verdict


@dataclass(frozen=True, slots=True)
class Recheck:
    """One ruling judged again: the event, what it recorded, what the rules say now."""

    n: int
    what: str
    recorded: Verdict
    now: Verdict
    agrees: bool
    checked: bool = True

    def __str__(self) -> str:
        def v(x: Verdict) -> str:
            m = "" if x.margin_mm is None else f", margin {x.margin_mm:.2f} mm"
            return f"{x.verdict}{' (in doubt)' if x.in_doubt else ''}{m}"

        if not self.checked:
            return f"event {self.n} ({self.what}): not re-checked: {self.now.reason}"
        state = "agrees" if self.agrees else "DISAGREES"
        return (f"event {self.n} ({self.what}): {state}: recorded {v(self.recorded)}; "
                f"now {v(self.now)}: {self.now.reason}")


@dataclass(frozen=True, slots=True)
class ReplayReport:
    game_id: str
    events: int
    rechecks: tuple[Recheck, ...]

    @property
    def disagreements(self) -> tuple[Recheck, ...]:
        return tuple(r for r in self.rechecks if r.checked and not r.agrees)

    @property
    def unchecked(self) -> tuple[Recheck, ...]:
        return tuple(r for r in self.rechecks if not r.checked)


def _agree(a: Verdict, b: Verdict, tol: float) -> bool:
    if (a.yes, a.in_doubt) != (b.yes, b.in_doubt):
        return False
    if a.margin_mm is None or b.margin_mm is None:
        return (a.margin_mm is None) == (b.margin_mm is None)
    if not (math.isfinite(a.margin_mm) and math.isfinite(b.margin_mm)):
        return a.margin_mm == b.margin_mm
    return abs(a.margin_mm - b.margin_mm) <= tol


def readjudicate(events: Sequence[Event], judge: Judge = DEFAULT_JUDGE, *,
                 margin_tol_mm: float = 0.05) -> ReplayReport:
    """Judge every setup check, move and shot of one game again (see the module docstring)."""
    pairs = states_after_each_event(events)
    start = events[0]
    assert isinstance(start, GameStarted)  # states_after_each_event checked it
    config = start.config
    out = []
    for (_e0, before), (e, _after) in itertools.pairwise(pairs):
        if isinstance(e, Move):
            now = check_move_action(before, e.ship) or judge.move(
                move_table(before, e.ship, e.sigma_mm, e.sigma_deg), e.ship, e.after, config)
            what = f"{e.ship} move"
        elif isinstance(e, Shot):
            now = check_shot_action(before, e.shooter, e.target) or judge.shot(
                judging_table(before), e.shooter, e.target, config)
            what = f"{e.shooter} x {e.target}"
        elif isinstance(e, SetupChecked):
            now, _warnings = judge.setup(judging_table(before), config)
            what = "setup"
        else:
            continue
        checked = now.decided_by != "unavailable"
        out.append(Recheck(e.n, what, e.verdict, now,
                           checked and _agree(e.verdict, now, margin_tol_mm), checked))
    return ReplayReport(start.game_id, len(events), tuple(out))


def is_sqlite(path: str | Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def load_games(path: str | Path) -> dict[str, list[Event]]:
    """Every game in a log file: a SQLite store or JSON Lines, told apart by content."""
    p = Path(path)
    if not p.exists():
        raise GameLogError(f"{p}: no such file")
    if is_sqlite(p):
        with GameStore(p) as store:
            return {g.game_id: store.events(g.game_id) for g in store.games()}
    games: dict[str, list[Event]] = {}
    for e in read_jsonl(p):
        games.setdefault(e.game_id, []).append(e)
    return games
