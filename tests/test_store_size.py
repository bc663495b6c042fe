"""The store's size (issue 15): events kept compactly (``store.eventlog``), the view
``events`` one row an event, record texts compressed, and a store written before
migrated to it with nothing said differently."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli import app
from getbit_events.simulate import simulate_games
from importers.gbn import write_gbn
from importers.wire import payload_json
from store import GameStore, check_store, eventlog

# not marked ``layers``: the events these encode go through store/encoding.py, which is
# compiled (setup.py's COMPILED), so the compiled build's pass of .ci/run runs them too

OLD = Path(__file__).resolve().parent.parent / "fixtures" / "stores"


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


def _size(db: Path) -> int:
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    return int(pages) * int(size)


def test_the_store_is_at_most_three_times_its_records(tmp_path: Path) -> None:
    records = tmp_path / "sim.gbn"
    records.write_text(write_gbn(simulate_games(300, "standard", 5, 3, "sensible")), "utf-8")
    db = tmp_path / "games.db"
    code, _, _ = _run("import", "--db", str(db), str(records))
    assert code == 0
    ratio = _size(db) / records.stat().st_size
    assert ratio <= 3.0, f"the store is {ratio:.1f} times its records"


NAMES = ["Zoë", "Jo%se", "Åsa", "日本", "Bob"]


def test_the_events_view_gives_every_event_as_stored(tmp_path: Path) -> None:
    record = tmp_path / "odd.gbn"
    games = simulate_games(4, "standard", 5, 11, "random")
    text = write_gbn(games)
    for k, name in enumerate(("Ann", "Bob", "Cid", "Dee", "Eve")):
        text = text.replace(name, NAMES[k])
    record.write_text(text, "utf-8")
    with GameStore(tmp_path / "g.db") as store:
        _run("import", "--db", str(store.path), str(record))
        ids = [g.id for g in store.games()]
        assert ids
        for game_id in ids:
            wanted = [
                (seq, e.TYPE, e.VERSION, e.round, payload_json(e))
                for seq, e in enumerate(store.events(game_id), 1)
            ]
            found = store.db.execute(
                "SELECT seq, type, version, round, payload FROM events WHERE game_id = ? "
                "ORDER BY seq",
                (game_id,),
            ).fetchall()
            assert found == wanted
    assert check_store(tmp_path / "g.db").ok


def test_record_texts_are_kept_compressed_and_given_back_byte_for_byte(tmp_path: Path) -> None:
    record = tmp_path / "sim.gbn"
    record.write_bytes(write_gbn(simulate_games(3, "standard", 4, 5, "random")).encode()
                       .replace(b"\n", b"\r\n"))
    db = tmp_path / "g.db"
    _run("import", "--db", str(db), str(record))
    with GameStore(db) as store:
        kept = store.db.execute("SELECT length(text), size FROM sources").fetchall()
        assert all(length < size for length, size in kept)
        texts = [store.source(g.id) for g in store.games()]
    assert b"".join(t or b"" for t in texts) == record.read_bytes()


def _said(db: Path, ids: list[str], played: list[str]) -> dict[str, str]:
    """What the commands say of a store, as the goldens of ``make-main.sh`` hold it."""
    shown = []
    for game_id in ids:
        for extra in ([], ["--source"]):
            result = CliRunner().invoke(app, ["show", "--db", str(db), game_id, *extra])
            shown.append(result.output)
    return {
        "export.jsonl": _run("export", "--db", str(db), "--format", "jsonl", *played)[1],
        "export.gbn": _run("export", "--db", str(db), *played)[1],
        "show.txt": "".join(shown),
        "stats.json": _run("stats", "--json", "--db", str(db))[1],
        "check.json": _run("check", "--json", "--db", str(db))[1],
    }


def _unrecorded(check: str, games: int) -> dict[str, Any]:
    """``check --json`` of a store written before ``m010_record``, the note that its
    games' record texts are not hashed taken out once found as it should be."""
    said: dict[str, Any] = json.loads(check)
    assert said["notes"][-1].startswith(
        f"{games} games stored before their record texts were hashed (m010_record)"
    )
    said["notes"].pop()
    return said


def test_a_store_written_before_migrates_and_says_the_same(tmp_path: Path) -> None:
    db = tmp_path / "main.db"
    shutil.copy(OLD / "main.db", db)
    conn = sqlite3.connect(db)
    ids = [r[0] for r in conn.execute("SELECT id FROM games ORDER BY rowid")]
    played = [r[0] for r in conn.execute("SELECT id FROM games WHERE events > 0 ORDER BY rowid")]
    conn.close()
    assert _unrecorded(_run("check", "--json", "--db", str(db))[1], len(ids)) == json.loads(
        (OLD / "main.check.json").read_text("utf-8")
    )  # read-only: checked as it is, not migrated
    with GameStore(db) as store:  # migrated on opening
        kinds = {r[0]: r[1] for r in store.db.execute("SELECT name, type FROM sqlite_master")}
        assert kinds["events"] == "view"
        assert kinds["event_runs"] == "table"
        assert "idx_games_hash" not in kinds  # m009: the index of ids finds a game stored
        (guard,) = store.db.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'games_no_replace'").fetchone()
        assert "hash" not in guard
    said = _said(db, ids, played)
    for name, text in said.items():
        golden = (OLD / f"main.{name}").read_text("utf-8")
        if name == "check.json":  # the games stored before m010 are said, and only they
            assert _unrecorded(text, len(ids)) == json.loads(golden), name
        elif name.endswith(".json"):
            assert json.loads(text) == json.loads(golden), name
        elif name == "show.txt":
            assert text.split() == golden.split(), name  # the terminal's width aside
        else:
            assert text == golden, name


