"""The ``replay`` and ``log`` commands: formats, exit codes, one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from armada_vision.cli import main
from armada_vision.gamelog import GameStore, parse_event
from armada_vision.gamelog.jsonl import dumps_jsonl, read_jsonl
from armada_vision.gamelog.notation import parse_notation
from armada_vision.gamelog.scripted import scripted_game


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "club.sqlite"
    with GameStore(path) as store:
        scripted_game(store)
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_log_show_prints_the_notation(capsys, db: Path) -> None:
    code, out, _ = run(capsys, "log", "show", str(db))
    assert code == 0
    parsed = parse_notation(out)
    assert parsed.header["Game"] == "club-7"
    assert [a.kind for a in parsed.actions][:3] == ["shot", "sunk", "move"]


def test_log_show_text_form_parses_back(capsys, db: Path) -> None:
    code, out, _ = run(capsys, "log", "show", str(db), "--format", "text")
    assert code == 0
    with GameStore(db) as store:
        assert [parse_event(line) for line in out.splitlines()] == store.events("club-7")


def test_export_then_import_gives_the_same_events(capsys, db: Path, tmp_path: Path) -> None:
    out_file = tmp_path / "club.jsonl"
    assert run(capsys, "log", "export", str(db), "--game", "club-7", "-o", str(out_file))[0] == 0
    new_db = tmp_path / "copy.sqlite"
    code, out, _ = run(capsys, "log", "import", str(out_file), "--db", str(new_db))
    assert code == 0 and "imported" in out
    with GameStore(db) as a, GameStore(new_db) as b:
        assert a.events("club-7") == b.events("club-7")
    code, _, err = run(capsys, "log", "import", str(out_file), "--db", str(new_db))
    assert code == 2 and "already in" in err and len(err.splitlines()) == 1


def test_import_of_a_bad_line_names_it_and_stores_nothing(capsys, db: Path,
                                                           tmp_path: Path) -> None:
    with GameStore(db) as store:
        lines = dumps_jsonl(store.events("club-7")).splitlines()
    lines[4] = lines[4].replace('"kind":', '"kind" ', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    new_db = tmp_path / "new.sqlite"
    code, _, err = run(capsys, "log", "import", str(bad), "--db", str(new_db))
    assert code == 2
    assert err.startswith("armada-vision log: ") and "bad.jsonl line 5: not valid JSON" in err
    assert len(err.splitlines()) == 1
    assert not new_db.exists() or GameStore(new_db).games() == []


def test_export_notation_to_stdout(capsys, db: Path) -> None:
    code, out, _ = run(capsys, "log", "export", str(db), "--format", "notation")
    assert code == 0 and out.startswith('[Game "club-7"]')


def test_replay_agrees_with_the_rules_that_recorded_it(capsys, db: Path) -> None:
    code, out, _ = run(capsys, "replay", str(db))
    assert code == 0
    assert "0 disagreement(s)" in out and "rulings re-judged" in out


def test_replay_reports_a_tampered_ruling(capsys, db: Path, tmp_path: Path) -> None:
    """Someone edited the log: the first legal move's after-pose is pushed 60 mm further. The
    recorded 'yes' no longer matches the rules (§4: too far), so replay exits 1 naming it."""
    with GameStore(db) as store:
        events = [e.to_json() for e in store.events("club-7")]
    move = next(e for e in events if e["kind"] == "move")
    move["after"][0] += 60.0
    path = tmp_path / "tampered.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 1
    assert f"event {move['n']} (L1 move): DISAGREES: recorded yes" in out
    code, out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 1
    report = json.loads(out)
    first = report["games"][0]["disagreements"][0]
    assert report["disagreements"] >= 1          # later rulings from L1 may move too
    assert first["n"] == move["n"] and first["now"]["verdict"] == "no"


@pytest.mark.parametrize("argv", [
    ["replay", "/no/such/log.sqlite"],
    ["log", "show", "/no/such/log.jsonl"],
    ["replay", "{db}", "--game", "nope"],
    ["replay", "{db}", "--margin-tol", "-1"],
])
def test_bad_input_is_one_line_and_exit_2(capsys, db: Path, argv: list[str]) -> None:
    code, out, err = run(capsys, *[a.replace("{db}", str(db)) for a in argv])
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("armada-vision ")


def test_replay_of_a_damaged_database_exits_2_without_traceback(db: Path,
                                                                tmp_path: Path) -> None:
    broken = tmp_path / "broken.sqlite"
    data = db.read_bytes()
    broken.write_bytes(data[: len(data) // 2])
    out = subprocess.run([sys.executable, "-m", "armada_vision", "replay", str(broken)],
                         capture_output=True, text=True, cwd=Path(__file__).parent.parent)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr and len(out.stderr.splitlines()) == 1
    assert "broken.sqlite" in out.stderr


def test_jsonl_export_of_every_game(capsys, db: Path, tmp_path: Path) -> None:
    two = tmp_path / "two.sqlite"
    with GameStore(two) as store:
        scripted_game(store, game_id="a")
        scripted_game(store, game_id="b")
    code, out, _ = run(capsys, "log", "show", str(two))
    n = str(len(scripted_game().events))
    assert code == 0 and out.split() == ["a", n, "events", "b", n, "events"]
    target = tmp_path / "all.jsonl"
    assert run(capsys, "log", "export", str(two), "-o", str(target))[0] == 0
    assert {e.game_id for e in read_jsonl(target)} == {"a", "b"}
    code, _, err = run(capsys, "log", "export", str(two), "--format", "notation")
    assert code == 2 and "say which" in err
