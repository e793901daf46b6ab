"""``armada-vision log show|export|import``: read and move game logs between formats.

A game log is a SQLite database (what the recorder writes) or a JSON Lines file (one event per
line). ``show`` prints a game in the PGN-like notation of docs/gamelog.md (or one event per line
in the text form), ``export`` writes JSON Lines or the notation, ``import`` appends a JSON Lines
file's games to a database.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from armada_vision.cli import CliError

FORMATS = ("notation", "jsonl", "text")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("log", help="show, export or import recorded games",
                       description="Show a recorded game, export it (JSON Lines or notation) "
                                   "or import a JSON Lines file into a game-log database.")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    show = verbs.add_parser("show", help="print a game (notation by default); without --game "
                            "and with several games, list them")
    show.add_argument("log", help="SQLite database or JSON Lines file")
    show.add_argument("--game", default=None)
    show.add_argument("--format", choices=FORMATS, default="notation")
    exp = verbs.add_parser("export", help="write a game as JSON Lines or notation")
    exp.add_argument("log", help="SQLite database or JSON Lines file")
    exp.add_argument("--game", default=None, help="game id (default: the only game, or all "
                     "games for JSON Lines)")
    exp.add_argument("--format", choices=FORMATS, default="jsonl")
    exp.add_argument("-o", "--out", default=None, help="output file (default: stdout)")
    imp = verbs.add_parser("import", help="append a JSON Lines file's games to a database")
    imp.add_argument("jsonl", help="JSON Lines file")
    imp.add_argument("--db", required=True, help="game-log database (created if missing)")
    p.set_defaults(run=run)


def _select(games: dict, game: str | None, source: str, allow_all: bool) -> list[str]:
    if game is not None:
        if game not in games:
            raise CliError(f"--game: no game {game!r} in {source}")
        return [game]
    if not games:
        raise CliError(f"{source}: no games in the log")
    if len(games) > 1 and not allow_all:
        raise CliError(f"--game: {source} holds {len(games)} games ({', '.join(games)}); "
                       "say which")
    return list(games)


def _render(events: list, fmt: str) -> str:
    from armada_vision.gamelog.jsonl import dumps_jsonl
    from armada_vision.gamelog.notation import to_notation

    if fmt == "jsonl":
        return dumps_jsonl(events)
    if fmt == "text":
        return "".join(f"{e}\n" for e in events)
    return to_notation(events)


def run(args: argparse.Namespace) -> int:
    from armada_vision.gamelog.jsonl import read_jsonl
    from armada_vision.gamelog.replay import load_games
    from armada_vision.gamelog.store import GameLogError, GameStore

    try:
        if args.verb == "import":
            events = read_jsonl(args.jsonl)
            with GameStore(args.db) as store:
                existing = {g.game_id for g in store.games()}
                clash = sorted({e.game_id for e in events} & existing)
                if clash:
                    raise CliError(f"{args.jsonl}: game {clash[0]!r} is already in {args.db}")
                store.extend(events, atomic=True)   # all or nothing
            n_games = len({e.game_id for e in events})
            print(f"imported {len(events)} events of {n_games} game(s) into {args.db}")
            return 0
        games = load_games(args.log)
        if args.verb == "show":
            if args.game is None and len(games) > 1:
                for gid, events in games.items():
                    print(f"{gid}\t{len(events)} events")
                return 0
            (gid,) = _select(games, args.game, args.log, allow_all=False)
            sys.stdout.write(_render(games[gid], args.format))
            return 0
        ids = _select(games, args.game, args.log, allow_all=args.format == "jsonl")
        text = "".join(_render(games[g], args.format) for g in ids)
        if args.out is None:
            sys.stdout.write(text)
        else:
            Path(args.out).write_text(text, encoding="utf-8")
        return 0
    except GameLogError as e:
        raise CliError(str(e)) from None
