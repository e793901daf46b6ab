"""``armada-vision replay LOG``: re-adjudicate a recorded game with the current rules.

LOG is a game-log database (SQLite) or a JSON Lines export. Every move and shot is judged again
on the table as the log had it; each disagreement is printed and the exit status is 1 if any.
"""

from __future__ import annotations

import argparse
import json

from armada_vision.cli import CliError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-adjudicate a recorded game with the current rules",
                       description="Judge every move and shot of a recorded game again and "
                                   "report where the current rules disagree (exit 1 if any).")
    p.add_argument("log", help="game log: SQLite database or JSON Lines file")
    p.add_argument("--game", default=None, help="game id (default: every game in the log)")
    p.add_argument("--margin-tol", type=float, default=0.05, metavar="MM",
                   help="margins may differ by this much and still agree (default 0.05 mm)")
    p.add_argument("--all", action="store_true", help="print every ruling, not only "
                   "disagreements")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from armada_vision.gamelog.replay import load_games, readjudicate
    from armada_vision.gamelog.store import GameLogError

    if not args.margin_tol >= 0:
        raise CliError("--margin-tol: expected a margin ≥ 0 mm")
    try:
        games = load_games(args.log)
    except GameLogError as e:
        raise CliError(str(e)) from None
    if args.game is not None:
        if args.game not in games:
            raise CliError(f"--game: no game {args.game!r} in {args.log}")
        games = {args.game: games[args.game]}
    if not games:
        raise CliError(f"{args.log}: no games in the log")
    reports = []
    for events in games.values():
        try:
            reports.append(readjudicate(events, margin_tol_mm=args.margin_tol))
        except ValueError as e:
            raise CliError(f"{args.log}: {e}") from None
    bad = sum(len(r.disagreements) for r in reports)
    if args.json:
        print(json.dumps({"games": [{
            "game": r.game_id, "events": r.events, "rulings": len(r.rechecks),
            "disagreements": [{"n": d.n, "what": d.what, "recorded": d.recorded.to_json(),
                               "now": d.now.to_json()} for d in r.disagreements],
            "unchecked": [{"n": d.n, "what": d.what, "reason": d.now.reason}
                          for d in r.unchecked]} for r in reports],
            "disagreements": bad}, indent=1))
    else:
        for r in reports:
            print(f"game {r.game_id}: {r.events} events, {len(r.rechecks)} rulings re-judged, "
                  f"{len(r.disagreements)} disagreement(s)"
                  + (f", {len(r.unchecked)} not re-checked" if r.unchecked else ""))
            for x in r.rechecks:
                if args.all or not x.agrees:
                    print(f"  {x}")
    return 1 if bad else 0
