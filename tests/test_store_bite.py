"""Games of "Come on! Bite me!" in the store (issue 16): the ``game`` column and the
migration that adds it, the compact events of the ``bm-`` events, and what is
stored for such a game (``store.bite``)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

from biteme.simulate import simulate_bites
from biteme.validate import validate_bite
from cli import app
from getbit_events.errors import InputError
from getbit_events.simulate import simulate_games
from importers.bite_jsonl import iter_bite_file, write_bite_jsonl
from importers.bmn_write import write_bmn
from importers.gbn import write_gbn
from importers.wire import bite_payload_json, trusted_bite_event
from store import GameStore, check_store, eventlog

OLD = Path(__file__).resolve().parent.parent / "fixtures" / "stores"


def _chain(db: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT id, prev, chain FROM games ORDER BY rowid").fetchall()
    finally:
        conn.close()


def test_an_old_store_migrates_with_every_game_get_bit_and_its_chain_standing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.db"
    shutil.copy(OLD / "main.db", db)
    before = _chain(db)
    assert before
    with GameStore(db) as store:  # migrated on opening
        games = list(store.games(everything=True))
        kinds = {g.game for g in games}
    assert kinds == {"get-bit"}
    assert len(games) == len(before)
    assert _chain(db) == before  # no row rewritten, no chain value changed
    checked = check_store(db)
    assert checked.ok, checked.damage
    assert checked.games == len(before)


def test_check_finds_a_game_said_to_be_of_the_other_game(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    shutil.copy(OLD / "main.db", db)
    with GameStore(db) as store:
        first = next(iter(store.games())).id
        store.db.execute("DROP TRIGGER games_no_update")
        store.db.execute("UPDATE games SET game = 'bite-me' WHERE id = ?", [first])
    damage = [d for d in check_store(db).damage if d.game == first]
    assert any("chain value" in d.problem for d in damage)


def _bite_rows(seed: int) -> list[tuple[list[object], list[tuple[object, ...]]]]:
    games = []
    for events in simulate_bites(3, 4, seed):
        rows = [
            (seq, e.TYPE, e.VERSION, e.turn, bite_payload_json(e))
            for seq, e in enumerate(events, 1)
        ]
        games.append((list(events), rows))
    return games


def test_bite_me_events_are_one_row_an_event_in_the_events_view(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    games = _bite_rows(5)
    with GameStore(db) as store:
        conn = store.db.conn
        conn.execute("BEGIN")
        log = eventlog.Log()
        for number, (_, rows) in enumerate(games, 1):
            eventlog.encode(conn, log, 1000 + number, f"bite{number}", rows)
            # the games row they are the events of: the view gives a stored game's events
            conn.execute(
                "INSERT INTO games (rowid, id, hash, status, imported_at, game) "
                "VALUES (?, ?, ?, 'valid', '', 'bite-me')",
                (1000 + number, f"bite{number}", f"hash{number}"),
            )
        conn.execute("COMMIT")
        for number, (events, rows) in enumerate(games, 1):
            found = conn.execute(
                "SELECT seq, type, version, round, payload FROM events WHERE game_id = ? "
                "ORDER BY seq",
                (f"bite{number}",),
            ).fetchall()
            assert found == rows
            assert {r[1] for r in found} >= {"bm-game-started", "bm-attack", "bm-game-ended"}
            back = [trusted_bite_event(t, v, r, json.loads(p)) for _, t, v, r, p in found]
            assert back == events


# -- import: both games in one store, through the same pipeline ---------------------

ROOT = Path(__file__).resolve().parent.parent
MISTAKES = ROOT / "fixtures" / "biteme-invalid" / "mistakes.bmn"
BROKEN_BMN = """[Game "Come on! Bite me!"]
[Seats "Ann, Bob, Cid"]
[Deal "Ann Tiger, Bob ???, Cid Lion"]

