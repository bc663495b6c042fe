"""The store defends its history (issue 11): a game it cannot take never costs the
others, no statement rewrites a stored row, ``getbit check`` finds every kind of
tampering, no command crashes on a damaged store, and a file that is not ours
(or an empty one, for a command that only reads) is never written."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlite_utils
from typer.testing import CliRunner

from cli import app
from getbit_events.errors import StoreError
from getbit_events.simulate import simulate_games
from getbit_events.validate import GameReport, validate_game
from importers import read_file
from importers.gbn import read_gbn, write_gbn
from importers.wire import event_from_payload
from importers.workers import cores
from store import (
    MIGRATIONS,
    GameStore,
    check,
    check_store,
    eventlog,
    game_hash,
    readmodel,
    revisions,
)
from store.check import _Careful
from store.importing import import_paths
from store.schema import GAME_COLUMNS
from store.stored import GENESIS, chain_value

INVALID = """[Line "Ann, Bob, Cid, Dee"]
1. Ann 1, Bob 2, Cid 3, Dee 4
2. Ann 2, Bob 3, Cid 4, Dee 5 ; bit Dee
"""


def _sim(n: int, seed: int = 1) -> str:
    return write_gbn(simulate_games(n, "standard", 4, seed, "random"))


def _reports(text: str, source: str = "games.gbn") -> list[GameReport]:
    return [validate_game(g) for g in read_gbn(text, source)]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert "Traceback" not in result.output + result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, list[str]]:
    """A store of four valid games and an invalid one; their ids in the order stored."""
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        ids = [store.add(r).game_id for r in _reports(_sim(4) + "\n" + INVALID)]
    return path, ids


def _tamper(path: Path, *statements: tuple[str, tuple[object, ...]], drop: str = "") -> None:
    """What another program could do: plain sqlite3, triggers dropped first when named."""
    conn = sqlite3.connect(path)
    for trigger in drop.split():
        conn.execute(f"DROP TRIGGER {trigger}")
    for sql, params in statements:
        conn.execute(sql, params)
    conn.commit()
    conn.close()


Row = tuple[int, str, int, int, str]  # seq, type, version, round, payload


def _rewrite_events(path: Path, game_id: str, change: Callable[[list[Row]], list[Row]]) -> None:
    """What another program could do to a game's events: read them from the view
    ``events``, change them, and write them back in the store's own compact form
    (``eventlog``), its triggers dropped first."""
    conn = sqlite3.connect(path)
    rows = conn.execute(
        "SELECT seq, type, version, round, payload FROM events WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()
    (game,) = conn.execute("SELECT game FROM event_games WHERE game_id = ?", (game_id,)).fetchone()
    for table in ("event_games", "event_runs"):
        conn.execute(f"DROP TRIGGER {table}_no_delete")
    conn.execute("DELETE FROM event_runs WHERE game = ?", (game,))
    conn.execute("DELETE FROM event_games WHERE game = ?", (game,))
    eventlog.encode(conn, eventlog.Log(), game, game_id, change(rows))
    conn.commit()
    conn.close()


def _set_payload(seq: int, payload: str) -> Callable[[list[Row]], list[Row]]:
    return lambda rows: [(*r[:4], payload) if r[0] == seq else r for r in rows]


def _files(path: Path) -> dict[str, bytes]:
    found = (path.with_name(path.name + s) for s in ("", "-wal", "-shm", "-journal"))
    return {p.name: p.read_bytes() for p in found if p.exists()}


# -- a game the store cannot take costs no other --------------------------------------


def _fail_for(game_ids: set[str], error: Exception) -> Callable[..., object]:
    real = readmodel.fact_rows

    def fact_rows(game_id: str, *args: object) -> object:
        if game_id in game_ids:
            raise error
        return real(game_id, *args)  # type: ignore[arg-type]

    return fact_rows


@pytest.mark.patched
def test_a_game_the_store_fails_on_is_left_out_and_the_others_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "club.gbn"
    games.write_text(_sim(100, seed=9), encoding="utf-8")
    reports = _reports(games.read_text(encoding="utf-8"), str(games))
    doomed = reports[41]
    doomed_id = game_hash_of(doomed)
    monkeypatch.setattr(readmodel, "fact_rows", _fail_for({doomed_id}, IndexError("boom")))
    seen: list[object] = []
    with GameStore(tmp_path / "games.db") as store:
        summary = import_paths(store, [games], on_report=lambda item, _: seen.append(item))
        assert store.count() == 99
        assert doomed_id not in {g.id for g in store.games()}
        # nothing of it is left: no events, violations or read-model rows
        for table in ("events", "violations", readmodel.TABLE):
            found = store.db.execute(f"SELECT COUNT(*) FROM {table} WHERE game_id = ?",
                                     [doomed_id]).fetchone()
            assert found == (0,)
    assert (summary.stored, summary.errors, summary.exit_code) == (99, 1, 3)
    (failure,) = [str(item) for item in seen if "internal error" in str(item)]
    assert failure.startswith(f"{games}:{doomed.record.pos.line}: game 42: internal error (a bug)")
    assert "IndexError: boom" in failure
    assert check_store(tmp_path / "games.db").ok  # the chain skipped it: nothing half


@pytest.mark.patched
def test_import_says_a_bug_and_exits_3_but_stores_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "club.gbn"
    games.write_text(_sim(5, seed=4), encoding="utf-8")
    third = game_hash_of(_reports(games.read_text(encoding="utf-8"))[2])
    monkeypatch.setattr(readmodel, "fact_rows", _fail_for({third}, TypeError("no such thing")))
    db = tmp_path / "games.db"
    code, out, err = _run("import", str(games), "--db", str(db))
    assert code == 3
    assert "4 stored" in out
    assert "1 left out by an internal error (a bug)" in out
    assert f"{games}:" in err
    assert "internal error (a bug): TypeError: no such thing" in err


@pytest.mark.patched
def test_a_game_the_store_refuses_is_said_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "club.gbn"
    games.write_text(_sim(5, seed=4), encoding="utf-8")
    first = game_hash_of(_reports(games.read_text(encoding="utf-8"))[0])
    monkeypatch.setattr(readmodel, "fact_rows", _fail_for({first}, StoreError("too odd")))
    code, out, err = _run("import", str(games), "--db", str(tmp_path / "g.db"))
    assert code == 1
    assert "4 stored" in out
    assert "1 not stored" in out
    assert f"{games}:1: game 1: not stored: too odd" in err


def test_a_card_of_99_among_100_games_costs_no_good_game(tmp_path: Path) -> None:
    bad = '[Line "John, Anne, Beth, Ted"]\n\n1. John 4, Anne 1, Beth 4, Ted 99\n\n'
    games = tmp_path / "g.gbn"
    games.write_text(_sim(50, seed=2) + "\n" + bad + _sim(49, seed=3), encoding="utf-8")
    db = tmp_path / "p.db"
    code, _, _ = _run("import", "--db", str(db), str(games))
    assert code in (1, 3)  # stored as invalid, or left out by a bug: never the batch
    with GameStore(db) as store:
        assert store.count("valid") + store.count("unfinished") == 99


@pytest.mark.patched
def test_a_failed_game_in_a_batch_rolls_back_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reports = _reports(_sim(3) + "\n" + INVALID)
    doomed = game_hash_of(reports[3])
    monkeypatch.setattr(readmodel, "fact_rows", _fail_for({doomed}, ValueError("no")))
    with GameStore(tmp_path / "g.db") as store:
        with store.batch():
            for report in reports:
                with contextlib.suppress(ValueError):
                    store.add(report)
        assert store.count() == 3
        assert store.table_rows("violations") == []  # the invalid game's are rolled back
    assert check_store(tmp_path / "g.db").ok


@pytest.mark.patched
def test_a_game_failing_after_its_row_is_written_leaves_no_text_in_its_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record texts of a batch are written with it; one of a game rolled back is not."""
    (tmp_path / "games.gbn").write_text(_sim(3), "utf-8")
    reports = [validate_game(g) for g in read_file(tmp_path / "games.gbn")]
    assert all(r.record.text for r in reports)
    doomed = game_hash_of(reports[1])
    real = revisions.lookalikes

    def lookalikes(conn: sqlite3.Connection, game_id: str, *rest: Any) -> tuple[str, ...]:
        if game_id == doomed:  # its games row is written by now, in its savepoint
            raise ValueError("no")
        return real(conn, game_id, *rest)

    monkeypatch.setattr(revisions, "lookalikes", lookalikes)
    with GameStore(tmp_path / "g.db") as store:
        with store.batch():
            for report in reports:
                with contextlib.suppress(ValueError):
                    store.add(report)
        kept = {g.id for g in store.games(everything=True)}
        texts = store.db.execute("SELECT game_id, text IS NOT NULL FROM sources").fetchall()
    assert len(kept) == 2
    assert doomed not in kept
    assert sorted(texts) == sorted((game_id, 1) for game_id in kept)
    assert check_store(tmp_path / "g.db").ok


