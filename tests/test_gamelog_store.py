"""The SQLite game log: append-only, one transaction per event, survives SIGKILL, refuses a
damaged file naming the row."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from armada_vision.gamelog import GameLogError, GameStarted, GameStore, TurnEnd, replay_state
from armada_vision.geometry.pose import Pose
from armada_vision.rules.table import Ship

AREA = ((0.0, 0.0), (600.0, 0.0), (600.0, 600.0), (0.0, 600.0))


def start(game_id: str = "g") -> GameStarted:
    return GameStarted(game_id=game_id, n=1, players=("A", "B"), date="2026-11-23",
                       ships=(Ship("L1", "A", "large", Pose(100, 100, 0)),
                              Ship("S1", "B", "small", Pose(300, 300, 90))), play_area=AREA)


def fill(path: Path, turns: int = 5, game_id: str = "g") -> list:
    events = [start(game_id)] + [TurnEnd(game_id=game_id, n=i + 2, player="AB"[i % 2])
                                 for i in range(turns)]
    with GameStore(path) as store:
        store.extend(events)
    return events


def test_events_come_back_in_order_after_reopening(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    events = fill(path) + fill(path, 2, "other")
    with GameStore(path) as store:
        assert store.events("g") == events[:6]
        assert store.events("other") == events[6:]
        assert [(g.game_id, g.events) for g in store.games()] == [("g", 6), ("other", 3)]
        assert store.games()[0].started == events[0]
        assert store.next_n("g") == 7 and store.next_n("new") == 1
        rows = store.rows("g")
        assert [r.seq for r in rows] == sorted(r.seq for r in rows)
        assert store.events("nope") == []


def test_the_store_is_wal_and_synchronous_full(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with GameStore(path) as store:
        assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2   # FULL


def test_numbering_has_no_gaps_and_a_game_starts_once(tmp_path: Path) -> None:
    with GameStore(tmp_path / "log.sqlite") as store:
        with pytest.raises(GameLogError, match="expected event number 1"):
            store.append(TurnEnd(game_id="g", n=2, player="A"))
        with pytest.raises(GameLogError, match="starts with its start event"):
            store.append(TurnEnd(game_id="g", n=1, player="A"))
        store.append(start())
        with pytest.raises(GameLogError, match="expected event number 2"):
            store.append(TurnEnd(game_id="g", n=3, player="A"))
        with pytest.raises(GameLogError, match="expected event number 2"):
            store.append(start())
        assert len(store.events("g")) == 1            # failed appends left nothing behind


def test_rows_cannot_be_updated_or_deleted(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    fill(path)
    db = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE events SET event = '{}' WHERE n = 2")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM events WHERE n = 2")
    db.close()


CHILD = textwrap.dedent("""
    import sys
    from armada_vision.gamelog import GameStore, Recorder
    from armada_vision.gamelog.scripted import ScriptedTable
    from armada_vision.geometry.pose import Pose
    from armada_vision.rules.table import Ship

    ships = (Ship("L1", "A", "large", Pose(100, 100, 0)),
             Ship("M1", "B", "medium", Pose(450, 450, 180)))
    area = ((0, 0), (600, 0), (600, 600), (0, 600))
    store = GameStore(sys.argv[1])
    table = ScriptedTable(ships)
    rec = Recorder.start(store, game_id="killed", players=("A", "B"), ships=ships,
                         play_area=area, pieces=table.view())
    i = 0
    while True:
        i += 1
        if i % 3 == 0:
            table.place("L1", Pose(100 + i % 7, 100, 0))   # knocked about: flags, restores
            rec.observe(table.view())
        else:
            rec.end_turn()
        print(len(rec.events), flush=True)   # every event up to here is committed
""")


def test_sigkill_mid_game_loses_no_committed_event(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True, env=env)
    committed = 0
    try:
        assert child.stdout is not None
        for line in child.stdout:
            committed = int(line)
            if committed >= 60:
                break
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    assert committed >= 60
    with GameStore(path, verify="full") as store:       # integrity_check passes on reopen
        events = store.events("killed")
        assert len(events) >= committed                 # the child may have got further
        assert [e.n for e in events] == list(range(1, len(events) + 1))
        state = replay_state(events)
        assert state.last_n == len(events)
        # and the game can go on
        store.append(TurnEnd(game_id="killed", n=len(events) + 1, player=state.player))


def _flip(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert data.count(old) >= 1, "test setup: pattern not in the file"
    i = data.rfind(old)
    path.write_bytes(data[:i] + new + data[i + len(old):])


def test_a_garbled_event_is_refused_naming_its_row(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    fill(path)
    assert not Path(str(path) + "-wal").exists()         # checkpointed into the main file
    with GameStore(path) as store:
        seq = store.rows("g")[3].seq                  # event 4, A's turn end
    _flip(path, b'"n":4,"player":"A"', b'"n":4,"player":"Z"')
    with pytest.raises(GameLogError, match=rf"row seq={seq}: checksum mismatch"):
        GameStore(path)


def test_a_row_whose_json_is_broken_is_named(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    fill(path)
    _flip(path, b'"reason":"tap"}', b'"reason":"tap"]')
    with pytest.raises(GameLogError, match=r"row seq=\d+"):
        GameStore(path)


def test_a_truncated_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    fill(path, turns=300)                              # several pages
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(GameLogError, match=r"log.sqlite: .*it was truncated"):
        GameStore(path)


def test_a_damaged_page_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    fill(path, turns=300)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for i in range(2 * page, 2 * page + 64):          # scribble over the third page's header
        data[i] = 0xA5
    path.write_bytes(bytes(data))
    with pytest.raises(GameLogError, match=r"log.sqlite: database damaged: .*Page 3") as err:
        GameStore(path)
    assert "\n" not in str(err.value)                  # one line for the command line


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_text("these are my notes, not a game log\n" * 100)
    with pytest.raises(GameLogError, match="not a readable game log"):
        GameStore(path)


def test_an_atomic_import_stores_all_or_nothing(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    good = [start("a"), TurnEnd(game_id="a", n=2, player="A")]
    bad = [start("b"), TurnEnd(game_id="b", n=2, player="A"), TurnEnd(game_id="b", n=4,
                                                                       player="B")]
    with GameStore(path) as store:
        assert store.extend(good, atomic=True) == 2
        with pytest.raises(GameLogError, match="turn_end b#4: expected event number 3"):
            store.extend(bad, atomic=True)
        assert store.events("b") == []
        assert store.events("a") == good
