"""The game store: games kept whole, once, append-only, rebuildable, and never a stranger's file."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import attrs
import pytest

from getbit_events.errors import InputError, StoreError
from getbit_events.simulate import simulate_games
from getbit_events.validate import GameReport, validate_game
from importers.gbn import read_gbn, write_gbn
from store import MIGRATIONS, GameStore, check_store, game_hash, readmodel

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass

ROOT = Path(__file__).resolve().parent.parent


def _reports(text: str, source: str = "games.gbn") -> list[GameReport]:
    return [validate_game(g) for g in read_gbn(text, source)]


def _sim(n: int = 6, variant: str = "standard", swimmers: int = 5, seed: int = 1) -> str:
    return write_gbn(simulate_games(n, variant, swimmers, seed, "random"))


INVALID = """[Line "Ann, Bob, Cid, Dee"]
1. Ann 1, Bob 2, Cid 3, Dee 4
2. Ann 2, Bob 3, Cid 4, Dee 5 ; bit Dee
"""
BAD_SETUP = '[Line "Ann, Ann, Bob, Cid"]\n1. Ann 1, Bob 2, Cid 3\n'


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    with GameStore(tmp_path / "games.db") as s:
        yield s


def test_a_stored_game_reads_back_as_its_events(store: GameStore) -> None:
    for variant, n in (("standard", 6), ("shark", 5), ("two-player", 4), ("three-player", 4)):
        for report in _reports(_sim(2, variant, n)):
            result = store.add(report)
            assert result.stored
            assert result.status == "valid"
            assert store.events(result.game_id) == [
                attrs.evolve(e, pos=None) for e in report.events
            ]
            game = store.game(result.game_id)
            assert game.winner == report.winner
            assert game.swimmers == report.events[0].line  # type: ignore[union-attr]


def test_gbn_to_events_to_gbn_to_events_is_the_identity(store: GameStore) -> None:
    text = _sim(5, "shark", 5) + "\n" + _sim(5, "three-player", 4)
    for report in _reports(text):
        game_id = store.add(report).game_id
        again = write_gbn([store.events(game_id)])
        (report2,) = _reports(again)
        assert report2.valid
        assert [attrs.evolve(e, pos=None) for e in report2.events] == store.events(game_id)


def test_the_same_game_is_stored_once_whatever_its_file(store: GameStore) -> None:
    text = _sim(3)
    first = [store.add(r) for r in _reports(text, "a.gbn")]
    crlf = text.replace("\n", "\r\n")
    again = [store.add(r) for r in _reports("# a comment\n" + crlf, "renamed.gbn")]
    assert [r.stored for r in first] == [True, True, True]
    assert [r.stored for r in again] == [False, False, False]
    assert [r.game_id for r in again] == [r.game_id for r in first]
    assert store.count() == 3
    assert len(store.table_rows("events")) == sum(len(r.events) for r in _reports(text))


def test_the_hash_ignores_layout_but_not_content() -> None:
    (a,) = _reports('[Line "Ann, Bob, Cid, Dee"]\n1. Ann 1, Bob 2, Cid 3, Dee 4\n')
    (b,) = _reports('[Line "Ann,Bob,Cid,Dee"]\n\n1.  ann 1,bob 2, cid 3 ,Dee 4 # hi\n')
    (c,) = _reports('[Line "Ann, Bob, Cid, Dee"]\n1. Ann 2, Bob 1, Cid 3, Dee 4\n')
    assert game_hash(a) == game_hash(b) != game_hash(c)


def test_invalid_games_are_kept_with_their_violations(store: GameStore) -> None:
    (report,) = _reports(INVALID)
    result = store.add(report)
    assert result.status == "invalid"
    (violation,) = store.violations(result.game_id)
    assert (violation.line, violation.round, violation.code) == (3, 2, "wrong-bite")
    (bad_setup,) = _reports(BAD_SETUP)
    no_setup = store.add(bad_setup)
    assert store.events(no_setup.game_id) == []
    assert store.violations(no_setup.game_id)[0].code == "duplicate-name"
    assert [g.status for g in store.games(status="invalid")] == ["invalid", "invalid"]


def test_a_game_with_syntax_errors_is_not_stored(store: GameStore) -> None:
    (report,) = _reports('[Line "Ann, Bob, Cid, Dee"]\n1. Ann one\n')
    with pytest.raises(InputError, match="a game with syntax errors is not stored"):
        store.add(report)
    assert store.count() == 0


@pytest.mark.parametrize("name", ["O'Brien", "<script>alert(1)</script>", "=cmd()", "../etc"])
def test_hostile_names_are_stored_as_given(store: GameStore, name: str) -> None:
    text = f'[Event "{name}"]\n[Line "{name}, Bob, Cid, Dee"]\n1. {name} 1, Bob 2, Cid 3, Dee 4\n'
    (report,) = _reports(text)
    game = store.game(store.add(report).game_id)
    assert game.swimmers[0] == name
    assert dict(game.tags) == {"Event": name}
    assert [g.id for g in store.games(player=name.upper())] == [game.id]
    assert next(store.swimmer_rows(swimmer=name))["name"] == name


def test_a_quote_is_not_a_legal_name(store: GameStore) -> None:
    (report,) = _reports('[Line "O\'Brien \\"x\\", Bob, Cid, Dee"]\n')
    assert report.violations[0].code == "bad-name"
    result = store.add(report)
    assert result.status == "invalid"


def test_events_and_violations_are_append_only(store: GameStore) -> None:
    (report,) = _reports(INVALID)
    game_id = store.add(report).game_id
    for sql in (
        "UPDATE event_runs SET events = '[]'",
        "DELETE FROM event_runs",
        "UPDATE event_games SET strings = '[]'",
        "DELETE FROM event_games",
        "UPDATE event_kinds SET template = '{}'",
        "DELETE FROM event_kinds",
        "INSERT OR REPLACE INTO event_kinds SELECT * FROM event_kinds",
        "DELETE FROM violations",
        "UPDATE games SET status = 'valid'",
    ):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            store.db.execute(sql)
    assert len(store.events(game_id)) == len(report.events)


def test_rebuilt_read_models_equal_the_incremental_ones(store: GameStore) -> None:
    for text in (
        _sim(4, "shark", 4),
        _sim(4, "two-player", 4),
        _sim(3, "three-player", 4),
        INVALID,
    ):
        for report in _reports(text):
            store.add(report)
    incremental = store.table_rows(readmodel.TABLE)
    assert len(incremental) > 40
    result = store.rebuild()
    assert result.games == store.count() == 12
    assert store.table_rows(readmodel.TABLE) == incremental


def test_swimmer_rows_filter_on_read_model_columns(store: GameStore) -> None:
    for report in _reports(_sim(3)):
        store.add(report)
    rows = list(store.swimmer_rows(player_key="ann"))
    assert len(rows) == 3
    assert {r["name"] for r in rows} == {"Ann"}
    with pytest.raises(ValueError, match="not read-model columns: age"):
        list(store.swimmer_rows(age=3))


def test_swimmer_tuples_are_every_row_in_the_order_stored(store: GameStore) -> None:
    ids = [store.add(r).game_id for r in _reports(_sim(4) + "\n" + _sim(3, "shark", 4, 7))]
    rows = list(store.swimmer_tuples(("game_id", "swimmer", "won")))
    assert rows == [(r["game_id"], r["swimmer"], r["won"]) for r in store.swimmer_rows()]
    assert list(dict.fromkeys(r[0] for r in rows)) == ids
    with pytest.raises(ValueError, match="not read-model columns: age"):
        store.swimmer_tuples(("game_id", "age"))


def test_streams_come_in_the_order_stored_and_survive_a_rebuild(store: GameStore) -> None:
    ids = [store.add(r).game_id for r in _reports(_sim(5))]
    assert [gid for gid, _ in store.streams()] == ids
    assert dict(store.streams()) == {gid: store.events(gid) for gid in ids}  # shared, equal
    assert ids != sorted(ids)  # the order is not the ids'
    before = list(store.swimmer_tuples(("game_id", "swimmer")))
    store.rebuild()
    assert list(store.swimmer_tuples(("game_id", "swimmer"))) == before


def test_a_game_is_found_by_the_start_of_its_id(store: GameStore) -> None:
    ids = [store.add(r).game_id for r in _reports(_sim(2))]
    assert store.game(ids[0][:4]).id == ids[0]
    with pytest.raises(InputError, match="no game 'zzz' in"):
        store.game("zzz")
    whole = store.game(ids[1]).hash  # what games --json shows beside the id
    assert len(whole) == 64
    assert store.game(whole).id == store.game(whole[:20]).id == ids[1]
    other = whole[:20] + ("0" if whole[20] != "0" else "1")
    with pytest.raises(InputError, match=f"no game '{other}' in"):
        store.game(other)


def test_reopening_applies_no_migration_twice(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        s.add(_reports(_sim(1))[0])
    with GameStore(path) as s:
        applied = [m.name for m in MIGRATIONS.applied(s.db)]
        assert applied == [
            "m001_core_tables", "m002_read_model", "m003_defences", "m004_history", "m005_sources",
            "m006_compact", "m007_game", "m008_line_date", "m009_no_hash_index", "m010_record",
            "m011_by_number", "m012_stored_events",
        ]
        assert s.count() == 1


def test_a_new_read_model_version_rebuilds_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        s.add(_reports(_sim(1))[0])
        before = s.table_rows(readmodel.TABLE)
        s.db.execute("DELETE FROM game_swimmers")
    monkeypatch.setattr(readmodel, "VERSION", readmodel.VERSION + 1)
    with GameStore(path) as s:
        assert s.table_rows(readmodel.TABLE) == before


# -- files that are not our store are refused and left alone -----------------------


def test_a_file_that_is_not_sqlite_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"my precious notes\n" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database"):
        GameStore(path)
    assert path.read_bytes() == b"my precious notes\n" * 100


def test_a_corrupt_store_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        s.add(_reports(_sim(1))[0])
    data = bytearray(path.read_bytes())
    data[100:4000] = b"\xff" * 3900
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match="not a usable getbit store"):
        GameStore(path)
    assert path.read_bytes() == bytes(data)


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE invoices (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=r"not a getbit store \(it holds invoices\); refusing"):
        GameStore(path)


def test_a_store_from_a_newer_getbit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    with GameStore(path) as s:
        s.db.execute(
            "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) "
            "VALUES ('getbit-events', 'm099_future', 'later')"
        )
    with pytest.raises(StoreError, match="written by a newer getbit"):
        GameStore(path)


# -- crashes and concurrency -------------------------------------------------------

_SLOW_IMPORT = """
import sys, time
from store import GameStore
from getbit_events.validate import validate_game
from importers.gbn import read_gbn
reports = [validate_game(g) for g in read_gbn(open(sys.argv[2]).read(), "big.gbn")]
with GameStore(sys.argv[1]) as store:
    for r in reports:
        store.add(r)
        print("stored", flush=True)