def game_hash_of(report: GameReport) -> str:
    """The id a game gets in an empty store."""
    return game_hash(report)[:12]


# -- no statement rewrites or removes a stored row -----------------------------------------

_COLUMNS = (
    "id, hash, source, source_line, source_game, tags, variant, swimmers, status, "
    "winner, rounds, events, violations, imported_at, prev, chain"
)
REWRITES = {
    "games INSERT OR REPLACE": (
        f"INSERT OR REPLACE INTO games ({_COLUMNS}) SELECT id, hash, source, source_line, "
        "source_game, tags, variant, swimmers, 'valid', 'Nobody', rounds, events, violations, "
        "imported_at, prev, chain FROM games"
    ),
    "games REPLACE INTO": (
        f"REPLACE INTO games ({_COLUMNS}) SELECT id, hash, source, source_line, source_game, "
        "tags, variant, swimmers, status, 'Nobody', rounds, events, violations, imported_at, "
        "prev, chain FROM games"
    ),
    "games same rowid": (
        "INSERT OR REPLACE INTO games (rowid, id, hash, status, imported_at) "
        "SELECT rowid, 'x', 'y', 'valid', 'now' FROM games"
    ),
    "games UPSERT": (
        f"INSERT INTO games ({_COLUMNS}) SELECT * FROM (SELECT {_COLUMNS} FROM games) WHERE 1 "
        "ON CONFLICT (id) DO UPDATE SET winner = 'Nobody'"
    ),
    "games UPDATE": "UPDATE games SET winner = 'Nobody'",
    "games UPDATE OR REPLACE": "UPDATE OR REPLACE games SET winner = 'Nobody'",
    "games DELETE": "DELETE FROM games",
    "events: a view": "UPDATE events SET payload = '{}'",
    "event_runs INSERT OR REPLACE": (
        "INSERT OR REPLACE INTO event_runs (game, seq, round, events) "
        "SELECT game, seq, round, '[]' FROM event_runs"
    ),
    "event_runs REPLACE INTO": (
        "REPLACE INTO event_runs (game, seq, round, events) "
        "SELECT game, seq, round, '[]' FROM event_runs"
    ),
    "event_runs UPSERT": (
        "INSERT INTO event_runs (game, seq, round, events) "
        "SELECT game, seq, round, events FROM event_runs WHERE 1 "
        "ON CONFLICT (game, seq) DO UPDATE SET events = '[]'"
    ),
    "event_runs UPDATE": "UPDATE event_runs SET events = '[]'",
    "event_runs DELETE": "DELETE FROM event_runs",
    "event_games same number": (  # keyed by the game's number alone (m011_by_number)
        "INSERT OR REPLACE INTO event_games (game, game_id, strings) "
        "SELECT game, game_id || 'x', '[]' FROM event_games"
    ),
    "event_games same game": (
        "REPLACE INTO event_games (game, game_id, strings) "
        "SELECT game, 'elsewhere' || game_id, strings FROM event_games"
    ),
    "event_games UPDATE": "UPDATE event_games SET strings = '[]'",
    "event_games DELETE": "DELETE FROM event_games",
    "event_kinds REPLACE INTO": (
        "REPLACE INTO event_kinds SELECT kind, type, version, '{}', strings, raw FROM event_kinds"
    ),
    "event_kinds UPDATE": "UPDATE event_kinds SET template = '{}'",
    "event_kinds DELETE": "DELETE FROM event_kinds",
    "violations INSERT OR REPLACE": (
        "INSERT OR REPLACE INTO violations (rowid, game_id, line, code, message) "
        "SELECT rowid, game_id, 0, 'none', 'nothing' FROM violations"
    ),
    "violations UPSERT": (
        "INSERT INTO violations (rowid, game_id, line, code, message) "
        "SELECT rowid, game_id, 0, 'none', 'nothing' FROM violations WHERE 1 "
        "ON CONFLICT (rowid) DO UPDATE SET message = 'nothing'"
    ),
    "violations UPDATE": "UPDATE violations SET message = 'nothing'",
    "violations DELETE": "DELETE FROM violations",
}


