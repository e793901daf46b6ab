"""The game log on disk: an append-only SQLite table, one transaction per event.

WAL journal with ``synchronous=FULL``: once :meth:`GameStore.append` returns, the event survives
the process being killed (and a power cut). Rows are never updated or deleted (triggers refuse
it): a correction or an undo is a new event. Each row keeps a CRC-32 of its JSON, so a garbled
row is named instead of misread; :meth:`GameStore.open` runs SQLite's own check and reads every
row back, so a damaged file is refused on open with the row (``seq``) that is wrong.

>>> import tempfile, pathlib
>>> from armada_vision.gamelog.events import GameStarted, TurnEnd
>>> path = pathlib.Path(tempfile.mkdtemp()) / "club.sqlite"
>>> start = GameStarted(game_id="g", n=1, players=("A", "B"), date="2026-11-23", ships=(),
...                     play_area=((0, 0), (600, 0), (600, 600)))
>>> with GameStore(path) as store:
...     seqs = [store.append(start), store.append(TurnEnd(game_id="g", n=2, player="A"))]
>>> with GameStore(path) as store:
...     [e.kind for e in store.events("g")], store.next_n("g")
(['started', 'turn_end'], 3)
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
import zlib
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from armada_vision.gamelog.events import Event, GameStarted, event_from_json

SCHEMA_VERSION = "1"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    kind TEXT NOT NULL,
    event TEXT NOT NULL,
    crc INTEGER NOT NULL,
    created TEXT NOT NULL,
    UNIQUE (game_id, n)
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
"""


class GameLogError(ValueError):
    """A log that cannot be trusted or an event that cannot be stored; the message names the
    file and the row (``seq``) or line that is wrong."""


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row: global ``seq``, creation time (ISO 8601 UTC) and the event."""

    seq: int
    created: str
    event: Event


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game in a store: id, number of events, its start event (None if it has none)."""

    game_id: str
    events: int
    started: GameStarted | None


def encode_event(event: Event) -> str:
    """The compact JSON text stored for an event (and written as one JSON Lines line)."""
    return json.dumps(event.to_json(), separators=(",", ":"), ensure_ascii=False)