"""


def _kill_after(script: str, db: Path, games: Path, lines: int) -> int:
    """Run ``script`` on ``db`` and ``games``; SIGKILL it once it has printed ``lines``
    lines (and a little more time). How many lines it printed by then."""
    proc = subprocess.Popen(
        [sys.executable, "-c", script, str(db), str(games)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    printed = sum(1 for _ in range(lines) if proc.stdout.readline())
    time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return printed


def test_a_kill_mid_import_leaves_no_half_game(tmp_path: Path) -> None:
    db, games = tmp_path / "games.db", tmp_path / "big.gbn"
    games.write_text(_sim(150, "standard", 5, 3), encoding="utf-8")
    _kill_after(_SLOW_IMPORT, db, games, 10)
    with GameStore(db) as store:
        stored = store.count()
        assert 10 <= stored < 150
        counts = {}
        for row in store.db.query("SELECT game_id, COUNT(*) AS n FROM events GROUP BY game_id"):
            counts[row["game_id"]] = row["n"]
        assert {g.id: g.events for g in store.games()} == counts
        rows = store.db.query("SELECT COUNT(DISTINCT game_id) AS n FROM game_swimmers")
        assert next(rows)["n"] == stored


def test_a_games_read_model_rows_are_kept_in_its_range_of_rowids(tmp_path: Path) -> None:
    from store.schema import ROW_SLOTS

    path = tmp_path / "games.db"
    with GameStore(path) as store:
        with store.batch():
            for report in _reports(_sim(3, "shark", 5)):  # five swimmers and the Shark
                store.add(report)
        store.add(_reports(_sim(1, seed=9))[0])  # a game alone, not in a batch
        games = store.db.execute("SELECT rowid, id FROM games ORDER BY rowid").fetchall()
        rows = store.db.execute(
            f"SELECT rowid, game_id FROM {readmodel.TABLE} ORDER BY rowid").fetchall()
        indexed = [r[0] for r in store.db.execute(
            "SELECT i.name FROM sqlite_master m, pragma_index_info(m.name) i "
            "WHERE m.type = 'index' AND m.tbl_name = ?", (readmodel.TABLE,))]
    counts = [6, 6, 6, 5]  # five swimmers and the Shark; five swimmers
    assert rows == [(number * ROW_SLOTS + k, game_id)
                    for (number, game_id), n in zip(games, counts, strict=True)
                    for k in range(n)]
    assert indexed == ["player_key"]  # no index of game ids, each a random page
    conn = sqlite3.connect(path)  # a row moved out of its game's range
    conn.execute(f"UPDATE {readmodel.TABLE} SET rowid = rowid + 1000 WHERE rowid = ?",
                 (games[1][0] * ROW_SLOTS,))
    conn.commit()
    conn.close()
    damage = check_store(path).damage
    assert any(d.game == games[1][1] and "read-model rows" in d.problem for d in damage), damage


@pytest.mark.patched
def test_two_games_whose_hashes_start_alike_get_distinct_ids(
    store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from store import adding as module

    real = module.lines_digest
    monkeypatch.setattr(
        module, "lines_digest", lambda r, lines: "abcdef" * 2 + real(r, lines)[12:]
    )
    first, second = _reports(_sim(2))
    a, b = store.add(first), store.add(second)
    assert a.game_id == "abcdefabcdef"
    assert b.game_id.startswith("abcdefabcdef")
    assert len(b.game_id) == 16
    assert store.add(first) == attrs.evolve(a, stored=False)
    assert store.add(second) == attrs.evolve(b, stored=False)  # found under its longer id
    assert store.count() == 2


# -- batches ---------------------------------------------------------------------


def _totals(store: GameStore) -> dict[str, list[dict[str, object]]]:
    return {t: store.table_rows(t) for t in (readmodel.TABLE, *readmodel.TOTALS)}


def test_a_batch_is_stored_whole_or_not_at_all(store: GameStore) -> None:
    reports = _reports(_sim(3))

    def add_then_fail() -> None:
        with store.batch():
            for report in reports:
                assert store.add(report).stored
            raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        add_then_fail()
    assert store.count() == 0
    assert all(not rows for rows in _totals(store).values())
    with store.batch():
        for report in reports:
            store.add(report)
    assert store.count() == 3
    assert sum(g.events for g in store.games()) == sum(len(r.events) for r in reports)


def test_a_game_twice_in_one_batch_is_stored_once(store: GameStore) -> None:
    [report] = _reports(_sim(1))
    with store.batch():
        first, again = store.add(report), store.add(report)
    assert first.stored
    assert not again.stored
    assert again.game_id == first.game_id
    assert store.count() == 1


def test_a_batch_keeps_its_savepoints_in_memory_and_then_puts_the_setting_back(
    store: GameStore,
) -> None:
    """Each game's savepoint copies the pages it changes: in a batch SQLite keeps the
    copies in memory (``temp_store`` 2), not in a temporary file; after it, stored or
    not, the connection's setting is what it was (its sorts go where they went)."""
    [report] = _reports(_sim(1))

    def temp_store() -> int:
        return int(store.db.execute("PRAGMA temp_store").fetchone()[0])

    before = temp_store()
    assert before != 2
    with store.batch():
        assert temp_store() == 2
        store.add(report)
    assert temp_store() == before
    with pytest.raises(RuntimeError, match="stop"), store.batch():
        raise RuntimeError("stop")
    assert temp_store() == before
    assert store.count() == 1