@pytest.mark.parametrize("name", REWRITES)
def test_no_statement_rewrites_or_removes_a_stored_row(
    stored: tuple[Path, list[str]], name: str
) -> None:
    path, _ = stored
    before = _tables(path)
    conn = sqlite3.connect(path)  # another program: no recursive triggers, no foreign keys
    refused = "cannot modify events because it is a view" if name == "events: a view" else (
        "append-only")
    with pytest.raises((sqlite3.IntegrityError, sqlite3.OperationalError), match=refused):
        conn.execute(REWRITES[name])
    conn.rollback()
    conn.close()
    assert _tables(path) == before
    assert check_store(path).ok


def _tables(path: Path) -> list[list[tuple[object, ...]]]:
    conn = sqlite3.connect(path)
    try:
        return [
            conn.execute(f"SELECT rowid, * FROM {t} ORDER BY rowid").fetchall()
            for t in ("games", "event_games", "event_kinds", "violations")
        ] + [conn.execute("SELECT * FROM event_runs ORDER BY game, seq").fetchall()]
    finally:
        conn.close()


def test_new_games_and_events_may_still_be_added(stored: tuple[Path, list[str]]) -> None:
    path, ids = stored
    with GameStore(path) as store:
        assert store.add(_reports(_sim(1, seed=77))[0]).stored
        assert store.count() == len(ids) + 1
    assert check_store(path).ok


# -- the chain, and a store from before it --------------------------------------------------


def test_an_older_store_is_chained_when_it_is_opened(tmp_path: Path) -> None:
    new = tmp_path / "new.db"
    with GameStore(new) as store:
        for report in _reports(_sim(3) + "\n" + INVALID):
            store.add(report)
        tables = {t: store.db.execute(f"SELECT * FROM {t}").fetchall()
                  for t in ("games", "events", "violations", *readmodel.TOTALS)}
        swimmers = store.db.execute(f"SELECT rowid, * FROM {readmodel.TABLE}").fetchall()
        # as m003 chains the games of an older store: no record hash (m010) to cover
        chains, prev = [], GENESIS
        for row in store.db.execute(f"SELECT {', '.join(GAME_COLUMNS)} FROM games ORDER BY rowid"):
            prev = chain_value(prev, row)
            chains.append(prev)
    old = tmp_path / "old.db"
    db = sqlite_utils.Database(old)
    MIGRATIONS.apply(db, stop_before="m003_defences")  # a store as getbit wrote it before
    for table, rows in tables.items():
        if not rows:
            continue
        width = 14 if table == "games" else len(rows[0])
        marks = ", ".join("?" * width)
        db.conn.executemany(f"INSERT INTO {table} VALUES ({marks})", [r[:width] for r in rows])
    marks = ", ".join("?" * len(readmodel.COLUMNS))  # each in its game's range of rowids
    db.conn.executemany(f"INSERT INTO {readmodel.TABLE} (rowid, {', '.join(readmodel.COLUMNS)}) "
                        f"VALUES (?, {marks})", swimmers)
    db.conn.commit()
    db.close()
    before = check_store(old)
    assert before.ok
    assert "the store predates it" in before.notes[0]  # said, not taken for damage
    with GameStore(old) as store:
        assert [r[0] for r in store.db.execute("SELECT chain FROM games ORDER BY rowid")] == chains
        assert store.add(_reports(_sim(1, seed=5))[0]).stored
    assert check_store(old).ok


# -- getbit check finds every kind of tampering ----------------------------------------------


