"""``getbit import / games / show / export / rebuild``, and validate and simulate on the
new formats: what a user sees, the exit codes, and a store left untouched by bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest
from typer.testing import CliRunner

from cli import app
from getbit_events.simulate import simulate_games
from getbit_events.validate import validate_game
from importers.gbn import read_gbn, write_gbn
from importers.jsonl import write_jsonl
from store import GameStore, check_store

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "games"

INVALID = """[Event "Tuesday"]
[Line "Ann, Bob, Cid, Dee"]
1. Ann 1, Bob 2, Cid 3, Dee 4
2. Ann 2, Bob 3, Cid 4, Dee 5 ; bit Dee
"""
UNREADABLE = '[Line "Ann, Bob, Cid, Dee"]\n1. Ann one, Bob 2, Cid 3, Dee 4\n'


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GETBIT_DB", raising=False)
    return tmp_path / "games.db"


def _sim(path: Path, n: int = 3, variant: str = "standard", seed: int = 1) -> Path:
    path.write_text(write_gbn(simulate_games(n, variant, 4, seed, "random")), encoding="utf-8")
    return path


def _run(runner: CliRunner, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    return result.exit_code, result.stdout, result.stderr


def _snapshot(path: Path) -> list[object]:
    with GameStore(path) as store:
        return [store.table_rows(t) for t in ("games", "events", "violations")]


def test_import_stores_games_and_says_so(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    games = _sim(tmp_path / "club.gbn", 3)
    code, out, _ = _run(runner, "import", str(games), "--db", str(db))
    assert code == 0
    assert "3 stored, 0 already stored, 0 stored as invalid, 0 unreadable" in out
    code, out, _ = _run(runner, "import", str(games), "--db", str(db))
    assert code == 0
    assert "0 stored, 3 already stored" in out


def test_import_walks_folders_of_every_format(runner: CliRunner, db: Path) -> None:
    code, out, _ = _run(runner, "import", str(FIXTURES), "--db", str(db), "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["stored"] > 5
    assert summary["unreadable"] == 0


def test_a_folder_named_like_a_record_is_walked(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    (tmp_path / "club" / "2025.gbn").mkdir(parents=True)
    _sim(tmp_path / "club" / "2025.gbn" / "a.gbn", 2)
    code, out, err = _run(runner, "import", str(tmp_path / "club"), "--db", str(db))
    assert (code, err) == (0, "")
    assert "2 stored" in out


def test_invalid_games_are_stored_as_invalid_and_exit_1(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    path = tmp_path / "tuesday.gbn"
    path.write_text(INVALID, encoding="utf-8")
    code, out, err = _run(runner, "import", str(path), "--db", str(db))
    assert code == 1
    assert "0 stored, 0 already stored, 1 stored as invalid, 0 unreadable" in out
    assert "1 violation, stored as invalid" in err
    assert f"{path}:4:33: round 2: Dee is recorded bitten, but Ann is at the back" in err
    code, out, err = _run(runner, "import", str(path), "--db", str(db))  # it said "stored"
    assert "0 stored, 1 already stored, 0 stored as invalid, 0 unreadable" in out
    assert "1 violation, already stored as invalid (" in err


def test_valid_only_refuses_invalid_games(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    path = tmp_path / "tuesday.gbn"
    path.write_text(INVALID, encoding="utf-8")
    code, out, err = _run(runner, "import", str(path), "--db", str(db), "--valid-only")
    assert code == 1
    assert "1 invalid refused" in out
    assert "refused" in err
    with GameStore(db) as store:
        assert store.count() == 0


def test_an_unreadable_game_is_reported_and_the_rest_imported(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    path = tmp_path / "mixed.gbn"
    good = write_gbn(simulate_games(2, "standard", 4, 5, "random"))
    path.write_text(UNREADABLE + "\n" + good, encoding="utf-8")
    code, out, err = _run(runner, "import", str(path), "--db", str(db))
    assert code == 1  # as getbit validate: a game with a syntax error breaks the record
    assert "2 stored, 0 already stored, 0 stored as invalid, 1 unreadable" in out
    assert f"{path}:2:8: round 1: expected a card after Ann: 1 to 7" in err


BAD_FILES = {
    "nul.gbn": (b'[Line "Ann, Bob"]\n1. Ann\x00 1\n', ":2:7: round 1: a NUL byte"),
    # a byte that is no letter of a word: damage, not another encoding (test_encodings)
    "bad-byte.gbn": (b'[Line "Ann, Bob"]\n1. Ann \xff1\n', ":2:8: round 1: not UTF-8 text"),
    "truncated.jsonl": (b'{"type":"game-started","v":1,"ga', ":1:30: the file ends in the middle"),
    "deep.jsonl": (b"[" * 100_000 + b"]" * 100_000 + b"\n", ":1:17: JSON nested 17 or more deep"),
    "list.jsonl": (b"[1, 2]\n", ":1:1: expected a JSON object"),
    "unknown.jsonl": (
        b'{"type":"game-begun","v":1,"game":"g","seq":1,"round":0}\n',
        ':1:1: game "g" starts with "game-begun"',
    ),
    "missing-column.csv": (
        b"round,Ann,Bob,Cid,Dee\n1,1,2,3\n",
        ":2:8: round 1: 4 cells where the header has 5: no cell for Dee",
    ),
    "wrong.txt": (b"hello\n", "unknown file type '.txt'"),
}


@pytest.mark.parametrize("name", BAD_FILES)
def test_bad_input_is_reported_and_the_store_untouched(
    runner: CliRunner, db: Path, tmp_path: Path, name: str
) -> None:
    _run(runner, "import", str(_sim(tmp_path / "ok.gbn", 2)), "--db", str(db))
    before = _snapshot(db)
    data, message = BAD_FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    code, out, err = _run(runner, "import", str(path), "--db", str(db))
    # as getbit validate: 2 when the file cannot be read at all, 1 when a game in it is bad
    validate_code, _, _ = _run(runner, "validate", str(path))
    assert code == validate_code == (1 if name in GAME_LEVEL else 2)
    assert message in err
    assert "0 stored" in out or out == ""
    assert _snapshot(db) == before


# files that are read, but whose one game is malformed (not stored, like a GBN syntax
# error); a bad byte spoils only the game it is in
GAME_LEVEL = {
    "nul.gbn", "bad-byte.gbn", "truncated.jsonl", "deep.jsonl", "list.jsonl", "unknown.jsonl",
    "missing-column.csv",
}


def test_a_database_that_is_not_a_store_is_refused(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("dear diary\n" * 50, encoding="utf-8")
    monkeypatch.setenv("GETBIT_DB", str(notes))
    code, _, err = _run(runner, "import", str(_sim(tmp_path / "a.gbn", 1)))
    assert code == 2
    assert "is not an SQLite database" in err
    assert notes.read_text(encoding="utf-8") == "dear diary\n" * 50


def test_games_lists_and_filters(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    tuesday = tmp_path / "tuesday.gbn"
    tuesday.write_text(INVALID, encoding="utf-8")
    _run(runner, "import", str(_sim(tmp_path / "a.gbn", 2)), str(tuesday), "--db", str(db))
    code, out, _ = _run(runner, "games", "--db", str(db), "--json")
    assert code == 0
    listed = [json.loads(line) for line in out.splitlines()]
    assert [g["status"] for g in listed] == ["valid", "valid", "invalid"]
    code, out, err = _run(runner, "games", "--db", str(db), "--status", "invalid")
    assert listed[2]["id"] in out
    assert listed[0]["id"] not in out
    assert "1 game" in err  # piped: the count on stderr, the lines alone on stdout
    code, out, err = _run(runner, "games", "--db", str(db), "--player", "nobody")
    assert "0 games" in err
    code, _, err = _run(runner, "games", "--db", str(db), "--status", "great")
    assert code == 2
    assert "'great' is not one of 'valid', 'invalid', 'unfinished'" in err


def test_games_without_a_store_says_so(runner: CliRunner, db: Path) -> None:
    code, _, err = _run(runner, "games", "--db", str(db))
    assert code == 2
    assert f"no store at {db}: import games first" in err
    assert not db.exists()


def test_show_gives_tags_result_and_violations(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    path = tmp_path / "tuesday.gbn"
    path.write_text(INVALID.replace("Tuesday", "[red]x[/red] <script>"), encoding="utf-8")
    _run(runner, "import", str(path), "--db", str(db))
    with GameStore(db) as store:
        (game,) = store.games()
    code, out, _ = _run(runner, "show", game.id[:6], "--db", str(db))
    assert code == 0
    assert f"game {game.id} (invalid)" in out
    assert "Event: [red]x[/red] <script>" in out  # markup shown as written, not applied
    assert "line 4:33: round 2: Dee is recorded bitten" in out
    assert "[wrong-bite]" in out
    code, out, _ = _run(runner, "show", game.id, "--db", str(db), "--json")
    data = json.loads(out)
    assert data["violation_list"][0]["code"] == "wrong-bite"
    code, _, err = _run(runner, "show", "ffffffff", "--db", str(db))
    assert code == 2
    assert "no game 'ffffffff'" in err


def test_export_gives_back_the_same_game(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    source = _sim(tmp_path / "a.gbn", 2, "shark")
    _run(runner, "import", str(source), "--db", str(db))
    with GameStore(db) as store:
        ids = [g.id for g in store.games()]
        stored = [store.events(i) for i in ids]
    out_gbn = tmp_path / "out.gbn"
    code, _, _ = _run(runner, "export", *ids, "--db", str(db), "-o", str(out_gbn))
    assert code == 0
    again = [validate_game(g) for g in read_gbn(out_gbn.read_text(encoding="utf-8"))]
    assert [[attrs.evolve(e, pos=None) for e in r.events] for r in again] == stored
    code, out, _ = _run(runner, "export", ids[0], "--format", "jsonl", "--db", str(db))
    assert out == "".join(write_jsonl([(ids[0], stored[0])]))
    code, _, err = _run(runner, "export", ids[0], "--format", "pgn", "--db", str(db))
    assert code == 2
    assert "'pgn' is not one of 'gbn', 'bmn', 'jsonl', 'parquet'" in err


def test_export_reads_one_games_events_at_a_time(db: Path, tmp_path: Path) -> None:
    # a store of a million games exports in the memory of one game: the first game's
    # text is ready before the second game's events are read
    from store.bite_cli import export_texts

    source = _sim(tmp_path / "a.gbn", 3)
    with GameStore(db) as store:
        for game in read_gbn(source.read_text(encoding="utf-8")):
            store.add(validate_game(game))
        games = list(store.games())
        read: list[str] = []
        events = store.events

        def counted(game_id: str) -> list[object]:
            read.append(game_id)
            return events(game_id)

        store.events = counted  # type: ignore[method-assign]
        for fmt in ("gbn", "jsonl"):
            read.clear()
            texts = export_texts(store, [(g.id, g.game) for g in games], fmt, [])
            first = next(texts)
            assert first
            assert read == [games[0].id]
            rest = "".join(texts)
            assert read == [g.id for g in games]
            whole = first + rest
            if fmt == "gbn":
                assert whole == write_gbn(events(g.id) for g in games)
            else:
                assert whole == "".join(write_jsonl([(g.id, events(g.id)) for g in games]))


def test_export_to_a_file_writes_it_whole_or_not_at_all(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    source = _sim(tmp_path / "a.gbn", 3)
    _run(runner, "import", str(source), "--db", str(db))
    out = tmp_path / "out.gbn"
    code, shown, _ = _run(runner, "export", "--db", str(db))
    assert code == 0
    assert _run(runner, "export", "--db", str(db), "-o", str(out))[0] == 0
    assert out.read_text(encoding="utf-8") == shown
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []
    # games of both kinds are refused before a byte is written: the old file stays
    bite = tmp_path / "b.bmn"
    assert _run(runner, "simulate", "--rules", "bite-me", "--games", "1", "-o", str(bite))[0] == 0
    _run(runner, "import", str(bite), "--db", str(db))
    with GameStore(db) as store:
        both = [g.id for g in store.games()]
    assert len(both) == 4
    code, _, err = _run(runner, "export", *both, "--db", str(db), "-o", str(out))
    assert code == 2
    assert "export one game at a time" in err
    assert out.read_text(encoding="utf-8") == shown


def test_rebuild_reports_what_it_did(runner: CliRunner, db: Path, tmp_path: Path) -> None:
    _run(runner, "import", str(_sim(tmp_path / "a.gbn", 2)), "--db", str(db))
    code, out, _ = _run(runner, "rebuild", "--db", str(db))
    assert code == 0
    assert "rebuilt 8 rows from" in out
    assert "of 2 games" in out


def test_the_store_defaults_to_getbit_db_or_the_environment(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = _sim(tmp_path / "a.gbn", 1)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GETBIT_DB", raising=False)
    _run(runner, "import", str(games))
    assert (tmp_path / "getbit.db").exists()
    monkeypatch.setenv("GETBIT_DB", str(tmp_path / "env.db"))
    _run(runner, "import", str(games))
    assert (tmp_path / "env.db").exists()


def test_validate_reads_jsonl_and_csv(runner: CliRunner, tmp_path: Path) -> None:
    log = tmp_path / "sim.jsonl"
    code, _, _ = _run(runner, "simulate", "--games", "3", "--format", "jsonl", "-o", str(log))
    assert code == 0
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("round,Ann,Bob,Cid,Dee\n1,1,2,3,4\n", encoding="utf-8")
    code, out, _ = _run(runner, "validate", str(log), str(sheet))
    assert code == 0
    assert "4 games: 4 valid (1 unfinished), 0 with violations" in out


def test_simulate_writes_a_log_that_imports(runner: CliRunner, db: Path) -> None:
    code, out, _ = _run(runner, "simulate", "--games", "2", "--format", "jsonl", "--seed", "4")
    assert code == 0
    first = json.loads(out.splitlines()[0])
    assert (first["type"], first["game"], first["seq"]) == ("game-started", "sim-4-1", 1)
    code, _, err = _run(runner, "simulate", "--format", "xml")
    assert code == 2
    assert "'xml' is not one of 'gbn', 'jsonl'" in err


def test_two_imports_at_once_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    a = _sim(tmp_path / "a.gbn", 30, "standard", 1)
    b = _sim(tmp_path / "b.gbn", 30, "standard", 2)
    both = tmp_path / "both.gbn"
    both.write_text(a.read_text() + "\n" + b.read_text(), encoding="utf-8")
    getbit = [sys.executable, "-c", "from cli import main; main()"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GETBIT_DB": str(db)}
    procs = [
        subprocess.Popen([*getbit, "import", str(p)], env=env, stdout=subprocess.PIPE, text=True)
        for p in (both, a)
    ]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0]
    with GameStore(db) as store:
        assert store.count() == 60
        (row,) = store.db.query("SELECT COUNT(*) AS n FROM events")
        expected = sum(len(validate_game(g).events) for g in read_gbn(both.read_text()))
        assert row["n"] == expected
    stored = [int(o.split(" stored,")[0].split()[-1]) for o in outs]
    assert sum(stored) == 60
    assert check_store(db).ok  # one chain through both importers' games, head and all


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_missing_path_is_said_and_the_others_are_stored(
    runner: CliRunner, db: Path, tmp_path: Path, jobs: str
) -> None:
    """As validate does: a typo in one path does not keep the good files from the store."""
    games = _sim(tmp_path / "a.gbn", 2)
    nope = tmp_path / "nope.gbn"
    code, out, err = _run(
        runner, "import", str(nope), str(games), "--db", str(db), "--json", "--jobs", jobs
    )
    assert code == 2
    assert err == f"getbit import: {nope}: no such file or folder\n"
    said = json.loads(out)
    assert (said["stored"], said["unreadable_files"]) == (2, 1)
    with GameStore(db) as store:
        assert store.count() == 2


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_or_folder_of_no_games_is_a_warning_and_exit_2(
    runner: CliRunner, db: Path, tmp_path: Path, jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As validate says it: nothing was in it to store, which is not a success."""
    from importers import workers
    from store import jobs as store_jobs

    monkeypatch.setattr(workers, "cores", lambda: 2)  # --jobs 2 starts two, anywhere
    monkeypatch.setattr(store_jobs, "CHUNK", 1)  # each worker has games to check
    empty, folder = tmp_path / "empty.gbn", tmp_path / "nothing"
    empty.write_text("# a comment, no game\n", encoding="utf-8")
    folder.mkdir()
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    games = _sim(tmp_path / "a.gbn", 2)
    code, out, err = _run(
        runner, "import", str(empty), str(games), str(folder), "--db", str(db), "--json",
        "--jobs", jobs,
    )
    assert code == 2
    assert err.splitlines() == [
        f"warning: no games in {empty}",
        f"warning: no games in {folder} (no record files: .gbn, .jsonl, .ndjson, .bmn)",
    ]
    said = json.loads(out)
    assert (said["stored"], said["empty"], said["unreadable_files"]) == (2, 2, 0)
    code, _, err = _run(runner, "import", str(games), "--db", str(db))
    assert (code, err) == (0, "")  # games already stored are not nothing
    mixed = tmp_path / "mixed"  # a folder given with games in it is not empty, as in
    mixed.mkdir()  # validate, whatever its files (an empty one among them)
    (mixed / "empty.gbn").write_text("", encoding="utf-8")
    _sim(mixed / "b.gbn", 1, seed=8)
    code, _, err = _run(runner, "import", str(mixed), "--db", str(db), "--jobs", jobs)
    assert (code, err) == (0, "")


