"""``getbit export --format parquet``: the store's games as Parquet, and the SQL of
``reports/sql`` run in DuckDB over them gives ``getbit stats --json``'s numbers."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import duckdb
import pytest
from parquet_case import (
    HOSTILE,
    HOSTILE_EVENT,
    ROOT,
    UNICODE,
    VIEWS,
    Result,
    build_store,
    check_sql,
    export,
    run,
    sql_files,
    stats,
)

from getbit_events.errors import InputError
from store import GameStore
from store.parquet import write_parquet

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass
pytestmark = pytest.mark.layers


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("parquet"))


@pytest.fixture(scope="module")
def folder(store: Path) -> Path:
    return export(store, store.parent / "parquet")


def _duck(folder: Path) -> Any:
    con = duckdb.connect()
    for view in VIEWS:
        files = (folder / view / "**" / "*.parquet").as_posix().replace("'", "''")
        con.execute(f"CREATE VIEW {view} AS SELECT * FROM "
                    f"read_parquet('{files}', hive_partitioning = true)")
    return con


def _runner(con: Any) -> Any:
    def run_sql(sql: str) -> Result:
        cursor = con.execute(sql)
        return [d[0] for d in cursor.description], cursor.fetchall()

    return run_sql


def _sqlite(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def test_the_store_covers_every_case(store: Path) -> None:
    want = stats(store)
    excluded = want["games_excluded"]
    assert (excluded["superseded"], excluded["retracted"]) == (1, 1)
    assert excluded["invalid"] >= 10
    assert excluded["unfinished"] >= 3
    assert set(want["variants"]) == {"standard", "three-player", "two-player", "shark"}
    assert want["dated_games"] > 40
    assert set(HOSTILE) <= {p["name"] for p in want["players"]}
    assert set(UNICODE) <= {p["name"] for p in want["players"]}


def test_the_sql_in_duckdb_gives_the_numbers_of_stats(store: Path, folder: Path) -> None:
    compared = check_sql(_runner(_duck(folder)), stats(store))
    assert compared > 500


def test_every_row_of_the_store_is_exported(store: Path, folder: Path) -> None:
    con = _duck(folder)
    events = "SELECT game_id, seq, type, version, round, payload FROM events"
    assert sorted(con.execute(events).fetchall()) == sorted(_sqlite(store, events))
    assert (con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            == _sqlite(store, "SELECT COUNT(*) FROM games")[0][0])
    assert (con.execute("SELECT COUNT(*) FROM swimmers").fetchone()[0]
            == _sqlite(store, "SELECT COUNT(*) FROM game_swimmers")[0][0])
    counts = json.loads((folder / "export.json").read_text(encoding="utf-8"))["tables"]
    assert counts["events"] == len(_sqlite(store, events))


def test_the_typed_columns_are_the_payload_s_fields(folder: Path) -> None:
    con = _duck(folder)
    rows = con.execute("SELECT type, who, why, limb, shark_card, hunger_left, winner, payload "
                       "FROM events").fetchall()
    seen = set()
    for type_, who, why, limb, card, left, winner, payload in rows:
        data = json.loads(payload)
        assert (who, why, limb, card, left, winner) == (
            data.get("who"), data.get("why"), data.get("limb"), data.get("card"),
            data.get("left"), data.get("winner"))
        seen.add(type_)
    assert {"swimmer-bitten", "hunger-lost", "shark-card-played", "game-ended"} <= seen


def test_games_say_their_revision_and_tags(store: Path, folder: Path) -> None:
    con = _duck(folder)
    revisions = dict(con.execute("SELECT revision, COUNT(*) FROM games GROUP BY revision")
                     .fetchall())
    assert (revisions["superseded"], revisions["retracted"]) == (1, 1)
    row = con.execute("SELECT event, date, date_tag, tags FROM games WHERE event LIKE 'Club%' "
                      "LIMIT 1").fetchone()
    assert row[:3] == (HOSTILE_EVENT, "2026-02-02", "2026.02.02")
    assert json.loads(row[3])["Event"] == HOSTILE_EVENT
    with GameStore(store) as opened:
        dropped = opened.dropped()
    marked = dict(con.execute("SELECT id, revision FROM games WHERE revision <> 'live'")
                  .fetchall())
    assert marked == dropped


def test_hostile_names_come_through_unchanged(folder: Path) -> None:
    con = _duck(folder)
    names = {r[0] for r in con.execute("SELECT name FROM swimmers").fetchall()}
    assert set(HOSTILE) <= names
    whos = {r[0] for r in con.execute("SELECT who FROM events WHERE who IS NOT NULL")
            .fetchall()}
    assert set(HOSTILE) <= whos
    players = {r[0] for r in _runner(con)(sql_files()["players"])[1]}
    assert {h.casefold() for h in HOSTILE} <= players


def test_files_are_hive_partitions_of_bounded_rows(store: Path, tmp_path: Path) -> None:
    with GameStore(store) as opened:
        done = write_parquet(opened, tmp_path / "small", rows_per_file=500, batch_rows=300)
    files = sorted((tmp_path / "small" / "events").glob("bucket=*/*.parquet"))
    assert len({f.parent.name for f in files}) > 8  # games spread over the buckets
    assert any(f.name == "part-1.parquet" for f in files)  # a full file, then the next
    con = duckdb.connect()
    sizes = [con.execute(f"SELECT COUNT(*) FROM read_parquet('{f}')").fetchone()[0]
             for f in files]
    assert max(sizes) <= 500
    assert sum(sizes) == done.events
    again = _runner(_duck(tmp_path / "small"))
    assert check_sql(again, stats(store)) > 500  # same numbers, however it is cut


def test_ids_and_filters_choose_the_games(store: Path, tmp_path: Path) -> None:
    with GameStore(store) as opened:
        some = [g.id for g in opened.games()][:3]
        valid = opened.count("valid")
    code, out, err = run("export", some[0], some[1][:8], "--format", "parquet", "-o",
                         str(tmp_path / "two"), "--db", str(store))
    assert code == 0, err
    assert "2 games" in out
    ids = {r[0] for r in _duck(tmp_path / "two").execute("SELECT game_id FROM events")
           .fetchall()}
    assert ids == set(some[:2])
    code, _, err = run("export", "--all", "--status", "valid", "--format", "parquet",
                       "-o", str(tmp_path / "valid"), "--db", str(store))
    assert code == 0, err
    con = _duck(tmp_path / "valid")
    assert con.execute("SELECT DISTINCT status FROM games").fetchall() == [("valid",)]
    assert con.execute("SELECT COUNT(*) FROM games").fetchone()[0] == valid
    code, _, err = run("export", "--all", "--player", "=CMD()", "--format", "parquet",
                       "-o", str(tmp_path / "one"), "--db", str(store))
    assert code == 0, err
    assert _duck(tmp_path / "one").execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2


def test_an_empty_selection_still_has_the_columns(store: Path, tmp_path: Path) -> None:
    with GameStore(store) as opened:
        done = write_parquet(opened, tmp_path / "none", games=[])
    assert (done.games, done.events, done.swimmers) == (0, 0, 0)
    [games] = _duck(tmp_path / "none").execute(sql_files()["games"]).fetchall()
    assert games == (0, 0, 0, 0, 0, 0, 0)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--all", "--format", "parquet"], "give -o DIR"),
        (["abc", "--all", "--format", "parquet", "-o", "{tmp}/x"], "not both"),
        (["abc", "--status", "valid", "--format", "parquet", "-o", "{tmp}/x"], "not both"),
        (["--all", "--format", "parquet", "-o", "{tmp}/full"], "not an empty folder"),
        (["--all", "--format", "parquet", "-o", "{tmp}/x", "--status", "won"],
         "'won' is not one of 'valid', 'invalid', 'unfinished'"),
        (["--all", "--format", "xml"], "'xml' is not one of 'gbn', 'bmn', 'jsonl', 'parquet'"),
        (["--format", "parquet", "-o", "{tmp}/x", "nosuchgame"], "no game 'nosuchgame'"),
    ],
)
def test_misuse_is_refused_clearly(
    store: Path, tmp_path: Path, args: list[str], said: str
) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("mine", encoding="utf-8")
    code, _out, err = run("export", *(a.format(tmp=tmp_path) for a in args), "--db", str(store))
    assert code == 2
    assert said in err
    assert not (tmp_path / "x").exists()
    assert (tmp_path / "full" / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert [p.name for p in tmp_path.iterdir()] == ["full"]  # nothing half written


def test_the_library_refuses_a_file_as_folder(store: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    with GameStore(store) as opened, pytest.raises(InputError, match="not an empty folder"):
        write_parquet(opened, tmp_path / "file")


def _bucket_types(folder: Path) -> set[tuple[str, int]]:
    con = duckdb.connect()
    found: set[tuple[str, int]] = set()
    for view in VIEWS:
        files = (folder / view / "**" / "*.parquet").as_posix()
        found |= set(con.execute(f"SELECT DISTINCT typeof(bucket), bucket FROM "
                                 f"read_parquet('{files}', hive_partitioning = true)").fetchall())
    return found


def test_the_bucket_is_a_number_of_0_to_15_in_every_export(store: Path, folder: Path,
                                                            tmp_path: Path) -> None:
    """In a small export every bucket may be a digit: it is a number in all of them, so a
    query over the files works the same whatever the archive."""
    everything = _bucket_types(folder)
    assert {t for t, _ in everything} == {"BIGINT"}
    assert {b for _, b in everything} == set(range(16))
    con = _duck(folder)
    for game_id, bucket in con.execute("SELECT id, bucket FROM games").fetchall():
        assert bucket == int(game_id[0], 16)
    with GameStore(store) as opened:
        first = next(g.id for g in opened.games() if g.id[0] in "abcdef")
        write_parquet(opened, tmp_path / "one", games=[first])
        write_parquet(opened, tmp_path / "none", games=[])
    assert _bucket_types(tmp_path / "one") == {("BIGINT", int(first[0], 16))}
    assert _bucket_types(tmp_path / "none") == set()
    assert json.loads((folder / "export.json").read_text(encoding="utf-8"))["format"] == 2


def test_a_folder_of_the_user_keeps_its_mode_and_a_new_one_gets_the_usual(
    store: Path, tmp_path: Path
) -> None:
    """The files are made in a hidden folder and moved in: the folder given keeps its mode
    (group-writable, setgid: a shared folder), a new one is made as any folder is."""
    given = tmp_path / "shared"
    given.mkdir()
    given.chmod(0o2775)
    code, _, err = run("export", "--all", "--format", "parquet", "-o", str(given),
                       "--db", str(store))
    assert code == 0, err
    assert given.stat().st_mode & 0o7777 == 0o2775
    assert sorted(p.name for p in given.iterdir()) == ["events", "export.json", "games",
                                                        "swimmers"]
    umask = os.umask(0)
    os.umask(umask)
    code, _, err = run("export", "--all", "--format", "parquet", "-o", str(tmp_path / "new"),
                       "--db", str(store))
    assert code == 0, err
    assert (tmp_path / "new").stat().st_mode & 0o777 == 0o777 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "shared"]  # nothing hidden left


def test_the_current_folder_empty_is_a_folder_to_write(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here = tmp_path / "here"
    here.mkdir()
    folder_itself = here.stat().st_ino
    monkeypatch.chdir(here)
    code, out, err = run("export", "--all", "--format", "parquet", "-o", ".", "--db", str(store))
    assert code == 0, err
    assert "wrote .:" in out
    assert (here / "export.json").is_file()
    assert here.stat().st_ino == folder_itself  # filled, not replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["here"]


def test_a_store_of_the_other_game_only_exports_no_game_and_says_so(tmp_path: Path) -> None:
    """Without ids, export chooses Get Bit!'s games for Parquet, whatever else the store
    holds; only naming a game of Come on! Bite me! is refused."""
    db = tmp_path / "bite.db"
    code, _, err = run("import", str(ROOT / "fixtures" / "biteme"), "--db", str(db))
    assert code == 0, err
    for args in ([], ["--all"], ["--status", "valid"]):
        out_dir = tmp_path / f"out{len(args)}"
        code, out, err = run("export", *args, "--format", "parquet", "-o", str(out_dir),
                             "--db", str(db))
        assert (code, err) == (0, (
            "note: 4 games of Come on! Bite me! left out: the Parquet tables hold Get Bit!'s "
            "games only\n")), args
        assert "0 games" in out
    with GameStore(db) as opened:
        some = next(iter(opened.games(everything=True))).id
    code, _, err = run("export", some, "--format", "parquet", "-o", str(tmp_path / "x"),
                       "--db", str(db))
    assert code == 2
    assert "is a game of Come on! Bite me!" in err


def test_events_that_cannot_be_read_are_said_by_game_and_nothing_is_written(
    store: Path, tmp_path: Path
) -> None:
    (tmp_path / "db").mkdir()
    damaged = tmp_path / "db" / "damaged.db"
    shutil.copyfile(store, damaged)
    with sqlite3.connect(damaged) as conn:
        game, number = conn.execute("SELECT game_id, game FROM event_games LIMIT 1 OFFSET 3"
                                    ).fetchone()
        triggers = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'event_runs'")]
        for name in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("UPDATE event_runs SET events = '[[1, ' WHERE game = ? AND seq = 1",
                     (number,))
    code, _, err = run("export", "--all", "--format", "parquet", "-o", str(tmp_path / "out"),
                       "--db", str(damaged))
    assert code != 0
    assert f"game {game}: the events from seq 1 cannot be read" in err
    assert "getbit check" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db"]