1. Ann Tiger attacks Bob
"""


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A folder of both games' records: GBN, BMN, a log of each game's events, a
    bite-me game twice, one that breaks the rules and one that cannot be read."""
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "a.gbn").write_text(
        write_gbn(simulate_games(4, "standard", 4, 3, "random")), "utf-8"
    )
    bites = [list(g) for g in simulate_bites(5, 4, 11)]
    (folder / "b.bmn").write_text(write_bmn(bites[:3]) + "\n" + BROKEN_BMN, "utf-8")
    (folder / "c.jsonl").write_text(
        "".join(write_bite_jsonl((f"g{k}", g) for k, g in enumerate(bites[2:]))), "utf-8"
    )
    # the mistakes of fixtures/biteme-invalid, a misnumbered turn among them
    (folder / "d.bmn").write_text(MISTAKES.read_text("utf-8"), "utf-8")
    return folder


def _stored(db: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT id, hash, game, status, winner, rounds, events, violations, swimmers, "
            "prev, chain FROM games ORDER BY rowid"
        ).fetchall()
    finally:
        conn.close()


def test_import_stores_both_games_in_one_store_whatever_the_jobs(
    mixed: Path, tmp_path: Path
) -> None:
    found = []
    for jobs in ("1", "2"):
        db = tmp_path / f"j{jobs}.db"
        code, out, err = _run("import", "--db", str(db), "--jobs", jobs, str(mixed))
        assert code == 1, err  # a game breaks the rules, one cannot be read
        # 4 Get Bit!, 5 bite-me (one of them twice), the invalid one
        assert out.strip() == "9 stored, 1 already stored, 1 stored as invalid, 1 unreadable"
        assert re.search(r"b\.bmn game 4 \(line \d+\): unreadable, not stored", err)
        assert "d.bmn game 1 (line 3): 5 violations, stored as invalid" in err
        found.append([row[:9] for row in _stored(db)])
        assert check_store(db).ok
    assert found[0] == found[1]
    kinds = [row[2] for row in found[0]]
    assert kinds == ["get-bit"] * 4 + ["bite-me"] * 6
    again = _run("import", "--db", str(tmp_path / "j1.db"), str(mixed))
    assert again[1].strip() == (
        "0 stored, 11 already stored, 0 stored as invalid, 1 unreadable"
    )