def _event(path: Path, game_id: str, kind: str) -> tuple[int, dict[str, Any]]:
    conn = sqlite3.connect(path)
    seq, payload = conn.execute(
        "SELECT seq, payload FROM events WHERE game_id = ? AND type = ? ORDER BY seq LIMIT 1",
        (game_id, kind),
    ).fetchone()
    conn.close()
    return seq, json.loads(payload)


def _change_card(path: Path, game_id: str) -> None:
    seq, payload = _event(path, game_id, "cards-revealed")
    cards = payload["cards"]
    assert isinstance(cards, list)
    cards[0][1] = cards[0][1] % 5 + 1
    _rewrite_events(path, game_id, _set_payload(seq, json.dumps(payload, separators=(",", ":"))))


def _delete_game(path: Path, game_id: str) -> None:
    runs = "game IN (SELECT game FROM event_games WHERE game_id = ?)"
    _tamper(
        path,
        *[(f"DELETE FROM {t} WHERE {k}", (game_id,)) for t, k in (
            ("event_runs", runs), ("event_games", "game_id = ?"), ("violations", "game_id = ?"),
            (readmodel.TABLE, "game_id = ?"), ("games", "id = ?"))],
        drop="games_no_delete event_runs_no_delete event_games_no_delete violations_no_delete",
    )


_MORE_BITES = f"UPDATE {readmodel.TABLE} SET bites_taken = bites_taken + 1 WHERE game_id = ?"
TAMPERING: dict[str, tuple[Callable[[Path, list[str]], None], int | None, str]] = {
    "a payload rewritten": (
        lambda p, ids: _rewrite_events(p, ids[1], _set_payload(2, '{"who":"Nobody"}')),
        1, "not those it was stored with",
    ),
    "a card changed": (lambda p, ids: _change_card(p, ids[2]), 2, "not those it was stored with"),
    "a payload that is not JSON": (
        lambda p, ids: _rewrite_events(p, ids[1], _set_payload(3, "not json")),
        1, "event 3 (card-chosen): its payload is not JSON",
    ),
    "a payload that is not an event": (
        lambda p, ids: _rewrite_events(p, ids[2], _set_payload(1, '{"card":"x"}')),
        2, "event 1 (game-started) is not an event",
    ),
    "an event added": (
        lambda p, ids: _rewrite_events(
            p, ids[0], lambda rows: [*rows, (999, "card-chosen", 1, 99, '{"who":"Ann"}')]),
        0, "seq 999 extra",
    ),
    "an event removed": (
        lambda p, ids: _rewrite_events(p, ids[3], lambda rows: [r for r in rows if r[0] != 5]),
        3, "seq 5 missing",
    ),
    "a game removed": (lambda p, ids: _delete_game(p, ids[1]), 2, "is missing"),
    "the last game removed": (lambda p, ids: _delete_game(p, ids[-1]), None, "missing"),
    "a game removed, its events left": (
        lambda p, ids: _tamper(p, ("DELETE FROM games WHERE id = ?", (ids[0],)),
                               drop="games_no_delete"),
        0, "its events are stored but its game is not",
    ),
    "a winner changed by REPLACE": (
        lambda p, ids: _tamper(
            p, (REWRITES["games REPLACE INTO"] + " WHERE id = ?", (ids[2],)),
            drop="games_no_replace"),
        2, "its games row was changed",
    ),
    "a winner changed by UPDATE": (
        lambda p, ids: _tamper(p, ("UPDATE games SET winner = 'Nobody' WHERE id = ?", (ids[0],)),
                               drop="games_no_update"),
        0, "its games row does not match its events (winner)",
    ),
    "a violation removed": (
        lambda p, ids: _tamper(p, ("DELETE FROM violations WHERE game_id = ?", (ids[4],)),
                               drop="violations_no_delete"),
        4, "0 violations stored, 1 expected",
    ),
    "a record text given to a game kept without one": (  # the guards let an insert in
        lambda p, ids: _tamper(
            p, (("INSERT INTO sources (game, game_id, text, size) SELECT rowid, id, "
                 "CAST('[Event \"forged\"]' AS BLOB), NULL FROM games WHERE id = ?"), (ids[1],))),
        1, "its record text or its violations' lines, columns or rulings are not those",
    ),
    "a violation's line and ruling changed": (
        lambda p, ids: _tamper(
            p, ("UPDATE violations SET line = 999, rule = 'R99' WHERE game_id = ?", (ids[4],)),
            drop="violations_no_update"),
        4, "its record text or its violations' lines, columns or rulings are not those",
    ),
    "a read-model row changed": (
        lambda p, ids: _tamper(
            p, (_MORE_BITES, (ids[3],))),
        3, "read-model rows",
    ),
    "a trigger dropped": (
        lambda p, ids: _tamper(p, drop="event_runs_no_replace"),
        None, "trigger event_runs_no_replace dropped",
    ),
    "a trigger made again to guard nothing": (
        lambda p, ids: _tamper(
            p, (("CREATE TRIGGER games_no_update BEFORE UPDATE ON games WHEN 0 "
                "BEGIN SELECT 1; END"), ()),
            drop="games_no_update"),
        None, "trigger games_no_update changed from what getbit made",
    ),
    "a record text of no game": (
        lambda p, ids: _tamper(
            p, ("INSERT INTO sources (game_id, text, size) VALUES ('f00d', X'5B5D', NULL)", ())),
        None, "",  # named by its game id, checked below
    ),
    "a rating changed": (  # a cache stats shows: not guarded, but checked
        lambda p, ids: _tamper(p, (("UPDATE standings SET mu = 40, win_streak = 9 WHERE "
                                   "player_key = (SELECT MIN(player_key) FROM standings)"), ())),
        None, "the standings (ratings and streaks) do not match the games",
    ),
    "a total changed": (
        lambda p, ids: _tamper(p, ("UPDATE player_totals SET wins = wins + 1", ())),
        None, "the totals in player_totals do not match",
    ),
}