def _crc(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


class GameStore:
    """Games in one SQLite file. ``GameStore(path)`` opens (creating if needed) and checks it.

    ``verify``: ``"quick"`` (default: PRAGMA quick_check and every row read back), ``"full"``
    (PRAGMA integrity_check), or ``"none"``.
    """

    def __init__(self, path: str | Path, *, verify: str = "quick") -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        except sqlite3.Error as e:
            raise GameLogError(f"{self.path}: cannot open ({e})") from None
        try:
            self._db.execute("PRAGMA busy_timeout = 10000")
            if verify != "none":
                self._sqlite_check(full=verify == "full")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            self._db.executescript(_SCHEMA)
            self._db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                             (SCHEMA_VERSION,))
            if verify != "none":
                self.verify_rows()
        except sqlite3.DatabaseError as e:
            where = self._first_bad_row()
            self._db.close()
            raise GameLogError(f"{self.path}: not a readable game log ({e}){where}") from None
        except GameLogError as e:
            where = "" if "row seq=" in str(e) else self._first_bad_row()
            self._db.close()
            if where:
                raise GameLogError(f"{e}{where}") from None
            raise

    # -- lifecycle
    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, et: type[BaseException] | None, ev: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- integrity
    def _sqlite_check(self, full: bool) -> None:
        pragma = "integrity_check" if full else "quick_check"
        problems = [r[0] for r in self._db.execute(f"PRAGMA {pragma}(20)")]
        if problems != ["ok"]:
            text = "; ".join(" ".join(p.split()) for p in problems[:3])
            raise GameLogError(f"{self.path}: database damaged: {text}")

    def _first_bad_row(self) -> str:
        """Best effort on a damaged file: read rows one by one (each by its key, so only its
        own b-tree path is touched) and name the first that cannot be read."""
        try:
            top = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'"
                                   ).fetchone()
        except sqlite3.DatabaseError:
            top = None
        if top is None:
            return self._truncation()
        for seq in range(1, int(top[0]) + 1):
            try:
                row = self._db.execute("SELECT seq, game_id, n, kind, event, crc, created "
                                       "FROM events WHERE seq = ?", (seq,)).fetchone()
                if row is not None:
                    self._decode(row)
            except (sqlite3.DatabaseError, GameLogError):
                return f"; row seq={seq} is the first that cannot be read"
        return ""

    def _truncation(self) -> str:
        """Compare the file's length with the size its SQLite header records."""
        try:
            with open(self.path, "rb") as f:
                head = f.read(100)
            size = self.path.stat().st_size
        except OSError:
            return ""
        if len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
            return ""
        page = int.from_bytes(head[16:18], "big") or 65536
        pages = int.from_bytes(head[28:32], "big")
        valid = head[24:28] == head[92:96]  # the recorded size is current only then
        if valid and size < page * pages:
            return (f"; the file is {size} bytes but its header says {page * pages}: "
                    "it was truncated")
        return ""

    def verify_rows(self) -> int:
        """Read every row back (checksum, JSON, numbering); returns the number of rows."""
        count = 0
        last: dict[str, int] = {}
        for row in self._rows("SELECT seq, game_id, n, kind, event, crc, created FROM events "
                              "ORDER BY seq", ()):
            ev = self._decode(row)
            expected = last.get(ev.event.game_id, 0) + 1
            if ev.event.n != expected:
                raise GameLogError(f"{self.path}: row seq={ev.seq}: game {ev.event.game_id} "
                                   f"event numbered {ev.event.n}, expected {expected}")
            last[ev.event.game_id] = ev.event.n
            count += 1
        return count

    def _rows(self, sql: str, params: tuple) -> list[tuple]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.DatabaseError as e:
            raise GameLogError(f"{self.path}: cannot read events ({e})") from None

    def _decode(self, row: tuple) -> StoredEvent:
        seq, game_id, n, kind, text, crc, created = row
        where = f"{self.path}: row seq={seq}"
        if not isinstance(text, str) or _crc(text) != crc:
            raise GameLogError(f"{where}: checksum mismatch, the stored event is damaged")
        try:
            ev = event_from_json(json.loads(text))
        except json.JSONDecodeError as e:
            raise GameLogError(f"{where}: not valid JSON ({e.msg})") from None
        except ValueError as e:
            raise GameLogError(f"{where}: {e}") from None
        if (ev.game_id, ev.n, ev.kind) != (game_id, n, kind):
            raise GameLogError(f"{where}: columns say {kind} {game_id}#{n}, the event says "
                               f"{ev.kind} {ev.game_id}#{ev.n}")
        return StoredEvent(seq, created, ev)

    # -- writing
    def next_n(self, game_id: str) -> int:
        """The number the next event of ``game_id`` must carry."""
        (last,) = self._rows("SELECT COALESCE(MAX(n), 0) FROM events WHERE game_id = ?",
                             (game_id,))[0]
        return int(last) + 1

    def append(self, event: Event) -> int:
        """Store one event in its own transaction; returns its ``seq``. The event must carry the
        next number of its game (1 for a game start) so the log has no gaps."""
        return self._write([event])[0]

    def extend(self, events: list[Event], *, atomic: bool = False) -> int:
        """Append several events, each in its own transaction, or (``atomic``: an import) all
        in one, so a failure stores none of them. Returns how many."""
        if atomic:
            self._write(events)
        else:
            for e in events:
                self._write([e])
        return len(events)

    def _write(self, events: list[Event]) -> list[int]:
        created = _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds")
        db = self._db
        seqs = []
        event = events[0] if events else None
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                for event in events:
                    text = encode_event(event)
                    (last,) = db.execute("SELECT COALESCE(MAX(n), 0) FROM events "
                                         "WHERE game_id = ?", (event.game_id,)).fetchone()
                    where = f"{self.path}: {event.kind} {event.game_id}#{event.n}"
                    if event.n != last + 1:
                        raise GameLogError(f"{where}: expected event number {last + 1}")
                    if (event.n == 1) != isinstance(event, GameStarted):
                        raise GameLogError(f"{where}: a game starts with its start event, "
                                           "and only once")
                    cur = db.execute(
                        "INSERT INTO events (game_id, n, kind, event, crc, created) "
                        "VALUES (?, ?, ?, ?, ?, ?)",
                        (event.game_id, event.n, event.kind, text, _crc(text), created))
                    seqs.append(int(cur.lastrowid))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as e:
            what = "" if event is None else f" {event.kind} {event.game_id}#{event.n}"
            raise GameLogError(f"{self.path}: cannot store{what} ({e})") from None
        return seqs

    # -- reading
    def rows(self, game_id: str) -> list[StoredEvent]:
        """The stored rows of one game, in order."""
        return [self._decode(r) for r in self._rows(
            "SELECT seq, game_id, n, kind, event, crc, created FROM events "
            "WHERE game_id = ? ORDER BY n", (game_id,))]

    def events(self, game_id: str) -> list[Event]:
        """The events of one game, in order (empty for an unknown game)."""
        return [r.event for r in self.rows(game_id)]

    def games(self) -> list[GameInfo]:
        """Every game in the store, oldest first."""
        out = []
        for game_id, count in self._rows(
                "SELECT game_id, COUNT(*) FROM events GROUP BY game_id ORDER BY MIN(seq)", ()):
            first = self._rows("SELECT seq, game_id, n, kind, event, crc, created FROM events "
                               "WHERE game_id = ? AND n = 1", (game_id,))
            start = self._decode(first[0]).event if first else None
            out.append(GameInfo(game_id, int(count),
                                start if isinstance(start, GameStarted) else None))
        return out
