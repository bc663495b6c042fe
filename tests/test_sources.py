"""The record's text kept as imported (issue 12): ``getbit show ID --source``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli import app
from store import GameStore, check_store

#: what these test is plain Python in both builds (none of setup.py's COMPILED is their
#: subject): the compiled build's pass of .ci/run leaves them to the plain pass

# two games, with a comment, CRLF line ends and a non-ASCII name, as a table writes them
TWO = (
    "# Friday club\r\n"
    '[Event "Friday"]\r\n[Line "John, Anne, Beth, Zoë"]\r\n\r\n'
    "1. John 4, Anne 1, Beth 4, Zoë 5\r\n\r\n"
    '[Event "Friday"]\r\n[Line "John, Anne, Beth, Ted"]\r\n\r\n'
    "1. John 4, Anne 1, Beth 4, Ted 99\r\n"
).encode()


def _run(*args: str) -> tuple[int, bytes, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout_bytes, result.stderr


@pytest.fixture
def stored(tmp_path: Path) -> tuple[Path, list[str]]:
    record = tmp_path / "club.gbn"
    record.write_bytes(TWO)
    db = tmp_path / "games.db"
    code, _, _ = _run("import", "--db", str(db), str(record))
    assert code == 1  # the second game plays a 99
    with GameStore(db) as store:
        ids = [g.id for g in store.games()]
    return db, ids


def test_each_game_keeps_its_part_of_the_file_byte_for_byte(
    stored: tuple[Path, list[str]],
) -> None:
    db, ids = stored
    parts = []
    for game in ids:
        code, out, _ = _run("show", "--db", str(db), game, "--source")
        assert code == 0
        parts.append(out)
    assert b"".join(parts) == TWO  # comments, line ends and all
    assert parts[1].startswith(b'[Event "Friday"]\r\n')
    assert b"Ted 99" in parts[1]
    assert "Zoë".encode() in parts[0]


def test_source_is_not_json(stored: tuple[Path, list[str]]) -> None:
    db, ids = stored
    code, out, err = _run("show", "--db", str(db), ids[0], "--source", "--json")
    assert (code, out) == (2, b"")
    assert "--source writes the record's text as imported, not JSON" in err


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE sources SET text = x'00'",
        "DELETE FROM sources",
        "INSERT OR REPLACE INTO sources SELECT game, game_id, x'00', 1 FROM sources",
        "REPLACE INTO sources SELECT game, game_id, x'00', 1 FROM sources",
        ("INSERT INTO sources SELECT game, game_id, x'00', 1 FROM sources WHERE true "
        "ON CONFLICT (game) DO UPDATE SET text = excluded.text"),
    ],
)
def test_a_kept_text_cannot_be_rewritten_or_removed(
    stored: tuple[Path, list[str]], sql: str
) -> None:
    db, ids = stored
    conn = sqlite3.connect(db)
    with pytest.raises(sqlite3.IntegrityError, match="sources are append-only"):
        conn.execute(sql)
    conn.close()
    with GameStore(db, create=False) as store:
        assert store.source(ids[0]) is not None


def test_check_names_a_dropped_guard_of_the_texts(stored: tuple[Path, list[str]]) -> None:
    db, _ = stored
    assert check_store(db).ok
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER sources_no_update")
    conn.commit()
    conn.close()
    result = check_store(db)
    assert not result.ok
    assert any("sources_no_update" in d.problem and "record texts" in d.problem
               for d in result.damage)


def test_check_names_a_text_rewritten_behind_its_guard_put_back(
    stored: tuple[Path, list[str]],
) -> None:
    """The guard dropped, the text rewritten, the guard made again as it was: the
    game's record hash (m010_record), which its chain value covers, no longer matches."""
    db, ids = stored
    conn = sqlite3.connect(db)
    (guard,) = conn.execute(
        "SELECT sql FROM sqlite_master WHERE name = 'sources_no_update'").fetchone()
    conn.execute("DROP TRIGGER sources_no_update")
    conn.execute("UPDATE sources SET text = CAST('[Event \"forged\"]' AS BLOB), size = NULL "
                 "WHERE game_id = ?", (ids[0],))
    conn.execute(guard)
    conn.commit()
    conn.close()
    result = check_store(db)
    assert [(d.game, d.problem) for d in result.damage] == [
        (ids[0], ("its record text or its violations' lines, columns or rulings are not those "
         "it was stored with (they do not hash to its record)")),
    ]
    code, out, _ = _run("check", "--db", str(db))
    assert code == 1
    assert ids[0] in out.decode()


def test_a_game_with_no_text_kept_says_so(tmp_path: Path) -> None:
    from getbit_events.validate import validate_game
    from importers.gbn import read_gbn

    db = tmp_path / "games.db"
    with GameStore(db) as store:  # from Python, a record read from text keeps none
        game = store.add(validate_game(read_gbn(TWO.decode(), "club.gbn")[0])).game_id
    code, out, err = _run("show", "--db", str(db), game, "--source")
    assert (code, out) == (2, b"")
    assert f"game {game} keeps no record text" in err


def test_a_damaged_packed_text_is_named_not_a_crash(tmp_path: Path) -> None:
    # show --source said "internal error (a bug ...): Error -5 while decompressing data", exit 3
    record = tmp_path / "long.gbn"
    code, _, _ = _run("simulate", "--games", "1", "--seed", "3", "-o", str(record))
    assert code == 0
    db = tmp_path / "games.db"
    assert _run("import", "--db", str(db), str(record))[0] == 0
    conn = sqlite3.connect(db)
    game_id, text, size = conn.execute("SELECT game_id, text, size FROM sources").fetchone()
    assert len(text) < size  # kept packed (zlib)
    conn.execute("DROP TRIGGER sources_no_update")
    conn.execute("UPDATE sources SET text = ?", (b"\x00" + text[1:],))
    conn.commit()
    conn.close()
    code, out, err = _run("show", "--db", str(db), game_id, "--source")
    assert (code, out) == (2, b"")
    assert err.strip() == (
        f"getbit show: {db}: game {game_id}: its record text is damaged (it does not unpack "
        "to the length stored with it); run getbit check"
    )