def test_check_finds_a_game_stored_again_under_a_longer_id(
    stored: tuple[Path, list[str]]
) -> None:
    # no index holds the hashes unique (m009): the writer stores a game once, by its id;
    # a row added by another program with a game's hash under a longer start of it
    # is an addition, not a rewrite (the guards let it in), and check names it
    path, ids = stored
    again_sql = (
        f"INSERT INTO games ({_COLUMNS}) SELECT substr(hash, 1, 16), hash, source, "
        "source_line, source_game, tags, variant, swimmers, status, winner, rounds, events, "
        "violations, imported_at, prev, chain FROM games WHERE id = ?"
    )
    _tamper(path, (again_sql, (ids[1],)))
    result = check_store(path)
    again = [d for d in result.damage if d.game is not None and d.game.startswith(ids[1])
             and d.game != ids[1]]
    assert any(f"it is game {ids[1]} stored again" in d.problem for d in again), result.damage
    assert not any(d.game == ids[1] for d in result.damage)  # the first is the game itself


def test_check_finds_nothing_in_an_intact_store(stored: tuple[Path, list[str]]) -> None:
    path, ids = stored
    before = path.read_bytes()
    code, out, _ = _run("check", "--db", str(path))
    assert code == 0
    assert f"ok: {len(ids)} games" in out
    assert path.read_bytes() == before  # read-only: nothing written, not even to the log
    assert _files(path).get("games.db-wal", b"") == b""


@pytest.mark.parametrize("name", TAMPERING)
def test_check_finds_each_kind_of_tampering(stored: tuple[Path, list[str]], name: str) -> None:
    path, ids = stored
    tamper, which, said = TAMPERING[name]
    tamper(path, ids)
    result = check_store(path)
    assert not result.ok
    if name == "a record text of no game":
        assert any(d.game == "f00d" and d.problem == "its record text is stored but its game is "
                   "not" for d in result.damage), result.damage
        return
    named = [d for d in result.damage if d.game == (ids[which] if which is not None else None)]
    assert any(said in d.problem for d in named), result.damage
    code, out, _ = _run("check", "--db", str(path))
    assert code == 1
    assert (ids[which] if which is not None else "the store is damaged") in out
    assert "damaged:" in out
    code, out, _ = _run("check", "--db", str(path), "--json")
    assert json.loads(out)["ok"] is False


@pytest.mark.parametrize("name", TAMPERING)
def test_check_in_workers_finds_what_one_process_finds(
    stored: tuple[Path, list[str]], name: str
) -> None:
    path, ids = stored
    TAMPERING[name][0](path, ids)
    assert check_store(path, jobs=2) == check_store(path, jobs=1)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_store_that_cannot_be_read_game_by_game_is_said_so_in_workers_too(
    stored: tuple[Path, list[str]], jobs: int
) -> None:
    # a column the check reads a game by gone: not a bug of getbit, whoever reads it
    path, _ = stored
    _tamper(path, ("ALTER TABLE violations RENAME COLUMN message TO said", ()))
    with pytest.raises(StoreError, match="the store cannot be checked: no such column: message"):
        check_store(path, jobs=jobs)
    code, _, err = _run("check", "--jobs", str(jobs), "--db", str(path))
    assert code == 2
    assert "cannot be checked" in err