def test_a_stored_bite_me_game_reads_back_as_checked(mixed: Path, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _run("import", "--db", str(db), str(mixed / "d.bmn"), str(mixed / "b.bmn"))
    records = [*iter_bite_file(mixed / "d.bmn"), *iter_bite_file(mixed / "b.bmn")][:4]
    with GameStore(db) as store:
        games = list(store.games())
        assert [g.game for g in games] == ["bite-me"] * 4
        for stored, record in zip(games, records, strict=True):
            report = validate_bite(record)
            assert store.bite_events(stored.id) == [
                attrs.evolve(e, pos=None) for e in report.events
            ]
            assert stored.status == ("invalid" if report.violations else "valid")
            assert stored.winner == report.winner
            assert stored.swimmers == report.events[0].seats
            assert [v.code for v in store.violations(stored.id)] == [
                v.code for v in report.violations
            ]
            view = store.db.execute(
                "SELECT seq, type, version, round, payload FROM events WHERE game_id = ? "
                "ORDER BY seq",
                (stored.id,),
            ).fetchall()  # one row an event, as stored and hashed
            assert view == [
                (seq, e.TYPE, e.VERSION, e.turn, bite_payload_json(e))
                for seq, e in enumerate(report.events, 1)
            ]
        with pytest.raises(InputError, match="is a game of Come on! Bite me!, not of Get Bit!"):
            store.events(games[0].id)
        store.rebuild()  # Get Bit!'s read models: nothing of these games
        assert store.table_rows("game_swimmers") == []
        assert store.left_out() == {"superseded": 0, "retracted": 0, "broken": 0}


def test_get_bit_statistics_are_the_same_beside_bite_me_games(
    mixed: Path, tmp_path: Path
) -> None:
    alone, both = tmp_path / "alone.db", tmp_path / "both.db"
    _run("import", "--db", str(alone), str(mixed / "a.gbn"))
    _run("import", "--db", str(both), str(mixed))
    for args in (["stats", "--json"], ["stats", "--json", "--player", "Ann"]):
        said = [json.loads(_run(*args, "--db", str(db))[1]) for db in (alone, both)]
        assert said[0] == said[1]


def test_check_finds_a_bite_me_game_changed(mixed: Path, tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _run("import", "--db", str(db), str(mixed / "b.bmn"))
    conn = sqlite3.connect(db)
    first = conn.execute("SELECT id FROM games ORDER BY rowid").fetchone()[0]
    conn.execute("DROP TRIGGER event_games_no_update")
    conn.execute(
        "UPDATE event_games SET strings = replace(strings, 'Ann', 'Zed') WHERE game_id = ?",
        (first,),
    )
    conn.commit()
    conn.close()
    damage = check_store(db).damage
    assert [d.game for d in damage if d.game is not None] == [first]


# -- the commands over stored games of Come on! Bite me! -------------------------------


@pytest.fixture
def store_db(mixed: Path, tmp_path: Path) -> Path:
    db = tmp_path / "store.db"
    _run("import", "--db", str(db), str(mixed))
    return db


def test_games_lists_both_games_and_rules_chooses(store_db: Path) -> None:
    code, out, _ = _run("games", "--db", str(store_db))
    assert code == 0
    lines = [line.split("\t") for line in out.splitlines()]
    assert lines[0][-1] == "game"
    assert [line[-1] for line in lines[1:]] == ["get-bit"] * 4 + ["bite-me"] * 6
    code, out, _ = _run("games", "--db", str(store_db), "--rules", "bite-me", "--json")
    listed = [json.loads(line) for line in out.splitlines()]
    assert len(listed) == 6
    assert {g["game"] for g in listed} == {"bite-me"}
    assert {g["variant"] for g in listed} == {None}
    _, out, _ = _run("games", "--db", str(store_db), "--rules", "bite-me", "--status", "invalid")
    assert len(out.splitlines()) == 2  # the header and mistakes.bmn's game
    # a player of a bite-me game is one of its seats, whatever the case
    _, out, _ = _run("games", "--db", str(store_db), "--rules", "bite-me", "--player", "uMA")
    assert len(out.splitlines()) == 1
    _, out, _ = _run("games", "--db", str(store_db), "--rules", "bite-me", "--player", "dee")
    assert len(out.splitlines()) == 7
    code, _, err = _run("games", "--db", str(store_db), "--rules", "chess")
    assert code == 2
    assert "--rules" in err


def test_show_gives_a_bite_me_game_its_verdict_and_record(store_db: Path) -> None:
    with GameStore(store_db) as store:
        invalid = next(iter(store.games(game="bite-me", status="invalid")))
    code, out, _ = _run("show", "--db", str(store_db), invalid.id)
    assert code == 0
    assert f"game {invalid.id} (invalid): Come on! Bite me!" in out
    assert "seats: Ann, Bob, Cid, Dee" in out
    assert "line 12:1: turn 5: it is Ann's turn, not Bob's (B4) [wrong-player]" in out
    assert '[Seats "Ann, Bob, Cid, Dee"]' in out
    assert "5. Dee retreats Meerkat ; Dee draws Panda" in out  # numbered as recorded
    code, out, _ = _run("show", "--db", str(store_db), invalid.id, "--json")
    data = json.loads(out)
    assert data["game"] == "bite-me"
    assert [v["code"] for v in data["violation_list"]] == [
        "wrong-pick", "wrong-trophy", "wrong-take", "turn-number", "wrong-player"
    ]
    assert data["record"].startswith('[Game "Come on! Bite me!"]\n')
    code, out, _ = _run("show", "--db", str(store_db), invalid.id, "--source")
    assert out == (store_db.parent / "records" / "d.bmn").read_text("utf-8")


@pytest.mark.parametrize("fmt", ["bmn", "jsonl"])
def test_export_gives_back_the_same_verdicts_and_stores_nothing_new(
    store_db: Path, tmp_path: Path, fmt: str
) -> None:
    out_file = tmp_path / f"back.{fmt}"
    code, _, err = _run(
        "export", "--db", str(store_db), "--rules", "bite-me", "--format", fmt,
        "-o", str(out_file),
    )
    assert code == 0, err
    with GameStore(store_db) as store:
        stored = list(store.games(game="bite-me"))
    _, out, _ = _run("validate", "--json", str(out_file))
    checked = [json.loads(line) for line in out.splitlines()]
    assert [c["valid"] for c in checked] == [g.status != "invalid" for g in stored]
    assert [c["winner"] for c in checked] == [g.winner for g in stored]
    for c, g in zip(checked, stored, strict=True):
        assert [(v["round"], v["code"]) for v in c["violations"]] == [
            (v.round, v.code) for v in GameStore(store_db).violations(g.id)
        ]
    code, out, _ = _run("import", "--db", str(store_db), str(out_file))
    assert out.strip() == "0 stored, 6 already stored, 0 stored as invalid, 0 unreadable"


def test_a_misnumbered_turn_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _run("import", "--db", str(db), str(MISTAKES))
    back = tmp_path / "back.bmn"
    _run("export", "--db", str(db), "--rules", "bite-me", "-o", str(back))
    _, out, _ = _run("validate", "--json", str(back))
    assert "turn-number" in [v["code"] for v in json.loads(out)["violations"]]


def test_export_keeps_the_games_apart(store_db: Path) -> None:
    with GameStore(store_db) as store:
        ids = [g.id for g in store.games()]
    code, _, err = _run("export", "--db", str(store_db), ids[0], ids[-1])
    assert code == 2
    assert "export one game at a time" in err
    code, _, err = _run("export", "--db", str(store_db), ids[-1], "--format", "gbn")
    assert code == 2
    assert "--format bmn" in err
    code, out, _ = _run("export", "--db", str(store_db), ids[-1])
    assert code == 0
    assert out.startswith('[Game "Come on! Bite me!"]')
    code, out, err = _run("export", "--db", str(store_db))  # Get Bit!'s, as before
    assert code == 0
    assert "Bite me" not in out
    assert out.count("[Line ") == 4
    with GameStore(store_db) as store:  # and it says what it left out: games lists them
        others = store.count(game="bite-me")
    assert err == (
        f"note: {others} games of Come on! Bite me! left out: an export writes one game's "
        "records (--rules bite-me exports them)\n"
    )


def test_export_says_it_leaves_out_a_game_with_no_events(tmp_path: Path) -> None:
    # games --status invalid listed it; export --status invalid wrote nothing, said nothing
    db, record = tmp_path / "g.db", tmp_path / "bad.gbn"
    record.write_text('[Line "Ann, Bob, Cid"]\n\n1. Ann 1, Bob 2, Cid 3\n', encoding="utf-8")
    assert _run("import", "--db", str(db), str(record))[0] == 1  # three swimmers, no variant
    code, out, err = _run("export", "--db", str(db), "--status", "invalid")
    assert (code, out) == (0, "")
    assert err == (
        "note: 1 game left out: a set-up that breaks the rules leaves no events to write "
        "('getbit show ID --source' gives its record as imported)\n"
    )


def test_replay_of_a_stored_bite_me_game(store_db: Path, tmp_path: Path) -> None:
    with GameStore(store_db) as store:
        game = next(iter(store.games(game="bite-me", status="valid")))
    code, out, _ = _run("replay", "--db", str(store_db), game.id)
    assert code == 0
    assert out.startswith(f"stored game {game.id} (store.db)")
    assert "Turn 1: " in out
    page = tmp_path / "r.html"
    code, _, err = _run("replay", "--db", str(store_db), game.id, "--as", "Bob",
                        "--html", str(page))
    assert code == 0, err
    assert "as Bob saw it" in err
    assert "<html" in page.read_text("utf-8")
    code, out, _ = _run("replay", str(store_db), "--id", game.id, "--round", "2")
    assert code == 0
    assert "Turn 2: " in out
    assert "Turn 3: " not in out


def test_stats_over_the_store_count_as_over_the_files(tmp_path: Path) -> None:
    files = [str(ROOT / "fixtures" / "biteme"), str(ROOT / "fixtures" / "biteme-stats")]
    db = tmp_path / "g.db"
    _run("import", "--db", str(db), *files)
    from_files = json.loads(_run("stats", "--json", "--rules", "bite-me", *files)[1])
    # the store holds no game of Get Bit!: stats counts this game without --rules
    code, out, err = _run("stats", "--json", "--db", str(db))
    assert code == 0, err
    assert json.loads(out) == from_files
    assert from_files["games_excluded"] == {"invalid": 1, "unfinished": 2, "filtered": 0}
    _run("import", "--db", str(db), str(ROOT / "fixtures" / "games" / "friday-club.gbn"))
    _, out, err = _run("stats", "--json", "--db", str(db))
    assert json.loads(out).get("game") != "bite-me"
    n = from_files["games_included"] + sum(from_files["games_excluded"].values())
    assert f"not counted: {n} games of Come on! Bite me! (getbit stats --rules bite-me" in err
    code, out, _ = _run("stats", "--json", "--db", str(db), "--rules", "bite-me")
    assert json.loads(out) == from_files
    # the same counting and the same outputs, wherever the games come from
    csv_files = _run("stats", "--csv", "-", "--rules", "bite-me", *files)[1]
    assert csv_files.count("\n") == 1 + len(from_files["players"])
    assert _run("stats", "--csv", "-", "--db", str(db), "--rules", "bite-me")[1] == csv_files
    code, _, err = _run("stats", "--db", str(db), "--rules", "bite-me", "--encoding", "latin-1")
    assert code == 2
    assert "--encoding goes with FILES" in err


def test_stats_over_the_store_take_the_filters(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    _run("import", "--db", str(db), str(ROOT / "fixtures" / "biteme"),
         str(ROOT / "fixtures" / "biteme-stats"))

    def counted(*args: str) -> tuple[int, set[str]]:
        code, out, err = _run("stats", "--json", "--db", str(db), "--rules", "bite-me", *args)
        assert code == 0, err
        data = json.loads(out)
        return data["games_included"], {p["name"] for p in data["players"]}

    assert counted("--player", "FAY") == (1, {"Ann", "Bob", "Cid", "Dee", "Eve", "Fay"})
    assert counted("--player", "vic", "--player", "fay")[0] == 2
    assert counted("--tag", "Event=Friday club") == (0, set())  # the worked game: unfinished
    assert counted("--since", "2026-11-28") == (1, {"Uma", "Vic", "Wes"})  # shared.bmn's
    assert counted("--until", "2026-11-27")[0] == 0  # the worked game, unfinished; no other
    code, _, err = _run("stats", "--db", str(db), "--rules", "bite-me", "--tag", "oops")
    assert code == 2
    assert "--tag" in err


# -- revisions and retractions ---------------------------------------------------------


def test_a_bite_me_game_is_revised_and_retracted_as_get_bit_games_are(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.db"
    worked = ROOT / "fixtures" / "biteme" / "worked.bmn"
    wrong = tmp_path / "wrong.bmn"
    # the worked game with a mistake: Dee's draw in turn 4 is a Lion, not a Panda
    wrong.write_text(
        worked.read_text("utf-8").replace("Dee draws Panda", "Dee draws Lion", 1), "utf-8"
    )
    code, _, err = _run("import", "--db", str(db), str(wrong))
    assert code == 1, err
    with GameStore(db) as store:
        (old,) = [g.id for g in store.games()]
    code, _, err = _run("import", "--db", str(db), str(worked))
    assert f"looks like a revision of {old}" in err
    code, out, err = _run("import", "--db", str(db), str(worked), "--replaces", old,
                          "--reason", "Dee drew a Panda")
    assert code == 0, err
    assert f"it supersedes {old} (Dee drew a Panda)" in out
    _, out, _ = _run("games", "--db", str(db), "--rules", "bite-me", "--json")
    assert [json.loads(line)["status"] for line in out.splitlines()] == ["unfinished"]
    _, out, _ = _run("show", "--db", str(db), old)
    assert "superseded by" in out
    assert check_store(db).ok
    # a record of the other game replaces no game of this one
    friday = ROOT / "fixtures" / "games" / "friday-club.gbn"
    code, _, err = _run("import", "--db", str(db), str(friday), "--replaces", old)
    assert code == 2
    assert "a record replaces a game of its own game only" in err
    with GameStore(db) as store:
        assert store.count() == 2  # nothing written
        new = next(iter(store.games(game="bite-me"))).id
    code, out, err = _run("retract", "--db", str(db), new, "--reason", "a test")
    assert code == 0, err
    _, out, _ = _run("stats", "--json", "--db", str(db), "--rules", "bite-me")
    assert json.loads(out)["games_excluded"] == {"invalid": 0, "unfinished": 0, "filtered": 0}
    assert check_store(db).ok


# -- hostile names: stored as given, shown as text ----------------------------------------

HOSTILE_EVENT = '=cmd() </script><script>alert(1)</script> [red]x[/red] \\"q\\"'
HOSTILE_SEATS = ("<script>", "../etc", "O'Neil", "Dee")


def test_hostile_names_are_stored_as_given_and_shown_escaped(tmp_path: Path) -> None:
    text = (ROOT / "fixtures" / "biteme" / "worked.bmn").read_text("utf-8")
    for old, new in zip(("Ann", "Bob", "Cid"), HOSTILE_SEATS, strict=False):
        text = text.replace(old, new)
    text = text.replace('[Event "Friday club"]', f'[Event "{HOSTILE_EVENT}"]')
    record = tmp_path / "h.bmn"
    record.write_text(text, "utf-8")
    db = tmp_path / "h.db"
    code, _, err = _run("import", "--db", str(db), str(record))
    assert code == 0, err
    event = HOSTILE_EVENT.replace('\\"', '"')
    _, out, _ = _run("games", "--db", str(db), "--json")
    (listed,) = [json.loads(line) for line in out.splitlines()]
    assert listed["swimmers"] == list(HOSTILE_SEATS)
    assert listed["tags"]["Event"] == event
    _, out, _ = _run("games", "--db", str(db))
    assert out.splitlines()[1].split("\t")[3] == event
    assert out.splitlines()[1].split("\t")[5] == ", ".join(HOSTILE_SEATS)
    code, out, _ = _run("show", "--db", str(db), listed["id"])
    assert code == 0
    assert f"  Event: {event}\n" in out  # the markup is text, not colour
    assert "seats: <script>, ../etc, O'Neil, Dee" in out
    assert "1. <script> Tiger attacks ../etc Mosquito" in out
    page = tmp_path / "h.html"
    code, _, err = _run("replay", "--db", str(db), listed["id"], "--as", "<script>",
                        "--html", str(page))
    assert code == 0, err
    html = page.read_text("utf-8")
    assert "<script>alert" not in html
    assert "</script><script>" not in html
    assert html.count("<script") == html.count("</script>")  # the page's own scripts only
    assert "&lt;script&gt;" in html or "\\u003cscript\\u003e" in html
    code, out, _ = _run("replay", "--db", str(db), listed["id"])
    assert code == 0
    assert "4 players clockwise: <script>, ../etc, O'Neil, Dee" in out
    assert not (tmp_path / "etc").exists()


def test_parquet_holds_get_bit_games_only(store_db: Path, tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    with GameStore(store_db) as store:
        get_bit = {g.id for g in store.games(everything=True) if g.game == "get-bit"}
        bite = next(iter(store.games(game="bite-me"))).id
    assert get_bit
    code, _, err = _run("export", "--db", str(store_db), "--all", "--format", "parquet",
                        "-o", str(tmp_path / "all"))
    assert code == 0, err
    games = pq.read_table(tmp_path / "all" / "games").column("id").to_pylist()
    assert set(games) == get_bit  # the tables' columns are Get Bit!'s
    events = pq.read_table(tmp_path / "all" / "events").column("game_id").to_pylist()
    assert set(events) <= get_bit
    code, _, err = _run("export", "--db", str(store_db), "--format", "parquet",
                        "-o", str(tmp_path / "one"), bite)
    assert code == 2
    assert f"game {bite} is a game of Come on! Bite me!" in err