@pytest.mark.parametrize("command", [["games", "--json"], ["show", "--json"]])
def test_json_stays_json_on_a_terminal_that_is_not_utf8(tmp_path: Path, command: list[str]) -> None:
    record = tmp_path / "z.gbn"
    record.write_text('[Line "Zoë, Ann, Bob, Cid"]\n1. Zoë 1, Ann 2, Bob 3, Cid 4\n', "utf-8")
    getbit = [sys.executable, "-c", "from cli import main; main()"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GETBIT_DB": str(tmp_path / "g.db")}
    subprocess.run([*getbit, "import", str(record)], env=env, check=True, capture_output=True)
    if command[0] == "show":
        listed = subprocess.run([*getbit, "games", "--json"], env=env, capture_output=True)
        command = ["show", json.loads(listed.stdout.splitlines()[0])["id"], "--json"]
    result = subprocess.run(
        [*getbit, *command], env={**env, "PYTHONIOENCODING": "ascii"}, capture_output=True
    )
    assert result.returncode == 0, result.stderr
    first = json.loads(result.stdout.decode("ascii").splitlines()[0])
    assert "Zoë" in json.dumps(first, ensure_ascii=False)


@pytest.mark.patched  # importers.jsonl is compiled: its tags_fault is patched in plain only
@pytest.mark.parametrize("fmt", ["gbn", "jsonl"])
def test_a_stored_tag_no_record_can_hold_is_said_and_the_other_games_exported(
    runner: CliRunner, db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    """A store from before such tags were refused may hold a tag with a line break:
    export leaves that game out, says which and why (exit 2), and writes the others
    as readable records (it used to write GBN that no reader reads back)."""
    import importers.jsonl

    first, second = simulate_games(2, "standard", 4, 3, "random")
    bad = attrs.evolve(first[0], tags=(("Event", "Friday\nclub"),))
    log = tmp_path / "log.jsonl"
    lines = [*_lines_of("bad", [bad, *first[1:]]), *_lines_of("good", second)]
    log.write_text("".join(lines), encoding="utf-8")
    with monkeypatch.context() as m:  # stored as an older getbit stored it
        m.setattr(importers.jsonl, "tags_fault", lambda tags: None)
        code, _, _ = _run(runner, "import", str(log), "--db", str(db))
    assert code == 0
    out = tmp_path / f"out.{fmt}"
    code, _, err = _run(runner, "export", "--db", str(db), "--format", fmt, "-o", str(out))
    assert code == 2
    assert "cannot be written as" in err
    assert "the value of the tag Event holds a line break: a tag is one line" in err
    code, said, _ = _run(runner, "validate", str(out), "--json")
    assert code == 0
    assert len(said.splitlines()) == 1  # the other game, whole and readable


def _lines_of(game_id: str, events: list[Any]) -> list[str]:
    """A log's lines as a program writes them, whatever getbit's writer would refuse."""
    from importers.wire import event_to_wire

    return [
        json.dumps(event_to_wire(e, game_id, seq), ensure_ascii=False) + "\n"
        for seq, e in enumerate(events, 1)
    ]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_import_reads_standard_input_once_and_whole(tmp_path: Path, jobs: str) -> None:
    """``getbit import --format gbn -``: the games piped in, each stored once, the same
    as from a file (a pipe used to give no games)."""
    text = write_gbn(simulate_games(60, "standard", 4, 5, "random"))
    db = tmp_path / "games.db"
    done = subprocess.run(
        [str(Path(sys.executable).with_name("getbit")), "import", "--format", "gbn", "--json",
         "--jobs", jobs, "--db", str(db), "-"],
        input=text, capture_output=True, text=True, encoding="utf-8", timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["stored"] == 60
    with GameStore(db) as store:
        assert store.count() == 60


def test_a_newline_or_tab_from_a_record_never_breaks_a_line_of_ours(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    """A file name, a tag or a reason holding a newline or a tab is shown with them
    as escapes, so each line said is one line (a program reading them reads right)."""
    odd = tmp_path / "new\nline\tx.gbn"
    odd.write_text('[Event "tab\there"]\n' + write_gbn(simulate_games(1, "standard", 4, 2,
                                                                        "random")),
                   encoding="utf-8")
    shown = "new\\nline\\tx.gbn"
    code, out, _ = _run(runner, "validate", str(odd))
    assert code == 0
    assert out.splitlines()[0].startswith(f"{tmp_path}/{shown} game 1 (line 1): ok")
    code, _, _ = _run(runner, "import", str(odd), "--db", str(db))
    assert code == 0
    with GameStore(db) as store:
        (game,) = store.games()
    code, _, _ = _run(runner, "retract", game.id, "--db", str(db), "--reason", "two\nlines")
    assert code == 0
    code, out, _ = _run(runner, "show", game.id, "--db", str(db))
    lines = out.splitlines()
    assert f"  from {tmp_path}/{shown}:1 (game 1)" in lines
    assert "  Event: tab\\there" in lines
    assert any(line.endswith("(two\\nlines): not counted") for line in lines)
    code, out, _ = _run(runner, "show", game.id, "--db", str(db), "--json")
    assert json.loads(out)["history"][0]["reason"] == "two\nlines"  # kept as given
    broken = tmp_path / "bad\nname.gbn"  # a violation's line names the file too
    broken.write_text('[Line "Ann, Bob"]\n', encoding="utf-8")
    line = f"  {tmp_path}/bad\\nname.gbn:1:1: standard is played by 4 to 6 swimmers"
    _, out, _ = _run(runner, "validate", str(broken))
    assert out.splitlines()[1].startswith(line)
    _, _, err = _run(runner, "import", str(broken), "--db", str(db))
    assert err.splitlines()[1].startswith(line)


def test_show_says_too_many_violations_last_as_validate_does(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    many = tmp_path / "many.gbn"
    rounds = "".join(f"{r}. Ann 9, Bob 9, Cid 9, Dee 9\n" for r in range(1, 120))
    many.write_text(f'[Line "Ann, Bob, Cid, Dee"]\n\n{rounds}', encoding="utf-8")
    _, said, _ = _run(runner, "validate", str(many))
    assert "[too-many-violations]" in said.splitlines()[-2]
    code, _, _ = _run(runner, "import", str(many), "--db", str(db))
    assert code == 1
    with GameStore(db) as store:
        (game,) = store.games()
    _, out, _ = _run(runner, "show", game.id, "--db", str(db))
    assert out.splitlines()[-1].endswith("[too-many-violations]")
    shown = [line.split(": ", 1)[1] for line in out.splitlines() if line.startswith("  line ")]
    checked = [line.split(": ", 1)[1] for line in said.splitlines() if line.startswith("  ")]
    assert shown == checked  # the same violations, in the same order


# two records of one evening whose set-up breaks the rules (three swimmers, no variant):
# the same tags, the same violation, other rounds
_BROKEN_EVENING = (
    '[Event "Club"]\n[Date "2026-11-20"]\n[Line "Ann, Bob, Cid"]\n\n1. Ann 1, Bob 2, Cid 3\n\n'
    '[Event "Club"]\n[Date "2026-11-20"]\n[Line "Ann, Bob, Cid"]\n\n'
    "1. Ann 5, Bob 4, Cid 3\n2. Ann 4, Bob 3, Cid 2\n"
)


def test_two_records_with_a_broken_set_up_are_two_games(
    runner: CliRunner, db: Path, tmp_path: Path
) -> None:
    # the second was taken for the first ("1 already stored") and its record was lost
    path = tmp_path / "evening.gbn"
    path.write_text(_BROKEN_EVENING, encoding="utf-8")
    code, out, _ = _run(runner, "import", str(path), "--db", str(db))
    assert code == 1
    assert "0 stored, 0 already stored, 2 stored as invalid, 0 unreadable" in out
    with GameStore(db) as store:
        ids = [g.id for g in store.games()]
        assert len(ids) == 2
        sources = [store.source(i) for i in ids]
    assert sources[0] is not None
    assert b"Ann 1, Bob 2, Cid 3" in sources[0]
    assert sources[1] is not None
    assert b"Ann 4, Bob 3, Cid 2" in sources[1]
    code, out, _ = _run(runner, "import", str(path), "--db", str(db))  # each found again
    assert "0 stored, 2 already stored, 0 stored as invalid, 0 unreadable" in out
    assert check_store(db).ok


@pytest.mark.patched  # store.stored is compiled: its record_lines is patched in plain only
def test_a_broken_set_up_stored_before_its_text_was_hashed_still_checks(
    runner: CliRunner, db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from store import stored

    path = tmp_path / "evening.gbn"
    path.write_text(_BROKEN_EVENING.split("\n\n[Event")[0] + "\n", encoding="utf-8")
    with monkeypatch.context() as before:  # as a getbit of before 7 December 2026 stored it
        before.setattr(stored, "record_lines", lambda text: [])
        assert _run(runner, "import", str(path), "--db", str(db))[0] == 1
    result = check_store(db)
    assert result.ok, [str(d) for d in result.damage]
    code, out, _ = _run(runner, "import", str(path), "--db", str(db))  # hashed as now
    assert code == 1
    assert "1 stored as invalid" in out  # stored once more, under the id it has now
    assert check_store(db).ok