def test_sqlite3_shell_reads_the_events_view(tmp_path: Path) -> None:
    shell = shutil.which("sqlite3")
    if shell is None:
        pytest.skip("no sqlite3 shell here")
    records = tmp_path / "sim.gbn"
    records.write_text(write_gbn(simulate_games(2, "standard", 4, 1, "random")), "utf-8")
    db = tmp_path / "g.db"
    _run("import", "--db", str(db), str(records))
    out = subprocess.run(
        [shell, str(db), "SELECT type, payload FROM events WHERE seq = 2 LIMIT 1"],
        capture_output=True, text=True, check=True,
    ).stdout
    assert out.startswith('card-chosen|{"who":')


_SCALARS = (
    st.text(max_size=12) | st.integers(-(10**12), 10**12) | st.booleans() | st.none()
    | st.floats(allow_nan=False, allow_infinity=False)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["who", "why", "limb", "cards", "%s", 'a"b']), inner,
                      max_size=4),
    max_leaves=20,
)


@given(value=_VALUES, spaced=st.booleans())
@settings(max_examples=300, deadline=None)
def test_every_payload_text_comes_back_byte_for_byte(
    log_store: GameStore, value: object, spaced: bool
) -> None:
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": ") if spaced else (",", ":"))
    conn = log_store.db.conn
    rows = [(1, "card-chosen", 1, 0, text), (2, "card-chosen", 1, 0, "not json %s"),
            (3, "x", 2, 1, text)]
    strings, runs = eventlog.Log().encode(conn, rows)
    decoded = eventlog.Decoded()
    eventlog.run_rows(conn, eventlog.Kinds(), json.loads(strings), runs, decoded)
    assert decoded.unread == []
    assert decoded.rows == [(seq, t, v, r, p) for seq, t, v, r, p in rows]


@pytest.fixture(scope="module")
def log_store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameStore]:
    with GameStore(tmp_path_factory.mktemp("log") / "g.db") as store:
        yield store  # its kinds grow from example to example


def _m010(tmp_path: Path, *tamper: str) -> Path:
    """The fixture store brought up to ``m010_record`` (before ``m011_by_number``), as the
    getbit of then left it, with ``tamper`` done to it first behind the triggers."""
    db = tmp_path / "m010.db"
    shutil.copy(OLD / "main.db", db)
    conn = sqlite3.connect(db)
    for sql in tamper:
        conn.execute(sql)
    conn.commit()
    conn.close()
    import sqlite_utils

    from store.migrations import MIGRATIONS

    MIGRATIONS.apply(sqlite_utils.Database(db), stop_before="m011_by_number")
    return db


def _indexed(db: Path, table: str) -> list[list[str]]:
    conn = sqlite3.connect(db)
    try:
        return [[c[2] for c in conn.execute(f"PRAGMA index_info('{name}')")]
                for _, name, *_ in conn.execute(f"PRAGMA index_list('{table}')")]
    finally:
        conn.close()


def test_texts_and_events_are_kept_by_the_games_number_after_migrating(tmp_path: Path) -> None:
    db = _m010(tmp_path)
    assert ["game_id"] in _indexed(db, "event_games")
    assert ["game_id"] in _indexed(db, "sources")
    before = check_store(db)  # read-only: as the store is, its former guards known
    assert before.ok, before.damage
    with GameStore(db, readonly=True) as store:
        ids = [g.id for g in store.games()]
        said = [(store.events(i), store.source(i)) for i in ids]
    with GameStore(db) as store:  # migrated on opening
        assert [(store.events(i), store.source(i)) for i in ids] == said
        numbers = store.db.execute(
            "SELECT g.rowid, s.game, s.game_id = g.id FROM games g "
            "JOIN sources s ON s.game_id = g.id ORDER BY g.rowid").fetchall()
    assert numbers
    assert all(n == k and same for n, k, same in numbers)
    assert _indexed(db, "event_games") == []
    assert _indexed(db, "sources") == []
    after = check_store(db)
    assert after.ok
    assert after.games == before.games
    assert after.events == before.events


def test_migrating_numbers_texts_and_events_left_without_a_game_below_every_game(
    tmp_path: Path,
) -> None:
    db = _m010(
        tmp_path,
        "DROP TRIGGER games_no_delete",
        "DELETE FROM games WHERE rowid = (SELECT MAX(rowid) FROM games WHERE events > 0)",
    )
    conn = sqlite3.connect(db)
    (gone,) = conn.execute("SELECT game_id FROM event_games WHERE game_id NOT IN "
                           "(SELECT id FROM games)").fetchone()
    runs = conn.execute("SELECT COUNT(*) FROM event_runs r JOIN event_games g ON "
                        "g.game = r.game WHERE g.game_id = ?", (gone,)).fetchone()[0]
    conn.close()
    with GameStore(db) as store:
        kept = store.db.execute(
            "SELECT g.game, COUNT(*) FROM event_games g JOIN event_runs r ON r.game = g.game "
            "WHERE g.game_id = ? GROUP BY g.game", (gone,)).fetchall()
        assert kept == [(-1, runs)]  # its runs followed it
        assert store.db.execute(
            "SELECT game FROM sources WHERE game_id = ?", (gone,)).fetchall() == [(-2,)]
    records = tmp_path / "more.gbn"
    records.write_text(write_gbn(simulate_games(2, "standard", 4, 9, "random")), "utf-8")
    code, out, _ = _run("import", "--db", str(db), str(records))
    assert code == 0
    assert "2 stored" in out
    found = {(d.game, d.problem) for d in check_store(db).damage}
    assert (gone, "its events are stored but its game is not (the game was removed)") in found
    assert (gone, "its record text is stored but its game is not") in found