def test_a_large_stores_games_are_checked_in_workers(
    stored: tuple[Path, list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # without --jobs, a store of SHARED games or more is checked a share a core: each
    # game once, in a worker, not here; found and said as in one process
    if cores() < 2:
        pytest.skip("one core: a check runs in one process")
    path, ids = stored
    said = tmp_path / "checked-by"
    real = check._shared_game

    def counted(row: dict[str, Any]) -> Any:
        with said.open("a") as f:
            f.write(f"{os.getpid()} {row['id']}\n")
        return real(row)

    monkeypatch.setattr(check, "_shared_game", counted)
    monkeypatch.setattr(check, "SHARED", len(ids))
    result = check_store(path, jobs=None)
    lines = [line.split() for line in said.read_text().splitlines()]
    assert sorted(game for _, game in lines) == sorted(ids)
    assert {int(pid) for pid, _ in lines} - {os.getpid()} == {int(pid) for pid, _ in lines}
    assert result == check_store(path, jobs=1)
    assert result.ok


def test_check_reads_every_event_as_the_careful_reader_does(tmp_path: Path) -> None:
    # check reads a payload text once (store.check._Careful) and makes the events of the
    # same text at other rounds from it: each game's events must be those the careful
    # reader makes of each row, whatever texts the games before held
    path = tmp_path / "games.db"
    with GameStore(path) as store:
        ids = [store.add(r).game_id for r in _reports(_sim(12, seed=7) + "\n" + INVALID)]
    careful = _Careful()
    conn = sqlite3.connect(path)
    for game_id in ids:
        rows = conn.execute(
            "SELECT seq, type, version, round, payload FROM events WHERE game_id = ? "
            "ORDER BY seq", (game_id,)).fetchall()
        events, unread = careful.decode(rows, bite=False)
        assert unread == []
        assert events == [event_from_payload(t, v, r, json.loads(p)) for _, t, v, r, p in rows]
        assert [e.round for e in events] == [r for _, _, _, r, _ in rows]
    conn.close()
    # most texts were read before, at other rounds too: the way this test is about was taken
    assert any(len(rounds) > 1 for rounds in careful.read.values())


def test_a_text_read_before_at_a_round_that_is_no_number_is_not_an_event() -> None:
    # check reads a payload text once (``_Careful``): the same text again, at a round that
    # is no whole number (a store from before keeps rows as any program wrote them), is
    # refused as the careful reader refuses it, read before or not
    text = '{"who":"Ann"}'
    rounds: list[Any] = [2, "two", True, 3]
    rows = [(seq, "card-chosen", 1, r, text) for seq, r in enumerate(rounds, 1)]
    events, unread = _Careful().decode(rows, bite=False)
    assert [e.round for e in events] == [2, 3]
    said = "is not an event: card-chosen: round: expected a whole number, not"
    assert unread == [f"event 2 (card-chosen) {said} text", f"event 3 (card-chosen) {said} true"]


def test_a_run_whose_round_is_no_number_is_damage_not_a_crash(
    stored: tuple[Path, list[str]]
) -> None:
    # a round made text behind the guard: every command names the game as damaged (the
    # compiled build's typed code stopped at it with a TypeError, "internal error")
    path, ids = stored
    two = ("UPDATE event_runs SET round = 'two' WHERE round = 2 AND game = "
           "(SELECT game FROM event_games WHERE game_id = ?)")
    _tamper(path, (two, (ids[1],)), drop="event_runs_no_update")
    said = [d.problem for d in check_store(path).damage if d.game == ids[1]]
    assert any("cannot be read (their round 'two' is not a whole number)" in p
               for p in said), said
    for command in (["show", ids[1]], ["replay", ids[1]], ["rebuild"], ["check"]):
        code, _, err = _run(*command, "--db", str(path))
        assert code in (1, 2), (command, err)
        assert "internal error" not in err


def test_check_of_what_is_not_a_store_exits_2(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_bytes(b"dear diary\n" * 20)
    code, _, err = _run("check", "--db", str(notes))
    assert code == 2
    assert "is not an SQLite database" in err
    code, _, err = _run("check", "--db", str(tmp_path / "none.db"))
    assert code == 2
    assert not (tmp_path / "none.db").exists()


def test_an_import_makes_a_dropped_guard_again(stored: tuple[Path, list[str]]) -> None:
    path, _ = stored
    _tamper(path, drop="event_runs_no_replace")
    with GameStore(path) as store, store.batch():
        assert store.add(_reports(_sim(1, seed=31))[0]).stored
    assert check_store(path).ok


# -- no command crashes on a damaged store ----------------------------------------------------

DAMAGE: dict[str, Callable[[list[Row]], list[Row]]] = {
    "an extra event": lambda rows: [*rows, (999, "card-chosen", 1, 99, '{"who":"Ann"}')],
    "a payload that is not JSON": _set_payload(3, "not json"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_no_command_crashes_on_a_damaged_game(
    stored: tuple[Path, list[str]], tmp_path: Path, damage: str
) -> None:
    path, ids = stored
    _rewrite_events(path, ids[1], DAMAGE[damage])
    db = ("--db", str(path))
    named = f"game {ids[1]} is damaged"

    code, _, err = _run("rebuild", *db)
    assert (code, named in err) == (2, True)
    assert "skipped 1 damaged game" in err
    out_file = tmp_path / "out.gbn"
    code, _, err = _run("export", ids[0], ids[1], ids[2], *db, "-o", str(out_file))
    assert (code, named in err) == (2, True)
    assert len(read_gbn(out_file.read_text(encoding="utf-8"))) == 2  # the others are written
    for command in (["replay", ids[1]], ["report", ids[1]], ["show", ids[1]]):
        code, _, err = _run(*command, *db)
        assert (code, named in err) == (2, True), command
        assert "run getbit check" in err
    code, _, err = _run("games", *db)
    assert code == 0
    assert f"{len(ids)} games" in err
    code, _, _ = _run("stats", *db)
    assert code == 0
    code, _, _ = _run("replay", ids[0], *db)
    assert code == 0


#: Values of a kind getbit never writes where it writes them, put there behind the guards
#: (the compiled build's typed code stopped at each with an "internal error": found by
#: review): each is damage a command says, never a crash.
ODD_VALUES: dict[str, tuple[str, str]] = {
    "a round made text": ("event_runs_no_update",
                          "UPDATE event_runs SET round = 'two' WHERE round = 2"),
    "a round made a fraction": ("event_runs_no_update",
                                "UPDATE event_runs SET round = 2.5 WHERE round = 2"),
    "a game's texts made a number": ("event_games_no_update", "UPDATE event_games SET strings = 7"),
    "a kind's version made text": ("event_kinds_no_update", "UPDATE event_kinds SET version = 'v'"),
    "a kind's template made a number": ("event_kinds_no_update",
                                        "UPDATE event_kinds SET template = 5"),
    "a kind's text slots made text": ("event_kinds_no_update",
                                      "UPDATE event_kinds SET strings = 'x'"),
    "a count of events made text": ("games_no_update", "UPDATE games SET events = 'x'"),
    "a record's size made text": ("sources_no_update", "UPDATE sources SET size = 'big'"),
    "a violation's round made text": ("violations_no_update", "UPDATE violations SET round = 'r'"),
    "a violation's message made bytes": ("violations_no_update",
                                         "UPDATE violations SET message = X'00ff'"),
    "a read-model count made text": ("", "UPDATE game_swimmers SET bites_taken = 'many'"),
    "a rating made text": ("", "UPDATE standings SET mu = 'x'"),
    "a total made text": ("", "UPDATE player_totals SET wins = 'x'"),
}


@pytest.mark.parametrize("odd", ODD_VALUES)
def test_no_command_crashes_on_a_value_of_a_kind_getbit_never_writes(
    stored: tuple[Path, list[str]], tmp_path: Path, odd: str
) -> None:
    path, ids = stored
    guard, sql = ODD_VALUES[odd]
    _tamper(path, (sql, ()), drop=guard)
    code, out, _ = _run("check", "--db", str(path))
    assert code == 1, out
    for command in (
        ["show", ids[1]], ["replay", ids[1]], ["report", ids[1]], ["games"], ["stats"],
        ["stats", "--json"], ["export", "--all", "--format", "gbn"],
        ["export", "--all", "--format", "parquet", "-o", str(tmp_path / "pq")],
        ["check", "--jobs", "2"], ["rebuild"],
    ):
        code, _, err = _run(*command, "--db", str(path))
        assert code in (0, 1, 2), (command, err)
        assert "internal error" not in err, (command, err)


def test_a_kind_of_a_kind_getbit_never_writes_costs_no_new_game(
    stored: tuple[Path, list[str]], tmp_path: Path
) -> None:
    # the store's last kind made unreadable: it is not known, and a new kind takes a
    # code past it (it took that kind's code, and every new game was refused)
    path, _ = stored
    last = "UPDATE event_kinds SET version = 'v' WHERE kind = (SELECT MAX(kind) FROM event_kinds)"
    _tamper(path, (last, ()), drop="event_kinds_no_update")
    games = tmp_path / "more.gbn"
    games.write_text(write_gbn(simulate_games(3, "shark", 5, 77, "random")), encoding="utf-8")
    code, out, err = _run("import", str(games), "--db", str(path))
    assert code == 0, err
    assert "3 stored" in out


def test_a_games_row_changed_is_shown_by_no_command_as_the_games(
    stored: tuple[Path, list[str]],
) -> None:
    """A winner changed behind the trigger (put back after): games, show and export
    name the game as damaged instead of showing the forged row (found by review)."""
    path, ids = stored
    conn = sqlite3.connect(path)
    (guard,) = conn.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'games_no_update'").fetchone()
    conn.close()
    _tamper(path, ("UPDATE games SET winner = 'Zed' WHERE id = ?", (ids[2],)), (guard, ()),
            drop="games_no_update")
    said = (f"game {ids[2]} is damaged: its games row was changed since it was stored (it "
            "does not match its chain value); run getbit check")
    code, out, err = _run("games", "--db", str(path), "--json")
    assert code == 2
    assert said in err
    assert ids[2] not in out
    assert len(out.splitlines()) == len(ids) - 1
    for command in (["show", ids[2]], ["export", ids[2]]):
        code, out, err = _run(*command, "--db", str(path))
        assert code == 2, command
        assert said in err, command
        assert "Zed" not in out, command
    # a rebuild leaves it out of the read models too (it counted the forged winner)
    code, _, err = _run("rebuild", "--db", str(path))
    assert code == 2
    assert said in err
    assert "skipped 1 damaged game" in err
    with GameStore(path) as store:
        counted = {row["game_id"] for row in store.db.query("SELECT game_id FROM game_swimmers")}
    assert ids[2] not in counted
    assert counted == set(ids) - {ids[2]}


def test_a_games_row_that_cannot_be_read_is_named_and_skipped(
    stored: tuple[Path, list[str]],
) -> None:
    path, ids = stored
    _tamper(path, ("UPDATE games SET tags = 'not json' WHERE id = ?", (ids[1],)),
            drop="games_no_update")
    code, out, err = _run("games", "--db", str(path))
    assert code == 2
    assert f"game {ids[1]} is damaged: its games row cannot be read" in err
    assert f"{len(ids) - 1} games" in err
    assert len(out.splitlines()) == len(ids)  # the header and the games that can be read
    code, _, err = _run("show", ids[1], "--db", str(path))
    assert (code, f"game {ids[1]} is damaged" in err) == (2, True)


def test_a_removed_game_imported_again_is_stored_anew_and_its_leftovers_are_found(
    stored: tuple[Path, list[str]], tmp_path: Path
) -> None:
    path, ids = stored
    with GameStore(path, readonly=True) as store:
        events = store.events(ids[1])
    _tamper(path, ("DELETE FROM games WHERE id = ?", (ids[1],)), drop="games_no_delete")
    again = tmp_path / "again.gbn"
    again.write_text(_sim(4) + "\n" + _sim(2, seed=8), encoding="utf-8")
    code, out, err = _run("import", str(again), "--db", str(path))
    assert (code, err) == (0, "")
    assert "3 stored, 3 already stored" in out  # the removed game, under a new number
    conn = sqlite3.connect(path)
    (number,) = conn.execute("SELECT rowid FROM games WHERE id = ?", (ids[1],)).fetchone()
    assert number == 6  # after the five games it was stored with: its old number is left
    conn.close()
    with GameStore(path, readonly=True) as store:
        assert store.events(ids[1]) == events  # its own, not those left under its old number
        assert store.source(ids[1]) is not None  # kept from the file: none was before
    conn = sqlite3.connect(path)  # the view of the events: each once, as the store reads them
    seqs = [s for (s,) in conn.execute("SELECT seq FROM events WHERE game_id = ? ORDER BY seq",
                                       (ids[1],))]
    assert seqs == list(range(1, len(events) + 1))
    left = conn.execute("SELECT COUNT(*) FROM event_games WHERE game_id = ?", (ids[1],))
    (left,) = left.fetchone()
    assert left == 2  # its old events are kept (append-only), only not shown as a game's
    conn.close()
    found = {(d.game, d.problem) for d in check_store(path).damage}
    assert (ids[1], ("its events are stored under another game's number, where it is not "
            "found")) in found


def test_a_removed_last_game_leaves_its_number_to_no_later_game(
    stored: tuple[Path, list[str]], tmp_path: Path
) -> None:
    path, ids = stored
    _tamper(path, ("DELETE FROM games WHERE id = ?", (ids[4],)), drop="games_no_delete")
    more = tmp_path / "more.gbn"
    more.write_text(_sim(2, seed=8), encoding="utf-8")
    code, out, err = _run("import", str(more), "--db", str(path))
    assert (code, err) == (0, "")
    assert "2 stored" in out  # not refused: the removed game's number (5) is not taken
    conn = sqlite3.connect(path)
    numbers = [n for (n,) in conn.execute("SELECT rowid FROM games ORDER BY rowid")]
    conn.close()
    assert numbers == [1, 2, 3, 4, 6, 7]
    found = {(d.game, d.problem) for d in check_store(path).damage}
    assert (ids[4], "its events are stored but its game is not (the game was removed)") in found


def test_a_table_dropped_is_found_and_crashes_nothing(stored: tuple[Path, list[str]]) -> None:
    path, ids = stored
    _tamper(path, ("DROP TABLE violations", ()))
    code, out, _ = _run("check", "--db", str(path))
    assert code == 1
    assert "the store is damaged: table violations missing" in out
    for command in (["show", ids[0]], ["export", ids[0]], ["replay", ids[0]], ["report", ids[0]]):
        code, _, err = _run(*command, "--db", str(path))
        assert code == 2, command
        assert "the store cannot be read (no such table: violations)" in err


# -- a file that is not ours is never written; reading never creates -----------------------


def test_another_programs_games_table_is_refused_and_not_modified(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE games (id TEXT, score INTEGER)")
    conn.execute("INSERT INTO games VALUES ('chess', 3)")
    conn.commit()
    conn.close()
    before = _files(path)
    with pytest.raises(StoreError, match=r"not a getbit store \(it holds games\); refusing"):
        GameStore(path)
    games = tmp_path / "a.gbn"
    games.write_text(_sim(1), encoding="utf-8")
    for command in (["import", str(games)], ["games"], ["check"], ["rebuild"]):
        code, _, err = _run(*command, "--db", str(path))
        assert code == 2, command
        assert "not a getbit store" in err
    assert _files(path) == before  # not even switched to WAL (header bytes 18-19)


READERS = [
    ["games"], ["show", "abc"], ["export", "abc"], ["rebuild"], ["check"],
    ["replay", "abc"], ["report", "abc"], ["stats"],
]


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_read_commands_never_create_or_fill_a_store(tmp_path: Path, command: list[str]) -> None:
    empty, missing = tmp_path / "empty.db", tmp_path / "missing.db"
    empty.write_bytes(b"")
    for path in (empty, missing):
        code, _, err = _run(*command, "--db", str(path))
        assert code == 2, (command, path, err)
        assert err
    assert empty.read_bytes() == b""
    assert not missing.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def test_import_makes_a_store_of_an_empty_file(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    games = tmp_path / "a.gbn"
    games.write_text(_sim(2), encoding="utf-8")
    code, out, _ = _run("import", str(games), "--db", str(empty))
    assert code == 0
    assert "2 stored" in out
    assert check_store(empty).ok


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """``folder`` on a read-only mount of itself (root's way: chmod binds not root)."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a read-only mount needs root and mount(8)")
    made = subprocess.run(["mount", "--bind", str(folder), str(folder)], capture_output=True)
    if made.returncode:
        pytest.skip(f"mount --bind refused here: {made.stderr.decode().strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def test_a_store_in_a_folder_that_cannot_be_written_is_read_there(
    stored: tuple[Path, list[str]]
) -> None:
    """SQLite cannot make a WAL store's -shm file there: the commands that only read
    read the store as it is (no writer of it can be at work on a read-only mount); one
    that would write says why it cannot; nothing beside the store is made."""
    path, ids = stored
    stats = _run("stats", "--json", "--db", str(path))
    games = _run("games", "--db", str(path))
    with _read_only(path.parent):
        code, out, _ = _run("check", "--db", str(path))
        assert code == 0
        assert out.startswith(f"ok: {len(ids)} games, ")
        assert out.strip().endswith(" events, chain intact")
        assert _run("stats", "--json", "--db", str(path)) == stats
        assert _run("games", "--db", str(path)) == games
        code, out, _ = _run("show", ids[0], "--db", str(path))
        assert code == 0
        assert ids[0] in out
        code, _, err = _run("retract", ids[0], "--reason", "x", "--db", str(path))
        assert code == 2
        assert " ".join(err.split()) == (
            f"getbit retract: {path}: cannot write to the store here: the file or its "
            "folder cannot be written (a read-only mount, another user's folder); the "
            "commands that only read it (check, stats, games, show, export, replay, "
            "report) read it there as it is; to change it, copy it to a folder that can be "
            "written"
        )
        assert sorted(p.name for p in path.parent.iterdir()) == ["games.db"]