def test_batches_cannot_nest(store: GameStore) -> None:
    with store.batch(), pytest.raises(RuntimeError, match="already"), store.batch():
        pass


def test_batched_and_game_by_game_imports_store_the_same(tmp_path: Path) -> None:
    texts = (_sim(5, "shark", 4, 2), _sim(4, "two-player", 4, 3), INVALID, _sim(6, seed=4))
    reports = [r for text in texts for r in _reports(text)]
    with GameStore(tmp_path / "one.db") as one, GameStore(tmp_path / "many.db") as many:
        for report in reports:
            one.add(report)
        for start in (0, 4, 11):
            with many.batch():
                for report in reports[start : {0: 4, 4: 11, 11: len(reports)}[start]]:
                    many.add(report)
        assert _totals(many) == _totals(one)
        assert [g.id for g in many.games()] == [g.id for g in one.games()]
        many.rebuild()
        assert _totals(many) == _totals(one)


_BATCHED_IMPORT = """
import sys
from pathlib import Path
from store import importing
from store import GameStore
importing.BATCH_GAMES = 7
with GameStore(sys.argv[1]) as store:
    importing.import_paths(store, [Path(sys.argv[2])],
                           on_report=lambda r, res: print("stored", flush=True))
"""


def test_a_kill_mid_batched_import_leaves_whole_games_and_true_totals(tmp_path: Path) -> None:
    db, games = tmp_path / "games.db", tmp_path / "big.gbn"
    games.write_text(_sim(150, "standard", 5, 5), encoding="utf-8")
    reported = _kill_after(_BATCHED_IMPORT, db, games, 14)
    with GameStore(db) as store:
        stored = store.count()
        assert reported <= stored < 150  # every game reported stored is stored
        assert stored % 7 == 0  # whole batches only
        counts = {}
        for row in store.db.query("SELECT game_id, COUNT(*) AS n FROM events GROUP BY game_id"):
            counts[row["game_id"]] = row["n"]
        assert {g.id: g.events for g in store.games()} == counts
        assert check_store(db).ok  # the chain, its head and the totals are whole too
        kept = _totals(store)
        store.rebuild()
        assert _totals(store) == kept  # the totals are those of the games stored
